"""The trusted kernel: re-checks a proof certificate from scratch (see docs/certificates.md).

    >>> from olr_verify.kernel import check
    >>> cert = {"format": FORMAT, "claim": None, "kind": "inequality", "relation": "x**2 + 1 > 0",
    ...         "domain": [["x", "-oo", "oo"]], "tree": {"close": "interval"}}
    >>> check(cert)
    Verdict(accepted=True, reason='accepted')
    >>> check({**cert, "relation": "x**2 - 1 > 0"}).accepted
    False

It imports nothing from ``olr_verify.prover``, ``olr_verify.checks`` or ``olr_verify.hunting``:
python-flint balls, sympy (exact re-simplification, derivatives) and the safe reader olr_verify.expr.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import operator

import sympy as sp
from flint import ctx, fmpq

from olr_verify.kernel.inequality import (MAX_TERMS, Inequality, Rejected, _box_str, expanded_terms, check_inequality,
                                         check_names, env_of, read_expr)
from olr_verify.expr import bound_by_at, operands, same_text
from olr_verify.kernel.intervals import Undefined, compile_expr

FORMAT = "olr-verify-certificate/1"
PRECISION_BITS = 128
STATEMENT_KEYS = {"inequality": ("relation", "domain"), "identity": ("lhs", "rhs", "domain"),
                  "exact": ("relations",), "chain": ("links",)}


@dataclasses.dataclass(frozen=True)
class Verdict:
    accepted: bool
    reason: str


def statement_sha256(cert: dict) -> str:
    """SHA-256 of the canonical JSON of the certificate's statement fields."""
    keys = STATEMENT_KEYS.get(cert.get("kind"), ())
    text = json.dumps({k: cert.get(k) for k in keys}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def check(cert) -> Verdict:
    """``Verdict(True, "accepted")`` iff the certificate establishes its statement; never raises."""
    old = ctx.prec
    ctx.prec = PRECISION_BITS
    try:
        _check(cert)
        return Verdict(True, "accepted")
    except Rejected as exc:
        return Verdict(False, str(exc)[:500])  # a reason may quote a long expression
    except Exception as exc:  # noqa: BLE001 - whatever goes wrong, the certificate is not accepted
        return Verdict(False, f"malformed certificate: {type(exc).__name__}: {exc}"[:500])
    finally:
        ctx.prec = old


def _check(cert) -> None:
    if not isinstance(cert, dict) or cert.get("format") != FORMAT:
        raise Rejected(f"not an {FORMAT} certificate")
    kind = cert.get("kind")
    if kind not in STATEMENT_KEYS:
        raise Rejected(f"unknown kind {kind!r}")
    if "statement_sha256" in cert and cert["statement_sha256"] != statement_sha256(cert):
        raise Rejected("statement_sha256 does not match the statement")
    {"inequality": _inequality, "identity": _identity, "exact": _exact, "chain": _chain}[kind](cert)


def _inequality(cert: dict) -> None:
    """The tree closes the relation as read; what reading cancelled (1/x in x/x) must exist too."""
    check_inequality(cert)
    names = [str(d[0]) for d in cert["domain"]]
    _defined(cert["domain"], names, [read_expr(part, names) for part in operands(str(cert["relation"]))[1:]])


def _chain(cert: dict) -> None:
    """Every link accepted. What the links add up to is the printed proof's shape, bound to its claim by
    ``statement_sha256`` in results.json (``olr-verify check-proof --results``), not re-derived here."""
    links = cert["links"]
    if not isinstance(links, list) or not links:
        raise Rejected("a chain needs a non-empty list of links")
    for link in links:
        if not isinstance(link, dict):
            raise Rejected("a link is an object with a 'certificate'")
        verdict = check(link["certificate"])
        if not verdict.accepted:
            raise Rejected(f"link {link.get('label')!r}: {verdict.reason}")


#: The exact transformations an identity may be reduced by, each with the largest lhs - rhs (in sympy operations)
#: it is tried on: sympy's together and simplify have no budget of their own (simplify took 10 s on a 66-operation
#: sum of exp/sqrt/log fractions and more than 300 s on 1,017); the committed certificates need at most 86
#: operations for cancel and 69 for the simplify steps.
IDENTITY_STEPS = ((sp.expand, 20_000), (lambda e: sp.cancel(sp.together(e)), 200), (sp.simplify, 80),
                  (lambda e: sp.simplify(e.rewrite(sp.exp)), 80))


def _identity(cert: dict) -> None:
    """lhs == rhs on the domain: both sides and every operand written in them defined there (read with plain
    symbols: x/x reads as 1, but its operand 1/x must be defined) and lhs - rhs reduced to 0 exactly, read
    with the real, signed symbols of :func:`_signed`. The reader may evaluate as it reads: two different texts
    that read as one expression (diff(x**2, x) and 2*x) are an identity shown by reading; equal texts show nothing."""
    if same_text(cert["lhs"], cert["rhs"]):
        raise Rejected("lhs and rhs are the same text: the identity certifies nothing")
    names = [str(d[0]) for d in cert["domain"]]
    check_names(names)
    lhs, rhs = read_expr(cert["lhs"], names), read_expr(cert["rhs"], names)
    if expanded_terms(lhs) + expanded_terms(rhs) > MAX_TERMS:
        raise Rejected(f"lhs - rhs would expand to more than {MAX_TERMS} terms")
    parts = [read_expr(part, names) for side in (cert["lhs"], cert["rhs"]) for part in operands(str(side))]
    _defined(cert["domain"], names, [lhs, rhs, *parts])
    signed = _signed(cert["domain"], bound_by_at(cert["lhs"]) | bound_by_at(cert["rhs"]))
    diff = read_expr(cert["lhs"], signed) - read_expr(cert["rhs"], signed)
    size = sp.count_ops(diff)
    for step, largest in IDENTITY_STEPS:
        try:
            if size <= largest and step(diff) == 0:
                return
        except Exception:  # noqa: BLE001 - a transformation that fails is not a proof
            continue
    raise Rejected(f"no exact transformation reduces lhs - rhs ({size} operations) to 0")


def _signed(domain, unsigned: set[str]) -> dict[str, sp.Symbol]:
    """Each variable as a real symbol, positive (nonnegative, negative, nonpositive) where its bounds are
    constants that say so: the kernel's own reading of the domain (sympy then reads sqrt(x**2) as x on [1, 2]).
    A bound that depends on other variables, or whose sign sympy cannot tell, adds nothing; nor does a variable in
    ``unsigned`` (one that an at() replaces by a value that may lie outside its range)."""
    names, symbols = [str(d[0]) for d in domain], {}
    for name, lo, hi in domain:
        sign = {"real": True}
        low = None if lo == "-oo" or name in unsigned else read_expr(lo, names)
        high = None if hi == "oo" or name in unsigned else read_expr(hi, names)
        if low is not None and low.is_number:
            sign.update({"positive": True} if low.is_positive else {"nonnegative": True} if low.is_nonnegative else {})
        if high is not None and high.is_number:
            sign.update({"negative": True} if high.is_negative else {"nonpositive": True} if high.is_nonpositive else {})
        try:
            symbols[name] = sp.Symbol(name, **sign)
        except Exception as exc:  # noqa: BLE001 - contradictory signs: an empty range
            raise Rejected(f"the range of {name} is empty: [{lo}, {hi}]") from exc
    return symbols


#: Boxes tried when showing that both sides of an identity are defined on its domain.
DEFINED_BOXES = 64


def _defined(domain, names, sides) -> None:
    """Both sides defined (real, no division by 0, no log or fractional power of a non-positive number)
    on the whole domain, shown by interval enclosures on at most :data:`DEFINED_BOXES` boxes that cover
    it: an identity such as x/x == 1 or exp(log(x)) == x holds only where its sides exist."""
    if not names:  # constants (domain = {}): one enclosure each
        try:
            for side in sides:
                compile_expr(side)({})
        except Undefined as exc:
            raise Rejected(f"a side or operand has no real enclosure: {exc}") from None
        return
    frame = Inequality({"relation": f"{names[0]} >= 0", "domain": domain})
    enclosures = [compile_expr(side.subs(frame.maps, simultaneous=True)) for side in sides]
    boxes, used = [dict(frame.root)], 1
    while boxes:
        box = boxes.pop()
        try:
            for enclose in enclosures:
                enclose(env_of(box))
        except Undefined as exc:
            halves = _halves(box)
            used += 2
            if halves is None or used > DEFINED_BOXES:
                raise Rejected(f"a side is not shown defined on {_box_str(box)}: {exc}") from None
            boxes.extend(halves)


def _halves(box: dict) -> list[dict] | None:
    """The box cut in two across its widest finite side (a whole line is cut at 0); None if none can be."""
    best, width = None, fmpq(0)
    for name, (lo, hi) in box.items():
        if isinstance(lo, float) and isinstance(hi, float):
            return [{**box, name: (lo, fmpq(0))}, {**box, name: (fmpq(0), hi)}]
        if not isinstance(lo, float) and not isinstance(hi, float) and hi - lo > width:
            best, width = name, hi - lo
    if best is None:
        return None
    lo, hi = box[best]
    mid = (lo + hi) / 2
    return [{**box, best: (lo, mid)}, {**box, best: (mid, hi)}]


def _exact(cert: dict) -> None:
    relations = cert["relations"]
    if not isinstance(relations, list) or not relations:
        raise Rejected("'relations' must be a non-empty list")
    for text in map(str, relations):
        op = next((o for o in COMPARISONS if o in text), None)  # "<=" is tried before "<"
        if op is None or text.count(op) != 1:
            raise Rejected(f"not one relation with ==, <=, <, >= or >: {text!r}")
        sides = text.split(op)
        # reading may evaluate away what has no real value: cos(acos(2)) reads as 2, asin(2) - asin(2) as 0
        _defined([], [], [read_expr(part, []) for side in sides for part in operands(side)])
        lhs, rhs = (read_expr(side, []) for side in sides)
        if not COMPARISONS[op](_value(lhs), _value(rhs)):
            raise Rejected(f"false in exact arithmetic: {text}")


COMPARISONS = {"==": operator.eq, "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}


def _value(e: sp.Expr) -> fmpq:
    """Exact fmpq value of a rational expression (+, *, integer powers)."""
    if e.is_Rational:
        return fmpq(int(e.p), int(e.q))
    if e.is_Add or e.is_Mul:
        return functools.reduce(operator.add if e.is_Add else operator.mul, [_value(a) for a in e.args])
    if e.is_Pow and e.args[1].is_Integer:
        return _value(e.args[0]) ** int(e.args[1])
    raise Rejected(f"not a rational expression: {e}")

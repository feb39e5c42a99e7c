"""Shared machinery of the scalar checks (the declared claims of every ``paper.toml`` and the Python checks).

Three deciders, each returning an :class:`~olr_verify.outcome.Outcome`:

- :func:`identity` -- ``lhs == rhs`` decided by exact sympy simplification (``proved``); if sympy
  cannot close it, 50-digit evaluation at seeded random rational points gives ``verified`` or a
  ``refuted`` outcome whose artefact (replay type ``"identity"``) is re-checked at 60 digits;
- :func:`inequality` -- a scalar relation over a box (bounds may depend on earlier variables),
  decided by the rigorous prover ``olr_verify.prover.prove`` when it is importable; otherwise (or
  when it is inconclusive) a seeded float search whose violations are confirmed at 50 digits
  (replay type ``"scalar_relation"``), giving ``refuted`` or ``verified``;
- :func:`combine` -- the verdict of a printed chain from the verdicts of its links.

Numbers in artefacts are exact rationals written as strings (``"p/q"``) or decimal strings.
"""
from __future__ import annotations

import inspect
import math
import time
from fractions import Fraction
from typing import Any

from olr_verify.artefacts import replayer
from olr_verify.outcome import Context, Outcome

_ORDER = {"refuted": 0, "error": 1, "inconclusive": 2, "verified": 3, "proved": 4}


def _sp():
    import sympy

    return sympy


def parse(text: str):
    """A sympy expression or relation (kept unevaluated) from a string, by the safe reader
    :func:`olr_verify.expr.parse_any`: every name is a plain symbol (``E``, ``pi``, ``oo`` are the
    constants), decimals are exact; raises :class:`olr_verify.expr.ExprError` on anything else."""
    from olr_verify.expr import parse_any

    return parse_any(str(text), real=False)


def _exact(value: str):
    """An exact number from an artefact's point (``"-3/5"``, ``"0.25"``, ``"1e-3"``, ``"sqrt(2)"``)."""
    from olr_verify.expr import parse_expr

    return parse_expr(str(value), names={})


def slack_of(relation):
    """Slack s with ``relation`` true iff s >= 0 (or s > 0 for strict relations)."""
    sp = _sp()
    if isinstance(relation, (sp.LessThan, sp.StrictLessThan)):
        return relation.rhs - relation.lhs
    if isinstance(relation, (sp.GreaterThan, sp.StrictGreaterThan)):
        return relation.lhs - relation.rhs
    raise ValueError(f"relation must use <=, <, >= or >: {relation}")


class PrecisionLost(ArithmeticError):
    """sympy returned fewer correct digits than asked (cancellation beyond its working precision)."""


def eval_exact(expr, point: dict[str, str], digits: int = 60):
    """``expr`` at the exact point, evaluated by sympy/mpmath to ``digits`` significant digits; PrecisionLost if
    sympy could not reach them (exp(x + 1e-340) - exp(x) came back as a 1-bit -2^-126)."""
    sp = _sp()
    subs = {sp.Symbol(k): _exact(v) for k, v in point.items()}
    # symbols with assumptions (positive=True, real=True) are matched by name too
    subs.update({s: _exact(point[s.name]) for s in expr.free_symbols if s.name in point})
    value = sp.N(expr.subs(subs), digits)
    if isinstance(value, sp.Float) and value != 0 and value._prec < 3 * digits:
        raise PrecisionLost(f"{digits} digits asked, {value._prec} bits obtained")
    return value


def _to_rational_str(x: float) -> str:
    return str(Fraction(x).limit_denominator(10**12))


# --------------------------------------------------------------------------- replayers
# Tolerances of the replays: code constants, never read from an artefact.
RELATION_TOLERANCE = 1e-40  # the 60-digit slack must be below -this
IDENTITY_TOLERANCE = 1e-30  # |lhs - rhs| must exceed this times (1 + |lhs| + |rhs|)


def _point(rep: dict[str, Any], names) -> dict[str, str]:
    """The artefact's point as strings; every variable of the statement must be given."""
    point = rep.get("point")
    if not isinstance(point, dict):
        raise ValueError("replay.point must be an object name -> number")
    missing = sorted(set(map(str, names)) - set(map(str, point)))
    if missing:
        raise ValueError(f"replay.point gives no value for {missing}")
    return {str(k): str(v) for k, v in point.items()}


def _outside(rep: dict[str, Any], point: dict[str, str]) -> dict[str, Any] | None:
    """Not-confirmed details when the artefact carries a domain and the point is not in it."""
    if "domain" not in rep:
        return None
    domain = {str(k): (str(v[0]), str(v[1])) for k, v in rep["domain"].items()}
    if set(domain) - set(point) or not in_domain(point, domain):
        return {"reason": "the point is not inside the domain", "domain": rep["domain"], "point": point}
    return None


@replayer("scalar_relation")
def replay_scalar_relation(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Re-evaluate the relation at the stored exact point at 60 digits; confirmed if it fails."""
    sp = _sp()
    rep = artefact["replay"]
    rel = parse(rep["relation"])
    slack_expr = slack_of(rel)
    point = _point(rep, slack_expr.free_symbols)
    outside = _outside(rep, point)
    if outside:
        return False, outside
    strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
    if slack_expr.is_Rational:  # a fact between rational constants: decided exactly, with no tolerance
        return bool(slack_expr < 0 or (strict and slack_expr == 0)), {"slack_exact": str(slack_expr)}
    slack = eval_exact(slack_expr, point, 60)
    confirmed = bool(slack.is_real and (slack < -RELATION_TOLERANCE or (strict and exact_zero(slack_expr, point))))
    return confirmed, {"slack_60_digits": str(slack), "tolerance": RELATION_TOLERANCE}


def exact_zero(expr, point: dict[str, str]) -> bool:
    """``expr`` is exactly 0 at the exact point (a tiny positive value such as e^-1000 is not 0): where a strict
    relation fails. The kernel's test (:func:`olr_verify.kernel.inequality.exactly_zero`: an enclosure that
    excludes 0 settles "not 0", else sympy's simplify must reach 0), on ``expr`` with the point put in."""
    from olr_verify.kernel.inequality import exactly_zero

    return exactly_zero(expr.subs({s: _exact(point[s.name]) for s in expr.free_symbols if s.name in point}))


@replayer("identity")
def replay_identity(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """lhs - rhs at the stored exact point: exactly when it is a rational number there (a rational function at a
    rational point), else at 60 digits; confirmed if it is not 0 (beyond the tolerance, at 60 digits)."""
    rep = artefact["replay"]
    lhs_e, rhs_e = parse(rep["lhs"]), parse(rep["rhs"])
    point = _point(rep, lhs_e.free_symbols | rhs_e.free_symbols)
    outside = _outside(rep, point)
    if outside:
        return False, outside
    exact = (lhs_e - rhs_e).xreplace({s: _exact(point[s.name]) for s in (lhs_e - rhs_e).free_symbols})
    if exact.is_Rational:  # a rational function at a rational point: decided exactly, with no tolerance
        return exact != 0, {"difference_exact": str(exact)}
    lhs = eval_exact(lhs_e, point, 60)
    rhs = eval_exact(rhs_e, point, 60)
    if not (lhs.is_real and rhs.is_real):
        return False, {"reason": "lhs or rhs is not a real number at the point", "lhs": str(lhs), "rhs": str(rhs)}
    constant = nonzero_constant(lhs_e - rhs_e)
    if constant is not None:  # exact: the sides differ by this constant wherever both are defined
        return True, {"lhs": str(lhs), "rhs": str(rhs), "exact_difference": str(constant)}
    diff = abs(lhs - rhs)
    scale = 1 + abs(lhs) + abs(rhs)
    return bool(diff > IDENTITY_TOLERANCE * scale), {"lhs": str(lhs), "rhs": str(rhs), "difference": str(diff),
                                                     "tolerance": f"{IDENTITY_TOLERANCE} * (1 + |lhs| + |rhs|)"}


def nonzero_constant(diff):
    """The nonzero rational that ``diff`` expands to (``x + 10**-60 - x``), or None: a difference far below any
    sampling tolerance, decided exactly."""
    value = _sp().expand(diff)
    return value if value.is_Rational and value != 0 else None


# --------------------------------------------------------------------------- statement mode (replay binding)
_RECORDING: list[dict[str, Any]] | None = None  # set while registry_statements() runs a check


def recording() -> bool:
    """Whether a check is being run in statement mode (:func:`registry_statements`)."""
    return _RECORDING is not None


def _record(statement: dict[str, Any]) -> Outcome | None:
    """In statement mode: remember what a decider was asked and return a placeholder outcome."""
    if _RECORDING is None:
        return None
    _RECORDING.append(statement)
    return Outcome("inconclusive", "statement mode (replay binding): not decided", {})


def _artefact_statement(art: Any) -> dict[str, Any] | None:
    rep = art.get("replay") if isinstance(art, dict) else None
    if not isinstance(rep, dict):
        return None
    if rep.get("type") in ("scalar", "scalar_relation") and "relation" in rep:
        return {"kind": "relation", "relation": str(rep["relation"]), "domain": rep.get("domain")}
    if rep.get("type") == "identity" and "lhs" in rep and "rhs" in rep:
        return {"kind": "identity", "lhs": str(rep["lhs"]), "rhs": str(rep["rhs"]), "domain": rep.get("domain")}
    return None


def registry_statements(claim, quick: bool = True) -> tuple[list[dict[str, Any]], str]:
    """The relations and identities that ``claim``'s check decides, with their domains, and a note.

    The check runs in statement mode (``quick`` budget, default seed, figures in a throw-away folder):
    :func:`inequality` and :func:`identity` record their statement instead of deciding it; an
    artefact the check builds itself is recorded too. Used by ``olr-verify replay`` to rebuild a
    statement from the registry instead of trusting the artefact's copy.
    """
    global _RECORDING
    import tempfile
    from pathlib import Path

    from olr_verify.artefacts import STATEMENT_SECONDS, time_limit
    from olr_verify.prover import core

    fn = claim.check
    if fn is None:
        return [], "the claim has no check"
    def recording_prove(relation, domain, **_):  # direct prover calls are recorded too, not decided
        _record({"kind": "relation", "relation": relation,
                 "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()}})
        return core.ProofResult("inconclusive", None, 0.0, {"reason": "statement mode (replay binding)"})

    note = "complete"
    _RECORDING, cap, real_prove = [], core.TIMEOUT_CAP, core.prove
    core.TIMEOUT_CAP, core.prove = 1.0, recording_prove
    try:
        with tempfile.TemporaryDirectory() as tmp, time_limit(STATEMENT_SECONDS, "statement mode"):
            out = fn(Context(out_dir=Path(tmp), quick=quick))
        found = _artefact_statement(getattr(out, "counterexample", None))
        if found:
            _RECORDING.append(found)
    except TimeoutError:
        note = f"the check was stopped after {STATEMENT_SECONDS} s"
    except Exception as exc:  # noqa: BLE001 - what was recorded before still counts
        note = f"the check raised {type(exc).__name__}"
    finally:
        statements, _RECORDING, core.TIMEOUT_CAP, core.prove = _RECORDING, None, cap, real_prove
    return statements, note


# --------------------------------------------------------------------------- identities
def sympy_zero(diff) -> str | None:
    """Name of the exact sympy transformation that reduces ``diff`` to 0, or None."""
    sp = _sp()
    steps = [("expand", sp.expand), ("exp->symbols, cancel", _exp_to_symbols_cancel),
             ("cancel", lambda e: sp.cancel(sp.together(e))),
             ("simplify", sp.simplify),
             ("rewrite(exp)+simplify", lambda e: sp.simplify(e.rewrite(sp.exp))),
             ("expand(rewrite(exp))+cancel", lambda e: sp.cancel(sp.expand(sp.powsimp(e.rewrite(sp.exp)))))]
    for name, fn in steps:
        try:
            if fn(diff) == 0:
                return name
        except Exception:  # a transformation that fails is just not a certificate
            continue
    return None


def _exp_to_symbols_cancel(expr):
    """Write every exp(k*s + ...) as a product of powers of fresh symbols E_s, then cancel.

    Exact: exp is a homomorphism from (R,+) to (R_{>0},*), so a rational identity in the E_s
    (with rational exponents cleared by cancel) is an identity of the original expression.
    """
    sp = _sp()
    e = sp.expand(sp.powsimp(expr.rewrite(sp.exp)), power_exp=True, mul=False, multinomial=False)
    names = sorted(e.free_symbols, key=str)
    fresh = {s: sp.Symbol(f"E_{s}", positive=True) for s in names}

    def repl(arg):
        arg = sp.expand(arg)
        if not arg.is_polynomial(*names) or sp.Poly(arg, *names).total_degree() > 1:
            return None
        out = sp.exp(arg.subs({s: 0 for s in names}))
        for s in names:
            out *= fresh[s] ** arg.coeff(s)
        return out

    def walk(node):
        if node.func == sp.exp:
            r = repl(node.args[0])
            if r is not None:
                return r
        if not node.args:
            return node
        return node.func(*[walk(a) for a in node.args])

    return sp.cancel(sp.together(walk(e)))


def identity_certificate(lhs, rhs, domain: dict[str, tuple[str, str]],
                         printed: tuple[str, str, list[str]] | None = None) -> dict[str, Any]:
    """A kernel certificate (kind ``identity``, docs/certificates.md) of ``lhs == rhs``: the sides as written
    when ``printed`` = (lhs text, rhs text, their names outside the domain) gives them (a paper folder's claim:
    the kernel then reads what the paper prints, not what sympy made of it), else as sympy prints them."""
    from olr_verify.kernel import FORMAT, statement_sha256

    sp = _sp()
    free = {str(x) for x in lhs.free_symbols | rhs.free_symbols} | set(printed[2] if printed else ())
    names = list(domain) + sorted(free - set(domain))
    sides = printed[:2] if printed else (sp.sstr(lhs), sp.sstr(rhs))
    cert = {"format": FORMAT, "claim": None, "kind": "identity", "lhs": sides[0], "rhs": sides[1],
            "domain": [[n, *map(str, domain.get(n, ("-oo", "oo")))] for n in names]}
    cert["statement_sha256"] = statement_sha256(cert)
    return cert


def _sample_point(domain: dict[str, tuple[str, str]], rng, end: str | None = None) -> dict[str, str]:
    """An exact rational point of the (possibly nested) domain, drawn with ``rng``; ``end`` = "lo" or "hi" puts
    every variable with a finite end at that end (exactly), the others drawn."""
    sp = _sp()
    point: dict[str, str] = {}
    for name, (lo, hi) in domain.items():
        subs = {sp.Symbol(k): sp.Rational(v) for k, v in point.items()}
        at = {"lo": lo, "hi": hi}.get(end or "")
        if at is not None and at not in ("-oo", "oo"):
            value = sp.nsimplify(parse(at).subs(subs))
            if value.is_Rational:
                point[name] = str(value)
                continue
        lo_v = float(parse(lo).subs(subs)) if lo not in ("-oo",) else None
        hi_v = float(parse(hi).subs(subs)) if hi not in ("oo",) else None
        if lo_v is not None and hi_v is not None:
            x = rng.uniform(lo_v, hi_v)
        elif lo_v is not None:
            x = lo_v + rng.exponential(3.0)
        elif hi_v is not None:
            x = hi_v - rng.exponential(3.0)
        else:
            x = rng.normal(0, 4)
        point[name] = _to_rational_str(x)
    return point


def identity(lhs, rhs, domain: dict[str, tuple[str, str]], ctx: Context, *, what: str = "",
             points: int | None = None, assumptions_note: str = "",
             printed: tuple[str, str, list[str]] | None = None) -> Outcome:
    """Decide ``lhs == rhs`` (sympy expressions) on ``domain`` (sampling box for the fallback); ``printed``:
    see :func:`identity_certificate`."""
    sp = _sp()
    recorded = _record({"kind": "identity", "lhs": sp.sstr(lhs), "rhs": sp.sstr(rhs),
                        "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()}})
    if recorded is not None:
        return recorded
    from olr_verify.kernel.inequality import MAX_TERMS, expanded_terms

    t0 = time.perf_counter()
    ev: dict[str, Any] = {"identity": what or f"{sp.sstr(lhs)} == {sp.sstr(rhs)}"}
    if assumptions_note:
        ev["reading"] = assumptions_note
    free = sorted({str(x) for x in lhs.free_symbols | rhs.free_symbols} - set(domain))
    sampled = {**domain, **{name: ("-oo", "oo") for name in free}}  # a name outside the domain is any real
    bad = undefined_operand(printed[:2], sampled, ctx.seed) if printed else None
    if bad is not None:
        ev.update({"undefined_operand": bad, "reason": "an operand as written has no real value at a point inside "
                   "the domain: the identity is not shown on the stated domain"})
        return Outcome("inconclusive", "operand not defined inside the domain", ev)
    diff = lhs - rhs
    large = expanded_terms(diff) > MAX_TERMS  # (a+...+h)**24 would expand to millions of terms: no exact algebra, no budget
    how = None if large else sympy_zero(diff)
    if how is not None:
        ev.update({"certificate": f"sympy {how}(lhs - rhs) == 0 exactly", "seconds": round(time.perf_counter() - t0, 3)})
        return Outcome("proved", "exact sympy identity", ev,
                       certificate=identity_certificate(lhs, rhs, domain, printed))
    import numpy as np

    rng = np.random.default_rng(ctx.seed)
    n = points or (8 if ctx.quick else 30)
    worst = 0.0
    evaluated, undefined = 0, []
    constant = None if large else nonzero_constant(diff)

    def points():
        """(point, drawn): the ends of the ranges first, exactly, then 0 and the breaks (sign(x)**2 == 1 fails only
        at 0), then seeded draws."""
        for end in ("lo", "hi"):
            yield _sample_point(sampled, rng, end), False
        for pt in special_points([diff], sampled, ctx.seed + 1, near_ends=False):
            yield pt, False
        for _ in range(n):
            yield _sample_point(sampled, rng), True

    for pt, drawn in points():
        try:
            lv, rv = eval_exact(lhs, pt, 50), eval_exact(rhs, pt, 50)
        except PrecisionLost:
            continue
        except (ArithmeticError, TypeError):
            lv = rv = None
        if lv is None or not (lv.is_real and rv.is_real) or lv.free_symbols or rv.free_symbols:
            if drawn:  # an end may be a printed open end (x > 0 as [0, ...)), a break a removable singularity
                undefined.append(pt)
            continue
        rel = abs(lv - rv) / (1 + abs(lv) + abs(rv))
        if rel > IDENTITY_TOLERANCE or constant is not None:
            art = {"replay": {"type": "identity", "lhs": sp.sstr(lhs), "rhs": sp.sstr(rhs), "point": pt}}
            ev.update({"lhs_50": str(lv), "rhs_50": str(rv), "point": pt})
            if constant is not None:
                ev["exact_difference"] = str(constant)
                return Outcome("refuted", "exact: lhs - rhs expands to a nonzero constant", ev, art)
            return Outcome("refuted", "50-digit evaluation at a rational point (an end, a break or a seeded draw)",
                           ev, art)
        worst = max(worst, float(rel))
        evaluated += 1
    if undefined:
        ev.update({"undefined_at": undefined[:3], "points_undefined": len(undefined), "points_50_digits": evaluated,
                   "reason": "a side is not a real number at a point inside the domain: the identity is not shown "
                             "on the stated domain"})
        return Outcome("inconclusive", "50-digit evaluation at random points (sympy undecided)", ev)
    if evaluated == 0:
        ev["reason"] = "no sample point could be evaluated (free symbols outside the domain?)"
        return Outcome("inconclusive", "sympy undecided and no numeric evidence", ev)
    ev.update({"sympy": f"lhs - rhs could expand to more than {MAX_TERMS} terms: not tried" if large
               else "could not reduce lhs - rhs to 0", "points_50_digits": evaluated,
               "max_relative_difference": worst, "ends_sampled": True})
    return Outcome("verified", "50-digit evaluation at random points and at the ends (sympy undecided)", ev)


# --------------------------------------------------------------------------- inequalities
def _prover():
    try:
        from olr_verify.prover import prove  # noqa: WPS433 (import only when it exists)
    except Exception:
        return None
    return prove


def prove_shared(ctx: Context, prove, relation: str, domain: dict, **kwargs):
    """``prove(relation, domain, **kwargs)`` once per run (:func:`olr_verify.cache.shared`): several claims state the
    same relation (a lemma and the proof step that cites it), and the prover's verdict is a function of its input
    (budgets are units of work), so a later call with the same relation, domain (in the same order), options and
    quick-mode cap reads the first one's result (its ``seconds`` too)."""
    import hashlib
    import json

    from olr_verify.cache import shared
    from olr_verify.prover import core

    # the domain in its order (a bound may only use the variables before it, and the order sets the splits)
    key = json.dumps([relation, [[k, str(a), str(b)] for k, (a, b) in domain.items()],
                      [[k, repr(v)] for k, v in sorted(kwargs.items())], repr(core.TIMEOUT_CAP)])
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return shared(ctx, f"prove-{digest}", lambda: prove(relation, domain, **kwargs))


def _summary(cert: Any) -> Any:
    if cert is None:
        return None
    if isinstance(cert, dict):
        keep = {}
        for k, v in cert.items():
            s = v if isinstance(v, (int, float, bool)) or v is None else str(v)
            keep[k] = s if not isinstance(s, str) or len(s) < 300 else s[:300] + "..."
        return keep
    s = str(cert)
    return s if len(s) < 600 else s[:600] + "..."


def in_domain(point: dict[str, str], domain: dict[str, tuple[str, str]], strict: bool = False) -> bool:
    """Exact check that ``point`` lies in the closed (nested) domain; ``strict``: and on none of its ends (an end may
    be a printed open end: x > 0 registered as [0, oo))."""
    sp = _sp()
    subs = {sp.Symbol(k): _exact(v) for k, v in point.items()}
    for name, (lo, hi) in domain.items():
        x = subs[sp.Symbol(name)]
        for end, sign in ((lo, 1), (hi, -1)):
            if end in ("-oo", "oo"):
                continue
            gap = sp.N(sign * (x - parse(end).subs(subs)), 30)
            if bool(gap < 0) or (strict and not bool(gap > 0)):
                return False
    return True


OPERAND_POINTS = 8  # seeded interior points at which every written operand must have a real value


def undefined_operand(texts, domain: dict[str, tuple[str, str]], seed: int) -> dict[str, str] | None:
    """A seeded point strictly inside ``domain`` where an operand written in ``texts``
    (:func:`olr_verify.expr.operands`) has no real value, as ``{"operand": ..., "point": ...}``, or None. The reader
    cancels ``sqrt(x)*sqrt(x)`` to ``x`` before the prover, sympy or the search sees it; its operand ``sqrt(x)`` is
    evaluated here, in ball arithmetic first and exactly where a ball says undefined. Random points find an operand
    undefined on a part of the domain with room in it (x < 0 for sqrt(x)), as the sampling of an identity does, not
    a removable singularity at isolated points (``(exp(a - b) - 1)/(a - b)`` at a = b, the continuous extension
    being the printed reading): there the kernel refuses ``proved`` (operands defined on the whole domain) and the
    claim is at most ``verified``."""
    import numpy as np
    from flint import fmpq

    from olr_verify.expr import ExprError, operands, parse_expr
    from olr_verify.kernel.intervals import X, compile_expr

    names = list(domain)
    parts, seen = [], set()
    for text in texts:
        for part in dict.fromkeys(operands(str(text))):
            try:
                expr = parse_expr(part, names, real=False)
            except (ExprError, ValueError):  # the relation itself, or a name outside the domain
                continue
            if expr in seen or not _may_be_undefined(expr):
                continue
            seen.add(expr)
            try:
                parts.append((part, expr, compile_expr(expr)))
            except Exception:  # noqa: BLE001 - a function the interval code does not know: not tested here
                parts.append((part, expr, None))
    if not parts:
        return None
    rng = np.random.default_rng(seed)
    for _ in range(OPERAND_POINTS):
        try:
            point = _sample_point(domain, rng)
        except ValueError:  # a dependent range empty at the earlier draws
            continue
        if not in_domain(point, domain, strict=True):
            continue
        values = {k: _exact(v) for k, v in point.items()}
        env = {k: X.of(fmpq(int(q.p), int(q.q))) for k, q in values.items()}
        for text, expr, enclose in parts:
            if not _real_at(expr, enclose, values, env):
                return {"operand": text, "point": point}
    return None


def _may_be_undefined(expr) -> bool:
    """Whether ``expr``'s own top operation may have no real value (a division, a fractional power, a log, an
    inverse trigonometric or hyperbolic function, tan): the other operands are defined where their parts are,
    which are operands too."""
    sp = _sp()
    if expr.is_Pow:
        return not (expr.exp.is_Integer and expr.exp >= 0)
    return isinstance(expr, (sp.log, sp.asin, sp.acos, sp.atanh, sp.acosh, sp.tan, sp.acot, sp.cot))


MAX_SPECIAL = 48  # exact special points tried by an identity's sampling and after a relation's float search
NEAR_END = (3, 6, 10, 15, 20, 30, 45, 60)  # k of the points 10^-k inside a finite end: atanh(x) <= 40 fails there


def special_points(exprs, domain: dict[str, tuple[str, str]], seed: int, near_ends: bool = True
                   ) -> list[dict[str, str]]:
    """Exact points inside ``domain`` that a random draw never hits: one variable at a time at 0, at the breaks
    and zeros of ``exprs`` in it (:func:`_breaks`) and at 10^-k inside each finite end (``NEAR_END``: floats cannot
    come closer than about 10^-16), the other variables at one seeded point. A variable whose range depends on
    another one is left at the seeded point."""
    import numpy as np

    sp = _sp()
    try:
        base = _sample_point(domain, np.random.default_rng(seed))
    except ValueError:  # a dependent range empty at the draws
        return []
    out: list[dict[str, str]] = []
    for name, (lo, hi) in domain.items():
        ends = [None if end in ("-oo", "oo") else parse(end) for end in (lo, hi)]
        if any(e is not None and e.free_symbols for e in ends):
            continue
        values = {sp.Integer(0)}.union(*(_breaks(e, sp.Symbol(name)) for e in exprs))
        near = [end + sign * sp.Rational(1, 10**k) for k in NEAR_END
                for end, sign in zip(ends, (1, -1)) if near_ends and end is not None and end.is_Rational]
        for v in sorted(values, key=lambda v: (abs(float(v)), float(v))) + near:
            if (ends[0] is None or v > ends[0]) and (ends[1] is None or v < ends[1]):
                point = {**base, name: sp.sstr(v)}
                if in_domain(point, domain):
                    out.append(point)
    return out[:MAX_SPECIAL]


def _breaks(expr, sym) -> set:
    """Real numbers where ``expr`` may jump, kink or vanish as a function of ``sym`` alone: the zeros of the
    arguments of Abs, sign and Heaviside, of the differences of the arguments of Max and Min, of the sides of
    Piecewise conditions, of floor/ceiling arguments minus an integer in -10..10, and of ``expr`` itself (a strict
    relation's touching point), where these depend on ``sym`` only and are polynomials whose factors of degree 1 or
    2 give them exactly."""
    import itertools

    sp = _sp()
    args = [expr]
    for node in sp.preorder_traversal(expr):
        if isinstance(node, (sp.Abs, sp.sign, sp.Heaviside)):
            args.append(node.args[0])
        elif isinstance(node, (sp.Max, sp.Min)):
            args += [a - b for a, b in itertools.combinations(node.args, 2)]
        elif isinstance(node, sp.Piecewise):
            args += [c.lhs - c.rhs for _, c in node.args if isinstance(c, sp.core.relational.Relational)]
        elif isinstance(node, (sp.floor, sp.ceiling)):
            args += [node.args[0] - k for k in range(-10, 11)]
    found = set()
    for arg in args:
        if arg.free_symbols != {sym}:
            continue
        try:
            factors = sp.factor_list(sp.Poly(arg, sym))[1]
        except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed, ValueError, TypeError):
            continue
        for factor, _ in factors:
            if factor.degree() in (1, 2) and (factor.domain.is_QQ or factor.domain.is_ZZ):
                found.update(r for r in sp.roots(factor.as_expr(), sym) if r.is_real)
    return found


def _real_at(expr, enclose, values: dict, env: dict) -> bool:
    """``expr`` has a real value at the point (``values``: name -> exact rational; ``env``: the same as balls): its
    ball (``enclose``, compiled by the kernel's interval code) leaves no doubt, else exact evaluation decides."""
    from olr_verify.kernel.intervals import Undefined

    sp = _sp()
    if enclose is None:
        return True  # a function the interval code does not know: not a verdict on the operand
    try:
        enclose(env)
        return True
    except (Undefined, ZeroDivisionError, ArithmeticError):
        pass
    except Exception:  # noqa: BLE001 - the interval code fails on this form: not a verdict on the operand
        return True
    value = expr.xreplace({sp.Symbol(k): q for k, q in values.items()})
    return not value.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I) and value.is_real is not False


def search(relation: str, domain: dict[str, tuple[str, str]], ctx: Context, n: int | None = None):
    """Seeded float search for a violation; returns (exact point or None, samples, min float slack, points where
    the relation is not defined)."""
    import numpy as np
    sp = _sp()

    rel = parse(relation)
    slack = slack_of(rel)
    names = list(domain)
    syms = [sp.Symbol(v) for v in names]
    from olr_verify.prover.refute import lambdify  # numpy with Sigmoid, Softplus, Exprel, Max, Min, erf

    f = lambdify(slack, syms)
    strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
    rng = np.random.default_rng(ctx.seed)
    n = n or (3000 if ctx.quick else 40000)
    special = 3 * (len(names) + 1)  # rows at the exact ends and at 0: all variables, then one variable at a time
    cols: dict[str, np.ndarray] = {}
    for name, (lo, hi) in domain.items():
        env = {k: cols[k] for k in cols}
        lo_e, hi_e = parse(lo), parse(hi)
        lo_v = None if lo == "-oo" else sp.lambdify(list(map(sp.Symbol, env)), lo_e, "numpy")(*env.values())
        hi_v = None if hi == "oo" else sp.lambdify(list(map(sp.Symbol, env)), hi_e, "numpy")(*env.values())
        u = rng.random(n)
        spread = np.exp(rng.uniform(np.log(1e-15), np.log(60.0), n))  # atanh(x) <= 10 fails within 2e-9 of 1
        if lo_v is not None and hi_v is not None:
            lo_a, hi_a = np.broadcast_to(lo_v, (n,)).astype(float), np.broadcast_to(hi_v, (n,)).astype(float)
            x = lo_a + u * (hi_a - lo_a)
            k = n // 10  # points near the ends
            x[:k] = lo_a[:k] + np.minimum(spread[:k], hi_a[:k] - lo_a[:k])
            x[k:2 * k] = hi_a[k:2 * k] - np.minimum(spread[k:2 * k], hi_a[k:2 * k] - lo_a[k:2 * k])
        elif lo_v is not None:
            x = np.broadcast_to(lo_v, (n,)).astype(float) + spread
        elif hi_v is not None:
            x = np.broadcast_to(hi_v, (n,)).astype(float) - spread
        else:
            x = np.where(u < 0.5, -1.0, 1.0) * spread
        _put_special(x, len(cols), lo_v, hi_v)
        cols[name] = x
    with np.errstate(all="ignore"):
        s = np.asarray(f(*cols.values()), dtype=float) * np.ones(n)
    ok = np.isfinite(s)
    undefined = _undefined_points(slack, cols, names, domain, np.isnan(s[special:]), special)
    if not ok.any():
        return None, 0, None, undefined
    order = np.argsort(np.where(ok, s, np.inf))[:20]
    for i in order:
        if not (s[i] <= 0 if strict else s[i] < 0):
            break
        short = {v: _to_rational_str(float(cols[v][i])) for v in names}
        exact = {v: str(Fraction(float(cols[v][i]))) for v in names}  # 1 - 1e-15 is not 1 (atanh near its pole)
        for pt in dict.fromkeys([tuple(short.items()), tuple(exact.items())]):
            pt = dict(pt)
            if not in_domain(pt, domain):
                continue
            try:
                val = eval_exact(slack, pt, 50)
            except Exception:
                continue
            if val.is_real and (val < -1e-40 or (strict and exact_zero(slack, pt))):
                return pt, int(ok.sum()), float(s[i]), undefined
    for pt in special_points([slack], domain, ctx.seed + 1):  # a kink, a jump or a touching point, exactly
        try:  # floats first: exact evaluation only where they leave room for doubt
            with np.errstate(all="ignore"):
                rough = float(np.real(f(*[float(_exact(pt[v])) for v in names])))
        except (TypeError, ValueError, ArithmeticError):
            rough = math.nan
        if math.isfinite(rough) and rough > 1e-6 * (1 + abs(rough)):
            continue
        try:
            val = eval_exact(slack, pt, 50)
        except Exception:  # noqa: BLE001 - not defined there: the float search reports where it is not
            continue
        if val.is_real and (val < -1e-40 or (strict and exact_zero(slack, pt))):
            return pt, int(ok.sum()), float(val), undefined
    return None, int(ok.sum()), float(np.min(s[ok])), undefined


def _put_special(x, j: int, lo, hi) -> None:
    """Rows 0-2 of column ``j``: its low end, its high end and 0 (when in range), as rows 3j+3 to 3j+5: the
    exact points a random draw never hits (a strict relation's zero at an end, a jump at 0)."""
    import numpy as np

    for row in (0, 3 * j + 3):
        for k, value in enumerate((lo, hi, 0.0)):
            if value is None:
                continue
            v = np.broadcast_to(value, x.shape)[row + k]
            inside = (lo is None or np.broadcast_to(lo, x.shape)[row + k] <= v) and \
                (hi is None or v <= np.broadcast_to(hi, x.shape)[row + k])
            if inside:
                x[row + k] = v


def _at_an_end(point: dict[str, str], domain: dict[str, tuple[str, str]]) -> bool:
    """Some variable of ``point`` sits exactly on a finite end of its range."""
    sp = _sp()
    subs = {sp.Symbol(k): _exact(v) for k, v in point.items()}
    return any(end not in ("-oo", "oo") and sp.simplify(parse(end).subs(subs) - subs[sp.Symbol(name)]) == 0
               for name, ends in domain.items() for end in ends)


def _undefined_points(slack, cols, names, domain, nan_rows, offset: int, tries: int = 3) -> list[dict[str, str]]:
    """Up to ``tries`` drawn points (not the special rows, and no point on an end: an end may be a printed open end
    registered closed) where the float slack was NaN and the exact slack is not a real number: the relation is not
    defined there."""
    import numpy as np

    out = []
    for i in np.flatnonzero(nan_rows)[:50]:
        if len(out) == tries:
            break
        pt = {v: _to_rational_str(float(cols[v][offset + i])) for v in names}
        if not in_domain(pt, domain) or _at_an_end(pt, domain):
            continue
        try:
            val = eval_exact(slack, pt, 30)
        except PrecisionLost:
            continue
        except (ArithmeticError, TypeError):
            val = None
        if val is None or not (val.is_real and val.is_finite):
            out.append(pt)
    return out


PROVER_SECONDS = 10.0  # full mode; the few relations that need longer pass ``prover_seconds``
PROVER_SECONDS_QUICK = 2.5


def _replays(art: dict[str, Any]) -> bool:
    """The scalar replayer (olr_verify.prover.replay) confirms the artefact: point in the domain, slack defined
    there and certainly negative (or exactly 0 for a strict relation)."""
    from olr_verify.prover.replay import replay_scalar

    try:
        return replay_scalar(art)[0]
    except Exception:  # noqa: BLE001 - an artefact the replayer cannot read is not a counterexample
        return False


def inequality(relation: str, domain: dict[str, tuple[str, str]], ctx: Context, *, reading: str = "",
               use_prover: bool = True, prover_seconds: float | None = None) -> Outcome:
    """Decide a scalar relation over ``domain``: the prover first, a confirmed search second."""
    recorded = _record({"kind": "relation", "relation": relation,
                        "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()}})
    if recorded is not None:
        return recorded
    t0 = time.perf_counter()
    ev: dict[str, Any] = {"relation": relation, "domain": {k: list(v) for k, v in domain.items()}}
    if reading:
        ev["reading"] = reading
    bad = undefined_operand([relation], domain, ctx.seed)
    if bad is not None:
        ev.update({"undefined_operand": bad, "reason": "an operand as written has no real value at a point inside "
                   "the domain: the relation is not shown on the stated domain"})
        return Outcome("inconclusive", "operand not defined inside the domain", ev)
    prove = _prover() if use_prover else None
    if prove is not None:
        kwargs: dict[str, Any] = {}
        params = inspect.signature(prove).parameters
        if "timeout" in params:
            kwargs["timeout"] = PROVER_SECONDS_QUICK if ctx.quick else (prover_seconds or PROVER_SECONDS)
        try:
            res = prove_shared(ctx, prove, relation, domain, **kwargs)
        except Exception as exc:  # the prover's refusal is reported, then we fall back to search
            ev["prover"] = f"raised {type(exc).__name__}: {exc}"[:300]
        else:
            ev["prover"] = {"status": res.status, "seconds": round(float(getattr(res, "seconds", 0.0) or 0.0), 3),
                            "certificate": _summary(getattr(res, "certificate", None))}
            if res.status == "proved":
                return Outcome("proved", "arb branch-and-bound (olr_verify.prover), kernel-checked certificate", ev,
                               certificate=getattr(res, "kernel_certificate", None))
            if res.status == "refuted" and res.counterexample:
                pt = {k: str(v) for k, v in res.counterexample.items()}
                art = {"replay": {"type": "scalar", "relation": relation, "point": pt, "domain": ev["domain"]}}
                if _replays(art):  # the run says refuted only where `olr-verify replay` will say confirmed
                    ev["counterexample"] = pt
                    try:
                        ev["slack_50_digits"] = str(eval_exact(slack_of(parse(relation)), pt, 50))
                    except Exception:
                        pass
                    return Outcome("refuted", "prover counterexample, confirmed in ball arithmetic", ev, art)
                ev["prover_counterexample_not_replayed"] = pt
            if res.status == "verified":
                ev["note"] = "prover: verified but not proved on the whole domain"
    elif use_prover:
        ev["prover"] = "olr_verify.prover could not be imported; float search only"
    else:
        ev["prover"] = "not called: this check asked for a float search only (use_prover=False)"
    pt, tried, smin, undefined = search(relation, domain, ctx)
    ev.update({"search_points": tried, "min_float_slack": smin, "seconds": round(time.perf_counter() - t0, 3)})
    if pt is not None:
        ev["counterexample"] = pt
        ev["slack_50_digits"] = str(eval_exact(slack_of(parse(relation)), pt, 50))  # search checked it evaluates
        art = {"replay": {"type": "scalar_relation", "relation": relation, "point": pt}}
        return Outcome("refuted", "seeded search, violation confirmed at 50 digits", ev, art)
    if tried == 0:
        return Outcome("inconclusive", "search found no point where the relation evaluates", ev)
    if undefined:
        ev.update({"undefined_at": undefined, "reason": "the relation is not a real number at points inside "
                   "the domain: it is not shown on the stated domain"})
        return Outcome("inconclusive", "relation undefined at points of the domain", ev)
    if isinstance(ev.get("prover"), dict) and ev["prover"]["status"] == "refuted":
        ev["reason"] = "the prover found a violation it could not hand over as a point that replays"
        return Outcome("inconclusive", "prover refutation not confirmed by a replayable point", ev)
    return Outcome("verified", f"no violation in {tried} seeded samples (float search, not a proof)", ev)


# --------------------------------------------------------------------------- chains
def combine(parts: list[tuple[str, Outcome]], method: str = "printed chain, link by link",
            extra: dict[str, Any] | None = None) -> Outcome:
    """The verdict of a chain: refuted if any link is, else the weakest status of its links."""
    status = min((o.status for _, o in parts), key=_ORDER.__getitem__)
    ev: dict[str, Any] = {"links": {label: {**o.evidence, "status": o.status, "method": o.method}
                                    for label, o in parts}}
    if extra:
        ev.update(extra)
    cex = None
    certificate = None
    if status == "proved" and all(o.certificate is not None for _, o in parts):
        from olr_verify.kernel import FORMAT, statement_sha256

        certificate = {"format": FORMAT, "claim": None, "kind": "chain",
                       "links": [{"label": label, "certificate": o.certificate} for label, o in parts]}
        certificate["statement_sha256"] = statement_sha256(certificate)
    if status == "refuted":
        label, first = next((lab, o) for lab, o in parts if o.status == "refuted")
        cex = dict(first.counterexample)
        cex["link"] = label
        ev["refuted_link"] = label
    return Outcome(status, method, ev, cex, certificate)


def best_constant(fn, lo: float, hi: float, *, maximise: bool = False, digits: int = 50) -> str:
    """Extremum of a 1-D function at ``digits`` digits (mpmath findroot on a grid-started derivative)."""
    import mpmath as mp

    with mp.workdps(digits + 10):
        grid = [lo + (hi - lo) * i / 400 for i in range(401)]
        vals = [(fn(mp.mpf(x)), x) for x in grid]
        _, x0 = (max if maximise else min)(vals)
        try:
            x = mp.findroot(lambda t: mp.diff(fn, t), mp.mpf(x0))
            v = fn(x)
        except Exception:
            v = fn(mp.mpf(x0))
        return mp.nstr(v, digits)

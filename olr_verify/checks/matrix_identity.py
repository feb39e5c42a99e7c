"""Identities between matrix expressions of a fixed small size, with generic symbolic entries.

A paper folder declares its matrices (``matrices = { A = "symmetric 2", g = "2", M = "2x3" }``: entries
``A11, A12, A22``, ``g1, g2``, ``M11 ... M23``, free real symbols) and, optionally, named sub-expressions
(``let = { At = "A + eta/2*g*T(g)", theta = "inv(A)*b" }``, read in order). Sides are read by
:mod:`olr_verify.expr` with the matrix functions ``T``, ``inv``, ``det``, ``tr``, ``adj`` and ``eye``; ``*`` is the
matrix product and a 1 x 1 product is a number.

The decision, entry by entry:

1. at seeded rational points (the domain's ends and random points; entries drawn at scales from 1 to 10^6), every
   entry of both sides is evaluated exactly where it is a rational function (:mod:`olr_verify.rational_function`),
   else enclosed in ball arithmetic (the kernel's interval code, which refuses a log or a fractional power of a
   non-positive number and a division by 0; a divisor as written that vanishes at the point makes the side
   undefined there, even where the quotient cancels it): a side undefined at a point inside the domain
   makes the identity ``inconclusive``; an entry whose two sides differ there (exactly, or by enclosures apart)
   makes it ``refuted``, with that entry as a scalar identity artefact that ``olr-verify replay`` re-checks (a
   difference the replay would not confirm is reported ``inconclusive``, never ``refuted``);
2. else every entry of lhs - rhs is the zero function: ``verified`` by exact algebra. An entry that is a rational
   function of the entries and symbols is reduced to one quotient of polynomials by python-flint (milliseconds on a
   3 x 3 inverse), any other by sympy's together/expand (seconds; skipped by ``--quick``). Where sympy cannot
   tell, or in quick mode: ``verified`` by the points alone.

An identity shown for the declared sizes is not a proof for every dimension, and there is no kernel certificate
for it: it is ``verified``, never ``proved``, and the evidence names the sizes.
"""
from __future__ import annotations

import functools
import re
from fractions import Fraction
from typing import Any

import sympy as sp

from olr_verify.expr import (FUNCTIONS, MATRIX_FUNCTIONS, MATRIX_READER, MAX_MATRIX_SIZE, NOT_A_VARIABLE, beyond,
                             parse_expr)
from olr_verify.outcome import Context, Outcome

_SHAPE = re.compile(r"^(symmetric )?([1-9])(?:x([1-9]))?$")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
TAKEN = NOT_A_VARIABLE | set(FUNCTIONS) | set(MATRIX_FUNCTIONS)
POINTS_QUICK, POINTS_FULL = 10, 30
MAX_REDUCE_NODES = 20_000  # sympy's together/expand is tried on entries of at most this many nodes


def matrix_symbols(spec: dict[str, Any], taken: set[str], stand_in: bool = False) -> dict[str, Any]:
    """The matrices of ``spec`` (name -> ``"symmetric n"``, ``"n"`` a column vector, ``"nxm"``) with real symbolic
    entries named name + indices (``stand_in``: fixed rational entries instead, to check a text's names and
    shapes quickly); a name or an entry that is already taken is an error."""
    out: dict[str, Any] = {}
    rng = Fraction(7, 11)
    for name, shape in spec.items():
        m = _SHAPE.fullmatch(str(shape))
        if not (_NAME.fullmatch(name) and name not in TAKEN) or m is None or (m[1] and m[3]):
            raise ValueError(f"matrices.{name}: a matrix is an ASCII name (not a function or a constant) with a "
                             f"shape \"symmetric n\", \"n\" (a column vector) or \"nxm\", n, m from 1 to "
                             f"{MAX_MATRIX_SIZE}; got {shape!r}")
        rows, cols = int(m[2]), int(m[3] or (m[2] if m[1] else 1))
        if max(rows, cols) > MAX_MATRIX_SIZE:
            raise ValueError(f"matrices.{name}: {shape!r} is beyond {MAX_MATRIX_SIZE} x {MAX_MATRIX_SIZE}")
        index = (lambda i, j: f"{i + 1}") if m[3] is None and not m[1] else (lambda i, j: f"{i + 1}{j + 1}")
        entry = {(i, j): f"{name}{index(min(i, j), max(i, j)) if m[1] else index(i, j)}"
                 for i in range(rows) for j in range(cols)}
        clash = sorted(({name} | set(entry.values())) & taken)
        if clash:
            raise ValueError(f"matrices.{name}: the name {clash[0]!r} is already used")
        taken |= {name} | set(entry.values())
        values = {}
        for key, sym in sorted(entry.items()):
            if sym not in values:
                rng = (rng * 97 + Fraction(13, 17)) % 5 - Fraction(5, 2)  # distinct rationals, no structure
                values[sym] = sp.Rational(rng.numerator, rng.denominator) if stand_in else sp.Symbol(sym, real=True)
        out[name] = sp.ImmutableMatrix(rows, cols, lambda i, j: values[entry[(int(i), int(j))]])
        out.update({sym: sp.Symbol(sym, real=True) for sym in values})  # an entry may be named: A12
    return out


def check_let_name(name: str, names) -> None:
    if not _NAME.fullmatch(name) or name in TAKEN or name in names:
        raise ValueError(f"let.{name}: a definition needs a new ASCII name (not a function or a constant)")


def namespace(scalars: dict[str, Any], matrices: dict[str, Any], let: dict[str, Any],
              stand_in: bool = False) -> dict[str, Any]:
    """The names an identity's sides are read with: the scalars, the declared matrices and their entries, then
    each ``let`` definition read with the names before it."""
    names = dict(scalars)
    names.update(matrix_symbols(matrices, set(names), stand_in))
    for name, text in let.items():
        check_let_name(name, names)
        try:
            names[name] = (_literal(text, names) if isinstance(text, list)
                           else parse_expr(str(text), names, real=False, functions=MATRIX_READER))
        except ValueError as exc:
            raise ValueError(f"let.{name}: {exc}") from None
    return names


def _literal(rows: list, names: dict[str, Any]) -> sp.ImmutableMatrix:
    """A matrix given by its rows of scalar expressions (``[["c", "-s"], ["s", "c"]]``), each read with the names
    before it."""
    if len({len(row) for row in rows}) != 1 or max(len(rows), len(rows[0])) > MAX_MATRIX_SIZE:
        raise ValueError(f"a matrix given by its rows needs rows of one length, at most {MAX_MATRIX_SIZE} x "
                         f"{MAX_MATRIX_SIZE}")
    entries = [[parse_expr(str(v), names, real=False, functions=MATRIX_READER) for v in row] for row in rows]
    if any(isinstance(v, sp.MatrixBase) for row in entries for v in row):
        raise ValueError("an entry of a matrix given by its rows is a number, not a matrix")
    return sp.ImmutableMatrix(entries)


def read(text: str, names: dict[str, Any]) -> Any:
    return parse_expr(text, names, real=False, functions=MATRIX_READER)


def shape(value: Any) -> tuple[int, int]:
    return value.shape if isinstance(value, sp.MatrixBase) else (1, 1)


def _entries(value: Any) -> list[Any]:
    return list(value) if isinstance(value, sp.MatrixBase) else [value]


def _reduces_to_zero(diff: Any) -> bool | None:
    """Whether lhs - rhs reduces to 0 by exact algebra; None when it is too large to try (flint's term cap, then
    sympy's node and expansion caps: no budget bounds sympy's time on a huge form, nor its memory)."""
    from olr_verify.checks.scalar_common import sympy_zero
    from olr_verify.kernel.inequality import MAX_TERMS, expanded_terms
    from olr_verify.rational_function import is_zero_function

    exact = is_zero_function(diff)  # a rational function: decided exactly by flint, in milliseconds
    if exact is not None:
        return exact
    if beyond([diff], MAX_REDUCE_NODES) or expanded_terms(diff) > MAX_TERMS:
        return None
    num, _ = sp.fraction(sp.together(diff))
    return sp.expand(num) == 0 or sympy_zero(diff) is not None


@functools.lru_cache(maxsize=512)
def _compiled(expr: Any) -> Any:
    from olr_verify.kernel.intervals import compile_expr

    try:
        return compile_expr(expr)
    except Exception:  # noqa: BLE001 - a function the interval code does not cover: not a verdict
        return None


def _enclosure(expr: Any, env: dict) -> Any:
    """A ball-arithmetic enclosure of ``expr`` at the point ``env`` (names -> X), None where it is undefined
    (a log or a fractional power of a non-positive number, a division by 0), ``...`` where the kernel's interval
    code does not know a function of it."""
    from olr_verify.kernel.intervals import Undefined

    enclose = _compiled(expr)
    if enclose is None:
        return ...
    try:
        return enclose(env)
    except (Undefined, ZeroDivisionError, ArithmeticError):
        return None
    except Exception:  # noqa: BLE001 - a function the interval code does not cover: not a verdict
        return ...


def _sample(domain: dict[str, tuple[str, str]], free: list[str], rng, end: str | None) -> dict[str, str]:
    """A rational point: the domain's variables by :func:`scalar_common._sample_point` (``end``: at their ends),
    free names (entries, symbols) at a random scale from 1 to 10^6 (a violation far out, e.g. behind Max(A11 - 50,
    0), is drawn too)."""
    from olr_verify.checks.scalar_common import _sample_point, _to_rational_str

    point = _sample_point(domain, rng, end) if domain else {}
    for name in free:
        point[name] = _to_rational_str(float(rng.normal(0, 4) * 10 ** rng.uniform(0, 6 * rng.integers(0, 2))))
    return point


def _set_zero(point: dict[str, str], name: str, domain: dict[str, tuple[str, str]]) -> bool:
    """Put ``name`` at 0 in ``point`` if the point stays in the domain; whether it did."""
    from olr_verify.checks.exact_points import in_domain

    trial = {**point, name: "0"}
    if name in domain and not in_domain({k: v for k, v in trial.items() if k in domain}, domain):
        return False
    point.update(trial)
    return True


def _exact(expr: Any, point: dict[str, str]) -> Any:
    """``expr`` at the point in exact arithmetic: a rational (a rational function at a rational point), None where
    it is undefined there (a division by 0), ``...`` for anything else (left to ball arithmetic)."""
    from olr_verify.rational_function import fraction

    found = fraction(expr)
    if found is not None:  # flint's exact arithmetic: far faster than sympy's substitution
        value = found.at(point)
        return None if value is None else sp.Rational(int(value.p), int(value.q))
    try:
        value = expr.xreplace({s: sp.Rational(point[s.name]) for s in expr.free_symbols})
    except (ValueError, TypeError, ArithmeticError, RecursionError):  # e.g. an unevaluated Derivative
        return ...
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    return value if value.is_Rational else ...


@functools.lru_cache(maxsize=512)
def _divisors(expr: Any) -> tuple:
    """The bases of the negative powers in ``expr``: what it divides by, as written."""
    return tuple({p.base for p in sp.preorder_traversal(expr) if p.is_Pow and p.exp.is_negative})


def _divides_by_zero(expr: Any, point: dict[str, str], env: dict) -> bool:
    """Some divisor of ``expr`` is not shown nonzero at the point (exactly, or by an enclosure that excludes 0):
    sympy's substitution would cancel L**2/L**2 before seeing that L is 0 there."""
    for base in _divisors(expr):
        value = _exact(base, point)
        if value is None or value == 0:
            return True
        if value is ...:
            enclosure = _enclosure(base, env)
            if enclosure is None or (enclosure is not ... and not (enclosure.gt0() or enclosure.lt0())):
                return True
    return False


def _compare(a: Any, b: Any, point: dict[str, str], precisions: tuple[int, ...] = (256, 2048)) -> str:
    """"undefined", "differ" or "agree" (or "unknown" where the enclosures cannot tell) for the entries a, b:
    exactly where both are rational there, else by enclosures (at 256 bits, then 2048 bits before an enclosure
    that fails is taken for a value that does not exist: cancellation in a long polynomial widens a ball)."""
    from flint import ctx, fmpq

    from olr_verify.kernel.intervals import X

    va, vb = _exact(a, point), _exact(b, point)
    if va is None or vb is None:
        return "undefined"
    if va is not ... and vb is not ... and all(_exact(base, point) not in (None, ..., 0)
                                                for base in _divisors(a) + _divisors(b)):
        return "differ" if va != vb else "agree"  # exact values and every divisor as written exactly nonzero
    saved = ctx.prec
    try:
        for bits in precisions:
            ctx.prec = bits
            env = {name: X.of(fmpq(Fraction(v).numerator, Fraction(v).denominator)) for name, v in point.items()}
            ia, ib = _enclosure(a, env), _enclosure(b, env)
            defined = not (_divides_by_zero(a, point, env) or _divides_by_zero(b, point, env))
            if ia is not None and ib is not None and defined:
                break
    finally:
        ctx.prec = saved
    if not defined:
        return "undefined"
    if va is not ... and vb is not ...:
        return "differ" if va != vb else "agree"
    if ia is None or ib is None:
        return "undefined"
    if ia is ... or ib is ...:
        return "unknown"
    return "differ" if ia.hi < ib.lo or ib.hi < ia.lo else "agree"


OPERAND_POINTS = 8  # seeded interior points at which the operands as written must have a value (as for scalars)
BREAKS = (sp.sign, sp.Abs, sp.Max, sp.Min, sp.Piecewise, sp.Heaviside, sp.floor, sp.ceiling)


def _breaking(entries: list[Any], names: list[str]) -> list[str]:
    """The names inside a sign, Abs, Max, Min, Piecewise, Heaviside, floor or ceiling of an entry: where each of them
    is 0, such a function may break, and a random draw never puts it there."""
    inside = {s.name for e in entries for node in sp.preorder_traversal(e) if isinstance(node, BREAKS)
              for s in node.free_symbols}
    return [name for name in names if name in inside]


@functools.lru_cache(maxsize=1 << 12)  # the operands of a chain's definitions are read for each of its links
def _may_be_undefined(e: Any) -> bool:
    """An operand entry that can lack a real value on a part of the domain with room in it (what seeded points
    find): a function or a fractional power in it. A rational function of the entries (an inverse) lacks one only
    on its poles, where no draw falls and the sides are undefined too."""
    from olr_verify.rational_function import fraction

    partial = any(isinstance(node, sp.Function) or (isinstance(node, sp.Pow) and not node.exp.is_Integer)
                  for node in sp.preorder_traversal(e))
    return not e.is_number and partial and fraction(e) is None


FINE_POINTS = 4  # compared points re-checked at FINE_BITS (a constant difference is refuted before, exactly)
FINE_BITS = 8192  # before the points alone are called evidence: e^-1000 and 1 - tanh(1000) are apart at this precision


def _apart(pairs, points) -> dict[str, Any] | None:
    """Why the points cannot be the evidence for an identity sympy left undecided: the sides of an entry are apart
    at :data:`FINE_BITS` bits at a point where 256 bits could not tell (a difference below the replay's tolerance:
    neither refuted nor verified). None when they are not."""
    for k, (a, b) in enumerate(pairs):
        for point in points[:FINE_POINTS]:
            if _compare(a, b, point, precisions=(FINE_BITS,)) == "differ":
                return {"entry": k, "point": point, "reason": f"the sides are apart at {FINE_BITS} bits at this point, "
                        "by less than the replay's tolerance: the identity is neither shown nor refuted"}
    return None


def _refuted(pairs, k: int, point: dict[str, str], domain, ev: dict[str, Any], sizes: str) -> Outcome:
    """``refuted`` with entry k at ``point`` as a scalar identity artefact, if its replay confirms the difference;
    else ``inconclusive`` (an unconfirmed difference is no refutation)."""
    from olr_verify.checks import scalar_common as sc

    art = {"replay": {"type": "identity", "lhs": sp.sstr(pairs[k][0]), "rhs": sp.sstr(pairs[k][1]),
                      "point": point, "domain": {n: [str(lo), str(hi)] for n, (lo, hi) in domain.items()}}}
    ev.update({"entry": k, "point": point})
    try:
        confirmed, details = sc.replay_identity(art)
    except (ValueError, ArithmeticError) as exc:  # e.g. a constant too long for the safe reader
        confirmed, details = False, {"reason": f"{type(exc).__name__}: {exc}"}
    if confirmed:
        ev["replay"] = details
        return Outcome("refuted", "exact evaluation of the entries at a rational point", ev, art)
    ev.update({"replay": details, "reason": "the entries differ at this point but the replay does not "
               "confirm it: an unconfirmed difference is no refutation"})
    return Outcome("inconclusive", f"ball arithmetic at rational points, {sizes}", ev)


def _statements(pairs, domain, written) -> list[dict[str, Any]]:
    ops = {"operands": [sp.sstr(e) for e in written]} if written else {}
    return [{"kind": "identity", "lhs": sp.sstr(a), "rhs": sp.sstr(b),
             "domain": {k: [str(lo), str(hi)] for k, (lo, hi) in domain.items()}, **ops} for a, b in pairs]


def decide(lhs: Any, rhs: Any, domain: dict[str, tuple[str, str]], ctx: Context, *, sizes: str, what: str = "",
           reading: str = "", points: int | None = None, operands: list[Any] = ()) -> Outcome:
    """Decide ``lhs == rhs`` entry by entry (see the module docstring); ``operands``: the values of the operands as
    written (``expr.operands``), which must be defined wherever the sides are compared."""
    import numpy as np

    from olr_verify.checks import scalar_common as sc
    from olr_verify.rational_function import fraction

    pairs = list(zip(_entries(lhs), _entries(rhs)))
    written = list(dict.fromkeys(e for value in operands for e in _entries(value) if _may_be_undefined(e)))
    if sc.recording():  # statement mode (replay binding): every entry is a statement of the claim
        return [sc._record(statement) for statement in _statements(pairs, domain, written)][-1]
    ev: dict[str, Any] = {"identity": what or f"{sp.sstr(lhs)} == {sp.sstr(rhs)}", "sizes": sizes,
                          "reading": reading or f"generic symbolic entries of the declared sizes ({sizes}) only"}
    rng = np.random.default_rng(ctx.seed)
    free = sorted(({s.name for a, b in pairs for s in a.free_symbols | b.free_symbols}
                   | {s.name for e in written for s in e.free_symbols}) - set(domain))
    n = POINTS_QUICK if ctx.quick else (points or POINTS_FULL)
    counts = {"agree": 0, "undefined": 0, "unknown": 0}
    compared = []
    zeros = _breaking([e for pair in pairs for e in pair], [*free, *domain])  # one point with each at 0
    for i in range(n + 2 + len(zeros)):
        end = ("lo", "hi")[i] if i < 2 else "zero" if i < 2 + len(zeros) else None
        if end in ("lo", "hi") and not domain:
            continue
        point = _sample(domain, free, rng, None if end == "zero" else end)
        if end == "zero" and not _set_zero(point, zeros[i - 2], domain):
            continue
        found = [_compare(a, b, point) for a, b in pairs]
        if (end is not None or i < 2 + len(zeros) + OPERAND_POINTS) and any(_compare(e, e, point) == "undefined"
                                                                           for e in written):
            found.append("undefined")
        if "undefined" in found:
            if end is None:  # an end may be a printed open end (x > 0 registered as [0, ...]); 0 a pole of inv(A)
                ev.update({"undefined_at": point, "reason": "a side or an operand as written is not defined (a log "
                           "or a fractional power of a non-positive number, a division by 0) at a point inside the "
                           "domain: the identity is not shown on the stated domain"})
                return Outcome("inconclusive", f"ball arithmetic at rational points, {sizes}", ev)
            counts["undefined"] += 1
            continue
        if "differ" in found:
            return _refuted(pairs, found.index("differ"), point, domain, ev, sizes)
        counts["unknown" if "unknown" in found else "agree"] += 1
        compared.append(point)
    ev.update({"points_agreeing": counts["agree"], "points_unknown": counts["unknown"],
               "ends_undefined": counts["undefined"]})
    rational = all(fraction(a - b) is not None for a, b in pairs)
    if ctx.quick and counts["agree"] and not rational:  # sympy's together/expand costs seconds: full mode only
        ev["reading"] += "; quick mode: rational points only, no symbolic reduction"
        return Outcome("verified", f"ball arithmetic at {counts['agree']} rational points (quick mode), {sizes}", ev)
    reduced = [_reduces_to_zero(a - b) for a, b in pairs]
    if all(reduced):
        ev["certificate"] = ("none (not kernel-checked): every entry of lhs - rhs reduces to 0 over one denominator ("
                             + ("python-flint polynomials)" if rational else "python-flint or sympy)"))
        return Outcome("verified", f"exact algebra, symbolic entries, {sizes}", ev)
    if counts["agree"] == 0:
        ev["reason"] = "sympy could not reduce lhs - rhs to 0 and no point could be compared"
        return Outcome("inconclusive", f"ball arithmetic at rational points, {sizes}", ev)
    constant = next((k for k, (a, b) in enumerate(pairs) if sc.nonzero_constant(a - b) is not None), None)
    if constant is not None:  # the sides differ by a constant wherever both are defined: at any compared point
        return _refuted(pairs, constant, compared[0], domain, ev, sizes)
    apart = _apart(pairs, compared)
    if apart is not None:
        ev.update(apart)
        return Outcome("inconclusive", f"ball arithmetic at rational points, {sizes}", ev)
    ev["sympy"] = ("could not reduce every entry of lhs - rhs to 0" if None not in reduced else
                   "not tried on every entry: lhs - rhs is beyond the caps of exact algebra (flint's terms, sympy's "
                   "nodes and expansion)")
    return Outcome("verified", f"ball arithmetic at {counts['agree']} rational points (sympy undecided), {sizes}", ev)

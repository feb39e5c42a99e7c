"""Identities between matrix expressions of a fixed small size, with generic symbolic entries.

A paper folder declares its matrices (``matrices = { A = "symmetric 2", g = "2", M = "2x3" }``: entries
``A11, A12, A22``, ``g1, g2``, ``M11 ... M23``, free real symbols) and, optionally, named sub-expressions
(``let = { At = "A + eta/2*g*T(g)", theta = "inv(A)*b" }``, read in order). Sides are read by
:mod:`olr_verify.expr` with the matrix functions ``T``, ``inv``, ``det``, ``tr``, ``adj`` and ``eye``; ``*`` is the
matrix product and a 1 x 1 product is a number.

The decision is entry by entry: the numerator of every entry of lhs - rhs, brought over one denominator, expands to
0 (sympy), or an entry differs at an exact rational point of the entries (``refuted``, with the entry as a scalar
identity artefact that ``olr-verify replay`` re-checks). An identity shown for the declared sizes is not a proof
for every dimension, and there is no kernel certificate for it: it is ``verified``, never ``proved``, and the
evidence names the sizes.
"""
from __future__ import annotations

import re
from typing import Any

import sympy as sp

from olr_verify.expr import MATRIX_READER, MAX_MATRIX_SIZE, NOT_A_VARIABLE, parse_expr
from olr_verify.outcome import Context, Outcome

_SHAPE = re.compile(r"^(symmetric )?([1-9])(?:x([1-9]))?$")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
QUICK_POINTS = 3


def matrix_symbols(spec: dict[str, Any], taken: set[str]) -> dict[str, sp.ImmutableMatrix]:
    """The matrices of ``spec`` (name -> ``"symmetric n"``, ``"n"`` a column vector, ``"nxm"``) with symbolic
    entries named name + indices; a name or an entry that is already taken is an error."""
    out: dict[str, sp.ImmutableMatrix] = {}
    for name, shape in spec.items():
        m = _SHAPE.fullmatch(str(shape))
        if not (_NAME.fullmatch(name) and name not in NOT_A_VARIABLE) or m is None:
            raise ValueError(f"matrices.{name}: a matrix is an ASCII name with a shape \"symmetric n\", \"n\" (a "
                             f"column vector) or \"nxm\", n, m from 1 to {MAX_MATRIX_SIZE}; got {shape!r}")
        rows, cols = int(m[2]), int(m[3] or (m[2] if m[1] else 1))
        if max(rows, cols) > MAX_MATRIX_SIZE or (m[1] and m[3] and m[3] != m[2]):
            raise ValueError(f"matrices.{name}: {shape!r} is not a shape this reader takes")
        index = (lambda i, j: f"{i + 1}") if cols == 1 else (lambda i, j: f"{i + 1}{j + 1}")
        entry = {(i, j): f"{name}{index(min(i, j), max(i, j)) if m[1] else index(i, j)}"
                 for i in range(rows) for j in range(cols)}
        clash = sorted(({name} | set(entry.values())) & taken)
        if clash:
            raise ValueError(f"matrices.{name}: the name {clash[0]!r} is already used")
        taken |= {name} | set(entry.values())
        out[name] = sp.ImmutableMatrix(rows, cols, lambda i, j: sp.Symbol(entry[(int(i), int(j))]))
    return out


def namespace(scalars: dict[str, Any], matrices: dict[str, Any], let: dict[str, Any]) -> dict[str, Any]:
    """The names an identity's sides are read with: the scalars, the declared matrices and their entries, then
    each ``let`` definition read with the names before it."""
    names = dict(scalars)
    for name, matrix in matrix_symbols(matrices, set(names)).items():
        names[name] = matrix
        names.update({s.name: s for s in matrix.free_symbols})  # an entry may be named: A12
    for name, text in let.items():
        if not _NAME.fullmatch(name) or name in NOT_A_VARIABLE or name in names:
            raise ValueError(f"let.{name}: a definition needs a new ASCII name")
        try:
            names[name] = parse_expr(str(text), names, real=False, functions=MATRIX_READER)
        except ValueError as exc:
            raise ValueError(f"let.{name}: {exc}") from None
    return names


def read(text: str, names: dict[str, Any]) -> Any:
    return parse_expr(text, names, real=False, functions=MATRIX_READER)


def shape(value: Any) -> tuple[int, int]:
    return value.shape if isinstance(value, sp.MatrixBase) else (1, 1)


def _entries(value: Any) -> list[Any]:
    return list(value) if isinstance(value, sp.MatrixBase) else [value]


def _reduces_to_zero(diff: Any) -> bool:
    from olr_verify.checks.scalar_common import sympy_zero

    num, _ = sp.fraction(sp.together(diff))
    return sp.expand(num) == 0 or sympy_zero(diff) is not None


def _value(expr: Any, point: dict[str, str]) -> Any:
    """``expr`` at the exact point: an exact number (a rational for a rational function), or None if undefined."""
    value = expr.xreplace({s: sp.Rational(point[s.name]) for s in expr.free_symbols})
    return None if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo) else value


def decide(lhs: Any, rhs: Any, domain: dict[str, tuple[str, str]], ctx: Context, *, sizes: str, what: str = "",
           reading: str = "", points: int | None = None) -> Outcome:
    """Decide ``lhs == rhs`` entry by entry (see the module docstring)."""
    from olr_verify.checks.scalar_common import IDENTITY_TOLERANCE, _sample_point

    import numpy as np

    pairs = list(zip(_entries(lhs), _entries(rhs)))
    ev: dict[str, Any] = {"identity": what or f"{sp.sstr(lhs)} == {sp.sstr(rhs)}", "sizes": sizes,
                          "reading": reading or f"generic symbolic entries of the declared sizes ({sizes}) only"}
    if not ctx.quick and all(_reduces_to_zero(a - b) for a, b in pairs):
        ev["certificate"] = ("none (not kernel-checked): the numerator of every entry of lhs - rhs expands to 0 "
                             "(sympy)")
        return Outcome("verified", f"exact sympy algebra, symbolic entries, {sizes}", ev)
    rng = np.random.default_rng(ctx.seed)
    free = sorted({s.name for a, b in pairs for s in a.free_symbols | b.free_symbols} - set(domain))
    sampled = {**domain, **{name: ("-oo", "oo") for name in free}}
    n = QUICK_POINTS if ctx.quick else (points or 30)
    evaluated, undefined = 0, 0
    for i in range(n + 2):
        point = _sample_point(sampled, rng, ("lo", "hi")[i] if i < 2 and domain else None)
        values = [(_value(a, point), _value(b, point)) for a, b in pairs]
        if any(va is None or vb is None for va, vb in values):
            undefined += 1
            continue
        for k, (va, vb) in enumerate(values):
            differ = (va - vb) != 0 if (va - vb).is_Rational else \
                abs(sp.N(va - vb, 50)) > IDENTITY_TOLERANCE * (1 + abs(sp.N(va, 50)) + abs(sp.N(vb, 50)))
            if differ:
                a, b = pairs[k]
                ev.update({"entry": k, "lhs_at_point": str(sp.N(va, 50)), "rhs_at_point": str(sp.N(vb, 50)),
                           "point": point})
                art = {"replay": {"type": "identity", "lhs": sp.sstr(a), "rhs": sp.sstr(b), "point": point}}
                return Outcome("refuted", "exact evaluation of the entries at a rational point", ev, art)
        evaluated += 1
    if evaluated == 0:
        ev["reason"] = f"a side is undefined at every one of the {undefined} points drawn"
        return Outcome("inconclusive", "evaluation at rational points", ev)
    ev.update({"points_exact": evaluated, "points_undefined": undefined})
    if ctx.quick:
        ev["reading"] = f"quick mode: exact evaluation at {evaluated} seeded rational points, {sizes} only"
        return Outcome("verified", f"exact arithmetic at seeded rational points, {sizes}", ev)
    ev["sympy"] = "could not reduce every entry of lhs - rhs to 0"
    return Outcome("verified", f"exact evaluation at random rational points (sympy undecided), {sizes}", ev)

"""Exact zero test of a rational function of real symbols, in python-flint's multivariate polynomials.

A sympy expression built from symbols and rational numbers by ``+``, ``*`` and integer powers is a quotient
``p / q`` of polynomials with rational coefficients; it is the zero function iff ``p = 0`` once written over one
denominator. sympy's ``together`` and ``expand`` find ``p`` too, but on the entries of a symbolic 3 x 3 inverse
they take seconds to minutes; flint's ``fmpq_mpoly`` arithmetic, with a gcd after every sum and product to keep
``p / q`` reduced, takes milliseconds.

>>> import sympy as sp
>>> a, b = sp.symbols("a b", real=True)
>>> is_zero_function(1 / (a - b) - 1 / (a + b) - 2 * b / (a**2 - b**2))
True
>>> is_zero_function(1 / (a - b) - 1 / a) is False
True
>>> is_zero_function(sp.sqrt(a) - a) is None  # not built by + * and integer powers: not decided here
True
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Any

import sympy as sp
from flint import fmpq, fmpq_mpoly_ctx

MAX_TERMS = 200_000  # terms of one numerator or denominator: beyond, the test gives up (None)
MAX_DEGREE = 2_000  # total degree a power may reach (x**100000 would take flint minutes)


class NotRational(ValueError):
    """The expression is not built from symbols and rationals by +, * and integer powers, or grows too large."""


@dataclasses.dataclass(frozen=True)
class RationalFunction:
    """``num / den`` in the symbols ``names`` (in that order), reduced, ``den`` monic."""

    names: tuple[str, ...]
    num: Any
    den: Any

    def at(self, point: dict[str, str]) -> fmpq | None:
        """The value at a rational point (names -> decimal or p/q strings), None where ``den`` vanishes."""
        if not self.names:
            return self.num / self.den
        values = [fmpq(*_ratio(point[name])) for name in self.names]
        den = self.den(*values)
        return None if den == 0 else self.num(*values) / den


def _ratio(text: str) -> tuple[int, int]:
    q = sp.Rational(text)
    return int(q.p), int(q.q)


@functools.lru_cache(maxsize=1024)
def fraction(expr: Any) -> RationalFunction | None:
    """``expr`` as a reduced :class:`RationalFunction`; None if it is not built from symbols and rationals by ``+``, ``*``
    and integer powers, divides by the zero polynomial as written, or grows beyond :data:`MAX_TERMS`."""
    names = tuple(sorted({s.name for s in expr.free_symbols}))
    ctx = fmpq_mpoly_ctx.get(names) if names else None
    gens = dict(zip(names, ctx.gens())) if names else {}
    try:
        return RationalFunction(names, *_fraction(expr, ctx, gens, {}))
    except (NotRational, ZeroDivisionError, RecursionError):
        return None


def is_zero_function(expr: Any) -> bool | None:
    """True if ``expr`` is the zero rational function of its symbols, False if it is a nonzero one, None where
    :func:`fraction` gives up (undecided here)."""
    found = fraction(expr)
    return None if found is None else found.num == 0


def _constant(ctx, value: sp.Rational):
    q = fmpq(int(value.p), int(value.q))
    return ctx.constant(q) if ctx is not None else q


def _reduced(num, den):
    if isinstance(num, fmpq):  # no symbols at all: a plain rational
        return num, den
    g = num.gcd(den)
    if not g.is_one():
        num, den = num / g, den / g
    lead = den.leading_coefficient()
    if lead != 1:
        num, den = num / lead, den / lead
    if len(num) > MAX_TERMS or len(den) > MAX_TERMS:
        raise NotRational("too many terms")
    return num, den


def _power_terms(p: Any, k: int) -> int:
    """An upper bound on the terms of ``p**k``: its monomials are products of k of p's t terms (C(t + k - 1, k)),
    and monomials of degree at most k deg(p) in p's n variables (C(n + k deg p, n))."""
    from math import comb

    if isinstance(p, fmpq) or len(p) <= 1:
        return 1
    n = sum(1 for d in p.degrees() if d > 0)
    return min(comb(len(p) + k - 1, k), comb(n + k * p.total_degree(), n))


def _fraction(e: Any, ctx, gens: dict, memo: dict) -> tuple:
    """``e`` as a reduced pair (numerator, denominator) of fmpq_mpoly (fmpq when it has no symbols)."""
    if e in memo:
        return memo[e]
    if e.is_Symbol:
        out = (gens[e.name], _constant(ctx, sp.Integer(1)))
    elif e.is_Rational:
        out = (_constant(ctx, e), _constant(ctx, sp.Integer(1)))
    elif e.is_Add or e.is_Mul:
        parts = [_fraction(a, ctx, gens, memo) for a in e.args]
        num, den = parts[0]
        for n2, d2 in parts[1:]:
            if e.is_Add:
                num, den = (num + n2, den) if den == d2 else (num * d2 + n2 * den, den * d2)
            else:
                num, den = num * n2, den * d2
            num, den = _reduced(num, den)
        out = (num, den)
    elif e.is_Pow and e.exp.is_Integer:
        num, den = _fraction(e.base, ctx, gens, memo)
        k = int(e.exp)
        if k < 0:
            if num == 0:
                raise ZeroDivisionError("a negative power of the zero function")
            num, den, k = den, num, -k
        if k > 1 and not isinstance(num, fmpq) and max(num.total_degree(), den.total_degree()) * k > MAX_DEGREE:
            raise NotRational("the power's degree is too large")
        if k > 1 and max(_power_terms(num, k), _power_terms(den, k)) > MAX_TERMS:
            raise NotRational("the power would have too many terms")  # (24 terms)**64 is 10^20 terms: no memory
        out = _reduced(num**k, den**k)
    else:
        raise NotRational(f"{type(e).__name__} is not a rational operation")
    memo[e] = out
    return out

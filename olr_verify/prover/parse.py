"""Parsing a relation and its domain with exact rationals.

``parse_relation("x + exp(-x) <= exp(9*x**2/16)", ["x"])`` gives the slack ``s`` (the relation
holds iff ``s >= 0``, or ``s > 0`` when strict). Decimal literals become exact rationals
("0.5619" is 5619/10000, never a binary float). Domain bounds are numbers, ``oo``/``-oo`` or
expressions of earlier variables; finite ends are closed, infinite ends open.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import sympy as sp


@dataclasses.dataclass
class Var:
    name: str
    symbol: sp.Symbol
    lo: sp.Expr  # -oo allowed
    hi: sp.Expr  # oo allowed

    @property
    def lo_const(self) -> bool:
        return not self.lo.free_symbols

    @property
    def hi_const(self) -> bool:
        return not self.hi.free_symbols


def symbols_for(names) -> dict[str, sp.Symbol]:
    return {n: sp.Symbol(n, real=True) for n in names}


def sympify_exact(text: str, local: dict[str, sp.Symbol]) -> sp.Expr:
    expr = sp.sympify(text, locals=dict(local), rational=True)
    if expr.atoms(sp.Float):
        raise ValueError(f"inexact float in {text!r}")
    return expr


def parse_relation(relation: str, names) -> tuple[sp.Expr, bool, sp.Basic]:
    """(slack, strict, parsed relation)."""
    local = symbols_for(names)
    rel = sympify_exact(relation, local)
    if isinstance(rel, (sp.LessThan, sp.StrictLessThan)):
        slack = rel.rhs - rel.lhs
    elif isinstance(rel, (sp.GreaterThan, sp.StrictGreaterThan)):
        slack = rel.lhs - rel.rhs
    else:
        raise ValueError(f"relation must use <=, <, >= or > (got {relation!r})")
    strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
    extra = slack.free_symbols - set(local.values())
    if extra:
        raise ValueError(f"free symbols {sorted(map(str, extra))} have no domain")
    return slack, strict, rel


def parse_domain(domain: dict[str, tuple[str, str]]) -> list[Var]:
    names = list(domain)
    local = symbols_for(names)
    out: list[Var] = []
    for k, name in enumerate(names):
        lo_t, hi_t = domain[name]
        lo = sympify_exact(str(lo_t), local)
        hi = sympify_exact(str(hi_t), local)
        allowed = {local[n] for n in names[:k]}
        for b in (lo, hi):
            if b.free_symbols - allowed:
                raise ValueError(f"bound {b} of {name} uses variables not listed before {name}")
        if lo is sp.oo or hi is -sp.oo:
            raise ValueError(f"empty range for {name}")
        out.append(Var(name, local[name], lo, hi))
    return out


def simplest_between(lo: Fraction, hi: Fraction) -> Fraction:
    """The rational with the smallest denominator (then numerator) in [lo, hi]."""
    if lo <= 0 <= hi:
        return Fraction(0)
    if hi < 0:
        return -simplest_between(-hi, -lo)
    fl = math.floor(lo)
    if fl == lo:
        return Fraction(fl)
    if fl + 1 <= hi:
        return Fraction(fl + 1)
    return fl + 1 / simplest_between(1 / (hi - fl), 1 / (lo - fl))

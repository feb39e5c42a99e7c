"""Parsing a relation and its domain with exact rationals (through the safe reader :mod:`olr_verify.expr`).

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


#: A finite constant bound must be at most this in magnitude (beyond, write ``oo``).
MAX_BOUND = sp.Integer(10) ** 300


def sympify_exact(text: str, local: dict[str, sp.Symbol]) -> sp.Basic:
    """``text`` read by the safe reader with the symbols ``local``; decimals are exact rationals.

    Raises :class:`olr_verify.expr.ExprError` (a ``ValueError``) on anything else.
    """
    from olr_verify.expr import parse_any

    return parse_any(str(text), dict(local))


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
    from olr_verify.expr import check_variable_names

    names = list(domain)
    if not names:
        raise ValueError("domain: give the range of at least one variable (a relation with no variable is "
                         "arithmetic, not a job for the prover)")
    check_variable_names(names)
    local = symbols_for(names)
    out: list[Var] = []
    for k, name in enumerate(names):
        lo_t, hi_t = domain[name]
        lo, hi = (_bound(b, name, side, local, names[:k]) for b, side in ((lo_t, "lower"), (hi_t, "upper")))
        if lo is sp.oo or hi is -sp.oo:
            raise ValueError(f"empty range for {name}: {lo_t}..{hi_t}")
        if not lo.free_symbols and not hi.free_symbols and bool(lo > hi):
            raise ValueError(f"empty range for {name}: lower bound {lo_t} exceeds upper bound {hi_t}")
        out.append(Var(name, local[name], lo, hi))
    return out


def _bound(text, name: str, side: str, local: dict[str, sp.Symbol], earlier: list[str]) -> sp.Expr:
    """One bound of ``name``: a real number of magnitude <= 1e300, +-oo, or an expression of ``earlier``."""
    from olr_verify.expr import ExprError, parse_expr

    try:
        b = parse_expr(str(text), dict(local))
    except ExprError as exc:
        raise ExprError(f"{side} bound of {name}: {exc}") from None
    extra = b.free_symbols - {local[n] for n in earlier}
    if extra:
        raise ValueError(f"{side} bound {text!r} of {name} uses variables not listed before {name}: "
                         f"{sorted(map(str, extra))}")
    if b in (sp.oo, -sp.oo):
        return b
    if not b.free_symbols:
        if b.is_extended_real is not True or b.has(sp.oo, -sp.oo):
            raise ValueError(f"{side} bound {text!r} of {name} is not a real number")
        if bool(abs(b) > MAX_BOUND):
            raise ValueError(f"{side} bound {text!r} of {name} is beyond 1e300 in magnitude (write oo for no bound)")
    return b


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

"""Decisions about sympy constants from arb balls (python-flint), never from sympy's floating point.

sympy decides the sign of a constant by evaluating it in floating point, and its error estimates can be wrong:
``sinh(c) + cosh(c) - exp(c)``, exactly 0, reads as positive at ``c = 700/3`` and as negative at ``c = 3001/3``,
and ``floor(tanh(300))`` reads as 1. Every evaluation that rests on such a sign (``Abs``, ``sign``, ``Max``, ``Min``,
a Piecewise condition, ``sqrt(c**2)``, a symbol's sign taken from a constant bound) inherits the error. Here a
constant is evaluated in ball arithmetic at increasing precision (:data:`PRECISIONS`) and a question is answered
only where the ball decides it. :func:`install` makes sympy's own sign decisions on constants go through
:func:`sign` (olr_verify.expr installs it when it is imported, so the reader and the kernel always use it).
"""
from __future__ import annotations

import sympy as sp
from flint import arb, ctx, fmpq
from sympy.codegen.cfunctions import expm1, log1p

PRECISIONS = (128, 1024, 8192)  # bits; a constant no ball of 8192 bits decides is left undecided

FUNCTIONS = {sp.exp: arb.exp, sp.log: arb.log, sp.sin: arb.sin, sp.cos: arb.cos, sp.tan: arb.tan,
             sp.asin: arb.asin, sp.acos: arb.acos, sp.atan: arb.atan, sp.sinh: arb.sinh, sp.cosh: arb.cosh,
             sp.tanh: arb.tanh, sp.asinh: arb.asinh, sp.acosh: arb.acosh, sp.atanh: arb.atanh, sp.erf: arb.erf,
             sp.erfc: arb.erfc, log1p: arb.log1p, expm1: arb.expm1, sp.Abs: abs}


def ball(value: sp.Expr) -> arb | None:
    """An arb ball holding the real constant ``value`` at the current precision, or None (a function outside
    :data:`FUNCTIONS`, a non-real value: the ball of asin(2) or log(-1) is not finite)."""
    if value.is_Rational:
        return arb(fmpq(int(value.p), int(value.q)))
    if value is sp.pi or value is sp.E:
        return arb.pi() if value is sp.pi else arb(1).exp()
    args = [ball(a) for a in value.args]
    if not value.args or any(a is None for a in args):
        return None
    if value.is_Add or value.is_Mul:
        out = args[0]
        for a in args[1:]:
            out = out + a if value.is_Add else out * a
        return out
    if value.is_Pow:
        if value.exp.is_Integer:
            return args[0] ** int(value.exp)
        return args[0] ** args[1] if args[0] > 0 else None  # a real power of a negative base is not real here
    fn = FUNCTIONS.get(value.func)
    return fn(args[0]) if fn is not None and len(args) == 1 else None


def _decided(value: sp.Expr, decide):
    """The first answer ``decide(ball)`` gives (not None) at :data:`PRECISIONS`, or None."""
    old = ctx.prec
    try:
        for bits in PRECISIONS:
            ctx.prec = bits
            b = ball(value)
            if b is None:
                return None
            if b.is_finite():
                answer = decide(b)
                if answer is not None:
                    return answer
    finally:
        ctx.prec = old
    return None


def sign(value: sp.Expr) -> int | None:
    """+1, -1 (0 for an exact zero ball) where a ball decides the sign of the real constant ``value``, else None."""
    return _decided(value, lambda b: 1 if b > 0 else -1 if b < 0 else 0 if b.is_exact() and b == 0 else None)


def integer_part(value: sp.Expr, up: bool) -> int | None:
    """``ceiling(value)`` (``up``) or ``floor(value)`` where a ball lies between two integers, else None (an
    integer, a value within 2^-8192 of one, or one no ball holds)."""
    def decide(b):
        n = (b.ceil() if up else b.floor()).unique_fmpz()
        return None if n is None else int(n)
    return _decided(value, decide)


_SYMPY_POSITIVE_NEGATIVE = sp.Expr._eval_is_extended_positive_negative


def _positive_negative(self, positive):
    """sympy's sign test of an expression (``Expr._eval_is_extended_positive_negative``), by :func:`sign` for a
    constant. Where no ball decides, the answer is None: sympy would fall back on ``minimal_polynomial``, which picks
    its factor by a 200-digit evaluation (a constant 1.4e-3000 read as 0) and has no time bound."""
    if not self.is_number:
        return _SYMPY_POSITIVE_NEGATIVE(self, positive)
    s = sign(self)
    return None if s is None else s > 0 if positive else s < 0


def _difference_sign(a, b):
    """sympy's ``_n2`` (the sign of ``a - b`` that Max, Min and relations between constants use), by :func:`sign`:
    an exact difference as it is, otherwise +1 or -1 where a ball decides, else None (sympy then asks the sign
    test above)."""
    if a.is_comparable and b.is_comparable:
        dif = a - b
        if dif.is_Number:
            return dif
        s = sign(dif)
        return None if s is None else sp.Integer(s)
    return None


def install() -> None:
    """Route sympy's sign decisions on constants through :func:`sign` (idempotent)."""
    from sympy.core import relational

    sp.Expr._eval_is_extended_positive_negative = _positive_negative
    relational._n2 = _difference_sign

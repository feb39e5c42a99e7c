"""Extended interval enclosures of sympy expressions, from python-flint arb balls.

An interval is ``X(lo, hi)`` whose ends are exact arb points or ``-oo``/``oo`` (Python floats).
Every operation rounds outward (the ends of a ball result are its ``lower()``/``upper()``);
monotone functions map ends, with their limits at infinity; ``0 * oo = 0`` (an infinite end is a
limit, never attained). An operation whose result is not a real interval on the whole input
(division by an interval containing 0, ``log`` of an interval reaching 0, ...) raises
:class:`Undefined`, and the closer that asked fails.
"""
from __future__ import annotations

from functools import cmp_to_key, reduce

import sympy as sp
from flint import arb, fmpq
from sympy.codegen.cfunctions import expm1, log1p

INF, NINF = float("inf"), float("-inf")


class Undefined(ValueError):
    """No real enclosure on this box."""


def _inf(e) -> bool:
    return isinstance(e, float)


def _sign(e) -> int:
    """+1 / -1 if the end is certainly > 0 / < 0, else 0 (an arb end is an exact point)."""
    return (e > 0) - (e < 0)


class X:
    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    @staticmethod
    def ball(a: arb) -> "X":
        if not a.is_finite():
            raise Undefined("not finite")
        return X(a.lower(), a.upper())

    @staticmethod
    def of(q) -> "X":
        """The interval of one end value: fmpq, or +-oo."""
        return X(q, q) if _inf(q) else X.ball(arb(q))

    def ge0(self) -> bool:
        return _sign(self.lo) >= 0

    def gt0(self) -> bool:
        return _sign(self.lo) > 0

    def lt0(self) -> bool:
        return _sign(self.hi) < 0

    def le0(self) -> bool:
        return _sign(self.hi) <= 0

    def __repr__(self):
        return f"X({self.lo}, {self.hi})"


def add(x: X, y: X) -> X:
    lo = NINF if NINF in (x.lo, y.lo) else INF if INF in (x.lo, y.lo) else (x.lo + y.lo).lower()
    hi = INF if INF in (x.hi, y.hi) else NINF if NINF in (x.hi, y.hi) else (x.hi + y.hi).upper()
    return X(lo, hi)


def neg(x: X) -> X:
    return X(-x.hi, -x.lo)


def _prod(a, b):
    """(lower, upper) of the product of two ends, 0 * oo = 0."""
    if _inf(a) or _inf(b):
        s = _sign(a) * _sign(b)
        v = INF if s > 0 else NINF if s < 0 else arb(0)
        return v, v
    p = a * b
    return p.lower(), p.upper()


def compare(a, b) -> int:
    """The sign of a - b for two ends (arb points, fmpq or +-oo)."""
    if _inf(a) and _inf(b):
        return (a > b) - (a < b)
    if _inf(a) or _inf(b):
        return _sign(a) if _inf(a) else -_sign(b)
    return _sign(a - b)


def lower(ends):
    return min(ends, key=cmp_to_key(compare))


def upper(ends):
    return max(ends, key=cmp_to_key(compare))


def mul(x: X, y: X) -> X:
    pairs = [_prod(a, b) for a in (x.lo, x.hi) for b in (y.lo, y.hi)]
    return X(lower([p[0] for p in pairs]), upper([p[1] for p in pairs]))


def recip(x: X) -> X:
    if not (x.gt0() or x.lt0()):
        raise Undefined("division by an interval containing 0")
    return X(_end(lambda a: 1 / a, x.hi, arb(0), arb(0))[0], _end(lambda a: 1 / a, x.lo, arb(0), arb(0))[1])


def _end(f, e, at_ninf, at_inf):
    """(lower, upper) of f at one end; ``at_ninf``/``at_inf`` are the limits (arb or +-oo)."""
    if _inf(e):
        v = at_inf if e > 0 else at_ninf
        return (v, v) if _inf(v) else (v.lower(), v.upper())
    r = f(e)
    if not r.is_finite():
        raise Undefined("function undefined at an end")
    return r.lower(), r.upper()


def increasing(x: X, f, at_ninf, at_inf) -> X:
    OPS[0] += 2
    return X(_end(f, x.lo, at_ninf, at_inf)[0], _end(f, x.hi, at_ninf, at_inf)[1])


def magnitude(x: X) -> X:
    """{|t| : t in x}."""
    if x.ge0():
        return x
    if x.le0():
        return neg(x)
    return X(arb(0), upper([-x.lo, x.hi]))


def power(x: X, r: sp.Rational) -> X:
    """x**r for a rational constant r."""
    if r == 0:
        return X(arb(1), arb(1))
    if r.q == 1:
        n = int(r.p)
        base = magnitude(x) if n % 2 == 0 else x
        if n < 0:
            return recip(power(base, sp.Integer(-n)))
        return increasing(base, lambda a: a ** n, NINF, INF)
    if r < 0:
        return recip(power(x, -r))
    if not x.ge0():
        raise Undefined("fractional power of a negative number")
    e = arb(fmpq(int(r.p), int(r.q)))
    return increasing(x, lambda a: arb(0) if a == 0 else a ** e, NINF, INF)


HALF_PI = arb.pi() / 2
# name -> (domain test on the lower end, f, limit at -oo, limit at +oo); all increasing
MONOTONE = {
    sp.exp: (None, lambda a: a.exp(), arb(0), INF),
    sp.log: (lambda e: _sign(e) > 0, lambda a: a.log(), NINF, INF),
    sp.tanh: (None, lambda a: a.tanh(), arb(-1), arb(1)),
    sp.sinh: (None, lambda a: a.sinh(), NINF, INF),
    sp.atan: (None, lambda a: a.atan(), -HALF_PI, HALF_PI),
    sp.asinh: (None, lambda a: a.asinh(), NINF, INF),
    sp.erf: (None, lambda a: a.erf(), arb(-1), arb(1)),
    log1p: (lambda e: compare(e, arb(-1)) > 0, lambda a: a.log1p(), NINF, INF),
    expm1: (None, lambda a: a.expm1(), arb(-1), INF),
}


def compile_expr(expr: sp.Expr):
    """A function ``env -> X`` enclosing ``expr``; env maps symbol names to X."""
    if expr.is_Symbol:
        name = expr.name
        return lambda env: env[name]
    if expr.is_Rational:
        const = X.ball(arb(fmpq(int(expr.p), int(expr.q))))
        return lambda env: const
    if expr is sp.pi or expr is sp.E:
        const = X.ball(arb.pi() if expr is sp.pi else arb(1).exp())
        return lambda env: const
    args = [compile_expr(a) for a in expr.args]
    if expr.is_Add:
        return lambda env: _fold(add, [a(env) for a in args])
    if expr.is_Mul:
        return lambda env: _fold(mul, [a(env) for a in args])
    if expr.is_Pow:
        b, e = expr.args
        if e.is_Rational:
            return lambda env: power(args[0](env), e)
        log_b = compile_expr(sp.log(b))
        return lambda env: _apply(sp.exp, mul(args[1](env), log_b(env)))
    f = expr.func
    if f is sp.log and expr.args[0].is_Add and sp.S.One in expr.args[0].args:
        # log(1 + t) == log1p(t) with t the sum of the OTHER terms (one 1 taken out: an unevaluated
        # Add(1, 1) is 1 + 1); arb's log1p keeps t's digits where 1 + t would round them away
        rest = list(expr.args[0].args)
        rest.remove(sp.S.One)
        t = compile_expr(sp.Add(*rest))
        return lambda env: _apply(log1p, t(env))
    if f in MONOTONE:
        return lambda env: _apply(f, args[0](env))
    if f is sp.cosh:
        return lambda env: increasing(magnitude(args[0](env)), lambda a: a.cosh(), INF, INF)
    if f is sp.Abs:
        return lambda env: magnitude(args[0](env))
    if f in (sp.Max, sp.Min):
        pick = upper if f is sp.Max else lower
        return lambda env: _minmax(pick, [a(env) for a in args])
    raise Undefined(f"no enclosure for {f}")


def _apply(f, x: X) -> X:
    test, fn, at_ninf, at_inf = MONOTONE[f]
    if test is not None and not test(x.lo):
        raise Undefined("argument outside the function's domain")
    return increasing(x, fn, at_ninf, at_inf)


#: Interval operations evaluated so far in this process (a measure of work, for callers' budgets).
OPS = [0]


def _fold(op, xs):
    OPS[0] += len(xs)
    return reduce(op, xs)


def _minmax(pick, xs):
    return X(pick([x.lo for x in xs]), pick([x.hi for x in xs]))


MAX_EXPONENT = 100_000  # binary exponent of a point made exact: 2^(1.5e13) from exp(exp(30)) kills the process


def to_fmpq(e) -> fmpq:
    """An exact arb point as a rational."""
    man, exp = e.man_exp()
    if abs(int(exp)) > MAX_EXPONENT:
        raise Undefined(f"a number of magnitude 2^{int(exp)} is beyond the kernel's exact range")
    return int(man) * fmpq(2) ** int(exp)

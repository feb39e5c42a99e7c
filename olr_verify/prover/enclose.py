"""Rigorous interval enclosures of sympy expressions, with python-flint ``arb`` endpoints.

An :class:`Iv` is a closed interval ``[lo, hi]`` whose ends are ``arb`` balls (the interval is
understood as ``[lowest point of lo, highest point of hi]``) or the sentinels ``-inf``/``+inf``.
Every operation returns an interval containing all values of the exact real function on the
input interval (monotone functions are evaluated at the ends, even functions through ``|x|``).
A value outside a function's domain (``log`` of something that may be <= 0, division by an
interval containing 0) gives the whole line, so nothing is ever decided from it.

:func:`compile_expr` turns a sympy expression into a function ``env -> Iv`` where ``env`` maps
variable names to intervals. Numbers enter exactly: sympy ``Rational`` -> ``fmpq`` -> ``arb``.
"""
from __future__ import annotations

import math
from typing import Callable

import sympy as sp
from flint import arb, fmpq

from olr_verify.prover.special import Exprel, Sigmoid, Softplus

INF = math.inf
NINF = -math.inf


def _isinf(v) -> bool:
    return isinstance(v, float)


class Iv:
    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        self.lo = lo
        self.hi = hi

    @staticmethod
    def point(q) -> "Iv":
        b = arb(q) if not isinstance(q, arb) else q
        return Iv(b, b)

    @staticmethod
    def whole() -> "Iv":
        return Iv(NINF, INF)

    def certainly_ge0(self) -> bool:
        return (not _isinf(self.lo)) and bool(self.lo >= 0)

    def certainly_gt0(self) -> bool:
        return (not _isinf(self.lo)) and bool(self.lo > 0)

    def certainly_le0(self) -> bool:
        return (not _isinf(self.hi)) and bool(self.hi <= 0)

    def certainly_lt0(self) -> bool:
        return (not _isinf(self.hi)) and bool(self.hi < 0)

    def bounded(self) -> bool:
        return not (_isinf(self.lo) or _isinf(self.hi))

    def __repr__(self) -> str:
        return f"Iv({self.lo}, {self.hi})"


def _bad(v) -> bool:
    return (not _isinf(v)) and v.is_nan()


def _min(vals):
    out = None
    for v in vals:
        if _isinf(v):
            if v < 0:
                return NINF
            continue
        out = v if out is None else out.min(v)
    return INF if out is None else out


def _max(vals):
    out = None
    for v in vals:
        if _isinf(v):
            if v > 0:
                return INF
            continue
        out = v if out is None else out.max(v)
    return NINF if out is None else out


def _clean(lo, hi) -> Iv:
    if type(lo) is arb and type(hi) is arb:
        if lo.is_finite() and hi.is_finite():
            return Iv(lo, hi)
        return Iv.whole()
    if _bad(lo) or _bad(hi) or (not _isinf(lo) and not lo.is_finite()) or (not _isinf(hi) and not hi.is_finite()):
        return Iv.whole()
    return Iv(lo, hi)


def add(x: Iv, y: Iv) -> Iv:
    if type(x.lo) is arb and type(x.hi) is arb and type(y.lo) is arb and type(y.hi) is arb:
        lo, hi = x.lo + y.lo, x.hi + y.hi
        if lo.is_finite() and hi.is_finite():
            return Iv(lo, hi)
        return Iv.whole()
    lo = NINF if (_isinf(x.lo) or _isinf(y.lo)) else x.lo + y.lo
    hi = INF if (_isinf(x.hi) or _isinf(y.hi)) else x.hi + y.hi
    return _clean(lo, hi)


def neg(x: Iv) -> Iv:
    return Iv(-x.hi, -x.lo)


def _prod_candidates(u, v):
    """Possible values of the product of two ends (0 * inf counts as 0: the ends are attained)."""
    if not _isinf(u) and not _isinf(v):
        return [u * v]
    if _isinf(u) and _isinf(v):
        return [INF if (u > 0) == (v > 0) else NINF]
    fin, inf = (v, u) if _isinf(u) else (u, v)
    out = []
    if fin.is_zero():
        return [arb(0)]
    if not bool(fin <= 0):  # may be positive
        out.append(inf)
    if not bool(fin >= 0):  # may be negative
        out.append(-inf)
    if fin.contains(0):
        out.append(arb(0))
    return out


def mul(x: Iv, y: Iv) -> Iv:
    if type(x.lo) is arb and type(x.hi) is arb and type(y.lo) is arb and type(y.hi) is arb:
        if x.lo is x.hi:  # a constant
            a = x.lo
            if a >= 0:
                return _clean(a * y.lo, a * y.hi)
            if a <= 0:
                return _clean(a * y.hi, a * y.lo)
        p1, p2, p3, p4 = x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi
        lo, hi = p1.min(p2).min(p3).min(p4), p1.max(p2).max(p3).max(p4)
        if lo.is_finite() and hi.is_finite():  # _clean(lo, hi), inlined
            return Iv(lo, hi)
        return Iv(NINF, INF)
    c = []
    for u in (x.lo, x.hi):
        for v in (y.lo, y.hi):
            c.extend(_prod_candidates(u, v))
    return _clean(_min(c), _max(c))


def inv(x: Iv) -> Iv:
    if x.certainly_gt0() or x.certainly_lt0():
        lo = arb(0) if _isinf(x.hi) else 1 / x.hi
        hi = arb(0) if _isinf(x.lo) else 1 / x.lo
        return _clean(lo, hi)
    return Iv.whole()


def _mono(f, lim_lo, lim_hi):
    """An increasing function; ``lim_lo``/``lim_hi`` are its limits at -inf/+inf."""

    def g(x: Iv) -> Iv:
        lo = lim_lo if isinstance(x.lo, float) else f(x.lo)
        hi = lim_hi if isinstance(x.hi, float) else f(x.hi)
        if type(lo) is arb and type(hi) is arb:  # _clean(lo, hi), inlined for finite ends
            if lo.is_finite() and hi.is_finite():
                return Iv(lo, hi)
            return Iv(NINF, INF)
        return _clean(lo, hi)

    return g


_exp = _mono(lambda v: v.exp(), arb(0), INF)
_tanh = _mono(lambda v: v.tanh(), arb(-1), arb(1))
_sinh = _mono(lambda v: v.sinh(), NINF, INF)
_atan = _mono(lambda v: v.atan(), -arb.pi() / 2, arb.pi() / 2)
_asinh = _mono(lambda v: v.asinh(), NINF, INF)
_erf = _mono(lambda v: v.erf(), arb(-1), arb(1))


def _softplus_ball(v: arb) -> arb:
    if bool(v < 0):
        return v.exp().log1p()
    return v + (-v).exp().log1p()


_sigmoid = _mono(lambda v: 1 / (1 + (-v).exp()), arb(0), arb(1))  # 1/(1+e^{-v}), increasing
_softplus = _mono(_softplus_ball, arb(0), INF)  # log(1+e^v), increasing


def exp(x: Iv) -> Iv:
    return _exp(x)


def log(x: Iv) -> Iv:
    if not x.certainly_gt0():
        return Iv.whole()
    return _mono(lambda v: v.log(), NINF, INF)(x)


def log1p(x: Iv) -> Iv:
    if _isinf(x.lo) or not bool(x.lo > -1):
        return Iv.whole()
    return _mono(lambda v: v.log1p(), NINF, INF)(x)


def expm1(x: Iv) -> Iv:
    return _mono(lambda v: v.expm1(), arb(-1), INF)(x)


def sqrt(x: Iv) -> Iv:
    if not x.certainly_ge0():
        return Iv.whole()
    return _mono(lambda v: v.sqrt(), arb(0), INF)(x)


def absval(x: Iv) -> Iv:
    if x.certainly_ge0():
        return x
    if x.certainly_le0():
        return neg(x)
    return Iv(arb(0), _max([neg(x).hi, x.hi]))


def cosh(x: Iv) -> Iv:
    return _mono(lambda v: v.cosh(), arb(1), INF)(absval(x))


def powint(x: Iv, n: int) -> Iv:
    if n == 0:
        return Iv.point(1)
    if n < 0:
        return inv(powint(x, -n))
    if n % 2 == 0:
        x = absval(x)
    return _mono(lambda v: v ** n, NINF, INF)(x)


def powfrac(x: Iv, q: fmpq) -> Iv:
    """``x**q`` for a non-integer rational q (real only for x >= 0)."""
    if q < 0:
        return inv(powfrac(x, -q))
    if not x.certainly_ge0():
        return Iv.whole()
    return _mono(lambda v: v ** arb(q) if not v.is_zero() else arb(0), arb(0), INF)(x)


def maxi(x: Iv, y: Iv) -> Iv:
    return Iv(_max([x.lo, y.lo]), _max([x.hi, y.hi]))


def mini(x: Iv, y: Iv) -> Iv:
    return Iv(_min([x.lo, y.lo]), _min([x.hi, y.hi]))


def exprel(k: int, x: Iv) -> Iv:
    """``E_k(u) = int_0^1 t^k e^{tu} dt``: positive and increasing in u."""
    return _mono(lambda v: exprel_ball(k, v), arb(0), INF)(x)


def exprel_ball(k: int, u: arb) -> arb:
    """A ball containing ``E_k(u)`` for every u in the ball ``u`` (|u| small: series with tail bound)."""
    if bool(abs(u) < arb(1) / 2):
        n_terms = 40
        s, term = arb(0), arb(1)
        for n in range(n_terms + 1):
            s += term / (n + k + 1)
            term = term * u / (n + 1)
        # remaining terms: |sum_{n>N} u^n/(n!(n+k+1))| <= 2|u|^{N+1}/(N+1)!
        err = 2 * abs(term)
        return s + err * arb(0, 1)
    e = u.exp()
    val = (e - 1) / u
    for j in range(1, k + 1):
        val = (e - j * val) / u
    return val


def to_fmpq(r: sp.Rational) -> fmpq:
    return fmpq(int(r.p), int(r.q))


Fn = Callable[[dict], Iv]


def compile_expr(expr: sp.Expr) -> Fn:
    """A function ``env -> Iv`` enclosing ``expr`` (``env``: variable name -> Iv)."""
    memo: dict[sp.Expr, Fn] = {}
    return _compile(expr, memo)


class Shared(dict):
    """The compile memo of several expressions evaluated on the same env (a slack and its derivatives): each
    subexpression they have in common is evaluated once per env, the env of the latest call (an env must not
    change once built). The enclosures are those of :func:`compile_expr`; only ``OPS`` counts fewer operations."""

    def __init__(self):
        super().__init__()
        self.env: dict | None = None
        self.values: dict[int, Iv] = {}


def compile_shared(expr: sp.Expr, shared: Shared) -> Fn:
    """:func:`compile_expr` sharing its subexpressions' values with the other expressions compiled with ``shared``."""
    return _compile(expr, shared)


class Unsupported(ValueError):
    pass


def _compile(e: sp.Expr, memo) -> Fn:
    if e in memo:
        return memo[e]
    f = _compile_node(e, memo)
    if isinstance(memo, Shared) and e.args:
        f = _once_per_env(f, len(memo), memo)
    memo[e] = f
    return f


def _once_per_env(f: Fn, key: int, shared: Shared) -> Fn:
    def once(env):
        if env is not shared.env:
            shared.env, shared.values = env, {}
        values = shared.values
        if key not in values:
            values[key] = f(env)
        return values[key]

    return once


#: Sums and products evaluated so far in this process: the unit of work of the tail prover's budget (a box of a
#: large derivative costs many; a count of boxes would not bound the time).
OPS = [0]


def _const(value: Iv) -> Fn:
    return lambda env: value


def _compile_node(e: sp.Expr, memo) -> Fn:
    if e.is_Symbol:
        name = e.name
        return lambda env: env[name]
    if e.is_Rational:
        q = to_fmpq(e)
        return _const(Iv.point(arb(q)))
    if e.is_Float:
        raise Unsupported(f"inexact float {e} in expression: write it as a fraction or parse with rational=True")
    if e is sp.E:
        v = arb.const_e()
        return lambda env: Iv(v, v)
    if e is sp.pi:
        v = arb.pi()
        return lambda env: Iv(v, v)
    if e.is_Add:
        parts = [_compile(a, memo) for a in e.args]

        def f_add(env):
            OPS[0] += len(parts)
            acc = parts[0](env)
            for p in parts[1:]:
                acc = add(acc, p(env))
            return acc

        return f_add
    if e.is_Mul:
        parts = [_compile(a, memo) for a in e.args]

        def f_mul(env):
            OPS[0] += len(parts)
            acc = parts[0](env)
            for p in parts[1:]:
                acc = mul(acc, p(env))
            return acc

        return f_mul
    if e.is_Pow:
        base, ex = e.args
        if base is sp.E:
            g = _compile(ex, memo)
            return lambda env: exp(g(env))
        b = _compile(base, memo)
        if ex.is_Integer:
            n = int(ex)
            return lambda env: powint(b(env), n)
        if ex.is_Rational:
            q = to_fmpq(ex)
            if ex == sp.Rational(1, 2):
                return lambda env: sqrt(b(env))
            return lambda env: powfrac(b(env), q)
        g = _compile(ex * sp.log(base), memo)
        return lambda env: exp(g(env))
    if isinstance(e, Sigmoid):
        g = _compile(e.args[0], memo)
        return lambda env: _sigmoid(g(env))
    if isinstance(e, Softplus):
        g = _compile(e.args[0], memo)
        return lambda env: _softplus(g(env))
    if isinstance(e, Exprel):
        k = int(e.args[0])
        g = _compile(e.args[1], memo)
        return lambda env: exprel(k, g(env))
    unary = {sp.exp: exp, sp.log: log, sp.tanh: tanh_, sp.sinh: _sinh, sp.cosh: cosh, sp.atan: _atan,
             sp.asinh: _asinh, sp.erf: _erf, sp.Abs: absval}
    if e.func in unary and len(e.args) == 1:
        g = _compile(e.args[0], memo)
        op = unary[e.func]
        return lambda env: op(g(env))
    if e.func is sp.log and len(e.args) == 2:
        return _compile(sp.log(e.args[0]) / sp.log(e.args[1]), memo)
    if isinstance(e, (sp.Max, sp.Min)):
        parts = [_compile(a, memo) for a in e.args]
        op2 = maxi if isinstance(e, sp.Max) else mini

        def f_mm(env):
            acc = parts[0](env)
            for p in parts[1:]:
                acc = op2(acc, p(env))
            return acc

        return f_mm
    if e.func.__name__ in ("log1p", "expm1"):
        g, fn = _compile(e.args[0], memo), log1p if e.func.__name__ == "log1p" else expm1
        return lambda env: fn(g(env))
    if isinstance(e, sp.Piecewise):
        return _compile_piecewise(e, memo)
    raise Unsupported(f"no enclosure for {e.func} in {e}")


def tanh_(x: Iv) -> Iv:
    return _tanh(x)


def _compile_piecewise(e: sp.Piecewise, memo) -> Fn:
    """Hull of the branches whose condition may hold (conditions ``lhs < rhs`` etc. only)."""
    branches = []
    for val, cond in e.args:
        if cond is sp.true:
            branches.append((_compile(val, memo), None))
            continue
        if not isinstance(cond, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
            raise Unsupported(f"Piecewise condition {cond}")
        d = cond.rhs - cond.lhs if isinstance(cond, (sp.StrictLessThan, sp.LessThan)) else cond.lhs - cond.rhs
        branches.append((_compile(val, memo), _compile(d, memo)))

    def f_pw(env):
        los, his = [], []
        for val, d in branches:
            if d is None:
                v = val(env)
                los.append(v.lo)
                his.append(v.hi)
                break
            di = d(env)
            if di.certainly_lt0():
                continue  # condition (d >= 0 or d > 0) surely false
            v = val(env)
            los.append(v.lo)
            his.append(v.hi)
            if di.certainly_gt0():
                break  # surely taken: later branches unreachable
        if not los:
            return Iv.whole()
        return _clean(_min(los), _max(his))

    return f_pw

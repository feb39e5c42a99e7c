"""Removable singularities made explicit: ``E_k(u) = int_0^1 t^k e^{tu} dt``.

``E_0(u) = (e^u - 1)/u`` with ``E_0(0) = 1`` (the convention ``(e^0-1)/0 = 1`` of seed 000,
Lemma 8). ``d/du E_k = E_{k+1}``; every ``E_k`` is positive and increasing. :func:`rewrite`
replaces each quotient ``(e^u - 1)/u`` (or ``(1 - e^u)/u``, ``expm1(u)/u``) in a sympy
expression by ``Exprel(0, u)``; the rewrite is an exact identity for ``u != 0`` and defines the
continuous extension at ``u = 0``.
"""
from __future__ import annotations

import sympy as sp


class Exprel(sp.Function):
    """``Exprel(k, u) = int_0^1 t^k exp(t u) dt``."""

    nargs = 2
    is_real = True

    @classmethod
    def eval(cls, k, u):
        if u.is_zero:
            return sp.Rational(1, int(k) + 1)
        return None

    def fdiff(self, argindex=2):
        if argindex != 2:
            raise sp.ArgumentIndexError(self, argindex)
        k, u = self.args
        return Exprel(k + 1, u)

    def _eval_is_positive(self):
        return True

    def _eval_rewrite_as_exp(self, k, u, **kwargs):
        if int(k) == 0:
            return (sp.exp(u) - 1) / u
        return None

    def _eval_evalf(self, prec):
        k, u = self.args
        if not u.is_number:
            return None
        t = sp.Dummy("t")
        return sp.Integral(t ** k * sp.exp(t * u), (t, 0, 1)).evalf(prec)


def _match_expm1(num: sp.Expr):
    """``(u, sign)`` when ``num == sign*(exp(u) - 1)``, else None."""
    for sign in (1, -1):
        rest = sp.expand(sign * num + 1, power_exp=False, log=False)
        if isinstance(rest, sp.exp):
            return rest.args[0], sign
    if num.func.__name__ == "expm1":
        return num.args[0], 1
    return None


def rewrite(expr: sp.Expr) -> tuple[sp.Expr, int]:
    """``expr`` with each ``(e^u-1)/u`` replaced by ``Exprel(0, u)``; also the number replaced."""
    count = 0

    def visit(e):
        nonlocal count
        if e.is_Atom:
            return e
        args = [visit(a) for a in e.args]
        e = e.func(*args) if args != list(e.args) else e
        if not e.is_Mul:
            return e
        factors = list(e.args)
        changed = True
        while changed:
            changed = False
            for i, den in enumerate(factors):
                if not (den.is_Pow and den.args[1] == -1):
                    continue
                d = den.args[0]
                for j, num in enumerate(factors):
                    if j == i:
                        continue
                    m = _match_expm1(num)
                    if m is None:
                        continue
                    u, sign = m
                    if sp.expand(u - d) == 0:
                        s = sign
                    elif sp.expand(u + d) == 0:
                        s = -sign
                    else:
                        continue
                    rest = [f for k, f in enumerate(factors) if k not in (i, j)]
                    factors = rest + [s * Exprel(0, u)]
                    count += 1
                    changed = True
                    break
                if changed:
                    break
        return sp.Mul(*factors)

    return visit(expr), count

"""Removable singularities made explicit: ``E_k(u) = int_0^1 t^k e^{tu} dt``.

``E_0(u) = (e^u - 1)/u`` with ``E_0(0) = 1`` (the convention ``(e^0-1)/0 = 1`` of seed 000,
Lemma 8). ``d/du E_k = E_{k+1}``; every ``E_k`` is positive and increasing. :func:`rewrite`
replaces each quotient ``(e^u - 1)/u`` (or ``(1 - e^u)/u``, ``expm1(u)/u``) in a sympy
expression by ``Exprel(0, u)``; the rewrite is an exact identity for ``u != 0`` and defines the
continuous extension at ``u = 0``.
"""
from __future__ import annotations

import sympy as sp
from sympy.core.traversal import bottom_up


class Exprel(sp.Function):
    """``Exprel(k, u) = int_0^1 t^k exp(t u) dt``."""

    nargs = 2
    is_real = True

    @classmethod
    def eval(cls, k, u):
        if not (k.is_Integer and k >= 0):
            raise ValueError(f"Exprel(k, u) needs an integer k >= 0, got k = {k}")
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

    def at_node(e):
        nonlocal count
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

    return bottom_up(expr, at_node), count


class Sigmoid(sp.Function):
    """``Sigmoid(u) = 1/(1 + e^{-u})``; ``d/du Sigmoid(u) = Sigmoid(u) Sigmoid(-u)`` (no cancellation)."""

    nargs = 1
    is_real = True

    @classmethod
    def eval(cls, u):
        if u.is_zero:
            return sp.Rational(1, 2)
        return None

    def fdiff(self, argindex=1):
        u = self.args[0]
        return Sigmoid(u) * Sigmoid(-u)

    def _eval_is_positive(self):
        return True

    def _eval_rewrite_as_exp(self, u, **kwargs):
        return 1 / (1 + sp.exp(-u))

    def _eval_evalf(self, prec):
        return (1 / (1 + sp.exp(-self.args[0])))._eval_evalf(prec)


class Softplus(sp.Function):
    """``Softplus(u) = log(1 + e^u)``; ``d/du Softplus(u) = Sigmoid(u)``."""

    nargs = 1
    is_real = True

    def fdiff(self, argindex=1):
        return Sigmoid(self.args[0])

    def _eval_is_positive(self):
        return True

    def _eval_rewrite_as_exp(self, u, **kwargs):
        return sp.log(1 + sp.exp(u))

    def _eval_evalf(self, prec):
        return sp.log(1 + sp.exp(self.args[0]))._eval_evalf(prec)


def _one_plus_exp(e):
    """u when e == 1 + exp(u)."""
    if e.is_Add and len(e.args) == 2 and sp.S.One in e.args:
        other = e.args[0] if e.args[1] == 1 else e.args[1]
        if isinstance(other, sp.exp):
            return other.args[0]
    return None


def rewrite_logistic(expr: sp.Expr) -> tuple[sp.Expr, int]:
    """Exact rewrites ``log(1+e^u) -> Softplus(u)``, ``(1+e^u)^-k -> Sigmoid(-u)^k``,
    ``e^(n u) Sigmoid(-u)^k -> Sigmoid(u)^n Sigmoid(-u)^(k-n)`` (integer 1 <= n <= k), and
    ``e^w Sigmoid(-u) -> e^(w-u) Sigmoid(u)`` when ``w - u`` has fewer variables than ``w``:
    derivatives of logistic terms then have no cancelling parts."""
    count = 0

    def visit(e):
        nonlocal count
        if e.is_Atom:
            return e
        args = [visit(a) for a in e.args]
        e = e.func(*args) if args != list(e.args) else e
        if isinstance(e, sp.log) and len(e.args) == 1:
            u = _one_plus_exp(e.args[0])
            if u is not None:
                count += 1
                return Softplus(u)
        if e.is_Pow and e.args[1].is_Integer and e.args[1] < 0:
            u = _one_plus_exp(e.args[0])
            if u is not None:
                count += 1
                return Sigmoid(-u) ** (-e.args[1])
        if e.is_Mul:
            distributed = _distribute(e, visit)
            if distributed is not None:
                return distributed
            factors = list(e.args)
            changed = True
            while changed:
                changed = False
                for i, f in enumerate(factors):
                    if not isinstance(f, sp.exp):
                        continue
                    for j, g in enumerate(factors):
                        base, k = (g.args[0], g.args[1]) if g.is_Pow else (g, sp.Integer(1))
                        if isinstance(base, Sigmoid) and k.is_Integer and k > 0:
                            u = -base.args[0]
                            w = f.args[0]
                            n = sp.cancel(w / u)  # e^(n u) S(-u)^k = S(u)^n S(-u)^(k-n), 1 <= n <= k
                            w_rest = sp.expand(w - u)  # e^w S(-u) = e^(w-u) S(u)
                            if n.is_Integer and 1 <= n <= k:
                                new = Sigmoid(u) ** n * Sigmoid(-u) ** (k - n)
                            elif w_rest.free_symbols < w.free_symbols:
                                new = sp.exp(w_rest) * Sigmoid(u) * Sigmoid(-u) ** (k - 1)
                            else:
                                continue
                            rest = [h for m, h in enumerate(factors) if m not in (i, j)]
                            factors = rest + [new]
                            count += 1
                            changed = True
                            break
                    if changed:
                        break
            e = sp.Mul(*factors)
        return e

    def _distribute(e, visit):
        """A Sigmoid times a sum with exp terms: distributed when that lets an exp meet the Sigmoid."""
        nonlocal count
        if not any(isinstance(g.args[0] if g.is_Pow else g, Sigmoid) for g in e.args):
            return None
        for A in e.args:
            if A.is_Add and any(isinstance(f, sp.exp) for t in A.args for f in sp.Mul.make_args(t)):
                rest = sp.Mul(*[g for g in e.args if g is not A])
                before = count
                cand = sp.Add(*[visit(t * rest) for t in A.args])
                if count > before:
                    return cand
                count = before
        return None

    return visit(expr), count

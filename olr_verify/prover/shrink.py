"""Tail argument by *shrinking terms*: one unbounded variable v, the others in a bounded box.

On a right tail ``v >= X`` (``side = +1``) or a left tail ``v <= -X`` (``side = -1``):

1. exact asymptotic rewrites, for every ``w`` linear in v that tends to ``+oo`` on the tail:
   ``Softplus(w) = w + Softplus(-w)`` and ``Sigmoid(w) = 1 - Sigmoid(-w)``; then sympy expands
   the slack into a sum of terms, so parts that diverge and cancel (``-b`` and ``+b`` on the left
   tail of 000 Lemma 5) cancel exactly (a second form first puts everything over one denominator,
   ``sympy.cancel``, so that ``(1+a) e^a/(1+a)`` and ``-e^a`` cancel too); a product
   ``E0(w) e^z`` with ``w -> -oo`` and ``z + w`` free of v becomes ``E0(-w) e^(z+w)``;
2. the v-free terms form the *anchor* ``P(y)``, enclosed by the natural and the mean-value form;
3. each other term is ``c(y) g(v, y)`` (sympy ``as_independent``). When ``g`` has one sign on the
   tail and ``side * d/dv log|g| <= 0`` there (``|g|`` does not grow away from ``X``; the log
   derivative of a product is a sum, which encloses well on unbounded intervals), the term lies
   between 0 and its value at ``v = side X``, so it is ``>= min(0, c g(side X))``; when instead
   ``side * d/dv log|g| >= 0`` and ``c g(side X) >= 0``, the term is ``>= c g(side X)``. A term
   whose enclosure on the whole tail is bounded below may use that bound instead.

``s >= P_lo + sum of the term bounds >= 0`` proves the tail on the box (``> 0`` if strict).

When every term vanishes on the tail (``2 e^z/(1+e^z)^3`` as ``z -> -oo``) the slack is first divided
by one of its positive terms N (the *normaliser*: one-signed on the tail, positive at the cut, so
positive throughout): ``s >= 0 <=> s/N >= 0``, and ``s/N`` has the anchor 1.
"""
from __future__ import annotations

from functools import lru_cache

import sympy as sp
from sympy.core.traversal import bottom_up
from flint import arb

from olr_verify.prover.enclose import INF, NINF, Iv, Unsupported, add, compile_expr, mul
from olr_verify.prover.special import Exprel, Sigmoid, Softplus


def _direction(w: sp.Expr, v: sp.Symbol) -> int:
    """Sign of the slope of ``w`` in v when w is linear in v with a rational slope, else 0."""
    dw = sp.diff(w, v)
    if not dw.is_Rational or sp.diff(w, v, 2) != 0:
        return 0
    return int(sp.sign(dw))


@lru_cache(maxsize=256)  # the plain form, every normaliser and the candidates all start from it
def asymptotic_rewrite(expr: sp.Expr, v: sp.Symbol, side: int, cancel: bool = False) -> sp.Expr:
    """Softplus/Sigmoid of arguments tending to +oo on the tail, written with vanishing parts."""

    def to_plus_inf(w) -> bool:
        return _direction(w, v) * side > 0

    def at_node(e):
        if isinstance(e, Softplus) and to_plus_inf(e.args[0]):
            return e.args[0] + Softplus(-e.args[0])
        if isinstance(e, Sigmoid) and to_plus_inf(e.args[0]):
            return 1 - Sigmoid(-e.args[0])
        return e

    e = bottom_up(expr, at_node)
    e = sp.expand(sp.cancel(e) if cancel else e)
    return sp.Add(*[_flip_exprel(t, v, side) for t in sp.Add.make_args(e)])


def _flip_exprel(term: sp.Expr, v: sp.Symbol, side: int) -> sp.Expr:
    """``E0(w) e^z = E0(-w) e^(z+w)`` when ``w -> -oo`` on the tail and ``z + w`` is free of v
    (``E0(w) e^{-w} = E0(-w)``): a vanishing factor times a growing one becomes one growing factor."""
    factors = list(sp.Mul.make_args(term))
    for i, f in enumerate(factors):
        if not (isinstance(f, Exprel) and f.args[0] == 0):
            continue
        w = f.args[1]
        if _direction(w, v) * side >= 0:
            continue
        for j, g in enumerate(factors):
            if j != i and isinstance(g, sp.exp) and v not in sp.expand(g.args[0] + w).free_symbols:
                rest = [h for k, h in enumerate(factors) if k not in (i, j)]
                return sp.Mul(*rest) * Exprel(0, -w) * sp.exp(sp.expand(g.args[0] + w))
    return term


def log_derivative(g: sp.Expr, v: sp.Symbol) -> sp.Expr:
    """``d/dv log|g|`` of a product, factor by factor."""
    out = sp.Integer(0)
    for f in sp.Mul.make_args(g):
        if v not in f.free_symbols:
            continue
        if isinstance(f, sp.exp):
            out += sp.diff(f.args[0], v)
            continue
        base, k = f.as_base_exp()
        if k.free_symbols:
            raise Unsupported(f"variable exponent in {f}")
        out += k * sp.diff(base, v) / base
    return out


def _sign_parts(g: sp.Expr, v: sp.Symbol):
    """Compiled bases of the factors of ``g`` whose sign must be checked by enclosure (a power of a
    nonzero base is nonzero). Factors sympy knows to be positive (exp, Sigmoid, Softplus, Exprel) are left out."""
    parts = []
    for f in sp.Mul.make_args(g):
        if v not in f.free_symbols or isinstance(f, sp.exp) or f.is_positive:
            continue
        base, k = f.as_base_exp()
        if not k.is_Integer:
            raise Unsupported(f"sign of {f}")
        if base.is_positive:
            continue
        parts.append(compile_expr(base))
    return parts


def _one_signed(parts, env) -> bool:
    """Every checked factor's base is nonzero on the tail (each is continuous, the tail connected)."""
    for fn in parts:
        iv = fn(env)
        if not (iv.certainly_gt0() or iv.certainly_lt0()):
            return False
    return True


def normaliser_candidates(expr: sp.Expr, v: sp.Symbol, side: int, limit: int = 3) -> list[sp.Expr]:
    """Terms with a positive numeric coefficient that depend on v (tried as normalisers)."""
    out = []
    for t in sp.Add.make_args(asymptotic_rewrite(expr, v, side)):
        coeff, rest = t.as_coeff_Mul()
        if coeff > 0 and v in rest.free_symbols and rest not in out:
            out.append(rest)
    return out[:limit]


class ShrinkingTail:
    """Compiled pieces of the argument for one expression, variable and side."""

    def __init__(self, expr: sp.Expr, syms: list[sp.Symbol], v_index: int, side: int, cancel: bool = False,
                 normaliser: sp.Expr | None = None):
        self.names = [s.name for s in syms]
        self.v = v_index
        self.side = side
        self.cancelled = cancel
        self.normaliser = normaliser
        v = syms[v_index]
        expanded = asymptotic_rewrite(expr, v, side, cancel)
        if normaliser is not None:  # s >= 0 <=> s / N >= 0 where N > 0 (checked per box)
            expanded = sp.Add(*[t / normaliser for t in sp.Add.make_args(expanded)])
            self.norm_sign = _sign_parts(normaliser, v)
            self.norm_fn = compile_expr(normaliser)
        anchor, by_part = sp.Integer(0), {}
        for t in sp.Add.make_args(expanded):
            if v in t.free_symbols:  # terms with the same v-dependent part are collected: c1 g + c2 g = (c1+c2) g
                c, g = t.as_independent(v, as_Add=False)
                by_part[g] = by_part.get(g, sp.Integer(0)) + c
            else:
                anchor += t
        self.terms = [(compile_expr(c * g), _sign_parts(g, v), compile_expr(log_derivative(g, v)))
                      for g, c in by_part.items()]
        self.anchor_fn = compile_expr(anchor)
        self.anchor_grad = [(s.name, compile_expr(sp.diff(anchor, s))) for s in syms if s in anchor.free_symbols]

    def _env(self, box, X, at_end: bool):
        env = {}
        for i, n in enumerate(self.names):
            if i == self.v:
                x = arb(X) * self.side
                env[n] = Iv(x, x) if at_end else (Iv(x, INF) if self.side > 0 else Iv(NINF, x))
            else:
                env[n] = Iv(arb(box[i][0]), arb(box[i][1]))
        return env

    def _anchor_lo(self, box, env):
        """Lower end of the anchor: the better of the natural and the mean-value enclosure."""
        best = self.anchor_fn(env).lo
        if not self.anchor_grad:
            return best
        centre = {n: (box[i][0] + box[i][1]) / 2 for n, i in
                  ((n, self.names.index(n)) for n, _ in self.anchor_grad)}
        mv = self.anchor_fn(dict(env) | {n: Iv(arb(c), arb(c)) for n, c in centre.items()})
        for n, gfn in self.anchor_grad:
            lo, hi = box[self.names.index(n)]
            mv = add(mv, mul(gfn(env), Iv(arb(lo - centre[n]), arb(hi - centre[n]))))
        if not isinstance(mv.lo, float) and (isinstance(best, float) or bool(mv.lo > best)):
            best = mv.lo
        return best

    def lower_bound(self, box, X):
        """A rigorous lower bound (arb, or -inf) of the slack on ``box x tail``."""
        tail, end = self._env(box, X, False), self._env(box, X, True)
        if self.normaliser is not None and not (_one_signed(self.norm_sign, tail)
                                                and self.norm_fn(end).certainly_gt0()):
            return NINF
        total = self._anchor_lo(box, tail)
        if isinstance(total, float):
            return NINF
        for t_fn, sign_parts, dlog_fn in self.terms:
            cands = []
            whole = t_fn(tail)
            if not isinstance(whole.lo, float):
                cands.append(whole.lo)
            dlog = dlog_fn(tail)
            shrinks = dlog.certainly_le0() if self.side > 0 else dlog.certainly_ge0()
            grows = dlog.certainly_ge0() if self.side > 0 else dlog.certainly_le0()
            if (shrinks or grows) and _one_signed(sign_parts, tail):
                at = t_fn(end)
                if shrinks and not isinstance(at.lo, float):
                    cands.append(at.lo.min(arb(0)))
                elif grows and at.certainly_ge0():
                    cands.append(at.lo)
            if not cands:
                return NINF
            best = cands[0]
            for c in cands[1:]:
                if bool(c > best):
                    best = c
            total = total + best
        return total

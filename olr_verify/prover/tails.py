"""Certified tails: one unbounded variable v, reduced to bounded checks.

To show ``g >= 0`` (sign +1) or ``g <= 0`` (sign -1) on ``box x [X, oo)`` (right tail) or
``box x (-oo, -X]`` (left tail), with the other variables in a bounded box:

1. extended interval enclosure of g with v in the unbounded interval (ends may be +-inf); or
2. shrinking terms (``shrink.ShrinkingTail``): each term of the expanded slack lies between 0
   and its value at the cut when its log-derivative has the right sign; or
3. derivative chain: g has the sign at the finite end v = +-X (an enclosure there; for g = s
   itself this face belongs to the bounded core, proved separately) and ``d g / d v`` has the
   sign that keeps it (right tail: same sign; left tail: opposite sign) on the whole tail,
   recursively (up to ``max_depth`` derivatives).

The other variables' box is split when an enclosure is not decisive.
"""
from __future__ import annotations

import time

import sympy as sp
from flint import arb

from olr_verify.prover import enclose
from olr_verify.prover.bnb import Budget
from olr_verify.prover.enclose import INF, NINF, Iv, Unsupported, compile_expr
from olr_verify.prover.shrink import ShrinkingTail, normaliser_candidates


MAX_RATIO_OPS = 200  # a dominance log-ratio is simplified only up to this size (the registry's have at most 16)


class TailProver:
    def __init__(self, expr, syms, v_index, side, X, strict, constraints, *, deadline, max_boxes=20000,
                 max_depth=4, max_ops=None):
        self.syms = syms
        self.names = [s.name for s in syms]
        self.v = v_index
        self.side = side  # +1 right tail, -1 left tail
        self.X = X  # fmpq > 0
        self.strict = strict
        self.constraints = constraints
        self.deadline = deadline
        self.max_boxes = max_boxes
        self.ops_limit = None if max_ops is None else enclose.OPS[0] + int(max_ops)
        self.max_depth = max_depth
        self.exprs = [expr]
        self.fns = [compile_expr(expr)]
        self.boxes = 0
        self.depth_used = 0
        self.arguments: set[str] = set()
        self._dom: dict | None = None
        self._shrink: list | None = None  # the ShrinkingTail forms, built on first use

    def _dominance_exprs(self):
        """For each positive term T: the log-ratios log(T) - log(m |N_i|) over the negative terms N_i."""
        if self._dom is None:
            terms = sp.Add.make_args(sp.expand(self.exprs[0], power_exp=False, log=False))
            self._dom = {"terms": terms, "fns": [compile_expr(t) for t in terms], "ratio": {}}
        return self._dom

    def _dominance(self, box) -> bool:
        """s = sum of terms; one positive term T with |N_i| <= T/m for each of the m negative terms.

        Each ``log T - log(m |N_i|) >= 0`` (sympy-simplified, exact) is proved on the tail by the
        derivative chain, so ``s >= T - sum |N_i| >= 0``.
        """
        d = self._dominance_exprs()
        env = self._env(box, tail=True)
        signs = []
        for fn in d["fns"]:
            iv = fn(env)
            signs.append(1 if iv.certainly_ge0() else -1 if iv.certainly_le0() else 0)
        if 0 in signs or 1 not in signs:
            return False
        neg = [t for t, sg in zip(d["terms"], signs) if sg < 0]
        pos = [t for t, sg in zip(d["terms"], signs) if sg > 0]
        m = len(neg)
        for T in pos:
            ok = True
            for N in neg:
                key = (T, N, m)
                if key not in d["ratio"]:
                    ratio = T / (-m * N)
                    try:
                        if sp.count_ops(ratio) > MAX_RATIO_OPS:  # simplify has no budget of its own
                            raise Unsupported("log-ratio too large to simplify")
                        r = sp.simplify(sp.expand_log(sp.log(sp.powsimp(ratio)), force=True))
                        if r.has(sp.I):
                            raise Unsupported("complex log")
                        sub = TailProver(r, self.syms, self.v, self.side, self.X, True, self.constraints,
                                         deadline=self.deadline, max_boxes=self.max_boxes, max_depth=self.max_depth)
                        sub._dom = {"terms": (), "fns": [], "ratio": {}}
                        sub.ops_limit = self.ops_limit  # one budget for the tail and its sub-provers
                    except Unsupported:
                        sub = None
                    d["ratio"][key] = sub
                sub = d["ratio"][key]
                if sub is None:
                    ok = False
                    break
                try:
                    if not sub._full(box):
                        ok = False
                        break
                except Unsupported:
                    ok = False
                    break
            if ok:
                ratios = [str(d["ratio"][(T, N, m)].exprs[0]) for N in neg]
                self.arguments.add(f"dominance by the term {T}: log-ratios {ratios} > 0 by derivative chain")
                return True
        return False

    def _shrinking(self, box) -> bool | None:
        """s >= anchor + sum of shrinking-term bounds (``shrink.ShrinkingTail``) on the tail.

        None when the bound is finite but not decisive: splitting the box is then the way on."""
        if self._shrink is None:
            self._shrink = []
            v = self.syms[self.v]
            options = [(False, None), (True, None)] + [(False, n) for n in
                                                       normaliser_candidates(self.exprs[0], v, self.side)]
            for cancel, norm in options:
                try:
                    self._shrink.append(ShrinkingTail(self.exprs[0], self.syms, self.v, self.side, cancel, norm))
                except Unsupported:
                    pass
        finite = False
        for form in self._shrink:
            lo = form.lower_bound(box, self.X)
            if isinstance(lo, float):
                continue
            finite = True
            if bool(lo > 0) if self.strict else bool(lo >= 0):
                self.arguments.add("shrinking terms: anchor enclosure + each term between 0 and its value at "
                                   "the cut" + (" (over one denominator)" if form.cancelled else "")
                                   + (f" (divided by the positive term {form.normaliser})"
                                      if form.normaliser is not None else ""))
                return True
        return None if finite else False

    def _full(self, box) -> bool:
        """g > 0 on the tail including its end point (which is not covered by a core here)."""
        return self._end(0, +1, True, box, 0) and self._prove(0, +1, True, box, 0)

    def fn(self, k):
        while len(self.fns) <= k:
            d = sp.diff(self.exprs[-1], self.syms[self.v])
            self.exprs.append(d)
            try:
                self.fns.append(compile_expr(d))
            except Unsupported:
                self.fns.append(None)
        return self.fns[k]

    def _env(self, box, tail: bool):
        env = {}
        for i, n in enumerate(self.names):
            if i == self.v:
                x = arb(self.X) * self.side
                env[n] = (Iv(x, INF) if self.side > 0 else Iv(NINF, x)) if tail else Iv(x, x)
            else:
                lo, hi = box[i]
                env[n] = Iv(arb(lo), arb(hi))
        return env

    @staticmethod
    def _sign_ok(iv: Iv, sign: int, strict: bool) -> bool:
        if sign > 0:
            return iv.certainly_gt0() if strict else iv.certainly_ge0()
        return iv.certainly_lt0() if strict else iv.certainly_le0()

    def prove(self, box) -> bool:
        return self._prove(0, +1, self.strict, box, 0)

    def _tick(self):
        self.boxes += 1
        if self.boxes > self.max_boxes or time.perf_counter() > self.deadline:
            raise Budget()
        if self.ops_limit is not None and enclose.OPS[0] > self.ops_limit:
            raise Budget()

    def _outside(self, env) -> bool:
        return any(g(env).certainly_lt0() for g in self.constraints)

    def _prove(self, k, sign, strict, box, splits) -> bool:
        self._tick()
        env = self._env(box, tail=True)
        if self.constraints and self._outside(env):
            return True
        f = self.fn(k)
        if f is not None and self._sign_ok(f(env), sign, strict):
            self.depth_used = max(self.depth_used, k)
            self.arguments.add("enclosure" if k == 0 else f"derivative chain of order {k}")
            return True
        shrink = self._shrinking(box) if k == 0 and sign > 0 else False
        if shrink:
            return True
        if shrink is False and k < self.max_depth and f is not None and self.fn(k + 1) is not None:
            end_ok = k == 0 or self._end(k, sign, strict, box, 0)
            if end_ok and self._prove(k + 1, sign * self.side, False, box, splits):
                return True
        if k == 0 and sign > 0 and self._dominance(box):
            return True
        if splits >= 12:
            return False
        halves = self._split(box)
        if halves is None:
            return False
        return all(self._prove(k, sign, strict, h, splits + 1) for h in halves)

    def _end(self, k, sign, strict, box, splits) -> bool:
        """g_k at the finite end v = +-X has the sign, on the whole box of the other variables."""
        self._tick()
        env = self._env(box, tail=False)
        if self.constraints and self._outside(env):
            return True
        if self._sign_ok(self.fns[k](env), sign, strict):
            return True
        if splits >= 14:
            return False
        halves = self._split(box)
        return halves is not None and all(self._end(k, sign, strict, h, splits + 1) for h in halves)

    def _split(self, box):
        free = [i for i, (lo, hi) in enumerate(box) if i != self.v and lo != hi]
        if not free:
            return None
        i = max(free, key=lambda j: box[j][1] - box[j][0])
        lo, hi = box[i]
        m = (lo + hi) / 2
        b1, b2 = list(box), list(box)
        b1[i] = (lo, m)
        b2[i] = (m, hi)
        return [b1, b2]

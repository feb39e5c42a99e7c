"""Branch-and-bound over a bounded box, with the closers of the certificate.

A box is a list of ``(lo, hi)`` pairs of ``fmpq`` (exact rationals); ``lo == hi`` marks a fixed
coordinate (a face). A box is *closed* when one of these shows ``s >= 0`` (``> 0`` if strict)
on all of it:

- ``interval``        the interval enclosure of s has lower end >= 0;
- ``taylor1``         mean-value form ``s(c) + sum_i d_i s(box) (x_i - c_i)``;
- ``manifold``        s and d_i s vanish identically on x_i = x_j, so
                      ``s = (x_i-x_j)^2 int_0^1 (1-t) d_ii s(x_j + t(x_i-x_j), ...) dt`` and
                      ``d_ii s >= 0`` on the hull of X_i and X_j closes the box;
- ``touching_point``  an exact point p in the box with s(p) = 0 and grad s(p) = 0 (checked by
                      sympy), and the interval Hessian positive definite on the box (Gershgorin);
                      with one free coordinate: the first derivatives up to order m-1 vanish at p
                      exactly and the m-th (m even, up to 8) is >= 0 on the box (Lagrange remainder);
- ``monotone_face``   a partial derivative has a certain sign on the box, so the box reduces to
                      the face where s is smallest (that face is then processed as a box);
- ``zero_face``       on a face (fixed coordinates) s is identically 0: sympy reduces s with the
                      fixed values substituted to 0 exactly (non-strict relations only);
- ``outside_domain``  a dependent bound (e.g. ``a <= C``) certainly fails on the box.

A box whose centre is an exact domain point with certainly negative slack gives a refutation.
"""
from __future__ import annotations

import time
from fractions import Fraction

import sympy as sp
from flint import arb, fmpq

from olr_verify.prover.enclose import Iv, Shared, Unsupported, add, compile_expr, compile_shared, mul
from olr_verify.prover.parse import simplest_between
from olr_verify.prover.refute import exactly_zero
from olr_verify.prover.reduce import cancels_to_zero


def q2f(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def f2q(f: Fraction) -> fmpq:
    return fmpq(f.numerator, f.denominator)


def q_str(q: fmpq) -> str:
    return str(q2f(q))


class Budget(Exception):
    pass


class Refuted(Exception):
    def __init__(self, point):
        super().__init__(str(point))
        self.point = point  # name -> fmpq


class Slack:
    """The slack on one region: its compiled enclosure, derivatives and exact checks."""

    def __init__(self, expr: sp.Expr, syms: list[sp.Symbol], strict: bool, constraints, manifolds=()):
        self.expr = expr
        self.syms = syms
        self.names = [s.name for s in syms]
        self.strict = strict
        self._shared = Shared()  # s, its gradient and Hessian share their subexpressions' values on a box
        self.f = compile_shared(expr, self._shared)
        self._grad: dict[int, object] = {}
        self._hess: dict[tuple[int, int], object] = {}
        self.constraints = constraints  # list of compiled g (g >= 0 inside the domain)
        self._face_zero: dict = {}
        self.manifolds = list(manifolds)  # (i, j, compiled d_ii s)
        self.jump = expr.has(*self.JUMPS)  # then no derivative closer (see JUMPS)
        self._zero_cache: dict = {}
        self._point_f = None
        self.exact_checks = 0  # candidate touching points sent to sympy (bounded by MAX_TOUCH_POINTS)

    #: Functions with jumps: a derivative taken branch by branch says nothing across a jump (the mean-value form of
    #: Piecewise((-1, |x - 1/3| < 1e-30), (1, True)) closed [0, 1/3] with slope 0), so a slack that holds one keeps no
    #: derivative closer (as in the kernel, whose smooth list has none of them). Abs, Max and Min are continuous.
    JUMPS = (sp.Piecewise, sp.Heaviside, sp.sign, sp.floor, sp.ceiling, sp.frac)

    def grad(self, i):
        if i not in self._grad and self.jump:
            self._grad[i] = None
        if i not in self._grad:
            try:
                self._grad[i] = compile_shared(sp.diff(self.expr, self.syms[i]), self._shared)
            except Unsupported:
                self._grad[i] = None
        return self._grad[i]

    def hess(self, i, j):
        key = (min(i, j), max(i, j))
        if key not in self._hess and self.jump:
            self._hess[key] = None
        if key not in self._hess:
            try:
                self._hess[key] = compile_shared(sp.diff(self.expr, self.syms[key[0]], self.syms[key[1]]),
                                                 self._shared)
            except Unsupported:
                self._hess[key] = None
        return self._hess[key]

    def env(self, box) -> dict:
        return {n: Iv(arb(lo), arb(hi)) for n, (lo, hi) in zip(self.names, box)}

    def point_env(self, pt) -> dict:
        return {n: Iv.point(arb(v)) for n, v in zip(self.names, pt)}

    def ok(self, iv: Iv) -> bool:
        return iv.certainly_gt0() if self.strict else iv.certainly_ge0()

    def outside(self, env) -> bool:
        return any(g(env).certainly_lt0() for g in self.constraints)

    def inside(self, env) -> bool:
        return all(g(env).certainly_ge0() for g in self.constraints)

    FACE_TRIES = 64  # distinct faces tried by sympy per region (each costs a cancel)

    def face_zero(self, b) -> bool:
        """s is identically 0 on the face where the fixed coordinates of ``b`` hold (sympy, exact)."""
        fixed = tuple((i, lo) for i, (lo, hi) in enumerate(b) if lo == hi)
        if not fixed:
            return False
        key = tuple((i, (int(v.p), int(v.q))) for i, v in fixed)
        if key not in self._face_zero:
            if len(self._face_zero) >= self.FACE_TRIES:
                return False
            if self._nonzero_somewhere(b):
                self._face_zero[key] = False
                return False
            self._face_zero[key] = cancels_to_zero(
                self.expr.subs({self.syms[i]: sp.Rational(int(v.p), int(v.q)) for i, v in fixed}))
        return self._face_zero[key]

    def _nonzero_somewhere(self, b) -> bool:
        """Cheap screen: s is certainly nonzero at one of three points of the face (then not identically 0)."""
        for frac in (fmpq(1, 3), fmpq(1, 2), fmpq(5, 7)):
            pt = [lo + (hi - lo) * frac for lo, hi in b]
            iv = self.f(self.point_env(pt))
            if iv.certainly_gt0() or iv.certainly_lt0():
                return True
        return False

    def may_vanish_at(self, pt) -> bool:
        """The slack's ball at an exact point does not exclude 0 (a cheap filter before sympy)."""
        try:
            self._point_f = self._point_f or compile_expr(self.expr)
            val = self._point_f(self.point_env(pt))
        except Unsupported:
            return True
        return not (val.certainly_gt0() or val.certainly_lt0())

    def exact_zero(self, expr, pt) -> bool:
        exact = {s: sp.Rational(int(v.p), int(v.q)) for s, v in zip(self.syms, pt)}
        return exactly_zero(expr, self.point_env(pt), exact)


class BnB:
    def __init__(self, slack: Slack, *, deadline: float, max_boxes: int, min_width: Fraction = Fraction(1, 2**30),
                 touch_width: Fraction = Fraction(1, 4), scales=None):
        self.s = slack
        self.scales = scales  # optional per-coordinate weights for choosing the split (reparametrised variables)
        self.deadline = deadline
        self.max_boxes = max_boxes
        self.min_width = f2q(min_width)
        self.touch_width = f2q(touch_width)
        self.closers: dict[str, int] = {}
        self.boxes = 0
        self.failed: list = []
        self.touching: list[dict] = []

    def _close(self, name):
        self.closers[name] = self.closers.get(name, 0) + 1

    def run(self, box) -> bool:
        stack = [list(box)]
        while stack:
            b = stack.pop()
            self.boxes += 1
            if self.boxes > self.max_boxes or time.perf_counter() > self.deadline:
                raise Budget()
            res = self.process(b)
            if res is True:
                continue
            if res is False:
                self.failed.append(b)
                if len(self.failed) > 5:
                    return False
                continue
            stack.extend(res)
        return not self.failed

    # ------------------------------------------------------------------ one box
    def process(self, b):
        s = self.s
        env = s.env(b)
        if s.constraints and s.outside(env):
            self._close("outside_domain")
            return True
        enc = s.f(env)
        if s.ok(enc):
            self._close("interval")
            return True
        free = [i for i, (lo, hi) in enumerate(b) if lo != hi]
        if not free:
            return self._point_box(b)
        if not s.strict and s.face_zero(b):
            self._close("zero_face")
            return True
        c = [(lo + hi) / 2 for lo, hi in b]
        cenv = s.point_env(c)
        grads, fc = {}, None
        for i in free:
            g = s.grad(i)
            grads[i] = g(env) if g is not None else None
        if all(grads[i] is not None for i in free):
            fc = s.f(cenv)
            acc = fc
            for i in free:
                lo, hi = b[i]
                acc = add(acc, mul(grads[i], Iv(arb(lo - c[i]), arb(hi - c[i]))))
            if s.ok(acc):
                self._close("taylor1")
                return True
        if not s.strict:
            for man in (() if s.jump else s.manifolds):
                if _manifold_closes(man, b, env, free, s.names):
                    self._close("manifold")
                    return True
        inside = not s.constraints or s.inside(env)  # a face reduction needs the whole box in the domain
        for i in (free if inside else ()):
            g = grads.get(i)
            if g is None:
                continue
            if g.certainly_ge0() or g.certainly_le0():
                face = list(b)
                v = b[i][0] if g.certainly_ge0() else b[i][1]
                face[i] = (v, v)
                self._close("monotone_face")
                return [face]
        width = max(b[i][1] - b[i][0] for i in free)
        if width <= self.touch_width and not s.manifolds and self._touching(b, free):
            self._close("touching_point")
            return True
        if fc is None:  # the centre's enclosure, unless the mean-value form above computed it
            fc = s.f(cenv)
        if fc.certainly_lt0() and (not s.constraints or s.inside(cenv)):
            raise Refuted(dict(zip(s.names, c)))
        if width <= self.min_width:
            return False
        if self.scales is None:
            i = max(free, key=lambda k: b[k][1] - b[k][0])
        else:
            i = max(free, key=lambda k: (b[k][1] - b[k][0]) * self.scales[k])
        lo, hi = b[i]
        m = (lo + hi) / 2
        b1, b2 = list(b), list(b)
        b1[i] = (lo, m)
        b2[i] = (m, hi)
        return [b1, b2]

    def _point_box(self, b):
        s = self.s
        env = s.env(b)
        p = [lo for lo, _ in b]
        if s.f(env).certainly_lt0() and (not s.constraints or s.inside(env)):
            raise Refuted(dict(zip(s.names, p)))
        if s.exact_zero(s.expr, p):  # slack exactly 0 at an exact point (sympy)
            if s.strict:
                if not s.constraints or s.inside(env):
                    raise Refuted(dict(zip(s.names, p)))
                return False
            self._close("exact_point")
            return True
        return False

    def _touches_at(self, p, free) -> bool:
        s = self.s
        if not s.may_vanish_at(p):
            return False
        if s.exact_checks >= MAX_TOUCH_POINTS:
            return False
        s.exact_checks += 1
        return s.exact_zero(s.expr, p) and all(s.exact_zero(sp.diff(s.expr, s.syms[i]), p) for i in free)

    def _touching_1d(self, b, i, p, env) -> bool:
        m = _touching_1d_closes(self.s, b, i, p, env)
        if m is None:
            return False
        self.touching.append({self.s.names[k]: q_str(v) for k, v in enumerate(p)}
                             | {"box": box_str(b, self.s.names), "order": m})
        return True

    def _touching(self, b, free) -> bool:
        s = self.s
        if s.expr.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs, sp.Heaviside):
            return False  # Taylor's theorem needs a smooth slack on the box
        if any(lo > hi for lo, hi in b):
            return False  # an empty fibre of dependent bounds (lo(D) > hi(D) there): no point to touch
        p = [lo if lo == hi else f2q(simplest_between(q2f(lo), q2f(hi))) for lo, hi in b]
        key = tuple(p)
        if key not in s._zero_cache:
            s._zero_cache[key] = self._touches_at(p, free)
        if not s._zero_cache[key]:
            return False
        if s.strict:
            penv = s.point_env(p)
            if not s.constraints or s.inside(penv):
                raise Refuted(dict(zip(s.names, p)))
            return False
        env = s.env(b)
        if len(free) == 1 and self._touching_1d(b, free[0], p, env):
            return True
        h = {}
        for a in free:
            for c in free:
                if a <= c:
                    fn = s.hess(a, c)
                    if fn is None:
                        return False
                    h[(a, c)] = fn(env)
        for a in free:  # Gershgorin: h_aa - sum_c |h_ac| > 0
            acc = h[(a, a)]
            if not acc.bounded():
                return False
            low = acc.lo
            for c in free:
                if c != a:
                    x = h[(min(a, c), max(a, c))]
                    if not x.bounded():
                        return False
                    low = low - x.hi.max(-x.lo)
            if not bool(low > 0):
                return False
        self.touching.append({s.names[i]: q_str(v) for i, v in enumerate(p)} | {"box": box_str(b, s.names)})
        return True


MAX_TOUCH_ORDER = 8
#: Candidate touching points a search sends to sympy (those whose ball does not exclude 0): a unit of work, like the
#: box budget. A touching curve offers a new candidate in every box along it (b = a: 1,242 exact zeros, half of 10 s,
#: for one relation of 000).
MAX_TOUCH_POINTS = 64


def _touching_1d_closes(s: Slack, b, i, p, env) -> int | None:
    """Order m of a closed 1-D touching point: s^(j)(p) = 0 exactly for 1 <= j < m (sympy) and
    s^(m) >= 0 on the box, m even, so s(x) = s^(m)(xi) (x - p)^m / m! >= 0 (Lagrange remainder)."""
    x = s.syms[i]
    d = s.expr
    for m in range(1, MAX_TOUCH_ORDER + 1):
        d = sp.diff(d, x)
        if m % 2 == 0:
            try:
                if compile_expr(d)(env).certainly_ge0():
                    return m
            except Unsupported:
                return None
        if not s.exact_zero(d, p):
            return None
    return None


def _manifold_closes(man, b, env, free, names) -> bool:
    """``d_ii s >= 0`` where x_i runs over the hull of X_i and X_j (the other variables fixed).

    ``man`` is ``(i, j, dii)`` (box coordinates are the original variables) or
    ``(name_i, name_j, dii, maps)`` where ``maps[name](env)`` encloses the original variable
    ``name`` on a box of reparametrised coordinates (see ``reduce.reparametrise``).
    """
    if len(man) == 3:
        i, j, dii = man
        if i not in free and j not in free:
            return False
        hull = Iv(arb(min(b[i][0], b[j][0])), arb(max(b[i][1], b[j][1])))
        e2 = dict(env)
        e2[names[i]] = hull
        return dii(e2).certainly_ge0()
    ni, nj, dii, maps = man
    orig = {n: m(env) for n, m in maps.items()}
    xi, xj = orig[ni], orig[nj]
    if not (xi.bounded() and xj.bounded()):
        return False
    orig[ni] = Iv(xi.lo.min(xj.lo), xi.hi.max(xj.hi))
    return dii(orig).certainly_ge0()


def box_str(b, names) -> dict:
    return {n: [q_str(lo), q_str(hi)] for n, (lo, hi) in zip(names, b)}

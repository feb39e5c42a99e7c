"""Search for a kernel certificate (``kind: "inequality"``, docs/certificates.md) of a relation.

Untrusted: a depth-first bisection of the kernel's own root box that tries, on every box (with the
``Abs``/``Max``/``Min`` branches the box decides resolved, ``Inequality.on_box``), the kernel's closers
in the order ``interval``, ``mean_value``, ``monotone`` (the face closed recursively), ``zero``,
``touching`` (the simplest rational point of a small box; orders 3-8 in one coordinate when the
Hessian test fails), ``multiplier`` (on tails, :mod:`olr_verify.prover.tailcert`: on the first tail
box of a side and where cutting stops), and otherwise splits the widest coordinate (an unbounded
range ``[a, oo)`` at ``a + max(|a|, 8)``). At the root it first tries ``abs_cases`` (``|f| <= R``)
and a sigmoid-form rewrite. Where it stops, :func:`stuck_points` says where a counterexample may be. The work
budget is a number of boxes, so the same input gives the same certificate on any machine. The
result is only a candidate: :func:`olr_verify.kernel.check` decides.
"""
from __future__ import annotations

import time
from fractions import Fraction
from functools import lru_cache

import sympy as sp
from flint import ctx, fmpq

from olr_verify.expr import ExprError
from olr_verify.kernel import FORMAT, PRECISION_BITS, intervals, statement_sha256
from olr_verify.kernel.inequality import (MAX_PIECES, Inequality, Rejected, _q, env_of, exactly_zero, expanded_terms,
                                          read_expr, slack_of)
from olr_verify.kernel.intervals import Undefined, compile_expr, to_fmpq
from olr_verify.prover import tailcert

MIN_WIDTH = fmpq(1, 2**24)
TOUCH_WIDTH = fmpq(1, 8)
MAX_DEPTH = 120
MAX_TOUCH_TRIES = 16  # sympy exact checks per search
MAX_CUT = 2**12  # unbounded ranges are cut at 8, 16, ..., 4096 at most
MIN_MULTIPLIER_END = 8  # a multiplier leaf is tried on tails [a, oo) / (-oo, -a] with a >= 8
PIECE_BOXES = 40  # budget of the sub-search that closes one piece
MAX_BOUND = fmpq(10) ** 300  # piece bounds are written with at most ~300 digits (the reader takes 400)


@lru_cache(maxsize=4096)  # the same candidate is tried on several tail boxes; its text can be long
def _read_piece(form: sp.Expr, names: tuple) -> tuple[str, sp.Expr] | None:
    """A piece as the kernel will read it from the certificate: ``(text, expression)``, or None when the kernel's
    reader refuses it (e.g. a constant of more than 400 digits)."""
    text = str(form)
    try:
        return text, read_expr(text, list(names))
    except ExprError:
        return None


class _OutOfWork(Exception):
    pass


class SafetyNet(Exception):
    """The wall-clock safety net: the caller reports ``inconclusive``, never another status."""


def statement(relation: str, domain: dict[str, tuple[str, str]], claim: str | None = None) -> dict:
    """The certificate's statement part (no tree yet)."""
    cert = {"format": FORMAT, "claim": claim, "kind": "inequality", "relation": relation,
            "domain": [[n, str(lo), str(hi)] for n, (lo, hi) in domain.items()]}
    cert["statement_sha256"] = statement_sha256(cert)
    return cert


def certify(relation: str, domain: dict[str, tuple[str, str]], *, max_boxes: int = 20_000,
            claim: str | None = None, deadline: float | None = None,
            stuck: list | None = None, max_ops: int | None = None) -> tuple[dict | None, str]:
    """``(certificate, "")`` or ``(None, why not)`` within ``max_boxes`` boxes and ``max_ops`` interval
    operations (``olr_verify.kernel.intervals.OPS``: the work budget that does not depend on the machine,
    since the cost of a box grows with the expression); raises :class:`SafetyNet`
    past ``deadline`` (``time.perf_counter()`` value). When the search stops at a box it cannot close,
    candidate points of that box in the original variables (:func:`stuck_points`) are appended to
    ``stuck``: where to look for a counterexample."""
    cert = statement(relation, domain, claim)
    old = ctx.prec
    ctx.prec = PRECISION_BITS
    try:
        ops_limit = None if max_ops is None else intervals.OPS[0] + int(max_ops)
        search = _Search(_Memoised(cert), max_boxes, deadline, ops_limit)
        tree = (search.abs_cases_root() or search.rewritten_root()
                or search.factored_root(relation, share=4) or search.node(dict(search.ineq.root), face=False, depth=0)
                or search.factored_root(relation))
    except (ExprError, Rejected, Undefined, ValueError, TypeError) as exc:
        return None, f"no kernel certificate: {exc}"[:300]
    except _OutOfWork as exc:
        return None, str(exc)
    except RecursionError:
        return None, "no kernel certificate: tree too deep"
    finally:
        ctx.prec = old
    if tree is None:
        if stuck is not None and search.stuck_box is not None:
            stuck.extend(stuck_points(search.ineq, search.stuck_box))
        return None, f"no kernel certificate: a box could not be closed ({search.stuck})"
    cert["max_nodes"] = search.boxes
    cert["tree"] = tree
    return cert, ""


class _Memoised(Inequality):
    """The kernel's relation with each enclosure (of s and of its derivatives) evaluated once per box, and each
    piece (a sub-relation on the same coordinates) built once: the search asks the kernel's closers overlapping
    questions on a box (``slope`` alone encloses d^2 s four times) and meets the same piece on many boxes. An
    answer read back charges the interval operations it cost (``intervals.OPS``), so the work budget, and with it
    every search result, is exactly as without the memo."""

    def __init__(self, cert: dict):
        super().__init__(cert)
        self.f = _memo(self.f)
        self._pieces: dict = {}  # (expr, strict) -> piece; one dict shared by every piece and view (copies)

    def piece(self, expr: sp.Expr, strict: bool = False, view: bool = False) -> "Inequality":
        key = (expr, strict, view)
        if key not in self._pieces:
            sub = super().piece(expr, strict, view)
            sub.f = _memo(sub.f)
            self._pieces[key] = sub
        return self._pieces[key]

    def deriv(self, *idx):
        key = ("memo", idx)  # in the kernel's own cache of derivatives, which it empties whenever s changes
        if key not in self._derivs:
            self._derivs[key] = _memo(super().deriv(*idx))
        return self._derivs[key]


def _memo(fn):
    """``fn`` (env -> X) with its values kept by box; a value read back adds its cost to ``intervals.OPS``."""
    values: dict = {}

    def memoised(env):
        key = tuple((n, _end_key(x.lo), _end_key(x.hi)) for n, x in env.items())
        if key in values:
            value, cost = values[key]
            intervals.OPS[0] += cost
            return value
        before = intervals.OPS[0]
        value = fn(env)
        values[key] = value, intervals.OPS[0] - before
        return value

    return memoised


def _end_key(e):
    """An interval end (an arb, or +-oo as a float) as a hashable exact value."""
    if isinstance(e, float):
        return e
    return e.man_exp() if e.is_exact() else (e.mid().man_exp(), e.rad().man_exp())


class _Search:
    def __init__(self, ineq: Inequality, max_boxes: int, deadline: float | None, ops_limit: int | None = None):
        self.ineq = ineq
        self.ops_limit = ops_limit  # value of intervals.OPS past which this search and its sub-searches stop
        self.deadline = deadline
        self.max_boxes = max_boxes
        self.boxes = 0
        self.exact_cache: dict = {}
        self.tried_faces: dict = {}  # (slack, fixed coordinates) -> does ``zero`` close that face
        self.stuck = ""
        self.stuck_box: dict | None = None
        self.tried_tails: set = set()
        self.piece_budget = max_boxes // 2  # boxes spent on multiplier pieces (tried or used)
        self.minimum_points: list | None = None  # candidates (texts) of ``minimum`` leaves, found at the first try
        self.factored: sp.Expr | bool | None = None  # the factored root's form (False: none), found at the first try

    def node(self, box, face: bool, depth: int):
        self.boxes += 1
        if self.boxes > self.max_boxes:
            raise _OutOfWork(f"no kernel certificate within {self.max_boxes} boxes")
        if self.ops_limit is not None and intervals.OPS[0] > self.ops_limit:
            raise _OutOfWork("no kernel certificate within the budget of interval operations")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SafetyNet("wall-clock safety net reached in the certificate search")
        base = self.ineq
        try:
            self.ineq = base.on_box(box)  # the branches of Abs/Max/Min this box decides, resolved
        except (Undefined, ZeroDivisionError):
            pass
        try:
            leaf = self._leaf(box, face, depth)
        finally:
            self.ineq = base
        if leaf is not None:
            return leaf
        split = self._split(box, depth)
        if split is None:
            self.stuck = ", ".join(f"{n}: [{lo}, {hi}]" for n, (lo, hi) in box.items())
            self.stuck_box = dict(box)
            return None
        name, q = split
        lo, hi = box[name]
        lo_node = self.node({**box, name: (lo, q)}, face, depth + 1)
        if lo_node is None:
            return None
        hi_node = self.node({**box, name: (q, hi)}, face, depth + 1)
        if hi_node is None:
            return None
        return {"split": [name, str(Fraction(int(q.p), int(q.q)))], "lo": lo_node, "hi": hi_node}

    def abs_cases_root(self):
        """``s = rest + c Abs(u)`` with c < 0: an ``abs_cases`` root with one search per sign of u
        (half the budget each); None when s has no such term or a case fails."""
        terms = sp.Add.make_args(self.ineq.slack)
        for t in terms:
            absolutes = [a for a in t.atoms(sp.Abs)]
            if len(absolutes) != 1 or sum(1 for x in terms if x.has(absolutes[0])) != 1:
                continue
            c = t / absolutes[0]
            if not (c.is_Rational and c < 0):
                continue
            u, rest = absolutes[0].args[0], sp.Add(*[x for x in terms if x is not t])
            node = {"close": "abs_cases", "abs": str(u)}
            for key, branch in (("plus", u), ("minus", -u)):
                sub = _Search(self.ineq.piece(rest + c * branch, self.ineq.strict), self.max_boxes // 2, self.deadline,
                              self.ops_limit)
                try:
                    node[key] = sub.node(dict(self.ineq.root), face=False, depth=0)
                except (_OutOfWork, RecursionError):
                    node[key] = None
                self.boxes += sub.boxes
                if node[key] is None:
                    return None
            self.boxes += 1
            return node if self._closes("abs_cases", node, dict(self.ineq.root), False) else None
        return None

    def rewritten_root(self):
        """A root ``multiplier`` leaf with h = 0 and one piece, the slack in sigmoid form
        (``exp(E)/(1+exp(E))`` as ``1/(1+exp(-E))``, which encloses without dependency), searched with
        a quarter of the budget (boxes and interval operations); None when there is nothing to rewrite or the
        search fails."""
        try:
            form = tailcert.rewritten(self.ineq.slack)
        except (Undefined, Rejected, ExprError, ValueError, TypeError):
            return None
        return None if form is None else self._form_root(form, self.max_boxes // 4, 4)

    def factored_root(self, relation: str, share: int = 1):
        """With a reparametrised range: a root ``multiplier`` leaf (h = 0, one piece), the slack as sympy factors it
        in the printed variables, the kernel's coordinates substituted after (:func:`_signed_factor`), searched on
        1/``share`` of the budget left. A product whose factors enclose with a sign (r (1 - 2r)/(2D) for
        r/(2D) - r^2/D, r in [sqrt(40) e^(-9D/40), 1/5], to D = oo) closes where the sum of its terms does not (both
        terms tend to 0)."""
        if not self.ineq.maps or self.max_boxes <= self.boxes:
            return None
        if self.factored is None:
            self.factored = _factored_form(relation, self.ineq)
        if self.factored is False:
            return None
        return self._form_root(self.factored, (self.max_boxes - self.boxes) // share, share, plain=True)

    def _form_root(self, form: sp.Expr, boxes: int, share: int, plain: bool = False):
        """The root leaf ``s == form`` (a multiplier with h = 0 and one piece) with the piece's tree searched on
        ``boxes`` boxes and 1/``share`` of the interval operations left, or None. ``plain``: no multiplier or minimum
        leaves in that tree (their sympy steps, unbounded by the work budget, ran for minutes on a factored form)."""
        box = dict(self.ineq.root)
        ops = None if self.ops_limit is None else intervals.OPS[0] + (self.ops_limit - intervals.OPS[0]) // share
        try:
            sub = _Search(self.ineq.piece(read_expr(str(form), self.ineq.names), self.ineq.strict), boxes,
                          self.deadline, ops)
            if plain:
                sub.piece_budget, sub.minimum_points = 0, []
            tree = sub.node(box, face=False, depth=0)
        except (Undefined, Rejected, ExprError, ValueError, TypeError, _OutOfWork, RecursionError):
            return None
        finally:
            self.boxes += 1
        self.boxes += sub.boxes  # the root leaf and the piece's tree
        if tree is None:
            return None
        leaf = {"close": "multiplier", "log_multiplier": "0",
                "pieces": [{"expr": str(form), "bound": "0", "strict": self.ineq.strict, "tree": tree}]}
        return leaf if self._closes("multiplier", leaf, box, False) else None

    def _leaf(self, box, face, depth):
        empty = self._empty(box, depth)
        if empty is not None:
            return empty
        for closer in ("interval", "mean_value"):
            if self._closes(closer, {"close": closer}, box, face):
                return {"close": closer}
        return (self._monotone(box, face, depth) or self._zero(box) or self._touching(box, face)
                or self._minimum(box, depth) or self._positive(box) or self._multiplier(box, depth))

    def _empty(self, box, depth):
        """An ``empty`` leaf: a dependent range is empty on the whole box (never on a face, where the kernel
        refuses it: a coordinate fixed here but not in the root box marks one)."""
        root = self.ineq.root
        if any(lo == hi and root[n][0] != root[n][1] for n, (lo, hi) in box.items()):
            return None
        for name in self.ineq.gaps:
            leaf = {"close": "empty", "var": name}
            if self._closes("empty", leaf, box, False):
                return leaf
            try:
                on_edge = self.ineq.gaps[name](env_of(box)).ge0()
            except (Undefined, ZeroDivisionError):
                on_edge = False
            for end, at in (("hi", fmpq(1)), ("lo", fmpq(0))) if on_edge and self.ineq.top is not None else ():
                face = self._top_face({**box, name: (at, at)}, depth + 1)
                leaf = {"close": "empty", "var": name, "end": end, "face": face}
                if face is not None and self._closes("empty", leaf, box, False):
                    return leaf
        return None

    def _top_face(self, face, depth):
        """The tree of the statement's relation on ``face`` (the kernel closes an ``empty`` leaf's face with it,
        not with the view of the box: that view's branches were resolved on the box, not on the face)."""
        base, self.ineq = self.ineq, self.ineq.top
        try:
            return self.node(face, True, depth)
        finally:
            self.ineq = base

    def _minimum(self, box, depth):
        """A ``minimum`` leaf: s is convex in some coordinates x_T on the box and its gradient in x_T vanishes
        at x_T = p*(other coordinates) (:func:`minimum_points`: a diagonal x = y, or the solution of a linear
        gradient); s(p*) is exactly 0 or closed by a small sub-search. Only on small slacks (``MAX_MINIMUM_OPS``)."""
        if not self.ineq.smooth:
            return None
        if self.minimum_points is None:
            small = sp.count_ops(self.ineq.slack) <= MAX_MINIMUM_OPS
            self.minimum_points = [({n: str(p) for n, p in point.items()}, zero)
                                   for point, zero in (minimum_points(self.ineq.slack, tuple(self.ineq.syms))
                                                       if small else [])]
        for point, zero in self.minimum_points:
            leaf = {"close": "minimum", "point": dict(point)}
            if zero and not self.ineq.strict:
                if self._closes("minimum", leaf, box, False):
                    return leaf
                continue
            try:
                rest = self.ineq.minimum_rest(leaf["point"], box)
            except (Undefined, Rejected, ZeroDivisionError):
                rest = None
            if rest is None or self.piece_budget <= 0:
                continue
            tree = self._piece_tree(rest, self.ineq.strict, box, depth)
            if tree is not None and self._closes("minimum", {**leaf, "tree": tree}, box, False):
                return {**leaf, "tree": tree}
        return None

    def _positive(self, box):
        """A ``positive`` leaf on a tail box (the slack's form shows s > 0 where it tends to 0), after the
        softplus flips that make ``log(1 + e^x) - x`` read ``log(1 + e^-x)``."""
        tail = tailcert.tail_variable(box)
        if tail is None:
            return None
        for fl in dict.fromkeys([tailcert.tail_flips(self.ineq.slack, *tail), ()]):
            leaf = {"close": "positive", **({"flips": [str(w) for w in fl]} if fl else {})}
            if self._closes("positive", leaf, box, False):
                return leaf
        return None

    def _closes(self, closer, node, box, face) -> bool:
        if closer in ("mean_value", "touching") and not self.ineq.smooth:
            return False
        try:
            return bool(getattr(self.ineq, f"close_{closer}")(node, box))
        except (Undefined, Rejected, ZeroDivisionError):
            return False

    def _monotone(self, box, face, depth):
        if not self.ineq.smooth:
            return None
        for i, name in enumerate(self.ineq.names):
            lo, hi = box[name]
            if lo == hi:
                continue
            try:
                slope = self.ineq.slope(i, box)
            except (Undefined, ZeroDivisionError):
                continue
            end = lo if slope > 0 else hi if slope < 0 else None
            if end is None or isinstance(end, float):
                continue
            face_node = self.node({**box, name: (end, end)}, True, depth + 1)
            if face_node is not None:
                return {"close": "monotone", "var": name, "face": face_node}
        return None

    def _multiplier(self, box, depth):
        """A ``multiplier`` leaf on a tail box (``tailcert``): each piece bounded below by its enclosure
        or its value at the finite end, closed by a small sub-search; the bounds must add up."""
        tail = tailcert.tail_variable(box)
        if tail is None or self.piece_budget <= 0 or abs(_finite_end(box[tail[0]])) < MIN_MULTIPLIER_END:
            return None
        if tail in self.tried_tails and _tail_split(*box[tail[0]]) is not None:
            return None  # tried on the first tail box of this side and where cutting stops, not between
        self.tried_tails.add(tail)
        for cand in tailcert.candidates(self.ineq.slack, *tail):
            leaf = self._multiplier_leaf(cand, box, tail, depth)
            if leaf is not None and self._closes("multiplier", leaf, box, False):
                return leaf
        return None

    def _multiplier_leaf(self, cand, box, tail, depth):
        """The leaf of one candidate, or None. Nothing is searched for a candidate whose pieces' largest
        possible bounds do not add up (or that has more pieces than the kernel takes): it could not close."""
        strict_one = self.ineq.strict and len(cand.forms) == 1  # one fraction shown > 0 by its form
        if len(cand.forms) > MAX_PIECES:
            return None
        options = []
        for form in cand.forms:
            option = self._piece_bounds(form, box, tail, strict_one)
            if option is None:
                return None
            options.append(option)

        def adds_up(total):
            return total > 0 if self.ineq.strict and not strict_one else total >= 0

        best = [bounds[0] for _, _, bounds in options]
        if not adds_up(sum(best, fmpq(0))) or not cand.exact():
            return None
        pieces, total = [], fmpq(0)
        for k, option in enumerate(options):
            piece = self._piece(*option, box, depth, strict_one)
            if piece is None:
                return None
            pieces.append(piece)
            total += _q(piece["bound"])
            if not adds_up(total + sum(best[k + 1:], fmpq(0))):
                return None
        leaf = {"close": "multiplier", "log_multiplier": str(cand.h), "pieces": pieces}
        if cand.flips:
            leaf["flips"] = [str(w) for w in cand.flips]
        return leaf

    def _piece_bounds(self, form, box, tail, strict):
        """``(text, expr, bounds)``: the lower bounds worth trying for ``form`` on the box, largest first (the
        piece's value at the tail's finite end: a lower bound when the piece grows along the tail, where the
        box's enclosure is often only 0: ``e^x/(x + 1)`` on ``[8, oo)``; and its enclosure's lower end on the
        whole box), or None when there is none (``0`` alone for a ``strict`` piece)."""
        read = _read_piece(form, tuple(self.ineq.names))
        if read is None:
            return None
        text, expr = read
        name, side = tail
        end = box[name][0] if side > 0 else box[name][1]
        bounds = {fmpq(0)} if strict else set()
        for where in (() if strict else (box, {**box, name: (end, end)})):
            try:
                lo = compile_expr(expr)(env_of(where)).lo
            except (Undefined, ZeroDivisionError):
                return None
            if not isinstance(lo, float) and lo > -MAX_BOUND:
                bounds.add(min(tailcert.round_down(to_fmpq(lo)), MAX_BOUND))  # a weaker lower bound stays one
        return (text, expr, sorted(bounds, reverse=True)) if bounds else None

    def _piece(self, text, expr, bounds, box, depth, strict=False):
        """``{"expr", "bound", "tree"}`` with ``expr >= bound`` on the box for the first of ``bounds`` a small
        sub-search closes (``expr > 0``, marked ``strict``, when ``strict``), or None."""
        for bound in bounds:
            tree = self._piece_tree(expr - sp.Rational(int(bound.p), int(bound.q)), strict, box, depth)
            if tree is not None:
                return {"expr": text, "bound": str(Fraction(int(bound.p), int(bound.q))), "tree": tree,
                        **({"strict": True} if strict else {})}
        return None

    def _piece_tree(self, expr, strict, box, depth):
        """The tree of a small sub-search (at most ``PIECE_BOXES`` boxes, charged to ``piece_budget``) showing
        ``expr >= 0`` (``> 0`` when ``strict``) on the box, or None. No multiplier or minimum leaves inside."""
        sub = _Search(self.ineq.piece(expr, strict), min(PIECE_BOXES, self.piece_budget), self.deadline,
                      self.ops_limit)
        sub.piece_budget, sub.minimum_points = 0, []  # no nested pieces, no minimum leaves (sympy-heavy)
        try:
            tree = sub.node(dict(box), face=False, depth=depth)
        except (_OutOfWork, RecursionError):
            tree = None
        self.piece_budget -= sub.boxes
        self.boxes += sub.boxes
        return tree

    def _zero(self, box):
        fixed = tuple((n, lo) for n, (lo, hi) in box.items() if lo == hi)
        if self.ineq.strict or not fixed:
            return None
        key = (self.ineq.slack, fixed)  # the same face is met again from a neighbouring box: same answer
        if key not in self.tried_faces:
            if len(self.tried_faces) >= MAX_TOUCH_TRIES or not self._near_zero({}, box):
                return None
            self.tried_faces[key] = self._closes("zero", {"close": "zero"}, box, True)
        return {"close": "zero"} if self.tried_faces[key] else None

    def _touching(self, box, face):
        """Touching at the simplest rational point of the box, in all free coordinates, then in each one."""
        if self.ineq.strict or not self.ineq.smooth or any(isinstance(e, float) for e in _ends(box)):
            return None
        free = [n for n, (lo, hi) in box.items() if lo != hi and hi - lo <= TOUCH_WIDTH]
        for subset in ([free] if len(free) > 1 else []) + [[n] for n in free]:
            point = {n: _simplest(*box[n]) for n in subset}
            exact = {n: fmpq(p.numerator, p.denominator) for n, p in point.items()}
            fixed = tuple((n, lo) for n, (lo, hi) in box.items() if lo == hi)
            key = (tuple(sorted((n, str(p)) for n, p in point.items())), fixed)
            if key not in self.exact_cache:
                if len(self.exact_cache) >= MAX_TOUCH_TRIES or not self._near_zero(exact, box):
                    continue
                self.exact_cache[key] = self.ineq.touching_exact(exact, box)
            idx = [self.ineq.names.index(n) for n in subset]
            if self.exact_cache[key] and self._convex(idx, box):
                return {"close": "touching", "point": {n: str(p) for n, p in point.items()}}
            if self.exact_cache[key] and len(subset) == 1:
                leaf = self._higher_touching(exact, box, key)
                if leaf is not None:
                    return leaf
        return None

    def _higher_touching(self, exact, box, key):
        """A one-coordinate touching point of order 3 to 8 (the Hessian test failed)."""
        node = {"close": "touching", "point": {n: str(Fraction(int(p.p), int(p.q))) for n, p in exact.items()}}
        for order in range(3, 9):
            okey = key + (order,)
            if okey not in self.exact_cache:
                if len(self.exact_cache) >= 2 * MAX_TOUCH_TRIES:
                    return None
                self.exact_cache[okey] = self.ineq.touching_exact(exact, box, order)
            if not self.exact_cache[okey]:
                return None
            if self._closes("touching", {**node, "order": order}, box, False):
                return {**node, "order": order}
        return None

    def _convex(self, idx, box) -> bool:
        try:
            return self.ineq.touching_convex(idx, box)
        except (Undefined, ZeroDivisionError):
            return False

    def _near_zero(self, point, box) -> bool:
        """Cheap screen before sympy: s and d_i s (i in point) contain 0 at the point (box centre elsewhere)."""
        at = {n: point.get(n, _inner(lo, hi)) for n, (lo, hi) in box.items()}
        env = env_of({n: (v, v) for n, v in at.items()})
        try:
            values = [self.ineq.f(env)] + [self.ineq.deriv(self.ineq.names.index(n))(env) for n in point]
        except (Undefined, ZeroDivisionError):
            return False
        return all(not (v.gt0() or v.lt0()) for v in values)

    def _split(self, box, depth):
        if depth >= MAX_DEPTH:
            return None
        best, best_width = None, None
        for name, (lo, hi) in box.items():
            if lo == hi:
                continue
            if isinstance(lo, float) or isinstance(hi, float):
                q = _tail_split(lo, hi)
                return None if q is None else (name, q)
            if best_width is None or hi - lo > best_width:
                best, best_width = name, hi - lo
        if best is None or best_width < MIN_WIDTH:
            return None
        lo, hi = box[best]
        return best, _simplest_mid(lo, hi)


FAR = (1, 2, 3, 4, 6, 8, 10, 12, 15, 20, 25, 30, 40)  # a stuck tail is probed at its end + 10**k
MAX_STUCK_POINTS = 200


def _factored_form(relation: str, ineq: Inequality) -> sp.Expr | bool:
    """The printed slack as sympy factors it (at most ``MAX_FACTOR_OPS`` operations: sympy's factor has no budget),
    with the kernel's coordinates substituted in each factor (:func:`_signed_factor`); False when it is not a product
    of two or more non-constant factors."""
    try:
        printed, _ = slack_of(relation, ineq.names)
        if sp.count_ops(printed) > MAX_FACTOR_OPS:
            return False
        factored = sp.factor(printed)
        if not isinstance(factored, sp.Mul) or sum(1 for f in factored.args if f.free_symbols) < 2:
            return False
        env = env_of(ineq.root)
        return sp.Mul(*[_signed_factor(f.subs(ineq.maps, simultaneous=True), ineq.syms, env) for f in factored.args])
    except (ExprError, ValueError, TypeError, sp.PolynomialError):
        return False


def _signed_factor(factor: sp.Expr, syms, env: dict) -> sp.Expr:
    """``factor`` (in the kernel's coordinates), or its expansion collected in the coordinates when that one encloses
    with a sign on the root box and ``factor`` does not: 2D - 10 - (D - 10) u (z = 10 + (D - 10) u in [10, D]) is
    [-oo, oo] as written, D (2 - u) + 10 u - 10 is >= 0."""
    def signed(e):
        try:
            x = compile_expr(e)(env)
        except (Undefined, ZeroDivisionError):
            return False
        return x.ge0() or x.le0()

    if signed(factor) or expanded_terms(factor) > MAX_COLLECT_TERMS:
        return factor
    collected = sp.collect(sp.expand(factor), list(syms))
    return collected if signed(collected) else factor


MAX_COLLECT_TERMS = 200  # a factor expanded to collect it in the coordinates
MAX_FACTOR_OPS = 200  # a printed slack sympy factors (as the kernel's MAX_EXACT_OPS for simplify)


MAX_MINIMUM_POINTS = 12
MAX_MINIMUM_OPS = 30  # minimum leaves close textbook forms (at most 11 operations in both corpora, none in the registry);
# sympy's solve and simplify, which no work budget bounds, spent up to 14 s on a larger slack with no leaf to show


@lru_cache(maxsize=64)
def minimum_points(slack: sp.Expr, syms: tuple) -> list[tuple[dict, bool]]:
    """Candidate ``minimum`` points ``(p*, s(p*) == 0)``: coordinates x_T where the gradient of s in x_T
    vanishes identically (sympy), p* a diagonal (x_T all equal to one other coordinate) or a solution of the
    gradient (:func:`_stationary`). Checked once per search; the kernel re-checks everything on every box."""
    out = []
    subsets = [[x] for x in syms] + [[x, y] for i, x in enumerate(syms) for y in syms[i + 1:]]
    for T in subsets:
        others = [v for v in syms if v not in T]
        grads = [sp.diff(slack, x) for x in T]
        guesses = [{x: o for x in T} for o in others] + _stationary(grads, T)
        for p in guesses:
            try:
                at = [g.subs(p, simultaneous=True) for g in grads]
                if all(_reduces_to_zero(a, others) for a in at):
                    out.append(({x.name: v for x, v in p.items()}, _reduces_to_zero(slack.subs(p, simultaneous=True), others)))
            except (TypeError, ValueError, NotImplementedError):
                continue
            if len(out) >= MAX_MINIMUM_POINTS:
                return out
    return out


def _stationary(grads: list, T: list) -> list[dict]:
    """Solutions x_T of ``grads == 0`` free of x_T, for the forms sympy solves at once: gradients linear in
    x_T, one rational gradient of low degree, or one gradient linear in ``log(x)`` (``log(y) - x``: y = e^x)."""
    t = sp.Dummy("t")
    try:
        if all(g.is_polynomial(*T) and sp.Poly(g, *T).total_degree() == 1 for g in grads):
            sols = sp.solve(grads, T, dict=True)
        elif len(T) == 1 and grads[0].is_rational_function(T[0]) \
                and sp.Poly(sp.numer(sp.together(grads[0])), T[0]).degree() <= 2:
            sols = sp.solve(grads, T, dict=True)
        elif len(T) == 1 and grads[0].has(sp.log(T[0])):
            g = grads[0].subs(sp.log(T[0]), t)
            if g.has(T[0]) or not (g.is_polynomial(t) and sp.Poly(g, t).degree() == 1):
                return []
            sols = [{T[0]: sp.exp(r)} for r in sp.solve(g, t)]
        else:
            return []
    except (sp.PolynomialError, NotImplementedError, ValueError, TypeError):
        return []
    return [p for p in sols if set(p) == set(T) and not any(v.has(*T) for v in p.values())
            and all(v.is_real is not False for v in p.values())]


MAX_SIMPLIFY_OPS = 200  # sympy's simplify is tried on forms of at most this many operations (its time is unbounded)


def _reduces_to_zero(e: sp.Expr, syms: list) -> bool:
    """``e`` is 0 by sympy's simplify, tried only when it vanishes numerically and is small: a missed 0 only
    costs a sub-search, and simplify on a large form can run for minutes (no budget bounds it)."""
    if not _vanishes_numerically(e, syms):
        return False
    return sp.count_ops(e) <= MAX_SIMPLIFY_OPS and exactly_zero(e)


def _vanishes_numerically(e: sp.Expr, syms: list) -> bool:
    """``e`` is within 1e-9 of 0 at two fixed points where it is real (a screen: True when it cannot tell)."""
    for k in (1, 2):
        try:
            v = complex(e.subs({x: sp.Rational(37 + 11 * k * (i + 1), 100) for i, x in enumerate(syms)}).evalf(30))
        except (TypeError, ValueError, ZeroDivisionError):
            return True
        if v.imag == 0 and abs(v) > 1e-9 and abs(v) != float("inf"):
            return False
    return True


def stuck_points(ineq: Inequality, box: dict) -> list[dict[str, Fraction]]:
    """Points of a box the search could not close (ends, centre; a tail at ``end +- 10**k``), mapped
    back through the kernel's reparametrisation to the original variables (rounded to 60 digits when
    a bound is irrational: the caller re-checks that the point lies in the domain)."""
    axes = []
    for lo, hi in box.values():
        if isinstance(lo, float) and isinstance(hi, float):
            axes.append([Fraction(sign * 10**k) for k in FAR for sign in (1, -1)])
        elif isinstance(lo, float) or isinstance(hi, float):
            end, sign = (_frac(hi), -1) if isinstance(lo, float) else (_frac(lo), 1)
            axes.append([end] + [end + sign * 10**k for k in FAR])
        else:
            axes.append(list(dict.fromkeys([_frac(lo), (_frac(lo) + _frac(hi)) / 2, _frac(hi)])))
    maps = {n: read_expr(e, ineq.names) for n, e in ineq.reparametrised.items()}
    out = []
    for coords in _product(axes):
        coord = {sp.Symbol(n): sp.Rational(c.numerator, c.denominator) for n, c in zip(ineq.names, coords)}
        point = {}
        for n in ineq.names:
            value = maps[n].subs(coord) if n in maps else coord[sp.Symbol(n)]
            point[n] = _fraction(value)
        if None not in point.values():
            out.append(point)
    return out


def _fraction(value: sp.Expr) -> Fraction | None:
    """``value`` as a Fraction (60 digits when irrational); None when its decimal exponent is beyond
    +-400 (e.g. exp(-9 D/40) at D = 10^40): such a point cannot be written, let alone checked."""
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q)) if max(abs(int(value.p)), int(value.q)) < 10**400 else None
    if value.is_finite is False:
        return None
    text = str(sp.N(value, 60))
    exponent = text.lower().partition("e")[2]
    if exponent and abs(int(exponent)) > 400:
        return None
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def _product(axes):
    """The product of the axes, capped at MAX_STUCK_POINTS points, far values first."""
    points = [[]]
    for axis in axes:
        points = [p + [v] for v in reversed(axis) for p in points][:MAX_STUCK_POINTS]
    return points


def _frac(q: fmpq) -> Fraction:
    return Fraction(int(q.p), int(q.q))


def _finite_end(ends) -> fmpq:
    lo, hi = ends
    return hi if isinstance(lo, float) else lo


def _inner(lo, hi) -> fmpq:
    """A point of the range: its centre, or one unit inside a finite end of an unbounded range."""
    if isinstance(lo, float) and isinstance(hi, float):
        return fmpq(0)
    if isinstance(hi, float):
        return lo + 1
    if isinstance(lo, float):
        return hi - 1
    return (lo + hi) / 2


def _tail_split(lo, hi) -> fmpq | None:
    """Where an unbounded range is cut: 0, or ``a + max(|a|, 8)`` (None beyond ``|a| > MAX_CUT``)."""
    if isinstance(lo, float) and isinstance(hi, float):
        return fmpq(0)
    if abs(hi if isinstance(lo, float) else lo) > MAX_CUT:
        return None
    if isinstance(hi, float):
        return lo + max(abs(lo), fmpq(8))
    return hi - max(abs(hi), fmpq(8))


def _simplest_mid(lo: fmpq, hi: fmpq) -> fmpq:
    """A short rational in the middle half of [lo, hi] (readable split points)."""
    w = (hi - lo) / 4
    f = _simplest(lo + w, hi - w)
    return fmpq(f.numerator, f.denominator)


def _simplest(lo: fmpq, hi: fmpq) -> Fraction:
    from olr_verify.prover.parse import simplest_between

    return simplest_between(Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q)))


def _ends(box):
    return [e for ends in box.values() for e in ends]

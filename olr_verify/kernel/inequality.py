"""Re-check an ``inequality`` certificate: root box, bisection tree, closers (docs/certificates.md)."""
from __future__ import annotations

import copy
import functools
import hashlib
from math import comb

import sympy as sp
from flint import arb, fmpq
from sympy.codegen.cfunctions import expm1, log1p

from olr_verify.kernel.intervals import INF, NINF, X, Undefined, add, compare, compile_expr, lower, mul, neg, to_fmpq, upper
from olr_verify.expr import PLAIN_FUNCTIONS, ExprError, check_variable_names, exact_rational, parse_expr, parse_relation

SMOOTH = (sp.exp, sp.log, sp.tanh, sp.sinh, sp.cosh, sp.atan, sp.asinh, sp.erf, log1p, expm1)
MAX_NODES = 2_000_000
TOUCHING_ORDERS = (2, 3, 4, 5, 6, 7, 8)  # orders of a one-coordinate touching point (odd: at an end)
MAX_PIECES = 64  # pieces of one multiplier closer
MAX_ORDER = 2  # derivatives used to establish a monotone closer's slope
MAX_TERMS = 20_000  # monomials an exact check may expand to (a hostile (a+...+h)**64 would have 10^9)
MAX_HESSIAN = 4  # coordinates of a touching/minimum Hessian (its leading minors cost n! by cofactors)
MAX_EXACT_OPS = 200  # size (sympy count_ops) of a form sympy may simplify (its time is unbounded: 23 s at 198 ops)
MAX_DENOMINATORS = 8  # distinct denominators cancel(together(.)) may combine (2.4x the time for every 2 more)
MAX_DERIV_OPS = 4000  # size of a derivative of order 3 or more


class Rejected(Exception):
    """The certificate does not establish its statement (the message says where)."""


def read_expr(text: str, names) -> sp.Expr:
    """``text`` read by the safe reader (olr_verify.expr) with plain symbols ``names`` (or the given
    name -> symbol mapping) only and the functions sympy defines (not the prover's own
    Sigmoid/Softplus/Exprel: the kernel runs no search code)."""
    symbols = names if isinstance(names, dict) else {n: sp.Symbol(n) for n in names}
    return parse_expr(str(text), symbols, functions=PLAIN_FUNCTIONS)


def check_names(names) -> None:
    """A variable named after a constant (E, pi, oo) would make the printed statement read as another one."""
    try:
        check_variable_names([str(n) for n in names])
    except ValueError as exc:
        raise Rejected(str(exc)) from None


def slack_of(relation: str, names) -> tuple[sp.Expr, bool]:
    """(s, strict): the relation holds iff s >= 0 (s > 0 when strict)."""
    rel = parse_relation(str(relation), {n: sp.Symbol(n) for n in names}, functions=PLAIN_FUNCTIONS)
    less = isinstance(rel, (sp.LessThan, sp.StrictLessThan))
    return (rel.rhs - rel.lhs if less else rel.lhs - rel.rhs), isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))


def is_smooth(expr: sp.Expr) -> bool:
    """Built only from + * /, powers, numbers, symbols and the SMOOTH functions. A power b**e with e not constant
    encloses as exp(e log b) (``intervals.compile_expr``), defined only where b > 0, where it is smooth."""
    for node in sp.preorder_traversal(expr):
        if node.is_Atom or node.is_Add or node.is_Mul or node.is_Pow or node.func in SMOOTH:
            continue
        return False
    return True


def _q(text: str) -> fmpq:
    """An exact rational written as a string (a JSON number could have been rounded on the way)."""
    if not isinstance(text, str):
        raise Rejected(f"exact numbers are written as strings, got {type(text).__name__} {text!r}"[:200])
    r = exact_rational(text)
    return fmpq(r.numerator, r.denominator)


class Inequality:
    def __init__(self, cert: dict):
        domain = cert["domain"]
        if not isinstance(domain, list) or not domain:
            raise Rejected("domain must be a non-empty list of [name, lo, hi]")
        self.names = [str(d[0]) for d in domain]
        if len(set(self.names)) != len(self.names):
            raise Rejected("a variable is listed twice in the domain")
        check_names(self.names)
        self.slack, self.strict = slack_of(cert["relation"], self.names)
        self.syms = [sp.Symbol(n) for n in self.names]
        self.gaps: dict[str, object] = {}  # name -> enclosure of lo - hi, for a range with a dependent end
        self.root = self._root_box(domain)
        self.f = compile_expr(self.slack)
        self.budget = min(int(cert.get("max_nodes", MAX_NODES)), MAX_NODES)
        self.count = [0]  # nodes checked, shared with the pieces of multiplier closers
        self.faces = [0]  # monotone faces being closed (shared likewise): no empty closer inside one
        self.smooth = is_smooth(self.slack)
        self._derivs: dict = {}
        self._views: dict = {}  # on_box: slack with the box's Abs/Max/Min branches resolved -> view
        self.top: Inequality | None = self  # the statement's relation (of a view: its own); None for a piece

    # ---------------------------------------------------------------- domain
    def _root_box(self, domain) -> dict:
        """The root box; a variable with a non-constant bound is reparametrised (its name kept):
        ``x = lo + (hi - lo) u`` with u in [0, 1], ``x = lo + u`` or ``x = hi - u`` with u in
        [0, oo): the image of the new box is exactly the stated range, whatever the earlier values."""
        box: dict[str, tuple] = {}
        maps: dict[sp.Symbol, sp.Expr] = {}
        for k, entry in enumerate(domain):
            if not isinstance(entry, (list, tuple)) or len(entry) != 3:  # a 3-letter string "x01" is not one
                raise Rejected(f"domain entry {entry!r} is not [name, lo, hi]")
            if not all(isinstance(e, str) for e in entry):
                raise Rejected(f"domain entry {entry!r} must hold three strings (name, lo, hi)"[:200])
            name, lo, hi = entry
            if lo == "oo" or hi == "-oo":
                raise Rejected(f"empty range for {name}: [{lo}, {hi}]")
            lo_e = None if lo == "-oo" else read_expr(lo, self.names[:k]).subs(maps, simultaneous=True)
            hi_e = None if hi == "oo" else read_expr(hi, self.names[:k]).subs(maps, simultaneous=True)
            u = self.syms[k]
            if all(e is None or not e.free_symbols for e in (lo_e, hi_e)):
                box[name] = (NINF if lo_e is None else _const(lo_e, lower=True),
                             INF if hi_e is None else _const(hi_e, lower=False))
                if compare(*box[name]) > 0:
                    raise Rejected(f"empty range for {name}: [{lo}, {hi}]")
                continue
            if lo_e is not None and hi_e is not None:
                maps[u], box[name] = lo_e + (hi_e - lo_e) * u, (fmpq(0), fmpq(1))
                self.gaps[name] = compile_expr(lo_e - hi_e)
            else:
                maps[u], box[name] = (lo_e + u if lo_e is not None else hi_e - u), (fmpq(0), INF)
        self.slack = self.slack.subs(maps, simultaneous=True)
        self.maps = maps  # the kernel's identity check evaluates other expressions on the same box
        self.reparametrised = {str(k): sp.sstr(v) for k, v in maps.items()}
        return box

    # ---------------------------------------------------------------- tree
    def piece(self, expr: sp.Expr, strict: bool = False, view: bool = False) -> "Inequality":
        """The relation ``expr >= 0`` (``> 0`` if strict) on the same coordinates, sharing the node budget; a
        ``view`` (:meth:`on_box`) is the statement's relation itself, a piece of a closer is not (``top`` None)."""
        sub = copy.copy(self)
        sub.slack, sub.strict, sub.f = expr, strict, compile_expr(expr)
        sub.smooth, sub._derivs, sub._views = is_smooth(expr), {}, {}
        sub.top = self.top if view else None
        return sub

    def on_box(self, box) -> "Inequality":
        """The relation on this box: each ``Abs``/``Max``/``Min`` whose branch the box decides (by an
        enclosure of its argument, or of the difference of its two arguments) replaced by that branch.
        Equal to ``s`` on the box, and often smooth there, so derivative closers apply on each side of a
        kink once the tree splits at the kink exactly."""
        if self.smooth:
            return self
        expr = resolve_branches(self.slack, env_of(box))
        if expr == self.slack:
            return self
        if expr not in self._views:
            self._views[expr] = self.piece(expr, self.strict, view=True)
        return self._views[expr]

    def node(self, node, box) -> None:
        self.count[0] += 1
        if self.count[0] > self.budget:
            raise Rejected(f"more than {self.budget} nodes")
        if not isinstance(node, dict):
            raise Rejected("a tree node must be an object")
        if "split" in node:
            name, q_text = node["split"]
            if name not in box:
                raise Rejected(f"split on unknown variable {name!r}")
            q = _q(q_text)
            lo, hi = box[name]
            if not (compare(q, lo) > 0 and compare(hi, q) > 0):
                raise Rejected(f"split point {q} of {name} is not strictly inside [{lo}, {hi}]")
            self.node(node["lo"], {**box, name: (lo, q)})
            self.node(node["hi"], {**box, name: (q, hi)})
            return
        closer = node.get("close")
        method = getattr(self.on_box(box), f"close_{closer}", None)
        if method is None:
            raise Rejected(f"unknown closer {closer!r}")
        try:
            ok = method(node, box)
        except Undefined as exc:
            raise Rejected(f"{closer} at {_box_str(box)}: {exc}") from None
        if not ok:
            raise Rejected(f"{closer} does not close {_box_str(box)}")

    def good(self, x: X) -> bool:
        return x.gt0() if self.strict else x.ge0()

    def deriv(self, *idx) -> object:
        """The compiled enclosure of the derivative of s in the coordinates ``idx`` (sorted, repeats = order)."""
        if idx not in self._derivs:
            self._derivs[idx] = compile_expr(self.diff(idx))
        return self._derivs[idx]

    def diff(self, idx: tuple) -> sp.Expr:
        """d s / d x_idx by sympy; beyond order 2 each order, lowest first, must stay within
        ``MAX_DERIV_OPS`` operations (nested functions blow up: atan(tanh(...)) 8 deep has a 7th derivative that
        sympy alone takes minutes to write)."""
        key = ("expr", idx)
        if key not in self._derivs:
            if len(idx) > 2:
                self.diff(idx[:-1])  # the lower orders first: each is checked before the next is written
            d = sp.diff(self.slack, *[self.syms[i] for i in idx])  # sympy's form (its enclosure is the one used)
            if len(idx) > 2 and sp.count_ops(d) > MAX_DERIV_OPS:
                raise Rejected(f"a derivative of order {len(idx)} of more than {MAX_DERIV_OPS} operations")
            self._derivs[key] = d
        return self._derivs[key]

    # ---------------------------------------------------------------- closers
    def close_interval(self, node, box) -> bool:
        return self.good(self.f(env_of(box)))

    def close_empty(self, node, box) -> bool:
        """The range of ``var`` (two ends, one of them an expression of earlier names) on the box. Where the
        enclosure of lo - hi is > 0 the range is empty at every point: the box holds no point of the domain. Where it
        is only >= 0, the domain's points of the box have lo = hi, so s takes the same value at either end of var's
        coordinate: ``face`` closes the statement's relation (``top``) on the box with that coordinate at ``end``
        (``"lo"``: 0, ``"hi"``: 1). Only the statement's s depends on that coordinate through var alone: a piece of
        a multiplier, abs_cases or minimum closer is any expression of the coordinates, and may not use a face."""
        name = node.get("var")
        gap = self.gaps.get(name)
        if gap is None:
            raise Rejected("empty needs a variable whose range has two ends, one of them dependent")
        if self.faces[0]:  # a face is not a box of the domain: s there bounds s inside, empty or not
            raise Rejected("empty cannot close a box inside a face")
        g = gap(env_of(box))
        if g.gt0():
            return True
        end = {"lo": fmpq(0), "hi": fmpq(1)}.get(node.get("end"))
        if end is None or "face" not in node or not g.ge0():
            return False
        if self.top is None:
            raise Rejected("empty with a face closes the statement's relation, not a piece of another closer")
        self.top.close_face(node["face"], {**box, name: (end, end)})
        return True

    def close_face(self, node, face) -> None:
        self.faces[0] += 1
        try:
            self.node(node, face)
        finally:
            self.faces[0] -= 1

    def close_mean_value(self, node, box) -> bool:
        if not self.smooth:
            raise Rejected("mean_value needs a slack built from the smooth-function list")
        if any(isinstance(e, float) for ends in box.values() for e in ends):
            raise Rejected("mean_value needs a bounded box")
        env = env_of(box)
        self.f(env)  # s is real on the whole box (else Undefined: no closure)
        centre = {n: (lo + hi) / 2 for n, (lo, hi) in box.items()}
        acc = self.f(env_of({n: (c, c) for n, c in centre.items()}))
        for i, n in enumerate(self.names):
            lo, hi = box[n]
            if lo != hi:
                offset = X(X.ball(arb(lo - centre[n])).lo, X.ball(arb(hi - centre[n])).hi)
                acc = add(acc, mul(self.deriv(i)(env), offset))
        return self.good(acc)

    def close_monotone(self, node, box) -> bool:
        """s is monotone in ``var`` on the box; ``face`` closes the box with ``var`` at the end where s is
        smallest (that end must be finite)."""
        name = node.get("var")
        if name not in box or not self.smooth:
            raise Rejected("monotone needs a known variable and a smooth slack")
        slope = self.slope(self.names.index(name), box)
        end = box[name][0] if slope > 0 else box[name][1] if slope < 0 else None
        if end is None or isinstance(end, float):
            return False
        self.close_face(node.get("face"), {**box, name: (end, end)})
        return True

    def slope(self, i: int, box) -> int:
        """+1 if d s/d x_i >= 0 on the box, -1 if <= 0, else 0."""
        return next((w for w in (1, -1) if self.has_sign(i, 1, box, w)), 0)

    def has_sign(self, i: int, k: int, box, want: int) -> bool:
        """d^k s/d x_i^k has the sign ``want`` on the box: by its enclosure, or (k < MAX_ORDER) because
        d^(k+1) has a sign (so d^k is monotone in x_i) and d^k has the sign ``want`` on the face x_i = e
        where d^k is extreme (e finite)."""
        d = self.deriv(*[i] * k)(env_of(box))
        if d.ge0() if want > 0 else d.le0():
            return True
        name = self.names[i]
        if k >= MAX_ORDER or box[name][0] == box[name][1]:
            return False
        for slope in (1, -1):
            end = box[name][0] if slope == want else box[name][1]
            if not isinstance(end, float) and self.has_sign(i, k + 1, box, slope) \
                    and self.has_sign(i, k, {**box, name: (end, end)}, want):
                return True
        return False

    def close_multiplier(self, node, box) -> bool:
        """``s * exp(h) == p_1 + ... + p_k`` exactly (sympy, after the ``flips``), with ``h`` (``log_multiplier``) and ``s``
        real at every point of the box (their enclosures exist), each ``p_j >= c_j`` on the box by its
        own tree (``p_j > c_j`` for a piece marked ``strict``) and ``sum c_j >= 0`` (``> 0`` when the
        relation is strict and no piece is). As ``exp(h) > 0`` at every point, s has the
        sign of the sum there: unbounded tails where growing terms compete (h = -(the dominant exponent))."""
        pieces = node.get("pieces")
        if not isinstance(pieces, list) or not pieces or len(pieces) > MAX_PIECES:
            raise Rejected(f"multiplier needs 1 to {MAX_PIECES} pieces")
        h = read_expr(node.get("log_multiplier", "0"), self.names)
        env = env_of(box)
        compile_expr(h)(env)  # raises Undefined where exp(h) has no real value: then no closure
        self.f(env)
        exprs = [read_expr(item["expr"], self.names) for item in pieces]
        bounds = [_q(item["bound"]) for item in pieces]
        total, strict_piece = sum(bounds, fmpq(0)), any(item.get("strict") is True for item in pieces)
        if not (total > 0 if self.strict and not strict_piece else total >= 0):
            return False
        slack = self.flipped(node, env)
        if expanded_terms(slack * sp.exp(h)) + sum(expanded_terms(p) for p in exprs) > MAX_TERMS:
            raise Rejected(f"multiplier: s * exp(h) - (pieces) would expand to more than {MAX_TERMS} terms")
        if not identically_zero(slack * sp.exp(h) - sp.Add(*exprs)):
            raise Rejected("multiplier: s * exp(h) is not the sum of the pieces (no exact transformation shows it)")
        for item, p, c in zip(pieces, exprs, bounds):
            self.piece(p - _rational(c), item.get("strict") is True).node(item.get("tree"), box)
        return True

    def flipped(self, node, env) -> sp.Expr:
        """s after the softplus ``flips`` of ``node`` (:func:`softplus_flipped`), each ``w`` shown real on the box
        (its enclosure exists; else Undefined: no closure)."""
        flips = [read_expr(w, self.names) for w in node.get("flips", [])]
        for w in flips:
            compile_expr(w)(env)
        return softplus_flipped(self.slack, flips)

    def close_positive(self, node, box) -> bool:
        """s > 0 at every point of the box by its form (:func:`positive`), after the softplus ``flips`` (as in
        ``multiplier``): tails where s tends to 0 (``log(1 + e^-x) > 0``), where enclosures only give s >= 0."""
        env = env_of(box)
        self.f(env)  # raises Undefined where s has no real value: then no closure
        return positive(self.flipped(node, env), env)

    def close_abs_cases(self, node, box) -> bool:
        """``s = rest + c Abs(u)`` (one term of s, c a negative rational, ``rest`` free of ``Abs(u)``) is
        ``min(rest + c u, rest - c u)``: ``plus`` closes ``rest + c u``, ``minus`` closes ``rest - c u``."""
        u = read_expr(node["abs"], self.names)
        terms = sp.Add.make_args(self.slack)
        hits = [t for t in terms if t.has(sp.Abs(u))]
        if len(hits) != 1:
            raise Rejected("abs_cases: Abs(u) must occur in exactly one term of s")
        c = hits[0] / sp.Abs(u)
        if not (c.is_Rational and c < 0):
            raise Rejected("abs_cases: the term must be a negative rational times Abs(u)")
        rest = sp.Add(*[t for t in terms if t is not hits[0]])
        for key, branch in (("plus", u), ("minus", -u)):
            self.piece(rest + c * branch, self.strict).node(node.get(key), box)
        return True

    def close_zero(self, node, box) -> bool:
        """Non-strict: with the fixed coordinates substituted, sympy reduces s to exactly 0."""
        if self.strict:
            raise Rejected("zero needs a non-strict relation")
        self.f(env_of(box))  # s is real on the box (else Undefined: no closure)
        return exactly_zero(self.slack.subs(_fixed(box)))

    def close_touching(self, node, box) -> bool:
        """Non-strict: at ``x_T = p`` (T = the coordinates of ``point``) sympy reduces s and every
        d_i s (i in T) to exactly 0 as functions of the other coordinates, and the interval Hessian
        in x_T is positive definite on the box: Taylor in x_T then gives s >= 0 on the box."""
        if self.strict or not self.smooth:
            raise Rejected("touching needs a non-strict relation and a smooth slack")
        self.f(env_of(box))  # s is real on the box (else Undefined: no closure)
        point = {n: _q(v) for n, v in node["point"].items()}
        if not point or any(n not in box for n in point):
            raise Rejected("touching point must name variables of the domain")
        for n, p in point.items():
            if compare(box[n][0], p) > 0 or compare(p, box[n][1]) > 0:
                raise Rejected(f"touching point {n} = {p} is outside the box")
        idx = [self.names.index(n) for n in point if box[n][0] != box[n][1]]
        order = node.get("order", 2)
        if order not in TOUCHING_ORDERS or (order > 2 and len(idx) != 1):
            raise Rejected(f"touching order must be one of {TOUCHING_ORDERS} (above 2: one coordinate)")
        if order > 2:  # the interval conditions first: they are cheap, sympy's exact ones are not
            return self.remainder_sign(idx[0], point, box, order) and self.touching_exact(point, box, order)
        return self.touching_convex(idx, box) and self.touching_exact(point, box)

    def close_minimum(self, node, box) -> bool:
        """``s(x) >= s(p*) >= 0`` on the box (``> 0`` when strict), with ``p*`` = ``point`` (:meth:`minimum_rest`);
        ``s(p*)`` is closed on the box by ``tree``, or, with no tree and a non-strict relation, reduces exactly
        to 0."""
        rest = self.minimum_rest(node.get("point"), box)
        if rest is None:
            return False
        if "tree" not in node:
            return not self.strict and exactly_zero(rest)
        self.piece(rest, self.strict).node(node["tree"], box)
        return True

    def minimum_rest(self, raw, box) -> sp.Expr | None:
        """``s(p*)`` if ``s(x) >= s(p*)`` on the box, else None. ``raw`` gives the coordinates T it names as
        expressions ``p*`` of the other coordinates. Shown by: the box widened in T to contain ``p*`` (its
        enclosure) keeps s defined and its Hessian in x_T positive definite by leading minors (one coordinate:
        ``>= 0``), and sympy reduces every ``d_i s`` (i in T) at ``x_T = p*`` to exactly 0; Taylor along the
        segment from ``p*`` to ``x_T`` (inside the widened box) then gives ``s(x) >= s(p*)``."""
        if not self.smooth:
            raise Rejected("minimum needs a smooth slack")
        if not isinstance(raw, dict) or not raw or any(n not in box for n in raw):
            raise Rejected("minimum point must name variables of the domain")
        others = [n for n in self.names if n not in raw]
        point = {sp.Symbol(n): read_expr(v, others) for n, v in raw.items()}
        env, wide = env_of(box), env_of(box)
        for n, p in point.items():
            at = compile_expr(p)(env)
            wide[n.name] = X(lower([wide[n.name].lo, at.lo]), upper([wide[n.name].hi, at.hi]))
        self.f(wide)  # s is real on the widened box (else Undefined: no closure)
        idx = [self.names.index(n) for n in raw]
        if not self.convex(idx, wide, semidefinite_1d=True):
            return None
        if not all(exactly_zero(self.diff((i,)).subs(point, simultaneous=True)) for i in idx):
            return None
        return self.slack.subs(point, simultaneous=True)

    def remainder_sign(self, i: int, point, box, order: int) -> bool:
        """``d^order s (x - p)^order >= 0`` on the box: even order and ``d^order s >= 0``; odd order with
        p the box's lower end and ``d^order s >= 0``, or its upper end and ``d^order s <= 0``."""
        d = self.deriv(*[i] * order)(env_of(box))
        if order % 2 == 0:
            return d.ge0()
        p, (lo, hi) = point[self.names[i]], box[self.names[i]]
        return (p == lo and d.ge0()) or (p == hi and d.le0())

    def touching_exact(self, point, box, order: int = 2) -> bool:
        """s and its derivatives in the coordinates of ``point`` up to ``order - 1`` vanish identically at
        x_point = point (sympy, exact). With one coordinate and ``d^order s (x - p)^order >= 0`` on the box
        (:meth:`remainder_sign`), Taylor's theorem with the Lagrange remainder gives s >= 0 there."""
        at = _fixed(box) | {sp.Symbol(n): _rational(p) for n, p in point.items()}
        idx = [self.names.index(n) for n in point if box[n][0] != box[n][1]]
        exprs = [self.slack] + [self.diff((i,)) for i in idx]
        if order > 2:
            exprs += [self.diff((idx[0],) * k) for k in range(2, order)]
        return all(exactly_zero(e.subs(at)) for e in exprs)

    def touching_convex(self, idx, box) -> bool:
        return self.convex(idx, env_of(box))

    def convex(self, idx, env, semidefinite_1d: bool = False) -> bool:
        """The interval Hessian of s in the coordinates idx on ``env`` is positive definite by its leading
        minors (its entries are enclosed independently, so every symmetric matrix of the family is); with
        ``semidefinite_1d`` and one coordinate, ``d^2 s >= 0`` is enough."""
        if len(idx) > MAX_HESSIAN:
            raise Rejected(f"a touching or minimum Hessian in more than {MAX_HESSIAN} coordinates")
        h = [[self.deriv(*sorted((i, j)))(env) for j in idx] for i in idx]
        if semidefinite_1d and len(idx) == 1:
            return h[0][0].ge0()
        return all(det([row[:k] for row in h[:k]]).gt0() for k in range(1, len(idx) + 1))


def resolve_branches(expr: sp.Expr, env: dict) -> sp.Expr:
    """``expr`` with ``Abs(u)`` -> ``u`` / ``-u`` where the enclosure of u on env is >= 0 / <= 0, and
    ``Max(a, b)`` / ``Min(a, b)`` -> the argument the enclosure of ``a - b`` picks; rebuilt unevaluated."""
    if expr.is_Atom:
        return expr
    args = [resolve_branches(a, env) for a in expr.args]
    try:
        if expr.func is sp.Abs:
            iv = compile_expr(args[0])(env)
            if iv.ge0() or iv.le0():
                return args[0] if iv.ge0() else -args[0]
        if expr.func in (sp.Max, sp.Min) and len(args) == 2:
            iv = compile_expr(args[0] - args[1])(env)
            if iv.ge0() or iv.le0():
                return args[0] if iv.ge0() == (expr.func is sp.Max) else args[1]
    except Undefined:
        pass
    return expr if tuple(args) == expr.args else expr.func(*args, evaluate=False)


ODD_INCREASING = (sp.tanh, sp.sinh, sp.atan, sp.asinh, sp.erf)  # f(0) = 0 and increasing: f(t) > 0 iff t > 0


def positive(e: sp.Expr, env: dict, depth: int = 0) -> bool:
    """``e > 0`` at every point of the box ``env``: its enclosure is > 0, or ``e`` is exp of a real number,
    or a sum of terms >= 0 one of which is > 0, a product or rational power of positive factors, ``log(u)``
    with ``u - 1 > 0``, ``log1p(t)`` or an odd increasing function of ``t > 0``. Raises Undefined where
    ``e`` has no real value on the box."""
    x = compile_expr(e)(env)
    if x.gt0():
        return True
    if depth > 12:
        return False
    if e.func is sp.exp:
        return True
    if e.is_Add:
        return all(compile_expr(t)(env).ge0() for t in e.args) and any(positive(t, env, depth + 1) for t in e.args)
    if e.is_Mul:
        return all(positive(f, env, depth + 1) for f in e.args)
    if e.is_Pow and e.args[1].is_Rational:
        return positive(e.args[0], env, depth + 1)
    if e.func is sp.log:
        return positive(e.args[0] - 1, env, depth + 1)
    if e.func is log1p or e.func in ODD_INCREASING:
        return positive(e.args[0], env, depth + 1)
    return False


def softplus_flipped(slack: sp.Expr, flips) -> sp.Expr:
    """``slack`` with each ``log(S)`` (``log1p(S)``, with ``1 + S`` for ``S``) whose expanded argument has a
    term with the factor ``exp(w)``, for the first listed ``w`` that matches, replaced by
    ``w + log(c) + log(T)`` with ``c T = expand(S * exp(-w))``, c its positive rational content
    (``log(1 + exp(w)) = w + log(exp(-w) + 1)``, ``log((e^{-z/2} + e^{z/2})/2) = z/2 - log 2 + log(1 + e^{-z})``). An identity where S > 0
    and w is real: the caller has checked that the enclosures of the slack (so ``S > 0``: the enclosure of
    ``log`` needs it) and of each ``w`` exist on the box."""
    if len(flips) > MAX_PIECES:
        raise Rejected(f"at most {MAX_PIECES} flips")
    if not flips:
        return slack
    rules = {}
    for node in sp.preorder_traversal(slack):
        if node.func is sp.log or node.func is log1p:
            arg = node.args[0] if node.func is sp.log else 1 + node.args[0]
            if expanded_terms(arg) > MAX_TERMS:
                raise Rejected(f"a log argument would expand to more than {MAX_TERMS} terms")
            terms = sp.Add.make_args(sp.expand(arg))
            w = next((w for w in flips if any(sp.exp(w) in sp.Mul.make_args(t) for t in terms)), None)
            if w is not None:
                c, rest = sp.expand(arg * sp.exp(-w)).as_content_primitive()
                rules[node] = w + (sp.log(c) + sp.log(rest) if c.is_Rational and c > 0 else sp.log(c * rest))
    return slack.xreplace(rules)


def expanded_terms(e: sp.Expr) -> int:
    """An upper bound on the number of terms of ``expand(e)`` (sums add, products multiply, a sum of m
    terms to an integer power k has at most C(m + k - 1, k) monomials)."""
    if e.is_Add:
        return sum(expanded_terms(a) for a in e.args)
    if e.is_Mul:
        out = 1
        for a in e.args:
            out = min(out * expanded_terms(a), 10 * MAX_TERMS)
        return out
    if e.is_Pow and e.args[1].is_Integer and abs(e.args[1]) > 1:  # expand also expands negative powers
        m = expanded_terms(e.args[0])
        k = abs(int(e.args[1]))
        return min(comb(m + k - 1, k), 10 * MAX_TERMS) if m > 1 else 1
    if e.is_Pow:  # other exponents: expand works on the base
        return expanded_terms(e.args[0])
    if e.args:  # a function: expand works on its arguments too (exp((a+...+f)**40) is one term, but costly)
        return min(max(1, sum(expanded_terms(a) for a in e.args)), 10 * MAX_TERMS)
    return 1


HYPERBOLIC = (sp.tanh, sp.sinh, sp.cosh)
REWRITTEN = (sp.Max, sp.Min, *HYPERBOLIC)
MAX_REWRITE_DEPTH = 3  # each rewrite copies its arguments twice: nesting k costs 2^k


def rewrite_depth(e: sp.Expr) -> int:
    """How deeply Max/Min/tanh/sinh/cosh nest in ``e`` (0: none)."""
    inner = max((rewrite_depth(a) for a in e.args), default=0)
    return inner + 1 if e.func in REWRITTEN else inner


def identically_zero(expr: sp.Expr) -> bool:
    """``expr`` (with free symbols) is 0 as a function: by ``expand`` or ``cancel(together(expand))`` (on forms of
    at most ``MAX_EXACT_OPS`` operations and ``MAX_DENOMINATORS`` denominators, not 0 at a screen point), after
    writing tanh, sinh and cosh with exp, and Max, Min with Abs (``Max(a, b) = (a + b + |a - b|)/2``), when
    it has them (nested at most ``MAX_REWRITE_DEPTH`` deep)."""
    if expr.has(*REWRITTEN):
        if rewrite_depth(expr) > MAX_REWRITE_DEPTH:
            raise Rejected(f"Max/Min/tanh/sinh/cosh nested more than {MAX_REWRITE_DEPTH} deep in an identity")
        expr = expr.rewrite(sp.Abs).rewrite(sp.exp) if expr.has(*HYPERBOLIC) else expr.rewrite(sp.Abs)
        if expanded_terms(expr) > MAX_TERMS:
            raise Rejected(f"an identity would expand to more than {MAX_TERMS} terms")
    e = sp.expand(expr)
    if e == 0:
        return True
    if not _worth_sympy(e) or len({sp.denom(t) for t in sp.Add.make_args(e)} - {1}) > MAX_DENOMINATORS:
        return False  # not shown 0: cancel has no budget of its own (40 fractions: minutes)
    return sp.cancel(sp.together(e)) == 0


@functools.lru_cache(maxsize=4096)  # a pure function of the expression: the search asks the same on many boxes
def exactly_zero(value: sp.Expr) -> bool:
    """sympy reduces ``value`` to exactly 0, its free symbols taken real (the domain's coordinates are)."""
    if value == 0:
        return True
    value = value.subs({v: sp.Symbol(v.name, real=True) for v in value.free_symbols}, simultaneous=True)
    if not _worth_sympy(value):
        return False
    for fn in (sp.simplify, lambda v: sp.simplify(v.rewrite(sp.exp))):
        try:
            if fn(value) == 0:
                return True
        except Exception:  # noqa: BLE001 - a transformation that fails is not a proof of 0
            continue
    return False


def _worth_sympy(value: sp.Expr) -> bool:
    """Not certainly nonzero at a screen point (a cheap screen that can only say "not 0") and small enough for
    sympy's simplify and cancel, which have no budget of their own: a large form is not shown to be 0."""
    return not _nonzero_somewhere(value) and sp.count_ops(value) <= MAX_EXACT_OPS


def _screen_points(value: sp.Expr) -> list[list[sp.Rational]]:
    """Three rational points, drawn from a hash of the expression (a fixed, public point could be made a root
    of a factor on purpose): coordinates p/97 with p in [-97, 194]."""
    digest = hashlib.sha256(sp.srepr(value).encode()).digest()
    n = len(value.free_symbols)
    return [[sp.Rational(int(digest[(3 * k + i) % 32]) + int(digest[(7 * k + 2 * i + 1) % 32]) % 37 - 97, 97)
             for i in range(n)] for k in range(3)]


def _nonzero_somewhere(value: sp.Expr) -> bool:
    """The enclosure of ``value`` at a rational point excludes 0: a real point where value is not 0, so it is
    not identically 0. False when it cannot tell (never a proof)."""
    names = sorted(value.free_symbols, key=lambda v: v.name)
    for point in _screen_points(value):
        try:
            iv = compile_expr(value.subs(dict(zip(names, point)), simultaneous=True))({})
            if iv.gt0() or iv.lt0():
                return True
        except (Undefined, ZeroDivisionError, ValueError, TypeError, ExprError):
            continue
    return False


def det(m) -> X:
    """Interval determinant by cofactor expansion along the first row."""
    if len(m) == 1:
        return m[0][0]
    acc = None
    for j in range(len(m)):
        minor = [row[:j] + row[j + 1:] for row in m[1:]]
        term = mul(m[0][j], det(minor))
        term = neg(term) if j % 2 else term
        acc = term if acc is None else add(acc, term)
    return acc


def _const(e: sp.Expr, lower: bool):
    """A constant bound: exact if rational, else its enclosure's outer end."""
    if e.is_Rational:
        return fmpq(int(e.p), int(e.q))
    iv = compile_expr(e)({})
    end = iv.lo if lower else iv.hi
    return end if isinstance(end, float) else to_fmpq(end)


def _fixed(box) -> dict:
    """Exact values of the box's fixed coordinates (lo == hi)."""
    return {sp.Symbol(n): _rational(lo) for n, (lo, hi) in box.items() if lo == hi and not isinstance(lo, float)}


def _rational(q: fmpq) -> sp.Rational:
    return sp.Rational(int(q.p), int(q.q))


def env_of(box) -> dict:
    return {n: X(X.of(lo).lo, X.of(hi).hi) for n, (lo, hi) in box.items()}


def _box_str(box) -> str:
    return "{" + ", ".join(f"{n}: [{lo}, {hi}]" for n, (lo, hi) in box.items()) + "}"


def check_inequality(cert: dict) -> None:
    """Raise :class:`Rejected` unless the tree closes the relation on the domain."""
    if "tree" not in cert:
        raise Rejected("no tree")
    try:
        ineq = Inequality(cert)
    except (ExprError, Undefined, KeyError, TypeError, ValueError) as exc:
        raise Rejected(f"statement: {exc}") from None
    ineq.node(cert["tree"], dict(ineq.root))

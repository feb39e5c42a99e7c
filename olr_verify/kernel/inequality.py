"""Re-check an ``inequality`` certificate: root box, bisection tree, closers (docs/certificates.md)."""
from __future__ import annotations

import sympy as sp
from flint import arb, fmpq

from olr_verify.kernel.intervals import INF, NINF, X, Undefined, add, compile_expr, mul, to_fmpq
from olr_verify.expr import ExprError, exact_rational, parse_expr, parse_relation

SMOOTH = (sp.exp, sp.log, sp.tanh, sp.sinh, sp.cosh, sp.atan, sp.asinh, sp.erf)
MAX_NODES = 2_000_000
MAX_ORDER = 2  # derivatives used to establish a monotone closer's slope


class Rejected(Exception):
    """The certificate does not establish its statement (the message says where)."""


def read_expr(text: str, names) -> sp.Expr:
    """``text`` read by the safe reader (olr_verify.expr) with plain symbols ``names`` only."""
    return parse_expr(str(text), {n: sp.Symbol(n) for n in names})


def slack_of(relation: str, names) -> tuple[sp.Expr, bool]:
    """(s, strict): the relation holds iff s >= 0 (s > 0 when strict)."""
    rel = parse_relation(str(relation), {n: sp.Symbol(n) for n in names})
    less = isinstance(rel, (sp.LessThan, sp.StrictLessThan))
    return (rel.rhs - rel.lhs if less else rel.lhs - rel.rhs), isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))


def is_smooth(expr: sp.Expr) -> bool:
    """Built only from + * /, rational powers, numbers, symbols and the SMOOTH list (log1p included)."""
    from sympy.codegen.cfunctions import log1p

    for node in sp.preorder_traversal(expr):
        if node.is_Atom or node.is_Add or node.is_Mul or node.func in SMOOTH or node.func is log1p:
            continue
        if node.is_Pow and (node.args[1].is_Rational or not node.args[1].free_symbols):
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
        self.slack, self.strict = slack_of(cert["relation"], self.names)
        self.syms = [sp.Symbol(n) for n in self.names]
        self.root = self._root_box(domain)
        self.f = compile_expr(self.slack)
        self.budget = min(int(cert.get("max_nodes", MAX_NODES)), MAX_NODES)
        self.nodes = 0
        self.smooth = is_smooth(self.slack)
        self._derivs: dict = {}

    # ---------------------------------------------------------------- domain
    def _root_box(self, domain) -> dict:
        """The root box; a variable with a non-constant bound is reparametrised (its name kept):
        ``x = lo + (hi - lo) u`` with u in [0, 1], ``x = lo + u`` or ``x = hi - u`` with u in
        [0, oo): the image of the new box is exactly the stated range, whatever the earlier values."""
        box: dict[str, tuple] = {}
        maps: dict[sp.Symbol, sp.Expr] = {}
        for k, entry in enumerate(domain):
            if len(entry) != 3:
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
                if _gt(*box[name]):
                    raise Rejected(f"empty range for {name}: [{lo}, {hi}]")
                continue
            if lo_e is not None and hi_e is not None:
                maps[u], box[name] = lo_e + (hi_e - lo_e) * u, (fmpq(0), fmpq(1))
            else:
                maps[u], box[name] = (lo_e + u if lo_e is not None else hi_e - u), (fmpq(0), INF)
        self.slack = self.slack.subs(maps, simultaneous=True)
        self.reparametrised = {str(k): sp.sstr(v) for k, v in maps.items()}
        return box

    # ---------------------------------------------------------------- tree
    def check(self, tree) -> None:
        self.node(tree, dict(self.root))

    def node(self, node, box) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise Rejected(f"more than {self.budget} nodes")
        if not isinstance(node, dict):
            raise Rejected("a tree node must be an object")
        if "split" in node:
            name, q_text = node["split"]
            if name not in box:
                raise Rejected(f"split on unknown variable {name!r}")
            q = _q(q_text)
            lo, hi = box[name]
            if not (_gt(q, lo) and _gt(hi, q)):
                raise Rejected(f"split point {q} of {name} is not strictly inside [{lo}, {hi}]")
            self.node(node["lo"], {**box, name: (lo, q)})
            self.node(node["hi"], {**box, name: (q, hi)})
            return
        closer = node.get("close")
        method = getattr(self, f"close_{closer}", None)
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
        if idx not in self._derivs:
            self._derivs[idx] = compile_expr(sp.diff(self.slack, *[self.syms[i] for i in idx]))
        return self._derivs[idx]

    # ---------------------------------------------------------------- closers
    def close_interval(self, node, box) -> bool:
        return self.good(self.f(env_of(box)))

    def close_mean_value(self, node, box) -> bool:
        if not self.smooth:
            raise Rejected("mean_value needs a slack built from the smooth-function list")
        if any(isinstance(e, float) for ends in box.values() for e in ends):
            raise Rejected("mean_value needs a bounded box")
        env = env_of(box)
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
        self.node(node.get("face"), {**box, name: (end, end)})
        return True

    def slope(self, i: int, box) -> int:
        """+1 if d s/d x_i >= 0 on the box, -1 if <= 0, else 0."""
        return next((w for w in (1, -1) if self.has_sign(i, 1, box, w)), 0)

    def has_sign(self, i: int, k: int, box, want: int) -> bool:
        """d^k s/d x_i^k has the sign ``want`` on the box: by its enclosure, or (k < MAX_ORDER) because
        d^(k+1) has a sign (so d^k is monotone in x_i) and d^k has the sign ``want`` on the face x_i = e
        where d^k is extreme (e finite)."""
        d = self.deriv(*[i] * k)(env_of(box))
        if d.ge0() if want > 0 else _le0(d):
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

    def close_zero(self, node, box) -> bool:
        """Non-strict: with the fixed coordinates substituted, sympy reduces s to exactly 0."""
        if self.strict:
            raise Rejected("zero needs a non-strict relation")
        return exactly_zero(self.slack.subs(_fixed(box, self.names)))

    def close_touching(self, node, box) -> bool:
        """Non-strict: at ``x_T = p`` (T = the coordinates of ``point``) sympy reduces s and every
        d_i s (i in T) to exactly 0 as functions of the other coordinates, and the interval Hessian
        in x_T is positive definite on the box: Taylor in x_T then gives s >= 0 on the box."""
        if self.strict or not self.smooth:
            raise Rejected("touching needs a non-strict relation and a smooth slack")
        point = {n: _q(v) for n, v in node["point"].items()}
        if not point or any(n not in box for n in point):
            raise Rejected("touching point must name variables of the domain")
        for n, p in point.items():
            if _gt(box[n][0], p) or _gt(p, box[n][1]):
                raise Rejected(f"touching point {n} = {p} is outside the box")
        idx = [self.names.index(n) for n in point if box[n][0] != box[n][1]]
        return self.touching_exact(point, box) and self.touching_convex(idx, box)

    def touching_exact(self, point, box) -> bool:
        """s and d_i s (i in point) vanish identically at x_point = point (sympy, exact)."""
        at = _fixed(box, self.names) | {sp.Symbol(n): sp.Rational(int(p.p), int(p.q)) for n, p in point.items()}
        idx = [self.names.index(n) for n in point if box[n][0] != box[n][1]]
        return all(exactly_zero(e.subs(at)) for e in [self.slack] + [sp.diff(self.slack, self.syms[i]) for i in idx])

    def touching_convex(self, idx, box) -> bool:
        """The interval Hessian in the coordinates idx is positive definite on the box."""
        env = env_of(box)
        h = [[self.deriv(*sorted((i, j)))(env) for j in idx] for i in idx]
        return all(det([row[:k] for row in h[:k]]).gt0() for k in range(1, len(idx) + 1))


def exactly_zero(value: sp.Expr) -> bool:
    """sympy reduces ``value`` (no free symbols) to exactly 0."""
    if value == 0:
        return True
    if not value.free_symbols:  # a cheap screen: an enclosure away from 0 settles it
        try:
            iv = compile_expr(value)({})
            if iv.gt0() or iv.lt0():
                return False
        except Undefined:
            pass
    for fn in (sp.simplify, lambda v: sp.simplify(v.rewrite(sp.exp))):
        try:
            if fn(value) == 0:
                return True
        except Exception:  # noqa: BLE001 - a transformation that fails is not a proof of 0
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
        if j % 2:
            term = X(-term.hi, -term.lo)
        acc = term if acc is None else add(acc, term)
    return acc


def _const(e: sp.Expr, lower: bool):
    """A constant bound: exact if rational, else its enclosure's outer end."""
    if e.is_Rational:
        return fmpq(int(e.p), int(e.q))
    iv = compile_expr(e)({})
    end = iv.lo if lower else iv.hi
    return end if isinstance(end, float) else to_fmpq(end)


def _fixed(box, names) -> dict:
    """Exact values of the box's fixed coordinates (lo == hi)."""
    return {sp.Symbol(n): sp.Rational(int(lo.p), int(lo.q)) for n, (lo, hi) in box.items()
            if lo == hi and not isinstance(lo, float)}


def env_of(box) -> dict:
    return {n: X(X.of(lo).lo, X.of(hi).hi) for n, (lo, hi) in box.items()}


def _gt(a, b) -> bool:
    """a > b for ends (fmpq or +-oo)."""
    if isinstance(a, float) or isinstance(b, float):
        return float(a) > float(b) if isinstance(a, float) and isinstance(b, float) else (
            a > 0 if isinstance(a, float) else b < 0)
    return a > b


def _le0(x: X) -> bool:
    return X(x.hi, x.hi).lt0() or (not isinstance(x.hi, float) and x.hi == 0)


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
    ineq.check(cert["tree"])

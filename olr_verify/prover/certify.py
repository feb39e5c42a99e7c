"""Search for a kernel certificate (``kind: "inequality"``, docs/certificates.md) of a relation.

Untrusted: a depth-first bisection of the kernel's own root box that tries, on every box, the
kernel's closers in the order ``outside``, ``interval``, ``mean_value``, ``monotone`` (the face
closed recursively), ``touching`` (the simplest rational point of a small box), and otherwise
splits the widest coordinate (an unbounded range ``[a, oo)`` at ``a + max(|a|, 8)``). The work
budget is a number of boxes, so the same input gives the same certificate on any machine. The
result is only a candidate: :func:`olr_verify.kernel.check` decides.
"""
from __future__ import annotations

import time
from fractions import Fraction

from flint import ctx, fmpq

from olr_verify.kernel import FORMAT, PRECISION_BITS, statement_sha256
from olr_verify.kernel.inequality import Inequality, Rejected
from olr_verify.kernel.intervals import Undefined
from olr_verify.expr import ExprError

MIN_WIDTH = fmpq(1, 2**24)
TOUCH_WIDTH = fmpq(1, 8)
MAX_DEPTH = 120
MAX_TOUCH_TRIES = 16  # sympy exact checks per search
MAX_CUT = 2**12  # unbounded ranges are cut at 8, 16, ..., 4096 at most


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
            claim: str | None = None, deadline: float | None = None) -> tuple[dict | None, str]:
    """``(certificate, "")`` or ``(None, why not)`` within ``max_boxes`` boxes; raises :class:`SafetyNet`
    past ``deadline`` (``time.perf_counter()`` value)."""
    cert = statement(relation, domain, claim)
    old = ctx.prec
    ctx.prec = PRECISION_BITS
    try:
        search = _Search(Inequality(cert), max_boxes, deadline)
        tree = search.node(dict(search.ineq.root), face=False, depth=0)
    except (ExprError, Rejected, Undefined, ValueError, TypeError) as exc:
        return None, f"no kernel certificate: {exc}"[:300]
    except _OutOfWork as exc:
        return None, str(exc)
    except RecursionError:
        return None, "no kernel certificate: tree too deep"
    finally:
        ctx.prec = old
    if tree is None:
        return None, f"no kernel certificate: a box could not be closed ({search.stuck})"
    cert["max_nodes"] = search.boxes
    cert["tree"] = tree
    return cert, ""


class _Search:
    def __init__(self, ineq: Inequality, max_boxes: int, deadline: float | None):
        self.ineq = ineq
        self.deadline = deadline
        self.max_boxes = max_boxes
        self.boxes = 0
        self.exact_cache: dict = {}
        self.tried_faces: set = set()
        self.stuck = ""

    def node(self, box, face: bool, depth: int):
        self.boxes += 1
        if self.boxes > self.max_boxes:
            raise _OutOfWork(f"no kernel certificate within {self.max_boxes} boxes")
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SafetyNet("wall-clock safety net reached in the certificate search")
        for closer in ("interval", "mean_value"):
            if self._closes(closer, {"close": closer}, box, face):
                return {"close": closer}
        leaf = self._monotone(box, face, depth) or self._zero(box) or self._touching(box, face)
        if leaf is not None:
            return leaf
        split = self._split(box, depth)
        if split is None:
            self.stuck = ", ".join(f"{n}: [{lo}, {hi}]" for n, (lo, hi) in box.items())
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

    def _zero(self, box):
        fixed = tuple((n, lo) for n, (lo, hi) in box.items() if lo == hi)
        if self.ineq.strict or not fixed or fixed in self.tried_faces or len(self.tried_faces) >= MAX_TOUCH_TRIES:
            return None
        if not self._near_zero({}, box):
            return None
        self.tried_faces.add(fixed)
        return {"close": "zero"} if self._closes("zero", {"close": "zero"}, box, True) else None

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
        return None

    def _convex(self, idx, box) -> bool:
        try:
            return self.ineq.touching_convex(idx, box)
        except (Undefined, ZeroDivisionError):
            return False

    def _near_zero(self, point, box) -> bool:
        """Cheap screen before sympy: s and d_i s (i in point) contain 0 at the point (box centre elsewhere)."""
        at = {n: point.get(n, _inner(lo, hi)) for n, (lo, hi) in box.items()}
        env = _env({n: (v, v) for n, v in at.items()})
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


def _env(box):
    from olr_verify.kernel.inequality import env_of

    return env_of(box)

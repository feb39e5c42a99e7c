"""Hunted bounds declared as data: a statement written as expressions of a run's named quantities.

A seed paper's ``paper.toml`` gives a hunted claim as a ``[claim.hunt]`` table (format: docs/claims.md)::

    [claim.hunt]
    learner = "aioli"            # a learner of the hunting engine: the shipped float64 one and its 50-digit twin
    family = "binary"            # x_t in the R-ball of R^d, y_t = +-1
    comparator = "ball-lam"      # the comparator theta the hunt plays against (module bounds)
    lhs = "regret"
    rhs = "lam*theta_sq + d*(1 + B*R)*log(1 + n*R**2/(8*d*(1 + B*R)*lam))"
    defaults = { d = 2, n = 30, B = 3.0, R = 1.0, lam = 0.5 }
    space = "aioli"              # a [hunt_space.aioli] table of the same file: the parameters as printed

``lhs <= rhs`` is hunted over the space by :mod:`olr_verify.hunting.optimisers` (with ``per_round = true``: at
every round, the worst round deciding) and a float64 violation is confirmed at 50 and 80 digits by re-running
the learner's twin (:mod:`olr_verify.hunting.confirm`), exactly as for the bounds written in Python. The names an
expression may use are ``n``, ``d``, the space's parameters and the quantities of :data:`QUANTITIES` (run-level)
and :data:`ROUND_QUANTITIES` (per round), each defined below by the paper's own formula.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from olr_verify.hunting.numerics import FLOAT

Provider = Callable[[Any, Any, Any, Any], Any]  # (seq, run, theta, K) -> value
ZERO_NOISE = 1e-12  # |lhs| at or below this against rhs = 0 is a tie in float64


def ratio(lhs: float, rhs: float) -> float:
    """lhs/rhs for rhs > 0; in general 1 + (lhs - rhs)/|rhs| (1 + sign(lhs) for rhs = 0 and |lhs| above
    ``ZERO_NOISE``), so ratio > 1 iff lhs > rhs (beyond rounding where rhs = 0)."""
    lhs, rhs = float(lhs), float(rhs)
    if rhs == 0:  # finite, so that a violation of "... <= 0" is ranked as one: 2 above, 1 at, 0 below, where the
        # float64 margin is not at rounding level (a round whose rhs underflowed to 0 must not outrank real ones)
        return 1.0 + (lhs > ZERO_NOISE) - (lhs < -ZERO_NOISE)
    return 1.0 + (lhs - rhs) / abs(rhs)


def worst_pair(pairs):
    """The (lhs, rhs) of largest :func:`ratio`: the worst round, or the worst relation of a chain."""
    return max(pairs, key=lambda lr: ratio(lr[0], lr[1]))



# --------------------------------------------------------------------------- binary family (seed 000, AIOLI)
def feasible(theta: Any, radius: Any, K) -> Any:
    """theta pulled into the closed ball of the given radius, in the backend's arithmetic."""
    theta = K.arr(theta)
    nrm = K.sqrt(theta @ theta)
    r = K.num(radius)
    return theta * (r / nrm) if nrm > r else theta


def _theta(seq, run, theta, K):
    return feasible(theta, seq.params["B"], K)


def _regret(seq, run, theta, K):
    """sum_t l(y_t yhat_t) - sum_t l(y_t theta^T x_t), theta the comparator pulled into the B-ball."""
    th = _theta(seq, run, theta, K)
    X = K.arr(seq.X)
    loss_alg = sum(K.softplus(-int(y) * yh) for y, yh in zip(seq.Y, run.preds))
    return loss_alg - sum(K.softplus(-int(y) * (th @ x)) for x, y in zip(X, seq.Y))


def _inv(M, K):
    if K is FLOAT:
        return np.linalg.inv(M)
    import mpmath

    return np.array((mpmath.matrix(M.tolist()) ** -1).tolist(), dtype=object)


def _logdet(seq, run, theta, K):
    """sum_k log(1 + lambda_k(C_n)/lam) = log det(A_n / lam), C_n = A_n - lam I."""
    lam = K.num(seq.params["lam"])
    A_n = _inv(run.learner.A_inv, K)
    eig = K.eigvalsh(A_n - lam * K.eye(A_n.shape[0]))
    return sum(K.log(1 + max(e, K.num(0)) / lam) for e in eig)


def _eta_gAg(r, seq, K):
    """eta_t g_t^T A_t^{-1} g_t as sigma(m) sigma(-m) x^T A_t^{-1} x / (1 + BR), m = y_t yhat_t: equal (g_t = -y x
    sigma(-m), eta_t = e^m/(1 + BR), e^m sigma(-m)^2 = sigma(m) sigma(-m)), and free of e^m overflowing while
    sigma(-m)^2 underflows (inf * 0 = NaN at B = 392, R = 317)."""
    yhat = r["yhat"] if "yhat" in r else r["theta_hat"] @ r["x"]
    m = r["y"] * yhat
    BR1 = 1 + K.num(seq.params["B"]) * K.num(seq.params["R"])
    return K.sigmoid(m) * K.sigmoid(-m) * (r["x"] @ r["A_inv"] @ r["x"]) / BR1


def _Z(r):
    """Z_t = 1/4 g^-^T A_t^{-1} g^- - 1/4 (g + g^-)^T A_{t-1}^{-1} (g + g^-) (App. B.1, g^- = g_t^{-y_t})."""
    gm, g = r["g_minus"], r["g"]
    s = g + gm
    return (gm @ r["A_inv"] @ gm) / 4 - (s @ r["A_inv_prev"] @ s) / 4


# --------------------------------------------------------------------------- gradient family (seed 002, Algorithm 2)
def lin_regret_parts(seq, run, K):
    """sum_t g_t yhat_t and h_T = -sum_t g_t x_t: the linear regret against u is the first plus h_T^T u."""
    X = K.arr(seq.X)
    G = run.extra["G"]
    alg = sum(g * yh for g, yh in zip(G, run.preds))
    h = K.zeros(X.shape[1])
    for g, x in zip(G, X):
        h = h - g * x
    return alg, h


def _lin_regret(seq, run, u, K):
    alg, h = lin_regret_parts(seq, run, K)
    return alg + h @ K.arr(u)


def _u_S_sq(seq, run, u, K):
    u = K.arr(u)
    return sum((x @ u) ** 2 for x in K.arr(seq.X))


def _states(seq, run, K, memo):
    """(S_t^+, h_t^T S_t^+ h_t, Gamma_t) before trial 1, ..., after trial n (memoised for one evaluation)."""
    if "states" not in memo:
        L = run.learner
        memo["states"] = []
        for st in run.extra["states"] + [{"S_prev": L.S, "h_prev": L.h, "Gamma_prev": L.Gamma}]:
            P = K.pinv_sym(st["S_prev"])
            memo["states"].append((P, st["h_prev"] @ P @ st["h_prev"], st["Gamma_prev"]))
    return memo["states"]


# --------------------------------------------------------------------------- absorbed family (seed 003, 1-D FTRL)
def _clipped(seq, w_cmp, K):
    D = K.num(seq.params["D"])
    w = K.num(w_cmp[0]) if hasattr(w_cmp, "__len__") else K.num(w_cmp)
    return max(min(w, D), -D)


def _ftrl_regret(seq, run, w_cmp, K):
    """sum_t log(1 + e^{x_t w_t}) - sum_t log(1 + e^{x_t w}), w the comparator clipped to [-D, D]."""
    X = [K.num(x[0]) for x in seq.X]
    w = _clipped(seq, w_cmp, K)
    return sum(K.softplus(x * wt) for x, wt in zip(X, run.extra["ws"])) - sum(K.softplus(x * w) for x in X)


def _slopes(seq, run, K):
    """y_t, the slope of the surrogate l~_t at w_t (eq. (4))."""
    ws = run.extra["ws"]
    return [run.learner.surrogate(x[0], ws[t])[1] for t, x in enumerate(K.arr(seq.X))]


def _moves(points, seq, run, K):
    return sum(abs(y * (points[t] - points[t + 1])) for t, y in enumerate(_slopes(seq, run, K)))


def _surrogate_min(seq, run, K):
    """min over [-D, D] of sum_t l~_t (a convex piecewise quadratic: two clipped vertices)."""
    L, ws = run.learner, run.extra["ws"]
    D = K.num(seq.params["D"])
    tot = {1: [K.num(0)] * 3, -1: [K.num(0)] * 3}
    for x, wt in zip((K.num(x[0]) for x in seq.X), ws):
        a0, y, c, case = L.surrogate(x, wt)
        q = L.beta / 2 * y * y
        for s in (1, -1):
            quad = case == "both" or (case == "left" and s == -1) or (case == "right" and s == 1)
            cc = c if case == "both" else 0
            tot[s][0] += q if quad else 0
            tot[s][1] += y - (2 * q * cc if quad else 0)
            tot[s][2] += a0 + (q * cc * cc if quad else 0)
    best = None
    for s in (1, -1):
        a, b, k = tot[s]
        for w in [K.num(0), s * D] + ([-b / (2 * a)] if a > 0 else []):
            if (s == 1 and 0 <= w <= D) or (s == -1 and -D <= w <= 0):
                v = a * w * w + b * w + k
                best = v if best is None or v < best else best
    return best


def _surrogate_regret(seq, run, w_cmp, K):
    ws = run.extra["ws"]
    alg = sum(run.learner.surrogate_value(x[0], wt, wt) for x, wt in zip(K.arr(seq.X), ws))
    return alg - _surrogate_min(seq, run, K)


def _ftl_regret(seq, run, w_cmp, K):
    """sum_t l~_t(w_t) - l~_t(w_{T+1}): the surrogates' regret against the last iterate (the worst v of FTL-BTL)."""
    L, ws = run.learner, run.extra["ws"]
    return sum(L.surrogate_value(x[0], wt, wt) - L.surrogate_value(x[0], wt, ws[-1]) for x, wt in zip(K.arr(seq.X), ws))


def _signed_moves(seq, run, w_cmp, K):
    ws = run.extra["ws"]
    return sum(y * (ws[t] - ws[t + 1]) for t, y in enumerate(_slopes(seq, run, K)))


#: Run-level quantities per family: name -> (provider, whether it reads the per-round trace, meaning).
QUANTITIES: dict[str, dict[str, tuple[Provider, bool, str]]] = {
    "binary": {
        "regret": (_regret, False, "R_n(theta): the learner's cumulative loss minus theta's"),
        "theta_sq": (lambda s, r, th, K: (lambda t: t @ t)(_theta(s, r, th, K)), False,
                     "||theta||^2 of the comparator (pulled into the B-ball)"),
        "logdet": (_logdet, False, "sum_k log(1 + lambda_k(A_n - lam I)/lam), A_n the learner's final matrix"),
        "sum_Z": (lambda s, r, th, K: sum(_Z(t) for t in r.learner.trace), True, "sum_t Z_t of App. B.1"),
        "sum_eta_gAg": (lambda s, r, th, K: sum(_eta_gAg(t, s, K) for t in r.learner.trace), True,
                        "sum_t eta_t g_t^T A_t^{-1} g_t"),
    },
    "gradient": {
        "regret": (_lin_regret, False, "regret_T(u) = sum_t g_t yhat_t - sum_t g_t x_t^T u (linear losses)"),
        "u_S_sq": (_u_S_sq, False, "||u||_{S_T}^2 = sum_t (x_t^T u)^2"),
        "Gamma_T": (lambda s, r, u, K: r.learner.Gamma, False, "Gamma_T of Algorithm 2 after the last trial"),
        "hSh_T": (lambda s, r, u, K: r.learner.h @ K.pinv_sym(r.learner.S) @ r.learner.h, False, "h_T^T S_T^+ h_T"),
        "sum_g_yhat": (lambda s, r, u, K: sum(g * yh for g, yh in zip(r.extra["G"], r.preds)), False,
                       "sum_t g_t x_t^T w_t (the linear regret against u = 0)"),
    },
    "absorbed": {
        "regret": (_ftrl_regret, False, "Regret_T(w): sum_t log(1 + e^{x_t w_t}) - log(1 + e^{x_t w}), w in [-D, D]"),
        "surrogate_regret": (_surrogate_regret, False, "sum_t l~_t(w_t) - min_{[-D, D]} sum_t l~_t (eq. (4))"),
        "ftl_regret": (_ftl_regret, False, "sum_t l~_t(w_t) - l~_t(w_{T+1})"),
        "sum_y_dw": (lambda s, r, w, K: _moves(r.extra["ws"], s, r, K), False, "sum_t |y_t (w_t - w_{t+1})|"),
        "sum_y_du": (lambda s, r, w, K: _moves(r.extra["us"], s, r, K), False,
                     "sum_t |y_t (u_t - u_{t+1})|, u_t the unconstrained minimisers"),
        "sum_grad_dw": (_signed_moves, False, "sum_t y_t (w_t - w_{t+1}), y_t = l~_t'(w_t)"),
        "w_first": (lambda s, r, w, K: r.extra["ws"][0], False, "w_1"),
        "w_last": (lambda s, r, w, K: r.extra["ws"][-1], False, "w_{T+1}"),
    },
}
#: Quantities that depend on the comparator (the "S-direction" comparator moves them along its ray).
COMPARATOR_QUANTITIES = {"regret", "theta_sq", "u_S_sq"}

RoundProvider = Callable[[int, Any, Any, Any, dict], Any]  # (round t from 0, seq, run, K, memo) -> value
#: Per-round quantities per family (``per_round = true``): name -> (provider, meaning).
ROUND_QUANTITIES: dict[str, dict[str, tuple[RoundProvider, str]]] = {
    "binary": {
        "Z": (lambda t, s, r, K, m: _Z(r.learner.trace[t]), "Z_t of App. B.1"),
        "eta": (lambda t, s, r, K, m: r.learner.trace[t]["eta"], "eta_t = e^{y_t yhat_t}/(1 + BR)"),
        "gAg": (lambda t, s, r, K, m: (lambda q: q["g"] @ q["A_inv"] @ q["g"])(r.learner.trace[t]),
                "g_t^T A_t^{-1} g_t"),
        "gAg_minus": (lambda t, s, r, K, m: (lambda q: q["g"] @ q["A_inv"] @ q["g_minus"])(r.learner.trace[t]),
                      "g_t^T A_t^{-1} g_t^{-y_t}"),
    },
    "gradient": {
        "g": (lambda t, s, r, K, m: r.extra["G"][t], "g_t"),
        "g_yhat": (lambda t, s, r, K, m: r.extra["G"][t] * r.preds[t], "g_t x_t^T w_t"),
        "hSh": (lambda t, s, r, K, m: _states(s, r, K, m)[t + 1][1], "h_t^T S_t^+ h_t after trial t"),
        "hSh_prev": (lambda t, s, r, K, m: _states(s, r, K, m)[t][1], "h_{t-1}^T S_{t-1}^+ h_{t-1}"),
        "Gamma_t": (lambda t, s, r, K, m: _states(s, r, K, m)[t + 1][2], "Gamma_t after trial t"),
        "Gamma_prev": (lambda t, s, r, K, m: _states(s, r, K, m)[t][2], "Gamma_{t-1}"),
        "xSx": (lambda t, s, r, K, m: (lambda x: x @ _states(s, r, K, m)[t + 1][0] @ x)(K.arr(s.X)[t]),
                "x_t^T S_t^+ x_t (S_t = sum_{q <= t} x_q x_q^T)"),
    },
    "absorbed": {},
}


def rounds(seq, run) -> int:
    return len(run.learner.trace) if seq.family == "binary" else seq.n


# --------------------------------------------------------------------------- expressions
def evaluate(expr, values: dict[str, Any], K) -> Any:
    """``expr`` (a sympy tree from the safe reader) in the backend's arithmetic, names read from ``values``."""
    import sympy as sp

    if expr.is_Symbol:
        return values[expr.name]
    if expr.is_Integer:
        return K.num(int(expr))
    if expr.is_Rational:
        return K.num(int(expr.p)) / K.num(int(expr.q))
    args = [evaluate(a, values, K) for a in expr.args] if not expr.is_Pow else None
    if expr.is_Add:
        return sum(args[1:], args[0])
    if expr.is_Mul:
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    if expr.is_Pow:
        base, e = evaluate(expr.base, values, K), expr.exp
        if e == sp.Rational(1, 2):
            return K.sqrt(base)
        if e.is_Integer:
            return base ** int(e) if e > 0 else 1 / base ** int(-e)
        return base ** evaluate(e, values, K)
    functions = {sp.log: K.log, sp.exp: K.exp, sp.Abs: abs}
    if expr.func in functions and len(args) == 1:
        return functions[expr.func](args[0])
    raise ValueError(f"{expr}: only + - * / ** log exp sqrt Abs are evaluated in a hunted bound")


class ExpressionBound:
    """The ``bound`` of a :class:`~olr_verify.hunting.bounds.Target` read from data: (seq, run, theta, K) ->
    (lhs, rhs) of the relation ``lhs <= rhs``, or of the worst (largest lhs/rhs) of a printed chain's relations
    (``lhs`` and ``rhs`` lists) and, when ``per_round``, of the worst round."""

    def __init__(self, lhs: str | list[str], rhs: str | list[str], family: str, params: list[str],
                 per_round: bool = False):
        from olr_verify.expr import parse_expr

        lhs, rhs = ([lhs] if isinstance(lhs, str) else list(lhs)), ([rhs] if isinstance(rhs, str) else list(rhs))
        if not lhs or len(lhs) != len(rhs) or not all(isinstance(v, str) for v in lhs + rhs):
            raise ValueError("lhs and rhs are two expressions, or two lists of as many (a chain: lhs[i] <= rhs[i])")
        self.quantities_of = QUANTITIES[family]
        self.round_of = ROUND_QUANTITIES[family] if per_round else {}
        names = ["n", "d", *params, *self.quantities_of, *self.round_of]
        self.relations = [(parse_expr(a, names), parse_expr(b, names)) for a, b in zip(lhs, rhs)]
        self.per_round = per_round
        self.rhs_names = {s.name for _, b in self.relations for s in b.free_symbols}
        used = {s.name for pair in self.relations for side in pair for s in side.free_symbols}
        self.quantities = [q for q in self.quantities_of if q in used]
        self.round_quantities = [q for q in self.round_of if q in used]
        self.needs_trace = family == "binary" and (bool(self.round_quantities)
                                                   or any(self.quantities_of[q][1] for q in self.quantities))
        #: the statement is "regret <= an expression": a run whose regret cannot exceed it cannot fail
        self.bounds_regret = (not per_round and len(self.relations) == 1
                              and self.relations[0][0].is_Symbol and self.relations[0][0].name == "regret")
        self.__doc__ = " and ".join(f"{a} <= {b}" for a, b in zip(lhs, rhs)) + (" at every round" if per_round else "")
        for pair in self.relations:
            for side in pair:
                with np.errstate(all="ignore"):
                    evaluate(side, {k: 1.0 for k in names}, FLOAT)  # an unsupported operation is a load error

    def values(self, seq, run, theta, K=FLOAT) -> dict[str, Any]:
        """The parameters, n, d and the run-level quantities the sides use."""
        values = {k: K.num(v) if isinstance(v, (int, float)) else v for k, v in seq.params.items() if v is not None}
        values.update(n=K.num(seq.n), d=K.num(seq.params.get("d", seq.X.shape[1])))
        values.update({q: self.quantities_of[q][0](seq, run, theta, K) for q in self.quantities})
        return values

    def sides(self, values: dict[str, Any], K=FLOAT) -> tuple:
        """(lhs, rhs) at ``values``: of the worst relation of a chain."""
        return worst_pair([(evaluate(a, values, K), evaluate(b, values, K)) for a, b in self.relations])

    def __call__(self, seq, run, theta, K=FLOAT) -> tuple:
        values = self.values(seq, run, theta, K)
        if not self.per_round:
            return self.sides(values, K)
        memo: dict = {}
        return worst_pair([self.sides({**values, **{q: self.round_of[q][0](t, seq, run, K, memo)
                                                    for q in self.round_quantities}}, K)
                           for t in range(rounds(seq, run))])


def regret_cap(seq, run) -> float:
    """The largest regret any comparator of the bound's class can give on this run, from the learner's predictions
    alone (+inf where there is none: linear losses against a free u): binary, each round at most
    log(1 + e^{|yhat_t|}) - log(1 + e^{-B ||x_t||}) (the comparator's loss is at least the latter); absorbed, at
    most log(1 + e^{P |x_t|}) - log(1 + e^{-D |x_t|}), P = max |w_t|."""
    X = np.asarray(seq.X, float)
    if seq.family == "binary":
        P, c = np.abs(np.asarray(run.preds, float)), float(seq.params["B"]) * np.linalg.norm(X, axis=1)
    elif seq.family == "absorbed":
        ax = np.abs(X[:, 0])
        P, c = float(np.max(np.abs(np.asarray(run.extra["ws"], float)))) * ax, float(seq.params["D"]) * ax
    else:
        return math.inf
    return float(np.sum(np.logaddexp(0.0, P) - np.logaddexp(0.0, -c)))

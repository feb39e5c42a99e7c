"""Every regret-type bound of the papers, as printed, as a function (sequence, run, comparator) -> (lhs, rhs).

A :class:`Target` ties a claim id to a sequence family, a learner and a bound function.  The bound
function receives the :class:`Sequence` (exact data + parameters), the learner's :class:`Run`
(predictions and, where the claim needs them, the learner's internal quantities) and the comparator,
and returns ``(lhs, rhs)``: the claim holds on this sequence iff ``lhs <= rhs``.  For regret bounds
lhs is the regret against the worst admissible comparator and rhs the printed bound at that
comparator; for per-round inequalities (lhs_t, rhs_t) is the round with the largest
:func:`ratio`.  The same code runs in float64 (hunt) and at >= 50 digits (:mod:`confirm`).

Families of sequences:

- ``binary``   (seed 000): x_t in the R-ball of R^d, y_t in {-1, +1} (and, for Theorem 7, the
  adversary's directions u_t of the estimation error);
- ``gradient`` (seed 002): x_t in R^d, g_t in [-1, 1] chosen by the adversary; the loss is the linear
  loss g_t yhat (convex and 1-Lipschitz, so a regret bound "for any convex 1-Lipschitz loss" must
  hold for it; it is the paper's own reduction (1));
- ``absorbed`` (seed 003): x_t in [-1, 1] (label absorbed), loss log(1 + e^{x_t w}).

>>> import numpy as np
>>> seq = Sequence("binary", {"d": 1, "n": 2, "B": 1.0, "R": 1.0, "lam": 1.0},
...                np.array([[1.0], [1.0]]), np.array([1, -1]))
>>> lhs, rhs = evaluate(TARGETS["000:theorem-1"], seq)
>>> print(f"{lhs:.4f} <= {rhs:.4f}")
0.0998 <= 0.2356
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

import numpy as np

from olr_verify.hunting import highprec_learners as hl
from olr_verify.hunting import shipped as sh
from olr_verify.hunting.numerics import FLOAT
from reference.comparator import best_in_ball_fast


@dataclasses.dataclass
class Sequence:
    """Exact data of one hunt: ``X`` (n x d), ``Y`` (labels, gradients g_t, or None) and parameters."""

    family: str
    params: dict
    X: np.ndarray
    Y: Any = None
    U: Any = None          # Theorem 7's directions (binary family only)

    @property
    def n(self) -> int:
        return len(self.X)


@dataclasses.dataclass
class Run:
    preds: list
    learner: Any
    extra: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Target:
    claim: str
    family: str
    learner: str
    bound: Callable[..., tuple]
    defaults: dict
    comparator: str = "ball"        # "ball" | "ball-lam" | "free" | "interval" | "none"
    kind: str = "upper"             # "upper" (lhs <= rhs) | "lower" (a construction: lhs >= rhs)
    note: str = ""
    vacuous: Callable[..., str] | None = None  # (Space) -> why no sequence of the space can violate it, or ""


def ratio(lhs: float, rhs: float) -> float:
    """lhs/rhs for rhs > 0; in general 1 + (lhs - rhs)/|rhs|, so ratio > 1 iff lhs > rhs."""
    lhs, rhs = float(lhs), float(rhs)
    if rhs == 0:
        return math.inf if lhs > 0 else 1.0
    return 1.0 + (lhs - rhs) / abs(rhs)


# --------------------------------------------------------------------------- learners
# Learners whose run depends on the inputs only through inner products (initial state lam I or 0, updates by
# x x^T, predictions theta^T x): rotating R^d changes nothing, so a sequence of n < d inputs is run EXACTLY in
# the n-dimensional span of its inputs (Theorem 7's directions u_t act only through u_t^T x_t).  Their bounds
# read d only as a number (d (1 + BR) log(...)), never through the learner's dimension.
ROTATION_EQUIVARIANT = frozenset({"aioli", "aioli-b2", "aioli-eps", "aioli-alg2", "si2", "none"})
# Coordinate-wise learners (002 Algorithm 1): coordinates where every x_{t,i} = 0 keep their initial state and
# add nothing to the prediction, but d enters the step size 1/(alpha t d); run at the full d.
COORDINATEWISE = frozenset({"si1"})


def span_dimension(p: dict) -> int:
    """The dimension of a span that holds n inputs of R^d: n, but at least 2 (002's Theorem 4.2 construction needs
    two coordinates) and at most d."""
    return min(int(p["d"]), max(int(p["n"]), 2))


def run_dimension(target: Target, p: dict) -> int:
    """Where a sequence of the target's learner at parameters ``p`` is run: for a rotation-equivariant learner
    with d > n, the span of its inputs (:func:`span_dimension`); else R^d itself."""
    d, n = int(p["d"]), int(p["n"])
    return span_dimension(p) if (target.learner in ROTATION_EQUIVARIANT and d > n) else d


def make_learner(target: Target, seq: Sequence, K=FLOAT, trace: bool = False):
    """The learner a bound is about: in float64 the SHIPPED learner of algorithms/ (:mod:`shipped`); at >= 50
    digits its twin of :mod:`highprec_learners` (replay only; tests/hunting/test_learner_twins.py checks
    that the two agree to 1e-12).  A rotation-equivariant learner runs in the dimension of the sequence's data
    (:func:`run_dimension`)."""
    p = seq.params
    if target.learner in ROTATION_EQUIVARIANT and "d" in p:
        p = {**p, "d": int(seq.X.shape[1])}
    name = target.learner
    if name == "none":
        return None
    if name not in _LEARNERS:
        raise ValueError(f"unknown learner {name!r}")
    return _LEARNERS[name](p, seq.n, K, trace)


def _aioli(p, n, K, trace, lam=None, eps=0, gd_steps=0):
    lam = p["lam"] if lam is None else lam
    if K is FLOAT:
        return sh.ShippedAioli(p["d"], p["B"], p["R"], lam, eps=eps, gd_steps=gd_steps, trace=trace)
    return hl.AioliExact(p["d"], p["B"], p["R"], lam, K=K, eps=eps, gd_steps=gd_steps, trace=trace)


_LEARNERS: dict[str, Callable] = {
    "aioli": lambda p, n, K, tr: _aioli(p, n, K, tr),
    "aioli-b2": lambda p, n, K, tr: _aioli(p, n, K, tr, lam=K.num(1) / K.num(p["B"]) ** 2),
    "aioli-eps": lambda p, n, K, tr: _aioli(p, n, K, tr, eps=p["eps"]),
    "aioli-alg2": lambda p, n, K, tr: _aioli(
        p, n, K, tr, gd_steps=hl.aioli_gd_steps(n, float(p["B"]), float(p["R"]), float(p["lam"]))),
    "si1": lambda p, n, K, tr: (sh.ShippedScaleInvariant1(p["d"], p["alpha"]) if K is FLOAT
                                else hl.ScaleInvariant1(p["d"], p["alpha"], K=K)),
    "si2": lambda p, n, K, tr: (sh.ShippedScaleInvariant2(p["d"], p["alpha"]) if K is FLOAT
                                else hl.ScaleInvariant2(p["d"], p["alpha"], K=K)),
    "ftrl003": lambda p, n, K, tr: (sh.ShippedFtrl003(p["D"], float(n) ** (-1 / 3)) if K is FLOAT
                                    else hl.Ftrl003(p["D"], K.num(n) ** (-K.num(1) / 3), K=K)),
}


def run_learner(target: Target, seq: Sequence, K=FLOAT, trace: bool = False) -> Run:
    """Predict-then-update over the fixed sequence (the adversary's choices are already in it)."""
    L = make_learner(target, seq, K, trace)
    X = K.arr(seq.X)
    preds: list = []
    extra: dict = {}
    if L is None:
        return Run(preds, None, extra)
    if seq.family == "binary":
        for t in range(seq.n):
            if seq.U is not None:
                L.set_direction(K.arr(seq.U[t]))
            preds.append(L.predict(X[t]))
            L.update(X[t], int(seq.Y[t]))
    elif seq.family == "gradient":
        G = [K.num(g) for g in seq.Y]
        extra["states"] = []
        for t in range(seq.n):
            if target.learner == "si1":
                w, s2 = L.weights(X[t])
                extra["states"].append({"w": w, "s2_prev": L.s2, "h_prev": L.h})
                preds.append(w @ X[t])
            else:
                preds.append(L.predict(X[t]))
                extra["states"].append({"S_prev": L.S, "h_prev": L.h, "Gamma_prev": L.Gamma})
            L.update_gradient(X[t], G[t])
        extra["G"] = G
    else:  # absorbed, 1-D FTRL of seed 003
        ws, us = [], []
        for t in range(seq.n):
            ws.append(L.weight())
            us.append(L.unconstrained_argmin())
            preds.append(L.weight() * X[t][0])
            L.update(X[t][0])
        ws.append(L.weight())
        us.append(L.unconstrained_argmin())
        extra.update(ws=ws, us=us)
    return Run(preds, L, extra)


# --------------------------------------------------------------------------- comparators
def comparator(target: Target, seq: Sequence, run: Run) -> Any:
    """Float64 comparator: the best theta in hindsight (reference.comparator.best_in_ball_fast), a FEASIBLE point.

    Only feasibility matters for soundness: the regret against any feasible theta is a lower bound on the
    regret against the best one, so (regret at theta) > (bound at theta) is a violation whatever the
    comparator's optimality; the replay re-checks feasibility (:func:`feasible`) at >= 50 digits."""
    p = seq.params
    if target.comparator in ("ball", "ball-lam"):
        lam = float(p["lam"]) if target.comparator == "ball-lam" else 0.0
        Z = -np.asarray(seq.Y, float)[:, None] * np.asarray(seq.X, float)
        return best_in_ball_fast(Z, float(p["B"]), lam).theta
    if target.comparator == "interval":
        return best_in_ball_fast(np.asarray(seq.X, float), float(p["D"])).theta
    return None


def feasible(theta: Any, radius: Any, K) -> Any:
    """theta pulled into the closed ball of the given radius, in the backend's arithmetic."""
    theta = K.arr(theta)
    nrm = K.sqrt(theta @ theta)
    r = K.num(radius)
    return theta * (r / nrm) if nrm > r else theta


# --------------------------------------------------------------------------- seed 000
def _aioli_terms(seq, run, theta, K):
    p = seq.params
    X = K.arr(seq.X)
    loss_alg = sum(K.softplus(-int(y) * yh) for y, yh in zip(seq.Y, run.preds))
    th = feasible(theta, p["B"], K)
    loss_cmp = sum(K.softplus(-int(y) * (th @ x)) for x, y in zip(X, seq.Y))
    return loss_alg - loss_cmp, th


def _thm1_log_term(seq, K, lam):
    p = seq.params
    d, n, B, R = K.num(p["d"]), K.num(seq.n), K.num(p["B"]), K.num(p["R"])
    return d * (1 + B * R) * K.log(1 + n * R * R / (8 * d * (1 + B * R) * lam))


def theorem_1_000(seq, run, theta, K=FLOAT):
    """R_n(theta) <= lam ||theta||^2 + d(1+BR) log(1 + n R^2 / (8 d (1+BR) lam))  (seed 000, Theorem 1)."""
    lam = K.num(seq.params["lam"])
    regret, th = _aioli_terms(seq, run, theta, K)
    return regret, lam * (th @ th) + _thm1_log_term(seq, K, lam)


def equation_4_000(seq, run, theta, K=FLOAT):
    """lam = 1/B^2: R_n(theta) <= d(1+BR) log(1 + n B^2 R^2 / (8 d (1+BR))) + 1  (seed 000, eq. (4))."""
    p = seq.params
    d, n, B, R = K.num(p["d"]), K.num(seq.n), K.num(p["B"]), K.num(p["R"])
    regret, _ = _aioli_terms(seq, run, theta, K)
    return regret, d * (1 + B * R) * K.log(1 + n * B * B * R * R / (8 * d * (1 + B * R))) + 1


def theorem_7_000(seq, run, theta, K=FLOAT):
    """Theorem 1's bound + 3 n R (n R^2 / (8 lam) + B) eps for any ||theta_hat_t - theta_bar_t|| <= eps."""
    p = seq.params
    n, B, R, lam, eps = K.num(seq.n), K.num(p["B"]), K.num(p["R"]), K.num(p["lam"]), K.num(p["eps"])
    regret, rhs = theorem_1_000(seq, run, theta, K)
    return regret, rhs + 3 * n * R * (n * R * R / (8 * lam) + B) * eps


def theorem_4_000(seq, run, theta, K=FLOAT):
    """Algorithm 2 with Theorem 4's T: regret <= Theorem 1's bound + 1."""
    regret, rhs = theorem_1_000(seq, run, theta, K)
    return regret, rhs + 1


def _log_det_term(run, K, lam):
    """sum_k log(1 + lambda_k(C_n)/lam) = log det(A_n / lam), C_n = A_n - lam I."""
    A_n = _inv(run.learner.A_inv, K)
    d = A_n.shape[0]
    eig = K.eigvalsh(A_n - lam * K.eye(d))
    return sum(K.log(1 + max(e, K.num(0)) / lam) for e in eig)


def _inv(M, K):
    if K is FLOAT:
        return np.linalg.inv(M)
    import mpmath

    inv = mpmath.matrix(M.tolist()) ** -1
    return np.array(inv.tolist(), dtype=object)


def lemma_10_000(seq, run, theta, K=FLOAT):
    """sum_t eta_t/2 g_t^T A_t^{-1} g_t <= sum_k log(1 + lambda_k(C_n)/lam)  (seed 000, Lemma 10)."""
    lam = K.num(seq.params["lam"])
    lhs = sum(_eta_g_A_g(r, seq, K) / 2 for r in run.learner.trace)
    return lhs, _log_det_term(run, K, lam)


def _eta_g_A_g(r, seq, K):
    """eta_t g_t^T A_t^{-1} g_t of a round, as sigma(m) sigma(-m) x^T A_t^{-1} x / (1 + BR), m = y_t yhat_t: equal
    (g_t = -y x sigma(-m), eta_t = e^m/(1 + BR), e^m sigma(-m)^2 = sigma(m) sigma(-m)), and free of e^m overflowing
    while sigma(-m)^2 underflows (inf * 0 = NaN at B = 392, R = 317)."""
    yhat = r["yhat"] if "yhat" in r else r["theta_hat"] @ r["x"]
    m = r["y"] * yhat
    BR1 = 1 + K.num(seq.params["B"]) * K.num(seq.params["R"])
    return K.sigmoid(m) * K.sigmoid(-m) * (r["x"] @ r["A_inv"] @ r["x"]) / BR1


def _Z(r):
    gm, g = r["g_minus"], r["g"]
    s = g + gm
    return (gm @ r["A_inv"] @ gm) / 4 - (s @ r["A_inv_prev"] @ s) / 4


def _worst_round(pairs):
    return max(pairs, key=lambda lr: ratio(lr[0], lr[1]))


def b1_chain_000(seq, run, theta, K=FLOAT):
    """Per round (App. B.1): Z_t <= -1/2 g_t^T A_t^{-1} g_t^{-y_t}."""
    return _worst_round([(_Z(r), -(r["g"] @ r["A_inv"] @ r["g_minus"]) / 2) for r in run.learner.trace])


def b1_zt_bound_000(seq, run, theta, K=FLOAT):
    """Per round (App. B.1): Z_t <= (1+BR) eta_t/2 g_t^T A_t^{-1} g_t."""
    BR1 = 1 + K.num(seq.params["B"]) * K.num(seq.params["R"])
    return _worst_round([(_Z(r), BR1 * r["eta"] / 2 * (r["g"] @ r["A_inv"] @ r["g"])) for r in run.learner.trace])


def equation_21_000(seq, run, theta, K=FLOAT):
    """sum_t Z_t <= (1+BR) sum_k log(1 + lambda_k(C_n)/lam)  (eq. (21))."""
    p = seq.params
    lam = K.num(p["lam"])
    return sum(_Z(r) for r in run.learner.trace), (1 + K.num(p["B"]) * K.num(p["R"])) * _log_det_term(run, K, lam)


def equation_22_000(seq, run, theta, K=FLOAT):
    """sum_t Z_t <= d(1+BR) log(1 + n R^2 / (8 d (1+BR) lam))  (eq. (22))."""
    return sum(_Z(r) for r in run.learner.trace), _thm1_log_term(seq, K, K.num(seq.params["lam"]))


# --------------------------------------------------------------------------- seed 002
def _kappa(alpha, K):
    return K.exp(1 / (2 * (alpha - K.num(9) / 8)))


def _lin_regret_parts(seq, run, K):
    """sum_t g_t yhat_t and h_T = -sum_t g_t x_t."""
    X = K.arr(seq.X)
    G = run.extra["G"]
    alg = sum(g * yh for g, yh in zip(G, run.preds))
    h = K.zeros(X.shape[1])
    for g, x in zip(G, X):
        h = h - g * x
    return alg, h


def _maximise_1d(fn: Callable[[float], float], scale: float) -> float:
    """argmax over r >= 0 of a function that is eventually decreasing (grid on a log scale + golden search)."""
    grid = [0.0] + list(scale * np.logspace(-4, 6, 121))
    vals = [fn(r) for r in grid]
    i = int(np.argmax(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    phi = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a, b = hi - phi * (hi - lo), lo + phi * (hi - lo)
        if fn(a) >= fn(b):
            hi = b
        else:
            lo = a
    r = (lo + hi) / 2
    return r if fn(r) >= vals[i] else grid[i]


def worst_u_002_thm34(seq, run) -> np.ndarray:
    """The comparator maximising regret - bound of Theorem 3.4 (separable across coordinates)."""
    p = seq.params
    alpha, d, T = float(p["alpha"]), int(p["d"]), seq.n
    X = np.asarray(seq.X, float)
    G = np.asarray([float(g) for g in run.extra["G"]])
    h = -(G[:, None] * X).sum(0)
    s = np.sqrt((X * X).sum(0))
    u = np.zeros(d)
    for i in range(d):
        if s[i] == 0 or h[i] == 0:
            continue
        def f(r, i=i):
            return abs(h[i]) * r - r * s[i] * math.sqrt(alpha * math.log1p(alpha * d * d * T * T * r * r * s[i] * s[i]))
        u[i] = math.copysign(_maximise_1d(f, 1.0 / s[i]), h[i])
    return u


def theorem_3_4_002(seq, run, u, K=FLOAT):
    """regret_T(u) <= sum_i |u_i| s_{T,i} sqrt(alpha log(1 + alpha d^2 T^2 u_i^2 s_{T,i}^2)) + kappa(alpha)(1 + log T)."""
    p = seq.params
    alpha, d, T = K.num(p["alpha"]), K.num(p["d"]), K.num(seq.n)
    X = K.arr(seq.X)
    alg, h = _lin_regret_parts(seq, run, K)
    u = K.arr(u)
    rhs = _kappa(alpha, K) * (1 + K.log(T))
    for i in range(X.shape[1]):
        if u[i] == 0:  # the term is 0 (a coordinate the comparator does not use, e.g. one never observed)
            continue
        s = K.sqrt(sum(x[i] * x[i] for x in X))
        rhs += abs(u[i]) * s * K.sqrt(alpha * K.log(1 + alpha * d * d * T * T * u[i] * u[i] * s * s))
    return alg + h @ u, rhs


def lemma_3_3_002(seq, run, u, K=FLOAT):
    """Per trial and coordinate: g_t w_{t,i} x_{t,i} + psi_t(h_{t,i}, s_{t,i}) <= psi_{t-1}(h_{t-1,i}, s_{t-1,i}) + kappa/(t d)."""
    p = seq.params
    alpha, d = K.num(p["alpha"]), K.num(p["d"])
    X = K.arr(seq.X)
    kap = _kappa(alpha, K)

    def psi(t, h, s2):
        return K.exp(h * h / (2 * alpha * s2)) / (t * d) if s2 > 0 else K.num(0)

    pairs = []
    cols = _observed_columns(seq.X)
    for t0, (st, g) in enumerate(zip(run.extra["states"], run.extra["G"])):
        t = K.num(t0 + 1)
        x = X[t0]
        for i in cols:
            h_prev, s2_prev = st["h_prev"][i], st["s2_prev"][i]
            h_new, s2_new = h_prev - g * x[i], s2_prev + x[i] * x[i]
            lhs = g * st["w"][i] * x[i] + psi(t, h_new, s2_new)
            rhs = (psi(t - 1, h_prev, s2_prev) if t0 > 0 else K.num(0)) + kap / (t * d)
            pairs.append((lhs, rhs))
    return _worst_round(pairs)


def _observed_columns(X) -> list[int]:
    """The coordinates with some x_{t,i} != 0, and the first of the others: a coordinate never observed gives
    the same per-trial pair (0, kappa/(t d)) as every other such coordinate."""
    cols = list(range(len(X[0]))) if len(X) else []
    seen = {i for i in cols if any(row[i] != 0 for row in X)}
    first_unseen = next((i for i in cols if i not in seen), None)
    return sorted(seen | ({first_unseen} if first_unseen is not None else set()))


def _psi2(h, S_pinv, Gamma, alpha, K):
    """psi_t(h, S) = exp(1/(2 alpha) h^T S^+ h - Gamma_t), as printed in Section 4.2."""
    return K.exp(h @ S_pinv @ h / (2 * alpha) - Gamma)


def lemma_4_3_002(seq, run, u, K=FLOAT):
    """Per trial: g_t x_t^T w_t + psi_t(h_t, S_t) <= psi_{t-1}(h_{t-1}, S_{t-1}) with psi as printed."""
    alpha = K.num(seq.params["alpha"])
    states = run.extra["states"] + [{"S_prev": run.learner.S, "h_prev": run.learner.h, "Gamma_prev": run.learner.Gamma}]
    pairs = []
    for t in range(seq.n):
        a, b = states[t], states[t + 1]
        g = run.extra["G"][t]
        lhs = g * run.preds[t] + _psi2(b["h_prev"], K.pinv_sym(b["S_prev"]), b["Gamma_prev"], alpha, K)
        rhs = _psi2(a["h_prev"], K.pinv_sym(a["S_prev"]), a["Gamma_prev"], alpha, K)
        pairs.append((lhs, rhs))
    return _worst_round(pairs)


def lemma_4_4_002(seq, run, u, K=FLOAT):
    """sum_t x_t^T S_t^+ x_t <= r + (1+r) r / 2 log(1 + 2 sum_t ||x_t||^2 / ((1+r) r lambda*))."""
    X = K.arr(seq.X)
    d = X.shape[1]
    S = K.zeros((d, d))
    lhs, lam_star, sq = K.num(0), None, K.num(0)
    for x in X:
        S = S + np.outer(x, x)
        lhs += x @ K.pinv_sym(S) @ x
        sq += x @ x
        eig = [e for e in K.eigvalsh(S) if e > K.eps * 1e3 * (1 + max(K.eigvalsh(S)))]
        if eig:
            lam_star = min(eig) if lam_star is None else min(lam_star, min(eig))
    eig_T = K.eigvalsh(S)
    r = K.num(sum(1 for e in eig_T if e > K.eps * 1e3 * (1 + max(eig_T))))
    if lam_star is None or r == 0:
        return K.num(0), K.num(0)
    return lhs, r + (1 + r) * r / 2 * K.log(1 + 2 * sq / ((1 + r) * r * lam_star))


def worst_u_002_thm45(seq, run, corrected: bool = False) -> np.ndarray:
    """The comparator maximising regret - bound of Theorem 4.5: u = rho S^+ h / ||h||_{S^+} (Lemma 4.1)."""
    alpha = float(seq.params["alpha"])
    L = run.learner
    S_pinv = np.linalg.pinv(np.asarray(L.S, float), hermitian=True, rcond=1e-12)
    h = np.asarray(L.h, float)
    hn = math.sqrt(max(float(h @ S_pinv @ h), 0.0))
    Gamma = float(L.Gamma)
    if hn == 0:
        return np.zeros(len(h))
    def f(r):
        coef = 1.0 if corrected else math.log(alpha)
        return r * hn - r * math.sqrt(alpha * math.log1p(alpha * r * r) + coef * Gamma)
    rho = _maximise_1d(f, 1.0)
    return rho * (S_pinv @ h) / hn


def theorem_4_5_002(seq, run, u, K=FLOAT):
    """regret_T(u) <= ||u||_{S_T} sqrt(alpha log(1 + alpha ||u||_{S_T}^2) + log(alpha) Gamma_T) + 1."""
    alpha = K.num(seq.params["alpha"])
    alg, h = _lin_regret_parts(seq, run, K)
    u = K.arr(u)
    X = K.arr(seq.X)
    uS2 = sum((x @ u) ** 2 for x in X)
    return alg + h @ u, K.sqrt(uS2) * K.sqrt(alpha * K.log(1 + alpha * uS2) + K.log(alpha) * run.learner.Gamma) + 1


def theorem_4_5_corrected_002(seq, run, u, K=FLOAT):
    """Corrected variant: Gamma_T instead of log(alpha) Gamma_T (what the derivation of Section 4.2 gives)."""
    alpha = K.num(seq.params["alpha"])
    alg, h = _lin_regret_parts(seq, run, K)
    u = K.arr(u)
    X = K.arr(seq.X)
    uS2 = sum((x @ u) ** 2 for x in X)
    return alg + h @ u, K.sqrt(uS2) * K.sqrt(alpha * K.log(1 + alpha * uS2) + run.learner.Gamma) + 1


# --------------------------------------------------------------------------- seed 003
def _ftrl_regret(seq, run, w_cmp, K):
    X = [K.num(x[0]) for x in seq.X]
    D = K.num(seq.params["D"])
    w = K.num(w_cmp[0]) if hasattr(w_cmp, "__len__") else K.num(w_cmp)
    w = max(min(w, D), -D)
    alg = sum(K.softplus(x * wt) for x, wt in zip(X, run.extra["ws"]))
    return alg - sum(K.softplus(x * w) for x in X), w


def theorem_9_explicit_003(seq, run, w_cmp, K=FLOAT):
    """Regret_T <= 48 D log(T+1) + 24 D T^{1/3} + 480 D^3 T^{1/3} + D/16 T^{1/3}  (Section 5.3.3)."""
    D, T = K.num(seq.params["D"]), K.num(seq.n)
    c = T ** (K.num(1) / 3)
    regret, _ = _ftrl_regret(seq, run, w_cmp, K)
    return regret, 48 * D * K.log(T + 1) + 24 * D * c + 480 * D ** 3 * c + D / 16 * c


def theorem_9_vacuous_003(space) -> str:
    """Why Theorem 9's bound cannot be violated on ``space`` ("" if it can): any w_t, w in [-D, D] with |x| <= 1
    have regret <= 2 D T (the logistic loss is 1-Lipschitz in x w), and bound / (2 D T) grows with D and falls
    with T, so the bound exceeds that cap everywhere iff it does at the smallest D and the largest T tried."""
    D = space.param("D").lo
    n = space.param("n")
    T = max((n.hi, *n.probes))
    c = T ** (1 / 3)
    bound = 48 * D * math.log(T + 1) + 24 * D * c + 480 * D ** 3 * c + D / 16 * c
    if bound < 2 * D * T:
        return ""
    return (f"the bound exceeds 2 D T, the largest regret any learner can have, on every sequence the hunt can build "
            f"(at D = {D:g}, T = {T:g}: bound {bound:.4g} >= 2DT = {2 * D * T:.4g}; it falls below only for "
            f"T > (240 D^2)^(3/2) ~ {(240 * D * D) ** 1.5:.3g}): the hunt cannot fail, so it shows nothing")


def equation_13_003(seq, run, w_cmp, K=FLOAT):
    """Regret_T <= sum_t |y_t (w_t - w_{t+1})| + eta^{-1} D/16 <= sum_t |y_t (u_t - u_{t+1})| + D/16 T^{1/3}; worst of the two."""
    D, T = K.num(seq.params["D"]), K.num(seq.n)
    regret, _ = _ftrl_regret(seq, run, w_cmp, K)
    L, ws, us = run.learner, run.extra["ws"], run.extra["us"]
    ys = [L.surrogate(x[0], ws[t])[1] for t, x in enumerate(K.arr(seq.X))]
    c = T ** (K.num(1) / 3)
    first = sum(abs(y * (ws[t] - ws[t + 1])) for t, y in enumerate(ys)) + c * D / 16
    second = sum(abs(y * (us[t] - us[t + 1])) for t, y in enumerate(ys)) + D / 16 * c
    return _worst_round([(regret, first), (first, second)])


def _surrogate_min(seq, run, K):
    """min over [-D, D] of sum_t l~_t (a convex piecewise quadratic: two clipped vertices)."""
    L, ws = run.learner, run.extra["ws"]
    X = [K.num(x[0]) for x in seq.X]
    D = K.num(seq.params["D"])
    tot = {1: [K.num(0)] * 3, -1: [K.num(0)] * 3}
    for x, wt in zip(X, ws):
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
        cands = [K.num(0), s * D] + ([-b / (2 * a)] if a > 0 else [])
        for w in cands:
            if (s == 1 and 0 <= w <= D) or (s == -1 and -D <= w <= 0):
                v = a * w * w + b * w + k
                best = (v, w) if best is None or v < best[0] else best
    return best


def lemma_11_003(seq, run, w_cmp, K=FLOAT):
    """Regret on the logistic losses <= regret on the surrogates l~_t of eq. (4) (both against min over K)."""
    regret, _ = _ftrl_regret(seq, run, w_cmp, K)
    L, ws = run.learner, run.extra["ws"]
    surr_alg = sum(L.surrogate_value(x[0], wt, wt) for x, wt in zip(K.arr(seq.X), ws))
    return regret, surr_alg - _surrogate_min(seq, run, K)[0]


def lemma_13_003(seq, run, w_cmp, K=FLOAT):
    """FTL-BTL: sum f_t(w_t) - f_t(v) <= sum f_t'(w_t)(w_t - w_{t+1}) + eta^{-1}(R(v) - R(w_1)), worst v = w_{T+1}."""
    L, ws = run.learner, run.extra["ws"]
    D, T = K.num(seq.params["D"]), K.num(seq.n)
    eta_inv = T ** (K.num(1) / 3)
    X = [K.num(x[0]) for x in seq.X]
    v = ws[-1]
    lhs = sum(L.surrogate_value(x, wt, wt) - L.surrogate_value(x, wt, v) for x, wt in zip(X, ws))
    rhs = sum(L.surrogate(x, ws[t])[1] * (ws[t] - ws[t + 1]) for t, x in enumerate(X))
    rhs += eta_inv * (v * v - ws[0] * ws[0]) / (16 * D)
    return lhs, rhs


# --------------------------------------------------------------------------- the table
_B000 = {"d": 2, "n": 30, "B": 3.0, "R": 1.0, "lam": 0.5}
TARGETS: dict[str, Target] = {t.claim: t for t in [
    Target("000:theorem-1", "binary", "aioli", theorem_1_000, _B000, "ball-lam"),
    Target("000:equation-4", "binary", "aioli-b2", equation_4_000, {**_B000, "lam": None}, "ball"),
    Target("000:theorem-7", "binary", "aioli-eps", theorem_7_000, {**_B000, "eps": 1e-3}, "ball-lam"),
    Target("000:theorem-4", "binary", "aioli-alg2", theorem_4_000, {**_B000, "n": 20}, "ball-lam",
           note="Algorithm 2 run as Lemmas 2-3 define it (A_{t-1}, b_{t-1} of eq. (5)); the box's "
                "L_0 = lam^{-1/2} I and b_t without 1/2 are read as typos"),
    Target("000:lemma-10", "binary", "aioli", lemma_10_000, _B000, "none"),
    Target("000:theorem-7/b1-chain", "binary", "aioli", b1_chain_000, _B000, "none"),
    Target("000:theorem-7/b1-zt-bound", "binary", "aioli", b1_zt_bound_000, _B000, "none"),
    Target("000:equation-21", "binary", "aioli", equation_21_000, _B000, "none"),
    Target("000:equation-22", "binary", "aioli", equation_22_000, _B000, "none"),
    Target("002:theorem-3.4", "gradient", "si1", theorem_3_4_002, {"d": 2, "n": 30, "alpha": 1.5}, "free-34"),
    Target("002:lemma-3.3", "gradient", "si1", lemma_3_3_002, {"d": 2, "n": 30, "alpha": 1.5}, "none"),
    Target("002:lemma-4.3", "gradient", "si2", lemma_4_3_002, {"d": 2, "n": 30, "alpha": 1.5}, "none"),
    Target("002:lemma-4.4", "gradient", "none", lemma_4_4_002, {"d": 2, "n": 30, "alpha": 1.5}, "none"),
    Target("002:theorem-4.5", "gradient", "si2", theorem_4_5_002, {"d": 2, "n": 30, "alpha": 1.2}, "free-45"),
    Target("002:theorem-4.5/corrected", "gradient", "si2", theorem_4_5_corrected_002,
           {"d": 2, "n": 30, "alpha": 1.2}, "free-45c"),
    Target("003:theorem-9", "absorbed", "ftrl003", theorem_9_explicit_003, {"D": 2.0, "n": 60}, "interval",
           vacuous=theorem_9_vacuous_003),
    Target("003:theorem-9/explicit", "absorbed", "ftrl003", theorem_9_explicit_003, {"D": 2.0, "n": 60}, "interval",
           vacuous=theorem_9_vacuous_003),
    Target("003:equation-13", "absorbed", "ftrl003", equation_13_003, {"D": 2.0, "n": 60}, "interval"),
    Target("003:lemma-11", "absorbed", "ftrl003", lemma_11_003, {"D": 2.0, "n": 60}, "interval"),
    Target("003:lemma-13", "absorbed", "ftrl003", lemma_13_003, {"D": 2.0, "n": 60}, "none"),
]}


def comparator_for(target: Target, seq: Sequence, run: Run) -> Any:
    if target.comparator == "free-34":
        return worst_u_002_thm34(seq, run)
    if target.comparator in ("free-45", "free-45c"):
        return worst_u_002_thm45(seq, run, corrected=target.comparator == "free-45c")
    return comparator(target, seq, run)


def needs_trace(target: Target) -> bool:
    """Whether the bound reads the learner's per-round quantities (a planted variant: its original's)."""
    bound = getattr(target.bound, "wraps", target.bound)
    return bound in (lemma_10_000, b1_chain_000, b1_zt_bound_000, equation_21_000, equation_22_000)


def evaluate(target: Target, seq: Sequence, K=FLOAT, cmp: Any = None) -> tuple:
    """(lhs, rhs) of the target's claim on one fixed sequence (comparator chosen worst-case unless given)."""
    trace = needs_trace(target)
    run = run_learner(target, seq, K, trace=trace)
    if cmp is None:
        cmp = comparator_for(target, seq, run) if K is FLOAT else None
    return target.bound(seq, run, cmp, K)


def evaluate_full(target: Target, seq: Sequence) -> tuple:
    """(lhs, rhs, comparator) in float64: what a candidate artefact stores."""
    trace = needs_trace(target)
    run = run_learner(target, seq, FLOAT, trace=trace)
    cmp = comparator_for(target, seq, run)
    lhs, rhs = target.bound(seq, run, cmp, FLOAT)
    return float(lhs), float(rhs), cmp


def with_defaults(target: Target, params: dict | None = None) -> dict:
    p = {**target.defaults, **(params or {})}
    if target.learner == "aioli-b2":
        p["lam"] = 1.0 / float(p["B"]) ** 2
    return p


def lemma_4_3_corrected_002(seq, run, u, K=FLOAT):
    """Lemma 4.3 with the potential the proof uses: psi_t = exp((h^T S^+ h - Gamma_t) / (2 alpha)) (eq. (10))."""
    alpha = K.num(seq.params["alpha"])
    states = run.extra["states"] + [{"S_prev": run.learner.S, "h_prev": run.learner.h, "Gamma_prev": run.learner.Gamma}]

    def psi(st):
        return K.exp((st["h_prev"] @ K.pinv_sym(st["S_prev"]) @ st["h_prev"] - st["Gamma_prev"]) / (2 * alpha))

    return _worst_round([(run.extra["G"][t] * run.preds[t] + psi(states[t + 1]), psi(states[t]))
                         for t in range(seq.n)])


TARGETS["002:lemma-4.3/corrected"] = Target("002:lemma-4.3/corrected", "gradient", "si2", lemma_4_3_corrected_002,
                                            {"d": 2, "n": 30, "alpha": 1.5}, "none")

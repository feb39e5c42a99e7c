"""Scale-invariant unconstrained learners — seed 002 (Kotłowski), Algorithm 1 (eq. (5)) and Algorithm 2 (eq. (7)).

Linearised-loss protocol (§2, eq. (1)): the learner predicts ŷ_t = w_tᵀx_t and is then fed a subderivative
g_t = ∂_ŷ ℓ(y_t, ŷ_t) with |g_t| ≤ 1 (``update_gradient(x, g)``); ``update(x, y)`` feeds the logistic one,
g_t = −y_t/(1 + e^{y_t ŷ_t}). No bound on x is required (R is optional); α > 9/8 is the box parameter.

Algorithm 1 (coordinate-wise, O(d)): after s²_{t,i} = s²_{t−1,i} + x²_{t,i},
    w_{t,i} = η_{t,i} h_{t−1,i}/s²_{t,i},   η_{t,i} = (1/(α t d)) exp((h²_{t−1,i} + x²_{t,i})/(2α s²_{t,i})),
and w_{t,i} = 0 when s²_{t,i} = 0; then h_{t,i} = h_{t−1,i} − g_t x_{t,i}.

Algorithm 2 (full, O(d²)): after S_t = S_{t−1} + x_t x_tᵀ,
    w_t = η_t S_t†h_{t−1},   η_t = (1/α) exp((h_{t−1}ᵀS_t†h_{t−1} − Γ_{t−1})/(2α)),
then h_t = h_{t−1} − g_t x_t, Γ_t = Γ_{t−1} + g_t² x_tᵀS_t†x_t. S_t† is kept by the rank-one pseudo-inverse
update of App. E (Campbell–Meyer / Chen–Ji): with P the orthogonal projector onto range(S_{t−1}),
x_⊥ = (I − P)x_t, β = 1 + x_tᵀS_{t−1}†x_t,
    x_⊥ = 0:  S_t† = S† − S†x xᵀS†/β;     x_⊥ ≠ 0:  S_t† = S† − (S†x x_⊥ᵀ + x_⊥ xᵀS†)/‖x_⊥‖² + β x_⊥x_⊥ᵀ/‖x_⊥‖⁴.
The paper gives no tolerance for "x_⊥ = 0"; we use ‖x_⊥‖ ≤ 1e-9‖x_t‖ (after one re-orthogonalisation
against P), which does not change under x ↦ cx. Both algorithms evaluate the exponential weights in log
space; a prediction that truly exceeds the float range raises OverflowError rather than returning inf.

``state()`` keys — Alg. 1: ``w`` (= ``theta_hat``, the weights of the last prediction), ``s2``, ``h``, ``t``,
``alpha``; Alg. 2: ``w`` (= ``theta_hat``), ``S``, ``S_pinv``, ``h``, ``Gamma``, ``t``, ``alpha``.
"""
from __future__ import annotations

import math

import numpy as np

from ._base import OnlineLearner, check_dimension, check_positive, check_vector, sigmoid
from ._extend import check_extension, pad_matrix, pad_vector
from ._threads import single_threaded_blas

_MAX_LOG = 709.0


def _check_alpha(alpha) -> float:
    a = check_positive("alpha", alpha)
    if a <= 9.0 / 8.0:
        raise ValueError(f"alpha must be > 9/8 (both boxes of seed 002), got {alpha!r}")
    return a


def _check_gradient(g) -> float:
    try:
        v = float(g)
    except (TypeError, ValueError):
        raise ValueError(f"g must be a real number in [-1, 1], got {g!r}") from None
    if not math.isfinite(v) or abs(v) > 1.0:
        raise ValueError(f"g must be a finite subderivative with |g| <= 1 (L = 1), got {g!r}")
    return v


class _LinearisedLearner(OnlineLearner):
    def update(self, x, y) -> None:
        from ._base import check_label

        xv = check_vector(x, self.d, self.R)
        y = check_label(y)
        with single_threaded_blas:
            yhat = self._predict(xv)
            self._learn(xv, -y * sigmoid(-y * yhat))

    def update_gradient(self, x, g) -> None:
        """Linearised protocol: feed g_t = ∂_ŷ ℓ(y_t, ŷ_t), |g_t| ≤ 1."""
        xv = check_vector(x, self.d, self.R)
        g = _check_gradient(g)
        with single_threaded_blas:
            self._predict(xv)
            self._learn(xv, g)

    def _update(self, x, y):
        self._learn(x, -y * sigmoid(-y * self._predict(x)))


class ScaleInvariantCoordinatewise(_LinearisedLearner):
    """Seed 002 Algorithm 1 (eq. (5)): ScaleInvariantCoordinatewise(d, alpha=1.5, R=None)."""

    def __init__(self, d, alpha=1.5, R=None):
        self.d = check_dimension(d)
        self.alpha = _check_alpha(alpha)
        self.R = None if R is None else check_positive("R", R)
        self._s2 = np.zeros(self.d)
        self._h = np.zeros(self.d)
        self._w = np.zeros(self.d)
        self.t = 0

    def _weights(self, x):
        s2 = self._s2 + x * x
        h = self._h
        w = np.zeros(self.d)
        on = (s2 > 0.0) & (h != 0.0)
        if on.any():
            a, t = self.alpha, self.t + 1
            logw = ((h[on] ** 2 + x[on] ** 2) / (2.0 * a * s2[on]) - math.log(a * t * self.d)
                    + np.log(np.abs(h[on])) - np.log(s2[on]))
            if logw.max() > _MAX_LOG:
                raise OverflowError("Algorithm 1 weight exceeds the float64 range (exp((h²+x²)/(2αs²)) too large)")
            w[on] = np.sign(h[on]) * np.exp(logw)
        return w, s2

    def _predict(self, x):
        w, _ = self._weights(x)
        yhat = float(w @ x)
        if not math.isfinite(yhat):
            raise OverflowError("Algorithm 1 prediction exceeds the float64 range")
        self._w = w
        return yhat

    def _learn(self, x, g):
        self._s2 = self._s2 + x * x
        self._h = self._h - g * x
        self.t += 1

    def state(self) -> dict:
        return {"w": self._w.copy(), "theta_hat": self._w.copy(), "s2": self._s2.copy(), "h": self._h.copy(),
                "t": self.t, "alpha": self.alpha}


def pinv_rank_one_update(S_pinv, P, x, tol=1e-9):
    """(S_t†, P_t) from (S_{t−1}†, P_{t−1}) and x_t for S_t = S_{t−1} + x xᵀ (seed 002 App. E)."""
    nx = math.sqrt(float(x @ x))
    if nx == 0.0:
        return S_pinv.copy(), P.copy()
    xp = x - P @ x
    xp = xp - P @ xp
    p = S_pinv @ x
    beta = 1.0 + float(x @ p)
    n2 = float(xp @ xp)
    if math.sqrt(n2) <= tol * nx:
        return S_pinv - np.outer(p, p) / beta, P.copy()
    Sn = S_pinv - (np.outer(p, xp) + np.outer(xp, p)) / n2 + beta * np.outer(xp, xp) / (n2 * n2)
    return 0.5 * (Sn + Sn.T), P + np.outer(xp, xp) / n2


class ScaleInvariantFull(_LinearisedLearner):
    """Seed 002 Algorithm 2 (eq. (7)): ScaleInvariantFull(d, alpha=1.5, R=None, tol=1e-9)."""

    def __init__(self, d, alpha=1.5, R=None, tol=1e-9):
        self.d = check_dimension(d)
        self.alpha = _check_alpha(alpha)
        self.R = None if R is None else check_positive("R", R)
        self.tol = check_positive("tol", tol)
        self._S = np.zeros((self.d, self.d))
        self._Sp = np.zeros((self.d, self.d))
        self._P = np.zeros((self.d, self.d))
        self._h = np.zeros(self.d)
        self._Gamma = 0.0
        self._w = np.zeros(self.d)
        self.t = 0
        self._pending = None

    def _next(self, x):
        if self._pending is not None and np.array_equal(self._pending[0], x):
            return self._pending[1], self._pending[2]
        Sp, P = pinv_rank_one_update(self._Sp, self._P, x, self.tol)
        self._pending = (x.copy(), Sp, P)
        return Sp, P

    def _predict(self, x):
        Sp, _ = self._next(x)
        Sh = Sp @ self._h
        q = float(x @ Sh)
        log_eta = (float(self._h @ Sh) - self._Gamma) / (2.0 * self.alpha) - math.log(self.alpha)
        if q == 0.0:  # ŷ = 0 (x_t ⟂ S_t†h_t, e.g. x_1ᵀS†x_0 = 0 when S spans x_0, x_1), but w_t = η_t S_t†h_t stays
            self._w = math.exp(log_eta) * Sh if log_eta <= _MAX_LOG else np.zeros(self.d)
            return 0.0
        if log_eta + math.log(abs(q)) > _MAX_LOG:
            raise OverflowError("Algorithm 2 prediction exceeds the float64 range (η_t too large)")
        eta = math.exp(log_eta)
        self._w = eta * Sh
        return eta * q

    def _learn(self, x, g):
        Sp, P = self._next(x)
        self._Gamma += g * g * float(x @ Sp @ x)
        self._S = self._S + np.outer(x, x)
        self._Sp, self._P = Sp, P
        self._h = self._h - g * x
        self._pending = None
        self.t += 1

    def extend(self, k) -> None:
        """Add k input coordinates exactly: S, S†, the projector P get a zero border, h and w zeros."""
        k = check_extension(k)
        self._S, self._Sp, self._P = (pad_matrix(M, k, 0.0) for M in (self._S, self._Sp, self._P))
        self._h, self._w = pad_vector(self._h, k), pad_vector(self._w, k)
        self._pending = None
        self.d += k

    def state(self) -> dict:
        return {"w": self._w.copy(), "theta_hat": self._w.copy(), "S": self._S.copy(), "S_pinv": self._Sp.copy(),
                "h": self._h.copy(), "Gamma": self._Gamma, "t": self.t, "alpha": self.alpha}

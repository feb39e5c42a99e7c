"""Semi-Online Step (SOS) — seed 004, Algorithm 1. RECONSTRUCTED: every formula of the box is lost in the seed.

What the seed keeps (transcription §2.2-2.3, §2.7): SOS is derived from the first-order condition of FTL via a
Taylor approximation; "the matrix in SOS is recomputed at each step because the Hessian has to be computed at
the current estimate θ̂_t"; a regularisation matrix "guarantees the positive definiteness"; step t costs a
recursion of t rank-one updates (O(t d²)); the box is "compute the matrix ..., update θ̂ ...".

Reconstruction (ours, marked as such in the report): linearising Σ_{s≤t} ∇ℓ_s(θ_{t+1}) = 0 around θ̂_t and using
Σ_{s<t} ∇ℓ_s(θ̂_t) ≈ 0 gives

    P_{t+1} = (P_1⁻¹ + Σ_{s=1}^{t} ℓ''(θ̂_tᵀx_s) x_s x_sᵀ)⁻¹,    θ̂_{t+1} = θ̂_t + P_{t+1} x_t y_t/(1 + e^{y_t θ̂_tᵀx_t}),

with ℓ''(z) = σ(z)σ(−z) and P_1⁻¹ the regularisation matrix (default P_1 = I). It differs from the EKF only in
re-evaluating every past curvature at the current θ̂_t, as the seed's prose says. O(t d² + d³) per round.
``state()`` keys: ``theta_hat``, ``P`` (P_{t}, the last matrix computed), ``t``.
"""
from __future__ import annotations

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from scipy.special import expit

from ._base import OnlineLearner, check_dimension, check_positive, sigmoid


class SOS(OnlineLearner):
    """SOS(d, P1=None, R=None): reconstructed Semi-Online Step of seed 004 (see module docstring)."""

    def __init__(self, d, P1=None, R=None):
        self.d = check_dimension(d)
        self.R = None if R is None else check_positive("R", R)
        P1 = np.eye(self.d) if P1 is None else np.array(P1, dtype=float)
        if P1.shape != (self.d, self.d) or not np.isfinite(P1).all() or not np.allclose(P1, P1.T) \
                or np.linalg.eigvalsh(0.5 * (P1 + P1.T)).min() <= 0:
            raise ValueError(f"P1 must be a finite symmetric positive definite ({self.d}, {self.d}) matrix")
        self._P1inv = np.linalg.inv(0.5 * (P1 + P1.T))
        self._P = 0.5 * (P1 + P1.T)
        self._theta = np.zeros(self.d)
        self._X = np.empty((0, self.d))
        self.t = 0

    def _predict(self, x):
        return float(self._theta @ x)

    def _update(self, x, y):
        self._X = np.vstack([self._X, x])
        z = self._X @ self._theta
        w = expit(z) * expit(-z)
        Pinv = self._P1inv + self._X.T @ (w[:, None] * self._X)
        cf = cho_factor(Pinv)
        yhat = float(self._theta @ x)
        self._theta = self._theta + cho_solve(cf, x) * (y * sigmoid(-y * yhat))
        self._P = cho_solve(cf, np.eye(self.d))
        self.t += 1

    def state(self) -> dict:
        return {"theta_hat": self._theta.copy(), "P": self._P.copy(), "t": self.t}

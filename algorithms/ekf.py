"""Extended Kalman Filter for logistic regression — seed 004 (de Vilmarest, Wintenberger), Algorithm 2 (static
EKF, constant dynamics Q_t = 0) and the truncated EKF of the follow-up work (004 transcription §4.1).

The seed's formulas are lost; the recursion is the one restored in the transcription (§2.5, [R-slides p.21/34]):

    P_{t+1}⁻¹ = P_t⁻¹ + α_t x_t x_tᵀ,     θ̂_{t+1} = θ̂_t + P_{t+1} x_t y_t/(1 + e^{y_t θ̂_tᵀx_t}),
    static:     α_t = ℓ''_t = 1/((1 + e^{θ̂_tᵀx_t})(1 + e^{−θ̂_tᵀx_t})) = σ(ŷ_t)σ(−ŷ_t),
    truncated:  α_t = max(ℓ''_t, 1/t^β),  0 < β < ½  (Bercu, Godichon-Baggioni, Portier 2019),

computed "avoiding any inversion of matrices" with Sherman–Morrison (eq. (2)):
P_{t+1} = P_t − α_t P_t x_t x_tᵀP_t/(1 + α_t x_tᵀP_t x_t) (transcription §2.6, note for implementers).
P_t is kept as its upper triangle in a Fortran-ordered array and updated in place by BLAS (``dsymv`` for P_t x_t,
``dsyr`` for the rank-one step): symmetric by construction and O(d²) per round with no d×d temporaries.
Symbols → arguments: P_1 → ``P1`` (default I), θ̂_1 → ``theta1`` (default 0), β → ``beta``. R is optional.
``state()`` keys: ``theta_hat`` (θ̂_t, to be played next), ``P`` (P_t), ``t``, plus ``beta`` when truncated.
"""
from __future__ import annotations

import numpy as np
from scipy.linalg.blas import dsymv, dsyr

from ._base import OnlineLearner, check_dimension, check_positive, check_vector, sigmoid
from ._extend import check_extension, pad_matrix, pad_vector


class EKF(OnlineLearner):
    """EKF(d, P1=None, theta1=None, R=None): static Extended Kalman Filter (seed 004 Algorithm 2)."""

    def __init__(self, d, P1=None, theta1=None, R=None):
        self.d = check_dimension(d)
        self.R = None if R is None else check_positive("R", R)
        if P1 is None:
            P = np.eye(self.d)
        else:
            P = np.array(P1, dtype=float)
            if P.shape != (self.d, self.d) or not np.isfinite(P).all():
                raise ValueError(f"P1 must be a finite ({self.d}, {self.d}) matrix")
            if not np.allclose(P, P.T) or np.linalg.eigvalsh(0.5 * (P + P.T)).min() <= 0:
                raise ValueError("P1 must be symmetric positive definite")
            P = 0.5 * (P + P.T)
        self._P = np.asfortranarray(P)  # only the upper triangle is read and written
        self._theta = np.zeros(self.d) if theta1 is None else check_vector(theta1, self.d, None, "theta1").copy()
        self.t = 0

    def _weight(self, yhat: float) -> float:
        return sigmoid(yhat) * sigmoid(-yhat)

    def _predict(self, x):
        return float(self._theta @ x)

    def _update(self, x, y):
        yhat = float(self._theta @ x)
        self.t += 1
        alpha = self._weight(yhat)
        Px = dsymv(1.0, self._P, x)
        den = 1.0 + alpha * float(x @ Px)
        self._P = dsyr(-alpha / den, Px, a=self._P, overwrite_a=1)
        self._theta = self._theta + (y * sigmoid(-y * yhat) / den) * Px  # P_{t+1}x = P_t x/den

    def extend(self, k, p1: float = 1.0) -> None:
        """Add k input coordinates: P gets p1 on the new diagonal (exact when P_1 = p1·I), θ̂ zeros."""
        k = check_extension(k)
        self._P = np.asfortranarray(pad_matrix(self._full_P(), k, check_positive("p1", p1)))
        self._theta = pad_vector(self._theta, k)
        self.d += k

    def _full_P(self) -> np.ndarray:
        upper = np.triu(self._P)
        return upper + np.triu(upper, 1).T

    def state(self) -> dict:
        return {"theta_hat": self._theta.copy(), "P": self._full_P(), "t": self.t}


class TruncatedEKF(EKF):
    """TruncatedEKF(d, beta, P1=None, theta1=None, R=None): weight max(ℓ''_t, 1/t^β), 0 < β < ½."""

    def __init__(self, d, beta, P1=None, theta1=None, R=None):
        beta = check_positive("beta", beta)
        if beta >= 0.5:
            raise ValueError(f"beta must be in (0, 1/2), got {beta!r}")
        self.beta = beta
        super().__init__(d, P1=P1, theta1=theta1, R=R)

    def _weight(self, yhat: float) -> float:
        return max(sigmoid(yhat) * sigmoid(-yhat), self.t ** (-self.beta))

    def state(self) -> dict:
        s = super().state()
        s["beta"] = self.beta
        return s

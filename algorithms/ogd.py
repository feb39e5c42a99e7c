"""Projected Online Gradient Descent — seed 000 §1 ("OGD [Zinkevich, 2003]", regret O(B√n), Table 1).

Seed 000 prints no update rule or step size; we use Zinkevich (2003), "Online convex programming and
generalized infinitesimal gradient ascent", with the step of the issue, η_t = B/(R√t):

    θ_1 = 0,    ŷ_t = θ_tᵀx_t,    g_t = −y_t σ(−y_t ŷ_t) x_t,    θ_{t+1} = Π_B(θ_t − η_t g_t),

Π_B the Euclidean projection onto the ball ‖θ‖ ≤ B (θ ↦ θ·min(1, B/‖θ‖)). ‖g_t‖ ≤ R, so with D = 2B the
standard analysis gives regret ≤ (D²/(2η_T) + (G²/2)Σ η_t) = O(BR√n). O(d) per round.
``state()`` keys: ``theta_hat`` (θ_t, to be played next), ``t``, ``B``, ``R``.
"""
from __future__ import annotations

import math

import numpy as np

from ._base import OnlineLearner, check_dimension, check_positive, sigmoid
from ._extend import check_extension, pad_vector


class OGD(OnlineLearner):
    """OGD(d, B, R): projected online gradient descent with step B/(R√t) on the B-ball."""

    def __init__(self, d, B, R):
        self.d = check_dimension(d)
        self.B = check_positive("B", B)
        self.R = check_positive("R", R)
        self._theta = np.zeros(self.d)
        self.t = 0

    def _predict(self, x):
        return float(self._theta @ x)

    def _update(self, x, y):
        self.t += 1
        yhat = float(self._theta @ x)
        eta = self.B / (self.R * math.sqrt(self.t))
        theta = self._theta + (eta * y * sigmoid(-y * yhat)) * x  # θ − η g
        nrm = math.sqrt(float(theta @ theta))
        if nrm > self.B:
            theta *= self.B / nrm
        self._theta = theta

    def extend(self, k) -> None:
        """Add k input coordinates exactly (θ gets zeros)."""
        self._theta = pad_vector(self._theta, check_extension(k))
        self.d += int(k)

    def state(self) -> dict:
        return {"theta_hat": self._theta.copy(), "t": self.t, "B": self.B, "R": self.R}

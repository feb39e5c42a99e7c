"""FTL on the B-ball — Follow The Leader with the true logistic losses (seed 000 §1 Table 1 context; seed 004
eq. (1) calls the batch maximum-likelihood estimator "Follow The Leader").

    θ_t = argmin_{‖θ‖ ≤ B}  Σ_{s<t} ℓ(θᵀx_s, y_s),      ŷ_t = θ_tᵀx_t,     θ_1 = 0.

No paper here prints a tie-breaking rule: when the minimiser is not unique (t = 1, or fewer independent x_s
than d) we return the limit of the Tikhonov path θ(μ) = argmin Σℓ + μ‖θ‖², μ → 0⁺ (computed at
μ = 1e-12·(1 + Σ‖x_s‖²)), i.e. the minimum-norm minimiser up to that regularisation; otherwise the exact
constrained minimiser (see ``algorithms.ftrl`` for the solver). ``state()``: ``theta_hat``, ``t``, ``B``, ``mu``.
"""
from __future__ import annotations

from ._base import check_dimension, check_positive
from .ftrl import FTRL


class FTL(FTRL):
    """FTL(d, B, R=None): θ_t = argmin over the B-ball of the past logistic losses (λ = 0)."""

    def __init__(self, d, B, R=None):
        self.d = check_dimension(d)
        self.lam = 0.0
        self.B = check_positive("B", B)
        self.R = None if R is None else check_positive("R", R)
        self._init_history()

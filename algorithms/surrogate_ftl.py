"""Surrogate FTL — seed 000, eq. (11): θ_t = argmin_θ L̂_{t−1}(θ) = A_{t−1}⁻¹ b_{t−1} (App. B, display after (14)).

The proper forecaster that plays the minimiser of the cumulative quadratic surrogates of eq. (2) plus λ‖θ‖²,
without AIOLI's improper terms ℓ(θᵀx_t, ±1). Its surrogates are built at its own predictions θ̂_s = θ_s, with
η_s = e^{y_s ŷ_s}/(1+BR); A_t, b_t are eq. (5). Same O(d²) Sherman–Morrison machinery as ``algorithms.aioli``
(one dsymv + one dsyr per round). ``state()`` keys are AIOLI's; here ``theta_hat == theta`` (before the update).
"""
from __future__ import annotations

from .aioli import AIOLI


class SurrogateFTL(AIOLI):
    """SurrogateFTL(d, B, R, lam=1/B²): predicts ŷ_t = θ_tᵀx_t with θ_t = A_{t−1}⁻¹b_{t−1} (eq. (11))."""

    _proper = True

    def __init__(self, d, B, R, lam=None):
        super().__init__(d, B, R, lam=lam, inner_steps=None)

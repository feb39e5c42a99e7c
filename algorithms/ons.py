"""Online Newton Step — Hazan, Agarwal, Kale (2007), "Logarithmic regret algorithms for online convex
optimization", Algorithm 2 (cited by seed 000 §1/§3.1 with regret O(d e^B log n), Table 1: nd³).

Seed 000 prints no update rule; the published one is, with K = B(ℝ^d, B), D = 2B its diameter, G = R a bound
on ‖∇ℓ_t‖ and α = e^{−BR} the exp-concavity of θ ↦ log(1+e^{−yθᵀx}) on K (ℓ''/ℓ'² = e^{yθᵀx} ≥ e^{−BR}):

    γ = ½ min(1/(4GD), α),    ε = 1/(γ²D²),    A_0 = εI,    θ_1 = 0,    ŷ_t = θ_tᵀx_t,
    ∇_t = −y_t σ(−y_t ŷ_t) x_t,    A_t = A_{t−1} + ∇_t∇_tᵀ,
    θ_{t+1} = Π_K^{A_t}(θ_t − (1/γ) A_t⁻¹ ∇_t),    Π_K^{A}(u) = argmin_{‖θ‖≤B} (θ − u)ᵀA(θ − u).

The generalised projection: if ‖u‖ ≤ B it is u; otherwise KKT gives θ(μ) = (A + μI)⁻¹A u with ‖θ(μ)‖ = B,
μ > 0, solved in the eigenbasis of A (‖θ(μ)‖ decreases in μ; Brent's method to machine precision) — O(d³)
on rounds where the step leaves the ball, O(d²) otherwise (A⁻¹ by Sherman–Morrison).
``gamma`` and ``eps`` can be overridden. ``state()`` keys: ``theta_hat``, ``A``, ``A_inv``, ``t``, ``gamma``,
``eps``, ``B``, ``R``.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from ._base import OnlineLearner, check_dimension, check_positive, sigmoid
from ._extend import check_extension, pad_matrix, pad_vector


def project_A_norm(u, A, B) -> np.ndarray:
    """argmin_{‖θ‖ ≤ B} (θ − u)ᵀA(θ − u) for symmetric positive definite A."""
    u = np.asarray(u, dtype=float)
    if math.sqrt(float(u @ u)) <= B:
        return u.copy()
    lam, Q = np.linalg.eigh(A)
    w = Q.T @ u

    def gap(mu):
        return math.sqrt(float(np.sum((lam * w / (lam + mu)) ** 2))) - B

    mu_hi = float(lam.max()) * math.sqrt(float(w @ w)) / B
    mu = brentq(gap, 0.0, mu_hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    theta = Q @ (lam * w / (lam + mu))
    nrm = math.sqrt(float(theta @ theta))
    return theta * (B / nrm) if nrm > B else theta


class ONS(OnlineLearner):
    """ONS(d, B, R, gamma=None, eps=None): Online Newton Step on the B-ball (Hazan et al. 2007)."""

    def __init__(self, d, B, R, gamma=None, eps=None):
        self.d = check_dimension(d)
        self.B = check_positive("B", B)
        self.R = check_positive("R", R)
        D, G, alpha = 2.0 * self.B, self.R, math.exp(-self.B * self.R)
        if gamma is None and alpha == 0.0:
            raise ValueError(f"B*R = {self.B * self.R!r} is too large: exp(-B R) underflows; pass gamma explicitly")
        self.gamma = 0.5 * min(1.0 / (4.0 * G * D), alpha) if gamma is None else check_positive("gamma", gamma)
        self.eps = 1.0 / (self.gamma ** 2 * D ** 2) if eps is None else check_positive("eps", eps)
        self._A = np.eye(self.d) * self.eps
        self._Ainv = np.eye(self.d) / self.eps
        self._theta = np.zeros(self.d)
        self.t = 0

    def _predict(self, x):
        return float(self._theta @ x)

    def _update(self, x, y):
        yhat = float(self._theta @ x)
        grad = (-y * sigmoid(-y * yhat)) * x
        self._A += np.outer(grad, grad)
        v = self._Ainv @ grad
        self._Ainv -= np.outer(v, v) / (1.0 + float(grad @ v))
        self._Ainv = 0.5 * (self._Ainv + self._Ainv.T)
        u = self._theta - self._Ainv @ grad / self.gamma
        self._theta = project_A_norm(u, self._A, self.B)
        self.t += 1

    def extend(self, k) -> None:
        """Add k input coordinates exactly: A gets ε, A⁻¹ 1/ε on the new diagonal, θ zeros."""
        k = check_extension(k)
        self._A = pad_matrix(self._A, k, self.eps)
        self._Ainv = pad_matrix(self._Ainv, k, 1.0 / self.eps)
        self._theta = pad_vector(self._theta, k)
        self.d += k

    def state(self) -> dict:
        return {"theta_hat": self._theta.copy(), "A": self._A.copy(), "A_inv": self._Ainv.copy(), "t": self.t,
                "gamma": self.gamma, "eps": self.eps, "B": self.B, "R": self.R}

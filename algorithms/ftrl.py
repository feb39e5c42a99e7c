"""FTRL with the true logistic losses — seed 000 §2 ("FTRL [McMahan, 2011]", §5 with ℓ2-regularization, λ = 1).

Seed 000 prints no update rule for FTRL and does not say whether it is constrained; we use the standard
definition (McMahan 2011, "Follow-the-regularized-leader and mirror descent", with the ℓ2 regulariser):

    θ_t = argmin_{θ ∈ Θ}  F_t(θ),      F_t(θ) = Σ_{s<t} ℓ(θᵀx_s, y_s) + λ‖θ‖²,      ŷ_t = θ_tᵀx_t,

with Θ = ℝ^d (``B=None``) or Θ = B(ℝ^d, B). Symbols → arguments: λ → ``lam`` (default 1, as in §5), B → ``B``.
FTL (``algorithms.ftl``) is the case λ = 0 on the B-ball.

Solver: damped Newton (Cholesky, backtracking on F_t) warm-started at the previous θ, stopped when the Newton
step is below 1e-14(1 + ‖θ‖), i.e. at machine precision. When the unconstrained minimiser leaves the ball,
the KKT conditions give θ(μ) = argmin F_t + μ‖θ‖² with ‖θ(μ)‖ = B, μ > 0; ‖θ(μ)‖ decreases in μ and μ is
found by Brent's method on ‖θ(μ)‖ − B. Cost O(t d² + d³) per Newton step: FTRL has no incremental form.

``state()`` keys: ``theta_hat`` (= θ_t), ``t``, ``lam``, ``B``, ``mu`` (multiplier of the ball constraint, 0 if
inactive). Objective helpers for references: ``ftrl_objective``, ``ftrl_gradient``, ``ftrl_hessian``,
``regularized_leader``.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from scipy.optimize import brentq
from scipy.special import expit

from ._base import OnlineLearner, check_dimension, check_positive
from ._extend import check_extension, pad_rows, pad_vector


def ftrl_objective(theta, X, Y, lam) -> float:
    """F(θ) = Σ_s log(1 + exp(−y_s θᵀx_s)) + λ‖θ‖² (stable for any margin)."""
    theta = np.asarray(theta, dtype=float)
    m = np.asarray(Y, dtype=float) * (np.asarray(X, dtype=float).reshape(-1, theta.size) @ theta)
    return float(np.logaddexp(0.0, -m).sum() + lam * theta @ theta)


def ftrl_gradient(theta, X, Y, lam) -> np.ndarray:
    """∇F(θ) = −Σ_s y_s σ(−y_s θᵀx_s) x_s + 2λθ."""
    X = np.asarray(X, dtype=float).reshape(-1, np.size(theta))
    Y = np.asarray(Y, dtype=float)
    m = Y * (X @ theta)
    return -(X.T @ (Y * expit(-m))) + 2.0 * lam * np.asarray(theta, dtype=float)


def ftrl_hessian(theta, X, Y, lam) -> np.ndarray:
    """∇²F(θ) = Σ_s σ(m_s)σ(−m_s) x_s x_sᵀ + 2λI."""
    X = np.asarray(X, dtype=float).reshape(-1, np.size(theta))
    m = np.asarray(Y, dtype=float) * (X @ theta)
    w = expit(m) * expit(-m)
    return X.T @ (w[:, None] * X) + 2.0 * lam * np.eye(X.shape[1])


def _newton(X, Y, reg, theta0):
    """argmin Σ ℓ + reg‖θ‖² (reg > 0) by damped Newton to machine precision.

    Backtracking (Armijo) on F while the Newton decrement is large; once it is below 1e-10(1 + |F|) the full
    step is taken (F can no longer resolve the progress, but the quadratic convergence of Newton does).
    """
    theta = np.array(theta0, dtype=float)
    f = ftrl_objective(theta, X, Y, reg)
    for _ in range(200):
        g = ftrl_gradient(theta, X, Y, reg)
        step = cho_solve(cho_factor(ftrl_hessian(theta, X, Y, reg)), g)
        dec = float(g @ step)
        alpha = 1.0
        if dec > 1e-10 * (1.0 + abs(f)):
            while alpha > 1e-12:
                fc = ftrl_objective(theta - alpha * step, X, Y, reg)
                if fc <= f - 1e-4 * alpha * dec:
                    break
                alpha *= 0.5
        theta = theta - alpha * step
        f = ftrl_objective(theta, X, Y, reg)
        if alpha * math.sqrt(float(step @ step)) <= 1e-14 * (1.0 + math.sqrt(float(theta @ theta))):
            break
    return theta


def regularized_leader(X, Y, lam, B=None, theta0=None) -> tuple[np.ndarray, float]:
    """(θ, μ): the minimiser of Σ ℓ(θᵀx_s, y_s) + λ‖θ‖² over ℝ^d (B None) or ‖θ‖ ≤ B, and its multiplier μ.

    λ = 0 requires B (FTL); if then the minimiser set is not a single point, the limit of the Tikhonov path
    (up to μ = 1e-12 · scale) is returned.
    """
    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y, dtype=float)
    d = X.shape[1]
    theta0 = np.zeros(d) if theta0 is None else np.asarray(theta0, dtype=float)
    if X.shape[0] == 0:
        return np.zeros(d), 0.0
    scale = float(np.einsum("ij,ij->", X, X)) + 1.0
    mu_lo = 0.0 if lam > 0 else 1e-12 * scale
    theta = _newton(X, Y, lam + mu_lo, theta0)
    if B is None or math.sqrt(float(theta @ theta)) <= B:
        return theta, mu_lo
    g0 = 0.5 * np.linalg.norm(X.T @ Y)  # ‖∇loss(0)‖; strong convexity gives ‖θ(μ)‖ ≤ g0/(λ+μ)
    mu_hi = max(g0 / B, 2.0 * mu_lo)
    cache = {"theta": theta}

    def gap(mu):
        cache["theta"] = _newton(X, Y, lam + mu, cache["theta"])
        return math.sqrt(float(cache["theta"] @ cache["theta"])) - B

    mu = brentq(gap, mu_lo, mu_hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    theta = _newton(X, Y, lam + mu, cache["theta"])
    return theta, mu


class FTRL(OnlineLearner):
    """FTRL(d, lam=1.0, B=None, R=None): θ_t = argmin Σ_{s<t} ℓ_s + λ‖θ‖² over ℝ^d or the B-ball."""

    def __init__(self, d, lam=1.0, B=None, R=None):
        self.d = check_dimension(d)
        self.lam = check_positive("lam", lam)
        self.B = None if B is None else check_positive("B", B)
        self.R = None if R is None else check_positive("R", R)
        self._init_history()

    def _init_history(self):
        self._X = np.empty((16, self.d))
        self._Y = np.empty(16)
        self.t = 0
        self._theta = np.zeros(self.d)
        self._mu = 0.0
        self._dirty = False

    def _current(self) -> np.ndarray:
        if self._dirty:
            self._theta, self._mu = regularized_leader(self._X[:self.t], self._Y[:self.t], self.lam, self.B,
                                                       theta0=self._theta)
            self._dirty = False
        return self._theta

    def _predict(self, x):
        return float(self._current() @ x)

    def _update(self, x, y):
        if self.t == self._Y.size:
            self._X = np.concatenate([self._X, np.empty_like(self._X)])
            self._Y = np.concatenate([self._Y, np.empty_like(self._Y)])
        self._X[self.t] = x
        self._Y[self.t] = y
        self.t += 1
        self._dirty = True

    def extend(self, k) -> None:
        """Add k input coordinates exactly (past inputs padded with zeros; θ gets zeros)."""
        k = check_extension(k)
        self._X = pad_rows(self._X, k)
        self._theta = pad_vector(self._theta, k)
        self.d += k

    def state(self) -> dict:
        theta = self._current().copy()
        return {"theta_hat": theta, "t": self.t, "lam": self.lam, "B": self.B, "mu": self._mu}

"""Algorithm 1 of seed 001 ("Efficient-GAF for K-class logistic regression"), transcribed literally from the box.

    Parameters λ, μ, β, ε, δ > 0, m > 1
    initialize A_0 = λI, b_0 = 0, θ_1 = 0
    for t = 1, ..., n do
        receive x_t ∈ ℝ^d
        sample independently ω_1, ..., ω_m ∼ N(θ_tᵀΦ(x_t), Φ(x_t)ᵀA_{t−1}⁻¹Φ(x_t))
        predict ỹ_t = σ⁺(smooth_μ((1/m) Σ_i σ(ω_i)))
        receive y_t ∈ {1, ..., K}
        update θ_{t+1} = argmin_{θ∈ℝ^{Kd}} b_{t−1}ᵀθ + θᵀA_{t−1}θ + ℓ_{x_t,y_t}(θ)
               b_t = b_{t−1} + ∇ℓ_{x_t,y_t}(θ_{t+1}) − β∇²ℓ_{x_t,y_t}(θ_{t+1})θ_t
               A_t = A_{t−1} + (β/2)∇²ℓ_{x_t,y_t}(θ_{t+1})
    end

Deliberately NOT corrected (this file exists to test the box against eqs. (2)–(4)): the covariance has no factor
1/(2α) (App. B: P̃_{t−1} = N(θ_t, A_{t−1}⁻¹/(2α))), and b_t uses θ_t where the surrogate (3) built at θ_{t+1} needs
θ_{t+1}. ε and δ are listed as parameters but unused by the box. Only change: labels are 0..K−1 (box: 1..K).
The argmin is solved by damped Newton in θ-space (dense; this file favours literalness over speed).
"""
from __future__ import annotations

import numpy as np
from scipy.special import log_softmax, logsumexp, softmax

from algorithms.multiclass import MulticlassLearner, check_int, check_positive, grad, hessian, loss, phi


class GAFAlgorithm1(MulticlassLearner):
    def __init__(self, d: int, K: int, lam: float, mu: float, beta: float, m: int = 100, seed: int = 0,
                 eps: float = 1.0, delta: float = 1.0):
        self.d, self.K = check_int("d", d, 1), check_int("K", K, 2)
        self.lam, self.beta = check_positive("lam", lam), check_positive("beta", beta)
        if not 0 <= mu <= 0.5:
            raise ValueError(f"mu must lie in [0, 1/2], got {mu!r}")
        self.mu, self.m, self.seed = float(mu), check_int("m", m, 1), int(seed)
        self.eps, self.delta = eps, delta
        D = self.d * self.K
        self.A = self.lam * np.eye(D)                  # A_0 = λI
        self.b = np.zeros(D)                           # b_0 = 0
        self.theta = np.zeros(D)                       # θ_1 = 0
        self.t = 0

    def _scores(self, x):
        P = phi(x, self.K)
        mean = self.theta @ P                                            # θ_tᵀΦ(x_t)
        cov = P.T @ np.linalg.solve(self.A, P)                           # Φ(x_t)ᵀA_{t−1}⁻¹Φ(x_t)
        rng = np.random.default_rng([self.seed, self.t])
        omega = rng.multivariate_normal(mean, 0.5 * (cov + cov.T), size=self.m, method="eigh")
        logp = logsumexp(log_softmax(omega, axis=1), axis=0) - np.log(self.m)   # log (1/m)Σσ(ω_i)
        p = np.exp(logp)
        return np.log((1 - self.mu) * p + self.mu / self.K)              # σ⁺(smooth_μ(·))

    def _argmin(self, x, y):
        """θ_{t+1} = argmin b_{t−1}ᵀθ + θᵀA_{t−1}θ + ℓ_{x_t,y_t}(θ) (Newton from θ_t, backtracking)."""
        th = self.theta.copy()
        f = lambda v: float(self.b @ v + v @ self.A @ v + loss(v.reshape(self.K, self.d) @ x, y))  # noqa: E731
        for _ in range(100):
            W = th.reshape(self.K, self.d)
            g = self.b + 2 * self.A @ th + grad(W, x, y).ravel()
            if np.linalg.norm(g) < 1e-13:
                break
            step = np.linalg.solve(2 * self.A + hessian(W, x), g)
            s, f0 = 1.0, f(th)
            while f(th - s * step) > f0 - 1e-4 * s * float(g @ step) and s > 1e-12:
                s *= 0.5
            th = th - s * step
        return th

    def _update(self, x, y):
        self.t += 1
        theta_next = self._argmin(x, y)
        W = theta_next.reshape(self.K, self.d)
        H = hessian(W, x)
        self.b = self.b + grad(W, x, y).ravel() - self.beta * H @ self.theta   # as printed: θ_t, not θ_{t+1}
        self.A = self.A + 0.5 * self.beta * H
        self.theta = theta_next

    def state(self) -> dict:
        return {"theta": self.theta.reshape(self.K, self.d).copy(), "A": self.A.copy(), "b": self.b.copy(),
                "t": self.t}


_ = softmax  # re-exported for callers comparing laws

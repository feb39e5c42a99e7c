"""GAF for the squared loss (seed 001, §4.1), derived from eqs. (2)–(4).

Setting: x ∈ B(ℝ^d, R), y ∈ [−Y, Y], ℓ(ŷ, y) = (ŷ − y)², Φ(x) = x; constants α = 1/(2Y²), β = 1 (§4.1).
The surrogates are exact (ℓ̃_s = ℓ_s), so eq. (2) and (13) give θ_t = argmin L_{t−1} = A_{t−1}⁻¹ Σ_{s<t} y_s x_s with
A_{t−1} = λI + Σ_{s<t} x_s x_sᵀ (½ the Hessian of L_{t−1}), and P̃_{t−1} = N(θ_t, A_{t−1}⁻¹/(2α)). Under P̃_{t−1},
u = θᵀx_t ∼ N(m, s²), m = θ_tᵀx_t, 2αs² = x_tᵀA_{t−1}⁻¹x_t =: c − 1, and

    −(1/α) log E e^{−α(u − y)²} = (m − y)²/c + (1/(2α)) log c     (a Gaussian integral).

Prediction meeting eq. (4) for every y ∈ [−Y, Y]: Vovk's substitution ŷ = (g(−Y) − g(Y))/(4Y) = m/c, because
(ŷ − y)² − (m − y)²/c = (1 − 1/c)(y² − m²/c) ≤ (1 − 1/c)Y² ≤ Y² log c. So ŷ_t = θ_tᵀx_t/(1 + x_tᵀA_{t−1}⁻¹x_t),
which is the Vovk–Azoury–Warmuth forecaster θ̂_tᵀx_t, θ̂_t = argmin L_{t−1}(θ) + (θᵀx_t)² (Sherman–Morrison).
The paper's printed form, argmin L_{t−1}(θ) + θᵀx_t + λ‖θ‖², differs (claim 001:claim-2).

Symbols → arguments: λ → ``lam``, Y → ``Y``, R → ``R``.
"""
from __future__ import annotations

import math

import numpy as np

from algorithms.multiclass import check_int, check_positive, check_x


class GAFSquared:
    """predict(x) -> float ŷ_t, update(x, y), run(X, Y) -> (n,), state() with theta, A, b."""

    def __init__(self, d: int, lam: float, Y: float, R: float | None = None):
        self.d = check_int("d", d, 1)
        self.lam = check_positive("lam", lam)
        self.Y = check_positive("Y", Y)
        self.R = None if R is None else check_positive("R", R)
        self.alpha = 1.0 / (2.0 * self.Y ** 2)
        self.A = self.lam * np.eye(self.d)
        self.A_inv = np.eye(self.d) / self.lam
        self.b = np.zeros(self.d)          # Σ y_s x_s
        self.t = 0

    def _y(self, y) -> float:
        v = float(y)
        if not math.isfinite(v) or abs(v) > self.Y:
            raise ValueError(f"y must lie in [-Y, Y] = [{-self.Y}, {self.Y}], got {y!r}")
        return v

    def theta(self) -> np.ndarray:
        """θ_t = argmin L_{t−1} (eq. (2) with exact surrogates)."""
        return self.A_inv @ self.b

    def law(self, x) -> tuple[float, float]:
        """(m, c) with m = θ_tᵀx, c = 1 + xᵀA⁻¹x = 1 + 2αs²."""
        x = check_x(x, self.d, self.R)
        return float(self.theta() @ x), 1.0 + float(x @ self.A_inv @ x)

    def predict(self, x) -> float:
        m, c = self.law(x)
        return m / c

    def mixability_rhs(self, x, y) -> float:
        """−(1/α) log E_{θ∼P̃_{t−1}} e^{−αℓ_{x,y}(θ)} in closed form (right side of eq. (4))."""
        m, c = self.law(x)
        return (m - y) ** 2 / c + math.log(c) / (2.0 * self.alpha)

    def update(self, x, y) -> None:
        x = check_x(x, self.d, self.R)
        y = self._y(y)
        Ax = self.A_inv @ x
        self.A_inv -= np.outer(Ax, Ax) / (1.0 + x @ Ax)
        self.A += np.outer(x, x)
        self.b += y * x
        self.t += 1

    def run(self, X, Y) -> np.ndarray:
        X = np.asarray(X, float)
        if X.ndim != 2 or X.shape[1] != self.d:
            raise ValueError(f"X must have shape (n, {self.d})")
        Y = np.asarray(Y, float).reshape(-1)
        if Y.shape[0] != X.shape[0]:
            raise ValueError("Y must have one value per row of X")
        out = np.empty(X.shape[0])
        for i in range(X.shape[0]):
            out[i] = self.predict(X[i])
            self.update(X[i], Y[i])
        return out

    def state(self) -> dict:
        return {"theta": self.theta(), "A": self.A.copy(), "b": self.b.copy(), "t": self.t}

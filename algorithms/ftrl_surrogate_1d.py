"""FTRL on approximate logistic losses in one dimension — seed 003 (Hazan, Koren, Levy), Algorithm 1
("FTRL for logistic losses") and Algorithm 2 ("Equivalent form-FTRL", §5.3), O(1) per round.

Seed 003 absorbs the label into the instance: loss ℓ(w, z) = log(1 + e^{zw}), z ∈ [−1, 1]. In the ±1 API of
this package a round (x_t, y_t) is the instance z_t = −y_t x_t, and ŷ_t = w_t x_t (proper: w_t ignores x_t).
Approximate losses, eq. (4), with s_t = g_t z_t (the paper's "y_t"), g_t = e^{z_t w_t}/(1 + e^{z_t w_t}),
β = 1/(8D), a₀ = log(1 + e^{z_t w_t}) − g_t z_t w_t:

    case 1 (w_t ≥ 0, z_t ≥ 1/D):        ℓ̃_t(w) = a₀ + s_t w + (β/2) s_t² w² 1{w ≤ 0}
    case 2 (w_t ≤ 0, z_t ≤ −1/D):       ℓ̃_t(w) = a₀ + s_t w + (β/2) s_t² w² 1{w ≥ 0}
    case 3 (|z_t| ≤ 1/D or z_t w_t ≤ 0): ℓ̃_t(w) = a₀ + s_t w + (β/2) s_t² (w − w_t)²

The cases overlap on their boundaries (e.g. w_t = 0, z_t ≥ 1/D); we take the first matching case in printed
order (the paper states no rule). Algorithm 1: w_t = argmin_{|w| ≤ D} F_t(w), F_t = Σ_{τ<t} ℓ̃_τ + η⁻¹R,
R(w) = w²/(16D) = (β/2)w². Algorithm 2: u_t = argmin_{w ∈ ℝ} F_t(w), then w_t = the point of [−D, D] nearest
to u_t (the box prints "argmin_{w∈W} w − u_t"; we read it as |w − u_t|, as the text says "projects u_t onto W").
Each ℓ̃_τ is a quadratic on each half-line, so F_t = ½Q₊w² + L₊w + C on w ≥ 0 and ½Q₋w² + L₋w + C on w ≤ 0:
four running sums. η = T^{−1/3} (Theorem 9) when only the horizon T is given.

``state()`` keys: ``w`` (= ``theta_hat``, w_t to be played), ``u`` (global minimiser u_t), ``Q_plus``,
``L_plus``, ``Q_minus``, ``L_minus``, ``t``, ``eta``, ``D``, ``beta``.
"""
from __future__ import annotations

import math

import numpy as np

from ._base import OnlineLearner, check_positive


def approximate_loss(w, z_t, w_t, D) -> float:
    """ℓ̃_t(w) of eq. (4) for the instance z_t played against w_t (cases in printed order)."""
    beta = 1.0 / (8.0 * D)
    zw = z_t * w_t
    g = 0.5 * (1.0 + math.tanh(0.5 * zw))  # e^{zw}/(1+e^{zw})
    s = g * z_t
    a0 = float(np.logaddexp(0.0, zw)) - g * zw
    case = _case(z_t, w_t, D)
    if case == 1:
        return a0 + s * w + (0.5 * beta * s * s * w * w if w <= 0 else 0.0)
    if case == 2:
        return a0 + s * w + (0.5 * beta * s * s * w * w if w >= 0 else 0.0)
    return a0 + s * w + 0.5 * beta * s * s * (w - w_t) ** 2


def _case(z_t, w_t, D) -> int:
    if w_t >= 0 and z_t >= 1.0 / D:
        return 1
    if w_t <= 0 and z_t <= -1.0 / D:
        return 2
    return 3


class FTRLSurrogate1D(OnlineLearner):
    """FTRLSurrogate1D(D, eta=None, T=None, form="algorithm-1"): seed 003 Algorithm 1 (or its Algorithm 2)."""

    def __init__(self, D, eta=None, T=None, form="algorithm-1"):
        self.d = 1
        self.R = 1.0
        self.D = check_positive("D", D)
        if eta is None:
            if T is None:
                raise ValueError("eta or T must be given (eta = T**(-1/3), Theorem 9)")
            T = check_positive("T", T)
            eta = T ** (-1.0 / 3.0)
        self.eta = check_positive("eta", eta)
        if form not in ("algorithm-1", "algorithm-2"):
            raise ValueError(f"form must be 'algorithm-1' or 'algorithm-2', got {form!r}")
        self.form = form
        self.beta = 1.0 / (8.0 * self.D)
        reg = self.beta / self.eta  # η⁻¹R(w) = ½(β/η)w²
        self._Qp = self._Qm = reg
        self._Lp = self._Lm = 0.0
        self.t = 0
        self._w = 0.0
        self._u = 0.0

    def _argmins(self) -> tuple[float, float]:
        """(w_t, u_t)."""
        Qp, Lp, Qm, Lm, D = self._Qp, self._Lp, self._Qm, self._Lm, self.D
        if self.form == "algorithm-2":
            up, um = -Lp / Qp, -Lm / Qm
            u = up if up > 0 else (um if um < 0 else 0.0)
            return min(D, max(-D, u)), u
        wp = min(D, max(0.0, -Lp / Qp))
        wm = min(0.0, max(-D, -Lm / Qm))
        fp, fm = 0.5 * Qp * wp * wp + Lp * wp, 0.5 * Qm * wm * wm + Lm * wm
        up, um = -Lp / Qp, -Lm / Qm
        u = up if up > 0 else (um if um < 0 else 0.0)
        return (wp if fp <= fm else wm), u

    def _predict(self, x):
        return self._w * float(x[0])

    def _update(self, x, y):
        self.update_instance(-y * float(x[0]))

    def update_instance(self, z) -> None:
        """Seed 003's own protocol: observe the instance z_t ∈ [−1, 1] (loss log(1 + e^{z_t w_t}))."""
        z = float(z)
        if not math.isfinite(z) or abs(z) > 1.0:
            raise ValueError(f"z must be a finite instance in [-1, 1], got {z!r}")
        w_t, D, beta = self._w, self.D, self.beta
        zw = z * w_t
        s = 0.5 * (1.0 + math.tanh(0.5 * zw)) * z
        q = beta * s * s
        case = _case(z, w_t, D)
        self._Lp += s
        self._Lm += s
        if case == 1:
            self._Qm += q
        elif case == 2:
            self._Qp += q
        else:
            self._Qp += q
            self._Qm += q
            self._Lp -= q * w_t
            self._Lm -= q * w_t
        self.t += 1
        self._w, self._u = self._argmins()

    def state(self) -> dict:
        return {"w": self._w, "theta_hat": np.array([self._w]), "u": self._u, "Q_plus": self._Qp,
                "L_plus": self._Lp, "Q_minus": self._Qm, "L_minus": self._Lm, "t": self.t, "eta": self.eta,
                "D": self.D, "beta": self.beta, "form": self.form}

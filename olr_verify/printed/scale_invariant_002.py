"""Seed 002 (Kotłowski), Algorithms 1 and 2, transcribed line by line as printed, in mpmath.

Algorithm 1 ("Coordinate-wise scale invariant algorithm")::

    Parameter: α > 9/8.  Initialization: s_i^2 ← 0, h_i ← 0
    for t = 1..T: Receive x_t
      for i = 1..d: s_i^2 ← s_i^2 + x_{t,i}^2
        if s_i^2 > 0: η_i ← (1/(α t d)) exp((h_i^2 + x_{t,i}^2)/(2 α s_i^2)); w_i ← η_i h_i / s_i^2
        else: w_i ← 0
      Predict ŷ_t = Σ_i w_i x_{t,i}; receive y_t; g_t = ∂_ŷ ℓ(y_t, ŷ_t); h_i ← h_i − g_t x_{t,i}

Algorithm 2 ("Scale invariant algorithm")::

    Initialization: S ← 0, h ← 0, Γ ← 0
    for t = 1..T: Receive x_t; S ← S + x_t x_tᵀ; η ← (1/α) exp((hᵀS^†h − Γ)/(2α)); w ← η S^† h
      Predict ŷ_t = wᵀx_t; receive y_t; g_t = ∂_ŷ ℓ(y_t, ŷ_t); h ← h − g_t x_t; Γ ← Γ + g_t^2 x_tᵀS^†x_t

The loss is the logistic loss ℓ(y, ŷ) = log(1 + e^{−yŷ}) (one of the paper's two examples), so
g_t = −y_t/(1 + e^{y_t ŷ_t}). S^† is the Moore–Penrose pseudo-inverse, computed from an SVD at ``dps``
digits with singular values below ``10^{-(dps-10)}`` times the largest treated as zero.
"""
from __future__ import annotations

import mpmath


def logistic_derivative(y, yhat):
    return -y / (1 + mpmath.exp(y * yhat))


def pinv(S, dps: int):
    """Moore–Penrose pseudo-inverse of a symmetric mpmath matrix."""
    d = S.rows
    U, s, V = mpmath.svd_r(S)
    top = max([abs(v) for v in s] + [mpmath.mpf(0)])
    out = mpmath.matrix(d, d)
    if top == 0:
        return out
    for k in range(len(s)):
        if s[k] > top * mpmath.mpf(10) ** (-(dps - 10)):
            for i in range(d):
                for j in range(d):
                    out[i, j] += V[k, i] * U[j, k] / s[k]
    return out


def algorithm_1(X, Y, alpha, dps: int = 50) -> list[dict]:
    with mpmath.workdps(dps):
        Xm = [[mpmath.mpf(v) for v in row] for row in X]
        Ym = [mpmath.mpf(v) for v in Y]
        alpha = mpmath.mpf(alpha)
        d = len(Xm[0])
        s2, h = [mpmath.mpf(0)] * d, [mpmath.mpf(0)] * d
        out = []
        for t, (x, y) in enumerate(zip(Xm, Ym), start=1):
            w = [mpmath.mpf(0)] * d
            for i in range(d):
                s2[i] = s2[i] + x[i] ** 2
                if s2[i] > 0:
                    eta = 1 / (alpha * t * d) * mpmath.exp((h[i] ** 2 + x[i] ** 2) / (2 * alpha * s2[i]))
                    w[i] = eta * h[i] / s2[i]
                else:
                    w[i] = mpmath.mpf(0)
            yhat = mpmath.fsum(w[i] * x[i] for i in range(d))
            g = logistic_derivative(y, yhat)
            h = [h[i] - g * x[i] for i in range(d)]
            out.append({"w": w, "y_hat": yhat, "g": g})
        return out


def algorithm_2(X, Y, alpha, dps: int = 50) -> list[dict]:
    with mpmath.workdps(dps):
        Xm = [mpmath.matrix([mpmath.mpf(v) for v in row]) for row in X]
        Ym = [mpmath.mpf(v) for v in Y]
        alpha = mpmath.mpf(alpha)
        d = Xm[0].rows
        S, h, Gamma = mpmath.matrix(d, d), mpmath.matrix(d, 1), mpmath.mpf(0)
        out = []
        for x, y in zip(Xm, Ym):
            S = S + x * x.T
            Sp = pinv(S, dps)
            eta = 1 / alpha * mpmath.exp(1 / (2 * alpha) * ((h.T * Sp * h)[0] - Gamma))
            w = Sp * h * eta
            yhat = (w.T * x)[0]
            g = logistic_derivative(y, yhat)
            h = h - x * g
            Gamma = Gamma + g ** 2 * (x.T * Sp * x)[0]
            out.append({"w": [w[i] for i in range(d)], "y_hat": yhat, "g": g})
        return out

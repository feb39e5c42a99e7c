"""Seed 003 (Hazan, Koren, Levy), Algorithms 1 and 2, transcribed as printed (one dimension, floats).

Algorithm 1 ("FTRL for logistic losses")::

    Input: learning rate η > 0, diameter D;  let R(w) = w^2/(16D)
    for t = 1, 2, ..., T:
      set w_t = argmin_{w ∈ [−D, D]} { Σ_{τ<t} ℓ̃_τ(w) + (1/η) R(w) }
      observe x_t ∈ [−1, 1] and suffer loss ℓ(w_t, x_t) = log(1 + e^{x_t w_t})
      compute ℓ̃_t according to Eq. (4)

Algorithm 2 ("Equivalent form-FTRL"), as printed (the seed reads the same)::

    Calculate: u_t = argmin_{w ∈ ℝ} Σ_{τ<t} ℓ̃_τ(w) + η^{-1} R(w)
    Choose:    w_t = argmin_{w ∈ W} w − u_t

Readings: "argmin" in the boxes is computed by a generic bounded scalar minimiser (Brent, scipy) of
the objective evaluated pointwise from Eq. (4), so that the transcription shares no code with the
reference (:mod:`reference.ftrl_surrogate_1d`); the global argmin over ℝ uses a bracket of ±10^6 D.
Eq. (4)'s cases overlap (e.g. at w_τ = 0); the first printed case that applies is used. The printed
"Choose" line minimises the LINEAR function w ↦ w − u_t over W = [−D, D], whose argmin is −D whatever
u_t is; it is transcribed as printed (the text after the box says "projects u_t onto W", which is the
corrected variant :func:`algorithm_2_projection`).
"""
from __future__ import annotations

import math

from scipy.optimize import minimize_scalar


def approximate_loss(w_tau: float, x_tau: float, D: float):
    """ℓ̃_τ of Eq. (4) as a function of w, built at the played point w_τ (printed case order)."""
    g = 1.0 / (1.0 + math.exp(-x_tau * w_tau))
    y = g * x_tau
    beta = 1.0 / (8.0 * D)
    a0 = math.log1p(math.exp(x_tau * w_tau)) - g * x_tau * w_tau
    if w_tau >= 0 and x_tau >= 1.0 / D:
        return lambda w: a0 + y * w + beta / 2 * y * y * w * w * (w <= 0)
    if w_tau <= 0 and x_tau <= -1.0 / D:
        return lambda w: a0 + y * w + beta / 2 * y * y * w * w * (w >= 0)
    return lambda w: a0 + y * w + beta / 2 * y * y * (w - w_tau) ** 2


def _objective(losses, eta, D):
    return lambda w: sum(f(w) for f in losses) + (1.0 / eta) * w * w / (16.0 * D)


def _argmin(F, lo, hi):
    res = minimize_scalar(F, bounds=(lo, hi), method="bounded", options={"xatol": 1e-13 * max(1.0, hi - lo)})
    cands = [res.x, lo, hi]
    return min(cands, key=F)


def algorithm_1(X, eta: float, D: float) -> list[float]:
    losses, out = [], []
    for x in X:
        w = _argmin(_objective(losses, eta, D), -D, D)
        out.append(w)
        losses.append(approximate_loss(w, x, D))
    return out


def _algorithm_2(X, eta, D, choose):
    losses, out = [], []
    for x in X:
        F = _objective(losses, eta, D)
        u = _argmin(F, -1e6 * D, 1e6 * D)
        w = choose(u)
        out.append(w)
        losses.append(approximate_loss(w, x, D))
    return out


def algorithm_2(X, eta: float, D: float) -> list[float]:
    """As printed: w_t = argmin_{w ∈ [−D, D]} (w − u_t)."""
    return _algorithm_2(X, eta, D, lambda u: _argmin(lambda w: w - u, -D, D))


def algorithm_2_projection(X, eta: float, D: float) -> list[float]:
    """NOT the printed box: w_t = argmin_{w ∈ W} |w − u_t|, the projection the text describes."""
    return _algorithm_2(X, eta, D, lambda u: min(D, max(-D, u)))

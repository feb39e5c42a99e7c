"""Foster et al. (2018) aggregating forecaster for d = 1 — the learner seed 000 compares with (§1, §5, Table 1,
Figures 1-2: "Vovk's Aggregating Algorithm", "the logistic loss is 1-mixable", practical for d = 1).

Seed 000 prints no prior, sampler or quadrature; we use the prior of the issue, uniform on [−B, B]. With η = 1
(1-mixability) the Aggregating Algorithm for the logistic (= log) loss is the Bayesian mixture:

    π_t(θ) ∝ 1{|θ| ≤ B} Π_{s<t} σ(y_s θ x_s),     p_t(y) = ∫ σ(yθx_t) π_t(θ) dθ,
    ŷ_t = log p_t(+1) − log p_t(−1),   so that   ℓ(ŷ_t, y) = −log p_t(y) (improper: ŷ_t is not θᵀx_t).

Quadrature: composite Gauss–Legendre on [−B, B] (``panels`` × ``nodes``, default 256 × 16 = 4096 nodes), all
sums in log space (logsumexp, log σ(z) = −logaddexp(0, −z)), so any margin is safe. The integrand is analytic
and log-concave, and Gauss–Legendre's error on each panel decays like ρ^{−2·nodes}; each prediction is also
computed on a grid with half as many panels and ``state()["quad_error"]`` = |ŷ_fine − ŷ_coarse| is the
a-posteriori estimate of the error of ŷ (an estimate, not a certificate: it is reliable while the posterior
is wider than a few panels, i.e. n ≲ (panels/B)² rounds; raise ``panels`` for longer runs). The tests compare
with mpmath.quad at 30 digits. O(panels·nodes) per round. ``state()`` keys: ``theta_grid``, ``log_posterior``
(unnormalised log π_t on the grid), ``t``, ``B``, ``quad_error``, ``y_hat``, ``theta_hat`` (= ŷ/x for the last
predicted x ≠ 0: the effective improper θ̂_t(x), as for AIOLI).
"""
from __future__ import annotations

import numpy as np
from ._base import OnlineLearner, check_positive


def _grid(B: float, panels: int, nodes: int):
    t, w = np.polynomial.legendre.leggauss(nodes)
    edges = np.linspace(-B, B, panels + 1)
    half = 0.5 * np.diff(edges)
    mid = 0.5 * (edges[1:] + edges[:-1])
    theta = (mid[:, None] + half[:, None] * t[None, :]).ravel()
    weight = (half[:, None] * w[None, :]).ravel()
    return theta, np.log(weight)


def _logsumexp(v: np.ndarray) -> float:
    """log Σ exp(v) with the usual max shift (scipy's logsumexp costs more per call than the sum itself)."""
    shift = v.max()
    return float(shift + np.log(np.exp(v - shift).sum()))


def _log_sigmoid(z):
    return -np.logaddexp(0.0, -z)


class FosterAggregating(OnlineLearner):
    """FosterAggregating(B, R=None, panels=256, nodes=16): Bayesian mixture, uniform prior on [−B, B], d = 1."""

    def __init__(self, B, R=None, panels=256, nodes=16):
        self.d = 1
        self.B = check_positive("B", B)
        self.R = None if R is None else check_positive("R", R)
        if int(panels) != panels or panels < 2 or int(nodes) != nodes or nodes < 2:
            raise ValueError(f"panels and nodes must be integers >= 2, got {panels!r}, {nodes!r}")
        self.panels, self.nodes = int(panels), int(nodes)
        self._theta, self._logw = _grid(self.B, self.panels, self.nodes)
        self._theta_c, self._logw_c = _grid(self.B, max(1, self.panels // 2), self.nodes)
        self._L = np.zeros_like(self._theta)
        self._Lc = np.zeros_like(self._theta_c)
        self.t = 0
        self._quad_error = 0.0
        self._yhat = None
        self._theta_hat = None

    @staticmethod
    def _mixture(theta, logw, L, x):
        """log p(+1) − log p(−1), using log σ(−z) = log σ(z) − z."""
        z = theta * x
        a = logw + L + _log_sigmoid(z)  # log weight of y = +1
        return _logsumexp(a) - _logsumexp(a - z)  # a − z: log weight of y = −1

    def _predict(self, x):
        xv = float(x[0])
        fine = self._mixture(self._theta, self._logw, self._L, xv)
        coarse = self._mixture(self._theta_c, self._logw_c, self._Lc, xv)
        self._quad_error = abs(fine - coarse)
        self._yhat = fine
        self._theta_hat = np.array([fine / xv]) if xv != 0.0 else None
        return fine

    def _update(self, x, y):
        xv = float(x[0])
        self._L += _log_sigmoid(y * self._theta * xv)
        self._Lc += _log_sigmoid(y * self._theta_c * xv)
        self.t += 1

    def state(self) -> dict:
        return {"theta_grid": self._theta.copy(), "log_posterior": self._L.copy(), "t": self.t, "B": self.B,
                "quad_error": self._quad_error, "y_hat": self._yhat,
                "theta_hat": None if self._theta_hat is None else self._theta_hat.copy()}

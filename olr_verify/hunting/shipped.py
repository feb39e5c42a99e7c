"""The hunts' float64 learners ARE the shipped learners of ``algorithms/`` (issue 15: one implementation per learner).

Each adapter wraps one class of ``algorithms/`` and exposes what the bounds of :mod:`bounds` read (the same
interface as the 50-digit twins of :mod:`highprec_learners`, which only replay candidates):

- :class:`ShippedAioli` — :class:`algorithms.AIOLI` (seed 000, eq. (3); ``inner_steps`` = Theorem 4's T for
  Algorithm 2). Theorem 7's perturbed estimators theta_hat_t = theta_bar_t + eps u_t/||u_t|| are not an option
  of the shipped class: :class:`_PerturbedAIOLI` composes the shipped ``solve_margin`` and
  ``surrogate_increment`` and adds eps (u_t . x_t)/||u_t|| to the played prediction. That is exact: the
  statistics of eq. (5) depend on theta_hat_t only through yhat_t = theta_hat_t . x_t (g_t is a multiple of x_t,
  and g_t . theta_hat_t = -y sigma(-y yhat) yhat).  With ``trace`` it records per round
  the quantities of App. B (A_{t-1}^{-1}, A_t^{-1}, g_t, g_t^{-y_t}, eta_t) read from the shipped ``state()``.
- :class:`ShippedScaleInvariant1` / :class:`ShippedScaleInvariant2` — seed 002 Algorithms 1 and 2.
- :class:`ShippedFtrl003` — seed 003 Algorithm 1 (:class:`algorithms.FTRLSurrogate1D`); the surrogate losses of
  eq. (4) that Lemmas 11 and 13 read are :func:`highprec_learners.surrogate_003` (a formula, not a learner).

>>> import numpy as np
>>> L = ShippedAioli(2, 2.0, 1.0, 0.25)
>>> round(L.predict(np.array([0.6, 0.8])), 12), L.update(np.array([0.6, 0.8]), 1)
(0.0, None)
"""
from __future__ import annotations

from typing import Any

import numpy as np

import algorithms as A
from algorithms.aioli import solve_margin, surrogate_increment
from olr_verify.hunting.highprec_learners import aioli_round_terms, surrogate_003, surrogate_value_003
from olr_verify.hunting.numerics import FLOAT


class _PerturbedAIOLI:
    """AIOLI playing theta_bar_t + eps u_t/||u_t|| (seed 000, Theorem 7's estimators), u_t set before each round.

    Built from the shipped AIOLI's own pieces (``algorithms.aioli.solve_margin``: yhat of eq. (3) through
    Lemma 2; ``algorithms.aioli.surrogate_increment``: the increments of eq. (5)); only the Sherman-Morrison
    bookkeeping of A_t^{-1} and theta_t = A_t^{-1} b_t is written here, because the shipped class has no
    perturbation option (its statistics depend on theta_hat_t only through yhat_t = theta_hat_t . x_t).
    """

    def __init__(self, d, B, R, lam, eps):
        self.B, self.R, self.eps = float(B), float(R), float(eps)
        self._Ainv = np.eye(d) / float(lam)
        self._theta = np.zeros(d)
        self.direction: np.ndarray | None = None

    def _margins(self, x: np.ndarray) -> tuple:
        v = self._Ainv @ x
        c, z0 = float(x @ v), float(x @ self._theta)
        yhat = solve_margin(z0, c)
        u = self.direction
        if u is not None and self.eps != 0.0:
            nu = float(np.linalg.norm(u))
            if nu > 0.0:
                yhat += self.eps * float(u @ x) / nu
        return yhat, v, c, z0

    def predict(self, x: np.ndarray) -> float:
        return self._margins(x)[0]

    def update(self, x: np.ndarray, y: int) -> None:
        yhat, v, c, z0 = self._margins(x)
        a2, beta = surrogate_increment(yhat, float(y), self.B, self.R)
        den = 1.0 + a2 * c
        self._Ainv = self._Ainv - (a2 / den) * np.outer(v, v)
        self._theta = self._theta + ((beta - a2 * z0) / den) * v

    def state(self) -> dict:
        return {"A_inv": self._Ainv.copy(), "theta": self._theta.copy()}


class ShippedAioli:
    """algorithms.AIOLI behind the hunts' interface: ``predict``, ``update``, ``set_direction``, ``A_inv``, ``trace``."""

    def __init__(self, d: int, B: float, R: float, lam: float, eps: float = 0.0, gd_steps: int = 0,
                 trace: bool = False):
        d, B, R, lam, eps = int(d), float(B), float(R), float(lam), float(eps)
        if eps and gd_steps:
            raise ValueError("eps and gd_steps are exclusive (Theorem 7 perturbs the exact estimator)")
        if eps:
            self.L: Any = _PerturbedAIOLI(d, B, R, lam, eps)
        else:
            self.L = A.AIOLI(d, B, R, lam=lam, inner_steps=int(gd_steps) if gd_steps else None)
        self.B, self.R, self.lam, self.d = B, R, lam, d
        self.trace: list[dict] | None = [] if trace else None

    def set_direction(self, u: Any) -> None:
        if not isinstance(self.L, _PerturbedAIOLI):  # eps = 0: the direction does not enter
            return
        self.L.direction = None if u is None else np.asarray(u, float)

    def predict(self, x: Any) -> float:
        return float(self.L.predict(np.asarray(x, float)))

    @property
    def A_inv(self) -> np.ndarray:
        return self.L.state()["A_inv"]

    def update(self, x: Any, y: int) -> None:
        x = np.asarray(x, float)
        if self.trace is None:
            self.L.update(x, y)
            return
        A_prev = self.A_inv
        yhat = self.predict(x)
        self.L.update(x, y)
        g, g_minus, eta = aioli_round_terms(x, int(y), yhat, self.B, self.R, FLOAT)
        self.trace.append({"x": x, "y": int(y), "yhat": yhat, "g": g, "g_minus": g_minus, "eta": eta,
                           "A_inv_prev": A_prev, "A_inv": self.A_inv})

    def run(self, X: Any, Y: Any) -> list:
        out = []
        for x, y in zip(X, Y):
            out.append(self.predict(x))
            self.update(x, int(y))
        return out


class ShippedScaleInvariant1:
    """algorithms.ScaleInvariantCoordinatewise (seed 002 Algorithm 1, eq. (5)): ``weights``, ``s2``, ``h``."""

    def __init__(self, d: int, alpha: float):
        self.L = A.ScaleInvariantCoordinatewise(int(d), float(alpha))

    @property
    def s2(self) -> np.ndarray:
        return self.L.state()["s2"]

    @property
    def h(self) -> np.ndarray:
        return self.L.state()["h"]

    def weights(self, x: Any) -> tuple[np.ndarray, np.ndarray]:
        """(w_t, s_t^2) for the input x_t (eq. (5)); the shipped prediction fixes w_t."""
        x = np.asarray(x, float)
        self.L.predict(x)
        return self.L.state()["w"], self.s2 + x * x

    def predict(self, x: Any) -> float:
        return float(self.L.predict(np.asarray(x, float)))

    def update_gradient(self, x: Any, g: Any) -> None:
        self.L.update_gradient(np.asarray(x, float), float(g))


class ShippedScaleInvariant2:
    """algorithms.ScaleInvariantFull (seed 002 Algorithm 2, eq. (7)): ``S``, ``h``, ``Gamma`` of Section 4.2."""

    def __init__(self, d: int, alpha: float):
        self.L = A.ScaleInvariantFull(int(d), float(alpha))

    @property
    def S(self) -> np.ndarray:
        return self.L.state()["S"]

    @property
    def h(self) -> np.ndarray:
        return self.L.state()["h"]

    @property
    def Gamma(self) -> float:
        return float(self.L.state()["Gamma"])

    def predict(self, x: Any) -> float:
        return float(self.L.predict(np.asarray(x, float)))

    def update_gradient(self, x: Any, g: Any) -> None:
        self.L.update_gradient(np.asarray(x, float), float(g))


class ShippedFtrl003:
    """algorithms.FTRLSurrogate1D (seed 003 Algorithm 1, eta = T^{-1/3}) on instances x_t in [-1, 1]."""

    def __init__(self, D: float, eta: float):
        self.L = A.FTRLSurrogate1D(float(D), eta=float(eta))
        self.D = float(D)
        self.beta = self.L.beta

    def weight(self) -> float:
        return float(self.L.state()["w"])

    def unconstrained_argmin(self) -> float:
        """u_t of Algorithm 2 (global minimiser of F_t over the real line)."""
        return float(self.L.state()["u"])

    def predict(self, x: Any) -> float:
        return self.weight() * float(x)

    def update(self, x: Any) -> None:
        self.L.update_instance(float(x))

    def surrogate(self, x: Any, wt: Any) -> tuple:
        return surrogate_003(x, wt, self.D, FLOAT)

    def surrogate_value(self, x: Any, wt: Any, w: Any) -> Any:
        return surrogate_value_003(x, wt, w, self.D, FLOAT)

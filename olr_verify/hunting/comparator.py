"""The comparator side of every regret: min over the B-ball of the (regularised) cumulative logistic loss.

``best_in_ball(X, Y, B, lam)`` uses the project's certified reference
(``reference.comparator.best_in_ball``) when it is installed, else the local solver below; both
return an object with ``theta``, ``value`` and a certified lower bound ``value - value_gap``.

The local solver minimises ``f(theta) = sum_t softplus(z_t . theta) + lam ||theta||^2`` over
``||theta|| <= B`` (z_t = -y_t x_t): damped Newton on ``f + mu ||theta||^2`` with bisection on
``mu >= 0`` until ``||theta(mu)|| = B`` (``||theta(mu)||`` decreases in mu).  Its gap is the
Frank-Wolfe duality gap ``grad.theta + B ||grad||`` (convexity), so ``value - gap <= min``.

For a *violation* only a feasible theta is needed: any theta in the ball gives a regret no larger
than the true one, so confirmations never rely on optimality (see :mod:`confirm`).
"""
from __future__ import annotations

import dataclasses

import numpy as np
from scipy.special import expit


@dataclasses.dataclass
class BallMin:
    theta: np.ndarray
    value: float
    value_gap: float
    source: str = "local"

    @property
    def lower(self) -> float:
        return self.value - self.value_gap


def _f(Z: np.ndarray, theta: np.ndarray, lam: float) -> float:
    return float(np.sum(np.logaddexp(0.0, Z @ theta)) + lam * theta @ theta)


def _newton(Z: np.ndarray, reg: float, theta: np.ndarray, iters: int = 100, wts: np.ndarray | None = None) -> np.ndarray:
    d = Z.shape[1]
    if wts is not None:
        return _newton(Z * 1.0, reg, theta, iters) if np.all(wts == 1) else _wnewton(Z, reg, theta, wts, iters)
    for _ in range(iters):
        m = Z @ theta
        s = expit(m)
        grad = Z.T @ s + 2 * reg * theta
        H = (Z * (s * (1 - s))[:, None]).T @ Z + (2 * reg + 1e-300) * np.eye(d)
        try:
            step = np.linalg.solve(H, grad)
        except np.linalg.LinAlgError:
            step = grad
        f0 = np.sum(np.logaddexp(0.0, m)) + reg * theta @ theta
        t = 1.0
        while t > 1e-12:
            cand = theta - t * step
            if np.sum(np.logaddexp(0.0, Z @ cand)) + reg * cand @ cand <= f0 - 1e-4 * t * grad @ step:
                break
            t /= 2
        theta = theta - t * step
        if np.linalg.norm(t * step) <= 1e-13 * (1 + np.linalg.norm(theta)):
            break
    return theta


def _wnewton(Z, reg, theta, wts, iters=100):
    d = Z.shape[1]
    for _ in range(iters):
        m = Z @ theta
        s = expit(m)
        grad = Z.T @ (wts * s) + 2 * reg * theta
        H = (Z * (wts * s * (1 - s))[:, None]).T @ Z + (2 * reg + 1e-300) * np.eye(d)
        step = np.linalg.solve(H, grad)
        f0 = wts @ np.logaddexp(0.0, m) + reg * theta @ theta
        t = 1.0
        while t > 1e-12:
            cand = theta - t * step
            if wts @ np.logaddexp(0.0, Z @ cand) + reg * cand @ cand <= f0 - 1e-4 * t * grad @ step:
                break
            t /= 2
        theta = theta - t * step
        if np.linalg.norm(t * step) <= 1e-13 * (1 + np.linalg.norm(theta)):
            break
    return theta


def best_weighted(Z: np.ndarray, wts: np.ndarray, B: float) -> tuple[np.ndarray, float]:
    """argmin over ||theta|| <= B of sum_k wts_k log(1 + e^{z_k . theta}) (population risk of a finite law)."""
    Z = np.atleast_2d(np.asarray(Z, float))
    wts = np.asarray(wts, float)
    d = Z.shape[1]
    lo, hi = 0.0, 1e-9
    theta = _wnewton(Z, hi, np.zeros(d), wts)
    if np.linalg.norm(theta) > B:
        hi = 1.0
        while np.linalg.norm(_wnewton(Z, hi, np.zeros(d), wts)) > B:
            lo, hi = hi, hi * 4
        for _ in range(60):
            mid = (lo + hi) / 2
            theta = _wnewton(Z, mid, theta, wts)
            lo, hi = (mid, hi) if np.linalg.norm(theta) > B else (lo, mid)
        theta = _wnewton(Z, hi, theta, wts)
    n = np.linalg.norm(theta)
    theta = theta * (B / n) if n > B else theta
    return theta, float(wts @ np.logaddexp(0.0, Z @ theta))


def best_absorbed(Z: np.ndarray, B: float, lam: float = 0.0) -> BallMin:
    """argmin over ||theta|| <= B of sum_t log(1 + e^{z_t . theta}) + lam ||theta||^2."""
    Z = np.atleast_2d(np.asarray(Z, float))
    d = Z.shape[1]
    theta = np.zeros(d)
    if lam > 0:
        theta = _newton(Z, lam, theta)
    if lam <= 0 or np.linalg.norm(theta) > B:
        lo, hi = lam, max(lam, 1.0)
        while np.linalg.norm(_newton(Z, hi, np.zeros(d))) > B:
            lo, hi = hi, hi * 4
        for _ in range(60):
            mid = (lo + hi) / 2
            theta = _newton(Z, mid, theta)
            if np.linalg.norm(theta) > B:
                lo = mid
            else:
                hi = mid
            if hi - lo <= 1e-12 * (1 + hi):
                break
        theta = _newton(Z, hi, theta)
    n = np.linalg.norm(theta)
    if n > B:
        theta = theta * (B / n)
    grad = Z.T @ expit(Z @ theta) + 2 * lam * theta
    gap = max(0.0, float(grad @ theta + B * np.linalg.norm(grad)))
    return BallMin(theta, _f(Z, theta, lam), gap)


def best_in_ball(X: np.ndarray, Y: np.ndarray, B: float, lam: float = 0.0, certified: bool = False) -> BallMin:
    """min over ||theta|| <= B of sum_t log(1 + e^{-y_t theta.x_t}) + lam ||theta||^2.

    ``certified=True`` asks the project's certified reference (slow: used for the final evidence);
    the default is the fast local solver used inside the hunt loop.
    """
    X = np.atleast_2d(np.asarray(X, float))
    Y = np.asarray(Y, float)
    ref = None
    if certified:
        try:
            from reference.comparator import best_in_ball as ref
        except ImportError:
            ref = None
    if ref is not None:
        try:
            r = ref(X, Y, B, lam=lam)
            return BallMin(np.asarray(r.theta, float), float(r.value), float(getattr(r, "value_gap", 0.0)), "reference")
        except Exception:  # noqa: BLE001 - the reference may reject inputs; the local solver still answers
            pass
    return best_absorbed(-Y[:, None] * X, B, lam)

"""AIOLI's exact estimator: seed 000, eq. (3), and eq. (11) given the played history.

.. math::

    \\bar\\theta_t = \\mathop{\\rm argmin}_{\\theta\\in\\mathbb R^d}\\Big\\{\\sum_{s=1}^{t-1}\\widehat\\ell_s(\\theta)
    + \\ell(\\theta^\\top x_t, 1) + \\ell(\\theta^\\top x_t, -1) + \\lambda\\|\\theta\\|^2\\Big\\}
    \\qquad\\text{(3), (11)}

with the surrogates of eq. (2), :math:`\\widehat\\ell_s(\\theta) = \\ell_s(\\widehat\\theta_s)
+ g_s^\\top(\\theta-\\widehat\\theta_s) + \\frac{\\eta_s}{2}(g_s^\\top(\\theta-\\widehat\\theta_s))^2`,
:math:`g_s = \\nabla\\ell_s(\\widehat\\theta_s)`, :math:`\\eta_s = e^{y_s\\widehat y_s}/(1+BR)`, built at the
points :math:`\\widehat\\theta_s` actually PLAYED (App. A, App. B: "built at the estimators").
Symbols: λ → ``lam``, B → ``B``, R → ``R``.

The objective is :math:`2\\lambda`-strongly convex (its Hessian is
:math:`2\\lambda I + \\sum_s\\eta_sg_sg_s^\\top + \\text{two logistic Hessians}`), so every solution carries
``||theta - theta*|| <= ||grad F||/(2 lam)`` evaluated in arb from the exact float history.

- :func:`theta_bar` — eq. (11) right, given the played history (what a differential check needs);
- :func:`theta_hat` — eq. (3) for the exact AIOLI: the past played points are themselves the
  certified exact minimisers (recursively), then θ̂_t given ``x_t``;
- :func:`theta_t` — eq. (11) left, :math:`\\theta_t = \\mathop{\\rm argmin}\\widehat L_{t-1}` (see also
  :mod:`reference.surrogate_ftl`);
- :func:`run` — all θ̂_1..θ̂_n of the exact AIOLI on a sequence.

>>> import numpy as np
>>> X = np.array([[0.6, 0.0], [0.0, -0.8], [0.5, 0.5]]); Y = np.array([1.0, -1.0, 1.0])
>>> sol = theta_hat(X[:2], Y[:2], X[2], B=1.0, R=1.0, lam=1.0)
>>> print(np.round(sol.theta, 8), sol.certified_error < 1e-12)
[0.12824924 0.17416812] True
"""
from __future__ import annotations

import numpy as np

from reference.certify import DEFAULT_TOL, Objective, RefSolution, check_positive, solve_certified
from reference.surrogate_ftl import theta_t as _theta_t
from reference.surrogates import NORM_SLACK, check_history as _check_history, check_x as _check_x
from reference.surrogates import surrogate_objective

__all__ = ["NORM_SLACK", "aioli_objective", "run", "surrogate_objective", "theta_bar", "theta_hat", "theta_t"]

def aioli_objective(X_past, Y_past, thetas_past, x_t, B: float, R: float, lam: float) -> Objective:
    """The objective of eq. (3)/(11) right, given the played history and the new input ``x_t``."""
    x_t = _check_x(x_t, None, check_positive(R, "R"))
    d = x_t.shape[0]
    X_past = np.asarray(X_past, dtype=float).reshape(-1, d)
    thetas_past = np.asarray(thetas_past, dtype=float).reshape(-1, d)
    obj = surrogate_objective(X_past, Y_past, thetas_past, B, R, lam)
    obj.X = np.vstack([x_t, x_t])
    obj.Y = np.array([1.0, -1.0])
    obj.w = np.ones(2)
    return obj


def theta_bar(X_past, Y_past, thetas_past, x_t, B: float, R: float, lam: float,
              tol: float = DEFAULT_TOL, start=None) -> RefSolution:
    """Certified θ̄_t of eq. (11): surrogates built at the played ``thetas_past``."""
    obj = aioli_objective(X_past, Y_past, thetas_past, x_t, B, R, lam)
    return solve_certified(obj, tol=tol, start=start, what="aioli.theta_bar")


def theta_t(X_past, Y_past, thetas_past, B: float, R: float, lam: float,
            tol: float = DEFAULT_TOL) -> RefSolution:
    """Certified θ_t = argmin L̂_{t-1} of eq. (11) left (a quadratic; Newton is exact)."""
    return _theta_t(X_past, Y_past, thetas_past, B, R, lam, tol=tol)


def run(X, Y, B: float, R: float, lam: float, tol: float = DEFAULT_TOL,
        solver: str = "cvxpy") -> list[RefSolution]:
    """The exact AIOLI of eq. (3) on a whole sequence: one certified solve per round.

    Each θ̂_t is certified given the previously computed θ̂_s (s < t) as the played history.
    ``solver="newton"`` warm-starts Newton from θ̂_{t-1} instead of calling cvxpy (same certificate).
    """
    X, Y, _ = _check_history(X, Y, None, None, check_positive(R, "R"))
    d = X.shape[1]
    thetas = np.zeros((0, d))
    out: list[RefSolution] = []
    for t in range(X.shape[0]):
        start = None
        if solver == "newton":
            start = thetas[-1] if t else np.zeros(d)
        sol = theta_bar(X[:t], Y[:t], thetas, X[t], B, R, lam, tol=tol, start=start)
        out.append(sol)
        thetas = np.vstack([thetas, sol.theta])
    return out


def theta_hat(X, Y, x_t, B: float, R: float, lam: float, tol: float = DEFAULT_TOL,
              solver: str = "newton") -> RefSolution:
    """Certified θ̂_t of eq. (3) given the past ``X`` (= x_1..x_{t-1}), ``Y`` and the new ``x_t``.

    The past estimators θ̂_1..θ̂_{t-1} are computed by the same certified recursion (:func:`run`);
    the certificate of the result is relative to that computed history (each past θ̂_s is itself
    within its own ``certified_error`` of the exact one).
    """
    x_t = _check_x(x_t, None, check_positive(R, "R"))
    d = x_t.shape[0]
    X, Y, _ = _check_history(np.asarray(X, dtype=float).reshape(-1, d), Y, None, d, R)
    past = run(X, Y, B, R, lam, tol=tol, solver=solver) if X.shape[0] else []
    thetas = np.array([s.theta for s in past]).reshape(-1, d)
    start = thetas[-1] if (solver == "newton" and len(past)) else (np.zeros(d) if solver == "newton" else None)
    sol = theta_bar(X, Y, thetas, x_t, B, R, lam, tol=tol, start=start)
    sol.extra["past_errors_max"] = max((s.certified_error for s in past), default=0.0)
    return sol

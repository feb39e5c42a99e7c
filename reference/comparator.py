"""The best comparator in hindsight over the B-ball, with and without the ridge term.

.. math::

    \\theta^* \\in \\mathop{\\rm argmin}_{\\|\\theta\\| \\le B}\\ \\sum_{t=1}^n \\log(1+e^{-y_t\\theta^\\top x_t})
    + \\lambda\\|\\theta\\|^2 .

This is what every regret check needs (seed 000, eq. (1) and the working definition of
:math:`R_n(\\theta)` over :math:`\\mathcal B(\\mathbb R^d, B)`; seed 003 ``Regret_T`` with labels absorbed).

With ``lam > 0`` the objective is :math:`2\\lambda`-strongly convex and ``certified_error`` bounds
:math:`\\|\\theta-\\theta^*\\|`. With ``lam = 0`` it is strongly convex on the ball only when the data
span :math:`\\mathbb R^d`; then :math:`\\mu \\ge \\lambda_{\\min}(\\sum_t\\sigma'(B\\|x_t\\|)x_tx_t^\\top)`,
certified in arb, is used. Otherwise ``certified_error`` is None and only the VALUE gap
``value_gap`` (a certified bound on ``value - min``) is certified, which is what regret needs.

>>> import numpy as np
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]); Y = np.array([1.0, -1.0, 1.0])
>>> sol = best_in_ball(X, Y, B=1.0, lam=0.0)
>>> print(f"{sol.value:.10f}", sol.value_gap < 1e-10, sol.on_boundary)
1.2941770732 True True
"""
from __future__ import annotations

import numpy as np

from reference.certify import (DEFAULT_TOL, Objective, RefSolution, check_labels, check_matrix,
                               check_positive, certified_mu_logistic_ball, solve_certified)


def comparator_objective(X, Y, B: float, lam: float = 0.0, certify_mu: bool = True) -> Objective:
    X = check_matrix(X, "X")
    Y = check_labels(Y, X.shape[0], "Y")
    B = check_positive(B, "B")
    lam = check_positive(lam, "lam", allow_zero=True)
    obj = Objective(d=X.shape[1], X=X, Y=Y, lam=lam)
    mu = 2.0 * lam
    if certify_mu and X.shape[0] >= X.shape[1]:
        mu += certified_mu_logistic_ball(X, obj.w, B)
    obj.mu = mu
    return obj


def best_in_ball(X, Y, B: float, lam: float = 0.0, tol: float = DEFAULT_TOL) -> RefSolution:
    """Certified ``argmin_{||theta|| <= B} sum_t log(1+exp(-y_t theta^T x_t)) + lam ||theta||^2``.

    ``value`` is the objective at ``theta`` (the sum of logistic losses plus ``lam ||theta||^2``);
    ``value_gap`` bounds ``value - min`` and ``value_bounds`` encloses ``min``. With ``lam > 0`` the
    tolerance applies to ``certified_error``; with ``lam = 0`` to ``value_gap`` (``certified_error``
    is then reported when a curvature bound certifies, and may be large or None). Raises
    :class:`reference.certify.CertificationError` when the solver fails or a bound exceeds ``tol``.
    """
    obj = comparator_objective(X, Y, B, lam)
    target = "theta" if lam > 0 else "value"
    start = np.zeros(obj.d) if obj.X.shape[0] == 0 else None
    return solve_certified(obj, B=B, tol=tol, start=start, what="best_in_ball", target=target)


def best_unconstrained(X, Y, lam: float, tol: float = DEFAULT_TOL) -> RefSolution:
    """Certified ``argmin_theta sum_t log(1+exp(-y_t theta^T x_t)) + lam ||theta||^2`` (lam > 0)."""
    X = check_matrix(X, "X")
    Y = check_labels(Y, X.shape[0], "Y")
    lam = check_positive(lam, "lam")
    obj = Objective(d=X.shape[1], X=X, Y=Y, lam=lam, mu=2.0 * lam)
    return solve_certified(obj, B=None, tol=tol, what="best_unconstrained")

"""Follow-the-regularised-leader on the logistic losses, unconstrained or in the B-ball.

.. math::

    \\theta_t = \\mathop{\\rm argmin}_{\\theta\\in\\Theta}\\ \\sum_{s=1}^{t-1}\\log(1+e^{-y_s\\theta^\\top x_s})
    + \\lambda\\|\\theta\\|^2,\\qquad \\Theta=\\mathbb R^d \\text{ or } \\mathcal B(\\mathbb R^d,B).

Seed 000 §5 uses "FTRL with ℓ2-regularization and λ = 1" without printing the update; the λ‖θ‖²
scaling here follows the paper's own regulariser in eq. (3). A learner using (λ/2)‖θ‖² is compared
with ``lam/2``. Certificate: ``||theta - theta*|| <= ||grad F||/(2 lam)`` (arb), KKT bound on the ball.
"""
from __future__ import annotations

import numpy as np

from reference.certify import (DEFAULT_TOL, Objective, RefSolution, check_labels, check_matrix,
                               check_positive, solve_certified)


def ftrl_argmin(X_past, Y_past, lam: float, B: float | None = None, d: int | None = None,
                tol: float = DEFAULT_TOL, start=None) -> RefSolution:
    """Certified FTRL iterate from the past rounds (``d`` is needed when the past is empty)."""
    lam = check_positive(lam, "lam")
    if B is not None:
        B = check_positive(B, "B")
    X = np.asarray(X_past, dtype=float)
    if X.size == 0:
        if d is None:
            raise ValueError("d is needed when X_past is empty")
        X = np.zeros((0, d))
    X = check_matrix(X, "X_past", d)
    Y = check_labels(Y_past, X.shape[0], "Y_past")
    obj = Objective(d=X.shape[1], X=X, Y=Y, lam=lam, mu=2.0 * lam)
    if X.shape[0] == 0:
        start = np.zeros(obj.d)
    return solve_certified(obj, B=B, tol=tol, start=start, what="ftrl_argmin")

"""Surrogate follow-the-leader: θ_t of seed 000, eq. (11) left.

.. math::

    \\theta_t = \\mathop{\\rm argmin}_{\\theta\\in\\mathbb R^d}\\widehat L_{t-1}(\\theta),\\qquad
    \\widehat L_{t-1}(\\theta) = \\sum_{s=1}^{t-1}\\widehat\\ell_s(\\theta) + \\lambda\\|\\theta\\|^2,

with the surrogates of eq. (2) built at the played points ``thetas_past``. The paper's closed form
(App. B, step 4) is :math:`\\theta_t = A_{t-1}^{-1}b_{t-1}` with :math:`A,b` of eq. (14); this reference
does NOT use it: it minimises the objective itself (cvxpy, Newton polish) and certifies
``||theta - theta*|| <= ||grad||/(2 lam)`` in arb, so that the closed form can be checked against it.
"""
from __future__ import annotations

import numpy as np

from reference.certify import DEFAULT_TOL, RefSolution, solve_certified
from reference.surrogates import surrogate_objective


def theta_t(X_past, Y_past, thetas_past, B: float, R: float, lam: float,
            tol: float = DEFAULT_TOL, start=None) -> RefSolution:
    """Certified argmin of L̂_{t-1} given the played history (any t >= 1; t = 1 gives 0)."""
    Y_past = np.asarray(Y_past, dtype=float).reshape(-1)
    obj = surrogate_objective(X_past, Y_past, thetas_past, B, R, lam)
    if obj.Xs.shape[0] == 0:
        return solve_certified(obj, tol=tol, start=np.zeros(obj.d), what="surrogate_ftl.theta_t")
    return solve_certified(obj, tol=tol, start=start, what="surrogate_ftl.theta_t")

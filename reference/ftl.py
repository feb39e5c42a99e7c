"""Follow-the-leader in the B-ball: the best comparator of the past rounds.

.. math::

    \\theta_t \\in \\mathop{\\rm argmin}_{\\|\\theta\\|\\le B}\\ \\sum_{s=1}^{t-1}\\log(1+e^{-y_s\\theta^\\top x_s})

(seed 004, eq. (1) is FTL's batch problem; seed 003 §1 cites FTL). Without a regulariser the
minimiser need not be unique (e.g. t - 1 < d): the certificate is on the VALUE
(``value_gap``), and a learner is compared by its objective value, not by its iterate.
"""
from __future__ import annotations

import numpy as np

from reference.certify import DEFAULT_TOL, RefSolution
from reference.comparator import best_in_ball


def ftl_argmin(X_past, Y_past, B: float, d: int | None = None, tol: float = DEFAULT_TOL) -> RefSolution:
    X = np.asarray(X_past, dtype=float)
    if X.size == 0:
        if d is None:
            raise ValueError("d is needed when X_past is empty")
        X = np.zeros((0, d))
    return best_in_ball(X, Y_past, B, lam=0.0, tol=tol)

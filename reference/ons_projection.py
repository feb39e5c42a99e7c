"""ONS's generalised projection onto the B-ball (Hazan et al. 2007, cited by seeds 000, 003, 004).

.. math::

    \\Pi^{A}_{B}(y) = \\mathop{\\rm argmin}_{\\|\\theta\\|\\le B}\\ (\\theta-y)^\\top A(\\theta-y),\\qquad A\\succ0 .

Strong convexity :math:`\\mu = 2\\lambda_{\\min}(A)` is certified by an arb Cholesky factorisation of
:math:`A - (\\mu/2)I`; the KKT bound on the ball then bounds ``||theta - theta*||``.
"""
from __future__ import annotations

import numpy as np

from reference.certify import (DEFAULT_TOL, CertificationError, Objective, RefSolution, check_matrix,
                               check_positive, certified_mu_quadratic, solve_certified)


def generalized_projection(y, A, B: float, tol: float = DEFAULT_TOL) -> RefSolution:
    y = np.asarray(y, dtype=float).reshape(-1)
    if not np.all(np.isfinite(y)):
        raise ValueError("y contains NaN or inf")
    A = check_matrix(A, "A", y.shape[0])
    if A.shape[0] != A.shape[1]:
        raise ValueError("A must be square")
    B = check_positive(B, "B")
    A = 0.5 * (A + A.T)
    mu = certified_mu_quadratic(A)
    if mu <= 0:
        raise CertificationError("A is not certified positive definite")
    obj = Objective(d=y.shape[0], Q=A, q=y, mu=mu)
    start = y if np.linalg.norm(y) <= B else None
    return solve_certified(obj, B=B, tol=tol, start=start, what="generalized_projection")

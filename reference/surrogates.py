"""The regularised cumulative surrogate loss of seed 000 (App. A), shared by :mod:`reference.aioli` and
:mod:`reference.surrogate_ftl` (one module both import, so neither imports the other's internals).

.. math::

    \\widehat L_{t-1}(\\theta) = \\sum_{s=1}^{t-1}\\widehat\\ell_s(\\theta) + \\lambda\\|\\theta\\|^2,\\qquad
    \\widehat\\ell_s(\\theta) = \\ell_s(\\widehat\\theta_s) + g_s^\\top(\\theta-\\widehat\\theta_s)
    + \\frac{\\eta_s}{2}(g_s^\\top(\\theta-\\widehat\\theta_s))^2 \\quad\\text{(eq. (2))},

built at the played points ``thetas_past``, with the input checks of the references (rows in the R-ball).
"""
from __future__ import annotations

import numpy as np

from reference.certify import Objective, check_labels, check_matrix, check_positive

NORM_SLACK = 1e-12  # ||x|| <= R (1 + NORM_SLACK): rows normalised to R in float stay admissible


def check_history(X, Y, thetas, d: int | None, R: float):
    X = check_matrix(X, "X", d)
    Y = check_labels(Y, X.shape[0], "Y")
    if thetas is not None:
        thetas = check_matrix(thetas, "thetas", X.shape[1])
        if thetas.shape[0] != X.shape[0]:
            raise ValueError(f"thetas must have {X.shape[0]} rows, got {thetas.shape[0]}")
    if X.shape[0] and np.max(np.linalg.norm(X, axis=1)) > R * (1 + NORM_SLACK):
        raise ValueError("X has a row with ||x|| > R")
    return X, Y, thetas


def check_x(x_t, d: int | None, R: float) -> np.ndarray:
    x_t = np.asarray(x_t, dtype=float).reshape(-1)
    if d is not None and x_t.shape[0] != d:
        raise ValueError(f"x_t must have {d} entries, got {x_t.shape[0]}")
    if not np.all(np.isfinite(x_t)):
        raise ValueError("x_t contains NaN or inf")
    if np.linalg.norm(x_t) > R * (1 + NORM_SLACK):
        raise ValueError("x_t has ||x_t|| > R")
    return x_t


def surrogate_objective(X_past, Y_past, thetas_past, B: float, R: float, lam: float) -> Objective:
    """The regularised cumulative surrogate loss L̂_{t-1} (App. A) as an :class:`Objective`."""
    B, R, lam = check_positive(B, "B"), check_positive(R, "R"), check_positive(lam, "lam")
    d = np.asarray(thetas_past).reshape(len(Y_past), -1).shape[1] if len(Y_past) else None
    X, Y, T = check_history(X_past, Y_past, thetas_past, d, R)
    return Objective(d=X.shape[1], Xs=X, Ys=Y, Ts=T, BR=B * R, lam=lam, mu=2.0 * lam)

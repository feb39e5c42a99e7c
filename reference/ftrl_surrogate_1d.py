"""Seed 003, Algorithm 1 (FTRL for logistic losses, one dimension): the exact argmin, certified in arb.

.. math::

    w_t = \\mathop{\\rm argmin}_{w\\in[-D,D]}\\Big\\{\\sum_{\\tau=1}^{t-1}\\tilde\\ell_\\tau(w) + \\frac1\\eta R(w)\\Big\\},
    \\qquad R(w) = \\frac{w^2}{16D},

with the approximate losses of Eq. (4), built at the PLAYED points :math:`w_\\tau`
(:math:`g_\\tau=\\sigma(x_\\tau w_\\tau)`, :math:`y_\\tau=g_\\tau x_\\tau`, :math:`\\beta=1/(8D)`):

1. :math:`w_\\tau\\ge0, x_\\tau\\ge1/D`: :math:`a_0+y_\\tau w+\\frac\\beta2y_\\tau^2w^2\\mathbb 1_{w\\le0}`;
2. :math:`w_\\tau\\le0, x_\\tau\\le-1/D`: :math:`a_0+y_\\tau w+\\frac\\beta2y_\\tau^2w^2\\mathbb 1_{w\\ge0}`;
3. :math:`|x_\\tau|\\le1/D` or :math:`x_\\tau w_\\tau\\le0`: :math:`a_0+y_\\tau w+\\frac\\beta2y_\\tau^2(w-w_\\tau)^2`.

The cases overlap (e.g. :math:`w_\\tau=0`, which is :math:`w_1`): the first case that applies, in printed
order, is used (``case_of``); the paper does not say. The objective is a convex quadratic on each
half-line with a common slope :math:`L=\\sum_\\tau y_\\tau` at 0, so the argmin is exact:
:math:`w_t=\\min(D,-L/(2A_+))` if :math:`L<0`, :math:`\\max(-D,-L/(2A_-))` if :math:`L>0`, 0 otherwise. The
coefficients are computed in arb (128 bits) from the exact floats, the case tests in exact rationals;
``certified_error`` is the radius of the enclosure. (No cvxpy here: the exact formula is stronger.)

>>> sol = ftrl_1d_argmin([1.0, 1.0], [0.0, 0.5], D=2.0, eta=0.5)
>>> print(f"{sol.theta[0]:.12f}", sol.certified_error < 1e-30)
-2.000000000000 True
"""
from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np

from reference.certify import RefSolution, arb_precision, check_positive


def case_of(w_tau: float, x_tau: float, D: float) -> int:
    """Which printed case of Eq. (4) applies (first match, exact rational comparisons)."""
    w, x, Dq = Fraction(w_tau), Fraction(x_tau), Fraction(D)
    if w >= 0 and x * Dq >= 1:
        return 1
    if w <= 0 and x * Dq <= -1:
        return 2
    return 3


def _coefficients(X_past, W_past, D: float, eta: float):
    """Arb coefficients (A_minus, A_plus, L, C) of F on w <= 0 and w >= 0: F = A w^2 + L w + C."""
    Dq, beta = flint.arb(D), 1 / (8 * flint.arb(D))
    reg = 1 / (16 * Dq * flint.arb(eta))
    Am, Ap, L, C = reg, reg, flint.arb(0), flint.arb(0)
    for x, w in zip(X_past, W_past):
        xa, wa = flint.arb(x), flint.arb(w)
        xw = xa * wa
        g = 1 / (1 + (-xw).exp())
        y = g * xa
        a0 = (1 + xw.exp()).log() - g * xw
        q = beta / 2 * y * y
        c = case_of(w, x, D)
        L += y
        C += a0
        if c == 1:
            Am += q
        elif c == 2:
            Ap += q
        else:
            Am += q
            Ap += q
            L -= 2 * q * wa
            C += q * wa * wa
    return Am, Ap, L, C


def _argmin(Am, Ap, L, lo, hi):
    """Arb enclosure of the minimiser of the convex piecewise quadratic, clipped to [lo, hi]."""
    if L < 0:
        w = -L / (2 * Ap)
        return flint.arb(hi) if hi is not None and w > hi else (w if hi is None or w < hi else w.union(flint.arb(hi)))
    if L > 0:
        w = -L / (2 * Am)
        return flint.arb(lo) if lo is not None and w < lo else (w if lo is None or w > lo else w.union(flint.arb(lo)))
    r = abs(L).upper() / (2 * min(Am.lower(), Ap.lower()))
    return flint.arb(0, r)


def _solution(X_past, W_past, D, eta, constrained: bool) -> RefSolution:
    D = check_positive(D, "D")
    eta = check_positive(eta, "eta")
    X = np.asarray(X_past, dtype=float).reshape(-1)
    W = np.asarray(W_past, dtype=float).reshape(-1)
    if X.shape != W.shape:
        raise ValueError("X_past and W_past must have the same length")
    if not (np.all(np.isfinite(X)) and np.all(np.isfinite(W))):
        raise ValueError("X_past or W_past contains NaN or inf")
    if np.any(np.abs(X) > 1):
        raise ValueError("X_past must lie in [-1, 1]")
    with arb_precision():
        Am, Ap, L, C = _coefficients(X.tolist(), W.tolist(), D, eta)
        w = _argmin(Am, Ap, L, -D if constrained else None, D if constrained else None)
        mid = float(w.mid())
        err = float((abs(w - mid)).upper())
        A = Ap if mid >= 0 else Am
        value = A * mid * mid + L * mid + C
    return RefSolution(theta=np.array([mid]), value=float(value.mid()), certified_error=err,
                       value_gap=float((A * err * err + abs(L) * err).upper()) if err else 0.0,
                       solver="exact piecewise quadratic (arb)",
                       certified="enclosure of the exact argmin of the piecewise quadratic (arb, 128 bits)",
                       mu=float((2 * min(Am.lower(), Ap.lower()))), extra={"slope_at_0": float(L.mid())})


def ftrl_1d_argmin(X_past, W_past, D: float, eta: float) -> RefSolution:
    """w_t of Algorithm 1 given the past inputs x_τ and PLAYED points w_τ (τ < t)."""
    return _solution(X_past, W_past, D, eta, constrained=True)


def global_argmin(X_past, W_past, D: float, eta: float) -> RefSolution:
    """u_t of Algorithm 2: the same objective minimised over the whole real line."""
    return _solution(X_past, W_past, D, eta, constrained=False)

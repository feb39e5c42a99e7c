"""High-precision (mpmath, 50 digits by default) versions of the reference objectives.

Used by the hunters and the replayers to confirm a counterexample: every number enters as an exact
decimal string, a float (converted exactly) or an ``mpf``, and is evaluated at ``dps`` digits.

- :func:`logistic_loss_mp` — :math:`\\log(1+e^{-y z})` (stable form for large margins);
- :func:`logistic_loss_sum_mp` — :math:`\\sum_t \\log(1+e^{-y_t\\theta^\\top x_t})`;
- :func:`objective_mp` — the same plus :math:`\\lambda\\|\\theta\\|^2`;
- :func:`best_in_ball_mp` — :math:`\\min_{\\|\\theta\\|\\le B}` of :func:`objective_mp` by Newton (interior) or
  Newton on the KKT system of the sphere, started from the certified float solution
  (:func:`reference.comparator.best_in_ball`), with the KKT residual and a value-gap bound
  :math:`\\|\\nabla F+\\nu\\theta\\|\\cdot 2B + \\nu\\|\\theta\\|(B-\\|\\theta\\|)` at ``dps`` digits.

>>> sol = best_in_ball_mp([["1", "0"], ["0", "1"], ["1", "1"]], ["1", "-1", "1"], B="1")
>>> print(mpmath.nstr(sol.value, 30), sol.on_boundary, sol.value_gap < mpmath.mpf("1e-45"))
1.29417707315989426710206164598 True True
"""
from __future__ import annotations

import dataclasses

import mpmath
import numpy as np


def mpf(v) -> mpmath.mpf:
    """Exact conversion: floats keep their binary value, strings their decimal value."""
    if isinstance(v, (float, np.floating)):
        return mpmath.mpf(float(v))
    return mpmath.mpf(v)


def _vec(v) -> list:
    return [mpf(x) for x in np.asarray(v, dtype=object).reshape(-1).tolist()]


def _mat(X) -> list[list]:
    arr = np.asarray(X, dtype=object)
    if arr.ndim == 1:
        arr = arr.reshape(-1, 1)
    return [[mpf(x) for x in row] for row in arr.tolist()]


def logistic_loss_mp(z, y=1):
    """log(1 + exp(-y z)) at the current mpmath precision, stable for large |z|."""
    m = -mpf(y) * mpf(z)
    if m > 0:
        return m + mpmath.log1p(mpmath.exp(-m))
    return mpmath.log1p(mpmath.exp(m))


def _dot(a, b):
    return mpmath.fsum(x * y for x, y in zip(a, b))


def logistic_loss_sum_mp(X, Y, theta, dps: int = 50):
    """sum_t log(1 + exp(-y_t theta^T x_t)) at ``dps`` digits."""
    with mpmath.workdps(dps):
        Xm, Ym, th = _mat(X), _vec(Y), _vec(theta)
        return mpmath.fsum(logistic_loss_mp(_dot(x, th), y) for x, y in zip(Xm, Ym))


def objective_mp(X, Y, theta, lam=0, dps: int = 50):
    """sum_t log(1 + exp(-y_t theta^T x_t)) + lam ||theta||^2 at ``dps`` digits."""
    with mpmath.workdps(dps):
        th = _vec(theta)
        return logistic_loss_sum_mp(X, Y, th, dps) + mpf(lam) * _dot(th, th)


@dataclasses.dataclass
class MPSolution:
    theta: list
    value: mpmath.mpf
    residual: mpmath.mpf      # ||grad F + nu theta|| (KKT residual)
    value_gap: mpmath.mpf     # bound on value - min at dps digits
    on_boundary: bool
    multiplier: mpmath.mpf
    dps: int


def _grad_hess(Xm, Ym, lam, th):
    d = len(th)
    g = [2 * lam * t for t in th]
    H = mpmath.matrix(d, d)
    for i in range(d):
        H[i, i] = 2 * lam
    for x, y in zip(Xm, Ym):
        z = y * _dot(x, th)
        s = 1 / (1 + mpmath.exp(z))            # sigma(-y z)
        c = -y * s
        h = s * (1 - s)
        for i in range(d):
            g[i] += c * x[i]
            for j in range(d):
                H[i, j] += h * x[i] * x[j]
    return g, H


def best_in_ball_mp(X, Y, B, lam=0, dps: int = 50, iters: int = 40) -> MPSolution:
    """min over ||theta|| <= B of the logistic sum + lam ||theta||^2, at ``dps`` digits."""
    from reference.comparator import best_in_ball

    Xf = np.array([[float(mpf(v)) for v in row] for row in np.asarray(X, dtype=object).reshape(len(Y), -1)])
    Yf = np.array([float(mpf(v)) for v in np.asarray(Y, dtype=object).reshape(-1)])
    start = best_in_ball(Xf, Yf, float(mpf(B)), float(mpf(lam)), tol=1e-6)
    with mpmath.workdps(dps + 10):
        Xm, Ym, Bm, lm = _mat(X), _vec(Y), mpf(B), mpf(lam)
        d = len(Xm[0])
        th = [mpf(v) for v in start.theta.tolist()]
        tiny = mpmath.mpf(10) ** (-(dps + 5))
        boundary = start.on_boundary
        nu = mpf(start.multiplier)
        for _ in range(iters):
            g, H = _grad_hess(Xm, Ym, lm, th)
            if boundary:
                nrm = mpmath.sqrt(_dot(th, th))
                th = [Bm * t / nrm for t in th]
                g, H = _grad_hess(Xm, Ym, lm, th)
                K = mpmath.matrix(d + 1, d + 1)
                for i in range(d):
                    for j in range(d):
                        K[i, j] = H[i, j] + (2 * nu if i == j else 0)
                    K[i, d] = K[d, i] = 2 * th[i]
                rhs = mpmath.matrix([-(g[i] + 2 * nu * th[i]) for i in range(d)] + [-(_dot(th, th) - Bm * Bm)])
                step = mpmath.lu_solve(K, rhs)
                th = [th[i] + step[i] for i in range(d)]
                nu = nu + step[d]
                res = mpmath.norm(mpmath.matrix([g[i] + 2 * nu * th[i] for i in range(d)]))
            else:
                step = mpmath.qr_solve(H, mpmath.matrix(g))[0] if lm == 0 else mpmath.lu_solve(H, mpmath.matrix(g))
                th = [th[i] - step[i] for i in range(d)]
                res = mpmath.norm(mpmath.matrix(g))
            if res < tiny:
                break
        if boundary:
            nrm = mpmath.sqrt(_dot(th, th))
            th = [Bm * t / nrm for t in th]
        g, _ = _grad_hess(Xm, Ym, lm, th)
        nrm = mpmath.sqrt(_dot(th, th))
        r = mpmath.norm(mpmath.matrix([g[i] + 2 * nu * th[i] for i in range(d)]))
        gap = r * 2 * Bm + abs(2 * nu * nrm * (Bm - nrm))
        value = objective_mp(Xm, Ym, th, lm, dps + 10)
    with mpmath.workdps(dps):
        return MPSolution(theta=[+t for t in th], value=+value, residual=+r, value_gap=+gap,
                          on_boundary=boundary, multiplier=+nu, dps=dps)


def theta_bar_mp(X_past, Y_past, thetas_past, x_t, B, R, lam, dps: int = 50, start=None, iters: int = 60):
    """θ̄_t of seed 000 eq. (11) (eq. (3) given the played history) by Newton at ``dps`` digits.

    Returns (theta as a list of mpf, gradient norm). The objective is 2λ-strongly convex, so the
    distance to the exact minimiser is at most ||grad||/(2λ) (at ``dps`` digits).
    """
    with mpmath.workdps(dps + 10):
        x = _vec(x_t)
        d = len(x)
        Xs = _mat(X_past) if len(Y_past) else []
        Ys = _vec(Y_past) if len(Y_past) else []
        Ts = _mat(thetas_past) if len(Y_past) else []
        B, R, lam = mpf(B), mpf(R), mpf(lam)
        coef = []
        for xs, ys, ts in zip(Xs, Ys, Ts):
            m = _dot(xs, ts)
            a = -ys / (1 + mpmath.exp(ys * m))
            eta = mpmath.exp(ys * m) / (1 + B * R)
            coef.append((xs, m, a, eta * a * a))
        th = [mpf(v) for v in (start if start is not None else [0] * d)]

        def grad_hess(th):
            g = [2 * lam * t for t in th]
            H = mpmath.matrix(d, d)
            for i in range(d):
                H[i, i] = 2 * lam
            for xs, m, a, ea2 in coef:
                r = _dot(xs, th) - m
                c = a + ea2 * r
                for i in range(d):
                    g[i] += c * xs[i]
                    for j in range(d):
                        H[i, j] += ea2 * xs[i] * xs[j]
            z = _dot(x, th)
            c = mpmath.tanh(z / 2)                      # d/dz [log(1+e^-z) + log(1+e^z)]
            h = (1 - c * c) / 2
            for i in range(d):
                g[i] += c * x[i]
                for j in range(d):
                    H[i, j] += h * x[i] * x[j]
            return g, H

        for _ in range(iters):
            g, H = grad_hess(th)
            gn = mpmath.norm(mpmath.matrix(g))
            if gn < mpmath.mpf(10) ** (-(dps + 5)):
                break
            step = mpmath.lu_solve(H, mpmath.matrix(g))
            th = [th[i] - step[i] for i in range(d)]
        g, _ = grad_hess(th)
        gn = mpmath.norm(mpmath.matrix(g))
    with mpmath.workdps(dps):
        return [+t for t in th], +gn

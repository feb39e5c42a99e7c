"""The 50-digit twins of the shipped learners: the recursions the hunts REPLAY a candidate with (>= 50 digits).

The hunts' float64 search runs the shipped learners of ``algorithms/`` (:mod:`olr_verify.hunting.shipped`);
these classes re-run the same recursions over mpmath so that a violation found in float64 is confirmed (or
dismissed) at 50/80 digits (:mod:`confirm`).  tests/hunting/test_learner_twins.py checks every (shipped, twin)
pair the hunts use to 1e-12.  They still accept the float64 backend, which some coverage checks
(olr_verify/papers/s000_aioli/runs_per_round.py, s003_hkl/theorem9_relations.py) use for their per-round identities.

All classes take a backend ``K`` (:data:`~olr_verify.hunting.numerics.FLOAT` or
:data:`~olr_verify.hunting.numerics.MP`) and follow the contract's shape: ``predict(x)`` has no side
effect, ``update(x, y)`` (labels +-1) or ``update_gradient(x, g)`` (the adversary's |g| <= 1) moves on.

- :class:`AioliExact` — seed 000, eq. (3), solved exactly through the 1-D reduction of Lemma 2:
  with A_{t-1}, b_{t-1} of eq. (5), the first-order condition of (3) reads
  ``2 A theta - 2 b + tanh(theta^T x / 2) x = 0``, so ``theta = A^{-1}(b - tanh(z/2) x / 2)`` where
  z = theta^T x is the unique root of ``z - p + (q/2) tanh(z/2)`` (p = x^T A^{-1} b, q = x^T A^{-1} x);
  the root lies in [p - q/2, p + q/2] and is found by safeguarded Newton to the backend's precision.
  Options: ``eps_dir`` (Theorem 7: play theta_bar + eps * u_t, u_t chosen by the adversary) and
  ``gd_steps`` (Theorem 4 / Algorithm 2: T gradient steps of Lemma 3 on (6) from omega = 0, written in
  theta coordinates as ``theta <- theta - gamma (2 theta - 2 A^{-1} b + tanh(x^T theta / 2) A^{-1} x)``,
  gamma = lam / (4 lam + R^2); the map omega -> theta of eq. (7) is an isometry onto span(W_t), so the
  iterates coincide).
- :class:`ScaleInvariant1` / :class:`ScaleInvariant2` — seed 002, Algorithms 1 and 2 (eqs. (5), (7)).
- :class:`Ftrl003` — seed 003, Algorithm 1 (FTRL on the surrogate losses of eq. (4), on [-D, D]).
"""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from olr_verify.hunting.numerics import FLOAT


def solve_increasing(f: Callable, fprime: Callable, lo: Any, hi: Any, z0: Any, K, max_iter: int = 400) -> Any:
    """Root of an increasing function on [lo, hi] (f(lo) <= 0 <= f(hi)): Newton kept inside the bracket."""
    z = z0 if lo <= z0 <= hi else (lo + hi) / 2
    for _ in range(max_iter):
        fz = f(z)
        if fz > 0:
            hi = z
        elif fz < 0:
            lo = z
        else:
            return z
        step = fz / fprime(z)
        znew = z - step
        if not (lo < znew < hi):
            znew = (lo + hi) / 2
        if abs(znew - z) <= K.eps * (1 + abs(z)) or hi - lo <= K.eps * (1 + abs(z)):
            return znew
        z = znew
    return z


def aioli_round_terms(x: Any, y: int, yhat: Any, B: Any, R: Any, K=FLOAT) -> tuple[Any, Any, Any]:
    """(g_t, g_t^{-y_t}, eta_t) of seed 000 at the played prediction yhat = theta_hat_t . x_t.

    g_t = -y x / (1 + e^{y yhat}) (gradient of the loss), g_t^{-y_t} = y x / (1 + e^{-y yhat}) (eq. (20)),
    eta_t = e^{y yhat} / (1 + BR) (eq. (9)).
    """
    m = y * yhat
    return -y * x * K.sigmoid(-m), y * x * K.sigmoid(m), K.exp(m) / (1 + K.num(B) * K.num(R))


class AioliExact:
    """AIOLI, seed 000 eq. (3) with the statistics (5), exact minimiser (see module docstring)."""

    def __init__(self, d: int, B: Any, R: Any, lam: Any, K=FLOAT, eps: Any = 0, gd_steps: int = 0,
                 trace: bool = False):
        if d < 1:
            raise ValueError("d must be >= 1")
        for name, v in (("B", B), ("R", R), ("lam", lam)):
            if not float(v) > 0:
                raise ValueError(f"{name} must be > 0, got {v}")
        self.K, self.d = K, d
        self.B, self.R, self.lam = K.num(B), K.num(R), K.num(lam)
        self.eps = K.num(eps)
        self.gd_steps = int(gd_steps)
        self.A_inv = K.eye(d) / self.lam
        self.b = K.zeros(d)
        self.t = 0
        self.trace: list[dict] | None = [] if trace else None
        self._dir: Any = None

    def set_direction(self, u: Any) -> None:
        """Theorem 7's adversary: the next estimate is theta_bar + eps * u / ||u||."""
        self._dir = None if u is None else self.K.arr(u)

    def theta_bar(self, x: Any) -> Any:
        """The exact minimiser of (3) (eq. (11)'s theta_bar_t) for input x."""
        K = self.K
        Ax = self.A_inv @ x
        Ab = self.A_inv @ self.b
        p, q = x @ Ab, x @ Ax
        half = K.num(1) / 2

        def f(z):
            return z - p + half * q * K.tanh(z * half)

        def fp(z):
            th = K.tanh(z * half)
            return 1 + q / 4 * (1 - th * th)

        z = solve_increasing(f, fp, p - half * q - 1, p + half * q + 1, p, K)
        return Ab - half * K.tanh(z * half) * Ax

    def theta_gd(self, x: Any) -> Any:
        """Algorithm 2's theta_tilde: T steps of Lemma 3's gradient descent from omega = 0."""
        K = self.K
        Ax, Ab = self.A_inv @ x, self.A_inv @ self.b
        gamma = self.lam / (4 * self.lam + self.R ** 2)
        theta = K.zeros(self.d)
        half = K.num(1) / 2
        for _ in range(self.gd_steps):
            theta = theta - gamma * (2 * theta - 2 * Ab + K.tanh((x @ theta) * half) * Ax)
        return theta

    def theta_hat(self, x: Any) -> Any:
        x = self.K.arr(x)
        if self.gd_steps:
            return self.theta_gd(x)
        th = self.theta_bar(x)
        if self._dir is not None and self.eps != 0:
            u = self._dir
            nu = self.K.sqrt(u @ u)
            if nu > 0:
                th = th + self.eps * u / nu
        return th

    def predict(self, x: Any) -> Any:
        x = self.K.arr(x)
        return self.theta_hat(x) @ x

    def update(self, x: Any, y: int) -> None:
        K = self.K
        x = K.arr(x)
        if y not in (-1, 1):
            raise ValueError(f"y must be -1 or +1, got {y}")
        th = self.theta_hat(x)
        g, g_minus, eta = aioli_round_terms(x, y, th @ x, self.B, self.R, K)
        c = eta / 2
        Ag = self.A_inv @ g
        A_inv_new = self.A_inv - c * np.outer(Ag, Ag) / (1 + c * (g @ Ag))
        b_new = self.b + (eta * (g @ th) - 1) * g / 2   # eq. (5)
        if self.trace is not None:
            self.trace.append({"x": x, "y": y, "theta_hat": th,
                               "theta_bar": self.theta_bar(x) if (self.eps != 0 or self.gd_steps) else th,
                               "g": g, "g_minus": g_minus, "eta": eta, "A_inv_prev": self.A_inv,
                               "A_inv": A_inv_new, "b_prev": self.b, "b": b_new})
        self.A_inv, self.b, self.t = A_inv_new, b_new, self.t + 1

    def run(self, X: Any, Y: Any) -> list:
        out = []
        for x, y in zip(X, Y):
            out.append(self.predict(x))
            self.update(x, int(y))
        return out


class ScaleInvariant1:
    """Seed 002, Algorithm 1 (coordinate-wise scale invariant), weights of eq. (5)."""

    def __init__(self, d: int, alpha: Any, K=FLOAT):
        if not float(alpha) > 9 / 8:
            raise ValueError(f"alpha must be > 9/8, got {alpha}")
        self.K, self.d, self.alpha = K, d, K.num(alpha)
        self.s2, self.h, self.t = K.zeros(d), K.zeros(d), 0

    def weights(self, x: Any) -> tuple[Any, Any]:
        K, t = self.K, self.t + 1
        s2 = self.s2 + x * x
        w = K.zeros(self.d)
        for i in range(self.d):
            if s2[i] > 0:
                eta = K.exp((self.h[i] ** 2 + x[i] ** 2) / (2 * self.alpha * s2[i])) / (self.alpha * t * self.d)
                w[i] = eta * self.h[i] / s2[i]
        return w, s2

    def predict(self, x: Any) -> Any:
        x = self.K.arr(x)
        return self.weights(x)[0] @ x

    def update_gradient(self, x: Any, g: Any) -> None:
        x = self.K.arr(x)
        _, self.s2 = self.weights(x)
        self.h = self.h - self.K.num(g) * x
        self.t += 1


class ScaleInvariant2:
    """Seed 002, Algorithm 2 (full scale invariance), weights of eq. (7), Gamma_t of Section 4.2."""

    def __init__(self, d: int, alpha: Any, K=FLOAT):
        if not float(alpha) > 9 / 8:
            raise ValueError(f"alpha must be > 9/8, got {alpha}")
        self.K, self.d, self.alpha = K, d, K.num(alpha)
        self.S, self.h, self.Gamma, self.t = K.zeros((d, d)), K.zeros(d), K.num(0), 0

    def predict(self, x: Any) -> Any:
        K = self.K
        x = K.arr(x)
        S_pinv = K.pinv_sym(self.S + np.outer(x, x))
        eta = K.exp((self.h @ S_pinv @ self.h - self.Gamma) / (2 * self.alpha)) / self.alpha
        return eta * (S_pinv @ self.h) @ x

    def update_gradient(self, x: Any, g: Any) -> None:
        K = self.K
        x, g = K.arr(x), K.num(g)
        self.S = self.S + np.outer(x, x)
        S_pinv = K.pinv_sym(self.S)
        self.h = self.h - g * x
        self.Gamma = self.Gamma + g * g * (x @ S_pinv @ x)
        self.t += 1


class ZeroPredictor:
    """002 Section 4.1: predicts 0 all the time."""

    def __init__(self, d: int, K=FLOAT):
        self.K = K

    def predict(self, x: Any) -> Any:
        return self.K.num(0)

    def update_gradient(self, x: Any, g: Any) -> None:
        pass


def surrogate_003(x: Any, wt: Any, D: Any, K=FLOAT) -> tuple[Any, Any, Any, str]:
    """(a0, y_t, center, case) of seed 003 eq. (4) for the instance x played against w_t = wt.

    y_t = g x with g = e^{x w_t}/(1 + e^{x w_t}), a0 = log(1 + e^{x w_t}) - y_t w_t; cases in printed order
    ("left": quadratic only for w <= 0, "right": only for w >= 0, "both": around w_t everywhere).
    """
    D, x, wt = K.num(D), K.num(x), K.num(wt)
    g = K.sigmoid(x * wt)
    y = g * x
    a0 = K.softplus(x * wt) - g * x * wt
    if wt >= 0 and x >= 1 / D:
        case = "left"
    elif wt <= 0 and x <= -1 / D:
        case = "right"
    else:
        case = "both"
    return a0, y, wt, case


def surrogate_value_003(x: Any, wt: Any, w: Any, D: Any, K=FLOAT) -> Any:
    """l~_t(w) of seed 003 eq. (4), beta = 1/(8D)."""
    a0, y, c, case = surrogate_003(x, wt, D, K)
    w = K.num(w)
    q = 1 / (8 * K.num(D)) / 2 * y * y
    if case == "left":
        return a0 + y * w + (q * w * w if w <= 0 else 0)
    if case == "right":
        return a0 + y * w + (q * w * w if w >= 0 else 0)
    return a0 + y * w + q * (w - c) ** 2


class Ftrl003:
    """Seed 003, Algorithm 1: w_t = argmin_{[-D,D]} sum_{tau<t} l~_tau(w) + w^2 / (16 D eta), l~ of eq. (4).

    Each surrogate is quadratic on each half-line, so F_t is kept as two quadratics
    ``F(w) = a_s w^2 + c_s w + const`` for w >= 0 (s = +) and w <= 0 (s = -).
    Losses are l(w, x) = log(1 + e^{x w}) (label absorbed in x, x in [-1, 1]).
    """

    def __init__(self, D: Any, eta: Any, K=FLOAT):
        self.K, self.D, self.eta = K, K.num(D), K.num(eta)
        self.beta = 1 / (8 * self.D)
        reg = 1 / (16 * self.D * self.eta)
        self.a = {1: reg, -1: reg}
        self.c = {1: K.num(0), -1: K.num(0)}
        self.k = {1: K.num(0), -1: K.num(0)}
        self.w = K.num(0)

    def _argmin(self) -> Any:
        best = None
        for s in (1, -1):
            a, c = self.a[s], self.c[s]
            w = -c / (2 * a)
            w = min(max(w, 0), self.D) if s == 1 else max(min(w, 0), -self.D)
            val = a * w * w + c * w + self.k[s]
            if best is None or val < best[0]:
                best = (val, w)
        return best[1]

    def unconstrained_argmin(self) -> Any:
        """u_t of Algorithm 2 (global minimiser of F_t over the real line)."""
        best = None
        for s in (1, -1):
            a, c = self.a[s], self.c[s]
            w = -c / (2 * a)
            w = max(w, 0) if s == 1 else min(w, 0)
            val = a * w * w + c * w + self.k[s]
            if best is None or val < best[0]:
                best = (val, w)
        return best[1]

    def weight(self) -> Any:
        return self.w

    def predict(self, x: Any) -> Any:
        return self.w * self.K.num(x)

    def surrogate(self, x: Any, wt: Any) -> tuple[Any, Any, Any, str]:
        """(a0, y_t, center, case) of eq. (4) at w_t = wt (see :func:`surrogate_003`)."""
        return surrogate_003(x, wt, self.D, self.K)

    def surrogate_value(self, x: Any, wt: Any, w: Any) -> Any:
        return surrogate_value_003(x, wt, w, self.D, self.K)

    def update(self, x: Any) -> None:
        a0, y, c, case = self.surrogate(x, self.w)
        q = self.beta / 2 * y * y
        for s in (1, -1):
            self.c[s] += y
            self.k[s] += a0
            quad = case == "both" or (case == "left" and s == -1) or (case == "right" and s == 1)
            if quad:
                cc = c if case == "both" else 0
                self.a[s] += q
                self.c[s] += -2 * q * cc
                self.k[s] += q * cc * cc
        self.w = self._argmin()


def aioli_gd_steps(n: int, B: float, R: float, lam: float) -> int:
    """Theorem 4's T = ceil((4 + R^2/lam) log(3 n^2 R^2 / lam (n R^2 / (8 lam) + B))), at least 1: the theorem
    asks for T at least that value, which is negative when the log's argument is below 1 (small n R^2 / lam),
    and 0 gradient steps would not be Algorithm 2."""
    return max(1, int(math.ceil((4 + R * R / lam) * math.log(3 * n * n * R * R / lam * (n * R * R / (8 * lam) + B)))))

"""AIOLI — seed 000 (Jézéquel, Gaillard, Rudi), eq. (3) computed from the sufficient statistics of eq. (5).

The forecaster (eq. (3)) is

    θ̂_t = argmin_θ  Σ_{s<t} ℓ̂_s(θ) + ℓ(θᵀx_t, 1) + ℓ(θᵀx_t, −1) + λ‖θ‖²,      ŷ_t = θ̂_tᵀx_t,

with the quadratic surrogates of eq. (2), ℓ̂_s(θ) = ℓ_s(θ̂_s) + g_sᵀ(θ−θ̂_s) + (η_s/2)(g_sᵀ(θ−θ̂_s))²,
η_s = e^{y_s ŷ_s}/(1+BR), g_s = ∇ℓ_s(θ̂_s) = −y_s σ(−y_s ŷ_s) x_s. Up to a constant, the objective is
θᵀA_{t−1}θ − 2θᵀb_{t−1} + log(2 + 2 cosh(θᵀx_t)) with (eq. (5), also App. B eq. (14))

    A_t = λI + ½ Σ_{s≤t} η_s g_s g_sᵀ,      b_t = ½ Σ_{s≤t} (η_s g_sᵀθ̂_s − 1) g_s.

Symbols → arguments: λ → ``lam`` (default 1/B², Theorem 1 / eq. (4)), B → ``B``, R → ``R``, Lemma 3's T → ``inner_steps``.

Exact solve (``inner_steps=None``). The stationarity condition 2A θ − 2b + tanh(θᵀx/2) x = 0 gives
θ̂_t = θ_t − ½ tanh(z/2) A⁻¹x with θ_t = A_{t−1}⁻¹b_{t−1} (eq. (11)) and z = ŷ_t the unique root of the
increasing scalar equation z + (c/2) tanh(z/2) = z₀, c = xᵀA⁻¹x, z₀ = xᵀθ_t. This is Lemma 2 reduced once more:
the 2-D problem (6) has the same minimiser, but after the change of variables only the direction A⁻¹x moves.
The root is found by bracketed Newton to machine precision (|z − z₀| ≤ c/2 gives the bracket), so the exact
variant is the exact minimiser of eq. (3) up to floating-point rounding.

Approximate variant (``inner_steps=T``): Algorithm 2 (App. D) literally — eigen-decomposition of the 2×2 matrix
W_tᵀW_t = [[bᵀA⁻¹b, bᵀA⁻¹x], [xᵀA⁻¹b, xᵀA⁻¹x]], u_t, v_t of Lemma 2, T gradient steps of step
γ = λ/(4λ+R²) from ω⁰ = 0 on Ω_t of eq. (6), then θ̃_t = A⁻¹(b, x) U Σ^{−1/2} ω^T (eq. (7); L^{−T}W = A⁻¹(b, x)).
Its statistics are built at θ̃_t as in the box. ``theorem4_inner_steps(n, B, R, lam)`` gives Theorem 4's T.

Deviations from the boxes, deliberate: (i) the boxes update b_t = b_{t−1} + (η g ᵀθ̃ − 1) g without the ½ of
eq. (5)/(14); we follow eq. (5), which is what eq. (3) needs (Lemma 2's proof uses it); (ii) Algorithm 2
initialises L_0 = λ^{−1/2} I, Algorithm 1 L_0 = λ^{1/2} I; we use A_0 = λI (eq. (5)).

Implementation: state A⁻¹ (Sherman–Morrison), θ_t = A⁻¹b and b. Why Sherman–Morrison and not a Cholesky
factor: every rank-one term is a positive multiple of x_t xᵀ_t (g_t ∝ x_t), we need A⁻¹x_t anyway, and then the
whole round is one symmetric mat-vec (BLAS dsymv), one symmetric rank-one update (dsyr) and O(d) scalar work;
a Cholesky route needs two triangular solves plus a rank-one Cholesky update, which has no BLAS/LAPACK kernel
and would be an O(d) Python loop. Stability: the update only adds PSD terms, its denominator is 1 + a²c ≥ 1
(no cancellation), A ⪰ λI keeps ‖A⁻¹‖ ≤ 1/λ, and only one triangle is stored so symmetry is exact; the tests
compare A⁻¹ with a fresh inverse of A (relative error ~1e-13 after 2000 rounds at B = 50). A itself is kept
exactly but lazily (rank-one terms are folded in blocks with a BLAS-3 product), so ``state()["A"]`` is the
sum of eq. (5), not an inverse of A⁻¹. The curvature weights never overflow: ½η_t σ(−m)² = ½σ(m)σ(−m)/(1+BR)
with m = y_t ŷ_t. BLAS runs single-threaded inside ``predict``/``update``/``run`` (``algorithms._threads``):
OpenBLAS's threads only slow these BLAS-2 calls down, badly so on a busy machine; no environment variable needed.

>>> import numpy as np
>>> from algorithms import AIOLI
>>> X = np.array([[0.6, 0.8], [1.0, 0.0], [0.0, -1.0]]); Y = np.array([1.0, -1.0, 1.0])
>>> print(np.round(AIOLI(d=2, B=2.0, R=1.0).run(X, Y), 6))
[ 0.        0.264677 -0.398347]
"""
from __future__ import annotations

import math

import numpy as np
from scipy.linalg import blas

from ._base import OnlineLearner, check_dimension, check_positive, sigmoid
from ._extend import check_extension, pad_matrix, pad_vector

_symv = blas.dsymv
_syr = blas.dsyr
_axpy = blas.daxpy
_FOLD_EVERY = 256  # pending rank-one terms of A folded in one BLAS-3 product


def solve_margin(z0: float, c: float) -> float:
    """The unique z with z + (c/2)·tanh(z/2) = z0 (c >= 0): ŷ_t of eq. (3) given z0 = xᵀθ_t, c = xᵀA⁻¹x.

    Bracketed Newton; the root lies between 0 and z0 and within c/2 of z0. Accurate to ~1 ulp.
    """
    if c <= 0.0 or z0 == 0.0:
        return z0
    h = 0.5 * c
    if z0 > 0.0:
        lo, hi = z0 - h, z0
        if lo < 0.0:
            lo = 0.0
    else:
        lo, hi = z0, z0 + h
        if hi > 0.0:
            hi = 0.0
    z = z0 / (1.0 + 0.5 * h)
    if z < lo or z > hi:
        z = 0.5 * (lo + hi)
    tiny = 2e-16 * (abs(z0) if abs(z0) > 1.0 else 1.0)
    tanh = math.tanh
    for _ in range(200):
        t = tanh(0.5 * z)
        f = z + h * t - z0
        if f > 0.0:
            hi = z
        elif f < 0.0:
            lo = z
        else:
            return z
        zn = z - f / (1.0 + 0.5 * h * (1.0 - t * t))
        if zn < lo or zn > hi:
            zn = 0.5 * (lo + hi)
        if -tiny <= zn - z <= tiny or hi - lo <= tiny:
            return zn
        z = zn
    return z


def surrogate_increment(yhat: float, y: float, B: float, R: float) -> tuple[float, float]:
    """(a², β) with ½η g gᵀ = a² x xᵀ and ½(η gᵀθ̂ − 1) g = β x (eq. (5); Lemma 3 proof, step 11 with the ½).

    a² = ½ σ(m)σ(−m)/(1+BR), β = ½[σ(m)σ(−m) ŷ/(1+BR) + y σ(−m)], m = y ŷ; finite for any finite ŷ.
    """
    m = y * yhat
    s_neg = sigmoid(-m)
    q = sigmoid(m) * s_neg
    k = 1.0 / (1.0 + B * R)
    return 0.5 * q * k, 0.5 * (q * yhat * k + y * s_neg)


def aioli_theta_hat(A, b, x, B=None, R=None) -> np.ndarray:
    """θ̂_t of eq. (3) from the sufficient statistics (A_{t−1}, b_{t−1}) of eq. (5) and x_t (dense, for references).

    θ̂ minimises θᵀAθ − 2θᵀb + log(1+e^{−θᵀx}) + log(1+e^{θᵀx}); B and R do not enter (they only shape A, b)
    and are accepted for a uniform signature.
    """
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float)
    x = np.asarray(x, dtype=float)
    from scipy.linalg import cho_factor, cho_solve

    cf = cho_factor(A)
    theta = cho_solve(cf, b)
    v = cho_solve(cf, x)
    z = solve_margin(float(x @ theta), float(x @ v))
    return theta - 0.5 * math.tanh(0.5 * z) * v


def aioli_objective(theta, A, b, x) -> float:
    """Eq. (3)'s objective minus its θ-free constant: θᵀAθ − 2θᵀb + ℓ(θᵀx, 1) + ℓ(θᵀx, −1)."""
    theta = np.asarray(theta, dtype=float)
    z = float(np.dot(theta, x))
    return float(theta @ A @ theta - 2.0 * theta @ b + np.logaddexp(0.0, -z) + np.logaddexp(0.0, z))


def surrogate_loss(theta, x_s, y_s, theta_hat_s, B, R) -> float:
    """ℓ̂_s(θ) of eq. (2) built at θ̂_s, written stably: ℓ_s(θ̂_s) + g_sᵀδ + ½σ(m)σ(−m)(x_sᵀδ)²/(1+BR).

    (δ = θ − θ̂_s, m = y_s θ̂_sᵀx_s; (η_s/2)(g_sᵀδ)² = ½ e^m σ(−m)² (x_sᵀδ)²/(1+BR).)
    """
    x_s = np.asarray(x_s, dtype=float)
    m = y_s * float(np.dot(theta_hat_s, x_s))
    xd = float(x_s @ (np.asarray(theta, dtype=float) - np.asarray(theta_hat_s, dtype=float)))
    gd = -y_s * sigmoid(-m) * xd
    return float(np.logaddexp(0.0, -m)) + gd + 0.5 * sigmoid(m) * sigmoid(-m) / (1.0 + B * R) * xd * xd


def eq3_objective(theta, X_past, Y_past, theta_hats_past, x, lam, B, R) -> float:
    """Eq. (3) literally: Σ_{s<t} ℓ̂_s(θ) + ℓ(θᵀx_t, 1) + ℓ(θᵀx_t, −1) + λ‖θ‖²."""
    theta = np.asarray(theta, dtype=float)
    total = sum(surrogate_loss(theta, xs, ys, ts, B, R) for xs, ys, ts in zip(X_past, Y_past, theta_hats_past))
    z = float(theta @ np.asarray(x, dtype=float))
    return float(total + np.logaddexp(0.0, -z) + np.logaddexp(0.0, z) + lam * theta @ theta)


def theorem4_inner_steps(n: int, B: float, R: float, lam: float) -> int:
    """T = ⌈(4 + R²/λ) log((3n²R²/λ)(nR²/(8λ) + B))⌉ (Theorem 4)."""
    return int(math.ceil((4.0 + R * R / lam) * math.log(3.0 * n * n * R * R / lam * (n * R * R / (8.0 * lam) + B))))


class AIOLI(OnlineLearner):
    """AIOLI(d, B, R, lam=1/B², inner_steps=None): exact (None) or Algorithm 2 with T = inner_steps.

    ``state()`` keys: ``theta_hat`` (θ̂ of the last x passed to predict/update), ``y_hat``, ``theta``
    (θ_t = A_{t−1}⁻¹b_{t−1}, eq. (11)), ``A``, ``A_inv``, ``b`` (eq. (5)), ``t`` (rounds learnt), ``lam``, ``B``,
    ``R``, ``inner_steps``.
    """

    def __init__(self, d, B, R, lam=None, inner_steps=None):
        self.d = check_dimension(d)
        self.B = check_positive("B", B)
        self.R = check_positive("R", R)
        self.lam = 1.0 / self.B ** 2 if lam is None else check_positive("lam", lam)
        if inner_steps is not None and (isinstance(inner_steps, bool) or int(inner_steps) != inner_steps
                                        or inner_steps < 0):
            raise ValueError(f"inner_steps must be None or an integer >= 0, got {inner_steps!r}")
        self.inner_steps = None if inner_steps is None else int(inner_steps)
        self._Ainv = np.asfortranarray(np.eye(self.d) / self.lam)  # upper triangle is authoritative
        self._A = np.eye(self.d) * self.lam
        self._theta = np.zeros(self.d)
        self._b = np.zeros(self.d)
        self._pending_x: list[np.ndarray] = []
        self._pending_a2: list[float] = []
        self._pending_beta: list[float] = []
        self.t = 0
        self._last = None  # (θ̂ of the last x seen by predict/update, its ŷ)
        self._cache = None

    # ---- θ̂_t(x) --------------------------------------------------------------------------------
    _proper = False  # SurrogateFTL (θ̂_t = θ_t, eq. (11)) sets True

    def _coefficients(self, z0: float, c: float) -> tuple[float, float, float]:
        """(ŷ, q1, q2) with θ̂ = q1·θ_t + q2·A⁻¹x."""
        if self._proper:
            return z0, 1.0, 0.0
        if self.inner_steps is None:
            z = solve_margin(z0, c)
            return z, 1.0, -0.5 * math.tanh(0.5 * z)
        return self._algorithm2_coefficients(z0, c)

    def _algorithm2_coefficients(self, z0: float, c: float) -> tuple[float, float, float]:
        self._fold()
        bAb = float(self._b @ self._theta)
        G = np.array([[bAb, z0], [z0, c]])
        sig, U = np.linalg.eigh(G)
        keep = sig > 1e-12 * max(float(sig.max()), 1e-300)
        if not keep.any():
            return 0.0, 0.0, 0.0
        sig, U = sig[keep], U[:, keep]
        root = np.sqrt(sig)
        u = root * U[0]  # Σ^{1/2} Uᵀ e1
        v = root * U[1]  # Σ^{1/2} Uᵀ e2
        gamma = self.lam / (4.0 * self.lam + self.R ** 2)
        w = np.zeros(len(sig))
        for _ in range(self.inner_steps):
            s = float(v @ w)
            w = w - gamma * (2.0 * w - 2.0 * u + math.tanh(0.5 * s) * v)
        q = U @ (w / root)
        return float(q[0] * z0 + q[1] * c), float(q[0]), float(q[1])

    def _round(self, x: np.ndarray):
        v = _symv(1.0, self._Ainv, x)
        c = float(x @ v)
        z0 = float(x @ self._theta)
        yhat, q1, q2 = self._coefficients(z0, c)
        return yhat, q1, q2, v, c, z0

    def _predict(self, x: np.ndarray) -> float:
        r = self._round(x)
        yhat, q1, q2, v = r[:4]
        self._last = (q1 * self._theta + q2 * v, yhat)
        self._cache = (x.tobytes(), r)  # reused by update(x, y) on the same x; dropped by any update
        return yhat

    # ---- learning -------------------------------------------------------------------------------
    def _update(self, x: np.ndarray, y: float) -> None:
        cache, self._cache = self._cache, None
        if cache is not None and cache[0] == x.tobytes():
            yhat, q1, q2, v, c, z0 = cache[1]
        else:
            yhat, q1, q2, v, c, z0 = self._round(x)
        self._last = (q1 * self._theta + q2 * v, yhat)
        self._learn(x, y, yhat, v, c, z0)
        self._pending_x.append(x.copy())
        self._pending_a2.append(self._a2_last)
        self._pending_beta.append(self._beta_last)
        if len(self._pending_x) >= _FOLD_EVERY:
            self._fold()

    def _learn(self, x, y, yhat, v, c, z0) -> None:
        a2, beta = surrogate_increment(yhat, y, self.B, self.R)
        den = 1.0 + a2 * c
        self._Ainv = _syr(-a2 / den, v, a=self._Ainv, overwrite_a=1)
        self._theta = _axpy(v, self._theta, a=(beta - a2 * z0) / den)
        self._a2_last, self._beta_last = a2, beta
        self.t += 1

    def _fold(self) -> None:
        if self._pending_x:
            self._fold_rows(np.asarray(self._pending_x), np.asarray(self._pending_a2),
                            np.asarray(self._pending_beta))
            self._pending_x.clear()
            self._pending_a2.clear()
            self._pending_beta.clear()

    def _fold_rows(self, X, a2, beta) -> None:
        """A += Σ a²_s x_s x_sᵀ and b += Σ β_s x_s (eq. (5)), exactly, in BLAS-3 blocks."""
        for s in range(0, X.shape[0], 4096):
            Xs = X[s:s + 4096]
            self._A += Xs.T @ (a2[s:s + 4096, None] * Xs)
            self._b += Xs.T @ beta[s:s + 4096]

    def _run_rows(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        if self.inner_steps is not None:
            return super()._run_rows(X, Y)
        self._fold()
        self._cache = None
        n = X.shape[0]
        out = np.empty(n)
        a2s = np.empty(n)
        betas = np.empty(n)
        Ainv, theta = self._Ainv, self._theta
        B, R, last, increment, margin = self.B, self.R, n - 1, surrogate_increment, solve_margin
        symv, syr, axpy, proper = _symv, _syr, _axpy, self._proper
        for i, y in enumerate(Y.tolist()):
            x = X[i]
            v = symv(1.0, Ainv, x)
            c = float(x.dot(v))
            z0 = float(x.dot(theta))
            z = z0 if proper else margin(z0, c)
            out[i] = z
            a2, beta = increment(z, y, B, R)
            den = 1.0 + a2 * c
            Ainv = syr(-a2 / den, v, a=Ainv, overwrite_a=1)
            if i == last:
                self._last = (theta.copy() if proper else theta + (-0.5 * math.tanh(0.5 * z)) * v, z)
            theta = axpy(v, theta, a=(beta - a2 * z0) / den)
            a2s[i] = a2
            betas[i] = beta
        self._Ainv, self._theta = Ainv, theta
        self.t += n
        self._fold_rows(X, a2s, betas)
        return out

    def extend(self, k) -> None:
        """Add k input coordinates exactly (``algorithms/_extend.py``): A gets λ, A⁻¹ gets 1/λ on the new
        diagonal, θ_t, b and the pending rows get zeros. Later rounds equal those of a learner of dimension
        d + k that saw every past input padded with k zeros."""
        k = check_extension(k)
        if k == 0:
            return
        self._Ainv = pad_matrix(np.triu(self._Ainv), k, 1.0 / self.lam, order="F")
        self._A = pad_matrix(self._A, k, self.lam)
        self._theta, self._b = pad_vector(self._theta, k), pad_vector(self._b, k)
        self._pending_x = [pad_vector(x, k) for x in self._pending_x]
        if self._last is not None:
            self._last = (pad_vector(self._last[0], k), self._last[1])
        self._cache = None
        self.d += k

    # ---- inspection -----------------------------------------------------------------------------
    def theta_hat(self, x) -> np.ndarray:
        """θ̂ that AIOLI would use for input x now (eq. (3)); pure."""
        from ._base import check_vector

        xv = check_vector(x, self.d, self.R)
        _, q1, q2, v, _, _ = self._round(xv)
        return q1 * self._theta + q2 * v

    def state(self) -> dict:
        self._fold()
        Ainv = np.triu(self._Ainv) + np.triu(self._Ainv, 1).T
        theta_hat, yhat = (None, None) if self._last is None else (self._last[0].copy(), self._last[1])
        return {"theta_hat": theta_hat, "y_hat": yhat, "theta": self._theta.copy(), "A": self._A.copy(),
                "A_inv": Ainv, "b": self._b.copy(), "t": self.t, "lam": self.lam, "B": self.B, "R": self.R,
                "inner_steps": self.inner_steps}

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
whole round is one mat-vec, one rank-one update and O(d) scalar work. A round is ONE compiled function,
``aioli_round`` (numba, ``cache=True``): v = A⁻¹x, c, z0 (``margin_statistics``), the root ŷ of eq. (3)
(``solve_margin``), θ̂ = θ_t − ½tanh(ŷ/2)v, the surrogate weights of eq. (5) (``surrogate_increment``) and the
Sherman–Morrison step (``sherman_morrison_step``), in place on arrays allocated once. The step's rank-one term
w wᵀ is applied by the next round's mat-vec in the same pass over A⁻¹ (one read and one write of the d×d matrix
per round); ``state()`` and ``extend`` apply it first, a copy or a pickle carries it along. ``run`` loops over
the rows inside compiled code (``aioli_rounds``). Algorithm 2 uses the same mat-vec and step around its 2×2
problem. With ``NUMBA_DISABLE_JIT=1`` the very same functions run as plain Python (slow; for debugging and mutation
testing).
The first call in a fresh environment compiles the kernel (seconds); the compiled code is cached in
``__pycache__`` and later processes load it. Stability: the update only adds PSD terms, its denominator is
1 + a²c ≥ 1 (no cancellation), A ⪰ λI keeps ‖A⁻¹‖ ≤ 1/λ, and the rank-one term is applied as w wᵀ so that A⁻¹
stays exactly symmetric; the tests compare A⁻¹ with a fresh inverse of A (relative error ~1e-13 after 2000
rounds at B = 50). b is updated every round (O(d)); A itself is kept exactly but lazily: a round stores the row
a_t x_t of its term a_t² x_t x_tᵀ, and the rows are folded in blocks of 256 with a BLAS-3 product (``dsyrk``), so
``state()["A"]`` is the sum of eq. (5), not an inverse of A⁻¹. The curvature weights never
overflow: ½η_t σ(−m)² = ½σ(m)σ(−m)/(1+BR) with m = y_t ŷ_t, computed from e^{−|m|}. BLAS threads: the compiled
round calls no BLAS, so the exact variant's ``predict``/``update``/``run`` skip the single-threaded guard of
``algorithms._threads`` (a few µs per call); the BLAS-3 fold enters it itself, and Algorithm 2 (LAPACK per round)
keeps it on every call. No environment variable needed. Per-call cost: ``_round`` calls the kernel through the
compiled entry point of its one signature (``_ROUND``), which skips numba's type dispatch, and the kernel takes
few arguments (the d-vectors are the rows of one work matrix, ``_vecs``).

>>> import numpy as np
>>> from algorithms import AIOLI
>>> X = np.array([[0.6, 0.8], [1.0, 0.0], [0.0, -1.0]]); Y = np.array([1.0, -1.0, 1.0])
>>> print(np.round(AIOLI(d=2, B=2.0, R=1.0).run(X, Y), 6))
[ 0.        0.264677 -0.398347]
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit
from scipy.linalg import blas

from ._base import OnlineLearner, check_dimension, check_positive, sigmoid
from ._extend import check_extension, pad_matrix, pad_vector
from ._threads import single_threaded_blas

_syrk = blas.dsyrk
_FOLD_EVERY = 256  # pending rank-one terms of A folded in one BLAS-3 product
_LOOPS = {"reassoc"}  # fastmath for the O(d²) loops only: reordered sums, so that they vectorise (no FMA contraction:
# an exact zero coordinate, e.g. after ``extend``, then changes no rounding)
# Slots of the per-learner scalar buffer shared by predict and the following update (see ``aioli_round``), and
# the number of pending rows of the lazy sum A.
_CACHED, _C, _Z0, _Z, _A2, _BETA, _PENDING, _N_PENDING = range(8)
# Rows of the per-learner work matrix: θ_t, v = A⁻¹x, the pending rank-one factor w, θ̂_t, the x of the last
# prediction, b_t of eq. (5). One (6, d) array, so that a round's compiled call unboxes few arguments.
_THETA, _V, _W, _THETA_HAT, _X_SEEN, _B = range(6)


@njit(cache=True)
def solve_margin(z0: float, c: float) -> float:
    """The unique z with z + (c/2)·tanh(z/2) = z0 (c >= 0): ŷ_t of eq. (3) given z0 = xᵀθ_t, c = xᵀA⁻¹x.

    Bracketed Newton; the root lies between 0 and z0 and within c/2 of z0. Accurate to ~1 ulp.
    """
    z0 = float(z0)
    c = float(c)
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
    for _ in range(200):
        t = math.tanh(0.5 * z)
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


@njit(cache=True)
def surrogate_increment(yhat: float, y: float, B: float, R: float) -> tuple[float, float]:
    """(a², β) with ½η g gᵀ = a² x xᵀ and ½(η gᵀθ̂ − 1) g = β x (eq. (5); Lemma 3 proof, step 11 with the ½).

    a² = ½ σ(m)σ(−m)/(1+BR), β = ½[σ(m)σ(−m) ŷ/(1+BR) + y σ(−m)], m = y ŷ; finite for any finite ŷ: with
    e = e^{−|m|} ∈ (0, 1], σ(m)σ(−m) = e/(1+e)² and σ(−m) = e/(1+e) (m ≥ 0) or 1/(1+e) (m < 0), no overflow.
    """
    m = y * yhat
    e = math.exp(-abs(m))
    s_neg = e / (1.0 + e) if m >= 0.0 else 1.0 / (1.0 + e)
    q = e / ((1.0 + e) * (1.0 + e))
    k = 1.0 / (1.0 + B * R)
    return 0.5 * q * k, 0.5 * (q * yhat * k + y * s_neg)


@njit(cache=True, fastmath=_LOOPS)
def margin_statistics(Ainv, w, scalars, theta, x, v) -> tuple[float, float]:
    """v = A_{t−1}⁻¹x_t (written into v) and (c, z0) = (xᵀA⁻¹x, xᵀθ_t), θ_t = A_{t−1}⁻¹b_{t−1} (eq. (11)).

    Row-by-row dot products over the full symmetric A⁻¹ (contiguous, vectorised: BLAS dgemv's work). If the
    previous round left its rank-one term pending (``scalars[_PENDING]``, see ``sherman_morrison_step``), each
    row first receives A⁻¹[i, :] −= w_i w: the update of round t−1 and the mat-vec of round t share one pass.
    """
    d = x.shape[0]
    c = 0.0
    z0 = 0.0
    pending = scalars[_PENDING] == 1.0
    for i in range(d):
        row = Ainv[i]
        s = 0.0
        if pending:
            wi = w[i]
            for j in range(d):
                r = row[j] - wi * w[j]
                row[j] = r
                s += r * x[j]
        else:
            for j in range(d):
                s += row[j] * x[j]
        v[i] = s
        c += x[i] * s
        z0 += x[i] * theta[i]
    scalars[_PENDING] = 0.0
    return c, z0


@njit(cache=True, fastmath=_LOOPS)
def sherman_morrison_step(theta, v, c, z0, a2, beta, w, scalars) -> None:
    """A⁻¹ ← (A + a²xxᵀ)⁻¹ = A⁻¹ − w wᵀ and θ ← A⁻¹b with b ← b + βx (eq. (5)); w = √(a²/(1 + a²c))·v.

    θ_new = θ + (β − a² z0)/(1 + a²c)·v (v = A⁻¹x, c = xᵀv, z0 = xᵀθ) is applied now; the rank-one term is
    left pending in w (``scalars[_PENDING]``) and applied by the next ``margin_statistics`` pass. The
    denominator is ≥ 1 (a² ≥ 0, c ≥ 0), so nothing cancels; entries (i, j) and (j, i) receive the same product
    w_i w_j, so the stored A⁻¹ stays exactly symmetric.
    """
    d = v.shape[0]
    den = 1.0 + a2 * c
    root = math.sqrt(a2 / den)
    step = (beta - a2 * z0) / den
    for i in range(d):
        w[i] = root * v[i]
        theta[i] += step * v[i]
    scalars[_PENDING] = 1.0


@njit(cache=True)
def aioli_predict_learn(Ainv, vecs, x, y, B, R, proper, learn, scalars) -> float:
    """One round of AIOLI (exact, eq. (3)) or of surrogate FTL (``proper``: θ̂_t = θ_t, eq. (11)), in place.

    Prediction: v = A⁻¹x, c = xᵀv, z0 = xᵀθ_t, ŷ_t = z the root of z + (c/2)tanh(z/2) = z0 (``solve_margin``),
    θ̂_t = θ_t − ½tanh(z/2)·v (written into ``vecs[_THETA_HAT]``). Learning (``learn``): the Sherman–Morrison
    step with (a², β) of the surrogate (2) built at θ̂_t (``surrogate_increment``, eq. (5)) and b += βx; a² is
    left in ``scalars[_A2]`` for the lazy sum A of eq. (5). A prediction without learning stores x in
    ``vecs[_X_SEEN]`` and (c, z0, z) in ``scalars``: an update on an equal x right after reuses them (no second
    mat-vec). Returns ŷ_t.
    """
    d = x.shape[0]
    theta, v, theta_hat, x_seen = vecs[_THETA], vecs[_V], vecs[_THETA_HAT], vecs[_X_SEEN]
    same = scalars[_CACHED] == 1.0
    if same:
        for i in range(d):
            if x[i] != x_seen[i]:
                same = False
                break
    if same:
        c, z0, z = scalars[_C], scalars[_Z0], scalars[_Z]
    else:
        c, z0 = margin_statistics(Ainv, vecs[_W], scalars, theta, x, v)
        z = z0 if proper else solve_margin(z0, c)
        q2 = 0.0 if proper else -0.5 * math.tanh(0.5 * z)
        for i in range(d):
            theta_hat[i] = theta[i] + q2 * v[i]
    if not learn:
        x_seen[:] = x
        scalars[_CACHED], scalars[_C], scalars[_Z0], scalars[_Z] = 1.0, c, z0, z
        return z
    scalars[_CACHED] = 0.0
    a2, beta = surrogate_increment(z, y, B, R)
    sherman_morrison_step(theta, v, c, z0, a2, beta, vecs[_W], scalars)
    b = vecs[_B]
    for i in range(d):
        b[i] += beta * x[i]
    scalars[_A2], scalars[_BETA] = a2, beta
    return z


@njit(cache=True)
def aioli_round(Ainv, vecs, x, y, B, R, proper, learn, pending, scalars) -> float:
    """``aioli_predict_learn``; a learnt round also appends its row a_t x_t (a_t² x_t x_tᵀ is its term of A,
    eq. (5)) to ``pending`` (row ``scalars[_N_PENDING]``, which it increments), the rows ``AIOLI._fold`` adds."""
    z = aioli_predict_learn(Ainv, vecs, x, y, B, R, proper, learn, scalars)
    if learn:
        k = int(scalars[_N_PENDING])
        row = pending[k]
        a = math.sqrt(scalars[_A2])
        for i in range(x.shape[0]):
            row[i] = a * x[i]
        scalars[_N_PENDING] = k + 1
    return z


@njit(cache=True)
def aioli_rounds(Ainv, vecs, X, Y, B, R, proper, scalars, out, rows) -> None:
    """``aioli_predict_learn`` (predict then learn) on every row of X: ŷ into ``out``, a_t x_t into ``rows``."""
    for i in range(X.shape[0]):
        out[i] = aioli_predict_learn(Ainv, vecs, X[i], Y[i], B, R, proper, True, scalars)
        a = math.sqrt(scalars[_A2])
        for j in range(X.shape[1]):
            rows[i, j] = a * X[i, j]


def _round_signature():
    from numba import types

    matrix, vector, f, b = types.float64[:, ::1], types.float64[::1], types.float64, types.boolean
    return (matrix, matrix, vector, f, f, f, b, b, matrix, vector)


_ROUND_SIGNATURE = _round_signature()
# ``aioli_round`` as ``AIOLI._round`` calls it: the dispatcher until its one signature is compiled (first call),
# then the compiled entry point of that signature (``numba`` ``overloads``), which skips the dispatcher's type
# resolution (0.2 µs of a 0.5 µs call at d = 64). The entry point does not check argument types, so its x is
# always a native contiguous float64 vector of length d (``AIOLI._own``; the river adapter's buffers are built so
# and use ``_predict_own``/``_update_own``), and the learner's own arrays are native float64 C arrays
# (``__setstate__`` makes sure). If numba stops exposing entry points, the dispatcher stays.
_ROUND = [aioli_round]
_F64, _UNIT_STRIDE = np.dtype(np.float64), (8,)


def _use_entry_point() -> None:
    overload = getattr(aioli_round, "overloads", {}).get(_ROUND_SIGNATURE)
    _ROUND[0] = getattr(overload, "entry_point", aioli_round)


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


def _from_separate_arrays(state: dict) -> dict:
    """The state of a pickle written before the work matrix ``_vecs``: b receives the pending β_s x_s (now added
    every round), the pending rows become a_s x_s, the scalar buffer gains its pending-row count."""
    k = state.pop("_n_pending")
    X, a2, beta = state.pop("_pending_X"), state.pop("_pending_a2"), state.pop("_pending_beta")
    b = state.pop("_b") + X[:k].T @ beta[:k]
    vecs = np.array([state.pop(name) for name in ("_theta", "_v", "_w", "_theta_hat", "_x_seen")] + [b])
    pending = np.zeros_like(X)
    pending[:k] = np.sqrt(a2[:k])[:, None] * X[:k]
    scalars = np.zeros(8)
    scalars[:7], scalars[_N_PENDING] = state.pop("_scalars"), k
    return {**state, "_vecs": vecs, "_pending": pending, "_scalars": scalars}


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
        self._Ainv = np.eye(self.d) / self.lam  # full, C order, exactly symmetric (``sherman_morrison_step``)
        self._A = np.eye(self.d) * self.lam  # upper triangle authoritative, pending terms folded lazily
        self._buffers(np.zeros(self.d), np.zeros(self.d))
        self.t = 0
        # The compiled exact round calls no BLAS (the fold of A every 256 rounds guards itself), so predict/update
        # skip the BLAS guard; Algorithm 2 (LAPACK eigh per round) and a subclass overriding _predict/_update (its
        # code may call BLAS) keep it.
        cls = type(self)
        self._round_calls_blas = (self.inner_steps is not None or cls._predict is not AIOLI._predict
                                  or cls._update is not AIOLI._update or cls._round is not AIOLI._round
                                  or cls._update_own is not AIOLI._update_own)

    def _buffers(self, theta: np.ndarray, b: np.ndarray) -> None:
        """Work arrays of the round kernel (allocated once per dimension): the rows of ``_vecs`` (θ_t = ``theta``,
        v = A⁻¹x, the pending rank-one factor w of A⁻¹, θ̂, the x of the last prediction, b = ``b``), the scalars
        of ``aioli_round`` and the pending rows a_s x_s of the lazy sum A (none)."""
        d = self.d
        self._vecs = np.zeros((6, d))
        self._vecs[_THETA] = theta
        self._vecs[_B] = b
        self._scalars = np.zeros(8)
        self._yhat = None  # ŷ of the last x seen by predict/update (None: none yet)
        self._pending = np.zeros((_FOLD_EVERY, d))

    # Views of the work arrays, by the names of the docstrings (never stored: a copy or a pickle keeps one array).
    _theta = property(lambda self: self._vecs[_THETA])
    _v = property(lambda self: self._vecs[_V])
    _w = property(lambda self: self._vecs[_W])
    _theta_hat = property(lambda self: self._vecs[_THETA_HAT])
    _b = property(lambda self: self._vecs[_B])
    _n_pending = property(lambda self: int(self._scalars[_N_PENDING]))

    def __setstate__(self, state: dict) -> None:
        """Unpickling: the round kernel works in place on native float64 C arrays, so any other array (read-only,
        a memory map, another byte order) is copied into one; a pickle of the layout before ``_vecs`` (separate
        θ, v, w, θ̂, x_seen, b and pending (x_s, a²_s, β_s) rows) is converted."""
        arrays = {k: np.require(v, np.float64, ["C", "A", "W", "O"]) if isinstance(v, np.ndarray) else v
                  for k, v in state.items()}
        self.__dict__.update(arrays if "_vecs" in arrays else _from_separate_arrays(arrays))

    # ---- θ̂_t(x) --------------------------------------------------------------------------------
    _proper = False  # SurrogateFTL (θ̂_t = θ_t, eq. (11)) sets True

    def _algorithm2_coefficients(self, z0: float, c: float) -> tuple[float, float, float]:
        """(ŷ, q1, q2) with θ̃ = q1·θ_t + q2·A⁻¹x: Algorithm 2's T gradient steps on Ω_t (eqs. (6), (7))."""
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

    def _algorithm2_round(self, x: np.ndarray, y: float, learn: bool) -> float:
        """Algorithm 2's round: the kernel's mat-vec and Sherman–Morrison step around θ̃_t's coefficients."""
        theta, v, w, scalars = self._theta, self._v, self._w, self._scalars
        c, z0 = margin_statistics(self._Ainv, w, scalars, theta, x, v)
        yhat, q1, q2 = self._algorithm2_coefficients(z0, c)
        self._theta_hat[:] = q1 * theta + q2 * v
        if learn:
            a2, beta = surrogate_increment(yhat, y, self.B, self.R)
            sherman_morrison_step(theta, v, c, z0, a2, beta, w, scalars)
            b = self._b  # a view of ``_vecs``: updated in place
            b += beta * x
            k = self._n_pending
            self._pending[k] = math.sqrt(a2) * x
            scalars[_N_PENDING] = k + 1
        return yhat

    def _own(self, x) -> np.ndarray:
        """x as the compiled round reads it: a native contiguous float64 vector of length d (the entry point of
        ``_ROUND`` does not check; a strided view would be read as other numbers, a wrong shape out of bounds)."""
        if x.strides == _UNIT_STRIDE and x.dtype is _F64 and x.shape[0] == self.d:
            return x
        a = np.ascontiguousarray(x, dtype=np.float64)
        if a.shape != (self.d,):
            raise ValueError(f"x must have shape ({self.d},), got shape {a.shape}")
        return a

    def _round(self, x: np.ndarray, y: float = 0.0, learn: bool = False) -> float:
        """One round on x, which must be ``_own``'s vector (the river adapter's buffers are)."""
        if self.inner_steps is None:
            yhat = _ROUND[0](self._Ainv, self._vecs, x, y, self.B, self.R, self._proper, learn, self._pending,
                             self._scalars)
            if _ROUND[0] is aioli_round:
                _use_entry_point()
        else:
            yhat = self._algorithm2_round(x, y, learn)
        self._yhat = yhat
        return yhat

    def _predict(self, x: np.ndarray) -> float:
        return self._round(self._own(x))

    _predict_own = _round  # (x, y=0.0 unused, learn=False) for an x that is ``_own``'s already

    # ---- learning -------------------------------------------------------------------------------
    def _update(self, x: np.ndarray, y: float) -> None:
        self._update_own(self._own(x), y)

    def _update_own(self, x: np.ndarray, y: float) -> None:
        """``_update`` for an x that is ``_own``'s already."""
        self._round(x, y, True)  # appends the round's row to the pending rows
        self.t += 1
        if self._scalars[_N_PENDING] == _FOLD_EVERY:
            self._fold()

    def _apply_pending(self) -> None:
        """Apply the pending rank-one term to the stored A⁻¹ (a mat-vec pass with x = 0; v is overwritten)."""
        if self._scalars[_PENDING] == 1.0:
            margin_statistics(self._Ainv, self._w, self._scalars, self._theta, np.zeros(self.d), self._v)
            self._scalars[_CACHED] = 0.0

    def _fold(self) -> None:
        k = self._n_pending
        if k:
            self._scalars[_N_PENDING] = 0
            with single_threaded_blas:
                self._fold_rows(self._pending[:k])

    def _fold_rows(self, rows) -> None:
        """A += Σ_s (a_s x_s)(a_s x_s)ᵀ = Σ a²_s x_s x_sᵀ (eq. (5)): upper triangle, BLAS dsyrk, in blocks."""
        for s in range(0, rows.shape[0], 4096):
            self._A = _syrk(1.0, rows[s:s + 4096], beta=1.0, c=self._A.T, trans=1, lower=1, overwrite_c=1).T

    def _run_rows(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        if self.inner_steps is not None:
            return super()._run_rows(X, Y)
        n = X.shape[0]
        k = self._n_pending
        short = k + n < _FOLD_EVERY  # a short batch joins the pending rows (no O(d²) pass over A per call)
        out, rows = np.empty(n), self._pending[k:k + n] if short else np.empty((n, self.d))
        self._scalars[_CACHED] = 0.0
        aioli_rounds(self._Ainv, self._vecs, X, Y, self.B, self.R, self._proper, self._scalars, out, rows)
        if n:
            self._yhat = float(out[-1])
        self.t += n
        if short:
            self._scalars[_N_PENDING] = k + n
        else:
            self._fold()
            with single_threaded_blas:
                self._fold_rows(rows)
        return out

    def extend(self, k) -> None:
        """Add k input coordinates exactly (``algorithms/_extend.py``): A gets λ, A⁻¹ gets 1/λ on the new
        diagonal, θ_t, b and the pending rows get zeros. Later rounds equal those of a learner of dimension
        d + k that saw every past input padded with k zeros."""
        k = check_extension(k)
        if k == 0:
            return
        self._fold()
        self._apply_pending()
        theta, theta_hat, yhat = pad_vector(self._theta, k), pad_vector(self._theta_hat, k), self._yhat
        b = pad_vector(self._b, k)
        self._Ainv = pad_matrix(self._Ainv, k, 1.0 / self.lam)
        self._A = pad_matrix(np.triu(self._A), k, self.lam)
        self.d += k
        self._buffers(theta, b)
        self._theta_hat[:], self._yhat = theta_hat, yhat

    # ---- inspection -----------------------------------------------------------------------------
    def theta_hat(self, x) -> np.ndarray:
        """θ̂ that AIOLI would use for input x now (eq. (3)); pure."""
        from ._base import check_vector

        xv = check_vector(x, self.d, self.R)
        probe = self.copy()
        probe._predict(xv)
        return probe._theta_hat.copy()

    def state(self) -> dict:
        self._fold()
        self._apply_pending()
        sym = lambda M: np.triu(M) + np.triu(M, 1).T  # noqa: E731  (upper triangle -> full symmetric)
        theta_hat = None if self._yhat is None else self._theta_hat.copy()
        return {"theta_hat": theta_hat, "y_hat": self._yhat, "theta": self._theta.copy(), "A": sym(self._A),
                "A_inv": self._Ainv.copy(), "b": self._b.copy(), "t": self.t, "lam": self.lam, "B": self.B,
                "R": self.R, "inner_steps": self.inner_steps}

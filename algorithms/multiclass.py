"""Multiclass logistic loss (seed 001, §1 and §4.2) and the three multiclass baselines ONS, OGD, FTRL.

Setting (seed 001, §4.2): K classes, labels y ∈ {0, …, K−1} (the paper writes {1, …, K}; we index from 0),
inputs x ∈ ℝ^{d'} (``d`` below is the paper's d', the input dimension), parameter θ ∈ ℝ^{d'K} with the paper's
feature map Φ(x) = I_K ⊗ x, i.e. block k of θ (entries k d' … (k+1) d' − 1) is the weight vector of class k.
We store θ as a (K, d') matrix W (row k = block k), so θ = W.ravel() and the score vector is
ŷ = θᵀΦ(x) = W x ∈ ℝ^K. Norms of θ are Frobenius norms of W.

Loss ℓ(ŷ, y) = −log σ(ŷ)_y = logsumexp(ŷ) − ŷ_y;  ∇ℓ_{x,y}(θ) = Φ(x)(p − e_y);
∇²ℓ_{x,y}(θ) = Φ(x)(diag p − p pᵀ)Φ(x)ᵀ = (diag p − p pᵀ) ⊗ x xᵀ, with p = σ(W x).

Learner API (K classes): ``predict(x)`` → score vector ŷ_t ∈ ℝ^K (no state change), ``predict_proba(x)`` →
σ(ŷ_t) ∈ Δ_K, ``update(x, y)``, ``run(X, Y)`` → (n, K) array of scores, ``state()``, ``copy()``.

Baselines (the paper names them, §5, without update rules; the rules below are the standard ones):

- :class:`MulticlassOGD` (Zinkevich 2003): θ_{t+1} = Π_B(θ_t − η_t ∇ℓ_t(θ_t)), η_t = eta/√t, Π_B the Euclidean
  projection on the Frobenius ball of radius B (B = inf: no projection).
- :class:`MulticlassONS` (Hazan et al. 2007): A_t = eps I + Σ_{s≤t} g_s g_sᵀ, θ_{t+1} = Π^{A_t}_B(θ_t − γ⁻¹A_t⁻¹g_t),
  Π^{A}_B the projection in the norm ‖·‖_A (A⁻¹ kept by Sherman–Morrison; the projection solves
  θ(ν) = (A + νI)⁻¹A z, ‖θ(ν)‖ = B, by bisection in the eigenbasis of A).
- :class:`MulticlassFTRL`: θ_{t+1} = argmin_θ Σ_{s≤t} ℓ_s(θ) + lam‖θ‖² (Newton, warm-started at θ_t).
"""
from __future__ import annotations

import copy as _copy
import math

import numpy as np
from scipy.special import logsumexp, softmax

from ._extend import add_class_blocks, check_extension, pad_class_blocks, pad_rows
from ._threads import single_threaded_blas

# ----------------------------------------------------------------------------- validation


def check_positive(name: str, value, allow_inf: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive real number, got {value!r}") from None
    if math.isnan(v) or v <= 0.0 or (math.isinf(v) and not allow_inf):
        raise ValueError(f"{name} must be {'> 0' if allow_inf else 'finite and > 0'}, got {value!r}")
    return v


def check_int(name: str, value, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def check_x(x, d: int, R: float | None = None, name: str = "x") -> np.ndarray:
    try:
        a = np.asarray(x, dtype=np.float64).reshape(-1) if np.ndim(x) <= 1 else np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real vector of length {d}, got {x!r}") from None
    if a.shape != (d,):
        raise ValueError(f"{name} must have shape ({d},), got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    if R is not None and float(a @ a) > (R * (1 + 1e-12)) ** 2:
        raise ValueError(f"{name} must satisfy ||{name}|| <= R = {R}, got {math.sqrt(float(a @ a))}")
    return a


def check_y(y, K: int, name: str = "y") -> int:
    try:
        v = float(y)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a class label in {{0, ..., {K - 1}}}, got {y!r}") from None
    if not v.is_integer() or not 0 <= v < K:
        raise ValueError(f"{name} must be a class label in {{0, ..., {K - 1}}}, got {y!r}")
    return int(v)


def check_stream(X, Y, d: int, K: int, R: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"X must be a real array of shape (n, {d})") from None
    if X.ndim != 2 or X.shape[1] != d:
        raise ValueError(f"X must have shape (n, {d}), got shape {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X must be finite (no NaN or inf)")
    if R is not None and X.shape[0] and np.max(np.einsum("ij,ij->i", X, X)) > (R * (1 + 1e-12)) ** 2:
        raise ValueError(f"X rows must satisfy ||x|| <= R = {R}")
    Yf = np.asarray(Y, dtype=np.float64).reshape(-1)
    if Yf.shape[0] != X.shape[0]:
        raise ValueError(f"Y must have one label per row of X: {Yf.shape[0]} labels for {X.shape[0]} rows")
    if not np.all((Yf == np.round(Yf)) & (Yf >= 0) & (Yf < K)):
        raise ValueError(f"Y must contain class labels in {{0, ..., {K - 1}}}")
    return X, Yf.astype(np.int64)


# ----------------------------------------------------------------------------- the loss


def loss(scores, y: int) -> float:
    """ℓ(ŷ, y) = −log σ(ŷ)_y = logsumexp(ŷ) − ŷ_y (finite for any finite scores)."""
    scores = np.asarray(scores, dtype=float)
    return float(logsumexp(scores) - scores[y])


def losses(S: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Row-wise ℓ(S_i, Y_i) for an (n, K) score array."""
    return logsumexp(S, axis=1) - S[np.arange(S.shape[0]), Y]


def phi(x: np.ndarray, K: int) -> np.ndarray:
    """The paper's feature map Φ(x) = I_K ⊗ x, a (K d') × K matrix."""
    return np.kron(np.eye(K), np.asarray(x, float).reshape(-1, 1))


def grad(W: np.ndarray, x: np.ndarray, y: int) -> np.ndarray:
    """∇ℓ_{x,y}(θ) = Φ(x)(p − e_y), returned as a (K, d') matrix."""
    r = softmax(W @ x)
    r[y] -= 1.0
    return np.outer(r, x)


def hessian(W: np.ndarray, x: np.ndarray) -> np.ndarray:
    """∇²ℓ_{x,y}(θ) = (diag p − p pᵀ) ⊗ x xᵀ, a (K d') × (K d') matrix (independent of y)."""
    p = softmax(W @ x)
    return np.kron(np.diag(p) - np.outer(p, p), np.outer(x, x))


# ----------------------------------------------------------------------------- shell


class MulticlassLearner:
    """Protocol shell: subclasses set d, K, R and implement ``_scores(x)``, ``_update(x, y)``, ``state()``."""

    d: int
    K: int
    R: float | None = None

    def predict(self, x) -> np.ndarray:
        """Score vector ŷ_t ∈ ℝ^K for the current state (no state change)."""
        x = check_x(x, self.d, self.R)
        with single_threaded_blas:
            return self._scores(x)

    def predict_proba(self, x) -> np.ndarray:
        """σ(ŷ_t) ∈ Δ_K."""
        return softmax(self.predict(x))

    def update(self, x, y) -> None:
        x, y = check_x(x, self.d, self.R), check_y(y, self.K)
        with single_threaded_blas:
            self._update(x, y)

    def run(self, X, Y) -> np.ndarray:
        """Predict then update row by row; returns the (n, K) array of score vectors."""
        X, Y = check_stream(X, Y, self.d, self.K, self.R)
        out = np.empty((X.shape[0], self.K))
        with single_threaded_blas:
            for i in range(X.shape[0]):
                out[i] = self._scores(X[i])
                self._update(X[i], int(Y[i]))
        return out

    def copy(self):
        return _copy.deepcopy(self)

    def extend(self, k) -> None:
        """Add k input coordinates exactly (``algorithms/_extend.py``): every class's weights get zeros, the
        curvature matrices (if any) their initial diagonal value on the new coordinates."""
        k = check_extension(k)
        self._pad_matrices(lambda M, diagonal: pad_class_blocks(M, self.K, self.d, k, diagonal),
                           lambda v: pad_rows(v.reshape(self.K, self.d), k).ravel())
        self.W = pad_rows(self.W, k)
        self.d += k

    def add_classes(self, k) -> None:
        """Add k classes with zero weights (and their initial curvature blocks). Not an exact extension: the
        past rounds' softmax did not include the new classes; a new class starts as if never seen."""
        k = check_extension(k)
        self._pad_matrices(lambda M, diagonal: add_class_blocks(M, self.K, self.d, k, diagonal),
                           lambda v: np.concatenate([v, np.zeros(k * self.d)]))
        self.W = np.vstack([self.W, np.zeros((k, self.d))])
        self.K += k

    def _pad_matrices(self, pad_matrix, pad_vector) -> None:
        """Hook for learners with (K d)-sized state; ``pad_matrix(M, diagonal)``, ``pad_vector(v)``."""


def _init_common(self, d, K, R):
    self.d = check_int("d", d, 1)
    self.K = check_int("K", K, 2)
    self.R = None if R is None else check_positive("R", R)
    self.W = np.zeros((self.K, self.d))
    self.t = 0


def project_ball(W: np.ndarray, B: float) -> np.ndarray:
    """Euclidean (Frobenius) projection argmin_{‖V‖≤B} ‖V − W‖."""
    n = float(np.linalg.norm(W))
    return W if n <= B else W * (B / n)


def project_ball_A(z: np.ndarray, A: np.ndarray, B: float) -> np.ndarray:
    """argmin_{‖θ‖≤B} (θ − z)ᵀA(θ − z): θ(ν) = (A + νI)⁻¹A z with ν ≥ 0 the root of ‖θ(ν)‖ = B."""
    if float(z @ z) <= B * B:
        return z
    lam, U = np.linalg.eigh(A)
    c = U.T @ z
    def norm2(nu):
        return float(np.sum((lam * c / (lam + nu)) ** 2))
    lo, hi = 0.0, 1.0
    while norm2(hi) > B * B:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if norm2(mid) > B * B:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * hi:
            break
    th = U @ (lam * c / (lam + hi))
    return th


class MulticlassOGD(MulticlassLearner):
    """Projected online gradient descent, θ_{t+1} = Π_B(θ_t − (eta/√t) ∇ℓ_t(θ_t))."""

    def __init__(self, d: int, K: int, eta: float, B: float = math.inf, R: float | None = None):
        _init_common(self, d, K, R)
        self.eta = check_positive("eta", eta)
        self.B = check_positive("B", B, allow_inf=True)

    def _scores(self, x):
        return self.W @ x

    def _update(self, x, y):
        self.t += 1
        self.W = project_ball(self.W - self.eta / math.sqrt(self.t) * grad(self.W, x, y), self.B)

    def state(self) -> dict:
        return {"theta": self.W.copy(), "t": self.t}


class MulticlassONS(MulticlassLearner):
    """Online Newton step on θ = W.ravel(): A_t = eps I + Σ g gᵀ, θ_{t+1} = Π^{A_t}_B(θ_t − A_t⁻¹g_t/gamma)."""

    def __init__(self, d: int, K: int, gamma: float, eps: float, B: float = math.inf, R: float | None = None):
        _init_common(self, d, K, R)
        self.gamma = check_positive("gamma", gamma)
        self.eps = check_positive("eps", eps)
        self.B = check_positive("B", B, allow_inf=True)
        D = self.d * self.K
        self.A = self.eps * np.eye(D)
        self.A_inv = np.eye(D) / self.eps

    def _scores(self, x):
        return self.W @ x

    def _update(self, x, y):
        self.t += 1
        g = grad(self.W, x, y).ravel()
        Ag = self.A_inv @ g
        self.A_inv -= np.outer(Ag, Ag) / (1.0 + g @ Ag)      # Sherman–Morrison
        self.A += np.outer(g, g)
        z = self.W.ravel() - self.A_inv @ g / self.gamma
        if math.isfinite(self.B):
            z = project_ball_A(z, self.A, self.B)
        self.W = z.reshape(self.K, self.d)

    def _pad_matrices(self, pad_matrix, pad_vector) -> None:
        self.A = pad_matrix(self.A, self.eps)
        self.A_inv = pad_matrix(self.A_inv, 1.0 / self.eps)

    def state(self) -> dict:
        return {"theta": self.W.copy(), "A": self.A.copy(), "t": self.t}


class MulticlassFTRL(MulticlassLearner):
    """θ_{t+1} = argmin Σ_{s≤t} ℓ_s(θ) + lam‖θ‖² (exact regularised leader; Newton with backtracking)."""

    def __init__(self, d: int, K: int, lam: float, R: float | None = None, tol: float = 1e-12):
        _init_common(self, d, K, R)
        self.lam = check_positive("lam", lam)
        self.tol = tol
        self.X = np.zeros((0, self.d))
        self.Y = np.zeros(0, dtype=np.int64)

    def _scores(self, x):
        return self.W @ x

    def extend(self, k) -> None:
        """Add k input coordinates exactly (past inputs padded with zeros)."""
        super().extend(k)
        self.X = pad_rows(self.X, int(k))

    def objective(self, W) -> float:
        return float(np.sum(losses(self.X @ W.T, self.Y)) + self.lam * np.sum(W * W))

    def _update(self, x, y):
        self.t += 1
        self.X = np.vstack([self.X, x])
        self.Y = np.append(self.Y, y)
        self.W = ftrl_argmin(self.X, self.Y, self.lam, self.W, self.tol)

    def state(self) -> dict:
        return {"theta": self.W.copy(), "t": self.t}


def ftrl_argmin(X, Y, lam, W0, tol=1e-12, iters=100) -> np.ndarray:
    """argmin_W Σ_i ℓ(W x_i, y_i) + lam ‖W‖_F² by damped Newton from W0."""
    n, d = X.shape
    K = W0.shape[0]
    onehot = np.eye(K)[Y]

    def f(W):
        return float(np.sum(losses(X @ W.T, Y)) + lam * np.sum(W * W))

    W = W0.copy()
    for _ in range(iters):
        P = softmax(X @ W.T, axis=1)
        G = (P - onehot).T @ X + 2 * lam * W
        if np.linalg.norm(G) <= tol * max(1.0, n):
            break
        # Hessian Σ_i (diag p_i − p_i p_iᵀ) ⊗ x_i x_iᵀ + 2 lam I, as a (K d) × (K d) matrix
        M = np.einsum("ik,kl->ikl", P, np.eye(K)) - np.einsum("ik,il->ikl", P, P)
        H = np.einsum("ikl,ia,ib->kalb", M, X, X).reshape(K * d, K * d) + 2 * lam * np.eye(K * d)
        step = np.linalg.solve(H, G.ravel()).reshape(K, d)
        f0, s = f(W), 1.0
        while s > 1e-12 and f(W - s * step) > f0 - 0.25 * s * float(G.ravel() @ step.ravel()):
            s *= 0.5
        W = W - s * step
    return W

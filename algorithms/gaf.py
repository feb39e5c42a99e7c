"""GAF, the Gaussian Aggregating Forecaster, for K-class logistic regression (seed 001, §3 eqs. (2)–(4), §4.2).

Definitions followed (seed 001; App. A/B versions where §3 has typos):

- eq. (2): θ_t = argmin_θ Σ_{s≤t−2} ℓ̃_s(θ) + ℓ_{t−1}(θ) + λ‖θ‖²   (θ_1 = 0);
- eq. (3): ℓ̃_{t−1}(θ) = ℓ_{t−1}(θ_t) + ∇ℓ_{t−1}(θ_t)ᵀ(θ−θ_t) + β/2 (θ−θ_t)ᵀ∇²ℓ_{t−1}(θ_t)(θ−θ_t);
- eqs. (12)–(13): L̃_t(θ) = Σ_{s≤t} ℓ̃_s(θ) + λ‖θ‖² = θᵀA_tθ + b_tᵀθ + const, A_t = λI + Σ_{s≤t} β/2 ∇²ℓ_s(θ_{s+1}),
  b_t = Σ_{s≤t} [∇ℓ_s(θ_{s+1}) − β∇²ℓ_s(θ_{s+1})θ_{s+1}], and θ_{t+1} = argmin L̃_t = −½A_t⁻¹b_t;
- eq. (4) with App. A's P̃_{t−1} ∝ e^{−αL̃_{t−1}} (the numerator printed in (4) has L_{t−1}; App. A has L̃_{t−1},
  the only version that is a probability density): P̃_{t−1} = N(θ_t, A_{t−1}⁻¹/(2α)) (App. B);
- eq. (6) with §4.2's smoothing: ŷ_t = σ⁺(smooth_μ(p̂_t)), p̂_t = E_{θ∼P̃_{t−1}} σ(θᵀΦ(x_t)), σ⁺ = log,
  smooth_μ(p) = (1−μ)p + μ1/K. With μ = 0 this is (6), which meets (4) with equality for α = 1 (Foster et al.
  2018, Prop. 1). Under P̃_{t−1} the scores ω = θᵀΦ(x_t) are N(W_t x_t, Σ_t), Σ_t = Φ(x_t)ᵀA_{t−1}⁻¹Φ(x_t)/(2α).

Symbols → arguments: λ → ``lam``, β → ``beta``, α → ``alpha`` (1 for the logistic loss), μ → ``mu``, d' → ``d``,
K → ``K``, m → ``m``. θ is stored as the (K, d') matrix W (θ = W.ravel(), see :mod:`algorithms.multiclass`).

Computing θ_{t+1} (eq. (2), Newton warm-started at θ_t). Since 2A_{t−1}θ_t + b_{t−1} = 0, the optimality condition
2A_{t−1}θ + b_{t−1} + Φ(x_t)(σ(Φᵀθ) − e_y) = 0 forces θ = θ_t + A_{t−1}⁻¹Φ(x_t)c with c ∈ ℝ^K, so (2) reduces to the
K-dimensional strongly convex problem min_c cᵀS c + ℓ(W_t x_t + S c, y_t), S = ΦᵀA_{t−1}⁻¹Φ, solved by damped
Newton (direction −(2I + M S)⁻¹(2c + r), M = diag p − ppᵀ, r = p − e_y) until ‖∇F(θ)‖ = ‖x_t‖‖2c + r‖ ≤ newton_tol.
A_t⁻¹ is updated by the push-through Woodbury identity (rank K). Cost per round: O(K²d'² + K³).

Prediction back-ends (``method``):

- ``"quadrature"`` (small K): the (K−1)-dimensional integral (σ is invariant along 1) by a product trapezoidal
  rule in the eigenbasis of Σ_t projected on 1⊥, with a *rigorous* discretisation-plus-truncation bound
  (:func:`expected_softmax_quadrature`); the bound on max_k |p̂_k − p̂_k^true| is ≤ ``tol`` (default 1e-10),
  exclusive of floating-point rounding (≈ N·2⁻⁵² for N nodes, reported separately). Cost grows like
  (nodes per dimension)^{K−1}: use it for K ≤ 4 (K ≤ 7 with a loose ``tol``).
- ``"mc"`` ("Efficient GAF", Algorithm 1's prediction with the law of App. B): m draws ω_i ∼ N(W_t x_t, Σ_t),
  p̃_t = smooth_μ((1/m)Σσ(ω_i)). Draws come from ``numpy.random.default_rng([seed, t])``, so ``predict`` has no
  side effect and a run is reproducible. Note the printed box samples from N(θ_tᵀΦ, ΦᵀA_{t−1}⁻¹Φ), twice this
  covariance (α = 1); the literal box is :mod:`olr_verify.printed.gaf_algorithm1`.

>>> import numpy as np
>>> g = GAF(d=2, K=3, lam=1.0, beta=0.5)
>>> X = np.array([[1.0, 0.0], [0.0, 1.0], [0.6, 0.8]]); Y = [0, 1, 2]
>>> S = g.run(X, Y)
>>> print(np.round(np.exp(S[0]), 6))     # round 1: p̂ is uniform by symmetry
[0.333333 0.333333 0.333333]
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.special import erfcinv, log_softmax, logsumexp, softmax  # noqa: F401

from algorithms.multiclass import MulticlassLearner, check_int, check_positive, check_x, check_y

M_STRIP = 2.0  # |σ_k| ≤ 1/cos(π/3) = 2 on the strips used by the quadrature bound


@lru_cache(maxsize=None)
def ones_complement_basis(K: int) -> np.ndarray:
    """An orthonormal basis (K × (K−1)) of the hyperplane 1⊥ (σ(ω + c1) = σ(ω))."""
    w, V = np.linalg.eigh(np.eye(K) - np.ones((K, K)) / K)
    return np.ascontiguousarray(V[:, w > 0.5])


def score_factor(Sigma: np.ndarray) -> np.ndarray:
    """L (K × (K−1)) with ω = z + Lξ, ξ ∼ N(0, I), equal in law to N(z, Σ) modulo multiples of 1."""
    Q = ones_complement_basis(Sigma.shape[0])
    lam, U = np.linalg.eigh(Q.T @ Sigma @ Q)
    return Q @ (U * np.sqrt(np.clip(lam, 0.0, None)))


def _trapezoid_mass(h: float) -> float:
    """Upper bound on h Σ_{k∈ℤ} φ(kh) = Σ_m e^{−2π²m²/h²} (Poisson summation)."""
    q = math.exp(-2 * math.pi ** 2 / h ** 2)
    return 1.0 + 2.0 * q / (1.0 - q)


def quadrature_rule(L: np.ndarray, tol: float):
    """Per-dimension nodes/weights and the rigorous error bound of the product rule (see expected_softmax_quadrature)."""
    r = L.shape[1]
    eps = tol / (2.0 * max(r, 1))
    nodes, weights, disc, tails, mass = [], [], [], [], []
    for i in range(r):
        w = float(L[:, i].max() - L[:, i].min())          # spread of column i: |Im ω_j − Im ω_k| ≤ |Im ξ_i| w
        if 0.5 * w * w <= eps:                            # one node; |E f − f(0)| ≤ ½ sup|f''| ≤ ½ w²
            nodes.append(np.zeros(1)); weights.append(np.ones(1))
            disc.append(0.5 * w * w); tails.append(0.0); mass.append(1.0)
            continue
        a = min((2 * math.pi / 3) / w, math.sqrt(2 * math.log(2 * M_STRIP / eps)))
        h = 2 * math.pi * a / math.log1p(2 * M_STRIP * math.exp(a * a / 2) / eps)
        T = h + math.sqrt(2.0) * float(erfcinv(eps))
        k = np.arange(-math.floor(T / h), math.floor(T / h) + 1)
        xi = k * h
        nodes.append(xi); weights.append(h * np.exp(-xi * xi / 2) / math.sqrt(2 * math.pi))
        disc.append(2 * M_STRIP * math.exp(a * a / 2) / math.expm1(2 * math.pi * a / h))
        tails.append(math.erfc((T - h) / math.sqrt(2.0)))
        mass.append(_trapezoid_mass(h))
    bound = 0.0
    for i in range(r):
        before = math.prod(mass[:i])
        others = math.prod(mass[:i] + mass[i + 1:])
        bound += before * disc[i] + others * tails[i]
    return nodes, weights, bound


def expected_softmax_quadrature(z: np.ndarray, Sigma: np.ndarray, tol: float = 1e-10,
                                max_nodes: int = 2_000_000) -> tuple[np.ndarray, float, int]:
    """log E σ(ω), ω ∼ N(z, Σ), with a rigorous bound on max_k |E σ(ω)_k − p_k|.

    Method: ω = z + Lξ (:func:`score_factor`), ξ ∼ N(0, I_{K−1}); product trapezoidal rule with step h_i and
    truncation |ξ_i| ≤ T_i per dimension. For fixed real values of the other coordinates, ξ_i ↦ σ_k(z + Lξ) is
    analytic and bounded by M = 2 on the strip |Im ξ_i| < a_i = (2π/3)/w_i (w_i = spread of column i of L: the
    imaginary parts of the scores then lie in an interval of length < 2π/3, so |Σ_j e^{ω_j}| ≥ cos(π/3)Σ_j|e^{ω_j}|).
    Trefethen & Weideman (2014, Thm 5.1) bound the 1-D infinite trapezoidal error by 2M e^{a²/2}/(e^{2πa/h} − 1)
    (∫|φ(x+iη)|dx = e^{η²/2}); a telescoping sum over dimensions multiplies each term by the masses
    h Σ_k φ(kh) ≤ 1 + 2q/(1−q), q = e^{−2π²/h²}, of the preceding rules; dropping nodes beyond T adds
    erfc((T−h)/√2) per dimension (σ_k ∈ [0, 1]). A direction with w_i² ≤ 2ε uses the single node 0, with error
    ≤ ½ sup|∂²σ_k/∂ξ_i²| ≤ ½w_i². Parameters are chosen so the total is ≤ ``tol``.

    Returns (log p, bound, number of nodes). Raises RuntimeError if more than ``max_nodes`` nodes are needed.
    """
    z = np.asarray(z, float)
    L = score_factor(np.asarray(Sigma, float))
    nodes, weights, bound = quadrature_rule(L, tol)
    N = math.prod(len(n) for n in nodes)
    if N > max_nodes:
        raise RuntimeError(f"quadrature needs {N} nodes > max_nodes = {max_nodes}; raise tol or use method='mc'")
    # scores on the grid, built dimension by dimension (shape (n_1, ..., n_r, K))
    omega = z.copy()
    logw = np.zeros(())
    for i in range(L.shape[1]):
        omega = omega[..., None, :] + np.multiply.outer(nodes[i], L[:, i])
        logw = np.add.outer(logw, np.log(weights[i]))
    ls = log_softmax(omega.reshape(-1, z.size), axis=1) + logw.reshape(-1, 1)
    logp = logsumexp(ls, axis=0)
    return logp, bound, N


def expected_softmax_mc(z: np.ndarray, Sigma: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    """log of (1/m) Σ_i σ(ω_i), ω_i i.i.d. N(z, Σ) (drawn modulo 1, on which σ does not depend)."""
    L = score_factor(np.asarray(Sigma, float))
    xi = rng.standard_normal((m, L.shape[1]))
    omega = z + xi @ L.T
    return logsumexp(log_softmax(omega, axis=1), axis=0) - math.log(m)


def log_smooth(logp: np.ndarray, mu: float) -> np.ndarray:
    """log smooth_μ(p) = log((1−μ)p + μ/K), computed from log p."""
    if mu == 0.0:
        return logp
    return np.logaddexp(math.log1p(-mu) + logp, math.log(mu / logp.size))


def _lse(z: np.ndarray) -> float:
    m = float(z.max())
    return m + math.log(float(np.exp(z - m).sum()))


def newton_scores(z0: np.ndarray, S: np.ndarray, y: int, xnorm: float, tol: float = 1e-13,
                  iters: int = 60) -> np.ndarray:
    """c minimising φ(c) = cᵀSc + ℓ(z0 + Sc, y) (the K-dim form of eq. (2)).

    Damped Newton (Armijo backtracking on φ) while the residual 2c + r is large, full Newton steps near the
    optimum; stops at ‖x‖‖2c + r‖ ≤ tol (the θ-gradient norm of (2)) or when float64 stagnates."""
    K = z0.size
    c = np.zeros(K)
    I = np.eye(K)

    def phi_val(c):
        zz = z0 + S @ c
        return float(c @ S @ c) + _lse(zz) - float(zz[y])

    f = phi_val(c)
    prev = math.inf
    for _ in range(iters):
        zz = z0 + S @ c
        p = np.exp(zz - _lse(zz))
        r = p.copy(); r[y] -= 1.0
        res = 2.0 * c + r
        nres = xnorm * float(np.sqrt(res @ res))
        if nres <= tol or (nres < 1e-8 and nres >= 0.5 * prev):
            break
        prev = nres
        M = np.diag(p) - np.outer(p, p)
        step = -np.linalg.solve(2.0 * I + M @ S, res)
        if nres < 1e-6:                                   # quadratic-convergence region: full step
            c = c + step
            continue
        slope = float((S @ res) @ step)                   # ∇φ(c)ᵀstep, ∇φ = S(2c + r)
        s = 1.0
        while True:
            fn = phi_val(c + s * step)
            if fn <= f + 1e-4 * s * slope or s < 1e-12:
                break
            s *= 0.5
        c, f = c + s * step, fn
    return c


class GAF(MulticlassLearner):
    """GAF for K-class logistic regression (module docstring). ``state()``: theta (K, d') = W, A and A_inv
    ((K d') × (K d'), θ = W.ravel() ordering), b (K d'), t. ``history`` keeps θ_2, θ_3, … (the surrogate points)."""

    def __init__(self, d: int, K: int, lam: float, beta: float, alpha: float = 1.0, mu: float = 0.0,
                 method: str = "quadrature", m: int = 100, seed: int = 0, R: float | None = None,
                 tol: float = 1e-10, max_nodes: int = 2_000_000, newton_tol: float = 1e-13,
                 keep_history: bool = False):
        self.d = check_int("d", d, 1)
        self.K = check_int("K", K, 2)
        self.lam = check_positive("lam", lam)
        self.beta = check_positive("beta", beta)
        self.alpha = check_positive("alpha", alpha)
        if not (0.0 <= float(mu) <= 0.5):
            raise ValueError(f"mu must lie in [0, 1/2], got {mu!r}")
        self.mu = float(mu)
        if method not in ("quadrature", "mc"):
            raise ValueError(f"method must be 'quadrature' or 'mc', got {method!r}")
        self.method = method
        self.m = check_int("m", m, 1)
        self.seed = int(seed)
        self.R = None if R is None else check_positive("R", R)
        self.tol = check_positive("tol", tol)
        self.max_nodes = int(max_nodes)
        self.newton_tol = float(newton_tol)
        D = self.d * self.K
        self.W = np.zeros((self.K, self.d))
        self.A = self.lam * np.eye(D)
        self.A_inv = np.eye(D) / self.lam
        self.b = np.zeros(D)
        self.t = 0                       # rounds seen; the next prediction is ŷ_{t+1}
        self.last_bound = 0.0            # quadrature bound of the last prediction
        self.history: list[np.ndarray] | None = [] if keep_history else None

    # ---- prediction
    def _P(self, x: np.ndarray) -> np.ndarray:
        """A⁻¹Φ(x) as a (K d') × K matrix."""
        K, d = self.K, self.d
        return (self.A_inv.reshape(K * d * K, d) @ x).reshape(K * d, K)

    def score_law(self, x) -> tuple[np.ndarray, np.ndarray]:
        """(mean, covariance) of ω = θᵀΦ(x) under P̃_t = N(θ_{t+1}, A_t⁻¹/(2α))."""
        x = check_x(x, self.d, self.R)
        P = self._P(x)
        S = np.einsum("a,kal->kl", x, P.reshape(self.K, self.d, self.K))
        return self.W @ x, 0.5 * (S + S.T) / (2.0 * self.alpha)

    def log_p_hat(self, x: np.ndarray) -> np.ndarray:
        """log p̂ with p̂ = E_{θ∼P̃} σ(θᵀΦ(x)) (quadrature) or its m-sample estimate (mc)."""
        z, Sigma = self.score_law(x)
        if self.method == "quadrature":
            logp, self.last_bound, _ = expected_softmax_quadrature(z, Sigma, self.tol, self.max_nodes)
            return logp
        rng = np.random.default_rng([self.seed, self.t])
        return expected_softmax_mc(z, Sigma, self.m, rng)

    def _scores(self, x: np.ndarray) -> np.ndarray:
        return log_smooth(self.log_p_hat(x), self.mu)

    def predict_proba(self, x) -> np.ndarray:
        return np.exp(self.predict(x))

    # ---- update: eq. (2), then (3) and (12)
    def _update(self, x: np.ndarray, y: int) -> None:
        self.t += 1
        K, d = self.K, self.d
        xx = float(x @ x)
        if xx == 0.0:                     # ℓ_t is constant in θ: θ, A, b unchanged
            if self.history is not None:
                self.history.append(self.W.copy())
            return
        P = self._P(x)                                            # A_{t-1}^{-1} Φ
        S = np.einsum("a,kal->kl", x, P.reshape(K, d, K)); S = 0.5 * (S + S.T)
        c = newton_scores(self.W @ x, S, y, math.sqrt(xx), self.newton_tol)
        self.W = self.W + (P @ c).reshape(K, d)                   # θ_{t+1}
        z = self.W @ x
        p = softmax(z)
        r = p.copy(); r[y] -= 1.0
        M = np.diag(p) - np.outer(p, p)
        C = 0.5 * self.beta * M
        self.b += (np.outer(r, x) - self.beta * np.outer(M @ z, x)).ravel()
        self.A += np.kron(C, np.outer(x, x))
        self.A_inv -= P @ C @ np.linalg.solve(np.eye(K) + S @ C, P.T)
        self.A_inv = 0.5 * (self.A_inv + self.A_inv.T)
        if self.history is not None:
            self.history.append(self.W.copy())

    def _pad_matrices(self, pad_matrix, pad_vector) -> None:
        """A gets λ, A⁻¹ 1/λ on the new diagonal entries, b zeros (``MulticlassLearner.extend``)."""
        self.A = pad_matrix(self.A, self.lam)
        self.A_inv = pad_matrix(self.A_inv, 1.0 / self.lam)
        self.b = pad_vector(self.b)

    def state(self) -> dict:
        return {"theta": self.W.copy(), "A": self.A.copy(), "A_inv": self.A_inv.copy(), "b": self.b.copy(),
                "t": self.t}


def corollary2_parameters(d: int, K: int, B: float, R: float) -> dict:
    """Corollary 2 / Proposition 3: λ = 32 d'K R², β = (log(K)/2 + BR + 1)⁻¹, α = 1."""
    return {"lam": 32.0 * d * K * R * R, "beta": 1.0 / (math.log(K) / 2 + B * R + 1.0), "alpha": 1.0}

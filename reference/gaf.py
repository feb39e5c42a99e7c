"""Certified references for GAF (seed 001): θ_t of eq. (2), the best comparator in the Frobenius B-ball, and the
squared-loss case (§4.1) in exact rational arithmetic.

θ_t of eq. (2), given the past (x_s, y_s)_{s≤t−1} and the surrogate points θ_{s+1} (s ≤ t−2):

.. math::  \\theta_t = \\arg\\min_\\theta F(\\theta), \\quad
           F(\\theta) = \\sum_{s\\le t-2} \\tilde\\ell_s(\\theta) + \\ell_{t-1}(\\theta) + \\lambda\\|\\theta\\|^2,

with ℓ̃_s(θ) = ℓ_s(u_s) + r_sᵀ(z_s − z_s(u_s)) + β/2 (z_s − z_s(u_s))ᵀM_s(z_s − z_s(u_s)), z_s = W x_s the scores,
u_s = θ_{s+1}, r_s = σ(z_s(u_s)) − e_{y_s}, M_s = diag σ − σσᵀ (eq. (3) written in score space, since
∇ℓ = Φ r and ∇²ℓ = Φ M Φᵀ). cvxpy (log_sum_exp, Clarabel) gives a start, dense Newton polishes it, and the
certificate is ‖θ − θ*‖ ≤ ‖∇F(θ)‖/(2λ) with ‖∇F(θ)‖ enclosed in arb balls from the exact float data
(F − λ‖θ‖² is convex, so F is 2λ-strongly convex).

Best comparator: min_{‖W‖_F ≤ B} Σ_s ℓ_s(W); certified two-sided enclosure of the minimum value: an upper bound
f(W) at a feasible W (norm checked in arb) and the lower bound f* ≥ f(W) − ∇f(W)ᵀW − B‖∇f(W)‖ (convexity), all
in arb. Shared helpers (``arb_precision``, ``CertificationError``) come from :mod:`reference.certify`.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

import cvxpy as cp
import flint
import numpy as np
from scipy.special import softmax

from algorithms.multiclass import losses
from reference.certify import CertificationError, arb_precision

DEFAULT_TOL = 1e-9


@dataclasses.dataclass
class GafRef:
    theta: np.ndarray           # (K, d)
    certified_error: float      # rigorous bound on ||theta - theta*||_F
    grad_norm_upper: float
    solver: str


def _check(X, Y, K):
    X = np.asarray(X, float)
    Y = np.asarray(Y).astype(int).reshape(-1)
    if X.ndim != 2 or not np.isfinite(X).all():
        raise ValueError("X must be a finite 2-D array")
    if Y.shape[0] != X.shape[0] or Y.min(initial=0) < 0 or Y.max(initial=0) >= K:
        raise ValueError("Y must hold one label in {0..K-1} per row of X")
    return X, Y


def _surrogate_data(X, Y, U, K):
    """Per past round s: z_s(u_s), r_s, M_s (floats) for the surrogates ℓ̃_s."""
    zu = np.einsum("skd,sd->sk", U, X)
    P = softmax(zu, axis=1)
    R = P - np.eye(K)[Y]
    M = np.einsum("sk,kl->skl", P, np.eye(K)) - np.einsum("sk,sl->skl", P, P)
    return zu, R, M


def objective_grad_hess(W, X, Y, U, K, lam, beta):
    """F, ∇F (K, d) and ∇²F ((K d) × (K d)) of eq. (2) in float64 (X has t−1 rows, U has t−2 surrogate points)."""
    d = X.shape[1]
    Xs, Ys, xl, yl = X[:-1], Y[:-1], X[-1], Y[-1]
    zu, Rs, Ms = _surrogate_data(Xs, Ys, U, K)
    dz = Xs @ W.T - zu
    coef = Rs + beta * np.einsum("skl,sl->sk", Ms, dz)
    zl = W @ xl
    pl = softmax(zl)
    rl = pl - np.eye(K)[yl]
    G = coef.T @ Xs + np.outer(rl, xl) + 2 * lam * W
    H = beta * np.einsum("skl,sa,sb->kalb", Ms, Xs, Xs).reshape(K * d, K * d)
    H += np.kron(np.diag(pl) - np.outer(pl, pl), np.outer(xl, xl)) + 2 * lam * np.eye(K * d)
    return G, H


def _arb_softmax(z):
    m = max(float(v.mid()) for v in z)
    e = [(v - m).exp() for v in z]
    s = sum(e, flint.arb(0))
    return [v / s for v in e]


def certified_grad_norm(W, X, Y, U, K, lam, beta) -> float:
    """Rigorous upper bound on ‖∇F(W)‖_F for F of eq. (2), evaluated in arb from the exact float data."""
    with arb_precision(128):
        A = lambda v: flint.arb(float(v))  # noqa: E731  (floats are exact in arb)
        d = X.shape[1]
        Wa = [[A(v) for v in row] for row in W]
        G = [[2 * A(lam) * Wa[k][a] for a in range(d)] for k in range(K)]
        b = A(beta)
        n = X.shape[0]
        for s in range(n):
            x = [A(v) for v in X[s]]
            z = [sum((Wa[k][a] * x[a] for a in range(d)), flint.arb(0)) for k in range(K)]
            if s < n - 1:
                u = U[s]
                zu = [sum((A(u[k][a]) * x[a] for a in range(d)), flint.arb(0)) for k in range(K)]
                p = _arb_softmax(zu)
                dz = [z[k] - zu[k] for k in range(K)]
                pdz = sum((p[k] * dz[k] for k in range(K)), flint.arb(0))
                coef = [p[k] - (1 if k == Y[s] else 0) + b * (p[k] * dz[k] - p[k] * pdz) for k in range(K)]
            else:
                p = _arb_softmax(z)
                coef = [p[k] - (1 if k == Y[s] else 0) for k in range(K)]
            for k in range(K):
                for a in range(d):
                    G[k][a] += coef[k] * x[a]
        sq = sum((g * g for row in G for g in row), flint.arb(0))
        return float(sq.sqrt().upper())


def theta_t(X_past, Y_past, thetas_surr, K: int, lam: float, beta: float, tol: float = DEFAULT_TOL,
            start=None) -> GafRef:
    """Certified θ_t of eq. (2). X_past, Y_past: rounds 1..t−1; thetas_surr: θ_2..θ_{t−1} (shape (t−2, K, d))."""
    X, Y = _check(X_past, Y_past, K)
    n, d = X.shape
    if n == 0:
        return GafRef(np.zeros((K, d)), 0.0, 0.0, "trivial (t = 1)")
    U = np.asarray(thetas_surr, float).reshape(n - 1, K, d)
    solver = "start"
    if start is None:
        W = cp.Variable((K, d))
        Xs, Ys = X[:-1], Y[:-1]
        zu, Rs, Ms = _surrogate_data(Xs, Ys, U, K)
        terms = [lam * cp.sum_squares(W)]
        for s in range(n - 1):
            dz = W @ Xs[s] - zu[s]
            ev, V = np.linalg.eigh(Ms[s])
            Vs = V * np.sqrt(np.clip(ev, 0, None))
            terms.append(Rs[s] @ dz + 0.5 * beta * cp.sum_squares(Vs.T @ dz))
        zl = W @ X[-1]
        terms.append(cp.log_sum_exp(zl) - zl[int(Y[-1])])
        prob = cp.Problem(cp.Minimize(sum(terms)))
        prob.solve(solver=cp.CLARABEL)
        if prob.status != "optimal":
            raise CertificationError(f"cvxpy status {prob.status}")
        Wk = np.asarray(W.value, float)
        solver = "cvxpy/Clarabel + Newton"
    else:
        Wk = np.asarray(start, float).reshape(K, d).copy()
    for _ in range(30):
        G, H = objective_grad_hess(Wk, X, Y, U, K, lam, beta)
        if np.linalg.norm(G) < 1e-15:
            break
        Wk = Wk - np.linalg.solve(H, G.ravel()).reshape(K, d)
    gn = certified_grad_norm(Wk, X, Y, U, K, lam, beta)
    err = gn / (2 * lam) * (1 + 1e-12)
    if err > tol:
        raise CertificationError(f"certified error {err:.3g} > tol {tol:.3g}")
    return GafRef(Wk, err, gn, solver)


def _polish_ball(W, X, Y, K, B, nu):
    """Newton on f(W) + ν/2 (‖W‖² − B²) with ν from cvxpy's dual (lstsq steps: f is flat along 1 ⊗ v)."""
    n, d = X.shape
    onehot = np.eye(K)[Y]
    for _ in range(20):
        P = softmax(X @ W.T, axis=1)
        G = (P - onehot).T @ X + nu * W
        if np.linalg.norm(G) < 1e-14:
            break
        Mm = np.einsum("ik,kl->ikl", P, np.eye(K)) - np.einsum("ik,il->ikl", P, P)
        H = np.einsum("ikl,ia,ib->kalb", Mm, X, X).reshape(K * d, K * d) + nu * np.eye(K * d)
        W = W - np.linalg.lstsq(H, G.ravel(), rcond=1e-14)[0].reshape(K, d)
    return W


@dataclasses.dataclass
class ComparatorRef:
    theta: np.ndarray
    value_upper: float     # ≥ min (value at a feasible point, in arb)
    value_lower: float     # ≤ min (convexity bound, in arb)


def best_comparator(X, Y, K: int, B: float) -> ComparatorRef:
    """Certified enclosure of min_{‖W‖_F ≤ B} Σ_s ℓ(W x_s, y_s)."""
    X, Y = _check(X, Y, K)
    n, d = X.shape
    W = cp.Variable((K, d))
    Z = X @ W.T
    obj = cp.sum(cp.log_sum_exp(Z, axis=1)) - cp.sum(cp.multiply(np.eye(K)[Y], Z))
    prob = cp.Problem(cp.Minimize(obj), [cp.norm(W, "fro") <= B])
    prob.solve(solver=cp.CLARABEL)
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise CertificationError(f"cvxpy status {prob.status}")
    Wk = _polish_ball(np.asarray(W.value, float), X, Y, K, B, float(prob.constraints[0].dual_value or 0.0) / B)
    nrm = np.linalg.norm(Wk)
    if nrm > B * (1 - 1e-4):   # active ball: onto the sphere, just inside
        Wk = Wk * (B * (1 - 1e-12) / nrm)
    with arb_precision(128):
        A = lambda v: flint.arb(float(v))  # noqa: E731
        Wa = [[A(v) for v in row] for row in Wk]
        if sum((w * w for row in Wa for w in row), flint.arb(0)) > A(B) * A(B):
            raise CertificationError("comparator not certified feasible")
        f = flint.arb(0)
        G = [[flint.arb(0)] * d for _ in range(K)]
        for s in range(n):
            x = [A(v) for v in X[s]]
            z = [sum((Wa[k][a] * x[a] for a in range(d)), flint.arb(0)) for k in range(K)]
            m = max(float(v.mid()) for v in z)
            lse = m + sum(((v - m).exp() for v in z), flint.arb(0)).log()
            f += lse - z[int(Y[s])]
            p = _arb_softmax(z)
            for k in range(K):
                c = p[k] - (1 if k == Y[s] else 0)
                for a in range(d):
                    G[k][a] += c * x[a]
        gw = sum((G[k][a] * Wa[k][a] for k in range(K) for a in range(d)), flint.arb(0))
        gn = sum((g * g for row in G for g in row), flint.arb(0)).sqrt()
        lower = f - gw - A(B) * gn
        return ComparatorRef(Wk, float(f.upper()), float(lower.lower()))


# ----------------------------------------------------------------------------- squared loss (§4.1)

def squared_theta_t_exact(X_past, Y_past, lam) -> list[Fraction]:
    """θ_t = argmin L_{t−1}(θ) = (λI + Σ x_s x_sᵀ)⁻¹ Σ y_s x_s in exact rationals (squared loss: ℓ̃ = ℓ)."""
    X = [[Fraction(v) for v in row] for row in np.asarray(X_past, float).tolist()]
    Y = [Fraction(v) for v in np.asarray(Y_past, float).reshape(-1).tolist()]
    d = len(X[0]) if X else 0
    lam = Fraction(lam)
    A = [[lam * (i == j) + sum((x[i] * x[j] for x in X), Fraction(0)) for j in range(d)] for i in range(d)]
    b = [sum((y * x[i] for x, y in zip(X, Y)), Fraction(0)) for i in range(d)]
    return _solve_exact(A, b)


def _solve_exact(A, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        piv = next(r for r in range(c, n) if M[r][c] != 0)
        M[c], M[piv] = M[piv], M[c]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [a - f * bb for a, bb in zip(M[r], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def multiclass_regret(scores, X, Y, K: int, B: float) -> tuple[float, float]:
    """(lower, upper) enclosure-ish of the regret Σℓ(ŷ_t) − min_{‖W‖≤B} Σℓ: the learner loss in float64."""
    X, Y = _check(X, Y, K)
    ref = best_comparator(X, Y, K, B)
    L = float(np.sum(losses(np.asarray(scores, float), Y)))
    return L - ref.value_upper, L - ref.value_lower

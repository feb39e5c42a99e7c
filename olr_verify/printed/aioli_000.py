"""Seed 000, Algorithms 1 and 2 (AIOLI), transcribed line by line as printed, in mpmath (``dps`` digits).

Algorithm 1 (§2.3, "descriptive version"), as printed::

    initialize L_0 = λ^{1/2} I, b_0 = 0, θ_0 = 0
    for t = 1..n: receive x_t
      compute W_t, U_t, Σ_t, u_t, v_t using L_{t-1}, b_{t-1}, x_t, θ_t, as specified in Lemma 2
      compute ω_t^T using T steps of gradient descent using u_t, v_t as specified in Lemma 3
      compute θ̃_t = L_t^{-T} W_t U_t Σ_t^{-1/2} ω_t^T and predict ŷ_t = θ̃_tᵀx_t
      receive y_t; compute g_t using θ̃_t, y_t, x_t
      compute L_t via rank 1 Cholesky update of L_{t-1} with vector sqrt(η_t/2) g_t
      compute b_t = b_{t-1} + (η_t g_tᵀθ̃_t − 1) g_t

Algorithm 2 (App. D, "detailed version"), as printed::

    L_0 = λ^{-1/2} I, b̃_0 = 0, θ̃_0 = 0
    for t = 1..n: receives x_t
      W_t = L_t^{-1}(b_{t-1}, x_t), {U_t, Σ_t} = eigen-dec(W_tᵀW_t), u_t = Σ_t^{1/2}U_tᵀe_1, v_t = Σ_t^{1/2}U_tᵀe_2
      ω_t^0 = 0; for i = 1..T: ω^i = ω^{i-1} − λ/(4λ+R²) [2ω^{i-1} − 2u_t − (1+e^{v_tᵀω^{i-1}})^{-1} v_t
                                                            + (1+e^{−v_tᵀω^{i-1}})^{-1} v_t]
      θ̃_t = L_t^{-T}(W_t(U_t Σ_t^{-1/2} ω_t^T)); predict ŷ_t = θ̃_tᵀx_t; receives y_t
      g_t = −(1+e^{y_t θ̃_tᵀx_t})^{-1} y_t x_t,  η_t = e^{y_t θ̂_tᵀx_t}/(1+BR)
      L_t = chol-update(L_{t-1}, sqrt(η_t/2) g_t),  b_t = b_{t-1} + (η_t g_tᵀθ̃_t − 1) g_t

Readings forced by the print (recorded, not corrected):

- both boxes use ``L_t`` before line "compute L_t": the only factor that exists then is the current one,
  L_{t-1}; that is what is used (Lemma 2 itself says L_{t-1});
- Algorithm 1 never defines η_t: eq. (9), η_t = e^{y_t ŷ_t}/(1+BR) with ŷ_t = θ̃_tᵀx_t, is used; Algorithm 2
  writes θ̂_t in η_t, which the box never computes: θ̃_t, the only estimator it has, is used;
- "gradient descent as specified in Lemma 3" is the step γ = λ/(4λ+R²) from ω^0 = 0 (as in Algorithm 2);
- the economic eigen-decomposition keeps the eigenvalues above ``10^{-(dps-10)}`` times the largest;
- b_t is updated exactly as printed (no factor ½, unlike eq. (5)), L_0 exactly as printed in each box.
"""
from __future__ import annotations

import mpmath


def _solve_lower(L, v):
    n = L.rows
    out = mpmath.matrix(n, 1)
    for i in range(n):
        out[i] = (v[i] - mpmath.fsum(L[i, k] * out[k] for k in range(i))) / L[i, i]
    return out


def _solve_lower_transpose(L, v):
    n = L.rows
    out = mpmath.matrix(n, 1)
    for i in reversed(range(n)):
        out[i] = (v[i] - mpmath.fsum(L[k, i] * out[k] for k in range(i + 1, n))) / L[i, i]
    return out


def chol_update(L, v):
    """Rank-1 Cholesky update (Golub and Van Loan): returns L' with L'L'ᵀ = LLᵀ + vvᵀ."""
    L = L.copy()
    v = v.copy()
    n = L.rows
    for k in range(n):
        r = mpmath.sqrt(L[k, k] ** 2 + v[k] ** 2)
        c, s = r / L[k, k], v[k] / L[k, k]
        L[k, k] = r
        for i in range(k + 1, n):
            L[i, k] = (L[i, k] + s * v[i]) / c
            v[i] = c * v[i] - s * L[i, k]
    return L


def _eigen_dec(M, dps):
    """Economic eigen-decomposition of a symmetric 2x2 matrix: (U (2 x p), Σ diagonal entries)."""
    E, Q = mpmath.eigsy(M)
    top = max(abs(E[0]), abs(E[1]))
    keep = [j for j in range(2) if E[j] > top * mpmath.mpf(10) ** (-(dps - 10)) and E[j] > 0]
    U = mpmath.matrix(2, len(keep))
    for c, j in enumerate(keep):
        U[0, c], U[1, c] = Q[0, j], Q[1, j]
    return U, [E[j] for j in keep]


def _round(L, b, x, lam, R, T, dps):
    d = L.rows
    Wb, Wx = _solve_lower(L, b), _solve_lower(L, x)                 # W_t = L^{-1}(b_{t-1}, x_t)
    W = mpmath.matrix(d, 2)
    for i in range(d):
        W[i, 0], W[i, 1] = Wb[i], Wx[i]
    U, sig = _eigen_dec(W.T * W, dps)
    p = len(sig)
    if p == 0:
        return mpmath.matrix(d, 1), p
    u = [mpmath.sqrt(sig[j]) * U[0, j] for j in range(p)]            # Σ^{1/2} Uᵀ e_1
    v = [mpmath.sqrt(sig[j]) * U[1, j] for j in range(p)]            # Σ^{1/2} Uᵀ e_2
    gamma = lam / (4 * lam + R ** 2)
    om = [mpmath.mpf(0)] * p
    for _ in range(T):
        vo = mpmath.fsum(a * b_ for a, b_ in zip(v, om))
        grad = [2 * om[j] - 2 * u[j] - v[j] / (1 + mpmath.exp(vo)) + v[j] / (1 + mpmath.exp(-vo)) for j in range(p)]
        om = [om[j] - gamma * grad[j] for j in range(p)]
    q = [U[0, j] * om[j] / mpmath.sqrt(sig[j]) for j in range(p)], [U[1, j] * om[j] / mpmath.sqrt(sig[j]) for j in range(p)]
    q0, q1 = mpmath.fsum(q[0]), mpmath.fsum(q[1])                   # U Σ^{-1/2} ω
    Wq = mpmath.matrix([W[i, 0] * q0 + W[i, 1] * q1 for i in range(d)])
    return _solve_lower_transpose(L, Wq), p                          # L^{-T} W U Σ^{-1/2} ω


def _run(X, Y, lam, T, B, R, L0_power, dps, b_factor=1):
    with mpmath.workdps(dps):
        lam, B, R = mpmath.mpf(lam), mpmath.mpf(B), mpmath.mpf(R)
        Xm = [[mpmath.mpf(v) for v in row] for row in X]
        Ym = [mpmath.mpf(v) for v in Y]
        d = len(Xm[0])
        L = mpmath.eye(d) * lam ** L0_power
        b = mpmath.matrix(d, 1)
        out = []
        for x_list, y in zip(Xm, Ym):
            x = mpmath.matrix(x_list)
            theta, p = _round(L, b, x, lam, R, T, dps)
            yhat = mpmath.fsum(theta[i] * x[i] for i in range(d))
            g = x * (-y / (1 + mpmath.exp(y * yhat)))
            eta = mpmath.exp(y * yhat) / (1 + B * R)
            L = chol_update(L, g * mpmath.sqrt(eta / 2))
            b = b + g * (b_factor * (eta * mpmath.fsum(g[i] * theta[i] for i in range(d)) - 1))
            out.append({"theta": [theta[i] for i in range(d)], "y_hat": yhat, "p": p})
        return out


def algorithm_1(X, Y, lam, T: int, B, R, dps: int = 50) -> list[dict]:
    """Algorithm 1 as printed; returns per round θ̃_t (mpf list), ŷ_t and the rank p_t."""
    return _run(X, Y, lam, T, B, R, mpmath.mpf(1) / 2, dps)


def algorithm_2(X, Y, lam, T: int, B, R, dps: int = 50) -> list[dict]:
    """Algorithm 2 as printed (L_0 = λ^{-1/2} I); same output as :func:`algorithm_1`."""
    return _run(X, Y, lam, T, B, R, -mpmath.mpf(1) / 2, dps)


def corrected(X, Y, lam, T: int, B, R, dps: int = 50) -> list[dict]:
    """NOT a transcription: the boxes with L_0 = λ^{1/2} I and b_t = b_{t-1} + ½(η_t g_tᵀθ̃_t − 1) g_t,
    i.e. with the statistics of eq. (5) (the corrected variant ``000:algorithm-N/corrected``)."""
    return _run(X, Y, lam, T, B, R, mpmath.mpf(1) / 2, dps, b_factor=mpmath.mpf(1) / 2)

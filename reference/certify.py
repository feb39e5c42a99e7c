"""Shared machinery of the references: objective, cvxpy solve, Newton polish, arb certificate.

Every reference in :mod:`reference` minimises a convex objective of the form

.. math::

    F(\\theta) = \\sum_i w_i \\log(1 + e^{-y_i x_i^\\top\\theta})
               + \\sum_s \\widehat\\ell_s(\\theta)
               + \\lambda\\|\\theta\\|^2 + (\\theta - q)^\\top Q (\\theta - q),

optionally over the ball :math:`\\|\\theta\\| \\le B`, where :math:`\\widehat\\ell_s` is the quadratic
surrogate of seed 000, eq. (2), built at a played point :math:`\\widehat\\theta_s`:
:math:`\\widehat\\ell_s(\\theta) = \\ell_s(\\widehat\\theta_s) + g_s^\\top(\\theta-\\widehat\\theta_s)
+ \\frac{\\eta_s}{2}(g_s^\\top(\\theta-\\widehat\\theta_s))^2`, :math:`\\eta_s = e^{y_s\\widehat y_s}/(1+BR)`.

A solution is accepted only by certificate (never because a solver said so):

1. cvxpy (Clarabel, SCS as fallback) gives a starting point; a status other than ``optimal`` raises;
2. Newton (unconstrained) or Newton on the KKT system of the sphere (ball, active constraint) polishes
   it to machine precision in float64;
3. the gradient is re-evaluated from the exact float data in arb ball arithmetic (128 bits) and
   turned into a rigorous bound:

   - unconstrained, :math:`\\mu`-strongly convex: :math:`\\|\\theta-\\theta^*\\| \\le \\|\\nabla F(\\theta)\\|/\\mu`,
     :math:`F(\\theta)-F^* \\le \\|\\nabla F(\\theta)\\|^2/(2\\mu)`;
   - ball (KKT bound): for feasible :math:`\\theta` and any :math:`\\nu\\ge0`, with
     :math:`r=\\nabla F(\\theta)+\\nu\\theta` and :math:`\\delta=\\nu\\|\\theta\\|(B-\\|\\theta\\|)`,
     :math:`\\mu\\|\\theta-\\theta^*\\|^2 \\le \\nabla F(\\theta)^\\top(\\theta-\\theta^*) \\le \\|r\\|\\|\\theta-\\theta^*\\|+\\delta`
     and :math:`F(\\theta)-F^* \\le \\|r\\|\\,D+\\delta` with :math:`D` a bound on :math:`\\|\\theta-\\theta^*\\|`
     (:math:`2B` when :math:`\\mu=0`: then only the VALUE gap is certified, which is what regret needs).

A certificate above tolerance raises :class:`CertificationError`.
"""
from __future__ import annotations

import contextlib
import dataclasses
import warnings
from typing import Any

import numpy as np
from scipy.special import expit

import flint

ARB_PREC = 128
DEFAULT_TOL = 1e-9


class CertificationError(RuntimeError):
    """The solver failed, or the certified bound is above tolerance."""


@dataclasses.dataclass
class RefSolution:
    """A certified minimiser.

    ``certified_error`` bounds ``||theta - theta*||`` (None when the objective is not certified
    strongly convex); ``value_gap`` bounds ``value - min F`` (both rigorous, from arb);
    ``value_bounds`` encloses ``min F``; ``certified`` says in words what was certified.
    """

    theta: np.ndarray
    value: float
    certified_error: float | None
    value_gap: float
    solver: str
    certified: str
    mu: float = 0.0
    value_bounds: tuple[float, float] = (float("nan"), float("nan"))
    on_boundary: bool = False
    multiplier: float = 0.0
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)


@contextlib.contextmanager
def arb_precision(bits: int = ARB_PREC):
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old


# ---------------------------------------------------------------- input validation

def check_matrix(X, name: str = "X", d: int | None = None) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    if X.ndim == 1 and d is not None:
        X = X.reshape(-1, d) if X.size else np.zeros((0, d))
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array, got shape {X.shape}")
    if d is not None and X.shape[1] != d:
        raise ValueError(f"{name} must have {d} columns, got {X.shape[1]}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or inf")
    return X


def check_labels(Y, n: int, name: str = "Y") -> np.ndarray:
    Y = np.asarray(Y, dtype=float).reshape(-1)
    if Y.shape[0] != n:
        raise ValueError(f"{name} must have {n} entries, got {Y.shape[0]}")
    if not np.all((Y == 1.0) | (Y == -1.0)):
        raise ValueError(f"{name} must contain labels in {{-1, +1}}")
    return Y


def check_positive(value, name: str, allow_zero: bool = False) -> float:
    value = float(value)
    if not np.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name} must be {'>= 0' if allow_zero else '> 0'} and finite, got {value}")
    return value


# ---------------------------------------------------------------- objective

@dataclasses.dataclass
class Objective:
    """F(theta) as in the module docstring; every array holds the exact float data."""

    d: int
    X: np.ndarray | None = None          # logistic terms
    Y: np.ndarray | None = None
    w: np.ndarray | None = None
    Xs: np.ndarray | None = None         # surrogate terms (seed 000, eq. (2))
    Ys: np.ndarray | None = None
    Ts: np.ndarray | None = None         # played points theta_hat_s
    BR: float = 0.0                      # B * R of eq. (2)
    lam: float = 0.0
    Q: np.ndarray | None = None          # (theta - q)^T Q (theta - q)
    q: np.ndarray | None = None
    mu: float = 0.0                      # certified lower bound on the strong-convexity modulus

    def __post_init__(self) -> None:
        if self.X is not None and self.w is None:
            self.w = np.ones(self.X.shape[0])
        self._arb_cache: dict[str, Any] = {}

    # ---- float64 evaluation (used by the polish)
    def _surr_coeffs(self):
        m = np.einsum("ij,ij->i", self.Xs, self.Ts)          # played margins theta_hat_s^T x_s
        ym = self.Ys * m
        a = -self.Ys * expit(-ym)                           # g_s = a_s x_s
        eta_a2 = expit(ym) * expit(-ym) / (1.0 + self.BR)   # eta_s a_s^2, stable
        return m, ym, a, eta_a2

    def value(self, theta: np.ndarray) -> float:
        v = 0.0
        if self.X is not None and self.X.shape[0]:
            v += float(self.w @ np.logaddexp(0.0, -self.Y * (self.X @ theta)))
        if self.Xs is not None and self.Xs.shape[0]:
            m, ym, a, ea2 = self._surr_coeffs()
            r = self.Xs @ theta - m
            v += float(np.sum(np.logaddexp(0.0, -ym) + a * r + 0.5 * ea2 * r * r))
        v += self.lam * float(theta @ theta)
        if self.Q is not None:
            e = theta - self.q
            v += float(e @ self.Q @ e)
        return v

    def grad_hess(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        g = 2.0 * self.lam * theta
        H = 2.0 * self.lam * np.eye(self.d)
        if self.X is not None and self.X.shape[0]:
            z = self.Y * (self.X @ theta)
            c = -self.w * self.Y * expit(-z)
            g = g + self.X.T @ c
            s = self.w * expit(z) * expit(-z)
            H = H + (self.X * s[:, None]).T @ self.X
        if self.Xs is not None and self.Xs.shape[0]:
            m, ym, a, ea2 = self._surr_coeffs()
            r = self.Xs @ theta - m
            g = g + self.Xs.T @ (a + ea2 * r)
            H = H + (self.Xs * ea2[:, None]).T @ self.Xs
        if self.Q is not None:
            g = g + 2.0 * self.Q @ (theta - self.q)
            H = H + 2.0 * self.Q
        return g, H

    # ---- arb evaluation (used by the certificate)
    def _arb_data(self):
        if "X" not in self._arb_cache:
            c = self._arb_cache
            if self.X is not None and self.X.shape[0]:
                c["X"] = flint.arb_mat(self.X.tolist())
                c["XT"] = c["X"].transpose()
            if self.Xs is not None and self.Xs.shape[0]:
                c["Xs"] = flint.arb_mat(self.Xs.tolist())
                c["XsT"] = c["Xs"].transpose()
                onebr = 1 + flint.arb(self.BR)
                rows = []
                for x, y, t in zip(self.Xs.tolist(), self.Ys.tolist(), self.Ts.tolist()):
                    m = sum((flint.arb(xi) * flint.arb(ti) for xi, ti in zip(x, t)), flint.arb(0))
                    ym = y * m
                    a = -y / (1 + ym.exp())
                    eta = ym.exp() / onebr
                    rows.append((m, a, eta * a * a, (1 + (-ym).exp()).log()))
                c["surr"] = rows
            if self.Q is not None:
                c["Q"] = flint.arb_mat(self.Q.tolist())
                c["q"] = [flint.arb(v) for v in self.q.tolist()]
        return self._arb_cache

    def grad_value_arb(self, theta: list) -> tuple[list, Any]:
        """Gradient (list of arb) and value (arb) at an arb vector ``theta``, from the exact data."""
        c = self._arb_data()
        d = self.d
        lam = flint.arb(self.lam)
        g = [2 * lam * theta[j] for j in range(d)]
        v = lam * sum((t * t for t in theta), flint.arb(0))
        th = flint.arb_mat([[t] for t in theta])
        if "X" in c:
            z = c["X"] * th
            coef, val = [], flint.arb(0)
            for i, (y, w) in enumerate(zip(self.Y.tolist(), self.w.tolist())):
                yz = y * z[i, 0]
                coef.append([-w * y / (1 + yz.exp())])
                val += w * (1 + (-yz).exp()).log()
            gx = c["XT"] * flint.arb_mat(coef)
            g = [g[j] + gx[j, 0] for j in range(d)]
            v += val
        if "Xs" in c:
            z = c["Xs"] * th
            coef, val = [], flint.arb(0)
            for i, (m, a, ea2, lm) in enumerate(c["surr"]):
                r = z[i, 0] - m
                coef.append([a + ea2 * r])
                val += lm + a * r + ea2 * r * r / 2
            gx = c["XsT"] * flint.arb_mat(coef)
            g = [g[j] + gx[j, 0] for j in range(d)]
            v += val
        if "Q" in c:
            e = flint.arb_mat([[theta[j] - c["q"][j]] for j in range(d)])
            Qe = c["Q"] * e
            g = [g[j] + 2 * Qe[j, 0] for j in range(d)]
            v += sum((e[j, 0] * Qe[j, 0] for j in range(d)), flint.arb(0))
        return g, v


# ---------------------------------------------------------------- certified linear algebra

def arb_is_positive_definite(M: list[list]) -> bool:
    """True only if the symmetric arb matrix ``M`` is certainly positive definite (arb Cholesky)."""
    n = len(M)
    L = [[flint.arb(0)] * n for _ in range(n)]
    for j in range(n):
        s = M[j][j] - sum((L[j][k] * L[j][k] for k in range(j)), flint.arb(0))
        if not s > 0:
            return False
        L[j][j] = s.sqrt()
        for i in range(j + 1, n):
            L[i][j] = (M[i][j] - sum((L[i][k] * L[j][k] for k in range(j)), flint.arb(0))) / L[j][j]
    return True


def certified_min_eigenvalue(M_arb: list[list], guess: float) -> float:
    """A float ``s`` with ``lambda_min(M) >= s`` certified (0.0 when nothing positive certifies)."""
    n = len(M_arb)
    s = 0.5 * guess
    for _ in range(6):
        if s <= 0:
            return 0.0
        shifted = [[M_arb[i][j] - (s if i == j else 0) for j in range(n)] for i in range(n)]
        if arb_is_positive_definite(shifted):
            return s
        s *= 0.25
    return 0.0


def certified_mu_quadratic(Q: np.ndarray) -> float:
    """Certified lower bound on lambda_min(2 Q) for an exact float matrix Q (symmetrised)."""
    with arb_precision():
        Qa = [[flint.arb(v) for v in row] for row in Q.tolist()]
        n = len(Qa)
        Ms = [[(Qa[i][j] + Qa[j][i]) for j in range(n)] for i in range(n)]  # = 2 * sym(Q)
        guess = float(np.linalg.eigvalsh(Q + Q.T)[0])
        return certified_min_eigenvalue(Ms, guess)


def certified_mu_logistic_ball(X: np.ndarray, w: np.ndarray, B: float) -> float:
    """Certified lower bound on the Hessian of sum_i w_i log(1+exp(-y_i x_i^T theta)) over ||theta||<=B.

    sigma'(z) = sigma(z) sigma(-z) decreases in |z| and |x_i^T theta| <= B ||x_i||, so the Hessian is
    >= sum_i w_i sigma'(B ||x_i||) x_i x_i^T, whose smallest eigenvalue is certified by arb Cholesky.
    """
    n, d = X.shape
    if n < d:
        return 0.0
    with arb_precision():
        Bq = flint.arb(B)
        rows = []
        for x, wi in zip(X.tolist(), w.tolist()):
            nx = sum((flint.arb(v) ** 2 for v in x), flint.arb(0)).sqrt()
            z = Bq * nx
            # sigma'(z) for the largest |z| in the ball: take the lower end of the enclosure
            sp = z.exp() / (1 + z.exp()) ** 2
            c = (flint.arb(wi) * flint.arb(sp.lower())).sqrt()
            rows.append([c * flint.arb(v) for v in x])
        A = flint.arb_mat(rows)
        M = A.transpose() * A
        Ml = [[M[i, j] for j in range(d)] for i in range(d)]
        mid = np.array([[float(M[i, j].mid()) for j in range(d)] for i in range(d)])
        guess = float(np.linalg.eigvalsh(mid)[0])
        return certified_min_eigenvalue(Ml, guess)


# ---------------------------------------------------------------- cvxpy formulation

_PROBLEMS: dict[tuple, Any] = {}
PARAMETER_SIZE_LIMIT = 4096  # entries of the data Parameters above which a problem is not cached


def _pad(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def _build_problem(key):
    import cvxpy as cp

    d, n_log, n_surr, has_quad, ball = key
    theta = cp.Variable(d)
    P: dict[str, Any] = {"theta": theta}
    terms = []
    if n_log:
        P["Z"] = cp.Parameter((n_log, d))  # padding rows are 0: they add the constant log 2
        terms.append(cp.sum(cp.logistic(P["Z"] @ theta)))
    if n_surr:
        P["M"] = cp.Parameter((n_surr, d))
        P["m"] = cp.Parameter(n_surr)
        P["lin"] = cp.Parameter(d)
        terms.append(cp.sum_squares(P["M"] @ theta - P["m"]) + P["lin"] @ theta)
    P["lam"] = cp.Parameter(nonneg=True)
    terms.append(P["lam"] * cp.sum_squares(theta))
    if has_quad:
        P["L"] = cp.Parameter((d, d))
        P["Lq"] = cp.Parameter(d)
        terms.append(cp.sum_squares(P["L"] @ theta - P["Lq"]))
    cons = []
    if ball:
        P["B"] = cp.Parameter(nonneg=True)
        cons.append(cp.norm(theta, 2) <= P["B"])
    P["problem"] = cp.Problem(cp.Minimize(cp.sum(terms) if len(terms) > 1 else terms[0]), cons)
    return P


def cvxpy_solve(obj: Objective, B: float | None) -> tuple[np.ndarray, str]:
    """Starting point from cvxpy; Clarabel first, SCS as fallback; non-optimal status raises."""
    import cvxpy as cp

    d = obj.d
    n_log = obj.X.shape[0] if obj.X is not None else 0
    n_surr = obj.Xs.shape[0] if obj.Xs is not None else 0
    key = (d, _pad(n_log) if n_log else 0, _pad(n_surr) if n_surr else 0, obj.Q is not None, B is not None)
    if (key[1] + key[2]) * d > PARAMETER_SIZE_LIMIT:
        # cvxpy's canonicalisation of a large matrix Parameter costs far more than the solve (13 s of
        # 14 s at n = 1250, d = 9): build this one problem with constant data instead.
        P = _build_problem(key)
    elif key not in _PROBLEMS:
        _PROBLEMS[key] = P = _build_problem(key)
    else:
        P = _PROBLEMS[key]
    if n_log:
        if np.any(obj.w != 1.0):
            raise ValueError("cvxpy formulation supports unit weights only")
        Z = np.zeros((key[1], d)); Z[:n_log] = -obj.Y[:, None] * obj.X
        P["Z"].value = Z
    if n_surr:
        m, ym, a, ea2 = obj._surr_coeffs()
        s = np.sqrt(0.5 * ea2)
        M = np.zeros((key[2], d)); M[:n_surr] = s[:, None] * obj.Xs
        mm = np.zeros(key[2]); mm[:n_surr] = s * m
        P["M"].value, P["m"].value = M, mm
        P["lin"].value = obj.Xs.T @ a
    P["lam"].value = obj.lam
    if obj.Q is not None:
        L = np.linalg.cholesky(obj.Q + 1e-300 * np.eye(d)).T
        P["L"].value, P["Lq"].value = L, L @ obj.q
    if B is not None:
        P["B"].value = B
    errors = []
    for solver in ("CLARABEL", "SCS"):
        try:
            with warnings.catch_warnings():  # "may be inaccurate": the status decides, then the certificate
                warnings.simplefilter("ignore", UserWarning)
                P["problem"].solve(solver=solver)
        except (cp.error.SolverError, ArithmeticError, ValueError) as exc:
            errors.append(f"{solver}: {exc}")
            continue
        if P["problem"].status == "optimal" and P["theta"].value is not None:
            return np.array(P["theta"].value, dtype=float), solver.lower()
        errors.append(f"{solver}: status {P['problem'].status}")
    raise CertificationError("cvxpy found no optimal solution: " + "; ".join(errors))


# ---------------------------------------------------------------- Newton polish

def newton_unconstrained(obj: Objective, theta: np.ndarray, iters: int = 60) -> np.ndarray:
    best, best_g = theta.copy(), np.inf
    stall = 0
    for _ in range(iters):
        g, H = obj.grad_hess(theta)
        gn = float(np.linalg.norm(g))
        if gn < best_g:
            best, best_g, stall = theta.copy(), gn, 0
        else:
            stall += 1
            if stall >= 3:
                break
        if gn == 0.0:
            break
        try:
            step = np.linalg.solve(H + 1e-300 * np.eye(obj.d), g)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(H, g, rcond=None)[0]
        f0, t = obj.value(theta), 1.0
        while t > 1e-12 and obj.value(theta - t * step) > f0 + 1e-12 * abs(f0) and gn > 1e-8:
            t *= 0.5
        theta = theta - t * step
    return best


def newton_sphere(obj: Objective, theta: np.ndarray, B: float, iters: int = 60) -> tuple[np.ndarray, float]:
    """Newton on the KKT system of min F s.t. ||theta||^2 = B^2: grad F + 2 nu theta = 0."""
    d = obj.d
    theta = B * theta / np.linalg.norm(theta)
    g, _ = obj.grad_hess(theta)
    nu = max(0.0, -float(g @ theta) / (2 * B * B))
    best, best_nu, best_r, stall = theta.copy(), nu, np.inf, 0
    for _ in range(iters):
        g, H = obj.grad_hess(theta)
        r = g + 2 * nu * theta
        rn = float(np.linalg.norm(r))
        if rn < best_r:
            best, best_nu, best_r, stall = theta.copy(), nu, rn, 0
        else:
            stall += 1
            if stall >= 3:
                break
        K = np.zeros((d + 1, d + 1))
        K[:d, :d] = H + 2 * nu * np.eye(d)
        K[:d, d] = K[d, :d] = 2 * theta
        rhs = -np.concatenate([r, [theta @ theta - B * B]])
        try:
            step = np.linalg.solve(K, rhs)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(K, rhs, rcond=None)[0]
        theta = theta + step[:d]
        theta = B * theta / np.linalg.norm(theta)
        nu = max(0.0, nu + step[d])
    return best, best_nu


# ---------------------------------------------------------------- certificate

def _arb_norm(v: list):
    """Euclidean norm enclosure (squares of balls around 0 are clipped at 0 before the sqrt)."""
    return sum((x * x for x in v), flint.arb(0)).nonnegative_part().sqrt()


def _upper(x) -> float:
    """A float >= every point of the arb ball x (rounded up)."""
    return float(flint.arb(x).upper())


def certify_unconstrained(obj: Objective, theta: np.ndarray) -> tuple[float, float, Any]:
    """(bound on ||theta-theta*||, bound on F(theta)-F*, arb value) for mu-strongly convex F."""
    if obj.mu <= 0:
        raise CertificationError("unconstrained certificate needs mu > 0")
    with arb_precision():
        th = [flint.arb(v) for v in theta.tolist()]
        g, v = obj.grad_value_arb(th)
        gn = _arb_norm(g)
        mu = flint.arb(obj.mu)
        return _upper(gn / mu), _upper(gn * gn / (2 * mu)), v


def _ball_bound(obj: Objective, th: list, B: float, nu: float):
    """KKT bound at an arb point th (assumed to contain a feasible point); returns (err, gap, value)."""
    g, v = obj.grad_value_arb(th)
    nu_a = flint.arb(nu)
    r = [g[j] + nu_a * th[j] for j in range(obj.d)]
    rn = _arb_norm(r)
    nt = _arb_norm(th)
    delta = max(0.0, _upper(nu_a * nt * (flint.arb(B) - nt)))
    rn_u = _upper(rn)
    if obj.mu > 0:
        mu = obj.mu
        err = (rn_u + np.sqrt(rn_u * rn_u + 4 * mu * delta)) / (2 * mu)
        err = float(np.nextafter(err, np.inf)) * (1 + 1e-12)
        err = min(err, 2 * B)  # theta and theta* both lie in the ball
        D = err
    else:
        err, D = None, 2 * B
    gap = (rn_u * D + delta) * (1 + 1e-12)
    return err, gap, v


def certify_ball(obj: Objective, theta: np.ndarray, B: float, nu: float) -> dict[str, Any]:
    """Certificate for min F over ||theta|| <= B at the float point theta (made feasible)."""
    out: dict[str, Any] = {}
    with arb_precision():
        th_f = [flint.arb(v) for v in theta.tolist()]
        n_f = _arb_norm(th_f)
        feasible = bool(n_f <= B)
        if not feasible:  # pull inside by a few ulps
            theta = theta * (B / float(n_f.upper())) * (1 - 4e-16)
            th_f = [flint.arb(v) for v in theta.tolist()]
            n_f = _arb_norm(th_f)
            feasible = bool(n_f <= B)
        if not feasible:
            raise CertificationError("could not produce a certified feasible point")
        # (a) the float point itself, nu = 0 (valid for any feasible point)
        err_a, gap_a, v_f = _ball_bound(obj, th_f, B, 0.0)
        # (a') the float point with the multiplier
        err_b, gap_b, _ = _ball_bound(obj, th_f, B, nu) if nu > 0 else (err_a, gap_a, v_f)
        cands = [(err_a, gap_a), (err_b, gap_b)]
        # (b) the exact point on the sphere B theta/||theta||, then transfer to the float point
        if nu > 0 and float(n_f.mid()) > 0:
            th_s = [B * t / n_f for t in th_f]
            err_s, gap_s, v_s = _ball_bound(obj, th_s, B, nu)
            dist = _upper(_arb_norm([a - b for a, b in zip(th_f, th_s)]))
            err_c = None if err_s is None else (err_s + dist) * (1 + 1e-12)
            gap_c = (gap_s + max(0.0, _upper(v_f - v_s))) * (1 + 1e-12)
            cands.append((err_c, gap_c))
        errs = [e for e, _ in cands if e is not None]
        out["err"] = min(errs) if errs else None
        out["gap"] = min(gap for _, gap in cands)
        out["value"] = v_f
        out["theta"] = theta
    return out


# ---------------------------------------------------------------- driver

def solve_certified(obj: Objective, B: float | None = None, tol: float = DEFAULT_TOL,
                    start: np.ndarray | None = None, what: str = "", target: str = "theta") -> RefSolution:
    """cvxpy solve, Newton polish, arb certificate; raises CertificationError above ``tol``.

    ``target="theta"``: ``tol`` applies to ``certified_error`` (needs mu > 0);
    ``target="value"``: ``tol`` applies to ``value_gap`` (the certified error is still reported when
    mu > 0, whatever its size).
    """
    if start is None:
        theta0, solver = cvxpy_solve(obj, B)
    else:
        theta0, solver = np.asarray(start, dtype=float), "warm-start"
    on_boundary, nu = False, 0.0
    if B is None:
        theta = newton_unconstrained(obj, theta0)
        err, gap, v = certify_unconstrained(obj, theta)
        how = f"unconstrained, mu={obj.mu:.3g}: ||theta-theta*|| <= ||grad F||/mu (arb)"
    else:
        theta = theta0
        if obj.mu > 0:
            t_unc = newton_unconstrained(obj, theta0)
            if np.linalg.norm(t_unc) <= B:
                theta = t_unc
        if np.linalg.norm(theta) > B * (1 - 1e-6) or obj.mu <= 0:
            if np.linalg.norm(theta) > B * (1 - 1e-6):
                t_s, nu_s = newton_sphere(obj, theta, B)
                if nu_s > 0:
                    theta, nu, on_boundary = t_s, nu_s, True
            if not on_boundary and obj.mu <= 0:
                theta = newton_unconstrained(obj, theta)
                if np.linalg.norm(theta) > B:
                    theta = B * theta / np.linalg.norm(theta)
        cert = certify_ball(obj, theta, B, 2 * nu)
        theta, err, gap, v = cert["theta"], cert["err"], cert["gap"], cert["value"]
        how = (f"B-ball (B={B:g}), mu={obj.mu:.3g}: KKT bound mu||theta-theta*||^2 <= ||grad F + nu theta||"
               f" ||theta-theta*|| + nu||theta||(B-||theta||) in arb"
               + ("" if obj.mu > 0 else "; not strongly convex: VALUE gap certified, not theta"))
    value = float(v.mid())
    vb = (float(np.nextafter(float(v.lower()) - gap, -np.inf)), float(v.upper()))
    check = gap if target == "value" or err is None else err
    if target == "theta" and err is None:
        raise CertificationError(f"{what or 'reference'}: no strong convexity certified, theta not certified")
    if not np.isfinite(check) or check > tol:
        raise CertificationError(f"{what or 'reference'}: certificate {check:.3g} above tolerance {tol:.3g}")
    return RefSolution(theta=np.asarray(theta, dtype=float), value=value, certified_error=err, value_gap=gap,
                       solver=solver, certified=how, mu=obj.mu, value_bounds=vb, on_boundary=on_boundary,
                       multiplier=nu)

"""reference.aioli: θ̂_t of seed 000 eq. (3) / θ̄_t of eq. (11), certified."""
import numpy as np
import pytest
from scipy.optimize import minimize

from reference import aioli
from reference.surrogate_ftl import theta_t


def _seq(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X, np.where(rng.random(n) < 0.5, 1.0, -1.0)


def _stats_eq5(X, Y, thetas, B, R, lam):
    """A_t, b_t of eq. (5), written out independently of the reference."""
    d = X.shape[1]
    A, b = lam * np.eye(d), np.zeros(d)
    for x, y, th in zip(X, Y, thetas):
        yhat = th @ x
        g = -y * x / (1 + np.exp(y * yhat))
        eta = np.exp(y * yhat) / (1 + B * R)
        A += 0.5 * eta * np.outer(g, g)
        b += 0.5 * (eta * g @ th - 1) * g
    return A, b


def test_theta_bar_minimises_the_lemma_2_rewriting_of_equation_3():
    X, Y = _seq(12, 3, seed=1)
    B, R, lam = 2.0, 1.0, 0.25
    rng = np.random.default_rng(2)
    thetas = rng.normal(size=(11, 3))                  # any played history
    sol = aioli.theta_bar(X[:11], Y[:11], thetas, X[11], B, R, lam)
    A, b = _stats_eq5(X[:11], Y[:11], thetas, B, R, lam)
    f = lambda th: th @ A @ th - 2 * th @ b + np.log1p(np.cosh(th @ X[11]))
    direct = minimize(f, np.zeros(3), method="BFGS", options={"gtol": 1e-11}).x
    assert np.linalg.norm(direct - sol.theta) < 1e-6
    assert sol.certified_error < 1e-12


def test_theta_hat_agrees_with_its_own_recursion_and_the_run():
    X, Y = _seq(8, 2, seed=3)
    sols = aioli.run(X, Y, B=1.0, R=1.0, lam=1.0)
    last = aioli.theta_hat(X[:7], Y[:7], X[7], B=1.0, R=1.0, lam=1.0)
    assert np.linalg.norm(sols[-1].theta - last.theta) < 1e-13
    assert all(s.certified_error < 1e-12 for s in sols)


def test_first_round_estimator_is_zero_by_symmetry():
    X, Y = _seq(1, 4, seed=4)
    sol = aioli.theta_hat(np.zeros((0, 4)), np.zeros(0), X[0], B=1.0, R=1.0, lam=1.0)
    assert np.linalg.norm(sol.theta) <= sol.certified_error


def test_surrogate_ftl_matches_the_closed_form_of_app_b_step_4():
    X, Y = _seq(15, 4, seed=5)
    B, R, lam = 3.0, 1.0, 1 / 9
    thetas = np.random.default_rng(6).normal(size=(15, 4))
    sol = theta_t(X, Y, thetas, B, R, lam)
    A, b = _stats_eq5(X, Y, thetas, B, R, lam)
    closed = np.linalg.solve(A, b)
    assert np.linalg.norm(closed - sol.theta) < 1e-10


def test_inputs_outside_the_radius_r_raise():
    X, Y = _seq(3, 2, seed=7)
    with pytest.raises(ValueError, match="x_t"):
        aioli.theta_hat(X[:2], Y[:2], 3 * X[2], B=1.0, R=1.0, lam=1.0)
    with pytest.raises(ValueError, match="X"):
        aioli.theta_hat(2 * X[:2], Y[:2], X[2], B=1.0, R=1.5, lam=1.0)
    with pytest.raises(ValueError, match="lam"):
        aioli.theta_hat(X[:2], Y[:2], X[2], B=1.0, R=1.0, lam=0.0)


def test_huge_played_margins_keep_the_surrogate_finite():
    X, Y = _seq(6, 2, seed=8)
    thetas = 1e4 * np.sign(np.random.default_rng(9).normal(size=(5, 2)))
    sol = aioli.theta_bar(X[:5], Y[:5], thetas, X[5], B=1e4, R=1.0, lam=1e-8 * 0 + 1e-4)
    assert np.all(np.isfinite(sol.theta)) and np.isfinite(sol.value)

"""AIOLI (seed 000 eq. (3), Lemma 2, Lemma 3, Algorithm 2) against direct minimisation and its own identities."""
import math
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import expit

import algorithms as alg
from tests.algorithms.conftest import ball_stream


def _eq3_direct(X_past, Y_past, TH_past, x, lam, B, R):
    """Minimise eq. (3) written as the literal sum of surrogates (2), with its own gradient and Hessian."""
    d = x.size

    def parts(theta):
        grad = 2.0 * lam * theta
        hess = 2.0 * lam * np.eye(d)
        for xs, ys, ts in zip(X_past, Y_past, TH_past):
            m = ys * (ts @ xs)
            g = -ys * expit(-m) * xs  # ∇ℓ_s(θ̂_s)
            eta = math.exp(min(m, 700.0)) / (1.0 + B * R)
            grad = grad + g + eta * (g @ (theta - ts)) * g
            hess = hess + eta * np.outer(g, g)
        z = theta @ x
        grad = grad + math.tanh(0.5 * z) * x
        hess = hess + 2.0 * expit(z) * expit(-z) * np.outer(x, x)
        return grad, hess

    res = minimize(lambda th: alg.eq3_objective(th, X_past, Y_past, TH_past, x, lam, B, R), np.zeros(d),
                   jac=lambda th: parts(th)[0], hess=lambda th: parts(th)[1], method="trust-exact",
                   options={"gtol": 1e-13})
    theta = res.x
    for _ in range(5):  # polish with Newton on the literal gradient (the objective cannot resolve 1e-9 steps)
        grad, hess = parts(theta)
        theta = theta - np.linalg.solve(hess, grad)
    assert np.linalg.norm(parts(theta)[0]) < 1e-12
    return theta


@pytest.mark.parametrize("seed, d, B", [(0, 2, 1.0), (1, 3, 2.0), (2, 4, 5.0)])
def test_theta_hat_is_the_minimiser_of_equation_3_to_1e_9(seed, d, B):
    R = 1.0
    X, Y = ball_stream(25, d, R, seed)
    L = alg.AIOLI(d, B, R)
    thetas = []
    for t in range(len(Y)):
        L.predict(X[t])
        th = L.state()["theta_hat"]
        direct = _eq3_direct(X[:t], Y[:t], thetas, X[t], L.lam, B, R)
        np.testing.assert_allclose(th, direct, atol=1e-9, rtol=0)
        thetas.append(th)
        L.update(X[t], Y[t])


def test_pure_function_matches_the_learner_and_the_sufficient_statistics_are_equation_5():
    d, B, R = 3, 2.0, 1.0
    X, Y = ball_stream(30, d, R, seed=4)
    L = alg.AIOLI(d, B, R)
    A = np.eye(d) / B ** 2
    b = np.zeros(d)
    for x, y in zip(X, Y):
        L.predict(x)
        th = L.state()["theta_hat"]
        np.testing.assert_allclose(alg.aioli_theta_hat(A, b, x, B, R), th, atol=1e-12)
        m = y * (th @ x)
        g = -y * expit(-m) * x
        eta = math.exp(m) / (1 + B * R)
        A = A + 0.5 * eta * np.outer(g, g)
        b = b + 0.5 * (eta * (g @ th) - 1.0) * g
        L.update(x, y)
    s = L.state()
    np.testing.assert_allclose(s["A"], A, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(s["b"], b, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(s["theta"], np.linalg.solve(A, b), rtol=1e-10, atol=1e-12)


def test_sherman_morrison_inverse_stays_accurate_over_a_long_run_at_b_50():
    d, B, R = 8, 50.0, 1.0
    X, Y = ball_stream(3000, d, R, seed=5)
    Y = np.sign(X[:, 0] + 1e-3)  # separable: curvatures spread over many orders of magnitude
    L = alg.AIOLI(d, B, R)
    L.run(X, Y)
    s = L.state()
    fresh = np.linalg.inv(s["A"])
    assert np.linalg.norm(s["A_inv"] - fresh) / np.linalg.norm(fresh) < 1e-10


def test_solve_margin_is_the_root_of_the_scalar_stationarity_equation():
    for z0 in (-1e4, -30.0, -1.0, -1e-12, 0.0, 1e-9, 0.5, 7.0, 1e4):
        for c in (0.0, 1e-12, 0.3, 4.0, 2500.0):
            z = alg.solve_margin(z0, c)
            assert abs(z + 0.5 * c * math.tanh(0.5 * z) - z0) <= 4e-16 * max(1.0, abs(z0), c)
            assert min(0.0, z0) <= z <= max(0.0, z0)


def test_curvature_and_increment_are_finite_at_margins_1e4_and_b_50():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for yhat in (-1e4, -700.0, 0.0, 700.0, 1e4):
            for y in (-1.0, 1.0):
                a2, beta = alg.surrogate_increment(yhat, y, 50.0, 1.0)
                assert math.isfinite(a2) and math.isfinite(beta) and a2 >= 0.0


def test_algorithm_2_with_many_inner_steps_converges_to_the_exact_forecaster():
    d, B, R = 3, 1.0, 1.0
    X, Y = ball_stream(20, d, R, seed=6)
    exact = alg.AIOLI(d, B, R).run(X, Y)
    approx = alg.AIOLI(d, B, R, inner_steps=400).run(X, Y)
    np.testing.assert_allclose(approx, exact, atol=1e-10)


def test_algorithm_2_meets_lemma_3_accuracy_with_its_prescribed_t():
    """Lemma 3: ‖ω^T − ω‖ ≤ ε for T ≥ (4 + R²/λ) log(Rt/(ε√λ)); hence ‖θ̃ − θ̂‖ ≤ ε/√λ (eq. (29))."""
    d, B, R, eps = 2, 1.0, 1.0, 1e-6
    X, Y = ball_stream(15, d, R, seed=7)
    exact = alg.AIOLI(d, B, R)
    lam = exact.lam
    for t, (x, y) in enumerate(zip(X, Y), start=1):
        T = math.ceil((4 + R * R / lam) * math.log(R * t / (eps * math.sqrt(lam))))
        approx = exact.copy()
        approx.inner_steps = T
        approx.predict(x)
        exact.predict(x)
        gap = np.linalg.norm(approx.state()["theta_hat"] - exact.state()["theta_hat"])
        assert gap <= eps / math.sqrt(lam)
        exact.update(x, y)


def test_theorem_4_inner_steps_formula():
    n, B, R, lam = 100, 2.0, 1.0, 0.25
    expected = math.ceil((4 + 4) * math.log(3 * 100 ** 2 * 4 * (100 * 4 / 8 + 2)))
    assert alg.theorem4_inner_steps(n, B, R, lam) == expected


def test_aioli_is_improper_its_prediction_is_not_linear_in_x():
    L = alg.AIOLI(1, B=2.0, R=1.0)
    L.run(np.array([[0.5], [-0.3], [0.9]]), np.array([1.0, 1.0, -1.0]))
    xs = np.array([0.1, 0.4, 0.8])
    ratios = [L.predict([x]) / x for x in xs]
    assert max(ratios) - min(ratios) > 1e-3


def test_surrogate_ftl_plays_theta_t_of_equation_11():
    d, B, R = 3, 2.0, 1.0
    X, Y = ball_stream(20, d, R, seed=8)
    L = alg.SurrogateFTL(d, B, R)
    for x, y in zip(X, Y):
        s = L.state()
        A = s["A"]
        assert L.predict(x) == pytest.approx(np.linalg.solve(A, s["b"]) @ x, abs=1e-12)
        L.update(x, y)

"""FTRL / FTL (true logistic losses): θ_t satisfies the optimality (KKT) conditions of its objective."""
import numpy as np
import pytest

import algorithms as alg
from tests.algorithms.conftest import ball_stream


@pytest.mark.parametrize("lam, B", [(1.0, None), (0.05, 0.3), (1e-3, 50.0)])
def test_ftrl_iterate_satisfies_the_kkt_conditions(lam, B):
    X, Y = ball_stream(40, 3, 1.0, seed=1)
    L = alg.FTRL(3, lam=lam, B=B, R=1.0)
    for x, y in zip(X, Y):
        L.predict(x)
        s = L.state()
        th = s["theta_hat"]
        grad = alg.ftrl_gradient(th, X[:s["t"]], Y[:s["t"]], lam) + 2.0 * s["mu"] * th
        assert np.linalg.norm(grad) < 1e-9
        if s["mu"] > 0:
            assert np.linalg.norm(th) == pytest.approx(B, rel=1e-12)
        elif B is not None:
            assert np.linalg.norm(th) <= B * (1 + 1e-12)
        L.update(x, y)


def test_ftl_on_separable_data_sits_on_the_sphere_and_beats_every_other_ball_point():
    X = np.array([[1.0, 0.0], [0.8, 0.6], [0.6, -0.8]] * 4)
    Y = np.ones(len(X))
    L = alg.FTL(2, B=3.0)
    L.run(X, Y)
    th = L.state()["theta_hat"]
    assert np.linalg.norm(th) == pytest.approx(3.0, rel=1e-12)
    f = alg.ftrl_objective(th, X, Y, 0.0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        u = rng.standard_normal(2)
        u *= 3.0 * rng.random() ** 0.5 / np.linalg.norm(u)
        assert f <= alg.ftrl_objective(u, X, Y, 0.0) + 1e-12


def test_ftl_plays_zero_before_any_data():
    assert alg.FTL(3, B=1.0).predict([0.1, 0.2, 0.3]) == 0.0


def test_objective_gradient_and_hessian_agree_with_the_definition_and_finite_differences():
    """F(θ) = Σ log(1 + e^{−y θᵀx}) + λ‖θ‖² written out; ∇F and ∇²F against central differences (λ ≠ 1)."""
    X, Y = ball_stream(12, 3, 2.0, seed=8)
    lam, h = 0.3, 1e-5
    rng = np.random.default_rng(9)
    for th in rng.normal(size=(3, 3)):
        F = sum(np.log1p(np.exp(-y * (th @ x))) for x, y in zip(X, Y)) + lam * th @ th
        assert alg.ftrl_objective(th, X, Y, lam) == pytest.approx(F, rel=1e-13)
        E = np.eye(3) * h
        g_fd = [(alg.ftrl_objective(th + e, X, Y, lam) - alg.ftrl_objective(th - e, X, Y, lam)) / (2 * h) for e in E]
        np.testing.assert_allclose(alg.ftrl_gradient(th, X, Y, lam), g_fd, rtol=1e-7, atol=1e-8)
        H_fd = np.array([(alg.ftrl_gradient(th + e, X, Y, lam) - alg.ftrl_gradient(th - e, X, Y, lam)) / (2 * h)
                         for e in E])
        np.testing.assert_allclose(alg.ftrl_hessian(th, X, Y, lam), H_fd, rtol=1e-7, atol=1e-8)


def test_regularized_leader_of_an_empty_history_is_zero_with_an_inactive_constraint():
    for lam, B in ((1.0, None), (0.5, 2.0), (0.0, 2.0)):
        theta, mu = alg.regularized_leader(np.empty((0, 2)), np.empty(0), lam, B)
        np.testing.assert_array_equal(theta, np.zeros(2))
        assert mu == 0.0


def test_regularized_leader_called_cold_solves_the_constrained_kkt_system_with_lambda_not_one():
    """No warm start (θ₀ = None, the public entry point of the references): d = 3, λ = 0.3, an active ball B = 0.4.
    KKT of min F(θ) s.t. ‖θ‖ ≤ B: ∇F(θ) + 2μθ = 0, μ > 0, ‖θ‖ = B; and the unconstrained call (B = None) is the
    zero of ∇F with μ = 0."""
    X, Y = ball_stream(30, 3, 2.0, seed=21)
    Y = np.where(X @ np.array([1.0, -0.5, 0.3]) > 0, 1.0, -1.0)  # separable: the free minimiser is far out
    lam, B = 0.3, 0.4
    free, mu0 = alg.regularized_leader(X, Y, lam)
    assert mu0 == 0.0 and np.linalg.norm(alg.ftrl_gradient(free, X, Y, lam)) < 1e-10
    assert np.linalg.norm(free) > 2 * B
    theta, mu = alg.regularized_leader(X, Y, lam, B)
    assert mu > 0 and np.linalg.norm(theta) == pytest.approx(B, rel=1e-12)
    assert np.linalg.norm(alg.ftrl_gradient(theta, X, Y, lam) + 2.0 * mu * theta) < 1e-9


def test_ftrl_default_regularisation_is_lambda_one_of_section_5():
    """Seed 000 §5 runs FTRL with ℓ2-regularisation λ = 1: FTRL(d) must play argmin Σ ℓ_s + ‖θ‖²."""
    X, Y = ball_stream(12, 3, 1.5, seed=22)
    L = alg.FTRL(3)
    L.run(X, Y)
    th = L.state()["theta_hat"]
    assert L.state()["lam"] == 1.0
    assert np.linalg.norm(alg.ftrl_gradient(th, X, Y, 1.0)) < 1e-9


def test_extend_right_after_a_solve_pads_the_current_minimiser_with_zeros():
    """θ_t solved (state() read), then extend(2): the past inputs padded with zeros give the same objective on the
    old coordinates and pure regularisation on the new ones, so the minimiser is θ_t padded with zeros."""
    X, Y = ball_stream(10, 2, 1.0, seed=23)
    L = alg.FTRL(2, lam=0.7, B=5.0)
    L.run(X, Y)
    th = L.state()["theta_hat"]
    L.extend(2)
    np.testing.assert_array_equal(L.state()["theta_hat"], np.concatenate([th, np.zeros(2)]))
    x = np.array([0.1, -0.2, 0.3, 0.4])
    assert L.predict(x) == pytest.approx(th @ x[:2], rel=1e-15)

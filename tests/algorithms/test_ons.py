"""ONS (Hazan et al. 2007) and OGD: projections and the published update."""
import numpy as np
import pytest
from scipy.special import expit

import algorithms as alg
from tests.algorithms.conftest import ball_stream


def test_generalised_projection_keeps_inside_points_and_lands_outside_ones_on_the_sphere():
    rng = np.random.default_rng(0)
    M = rng.standard_normal((3, 3))
    A = M @ M.T + 0.1 * np.eye(3)
    inside = np.array([0.1, -0.2, 0.3])
    np.testing.assert_array_equal(alg.project_A_norm(inside, A, 1.0), inside)
    u = np.array([3.0, -1.0, 2.0])
    p = alg.project_A_norm(u, A, 1.0)
    assert np.linalg.norm(p) == pytest.approx(1.0, rel=1e-12)
    # KKT: A(p − u) = −μ p with μ ≥ 0
    r = A @ (p - u)
    mu = -(r @ p) / (p @ p)
    assert mu > 0 and np.linalg.norm(r + mu * p) < 1e-10 * np.linalg.norm(r)
    for _ in range(200):  # no ball point is closer in the A-norm
        q = rng.standard_normal(3)
        q *= rng.random() ** (1 / 3) / np.linalg.norm(q)
        assert (p - u) @ A @ (p - u) <= (q - u) @ A @ (q - u) + 1e-12


def test_ons_follows_the_published_update():
    B, R = 1.0, 1.0
    X, Y = ball_stream(15, 2, R, seed=1)
    L = alg.ONS(2, B, R)
    gamma = 0.5 * min(1 / (4 * R * 2 * B), np.exp(-B * R))
    A = np.eye(2) / (gamma ** 2 * (2 * B) ** 2)
    th = np.zeros(2)
    for x, y in zip(X, Y):
        assert L.predict(x) == pytest.approx(th @ x, abs=1e-12)
        L.update(x, y)
        g = -y * expit(-y * (th @ x)) * x
        A = A + np.outer(g, g)
        th = alg.project_A_norm(th - np.linalg.solve(A, g) / gamma, A, B)
    np.testing.assert_allclose(L.state()["A_inv"], np.linalg.inv(A), rtol=1e-10)


def test_ogd_takes_step_b_over_r_sqrt_t_and_projects_on_the_ball():
    B, R = 0.5, 2.0
    X, Y = ball_stream(30, 3, R, seed=2)
    L = alg.OGD(3, B, R)
    th = np.zeros(3)
    for t, (x, y) in enumerate(zip(X, Y), start=1):
        assert L.predict(x) == pytest.approx(th @ x, abs=1e-12)
        L.update(x, y)
        th = th + B / (R * np.sqrt(t)) * y * expit(-y * (th @ x)) * x
        th *= min(1.0, B / np.linalg.norm(th))
        assert np.linalg.norm(L.state()["theta_hat"]) <= B * (1 + 1e-12)
    np.testing.assert_allclose(L.state()["theta_hat"], th, atol=1e-12)

"""ONS (Hazan et al. 2007) and OGD: projections and the published update."""
import math

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


def _hazan_gamma(B, R):
    """γ = ½ min(1/(4GD), α) with G = R, D = 2B, α = e^{−BR} (Hazan, Agarwal, Kale 2007, Alg. 2)."""
    return 0.5 * min(1.0 / (4.0 * R * 2.0 * B), math.exp(-B * R))


@pytest.mark.parametrize("B, R, exp_concavity_binds", [(1.6, 2.5, True), (0.5, 0.7, False)])
def test_ons_step_parameters_are_the_published_ones_with_r_not_one(B, R, exp_concavity_binds):
    """γ and ε = 1/(γ²D²) from B and R ≠ 1; the first case makes e^{−BR} the binding term of the min."""
    L = alg.ONS(2, B, R)
    gamma = _hazan_gamma(B, R)
    assert (math.exp(-B * R) < 1.0 / (8.0 * B * R)) == exp_concavity_binds
    assert L.state()["gamma"] == pytest.approx(gamma, rel=1e-14)
    assert L.state()["eps"] == pytest.approx(1.0 / (gamma * 2.0 * B) ** 2, rel=1e-14)
    np.testing.assert_allclose(L.state()["A"], np.eye(2) / (gamma * 2.0 * B) ** 2, rtol=1e-14)


def _ons_trajectory_against_kkt(L, X, Y, B, gamma, eps):
    """Replay ONS independently (A_t by sums, the step by a linear solve) and check every iterate by the KKT
    conditions of argmin_{‖θ‖≤B} (θ−u)ᵀA(θ−u): θ = u inside the ball; otherwise ‖θ‖ = B and A(θ − u) = −μθ, μ > 0.
    Returns the number of rounds on which the projection was active, and the number of those on which the
    Euclidean projection u·B/‖u‖ would violate these conditions (the rounds that tell the two apart)."""
    d = X.shape[1]
    A = eps * np.eye(d)
    th = np.zeros(d)
    active = discriminating = 0
    for x, y in zip(X, Y):
        assert L.predict(x) == pytest.approx(th @ x, rel=1e-9, abs=1e-12)
        L.update(x, y)
        g = -y * expit(-y * (th @ x)) * x
        A = A + np.outer(g, g)
        u = th - np.linalg.solve(A, g) / gamma
        new = L.state()["theta_hat"]
        assert np.linalg.norm(new) <= B * (1 + 1e-12)
        if np.linalg.norm(u) <= B:
            np.testing.assert_allclose(new, u, rtol=1e-9, atol=1e-12)
        else:
            active += 1
            assert np.linalg.norm(new) == pytest.approx(B, rel=1e-12)
            r = A @ (new - u)
            mu = -(r @ new) / (new @ new)
            assert mu > 0 and np.linalg.norm(r + mu * new) <= 1e-9 * np.linalg.norm(r)
            e = u * (B / np.linalg.norm(u))
            re = A @ (e - u)
            discriminating += np.linalg.norm(re + (-(re @ e) / (e @ e)) * e) > 1e-6 * np.linalg.norm(re)
        th = new
    np.testing.assert_allclose(L.state()["A"], A, rtol=1e-12)
    np.testing.assert_allclose(L.state()["A_inv"], np.linalg.inv(A), rtol=1e-9)
    assert L.state()["t"] == len(Y)
    return active, discriminating


@pytest.mark.parametrize("B, R, eps", [(0.5, 0.7, None), (1.6, 2.5, 0.05)])
def test_ons_iterates_are_the_a_norm_projection_and_stay_in_the_ball(B, R, eps):
    """A separable stream pushes θ out of the ball; every iterate must be Π^A_K(u), not the Euclidean projection,
    and ‖θ‖ ≤ B at every round (published ε; and a small ε, where A is far from a multiple of I)."""
    d = 3
    X, _ = ball_stream(40, d, R, seed=11)
    Y = np.where(X @ np.array([1.0, -0.5, 0.25]) > 0, 1.0, -1.0)
    L = alg.ONS(d, B, R, eps=eps)
    gamma = _hazan_gamma(B, R)
    active, discriminating = _ons_trajectory_against_kkt(L, X, Y, B, gamma, L.eps if eps is None else eps)
    assert active >= 5 and discriminating >= 3


def test_ons_projection_matches_the_certified_reference():
    """Π^A_K against reference.ons_projection (arb-certified) on a strongly anisotropic A, u just outside the ball
    (small multiplier μ) and far outside (large μ)."""
    from reference.ons_projection import generalized_projection

    M = np.array([[4.0, 0.0, 0.0], [0.4, 1.2, 0.0], [0.1, 0.3, 0.6]])
    A = M @ M.T
    for u, B in ((np.array([0.62, -0.55, 0.58]), 1.0), (np.array([4.0, -1.0, 2.0]), 0.7),
                 (np.array([4.0, -1.0, 2.0]), 0.05)):
        ref = generalized_projection(u, A, B)
        assert ref.certified_error < 1e-12
        np.testing.assert_allclose(alg.project_A_norm(u, A, B), ref.theta, atol=1e-10)
        assert np.linalg.norm(u * (B / np.linalg.norm(u)) - ref.theta) > 1e-3  # not the Euclidean projection


def test_ogd_projection_is_active_and_keeps_every_iterate_in_the_ball():
    """Separable stream, B = 0.3, R = 1.7: the step B/(R√t) leaves the ball on most rounds; every iterate is
    θ·B/‖θ‖ of the plain step (hand-written), and ‖θ_t‖ ≤ B."""
    B, R = 0.3, 1.7
    X, _ = ball_stream(30, 2, R, seed=4)
    Y = np.where(X[:, 0] - X[:, 1] > 0, 1.0, -1.0)
    L = alg.OGD(2, B, R)
    th, projected = np.zeros(2), 0
    for t, (x, y) in enumerate(zip(X, Y), start=1):
        L.update(x, y)
        th = th + B / (R * math.sqrt(t)) * y * expit(-y * (th @ x)) * x
        if np.linalg.norm(th) > B:
            projected += 1
            th = th * (B / np.linalg.norm(th))
        np.testing.assert_allclose(L.state()["theta_hat"], th, rtol=1e-12, atol=1e-15)
        assert np.linalg.norm(L.state()["theta_hat"]) <= B * (1 + 1e-12)
    assert projected >= 10 and L.state()["t"] == 30


def test_ons_refuses_an_underflowing_exp_concavity_and_reports_b_times_r():
    """α = e^{−BR} underflows for BR = 1000: γ = ½min(1/(4GD), α) would be 0; the error names the product BR."""
    with pytest.raises(ValueError, match=r"B\*R = 1000\.0 is too large"):
        alg.ONS(2, B=100.0, R=10.0)
    assert alg.ONS(2, B=100.0, R=10.0, gamma=0.01).state()["gamma"] == 0.01


def test_generalised_projection_is_exact_when_a_has_a_tiny_eigenvalue():
    """A = diag(1e-6, 0.5, 2) (ONS with a small user ε): KKT gives θ_i = a_i u_i/(a_i + μ) with ‖θ‖ = B, and
    μ ≈ 2e-6 is tiny, so μ must be solved to relative (not absolute) precision: θ against μ found at 50 digits."""
    import mpmath

    a, u, B = [1e-6, 0.5, 2.0], [3.0, 0.2, 0.1], 1.0
    with mpmath.workdps(50):
        norm = lambda mu: mpmath.sqrt(sum((ai * ui / (ai + mu)) ** 2 for ai, ui in zip(a, u))) - B  # noqa: E731
        mu = mpmath.findroot(norm, (mpmath.mpf("1e-7"), mpmath.mpf("1e-4")), solver="anderson")
        want = np.array([float(ai * ui / (ai + mu)) for ai, ui in zip(a, u)])
    assert 1e-6 < float(mu) < 1e-5
    np.testing.assert_allclose(alg.project_A_norm(np.array(u), np.diag(a), B), want, rtol=1e-12)

"""Seed 004: EKF matrix recursion, truncated EKF, reconstructed SOS."""
import numpy as np
import pytest
from scipy.special import expit

import algorithms as alg
from tests.algorithms.conftest import ball_stream


def test_ekf_matrix_equals_the_inverse_of_p1_inverse_plus_the_curvature_sum():
    d = 3
    X, Y = ball_stream(50, d, 1.0, seed=1)
    P1 = np.diag([2.0, 1.0, 0.5])
    L = alg.EKF(d, P1=P1)
    Pinv = np.linalg.inv(P1)
    for x, y in zip(X, Y):
        z = L.predict(x)
        Pinv = Pinv + expit(z) * expit(-z) * np.outer(x, x)
        L.update(x, y)
    np.testing.assert_allclose(L.state()["P"], np.linalg.inv(Pinv), rtol=1e-10)


def test_ekf_parameter_step_uses_the_updated_matrix():
    L = alg.EKF(2)
    x, y = np.array([0.6, 0.8]), -1.0
    L.update(x, y)
    P = np.linalg.inv(np.eye(2) + 0.25 * np.outer(x, x))
    np.testing.assert_allclose(L.state()["theta_hat"], P @ x * y * expit(0.0), atol=1e-15)


def test_truncated_ekf_uses_the_larger_of_the_curvature_and_t_to_the_minus_beta():
    d, beta = 2, 0.3
    L = alg.TruncatedEKF(d, beta=beta, theta1=[8.0, 0.0])
    X, Y = ball_stream(30, d, 1.0, seed=2)
    Pinv = np.eye(d)
    for t, (x, y) in enumerate(zip(X, Y), start=1):
        z = L.predict(x)
        Pinv = Pinv + max(expit(z) * expit(-z), t ** -beta) * np.outer(x, x)
        L.update(x, y)
    np.testing.assert_allclose(L.state()["P"], np.linalg.inv(Pinv), rtol=1e-10)


def test_sos_recomputes_every_curvature_at_the_current_estimate():
    d = 2
    X, Y = ball_stream(12, d, 1.0, seed=3)
    L = alg.SOS(d)
    th = np.zeros(d)
    for t, (x, y) in enumerate(zip(X, Y), start=1):
        assert L.predict(x) == pytest.approx(th @ x, abs=1e-14)
        L.update(x, y)
        z = X[:t] @ th
        Pinv = np.eye(d) + X[:t].T @ ((expit(z) * expit(-z))[:, None] * X[:t])
        th = th + np.linalg.solve(Pinv, x) * y * expit(-y * (th @ x))
    np.testing.assert_allclose(L.state()["theta_hat"], th, atol=1e-12)


@pytest.mark.parametrize("truncated", [False, True])
def test_ekf_recursion_from_a_given_p1_and_theta1(truncated):
    """004 Alg. 2 (§2.5 of the transcription) with a non-diagonal P_1 and θ̂_1 ≠ 0, written with explicit inverses:
    P_{t+1}⁻¹ = P_t⁻¹ + α_t x xᵀ, θ̂_{t+1} = θ̂_t + P_{t+1} x y/(1 + e^{y θ̂_tᵀx})."""
    d, beta = 3, 0.25
    P1 = np.array([[2.0, 0.3, 0.0], [0.3, 1.0, -0.2], [0.0, -0.2, 0.5]])
    th = np.array([0.5, -1.0, 0.25])
    L = alg.TruncatedEKF(d, beta=beta, P1=P1, theta1=th) if truncated else alg.EKF(d, P1=P1, theta1=th)
    X, Y = ball_stream(25, d, 2.0, seed=5)
    Pinv = np.linalg.inv(P1)
    for t, (x, y) in enumerate(zip(X, Y), start=1):
        z = th @ x
        assert L.predict(x) == pytest.approx(z, rel=1e-12, abs=1e-14)
        L.update(x, y)
        alpha = expit(z) * expit(-z)
        Pinv = Pinv + (max(alpha, t ** -beta) if truncated else alpha) * np.outer(x, x)
        th = th + np.linalg.solve(Pinv, x) * y / (1 + np.exp(y * z))
        np.testing.assert_allclose(L.state()["theta_hat"], th, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(L.state()["P"], np.linalg.inv(Pinv), rtol=1e-10, atol=1e-13)
    assert L.state()["t"] == 25


@pytest.mark.parametrize("P1", [[[1.0, 0.0], [0.0, 0.0]], [[1.0, 2.0], [2.0, 1.0]], [[1.0, np.nan], [np.nan, 1.0]]])
def test_ekf_rejects_a_p1_that_is_not_positive_definite(P1):
    with pytest.raises(ValueError, match=r"\bP1\b"):
        alg.EKF(2, P1=P1)


def test_ekf_extend_rejects_a_non_positive_new_diagonal():
    with pytest.raises(ValueError, match=r"\bp1\b"):
        alg.EKF(2).extend(1, p1=0.0)


def test_ekf_says_why_an_indefinite_p1_is_rejected():
    with pytest.raises(ValueError, match=r"^P1 must be symmetric positive definite$"):
        alg.EKF(2, P1=[[1.0, 2.0], [2.0, 1.0]])

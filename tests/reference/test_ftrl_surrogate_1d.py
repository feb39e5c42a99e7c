"""reference.ftrl_surrogate_1d, reference.ftrl, reference.ons_projection."""
import numpy as np
import pytest

from olr_verify.printed.ftrl_003 import approximate_loss
from reference.ftrl import ftrl_argmin
from reference.ftrl_surrogate_1d import case_of, ftrl_1d_argmin, global_argmin
from reference.ons_projection import generalized_projection


def test_overlapping_cases_of_eq_4_take_the_first_printed_case():
    assert case_of(0.0, 0.5, 2.0) == 1          # w = 0, x = 1/D: cases 1 and 3 both apply
    assert case_of(0.0, -0.5, 2.0) == 2
    assert case_of(0.3, -0.1, 2.0) == 3


def test_exact_argmin_beats_a_dense_grid_of_the_printed_objective():
    rng = np.random.default_rng(0)
    Z, W, D, eta = rng.uniform(-1, 1, 25), rng.uniform(-2, 2, 25), 2.0, 0.3
    F = lambda w: sum(approximate_loss(wt, z, D)(w) for z, wt in zip(Z, W)) + w * w / (16 * D * eta)
    sol = ftrl_1d_argmin(Z, W, D, eta)
    grid = np.linspace(-D, D, 4001)
    assert F(sol.theta[0]) <= min(F(g) for g in grid) + 1e-12
    u = global_argmin(Z, W, D, eta).theta[0]
    assert abs(min(D, max(-D, u)) - sol.theta[0]) <= 1e-14


def test_ftrl_argmin_is_stationary_and_the_ball_version_is_feasible():
    rng = np.random.default_rng(1)
    X, Y = rng.normal(size=(20, 3)), np.sign(rng.normal(size=20))
    free = ftrl_argmin(X, Y, lam=0.5)
    g = -(X * (Y / (1 + np.exp(Y * (X @ free.theta))))[:, None]).sum(0) + free.theta
    assert np.linalg.norm(g) < 1e-12
    ball = ftrl_argmin(X, Y, lam=0.5, B=0.1)
    assert np.linalg.norm(ball.theta) <= 0.1 and ball.on_boundary


def test_generalised_projection_keeps_inside_points_and_puts_outside_points_on_the_sphere():
    rng = np.random.default_rng(2)
    M = rng.normal(size=(4, 4)); A = M @ M.T + 0.1 * np.eye(4)
    inside = 0.1 * rng.normal(size=4)
    assert np.allclose(generalized_projection(inside, A, 1.0).theta, inside, atol=0)
    out = generalized_projection(10 * rng.normal(size=4), A, 1.0)
    assert abs(np.linalg.norm(out.theta) - 1.0) < 1e-14 and out.certified_error < 1e-10


def test_generalised_projection_rejects_a_matrix_that_is_not_positive_definite():
    with pytest.raises(Exception):
        generalized_projection(np.ones(2), np.array([[1.0, 0.0], [0.0, -1.0]]), 1.0)

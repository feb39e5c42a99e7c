"""reference.comparator: the best comparator in the B-ball, certified."""
import mpmath
import numpy as np
import pytest

from reference.certify import CertificationError
from reference.comparator import best_in_ball, best_unconstrained
from reference.highprec import best_in_ball_mp


def _data(n, d, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    Y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    return scale * X, Y


@pytest.mark.parametrize("B,lam", [(0.3, 0.0), (0.3, 0.5), (50.0, 0.01), (50.0, 0.0)])
def test_certified_bounds_hold_against_a_50_digit_solution(B, lam):
    X, Y = _data(30, 3, seed=1)
    sol = best_in_ball(X, Y, B, lam)
    mp = best_in_ball_mp(X, Y, B, lam)
    value_gap = sol.value - float(mp.value)
    assert -1e-14 <= value_gap <= sol.value_gap + 1e-14 * abs(sol.value)
    assert sol.value_bounds[0] <= float(mp.value) + 1e-14 * abs(sol.value)
    if sol.certified_error is not None and sol.certified_error < 1e-8:
        dist = float(mpmath.norm(mpmath.matrix([mpmath.mpf(a) - b for a, b in zip(sol.theta, mp.theta)])))
        assert dist <= sol.certified_error + 1e-16


def test_small_ball_solution_lands_on_the_sphere_with_a_positive_multiplier():
    X, Y = _data(40, 2, seed=2)
    X[:, 0] = np.abs(X[:, 0]); Y[:] = 1.0          # separable: the optimum wants to go far
    sol = best_in_ball(X, Y, B=0.5)
    assert sol.on_boundary and sol.multiplier > 0
    assert abs(np.linalg.norm(sol.theta) - 0.5) < 1e-14
    assert np.linalg.norm(sol.theta) <= 0.5


def test_large_ball_solution_equals_the_unconstrained_ridge_minimiser():
    X, Y = _data(40, 4, seed=3)
    inside = best_in_ball(X, Y, B=1e3, lam=0.1)
    free = best_unconstrained(X, Y, lam=0.1)
    assert not inside.on_boundary
    assert np.linalg.norm(inside.theta - free.theta) <= inside.certified_error + free.certified_error


def test_default_run_sizes_certify_below_1e_10():
    X, Y = _data(200, 20, seed=4)
    for B, lam in [(1.0, 0.0), (5.0, 1.0 / 25.0)]:
        sol = best_in_ball(X, Y, B, lam)
        assert sol.value_gap <= 1e-10
        if lam > 0:
            assert sol.certified_error <= 1e-10


def test_huge_margins_stay_finite():
    X, Y = _data(20, 2, seed=5, scale=1e3)
    sol = best_in_ball(X, Y, B=10.0, lam=0.0)
    assert np.isfinite(sol.value) and np.all(np.isfinite(sol.theta))


def test_empty_history_gives_zero_with_value_zero():
    sol = best_in_ball(np.zeros((0, 3)), np.zeros(0), B=1.0)
    assert np.all(sol.theta == 0) and sol.value == 0.0


def test_a_tolerance_below_machine_precision_raises_instead_of_returning_a_number():
    X, Y = _data(30, 3, seed=6)
    with pytest.raises(CertificationError):
        best_in_ball(X, Y, B=1.0, lam=0.1, tol=1e-40)


@pytest.mark.parametrize("kwargs,name", [
    ({"B": 0.0}, "B"), ({"B": -1.0}, "B"), ({"B": 1.0, "lam": -0.1}, "lam"),
])
def test_bad_scalars_raise_value_errors_naming_the_argument(kwargs, name):
    X, Y = _data(5, 2, seed=7)
    with pytest.raises(ValueError, match=name):
        best_in_ball(X, Y, **kwargs)


def test_bad_labels_and_nan_inputs_raise_value_errors():
    X, Y = _data(5, 2, seed=8)
    with pytest.raises(ValueError, match="Y"):
        best_in_ball(X, np.array([1, 0, 1, 1, -1.0]), B=1.0)
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="X"):
        best_in_ball(X, Y, B=1.0)

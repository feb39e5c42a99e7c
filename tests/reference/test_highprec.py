"""reference.highprec: 50-digit objectives and the 50-digit comparator."""
import mpmath
import numpy as np

from reference.highprec import best_in_ball_mp, logistic_loss_mp, logistic_loss_sum_mp, objective_mp


def test_logistic_loss_at_50_digits_matches_the_closed_form_at_zero_and_large_margins():
    with mpmath.workdps(60):
        assert abs(logistic_loss_mp(0) - mpmath.log(2)) < mpmath.mpf(10) ** -55
        big = logistic_loss_mp("1e4", -1)            # log(1 + e^{1e4}) = 1e4 + log1p(e^{-1e4})
        assert abs(big - mpmath.mpf("1e4")) < mpmath.mpf(10) ** -50


def test_decimal_strings_are_read_exactly_not_through_floats():
    v1 = logistic_loss_sum_mp([["0.1"]], ["1"], ["1"], dps=50)
    v2 = logistic_loss_sum_mp([[0.1]], [1.0], [1.0], dps=50)
    assert v1 != v2                                   # 0.1 as a float differs from the decimal 0.1
    assert abs(v1 - v2) < 1e-16


def test_objective_adds_the_ridge_term():
    X = [["1", "2"], ["-1", "0.5"]]
    v0 = objective_mp(X, ["1", "-1"], ["0.3", "-0.2"], lam=0)
    v1 = objective_mp(X, ["1", "-1"], ["0.3", "-0.2"], lam="0.5")
    with mpmath.workdps(50):
        assert abs((v1 - v0) - mpmath.mpf("0.5") * (mpmath.mpf("0.09") + mpmath.mpf("0.04"))) < mpmath.mpf(10) ** -45


def test_the_50_digit_comparator_has_a_tiny_kkt_residual_on_and_inside_the_ball():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(25, 3)); Y = np.sign(rng.normal(size=25))
    for B in (0.2, 100.0):
        sol = best_in_ball_mp(X, Y, B, lam="0.1")
        assert sol.value_gap < mpmath.mpf(10) ** -40
        with mpmath.workdps(50):
            assert mpmath.sqrt(mpmath.fsum(t * t for t in sol.theta)) <= B + mpmath.mpf(10) ** -45

"""The complexity verdict: an O(s^3) cost is not accepted as O(s^2); an O(s^2) one is."""
import numpy as np
import pytest

from olr_verify.timing import cpu_seconds, loglog_slope, order_outcome

SIZES = (160, 320, 640)


def _matmul_seconds(s: int) -> float:
    A = np.random.default_rng(s).normal(size=(s, s))
    return cpu_seconds(lambda: A @ A, repeat=3)


def _matvec_seconds(s: int) -> float:
    A = np.random.default_rng(s).normal(size=(s, s))
    v = np.ones(s)
    return cpu_seconds(lambda: [A @ v for _ in range(200)], repeat=3)


def test_a_cubic_cost_is_not_accepted_as_quadratic():
    out = order_outcome(SIZES, [_matmul_seconds(s) for s in SIZES], 2, "matrix product")
    assert out.status == "inconclusive"
    assert out.evidence["loglog_slope"] > 2.5


def test_a_quadratic_cost_is_accepted_as_quadratic_and_never_proved():
    out = order_outcome(SIZES, [_matvec_seconds(s) for s in SIZES], 2, "matrix-vector product")
    assert out.status == "verified"


def test_the_slope_of_an_exact_power_law():
    sizes = [10, 20, 40, 80]
    assert loglog_slope(sizes, [3e-6 * s ** 2 for s in sizes]) == pytest.approx(2.0)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="repeat"):
        cpu_seconds(lambda: None, repeat=0)
    with pytest.raises(ValueError, match="sizes and seconds"):
        loglog_slope([1, 2], [1.0])

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


def _python_work(power: float):
    """A cost of about s**power interpreter steps at size s."""
    return lambda s: sum(range(int(s ** power)))


def test_measured_order_interleaves_and_decides_like_order_outcome():
    from olr_verify.timing import measured_order

    sizes = (200, 400, 800)
    out = measured_order(sizes, lambda s: s, _python_work(2.0), 1.0, "quadratic loop", repeat=2)
    assert out.status == "inconclusive" and out.evidence["loglog_slope"] > 1.7
    out = measured_order(sizes, lambda s: s, _python_work(1.0), 1.0, "linear loop", repeat=2)
    assert out.status == "verified"


def test_a_slope_near_the_acceptance_line_is_measured_again():
    from olr_verify.timing import measured_order

    # slope ~2 against the line 1.6 + 0.5: within NEAR, so every extra round runs
    out = measured_order((300, 600, 1200), lambda s: s, _python_work(2.0), 1.6, "quadratic loop", repeat=1,
                         extra_rounds=2)
    assert out.evidence["passes"] == 3
    # far from the line: one round only
    out = measured_order((300, 600, 1200), lambda s: s, _python_work(1.0), 3.0, "linear loop", repeat=1)
    assert out.evidence["passes"] == 1


def test_cost_curve_rejects_a_bad_repeat():
    from olr_verify.timing import cost_curve

    with pytest.raises(ValueError, match="repeat"):
        cost_curve([1, 2], lambda s: s, lambda s: None, repeat=0)

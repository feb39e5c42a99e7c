"""The complexity verdict: an O(s^3) cost is not accepted as O(s^2); an O(s^2) one is."""
import numpy as np
import pytest

from olr_verify.timing import cost_curve, loglog_slope, order_outcome

SIZES = (160, 320, 640)


def _matrix(s: int):
    return np.random.default_rng(s).normal(size=(s, s))


def test_a_cubic_cost_is_not_accepted_as_quadratic():
    seconds = cost_curve(SIZES, _matrix, lambda A: A @ A, repeat=3)
    out = order_outcome(SIZES, seconds, 2, "matrix product")
    assert out.status == "inconclusive"
    assert out.evidence["loglog_slope"] > 2.5


def test_a_quadratic_cost_is_accepted_as_quadratic_and_never_proved():
    def matvecs(A):
        v = np.ones(len(A))
        return [A @ v for _ in range(200)]

    out = order_outcome(SIZES, cost_curve(SIZES, _matrix, matvecs, repeat=3), 2, "matrix-vector product")
    assert out.status == "verified"


def test_the_slope_of_an_exact_power_law():
    sizes = [10, 20, 40, 80]
    assert loglog_slope(sizes, [3e-6 * s ** 2 for s in sizes]) == pytest.approx(2.0)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="repeat"):
        cost_curve([1, 2], lambda s: s, lambda s: None, repeat=0)
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
    sizes = (40000, 80000, 160000)  # above the timer's resolution
    out = measured_order(sizes, lambda s: s, _python_work(1.0), 1.0, "linear loop", repeat=2)
    assert out.status == "verified"


def _fake_curve(monkeypatch, exponent: float) -> list[int]:
    """Replace the clock by costs of exactly size**exponent; the list counts the rounds measured."""
    import olr_verify.timing as timing

    calls = []

    def curve(sizes, build, work, repeat=3):
        calls.append(repeat)
        return [1e-6 * s ** exponent for s in sizes]

    monkeypatch.setattr(timing, "cost_curve", curve)
    return calls


def test_a_slope_near_the_acceptance_line_is_measured_again(monkeypatch):
    from olr_verify.timing import measured_order

    # slope 2 against the line 1.6 + 0.5: within NEAR, so every extra round runs (a fake clock, so the slope
    # is exactly 2 on a busy machine too)
    calls = _fake_curve(monkeypatch, 2.0)
    out = measured_order((300, 600, 1200), lambda s: s, None, 1.6, "quadratic", repeat=1, extra_rounds=2)
    assert len(calls) == 3 and out.evidence["passes"] == 3 and out.status == "verified"


def test_a_slope_far_from_the_acceptance_line_is_measured_once(monkeypatch):
    from olr_verify.timing import measured_order

    calls = _fake_curve(monkeypatch, 1.0)
    out = measured_order((300, 600, 1200), lambda s: s, None, 3.0, "linear", repeat=2)
    assert len(calls) == 1 and out.evidence["passes"] == 2
    calls = _fake_curve(monkeypatch, 4.0)
    out = measured_order((300, 600, 1200), lambda s: s, None, 1.0, "quartic", repeat=2)
    assert len(calls) == 1 and out.status == "inconclusive"


def test_the_hidden_term_grows_with_a_fixed_cost_and_is_reported():
    from olr_verify.timing import hidden_term

    sizes = [100, 400, 1600]
    pure = [s ** 2 * 1e-8 for s in sizes]
    masked = [t + 0.1 for t in pure]  # a fixed cost that dominates the small sizes
    k_pure, k_masked = hidden_term(sizes, pure, 2), hidden_term(sizes, masked, 2)
    assert 1 < k_pure < k_masked
    # adding exactly that term reaches the acceptance line
    top = max(pure)
    lifted = [t + k_pure * top * (s / 1600) ** 3 for t, s in zip(pure, sizes)]
    assert loglog_slope(sizes, lifted) == pytest.approx(2.5, abs=1e-6)
    assert "hidden_next_order_term" in order_outcome(sizes, masked, 2, "x").evidence


def test_costs_below_the_timer_resolution_are_not_a_verdict():
    out = order_outcome([10, 20, 40], [2e-6, 1e-6, 2e-6], 0, "nothing")
    assert out.status == "inconclusive" and out.evidence["below_resolution"]


@pytest.mark.parametrize("sizes, seconds, word", [
    ([10, 10, 10], [1.0, 2.0, 3.0], "sizes"), ([0, 10, 20], [1.0, 2.0, 3.0], "sizes"),
    ([-1, 10, 20], [1.0, 2.0, 3.0], "sizes"), ([5, 10, 20], [0.0, 2.0, 3.0], "seconds"),
    ([5, 10, 20], [float("nan"), 2.0, 3.0], "seconds")])
def test_degenerate_measurements_raise_a_named_error(sizes, seconds, word):
    with pytest.raises(ValueError, match=word):
        order_outcome(sizes, seconds, 1, "x")


def test_measured_order_rejects_bad_budgets():
    from olr_verify.timing import cost_curve, measured_order

    with pytest.raises(ValueError, match="repeat"):
        cost_curve([1, 2], lambda s: s, lambda s: None, repeat=2.5)
    with pytest.raises(ValueError, match="sizes"):
        cost_curve([], lambda s: s, lambda s: None)
    with pytest.raises(ValueError, match="extra_rounds"):
        measured_order([1, 2], lambda s: s, lambda s: None, 1, "x", extra_rounds=-1)

"""Bound hunting (issue 6): fast deterministic tests (marker ``hunt``)."""
import json

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, target

from olr_verify.hunting import highprec_learners as hl
from olr_verify.hunting.bounds import TARGETS, Sequence, evaluate, ratio, with_defaults
from reference.comparator import best_in_ball, best_in_ball_fast
from olr_verify.hunting.confirm import confirm
from olr_verify.hunting.numerics import MP
from olr_verify.hunting.optimisers import hunt, theorem_4_2_sequence
from olr_verify.hunting.strategies import adaptive_binary, bounded_sequences

pytestmark = pytest.mark.hunt


def test_exact_aioli_estimator_satisfies_the_first_order_condition_of_equation_3():
    rng = np.random.default_rng(0)
    L = hl.AioliExact(3, 2.0, 1.0, 0.3, trace=True)
    for _ in range(15):
        x = rng.normal(size=3)
        x /= np.linalg.norm(x)
        L.update(x, int(rng.choice([-1, 1])))
    x = rng.normal(size=3) / 2
    th = L.theta_hat(x)
    A = np.linalg.inv(L.A_inv)
    grad = 2 * A @ th - 2 * L.b + np.tanh(th @ x / 2) * x
    assert np.linalg.norm(grad) < 1e-12


def test_float_and_fifty_digit_aioli_agree_on_the_same_sequence():
    rng = np.random.default_rng(1)
    X = rng.uniform(-0.5, 0.5, size=(20, 2))
    Y = rng.choice([-1, 1], size=20)
    p = hl.AioliExact(2, 3.0, 1.0, 0.2).run(X, Y)
    with MP.precision(50):
        q = hl.AioliExact(2, 3.0, 1.0, 0.2, K=MP).run(MP.arr(X), Y)
    assert max(abs(float(a) - float(b)) for a, b in zip(p, q)) < 1e-12


def test_algorithm_2_with_theorem_4_steps_stays_close_to_the_exact_estimator():
    rng = np.random.default_rng(2)
    X = rng.uniform(-1, 1, size=(10, 2)) / 1.5
    Y = rng.choice([-1, 1], size=10)
    T = hl.aioli_gd_steps(10, 2.0, 1.0, 0.25)
    p = hl.AioliExact(2, 2.0, 1.0, 0.25).run(X, Y)
    q = hl.AioliExact(2, 2.0, 1.0, 0.25, gd_steps=T).run(X, Y)
    assert max(abs(a - b) for a, b in zip(p, q)) < 1e-6


def test_the_one_comparator_matches_a_generic_constrained_solver_and_its_certificate():
    """reference.comparator: the hunts' float point (best_in_ball_fast) and the certified one agree with scipy's
    SLSQP; the certified gap encloses the float value; a perturbed theta has a large Frank-Wolfe gap."""
    from scipy.optimize import minimize

    from reference.comparator import FastMin

    rng = np.random.default_rng(3)
    X = rng.normal(size=(25, 2)) / 2
    Y = np.sign(X[:, 0] + 0.1)
    Z = -Y[:, None] * X
    r = best_in_ball_fast(Z, 1.5)
    c = best_in_ball(X, Y, 1.5, warm=True)
    f = lambda th: np.sum(np.logaddexp(0, -Y * (X @ th)))
    s = minimize(f, [0.0, 0.0], constraints=[{"type": "ineq", "fun": lambda th: 1.5 ** 2 - th @ th}])
    assert np.linalg.norm(r.theta) <= 1.5 + 1e-12
    assert r.value <= s.fun + 1e-7 and r.lower <= r.value
    assert c.value <= s.fun + 1e-7 and c.value_gap < 1e-9  # SLSQP may end slightly outside the ball
    assert c.value_bounds[0] <= r.value <= c.value_bounds[0] + r.value_gap + 1e-12  # the float gap is honest here
    bad = r.theta * 0.5  # feasible but far from optimal: its gap must say so
    grad = Z.T @ (1 / (1 + np.exp(-(Z @ bad))))
    assert float(grad @ bad + 1.5 * np.linalg.norm(grad)) > 1e-2
    assert isinstance(r, FastMin)


def test_weighted_comparator_equals_the_repeated_rows():
    """weights = multiplicities: the population / few-distinct-points form equals the repeated data."""
    X = np.array([[0.9], [0.1]])
    Y = np.array([1.0, -1.0])
    w = np.array([3.0, 40.0])
    rep = best_in_ball(np.repeat(X, [3, 40], axis=0), np.repeat(Y, [3, 40]), 2.0)
    wt = best_in_ball(X, Y, 2.0, weights=w, warm=True)
    assert abs(rep.value - wt.value) <= rep.value_gap + wt.value_gap + 1e-12
    assert abs(best_in_ball_fast(-Y[:, None] * X, 2.0, weights=w).value - wt.value) < 1e-8


@settings(max_examples=15, deadline=None)
@given(bounded_sequences(2, 1.0, 12))
def test_theorem_1_holds_on_bounded_sequences(xy):
    X, Y = xy
    seq = Sequence("binary", with_defaults(TARGETS["000:theorem-1"], {"n": 12}), X, Y)
    lhs, rhs = evaluate(TARGETS["000:theorem-1"], seq)
    target(ratio(lhs, rhs))
    assert lhs <= rhs


@settings(max_examples=10, deadline=None)
@given(st.data())
def test_equation_4_holds_against_an_adaptive_adversary(data):
    t = TARGETS["000:equation-4"]
    p = with_defaults(t, {"n": 10})
    X, Y = adaptive_binary(data, hl.AioliExact(2, p["B"], p["R"], p["lam"]), 2, p["R"], 10)
    lhs, rhs = evaluate(t, Sequence("binary", p, X, Y))
    target(ratio(lhs, rhs))
    assert lhs <= rhs


def test_theorem_4_2_sequence_forces_the_printed_regret_on_algorithm_2():
    L = hl.ScaleInvariant2(2, 1.5)
    X, G = theorem_4_2_sequence(L, 2, 30)
    S, h = X.T @ X, -(G[:, None] * X).sum(0)
    assert abs(h @ np.linalg.pinv(S) @ h - 15.0) < 1e-6  # S is ill-conditioned by construction


def test_theorem_4_5_as_printed_is_violated_and_the_violation_survives_at_50_digits(tmp_path):
    t = TARGETS["002:theorem-4.5"]
    p = with_defaults(t, {"n": 30, "alpha": 1.2})
    L = hl.ScaleInvariant2(2, 1.2)
    X, G = theorem_4_2_sequence(L, 2, 30)
    seq = Sequence("gradient", p, X, G)
    from olr_verify.hunting.bounds import evaluate_full

    lhs, rhs, u, _ = evaluate_full(t, seq)
    assert lhs > rhs
    ok, details, art = confirm("002:theorem-4.5", seq, u, lhs, rhs, "paper")
    assert ok and mpmath.mpf(details["margin_80"]) > 0
    path = tmp_path / "a.json"
    path.write_text(json.dumps({"claim": "002:theorem-4.5", **art}))
    from olr_verify.artefacts import replay

    assert replay(path)[0]


def test_corrected_theorem_4_5_holds_on_the_same_sequence():
    t = TARGETS["002:theorem-4.5/corrected"]
    p = with_defaults(t, {"n": 30, "alpha": 1.2})
    X, G = theorem_4_2_sequence(hl.ScaleInvariant2(2, 1.2), 2, 30)
    lhs, rhs = evaluate(t, Sequence("gradient", p, X, G))
    assert lhs <= rhs


def test_a_float_near_violation_at_equality_is_not_confirmed():
    """Lemma 4.3 (corrected) is an equality at t = 1; float noise must not become a refutation."""
    t = TARGETS["002:lemma-4.3/corrected"]
    p = with_defaults(t, {"n": 1})
    seq = Sequence("gradient", p, np.array([[0.3, 0.7]]), np.array([1.0]))
    ok, details, _ = confirm("002:lemma-4.3/corrected", seq, None, 1.0 + 1e-15, 1.0, "test")
    assert not ok and "near_violation" in details["verdict"]


def test_hunt_is_deterministic_for_a_fixed_seed_and_evaluation_budget():
    a = hunt("003:lemma-13", 30, seed=5, params={"n": 20}, max_evals=30)
    b = hunt("003:lemma-13", 30, seed=5, params={"n": 20}, max_evals=30)
    assert a.best.ratio == b.best.ratio and a.evaluated == b.evaluated


def test_hunters_reach_at_least_the_baseline_ratio_on_theorem_1():
    r = hunt("000:theorem-1", 30, seed=11, params={"n": 15}, max_evals=120)
    assert r.best.ratio >= r.baseline.ratio > 0


def test_quality_local_search_finds_a_theorem_4_5_violation_from_the_papers_construction():
    """Quality: seeded with 002's own Theorem 4.2 construction, the hunter exceeds ratio 1."""
    r = hunt("002:theorem-4.5", 30, seed=3, params={"n": 40}, max_evals=80, strategies=("paper", "local"))
    assert r.best.ratio > 1


def test_quality_fig2_construction_beats_the_proof_constant_for_proper_learners():
    from olr_verify.hunting.constructions import lower_bound_check

    res = lower_bound_check("1d", quick=True, seed=0)
    assert all(row["ratio_excess"] >= 1 for row in res["rows"])
    assert res["regime"]["empty"] is False


def test_regime_of_theorem_2_is_empty_for_small_D():
    from olr_verify.hunting.constructions import regime_theorem_2, regime_theorem_4

    assert regime_theorem_2(10)["empty"] and not regime_theorem_2(16)["empty"]
    assert regime_theorem_4(20)["empty"] and not regime_theorem_4(24)["empty"]


def test_budget_strings_parse_to_seconds():
    from olr_verify.hunting.cli import parse_budget

    assert (parse_budget("2m"), parse_budget("10s"), parse_budget("1h")) == (120.0, 10.0, 3600.0)


def test_campaign_units_resume_after_a_restart(tmp_path):
    from olr_verify.hunting import campaign

    db = tmp_path / "c.sqlite"
    con = campaign._db(db)
    r = campaign.run_unit("003:lemma-13", 0, 0.5)
    campaign.store(con, r)
    todo = [u for u in campaign.plan(["003:lemma-13"], 2.0, 1, 0.5) if u not in campaign.done_units(con, 0.5)]
    assert ("003:lemma-13", 0) not in todo and len(todo) == 3
    assert campaign.summary(db)[0]["sequences"] == r["sequences_evaluated"]


def test_rounding_level_candidates_are_replayed_after_real_ones():
    """A float64 'violation' made of rounding (lhs ~ 1e-14, ratio 3) ranks below a real one of ratio 1.3."""
    from olr_verify.hunting.optimisers import Best, _rank

    noise, real = Best(3.0, 1.4e-14, 4.7e-15), Best(1.3, 2.6, 2.0)
    assert _rank(real) > _rank(noise)
    assert sorted([noise, real], key=_rank, reverse=True)[0] is real
    assert _rank(Best(2.0, 4.0, 2.0)) > _rank(real)  # among real ones the ratio decides


def test_hunted_binary_inputs_are_exactly_inside_the_ball():
    """Rows on (or an ulp beyond) the sphere are pulled in, so an artefact's decimal data satisfy ||x|| <= R exactly."""
    from fractions import Fraction

    from olr_verify.hunting.bounds import Sequence
    from olr_verify.hunting.optimisers import inside_ball

    rng = np.random.default_rng(5)
    R = 0.017456014563923195
    X = rng.normal(size=(50, 3))
    X *= R / np.linalg.norm(X, axis=1, keepdims=True) * (1 + 1e-16 * rng.integers(-2, 3, (50, 1)))
    seq = inside_ball(Sequence("binary", {"d": 3, "n": 50, "B": 1.0, "R": R, "lam": 1.0}, X, np.ones(50)))
    exact = [sum(Fraction(float(v)) ** 2 for v in row) for row in seq.X]
    assert all(e <= Fraction(R) ** 2 for e in exact)
    assert not all(sum(Fraction(float(v)) ** 2 for v in row) <= Fraction(R) ** 2 for row in X)  # the input broke it
    assert np.allclose(seq.X, X, rtol=1e-13, atol=0)

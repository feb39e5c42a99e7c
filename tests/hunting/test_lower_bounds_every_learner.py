"""Seed 003's lower bounds "for every algorithm" (Theorems 2 and 4, Corollaries 7 and 8) against every learner of
algorithms/ (improper ones included: AIOLI, SurrogateFTL, Foster, GAF with K = 2).

Default tests (marker ``hunt``): a reduced-T run of the 2-D construction (outside Lemma 5's regime, so only the
machinery is tested) that must list every learner, and the per-learner measure must be able to fail: an oracle
that plays the population minimiser every round (proper, zero excess loss) comes out BELOW the printed constant,
a learner stuck at w = 0 above it.  ``hunt_long``: the full 2-D run at T = T_min + 2 = 5402."""
import math

import numpy as np
import pytest

from olr_verify.hunting import constructions as C

pytestmark = pytest.mark.hunt


class _Fixed:
    """A proper learner that always plays the same w (label absorbed: yhat = w . x, update ignored)."""

    def __init__(self, w):
        self.w = np.asarray(w, float)

    def predict(self, x):
        return float(self.w @ np.asarray(x, float))

    def update(self, x, y):
        pass


def test_the_2d_construction_runs_every_learner_of_algorithms_at_reduced_T():
    res = C.every_learner_check("2d", T=40, reps=1, seed=3)
    names = {r["learner"] for r in res["rows"]}
    expected = {"algorithms." + k for k in C.algorithms_learners(2, 24.0, 40)}
    assert names == expected and len(names) >= 12
    assert {"algorithms.AIOLI", "algorithms.GAF (K = 2)", "algorithms.SurrogateFTL"} <= names
    assert all(math.isfinite(r["ratio_excess"]) and math.isfinite(r["ratio_regret"]) for r in res["rows"])
    assert not any(r["in_regime"] for r in res["rows"]) and res["T_regime_min"] == 5402


def test_the_1d_construction_adds_the_one_dimensional_learners():
    names = set(C.algorithms_learners(1, 20.0, 10))
    assert {"FosterAggregating", "FTRLSurrogate1D", "GAF (K = 2)"} <= names


def test_the_per_learner_measure_can_fail_both_ways():
    """Oracle (population minimiser, proper) below the printed constant; w = 0 far above it."""
    D, T = 24.0, 400
    eps = C.CONSTRUCTIONS["2d"][3](5402) * 0.999
    bound = C.CONSTRUCTIONS["2d"][4](D, T)
    for chi in (-1, 1):
        atoms, probs = C._fig4(D, eps, chi)
        w_star = C._population_min(atoms, probs, D).theta
        ex_oracle, _, proper = C._play(lambda: _Fixed(w_star), atoms, probs, D, T, np.random.default_rng(chi + 5))
        ex_zero, _, _ = C._play(lambda: _Fixed(np.zeros(2)), atoms, probs, D, T, np.random.default_rng(chi + 7))
        assert proper and ex_oracle / bound < 1e-3
        assert ex_zero / bound > 10


def test_a_learner_playing_outside_the_ball_is_not_proper():
    atoms, probs = C._fig4(24.0, 1e-3, 1)
    _, _, proper = C._play(lambda: _Fixed([0.0, 30.0]), atoms, probs, 24.0, 20, np.random.default_rng(0))
    assert not proper


@pytest.mark.hunt_long
def test_the_2d_construction_in_its_regime_against_every_learner():
    res = C.every_learner_check("2d", reps=1, seed=0)
    assert all(r["in_regime"] and r["T"] == 5402 for r in res["rows"])
    assert len(res["rows"]) >= 12
    for r in res["rows"]:
        print(r["learner"], r["proper_on_run"], round(r["ratio_excess"], 3), round(r["ratio_regret"], 3))

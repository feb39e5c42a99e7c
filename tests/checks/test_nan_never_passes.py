"""A check that cannot fail on NaN/inf (found by a hostile review): each verdict below was `verified` with every
evaluation NaN, with an infinite violation, or with nothing evaluated at all. Each test plants that input."""
import dataclasses
import math
from pathlib import Path

import pytest

from olr_verify import registry
from olr_verify.checks.verdicts import worse
from olr_verify.outcome import Context


@pytest.fixture
def ctx(tmp_path):
    registry.load_checks()
    return Context(out_dir=Path(tmp_path), quick=True)


def test_worse_keeps_a_nan_where_max_and_min_drop_it():
    assert max(0.0, math.nan) == 0.0 and min(math.inf, math.nan) == math.inf  # why worse() exists
    assert math.isnan(worse(0.0, math.nan)) and math.isnan(worse(math.inf, math.nan, min))
    assert math.isnan(worse(math.nan, 5.0))
    assert worse(1.0, 2.0) == 2.0 and worse(1.0, 2.0, min) == 1.0


def test_runs_of_000_with_a_nan_or_an_infinite_side_are_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s000_aioli.runs_per_round as runs

    rel, eps, what = runs.RELATIONS["000:claim-4"]
    monkeypatch.setitem(runs.RELATIONS, "000:claim-4",
                        (lambda rows, seq, K: [(math.nan, 0.0)] + rel(rows, seq, K), eps, what))
    out = registry.decide("000:claim-4", ctx)
    assert out.status == "inconclusive" and out.evidence["evaluations_not_a_number"] > 0
    assert runs._violation(math.inf, 1.0) == math.inf and math.isnan(runs._violation(math.inf, math.inf))


def test_theorem_9_relations_with_a_nan_first_instance_still_see_the_violations(ctx, monkeypatch):
    import olr_verify.papers.s003_hkl.theorem9_relations as t9

    orig, first = t9.REL["21"], []

    def violated(r):
        pairs = [(a + 10.0, b) for a, b in orig(r)]
        if pairs and not first:
            first.append(1)
            pairs = [(math.nan, 0.0)] + pairs
        return pairs

    monkeypatch.setitem(t9.REL, "21", violated)
    t9._CACHE.clear()
    assert registry.decide("003:equation-21", ctx).status in ("refuted", "inconclusive")
    t9._CACHE.clear()


def test_a_hunt_whose_every_regret_is_infinite_is_not_verified(ctx, monkeypatch):
    from olr_verify.hunting import bounds

    def overflowing(seq, run, cmp, K):
        """regret = +inf against a bound of 1"""
        return math.inf, 1.0

    cid = "000:lemma-10"
    monkeypatch.setitem(bounds.TARGETS, cid, dataclasses.replace(bounds.TARGETS[cid], bound=overflowing))
    out = registry.decide(cid, ctx)
    assert out.status == "inconclusive" and out.evidence["sequences_not_finite"] > 0


@pytest.mark.parametrize("power", [-1.5, 0.0])
def test_004_claim_17_fails_when_the_scaled_eigenvalues_of_P_t_drift(ctx, monkeypatch, power):
    """t lambda_min(P_t) > 0 held for any positive definite P: P_t = t^power I passed (the upper bound was unused)."""
    import numpy as np

    import algorithms

    class Drifting:
        def __init__(self, d, beta):
            self.d, self.t = d, 0

        def update(self, x, y):
            self.t += 1

        def state(self):
            return {"P": np.eye(self.d) * float(self.t) ** power}

    monkeypatch.setattr(algorithms, "TruncatedEKF", Drifting)
    assert registry.decide("004:claim-17", ctx).status == "inconclusive"


def test_000_lemma_10_evaluates_eta_g_A_g_without_overflow():
    """eta_t = e^m/(1+BR) overflowed while sigma(-m)^2 underflowed (NaN at B = 392, R = 317: 000:lemma-10 was
    inconclusive); the fused form is finite and equal where both are."""
    import numpy as np

    from olr_verify.hunting.run_quantities import _eta_gAg as _eta_g_A_g
    from olr_verify.hunting.highprec_learners import aioli_round_terms
    from olr_verify.hunting.numerics import FLOAT

    class Seq:
        params = {"B": 3.0, "R": 2.0}

    x, A_inv = np.array([1.0, -2.0]), np.array([[2.0, 0.5], [0.5, 1.0]])
    for yhat, finite_old in ((1.5, True), (2000.0, False)):
        with np.errstate(all="ignore"):  # the old form overflows at yhat = 2000
            g, _, eta = aioli_round_terms(x, 1, yhat, 3.0, 2.0, FLOAT)
            old = eta * (g @ A_inv @ g)
        new = _eta_g_A_g({"x": x, "y": 1, "yhat": yhat, "A_inv": A_inv}, Seq, FLOAT)
        assert math.isfinite(new) and (math.isfinite(old) == finite_old)
        if finite_old:
            assert abs(new - old) <= 1e-14 * abs(old)

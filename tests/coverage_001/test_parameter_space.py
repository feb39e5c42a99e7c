"""Seed 001 Theorem 1's regret bounds are checked over the theorem's parameter space (issue 15), not at B = R = 1
only: a bound false only for large B, or only for small R, is never `verified`."""
import tempfile
from pathlib import Path

import pytest

from olr_verify.outcome import Context
from olr_verify.papers.s001_gaf import theorem1_regret as t1


def _false_where(pred):
    def bound(run, W, B):
        R = run.get("gamma", 1.0) ** 0.5
        return -1.0 if pred(B, R) else t1.thm1_first(run, W, B)
    return bound


@pytest.mark.parametrize("where, pred", [("B >= 100", lambda B, R: B >= 100), ("R <= 0.05", lambda B, R: R <= 0.05)])
def test_a_bound_false_only_at_an_end_of_the_parameter_space_is_caught_by_the_sweep(where, pred):
    with tempfile.TemporaryDirectory() as tmp:
        ctx = Context(Path(tmp), quick=True, seed=0)
        bound = _false_where(pred)
        fixed_point = t1.regret_check(ctx, bound, "planted", runs=t1._all_runs(ctx))
        swept = t1.regret_check(ctx, bound, "planted", runs=t1._space_runs(ctx), claim="planted:001")
    assert fixed_point.status == "verified", where  # the standard runs (B <= 4, R = 1) cannot see it
    assert swept.status == "inconclusive", where
    assert swept.evidence["max_regret_minus_bound"] > 0


def test_the_sweep_reports_its_region_and_the_theorem_uses_gamma_r_squared():
    with tempfile.TemporaryDirectory() as tmp:
        out = t1.regret_check(Context(Path(tmp), quick=True, seed=0), t1.thm1_first, "Theorem 1",
                              runs=t1._space_runs(Context(Path(tmp), quick=True, seed=0)), claim="001:theorem-1")
    explored = out.evidence["parameters_explored"]
    assert explored["B"]["decades"] >= 4 and explored["R"]["decades"] >= 4
    assert set(out.evidence["ranges_capped"]) == {"d', K", "n"}
    run = {"K": 2, "d": 1, "lam": 16.0, "alpha": 1.0, "beta": 0.5, "loss": [0.0] * 10, "gamma": 100.0}
    import numpy as np

    W = np.zeros((2, 1))
    assert t1.thm1_first(run, W, 1.0) > t1.thm1_first({**run, "gamma": 1.0}, W, 1.0)

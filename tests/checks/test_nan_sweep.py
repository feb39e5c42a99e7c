"""A running worst case kept with Python's max/min drops a NaN (max(0.0, nan) == 0.0): a check whose evaluation broke
once among good values said `verified`. Each test below plants one NaN (never the first value: max and min keep a NaN
first argument) in what a check evaluates and asserts that the verdict is no longer verified/proved."""
import math
from pathlib import Path

import pytest

from olr_verify import registry
from olr_verify.outcome import Context

PASSING = ("verified", "proved")


@pytest.fixture
def ctx(tmp_path):
    registry.load_checks()
    return Context(out_dir=Path(tmp_path), quick=True)


def _second_call_nan(fn, spoil):
    """``fn`` whose second call's result is passed through ``spoil`` (the first value is good: max/min keep a
    NaN that comes first, so the planted NaN must come later to exercise the defect)."""
    calls = []

    def wrapped(*args, **kwargs):
        out = fn(*args, **kwargs)
        calls.append(1)
        return spoil(out) if len(calls) == 2 else out

    wrapped.calls = calls
    return wrapped


def _decide(cid, ctx):
    return registry.get(cid).check(ctx)


def test_003_theorem_1_with_a_nan_total_variation_is_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s003_hkl.coin_bias as cb

    fake = _second_call_nan(cb.tv_binomial, lambda tv: math.nan)
    monkeypatch.setattr(cb, "tv_binomial", fake)
    assert _decide("003:theorem-1", ctx).status not in PASSING and len(fake.calls) >= 2


def test_002_claim_21_corrected_with_a_nan_regret_part_is_not_verified(ctx, monkeypatch):
    """The claim is a declared hunt: a NaN in the run quantity its statement reads leaves the sequence undecided."""
    from olr_verify.hunting import run_quantities as rq

    provider, why = rq.QUANTITIES["gradient"]["sum_g_yhat"][0], rq.QUANTITIES["gradient"]["sum_g_yhat"][2]
    fake = _second_call_nan(provider, lambda value: math.nan)
    monkeypatch.setitem(rq.QUANTITIES["gradient"], "sum_g_yhat", (fake, False, why))
    assert _decide("002:claim-21/corrected", ctx).status not in PASSING and len(fake.calls) >= 2


def test_003_algorithm_1_with_a_nan_value_gap_is_not_verified(ctx, monkeypatch):
    import olr_verify.checks.reference_printed as rp

    orig = rp._rounds_003

    def rounds(box, c):
        for k, (hist, w, sol, gap) in enumerate(orig(box, c)):
            yield hist, w, sol, (math.nan if k == 1 else gap)

    monkeypatch.setattr(rp, "_rounds_003", rounds)
    assert _decide("003:algorithm-1", ctx).status not in PASSING


def _nan_fun(res):
    """An optimiser's result whose minimum came back NaN."""
    res.fun = math.nan
    return res


def test_001_corollary_2_with_a_nan_ratio_is_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s001_gaf.theorem1_regret as tr

    fake = _second_call_nan(tr.eq7_rhs, lambda rhs: math.nan)
    monkeypatch.setattr(tr, "eq7_rhs", fake)
    assert _decide("001:corollary-2", ctx).status not in PASSING and len(fake.calls) >= 3


@pytest.mark.parametrize("claim, optimiser", [("001:lemma-6/step-2/corrected", "minimize"),
                                              ("002:lemma-4.1", "minimize_scalar")])
def test_a_nan_optimiser_minimum_is_not_verified(ctx, monkeypatch, claim, optimiser):
    import scipy.optimize

    fake = _second_call_nan(getattr(scipy.optimize, optimiser), _nan_fun)
    monkeypatch.setattr(scipy.optimize, optimiser, fake)
    assert _decide(claim, ctx).status not in PASSING and len(fake.calls) >= 2


def test_001_equation_4_corrected_with_nan_quadrature_weights_is_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s001_gaf.theorem1 as t1

    fake = _second_call_nan(t1.gauss_nodes, lambda nodes: (nodes[0], nodes[1] * math.nan))
    monkeypatch.setattr(t1, "gauss_nodes", fake)
    assert _decide("001:equation-4/corrected", ctx).status not in PASSING and len(fake.calls) >= 2


def test_001_claim_10_with_a_nan_prediction_run_is_not_verified(ctx, monkeypatch):
    from algorithms.gaf_squared import GAFSquared

    fake = _second_call_nan(GAFSquared.run, lambda pred: pred * math.nan)
    monkeypatch.setattr(GAFSquared, "run", fake)
    assert _decide("001:claim-10", ctx).status not in PASSING and len(fake.calls) >= 2


def test_001_algorithm_1_corrected_with_a_nan_certified_error_is_not_verified(ctx, monkeypatch):
    import reference.gaf

    fake = _second_call_nan(reference.gaf.certified_grad_norm, lambda v: math.nan)
    monkeypatch.setattr(reference.gaf, "certified_grad_norm", fake)
    assert _decide("001:algorithm-1/corrected", ctx).status not in PASSING and len(fake.calls) >= 2


def test_002_theorem_4_2_zero_predictor_with_a_nan_run_ratio_is_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s002_scale_invariant.algorithm1_runs as a1

    monkeypatch.setattr(a1, "zero_predictor_runs", lambda c: {"sequences_x_comparators": 1, "max_ratio": math.nan})
    assert _decide("002:theorem-4.2/zero-predictor", ctx).status not in PASSING


def test_003_equation_15_corrected_with_a_nan_argmin_is_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s003_hkl.closed_form_15 as cf

    fake = _second_call_nan(cf.true_objective, lambda abu: (abu[0], abu[1], math.nan))
    monkeypatch.setattr(cf, "true_objective", fake)
    out = _decide("003:equation-15/corrected", ctx)
    assert out.status not in PASSING and out.status != "refuted" and len(fake.calls) >= 2


def test_001_proposition_3_step_p7_with_a_nan_repetition_is_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s001_gaf.proposition3 as p3

    fake = _second_call_nan(p3._mc_losses, lambda losses: losses * math.nan)
    monkeypatch.setattr(p3, "_mc_losses", fake)
    assert _decide("001:proposition-3/step-p7", ctx).status not in PASSING and len(fake.calls) >= 2


def test_003_lemma_16_with_a_nan_total_variation_is_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s003_hkl.coin_bias as cb

    fake = _second_call_nan(cb.tv_binomial, lambda tv: math.nan)
    monkeypatch.setattr(cb, "tv_binomial", fake)
    assert _decide("003:lemma-16", ctx).status not in PASSING and len(fake.calls) >= 2


def test_003_equation_36_with_a_nan_kl_is_not_verified(ctx, monkeypatch):
    import mpmath

    orig_log, calls = mpmath.log, []

    def log(x):  # one term of KL(joint) in the fourth (p, eps, m) case evaluates to NaN
        calls.append(1)
        return mpmath.mpf("nan") if len(calls) == 40 else orig_log(x)

    monkeypatch.setattr(mpmath, "log", log)
    assert _decide("003:equation-36", ctx).status not in PASSING and len(calls) > 40


def test_001_claim_8_with_a_nan_divergence_ratio_is_not_verified(ctx, monkeypatch):
    import olr_verify.papers.s001_gaf.claims_4_to_9 as c49

    orig, calls = c49.math.exp, []

    def exp(x):  # q = sigma(t) is NaN at one grid point (not the first) of the best-constant search
        calls.append(1)
        return math.nan if len(calls) == 100 else orig(x)

    monkeypatch.setattr(c49.math, "exp", exp)
    assert _decide("001:claim-8", ctx).status not in PASSING and len(calls) > 100

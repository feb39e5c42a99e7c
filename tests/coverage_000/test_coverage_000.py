"""Tests of olr_verify/checks/coverage_000_*.py: statuses that are known mathematically."""
import json

import pytest

from olr_verify import artefacts, registry
from olr_verify.outcome import Context
from olr_verify.papers.s000_aioli import complexity_and_cited as cost
from olr_verify.papers.s000_aioli import exact_steps as exact
from olr_verify.papers.s000_aioli import runs_per_round as runs


@pytest.fixture
def ctx(tmp_path):
    return Context(tmp_path, quick=True, seed=7)


def replays(outcome, tmp_path, claim):
    path = artefacts.write(json.loads(json.dumps(outcome.counterexample)), tmp_path, claim)
    return artefacts.replay(path)[0]


def test_r_t_is_not_L_t_transpose_theta_hat_and_the_ball_artefact_replays(ctx, tmp_path):
    out = exact.lemma_2_step_2(ctx)
    assert out.status == "refuted"
    assert replays(out, tmp_path, "000:lemma-2/step-2")


def test_the_printed_first_display_of_lemma_2_has_another_minimiser(ctx):
    assert exact.lemma_2_step_1(ctx).status == "refuted"
    assert registry.get("000:lemma-2/step-1/corrected").check(ctx).status == "proved"


def test_aioli_prediction_function_is_certified_non_linear(ctx):
    assert exact.equation_10(ctx).status == "proved"


def test_the_two_sufficient_statistics_b_t_agree_exactly(ctx):
    assert registry.get("000:equation-5").check(ctx).status == "proved"


def test_the_reduction_to_omega_is_an_exact_identity_for_both_ranks(ctx):
    out = registry.get("000:lemma-2/step-6").check(ctx)
    assert out.status == "verified" and len(out.evidence["links"]) == 15


def test_equation_23_as_printed_fails_because_its_right_side_is_zero(ctx, tmp_path):
    out = runs.decide("000:equation-23", ctx)
    assert out.status == "refuted"
    assert replays(out, tmp_path, "000:equation-23")


def test_equation_23_with_the_lipschitz_constant_2_lam_survives(ctx):
    assert runs.decide("000:equation-23/lipschitz", ctx).status == "verified"


def test_the_norm_of_a_sum_is_not_the_sum_of_norms_in_equation_28(ctx):
    assert runs.decide("000:equation-28", ctx).status == "refuted"
    assert runs.decide("000:equation-28/corrected", ctx).status == "verified"


def test_the_theorem_1_sketch_needs_the_lam_theta_squared_term(ctx):
    assert runs.decide("000:theorem-1/sketch-step-2", ctx).status == "refuted"
    assert runs.decide("000:theorem-1/sketch-step-2/corrected", ctx).status == "verified"


def test_lemma_3_gradient_descent_reaches_the_accuracy(ctx):
    assert runs.decide("000:lemma-3", ctx).status == "verified"


def test_ftrl_prediction_is_linear_and_aioli_is_not_in_figure_1(ctx):
    out = cost.figure_1(ctx)
    dev = out.evidence["max_deviation_from_best_line_through_0"]
    assert dev["FTRL (lam = 1)"] < 1e-9 < 1e-3 < dev["AIOLI (lam = 1/B^2)"]


def test_cited_lower_bound_is_reported_inconclusive_with_a_reason(ctx):
    out = registry.get("000:claim-9").check(ctx)
    assert out.status == "inconclusive" and out.evidence["reason"].startswith("cited result")

"""Checks of seeds 002 and 004 (olr_verify/papers/s002_scale_invariant, s004_ekf) whose verdict is known mathematically."""
from __future__ import annotations

import pytest

from olr_verify import registry
from olr_verify.outcome import Context
from olr_verify.papers.s002_scale_invariant import appendices_d_to_f as c2
from olr_verify.papers.s002_scale_invariant import algorithm1_runs as c2s1
from olr_verify.papers.s002_scale_invariant import algorithm2_runs as c2s
from olr_verify.papers.s004_ekf import ekf_sos as c4


@pytest.fixture
def ctx(tmp_path):
    return Context(tmp_path, quick=True)


def test_equation_6_as_printed_is_refuted_and_its_artefact_replays(ctx):
    from olr_verify.checks.scalar_common import replay_scalar_relation

    out = registry.get("002:equation-6").check(ctx)
    assert out.status == "refuted"
    assert replay_scalar_relation(out.counterexample)[0]


def test_appendix_d_formulas_differ_from_the_gamma_recursion_at_sixty_digits(ctx):
    out = c2s.algorithm_2_appendix_d(ctx)
    assert out.status == "refuted"
    confirmed, details = c2s.replay_appendix_d(out.counterexample)
    assert confirmed and len(details["per_round_gap_60_digits"]) == 4


def test_appendix_d_and_recursion_agree_while_s_does_not_grow_past_earlier_instances():
    rows = c2s.appendix_d_gap([[1, 0], [0, 1]], [1, -1], 1.5, 30)
    assert all(abs(a - b) < 1e-25 for a, b in rows)


def test_pseudo_inverse_of_congruence_fails_on_the_exact_witness(ctx):
    assert c2.claim_18(ctx).status == "proved"


def test_gamma_star_is_the_stationary_point_of_the_concave_quadratic(ctx):
    assert registry.get("002:lemma-3.3/gamma-star").check(ctx).status == "proved"


def test_theorem_4_5_gamma_with_g_not_squared_is_refuted(ctx):
    from olr_verify.checks.scalar_common import replay_identity

    out = registry.decide("002:theorem-4.5/gamma-bound", ctx)  # declared in paper.toml
    assert out.status == "refuted" and replay_identity(out.counterexample)[0]


def test_alternative_normalisations_are_not_scale_invariant(ctx):
    out = c2s1.claim_5_other(ctx)
    assert out.status == "verified"  # 50-digit mpmath witnesses: not a ball-arithmetic certificate
    assert float(out.evidence["pistol"]["max_prediction_change_50_digits"]) > 1.0


def test_algorithm_1_predictions_are_invariant_under_coordinate_rescaling(ctx):
    out = c2s1.claim_5(ctx)
    assert out.status == "verified" and out.evidence["cited"]  # the induction over rounds is prose, not certified
    assert out.evidence["links"]["the shipped learner is invariant"]["max_relative_prediction_difference"] < 1e-10


def test_theorem_4_2_sequence_forces_nonnegative_loss_against_every_learner(ctx):
    out = c2s.theorem_4_2_sequence_check(ctx)
    assert out.status == "verified", out.evidence


def test_localized_rho_constant_of_the_follow_up_is_refuted(ctx):
    from olr_verify.checks.scalar_common import replay_scalar_relation

    out = registry.get("004:claim-18").check(ctx)  # declared in paper.toml
    assert out.status == "refuted" and out.evidence["refuted_link"].startswith("l''(theta)")
    assert replay_scalar_relation(out.counterexample)[0]
    assert {v["status"] for k, v in out.evidence["links"].items() if k != out.evidence["refuted_link"]} <= {"proved", "verified"}


def test_conditional_expected_logistic_loss_is_stationary_at_the_model_parameter(ctx):
    """Our reconstruction is proved; the printed formulas are lost, so the claim is inconclusive."""
    out = registry.get("004:claim-10").check(ctx)
    assert out.status == "inconclusive" and out.evidence["reconstruction_status"] == "proved"


def test_ekf_box_equals_the_inverse_recursion_along_runs(ctx):
    assert c4.algorithm_2(ctx).status == "verified"


def test_a_claim_whose_formula_is_lost_is_inconclusive_with_a_reason(ctx):
    from olr_verify import registry

    out = registry._CHECKS["004:lemma-2"](ctx)
    assert out.status == "inconclusive" and "not recoverable" in out.evidence["reason"]

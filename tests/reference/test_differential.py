"""Differential and printed-box claims of the reference area, run through the registry (quick budget)."""
import json

import pytest

from olr_verify.artefacts import replay, write
from olr_verify.outcome import Context
from olr_verify.registry import get

pytestmark = pytest.mark.reference

AGREE = ["000:lemma-2/fast-aioli", "000:theorem-7/step-4/fast-surrogate-ftl", "004:equation-1/fast-ftrl",
         "004:claim-16/ons-projection", "003:algorithm-1/fast", "000:algorithm-1/corrected",
         "000:algorithm-2/corrected", "003:algorithm-1", "003:algorithm-2/corrected", "002:algorithm-1",
         "002:algorithm-2", "000:lemma-2", "000:equation-7", "000:equation-14", "000:lemma-9", "002:claim-19",
         "004:claim-5"]


@pytest.mark.parametrize("claim_id", AGREE)
def test_fast_learners_and_equivalences_agree_with_the_certified_references(claim_id, tmp_path):
    out = get(claim_id).check(Context(tmp_path, quick=True, seed=7))
    assert out.status == "verified", out.evidence
    json.dumps(out.evidence)


@pytest.mark.parametrize("claim_id,first_round", [("000:algorithm-1", 2), ("000:algorithm-2", 2),
                                                  ("003:algorithm-2", 1)])
def test_printed_boxes_that_disagree_are_refuted_with_a_replayable_artefact(claim_id, first_round, tmp_path):
    out = get(claim_id).check(Context(tmp_path, quick=True, seed=7))
    assert out.status == "refuted"
    assert out.evidence["first_disagreement_round"] == first_round
    path = write(out.counterexample, tmp_path, claim_id)
    confirmed, details = replay(path)
    assert confirmed, details


def test_the_aioli_replayer_rejects_an_artefact_whose_box_is_the_corrected_one(tmp_path):
    out = get("000:algorithm-1").check(Context(tmp_path, quick=True, seed=7))
    art = json.loads(json.dumps(out.counterexample))
    art["replay"]["algorithm"] = "corrected"
    path = write(art, tmp_path, "000:algorithm-1")
    confirmed, _ = replay(path)
    assert not confirmed


@pytest.mark.slow
def test_ftl_value_agreement_on_the_full_budget(tmp_path):
    out = get("004:equation-1/fast-ftl").check(Context(tmp_path, quick=False))
    assert out.status == "verified", out.evidence

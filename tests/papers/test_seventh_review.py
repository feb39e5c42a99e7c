"""What a `proved` or `verified` claim says: a reconstruction of a lost formula, a reading that adds an assumption and
a step resting on a refuted one are not the printed statement (a hostile comparison of every proved claim's
certificate with its printed statement)."""
from __future__ import annotations

from pathlib import Path

import pytest

from olr_verify import registry
from olr_verify.checks.verdicts import reconstruction_only
from olr_verify.outcome import Context, Outcome
from olr_verify.paper_folder import PaperError, _check_shapes, _node


@pytest.fixture
def ctx(tmp_path):
    registry.load_checks()
    return Context(out_dir=Path(tmp_path), quick=True)


@pytest.mark.parametrize("status", ["proved", "verified"])
def test_a_reconstruction_is_inconclusive_with_its_own_status_kept(status):
    out = reconstruction_only(Outcome(status, "m", {"x": 1}), "(4) is lost")
    assert out.status == "inconclusive" and out.evidence["reconstruction_status"] == status
    assert "only our reconstruction" in out.evidence["reason"]


def test_a_refuted_reconstruction_stays_refuted():
    refuted = Outcome("refuted", "m", {}, {"replay": {"type": "t"}})
    assert reconstruction_only(refuted, "lost") is refuted


def test_the_reconstruction_wrapper_of_a_paper_folder(ctx):
    entry = {"relation": "x**2 >= 0", "domain": {"x": ["-1", "1"]}, "reconstruction": "(9) is lost"}
    out = _node(entry, "t:lemma-1")(ctx)
    assert out.status == "inconclusive" and out.evidence["reconstruction_status"] == "proved"
    with pytest.raises(PaperError, match="reconstruction must be a non-empty string"):
        _check_shapes({**entry, "id": "t:lemma-1", "check_kind": "scalar-inequality", "reconstruction": " "}, "t:lemma-1")


@pytest.mark.parametrize("claim, status", [("004:claim-10", "inconclusive"), ("004:claim-3", "verified"),
                                           ("002:claim-1", "refuted"), ("001:equation-9", "verified")])
def test_claims_that_certify_less_than_printed_are_not_proved(ctx, claim, status):
    assert registry.decide(claim, ctx).status == status


def test_claim_1_of_002_is_refuted_for_the_real_labels_its_protocol_allows_and_proved_for_binary_ones(ctx):
    """The protocol reveals y_t in R: the logistic loss is then |y|-Lipschitz, not 1-Lipschitz (a `domain` defect);
    the variant for labels in {-1, +1} is proved."""
    printed = registry.decide("002:claim-1", ctx)
    assert printed.status == "refuted" and printed.counterexample is not None
    assert registry.get("002:claim-1").defect == "domain"
    assert registry.decide("002:claim-1/labels", ctx).status == "proved"

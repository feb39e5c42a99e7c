"""`proved` means the printed domain: a proof on less is `verified` with `evidence.proved_on`."""
import pytest

from olr_verify.checks.verdicts import detection_power, not_a_certificate, on_printed_domain
from olr_verify.outcome import Context, Outcome

CX = {"replay": {"type": "identity", "lhs": "1", "rhs": "0", "point": {}}}


def test_a_restricted_proof_is_verified_and_says_where_it_holds():
    out = on_printed_domain(Outcome("proved", "arb", {"x": 1}), "C in [1/10, 10]", "C > 0")
    assert out.status == "verified"
    assert out.evidence["proved_on"] == "C in [1/10, 10]" and out.evidence["printed_domain"] == "C > 0"


@pytest.mark.parametrize("status", ["refuted", "verified", "inconclusive"])
def test_other_statuses_are_kept(status):
    out = on_printed_domain(Outcome(status, "m", {}, CX if status == "refuted" else None), "a", "b")
    assert out.status == status and out.evidence["proved_on"] == "a"


def test_a_cited_link_caps_a_proof_at_verified():
    out = not_a_certificate(Outcome("proved", "m", {}), "Pinsker (cited)")
    assert out.status == "verified" and out.evidence["cited"] == "Pinsker (cited)"
    assert not_a_certificate(Outcome("refuted", "m", {}, CX), "x").status == "refuted"
    with pytest.raises(ValueError):
        not_a_certificate(Outcome("proved", "m", {}), "")


def test_detection_power_states_the_undetectable_factor():
    d = detection_power(6.4e-5, 1.0, "corollary 10")
    assert d["undetectable_factor"] == pytest.approx(1 / 6.4e-5)
    assert "corollary 10" in d["what_it_could_detect"]


@pytest.mark.parametrize("claim_id", ["000:claim-11/a/corrected", "003:equation-31"])
def test_checks_proved_on_a_restricted_box_are_not_proved(tmp_path, claim_id):
    from olr_verify import registry

    out = registry.get(claim_id).check(Context(out_dir=tmp_path, quick=True))
    assert out.status != "proved"
    found = [out.evidence] + [v for v in out.evidence.get("links", {}).values()]
    assert any("proved_on" in e for e in found)

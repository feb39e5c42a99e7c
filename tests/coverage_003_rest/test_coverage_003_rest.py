"""Seed 003 remaining claims: statuses known mathematically (quick budget)."""
import tempfile
from pathlib import Path

from olr_verify.artefacts import replay
from olr_verify.outcome import Context


def _ctx():
    return Context(out_dir=Path(tempfile.mkdtemp()), quick=True)


def test_printed_equation_16_is_refuted_with_a_replayable_artefact(tmp_path):
    import json

    from olr_verify import registry

    out = registry.get("003:equation-16").check(_ctx())  # declared in s003_hkl/paper.toml
    assert out.status == "refuted"
    p = tmp_path / "a.json"
    p.write_text(json.dumps({"claim": "003:equation-16", **out.counterexample}))  # replays are bound to a claim
    ok, _ = replay(p)
    assert ok


def test_corrected_equation_16_identity_is_exact():
    from olr_verify.papers.s003_hkl.lemma12_and_rest import eq16_identity

    assert eq16_identity(_ctx(), corrected=True).status == "proved"


def test_linear_round_identity_20_is_exact():
    from olr_verify.papers.s003_hkl.lemma12_and_rest import eq20_identity

    assert eq20_identity(_ctx()).status == "proved"


def test_equation_4_value_and_slope_identities_are_proved():
    from olr_verify import registry

    assert registry.get("003:equation-4").check(_ctx()).status == "proved"  # declared in s003_hkl/paper.toml


def test_per_round_bound_12_survives_the_runs():
    from olr_verify.papers.s003_hkl.theorem9_rounds import equation_12

    assert equation_12(_ctx()).status in ("verified", "proved")


def test_replayer_rejects_a_relation_that_holds():
    from olr_verify.papers.s003_hkl.theorem9_relations import replay_seq003

    art = {"replay": {"type": "seq003_round", "relation": "12", "sequence": "s", "where": "3", "link": 1,
                      "D": "2.0", "xs": ["0.5", "-1.0", "1.0", "0.25"]}}
    ok, _ = replay_seq003(art)
    assert not ok


def test_a_false_per_round_relation_is_caught_and_confirmed(monkeypatch):
    from olr_verify.papers.s003_hkl import theorem9_relations as m

    monkeypatch.setitem(m.REL, "12", lambda r: [(abs(r["y"]) + 1e-3, abs(r["y"]))])
    out = m._decide_key(_ctx(), "test", "12")
    assert out.status == "refuted"

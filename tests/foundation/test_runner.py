"""The runner: a failing, crashing or hanging check becomes `error`; the others still run."""
import json
import os
import time

import pytest

from olr_verify import artefacts, registry, runner
from olr_verify.outcome import Context, Outcome


def _claim(cid: str) -> registry.Claim:
    return registry.Claim(id=cid, title=cid, check_kind="scalar-inequality", source="test", statement="s")


def _proved(ctx):
    cert = {"format": "olr-verify-certificate/1", "claim": None, "kind": "exact", "relations": ["2**10 >= 1000"]}
    return Outcome("proved", "exact", {"boxes": 3}, certificate=cert)  # kernel-checkable, so it stays proved


def _raises(ctx):
    raise ZeroDivisionError("deliberate failure")


def _crashes(ctx):
    os._exit(3)


def _hangs(ctx):
    time.sleep(60)


def _refuted(ctx):
    return Outcome("refuted", "search", {}, counterexample={"replay": {"type": "test-replay", "x": "-1"}})


@artefacts.replayer("test-replay")
def _replay_test(artefact):
    return float(artefact["replay"]["x"]) < 0, {"x": artefact["replay"]["x"]}


@pytest.fixture
def fake_checks(monkeypatch):
    checks = {"000:claim-901": _proved, "000:claim-902": _raises, "000:claim-903": _crashes,
              "000:claim-904": _hangs, "000:claim-905": _refuted}
    monkeypatch.setattr(registry, "_CHECKS", {**registry._CHECKS, **checks})
    return [_claim(cid) for cid in checks] + [_claim("000:claim-906")]


def test_a_failing_check_is_an_error_and_the_others_still_run(fake_checks, tmp_path):
    ctx = Context(out_dir=tmp_path)
    records = runner.run_checks(fake_checks, ctx, jobs=2, time_limit=3.0, progress=False)
    assert records["000:claim-901"]["status"] == "proved"
    assert records["000:claim-902"]["status"] == "error"
    assert "ZeroDivisionError: deliberate failure" in records["000:claim-902"]["evidence"]["error"]
    assert "_raises" in records["000:claim-902"]["evidence"]["traceback"]
    assert records["000:claim-903"]["status"] == "error"
    assert records["000:claim-903"]["method"] == "check process died"
    assert records["000:claim-904"]["status"] == "inconclusive"  # the wall-clock safety net is not a verdict
    assert records["000:claim-904"]["method"] == "time limit"
    assert records["000:claim-905"]["status"] == "refuted"
    assert records["000:claim-906"]["status"] == "inconclusive"
    assert records["000:claim-906"]["evidence"] == {"reason": "no check yet"}


def test_refuted_results_link_a_replayable_artefact(fake_checks, tmp_path, monkeypatch):
    claims = fake_checks[4:5]
    records = runner.run_checks(claims, Context(out_dir=tmp_path), jobs=1, time_limit=10, progress=False)
    results = runner.assemble(claims, records, tmp_path, 1.0)
    path = results["claims"][0]["counterexample"]
    assert path == "counterexamples/000_claim-905.json"
    monkeypatch.setattr(registry, "claims", lambda: tuple(claims))  # a replay is bound to the registry
    confirmed, details = artefacts.replay(tmp_path / path)
    assert confirmed and details["x"] == "-1" and details["checked"]


def test_outcome_refuses_refuted_without_a_counterexample_and_unknown_statuses():
    with pytest.raises(ValueError, match="counterexample"):
        Outcome("refuted", "search")
    with pytest.raises(ValueError, match="status"):
        Outcome("probably", "vibes")


def _result(cid, status, method="m", cx=None):
    return {"id": cid, "status": status, "method": method, "evidence": {}, "counterexample": cx}


def test_a_parent_without_a_check_summarises_its_parts():
    results = [_result("000:lemma-8", "inconclusive", method="none"), _result("000:lemma-8/a", "proved"),
               _result("000:lemma-8/b", "refuted", cx="counterexamples/b.json"), _result("000:lemma-9", "proved")]
    runner.summarise_parents(results)
    assert results[0]["status"] == "refuted"
    assert results[0]["counterexample"] == "counterexamples/b.json"
    assert results[0]["evidence"]["parts"] == {"proved": 1, "refuted": 1}
    assert results[3]["status"] == "proved"


def test_a_parent_with_its_own_check_keeps_its_status():
    results = [_result("000:lemma-8", "proved"), _result("000:lemma-8/a", "refuted", cx="x.json")]
    runner.summarise_parents(results)
    assert results[0]["status"] == "proved"
    assert results[0]["evidence"]["parts"] == {"refuted": 1}


def test_a_parent_is_proved_only_when_every_part_is_proved():
    results = [_result("002:lemma-3.3", "inconclusive", method="none"), _result("002:lemma-3.3/a", "proved"),
               _result("002:lemma-3.3/b", "verified")]
    runner.summarise_parents(results)
    assert results[0]["status"] == "verified"


def test_run_writes_results_json_with_the_contract_schema(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "_CHECKS", {**registry._CHECKS, "000:claim-1/a": _proved})
    results = runner.run(tmp_path, only="000:claim-1", progress=False, jobs=1)
    data = json.loads((tmp_path / "results.json").read_text())
    assert data == json.loads(json.dumps(results, default=str))
    assert set(data) >= {"generated", "version", "seconds", "claims"}
    assert isinstance(data["seconds"], float)
    for c in data["claims"]:
        assert set(c) >= {"id", "title", "kind", "status", "method", "seconds", "evidence", "counterexample"}
        assert c["status"] in ("proved", "refuted", "verified", "inconclusive", "error")
        assert c["counterexample"] is None or (tmp_path / c["counterexample"]).exists()
    by_id = {c["id"]: c for c in data["claims"]}
    assert by_id["000:claim-1/a"]["status"] == "proved"
    assert (tmp_path / by_id["000:claim-1/a"]["certificate"]).is_file()  # certificates/000_claim-1__a.json
    assert (tmp_path / "REPORT.md").read_text().startswith("# olr_verify report")


def test_an_only_pattern_that_selects_nothing_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="selects no claim"):
        runner.run(tmp_path, only="009:*", progress=False)

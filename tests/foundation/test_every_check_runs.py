"""Every registered check runs without `error` (quick budgets), and scalar claims are decided.

`make lemmas` (`pytest -m lemmas`) runs the scalar part (the prover issue's "decides every registered
scalar claim, failing on any error"); both registry-wide runs take minutes, so they are `slow` and stay
out of the default `make test` (`make test-slow` runs them).
"""
import json
from pathlib import Path

import pytest

from olr_verify import registry, runner
from olr_verify.outcome import Context


def _run(claims, tmp_path):
    records = runner.run_checks(claims, Context(out_dir=tmp_path, quick=True), jobs=2,
                                time_limit=runner.TIME_LIMIT_QUICK, progress=False)
    errors = {cid: r["evidence"].get("error") for cid, r in records.items() if r["status"] == "error"}
    return records, errors


@pytest.mark.lemmas
@pytest.mark.slow
def test_every_registered_scalar_claim_is_decided_without_error(tmp_path):
    claims = [c for c in registry.claims() if c.check is not None and runner.is_scalar(c)]
    assert len(claims) >= 200
    records, errors = _run(claims, tmp_path)
    assert not errors, errors
    decided = [cid for cid, r in records.items() if r["status"] in ("proved", "refuted", "verified")]
    assert len(decided) >= 0.9 * len(claims)


@pytest.mark.slow
def test_every_registered_check_runs_without_error_in_quick_mode_and_every_refutation_replays(tmp_path):
    from olr_verify import artefacts

    claims = [c for c in registry.claims() if c.check is not None]
    records, errors = _run(claims, tmp_path)
    assert not errors, errors
    for c in runner.assemble(claims, records, tmp_path, 0.0)["claims"]:
        if c["status"] == "refuted":
            assert artefacts.replay(tmp_path / c["counterexample"])[0], c["id"]


def test_every_refuted_claim_of_a_quick_run_has_a_replayable_artefact(tmp_path):
    from olr_verify import artefacts

    claims = [registry.get(cid) for cid in ("000:lemma-8/derivative-at-0", "003:algorithm-2")]
    records, errors = _run(claims, tmp_path)
    assert not errors
    results = runner.assemble(claims, records, tmp_path, 0.0)
    for c in results["claims"]:
        assert c["status"] == "refuted", c["id"]
        confirmed, _ = artefacts.replay(tmp_path / c["counterexample"])
        assert confirmed, c["id"]


COMMITTED = Path(__file__).resolve().parents[2] / "reports" / "latest"


@pytest.mark.skipif(not (COMMITTED / "results.json").exists(), reason="no committed report")
def test_every_counterexample_of_the_committed_report_replays_as_confirmed():
    from olr_verify import artefacts

    results = json.loads((COMMITTED / "results.json").read_text(encoding="utf-8"))
    refuted = [c for c in results["claims"] if c["status"] == "refuted"]
    for c in refuted:
        assert c["counterexample"], c["id"]
        confirmed, details = artefacts.replay(COMMITTED / c["counterexample"])
        assert confirmed, (c["id"], details)

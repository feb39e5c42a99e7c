"""`make test` runs every registered check once (quick budgets, 2 processes) and guards the verdicts.

The registry-wide quick run takes about 2 minutes on 2 cores (`olr-verify run --quick --jobs 2`: 115 s
measured for 461 claims), so it is part of the default suite: every check function is called at least
once, no check may end in `error`, no `proved` may rest on a restricted domain (`evidence.proved_on`),
and every refutation's artefact must replay as confirmed.

`make lemmas` (`pytest -m lemmas`) still runs the scalar claims alone with the full-mode expectations.
"""
import json
from pathlib import Path

import pytest

from olr_verify import artefacts, registry, runner
from olr_verify.outcome import Context


# the CLI's quick limit (3.5 times the slowest quick check): a check that hangs is still caught, a check slowed
# down by a busy machine is not reported as an error
TIME_LIMIT = runner.TIME_LIMIT_QUICK


def _run(claims, out_dir):
    records = runner.run_checks(claims, Context(out_dir=out_dir, quick=True), jobs=2, time_limit=TIME_LIMIT,
                                progress=False)
    errors = {cid: r["evidence"].get("error") or r["evidence"].get("reason")
              for cid, r in records.items() if r["status"] == "error" or r["method"] == "time limit"}
    return records, errors


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """Every claim with a check, run once in quick mode; (claims, records, errors, out_dir)."""
    out_dir = tmp_path_factory.mktemp("quick-run")
    claims = [c for c in registry.claims() if c.check is not None]
    records, errors = _run(claims, out_dir)
    return claims, records, errors, out_dir


def test_the_quick_run_calls_every_registered_check(quick_run):
    claims, records, _, _ = quick_run
    assert len(claims) >= 400
    assert set(records) == {c.id for c in claims}


def test_no_registered_check_ends_in_error(quick_run):
    _, _, errors, _ = quick_run
    assert not errors, errors


def test_no_check_is_proved_on_a_restricted_domain(quick_run):
    """shared/CONTRACT.md: a proof that covers less than the printed domain is `verified` with proved_on."""
    _, records, _, _ = quick_run
    restricted = [cid for cid, r in records.items()
                  if r["status"] == "proved" and '"proved_on"' in json.dumps(r["evidence"], default=str)]
    assert not restricted, restricted
    cited = [cid for cid, r in records.items() if r["status"] == "proved" and "cited" in r["evidence"]]
    assert not cited, cited


def test_every_refutation_of_the_quick_run_replays_as_confirmed(quick_run):
    _, records, _, out_dir = quick_run
    refuted = {cid: r for cid, r in records.items() if r["status"] == "refuted"}
    assert refuted  # the registry has printed errors: a run that refutes nothing has stopped looking
    for cid, r in refuted.items():
        path = artefacts.write(r["artefact"], out_dir / "counterexamples", cid)
        confirmed, details = artefacts.replay(path)
        assert confirmed, (cid, details)


@pytest.mark.lemmas
@pytest.mark.slow
def test_every_registered_scalar_claim_is_decided_without_error(tmp_path):
    claims = [c for c in registry.claims() if c.check is not None and runner.is_scalar(c)]
    assert len(claims) >= 200
    records, errors = _run(claims, tmp_path)
    assert not errors, errors
    decided = [cid for cid, r in records.items() if r["status"] in ("proved", "refuted", "verified")]
    assert len(decided) >= 0.9 * len(claims)


COMMITTED = Path(__file__).resolve().parents[2] / "reports" / "latest"


@pytest.mark.skipif(not (COMMITTED / "results.json").exists(), reason="no committed report")
def test_every_counterexample_of_the_committed_report_replays_as_confirmed():
    results = json.loads((COMMITTED / "results.json").read_text(encoding="utf-8"))
    refuted = [c for c in results["claims"] if c["status"] == "refuted"]
    for c in refuted:
        assert c["counterexample"], c["id"]
        confirmed, details = artefacts.replay(COMMITTED / c["counterexample"])
        assert confirmed, (c["id"], details)

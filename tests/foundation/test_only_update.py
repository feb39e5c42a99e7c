"""An ``--only`` update keeps the header of the run it updates and records itself below it."""
import json

from olr_verify import registry, runner
from olr_verify.outcome import Outcome


def _verified(ctx):
    return Outcome("verified", "test", {})


def test_an_update_keeps_the_full_runs_time_and_lists_itself(tmp_path, monkeypatch):
    registry.select("000:claim-1*")  # load the real checks first, then replace two of them
    monkeypatch.setattr(registry, "_CHECKS", {**registry._CHECKS, "000:claim-1/a": _verified,
                                              "000:claim-1/b": _verified})
    first = runner.run(tmp_path, only="000:claim-1*", progress=False, jobs=1)
    data = json.loads((tmp_path / "results.json").read_text())
    data["seconds"] = 1234.5  # as if the first run had been the whole registry
    (tmp_path / "results.json").write_text(json.dumps(data))
    second = runner.run(tmp_path, only="000:claim-1/b", progress=False, jobs=1)
    assert second["seconds"] == 1234.5 and second["generated"] == first["generated"]
    assert second["run"]["only"] == "000:claim-1*"
    assert second["run"]["updated"] == ["000:claim-1/b"]
    [update] = second["run"]["updates"]
    assert update["ids"] == ["000:claim-1/b"] and update["seconds"] < 1234.5
    report = (tmp_path / "REPORT.md").read_text()
    assert "in 1234.5 s" in report and "by `--only '000:claim-1/b'` (1 claim(s)" in report

"""Findings of the second hostile review (session 4): each was accepted, hung or destructive before."""
from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from olr_verify import runner
from olr_verify.kernel import FORMAT, check
from olr_verify.kernel.cli import verdict_of

REPORT = Path(__file__).resolve().parents[2] / "reports" / "latest"
TRUE_CERT = {"format": FORMAT, "kind": "inequality", "relation": "x**2+1>0", "domain": [["x", "-oo", "oo"]],
             "tree": {"close": "interval"}}


def _identity(lhs, rhs, domain):
    return check({"format": FORMAT, "claim": None, "kind": "identity", "lhs": lhs, "rhs": rhs, "domain": domain})


@functools.lru_cache(maxsize=1)
def _two_accepted() -> list:
    """Two proved claims of the committed report whose certificates the kernel accepts."""
    found = []
    for c in json.loads((REPORT / "results.json").read_text())["claims"]:
        if len(found) < 2 and c["status"] == "proved" and c.get("certificate") and \
                verdict_of(REPORT / c["certificate"])[0]:
            found.append(c)
    return found


@pytest.fixture
def report_copy(tmp_path):
    """results.json and two certificates of the committed report, in a scratch report folder."""
    proved = _two_accepted()
    if len(proved) < 2:
        pytest.skip("the committed report has fewer than two proved claims")
    (tmp_path / "certificates").mkdir()
    shutil.copy(REPORT / "results.json", tmp_path / "results.json")
    for c in proved[:2]:
        shutil.copy(REPORT / c["certificate"], tmp_path / c["certificate"])
    return tmp_path, proved[0]["certificate"], proved[1]["certificate"]


def test_a_claims_own_certificate_is_accepted(report_copy):
    folder, mine, _ = report_copy
    assert verdict_of(folder / mine) == (True, "accepted")


@pytest.mark.parametrize("swap", ["unnamed", "other claim"])
def test_a_swapped_certificate_is_rejected(report_copy, swap):
    folder, mine, other = report_copy
    if swap == "unnamed":
        (folder / mine).write_text(json.dumps(TRUE_CERT))
    else:
        shutil.copy(folder / other, folder / mine)
    ok, reason = verdict_of(folder / mine)
    assert not ok and ("names no claim" in reason or "is not the certificate" in reason)


@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_devices_and_pipes_are_never_read(tmp_path, special):
    path = special
    if special == "fifo":
        path = str(tmp_path / "pipe")
        os.mkfifo(path)
    assert not verdict_of(Path(path))[0]
    cli = [sys.executable, "-m", "olr_verify.cli", "replay", path]
    done = subprocess.run(cli, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "regular file" in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("lhs, rhs, domain, why", [
    ("exp(log(x))", "x", [["x", "-2", "-1"]], "not shown defined"),
    ("(x**2 - 1)/(x - 1)", "x + 1", [["x", "0", "3"]], "not shown defined"),
    ("x*y", " x*y", [["x", "0", "1"], ["y", "0", "1"]], "same text"),
    ("(a+b+c+d+e+f+g+h)**64", "0", [[v, "0", "1"] for v in "abcdefgh"], "expand"),
])
def test_the_kernel_rejects_identities_that_certify_nothing(lhs, rhs, domain, why):
    verdict = _identity(lhs, rhs, domain)
    assert not verdict.accepted and why in verdict.reason


def test_two_texts_that_read_alike_are_an_identity_shown_by_reading():
    assert _identity("x*y", "y*x", [["x", "0", "1"], ["y", "0", "1"]]).accepted


@pytest.mark.parametrize("lhs, rhs, domain", [
    ("(x**2 - 1)/(x - 1)", "x + 1", [["x", "2", "3"]]),
    ("1/(1 + exp(x))", "exp(-x)/(1 + exp(-x))", [["x", "-oo", "oo"]]),
    ("(a + b)**2", "a**2 + 2*a*b + b**2", [["a", "-oo", "oo"], ["b", "-oo", "oo"]]),
])
def test_the_kernel_still_accepts_true_identities(lhs, rhs, domain):
    assert _identity(lhs, rhs, domain).accepted


def test_an_out_folder_with_someone_elses_entries_is_refused_and_kept(tmp_path):
    for rel, text in {".cache/pip/w": "x", "figures/f": "y", "errata/n": "z", "notes.txt": "k"}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    with pytest.raises(runner.OutputError, match="no results.json of an earlier olr-verify run"):
        runner.run(tmp_path, only="000:claim-1/f", progress=False, jobs=1)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()) == \
        [".cache/pip/w", "errata/n", "figures/f", "notes.txt"]


def test_a_declared_regret_bound_has_work_caps():
    from olr_verify.hunting.declared import MAX_N, DeclaredBound

    entry = {"learner": "ONS", "learner_params": {"B": "B", "R": "1"}, "bound": "n",
             "params": {"B": ["1", "1"], "n": ["1", str(MAX_N + 1)], "d": ["1", "1"]}}
    with pytest.raises(ValueError, match="params.n: at most"):
        DeclaredBound.from_toml(entry, "test")


def test_a_paper_folders_python_runs_only_with_allow_code(tmp_path):
    folder = tmp_path / "paper"
    folder.mkdir()
    (folder / "paper.toml").write_text('[paper]\nkey = "zz"\ntitle = "t"\nauthors = "a"\n\n[[claim]]\n'
                                       'id = "zz:lemma-1"\ntitle = "t"\ncheck_kind = "scalar-inequality"\n'
                                       'statement = "s"\nrelation = "x**2 >= 0"\ndomain = { x = ["-1", "1"] }\n')
    marker = tmp_path / "ran"
    (folder / "zz.py").write_text(f"open({str(marker)!r}, 'w').write('code ran')\n")
    cli = [sys.executable, "-m", "olr_verify.cli"]
    listed = subprocess.run(cli + ["list", "--paper", str(folder), "--only", "zz:*"], capture_output=True,
                            text=True, timeout=120)
    assert listed.returncode == 0 and "zz:lemma-1" in listed.stdout and not marker.exists()
    refused = subprocess.run(cli + ["run", "--paper", str(folder), "--only", "zz:*", "--out", str(tmp_path / "o")],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--allow-code" in refused.stderr and not marker.exists()
    assert not (tmp_path / "o").exists()

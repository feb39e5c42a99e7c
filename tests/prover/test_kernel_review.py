"""Findings of a hostile review of the kernel: each was `accepted` (or crashed) before, now `rejected`."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from olr_verify.kernel import FORMAT, check, statement_sha256
from olr_verify.kernel.cli import verdict_of

TRUE_CERT = {"format": FORMAT, "claim": None, "kind": "inequality", "relation": "x**2 + 1 > 0",
             "domain": [["x", "-oo", "oo"]], "tree": {"close": "interval"}}


def _results(tmp_path, status="proved", sha=None):
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"claims": [{"id": "000:lemma-3/step-5-6", "status": status,
                                            "certificate_sha256": sha, "evidence": {}}]}))
    return path


@pytest.mark.parametrize("cert", [
    {"format": FORMAT, "claim": "000:lemma-3/step-5-6", "kind": "chain",
     "links": [{"label": "t", "certificate": TRUE_CERT}]},
    {"format": FORMAT, "claim": "000:lemma-3/step-5-6", "kind": "identity", "lhs": "(x + 1)**2", "rhs": "x**2 + 2*x + 1",
     "domain": [["x", "0", "1"]]},
])
def test_a_valid_certificate_of_another_statement_does_not_prove_a_claim(tmp_path, cert):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(cert))
    assert check(cert).accepted  # a true statement...
    ok, reason = verdict_of(path, _results(tmp_path, status="refuted"))
    assert not ok and "refuted" in reason  # ...but not the claim's
    ok, reason = verdict_of(path, _results(tmp_path, sha="0" * 64))
    assert not ok and "differs" in reason
    assert verdict_of(path, _results(tmp_path, sha=statement_sha256(cert)))[0]


@pytest.mark.parametrize("change", [
    {"relation": "ｘ >= 0", "domain": [["x", "0", "1"], ["ｘ", "-1", "0"]]},  # look-alike names
    {"relation": "x <= 0", "domain": [["x", "0", 1e-400]]},  # a JSON number read as 0.0
    {"relation": "exp(log(x)) >= x", "domain": [["x", "-1", "1"]]},  # simplified to x >= x
    {"tree": {"split": ["x", "1e999999999"], "lo": {"close": "interval"}, "hi": {"close": "interval"}}},
    {"tree": {"split": ["x", 0], "lo": {"close": "interval"}, "hi": {"close": "interval"}}},
    {"relation": "x**2 >= 0", "tree": {"close": "touching", "point": [0]}},
    {"max_nodes": float("inf")},
])
def test_hostile_certificates_are_rejected(change):
    verdict = check({**TRUE_CERT, **change})
    assert not verdict.accepted and "\n" not in verdict.reason


@pytest.mark.parametrize("text", [
    '{"format": "olr-verify-certificate/1", "kind": "inequality", "relation": "x**2 - 1 >= 0", '
    '"relation": "x**2 + 1 > 0", "domain": [["x", "-oo", "oo"]], "tree": {"close": "interval"}}',
    "[" * 100000 + "]" * 100000,
    '{"format": "olr-verify-certificate/1", "kind": "exact", "relations": ["1 <= 2"], "x": NaN}',
])
def test_check_proof_rejects_odd_files_in_one_line(tmp_path, text):
    path = tmp_path / "c.json"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-m", "olr_verify.cli", "check-proof", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stdout.startswith("rejected: ") and "Traceback" not in out.stderr

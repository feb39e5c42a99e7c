"""The trusted kernel: certificates re-checked from scratch, tampering rejected, the gates of prove() and run."""
from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from olr_verify.kernel import FORMAT, check, statement_sha256
from olr_verify.prover import prove
from olr_verify.prover.certify import certify

pytestmark = pytest.mark.lemmas


def _cert(relation, domain, **kw):
    cert, why = certify(relation, domain, **kw)
    assert cert is not None, why
    assert check(cert).accepted
    return cert


def _resealed(cert):
    """A tampered certificate with a matching statement hash (the hash is not what rejects it)."""
    cert = copy.deepcopy(cert)
    cert["statement_sha256"] = statement_sha256(cert)
    return cert


def _leaves(node, path=()):
    if "split" in node:
        yield from _leaves(node["lo"], path + ("lo",))
        yield from _leaves(node["hi"], path + ("hi",))
    else:
        yield path, node


def _at(tree, path):
    for key in path:
        tree = tree[key]
    return tree


TANGENT = ("exp(x) >= 1 + x", {"x": ("-oo", "oo")})


def test_an_unbounded_touching_lemma_gets_a_certificate_that_the_kernel_accepts():
    cert = _cert(*TANGENT)
    assert cert["format"] == FORMAT and cert["kind"] == "inequality"
    assert json.loads(json.dumps(cert)) == cert


@pytest.mark.parametrize("tamper", ["relation-constant", "domain-bound", "strictness", "split-point",
                                    "tail-leaf", "hash"])
def test_a_tampered_certificate_is_rejected(tamper):
    cert = copy.deepcopy(_cert(*TANGENT))
    if tamper == "relation-constant":
        cert["relation"] = "exp(x) >= 1 + 1.0000001*x"
    elif tamper == "domain-bound":
        cert = _cert("x**2 <= 1", {"x": ("-1", "1")})
        cert["domain"] = [["x", "-1", "3"]]
    elif tamper == "strictness":
        cert["relation"] = "exp(x) > 1 + x"
    elif tamper == "split-point":
        cert["tree"]["split"] = ["x", "1"]  # the monotone faces now sit where the slope has no sign
    elif tamper == "tail-leaf":
        path, _ = next((p, n) for p, n in _leaves(cert["tree"]) if n["close"] == "monotone")
        _at(cert["tree"], path)["close"] = "interval"
    if tamper != "hash":
        cert = _resealed(cert)
    else:
        cert["domain"] = [["x", "-oo", "0"]]
    verdict = check(cert)
    assert not verdict.accepted, tamper
    assert verdict.reason


def test_a_bisection_tree_for_a_bounded_box_rejects_a_nudged_constant():
    cert = _cert("x*(1 - x) <= 1/4", {"x": ("0", "1")})
    cert["relation"] = "x*(1 - x) <= 1/4 - 1/10**12"
    assert not check(_resealed(cert)).accepted


@pytest.mark.parametrize("bad", [None, [], {"format": "other"}, {"format": FORMAT, "kind": "inequality"},
                                 {"format": FORMAT, "kind": "inequality", "relation": "__import__('os') >= 0",
                                  "domain": [["x", "0", "1"]], "tree": {"close": "interval"}},
                                 {"format": FORMAT, "kind": "inequality", "relation": "x >= 0",
                                  "domain": [["x", "1", "0"]], "tree": {"close": "interval"}},
                                 {"format": FORMAT, "kind": "inequality", "relation": "x >= 0",
                                  "domain": [["x", "0", "1"]], "tree": {"close": "nonsense"}},
                                 {"format": FORMAT, "kind": "exact", "relations": ["2**10 > 1024"]},
                                 {"format": FORMAT, "kind": "identity", "lhs": "x**2", "rhs": "x*Abs(x)",
                                  "domain": [["x", "-oo", "oo"]]}])
def test_malformed_or_false_certificates_are_rejected_never_raised(bad):
    verdict = check(bad)
    assert not verdict.accepted and verdict.reason


def test_exact_identity_and_chain_certificates():
    exact = {"format": FORMAT, "kind": "exact", "relations": ["2**10 >= 1000", "1/3 + 1/6 == 1/2"]}
    ident = {"format": FORMAT, "kind": "identity", "lhs": "(x+1)**2", "rhs": "x**2 + 2*x + 1",
             "domain": [["x", "-oo", "oo"]]}
    assert check(exact).accepted and check(ident).accepted
    chain = {"format": FORMAT, "kind": "chain", "links": [{"label": "a", "certificate": exact},
                                                          {"label": "b", "certificate": ident}]}
    assert check(chain).accepted
    chain["links"][1]["certificate"] = {**ident, "rhs": "x**2 + 2*x + 2"}
    assert not check(chain).accepted


def test_check_proof_prints_accepted_or_rejected_with_exit_codes(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(_cert(*TANGENT)))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    for path, code, text in ((good, 0, "accepted"), (bad, 1, "rejected: ")):
        run = subprocess.run([sys.executable, "-m", "olr_verify.cli", "check-proof", str(path)],
                             capture_output=True, text=True, timeout=120)
        assert run.returncode == code, run.stderr
        assert run.stdout.startswith(text)
        assert "Traceback" not in run.stderr


# ------------------------------------------------------------------ the five holes of issue 13
HOLES = [
    ("tanh(x - 20)**2 > 0", {"x": ("-oo", "oo")}),  # strict relation in an unbounded tail
    ("Abs(x-100) > 0", {"x": ("-oo", "oo")}),
    ("y*(2000000 - y) >= 0", {"x": ("0", "oo"), "y": ("0", "x")}),  # infinity replaced by 10^6
    ("Abs(x - 1/2) < 1/2 - 2*x + 16*(x - 1/4)**2 + Abs(x)", {"x": ("-1", "1")}),  # Abs split signs
    ("Piecewise((x**2+1, x<1), (x**2-1, True)) > 0", {"x": ("0", "2")}),  # Piecewise jump
    ("exp(-v)*(1000000 - v) >= 0", {"v": ("20", "oo")}),  # a finite end beyond the cut (core box [20, 8])
]


@pytest.mark.parametrize("relation,domain", HOLES)
def test_the_soundness_holes_of_issue_13_are_never_proved(relation, domain):
    """Each was ``proved`` by the search alone before the kernel gate (the tanh case at the default timeout)."""
    assert prove(relation, domain, kernel_boxes=2000).status != "proved"


def test_an_undefined_point_is_never_a_counterexample_and_erf_does_not_crash():
    assert prove("sinh(x)/x >= 1", {"x": ("-1", "1")}, timeout=1, kernel_boxes=500).status != "refuted"
    assert prove("erf(x) <= 2*x/sqrt(pi)", {"x": ("0", "oo")}, timeout=1, kernel_boxes=500).status in (
        "proved", "verified", "inconclusive")


def test_the_same_input_gives_the_same_certificate():
    a = prove("x*(1 - x) <= 1/4", {"x": ("0", "1")}, timeout=1)
    b = prove("x*(1 - x) <= 1/4", {"x": ("0", "1")}, timeout=1)
    assert a.status == b.status == "proved"
    assert a.kernel_certificate == b.kernel_certificate


# ------------------------------------------------------------------ the runner's gate
def _record(outcome):
    from types import SimpleNamespace

    from olr_verify.outcome import Context
    from olr_verify.runner import execute

    return execute(SimpleNamespace(id="999:lemma-1", check=lambda ctx: outcome), Context(out_dir=None))


def test_the_runner_downgrades_proved_without_an_accepted_certificate():
    from olr_verify.outcome import Outcome

    rec = _record(Outcome("proved", "hand-written", {}))
    assert rec["status"] == "verified" and rec["evidence"]["kernel"] == "no kernel-checkable certificate"
    bad = _resealed({**_cert(*TANGENT), "relation": "exp(x) >= 1 + 2*x"})
    rec = _record(Outcome("proved", "tampered", {}, certificate=bad))
    assert rec["status"] == "verified" and rec["evidence"]["kernel"].startswith("rejected: ")
    rec = _record(Outcome("proved", "good", {}, certificate=_cert(*TANGENT)))
    assert rec["status"] == "proved" and rec["certificate"]["claim"] == "999:lemma-1"


def test_the_kernel_imports_nothing_from_the_search_the_checks_or_the_hunting_code():
    from pathlib import Path

    import olr_verify.kernel as kernel

    for path in Path(kernel.__file__).parent.glob("*.py"):
        imports = [ln for ln in path.read_text().splitlines() if ln.lstrip().startswith(("from ", "import "))]
        for banned in ("olr_verify.prover", "olr_verify.checks", "olr_verify.hunting"):
            assert not any(banned in ln for ln in imports), (path.name, banned)

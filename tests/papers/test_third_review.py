"""Findings of the third hostile review (kernel certificates and paper folders); each test failed before its fix.

The kernel accepted false identities through at(f, +x, v), statements whose written operands do not exist
(x/x >= 1 on [-1, 1]) and variables named after constants; a huge constant bound killed the process and a 4 kB
identity kept sympy busy for minutes. A paper folder got `proved` for derivatives across a kink (diff of a
Piecewise), `verified` for identities false only at 0 (sign(x)**2 == 1) and relations false only at a kink, a
touching point or within 1e-9 of an end, and two papers could share an artefact file."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from olr_verify import artefacts
from olr_verify.expr import ExprError, parse_expr
from olr_verify.kernel import FORMAT, check
from olr_verify.outcome import Context
from olr_verify.paper_folder import PaperError


def _identity(lhs: str, rhs: str, domain) -> dict:
    return {"format": FORMAT, "claim": None, "kind": "identity", "lhs": lhs, "rhs": rhs, "domain": domain}


def _inequality(relation: str, domain, tree=None) -> dict:
    return {"format": FORMAT, "claim": None, "kind": "inequality", "relation": relation, "domain": domain,
            "tree": tree or {"close": "interval"}}


# --- the kernel ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lhs, rhs, domain", [
    ("at(Abs(x), +x, -2)", "-2", [["x", "1", "2"]]),  # |-2| = 2
    ("at(sqrt(x**2), 1*x, -1)", "-1", [["x", "0", "oo"]]),  # sqrt(1) = 1
    ("at(sqrt(x**2), x**1, -3)", "-3", [["x", "1", "2"]]),
])
def test_at_replaces_only_a_variable_written_as_its_name(lhs, rhs, domain):
    assert not check(_identity(lhs, rhs, domain)).accepted
    with pytest.raises(ExprError, match="written as its name"):
        parse_expr(lhs, [d[0] for d in domain])


@pytest.mark.parametrize("relation", ["x/x >= 1", "sqrt(x)*sqrt(x) >= x", "log(x) - log(x) + 1 > 0", "x*(1/x) >= 1"])
def test_an_inequality_whose_written_operands_do_not_exist_is_rejected(relation):
    verdict = check(_inequality(relation, [["x", "-1", "1"]]))
    assert not verdict.accepted and "not shown defined" in verdict.reason


def test_an_inequality_with_defined_operands_is_still_accepted():
    assert check(_inequality("x/(x**2 + 1) <= 1", [["x", "-1", "1"]])).accepted


@pytest.mark.parametrize("name, relation", [("E", "E**2 > 8"), ("pi", "pi <= 1"), ("oo", "oo <= 1")])
def test_a_variable_named_after_a_constant_is_rejected(name, relation):
    verdict = check(_inequality(relation, [[name, "3", "4"]]))
    assert not verdict.accepted and "may not be named" in verdict.reason


@pytest.mark.parametrize("bound", ["exp(exp(30))", "exp(-exp(30))"])
def test_a_huge_constant_bound_is_a_rejection_not_a_crash(tmp_path, bound):
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(_inequality("x >= -1", [["x", "0", bound]])))
    done = subprocess.run([sys.executable, "-m", "olr_verify.cli", "check-proof", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and done.stdout.startswith("rejected")


def test_a_large_identity_is_rejected_without_running_simplify_on_it(tmp_path):
    terms = " + ".join(f"exp(x*y/{k + 2})/(x + {k + 1}*y + {k * k + 1}*z + 1) + sqrt(x + {k + 1})*log(y + {k + 2})"
                       for k in range(60))
    path = tmp_path / "cert.json"
    path.write_text(json.dumps(_identity(terms, "1", [["x", "0", "1"], ["y", "0", "1"], ["z", "0", "1"]])))
    done = subprocess.run([sys.executable, "-m", "olr_verify.cli", "check-proof", str(path)],
                          capture_output=True, text=True, timeout=300)  # was still running after 300 s
    assert done.returncode == 1 and "operations" in done.stdout


# --- the reader ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "at(diff(Piecewise((w, w >= 0), (-w, True)), w), w, 0)",  # |w| has no derivative at 0: read as 1
    "at(diff(Piecewise((-w, w <= 0), (w, True)), w), w, 0)",  # the same |w|: read as -1
    "diff(Piecewise((1, w >= 0), (0, True)), w)",  # a jump: read as 0
    "at(diff(Max(w, 0), w), w, 0)", "diff(Abs(w), w)", "diff(floor(w), w)", "diff(w, +w)",
])
def test_no_derivative_across_a_break(text):
    with pytest.raises(ExprError):
        parse_expr(text, ["w"])


# --- paper folders --------------------------------------------------------------------------------------------
def _decide(fresh_registry, tmp_path: Path, body: str):
    (tmp_path / "paper.toml").write_text('[paper]\nkey = "r"\ntitle = "T"\nauthors = "A"\n\n[[claim]]\n'
                                         'id = "r:lemma-1"\nstatement = "s"\n' + textwrap.dedent(body),
                                         encoding="utf-8")
    fresh_registry.add_paper(tmp_path)
    return fresh_registry.get("r:lemma-1").check(Context(out_dir=tmp_path))


@pytest.mark.parametrize("body", [
    'check_kind = "scalar-inequality"\nrelation = "sqrt(x)*sqrt(x) >= x"\ndomain = { x = ["-1", "1"] }\n',
    'check_kind = "scalar-inequality"\nrelation = "log(x) - log(x) + 1 > 0"\ndomain = { x = ["-1", "1"] }\n',
    'check_kind = "identity"\nlhs = "sqrt(x)*sqrt(x)"\nrhs = "x"\ndomain = { x = ["-1", "1"] }\n',
])
def test_a_claim_whose_written_operands_do_not_exist_on_part_of_its_domain_is_inconclusive(fresh_registry,
                                                                                          tmp_path, body):
    out = _decide(fresh_registry, tmp_path, body)
    assert out.status == "inconclusive" and "undefined_operand" in out.evidence


@pytest.mark.parametrize("body", [
    'check_kind = "identity"\nlhs = "x**2/x"\nrhs = "x"\ndomain = { x = ["-1", "1"] }\n',  # at 0 only
    'check_kind = "identity"\nlhs = "x**2/x"\nrhs = "x"\ndomain = { x = ["0", "1"] }\n',  # x > 0 printed
])
def test_a_removable_singularity_is_never_proved(fresh_registry, tmp_path, body):
    out = _decide(fresh_registry, tmp_path, body)
    assert out.status == "proved" and not check(out.certificate).accepted  # the run reports verified


def test_a_relation_with_a_removable_singularity_is_at_most_verified(fresh_registry, tmp_path):
    out = _decide(fresh_registry, tmp_path, 'check_kind = "scalar-inequality"\nrelation = "x*(1/x) >= 1"\n'
                  'domain = { x = ["-1", "1"] }\n')
    assert out.status == "verified" and out.certificate is None


@pytest.mark.parametrize("body, point", [
    ('check_kind = "identity"\nlhs = "sign(x)**2"\nrhs = "1"\ndomain = { x = ["-1", "1"] }\n', "0"),
    ('check_kind = "identity"\nlhs = "floor(x) + floor(-x)"\nrhs = "-1"\ndomain = { x = ["-1/2", "1/2"] }\n', "0"),
    ('check_kind = "identity"\nlhs = "Piecewise((1, x >= 0), (2, True))"\nrhs = "Piecewise((1, x > 0), (2, True))"\n'
     'domain = { x = ["-1", "1"] }\n', "0"),
    ('check_kind = "scalar-inequality"\nrelation = "Max(3*x - 1, 1 - 3*x) > 0"\ndomain = { x = ["0", "1"] }\n',
     "1/3"),
    ('check_kind = "scalar-inequality"\nrelation = "(2*x**2 - 1)**2 > 0"\ndomain = { x = ["0", "1"] }\n',
     "sqrt(2)/2"),
    ('check_kind = "scalar-inequality"\nrelation = "atanh(x) <= 10"\ndomain = { x = ["0", "1"] }\n', None),
    ('check_kind = "scalar-inequality"\nrelation = "atanh(x) <= 40"\ndomain = { x = ["0", "1"] }\n',
     "/1" + "0" * 45),  # 1 - 10^-45: no float comes within 10^-35 of 1
])
def test_a_violation_at_a_break_a_touching_point_or_next_to_an_end_is_refuted(fresh_registry, tmp_path, body,
                                                                              point):
    out = _decide(fresh_registry, tmp_path, body)
    assert out.status == "refuted"
    assert point is None or point in json.dumps(out.counterexample)
    confirmed, _ = artefacts.replay(artefacts.write(out.counterexample, tmp_path, "r:lemma-1"))
    assert confirmed


@pytest.mark.parametrize("body, status", [
    ('check_kind = "scalar-inequality"\nrelation = "Max(3*x - 1, 1 - 3*x) >= 0"\ndomain = { x = ["0", "1"] }\n',
     "proved"),
    ('check_kind = "identity"\nlhs = "Abs(x - 1/3)**2"\nrhs = "(x - 1/3)**2"\ndomain = { x = ["-1", "1"] }\n',
     "verified"),
    ('check_kind = "scalar-inequality"\nrelation = "atanh(x) <= 40"\ndomain = { x = ["0", "1/2"] }\n', "verified"),
])
def test_the_true_neighbours_are_not_refuted(fresh_registry, tmp_path, body, status):
    out = _decide(fresh_registry, tmp_path, body)
    assert out.status == status


def test_two_papers_cannot_share_an_artefact_file(fresh_registry, tmp_path):
    for key, cid in (("a", "a:lemma-1/claim-1"), ("a_lemma-1_", "a_lemma-1_:claim-1")):
        folder = tmp_path / key
        folder.mkdir()
        (folder / "paper.toml").write_text(
            f'[paper]\nkey = "{key}"\ntitle = "T"\nauthors = "A"\n\n[[claim]]\nid = "{cid}"\nstatement = "s"\n'
            'check_kind = "scalar-inequality"\nrelation = "x >= 0"\ndomain = { x = ["0", "1"] }\n', encoding="utf-8")
    fresh_registry.add_paper(tmp_path / "a")
    with pytest.raises(PaperError, match="share the artefact file"):
        fresh_registry.add_paper(tmp_path / "a_lemma-1_")


def test_a_learner_argument_that_multiplies_the_work_is_capped_in_units_of_work(tmp_path):
    """learner_params = { inner_steps = "10**9" } kept a declared hunt busy until the wall-clock safety net: now a
    point where n x inner_steps exceeds the hunt's budget is untested, so the claim is inconclusive at once."""
    import time

    from olr_verify.hunting.declared import DeclaredBound, decide

    entry = {"learner": "AIOLI", "learner_params": {"B": "B", "R": "1", "inner_steps": "10**9"},
             "bound": "10*d*log(n + 1) + 10", "params": {"B": ["1", "2"], "n": ["5", "20"], "d": ["1", "2"]}}
    start = time.perf_counter()
    out = decide(DeclaredBound.from_toml(entry, "demo:theorem-1"), Context(tmp_path, quick=True), "demo:theorem-1")
    assert out.status == "inconclusive" and "inner steps" in out.evidence["untested"][0], out.evidence
    assert time.perf_counter() - start < 60
    entry["learner_params"]["inner_steps"] = "20"  # within the budget: hunted as before
    out = decide(DeclaredBound.from_toml(entry, "demo:theorem-1"), Context(tmp_path, quick=True), "demo:theorem-1")
    assert "untested" not in out.evidence

"""Findings of the fifth hostile review (paper folders written by an outsider); each test failed before its fix.

A false printed step named itself ``variant_of`` a true sibling that declared a ``defect`` (or ``variant_of`` its
own parent): it left its parent's printed parts and the errata, and the parent stayed `proved`. A variant now
leaves its parent only when the claim it names is refuted in the run (a correction of a refuted reading); a claim
that declares a defect the run does not find says so in its evidence."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from olr_verify import errata
from olr_verify.summary import defect_problems, is_variant, summarise_parents

HEAD = '[paper]\nkey = "hv"\ntitle = "T"\nauthors = "A"\n'

STEPS = '''
[[claim]]
id = "hv:lemma-1"
check_kind = "scalar-inequality"
statement = "x**2 <= 1 on [0, 1]"
relation = "x**2 <= 1"
domain = { x = ["0", "1"] }

[[claim]]
id = "hv:lemma-1/step-1"
check_kind = "scalar-inequality"
statement = "x**2 >= x"
relation = "x**2 >= x"
domain = { x = ["0", "1"] }
variant_of = "hv:lemma-1/step-2"
defect = "slip"
defect_reason = "r"

[[claim]]
id = "hv:lemma-1/step-2"
check_kind = "scalar-inequality"
statement = "x**2 >= 0"
relation = "x**2 >= 0"
domain = { x = ["0", "1"] }
defect = "slip"
defect_reason = "r"
'''


def _result(cid: str, status: str, **extra) -> dict:
    return {"id": cid, "title": cid, "status": status, "method": "m", "seconds": 0.0, "evidence": {},
            "counterexample": "c.json" if status == "refuted" else None, "statement": cid, "variant_of": "", **extra}


def test_a_false_step_naming_a_true_sibling_as_its_target_stays_a_printed_part(tmp_path):
    folder, out = tmp_path / "paper", tmp_path / "out"
    folder.mkdir()
    (folder / "paper.toml").write_text(HEAD + textwrap.dedent(STEPS), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "olr_verify.cli", "run", "--paper", str(folder), "--only", "hv:*",
                           "--out", str(out), "--jobs", "1"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    by_id = {c["id"]: c for c in data["claims"]}
    assert by_id["hv:lemma-1/step-1"]["status"] == "refuted"
    assert by_id["hv:lemma-1"]["refuted_parts"] == ["hv:lemma-1/step-1"]
    assert "printed part" in by_id["hv:lemma-1/step-1"]["evidence"]["counted_as_printed_part"]
    assert "did not refute" in by_id["hv:lemma-1/step-2"]["evidence"]["declared_defect"]
    sheet = errata.render_sheet(data, "hv")
    assert "### `hv:lemma-1/step-1`" in sheet and "0 substantive, 1 slip" in sheet
    report = (out / "REPORT.md").read_text(encoding="utf-8")
    assert "corrected variant of** `hv:lemma-1/step-2`" not in report


def test_a_step_naming_its_own_parent_counts_for_the_parent():
    results = [_result("p:lemma-1", "proved", method="none"), _result("p:lemma-1/a", "proved"),
               _result("p:lemma-1/b", "verified", variant_of="p:lemma-1")]
    summarise_parents(results)
    assert results[0]["status"] == "verified" and results[0]["evidence"]["parts"] == {"proved": 1, "verified": 1}
    results[2]["status"] = "refuted"
    summarise_parents(results)
    assert results[0]["status"] == "refuted" and results[0]["refuted_parts"] == ["p:lemma-1/b"]


def test_a_correction_of_a_refuted_claim_is_still_a_variant():
    results = [_result("p:lemma-1", "proved"), _result("p:lemma-1/a", "refuted", defect="slip", defect_reason="r"),
               _result("p:lemma-1/a/corrected", "proved", variant_of="p:lemma-1/a"),
               _result("p:lemma-2", "verified"), _result("p:lemma-2/stronger", "verified", variant_of="p:lemma-2")]
    by_id = {r["id"]: r for r in results}
    assert is_variant(by_id["p:lemma-1/a/corrected"], by_id)
    assert not is_variant(by_id["p:lemma-2/stronger"], by_id) and not is_variant(by_id["p:lemma-1"], by_id)
    summarise_parents(results)
    assert results[0]["evidence"]["variants"] == ["p:lemma-1/a/corrected"]
    assert results[0]["evidence"]["parts"] == {"refuted": 1}
    assert defect_problems(results) == []
    results[2]["variant_of"] = "p:lemma-2"  # names a claim that stands: not the correction the slip needs
    assert defect_problems(results) == ["p:lemma-1/a: slip without a decided corrected variant "
                                        "(variant_of = 'p:lemma-1/a')"]


def _write_bound(folder, bound: str, n_and_d: str) -> None:
    """A paper folder with one regret bound of OGD, B = R = 1."""
    (folder / "paper.toml").write_text(HEAD + textwrap.dedent(f'''
        [[claim]]
        id = "hv:theorem-1"
        check_kind = "regret-bound"
        statement = "s"
        learner = "OGD"
        learner_params = {{ B = "B", R = "R" }}
        bound = "{bound}"
        params = {{ B = ["1", "1"], R = ["1", "1"], {n_and_d} }}
    '''), encoding="utf-8")


def test_a_bound_the_reader_refuses_is_an_error_naming_the_claim(fresh_registry, tmp_path):
    import pytest

    from olr_verify.paper_folder import PaperError

    _write_bound(tmp_path, "x.__class__", 'n = ["1", "5"], d = ["1", "1"]')
    with pytest.raises(PaperError, match=r"hv:theorem-1.*attribute"):
        fresh_registry.add_paper(tmp_path)


def test_a_hunt_says_how_many_values_of_n_and_d_it_ran(fresh_registry, tmp_path):
    """A bound false only at n = 137 survives a hunt that never runs n = 137; the evidence says how much was run."""
    from olr_verify import registry
    from olr_verify.outcome import Context

    _write_bound(tmp_path, "3*B*R*sqrt(n)", 'n = ["1", "40"], d = ["1", "2"]')
    fresh_registry.add_paper(tmp_path)
    out = registry.get("hv:theorem-1").check(Context(out_dir=tmp_path, quick=True))
    tried = out.evidence["integer_values_tried"]
    assert tried["d"] == "2 of 2" and tried["n"].endswith(" of 40") and 2 <= int(tried["n"].split()[0]) <= 40

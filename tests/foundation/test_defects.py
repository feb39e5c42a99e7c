"""Defect classes of refutations, corrected variants, honest parents and the errata sheets.

shared/CONTRACT.md: every refuted claim has ``defect`` (substantive | slip | domain | extraction) and a
one-sentence ``defect_reason``; a slip or domain claim has a corrected variant decided in the same run.
"""
import copy
import json
from pathlib import Path

import pytest

from olr_verify import errata, registry, report, summary
from olr_verify.checks import corrected_variants
from olr_verify.outcome import Context

COMMITTED = Path(__file__).resolve().parents[2] / "reports" / "latest" / "results.json"


def _result(cid, status, method="m", cx=None, **extra):
    return {"id": cid, "title": cid, "kind": "k", "status": status, "method": method, "seconds": 0.1,
            "evidence": {}, "counterexample": cx, "statement": f"statement of {cid}", "variant_of": "", **extra}


def _claim(cid, **fields):
    return registry.Claim(id=cid, title=cid, check_kind="k", source="s", statement="st", **fields)


def _committed_through_current_summary():
    """The committed report's claims, with the summary of this code (classes from the current TOML)."""
    data = json.loads(COMMITTED.read_text(encoding="utf-8"))
    claims = copy.deepcopy(data["claims"])
    for c in claims:
        if c["method"] == "summary of parts":  # undo the old summary: parents without a check of their own
            c.update(method="none", status="inconclusive", evidence={"reason": "no check yet"}, counterexample=None)
    summary.summarise(claims, registry.claims())
    return data, claims


# --------------------------------------------------------------------------- the judgements are data
def test_a_claim_rejects_an_unknown_defect_class_or_a_class_without_reason():
    with pytest.raises(ValueError, match="defect must be one of"):
        _claim("000:lemma-1", defect="typo", defect_reason="r")
    with pytest.raises(ValueError, match="needs a defect_reason"):
        _claim("000:lemma-1", defect="slip")
    assert _claim("000:lemma-1", defect="slip", defect_reason="r", depends_on=["000:theorem-1"]).depends_on == (
        "000:theorem-1",)


def test_every_declared_dependency_and_variant_names_a_registered_claim():
    ids = {c.id for c in registry.claims()}
    for c in registry.claims():
        assert set(c.depends_on) <= ids, c.id
        assert not c.variant_of or c.variant_of in ids, c.id


def test_every_slip_or_domain_judgement_has_a_corrected_variant_with_a_check():
    variants = {}
    for c in registry.claims():
        if c.variant_of:
            variants.setdefault(c.variant_of, []).append(c)
    for c in registry.claims():
        if c.defect in ("slip", "domain"):
            assert any(v.check is not None for v in variants.get(c.id, [])), c.id
        if c.defect == "domain":
            assert c.defect_range, f"{c.id}: a domain defect says which range the paper uses"


@pytest.mark.skipif(not COMMITTED.exists(), reason="no committed report")
def test_every_refutation_of_the_committed_report_gets_a_valid_class_and_reason():
    _, claims = _committed_through_current_summary()
    refuted = [c for c in claims if c["status"] == "refuted"]
    assert len(refuted) >= 40
    for c in refuted:
        assert c["defect"] in registry.DEFECTS, c["id"]
        assert len(c["defect_reason"].split()) >= 8, c["id"]


@pytest.mark.skipif(not COMMITTED.exists(), reason="no committed report")
def test_the_committed_report_meets_the_contract_but_for_variants_added_since():
    _, claims = _committed_through_current_summary()
    new = set(corrected_variants.variant_ids())
    added_since = {c.variant_of for c in registry.claims() if c.id in new}
    missing = {p.split(": ", 1)[0] for p in summary.defect_problems(claims)}
    assert missing <= added_since, sorted(missing - added_since)


# --------------------------------------------------------------------------- the checker, with false inputs
def test_a_refuted_claim_without_a_class_is_a_problem():
    results = [_result("000:lemma-1", "refuted", cx="c.json")]
    summary.attach_defects(results, [_claim("000:lemma-1")])
    assert results[0]["defect"] is None and "no defect class" in results[0]["defect_reason"]
    assert summary.defect_problems(results) == ["000:lemma-1: refuted without a defect class (None)"]


def test_a_slip_needs_a_decided_variant_in_the_same_results():
    claims = [_claim("000:lemma-1", defect="slip", defect_reason="a typo"),
              _claim("000:lemma-1/corrected", variant_of="000:lemma-1")]
    for variant_status, problems in (("inconclusive", 1), ("refuted", 2), ("verified", 0), ("proved", 0)):
        results = [_result("000:lemma-1", "refuted", cx="c.json"),
                   _result("000:lemma-1/corrected", variant_status, cx="v.json", variant_of="000:lemma-1")]
        summary.attach_defects(results, claims)
        assert len(summary.defect_problems(results)) == problems, variant_status  # a refuted variant needs a class too
    results = [_result("000:lemma-1", "refuted", cx="c.json")]
    summary.attach_defects(results, claims)
    assert "without a decided corrected variant" in summary.defect_problems(results)[0]


def test_substantive_and_extraction_need_no_variant_and_unknown_classes_are_problems():
    results = [_result("000:lemma-1", "refuted", cx="c.json", defect="substantive", defect_reason="false"),
               _result("000:lemma-2", "refuted", cx="c.json", defect="extraction", defect_reason="bars lost"),
               _result("000:lemma-3", "refuted", cx="c.json", defect="typo", defect_reason="x"),
               _result("000:lemma-4", "refuted", cx="c.json", defect="slip", defect_reason=" ")]
    problems = summary.defect_problems(results)
    assert [p.split(": ", 1)[0] for p in problems] == ["000:lemma-3", "000:lemma-4", "000:lemma-4"]


def test_a_class_on_a_claim_that_is_not_refuted_is_not_copied():
    results = [_result("000:lemma-1", "verified")]
    summary.attach_defects(results, [_claim("000:lemma-1", defect="slip", defect_reason="r")])
    assert "defect" not in results[0]


# --------------------------------------------------------------------------- parents
def test_a_refuted_parent_inherits_its_parts_class_and_substantive_wins():
    results = [_result("000:lemma-8", "inconclusive", method="none"),
               _result("000:lemma-8/a", "refuted", cx="a.json"), _result("000:lemma-8/b", "refuted", cx="b.json")]
    claims = [_claim("000:lemma-8"), _claim("000:lemma-8/a", defect="slip", defect_reason="a typo"),
              _claim("000:lemma-8/b", defect="substantive", defect_reason="false")]
    summary.summarise(results, claims)
    assert results[0]["status"] == "refuted"
    assert results[0]["defect"] == "substantive"
    assert results[0]["defect_reason"].startswith("inherited from its refuted part 000:lemma-8/b")
    assert [p.split(": ", 1)[0] for p in summary.defect_problems(results)] == ["000:lemma-8/a"]  # its own variant


def test_a_parent_with_its_own_check_says_both_its_status_and_its_false_printed_step():
    results = [_result("000:lemma-8", "proved"), _result("000:lemma-8/derivative-at-0", "refuted", cx="x.json"),
               _result("000:lemma-8/argmin", "proved")]
    summary.summarise_parents(results)
    parent = results[0]
    assert parent["status"] == "proved"
    assert parent["refuted_parts"] == ["000:lemma-8/derivative-at-0"]
    assert parent["evidence"]["printed_proof"] == ("statement proved; printed proof step "
                                                   "000:lemma-8/derivative-at-0 false")
    assert "printed proof step `000:lemma-8/derivative-at-0` false" in report.status_text(parent)


def test_corrected_variants_are_not_parts_of_their_parent():
    results = [_result("000:lemma-8", "inconclusive", method="none"), _result("000:lemma-8/a", "refuted", cx="a"),
               _result("000:lemma-8/a/corrected", "refuted", cx="x.json", variant_of="000:lemma-8/a"),
               _result("000:lemma-8/b", "proved")]
    summary.summarise_parents(results)
    assert results[0]["status"] == "refuted" and results[0]["refuted_parts"] == ["000:lemma-8/a"]
    assert results[0]["evidence"]["parts"] == {"refuted": 1, "proved": 1}
    assert results[0]["evidence"]["variants"] == ["000:lemma-8/a/corrected"]


def test_a_variant_of_a_claim_that_stands_is_a_part():
    """Only a refuted claim has a correction; a refuted "variant" of a proved part would hide a false step."""
    results = [_result("000:lemma-8", "inconclusive", method="none"), _result("000:lemma-8/a", "proved"),
               _result("000:lemma-8/a/corrected", "refuted", cx="x.json", variant_of="000:lemma-8/a")]
    summary.summarise_parents(results)
    assert results[0]["status"] == "refuted" and results[0]["refuted_parts"] == ["000:lemma-8/a/corrected"]
    assert "variants" not in results[0]["evidence"]


def test_a_second_summary_of_merged_results_starts_afresh():
    results = [_result("000:lemma-8", "inconclusive", method="none"), _result("000:lemma-8/a", "refuted", cx="a")]
    summary.summarise_parents(results)
    assert results[0]["status"] == "refuted"
    results[1]["status"], results[1]["counterexample"] = "proved", None  # the part, re-run and fixed
    summary.summarise_parents(results)
    assert results[0]["status"] == "proved" and results[0]["counterexample"] is None
    assert "refuted_parts" not in results[0] and "refuted_parts" not in results[0]["evidence"]


# --------------------------------------------------------------------------- errata sheets
def _synthetic():
    claims = [
        _result("000:lemma-1", "refuted", cx="counterexamples/000_lemma-1.json", defect="slip",
                defect_reason="a dropped square", depends_on=["000:theorem-1"],
                evidence={"counterexample": {"x": "2"}}),
        _result("000:lemma-1/corrected", "verified", variant_of="000:lemma-1"),
        _result("000:lemma-2", "refuted", cx="counterexamples/000_lemma-2.json", defect="substantive",
                defect_reason="the bound is false"),
        _result("000:theorem-1", "verified", refuted_parts=["000:lemma-1"]),
        _result("000:lemma-3", "refuted", cx="counterexamples/000_lemma-3.json", defect="domain",
                defect_reason="only for x <= 1", defect_range="x <= 1", depends_on=["000:theorem-9"]),
        _result("000:lemma-3/small-x", "proved", variant_of="000:lemma-3"),
        _result("001:lemma-1", "proved"),
    ]
    return {"generated": "2026-11-24T00:00:00+00:00", "version": "0", "seconds": 1.0, "claims": claims,
            "papers": {"000": {"title": "AIOLI", "authors": "A, B", "notes": ""}}}


def test_errata_sheet_lists_substantive_defects_first_with_printed_corrected_witness_and_consequence():
    text = errata.render_sheet(_synthetic(), "000")
    assert text.index("`000:lemma-2`") < text.index("`000:lemma-1`") < text.index("`000:lemma-3`")
    assert "1 substantive, 1 slip, 1 domain, 0 extraction" in text
    assert "- **printed:** statement of 000:lemma-1" in text
    assert "- **corrected:** `000:lemma-1/corrected` (verified): statement of 000:lemma-1/corrected" in text
    assert '- **witness:** counterexample: {"x": "2"}' in text
    assert "- **consequence:** `000:theorem-1` verified (printed proof step false)" in text
    assert "`000:theorem-9` not in this run" in text
    assert "- **range the paper uses:** x <= 1" in text
    assert "- **corrected:** none registered" in text.split("`000:lemma-2`")[1].split("###")[0]
    assert "No printed claim of this paper was refuted" in errata.render_sheet(_synthetic(), "001")


def test_errata_write_reads_the_witness_from_the_artefact(tmp_path):
    results = _synthetic()
    (tmp_path / "counterexamples").mkdir()
    (tmp_path / "counterexamples" / "000_lemma-2.json").write_text(
        json.dumps({"replay": {"type": "scalar", "relation": "x <= 1", "point": {"x": "3/2"}}}))
    written = errata.write(results, tmp_path)
    assert [p.name for p in written] == ["000.md", "001.md"]
    sheet = (tmp_path / "errata" / "000.md").read_text()
    assert '- **witness:** {"point": {"x": "3/2"}, "relation": "x <= 1"}' in sheet
    assert "](../counterexamples/000_lemma-2.json)" in sheet


def test_report_counts_defect_classes_and_flags_an_unclassified_refutation():
    results = _synthetic()
    results["claims"].append(_result("000:lemma-4", "refuted", cx="c.json"))
    text = report.render(results)
    assert "| substantive | slip | domain | extraction |" in text
    assert "| 000 | AIOLI | 1 | 4 | 2 | 0 | 0 | 7 | 1 | 1 | 1 | 0 |" in text
    assert "**Warning:** 1 refuted claim(s) without a defect class: `000:lemma-4`." in text
    assert text.index("## Errata") < text.index("## What the statuses mean")
    assert "**1 not classified**" in text


@pytest.mark.skipif(not COMMITTED.exists(), reason="no committed report")
def test_errata_of_the_committed_report_show_every_printed_refutation_once():
    data, claims = _committed_through_current_summary()
    data["claims"] = claims
    sheets = {seed: errata.render_sheet(data, seed) for seed in ("000", "001", "002", "003", "004")}
    printed = [c for c in claims if c["status"] == "refuted" and not c.get("variant_of")]
    for c in printed:
        inherited = c["defect_reason"].startswith("inherited from")
        assert sheets[c["id"][:3]].count(f"### `{c['id']}`") == (0 if inherited else 1), c["id"]
    assert "`003:algorithm-2`" in sheets["003"].split("## Extraction")[1]
    assert "`002:theorem-4.5`" in sheets["002"].split("## Slips")[0]


# --------------------------------------------------------------------------- the new variants are decided
def test_the_added_variants_are_decided_and_the_printed_readings_refuted(tmp_path):
    ctx = Context(out_dir=tmp_path, quick=True)
    for cid in corrected_variants.variant_ids():
        claim = registry.get(cid)
        outcome = claim.check(ctx)
        expected = ("refuted",) if claim.defect else ("proved", "verified")
        assert outcome.status in expected, (cid, outcome.status, outcome.evidence)
        if outcome.status == "proved":
            assert "not_proved_because" not in outcome.evidence


def test_the_appendix_d_comparison_rejects_the_printed_formula(tmp_path, monkeypatch):
    """False input: App. D as printed (S_t in every term of Γ) must not come out verified."""
    import numpy as np

    from olr_verify.hunting.numerics import MP

    def printed(X, G, alpha):
        d, out = len(X[0]), []
        for t in range(len(X)):
            P = MP.pinv_sym(sum((np.outer(X[q], X[q]) for q in range(t + 1)), MP.zeros((d, d))))
            h = sum((-G[q] * X[q] for q in range(t)), MP.zeros(d))
            gamma = sum((G[q] ** 2 * (X[q] @ P @ X[q]) for q in range(t)), MP.num(0))
            out.append(MP.exp((h @ P @ h - gamma) / (2 * alpha)) / alpha * (X[t] @ P @ h))
        return out

    ctx = Context(out_dir=tmp_path, quick=False)
    assert corrected_variants.algorithm_2_appendix_d_corrected(ctx).status == "verified"
    monkeypatch.setattr(corrected_variants, "_appendix_d_from_sums", printed)
    assert corrected_variants.algorithm_2_appendix_d_corrected(ctx).status == "inconclusive"


def test_the_summed_potential_check_fails_on_a_sequence_that_breaks_it(tmp_path, monkeypatch):
    """002:claim-21/corrected is a declared hunt: with its run quantity sum_t g_t x_t^T w_t raised by 1 the summed
    potential exceeds 1 on every run, and the hunt (float64, then the 50/80-digit twin) refutes it."""
    from olr_verify.hunting import run_quantities as rq

    provider, why = rq.QUANTITIES["gradient"]["sum_g_yhat"][0], rq.QUANTITIES["gradient"]["sum_g_yhat"][2]
    monkeypatch.setitem(rq.QUANTITIES["gradient"], "sum_g_yhat", (lambda s, r, u, K: provider(s, r, u, K) + 1, False, why))
    out = registry.get("002:claim-21/corrected").check(Context(out_dir=tmp_path, quick=True))
    assert out.status == "refuted", out.evidence.get("best_ratio")


CRASHES = ("ZeroDivisionError", "TypeError", "AttributeError", "KeyError", "IndexError", "NameError",
           "UnboundLocalError", "RecursionError", "AssertionError")


def prover_crashes(evidence) -> list[str]:
    """The ``prover`` entries of an evidence tree that record a crash of the prover (an exception of a bug class,
    not a refusal such as ``Unsupported``): the link then fell back to the float search without anyone noticing."""
    found = []
    if isinstance(evidence, dict):
        said = evidence.get("prover")
        if isinstance(said, str) and said.startswith("raised ") and said.split()[1].rstrip(":") in CRASHES:
            found.append(f"{evidence.get('relation')}: {said[:120]}")
        for value in evidence.values():
            found += prover_crashes(value)
    elif isinstance(evidence, list):
        for value in evidence:
            found += prover_crashes(value)
    return found


def test_a_crash_of_the_prover_is_found_in_an_evidence_tree():
    ev = {"links": {"a": {"relation": "1-u <= log(1/u)", "prover": "raised ZeroDivisionError: 0.0 cannot be raised"},
                    "b": {"relation": "x <= 1", "prover": "raised Unsupported: Heaviside"}}}
    assert prover_crashes(ev) == ["1-u <= log(1/u): raised ZeroDivisionError: 0.0 cannot be raised"]


@pytest.mark.skipif(not COMMITTED.exists(), reason="no committed report")
def test_the_committed_report_shows_no_crash_of_the_prover():
    data = json.loads(COMMITTED.read_text(encoding="utf-8"))
    crashes = {c["id"]: prover_crashes(c["evidence"]) for c in data["claims"]}
    assert not {k: v for k, v in crashes.items() if v}

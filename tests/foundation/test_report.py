"""REPORT.md is a pure function of results.json."""
from olr_verify import report


def _results():
    claim = {"title": "t", "kind": "scalar-inequality", "seconds": 0.5, "statement": "$x\\le 1$",
             "domain": "$x<1$", "source": "§1", "notes": "", "variant_of": ""}
    return {"generated": "2026-11-23T00:00:00+00:00", "version": "0.1.0", "seconds": 3.0,
            "papers": {"000": {"title": "AIOLI", "authors": "A, B", "notes": ""},
                       "004": {"title": "EKF", "authors": "C", "notes": "formulas lost"}},
            "claims": [
                {**claim, "id": "000:lemma-5", "status": "proved", "method": "arb", "evidence": {"boxes": 12},
                 "counterexample": None},
                {**claim, "id": "000:lemma-8", "status": "refuted", "method": "search",
                 "evidence": {"slack": -0.25, "figures": [{"path": "figures/l8.png", "caption": "slack map"}]},
                 "counterexample": "counterexamples/000_lemma-8.json"},
                {**claim, "id": "004:claim-1", "status": "inconclusive", "method": "none",
                 "evidence": {"reason": "no check yet"}, "counterexample": None},
            ]}


def test_rendering_is_deterministic():
    assert report.render(_results()) == report.render(_results())


def test_summary_table_counts_each_status_per_seed():
    text = report.render(_results())
    assert "| 000 | AIOLI | 1 | 1 | 0 | 0 | 0 | 2 |" in text
    assert "| 004 | EKF | 0 | 0 | 0 | 1 | 0 | 1 |" in text
    assert "| **all** | | **1** | **1** | **0** | **1** | **0** | **3** |" in text


def test_refuted_claims_come_first_with_their_counterexample_and_figures():
    text = report.render(_results())
    section = text.split("## 000 — AIOLI", 1)[1]
    assert section.index("`000:lemma-8`") < section.index("`000:lemma-5`")
    assert "olr-verify replay counterexamples/000_lemma-8.json" in text
    assert "![slack map](figures/l8.png)" in text
    assert "Refuted claims at a glance" in text


def test_source_caveats_and_missing_checks_are_visible():
    text = report.render(_results())
    assert "> **Source caveat.** formulas lost" in text
    assert "none — no check yet" in text


def test_summary_table_counts_defect_classes_and_warns_of_an_unclassified_refutation():
    text = report.render(_results())
    assert "| 000 | AIOLI | 1 | 1 | 0 | 0 | 0 | 2 | 0 | 0 | 0 | 0 |" in text
    assert "**Warning:** 1 refuted claim(s) without a defect class: `000:lemma-8`." in text
    results = _results()
    results["claims"][1].update(defect="slip", defect_reason="a dropped factor")
    text = report.render(results)
    assert "| 000 | AIOLI | 1 | 1 | 0 | 0 | 0 | 2 | 0 | 1 | 0 | 0 |" in text
    assert "Warning" not in text
    assert "- **defect:** slip — a dropped factor" in text
    assert "- `000:lemma-8` (t) — **slip**;" in text


def test_a_parent_over_a_false_printed_step_says_both_in_its_row_and_details():
    results = _results()
    results["claims"][0]["refuted_parts"] = ["000:lemma-5/step-2"]
    text = report.render(results)
    assert "| ✅ proved — printed proof step `000:lemma-5/step-2` false |" in text
    assert "#### `000:lemma-5` — t: ✅ proved — printed proof step `000:lemma-5/step-2` false" in text


def test_the_errata_section_comes_before_the_details():
    text = report.render(_results())
    assert text.index("## Errata") < text.index("## 000 — AIOLI")
    assert "### Errata — 000: AIOLI" in text

"""A claim checked on a strict part of its printed domain (`restricted`) is also decided on the printed domain when
the folder gives it as a table (`restricted.printed_table`): a counterexample outside the restricted range refutes the
claim, a proof there proves it, and otherwise the restricted verdict stands with the printed-domain search beside it.
Before this, a restricted claim could not fail outside the range it was proved on."""
from __future__ import annotations

from pathlib import Path

import pytest

from olr_verify import registry
from olr_verify.outcome import Context
from olr_verify.paper_folder import PaperError, _check_shapes, _node

RESTRICTED = {"proved_on": "x in [0, 1]", "printed": "x >= 0"}


@pytest.fixture
def ctx(tmp_path):
    registry.load_checks()
    return Context(out_dir=Path(tmp_path), quick=True)


def _decide(ctx, relation, domain, table):
    entry = {"relation": relation, "domain": domain, "restricted": {**RESTRICTED, "printed_table": table}}
    return _node(entry, "t:lemma-1")(ctx)


@pytest.mark.parametrize("relation, table, witness_var", [
    ("x**2 <= 1", {"x": ["0", "oo"]}, "x"),  # false just past the restricted range
    ("x <= 10**6 + 1", {"x": ["0", "oo"]}, "x"),  # false only far in the tail
    ("exp(-x) > 0", {"x": ["0", "oo"], "y": ["0", "1"]}, None),  # holds: decided, not refuted
])
def test_a_restricted_relation_is_decided_on_its_printed_table(ctx, relation, table, witness_var):
    out = _decide(ctx, relation, {"x": ["0", "1"]} if "y" not in table else {"x": ["0", "1"], "y": ["0", "1"]}, table)
    if witness_var is None:
        assert out.status in ("proved", "verified"), out.evidence
        assert out.evidence["restricted_status" if out.status == "proved" else "proved_on"]
    else:
        assert out.status == "refuted", out.evidence
        assert out.counterexample is not None and out.evidence["restricted_status"] == "proved"


def test_a_restricted_relation_proved_on_the_printed_table_is_proved(ctx):
    out = _decide(ctx, "x/(1+x) <= 1", {"x": ["0", "1"]}, {"x": ["0", "oo"]})
    assert out.status == "proved" and out.certificate is not None
    assert out.evidence["proved_on"] == "x in [0, 1]"


def test_an_undecided_printed_table_keeps_the_restricted_verdict_and_says_what_was_tried(ctx):
    # true on [0, 1] (proved there) and on the printed range, where no certificate is expected in quick mode
    out = _decide(ctx, "log((exp(-z/2)+exp(z/2))/2) - z**2/(16*D) >= 0", {"D": ["2", "3"], "z": ["-D", "D"]},
                  {"D": ["2", "oo"], "z": ["-D", "D"]})
    assert out.status in ("verified", "proved")
    if out.status == "verified":
        assert out.evidence["on_printed_domain"]["status"] in ("verified", "inconclusive")


@pytest.mark.parametrize("entry, message", [
    ({"links": [{"relation": "x >= 0", "domain": {"x": ["0", "1"]}}],
      "restricted": {**RESTRICTED, "printed_table": {"x": ["0", "oo"]}}}, "for a relation on a domain table only"),
    ({"relation": "x >= 0", "domain": {"x": ["0", "1"]}, "restricted": {**RESTRICTED, "printed_table": "x >= 0"}},
     "domain must be a table"),
    ({"relation": "x >= 0", "domain": {"x": ["0", "1"]}, "restricted": {**RESTRICTED, "table": {}}},
     "restricted must be"),
])
def test_a_malformed_printed_table_is_an_error_that_names_it(entry, message):
    with pytest.raises(PaperError, match=message):
        _check_shapes({**entry, "id": "t:lemma-1", "check_kind": "chain" if "links" in entry else "scalar-inequality",
                       "statement": "s"}, "t:lemma-1")


def test_the_seed_relations_proved_on_a_box_carry_their_printed_table():
    import tomllib

    entries = {c["id"]: c for p in Path(registry.__file__).parent.joinpath("papers").rglob("paper.toml")
               for c in tomllib.loads(p.read_text(encoding="utf-8"))["claim"]}
    for cid in ("000:equation-25", "000:claim-2", "000:equation-8", "003:lemma-12/case-0"):
        table = entries[cid]["restricted"]["printed_table"]
        assert set(table) == set(entries[cid]["domain"]), cid

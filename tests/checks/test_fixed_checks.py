"""The checks of issue 14 that could not fail, each fed a false variant (and its printed form beside it)."""
from pathlib import Path

import pytest

from olr_verify.outcome import Context

PASSING = ("proved", "verified")
S001 = Path(__file__).resolve().parents[2] / "olr_verify" / "papers" / "s001_gaf"


@pytest.fixture
def ctx(tmp_path):
    return Context(out_dir=tmp_path, quick=True)


def _s001(claim_id: str) -> dict:
    from olr_verify import paper_folder

    return next(e for e in paper_folder.read(S001)[1] if e["id"] == claim_id)


def _planted(entry: dict, label_start: str, ctx, **changes):
    """The verdict of ``entry`` with one link (found by its label) changed."""
    from olr_verify import paper_folder

    links = [dict(link, **changes) if link["label"].startswith(label_start) else link for link in entry["links"]]
    assert links != entry["links"], label_start
    return paper_folder.declarative_check({**entry, "links": links}, "planted")(ctx)


def test_claim_5_fails_when_m_is_too_small(ctx):
    from olr_verify.registry import get

    assert get("001:claim-5").check(ctx).status == "verified"  # a Chernoff-based order statement: never proved
    # m = n log(n/delta): n eps = sqrt(8 n/c) grows with n, so it is not O(1)
    m_n = "n*sqrt(8*L/((n*L)*c))"
    assert _planted(_s001("001:claim-5"), "total deviation", ctx, lhs=m_n).status not in PASSING


def test_assumption_a2_squared_refutes_a_wrong_hessian_weight(ctx):
    from olr_verify.registry import get

    assert get("001:assumption-a2/squared").check(ctx).status in PASSING
    assert _planted(_s001("001:assumption-a2/squared"), "(A2)", ctx, relation="1/4*exp(z) > 1").status == "refuted"


def test_figure_2_is_not_verified_when_a_curve_has_the_wrong_shape(ctx, monkeypatch):
    from olr_verify.papers.s000_aioli import figure2_experiment as e
    from olr_verify.experiments import figure2_000

    good = {"n": [100, 300, 1000], "regret": {"FTRL": [5.0, 9.0, 15.0], "AIOLI": [1.0, 1.2, 1.3],
                                               "Foster et al.": [0.5, 0.6, 0.6]},
            "max_comparator_gap": 0.0, "seconds": {"FTRL": 0.0, "AIOLI": 0.0, "Foster et al.": 0.0}}
    monkeypatch.setattr(figure2_000, "plot", lambda *a, **k: None)
    monkeypatch.setattr(e, "_run", lambda ctx: good)
    assert e.figure_2(ctx).status == "verified"
    flat = {**good, "regret": {**good["regret"], "FTRL": [5.0, 5.0, 5.0]}}  # FTRL claimed polynomial
    monkeypatch.setattr(e, "_run", lambda ctx: flat)
    out = e.figure_2(ctx)
    assert out.status not in PASSING and "FTRL" in out.evidence["reason"]
    steep = {**good, "regret": {**good["regret"], "AIOLI": [1.0, 100.0, 10000.0]}}  # AIOLI claimed poly-log
    monkeypatch.setattr(e, "_run", lambda ctx: steep)
    assert e.figure_2(ctx).status not in PASSING


def test_theorem_4_2_reduction_refutes_a_wrong_scale_and_a_wrong_sign(ctx):
    from olr_verify import paper_folder
    from olr_verify.papers import s002_scale_invariant

    _, entries = paper_folder.read(Path(s002_scale_invariant.__file__).parent)
    entry = next(e for e in entries if e["id"] == "002:theorem-4.2/reduction")
    general, scale = entry["links"][0], entry["links"][1]
    assert general["let"]["h"] == "-(X*g)" and scale["lhs"] == "(beta*sqrt(2/T))**2*(T/2)"

    def decide(links):
        return paper_folder.declarative_check({**entry, "id": "x", "links": links}, "variant")(ctx)

    assert decide(entry["links"]).status == "verified"  # matrix identities at fixed sizes: never proved for every d
    wrong_scale = {**scale, "lhs": "(beta*sqrt(1/T))**2*(T/2)"}  # c = beta sqrt(1/T)
    assert decide([general, wrong_scale]).status == "refuted"
    wrong_sign = {**general, "let": {**general["let"], "h": "X*g"}}  # h_T = +sum g_t x_t
    assert decide([wrong_sign]).status not in PASSING


def test_theorem_4_2_remaining_trials_refutes_a_wrong_sherman_morrison_chain(ctx):
    from pathlib import Path

    from olr_verify import paper_folder
    from olr_verify.papers import s002_scale_invariant

    _, entries = paper_folder.read(Path(s002_scale_invariant.__file__).parent)
    chain = next(e for e in entries if e["id"] == "002:theorem-4.2/remaining-trials")["links"][0]  # the SM chain
    d2 = chain["links"][0]  # d = 2, as declared
    assert d2["rhs"] == "(a - 2*g*b + g**2*c) - (b - g*c)**2/(1 + c)"

    def decide(link):
        entry = {"id": "x", "check_kind": "chain", "statement": "SM chain, d = 2", "symbols": chain["symbols"],
                 "links": [link]}
        return paper_folder.declarative_check(entry, "variant")(ctx)

    assert decide({**d2, "rhs": d2["rhs"].replace("(1 + c)", "(2 + c)")}).status == "refuted"
    printed = decide(d2)
    assert printed.status == "verified"  # a matrix identity at a fixed size: never proved for every d


def _theorem_1_proof_steps(success="3/4", gap="1/4", const=16):
    """Steps 1 and 2 of 003:theorem-1/proof as declared in s003_hkl/paper.toml, with the printed numbers replaced."""
    return [{"relation": f"P - Q >= {gap}", "domain": {"P": [success, "1"], "Q": ["0", f"1 - {success}"]}},
            {"lhs": f"({gap})**2*p/eps**2", "rhs": f"p/({const}*eps**2)",
             "domain": {"p": ["1/100", "1"], "eps": ["1/100", "1/2"]}}]


def test_theorem_1_proof_steps_are_the_declared_ones():
    from pathlib import Path

    from olr_verify import paper_folder
    from olr_verify.papers import s003_hkl

    _, entries = paper_folder.read(Path(s003_hkl.__file__).parent)
    links = next(e for e in entries if e["id"] == "003:theorem-1/proof")["links"]
    fields = ("relation", "lhs", "rhs", "domain")
    assert [{k: v for k, v in link.items() if k in fields} for link in links[:2]] == _theorem_1_proof_steps()


@pytest.mark.parametrize("variant", [{"gap": "3/4"}, {"const": 4}, {"success": "1/2", "gap": "1/4"}])
def test_theorem_1_proof_refutes_false_steps(ctx, variant):
    from olr_verify import paper_folder

    entry = {"id": "003:theorem-1/proof", "check_kind": "chain", "statement": "variant",
             "links": _theorem_1_proof_steps(**variant)}
    assert paper_folder.declarative_check(entry, "variant")(ctx).status == "refuted"
    assert paper_folder.declarative_check({**entry, "links": _theorem_1_proof_steps()}, "printed")(ctx).status in PASSING


def test_theorem_1_proof_is_no_stronger_than_lemma_16(ctx):
    from olr_verify import registry

    out = registry.get("003:theorem-1/proof").check(ctx)
    assert out.status == "verified"  # steps proved, Lemma 16 verified on exact binomial laws
    assert {v["status"] for v in out.evidence["links"].values()} == {"proved", "verified"}


def test_identities_with_a_fallback_artefact_are_decided_by_identity(ctx):
    """001:equation-22, 001:equation-26, 001:assumption-a3/squared no longer type a `0 == 1` artefact."""
    from olr_verify import registry

    for cid in ("001:equation-22", "001:assumption-a3/squared"):
        out = registry.get(cid).check(ctx)
        assert out.status == "proved" and "certificate" in out.evidence, cid

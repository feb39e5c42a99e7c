"""The claim registry: complete, well-formed, queryable."""
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from olr_verify import registry

PAPERS = Path(__file__).resolve().parents[3] / "shared" / "papers"


def test_every_claim_id_follows_the_contract_format():
    for c in registry.claims():
        registry.validate_id(c.id)
        assert c.kind in registry.KINDS


def test_claim_ids_are_unique_and_every_check_names_a_registered_claim():
    ids = [c.id for c in registry.claims()]
    assert len(ids) == len(set(ids))
    registry.load_checks()
    assert set(registry._CHECKS) <= set(ids)


def test_all_five_papers_are_registered_with_titles_and_claims():
    papers = registry.papers()
    assert sorted(papers) == ["000", "001", "002", "003", "004"]
    for seed in papers:
        assert papers[seed].title and papers[seed].authors
        assert registry.select(seed=seed), seed


@pytest.mark.skipif(not PAPERS.exists(), reason="shared/papers not beside the clone")
def test_every_item_of_the_papers_claims_lists_is_registered():
    registered = {c.id for c in registry.claims()}
    for md in sorted(PAPERS.glob("00[0-4]_*.md")):
        listed = md.read_text(encoding="utf-8").split("## Claims to check", 1)[1]
        ids = re.findall(r"^\d+\.\s+(?:`([^`]+)`|\*\*([^*]+)\*\*)", listed, flags=re.M)
        ids = {a or b for a, b in ids}
        assert ids, md.name
        assert ids <= registered, sorted(ids - registered)


def test_claims_carry_statement_kind_and_source():
    for c in registry.claims():
        assert c.statement.strip(), c.id
        assert c.check_kind.strip(), c.id
        assert c.source.strip(), c.id


def test_corrected_variants_point_at_a_registered_printed_claim():
    ids = {c.id for c in registry.claims()}
    for c in registry.claims():
        if c.variant_of:
            assert c.variant_of in ids, c.id


def test_reconstructed_004_items_say_so():
    notes = {c.id: c.notes for c in registry.select(seed="004")}
    assert "reconstruction" in notes["004:claim-17"]
    assert "lost" in notes["004:theorem-1"]
    assert registry.papers()["004"].notes


def test_select_by_glob_and_by_parent_id():
    lemma5 = registry.select("000:lemma-5")
    assert lemma5[0].id == "000:lemma-5"
    assert all(c.id == "000:lemma-5" or c.parent == "000:lemma-5" for c in lemma5)
    assert len(lemma5) > 1
    assert {c.seed for c in registry.select("002:*")} == {"002"}
    assert all(c.kind == "lemma" for c in registry.select(kind="lemma"))


@pytest.mark.parametrize("bad", ["000:lemma5", "000:lemmas-5", "000:Lemma-5", "Demo:lemma-1", "-x:lemma-1",
                                 "_x:lemma-1", "de mo:lemma-1", "demo:wish-1", ":lemma-1"])
def test_malformed_ids_are_rejected(bad):
    with pytest.raises(ValueError, match="claim id"):
        registry.validate_id(bad)


@pytest.mark.parametrize("good", ["006:lemma-1", "demo:theorem-6", "my-paper_2:lemma-a.1/case-0"])
def test_any_paper_key_is_a_valid_id(good):
    registry.validate_id(good)  # a paper folder's key (CONTRACT: [a-z0-9][a-z0-9_-]*)


def test_the_five_seeds_are_paper_folders_read_by_the_one_loader():
    folders = sorted(p.parent for p in registry.PAPERS_DIR.glob("s*/paper.toml"))
    assert [f.name[:4] for f in folders] == ["s000", "s001", "s002", "s003", "s004"]
    for folder in folders:
        data = tomllib.loads((folder / "paper.toml").read_text(encoding="utf-8"))
        key = data["paper"]["key"]
        assert folder.name[1:4] == key
        assert all(c["id"].startswith(key + ":") for c in data["claim"])
    assert sum(len(registry.select(seed=f.name[1:4])) for f in folders) == len(registry.claims())


def test_the_list_command_prints_every_claim():
    out = subprocess.run([sys.executable, "-m", "olr_verify.cli", "list", "--results", "/nonexistent.json"],
                         capture_output=True, text=True, check=True)
    lines = [ln for ln in out.stdout.splitlines() if ln.strip()]
    assert len(lines) == len(registry.claims())
    filtered = subprocess.run([sys.executable, "-m", "olr_verify.cli", "list", "--seed", "002", "--kind", "lemma",
                               "--results", "/nonexistent.json"], capture_output=True, text=True, check=True)
    assert all(ln.startswith("002:lemma-") for ln in filtered.stdout.splitlines())


def test_seed_claims_declared_as_data_are_decided_by_their_paper_toml():
    """A seed claim with decision fields in its paper.toml has no Python check (two checks would be an error). Every
    seed claim is built here eagerly, as a --paper folder is at load: the registry defers this reading for the seeds
    (test below), so a malformed expression of a seed is caught here."""
    from olr_verify import paper_folder

    declared = []
    for path in sorted(registry.PAPERS_DIR.glob("s*/paper.toml")):
        for entry in tomllib.loads(path.read_text(encoding="utf-8"))["claim"]:
            if paper_folder.declarative_check(entry, entry["id"]) is not None:
                declared.append(entry["id"])
    assert len(declared) >= 168  # issue 17: the data-shaped checks of the seeds (two need series/limit/integrate: Python)
    for cid in declared:
        assert registry.get(cid).check.__module__ == "olr_verify.paper_folder", cid


def test_loading_the_seed_folders_reads_no_expression_until_a_claim_is_decided(monkeypatch, tmp_path):
    """Reading every seed expression with sympy took 12 s at each start of olr-verify (``list`` included): the seed
    folders' declared checks are built at their first decision, and a --paper folder is still read whole at load."""
    from olr_verify import expr
    from olr_verify.outcome import Context

    reads = []
    real = expr.parse_any
    monkeypatch.setattr(expr, "parse_any", lambda *a, **k: reads.append(a[0]) or real(*a, **k))
    folder = registry.PAPERS_DIR / "s002_scale_invariant"
    _, found, declared = registry._load_folder(folder, deferred=True)
    assert len(declared) >= 30 and reads == []
    claim = next(c for c in found if c.check_kind == "scalar-inequality" and c.id in declared)
    assert declared[claim.id](Context(out_dir=tmp_path, quick=True)).status in {"proved", "verified", "refuted", "inconclusive"}
    assert reads
    reads.clear()
    registry._load_folder(folder)
    assert len(reads) > 100


def test_a_deferred_malformed_expression_fails_its_decision_not_silently(tmp_path):
    from olr_verify import paper_folder
    from olr_verify.outcome import Context

    entry = {"id": "z:lemma-1", "check_kind": "scalar-inequality", "statement": "s", "relation": "x <= ",
             "domain": {"x": ["0", "1"]}}
    decide = paper_folder.deferred_check(entry, "z:lemma-1")
    with pytest.raises(paper_folder.PaperError):
        decide(Context(out_dir=tmp_path, quick=True))
    with pytest.raises(paper_folder.PaperError):
        paper_folder.declarative_check(entry, "z:lemma-1")

"""A paper as a folder: paper.toml decided with no Python (scalar, identity, chain, regret-bound)."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from olr_verify import artefacts, registry
from olr_verify.outcome import Context
from olr_verify.paper_folder import PaperError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "short-note"


def _paper(tmp_path: Path, claims: str, key: str = "t") -> Path:
    (tmp_path / "paper.toml").write_text(
        f'[paper]\nkey = "{key}"\ntitle = "T"\nauthors = "A"\n\n' + textwrap.dedent(claims), encoding="utf-8")
    return tmp_path


def _decide(claim_id: str, tmp_path: Path):
    return registry.get(claim_id).check(Context(out_dir=tmp_path, quick=True))


def test_example_folder_is_decided_without_python(fresh_registry, tmp_path):
    assert not list(EXAMPLE.glob("*.py"))
    fresh_registry.add_paper(EXAMPLE)
    ids = [c.id for c in fresh_registry.select("demo:*")]
    assert ids == ["demo:lemma-1", "demo:lemma-2", "demo:lemma-3", "demo:equation-4", "demo:lemma-5",
                   "demo:theorem-6"]
    status = {i: _decide(i, tmp_path).status for i in ids}
    assert status["demo:lemma-3"] == "refuted"  # the false lemma of the example
    assert status["demo:equation-4"] == status["demo:lemma-2"] == "proved"
    assert status["demo:theorem-6"] == "verified"
    assert all(s in ("proved", "verified") for i, s in status.items() if i != "demo:lemma-3")


def test_false_regret_bound_is_refuted_and_replays(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:theorem-1"
        check_kind = "regret-bound"
        statement = "a bound 50 times too small"
        learner = "OGD"
        learner_params = { B = "B", R = "R" }
        bound = "B*R*sqrt(n)/50"
        params = { B = ["1/10", "10"], R = ["1/2", "2"], n = ["1", "200"], d = ["1", "3"] }
    ''')
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:theorem-1", tmp_path)
    assert out.status == "refuted"
    path = artefacts.write(out.counterexample, tmp_path / "cx", "t:theorem-1")
    assert artefacts.replay(path)[0]
    art = json.loads(path.read_text())
    art["replay"]["point"]["B"] = "100"  # outside the declared range
    path.write_text(json.dumps(art))
    assert not artefacts.replay(path)[0]


def test_chain_is_refuted_by_one_false_link(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "chain"
        statement = "two links, the second false at x = 1"
        links = [ { lhs = "(x + 1)**2", rhs = "x**2 + 2*x + 1", domain = { x = ["0", "1"] } },
                  { relation = "x**2 <= x - 1/100", domain = { x = ["0", "1"] } } ]
    ''')
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:lemma-1", tmp_path)
    assert out.status == "refuted" and out.evidence["refuted_link"] == "link-2"


def test_false_identity_is_refuted(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:equation-1"
        check_kind = "identity"
        statement = "a dropped factor 2"
        lhs = "(x + 1)**2"
        rhs = "x**2 + x + 1"
        domain = { x = ["-1", "1"] }
    ''')
    fresh_registry.add_paper(tmp_path)
    assert _decide("t:equation-1", tmp_path).status == "refuted"


@pytest.mark.parametrize("body, message", [
    ('id = "other:lemma-1"\ncheck_kind = "identity"\nstatement = "s"\nlhs = "x"\nrhs = "x"\n'
     'domain = { x = ["0", "1"] }', "paper key"),
    ('id = "t:lemma-1"\ncheck_kind = "scalar-inequality"\nstatement = "s"\n'
     'relation = "__import__(\'os\').system(\'touch pwned\') <= 1"\ndomain = { x = ["0", "1"] }', "may be called|not allowed"),
    ('id = "t:lemma-1"\ncheck_kind = "scalar-inequality"\nstatement = "s"\nrelation = "y <= 1"\n'
     'domain = { x = ["0", "1"] }', "y"),
    ('id = "t:lemma-1"\ncheck_kind = "identity"\nstatement = "s"\nlhs = "x"\nrhs = "x"\nwhatever = 1\n'
     'domain = { x = ["0", "1"] }', "unknown field"),
    ('id = "t:lemma-1"\ncheck_kind = "regret-bound"\nstatement = "s"\nlearner = "os"\nbound = "1"\n'
     'params = { B = ["1", "2"], n = ["1", "5"], d = ["1", "1"] }', "learner"),
    ('id = "t:wish-1"\ncheck_kind = "identity"\nstatement = "s"', "does not follow"),
])
def test_bad_folders_fail_with_a_clear_message(fresh_registry, tmp_path, body, message):
    _paper(tmp_path, "[[claim]]\n" + body + "\n")
    with pytest.raises(PaperError, match=message):
        fresh_registry.add_paper(tmp_path)
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()
    assert fresh_registry._FOLDERS == []


def test_bad_key_and_missing_file(fresh_registry, tmp_path):
    with pytest.raises(PaperError, match="no paper.toml"):
        fresh_registry.add_paper(tmp_path)
    _paper(tmp_path, '[[claim]]\nid = "Bad:lemma-1"\ncheck_kind = "identity"\nstatement = "s"\n', key="Bad")
    with pytest.raises(PaperError, match="key"):
        fresh_registry.add_paper(tmp_path)
    _paper(tmp_path, '[[claim]]\nid = "000:lemma-1"\ncheck_kind = "identity"\nstatement = "s"\n'
           'lhs = "x"\nrhs = "x + 0"\ndomain = { x = ["0", "1"] }\n', key="000")
    with pytest.raises(PaperError, match="already registered"):
        fresh_registry.add_paper(tmp_path)


def test_other_kinds_wait_for_a_python_check(fresh_registry, tmp_path):
    _paper(tmp_path, '[[claim]]\nid = "t:algorithm-1"\ncheck_kind = "algorithm-box"\nstatement = "s"\n')
    fresh_registry.add_paper(tmp_path)
    assert fresh_registry.get("t:algorithm-1").check is None  # reported "inconclusive: no check yet"
    (tmp_path / "checks.py").write_text(textwrap.dedent('''
        from olr_verify.outcome import Outcome
        from olr_verify.registry import check

        @check("t:algorithm-2")
        def box(ctx):
            return Outcome("verified", "a check written in the paper folder", {})
    '''))
    _paper(tmp_path, '[[claim]]\nid = "t:algorithm-2"\ncheck_kind = "algorithm-box"\nstatement = "s"\n', key="t")
    fresh_registry._FOLDERS.clear()
    with pytest.raises(PaperError, match="--allow-code"):  # a folder's code runs only when asked for
        fresh_registry.add_paper(tmp_path)
    fresh_registry.add_paper(tmp_path, listing=True)  # `olr-verify list` shows it without running it
    assert fresh_registry.get("t:algorithm-2").check is None
    fresh_registry._FOLDERS.clear()
    fresh_registry.add_paper(tmp_path, run_code=True)
    assert _decide("t:algorithm-2", tmp_path).status == "verified"


def test_restricted_proof_is_only_verified_and_a_false_one_is_still_refuted(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "scalar-inequality"
        statement = "x**2 >= 0 for every real x, checked on [0, 1]"
        relation = "x**2 >= 0"
        domain = { x = ["0", "1"] }
        restricted = { proved_on = "x in [0, 1]", printed = "x real" }

        [[claim]]
        id = "t:lemma-2"
        check_kind = "scalar-inequality"
        statement = "false: x**2 >= x on [0, 1]"
        relation = "x**2 >= x"
        domain = { x = ["0", "1"] }
        restricted = { proved_on = "x in [0, 1]", printed = "x real" }
    ''')
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:lemma-1", tmp_path)
    assert out.status == "verified" and out.evidence["proved_on"] == "x in [0, 1]"
    assert _decide("t:lemma-2", tmp_path).status == "refuted"


def test_symbols_carry_assumptions_and_nested_chains_keep_their_labels(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "chain"
        statement = "sqrt(s**2) = s for s > 0; then a false inner link"
        links = [
          { label = "root", lhs = "sqrt(s**2)", rhs = "s", domain = { s = ["1", "2"] }, symbols = { s = "positive" } },
          { label = "inner", links = [ { label = "false", relation = "s <= 1/2", domain = { s = ["0", "1"] } } ] },
        ]
    ''')
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:lemma-1", tmp_path)
    assert out.evidence["links"]["root"]["status"] == "proved"  # needs s > 0: sqrt(s**2) = |s| otherwise
    assert out.status == "refuted" and out.evidence["refuted_link"] == "inner > false"  # the whole path


def test_an_identity_of_free_symbols_takes_an_empty_domain_and_a_relation_does_not(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:equation-1"
        check_kind = "identity"
        statement = "Lagrange's identity, d = 2"
        lhs = "(a1**2 + a2**2)*(b1**2 + b2**2) - (a1*b1 + a2*b2)**2"
        rhs = "(a1*b2 - a2*b1)**2"
        domain = {}
        symbols = { a1 = "", a2 = "", b1 = "", b2 = "" }

        [[claim]]
        id = "t:equation-2"
        check_kind = "identity"
        statement = "a sign slip, free symbols"
        lhs = "(a1*b2 - a2*b1)**2"
        rhs = "(a1*b2 + a2*b1)**2"
        domain = {}
        symbols = { a1 = "", a2 = "", b1 = "", b2 = "" }
    ''')
    fresh_registry.add_paper(tmp_path)
    assert _decide("t:equation-1", tmp_path).status == "proved"
    assert _decide("t:equation-2", tmp_path).status == "refuted"  # the free symbols are sampled over the reals
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "scalar-inequality"
        statement = "s"
        relation = "1 <= 2"
        domain = {}
    ''')
    with pytest.raises(PaperError, match="domain must be a table"):
        fresh_registry.add_paper(tmp_path)


def test_undecided_claims_are_inconclusive_and_need_a_reason(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "undecided"
        statement = "lost in the source"
        inconclusive = { method = "none: statement lost", reason = "the formula is illegible" }
    ''')
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:lemma-1", tmp_path)
    assert (out.status, out.method, out.evidence) == ("inconclusive", "none: statement lost",
                                                      {"reason": "the formula is illegible"})


@pytest.mark.parametrize("body, message", [
    ('check_kind = "undecided"\ninconclusive = { method = "m" }', "reason"),
    ('check_kind = "identity"\nlhs = "s"\nrhs = "s"\ndomain = { s = ["0", "1"] }\nsymbols = { s = "prime" }',
     "assumptions"),
    ('check_kind = "chain"\nlinks = [ { relation = "x <= 1", domain = { x = ["0", "1"] }, colour = "red" } ]',
     "unknown link field"),
    ('check_kind = "scalar-inequality"\nrelation = "x <= 1"\ndomain = { x = ["0", "1"] }\nrestricted = "x"',
     "restricted"),
])
def test_bad_optional_fields_fail_with_a_clear_message(fresh_registry, tmp_path, body, message):
    _paper(tmp_path, '[[claim]]\nid = "t:lemma-1"\nstatement = "s"\n' + body + "\n")
    with pytest.raises(PaperError, match=message):
        fresh_registry.add_paper(tmp_path)


@pytest.mark.parametrize("x_range, assumption", [('["-2", "-1"]', "positive"), ('["0", "1"]', "positive"),
                                                  ('["0", "2"]', "nonnegative")])
def test_an_assumption_must_hold_on_the_domain(fresh_registry, tmp_path, x_range, assumption):
    """sqrt(x**2)*(y+1) == x*y + x is false for x in [-2, -1]; with x declared positive sympy read the left side
    as x*(y+1) and the kernel accepted that other identity (found by a hostile review). On [0, 2] it is true."""
    _paper(tmp_path, f'''
        [[claim]]
        id = "t:equation-1"
        check_kind = "identity"
        statement = "sqrt(x^2)(y+1) = xy + x"
        lhs = "sqrt(x**2)*(y + 1)"
        rhs = "x*y + x"
        domain = {{ x = {x_range}, y = ["0", "1"] }}
        symbols = {{ x = "{assumption}" }}
    ''')
    if assumption == "positive":  # even at one end: sign(0) is 0, not 1
        with pytest.raises(PaperError, match="positive"):
            fresh_registry.add_paper(tmp_path)
    else:
        fresh_registry.add_paper(tmp_path)
        assert _decide("t:equation-1", tmp_path).status == "proved"


@pytest.mark.parametrize("field, message", [('points = "many"', "points must be an integer"),
                                            ("depends_on = 3", "depends_on must be a list")])
def test_a_malformed_optional_field_is_one_clear_error(fresh_registry, tmp_path, field, message):
    _paper(tmp_path, f'''
        [[claim]]
        id = "t:equation-1"
        check_kind = "identity"
        statement = "s"
        lhs = "exp(x)"
        rhs = "exp(x + 0)"
        domain = {{ x = ["0", "1"] }}
        {field}
    ''')
    with pytest.raises(PaperError, match=message):
        fresh_registry.add_paper(tmp_path)


def test_the_documented_functions_are_searched_without_a_crash(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "scalar-inequality"
        statement = "s"
        relation = "Sigmoid(x) + Softplus(-x) - Softplus(x) + x <= 1 + Exprel(0, x)"
        domain = { x = ["-5", "5"] }
        search_only = true
    ''')
    fresh_registry.add_paper(tmp_path)
    assert _decide("t:lemma-1", tmp_path).status == "verified"


def test_a_constant_is_not_a_variable_name(fresh_registry, tmp_path):
    """y == E with E a variable: the identity sampler read the bound "E" as e = 2.718 and refuted a true claim."""
    _paper(tmp_path, '''
        [[claim]]
        id = "t:equation-1"
        check_kind = "identity"
        statement = "s"
        lhs = "y"
        rhs = "E"
        domain = { E = ["0", "1"], y = ["E", "E"] }
    ''')
    with pytest.raises(PaperError, match="may not be named E"):
        fresh_registry.add_paper(tmp_path)


def test_a_sign_assumption_outside_the_domain_is_refused_and_a_free_real_symbol_is_any_real(fresh_registry,
                                                                                          tmp_path):
    """sqrt(s**2)(s+1) == s**2 + s with s declared positive but outside the domain was proved with the certificate
    s*(s + 1) == s**2 + s for s in (-oo, oo): the assumption appeared nowhere. Now it is refused; with s a free
    real it is refuted at a negative s (the sampling used to skip free symbols, and crashed on real ones)."""
    claim = '''
        [[claim]]
        id = "t:equation-1"
        check_kind = "identity"
        statement = "sqrt(s^2)(s+1) = s^2 + s"
        lhs = "sqrt(s**2)*(s + 1)"
        rhs = "s**2 + s"
        domain = {{}}
        symbols = {{ s = "{0}" }}
    '''
    _paper(tmp_path, claim.format("positive"))
    with pytest.raises(PaperError, match="outside the domain"):
        fresh_registry.add_paper(tmp_path)
    _paper(tmp_path, claim.format("real"))
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:equation-1", tmp_path)
    assert out.status == "refuted" and out.evidence["point"]["s"].startswith("-")


def test_an_identity_certificate_states_the_sides_as_written(fresh_registry, tmp_path):
    """The kernel re-reads the printed sides (diff() and all), not sympy's reading of them, with the signs the
    domain gives: sqrt(x**2) == x is an identity on [1, 2] only."""
    _paper(tmp_path, '''
        [[claim]]
        id = "t:equation-1"
        check_kind = "identity"
        statement = "d/dx x^3 = 3x^2 and |x| = x for x >= 1"
        lhs = "diff(x**3, x) + sqrt(x**2)"
        rhs = "3*x**2 + x"
        domain = { x = ["1", "2"] }
        symbols = { x = "positive" }
    ''')
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:equation-1", tmp_path)
    assert out.status == "proved"
    assert (out.certificate["lhs"], out.certificate["rhs"]) == ("diff(x**3, x) + sqrt(x**2)", "3*x**2 + x")
    from olr_verify.kernel import check

    assert check(out.certificate).accepted
    assert not check({**out.certificate, "domain": [["x", "-2", "2"]]}).accepted


def test_an_identity_whose_sides_are_the_same_text_is_refused(fresh_registry, tmp_path):
    """43 seed links had been moved to data with the result of their Python computation as lhs (lhs = rhs =
    "delta/n" for 001 eq. (9)): they checked nothing. The loader refuses such an identity, at any depth."""
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "chain"
        statement = "s"
        links = [ { links = [ { lhs = "delta/n", rhs = " delta/n", domain = { delta = ["1", "2"], n = ["1", "2"] } } ] } ]
    ''')
    with pytest.raises(PaperError, match="same text"):
        fresh_registry.add_paper(tmp_path)


def test_a_link_may_reuse_another_claim_and_state_a_rational_fact(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "scalar-inequality"
        statement = "s"
        relation = "x**2 <= x"
        domain = { x = ["0", "1"] }

        [[claim]]
        id = "t:lemma-2"
        check_kind = "chain"
        statement = "Lemma 1 and a true fact"
        links = [ { claim = "t:lemma-1", label = "lemma 1" },
                  { relation = "(3/10)**2 + (9/10)**2 <= 1", domain = {}, label = "norm" } ]

        [[claim]]
        id = "t:lemma-3"
        check_kind = "chain"
        statement = "Lemma 1 and a false fact"
        links = [ { claim = "t:lemma-1" }, { relation = "(3/10)**2 + (9/10)**2 < 9/10", domain = {} } ]
    ''')
    fresh_registry.add_paper(tmp_path)
    lemma_1 = _decide("t:lemma-1", tmp_path)
    chained = _decide("t:lemma-2", tmp_path)
    assert lemma_1.status == chained.status == "proved"
    assert chained.evidence["links"]["lemma 1"]["status"] == "proved"
    from olr_verify.kernel import check, statement_sha256

    assert check(chained.certificate).accepted  # the fact's certificate is re-checked in fmpq by the kernel
    fact = chained.certificate["links"][1]["certificate"]
    tampered = {**fact, "relations": ["(3/10)**2 + (9/10)**2 <= 89/100"]}
    tampered["statement_sha256"] = statement_sha256(tampered)
    assert "false in exact arithmetic" in check(tampered).reason
    false = _decide("t:lemma-3", tmp_path)
    assert false.status == "refuted" and false.evidence["refuted_link"] == "link-2"
    path = artefacts.write(false.counterexample, tmp_path / "cx", "t:lemma-3")
    assert artefacts.replay(path)[0]  # 9/10 < 9/10 fails exactly


@pytest.mark.parametrize("links, message", [
    ('[ { claim = "t:lemma-9" } ]', "link claim 't:lemma-9' is not a claim"),
    ('[ { claim = "t:lemma-1" } ]', "cycle: t:lemma-1 -> t:lemma-1"),
    ('[ { claim = "t:lemma-2" } ]', "cycle: t:lemma-1 -> t:lemma-2 -> t:lemma-1"),
    ('[ { claim = "t:lemma-3", domain = { x = ["0", "1"] } } ]', "a claim link carries only"),
    ('[ { relation = "sqrt(2) <= 3/2", domain = {} } ]', "compares rational constants"),
])
def test_a_bad_claim_link_or_fact_is_one_clear_error(fresh_registry, tmp_path, links, message):
    _paper(tmp_path, f'''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "chain"
        statement = "s"
        links = {links}

        [[claim]]
        id = "t:lemma-2"
        check_kind = "chain"
        statement = "s"
        links = [ {{ claim = "t:lemma-1" }} ]

        [[claim]]
        id = "t:lemma-3"
        check_kind = "scalar-inequality"
        statement = "s"
        relation = "x <= 1"
        domain = {{ x = ["0", "1"] }}
    ''')
    with pytest.raises(PaperError, match=message):
        fresh_registry.add_paper(tmp_path)


def test_an_undecided_link_keeps_its_chain_inconclusive_and_the_other_links_are_checked(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:claim-1"
        check_kind = "chain"
        statement = "an order statement resting on a cited theorem"
        links = [ { lhs = "n/(sqrt(n)/B) + (sqrt(n)/B)*B**2", rhs = "2*B*sqrt(n)", domain = { n = ["1", "100"], B = ["1/10", "10"] }, label = "minimum" },
                  { inconclusive = { method = "cited result", reason = "cited theorem" }, label = "cited" } ]

        [[claim]]
        id = "t:claim-2"
        check_kind = "chain"
        statement = "the same with a wrong minimum"
        links = [ { lhs = "n/(sqrt(n)/B) + (sqrt(n)/B)*B**2", rhs = "B*sqrt(n)", domain = { n = ["1", "100"], B = ["1/10", "10"] } },
                  { inconclusive = { reason = "cited theorem" } } ]
    ''')
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:claim-1", tmp_path)
    assert out.status == "inconclusive" and out.evidence["links"]["minimum"]["status"] == "proved"
    assert _decide("t:claim-2", tmp_path).status == "refuted"  # a false checked link still refutes
    _paper(tmp_path, '''
        [[claim]]
        id = "t:claim-1"
        check_kind = "chain"
        statement = "s"
        links = [ { inconclusive = { reason = "r" }, relation = "x <= 1", domain = { x = ["0", "1"] } } ]
    ''')
    with pytest.raises(PaperError, match="an undecided link carries only"):
        fresh_registry.add_paper(tmp_path)


@pytest.mark.parametrize("link, message", [
    ('{ claim = "t:lemma-3", links = [ { relation = "1 < 2", domain = {} } ] }', "a claim link carries only"),
    ('{ inconclusive = { reason = "r" }, links = [ { relation = "1 < 2", domain = {} } ] }', "an undecided link carries"),
    ('{ relation = "1 < 2", domain = {}, search_only = true }', "a constant fact carries only"),
    ('{ relation = "1 < 2", domain = {}, lhs = "1", rhs = "1" }', "a constant fact carries only"),
])
def test_a_special_link_with_another_decision_field_is_refused(fresh_registry, tmp_path, link, message):
    _paper(tmp_path, f'''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "chain"
        statement = "s"
        links = [ {link} ]

        [[claim]]
        id = "t:lemma-3"
        check_kind = "scalar-inequality"
        statement = "false"
        relation = "x <= 1"
        domain = {{ x = ["0", "2"] }}
    ''')
    with pytest.raises(PaperError, match=message):
        fresh_registry.add_paper(tmp_path)


def test_shared_results_of_ids_that_differ_only_in_punctuation_are_kept_apart(tmp_path):
    from olr_verify.cache import shared

    ctx = Context(out_dir=tmp_path)
    assert shared(ctx, "claim-link-k:lemma-1/claim-2", lambda: "true one") == "true one"
    assert shared(ctx, "claim-link-k_lemma-1:claim-2", lambda: "false one") == "false one"


def test_a_link_cannot_dress_its_verdict_and_a_tiny_false_fact_replays_exactly(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "chain"
        statement = "s"
        links = [ { relation = "1 + 10**-100 <= 1", domain = {}, evidence = { status = "proved", method = "kernel" }, label = "tiny" },
                  { inconclusive = { reason = "r", status = "proved" }, label = "cited" } ]
    ''')
    fresh_registry.add_paper(tmp_path)
    out = _decide("t:lemma-1", tmp_path)
    assert out.status == "refuted"
    assert out.evidence["links"]["tiny"]["status"] == "refuted"
    assert out.evidence["links"]["cited"]["status"] == "inconclusive"
    path = artefacts.write(out.counterexample, tmp_path / "cx", "t:lemma-1")
    assert artefacts.replay(path)[0]  # exact, not within a 1e-40 tolerance


def test_a_linked_claim_that_fails_or_has_no_check_is_an_error_link_and_its_refutation_replays(fresh_registry,
                                                                                              tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "algorithm"
        statement = "a Python check that raises"

        [[claim]]
        id = "t:theorem-2"
        check_kind = "chain"
        statement = "a raising link and a false sibling"
        links = [ { claim = "t:lemma-1" }, { relation = "2 < 1", domain = {} } ]

        [[claim]]
        id = "t:theorem-3"
        check_kind = "chain"
        statement = "a raising link alone"
        links = [ { claim = "t:lemma-1" } ]

        [[claim]]
        id = "t:lemma-4"
        check_kind = "regret-bound"
        statement = "a bound 50 times too small"
        learner = "OGD"
        learner_params = { B = "B", R = "R" }
        bound = "B*R*sqrt(n)/50"
        params = { B = ["1/10", "10"], R = ["1/2", "2"], n = ["1", "200"], d = ["1", "3"] }

        [[claim]]
        id = "t:theorem-5"
        check_kind = "chain"
        statement = "refuted through its link"
        links = [ { claim = "t:lemma-4" } ]
    ''')
    (tmp_path / "raising_link_check.py").write_text(
        "from olr_verify.registry import check\n\n\n@check('t:lemma-1')\ndef raises(ctx):\n    raise RuntimeError('boom')\n",
        encoding="utf-8")
    fresh_registry.add_paper(tmp_path, run_code=True)
    assert _decide("t:theorem-2", tmp_path).status == "refuted"
    alone = _decide("t:theorem-3", tmp_path)
    assert alone.status == "error" and "RuntimeError: boom" in alone.evidence["links"]["link-1"]["reason"]
    out = _decide("t:theorem-5", tmp_path)
    assert out.status == "refuted"
    path = artefacts.write(out.counterexample, tmp_path / "cx", "t:theorem-5")
    confirmed, details = artefacts.replay(path)
    assert confirmed and details["claim"] == "t:lemma-4"  # bound to the linked claim's statement


def test_a_cycle_through_a_python_check_is_an_error_not_a_hang(fresh_registry, tmp_path):
    _paper(tmp_path, '''
        [[claim]]
        id = "t:lemma-1"
        check_kind = "algorithm"
        statement = "a Python check that decides the chain linking it"

        [[claim]]
        id = "t:theorem-2"
        check_kind = "chain"
        statement = "links t:lemma-1"
        links = [ { claim = "t:lemma-1" } ]

        [[claim]]
        id = "t:theorem-3"
        check_kind = "chain"
        statement = "a blank reason is no reason"
        links = [ { inconclusive = { reason = "   " } } ]
    ''')
    (tmp_path / "cycle_check.py").write_text(
        "from olr_verify.registry import check, decide\n\n\n@check('t:lemma-1')\ndef back(ctx):\n"
        "    return decide('t:theorem-2', ctx)\n", encoding="utf-8")
    with pytest.raises(PaperError, match="non-empty reason"):
        fresh_registry.add_paper(tmp_path, run_code=True)
    text = (tmp_path / "paper.toml").read_text(encoding="utf-8").replace('reason = "   "', 'reason = "cited"')
    (tmp_path / "paper.toml").write_text(text, encoding="utf-8")
    fresh_registry.add_paper(tmp_path, run_code=True)
    out = _decide("t:theorem-2", tmp_path)
    assert out.status == "error" and "cycle" in str(out.evidence["links"])

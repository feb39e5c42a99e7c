"""Seed 003 coverage checks: statuses known mathematically (quick budget)."""
from fractions import Fraction
from pathlib import Path

from olr_verify import registry
from olr_verify.artefacts import replay, write
from olr_verify.outcome import Context
from olr_verify.papers.s003_hkl import coin_bias as coverage_003_coins


def _ctx(tmp_path: Path) -> Context:
    return Context(out_dir=tmp_path, quick=True, seed=0)


def test_lemma_3_is_not_refuted_and_its_exact_links_are_proved(tmp_path):
    out = registry.get("003:lemma-3").check(_ctx(tmp_path))  # declared in s003_hkl/paper.toml
    assert out.status in ("proved", "verified")  # the prover's links depend on its time budget
    links = out.evidence["links"]
    assert links["exact decomposition of L_chi"]["status"] == "proved"
    eq6 = links["eq. (6): |h(z)| <= z^4/192"]  # the claim link to 003:equation-6
    monotone = eq6["links"]["monotonicity chain: |h(z)| <= z^4/192"]["links"]
    assert all(link["status"] == "proved" for label, link in monotone.items() if label[:2] in ("a:", "b:", "d:", "e:"))
    # sympy cannot close log(1+e^-z) - log 2 + z/2 == log cosh(z/2): 50-digit points only, so eq. (6) is not proved
    assert monotone["log(1+e^-z) - log2 + z/2 == log cosh(z/2)"]["status"] == "verified"
    assert eq6["status"] == "verified"


def test_figure_2_probabilities_go_negative_on_the_printed_domain_and_replay(tmp_path):
    out = registry.get("003:figure-2").check(_ctx(tmp_path))
    assert out.status == "refuted"
    path = write(out.counterexample, tmp_path / "cx", "003:figure-2")
    assert replay(path)[0]


def test_equation_9_identity_with_0_02_is_refuted(tmp_path):
    assert registry.get("003:equation-9").check(_ctx(tmp_path)).status == "refuted"


def test_total_variation_of_equal_binomials_is_zero_and_grows_with_m():
    p, e = Fraction(1, 3), Fraction(1, 10)
    assert coverage_003_coins.tv_binomial(5, p, Fraction(0)) == 0
    assert coverage_003_coins.tv_binomial(1, p, e) == e
    assert coverage_003_coins.tv_binomial(20, p, e) > coverage_003_coins.tv_binomial(5, p, e)


def test_theorem_1_bound_survives_exact_binomial_laws(tmp_path):
    assert coverage_003_coins.theorem_1(_ctx(tmp_path)).status == "verified"

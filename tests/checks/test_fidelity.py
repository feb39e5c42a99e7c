"""Checks that claimed more than they showed (hostile review of the committed report), each decided as printed and
fed a false variant that must fail: 003:equation-15, 003:claim-7, 000:lemma-3/step-7-8, 001:assumption-a2/squared,
002:claim-31, 000:lemma-3/step-9."""
from fractions import Fraction
from pathlib import Path

import pytest

from olr_verify import paper_folder
from olr_verify.outcome import Context

PAPERS = Path(__file__).resolve().parents[2] / "olr_verify" / "papers"
PASSING = ("proved", "verified")


@pytest.fixture
def ctx(tmp_path):
    return Context(out_dir=tmp_path, quick=True)


def _entry(folder: str, claim_id: str) -> dict:
    return next(e for e in paper_folder.read(PAPERS / folder)[1] if e["id"] == claim_id)


def _decide(entry: dict, ctx: Context):
    return paper_folder.declarative_check(entry, f"test {entry['id']}")(ctx)


def _with_link(entry: dict, label_start: str, **changes) -> dict:
    """The entry with one link (found by its label) changed: a planted false variant."""
    links = [dict(link, **changes) if str(link.get("label", "")).startswith(label_start) else link
             for link in entry["links"]]
    assert links != entry["links"], label_start
    return {**entry, "links": links}


# --------------------------------------------------------------------------- 1. 003:equation-15
def test_equation_15_printed_yq_gives_4_where_the_argmin_is_32_5():
    """Round 2, D = 2, 1/eta = 1, x_1 = -1, w_1 = 0: y_1 = -1/2, beta = 1/16. Eq. (4) on w >= 0 gives
    F_2 = -w/2 + w^2/128 + w^2/32, argmin 32/5; the printed y^q_1 = 2 y_1 gives -w/2 + w^2/16, argmin 4."""
    from olr_verify.papers.s003_hkl import closed_form_15 as m

    printed = m.compare([Fraction(-1)], [Fraction(0)], Fraction(2), Fraction(1), m._yq_printed)
    assert (printed["u_15"], printed["argmin_w>=0"], printed["exact"]) == ("4", "32/5", True)
    assert printed["u_differs"] and printed["form_differs"]
    corrected = m.compare([Fraction(-1)], [Fraction(0)], Fraction(2), Fraction(1), m._yq_first_case)
    assert corrected["u_15"] == "32/5" and not corrected["u_differs"] and not corrected["form_differs"]


def test_equation_15_is_refuted_as_printed_with_a_replayable_artefact_and_its_correction_survives(ctx, tmp_path):
    from olr_verify import artefacts, registry
    from olr_verify.papers.s003_hkl import closed_form_15 as m

    out = registry.get("003:equation-15").check(ctx)  # declared in s003_hkl/paper.toml
    assert out.status == "refuted" and out.counterexample["replay"]["point"] == {"D": "2", "etainv": "1", "x1": "-1"}
    ok, details = artefacts.replay(artefacts.write(out.counterexample, tmp_path, "003:equation-15"))
    assert ok and details["difference_exact"] == "-12/5"  # u_2 = 4 by the printed (15), argmin 32/5
    entry = _entry("s003_hkl", "003:equation-15")  # the same round under the corrected y^q is no counterexample
    corrected_yq = "y1 - y1*Piecewise((Piecewise((1, x1 >= 1/D), (0, True)), w1 >= 0), (0, True))"
    assert _decide({**entry, "let": {**entry["let"], "yq1": corrected_yq}}, ctx).status in PASSING
    assert m.equation_15_corrected(ctx).status == "verified"
    assert not m.replay_eq15(m._artefact("003:equation-15/corrected", [Fraction(-1)], [Fraction(0)], Fraction(2),
                                         Fraction(1), "printed"))[0]  # the module replays its own rule only


def test_equation_15_corrected_refutes_planted_errors(ctx, monkeypatch):
    from olr_verify.papers.s003_hkl import closed_form_15 as m

    monkeypatch.setattr(m, "_yq_first_case", m._yq_printed)  # the printed double count
    assert m.equation_15_corrected(ctx).status == "refuted"
    monkeypatch.undo()
    monkeypatch.setattr(m, "_what", lambda x, w, D: w)  # Eq. (14) ignored: case 2 centred at w_t
    assert m.equation_15_corrected(ctx).status not in PASSING


# --------------------------------------------------------------------------- 2. 003:claim-7
def test_claim_7_strict_is_refuted_at_the_equality_point_and_at_least_is_proved(ctx):
    from olr_verify.checks.scalar_common import replay_scalar_relation

    out = _decide(_entry("s003_hkl", "003:claim-7"), ctx)
    assert out.status == "refuted" and out.counterexample["replay"]["point"] == {"D": "2", "s": "1/2", "a": "0"}
    assert replay_scalar_relation(out.counterexample)[0]
    corrected = _decide(_entry("s003_hkl", "003:claim-7/corrected"), ctx)
    assert corrected.status == "proved" and corrected.certificate is not None


def test_claim_7_does_not_refute_a_strict_bound_that_holds(ctx):
    entry = _entry("s003_hkl", "003:claim-7")
    true = {**entry, "links": [dict(link, relation="s/(1 + exp(-a)) > 1/(4*D)") for link in entry["links"]]}
    assert _decide(true, ctx).status != "refuted"  # true: |y_t| >= 1/(2D) > 1/(4D), at the equality point too


def test_claim_7_corrected_refutes_a_larger_constant(ctx):
    entry = _entry("s003_hkl", "003:claim-7/corrected")
    false = _with_link(entry, "|y_t|", relation="s/(1 + exp(-a)) >= 1/(2*D) + 1/1000")
    assert _decide(false, ctx).status == "refuted"


# --------------------------------------------------------------------------- 3. 000:lemma-3/step-7-8
def test_step_7_8_certifies_each_part_but_stays_verified(ctx):
    out = _decide(_entry("s000_aioli", "000:lemma-3/step-7-8"), ctx)
    assert out.status == "verified"  # premises: step 5-6 (a slip, corrected variant only verified), step 1 cited
    links = out.evidence["links"]
    assert len(links) == 4 and all(link["status"] == "proved" for link in links.values()), links


@pytest.mark.parametrize("label, change", [
    ("beta_t", {"relation": "2 + V/2 <= 2 + r/4"}),
    ("kappa_t", {"relation": "(2 + V/2)/1 <= 2 + r/3"}),
    ("gamma_t", {"rhs": "1/(4 + r)"}),  # Lemma 3's statement: gamma = lam/(4 lam + R^2)
    ("rate", {"relation": "exp(-T/(2*k) + L) <= exp(-T/(2 + r/2) + L)"}),
])
def test_step_7_8_refutes_each_planted_false_part(ctx, label, change):
    false = _with_link(_entry("s000_aioli", "000:lemma-3/step-7-8"), label, **change)
    assert _decide(false, ctx).status == "refuted"


# --------------------------------------------------------------------------- 4. 001:assumption-a2/squared
def test_assumption_a2_squared_decides_the_strict_relation(ctx):
    entry = _entry("s001_gaf", "001:assumption-a2/squared")
    out = _decide(entry, ctx)
    scalar = next(link for label, link in out.evidence["links"].items() if label.startswith("(A2)"))
    assert scalar["status"] == "proved" and scalar["relation"] == "2*exp(z) > 1"
    assert _decide(_with_link(entry, "(A2)", relation="1/2*exp(z) > 1"), ctx).status == "refuted"  # e^0/2 > 1 fails


# --------------------------------------------------------------------------- 5. 002:claim-31
def test_claim_31_is_at_most_verified_and_decides_algorithm_2_under_both_psi(ctx):
    out = _decide(_entry("s002_scale_invariant", "002:claim-31"), ctx)
    assert out.status == "verified"
    labels = list(out.evidence["links"])
    assert any("printed" in label for label in labels) and any("inside" in label for label in labels)
    assert all(link["status"] == "proved" for link in out.evidence["links"].values())


@pytest.mark.parametrize("label, change", [
    ("Algorithm 2 factor, psi_t with Gamma_t inside", {"rhs": "exp(g**2*q/alpha)"}),
    ("Algorithm 2 factor, psi_t as printed", {"rhs": "exp(G*(1 - 1/(2*alpha)))"}),  # the old Gamma_t = Gamma_{t-1}
    ("corrected-psi factor", {"relation": "exp(g**2*q/(2*alpha)) >= 2"}),
])
def test_claim_31_refutes_planted_false_factors(ctx, label, change):
    false = _with_link(_entry("s002_scale_invariant", "002:claim-31"), label, **change)
    assert _decide(false, ctx).status == "refuted"


# --------------------------------------------------------------------------- 6. 000:lemma-3/step-9
def _step_9(ctx, monkeypatch, u_weight, v_weight):
    from olr_verify.papers.s000_aioli import runs_per_round as m

    rel, eps, what = m.RELATIONS["000:lemma-3/step-9"]
    monkeypatch.setitem(m.RELATIONS, "000:lemma-3/step-9",
                        (lambda rows, seq, K: m.step_9_pairs(rows, K, u_weight, v_weight), eps, what))
    return m.decide("000:lemma-3/step-9", ctx)


def test_step_9_as_printed_is_verified(ctx):
    from olr_verify.papers.s000_aioli import runs_per_round as m

    assert m.decide("000:lemma-3/step-9", ctx).status == "verified"


@pytest.mark.parametrize("u_weight, v_weight", [("0.99", "0.5"), ("1", "-0.05")])
def test_step_9_refutes_false_variants(ctx, monkeypatch, u_weight, v_weight):
    out = _step_9(ctx, monkeypatch, u_weight, v_weight)
    assert out.status == "refuted" and out.evidence["highprec"]["digits"] == 50


def test_step_9_with_v_over_20_is_a_true_statement():
    """The reviewer's planted ||v_t||/20 is NOT false: omega_t is the prox at u_t of the even convex
    log(1 + cosh(v^T omega)), minimised at 0, so ||omega_t|| <= ||u_t|| (firm non-expansiveness); explicitly
    ||omega||^2 = ||u||^2 - s tanh(s/2) - tanh(s/2)^2 ||v||^2/4 with s = v^T omega. Checked at 50 digits."""
    import mpmath

    from olr_verify.hunting.numerics import MP
    from olr_verify.papers.s000_aioli import runs_per_round as m

    with mpmath.workdps(50):
        for u, v in m.STEP_9_POINTS:
            u, v = MP.arr(list(u)), MP.arr(list(v))
            w = m.omega_of(u, v, MP)
            assert max(abs(c) for c in 2 * w - 2 * u + mpmath.tanh(v @ w / 2) * v) < mpmath.mpf(10) ** -40
            s = v @ w
            assert abs(w @ w - (u @ u - s * mpmath.tanh(s / 2) - mpmath.tanh(s / 2) ** 2 * (v @ v) / 4)) < 1e-40
            assert mpmath.sqrt(w @ w) <= mpmath.sqrt(u @ u) + mpmath.mpf(10) ** -40

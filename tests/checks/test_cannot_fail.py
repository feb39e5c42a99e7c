"""Checks that could not fail (found by a hostile review that broke the thing each check tests and saw it stay
`verified`). Each test plants that break and asserts the claim is no longer verified."""
import math
from pathlib import Path

import numpy as np
import pytest

from olr_verify import registry
from olr_verify.outcome import Context


@pytest.fixture
def ctx(tmp_path):
    registry.load_checks()
    return Context(out_dir=Path(tmp_path), quick=True)


def test_the_mirror_of_eq_4_compares_the_shipped_loss_with_the_printed_one(ctx, monkeypatch):
    """The float link compared approximate_loss with itself at mirrored arguments: beta = 4/D instead of 1/(8D)
    (a surrogate 54 above the loss) left it at a difference of 0.0."""
    import algorithms.ftrl_surrogate_1d as f

    original = f.approximate_loss
    monkeypatch.setattr(f, "approximate_loss", lambda w, z, wt, D: original(w, z, wt, D / 32.0))
    out = registry.decide("003:lemma-12/case-1-mirror", ctx)
    assert out.status != "verified"
    assert out.evidence["links"]["shipped Eq. (4), case 2 == printed"]["status"] == "inconclusive"


def test_a_nan_state_of_sos_is_not_verified(ctx, monkeypatch):
    """004:algorithm-1 kept its worst deviation with max(): max(0.0, nan) is 0.0."""
    from algorithms import SOS

    state = SOS.state
    assert registry.decide("004:algorithm-1", ctx).evidence["reconstruction_status"] == "verified"
    monkeypatch.setattr(SOS, "state", lambda self: {**state(self), "theta_hat": state(self)["theta_hat"] * np.nan})
    out = registry.decide("004:algorithm-1", ctx)
    assert out.status == "inconclusive" and "reconstruction_status" not in out.evidence


@pytest.mark.parametrize("claim", ["004:algorithm-1", "004:equation-1"])
def test_a_reconstruction_of_a_lost_formula_is_not_the_printed_statement(ctx, claim):
    """Sixth review: 004's SOS box and (1) are lost; our reconstruction, checked against itself written another
    way, said nothing of the printed box and was reported verified."""
    out = registry.decide(claim, ctx)
    assert out.status == "inconclusive" and "only our reconstruction" in out.evidence["reason"]


def test_equation_6_compares_the_prediction_with_the_expectation(ctx, monkeypatch):
    """Sixth review: the check measured |loss(log p, y) + log p_y| (0 for any normalised p), so the prediction
    sigma(z) with no expectation, or any p, stayed verified."""
    import algorithms.gaf as gaf
    from scipy.special import log_softmax

    monkeypatch.setattr(gaf, "expected_softmax_quadrature", lambda z, S, tol: (log_softmax(z), 1e-11, None))
    out = registry.decide("001:equation-6", ctx)
    assert out.status == "inconclusive" and out.evidence["numerical_max_gap_minus_bound"] > 1e-3


def test_the_table_of_equation_14_fails_when_a_printed_value_is_too_large(ctx, monkeypatch):
    """Sixth review: printed values above the true ones were listed in the evidence and ignored."""
    from olr_verify.papers.s002_scale_invariant import lemma3_3_scalar as m

    assert registry.decide("002:equation-14/table", ctx).status == "verified"
    monkeypatch.setattr(m, "TABLE", [(u, v, "0.5") for u, v, _ in m.TABLE])
    assert registry.decide("002:equation-14/table", ctx).status == "inconclusive"


@pytest.mark.parametrize("claim, cls", [("002:claim-5", "ScaleInvariantCoordinatewise"),
                                        ("002:claim-17", "ScaleInvariantFull")])
def test_scale_invariance_fails_when_the_shipped_learner_is_not_invariant(ctx, monkeypatch, claim, cls):
    """Both claims computed the shipped learner's predictions on a stream and its rescaling and only stored the
    gap: a learner whose predictions change with the scale stayed verified."""
    import algorithms

    learner = getattr(algorithms, cls)
    run = learner.run
    monkeypatch.setattr(learner, "run", lambda self, X, Y: run(self, X, Y) + 1e-3 * np.tanh(np.asarray(X)[:, 0]))
    assert registry.decide(claim, ctx).status != "verified"


def test_corollary_10_fails_for_a_learner_that_never_learns(ctx, monkeypatch):
    """Theorem 9's bound / T exceeds any possible excess on the grid: a learner stuck at w = D passed."""
    from algorithms import FTRLSurrogate1D

    state = FTRLSurrogate1D.state
    monkeypatch.setattr(FTRLSurrogate1D, "state", lambda self: {**state(self), "w": self.D})
    out = registry.decide("003:corollary-10", ctx)
    assert out.status == "inconclusive" and out.evidence["max_mean_excess_over_D3_T-2/3"] > 1


def test_theorem_9_hunts_say_they_cannot_fail(tmp_path):
    """Any w_t, w in [-D, D] give regret <= D sum_t |x_t|, and Theorem 9's bound is above that on every sequence the
    hunt tries: inconclusive. The same bound divided by 10^4 could fail, and then the hunt decides."""
    from olr_verify.hunting.bounds import TARGETS
    from olr_verify.hunting.checkkit import hunt_outcome
    from olr_verify.hunting.planted import declared_variant
    from olr_verify.outcome import Context

    for claim in ("003:theorem-9", "003:theorem-9/explicit"):
        out = registry.decide(claim, Context(tmp_path, quick=True))
        assert out.status == "inconclusive" and "could not fail" in out.evidence["reason"], out.evidence
        assert out.evidence["sequences_that_could_fail"] == 0
    rhs = TARGETS["003:theorem-9"].bound.__doc__.split(" <= ")[1]
    hunt = {"learner": "ftrl003", "family": "absorbed", "comparator": "interval", "lhs": "regret",
            "rhs": f"({rhs})/10000", "defaults": {"D": 2.0, "n": 60}, "space": "ftrl-1d"}
    with declared_variant("planted:003:theorem-9@weaker", hunt, "003:theorem-9") as pid:
        out = hunt_outcome(pid, Context(tmp_path, quick=True))
    assert out.evidence["sequences_that_could_fail"] > 0 and "could not fail" not in out.evidence.get("reason", "")


def test_the_regret_cap_is_an_upper_bound_on_the_regret():
    """regret_cap decides which hunts are vacuous: it must bound the regret of every run it is given (binary and
    absorbed families, adversarial and random sequences, parameters over the searched spaces)."""
    import numpy as np

    from olr_verify.hunting.bounds import TARGETS, evaluate_full, with_defaults
    from olr_verify.hunting.optimisers import ADVERSARIES
    from olr_verify.hunting.space import SPACES

    rng = np.random.default_rng(11)
    tried = 0
    for claim in ("000:theorem-1", "000:equation-4", "003:lemma-11"):
        t, space = TARGETS[claim], SPACES[claim]
        for _ in range(12):
            p = with_defaults(t, {**space.sample(rng), "n": int(rng.integers(1, 30))})
            if "d" in p:
                p["d"] = int(rng.integers(1, 4))
            for how, make in ADVERSARIES:
                seq = make(t, p, rng)
                if seq is None:
                    continue
                lhs, rhs, cmp, cap = evaluate_full(t, seq)
                assert lhs <= cap * (1 + 1e-9) + 1e-12, (claim, how, p, lhs, cap)
                tried += 1
    assert tried > 60


def test_the_ons_row_of_table_1_needs_its_rate_and_its_constant(ctx, monkeypatch):
    """The slope test was overwritten by the explicit-bound test: a regret growing like n (far below the explicit
    bound's 262..420 at these n) was verified as d e^B log n."""
    import olr_verify.papers.s000_aioli.complexity_and_cited as t

    monkeypatch.setattr(t, "_regret_slope", lambda ctx, claim, make, B, ns, runs: [n / 100 for n in ns])
    out = t._table(ctx, "000:table-1/ons", None, 2.0, "d e^B log(n)", 0.5, None,
                   ("explicit", lambda n: 5 * (math.exp(2.0) + 4.0) * math.log(n)))
    assert out.status == "inconclusive"


def test_figure_2_tells_a_polynomial_curve_from_a_poly_logarithmic_one():
    """FTRL's curve passed AIOLI's poly-logarithmic criterion: the same curve was judged both ways."""
    from olr_verify.papers.s000_aioli.figure2_experiment import curve_shape

    ns, ftrl = [100, 400, 1600, 6400], [2.56, 6.47, 11.75, 23.94]
    assert curve_shape(ns, ftrl, True)["holds"]
    assert curve_shape(ns, ftrl, False)["holds"]  # the old criterion alone
    assert not curve_shape(ns, ftrl, False, ftrl)["holds"]
    assert curve_shape(ns, [0.06, -8.96, -15.5, -49.96], False, ftrl)["holds"]  # AIOLI's measured curve
    assert curve_shape(ns, [1.55, 2.38, 2.86, 3.11], False, ftrl)["holds"]  # Foster et al.'s


def test_ekf_with_a_hidden_projection_is_not_parameter_free(ctx, monkeypatch):
    """004:claim-6 searched the source for the word 'project': a clipping under another name passed."""
    from algorithms import EKF

    state = EKF.state

    def clipped(self):
        st = state(self)
        norm = float(np.linalg.norm(st["theta_hat"]))
        return {**st, "theta_hat": st["theta_hat"] * min(1.0, 2.0 / norm) if norm else st["theta_hat"]}

    monkeypatch.setattr(EKF, "state", clipped)
    assert registry.decide("004:claim-6", ctx).status == "inconclusive"


def test_lemma_4_1_runs_its_proof_steps_in_quick_mode_too(ctx, monkeypatch):
    """In quick mode the steps were replaced by a literal verified outcome (they take 0.4 s)."""
    import olr_verify.papers.s002_scale_invariant.sections1_to_4 as s24
    from olr_verify.outcome import Outcome

    real = s24.decide
    monkeypatch.setattr(s24, "decide", lambda cid, ctx: Outcome("inconclusive", "planted", {})
                        if cid == "002:lemma-4.1/steps" else real(cid, ctx))
    assert s24.lemma_4_1(ctx).status == "inconclusive"

"""Hunted bounds declared as data ([claim.hunt] and [hunt_space.<name>] in the seed papers' paper.toml): each
declared statement is the paper's formula, a weakened-by-nothing mutation of it is refuted by its hunt, and a
malformed table is a load error naming the field."""
import math
import tomllib
from pathlib import Path

import numpy as np
import pytest

from olr_verify.hunting import bounds
from olr_verify.hunting.bounds import TARGETS, Sequence, evaluate, load_declared, target_from_toml
from olr_verify.hunting.planted import declared_variant
from olr_verify.hunting.space import SPACES, space_from_toml
from olr_verify.paper_folder import PaperError, read

PAPERS = Path(bounds.__file__).resolve().parents[1] / "papers"
DECLARED = {"000:theorem-1", "000:equation-4", "000:theorem-7", "000:theorem-4", "000:lemma-10",
            "000:theorem-7/b1-chain", "000:theorem-7/b1-zt-bound", "000:equation-21", "000:equation-22",
            "002:lemma-4.3", "002:lemma-4.3/corrected", "002:theorem-4.5", "002:theorem-4.5/corrected",
            "002:claim-16", "002:claim-21", "002:claim-21/corrected", "002:claim-22", "002:claim-23", "002:claim-24",
            "003:theorem-9", "003:theorem-9/explicit", "003:equation-13", "003:lemma-11", "003:lemma-13"}


def _data(folder: str) -> dict:
    return tomllib.loads((PAPERS / folder / "paper.toml").read_text("utf-8"))


def test_the_declared_hunts_are_registered_with_their_spaces():
    declared = {c for f in ("s000_aioli", "s002_scale_invariant", "s003_hkl") for c in load_declared(_data(f), f)}
    assert declared == DECLARED
    assert all(c in SPACES for c in TARGETS), sorted(set(TARGETS) - set(SPACES))


def test_theorem_1_as_declared_is_the_printed_formula():
    """R_n(theta) <= lam ||theta||^2 + d (1 + BR) log(1 + n R^2 / (8 d (1 + BR) lam)), computed here by hand."""
    X, Y = np.array([[0.6, -0.3], [0.1, 0.9], [-0.7, 0.2]]), np.array([1, -1, 1])
    p = {"d": 2, "n": 3, "B": 2.0, "R": 1.0, "lam": 0.7}
    theta = np.array([1.5, -1.5])  # outside the B-ball: pulled onto it
    t = TARGETS["000:theorem-1"]
    run = bounds.run_learner(t, Sequence("binary", p, X, Y))
    lhs, rhs = t.bound(Sequence("binary", p, X, Y), run, theta)
    loss = sum(math.log1p(math.exp(-y * yh)) for y, yh in zip(Y, run.preds))
    th = theta * 2.0 / np.linalg.norm(theta)  # pulled into the B-ball
    regret = loss - sum(math.log1p(math.exp(-y * (th @ x))) for x, y in zip(X, Y))
    bound = 0.7 * (th @ th) + 2 * 3 * math.log(1 + 3 / (8 * 2 * 3 * 0.7))
    assert lhs == pytest.approx(regret, rel=1e-12) and rhs == pytest.approx(bound, rel=1e-12)


def test_the_declared_sides_agree_at_50_digits():
    import mpmath

    from olr_verify.hunting.numerics import MP

    seq = Sequence("gradient", {"d": 2, "n": 3, "alpha": 1.5}, np.array([[1.0, 0.0], [0.5, 0.5], [0.0, -1.0]]),
                   [0.5, -1.0, 0.25])
    for claim in ("002:lemma-4.3", "002:lemma-4.3/corrected"):
        lhs_f, rhs_f = evaluate(TARGETS[claim], seq)
        with mpmath.workdps(50):
            lhs_m, rhs_m = evaluate(TARGETS[claim], seq, MP)
        assert float(lhs_m) == pytest.approx(float(lhs_f), rel=1e-12)
        assert float(rhs_m) == pytest.approx(float(rhs_f), rel=1e-12)


@pytest.mark.parametrize("claim, weaker", [
    ("000:theorem-1", ("8*d*(1 + B*R)*lam", "80*d*(1 + B*R)*lam")),   # the log term shrinks
    ("000:equation-22", ("lam))", "lam))/4")),
])
def test_a_mutated_declaration_is_refuted_by_its_hunt(claim, weaker, tmp_path):
    """A constant changed in the declared text (not in code) makes the quick hunt find a confirmed violation."""
    from olr_verify.hunting.checkkit import hunt_outcome
    from olr_verify.outcome import Context

    entry = next(e for e in _data("s000_aioli")["claim"] if e["id"] == claim)
    hunt = dict(entry["hunt"])
    assert weaker[0] in hunt["rhs"]
    hunt["rhs"] = hunt["rhs"].replace(*weaker)
    with declared_variant(f"planted:{claim}@declared", hunt, claim) as pid:
        out = hunt_outcome(pid, Context(tmp_path, quick=True), quick=60)
    assert out.status == "refuted", out.evidence.get("best_ratio")


_HUNT = {"learner": "aioli", "family": "binary", "lhs": "regret", "rhs": "lam*theta_sq + 1", "space": "aioli"}
_SI2 = {"learner": "si2", "family": "gradient", "comparator": "S-direction", "lhs": "regret",
        "rhs": "sqrt(u_S_sq) + 1", "space": "scale-invariant"}
_FTRL = {"learner": "ftrl003", "family": "absorbed", "lhs": "regret", "rhs": "D*n", "space": "ftrl-1d"}


@pytest.mark.parametrize("hunt, message", [
    ({**_HUNT, "learner": "ONS"}, "family and learner"),
    ({**_HUNT, "family": "gradient"}, "family and learner"),
    ({**_HUNT, "family": ["binary"]}, "family and learner"),
    ({**_HUNT, "comparator": "S-direction"}, "comparator among"),
    ({**_HUNT, "per_round": "yes"}, "per_round"),
    ({**_HUNT, "budget": [400]}, "budget"),
    ({**_HUNT, "budget": [10 ** 12, 60]}, "budget"),
    ({**_HUNT, "rhs": "lam*theta_sq + Z"}, "Z"),                      # a per-round quantity outside per_round
    ({**_HUNT, "rhs": "tanh(lam)"}, "only + - * / ** log exp sqrt Abs"),
    ({**_HUNT, "rhs": "__import__('os')"}, "__import__"),
    ({**_HUNT, "rhs": "1e400"}, "too large"),                          # overflows float64: a load error
    ({**_HUNT, "lhs": 3}, "lhs and rhs are expressions"),
    ({**_HUNT, "lhs": {"regret": "x"}}, "lhs and rhs are expressions"),
    ({**_HUNT, "lhs": []}, "lhs and rhs are expressions"),
    ({**_HUNT, "lhs": ["regret"], "rhs": ["1", "2"]}, "as many"),
    ({**_HUNT, "colour": "red"}, "fields among"),
    ({**_HUNT, "rhs": "u_t"}, "u_t"),                                  # a fixed name, not a value
    ({**_HUNT, "defaults": {"regret": 1.0}}, "named as a run quantity"),
    ({**_HUNT, "defaults": {"B": float("nan")}}, "finite numbers"),
    ({**_HUNT, "defaults": {"B": 1e9}}, "outside its space"),
    ({**_HUNT, "comparator": "none"}, "read the comparator"),
    ({**_HUNT, "per_round": True}, "per-round quantity"),
    ({**_FTRL, "per_round": True}, "per-round quantity"),
    ({**_SI2, "lhs": "-regret"}, "S-direction"),
    ({**_SI2, "rhs": "regret/2 + 1"}, "S-direction"),
    ({**_SI2, "lhs": "g_yhat", "rhs": "1", "per_round": True}, "S-direction"),
])
def test_a_malformed_hunt_table_is_a_load_error(hunt, message):
    space = SPACES[{"aioli": "000:theorem-1", "si2": "002:theorem-4.5", "ftrl003": "003:lemma-11"}.get(
        hunt["learner"] if isinstance(hunt["learner"], str) else "aioli", "000:theorem-1")]
    with pytest.raises(ValueError, match=message.replace("*", r"\*").replace("+", r"\+")):
        target_from_toml("x:claim-1", hunt, space, "paper.toml: claim x:claim-1")


def test_a_learner_without_its_parameters_is_a_load_error():
    space = space_from_toml({"params": {"d": {"lo": 1, "hi": 4, "scale": "int"}, "n": {"lo": 1, "hi": 9, "scale": "int"},
                                        "B": {"lo": 1e-3, "hi": 1e3}, "R": {"lo": 1e-3, "hi": 1e3}}}, "s")
    with pytest.raises(ValueError, match="needs lam"):
        target_from_toml("x:claim-1", _HUNT, space, "w")


@pytest.mark.parametrize("table, message", [
    ({"params": {"B": {"lo": 2, "hi": 1}}}, "offset < lo <= hi"),
    ({"params": {"B": {"lo": 0, "hi": 1}}}, "offset < lo <= hi"),                # log scale needs lo > offset
    ({"params": {"B": {"lo": 1, "hi": 4, "scale": "cubic"}}}, "scale log or int"),
    ({"params": {"B": {"lo": 1, "hi": 4, "probes": [9], "costly_probes": [10]}}}, "costly_probes"),
    ({"params": {"B": {"lo": 1, "hi": 4, "probes": [3]}}}, "beyond hi"),
    ({"params": {"B": {"lo": 1, "hi": 4, "boundary": [-1]}}}, "boundary"),
    ({"params": {"B": {"lo": 1, "hi": 4, "boundary": 2.0}}}, "lists of numbers"),
    ({"params": {"n": {"lo": 1.5, "hi": 4, "scale": "int"}}}, "integer ends"),
    ({"params": {"B": {"lo": "1", "hi": 4}}}, "finite number"),
    ({"params": {"B": {"lo": 1, "hi": float("inf")}}}, "finite number"),
    ({"params": {"B": {"hi": 4}}}, "lo, hi"),
    ({"params": {"B": {"lo": 1, "hi": 4, "printed": 3}}}, "printed"),
    ({"params": {}}, "a hunt space"),
    ({"params": {"B": {"lo": 1, "hi": 4}}, "fixed": {"B": "tied"}}, "both searched and fixed"),
    ({"params": {"B": {"lo": 1, "hi": 4}}, "max_r2_over_lam": 0}, "max_r2_over_lam"),
])
def test_a_malformed_space_is_a_load_error(table, message):
    with pytest.raises(ValueError, match=message):
        space_from_toml(table, "hunt_space.x")


def test_a_violation_of_a_bound_by_zero_is_found(tmp_path):
    """ratio(lhs, 0) was +inf, which the scorer dropped as not finite: "... <= 0" violated on every run was
    verified. Claim 21 written as lhs - 1 <= 0 is the claim; with "<= 0" left as is, it is false."""
    from olr_verify.hunting.bounds import ratio
    from olr_verify.hunting.checkkit import hunt_outcome
    from olr_verify.outcome import Context

    assert ratio(0.05, 0.0) == 2.0 and ratio(0.0, 0.0) == 1.0 and ratio(-1.0, 0.0) == 0.0
    hunt = {"learner": "si2", "family": "gradient", "comparator": "none", "space": "scale-invariant",
            "lhs": "sum_g_yhat - exp(hSh_T/(2*alpha) - Gamma_T)", "rhs": "0", "defaults": {"d": 2, "n": 30, "alpha": 1.5}}
    with declared_variant("planted:002:claim-21@zero", hunt, "002:claim-21") as pid:
        out = hunt_outcome(pid, Context(tmp_path, quick=True))
    assert out.status == "refuted", out.evidence.get("best_ratio")


def test_planted_variants_of_the_ray_comparator_claims_run():
    """planted._scaled wrapped the bound in a function the S-direction comparator could not read."""
    from olr_verify.hunting.planted import plant, unplant

    seq = Sequence("gradient", {"d": 2, "n": 3, "alpha": 1.2}, np.array([[1.0, 0.0], [0.5, 0.5], [0.0, -1.0]]),
                   [-1.0, -1.0, -0.5])
    for claim in ("002:theorem-4.5", "002:claim-22", "002:claim-23"):
        pid = plant(claim, 0.5)
        try:
            lhs, rhs, u, _ = bounds.evaluate_full(TARGETS[pid], seq)
            lhs0, rhs0, u0, _ = bounds.evaluate_full(TARGETS[claim], seq)
        finally:
            unplant(pid)
        assert rhs == pytest.approx(rhs0 - 0.5 * abs(rhs0)) or not np.allclose(u, u0)


def test_the_replay_accepts_the_points_the_hunt_may_reach():
    """eps = 0 (Theorem 7's boundary) and Algorithm 2's lam raised to R^2/10 above its searched range are points
    the hunt evaluates: the replay must not reject them as outside the hypotheses."""
    from olr_verify.hunting.confirm import hypotheses_broken

    X = [["0.5", "0"], ["0", "0.5"]]
    rep = {"family": "binary", "params": {"d": 2, "n": 2, "B": "1", "R": "1", "lam": "0.5", "eps": "0"}, "X": X,
           "Y": [1, -1]}
    assert hypotheses_broken(TARGETS["000:theorem-7"], rep) is None
    rep = {"family": "binary", "params": {"d": 2, "n": 2, "B": "1", "R": "500", "lam": "25000"}, "X": X,
           "Y": [1, -1]}
    assert hypotheses_broken(TARGETS["000:theorem-4"], rep) is None
    rep["params"]["lam"] = "26000"  # not what the space makes of R = 500
    assert "outside" in hypotheses_broken(TARGETS["000:theorem-4"], rep)
    absorbed = {"family": "absorbed", "params": {"D": "2", "n": 2}, "X": [["0.5"], ["1.5"]], "Y": None}
    assert "|x_t| > 1" in hypotheses_broken(TARGETS["003:lemma-11"], absorbed)


def test_hunt_tables_are_refused_outside_the_seed_papers(tmp_path):
    text = (PAPERS / "s000_aioli" / "paper.toml").read_text("utf-8").replace('key = "000"', 'key = "mine"')
    text = text.replace('id = "000:', 'id = "mine:').replace('"000:', '"mine:')
    (tmp_path / "paper.toml").write_text(text, "utf-8")
    with pytest.raises(PaperError, match="seed papers' form"):
        read(tmp_path)


def test_an_unknown_top_level_table_is_a_load_error(tmp_path):
    (tmp_path / "paper.toml").write_text('[paper]\nkey = "a"\ntitle = "t"\nauthors = "x"\n\n[[claim]]\nid = "a:lemma-1"\n'
                                         'check_kind = "undecided"\nstatement = "s"\ninconclusive = { reason = "r" }\n'
                                         '\n[claims_extra]\nx = 1\n', "utf-8")
    with pytest.raises(PaperError, match="unknown top-level"):
        read(tmp_path)


def test_a_probe_margin_is_compared_with_the_rounding_a_rotated_rerun_measures():
    """002's summed potential is tight (lhs = 1 - 2e-27 at 50 digits); in a 30-dimensional span float64 puts it above
    1 by ~1e-7, which a rotated re-run shows is rounding. A bound violated by 1/2 stays far above that rounding."""
    from olr_verify.hunting.optimisers import ROTATED_NOISE, _rounding, _score, random_sequence

    rng = np.random.default_rng(5)
    t = TARGETS["002:claim-21/corrected"]
    seq = random_sequence(t, bounds.with_defaults(t, {"d": 30, "n": 30, "alpha": 1.5}), rng)
    _, lhs, rhs, _, _ = _score(t, seq)
    noise = _rounding(t, seq, lhs - rhs, rng)
    assert 0 < noise < 1e-5 and lhs - rhs <= max(1e-8, ROTATED_NOISE * noise)
    hunt = {"learner": "si2", "family": "gradient", "comparator": "none",
            "lhs": "sum_g_yhat + exp((hSh_T - Gamma_T)/(2*alpha))", "rhs": "1/2", "space": "scale-invariant"}
    false, _ = target_from_toml("x:claim-1", hunt, SPACES["002:claim-21/corrected"], "test")
    _, lhs, rhs, _, _ = _score(false, seq)
    assert lhs - rhs > 0.4 and lhs - rhs > ROTATED_NOISE * _rounding(false, seq, lhs - rhs, rng)


def test_float_violations_beyond_the_replayed_ones_leave_the_claim_inconclusive(tmp_path, monkeypatch):
    """Only the 4 largest float64 violations were replayed, and a hunt whose 4 were dismissed was verified though
    other regions' violations were never looked at (000:theorem-7/b1-chain had 41). Every region's is replayed now,
    up to MAX_CANDIDATES; beyond it the claim is inconclusive."""
    from olr_verify.hunting import optimisers
    from olr_verify.hunting.checkkit import hunt_outcome
    from olr_verify.outcome import Context

    monkeypatch.setattr(optimisers, "MAX_CANDIDATES", 1)
    out = hunt_outcome("000:theorem-7/b1-chain", Context(tmp_path), full=150)
    assert out.status == "inconclusive" and "more float64 violation" in out.evidence["reason"], out.evidence
    assert out.evidence["near_violations_replayed"] == {"dismissed": 1, "unresolved": 0}

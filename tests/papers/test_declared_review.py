"""A hostile review of the regret bounds a user declares in a paper folder (olr_verify/hunting/declared.py): each
finding below was wrong before its fix (a forged artefact confirmed against a true bound, a crash reported as a
run, a search whose reduction the evidence did not state)."""
from fractions import Fraction

import numpy as np
import pytest

from olr_verify.hunting.declared import DeclaredBound, _sequence, decide, replay_regret_bound
from olr_verify.outcome import Context


def _artefact(point: dict, X: list, Y: list, theta: list, **spec) -> dict:
    rep = {"type": "regret_bound", "learner": "FTRL", "learner_params": {"B": "B"}, "bound": "B*n",
           "params": {"B": ["1/10", "1"], "n": ["1", "20"], "d": ["1", "2"]}, **spec,
           "point": point, "X": [[float(v).hex() for v in row] for row in X], "Y": Y,
           "theta": [float(v).hex() for v in theta]}
    return {"replay": rep}


def test_a_point_naming_a_parameter_the_claim_does_not_declare_is_rejected():
    """FTRL's regret per round is at most B when ||x_t|| <= 1 (no R declared): the artefact added R = 100 and a
    100-long x_t, and the replay confirmed a violation of the true bound B n."""
    ok, details = replay_regret_bound(_artefact({"B": "1/10", "n": "1", "d": "1", "R": "100"}, [[100.0]], [1], [0.1]))
    assert not ok and "declares" in details["reason"]


def test_a_non_integer_n_is_rejected():
    ok, details = replay_regret_bound(_artefact({"B": "1/10", "n": "3/2", "d": "1"}, [[1.0]], [1], [0.1]))
    assert not ok and "not an integer" in details["reason"]


def test_a_feature_vector_longer_than_r_by_an_ulp_is_rejected_exactly():
    R = Fraction(1, 3)
    x = float(R) * np.array([0.6, 0.8])
    x = np.nextafter(x, 1.0)  # just outside the ball, by less than 1e-12 relative
    art = _artefact({"B": "1/10", "n": "1", "d": "2", "R": "1/3"}, [x.tolist()], [1], [0.1, 0.0],
                    learner="OGD", learner_params={"B": "B", "R": "R"},
                    params={"B": ["1/10", "1"], "R": ["1/3", "1/3"], "n": ["1", "20"], "d": ["1", "2"]})
    ok, details = replay_regret_bound(art)
    assert not ok and "longer than R" in details["reason"]


def test_the_hunt_s_own_sequences_satisfy_the_radius_exactly():
    from algorithms import OGD

    for kind in ("random", "adaptive", "constant"):
        X, _ = _sequence(kind, OGD(3, 1.0, 1 / 3), 40, 3, Fraction(1, 3), np.random.default_rng(1))
        assert all(sum(Fraction(float(v)) ** 2 for v in row) <= Fraction(1, 9) for row in X), kind


def test_a_learner_missing_a_required_argument_is_a_load_error():
    """OGD needs R: the run used to end in a traceback stored as an 'error' claim, exit status 0."""
    entry = {"learner": "OGD", "learner_params": {"B": "B"}, "bound": "3*B*sqrt(n)",
             "params": {"B": ["1/10", "1"], "n": ["1", "20"], "d": ["1", "2"]}}
    with pytest.raises(ValueError, match="OGD needs R"):
        DeclaredBound.from_toml(entry, "demo:theorem-1")


def test_the_evidence_says_how_many_corners_of_the_ranges_were_tried(tmp_path):
    entry = {"learner": "OGD", "learner_params": {"B": "B", "R": "R"}, "bound": "3*B*R*sqrt(n)",
             "params": {"B": ["1/10", "1"], "R": ["1/2", "1"], "n": ["1", "20"], "d": ["1", "2"],
                        "a": ["0", "1"], "b": ["0", "1"]}}
    out = decide(DeclaredBound.from_toml(entry, "demo:theorem-1"), Context(tmp_path, quick=True), "demo:theorem-1")
    assert out.evidence["corners_of_the_ranges_tried"] == "4 of 64"

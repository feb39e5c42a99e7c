"""One implementation per learner (issue 15): the hunts' float64 search runs the SHIPPED learners of algorithms/
(through the adapters of olr_verify/hunting/shipped.py); the 50-digit twins of hunting/highprec_learners.py
only replay candidates.  For every (shipped learner, twin) pair a hunt uses (``bounds.make_learner``), on
random runs at parameter points drawn from the hunted bound's space, with non-default parameters forced
(R != 1, lam != 1, d >= 2), the predictions -- and, for the traced AIOLI, the per-round A_t^{-1} and eta_t --
must agree to 1e-12 (relative to 1 + |value|, times A_t's condition bound where float64 is no more
accurate).  Marker ``hunt``."""
import mpmath
import numpy as np
import pytest

from olr_verify.hunting import bounds as bd
from olr_verify.hunting import highprec_learners as hl
from olr_verify.hunting import shipped as sh
from olr_verify.hunting.numerics import FLOAT, MP
from olr_verify.hunting.optimisers import random_sequence
from olr_verify.hunting.space import SPACES

pytestmark = pytest.mark.hunt
TOL = 1e-12

# claim -> the learner name of bounds._LEARNERS it exercises (every name the hunts use)
PAIRS = {"000:theorem-1": "aioli", "000:equation-4": "aioli-b2", "000:theorem-7": "aioli-eps",
         "000:theorem-4": "aioli-alg2", "000:lemma-10": "aioli", "002:theorem-3.4": "si1",
         "002:theorem-4.5": "si2", "003:theorem-9": "ftrl003"}


def test_every_learner_the_hunts_use_is_paired():
    used = {t.learner for t in bd.TARGETS.values()} - {"none"}
    assert used == set(PAIRS.values()) == set(bd._LEARNERS)


def _close(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return float(np.max(np.abs(a - b) / (1 + np.abs(b)))) if a.size else 0.0


def _point(claim, i):
    """A point of the bound's space with non-default values forced (R != 1, lam != 1, d >= 2)."""
    t = bd.TARGETS[claim]
    rng = np.random.default_rng(100 + i)
    p = bd.with_defaults(t, SPACES[claim].sample(rng))
    if "R" in p:
        p["R"] = float(10 ** rng.uniform(-1, 1)) if i % 2 else 2.5
    if p.get("lam") is not None and t.learner != "aioli-b2":
        p["lam"] = float(10 ** rng.uniform(-1, 1)) if i % 2 else 0.3
    if "d" in p:
        p["d"] = max(2, int(p["d"]))
    p["n"] = min(int(p["n"]), 12 if t.learner == "aioli-alg2" else 25)
    if "D" in p:
        p["D"] = float(min(p["D"], 50.0))
    if "eps" in p:
        p["eps"] = 1e-3 * (1 + i)
    return bd.with_defaults(t, p), rng


def _kappa(p):
    """Condition bound of A_t (eq. (5)): float64 agrees to 1e-12 times it (AIOLI only)."""
    if "lam" not in p:
        return 1.0
    return max(1.0, float(p["n"]) * float(p["R"]) ** 2 / float(p["lam"]))


@pytest.mark.parametrize("i", range(3))
@pytest.mark.parametrize("claim", sorted(PAIRS))
def test_shipped_learner_and_its_fifty_digit_twin_agree(claim, i):
    t = bd.TARGETS[claim]
    p, rng = _point(claim, i)
    seq = random_sequence(t, p, rng)
    trace = bd.needs_trace(t)
    run_f = bd.run_learner(t, seq, FLOAT, trace=trace)
    assert type(run_f.learner).__module__ == sh.__name__, type(run_f.learner)
    with mpmath.workdps(50):
        run_m = bd.run_learner(t, seq, MP, trace=trace)
        assert type(run_m.learner).__module__ == hl.__name__
    tol = TOL * _kappa(p)
    assert _close(run_f.preds, run_m.preds) < tol, (claim, p)
    if trace:
        for rf, rm in zip(run_f.learner.trace, run_m.learner.trace):
            assert _close(rf["A_inv"], rm["A_inv"]) < tol * max(1.0, 1 / float(p["lam"])), (claim, p)
            assert _close(rf["eta"], rm["eta"]) < tol, (claim, p)
    if t.family == "absorbed":
        assert _close(run_f.extra["ws"], run_m.extra["ws"]) < TOL
        assert _close(run_f.extra["us"], run_m.extra["us"]) < TOL
    if t.family == "gradient":
        assert _close(run_f.learner.h, run_m.learner.h) < TOL
        if t.learner == "si2":
            assert _close(run_f.learner.Gamma, run_m.learner.Gamma) < TOL * 1e2


def test_a_perturbed_twin_is_caught():
    """The comparison can fail: the twin with lam off by 1e-9 disagrees with the shipped AIOLI beyond 1e-12."""
    rng = np.random.default_rng(0)
    t = bd.TARGETS["000:theorem-1"]
    seq = random_sequence(t, {"d": 2, "n": 20, "B": 3.0, "R": 2.0, "lam": 0.5}, rng)
    shipped = sh.ShippedAioli(2, 3.0, 2.0, 0.5).run(seq.X, seq.Y)
    with mpmath.workdps(50):
        twin = hl.AioliExact(2, 3.0, 2.0, 0.5 + 1e-9, K=MP).run(MP.arr(seq.X), seq.Y)
    assert _close(twin, shipped) > TOL


def test_a_perturbed_theorem_7_direction_is_caught():
    """Theorem 7's perturbation enters the shipped run: eps = 1e-3 vs eps = 0 differ far beyond 1e-12."""
    rng = np.random.default_rng(1)
    t = bd.TARGETS["000:theorem-7"]
    p = bd.with_defaults(t, {"R": 2.0, "lam": 0.4})
    seq = random_sequence(t, p, rng)
    a = bd.run_learner(t, seq, FLOAT).preds
    b = bd.run_learner(t, bd.Sequence(seq.family, {**p, "eps": 0.0}, seq.X, seq.Y, seq.U), FLOAT).preds
    assert _close(a, b) > 1e-6

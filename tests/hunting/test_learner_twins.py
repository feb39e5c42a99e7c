"""One implementation per learner (issue 15): the hunts' learners (hunting/highprec_learners.py, float64 and
>= 50 digits) against the shipped learners of algorithms/, on random runs at parameter points drawn from
the hunted bounds' spaces.  Predictions must agree to 1e-12 (relative to 1 + |yhat|).  Marker ``hunt``."""
import mpmath
import numpy as np
import pytest

import algorithms as A
from olr_verify.hunting import highprec_learners as hl
from olr_verify.hunting.numerics import MP
from olr_verify.hunting.space import SPACES

pytestmark = pytest.mark.hunt
TOL = 1e-12


def _points(claim, k, seed):
    rng = np.random.default_rng(seed)
    space = SPACES[claim]
    return [space.boundary_points()[0]] + [space.sample(rng) for _ in range(k)]


def _close(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.max(np.abs(a - b) / (1 + np.abs(b)))


def _ball_run(rng, n, d, R):
    X = rng.normal(size=(n, d))
    X *= (R * rng.uniform(0, 1, (n, 1))) / np.linalg.norm(X, axis=1, keepdims=True)
    return X, rng.choice([-1, 1], size=n)


@pytest.mark.parametrize("i", range(6))
def test_aioli_fifty_digit_twin_agrees_with_the_shipped_aioli(i):
    p = {"d": 2, "n": 20, "B": 3.0, "R": 1.0, "lam": 0.5, **_points("000:theorem-1", 6, 1)[i]}
    p["n"] = min(p["n"], 25)
    rng = np.random.default_rng(i)
    X, Y = _ball_run(rng, p["n"], p["d"], p["R"])
    shipped = A.AIOLI(p["d"], p["B"], p["R"], lam=p["lam"]).run(X, Y)
    hunted = hl.AioliExact(p["d"], p["B"], p["R"], p["lam"]).run(X, Y)
    with mpmath.workdps(50):
        twin = hl.AioliExact(p["d"], p["B"], p["R"], p["lam"], K=MP).run(MP.arr(X), Y)
    # 1e-12 where float64 itself is that accurate; A_t's condition number (up to 1 + n R^2 / lam) beyond
    kappa = max(1.0, p["R"] ** 2 / p["lam"])
    assert _close(hunted, shipped) < TOL * kappa, p   # the same recursion in float64
    assert _close(twin, shipped) < TOL * kappa, p     # the 50-digit twin of the replay


@pytest.mark.parametrize("i", range(4))
def test_scale_invariant_twins_agree_with_the_shipped_algorithms_1_and_2(i):
    p = {"d": 2, "n": 20, "alpha": 1.5, **_points("002:theorem-4.5", 4, 2)[i]}
    n, d = min(p["n"], 25), p["d"]
    rng = np.random.default_rng(10 + i)
    X = rng.normal(size=(n, d)) * np.exp(rng.normal(size=(n, 1)))
    G = rng.uniform(-1, 1, n)
    for make_twin, shipped in ((hl.ScaleInvariant1, A.ScaleInvariantCoordinatewise(d, p["alpha"])),
                               (hl.ScaleInvariant2, A.ScaleInvariantFull(d, p["alpha"]))):
        with mpmath.workdps(50):
            twin = make_twin(d, p["alpha"], K=MP)
            a, b = [], []
            for x, g in zip(X, G):
                a.append(twin.predict(MP.arr(x)))
                b.append(shipped.predict(x))
                twin.update_gradient(MP.arr(x), MP.num(g))
                shipped.update_gradient(x, g)
        assert _close(a, b) < TOL, (type(shipped).__name__, p)


@pytest.mark.parametrize("i", range(4))
def test_003_algorithm_1_twin_agrees_with_the_shipped_ftrl_surrogate(i):
    p = {"D": 2.0, "n": 60, **_points("003:theorem-9", 4, 3)[i]}
    n = min(p["n"], 80)
    z = np.random.default_rng(20 + i).uniform(-1, 1, n)
    shipped = A.FTRLSurrogate1D(p["D"], T=n)
    with mpmath.workdps(50):
        twin = hl.Ftrl003(p["D"], MP.num(n) ** (-MP.num(1) / 3), K=MP)
        a, b = [], []
        for zi in z:
            a.append(twin.weight())
            b.append(shipped.predict(np.array([1.0])))
            twin.update(MP.num(zi))
            shipped.update_instance(zi)
    assert _close(a, b) < TOL, p


def test_a_perturbed_twin_is_caught():
    """The comparison can fail: AIOLI with lam off by 1e-9 disagrees beyond the tolerance."""
    rng = np.random.default_rng(0)
    X, Y = _ball_run(rng, 20, 2, 1.0)
    shipped = A.AIOLI(2, 3.0, 1.0, lam=0.5).run(X, Y)
    twin = hl.AioliExact(2, 3.0, 1.0, 0.5 + 1e-9).run(X, Y)
    assert _close(twin, shipped) > TOL

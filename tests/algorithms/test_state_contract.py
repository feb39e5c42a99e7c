"""state() of every learner carries the keys its module documents, with the constructor's parameters and t = rounds.

The checks of olr_verify read these keys (``A``, ``b``, ``gamma``, ``Gamma`` ...); a renamed or missing key, or a
parameter stored wrongly, breaks them silently. The values of the learned quantities are tested per learner
(test_aioli, test_ons, test_ekf, test_scale_invariant, tests/multiclass); here only names and parameters.
"""
import math

import numpy as np
import pytest

import algorithms as alg
from algorithms.gaf import GAF
from tests.algorithms.conftest import ball_stream

# id -> (factory, d, R, documented keys, parameters that state() must echo)
CASES = {
    "AIOLI": (lambda: alg.AIOLI(2, B=1.5, R=2.0, lam=0.3), 2, 2.0,
              {"theta_hat", "y_hat", "theta", "A", "A_inv", "b", "t", "lam", "B", "R", "inner_steps"},
              {"lam": 0.3, "B": 1.5, "R": 2.0, "inner_steps": None}),
    "AIOLI-T": (lambda: alg.AIOLI(2, B=1.5, R=2.0, inner_steps=7), 2, 2.0, {"inner_steps", "lam"},
                {"inner_steps": 7, "lam": 1.0 / 1.5 ** 2}),
    "ONS": (lambda: alg.ONS(2, B=1.5, R=2.0), 2, 2.0, {"theta_hat", "A", "A_inv", "t", "gamma", "eps", "B", "R"},
            {"B": 1.5, "R": 2.0, "gamma": 0.5 * min(1 / (4 * 2.0 * 3.0), math.exp(-3.0)),
             "eps": 1 / (0.5 * min(1 / (4 * 2.0 * 3.0), math.exp(-3.0)) * 3.0) ** 2}),
    "ONS-given": (lambda: alg.ONS(2, B=1.5, R=2.0, gamma=0.2, eps=3.0), 2, 2.0, {"gamma", "eps"},
                  {"gamma": 0.2, "eps": 3.0}),
    "OGD": (lambda: alg.OGD(2, B=1.5, R=2.0), 2, 2.0, {"theta_hat", "t", "B", "R"}, {"B": 1.5, "R": 2.0}),
    "FTRL": (lambda: alg.FTRL(2, lam=0.4, B=1.5, R=2.0), 2, 2.0, {"theta_hat", "t", "lam", "B", "mu"},
             {"lam": 0.4, "B": 1.5}),
    "EKF": (lambda: alg.EKF(2, R=2.0), 2, 2.0, {"theta_hat", "P", "t"}, {}),
    "TruncatedEKF": (lambda: alg.TruncatedEKF(2, beta=0.3, R=2.0), 2, 2.0, {"theta_hat", "P", "t", "beta"},
                     {"beta": 0.3}),
    "Alg1": (lambda: alg.ScaleInvariantCoordinatewise(2, alpha=1.4, R=2.0), 2, 2.0,
             {"w", "theta_hat", "s2", "h", "t", "alpha"}, {"alpha": 1.4}),
    "Alg2": (lambda: alg.ScaleInvariantFull(2, alpha=1.4, R=2.0), 2, 2.0,
             {"w", "theta_hat", "S", "S_pinv", "h", "Gamma", "t", "alpha"}, {"alpha": 1.4}),
    # documented defaults of the signatures (API contract: α = 1.5 for both boxes of seed 002)
    "Alg1-default": (lambda: alg.ScaleInvariantCoordinatewise(2), 2, 2.0, {"alpha"}, {"alpha": 1.5}),
    "Alg2-default": (lambda: alg.ScaleInvariantFull(2), 2, 2.0, {"alpha"}, {"alpha": 1.5}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_state_has_the_documented_keys_and_echoes_the_parameters(name):
    factory, d, R, keys, params = CASES[name]
    L = factory()
    assert keys <= set(L.state()), keys - set(L.state())
    X, Y = ball_stream(7, d, R, seed=3)
    L.run(X[:2], Y[:2])
    L.run(X[2:4], Y[2:4])                             # t counts across runs
    for x, y in zip(X[4:], Y[4:]):
        L.update(x, y)
    s = L.state()
    assert keys <= set(s), keys - set(s)
    if "t" in keys:
        assert s["t"] == 7
    for k, v in params.items():
        assert s[k] == (v if v is None else pytest.approx(v, rel=1e-14)), k
    if "theta_hat" in keys and "w" in keys:
        np.testing.assert_array_equal(s["theta_hat"], s["w"])


def test_gaf_state_has_the_documented_keys_and_counts_rounds():
    g = GAF(2, 3, lam=0.5, beta=0.7, method="mc", m=4)
    X = np.array([[0.6, 0.8], [1.0, 0.0], [0.0, -1.0]])
    g.run(X, [0, 2, 1])
    s = g.state()
    assert {"theta", "A", "A_inv", "b", "t"} <= set(s)
    assert s["t"] == 3 and s["theta"].shape == (3, 2) and s["A"].shape == (6, 6) and s["b"].shape == (6,)


def test_gaf_documented_defaults_of_the_monte_carlo_back_end():
    """GAF(..., method="mc") draws m = 100 scores from default_rng([seed, t]) with seed = 0 (documented signature):
    the default learner equals the one given m=100, seed=0 explicitly, and differs from seed=1."""
    X = np.array([[0.6, 0.8], [1.0, 0.0], [0.0, -1.0]])
    Y = [0, 2, 1]
    runs = [GAF(2, 3, lam=0.5, beta=0.7, method="mc", **kw).run(X, Y) for kw in ({}, {"m": 100, "seed": 0},
                                                                                    {"m": 100, "seed": 1})]
    np.testing.assert_array_equal(runs[0], runs[1])
    assert np.abs(runs[0][1:] - runs[2][1:]).max() > 1e-6
    assert GAF(2, 3, lam=0.5, beta=0.7).m == 100

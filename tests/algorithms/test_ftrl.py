"""FTRL / FTL (true logistic losses): θ_t satisfies the optimality (KKT) conditions of its objective."""
import numpy as np
import pytest

import algorithms as alg
from tests.algorithms.conftest import ball_stream


@pytest.mark.parametrize("lam, B", [(1.0, None), (0.05, 0.3), (1e-3, 50.0)])
def test_ftrl_iterate_satisfies_the_kkt_conditions(lam, B):
    X, Y = ball_stream(40, 3, 1.0, seed=1)
    L = alg.FTRL(3, lam=lam, B=B, R=1.0)
    for x, y in zip(X, Y):
        L.predict(x)
        s = L.state()
        th = s["theta_hat"]
        grad = alg.ftrl_gradient(th, X[:s["t"]], Y[:s["t"]], lam) + 2.0 * s["mu"] * th
        assert np.linalg.norm(grad) < 1e-9
        if s["mu"] > 0:
            assert np.linalg.norm(th) == pytest.approx(B, rel=1e-12)
        elif B is not None:
            assert np.linalg.norm(th) <= B * (1 + 1e-12)
        L.update(x, y)


def test_ftl_on_separable_data_sits_on_the_sphere_and_beats_every_other_ball_point():
    X = np.array([[1.0, 0.0], [0.8, 0.6], [0.6, -0.8]] * 4)
    Y = np.ones(len(X))
    L = alg.FTL(2, B=3.0)
    L.run(X, Y)
    th = L.state()["theta_hat"]
    assert np.linalg.norm(th) == pytest.approx(3.0, rel=1e-12)
    f = alg.ftrl_objective(th, X, Y, 0.0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        u = rng.standard_normal(2)
        u *= 3.0 * rng.random() ** 0.5 / np.linalg.norm(u)
        assert f <= alg.ftrl_objective(u, X, Y, 0.0) + 1e-12


def test_ftl_plays_zero_before_any_data():
    assert alg.FTL(3, B=1.0).predict([0.1, 0.2, 0.3]) == 0.0

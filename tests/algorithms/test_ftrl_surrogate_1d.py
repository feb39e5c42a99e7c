"""Seed 003: Algorithm 2 ("Equivalent form-FTRL") equals Algorithm 1, and both minimise Σ ℓ̃ + η⁻¹R of eq. (4)."""
import numpy as np
import pytest
from scipy.optimize import minimize_scalar

import algorithms as alg


def _stream(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.choice([1.0, 0.9, -0.05, -1.0, 0.2, -0.3], size=n)
    y = np.where(rng.random(n) < 0.3, -1.0, 1.0)
    return x[:, None], y


@pytest.mark.parametrize("seed, D", [(0, 2.0), (1, 4.0), (2, 10.0)])
def test_algorithm_2_equals_algorithm_1(seed, D):
    X, Y = _stream(300, seed)
    a1 = alg.FTRLSurrogate1D(D, T=300)
    a2 = alg.FTRLSurrogate1D(D, T=300, form="algorithm-2")
    np.testing.assert_array_equal(a1.run(X, Y), a2.run(X, Y))


@pytest.mark.parametrize("seed, D", [(3, 2.0), (4, 6.0)])
def test_algorithm_1_minimises_the_sum_of_equation_4_losses_on_the_interval(seed, D):
    X, Y = _stream(40, seed)
    eta = 40 ** (-1 / 3)
    L = alg.FTRLSurrogate1D(D, eta=eta)
    zs, ws = [], []
    for x, y in zip(X, Y):
        w_t = L.state()["w"]

        def F(w):
            return sum(alg.approximate_loss(w, z, wt, D) for z, wt in zip(zs, ws)) + w * w / (16 * D * eta)

        best = minimize_scalar(F, bounds=(-D, D), method="bounded", options={"xatol": 1e-12})
        assert F(w_t) <= best.fun + 1e-9
        assert w_t == pytest.approx(best.x, abs=1e-5)
        zs.append(-y * x[0])
        ws.append(w_t)
        L.update(x, y)


def test_default_learning_rate_is_t_to_the_minus_one_third():
    assert alg.FTRLSurrogate1D(3.0, T=1000).eta == pytest.approx(0.1)


def test_instance_protocol_matches_the_label_protocol():
    X, Y = _stream(50, 5)
    a = alg.FTRLSurrogate1D(3.0, T=50)
    b = alg.FTRLSurrogate1D(3.0, T=50)
    a.run(X, Y)
    for x, y in zip(X, Y):
        b.update_instance(-y * x[0])
    sa, sb = a.state(), b.state()
    for k in ("w", "u", "Q_plus", "L_plus", "Q_minus", "L_minus", "t"):
        assert sa[k] == sb[k], k

"""Foster et al. (2018), d = 1, uniform prior on [−B, B]: quadrature against 30-digit mpmath integrals."""
import mpmath as mp
import numpy as np
import pytest

import algorithms as alg


def _exact_yhat(xs, ys, x, B):
    mp.mp.dps = 30

    def post(th):
        return mp.fprod(1 / (1 + mp.exp(-y * th * xx)) for xx, y in zip(xs, ys))

    p1 = mp.quad(lambda th: post(th) / (1 + mp.exp(-th * x)), [-B, 0, B])
    p0 = mp.quad(lambda th: post(th) / (1 + mp.exp(th * x)), [-B, 0, B])
    return float(mp.log(p1) - mp.log(p0))


@pytest.mark.parametrize("B, seed", [(2.0, 0), (8.0, 1)])
def test_posterior_predictive_matches_high_precision_quadrature(B, seed):
    rng = np.random.default_rng(seed)
    xs = rng.uniform(-1, 1, 60)
    ys = np.where(rng.random(60) < 0.7, 1.0, -1.0)
    L = alg.FosterAggregating(B=B, R=1.0)
    L.run(xs[:, None], ys)
    x = 0.7
    got = L.predict([x])
    assert got == pytest.approx(_exact_yhat(xs, ys, x, B), abs=1e-10)
    assert L.state()["quad_error"] < 1e-8


def test_logistic_loss_of_the_prediction_is_the_mixture_log_loss():
    """ℓ(ŷ, +1) + ... : σ(ŷ) + σ(−ŷ) = 1 means p(+1) + p(−1) = 1, i.e. ŷ is a log-odds."""
    L = alg.FosterAggregating(B=3.0)
    L.run(np.array([[0.5], [-0.2]]), np.array([1.0, -1.0]))
    yhat = L.predict([0.9])
    assert 0 < yhat < 3.0 * 0.9

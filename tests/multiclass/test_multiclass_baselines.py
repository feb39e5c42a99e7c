"""algorithms.multiclass: loss derivatives, and the ONS / OGD / FTRL baselines."""
import numpy as np
import pytest
from scipy.optimize import approx_fprime

from algorithms.multiclass import (MulticlassFTRL, MulticlassOGD, MulticlassONS, grad, hessian, loss, losses,
                                   project_ball_A)

pytestmark = pytest.mark.multiclass


def test_gradient_and_hessian_match_finite_differences():
    rng = np.random.default_rng(0)
    K, d = 3, 4
    W, x, y = rng.normal(size=(K, d)), rng.normal(size=d), 1
    f = lambda th: loss(th.reshape(K, d) @ x, y)  # noqa: E731
    assert np.allclose(grad(W, x, y).ravel(), approx_fprime(W.ravel(), f, 1e-7), atol=1e-5)
    g = lambda th: grad(th.reshape(K, d), x, y).ravel()  # noqa: E731
    Hfd = np.array([(g(W.ravel() + 1e-6 * e) - g(W.ravel() - 1e-6 * e)) / 2e-6 for e in np.eye(K * d)])
    assert np.allclose(hessian(W, x), Hfd, atol=1e-6)


def test_loss_is_finite_for_huge_scores():
    assert np.isfinite(loss([1e4, -1e4, 0.0], 1)) and loss([1e4, -1e4, 0.0], 0) == 0.0


def test_a_norm_projection_keeps_inside_points_and_puts_outside_ones_on_the_sphere():
    rng = np.random.default_rng(1)
    G = rng.normal(size=(6, 6)); A = G @ G.T + np.eye(6)
    z_in = rng.normal(size=6); z_in *= 0.5 / np.linalg.norm(z_in)
    assert np.array_equal(project_ball_A(z_in, A, 1.0), z_in)
    z = rng.normal(size=6) * 5
    p = project_ball_A(z, A, 1.0)
    assert abs(np.linalg.norm(p) - 1.0) < 1e-10
    for _ in range(200):                                   # no feasible point is closer in the A-norm
        q = rng.normal(size=6); q *= rng.random() / np.linalg.norm(q)
        assert (q - z) @ A @ (q - z) >= (p - z) @ A @ (p - z) - 1e-9


def test_ogd_and_ons_iterates_stay_in_the_ball_and_ftrl_reaches_a_stationary_point():
    rng = np.random.default_rng(2)
    X, Y = rng.normal(size=(40, 3)) * 3, rng.integers(0, 3, 40)
    for learner in (MulticlassOGD(3, 3, eta=2.0, B=1.0), MulticlassONS(3, 3, gamma=0.1, eps=0.1, B=1.0)):
        for x, y in zip(X, Y):
            learner.update(x, y)
            assert np.linalg.norm(learner.state()["theta"]) <= 1.0 + 1e-9
    f = MulticlassFTRL(3, 3, lam=0.5)
    S = f.run(X, Y)
    W = f.state()["theta"]
    P = np.exp(X @ W.T); P /= P.sum(1, keepdims=True)
    G = (P - np.eye(3)[Y]).T @ X + 2 * 0.5 * W
    assert np.linalg.norm(G) < 1e-9 and S.shape == (40, 3) and np.isfinite(losses(S, Y)).all()


@pytest.mark.parametrize("cls,kw", [(MulticlassOGD, {"eta": 1.0}), (MulticlassONS, {"gamma": 1.0, "eps": 1.0}),
                                    (MulticlassFTRL, {"lam": 1.0})])
def test_baselines_predict_purely_and_reject_bad_labels(cls, kw):
    learner = cls(2, 3, **kw)
    x = np.array([0.3, -0.2])
    assert np.array_equal(learner.predict(x), learner.predict(x))
    with pytest.raises(ValueError, match="y"):
        learner.update(x, 3)
    with pytest.raises(ValueError, match="x"):
        learner.predict([np.inf, 0])

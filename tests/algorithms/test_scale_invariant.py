"""Seed 002: Algorithm 1 is invariant under x_i ↦ a_i x_i, Algorithm 2 under x ↦ Ax (App. D)."""
import numpy as np
import pytest

import algorithms as alg
from tests.algorithms.conftest import ball_stream


def _labels_and_grads(n, seed):
    rng = np.random.default_rng(seed)
    return np.where(rng.random(n) < 0.5, -1.0, 1.0), rng.uniform(-1, 1, n)


@pytest.mark.parametrize("feed", ["logistic", "gradient"])
def test_algorithm_1_predictions_do_not_change_when_coordinates_are_rescaled(feed):
    X, _ = ball_stream(60, 4, 1.0, seed=1)
    X[:10, 2] = 0.0  # a coordinate that starts at zero (w_i = 0 branch)
    Y, G = _labels_and_grads(60, 2)
    a = np.array([1e-3, 7.0, 0.5, 1e3])
    preds = []
    for Z in (X, X * a):
        L = alg.ScaleInvariantCoordinatewise(4, alpha=1.5)
        p = []
        for z, y, g in zip(Z, Y, G):
            p.append(L.predict(z))
            L.update(z, y) if feed == "logistic" else L.update_gradient(z, g)
        preds.append(np.array(p))
    np.testing.assert_allclose(preds[0], preds[1], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("feed", ["logistic", "gradient"])
def test_algorithm_2_predictions_do_not_change_under_an_invertible_linear_map(feed):
    d = 4
    X, _ = ball_stream(40, d, 1.0, seed=3)
    X[:6, 3] = 0.0
    X[:6, 2] = 0.0  # S stays rank-deficient for a while
    Y, G = _labels_and_grads(40, 4)
    A = np.random.default_rng(5).standard_normal((d, d)) + 2 * np.eye(d)
    preds = []
    for Z in (X, X @ A.T):
        L = alg.ScaleInvariantFull(d, alpha=2.0)
        p = []
        for z, y, g in zip(Z, Y, G):
            p.append(L.predict(z))
            L.update(z, y) if feed == "logistic" else L.update_gradient(z, g)
        preds.append(np.array(p))
    assert preds[0][0] == 0.0
    np.testing.assert_allclose(preds[0], preds[1], rtol=1e-7, atol=1e-10)


def test_rank_one_pseudo_inverse_update_matches_numpy_pinv():
    d = 5
    X, _ = ball_stream(12, d, 1.0, seed=6)
    X[:7, 4] = 0.0
    X[:7, 3] = 0.0
    S = np.zeros((d, d))
    Sp = np.zeros((d, d))
    P = np.zeros((d, d))
    for x in X:
        Sp, P = alg.pinv_rank_one_update(Sp, P, x)
        S += np.outer(x, x)
        np.testing.assert_allclose(Sp, np.linalg.pinv(S, rcond=1e-12), atol=1e-8 * np.abs(Sp).max())


def test_algorithm_1_matches_equation_5_written_out():
    X, _ = ball_stream(20, 3, 1.0, seed=7)
    Y, _ = _labels_and_grads(20, 8)
    alpha = 1.7
    L = alg.ScaleInvariantCoordinatewise(3, alpha=alpha)
    s2, h = np.zeros(3), np.zeros(3)
    for t, (x, y) in enumerate(zip(X, Y), start=1):
        s2 = s2 + x * x
        eta = np.exp((h ** 2 + x ** 2) / (2 * alpha * s2)) / (alpha * t * 3)
        w = np.where(s2 > 0, eta * h / np.where(s2 > 0, s2, 1), 0.0)
        yhat = L.predict(x)
        assert yhat == pytest.approx(w @ x, rel=1e-12, abs=1e-15)
        L.update(x, y)
        h = h + y / (1 + np.exp(y * yhat)) * x


def test_gradient_feed_rejects_subderivatives_larger_than_one():
    L = alg.ScaleInvariantFull(2)
    with pytest.raises(ValueError, match=r"\bg\b"):
        L.update_gradient([0.1, 0.2], 1.5)
    with pytest.raises(ValueError, match=r"\bg\b"):
        L.update_gradient([0.1, 0.2], float("nan"))
    with pytest.raises(ValueError, match=r"\bg\b"):
        L.update_gradient([0.1, 0.2], "a half")
    L.update_gradient([0.1, 0.2], -1.0)  # |g| = 1 is admissible (L = 1)
    assert L.state()["t"] == 1


def _algorithm_2_box(X, G, alpha):
    """Seed 002 Algorithm 2, the box line by line with numpy's pinv: S ← S + xxᵀ, η = exp((hᵀS†h − Γ)/(2α))/α,
    w = ηS†h, ŷ = wᵀx, h ← h − g x, Γ ← Γ + g²xᵀS†x. ``G`` holds a callable g(ŷ) per round."""
    d = X.shape[1]
    S, h, Gamma = np.zeros((d, d)), np.zeros(d), 0.0
    out = []
    for x, g_of in zip(X, G):
        S = S + np.outer(x, x)
        Sp = np.linalg.pinv(S, rcond=1e-10, hermitian=True)
        eta = np.exp((h @ Sp @ h - Gamma) / (2 * alpha)) / alpha
        w = eta * Sp @ h
        yhat = w @ x
        g = g_of(yhat)
        out.append((yhat, w, eta))
        h = h - g * x
        Gamma = Gamma + g * g * (x @ Sp @ x)
    return out, S, h, Gamma


@pytest.mark.parametrize("feed", ["logistic", "gradient"])
def test_algorithm_2_matches_its_box_step_size_and_gamma_included(feed):
    """Values, not only invariance: ŷ_t, w_t, η_t and Γ_t of the box (α = 1.3, S rank-deficient for 5 rounds)."""
    d, alpha = 3, 1.3
    X, _ = ball_stream(30, d, 2.0, seed=9)
    X[:5, 2] = 0.0
    Y, Gs = _labels_and_grads(30, 10)
    if feed == "logistic":
        G = [lambda yh, y=y: -y / (1 + np.exp(y * yh)) for y in Y]
    else:
        G = [lambda yh, g=g: g for g in Gs]
    want, S, h, Gamma = _algorithm_2_box(X, G, alpha)
    L = alg.ScaleInvariantFull(d, alpha=alpha)
    etas = []
    for t, (x, y, g) in enumerate(zip(X, Y, Gs)):
        yhat = L.predict(x)
        assert yhat == pytest.approx(want[t][0], rel=1e-8, abs=1e-12), t
        np.testing.assert_allclose(L.state()["w"], want[t][1], rtol=1e-8, atol=1e-12, err_msg=str(t))
        L.update(x, y) if feed == "logistic" else L.update_gradient(x, g)
        etas.append(want[t][2])
    s = L.state()
    assert s["Gamma"] == pytest.approx(Gamma, rel=1e-9) and Gamma > 0
    np.testing.assert_allclose(s["h"], h, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(s["S"], S, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(s["S_pinv"], np.linalg.pinv(S, rcond=1e-10, hermitian=True), rtol=1e-8)
    assert s["t"] == 30 and s["alpha"] == alpha
    assert max(etas) / min(etas) > 1.5  # the step size η_t moves: the test sees its formula


@pytest.mark.parametrize("cls, which", [(alg.ScaleInvariantCoordinatewise, "Algorithm 1"),
                                        (alg.ScaleInvariantFull, "Algorithm 2")])
def test_a_prediction_beyond_the_float_range_raises_overflow_naming_the_algorithm(cls, which):
    """g_t = −1 on a fixed x: h_t = t x and the exponent of η grows like t/(2α); both boxes overflow float64
    after about 2α·709 rounds, and must say so instead of returning inf."""
    L = cls(2, alpha=1.2)
    x = np.array([0.6, -0.8])
    with pytest.raises(OverflowError, match=rf"^{which} "):
        for _ in range(4000):
            L.update_gradient(x, -1.0)
    assert 1000 < L.state()["t"] < 4000


def test_gradient_feed_enforces_the_input_bound_r():
    for cls in (alg.ScaleInvariantCoordinatewise, alg.ScaleInvariantFull):
        L = cls(2, R=1.0)
        with pytest.raises(ValueError, match=r"\bx\b"):
            L.update_gradient([0.9, 0.9], 0.5)
        with pytest.raises(ValueError, match=r"\bx\b"):
            L.update([0.9, 0.9], 1.0)


def test_in_span_decision_of_the_pseudo_inverse_update_does_not_depend_on_the_scale_of_x():
    """App. E: x is in span(S) when its component off the span is at most tol·‖x‖ — a relative test, so S_t† and
    the projector P_t of the inputs c·x_s are S_t†/c² and P_t for every c (Algorithm 2's scale invariance)."""
    x3 = np.array([1.0, 1.0, 1e-11])  # off span(e₁, e₂) by 1e-11 ≈ 7e-12‖x₃‖ < tol‖x₃‖: counted in the span
    for c in (1e-3, 1.0, 1e3):
        Sp, P = np.diag([1.0, 1.0, 0.0]) / c ** 2, np.diag([1.0, 1.0, 0.0])
        Sp3, P3 = alg.pinv_rank_one_update(Sp, P, c * x3, tol=1e-9)
        np.testing.assert_array_equal(P3, P)
        S3 = np.diag([1.0, 1.0, 0.0]) + np.outer(x3[:2].tolist() + [0.0], x3[:2].tolist() + [0.0])
        np.testing.assert_allclose(Sp3 * c ** 2, np.linalg.pinv(S3), rtol=1e-9, atol=1e-12)


def test_algorithm_2_uses_its_own_tol_for_the_in_span_decision():
    """ScaleInvariantFull(tol=1e-3): an input off the span of the past by 1e-5·‖x‖ counts as in the span, so S† keeps
    rank 2 and moderate entries (with the default 1e-9 it would open a third direction with entries ~1e10)."""
    L = alg.ScaleInvariantFull(3, alpha=1.5, tol=1e-3)
    for x, y in (([1.0, 0.0, 0.0], 1.0), ([0.0, 1.0, 0.0], -1.0), ([1.0, 1.0, 1.4e-5], 1.0)):
        L.update(np.array(x), y)
    Sp = L.state()["S_pinv"]
    assert np.linalg.matrix_rank(Sp, tol=1e-6) == 2 and np.abs(Sp).max() < 2.0
    np.testing.assert_allclose(Sp[:2, :2], np.linalg.inv(np.eye(2) + np.ones((2, 2))), rtol=1e-6)


def test_algorithm_1_says_when_the_weights_fit_but_their_prediction_does_not():
    """d = 4 equal coordinates fed g_t = −1: the weights still fit below e^709 when their sum ŵᵀx no longer does;
    the prediction must then raise (not return inf), with its own message."""
    L = alg.ScaleInvariantCoordinatewise(4, alpha=1.2)
    x = np.ones(4)
    with pytest.raises(OverflowError, match=r"^Algorithm 1 prediction exceeds the float64 range$"), \
            np.errstate(over="ignore"):
        for _ in range(4000):
            L.update_gradient(x, -1.0)
    assert 1000 < L.state()["t"] < 4000


def test_algorithm_2_keeps_w_when_the_prediction_is_exactly_zero():
    """x_1 ⟂ S_1†h_1 (orthogonal inputs) gives ŷ_1 = 0 exactly, but the box's w_1 = η_1 S_1†h_1 is not 0."""
    L = alg.ScaleInvariantFull(3, alpha=1.3)
    x0, x1 = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    L.predict(x0)
    L.update(x0, 1.0)  # g_0 = -1/2, h_1 = x0/2, Γ_1 = 1/4
    assert L.predict(x1) == 0.0
    eta = np.exp((0.25 - 0.25) / (2 * 1.3)) / 1.3  # h_1ᵀS_1†h_1 = 1/4 with S_1 = diag(1, 1, 0)
    np.testing.assert_allclose(L.state()["w"], eta * np.array([0.5, 0.0, 0.0]), rtol=1e-12)

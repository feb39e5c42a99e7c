"""AIOLI (seed 000 eq. (3), Lemma 2, Lemma 3, Algorithm 2) against direct minimisation and its own identities."""
import math
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import expit

import algorithms as alg
from tests.algorithms.conftest import ball_stream


def _eq3_direct(X_past, Y_past, TH_past, x, lam, B, R):
    """Minimise eq. (3) written as the literal sum of surrogates (2), with its own gradient and Hessian."""
    d = x.size

    def parts(theta):
        grad = 2.0 * lam * theta
        hess = 2.0 * lam * np.eye(d)
        for xs, ys, ts in zip(X_past, Y_past, TH_past):
            m = ys * (ts @ xs)
            g = -ys * expit(-m) * xs  # ∇ℓ_s(θ̂_s)
            eta = math.exp(min(m, 700.0)) / (1.0 + B * R)
            grad = grad + g + eta * (g @ (theta - ts)) * g
            hess = hess + eta * np.outer(g, g)
        z = theta @ x
        grad = grad + math.tanh(0.5 * z) * x
        hess = hess + 2.0 * expit(z) * expit(-z) * np.outer(x, x)
        return grad, hess

    res = minimize(lambda th: alg.eq3_objective(th, X_past, Y_past, TH_past, x, lam, B, R), np.zeros(d),
                   jac=lambda th: parts(th)[0], hess=lambda th: parts(th)[1], method="trust-exact",
                   options={"gtol": 1e-13})
    theta = res.x
    for _ in range(5):  # polish with Newton on the literal gradient (the objective cannot resolve 1e-9 steps)
        grad, hess = parts(theta)
        theta = theta - np.linalg.solve(hess, grad)
    assert np.linalg.norm(parts(theta)[0]) < 1e-12
    return theta


@pytest.mark.parametrize("seed, d, B, R", [(0, 2, 1.0, 1.0), (1, 3, 2.0, 2.5), (2, 4, 5.0, 0.4)])
def test_theta_hat_is_the_minimiser_of_equation_3_to_1e_9(seed, d, B, R):
    X, Y = ball_stream(25, d, R, seed)
    L = alg.AIOLI(d, B, R)
    thetas = []
    for t in range(len(Y)):
        L.predict(X[t])
        th = L.state()["theta_hat"]
        direct = _eq3_direct(X[:t], Y[:t], thetas, X[t], L.lam, B, R)
        np.testing.assert_allclose(th, direct, atol=1e-9, rtol=0)
        thetas.append(th)
        L.update(X[t], Y[t])


@pytest.mark.parametrize("B, R", [(2.0, 1.0), (1.5, 3.0)])
def test_pure_function_matches_the_learner_and_the_sufficient_statistics_are_equation_5(B, R):
    """η_s = e^{y_s ŷ_s}/(1+BR) with R ≠ 1 in the second case (a learner that drops R from 1+BR fails)."""
    d = 3
    X, Y = ball_stream(30, d, R, seed=4)
    L = alg.AIOLI(d, B, R)
    A = np.eye(d) / B ** 2
    b = np.zeros(d)
    for x, y in zip(X, Y):
        L.predict(x)
        th = L.state()["theta_hat"]
        np.testing.assert_allclose(alg.aioli_theta_hat(A, b, x, B, R), th, atol=1e-12)
        m = y * (th @ x)
        g = -y * expit(-m) * x
        eta = math.exp(m) / (1 + B * R)
        A = A + 0.5 * eta * np.outer(g, g)
        b = b + 0.5 * (eta * (g @ th) - 1.0) * g
        L.update(x, y)
    s = L.state()
    np.testing.assert_allclose(s["A"], A, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(s["b"], b, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(s["theta"], np.linalg.solve(A, b), rtol=1e-10, atol=1e-12)


def test_sherman_morrison_inverse_stays_accurate_over_a_long_run_at_b_50():
    d, B, R = 8, 50.0, 1.0
    X, Y = ball_stream(3000, d, R, seed=5)
    Y = np.sign(X[:, 0] + 1e-3)  # separable: curvatures spread over many orders of magnitude
    L = alg.AIOLI(d, B, R)
    L.run(X, Y)
    s = L.state()
    fresh = np.linalg.inv(s["A"])
    assert np.linalg.norm(s["A_inv"] - fresh) / np.linalg.norm(fresh) < 1e-10


def test_solve_margin_is_the_root_of_the_scalar_stationarity_equation():
    for z0 in (-1e4, -30.0, -1.0, -1e-12, 0.0, 1e-9, 0.5, 7.0, 1e4):
        for c in (0.0, 1e-12, 0.3, 4.0, 2500.0):
            z = alg.solve_margin(z0, c)
            assert abs(z + 0.5 * c * math.tanh(0.5 * z) - z0) <= 4e-16 * max(1.0, abs(z0), c)
            assert min(0.0, z0) <= z <= max(0.0, z0)


def test_curvature_and_increment_are_finite_at_margins_1e4_and_b_50():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for yhat in (-1e4, -700.0, 0.0, 700.0, 1e4):
            for y in (-1.0, 1.0):
                a2, beta = alg.surrogate_increment(yhat, y, 50.0, 1.0)
                assert math.isfinite(a2) and math.isfinite(beta) and a2 >= 0.0


def test_algorithm_2_with_many_inner_steps_converges_to_the_exact_forecaster():
    d, B, R = 3, 1.0, 1.0
    X, Y = ball_stream(20, d, R, seed=6)
    exact = alg.AIOLI(d, B, R).run(X, Y)
    approx = alg.AIOLI(d, B, R, inner_steps=400).run(X, Y)
    np.testing.assert_allclose(approx, exact, atol=1e-10)


def test_algorithm_2_meets_lemma_3_accuracy_with_its_prescribed_t():
    """Lemma 3: ‖ω^T − ω‖ ≤ ε for T ≥ (4 + R²/λ) log(Rt/(ε√λ)); hence ‖θ̃ − θ̂‖ ≤ ε/√λ (eq. (29))."""
    d, B, R, eps = 2, 1.0, 1.0, 1e-6
    X, Y = ball_stream(15, d, R, seed=7)
    exact = alg.AIOLI(d, B, R)
    lam = exact.lam
    for t, (x, y) in enumerate(zip(X, Y), start=1):
        T = math.ceil((4 + R * R / lam) * math.log(R * t / (eps * math.sqrt(lam))))
        approx = exact.copy()
        approx.inner_steps = T
        approx.predict(x)
        exact.predict(x)
        gap = np.linalg.norm(approx.state()["theta_hat"] - exact.state()["theta_hat"])
        assert gap <= eps / math.sqrt(lam)
        exact.update(x, y)


def test_theorem_4_inner_steps_formula():
    n, B, R, lam = 100, 2.0, 1.0, 0.25
    expected = math.ceil((4 + 4) * math.log(3 * 100 ** 2 * 4 * (100 * 4 / 8 + 2)))
    assert alg.theorem4_inner_steps(n, B, R, lam) == expected


def test_aioli_is_improper_its_prediction_is_not_linear_in_x():
    L = alg.AIOLI(1, B=2.0, R=1.0)
    L.run(np.array([[0.5], [-0.3], [0.9]]), np.array([1.0, 1.0, -1.0]))
    xs = np.array([0.1, 0.4, 0.8])
    ratios = [L.predict([x]) / x for x in xs]
    assert max(ratios) - min(ratios) > 1e-3


def test_surrogate_ftl_plays_theta_t_of_equation_11():
    d, B, R = 3, 2.0, 1.0
    X, Y = ball_stream(20, d, R, seed=8)
    L = alg.SurrogateFTL(d, B, R)
    for x, y in zip(X, Y):
        s = L.state()
        A = s["A"]
        assert L.predict(x) == pytest.approx(np.linalg.solve(A, s["b"]) @ x, abs=1e-12)
        np.testing.assert_allclose(L.state()["theta_hat"], np.linalg.solve(A, s["b"]), rtol=1e-10, atol=1e-12)
        L.update(x, y)


def test_update_on_a_new_x_does_not_reuse_the_prediction_cached_for_another_x():
    """predict(x₁) caches its work; a following update(x₂, y) with x₂ ≠ x₁ must learn from x₂'s own ŷ."""
    d, B, R = 3, 2.0, 1.5
    X, Y = ball_stream(12, d, R, seed=9)
    base = alg.AIOLI(d, B, R)
    base.run(X[:8], Y[:8])
    cached, fresh = base.copy(), base.copy()
    cached.predict(X[8])
    cached.update(X[9], Y[9])
    fresh.update(X[9], Y[9])
    for k in ("theta_hat", "y_hat", "theta", "A", "b", "A_inv"):
        np.testing.assert_array_equal(cached.state()[k], fresh.state()[k], err_msg=k)
    assert cached.predict(X[10]) == fresh.predict(X[10])
    # the same x (a copy, another buffer) may reuse the cache, with the same result
    same = base.copy()
    same.predict(X[9])
    same.update(X[9].copy(), Y[9])
    np.testing.assert_array_equal(same.state()["theta"], fresh.state()["theta"])


def _appendix_d_algorithm_2(X, Y, B, R, lam, T):
    """Seed 000 App. D, Algorithm 2, written out with a Cholesky factor L (A = LLᵀ), numpy's eigh and the inner
    step λ/(4λ+R²); statistics with the ½ of eq. (5) (the deviation (i) the learner documents). Returns ŷ_1..ŷ_n."""
    d = X.shape[1]
    A, b = lam * np.eye(d), np.zeros(d)
    preds = []
    for x, y in zip(X, Y):
        L = np.linalg.cholesky(A)
        W = np.linalg.solve(L, np.column_stack([b, x]))          # W_t = L⁻¹(b_{t−1}, x_t)
        sig, U = np.linalg.eigh(W.T @ W)                          # economic eigen-decomposition
        keep = sig > 1e-12 * sig.max()
        sig, U = sig[keep], U[:, keep]
        u = np.sqrt(sig) * U[0]                                   # Σ^{1/2}Uᵀe₁
        v = np.sqrt(sig) * U[1]                                   # Σ^{1/2}Uᵀe₂
        w = np.zeros(sig.size)
        for _ in range(T):
            s = v @ w
            w = w - lam / (4 * lam + R * R) * (2 * w - 2 * u - expit(-s) * v + expit(s) * v)
        theta = np.linalg.solve(L.T, W @ (U @ (w / np.sqrt(sig))))  # θ̃_t = L^{−T} W U Σ^{−1/2} ω^T
        yhat = theta @ x
        preds.append(yhat)
        g = -expit(-y * yhat) * y * x
        eta = math.exp(y * yhat) / (1 + B * R)
        A = A + 0.5 * eta * np.outer(g, g)
        b = b + 0.5 * (eta * (g @ theta) - 1.0) * g
    return np.array(preds)


@pytest.mark.parametrize("T", [1, 3, 12])
def test_algorithm_2_with_few_inner_steps_matches_appendix_d_step_by_step(T):
    """Few inner steps, far from convergence: the values depend on the step λ/(4λ+R²) (R ≠ 1) and on every entry
    of the Gram matrix WᵀW, so a wrong step size or Gram entry changes ŷ_t."""
    d, B, R = 3, 1.5, 2.5  # R ≠ 1 and R² ≠ 2R: a step λ/(4λ+R) or λ/(4λ+2R) differs
    X, Y = ball_stream(25, d, R, seed=12)
    lam = 1.0 / B ** 2
    got = alg.AIOLI(d, B, R, inner_steps=T).run(X, Y)
    want = _appendix_d_algorithm_2(X, Y, B, R, lam, T)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    exact = alg.AIOLI(d, B, R).run(X, Y)
    assert np.abs(got - exact).max() > 1e-3  # not yet converged: the test sees the inner iterations


def test_surrogate_and_objectives_are_equations_2_3_written_out():
    """ℓ̂_s of eq. (2) with η_s = e^{m}/(1+BR) (R ≠ 1, plain exponentials at moderate margins), eq. (3) as the literal
    sum, and Lemma 2's rewriting θᵀAθ − 2θᵀb + ℓ(θᵀx, 1) + ℓ(θᵀx, −1): it differs from eq. (3) by a constant in θ."""
    rng = np.random.default_rng(13)
    d, B, R, lam = 3, 1.5, 2.5, 0.3
    X, Y = ball_stream(6, d, R, seed=14)
    TH = rng.normal(scale=0.4, size=(6, d))                     # any played points θ̂_s
    x = X[-1]

    def hand_surrogate(theta, xs, ys, ts):
        m = ys * (ts @ xs)
        g = -ys * xs / (1 + math.exp(m))
        eta = math.exp(m) / (1 + B * R)
        delta = theta - ts
        return math.log(1 + math.exp(-m)) + g @ delta + 0.5 * eta * (g @ delta) ** 2

    A, b = lam * np.eye(d), np.zeros(d)
    for xs, ys, ts in zip(X[:-1], Y[:-1], TH[:-1]):
        m = ys * (ts @ xs)
        g = -ys * xs / (1 + math.exp(m))
        eta = math.exp(m) / (1 + B * R)
        A, b = A + 0.5 * eta * np.outer(g, g), b + 0.5 * (eta * (g @ ts) - 1) * g
    offsets = []
    for theta in rng.normal(scale=0.7, size=(4, d)):
        for xs, ys, ts in zip(X, Y, TH):
            assert alg.surrogate_loss(theta, xs, ys, ts, B, R) == pytest.approx(hand_surrogate(theta, xs, ys, ts),
                                                                                rel=1e-12, abs=1e-13)
        z = theta @ x
        eq3 = (sum(hand_surrogate(theta, xs, ys, ts) for xs, ys, ts in zip(X[:-1], Y[:-1], TH[:-1]))
               + math.log(1 + math.exp(-z)) + math.log(1 + math.exp(z)) + lam * theta @ theta)
        got = alg.eq3_objective(theta, X[:-1], Y[:-1], TH[:-1], x, lam, B, R)
        assert got == pytest.approx(eq3, rel=1e-12)
        lemma2 = theta @ A @ theta - 2 * theta @ b + math.log(1 + math.exp(-z)) + math.log(1 + math.exp(z))
        assert alg.aioli_objective(theta, A, b, x) == pytest.approx(lemma2, rel=1e-12)
        offsets.append(got - lemma2)
    assert np.ptp(offsets) < 1e-11 and abs(offsets[0]) > 1e-3      # same minimiser, different constant
    np.testing.assert_allclose(alg.aioli_theta_hat(A.tolist(), b.tolist(), x.tolist()),
                               alg.aioli_theta_hat(A, b, x), rtol=0, atol=0)


def test_theorem_4_inner_steps_formula_with_r_not_one():
    n, B, R, lam = 50, 3.0, 2.0, 0.1
    expected = math.ceil((4 + R * R / lam) * math.log(3 * n * n * R * R / lam * (n * R * R / (8 * lam) + B)))
    assert alg.theorem4_inner_steps(n, B, R, lam) == expected


def test_solve_margin_at_integer_margins():
    """z0 = ±1, ±2 exactly (integer arguments exercise the branches keyed on constants 0, 1 and 2)."""
    for z0 in (-2.0, -1.0, 1.0, 2.0):
        for c in (0.5, 3.0):
            z = alg.solve_margin(z0, c)
            assert abs(z + 0.5 * c * math.tanh(0.5 * z) - z0) <= 4e-16 * max(1.0, abs(z0), c)
            assert 0 < z / z0 < 1


def test_algorithm_2_with_zero_inner_steps_plays_zero():
    """T = 0: ω^0 = 0, so θ̃_t = L^{−T}WUΣ^{−1/2}·0 = 0 and every ŷ_t = 0 (App. D); the statistics still move."""
    X, Y = ball_stream(10, 3, 2.0, seed=15)
    L = alg.AIOLI(3, B=1.0, R=2.0, inner_steps=0)
    np.testing.assert_array_equal(L.run(X, Y), np.zeros(10))
    assert np.linalg.norm(L.state()["b"]) > 0 and L.state()["inner_steps"] == 0


@pytest.mark.parametrize("inner_steps", [None, 4])
def test_theta_hat_of_x_is_the_played_parameter_and_is_pure(inner_steps):
    X, Y = ball_stream(15, 3, 2.0, seed=16)
    L = alg.AIOLI(3, B=1.5, R=2.0, inner_steps=inner_steps)
    L.run(X[:12], Y[:12])
    th = L.theta_hat(X[12])
    assert L.predict(X[12]) == pytest.approx(th @ X[12], rel=1e-12, abs=1e-15)
    np.testing.assert_array_equal(L.state()["theta_hat"], th)
    L.theta_hat(X[13])                                  # pure: no effect on what is played next
    np.testing.assert_array_equal(L.theta_hat(X[12]), th)
    with pytest.raises(ValueError, match=r"\bx\b"):
        L.theta_hat(np.array([2.0, 0.0, 0.1]))          # ‖x‖ > R
    if inner_steps is not None:                         # x = 0 at t = 1: W = 0, nothing to keep, θ̃ = 0
        assert alg.AIOLI(2, B=1.0, R=1.0, inner_steps=3).predict([0.0, 0.0]) == 0.0


@pytest.mark.parametrize("k", [1, 2])
def test_extend_keeps_equation_5_statistics_with_pending_rows(k):
    """Rows learnt by update() are folded into A lazily; extend(k) must carry them: A, b, A⁻¹, θ̂ of the grown
    learner equal those of the learner of dimension d + k that saw the inputs padded with zeros."""
    d, B, R = 2, 1.5, 2.0
    X, Y = ball_stream(9, d, R, seed=17)
    grown, full = alg.AIOLI(d, B, R), alg.AIOLI(d + k, B, R)
    Xp = np.hstack([X, np.zeros((9, k))])
    for x, xp, y in zip(X[:6], Xp[:6], Y[:6]):
        grown.update(x, y)
        full.update(xp, y)
    grown.predict(X[6])
    full.predict(Xp[6])
    grown.extend(k)
    s, f = grown.state(), full.state()
    for key in ("A", "b", "A_inv", "theta", "theta_hat"):
        np.testing.assert_allclose(s[key], f[key], rtol=1e-13, atol=1e-15, err_msg=key)
    assert s["y_hat"] == f["y_hat"]
    np.testing.assert_allclose(grown.run(Xp[7:], Y[7:]), full.run(Xp[7:], Y[7:]), rtol=1e-13, atol=1e-15)


def test_one_long_run_folds_equation_5_over_more_than_one_block_of_rows():
    """run() on 4200 rows (more than one 4096-row BLAS block of the lazy fold): A and b are still the sums of eq. (5)
    over every round, A_t = λI + ½Σ η_s g_s g_sᵀ and b_t = ½Σ(η_s g_sᵀθ̂_s − 1)g_s, with η_s = e^{m_s}/(1+BR),
    m_s = y_s ŷ_s, g_s = −y_s σ(−m_s)x_s; written in x_s: ½η_s σ(−m_s)² = ½σ(m_s)σ(−m_s)/(1+BR) and g_sᵀθ̂_s = −y_sσ(−m_s)ŷ_s."""
    d, B, R = 3, 1.5, 2.5
    X, Y = ball_stream(4200, d, R, seed=18)
    L = alg.AIOLI(d, B, R)
    yhat = L.run(X, Y)
    m = Y * yhat
    a2 = 0.5 * expit(m) * expit(-m) / (1 + B * R)
    beta = 0.5 * (expit(m) * expit(-m) * yhat / (1 + B * R) + Y * expit(-m))
    s = L.state()
    np.testing.assert_allclose(s["A"], L.lam * np.eye(d) + (X * a2[:, None]).T @ X, rtol=1e-11)
    np.testing.assert_allclose(s["b"], X.T @ beta, rtol=1e-10, atol=1e-12)
    assert s["t"] == 4200


def test_a_learner_unpickled_from_read_only_arrays_learns_as_the_original():
    """The round kernel updates A⁻¹, θ_t and its buffers in place; a state restored from read-only arrays (a memory
    map, joblib) must be copied on __setstate__, and the restored learner must continue exactly as the original."""
    import pickle

    X, Y = ball_stream(20, 3, 2.0, seed=19)
    L = alg.AIOLI(3, B=1.5, R=2.0)
    L.run(X[:10], Y[:10])
    state = pickle.loads(pickle.dumps(L)).__dict__
    for v in state.values():
        if isinstance(v, np.ndarray):
            v.flags.writeable = False
    restored = alg.AIOLI.__new__(alg.AIOLI)
    restored.__setstate__(state)
    np.testing.assert_array_equal(restored.run(X[10:], Y[10:]), L.run(X[10:], Y[10:]))


@pytest.mark.parametrize("splits, inspect", [((1, 1, 30), False), ((1, 1, 30), True), ((256, 1, 3), False),
                                             ((250, 6, 1, 2), False)])
def test_any_split_of_the_stream_into_calls_gives_the_rounds_of_one_run(splits, inspect):
    """Eq. (3)/(5) do not know how the stream is cut into predict/update/run calls, nor whether state() is read in
    between. Cuts that end a predict's cache right before the same x is learnt again (x₂ = x₁), and batches that fill
    the 256 pending rows of the lazy A exactly, must give the ŷ_t and the (A, b) of a single run over the stream."""
    d, B, R = 3, 1.5, 2.5
    n = sum(splits)
    X, Y = ball_stream(n, d, R, seed=20)
    for start in np.cumsum(splits)[:-1]:
        X[start] = X[start - 1]                        # each call opens with the input the last one learnt
    one = alg.AIOLI(d, B, R)
    want = one.run(X, Y)
    cut = alg.AIOLI(d, B, R)
    got, start = [], 0
    for i, k in enumerate(splits):
        if i == 0:                                     # first chunk: predict then update, row by row
            for x, y in zip(X[:k], Y[:k]):
                got.append(cut.predict(x))
                cut.update(x, y)
        elif k == 1:
            got.append(cut.predict(X[start]))
            cut.update(X[start], Y[start])
        else:
            got.extend(cut.run(X[start:start + k], Y[start:start + k]))
        start += k
        if inspect:
            cut.state()
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    for key in ("A", "b", "A_inv", "theta"):
        np.testing.assert_allclose(cut.state()[key], one.state()[key], rtol=1e-11, atol=1e-13, err_msg=key)


def test_before_any_input_there_is_no_played_parameter():
    """θ̂_t depends on x_t (eq. (3)): until an x has been seen, state() has theta_hat = y_hat = None (not a zero
    vector that would pass for a played parameter); after predict(x) it is θ̂ of that x."""
    L = alg.AIOLI(3, B=1.5, R=2.0)
    s = L.state()
    assert s["theta_hat"] is None and s["y_hat"] is None
    x = np.array([0.5, -1.0, 0.8])
    L.predict(x)
    np.testing.assert_array_equal(L.state()["theta_hat"], L.theta_hat(x))


def _unaligned(values) -> np.ndarray:
    """A float64 vector whose data starts one byte off an 8-byte boundary (``flags.aligned`` is False)."""
    raw = np.zeros(8 * len(values) + 1, np.uint8)
    x = np.frombuffer(raw.data, dtype=np.float64, count=len(values), offset=1)
    raw[1:] = np.asarray(values, np.float64).view(np.uint8)
    return x


@pytest.mark.parametrize("layout", ["strided", "unaligned", "read-only", "float32", "list"])
def test_any_vector_layout_gives_the_rounds_of_a_plain_vector(layout):
    """The compiled round is called through an entry point that does not check argument types (aioli.py,
    ``_ROUND``): ``predict``/``update``/``theta_hat`` must hand it an aligned C-contiguous float64 vector whatever
    the caller passed. A strided or unaligned x given to the entry point as is would be read as the wrong numbers."""
    rng = np.random.default_rng(5)
    X = rng.standard_normal((40, 5)) / 3
    Y = np.where(rng.random(40) < 0.5, -1.0, 1.0)
    plain, odd = alg.AIOLI(5, 1.0, 2.0), alg.AIOLI(5, 1.0, 2.0)
    wide = np.zeros((40, 10))
    wide[:, ::2] = X
    for i, (x, y) in enumerate(zip(X, Y)):
        if layout == "strided":
            v = wide[i, ::2]
            assert not v.flags.c_contiguous
        elif layout == "unaligned":
            v = _unaligned(x)
            assert not v.flags.aligned
        elif layout == "read-only":
            v = x.copy()
            v.setflags(write=False)
        elif layout == "float32":
            x = x.astype(np.float32).astype(np.float64)
            v = x.astype(np.float32)
        else:
            v = x.tolist()
        assert odd.predict(v) == plain.predict(x)
        np.testing.assert_array_equal(odd.theta_hat(v), plain.theta_hat(x))
        odd.update(v, y)
        plain.update(x, y)
    for key in ("A_inv", "theta", "b"):
        np.testing.assert_array_equal(odd.state()[key], plain.state()[key])


def test_after_the_first_round_the_compiled_entry_point_replaces_the_dispatcher():
    """The speed of a single round (issue 18) relies on ``_ROUND`` holding the entry point of the one compiled
    signature; if numba renamed ``overloads``/``entry_point`` the dispatcher would silently stay."""
    from numba import config

    if config.DISABLE_JIT:
        pytest.skip("NUMBA_DISABLE_JIT: there is no compiled entry point")
    from algorithms import aioli

    L = alg.AIOLI(3, 1.0, 1.0)
    L.update(np.array([0.1, 0.2, 0.3]), 1.0)
    assert aioli._ROUND[0] is not aioli.aioli_round
    assert type(aioli._ROUND[0]).__name__ == "builtin_function_or_method"


def test_a_pickle_of_the_layout_before_the_work_matrix_loads_and_continues_the_same_stream():
    """data/aioli_before_vecs.pkl was written by commit 15aa688 (separate θ, v, w, θ̂, x_seen, b arrays and
    pending rows (x_s, a²_s, β_s)) after 270 rounds, 14 of them pending, and a cached prediction; the .json holds
    what that code then computed. ``__setstate__`` converts the layout."""
    import json
    import pickle
    from pathlib import Path

    here = Path(__file__).parent / "data"
    learner = pickle.loads((here / "aioli_before_vecs.pkl").read_bytes())  # our own file, written by the project
    want = json.loads((here / "aioli_before_vecs.json").read_text())
    rng = np.random.default_rng(7)
    X = rng.standard_normal((300, 4)) / 2
    Y = np.where(rng.random(300) < 0.5, -1.0, 1.0)
    np.testing.assert_allclose(learner.run(X[270:], Y[270:]), want["future"], rtol=1e-12, atol=1e-15)
    state = learner.state()
    for key in ("theta", "b", "A", "A_inv"):
        np.testing.assert_allclose(state[key], want[key], rtol=1e-12, atol=1e-15, err_msg=key)


def test_a_state_of_another_byte_order_is_converted_on_unpickling():
    """The compiled entry point reads the learner's arrays as native float64: ``__setstate__`` converts."""
    rng = np.random.default_rng(3)
    X = rng.standard_normal((20, 3)) / 2
    Y = np.where(rng.random(20) < 0.5, -1.0, 1.0)
    plain = alg.AIOLI(3, 1.0, 2.0)
    plain.run(X[:10], Y[:10])
    swapped = alg.AIOLI.__new__(alg.AIOLI)
    swapped.__setstate__({k: v.astype(v.dtype.newbyteorder(">")) if isinstance(v, np.ndarray) else v
                          for k, v in vars(plain).items()})
    np.testing.assert_array_equal(swapped.run(X[10:], Y[10:]), plain.run(X[10:], Y[10:]))


def test_private_round_with_a_strided_or_integer_vector_goes_through_the_checking_dispatcher():
    """``_predict`` is private, but the adapters and subclasses call it: an x the entry point would misread
    (strided, int64) takes numba's dispatcher, which compiles for it or raises."""
    x = np.array([0.3, -0.2, 0.5, 0.1])
    buf = np.zeros(8)
    buf[::2] = x
    L = alg.AIOLI(4, 2.0, 2.0)
    L.update(x, 1.0)
    want = L._predict(x)
    assert L._predict(buf[::2]) == want
    assert L._predict(np.array([1, 0, -1, 0])) == L._predict(np.array([1.0, 0.0, -1.0, 0.0]))
    with pytest.raises(Exception):
        L._predict(x[None])

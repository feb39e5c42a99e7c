"""algorithms.gaf: GAF of seed 001, eqs. (2)–(4), against its certified reference and its own definitions."""
import math

import numpy as np
import pytest
from scipy import integrate
from scipy.special import expit, softmax

from algorithms.gaf import GAF, expected_softmax_mc, expected_softmax_quadrature
from algorithms.multiclass import losses
from reference.gaf import certified_grad_norm, theta_t

pytestmark = pytest.mark.multiclass


def _seq(n, d, K, seed, scale=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X *= scale / np.linalg.norm(X, axis=1, keepdims=True)
    return X, rng.integers(0, K, n)


@pytest.mark.parametrize("K,d,lam,beta", [(3, 3, 0.5, 0.3), (4, 2, 0.1, 1.0), (2, 5, 2.0, 0.2)])
def test_theta_t_matches_the_certified_minimiser_of_equation_2_within_1e_9(K, d, lam, beta):
    X, Y = _seq(20, d, K, seed=K + d)
    g = GAF(d, K, lam, beta, method="mc", m=5, keep_history=True)
    g.run(X, Y)
    H = np.array(g.history)                       # θ_2 .. θ_{n+1}
    for t in (2, 3, 10, 21):
        err = certified_grad_norm(H[t - 2], X[:t - 1], Y[:t - 1], H[:t - 2], K, lam, beta) / (2 * lam)
        assert err <= 1e-9
    ref = theta_t(X[:20], Y[:20], H[:19], K, lam, beta)    # cvxpy start, Newton polish, arb certificate
    assert ref.certified_error <= 1e-9
    assert np.abs(ref.theta - H[19]).max() <= 1e-9 + ref.certified_error


def test_theta_t_plus_1_is_the_argmin_of_the_quadratic_l_tilde_t_as_equation_13_says():
    X, Y = _seq(40, 3, 3, seed=1)
    g = GAF(3, 3, 0.3, 0.5, method="mc", m=3)
    g.run(X, Y)
    st = g.state()
    assert np.allclose(-0.5 * np.linalg.solve(st["A"], st["b"]), st["theta"].ravel(), atol=1e-10)
    assert np.allclose(st["A_inv"] @ st["A"], np.eye(9), atol=1e-10)


def _p_hat_1d(z, Sigma):
    """K = 2: p̂_1 = E expit(ω_1 − ω_0), ω_1 − ω_0 ∼ N(z_1 − z_0, v), by adaptive quadrature."""
    mean = z[1] - z[0]
    v = Sigma[0, 0] + Sigma[1, 1] - 2 * Sigma[0, 1]
    s = math.sqrt(v)
    f = lambda u: expit(mean + s * u) * math.exp(-u * u / 2) / math.sqrt(2 * math.pi)  # noqa: E731
    return integrate.quad(f, -40, 40, epsabs=1e-14, epsrel=1e-14, limit=500)[0]


@pytest.mark.parametrize("var", [1e-8, 0.04, 1.0, 25.0])
def test_quadrature_error_stays_within_its_stated_bound_for_two_classes(var):
    z = np.array([0.3, -0.7])
    Sigma = var * np.array([[1.0, 0.3], [0.3, 0.5]])
    logp, bound, _ = expected_softmax_quadrature(z, Sigma, tol=1e-10)
    assert bound <= 1e-10
    assert abs(math.exp(logp[1]) - _p_hat_1d(z, Sigma)) <= bound + 1e-13


def test_quadrature_and_monte_carlo_agree_for_three_classes():
    z = np.array([1.0, -0.5, 0.2])
    Sigma = np.array([[1.0, 0.2, 0.0], [0.2, 0.7, -0.1], [0.0, -0.1, 0.5]])
    logp, bound, _ = expected_softmax_quadrature(z, Sigma, tol=1e-10)
    p = np.exp(logp)
    assert abs(p.sum() - 1) < 1e-9
    m = 200_000
    q = np.exp(expected_softmax_mc(z, Sigma, m, np.random.default_rng(0)))
    assert np.all(np.abs(p - q) <= 5 * 0.5 / math.sqrt(m))


def test_quadrature_with_zero_covariance_is_the_softmax_of_the_mean():
    z = np.array([2.0, 0.0, -1.0, 0.5])
    logp, bound, N = expected_softmax_quadrature(z, np.zeros((4, 4)))
    assert N == 1 and bound == 0.0
    assert np.allclose(np.exp(logp), softmax(z), rtol=1e-15)


def test_predict_is_pure_and_run_equals_predict_then_update_for_both_back_ends():
    X, Y = _seq(15, 3, 3, seed=4)
    for method in ("quadrature", "mc"):
        a, b = GAF(3, 3, 0.5, 0.5, method=method, m=50, seed=7), GAF(3, 3, 0.5, 0.5, method=method, m=50, seed=7)
        S = a.run(X, Y)
        for i, (x, y) in enumerate(zip(X, Y)):
            s1 = b.predict(x)
            assert np.array_equal(s1, b.predict(x))
            assert np.allclose(s1, S[i], rtol=0, atol=1e-13)
            b.update(x, y)


def test_predict_proba_is_a_probability_vector_and_smoothing_keeps_it_above_mu_over_k():
    X, Y = _seq(10, 2, 4, seed=5, scale=3.0)
    g = GAF(2, 4, 0.1, 0.5, mu=0.2, method="mc", m=20)
    g.run(X, Y)
    p = g.predict_proba(X[0])
    assert abs(p.sum() - 1) < 1e-12 and p.min() >= 0.2 / 4 - 1e-15


def test_huge_margins_give_finite_scores_and_no_warnings():
    X = np.array([[1e4, 0.0], [0.0, -1e4], [1e4, 1e4]])
    Y = np.array([0, 1, 2])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        g = GAF(2, 3, 1e-3, 1.0, method="mc", m=10)
        S = g.run(X, Y)
    assert np.isfinite(S).all() and np.isfinite(g.state()["theta"]).all()


@pytest.mark.parametrize("kwargs,name", [({"lam": 0}, "lam"), ({"beta": -1}, "beta"), ({"mu": 0.7}, "mu"),
                                         ({"mu": 0.5 + 1e-12}, "mu"), ({"method": "exact"}, "method"), ({"K": 1}, "K"),
                                         ({"m": 0}, "m"), ({"d": 0}, "d"), ({"alpha": 0.0}, "alpha"),
                                         ({"R": -1.0}, "R"), ({"tol": 0.0}, "tol")])
def test_bad_parameters_raise_value_error_naming_the_argument(kwargs, name):
    args = {"d": 2, "K": 3, "lam": 1.0, "beta": 1.0} | kwargs
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        GAF(**args)


def test_smallest_admissible_parameters_are_accepted():
    g = GAF(1, 2, lam=1.0, beta=1.0, mu=0.5, m=1, method="mc")
    assert g.d == 1 and g.m == 1 and g.mu == 0.5 and g.history is None and g.last_bound == 0.0


def _phi(x, K):
    """Φ(x) ∈ ℝ^{(K d) × K}: column k carries x in block k (θ = W.ravel(), class-major)."""
    return np.kron(np.eye(K), x.reshape(-1, 1))


def test_score_law_is_the_image_of_the_gaussian_posterior_with_alpha_not_one():
    """ω = θᵀΦ(x) under P̃_t = N(θ_{t+1}, A_t⁻¹/(2α)) (App. B): mean W x, covariance ΦᵀA_t⁻¹Φ/(2α), from the state's
    A by a fresh inverse; and for K = 2 the prediction is log p̂ of that law by an independent 1-D quadrature."""
    K, d, alpha = 2, 3, 0.6
    X, Y = _seq(12, d, K, seed=21)
    g = GAF(d, K, lam=0.4, beta=0.5, alpha=alpha)
    g.run(X[:10], Y[:10])
    x = X[10]
    mean, cov = g.score_law(x)
    st = g.state()
    Phi = _phi(x, K)
    want = Phi.T @ np.linalg.inv(st["A"]) @ Phi / (2 * alpha)
    np.testing.assert_allclose(mean, st["theta"] @ x, rtol=1e-13)
    np.testing.assert_allclose(cov, want, rtol=1e-10)
    assert abs(cov[0, 1]) > 1e-3 * cov[0, 0]
    p1 = _p_hat_1d(st["theta"] @ x, want)
    assert math.exp(g.predict(x)[1]) == pytest.approx(p1, abs=1e-9)


def test_a_zero_input_leaves_theta_a_b_unchanged_and_is_recorded():
    g = GAF(2, 3, 0.5, 0.5, method="mc", m=5, keep_history=True)
    g.run(np.array([[0.6, 0.8], [1.0, 0.0]]), [0, 2])
    before = g.state()
    g.update(np.zeros(2), 1)
    after = g.state()
    for k in ("theta", "A", "A_inv", "b"):
        np.testing.assert_array_equal(before[k], after[k], err_msg=k)
    assert after["t"] == 3 and len(g.history) == 3
    np.testing.assert_array_equal(g.history[-1], before["theta"])


def test_corollary_2_parameters_with_r_not_one():
    from algorithms.gaf import corollary2_parameters

    p = corollary2_parameters(d=3, K=4, B=2.0, R=1.5)
    assert p["lam"] == pytest.approx(32 * 3 * 4 * 1.5 ** 2, rel=1e-15)
    assert p["beta"] == pytest.approx(1 / (math.log(4) / 2 + 2.0 * 1.5 + 1), rel=1e-15)
    assert p["alpha"] == 1.0


@pytest.mark.parametrize("h", [0.4, 1.0, 2.0, 3.5])
def test_trapezoid_mass_bounds_the_rule_mass_tightly(h):
    """h Σ_k φ(kh) = 1 + 2Σ_{m≥1} e^{−2π²m²/h²} (Poisson) ≤ 1 + 2q/(1−q), q = e^{−2π²/h²}: an upper bound within q²."""
    from algorithms.gaf import _trapezoid_mass

    k = np.arange(-400, 401)
    direct = float(h * np.sum(np.exp(-(k * h) ** 2 / 2)) / math.sqrt(2 * math.pi))
    q = math.exp(-2 * math.pi ** 2 / h ** 2)
    assert direct - 1e-14 <= _trapezoid_mass(h) <= direct + 3 * q * q + 1e-14  # 1e-14: rounding of the sum


def test_bad_inputs_raise_value_error_naming_the_argument():
    g = GAF(2, 3, 1.0, 1.0, R=1.0)
    for x, name in ([[np.nan, 0]], "x"), ([[1.0, 2.0, 3.0]], "x"), ([[2.0, 0.0]], "x"):
        with pytest.raises(ValueError, match=name):
            g.predict(x[0])
    with pytest.raises(ValueError, match="y"):
        g.update([0.5, 0.5], 3)
    with pytest.raises(ValueError, match="Y"):
        g.run(np.zeros((2, 2)), [0, 5])


def test_copy_is_independent_and_same_seed_gives_same_output():
    X, Y = _seq(12, 2, 3, seed=9)
    a = GAF(2, 3, 1.0, 1.0, method="mc", m=30, seed=3)
    a.run(X[:6], Y[:6])
    b = a.copy()
    Sa, Sb = a.run(X[6:], Y[6:]), b.run(X[6:], Y[6:])
    assert np.array_equal(Sa, Sb)
    S3 = GAF(2, 3, 1.0, 1.0, method="mc", m=30, seed=3).run(X, Y)
    np.testing.assert_array_equal(S3, GAF(2, 3, 1.0, 1.0, method="mc", m=30, seed=3).run(X, Y))
    S4 = GAF(2, 3, 1.0, 1.0, method="mc", m=30, seed=4).run(X, Y)
    assert np.all(np.any(S3 != S4, axis=1))  # same data, same round, another seed: other draws at every round


def test_monte_carlo_cumulative_loss_approaches_exact_gaf_as_m_grows():
    X, Y = _seq(60, 3, 3, seed=11)
    exact = losses(GAF(3, 3, 0.5, 0.5).run(X, Y), Y).sum()
    gaps = [abs(losses(GAF(3, 3, 0.5, 0.5, method="mc", m=m, seed=2).run(X, Y), Y).sum() - exact)
            for m in (10, 10_000)]
    assert gaps[1] < gaps[0] and gaps[1] < 0.05


def test_extend_keeps_a_inverse_the_inverse_of_a_with_lambda_not_one():
    X, Y = _seq(6, 2, 3, seed=23)
    g = GAF(2, 3, lam=0.4, beta=0.5, method="mc", m=5)
    g.run(X, Y)
    g.extend(1)
    st = g.state()
    assert st["A"].shape == (9, 9)
    np.testing.assert_allclose(st["A_inv"] @ st["A"], np.eye(9), atol=1e-12)


def test_newton_scores_with_its_default_tolerance_solves_the_k_dimensional_stationarity_equation():
    """c minimises cᵀSc + ℓ(z0 + Sc, y): 2c + σ(z0 + Sc) − e_y = 0 (multiplied by S, the gradient in c); the default
    tol (1e-13 on ‖x‖‖2c + r‖) must be met without passing it. K = 4, ‖x‖ = 2.5, S not a multiple of I."""
    from algorithms.gaf import newton_scores

    rng = np.random.default_rng(31)
    M = rng.normal(size=(4, 4))
    S = M @ M.T + 0.3 * np.eye(4)
    z0 = np.array([1.5, -0.7, 0.2, 2.9])
    for y in (0, 2):
        c = newton_scores(z0, S, y, 2.5)
        r = softmax(z0 + S @ c) - np.eye(4)[y]
        assert 2.5 * np.linalg.norm(2 * c + r) <= 1e-12
        assert np.linalg.norm(c) > 1e-2


def test_max_nodes_is_a_hard_limit_of_the_quadrature():
    """The quadrature uses N nodes; max_nodes = N is enough, N − 1 raises (naming the way out), both for the free
    function and for a learner built with that max_nodes."""
    z, Sigma = np.array([0.3, -0.4, 0.1]), np.array([[1.0, 0.2, 0.0], [0.2, 0.8, -0.1], [0.0, -0.1, 0.5]])
    logp, _, N = expected_softmax_quadrature(z, Sigma)
    np.testing.assert_array_equal(expected_softmax_quadrature(z, Sigma, 1e-10, N)[0], logp)
    with pytest.raises(RuntimeError, match=rf"^quadrature needs {N} nodes > max_nodes = {N - 1}; raise tol"):
        expected_softmax_quadrature(z, Sigma, 1e-10, N - 1)
    g = GAF(2, 3, lam=0.05, beta=0.5, max_nodes=10)
    with pytest.raises(RuntimeError, match="max_nodes = 10"):
        g.predict([0.6, 0.8])


def test_quadrature_default_tolerance_is_1e_10():
    """The documented default tol = 1e-10 bounds the error (the bound is summed in float64: it may exceed tol by
    an ulp, 1.0000000000000002e-10 here)."""
    z, Sigma = np.array([0.3, -0.4, 0.1]), np.diag([0.9, 0.4, 0.2])
    _, bound, _ = expected_softmax_quadrature(z, Sigma)
    assert 1e-11 < bound <= 1e-10 * (1 + 1e-12)


def test_score_factor_of_a_singular_covariance_is_finite_and_reproduces_it_on_the_ones_complement():
    """Σ = ΦᵀA⁻¹Φ is only PSD (rank one after one input direction): rounding can make an eigenvalue of QᵀΣQ slightly
    negative; L must stay finite with LLᵀ = ΠΣΠ (Π the projector on 1⊥)."""
    from algorithms.gaf import score_factor

    rng = np.random.default_rng(32)
    Pi = np.eye(3) - np.ones((3, 3)) / 3
    for _ in range(40):
        v = rng.normal(size=3)
        Sigma = np.outer(v, v)
        L = score_factor(Sigma)
        assert np.isfinite(L).all()
        np.testing.assert_allclose(L @ L.T, Pi @ Sigma @ Pi, atol=1e-12 * (v @ v))


def test_score_law_enforces_the_input_bound_r():
    g = GAF(2, 3, 1.0, 1.0, R=1.0)
    with pytest.raises(ValueError, match=r"\bx\b"):
        g.score_law([2.0, 0.0])


def test_defaults_are_the_papers_alpha_one_and_no_smoothing():
    """α = 1 for the logistic loss (Corollary 2) and μ = 0 (eq. (6) unsmoothed): the covariance of the score law is
    ΦᵀA⁻¹Φ/2 and the prediction is log p̂ itself."""
    X, Y = _seq(6, 2, 3, seed=33)
    g = GAF(2, 3, lam=0.7, beta=0.4)
    g.run(X, Y)
    x = np.array([0.3, -0.5])
    z, Sigma = g.score_law(x)
    Ainv = np.linalg.inv(g.state()["A"])
    np.testing.assert_allclose(Sigma, _phi(x, 3).T @ Ainv @ _phi(x, 3) / 2.0, rtol=1e-10)
    np.testing.assert_allclose(g.predict(x), g.log_p_hat(x), rtol=0, atol=0)
    assert (g.alpha, g.mu) == (1.0, 0.0)


def test_quadrature_rule_spends_the_error_budget_as_its_bound_says():
    """quadrature_rule splits tol into ε = tol/(2r) per term: per dimension the step h makes Trefethen–Weideman's
    discretisation term 2M e^{a²/2}/(e^{2πa/h} − 1) equal to ε for the strip half-width a = (2π/3)/w (w the spread of
    the column), and T makes the tail erfc((T − h)/√2) equal to ε; a direction with ½w² ≤ ε takes the single node 0
    with error ½w². Hence bound = tol for one wide direction, and ½w₁² + 2ε with one narrow and one wide."""
    from algorithms.gaf import M_STRIP, quadrature_rule

    tol = 1e-8
    nodes, weights, bound = quadrature_rule(np.array([[0.0], [1.3]]), tol)     # K = 2, r = 1, w = 1.3
    assert bound == pytest.approx(tol, rel=1e-9)
    h, eps, a = nodes[0][1] - nodes[0][0], tol / 2, (2 * math.pi / 3) / 1.3
    assert a < math.sqrt(2 * math.log(2 * M_STRIP / eps))                        # the strip is the binding limit
    assert h == pytest.approx(2 * math.pi * a / math.log1p(2 * M_STRIP * math.exp(a * a / 2) / eps), rel=1e-12)
    assert 1.0 - eps <= weights[0].sum() <= 1.0 + 1e-12                           # mass lost beyond T: ≤ ε
    eps = tol / 4
    w1 = math.sqrt(2 * 0.6 * eps)                                               # ½w₁² = 0.6ε: one node
    nodes, _, bound = quadrature_rule(np.array([[0.0, 0.0], [w1, 0.0], [0.0, 1.3]]), tol)
    assert len(nodes[0]) == 1 and len(nodes[1]) > 1
    assert bound == pytest.approx(0.6 * eps + 2 * eps, rel=1e-9)

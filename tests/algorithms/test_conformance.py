"""Named checks applied to every learner (a new learner is one new row of LEARNERS)."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import algorithms as alg
from tests.algorithms.conftest import ball_stream

# id -> (factory, d, R); R is the input bound the learner enforces (None: no bound)
LEARNERS = {
    "AIOLI": (lambda: alg.AIOLI(3, B=2.0, R=1.0), 3, 1.0),
    "AIOLI-inner-steps": (lambda: alg.AIOLI(3, B=2.0, R=1.0, inner_steps=20), 3, 1.0),
    "SurrogateFTL": (lambda: alg.SurrogateFTL(3, B=2.0, R=1.0), 3, 1.0),
    "FTRL": (lambda: alg.FTRL(3, lam=1.0, R=1.0), 3, 1.0),
    "FTRL-ball": (lambda: alg.FTRL(3, lam=0.1, B=0.5, R=1.0), 3, 1.0),
    "FTL": (lambda: alg.FTL(3, B=2.0, R=1.0), 3, 1.0),
    "ONS": (lambda: alg.ONS(3, B=2.0, R=1.0), 3, 1.0),
    "OGD": (lambda: alg.OGD(3, B=2.0, R=1.0), 3, 1.0),
    "Foster": (lambda: alg.FosterAggregating(B=3.0, R=1.0, panels=32), 1, 1.0),
    "ScaleInvariant-Alg1": (lambda: alg.ScaleInvariantCoordinatewise(3, alpha=1.5, R=1.0), 3, 1.0),
    "ScaleInvariant-Alg2": (lambda: alg.ScaleInvariantFull(3, alpha=1.5, R=1.0), 3, 1.0),
    "003-Alg1": (lambda: alg.FTRLSurrogate1D(D=4.0, T=100), 1, 1.0),
    "003-Alg2": (lambda: alg.FTRLSurrogate1D(D=4.0, T=100, form="algorithm-2"), 1, 1.0),
    "EKF": (lambda: alg.EKF(3, R=1.0), 3, 1.0),
    "TruncatedEKF": (lambda: alg.TruncatedEKF(3, beta=0.3, R=1.0), 3, 1.0),
    "SOS": (lambda: alg.SOS(3, R=1.0), 3, 1.0),
}
IDS = sorted(LEARNERS)
N = 25


@pytest.fixture(autouse=True)
def _warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        yield


def _make(name):
    factory, d, R = LEARNERS[name]
    return factory(), d, R


def _assert_states_equal(s1, s2):
    assert s1.keys() == s2.keys()
    for k in s1:
        if isinstance(s1[k], np.ndarray):
            np.testing.assert_array_equal(s1[k], s2[k], err_msg=k)
        else:
            assert s1[k] == s2[k], k


@pytest.mark.parametrize("name", IDS)
def test_predict_is_pure(name):
    L, d, R = _make(name)
    X, Y = ball_stream(N, d, R, seed=1)
    L.run(X[:10], Y[:10])
    ref = L.copy()
    first = L.predict(X[10])
    for x in X[11:]:
        L.predict(x)
    assert L.predict(X[10]) == first
    np.testing.assert_array_equal(L.run(X[10:], Y[10:]), ref.run(X[10:], Y[10:]))


@pytest.mark.parametrize("name", IDS)
def test_run_equals_predict_then_update(name):
    L1, d, R = _make(name)
    L2, _, _ = _make(name)
    X, Y = ball_stream(N, d, R, seed=2)
    p1 = L1.run(X, Y)
    p2 = []
    for x, y in zip(X, Y):
        p2.append(L2.predict(x))
        L2.update(x, y)
    np.testing.assert_array_equal(p1, np.array(p2))
    _assert_states_equal(L1.state(), L2.state())


@pytest.mark.parametrize("name", IDS)
def test_update_alone_learns_as_predict_then_update(name):
    L1, d, R = _make(name)
    L2, _, _ = _make(name)
    X, Y = ball_stream(N, d, R, seed=3)
    L1.run(X, Y)
    for x, y in zip(X, Y):
        L2.update(x, y)
    x_new = ball_stream(1, d, R, seed=4)[0][0]
    # iterative solvers (FTRL, FTL) are warm-started from the last θ they computed: agree to machine precision
    assert L1.predict(x_new) == pytest.approx(L2.predict(x_new), rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("name", IDS)
def test_same_input_gives_same_output(name):
    L1, d, R = _make(name)
    L2, _, _ = _make(name)
    X, Y = ball_stream(N, d, R, seed=5)
    np.testing.assert_array_equal(L1.run(X, Y), L2.run(X, Y))


@pytest.mark.parametrize("name", IDS)
def test_copy_is_independent(name):
    L, d, R = _make(name)
    X, Y = ball_stream(N, d, R, seed=6)
    L.run(X[:5], Y[:5])
    c = L.copy()
    before = c.state()
    L.run(X[5:], Y[5:])
    _assert_states_equal(c.state(), before)
    fresh, _, _ = _make(name)
    fresh.run(X[:5], Y[:5])
    np.testing.assert_array_equal(c.run(X[5:], Y[5:]), fresh.run(X[5:], Y[5:]))


@pytest.mark.parametrize("name", IDS)
def test_state_returns_copies(name):
    L, d, R = _make(name)
    X, Y = ball_stream(5, d, R, seed=7)
    L.run(X, Y)
    s = L.state()
    for v in s.values():
        if isinstance(v, np.ndarray):
            v[...] = 12345.0
    s2 = L.state()
    for k, v in s2.items():
        if isinstance(v, np.ndarray):
            assert not np.any(v == 12345.0), k
    assert "theta_hat" in s2 or "w" in s2


@pytest.mark.parametrize("name", IDS)
@pytest.mark.parametrize("bad, arg", [
    ("nan", "x"), ("inf", "x"), ("dim", "x"), ("norm", "x"), ("y0", "y"), ("y2", "y"), ("ynan", "y"),
])
def test_bad_input_raises_value_error_naming_the_argument(name, bad, arg):
    L, d, R = _make(name)
    x = np.zeros(d)
    x[0] = 0.5
    y = 1.0
    if bad == "nan":
        x[-1] = np.nan
    elif bad == "inf":
        x[0] = -np.inf
    elif bad == "dim":
        x = np.zeros(d + 1)
    elif bad == "norm":
        x[0] = 2.0 * R
    elif bad == "y0":
        y = 0.0
    elif bad == "y2":
        y = 2
    elif bad == "ynan":
        y = float("nan")
    calls = [lambda: L.update(x, y), lambda: L.run(x[None, :] if x.ndim == 1 else x, [y])]
    if arg == "x":
        calls.append(lambda: L.predict(x))
    for call in calls:
        with pytest.raises(ValueError, match=rf"\b{arg}|\b{arg.upper()}"):
            call()


@pytest.mark.parametrize("name", IDS)
def test_adversarial_labels_at_the_sphere_keep_everything_finite(name):
    """||x|| = R, labels opposite to the prediction (the largest losses), B up to 50 where B is a parameter."""
    factory, d, R = LEARNERS[name]
    L = factory()
    rng = np.random.default_rng(8)
    for _ in range(60):
        x = rng.standard_normal(d)
        x *= R / np.linalg.norm(x)
        yhat = L.predict(x)
        assert np.isfinite(yhat)
        L.update(x, -1.0 if yhat >= 0 else 1.0)
    for k, v in L.state().items():
        if isinstance(v, (np.ndarray, float)):
            assert np.all(np.isfinite(v)), k


BIG_B = {
    "AIOLI": lambda: alg.AIOLI(2, B=50.0, R=1.0),
    "AIOLI-inner-steps": lambda: alg.AIOLI(2, B=50.0, R=1.0, inner_steps=50),
    "SurrogateFTL": lambda: alg.SurrogateFTL(2, B=50.0, R=1.0),
    "FTL": lambda: alg.FTL(2, B=50.0, R=1.0),
    "FTRL-ball": lambda: alg.FTRL(2, lam=1e-4, B=50.0, R=1.0),
    "ONS": lambda: alg.ONS(2, B=50.0, R=1.0),
    "OGD": lambda: alg.OGD(2, B=50.0, R=1.0),
    "EKF-huge-start": lambda: alg.EKF(2, theta1=[1e4, 0.0]),
    "TruncatedEKF-huge-start": lambda: alg.TruncatedEKF(2, beta=0.3, theta1=[-1e4, 0.0]),
    "SOS": lambda: alg.SOS(2, P1=1e4 * np.eye(2)),
}


@pytest.mark.parametrize("name", sorted(BIG_B))
def test_huge_margins_stay_finite_at_b_50(name):
    L = BIG_B[name]()
    x = np.array([1.0, 0.0])
    preds = []
    for t in range(80):  # a long run of one label, then flips: margins of order B R or 1e4
        y = 1.0 if t < 60 else -1.0
        preds.append(L.predict(x))
        L.update(x, y)
        L.update(np.array([0.0, -1.0]), -y)
    assert np.all(np.isfinite(preds))
    for k, v in L.state().items():
        if isinstance(v, (np.ndarray, float)):
            assert np.all(np.isfinite(v)), k


CONSTRUCTOR_ERRORS = [
    (lambda: alg.AIOLI(2, B=0.0, R=1.0), "B"), (lambda: alg.AIOLI(2, B=-1.0, R=1.0), "B"),
    (lambda: alg.AIOLI(2, B=1.0, R=0.0), "R"), (lambda: alg.AIOLI(2, B=1.0, R=1.0, lam=0.0), "lam"),
    (lambda: alg.AIOLI(2, B=1.0, R=1.0, lam=float("nan")), "lam"), (lambda: alg.AIOLI(0, B=1.0, R=1.0), "d"),
    (lambda: alg.AIOLI(2, B=1.0, R=1.0, inner_steps=-1), "inner_steps"),
    (lambda: alg.SurrogateFTL(2, B=float("inf"), R=1.0), "B"),
    (lambda: alg.FTRL(2, lam=-1.0), "lam"), (lambda: alg.FTRL(2, lam=1.0, B=0.0), "B"),
    (lambda: alg.FTL(2, B=-2.0), "B"), (lambda: alg.ONS(2, B=0.0, R=1.0), "B"), (lambda: alg.OGD(2, B=1, R=-1), "R"),
    (lambda: alg.FosterAggregating(B=0.0), "B"), (lambda: alg.ScaleInvariantFull(2, alpha=1.0), "alpha"),
    (lambda: alg.ScaleInvariantCoordinatewise(2, alpha=1.125), "alpha"),
    (lambda: alg.FTRLSurrogate1D(D=0.0, T=10), "D"), (lambda: alg.FTRLSurrogate1D(D=2.0, eta=0.0), "eta"),
    (lambda: alg.TruncatedEKF(2, beta=0.5), "beta"), (lambda: alg.EKF(2, P1=-np.eye(2)), "P1"),
    (lambda: alg.SOS(2, P1=np.zeros((2, 2))), "P1"),
    (lambda: alg.ONS(2, B=1.0, R=0.0), "R"), (lambda: alg.ONS(2, B=1.0, R=1.0, gamma=0.0), "gamma"),
    (lambda: alg.ONS(2, B=1.0, R=1.0, eps=-1.0), "eps"), (lambda: alg.ONS(2, B=400.0, R=10.0), "gamma"),
    (lambda: alg.OGD(2, B=0.0, R=1.0), "B"), (lambda: alg.FTRL(2, lam=1.0, R=0.0), "R"),
    (lambda: alg.EKF(2, R=-1.0), "R"), (lambda: alg.EKF(2, P1=np.eye(3)), "P1"),
    (lambda: alg.EKF(2, P1=[[1.0, 0.5], [0.0, 1.0]]), "P1"), (lambda: alg.EKF(2, theta1=[1.0]), "theta1"),
    (lambda: alg.TruncatedEKF(2, beta=0.0), "beta"), (lambda: alg.ScaleInvariantFull(2, tol=0.0), "tol"),
    (lambda: alg.ScaleInvariantFull(2, R=0.0), "R"), (lambda: alg.ScaleInvariantCoordinatewise(2, R=0.0), "R"),
    (lambda: alg.AIOLI(2, B=1.0, R=1.0, inner_steps=1.5), "inner_steps"),
    (lambda: alg.AIOLI(2, B=1.0, R=1.0, inner_steps=True), "inner_steps"),
    (lambda: alg.ScaleInvariantFull(2, alpha=-1.0), "alpha"),
]


@pytest.mark.parametrize("factory, arg", CONSTRUCTOR_ERRORS)
def test_bad_parameters_raise_value_error_naming_the_parameter(factory, arg):
    with pytest.raises(ValueError, match=rf"\b{arg}\b"):
        factory()


@st.composite
def learner_and_bad_x(draw):
    name = draw(st.sampled_from(IDS))
    _, d, R = LEARNERS[name]
    x = np.array(draw(st.lists(st.floats(-0.5, 0.5), min_size=d, max_size=d))) / np.sqrt(d)
    kind = draw(st.sampled_from(["nan", "inf", "-inf", "norm"]))
    i = draw(st.integers(0, d - 1))
    if kind == "norm":
        x[i] = draw(st.floats(1.0001, 1e300)) * R
    else:
        x[i] = float(kind)
    return name, x


@settings(max_examples=60, deadline=None)
@given(learner_and_bad_x())
def test_any_non_finite_or_too_long_x_is_rejected(case):
    name, x = case
    L, _, _ = _make(name)
    for call in (lambda: L.predict(x), lambda: L.update(x, 1.0)):
        with pytest.raises(ValueError, match=r"\bx\b"):
            call()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(IDS), st.one_of(st.floats(allow_nan=True), st.integers(-5, 5), st.text(max_size=2))
       .filter(lambda y: not (isinstance(y, (int, float)) and y in (1, -1))))
def test_any_label_other_than_plus_or_minus_one_is_rejected(name, y):
    L, d, _ = _make(name)
    x = np.full(d, 0.1)
    with pytest.raises(ValueError, match=r"\by\b"):
        L.update(x, y)
    with pytest.raises(ValueError, match=r"\bY\b"):
        L.run(x[None, :], [y])

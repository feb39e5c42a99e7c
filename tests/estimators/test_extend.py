"""``extend(k)``: a learner grown by k coordinates mid-stream equals the learner of the full dimension that saw the
past inputs padded with zeros (algorithms/_extend.py); ``add_classes`` adds working class slots."""
import numpy as np
import pytest

from algorithms import (AIOLI, EKF, FTRL, GAF, OGD, ONS, MulticlassFTRL, MulticlassOGD, MulticlassONS,
                        ScaleInvariantFull)

BINARY = {"AIOLI": lambda d: AIOLI(d, 2.0, 3.0), "ONS": lambda d: ONS(d, 2.0, 3.0), "OGD": lambda d: OGD(d, 2.0, 3.0),
          "EKF": lambda d: EKF(d), "FTRL": lambda d: FTRL(d), "ScaleInvariantFull": lambda d: ScaleInvariantFull(d)}
MULTI = {"GAF": lambda d: GAF(d, 3, 1.0, 0.5, method="mc", m=30), "MulticlassONS": lambda d: MulticlassONS(d, 3, 1.0, 1.0, B=2.0),
         "MulticlassOGD": lambda d: MulticlassOGD(d, 3, 1.0)}


def _data(n=60, d=3, k=2, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d + k)) * 0.4
    X[:25, d:] = 0.0
    return X, np.where(rng.random(n) < 0.5, 1.0, -1.0), rng.integers(0, 3, n)


@pytest.mark.parametrize("name", list(BINARY) + list(MULTI))
def test_extend_mid_stream_equals_the_full_dimension_learner(name):
    make = BINARY.get(name) or MULTI[name]
    X, Y, Yc = _data()
    labels = Y if name in BINARY else Yc
    full = make(5).run(X, labels)
    grown = make(3)
    first = grown.run(X[:25, :3], labels[:25])
    grown.extend(2)
    second = grown.run(X[25:], labels[25:])
    tol = 1e-8 if "FTRL" in name else 1e-13  # FTRL: Newton's stopping tolerance
    np.testing.assert_allclose(np.concatenate([first, second]), full, rtol=0, atol=tol)


def test_multiclass_ftrl_extend_on_a_short_stream():  # its Newton solve costs O(t) a round: keep it short
    X, _, Yc = _data(n=10, seed=2)
    X[:5, 3:] = 0.0
    full = MulticlassFTRL(5, 3, 1.0).run(X, Yc)
    grown = MulticlassFTRL(3, 3, 1.0)
    first = grown.run(X[:5, :3], Yc[:5])
    grown.extend(2)
    np.testing.assert_allclose(np.concatenate([first, grown.run(X[5:], Yc[5:])]), full, rtol=0, atol=1e-8)


def test_extension_is_not_vacuous_a_nonzero_past_coordinate_breaks_the_equality():
    X, Y, _ = _data()
    X[3, 4] = 0.5  # the "new" coordinate was not 0 in the past: the grown learner cannot know
    full = AIOLI(5, 2.0, 3.0).run(X, Y)
    grown = AIOLI(3, 2.0, 3.0)
    first = grown.run(X[:25, :3], Y[:25])
    grown.extend(2)
    assert np.max(np.abs(np.concatenate([first, grown.run(X[25:], Y[25:])]) - full)) > 1e-6


@pytest.mark.parametrize("name", list(MULTI))
def test_add_classes_gives_working_slots(name):
    X, _, Yc = _data()
    learner = MULTI[name](5)
    learner.run(X[:20], Yc[:20])
    learner.add_classes(2)
    assert learner.K == 5 and learner.predict(X[0]).shape == (5,)
    learner.update(X[21], 4)
    assert np.isfinite(learner.predict(X[22])).all()


def test_extend_rejects_a_bad_k():
    with pytest.raises(ValueError, match="k must"):
        AIOLI(2, 1.0, 1.0).extend(-1)

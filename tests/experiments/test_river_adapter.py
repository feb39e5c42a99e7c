"""The river adapter: any learner runs under river's progressive validation."""
import numpy as np
import pytest
from river import datasets, evaluate, metrics

from algorithms import AIOLI
from olr_verify.adapters.river_adapter import RiverClassifier
from olr_verify.experiments.real_data import phishing


def test_progressive_val_score_runs_aioli_on_phishing_like_the_direct_loop():
    features = sorted(next(iter(datasets.Phishing()))[0])
    X, Y = phishing()
    scale = float(np.max(np.linalg.norm(np.array([[x[f] for f in features] for x, _ in datasets.Phishing()]),
                                        axis=1)))
    model = RiverClassifier(AIOLI(d=9, B=10.0, R=1.0), features=features, scale=scale)
    score = evaluate.progressive_val_score(datasets.Phishing(), model, metrics.LogLoss())
    direct = np.logaddexp(0.0, -Y * AIOLI(d=9, B=10.0, R=1.0).run(X, Y)).mean()
    assert score.get() == pytest.approx(direct, rel=1e-9)
    assert score.get() < np.log(2)  # better than the constant 1/2 forecaster


def test_predict_proba_one_has_no_side_effect_and_sums_to_one():
    model = RiverClassifier(AIOLI(d=2, B=1.0, R=1.0))
    x = {"a": 0.3, "b": -0.4}
    first = model.predict_proba_one(x)
    assert model.predict_proba_one(x) == first
    assert first[True] + first[False] == pytest.approx(1.0)
    model.learn_one(x, True)
    assert model.predict_proba_one(x)[True] > first[True]


def test_bad_scale_and_unknown_features_raise_value_errors_and_missing_features_are_zero():
    with pytest.raises(ValueError, match="scale"):
        RiverClassifier(AIOLI(d=1, B=1.0, R=1.0), scale=0.0)
    model = RiverClassifier(AIOLI(d=2, B=1.0, R=1.0), features=["a", "b"])
    with pytest.raises(ValueError, match="features"):
        model.predict_proba_one({"a": 1.0, "c": 2.0})
    model.learn_one({"a": 0.5, "b": 0.2}, True)
    assert model.predict_proba_one({"a": 0.5}) == model.predict_proba_one({"a": 0.5, "b": 0.0})


def test_clone_is_fresh_and_the_template_learner_is_never_trained():
    template = AIOLI(d=2, B=1.0, R=1.0)
    model = RiverClassifier(template, features=["a", "b"])
    for _ in range(5):
        model.learn_one({"a": 0.6, "b": 0.1}, True)
    assert template.t == 0
    fresh = model.clone()
    assert fresh.predict_proba_one({"a": 0.6, "b": 0.1})[True] == pytest.approx(0.5)
    assert model.predict_proba_one({"a": 0.6, "b": 0.1})[True] > 0.55


def test_the_adapter_passes_rivers_estimator_checks_with_its_unit_test_params():
    from river.checks import check_estimator

    for params in RiverClassifier._unit_test_params():
        check_estimator(RiverClassifier(**params))

"""Wrap an already-built binary olr_verify learner as a river classifier (fixed feature list).

For river-native estimators (default-constructible, features that appear and disappear, practical mode for R)
use :mod:`olr_verify.river` (``AIOLIClassifier`` …); this adapter is for running a learner object you built
yourself, e.g. with the paper's constants, on a stream whose features are known:

    river.evaluate.progressive_val_score(dataset, RiverClassifier(AIOLI(d, B, R), features), metrics.LogLoss())

``x`` (a dict) is mapped to the vector of ``features`` (in that order; by default the sorted keys of the first
``x`` learnt from; before it, ``predict_proba_one`` answers ½) divided by ``scale``; a missing feature is 0; a key outside ``features``
raises ValueError (the learner's dimension is fixed). ``True``/``False`` map to +1/−1. The ``learner`` argument
is a template that is never trained: the classifier trains a private copy, so ``clone()`` is fresh.
``predict_proba_one`` has no side effect on what is learnt.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from river import base
from scipy.special import expit


class RiverClassifier(base.Classifier):
    """A river binary classifier backed by a learner with ``predict(x) -> float`` and ``update(x, y)``.

    Args:
        learner: the online learner (ŷ = predict(x) is the real-valued margin); copied, never trained itself.
        features: feature names in vector order; by default the sorted keys of the first ``x`` seen.
        scale: the vector is ``x / scale`` (choose it so that inputs lie in the learner's R-ball).
    """

    def __init__(self, learner: Any, features: Sequence[str] | None = None, scale: float = 1.0):
        if not np.isfinite(scale) or scale <= 0:
            raise ValueError(f"scale must be a positive finite number, got {scale!r}")
        self.learner = learner
        self.features = features
        self.scale = scale
        self._learner = learner.copy()
        self._features = list(features) if features is not None else None

    @classmethod
    def _unit_test_params(cls):
        from algorithms import AIOLI

        from river import datasets

        features = tuple(sorted(next(iter(datasets.Phishing()))[0]))  # the stream river's checks use
        yield {"learner": AIOLI(d=len(features), B=1.0, R=10.0), "features": features}

    @property
    def _multiclass(self) -> bool:
        return False

    def _vector(self, x: dict) -> np.ndarray:
        if self._features is None:  # set by the first learn_one (predict_proba_one answers ½ before it)
            self._features = sorted(x)
        unknown = [f for f in x if f not in self._features]
        if unknown:
            raise ValueError(f"x has features {unknown} outside features={self._features} (the learner's "
                             "dimension is fixed; olr_verify.river grows with new features)")
        return np.array([float(x.get(f, 0.0)) for f in self._features]) / float(self.scale)

    def learn_one(self, x: dict, y: bool) -> None:
        if y not in (True, False, 0, 1):
            raise ValueError(f"y must be a boolean label, got {y!r}")
        self._learner.update(self._vector(x), 1 if y else -1)

    def predict_proba_one(self, x: dict) -> dict[bool, float]:
        if self._features is None:
            return {False: 0.5, True: 0.5}
        p_true = float(expit(self._learner.predict(self._vector(x))))
        return {False: 1.0 - p_true, True: p_true}

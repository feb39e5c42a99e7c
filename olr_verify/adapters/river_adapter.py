"""Wrap any binary olr_verify learner as a river classifier.

river works with dict features and boolean labels; the learners of ``algorithms/`` take vectors and
labels ±1. ``RiverClassifier(learner, features, scale)`` maps ``x`` (a dict) to the vector of
``features`` (in that order) divided by ``scale``, and ``True``/``False`` to +1/−1, so that::

    river.evaluate.progressive_val_score(dataset, RiverClassifier(AIOLI(d, B, R)), metrics.LogLoss())

runs the learner with predict-then-update on the stream. ``predict_proba_one`` has no side effect.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from river import base
from scipy.special import expit


class RiverClassifier(base.Classifier):
    """A river binary classifier backed by a learner with ``predict(x) -> float`` and ``update(x, y)``.

    Args:
        learner: the online learner (ŷ = predict(x) is the real-valued margin).
        features: feature names in vector order; by default the sorted keys of the first ``x`` seen.
        scale: the vector is ``x / scale`` (choose it so that inputs lie in the learner's R-ball).
    """

    def __init__(self, learner: Any, features: Sequence[str] | None = None, scale: float = 1.0):
        if not np.isfinite(scale) or scale <= 0:
            raise ValueError(f"scale must be a positive finite number, got {scale!r}")
        self.learner = learner
        self.features = list(features) if features is not None else None
        self.scale = float(scale)

    @property
    def _multiclass(self) -> bool:
        return False

    def _vector(self, x: dict) -> np.ndarray:
        if self.features is None:
            self.features = sorted(x)
        missing = [f for f in self.features if f not in x]
        if missing:
            raise ValueError(f"x lacks features {missing}")
        return np.array([float(x[f]) for f in self.features]) / self.scale

    def learn_one(self, x: dict, y: bool) -> None:
        if y not in (True, False, 0, 1):
            raise ValueError(f"y must be a boolean label, got {y!r}")
        self.learner.update(self._vector(x), 1 if y else -1)

    def predict_proba_one(self, x: dict) -> dict[bool, float]:
        p_true = float(expit(self.learner.predict(self._vector(x))))
        return {True: p_true, False: 1.0 - p_true}

"""scikit-learn estimators for the papers' learners: ``from olr_verify.sklearn import AIOLIClassifier``.

::

    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from olr_verify.sklearn import AIOLIClassifier
    model = make_pipeline(StandardScaler(), AIOLIClassifier()).fit(X, y)     # or .partial_fit(X, y, classes=...)

Same learners and parameters as :mod:`olr_verify.river` (one recipe each, ``olr_verify/adapters/recipes.py``):
binary :class:`AIOLIClassifier`, :class:`ONSClassifier`, :class:`OGDClassifier`, :class:`EKFClassifier`,
:class:`FTRLClassifier`, :class:`ScaleInvariantClassifier`; multiclass :class:`GAFClassifier`,
:class:`MulticlassONSClassifier`, :class:`MulticlassOGDClassifier`.

Conventions (as ``SGDClassifier``):

- ``fit(X, y)`` starts from a fresh learner and makes **one online pass** over the rows in order (predict, then
  update, row by row — the protocol the papers' regret bounds are about); ``partial_fit(X, y, classes=None)``
  continues the pass; ``classes`` is required on the first call and must not change afterwards;
- ``classes_`` is the sorted array of labels; for binary estimators ``classes_[1]`` is the positive class
  (y = +1 for the learner), ``decision_function`` is the learner's margin ŷ (shape (n,)) and
  ``predict_proba`` is [σ(−ŷ), σ(ŷ)]; the binary estimators reject more than two classes ("Only binary
  classification is supported");
- multiclass estimators: ``decision_function`` is the (n, K) score array (for K = 2 the difference of the
  two scores, shape (n,)), ``predict_proba`` its softmax;
- predictions are pure: each row is scored by the current learner, independently of the other rows;
- ``R=None`` (AIOLI, ONS, OGD) is the practical mode of :mod:`olr_verify.river`: R_t is the running max of
  ‖x_t‖ over the rows seen so far, R_1 = ‖x_1‖ when the learner is built (the guarantee then holds with R
  replaced by R_n, see that module); both wrappers compute the same probabilities row for row;
- each row's norm must be 0 or lie in [1e-30, 1e6] (``recipes.NORM_RANGE``): beyond, a ValueError naming the row.

BLAS runs single-threaded inside each call (``algorithms._threads``).
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import expit, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted, validate_data

from algorithms._threads import single_threaded_blas
from olr_verify.adapters.recipes import (AIOLIRecipe, EKFRecipe, FTRLRecipe, GAFRecipe, MulticlassOGDRecipe,
                                         MulticlassONSRecipe, OGDRecipe, ONSRecipe, ScaleInvariantRecipe, NORM_RANGE,
                                         check_norm, row_norms)

__all__ = ["AIOLIClassifier", "ONSClassifier", "OGDClassifier", "EKFClassifier", "FTRLClassifier",
           "ScaleInvariantClassifier", "GAFClassifier", "MulticlassONSClassifier", "MulticlassOGDClassifier"]


def _checked_norms(X: np.ndarray) -> np.ndarray:
    """The rows' norms; ValueError naming the first row outside ``recipes.NORM_RANGE`` (0 is allowed)."""
    norms = row_norms(X)
    for i in np.flatnonzero((norms > 0) & ((norms < NORM_RANGE[0]) | (norms > NORM_RANGE[1])))[:1]:
        check_norm(float(norms[i]), f"X[{i}]")
    return norms


class _OnlineClassifier(ClassifierMixin, BaseEstimator):
    """fit / partial_fit / predict / predict_proba / decision_function around a learner of ``algorithms/``."""

    _binary_only = True

    def fit(self, X, y):
        """A fresh learner, then one online pass over (X, y) in row order."""
        X, y = validate_data(self, X, y, reset=True, dtype=np.float64)
        check_classification_targets(y)
        for attr in ("classes_", "_learner"):
            self.__dict__.pop(attr, None)
        norms = _checked_norms(X)
        self._start(np.unique(y), y, norms)
        self._learn(X, y, norms)
        return self

    def partial_fit(self, X, y, classes=None):
        """Continue the online pass with (X, y); ``classes`` (all labels) is required on the first call."""
        first = not hasattr(self, "classes_")
        if first and classes is None:
            raise ValueError("classes must be passed on the first call to partial_fit.")
        X, y = validate_data(self, X, y, reset=first, dtype=np.float64)
        check_classification_targets(y)
        norms = _checked_norms(X)
        if first:
            self._start(np.unique(classes), y, norms)
        elif classes is not None and not np.array_equal(np.unique(classes), self.classes_):
            raise ValueError(f"classes={classes!r} is not the same as on the first call to partial_fit: "
                             f"{self.classes_!r}")
        self._learn(X, y, norms)
        return self

    # ---- state
    def _start(self, classes: np.ndarray, y, norms: np.ndarray) -> None:
        self._validate_params()
        if classes.size < 2:
            raise ValueError(f"y must contain at least two classes to fit a classifier; got 1 class: {classes!r}")
        if self._binary_only and classes.size > 2:
            raise ValueError("Only binary classification is supported. The type of the target is "
                             f"{type_of_target(y, input_name='y')}.")
        self.classes_ = classes
        self._R = float(norms[0]) if norms.size else 0.0  # R_1 = ||x_1||, as olr_verify.river builds its learner
        self._learner = self._new_learner(self.n_features_in_, classes.size)

    def _indices(self, y) -> np.ndarray:
        idx = np.searchsorted(self.classes_, y)
        idx = np.clip(idx, 0, self.classes_.size - 1)
        bad = self.classes_[idx] != y
        if np.any(bad):
            raise ValueError(f"y contains labels not in classes_ {self.classes_!r}: {np.unique(y[bad])!r}")
        return idx

    def _learn(self, X: np.ndarray, y, norms: np.ndarray) -> None:
        """One online pass; in practical mode R_t grows at the rows where the running max of ||x|| grows."""
        targets = self._targets(self._indices(y))
        if not X.shape[0]:
            return
        starts = [0]
        if self._uses_R and self.R is None:
            running = np.maximum.accumulate(np.r_[self._R, norms])[1:]
            starts = [0] + [int(i) for i in np.flatnonzero(running[1:] > running[:-1]) + 1]
            marks = running[starts]
        else:
            marks = [None]
        bounds = starts + [X.shape[0]]
        for k, R in enumerate(marks):
            if R is not None and R > self._R:
                self._R = float(R)
                self._set_R(self._learner, self._R)
            self._learner.run(X[bounds[k]:bounds[k + 1]], targets[bounds[k]:bounds[k + 1]])

    # ---- prediction
    def _scores(self, X) -> np.ndarray:
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        _checked_norms(X)
        X = np.require(X, requirements=["C", "A"])  # rows as the learners' _predict expects them (``check_vector``)
        with single_threaded_blas:
            rows = [self._score(x) for x in X]
        return np.array(rows, dtype=float).reshape(X.shape[0], -1)

    def predict(self, X):
        """The label of the largest probability."""
        best = np.argmax(self.predict_proba(X), axis=1)
        return self.classes_[best]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = not self._binary_only
        return tags


class _BinaryClassifier(_OnlineClassifier):
    def _new_learner(self, d: int, K: int):
        return self._make_learner(d)

    def _targets(self, idx: np.ndarray) -> np.ndarray:
        return np.where(idx == 1, 1.0, -1.0)

    def _score(self, x) -> float:
        return self._learner._predict(x)

    def decision_function(self, X):
        """The learner's margin ŷ = θ̂ᵀx for each row (> 0 predicts ``classes_[1]``)."""
        return self._scores(X)[:, 0]

    def predict_proba(self, X):
        """[σ(−ŷ), σ(ŷ)] per row."""
        p = expit(self.decision_function(X))
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        """``classes_[1]`` where ŷ > 0, else ``classes_[0]``."""
        positive = self.decision_function(X) > 0.0
        return self.classes_[positive.astype(int)]


class _MulticlassClassifier(_OnlineClassifier):
    _binary_only = False

    def _new_learner(self, d: int, K: int):
        return self._make(d, K)

    def _targets(self, idx: np.ndarray) -> np.ndarray:
        return idx

    def _score(self, x) -> np.ndarray:
        return self._learner._scores(x)

    def decision_function(self, X):
        """The (n, K) scores; for K = 2 the difference score₁ − score₀ (shape (n,))."""
        S = self._scores(X)
        return S[:, 1] - S[:, 0] if S.shape[1] == 2 else S

    def predict_proba(self, X):
        """Softmax of the scores."""
        return softmax(self._scores(X), axis=1)


class AIOLIClassifier(AIOLIRecipe, _BinaryClassifier):
    """AIOLI (seed 000, eq. (3)): ``B`` comparator radius, ``R`` bound on ‖x‖ (None: running max), ``lam`` (1/B²).

    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> make_pipeline(StandardScaler(), AIOLIClassifier()).fit(X, y).score(X, y) > 0.95
    True
    """

    def __init__(self, B: float = 1.0, R: float | None = None, lam: float | None = None):
        self.B = B
        self.R = R
        self.lam = lam


class ONSClassifier(ONSRecipe, _BinaryClassifier):
    """Online Newton Step on the B-ball (baseline of seed 000); ``gamma``/``eps`` default from B and R."""

    def __init__(self, B: float = 1.0, R: float | None = None, gamma: float | None = None, eps: float | None = None):
        self.B = B
        self.R = R
        self.gamma = gamma
        self.eps = eps


class OGDClassifier(OGDRecipe, _BinaryClassifier):
    """Projected online gradient descent with step B/(R√t) (baseline of seed 000)."""

    def __init__(self, B: float = 1.0, R: float | None = None):
        self.B = B
        self.R = R


class EKFClassifier(EKFRecipe, _BinaryClassifier):
    """Static EKF for logistic regression (seed 004, Algorithm 2), P_1 = p1·I."""

    def __init__(self, p1: float = 1.0):
        self.p1 = p1


class FTRLClassifier(FTRLRecipe, _BinaryClassifier):
    """FTRL with the true logistic losses, λ‖θ‖² (seed 000 §5), on ℝ^d (B=None) or the B-ball; O(t d²) a round."""

    def __init__(self, lam: float = 1.0, B: float | None = None):
        self.lam = lam
        self.B = B


class ScaleInvariantClassifier(ScaleInvariantRecipe, _BinaryClassifier):
    """Seed 002's Algorithm 2 (full-matrix scale-invariant learner), α > 9/8; needs no bound on x."""

    def __init__(self, alpha: float = 1.5):
        self.alpha = alpha


class GAFClassifier(GAFRecipe, _MulticlassClassifier):
    """GAF (seed 001): λ, β, α, μ; predictions by ``method`` "mc" (m draws, seeded) or "quadrature" (K ≤ 4)."""

    def __init__(self, lam: float = 1.0, beta: float = 0.5, alpha: float = 1.0, mu: float = 0.0,
                 method: str = "mc", m: int = 100, seed: int = 0):
        self.lam = lam
        self.beta = beta
        self.alpha = alpha
        self.mu = mu
        self.method = method
        self.m = m
        self.seed = seed


class MulticlassONSClassifier(MulticlassONSRecipe, _MulticlassClassifier):
    """Multiclass Online Newton Step (baseline of seed 001 §5), Frobenius B-ball (inf: none)."""

    def __init__(self, gamma: float = 1.0, eps: float = 1.0, B: float = math.inf):
        self.gamma = gamma
        self.eps = eps
        self.B = B


class MulticlassOGDClassifier(MulticlassOGDRecipe, _MulticlassClassifier):
    """Multiclass projected OGD (baseline of seed 001 §5), step eta/√t, Frobenius B-ball (inf: none)."""

    def __init__(self, eta: float = 1.0, B: float = math.inf):
        self.eta = eta
        self.B = B

"""How each paper's learner is built from an estimator's parameters — shared by ``olr_verify.river`` and
``olr_verify.sklearn`` (one definition per learner; the estimators only add their library's conventions).

A recipe is a mixin read by both wrappers. It uses the estimator's own attributes (its constructor parameters,
river/scikit-learn style) and ``self._R``, the running max of ‖x_t‖ in practical mode:

- ``_make_learner(d)`` (binary) or ``_make(d, K)`` (multiclass): a fresh learner of ``algorithms/``;
- ``_validate_params()``: build a throw-away learner so that a bad parameter raises ValueError naming it;
- ``_uses_R``: the learner needs ‖x_t‖ ≤ R; with ``R=None`` the wrappers use the practical mode (R_t = running
  max of ‖x_t‖, see ``olr_verify/river.py``) and call ``_set_R(learner, R_t)`` whenever R_t grows;
- ``_extend(learner, k)``: add k input coordinates exactly (``algorithms/_extend.py``).
"""
from __future__ import annotations

import math

import numpy as np

from algorithms import AIOLI, EKF, FTRL, GAF, OGD, ONS, MulticlassOGD, MulticlassONS, ScaleInvariantFull

_TINY_R = 1e-300  # R before any nonzero input (the learners require R > 0; R enters no prediction)
NORM_RANGE = (1e-30, 1e6)  # supported ||x|| besides 0: every learner stays finite there (tests/estimators/test_native.py)


def check_norm(norm: float, what: str) -> None:
    """ValueError naming ``what`` unless ``norm`` is 0 or inside :data:`NORM_RANGE`."""
    if norm and not NORM_RANGE[0] <= norm <= NORM_RANGE[1]:
        raise ValueError(f"{what} has norm {norm:.3g}, outside the supported range [{NORM_RANGE[0]:g}, "
                         f"{NORM_RANGE[1]:g}] (or 0): rescale the features, e.g. with a StandardScaler")


def row_norms(X: np.ndarray) -> np.ndarray:
    """||x|| of each row without overflow or underflow (rows scaled by their largest entry first)."""
    scale = np.max(np.abs(X), axis=1) if X.shape[1] else np.zeros(X.shape[0])
    safe = np.where(scale > 0, scale, 1.0)
    return scale * np.sqrt(np.einsum("ij,ij->i", X / safe[:, None], X / safe[:, None]))


class LearnerRecipe:
    """Defaults shared by every recipe."""

    _uses_R = False

    def _validate_params(self) -> None:
        self._make_learner(1) if not self._is_multiclass_recipe else self._make(1, 2)

    _is_multiclass_recipe = False

    def _current_R(self) -> float:
        return self.R if self.R is not None else max(getattr(self, "_R", 0.0), _TINY_R)

    def _set_R(self, learner, R: float) -> None:
        learner.R = max(R, _TINY_R)

    def _extend(self, learner, k: int) -> None:
        learner.extend(k)


class AIOLIRecipe(LearnerRecipe):
    """AIOLI(d, B, R, lam) (seed 000); practical R changes only η_t = e^{yŷ}/(1 + B R_t) of the update."""

    _uses_R = True

    def _make_learner(self, d: int):
        return AIOLI(d, self.B, self._current_R(), self.lam)


class ONSRecipe(LearnerRecipe):
    """ONS(d, B, R, gamma, eps); practical R re-evaluates γ = ½ min(1/(4R·2B), e^{−BR}) when R_t grows (ε keeps its
    first value). In practical mode γ is floored at 1e-150 (so that ε = 1/(γ²D²) stays a float): with raw
    features B R_t reaches hundreds and e^{−BR} underflows; the theory's γ is then useless anyway."""

    _uses_R = True
    _GAMMA_FLOOR = 1e-150

    def _practical_gamma(self, R: float) -> float:
        return max(0.5 * min(1.0 / (8.0 * R * self.B), math.exp(-self.B * R)), self._GAMMA_FLOOR)

    def _make_learner(self, d: int):
        if self.R is not None:
            return ONS(d, self.B, self.R, self.gamma, self.eps)
        R = max(getattr(self, "_R", 0.0), 1e-6)
        return ONS(d, self.B, R, self.gamma if self.gamma is not None else self._practical_gamma(R), self.eps)

    def _set_R(self, learner, R: float) -> None:
        learner.R = max(R, _TINY_R)
        if self.gamma is None:
            learner.gamma = self._practical_gamma(learner.R)


class OGDRecipe(LearnerRecipe):
    """OGD(d, B, R); practical R gives the step B/(R_t√t)."""

    _uses_R = True

    def _make_learner(self, d: int):
        return OGD(d, self.B, self._current_R())


class EKFRecipe(LearnerRecipe):
    """EKF(d, P1 = p1·I) (seed 004 Alg. 2); a new coordinate gets p1 on the diagonal of P."""

    def _make_learner(self, d: int):
        return EKF(d, P1=self.p1 * np.eye(d))

    def _extend(self, learner, k: int) -> None:
        learner.extend(k, self.p1)


class FTRLRecipe(LearnerRecipe):
    """FTRL(d, lam, B) with the true losses (seed 000 §5)."""

    def _make_learner(self, d: int):
        return FTRL(d, self.lam, self.B)


class ScaleInvariantRecipe(LearnerRecipe):
    """ScaleInvariantFull(d, alpha) (seed 002 Alg. 2), fed the logistic derivative; needs no R."""

    def _make_learner(self, d: int):
        return ScaleInvariantFull(d, self.alpha)


class GAFRecipe(LearnerRecipe):
    """GAF(d, K, lam, beta, alpha, mu, method, m, seed) (seed 001)."""

    _is_multiclass_recipe = True

    def _make(self, d: int, K: int):
        return GAF(d, K, self.lam, self.beta, alpha=self.alpha, mu=self.mu, method=self.method, m=self.m,
                   seed=self.seed)


class MulticlassONSRecipe(LearnerRecipe):
    """MulticlassONS(d, K, gamma, eps, B) (baseline of seed 001 §5)."""

    _is_multiclass_recipe = True

    def _make(self, d: int, K: int):
        return MulticlassONS(d, K, self.gamma, self.eps, self.B)


class MulticlassOGDRecipe(LearnerRecipe):
    """MulticlassOGD(d, K, eta, B) (baseline of seed 001 §5)."""

    _is_multiclass_recipe = True

    def _make(self, d: int, K: int):
        return MulticlassOGD(d, K, self.eta, self.B)

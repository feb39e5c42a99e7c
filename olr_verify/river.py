"""river-native classifiers for the papers' learners: ``from olr_verify.river import AIOLIClassifier``.

::

    from river import datasets, evaluate, metrics, preprocessing
    from olr_verify.river import AIOLIClassifier
    evaluate.progressive_val_score(datasets.Phishing(), preprocessing.StandardScaler() | AIOLIClassifier(),
                                   metrics.LogLoss())

Binary: :class:`AIOLIClassifier` (seed 000), :class:`ONSClassifier`, :class:`OGDClassifier` (the baselines of
000), :class:`EKFClassifier` (004 Alg. 2), :class:`FTRLClassifier` (000 §5), :class:`ScaleInvariantClassifier`
(002 Alg. 2). Multiclass: :class:`GAFClassifier` (001), :class:`MulticlassONSClassifier`,
:class:`MulticlassOGDClassifier`. Each wraps the learner of ``algorithms/`` (the same code the verifier tests),
and follows river's conventions:

- default-constructible; ``clone()`` is a fresh, untrained estimator; ``predict_proba_one`` is pure (the learned
  state and every later prediction are unchanged; the learner's ``state()`` diagnostics θ̂/ŷ describe the last x
  it was shown, predicted or learned);
- features are dict keys, created when first seen. A new feature extends the learner's state *exactly* (its state
  becomes the one it would have if every past input had carried 0 there; for AIOLI the new coordinate of A is λ
  on the diagonal, see ``algorithms/_extend.py``); a missing feature is 0. A prediction on an ``x`` with unseen
  features uses a temporarily extended copy, so predict-then-learn equals the learner of the full dimension;
- a dict with no feature yet (``{}``) is a round with x = 0: the learner built later has learned it;
- ‖x‖ must be 0 or lie in ``NORM_RANGE`` = [1e-30, 1e6] (every learner stays finite there; beyond, a
  ValueError naming x, raised before anything changes: rescale the features);
- binary labels are river's booleans, 0/1 or ±1 (True == 1 is the positive class, +1 for the learner;
  ``predict_proba_one`` returns ``{False: σ(−ŷ), True: σ(ŷ)}``, keyed by the labels seen) or any two other labels
  (the second one seen is the positive class, see :class:`_BinaryClassifier`);
- multiclass labels are any hashable values, added as they appear; see :class:`_MulticlassClassifier`.

Practical mode (``R=None``, the default, for AIOLI, ONS and OGD). The theory assumes ‖x_t‖ ≤ R with R known in
advance; behind a scaler nobody knows R. With ``R=None`` the learner uses R_t = max_{s≤t} ‖x_s‖, the running max,
updated before round t's update. What this does to the guarantee: every quantity where R enters the analyses is
used at round t with R_t ≥ ‖x_t‖, so each round's inequality still holds (for AIOLI: the surrogate ℓ̂_t of
eq. (2) built with η_t = e^{y_tŷ_t}/(1 + B R_t) is still below ℓ_t on the B-ball, because |θᵀx_t| ≤ B‖x_t‖ ≤
B R_t); the bound of Theorem 1 is then the printed one with R replaced by R_n = max_{t≤n}‖x_t‖, known only
after the fact. For OGD the step B/(R_t√t) is an adaptive step and the O(BR√n) bound holds with R_n; for ONS
γ_t = ½ min(1/(4R_t·2B), e^{−BR_t}) is re-evaluated when R_t grows (ε = 1/(γ_1²D²) keeps its first value). We have
not re-derived the proofs for these variants; they are argued, not verified. Behind a ``StandardScaler`` the
inputs themselves depend on the running mean and variance, so the comparator θ is fixed in the *scaled*
coordinates of each round, not in the raw ones: the regret guarantee is about the scaled stream.

BLAS: the learners run single-threaded BLAS inside each call (``algorithms._threads``); AIOLI's compiled round
calls no BLAS and skips that guard (its BLAS-3 fold enters it). Dict → vector: one ``struct`` ``pack_into`` per
dict (each value read as a C double, as ``_value`` reads it on the slow path); ``learn_one`` after
``predict_proba_one`` on the same doubles in the same key order reuses the prediction's vector and norm.
"""
from __future__ import annotations

import functools
import math
import struct

import numpy as np
from river import base
from scipy.linalg.blas import ddot as _ddot
from scipy.special import softmax

from algorithms._base import sigmoid
from algorithms._threads import single_threaded_blas
from olr_verify.adapters.recipes import (NORM_RANGE, AIOLIRecipe, EKFRecipe, FTRLRecipe, GAFRecipe,
                                         MulticlassOGDRecipe, MulticlassONSRecipe, OGDRecipe, ONSRecipe,
                                         ScaleInvariantRecipe, check_norm)

__all__ = ["AIOLIClassifier", "ONSClassifier", "OGDClassifier", "EKFClassifier", "FTRLClassifier",
           "ScaleInvariantClassifier", "GAFClassifier", "MulticlassONSClassifier", "MulticlassOGDClassifier"]


_NONE = ()  # no new features
MIN_SS, MAX_SS = NORM_RANGE[0] ** 2, NORM_RANGE[1] ** 2


_DOUBLE = struct.Struct("=d")


def _sumsq(v: np.ndarray) -> float:
    """v·v by BLAS (an overflow gives inf, with no warning); 0 for an empty v."""
    return _ddot(v, v) if len(v) else 0.0


def _value(name, v) -> float:
    """v as a float, converted as the fast path's ``_packer`` converts (C's ``PyFloat_AsDouble``: a float
    subclass by its stored value, anything else by ``__float__``/``__index__``), so both paths read x alike."""
    try:
        f = _DOUBLE.unpack(_DOUBLE.pack(v))[0]
    except (TypeError, ValueError, OverflowError, struct.error):
        raise ValueError(f"x[{name!r}] must be a real number, got {v!r}") from None
    if not math.isfinite(f):
        raise ValueError(f"x[{name!r}] must be finite, got {v!r}")
    return f


@functools.lru_cache(maxsize=64)
def _packer(d: int):
    """``pack_into(buffer, 0, *values)`` writing d doubles (struct format ``d``, as ``_value`` converts)."""
    return struct.Struct(f"={d}d").pack_into


def _sorted_names(names: list) -> list:
    """Feature names sorted naturally when comparable (ints, strings), else by (type name, repr)."""
    try:
        return sorted(names)
    except TypeError:
        return sorted(names, key=lambda k: (type(k).__name__, repr(k)))


class _FeatureMixin:
    """Feature names → coordinates of the learner's input vector, grown as features appear.

    New features get the next coordinates, sorted (so the order of the keys inside a dict does not matter: two
    models fed the same dicts in different key orders compute exactly the same thing, which GAF's Monte-Carlo
    predictions need); a stream whose dicts keep the coordinates' order takes the fastest path.
    """

    def _init_features(self) -> None:
        self._index: dict = {}
        self._names: list = []
        self._learner = None
        self._pending: list = []  # targets of the rounds learned before any feature was seen (x = 0 there)
        self._R = 0.0  # running max of ||x_t|| (practical mode)
        self._seen = (None, None, None, 0.0)  # (key order, packed doubles, vector, ||vector||²) of the last conversion
        self._order: tuple = (None, None)  # (keys, permutation to the coordinates) of the last order != _names

    @property
    def _tracks_R(self) -> bool:
        """Practical mode: R_t is the running max of ||x_s|| (module docstring)."""
        return self._uses_R and self.R is None

    def _known(self, x: dict):
        """(vector, squared norm) if x has exactly the known features, in a key order seen before, with numeric
        values and a norm in ``NORM_RANGE``; None otherwise (then ``_split`` checks x and names the problem).
        The vector is shared with the caller's next call on the same doubles: never modify it."""
        names = self._names
        if len(x) != len(names):
            return None
        try:
            keys = list(x)
            if keys == names:  # the coordinates' order
                order, perm = names, None
            elif keys == self._order[0]:  # the last other order (e.g. f0, f1, f2 ... against sorted f0, f1, f10)
                order, perm = self._order
            elif x.keys() == self._index.keys():  # a new order: v[index[k]] = x[k], as a permutation
                self._order = order, perm = keys, np.argsort([self._index[k] for k in keys])
            else:
                return None
            packed = bytearray(8 * len(names))  # (a bytearray: cheaper to fill than an ndarray, and writable)
            _packer(len(names))(packed, 0, *x.values())  # each value as a C double (``_value``), in C
        except (TypeError, ValueError, struct.error):
            return None  # a non-numeric value: ``_split`` names it
        seen_order, seen_packed, seen_v, seen_ss = self._seen  # the memo compares the doubles read, not the
        if order is seen_order and packed == seen_packed:  # objects (0.1 == float16(0.1))
            return seen_v, seen_ss  # predict then learn on the same x
        v = np.frombuffer(packed) if perm is None else np.frombuffer(packed)[perm]
        ss = _sumsq(v)
        if not MIN_SS <= ss <= MAX_SS:  # an entry is not finite (BLAS: no warning), or the norm is out of range
            return None
        self._seen = (order, packed, v, ss)
        return v, ss

    def _split(self, x: dict) -> tuple[np.ndarray, float, list, list]:
        """(vector over the known features, its squared norm, the new names sorted, their values); a missing
        feature is 0. ‖x‖ is checked to be 0 or in ``NORM_RANGE`` (ValueError naming x) before anything changes."""
        known = self._known(x)
        if known is not None:
            return known[0], known[1], _NONE, _NONE
        names = self._names
        v = np.zeros(len(names))
        new = []
        index = self._index
        for k, val in x.items():
            i = index.get(k)
            if i is None:
                new.append(k)
            else:
                v[i] = _value(k, val)
        new = _sorted_names(new)
        new_values = [_value(k, x[k]) for k in new]
        norm = math.hypot(*v, *new_values)  # no overflow or underflow on the way
        check_norm(norm, "x")
        return v, norm * norm, new, new_values

    def _new_learner(self, d: int):
        """A learner of dimension d that has learned the rounds whose x had no feature yet (x = 0 in R^d): the
        state a learner would have had if those features had been there, at 0, from the first round."""
        learner = self._make_learner(d)
        for target in self._pending:
            _in_blas_guard(learner, learner.update, np.zeros(d), target)
        return learner

    def _grow(self, new: list) -> None:
        self._order = (None, None)  # a key order of fewer features: its permutation no longer applies
        for k in new:
            self._index[k] = len(self._names)
            self._names.append(k)
        if self._learner is None:
            self._learner = self._new_learner(len(self._names))
            self._pending = []
        else:
            self._extend(self._learner, len(new))

    def _learn_vector(self, x: dict, y):
        """(learner, input vector, target) for learn_one, after growing the state for new features; the learner is
        None while no feature was seen (the round is kept for :meth:`_new_learner`). ``_register(y)`` records the
        label and returns the learner's target: it runs once x is known to be valid, before any state changes."""
        v, ss, new, values = self._split(x)
        target = self._register(y)
        if new and self._learner is None and self._pending:
            v = np.concatenate([v, values])  # built at R_1 = 0 (the first rounds' x was 0), as with 0-valued features
            self._grow(new)
            new = _NONE
        raised = False
        if ss > self._R * self._R and self._tracks_R and math.sqrt(ss) > self._R:
            self._R, raised = math.sqrt(ss), True  # practical mode: R_t = max_{s<=t} ||x_s||, before round t
        if new:
            v = np.concatenate([v, values])
            self._grow(new)
        learner = self._learner
        if learner is None:
            self._pending.append(target)
            return None, None, target
        if raised:
            self._set_R(learner, self._R)
        return learner, v, target

    def _predict_vector(self, x: dict):
        """(learner to predict with, input vector); a temporarily extended copy if x has unseen features."""
        v, _, new, values = self._split(x)
        learner = self._learner
        if new and any(values):
            if learner is None:
                learner = self._new_learner(len(new))
                v = np.asarray(values, float)
            else:
                learner = learner.copy()
                self._extend(learner, len(new))
                v = np.concatenate([v, values])
        if learner is None:
            return None, None
        return learner, v


def _in_blas_guard(learner, method, *args):
    """``learner.method(*args)`` with single-threaded BLAS, entered only if the learner's rounds call BLAS
    (``_round_calls_blas``; AIOLI's compiled round does not, and guards its own BLAS-3 fold)."""
    if getattr(learner, "_round_calls_blas", True):
        with single_threaded_blas:
            return method(*args)
    return method(*args)


def _is_signed(y) -> bool:
    """A label of the fixed convention: a boolean, or an integer 0, 1 or -1 (1 == True is the positive class)."""
    return isinstance(y, (bool, np.bool_)) or (isinstance(y, (int, np.integer)) and y in (0, 1, -1))


class _BinaryClassifier(_FeatureMixin, base.Classifier):
    """Shell of the binary classifiers: ŷ = learner margin, P(positive) = σ(ŷ). A recipe (``adapters/recipes.py``)
    provides the learner.

    Labels, fixed by the first label seen:

    - a boolean or an integer 0, 1, -1 (river's booleans, 0/1 or ±1 labels): True (== 1) is the positive class,
      y = +1 for the learner, and False/0/-1 the negative one; ``predict_proba_one`` has the keys
      {negative, positive}: the labels seen, False and True until then. Any other label, or both 0 and -1,
      raises ValueError;
    - any other labels: the first one seen is the negative class, the second the positive one (keys: the labels
      seen so far; {label: 1.0} while only one was seen). A third distinct label raises ValueError.

    A label is recorded only once its ``x`` is known to be valid.
    """

    def _post_init(self) -> None:
        self._validate_params()
        self._init_features()
        self._labels: list = []  # distinct labels in order of appearance (at most two)
        self._targets: dict = {}  # label -> the learner's ±1, fixed when the label is first seen
        self._key_pair: tuple = (False, True)  # keys of predict_proba_one (:meth:`_keys`)

    @property
    def _multiclass(self) -> bool:
        return False

    def _register(self, y) -> float:
        """The learner's ±1 for y; records y (see the class docstring for the conventions)."""
        target = self._targets.get((y.__class__, y))
        if target is not None:  # a label seen before, of the same type (1.0 is not 1: the fast path)
            return target
        labels = self._labels
        if labels and _is_signed(labels[0]):
            if not _is_signed(y):
                raise ValueError(f"y must be a boolean or an integer 0, 1 or -1 like the first label "
                                 f"{labels[0]!r}, got {y!r}")
        if y not in labels:
            if len(labels) == 2:
                raise ValueError(f"y must be one of the two labels seen so far {labels!r}, got {y!r}")
            if labels and _is_signed(y) and (y == 1) == (labels[0] == 1):
                raise ValueError(f"y = {y!r} is the same class as {labels[0]!r} (0, False and -1 are all the negative "
                                 f"class): use one of them")
            labels.append(y)
        if _is_signed(labels[0]):
            target = 1.0 if y == 1 else -1.0
        else:
            target = 1.0 if len(labels) == 2 else -1.0
        self._targets[(y.__class__, y)] = target
        self._key_pair = self._keys()
        return target

    def _keys(self) -> tuple:
        """(negative, positive) keys of predict_proba_one, or a single key while one non-signed label was seen."""
        labels = self._labels
        if not labels:
            return False, True
        if _is_signed(labels[0]):
            neg = next((y for y in labels if y != 1), False)
            pos = next((y for y in labels if y == 1), True)
            return neg, pos
        return tuple(labels)

    def learn_one(self, x: dict, y) -> None:
        learner, known = self._learner, self._known(x)
        target = self._targets.get((y.__class__, y)) if known is not None else None
        if target is None or learner is None or (known[1] > self._R * self._R and self._tracks_R):
            learner, v, target = self._learn_vector(x, y)  # new features or label, R grows, an x to check, ...
            if learner is None:
                return
        else:  # a stream of known features and labels: the fast path
            v = known[0]
        if learner._round_calls_blas:
            with single_threaded_blas:
                learner._update(v, target)
        else:  # AIOLI's compiled round: no BLAS, no guard cost; v is the layout it reads (``AIOLI._own``)
            learner._update_own(v, target)

    def predict_proba_one(self, x: dict) -> dict:
        learner = self._learner
        known = self._known(x) if learner is not None else None
        if known is None:
            learner, v = self._predict_vector(x)
        else:  # a stream of known features: the fast path
            v = known[0]
        if learner is None:
            p = 0.5
        elif learner._round_calls_blas:
            with single_threaded_blas:
                p = sigmoid(float(learner._predict(v)))
        else:  # AIOLI's compiled round (v: see learn_one); it returns a Python float
            p = sigmoid(learner._predict_own(v))
        keys = self._key_pair
        if len(keys) == 1:
            return {keys[0]: 1.0}
        return {keys[0]: 1.0 - p, keys[1]: p}


class AIOLIClassifier(AIOLIRecipe, _BinaryClassifier):
    """AIOLI (seed 000, eq. (3)) as a river binary classifier.

    Parameters
    ----------
    B
        Radius of the comparator ball (Theorem 1); λ defaults to 1/B² (eq. (4)).
    R
        Bound on ‖x_t‖; None (default) = practical mode, the running max of ‖x_t‖ (module docstring).
    lam
        λ of eq. (3); None = 1/B².

    Examples
    --------
    >>> from river import datasets, evaluate, metrics, preprocessing
    >>> model = preprocessing.StandardScaler() | AIOLIClassifier()
    >>> evaluate.progressive_val_score(datasets.Phishing(), model, metrics.Accuracy()).get() > 0.85
    True
    """

    def __init__(self, B: float = 1.0, R: float | None = None, lam: float | None = None):
        self.B = B
        self.R = R
        self.lam = lam
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"B": 3.0, "lam": 0.5}


class ONSClassifier(ONSRecipe, _BinaryClassifier):
    """Online Newton Step on the B-ball (Hazan, Agarwal, Kale 2007; baseline of seed 000).

    Parameters
    ----------
    B
        Radius of the ball.
    R
        Bound on ‖x_t‖; None = practical mode (γ re-evaluated with the running max, module docstring).
    gamma, eps
        Override γ and ε (default: ½ min(1/(4RD), e^{−BR}) and 1/(γ²D²), D = 2B).
    """

    def __init__(self, B: float = 1.0, R: float | None = None, gamma: float | None = None, eps: float | None = None):
        self.B = B
        self.R = R
        self.gamma = gamma
        self.eps = eps
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"B": 2.0, "gamma": 0.5, "eps": 1.0}


class OGDClassifier(OGDRecipe, _BinaryClassifier):
    """Projected online gradient descent, step B/(R√t) (Zinkevich 2003; baseline of seed 000).

    Parameters
    ----------
    B
        Radius of the ball.
    R
        Bound on ‖x_t‖; None = practical mode (step B/(R_t√t) with the running max, module docstring).
    """

    def __init__(self, B: float = 1.0, R: float | None = None):
        self.B = B
        self.R = R
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"B": 5.0}


class EKFClassifier(EKFRecipe, _BinaryClassifier):
    """Static Extended Kalman Filter for logistic regression (seed 004, Algorithm 2), P_1 = p1·I, θ̂_1 = 0.

    Parameters
    ----------
    p1
        Initial covariance scale; a new feature gets p1 on the diagonal of P (exact extension).
    """

    def __init__(self, p1: float = 1.0):
        self.p1 = p1
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"p1": 10.0}


class FTRLClassifier(FTRLRecipe, _BinaryClassifier):
    """FTRL with the true logistic losses and ℓ2 regulariser λ‖θ‖² (seed 000 §5), on ℝ^d or the B-ball.

    FTRL has no incremental form: it keeps every past (x_t, y_t) and re-solves the regularised leader, so its
    memory grows linearly with the stream (river's ``check_bounded_memory_growth`` is skipped for that reason)
    and a round costs O(t d² + d³).

    Parameters
    ----------
    lam
        λ of the regulariser.
    B
        Radius of the ball, or None for ℝ^d.
    """

    def __init__(self, lam: float = 1.0, B: float | None = None):
        self.lam = lam
        self.B = B
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"lam": 0.5, "B": 5.0}

    def _unit_test_skips(self):
        return {"check_bounded_memory_growth"}  # FTRL stores the whole stream by definition (docstring)


class ScaleInvariantClassifier(ScaleInvariantRecipe, _BinaryClassifier):
    """Seed 002's Algorithm 2 (full-matrix scale-invariant learner, eq. (7)) fed the logistic derivative.

    Scale-invariant: no bound on x is needed (no R), so it works on raw features without a scaler.

    Parameters
    ----------
    alpha
        α > 9/8 of Algorithm 2.
    """

    def __init__(self, alpha: float = 1.5):
        self.alpha = alpha
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"alpha": 3.0}


class _MulticlassClassifier(_FeatureMixin, base.Classifier):
    """Shell of the multiclass classifiers. Labels are any hashable values, added as they appear.

    The learner starts with K = 2 slots at the first label (slot 1 waits for the second class, so the first
    rounds learn "first class vs. the rest") and gains a slot per further new class (``add_classes``: zero
    weights, initial curvature). Unlike a new feature, a new class is not an exact extension: the past rounds'
    softmax did not include it. ``predict_proba_one`` is the softmax of the learner's scores over the classes
    seen so far ({} before any label, {label: 1.0} with a single label).
    """

    def _post_init(self) -> None:
        self._validate_params()
        self._init_features()
        self._classes: list = []
        self._class_index: dict = {}

    @property
    def _multiclass(self) -> bool:
        return True

    def _register(self, y) -> int:
        i = self._class_index.get(y)
        if i is None:
            i = len(self._classes)
            self._class_index[y] = i
            self._classes.append(y)
            if self._learner is not None and i >= self._learner.K:
                self._learner.add_classes(1)
        return i

    def _make_learner(self, d: int):
        return self._make(d, max(2, len(self._classes)))

    def learn_one(self, x: dict, y) -> None:
        learner, v, c = self._learn_vector(x, y)
        if learner is not None:
            _in_blas_guard(learner, learner._update, v, c)

    def predict_proba_one(self, x: dict) -> dict:
        n = len(self._classes)
        if n == 0:
            return {}
        if n == 1:
            return {self._classes[0]: 1.0}
        learner, v = self._predict_vector(x)
        if learner is None:
            return {c: 1.0 / n for c in self._classes}
        scores = np.asarray(_in_blas_guard(learner, learner._scores, v), float)
        p = softmax(scores[:n])
        return {c: float(pc) for c, pc in zip(self._classes, p)}


class GAFClassifier(GAFRecipe, _MulticlassClassifier):
    """GAF, the Gaussian Aggregating Forecaster (seed 001), as a river multiclass classifier.

    Parameters
    ----------
    lam, beta, alpha, mu
        λ, β, α and the smoothing μ of seed 001 (Corollary 2 sets λ = 32 d K R², β = 1/(log(K)/2 + BR + 1)).
    method
        "mc" (default: m Gaussian draws per prediction, "Efficient GAF") or "quadrature" (rigorous, K ≤ 4).
    m, seed
        Number of draws and seed of the "mc" predictions (draws are keyed on (seed, t): reproducible, pure).
    """

    def __init__(self, lam: float = 1.0, beta: float = 0.5, alpha: float = 1.0, mu: float = 0.0,
                 method: str = "mc", m: int = 100, seed: int = 0):
        self.lam = lam
        self.beta = beta
        self.alpha = alpha
        self.mu = mu
        self.method = method
        self.m = m
        self.seed = seed
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"lam": 2.0, "beta": 0.25, "m": 20}


class MulticlassONSClassifier(MulticlassONSRecipe, _MulticlassClassifier):
    """Multiclass Online Newton Step (baseline of seed 001 §5): A_t = εI + Σ g gᵀ, step A_t⁻¹g/γ, B-ball.

    Parameters
    ----------
    gamma, eps
        γ and ε.
    B
        Frobenius radius of the ball (inf: no projection).
    """

    def __init__(self, gamma: float = 1.0, eps: float = 1.0, B: float = math.inf):
        self.gamma = gamma
        self.eps = eps
        self.B = B
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"gamma": 0.5, "eps": 2.0, "B": 10.0}


class MulticlassOGDClassifier(MulticlassOGDRecipe, _MulticlassClassifier):
    """Multiclass projected OGD (baseline of seed 001 §5), step eta/√t, Frobenius B-ball.

    Parameters
    ----------
    eta
        Step scale.
    B
        Frobenius radius of the ball (inf: no projection).
    """

    def __init__(self, eta: float = 1.0, B: float = math.inf):
        self.eta = eta
        self.B = B
        self._post_init()

    @classmethod
    def _unit_test_params(cls):
        yield {}
        yield {"eta": 0.5, "B": 10.0}

"""Shared shell of every binary online learner: validation, the predict/update/run protocol, copy.

Protocol (seed 000 §1, "Setting and notation"): at round t the learner receives x_t, predicts the real number
ŷ_t = θ̂_tᵀx_t (θ̂_t may depend on x_t for improper learners such as AIOLI), then receives y_t ∈ {−1, +1} and
suffers ℓ(ŷ_t, y_t) = log(1 + exp(−y_t ŷ_t)).

A subclass implements three methods on already-validated input:

- ``_predict(x) -> float``: ŷ for the current state (no change to the learning state; it may cache work
  keyed on x so that the following ``update(x, y)`` reuses it);
- ``_update(x, y) -> None``: one round of learning. It never relies on a previous ``predict``: every learner
  here can recompute ŷ_t from its state and x_t, so ``update(x, y)`` alone equals ``predict(x)`` then
  ``update(x, y)`` (no learner needs a "matching predict" error);
- ``state() -> dict``: the paper's quantities (``theta_hat``, ``A``, ``b`` ...), copies, never views.

``run(X, Y)`` validates the whole stream once and then calls ``_run_rows``, which subclasses may override
with a low-overhead loop; it must equal predict-then-update row by row.

Bad input raises ``ValueError`` whose message starts with the name of the offending argument.

BLAS threads: ``predict``, ``update`` and ``run`` execute inside :data:`algorithms._threads.single_threaded_blas`
(one BLAS thread for the duration of the call, the caller's setting restored after; ``run`` enters it once).
A learner whose ``_predict``/``_update`` call no BLAS sets ``_round_calls_blas = False`` and its per-round calls
skip the guard (entering it costs a few µs of ctypes calls, more than a compiled AIOLI round at d = 64); any BLAS
it calls elsewhere (AIOLI's fold of A) enters the guard itself.
"""
from __future__ import annotations

import copy as _copy
import math

import numpy as np
from scipy.linalg.blas import ddot as _ddot

from ._threads import single_threaded_blas

NORM_SLACK = 1e-12  # ||x|| <= R (1 + NORM_SLACK) is accepted, to absorb the rounding of a rescaled x


def check_positive(name: str, value) -> float:
    """Return ``value`` as a float, or raise ValueError naming ``name`` unless it is finite and > 0."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive real number, got {value!r}") from None
    if not math.isfinite(v) or v <= 0.0:
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return v


def check_dimension(d) -> int:
    if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    return int(d)


def check_label(y, name: str = "y") -> float:
    """Return y as ±1.0, or raise ValueError naming ``name``."""
    try:
        v = float(y)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be -1 or +1, got {y!r}") from None
    if v != 1.0 and v != -1.0:
        raise ValueError(f"{name} must be -1 or +1, got {y!r}")
    return v


def check_vector(x, d: int, R: float | None, name: str = "x") -> np.ndarray:
    """Return x as an aligned C-contiguous float64 vector of length d, finite, with ||x|| <= R (if R is given).
    (AIOLI's round calls a compiled entry point that does not check its argument types; see ``algorithms/aioli.py``.)"""
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real vector of length {d}, got {x!r}") from None
    flags = a.flags
    if a.shape == (d,) and flags.c_contiguous and flags.aligned:  # fast path: a finite a·a means finite entries, no overflow
        ss = _ddot(a, a)  # BLAS: no numpy floating-point warnings on overflow (inf -> slow path)
        if math.isfinite(ss) and (R is None or ss <= _squared_bound(R)):
            return a
    if a.ndim == 0 and d == 1:
        a = a.reshape(1)
    if a.shape != (d,):
        raise ValueError(f"{name} must have shape ({d},), got shape {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} must be finite (no NaN or inf), got {a}")
    if R is not None:
        nrm = float(_row_norms(a[None, :])[0])
        if nrm > R * (1.0 + NORM_SLACK):
            raise ValueError(f"{name} must satisfy ||{name}|| <= R = {R!r}, got ||{name}|| = {nrm!r}")
    return np.require(a, requirements=["C", "A"])


def _squared_bound(R: float) -> float:
    """(R (1 + NORM_SLACK))², inf rather than OverflowError for a huge R."""
    r = R * (1.0 + NORM_SLACK)
    return r * r


def check_stream(X, Y, d: int, R: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised validation of a whole stream: X of shape (n, d), Y of shape (n,) in {−1, +1}."""
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("X must be a real array of shape (n, d)") from None
    if X.ndim == 1 and d == 1:
        X = X.reshape(-1, 1)
    if X.ndim != 2 or X.shape[1] != d:
        raise ValueError(f"X must have shape (n, {d}), got shape {X.shape}")
    X = np.ascontiguousarray(X)
    ss = np.einsum("ij,ij->i", X, X)  # no floating-point warnings; finite sums of squares: finite entries
    largest = float(ss.max()) if X.shape[0] else 0.0  # NaN if any is NaN, inf if any is inf
    fast = math.isfinite(largest)
    if not fast and not np.isfinite(X).all():
        raise ValueError("X must be finite (no NaN or inf)")
    if fast and R is not None and largest > _squared_bound(R):
        fast = False  # the overflow-safe norms below decide and name the row
    if R is not None and X.shape[0] and not fast:
        norms = _row_norms(X)
        worst = int(np.argmax(norms))
        if norms[worst] > R * (1.0 + NORM_SLACK):
            raise ValueError(f"X rows must satisfy ||x|| <= R = {R!r}; row {worst} has norm {norms[worst]!r}")
    try:
        Y = np.asarray(Y, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError("Y must be an array of -1/+1 labels") from None
    if Y.shape[0] != X.shape[0]:
        raise ValueError(f"Y must have one label per row of X: {Y.shape[0]} labels for {X.shape[0]} rows")
    if not (np.abs(Y) == 1.0).all():
        bad = int(np.argmax(~((Y == 1.0) | (Y == -1.0))))
        raise ValueError(f"Y must contain only -1 and +1, got {Y[bad]!r} at index {bad}")
    return np.ascontiguousarray(X), np.ascontiguousarray(Y)


def _row_norms(X: np.ndarray) -> np.ndarray:
    """Euclidean norms of the rows of a finite X without overflow or underflow (scaled by the max entry)."""
    m = np.abs(X).max(axis=1) if X.shape[1] else np.zeros(X.shape[0])
    safe = np.where(m > 0.0, m, 1.0)
    Z = X / safe[:, None]
    return m * np.sqrt(np.einsum("ij,ij->i", Z, Z))


class OnlineLearner:
    """Thin protocol shell; see the module docstring. Subclasses set ``self.d`` and ``self.R``."""

    d: int
    R: float | None
    _round_calls_blas = True  # False: _predict/_update call no BLAS themselves, so predict/update skip the guard

    def predict(self, x) -> float:
        """ŷ_t = θ̂_tᵀx_t for the current state; does not change what the learner will learn."""
        xv = check_vector(x, self.d, self.R)
        if self._round_calls_blas:
            with single_threaded_blas:
                return float(self._predict(xv))
        return float(self._predict(xv))

    def update(self, x, y) -> None:
        """Learn from (x_t, y_t), y_t ∈ {−1, +1}; valid with or without a preceding ``predict(x)``."""
        xv = check_vector(x, self.d, self.R)
        y = check_label(y)
        if self._round_calls_blas:
            with single_threaded_blas:
                self._update(xv, y)
        else:
            self._update(xv, y)

    def run(self, X, Y) -> np.ndarray:
        """Predict then update on each row; returns the n predictions ŷ_1..ŷ_n."""
        X, Y = check_stream(X, Y, self.d, self.R)
        if not self._round_calls_blas:
            return self._run_rows(X, Y)
        with single_threaded_blas:
            return self._run_rows(X, Y)

    def _run_rows(self, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
        out = np.empty(X.shape[0])
        for i in range(X.shape[0]):
            out[i] = self._predict(X[i])
            self._update(X[i], Y[i])
        return out

    def copy(self):
        """An independent deep copy (same future predictions, no shared buffers)."""
        return _copy.deepcopy(self)

    def __repr__(self) -> str:
        """Class name with the public scalar settings and the round count, e.g. ``AIOLI(d=2, B=2.0, ..., t=0)``."""
        shown = {k: v for k, v in vars(self).items()
                 if not k.startswith("_") and (v is None or isinstance(v, (bool, int, float, str)))}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    # to be provided by subclasses
    def _predict(self, x: np.ndarray) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def _update(self, x: np.ndarray, y: float) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def state(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError


def logistic_loss(yhat, y):
    """ℓ(ŷ, y) = log(1 + exp(−y ŷ)), stable for any finite margin."""
    return np.logaddexp(0.0, -np.asarray(y) * np.asarray(yhat))


def sigmoid(z: float) -> float:
    """σ(z) = 1/(1 + e^{−z}) for a Python float, without overflow."""
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)

"""Two arithmetics for one recursion: float64 (numpy) for the hunt, mpmath (>= 50 digits) for replay.

Every learner and bound in this package is written once against a :class:`Backend`; vectors are
numpy arrays (``float`` dtype, or ``object`` dtype holding ``mpmath.mpf``), so ``@``, ``+``, ``*``
work in both.  Logistic terms go through :meth:`Backend.softplus` (``np.logaddexp`` in float64).

>>> F = FLOAT
>>> round(float(F.softplus(F.num(0.0))), 6)
0.693147
>>> with MP.precision(50):
...     s = MP.softplus(MP.num("-40"))
>>> float(s) > 0   # log(1 + e^-40) is not rounded to zero
True
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

import mpmath
import numpy as np


class FloatBackend:
    name = "float64"
    eps = 1e-15

    def num(self, v: Any) -> float:
        return float(v)

    def arr(self, values: Any) -> np.ndarray:
        return np.asarray(values, dtype=float)

    def zeros(self, shape: Any) -> np.ndarray:
        return np.zeros(shape)

    def eye(self, d: int) -> np.ndarray:
        return np.eye(d)

    exp = staticmethod(np.exp)
    log = staticmethod(np.log)
    log1p = staticmethod(np.log1p)
    tanh = staticmethod(np.tanh)
    sqrt = staticmethod(np.sqrt)

    def softplus(self, z: Any) -> Any:
        """log(1 + e^z), finite for |z| up to 1e300."""
        return np.logaddexp(0.0, z)

    def sigmoid(self, z: Any) -> Any:
        """1 / (1 + e^{-z})."""
        from scipy.special import expit

        return expit(z)

    def pinv_sym(self, S: np.ndarray) -> np.ndarray:
        return np.linalg.pinv(S, hermitian=True, rcond=1e-12)

    def eigvalsh(self, S: np.ndarray) -> np.ndarray:
        return np.linalg.eigvalsh(S)

    @contextlib.contextmanager
    def precision(self, dps: int = 0) -> Iterator[None]:
        yield


class MpBackend:
    name = "mpmath"

    @property
    def eps(self) -> Any:
        return mpmath.mpf(10) ** (-(mpmath.mp.dps - 8))

    def num(self, v: Any) -> Any:
        if isinstance(v, float):  # np.float64 too: its repr is not a number in numpy >= 2
            return mpmath.mpf(repr(float(v)))
        return mpmath.mpf(v) if not isinstance(v, mpmath.mpf) else v

    def arr(self, values: Any) -> np.ndarray:
        a = np.asarray(values, dtype=object)
        out = np.empty(a.shape, dtype=object)
        for idx, v in np.ndenumerate(a):
            out[idx] = self.num(v)
        return out

    def zeros(self, shape: Any) -> np.ndarray:
        out = np.empty(shape, dtype=object)
        out[...] = mpmath.mpf(0)
        return out

    def eye(self, d: int) -> np.ndarray:
        out = self.zeros((d, d))
        for i in range(d):
            out[i, i] = mpmath.mpf(1)
        return out

    exp = staticmethod(mpmath.exp)
    log = staticmethod(mpmath.log)
    log1p = staticmethod(mpmath.log1p)
    tanh = staticmethod(mpmath.tanh)
    sqrt = staticmethod(mpmath.sqrt)

    def softplus(self, z: Any) -> Any:
        z = self.num(z)
        return z + mpmath.log1p(mpmath.exp(-z)) if z > 0 else mpmath.log1p(mpmath.exp(z))

    def sigmoid(self, z: Any) -> Any:
        return 1 / (1 + mpmath.exp(-self.num(z)))

    def pinv_sym(self, S: np.ndarray) -> np.ndarray:
        """Moore-Penrose pseudo-inverse of a symmetric PSD matrix through its eigendecomposition."""
        d = S.shape[0]
        E, Q = mpmath.eigsy(mpmath.matrix(S.tolist()))
        top = max([abs(E[i]) for i in range(d)] + [mpmath.mpf(0)])
        cut = top * mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))
        out = self.zeros((d, d))
        for k in range(d):
            if E[k] > cut:
                col = [Q[i, k] for i in range(d)]
                for i in range(d):
                    for j in range(d):
                        out[i, j] += col[i] * col[j] / E[k]
        return out

    def eigvalsh(self, S: np.ndarray) -> list:
        E, _ = mpmath.eigsy(mpmath.matrix(S.tolist()))
        return sorted(E[i] for i in range(S.shape[0]))

    @contextlib.contextmanager
    def precision(self, dps: int = 50) -> Iterator[None]:
        with mpmath.workdps(dps):
            yield


FLOAT = FloatBackend()
MP = MpBackend()


def to_str(v: Any) -> str:
    """A decimal string that a replay reads back (repr of float64, or mpmath's 30 leading digits)."""
    if isinstance(v, (float, np.floating, int, np.integer)):
        return repr(float(v))
    return mpmath.nstr(v, 30)


def as_float(v: Any) -> float:
    return float(v)

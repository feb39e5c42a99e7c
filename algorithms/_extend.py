"""Growing a learner's state by new input coordinates (or new classes), for streams whose features appear late.

A learner of dimension d that sees inputs x ∈ ℝ^d is *extended exactly* by k new coordinates when its new state is
the one it would have if every past input had carried 0 in those coordinates. For the learners here the state is
made of sums of outer products of past inputs (or gradients ∝ past inputs) plus a multiple of I, and of vectors
in the span of past inputs; so the exact extension pads every such vector with 0, every such matrix with a zero
border and the initial multiple of I on the new diagonal (for AIOLI: a new coordinate of A is λ on the diagonal,
of A⁻¹ 1/λ). The multiclass state θ = W.ravel() is class-major: class c owns entries c·d … c·d + d − 1, so the
input coordinates are padded inside every class block.
"""
from __future__ import annotations

import numpy as np


def check_extension(k) -> int:
    """k as an int >= 0, or ValueError naming ``k``."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
        raise ValueError(f"k must be an integer >= 0, got {k!r}")
    return int(k)


def pad_vector(v: np.ndarray, k: int) -> np.ndarray:
    """v followed by k zeros."""
    return np.concatenate([np.asarray(v, dtype=float), np.zeros(k)])


def pad_matrix(M: np.ndarray, k: int, diagonal: float, order: str = "C") -> np.ndarray:
    """[[M, 0], [0, diagonal·I_k]]."""
    n = M.shape[0]
    out = np.zeros((n + k, n + k), order=order)
    out[:n, :n] = M
    out[n:, n:] = diagonal * np.eye(k)
    return out


def pad_rows(X: np.ndarray, k: int) -> np.ndarray:
    """X (n, d) with k zero columns appended."""
    return np.hstack([X, np.zeros((X.shape[0], k))])


def pad_class_blocks(M: np.ndarray, K: int, d: int, k: int, diagonal: float) -> np.ndarray:
    """A (K d) × (K d) class-major matrix with k new input coordinates inside every class block."""
    T = np.zeros((K, d + k, K, d + k))
    T[:, :d, :, :d] = M.reshape(K, d, K, d)
    idx = np.arange(d, d + k)
    for c in range(K):
        T[c, idx, c, idx] = diagonal
    return T.reshape(K * (d + k), K * (d + k))


def pad_class_vector(v: np.ndarray, K: int, d: int, k: int) -> np.ndarray:
    """A class-major vector of length K d with k zero coordinates appended inside every class block."""
    return pad_rows(np.asarray(v, dtype=float).reshape(K, d), k).ravel()


def add_class_blocks(M: np.ndarray, K: int, d: int, k: int, diagonal: float) -> np.ndarray:
    """A (K d) × (K d) class-major matrix with k new classes (new blocks diagonal·I_d, zero coupling)."""
    return pad_matrix(M, k * d, diagonal)

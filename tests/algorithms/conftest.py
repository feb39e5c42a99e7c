import numpy as np
import pytest


def ball_stream(n, d, R, seed):
    """n rows with ||x|| <= R (a third of them exactly on the sphere) and random ±1 labels."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    norms = np.linalg.norm(X, axis=1)
    scale = np.where(rng.random(n) < 1 / 3, R / norms, R * rng.random(n) / np.maximum(norms, R))
    X = X * scale[:, None]
    Y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    return X, Y


@pytest.fixture
def stream():
    return ball_stream

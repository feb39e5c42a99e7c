"""Hypothesis strategies for bound hunting (named after the domain, dependent draws via @st.composite).

- :func:`bounded_sequences`  (X, Y): x_t in the R-ball of R^d including boundary points and
  near-degenerate (almost parallel, tiny) directions, y_t in {-1, +1};
- :func:`gradient_sequences` (X, G) for seed 002: unconstrained x_t, |g_t| <= 1 (mostly +-1);
- :func:`absorbed_sequences` X in [-1, 1]^{n x 1} for seed 003;
- :func:`adaptive_binary` an interactive adversary: draws x_t, looks at the learner's yhat_t, then
  draws y_t (biased towards the label that hurts), through ``st.data()``.
"""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st


@st.composite
def unit_directions(draw, d: int):
    kind = draw(st.sampled_from(["axis", "generic", "near-parallel"]))
    if kind == "axis":
        v = np.zeros(d)
        v[draw(st.integers(0, d - 1))] = draw(st.sampled_from([-1.0, 1.0]))
        return v
    v = np.array(draw(st.lists(st.floats(-1, 1, allow_nan=False), min_size=d, max_size=d)))
    if kind == "near-parallel":
        v = np.ones(d) + 1e-6 * v
    nrm = np.linalg.norm(v)
    return v / nrm if nrm > 1e-12 else np.eye(d)[0]


@st.composite
def bounded_sequences(draw, d: int, R: float, n: int):
    """(X, Y) with ||x_t|| <= R (a third of the points on the sphere, some tiny), y_t in {-1, +1}."""
    rows = []
    for _ in range(n):
        u = draw(unit_directions(d))
        r = draw(st.one_of(st.just(1.0), st.floats(0, 1), st.floats(1e-6, 1e-3)))
        rows.append(u * r * R)
    Y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    return np.array(rows), Y


@st.composite
def gradient_sequences(draw, d: int, n: int):
    X = np.array([draw(unit_directions(d)) * 10 ** draw(st.floats(-3, 3)) for _ in range(n)])
    G = np.array(draw(st.lists(st.one_of(st.sampled_from([-1.0, 1.0]), st.floats(-1, 1)), min_size=n, max_size=n)))
    return X, G


@st.composite
def absorbed_sequences(draw, n: int):
    xs = draw(st.lists(st.one_of(st.sampled_from([-1.0, 1.0]), st.floats(-1, 1)), min_size=n, max_size=n))
    return np.array(xs)[:, None]


def adaptive_binary(data, learner, d: int, R: float, n: int):
    """Play n rounds against ``learner``: x_t drawn first, y_t drawn after seeing yhat_t (interactive)."""
    X, Y = [], []
    for _ in range(n):
        x = data.draw(bounded_sequences(d, R, 1))[0][0]
        yh = float(learner.predict(x))
        hurt = -1 if yh > 0 else 1
        y = data.draw(st.sampled_from([hurt, hurt, hurt, -hurt]))
        learner.update(x, y)
        X.append(x)
        Y.append(y)
    return np.array(X), np.array(Y)

"""Seed 000 (AIOLI): per-round inequalities and proof steps evaluated along runs of the exact AIOLI.

Each check runs :class:`olr_verify.hunting.highprec_learners.AioliExact` (eq. (3) solved exactly,
statistics (5); with ``eps`` > 0 it plays theta_bar_t + eps u_t/||u_t||, the estimators of Theorem 7)
on seeded sequences -- random inputs in the R-ball, random or adversarial labels (y_t = -sign y_hat_t),
parameters from small to large B, R, lam -- and evaluates the printed relation at every round (and, where
it involves a comparator theta, at seeded points of the B-sphere and inside the ball).  The worst
ratio is reported.  A float64 violation is replayed at 50 digits (mpmath backend, the same exact data:
every float is an exact binary rational); only a confirmed violation gives ``refuted``, with an
artefact of replay type ``coverage000-run``.
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from olr_verify.outcome import Context

PARAMS = [dict(B=1.0, R=1.0, lam=1.0), dict(B=0.05, R=0.1, lam=1.0), dict(B=3.0, R=2.0, lam=1 / 9),
          dict(B=0.5, R=1.0, lam=4.0), dict(B=2.0, R=1.0, lam=0.1), dict(B=0.2, R=0.5, lam=2.0)]


# --------------------------------------------------------------------------- sequences and runs
def make_sequence(rng, d: int, n: int, p: dict, labels: str, eps: float = 0.0) -> dict:
    """Inputs on/in the R-ball; labels 'random' or 'adversarial' (decided online); Theorem 7 directions."""
    from olr_verify.hunting.highprec_learners import AioliExact

    L = AioliExact(d, p["B"], p["R"], p["lam"], eps=eps)
    X, Y, U = [], [], []
    for _ in range(n):
        x = rng.normal(size=d)
        x *= p["R"] * (1.0 if rng.random() < 0.5 else rng.random()) / np.linalg.norm(x)
        u = rng.normal(size=d)
        if eps and rng.random() < 0.5:
            u = -x.copy() if rng.random() < 0.5 else x.copy()
        L.set_direction(u if eps else None)
        yh = L.predict(x)
        y = int(rng.choice([-1, 1])) if labels == "random" else (-1 if yh > 0 else 1)
        L.update(x, y)
        X.append(x), Y.append(y), U.append(u)
    thetas = [rng.normal(size=d) for _ in range(6)]
    thetas = [p["B"] * t / np.linalg.norm(t) for t in thetas[:4]] + [p["B"] * rng.random() * t / np.linalg.norm(t)
                                                                     for t in thetas[4:]]
    return {"d": d, "params": {**p, "eps": eps}, "X": np.array(X), "Y": Y, "U": np.array(U) if eps else None,
            "thetas": np.array(thetas)}


def run(seq: dict, K=None) -> tuple[list[dict], Any]:
    from olr_verify.hunting.highprec_learners import AioliExact
    from olr_verify.hunting.numerics import FLOAT

    K = K or FLOAT
    p = seq["params"]
    L = AioliExact(seq["d"], p["B"], p["R"], p["lam"], K=K, eps=p["eps"], trace=True)
    X = K.arr(seq["X"])
    for t in range(len(X)):
        if seq["U"] is not None:
            L.set_direction(K.arr(seq["U"][t]))
        L.update(X[t], int(seq["Y"][t]))
    return L.trace, L


def cases(ctx: Context, claim: str, eps: float = 0.0, dims=(1, 2, 3)):
    rng = np.random.default_rng((ctx.seed ^ zlib.crc32(claim.encode())) & 0x7FFFFFFF)
    n_seq = 6 if ctx.quick else 48
    for k in range(n_seq):
        p = PARAMS[k % len(PARAMS)]
        d = dims[(k // len(PARAMS)) % len(dims)]
        n = int(rng.integers(3, 10 if ctx.quick else 25))
        e = eps * (10.0 ** -float(rng.integers(0, 3))) if eps else 0.0
        yield make_sequence(rng, d, n, p, "random" if k % 2 else "adversarial", e)


# --------------------------------------------------------------------------- shared quantities
def surrogate(r: dict, theta, K):
    """hat l_t(theta) = l_t(theta_hat) + g^T(theta - theta_hat) + eta/2 (g^T(theta - theta_hat))^2, eq. (2)."""
    u = r["g"] @ (theta - r["theta_hat"])
    return K.softplus(-r["y"] * (r["theta_hat"] @ r["x"])) + u + r["eta"] / 2 * u * u


def loss(r: dict, theta, K):
    return K.softplus(-r["y"] * (theta @ r["x"]))


def inv(M, K):
    from olr_verify.hunting.run_quantities import _inv

    return _inv(M, K)


def norm(v, K):
    return K.sqrt(v @ v)


def theta_next(rows, t, K):
    """theta_{t+1} = A_t^{-1} b_t (rows are 0-based: rows[t] is round t+1); theta_1 = 0."""
    if t < 0:
        return K.zeros(len(rows[0]["x"]))
    return rows[t]["A_inv"] @ rows[t]["b"]


def hat_L(rows, t, theta, lam, K):
    """hat L_t(theta) = sum_{s<=t} hat l_s(theta) + lam ||theta||^2 (t = number of rounds, 0 allowed)."""
    return sum((surrogate(rows[s], theta, K) for s in range(t)), K.num(0)) + lam * (theta @ theta)

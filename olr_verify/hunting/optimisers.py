"""Search over sequences (and parameters) for the largest regret/bound ratio of one target.

- :func:`random_sequence`  the baseline adversary: i.i.d. draws, with boundary (||x|| = R) and
  near-degenerate (almost parallel, tiny) inputs mixed in;
- :func:`greedy_sequence`  the baseline adaptive adversary: sees yhat_t, then picks the label (or
  g_t = sign(yhat_t)) that hurts most, on inputs from a small candidate set;
- :func:`paper_seed`       the papers' own hard sequences: 002's Theorem 4.2 construction (adaptive),
  003's Figure 2 distribution, 000's Section 5 data (Hazan et al.'s distribution);
- :func:`local_search`     random restarts + (1+1) evolution strategy with step-size adaptation on
  the sequence entries, label flips, and the horizon n.

Every function is deterministic given its ``rng``; :func:`hunt` returns a :class:`HuntResult`.
"""
from __future__ import annotations

import dataclasses
import math
import time
from typing import Any, Callable

import numpy as np

from olr_verify.hunting import highprec_learners as hl
from olr_verify.hunting.bounds import TARGETS, Sequence, Target, evaluate_full, ratio, with_defaults


@dataclasses.dataclass
class Best:
    ratio: float = -math.inf
    lhs: float = 0.0
    rhs: float = 0.0
    seq: Sequence | None = None
    cmp: Any = None
    how: str = ""


@dataclasses.dataclass
class HuntResult:
    claim: str
    best: Best
    baseline: Best
    evaluated: int
    seconds: float
    by_strategy: dict
    progress: list = dataclasses.field(default_factory=list)  # (sequences evaluated, best ratio) at each record

    def summary(self) -> dict:
        return {"best_ratio": round(self.best.ratio, 6), "best_found_by": self.best.how,
                "baseline_ratio": round(self.baseline.ratio, 6), "sequences_evaluated": self.evaluated,
                "seconds": round(self.seconds, 2),
                "ratio_by_strategy": {k: round(v, 6) for k, v in self.by_strategy.items()}}


# --------------------------------------------------------------------------- sequence makers
def _ball_inputs(rng: np.random.Generator, n: int, d: int, R: float) -> np.ndarray:
    """Inputs in the R-ball: a mix of interior, boundary and near-degenerate (almost parallel) points."""
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    kind = rng.integers(0, 4, size=n)
    radius = np.where(kind == 0, rng.uniform(0, 1, n), 1.0)
    base = X[0]
    X[kind == 2] = base + 1e-3 * rng.normal(size=(int((kind == 2).sum()), d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    radius = np.where(kind == 3, 10.0 ** rng.uniform(-3, 0, n), radius)
    return X * (radius * R)[:, None]


def random_sequence(t: Target, p: dict, rng: np.random.Generator) -> Sequence:
    n, fam = int(p["n"]), t.family
    if fam == "binary":
        X = _ball_inputs(rng, n, int(p["d"]), float(p["R"]))
        Y = rng.choice([-1, 1], size=n)
        U = rng.normal(size=X.shape) if "eps" in p else None
        return Sequence(fam, p, X, Y, U)
    if fam == "gradient":
        X = rng.normal(size=(n, int(p["d"]))) * np.exp(rng.normal(size=(n, 1)))
        G = np.where(rng.random(n) < 0.7, rng.choice([-1.0, 1.0], n), rng.uniform(-1, 1, n))
        return Sequence(fam, p, X, G)
    X = np.where(rng.random((n, 1)) < 0.5, rng.uniform(-1, 1, (n, 1)), rng.choice([-1.0, 1.0], (n, 1)))
    return Sequence(fam, p, X)


def greedy_sequence(t: Target, p: dict, rng: np.random.Generator) -> Sequence:
    """Adaptive baseline: candidate inputs, then the worst label (or gradient sign) for the learner's yhat."""
    from olr_verify.hunting.bounds import make_learner

    n, fam = int(p["n"]), t.family
    proto = Sequence(fam, p, np.zeros((n, int(p.get("d", 1)))))
    L = make_learner(t, proto) if t.learner != "none" else None
    rows, labels = [], []
    for _ in range(n):
        if fam == "binary":
            cands = _ball_inputs(rng, 6, int(p["d"]), float(p["R"]))
            preds = [L.predict(x) for x in cands]
            i = int(np.argmax(np.abs(preds))) if rng.random() < 0.5 else int(rng.integers(0, 6))
            x, yh = cands[i], preds[i]
            y = -1 if yh > 0 else 1
            if "eps" in p:
                L.set_direction(-y * x)
            L.update(x, y)
        elif fam == "gradient":
            x = rng.normal(size=int(p["d"])) * math.exp(rng.normal())
            yh = L.predict(x) if L is not None else 0.0
            y = 1.0 if yh >= 0 else -1.0
            if L is not None:
                L.update_gradient(x, y)
        else:
            w = L.weight()
            x = np.array([1.0 if w >= 0 else -1.0]) * (1.0 if rng.random() < 0.7 else rng.uniform(0, 1))
            y = None
            L.update(x[0])
        rows.append(x)
        labels.append(y)
    X = np.array(rows)
    if fam == "absorbed":
        return Sequence(fam, p, X)
    U = (-np.array(labels)[:, None] * X) if "eps" in p else None
    return Sequence(fam, p, X, np.array(labels), U)


def theorem_4_2_sequence(learner: Any, d: int, T: int) -> tuple[np.ndarray, np.ndarray]:
    """Seed 002, Appendix C: x_t = e_t, g_t = sign(yhat_t)/sqrt 2 for t <= d; then g_t = sign(yhat_t) and
    x_t with h_{t-1}^T S_{t-1}^{-1} x_t = 0, x_t^T S_{t-1}^{-1} x_t = 1 (sign(0) taken as +1)."""
    S, h = np.zeros((d, d)), np.zeros(d)
    X, G = [], []
    for t in range(T):
        if t < d:
            x = np.eye(d)[t]
            scale = 1 / math.sqrt(2)
        else:
            Sinv = np.linalg.inv(S)
            m = Sinv @ h
            v = np.eye(d)[int(np.argmin(np.abs(m)))] if np.linalg.norm(m) == 0 else None
            if v is None:
                e = np.eye(d)[int(np.argmin(np.abs(m)))]
                v = e - (e @ m) / (m @ m) * m
            x = v / math.sqrt(v @ Sinv @ v)
            scale = 1.0
        yh = float(learner.predict(x))
        g = scale * (1.0 if yh >= 0 else -1.0)
        learner.update_gradient(x, g)
        S += np.outer(x, x)
        h -= g * x
        X.append(x)
        G.append(g)
    return np.array(X), np.array(G)


def figure_2_003(D: float, eps: float, chi: int, T: int, rng: np.random.Generator) -> np.ndarray:
    """Seed 003, Figure 2: x = 1 - theta/2 w.p. theta/2 + chi eps/D, else -theta (theta = sqrt(eps)/D)."""
    theta = math.sqrt(eps) / D
    p = theta / 2 + chi * eps / D
    return np.where(rng.random(T) < p, 1 - theta / 2, -theta)[:, None]


def section_5_000(n: int, chi: int, rng: np.random.Generator, eps: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """Seed 000, Section 5 (Hazan et al.'s data): B = log n; (1 - sqrt(eps)/(2B), 1) w.p. sqrt(eps)/(2B) + chi eps/B,
    else (sqrt(eps)/B, -1)."""
    B = math.log(n)
    p = math.sqrt(eps) / (2 * B) + chi * eps / B
    first = rng.random(n) < p
    X = np.where(first, 1 - math.sqrt(eps) / (2 * B), math.sqrt(eps) / B)[:, None]
    return X, np.where(first, 1, -1)


def paper_seed(t: Target, p: dict, rng: np.random.Generator) -> Sequence | None:
    from olr_verify.hunting.bounds import make_learner

    n = int(p["n"])
    if t.family == "gradient" and t.learner != "none" and int(p["d"]) >= 2:
        L = make_learner(t, Sequence("gradient", p, np.zeros((n, int(p["d"])))))
        X, G = theorem_4_2_sequence(L, int(p["d"]), n)
        return Sequence("gradient", p, X, G)
    if t.family == "absorbed":
        return Sequence("absorbed", p, figure_2_003(float(p["D"]), 1 / 25, int(rng.choice([-1, 1])), n, rng))
    if t.family == "binary":
        X, Y = section_5_000(max(n, 3), int(rng.choice([-1, 1])), rng)
        d = int(p["d"])
        Xd = np.zeros((n, d))
        Xd[:, 0] = X[:n, 0] * float(p["R"])
        U = (-Y[:n, None] * Xd) if "eps" in p else None
        return Sequence("binary", p, Xd, Y[:n], U)
    return None


# --------------------------------------------------------------------------- local search
def mutate(seq: Sequence, rng: np.random.Generator, sigma: float) -> Sequence:
    X = np.array(seq.X, float, copy=True)
    Y = None if seq.Y is None else np.array(seq.Y, copy=True)
    U = None if seq.U is None else np.array(seq.U, float, copy=True)
    n, d = X.shape
    k = max(1, int(rng.integers(1, max(2, n // 5))))
    idx = rng.choice(n, size=k, replace=False)
    p = seq.params
    for i in idx:
        move = rng.random()
        if seq.family == "binary":
            if move < 0.3:
                Y[i] = -Y[i]
            else:
                X[i] += sigma * float(p["R"]) * rng.normal(size=d)
                nrm = np.linalg.norm(X[i])
                if nrm > float(p["R"]) or move > 0.85:
                    X[i] *= float(p["R"]) / max(nrm, 1e-300)
            if U is not None:
                U[i] += sigma * rng.normal(size=d)
        elif seq.family == "gradient":
            if move < 0.3:
                Y[i] = -Y[i]
            elif move < 0.45:
                Y[i] = float(np.clip(Y[i] + sigma * rng.normal(), -1, 1))
            else:
                X[i] *= math.exp(sigma * rng.normal())
                X[i] += sigma * np.linalg.norm(X[i]) * rng.normal(size=d)
        else:
            X[i] = np.clip(X[i] + sigma * rng.normal(size=d), -1, 1) if move < 0.8 else rng.choice([-1.0, 1.0], d)
    return Sequence(seq.family, p, X, Y, U)


def _score(t: Target, seq: Sequence) -> tuple[float, float, float, Any]:
    try:
        lhs, rhs, cmp = evaluate_full(t, seq)
    except (FloatingPointError, OverflowError, ValueError, np.linalg.LinAlgError, ZeroDivisionError):
        return -math.inf, math.nan, math.nan, None
    r = ratio(lhs, rhs)
    if not math.isfinite(r):
        r = -math.inf
    return (r if t.kind == "upper" else -r), lhs, rhs, cmp


def hunt(claim: str, seconds: float, seed: int, params: dict | None = None, strategies: tuple = (
        "random", "greedy", "paper", "local"), max_evals: int | None = None) -> HuntResult:
    """Attack one target for about ``seconds``: baselines first, then local search from the best seeds."""
    t = TARGETS[claim]
    p = with_defaults(t, params)
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    deadline = start + seconds
    best, baseline = Best(), Best()
    by: dict[str, float] = {}
    evals = 0
    progress: list[tuple[int, float]] = []

    def consider(seq: Sequence, how: str, is_baseline: bool) -> float:
        nonlocal best, baseline, evals
        r, lhs, rhs, cmp = _score(t, seq)
        evals += 1
        by[how] = max(by.get(how, -math.inf), r)
        if r > best.ratio:
            best = Best(r, lhs, rhs, seq, cmp, how)
            progress.append((evals, r))
        if is_baseline and r > baseline.ratio:
            baseline = Best(r, lhs, rhs, seq, cmp, how)
        return r

    def budget_left(frac: float = 1.0) -> bool:
        ok = time.perf_counter() < start + frac * seconds
        return ok and (max_evals is None or evals < max_evals)

    pool: list[tuple[float, Sequence]] = []
    while budget_left(0.3):
        for how in ("random", "greedy"):
            if how in strategies:
                seq = (random_sequence if how == "random" else greedy_sequence)(t, p, rng)
                pool.append((consider(seq, how, True), seq))
        if "paper" in strategies:
            seq = paper_seed(t, p, rng)
            if seq is not None:
                pool.append((consider(seq, "paper", False), seq))
        if max_evals is not None and evals >= max_evals // 3:
            break
    if "local" in strategies and pool:
        pool.sort(key=lambda rs: rs[0], reverse=True)
        starts = [s for _, s in pool[:4]]
        k = 0
        while budget_left():
            cur = starts[k % len(starts)]
            cur_r, _, _, _ = _score(t, cur)
            sigma = 0.3
            for _ in range(40):
                if not budget_left():
                    break
                cand = mutate(cur, rng, sigma)
                r = consider(cand, "local", False)
                if r >= cur_r:
                    cur, cur_r, sigma = cand, r, min(sigma * 1.5, 1.0)
                else:
                    sigma = max(sigma * 0.85, 1e-3)
            starts[k % len(starts)] = cur
            k += 1
    return HuntResult(claim, best, baseline, evals, time.perf_counter() - start, by, progress)

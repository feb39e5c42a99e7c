"""Search over sequences (and parameters) for the largest regret/bound ratio of one target.

- :func:`random_sequence`  the baseline adversary: i.i.d. draws, with boundary (||x|| = R) and
  near-degenerate (almost parallel, tiny) inputs mixed in;
- :func:`greedy_sequence`  the baseline adaptive adversary: sees yhat_t, then picks the label (or
  g_t = sign(yhat_t)) that hurts most, on inputs from a small candidate set;
- :func:`paper_seed`       the papers' own hard sequences: 002's Theorem 4.2 construction (adaptive),
  003's Figure 2 distribution, 000's Section 5 data (Hazan et al.'s distribution);
- :func:`hunt`             the joint search over the bound's parameter space (:mod:`.space`) and its
  sequences: boundary points then log-uniform draws of the parameters, each with the three adversaries
  above, then a (1+1) evolution strategy from the worst pairs that moves the sequence entries (step-size
  adaptation, label flips) or one parameter at a time (:func:`resize` moves the sequence along).

Every function is deterministic given its ``rng``; :func:`hunt` returns a :class:`HuntResult`, whose
``candidates`` (the largest float64 violation of each of the worst regions) go to the 50-digit replay.
"""
from __future__ import annotations

import dataclasses
import math
import time
from typing import Any, Callable

import numpy as np

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
    region: Any = None      # :class:`~olr_verify.hunting.space.RegionMap` (None for a single point)
    work: int = 0           # rounds simulated
    pinned: dict = dataclasses.field(default_factory=dict)
    candidates: list = dataclasses.field(default_factory=list)  # float64 violations (one per region), largest first
    probes: list = dataclasses.field(default_factory=list)      # see :func:`probe`
    probe_violations: list = dataclasses.field(default_factory=list)  # float64, above rounding level, not replayed
    undecided: int = 0      # sequences the float64 evaluation did not decide (:func:`_undecided`)
    undecided_at: dict = dataclasses.field(default_factory=dict)  # the parameters of the first of them
    could_fail: int = 0     # sequences whose rhs was below the largest lhs their run allows (all, where unknown)
    unreplayed: int = 0     # float64 violations (one per region) beyond MAX_CANDIDATES, not replayed

    def summary(self) -> dict:
        return {"best_ratio": round(self.best.ratio, 6), "best_found_by": self.best.how,
                "baseline_ratio": round(self.baseline.ratio, 6), "sequences_evaluated": self.evaluated,
                "sequences_not_finite": self.undecided, "sequences_that_could_fail": self.could_fail,
                "seconds": round(self.seconds, 2), "rounds_simulated": self.work,
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


def resize(t: Target, seq: Sequence, params: dict, rng: np.random.Generator) -> Sequence:
    """The sequence moved to other parameters: rows cut or extended (fresh random rows) to the new n,
    columns cut or zero-padded to the new d, inputs rescaled to the new radius R (binary family)."""
    p = with_defaults(t, {**seq.params, **params})
    n, d = int(p["n"]), int(p.get("d", seq.X.shape[1]))
    X = np.array(seq.X, float, copy=True)
    if seq.family == "binary" and "R" in params:
        X *= float(p["R"]) / float(seq.params["R"])
    X = X[:, :d] if X.shape[1] >= d else np.hstack([X, np.zeros((len(X), d - X.shape[1]))])
    Y = None if seq.Y is None else np.array(seq.Y, copy=True)
    U = None if seq.U is None else np.array(seq.U, float, copy=True)
    if U is not None:
        U = U[:, :d] if U.shape[1] >= d else np.hstack([U, np.zeros((len(U), d - U.shape[1]))])
    if n < len(X):
        X, Y, U = X[:n], None if Y is None else Y[:n], None if U is None else U[:n]
    elif n > len(X):
        extra = random_sequence(t, {**p, "n": n - len(X)}, rng)
        X = np.vstack([X, extra.X])
        Y = None if Y is None else np.concatenate([Y, extra.Y])
        U = None if U is None else np.vstack([U, extra.U if extra.U is not None else np.zeros((n - len(U), d))])
    return Sequence(seq.family, p, X, Y, U)


BALL_SHRINK = 1e-14  # rows on the sphere are pulled in by this relative margin (float norms are inexact)


def inside_ball(seq: Sequence) -> Sequence:
    """The binary family's inputs made EXACTLY admissible (||x_t|| <= R, seed 000's hypothesis): a row whose
    float64 norm exceeds R (1 - BALL_SHRINK) is rescaled to that norm, so that the decimal data of an artefact
    satisfy the hypothesis exactly (``confirm.hypotheses_broken`` checks it in rationals)."""
    if seq.family != "binary" or seq.params.get("R") is None:
        return seq
    X = np.asarray(seq.X, float)
    cap = float(seq.params["R"]) * (1 - BALL_SHRINK)
    norms = np.linalg.norm(X, axis=1)
    over = norms > cap
    if not over.any():
        return seq
    X = X.copy()
    X[over] *= (cap / norms[over])[:, None]
    return Sequence(seq.family, seq.params, X, seq.Y, seq.U)


ADVERSARIES = (("random", random_sequence), ("greedy", greedy_sequence), ("paper", paper_seed))


def _undecided(t: Target, lhs: float, rhs: float) -> bool:
    """The float64 evaluation does not decide the bound here: a NaN side, inf against inf, or an infinite side
    that would violate it (an infinite bound that holds, rhs = +inf for an upper bound, decides)."""
    if math.isnan(lhs) or math.isnan(rhs):
        return True
    if math.isfinite(lhs) and math.isfinite(rhs):
        return False
    if math.isinf(lhs) and math.isinf(rhs):
        return True
    return not (lhs < rhs if t.kind == "upper" else lhs > rhs)


def _score(t: Target, seq: Sequence) -> tuple[float, float, float, Any, bool]:
    """(ratio, lhs, rhs, comparator, whether the sequence could have violated the bound: rhs below its cap)."""
    try:
        with np.errstate(all="ignore"):
            lhs, rhs, cmp, cap = evaluate_full(t, seq)
    except (FloatingPointError, OverflowError, ValueError, np.linalg.LinAlgError, ZeroDivisionError):
        return -math.inf, math.nan, math.nan, None, True
    r = ratio(lhs, rhs) if math.isfinite(lhs) and math.isfinite(rhs) else -math.inf
    if not math.isfinite(r):
        r = -math.inf
    could_fail = not rhs >= cap + 1e-9 * max(1.0, abs(cap))  # NaN or an unknown cap (+inf): it could
    return (r if t.kind == "upper" else -r), lhs, rhs, cmp, could_fail


def _generate(make: Callable, t: Target, p: dict, rng: np.random.Generator) -> Sequence | None:
    """A sequence from one adversary, or None where its arithmetic breaks down at these parameters."""
    try:
        with np.errstate(all="ignore"):
            return make(t, p, rng)
    except (FloatingPointError, OverflowError, ValueError, np.linalg.LinAlgError, ZeroDivisionError):
        return None


def _generate_in_span(make: Callable, t: Target, p: dict, rng: np.random.Generator) -> Sequence | None:
    """A probe's sequence in R^d.  Where :func:`~olr_verify.hunting.bounds.run_dimension` is below d (a
    rotation-equivariant learner, d > n) it is drawn in a span of that dimension and run there, with the bound
    still read at d: every sequence of n inputs in R^d is such a sequence after a rotation, so nothing is lost.
    A coordinate-wise learner (002 Algorithm 1) gets inputs supported on that many coordinates, padded with
    zeros to R^d (a restriction of the adversary, stated in the space's ``capped`` note)."""
    from olr_verify.hunting.bounds import COORDINATEWISE, run_dimension, span_dimension

    if "d" not in p or "n" not in p or int(p["d"]) <= int(p["n"]):
        return _generate(make, t, p, rng)
    d = int(p["d"])
    k = span_dimension(p) if t.learner in COORDINATEWISE else run_dimension(t, p)
    if k == d:
        return _generate(make, t, p, rng)
    seq = _generate(make, t, {**p, "d": k}, rng)
    if seq is None:
        return None
    X, U = np.asarray(seq.X, float), seq.U
    if t.learner in COORDINATEWISE:
        X = np.hstack([X, np.zeros((len(X), d - k))])
        U = None if U is None else np.hstack([np.asarray(U, float), np.zeros((len(X), d - k))])
    return Sequence(seq.family, {**seq.params, "d": d}, X, seq.Y, U)


# Rounding level of a probe: sums over n = 10^4 rounds and pseudo-inverses at d = 64 lose far more than the dense
# search's 1e-12 (e.g. lhs - rhs = 5e-10 at d = 16 on 002 Lemma 4.3, where lhs = rhs = 1 exactly).
PROBE_NOISE = 1e-8
ROTATED_NOISE = 10   # a probe's margin within 10 times the change a rotated re-run makes is rounding-level
#: Float64 violations replayed at 50/80 digits: the largest of each region, all of them up to this many; more than
#: that leaves a violation neither confirmed nor dismissed, so the verdict is inconclusive (checkkit.decide).
MAX_CANDIDATES = 64
NOISE = 1e-12        # a float64 margin lhs - rhs below NOISE * max(1, |lhs|, |rhs|) is rounding-level


def _rank(b: "Best") -> tuple[bool, float]:
    """Order of the candidates to replay: margins above rounding level first, then the ratio.

    Per-round identities that cancel (e.g. App. B.1's Z_t) give float64 'violations' of ratio >> 1 made of
    rounding alone (lhs ~ 1e-14); ranked first they would take every replay slot from a real, smaller-ratio
    violation.  Only the ORDER changes: every replayed candidate is still decided at 50/80 digits."""
    lhs, rhs = float(b.lhs), float(b.rhs)
    return (lhs - rhs > NOISE * max(1.0, abs(lhs), abs(rhs)), b.ratio)


@dataclasses.dataclass
class _Budget:
    """Deterministic budget in units of work (rounds simulated) and evaluations; a wall-clock cap only
    when a campaign asks for one (``seconds``)."""

    seconds: float
    max_evals: int | None
    max_work: int | None
    start: float = dataclasses.field(default_factory=time.perf_counter)
    evals: int = 0
    work: int = 0

    def left(self, frac: float = 1.0) -> bool:
        ok = time.perf_counter() < self.start + frac * self.seconds
        ok = ok and (self.max_evals is None or self.evals < frac * self.max_evals)
        return ok and (self.max_work is None or self.work < frac * self.max_work)


def hunt(claim: str, seconds: float = math.inf, seed: int = 0, params: dict | None = None, strategies: tuple = (
        "random", "greedy", "paper", "local"), max_evals: int | None = None, max_work: int | None = None,
        search_space: bool = True) -> HuntResult:
    """Attack one target: parameters and sequences searched jointly.

    Parameters in ``params`` are pinned; the others range over the target's :class:`~.space.Space`
    (unless ``search_space`` is False: then the defaults are used).  Exploration (40 % of the budget):
    the boundary points of the space, then log-uniform random points, each with a random, a greedy
    adaptive and the paper's sequence.  Exploitation: (1+1) local search from the four worst pairs,
    moving the sequence entries or, one move in four, one parameter (the sequence resized to it).
    The budget is ``max_work`` rounds and ``max_evals`` sequences (deterministic), or ``seconds``.
    """
    from olr_verify.hunting.space import RegionMap, space_for

    t = TARGETS[claim]
    pinned = dict(params or {})
    space = space_for(claim) if search_space else None
    rng = np.random.default_rng(seed)
    bud = _Budget(seconds, max_evals, max_work)
    best, baseline = Best(), Best()
    by: dict[str, float] = {}
    progress: list[tuple[int, float]] = []
    candidates: dict[Any, Best] = {}  # region -> its largest float64 violation
    region = RegionMap(space, pinned) if space is not None else None

    undecided, undecided_at = 0, {}
    could_fail_count = 0  # sequences that could have violated the bound (rhs below the regret the run allows)

    def consider(seq: Sequence, how: str, is_baseline: bool) -> float:
        nonlocal best, baseline, undecided, could_fail_count
        seq = inside_ball(seq)
        r, lhs, rhs, cmp, could_fail = _score(t, seq)
        could_fail_count += could_fail
        if _undecided(t, lhs, rhs):
            undecided += 1
            if not undecided_at:
                undecided_at.update({**seq.params, "lhs": str(lhs), "rhs": str(rhs)})
        bud.evals += 1
        bud.work += seq.n
        by[how] = max(by.get(how, -math.inf), r)
        if region is not None:
            region.add(seq.params, r)
        if r > best.ratio:
            best = Best(r, lhs, rhs, seq, cmp, how)
            progress.append((bud.evals, r))
        if r > 1:  # the largest float64 candidate of each of the worst regions, for the replay
            key = region.cell(seq.params) if region is not None else None
            cand = Best(r, lhs, rhs, seq, cmp, how)
            if key not in candidates or _rank(cand) > _rank(candidates[key]):
                candidates[key] = cand
        if is_baseline and r > baseline.ratio:
            baseline = Best(r, lhs, rhs, seq, cmp, how)
        return r

    points = iter(space.boundary_points(pinned) if space is not None else [])
    pool: list[tuple[float, Sequence]] = []
    while bud.left(0.4):
        sample = next(points, None)
        if sample is None:
            sample = space.sample(rng, pinned) if space is not None else {}
        p = with_defaults(t, {**sample, **pinned})
        p = space.admissible(p) if space is not None else p
        for how, make in ADVERSARIES:
            if how in strategies:
                seq = _generate(make, t, p, rng)
                if seq is None:
                    bud.evals += 1  # a construction that does not exist at this point still costs an attempt
                    if region is not None and how != "paper":
                        region.failed += 1
                    continue
                pool.append((consider(seq, how, how != "paper"), seq))
        if not pool and bud.evals > 50:
            break
    if "local" in strategies and pool:
        pool.sort(key=lambda rs: rs[0], reverse=True)
        starts = [(r, s) for r, s in pool[:4]]
        free = space.free(pinned) if space is not None else ()
        k = 0
        while bud.left():
            cur_r, cur = starts[k % len(starts)]
            sigma = 0.3
            for _ in range(40):
                if not bud.left():
                    break
                if free and rng.random() < 0.25:
                    par = free[int(rng.integers(len(free)))]
                    move = {par.name: par.perturb(cur.params[par.name], rng, 0.15)}
                    cand = resize(t, cur, space.admissible({**cur.params, **move}), rng)
                else:
                    cand = mutate(cur, rng, sigma)
                r = consider(cand, "local", False)
                if r >= cur_r:
                    cur, cur_r, sigma = cand, r, min(sigma * 1.5, 1.0)
                else:
                    sigma = max(sigma * 0.85, 1e-3)
            starts[k % len(starts)] = (cur_r, cur)
            k += 1
    worst = sorted(candidates.values(), key=_rank, reverse=True)
    return HuntResult(claim, best, baseline, bud.evals, time.perf_counter() - bud.start, by, progress,
                      region=region, work=bud.work, pinned=pinned, candidates=worst[:MAX_CANDIDATES],
                      undecided=undecided, undecided_at=undecided_at, could_fail=could_fail_count,
                      unreplayed=max(0, len(worst) - MAX_CANDIDATES))


def _probe_threshold(lhs: float, rhs: float, noise: float | None) -> float:
    """The margin lhs - rhs a probe must exceed to count as a violation: ``ROTATED_NOISE`` times the rounding a
    rotated re-run measured (and ``PROBE_NOISE`` relative to the sides); where nothing was measured (``noise`` None),
    ``PROBE_NOISE`` relative to the sides and to 1 (the sums' terms are of order 1 even when the sides are not)."""
    if noise is None:
        return PROBE_NOISE * max(1.0, abs(lhs), abs(rhs))
    return max(PROBE_NOISE * max(abs(lhs), abs(rhs)), ROTATED_NOISE * noise)


def _rounding(t: Target, seq: Sequence, margin: float, rng: np.random.Generator) -> float | None:
    """The rounding of a probe's float64 margin lhs - rhs, measured: for a rotation-equivariant learner the same
    sequence in a randomly rotated basis has the same margin in exact arithmetic, so the change a float64 re-run
    makes is rounding (None where it cannot be measured: a learner that is not rotation-equivariant, d = 1)."""
    from olr_verify.hunting.bounds import ROTATION_EQUIVARIANT

    if t.learner not in ROTATION_EQUIVARIANT or seq.X.shape[1] < 2:
        return None
    Q = np.linalg.qr(rng.normal(size=(seq.X.shape[1],) * 2))[0]
    turned = dataclasses.replace(seq, X=np.asarray(seq.X, float) @ Q.T,
                                 U=None if seq.U is None else np.asarray(seq.U, float) @ Q.T)
    _, lhs, rhs, _, _ = _score(t, turned)
    change = abs((lhs - rhs) - margin)
    return change if math.isfinite(change) else None


def probe(res: HuntResult, seed: int) -> HuntResult:
    """Probes beyond the densely searched ranges: every ``Param.probes`` value (``n = 10^4``, ``d = 256``) at
    the default point and at the hunt's worst point, with the random, greedy and paper adversaries.

    Their work (at most 6 sequences per probe value) is an allowance of its own, outside the hunt's budget,
    so the dense search keeps its breadth. Probe sequences are too long for the 50/80-digit replay (10^3..10^4
    rounds of an mpmath learner take minutes to hours), so a probe never refutes: a float64 violation whose
    margin is above rounding level is kept in ``res.probe_violations`` and makes the verdict ``inconclusive``
    (:func:`olr_verify.hunting.checkkit.decide`); one at rounding level (lhs - rhs within ``PROBE_NOISE``,
    relative, or within ``ROTATED_NOISE`` times the rounding :func:`_rounding` measures: :func:`_probe_threshold`) is
    listed in its row and decides nothing."""
    from olr_verify.hunting.space import space_for

    t, space = TARGETS[res.claim], space_for(res.claim)
    if space is None:
        return res
    rng = np.random.default_rng(seed ^ 0x5EED)
    bases = [{}] + ([dict(res.best.seq.params)] if res.best.seq is not None else [])
    for par in space.free(res.pinned):
        for value in par.probes:
            for base in (bases[:1] if value in par.costly_probes else bases):
                p = space.admissible(with_defaults(t, {**base, par.name: value, **res.pinned}))
                for how, make in ADVERSARIES:
                    seq = _generate_in_span(make, t, p, rng)
                    if seq is None:
                        continue
                    seq = inside_ball(seq)
                    r, lhs, rhs, cmp, could_fail = _score(t, seq)
                    res.undecided += _undecided(t, lhs, rhs)
                    res.could_fail += could_fail
                    row = {"param": par.name, "value": value, "adversary": how,
                           "at": "worst point" if base else "default point",
                           "ratio": round(r, 6) if math.isfinite(r) else None}
                    if seq.X.shape[1] != int(p.get("d", seq.X.shape[1])):
                        row["run_dimension"] = int(seq.X.shape[1])
                    if r > 1:
                        noise = _rounding(t, seq, lhs - rhs, rng)
                        if lhs - rhs > _probe_threshold(lhs, rhs, noise):
                            res.probe_violations.append({**row, "lhs": lhs, "rhs": rhs, "params": dict(seq.params),
                                                         "rounding_measured": noise})
                        else:
                            row["not_replayed"] = "float64 margin at rounding level"
                            if noise is not None:
                                row["rounding_measured"] = noise
                    res.probes.append(row)
    return res

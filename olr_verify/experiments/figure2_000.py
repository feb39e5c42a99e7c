"""Seed 000, §5 / Figure 2: regret of FTRL, AIOLI and Foster et al. (2018) on Hazan et al.'s distributions.

As printed (000 §5): for n ≥ 1, B = log(n), χ ∈ {−1, 1}, ε = 0.01, i.i.d. data

    (x_t, y_t) = (1 − √ε/(2B), 1)   w.p. √ε/(2B) + χ ε/B,
                 (√ε/B, −1)         otherwise,

10 runs for χ = −1 and 10 for χ = 1; the plot shows, per algorithm and n, the worse of the two
average regrets, on log-log axes. FTRL uses ℓ2 regularisation with λ = 1.

Not stated in the paper, chosen here (and reported in the evidence): the n grid; R = 1 (|x_t| ≤ 1);
AIOLI with λ = 1/B² (the paper's recommendation, eq. (4)) and exact minimisation of eq. (3); FTRL
unconstrained; Foster et al. with the uniform prior on [−B, B] and quadrature; regret against the
best θ in [−B, B] in hindsight on the realised sequence (certified: ``reference.comparator.best_in_ball`` with
the multiplicities of the two distinct (x, y) pairs as weights; regret against its value is a lower bound on
the regret, and ``value_gap`` bounds the difference).
"""
from __future__ import annotations

import math
import time
from typing import Callable

import numpy as np

from reference.comparator import best_in_ball

EPSILON = 0.01


def sample(n: int, chi: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n i.i.d. pairs of the printed distribution (column vector X, labels Y)."""
    B = math.log(n)
    p_plus = math.sqrt(EPSILON) / (2 * B) + chi * EPSILON / B
    plus = rng.random(n) < p_plus
    x = np.where(plus, 1 - math.sqrt(EPSILON) / (2 * B), math.sqrt(EPSILON) / B)
    y = np.where(plus, 1.0, -1.0)
    return x.reshape(-1, 1), y


def regret(predictions: np.ndarray, X: np.ndarray, Y: np.ndarray, B: float) -> tuple[float, float]:
    """(regret against the best θ in [−B, B], certified gap of that comparator value)."""
    loss = float(np.sum(np.logaddexp(0.0, -Y * predictions)))
    pairs, counts = np.unique(np.column_stack([X[:, 0], Y]), axis=0, return_counts=True)
    best = best_in_ball(pairs[:, :1], pairs[:, 1], B, weights=counts.astype(float), warm=True)
    return loss - best.value, best.value_gap


def curves(learners: dict[str, Callable[[float], object]], ns: list[int], runs: int, seed: int) -> dict:
    """Worst-over-χ average regret per learner and n, with timing and comparator gaps."""
    out = {name: [] for name in learners}
    max_gap, seconds = 0.0, {name: 0.0 for name in learners}
    for n in ns:
        B = math.log(n)
        avg = {name: {} for name in learners}
        for chi in (-1, 1):
            sums = {name: 0.0 for name in learners}
            for r in range(runs):
                X, Y = sample(n, chi, np.random.default_rng([seed, n, chi + 1, r]))
                for name, make in learners.items():
                    start = time.perf_counter()
                    preds = np.asarray(make(B).run(X, Y), dtype=float)
                    seconds[name] += time.perf_counter() - start
                    reg, gap = regret(preds, X, Y, B)
                    sums[name] += reg
                    max_gap = max(max_gap, gap)
            for name in learners:
                avg[name][chi] = sums[name] / runs
        for name in learners:
            out[name].append(max(avg[name].values()))
    return {"n": ns, "regret": out, "max_comparator_gap": max_gap, "seconds": seconds, "runs_per_chi": runs}


def loglog_slope(ns: list[int], values: list[float], last: int = 3) -> float | None:
    """Least-squares slope of log(regret) against log(n) over the last ``last`` grid points
    (None when a regret there is not positive: no log-log slope exists)."""
    if min(values[-last:]) <= 0:
        return None
    xs, ys = np.log(ns[-last:]), np.log(values[-last:])
    return float(np.polyfit(xs, ys, 1)[0])


def plot(result: dict, path, bound: list[float] | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for name, values in result["regret"].items():
        ax.plot(result["n"], values, marker="o", label=name)
    ns = np.array(result["n"], dtype=float)
    ref = result["regret"][next(iter(result["regret"]))][0]
    ax.plot(ns, ref * (ns / ns[0]) ** (1 / 3), "k:", label=r"$\propto n^{1/3}$ (proper lower bound)")
    if bound is not None:
        ax.plot(ns, bound, "r--", label="Theorem 1 / eq. (4) bound (AIOLI)")
    ax.set_xscale("log")
    ax.set_yscale("symlog", linthresh=1.0)  # log scale above 1, linear around 0: negative regrets stay visible
    ax.set_xlabel("n")
    ax.set_ylabel("worst-over-χ average regret (symlog)")
    ax.set_title("000 Figure 2 reproduced (d = 1, ε = 0.01, B = log n)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

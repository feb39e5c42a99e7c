"""Benchmark of the certified references (issue 5).

Prints (1) the largest certified error of every reference solve on default-run sizes (n <= 500, d <= 20),
(2) the wall time per round of the fast learners against their references at d = 20, and the ratio.

    .venv/bin/python benchmarks/reference.py [--n 500] [--rounds 20]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
HERE = Path(__file__).resolve().parent
# this file is named reference.py: keep it from shadowing the ``reference`` package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

import numpy as np  # noqa: E402


def data(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    th = rng.normal(size=d)
    Y = np.where(rng.random(n) < 1 / (1 + np.exp(-X @ th)), 1.0, -1.0)
    return X, Y


def certified_errors(n: int) -> list[tuple[str, float, float]]:
    from reference.aioli import theta_bar
    from reference.comparator import best_in_ball
    from reference.ftrl import ftrl_argmin
    from reference.ons_projection import generalized_projection
    from reference.surrogate_ftl import theta_t

    rows = []
    for d in (1, 2, 5, 20):
        X, Y = data(n, d, d)
        B = 3.0
        lam = 1 / B ** 2
        thetas = np.random.default_rng(d).normal(size=(n - 1, d)) * 0.5
        for name, fn in [
            ("best_in_ball lam=0 (value gap)", lambda: best_in_ball(X, Y, B, 0.0)),
            ("best_in_ball lam=1/B^2", lambda: best_in_ball(X, Y, B, lam)),
            ("best_in_ball B=0.3 lam=1/B^2", lambda: best_in_ball(X, Y, 0.3, lam)),
            ("aioli.theta_bar", lambda: theta_bar(X[:-1], Y[:-1], thetas, X[-1], B, 1.0, lam)),
            ("surrogate_ftl.theta_t", lambda: theta_t(X[:-1], Y[:-1], thetas, B, 1.0, lam)),
            ("ftrl_argmin lam=1", lambda: ftrl_argmin(X, Y, 1.0)),
            ("ftrl_argmin lam=1 B=0.3", lambda: ftrl_argmin(X, Y, 1.0, B=0.3)),
            ("ons projection", lambda: generalized_projection(
                np.full(d, 5.0), (lambda M: M @ M.T + np.eye(d))(np.random.default_rng(0).normal(size=(d, d))), 1.0)),
        ]:
            t0 = time.perf_counter()
            sol = fn()
            err = sol.value_gap if name.endswith("(value gap)") else sol.certified_error
            rows.append((f"{name}, d={d}, n={n}", err, time.perf_counter() - t0))
    return rows


def per_round(rounds: int, d: int = 20, n_hist: int = 200, ref_reps: int = 3):
    """Mean wall time per round of the fast learner's ``run`` (2000 rounds; FTRL: ``rounds``) after ``n_hist`` rounds,
    and of one certified reference solve of the same quantity from the same history."""
    from algorithms import AIOLI, FTRL, SurrogateFTL
    from reference.aioli import theta_bar
    from reference.ftrl import ftrl_argmin
    from reference.surrogate_ftl import theta_t

    X, Y = data(n_hist + 2000, d, 99)
    B, R = 3.0, 1.0
    lam = 1 / B ** 2
    out = []
    for name, make, played, ref in [
        ("AIOLI", lambda: AIOLI(d, B, R, lam), lambda L, x: L.theta_hat(x),
         lambda hist: theta_bar(X[:n_hist], Y[:n_hist], hist, X[n_hist], B, R, lam)),
        ("SurrogateFTL", lambda: SurrogateFTL(d, B, R, lam), lambda L, x: np.array(L.state()["theta"]),
         lambda hist: theta_t(X[:n_hist], Y[:n_hist], hist, B, R, lam)),
        ("FTRL", lambda: FTRL(d, lam=1.0), lambda L, x: np.array(L.state()["theta_hat"]),
         lambda hist: ftrl_argmin(X[:n_hist], Y[:n_hist], 1.0, d=d)),
    ]:
        L = make()
        hist = []
        for t in range(n_hist):
            hist.append(played(L, X[t]))
            L.update(X[t], Y[t])
        hist = np.array(hist)
        m = rounds if name == "FTRL" else 2000  # FTRL has no incremental form: O(t d^2) per round
        t0 = time.perf_counter()
        L.run(X[n_hist:n_hist + m], Y[n_hist:n_hist + m])
        fast = (time.perf_counter() - t0) / m
        ref(hist)  # first solve compiles the cvxpy problem: not counted
        t0 = time.perf_counter()
        for _ in range(ref_reps):
            sol = ref(hist)
        out.append((name, fast, (time.perf_counter() - t0) / ref_reps, sol.certified_error))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    print("### Certified references: certified error of every solve (n = %d, d in {1, 2, 5, 20})\n" % args.n)
    print("| reference solve | certified bound | seconds |\n|---|---|---|")
    rows = certified_errors(args.n)
    for name, err, sec in rows:
        print(f"| {name} | {err:.2e} | {sec:.3f} |")
    worst = max(e for _, e, _ in rows)
    print(f"\nLargest certified bound: {worst:.2e} ({'<= 1e-10' if worst <= 1e-10 else 'ABOVE 1e-10'}); "
          "for lam = 0 the bound is on the objective value, otherwise on ||theta - theta*||.\n")
    print("### Fast learner vs certified reference, wall time per round at d = 20 (history of 200 rounds)\n")
    print("| learner | fast per round | reference per round | ratio | reference certified error |\n|---|---|---|---|---|")
    for name, f, r, e in per_round(args.rounds):
        print(f"| {name} | {f * 1e6:.1f} us | {r * 1e3:.1f} ms | {r / f:.0f}x | {e:.1e} |")


if __name__ == "__main__":
    main()

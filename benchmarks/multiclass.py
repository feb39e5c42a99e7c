"""Seed 001 GAF: rounds/s of exact (certified quadrature) and Monte-Carlo GAF, and the MC-vs-exact loss gap.

Prints markdown tables: (1) rounds/s at K ∈ {3, 7}, d' ∈ {9, 19} for the quadrature back-end (tol 1e-10 at
K = 3; at K = 7 the 6-D rule is only affordable with a loose tol = 1e-4, stated in the table) and MC with
m = 100; (2) cumulative-loss gap |MC − exact| per m ∈ {10, 100, 1000} (K = 3, d' = 9, n = 200, 3 seeds).
``--figure`` also runs the full-size Figure 1 reproduction (segment, wine, digits; slow).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))   # the repo's `algorithms` package, not benchmarks/algorithms.py

import numpy as np  # noqa: E402

from algorithms.gaf import GAF  # noqa: E402
from algorithms.multiclass import losses  # noqa: E402


def stream(n, d, K, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    W = rng.normal(size=(K, d)) * 2
    P = np.exp(X @ W.T); P /= P.sum(1, keepdims=True)
    Y = np.array([rng.choice(K, p=p) for p in P])
    return X, Y


def rate(make, X, Y, budget=8.0):
    g = make()
    t0 = time.perf_counter()
    i = 0
    while i < len(Y) and time.perf_counter() - t0 < budget:
        g.predict(X[i]); g.update(X[i], Y[i]); i += 1
    return i / (time.perf_counter() - t0), i


def main():
    print("| K | d' | back-end | tol / m | rounds/s | rounds timed |")
    print("|---|---|---|---|---|---|")
    for K in (3, 7):
        for d in (9, 19):
            X, Y = stream(400, d, K)
            tol = 1e-10 if K == 3 else 1e-4
            r, i = rate(lambda: GAF(d, K, 1.0, 0.5, tol=tol, max_nodes=5_000_000), X, Y)
            print(f"| {K} | {d} | quadrature (certified bound) | tol={tol:g} | {r:.1f} | {i} |")
            r, i = rate(lambda: GAF(d, K, 1.0, 0.5, method="mc", m=100), X, Y)
            print(f"| {K} | {d} | Monte-Carlo | m=100 | {r:.1f} | {i} |")
    print()
    X, Y = stream(200, 9, 3, seed=1)
    exact = float(losses(GAF(9, 3, 1.0, 0.5, mu=1 / 200).run(X, Y), Y).sum())
    print(f"Exact GAF cumulative loss (K=3, d'=9, n=200, λ=1, β=0.5, μ=1/n): {exact:.4f}")
    print()
    print("| m | mean gap (MC − exact) | max abs gap | seeds |")
    print("|---|---|---|---|")
    for m in (10, 100, 1000):
        g = [float(losses(GAF(9, 3, 1.0, 0.5, mu=1 / 200, method="mc", m=m, seed=s).run(X, Y), Y).sum()) - exact
             for s in range(3)]
        print(f"| {m} | {np.mean(g):+.4f} | {np.max(np.abs(g)):.4f} | 3 |")
    if "--figure" in sys.argv:
        from olr_verify.experiments import multiclass_gaf as ex
        res = [ex.experiment(name, n=None, orders=20, n_tune=300) for name in ("segment", "wine", "digits")]
        ex.plot(res, Path("reports/latest/figures/001_figure1_full.png"))
        for r in res:
            print(r["dataset"], {a: float(v["median"][-1]) for a, v in r["algs"].items()})


if __name__ == "__main__":
    main()

"""Seed 001 §5 / Figure 1 on bundled data: GAF (Monte-Carlo, m = 100) vs ONS vs OGD, multiclass logistic loss.

Data (the paper's LIBSVM vehicle/shuttle/segment cannot be downloaded here): river's ``ImageSegments`` (the
same *segment* data, n = 2310, d' = 18, K = 7), scikit-learn's ``wine`` (178, 13, 3) and ``digits`` (1797, 64, 10).
Preprocessing (not stated in the paper; ours): standardise each feature, append a constant 1, divide by the
largest row norm (so R = 1).

Protocol (§5): the grid λ, β ∈ {0.01, 0.03, 0.1, 0.3, 1, 3, 10}; "best" (unstated criterion; ours) = smallest
final average loss on a tuning order (one fixed random order, the first ``n_tune`` rounds); then ``orders``
random orders (20 in the paper), and the 0.25/0.5/0.75 quantiles over orders of the running average loss
(1/t)Σ_{s≤t} ℓ(ŷ_s, y_s). Grid mapping (unstated; ours): GAF (λ, β) as in eq. (2)–(3), μ = 1/n (§4.2), m = 100,
α = 1; ONS A_0 = λI and step 1/β (β in the role of ONS's γ), no projection (B unstated); OGD η_t = β/√t, no
projection. Monte-Carlo draws use seed (order index), so a run is reproducible.
"""
from __future__ import annotations

import numpy as np

from algorithms.gaf import GAF
from algorithms.multiclass import MulticlassOGD, MulticlassONS, losses

GRID = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)


def _prep(X, y):
    X = np.asarray(X, float)
    X = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1.0)
    X = np.hstack([X, np.ones((X.shape[0], 1))])
    X /= np.linalg.norm(X, axis=1).max()
    classes, Y = np.unique(np.asarray(y), return_inverse=True)
    return X, Y.astype(np.int64), len(classes)


def load(name: str):
    if name == "segment":
        from river.datasets import ImageSegments
        rows = list(ImageSegments())
        keys = sorted(rows[0][0])
        return _prep([[r[0][k] for k in keys] for r in rows], [r[1] for r in rows])
    from sklearn import datasets
    data = {"wine": datasets.load_wine, "digits": datasets.load_digits}[name]()
    return _prep(data.data, data.target)


def make(alg: str, d: int, K: int, lam: float, beta: float, n: int, seed: int, m: int = 100):
    if alg == "GAF":
        return GAF(d, K, lam=lam, beta=beta, mu=1.0 / n, method="mc", m=m, seed=seed)
    if alg == "ONS":
        return MulticlassONS(d, K, gamma=beta, eps=lam)
    return MulticlassOGD(d, K, eta=beta)


def running_average_loss(alg, X, Y, K, lam, beta, seed, m=100) -> np.ndarray:
    n, d = X.shape
    S = make(alg, d, K, lam, beta, n, seed, m).run(X, Y)
    return np.cumsum(losses(S, Y)) / np.arange(1, n + 1)


def grid_for(alg: str, grid=GRID):
    if alg == "OGD":
        return [(1.0, b) for b in grid]
    return [(lam, b) for lam in grid for b in grid]


def tune(alg, X, Y, K, n_tune, seed, grid=GRID, m=100):
    order = np.random.default_rng(seed).permutation(X.shape[0])[:n_tune]
    best = None
    for lam, beta in grid_for(alg, grid):
        v = running_average_loss(alg, X[order], Y[order], K, lam, beta, seed, m)[-1]
        if best is None or v < best[0]:
            best = (float(v), lam, beta)
    return {"final_avg_loss_tuning": best[0], "lam": best[1], "beta": best[2]}


def experiment(name: str, n: int | None = None, orders: int = 20, n_tune: int = 300, seed: int = 0,
               grid=GRID, algs=("GAF", "ONS", "OGD"), m=100) -> dict:
    X, Y, K = load(name)
    rng = np.random.default_rng(seed)
    if n is not None and n < X.shape[0]:
        keep = rng.choice(X.shape[0], n, replace=False)
        X, Y = X[keep], Y[keep]
    out = {"dataset": name, "n": int(X.shape[0]), "d_prime": int(X.shape[1]), "K": int(K), "orders": orders,
           "algs": {}}
    for alg in algs:
        best = tune(alg, X, Y, K, min(n_tune, X.shape[0]), seed + 1, grid, m)
        curves = []
        for o in range(orders):
            perm = np.random.default_rng([seed, o]).permutation(X.shape[0])
            curves.append(running_average_loss(alg, X[perm], Y[perm], K, best["lam"], best["beta"], o, m))
        C = np.array(curves)
        q = np.quantile(C, [0.25, 0.5, 0.75], axis=0)
        out["algs"][alg] = {"params": best, "q25": q[0], "median": q[1], "q75": q[2]}
    return out


def plot(results: list[dict], path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 3.6))
    axes = np.atleast_1d(axes)
    colors = {"GAF": "tab:blue", "ONS": "tab:orange", "OGD": "tab:green"}
    for ax, res in zip(axes, results):
        t = np.arange(1, res["n"] + 1)
        for alg, r in res["algs"].items():
            ax.plot(t, r["median"], color=colors.get(alg), label=f"{alg} (λ={r['params']['lam']:g}, "
                                                                 f"β={r['params']['beta']:g})")
            ax.fill_between(t, r["q25"], r["q75"], color=colors.get(alg), alpha=0.25)
        ax.set_xscale("log")
        ax.set_title(f"{res['dataset']} (n={res['n']}, d'={res['d_prime']}, K={res['K']}, {res['orders']} orders)")
        ax.set_xlabel("t")
        ax.set_ylabel("average loss")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def summarise(res: dict, early: int) -> dict:
    """Numbers the Figure 1 claims are decided on."""
    s = {}
    for alg, r in res["algs"].items():
        iqr = r["q75"] - r["q25"]
        s[alg] = {"final_median": float(r["median"][-1]), "median_at_early": float(r["median"][early - 1]),
                  "mean_iqr": float(iqr.mean()), "mean_iqr_first_quarter": float(iqr[: max(1, res["n"] // 4)].mean()),
                  "params": r["params"]}
    return s

"""Seed 001 (GAF): Proposition 3 (Monte-Carlo GAF, high probability), its step P7 and complexity steps (i)-(iii),
and claim 10 (steps P3, P8, the squared-loss constants (A1)-(A4) and the corrected (A4) are declared in paper.toml).

Proposition 3 is probed by repeated seeded Monte-Carlo predictions along one exact GAF trajectory (the updates of
GAF do not depend on its predictions, so the exact and MC forecasters share θ_t, A_t): the empirical frequency of
the failure event of P7 is compared with δ. Complexity claims are measured (wall-clock per round) and fitted.
"""
from __future__ import annotations

import math
import time

import numpy as np

from olr_verify.artefacts import replayer
from olr_verify.checks.verdicts import at_an_instance, worse
from olr_verify.timing import MARGIN, loglog_slope, measured_order, single_threaded, within_order
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check


def _trajectory(seed, n, d, K, B):
    """Exact GAF (Cor. 2 parameters, R = 1) on a comparator-labelled sequence: score laws and exact p̂_t."""
    from algorithms.gaf import GAF
    from olr_verify.papers.s001_gaf.theorem1 import sequences
    rng = np.random.default_rng(seed)
    X, Y = sequences(rng, n, d, K, B)["comparator-sampled"]
    g = GAF(d, K, 32.0 * d * K, 1.0 / (math.log(K) / 2 + B + 1.0), method="quadrature", tol=1e-10)
    laws, logp = [], []
    for x, y in zip(X, Y):
        laws.append(g.score_law(x)); logp.append(g.predict(x)); g.update(x, int(y))
    return X, Y, laws, np.array(logp)


def _mc_losses(laws, Y, m, mu, rng):
    from algorithms.gaf import expected_softmax_mc, log_smooth
    return np.array([-log_smooth(expected_softmax_mc(z, S, m, rng), mu)[y] for (z, S), y in zip(laws, Y)])


@check("001:proposition-3/step-p7")
def step_p7(ctx: Context) -> Outcome:
    n, K, d, B, delta = 10, 2, 1, 1.0, 0.1
    m = 200 if ctx.quick else 400
    L = math.log(n / delta)
    mu = (L * K / m) ** (1 / 3)               # proof's choice; then eps = mu
    eps = math.sqrt(K / (mu * m) * L)
    X, Y, laws, logp = _trajectory(ctx.seed, n, d, K, B)
    exact = -logp[np.arange(n), Y]
    rng = np.random.default_rng(ctx.seed + 11)
    S = 100 if ctx.quick else 1000
    excess = np.array([float((_mc_losses(laws, Y, m, mu, rng) - exact).sum()) for _ in range(S)])
    thr = n * eps + mu * n
    fails = int((excess > thr).sum())
    nans = int(np.isnan(excess).sum())  # a repetition that gave NaN is neither a success nor a failure
    ev = {"n": n, "K": K, "m": m, "delta": delta, "mu": mu, "eps": eps, "threshold n eps + mu n": thr,
          "repetitions": S, "failures": fails, "not_a_number": nans,
          "max excess": float(excess.max()), "mean excess": float(excess.mean()),
          "note": "eps < 1/2 as (8) needs (m > 8K log(n/delta))",
          "detection_power": (f"one parameter point (n, K, d, B) = ({n}, {K}, {d}, {B:g}); the largest excess is "
                              f"{float(excess.max()) / thr:.3g} of the threshold, so a bound that many times smaller "
                              "would pass too")}
    # failure frequency must be <= delta; with S draws, reject only if clearly above (binomial 3-sigma)
    ok = not nans and fails / S <= delta + 3 * math.sqrt(delta * (1 - delta) / S)
    return Outcome("verified" if ok else "inconclusive", "repeated seeded MC predictions along an exact GAF run", ev)


@check("001:proposition-3")
def proposition_3(ctx: Context) -> Outcome:
    from olr_verify.papers.s001_gaf.theorem1_regret import eq7_rhs
    from reference.gaf import best_comparator
    n, K, d, B, delta = 10, 2, 1, 1.0, 0.1
    X, Y, laws, logp = _trajectory(ctx.seed, n, d, K, B)
    best = best_comparator(X, Y, K, B).value_upper
    rng = np.random.default_rng(ctx.seed + 5)
    rows = []
    for m in ((50, 400) if ctx.quick else (20, 100, 400, 2000)):
        L = math.log(n / delta)
        for name, mu in (("statement mu=(log(n/d)/m)^(1/3)", (L / m) ** (1 / 3)),
                         ("proof mu=(K log(n/d)/m)^(1/3)", (K * L / m) ** (1 / 3))):
            mu = min(mu, 0.5)
            S = 30 if ctx.quick else 200
            regs = np.array([float(_mc_losses(laws, Y, m, mu, rng).sum()) - best for _ in range(S)])
            rhs = eq7_rhs(d, K, B, 1.0, n) + n * (K / m * L) ** (1 / 3)
            rows.append({"m": m, "mu": name, "quantile_1-delta regret": float(np.quantile(regs, 1 - delta)),
                         "rhs (constants 1)": rhs, "ratio": float(np.quantile(regs, 1 - delta)) / rhs})
    ev = {"rows": rows, "max ratio": float(np.max([r["ratio"] for r in rows])),  # np.max keeps a NaN
          "reading": "'<~' hides universal constants: we report the (1-delta)-quantile of the regret over seeded "
                     "repetitions divided by the right side with constants 1",
          "notes": ["the statement's mu lacks the factor K of the proof's mu (P8); with it, the P7 term is "
                    "n sqrt(K) (log(n/delta)/m)^(1/3), a factor K^(1/6) above the stated n (K/m log(n/delta))^(1/3)",
                    "with m = n^3 log(n/delta) the extra term is K^(1/3) n^0, an additive constant only for fixed K"]}
    return Outcome("verified" if ev["max ratio"] <= 1 else "inconclusive", "repeated seeded MC-GAF runs", ev)


# ----------------------------------------------------------------------------- complexity

def _gaf_after_one_round(d, K, m, rows, seed):
    """(GAF of Monte-Carlo size m after one round, X, Y): ``rows`` seeded unit inputs and labels in [0, K)."""
    from algorithms.gaf import GAF
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(rows, d)); X /= np.linalg.norm(X, axis=1, keepdims=True)
    Y = rng.integers(0, K, rows)
    g = GAF(d, K, 1.0, 0.5, mu=0.01, method="mc", m=m)
    g.predict(X[0]); g.update(X[0], int(Y[0]))
    return g, X, Y


def _time_rounds(d, K, m, rounds, seed):
    g, X, Y = _gaf_after_one_round(d, K, m, rounds + 2, seed)
    tu, tp = [], []
    with single_threaded():  # thread CPU time: a busy machine does not slow it down
        for i in range(1, rounds + 1):
            t0 = time.thread_time(); g.predict(X[i]); t1 = time.thread_time(); g.update(X[i], int(Y[i]))
            tu.append(time.thread_time() - t1); tp.append(t1 - t0)
    return min(tu), min(tp)  # the least disturbed round: the per-round cost does not depend on t


def _warm_gaf(d, K, seed):
    """(GAF after one round, predicting on x, y) at dimension d: the state one update is timed on."""
    g, X, Y = _gaf_after_one_round(d, K, 10, 2, seed)
    g.predict(X[1])
    return g, X[1], int(Y[1])


_slope = loglog_slope  # (also used by claims_4_to_9) one implementation: olr_verify.timing


@check("001:proposition-3/complexity")
def complexity(ctx: Context) -> Outcome:
    r = 7 if ctx.quick else 15
    # d' <= 400: beyond, the (K-1)d' x (K-1)d' matrix leaves the caches and the fit swings (1.75 ... 2.51 over
    # d' = 150 ... 600 in repeated runs); one update per pass, passes interleaved (olr_verify.timing)
    ds = (60, 120, 240) if ctx.quick else (100, 200, 400)
    upd = measured_order(ds, lambda d: _warm_gaf(d, 3, ctx.seed), lambda st: st[0].update(st[1], st[2]), 2,
                         "one GAF update against d' (K = 3)", repeat=r)
    upd_d = upd.evidence["cpu_seconds"]
    ms = (10000, 40000) if ctx.quick else (20000, 80000, 320000)
    pred_m = [_time_rounds(2, 3, m, 3 if ctx.quick else r, ctx.seed)[1] for m in ms]
    Ks = (10, 20, 40)
    pred_K = [_time_rounds(2, K, 5000 if ctx.quick else 20000, 3 if ctx.quick else 8, ctx.seed)[1] for K in Ks]
    upd_K = [_time_rounds(60, K, 10, 3 if ctx.quick else 8, ctx.seed)[0] for K in Ks]
    s = {"update vs d' (K=3)": _slope(ds, upd_d), "prediction vs m (K=3)": _slope(ms, pred_m),
         "prediction vs K (m=20000)": _slope(Ks, pred_K), "update vs K (d'=60)": _slope(Ks, upd_K)}
    printed = {"update vs d' (K=3)": 2, "prediction vs m (K=3)": 1, "prediction vs K (m=20000)": 2,
               "update vs K (d'=60)": 3}
    ok = all(within_order(s[k], printed[k]) for k in s)
    ev = {"fitted exponents (log-log, least thread CPU time per round)": s, "printed exponents (upper bounds)": printed,
          "accepted_if_exponent_at_most": f"printed + {MARGIN}",
          "n": "per-round cost is independent of t by construction (fixed-size A_t^{-1} Woodbury update): total = n x per-round",
          "update vs d'": upd.evidence,
          "implementation": "algorithms.gaf: rank-K Woodbury O(K^2 d'^2 + K^3 ...), K-dim Newton, m draws of a "
                            "(K-1)-dim Gaussian", "timings_s": {"upd_d": upd_d, "pred_m": pred_m, "pred_K": pred_K,
                                                                 "upd_K": upd_K}}
    return Outcome("verified" if ok else "inconclusive", "thread CPU time measurements, fitted exponents", ev)


RANK_CASE = {"lam": "1", "beta": "1", "x": ["1", "0"], "y": 0, "K": 2}


def _rank_case(c, dps=50):
    """A_1 A_0 and A_1 − A_0 at 50 digits (θ_2 by 50-digit Newton): numerical ranks via singular values."""
    from fractions import Fraction

    import mpmath as mp

    from olr_verify.papers.s001_gaf.algorithm1 import _mp_rounds
    X = [[Fraction(v) for v in c["x"]]]
    K, d = c["K"], len(c["x"])
    th2 = _mp_rounds(X, [c["y"]], K, Fraction(c["lam"]), Fraction(c["beta"]), False, dps=dps)[-1]
    with mp.workdps(dps):
        x = [mp.mpf(Fraction(v).numerator) / Fraction(v).denominator for v in c["x"]]
        lam = mp.mpf(Fraction(c["lam"]).numerator) / Fraction(c["lam"]).denominator
        beta = mp.mpf(Fraction(c["beta"]).numerator) / Fraction(c["beta"]).denominator
        z = [sum(th2[k * d + a] * x[a] for a in range(d)) for k in range(K)]
        s = sum(mp.exp(v) for v in z)
        p = [mp.exp(v) / s for v in z]
        D = K * d
        A0 = mp.eye(D) * lam
        A1 = A0.copy()
        for k in range(K):
            for l in range(K):
                Mkl = (p[k] if k == l else 0) - p[k] * p[l]
                for a in range(d):
                    for b in range(d):
                        A1[k * d + a, l * d + b] += beta / 2 * Mkl * x[a] * x[b]
        prod_det = mp.det(A1 * A0)
        sv = mp.svd_r(A1 - A0, compute_uv=False)
        rank_diff = sum(1 for v in sv if abs(v) > mp.mpf(10) ** (-dps + 10))
        return prod_det, rank_diff, D


@check("001:proposition-3/step-i")
def step_i(ctx: Context) -> Outcome:
    det, rdiff, D = _rank_case(RANK_CASE)
    ev = {"instance": RANK_CASE, "d = d'K": D, "det(A_1 A_0) (50 digits)": str(det)[:25],
          "rank(A_1 A_0)": D if det != 0 else "< d", "rank(A_1 - A_0)": rdiff,
          "reason": "A_t, A_{t-1} >= lam I are positive definite, so A_t A_{t-1} has full rank d = d'K > K when d' > 1;"
                    " the intended A_t - A_{t-1} = (beta/2) Phi M Phi^T has rank <= K - 1 (see "
                    "001:proposition-3/step-i/corrected)"}
    return at_an_instance(det != 0 and D > RANK_CASE["K"], "50-digit determinant of A_1 A_0", ev,
                          {"type": "gaf_rank_step_i", **RANK_CASE})


@replayer("gaf_rank_step_i")
def replay_step_i(art: dict):
    det, rdiff, D = _rank_case(art["replay"])
    return bool(det != 0 and D > art["replay"]["K"]), {"det_A1A0": str(det), "rank_A1_minus_A0": rdiff, "d": D}


@check("001:proposition-3/step-i/corrected")
def step_i_corrected(ctx: Context) -> Outcome:
    from algorithms.gaf import GAF
    rng = np.random.default_rng(ctx.seed)
    worst_rank, worst_err = 0, 0.0
    for d, K in ((2, 2), (3, 3), (4, 5)):
        g = GAF(d, K, 0.7, 0.5, method="mc", m=2)
        for _ in range(4 if ctx.quick else 12):
            x = rng.normal(size=d); y = int(rng.integers(K))
            A_prev = g.A.copy()
            g.update(x, y)
            sv = np.linalg.svd(g.A - A_prev, compute_uv=False)
            worst_rank = max(worst_rank, int((sv > 1e-12 * sv.max()).sum()) - (K - 1))
            worst_err = worse(worst_err, float(np.abs(g.A_inv @ g.A - np.eye(d * K)).max()))
    ev = {"max rank(A_t - A_{t-1}) - (K-1)": worst_rank, "max |A_t^{-1} A_t - I| of the rank-K Woodbury update": worst_err}
    ok = worst_rank <= 0 and worst_err < 1e-8
    return Outcome("verified" if ok else "inconclusive", "numerical ranks along GAF runs", ev)


@check("001:proposition-3/step-ii")
def step_ii(ctx: Context) -> Outcome:
    """θ_{t+1}: the K-dimensional Newton of algorithms.gaf; iterations and cost vs d' (cited: Jézéquel 2020, Thm 4)."""
    times = {d: _time_rounds(d, 3, 5, 5 if ctx.quick else 12, ctx.seed)[0]
             for d in ((100, 200, 400) if ctx.quick else (150, 300, 600))}
    slope = _slope(list(times), list(times.values()))
    ev = {"update time vs d' (K=3)": times, "fitted exponent in d'": slope, "printed": "O(log(n) + K^2 d^2)",
          "reason": "cited result (Theorem 4 of Jezequel et al. 2020): the log(n) term concerns their solver; the "
                    "implementation here reduces (2) to a K-dim Newton problem, so the d'-dependence is checkable"}
    ev["accepted_if_exponent_at_most"] = 2 + MARGIN
    return Outcome("verified" if within_order(slope, 2) else "inconclusive", "thread CPU time fit of the update cost", ev)


@check("001:proposition-3/step-iii")
def step_iii(ctx: Context) -> Outcome:
    ms = (20000, 80000) if ctx.quick else (20000, 80000, 320000)
    pm = [_time_rounds(2, 4, m, 3 if ctx.quick else 8, ctx.seed)[1] for m in ms]
    Ks = (10, 20, 40)
    pk = [_time_rounds(2, K, 20000, 3 if ctx.quick else 8, ctx.seed)[1] for K in Ks]
    s_m, s_K = _slope(ms, pm), _slope(Ks, pk)
    ev = {"prediction time vs m (K=4)": dict(zip(ms, pm)), "exponent in m": s_m,
          "prediction time vs K (m=20000)": dict(zip(Ks, pk)), "exponent in K": s_K, "printed": "O(m K^2)"}
    ev["accepted_if_exponent_at_most"] = {"m": 1 + MARGIN, "K": 2 + MARGIN}
    ok = within_order(s_m, 1) and within_order(s_K, 2)
    return Outcome("verified" if ok else "inconclusive", "thread CPU time fits", ev)


# ----------------------------------------------------------------------------- squared loss (§4.1)

@check("001:claim-10")
def claim_10(ctx: Context) -> Outcome:
    from algorithms.gaf_squared import GAFSquared
    import sympy as sp
    d, n, B, R, Y = sp.symbols("d n B R Y", positive=True)
    # substitution (d >= 4 branch; d < 4 analogous): lam B^2 = max{4,d}/(4d) <= 1, 2Y^2 d (1/2 + 2 sqrt3) <= 8 Y^2 d
    coef = float(2 * (sp.Rational(1, 2) + 2 * sp.sqrt(3)))
    rng = np.random.default_rng(ctx.seed)
    worst = -math.inf
    for dd in (1, 2, 5):
        for _ in range(3 if ctx.quick else 20):
            nn, Bv, Rv, Yv = int(rng.integers(5, 60)), float(rng.choice([0.5, 1, 3])), 1.0, 1.0
            lam = max(4, dd) / (4 * dd * Bv ** 2)
            X = rng.normal(size=(nn, dd)); X *= Rv / np.linalg.norm(X, axis=1, keepdims=True)
            th = rng.normal(size=dd); th *= Bv / np.linalg.norm(th)
            Yt = np.clip(X @ th + rng.normal(size=nn) * 0.5, -Yv, Yv)
            if rng.random() < 0.3:
                Yt = Yv * np.sign(rng.normal(size=nn))
            pred = GAFSquared(dd, lam, Yv).run(X, Yt)
            L = float(((pred - Yt) ** 2).sum())
            # best comparator in the ball: ridge path bisection on ||theta|| <= B
            G, bvec = X.T @ X, X.T @ Yt
            def th_of(nu):
                return np.linalg.solve(G + nu * np.eye(dd), bvec)
            lo, hi = 0.0, 1e6
            if np.linalg.norm(np.linalg.lstsq(G, bvec, rcond=None)[0]) > Bv:
                for _ in range(100):
                    mid = 0.5 * (lo + hi)
                    (lo, hi) = (mid, hi) if np.linalg.norm(th_of(mid)) > Bv else (lo, mid)
                tb = th_of(hi)
            else:
                tb = np.linalg.lstsq(G, bvec, rcond=None)[0]
            reg = L - float(((X @ tb - Yt) ** 2).sum())
            worst = worse(worst, reg - (1 + 8 * Yv ** 2 * dd * math.log(1 + 16 * nn * Bv ** 2 * Rv ** 2)))
    ev = {"max regret - bound over runs": worst, "learner": "algorithms.gaf_squared.GAFSquared (VAW form of GAF)",
          "lam": "max{4,d} zeta/alpha = max{4,d}/(4 d B^2)", "2(1/2 + 2 sqrt 3)": coef,
          "substitution": "lam B^2 = max{4,d}/(4d) <= 1; d/alpha (1/2 + 2sqrt3/beta) = 2Y^2 d (1/2 + 2 sqrt 3) <= 8Y^2 d; "
                          "n beta gamma/(2 lam) <= 2 n B^2 R^2 (gamma = R^2) or 4 n B^2 R^2 (gamma = 2R^2) <= 16 n B^2 R^2"}
    return Outcome("verified" if worst <= 0 and coef <= 8 else "inconclusive", "substitution + VAW runs", ev)

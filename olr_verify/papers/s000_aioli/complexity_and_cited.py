"""Seed 000 (AIOLI): complexity claims (Theorem 4, Table 1, abstract), the online-to-batch Corollary 6 and
Figure 1 (the cited statements 000:claim-10/b and 000:claim-11/b are declared in paper.toml).

Complexity claims are measured, never proved: thread CPU time of ``algorithms.AIOLI`` (Algorithm 2 with
``inner_steps=T``), ``OGD`` and ``ONS`` on seeded data, with log-log slopes fitted over a grid of n,
d or T (``olr_verify.timing.measured_order``).  A slope at most the printed exponent + ``timing.MARGIN`` is ``verified``; the evidence
lists every measurement.  Regret rates (Table 1) are log-log slopes of the regret against the best
comparator of the B-ball (``reference.comparator.best_in_ball_fast``).
"""
from __future__ import annotations

import math
import zlib

import numpy as np

from olr_verify.checks.scalar_common import combine
from olr_verify.timing import loglog_slope, measured_order
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check


def _rng(ctx: Context, claim: str):
    return np.random.default_rng((ctx.seed ^ zlib.crc32(claim.encode())) & 0x7FFFFFFF)


def _data(rng, n: int, d: int, R: float = 1.0, theta_scale: float = 2.0):
    X = rng.normal(size=(n, d))
    X *= R / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
    w = rng.normal(size=d)
    w *= theta_scale / np.linalg.norm(w)
    Y = np.where(rng.random(n) < 1 / (1 + np.exp(-X @ w)), 1, -1)
    return X, Y


def _scan(ctx, claim, make, grid, vary: str, fixed: dict, printed: float) -> Outcome:
    """Is ``make(kw).run(X, Y)`` O(``vary``**printed)? Thread CPU time over ``grid`` (olr_verify.timing)."""
    rng = _rng(ctx, claim + vary)
    kws = {v: {**fixed, vary: v} for v in grid}
    data = {v: _data(rng, kw["n"], kw["d"]) for v, kw in kws.items()}
    out = measured_order(grid, lambda v: (make(kws[v]), *data[v]), lambda s: s[0].run(s[1], s[2]),
                         printed, f"run(X, Y) against {vary}")
    out.evidence.update({"vary": vary, "grid": list(grid), "fixed": fixed})
    return out


def _aioli(T_fixed=None, lam=None, B=1.0, R=1.0):
    from algorithms import AIOLI, theorem4_inner_steps

    def make(kw):
        lam_ = lam if lam is not None else 1.0 / B**2
        T = kw.get("T", T_fixed) if T_fixed != "thm4" else theorem4_inner_steps(kw["n"], B, R, lam_)
        return AIOLI(kw["d"], B, R, lam_, inner_steps=int(T))
    return make


def _aioli_cost(ctx: Context, claim: str, T_mode) -> Outcome:
    q = ctx.quick
    links = [("time vs n (d = 10, T fixed): O(n)" if T_mode != "thm4" else "time vs n (d = 10, T of Theorem 4)",
              _scan(ctx, claim, _aioli(T_mode if T_mode == "thm4" else 20), [100, 300, 900] if q else [150, 600, 2400],
                    "n", {"d": 10}, 1.0 if T_mode != "thm4" else 1.2)),
             # d from 400: below, a round's fixed interpreter cost hides the d^2 mat-vec
             ("time vs d (n = 40, T = 10): O(d^2) per round",
              _scan(ctx, claim, _aioli(10), [300, 600, 1200] if q else [400, 800, 1600], "d", {"n": 20 if q else 40},
                    2.0))]
    if T_mode != "thm4":
        links.append(("time vs T (n = 120, d = 5): O(T) per round",
                      _scan(ctx, claim, _aioli(), [10, 40, 160] if q else [20, 80, 320], "T", {"n": 100 if q else 120,
                                                                                                    "d": 5}, 1.0)))
    return combine(links, method="measured thread CPU time of algorithms.AIOLI (Algorithm 2), log-log slopes")


@check("000:theorem-4/step-1")
def theorem_4_step_1(ctx: Context) -> Outcome:
    out = _aioli_cost(ctx, "000:theorem-4/step-1", "fixed")
    out.evidence["reading"] = "O(nd^2 + nT): linear in n and in T, quadratic (at most) in d"
    return out


def _T_vs_formula(n_grid, B, R, lam):
    from algorithms import theorem4_inner_steps

    rows = []
    for n in n_grid:
        T = theorem4_inner_steps(n, B, R, lam)
        rows.append({"n": n, "T": T, "ratio_T_to_(R^2/lam)log(Rn/lam+B)": round(T / ((R * R / lam) * math.log(R * n / lam + B)), 3)})
    return rows


@check("000:theorem-4/complexity")
def theorem_4_complexity(ctx: Context) -> Outcome:
    grid = [10, 100, 1000, 10**4, 10**6]
    rows = {f"B={B},R={R},lam={lam}": _T_vs_formula(grid, B, R, lam) for B, R, lam in
            [(1.0, 1.0, 1.0), (5.0, 1.0, 1 / 25), (1.0, 2.0, 0.5)]}
    ratios = [r["ratio_T_to_(R^2/lam)log(Rn/lam+B)"] for v in rows.values() for r in v]
    link_T = Outcome("verified" if max(ratios) < 20 else "inconclusive", "T of Theorem 4 against n R^2/lam log(Rn/lam+B)",
                     {"T_table": rows, "max_ratio": max(ratios),
                      "note": "the ratio stays bounded as n grows (it tends to 3 (1+4 lam/R^2)); it is large only "
                              "when R^2/lam is small, where the O(.) hides the 4 of (4 + R^2/lam)"})
    time_link = _aioli_cost(ctx, "000:theorem-4/complexity", "thm4")
    return combine([("inner steps T(n) of Theorem 4", link_T), ("measured time", time_link)],
                   method="T(n) tabulated exactly; time measured")


@check("000:theorem-4/lambda-inv-b2")
def theorem_4_lambda_inv_b2(ctx: Context) -> Outcome:
    from algorithms import theorem4_inner_steps

    rows = []
    for B in (1.0, 3.0):
        for n in (10, 10**3, 10**5, 10**7):
            T = theorem4_inner_steps(n, B, 1.0, 1 / B**2)
            rows.append({"B": B, "n": n, "T": T, "T/log(n)": round(T / math.log(n), 2)})
    per_B = {B: [r["T/log(n)"] for r in rows if r["B"] == B] for B in (1.0, 3.0)}
    bounded = all(v[-1] <= v[1] * 1.5 for v in per_B.values())
    link = Outcome("verified" if bounded else "inconclusive", "T(n) with lam = 1/B^2 (R = 1)",
                   {"table": rows, "reading": "T = O(log n) for fixed B, R; the hidden constant grows like "
                                              "(4 + R^2 B^2) x 3: the O(nd^2 + n log n) treats B and R as constants"})
    time_link = _aioli_cost(ctx, "000:theorem-4/lambda-inv-b2", "thm4")
    return combine([("T = O(log n)", link), ("measured time", time_link)], method="T(n) tabulated; time measured")


@check("000:table-1/aioli")
def table_1_aioli(ctx: Context) -> Outcome:
    out = _aioli_cost(ctx, "000:table-1/aioli", "thm4")
    out.evidence["reading"] = ("complexity nd^2 + n log n measured (lambda = 1/B^2, T of Theorem 4); the regret "
                               "entry dB log(Bn) is eq. (4) = Theorem 1, decided by the hunts of 000:theorem-1 and "
                               "000:equation-4")
    return out


@check("000:claim-8")
def claim_8(ctx: Context) -> Outcome:
    out = _aioli_cost(ctx, "000:claim-8", "thm4")
    out.evidence["reading"] = ("per-round time O(d^2 + log n) == total O(nd^2 + n log n) (the contributions' "
                               "'per-round' is read as total); the abstract's regret O(B log(Bn)) holds for fixed "
                               "d (Theorem 1 gives O(dB log(Bn))); 'better than any proper algorithm when n = O(e^B)' "
                               "rests on the cited lower bound (000:claim-9)")
    return out


# --------------------------------------------------------------------------- Table 1: cited learners
def _regret_slope(ctx, claim, make, B, ns, runs):
    from reference.comparator import best_in_ball_fast

    rng = _rng(ctx, claim)
    regs = []
    for n in ns:
        vals = []
        for _ in range(runs):
            X, Y = _data(rng, n, 1, 1.0, theta_scale=B)
            preds = make().run(X, Y)
            alg = float(np.sum(np.logaddexp(0.0, -Y * preds)))
            vals.append(alg - best_in_ball_fast(-Y[:, None] * X, B).value)
        regs.append(max(float(np.mean(vals)), 1e-9))
    return regs


def _table(ctx, claim, make_reg, B, printed_rate: str, slope_max: float, cost=None, explicit=None) -> Outcome:
    ns = [50, 200, 800] if ctx.quick else [100, 400, 1600]
    runs = 2 if ctx.quick else 3
    regs = _regret_slope(ctx, claim, make_reg, B, ns, runs)
    s = loglog_slope(ns, regs)
    ev = {"n": ns, "mean_regret": [round(r, 4) for r in regs], "loglog_slope": round(s, 3),
          "printed_rate": printed_rate, "slope_accepted_up_to": slope_max, "B": B, "R": 1.0, "runs_per_n": runs}
    ok = s <= slope_max
    if explicit is not None:  # the cited paper's explicit bound for this step size
        name, fn = explicit
        ev["explicit_bound"] = {"which": name, "values": [round(fn(n), 3) for n in ns]}
        ok = ok and all(r <= fn(n) for r, n in zip(regs, ns))  # both: the rate and the constant
    reg = Outcome("verified" if ok else "inconclusive", "regret on logistic data (d = 1) against the best in the B-ball", ev)
    links = [("regret", reg)]
    if cost is not None:
        links.append(("complexity", cost))
    return combine(links, method="measured regret slope (and cost) of the cited learner")


@check("000:table-1/ogd")
def table_1_ogd(ctx: Context) -> Outcome:
    from algorithms import OGD

    cost = _scan(ctx, "000:table-1/ogd", lambda kw: OGD(kw["d"], 1.0, 1.0),
                    [6400, 25600, 102400] if ctx.quick else [25600, 102400, 409600], "d", {"n": 40}, 1.0)  # below, a
    # round's fixed cost hides d (slope 0.5 on d = 400 ... 25600)
    return _table(ctx, "000:table-1/ogd", lambda: OGD(1, 2.0, 1.0), 2.0, "B sqrt(n)", 0.5 + 0.15, cost,
                  ("Zinkevich with step B/(R sqrt t), D = 2B, G = R: 3 B R sqrt(n)", lambda n: 3 * 2.0 * math.sqrt(n)))


@check("000:table-1/ons")
def table_1_ons(ctx: Context) -> Outcome:
    from algorithms import ONS

    cost = _scan(ctx, "000:table-1/ons", lambda kw: ONS(kw["d"], 1.0, 1.0),
                    [80, 160, 320, 640] if ctx.quick else [160, 320, 640, 1280], "d", {"n": 30}, 3.0)  # d >= 160: the
    # d^2 work shows (slope 1.4 on d = 40 ... 320, 2.3 here)
    return _table(ctx, "000:table-1/ons", lambda: ONS(1, 2.0, 1.0), 2.0, "d e^B log(n)", 0.5, cost,
                  ("Hazan et al. 2007: 5 (1/alpha + G D) d log n, alpha = e^{-BR}, G = R, D = 2B",
                   lambda n: 5 * (math.exp(2.0) + 4.0) * math.log(n)))


@check("000:table-1/foster")
def table_1_foster(ctx: Context) -> Outcome:
    from algorithms import FosterAggregating

    out = _table(ctx, "000:table-1/foster", lambda: FosterAggregating(2.0, 1.0), 2.0, "d log(Bn) (slope -> 0)", 0.35)
    cited = Outcome("inconclusive", "cited", {"reason": "cited result: the complexity B^6 n^12 (Bn+d)^12 is that of "
                                                        "the projected Langevin sampler of [Bubeck et al., 2018]; our "
                                                        "d = 1 implementation uses quadrature, so it cannot be measured"})
    return combine([("regret (measured)", out), ("complexity (cited)", cited)])


# --------------------------------------------------------------------------- Corollary 6
SUPPORT = {"x": [[0.9, 0.3], [-0.5, 0.8], [0.2, -0.95], [-0.6, -0.6]], "y": [1, 1, -1, 1], "p": [0.4, 0.2, 0.3, 0.1]}


def _population(ctx: Context, n: int, draws: int, B: float, rng):
    from algorithms import AIOLI
    from reference.comparator import best_in_ball_fast

    Xs, Ys, P = np.array(SUPPORT["x"]), np.array(SUPPORT["y"]), np.array(SUPPORT["p"])
    best = best_in_ball_fast(-Ys[:, None] * Xs, B, weights=P).value
    excess = []
    for _ in range(draws):
        idx = rng.choice(len(P), size=n, p=P)
        L = AIOLI(2, B, 1.0, 1 / B**2)
        risk = 0.0
        for t in range(n):  # tau uniform: average the population risk of f_t over t, exactly
            preds = np.array([L.predict(x) for x in Xs])
            risk += float(P @ np.logaddexp(0.0, -Ys * preds)) / n
            L.update(Xs[idx[t]], int(Ys[idx[t]]))
        excess.append(risk - best)
    return np.array(excess)


@check("000:corollary-6")
def corollary_6(ctx: Context) -> Outcome:
    rng = _rng(ctx, "000:corollary-6")
    rows, ok = [], True
    for B, n in ([(1.0, 10), (3.0, 20)] if ctx.quick else [(1.0, 10), (1.0, 60), (3.0, 20), (3.0, 60)]):
        ex = _population(ctx, n, 20 if ctx.quick else 120, B, rng)
        d, R = 2, 1.0
        bound = (d * (1 + B * R) * math.log(1 + n * B * B * R * R / (8 * d * (1 + B * R))) + 1) / n
        upper = float(ex.mean() + 3 * ex.std(ddof=1) / math.sqrt(len(ex)))
        ok &= upper <= bound
        rows.append({"B": B, "n": n, "draws": len(ex), "mean_excess_risk": round(float(ex.mean()), 5),
                     "mean_plus_3_se": round(upper, 5), "bound": round(bound, 5)})
    return Outcome("verified" if ok else "inconclusive",
                   "Monte Carlo over D_n, exact population risk of a 4-point law, tau averaged exactly",
                   {"support": SUPPORT, "rows": rows, "lam": "1/B^2", "d": 2, "R": 1,
                    "comparator": "exact population minimiser over the B-ball (reference.comparator.best_in_ball_fast)"})


@check("000:corollary-6/proof")
def corollary_6_proof(ctx: Context) -> Outcome:
    """Exact enumeration of all 2^n samples of a 2-point law: the (*) equalities and the inequality by (4)."""
    import itertools

    from algorithms import AIOLI
    from reference.comparator import best_in_ball_fast

    Xs, Ys, P = np.array([[0.8], [-0.3]]), np.array([1, 1]), np.array([0.7, 0.3])
    B, n = 2.0, 4 if ctx.quick else 8
    theta = best_in_ball_fast(-Ys[:, None] * Xs, B, weights=P).theta
    e_online = e_pop = e_cmp_seq = e_cmp_pop = 0.0
    for seq in itertools.product(range(2), repeat=n):
        w = float(np.prod(P[list(seq)]))
        L = AIOLI(1, B, 1.0, 1 / B**2)
        for j in seq:
            e_pop += w * float(P @ np.logaddexp(0.0, -Ys * np.array([L.predict(x) for x in Xs]))) / n
            e_online += w * float(np.logaddexp(0.0, -Ys[j] * L.predict(Xs[j]))) / n
            e_cmp_seq += w * float(np.logaddexp(0.0, -Ys[j] * (Xs[j] @ theta))) / n
            L.update(Xs[j], int(Ys[j]))
    e_cmp_pop = float(P @ np.logaddexp(0.0, -Ys * (Xs @ theta)))
    Rb = 1 * (1 + B) * math.log(1 + n * B * B / (8 * (1 + B))) + 1
    ev = {"n": n, "samples_enumerated": 2**n, "E[1/n sum l(f_t(X),Y)]": e_pop, "E[1/n sum l(f_t(x_t),y_t)]": e_online,
          "E[1/n sum l(theta x_t, y_t)]": e_cmp_seq, "E[l(theta X, Y)]": e_cmp_pop, "R_n^b / n": Rb / n,
          "reading": "expectations computed exactly (float64) by enumerating every sample; theta = population minimiser"}
    ok = abs(e_pop - e_online) < 1e-12 and abs(e_cmp_seq - e_cmp_pop) < 1e-12 and e_online <= e_cmp_seq + Rb / n
    return Outcome("verified" if ok else "inconclusive", "exact enumeration of D_n (2-point law)", ev)


# --------------------------------------------------------------------------- Figure 1
@check("000:figure-1")
def figure_1(ctx: Context) -> Outcome:
    from algorithms import AIOLI, FTRL, FosterAggregating

    plt = Context.pyplot()
    B, R = 3.0, 1.0
    X = np.array([[1.0], [0.8], [-0.4], [0.9], [-1.0], [0.6]])
    Y = np.array([1, 1, 1, -1, -1, 1])
    learners = {"FTRL (lam = 1)": FTRL(1, 1.0), "AIOLI (lam = 1/B^2)": AIOLI(1, B, R), "Foster et al.": FosterAggregating(B, R)}
    grid = np.linspace(-R, R, 41 if ctx.quick else 201)
    curves, nonlin = {}, {}
    for name, L in learners.items():
        L.run(X, Y)
        f = np.array([L.predict(np.array([x])) for x in grid])
        slope = float(grid @ f / (grid @ grid))
        curves[name] = f
        nonlin[name] = float(np.max(np.abs(f - slope * grid)))
    name = "figure_1_prediction_functions.png"
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for k, f in curves.items():
        ax.plot(grid, f, label=k)
    ax.set_xlabel("next input x"), ax.set_ylabel("prediction y_hat(x)"), ax.legend()
    figure = ctx.save_figure(fig, name, "Prediction functions x -> y_hat(x) after 6 rounds: FTRL "
                                        "is a line through 0 (proper); AIOLI and Foster et al. bend "
                                        "(improper). Look at the curvature of AIOLI near |x| = 1.")
    ok = nonlin["FTRL (lam = 1)"] < 1e-9 and nonlin["AIOLI (lam = 1/B^2)"] > 1e-3
    return Outcome("verified" if ok else "inconclusive", "reproduction on a 6-point 1-D history (settings not printed)",
                   {"history": {"x": X.ravel().tolist(), "y": Y.tolist()}, "B": B, "R": R,
                    "max_deviation_from_best_line_through_0": nonlin,
                    "figures": [figure],
                    "note": "the non-linearity of AIOLI is also certified in ball arithmetic by 000:equation-10"})

"""Seed 003, §5.3 (proof of Theorem 9): the per-round identities/inequalities (12), (16)-(28) and the
partial sums of §5.3.1-§5.3.2, evaluated along runs of Algorithm 1 (``algorithms.FTRLSurrogate1D``,
eta = T^{-1/3}) on random, structured and adversarial sequences x_t in [-1, 1]; Corollary 10 by Monte Carlo.

Reading of §5.3.1 (documented in every evidence): y_t = g_t x_t; a round is "linear on w >= 0" (y^l) when
Eq. (4)'s first case applies (w_t >= 0, x_t >= 1/D, first matching case in printed order, as in the
implementation), otherwise "quadratic on w >= 0" (y^q); what_t = 0 in case 2, w_t otherwise (Eq. (14)).
S_t = sum_{tau<t} (y^q_tau)^2 + 1/eta, N_t = sum_{tau<t} y_tau - beta sum_{tau<t} (y^q_tau)^2 what_tau, so
u_t = -N_t/(beta S_t) when u_t >= 0 (Eq. (15)). The positive side is evaluated; the mirrored side is
covered because every sequence family is also run negated (x -> -x mirrors the whole run, w -> -w).
A violation is re-computed at 50 digits by re-running the sequence in mpmath
(``olr_verify.hunting.highprec_learners.Ftrl003``) before it is reported as refuted.
"""
from __future__ import annotations

import math
import time
from typing import Any

from olr_verify.artefacts import replayer
from olr_verify.outcome import Context, Outcome

READING = ("positive side of §5.3.1 (u_t, u_{t+1} >= 0), linear = Eq. (4) case 1 (first matching case), "
           "what of Eq. (14), eta = T^{-1/3}; negated sequences cover the mirrored side; y^q_t = y_t off case 1 "
           "is the corrected reading 003:equation-15/corrected (the printed y^q_t is 2 y_t when w_t = 0, "
           "x_t <= -1/D: 003:equation-15 is refuted)")


# --------------------------------------------------------------------------- runs
def _float_run(xs: list[float], D: float) -> tuple[list, list]:
    from algorithms import FTRLSurrogate1D

    L = FTRLSurrogate1D(D, T=len(xs))
    ws, us = [0.0], [0.0]
    for x in xs:
        L.update_instance(x)
        st = L.state()
        ws.append(st["w"])
        us.append(st["u"])
    return ws, us


def _mp_run(xs: list[str], D: str, dps: int = 50):
    import mpmath

    from olr_verify.hunting.highprec_learners import Ftrl003
    from olr_verify.hunting.numerics import MP

    with mpmath.workdps(dps):
        T = len(xs)
        L = Ftrl003(MP.num(D), MP.num(T) ** (-MP.num(1) / 3), K=MP)
        ws, us = [], []
        for x in xs:
            ws.append(L.weight())
            us.append(L.unconstrained_argmin())
            L.update(MP.num(x))
        ws.append(L.weight())
        us.append(L.unconstrained_argmin())
    return ws, us


def rounds(xs, ws, us, D, sig=None) -> list[dict]:
    """Per-round records (works for floats and mpmath numbers)."""
    sig = sig or (lambda z: 0.5 * (1.0 + math.tanh(0.5 * z)))
    T = len(xs)
    beta = 1 / (8 * D)
    S = T ** (1 / 3) if isinstance(D, float) else _mp_cbrt(T)
    N = 0 * D
    n_plus = 0
    out = []
    for t, x in enumerate(xs):
        w = ws[t]
        y = sig(x * w) * x
        linear = (w >= 0) and (x >= 1 / D)
        case2 = (not linear) and (w <= 0) and (x <= -1 / D)
        what = 0 * D if case2 else w
        yq = 0 * D if linear else y
        rec = {"t": t + 1, "x": x, "w": w, "w1": ws[t + 1], "u": us[t], "u1": us[t + 1], "y": y, "linear": linear,
               "yq": yq, "what": what, "S": S, "S1": S + yq * yq, "N": N, "n_plus_prev": n_plus, "beta": beta}
        out.append(rec)
        S = S + yq * yq
        N = N + y - beta * yq * yq * what
        n_plus += 1 if linear else 0
    return out


def _mp_cbrt(T):
    import mpmath

    return mpmath.mpf(T) ** (mpmath.mpf(1) / 3)


# --------------------------------------------------------------------------- sequence families
def sequences(ctx: Context) -> list[tuple[str, float, list[float]]]:
    """(name, D, xs): random, structured and adversarial (greedy against the claimed quantities) sequences."""
    import numpy as np

    rng = np.random.default_rng(ctx.seed)
    Ts = (30, 200) if ctx.quick else (30, 200, 1000)
    Ds = (2.0, 5.0) if ctx.quick else (2.0, 3.0, 8.0, 20.0)
    out = []
    for D in Ds:
        for T in Ts:
            out.append((f"uniform D={D} T={T}", D, list(rng.uniform(-1, 1, T))))
            out.append((f"signs D={D} T={T}", D, list(rng.choice([-1.0, 1.0], T))))
            out.append((f"threshold D={D} T={T}", D, list(rng.choice([1 / D, -1 / D, 1.0, -1.0], T))))
            k = max(1, T // 3)
            out.append((f"blocks D={D} T={T}", D, [-1.0] * k + [1.0] * (T - k)))
            out.append((f"alternate D={D} T={T}", D, [(-1.0) ** i for i in range(T)]))
            p = 0.5 + 0.4 * rng.random()
            out.append((f"biased D={D} T={T}", D, list(np.where(rng.random(T) < p, 1.0, -rng.uniform(0, 1, T)))))
            out.append((f"adversary D={D} T={T}", D, _adversary(D, T, rng)))
    return out + [(n.replace(" ", " neg ", 1), D, [-x for x in xs]) for n, D, xs in out]


def _adversary(D: float, T: int, rng) -> list[float]:
    """Greedy: each round picks, among candidate instances, the one maximising |y_t (u_t - u_{t+1})|."""
    from algorithms import FTRLSurrogate1D

    L = FTRLSurrogate1D(D, T=T)
    cands = [-1.0, -0.5, -1 / D, 1 / D, 0.5, 1.0]
    xs = []
    for _ in range(T):
        best, bx = -1.0, 1.0
        st = L.state()
        for c in cands + [float(rng.uniform(-1, 1))]:
            Lc = FTRLSurrogate1D(D, T=T)
            Lc.__dict__.update(L.__dict__)
            Lc.update_instance(c)
            y = 0.5 * (1 + math.tanh(0.5 * c * st["w"])) * c
            val = abs(y * (st["u"] - Lc.state()["u"]))
            if val > best:
                best, bx = val, c
        xs.append(bx)
        L.update_instance(bx)
    return xs


# --------------------------------------------------------------------------- relations
def _same_pos(r):
    return r["u"] >= 0 and r["u1"] >= 0


def rel_12(r):
    a = r["y"] * (r["w"] - r["w1"])
    b = abs(r["y"]) * abs(r["w"] - r["w1"])
    c = abs(r["y"]) * abs(r["u"] - r["u1"])
    return [(a, b), (b, c)]


def rel_16_corrected(r):
    if r["linear"] or not _same_pos(r) or not (r["u"] > 0 and r["u1"] > 0):
        return []
    b = r["beta"]
    rhs = (r["yq"] + b * r["yq"] ** 2 * (r["u"] - r["w"])) / (b * r["S1"])
    d = r["u"] - r["u1"]
    return [(abs(d - rhs), 1e-9 * (1 + abs(d)))]


def rel_17(r):
    if r["u"] >= r["D"] and r["u1"] >= r["D"]:
        return [(abs(r["w"] - r["D"]) + abs(r["w1"] - r["D"]), 0 * r["D"])]
    return []


def rel_18(r):
    if r["linear"] or not _same_pos(r) or (r["u"] >= r["D"] and r["u1"] >= r["D"]):
        return []
    b = r["beta"]
    a = abs(r["yq"] * (r["w"] - r["w1"]))
    m = abs(r["yq"] * (r["u"] - r["u1"]))
    return [(a, m), (m, 2 / b * r["yq"] ** 2 / r["S1"])]


def rel_18_aux(r):
    if r["linear"] or not _same_pos(r):
        return []
    D = r["D"]
    out = [(abs(r["u"] - r["u1"]), 4 * D)]
    if r["u"] < D or r["u1"] < D:
        out += [(abs(r["u"]), 5 * D), (abs(1 + r["beta"] * r["yq"] * (r["u"] - r["w"])), 2 + 0 * D)]
    return out


def rel_20(r):
    if not r["linear"] or not (r["u"] > 0 and r["u1"] > 0):
        return []
    rhs = r["y"] / (r["beta"] * r["S"])
    d = r["u"] - r["u1"]
    return [(abs(d - rhs), 1e-9 * (1 + abs(d)))]


def rel_21(r):
    if not r["linear"] or not _same_pos(r):
        return []
    return [(r["y"] * (r["w"] - r["w1"]), r["y"] ** 2 / (r["beta"] * r["S"]))]


def rel_23(r):
    if not r["u"] > 0:
        return []
    return [(r["N"], 0 * r["D"])]


def _prefix_relations(recs, which):
    out = []
    pos = neg = qabs = q2 = lsum = bterm = 0.0
    D = recs[0]["D"]
    for r in recs:
        t1 = r["t"] - 1
        n = r["n_plus_prev"]
        lhs23 = neg + bterm
        if which == "24":
            out.append((r, [(lsum, pos), (n / (2 * D), lsum)]))
        elif which == "25" and r["u"] > 0:
            out.append((r, [(lhs23, qabs * 9 / 8), (qabs * 9 / 8, 9 / 8 * math.sqrt(t1 * q2) + 1e-12)]))
        elif which == "26" and r["u"] > 0 and t1 > 0:
            T = len(recs)
            out.append((r, [(n * n / (10 * D * D * t1), q2), (n * n / (10 * D * D * T), n * n / (10 * D * D * t1))]))
        y, yq = r["y"], r["yq"]
        pos += y if y >= 0 else 0.0
        neg += -y if y < 0 else 0.0
        qabs += abs(yq)
        q2 += yq * yq
        lsum += y if r["linear"] else 0.0
        bterm += r["beta"] * yq * yq * r["what"]
    return out


def rel_28(r):
    if not (r["u"] >= 0 > r["u1"]):
        return []
    b, y, yq, N = r["beta"], r["y"], r["yq"], r["N"]
    last = y - b * yq * yq * r["what"]
    return [(N, 0 * y), (0 * y, N + last), (abs(N), last), (last, y), (r["u"], y / (b * r["S"])),
            (y * r["u"], y * y / (b * r["S"]))]


REL = {"12": rel_12, "16c": rel_16_corrected, "17": rel_17, "18": rel_18, "18aux": rel_18_aux, "20": rel_20,
       "21": rel_21, "23": rel_23, "28": rel_28}


def _bound(D, T):
    return 16 * D * math.log(T + 1) + 8 * D * T ** (1 / 3) + 160 * D ** 3 * T ** (1 / 3)


def partial_sums(recs, D) -> dict:
    T = len(recs)
    same = [r for r in recs if r["u"] * r["u1"] >= 0]
    opp = [r for r in recs if r["u"] * r["u1"] < 0]
    quad = [r for r in recs if not r["linear"] and _same_pos(r)]
    lin = [r for r in recs if r["linear"] and _same_pos(r)]
    n_plus_T = sum(1 for r in recs if r["linear"])
    out = {
        "19": (sum(2 / r["beta"] * r["yq"] ** 2 / r["S1"] for r in quad), 16 * D * math.log(T + 1)),
        "same": (sum(abs(r["y"] * (r["w"] - r["w1"])) for r in same), _bound(D, T)),
        "opp_u": (sum(r["y"] * r["u"] for r in opp), _bound(D, T)),
        "opp_u1": (-_bound(D, T), sum(r["y"] * r["u1"] for r in opp)),
        "opp_diff": (sum(r["y"] * (r["u"] - r["u1"]) for r in opp), 2 * _bound(D, T)),
    }
    if n_plus_T <= T ** (2 / 3):
        mid = sum(r["y"] ** 2 / (r["beta"] * r["S"]) for r in lin)
        out["22"] = (sum(r["y"] * (r["w"] - r["w1"]) for r in lin), 8 * D * T ** (1 / 3))
        out["22mid"] = (mid, 8 * D * T ** (-1 / 3) * n_plus_T)
    else:
        n0 = math.ceil(T ** (2 / 3))
        late = [r for r in lin if r["n_plus_prev"] >= n0]
        a = sum(r["y"] * (r["w"] - r["w1"]) for r in late)
        b = sum(r["y"] ** 2 / (r["beta"] * r["S"]) for r in late)
        c = 80 * D ** 3 * T * sum(1 / r["n_plus_prev"] ** 2 for r in late)
        out["27"] = (a, b)
        out["27b"] = (b, c)
        out["27c"] = (c, 160 * D ** 3 * T ** (1 / 3))
    return out


# --------------------------------------------------------------------------- harness
_CACHE: dict = {}


def _all_runs(ctx: Context):
    key = (ctx.quick, ctx.seed)
    if key not in _CACHE:
        runs = []
        for name, D, xs in sequences(ctx):
            ws, us = _float_run(xs, D)
            recs = rounds(xs, ws, us, D)
            for r in recs:
                r["D"] = D
            runs.append((name, D, xs, recs))
        _CACHE[key] = runs
    return _CACHE[key]


def _ratio(a, b):
    a, b = float(a), float(b)
    if b > 0:
        return a / b
    return math.inf if a > b + 1e-12 else (1.0 if a == b else 0.0)


def _decide(ctx, claim, evaluate, *, rel_key=None, extra=None, slack=1e-9):
    t0 = time.perf_counter()
    worst, where, checked, seqs, nan = 0.0, None, 0, 0, 0
    for name, D, xs, recs in _all_runs(ctx):
        seqs += 1
        for tag, pairs in evaluate(recs, D):
            for k, (a, b) in enumerate(pairs):
                checked += 1
                gap = float(a) - float(b)
                if math.isnan(gap):  # a NaN side, or inf against inf: the float evaluation says nothing here
                    nan += 1
                    continue
                r = _ratio(a, b)
                if math.isfinite(r):
                    worst = max(worst, r)
                if where is None or gap > where[3]:
                    where = (name, tag, k, gap, float(a), float(b), D, xs)
    ev = {"reading": READING, "sequences": seqs, "relations_evaluated": checked, "not_a_number": nan,
          "max_lhs_over_rhs": worst, "seconds": round(time.perf_counter() - t0, 3)}
    if extra:
        ev.update(extra)
    if where is None:
        return Outcome("inconclusive", "no round of the runs fell in the claim's regime" if checked == 0 else
                       "every evaluation gave NaN", ev)
    name, tag, k, gap, a, b, D, xs = where
    ev["worst"] = {"sequence": name, "where": str(tag), "link": k, "lhs": a, "rhs": b}
    if gap > slack * (1 + abs(a) + abs(b)):
        art = _artefact(claim, rel_key, name, tag, k, D, xs)
        ok, det = replay_seq003(art)
        ev["confirmation_50_digits"] = det
        if ok:
            return Outcome("refuted", "violation on a run of Algorithm 1, re-computed at 50 digits", ev, art)
        return Outcome("inconclusive", "float violation not confirmed at 50 digits", ev)
    if nan:
        return Outcome("inconclusive", f"{nan} of {checked} relation instances gave NaN: a violation there is "
                                       "neither seen nor dismissed", ev)
    return Outcome("verified", f"{checked} relation instances along {seqs} runs (floats; not a proof)", ev)


def _artefact(claim, rel_key, name, tag, k, D, xs):
    return {"claim": claim, "replay": {"type": "seq003_round", "relation": rel_key, "sequence": name,
                                       "where": str(tag), "link": k, "D": repr(float(D)), "xs": [repr(float(x)) for x in xs]}}


def _evaluate_at(rel_key, recs, D):
    if rel_key in REL:
        return [(r["t"], REL[rel_key](r)) for r in recs]
    if rel_key in ("24", "25", "26"):
        return [(r["t"], p) for r, p in _prefix_relations(recs, rel_key)]
    ps = partial_sums(recs, D)
    return [(rel_key, [ps[rel_key]])] if rel_key in ps else []


@replayer("seq003_round")
def replay_seq003(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Re-run the stored sequence in mpmath (50 digits) and re-evaluate the stored relation link."""
    import mpmath

    rep = artefact["replay"]
    with mpmath.workdps(50):
        xs = [mpmath.mpf(x) for x in rep["xs"]]
        D = mpmath.mpf(rep["D"])
        ws, us = _mp_run([str(x) for x in rep["xs"]], rep["D"])
        recs = rounds(xs, ws, us, D, sig=lambda z: 1 / (1 + mpmath.exp(-z)))
        for r in recs:
            r["D"] = D
        items = _evaluate_at(rep["relation"], recs, D)
        for tag, pairs in items:
            if str(tag) == rep["where"] and len(pairs) > rep["link"]:
                a, b = pairs[rep["link"]]
                gap = a - b
                return bool(gap > mpmath.mpf(10) ** -30 * (1 + abs(a) + abs(b))), {
                    "lhs": mpmath.nstr(a, 30), "rhs": mpmath.nstr(b, 30), "gap": mpmath.nstr(gap, 20)}
    return False, {"reason": "relation instance not found in the 50-digit run"}


def _decide_key(ctx, claim, rel_key, extra=None):
    return _decide(ctx, claim, lambda recs, D: _evaluate_at(rel_key, recs, D), rel_key=rel_key, extra=extra)

"""Seed 003: the closed form of F_t and u_t on w >= 0 (§5.3.1, Eq. (14)-(15)) under the corrected reading of y^q
(003:equation-15/corrected). The printed Eq. (15) (003:equation-15) and the slope bound after Eq. (4) (003:claim-7)
are decided as data in paper.toml.

Loss l(w, x) = log(1 + e^{xw}); y_t = sigma(x_t w_t) x_t; beta = 1/(8D); R(w) = (beta/2) w^2 (Algorithm 1).

Eq. (15) as printed uses y^q_t = y_t 1{|x_t| <= 1/D or x_t w_t <= 0} + y_t 1{w_t <= 0, x_t <= -1/D} (§2.7 of
the transcription). When w_t = 0 and x_t <= -1/D both indicators are 1, so y^q_t = 2 y_t and the quadratic
term of that round is counted four times over. The corrected reading takes y^q_t = y_t unless Eq. (4)'s first
case applies. The true F_t is built here from Eq. (4) itself (each l~_tau evaluated as printed, the a0 constants
dropped) and its argmin over w >= 0 is read off the quadratic through three of its values (exact arithmetic).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from olr_verify.artefacts import replayer
from olr_verify.checks.verdicts import worse
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check

EQ15_TOLERANCE = "1e-30"  # a mismatch must exceed this times (1 + |u_printed| + |u_true|) at 60 digits


# --------------------------------------------------------------------------- Eq. (4), (14), (15)
def _case(x, w, D) -> int:
    """Eq. (4)'s case of a round, first matching case in printed order (as algorithms.FTRLSurrogate1D)."""
    if w >= 0 and x >= 1 / D:
        return 1
    if w <= 0 and x <= -1 / D:
        return 2
    return 3


def _surrogate(v, x, w, y, D):
    """l~_t(v) - a0 by Eq. (4), first matching case."""
    beta = 1 / (8 * D)
    case = _case(x, w, D)
    if case == 1:
        return y * v + (beta / 2 * y * y * v * v if v <= 0 else 0 * v)
    if case == 2:
        return y * v + (beta / 2 * y * y * v * v if v >= 0 else 0 * v)
    return y * v + beta / 2 * y * y * (v - w) * (v - w)


def _yq_printed(x, w, y, D):
    """y^q_t as printed in §5.3.1: the sum of two indicator terms."""
    first = 1 if (abs(x) <= 1 / D or x * w <= 0) else 0
    second = 1 if (w <= 0 and x <= -1 / D) else 0
    return y * first + y * second


def _yq_first_case(x, w, y, D):
    """y^q_t under the corrected reading: y_t unless Eq. (4)'s first case (linear on w >= 0) applies."""
    return 0 * y if _case(x, w, D) == 1 else y


def _what(x, w, D):
    """Eq. (14)."""
    return 0 * w if (w <= 0 and x <= -1 / D) else w


def closed_form(hist, D, etainv, yq):
    """(a, b, u): F_t(w) = a w^2 + b w + const on w >= 0 with the printed form of F_t, and u_t of Eq. (15),
    for the past rounds ``hist`` = [(x, w, y), ...] and the y^q rule ``yq``."""
    beta = 1 / (8 * D)
    s_y = sum((y for _, _, y in hist), 0 * D)
    s_q = sum((yq(x, w, y, D) ** 2 for x, w, y in hist), 0 * D)
    s_qw = sum((yq(x, w, y, D) ** 2 * _what(x, w, D) for x, w, y in hist), 0 * D)
    a = beta / 2 * (s_q + etainv)
    b = s_y - beta * s_qw
    u = -(s_y - beta * s_qw) / (beta * (s_q + etainv))
    return a, b, u


def true_objective(hist, D, etainv):
    """(a, b, argmin over w >= 0) of sum_tau l~_tau(w) + eta^{-1} R(w) on w > 0, from three values of Eq. (4)."""
    beta = 1 / (8 * D)

    def F(v):
        return sum((_surrogate(v, x, w, y, D) for x, w, y in hist), 0 * D) + etainv * beta / 2 * v * v

    f1, f2, f3 = F(1 + 0 * D), F(2 + 0 * D), F(3 + 0 * D)
    a = (f3 - 2 * f2 + f1) / 2
    b = f2 - f1 - 3 * a
    return a, b, worse(0 * D, -b / (2 * a))  # a NaN argmin stays NaN


def _history(xs, ws, D, exact: bool):
    """[(x, w, y)] with y = sigma(x w) x: exact when every x w = 0 (sigma(0) = 1/2), else 60-digit mpmath."""
    if exact:
        return [(x, w, x / 2) for x, w in zip(xs, ws)], D
    import mpmath

    mp = [(mpmath.mpf(x.numerator) / x.denominator, mpmath.mpf(w.numerator) / w.denominator) for x, w in zip(xs, ws)]
    return [(x, w, x / (1 + mpmath.exp(-x * w))) for x, w in mp], mpmath.mpf(D.numerator) / D.denominator


def compare(xs, ws, D, etainv, yq) -> dict[str, Any]:
    """The printed-form coefficients and u_t of (15) vs the true objective, for one history."""
    import mpmath

    exact = all(x * w == 0 for x, w in zip(xs, ws))
    with mpmath.workdps(60):
        hist, Dk = _history(xs, ws, D, exact)
        e = etainv if exact else mpmath.mpf(etainv.numerator) / etainv.denominator
        a, b, u = closed_form(hist, Dk, e, yq)
        ta, tb, tu = true_objective(hist, Dk, e)
        tol = 0 if exact else mpmath.mpf(EQ15_TOLERANCE)  # exact histories: any difference counts
        form_gap = worse(abs(a - ta), abs(b - tb))
        u_gap = abs(u - tu)
        shown = (lambda z: str(z)) if exact else (lambda z: mpmath.nstr(z, 30))
        return {"exact": exact, "u_15": shown(u), "argmin_w>=0": shown(tu), "in_domain_u>=0": bool(u >= 0),
                "form_differs": bool(form_gap > tol * (1 + abs(a) + abs(ta))),
                "u_differs": bool(u >= 0 and u_gap > tol * (1 + abs(u) + abs(tu))),
                "not_a_number": bool(form_gap != form_gap or u_gap != u_gap)}  # neither differs nor agrees


# --------------------------------------------------------------------------- histories
def _round_2_cases() -> list[tuple[list[Fraction], list[Fraction], Fraction, Fraction]]:
    """Round 2 of Algorithm 1 (w_1 = 0) with x_1 <= -1/D: (xs, ws, D, eta^{-1}), all exact."""
    out = []
    for D in (Fraction(2), Fraction(3), Fraction(5)):
        for etainv in (Fraction(1), Fraction(2), Fraction(10)):
            for x1 in (Fraction(-1), -1 / D, (-1 - 1 / D) / 2):
                out.append(([x1], [Fraction(0)], D, etainv))
    return out


def _random_histories(ctx: Context) -> list[tuple[list[Fraction], list[Fraction], Fraction, Fraction]]:
    """Seeded histories: w_1 = 0 (Algorithm 1), later w_tau rational in [-D, D] (one in five exactly 0),
    x_tau rational in [-1, 1] with the thresholds +-1/D and +-1 over-represented."""
    import numpy as np

    rng = np.random.default_rng(ctx.seed)
    out = []
    for k in range(20 if ctx.quick else 80):
        D = Fraction(int(rng.choice([2, 3, 5, 8])))
        etainv = Fraction(int(rng.integers(1, 11)))
        T = int(rng.integers(1, 9))
        xs, ws = [], []
        for t in range(T):
            pick = rng.random()
            x = (Fraction(int(rng.choice([-1, 1]))) * (1 / D if pick < 0.3 else 1) if pick < 0.6
                 else Fraction(int(rng.integers(-1000, 1001)), 1000))
            w = Fraction(0) if (t == 0 or rng.random() < 0.2) else Fraction(int(rng.integers(-1000, 1001)), 1000) * D
            xs.append(x)
            ws.append(w)
        out.append((xs, ws, D, etainv))
    return out


def _artefact(claim: str, xs, ws, D, etainv, yq_rule: str) -> dict[str, Any]:
    return {"claim": claim, "replay": {"type": "eq15_closed_form", "yq": yq_rule, "D": str(D), "etainv": str(etainv),
                                       "xs": [str(x) for x in xs], "ws": [str(w) for w in ws]}}


def _rational(text: Any, name: str) -> Fraction:
    if not isinstance(text, str) or len(text) > 60:
        raise ValueError(f"replay.{name} must be an exact rational as a short string")
    return Fraction(text)


@replayer("eq15_closed_form")
def replay_eq15(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Rebuild F_t from Eq. (4) and u_t from (15) for the stored history (exact, or 60 digits) and confirm that
    (15) with the stored y^q rule differs from the argmin over w >= 0 while (15) is >= 0. Only the rule of the
    check in this module (003:equation-15/corrected) is accepted: the printed Eq. (15) is decided in paper.toml."""
    rep = artefact["replay"]
    rules = {"first-case": _yq_first_case}
    if rep.get("yq") not in rules:
        return False, {"reason": f"replay.yq must be one of {sorted(rules)}"}
    D, etainv = _rational(rep.get("D"), "D"), _rational(rep.get("etainv"), "etainv")
    xs = [_rational(x, "xs") for x in rep.get("xs", [])]
    ws = [_rational(w, "ws") for w in rep.get("ws", [])]
    if not (D > 0 and etainv > 0 and xs and len(xs) == len(ws) and len(xs) <= 1000
            and all(abs(x) <= 1 for x in xs) and all(abs(w) <= D for w in ws)):
        return False, {"reason": "need D > 0, eta^{-1} > 0, |x_tau| <= 1, |w_tau| <= D, len(xs) == len(ws) <= 1000"}
    res = compare(xs, ws, D, etainv, rules[rep["yq"]])
    return bool(res["u_differs"]), {**res, "tolerance": f"{EQ15_TOLERANCE} * (1 + |u_15| + |argmin|)"}


def _decide_15(ctx: Context, claim: str, yq, yq_rule: str) -> tuple[list, dict[str, Any]]:
    """Every history compared; returns (the mismatching histories, evidence)."""
    bad, n_exact, n_mp, in_domain, n_nan = [], 0, 0, 0, 0
    for xs, ws, D, etainv in _round_2_cases() + _random_histories(ctx):
        res = compare(xs, ws, D, etainv, yq)
        n_exact += res["exact"]
        n_mp += not res["exact"]
        in_domain += res["in_domain_u>=0"]
        n_nan += res["not_a_number"]
        if res["u_differs"] or (res["form_differs"] and res["in_domain_u>=0"]):
            bad.append(((xs, ws, D, etainv), res))
    ev = {"histories": {"exact (every x_tau w_tau = 0, Fractions)": n_exact, "60-digit mpmath": n_mp,
                        "with u_t of (15) >= 0": in_domain},
          "y^q": yq_rule, "true objective": "sum of l~_tau of Eq. (4) (first matching case; a0 dropped) + "
                                            "eta^{-1} beta w^2/2, quadratic on w > 0 read off three exact values",
          "mismatches": len(bad), "not_a_number": n_nan}
    return bad, ev


@check("003:equation-15/corrected")
def equation_15_corrected(ctx: Context) -> Outcome:
    """Eq. (15) with y^q_t = y_t unless Eq. (4)'s first case applies (first matching case), which the runs of
    Algorithm 1 in theorem9_rounds.py use."""
    bad, ev = _decide_15(ctx, "003:equation-15/corrected", _yq_first_case, "first matching case of Eq. (4)")
    if bad:
        (xs, ws, D, etainv), res = bad[0]
        art = _artefact("003:equation-15/corrected", xs, ws, D, etainv, "first-case")
        ok, det = replay_eq15(art)
        ev.update({"counterexample": res, "replay_check": det})
        if ok:
            return Outcome("refuted", "corrected (15) vs the argmin over w >= 0 (exact / 60 digits)", ev, art)
        return Outcome("inconclusive", "a mismatch was not confirmed by its replay", ev)
    if ev["not_a_number"]:
        return Outcome("inconclusive", f"{ev['not_a_number']} histories gave NaN: neither a match nor a mismatch", ev)
    ev["not_a_proof"] = "finitely many histories; the per-case algebra is not certified by the kernel"
    return Outcome("verified", "corrected (15) equals the argmin over w >= 0 on every history (exact / 60 digits)", ev)

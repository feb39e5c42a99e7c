"""Seed 000 (AIOLI): exact and ball-arithmetic checks of Lemma 2's proof, eq. (5), eq. (10), the
step "theta_{t+1} = A_t^{-1} b_t" of Theorem 7 and the argmin step of Lemma 8 (the mixability fact,
000:claim-10/a, is declared in paper.toml).

The ball-arithmetic checks use the smallest exact AIOLI state: d = 1 after one round.  With
b_0 = 0 the first estimate is theta_hat_1 = 0 exactly (the root of z + (q/2) tanh(z/2) = 0), so
y_hat_1 = 0, g_1 = -y_1 x_1 / 2, eta_1 = 1/(1+BR) and, by eq. (5),

    A_1 = lam + x_1^2 / (8 (1+BR)),      b_1 = y_1 x_1 / 4          (exact rationals).

At round 2 the objective (3) has derivative 2 A_1 theta - 2 b_1 + x tanh(theta x / 2) (the two
logistic terms contribute -sigma(-z) + sigma(z) = tanh(z/2)); its unique root theta_hat_2(x) is
enclosed by bisection in arb balls (python-flint), every sign decided rigorously.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from olr_verify.artefacts import replayer
from olr_verify.checks.scalar_common import combine, identity, inequality
from olr_verify.checks.verdicts import worse
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check

PREC = 240  # bits, ~72 digits
DATA = {"lam": "1", "B": "1", "R": "1", "x1": "1", "y1": "1", "x2": "1", "y2": "1"}


# --------------------------------------------------------------------------- arb helpers
def _arb(v: str):
    from flint import arb, fmpq

    f = Fraction(v)
    return arb(fmpq(f.numerator, f.denominator))


def state_after_one_round(data: dict[str, str]):
    """(A_1, b_1) as arb balls (exact rationals) from the artefact data."""
    lam, B, R, x1, y1 = (_arb(data[k]) for k in ("lam", "B", "R", "x1", "y1"))
    return lam + x1 * x1 / (8 * (1 + B * R)), y1 * x1 / 4


def enclose_root(F, lo, hi, steps: int = 200):
    """A ball containing the unique root of the increasing F on [lo, hi] (F(lo) < 0 < F(hi) certified)."""
    from flint import arb

    if not (F(lo) < 0 and F(hi) > 0):
        raise ValueError("root not bracketed (signs undecided in ball arithmetic)")
    for _ in range(steps):
        mid = (lo + hi) / 2
        mid = arb(mid.mid())
        v = F(mid)
        if v.is_exact() and v.is_zero():
            return mid
        if v < 0:
            lo = mid
        elif v > 0:
            hi = mid
        else:  # sign undecided: the bracket is as tight as the precision allows
            break
    return arb((lo + hi) / 2).union(lo).union(hi)


def theta_hat_2(data: dict[str, str], x: Any = None, printed_step_1: bool = False):
    """theta_hat_2(x) (root of 2A_1 t - 2b_1 + x tanh(t x / 2)), or with printed_step_1 the minimiser of
    L_1(t) + log(1+e^{-theta_2 x}) + log(1+e^{t x}) (derivative 2A_1 t - 2b_1 + x sigma(t x))."""
    from flint import arb, ctx

    ctx.prec = PREC
    A, b = state_after_one_round(data)
    x = _arb(data["x2"]) if x is None else x
    if printed_step_1:
        def F(t):
            return 2 * A * t - 2 * b + x / (1 + (-t * x).exp())
    else:
        def F(t):
            return 2 * A * t - 2 * b + x * (t * x / 2).tanh()
    span = (abs(x) + 2 * abs(b) + 1) / (2 * A)
    return enclose_root(F, arb(-span.upper()), arb(span.upper())), A, b


# --------------------------------------------------------------------------- replayer
@replayer("coverage000-d1-arb")
def replay_d1(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Recompute the d = 1, t = 2 quantities of the artefact in arb balls; confirmed if the ball of the
    named gap excludes 0."""
    rep = artefact["replay"]
    gap = _GAPS[rep["relation"]](rep["data"])
    return bool(gap > 0 or gap < 0), {"gap_ball": gap.str(20, radius=True)}


def _gap_step_1(data):
    th, A, b = theta_hat_2(data)
    th_p, _, _ = theta_hat_2(data, printed_step_1=True)
    return th - th_p


def _gap_step_2(data):
    """L_2^T theta_hat_2 - r_2 with r_2 = L_1^T theta_hat_2 (d = 1: L = sqrt(A))."""
    th, A1, _ = theta_hat_2(data)
    x, y, B, R = (_arb(data[k]) for k in ("x2", "y2", "B", "R"))
    m = y * th * x
    g = -y * x / (1 + m.exp())
    A2 = A1 + m.exp() / (1 + B * R) / 2 * g * g
    return (A2.sqrt() - A1.sqrt()) * th


def _gap_nonlinear(data):
    """f(2x) - 2 f(x) for the prediction f(x) = theta_hat_2(x) x (eq. (10))."""
    x = _arb(data["x2"])
    f1 = theta_hat_2(data, x)[0] * x
    f2 = theta_hat_2(data, 2 * x)[0] * (2 * x)
    return f2 - 2 * f1


_GAPS = {"lemma-2/step-1": _gap_step_1, "lemma-2/step-2": _gap_step_2, "equation-10": _gap_nonlinear}


def _refute_d1(relation: str, what: str, ctx: Context) -> Outcome:
    gap = _GAPS[relation](DATA)
    ev = {"instance": {**DATA, "t": 2, "d": 1}, "gap_ball": gap.str(20, radius=True), "what": what,
          "arithmetic": f"arb balls, {PREC} bits (python-flint)"}
    if gap > 0 or gap < 0:
        art = {"replay": {"type": "coverage000-d1-arb", "relation": relation, "data": DATA}}
        return Outcome("refuted", "ball-arithmetic counterexample (d = 1, t = 2, exact data)", ev, art)
    return Outcome("inconclusive", "gap ball contains 0", ev)


# --------------------------------------------------------------------------- Lemma 2 steps 1, 2
@check("000:lemma-2/step-1")
def lemma_2_step_1(ctx: Context) -> Outcome:
    """As printed the first display carries log(1+e^{-theta_t^T x_t}), a constant in theta."""
    return _refute_d1("lemma-2/step-1", "theta_hat_2 (minimiser of (3)) minus the minimiser of the printed first "
                      "display L_1(theta) + log(1+e^{-theta_2 x_2}) + log(1+e^{theta x_2}); theta_t = A_{t-1}^{-1}"
                      "b_{t-1} is a fixed vector, so the printed display drops the -y loss term", ctx)


@check("000:lemma-2/step-2")
def lemma_2_step_2(ctx: Context) -> Outcome:
    return _refute_d1("lemma-2/step-2", "L_t^T theta_hat_t - r_t with r_t = L_{t-1}^T theta_hat_t (the printed "
                      "'in particular r_t = L_t^T theta_hat_t'; d = 1, L = sqrt(A))", ctx)


# --------------------------------------------------------------------------- eq. (10)
@check("000:equation-10")
def equation_10(ctx: Context) -> Outcome:
    """f_t(x) = theta_hat_t(x)^T x is not linear: f(2x) != 2 f(x), certified in arb balls (d = 1, t = 2)."""
    gap = _gap_nonlinear(DATA)
    ev = {"instance": {**DATA, "t": 2, "d": 1}, "f(2x) - 2 f(x) at x = x2": gap.str(20, radius=True),
          "arithmetic": f"arb balls, {PREC} bits",
          "reading": "the claim 'bar f_n(x) != theta_hat_t^T x is a non-linear function of x' is an existence "
                     "statement: one certified pair (x, 2x) with f(2x) != 2 f(x) proves it; "
                     "f(x) = theta_hat_2(x) x with theta_hat_2(x) the minimiser of (3) for input x"}
    if gap > 0 or gap < 0:
        return Outcome("proved", "ball-arithmetic witness of non-linearity", ev)
    return Outcome("inconclusive", "gap ball contains 0", ev)


# --------------------------------------------------------------------------- Lemma 8 argmin
@check("000:lemma-8/argmin")
def lemma_8_argmin(ctx: Context) -> Outcome:
    """b -> h(a,b) is convex (eq. (27): positive combination of phi(a-b), phi(b-a), phi(x) = (e^x-1)/x =
    int_0^1 e^{sx} ds); for a > 0, d/db h(a,0) <= 0 and lim_{b->a} d/db h(a,b) = tanh(a/2)/2 >= 0; so an
    argmin lies in [0, a]; a < 0 by h(a,b) = h(-a,-b)."""
    import mpmath as mp
    import sympy as sp

    a, b = sp.symbols("a b", real=True)
    h = (sp.exp(a - b) - 1) / (a - b) * (1 + sp.exp(b)) / (1 + sp.exp(a))
    d0 = sp.diff(h, b).subs(b, 0)
    links = [("d/db h(a,0) == ((2-a)e^a - (a+2)) / (a^2 (1+e^a))",
              identity(d0, ((2 - a) * sp.exp(a) - (a + 2)) / (a**2 * (1 + sp.exp(a))), {"a": ("1/100", "20")}, ctx)),
             ("(2-a)e^a - (a+2) <= 0 for a >= 0",
              inequality("(2-a)*exp(a) - (a+2) <= 0", {"a": ("0", "oo")}, ctx))]
    # sanity: 50-digit minimisation of b -> h(a, b) on a grid of a
    worst = 0.0
    with mp.workdps(50):
        def hf(av, bv):
            return mp.expm1(av - bv) / (av - bv) * (1 + mp.exp(bv)) / (1 + mp.exp(av)) if av != bv else mp.mpf(1)
        grid = [mp.mpf(k) / 4 for k in range(1, 9 if ctx.quick else 81)]
        for av in grid:
            lo, hi = mp.mpf(-1), av + 1
            for _ in range(120):  # golden-section search of a convex function
                m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
                lo, hi = (lo, m2) if hf(av, m1) <= hf(av, m2) else (m1, hi)
            bstar = (lo + hi) / 2
            worst = worse(worst, float(max(-bstar, bstar - av, 0)))  # a NaN bstar is max's first argument: kept
    links.append(("50-digit minimisation on a grid of a in (0, 20]",
                  Outcome("verified" if worst < 1e-20 else "inconclusive", "golden section at 50 digits",
                          {"a_values": len(grid), "max_distance_outside_[0,a]": worst})))
    return combine(links, extra={"reading": "convexity of phi is exact (phi'' = int_0^1 s^2 e^{sx} ds > 0); with "
                                            "the two derivative signs this places an argmin in [0, a]"})

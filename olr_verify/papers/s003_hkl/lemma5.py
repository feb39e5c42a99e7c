"""Seed 003, Lemma 5 (Fig. 4 construction, §3.2 and §5.2): statement and printed steps (2), (3), (8)-(11).

Variables D, eps with the §5.2 hypothesis 100 e^{-0.6 D/sqrt 2} <= eps <= 1/(10 D), non-empty only for
D >= 23.7476 (domains start at 23.74). p is Fig. 4's p: p/(1-p) = (D/sqrt 2)(1+e^{0.9})/(1+e^{-0.9D/sqrt 2}).
w_0 = (0, 0.9D), w_a = (0.3D, 0.9D), u_a = (0.3D, 0); x_0 = (0,-1)/D, x_l = (-1,1)/sqrt 2, x_r = (1,1)/sqrt 2.
"""
from __future__ import annotations

from fractions import Fraction

from olr_verify.papers.s003_hkl.lemmas3_5_theorems2_4 import DOM5, EMPTY, ONE_MINUS_P
from olr_verify.checks.scalar_common import combine, identity, inequality
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check, decide


def _fact(what: str, ok: bool) -> Outcome:
    return Outcome("proved" if ok else "refuted", "exact rational arithmetic", {"fact": what})


def _sp():
    import sympy

    return sympy


def _losses():
    sp = _sp()
    w1, w2, D, e = sp.symbols("w1 w2 D eps")
    s2 = sp.sqrt(2)
    ell = lambda z: sp.log(1 + sp.exp(z))  # noqa: E731
    l0, ll, lr = ell(-w2 / D), ell((w2 - w1) / s2), ell((w1 + w2) / s2)
    rho = (D / s2) * (1 + sp.exp(sp.Rational(9, 10))) / (1 + sp.exp(-sp.Rational(9, 10) * D / s2))
    p = rho / (1 + rho)
    return sp, (w1, w2, D, e), (l0, ll, lr), p


def _step_1(ctx):
    sp, (w1, w2, D, e), (l0, ll, lr), p = _losses()
    P = sp.Symbol("p")
    L0 = P * l0 + (1 - P) / 2 * ll + (1 - P) / 2 * lr
    s2 = sp.sqrt(2)
    printed = [P / D / (1 + sp.exp(w2 / D)) * 0 + (1 - P) / (2 * s2) * (-1 / (1 + sp.exp((w1 - w2) / s2)) + 1 / (1 + sp.exp(-(w1 + w2) / s2))),
               -P / D / (1 + sp.exp(w2 / D)) + (1 - P) / (2 * s2) * (1 / (1 + sp.exp((w1 - w2) / s2)) + 1 / (1 + sp.exp(-(w1 + w2) / s2)))]
    box = {"w1": ("-3", "3"), "w2": ("-3", "3"), "D": ("2", "30"), "p": ("0.1", "0.9")}
    parts = [(f"printed grad L_0 component {i + 1}", identity(sp.diff(L0, v), printed[i], box, ctx)) for i, v in enumerate((w1, w2))]
    at0 = [g.subs({w1: 0, w2: sp.Rational(9, 10) * D, P: p}) for g in printed]
    parts += [(f"grad L_0(w_0)[{i + 1}] == 0 with Fig. 4's p", identity(g, sp.Integer(0), {"D": ("2", "60")}, ctx)) for i, g in enumerate(at0)]
    parts.append(("||w_0|| = 0.9 D <= D (interior; L_0 convex => global minimiser)", _fact("0.9 <= 1", Fraction(9, 10) <= 1)))
    return parts


@check("003:lemma-5/step-1")
def lemma_5_step_1(ctx: Context) -> Outcome:
    sp, (w1, w2, D, e), (l0, ll, lr), p = _losses()
    P = sp.Symbol("p")
    printed_52 = P * l0 + (1 - P) / 2 * ll + (1 - P) / 2 * lr + (1 - P) / 2 * lr
    unperturbed = P * l0 + (1 - P) / 2 * ll + (1 - P) / 2 * lr
    dup = identity(printed_52, unperturbed, {"w1": ("-3", "3"), "w2": ("-3", "3"), "D": ("2", "30"), "p": ("0.1", "0.9")}, ctx,
                   what="§5.2 display of L_0 (x_r term printed twice) == L_+ at eps = 0")
    return combine([("§5.2 display is the eps = 0 version", dup)] + _step_1(ctx),
                   extra={"variant": "003:lemma-5/step-1/corrected (the §3.2 display, without the duplicated term)"})


@check("003:lemma-5/step-1/corrected")
def lemma_5_step_1_corrected(ctx: Context) -> Outcome:
    return combine(_step_1(ctx))


def _q_lower(ctx):
    return combine([("rho <= D(1+e^0.9)/sqrt2 (denominator >= 1)", inequality("1/(1+exp(-9*D/(10*sqrt(2)))) <= 1", {"D": ("2", "oo")}, ctx)),
                    ("1 + D(1+e^0.9)/sqrt2 <= 3D", inequality("1/D + (1+exp(9/10))/sqrt(2) <= 3", {"D": ("2", "oo")}, ctx))],
                   extra={"reading": "rho = p/(1-p); (1-p)/2 = 1/(2(1+rho)) >= 1/(6D) iff 1 + rho <= 3D"})


def _eq9_inequality(ctx):
    # l(w_a, x_l) = 0.6D/s2 + log(1+e^{-0.6D/s2}); l(w_0, x_l) = log(1+e^{0.9D/s2})
    return inequality("0.6*D/sqrt(2) + log(1+exp(-0.6*D/sqrt(2))) <= log(1+exp(0.9*D/sqrt(2))) - 0.3*D/sqrt(2) + exp(-0.6*D/sqrt(2))",
                      {"D": ("2", "oo")}, ctx)


_CACHE: dict = {}


def _eq11_links(ctx):
    key = ("eq11", ctx.quick, ctx.seed)
    if key not in _CACHE:
        _CACHE[key] = _eq11_links_uncached(ctx)
    return _CACHE[key]


def _eq11_links_uncached(ctx):
    q = f"({ONE_MINUS_P}/2)"
    E1, E2 = "exp(-0.6*D/sqrt(2))", "exp(-1.2*D/sqrt(2))"
    return [
        ("plugging (8)-(10) with l(w_0,x_l) = l(w_0,x_r): L_+(w_a) - L_0(w_0) <= -q 0.3 sqrt2 D eps + q((1+eps)E1 + (1-eps)E2)",
         inequality(f"{q}*((1+eps)*{E1} + (1-eps)*{E2}) <= {E1}", DOM5, ctx)),
        ("q 0.3 sqrt2 D eps >= sqrt2 eps/20 (q >= 1/(6D))", _q_lower(ctx)),
        ("-sqrt2 eps/20 + e^{-0.6D/sqrt2} < -eps/20", inequality(f"-sqrt(2)/20 + {E1}/eps < -1/20", DOM5, ctx)),
        ("||w_a|| = sqrt(0.9) D <= D", _fact("0.3^2 + 0.9^2 = 0.9 <= 1", Fraction(9, 100) + Fraction(81, 100) <= 1)),
    ]


@check("003:equation-11")
def equation_11(ctx: Context) -> Outcome:
    return combine(_eq11_links(ctx), extra=EMPTY)


@check("003:equation-2")
def equation_2(ctx: Context) -> Outcome:
    return combine([("min_W L_+ <= L_+(w_a) (w_a in W)", _fact("0.3^2 + 0.9^2 = 0.9 <= 1", Fraction(9, 100) + Fraction(81, 100) <= 1))] + _eq11_links(ctx),
                   extra=EMPTY)


def _eq3(ctx):
    sp, (w1, w2, D, e), (l0, ll, lr), p = _losses()
    P = sp.Symbol("p")
    Lp = P * l0 + (1 + e) / 2 * (1 - P) * ll + (1 - e) / 2 * (1 - P) * lr
    L0 = P * l0 + (1 - P) / 2 * ll + (1 - P) / 2 * lr
    return [
        ("L_+ == L_0 + (1-p) eps/2 (l(w,x_l) - l(w,x_r))",
         identity(Lp, L0 + (1 - P) * e / 2 * (ll - lr), {"w1": ("-3", "3"), "w2": ("-3", "3"), "D": ("2", "30"), "p": ("0.1", "0.9"), "eps": ("0", "0.1")}, ctx)),
        ("w[1] <= 0 => l(w,x_l) - l(w,x_r) >= 0 (log(1+e^z) increasing, (w2-w1) >= (w2+w1))",
         inequality("(b-a)/sqrt(2) - (b+a)/sqrt(2) >= 0", {"a": ("-oo", "0"), "b": ("-oo", "oo")}, ctx,
                    reading="arguments ordered; log(1+e^z) is increasing (derivative 1/(1+e^{-z}) > 0)")),
    ]


def _mirror(ctx):
    sp, (w1, w2, D, e), (l0, ll, lr), p = _losses()
    P = sp.Symbol("p")
    Lp = P * l0 + (1 + e) / 2 * (1 - P) * ll + (1 - e) / 2 * (1 - P) * lr
    Lm = P * l0 + (1 - e) / 2 * (1 - P) * ll + (1 + e) / 2 * (1 - P) * lr
    return identity(Lm, Lp.subs(w1, -w1), {"w1": ("-3", "3"), "w2": ("-3", "3"), "D": ("2", "30"), "p": ("0.1", "0.9"), "eps": ("0", "0.1")}, ctx,
                    what="L_-(w1, w2) == L_+(-w1, w2): the L_- case is the mirror image")


@check("003:lemma-5/step-3")
def lemma_5_step_3(ctx: Context) -> Outcome:
    return combine(_eq3(ctx) + _eq11_links(ctx) + [("L_- case by symmetry", _mirror(ctx))],
                   extra={**EMPTY, "argument": "L_+(w) - min L_+ >= L_0(w) - (L_0(w_0) - eps/20) >= eps/20 (w_0 minimises L_0: step 1)"})


@check("003:lemma-5")
def lemma_5(ctx: Context) -> Outcome:
    return combine(_step_1(ctx) + [("(1-p)/2 >= 1/(6D)", _q_lower(ctx))]
                   + _eq11_links(ctx) + [("(9)", _eq9_inequality(ctx)), ("(10)", decide("003:equation-10", ctx))]
                   + _eq3(ctx) + [("L_- case by symmetry", _mirror(ctx))],
                   method="printed proof of §5.2, every link certified (sympy identities, arb prover)",
                   extra={**EMPTY, "reading": "domain of §5.2: D >= 23.74 (the hypothesis is empty below 23.7476)"})

"""Seed 000 (AIOLI, Jézéquel-Gaillard-Rudi): Lemma 5's and Lemma 8's proof steps, eqs. (25)-(27),
the elementary facts of "Claims to check" items 17-22, and the curvature/exp-concavity claims.

Notation as printed (paper §1.4, App. C): f(x) = log(1+e^{-x}), f'(x) = -(1+e^x)^{-1},
alpha = (1+C)^{-1}, xi(a) = f(a) - f(b) - f'(b)(a-b) - alpha/2 e^b/(1+e^b)^2 (a-b)^2 (Lemma 5),
h(a,b) = (e^{a-b}-1)/(a-b) (1+e^b)/(1+e^a) (Lemma 8).  The identities of App. B (linear algebra
of one AIOLI round) are in ``identities_000.py``.  Lemma 5 and Lemma 8 themselves are decided in
``lemmas_core.py``; this module decides their printed steps.

Where a statement has a free constant C with no range (Lemma 5: "Let C > 0"), the searched and
proved range is C in [1/10, 10] (the range of issue 3) and the evidence says so.
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import best_constant, combine, identity, inequality, parse
from olr_verify.checks.verdicts import not_a_certificate, on_printed_domain
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check

H = "(exp(a-b)-1)/(a-b)*(1+exp(b))/(1+exp(a))"
XI_PRIME = "(-1/(1+exp(a)) + 1/(1+exp(b)) - exp(b)/((1+C)*(1+exp(b))**2)*(a-b))"
LEMMA5_DOMAIN = {"C": ("1/10", "10"), "a": ("-C", "C"), "b": ("-oo", "oo")}
C_READING = "Lemma 5 says only C > 0; checked for C in [1/10, 10]"


def _syms(names: str):
    import sympy as sp

    return sp.symbols(names)


# --------------------------------------------------------------------------- Lemma 5's proof
@check("000:lemma-5/step-1")
def lemma_5_step_1(ctx: Context) -> Outcome:
    """f'(x) = -(1+e^x)^{-1}, and Lemma 5 with alpha = (1+C)^{-1} is the printed inequality."""
    import sympy as sp

    a, b, C, x = _syms("a b C x")
    f = sp.log(1 + sp.exp(-x))
    fp = -1 / (1 + sp.exp(x))
    deriv = identity(sp.diff(f, x), fp, {"x": ("-5", "5")}, ctx, what="f'(x) = -(1+e^x)^(-1)")
    alpha = 1 / (1 + C)
    lemma = f.subs(x, b) + fp.subs(x, b) * (a - b) + sp.exp(b) / (2 * (1 + C)) * fp.subs(x, b) ** 2 * (a - b) ** 2
    printed = sp.log(1 + sp.exp(-b)) - (a - b) / (1 + sp.exp(b)) + alpha / 2 * sp.exp(b) / (1 + sp.exp(b)) ** 2 * (a - b) ** 2
    rhs = identity(lemma, printed, {"C": ("0.1", "10"), "a": ("-C", "C"), "b": ("-5", "5")}, ctx,
                   what="right-hand side of Lemma 5 == right-hand side of the printed reformulation")
    return combine([("derivative of f", deriv), ("reformulation", rhs)])


@check("000:equation-25")
def equation_25(ctx: Context) -> Outcome:
    """(25): xi'(a) <= 0 for a <= b and >= 0 for a >= b, i.e. (a-b) xi'(a) >= 0."""
    rel = f"(a-b)*{XI_PRIME} >= 0"
    out = inequality(rel, LEMMA5_DOMAIN, ctx, prover_seconds=40.0,
                     reading=C_READING + "; the two cases of (25) are the one relation (a-b) xi'(a) >= 0")
    return on_printed_domain(out, "C in [1/10, 10], a in [-C, C], b real", "C > 0, a in [-C, C], b real")


@check("000:lemma-5/step-3")
def lemma_5_step_3(ctx: Context) -> Outcome:
    """Both printed forms of xi'(a) equal the derivative of xi."""
    import sympy as sp

    a, b, C = _syms("a b C")
    alpha = 1 / (1 + C)
    xi = (sp.log(1 + sp.exp(-a)) - sp.log(1 + sp.exp(-b)) + (a - b) / (1 + sp.exp(b))
          - alpha / 2 * sp.exp(b) / (1 + sp.exp(b)) ** 2 * (a - b) ** 2)
    form1 = -1 / (1 + sp.exp(a)) + 1 / (1 + sp.exp(b)) - alpha * sp.exp(b) / (1 + sp.exp(b)) ** 2 * (a - b)
    form2 = (sp.exp(a) - sp.exp(b)) / ((1 + sp.exp(a)) * (1 + sp.exp(b))) - alpha * sp.exp(b) / (1 + sp.exp(b)) ** 2 * (a - b)
    dom = {"C": ("0.1", "10"), "a": ("-C", "C"), "b": ("-5", "5")}
    return combine([("d xi/da == first form", identity(sp.diff(xi, a), form1, dom, ctx)),
                    ("first form == second form", identity(form1, form2, dom, ctx))])


@check("000:lemma-5/step-4")
def lemma_5_step_4(ctx: Context) -> Outcome:
    """(1+e^a)(1+e^b)e^{-b} xi'(a) = e^{a-b} - 1 - alpha (1+e^a)/(1+e^b) (a-b)."""
    import sympy as sp

    a, b, C = _syms("a b C")
    xi_p = parse(XI_PRIME)
    lhs = (1 + sp.exp(a)) * (1 + sp.exp(b)) * sp.exp(-b) * xi_p
    rhs = sp.exp(a - b) - 1 - (1 + sp.exp(a)) / (1 + sp.exp(b)) * (a - b) / (1 + C)
    return identity(lhs, rhs, {"C": ("0.1", "10"), "a": ("-C", "C"), "b": ("-5", "5")}, ctx)


@check("000:lemma-5/step-5")
def lemma_5_step_5(ctx: Context) -> Outcome:
    """alpha <= h(a,b) on a in [-C,C], b real (via (1+C)^{-1} <= (1+|a|)^{-1} and Lemma 8)."""
    sign = identity(parse("(a-b)*(exp(a-b)-1-(1+exp(a))/(1+exp(b))*(a-b)/(1+C))"),
                    parse("(a-b)**2*(1+exp(a))/(1+exp(b))*(" + H + " - 1/(1+C))"),
                    {"C": ("0.1", "10"), "a": ("-C", "C"), "b": ("-5", "5")}, ctx,
                    what="(a-b) x [step-4 bracket] == (a-b)^2 (1+e^a)/(1+e^b) (h(a,b) - alpha): "
                         "so alpha <= h gives (25)")
    const = inequality("1/(1+C) <= 1/(1+Abs(a))", {"C": ("1/10", "10"), "a": ("-C", "C")}, ctx,
                       reading=C_READING)
    main = inequality(f"1/(1+C) <= {H}", LEMMA5_DOMAIN, ctx, reading=C_READING + "; h(a,a) = 1 by the printed convention")
    return combine([("(25) follows from alpha <= h", sign), ("(1+C)^-1 <= (1+|a|)^-1", const),
                    ("alpha <= h(a,b)", main)])


# --------------------------------------------------------------------------- Lemma 8's proof
@check("000:lemma-8/case-a-geq-b")
def lemma_8_case_a_geq_b(ctx: Context) -> Outcome:
    dom = {"a": ("-oo", "oo"), "b": ("-oo", "a")}
    equal = identity(parse("(exp(a-b)-1)*exp(b-a)/(a-b)"), parse("(exp(b-a)-1)/(b-a)"),
                     {"a": ("-5", "5"), "b": ("-10", "a")}, ctx,
                     what="the printed middle '>=' holds with equality")
    return combine([
        ("(1+e^b)/(1+e^a) >= e^(b-a)", inequality("(1+exp(b))/(1+exp(a)) >= exp(b-a)", dom, ctx)),
        ("h >= (e^(a-b)-1)e^(b-a)/(a-b)", inequality(f"{H} >= (exp(a-b)-1)*exp(b-a)/(a-b)", dom, ctx)),
        ("(e^(a-b)-1)e^(b-a)/(a-b) >= (e^(b-a)-1)/(b-a)", equal),
        ("(e^(b-a)-1)/(b-a) >= 1/(1+a-b)", inequality("(exp(b-a)-1)/(b-a) >= 1/(1+a-b)", dom, ctx)),
    ])


@check("000:lemma-8/case-a-leq-b")
def lemma_8_case_a_leq_b(ctx: Context) -> Outcome:
    dom = {"a": ("-oo", "oo"), "b": ("a", "oo")}
    return combine([
        ("(1+e^b)/(1+e^a) >= 1", inequality("(1+exp(b))/(1+exp(a)) >= 1", dom, ctx)),
        ("h >= (e^(a-b)-1)/(a-b)", inequality(f"{H} >= (exp(a-b)-1)/(a-b)", dom, ctx)),
        ("(e^(a-b)-1)/(a-b) >= 1/(1+b-a)", inequality("(exp(a-b)-1)/(a-b) >= 1/(1+b-a)", dom, ctx)),
    ])


@check("000:equation-26")
def equation_26(ctx: Context) -> Outcome:
    return inequality(f"{H} >= 1/(1+Abs(a-b))", {"a": ("-oo", "oo"), "b": ("-oo", "oo")}, ctx,
                      reading="h(a,a) = 1 by the printed convention")


@check("000:equation-27")
def equation_27(ctx: Context) -> Outcome:
    rhs = parse("1/(1+exp(a))*(exp(a-b)-1)/(a-b) + 1/(1+exp(-a))*(exp(b-a)-1)/(b-a)")
    return identity(parse(H), rhs, {"a": ("-5", "5"), "b": ("-5", "5")}, ctx)


@check("000:lemma-8/symmetry-convexity")
def lemma_8_symmetry_convexity(ctx: Context) -> Outcome:
    """h(a,b) = h(-a,-b), and phi(x) = (e^x-1)/x is convex: phi'' = N/x^3, N(0) = 0, N' = x^2 e^x."""
    import sympy as sp

    a, b, x = _syms("a b x")
    h = parse(H)
    sym = identity(h, h.subs({a: -a, b: -b}, simultaneous=True), {"a": ("-5", "5"), "b": ("-5", "5")}, ctx)
    phi = (sp.exp(x) - 1) / x
    N = sp.exp(x) * (x**2 - 2 * x + 2) - 2
    d2 = identity(sp.diff(phi, x, 2), N / x**3, {"x": ("-5", "5")}, ctx, what="phi''(x) == N(x)/x^3")
    dN = identity(sp.diff(N, x), x**2 * sp.exp(x), {"x": ("-5", "5")}, ctx, what="N'(x) == x^2 e^x >= 0")
    n0 = identity(N.subs(x, 0), sp.Integer(0), {}, ctx, what="N(0) == 0")
    n0.evidence["phi''(0) (sympy limit, not certified)"] = str(sp.limit(sp.diff(phi, x, 2), x, 0))
    out = combine([("h(a,b) == h(-a,-b)", sym), ("phi'' == N/x^3", d2), ("N' == x^2 e^x", dN), ("N(0) == 0", n0)],
                  extra={"argument": "N' >= 0 and N(0) = 0 give sign(N) = sign(x), so phi'' = N/x^3 >= 0 for x != 0 "
                                     "and phi''(0) = 1/3 by continuity; b -> h(a,b) = c1 phi(a-b) + c2 phi(b-a) "
                                     "with c1, c2 > 0 by (27), a sum of convex functions"})
    return not_a_certificate(out, "the sign argument (N' >= 0 and N(0) = 0 give sign N = sign x) and phi''(0) "
                                  "by continuity (sympy limit) are prose, not certificates")


def _dh():
    import sympy as sp

    a, b = _syms("a b")
    return sp.diff(parse(H), b)


DH_PRINTED = "((b-a+1)*exp(a-b)-1+(b-a-1)*exp(b)+exp(a))/((a-b)**2*(1+exp(a)))"


@check("000:lemma-8/derivative")
def lemma_8_derivative(ctx: Context) -> Outcome:
    return identity(_dh(), parse(DH_PRINTED), {"a": ("0", "5"), "b": ("-5", "5")}, ctx,
                    assumptions_note="checked on all a, b with b != a (the printed domain a >= 0 is not needed)")


@check("000:lemma-8/expansion")
def lemma_8_expansion(ctx: Context) -> Outcome:
    import sympy as sp

    a, s = _syms("a s")
    b = sp.Symbol("b")
    num = parse("(b-a+1)*exp(a-b)-1+(b-a-1)*exp(b)+exp(a)")
    ser = sp.series(num.subs(b, a + s), s, 0, 3).removeO()
    taylor = identity(ser, (sp.exp(a) - 1) / 2 * s**2, {"a": ("0", "5"), "s": ("-1", "1")}, ctx,
                      what="numerator(a, a+s) = (e^a-1)/2 s^2 + O(s^3)")
    lim = sp.limit(parse(DH_PRINTED).subs(b, a + s), s, 0)
    limit = identity(lim, (sp.exp(a) - 1) / (2 * (sp.exp(a) + 1)), {"a": ("0", "5")}, ctx,
                     what="lim_{b->a} d_b h(a,b) == (e^a-1)/(2(e^a+1))")
    at0 = sp.limit(parse(DH_PRINTED).subs(a, 0), b, 0)
    zero = identity(at0, sp.Integer(0), {}, ctx, what="d_b h(0,0) (sympy limit) == 0")
    limit = not_a_certificate(limit, "the value of the limit is sympy's limit(), not a certificate")
    zero = not_a_certificate(zero, "the value d_b h(0,0) is sympy's limit(), not a certificate")
    sign = inequality("(exp(a)-1)/(exp(a)+1) >= 0", {"a": ("0", "oo")}, ctx)
    return combine([("second-order expansion", taylor), ("limit", limit), ("d_b h(0,0) = 0", zero),
                    ("limit >= 0 for a >= 0", sign)])


@check("000:lemma-8/derivative-at-0")
def lemma_8_derivative_at_0(ctx: Context) -> Outcome:
    """As printed, d_b h(a,0) = (2-a)e^a - (a+2): the factor 1/(a^2(1+e^a)) of the derivative is missing."""
    import sympy as sp

    a, b = _syms("a b")
    exact = parse(DH_PRINTED).subs(b, 0)
    printed = identity(exact, parse("(2-a)*exp(a)-(a+2)"), {"a": ("0", "5")}, ctx,
                       what="d_b h(a,0) (from the printed derivative, itself proved) == (2-a)e^a-(a+2)")
    sign = inequality("(2-a)*exp(a)-(a+2) <= 0", {"a": ("0", "oo")}, ctx)
    return combine([("printed equality", printed), ("printed sign", sign)],
                   extra={"note": "the sign conclusion is right (the missing factor is positive); "
                                  "see 000:lemma-8/derivative-at-0/corrected"})


@check("000:lemma-8/derivative-at-0/corrected")
def lemma_8_derivative_at_0_corrected(ctx: Context) -> Outcome:
    import sympy as sp

    a, b = _syms("a b")
    exact = identity(sp.diff(parse(H), b).subs(b, 0), parse("((2-a)*exp(a)-(a+2))/(a**2*(1+exp(a)))"),
                     {"a": ("0", "5")}, ctx)
    sign = inequality("(2-a)*exp(a)-(a+2) <= 0", {"a": ("0", "oo")}, ctx,
                      reading="the denominator a^2(1+e^a) is positive for a > 0")
    return combine([("d_b h(a,0) == ((2-a)e^a-(a+2))/(a^2(1+e^a))", exact), ("numerator <= 0", sign)])


# --------------------------------------------------------------------------- elementary facts
@check("000:claim-1/a")
def claim_1_a(ctx: Context) -> Outcome:
    return inequality("(exp(x)-1)/x >= 1/(1-x)", {"x": ("-oo", "0")}, ctx,
                      reading="at x = 0 both sides are 1 (removable singularity)")


@check("000:claim-1/b")
def claim_1_b(ctx: Context) -> Outcome:
    return inequality("(2-x)*exp(x) <= 2+x", {"x": ("0", "oo")}, ctx)


@check("000:claim-1/c")
def claim_1_c(ctx: Context) -> Outcome:
    out = inequality("x/(1+x)**2 <= 1/4", {"x": ("0", "oo")}, ctx)
    out.evidence["optimal_constant"] = "1/4, attained at x = 1"
    return out


@check("000:claim-1/d")
def claim_1_d(ctx: Context) -> Outcome:
    return inequality("1-u <= log(1/u)", {"u": ("0", "oo")}, ctx, reading="u > 0; the left end u -> 0 is open")


@check("000:claim-1/e")
def claim_1_e(ctx: Context) -> Outcome:
    import mpmath as mp

    out = inequality("Abs(z)/(2+2*cosh(z)) <= 1", {"z": ("-oo", "oo")}, ctx)
    out.evidence["optimal_constant"] = best_constant(lambda z: z / (2 + 2 * mp.cosh(z)), 0.01, 5.0, maximise=True)
    return out


@check("000:claim-1/f")
def claim_1_f(ctx: Context) -> Outcome:
    out = inequality("1/(1+cosh(s)) <= 1/2", {"s": ("-oo", "oo")}, ctx,
                     reading="with s = v_t^T w ranging over R, the claim is ||v||^2 sup_s 1/(1+cosh s) <= ||v||^2/2; "
                             "dimension-free (only s = v^T w enters); the sup 1/2 is attained at w = 0")
    return out


# --------------------------------------------------------------------------- curvature
LEMMA5_ETA = "log(1+exp(-a)) >= log(1+exp(-b)) - (a-b)/(1+exp(b)) + {eta}/2*(a-b)**2/(1+exp(b))**2"


@check("000:claim-2")
def claim_2(ctx: Context) -> Outcome:
    """For y_t yhat_t = b >= 0, (8) holds with eta = (1+BR)^{-1}; with C = BR."""
    out = inequality(LEMMA5_ETA.format(eta="1/(1+C)"), {"C": ("1/10", "10"), "a": ("-C", "C"), "b": ("0", "oo")}, ctx,
                     reading="a = y theta^T x in [-C, C], b = y yhat >= 0, C = BR in [1/10, 10]; the 'order e^{-BR} "
                             "when y yhat ~ -BR' part is the value eta_t = e^{-C}/(1+C) at b = -C (no inequality)")
    return on_printed_domain(out, "C = BR in [1/10, 10], a in [-C, C], b >= 0", "BR > 0, a in [-C, C], b >= 0")


@check("000:claim-3")
def claim_3(ctx: Context) -> Outcome:
    """Best exp-concavity constant of z -> log(1+e^{-z}) on [-C, C] is min f''/f'^2 = e^{-C}, exactly."""
    import sympy as sp

    z = sp.Symbol("z")
    f = sp.log(1 + sp.exp(-z))
    ratio = identity(sp.diff(f, z, 2) / sp.diff(f, z) ** 2, sp.exp(z), {"z": ("-5", "5")}, ctx,
                     what="f''/f'^2 == e^z, so alpha-exp-concavity on [-C,C] iff alpha <= min e^z = e^{-C}")
    out = combine([("f''/f'^2 = e^z", ratio)], method="exact identity; the criterion alpha <= f''/f'^2 is the 1-D "
                  "characterisation of exp-concavity",
                  extra={"best_constant": "exactly e^{-BR} (z = y theta^T x ranges over [-BR, BR])"})
    return not_a_certificate(out, "the characterisation 'alpha-exp-concave iff alpha <= f''/f'^2' (standard, cited)")


@check("000:equation-8")
def equation_8(ctx: Context) -> Outcome:
    rel = LEMMA5_ETA.format(eta="Min(1/(4*C), exp(-C))/2")
    out = inequality(rel, {"C": ("1/10", "10"), "a": ("-C", "C"), "b": ("-C", "C")}, ctx, prover_seconds=40.0,
                     reading="d-dim (8) reduces to a = y theta^T x, b = y thetahat^T x in [-C, C], C = BR, G = R "
                             "(so GB = C), alpha = e^{-C} (000:claim-3), eta = min{1/(4C), e^{-C}}/2")
    return on_printed_domain(out, "C = BR in [1/10, 10], a, b in [-C, C]", "BR > 0, a, b in [-C, C]")


@check("000:claim-11/a")
def claim_11_a(ctx: Context) -> Outcome:
    """d_eff(lam) = sum_i mu_i/(mu_i+lam) <= n/lam; with n = 1, K = (x^2)."""
    out = inequality("k/(k+lam) <= 1/lam", {"lam": ("1/10", "10"), "k": ("0", "oo")}, ctx,
                     reading="n = 1, K = x^2 = k >= 0 (no bound on ||x|| is stated in 4.1); d_eff = k/(k+lam)")
    out.evidence["note"] = ("d_eff <= min(n, Tr(K)/lam) always; n/lam needs ||x_i|| <= 1 (or lam <= 1); "
                            "see 000:claim-11/a/corrected")
    return out


@check("000:claim-11/a/corrected")
def claim_11_a_corrected(ctx: Context) -> Outcome:
    """mu/(mu+lam) <= min(1, mu/lam) for every eigenvalue mu >= 0, and Tr K <= n R^2."""
    out = combine([("mu/(mu+lam) <= mu/lam", inequality("mu/(mu+lam) <= mu/lam", {"lam": ("1/100", "100"), "mu": ("0", "oo")}, ctx)),
                   ("mu/(mu+lam) <= 1", inequality("mu/(mu+lam) <= 1", {"lam": ("1/100", "100"), "mu": ("0", "oo")}, ctx))],
                  extra={"argument": "sum over the n eigenvalues mu_i of K; sum mu_i = Tr K = sum ||x_i||^2 <= n R^2"})
    return on_printed_domain(out, "lam in [1/100, 100], mu >= 0", "lam > 0, mu >= 0")

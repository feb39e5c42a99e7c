"""Seed 003 (Hazan, Koren, Levy 2014): Lemma 3 and Lemma 5 (statements and printed proof steps), the
steps of the proofs of Theorems 2 and 4, and the construction boxes of Figures 2 and 4.

Variables. Lemma 3 (Fig. 2): r = sqrt(eps) (so theta = r/D, eps = r^2) and s = w/D. The hypothesis
40 e^{-0.45 D} <= eps <= 1/25 of §5.1 reads r in [sqrt(40) e^{-9D/40}, 1/5]; it is EMPTY for
D < ln(1000)/0.45 = 15.35 (consistent with olr_verify/checks/hunt_003.py), so the domains start there.
Lemma 5 (Fig. 4): 100 e^{-0.6 D/sqrt 2} <= eps <= 1/(10D) is empty for D < 23.747...

Exact decomposition used for Lemma 3 (sympy-certified in the check): with c = theta/2 + chi eps/D, b = 1 - c,
a = D - r/2, h(z) = log(1+e^{-z}) - log 2 + z/2 - z^2/8 (|h(z)| <= z^4/192, eq. (6)),
    L_chi(sD) = chi r^2 s + b log 2 + b r^2 s^2/8 + c (a s + log(1+e^{-a s})) - c a s ... (see _decomposition)
so L_chi(sD) - L_chi(s0 D) = chi r^2 (s-s0) + b r^2 (s^2-s0^2)/8 + c [log1p(e^{-as}) - log1p(e^{-a s0})]
+ b [h(rs) - h(r s0)]: the O(sqrt(eps)) terms cancel exactly, which is what lets the prover close it.
"""
from __future__ import annotations

import functools

from olr_verify.checks.scalar_common import combine, identity, inequality
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check

D3_MIN = "20*log(10)/9"  # ln(1000)/0.45: Lemma 3's hypothesis is empty below
DOM3 = {"D": (D3_MIN, "oo"), "r": ("sqrt(40)*exp(-9*D/40)", "1/5")}
EMPTY = {"lemma_3_domain": "empty for D < ln(1000)/0.45 = 15.3506 (40 e^{-0.45 D} > 1/25)",
         "lemma_5_domain": "empty for D < 23.7476 (100 e^{-0.6 D/sqrt 2} > 1/(10 D))"}


def _sp():
    import sympy

    return sympy


def _c(chi):
    return f"(r/(2*D) + ({chi})*r**2/D)"


def _b(chi):
    return f"(1 - r/(2*D) - ({chi})*r**2/D)"


def _decomposition(ctx: Context) -> Outcome:
    """Exact: L_chi(sD) (with log(1+e^{as}) = as + log(1+e^{-as}), eq. (5)) equals the decomposition."""
    sp = _sp()
    D, r, s, chi, A, H = sp.symbols("D r s chi A H")  # A = log(1+e^{-as}), H = h(rs)
    c = r / (2 * D) + chi * r**2 / D
    b = 1 - c
    a = D - r / 2
    lhs = c * (a * s + A) + b * (sp.log(2) - r * s / 2 + r**2 * s**2 / 8 + H)
    rhs = chi * r**2 * s + b * sp.log(2) + b * r**2 * s**2 / 8 + c * A + b * H
    return identity(lhs, rhs, {"D": ("16", "40"), "r": ("0.01", "0.2"), "s": ("0", "1"), "chi": ("-1", "1"),
                               "A": ("0", "1"), "H": ("-1", "1")}, ctx,
                    what="c(a s + A) + b(log2 - rs/2 + r^2 s^2/8 + H) == chi r^2 s + b log2 + b r^2 s^2/8 + c A + b H")


@functools.lru_cache(maxsize=1)
def _monotone_chain() -> tuple[bool, dict]:
    """Exact certificate of |h(z)| <= z^4/192 and of tanh(u) <= u (u >= 0): f(0) = 0 and f' = (earlier f) >= 0.

    a = u - tanh u (a' = tanh^2 u); b = u^2/2 - log cosh u (b' = a); d = tanh u - u + u^3/3 (d' = (u - tanh u)(u + tanh u));
    e = log cosh u - u^2/2 + u^4/12 (e' = d); h(z) = log cosh(z/2) - z^2/8 = -b(z/2) = e(z/2) - z^4/192 (h even).
    """
    sp = _sp()
    u, z = sp.symbols("u z", real=True)
    t = sp.tanh(u)
    steps = {"a": (u - t, t**2), "b": (u**2 / 2 - sp.log(sp.cosh(u)), u - t),
             "d": (t - u + u**3 / 3, (u - t) * (u + t)), "e": (sp.log(sp.cosh(u)) - u**2 / 2 + u**4 / 12, t - u + u**3 / 3)}
    ok = {}
    for name, (f, df) in steps.items():
        ok[name] = bool(sp.simplify((sp.diff(f, u) - df).rewrite(sp.exp)) == 0 and sp.simplify(f.subs(u, 0)) == 0)
    h_id = sp.simplify((sp.log(1 + sp.exp(-z)) - sp.log(2) + z / 2 - sp.log(sp.cosh(z / 2))).rewrite(sp.exp))
    ok["log(1+e^-z) - log2 + z/2 == log cosh(z/2)"] = bool(sp.simplify(sp.expand_log(sp.logcombine(h_id, force=True), force=True)) == 0
                                                          or _num_zero(h_id))
    return all(ok.values()), ok


def _num_zero(expr) -> bool:
    sp = _sp()
    z = sp.Symbol("z", real=True)
    return all(abs(sp.N(expr.subs(z, sp.Rational(k, 7)), 50)) < 1e-45 for k in (-20, -3, 1, 5, 33))


def _eq6(ctx):
    ok, parts = _monotone_chain()
    return Outcome("proved" if ok else "inconclusive",
                   "exact monotonicity chain (sympy derivatives, f(0) = 0, derivative = an earlier nonnegative function)",
                   {"relation": "|log(1+e^{-z}) - (log2 - z/2 + z^2/8)| <= z^4/192, all real z", "steps": parts,
                    "chain": _monotone_chain.__doc__.strip()})


def _tangent_sigma(ctx):
    """(1+e^x)^-1 - 1/2 + x/4 == (x/2 - tanh(x/2))/2 >= 0 for x >= 0 (tanh u <= u, step a of the chain)."""
    sp = _sp()
    x = sp.Symbol("x", real=True)
    ident = identity(1 / (1 + sp.exp(x)) - sp.Rational(1, 2) + x / 4, (x / 2 - sp.tanh(x / 2)) / 2, {"x": ("0", "10")}, ctx)
    ok, parts = _monotone_chain()
    chain = Outcome("proved" if parts["a"] else "inconclusive", "exact monotonicity (d/du(u - tanh u) = tanh^2 u)", {"step": "a"})
    return combine([("identity with (x/2 - tanh(x/2))/2", ident), ("tanh u <= u, u >= 0", chain)])


def _log1p_le(ctx):
    return inequality("log(1+u) <= u", {"u": ("0", "oo")}, ctx)


def _plus_main(ctx):
    b = _b(1)
    return inequality(f"(s-1/2) + {b}*(s**2-1/4)/8 - (1/(2*D*r) + 1/D)*exp(-(D - r/2)/2) - {b}*r**2*(s**4 + 1/16)/192 >= 1/20",
                      {**DOM3, "s": ("3/4", "1")}, ctx,
                      reading="[L_+(sD) - L_+(D/2)]/eps >= 1/20 after the exact decomposition, dropping c log1p(e^{-as}) >= 0, "
                              "using log1p(e^{-a/2}) <= e^{-a/2} and |h(z)| <= z^4/192")


def _minus_main(ctx):
    b = _b(-1)
    return inequality(f"-(s-1) + {b}*(s**2-1)/8 - {b}*r**2*(s**4 + 1)/192 >= 1/20", {**DOM3, "s": ("1/2", "3/4")}, ctx,
                      reading="[L_-(sD) - L_-(D)]/eps >= 1/20 after the exact decomposition; "
                              "c[log1p(e^{-as}) - log1p(e^{-a})] >= 0 for s <= 1 is dropped")


def _minus_derivative(ctx):
    """D L_-'(D/2) <= c a - r b (1/2 - r/8) == -r^2 + r^2 b/8 <= 0 (c a >= 0, sigma <= 1, tangent bound)."""
    sp = _sp()
    D, r = sp.symbols("D r", positive=True)
    c = r / (2 * D) - r**2 / D
    b = 1 - r / (2 * D) + r**2 / D
    a = D - r / 2
    return combine([
        ("c a >= 0 (theta/2 >= eps/D)", inequality(f"{_c(-1)}*(D - r/2) >= 0", DOM3, ctx)),
        ("(1+e^x)^-1 >= 1/2 - x/4 (x >= 0)", _tangent_sigma(ctx)),
        ("c a - r b (1/2 - r/8) == -r^2 + r^2 b/8", identity(c * a - r * b * (sp.Rational(1, 2) - r / 8), -r**2 + r**2 * b / 8,
                                                               {"D": ("16", "40"), "r": ("0.01", "0.2")}, ctx)),
        ("-r^2 + r^2 b/8 <= 0", inequality(f"-r**2 + r**2*{_b(-1)}/8 <= 0", DOM3, ctx)),
    ])


@check("003:lemma-3")
def lemma_3(ctx: Context) -> Outcome:
    out = combine([
        ("exact decomposition of L_chi", _decomposition(ctx)),
        ("eq. (6): |h(z)| <= z^4/192", _eq6(ctx)),
        ("log(1+u) <= u", _log1p_le(ctx)),
        ("L_+(w) - L_+(D/2) >= eps/20 on [3D/4, D]", _plus_main(ctx)),
        ("L_-(w) - L_-(D) >= eps/20 on [D/2, 3D/4]", _minus_main(ctx)),
        ("L_-'(D/2) <= 0 (so L_- >= L_-(D/2) on [-D, D/2] by convexity)", _minus_derivative(ctx)),
    ], method="exact decomposition + arb prover on the sufficient relations (min over W <= value at D/2, resp. D)",
        extra={**EMPTY, "reading": "r = sqrt(eps), s = w/D; D in [ln(1000)/0.45, oo) (the whole non-empty domain)"})
    return out


@check("003:lemma-3/sketch/up-to-constant")
def lemma_3_sketch_const(ctx: Context) -> Outcome:
    parts = []
    for chi in (1, -1):
        c = _c(chi)
        parts.append((f"chi={chi}: |L_chi - b log2 - chi eps w/D - eps w^2/8D^2| <= eps/40",
                      inequality(f"Abs({c})/8 + Abs({c})*exp(1/20 - D/20)/40 + r**2/192 <= 1/40", DOM3, ctx,
                                 reading="(deviation)/eps with deviation (1-b) r^2 s^2/8 + c log1p(e^{-as}) + b h(rs) (exact decomposition); "
                                         "log1p(e^{-as}) <= e^{-(D-r/2)/2} <= e^{1/20-D/2} and 1/r^2 <= e^{9D/20}/40 (hypothesis)")))
    return combine([("exact decomposition", _decomposition(ctx)), ("eq. (6)", _eq6(ctx))] + parts, extra=EMPTY)


@check("003:lemma-3/step-2-expansion")
def lemma_3_expansion(ctx: Context) -> Outcome:
    sp = _sp()
    D, th, e, w = sp.symbols("D theta eps w", positive=True)
    parts = []
    for chi in (1, -1):
        lhs = (th / 2 + chi * e / D) * (1 - th / 2) * w + (1 - th / 2 - chi * e / D) * (sp.log(2) - th * w / 2 + (th * w)**2 / 8)
        rhs = chi * e / D * w + (1 - th / 2 - chi * e / D) * sp.log(2) + (1 - th / 2 - chi * e / D) * (th * w)**2 / 8
        parts.append((f"chi={chi}: printed simplification (exact, theta^2 = eps/D^2 not needed)",
                      identity(lhs.subs(e, th**2 * D**2), rhs.subs(e, th**2 * D**2),
                               {"D": ("16", "40"), "theta": ("0.001", "0.01"), "w": ("8", "40")}, ctx)))
    parts.append(("+-Delta: weights c + b = 1 times eq. (5)/(6) errors; (6)", _eq6(ctx)))
    parts.append(("e^{-(1-theta/2) w} <= e^{-0.45 D} on [D/2, D]", inequality("exp(-(D - r/2)*s) <= exp(-9*D/20)", {**DOM3, "s": ("1/2", "1")}, ctx)))
    return combine(parts, extra={"reading": "eps = theta^2 D^2 (theta = sqrt(eps)/D) substituted before simplifying"})


@check("003:lemma-3/step-3")
def lemma_3_step_3(ctx: Context) -> Outcome:
    sp = _sp()
    D, th, e, w = sp.symbols("D theta eps w", positive=True)
    ell = lambda x: sp.log(1 + sp.exp(x * w))  # noqa: E731
    L = (th / 2 - e / D) * ell(1 - th / 2) + (1 - th / 2 + e / D) * ell(-th)
    printed = ((th / 2 - e / D) * (1 - th / 2) / (1 + sp.exp(-(1 - th / 2) * D / 2))
               - th * (1 - th / 2 + e / D) / (1 + sp.exp(th * D / 2)))
    deriv = identity(sp.diff(L, w).subs(w, D / 2), printed, {"D": ("16", "40"), "theta": ("0.001", "0.01"), "eps": ("0.001", "0.04")}, ctx)
    mid = "(r/(2*D) - r**2/D)*(1 - r/(2*D)) - (r/D)*(1 - r/(2*D) + r**2/D)*(1/2 - r/8)"
    return combine([
        ("printed derivative of L_- at D/2", deriv),
        ("(1+e^x)^-1 <= 1", inequality("1/(1+exp(x)) <= 1", {"x": ("-oo", "oo")}, ctx)),
        ("(1+e^x)^-1 >= 1/2 - x/4 (x >= 0)", _tangent_sigma(ctx)),
        ("theta/2 - eps/D >= 0 (so the first factor bound applies)", inequality("r/(2*D) - r**2/D >= 0", DOM3, ctx)),
        ("middle <= -eps/D + theta^2 D/8", inequality(f"{mid} <= -r**2/D + r**2/(8*D)", DOM3, ctx)),
        ("-eps/D + eps/(8D) <= 0", inequality("-r**2/D + r**2/(8*D) <= 0", DOM3, ctx)),
    ], extra={**EMPTY, "also": "L_- is convex (a positive combination of convex logistic losses)"})


# --------------------------------------------------------------------------- Figures 2 and 4

"""Seed 000 (AIOLI), Lemma 8 (App. C): the steps that need a series expansion or a limit, which a paper
folder's identity cannot state. h(a, b) = (e^{a-b}-1)/(a-b) (1+e^b)/(1+e^a); its printed derivative in b is
``DH_PRINTED``. sympy's series() and limit() compute the values; their identities with the printed values are
exact, but what series()/limit() returned is not a certificate, so the claim is at most verified.
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import combine, identity, inequality, parse
from olr_verify.checks.verdicts import not_a_certificate
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check

NUMERATOR = "(b-a+1)*exp(a-b)-1+(b-a-1)*exp(b)+exp(a)"  # of d_b h, as printed
DH_PRINTED = "((b-a+1)*exp(a-b)-1+(b-a-1)*exp(b)+exp(a))/((a-b)**2*(1+exp(a)))"


@check("000:lemma-8/expansion")
def lemma_8_expansion(ctx: Context) -> Outcome:
    """numerator(a, a+s) = (e^a-1)/2 s^2 + O(s^3); lim_{b->a} d_b h = (e^a-1)/(2(e^a+1)) >= 0; d_b h(0,0) = 0."""
    import sympy as sp

    a, b, s = sp.symbols("a b s")
    series = sp.series(parse(NUMERATOR).subs(b, a + s), s, 0, 3).removeO()
    taylor = identity(series, (sp.exp(a) - 1) / 2 * s**2, {"a": ("0", "5"), "s": ("-1", "1")}, ctx,
                      what="numerator(a, a+s) = (e^a-1)/2 s^2 + O(s^3)")
    limit = identity(sp.limit(parse(DH_PRINTED).subs(b, a + s), s, 0), (sp.exp(a) - 1) / (2 * (sp.exp(a) + 1)),
                     {"a": ("0", "5")}, ctx, what="lim_{b->a} d_b h(a,b) == (e^a-1)/(2(e^a+1))")
    zero = identity(sp.limit(parse(DH_PRINTED).subs(a, 0), b, 0), sp.Integer(0), {}, ctx,
                    what="d_b h(0,0) (sympy limit) == 0")
    return combine([
        ("second-order expansion", not_a_certificate(taylor, "the expansion is sympy's series(), not a certificate")),
        ("limit", not_a_certificate(limit, "the value of the limit is sympy's limit(), not a certificate")),
        ("d_b h(0,0) = 0", not_a_certificate(zero, "the value d_b h(0,0) is sympy's limit(), not a certificate")),
        ("limit >= 0 for a >= 0", inequality("(exp(a)-1)/(exp(a)+1) >= 0", {"a": ("0", "oo")}, ctx))])

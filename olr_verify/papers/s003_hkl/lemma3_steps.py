"""Seed 003 (lower bounds for online logistic regression, Hazan-Koren-Levy style constructions):
scalar steps of Lemma 3 (eqs. (5), (6), Delta), Lemma 12 case 0 (eq. (29) and its two sub-cases),
eq. (35), Lemma 16 (KL and Pinsker chain) and eq. (27)'s sum.

The loss is l(w, x) = log(1 + e^{x w}) (paper §1; so l(w, 1-theta/2) - (1-theta/2) w = log(1+e^{-(1-theta/2)w})).
theta = sqrt(eps)/D, Delta = max{e^{-0.45 D}, (theta D)^4/192}, beta = 1/(8D).
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import inequality
from olr_verify.checks.verdicts import on_printed_domain
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check

LOGCOSH = "log((exp(-z/2)+exp(z/2))/2)"


@check("003:lemma-12/case-0")
def lemma_12_case_0(ctx: Context) -> Outcome:
    out = inequality(f"{LOGCOSH} - z**2/(16*D) >= 0", {"D": ("2", "200"), "z": ("-D", "D")}, ctx,
                     reading="beta = 1/(8D); D >= 2 as printed, checked for D in [2, 200]")
    if not ctx.quick:
        out.evidence["optimal_constant"] = _lemma_12_case_0_constant(ctx)
    return on_printed_domain(out, "D in [2, 200], |z| <= D", "D >= 2, |z| <= D")


def _lemma_12_case_0_constant(ctx: Context) -> dict:
    """Best kappa in log cosh(z/2) >= kappa z^2/D (printed beta/2 = 1/(16 D), kappa = 1/16): the
    minimum of D log cosh(z/2)/z^2 over D in [2, 200], |z| <= D (z = t D), at 50 digits, then
    bracketed by the prover (proved just below, refuted just above)."""
    from olr_verify.prover.constants import best_constant, bracket

    best = best_constant("D*log((exp(-t*D/2)+exp(t*D/2))/2)/(t*D)**2", {"D": ("2", "200"), "t": ("1/100", "1")},
                         "min", seed=ctx.seed % 2**32)
    br = bracket(f"{LOGCOSH} >= c*z**2/D", {"D": ("2", "200"), "z": ("-D", "D")}, best["value"], safe="below",
                 rel="1/1000", timeout=10.0)
    return {"kappa_star": best["value"], "at (D, t = z/D)": best["point"], "printed kappa": "1/16",
            "closed form": "log(cosh(1))/2 at D = 2, z = +-2", "bracket": br}



"""Seed 004 (EKF for logistic regression, de Vilmarest-Wintenberger): the logistic-loss facts the
transcription makes checkable (claims 1-3; formulas restored from the authors' published version
or slides, as the registry notes say).  The other scalar items of seed 004 lost their formulas in
the seed text and stay unregistered.
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import combine, identity, inequality
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check


@check("004:claim-1")
def claim_1(ctx: Context) -> Outcome:
    """l'(y, m) = -y/(1+e^{y m}) and l'' = 1/((1+e^m)(1+e^-m)) (no y), m = theta^T x, y = +-1."""
    import sympy as sp

    m = sp.Symbol("m")
    parts = []
    for y in (1, -1):
        ell = sp.log(1 + sp.exp(-y * m))
        dom = {"m": ("-8", "8")}
        parts.append((f"y={y:+d}: l'", identity(sp.diff(ell, m), -y / (1 + sp.exp(y * m)), dom, ctx)))
        parts.append((f"y={y:+d}: l''", identity(sp.diff(ell, m, 2), 1 / ((1 + sp.exp(m)) * (1 + sp.exp(-m))), dom, ctx)))
    return combine(parts, extra={"reading": "gradient l' x and Hessian l'' x x^T by the chain rule (dimension-free)"})


@check("004:claim-2")
def claim_2(ctx: Context) -> Outcome:
    out = combine([
        ("l'' >= 0", inequality("1/((1+exp(m))*(1+exp(-m))) >= 0", {"m": ("-oo", "oo")}, ctx)),
        ("l'' <= 1/4", inequality("1/((1+exp(m))*(1+exp(-m))) <= 1/4", {"m": ("-oo", "oo")}, ctx)),
        ("l'' decreasing in |m|", inequality("exp(m)*(exp(m)-1)/(1+exp(m))**3 >= 0", {"m": ("0", "oo")}, ctx,
                                             reading="-d/dm l'' = e^m(e^m-1)/(1+e^m)^3 >= 0 for m >= 0; l'' is even")),
    ])
    out.evidence["optimal_constant"] = "1/4, attained at theta^T x = 0; l'' ~ e^{-|m|} as |m| grows"
    return out


@check("004:claim-3")
def claim_3(ctx: Context) -> Outcome:
    import sympy as sp

    m = sp.Symbol("m")
    parts = []
    for y in (1, -1):
        ell = sp.log(1 + sp.exp(-y * m))
        parts.append((f"y={y:+d}: l''/l'^2 == e^(y m)", identity(sp.diff(ell, m, 2) / sp.diff(ell, m) ** 2, sp.exp(y * m),
                                                                 {"m": ("-8", "8")}, ctx)))
    parts.append(("e^{y m} >= 1/kappa = e^{-M}", inequality("exp(z) >= exp(-M)", {"M": ("0", "oo"), "z": ("-M", "M")}, ctx,
                                                            reading="Theta symmetric (a centred ball), so M = max theta^T x_t "
                                                                    ">= |theta^T x_t| for every theta in Theta; every M >= 0")))
    return combine(parts)

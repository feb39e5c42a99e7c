"""Seed 001 (GAF): scalar links of Proposition 3's proof ((8)-(10)), claim-3, Lemma 6 step 3, (16), Corollary 2.

Relations are decided by :func:`olr_verify.checks.scalar_common.inequality` (the arb prover first, a confirmed
search second) and exact sympy identities; every printed link is checked as printed, and corrected variants
are separate claims (``olr_verify/papers/s001_gaf/paper.toml``).
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import combine, identity, inequality, parse
from olr_verify.artefacts import replayer
from olr_verify.checks.verdicts import not_a_certificate
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check


@check("001:equation-8")
def equation_8(ctx: Context) -> Outcome:
    """(8): the printed scalar fact, the event inclusion it is used for, and the last link (smooth >= mu/K)."""
    fact = inequality("exp(-e) - 1 <= 1 - 2*e", {"e": ("0", "1/2")}, ctx,
                      reading="as printed: e^{-eps}-1 <= 1-2 eps on (0, 1/2)")
    incl = _inclusion_counterexample()
    last = inequality("2*((1-mu)*p + mu/K) >= mu/K", {"K": ("1", "100"), "mu": ("0", "1/2"), "p": ("0", "1")}, ctx,
                      reading="exponents of the last link divided by eps^2 m > 0: 2 eps^2 m pbar >= eps^2 m mu/K "
                              "with pbar = smooth_mu(p)_y = (1-mu)p + mu/K")
    return combine([("printed fact e^-eps - 1 <= 1 - 2eps", fact),
                    ("first inequality P[l~-l> eps] <= P[p~ < (1-2eps) pbar]", incl),
                    ("last link", last)])


def _probs(eps, mu, s, dps=60):
    """K = 2, m = 1, omega_1 - omega_0 ~ N(0, s^2): p~ = smooth_mu(expit(omega_1 - omega_0)), pbar = 1/2 (symmetry).
    Returns (P[p~ < e^{-eps} pbar], P[p~ < (1-2eps) pbar]) exactly via Phi(logit(.)/s)."""
    import mpmath as mp

    def exact(v):  # float, int, Fraction or "p/q" string, converted without rounding to float
        from fractions import Fraction

        v = Fraction(v) if isinstance(v, str) else v
        return mp.mpf(v.numerator) / v.denominator if isinstance(v, Fraction) else mp.mpf(v)

    with mp.workdps(dps):
        eps, mu, s = exact(eps), exact(mu), exact(s)
        pbar = mp.mpf(1) / 2

        def prob(c):                           # P[(1-mu) expit(sZ) + mu/2 < c]
            u = (c - mu / 2) / (1 - mu)
            return mp.ncdf(mp.log(u / (1 - u)) / s)
        return prob(mp.exp(-eps) * pbar), prob((1 - 2 * eps) * pbar)


def _inclusion_counterexample() -> Outcome:
    pt = {"eps": "1/4", "mu": "1/4", "s": "1", "K": "2", "m": "1"}
    p1, p2 = _probs(pt["eps"], pt["mu"], pt["s"])
    art = {"replay": {"type": "gaf_chernoff_inclusion", **pt},
           "what": "P[l(y~)-l(ybar) > eps] = P[p~ < e^{-eps} pbar] exceeds P[p~ < (1-2 eps) pbar]"}
    ev = {"instance": pt, "P_left": str(p1)[:30], "P_right": str(p2)[:30],
          "reason": "e^{-eps} > 1 - 2eps, so the event {p~ < e^{-eps} pbar} is the LARGER one"}
    if p1 > p2:
        return Outcome("refuted", "exact 60-digit probabilities of an explicit instance (K=2, m=1)", ev, art)
    return Outcome("error", "instance did not violate", ev)


@replayer("gaf_chernoff_inclusion")
def replay_inclusion(art: dict):
    r = art["replay"]
    p1, p2 = _probs(r["eps"], r["mu"], r["s"])
    return bool(p1 > p2), {"P_left": str(p1), "P_right": str(p2)}


_ = parse


@check("001:equation-16")
def equation_16(ctx: Context) -> Outcome:
    """Chain (16): E e^{X/4} = sqrt 2 for X ~ chi^2_1 (the density integrated by sympy: not a certificate, so
    the claim is at most verified), the Jensen step, and the last step <= 2."""
    import sympy as sp

    t, X = sp.symbols("t X", positive=True)
    mgf = sp.integrate(sp.exp(t * X) * X ** sp.Rational(-1, 2) * sp.exp(-X / 2) / sp.sqrt(2 * sp.pi), (X, 0, sp.oo),
                       conds="none")
    mgf_ok = identity(sp.simplify(mgf.subs(t, sp.Rational(1, 4))), sp.sqrt(2), {}, ctx,
                      what="E exp(X/4) = sqrt(2) for X ~ chi^2_1 (density integrated exactly)")
    jensen = inequality("-log(1-2*c)/4 <= c*log(2)", {"c": ("0", "1/4")}, ctx,
                        reading="(E e^{cX})^{d/2} = (1-2c)^{-d/4} <= 2^{dc} = (E e^{X/4})^{2dc}, c = zeta/(alpha lam) "
                                "<= 1/4")
    last = inequality("2**y <= 2", {"y": ("0", "1")}, ctx,
                      reading="y = d z with z = zeta/(lam alpha) <= 1/d since lam >= d zeta/alpha, so y in [0, 1] "
                              "for every d >= 1")
    mgf_ok = not_a_certificate(mgf_ok, "the moment generating function is sympy's integrate(), not a certificate")
    return combine([("chi^2 mgf at 1/4", mgf_ok), ("Jensen step", jensen), ("<= 2", last)])

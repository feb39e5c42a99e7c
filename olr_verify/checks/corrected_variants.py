"""Corrected variants of printed slips, and printed proof steps that were read silently in a corrected form.

Every ``slip`` or ``domain`` refutation needs a corrected variant (``variant_of``) decided in the same run
(shared/CONTRACT.md); the variants that no other module provides live here. So do the printed texts that a
check elsewhere used to decide under a corrected reading: each is now its own claim, decided as printed.

Status policy: a variant here is ``proved`` only if one certificate covers its whole statement. A chain glued
by a prose step (a change of basis, a scaling, the mean value theorem, a Gaussian integral) is capped at
``verified`` (:func:`olr_verify.checks.verdicts.not_a_certificate`), a proof on a normalised box likewise
(:func:`olr_verify.checks.verdicts.on_printed_domain`).
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import combine, identity, inequality
from olr_verify.checks.verdicts import not_a_certificate, worse
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check


# --------------------------------------------------------------------------- 001: Claim 2 (squared loss, VAW)
def _gaussian_side(u, c, y, Y, dps: int = 50):
    """-(1/α) log E exp(-α(θᵀx - y)²), θᵀx ~ N(u, c/(2α)), α = 1/(2Y²): by quadrature, and in closed form."""
    import mpmath

    with mpmath.workdps(dps):
        u, c, y, Y = (mpmath.mpf(v) for v in (u, c, y, Y))
        alpha, s2 = 1 / (2 * Y ** 2), c * Y ** 2
        def integrand(z):
            return mpmath.exp(-(z - u) ** 2 / (2 * s2) - alpha * (z - y) ** 2) / mpmath.sqrt(2 * mpmath.pi * s2)

        mean = mpmath.quad(integrand, [-mpmath.inf, u, mpmath.inf])
        return -mpmath.log(mean) / alpha, (u - y) ** 2 / (1 + c) + Y ** 2 * mpmath.log1p(c)


@check("001:claim-2/corrected")
def claim_2_corrected(ctx: Context) -> Outcome:
    """(4) at ŷ = θ̂ᵀx with θ̂ = argmin L_{t-1}(θ) + (θᵀx_t)²: with u = θ_tᵀx_t and c = x_tᵀA_{t-1}^{-1}x_t,
    ŷ = u/(1+c) (Sherman-Morrison) and the right side of (4) is (u-y)²/(1+c) + Y² log(1+c)."""
    import mpmath
    import numpy as np

    import sympy as sp
    u, c, y, a, x, b = sp.symbols("u c y a x b")
    rng = np.random.default_rng(ctx.seed)
    worst = mpmath.mpf(0)
    points = []
    for _ in range(3 if ctx.quick else 8):
        draws = (rng.normal(0, 2), rng.exponential(2), rng.uniform(-1, 1))
        pt = [str(sp.Rational(round(v * 1000), 1000)) for v in draws]
        quad, closed = _gaussian_side(pt[0], pt[1], pt[2], "1")
        worst = worse(worst, abs(quad - closed))
        points.append(pt)
    closed_ok = Outcome("verified" if worst < mpmath.mpf(10) ** -30 else "inconclusive",
                        "50-digit quadrature of the Gaussian integral vs its closed form",
                        {"points (u, c, y), Y = 1": points, "max_difference": mpmath.nstr(worst, 5)})
    gap = (u / (1 + c) - y) ** 2 - (u - y) ** 2 / (1 + c)
    out = combine([
        ("VAW prediction (d = 1): x b/(a + x^2) == (x b/a)/(1 + x^2/a)",
         identity(x * b / (a + x ** 2), (x * b / a) / (1 + x ** 2 / a),
                  {"a": ("1/10", "10"), "x": ("-3", "3"), "b": ("-3", "3")}, ctx)),
        ("right side of (4) in closed form (Gaussian integral)", closed_ok),
        ("(u/(1+c) - y)^2 - (u-y)^2/(1+c) == y^2 c/(1+c) - u^2 c/(1+c)^2",
         identity(gap, y ** 2 * c / (1 + c) - u ** 2 * c / (1 + c) ** 2,
                  {"u": ("-5", "5"), "c": ("0", "10"), "y": ("-1", "1")}, ctx)),
        ("y^2 c/(1+c) <= Y^2 log(1+c), |y| <= Y = 1",
         inequality("y**2*c/(1+c) <= log(1+c)", {"c": ("0", "oo"), "y": ("-1", "1")}, ctx)),
        ("-u^2 c/(1+c)^2 <= 0", inequality("-u**2*c/(1+c)**2 <= 0", {"c": ("0", "oo"), "u": ("-oo", "oo")}, ctx)),
    ], extra={"reading": "P~_{t-1} = N(theta_t, A_{t-1}^{-1}/(2 alpha)) for the squared loss, alpha = 1/(2Y^2); "
                         "then theta^T x_t ~ N(u, c/(2 alpha)) and (4) reads "
                         "(y_hat - y)^2 <= (u-y)^2/(1+c) + Y^2 log(1+c)"})
    return not_a_certificate(out, "Sherman-Morrison in d dimensions, the scaling y -> y/Y, and the Gaussian "
                                  "integral (checked by quadrature at 50 digits, not certified)")


# --------------------------------------------------------------------------- 002: Algorithm 2, Appendix D
def _appendix_d_from_sums(X, G, alpha):
    """ŷ_t of App. D with Γ_{t-1} = Σ_{q<t} g_q² x_qᵀS_q^†x_q, every quantity recomputed from the sums (mpmath)."""
    import numpy as np

    from olr_verify.hunting.numerics import MP

    d = len(X[0])

    def S(t):  # S_t = sum_{q <= t} x_q x_q^T (0-based t)
        return sum((np.outer(X[q], X[q]) for q in range(t + 1)), MP.zeros((d, d)))

    out = []
    for t in range(len(X)):
        h = sum((-G[q] * X[q] for q in range(t)), MP.zeros(d))
        gamma = sum((G[q] ** 2 * (X[q] @ MP.pinv_sym(S(q)) @ X[q]) for q in range(t)), MP.num(0))
        P = MP.pinv_sym(S(t))
        out.append(MP.exp((h @ P @ h - gamma) / (2 * alpha)) / alpha * (X[t] @ P @ h))
    return out


@check("002:algorithm-2/appendix-d/corrected")
def algorithm_2_appendix_d_corrected(ctx: Context) -> Outcome:
    import mpmath
    import numpy as np

    from olr_verify.hunting import highprec_learners as hl
    from olr_verify.hunting.numerics import MP

    rng = np.random.default_rng(ctx.seed)
    worst, cases = mpmath.mpf(0), []
    with mpmath.workdps(50):
        for k in range(2 if ctx.quick else 6):
            d, n = 2 + k % 2, 6
            X = [[str(int(v)) for v in rng.integers(-2, 3, d)] for _ in range(n)]
            X[0][1:] = ["0"] * (d - 1)  # rank-deficient start: S_t singular for a while
            G = [str(mpmath.mpf(int(v)) / 2) for v in rng.integers(-2, 3, n)]
            Xm, Gm, alpha = MP.arr(X), [MP.num(g) for g in G], MP.num("1.5")
            box = hl.ScaleInvariant2(d, alpha, K=MP)
            recursion = []
            for x, g in zip(Xm, Gm):
                recursion.append(box.predict(x))
                box.update_gradient(x, g)
            sums = _appendix_d_from_sums(Xm, Gm, alpha)
            for a, b in zip(recursion, sums):
                worst = worse(worst, abs(a - b))
            cases.append({"X": X, "G": G})
    ev = {"cases": cases, "alpha": "3/2", "max_gap_50_digits": mpmath.nstr(worst, 5),
          "compared": "Algorithm 2's recursion (olr_verify.hunting.highprec_learners.ScaleInvariant2, mpmath) vs "
                      "the App. D formulas with S_q^+ in term q, recomputed from the sums"}
    if worst < mpmath.mpf(10) ** -35:
        return Outcome("verified", "50-digit comparison on seeded rational data (not a proof)", ev)
    return Outcome("inconclusive", "the corrected App. D formulas differ from the recursion at 50 digits", ev)


def variant_ids() -> tuple[str, ...]:
    """The claims this module decides (for tests)."""
    return ("000:lemma-3/step-5-6/corrected", "001:claim-2/corrected", "001:claim-3/corrected",
            "002:algorithm-2/appendix-d/corrected", "002:equation-11/multiplier",
            "002:equation-11/multiplier/corrected", "003:lemma-16/pinsker-as-printed",
            "004:claim-18/corrected")


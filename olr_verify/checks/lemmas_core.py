"""Seed 002 Lemma A.1 and seed 000 Lemmas 5 and 8, decided by the scalar prover.

- ``002:lemma-a.1``: ``x + e^{-x} <= e^{(9/16) x^2}`` (alpha_0 = 9/8) for all real x (seed 002,
  Appendix A statement, Appendix F proof); optimal constant c* = sup log(x+e^{-x})/x^2 bracketed.
- ``000:lemma-5``: ``f(a) >= f(b) + f'(b)(a-b) + e^b/(2(1+C)) f'(b)^2 (a-b)^2`` with
  ``f(x) = log(1+e^{-x})`` (seed 000, §3.1 / App. C), on C in [1/10, 10], a in [-C, C], b real
  (the issue's range; the lemma says C > 0); best alpha at C = 1 bracketed against 1/(1+C).
- ``000:lemma-8``: ``1/(1+|a|) <= h(a,b) = (e^{a-b}-1)/(a-b) (1+e^b)/(1+e^a)``, h(a,a) = 1
  (seed 000, App. C); best constant min_b h(1, b) bracketed against 1/(1+|a|) at a = 1.
"""
from __future__ import annotations

from olr_verify.outcome import Context, Outcome
from olr_verify.prover.replay import replay_scalar  # noqa: F401  (registers the "scalar" replayer)
from olr_verify.registry import check

LEMMA_A1 = "x + exp(-x) <= exp(9*x**2/16)"
LEMMA_5 = ("log(1+exp(-a)) >= log(1+exp(-b)) - (a-b)/(1+exp(b)) "
           "+ exp(b)/(2*(1+C))*(1/(1+exp(b)))**2*(a-b)**2")
LEMMA_5_DOMAIN = {"C": ("1/10", "10"), "a": ("-C", "C"), "b": ("-oo", "oo")}
LEMMA_8 = "1/(1+Abs(a)) <= (exp(a-b)-1)/(a-b)*(1+exp(b))/(1+exp(a))"


def _summary(res) -> dict:
    c = res.certificate
    keep = ("boxes", "closers", "tails", "touching_manifolds", "rewrites", "core_box", "proved_box", "reason",
            "search", "refutation")
    out = {k: c[k] for k in keep if k in c}
    tp = [p for r in c.get("regions", []) for p in r.get("touching_points", [])]
    if tp:
        out["touching_points"] = tp[:4]
    return out


def _decide(claim: str, relation: str, domain: dict, ctx: Context, extra: dict, timeout: float) -> Outcome:
    from olr_verify.prover import prove

    res = prove(relation, domain, timeout=timeout, seed=ctx.seed % 2**32)
    ev = {"relation": relation, "domain": {k: list(v) for k, v in domain.items()}, "prover_status": res.status,
          "seconds": round(res.seconds, 3), "certificate": _summary(res), **extra}
    if res.status == "refuted":
        art = {"replay": {"type": "scalar", "relation": relation, "point": res.counterexample,
                          "domain": {k: list(v) for k, v in domain.items()}}}
        ev["counterexample"] = res.counterexample
        return Outcome("refuted", "prover counterexample, confirmed in arb at 200 bits", ev, art)
    if res.status == "proved":
        return Outcome("proved", "arb branch-and-bound (olr_verify.prover)", ev)
    if res.status == "verified":
        return Outcome("verified", "arb branch-and-bound on the bounded core; tails only searched", ev)
    return Outcome("inconclusive", "prover undecided", ev)


def _slack_map(ctx: Context, name: str, relation: str, fixed: dict, title: str, caption: str) -> dict:
    """Heat map of the slack (rhs - lhs of ``relation``) over a grid of (a, b), other variables fixed.

    A picture of where the inequality is tight (slack near 0, e.g. the touching line a = b), computed in
    float64 on a grid: an illustration for the reader, not part of the certificate."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import sympy as sp

    rel = sp.sympify(relation)
    slack = (rel.lhs - rel.rhs if isinstance(rel, sp.GreaterThan) else rel.rhs - rel.lhs).subs(fixed)
    a, b = sp.symbols("a b")
    f = sp.lambdify((a, b), slack, "numpy")
    A, Bg = np.meshgrid(np.linspace(-6, 6, 241), np.linspace(-8, 8, 321), indexing="xy")
    if "C" in fixed:
        A = A * float(fixed["C"]) / 6
    with np.errstate(all="ignore"):
        Z = np.asarray(f(A, Bg), dtype=float)
    fig, ax = plt.subplots(figsize=(5.2, 4))
    im = ax.pcolormesh(A, Bg, np.log10(np.maximum(Z, 1e-12)), shading="auto", cmap="viridis")
    fig.colorbar(im, ax=ax, label="log10(slack)")
    ax.set_xlabel("a")
    ax.set_ylabel("b")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(ctx.figure_path(name), dpi=90)
    plt.close(fig)
    return Context.figure_entry(name, caption)


@check("002:lemma-a.1")
def lemma_a1(ctx: Context) -> Outcome:
    from olr_verify.prover.constants import best_constant, bracket

    best = best_constant("log(x+exp(-x))/x**2", {"x": ("-3", "-1/100")}, "max", seed=ctx.seed % 2**32)
    br = bracket("x + exp(-x) <= exp(c*x**2)", {"x": ("-oo", "oo")}, best["value"], safe="above",
                 rel="1/100000", timeout=5.0)
    extra = {"optimal_constant": {"c_star (x+e^-x <= e^{c x^2})": best["value"], "at": best["point"],
                                  "alpha0_star = 2 c*": str(2 * float(best["value"])),
                                  "printed alpha0": "9/8 = 1.125", "bracket": br}}
    return _decide("002:lemma-a.1", LEMMA_A1, {"x": ("-oo", "oo")}, ctx, extra, 10.0)


@check("000:lemma-5")
def lemma_5(ctx: Context) -> Outcome:
    extra: dict = {"range_note": "C restricted to [1/10, 10] (issue 3); the lemma states C > 0"}
    if not ctx.quick:
        from olr_verify.prover.constants import best_constant, bracket

        ratio = ("(log(1+exp(-a)) - log(1+exp(-b)) + (a-b)/(1+exp(b)))"
                 "/ (exp(b)/2*(1/(1+exp(b)))**2*(a-b)**2)")
        best = best_constant(ratio, {"a": ("-1", "1"), "b": ("-12", "12")}, "min", seed=ctx.seed % 2**32)
        tmpl = ("log(1+exp(-a)) >= log(1+exp(-b)) - (a-b)/(1+exp(b)) + c*exp(b)/2*(1/(1+exp(b)))**2*(a-b)**2")
        br = bracket(tmpl, {"a": ("-1", "1"), "b": ("-oo", "oo")}, best["value"], safe="below", rel="1/1000",
                     timeout=6.0)
        extra["optimal_constant_at_C=1"] = {"alpha_star": best["value"], "at": best["point"],
                                           "printed alpha = 1/(1+C)": "1/2", "bracket": br}
    extra["figures"] = [_slack_map(ctx, "000_lemma5_slack.png", LEMMA_5, {"C": 1}, "000 Lemma 5 slack, C = 1",
                                   "Slack of 000 Lemma 5 over a ∈ [−C, C], b ∈ [−8, 8] at C = 1 (log10, float "
                                   "grid; illustration only). It vanishes on the line a = b: the touching "
                                   "manifold the prover handles by an exact reduction.")]
    return _decide("000:lemma-5", LEMMA_5, LEMMA_5_DOMAIN, ctx, extra, 8.0 if ctx.quick else 25.0)


@check("000:lemma-8")
def lemma_8(ctx: Context) -> Outcome:
    extra: dict = {}
    if not ctx.quick:
        from olr_verify.prover.constants import best_constant, bracket

        h = "(exp(1-b)-1)/(1-b)*(1+exp(b))/(1+exp(1))"
        best = best_constant(h, {"b": ("-6", "6")}, "min", seed=ctx.seed % 2**32)
        br = bracket(f"c <= {h}", {"b": ("-oo", "oo")}, best["value"], safe="below", rel="1/1000", timeout=4.0)
        extra["optimal_constant_at_a=1"] = {"min_b h(1,b)": best["value"], "at": best["point"],
                                           "printed 1/(1+|a|)": "1/2", "bracket": br}
    extra["figures"] = [_slack_map(ctx, "000_lemma8_slack.png", LEMMA_8, {}, "000 Lemma 8 slack",
                                   "Slack h(a, b) − 1/(1+|a|) of 000 Lemma 8 over a ∈ [−6, 6], b ∈ [−8, 8] "
                                   "(log10, float grid; illustration only): smallest along a = b near a = 0, "
                                   "where both sides equal 1.")]
    return _decide("000:lemma-8", LEMMA_8, {"a": ("-oo", "oo"), "b": ("-oo", "oo")}, ctx, extra, 10.0)

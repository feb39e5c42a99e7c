"""Glue between a hunt and a registered check: budget, confirmation, status and evidence.

Status rules (issue 6): a violation confirmed at 50 and 80 digits is ``refuted`` with its artefact;
otherwise ``verified`` with the best regret/bound ratio reached, the number of sequences, the time,
and the ratio of the best simple baseline adversary (random / greedy).  Float64 violations that do
not survive the replay are listed as ``near_violations`` in the evidence.
"""
from __future__ import annotations

import zlib

from olr_verify.outcome import Context, Outcome


def claim_seed(ctx: Context, claim: str) -> int:
    return (ctx.seed ^ zlib.crc32(claim.encode())) & 0x7FFFFFFF


def budget(ctx: Context, full: int = 400, quick: int = 60) -> tuple[int, float]:
    """(max sequences, time cap in s): the evaluation count keeps the hunt deterministic."""
    return (quick, 2.5) if ctx.quick else (full, 25.0)


def hunt_outcome(claim: str, ctx: Context, params: dict | None = None, full: int = 400, quick: int = 60,
                 note: str = "") -> Outcome:
    from olr_verify.hunting.bounds import TARGETS
    from olr_verify.hunting.confirm import confirm
    from olr_verify.hunting.optimisers import hunt

    evals, cap = budget(ctx, full, quick)
    seed = claim_seed(ctx, claim)
    res = hunt(claim, cap, seed, params=params, max_evals=evals)
    t = TARGETS[claim]
    ev = {**res.summary(), "params": {k: v for k, v in (res.best.seq.params if res.best.seq else {}).items()},
          "learner": t.learner, "hunters_reach_baseline": res.best.ratio >= res.baseline.ratio,
          "seed": seed, "statement_checked": t.bound.__doc__.strip().splitlines()[0]}
    if res.progress:
        ev["figures"] = [progress_figure(ctx, claim, res)]
    if t.note or note:
        ev["note"] = (t.note + " " + note).strip()
    method = ("adversarial hunt (random, greedy adaptive, paper seeds, local search) in float64; "
              "candidates replayed at 50/80 digits with mpmath")
    if res.best.seq is not None and res.best.ratio > 1:
        ok, details, art = confirm(claim, res.best.seq, res.best.cmp, res.best.lhs, res.best.rhs,
                                   res.best.how, seed)
        if ok:
            ev["highprec"] = details
            return Outcome("refuted", method, ev, art)
        ev["near_violations"] = [{"float64_ratio": res.best.ratio, **details}]
    return Outcome("verified", method, ev)


def progress_figure(ctx: Context, claim: str, res) -> dict:
    """Best regret/bound ratio against sequences evaluated, with the baseline adversaries' best."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    evals, ratios = zip(*res.progress)
    fig, ax = plt.subplots(figsize=(5, 3))
    ax.step(list(evals) + [res.evaluated], list(ratios) + [ratios[-1]], where="post", label="best found")
    ax.axhline(res.baseline.ratio, color="gray", ls=":", label="best random/greedy baseline")
    ax.axhline(1.0, color="r", ls="--", label="bound (ratio 1)")
    ax.set_xlabel("sequences evaluated")
    ax.set_ylabel("regret / bound")
    ax.set_title(f"hunting {claim}", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    name = "hunt_" + claim.replace(":", "_").replace("/", "__") + ".png"
    fig.savefig(ctx.figure_path(name), dpi=90)
    plt.close(fig)
    return Context.figure_entry(name, f"Hunting progress on {claim}: the best regret/bound ratio found as "
                                      "sequences are evaluated. Above the red line is a float64 candidate "
                                      "violation (counted only after the 50-digit replay).")

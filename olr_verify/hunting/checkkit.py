"""Glue between a hunt and a registered check: budget, confirmation, status and evidence.

Status rules (issues 6, 14, 15):

- a float64 violation confirmed at 50 and 80 digits is ``refuted`` with its artefact;
- a float64 violation that the replay can neither confirm nor dismiss (the precisions disagree, or
  the margin is below the precision) is ``inconclusive``: an unconfirmed violation is never
  ``verified``; every region's largest violation is replayed (up to ``optimisers.MAX_CANDIDATES``; more
  is ``inconclusive`` too);
- a float64 violation above rounding level at a probe point (``optimisers.probe``: n = 10^3, 10^4,
  d = 16 ... 10^4; too long to replay) is ``inconclusive`` too;
- otherwise (no float64 violation, or every candidate shown to satisfy lhs <= rhs at 50/80 digits)
  ``verified``, with the best regret/bound ratio reached, the parameter region explored, the worst
  ratio per region, a heat map over the two most influential parameters, and the ratio of the best
  simple baseline adversary (random / greedy).  Dismissed candidates are listed as
  ``near_violations``.

The budget is deterministic: a number of sequences and of rounds simulated (``units of work``),
never seconds, so the same seed gives the same status on an idle and on a loaded machine.
"""
from __future__ import annotations

import zlib
from typing import Callable

from olr_verify.outcome import Context, Outcome

NEAR_SHOWN = 8  # near violations listed in the evidence (all are counted)
METHOD = ("adversarial hunt over parameters and sequences jointly (boundary points and log-uniform draws of the "
          "printed parameter ranges; random, greedy adaptive and the papers' sequences; local search over both) "
          "in float64; candidates replayed at 50/80 digits with mpmath")


def claim_seed(ctx: Context, claim: str) -> int:
    return (ctx.seed ^ zlib.crc32(claim.encode())) & 0x7FFFFFFF


def budget(ctx: Context, full: int = 400, quick: int = 60, n_default: int = 30) -> tuple[int, int]:
    """(max sequences, max rounds simulated): a deterministic budget in units of work."""
    evals = quick if ctx.quick else full
    return evals, evals * n_default


def hunt_check(claim: str, full: int = 400, quick: int = 60, note: str = "") -> Callable[[Context], Outcome]:
    """The check function that hunts ``claim`` (a target of :data:`olr_verify.hunting.bounds.TARGETS`)."""
    def fn(ctx: Context) -> Outcome:
        return hunt_outcome(claim, ctx, full=full, quick=quick, note=note)

    fn.__name__ = "hunt_" + claim.replace(":", "_").replace("-", "_").replace("/", "__").replace(".", "_")
    return fn


def hunt_outcome(claim: str, ctx: Context, params: dict | None = None, full: int = 400, quick: int = 60,
                 note: str = "") -> Outcome:
    """Hunt ``claim`` (parameters in ``params`` pinned, the others searched) and decide its status."""
    from olr_verify.hunting.bounds import TARGETS
    from olr_verify.hunting.optimisers import hunt, probe

    t = TARGETS[claim]
    evals, work = budget(ctx, full, quick, int(t.defaults.get("n", 30)))
    seed = claim_seed(ctx, claim)
    res = hunt(claim, seed=seed, params=params, max_evals=evals, max_work=work)
    if not ctx.quick:
        res = probe(res, seed)
    ev = {**res.summary(), "params": dict(res.best.seq.params) if res.best.seq else {},
          "learner": t.learner, "hunters_reach_baseline": res.best.ratio >= res.baseline.ratio,
          "seed": seed, "budget": {"sequences": evals, "rounds": work},
          "statement_checked": t.bound.__doc__.strip().splitlines()[0]}
    ev.update(region_evidence(res))
    if res.probes:
        ev["probes"] = _probe_summary(res.probes)
    figures = [progress_figure(ctx, claim, res)] if res.progress else []
    heat = heatmap_figure(ctx, claim, res)
    if heat:
        figures.append(heat)
    if figures:
        ev["figures"] = figures
    if t.note or note:
        ev["note"] = (t.note + " " + note).strip()
    status, art = decide(claim, res, seed, ev)
    return Outcome(status, METHOD, ev, art)


def decide(claim: str, res, seed: int, ev: dict) -> tuple[str, dict | None]:
    """Replay the float64 candidates (largest ratio first): refuted / inconclusive / verified (see module)."""
    from olr_verify.hunting.confirm import confirm

    unresolved, dismissed = [], []
    for cand in res.candidates:
        ok, details, art = confirm(claim, cand.seq, cand.cmp, cand.lhs, cand.rhs, cand.how, seed)
        if ok:
            ev["highprec"] = details
            ev["witness_params"] = dict(cand.seq.params)
            return "refuted", art
        entry = {"float64_ratio": cand.ratio, "params": dict(cand.seq.params), **details}
        (dismissed if details.get("replay_outcome") == "dismissed" else unresolved).append(entry)
    if dismissed or unresolved:
        ev["near_violations"] = (unresolved + dismissed)[:NEAR_SHOWN]
        ev["near_violations_replayed"] = {"dismissed": len(dismissed), "unresolved": len(unresolved)}
    if res.unreplayed:
        ev["reason"] = (f"{res.unreplayed} more float64 violation(s) (one per region of the parameter space) than the "
                        f"{len(res.candidates)} replayed at 50/80 digits: a violation neither confirmed nor dismissed "
                        "is not evidence that the bound holds")
        return "inconclusive", None
    if unresolved:
        ev["reason"] = ("a float64 violation was neither confirmed nor dismissed by the 50/80-digit replay: "
                        "an unconfirmed violation is not evidence that the bound holds")
        return "inconclusive", None
    if res.evaluated == 0:
        ev["reason"] = "no sequence was evaluated: nothing was tested"
        return "inconclusive", None
    if not res.could_fail:
        ev["reason"] = ("vacuous on what was tried: on every sequence evaluated (probes included) the bound was at "
                        "least the largest regret the run allows (each round at most log(1 + e^{|prediction|}) minus "
                        "the comparator class's least loss, olr_verify.hunting.run_quantities.regret_cap): the hunt "
                        "could not fail, so it shows nothing")
        return "inconclusive", None
    if res.undecided:
        ev["reason"] = (f"{res.undecided} sequence(s) gave a NaN, an arithmetic error, or an infinite regret or "
                        "bound on the violating side in float64: a violation there is neither confirmed nor dismissed")
        ev["first_undecided_sequence"] = res.undecided_at
        return "inconclusive", None
    if getattr(res, "probe_violations", None):
        ev["probe_violations"] = res.probe_violations[:4]
        ev["reason"] = ("a probe beyond the densely searched range (see probe_violations) found a float64 violation "
                        "above rounding level; probes are not replayed at 50/80 digits (10^3 and 10^4 rounds are "
                        "too long for the high-precision twins, and a probe of d beyond n runs in the span of its "
                        "inputs, which the replay does not model), so it is neither confirmed nor dismissed")
        return "inconclusive", None
    return "verified", None


def _probe_summary(probes: list[dict]) -> dict:
    """Per probed parameter value: sequences tried and the worst ratio (with where it was reached)."""
    out: dict = {}
    for row in probes:
        key = f"{row['param']} = {row['value']}"
        entry = out.setdefault(key, {"sequences": 0, "worst_ratio": None, "worst_at": None})
        entry["sequences"] += 1
        if "run_dimension" in row:  # d beyond n: run exactly in the span of the inputs (optimisers._generate_in_span)
            entry["run_in_span_of_dimension_at_most"] = max(entry.get("run_in_span_of_dimension_at_most", 0),
                                                            row["run_dimension"])
        if "not_replayed" in row:
            entry["rounding_level_violations_not_replayed"] = entry.get("rounding_level_violations_not_replayed", 0) + 1
        if row["ratio"] is not None and (entry["worst_ratio"] is None or row["ratio"] > entry["worst_ratio"]):
            entry["worst_ratio"], entry["worst_at"] = row["ratio"], f"{row['at']}, {row['adversary']} adversary"
    return out


def region_evidence(res) -> dict:
    """What part of the hypothesis space was explored, which parameters were fixed and why, worst per region."""
    from olr_verify.hunting.space import space_for

    space = space_for(res.claim)
    fixed = {k: f"pinned by the check at {v}" for k, v in res.pinned.items()}
    if space is None or res.region is None:
        return {"parameter_region": "a single point (no parameter space declared)", "fixed_parameters": fixed}
    fixed.update(space.fixed)
    reg = res.region
    return {"parameter_space": space.describe(res.pinned), "parameters_explored": reg.explored(),
            "fixed_parameters": fixed, "ranges_capped": dict(space.capped),
            "worst_ratio_by_region": reg.per_parameter(),
            "parameter_influence": [[n, round(s, 6)] for n, s in reg.influence()],
            "evaluations_not_finite_in_float64": reg.failed}


def _figure_name(prefix: str, claim: str) -> str:
    return prefix + claim.replace(":", "_").replace("/", "__") + ".png"


def heatmap_figure(ctx: Context, claim: str, res) -> dict | None:
    """Worst regret/bound ratio over the two most influential parameters (None for a one-parameter space)."""
    if res.region is None:
        return None
    name = _figure_name("hunt_heatmap_", claim)
    axes = res.region.heatmap(ctx.figure_path(name), f"{claim}: worst regret/bound per region")
    if axes is None:
        return None
    return Context.figure_entry(name, f"Worst regret/bound ratio found by the hunt on {claim} over {axes[0]} and "
                                      f"{axes[1]} (the two parameters whose region changes the worst ratio most), "
                                      "all other parameters searched too; '-' marks a region never evaluated. "
                                      "Above 1 is a float64 candidate violation (counted only after the 50-digit "
                                      "replay).")


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
    return ctx.save_figure(fig, _figure_name("hunt_", claim),
                           f"Hunting progress on {claim}: the best regret/bound ratio found as sequences are "
                           "evaluated. Above the red line is a float64 candidate violation (counted only after the "
                           "50-digit replay).")

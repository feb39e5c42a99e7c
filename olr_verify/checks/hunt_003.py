"""Seed 003: the lower-bound constructions (Theorem 2, Theorem 4, Corollaries 7, 8) simulated in their printed regimes against the proper learners of the proofs and every learner of algorithms/
(improper ones included: AIOLI, SurrogateFTL, Foster (1-D), GAF with K = 2, EKF, ...), on the 1-D construction
(Figure 2, D = 20) and on the 2-D one (Figure 4, D = 24, T = 5402 = T_min + 2 of Lemma 5's regime). Theorem 9,
eq. (13) and Lemmas 11 and 13 are hunted as the paper.toml declares them."""
import math

from olr_verify.outcome import Outcome
from olr_verify.registry import check


def _regime_start(which: str) -> float:
    """Smallest D (to 0.01) from which the construction's regime is non-empty (Lemma 3 / Lemma 5)."""
    from olr_verify.hunting.constructions import regime_theorem_2, regime_theorem_4

    regime = regime_theorem_2 if which == "1d" else regime_theorem_4
    D = 1.0 if which == "1d" else 2.0
    while regime(D)["empty"] and D < 100:
        D = round(D + 0.01, 2)
    return D


def _every_budget(which: str, quick: bool) -> dict:
    """Work budget of the every-learner run: 1-D at the regime's T; 2-D at T = 5402 (T_min + 2 of Lemma 5),
    except FTL, FTRL and SOS (O(t) per round) at T = 600 (``make hunt`` runs them at 5402:
    tests/hunting/test_lower_bounds_every_learner.py); --quick: 2-D at T = 300 for all (outside the regime)."""
    if which == "1d":
        return {}
    return {"T": 300, "reps": 1} if quick else {"reps": 1, "growing_T": 600}


def _lower(ctx, which, key):
    """Simulated lower bound vs the proof's explicit constant, against every learner of algorithms/.

    Status: the printed hypotheses (D >= 1 for Lemma 3, D >= 2 for Lemma 5, with T = O(e^D)) contain values
    of D for which the construction's regime (the proofs' eps range) is empty, so the statement can only be
    exercised on part of its printed domain: ``inconclusive`` with that regime stated, whatever the
    simulated ratios (they are reported; a proper learner below ratio 1 is named in the reason)."""
    from olr_verify.hunting.checkkit import claim_seed
    from olr_verify.hunting.constructions import (every_learner_check, lower_bound_check, regime_theorem_2,
                                                  regime_theorem_4)

    regimes = [regime_theorem_2(D) if which == "1d" else regime_theorem_4(D) for D in (2, 10, 15, 16, 20, 24, 30)]
    seed = claim_seed(ctx, which)
    res = lower_bound_check(which, quick=ctx.quick, seed=seed)
    rows = [r for r in res["rows"] if math.isfinite(r[key])]
    every = every_learner_check(which, quick=ctx.quick, seed=seed, **_every_budget(which, ctx.quick))["rows"]
    every = [r for r in every if math.isfinite(r[key])]
    proper = rows + [r for r in every if r["proper_on_run"] and r["in_regime"]]  # out-of-regime T: reported only
    worst = min(r[key] for r in proper)
    D0 = _regime_start(which)
    printed = "D >= 1 (Lemma 3), T = O(e^D)" if which == "1d" else "D >= 2 (Theorem 4, Lemma 5), T = O(e^D)"
    ev = {"min_ratio_simulated_over_printed_proper": worst, "runs": rows, "reps_per_law": res["reps"],
          "every_learner_of_algorithms": every, "regimes": regimes,
          "statement_regime": {"printed_hypotheses": printed, "construction_regime_nonempty_for": f"D >= {D0}",
                               "tested_at": sorted({r["D"] for r in rows + every})},
          "note": ("T = O(e^D) is made explicit by the proofs' eps-T relation; the Omega statement is checked "
                   "through the proof's explicit constant; learners whose predictions at the atoms are not those "
                   "of one w in the D-ball (improper: outside the setting, where w_t is chosen in W) are "
                   "reported but do not decide; rows with in_regime False (T below the regime's T_min, the work "
                   "budget of this run) are reported but do not decide either")}
    reason = (f"the printed hypotheses ({printed}) include D < {D0}, where the construction's eps range is empty "
              f"(see 'regimes'): the statement is exercised only for D >= {D0}")
    low = sorted({r["learner"] for r in proper if r[key] < 1})
    if low:
        reason += f"; below the proof's constant (ratio < 1) for the proper learner(s) {low}"
    ev["reason"] = reason
    return Outcome("inconclusive", "simulation of the printed construction (exact expected losses, Monte Carlo "
                   "over samples) against the proper learners of the proof and every learner of algorithms/", ev)


def _lower_check(claim: str, which: str, key: str):
    """Register ``claim``: :func:`_lower` on the ``which`` construction, deciding the ratio ``key``."""
    def fn(ctx):
        return _lower(ctx, which, key)

    fn.__name__ = claim.split(":")[1].replace("-", "_")
    return check(claim)(fn)


theorem_2 = _lower_check("003:theorem-2", "1d", "ratio_excess")
corollary_7 = _lower_check("003:corollary-7", "1d", "ratio_regret")
theorem_4 = _lower_check("003:theorem-4", "2d", "ratio_excess")
corollary_8 = _lower_check("003:corollary-8", "2d", "ratio_regret")

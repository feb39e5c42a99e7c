"""Confirmation: a float64 candidate is replayed at >= 50 digits before it may be called refuted.

The artefact stores the exact sequence (decimal strings), the parameters, the learner's name and the
comparator.  :func:`replay_artefact` re-runs the learner's recursion with mpmath
(:mod:`highprec_learners`), evaluates the comparator (only feasibility is needed: any admissible
comparator gives a regret no larger than the worst one) and the printed bound, at 50 and at 80
digits; the violation is confirmed when ``lhs - rhs`` is positive at both precisions, the two
margins agree to 1e-30 relative, and the margin is far above the precision.  A float64 violation
that does not survive is reported as a ``near_violation``, never as a refutation.
"""
from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from olr_verify.artefacts import replayer
from olr_verify.hunting.bounds import TARGETS, Sequence, evaluate, ratio
from olr_verify.hunting.numerics import MP, to_str


def _strs(a: Any) -> Any:
    if a is None:
        return None
    arr = np.asarray(a, dtype=object)
    if arr.ndim == 0:
        return to_str(arr.item())
    return [_strs(v) for v in arr]


def make_artefact(claim: str, seq: Sequence, cmp: Any, lhs: float, rhs: float, how: str, seed: int | None) -> dict:
    """The JSON payload (exact data as decimal strings) of a candidate violation."""
    t = TARGETS[claim]
    Y = None if seq.Y is None else ([int(v) for v in seq.Y] if seq.family == "binary" else _strs(seq.Y))
    return {
        "replay": {"type": "hunt-regret", "target": claim, "family": seq.family, "learner": t.learner,
                   "params": {k: (None if v is None else to_str(v) if isinstance(v, float) else v)
                              for k, v in seq.params.items()},
                   "X": _strs(seq.X), "Y": Y, "U": _strs(seq.U), "comparator": _strs(cmp), "dps": [50, 80]},
        "float64": {"lhs": float(lhs), "rhs": float(rhs), "ratio": ratio(lhs, rhs)},
        "found_by": how, "seed": seed,
        "statement": t.bound.__doc__.strip().splitlines()[0],
    }


def sequence_from(rep: dict) -> tuple[Sequence, Any]:
    params = {k: (mpmath.mpf(v) if isinstance(v, str) else v) for k, v in rep["params"].items()}
    for k in ("d", "n"):
        if k in params and params[k] is not None:
            params[k] = int(params[k])
    X = np.array(rep["X"], dtype=object)
    Y = rep["Y"]
    if rep["family"] == "gradient":
        Y = [mpmath.mpf(v) for v in Y]
    U = None if rep.get("U") is None else np.array(rep["U"], dtype=object)
    cmp = rep.get("comparator")
    return Sequence(rep["family"], params, X, Y, U), (None if cmp is None else np.array(cmp, dtype=object))


ESCALATION = ((120, 200), (300, 500))   # when 50/80 digits disagree (the computation loses digits)
PRECISIONS = ((50, 80), *ESCALATION)


def replay_artefact(artefact: dict) -> tuple[bool, dict]:
    """Re-run the candidate at the artefact's two precisions (default 50 and 80 digits, lo < hi).

    confirmed: lhs - rhs > 0 at both, the two margins agree to ``lo - 20`` digits and the margin is above
    ``10^-(lo - 15)``; dismissed: the margins agree and lhs <= rhs (to ``lo - 15`` digits where equal);
    unresolved: anything else (the precisions disagree: the computation loses too many digits).
    """
    rep = artefact["replay"]
    target = TARGETS[rep["target"]]
    digits = tuple(sorted(int(v) for v in rep.get("dps", [50, 80])))
    if digits not in PRECISIONS:  # the precisions are the replayer's, an artefact only says which level
        raise ValueError(f"dps must be one of {[list(p) for p in PRECISIONS]}, got {rep.get('dps')}")
    lo, hi = digits
    margins = {}
    for dps in (lo, hi):
        with mpmath.workdps(dps):
            seq, cmp = sequence_from(rep)
            cmp = None if cmp is None else MP.arr(cmp)
            lhs, rhs = evaluate(target, seq, MP, cmp=cmp)
            margins[dps] = (lhs, rhs, lhs - rhs)
    (l_lo, r_lo, m_lo), (l_hi, r_hi, m_hi) = margins[lo], margins[hi]
    with mpmath.workdps(hi):
        scale = 1 + abs(r_hi)
        agree = abs(m_lo - m_hi) <= mpmath.mpf(10) ** -(lo - 20) * scale
        confirmed = bool(m_lo > 0 and m_hi > 0 and agree and m_hi > mpmath.mpf(10) ** -(lo - 15) * scale)
        holds = bool(agree and m_hi <= mpmath.mpf(10) ** -(lo - 15) * scale)  # lhs <= rhs: float noise
    details = {"claim": rep["target"], f"lhs_{lo}": mpmath.nstr(l_lo, 40), f"rhs_{lo}": mpmath.nstr(r_lo, 40),
               f"margin_{lo}": mpmath.nstr(m_lo, 20), f"margin_{hi}": mpmath.nstr(m_hi, 20),
               "ratio": float(ratio(float(l_hi), float(r_hi))), "precisions_agree": bool(agree),
               "digits": [lo, hi]}
    details["replay_outcome"] = "confirmed" if confirmed else "dismissed" if holds else "unresolved"
    if details["replay_outcome"] == "dismissed":
        details["verdict"] = (f"near_violation: float64 candidate dismissed, lhs <= rhs at {lo} and {hi} digits "
                              f"(to {lo - 15} digits where they are equal)")
    elif not confirmed:
        details["verdict"] = (f"near_violation: float64 candidate neither confirmed nor dismissed at {lo}/{hi} "
                              "digits (the two precisions disagree or the margin is too small)")
    return confirmed, details


@replayer("hunt-regret")
def replay_regret(artefact: dict) -> tuple[bool, dict]:
    """``olr-verify replay`` entry point for hunted regret-bound violations."""
    return replay_artefact(artefact)


def confirm(claim: str, seq: Sequence, cmp: Any, lhs: float, rhs: float, how: str = "", seed: int | None = None
            ) -> tuple[bool, dict, dict]:
    """(confirmed, details, artefact) for a float64 candidate."""
    art = make_artefact(claim, seq, cmp, lhs, rhs, how, seed)
    ok, details = replay_artefact(art)
    for digits in ESCALATION:  # the computation lost too many digits at 50/80: replay at higher precision
        if details["replay_outcome"] != "unresolved":
            break
        art["replay"]["dps"] = list(digits)
        ok, details = replay_artefact(art)
    art["highprec"] = details
    return ok, details, art

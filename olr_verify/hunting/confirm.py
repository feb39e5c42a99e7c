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

import math
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


def hypotheses_broken(target, rep: dict) -> str | None:
    """The first hypothesis of the hunted bound that the artefact's data break, or None.

    Checked exactly (decimal strings as rationals): the parameters lie in the region the hunt searches
    (:mod:`olr_verify.hunting.space`, inside the printed ranges, or at one of its probe values) and fixed ones keep the target's values;
    n and d match the data; binary labels are +-1 with ||x_t|| <= R; gradients satisfy |g_t| <= 1. A regret
    computed on data outside the hypotheses says nothing about the bound, so it is never confirmed."""
    from fractions import Fraction

    from olr_verify.expr import exact_rational
    from olr_verify.hunting.space import space_for

    def q(v) -> Fraction:
        return Fraction(v) if isinstance(v, int) and not isinstance(v, bool) else exact_rational(str(v))

    try:
        params, X, Y = dict(rep["params"]), [[q(v) for v in row] for row in rep["X"]], rep.get("Y")
        space = space_for(target.claim)
        for par in space.params if space is not None else ():
            if par.name in params and params[par.name] is not None:
                v = float(q(params[par.name]))  # the range ends are floats: compare to their rounding
                if not (par.lo - 1e-12 * abs(par.lo) <= v <= par.hi + 1e-12 * abs(par.hi) or v in par.probes
                        or v in par.boundary or (v > par.hi and _raised(space, params, par.name, v))):
                    return (f"{par.name} = {params[par.name]} outside the searched range [{par.lo}, {par.hi}], "
                            f"its boundary values {list(par.boundary)} and its probes {list(par.probes)}")
        for name in (space.fixed if space is not None else {}):
            if name not in target.defaults or name not in params:
                continue
            want, got = target.defaults[name], params[name]
            if want is None:  # derived by the statement (eq. (4)'s lam = 1/B^2): the learner recomputes it
                continue
            if got is None or q(got) != q(want):
                return f"{name} = {params[name]} but the hunt fixes {name} = {target.defaults[name]}"
        for name in ("B", "R", "lam", "D"):
            if params.get(name) is not None and q(params[name]) <= 0:
                return f"{name} = {params[name]} is not positive"
        if params.get("n") is not None and int(params["n"]) != len(X):
            return f"n = {params['n']} but the data have {len(X)} rounds"
        if params.get("d") is not None and any(len(row) != int(params["d"]) for row in X):
            return f"a round's x_t does not have d = {params['d']} coordinates"
        if Y is not None and len(Y) != len(X):
            return f"{len(Y)} labels or gradients for {len(X)} rounds"
        if rep["family"] == "binary":
            if any(y not in (-1, 1) for y in Y):
                return "a binary label is not +-1"
            if params.get("R") is not None:
                R2 = q(params["R"]) ** 2
                worst = next((t for t, row in enumerate(X) if sum(v * v for v in row) > R2), None)
                if worst is not None:
                    return f"||x_{worst + 1}|| > R = {params['R']}"
        if rep["family"] == "gradient" and any(abs(q(g)) > 1 for g in Y):
            return "a gradient g_t has |g_t| > 1"
        if rep["family"] == "absorbed" and any(abs(v) > 1 for row in X for v in row):
            return "an x_t has |x_t| > 1"
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        return f"malformed data ({type(exc).__name__}: {exc})"[:200]
    return None


def _raised(space, params: dict, name: str, value: float) -> bool:
    """Whether ``value`` is what the space's admissibility rule makes of the point (Algorithm 2's lam raised to
    R^2/10 where R is large: above the searched range of lam, inside the printed lam > 0)."""
    floats = {k: float(v) for k, v in params.items() if isinstance(v, (int, float, str))}
    try:
        return float(space.admissible({**floats, name: 0.0}).get(name, math.nan)) == value
    except (TypeError, ValueError):
        return False


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
    broken = hypotheses_broken(target, rep)
    if broken:
        return False, {"claim": rep["target"], "replay_outcome": "rejected",
                       "verdict": f"the artefact's data break the bound's hypotheses: {broken}"}
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

"""Small verdict helpers shared by the check modules, so that no check can pass without looking.

- :func:`on_printed_domain` -- a proof over less than the printed domain is not ``proved``: it becomes
  ``verified`` with ``evidence.proved_on`` (what the certificate covers) and ``evidence.printed_domain``
  (shared/CONTRACT.md: "A proof that covers less than the printed domain is not `proved`").
- :func:`not_a_certificate` -- a ``proved`` that rests on a prose argument, a cited result or sympy's
  ``limit`` is at most ``verified``; the evidence names the link that is ``cited``.
- :func:`matrix_identity` -- an exact matrix identity decided entry by entry by
  :func:`olr_verify.checks.scalar_common.identity`, so that a false identity is refuted with a replayable
  point instead of a typed-in ``0 == 1``.
- :func:`round_by_round` -- the differential verdict: each round against its own tolerance.
- :func:`at_an_instance` -- a printed statement evaluated at one explicit instance: ``refuted`` with a
  replayable artefact where it fails there, else ``inconclusive`` (one instance that holds proves nothing).
- :func:`worse` -- a running worst case that keeps a NaN (so a failed evaluation cannot pass a threshold).
"""
from __future__ import annotations

from typing import Any, Iterable

from olr_verify.outcome import Context, Outcome


def worse(a, b, pick=max):
    """``pick(a, b)`` that keeps a NaN: Python's max and min drop a NaN second argument (max(0.0, nan) == 0.0), so a
    running worst case would hide an evaluation that failed. Floats and mpmath numbers alike (NaN != NaN)."""
    return b if b != b else pick(a, b)


def on_printed_domain(outcome: Outcome, proved_on: str, printed: str, on_printed: Outcome | None = None) -> Outcome:
    """``outcome`` with ``proved`` turned into ``verified`` because the proof covers only ``proved_on``.

    Any other status is kept; the evidence always records both domains so the reader sees the gap.
    ``on_printed``, the same relation decided on the printed domain, decides where it can: proved there is
    ``proved`` (the restriction was not needed), refuted there is ``refuted`` (false as printed, outside
    ``proved_on``); otherwise its status and search are recorded beside the restricted verdict.
    """
    if not proved_on or not printed:
        raise ValueError("proved_on and printed must both describe a domain")
    restricted_status = {"restricted_status": outcome.status, "proved_on": proved_on}
    if on_printed is not None and on_printed.status == "proved":
        return Outcome("proved", on_printed.method + " (on the printed domain)",
                       {**on_printed.evidence, **restricted_status}, certificate=on_printed.certificate)
    if on_printed is not None and on_printed.status == "refuted":
        return Outcome("refuted", on_printed.method + " (on the printed domain, outside proved_on)",
                       {**on_printed.evidence, **restricted_status, "printed_domain": printed},
                       on_printed.counterexample)
    evidence = {**outcome.evidence, "proved_on": proved_on, "printed_domain": printed}
    if on_printed is not None:
        evidence["on_printed_domain"] = {k: on_printed.evidence[k] for k in (
            "domain", "prover", "search_points", "min_float_slack", "reason") if k in on_printed.evidence}
        evidence["on_printed_domain"]["status"] = on_printed.status
    if outcome.status != "proved":
        return Outcome(outcome.status, outcome.method, evidence, outcome.counterexample)
    evidence["not_proved_because"] = "the certificate covers proved_on only, a strict part of the printed domain"
    return Outcome("verified", outcome.method + f" (proved on {proved_on} only)", evidence)


def reconstruction_only(outcome: Outcome, lost: str) -> Outcome:
    """A check of our reconstruction of a lost formula says nothing of the printed one: ``proved`` or ``verified``
    becomes ``inconclusive``, the reconstruction's own status kept as evidence (``reconstruction_status``); any
    other status is kept (a refutation of a reconstruction carries its own artefact and says what it refutes)."""
    if not lost:
        raise ValueError("say what is lost")
    if outcome.status not in ("proved", "verified"):
        return outcome
    return Outcome("inconclusive", outcome.method, {**outcome.evidence, "reconstruction_status": outcome.status,
                                                    "reason": f"{lost}; only our reconstruction was checked"})


def at_an_instance(violated: bool, method: str, evidence: dict[str, Any], replay: dict[str, Any]) -> Outcome:
    """``refuted`` (by ``method``, replayed by ``replay``: its ``type`` names the replayer) when the instance violates
    the statement, else ``inconclusive``."""
    if violated:
        return Outcome("refuted", method, evidence, {"replay": replay})
    return Outcome("inconclusive", "instance did not violate", evidence)


def not_a_certificate(outcome: Outcome, cited: str) -> Outcome:
    """``outcome`` capped at ``verified``: one link (``cited``) is a prose argument, a citation or a limit."""
    if not cited:
        raise ValueError("cited must name the link that is not machine-checked")
    evidence = {**outcome.evidence, "cited": cited}
    if outcome.status != "proved":
        return Outcome(outcome.status, outcome.method, evidence, outcome.counterexample)
    return Outcome("verified", outcome.method + " (one link cited, not certified)", evidence)


def matrix_identity(lhs, rhs, domain: dict[str, tuple[str, str]], ctx: Context, what: str) -> Outcome:
    """Decide the sympy matrix identity ``lhs == rhs`` entry by entry (exact, else 50-digit sampling)."""
    from olr_verify.checks.scalar_common import combine, identity

    if lhs.shape != rhs.shape:
        raise ValueError(f"lhs has shape {lhs.shape}, rhs has shape {rhs.shape}")
    parts = [(f"entry ({i},{j})", identity(lhs[i, j], rhs[i, j], domain, ctx, what=f"{what}, entry ({i},{j})"))
             for i in range(lhs.rows) for j in range(lhs.cols)]
    return combine(parts, method=f"exact identity, entry by entry: {what}")


def round_by_round(devs: Iterable[float], tols: Iterable[float]) -> dict[str, Any]:
    """Summary of a differential comparison in which round t passes iff ``devs[t] <= tols[t]``.

    ``excess`` is the largest ``dev_t - tol_t`` (> 0 means some round failed its own tolerance), ``round``
    its 1-based index, and ``tolerance``/``deviation_at_worst`` the values at that round; ``deviation`` is
    the largest deviation over all rounds (for the reader; the verdict uses ``excess``).
    """
    devs, tols = [float(v) for v in devs], [float(v) for v in tols]
    if len(devs) != len(tols) or not devs:
        raise ValueError(f"devs ({len(devs)}) and tols ({len(tols)}) must be non-empty and of equal length")
    excess = [d - t if d == d and t == t else float("inf") for d, t in zip(devs, tols)]  # NaN fails
    k = max(range(len(excess)), key=excess.__getitem__)
    return {"deviation": max(devs), "excess": excess[k], "round": k + 1, "tolerance": tols[k],
            "deviation_at_worst": devs[k], "rounds_failed": sum(e > 0 for e in excess)}


def detection_power(observed: float, bound: float, what: str) -> dict[str, Any]:
    """What a "observed <= bound" sampling check could have detected, for the evidence of a loose bound.

    A check passes whenever ``observed <= bound``; if ``observed`` is far below ``bound`` it could not have
    noticed a constant that is too large by any factor up to ``bound / observed``: that factor is stated.
    """
    if not bound > 0:
        raise ValueError(f"bound must be positive, got {bound}")
    ratio = observed / bound
    factor = bound / observed if observed > 0 else float("inf")
    return {"observed_over_bound": ratio,
            "undetectable_factor": factor,
            "what_it_could_detect": (f"{what}: the observed value is {ratio:.3g} of the bound, so the check passes for "
                                     f"any bound down to {1 / factor if factor != float('inf') else 0:.3g} of the "
                                     f"printed one; it tests that the bound is not violated, not its constant "
                                     f"(a printed constant too large by a factor up to {factor:.3g} goes unseen)")}

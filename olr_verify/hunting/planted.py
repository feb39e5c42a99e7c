"""Planted false bounds: the measure of the hunter's quality (issue 15).

For a hunted bound ``lhs <= rhs`` a planted variant replaces ``rhs`` by ``rhs - (1 - c)|rhs|`` (that is
``c * rhs`` where ``rhs > 0``), with ``c`` chosen so that a *known* point is violated: the worst
pair found by a short hunt at the paper's default parameters (search space off, fixed seed), whose
ratio is ``r0``, gets the planted ratio ``r0 / c = margin`` (default 1.25).  The hunter then attacks
the planted variant with the check's default budget and a different seed, the parameters free: it
must report a violation confirmed at 50/80 digits (``refuted``).  A planted variant is registered in
:data:`~olr_verify.hunting.bounds.TARGETS` as ``planted:<claim>@<c>``, so the 50-digit replay uses
the same bound function.

>>> pid = plant("003:lemma-13", 0.5)
>>> pid
'planted:003:lemma-13@0.5'
>>> from olr_verify.hunting.bounds import TARGETS
>>> TARGETS[pid].claim == pid
True
>>> unplant(pid)
"""
from __future__ import annotations

import contextlib
import dataclasses
import time
from typing import Iterator

from olr_verify.hunting.bounds import TARGETS, Target


def _scaled(bound, scale: str):
    def planted(seq, run, cmp, K=None):
        from olr_verify.hunting.numerics import FLOAT

        K = FLOAT if K is None else K
        return planted.adjust(*bound(seq, run, cmp, K), K)

    planted.wraps = bound
    planted.adjust = lambda lhs, rhs, K: (lhs, rhs - (1 - K.num(scale)) * abs(rhs))
    planted.__doc__ = f"PLANTED (false on purpose): {(bound.__doc__ or '').strip().splitlines()[0]} with rhs scaled by {scale}"
    return planted


def plant(claim: str, scale: float) -> str:
    """Register the variant of ``claim`` with its bound scaled by ``scale`` (< 1); returns its id."""
    text = f"{scale:.6g}"
    pid = f"planted:{claim}@{text}"
    t = TARGETS[claim]
    TARGETS[pid] = dataclasses.replace(t, claim=pid, bound=_scaled(t.bound, text))
    return pid


def unplant(pid: str) -> None:
    TARGETS.pop(pid, None)


@contextlib.contextmanager
def declared_variant(pid: str, hunt: dict, like: str) -> Iterator[str]:
    """A variant of a declared hunt (``hunt``: a ``[claim.hunt]`` table, e.g. a claim's with one constant changed)
    registered as ``pid`` with the space of claim ``like``, for as long as the ``with`` block runs."""
    from olr_verify.hunting.bounds import target_from_toml
    from olr_verify.hunting.space import SPACES

    TARGETS[pid], _ = target_from_toml(pid, hunt, SPACES[like], pid)
    SPACES[pid] = SPACES[like]
    try:
        yield pid
    finally:
        TARGETS.pop(pid, None)
        SPACES.pop(pid, None)


def known_point_ratio(claim: str, seed: int = 7, evals: int = 40) -> float:
    """Worst ratio of a short hunt at the default parameters (the known point a planted bound must fail at)."""
    from olr_verify.hunting.optimisers import hunt

    t = TARGETS[claim]
    n = int(t.defaults.get("n", 30))
    return hunt(claim, seed=seed, max_evals=evals, max_work=evals * n, search_space=False).best.ratio


@dataclasses.dataclass
class PlantedResult:
    claim: str
    planted: str
    known_ratio: float
    scale: float
    found: bool
    status: str
    seconds: float
    sequences: int
    witness_params: dict


def attack(claim: str, full: int = 400, margin: float = 1.25, seed: int = 20261123) -> PlantedResult:
    """Plant a false version of ``claim`` and attack it with the check's default budget (``full`` sequences)."""
    from pathlib import Path
    import tempfile

    from olr_verify.hunting.checkkit import hunt_outcome
    from olr_verify.outcome import Context

    r0 = known_point_ratio(claim)
    scale = max(r0, 1e-6) / margin
    pid = plant(claim, scale)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            out = hunt_outcome(pid, Context(Path(tmp), seed=seed), full=full)
            secs = time.perf_counter() - start
    finally:
        unplant(pid)
    ev = out.evidence
    return PlantedResult(claim, pid, r0, scale, out.status == "refuted", out.status, round(secs, 2),
                         int(ev.get("sequences_evaluated", 0)), dict(ev.get("witness_params", {})))


def default_budget(claim: str) -> int:
    """The ``full`` budget the registered check of ``claim`` uses (``hunt.budget`` in its paper.toml)."""
    from olr_verify.hunting.bounds import BUDGETS

    return BUDGETS.get(claim, (400, 60))[0]


def hunted_claims() -> list[str]:
    return [c for c in TARGETS if not c.startswith("planted:")]


__all__ = ["plant", "unplant", "declared_variant", "attack", "known_point_ratio", "default_budget", "hunted_claims", "Target"]

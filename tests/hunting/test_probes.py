"""Probes beyond the densely searched ranges (issue 15): a bound false only at n >= 1000 is refuted."""
import dataclasses
import tempfile
from pathlib import Path

from olr_verify.hunting.bounds import TARGETS
from olr_verify.hunting.checkkit import hunt_outcome
from olr_verify.hunting.space import space_for
from olr_verify.outcome import Context


def _false_for_long_sequences(bound):
    def planted(seq, run, cmp, K=None):
        from olr_verify.hunting.numerics import FLOAT

        K = FLOAT if K is None else K
        lhs, rhs = bound(seq, run, cmp, K)
        return (lhs, -abs(rhs) - 1) if 1000 <= seq.n < 5000 else (lhs, rhs)

    planted.__doc__ = "PLANTED: false only for 1000 <= n < 5000 (beyond the dense range n <= 300)"
    return planted


def test_every_hunted_space_probes_n_far_beyond_its_dense_range():
    for claim in TARGETS:
        space = space_for(claim)
        if space is None or "n" not in [p.name for p in space.params]:
            continue
        n = space.param("n")
        assert n.probes and max(n.probes) >= 10 * n.hi, claim


def test_a_bound_false_only_for_long_sequences_is_never_verified_because_of_the_probes():
    claim = "003:lemma-13"
    pid = f"planted:{claim}@long"
    TARGETS[pid] = dataclasses.replace(TARGETS[claim], claim=pid, bound=_false_for_long_sequences(TARGETS[claim].bound))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            quick = hunt_outcome(pid, Context(Path(tmp), quick=True, seed=1), quick=40)
            full = hunt_outcome(pid, Context(Path(tmp), quick=False, seed=1), full=40)
    finally:
        TARGETS.pop(pid, None)
    assert quick.status == "verified"  # the dense search alone (n <= 300) cannot see it: probes run in full mode
    assert full.status == "inconclusive", full.evidence.get("reason")  # too long to replay at 50 digits
    assert full.evidence["probes"]["n = 1000"]["worst_ratio"] > 1
    assert all(1000 <= v["value"] < 5000 for v in full.evidence["probe_violations"])

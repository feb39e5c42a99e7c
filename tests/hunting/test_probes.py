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


def test_every_unbounded_integer_parameter_reaches_four_decades_with_its_probes():
    for claim in TARGETS:
        space = space_for(claim)
        for p in (space.params if space is not None else ()):
            if p.scale == "int":  # n >= 1, d >= 1: open above
                assert space.describe()[p.name].get("decades_with_probes", p.decades()) >= 4, (claim, p.name)


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


# --------------------------------------------------------------------------- d beyond n: the span reduction
import math  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from olr_verify.hunting.bounds import (ROTATION_EQUIVARIANT, Sequence, evaluate, ratio,  # noqa: E402
                                       run_dimension, run_learner, with_defaults)
from olr_verify.hunting.optimisers import random_sequence  # noqa: E402

_D_CLAIMS = sorted(c for c in TARGETS if space_for(c) is not None and "d" in [p.name for p in space_for(c).params])


def _rotated(seq: Sequence, d: int, rng, rotate: bool = True) -> Sequence:
    """The same sequence embedded in R^d (zero coordinates appended) and rotated by a random orthogonal matrix."""
    Q = np.linalg.qr(rng.normal(size=(d, d)))[0] if rotate else np.eye(d)
    k = seq.X.shape[1]
    pad = np.zeros((len(seq.X), d - k))
    X = np.hstack([np.asarray(seq.X, float), pad]) @ Q.T
    U = None if seq.U is None else np.hstack([np.asarray(seq.U, float), pad]) @ Q.T
    return Sequence(seq.family, {**seq.params, "d": d}, X, seq.Y, U)


@pytest.mark.parametrize("claim", _D_CLAIMS)
def test_the_span_reduction_is_exact_for_rotation_equivariant_learners_and_only_for_them(claim):
    t = TARGETS[claim]
    rng = np.random.default_rng(3)
    n, d = 4, 9
    p = with_defaults(t, {"n": n, "d": d})
    assert run_dimension(t, p) == (n if t.learner in ROTATION_EQUIVARIANT else d)
    small = random_sequence(t, {**p, "d": n}, rng)
    reduced = Sequence(small.family, {**small.params, "d": d}, small.X, small.Y, small.U)
    if t.learner not in ROTATION_EQUIVARIANT:  # run at the full d, on inputs supported on n coordinates
        reduced = _rotated(small, d, rng, rotate=False)
    lhs_r, rhs_r = (float(v) for v in evaluate(t, reduced))
    rotated = _rotated(small, d, np.random.default_rng(4))
    lhs_f, rhs_f = (float(v) for v in evaluate(t, rotated))
    preds_r, preds_f = (np.asarray(run_learner(t, s).preds, float) for s in (reduced, rotated))
    if t.learner in ROTATION_EQUIVARIANT:
        if getattr(t.bound, "per_round", False) or len(getattr(t.bound, "relations", ())) > 1:
            # the worst of several pairs: pairs tied to rounding (x^T S^+ x = 1 at each new direction) may swap
            assert math.isclose(ratio(lhs_r, rhs_r), ratio(lhs_f, rhs_f), rel_tol=1e-7, abs_tol=1e-9), claim
        else:
            assert all(math.isclose(a, b, rel_tol=1e-7, abs_tol=1e-9) for a, b in ((lhs_r, lhs_f), (rhs_r, rhs_f))), \
                (claim, lhs_r, lhs_f, rhs_r, rhs_f)
        assert np.allclose(preds_r, preds_f, rtol=1e-9, atol=1e-12)
    else:  # the coordinate-wise Algorithm 1: a rotation changes its run, so it is never reduced
        assert not np.allclose(preds_r, preds_f, rtol=1e-6), claim


def _false_for_large_d(bound):
    def planted(seq, run, cmp, K=None):
        from olr_verify.hunting.numerics import FLOAT

        K = FLOAT if K is None else K
        lhs, rhs = bound(seq, run, cmp, K)
        return (lhs, -abs(rhs) - 1) if int(seq.params["d"]) >= 1000 else (lhs, rhs)

    planted.__doc__ = "PLANTED: false only for d >= 1000 (beyond the dense range d <= 4 and the probes 16, 64)"
    return planted


@pytest.mark.parametrize("claim", ["000:theorem-1", "002:theorem-3.4"])
def test_a_bound_false_only_in_high_dimension_is_never_verified_because_of_the_probes(claim):
    pid = f"planted:{claim}@high-d"
    TARGETS[pid] = dataclasses.replace(TARGETS[claim], claim=pid, bound=_false_for_large_d(TARGETS[claim].bound))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            full = hunt_outcome(pid, Context(Path(tmp), quick=False, seed=1), full=40)
    finally:
        TARGETS.pop(pid, None)
    assert full.status == "inconclusive", full.evidence.get("reason")
    assert full.evidence["probes"]["d = 10000"]["worst_ratio"] > 1
    assert all(v["value"] >= 1000 for v in full.evidence["probe_violations"])
    assert full.evidence["parameter_space"]["d"]["decades_with_probes"] >= 4


def test_a_probe_of_large_d_keeps_every_adversary_at_n_equal_1():
    from olr_verify.hunting.optimisers import _generate_in_span, paper_seed

    for claim in ("002:lemma-4.3", "002:theorem-3.4"):
        t = TARGETS[claim]
        seq = _generate_in_span(paper_seed, t, with_defaults(t, {"n": 1, "d": 1000}), np.random.default_rng(0))
        assert seq is not None and int(seq.params["d"]) == 1000, claim


def test_theorem_4_runs_at_least_one_gradient_step_where_its_printed_t_is_negative():
    from olr_verify.hunting.highprec_learners import aioli_gd_steps

    assert aioli_gd_steps(30, 3.0, 1e-3, 1e3) == 1  # the printed T is -46 here (log of a number below 1)
    assert aioli_gd_steps(30, 1.0, 1.0, 1.0) > 1

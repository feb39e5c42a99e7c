"""Quality of the hunter (issue 15): planted false bounds must be refuted within the default budget.

Each planted variant scales a hunted bound down until the worst pair of a short hunt at the paper's
default parameters violates it by 25 % (:mod:`olr_verify.hunting.planted`); the hunter, with another
seed and the parameters free, must find a violation confirmed at 50/80 digits.  A fast subset runs
in ``make test`` (marker ``hunt``); every hunted bound runs under ``hunt_long`` (``make hunt``).
"""
import pytest

from olr_verify.hunting.planted import attack, default_budget, hunted_claims

FAST = ["000:theorem-1", "002:theorem-3.4", "003:lemma-13"]


@pytest.mark.hunt
@pytest.mark.parametrize("claim", FAST)
def test_planted_false_bound_is_refuted_within_the_default_budget(claim):
    res = attack(claim, full=default_budget(claim))
    assert res.found, f"{res.planted}: status {res.status} after {res.sequences} sequences"
    assert res.witness_params


@pytest.mark.hunt_long
@pytest.mark.parametrize("claim", [c for c in hunted_claims() if c not in FAST])
def test_every_planted_false_bound_is_refuted_within_the_default_budget(claim):
    res = attack(claim, full=default_budget(claim))
    assert res.found, f"{res.planted}: status {res.status} after {res.sequences} sequences"

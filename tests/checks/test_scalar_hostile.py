"""Hostile inputs of the scalar deciders (olr_verify.checks.scalar_common) that used to come out `verified` or
replay as confirmed although false (found by a hostile review of paper folders; each fails on the old code)."""
import pytest
import sympy as sp

from olr_verify.checks import scalar_common as sc
from olr_verify.outcome import Context

x, y = sp.symbols("x y")


@pytest.fixture
def ctx(tmp_path):
    return Context(out_dir=tmp_path, quick=True, seed=3)


def test_identity_off_by_a_tiny_constant_is_refuted_and_replays(ctx):
    out = sc.identity(x + sp.Rational(1, 10**60), x, {"x": ("-1", "1")}, ctx)
    assert out.status == "refuted"
    assert out.evidence["exact_difference"] == str(sp.Rational(1, 10**60))
    assert sc.replay_identity(out.counterexample)[0]


def test_identity_undefined_inside_the_domain_is_not_verified(ctx):
    # log(x y) = log x + log y fails where x, y < 0 (the rhs is not real there): skipping those points verified it
    out = sc.identity(sp.log(x * y), sp.log(x) + sp.log(y), {"x": ("-2", "2"), "y": ("-2", "2")}, ctx)
    assert out.status == "inconclusive"
    assert out.evidence["points_undefined"] > 0


def test_identity_ends_are_sampled(ctx):
    # Max(x, 0) = x fails only on [-1/10, 0): the low end is now evaluated exactly
    out = sc.identity(sp.Max(x, 0), x, {"x": ("-1/10", "1")}, ctx, points=1)
    assert out.status == "refuted"


def test_identity_true_on_its_domain_still_verified_or_proved(ctx):
    out = sc.identity(sp.sqrt(x**2), x, {"x": ("0", "3")}, ctx)
    assert out.status in ("proved", "verified")


@pytest.mark.parametrize("relation, domain", [
    ("y < x", {"x": ("0", "1"), "y": ("0", "x")}),          # strict, false exactly on the end y = x
    ("sign(x)**2 >= 1", {"x": ("-1", "1")}),                # false only at the exact point 0
])
def test_violation_at_an_exact_end_or_zero_is_refuted(ctx, relation, domain):
    out = sc.inequality(relation, domain, ctx, use_prover=False)
    assert out.status == "refuted"
    assert sc.replay_scalar_relation(out.counterexample)[0]


def test_relation_undefined_inside_the_domain_is_not_verified(ctx):
    out = sc.inequality("sqrt(x) >= -1", {"x": ("-1", "1")}, ctx, use_prover=False)
    assert out.status == "inconclusive"
    assert out.evidence["undefined_operand"]["operand"] == "sqrt(x)"  # found before any search


def test_strict_replay_needs_an_exact_zero():
    # e^-1000 > 0 is true; its slack 5e-435 is below the old 'strict zero' tolerance, which confirmed the artefact
    tiny = {"replay": {"type": "scalar_relation", "relation": "exp(-x) > 0", "point": {"x": "1000"}}}
    assert not sc.replay_scalar_relation(tiny)[0]
    zero = {"replay": {"type": "scalar_relation", "relation": "x**2 > 0", "point": {"x": "0"}}}
    assert sc.replay_scalar_relation(zero)[0]


def test_a_true_relation_with_a_removable_point_at_an_end_stays_verified(ctx):
    # undefined only at the end x = 0 (a printed open end registered closed): not counted against it
    out = sc.inequality("sin(x)/x <= 1", {"x": ("0", "1")}, ctx, use_prover=False)
    assert out.status == "verified"

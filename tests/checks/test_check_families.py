"""Every check family fed a false variant must not pass it.

The families: ``inequality``, ``identity``, ``combine``, ``matrix_identity`` (scalar_common / verdicts),
``per_round`` and ``regret_check`` (coverage_001, GAF runs), the reference differential
(reference_checks) and the run hunt of seed 000 (coverage_000_runs.decide). For each, a false input
must give ``refuted`` (a confirmed counterexample) or, where the family cannot confirm at high precision,
at least never ``verified``/``proved``; the true input beside it must not be refuted.
"""
import math

import numpy as np
import pytest
import sympy as sp

from olr_verify.checks import scalar_common as sc
from olr_verify.checks.verdicts import matrix_identity, round_by_round
from olr_verify.outcome import Context, Outcome

PASSING = ("proved", "verified")


@pytest.fixture
def ctx(tmp_path):
    return Context(out_dir=tmp_path, quick=True)


def _violated_at_50_digits(relation: str, point: dict) -> bool:
    slack = sc.eval_exact(sc.slack_of(sc.parse(relation)), {k: str(v) for k, v in point.items()}, 50)
    return bool(slack < 0)


# ------------------------------------------------------------------------------------------ inequality
@pytest.mark.parametrize("relation, domain", [
    ("x + exp(-x) <= exp(x**2/16)", {"x": ("-oo", "oo")}),           # 000-style constant too small (9/16 -> 1/16)
    ("exp(x) >= 1 + x + x**2/2", {"x": ("-1", "0")}),                  # Taylor bound on the wrong side
    ("log(1+exp(-a)) >= log(1+exp(-b)) - (a-b)/(1+exp(b)) + 2*(a-b)**2",  # Lemma 5 with a curvature of 2
     {"a": ("-1", "1"), "b": ("-3", "3")}),
])
@pytest.mark.parametrize("use_prover", [True, False])
def test_inequality_refutes_false_relations_with_a_confirmed_point(ctx, relation, domain, use_prover):
    out = sc.inequality(relation, domain, ctx, use_prover=use_prover)
    assert out.status == "refuted", (out.status, out.evidence)
    assert _violated_at_50_digits(relation, out.evidence["counterexample"])
    if not use_prover:
        assert "not called" in out.evidence["prover"]  # says the check chose not to call it


def test_inequality_does_not_refute_the_true_relation(ctx):
    out = sc.inequality("x + exp(-x) <= exp(9*x**2/16)", {"x": ("-oo", "oo")}, ctx)
    assert out.status in PASSING


# ------------------------------------------------------------------------------------------ identity
def test_identity_refutes_a_difference_far_below_float_resolution(ctx):
    x = sp.Symbol("x")
    out = sc.identity(sp.log(1 + sp.exp(x)), x + sp.log(1 + sp.exp(-x)) + sp.exp(-x ** 2 - 40), {"x": ("-2", "2")},
                      ctx)
    assert out.status == "refuted"
    diff = abs(sp.N(sp.Float(out.evidence["lhs_50"], 50) - sp.Float(out.evidence["rhs_50"], 50), 50))
    assert diff > 0


def test_identity_with_assumption_symbols_is_refuted_not_an_error(ctx):
    b, T = sp.symbols("beta T", positive=True)
    out = sc.identity(b ** 2 / T, b ** 2, {"beta": ("1/10", "5"), "T": ("2", "100")}, ctx)
    assert out.status == "refuted"


def test_identity_proves_only_what_sympy_reduces_to_zero(ctx):
    z = sp.Symbol("z")
    assert sc.identity((z + 1) ** 2, z ** 2 + 2 * z + 1, {"z": ("-5", "5")}, ctx).status == "proved"
    assert sc.identity((z + 1) ** 2, z ** 2 + 2 * z, {"z": ("-5", "5")}, ctx).status == "refuted"


# ------------------------------------------------------------------------------------------ combine
def _o(status):
    return Outcome(status, "m", {}, {"replay": {"type": "identity", "lhs": "1", "rhs": "0", "point": {}}}
                   if status == "refuted" else None)


def test_combine_is_refuted_by_any_refuted_link_and_names_it():
    out = sc.combine([("a", _o("proved")), ("b", _o("refuted")), ("c", _o("verified"))])
    assert out.status == "refuted" and out.evidence["refuted_link"] == "b" and out.counterexample["link"] == "b"


@pytest.mark.parametrize("weak", ["verified", "inconclusive", "error"])
def test_combine_is_never_stronger_than_its_weakest_link(weak):
    assert sc.combine([("a", _o("proved")), ("b", _o(weak))]).status == weak


def test_matrix_identity_refutes_a_wrong_sherman_morrison_denominator(ctx):
    m, x1 = sp.symbols("m x1")
    M = sp.Matrix([[m, 1], [1, 2]])
    x = sp.Matrix([x1, 1])
    Mi = M.adjugate() / M.det()
    wrong = Mi - Mi * x * x.T * Mi / (2 + (x.T * Mi * x)[0])
    box = {str(v): ("1", "2") for v in (*M.free_symbols, *x)}
    out = matrix_identity((M + x * x.T) * wrong, sp.eye(2), box, ctx, what="wrong Sherman-Morrison")
    assert out.status == "refuted"


# ------------------------------------------------------------------------------------------ per_round / regret_check
def test_per_round_never_passes_a_violated_or_nan_relation(ctx):
    from olr_verify.papers.s001_gaf.theorem1 import per_round

    true = per_round(ctx, lambda r: (r["loss"], r["loss"] + 1.0), "loss <= loss + 1")
    assert true.status == "verified"
    false = per_round(ctx, lambda r: (r["loss"] + 1e-3, r["loss"]), "loss + 1e-3 <= loss")
    assert false.status not in PASSING
    nan = per_round(ctx, lambda r: (r["loss"] * np.nan, r["loss"]), "NaN <= loss")
    assert nan.status not in PASSING


def test_regret_check_never_passes_a_bound_below_the_regret(ctx):
    from olr_verify.papers.s001_gaf.theorem1_regret import regret_check, thm1_first

    assert regret_check(ctx, thm1_first, "Theorem 1 as printed").status == "verified"
    assert regret_check(ctx, lambda run, W, B: -1e9, "a bound of -1e9").status not in PASSING
    assert regret_check(ctx, lambda run, W, B: math.nan, "a NaN bound").status not in PASSING


# ------------------------------------------------------------------------------------------ reference differential
class _Still:
    """A learner stub: the differential only needs predict/update."""

    def predict(self, x):
        return 0.0

    def update(self, x, y):
        return None


def _scripted(devs, tols):
    it = iter(zip(devs, tols))

    def ref(Xp, Yp, hist, x, learner):
        dv, tl = next(it)
        return dv, tl, 0.0, np.zeros_like(x)
    return ref


def test_differential_compares_each_round_with_its_own_tolerance():
    from olr_verify.checks import reference_checks as rc

    # round 1: loose tolerance; round 2: deviation 2e-10 against its own tolerance 1e-10 -> must fail
    row = rc._run_case(lambda d: _Still(), _scripted([1e-12, 2e-10], [1e-6, 1e-10]), "random", 1, 2, 0)
    assert row["excess"] > 0 and row["round"] == 2 and row["tolerance"] == 1e-10
    out = rc._verdict("stub", [row], 0.0, "dev")
    assert out.status not in PASSING
    ok = rc._run_case(lambda d: _Still(), _scripted([1e-12, 5e-11], [1e-6, 1e-10]), "random", 1, 2, 0)
    assert rc._verdict("stub", [ok], 0.0, "dev").status == "verified"


def test_round_by_round_fails_a_nan_round():
    assert round_by_round([0.0, math.nan], [1.0, 1.0])["excess"] > 0
    with pytest.raises(ValueError):
        round_by_round([], [])


# ------------------------------------------------------------------------------------------ seed-000 run hunts
CLAIM = "000:claim-4"


def test_run_hunt_refutes_a_false_relation_and_the_violation_is_confirmed(ctx, monkeypatch):
    from olr_verify.papers.s000_aioli import runs_per_round as runs

    rel, eps, what = runs.RELATIONS[CLAIM]
    false = lambda rows, seq, K: [(r + 1, r) for _, r in rel(rows, seq, K)]  # noqa: E731 - lhs = rhs + 1
    monkeypatch.setitem(runs.RELATIONS, CLAIM, (false, eps, "rhs + 1 <= rhs"))
    out = runs.decide(CLAIM, ctx)
    assert out.status == "refuted"
    assert runs.confirm(CLAIM, runs_seq(out, runs))[0]


def runs_seq(out, runs):
    """The counterexample sequence of an artefact, back in the form ``runs.confirm`` takes."""
    rep = out.counterexample["replay"]
    dec = lambda a: None if a is None else np.array([[float(v) for v in row] for row in a])  # noqa: E731
    return {"d": rep["d"], "params": {k: float(v) for k, v in rep["params"].items()}, "X": dec(rep["X"]),
            "Y": np.array(rep["Y"], dtype=float), "U": dec(rep["U"]), "thetas": dec(rep["thetas"])}


def test_run_hunt_with_an_unconfirmed_float_violation_is_inconclusive(ctx, monkeypatch):
    from olr_verify.papers.s000_aioli import runs_per_round as runs

    rel, eps, what = runs.RELATIONS[CLAIM]
    false = lambda rows, seq, K: [(r + 1, r) for _, r in rel(rows, seq, K)]  # noqa: E731
    monkeypatch.setitem(runs.RELATIONS, CLAIM, (false, eps, "rhs + 1 <= rhs"))
    monkeypatch.setattr(runs, "confirm", lambda claim, seq: (False, {"gap": "0"}))
    out = runs.decide(CLAIM, ctx)
    assert out.status == "inconclusive" and out.evidence["near_violation_not_confirmed"]

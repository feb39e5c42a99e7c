"""Budgets in units of work (issue 13): where the prover spends time it counts what it does, so the same input stops
at the same place on an idle and on a busy machine; and a run decides a repeated relation once."""
import math
from pathlib import Path

import sympy as sp
from flint import fmpq

from olr_verify.checks import scalar_common
from olr_verify.kernel.inequality import _terms
from olr_verify.outcome import Context
from olr_verify.prover import core, enclose, tailcert
from olr_verify.prover.bnb import Budget
from olr_verify.prover.tails import TailProver

x, y = sp.symbols("x y")
# false on the tail x >= 8 for y < 1/2: the tail prover splits y until its budget ends
FALSE_TAIL = (y - sp.Rational(1, 2)) * sp.exp(x) + x
TAIL_BOX = [(fmpq(8), fmpq(8)), (fmpq(0), fmpq(1))]


def _tail_run(max_ops):
    prover = TailProver(FALSE_TAIL, [x, y], 0, 1, fmpq(8), False, [], deadline=math.inf, max_ops=max_ops)
    start = enclose.OPS[0]
    try:
        outcome = prover.prove(TAIL_BOX)
    except Budget:
        outcome = "budget"
    return outcome, enclose.OPS[0] - start, prover.boxes


def test_a_tail_stops_after_its_budget_of_operations_and_at_the_same_box_every_time():
    free = _tail_run(None)
    assert free[0] is False and free[1] > 5_000  # no budget: it gives up only after its splits
    first, again = _tail_run(2_000), _tail_run(2_000)
    assert first[0] == "budget"
    assert 2_000 < first[1] <= 2_000 + 50  # one box past the limit at most
    assert first == again  # the same work, the same stopping box: no clock involved


def test_a_tail_multiplier_candidate_too_large_for_an_exact_check_is_skipped(monkeypatch):
    slack = sp.exp(9 * x**2 / 16) - x - sp.exp(-x)  # Lemma A.1's left tail: candidates exist
    tailcert.candidates.cache_clear()
    found = tailcert.candidates(slack, "x", -1)
    assert found
    biggest = max(_terms(slack * sp.exp(h) - sp.Add(*forms)) for h, _, forms in found)
    monkeypatch.setattr(tailcert, "MAX_IDENTITY_TERMS", 0)
    tailcert.candidates.cache_clear()
    try:
        kept = tailcert.candidates(slack, "x", -1)
    finally:
        tailcert.candidates.cache_clear()
    assert biggest > 0 and kept == ()  # no sqrt: no conjugate form either


def test_the_registry_statement_whose_certificate_takes_the_most_operations_is_still_proved():
    """000 Lemma 8's proof plan, region B3: (1+a)(p + e^a q) >= 1 + e^a with p >= (e^a - 1)/a. Its certificate
    search takes ~21 000 interval operations, the most of any relation the registry proves (the rate per second
    of ``timeout`` was halved)."""
    res = core.prove("(1+a)*(p + exp(a)*q) >= 1 + exp(a)",
                     {"a": ("2", "oo"), "p": ("(exp(a)-1)/a", "oo"), "q": ("0", "oo")}, timeout=10.0)
    assert res.status == "proved"


def test_a_textbook_bound_whose_certificate_takes_350_000_operations_is_proved_at_the_default_timeout():
    res = core.prove("log(1 + exp(x)) <= log(2) + x/2 + x**2/8", {"x": ("-oo", "oo")})
    assert res.status == "proved"


def test_a_run_decides_a_repeated_relation_once(tmp_path: Path):
    calls = []

    def prove(relation, domain, **kwargs):
        calls.append((relation, kwargs))
        return core.ProofResult("verified", None, 0.0, {"n": len(calls)})

    ctx = Context(out_dir=tmp_path, quick=True)
    domain = {"x": ("0", "1")}
    first = scalar_common.prove_shared(ctx, prove, "x >= 0", domain, timeout=2.5)
    second = scalar_common.prove_shared(ctx, prove, "x >= 0", domain, timeout=2.5)
    assert len(calls) == 1 and first.certificate == second.certificate == {"n": 1}
    scalar_common.prove_shared(ctx, prove, "x >= 0", domain, timeout=5.0)  # another budget: another call
    scalar_common.prove_shared(ctx, prove, "x > 0", domain, timeout=2.5)  # another relation
    scalar_common.prove_shared(Context(out_dir=tmp_path / "other-run", quick=True), prove, "x >= 0", domain,
                               timeout=2.5)  # another run
    assert len(calls) == 4

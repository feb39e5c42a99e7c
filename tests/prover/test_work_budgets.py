"""Budgets in units of work (issue 13): where the prover spends time it counts what it does, so the same input stops
at the same place on an idle and on a busy machine; and a run decides a repeated relation once."""
import math
from pathlib import Path

import sympy as sp
from flint import fmpq

from olr_verify.checks import scalar_common
from olr_verify.kernel.inequality import expanded_terms
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
    found = tuple(tailcert.candidates(slack, "x", -1))
    assert found
    biggest = max(expanded_terms(c.scaled - sp.Add(*c.forms)) for c in found if c.exact())
    monkeypatch.setattr(tailcert, "MAX_IDENTITY_TERMS", 0)
    tailcert.candidates.cache_clear()
    try:
        tailcert._exact.cache_clear()
        kept = tuple(c for c in tailcert.candidates(slack, "x", -1) if c.exact())
    finally:
        tailcert.candidates.cache_clear()
        tailcert._exact.cache_clear()
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


def test_a_run_decides_a_repeated_relation_once(tmp_path: Path, monkeypatch):
    calls = []

    def prove(relation, domain, **kwargs):
        calls.append((relation, list(domain), kwargs, core.TIMEOUT_CAP))
        return core.ProofResult("verified", None, 0.0, {"n": len(calls)})

    ctx = Context(out_dir=tmp_path, quick=True)
    domain = {"a": ("0", "1"), "b": ("a", "1")}
    first = scalar_common.prove_shared(ctx, prove, "b >= a", domain, timeout=2.5)
    second = scalar_common.prove_shared(ctx, prove, "b >= a", dict(domain), timeout=2.5)
    assert len(calls) == 1 and first.certificate == second.certificate == {"n": 1}
    others = [(ctx, "b >= a", domain, {"timeout": 5.0}),  # another budget
              (ctx, "b > a", domain, {"timeout": 2.5}),  # another relation
              (ctx, "b >= a", {"a": ("0", "1"), "b": ("a", "2")}, {"timeout": 2.5}),  # another bound
              (ctx, "b >= a", {"b": ("a", "1"), "a": ("0", "1")}, {"timeout": 2.5}),  # the order matters to prove()
              (ctx, "b >= a", domain, {"timeout": 2.5, "seed": 7}),  # another option
              (Context(out_dir=tmp_path / "other-run", quick=True), "b >= a", domain, {"timeout": 2.5})]  # another run
    for n, (c, relation, dom, kwargs) in enumerate(others, start=2):
        assert scalar_common.prove_shared(c, prove, relation, dom, **kwargs).certificate == {"n": n}
    monkeypatch.setattr(core, "TIMEOUT_CAP", 1.0)  # the quick mode's cap changes the budgets
    assert scalar_common.prove_shared(ctx, prove, "b >= a", domain, timeout=2.5).certificate == {"n": len(others) + 2}
    assert len(calls) == len(others) + 2


def _after_dominance() -> TailProver:
    """A tail prover that has tried its dominance argument once (its log-ratio sub-provers are in ``_dom``)."""
    prover = TailProver(sp.exp(x) * (1 + y) - x**2 * sp.exp(x / 2) - x, [x, y], 0, 1, fmpq(8), False, [],
                        deadline=math.inf, max_ops=10**9)
    prover._dominance([(fmpq(8), fmpq(8)), (fmpq(0), fmpq(1))])
    return prover


def test_a_tail_and_its_dominance_sub_provers_share_one_budget():
    prover = _after_dominance()
    subs = [sub for sub in prover._dom["ratio"].values() if sub is not None]
    assert subs and all(sub.ops_limit == prover.ops_limit for sub in subs)


def test_the_search_gives_every_tail_the_tail_budget(monkeypatch):
    budgets = []

    class Recording(TailProver):
        def __init__(self, *args, **kwargs):
            budgets.append(kwargs.get("max_ops"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(core, "TailProver", Recording)
    core.prove("x + exp(-x) <= exp(9*x**2/16)", {"x": ("-oo", "oo")}, timeout=1)
    assert budgets and set(budgets) == {core.TAIL_OPS}


def test_a_short_timeout_still_gets_the_floor_of_kernel_operations(monkeypatch):
    """At timeout 0.5 the rate buys 12 500 operations, the floor 50 000: region B3 (about 21 000) needs the floor."""
    b3 = ("(1+a)*(p + exp(a)*q) >= 1 + exp(a)", {"a": ("2", "oo"), "p": ("(exp(a)-1)/a", "oo"), "q": ("0", "oo")})
    assert core.prove(*b3, timeout=0.5).status == "proved"
    monkeypatch.setattr(core, "KERNEL_OPS_MIN", 5_000)
    res = core.prove(*b3, timeout=0.5)
    assert res.status == "verified" and "interval operations" in res.certificate["kernel"]


def test_the_safety_net_only_ever_says_inconclusive(monkeypatch):
    assert core.safety_net(1.0) == core.SAFETY_FACTOR * (1.0 + core.SAFETY_FIXED)
    monkeypatch.setattr(core, "safety_net", lambda timeout: -1.0)  # already past: as on a hopelessly slow machine
    for relation in ("x**2 + 1 > 0", "x**2 - 1 > 0"):  # true (proved otherwise) and false (refuted otherwise)
        res = core.prove(relation, {"x": ("-2", "2")}, timeout=1)
        assert res.status == "inconclusive" and "safety net" in res.certificate["reason"]


def test_a_dominance_ratio_too_large_to_simplify_is_skipped(monkeypatch):
    from olr_verify.prover import tails

    assert any(sub is not None for sub in _after_dominance()._dom["ratio"].values())
    monkeypatch.setattr(tails, "MAX_RATIO_OPS", 0)
    ratios = list(_after_dominance()._dom["ratio"].values())
    assert ratios and all(sub is None for sub in ratios)


def _tail_search(relation: str):
    from olr_verify.kernel.inequality import Inequality
    from olr_verify.prover import certify

    cert = certify.statement(relation, {"x": ("8", "oo")})
    return certify._Search(Inequality(cert), 2_000, None, None)


def test_a_multiplier_candidate_that_cannot_add_up_or_that_the_kernel_would_refuse_is_not_searched(monkeypatch):
    """Sub-searches are spent only on a candidate whose pieces' largest lower bounds add up to >= 0 and that has at
    most the kernel's MAX_PIECES pieces (000 Lemma 5's and 003 Lemma 3's tails spent seconds on candidates that
    could not close)."""
    from olr_verify.kernel.inequality import MAX_PIECES
    from olr_verify.prover import certify

    search = _tail_search("exp(-x) >= 0")
    box = {"x": (fmpq(8), float("inf"))}

    def searched(*args, **kwargs):
        raise AssertionError("a piece was searched")

    monkeypatch.setattr(certify._Search, "_piece", searched)
    minus_one = tailcert.Candidate(sp.Integer(0), (), (sp.exp(-x), sp.Integer(-1)), sp.exp(-x) - 1)
    assert search._multiplier_leaf(minus_one, box, ("x", 1), 0) is None  # bounds at most 0 + (-1) < 0
    many = tailcert.Candidate(sp.Integer(0), (), tuple(sp.exp(-x) / (MAX_PIECES + 1) for _ in range(MAX_PIECES + 1)),
                              sp.exp(-x))
    assert search._multiplier_leaf(many, box, ("x", 1), 0) is None


def test_a_multiplier_candidate_whose_bounds_add_up_is_searched_and_closes():
    search = _tail_search("exp(-x) + 1 >= 0")
    box = {"x": (fmpq(8), float("inf"))}
    cand = tailcert.Candidate(sp.Integer(0), (), (sp.exp(-x), sp.Integer(1)), sp.exp(-x) + 1)
    leaf = search._multiplier_leaf(cand, box, ("x", 1), 0)
    assert leaf is not None and leaf["close"] == "multiplier" and len(leaf["pieces"]) == 2

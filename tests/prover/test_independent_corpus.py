"""The independent soundness corpus (tests/prover/corpus_independent.py): zero false statements proved, zero true
ones refuted; the completeness fraction is printed (``-s``) and asserted only by the benchmark.

A quick subset runs with ``make test`` (<= 30 s); the whole corpus with ``make lemmas`` (marker ``lemmas``; the
full parametrisations are also ``slow`` so that the default suite skips them).
"""
from __future__ import annotations

import importlib.util
import multiprocessing
import resource
import sys
from pathlib import Path

import pytest

from olr_verify.prover import prove

_spec = importlib.util.spec_from_file_location("prover_corpus_independent",
                                               Path(__file__).with_name("corpus_independent.py"))
corpus = sys.modules.setdefault("prover_corpus_independent", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(corpus)

pytestmark = pytest.mark.lemmas
FALSE = corpus.false_statements()
TRUE = corpus.true_statements()
QUICK_FALSE = FALSE[::23]
QUICK_TRUE = TRUE[::14]
OPTIONS = dict(timeout=1, kernel_boxes=1500)


def test_the_corpus_is_large_enough_and_every_witness_is_a_50_digit_counterexample_in_the_domain():
    assert len(FALSE) >= 120 and len(TRUE) >= 60 and len(corpus.TRUE) == len(TRUE) + len(corpus.MEMORY_HAZARDS)
    bad = [(r, p) for r, d, p in FALSE if not (corpus.in_domain(d, p) and corpus.witness_holds(r, p))]
    assert bad == []


def test_every_touching_point_of_a_true_statement_is_an_exact_zero_in_the_domain():
    for relation, domain, touch in corpus.TRUE:
        if touch is not None:
            assert corpus.in_domain(domain, touch), relation
            slack, _ = corpus._slack(relation)
            assert corpus.sp.simplify(slack.subs(corpus._exact(touch))) == 0, relation


@pytest.mark.parametrize("relation,domain", TRUE[::7])
def test_true_statements_hold_on_a_grid(relation, domain):
    ok, point = corpus.holds_on_samples(relation, domain, n=21 if len(domain) == 1 else 7)
    assert ok, (relation, point)


@pytest.mark.parametrize("relation,point", [
    ("exp(x) >= 1 + x", {"x": "1/1000"}),                    # true there
    ("exp(x) >= 1 + x - 1e-12", {"x": "0"}),                 # nudged the harmless way
    ("exp(x) > 1 + x", {"x": "1e-30"}),                      # strict, slack 5e-61 > 0, not an exact zero
    ("log(x) <= x - 1", {"x": "-1"}),                        # undefined (complex): not a witness
    ("1/x >= 0", {"x": "0"}),                                # undefined: not a witness
])
def test_the_witness_check_rejects_points_where_the_statement_does_not_fail(relation, point):
    assert not corpus.witness_holds(relation, point)


def test_in_domain_follows_dependent_and_infinite_bounds():
    dom = {"x": ("0", "oo"), "y": ("x", "x + 1")}
    assert corpus.in_domain(dom, {"x": "5", "y": "6"})
    assert not corpus.in_domain(dom, {"x": "5", "y": "6.000001"})
    assert not corpus.in_domain(dom, {"x": "-1e-30", "y": "0"})
    assert not corpus.in_domain(dom, {"x": "1"})


def _status(relation, domain):
    """prove()'s status, or ``unsupported`` when it declines the input with a ValueError (e.g. a function the
    reader accepts but the prover cannot enclose, such as ``expm1``): no verdict, so neither sound nor unsound."""
    try:
        res = prove(relation, domain, **OPTIONS)
    except ValueError:
        return "unsupported", None
    return res.status, res.counterexample


def _decide_false(relation, domain, point):
    status, _ = _status(relation, domain)
    assert status != "proved", (relation, domain, point)
    return status


def _decide_true(relation, domain):
    status, counterexample = _status(relation, domain)
    assert status != "refuted", (relation, domain, counterexample)
    return status


@pytest.mark.parametrize("relation,domain,point", QUICK_FALSE)
def test_quick_false_statements_are_never_proved(relation, domain, point):
    _decide_false(relation, domain, point)


@pytest.mark.parametrize("relation,domain", QUICK_TRUE)
def test_quick_true_statements_are_never_refuted(relation, domain):
    _decide_true(relation, domain)


@pytest.mark.slow
@pytest.mark.parametrize("relation,domain,point", FALSE)
def test_false_statements_are_never_proved(relation, domain, point):
    _decide_false(relation, domain, point)


@pytest.mark.slow
def test_true_statements_are_never_refuted_and_completeness_is_printed():
    statuses = [_decide_true(relation, domain) for relation, domain in TRUE]
    proved = statuses.count("proved")
    print(f"\nindependent corpus completeness: {proved}/{len(TRUE)} true statements proved "
          f"({100 * proved / len(TRUE):.0f} %)")


def _prove_capped(queue, relation, domain):
    resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
    queue.put(_status(relation, domain)[0])


@pytest.mark.slow  # prove('(1 + 1/x)**x <= E', x in [1, oo)) exhausted memory in refute.defined_at (an exact power
# at a huge point) until definedness was checked by arb enclosures, node by node, with nothing substituted exactly
@pytest.mark.parametrize("relation,domain", corpus.MEMORY_HAZARDS)
def test_memory_hazards_get_a_sound_verdict_within_1_5_gb_and_120_s(relation, domain):
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_prove_capped, args=(queue, relation, domain))
    child.start()
    child.join(120)
    if child.is_alive():
        child.kill()
        child.join()
    status = queue.get(timeout=5) if not queue.empty() else f"no verdict (exit {child.exitcode})"
    assert status in ("proved", "verified", "inconclusive", "unsupported"), status

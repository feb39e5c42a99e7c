"""Soundness corpus (tests/prover/corpus.py): zero false statements proved, zero true ones refuted.

A quick subset runs with ``make test``; the whole corpus (>= 200 false, >= 60 true) with ``make lemmas``.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from olr_verify.prover import prove

_spec = importlib.util.spec_from_file_location("prover_corpus", Path(__file__).with_name("corpus.py"))
corpus = sys.modules.setdefault("prover_corpus", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(corpus)

pytestmark = pytest.mark.lemmas
FALSE = corpus.false_statements()
TRUE = corpus.true_statements()
QUICK_FALSE = FALSE[::16]
QUICK_TRUE = TRUE[::10]
OPTIONS = dict(timeout=1, kernel_boxes=1500)


def test_the_corpus_is_large_enough_and_every_witness_is_a_50_digit_counterexample_in_the_domain():
    assert len(FALSE) >= 200 and len(TRUE) >= 60
    for relation, domain, point in FALSE:
        assert corpus.in_domain(domain, point), relation
        assert corpus.witness_holds(relation, point), relation


def test_a_true_statement_is_not_a_witness():
    assert not corpus.witness_holds("exp(x) >= 1 + x", {"x": "1/1000"})


def _decide_false(relation, domain, point):
    res = prove(relation, domain, **OPTIONS)
    assert res.status != "proved", relation


def _decide_true(relation, domain):
    res = prove(relation, domain, **OPTIONS)
    assert res.status != "refuted", (relation, res.counterexample)


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
@pytest.mark.parametrize("relation,domain", TRUE)
def test_true_statements_are_never_refuted(relation, domain):
    _decide_true(relation, domain)

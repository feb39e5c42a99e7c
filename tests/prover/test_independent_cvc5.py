"""benchmarks/cvc5_compare.py: the SMT-LIB translation and cvc5's verdicts on small cases with known answers."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("cvc5")
_path = Path(__file__).resolve().parents[2] / "benchmarks" / "cvc5_compare.py"
_spec = importlib.util.spec_from_file_location("cvc5_compare", _path)
compare = sys.modules.setdefault("cvc5_compare", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(compare)

pytestmark = pytest.mark.lemmas


@pytest.mark.parametrize("relation,domain,expected", [
    ("x > 0", {"x": ("0", "1")}, "refuted"),                                   # strict at the endpoint
    ("x**2 >= 0", {"x": ("-oo", "oo")}, "proved"),
    ("sqrt(x) >= x", {"x": ("0", "1.000000000001")}, "refuted"),               # sqrt through s >= 0, s*s = x
    ("y <= 1000000", {"x": ("0", "oo"), "y": ("0", "x")}, "refuted"),          # dependent unbounded bound
    ("1/x >= 0", {"x": ("-1", "1")}, "refuted"),                               # x = 0 excluded, x < 0 found
    ("Abs(x - 123) > 0", {"x": ("-oo", "oo")}, "refuted"),
])
def test_cvc5_answers_small_cases_correctly(relation, domain, expected):
    verdict, _ = compare.cvc5_decide(relation, domain, tlimit=5)
    assert verdict == expected


def test_the_translation_excludes_undefined_points_and_declines_what_it_cannot_encode():
    text = compare.to_smtlib("log(x) <= x - 1", {"x": ("-1", "2")})
    assert "(= (exp aux0) x)" in text and "(assert (> " in text  # log through exp; negation of <=
    assert "(not (= x 0.0))" in compare.to_smtlib("1/x >= 0", {"x": ("-1", "1")})
    for relation in ("erf(x) <= 1", "Piecewise((1/x, x > 0), (0, True)) >= 0"):
        with pytest.raises(compare.Untranslatable):
            compare.to_smtlib(relation, {"x": ("-1", "1")})
    assert compare.cvc5_decide("erf(x) <= 1", {"x": ("-1", "1")}, tlimit=1) == ("untranslatable", 0.0)

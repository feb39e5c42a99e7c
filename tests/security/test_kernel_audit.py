"""Kernel audit (the kernel made smaller): for every check that was merged or rewritten, the false certificate
it rejects, next to a true one it accepts (so that a rejection is the check's, not a typo's)."""
from __future__ import annotations

import pytest

from olr_verify.kernel import FORMAT, check

I = {"close": "interval"}
PI_BELOW = "3.14159265358979323846264338327950288419"  # pi - 7e-39: inside a 128-bit rounding of pi
PI_ABOVE = "3.1415926535897932384626433832795029"  # pi + 1.6e-34
TINY = "1/10**40"


def _ineq(relation, domain, tree):
    return {"format": FORMAT, "claim": None, "kind": "inequality", "relation": relation, "domain": domain, "tree": tree}


def _identity(lhs, rhs, domain):
    return {"format": FORMAT, "claim": None, "kind": "identity", "lhs": lhs, "rhs": rhs, "domain": domain}


def _exact(*relations):
    return {"format": FORMAT, "claim": None, "kind": "exact", "relations": list(relations)}


def _multiplier(relation, domain, pieces, **kw):
    return _ineq(relation, domain, {"close": "multiplier", "pieces": pieces, **kw})


TAIL = [["x", "0", "oo"]]
ONE = [{"expr": "1", "bound": "1", "tree": I}]
SQUARE = [["x", "-1", "1"], ["y", "-1", "1"]]
PI_E = "pi - 314159265358979323846264338327950288419716939937510/10**50"  # 5.8e-51 > 0: not a 128-bit sign

FALSE = {
    # an irrational bound enters the root box by its outward enclosure (to_fmpq, compare)
    "pi-upper-bound": _ineq(f"x <= {PI_BELOW}", [["x", "0", "pi"]], I),
    "pi-lower-bound": _ineq(f"x >= {PI_ABOVE}", [["x", "pi", "4"]], I),
    "empty-range": _ineq("x >= 5", [["x", "2", "1"]], I),
    # a domain entry is a list, not a 3-letter string read as [name, lo, hi] ("x01" was x in [0, 1])
    "string-domain-entry": _ineq("x >= 0", ["x01"], I),
    "string-domain-entry-identity": _identity("x/x", "1", ["x12"]),
    "empty-irrational-range": _ineq("x >= 5", [["x", "pi", "3"]], I),
    "empty-infinite-range": _ineq("x >= 5", [["x", "oo", "oo"]], I),
    "split-on-an-end": _ineq("x >= 0", [["x", "0", "1"]], {"split": ["x", "0"], "lo": I, "hi": I}),
    "split-outside": _ineq("x**2 >= 0", [["x", "0", "oo"]], {"split": ["x", "-1"], "lo": I, "hi": I}),
    # le0: an upper end of 10**-40 is not <= 0 (monotone faces, Abs branches, |x|)
    "monotone-face": _ineq(f"x - {TINY} >= 0", [["x", "0", "1"]], {"close": "monotone", "var": "x", "face": I}),
    "monotone-second-order": _ineq("x**2 - x + 1/5 >= 0", [["x", "0", "1"]], {"close": "monotone", "var": "x", "face": I}),
    "abs-branch": _ineq("-Abs(x) - x >= 0", [["x", "-1", TINY]], {"close": "zero"}),
    "magnitude": _ineq("x**2 >= 1/10**81", [["x", "-1", TINY]], I),
    "max": _ineq("Max(x, 1 - x) >= 3/5", [["x", "0", "1"]], I),
    "min": _ineq("Min(x, 1 - x) <= 2/5", [["x", "0", "1"]], I),
    "log1p-at-minus-one": _ineq("log(1 + x) <= 0", [["x", "-1", "0"]], I),
    # one Hessian check for touching (positive definite) and minimum (one coordinate: >= 0)
    "touching-flat-hessian": _ineq("x**3 >= 0", [["x", "-1", "1"]], {"close": "touching", "point": {"x": "0"}}),
    "touching-wrong-point": _ineq("x**2 - x >= 0", [["x", "-1", "1"]], {"close": "touching", "point": {"x": "0"}}),
    "touching-saddle": _ineq("x*y >= 0", SQUARE, {"close": "touching", "point": {"x": "0", "y": "0"}}),
    "touching-five-coordinates": _ineq("a**2 + b**2 + c**2 + d**2 + e**2 >= 0", [[n, "-1", "1"] for n in "abcde"],
                                       {"close": "touching", "point": {n: "0" for n in "abcde"}}),
    "minimum-concave": _ineq("-(x - y)**2 >= 0", SQUARE, {"close": "minimum", "point": {"x": "y"}}),
    "minimum-saddle": _ineq("x**2 - y**2 + z >= 0", SQUARE + [["z", "0", "1"]],
                            {"close": "minimum", "point": {"x": "0", "y": "0"}, "tree": I}),
    "minimum-five-coordinates": _ineq("a**2 + b**2 + c**2 + d**2 + e**2 + f >= 0", [[n, "-1", "1"] for n in "abcdef"],
                                      {"close": "minimum", "point": {n: "0" for n in "abcde"}, "tree": I}),
    # multiplier: the bounds, their sum, the identity, the flips (now read by one helper with positive)
    "multiplier-bound": _multiplier("exp(-x) > 0", TAIL, [{"expr": "1", "bound": "2", "tree": I}], log_multiplier="x"),
    "multiplier-sum-not-positive": _multiplier("exp(-x) - exp(-x) > 0", TAIL, [{"expr": "0", "bound": "0", "tree": I}],
                                               log_multiplier="x"),
    "multiplier-identity": _multiplier("exp(-x) - 2 > 0", TAIL, ONE, log_multiplier="x"),
    "multiplier-float-bound": _multiplier("exp(-x) > 0", TAIL, [{"expr": "1", "bound": 1, "tree": I}], log_multiplier="x"),
    "multiplier-undefined-flip": _multiplier("log(1 + exp(x)) - x > 0", [["x", "-1", "1"]],
                                             [{"expr": "log(1 + exp(-x))", "bound": "0", "strict": True, "tree": I}],
                                             flips=["log(x)"]),
    "positive": _ineq("log(1 + exp(x)) - x - 1/10**9 > 0", [["x", "30", "oo"]], {"close": "positive", "flips": ["x"]}),
    "positive-undefined-flip": _ineq("log(1 + exp(x)) - x > 0", [["x", "-1", "1"]], {"close": "positive", "flips": ["log(x)"]}),
    "positive-65-flips": _ineq("log(1 + exp(x)) - x > 0", [["x", "8", "oo"]], {"close": "positive", "flips": ["x"] * 65}),
    "zero-on-a-fixed-face": _ineq("x - y >= 0", SQUARE, {"split": ["x", "0"], "lo": {"close": "zero"}, "hi": {"close": "zero"}}),
    # identities: signs read off constant bounds only, contradictory signs, sides defined
    "identity-sign": _identity("sqrt(s**2)", "s", [["s", "-1", "oo"]]),
    "identity-contradictory-signs": _identity("x", "x + 0*1", [["x", PI_E, f"-({PI_E})"]]),
    "identity-undefined-side": _identity("x/x", "1", [["x", "-1", "1"]]),
    "identity-at-outside-the-range": _identity("at(Abs(x), x, -1)", "-1", [["x", "1", "2"]]),
    # exact arithmetic: each comparison, and what is not one rational relation
    "exact-eq": _exact("1/3 + 1/3 == 1"),
    "exact-lt": _exact("2**-1 < 1/2"),
    "exact-ge": _exact("1/3 >= 1/2"),
    "exact-two-comparisons": _exact("1 < 2 < 1"),
    "exact-mixed-comparisons": _exact("3 <= 2 < 3"),
    "exact-irrational": _exact("pi > 3"),
    "exact-division-by-zero": _exact("0**-1 == 1"),
    "chain-with-a-false-link": {"format": FORMAT, "claim": None, "kind": "chain", "links": [
        {"label": "a", "certificate": _ineq("x**2 + 1 > 0", [["x", "-oo", "oo"]], I)},
        {"label": "b", "certificate": _ineq("x**2 - 1 > 0", [["x", "-oo", "oo"]], I)}]},
    "domain-numbers": _ineq("x >= 0", [["x", 0, 1]], I),
}

TRUE = {
    "pi-upper-bound": _ineq(f"x <= {PI_ABOVE}", [["x", "0", "pi"]], I),
    "split-on-a-line": _ineq("x**2 >= 0", [["x", "-oo", "oo"]], {"split": ["x", "0"], "lo": I, "hi": I}),
    "monotone": _ineq("1 - x >= 0", [["x", "0", "1"]], {"close": "monotone", "var": "x", "face": {"close": "zero"}}),
    "abs-branch": _ineq("-Abs(x) - x >= 0", [["x", "-1", "0"]], {"close": "zero"}),
    "max": _ineq("Max(x, 1 - x) >= 1/2", [["x", "0", "1"]], {"split": ["x", "1/2"], "lo": I, "hi": I}),
    "minimum": _ineq("(x - y)**2 >= 0", SQUARE, {"close": "minimum", "point": {"x": "y"}}),
    "multiplier": _multiplier("exp(-x) > 0", TAIL, ONE, log_multiplier="x"),
    "positive": _ineq("log(1 + exp(x)) - x > 0", [["x", "8", "oo"]], {"close": "positive", "flips": ["x"]}),
    "identity-sign": _identity("sqrt(s**2)", "s", [["s", "0", "oo"]]),
    "identity-at-outside-the-range": _identity("at(Abs(x), x, -1)", "1", [["x", "1", "2"]]),
    "exact": _exact("1/3 + 1/3 + 1/3 == 1", "2**-1 <= 1/2", "1/3 < 1/2", "1/2 >= 1/3", "1/2 > 1/3"),
}


@pytest.mark.parametrize("name", sorted(FALSE))
def test_the_false_certificate_is_rejected_in_one_line(name):
    verdict = check(FALSE[name])
    assert not verdict.accepted and verdict.reason and "\n" not in verdict.reason, name


@pytest.mark.parametrize("name", sorted(TRUE))
def test_the_true_certificate_is_accepted(name):
    verdict = check(TRUE[name])
    assert verdict.accepted, verdict.reason

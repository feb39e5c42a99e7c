"""Seventh hostile review of the kernel: certificates of false statements that `check-proof` accepted. sympy
evaluated floor/ceiling of a constant in floating point (floor(tanh(300)) read as 1, in every kind of
certificate), an exact relation whose operands have no real value (asin(2) - asin(2) == 0)
was read as true, and an ``empty`` leaf closed a multiplier's pieces on faces at opposite ends of a coordinate that
the pieces, unlike the statement's relation, depend on. Each rejection test failed (the certificate was accepted)
before the fix."""
from __future__ import annotations

import pytest
import sympy as sp

from olr_verify.expr import ExprError, parse_expr
from olr_verify.kernel import FORMAT, check


def _inequality(relation, domain, tree):
    return {"format": FORMAT, "claim": None, "kind": "inequality", "relation": relation, "domain": domain,
            "tree": tree}


# 1 - tanh(300) = 5.3e-261, erfc(30) = 2.6e-393, pi/2 - atan(10**300) = 1e-300 (mpmath, 50 digits): every
# floor below is 0 and every ceiling of the negated value is 0, where sympy's evaluation said 1 and -1.
FALSE_BY_FLOOR = {
    "exact": {"format": FORMAT, "claim": None, "kind": "exact",
              "relations": ["floor(erf(30)) == 1", "ceiling(-tanh(300)) == -1"]},
    "inequality": _inequality("floor(tanh(300)) >= 1", [["x", "0", "1"]], {"close": "interval"}),
    "domain bound": _inequality("x >= 1", [["x", "floor(tanh(300))", "1"]], {"close": "interval"}),
    "identity": {"format": FORMAT, "claim": None, "kind": "identity", "lhs": "floor(atan(10**300)*2/pi)",
                 "rhs": "1", "domain": []},
}


@pytest.mark.parametrize("kind", sorted(FALSE_BY_FLOOR))
def test_a_false_statement_resting_on_the_floor_of_a_near_integer_constant_is_rejected(kind):
    assert not check(FALSE_BY_FLOOR[kind]).accepted


@pytest.mark.parametrize("text, value", [("floor(tanh(300))", 0), ("ceiling(-tanh(300))", 0), ("floor(erf(30))", 0),
                                         ("floor(2*atan(10**300)/pi)", 0), ("ceiling(tanh(300))", 1),
                                         ("floor(-erf(30))", -1), ("floor(pi)", 3), ("ceiling(sqrt(2)*10)", 15),
                                         ("floor(-7/2)", -4), ("floor(sin(1))", 0)])
def test_the_reader_gives_the_integer_part_of_a_constant_from_its_enclosure(text, value):
    assert parse_expr(text, {}) == value


def test_a_substituted_constant_goes_through_the_same_rule():
    x = sp.Symbol("x")
    assert parse_expr("floor(x)", {"x": x}).subs(x, sp.tanh(300)) == 0
    assert parse_expr("at(ceiling(x), x, -tanh(300))", {"x": x}) == 0


@pytest.mark.parametrize("text", ["floor(exp(log(3)))", "ceiling(exp(log(2)))", "floor(asin(2))"])
def test_an_integer_part_no_enclosure_decides_is_refused(text):
    with pytest.raises(ExprError, match="floor|ceiling"):
        parse_expr(text, {})


# The domain is the point (1, 1), where y - 2 = -1 (the first), and the segment y = x in [0, 1], where
# y - x - 1 = -1 (the second). Each piece was closed on the face y = hi (u = 1), the other on y = lo (u = 0).
PIECES_ON_OPPOSITE_FACES = [
    _inequality("y >= 2", [["x", "1", "2"], ["y", "x", "1"]], {
        "close": "multiplier", "log_multiplier": "0", "pieces": [
            {"expr": "2*y", "bound": "2",
             "tree": {"close": "empty", "var": "y", "end": "hi", "face": {"close": "interval"}}},
            {"expr": "x + (1 - x)*y - 2 - 2*y", "bound": "-1",
             "tree": {"close": "empty", "var": "y", "end": "lo", "face": {"close": "interval"}}}]}),
    _inequality("y >= x + 1", [["x", "0", "1"], ["y", "x", "x"]], {
        "close": "multiplier", "log_multiplier": "0", "pieces": [
            {"expr": "2*y", "bound": "2",
             "tree": {"close": "empty", "var": "y", "end": "hi", "face": {"close": "interval"}}},
            {"expr": "-1 - 2*y", "bound": "-1",
             "tree": {"close": "empty", "var": "y", "end": "lo", "face": {"close": "interval"}}}]}),
]


@pytest.mark.parametrize("cert", PIECES_ON_OPPOSITE_FACES, ids=["point", "segment"])
def test_pieces_of_a_multiplier_closed_on_faces_of_a_degenerate_range_are_rejected(cert):
    verdict = check(cert)
    assert not verdict.accepted
    assert "not a piece" in verdict.reason


def test_the_statements_own_relation_still_closes_on_the_face_of_a_degenerate_range():
    """y in [x, x]: the domain is the segment y = x, where y - x = 0 at either end of y's coordinate."""
    cert = _inequality("y - x >= 0", [["x", "0", "1"], ["y", "x", "x"]],
                       {"close": "empty", "var": "y", "end": "lo", "face": {"close": "interval"}})
    assert check(cert).accepted
    assert not check({**cert, "relation": "y - x > 0"}).accepted


@pytest.mark.parametrize("relation", ["asin(2) - asin(2) == 0", "cos(acos(2)) == 2", "atanh(3)*0 == 0"])
def test_an_exact_relation_whose_operand_has_no_real_value_is_rejected(relation):
    """Reading evaluates them away (to 0 == 0, 2 == 2): true over the complex numbers, meaningless over the reals."""
    verdict = check({"format": FORMAT, "claim": None, "kind": "exact", "relations": [relation]})
    assert not verdict.accepted
    assert "no real enclosure" in verdict.reason


def test_an_exact_relation_of_real_operands_is_still_accepted():
    assert check({"format": FORMAT, "claim": None, "kind": "exact",
                  "relations": ["Abs(0.34 - 0.34) <= 0", "sqrt(4) == 2", "9/10 <= 1"]}).accepted


# Second round. sympy decides the sign of a constant in floating point with a wrong error estimate: Z below is
# exactly 0 (sinh + cosh = exp) and L exactly -10**-200, but sympy read Z > 0 and L > 0, so sign, Abs, Max, Min,
# Piecewise conditions and the sign a symbol takes from a constant bound were wrong.
C = "999999 + 1/3"
Z = "sinh(10**6/3) + cosh(10**6/3) - exp(10**6/3)"
L = f"sinh({C})*exp(-({C})) + cosh({C})*exp(-({C})) - 1 - 10**(-200)"

FALSE_BY_A_CONSTANTS_SIGN = {
    "exact sign": {"format": FORMAT, "claim": None, "kind": "exact", "relations": [f"sign({Z}) == 1"]},
    "exact Min": {"format": FORMAT, "claim": None, "kind": "exact", "relations": [f"Min({L}, 0) == 0"]},
    "exact Abs": {"format": FORMAT, "claim": None, "kind": "exact", "relations": [f"Abs({L}) - ({L}) == 0"]},
    "exact Piecewise": {"format": FORMAT, "claim": None, "kind": "exact",
                        "relations": [f"Piecewise((1, {L} + 2*10**(-200) > 0), (0, True)) == 0"]},
    "inequality sign": _inequality(f"sign({Z}) >= 1", [["x", "0", "1"]], {"close": "interval"}),
    "inequality Max": _inequality(f"Max({L}, 0) <= {L}", [["x", "0", "1"]], {"close": "interval"}),
    "inequality at": _inequality(f"at(Max(x, 0), x, {L}) <= {L}", [["y", "0", "1"]], {"close": "interval"}),
    "bound Min": _inequality("x >= 0", [["x", f"Min({L}, 0)", "1"]], {"close": "interval"}),
    "identity signed bound": {"format": FORMAT, "claim": None, "kind": "identity", "lhs": "sqrt(x**2)", "rhs": "x",
                              "domain": [["x", L, "1"]]},
    "identity Abs": {"format": FORMAT, "claim": None, "kind": "identity", "lhs": "Abs(x)", "rhs": "x",
                     "domain": [["x", L, "1"]]},
}


@pytest.mark.parametrize("kind", sorted(FALSE_BY_A_CONSTANTS_SIGN))
def test_a_false_statement_resting_on_sympys_sign_of_a_constant_is_rejected(kind):
    assert not check(FALSE_BY_A_CONSTANTS_SIGN[kind]).accepted


@pytest.mark.parametrize("c", ["700/3", "3001/3", "10**6/3"])
def test_sympy_no_longer_signs_a_constant_that_is_exactly_zero(c):
    c = parse_expr(c, {})
    zero = sp.sinh(c) + sp.cosh(c) - sp.exp(c)
    assert zero.is_positive is None and zero.is_negative is None
    assert sp.sign(zero).func is sp.sign  # left unevaluated


def test_signs_sympy_left_open_are_decided_by_the_balls():
    assert (sp.tanh(300) - 1).is_negative and (1 - sp.erf(30)).is_positive
    assert parse_expr("sign(tanh(300) - 1)", {}) == -1
    assert parse_expr("Max(tanh(300), 1)", {}) == 1
    assert parse_expr(L, {}).is_negative  # -10**-200 once the zero part is seen to be tiny: 8192-bit balls


def test_nested_max_calls_are_capped_before_sympy_merges_them():
    """Max(..., Max(..., x)) nested 9 deep (2 KB) kept check() busy for more than a minute."""
    args = ", ".join(f"exp({i}*x)-{i}*y**2" for i in range(1, 12))
    text = "x"
    for _ in range(9):
        text = f"Max({args}, {text})"
    cert = _inequality(f"{text} >= x - 100", [["x", "0", "1"], ["y", "0", "1"]], {"close": "interval"})
    verdict = check(cert)
    assert not verdict.accepted and "Max/Min" in verdict.reason


# Third round. Where no ball decided a constant's sign, sympy's minimal_polynomial fallback was kept: it picks its
# factor by a 200-digit evaluation, so V = 1.414...e-3000 (mpmath, 3100 digits) read as exactly 0, and it has no
# time bound (five denested surd groups: more than a minute).
V = "(sqrt(1 + 10**-3000*sqrt(2)) - sqrt(1 - 10**-3000*sqrt(2)))"

FALSE_BY_A_MINIMAL_POLYNOMIAL = {
    "exact sign": {"format": FORMAT, "claim": None, "kind": "exact", "relations": [f"sign({V}) == 0"]},
    "exact Abs": {"format": FORMAT, "claim": None, "kind": "exact", "relations": [f"10**3000*Abs({V}) == 0"]},
    "identity": {"format": FORMAT, "claim": None, "kind": "identity", "lhs": f"sign({V})", "rhs": "0", "domain": []},
    "inequality": _inequality(f"x + sign({V}) <= x", [["x", "0", "1"]], {"close": "interval"}),
    "signed bound": {"format": FORMAT, "claim": None, "kind": "identity", "lhs": "sqrt(x**2)", "rhs": "x",
                     "domain": [["x", f"-{V}", "1"]]},
}


@pytest.mark.parametrize("kind", sorted(FALSE_BY_A_MINIMAL_POLYNOMIAL))
def test_a_constant_no_ball_decides_is_not_read_as_zero(kind):
    assert not check(FALSE_BY_A_MINIMAL_POLYNOMIAL[kind]).accepted


def test_a_sum_of_denested_surds_is_read_without_a_minimal_polynomial():
    groups = " + ".join(f"(sqrt({a + b} + 2*sqrt({a * b})) - sqrt({a}) - sqrt({b}))"
                        for a, b in ((2, 3), (5, 7), (11, 13), (17, 19), (23, 29)))
    cert = {"format": FORMAT, "claim": None, "kind": "exact", "relations": [f"Abs({groups}) == 0"]}
    verdict = _fast(lambda: check(cert), 10)
    assert not verdict.accepted and len(verdict.reason) <= 500  # true, but not a rational expression: not shown


def _fast(fn, seconds):
    import time

    start = time.perf_counter()
    out = fn()
    assert time.perf_counter() - start < seconds
    return out

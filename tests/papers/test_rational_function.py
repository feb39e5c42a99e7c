"""The exact zero test of rational functions (olr_verify/rational_function.py) that decides matrix identities.

Each false case differs from a true one by as little as the test can make it: a coefficient off by 10^-40, a
difference that vanishes on a whole line, a cancellation only up to a sign."""
import time

import pytest
import sympy as sp

from olr_verify.rational_function import fraction, is_zero_function

a, b, c, x = sp.symbols("a b c x", real=True)
M = sp.Matrix(3, 3, sp.symbols("M11:14 M21:24 M31:34", real=True))


def test_a_symbolic_inverse_times_its_matrix_is_the_identity():
    inv = M.adjugate(method="berkowitz") / M.det(method="berkowitz")
    product = M * inv
    assert all(is_zero_function(product[i, j] - (1 if i == j else 0)) for i in range(3) for j in range(3))


@pytest.mark.parametrize("expr", [
    1 / (a - b) - 1 / (a + b) - 2 * b / (a**2 - b**2) + sp.Rational(1, 10**40),  # off by 10^-40
    (a - b) * (a + b) - a**2 + b**2 + (a - b) * c,  # zero on the whole line a = b
    1 / (a - b) + 1 / (b - a) + 2 / (a - b),  # cancels only up to a sign
    ((a + b)**7 - sp.expand((a + b)**7)) + a**7 * b**-7 - a**7 / b**7 + x**-1,
])
def test_a_nonzero_rational_function_is_not_zero(expr):
    assert is_zero_function(expr) is False


def test_what_is_not_a_rational_function_is_left_undecided():
    assert is_zero_function(sp.sqrt(a) - a) is None
    assert is_zero_function(sp.Float("0.1") * a + b) is None  # a float is not an exact coefficient
    assert is_zero_function(sp.exp(a) + a) is None


def test_a_huge_power_gives_up_at_once():
    t = time.perf_counter()
    assert is_zero_function((a + b + 1)**100000 - (a + b + 1)**100000 + (a + 1)**99999) is None
    assert time.perf_counter() - t < 5


def test_the_value_at_a_point_is_exact_and_none_on_a_pole():
    found = fraction((a**2 - b**2) / (a - b) + 1 / c)
    assert found.at({"a": "1/3", "b": "2", "c": "7"}) == sp.Rational(1, 3) + 2 + sp.Rational(1, 7)
    assert found.at({"a": "1", "b": "2", "c": "0"}) is None
    assert fraction(a / (b - b + 0 * a)) is None  # a division by the zero polynomial as written

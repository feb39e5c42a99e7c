"""The kernel's exact-zero test: its numeric screen may only say "not 0" (never a proof of 0), its cache is keyed
by the expression, and the cheap interval conditions of ``touching`` run before sympy's exact ones."""
import time
from pathlib import Path

import pytest
import sympy as sp

from olr_verify.kernel.cli import verdict_of
from olr_verify.kernel.inequality import _nonzero_somewhere, _screen_points, exactly_zero

x, y = sp.symbols("x y")


def test_identically_zero_forms_are_zero_and_the_screen_never_calls_them_nonzero():
    zeros = [x - x, (x + 1) ** 2 - x**2 - 2 * x - 1, sp.exp(x) * sp.exp(-x) - 1, sp.log(sp.exp(x)) - x,
             sp.cosh(x) ** 2 - sp.sinh(x) ** 2 - 1, (x * y - y * x) / (1 + x**2)]
    for e in zeros:
        assert not _nonzero_somewhere(e), e
        assert exactly_zero(e), e


def test_forms_zero_only_somewhere_are_not_zero():
    for e in (sp.sqrt(x**2) - x, sp.Abs(x) - x, x * (x - sp.Rational(37, 100)), sp.Max(x, 0) - x,
              sp.exp(x) - 1 - x - x**2 / 2, (x - sp.Rational(37, 100)) * (y - sp.Rational(11, 100))):
        assert not exactly_zero(e), e


def test_a_large_nonzero_form_is_rejected_by_the_screen_without_sympy_simplify():
    big = sum(sp.exp(k * x) / (1 + sp.exp((k + 1) * y)) for k in range(1, 30)) - sp.Rational(1, 10**9)
    start = time.perf_counter()
    assert _nonzero_somewhere(big) and not exactly_zero(big)
    assert time.perf_counter() - start < 5


HOSTILE = sorted((Path(__file__).parent / "data" / "hostile_certificates").glob("*.json"))


@pytest.mark.parametrize("path", HOSTILE, ids=[p.stem for p in HOSTILE])
def test_certificates_built_to_hang_the_kernel_are_rejected_within_seconds(path):
    """From a hostile review: 11-coordinate Hessians (n! cofactors), a simplify on a form whose factor vanishes at
    fixed screen points, an 8th derivative of nested atan/tanh, an identity hiding (a+...+f)**40 inside exp. Each
    ran past 60 s before; each must now be rejected (they are not false statements: the cost is the defect)."""
    start = time.perf_counter()
    accepted, reason = verdict_of(str(path))
    assert not accepted and reason, path.name
    assert time.perf_counter() - start < 20, path.name


def test_the_screen_points_depend_on_the_expression():
    a, b = sp.symbols("a b")
    assert _screen_points(a + b) != _screen_points(a - b)

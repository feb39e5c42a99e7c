"""An independent soundness corpus for :func:`olr_verify.prover.prove` (issue 13, "Numbers").

Written as an outside reviewer would, from the documented input syntax only (README "Proofs anyone can check",
``docs/certificates.md``), without reading the prover, its kernel or ``tests/prover/corpus.py``.

- :data:`TRUE` — 70 textbook inequalities ``(relation, domain, touching point or None)``: ``e^x >= 1+x``,
  ``log(1+x) <= x``, ``x/(1+x) <= log(1+x)``, Bernoulli, AM-GM, Jensen, Pinsker's binary-KL bound
  ``KL(p||q) >= 2(p-q)^2``, the logistic-curvature bound ``sigma(x) sigma(-x) <= 1/4``, softplus bounds, ``tanh``,
  ``atan``, ``asinh``, ``erf``, ``sqrt``, ``Abs``/``Max``/``Min`` terms, unbounded domains, 2-3 variables,
  dependent bounds, strict relations whose slack tends to 0 at infinity.
- :func:`false_statements` — every touching truth mutated into false statements (slack nudged by ``1e-6`` and
  ``1e-12``, strict relation at the exact touching point) plus :data:`HANDWRITTEN_FALSE`: coefficients nudged by
  ``1e-6 .. 1e-9``, violations only in a far tail (``x >= 1e6``), at an endpoint, strict at an exact zero, behind a
  ``Piecewise`` jump, an ``Abs`` kink or a ``Max``/``Min`` switch, with dependent bounds, near removable
  singularities. Each carries a witness point (exact decimal or ``p/q`` strings) where the statement fails;
  :func:`witness_holds` re-checks it with mpmath at 50 digits (a strict relation: the slack is exactly 0 there,
  which sympy must show exactly), and :func:`in_domain` checks the point lies in the (possibly dependent) domain.

Same interface as ``tests/prover/corpus.py``: ``false_statements()`` gives ``(relation, domain, point)``,
``true_statements()`` gives ``(relation, domain)``.
"""
from __future__ import annotations

import re

import mpmath
import sympy as sp

from olr_verify.expr import parse_expr, parse_relation

R = ("-oo", "oo")
POS = ("0", "oo")
Domain = dict[str, tuple[str, str]]

#: (relation, domain, touching point where the slack is exactly 0, or None)
TRUE: list[tuple[str, Domain, dict[str, str] | None]] = [
    ("exp(x) >= 1 + x", {"x": R}, {"x": "0"}),
    ("log(1 + x) <= x", {"x": ("-1/2", "oo")}, {"x": "0"}),
    ("x/(1 + x) <= log(1 + x)", {"x": ("-1/2", "oo")}, {"x": "0"}),
    ("log1p(x) <= x", {"x": POS}, {"x": "0"}),
    ("1/(1 + exp(-x)) * (1/(1 + exp(x))) <= 1/4", {"x": R}, {"x": "0"}),
    ("exp(x)/(1 + exp(x))**2 <= 1/4", {"x": R}, {"x": "0"}),
    ("log(1 + exp(x)) >= log(2) + x/2", {"x": R}, {"x": "0"}),
    ("log(1 + exp(x)) <= log(2) + x/2 + x**2/8", {"x": R}, {"x": "0"}),
    ("tanh(x) <= x", {"x": POS}, {"x": "0"}),
    ("tanh(x) >= x - x**3/3", {"x": POS}, {"x": "0"}),
    ("atan(x) <= x", {"x": POS}, {"x": "0"}),
    ("atan(x) >= x/(1 + x**2)", {"x": POS}, {"x": "0"}),
    ("sqrt(x) <= (1 + x)/2", {"x": POS}, {"x": "1"}),
    ("x*y <= (x**2 + y**2)/2", {"x": R, "y": R}, {"x": "1", "y": "1"}),
    ("(1 + x)**3 >= 1 + 3*x", {"x": ("-1", "oo")}, {"x": "0"}),
    ("sqrt(1 + x) <= 1 + x/2", {"x": ("-1", "oo")}, {"x": "0"}),
    ("exp((x + y)/2) <= (exp(x) + exp(y))/2", {"x": ("-5", "5"), "y": ("-5", "5")}, {"x": "0", "y": "0"}),
    ("log((x + y)/2) >= (log(x) + log(y))/2", {"x": ("1/10", "10"), "y": ("1/10", "10")}, {"x": "1", "y": "1"}),
    ("p*log(p/q) + (1 - p)*log((1 - p)/(1 - q)) >= 2*(p - q)**2",
     {"p": ("1/100", "99/100"), "q": ("1/100", "99/100")}, {"p": "1/2", "q": "1/2"}),
    ("exp(-x) <= 1/(1 + x)", {"x": POS}, {"x": "0"}),
    ("exp(x) >= 1 + x + x**2/2", {"x": POS}, {"x": "0"}),
    ("exp(x) <= 1 + x + x**2", {"x": ("0", "1")}, {"x": "0"}),
    ("log(x) <= x - 1", {"x": ("1/100", "oo")}, {"x": "1"}),
    ("log(x) >= 1 - 1/x", {"x": ("1/100", "oo")}, {"x": "1"}),
    ("cosh(x) >= 1 + x**2/2", {"x": R}, {"x": "0"}),
    ("sinh(x) >= x", {"x": POS}, {"x": "0"}),
    ("cosh(x) <= exp(x**2/2)", {"x": R}, {"x": "0"}),
    ("x*exp(-x) <= exp(-1)", {"x": POS}, {"x": "1"}),
    ("x*log(x) >= x - 1", {"x": ("1/100", "oo")}, {"x": "1"}),
    ("exp(x)/(1 + exp(x))**2 >= exp(-x)/4", {"x": POS}, {"x": "0"}),
    ("log(1 + exp(x)) <= log(2) + Max(x, 0)", {"x": R}, {"x": "0"}),
    ("sqrt(1 + x**2) <= 1 + Abs(x)", {"x": R}, {"x": "0"}),
    ("Min(x, y) <= (x + y)/2", {"x": ("-10", "10"), "y": ("-10", "10")}, {"x": "1", "y": "1"}),
    ("Max(x, y) >= (x + y)/2", {"x": ("-10", "10"), "y": ("-10", "10")}, {"x": "1", "y": "1"}),
    ("y**2 <= x**2", {"x": ("0", "3"), "y": ("-x", "x")}, {"x": "1", "y": "1"}),
    ("x**2 <= t", {"t": ("0", "1"), "x": ("-t", "t")}, {"t": "1", "x": "1"}),
    ("x**2 + y**2 + z**2 >= x*y + y*z + z*x", {"x": ("-3", "3"), "y": ("-3", "3"), "z": ("-3", "3")},
     {"x": "1", "y": "1", "z": "1"}),
    ("exp(x) + exp(y) + exp(z) >= 3 + x + y + z", {"x": ("-2", "2"), "y": ("-2", "2"), "z": ("-2", "2")},
     {"x": "0", "y": "0", "z": "0"}),
    ("log1p(x) >= x - x**2/2", {"x": POS}, {"x": "0"}),
    ("log1p(x) <= x - x**2/2 + x**3/3", {"x": POS}, {"x": "0"}),
    ("exp(-x**2) <= 1/(1 + x**2)", {"x": R}, {"x": "0"}),
    ("1 - exp(-x) <= x", {"x": R}, {"x": "0"}),
    ("erf(x) <= 2*x/sqrt(pi)", {"x": POS}, {"x": "0"}),
    ("asinh(x) <= x", {"x": POS}, {"x": "0"}),
    ("expm1(x) >= x", {"x": R}, {"x": "0"}),
    ("log(cosh(x)) <= x**2/2", {"x": R}, {"x": "0"}),
    ("p*log(p) + (1 - p)*log(1 - p) >= -log(2)", {"p": ("1/1000", "999/1000")}, {"p": "1/2"}),
    ("x**4 - 2*x**2 + 1 >= 0", {"x": R}, {"x": "1"}),
    ("x**2 - 2*x*y + 2*y**2 >= 0", {"x": R, "y": R}, {"x": "0", "y": "0"}),
    ("x*y <= exp(x) + y*log(y) - y", {"x": ("-3", "3"), "y": ("1/10", "10")}, {"x": "0", "y": "1"}),
    ("Abs(1/(1 + exp(-x)) - 1/(1 + exp(-y))) <= Abs(x - y)/4", {"x": ("-5", "5"), "y": ("-5", "5")},
     {"x": "0", "y": "0"}),
    ("sqrt(x*y) <= (x + y)/2", {"x": POS, "y": POS}, {"x": "1", "y": "1"}),
    ("exp(y) <= exp(x)", {"x": POS, "y": ("0", "x")}, {"x": "1", "y": "1"}),
    ("(x + y + z)**3 >= 27*x*y*z", {"x": ("0", "2"), "y": ("0", "2"), "z": ("0", "2")},
     {"x": "1", "y": "1", "z": "1"}),
    ("exp(x) >= exp(1)*x", {"x": R}, {"x": "1"}),
    ("x**3 - 3*x + 2 >= 0", {"x": ("-2", "oo")}, {"x": "1"}),
    ("2*x/(2 + x) <= log(1 + x)", {"x": POS}, {"x": "0"}),
    ("1/(1 + exp(-x)) <= 1/2 + x/4", {"x": POS}, {"x": "0"}),
    ("log(1 + exp(-x)) <= log(2) - x/2 + x**2/8", {"x": R}, {"x": "0"}),
    # no touching point: strict relations whose slack tends to 0 at infinity, asymptotic equality, no zero at all
    ("log(1 + exp(x)) > x", {"x": R}, None),
    ("log(1 + exp(-x)) > 0", {"x": R}, None),
    ("1/(1 + exp(-x)) < 1", {"x": R}, None),
    ("tanh(x) < 1", {"x": R}, None),
    ("atan(x) < pi/2", {"x": R}, None),
    ("x/sqrt(1 + x**2) < 1", {"x": R}, None),
    ("Abs(x) < sqrt(x**2 + 1)", {"x": R}, None),
    ("asinh(x) >= log(2*x)", {"x": ("1/10", "oo")}, None),
    ("(1 + 1/x)**x <= E", {"x": ("1", "oo")}, None),  # see MEMORY_HAZARDS: not run in-process
    ("log(x) <= x/E", {"x": ("1/100", "oo")}, None),
    ("x**2 + 1 > 2*x*exp(-x**2)", {"x": R}, None),
]

#: True statements on which prove(timeout=1) exhausted memory (> 3 GB, MemoryError in the refutation search's
#: exact evaluation at a huge point) on 2026-11-24: kept out of in-process runs, tested in a memory-capped child.
MEMORY_HAZARDS: list[tuple[str, Domain]] = [("(1 + 1/x)**x <= E", {"x": ("1", "oo")})]

_OP = re.compile(r" (<=|>=|<|>) ")
NUDGES = ("1e-6", "1e-12")

#: (relation, domain, witness): false statements written by hand, grouped by the trap they set.
HANDWRITTEN_FALSE: list[tuple[str, Domain, dict[str, str]]] = [
    # coefficients nudged by 1e-6 .. 1e-9: the violation sits next to the touching point, not at it
    ("exp(x) >= 1 + (1 + 1e-9)*x", {"x": R}, {"x": "1e-9"}),
    ("exp(x) >= 1 + (1 - 1e-9)*x", {"x": R}, {"x": "-1e-9"}),
    ("log(1 + x) <= (1 - 1e-6)*x", {"x": ("-1/2", "oo")}, {"x": "1e-7"}),
    ("tanh(x) >= x - (1 - 1e-6)*x**3/3", {"x": POS}, {"x": "1e-4"}),
    ("log(cosh(x)) <= (1 - 1e-6)*x**2/2", {"x": R}, {"x": "1e-4"}),
    ("exp(x)/(1 + exp(x))**2 <= 1/4 - (1/16 + 1e-9)*x**2", {"x": R}, {"x": "1e-3"}),
    ("log(1 + exp(x)) <= log(2) + x/2 + (1 - 1e-6)*x**2/8", {"x": R}, {"x": "1e-4"}),
    ("p*log(p/q) + (1 - p)*log((1 - p)/(1 - q)) >= (2 + 1e-6)*(p - q)**2",
     {"p": ("1/100", "99/100"), "q": ("1/100", "99/100")}, {"p": "0.5001", "q": "0.5"}),
    ("Abs(1/(1 + exp(-x)) - 1/(1 + exp(-y))) <= (1 - 1e-6)*Abs(x - y)/4",
     {"x": ("-5", "5"), "y": ("-5", "5")}, {"x": "0", "y": "1e-4"}),
    ("Abs(1/(1 + exp(-x)) - 1/2) <= (1 - 1e-9)*Abs(x)/4", {"x": R}, {"x": "-1e-5"}),
    ("sqrt(x) <= (1 + (1 - 1e-6)*x)/2", {"x": POS}, {"x": "1"}),
    ("x*exp(-x) <= exp(-1 - 1e-12)", {"x": POS}, {"x": "1"}),
    ("exp(x) >= 2.718281829*x", {"x": R}, {"x": "1"}),
    ("exp(x) >= 2.7182818284590452353603*x", {"x": R}, {"x": "1"}),
    ("x + exp(-x) <= exp((1/2 - 1e-6)*x**2) + 1e-30", {"x": R}, {"x": "-1e-4"}),
    ("atan(x) <= pi/2 - 1e-6", {"x": POS}, {"x": "1e7"}),
    # violations only in a far tail (x >= 1e6)
    ("log(x) <= x/1000000 + 12.8", {"x": ("1", "oo")}, {"x": "1000000"}),
    ("x*(3000000 - x) >= 0", {"x": POS}, {"x": "4000000"}),
    ("1/(1 + x) >= 1e-7", {"x": POS}, {"x": "20000000"}),
    ("exp(x/1000000) <= 1 + 2*x/1000000", {"x": POS}, {"x": "2000000"}),
    ("log1p(x) <= 14", {"x": POS}, {"x": "2000000"}),
    ("sqrt(x) <= 1000 + x/10000000", {"x": POS}, {"x": "25000000000000"}),
    ("tanh(x/1000000) <= 0.99", {"x": R}, {"x": "3000000"}),
    ("1/(1 + exp(-x/1000000)) <= 0.9", {"x": R}, {"x": "3000000"}),
    ("x*exp(-x/1000000) <= 300000", {"x": POS}, {"x": "1000000"}),
    ("exp(x/1000000) >= (x/1000000)**3", {"x": POS}, {"x": "3000000"}),
    ("y <= 1000000", {"x": POS, "y": ("0", "x")}, {"x": "2000000", "y": "2000000"}),
    ("y*(2500000 - y) >= 0", {"x": POS, "y": ("0", "x")}, {"x": "3000000", "y": "3000000"}),
    ("log(1 + exp(-x)) >= 1e-9", {"x": R}, {"x": "30"}),
    ("x**2*exp(-x/1000000) <= 5*10**11", {"x": POS}, {"x": "2000000"}),
    ("Piecewise((1/(1 + exp(-x)), x < 1000000), (-1, True)) > 0", {"x": R}, {"x": "1000000"}),
    ("atan(x - 2000000) <= 1", {"x": R}, {"x": "3000000"}),
    ("y <= 20", {"x": ("1", "oo"), "y": ("0", "log(x)")}, {"x": "2000000000", "y": "21"}),
    ("exp(x)*x**2 <= 1/2", {"x": ("-oo", "0")}, {"x": "-2"}),
    # at an endpoint
    ("x**2 <= 1", {"x": ("0", "1.000000001")}, {"x": "1.000000001"}),
    ("sqrt(x) >= x", {"x": ("0", "1.000000000001")}, {"x": "1.000000000001"}),
    ("log(x) >= 0", {"x": ("0.9999999999", "5")}, {"x": "0.9999999999"}),
    ("exp(x) >= 1 + x + x**2/2", {"x": ("-1e-6", "10")}, {"x": "-1e-6"}),
    ("tanh(x) <= x", {"x": ("-1e-9", "1")}, {"x": "-1e-9"}),
    ("atan(x) <= x", {"x": ("-1e-8", "1")}, {"x": "-1e-8"}),
    ("x*(1 - x) >= 0", {"x": ("0", "1.0000001")}, {"x": "1.0000001"}),
    ("y <= x", {"x": ("0", "1"), "y": ("0", "x + 1e-9")}, {"x": "1/2", "y": "0.500000001"}),
    ("x > 0", {"x": ("0", "1")}, {"x": "0"}),
    ("log1p(x) < x", {"x": ("0", "1")}, {"x": "0"}),
    ("1/(1 + exp(-x)) >= 1/2", {"x": ("-1e-12", "50")}, {"x": "-1e-12"}),
    ("erf(x) <= 2*x/sqrt(pi)", {"x": ("-1e-6", "3")}, {"x": "-1e-6"}),
    # strict at an exact zero
    ("tanh(x - 37)**2 > 0", {"x": R}, {"x": "37"}),
    ("Abs(x - 123) > 0", {"x": R}, {"x": "123"}),
    ("Max(0, 77 - x) > 0", {"x": R}, {"x": "77"}),
    ("exp(-x)*Abs(x - 55) > 0", {"x": R}, {"x": "55"}),
    ("atan(x - 1000)**2 > 0", {"x": R}, {"x": "1000"}),
    ("sinh(x - 7)**2 > 0", {"x": R}, {"x": "7"}),
    ("(x - 1)**2*(x - 2)**2 > 0", {"x": ("0", "3")}, {"x": "2"}),
    ("x**2 + y**2 > 2*x*y", {"x": R, "y": R}, {"x": "3", "y": "3"}),
    ("log(1 + exp(x)) < log(2) + Max(x, 0)", {"x": R}, {"x": "0"}),
    ("y < 2*x", {"x": ("1", "2"), "y": ("x", "x**2")}, {"x": "2", "y": "4"}),
    ("Abs(x - 1/3) < 1/3 - 2*x + 100*(x - 1/6)**2 + Abs(x)", {"x": ("-1", "1")}, {"x": "1/6"}),
    ("log(1 + (x - 1000000)**2) > 0", {"x": R}, {"x": "1000000"}),
    # behind a Piecewise jump
    ("Piecewise((x**2 + 1, x < 1), (x**2 - 1, True)) > 0", {"x": ("0", "2")}, {"x": "1"}),
    ("Piecewise((exp(x), x < 2), (exp(x) - 8, True)) >= 0", {"x": ("0", "3")}, {"x": "2"}),
    ("Piecewise((1, x <= 0), (-1e-9, True)) >= 0", {"x": ("-1", "1")}, {"x": "1/2"}),
    ("Piecewise((x, x < 1/3), (x - 1/2, True)) >= 0", {"x": ("0", "1")}, {"x": "1/3"}),
    ("Piecewise((x, x < 1), (x - 1 - 1e-12, True)) >= 0", {"x": ("0", "2")}, {"x": "1"}),
    ("Piecewise((tanh(x), x <= 5), (tanh(x) - 1, True)) >= 0", {"x": POS}, {"x": "6"}),
    ("Piecewise((x + y, x < y), (x - y - 1e-9, True)) >= 0", {"x": ("0", "1"), "y": ("0", "1")},
     {"x": "1/2", "y": "1/2"}),
    ("Piecewise((log(1 + exp(x)), x > -3), (-exp(x), True)) > 0", {"x": R}, {"x": "-4"}),
    ("Piecewise((1 - x**2, x <= 1/2), (x - 1/2, True)) >= 1e-9", {"x": ("0", "1")}, {"x": "1/2 + 1e-12"}),
    # behind an Abs kink
    ("Abs(x - 1/3) >= 1e-12", {"x": ("0", "1")}, {"x": "1/3"}),
    ("Abs(x - 0.125) >= 10**12*(x - 0.125)**2", {"x": ("0", "1")}, {"x": "0.12500000001"}),
    ("Abs(x) + Abs(y) >= Abs(x + y) + 1e-12", {"x": ("-1", "1"), "y": ("-1", "1")}, {"x": "1/2", "y": "1/2"}),
    ("Abs(Abs(x) - 1) >= 1e-10", {"x": ("-2", "2")}, {"x": "-1"}),
    ("sqrt(Abs(x)) >= Abs(x)", {"x": ("-1.0000001", "1")}, {"x": "-1.0000001"}),
    ("Abs(x - y) <= 2*Abs(x) + Abs(y) - 1e-12", {"x": ("-1", "1"), "y": ("-1", "1")}, {"x": "0", "y": "0"}),
    ("Abs(x - 1/7) >= x/7 - 1/49 + 1e-15", {"x": ("0", "1")}, {"x": "1/7"}),
    ("exp(-Abs(x)) <= 1 - Abs(x)/2 - 1e-12", {"x": R}, {"x": "0"}),
    ("Abs(log(x)) >= 1e-12", {"x": ("1/2", "2")}, {"x": "1"}),
    # behind a Max/Min switch
    ("Max(x, 1 - x) >= 1/2 + 1e-12", {"x": ("0", "1")}, {"x": "1/2"}),
    ("Min(x, y) >= 0", {"x": ("0", "1"), "y": ("-1e-9", "1")}, {"x": "1/2", "y": "-1e-9"}),
    ("Min(exp(x), exp(-x)) <= 1 - 1e-12", {"x": R}, {"x": "0"}),
    ("log(1 + exp(x)) <= Max(x, 0) + log(2) - 1e-12", {"x": R}, {"x": "0"}),
    ("Max(0, 1 - x) + Max(0, x - 1) >= 1e-12", {"x": R}, {"x": "1"}),
    ("Max(x, y) >= (x + y)/2 + 1e-10", {"x": ("-10", "10"), "y": ("-10", "10")}, {"x": "3", "y": "3"}),
    ("Max(x**2, y**2) >= 2*x*y - 1e-10", {"x": ("-1", "1"), "y": ("-1", "1")}, {"x": "1", "y": "1"}),
    ("Min(1, x**2 + 1e-13) >= 1e-12", {"x": R}, {"x": "0"}),
    # dependent bounds (2-3 variables)
    ("y**2 <= x**2 - 1e-12", {"x": ("0", "1"), "y": ("-x", "x")}, {"x": "1/2", "y": "1/2"}),
    ("x <= t + 1/2", {"t": ("0", "1"), "x": ("0", "2*t")}, {"t": "1", "x": "2"}),
    ("exp(-y) >= exp(-x) - 1/2", {"x": POS, "y": ("x", "x + 1")}, {"x": "0", "y": "1"}),
    ("z <= x**2", {"x": ("0", "1"), "y": ("0", "x"), "z": ("0", "y")}, {"x": "1/2", "y": "1/2", "z": "1/2"}),
    ("a*a <= C**2 - 1e-9", {"C": ("1", "2"), "a": ("-C", "C")}, {"C": "1", "a": "1"}),
    ("y - x**2 <= 1/4 - 1e-9", {"x": ("0", "1"), "y": ("x**2", "x")}, {"x": "1/2", "y": "1/2"}),
    ("x*y*z <= 1/27 - 1e-12", {"x": ("0", "1"), "y": ("0", "1 - x"), "z": ("1 - x - y", "1 - x - y")},
     {"x": "1/3", "y": "1/3", "z": "1/3"}),
    ("exp(x + y) <= 1 + (x + y) + (x + y)**2", {"x": ("0", "2"), "y": ("0", "2 - x")}, {"x": "1", "y": "1"}),
    ("log(1 + exp(a)) - log(1 + exp(b)) <= (a - b)/2 - 1e-12", {"b": ("-1", "1"), "a": ("b", "b + 1")},
     {"b": "0", "a": "0"}),
    # near removable singularities
    ("(exp(x) - 1)/x >= 1", {"x": ("-1", "-1e-9")}, {"x": "-1e-6"}),
    ("log(1 + x)/x <= 1 - 1e-9", {"x": ("1e-12", "1")}, {"x": "1e-12"}),
    ("sinh(x)/x >= 1 + x**2/6 + 1e-12", {"x": ("1e-6", "1")}, {"x": "1/1000"}),
    ("tanh(x)/x <= 1 - 1e-10", {"x": ("1e-9", "1")}, {"x": "1e-6"}),
    ("(1 - exp(-x))/x <= 1 - x/2", {"x": ("1e-9", "1")}, {"x": "1e-3"}),
    ("(exp(x) - 1 - x)/x**2 <= 1/2", {"x": ("1e-9", "1")}, {"x": "1e-4"}),
    ("atan(x)/x <= 1 - 1e-12", {"x": ("1e-12", "1")}, {"x": "1e-8"}),
    ("log(x)/(x - 1) <= 1 - 1e-10", {"x": ("1.000000000001", "2")}, {"x": "1.000000000001"}),
    ("(exp(a - b) - 1)/(a - b) <= 1", {"b": ("0", "1"), "a": ("b + 1e-9", "b + 1")}, {"b": "0", "a": "1e-6"}),
]


def _split(relation: str) -> tuple[str, str, str]:
    parts = _OP.split(relation)
    if len(parts) != 3:
        raise ValueError(f"relation must have exactly one spaced top-level comparison: {relation!r}")
    return parts[0], parts[1], parts[2]


def mutations(relation: str, domain: Domain, touch: dict[str, str]) -> list[tuple[str, Domain, dict[str, str]]]:
    """False variants of a true ``relation`` that touches 0 at ``touch``: slack nudged by each of
    :data:`NUDGES` the wrong way, and the strict relation (false at the exact touching point)."""
    lhs, op, rhs = _split(relation)
    out = []
    for eps in NUDGES:
        if op in ("<=", "<"):
            out.append((f"{lhs} {op} ({rhs}) - {eps}", domain, touch))
        else:
            out.append((f"{lhs} {op} ({rhs}) + {eps}", domain, touch))
    if op in ("<=", ">="):
        out.append((f"{lhs} {op[0]} {rhs}", domain, touch))
    return out


def true_statements() -> list[tuple[str, Domain]]:
    """The true statements safe to run in-process (:data:`MEMORY_HAZARDS` left out)."""
    return [(rel, dom) for rel, dom, _ in TRUE if (rel, dom) not in MEMORY_HAZARDS]


def false_statements() -> list[tuple[str, Domain, dict[str, str]]]:
    generated = [m for rel, dom, touch in TRUE if touch is not None for m in mutations(rel, dom, touch)]
    return generated + HANDWRITTEN_FALSE


def _exact(point: dict[str, str]) -> dict[sp.Symbol, sp.Expr]:
    return {sp.Symbol(k, real=True): parse_expr(v) for k, v in point.items()}


def _slack(relation: str) -> tuple[sp.Expr, bool]:
    """(slack, strict): the relation holds iff slack >= 0 (> 0 when strict)."""
    rel = parse_relation(relation)
    slack = rel.rhs - rel.lhs if isinstance(rel, (sp.LessThan, sp.StrictLessThan)) else rel.lhs - rel.rhs
    return slack, isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))


def slack_at(relation: str, point: dict[str, str], dps: int = 50) -> mpmath.mpf:
    """The slack of ``relation`` at ``point`` evaluated by mpmath at ``dps`` digits."""
    slack, _ = _slack(relation)
    names = sorted(point)
    f = sp.lambdify([sp.Symbol(n, real=True) for n in names], slack, modules="mpmath")
    with mpmath.workdps(dps):
        args = []
        for n in names:
            q = parse_expr(point[n])
            args.append(mpmath.mpf(int(q.p)) / int(q.q) if q.is_Rational else mpmath.mpf(str(sp.N(q, dps + 10))))
        return +f(*args)


def witness_holds(relation: str, point: dict[str, str]) -> bool:
    """True iff ``relation`` fails at ``point``: the slack is negative at 50 and at 80 digits with both values
    agreeing, or (strict relation) sympy shows the slack is exactly 0 there."""
    slack, strict = _slack(relation)
    if strict and sp.simplify(slack.subs(_exact(point))) == 0:
        return True
    try:
        s50, s80 = slack_at(relation, point, 50), slack_at(relation, point, 80)
    except (ZeroDivisionError, ValueError, TypeError):
        return False
    if not (mpmath.isfinite(s50) and mpmath.isfinite(s80)) or mpmath.im(s50) != 0 or mpmath.im(s80) != 0:
        return False
    return bool(s50 < 0 and s80 < 0 and abs(s50 - s80) <= abs(s80) * mpmath.mpf(10) ** -15)


def in_domain(domain: Domain, point: dict[str, str]) -> bool:
    """Every coordinate of ``point`` lies in its (possibly dependent) closed range, decided exactly by sympy."""
    if set(domain) != set(point):
        return False
    env = _exact(point)
    for name, (lo, hi) in domain.items():
        v = env[sp.Symbol(name, real=True)]
        for bound, ok in ((lo, lambda b: bool(v >= b)), (hi, lambda b: bool(v <= b))):
            if bound in ("-oo", "oo"):
                continue
            if not ok(parse_expr(bound).subs(env)):
                return False
    return True


def holds_on_samples(relation: str, domain: Domain, n: int = 41, dps: int = 30) -> tuple[bool, dict | None]:
    """Sanity check of a TRUE entry (not a proof): the slack is >= -1e-25 on a grid of ``n`` points per variable
    (infinite ends mapped through a tangent), at ``dps`` digits (strictness is not sampled: a strict slack that
    tends to 0 underflows at 30 digits)."""
    import itertools

    slack, _ = _slack(relation)
    names = list(domain)
    f = sp.lambdify([sp.Symbol(k, real=True) for k in names], slack, modules="mpmath")
    grid = [mpmath.mpf(i) / (n - 1) for i in range(n)]
    with mpmath.workdps(dps):
        for us in itertools.product(grid, repeat=len(names)):
            env: dict[str, mpmath.mpf] = {}
            for name, u in zip(names, us):
                env[name] = _coordinate(domain[name], u, env)
            try:
                value = f(*(env[k] for k in names))
            except (ZeroDivisionError, ValueError):
                continue
            if mpmath.im(value) != 0 or value < -mpmath.mpf(10) ** -25:
                return False, {k: mpmath.nstr(v, 20) for k, v in env.items()}
    return True, None


def _coordinate(bounds: tuple[str, str], u: mpmath.mpf, env: dict) -> mpmath.mpf:
    lo, hi = (None if b in ("-oo", "oo") else _mp(b, env) for b in bounds)
    if lo is not None and hi is not None:
        return lo + (hi - lo) * u
    t = mpmath.tan(mpmath.pi / 2 * u * mpmath.mpf("0.999")) * 10  # [0, ~6000] with many points near 0
    if lo is not None:
        return lo + t
    if hi is not None:
        return hi - t
    return mpmath.tan(mpmath.pi * (u - mpmath.mpf(1) / 2) * mpmath.mpf("0.999")) * 10


def _mp(text: str, env: dict) -> mpmath.mpf:
    e = parse_expr(text)
    f = sp.lambdify([sp.Symbol(k, real=True) for k in env], e, modules="mpmath")
    return mpmath.mpf(f(*env.values()))

"""A soundness corpus: true lemmas, and false ones made from them by nudging a constant, with witnesses.

Each :class:`Family` is a relation with one constant ``c``: true for ``c`` in ``true_cs``; for
``c = c_star + direction * delta`` (delta from 1e-1 down to 1e-12) it is false, and ``witness(delta)``
is an exact point where the slack is negative (or exactly 0 for a strict relation), checked here at
50 digits by :func:`witness_holds`. Kinds covered: touching points, unbounded domains, far tails,
endpoints, strict relations at an exact zero, Piecewise jumps, Abs kinks, 2-3 variables with dependent
bounds, removable singularities.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import sympy as sp

DELTAS = ("1/10", "1/100", "1/1000", "1/10**4", "1/10**6", "1/10**8", "1/10**9", "1/10**10", "1/10**11",
          "1/10**12")


@dataclasses.dataclass(frozen=True)
class Family:
    name: str
    template: str  # uses {c}
    domain: dict[str, tuple[str, str]]
    c_star: str  # the sharp constant
    direction: int  # false for c = c_star + direction * delta
    witness: Callable[[str], dict[str, str]]  # delta -> exact point (strings)
    true_cs: tuple[str, ...] = ()
    sharp_is_true: bool = True  # False for a strict relation whose sharp constant makes it fail at a point

    def relation(self, c: str) -> str:
        return self.template.format(c=f"({c})")

    def false_cases(self, deltas=DELTAS):
        for d in deltas:
            c = f"{self.c_star} + ({self.direction})*({d})"
            yield self.relation(c), self.domain, self.witness(d)

    def true_cases(self):
        for c in ((self.c_star,) if self.sharp_is_true else ()) + tuple(self.true_cs):
            yield self.relation(c), self.domain


def _q(text: str) -> str:
    return str(sp.Rational(sp.sympify(text)))


def at(**kw) -> Callable[[str], dict[str, str]]:
    """A witness that does not depend on delta."""
    return lambda d: {k: _q(v) for k, v in kw.items()}


FAMILIES = [
    Family("exp-tangent", "exp(x) >= 1 + {c}*x", {"x": ("-oo", "oo")}, "1", 1, lambda d: {"x": _q(d)}),
    Family("exp-tangent-right", "exp(x) >= 1 + {c}*x", {"x": ("0", "oo")}, "1", 1, lambda d: {"x": _q(d)},
           ("1/2", "0", "-1")),
    Family("log-tangent", "log(1 + x) <= {c}*x", {"x": ("0", "oo")}, "1", -1,
           lambda d: {"x": _q(d)}, ("2", "3/2")),
    Family("cosh-quadratic", "cosh(x) >= 1 + {c}*x**2/2", {"x": ("-oo", "oo")}, "1", 1,
           lambda d: {"x": _q(f"({d})/10")},
           ("1/2", "0")),
    Family("parabola", "x**2 - 2*x + {c} >= 0", {"x": ("-10", "10")}, "1", -1, at(x="1"), ("2", "5/4")),
    Family("sqrt-endpoint", "sqrt(x) <= {c}", {"x": ("0", "4")}, "2", -1, at(x="4"), ("3", "5/2")),
    Family("exp-endpoint", "exp(x) <= {c}", {"x": ("-oo", "0")}, "1", -1, at(x="0"), ("2", "3/2")),
    Family("far-tail", "x <= {c}*exp(x/100)", {"x": ("0", "oo")}, "100*exp(-1)", -1, at(x="100"), ("37", "40")),
    Family("tanh-bound", "tanh(x) <= {c}*x", {"x": ("0", "oo")}, "1", -1, lambda d: {"x": _q(f"({d})/2")},
           ("2", "3/2")),
    Family("atan-bound", "atan(x) <= {c}*x", {"x": ("0", "oo")}, "1", -1, lambda d: {"x": _q(f"({d})/2")},
           ("2",)),
    Family("logistic", "log(1 + exp(-x)) >= log(2) - x/2 + 0*{c}", {"x": ("0", "10")}, "0", 0, at(x="0"), ()),
    Family("am-gm-dependent", "a**2 + b**2 >= 2*{c}*a*b", {"a": ("0", "1"), "b": ("0", "a")}, "1", 1,
           at(a="1", b="1"), ("1/2", "0")),
    Family("cube-dependent", "x*y*z <= {c}", {"x": ("0", "1"), "y": ("0", "x"), "z": ("0", "y")}, "1", -1,
           at(x="1", y="1", z="1"), ("2", "3/2")),
    Family("abs-kink", "Abs(x - 1/3) >= 1/3 - x + ({c} - 1)", {"x": ("-1", "1")}, "1", 1, at(x="1/3"),
           ("1/2", "0")),
    Family("removable", "(exp(x) - 1)/x >= {c}", {"x": ("1", "2")}, "exp(1) - 1", 1, at(x="1"), ("1", "3/2")),
    Family("strict-zero", "x**2 + {c} > 0", {"x": ("-1", "1")}, "0", -1, at(x="0"), ("1", "1/100"), False),
    Family("strict-2d", "(x - 1/3)**2 + (y - 1/5)**2 + {c} > 0", {"x": ("0", "1"), "y": ("0", "1")}, "0", -1,
           at(x="1/3", y="1/5"), ("1", "1/10"), False),
    Family("piecewise-jump", "Piecewise((x**2 + 1, x < 1), (x**2 - {c}, True)) > 0", {"x": ("0", "2")}, "1", 1,
           at(x="1"), ()),
    Family("sinh-ratio", "sinh(x) >= {c}*x", {"x": ("0", "3")}, "1", 1, lambda d: {"x": _q(f"({d})/4")},
           ("1/2", "0")),
    Family("exp-gaussian", "x + exp(-x) <= exp({c}*x**2/16)", {"x": ("-3", "3")}, "9", 0, at(x="0"), ("12",)),
    Family("softplus-touching", "log(1 + exp(x)) >= {c}*x/2 + log(2)", {"x": ("-5", "5")}, "1", 1,
           lambda d: {"x": _q(d)}, ()),
]


def _slack(relation: str):
    rel = sp.sympify(relation, evaluate=False)
    strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
    if isinstance(rel, (sp.LessThan, sp.StrictLessThan)):
        return rel.rhs - rel.lhs, strict
    return rel.lhs - rel.rhs, strict


def witness_holds(relation: str, point: dict[str, str]) -> bool:
    """The relation fails at the exact point: slack < 0 at 50 digits, or exactly 0 if strict."""
    slack, strict = _slack(relation)
    value = slack.subs({sp.Symbol(k): sp.Rational(v) for k, v in point.items()})
    if strict and sp.simplify(value) == 0:
        return True
    num = sp.N(value, 50)
    return bool(num.is_real and num < 0)


def in_domain(domain, point) -> bool:
    env: dict = {}
    for name, (lo, hi) in domain.items():
        x = sp.Rational(point[name])
        if lo != "-oo" and x < sp.sympify(lo).subs(env):
            return False
        if hi != "oo" and x > sp.sympify(hi).subs(env):
            return False
        env[sp.Symbol(name)] = x
    return True


def false_statements():
    """(relation, domain, witness) for every family with a nonzero direction, and the exact-zero ones."""
    out = []
    for fam in FAMILIES:
        if fam.direction != 0:  # direction 0: a true-only family
            out.extend(fam.false_cases())
    out.extend(_extra_false())
    out.extend(_multiplier_attacks())
    return out


def true_statements():
    return ([case for fam in FAMILIES for case in fam.true_cases() if "piecewise" not in fam.name] + _extra_true()
            + _multiplier_true())


def _extra_false():
    """Strict at an exact zero, far tails, widened domains: five each."""
    cases = []
    for k in range(1, 6):
        cases.append((f"(x - {k}/7)**2 > 0", {"x": ("-1", "1")}, {"x": f"{k}/7"}))
        cases.append((f"tanh(x - {20 * k})**2 > 0", {"x": ("-oo", "oo")}, {"x": str(20 * k)}))
        cases.append((f"Abs(x - {100 * k}) > 0", {"x": ("-oo", "oo")}, {"x": str(100 * k)}))
        cases.append((f"y*({k}*10**6 - y) >= 0", {"x": ("0", "oo"), "y": ("0", "x")},
                      {"x": str(3 * k * 10**6), "y": str(3 * k * 10**6)}))
        cases.append((f"exp(-v)*({k}*10**6 - v) >= 0", {"v": ("20", "oo")}, {"v": str(2 * k * 10**6)}))
        cases.append((f"Piecewise((x**2+{k}, x<1), (x**2-1, True)) > 0", {"x": ("0", "2")}, {"x": "1"}))
        cases.append((f"Abs(x - 1/2) < 1/2 - 2*x + {16 * k}*(x - 1/4)**2 + Abs(x)", {"x": ("-1", "1")},
                      {"x": "1/4"}))
        cases.append((f"sqrt(x) <= 2 - {k}/10**12", {"x": ("0", "4")}, {"x": "4"}))
    return cases


def _extra_true():
    return [("x + exp(-x) <= exp(9*x**2/16)", {"x": ("-3", "3")}),
            ("x**4 - 2*x**2 + 1 >= 0", {"x": ("-2", "2")}),
            ("cosh(x) >= 1", {"x": ("-oo", "oo")}),
            ("exp(-x**2) <= 1", {"x": ("-oo", "oo")}),
            ("log(1 + x**2) >= 0", {"x": ("-oo", "oo")}),
            ("x**2 >= 0", {"x": ("-oo", "oo")}),
            ("exp(x) >= 1 + x + x**2/2", {"x": ("0", "oo")}),
            ("log(x) <= x - 1", {"x": ("1/10", "10")}),
            ("x*y <= (x**2 + y**2)/2", {"x": ("-3", "3"), "y": ("-3", "3")}),
            ("exp(z) >= exp(-m)", {"m": ("0", "20"), "z": ("-m", "m")}),
            ("1/(1+cosh(s)) <= 1/2", {"s": ("-oo", "oo")}),
            ("a**2 + C >= 0", {"C": ("1/10", "10"), "a": ("-C", "C")})]


def _multiplier_attacks():
    """False statements aimed at the ``multiplier`` / ``abs_cases`` / high-order ``touching`` closers:
    violations far in a tail (x = 1e5 .. 1e30), the wrong term winning only beyond 1e6, strict relations
    whose slack has limit 0 at infinity or an exact zero, an Abs kink in two variables, a Taylor
    polynomial one order short."""
    return [
        ("exp(x/10**6) <= 10*x", {"x": ("1", "oo")}, {"x": "100000000"}),
        ("x*exp(-x) <= 10**7*exp(-x)", {"x": ("0", "oo")}, {"x": "20000000"}),
        ("x*exp(-x/10**30) <= 10**29", {"x": ("0", "oo")}, {"x": "1000000000000000000000000000000"}),
        ("log(x) <= 69", {"x": ("1", "oo")}, {"x": "10000000000000000000000000000000"}),
        ("x**2 <= 10**6*exp(x**2/10**12)", {"x": ("-oo", "oo")}, {"x": "-100000"}),
        ("x + exp(-x) <= exp(x**2/2)", {"x": ("-oo", "oo")}, {"x": "-137/100"}),
        ("x + exp(-x) < exp(9*x**2/16)", {"x": ("-oo", "oo")}, {"x": "0"}),
        ("exp(-x) - exp(-2*x) > 0", {"x": ("0", "oo")}, {"x": "0"}),
        ("x*exp(-x) > 0", {"x": ("0", "oo")}, {"x": "0"}),
        ("exp(-x)*(x - 5)**2 > 0", {"x": ("0", "oo")}, {"x": "5"}),
        ("log(1 + exp(x)) >= x + 1/10**12", {"x": ("-oo", "oo")}, {"x": "40"}),
        ("Abs(x)*exp(x*w)/(1 + exp(x*w)) <= 1 - 1/10**9", {"x": ("-1", "1"), "w": ("-oo", "oo")},
         {"x": "1", "w": "30"}),
        ("Abs(x)*exp(x*w)/(1 + exp(x*w)) <= 1 - 1/10**9", {"x": ("-1", "1"), "w": ("-oo", "oo")},
         {"x": "-1", "w": "-30"}),
        ("Abs(log(1 + exp(-z)) - (log(2) - z/2)) <= z**2/8 - 1/10**12", {"z": ("-oo", "oo")}, {"z": "0"}),
        ("exp(x) >= 1 + x + x**2/2", {"x": ("-1", "1")}, {"x": "-1/2"}),
        ("exp(x) >= 1 + x + x**2/2 + x**3/6 + x**4/24", {"x": ("-1", "1")}, {"x": "-1/2"}),
        ("log((exp(-z/2) + exp(z/2))/2) >= z/2 - log(2) + 1/10**12", {"z": ("0", "oo")}, {"z": "40"}),
        ("log(exp(x) + exp(2*x)) >= 2*x + 1/10**12", {"x": ("-oo", "oo")}, {"x": "40"}),
        ("log(exp(x) + exp(2*x)) >= 2*x + exp(-x)", {"x": ("-oo", "oo")}, {"x": "40"}),
    ]


def _multiplier_true():
    """True statements that need the ``multiplier`` / ``abs_cases`` / high-order ``touching`` closers."""
    return [("x + exp(-x) <= exp(9*x**2/16)", {"x": ("-oo", "oo")}),
            ("exp(-x) > 0", {"x": ("-oo", "oo")}),
            ("log(1 + exp(x)) > x", {"x": ("-oo", "oo")}),
            ("Abs(x)*exp(x*w)/(1 + exp(x*w)) <= 1", {"x": ("-1", "1"), "w": ("-oo", "oo")}),
            ("exp(x) >= 1 + x + x**2/2 + x**3/6", {"x": ("-1", "1")}),
            ("exp(9*x**2/16) + x - exp(x) >= 0", {"x": ("0", "oo")}),
            ("log((exp(-z/2) + exp(z/2))/2) >= Abs(z)/2 - log(2)", {"z": ("-oo", "oo")}),
            ("log(exp(x) + exp(2*x)) >= 2*x", {"x": ("-oo", "oo")})]

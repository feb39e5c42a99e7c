"""Search for a ``multiplier`` leaf (docs/certificates.md) on an unbounded tail box. Untrusted.

On a box where one coordinate ``v`` runs to ``+oo`` (``side = +1``) or ``-oo`` (``side = -1``) and the
slack ``s`` has growing terms that compete (``exp(9x^2/16) - x - exp(-x)`` as ``x -> -oo``), plain
enclosures give ``oo - oo``. The kernel's ``multiplier`` closer accepts
``s * exp(h) == p_1 + ... + p_k`` with ``p_j >= c_j`` (each by its own tree) and ``sum c_j >= 0``.
Here ``h`` is minus a dominant exponent of ``s`` (``-E`` for a factor ``exp(E)``, or ``-k log(side v)``
for a power ``v^k``), and each term of ``expand(s exp(h))`` is written so that it encloses well on a
tail: polynomial exponents in Horner form in ``v`` and powers of ``v`` moved into the exponent
(``x e^{-x} = exp(log(x) - x)``), whose derivative is a product (so ``monotone`` leaves can close it).
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import sympy as sp
from flint import fmpq

from olr_verify.kernel.inequality import MAX_REWRITE_DEPTH, expanded_terms, identically_zero, rewrite_depth, softplus_flipped

MAX_CANDIDATES = 4
MAX_IDENTITY_TERMS = 1000  # work budget of one candidate's exact check (sympy's cancel grows fast beyond)
BOUND_BITS = 40  # piece bounds are rounded down to multiples of 2**-BOUND_BITS


def tail_variable(box) -> tuple[str, int] | None:
    """(name, side) when exactly one coordinate has exactly one infinite end, else None."""
    found = []
    for name, (lo, hi) in box.items():
        inf_lo, inf_hi = isinstance(lo, float), isinstance(hi, float)
        if inf_lo and inf_hi:
            return None
        if inf_lo or inf_hi:
            found.append((name, 1 if inf_hi else -1))
    return found[0] if len(found) == 1 else None


class Lazy:
    """The items of an iterator, each computed once and only when asked for: a search that closes on the
    first candidate does not pay for the sympy work of the others, and a second search re-reads them. An
    error while computing one (sympy failing on a rewrite) ends the list: only leaves are missed."""

    def __init__(self, items):
        self._items, self._done = iter(items), []

    def __iter__(self):
        k = 0
        while True:
            if k == len(self._done):
                try:
                    self._done.append(next(self._items))
                except Exception:  # noqa: BLE001 - StopIteration, or a failed rewrite: no further candidate
                    self._items = iter(())
                    return
            yield self._done[k]
            k += 1


class Candidate(NamedTuple):
    """``s * exp(h) == sum(forms)`` once :meth:`exact` says so (``scaled`` is ``s * exp(h)``, s after the
    ``flips``)."""

    h: sp.Expr
    flips: tuple
    forms: tuple
    scaled: sp.Expr

    def exact(self) -> bool:
        return _exact(self.scaled, self.forms)


@lru_cache(maxsize=1024)
def _exact(scaled: sp.Expr, forms: tuple) -> bool:
    """The exact check, asked only of a candidate whose pieces' bounds could add up (sympy's cancel is the
    costly part of a candidate)."""
    rest = scaled - sp.Add(*forms)
    try:
        return expanded_terms(rest) <= MAX_IDENTITY_TERMS and identically_zero(rest)
    except Exception:  # noqa: BLE001 - sympy failing (or a rewrite nested too deep) is only a missed leaf
        return False


@lru_cache(maxsize=256)
def candidates(slack: sp.Expr, name: str, side: int) -> Lazy:
    """:class:`Candidate` s, lazily: ``h = 0`` first, then minus the dominant exponents, each with the terms of
    ``expand(flipped slack * exp(h))`` as they come, grouped by power of v, and as one fraction. ``flips``:
    the ``w`` of the softplus terms ``log(1 + exp(w))`` with ``w -> +oo`` on the tail (the kernel rewrites them
    ``w + log(1 + exp(-w))``)."""
    return Lazy(_candidates(slack, name, side))


def _candidates(slack: sp.Expr, name: str, side: int):
    v = sp.Symbol(name)
    far = _far_point(v, side)
    flips = tail_flips(slack, name, side)
    for fl in dict.fromkeys([flips, ()]):
        flipped = softplus_flipped(slack, list(fl))
        for h in _multipliers(flipped, v, side, far):
            scaled = flipped * sp.exp(h)
            if expanded_terms(scaled) > MAX_IDENTITY_TERMS:  # its identity would be larger still
                continue
            for group in _groups(sp.Add.make_args(sp.expand(scaled)), v):
                yield Candidate(h, fl, tuple(tail_form(t, v, side, far) for t in group), scaled)
        form = conjugate(flipped)
        if form is not None:
            yield Candidate(sp.Integer(0), fl, (form,), flipped)


def _groups(terms: tuple, v: sp.Symbol):
    """The terms as they are, grouped by power of v (:func:`_grouped`), and as one fraction (``1 - 1/(1 + e^-x) =
    e^-x/(1 + e^-x) > 0``), each once, computed when asked for."""
    seen = set()
    for make in (lambda: terms, lambda: _grouped(terms, v), lambda: (sp.together(sp.Add(*terms)),)):
        group = make()
        if group not in seen:
            seen.add(group)
            yield group


def conjugate(slack: sp.Expr) -> sp.Expr | None:
    """``A + k sqrt(B)`` (or ``A + k/sqrt(B)``) as ``(A^2 - k^2 B^(+-1))/(A - k sqrt(B)^(+-1))``, numerator and
    denominator signed so that a constant numerator is positive: the difference of two growing terms as a
    quotient (``sqrt(x^2 + 1) + x = 1/(sqrt(x^2 + 1) - x)`` as ``x -> -oo``); None without one such root."""
    roots = {f for t in sp.Add.make_args(slack) for f in sp.Mul.make_args(t)
             if f.is_Pow and f.exp in (sp.Rational(1, 2), sp.Rational(-1, 2))}
    if len(roots) != 1:
        return None
    r = roots.pop()
    k = sp.Add(*[t / r for t in sp.Add.make_args(slack) if t.has(r)])
    a = sp.Add(*[t for t in sp.Add.make_args(slack) if not t.has(r)])
    if k.has(r) or a == 0:
        return None
    num, den = sp.cancel(sp.together(sp.expand(a * a - k * k * r * r))), a - k * r
    if num.is_number and num < 0:
        num, den = -num, sp.expand(-den)
    return num / den


def _grouped(terms, v: sp.Symbol) -> tuple:
    """Terms with the same power of v summed over one denominator (``a/(1+e^-a) - a`` becomes
    ``-a e^-a/(1+e^-a)``: growing parts that cancel, cancelled)."""
    groups: dict = {}
    for t in terms:
        power = sp.Mul(*[f for f in sp.Mul.make_args(t) if f == v or (f.is_Pow and f.base == v and f.exp.is_Rational)])
        groups.setdefault(power, []).append(t / power)
    return tuple(power * sp.cancel(sp.together(sp.Add(*rest))) if len(rest) > 1 else power * rest[0]
                 for power, rest in groups.items())


def _multipliers(slack, v, side, far) -> list:
    """0, then ``-E`` for the exponents E of the terms (``exp(E)``, or ``k log(side v)`` for ``v**k``), the
    fastest-growing at a far point first."""
    exponents = []
    for t in sp.Add.make_args(sp.expand(slack)):
        e, k = _exponent(t, v)
        if e.has(v):
            exponents.append(e)
        elif k != 0:  # a power v^k, growing or decaying (1/v - 1/v^2 times v: 1 - 1/v)
            exponents.append(k * sp.log(side * v))
        exponents += [f.exp * sp.log(f.base) for f in sp.Mul.make_args(t)  # 1/(1 + x^2) = exp(-log(1 + x^2))
                      if f.is_Pow and f.exp.is_Rational and f.exp < 0 and f.base.is_Add and f.base.is_polynomial(v)
                      and f.base.has(v)]
    scored = sorted(((_far_value(e, far, v), e) for e in dict.fromkeys(exponents)), key=lambda p: -p[0])
    return [sp.Integer(0)] + [-e for score, e in scored[:MAX_CANDIDATES] if score > float("-inf")]


def _far_value(e: sp.Expr, far: dict, v: sp.Symbol) -> float:
    """``e`` at the far point, the other variables at 1 (-oo when it has no float value)."""
    try:
        return float(e.subs(far).subs({s: 1 for s in e.free_symbols if s != v}))
    except (TypeError, ValueError):
        return float("-inf")


def _far_point(v: sp.Symbol, side: int) -> dict:
    return {v: side * sp.Integer(10) ** 4}


def tail_flips(slack: sp.Expr, name: str, side: int) -> tuple:
    """The ``w`` of the softplus terms ``log(1 + exp(w))`` of the slack with ``w -> +oo`` on the tail."""
    v = sp.Symbol(name)
    return tuple(_log_exp_arguments(slack, _far_point(v, side), v))


def _log_exp_arguments(slack: sp.Expr, far: dict, v: sp.Symbol) -> list:
    """For each ``log(S)`` / ``log1p(S)`` of the slack, the ``w`` of the term ``exp(w)`` of its expanded
    argument that is largest at the far point, when it is positive there (``w -> +oo``)."""
    from sympy.codegen.cfunctions import log1p

    out = []
    for node in sp.preorder_traversal(slack):
        if node.func is sp.log or node.func is log1p:
            arg = node.args[0] if node.func is sp.log else 1 + node.args[0]
            ws = [f.args[0] for t in sp.Add.make_args(sp.expand(arg)) for f in sp.Mul.make_args(t) if f.func is sp.exp]
            scored = sorted(((_far_value(w, far, v), w) for w in ws), key=lambda p: -p[0])
            if scored and scored[0][0] > 0:
                out.append(scored[0][1])
    return list(dict.fromkeys(out))


def sigmoid_form(term: sp.Expr, far: dict, v: sp.Symbol) -> sp.Expr:
    """``exp(F) / (1 + exp(E))**n`` as ``exp(F - n E) / (1 + exp(-E))**n`` when that makes it bounded
    (``F == n E``) or ``E -> +oo`` on the tail."""
    factors = list(sp.Mul.make_args(term))
    for i, f in enumerate(factors):
        den = _sigmoid_denominator(f)
        if den is None:
            continue
        e, n = den
        for j, g in enumerate(factors):
            if j != i and g.func is sp.exp and (sp.expand(g.args[0] - n * e) == 0
                                                or (v is not None and _far_value(e, far, v) > 0)):
                rest = [x for k, x in enumerate(factors) if k not in (i, j)]
                return sp.Mul(*rest) * sp.exp(sp.expand(g.args[0] - n * e)) / (1 + sp.exp(-e)) ** n
    return term


def reciprocal_form(term: sp.Expr) -> sp.Expr:
    """``c exp(F) / (D_1^n_1 ...)`` with each ``D_i`` a sum of positive numbers and exponentials, as
    ``c / expand(exp(-F) D_1^n_1 ...)``: ``e^x/(1 + e^x)^2 = 1/(e^-x + 2 + e^x)``, bounded on both tails,
    where both the sigmoid forms leave an ``oo/oo``."""
    factors = sp.Mul.make_args(term)
    exps = [f for f in factors if f.func is sp.exp]
    dens = [f for f in factors if f.is_Pow and f.exp.is_Integer and f.exp < 0 and f.base.is_Add
            and all(_positive_exponential(a) for a in f.base.args)]
    rest = [f for f in factors if f not in exps and f not in dens]
    if not exps or not dens or not all(f.is_Rational for f in rest):
        return term
    den = sp.expand(sp.exp(-sp.Add(*[f.args[0] for f in exps])) * sp.Mul(*[f.base ** -f.exp for f in dens]))
    return sp.Mul(*rest) / den


def exponential_form(slack: sp.Expr) -> sp.Expr:
    """``tanh(u) = 1 - 2/(1 + e^(2u))``, ``sinh``, ``cosh`` as halves of ``e^u -+ e^-u``: forms that enclose on both
    tails (``1 - tanh(x)`` is ``2/(1 + e^(2x))``, positive by its form, where ``tanh(44)`` rounds to 1)."""
    return slack.replace(sp.tanh, lambda u: 1 - 2 / (1 + sp.exp(2 * u))).replace(
        sp.sinh, lambda u: (sp.exp(u) - sp.exp(-u)) / 2).replace(sp.cosh, lambda u: (sp.exp(u) + sp.exp(-u)) / 2)


def _positive_exponential(a: sp.Expr) -> bool:
    """``a`` is a positive rational, or one times a product of exponentials."""
    c, rest = a.as_coeff_Mul()
    return c.is_Rational and c > 0 and all(f.func is sp.exp or f == 1 for f in sp.Mul.make_args(rest))


def rewritten(slack: sp.Expr) -> sp.Expr | None:
    """The slack with every sigmoid-like term in bounded form (``sigmoid_form`` with ``F == n E``, else
    ``reciprocal_form``), or None when no term changes."""
    if rewrite_depth(slack) > MAX_REWRITE_DEPTH:
        return None  # the kernel would refuse the identity (and the rewrite would blow up)
    form = slack.rewrite(sp.Abs) if slack.has(sp.Max, sp.Min) else slack  # Max(a, b) = (a + b + |a - b|)/2
    terms = sp.Add.make_args(sp.expand(exponential_form(form)))
    forms = [sigmoid_form(t, {}, None) for t in terms]
    forms = [f if f != t else reciprocal_form(t) for f, t in zip(forms, terms)]
    form = sp.Add(*forms)
    if form == sp.expand(slack):
        return None
    return form if identically_zero(slack - form) else None


def _exponent(term: sp.Expr, v: sp.Symbol) -> tuple[sp.Expr, sp.Rational]:
    """(E, k): ``term = c * v**k * exp(E) * rest`` with E the sum of its exp arguments."""
    e, k = sp.Integer(0), sp.Integer(0)
    for f in sp.Mul.make_args(term):
        if f.func is sp.exp:
            e += f.args[0]
        elif f.is_Pow and f.base is sp.E:
            e += f.exp
        elif f == v:
            k += 1
        elif f.is_Pow and f.base == v and f.exp.is_Rational:
            k += f.exp
    return e, k


def tail_form(term: sp.Expr, v: sp.Symbol, side: int, far: dict) -> sp.Expr:
    """``term`` rewritten to enclose well on the tail: sigmoid or reciprocal form, Horner exponent, ``v**k`` folded
    into it."""
    form = sigmoid_form(term, far, v)
    term = reciprocal_form(term) if form == term else form
    e, k = _exponent(term, v)
    if not e.has(v) and k != 0:
        term = _power_over_sigmoid(_factored_denominator(term), far, v)
        e, k = _exponent(term, v)
    if not e.has(v):
        return _proper_fraction(term, v)
    rest = sp.Mul(*[f for f in sp.Mul.make_args(term)
                    if not (f.func is sp.exp or (f.is_Pow and f.base is sp.E) or f == v
                            or (f.is_Pow and f.base == v and f.exp.is_Rational))])
    try:
        e = sp.horner(sp.expand(e), wrt=v) if sp.expand(e).is_polynomial(v) else e
    except (sp.PolynomialError, ValueError):
        pass
    if k == 0:
        return rest * sp.exp(e, evaluate=False)
    if side < 0 and not k.is_integer:
        return term
    sign = (-1) ** int(k) if side < 0 else 1
    return _times_exp(sign * rest, e + k * sp.log(side * v))


MAX_FACTOR_OPS = 40  # sympy's factor is tried on terms this small only


def _factored_denominator(term: sp.Expr) -> sp.Expr:
    """``term`` factored by sympy when a denominator is an expanded sum of exponentials (``expand`` writes
    ``(1 + e^-z)^2`` as ``1 + 2 e^-z + e^-2z``, which no sigmoid form matches); ``term`` itself otherwise."""
    dens = [f.base for f in sp.Mul.make_args(term) if f.is_Pow and f.exp.is_Integer and f.exp < 0]
    if not any(d.is_Add and len(d.args) > 2 and d.has(sp.exp) for d in dens) or sp.count_ops(term) > MAX_FACTOR_OPS:
        return term
    try:
        return sp.factor(term)
    except (sp.PolynomialError, NotImplementedError, ValueError):
        return term


def _power_over_sigmoid(term: sp.Expr, far: dict, v: sp.Symbol) -> sp.Expr:
    """``v^k / (1 + exp(E))**n`` with ``E -> +oo`` on the tail as ``v^k exp(-n E) / (1 + exp(-E))**n``, so that the
    power moves into the exponent (``x/(1 + e^x)`` is ``oo/oo`` on ``[a, oo)``); ``term`` itself otherwise."""
    factors = sp.Mul.make_args(term)
    for i, f in enumerate(factors):
        den = _sigmoid_denominator(f)
        if den is not None and _far_value(den[0], far, v) > 0:
            e, n = den
            rest = sp.Mul(*[x for j, x in enumerate(factors) if j != i])
            return rest * sp.exp(-n * e) / (1 + sp.exp(-e)) ** n
    return term


def _proper_fraction(term: sp.Expr, v: sp.Symbol) -> sp.Expr:
    """A rational function of ``v`` as polynomial part + proper fractions (``2x/(2+x) = 2 - 4/(2+x)``): each part
    encloses tightly on a tail, where ``[2a, oo]/[a + 2, oo]`` is only ``[0, oo]``."""
    if not (sp.denom(sp.together(term)).has(v) and term.is_rational_function(v)):
        return term
    try:
        return sp.apart(term, v)
    except (sp.PolynomialError, NotImplementedError, ValueError):
        return term


def _times_exp(coef: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """``coef * exp(exponent)`` kept in that form: a numeric ``coef`` goes into the exponent as ``log|coef|``
    (sympy would fold ``2 * exp(log(x) - x)`` back into ``2 x exp(-x)``, whose derivative encloses as 0 * oo)."""
    coef, exponent = _sigmoid_denominators_in(coef, exponent)
    if coef.is_number and coef.is_real and coef != 0:
        inner = sp.exp(exponent + sp.log(abs(coef)), evaluate=False) if abs(coef) != 1 else \
            sp.exp(exponent, evaluate=False)
        return inner if coef > 0 else sp.Mul(-1, inner, evaluate=False)
    return coef * sp.exp(exponent, evaluate=False)


def _sigmoid_denominators_in(coef: sp.Expr, exponent: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Factors ``(1 + exp(u))**-n`` of ``coef`` moved into the exponent as ``- n log(1 + exp(u))`` (the reader keeps
    ``exp(... log ...)`` as written, while it would fold ``x e^-x/(1 + e^-x)`` written as a product)."""
    moved, kept = [], []
    for f in sp.Mul.make_args(coef):
        (kept if _sigmoid_denominator(f) is None else moved).append(f)
    return sp.Mul(*kept), exponent + sp.Add(*[f.exp * sp.log(f.base) for f in moved])


def _sigmoid_denominator(f: sp.Expr) -> tuple[sp.Expr, int] | None:
    """``(u, n)`` when the factor ``f`` is ``(1 + exp(u))**-n`` (n a positive integer), else None."""
    if not (f.is_Pow and f.exp.is_Integer and f.exp < 0 and f.base.is_Add and len(f.base.args) == 2
            and 1 in f.base.args):
        return None
    grow = [a for a in f.base.args if a != 1][0]
    return (grow.args[0], -f.exp) if grow.func is sp.exp else None


def round_down(x) -> fmpq:
    """A short rational <= the exact binary rational x."""
    scaled = x * 2**BOUND_BITS
    return fmpq(int(scaled.floor()), 2**BOUND_BITS)

"""Searching for a counterexample, and confirming one in ball arithmetic.

The search (seeded) samples the domain (dependent bounds respected, unbounded ends reached by
log-spread offsets), polishes the best points by Nelder-Mead, and optionally runs a small
Hypothesis search. A candidate is returned only after :func:`confirm` re-evaluates the slack at
the exact (dyadic) point in ``arb`` at >= 200 bits and finds it certainly negative, with the
point certainly inside the domain.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp
from flint import arb, ctx, fmpq

from olr_verify.prover.enclose import Iv, Unsupported, compile_expr


def _np_exprel(k, u):
    u = np.asarray(u, dtype=float)
    with np.errstate(all="ignore"):
        if int(np.max(np.asarray(k))) == 0:
            return np.where(np.abs(u) < 1e-8, 1.0 + u / 2, np.expm1(u) / np.where(u == 0, 1, u))
    return np.full_like(u, np.nan)


def lambdify(expr, syms):
    from scipy.special import erf, expit

    return sp.lambdify(syms, expr, modules=[{"Exprel": _np_exprel, "Max": np.maximum, "Min": np.minimum,
                                             "Sigmoid": expit, "Softplus": lambda u: np.logaddexp(0.0, u), "erf": erf},
                                            "numpy"])


def _fmpq(value) -> fmpq:
    if isinstance(value, fmpq):
        return value
    f = Fraction(str(value)) if not isinstance(value, Fraction) else value
    return fmpq(f.numerator, f.denominator)


def point_in_domain(point: dict, variables) -> bool:
    """Certain check that the exact point lies in the closed domain: exact against a rational bound (1/10 has no
    exact arb ball), by arb balls against any other."""
    env = _env(variables, point)
    for v in variables:
        x = env[v.name]
        for bound, side in ((v.lo, +1), (v.hi, -1)):
            if bound in (sp.oo, -sp.oo):
                continue
            if bound.is_Rational:
                q, xq = fmpq(int(bound.p), int(bound.q)), _fmpq(point[v.name])
                if (xq < q) if side > 0 else (xq > q):
                    return False
                continue
            b = compile_expr(bound)(env)
            diff = (x.lo - b.hi) if side > 0 else (b.lo - x.hi)
            if not bool(diff >= 0):
                return False
    return True


def confirm(slack, variables, point: dict, bits: int = 200) -> tuple[bool, str]:
    """(certainly negative slack at the exact in-domain point, the enclosure as a string)."""
    old = ctx.prec
    ctx.prec = bits
    try:
        if not point_in_domain(point, variables):
            return False, "point not certainly in the domain"
        if not defined_at(slack, variables, point):
            return False, "the slack is undefined at the point"
        env = {v.name: Iv.point(arb(point[v.name])) for v in variables}
        val = compile_expr(slack)(env)
        return bool(val.certainly_lt0()), str(val.hi if val.bounded() else val)
    finally:
        ctx.prec = old


MAX_EXACT_SIZE = 10**4  # sympy evaluates a point exactly only where every exponent stays below this (3**(x*y) hangs)


def _defined_nodes(slack, env) -> bool:
    """Every sub-expression of the slack is certainly defined and real at the point (arb enclosures): a negative
    or symbolic power has a base certainly nonzero (positive for a non-integer exponent, or >= 0 with a positive
    one), a log a positive argument, asin/acos an argument in [-1, 1], atanh in (-1, 1), acosh >= 1. Checking the
    nodes matters: an enclosure of the whole takes 0 * undefined as 0 (0*sqrt(-1), 0*0**(-y)), and a bounded
    function of an undefined value (atan(sqrt(-x))) is bounded."""
    enc = lambda e: compile_expr(e)(env)  # noqa: E731
    for node in sp.preorder_traversal(slack):
        if isinstance(node, sp.Pow):
            e = node.exp
            if e.is_Integer and e >= 0:
                continue
            base = enc(node.base)
            if e.is_Integer:
                ok = base.certainly_gt0() or base.certainly_lt0()
            else:
                ok = base.certainly_gt0() or (base.certainly_ge0() and enc(e).certainly_gt0())
        elif isinstance(node, sp.log):
            ok = enc(node.args[0]).certainly_gt0()
        elif isinstance(node, (sp.asin, sp.acos)):
            ok = enc(1 + node.args[0]).certainly_ge0() and enc(1 - node.args[0]).certainly_ge0()
        elif isinstance(node, sp.atanh):
            ok = enc(1 + node.args[0]).certainly_gt0() and enc(1 - node.args[0]).certainly_gt0()
        elif isinstance(node, sp.acosh):
            ok = enc(node.args[0] - 1).certainly_ge0()
        else:
            continue
        if not ok:
            return False
    return True


def exact_is_safe(slack, env) -> bool:
    """sympy may substitute the point exactly: every exponent and exp argument stays below MAX_EXACT_SIZE there."""
    try:
        for node in sp.preorder_traversal(slack):
            arg = node.exp if isinstance(node, sp.Pow) else node.args[0] if isinstance(node, sp.exp) else None
            if arg is not None and not arg.is_Number:
                within = (compile_expr(MAX_EXACT_SIZE - arg)(env).certainly_ge0()
                          and compile_expr(MAX_EXACT_SIZE + arg)(env).certainly_ge0())
                if not within:
                    return False
        return True
    except Exception:  # noqa: BLE001 - an exponent the enclosure does not support: not safe
        return False


def _env(variables, point: dict) -> dict:
    return {v.name: Iv.point(arb(_fmpq(point[v.name]))) for v in variables}


def defined_at(slack, variables, point: dict) -> bool:
    """The slack is defined and real at the point: every node by arb enclosures (:func:`_defined_nodes`), and its
    enclosure bounded. Nothing is substituted exactly, so no exact power can run for ever."""
    try:
        env = _env(variables, point)
        return _defined_nodes(slack, env) and compile_expr(slack)(env).bounded()
    except Exception:  # noqa: BLE001 - an expression the enclosure does not support: not shown defined
        return False


def exactly_zero(expr, env, subs) -> bool:
    """``expr`` is exactly 0 at the point (``env`` its arb balls, ``subs`` its exact rationals): its ball does not
    exclude 0, every exponent is small enough for sympy (:func:`exact_is_safe`), and sympy finds it 0, directly or
    after rewriting in exp. Shared by the touching test of the search and by :func:`touches`."""
    try:
        val = compile_expr(expr)(env)
        if val.certainly_gt0() or val.certainly_lt0():
            return False
    except Unsupported:
        pass
    if not exact_is_safe(expr, env):
        return False
    value = expr.subs(subs)
    try:
        return value == 0 or sp.simplify(value.rewrite(sp.exp)) == 0
    except Exception:  # noqa: BLE001 - sympy could not decide: not shown zero
        return False


def touches(slack, variables, point: dict) -> bool:
    """A strict relation's exact counterexample: the point is certainly in the domain, the slack is defined there
    (not 0/0: a removable singularity is no counterexample) and sympy finds it exactly 0."""
    if not (point_in_domain(point, variables) and defined_at(slack, variables, point)):
        return False
    exact = {v.symbol: _fmpq(point[v.name]) for v in variables}
    return exactly_zero(slack, _env(variables, point), {s: sp.Rational(int(q.p), int(q.q)) for s, q in exact.items()})


def _sample(variables, rng, n):
    cols: dict[str, np.ndarray] = {}
    for v in variables:
        names = list(cols)
        syms = [sp.Symbol(k, real=True) for k in names]

        def ev(bound):
            if bound in (sp.oo, -sp.oo):
                return None
            f = sp.lambdify(syms, bound, "numpy")
            return np.broadcast_to(np.asarray(f(*[cols[k] for k in names]), dtype=float), (n,))

        lo, hi = ev(v.lo), ev(v.hi)
        u = rng.random(n)
        spread = np.exp(rng.uniform(math.log(1e-4), math.log(50.0), n))
        if lo is not None and hi is not None:
            x = lo + u * (hi - lo)
            k = n // 8
            x[:k] = lo[:k] + np.minimum(spread[:k], hi[:k] - lo[:k])
            x[k:2 * k] = hi[k:2 * k] - np.minimum(spread[k:2 * k], hi[k:2 * k] - lo[k:2 * k])
            x[2 * k:2 * k + 5] = lo[2 * k:2 * k + 5]
            x[2 * k + 5:2 * k + 10] = hi[2 * k + 5:2 * k + 10]
        elif lo is not None:
            x = lo + spread
        elif hi is not None:
            x = hi - spread
        else:
            x = np.where(u < 0.5, -1.0, 1.0) * spread
            x[: n // 10] = rng.uniform(-2, 2, n // 10)
        cols[v.name] = x
    return cols


_BOUNDS: dict[tuple, list] = {}


def _bound_functions(variables) -> list:
    """Float functions of the earlier variables for each (dependent) bound, compiled once per domain."""
    key = tuple((v.name, str(v.lo), str(v.hi)) for v in variables)
    if key not in _BOUNDS:
        fns, earlier = [], []
        for v in variables:
            lo = None if v.lo is -sp.oo else sp.lambdify(earlier, v.lo, "math")
            hi = None if v.hi is sp.oo else sp.lambdify(earlier, v.hi, "math")
            fns.append((lo, hi))
            earlier = earlier + [sp.Symbol(v.name, real=True)]
        _BOUNDS[key] = fns
    return _BOUNDS[key]


def _project(x, variables, bounds):
    """Clip coordinates one by one into the (dependent) bounds (floats: a candidate, confirmed exactly later);
    ``bounds``: :func:`_bound_functions` of ``variables``."""
    out: dict[str, float] = {}
    for v, xi, (lo_f, hi_f) in zip(variables, x, bounds):
        prev = list(out.values())
        lo = -math.inf if lo_f is None else float(lo_f(*prev))
        hi = math.inf if hi_f is None else float(hi_f(*prev))
        out[v.name] = min(max(float(xi), lo), hi)
    return out


def search(slack, variables, *, seed: int = 0, n: int = 4000, polish: int = 4, hypothesis_examples: int = 0):
    """An exact counterexample point (name -> Fraction) with confirmed negative slack, or None."""
    syms = [sp.Symbol(v.name, real=True) for v in variables]
    f = lambdify(slack, syms)
    bounds = _bound_functions(variables)
    rng = np.random.default_rng(seed)
    cols = _sample(variables, rng, n)
    with np.errstate(all="ignore"):
        vals = np.asarray(f(*[cols[v.name] for v in variables]), dtype=float) * np.ones(n)
    vals = np.where(np.isfinite(vals), vals, np.inf)
    order = np.argsort(vals)[: max(polish, 1)]
    cands = [np.array([cols[v.name][i] for v in variables]) for i in order]
    for x0 in cands:
        pt = _try(x0, slack, variables, bounds)
        if pt is not None:
            return pt
    if polish:
        from scipy.optimize import minimize

        def obj(x):
            p = _project(x, variables, bounds)
            try:
                with np.errstate(all="ignore"):
                    r = float(f(*[p[v.name] for v in variables]))
            except (OverflowError, ValueError, ZeroDivisionError, TypeError):
                return 1e300  # no float value there (e.g. an integer power too large for a float)
            return r if math.isfinite(r) else 1e300

        for x0 in cands:
            res = minimize(obj, x0, method="Nelder-Mead", options={"xatol": 1e-12, "fatol": 1e-16, "maxiter": 600})
            if res.fun < 0:
                p = _project(res.x, variables, bounds)
                pt = _try(np.array([p[v.name] for v in variables]), slack, variables, bounds)
                if pt is not None:
                    return pt
    if hypothesis_examples:
        return _hypothesis(f, slack, variables, bounds, hypothesis_examples, seed)
    return None


def _try(x, slack, variables, bounds):
    p = _project(x, variables, bounds)
    exact = {k: Fraction(v).limit_denominator(2**40) for k, v in p.items()}
    for cand in (exact, {k: Fraction(v) for k, v in p.items()}):
        qpt = {k: fmpq(c.numerator, c.denominator) for k, c in cand.items()}
        ok, _ = confirm(slack, variables, qpt)
        if ok:
            return cand
    return None


def _hypothesis(f, slack, variables, bounds, examples, seed):
    from hypothesis import HealthCheck, given, seed as hseed, settings, strategies as st

    found = []

    @hseed(seed)
    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.lists(st.floats(-60, 60, allow_nan=False), min_size=len(variables), max_size=len(variables)))
    def probe(xs):
        p = _project(xs, variables, bounds)
        try:
            with np.errstate(all="ignore"):
                r = float(f(*[p[v.name] for v in variables]))
        except (OverflowError, ValueError, ZeroDivisionError, TypeError):  # undefined there (1/u at u = 0)
            return
        if r < 0 and not found:
            pt = _try(np.array(list(p.values())), slack, variables, bounds)
            if pt is not None:
                found.append(pt)

    probe()
    return found[0] if found else None

"""Optimal constants: the best constant at 50 digits (mpmath, evidence only) and a rigorous bracket.

``best_constant(ratio, box, sense)`` minimises (``sense="min"``) or maximises ``ratio`` over a
bounded box: a seeded float search, then ``mpmath.findroot`` on the gradient in the coordinates
that are not at a bound, at 50 digits. The number is evidence, never a proof.

``bracket(template, domain, c_star)`` makes it rigorous: ``template`` contains the constant as
the symbol ``c``; the relation is proved at a rational ``c`` on the safe side of ``c_star`` and
refuted at one on the other side (``safe`` says which side holds: "below" or "above").
"""
from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import minimize

from olr_verify.prover.parse import symbols_for, sympify_exact


def best_constant(ratio: str, box: dict[str, tuple[str, str]], sense: str = "min", *, seed: int = 0,
                  digits: int = 50) -> dict:
    names = list(box)
    syms = symbols_for(names)
    expr = sympify_exact(ratio, syms)
    sg = 1 if sense == "min" else -1
    f = sp.lambdify([syms[n] for n in names], sg * expr, "numpy")
    lo = np.array([float(sp.Rational(box[n][0])) for n in names])
    hi = np.array([float(sp.Rational(box[n][1])) for n in names])
    rng = np.random.default_rng(seed)
    pts = lo + rng.random((20000, len(names))) * (hi - lo)
    with np.errstate(all="ignore"):
        vals = np.asarray(f(*pts.T), dtype=float)
    vals = np.where(np.isfinite(vals), vals, np.inf)
    best = None
    for i in np.argsort(vals)[:5]:
        res = minimize(lambda x: float(f(*np.clip(x, lo, hi))) if np.isfinite(f(*np.clip(x, lo, hi))) else 1e300,
                       pts[i], method="Nelder-Mead", options={"xatol": 1e-13, "fatol": 1e-15, "maxiter": 4000})
        x = np.clip(res.x, lo, hi)
        if best is None or res.fun < best[1]:
            best = (x, res.fun)
    x = best[0]
    at_bound = [abs(x[k] - lo[k]) < 1e-7 or abs(x[k] - hi[k]) < 1e-7 for k in range(len(names))]
    mpmath.mp.dps = digits + 10
    fixed = {syms[n]: sp.Rational(box[n][0]) if abs(x[k] - lo[k]) < 1e-7 else sp.Rational(box[n][1])
             for k, n in enumerate(names) if at_bound[k]}
    free = [n for k, n in enumerate(names) if not at_bound[k]]
    e2 = expr.subs(fixed)
    point = {str(s): str(v) for s, v in fixed.items()}
    if free:
        grads = [sp.lambdify([syms[n] for n in free], sp.diff(e2, syms[n]), "mpmath") for n in free]
        x0 = [mpmath.mpf(float(x[names.index(n)])) for n in free]
        sol = mpmath.findroot(lambda *v: [g(*v) for g in grads], x0 if len(x0) > 1 else x0[0])
        sol = [sol[k] for k in range(len(free))] if isinstance(sol, mpmath.matrix) else [sol]
        value = sp.lambdify([syms[n] for n in free], e2, "mpmath")(*sol)
        point.update({n: mpmath.nstr(v, digits) for n, v in zip(free, sol)})
    else:
        value = sp.N(e2, digits + 10)
    text = mpmath.nstr(value, digits) if free else str(sp.N(value, digits))
    mpmath.mp.dps = 15
    return {"value": text,
            "point": point, "sense": sense, "method": "float search + mpmath.findroot on the gradient (evidence)"}


def bracket(template: str, domain, c_star: str, *, safe: str = "below", rel: str = "1/1000", timeout: float = 10.0,
            **options) -> dict:
    """Prove at c on the safe side of c_star, refute at c on the other side (both rational)."""
    from olr_verify.prover.core import prove

    import math

    c0 = Fraction(str(sp.Float(c_star, 40)))
    d = abs(c0) * Fraction(rel)
    scale = 10**8
    lo, hi = Fraction(math.floor((c0 - d) * scale), scale), Fraction(math.ceil((c0 + d) * scale), scale)
    c_safe, c_bad = (lo, hi) if safe == "below" else (hi, lo)
    out = {"c_star": c_star}
    for key, c in (("safe", c_safe), ("unsafe", c_bad)):
        r = prove(_subst(template, c), domain, timeout=timeout, **options)
        out[key] = {"c": str(c), "status": r.status, "counterexample": r.counterexample,
                    "seconds": round(r.seconds, 3), "boxes": r.certificate.get("boxes")}
    out["bracketed"] = out["safe"]["status"] == "proved" and out["unsafe"]["status"] == "refuted"
    return out


def _subst(template: str, c: Fraction) -> str:
    import re

    return re.sub(r"\bc\b", f"({c.numerator}/{c.denominator})", template)

"""Shared machinery of the scalar checks (``scalar_000.py`` ... ``scalar_004.py``).

Three deciders, each returning an :class:`~olr_verify.outcome.Outcome`:

- :func:`identity` -- ``lhs == rhs`` decided by exact sympy simplification (``proved``); if sympy
  cannot close it, 50-digit evaluation at seeded random rational points gives ``verified`` or a
  ``refuted`` outcome whose artefact (replay type ``"identity"``) is re-checked at 60 digits;
- :func:`inequality` -- a scalar relation over a box (bounds may depend on earlier variables),
  decided by the rigorous prover ``olr_verify.prover.prove`` when it is importable; otherwise (or
  when it is inconclusive) a seeded float search whose violations are confirmed at 50 digits
  (replay type ``"scalar_relation"``), giving ``refuted`` or ``verified``;
- :func:`combine` -- the verdict of a printed chain from the verdicts of its links.

Numbers in artefacts are exact rationals written as strings (``"p/q"``) or decimal strings.
"""
from __future__ import annotations

import inspect
import time
from typing import Any

from olr_verify.artefacts import replayer
from olr_verify.outcome import Context, Outcome

_ORDER = {"refuted": 0, "error": 1, "inconclusive": 2, "verified": 3, "proved": 4}


def _sp():
    import sympy

    return sympy


def parse(text: str):
    """A sympy expression or relation from a string, with the usual names (E, pi, exp, log...)."""
    sp = _sp()
    names = {"E": sp.E, "lam": sp.Symbol("lam"), "beta": sp.Symbol("beta"), "gamma": sp.Symbol("gamma"),
             "alpha": sp.Symbol("alpha")}
    expr = sp.sympify(text, locals=names)
    if isinstance(expr, sp.logic.boolalg.BooleanAtom):  # sympy evaluated a relation: keep its two sides
        expr = sp.sympify(text, locals=names, evaluate=False)
    return expr


def _exact(value: str):
    sp = _sp()
    return sp.Rational(value) if "/" in value or "." in value or value.lstrip("-").isdigit() else parse(value)


def slack_of(relation):
    """Slack s with ``relation`` true iff s >= 0 (or s > 0 for strict relations)."""
    sp = _sp()
    if isinstance(relation, (sp.LessThan, sp.StrictLessThan)):
        return relation.rhs - relation.lhs
    if isinstance(relation, (sp.GreaterThan, sp.StrictGreaterThan)):
        return relation.lhs - relation.rhs
    raise ValueError(f"relation must use <=, <, >= or >: {relation}")


def eval_exact(expr, point: dict[str, str], digits: int = 60):
    """``expr`` at the exact point, evaluated by sympy/mpmath to ``digits`` significant digits."""
    sp = _sp()
    subs = {sp.Symbol(k): _exact(v) for k, v in point.items()}
    return sp.N(expr.subs(subs), digits)


def _to_rational_str(x: float) -> str:
    from fractions import Fraction

    return str(Fraction(x).limit_denominator(10**12))


# --------------------------------------------------------------------------- replayers
@replayer("scalar_relation")
def replay_scalar_relation(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Re-evaluate the relation at the stored exact point at 60 digits; confirmed if it fails."""
    rep = artefact["replay"]
    slack = eval_exact(slack_of(parse(rep["relation"])), rep["point"], 60)
    strict = any(op in rep["relation"] for op in ("<", ">")) and "=" not in rep["relation"]
    confirmed = bool(slack.is_real and (slack < -1e-40 or (strict and abs(slack) < 1e-55)))
    return confirmed, {"slack_60_digits": str(slack)}


@replayer("identity")
def replay_identity(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Re-evaluate lhs - rhs at the stored exact point at 60 digits; confirmed if clearly nonzero."""
    rep = artefact["replay"]
    lhs = eval_exact(parse(rep["lhs"]), rep["point"], 60)
    rhs = eval_exact(parse(rep["rhs"]), rep["point"], 60)
    diff = abs(lhs - rhs)
    scale = 1 + abs(lhs) + abs(rhs)
    return bool(diff > 1e-30 * scale), {"lhs": str(lhs), "rhs": str(rhs), "difference": str(diff)}


# --------------------------------------------------------------------------- identities
def sympy_zero(diff) -> str | None:
    """Name of the exact sympy transformation that reduces ``diff`` to 0, or None."""
    sp = _sp()
    steps = [("expand", sp.expand), ("exp->symbols, cancel", _exp_to_symbols_cancel),
             ("cancel", lambda e: sp.cancel(sp.together(e))),
             ("simplify", sp.simplify),
             ("rewrite(exp)+simplify", lambda e: sp.simplify(e.rewrite(sp.exp))),
             ("expand(rewrite(exp))+cancel", lambda e: sp.cancel(sp.expand(sp.powsimp(e.rewrite(sp.exp)))))]
    for name, fn in steps:
        try:
            if fn(diff) == 0:
                return name
        except Exception:  # a transformation that fails is just not a certificate
            continue
    return None


def _exp_to_symbols_cancel(expr):
    """Write every exp(k*s + ...) as a product of powers of fresh symbols E_s, then cancel.

    Exact: exp is a homomorphism from (R,+) to (R_{>0},*), so a rational identity in the E_s
    (with rational exponents cleared by cancel) is an identity of the original expression.
    """
    sp = _sp()
    e = sp.expand(sp.powsimp(expr.rewrite(sp.exp)), power_exp=True, mul=False, multinomial=False)
    names = sorted(e.free_symbols, key=str)
    fresh = {s: sp.Symbol(f"E_{s}", positive=True) for s in names}

    def repl(arg):
        arg = sp.expand(arg)
        if not arg.is_polynomial(*names) or sp.Poly(arg, *names).total_degree() > 1:
            return None
        out = sp.exp(arg.subs({s: 0 for s in names}))
        for s in names:
            out *= fresh[s] ** arg.coeff(s)
        return out

    def walk(node):
        if node.func == sp.exp:
            r = repl(node.args[0])
            if r is not None:
                return r
        if not node.args:
            return node
        return node.func(*[walk(a) for a in node.args])

    return sp.cancel(sp.together(walk(e)))


def _sample_point(domain: dict[str, tuple[str, str]], rng) -> dict[str, str]:
    """An exact rational point of the (possibly nested) domain, drawn with ``rng``."""
    sp = _sp()
    point: dict[str, str] = {}
    for name, (lo, hi) in domain.items():
        subs = {sp.Symbol(k): sp.Rational(v) for k, v in point.items()}
        lo_v = float(parse(lo).subs(subs)) if lo not in ("-oo",) else None
        hi_v = float(parse(hi).subs(subs)) if hi not in ("oo",) else None
        if lo_v is not None and hi_v is not None:
            x = rng.uniform(lo_v, hi_v)
        elif lo_v is not None:
            x = lo_v + rng.exponential(3.0)
        elif hi_v is not None:
            x = hi_v - rng.exponential(3.0)
        else:
            x = rng.normal(0, 4)
        point[name] = _to_rational_str(x)
    return point


def identity(lhs, rhs, domain: dict[str, tuple[str, str]], ctx: Context, *, what: str = "",
             points: int | None = None, assumptions_note: str = "") -> Outcome:
    """Decide ``lhs == rhs`` (sympy expressions) on ``domain`` (sampling box for the fallback)."""
    sp = _sp()
    t0 = time.perf_counter()
    diff = lhs - rhs
    how = sympy_zero(diff)
    ev: dict[str, Any] = {"identity": what or f"{sp.sstr(lhs)} == {sp.sstr(rhs)}"}
    if assumptions_note:
        ev["reading"] = assumptions_note
    if how is not None:
        ev.update({"certificate": f"sympy {how}(lhs - rhs) == 0 exactly", "seconds": round(time.perf_counter() - t0, 3)})
        return Outcome("proved", "exact sympy identity", ev)
    import numpy as np

    rng = np.random.default_rng(ctx.seed)
    n = points or (8 if ctx.quick else 30)
    worst = 0.0
    evaluated = 0
    for _ in range(n):
        pt = _sample_point(domain, rng)
        try:
            lv, rv = eval_exact(lhs, pt, 50), eval_exact(rhs, pt, 50)
        except (ZeroDivisionError, TypeError):
            continue
        if not (lv.is_real and rv.is_real):
            continue
        rel = abs(lv - rv) / (1 + abs(lv) + abs(rv))
        if rel > 1e-30:
            art = {"replay": {"type": "identity", "lhs": sp.sstr(lhs), "rhs": sp.sstr(rhs), "point": pt}}
            ev.update({"lhs_50": str(lv), "rhs_50": str(rv), "point": pt})
            return Outcome("refuted", "50-digit evaluation at a random rational point", ev, art)
        worst = max(worst, float(rel))
        evaluated += 1
    if evaluated == 0:
        ev["reason"] = "no sample point could be evaluated (free symbols outside the domain?)"
        return Outcome("inconclusive", "sympy undecided and no numeric evidence", ev)
    ev.update({"sympy": "could not reduce lhs - rhs to 0", "points_50_digits": evaluated,
               "max_relative_difference": worst})
    return Outcome("verified", "50-digit evaluation at random points (sympy undecided)", ev)


# --------------------------------------------------------------------------- inequalities
def _prover():
    try:
        from olr_verify.prover import prove  # noqa: WPS433 (import only when it exists)
    except Exception:
        return None
    return prove


def _summary(cert: Any) -> Any:
    if cert is None:
        return None
    if isinstance(cert, dict):
        keep = {}
        for k, v in cert.items():
            s = v if isinstance(v, (int, float, bool)) or v is None else str(v)
            keep[k] = s if not isinstance(s, str) or len(s) < 300 else s[:300] + "..."
        return keep
    s = str(cert)
    return s if len(s) < 600 else s[:600] + "..."


def in_domain(point: dict[str, str], domain: dict[str, tuple[str, str]]) -> bool:
    """Exact check that ``point`` lies in the closed (nested) domain."""
    sp = _sp()
    subs = {sp.Symbol(k): _exact(v) for k, v in point.items()}
    for name, (lo, hi) in domain.items():
        x = subs[sp.Symbol(name)]
        if lo != "-oo" and bool(sp.N(x - parse(lo).subs(subs), 30) < 0):
            return False
        if hi != "oo" and bool(sp.N(parse(hi).subs(subs) - x, 30) < 0):
            return False
    return True


def search(relation: str, domain: dict[str, tuple[str, str]], ctx: Context, n: int | None = None):
    """Seeded float search for a violation; returns (exact point or None, samples, min float slack)."""
    import numpy as np
    sp = _sp()

    rel = parse(relation)
    slack = slack_of(rel)
    names = list(domain)
    syms = [sp.Symbol(v) for v in names]
    f = sp.lambdify(syms, slack, modules=["numpy", {"Min": np.minimum, "Max": np.maximum}])
    rng = np.random.default_rng(ctx.seed)
    n = n or (3000 if ctx.quick else 40000)
    cols: dict[str, np.ndarray] = {}
    for name, (lo, hi) in domain.items():
        env = {k: cols[k] for k in cols}
        lo_e, hi_e = parse(lo), parse(hi)
        lo_v = None if lo == "-oo" else sp.lambdify(list(map(sp.Symbol, env)), lo_e, "numpy")(*env.values())
        hi_v = None if hi == "oo" else sp.lambdify(list(map(sp.Symbol, env)), hi_e, "numpy")(*env.values())
        u = rng.random(n)
        spread = np.exp(rng.uniform(np.log(1e-6), np.log(60.0), n))
        if lo_v is not None and hi_v is not None:
            lo_a, hi_a = np.broadcast_to(lo_v, (n,)).astype(float), np.broadcast_to(hi_v, (n,)).astype(float)
            x = lo_a + u * (hi_a - lo_a)
            k = n // 10  # points near the ends
            x[:k] = lo_a[:k] + np.minimum(spread[:k], hi_a[:k] - lo_a[:k])
            x[k:2 * k] = hi_a[k:2 * k] - np.minimum(spread[k:2 * k], hi_a[k:2 * k] - lo_a[k:2 * k])
        elif lo_v is not None:
            x = np.broadcast_to(lo_v, (n,)).astype(float) + spread
        elif hi_v is not None:
            x = np.broadcast_to(hi_v, (n,)).astype(float) - spread
        else:
            x = np.where(u < 0.5, -1.0, 1.0) * spread
        cols[name] = x
    with np.errstate(all="ignore"):
        s = np.asarray(f(*cols.values()), dtype=float) * np.ones(n)
    ok = np.isfinite(s)
    if not ok.any():
        return None, 0, None
    order = np.argsort(np.where(ok, s, np.inf))[:20]
    for i in order:
        if not s[i] < 0:
            break
        pt = {v: _to_rational_str(float(cols[v][i])) for v in names}
        if not in_domain(pt, domain):
            continue
        try:
            val = eval_exact(slack, pt, 50)
        except Exception:
            continue
        if val.is_real and val < -1e-40:
            return pt, int(ok.sum()), float(s[i])
    return None, int(ok.sum()), float(np.min(s[ok]))


PROVER_SECONDS = 10.0  # full mode; the few relations that need longer pass ``prover_seconds``
PROVER_SECONDS_QUICK = 2.5


def inequality(relation: str, domain: dict[str, tuple[str, str]], ctx: Context, *, reading: str = "",
               use_prover: bool = True, prover_seconds: float | None = None) -> Outcome:
    """Decide a scalar relation over ``domain``: the prover first, a confirmed search second."""
    t0 = time.perf_counter()
    ev: dict[str, Any] = {"relation": relation, "domain": {k: list(v) for k, v in domain.items()}}
    if reading:
        ev["reading"] = reading
    prove = _prover() if use_prover else None
    if prove is not None:
        kwargs: dict[str, Any] = {}
        params = inspect.signature(prove).parameters
        if "timeout" in params:
            kwargs["timeout"] = PROVER_SECONDS_QUICK if ctx.quick else (prover_seconds or PROVER_SECONDS)
        try:
            res = prove(relation, domain, **kwargs)
        except Exception as exc:  # the prover's refusal is reported, then we fall back to search
            ev["prover"] = f"raised {type(exc).__name__}: {exc}"[:300]
        else:
            ev["prover"] = {"status": res.status, "seconds": round(float(getattr(res, "seconds", 0.0) or 0.0), 3),
                            "certificate": _summary(getattr(res, "certificate", None))}
            if res.status == "proved":
                return Outcome("proved", "arb branch-and-bound (olr_verify.prover)", ev)
            if res.status == "refuted" and res.counterexample:
                pt = {k: str(v) for k, v in res.counterexample.items()}
                art = {"replay": {"type": "scalar", "relation": relation, "point": pt, "domain": ev["domain"]}}
                ev["counterexample"] = pt
                try:
                    ev["slack_50_digits"] = str(eval_exact(slack_of(parse(relation)), pt, 50))
                except Exception:
                    pass
                return Outcome("refuted", "prover counterexample, confirmed in ball arithmetic", ev, art)
            if res.status == "verified":
                ev["note"] = "prover: verified but not proved on the whole domain"
    else:
        ev["prover"] = "olr_verify.prover not importable (yet); float search only"
    pt, tried, smin = search(relation, domain, ctx)
    ev.update({"search_points": tried, "min_float_slack": smin, "seconds": round(time.perf_counter() - t0, 3)})
    if pt is not None:
        ev["counterexample"] = pt
        ev["slack_50_digits"] = str(eval_exact(slack_of(parse(relation)), pt, 50))
        art = {"replay": {"type": "scalar_relation", "relation": relation, "point": pt}}
        return Outcome("refuted", "seeded search, violation confirmed at 50 digits", ev, art)
    if tried == 0:
        return Outcome("inconclusive", "search found no point where the relation evaluates", ev)
    return Outcome("verified", f"no violation in {tried} seeded samples (float search, not a proof)", ev)


# --------------------------------------------------------------------------- chains
def combine(parts: list[tuple[str, Outcome]], method: str = "printed chain, link by link",
            extra: dict[str, Any] | None = None) -> Outcome:
    """The verdict of a chain: refuted if any link is, else the weakest status of its links."""
    status = min((o.status for _, o in parts), key=_ORDER.__getitem__)
    ev: dict[str, Any] = {"links": {label: {"status": o.status, "method": o.method, **o.evidence}
                                    for label, o in parts}}
    if extra:
        ev.update(extra)
    cex = None
    if status == "refuted":
        label, first = next((lab, o) for lab, o in parts if o.status == "refuted")
        cex = dict(first.counterexample)
        cex["link"] = label
        ev["refuted_link"] = label
    return Outcome(status, method, ev, cex)


def best_constant(fn, lo: float, hi: float, *, maximise: bool = False, digits: int = 50) -> str:
    """Extremum of a 1-D function at ``digits`` digits (mpmath findroot on a grid-started derivative)."""
    import mpmath as mp

    with mp.workdps(digits + 10):
        grid = [lo + (hi - lo) * i / 400 for i in range(401)]
        vals = [(fn(mp.mpf(x)), x) for x in grid]
        _, x0 = (max if maximise else min)(vals)
        try:
            x = mp.findroot(lambda t: mp.diff(fn, t), mp.mpf(x0))
            v = fn(x)
        except Exception:
            v = fn(mp.mpf(x0))
        return mp.nstr(v, digits)

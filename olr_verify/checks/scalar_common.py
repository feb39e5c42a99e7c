"""Shared machinery of the scalar checks (the declared claims of every ``paper.toml`` and the Python checks).

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
import math
import time
from fractions import Fraction
from typing import Any

from olr_verify.expr import operands
from olr_verify.outcome import Context, Outcome
from olr_verify.checks.exact_points import (PrecisionLost, _breaks, _exact, _may_be_undefined, _real_at,  # noqa: F401
                                          _sample_point, _sp, _to_rational_str, eval_exact, in_domain, parse,
                                          slack_of, special_points, undefined_operand)
from olr_verify.checks.scalar_replay import (IDENTITY_TOLERANCE, _record, exact_zero, nonzero_constant,  # noqa: F401
                                           recording, registry_statements, replay_identity, replay_scalar_relation)

_ORDER = {"refuted": 0, "error": 1, "inconclusive": 2, "verified": 3, "proved": 4}


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


def identity_certificate(lhs, rhs, domain: dict[str, tuple[str, str]],
                         printed: tuple[str, str, list[str]] | None = None) -> dict[str, Any]:
    """A kernel certificate (kind ``identity``, docs/certificates.md) of ``lhs == rhs``: the sides as written
    when ``printed`` = (lhs text, rhs text, their names outside the domain) gives them (a paper folder's claim:
    the kernel then reads what the paper prints, not what sympy made of it), else as sympy prints them."""
    from olr_verify.kernel import FORMAT, statement_sha256

    sp = _sp()
    free = {str(x) for x in lhs.free_symbols | rhs.free_symbols} | set(printed[2] if printed else ())
    names = list(domain) + sorted(free - set(domain))
    sides = printed[:2] if printed else (sp.sstr(lhs), sp.sstr(rhs))
    cert = {"format": FORMAT, "claim": None, "kind": "identity", "lhs": sides[0], "rhs": sides[1],
            "domain": [[n, *map(str, domain.get(n, ("-oo", "oo")))] for n in names]}
    cert["statement_sha256"] = statement_sha256(cert)
    return cert


def identity(lhs, rhs, domain: dict[str, tuple[str, str]], ctx: Context, *, what: str = "",
             points: int | None = None, assumptions_note: str = "",
             printed: tuple[str, str, list[str]] | None = None) -> Outcome:
    """Decide ``lhs == rhs`` (sympy expressions) on ``domain`` (sampling box for the fallback); ``printed``:
    see :func:`identity_certificate`."""
    sp = _sp()
    written = [part for text in printed[:2] for part in operands(text)] if printed else []
    recorded = _record({"kind": "identity", "lhs": sp.sstr(lhs), "rhs": sp.sstr(rhs),
                        "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()},
                        **({"operands": written} if written else {})})
    if recorded is not None:
        return recorded
    from olr_verify.kernel.inequality import MAX_TERMS, expanded_terms

    t0 = time.perf_counter()
    ev: dict[str, Any] = {"identity": what or f"{sp.sstr(lhs)} == {sp.sstr(rhs)}"}
    if assumptions_note:
        ev["reading"] = assumptions_note
    free = sorted({str(x) for x in lhs.free_symbols | rhs.free_symbols} - set(domain))
    sampled = {**domain, **{name: ("-oo", "oo") for name in free}}  # a name outside the domain is any real
    bad = undefined_operand(printed[:2], sampled, ctx.seed) if printed else None
    if bad is not None:
        ev.update({"undefined_operand": bad, "reason": "an operand as written has no real value at a point inside "
                   "the domain: the identity is not shown on the stated domain"})
        return Outcome("inconclusive", "operand not defined inside the domain", ev)
    diff = lhs - rhs
    large = expanded_terms(diff) > MAX_TERMS  # (a+...+h)**24 would expand to millions of terms: no exact algebra, no budget
    how = None if large else sympy_zero(diff)
    if how is not None:
        ev.update({"certificate": f"sympy {how}(lhs - rhs) == 0 exactly", "seconds": round(time.perf_counter() - t0, 3)})
        return Outcome("proved", "exact sympy identity", ev,
                       certificate=identity_certificate(lhs, rhs, domain, printed))
    import numpy as np

    rng = np.random.default_rng(ctx.seed)
    n = points or (8 if ctx.quick else 30)
    worst = 0.0
    evaluated, undefined = 0, []
    constant = None if large else nonzero_constant(diff)

    def points():
        """(point, drawn): the ends of the ranges first, exactly, then 0 and the breaks (sign(x)**2 == 1 fails only
        at 0), then seeded draws."""
        for end in ("lo", "hi"):
            yield _sample_point(sampled, rng, end), False
        for pt in special_points([diff], sampled, ctx.seed + 1, near_ends=False):
            yield pt, False
        for _ in range(n):
            yield _sample_point(sampled, rng), True

    for pt, drawn in points():
        try:
            lv, rv = eval_exact(lhs, pt, 50), eval_exact(rhs, pt, 50)
        except PrecisionLost:
            continue
        except (ArithmeticError, TypeError):
            lv = rv = None
        if lv is None or not (lv.is_real and rv.is_real) or lv.free_symbols or rv.free_symbols:
            if drawn:  # an end may be a printed open end (x > 0 as [0, ...)), a break a removable singularity
                undefined.append(pt)
            continue
        rel = abs(lv - rv) / (1 + abs(lv) + abs(rv))
        if rel > IDENTITY_TOLERANCE or constant is not None:
            art = {"replay": {"type": "identity", "lhs": sp.sstr(lhs), "rhs": sp.sstr(rhs), "point": pt}}
            ev.update({"lhs_50": str(lv), "rhs_50": str(rv), "point": pt})
            if constant is not None:
                ev["exact_difference"] = str(constant)
                return Outcome("refuted", "exact: lhs - rhs expands to a nonzero constant", ev, art)
            return Outcome("refuted", "50-digit evaluation at a rational point (an end, a break or a seeded draw)",
                           ev, art)
        worst = max(worst, float(rel))
        evaluated += 1
    if undefined:
        ev.update({"undefined_at": undefined[:3], "points_undefined": len(undefined), "points_50_digits": evaluated,
                   "reason": "a side is not a real number at a point inside the domain: the identity is not shown "
                             "on the stated domain"})
        return Outcome("inconclusive", "50-digit evaluation at random points (sympy undecided)", ev)
    if evaluated == 0:
        ev["reason"] = "no sample point could be evaluated (free symbols outside the domain?)"
        return Outcome("inconclusive", "sympy undecided and no numeric evidence", ev)
    ev.update({"sympy": f"lhs - rhs could expand to more than {MAX_TERMS} terms: not tried" if large
               else "could not reduce lhs - rhs to 0", "points_50_digits": evaluated,
               "max_relative_difference": worst, "ends_sampled": True})
    return Outcome("verified", "50-digit evaluation at random points and at the ends (sympy undecided)", ev)


# --------------------------------------------------------------------------- inequalities
def _prover():
    try:
        from olr_verify.prover import prove  # noqa: WPS433 (import only when it exists)
    except Exception:
        return None
    return prove


def prove_shared(ctx: Context, prove, relation: str, domain: dict, **kwargs):
    """``prove(relation, domain, **kwargs)`` once per run (:func:`olr_verify.cache.shared`): several claims state the
    same relation (a lemma and the proof step that cites it), and the prover's verdict is a function of its input
    (budgets are units of work), so a later call with the same relation, domain (in the same order), options and
    quick-mode cap reads the first one's result (its ``seconds`` too)."""
    import hashlib
    import json

    from olr_verify.cache import shared
    from olr_verify.prover import core

    # the domain in its order (a bound may only use the variables before it, and the order sets the splits)
    key = json.dumps([relation, [[k, str(a), str(b)] for k, (a, b) in domain.items()],
                      [[k, repr(v)] for k, v in sorted(kwargs.items())], repr(core.TIMEOUT_CAP)])
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    return shared(ctx, f"prove-{digest}", lambda: prove(relation, domain, **kwargs))


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


def search(relation: str, domain: dict[str, tuple[str, str]], ctx: Context, n: int | None = None):
    """Seeded float search for a violation; returns (exact point or None, samples, min float slack, points where
    the relation is not defined)."""
    import numpy as np
    sp = _sp()

    rel = parse(relation)
    slack = slack_of(rel)
    names = list(domain)
    syms = [sp.Symbol(v) for v in names]
    from olr_verify.prover.refute import lambdify  # numpy with Sigmoid, Softplus, Exprel, Max, Min, erf

    f = lambdify(slack, syms)
    strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
    rng = np.random.default_rng(ctx.seed)
    n = n or (3000 if ctx.quick else 40000)
    special = 3 * (len(names) + 1)  # rows at the exact ends and at 0: all variables, then one variable at a time
    cols: dict[str, np.ndarray] = {}
    for name, (lo, hi) in domain.items():
        env = {k: cols[k] for k in cols}
        lo_e, hi_e = parse(lo), parse(hi)
        lo_v = None if lo == "-oo" else sp.lambdify(list(map(sp.Symbol, env)), lo_e, "numpy")(*env.values())
        hi_v = None if hi == "oo" else sp.lambdify(list(map(sp.Symbol, env)), hi_e, "numpy")(*env.values())
        u = rng.random(n)
        spread = np.exp(rng.uniform(np.log(1e-15), np.log(60.0), n))  # atanh(x) <= 10 fails within 2e-9 of 1
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
        _put_special(x, len(cols), lo_v, hi_v)
        cols[name] = x
    with np.errstate(all="ignore"):
        s = np.asarray(f(*cols.values()), dtype=float) * np.ones(n)
    ok = np.isfinite(s)
    undefined = _undefined_points(slack, cols, names, domain, np.isnan(s[special:]), special)
    if not ok.any():
        return None, 0, None, undefined
    order = np.argsort(np.where(ok, s, np.inf))[:20]
    for i in order:
        if not (s[i] <= 0 if strict else s[i] < 0):
            break
        short = {v: _to_rational_str(float(cols[v][i])) for v in names}
        exact = {v: str(Fraction(float(cols[v][i]))) for v in names}  # 1 - 1e-15 is not 1 (atanh near its pole)
        for pt in dict.fromkeys([tuple(short.items()), tuple(exact.items())]):
            pt = dict(pt)
            if not in_domain(pt, domain):
                continue
            try:
                val = eval_exact(slack, pt, 50)
            except Exception:
                continue
            if val.is_real and (val < -1e-40 or (strict and exact_zero(slack, pt))):
                return pt, int(ok.sum()), float(s[i]), undefined
    for pt in special_points([slack], domain, ctx.seed + 1):  # a kink, a jump or a touching point, exactly
        try:  # floats first: exact evaluation only where they leave room for doubt
            with np.errstate(all="ignore"):
                rough = float(np.real(f(*[float(_exact(pt[v])) for v in names])))
        except (TypeError, ValueError, ArithmeticError):
            rough = math.nan
        if math.isfinite(rough) and rough > 1e-6 * (1 + abs(rough)):
            continue
        try:
            val = eval_exact(slack, pt, 50)
        except Exception:  # noqa: BLE001 - not defined there: the float search reports where it is not
            continue
        if val.is_real and (val < -1e-40 or (strict and exact_zero(slack, pt))):
            return pt, int(ok.sum()), float(val), undefined
    return None, int(ok.sum()), float(np.min(s[ok])), undefined


def _put_special(x, j: int, lo, hi) -> None:
    """Rows 0-2 of column ``j``: its low end, its high end and 0 (when in range), as rows 3j+3 to 3j+5: the
    exact points a random draw never hits (a strict relation's zero at an end, a jump at 0)."""
    import numpy as np

    for row in (0, 3 * j + 3):
        for k, value in enumerate((lo, hi, 0.0)):
            if value is None:
                continue
            v = np.broadcast_to(value, x.shape)[row + k]
            inside = (lo is None or np.broadcast_to(lo, x.shape)[row + k] <= v) and \
                (hi is None or v <= np.broadcast_to(hi, x.shape)[row + k])
            if inside:
                x[row + k] = v


def _at_an_end(point: dict[str, str], domain: dict[str, tuple[str, str]]) -> bool:
    """Some variable of ``point`` sits exactly on a finite end of its range."""
    sp = _sp()
    subs = {sp.Symbol(k): _exact(v) for k, v in point.items()}
    return any(end not in ("-oo", "oo") and sp.simplify(parse(end).subs(subs) - subs[sp.Symbol(name)]) == 0
               for name, ends in domain.items() for end in ends)


def _undefined_points(slack, cols, names, domain, nan_rows, offset: int, tries: int = 3) -> list[dict[str, str]]:
    """Up to ``tries`` drawn points (not the special rows, and no point on an end: an end may be a printed open end
    registered closed) where the float slack was NaN and the exact slack is not a real number: the relation is not
    defined there."""
    import numpy as np

    out = []
    for i in np.flatnonzero(nan_rows)[:50]:
        if len(out) == tries:
            break
        pt = {v: _to_rational_str(float(cols[v][offset + i])) for v in names}
        if not in_domain(pt, domain) or _at_an_end(pt, domain):
            continue
        try:
            val = eval_exact(slack, pt, 30)
        except PrecisionLost:
            continue
        except (ArithmeticError, TypeError):
            val = None
        if val is None or not (val.is_real and val.is_finite):
            out.append(pt)
    return out


PROVER_SECONDS = 10.0  # full mode; the few relations that need longer pass ``prover_seconds``
PROVER_SECONDS_QUICK = 2.5


def _replays(art: dict[str, Any]) -> bool:
    """The scalar replayer (olr_verify.prover.replay) confirms the artefact: point in the domain, slack defined
    there and certainly negative (or exactly 0 for a strict relation)."""
    from olr_verify.prover.replay import replay_scalar

    try:
        return replay_scalar(art)[0]
    except Exception:  # noqa: BLE001 - an artefact the replayer cannot read is not a counterexample
        return False


def inequality(relation: str, domain: dict[str, tuple[str, str]], ctx: Context, *, reading: str = "",
               use_prover: bool = True, prover_seconds: float | None = None) -> Outcome:
    """Decide a scalar relation over ``domain``: the prover first, a confirmed search second."""
    recorded = _record({"kind": "relation", "relation": relation,
                        "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()},
                        "operands": operands(str(relation))})
    if recorded is not None:
        return recorded
    t0 = time.perf_counter()
    ev: dict[str, Any] = {"relation": relation, "domain": {k: list(v) for k, v in domain.items()}}
    if reading:
        ev["reading"] = reading
    bad = undefined_operand([relation], domain, ctx.seed)
    if bad is not None:
        ev.update({"undefined_operand": bad, "reason": "an operand as written has no real value at a point inside "
                   "the domain: the relation is not shown on the stated domain"})
        return Outcome("inconclusive", "operand not defined inside the domain", ev)
    prove = _prover() if use_prover else None
    if prove is not None:
        kwargs: dict[str, Any] = {}
        params = inspect.signature(prove).parameters
        if "timeout" in params:
            kwargs["timeout"] = PROVER_SECONDS_QUICK if ctx.quick else (prover_seconds or PROVER_SECONDS)
        try:
            res = prove_shared(ctx, prove, relation, domain, **kwargs)
        except Exception as exc:  # the prover's refusal is reported, then we fall back to search
            ev["prover"] = f"raised {type(exc).__name__}: {exc}"[:300]
        else:
            ev["prover"] = {"status": res.status, "seconds": round(float(getattr(res, "seconds", 0.0) or 0.0), 3),
                            "certificate": _summary(getattr(res, "certificate", None))}
            if res.status == "proved":
                return Outcome("proved", "arb branch-and-bound (olr_verify.prover), kernel-checked certificate", ev,
                               certificate=getattr(res, "kernel_certificate", None))
            if res.status == "refuted" and res.counterexample:
                pt = {k: str(v) for k, v in res.counterexample.items()}
                art = {"replay": {"type": "scalar", "relation": relation, "point": pt, "domain": ev["domain"]}}
                if _replays(art):  # the run says refuted only where `olr-verify replay` will say confirmed
                    ev["counterexample"] = pt
                    try:
                        ev["slack_50_digits"] = str(eval_exact(slack_of(parse(relation)), pt, 50))
                    except Exception:
                        pass
                    return Outcome("refuted", "prover counterexample, confirmed in ball arithmetic", ev, art)
                ev["prover_counterexample_not_replayed"] = pt
            if res.status == "verified":
                ev["note"] = "prover: verified but not proved on the whole domain"
    elif use_prover:
        ev["prover"] = "olr_verify.prover could not be imported; float search only"
    else:
        ev["prover"] = "not called: this check asked for a float search only (use_prover=False)"
    pt, tried, smin, undefined = search(relation, domain, ctx)
    ev.update({"search_points": tried, "min_float_slack": smin, "seconds": round(time.perf_counter() - t0, 3)})
    if pt is not None:
        ev["counterexample"] = pt
        ev["slack_50_digits"] = str(eval_exact(slack_of(parse(relation)), pt, 50))  # search checked it evaluates
        art = {"replay": {"type": "scalar_relation", "relation": relation, "point": pt}}
        return Outcome("refuted", "seeded search, violation confirmed at 50 digits", ev, art)
    if tried == 0:
        return Outcome("inconclusive", "search found no point where the relation evaluates", ev)
    if undefined:
        ev.update({"undefined_at": undefined, "reason": "the relation is not a real number at points inside "
                   "the domain: it is not shown on the stated domain"})
        return Outcome("inconclusive", "relation undefined at points of the domain", ev)
    if isinstance(ev.get("prover"), dict) and ev["prover"]["status"] == "refuted":
        ev["reason"] = "the prover found a violation it could not hand over as a point that replays"
        return Outcome("inconclusive", "prover refutation not confirmed by a replayable point", ev)
    return Outcome("verified", f"no violation in {tried} seeded samples (float search, not a proof)", ev)


# --------------------------------------------------------------------------- chains
def combine(parts: list[tuple[str, Outcome]], method: str = "printed chain, link by link",
            extra: dict[str, Any] | None = None) -> Outcome:
    """The verdict of a chain: refuted if any link is, else the weakest status of its links."""
    status = min((o.status for _, o in parts), key=_ORDER.__getitem__)
    ev: dict[str, Any] = {"links": {label: {**o.evidence, "status": o.status, "method": o.method}
                                    for label, o in parts}}
    if extra:
        ev.update(extra)
    cex = None
    certificate = None
    if status == "proved" and all(o.certificate is not None for _, o in parts):
        from olr_verify.kernel import FORMAT, statement_sha256

        certificate = {"format": FORMAT, "claim": None, "kind": "chain",
                       "links": [{"label": label, "certificate": o.certificate} for label, o in parts]}
        certificate["statement_sha256"] = statement_sha256(certificate)
    if status == "refuted":
        label, first = next((lab, o) for lab, o in parts if o.status == "refuted")
        cex = dict(first.counterexample)
        cex["link"] = f"{label} > {cex['link']}" if cex.get("link") else label  # the path to a nested link
        ev["refuted_link"] = cex["link"]
    return Outcome(status, method, ev, cex, certificate)

"""``prove(relation, domain, **options) -> ProofResult``: the orchestration.

1. parse (exact rationals), rewrite removable singularities ``(e^u-1)/u -> Exprel(0, u)``;
2. quick seeded search for a counterexample (confirmed in arb at 200 bits);
3. split the domain where ``Abs`` of a one-variable linear form changes sign (each region gets
   an ``Abs``-free slack), detect touching manifolds ``x_i = x_j`` exactly with sympy;
4. branch-and-bound on the bounded core (unbounded ends cut at ``+-cut``);
5. tails of the one unbounded variable (``tails.TailProver``); two or more unbounded variables:
   the core is proved and the status is ``verified``;
6. a longer search when undecided.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
import time
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb, ctx, fmpq

from olr_verify.prover import refute
from olr_verify.prover.bnb import BnB, Budget, Refuted, Slack, box_str, q_str
from olr_verify.prover.enclose import Iv, Unsupported, compile_expr, to_fmpq
from olr_verify.prover.parse import parse_domain, parse_relation
from olr_verify.prover.special import rewrite, rewrite_logistic
from olr_verify.prover.tails import TailProver


@dataclasses.dataclass
class ProofResult:
    status: str  # proved | refuted | verified | inconclusive
    counterexample: dict[str, str] | None
    seconds: float
    certificate: dict[str, Any]

    def __bool__(self) -> bool:
        return self.status == "proved"


def _point_str(point: dict) -> dict[str, str]:
    out = {}
    for k, v in point.items():
        f = v if isinstance(v, Fraction) else Fraction(int(v.p), int(v.q))
        out[k] = str(f)
    return out


def _constraints(variables):
    """Compiled ``g >= 0`` for each bound that depends on earlier variables."""
    out, text = [], []
    for v in variables:
        if v.lo.free_symbols:
            out.append(compile_expr(v.symbol - v.lo))
            text.append(f"{v.name} >= {v.lo}")
        if v.hi.free_symbols:
            out.append(compile_expr(v.hi - v.symbol))
            text.append(f"{v.name} <= {v.hi}")
    return out, text


def _bounding_box(variables, cut: fmpq):
    """Constant rational bounds for every variable (dependent bounds enclosed), infinite ends cut."""
    env: dict[str, Iv] = {}
    box, unbounded = [], []
    for v in variables:
        ends = []
        for bound, side in ((v.lo, -1), (v.hi, +1)):
            if bound in (sp.oo, -sp.oo):
                ends.append(cut * side)
                unbounded.append((v.name, side))
                continue
            if bound.is_Rational:
                ends.append(to_fmpq(bound))
                continue
            iv = compile_expr(bound)(env) if bound.free_symbols else compile_expr(bound)({})
            if not iv.bounded():
                raise ValueError(f"bound {bound} of {v.name} is not bounded on the box")
            end = iv.lo if side < 0 else iv.hi
            mid, rad = end.mid(), end.rad()
            q = _arb_to_fmpq(mid) + side * _arb_to_fmpq(arb(rad))
            ends.append(q)
        box.append((ends[0], ends[1]))
        env[v.name] = Iv(arb(ends[0]), arb(ends[1]))
    return box, unbounded


def _arb_to_fmpq(x: arb) -> fmpq:
    m, e = x.mid().man_exp()
    m, e = int(m), int(e)
    return fmpq(m * 2**e) if e >= 0 else fmpq(m, 2**(-e))


def _abs_splits(expr, syms):
    """(variable index, split point) for each Abs(linear form of one variable)."""
    splits = set()
    for a in expr.atoms(sp.Abs):
        arg = a.args[0]
        fs = arg.free_symbols
        if len(fs) != 1:
            continue
        x = next(iter(fs))
        p = sp.Poly(arg, x) if arg.is_polynomial(x) else None
        if p is None or p.degree() != 1:
            continue
        root = sp.solve(arg, x)[0]
        if root.is_Rational:
            splits.add((syms.index(x), root))
    return sorted(splits, key=lambda t: (t[0], t[1]))


def _regions(expr, syms, box):
    """Sub-boxes on which every split ``Abs`` has a constant sign, with the Abs-free slack."""
    splits = [(i, r) for i, r in _abs_splits(expr, syms) if box[i][0] < to_fmpq(r) < box[i][1]]
    if not splits:
        return [(box, expr, [])]
    out = []
    for signs in itertools.product((-1, 1), repeat=len(splits)):
        b = list(box)
        e = expr
        notes = []
        for (i, r), sg in zip(splits, signs):
            q = to_fmpq(r)
            lo, hi = b[i]
            b[i] = (max(lo, q), hi) if sg > 0 else (lo, min(hi, q))
            x = syms[i]
            for a in list(e.atoms(sp.Abs)):
                if a.args[0].free_symbols == {x}:
                    lin = a.args[0]
                    # sign of lin on this side: lin is increasing in x iff its coefficient > 0
                    coef = sp.diff(lin, x)
                    e = e.subs(a, lin if (coef > 0) == (sg > 0) else -lin)
            notes.append(f"{x} {'>=' if sg > 0 else '<='} {r}")
        if b[0] is not None and all(lo <= hi for lo, hi in b):
            out.append((b, e, notes))
    return out


def _manifolds(expr, syms):
    """Pairs (i, j) with s = 0 and d_i s = 0 identically on x_i = x_j (decided by sympy)."""
    out = []
    for i, j in itertools.permutations(range(len(syms)), 2):
        xi, xj = syms[i], syms[j]
        if xi not in expr.free_symbols or xj not in expr.free_symbols:
            continue
        on = expr.subs(xi, xj)
        # cheap numeric screen before simplify
        try:
            vals = [complex(on.subs({s: sp.Rational(k + 2, 7 + k) for k, s in enumerate(syms)}).evalf(20))]
        except Exception:
            continue
        if any(abs(v) > 1e-12 for v in vals):
            continue
        if sp.simplify(on) != 0:
            continue
        if sp.simplify(sp.diff(expr, xi).subs(xi, xj)) != 0:
            continue
        out.append((i, j))
        break
    return out


TIMEOUT_CAP: float | None = None  # set by `olr-verify run --quick`: caps every call's timeout (reduced budget)


def prove(relation: str, domain: dict[str, tuple[str, str]], *, timeout: float = 20.0, max_boxes: int = 200_000,
          cut: str | int = 8, prec: int = 80, search: bool = True, seed: int = 0, max_tail_depth: int = 4,
          ) -> ProofResult:
    """Decide ``relation`` on ``domain`` (see the package docstring for the certificate)."""
    t0 = time.perf_counter()
    if TIMEOUT_CAP is not None:
        timeout = min(timeout, TIMEOUT_CAP)
    deadline = t0 + timeout
    variables = parse_domain(domain)
    names = [v.name for v in variables]
    syms = [v.symbol for v in variables]
    raw_slack, strict, _ = parse_relation(relation, names)
    slack, n_rewrites = rewrite(raw_slack)
    cert: dict[str, Any] = {
        "relation": relation, "slack": sp.sstr(raw_slack), "strict": strict,
        "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()},
        "arb_precision_bits": prec,
    }
    if n_rewrites:
        cert["rewrites"] = f"{n_rewrites} x (e^u-1)/u -> E0(u) = int_0^1 e^(tu) dt (removable singularity at u=0)"

    def result(status, point=None):
        cert["seconds"] = round(time.perf_counter() - t0, 3)
        return ProofResult(status, _point_str(point) if point else None, time.perf_counter() - t0, cert)

    if search:
        pt = refute.search(slack, variables, seed=seed, n=3000, polish=3)
        if pt is not None:
            cert["refutation"] = "seeded search, confirmed in arb at 200 bits"
            return result("refuted", pt)

    old_prec = ctx.prec
    ctx.prec = prec
    slack, n_logistic = rewrite_logistic(slack)
    if n_logistic:
        cert["logistic_rewrites"] = (f"{n_logistic} exact rewrites: log(1+e^u) -> Softplus(u), (1+e^u)^-k -> "
                                     "Sigmoid(-u)^k, e^u Sigmoid(-u) -> Sigmoid(u)")
    try:
        return _prove_core(slack, strict, variables, syms, cert, result, deadline, max_boxes, fmpq(int(cut)),
                           max_tail_depth, search, seed)
    except Unsupported as exc:
        cert["reason"] = f"unsupported expression: {exc}"
        return result("inconclusive")
    finally:
        ctx.prec = old_prec


def _reparametrise(slack, variables):
    """Dependent bounds removed by an affine change of variable (exact, sympy).

    ``x in [lo(y), hi(y)]`` becomes ``x = lo + (hi - lo) t`` with ``t in [0, 1]`` (``x = lo + t`` or
    ``x = hi - t`` with ``t >= 0`` when the other end is infinite). The new box is a product, so
    every closer (face reductions included) acts on domain points only; where ``hi < lo`` the map
    covers a superset of the (empty) slice, which keeps a proof sound, and a counterexample is
    mapped back and re-checked in the original domain.
    Returns (new slack, new variables, {original name: expr of new symbols}, text) or None.
    """
    from olr_verify.prover.parse import Var

    if not any(v.lo.free_symbols or v.hi.free_symbols for v in variables):
        return None
    taken = {v.name for v in variables}
    subs: dict = {}  # original symbol -> expression in new symbols
    new_vars, maps, text = [], {}, []
    for v in variables:
        lo, hi = v.lo.subs(subs), v.hi.subs(subs)
        if not (v.lo.free_symbols or v.hi.free_symbols):
            new_vars.append(Var(v.name, v.symbol, lo, hi))
            subs[v.symbol] = v.symbol
            maps[v.name] = v.symbol
            continue
        tname = v.name + "_t"
        while tname in taken:
            tname += "_"
        taken.add(tname)
        t = sp.Symbol(tname, real=True)
        if lo not in (-sp.oo,) and hi not in (sp.oo,):
            x = lo + (hi - lo) * t
            new_vars.append(Var(tname, t, sp.Integer(0), sp.Integer(1)))
            rng = "[0, 1]"
        elif lo is -sp.oo:
            x = hi - t
            new_vars.append(Var(tname, t, sp.Integer(0), sp.oo))
            rng = "[0, oo)"
        else:
            x = lo + t
            new_vars.append(Var(tname, t, sp.Integer(0), sp.oo))
            rng = "[0, oo)"
        subs[v.symbol] = x
        maps[v.name] = x
        text.append(f"{v.name} = {sp.sstr(x)}, {tname} in {rng}")
    return slack.subs(subs, simultaneous=True), new_vars, maps, text


def _back(point: dict, maps: dict) -> dict:
    """A point of reparametrised coordinates mapped to the original variables (exact)."""
    sub = {sp.Symbol(k, real=True): sp.Rational(int(v.p), int(v.q)) if hasattr(v, "p") else sp.Rational(str(v))
           for k, v in point.items()}
    out = {}
    for name, e in maps.items():
        r = sp.Rational(e.subs(sub))
        out[name] = fmpq(int(r.p), int(r.q))
    return out


def _eliminate_monotone(slack, variables):
    """Exact reduction: a variable x with constant bounds [L, U] on which s is monotone.

    When ``d s/d x >= 0`` (enclosure on the whole bounding box, unbounded ends included), for
    fixed other variables s is smallest at the least admissible x, ``x* = Max(L, lower bounds
    from the dependent constraints)`` (constraints linear in x with a constant coefficient, e.g.
    ``a <= C`` gives ``C >= a``); ``<= 0``: the largest, ``Min(U, ...)``. The remaining variables
    get the hull of their bounds over ``x in [L, U]`` (a superset of the projected domain), and
    ``[x*, x]`` lies in [L, U], so ``s(x, .) >= s(x*, .)``. ``x*`` is a Max/Min of linear forms of
    one variable y; y's range is split where the winner changes (exact rational crossings).
    Returns a list of pieces ``(slack, variables, text)`` or None.
    """
    from olr_verify.prover.parse import Var

    for k, xv in enumerate(variables):
        x = xv.symbol
        if xv.lo.free_symbols or xv.hi.free_symbols or xv.lo in (-sp.oo,) or xv.hi in (sp.oo,):
            continue
        deps = [v for v in variables[k + 1:] if x in v.lo.free_symbols or x in v.hi.free_symbols]
        if not deps or any((v.lo.free_symbols | v.hi.free_symbols) - {x} for v in deps):
            continue
        box, _ = _bounding_box(variables, fmpq(10**6))
        env = {v.name: Iv(arb(lo), arb(hi)) for v, (lo, hi) in zip(variables, box)}
        for v, (lo, hi) in zip(variables, box):
            if v.lo is -sp.oo:
                env[v.name] = Iv(-math.inf, env[v.name].hi)
            if v.hi is sp.oo:
                env[v.name] = Iv(env[v.name].lo, math.inf)
        try:
            d = compile_expr(sp.diff(slack, x))(env)
        except Unsupported:
            continue
        up = d.certainly_ge0()
        if not (up or d.certainly_le0()):
            continue
        cands, ok = [xv.lo if up else xv.hi], True
        for v in deps:  # constraints g >= 0: v - lo(x) >= 0 and hi(x) - v >= 0
            for g in ([v.symbol - v.lo] if v.lo.free_symbols else []) + ([v.hi - v.symbol] if v.hi.free_symbols else []):
                coef = sp.diff(g, x)
                if not coef.is_Rational or coef == 0 or sp.diff(g, x, 2) != 0:
                    ok = False
                    break
                bound = sp.expand(x - g / coef)  # g >= 0  <=>  x >= bound (coef > 0) or x <= bound
                if (coef > 0) == up:
                    cands.append(bound)
        ys = set().union(*[c.free_symbols for c in cands])
        if not ok or len(ys) != 1 or any(not c.is_polynomial() or sp.Poly(c, *ys).degree() > 1 for c in cands
                                         if c.free_symbols):
            continue
        y = next(iter(ys))
        lo_hi = {}
        for v in deps:  # hull of the bounds over x in [L, U] (linear in x: the ends)
            los = [v.lo.subs(x, xv.lo), v.lo.subs(x, xv.hi)]
            his = [v.hi.subs(x, xv.lo), v.hi.subs(x, xv.hi)]
            if any(sp.diff(b, x, 2) != 0 for b in (v.lo, v.hi)):
                ok = False
            lo_hi[v.name] = (sp.Min(*los), sp.Max(*his))
        if not ok:
            continue
        rest = [Var(v.name, v.symbol, *lo_hi.get(v.name, (v.lo, v.hi))) for v in variables if v is not xv]
        yv = next(v for v in rest if v.symbol == y)
        if yv.lo.free_symbols or yv.hi.free_symbols:
            continue
        pts = {yv.lo, yv.hi}
        for c1, c2 in itertools.combinations(cands, 2):
            sol = sp.solve(sp.Eq(c1, c2), y) if (c1 - c2).free_symbols else []
            pts.update(r for r in sol if r.is_Rational and (yv.lo is -sp.oo or r > yv.lo) and (yv.hi is sp.oo or r < yv.hi))
        pts = sorted(pts, key=lambda r: float(r))
        pieces = []
        for p0, p1 in zip(pts, pts[1:]):
            mid = (p0 + p1) / 2 if p0 is not -sp.oo and p1 is not sp.oo else (p1 - 1 if p0 is -sp.oo else p0 + 1)
            vals = [c.subs(y, mid) for c in cands]
            best = cands[vals.index(max(vals) if up else min(vals))]
            vs = [Var(v.name, v.symbol, p0, p1) if v.symbol == y else v for v in rest]
            pieces.append((slack.subs(x, best), vs, f"{x} = {best} for {y} in [{p0}, {p1}]", x, best))
        text = (f"d s/d {x} {'>=' if up else '<='} 0 on the whole domain (enclosure), so s is smallest at "
                f"{x} = {'Max' if up else 'Min'}{tuple(cands)}; {', '.join(f'{n} in [{a}, {b}]' for n, (a, b) in lo_hi.items())}")
        return pieces, text
    return None


def _prove_core(slack, strict, variables, syms, cert, result, deadline, max_boxes, cut, max_tail_depth,
                search, seed):
    elim = _eliminate_monotone(slack, variables)
    if elim is not None:
        pieces, text = elim
        cert["monotone_elimination"] = text
        cert["dependent_bounds"] = _constraints(variables)[1]
        sub_certs, statuses, t_boxes = [], [], 0
        for pslack, pvars, ptext, x, best in pieces:
            sub: dict[str, Any] = {"piece": ptext, "domain": {v.name: [str(v.lo), str(v.hi)] for v in pvars}}

            def sub_result(status, point=None, _sub=sub):
                return status, point, _sub

            status, point, _ = _prove_core(pslack, strict, pvars, [v.symbol for v in pvars], sub, sub_result,
                                           deadline, max_boxes, cut, max_tail_depth, False, seed)
            t_boxes += sub.get("boxes", 0)
            sub_certs.append(sub)
            statuses.append(status)
            if status == "refuted":
                # a counterexample of the reduced problem, mapped back and re-checked in the original one
                pt = {k: (v if isinstance(v, fmpq) else fmpq(int(Fraction(str(v)).numerator),
                                                              int(Fraction(str(v)).denominator)))
                      for k, v in point.items()}
                r = sp.Rational(best.subs({sp.Symbol(k, real=True): sp.Rational(str(v)) for k, v in pt.items()}))
                pt[x.name] = fmpq(int(r.p), int(r.q))
                ok, val = refute.confirm(slack, variables, pt)
                if ok:
                    cert["pieces"] = sub_certs
                    cert["refutation"] = "reduced problem (monotone elimination), re-checked in the original domain"
                    cert["slack_upper_bound"] = val
                    return result("refuted", {n.name: pt[n.name] for n in variables})
                break
            if status not in ("proved", "verified"):
                break
        cert["pieces"] = sub_certs
        cert["boxes"] = t_boxes
        cert["closers"] = _sum_closers([{"closers": s.get("closers", {})} for s in sub_certs])
        if statuses and all(s == "proved" for s in statuses) and len(statuses) == len(pieces):
            cert["tails"] = [t for s in sub_certs for t in (s.get("tails") or [])]
            return result("proved")
        if all(s in ("proved", "verified") for s in statuses) and len(statuses) == len(pieces):
            return _undecided(slack, variables, cert, result, search, seed, "a piece was only verified",
                              verified=True)
        return _undecided(slack, variables, cert, result, search, seed, "a piece was not proved")
    orig_slack, orig_vars, orig_syms = slack, variables, syms
    manifold_pairs = _manifolds(slack, syms)
    maps = None
    rep = _reparametrise(slack, variables)
    if rep is not None:
        slack, variables, maps_expr, rtext = rep
        syms = [v.symbol for v in variables]
        cert["dependent_bounds"] = [t for t in _constraints(orig_vars)[1]]
        cert["reparametrisation"] = rtext
        maps = {n: compile_expr(e) for n, e in maps_expr.items()}
    return _prove_box(slack, strict, variables, syms, cert, result, deadline, max_boxes, cut, max_tail_depth,
                      search, seed, orig_slack, orig_vars, orig_syms, manifold_pairs, maps,
                      maps_expr if rep is not None else None)


def _scales(maps_expr, syms, box):
    """Split weights: for a reparametrised coordinate t, an upper bound of |dx/dt| on the box."""
    if maps_expr is None:
        return None
    env = {s.name: Iv(arb(lo), arb(hi)) for s, (lo, hi) in zip(syms, box)}
    out = [fmpq(1)] * len(syms)
    for e in maps_expr.values():
        for k, s in enumerate(syms):
            if e == s or s not in e.free_symbols:
                continue
            iv = compile_expr(sp.Abs(sp.diff(e, s)))(env)
            if iv.bounded():
                out[k] = max(out[k], _arb_to_fmpq(iv.hi) + 1)
    return out


def _prove_box(slack, strict, variables, syms, cert, result, deadline, max_boxes, cut, max_tail_depth,
               search, seed, orig_slack, orig_vars, orig_syms, manifold_pairs, maps, maps_expr):
    names = [v.name for v in variables]
    constraints, ctext = _constraints(variables)
    if ctext:
        cert["dependent_bounds"] = ctext
    box, unbounded = _bounding_box(variables, cut)
    cert["core_box"] = box_str(box, names)
    regions_cert, total_boxes, all_closed = [], 0, True
    if manifold_pairs:
        cert["touching_manifolds"] = [f"{orig_syms[i]} = {orig_syms[j]}" for i, j in manifold_pairs]
    for rbox, rexpr, notes in _regions(slack, syms, box):
        mans = []
        for i, j in manifold_pairs:
            try:
                if maps is None:
                    mans.append((i, j, compile_expr(sp.diff(rexpr, syms[i], 2))))
                else:  # d_ii of the original slack, the original variables enclosed through the maps
                    mans.append((orig_syms[i].name, orig_syms[j].name,
                                 compile_expr(sp.diff(orig_slack, orig_syms[i], 2)), maps))
            except Unsupported:
                pass
        s = Slack(rexpr, syms, strict, constraints, mans)
        bnb = BnB(s, deadline=deadline, max_boxes=max_boxes, scales=_scales(maps_expr, syms, box))
        try:
            closed = bnb.run(rbox)
        except Refuted as r:
            point = r.point if maps_expr is None else _back(r.point, maps_expr)
            ok, val = refute.confirm(orig_slack, orig_vars, point)
            in_dom = maps_expr is None or refute.point_in_domain(point, orig_vars)  # box points are in the domain
            if ok or (strict and in_dom):
                cert["refutation"] = "branch-and-bound box centre" + (" (touching point, strict)" if not ok else "")
                cert["slack_upper_bound"] = val
                return result("refuted", point)
            closed = False
        except Budget:
            closed = False
            cert["budget_exhausted"] = True
        total_boxes += bnb.boxes
        entry = {"box": box_str(rbox, names), "boxes": bnb.boxes, "closers": bnb.closers, "closed": closed}
        if notes:
            entry["abs_split"] = notes
        if bnb.touching:
            entry["touching_points"] = bnb.touching[:10]
        if not closed and bnb.failed:
            entry["open_boxes"] = [box_str(b, names) for b in bnb.failed[:3]]
        regions_cert.append(entry)
        all_closed = all_closed and closed
        if not closed:
            break
    cert["regions"] = regions_cert
    cert["boxes"] = total_boxes
    cert["closers"] = _sum_closers(regions_cert)
    if not all_closed:
        return _undecided(orig_slack, orig_vars, cert, result, search, seed, "bounded core not closed")
    tails_ok, tails_cert = True, []
    uvars = {n for n, _ in unbounded}
    if len(uvars) > 1:
        cert["tails"] = f"not attempted: {len(uvars)} unbounded variables ({sorted(uvars)})"
        cert["proved_box"] = cert["core_box"]
        return result("verified")
    for name, side in unbounded:
        vi = names.index(name)
        tp = TailProver(slack, syms, vi, side, cut, strict, constraints, deadline=deadline, max_boxes=3000,
                        max_depth=max_tail_depth)
        try:
            ok = tp.prove(box)
        except Budget:
            ok = False
        except Unsupported:
            ok = False
        tails_cert.append({"var": name, "side": "right" if side > 0 else "left",
                           "range": f"[{cut}, oo)" if side > 0 else f"(-oo, -{cut}]",
                           "argument": sorted(tp.arguments),
                           "boxes": tp.boxes, "proved": ok})
        tails_ok = tails_ok and ok
    cert["tails"] = tails_cert
    if tails_ok:
        return result("proved")
    cert["proved_box"] = cert["core_box"]
    return _undecided(orig_slack, orig_vars, cert, result, search, seed, "a tail was not certified", verified=True)


def _sum_closers(regions):
    out: dict[str, int] = {}
    for r in regions:
        for k, v in r["closers"].items():
            out[k] = out.get(k, 0) + v
    return out


def _undecided(slack, variables, cert, result, search, seed, reason, verified=False):
    cert["reason"] = reason
    if search:
        pt = refute.search(slack, variables, seed=seed + 1, n=20000, polish=8, hypothesis_examples=200)
        if pt is not None:
            cert["refutation"] = "extended search, confirmed in arb at 200 bits"
            return result("refuted", pt)
        cert["search"] = "23000 seeded samples + Nelder-Mead + 200 Hypothesis examples: no violation"
    return result("verified" if verified else "inconclusive")

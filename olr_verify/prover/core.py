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
import time
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb, ctx, fmpq

from olr_verify.prover import refute
from olr_verify.prover.bnb import BnB, Budget, Refuted, Slack, box_str, q_str
from olr_verify.prover.enclose import Iv, Unsupported, compile_expr, to_fmpq
from olr_verify.prover.parse import parse_domain, parse_relation
from olr_verify.prover.special import rewrite
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


def prove(relation: str, domain: dict[str, tuple[str, str]], *, timeout: float = 20.0, max_boxes: int = 200_000,
          cut: str | int = 8, prec: int = 80, search: bool = True, seed: int = 0, max_tail_depth: int = 4,
          ) -> ProofResult:
    """Decide ``relation`` on ``domain`` (see the package docstring for the certificate)."""
    t0 = time.perf_counter()
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
    try:
        return _prove_core(slack, strict, variables, syms, cert, result, deadline, max_boxes, fmpq(int(cut)),
                           max_tail_depth, search, seed)
    except Unsupported as exc:
        cert["reason"] = f"unsupported expression: {exc}"
        return result("inconclusive")
    finally:
        ctx.prec = old_prec


def _prove_core(slack, strict, variables, syms, cert, result, deadline, max_boxes, cut, max_tail_depth,
                search, seed):
    names = [v.name for v in variables]
    constraints, ctext = _constraints(variables)
    if ctext:
        cert["dependent_bounds"] = ctext
    box, unbounded = _bounding_box(variables, cut)
    cert["core_box"] = box_str(box, names)
    regions_cert, total_boxes, all_closed = [], 0, True
    manifold_pairs = _manifolds(slack, syms)
    if manifold_pairs:
        cert["touching_manifolds"] = [f"{syms[i]} = {syms[j]}" for i, j in manifold_pairs]
    for rbox, rexpr, notes in _regions(slack, syms, box):
        mans = []
        for i, j in manifold_pairs:
            try:
                mans.append((i, j, compile_expr(sp.diff(rexpr, syms[i], 2))))
            except Unsupported:
                pass
        s = Slack(rexpr, syms, strict, constraints, mans)
        bnb = BnB(s, deadline=deadline, max_boxes=max_boxes)
        try:
            closed = bnb.run(rbox)
        except Refuted as r:
            ok, val = refute.confirm(slack, variables, r.point)
            if ok or strict:
                cert["refutation"] = "branch-and-bound box centre" + (" (touching point, strict)" if not ok else "")
                cert["slack_upper_bound"] = val
                return result("refuted", r.point)
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
        return _undecided(slack, variables, cert, result, search, seed, "bounded core not closed")
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
    return _undecided(slack, variables, cert, result, search, seed, "a tail was not certified", verified=True)


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

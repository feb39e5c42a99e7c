"""``prove(relation, domain, **options) -> ProofResult``: the orchestration.

1. parse (exact rationals); a term ``-M |u|``, ``-M Max(..)`` or ``M Min(..)`` (M >= 0) makes one
   relation per alternative (``reduce.split_term``);
   rewrite removable singularities ``(e^u-1)/u -> Exprel(0, u)``;
2. quick seeded search for a counterexample (confirmed in arb at 200 bits);
3. exact reductions (:mod:`olr_verify.prover.reduce`): monotone elimination of free variables and
   of variables others depend on, reparametrisation of dependent bounds; split the domain where
   ``Abs`` of a one-variable linear form changes sign, detect touching manifolds ``x_i = x_j``;
4. tails of the one unbounded variable (``tails.TailProver``) at a cut that grows until they are
   certified; two or more unbounded variables: only the core is proved (status ``verified``);
5. branch-and-bound on the bounded core (unbounded ends cut at ``+-cut``);
6. a longer search when undecided.
"""
from __future__ import annotations

import dataclasses
import time
from fractions import Fraction
from typing import Any

import sympy as sp
from flint import arb, ctx, fmpq

from olr_verify.prover import refute
from olr_verify.prover.bnb import BnB, Budget, Refuted, Slack, box_str
from olr_verify.prover.enclose import Iv, Unsupported, compile_expr
from olr_verify.prover.parse import parse_domain, parse_relation
from olr_verify.prover.reduce import (arb_to_fmpq, back, bounding_box, dependent_constraints, domain_env,
                                      eliminate_free, eliminate_monotone, fmpq_point, identically_zero, lift,
                                      manifolds, regions, reparametrise, split_term)
from olr_verify.prover.special import rewrite, rewrite_logistic
from olr_verify.prover.tails import TailProver


@dataclasses.dataclass
class ProofResult:
    status: str  # proved | refuted | verified | inconclusive
    counterexample: dict[str, str] | None
    seconds: float
    certificate: dict[str, Any]
    kernel_certificate: dict[str, Any] | None = None  # accepted by olr_verify.kernel.check (status proved)

    def __bool__(self) -> bool:
        return self.status == "proved"


def _point_str(point: dict) -> dict[str, str]:
    out = {}
    for k, v in point.items():
        f = v if isinstance(v, Fraction) else Fraction(int(v.p), int(v.q))
        out[k] = str(f)
    return out


TIMEOUT_CAP: float | None = None  # set by `olr-verify run --quick`: caps every call's timeout (reduced budget)


BOXES_PER_SECOND = 1000  # work budget: ``timeout`` seconds buy this many boxes per branch-and-bound run
KERNEL_BOXES = 6_000  # boxes of the kernel-certificate search (olr_verify.prover.certify)
KERNEL_BOXES_QUICK = 1_500
KERNEL_OPS_PER_SECOND = 25_000  # interval operations of the kernel-certificate search per second of ``timeout``
KERNEL_OPS_MIN = 50_000  # ... and at least this many. Measured needs: the registry's certificates <= 22 000 operations,
# the corpora's textbook ones up to ~350 000 (log(1 + e^x) <= log 2 + x/2 + x^2/8 on R, at the default timeout 20)
SAFETY_FACTOR = 4.0  # wall-clock safety net: SAFETY_FACTOR * (timeout + SAFETY_FIXED) s, then "inconclusive"
SAFETY_FIXED = 5.0  # seconds of a call no budget scales with ``timeout`` (parsing, sympy's candidate points and forms:
# up to ~6 s on 000 Eq. (8) at the quick timeout of 1 s), so that the net leaves the same margin to every call


def safety_net(timeout: float) -> float:
    """Seconds after which a call of this ``timeout`` stops with ``inconclusive``: a machine ``SAFETY_FACTOR`` times
    slower than the one the budgets were measured on still reaches the same verdict."""
    return SAFETY_FACTOR * (timeout + SAFETY_FIXED)


def prove(relation: str, domain: dict[str, tuple[str, str]], *, timeout: float = 20.0, max_boxes: int | None = None,
          cut: str | int = 8, prec: int = 80, search: bool = True, seed: int = 0, max_tail_depth: int = 4,
          kernel_boxes: int | None = None) -> ProofResult:
    """Decide ``relation`` on ``domain`` (see the package docstring for the certificate).

    Budgets are units of work (``max_boxes``, default ``BOXES_PER_SECOND * timeout``; ``kernel_boxes`` and
    ``KERNEL_OPS_PER_SECOND * timeout``, at least ``KERNEL_OPS_MIN``, interval operations for the
    kernel-certificate search),
    so the verdict does not depend on the machine; the wall clock is only a safety net (inconclusive).
    ``proved`` only when :func:`olr_verify.kernel.check` accepts the certificate found by
    :func:`olr_verify.prover.certify.certify` (``ProofResult.kernel_certificate``); a proof of the
    search that the kernel cannot re-check is ``verified`` with ``certificate["kernel"]`` = why.
    """
    t0 = time.perf_counter()
    if TIMEOUT_CAP is not None:
        timeout = min(timeout, TIMEOUT_CAP)
    work = int(max_boxes) if max_boxes is not None else max(200, int(BOXES_PER_SECOND * timeout))
    kernel_boxes = kernel_boxes or (KERNEL_BOXES if TIMEOUT_CAP is None else KERNEL_BOXES_QUICK)
    safety = t0 + safety_net(timeout)
    res = _prove_search(relation, domain, t0=t0, deadline=safety, max_boxes=work, cut=cut, prec=prec, search=search,
                        seed=seed, max_tail_depth=max_tail_depth)
    return _kernel_gate(res, relation, domain, kernel_boxes, max(KERNEL_OPS_MIN, int(KERNEL_OPS_PER_SECOND * timeout)),
                        safety)


def _kernel_gate(res: ProofResult, relation, domain, kernel_boxes: int, kernel_ops: int, safety: float) -> ProofResult:
    """Only the kernel says ``proved``; the safety net only says ``inconclusive``."""
    from olr_verify.kernel import check
    from olr_verify.prover.certify import SafetyNet, certify

    cert = res.certificate
    if time.perf_counter() > safety:
        return _safety(res)
    if res.status == "refuted":  # confirmed in ball arithmetic at an exact point
        return res
    stuck: list = []
    try:
        kcert, why = certify(relation, domain, max_boxes=kernel_boxes, max_ops=kernel_ops, deadline=safety, stuck=stuck)
    except SafetyNet:
        return _safety(res)
    refuted = _stuck_refutation(relation, domain, stuck) if kcert is None and stuck else None
    if refuted is not None:
        cert["kernel"] = why
        cert["refutation"] = "a point of the box the certificate search could not close, confirmed in arb at 200 bits"
        return ProofResult("refuted", refuted, res.seconds, cert)
    verdict = check(kcert) if kcert is not None else None
    if verdict is not None and verdict.accepted:
        cert["kernel"] = f"accepted ({kcert['max_nodes']} boxes)"
        if res.status != "proved":
            cert["kernel_note"] = f"search status was {res.status}; the kernel certificate decides"
        res.status, res.kernel_certificate = "proved", kcert
    else:
        cert["kernel"] = why or verdict.reason
        if res.status == "proved":
            cert["search_status"] = "proved (not re-checked by the kernel)"
            res.status = "verified"
    return _safety(res) if time.perf_counter() > safety else res


def _stuck_refutation(relation, domain, points) -> dict[str, str] | None:
    """The first point (of :func:`certify.stuck_points`) where the slack is certainly negative (arb,
    200 bits, the point certainly in the domain), as exact strings; None if there is none."""
    variables = parse_domain(domain)
    slack, _, _ = parse_relation(relation, [v.name for v in variables])
    for point in points:
        try:
            ok, _ = refute.confirm(slack, variables, fmpq_point(point))
        except (Unsupported, ValueError, TypeError, ZeroDivisionError):
            continue
        if ok:
            return _point_str(fmpq_point(point))
    return None


def _safety(res: ProofResult) -> ProofResult:
    res.certificate["reason"] = "wall-clock safety net reached (machine too slow or overloaded)"
    res.status, res.counterexample, res.kernel_certificate = "inconclusive", None, None
    return res


def _prove_search(relation: str, domain: dict[str, tuple[str, str]], *, t0: float, deadline: float,
                  max_boxes: int, cut, prec: int, search: bool, seed: int, max_tail_depth: int) -> ProofResult:
    """The untrusted search: refutations (ball-checked) and the search's own proof attempt."""
    variables = parse_domain(domain)
    names = [v.name for v in variables]
    syms = [v.symbol for v in variables]
    raw_slack, strict, _ = parse_relation(relation, names)
    split = split_term(raw_slack)
    if split is not None:
        return _prove_split(relation, raw_slack, split, strict, variables, domain, t0, deadline,
                                dict(max_boxes=max_boxes, cut=cut, prec=prec, search=search, seed=seed,
                                     max_tail_depth=max_tail_depth))
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


def _prove_split(relation, raw_slack, split, strict, variables, domain, t0, deadline, options):
    """``s = min_i s_i`` (:func:`reduce.split_term`): each ``s_i`` proved; a counterexample of one
    part is re-checked on the original slack."""
    text, parts_slack = split
    op = ">" if strict else ">="
    cert: dict[str, Any] = {"relation": relation, "slack": sp.sstr(raw_slack), "strict": strict,
                            "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()}, "term_split": text}
    parts, statuses = [], []
    for part in parts_slack:
        rel = f"{sp.sstr(part)} {op} 0"
        if part.is_positive or (not strict and part.is_nonnegative):
            parts.append({"relation": rel, "status": "proved", "closers": {"sympy_sign": 1}, "boxes": 0})
            statuses.append("proved")
            continue
        try:
            res = _prove_search(rel, domain, t0=time.perf_counter(), deadline=deadline, **options)
        except ValueError as exc:  # sympy decided the part's relation while parsing it
            parts.append({"relation": rel, "status": "inconclusive", "reason": str(exc)[:200]})
            statuses.append("inconclusive")
            continue
        parts.append({"relation": rel, "status": res.status, **{k: res.certificate.get(k) for k in
                                                               ("boxes", "closers", "tails", "reason")}})
        statuses.append(res.status)
        if res.status == "refuted":
            point = fmpq_point(res.counterexample)
            ok, val = refute.confirm(raw_slack, variables, point)
            if ok:
                cert.update(parts=parts, refutation="a part refuted, re-checked on the original slack",
                            slack_upper_bound=val, seconds=round(time.perf_counter() - t0, 3))
                return ProofResult("refuted", _point_str(point), time.perf_counter() - t0, cert)
    cert["parts"] = parts
    cert["boxes"] = sum(p.get("boxes") or 0 for p in parts)
    cert["closers"] = _sum_closers([{"closers": p.get("closers") or {}} for p in parts])
    cert["tails"] = [t for p in parts for t in (p.get("tails") or []) if isinstance(t, dict)]
    status = ("proved" if all(s == "proved" for s in statuses) else
              "verified" if all(s in ("proved", "verified") for s in statuses) else "inconclusive")
    cert["seconds"] = round(time.perf_counter() - t0, 3)
    return ProofResult(status, None, time.perf_counter() - t0, cert)


def _prove_core(slack, strict, variables, syms, cert, result, deadline, max_boxes, cut, max_tail_depth,
                search, seed):
    if len(variables) > 1:
        red_slack, red_vars, texts, subs = eliminate_free(slack, variables)
        if texts:
            cert["free_elimination"] = texts
            if not strict and identically_zero(red_slack):
                cert["reduced"] = "the reduced slack is identically 0 (sympy), so s >= 0 on the whole domain"
                return result("proved")
            sub: dict[str, Any] = {"domain": {v.name: [str(v.lo), str(v.hi)] for v in red_vars}}
            status, point, _ = _prove_core(red_slack, strict, red_vars, [v.symbol for v in red_vars], sub,
                                           lambda st, pt=None, _s=sub: (st, pt, _s), deadline, max_boxes, cut,
                                           max_tail_depth, False, seed)
            cert["reduced"] = sub
            if status == "refuted":
                full = lift(point, subs)
                ok, val = refute.confirm(slack, variables, full)
                if ok:
                    cert["refutation"] = "reduced problem (free monotone elimination), re-checked in the original domain"
                    cert["slack_upper_bound"] = val
                    return result("refuted", {v.name: full[v.name] for v in variables})
            for key in ("boxes", "closers", "tails"):
                if key in sub:
                    cert[key] = sub[key]
            if status == "proved":
                return result("proved")
            return _undecided(slack, variables, cert, result, search, seed, f"reduced problem {status}",
                              verified=status == "verified")
    elim = eliminate_monotone(slack, variables)
    if elim is not None:
        pieces, text = elim
        cert["monotone_elimination"] = text
        cert["dependent_bounds"] = dependent_constraints(variables)[1]
        sub_certs, statuses, t_boxes = [], [], 0
        for pslack, pvars, ptext, x, best in pieces:
            sub: dict[str, Any] = {"piece": ptext, "domain": {v.name: [str(v.lo), str(v.hi)] for v in pvars}}

            def sub_result(status, point=None, _sub=sub):
                return status, point, _sub

            if not strict and identically_zero(pslack):
                sub["reason"] = "the slack of this piece is identically 0 (sympy)"
                status, point = "proved", None
            else:
                status, point, _ = _prove_core(pslack, strict, pvars, [v.symbol for v in pvars], sub, sub_result,
                                               deadline, max_boxes, cut, max_tail_depth, False, seed)
            t_boxes += sub.get("boxes", 0)
            sub_certs.append(sub)
            statuses.append(status)
            if status == "refuted":
                # a counterexample of the reduced problem, mapped back and re-checked in the original one
                pt = lift(point, [(next(v for v in variables if v.symbol == x), best)])
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
    manifold_pairs = manifolds(slack, syms)
    maps = None
    rep = reparametrise(slack, variables)
    if rep is not None:
        slack, variables, maps_expr, rtext = rep
        syms = [v.symbol for v in variables]
        cert["dependent_bounds"] = [t for t in dependent_constraints(orig_vars)[1]]
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
                out[k] = max(out[k], arb_to_fmpq(iv.hi) + 1)
    return out


def _prove_box(slack, strict, variables, syms, cert, result, deadline, max_boxes, cut, max_tail_depth,
               search, seed, orig_slack, orig_vars, orig_syms, manifold_pairs, maps, maps_expr):
    names = [v.name for v in variables]
    constraints, ctext = dependent_constraints(variables)
    if ctext:
        cert["dependent_bounds"] = ctext
    box, unbounded = bounding_box(variables, cut)
    uvars = {n for n, _ in unbounded}
    if len(uvars) > 1:  # the tails cannot be certified: only the core box, on a short budget
        max_boxes = min(max_boxes, MULTI_UNBOUNDED_CORE_BOXES)
    if uvars:  # one enclosure over the whole (unbounded) domain may already decide
        try:
            whole = compile_expr(slack)(domain_env(variables))
        except ValueError:
            whole = Iv.whole()
        if whole.certainly_gt0() or (not strict and whole.certainly_ge0()):
            cert.update(boxes=1, closers={"whole_domain_enclosure": 1},
                        tails="the enclosure over the whole domain (infinite ends included) is >= 0")
            return result("proved")
    tails_ok, tails_cert = not uvars, []
    if len(uvars) == 1:
        cut, tails_cert, tails_ok = _certify_tails(slack, syms, names, variables, strict, constraints, deadline,
                                                   cut, max_tail_depth)
        box, unbounded = bounding_box(variables, cut)
    cert["core_box"] = box_str(box, names)
    regions_cert, total_boxes, all_closed = [], 0, True
    if manifold_pairs:
        cert["touching_manifolds"] = [f"{orig_syms[i]} = {orig_syms[j]}" for i, j in manifold_pairs]
    for rbox, rexpr, notes in regions(slack, syms, box):
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
            point = r.point if maps_expr is None else back(r.point, maps_expr)
            # certainly negative, in the domain (a box of an irrational bound is rounded outward) and defined there;
            # for a strict relation also an exact zero that is not a removable singularity (sinh(x)/x at 0)
            ok, val = refute.confirm(orig_slack, orig_vars, point)
            if ok or (strict and refute.touches(orig_slack, orig_vars, point)):
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
    if len(uvars) > 1:
        cert["tails"] = f"not attempted: {len(uvars)} unbounded variables ({sorted(uvars)})"
        cert["proved_box"] = cert["core_box"]
        return _undecided(orig_slack, orig_vars, cert, result, search, seed, "tails not attempted", verified=True)
    cert["tails"] = tails_cert
    if tails_ok:
        return result("proved")
    cert["proved_box"] = cert["core_box"]
    return _undecided(orig_slack, orig_vars, cert, result, search, seed, "a tail was not certified", verified=True)


MULTI_UNBOUNDED_CORE_BOXES = 8000  # core budget when two or more variables are unbounded (result "verified" at best)
TAIL_OPS = 200_000  # sums and products (prover.enclose.OPS) one tail may evaluate: the tails the registry proves use
# at most 16 000; a box of a high derivative costs thousands, so a count of boxes alone does not bound the time
CUT_FACTORS = (1, 2, 4)  # the cut X is enlarged (core grows with it) until every tail is certified


def _certify_tails(slack, syms, names, variables, strict, constraints, deadline, cut, max_tail_depth):
    """(cut, tails certificate, all proved) for one unbounded variable: tails tried at growing cuts."""
    tails_cert: list = []
    for factor in CUT_FACTORS:
        X = cut * factor
        box, unbounded = bounding_box(variables, X)
        tails_cert, ok_all = [], True
        for name, side in unbounded:
            vi = names.index(name)
            start = box[vi][1] if side > 0 else -box[vi][0]  # the core's end: X, or beyond it ([100, oo): 100 + X)
            tp = TailProver(slack, syms, vi, side, start, strict, constraints, deadline=deadline, max_boxes=1500,
                            max_depth=max_tail_depth, max_ops=TAIL_OPS)
            try:
                ok = tp.prove(box)
            except (Budget, Unsupported):
                ok = False
            tails_cert.append({"var": name, "side": "right" if side > 0 else "left",
                               "range": f"[{start}, oo)" if side > 0 else f"(-oo, -{start}]",
                               "argument": sorted(tp.arguments), "boxes": tp.boxes, "proved": ok})
            ok_all = ok_all and ok
            if not ok:
                break
        if ok_all:
            return X, tails_cert, True
    return cut, tails_cert, False


def _sum_closers(regions):
    out: dict[str, int] = {}
    for r in regions:
        for k, v in r["closers"].items():
            out[k] = out.get(k, 0) + v
    return out


def _undecided(slack, variables, cert, result, search, seed, reason, verified=False):
    cert["reason"] = reason
    if search:
        n, polish, examples = (20000, 8, 200) if TIMEOUT_CAP is None else (4000, 3, 40)  # quick: reduced
        pt = refute.search(slack, variables, seed=seed + 1, n=n, polish=polish, hypothesis_examples=examples)
        if pt is not None:
            cert["refutation"] = "extended search, confirmed in arb at 200 bits"
            return result("refuted", pt)
        cert["search"] = (f"{n + 3000} seeded samples + Nelder-Mead from {polish} points + {examples} Hypothesis "
                          "examples: no violation")
    return result("verified" if verified else "inconclusive")

"""Exact reductions of a problem before and during branch-and-bound (all sympy/arb, no sampling).

- the domain: dependent-bound constraints, the bounding box (infinite ends cut), reparametrisation of
  dependent bounds (``x = lo + (hi - lo) t``) and the map back;
- the slack: regions where each ``Abs`` of a linear form has one sign, an ``Abs`` term split into two
  relations, touching manifolds ``x_i = x_j``, identically-zero checks;
- variables: monotone elimination of a variable whose bounds others depend on (``eliminate_monotone``)
  and of a variable no other bound mentions (``eliminate_free``), with ``lift`` for counterexamples.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache

import sympy as sp
from flint import arb, ctx, fmpq

from olr_verify.prover.enclose import Iv, Unsupported, compile_expr, to_fmpq

def dependent_constraints(variables):
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


def bounding_box(variables, cut: fmpq):
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
            q = arb_to_fmpq(mid) + side * arb_to_fmpq(arb(rad))
            ends.append(q)
        if ends[0] > ends[1] and sp.oo in (-v.lo, v.hi):  # a finite end beyond the cut: [20, oo) is [20, 20 + cut]
            ends = [ends[1] - cut, ends[1]] if v.lo == -sp.oo else [ends[0], ends[0] + cut]
        box.append((ends[0], ends[1]))
        env[v.name] = Iv(arb(ends[0]), arb(ends[1]))
    return box, unbounded


def arb_to_fmpq(x: arb) -> fmpq:
    m, e = x.mid().man_exp()
    m, e = int(m), int(e)
    return fmpq(m * 2**e) if e >= 0 else fmpq(m, 2**(-e))


def abs_splits(expr, syms):
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


def regions(expr, syms, box):
    """Sub-boxes on which every split ``Abs`` has a constant sign, with the Abs-free slack."""
    splits = [(i, r) for i, r in abs_splits(expr, syms) if box[i][0] < to_fmpq(r) < box[i][1]]
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


def manifolds(expr, syms):
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


def split_term(slack):
    """``(text, [s_1, ..., s_n])`` with ``s >= 0 <=> s_i >= 0 for every i`` (exact), or None.

    A term ``M |u|`` or ``M Max(u_1, ..., u_n)`` with ``M <= 0``, or ``M Min(...)`` with ``M >= 0``
    (sign of M from sympy's assumptions), makes ``s`` the minimum of the ``P + M u_i``. An ``Abs`` of a
    linear form of one variable is left to :func:`regions` (split of the domain instead)."""
    for t in sp.Add.make_args(slack):
        special = [f for f in sp.Mul.make_args(t) if isinstance(f, (sp.Abs, sp.Max, sp.Min))]
        if len(special) != 1:
            continue
        f = special[0]
        M = t / f
        if M.has(sp.Abs, sp.Max, sp.Min):
            continue
        if isinstance(f, sp.Abs):
            u = f.args[0]
            if len(u.free_symbols) == 1 and u.is_polynomial(*u.free_symbols) \
                    and sp.Poly(u, *u.free_symbols).degree() <= 1:
                continue
            alternatives = [u, -u]
        else:
            alternatives = list(f.args)
        if not ((-M).is_nonnegative if isinstance(f, (sp.Abs, sp.Max)) else M.is_nonnegative):
            continue
        P = slack - t
        return f"s = P + M {sp.sstr(f)}, M {'<=' if not isinstance(f, sp.Min) else '>='} 0: s is the minimum of " \
               f"P + M u over u in {[sp.sstr(u) for u in alternatives]}", [P + M * u for u in alternatives]
    return None


def reparametrise(slack, variables):
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


def back(point: dict, maps: dict) -> dict:
    """A point of reparametrised coordinates mapped to the original variables: exact where the map gives a
    rational, else its 60-digit value as a rational (a bound such as sqrt(40) e^{-9D/40} makes it irrational);
    the caller confirms the point in ball arithmetic and checks it lies in the domain."""
    sub = {sp.Symbol(k, real=True): sp.Rational(int(v.p), int(v.q)) if hasattr(v, "p") else sp.Rational(str(v))
           for k, v in point.items()}
    out = {}
    for name, e in maps.items():
        value = e.subs(sub)
        r = value if value.is_Rational else sp.Rational(sp.Float(value.evalf(60), 60))
        out[name] = fmpq(int(r.p), int(r.q))
    return out


def eliminate_monotone(slack, variables):
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
        try:
            d = compile_expr(sp.diff(slack, x))(domain_env(variables))
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


def domain_env(variables) -> dict[str, Iv]:
    """Intervals containing every variable's range on the whole domain: infinite ends kept, and a bound that depends on
    earlier variables enclosed over their whole ranges (y in [0, x] with x in [0, oo) is [0, oo), not [0, 10^6])."""
    env: dict[str, Iv] = {}
    for v in variables:
        ends = []
        for bound, side in ((v.lo, -1), (v.hi, 1)):
            if bound in (sp.oo, -sp.oo):
                ends.append(side * math.inf)
                continue
            try:
                iv = compile_expr(bound)(env)
            except (Unsupported, ValueError, ZeroDivisionError):  # no enclosure: the whole line on that side
                iv = Iv(-math.inf, math.inf)
            ends.append(iv.lo if side < 0 else iv.hi)
        env[v.name] = Iv(*ends)
    return env


def eliminate_free(slack, variables):
    """Exact reduction, repeated: a variable x that no other bound mentions, on which s is monotone.

    When ``d s/d x >= 0`` on the whole domain (enclosure) and x's lower bound ``lo(y)`` is finite,
    ``s(y, x) >= s(y, lo(y))`` for every admissible x (the slice of x is the segment
    ``[lo(y), hi(y)]`` and nothing else depends on x), so proving ``s(y, lo(y)) >= 0`` on the other
    variables' domain proves the claim; ``<= 0`` uses ``hi(y)``.
    Returns (slack, variables, texts, [(eliminated variable, its end expression)]).
    """
    texts, subs = [], []
    changed = True
    while changed and len(variables) > 1:
        changed = False
        for k in range(len(variables) - 1, -1, -1):
            xv = variables[k]
            if any(xv.symbol in (v.lo.free_symbols | v.hi.free_symbols) for v in variables):
                continue
            end = monotone_end(slack, xv, variables)
            if end is None or end in (sp.oo, -sp.oo):
                continue
            slack = slack.subs(xv.symbol, end)
            subs.append((xv, end))
            variables = [v for v in variables if v is not xv]
            texts.append(f"d s/d {xv.name} {'>=' if end is xv.lo else '<='} 0 on the whole domain (enclosure), "
                         f"{xv.name} is in no other bound: {xv.name} = {end}")
            changed = True
            break
    return slack, variables, texts, subs


SIMPLIFY_OPS = 60  # the rational-function form is tried only on derivatives this small


_MONOTONE_ENDS: dict = {}  # monotone_end is a pure function of its inputs (and arb's precision): asked again with the
# same ones (eliminate_free on the reduced problem re-tries the variables it just tried), it answers from here


def monotone_end(slack, xv, variables):
    """The end of x's range where s is smallest, when the sign of d s/d x is certain on the whole domain:
    by enclosure of the derivative, else (small derivatives) of it as one factored fraction in the
    exponentials (``exp(b - a) = exp(b) exp(-a)``, logistic rewrites undone)."""
    key = (slack, xv.symbol, xv.lo, xv.hi, tuple((v.symbol, v.lo, v.hi) for v in variables), ctx.prec)
    if key not in _MONOTONE_ENDS:
        if len(_MONOTONE_ENDS) > 1024:
            _MONOTONE_ENDS.clear()
        _MONOTONE_ENDS[key] = _monotone_side(slack, xv, variables)
    side = _MONOTONE_ENDS[key]
    return None if side is None else xv.lo if side < 0 else xv.hi


def _monotone_side(slack, xv, variables):
    """-1: the lower end of x (d s/d x >= 0), +1: the upper end, None: no certain sign (see monotone_end)."""
    env = domain_env(variables)
    for form in _derivative_forms(slack, xv.symbol):
        try:
            d = compile_expr(form)(env)
        except (Unsupported, ValueError):
            continue
        if d.certainly_ge0():
            return -1
        if d.certainly_le0():
            return 1
    return None


@lru_cache(maxsize=256)
def _derivative_forms(slack, symbol) -> tuple:
    """d s/d x as written and, when small, as one factored fraction in the exponentials: the forms depend on
    the expression only, so each box of a search reuses them (sympy's factor is the cost)."""
    deriv = sp.diff(slack, symbol)
    if sp.count_ops(deriv) > SIMPLIFY_OPS:
        return (deriv,)
    try:
        return deriv, sp.factor(sp.cancel(sp.together(
            sp.expand(deriv.rewrite(sp.exp), power_exp=True, mul=False, multinomial=False))))
    except ValueError:
        return (deriv,)


_SCREEN = (fmpq(3, 7), fmpq(-5, 11), fmpq(13, 17))


def identically_zero(expr) -> bool:
    """sympy reduces ``expr`` (Sigmoid/Softplus/Exprel written with exp) to 0 exactly.

    A cheap screen first: an enclosure at a rational point that is certainly nonzero settles it."""
    names = sorted(s.name for s in expr.free_symbols)
    try:
        fn = compile_expr(expr)
        for shift in range(2):
            env = {n: Iv.point(arb(_SCREEN[(k + shift) % 3] * (k + 1))) for k, n in enumerate(names)}
            iv = fn(env)
            if iv.certainly_gt0() or iv.certainly_lt0():
                return False
    except Unsupported:
        pass
    if cancels_to_zero(expr):
        return True
    try:
        return sp.simplify(expr.rewrite(sp.exp)) == 0
    except Exception:
        return False


def cancels_to_zero(expr) -> bool:
    """``expr`` with Sigmoid/Softplus/Exprel written with exp is 0 as a rational function of its
    exponentials (sympy ``cancel``; exact, cheaper than ``simplify``)."""
    e = expr.rewrite(sp.exp)
    if e == 0:
        return True
    try:
        return sp.cancel(sp.together(sp.expand(e))) == 0
    except Exception:
        return False


def fmpq_point(point: dict) -> dict:
    """A point with exact rational coordinates (``fmpq``) from fmpq, Fraction or ``"p/q"`` strings."""
    out = {}
    for k, v in point.items():
        f = v if isinstance(v, fmpq) else Fraction(str(v))
        out[k] = f if isinstance(f, fmpq) else fmpq(f.numerator, f.denominator)
    return out


def lift(point: dict, subs) -> dict:
    """A point of the reduced problem completed with the eliminated variables (exact when the end is
    rational there, else a 200-bit rational just inside the end); the caller re-checks it."""
    pt = fmpq_point(point)
    for xv, end in reversed(subs):
        val = end.subs({sp.Symbol(k, real=True): sp.Rational(int(v.p), int(v.q)) for k, v in pt.items()})
        if val.is_Rational:
            pt[xv.name] = fmpq(int(val.p), int(val.q))
            continue
        env = {k: Iv.point(arb(v)) for k, v in pt.items()}
        old = ctx.prec
        ctx.prec = 200
        try:
            iv = compile_expr(end)(env)
            q = arb_to_fmpq(iv.hi if end is xv.lo else iv.lo) + (1 if end is xv.lo else -1) * fmpq(1, 2**150)
        finally:
            ctx.prec = old
        pt[xv.name] = q
    return pt

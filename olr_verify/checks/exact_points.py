"""Where the scalar deciders evaluate a statement, exactly: the reader of their texts, exact evaluation at a point,
membership of a point in a domain (dependent bounds), the points every relation is also checked at (0, the breaks
and zeros of Abs, sign, Max, Min, Piecewise and floor, 10^-k inside finite ends) and the check that written operands
have a real value. Used by :mod:`olr_verify.checks.scalar_common` (the deciders) and
:mod:`olr_verify.checks.scalar_replay` (their replayers)."""
from __future__ import annotations

from fractions import Fraction


def _sp():
    import sympy

    return sympy


def parse(text: str):
    """A sympy expression or relation (kept unevaluated) from a string, by the safe reader
    :func:`olr_verify.expr.parse_any`: every name is a plain symbol (``E``, ``pi``, ``oo`` are the
    constants), decimals are exact; raises :class:`olr_verify.expr.ExprError` on anything else."""
    from olr_verify.expr import parse_any

    return parse_any(str(text), real=False)


def _exact(value: str):
    """An exact number from an artefact's point (``"-3/5"``, ``"0.25"``, ``"1e-3"``, ``"sqrt(2)"``)."""
    from olr_verify.expr import parse_expr

    return parse_expr(str(value), names={})


def slack_of(relation):
    """Slack s with ``relation`` true iff s >= 0 (or s > 0 for strict relations)."""
    sp = _sp()
    if isinstance(relation, (sp.LessThan, sp.StrictLessThan)):
        return relation.rhs - relation.lhs
    if isinstance(relation, (sp.GreaterThan, sp.StrictGreaterThan)):
        return relation.lhs - relation.rhs
    raise ValueError(f"relation must use <=, <, >= or >: {relation}")


class PrecisionLost(ArithmeticError):
    """sympy returned fewer correct digits than asked (cancellation beyond its working precision)."""


def eval_exact(expr, point: dict[str, str], digits: int = 60):
    """``expr`` at the exact point, evaluated by sympy/mpmath to ``digits`` significant digits; PrecisionLost if
    sympy could not reach them (exp(x + 1e-340) - exp(x) came back as a 1-bit -2^-126)."""
    sp = _sp()
    subs = {sp.Symbol(k): _exact(v) for k, v in point.items()}
    # symbols with assumptions (positive=True, real=True) are matched by name too
    subs.update({s: _exact(point[s.name]) for s in expr.free_symbols if s.name in point})
    value = sp.N(expr.subs(subs), digits)
    if isinstance(value, sp.Float) and value != 0 and value._prec < 3 * digits:
        raise PrecisionLost(f"{digits} digits asked, {value._prec} bits obtained")
    return value


def _to_rational_str(x: float) -> str:
    return str(Fraction(x).limit_denominator(10**12))


def in_domain(point: dict[str, str], domain: dict[str, tuple[str, str]], strict: bool = False) -> bool:
    """Exact check that ``point`` lies in the closed (nested) domain; ``strict``: and on none of its ends (an end may
    be a printed open end: x > 0 registered as [0, oo))."""
    sp = _sp()
    subs = {sp.Symbol(k): _exact(v) for k, v in point.items()}
    for name, (lo, hi) in domain.items():
        x = subs[sp.Symbol(name)]
        for end, sign in ((lo, 1), (hi, -1)):
            if end in ("-oo", "oo"):
                continue
            gap = sp.N(sign * (x - parse(end).subs(subs)), 30)
            if bool(gap < 0) or (strict and not bool(gap > 0)):
                return False
    return True


OPERAND_POINTS = 8  # seeded interior points at which every written operand must have a real value


def undefined_operand(texts, domain: dict[str, tuple[str, str]], seed: int) -> dict[str, str] | None:
    """A seeded point strictly inside ``domain`` where an operand written in ``texts``
    (:func:`olr_verify.expr.operands`) has no real value, as ``{"operand": ..., "point": ...}``, or None. The reader
    cancels ``sqrt(x)*sqrt(x)`` to ``x`` before the prover, sympy or the search sees it; its operand ``sqrt(x)`` is
    evaluated here, in ball arithmetic first and exactly where a ball says undefined. Random points find an operand
    undefined on a part of the domain with room in it (x < 0 for sqrt(x)), as the sampling of an identity does, not
    a removable singularity at isolated points (``(exp(a - b) - 1)/(a - b)`` at a = b, the continuous extension
    being the printed reading): there the kernel refuses ``proved`` (operands defined on the whole domain) and the
    claim is at most ``verified``."""
    import numpy as np
    from flint import fmpq

    from olr_verify.expr import ExprError, operands, parse_expr
    from olr_verify.kernel.intervals import X, compile_expr

    names = list(domain)
    parts, seen = [], set()
    for text in texts:
        for part in dict.fromkeys(operands(str(text))):
            try:
                expr = parse_expr(part, names, real=False)
            except (ExprError, ValueError):  # the relation itself, or a name outside the domain
                continue
            if expr in seen or not _may_be_undefined(expr):
                continue
            seen.add(expr)
            try:
                parts.append((part, expr, compile_expr(expr)))
            except Exception:  # noqa: BLE001 - a function the interval code does not know: not tested here
                parts.append((part, expr, None))
    if not parts:
        return None
    rng = np.random.default_rng(seed)
    for _ in range(OPERAND_POINTS):
        try:
            point = _sample_point(domain, rng)
        except ValueError:  # a dependent range empty at the earlier draws
            continue
        if not in_domain(point, domain, strict=True):
            continue
        values = {k: _exact(v) for k, v in point.items()}
        env = {k: X.of(fmpq(int(q.p), int(q.q))) for k, q in values.items()}
        for text, expr, enclose in parts:
            if not _real_at(expr, enclose, values, env):
                return {"operand": text, "point": point}
    return None


def _may_be_undefined(expr) -> bool:
    """Whether ``expr``'s own top operation may have no real value (a division, a fractional power, a log, an
    inverse trigonometric or hyperbolic function, tan): the other operands are defined where their parts are,
    which are operands too."""
    sp = _sp()
    if expr.is_Pow:
        return not (expr.exp.is_Integer and expr.exp >= 0)
    return isinstance(expr, (sp.log, sp.asin, sp.acos, sp.atanh, sp.acosh, sp.tan, sp.acot, sp.cot))


MAX_SPECIAL = 48  # exact special points tried by an identity's sampling and after a relation's float search
NEAR_END = (3, 6, 10, 15, 20, 30, 45, 60)  # k of the points 10^-k inside a finite end: atanh(x) <= 40 fails there


def special_points(exprs, domain: dict[str, tuple[str, str]], seed: int, near_ends: bool = True
                   ) -> list[dict[str, str]]:
    """Exact points inside ``domain`` that a random draw never hits: one variable at a time at 0, at the breaks
    and zeros of ``exprs`` in it (:func:`_breaks`) and at 10^-k inside each finite end (``NEAR_END``: floats cannot
    come closer than about 10^-16), the other variables at one seeded point. A variable whose range depends on
    another one is left at the seeded point."""
    import numpy as np

    sp = _sp()
    try:
        base = _sample_point(domain, np.random.default_rng(seed))
    except ValueError:  # a dependent range empty at the draws
        return []
    out: list[dict[str, str]] = []
    for name, (lo, hi) in domain.items():
        ends = [None if end in ("-oo", "oo") else parse(end) for end in (lo, hi)]
        if any(e is not None and e.free_symbols for e in ends):
            continue
        values = {sp.Integer(0)}.union(*(_breaks(e, sp.Symbol(name)) for e in exprs))
        near = [end + sign * sp.Rational(1, 10**k) for k in NEAR_END
                for end, sign in zip(ends, (1, -1)) if near_ends and end is not None and end.is_Rational]
        for v in sorted(values, key=lambda v: (abs(float(v)), float(v))) + near:
            if (ends[0] is None or v > ends[0]) and (ends[1] is None or v < ends[1]):
                point = {**base, name: sp.sstr(v)}
                if in_domain(point, domain):
                    out.append(point)
    return out[:MAX_SPECIAL]


def _breaks(expr, sym) -> set:
    """Real numbers where ``expr`` may jump, kink or vanish as a function of ``sym`` alone: the zeros of the
    arguments of Abs, sign and Heaviside, of the differences of the arguments of Max and Min, of the sides of
    Piecewise conditions, of floor/ceiling arguments minus an integer in -10..10, and of ``expr`` itself (a strict
    relation's touching point), where these depend on ``sym`` only and are polynomials whose factors of degree up to
    :data:`MAX_ROOT_DEGREE` (or with two terms) give them exactly, by radicals."""
    import itertools

    sp = _sp()
    args = [expr]
    for node in sp.preorder_traversal(expr):
        if isinstance(node, (sp.Abs, sp.sign, sp.Heaviside)):
            args.append(node.args[0])
        elif isinstance(node, (sp.Max, sp.Min)):
            args += [a - b for a, b in itertools.combinations(node.args, 2)]
        elif isinstance(node, sp.Piecewise):
            args += [c.lhs - c.rhs for _, c in node.args if isinstance(c, sp.core.relational.Relational)]
        elif isinstance(node, (sp.floor, sp.ceiling)):
            args += [node.args[0] - k for k in range(-10, 11)]
    found = set()
    for arg in args:
        if arg.free_symbols != {sym}:
            continue
        try:
            factors = sp.factor_list(sp.Poly(arg, sym))[1]
        except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed, ValueError, TypeError):
            continue
        for factor, _ in factors:
            small = factor.degree() <= MAX_ROOT_DEGREE or len(factor.terms()) == 2
            if small and (factor.domain.is_QQ or factor.domain.is_ZZ):
                found.update(r for r in sp.roots(factor.as_expr(), sym) if _readable_real(r))
    return found


MAX_ROOT_DEGREE = 4  # exact zeros by radicals (x^3 - 2 at 2^(1/3)); x^n - c of any degree


def _readable_real(root) -> bool:
    """A real root written without I or RootOf: a point the safe reader, the deciders and the replay all read."""
    sp = _sp()
    return root.is_real is True and not root.has(sp.I, sp.CRootOf) and len(sp.sstr(root)) <= 200


def _real_at(expr, enclose, values: dict, env: dict) -> bool:
    """``expr`` has a real value at the point (``values``: name -> exact rational; ``env``: the same as balls): its
    ball (``enclose``, compiled by the kernel's interval code) leaves no doubt, else exact evaluation decides."""
    from olr_verify.kernel.intervals import Undefined

    sp = _sp()
    if enclose is None:
        return True  # a function the interval code does not know: not a verdict on the operand
    try:
        enclose(env)
        return True
    except (Undefined, ZeroDivisionError, ArithmeticError):
        pass
    except Exception:  # noqa: BLE001 - the interval code fails on this form: not a verdict on the operand
        return True
    value = expr.xreplace({sp.Symbol(k): q for k, q in values.items()})
    return not value.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I) and value.is_real is not False


def _sample_point(domain: dict[str, tuple[str, str]], rng, end: str | None = None) -> dict[str, str]:
    """An exact rational point of the (possibly nested) domain, drawn with ``rng``; ``end`` = "lo" or "hi" puts
    every variable with a finite end at that end (exactly), the others drawn."""
    sp = _sp()
    point: dict[str, str] = {}
    for name, (lo, hi) in domain.items():
        subs = {sp.Symbol(k): sp.Rational(v) for k, v in point.items()}
        at = {"lo": lo, "hi": hi}.get(end or "")
        if at is not None and at not in ("-oo", "oo"):
            value = sp.nsimplify(parse(at).subs(subs))
            if value.is_Rational:
                point[name] = str(value)
                continue
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

"""Seed 000 (AIOLI): the identities of §3.2, App. B (one round of the surrogate analysis), the
proof of Lemma 3 and Lemma 10.

Scalar identities of the logistic loss are decided with m = thetahat^T x and y in {-1, +1} (both
cases); a gradient is a scalar multiple of x, so those identities are dimension-free.

The App. B identities (eqs. (15)-(19), Theorem 7 steps 7 and 9) are linear algebra: they are
checked by exact sympy algebra with GENERIC SYMBOLIC entries in dimension d = 2 (A_{t-1}
symmetric with symbolic entries, b_{t-1}, g_t, g_t^{-y_t}, thetahat_t, eta_t, c_{t-1}, l_t symbolic).
Passing there is reported as ``verified`` ("symbolic for d = 2 only"), not ``proved``.
"""
from __future__ import annotations

import functools

from olr_verify.checks.scalar_common import combine, inequality
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check

D2_NOTE = "exact sympy algebra with generic symbolic entries, dimension d = 2 only"


def _scalar_loss():
    import sympy as sp

    m, C = sp.symbols("m C")  # m = thetahat^T x, C = BR
    return sp, m, C


def _each_label(fn, ctx):
    """Run ``fn(y)`` for y = +1 and y = -1 and combine."""
    return combine([(f"y = {y:+d}", fn(y)) for y in (1, -1)])


def _grad_coeff(y, m):
    """Coefficient of x in grad_theta log(1+exp(-y theta^T x)) at thetahat (chain rule, m = thetahat^T x)."""
    import sympy as sp

    s = sp.Symbol("s")
    return sp.diff(sp.log(1 + sp.exp(-y * s)), s).subs(s, m)


# --------------------------------------------------------------------------- App. B, one round
@functools.cache
def _round():
    """Symbolic d = 2 round: A_{t-1}, b_{t-1}, c_{t-1}, g_t, g_t^{-y_t}, thetahat_t, eta_t, l_t."""
    import sympy as sp

    p, q, r, eta, c, ell = sp.symbols("p q r eta c ell")
    Ap = sp.Matrix([[p, q], [q, r]])
    bp = sp.Matrix(sp.symbols("b1 b2"))
    g = sp.Matrix(sp.symbols("g1 g2"))
    gm = sp.Matrix(sp.symbols("h1 h2"))  # g_t^{-y_t}, an arbitrary vector here
    th = sp.Matrix(sp.symbols("t1 t2"))
    At = Ap + eta / 2 * g * g.T
    dot = lambda u, v: (u.T * v)[0]  # noqa: E731
    bstar = (-g + eta * dot(th, g) * g) / 2
    cstar = ell - dot(g, th) + eta / 2 * dot(th, g) ** 2
    bt = bp + bstar
    theta_t = Ap.inv() * bp
    theta_next = At.inv() * bt
    L_prev = lambda w: c - 2 * dot(bp, w) + dot(w, Ap * w)  # noqa: E731
    ell_hat = lambda w: ell + dot(g, w - th) + eta / 2 * dot(g, w - th) ** 2  # noqa: E731
    L_t = lambda w: L_prev(w) + ell_hat(w)  # noqa: E731
    grad_prev = -2 * bp + 2 * Ap * th
    delta = grad_prev + g + gm
    return dict(sp=sp, Ap=Ap, At=At, bp=bp, g=g, gm=gm, th=th, eta=eta, dot=dot, cstar=cstar, theta_t=theta_t,
                theta_next=theta_next, L_prev=L_prev, ell_hat=ell_hat, L_t=L_t, grad_prev=grad_prev, delta=delta)


QUICK = {"on": False}


def _vec_zero(v) -> bool:
    """Exact check that every entry of ``v`` is 0 (symbolically; at 3 exact rational points in quick mode)."""
    import random

    import sympy as sp

    if QUICK["on"]:
        rng = random.Random(7)
        syms = sorted(set().union(*(sp.sympify(e).free_symbols for e in v)), key=str)
        for _ in range(3):
            pt = {q: sp.Rational(rng.randint(-40, 40), rng.randint(1, 9)) for q in syms}
            for q in syms:
                if str(q) in ("p", "r"):
                    pt[q] = sp.Rational(rng.randint(20, 60), rng.randint(1, 3))  # A_{t-1} positive definite
            if any(sp.sympify(e).xreplace(pt) != 0 for e in v):
                return False
        return True
    out = []
    for e in v:
        num, _ = sp.fraction(sp.together(e))
        out.append(sp.expand(num) == 0)
    return all(out)


def _d2(checks: list[tuple[str, bool]], what: str) -> Outcome:
    ev = {"links": {k: ok for k, ok in checks}, "reading": D2_NOTE}
    if QUICK["on"]:
        ev["reading"] = "quick mode: exact rational arithmetic at 3 seeded random instances, d = 2 only"
    if all(ok for _, ok in checks):
        return Outcome("verified", "exact sympy algebra, symbolic entries, d = 2", ev)
    return Outcome("inconclusive", "a link did not reduce to 0 in d = 2", ev)


@check("000:equation-15")
def equation_15(ctx: Context) -> Outcome:
    QUICK["on"] = ctx.quick
    R = _round()
    dot, th, g, eta, At, Ap = R["dot"], R["th"], R["g"], R["eta"], R["At"], R["Ap"]
    quad = dot(R["theta_next"], At * R["theta_next"]) - dot(R["theta_t"], Ap * R["theta_t"])
    lhs = R["ell_hat"](th) + R["L_prev"](R["theta_t"]) - R["L_t"](R["theta_next"])
    r1 = R["ell_hat"](th) - R["cstar"] + quad
    r2 = dot(g, th) - eta / 2 * dot(th, g) ** 2 + quad
    r3 = dot(g, th) - dot(th, (At - Ap) * th) + quad
    return _d2([("line 1", _vec_zero([lhs - r1])), ("line 2", _vec_zero([r1 - r2])), ("line 3", _vec_zero([r2 - r3]))], "(15)")


def _newton_forms(R: dict, A, played: tuple[str, str], grad, shift, eq: str) -> Outcome:
    """(16), (17): the point ``played`` = (printed name, key of R) is the Newton step th - A^{-1} grad / 2 of the surrogate at th, and that
    step equals the printed last form th + A^{-1} shift / 2 - A^{-1} (grad_{t-1} + g_t + g_t^-) / 2."""
    th = R["th"]
    newton = th - A.inv() * grad / 2
    last = th + A.inv() * shift / 2 - A.inv() * (R["grad_prev"] + R["g"] + R["gm"]) / 2
    return _d2([(f"{played[0]} == Newton step", _vec_zero(R[played[1]] - newton)),
                ("Newton step == last form", _vec_zero(newton - last))], eq)


@check("000:equation-16")
def equation_16(ctx: Context) -> Outcome:
    QUICK["on"] = ctx.quick
    R = _round()
    # grad of hat L_t at thetahat: grad hat l_t(thetahat) = g_t
    return _newton_forms(R, R["At"], ("theta_{t+1}", "theta_next"), R["grad_prev"] + R["g"], R["gm"], "(16)")


@check("000:equation-17")
def equation_17(ctx: Context) -> Outcome:
    QUICK["on"] = ctx.quick
    R = _round()
    return _newton_forms(R, R["Ap"], ("theta_t", "theta_t"), R["grad_prev"], R["g"] + R["gm"], "(17)")


@check("000:theorem-7/step-7")
def theorem_7_step_7(ctx: Context) -> Outcome:
    QUICK["on"] = ctx.quick
    R = _round()
    At, Ap, th = R["At"], R["Ap"], R["th"]
    rhs = 2 * (At * th - At * R["theta_next"] - Ap * th + Ap * R["theta_t"])
    return _d2([("g_t == 2[...]", _vec_zero(R["g"] - rhs))], "step 7")


@check("000:equation-18")
def equation_18(ctx: Context) -> Outcome:
    QUICK["on"] = ctx.quick
    R = _round()
    dot, At, Ap, th, tn, tt = R["dot"], R["At"], R["Ap"], R["th"], R["theta_next"], R["theta_t"]
    lhs = R["ell_hat"](th) + R["L_prev"](tt) - R["L_t"](tn)
    l1 = (2 * dot(th, At * th) - 2 * dot(tn, At * th) - 2 * dot(th, Ap * th) + 2 * dot(tt, Ap * th)
          - dot(th, At * th) + dot(th, Ap * th) + dot(tn, At * tn) - dot(tt, Ap * tt))
    l2 = dot(tn, At * tn) - 2 * dot(tn, At * th) + dot(th, At * th) - dot(tt, Ap * tt) + 2 * dot(tt, Ap * th) - dot(th, Ap * th)
    l3 = dot(tn - th, At * (tn - th)) - dot(tt - th, Ap * (tt - th))
    return _d2([("instant regret == line 1", _vec_zero([lhs - l1])), ("line 1 == line 2", _vec_zero([l1 - l2])),
                ("line 2 == (18)", _vec_zero([l2 - l3]))], "(18)")


@check("000:theorem-7/step-9")
def theorem_7_step_9(ctx: Context) -> Outcome:
    QUICK["on"] = ctx.quick
    R = _round()
    At, Ap, th, g, gm, delta = R["At"], R["Ap"], R["th"], R["g"], R["gm"], R["delta"]
    return _d2([("2A_t(theta_{t+1}-thetahat) == g^{-y} - delta", _vec_zero(2 * At * (R["theta_next"] - th) - (gm - delta))),
                ("2A_{t-1}(theta_t-thetahat) == g^{-y} + g - delta", _vec_zero(2 * Ap * (R["theta_t"] - th) - (gm + g - delta)))],
               "step 9")


@check("000:equation-19")
def equation_19(ctx: Context) -> Outcome:
    QUICK["on"] = ctx.quick
    R = _round()
    dot, At, Ap, th, g, gm, d = R["dot"], R["At"], R["Ap"], R["th"], R["g"], R["gm"], R["delta"]
    Ati, Api = At.inv(), Ap.inv()
    lhs = dot(R["theta_next"] - th, At * (R["theta_next"] - th)) - dot(R["theta_t"] - th, Ap * (R["theta_t"] - th))
    Z = dot(gm, Ati * gm) / 4 - dot(g + gm, Api * (g + gm)) / 4
    Om = (-2 * dot(gm, Ati * d) + dot(d, Ati * d) + 2 * dot(g + gm, Api * d) - dot(d, Api * d)) / 4
    return _d2([("right side of (18) == Z_t + Omega_t", _vec_zero([lhs - Z - Om]))], "(19)")


def symmetric_matrix(name: str, d: int):
    """The d x d symmetric matrix of free symbols name1, name2, ... (row by row on and above the diagonal)."""
    import sympy as sp

    entries = iter(sp.symbols(f"{name}1:{d * (d + 1) // 2 + 1}"))
    M = sp.zeros(d, d)
    for i in range(d):
        for j in range(i, d):
            M[i, j] = M[j, i] = next(entries)
    return M


@check("000:lemma-10/step-1-2")
def lemma_10_step_1_2(ctx: Context) -> Outcome:
    import sympy as sp

    parts = []
    for d in (2, 3):
        A = symmetric_matrix("a", d)
        u = sp.Matrix(sp.symbols(f"u1:{d + 1}"))  # u = sqrt(eta_t/2) g_t
        At = A + u * u.T
        lhs = (u.T * At.adjugate() * u)[0] / At.det()
        ok = sp.cancel(lhs - (1 - A.det() / At.det())) == 0
        parts.append((f"(eta/2) g^T A_t^-1 g == 1 - det(A_{{t-1}})/det(A_t), d = {d}",
                      Outcome("verified" if ok else "inconclusive", "exact sympy algebra, symbolic entries",
                              {"dimension": d})))
    parts.append(("1 - u <= log(1/u), u = det ratio in (0, 1]", inequality("1-u <= log(1/u)", {"u": ("0", "1")}, ctx)))
    return combine(parts, extra={"reading": "determinant identity checked with symbolic entries for d = 2, 3 only"})


@check("000:lemma-10/step-3")
def lemma_10_step_3(ctx: Context) -> Outcome:
    import sympy as sp

    lam = sp.Symbol("lam", positive=True)
    parts = []
    for d in (2, 3):
        Cn = symmetric_matrix("c", d)
        x = sp.Symbol("x")
        charpoly = Cn.charpoly(x).as_expr()  # prod (x - lam_k)
        lhs = (sp.eye(d) + Cn / lam).det()
        rhs = (-1) ** d * charpoly.subs(x, -lam) / lam**d  # prod (1 + lam_k/lam)
        ok = sp.expand(lhs - rhs) == 0
        parts.append((f"det(I + C/lam) == prod_k (1 + lam_k/lam), d = {d}",
                      Outcome("verified" if ok else "inconclusive", "exact sympy algebra via the characteristic polynomial",
                              {"dimension": d})))
    return combine(parts, extra={"reading": "telescoping sum of log det ratios with A_0 = lam I is exact; the "
                                            "eigenvalue form checked with symbolic entries for d = 2, 3 only"})

"""Seed 002 (Kotłowski): App. D (claims 17, 18), Lemma 4.3 (App. E, eqs. (10), (11)) as exact identities, exact
instances or scalar relations. Theorem 4.5's Gamma bound (as printed and corrected) and Lemma A.1's chord-tangent step
(App. F) are declared in ``paper.toml``.
"""

from __future__ import annotations

from olr_verify.checks.scalar_common import combine, identity, inequality
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check, decide
from olr_verify.papers.s002_scale_invariant.sections1_to_4 import _exact_matrix_outcome, _rational_instances, _sp


def _on_instances(ctx: Context, offset: int, quick: int, full: int, holds) -> tuple[bool, int]:
    """(whether ``holds(S, xs, rng)`` on every exact instance (S, xs), their number): ``quick`` or ``full`` instances
    by the mode, and ``rng`` the generator of the random integers the check adds, all seeded by ctx.seed + offset."""
    import numpy as np

    n = quick if ctx.quick else full
    rng = np.random.default_rng(ctx.seed + offset)
    return all([holds(S, xs, rng) for S, xs in _rational_instances(ctx.seed + offset, n)]), n


# --------------------------------------------------------------------------- App. D
@check("002:claim-17/key-identity")
def claim_17_key(ctx: Context) -> Outcome:
    sp = _sp()

    def holds(S, xs, rng) -> bool:
        while True:
            A = sp.Matrix(S.rows, S.rows, lambda i, j: int(rng.integers(-3, 4)))
            if A.det() != 0:
                break
        M, Sp = (A * S * A.T).pinv(), S.pinv()
        return all(sp.simplify((xi.T * A.T * M * A * xj)[0] - (xi.T * Sp * xj)[0]) == 0 for xi in xs for xj in xs)

    ok, n = _on_instances(ctx, 1, 5, 16, holds)
    return _exact_matrix_outcome("x_i^T A^T (A S A^T)^+ A x_j == x_i^T S^+ x_j", ok, n,
                                 "for x_i, x_j among the vectors building S (so in range(S)), invertible integer A")


@check("002:claim-18")
def claim_18(ctx: Context) -> Outcome:
    sp = _sp()
    S = sp.Matrix([[1, 0], [0, 0]])
    A = sp.Matrix([[1, 1], [0, 1]])
    lhs = (A * S * A.T).pinv()
    rhs = A.inv().T * S.pinv() * A.inv()
    fails = lhs != rhs
    m = sp.Matrix(2, 2, sp.symbols("m11 m12 m21 m22"))
    B = sp.Matrix(2, 2, sp.symbols("a11 a12 a21 a22"))
    inv_ok = sp.simplify((B * m * B.T).inv() - B.inv().T * m.inv() * B.inv()) == sp.zeros(2, 2)
    ev = {"witness": {"S": "diag(1, 0)", "A": "[[1,1],[0,1]]", "(A S A^T)^+": str(lhs.tolist()),
                      "A^-T S^+ A^-1": str(rhs.tolist())},
          "inverse_identity_2x2_symbolic": bool(inv_ok),
          "note": "(B M B^T)^-1 = B^-T M^-1 B^-1 for invertible B, M (certified symbolically for 2x2; general size is "
                  "(XYZ)^-1 = Z^-1 Y^-1 X^-1); the exact witness shows the pseudo-inverse version fails"}
    return Outcome("proved" if fails and inv_ok else "inconclusive",
                   "exact rational witness (pseudo-inverse) + symbolic identity (inverse)", ev)


# --------------------------------------------------------------------------- Lemma 4.3 (App. E)
@check("002:lemma-4.3/projector")
def lemma_4_3_projector(ctx: Context) -> Outcome:
    sp = _sp()

    def holds(S, xs, rng) -> bool:
        Pm = sp.eye(S.rows) - S * S.pinv()
        x = sp.Matrix([int(v) for v in rng.integers(-3, 4, size=S.rows)])
        h = -sum((sp.Rational(int(rng.integers(-4, 5)), 4) * v for v in xs), sp.zeros(S.rows, 1))
        xp = Pm * x
        return (h.T * xp)[0] == 0 and (xp.T * x)[0] == (xp.T * xp)[0] and Pm * Pm == Pm

    ok, n = _on_instances(ctx, 2, 6, 20, holds)
    return _exact_matrix_outcome("projector facts", ok, n, "x_perp = (I - S S^+) x: h^T x_perp = 0 (h in range(S)), "
                                                          "x_perp^T x = ||x_perp||^2, (I - S S^+)^2 = I - S S^+")


def _case_instances(ctx: Context, want_perp_zero: bool):
    """(S, S^+, h, x, x_perp) with x in range(S) (case 1) or x with a component outside range(S) (case 2)."""
    sp = _sp()
    import numpy as np

    rng = np.random.default_rng(ctx.seed + (3 if want_perp_zero else 4))
    for k in range(6 if ctx.quick else 16):
        d = 2 + k % 2
        basis = rng.integers(-3, 4, size=(1 + k % (d - 1 if not want_perp_zero else d), d))
        if not basis.any():
            continue
        xs = [sp.Matrix((rng.integers(-2, 3, size=basis.shape[0]) @ basis).tolist()) for _ in range(3)]
        xs = [v for v in xs if v != sp.zeros(d, 1)] or [sp.Matrix(basis[0].tolist())]
        S = sum((v * v.T for v in xs), sp.zeros(d, d))
        Sp = S.pinv()
        h = -sum((sp.Rational(int(rng.integers(-4, 5)), 4) * v for v in xs), sp.zeros(S.rows, 1))
        if want_perp_zero:
            x = sum((int(rng.integers(-2, 3)) * v for v in xs), sp.zeros(S.rows, 1))
        else:
            x = sp.Matrix([int(v) for v in rng.integers(-3, 4, size=d)])
        xp = (sp.eye(d) - S * Sp) * x
        if (xp == sp.zeros(d, 1)) != want_perp_zero or x == sp.zeros(d, 1):
            continue
        yield S, Sp, h, x, xp


@check("002:lemma-4.3/case-1")
def lemma_4_3_case_1(ctx: Context) -> Outcome:
    ok, n = True, 0
    for S, Sp, h, x, _ in _case_instances(ctx, True):
        beta = 1 + (x.T * Sp * x)[0]
        Spt = Sp - Sp * x * x.T * Sp / beta
        ok &= Spt == (S + x * x.T).pinv()
        b = (h.T * Sp * x)[0]
        ok &= (h.T * Spt * h)[0] == (h.T * Sp * h)[0] - b**2 / beta and (h.T * Spt * x)[0] == b / beta
        n += 1
    exact = _exact_matrix_outcome("case x_perp = 0", ok and n > 0, n,
                                  "S_t^+ = S^+ - S^+ x x^T S^+/beta equals pinv(S + x x^T); the two printed identities")
    return combine([
        ("matrix identities (exact instances)", exact),
        ("1/beta^2 - 1/beta <= 0 for beta >= 1 (times b^2 >= 0)", inequality("1/beta**2 - 1/beta <= 0", {"beta": ("1", "oo")}, ctx)),
    ])


@check("002:lemma-4.3/case-2")
def lemma_4_3_case_2(ctx: Context) -> Outcome:
    ok, n = True, 0
    for S, Sp, h, x, xp in _case_instances(ctx, False):
        beta = 1 + (x.T * Sp * x)[0]
        n2 = (xp.T * xp)[0]
        Spt = Sp - Sp * x * xp.T / n2 - xp * x.T * Sp / n2 + beta * xp * xp.T / n2**2
        ok &= Spt == (S + x * x.T).pinv()
        ok &= (h.T * Spt * h)[0] == (h.T * Sp * h)[0] and (h.T * Spt * x)[0] == 0
        n += 1
    return _exact_matrix_outcome("case x_perp != 0", ok and n > 0, n,
                                 "second update formula equals pinv(S + x x^T); h^T S_t^+ h = h^T S^+ h; h^T S_t^+ x = 0 "
                                 "(then A <= exp(h^T S^+ h/(2 alpha)) by the Lemma A.1 step)")


@check("002:equation-11")
def equation_11(ctx: Context) -> Outcome:
    sp = _sp()
    a, b, g, al, G, a0 = sp.symbols("a b g alpha Gamma a0")
    lhs10 = g * b / al * sp.exp((a - G) / (2 * al)) + sp.exp((a - 2 * g * b - G) / (2 * al))
    lhs11 = sp.exp(a / (2 * al)) * (g * b / al + sp.exp(-g * b / al))
    from olr_verify.papers.s002_scale_invariant.algorithm1_runs import lemma_4_3_rounds

    rounds = lemma_4_3_rounds(ctx)
    out = combine([
        ("e^{Gamma/(2 alpha)} LHS(10) == LHS(11) (with the gamma identity)",
         identity(sp.exp(G / (2 * al)) * lhs10, lhs11, {"a": ("0", "3"), "b": ("-2", "2"), "g": ("-1", "1"), "alpha": ("1.2", "4"), "Gamma": ("0", "3")}, ctx)),
        ("e^{Gamma/(2 alpha)} RHS(10) == RHS(11)", identity(sp.exp(G / (2 * al)) * sp.exp((a0 - G) / (2 * al)), sp.exp(a0 / (2 * al)),
                                                             {"a0": ("0", "3"), "alpha": ("1.2", "4"), "Gamma": ("0", "3")}, ctx)),
        ("(11) along runs of Algorithm 2", rounds["eq11"]),
    ], extra={"note": "the paper's 'multiplying both sides by e^{Gamma_{t-1}}' is its own claim, "
                      "002:equation-11/multiplier (refuted, slip); the factor e^{Gamma_{t-1}/(2 alpha)} that makes (10) "
                      "and (11) equivalent is 002:equation-11/multiplier/corrected"})
    return out


@check("002:equation-10")
def equation_10(ctx: Context) -> Outcome:
    from olr_verify.papers.s002_scale_invariant.algorithm1_runs import lemma_4_3_rounds

    rounds = lemma_4_3_rounds(ctx)
    return combine([("gamma identity", decide("002:lemma-4.3/gamma-identity", ctx)), ("Lemma A.1 step", decide("002:lemma-4.3/lemma-a1-step", ctx)),
                    ("case 1", lemma_4_3_case_1(ctx)), ("case 2", lemma_4_3_case_2(ctx)),
                    ("(10) along runs of Algorithm 2", rounds["eq10"])],
                   method="App. E chain link by link + (10) evaluated at every round of Algorithm 2")


"""Seed 000 (AIOLI): Lemma 10, step 3 (det(I + C_n/lam) as the product over the eigenvalues of C_n), checked
through the characteristic polynomial with generic symbolic entries in d = 2, 3.

The App. B identities (eqs. (15)-(19), Theorem 7 steps 7 and 9) and Lemma 10's steps 1-2 are declared in
paper.toml as matrix identities (olr_verify.checks.matrix_identity).
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import combine
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check


def symmetric_matrix(name: str, d: int):
    """The d x d symmetric matrix of free symbols name1, name2, ... (row by row on and above the diagonal)."""
    import sympy as sp

    entries = iter(sp.symbols(f"{name}1:{d * (d + 1) // 2 + 1}"))
    M = sp.zeros(d, d)
    for i in range(d):
        for j in range(i, d):
            M[i, j] = M[j, i] = next(entries)
    return M


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

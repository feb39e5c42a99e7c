"""Seed 000 (AIOLI): Theorem 1, eq. (4), Theorems 4 and 7, Lemma 10 and the per-round steps of App. B,
attacked by the hunters of :mod:`olr_verify.hunting` (each a short deterministic hunt)."""
import olr_verify.hunting.confirm  # noqa: F401  (registers the "hunt-regret" replayer)
from olr_verify.registry import check


def _hunt(claim, **kw):
    def fn(ctx):
        from olr_verify.hunting.checkkit import hunt_outcome

        return hunt_outcome(claim, ctx, **kw)

    fn.__name__ = "hunt_" + claim.replace(":", "_").replace("-", "_").replace("/", "__").replace(".", "_")
    return check(claim)(fn)


theorem_1 = _hunt("000:theorem-1")
equation_4 = _hunt("000:equation-4")
theorem_7 = _hunt("000:theorem-7")
theorem_4 = _hunt("000:theorem-4", full=120, quick=25)
lemma_10 = _hunt("000:lemma-10")
b1_chain = _hunt("000:theorem-7/b1-chain")
b1_zt_bound = _hunt("000:theorem-7/b1-zt-bound")
equation_21 = _hunt("000:equation-21")
equation_22 = _hunt("000:equation-22")

"""Seed 004 (EKF / SOS): the regret statements whose constants are not recoverable from the seed."""
from olr_verify.outcome import Outcome
from olr_verify.registry import check

_REASON = ("the bound's formula is not recoverable from the seed text (every constant and rate is lost, "
           "see papers/004_ekf.md, Section 0); only the rate O(log n) survives in the abstract, and an O(.) "
           "statement without constants cannot be violated by a finite sequence")


def _inconclusive(claim: str, extra: str = ""):
    def fn(ctx):
        return Outcome("inconclusive", "none: no printed constant to hunt against", {"reason": (_REASON + extra)})

    fn.__name__ = "hunt_" + claim.replace(":", "_").replace("-", "_").replace("/", "__")
    return check(claim)(fn)


theorem_1 = _inconclusive("004:theorem-1")
equation_3 = _inconclusive("004:equation-3")
theorem_1_step_9 = _inconclusive("004:theorem-1/step-9")
theorem_6 = _inconclusive("004:theorem-6", "; Theorem 6's hypotheses are also lost ('Assume that' is all that remains)")

"""Fast online learners for binary online logistic regression (labels ±1), one module per algorithm.

Every learner follows the API of ``shared/CONTRACT.md``: ``predict(x) -> float`` (ŷ_t = θ̂_tᵀx_t, no state
change to what is learnt), ``update(x, y)``, ``run(X, Y) -> np.ndarray`` (predict then update, row by row),
``state() -> dict`` (the paper's quantities, copies), ``copy()``. Bad input raises ValueError naming the argument.

=======================  ==========================================================  ==================
learner                  paper                                                        per-round cost
=======================  ==========================================================  ==================
AIOLI                    000 eq. (3), Alg. 1-2 (``inner_steps=T`` for Alg. 2)         O(d²)
SurrogateFTL             000 eq. (11), θ_t = A_{t-1}⁻¹b_{t-1}                          O(d²)
FTRL, FTL                000 §5 (McMahan 2011), true losses, ℝ^d or B-ball             O(t d² + d³)
ONS                      Hazan, Agarwal, Kale 2007 (cited by 000)                     O(d²), O(d³) if projecting
OGD                      Zinkevich 2003 (cited by 000), step B/(R√t)                   O(d)
FosterAggregating        Foster et al. 2018 (cited by 000), d = 1, quadrature         O(grid)
ScaleInvariantCoordinatewise / ScaleInvariantFull   002 Alg. 1 / Alg. 2                O(d) / O(d²)
FTRLSurrogate1D          003 Alg. 1 (``form="algorithm-2"``: Alg. 2)                   O(1)
EKF, TruncatedEKF        004 Alg. 2 and the truncated EKF of its follow-up            O(d²)
SOS                      004 Alg. 1 (RECONSTRUCTED, see algorithms/sos.py)             O(t d² + d³)
=======================  ==========================================================  ==================

Multiclass (labels 0..K−1, ``predict(x)`` → K scores, ``predict_proba(x)``): ``GAF`` (001 §3–4, O(K²d² + K³)),
``GAFSquared`` (001, squared loss), ``MulticlassONS``, ``MulticlassOGD``, ``MulticlassFTRL`` (the baselines of 001 §5).

Every learner runs its BLAS single-threaded inside predict/update/run (``single_threaded_blas``, see
``algorithms/_threads.py``); the caller's BLAS thread setting is restored after each call.
"""
from .aioli import (AIOLI, aioli_objective, aioli_theta_hat, eq3_objective, solve_margin, surrogate_increment,
                    surrogate_loss, theorem4_inner_steps)
from .ekf import EKF, TruncatedEKF
from .foster import FosterAggregating
from .gaf import GAF, corollary2_parameters
from .gaf_squared import GAFSquared
from .multiclass import MulticlassFTRL, MulticlassLearner, MulticlassOGD, MulticlassONS
from .ftl import FTL
from .ftrl import FTRL, ftrl_gradient, ftrl_hessian, ftrl_objective, regularized_leader
from .ftrl_surrogate_1d import FTRLSurrogate1D, approximate_loss
from .ogd import OGD
from .ons import ONS, project_A_norm
from .scale_invariant import ScaleInvariantCoordinatewise, ScaleInvariantFull, pinv_rank_one_update
from .sos import SOS
from .surrogate_ftl import SurrogateFTL
from ._threads import single_threaded_blas

__all__ = [
    "AIOLI", "SurrogateFTL", "FTRL", "FTL", "ONS", "OGD", "FosterAggregating", "ScaleInvariantCoordinatewise",
    "ScaleInvariantFull", "FTRLSurrogate1D", "EKF", "TruncatedEKF", "SOS",
    "GAF", "GAFSquared", "MulticlassONS", "MulticlassOGD", "MulticlassFTRL", "MulticlassLearner",
    "corollary2_parameters", "single_threaded_blas",
    "aioli_theta_hat", "aioli_objective", "eq3_objective", "surrogate_loss", "surrogate_increment",
    "solve_margin", "theorem4_inner_steps", "ftrl_objective", "ftrl_gradient", "ftrl_hessian",
    "regularized_leader", "project_A_norm", "pinv_rank_one_update", "approximate_loss",
]

"""Every regret-type bound of the papers, as printed, as a function (sequence, run, comparator) -> (lhs, rhs).

A :class:`Target` ties a claim id to a sequence family, a learner and a bound function.  The bound
function receives the :class:`Sequence` (exact data + parameters), the learner's :class:`Run`
(predictions and, where the claim needs them, the learner's internal quantities) and the comparator,
and returns ``(lhs, rhs)``: the claim holds on this sequence iff ``lhs <= rhs``.  For regret bounds
lhs is the regret against the worst admissible comparator and rhs the printed bound at that
comparator; for per-round inequalities (lhs_t, rhs_t) is the round with the largest
:func:`ratio`.  The same code runs in float64 (hunt) and at >= 50 digits (:mod:`confirm`).

Families of sequences:

- ``binary``   (seed 000): x_t in the R-ball of R^d, y_t in {-1, +1} (and, for Theorem 7, the
  adversary's directions u_t of the estimation error);
- ``gradient`` (seed 002): x_t in R^d, g_t in [-1, 1] chosen by the adversary; the loss is the linear
  loss g_t yhat (convex and 1-Lipschitz, so a regret bound "for any convex 1-Lipschitz loss" must
  hold for it; it is the paper's own reduction (1));
- ``absorbed`` (seed 003): x_t in [-1, 1] (label absorbed), loss log(1 + e^{x_t w}).

>>> import numpy as np
>>> seq = Sequence("binary", {"d": 1, "n": 2, "B": 1.0, "R": 1.0, "lam": 1.0},
...                np.array([[1.0], [1.0]]), np.array([1, -1]))
>>> lhs, rhs = evaluate(TARGETS["000:theorem-1"], seq)
>>> print(f"{lhs:.4f} <= {rhs:.4f}")
0.0998 <= 0.2356
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

import numpy as np

from olr_verify.hunting import highprec_learners as hl
from olr_verify.hunting import shipped as sh
from olr_verify.hunting.numerics import FLOAT
from olr_verify.hunting.run_quantities import (COMPARATOR_QUANTITIES, ExpressionBound, lin_regret_parts,  # noqa: F401
                                               ratio, regret_cap, worst_pair)
from olr_verify.hunting.run_quantities import QUANTITIES as QUANTITIES_OF, ROUND_QUANTITIES as ROUND_QUANTITIES_OF
from reference.comparator import best_in_ball_fast


@dataclasses.dataclass
class Sequence:
    """Exact data of one hunt: ``X`` (n x d), ``Y`` (labels, gradients g_t, or None) and parameters."""

    family: str
    params: dict
    X: np.ndarray
    Y: Any = None
    U: Any = None          # Theorem 7's directions (binary family only)

    @property
    def n(self) -> int:
        return len(self.X)


@dataclasses.dataclass
class Run:
    preds: list
    learner: Any
    extra: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class Target:
    claim: str
    family: str
    learner: str
    bound: Callable[..., tuple]
    defaults: dict
    comparator: str = "ball"        # "ball" | "ball-lam" | "free" | "interval" | "none"
    kind: str = "upper"             # "upper" (lhs <= rhs) | "lower" (a construction: lhs >= rhs)
    note: str = ""
    space: str = ""                 # its [hunt_space.<name>] in the paper's paper.toml


# --------------------------------------------------------------------------- learners
# Learners whose run depends on the inputs only through inner products (initial state lam I or 0, updates by
# x x^T, predictions theta^T x): rotating R^d changes nothing, so a sequence of n < d inputs is run EXACTLY in
# the n-dimensional span of its inputs (Theorem 7's directions u_t act only through u_t^T x_t).  Their bounds
# read d only as a number (d (1 + BR) log(...)), never through the learner's dimension.
ROTATION_EQUIVARIANT = frozenset({"aioli", "aioli-b2", "aioli-eps", "aioli-alg2", "si2", "none"})
# Coordinate-wise learners (002 Algorithm 1): coordinates where every x_{t,i} = 0 keep their initial state and
# add nothing to the prediction, but d enters the step size 1/(alpha t d); run at the full d.
COORDINATEWISE = frozenset({"si1"})


def span_dimension(p: dict) -> int:
    """The dimension of a span that holds n inputs of R^d: n, but at least 2 (002's Theorem 4.2 construction needs
    two coordinates) and at most d."""
    return min(int(p["d"]), max(int(p["n"]), 2))


def run_dimension(target: Target, p: dict) -> int:
    """Where a sequence of the target's learner at parameters ``p`` is run: for a rotation-equivariant learner
    with d > n, the span of its inputs (:func:`span_dimension`); else R^d itself."""
    d, n = int(p["d"]), int(p["n"])
    return span_dimension(p) if (target.learner in ROTATION_EQUIVARIANT and d > n) else d


def make_learner(target: Target, seq: Sequence, K=FLOAT, trace: bool = False):
    """The learner a bound is about: in float64 the SHIPPED learner of algorithms/ (:mod:`shipped`); at >= 50
    digits its twin of :mod:`highprec_learners` (replay only; tests/hunting/test_learner_twins.py checks
    that the two agree to 1e-12).  A rotation-equivariant learner runs in the dimension of the sequence's data
    (:func:`run_dimension`)."""
    p = seq.params
    if target.learner in ROTATION_EQUIVARIANT and "d" in p:
        p = {**p, "d": int(seq.X.shape[1])}
    name = target.learner
    if name == "none":
        return None
    if name not in _LEARNERS:
        raise ValueError(f"unknown learner {name!r}")
    return _LEARNERS[name](p, seq.n, K, trace)


def _aioli(p, n, K, trace, lam=None, eps=0, gd_steps=0):
    lam = p["lam"] if lam is None else lam
    if K is FLOAT:
        return sh.ShippedAioli(p["d"], p["B"], p["R"], lam, eps=eps, gd_steps=gd_steps, trace=trace)
    return hl.AioliExact(p["d"], p["B"], p["R"], lam, K=K, eps=eps, gd_steps=gd_steps, trace=trace)


_LEARNERS: dict[str, Callable] = {
    "aioli": lambda p, n, K, tr: _aioli(p, n, K, tr),
    "aioli-b2": lambda p, n, K, tr: _aioli(p, n, K, tr, lam=K.num(1) / K.num(p["B"]) ** 2),
    "aioli-eps": lambda p, n, K, tr: _aioli(p, n, K, tr, eps=p["eps"]),
    "aioli-alg2": lambda p, n, K, tr: _aioli(
        p, n, K, tr, gd_steps=hl.aioli_gd_steps(n, float(p["B"]), float(p["R"]), float(p["lam"]))),
    "si1": lambda p, n, K, tr: (sh.ShippedScaleInvariant1(p["d"], p["alpha"]) if K is FLOAT
                                else hl.ScaleInvariant1(p["d"], p["alpha"], K=K)),
    "si2": lambda p, n, K, tr: (sh.ShippedScaleInvariant2(p["d"], p["alpha"]) if K is FLOAT
                                else hl.ScaleInvariant2(p["d"], p["alpha"], K=K)),
    "ftrl003": lambda p, n, K, tr: (sh.ShippedFtrl003(p["D"], float(n) ** (-1 / 3)) if K is FLOAT
                                    else hl.Ftrl003(p["D"], K.num(n) ** (-K.num(1) / 3), K=K)),
}


def run_learner(target: Target, seq: Sequence, K=FLOAT, trace: bool = False) -> Run:
    """Predict-then-update over the fixed sequence (the adversary's choices are already in it)."""
    L = make_learner(target, seq, K, trace)
    X = K.arr(seq.X)
    preds: list = []
    extra: dict = {}
    if L is None:
        return Run(preds, None, extra)
    if seq.family == "binary":
        for t in range(seq.n):
            if seq.U is not None:
                L.set_direction(K.arr(seq.U[t]))
            preds.append(L.predict(X[t]))
            L.update(X[t], int(seq.Y[t]))
    elif seq.family == "gradient":
        G = [K.num(g) for g in seq.Y]
        extra["states"] = []
        for t in range(seq.n):
            if target.learner == "si1":
                w, s2 = L.weights(X[t])
                extra["states"].append({"w": w, "s2_prev": L.s2, "h_prev": L.h})
                preds.append(w @ X[t])
            else:
                preds.append(L.predict(X[t]))
                extra["states"].append({"S_prev": L.S, "h_prev": L.h, "Gamma_prev": L.Gamma})
            L.update_gradient(X[t], G[t])
        extra["G"] = G
    else:  # absorbed, 1-D FTRL of seed 003
        ws, us = [], []
        for t in range(seq.n):
            ws.append(L.weight())
            us.append(L.unconstrained_argmin())
            preds.append(L.weight() * X[t][0])
            L.update(X[t][0])
        ws.append(L.weight())
        us.append(L.unconstrained_argmin())
        extra.update(ws=ws, us=us)
    return Run(preds, L, extra)


# --------------------------------------------------------------------------- comparators
def comparator(target: Target, seq: Sequence, run: Run) -> Any:
    """Float64 comparator: the best theta in hindsight (reference.comparator.best_in_ball_fast), a FEASIBLE point.

    Only feasibility matters for soundness: the regret against any feasible theta is a lower bound on the
    regret against the best one, so (regret at theta) > (bound at theta) is a violation whatever the
    comparator's optimality; the replay re-checks feasibility (``run_quantities.feasible``) at >= 50 digits."""
    p = seq.params
    if target.comparator in ("ball", "ball-lam"):
        lam = float(p["lam"]) if target.comparator == "ball-lam" else 0.0
        Z = -np.asarray(seq.Y, float)[:, None] * np.asarray(seq.X, float)
        return best_in_ball_fast(Z, float(p["B"]), lam).theta
    if target.comparator == "interval":
        return best_in_ball_fast(np.asarray(seq.X, float), float(p["D"])).theta
    return None


# --------------------------------------------------------------------------- seed 002
def _kappa(alpha, K):
    return K.exp(1 / (2 * (alpha - K.num(9) / 8)))


def _maximise_1d(fn: Callable[[float], float], scale: float) -> float:
    """argmax over r >= 0 of a function that is eventually decreasing (grid on a log scale + golden search)."""
    grid = [0.0] + list(scale * np.logspace(-4, 6, 121))
    vals = [fn(r) for r in grid]
    i = int(np.argmax(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    phi = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        a, b = hi - phi * (hi - lo), lo + phi * (hi - lo)
        if fn(a) >= fn(b):
            hi = b
        else:
            lo = a
    r = (lo + hi) / 2
    return r if fn(r) >= vals[i] else grid[i]


def worst_u_002_thm34(seq, run) -> np.ndarray:
    """The comparator maximising regret - bound of Theorem 3.4 (separable across coordinates)."""
    p = seq.params
    alpha, d, T = float(p["alpha"]), int(p["d"]), seq.n
    X = np.asarray(seq.X, float)
    G = np.asarray([float(g) for g in run.extra["G"]])
    h = -(G[:, None] * X).sum(0)
    s = np.sqrt((X * X).sum(0))
    u = np.zeros(d)
    for i in range(d):
        if s[i] == 0 or h[i] == 0:
            continue
        def f(r, i=i):
            return abs(h[i]) * r - r * s[i] * math.sqrt(alpha * math.log1p(alpha * d * d * T * T * r * r * s[i] * s[i]))
        u[i] = math.copysign(_maximise_1d(f, 1.0 / s[i]), h[i])
    return u


def theorem_3_4_002(seq, run, u, K=FLOAT):
    """regret_T(u) <= sum_i |u_i| s_{T,i} sqrt(alpha log(1 + alpha d^2 T^2 u_i^2 s_{T,i}^2)) + kappa(alpha)(1 + log T)."""
    p = seq.params
    alpha, d, T = K.num(p["alpha"]), K.num(p["d"]), K.num(seq.n)
    X = K.arr(seq.X)
    alg, h = lin_regret_parts(seq, run, K)
    u = K.arr(u)
    rhs = _kappa(alpha, K) * (1 + K.log(T))
    for i in range(X.shape[1]):
        if u[i] == 0:  # the term is 0 (a coordinate the comparator does not use, e.g. one never observed)
            continue
        s = K.sqrt(sum(x[i] * x[i] for x in X))
        rhs += abs(u[i]) * s * K.sqrt(alpha * K.log(1 + alpha * d * d * T * T * u[i] * u[i] * s * s))
    return alg + h @ u, rhs


def lemma_3_3_002(seq, run, u, K=FLOAT):
    """Per trial and coordinate: g_t w_{t,i} x_{t,i} + psi_t(h_{t,i}, s_{t,i}) <= psi_{t-1}(h_{t-1,i}, s_{t-1,i}) + kappa/(t d)."""
    p = seq.params
    alpha, d = K.num(p["alpha"]), K.num(p["d"])
    X = K.arr(seq.X)
    kap = _kappa(alpha, K)

    def psi(t, h, s2):
        return K.exp(h * h / (2 * alpha * s2)) / (t * d) if s2 > 0 else K.num(0)

    pairs = []
    cols = _observed_columns(seq.X)
    for t0, (st, g) in enumerate(zip(run.extra["states"], run.extra["G"])):
        t = K.num(t0 + 1)
        x = X[t0]
        for i in cols:
            h_prev, s2_prev = st["h_prev"][i], st["s2_prev"][i]
            h_new, s2_new = h_prev - g * x[i], s2_prev + x[i] * x[i]
            lhs = g * st["w"][i] * x[i] + psi(t, h_new, s2_new)
            rhs = (psi(t - 1, h_prev, s2_prev) if t0 > 0 else K.num(0)) + kap / (t * d)
            pairs.append((lhs, rhs))
    return worst_pair(pairs)


def _observed_columns(X) -> list[int]:
    """The coordinates with some x_{t,i} != 0, and the first of the others: a coordinate never observed gives
    the same per-trial pair (0, kappa/(t d)) as every other such coordinate."""
    cols = list(range(len(X[0]))) if len(X) else []
    seen = {i for i in cols if any(row[i] != 0 for row in X)}
    first_unseen = next((i for i in cols if i not in seen), None)
    return sorted(seen | ({first_unseen} if first_unseen is not None else set()))


def lemma_4_4_002(seq, run, u, K=FLOAT):
    """sum_t x_t^T S_t^+ x_t <= r + (1+r) r / 2 log(1 + 2 sum_t ||x_t||^2 / ((1+r) r lambda*))."""
    X = K.arr(seq.X)
    d = X.shape[1]
    S = K.zeros((d, d))
    lhs, lam_star, sq = K.num(0), None, K.num(0)
    for x in X:
        S = S + np.outer(x, x)
        lhs += x @ K.pinv_sym(S) @ x
        sq += x @ x
        eig = [e for e in K.eigvalsh(S) if e > K.eps * 1e3 * (1 + max(K.eigvalsh(S)))]
        if eig:
            lam_star = min(eig) if lam_star is None else min(lam_star, min(eig))
    eig_T = K.eigvalsh(S)
    r = K.num(sum(1 for e in eig_T if e > K.eps * 1e3 * (1 + max(eig_T))))
    if lam_star is None or r == 0:
        return K.num(0), K.num(0)
    return lhs, r + (1 + r) * r / 2 * K.log(1 + 2 * sq / ((1 + r) * r * lam_star))


# --------------------------------------------------------------------------- the table
TARGETS: dict[str, Target] = {t.claim: t for t in [
    Target("002:theorem-3.4", "gradient", "si1", theorem_3_4_002, {"d": 2, "n": 30, "alpha": 1.5}, "free-34",
           space="scale-invariant"),
    Target("002:lemma-3.3", "gradient", "si1", lemma_3_3_002, {"d": 2, "n": 30, "alpha": 1.5}, "none",
           space="scale-invariant"),
    Target("002:lemma-4.4", "gradient", "none", lemma_4_4_002, {"d": 2, "n": 30, "alpha": 1.5}, "none",
           space="inputs-only"),
]}


def comparator_for(target: Target, seq: Sequence, run: Run) -> Any:
    if target.comparator == "free-34":
        return worst_u_002_thm34(seq, run)
    if target.comparator == "S-direction":
        return worst_u_on_ray(target.bound, seq, run)
    return comparator(target, seq, run)


def worst_u_on_ray(bound, seq: Sequence, run: Run) -> np.ndarray:
    """The comparator u = rho S_T^+ h_T / ||h_T||_{S_T^+} (the direction of Lemma 4.1, 002) with rho >= 0 maximising
    lhs - rhs of the declared bound along the ray (u = 0 unless that gains more than rounding), where
    regret_T(u) = sum_t g_t yhat_t + rho ||h_T||_{S_T^+} and ||u||_{S_T}^2 = rho^2 (S^+ S S^+ = S^+): a function of
    rho, ||h_T||_{S_T^+} and the run, so the same whatever the rotation of the inputs. For ``regret <= f(||u||_S)``
    (the only form the loader accepts) the ray holds the worst u: at ||u||_S = r, h^T u is at most r ||h||_{S^+}.
    Only the choice of u is made here; the bound is then evaluated at u itself. ``bound`` may be a planted
    variant (its ``wraps`` is the declared bound, its ``adjust`` the change it makes to the sides)."""
    declared, adjust = getattr(bound, "wraps", bound), getattr(bound, "adjust", None)
    L = run.learner
    S_pinv = np.linalg.pinv(np.asarray(L.S, float), hermitian=True, rcond=1e-12)
    h = np.asarray(L.h, float)
    hn = math.sqrt(max(float(h @ S_pinv @ h), 0.0))
    if hn == 0:
        return np.zeros(len(h))
    values = declared.values(seq, run, np.zeros(len(h)), FLOAT)  # the regret at u = 0: sum_t g_t yhat_t
    alg = values["regret"]

    def gap(r: float) -> float:
        lhs, rhs = declared.sides({**values, "regret": alg + r * hn, "u_S_sq": r * r}, FLOAT)
        lhs, rhs = adjust(lhs, rhs, FLOAT) if adjust is not None else (lhs, rhs)
        g = float(lhs - rhs)
        return g if not math.isnan(g) else -math.inf  # a NaN on the grid must not win the argmax

    with np.errstate(all="ignore"):
        rho, at_0 = _maximise_1d(gap, 1.0), gap(0.0)
        if not gap(rho) - at_0 > 1e-12 * (1 + abs(at_0)):
            rho = 0.0  # a gain at rounding level is none (the sides' constants, e.g. + 1, round the gap off)
    return rho * (S_pinv @ h) / hn


def needs_trace(target: Target) -> bool:
    """Whether the bound reads the learner's per-round quantities (a planted variant: its original's)."""
    return getattr(getattr(target.bound, "wraps", target.bound), "needs_trace", False)


def evaluate(target: Target, seq: Sequence, K=FLOAT, cmp: Any = None) -> tuple:
    """(lhs, rhs) of the target's claim on one fixed sequence (comparator chosen worst-case unless given)."""
    trace = needs_trace(target)
    run = run_learner(target, seq, K, trace=trace)
    if cmp is None:
        cmp = comparator_for(target, seq, run) if K is FLOAT else None
    return target.bound(seq, run, cmp, K)


def evaluate_full(target: Target, seq: Sequence) -> tuple:
    """(lhs, rhs, comparator, cap) in float64: what a candidate artefact stores, and the largest lhs the run allows
    (:func:`~olr_verify.hunting.run_quantities.regret_cap` for a bound on the regret, else +inf): where
    rhs >= cap the sequence could not have violated the bound."""
    trace = needs_trace(target)
    run = run_learner(target, seq, FLOAT, trace=trace)
    cmp = comparator_for(target, seq, run)
    lhs, rhs = target.bound(seq, run, cmp, FLOAT)
    bound = getattr(target.bound, "wraps", target.bound)
    cap = regret_cap(seq, run) if getattr(bound, "bounds_regret", False) else math.inf
    return float(lhs), float(rhs), cmp, cap


def with_defaults(target: Target, params: dict | None = None) -> dict:
    p = {**target.defaults, **(params or {})}
    if target.learner == "aioli-b2":
        p["lam"] = 1.0 / float(p["B"]) ** 2
    return p


# --------------------------------------------------------------------------- bounds declared in the papers' data
COMPARATORS = {"binary": ("ball", "ball-lam", "none"), "gradient": ("S-direction", "none"),
               "absorbed": ("interval", "none")}
LEARNERS = {"binary": ("aioli", "aioli-b2", "aioli-eps", "aioli-alg2"), "gradient": ("si2",), "absorbed": ("ftrl003",)}
_HUNT_FIELDS = {"learner", "family", "comparator", "lhs", "rhs", "per_round", "defaults", "space", "budget", "note"}


#: The parameters each learner of a declared hunt reads (besides n), from the space or the defaults.
LEARNER_PARAMS = {"aioli": ("d", "B", "R", "lam"), "aioli-b2": ("d", "B", "R"), "aioli-eps": ("d", "B", "R", "lam", "eps"),
                  "aioli-alg2": ("d", "B", "R", "lam"), "si2": ("d", "alpha"), "ftrl003": ("D",)}
MAX_BUDGET = 10_000  # sequences of a declared hunt's budget


def target_from_toml(claim: str, hunt: Any, space, where: str) -> tuple[Target, tuple[int, int]]:
    """The :class:`Target` of a ``[claim.hunt]`` table (module run_quantities; docs/claims.md) and its budget
    (sequences in full and quick mode). ``space`` is the :class:`~olr_verify.hunting.space.Space` it names. Every
    malformed table is a ValueError naming the field."""
    def fail(message: str):
        raise ValueError(f"{where}: hunt: {message}")

    if not isinstance(hunt, dict) or set(hunt) - _HUNT_FIELDS or not {"learner", "family", "lhs", "rhs",
                                                                     "space"} <= set(hunt):
        fail(f"needs learner, family, lhs, rhs, space (fields among {sorted(_HUNT_FIELDS)})")
    family, learner = hunt["family"], hunt["learner"]
    if not (isinstance(family, str) and isinstance(learner, str) and learner in LEARNERS.get(family, ())):
        fail(f"family and learner among {LEARNERS} (the run quantities are defined for these)")
    comparator_kind = hunt.get("comparator", COMPARATORS[family][0])
    per_round = hunt.get("per_round", False)
    if comparator_kind not in COMPARATORS[family] or type(per_round) is not bool:
        fail(f"comparator among {COMPARATORS[family]}, per_round true or false")
    budget = hunt.get("budget", [400, 60])
    if not (isinstance(budget, list) and len(budget) == 2
            and all(type(b) is int and 0 < b <= MAX_BUDGET for b in budget)):
        fail(f"budget is [full, quick]: two numbers of sequences from 1 to {MAX_BUDGET}")
    if not all(isinstance(hunt[k], str) for k in ("space", *(("note",) if "note" in hunt else ()))):
        fail("space and note are strings")
    sides = [hunt["lhs"], hunt["rhs"]]
    if not all(isinstance(v, str) or (isinstance(v, list) and v and all(isinstance(e, str) for e in v))
               for v in sides):
        fail("lhs and rhs are expressions (strings) or lists of them")
    defaults = _defaults(hunt.get("defaults", {}), space, fail)
    searched = [p.name for p in space.params]
    known = set(searched) | set(defaults) | ({"lam"} if learner == "aioli-b2" else set())  # lam = 1/B^2 derived
    missing = [k for k in LEARNER_PARAMS[learner] if k not in known]
    if missing:
        fail(f"{learner} needs {', '.join(missing)}: give a range in the space or a value in defaults")
    reserved = set(QUANTITIES_OF[family]) | set(ROUND_QUANTITIES_OF[family])
    if reserved & known:
        fail(f"a parameter may not be named as a run quantity ({', '.join(sorted(reserved & known))})")
    try:
        bound = ExpressionBound(hunt["lhs"], hunt["rhs"], family, sorted(known - {"n", "d"}), per_round=per_round)
    except (ValueError, ArithmeticError, TypeError) as exc:
        fail(str(exc))
    if per_round and not bound.round_quantities:
        fail("per_round = true needs a per-round quantity in lhs or rhs")
    if comparator_kind == "none" and set(bound.quantities) & COMPARATOR_QUANTITIES:
        fail(f"{', '.join(sorted(set(bound.quantities) & COMPARATOR_QUANTITIES))} read the comparator: choose one")
    if comparator_kind == "S-direction" and not (bound.bounds_regret and "regret" not in bound.rhs_names):
        fail("the S-direction comparator searches u along S^+ h, which finds the worst u only for regret <= an "
             "expression of ||u||_S (u_S_sq) and the run: lhs = \"regret\", one relation, not per round")
    return (Target(claim, family, learner, bound, defaults, comparator_kind, note=hunt.get("note", ""),
                   space=hunt["space"]), (budget[0], budget[1]))


def _defaults(defaults: Any, space, fail) -> dict:
    """The hunt's starting point: finite numbers, inside the space's ranges (or at a boundary value)."""
    if not (isinstance(defaults, dict) and all(type(v) in (int, float) and math.isfinite(v)
                                               for v in defaults.values())):
        fail("defaults is a table of finite numbers")
    for p in space.params:
        v = defaults.get(p.name)
        if v is not None and not (p.lo <= v <= p.hi or v in p.boundary):
            fail(f"defaults.{p.name} = {v} is outside its space's range [{p.lo}, {p.hi}]")
    return dict(defaults)


def load_spaces(data: dict, where: str) -> dict[str, Any]:
    """name -> :class:`~olr_verify.hunting.space.Space` of the ``[hunt_space.<name>]`` tables of a parsed paper.toml."""
    from olr_verify.hunting.space import space_from_toml

    spaces = data.get("hunt_space", {})
    if not isinstance(spaces, dict):
        raise ValueError(f"{where}: hunt_space must be a table of named spaces")
    return {name: space_from_toml(table, f"{where}: hunt_space.{name}") for name, table in spaces.items()}


def load_declared(data: dict, where: str, spaces: dict[str, Any] | None = None
                  ) -> dict[str, tuple[Target, tuple[int, int]]]:
    """claim id -> (target, budget) of every ``[claim.hunt]`` of a parsed paper.toml (its space: ``target.space``,
    from ``spaces`` when the file's were already read)."""
    spaces = load_spaces(data, where) if spaces is None else spaces
    out = {}
    for entry in data.get("claim", []):
        if isinstance(entry, dict) and "hunt" in entry:
            at = f"{where}: claim {entry.get('id')}"
            name = entry["hunt"].get("space") if isinstance(entry["hunt"], dict) else None
            if name not in spaces:
                raise ValueError(f"{at}: hunt.space {name!r} is not a [hunt_space.<name>] table of this file")
            out[entry["id"]] = target_from_toml(entry["id"], entry["hunt"], spaces[name], at)
    return out


#: (full, quick) sequences of each declared hunt (``hunt.budget``); a bound hunted in Python: 400 and 60.
BUDGETS: dict[str, tuple[int, int]] = {}


def _load_seed_hunts() -> None:
    """Register the hunted bounds the seed papers declare as data, and every hunted bound's space (space.SPACES)."""
    import tomllib
    from pathlib import Path

    from olr_verify.hunting.space import SPACES

    for path in sorted((Path(__file__).resolve().parents[1] / "papers").glob("*/paper.toml")):
        data = tomllib.loads(path.read_text("utf-8"))
        spaces = load_spaces(data, str(path))
        for claim, (target, budget) in load_declared(data, str(path), spaces).items():
            TARGETS[claim], BUDGETS[claim] = target, budget
        key = data["paper"]["key"]
        for claim, target in TARGETS.items():
            if claim.startswith(key + ":") and target.space:
                SPACES[claim] = spaces[target.space]


_load_seed_hunts()

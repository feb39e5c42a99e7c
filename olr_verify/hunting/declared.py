"""Regret bounds declared as data (``check_kind = "regret-bound"`` in a paper folder's ``paper.toml``).

A declared bound names a learner class of :mod:`algorithms`, its constructor arguments as expressions of the
parameters, the bound as an expression of ``n``, ``d`` and the parameters, and the parameters' ranges::

    learner = "ONS"
    learner_params = { B = "B", R = "R" }
    bound = "5*d*B*R*log(n + 1)"
    params = { B = ["1/10", "10"], R = ["1", "1"], n = ["1", "300"], d = ["1", "3"] }

The statement hunted is: for every parameter point in the ranges and every sequence with ``||x_t|| <= R``
(``R = 1`` when no parameter is called R) and ``y_t = +-1``, the learner's cumulative logistic loss minus the
loss of the best ``theta`` with ``||theta|| <= B`` is at most the bound. ``B`` must be a parameter.

The hunt is deterministic: a fixed number of (parameter point, sequence) evaluations from a seed. Parameter
points are the corners of the ranges first (the edges, where printed constants most often fail), then random
points, log-uniform where a range spans two decades or more. Sequences: random, label-flipping adaptive
(``y_t = -sign(yhat_t)``), constant and alternating labels on one direction, and local search on the labels of
the worst one. A float violation is confirmed at 50 digits: the learner's predictions (float64, as shipped) give
its loss exactly, and any feasible ``theta`` gives an upper bound on the comparator's loss, so
``loss(learner) - loss(theta) > bound`` at 50 digits proves the violation. The artefact replays by re-running
the learner on the stored sequence.
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

import numpy as np

from olr_verify.artefacts import replayer
from olr_verify.outcome import Context, Outcome

EVALS_FULL, EVALS_QUICK = 160, 32
DIGITS = 50
COMPARATOR_TOL = 1e-6  # certified gap of the comparator's value; the ratio uses its certified lower bound
_INTS = ("n", "d")


#: Work caps of a declared hunt: n rounds of a d x d learner state, decided inside ``olr-verify run``.
MAX_N, MAX_D = 10_000, 64


@dataclasses.dataclass(frozen=True)
class DeclaredBound:
    learner: str
    learner_params: dict[str, str]
    bound: str
    params: dict[str, tuple[str, str]]

    @classmethod
    def from_toml(cls, entry: dict[str, Any], where: str) -> "DeclaredBound":
        missing = [k for k in ("learner", "bound", "params") if k not in entry]
        if missing:
            raise ValueError(f"{where}: regret-bound needs {', '.join(missing)}")
        params = {k: (str(v[0]), str(v[1])) for k, v in _table(entry["params"], f"{where}: params").items()}
        for name in ("B", "n", "d"):
            if name not in params:
                raise ValueError(f"{where}: params must give a range for {name!r}")
        spec = cls(str(entry["learner"]), {k: str(v) for k, v in
                                            _table(entry.get("learner_params", {}), f"{where}: learner").items()},
                   str(entry["bound"]), params)
        spec.learner_class()
        spec.compiled()
        return spec

    def learner_class(self):
        import algorithms

        cls = getattr(algorithms, self.learner, None) if self.learner in algorithms.__all__ else None
        if not (isinstance(cls, type) and hasattr(cls, "predict") and hasattr(cls, "update")):
            raise ValueError(f"learner {self.learner!r} is not a binary learner class of algorithms/")
        return cls

    def compiled(self) -> dict[str, Any]:
        """The parsed bound, exact parameter ranges and learner arguments (sympy, from the safe reader)."""
        from olr_verify.expr import parse_expr

        names = list(self.params)
        ranges = {}
        for i, (name, (lo, hi)) in enumerate(self.params.items()):
            lo_v, hi_v = (parse_expr(lo, names[:i]), parse_expr(hi, names[:i]))
            if not (lo_v.is_Rational and hi_v.is_Rational) or lo_v > hi_v:
                raise ValueError(f"params.{name}: need rational constants lo <= hi, got [{lo}, {hi}]")
            if name in _INTS and (lo_v < 1 or not (lo_v.is_Integer and hi_v.is_Integer)):
                raise ValueError(f"params.{name}: must be integers >= 1")
            ranges[name] = (Fraction(int(lo_v.p), int(lo_v.q)), Fraction(int(hi_v.p), int(hi_v.q)))
        if ranges["B"][0] <= 0:
            raise ValueError("params.B: the comparator radius must be > 0")
        for name, cap in (("n", MAX_N), ("d", MAX_D)):
            if ranges[name][1] > cap:
                raise ValueError(f"params.{name}: at most {cap} (a declared hunt runs in this process; "
                                 f"got {ranges[name][1]})")
        return {"bound": parse_expr(self.bound, names), "ranges": ranges,
                "args": {k: parse_expr(v, names) for k, v in self.learner_params.items()}}


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a table")
    return value


# --------------------------------------------------------------------------- parameter points
def _param_points(ranges: dict[str, tuple[Fraction, Fraction]], count: int, rng) -> list[dict[str, Fraction]]:
    """Corners of the ranges first, then random exact points (log-uniform over wide positive ranges)."""
    names = list(ranges)
    corners = {tuple(ranges[k][(mask >> i) & 1] for i, k in enumerate(names)) for mask in range(2 ** len(names))}
    points = [dict(zip(names, c)) for c in sorted(corners)][:max(1, count // 2)]
    while len(points) < count:
        p = {}
        for k, (lo, hi) in ranges.items():
            if k in _INTS:
                x = float(rng.integers(int(lo), int(hi) + 1))
            elif lo > 0 and hi / lo >= 100:
                x = math.exp(rng.uniform(math.log(lo), math.log(hi)))
            else:
                x = rng.uniform(float(lo), float(hi))
            p[k] = min(max(Fraction(x).limit_denominator(10**6), lo), hi)
        points.append(p)
    return points


def _value(expr, point: dict[str, Fraction], digits: int = 17):
    import sympy as sp

    subs = {s: sp.Rational(point[s.name].numerator, point[s.name].denominator)
            for s in expr.free_symbols if s.name in point}
    return sp.N(expr.subs(subs), digits)


# --------------------------------------------------------------------------- sequences
def _learner(spec: DeclaredBound, compiled: dict[str, Any], point: dict[str, float]):
    import inspect

    cls = spec.learner_class()
    kwargs = {k: float(_value(e, point)) for k, e in compiled["args"].items()}
    if "d" in inspect.signature(cls).parameters and "d" not in kwargs:
        kwargs["d"] = int(point["d"])
    return cls(**kwargs), kwargs


def _radius(point: dict[str, Fraction]) -> float:
    return float(point.get("R", 1))


def _sequence(kind: str, learner, n: int, d: int, R: float, rng, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """Play ``n`` rounds against ``learner`` (it is updated) and return (X, Y)."""
    X = np.zeros((n, d))
    Y = np.zeros(n)
    e1 = np.zeros(d)
    e1[0] = R
    for t in range(n):
        if kind == "random":
            v = rng.normal(size=d)
            x = R * v / np.linalg.norm(v)
        else:
            x = e1
        yhat = learner.predict(x)
        if kind == "adaptive":
            y = -1.0 if yhat > 0 else 1.0 if yhat < 0 else float(rng.choice([-1.0, 1.0]))
        elif kind == "constant":
            y = 1.0
        elif kind == "alternating":
            y = 1.0 if t % 2 == 0 else -1.0
        elif kind == "labels":
            y = float(labels[t])
        else:
            y = float(rng.choice([-1.0, 1.0]))
        learner.update(x, y)
        X[t], Y[t] = x, y
    return X, Y


def regret(spec: DeclaredBound, compiled: dict[str, Any], point: dict[str, float], X: np.ndarray,
           Y: np.ndarray) -> dict[str, Any]:
    """Float64 regret of the learner on (X, Y) against the certified best theta in the B-ball."""
    from reference.comparator import best_in_ball

    learner, _ = _learner(spec, compiled, point)
    preds = learner.run(X, Y)
    loss = float(np.sum(np.logaddexp(0.0, -Y * preds)))
    sol = best_in_ball(X, Y, B=float(point["B"]), tol=COMPARATOR_TOL)
    best = sol.value_bounds[0] if math.isfinite(sol.value_bounds[0]) else sol.value  # a lower bound on the min
    return {"preds": preds, "theta": sol.theta, "regret": loss - best,
            "bound": float(_value(compiled["bound"], point))}


def hunt(spec: DeclaredBound, ctx: Context, seed: int) -> dict[str, Any]:
    """The deterministic hunt: returns the worst ratio found, per parameter point, and the worst case."""
    compiled = spec.compiled()
    rng = np.random.default_rng(seed)
    evals = EVALS_QUICK if ctx.quick else EVALS_FULL
    kinds = ("adaptive", "constant", "alternating", "random")
    points = _param_points(compiled["ranges"], max(1, evals // len(kinds)), rng)
    worst: dict[str, Any] = {"ratio": -math.inf}
    per_point, uncertified, nan = [], 0, 0
    for point in points:
        best_here = -math.inf
        for kind in kinds:
            case = _evaluate(spec, compiled, point, kind, rng)
            uncertified += "uncertified" in case
            if math.isnan(case["ratio"]):
                nan += 1
                continue
            best_here = max(best_here, case["ratio"])
            if case["ratio"] > worst["ratio"]:
                worst = case
        per_point.append({"point": point, "worst_ratio": best_here})
    worst = _local_search(spec, compiled, worst, rng, steps=8 if ctx.quick else 24)
    return {"worst": worst, "per_point": per_point, "evaluations": len(points) * len(kinds),
            "uncertified_comparators": uncertified, "not_a_number": nan}


def _evaluate(spec, compiled, point, kind, rng, labels=None) -> dict[str, Any]:
    from reference.certify import CertificationError

    learner, _ = _learner(spec, compiled, point)
    X, Y = _sequence(kind, learner, int(point["n"]), int(point["d"]), _radius(point), rng, labels)
    try:
        r = regret(spec, compiled, point, X, Y)
    except CertificationError as exc:
        return {"ratio": -math.inf, "point": point, "kind": kind, "uncertified": str(exc)}
    if math.isnan(r["regret"]) or math.isnan(r["bound"]):
        ratio = math.nan  # counted by hunt: no comparison may pass on it
    elif r["bound"] > 0:
        ratio = r["regret"] / r["bound"]
    else:
        ratio = math.inf if r["regret"] > r["bound"] else 0.0
    return {"ratio": ratio, "point": point, "kind": kind, "X": X, "Y": Y, **r}


def _local_search(spec, compiled, case, rng, steps: int) -> dict[str, Any]:
    """Flip blocks of labels of the worst sequence (same x_t directions) while the ratio grows."""
    if "Y" not in case or case["kind"] == "random":
        return case
    for _ in range(steps):
        labels = case["Y"].copy()
        i = int(rng.integers(len(labels)))
        labels[i:i + max(1, len(labels) // 8)] *= -1
        trial = _evaluate(spec, compiled, case["point"], "labels", rng, labels)
        if trial["ratio"] > case["ratio"]:
            case = trial
    return case


# --------------------------------------------------------------------------- confirmation and artefact
def confirm(spec: DeclaredBound, case: dict[str, Any]) -> tuple[bool, dict[str, str]]:
    """50-digit check: loss of the learner's float predictions minus the loss of a feasible theta > bound."""
    import mpmath as mp

    compiled = spec.compiled()
    B = mp.mpf(case["point"]["B"].numerator) / case["point"]["B"].denominator
    with mp.workdps(DIGITS + 10):
        X = [[mp.mpf(float(v)) for v in row] for row in case["X"]]
        Y = [mp.mpf(float(v)) for v in case["Y"]]
        theta = [mp.mpf(float(v)) for v in case["theta"]]
        norm = mp.sqrt(mp.fsum(t * t for t in theta))
        if norm > B:
            theta = [t * B / norm for t in theta]
        loss = mp.fsum(mp.log1p(mp.exp(-y * mp.mpf(float(p)))) for y, p in zip(Y, case["preds"]))
        cmp = mp.fsum(mp.log1p(mp.exp(-y * mp.fsum(t * x for t, x in zip(theta, row)))) for y, row in zip(Y, X))
        bound = mp.mpf(str(_value(compiled["bound"], case["point"], DIGITS + 10)))
        excess = loss - cmp - bound
        return bool(excess > mp.mpf(10) ** (-DIGITS + 10)), {
            "learner_loss": mp.nstr(loss, DIGITS), "comparator_loss_upper": mp.nstr(cmp, DIGITS),
            "bound": mp.nstr(bound, DIGITS), "regret_minus_bound_lower": mp.nstr(excess, DIGITS)}


def artefact(spec: DeclaredBound, case: dict[str, Any]) -> dict[str, Any]:
    return {"replay": {"type": "regret_bound", "learner": spec.learner, "learner_params": spec.learner_params,
                       "bound": spec.bound, "params": {k: list(v) for k, v in spec.params.items()},
                       "point": {k: str(v) for k, v in case["point"].items()}, "X": [[float(v).hex() for v in row] for row in case["X"]],
                       "Y": [float(v) for v in case["Y"]], "theta": [float(v).hex() for v in case["theta"]]}}


@replayer("regret_bound")
def replay_regret_bound(art: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Re-run the learner on the stored sequence (exact float64 data) and re-check the violation at 50 digits."""
    rep = art["replay"]
    spec = DeclaredBound(str(rep["learner"]), {k: str(v) for k, v in rep["learner_params"].items()},
                         str(rep["bound"]), {k: (str(v[0]), str(v[1])) for k, v in rep["params"].items()})
    compiled = spec.compiled()
    point = {k: Fraction(str(v)) for k, v in rep["point"].items()}
    for k, (lo, hi) in compiled["ranges"].items():
        if k not in point or not lo <= point[k] <= hi:
            return False, {"reason": f"parameter {k} = {point.get(k)} outside its declared range [{lo}, {hi}]"}
    X = np.array([[float.fromhex(v) for v in row] for row in rep["X"]])
    Y = np.array([float(v) for v in rep["Y"]])
    if X.shape != (int(point["n"]), int(point["d"])) or not np.all(np.abs(Y) == 1):
        return False, {"reason": "sequence does not match n, d, or labels are not +-1"}
    if np.any(np.linalg.norm(X, axis=1) > _radius(point) * (1 + 1e-12)):
        return False, {"reason": "a feature vector is longer than R"}
    learner, _ = _learner(spec, compiled, point)
    preds = learner.run(X, Y)
    theta = np.array([float.fromhex(v) for v in rep["theta"]])
    ok, details = confirm(spec, {"point": point, "X": X, "Y": Y, "preds": preds, "theta": theta})
    return ok, {"checked": "learner re-run on the stored sequence; regret lower bound vs bound at 50 digits",
                **details}


def decide(spec: DeclaredBound, ctx: Context, claim_id: str) -> Outcome:
    """The verdict of a declared regret bound."""
    import zlib

    seed = (ctx.seed ^ zlib.crc32(claim_id.encode())) & 0x7FFFFFFF
    res = hunt(spec, ctx, seed)
    worst = res["worst"]
    ev = {"learner": spec.learner, "bound": spec.bound, "params": {k: list(v) for k, v in spec.params.items()},
          "evaluations": res["evaluations"], "uncertified_comparators": res["uncertified_comparators"],
          "regret_or_bound_not_a_number": res["not_a_number"],
          "seed": seed, "worst_ratio": worst["ratio"],
          "worst_point": {k: str(v) for k, v in worst.get("point", {}).items()}, "worst_sequence": worst.get("kind"),
          "parameter_points": len(res["per_point"]),
          "worst_ratio_by_point": [{**{k: str(v) for k, v in p["point"].items()}, "ratio": round(p["worst_ratio"], 6)}
                                   for p in res["per_point"]]}
    method = ("declared regret bound hunted over its parameter ranges (corners first, then random; adaptive, "
              "constant, alternating, random sequences; local search on labels)")
    if worst["ratio"] > 1:
        ok, details = confirm(spec, worst)
        ev["confirmation"] = details
        if ok:
            return Outcome("refuted", method + "; violation confirmed at 50 digits", ev, artefact(spec, worst))
        ev["reason"] = "float64 violation not confirmed at 50 digits"
        return Outcome("inconclusive", method, ev)
    if res["uncertified_comparators"] or res["not_a_number"]:
        ev["reason"] = ("a sequence whose comparator could not be certified, or whose regret or bound is NaN, was "
                        "not tested: a violation there is neither confirmed nor dismissed")
        return Outcome("inconclusive", method, ev)
    return Outcome("verified", method, ev)

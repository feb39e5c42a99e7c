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
points are the corners of the ranges first (the edges, where printed constants most often fail: every corner in
full mode when there are at most ``MAX_CORNERS``, else the all-low and all-high corners and a seeded sample of the
others), then random points, log-uniform where a range spans two decades or more. Sequences: random, label-flipping adaptive
(``y_t = -sign(yhat_t)``), constant and alternating labels on one direction, and local search on the labels of
the worst one. A float violation is confirmed at 50 digits: the learner's predictions (float64, as shipped) give
its loss exactly, and any feasible ``theta`` gives an upper bound on the comparator's loss, so
``loss(learner) - loss(theta) > bound`` at 50 digits proves the violation. The artefact replays by re-running
the learner on the stored sequence.

A hunt that could not have failed shows nothing: on a sequence whose predictions satisfy ``|yhat_t| <= P`` the
regret is at most ``n (log(1 + e^P) - log(1 + e^{-BR}))`` (the comparator's loss is at least ``log(1 + e^{-BR})``
per round), so where the bound is above that cap for every sequence tried at every parameter point, the claim is
``inconclusive`` (vacuous on what was tried), as the campaign hunts do (``run_quantities.regret_cap``). A bound or a learner
argument that is not a finite real number at a tried point, a learner that refuses the point's arguments or the
hunt's inputs, and arithmetic that fails there leave that point untested: the claim is then ``inconclusive``,
never ``verified`` and never an ``error``.
"""
from __future__ import annotations

import dataclasses
import math
import re
from fractions import Fraction
from typing import Any

import numpy as np

from olr_verify.artefacts import replayer
from olr_verify.outcome import Context, Outcome

EVALS_FULL, EVALS_QUICK = 160, 32
DIGITS = 50
COMPARATOR_TOL = 1e-6  # certified gap of the comparator's value; the ratio uses its certified lower bound
_INTS = ("n", "d")


#: Work caps of a declared hunt: n rounds of a d x d learner state, decided inside ``olr-verify run``. The
#: certified comparator is the cost: about 30 s and 6 GB at n = 1000, d = 64; 75 s at n = 10^4, d = 1; a
#: MemoryError at n = 10^4, d = 4 (the old caps, n <= 10^4 and d <= 64, let a declared hunt crash), 2-5 s at
#: n x d = 16000.
MAX_N, MAX_D, MAX_ND = 2_000, 64, 16_000
MAX_PARAMS = 8  # parameters of one bound (the corners are 2^k)
#: Learner arguments that multiply a round's work (AIOLI's Algorithm 2 steps, Foster's quadrature panels and nodes):
#: a point where n times their product exceeds MAX_LEARNER_WORK is untested (a budget in units of work: an argument
#: such as inner_steps = "10**9" was stopped only by the wall clock).
WORK_ARGUMENTS = ("inner_steps", "panels", "nodes")
MAX_LEARNER_WORK = 10**7
MAX_CORNERS = 64  # full mode tries every corner up to this many
#: Ends of a parameter range: 0 or a magnitude float64 learners and the comparator handle.
MIN_MAGNITUDE, MAX_MAGNITUDE = Fraction(1, 10**9), Fraction(10**9)
NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


class Undefined(ValueError):
    """A tried point where the bound or a learner argument is not a finite real number, or where the learner
    refuses its arguments or the hunt's inputs: the point is untested (the claim cannot be ``verified``)."""


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
        from olr_verify.expr import check_variable_names

        table = _table(entry["params"], f"{where}: params")
        for name, value in table.items():
            if not NAME_RE.fullmatch(name):
                raise ValueError(f"{where}: params.{name}: a parameter name is a letter then letters, digits or _")
            if not (isinstance(value, list) and len(value) == 2
                    and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value)):
                raise ValueError(f"{where}: params.{name} must be [lo, hi] (two numbers or expressions)")
        try:
            check_variable_names(table)
        except ValueError as exc:
            raise ValueError(f"{where}: params: {exc}") from None
        if len(table) > MAX_PARAMS:
            raise ValueError(f"{where}: params: at most {MAX_PARAMS} parameters, got {len(table)}")
        params = {k: (str(v[0]), str(v[1])) for k, v in table.items()}
        for name in ("B", "n", "d"):
            if name not in params:
                raise ValueError(f"{where}: params must give a range for {name!r}")
        args = _table(entry.get("learner_params", {}), f"{where}: learner_params")
        if not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in args.values()):
            raise ValueError(f"{where}: learner_params values must be expressions of the parameters (strings)")
        spec = cls(str(entry["learner"]), {k: str(v) for k, v in args.items()}, str(entry["bound"]), params)
        spec.check_arguments(where)
        try:
            spec.compiled()
        except ValueError as exc:  # the reader's errors (ExprError) name the text, not the claim
            raise ValueError(f"{where}: {exc}") from None
        return spec

    def check_arguments(self, where: str) -> None:
        """learner_params name the constructor's own arguments; ``d`` is the hunt's (the sequences are in R^d)."""
        import inspect

        accepted = inspect.signature(self.learner_class()).parameters
        for name in self.learner_params:
            if name == "d":
                raise ValueError(f"{where}: learner_params.d: d is passed by the hunt (the sequences' dimension); "
                                 "give its range in params")
            if name not in accepted or name == "self":
                raise ValueError(f"{where}: learner_params.{name}: {self.learner} takes no argument {name!r} "
                                 f"(it takes {', '.join(p for p in accepted if p != 'd')})")
        required = [n for n, p in accepted.items() if p.default is inspect.Parameter.empty and n not in ("self", "d")
                    and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        missing = [n for n in required if n not in self.learner_params]
        if missing:
            raise ValueError(f"{where}: learner_params: {self.learner} needs {', '.join(missing)} (give each as an "
                             "expression of the parameters)")

    def learner_class(self):
        import algorithms
        from algorithms._base import OnlineLearner

        cls = getattr(algorithms, self.learner, None) if self.learner in algorithms.__all__ else None
        if not (isinstance(cls, type) and issubclass(cls, OnlineLearner) and cls is not OnlineLearner):
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
            if any(v != 0 and not MIN_MAGNITUDE <= abs(v) <= MAX_MAGNITUDE for v in ranges[name]):
                raise ValueError(f"params.{name}: each end must be 0 or of magnitude in [1e-9, 1e9] (the hunt runs "
                                 f"in float64), got [{lo}, {hi}]")
        if ranges["B"][0] <= 0:
            raise ValueError("params.B: the comparator radius must be > 0")
        if "R" in ranges and ranges["R"][0] <= 0:
            raise ValueError("params.R: the radius of the inputs (||x_t|| <= R) must be > 0: with R <= 0 no sequence "
                             "satisfies the hypothesis and nothing can be hunted")
        for name, cap in (("n", MAX_N), ("d", MAX_D)):
            if ranges[name][1] > cap:
                raise ValueError(f"params.{name}: at most {cap} (a declared hunt runs in this process; "
                                 f"got {ranges[name][1]})")
        if ranges["n"][1] * ranges["d"][1] > MAX_ND:
            raise ValueError(f"params: n x d at most {MAX_ND} at the largest n and d (the certified comparator's "
                             f"work; got {ranges['n'][1]} x {ranges['d'][1]})")
        import sympy as sp

        symbols = {k: sp.Symbol(k, integer=True, positive=True) if k in _INTS else sp.Symbol(k, real=True)
                   for k in names}  # n and d are integers >= 1: an argument such as inner_steps = "n" stays an int
        return {"bound": parse_expr(self.bound, symbols), "ranges": ranges,
                "args": {k: parse_expr(v, symbols) for k, v in self.learner_params.items()}}


def _table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{where} must be a table")
    return value


# --------------------------------------------------------------------------- parameter points
def _corners(ranges: dict[str, tuple[Fraction, Fraction]], limit: int, rng) -> list[dict[str, Fraction]]:
    """At most ``limit`` distinct corners of the ranges: the all-low and the all-high corner first, then every
    other corner if they fit, else a seeded sample of them (never the first ``limit`` in sorted order, which would
    leave out every corner where the first parameters are high)."""
    names = [k for k in ranges if ranges[k][0] != ranges[k][1]]  # a fixed parameter has one value
    fixed = {k: lo for k, (lo, hi) in ranges.items() if lo == hi}
    total = 2 ** len(names)
    if total <= limit:
        masks = [0, total - 1] + list(range(1, total - 1))
    else:
        masks, seen = [0, total - 1], {0, total - 1}
        while len(masks) < limit:
            m = int(rng.integers(total))
            if m not in seen:
                seen.add(m)
                masks.append(m)
    out = []
    for mask in dict.fromkeys(masks):
        corner = {**fixed, **{k: ranges[k][(mask >> i) & 1] for i, k in enumerate(names)}}
        out.append({k: corner[k] for k in ranges})
    return out[:max(1, limit)]


def _param_points(ranges: dict[str, tuple[Fraction, Fraction]], count: int, rng,
                  corner_limit: int | None = None) -> list[dict[str, Fraction]]:
    """Corners of the ranges first (:func:`_corners`, at most ``corner_limit``, default ``count // 2``), then
    ``count - count // 2`` random exact points (log-uniform over wide positive ranges)."""
    points = _corners(ranges, max(1, count // 2) if corner_limit is None else corner_limit, rng)
    count = max(count, len(points) + count - count // 2)
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


def _real(expr, point: dict[str, Fraction], what: str, digits: int = 17):
    """``expr`` at ``point`` as a finite real sympy number, or :class:`Undefined` (complex, infinite, NaN: e.g. a
    square root or a logarithm of a negative number, a division by zero)."""
    value = _value(expr, point, digits)
    if not (value.is_number and value.is_real is True and value.is_finite is True):
        shown = ", ".join(f"{k} = {v}" for k, v in point.items())
        raise Undefined(f"{what} is {value} (not a finite real number) at {shown}")
    return value


# --------------------------------------------------------------------------- sequences
def _learner(spec: DeclaredBound, compiled: dict[str, Any], point: dict[str, float]):
    import inspect

    cls = spec.learner_class()
    kwargs = {}
    for k, e in compiled["args"].items():
        v = _real(e, point, f"learner_params.{k} = {spec.learner_params[k]}")
        kwargs[k] = int(v) if e.is_integer and v == int(v) else float(v)
    if "d" in inspect.signature(cls).parameters and "d" not in kwargs:
        kwargs["d"] = int(point["d"])
    work = int(point["n"]) * math.prod(max(1, int(kwargs.get(k) or 1)) for k in WORK_ARGUMENTS)
    if work > MAX_LEARNER_WORK:
        shown = ", ".join(f"{k} = {v}" for k, v in point.items())
        raise Undefined(f"{spec.learner} with {', '.join(f'{k} = {kwargs[k]}' for k in WORK_ARGUMENTS if k in kwargs)} "
                        f"does n x those = {work:.3g} inner steps at {shown}, beyond the hunt's {MAX_LEARNER_WORK:.0e} "
                        "per sequence: untested")
    try:
        return cls(**kwargs), kwargs
    except ValueError as exc:
        shown = ", ".join(f"{k} = {v}" for k, v in point.items())
        raise Undefined(f"{spec.learner} refuses the arguments {kwargs} at {shown}: {exc}") from None


def _radius(point: dict[str, Fraction]) -> float:
    return float(point.get("R", 1))


def inside_ball(x: np.ndarray, R2: Fraction) -> np.ndarray:
    """``x`` moved toward 0 by ulps until its squared norm is at most R2 exactly (floats are binary rationals), so
    that the hypothesis ||x_t|| <= R holds exactly, as the replay checks it."""
    if float(x @ x) <= float(R2) * (1 - 1e-12):  # float error of x @ x is far below 1e-12 relative for d <= 64
        return x
    while sum(Fraction(float(v)) ** 2 for v in x) > R2:
        x = np.nextafter(x, 0.0)
    return x


def _sequence(kind: str, learner, n: int, d: int, R: Fraction, rng, labels=None) -> tuple[np.ndarray, np.ndarray]:
    """Play ``n`` rounds against ``learner`` (it is updated) and return (X, Y); every ||x_t|| <= R exactly."""
    X = np.zeros((n, d))
    Y = np.zeros(n)
    e1 = np.zeros(d)
    e1[0] = float(R)
    e1 = inside_ball(e1, R * R)
    for t in range(n):
        if kind == "random":
            v = rng.normal(size=d)
            x = inside_ball(float(R) * v / np.linalg.norm(v), R * R)
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
    learner, _ = _learner(spec, compiled, point)
    preds = learner.run(X, Y)
    loss = float(np.sum(np.logaddexp(0.0, -Y * preds)))
    from reference.comparator import best_in_ball_span

    sol, theta = best_in_ball_span(X, Y, float(point["B"]), tol=COMPARATOR_TOL)
    best = sol.value_bounds[0] if math.isfinite(sol.value_bounds[0]) else sol.value  # a lower bound on the min
    return {"preds": preds, "theta": theta, "regret": loss - best,
            "bound": float(_real(compiled["bound"], point, f"the bound {spec.bound}")),
            "cap": trivial_cap(preds, point)}


def trivial_cap(preds: np.ndarray, point: dict[str, Fraction]) -> float:
    """The largest regret a sequence of len(preds) rounds with these predictions can have against ||theta|| <= B,
    ||x_t|| <= R: each round at most log(1 + e^|yhat_t|) - log(1 + e^{-BR}) (module docstring)."""
    P = float(np.max(np.abs(preds))) if len(preds) else 0.0
    return len(preds) * (float(np.logaddexp(0.0, P)) - float(np.logaddexp(0.0, -float(point["B"]) * _radius(point))))


def hunt(spec: DeclaredBound, ctx: Context, seed: int) -> dict[str, Any]:
    """The deterministic hunt: returns the worst ratio found, per parameter point, and the worst case."""
    compiled = spec.compiled()
    rng = np.random.default_rng(seed)
    evals = EVALS_QUICK if ctx.quick else EVALS_FULL
    kinds = ("adaptive", "constant", "alternating", "random")
    count = max(1, evals // len(kinds))
    limit = None if ctx.quick else max(count // 2, MAX_CORNERS)
    points = _param_points(compiled["ranges"], count, rng, limit)
    free = sum(lo != hi for lo, hi in compiled["ranges"].values())
    corners = (min(2 ** free, max(1, count // 2) if limit is None else limit), 2 ** free)
    worst: dict[str, Any] = {"ratio": -math.inf}
    per_point, uncertified, nan, undefined, can_fail = [], 0, 0, [], False
    for point in points:
        best_here = -math.inf
        for kind in kinds:
            case = _evaluate(spec, compiled, point, kind, rng)
            uncertified += "uncertified" in case
            if "undefined" in case:
                undefined.append(case["undefined"])
            if math.isnan(case["ratio"]):
                nan += 1
                continue
            can_fail |= _can_fail(case)
            best_here = max(best_here, case["ratio"])
            if case["ratio"] > worst["ratio"]:
                worst = case
        per_point.append({"point": point, "worst_ratio": best_here})
    worst = _local_search(spec, compiled, worst, rng, steps=8 if ctx.quick else 24)
    can_fail |= _can_fail(worst)
    return {"worst": worst, "per_point": per_point, "evaluations": len(points) * len(kinds),
            "uncertified_comparators": uncertified, "not_a_number": nan, "undefined": undefined,
            "could_fail": can_fail, "corners": corners}


def _can_fail(case: dict[str, Any]) -> bool:
    """Whether the sequence of ``case`` could have violated its bound: its trivial regret cap exceeds the bound by
    more than rounding (a cap equal to the bound, as for a proper learner whose predictions reach B R, cannot)."""
    return "cap" in case and case["cap"] > case["bound"] + 1e-9 * max(1.0, abs(case["bound"]))


def _evaluate(spec, compiled, point, kind, rng, labels=None) -> dict[str, Any]:
    from reference.certify import CertificationError

    try:
        learner, _ = _learner(spec, compiled, point)
        X, Y = _sequence(kind, learner, int(point["n"]), int(point["d"]), Fraction(point.get("R", 1)), rng, labels)
        r = regret(spec, compiled, point, X, Y)
    except CertificationError as exc:
        return {"ratio": -math.inf, "point": point, "kind": kind, "uncertified": str(exc)}
    except Undefined as exc:
        return {"ratio": math.nan, "point": point, "kind": kind, "undefined": str(exc)}
    except (ValueError, ArithmeticError) as exc:  # the learner refused the hunt's input, or its arithmetic failed
        shown = ", ".join(f"{k} = {v}" for k, v in point.items())
        return {"ratio": math.nan, "point": point, "kind": kind,
                "undefined": f"{spec.learner} on a {kind} sequence at {shown}: {type(exc).__name__}: {exc}"}
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
    if set(point) != set(compiled["ranges"]):
        return False, {"reason": f"the point names {sorted(point)}, the claim declares {sorted(compiled['ranges'])}"}
    for k, (lo, hi) in compiled["ranges"].items():
        if not lo <= point[k] <= hi or (k in _INTS and point[k].denominator != 1):
            return False, {"reason": f"parameter {k} = {point[k]} outside its declared range [{lo}, {hi}]"
                                     + (" or not an integer" if k in _INTS else "")}
    X = np.array([[float.fromhex(v) for v in row] for row in rep["X"]])
    Y = np.array([float(v) for v in rep["Y"]])
    if X.shape != (int(point["n"]), int(point["d"])) or not np.all(np.abs(Y) == 1):
        return False, {"reason": "sequence does not match n, d, or labels are not +-1"}
    R2 = Fraction(point.get("R", 1)) ** 2
    if any(sum(Fraction(float(v)) ** 2 for v in row) > R2 for row in X):  # exactly: floats are binary rationals
        return False, {"reason": "a feature vector is longer than R"}
    learner, _ = _learner(spec, compiled, point)
    preds = learner.run(X, Y)
    theta = np.array([float.fromhex(v) for v in rep["theta"]])
    ok, details = confirm(spec, {"point": point, "X": X, "Y": Y, "preds": preds, "theta": theta})
    return ok, {"checked": "learner re-run on the stored sequence; regret lower bound vs bound at 50 digits",
                **details}


def _integer_coverage(ranges: dict[str, tuple[Fraction, Fraction]], per_point: list[dict[str, Any]]) -> dict:
    """How many of the values of n and d the hunt ran ("31 of 200"): a bound false at one value left out is not
    seen (a hunt samples, it does not enumerate)."""
    return {name: f"{len({int(p['point'][name]) for p in per_point})} of {int(hi - lo) + 1}"
            for name, (lo, hi) in ranges.items() if name in _INTS}


def decide(spec: DeclaredBound, ctx: Context, claim_id: str) -> Outcome:
    """The verdict of a declared regret bound."""
    import zlib

    seed = (ctx.seed ^ zlib.crc32(claim_id.encode())) & 0x7FFFFFFF
    res = hunt(spec, ctx, seed)
    worst = res["worst"]
    ev = {"learner": spec.learner, "bound": spec.bound, "params": {k: list(v) for k, v in spec.params.items()},
          "evaluations": res["evaluations"], "uncertified_comparators": res["uncertified_comparators"],
          "regret_or_bound_not_a_number": res["not_a_number"],
          "could_fail": res["could_fail"],
          "seed": seed, "worst_ratio": worst["ratio"],
          "corners_of_the_ranges_tried": f"{res['corners'][0]} of {res['corners'][1]}",
          "worst_point": {k: str(v) for k, v in worst.get("point", {}).items()}, "worst_sequence": worst.get("kind"),
          "parameter_points": len(res["per_point"]),
          "integer_values_tried": _integer_coverage(spec.compiled()["ranges"], res["per_point"]),
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
    if res["undefined"]:
        ev["untested"] = res["undefined"][:3]
        ev["reason"] = (f"{len(res['undefined'])} sequence(s) could not be tested (the bound or a learner argument is "
                        "not a finite real number there, or the learner refused its arguments or inputs): the "
                        "statement is not defined, or not checkable, on the whole declared range")
        return Outcome("inconclusive", method, ev)
    if res["uncertified_comparators"] or res["not_a_number"]:
        ev["reason"] = ("a sequence whose comparator could not be certified, or whose regret or bound is NaN, was "
                        "not tested: a violation there is neither confirmed nor dismissed")
        return Outcome("inconclusive", method, ev)
    if not res["could_fail"]:
        ev["reason"] = ("vacuous on what was tried: at every parameter point the bound is at least n (log(1 + e^P) - "
                        "log(1 + e^{-BR})), P the largest |prediction| of the sequence, which no sequence with those "
                        "predictions can exceed: the hunt could not fail, so it shows nothing")
        return Outcome("inconclusive", method, ev)
    return Outcome("verified", method, ev)

"""The hypothesis space of every hunted bound: its free parameters, their ranges as printed, and a map
of the worst regret/bound ratio found per region of that space.

A bound is a statement for *all* parameter values its hypotheses allow, so a hunt draws the
parameters together with the sequence.  Each :class:`Param` is one free parameter:

- ``scale="log"``: an open end (``B in (0, inf)``) searched log-uniformly over ``[lo, hi]`` (>= 4
  decades), with ``offset`` for a strict lower limit other than 0 (``alpha > 9/8`` is searched as
  ``alpha - 9/8 in [1e-3, 1e3]``);
- ``scale="int"``: an integer (``n``, ``d``) searched log-uniformly on ``[lo, hi]``;
- ``boundary``: the boundary values the hypotheses allow (``n = 1``, ``d = 1``, ``eps = 0``, ``D = 2``),
  always tried;
- ``probes``: for an integer range cut for cost (``n``, ``d``), values far beyond it (``n = 10^4``,
  ``d = 10^4``), each tried by :func:`~olr_verify.hunting.optimisers.probe` at the default point and at the
  hunt's worst point with every adversary, on an allowance of work of their own.

``fixed`` lists the parameters a statement ties down (``lam = 1/B^2`` in eq. (4)) and ``capped`` the
ranges cut below the printed ones, each with its reason.  :class:`RegionMap` records every
evaluation ``(params, ratio)`` and reports the worst ratio per bin of every parameter, the two most
influential parameters (largest spread of the per-bin worst ratio) and a heat map over them.

>>> from olr_verify.hunting import bounds  # loads the spaces the papers declare
>>> sp = SPACES["002:theorem-3.4"]
>>> sorted(p.name for p in sp.params)
['alpha', 'd', 'n']
>>> sp.param("alpha").decades() >= 4
True
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class Param:
    """One free parameter of a bound: range searched, scale, allowed boundary values, where it comes from."""

    name: str
    lo: float
    hi: float
    scale: str = "log"              # "log" | "int"
    offset: float = 0.0             # searched as (value - offset) on a log scale
    boundary: tuple = ()
    printed: str = ""               # the range as the paper states it
    probes: tuple = ()              # values beyond ``hi`` tried by dedicated probes (optimisers.probe)
    costly_probes: tuple = ()       # those of ``probes`` tried at the default point only (their sequences are slow)

    def decades(self) -> float:
        lo = max(self.lo - self.offset, 1.0 if self.scale == "int" else 1e-300)
        return math.log10((self.hi - self.offset) / lo)

    def from_unit(self, u: float) -> Any:
        """The value at position u in [0, 1] of the (log) range (the ends exactly)."""
        if u <= 0 or u >= 1:
            return self.lo if u <= 0 else self.hi
        a, b = math.log(max(self.lo - self.offset, 1e-300)), math.log(self.hi - self.offset)
        v = self.offset + math.exp(a + u * (b - a))
        if self.scale == "int":
            return int(min(max(round(v), self.lo), self.hi))
        return float(min(max(v, self.lo), self.hi))

    def to_unit(self, v: Any) -> float:
        a, b = math.log(max(self.lo - self.offset, 1e-300)), math.log(self.hi - self.offset)
        x = max(float(v) - self.offset, 1e-300)
        return float(np.clip((math.log(x) - a) / (b - a), 0.0, 1.0)) if b > a else 0.0

    def perturb(self, v: Any, rng: np.random.Generator, sigma: float) -> Any:
        """A move of about ``sigma`` of the range (in log units); integers move by at least one."""
        new = self.from_unit(float(np.clip(self.to_unit(v) + sigma * rng.normal(), 0.0, 1.0)))
        if self.scale == "int" and new == v:
            new = int(min(max(int(v) + int(rng.choice([-1, 1])), self.lo), self.hi))
        return new


@dataclasses.dataclass(frozen=True)
class Space:
    params: tuple
    fixed: dict = dataclasses.field(default_factory=dict)     # name -> reason
    capped: dict = dataclasses.field(default_factory=dict)    # name -> reason the searched range is cut
    max_r2_over_lam: float | None = None                      # cost limit of Algorithm 2 (Theorem 4)

    def admissible(self, point: dict) -> dict:
        """The point moved into the searched region (only Theorem 4: lam raised to R^2 / max_r2_over_lam)."""
        if self.max_r2_over_lam is None or "R" not in point or "lam" not in point:
            return point
        return {**point, "lam": max(float(point["lam"]), float(point["R"]) ** 2 / self.max_r2_over_lam)}

    def param(self, name: str) -> Param:
        return next(p for p in self.params if p.name == name)

    def free(self, pinned: dict | None = None) -> tuple:
        return tuple(p for p in self.params if p.name not in (pinned or {}))

    def sample(self, rng: np.random.Generator, pinned: dict | None = None) -> dict:
        return {p.name: p.from_unit(float(rng.random())) for p in self.free(pinned)}

    def boundary_points(self, pinned: dict | None = None) -> list[dict]:
        """All parameters at their lower ends (tiny n, d = 1, ...), then each end of each parameter alone."""
        free = self.free(pinned)
        low = {p.name: (p.boundary[0] if p.boundary else p.lo) for p in free}
        pts = [low]
        for p in free:
            for v in (*p.boundary, p.lo, p.hi):
                pts.append({p.name: v})
        return pts

    def describe(self, pinned: dict | None = None) -> dict:
        out = {}
        for p in self.params:
            if pinned and p.name in pinned:
                continue
            out[p.name] = {"printed": p.printed, "searched": [p.lo, p.hi], "scale": p.scale + "-uniform"
                           if p.scale == "log" else "integer, log-uniform", "decades": round(p.decades(), 2),
                           "boundary_values": list(p.boundary)}
            if p.offset:
                out[p.name]["searched_as"] = f"{p.name} - {p.offset:g} log-uniform"
            if p.probes:
                out[p.name]["probes"] = list(p.probes)
                if p.costly_probes:
                    out[p.name]["probed_at_the_default_point_only"] = list(p.costly_probes)
                out[p.name]["decades_with_probes"] = round(math.log10(max(p.probes) / max(p.lo, 1)), 2)
        return out


# --------------------------------------------------------------------------- the spaces, as printed
#: claim id -> its space. The spaces are data: ``[hunt_space.<name>]`` tables of the seed papers' paper.toml,
#: named by a ``[claim.hunt]`` table or by a bound hunted in Python (``Target.space``); :mod:`bounds` fills this.
SPACES: dict[str, Space] = {}


_PARAM_FIELDS = {"lo", "hi", "scale", "offset", "boundary", "printed", "probes", "costly_probes"}
_SPACE_FIELDS = {"params", "fixed", "capped", "max_r2_over_lam"}


def space_from_toml(table: Any, where: str) -> Space:
    """A ``[hunt_space.<name>]`` table of a paper.toml (docs/claims.md): ``params`` in search order, each
    ``{ lo, hi, scale = "log" | "int", offset, boundary, printed, probes, costly_probes }``, and the ``fixed`` and
    ``capped`` parameters with their reasons."""
    def number(v: Any, what: str) -> float:
        if type(v) not in (int, float) or not math.isfinite(v):
            raise ValueError(f"{where}: {what} must be a finite number, got {v!r}")
        return v

    def reasons(v: Any, what: str) -> dict:
        if not (isinstance(v, dict) and all(isinstance(r, str) and r.strip() for r in v.values())):
            raise ValueError(f"{where}: {what} must be a table of reasons (strings)")
        return dict(v)

    if (not isinstance(table, dict) or set(table) - _SPACE_FIELDS or not isinstance(table.get("params"), dict)
            or not table["params"]):
        raise ValueError(f"{where}: a hunt space is a table with params (and fixed, capped, max_r2_over_lam)")
    params = []
    for name, spec in table["params"].items():
        at = f"params.{name}"
        if not isinstance(spec, dict) or set(spec) - _PARAM_FIELDS or not {"lo", "hi"} <= set(spec):
            raise ValueError(f"{where}: {at} must be {{ lo, hi, ... }} with fields among {sorted(_PARAM_FIELDS)}")
        lo, hi = number(spec["lo"], at + ".lo"), number(spec["hi"], at + ".hi")
        scale, offset = spec.get("scale", "log"), number(spec.get("offset", 0.0), at + ".offset")
        if scale not in ("log", "int") or not offset < lo <= hi or (scale == "int" and lo < 1):
            raise ValueError(f"{where}: {at}: need scale log or int and offset < lo <= hi (lo >= 1 for int)")
        if scale == "int" and not (float(lo).is_integer() and float(hi).is_integer()):
            raise ValueError(f"{where}: {at}: an integer parameter has integer ends")
        if not all(isinstance(spec.get(k, []), list) for k in ("boundary", "probes", "costly_probes")):
            raise ValueError(f"{where}: {at}: boundary, probes and costly_probes are lists of numbers")
        lists = {k: tuple(number(v, f"{at}.{k}") for v in spec.get(k, [])) for k in
                 ("boundary", "probes", "costly_probes")}
        if not all(offset <= v <= hi for v in lists["boundary"]):
            raise ValueError(f"{where}: {at}.boundary values lie in [offset, hi] (the limits the hypotheses allow)")
        if not all(v > hi for v in lists["probes"]):
            raise ValueError(f"{where}: {at}.probes are values beyond hi (the searched range's cut)")
        if not set(lists["costly_probes"]) <= set(lists["probes"]):
            raise ValueError(f"{where}: {at}.costly_probes must be among its probes")
        if not isinstance(spec.get("printed", ""), str):
            raise ValueError(f"{where}: {at}.printed is the range as printed (a string)")
        params.append(Param(name, lo, hi, scale, offset, lists["boundary"], spec.get("printed", ""),
                            lists["probes"], lists["costly_probes"]))
    limit = table.get("max_r2_over_lam")
    if limit is not None and not number(limit, "max_r2_over_lam") > 0:
        raise ValueError(f"{where}: max_r2_over_lam must be > 0")
    fixed = reasons(table.get("fixed", {}), "fixed")
    if set(fixed) & {p.name for p in params}:
        raise ValueError(f"{where}: {sorted(set(fixed) & {p.name for p in params})} both searched and fixed")
    return Space(tuple(params), fixed, reasons(table.get("capped", {}), "capped"),
                 None if limit is None else number(limit, "max_r2_over_lam"))


def space_for(claim: str) -> Space | None:
    """The space of a claim; a planted variant ``planted:<claim>@...`` uses its original's."""
    if claim.startswith("planted:"):
        claim = claim[len("planted:"):].rsplit("@", 1)[0]
    return SPACES.get(claim)


# --------------------------------------------------------------------------- region map
@dataclasses.dataclass
class RegionMap:
    """Every evaluation's parameters and ratio; worst ratio per region and a heat map over two parameters."""

    space: Space
    pinned: dict
    bins: int = 6
    points: list = dataclasses.field(default_factory=list)     # (unit coordinates, ratio, params)
    failed: int = 0

    def add(self, params: dict, r: float) -> None:
        if not math.isfinite(r):
            self.failed += 1
            return
        free = self.space.free(self.pinned)
        self.points.append((tuple(p.to_unit(params[p.name]) for p in free), r,
                            {p.name: params[p.name] for p in free}))

    def cell(self, params: dict) -> tuple:
        """The region (bin of every free parameter) holding ``params``."""
        return tuple(self._bin(p.to_unit(params[p.name])) for p in self.space.free(self.pinned))

    def _bin(self, u: float) -> int:
        return min(int(u * self.bins), self.bins - 1)

    def _edges(self, p: Param) -> list:
        return [p.from_unit(i / self.bins) for i in range(self.bins + 1)]

    def per_parameter(self) -> dict:
        """For each free parameter: per bin of its range, the worst ratio and the number of evaluations."""
        out = {}
        for j, p in enumerate(self.space.free(self.pinned)):
            edges = self._edges(p)
            worst: dict[int, list] = {}
            for u, r, _ in self.points:
                b = self._bin(u[j])
                worst.setdefault(b, []).append(r)
            out[p.name] = [{"range": [_fmt(edges[b]), _fmt(edges[b + 1])], "worst_ratio": round(max(rs), 6),
                            "evaluations": len(rs)} for b, rs in sorted(worst.items())]
        return out

    def explored(self) -> dict:
        out = {}
        for p in self.space.free(self.pinned):
            vals = [params[p.name] for _, _, params in self.points]
            if vals:
                lo, hi = min(vals), max(vals)
                dec = math.log10(max(hi - p.offset, 1e-300) / max(lo - p.offset, 1e-300)) if lo - p.offset > 0 else None
                out[p.name] = {"min": _fmt(lo), "max": _fmt(hi),
                               "decades": None if dec is None else round(dec, 2),
                               "boundary_values_hit": [b for b in p.boundary if any(v == b for v in vals)]}
        return out

    def influence(self) -> list[tuple[str, float]]:
        """Free parameters by the spread (max - min) of their per-bin worst ratio, largest first."""
        spread = []
        for name, rows in self.per_parameter().items():
            rs = [row["worst_ratio"] for row in rows]
            spread.append((name, (max(rs) - min(rs)) if len(rs) > 1 else 0.0))
        return sorted(spread, key=lambda s: -s[1])

    def grid(self, a: str, b: str) -> np.ndarray:
        """Worst ratio per cell of the (a, b) plane (NaN where nothing was evaluated)."""
        names = [p.name for p in self.space.free(self.pinned)]
        ia, ib = names.index(a), names.index(b)
        G = np.full((self.bins, self.bins), np.nan)
        for u, r, _ in self.points:
            i, j = self._bin(u[ib]), self._bin(u[ia])
            G[i, j] = r if np.isnan(G[i, j]) else max(G[i, j], r)
        return G

    def heatmap(self, path, title: str) -> list[str] | None:
        """Save the heat map over the two most influential parameters; returns their names (None if < 2)."""
        ranked = [n for n, _ in self.influence()]
        if len(ranked) < 2 or not self.points:
            return None
        a, b = ranked[0], ranked[1]
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        G = self.grid(a, b)
        fig, ax = plt.subplots(figsize=(5, 3.8))
        vmax = max(1.0, float(np.nanmax(G)))
        im = ax.imshow(G, origin="lower", cmap="viridis", vmin=min(0.0, float(np.nanmin(G))), vmax=vmax,
                       aspect="auto")
        pa, pb = self.space.param(a), self.space.param(b)
        ticks = np.arange(self.bins + 1) - 0.5
        ax.set_xticks(ticks, [_fmt(v) for v in self._edges(pa)], fontsize=6, rotation=45)
        ax.set_yticks(ticks, [_fmt(v) for v in self._edges(pb)], fontsize=6)
        ax.set_xlabel(a + (f" (log scale, {pa.printed})" if pa.printed else ""), fontsize=8)
        ax.set_ylabel(b + (f" (log scale, {pb.printed})" if pb.printed else ""), fontsize=8)
        for i in range(self.bins):
            for j in range(self.bins):
                if np.isnan(G[i, j]):
                    ax.text(j, i, "-", ha="center", va="center", fontsize=6, color="gray")
        fig.colorbar(im, ax=ax, label="worst regret / bound")
        ax.set_title(title, fontsize=8)
        fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        return [a, b]


def _fmt(v: Any) -> Any:
    return v if isinstance(v, int) else float(f"{float(v):.3g}")

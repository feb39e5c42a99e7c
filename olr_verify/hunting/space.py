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

>>> sp = SPACES["000:theorem-1"]
>>> sorted(p.name for p in sp.params)
['B', 'R', 'd', 'lam', 'n']
>>> sp.param("B").decades() >= 4
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
def _n(hi: int, probes: tuple = (1_000, 10_000), costly: tuple = ()) -> Param:
    return Param("n", 1, hi, "int", boundary=(1, 2), printed="n >= 1", probes=probes, costly_probes=costly)


_D_OF_X = Param("d", 1, 4, "int", boundary=(1,), printed="d >= 1", probes=(16, 64, 1_000, 10_000))
_POS = "in (0, inf)"
_B, _R, _LAM = (Param(k, 1e-3, 1e3, printed=f"{k} {_POS}") for k in ("B", "R", "lam"))
_CAP_N = ("n searched up to {hi} and d up to 4: the cost of one sequence grows with n d^2; n = 1e3, 1e4 and "
          "d = 16, 64, 1e3, 1e4 are probed (default point and the hunt's worst point, every adversary). Where d > n "
          "a probe runs AIOLI and 002's Algorithm 2 exactly in the n-dimensional span of the inputs (they are "
          "rotation-equivariant, so no sequence of R^d is lost: their n rounds see d only through the bound, which "
          "for 000's bounds grows with d, so d = n is the hardest case and the large-d probes confirm it), and 002's "
          "coordinate-wise Algorithm 1 at the full d on inputs supported on n coordinates (only such sequences are "
          "probed there)")
_S000 = Space((_D_OF_X, _n(80), _B, _R, _LAM), capped={"n, d": _CAP_N.format(hi=80)})
_ALPHA = Param("alpha", 9 / 8 + 1e-3, 9 / 8 + 1e3, offset=9 / 8, printed="alpha > 9/8",
               boundary=(9 / 8 + 1e-3,))
_CAP_ALPHA = ("alpha - 9/8 >= 1e-3: kappa(alpha) = exp(1/(2(alpha - 9/8))) overflows float64 below "
              "about 1.4e-3")
_S002 = Space((_D_OF_X, _n(60), _ALPHA), capped={"alpha": _CAP_ALPHA, "n, d": _CAP_N.format(hi=60)})
_S003 = Space((_n(300), Param("D", 2.0, 2e4, printed="D >= 2", boundary=(2.0,))),
              fixed={"eta": "eta = T^{-1/3} by the statement (Theorem 9)"},
              capped={"n": "T searched up to 300 (one-dimensional FTRL, cost linear in T); T = 1e3, 1e4 probed"})

SPACES: dict[str, Space] = {
    "000:theorem-1": _S000,
    "000:equation-4": Space((_D_OF_X, _n(80), _B, _R), fixed={"lam": "lam = 1/B^2 by the statement of eq. (4)"},
                            capped=_S000.capped),
    "000:theorem-7": Space((*_S000.params, Param("eps", 1e-6, 1e2, printed="eps >= 0", boundary=(0.0,))),
                           fixed={"u_t": "the adversary picks the directions u_t (||u_t|| <= 1) with the sequence"},
                           capped=_S000.capped),
    "000:theorem-4": Space((_D_OF_X, _n(30, probes=(300, 10_000), costly=(10_000,)), _B, _R, _LAM),
                           capped={"R, lam, n": "Algorithm 2 runs T >= (4 + R^2/lam) log(R t / (eps sqrt(lam))) "
                                                "gradient steps per round: the search keeps R^2/lam <= 10 (lam is "
                                                "raised to R^2/10 where needed) and n <= 30 (n = 300 and 1e4 probed, "
                                                "1e4 at the default point only: a round costs O(t) gradient "
                                                "steps)"},
                           max_r2_over_lam=10.0),
    **{c: _S000 for c in ("000:lemma-10", "000:theorem-7/b1-chain", "000:theorem-7/b1-zt-bound",
                          "000:equation-21", "000:equation-22")},
    **{c: _S002 for c in ("002:theorem-3.4", "002:lemma-3.3", "002:lemma-4.3", "002:lemma-4.3/corrected",
                          "002:theorem-4.5", "002:theorem-4.5/corrected")},
    "002:lemma-4.4": Space((_D_OF_X, _n(60)), fixed={"alpha": "the statement involves only x_1..x_T"},
                           capped={"n, d": _CAP_N.format(hi=60)}),
    **{c: _S003 for c in ("003:theorem-9", "003:theorem-9/explicit", "003:equation-13", "003:lemma-11",
                          "003:lemma-13")},
}


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

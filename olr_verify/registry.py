"""The claim registry: every printed statement of the five papers, and the check that decides it.

Claims are declared as data in ``olr_verify/claims/s<seed>.toml`` (one file per paper, in printed
order); checks are Python functions attached to a claim id with :func:`check`::

    from olr_verify.registry import check

    @check("002:lemma-a.1")
    def lemma_a1(ctx):
        ...
        return Outcome("proved", "arb branch-and-bound", {...})

A claim without a check is reported ``inconclusive`` with the reason "no check yet".
"""
from __future__ import annotations

import dataclasses
import fnmatch
import importlib
import pkgutil
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Callable

from olr_verify.outcome import Context, Outcome

CLAIMS_DIR = Path(__file__).parent / "claims"
SEEDS = ("000", "001", "002", "003", "004")
KINDS = ("lemma", "theorem", "proposition", "corollary", "assumption", "equation",
         "algorithm", "table", "figure", "claim")
ID_RE = re.compile(r"^(?P<seed>00[0-4]):(?P<kind>[a-z]+)-(?P<number>[0-9a-z.]+)(?:/(?P<part>[0-9a-z.\-/]+))?$")

CheckFn = Callable[[Context], Outcome]
_CHECKS: dict[str, CheckFn] = {}


@dataclasses.dataclass(frozen=True)
class Paper:
    seed: str
    title: str
    authors: str
    notes: str = ""


@dataclasses.dataclass(frozen=True)
class Claim:
    """One printed statement (or a sub-claim ``parent/part`` of one)."""

    id: str
    title: str
    check_kind: str
    source: str
    statement: str
    domain: str = ""
    notes: str = ""
    variant_of: str = ""  # set on a corrected variant: the id of the printed claim it corrects

    @property
    def seed(self) -> str:
        return self.id[:3]

    @property
    def kind(self) -> str:
        return ID_RE.match(self.id)["kind"]

    @property
    def parent(self) -> str | None:
        return self.id.split("/", 1)[0] if "/" in self.id else None

    @property
    def check(self) -> CheckFn | None:
        load_checks()
        return _CHECKS.get(self.id)


def validate_id(claim_id: str) -> None:
    m = ID_RE.match(claim_id)
    if m is None or m["kind"] not in KINDS:
        raise ValueError(f"claim id {claim_id!r} does not follow <seed>:<kind>-<number>[/<part>]")


def check(claim_id: str) -> Callable[[CheckFn], CheckFn]:
    """Decorator attaching a check function to a registered claim id."""
    validate_id(claim_id)

    def register(fn: CheckFn) -> CheckFn:
        if claim_id in _CHECKS and _CHECKS[claim_id] is not fn:
            raise ValueError(f"two checks registered for {claim_id!r}")
        _CHECKS[claim_id] = fn
        return fn

    return register


@cache
def load_checks() -> None:
    """Import every module of :mod:`olr_verify.checks` so their decorators run."""
    import olr_verify.checks as pkg

    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(info.name)


def _read_toml(path: Path) -> tuple[Paper | None, list[Claim]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    paper = Paper(**data["paper"]) if "paper" in data else None
    claims = [Claim(**entry) for entry in data.get("claim", [])]
    for c in claims:
        validate_id(c.id)
        if paper is not None and c.seed != paper.seed:
            raise ValueError(f"{path.name}: claim {c.id} is not of seed {paper.seed}")
    return paper, claims


def _claim_files() -> list[Path]:
    """The papers' lists (``s000.toml`` ...) first, then added claims (``extra_*.toml``)."""
    return sorted(CLAIMS_DIR.glob("s*.toml")) + sorted(CLAIMS_DIR.glob("extra_*.toml"))


@cache
def papers() -> dict[str, Paper]:
    found = (_read_toml(f)[0] for f in sorted(CLAIMS_DIR.glob("s*.toml")))
    return {p.seed: p for p in found if p is not None}


@cache
def claims() -> tuple[Claim, ...]:
    """All registered claims, in seed and printed order; ids are unique.

    A claim added in an ``extra_*.toml`` file (a corrected variant, a further proof step) is
    placed right after the last claim of its family (same parent, or the claim it corrects).
    """
    ordered: list[Claim] = []
    for f in _claim_files():
        for c in _read_toml(f)[1]:
            anchor = c.variant_of or c.parent or c.id.split("/", 1)[0]
            family = [i for i, o in enumerate(ordered) if o.id == anchor or o.id.startswith(anchor + "/")]
            if family and f.name.startswith("extra_"):
                ordered.insert(family[-1] + 1, c)
            elif f.name.startswith("extra_"):
                same_seed = [i for i, o in enumerate(ordered) if o.seed == c.seed]
                ordered.insert(same_seed[-1] + 1 if same_seed else len(ordered), c)
            else:
                ordered.append(c)
    seen: set[str] = set()
    for c in ordered:
        if c.id in seen:
            raise ValueError(f"claim id {c.id} registered twice")
        seen.add(c.id)
    load_checks()
    unknown = set(_CHECKS) - seen
    if unknown:
        raise ValueError(f"checks registered for unknown claim ids: {sorted(unknown)}")
    return tuple(ordered)


def get(claim_id: str) -> Claim:
    for c in claims():
        if c.id == claim_id:
            return c
    raise KeyError(claim_id)


def select(only: str | None = None, seed: str | None = None, kind: str | None = None) -> list[Claim]:
    """Claims whose id matches the glob ``only`` (an exact id also selects its parts)."""
    out = []
    for c in claims():
        if seed and c.seed != seed:
            continue
        if kind and c.kind != kind:
            continue
        if only and not (fnmatch.fnmatchcase(c.id, only) or c.parent == only):
            continue
        out.append(c)
    return out

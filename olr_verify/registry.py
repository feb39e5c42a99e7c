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
DEFECTS = ("substantive", "slip", "domain", "extraction")  # CONTRACT.md: the class of a refuted claim
ID_RE = re.compile(r"^(?P<seed>[a-z0-9][a-z0-9_-]*):(?P<kind>[a-z]+)-(?P<number>[0-9a-z.]+)(?:/(?P<part>[0-9a-z.\-/]+))?$")

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
    defect: str = ""  # when refuted: one of DEFECTS (a judgement on the paper, see olr_verify/summary.py)
    defect_reason: str = ""  # one sentence: why this class (for extraction: what our copy lost)
    defect_range: str = ""  # for a domain defect: the range in which the paper uses the statement
    depends_on: tuple[str, ...] = ()  # ids of the paper's results whose printed proofs use this claim

    def __post_init__(self) -> None:
        object.__setattr__(self, "depends_on", tuple(self.depends_on))
        if self.defect and self.defect not in DEFECTS:
            raise ValueError(f"claim {self.id}: defect must be one of {DEFECTS}, got {self.defect!r}")
        if self.defect and not self.defect_reason:
            raise ValueError(f"claim {self.id}: defect {self.defect!r} needs a defect_reason")

    @property
    def seed(self) -> str:
        """The paper's key: ``000`` ... ``004`` for the seeds, ``[paper] key`` for a paper folder."""
        return self.id.split(":", 1)[0]

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


_FOLDERS: list[tuple[Paper, list[Claim]]] = []  # papers added with add_paper(), in order


def add_paper(folder: str | Path) -> Paper:
    """Add the paper folder ``folder`` (``paper.toml`` + optional ``@check`` modules) to the registry.

    Declarative claims get their checks from :mod:`olr_verify.paper_folder`; the folder's Python modules are
    imported so that their ``@check`` functions register. Raises :class:`olr_verify.paper_folder.PaperError`.
    """
    from olr_verify import paper_folder

    meta, entries = paper_folder.read(folder)
    paper = Paper(seed=meta["key"], title=meta.get("title", ""), authors=meta.get("authors", ""),
                  notes=meta.get("notes", ""))
    if paper.seed in papers():
        raise paper_folder.PaperError(f"--paper {folder}: key {paper.seed!r} is already registered")
    fields = {f.name for f in dataclasses.fields(Claim)}
    found = []
    for entry in entries:
        where = f"{folder}/paper.toml: claim {entry['id']}"
        try:
            validate_id(entry["id"])
        except ValueError as exc:
            raise paper_folder.PaperError(f"{where}: {exc}") from None
        values = {k: v for k, v in entry.items() if k in fields and k != "domain"}
        values.setdefault("title", entry["id"].split(":", 1)[1])
        values.setdefault("source", str(folder))
        found.append(Claim(**values, domain=paper_folder.domain_text(entry)))
        if entry["check_kind"] in paper_folder.DECLARATIVE:
            check(entry["id"])(paper_folder.declarative_check(entry, where))
    paper_folder.import_modules(folder, paper.seed)
    _FOLDERS.append((paper, found))
    papers.cache_clear()
    claims.cache_clear()
    claims()  # ids unique, every check attached to a claim
    return paper


@cache
def papers() -> dict[str, Paper]:
    found = (_read_toml(f)[0] for f in sorted(CLAIMS_DIR.glob("s*.toml")))
    return {**{p.seed: p for p in found if p is not None}, **{p.seed: p for p, _ in _FOLDERS}}


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
    for _, folder_claims in _FOLDERS:
        ordered.extend(folder_claims)
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

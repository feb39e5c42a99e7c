"""The claim registry: every printed statement of the five papers, and the check that decides it.

A paper is a folder (docs/claims.md): ``paper.toml`` lists its claims in printed order, as data; a claim of a
declarative kind (scalar-inequality, identity, chain, regret-bound) is decided from its fields alone, the others
by Python functions attached to the claim id with :func:`check`::

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
from functools import cache
from pathlib import Path
from typing import Callable

from olr_verify.outcome import Context, Outcome

PAPERS_DIR = Path(__file__).parent / "papers"  # the seed papers, one folder each (s000_aioli ...)
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
    """Register every check: the declared claims of the seed folders, then the ``@check`` modules of
    :mod:`olr_verify.papers` (the seed folders) and of the shared :mod:`olr_verify.checks`."""
    import olr_verify.checks as shared
    import olr_verify.papers as seeds

    _seed_folders()
    for pkg in (seeds, shared):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            importlib.import_module(info.name)


def _load_folder(folder: Path, deferred: bool = False) -> tuple[Paper, list[Claim], dict[str, CheckFn]]:
    """One paper folder's ``paper.toml``: the paper, its claims, and the checks of its declared claims.

    The one loader of the registry: the five seed folders (``olr_verify/papers/s*``, ``deferred``: their
    expressions are read at each claim's first decision) and every ``--paper DIR`` (read whole now, so that a
    malformed folder is refused before anything runs) are read by it. Raises
    :class:`olr_verify.paper_folder.PaperError`.
    """
    from olr_verify import paper_folder

    meta, entries = paper_folder.read(folder)
    build = paper_folder.deferred_check if deferred else paper_folder.declarative_check
    paper = Paper(seed=meta["key"], title=meta.get("title", ""), authors=meta.get("authors", ""),
                  notes=meta.get("notes", ""))
    fields = {f.name for f in dataclasses.fields(Claim)}
    found, declared = [], {}
    for entry in entries:
        where = f"{folder}/paper.toml: claim {entry['id']}"
        try:
            validate_id(entry["id"])
            values = {k: v for k, v in entry.items() if k in fields and k != "domain"}
            values.setdefault("title", entry["id"].split(":", 1)[1])
            values.setdefault("source", str(folder))
            found.append(Claim(**values, domain=paper_folder.domain_text(entry)))
        except ValueError as exc:
            raise paper_folder.PaperError(f"{where}: {exc}") from None
        decide = build(entry, where)
        if decide is not None:
            declared[entry["id"]] = decide
    return paper, found, declared


@cache
def _seed_folders() -> tuple[tuple[Paper, tuple[Claim, ...]], ...]:
    """The seed papers shipped in the package (``olr_verify/papers/s*/paper.toml``), declared checks registered."""
    out = []
    for folder in sorted(p.parent for p in PAPERS_DIR.glob("s*/paper.toml")):
        paper, found, declared = _load_folder(folder, deferred=True)
        for claim_id, decide in declared.items():
            check(claim_id)(decide)
        out.append((paper, tuple(found)))
    return tuple(out)


_FOLDERS: list[tuple[Paper, list[Claim]]] = []  # papers added with add_paper(), in order


def add_paper(folder: str | Path, run_code: bool = False, listing: bool = False) -> Paper:
    """Add the paper folder ``folder`` (``paper.toml`` + optional ``@check`` modules) to the registry.

    Declarative claims get their checks from :mod:`olr_verify.paper_folder`. The folder's Python modules are
    code: they are imported (their ``@check`` functions register) only with ``run_code`` (``--allow-code``);
    without it a folder that has any is refused, unless ``listing`` (``olr-verify list``, which never runs a
    folder's code and shows its Python-checked claims as "no check"). Raises
    :class:`olr_verify.paper_folder.PaperError`.
    """
    from olr_verify import paper_folder

    modules = sorted(p.name for p in Path(folder).glob("*.py"))
    if modules and not (run_code or listing):
        raise paper_folder.PaperError(f"--paper {folder} holds Python code ({', '.join(modules[:3])}); it runs "
                                      "only with --allow-code, like any code you install")
    paper, found, declared = _load_folder(Path(folder))
    if paper.seed in papers():
        raise paper_folder.PaperError(f"--paper {folder}: key {paper.seed!r} is already registered")
    _distinct_files(found, folder)
    for claim_id, decide in declared.items():
        check(claim_id)(decide)
    if run_code:
        paper_folder.import_modules(folder, paper.seed)
    undecided = [c.id for c in found if c.check_kind in paper_folder.DECLARATIVE and c.id not in _CHECKS]
    if undecided and not listing:
        raise paper_folder.PaperError(f"{folder}/paper.toml: claim {undecided[0]} of a declarative check_kind needs "
                                      "its fields (relation, lhs and rhs, links, or learner and bound) or a @check")
    _FOLDERS.append((paper, found))
    papers.cache_clear()
    claims.cache_clear()
    claims()  # ids unique, every check attached to a claim
    return paper


def _distinct_files(found, folder) -> None:
    """Each claim gets its own artefact and certificate file (``artefacts.artefact_filename`` maps ``:`` to ``_``
    and ``/`` to ``__``, so keys with ``_`` can meet: ``a:lemma-1/claim-1`` and ``a_lemma-1_:claim-1``)."""
    from olr_verify import artefacts, paper_folder

    files = {artefacts.artefact_filename(c.id): c.id for c in claims()}
    for c in found:
        other = files.setdefault(artefacts.artefact_filename(c.id), c.id)
        if other != c.id:
            raise paper_folder.PaperError(f"--paper {folder}: claims {other} and {c.id} would share the artefact file "
                                          f"{artefacts.artefact_filename(c.id)}; rename one of them")


@cache
def papers() -> dict[str, Paper]:
    return {p.seed: p for p, _ in (*_seed_folders(), *_FOLDERS)}


@cache
def claims() -> tuple[Claim, ...]:
    """All registered claims: the seed folders' in their files' order, then the ``--paper`` folders'; ids unique."""
    ordered = [c for _, found in (*_seed_folders(), *_FOLDERS) for c in found]
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


def decide(claim_id: str, ctx: Context) -> Outcome:
    """The outcome of the registered check of ``claim_id``: how a check reuses another claim's verdict as one of
    its links, whether that claim is declared in a ``paper.toml`` or decided by a Python ``@check``. The check
    being computed records ``claim_id`` among its links (:func:`decided`)."""
    claim = get(claim_id)
    if claim.check is None:
        raise KeyError(f"decide: claim {claim_id!r} has no check")
    note_link(claim_id)
    return decided(claim, ctx)[0]


def note_link(claim_id: str) -> None:
    """Record ``claim_id`` among the links of the check being computed (a verdict read back from a cache too)."""
    if _LINKS:
        _LINKS[-1].append(claim_id)


SHARED_RUN = False  # set in the runner's check processes: each claim is decided once per run and (quick, seed)
_LINKS: list[list[str]] = []  # one frame per check being computed: the claims it decided


def decided(claim: Claim, ctx: Context) -> tuple[Outcome, list[str]]:
    """``claim.check(ctx)`` and the ids of the claims it decided (its links, in order, once each). Inside a run
    (:data:`SHARED_RUN`) computed once and shared by every process of the run (:func:`olr_verify.cache.shared`),
    so that a claim decided as another claim's link and on its own is one computation and one verdict. An outcome
    that cannot be pickled is returned unshared."""
    fn = claim.check
    computed: list = []

    def compute() -> tuple[Outcome, list[str]]:
        _LINKS.append([])
        try:
            computed.append((fn(ctx), list(dict.fromkeys(_LINKS[-1]))))
        finally:
            _LINKS.pop()
        return computed[0]

    if not SHARED_RUN:
        return compute()
    import pickle

    from olr_verify.cache import shared

    try:
        return shared(ctx, f"outcome-{claim.id}", compute)
    except (pickle.PicklingError, TypeError, AttributeError):
        if computed:
            return computed[0]
        raise


def dependents(ids: set[str], links: dict[str, list[str]]) -> set[str]:
    """The claims that reach one of ``ids`` through ``links`` (claim id -> the claims it decided), transitively."""
    found, grew = set(ids), True
    while grew:
        grew = False
        for claim_id, targets in links.items():
            if claim_id not in found and found.intersection(targets):
                found.add(claim_id)
                grew = True
    return found - set(ids)


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

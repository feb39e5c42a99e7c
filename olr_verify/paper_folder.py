"""A paper as a folder: ``paper.toml`` (claims as data) plus, only where needed, Python ``@check`` modules.

``olr-verify run --paper DIR`` and ``olr-verify list --paper DIR`` load such a folder (format in
``docs/claims.md``). Four check kinds are decided with no Python:

- ``scalar-inequality``: ``relation``, ``domain`` -> :func:`olr_verify.checks.scalar_common.inequality`;
- ``identity``: ``lhs``, ``rhs``, ``domain`` -> :func:`olr_verify.checks.scalar_common.identity`;
- ``chain``: ``links`` (each an inequality or an identity) -> refuted if any link is, else its weakest link;
- ``regret-bound``: ``learner``, ``learner_params``, ``bound``, ``params`` -> :mod:`olr_verify.hunting.declared`.

Every expression is read by :mod:`olr_verify.expr` (a whitelist; nothing is evaluated as Python). Python modules
(``*.py``) in the folder ARE run: they are the author's own checks, trusted like any code you install. A folder
with only ``paper.toml`` runs no code of its own.
"""
from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from typing import Any, Callable

from olr_verify.outcome import Context, Outcome

KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
DECLARATIVE = ("scalar-inequality", "identity", "chain", "regret-bound")
_CLAIM_FIELDS = {"id", "title", "check_kind", "statement", "source", "notes", "variant_of", "defect",
                 "defect_reason", "depends_on", "domain", "relation", "lhs", "rhs", "links", "learner",
                 "learner_params", "bound", "params"}
_PAPER_FIELDS = {"key", "title", "authors", "notes"}


class PaperError(ValueError):
    """A paper folder that cannot be loaded; the message names the file and the field."""


def read(folder: str | Path) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The ``[paper]`` table and the ``[[claim]]`` entries of ``folder/paper.toml``, validated."""
    path = Path(folder) / "paper.toml"
    if not path.is_file():
        raise PaperError(f"--paper {folder}: no paper.toml in that folder")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PaperError(f"{path}: not valid TOML ({exc})") from None
    paper = data.get("paper")
    if not isinstance(paper, dict):
        raise PaperError(f"{path}: needs a [paper] table with key, title, authors")
    unknown = set(paper) - _PAPER_FIELDS
    if unknown:
        raise PaperError(f"{path}: unknown [paper] field(s) {sorted(unknown)}")
    key = str(paper.get("key", ""))
    if not KEY_RE.match(key):
        raise PaperError(f"{path}: [paper] key {key!r} must match [a-z0-9][a-z0-9_-]*")
    entries = data.get("claim", [])
    if not isinstance(entries, list) or not entries:
        raise PaperError(f"{path}: no [[claim]] entries")
    for i, entry in enumerate(entries):
        where = f"{path}: claim {entry.get('id', '#' + str(i + 1))}"
        unknown = set(entry) - _CLAIM_FIELDS
        if unknown:
            raise PaperError(f"{where}: unknown field(s) {sorted(unknown)}")
        for field in ("id", "check_kind", "statement"):
            if not isinstance(entry.get(field), str) or not entry[field]:
                raise PaperError(f"{where}: needs {field!r} (a string)")
        if not entry["id"].startswith(key + ":"):
            raise PaperError(f"{where}: id must start with the paper key {key + ':'!r}")
    return {k: str(v) for k, v in paper.items()}, entries


def domain_of(value: Any, where: str) -> dict[str, tuple[str, str]]:
    """An ordered domain table ``{x = ["lo", "hi"], ...}``, checked with the safe reader."""
    from olr_verify.expr import parse_expr

    if not isinstance(value, dict) or not value:
        raise PaperError(f"{where}: domain must be a table {{ x = [\"lo\", \"hi\"] }}")
    out: dict[str, tuple[str, str]] = {}
    for name, bounds in value.items():
        if not (isinstance(bounds, list) and len(bounds) == 2):
            raise PaperError(f"{where}: domain.{name} must be [lo, hi]")
        lo, hi = (str(b) for b in bounds)
        for b in (lo, hi):
            try:
                parse_expr(b, list(out))
            except ValueError as exc:
                raise PaperError(f"{where}: domain.{name}: {exc}") from None
        out[name] = (lo, hi)
    return out


def _link(entry: dict[str, Any], where: str) -> Callable[[Context], Outcome]:
    """The decider of one inequality or identity entry."""
    from olr_verify.checks import scalar_common as sc
    from olr_verify.expr import parse_expr, parse_relation

    domain = domain_of(entry.get("domain"), where)
    names = list(domain)
    try:
        if "relation" in entry:
            relation = str(entry["relation"])
            parse_relation(relation, names)
            return lambda ctx: sc.inequality(relation, domain, ctx)
        if "lhs" in entry and "rhs" in entry:
            # plain (not real) symbols: scalar_common substitutes sample points by Symbol(name)
            lhs, rhs = (parse_expr(str(entry[k]), names, real=False) for k in ("lhs", "rhs"))
            return lambda ctx: sc.identity(lhs, rhs, domain, ctx)
    except ValueError as exc:
        raise PaperError(f"{where}: {exc}") from None
    raise PaperError(f"{where}: needs relation (an inequality) or lhs and rhs (an identity)")


def declarative_check(entry: dict[str, Any], where: str) -> Callable[[Context], Outcome]:
    """The check function of a declared claim (no Python in the paper folder)."""
    kind = entry["check_kind"]
    if kind in ("scalar-inequality", "identity"):
        if (kind == "identity") != ("relation" not in entry):
            raise PaperError(f"{where}: check_kind {kind!r} does not match its fields")
        return _link(entry, where)
    if kind == "chain":
        links = entry.get("links")
        if not isinstance(links, list) or not links:
            raise PaperError(f"{where}: a chain needs a non-empty list of links")
        deciders = [_link(link, f"{where}, link {i + 1}") for i, link in enumerate(links)]

        def chain(ctx: Context) -> Outcome:
            from olr_verify.checks.scalar_common import combine

            return combine([(f"link-{i + 1}", decide(ctx)) for i, decide in enumerate(deciders)])

        return chain
    if kind == "regret-bound":
        from olr_verify.hunting.declared import DeclaredBound, decide

        try:
            spec = DeclaredBound.from_toml(entry, where)
        except ValueError as exc:
            raise PaperError(str(exc)) from None
        return lambda ctx: decide(spec, ctx, entry["id"])
    raise PaperError(f"{where}: check_kind {kind!r} needs a Python @check in the folder "
                     f"(declarative kinds: {', '.join(DECLARATIVE)})")


def domain_text(entry: dict[str, Any]) -> str:
    """A one-line rendering of a declared domain for the report."""
    dom = entry.get("domain")
    if isinstance(dom, dict):
        return ", ".join(f"{k} ∈ [{v[0]}, {v[1]}]" for k, v in dom.items())
    if "params" in entry and isinstance(entry["params"], dict):
        return ", ".join(f"{k} ∈ [{v[0]}, {v[1]}]" for k, v in entry["params"].items())
    return str(dom or "")


def import_modules(folder: str | Path, key: str) -> None:
    """Import the folder's ``*.py`` modules (their ``@check`` decorators register checks)."""
    for path in sorted(Path(folder).glob("*.py")):
        name = f"olr_verify_paper_{re.sub('[^a-z0-9_]', '_', key)}_{path.stem}"
        if name in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)

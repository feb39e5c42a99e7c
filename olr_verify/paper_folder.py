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

import functools
import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from typing import Any, Callable

from olr_verify.outcome import Context, Outcome

KEY_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
DECLARATIVE = ("scalar-inequality", "identity", "chain", "regret-bound", "undecided")
_NODE_FIELDS = {"relation", "lhs", "rhs", "links", "domain", "label", "reading", "search_only", "prover_seconds",
                "what", "points", "method", "evidence", "restricted", "cited", "reconstruction", "symbols", "matrices",
                "let"}
#: Names an identity or a chain declares for itself and for the identities under it.
_SCOPED = ("symbols", "matrices", "let")
ASSUMPTIONS = ("positive", "nonnegative", "negative", "nonpositive", "real", "nonzero", "integer")


_PAPER_FIELDS = {"key", "title", "authors", "notes"}
_TEXT_FIELDS = ("title", "source", "notes", "variant_of", "defect", "defect_reason", "defect_range", "printed_domain")
#: The fields a claim decided as data may carry besides the common ones (id, title, text, defect, ...): a field of
#: another kind would be silently ignored (a relation on a regret bound, a learner on an inequality), so it is an
#: error. A claim of a declarative kind without any decision field waits for a Python @check and keeps its
#: ``domain`` as printed text.
_COMMON = {"id", "title", "check_kind", "statement", "source", "notes", "variant_of", "defect", "defect_reason",
           "defect_range", "depends_on", "printed_domain"}
_WRAPPERS = {"evidence", "restricted", "cited", "reconstruction"}
_INEQUALITY = {"relation", "domain", "reading", "search_only", "prover_seconds"} | _WRAPPERS
_IDENTITY = {"lhs", "rhs", "domain", "what", "points", "reading", *_SCOPED} | _WRAPPERS
_CHAIN = {"links", "method", *_SCOPED} | _WRAPPERS
_KIND_FIELDS = {"scalar-inequality": _INEQUALITY, "identity": _IDENTITY, "chain": _CHAIN,
                "regret-bound": {"learner", "learner_params", "bound", "params", "domain"},
                "undecided": {"inconclusive", "domain"}}
_CLAIM_FIELDS = _COMMON | _NODE_FIELDS | set().union(*_KIND_FIELDS.values()) | {"hunt"}
#: Kinds a ``[claim.hunt]`` table may decide (alone or in a "+" combination): a bound on a run of a learner.
_HUNT_KINDS = ("regret-bound", "per-round-inequality")
SEED_FOLDERS = Path(__file__).resolve().parent / "papers"
MAX_PROVER_SECONDS = 600


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
    bad = [k for k, v in paper.items() if not isinstance(v, str)]
    if bad:
        raise PaperError(f"{path}: [paper] {bad[0]} must be a string")
    key = paper.get("key", "")
    if not KEY_RE.fullmatch(key):  # fullmatch: "$" would accept a key ending in a newline
        raise PaperError(f"{path}: [paper] key {key!r} must match [a-z0-9][a-z0-9_-]*")
    unknown = set(data) - {"paper", "claim", "hunt_space"}
    if unknown:
        raise PaperError(f"{path}: unknown top-level table(s) {sorted(unknown)}")
    entries = data.get("claim", [])
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise PaperError(f"{path}: no [[claim]] entries")
    from olr_verify.registry import ID_RE

    ids = [e.get("id") for e in entries]
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
        if not ID_RE.fullmatch(entry["id"]):  # the registry's ID_RE.match would accept a trailing newline
            raise PaperError(f"{where}: claim id {entry['id']!r} does not follow <key>:<kind>-<number>[/<part>]")
        if ids.count(entry["id"]) > 1:
            raise PaperError(f"{where}: claim id {entry['id']} is declared twice")
        for field in _TEXT_FIELDS:
            if field in entry and not isinstance(entry[field], str):
                raise PaperError(f"{where}: {field} must be a string")
        _check_variant(entry, entries, where)
        _check_shapes(entry, where)
        if not all(d.startswith(key + ":") for d in entry.get("depends_on", [])):
            raise PaperError(f"{where}: depends_on names results of this paper (ids starting with {key + ':'!r})")
        stray = [d for d in entry.get("depends_on", []) if d not in ids]
        if stray:
            raise PaperError(f"{where}: depends_on {stray[0]!r} is not a claim of this paper.toml")
    _check_claim_links(entries, path)
    _check_hunts(data, path)
    return dict(paper), entries


def _check_variant(entry: dict[str, Any], entries: list[dict[str, Any]], where: str) -> None:
    """A variant (``variant_of``) is left out of its parent's printed parts, so it must be one: a statement below the
    claim it varies (``<id>/corrected``) or beside one that declares a ``defect`` (the reading it corrects), never
    itself. A printed part marked as a variant of a sibling would drop out of the parent's verdict."""
    target = entry.get("variant_of")
    if not target:
        return
    found = next((e for e in entries if e.get("id") == target), None)
    if found is None:
        raise PaperError(f"{where}: variant_of {target!r} is not a claim of this paper.toml")
    if target == entry["id"] or not (entry["id"].startswith(target + "/") or found.get("defect")):
        raise PaperError(f"{where}: variant_of {target!r}: a variant's id extends the claim it varies "
                         f"({target}/...), or that claim declares a defect")


def _check_hunts(data: dict[str, Any], path: Path) -> None:
    """``[claim.hunt]`` tables (and the ``[hunt_space.<name>]`` they name) are loaded as the hunting engine will."""
    hunted = [e for e in data.get("claim", []) if "hunt" in e]
    if not hunted and "hunt_space" not in data:
        return
    if path.resolve().parent.parent != SEED_FOLDERS:
        raise PaperError(f"{path}: [claim.hunt] and [hunt_space] tables are the seed papers' form (their artefacts "
                         "replay by claim id); a paper folder declares a bound with check_kind = \"regret-bound\" "
                         "and learner, learner_params, bound, params")
    for entry in hunted:
        where = f"{path}: claim {entry['id']}"
        if not any(k in _HUNT_KINDS for k in entry["check_kind"].split("+")):
            raise PaperError(f"{where}: a hunt decides a check_kind among {_HUNT_KINDS}")
        if any(f in entry for f in _DECISION_FIELDS if f != "hunt"):
            raise PaperError(f"{where}: hunt and the fields of another decider cannot be combined")
    try:  # the hunting engine loads every seed paper's tables when it is imported, and refuses a malformed one
        import olr_verify.hunting.bounds  # noqa: F401
    except ValueError as exc:
        raise PaperError(str(exc)) from None


def _check_shapes(entry: dict[str, Any], where: str) -> None:
    """The optional fields whose type the deciders rely on: ``depends_on`` a list of claim ids, ``points`` (of an
    identity or a link) a positive integer."""
    deps = entry.get("depends_on", [])
    if not (isinstance(deps, list) and all(isinstance(d, str) for d in deps)):
        raise PaperError(f"{where}: depends_on must be a list of claim ids (strings)")
    if "inconclusive" in entry:  # declared undecided, whatever its printed kind
        stray = set(entry) - _COMMON - _KIND_FIELDS["undecided"]
        if stray:
            raise PaperError(f"{where}: field(s) {sorted(stray)} do not apply to a claim declared inconclusive "
                             "(they would be ignored)")
        if not isinstance(entry.get("domain", ""), str):
            raise PaperError(f"{where}: domain of a claim declared inconclusive is printed text")
    elif entry["check_kind"] in _KIND_FIELDS and "hunt" not in entry and any(f in entry for f in _DECISION_FIELDS):
        stray = set(entry) - _COMMON - _KIND_FIELDS[entry["check_kind"]]
        if stray:
            raise PaperError(f"{where}: field(s) {sorted(stray)} do not apply to check_kind {entry['check_kind']!r} "
                             "(they would be ignored)")
        if entry["check_kind"] in ("regret-bound", "undecided") and not isinstance(entry.get("domain", ""), str):
            raise PaperError(f"{where}: domain of a {entry['check_kind']} claim is printed text")
    for node in _nodes(entry):
        points = node.get("points")
        if points is not None and not (type(points) is int and 1 <= points <= 10_000):
            raise PaperError(f"{where}: points must be an integer from 1 to 10000, got {points!r}")
        seconds = node.get("prover_seconds")
        if seconds is not None and not (type(seconds) in (int, float) and 0 < seconds <= MAX_PROVER_SECONDS):
            raise PaperError(f"{where}: prover_seconds must be a number of seconds in (0, {MAX_PROVER_SECONDS}], "
                             f"got {seconds!r}")
        if "search_only" in node and type(node["search_only"]) is not bool:
            raise PaperError(f"{where}: search_only must be true or false, got {node['search_only']!r}")
        for field in ("cited", "reconstruction", "label", "reading", "what", "method"):
            if field in node and not (isinstance(node[field], str) and node[field].strip()):
                raise PaperError(f"{where}: {field} must be a non-empty string, got {node[field]!r}")
        _check_restricted(node, where)
        links = node.get("links", [])
        if isinstance(links, list):
            labels = [str(link.get("label", f"link-{i + 1}")) for i, link in enumerate(links) if isinstance(link, dict)]
            if len(set(labels)) != len(labels):
                raise PaperError(f"{where}: two links of one chain have the same label (the evidence is by label)")


def _nodes(entry: dict[str, Any]):
    """``entry`` and every link under it, nested chains included (malformed ``links`` are skipped here: the
    decider reports them)."""
    nodes = [entry]
    while nodes:
        node = nodes.pop()
        yield node
        links = node.get("links", [])
        nodes += [link for link in links if isinstance(link, dict)] if isinstance(links, list) else []


def _claim_links(entry: dict[str, Any]) -> list[str]:
    """The ids named by ``{ claim = "..." }`` links anywhere under ``entry``."""
    return [node["claim"] for node in _nodes(entry) if "claim" in node]


def _check_claim_links(entries: list[dict[str, Any]], path: Path) -> None:
    """A ``{ claim = "ID" }`` link reuses the verdict of another claim of the same ``paper.toml``: naming a claim
    that is not there, or closing a cycle (a claim that, through its links, reuses itself), is an error."""
    graph = {e["id"]: _claim_links(e) for e in entries}
    for claim_id, targets in graph.items():
        bad = [t for t in targets if not isinstance(t, str) or t not in graph]
        if bad:
            raise PaperError(f"{path}: claim {claim_id}: link claim {bad[0]!r} is not a claim of this paper.toml")
    done: set[str] = set()
    for start in graph:
        path_ids, stack = [start], [iter(graph[start])]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                done.add(path_ids.pop())
                stack.pop()
            elif nxt in path_ids:
                raise PaperError(f"{path}: claim links form a cycle: {' -> '.join(path_ids + [nxt])}")
            elif nxt not in done:
                path_ids.append(nxt)
                stack.append(iter(graph[nxt]))


def domain_of(value: Any, where: str, empty_ok: bool = False) -> dict[str, tuple[str, str]]:
    """An ordered domain table ``{x = ["lo", "hi"], ...}``, checked with the safe reader (``{}`` only where
    ``empty_ok``: an identity of free symbols, decided exactly)."""
    from olr_verify.expr import check_variable_names, parse_expr

    if not isinstance(value, dict) or not (value or empty_ok):
        raise PaperError(f"{where}: domain must be a table {{ x = [\"lo\", \"hi\"] }}")
    try:
        check_variable_names(value)
    except ValueError as exc:
        raise PaperError(f"{where}: {exc}") from None
    out: dict[str, tuple[str, str]] = {}
    for name, bounds in value.items():
        if not (isinstance(bounds, list) and len(bounds) == 2):
            raise PaperError(f"{where}: domain.{name} must be [lo, hi]")
        lo, hi = (str(b) for b in bounds)
        ends = []
        for b in (lo, hi):
            try:
                ends.append(parse_expr(b, list(out)))
            except ValueError as exc:
                raise PaperError(f"{where}: domain.{name}: {exc}") from None
        _nonempty(name, *ends, where)
        out[name] = (lo, hi)
    return out


def _nonempty(name: str, lo, hi, where: str) -> None:
    """A range whose constant ends are in the wrong order is empty: every statement holds on it vacuously, so a
    typo would be reported ``verified`` or ``proved``. (Dependent ends are checked by the deciders.)"""
    import sympy as sp

    if lo == sp.oo or hi == -sp.oo:
        raise PaperError(f"{where}: domain.{name}: the range [{lo}, {hi}] is empty (lo = oo or hi = -oo)")
    if not (lo.free_symbols or hi.free_symbols) and bool(lo > hi):
        raise PaperError(f"{where}: domain.{name}: lo {lo} > hi {hi}: the range is empty")


def _check_restricted(node: dict[str, Any], where: str) -> dict[str, tuple[str, str]] | None:
    """``restricted = { proved_on = "...", printed = "..." }`` (non-empty texts), with an optional ``printed_table``
    (a domain table of the printed domain, for a relation only) on which the relation is decided as well: that
    table, read by :func:`domain_of`, or None."""
    restricted = node.get("restricted")
    if restricted is None:
        return None
    texts = {k: v for k, v in restricted.items() if k != "printed_table"} if isinstance(restricted, dict) else {}
    if not (isinstance(restricted, dict) and set(texts) == {"proved_on", "printed"}
            and all(isinstance(v, str) and v.strip() for v in texts.values())):
        raise PaperError(f"{where}: restricted must be {{ proved_on = \"...\", printed = \"...\" }} (non-empty), "
                         "with an optional printed_table")
    if "printed_table" not in restricted:
        return None
    if "relation" not in node or node.get("domain") == {}:
        raise PaperError(f"{where}: restricted.printed_table is for a relation on a domain table only")
    return domain_of(restricted["printed_table"], f"{where}: restricted.printed_table")


def _printed_table_check(entry: dict[str, Any], table: dict[str, tuple[str, str]] | None
                         ) -> Callable[[Context], Outcome] | None:
    """The relation decided on the printed domain ``table`` (``restricted.printed_table``), or None without one."""
    if table is None:
        return None
    from olr_verify.checks import scalar_common as sc

    relation, seconds = str(entry["relation"]), entry.get("prover_seconds")
    return lambda ctx: sc.inequality(relation, table, ctx, prover_seconds=seconds)


def _node(entry: dict[str, Any], where: str, link: bool = False,
          scope: dict[str, dict] | None = None) -> Callable[[Context], Outcome]:
    """The decider of one inequality, identity or chain (a claim, or a link of a chain), with its wrappers:
    ``restricted = { proved_on, printed }`` (a proof of less than the printed domain is ``verified``) and
    ``cited`` (one step is a citation, so at most ``verified``) and ``reconstruction`` (what is lost: the printed
    formula is not recoverable, so at most ``inconclusive``): :mod:`olr_verify.checks.verdicts`."""
    from olr_verify.checks import verdicts

    decide = _bare_node(entry, where, link, _scope(entry, where, scope or {}))
    extra = entry.get("evidence")
    if extra is not None:
        if not isinstance(extra, dict):
            raise PaperError(f"{where}: evidence must be a table")
        bare, decide = decide, lambda ctx: _with_evidence(bare(ctx), extra)
    restricted, cited = entry.get("restricted"), entry.get("cited")
    if restricted is not None:
        on_printed = _printed_table_check(entry, _check_restricted(entry, where))
        inner, decide = decide, lambda ctx: verdicts.on_printed_domain(
            inner(ctx), str(restricted["proved_on"]), str(restricted["printed"]),
            None if on_printed is None else on_printed(ctx))
    if cited is not None:
        inner_c, decide = decide, lambda ctx: verdicts.not_a_certificate(inner_c(ctx), str(cited))
    lost = entry.get("reconstruction")
    if lost is not None:
        inner_r, decide = decide, lambda ctx: verdicts.reconstruction_only(inner_r(ctx), str(lost))
    return decide


def _with_evidence(out: Outcome, extra: dict[str, Any]) -> Outcome:
    """``out`` with the declared extra evidence (notes, readings) added; the verdict is unchanged, and so is the
    evidence the decider computed: a declared key that it also wrote (``links``, ``counterexample``,
    ``search_points``...) is kept apart, under ``declared_evidence``, never in its place."""
    evidence = dict(out.evidence)
    for key, value in extra.items():
        if key in evidence:
            evidence.setdefault("declared_evidence", {})[key] = value
        else:
            evidence[key] = value
    return Outcome(out.status, out.method, evidence, out.counterexample, out.certificate)


def _scope(entry: dict[str, Any], where: str, outer: dict[str, dict]) -> dict[str, dict]:
    """The ``symbols``, ``matrices`` and ``let`` tables in force at ``entry``: its chain's, then its own (a name
    declared twice is an error: which of the two an identity means would not be visible)."""
    scope = {field: dict(outer.get(field, {})) for field in _SCOPED}
    for field in _SCOPED:
        table = entry.get(field, {})
        literal = _matrix_literal if field == "let" else (lambda v: False)
        if not isinstance(table, dict) or not all(isinstance(v, str) or literal(v) for v in table.values()):
            raise PaperError(f"{where}: {field} must be a table name -> text"
                             + (" or a matrix given by its rows ([[\"a\", \"b\"], [\"c\", \"d\"]])"
                                if field == "let" else ""))
        taken = set().union(*(scope[f] for f in _SCOPED))
        again = sorted(set(table) & taken)
        if again:
            raise PaperError(f"{where}: {field}.{again[0]} is already declared by an enclosing chain")
        scope[field].update(table)
    return scope


def _matrix_literal(value: Any) -> bool:
    """A ``let`` value that gives a matrix by its rows: a non-empty list of non-empty lists of texts or numbers."""
    return (isinstance(value, list) and bool(value) and all(isinstance(row, list) and row for row in value)
            and all(isinstance(v, (str, int)) and not isinstance(v, bool) for row in value for v in row))


def _bare_node(entry: dict[str, Any], where: str, link: bool,
               scope: dict[str, dict]) -> Callable[[Context], Outcome]:
    """The bare decider of a claim or link; only a link may be a ``claim`` reference, an undecided step
    (``inconclusive``: a cited or lost step, so the chain is at most inconclusive) or a constant fact."""
    from olr_verify.checks import scalar_common as sc
    from olr_verify.expr import parse_expr, parse_relation, same_text

    if link and "claim" in entry:
        _only(entry, {"claim", "label"}, "a claim link", where)
        target = str(entry["claim"])
        return lambda ctx: _claim_verdict(target, ctx)
    if link and "inconclusive" in entry:
        _only(entry, {"inconclusive", "label"}, "an undecided link", where)
        return _undecided(entry["inconclusive"], where)
    if "relation" in entry and entry.get("domain") == {}:
        if not link:
            raise PaperError(f"{where}: a relation with domain = {{}} (a fact between constants) is a link of a "
                             "chain, not a claim; a claim's domain must be a table {{ x = [\"lo\", \"hi\"] }}")
        _only(entry, {"relation", "domain", "label", "evidence", "cited", "restricted"}, "a constant fact", where)
        return _constant_fact(str(entry["relation"]), where)
    if "links" in entry:
        links = entry["links"]
        if not isinstance(links, list) or not links or not all(isinstance(x, dict) for x in links):
            raise PaperError(f"{where}: a chain needs a non-empty list of links (tables)")
        unknown = set().union(*links) - _NODE_FIELDS - {"claim", "inconclusive"}
        if unknown:
            raise PaperError(f"{where}: unknown link field(s) {sorted(unknown)}")
        deciders = [(str(x.get("label", f"link-{i + 1}")), _node(x, f"{where}, link {i + 1}", link=True, scope=scope))
                    for i, x in enumerate(links)]
        method = str(entry.get("method", "printed chain, link by link"))
        return lambda ctx: sc.combine([(label, decide(ctx)) for label, decide in deciders], method)
    domain = domain_of(entry.get("domain"), where, empty_ok="relation" not in entry)
    names = list(domain)
    reading = str(entry.get("reading", ""))
    try:
        if "relation" in entry:
            relation = str(entry["relation"])
            parse_relation(relation, names)
            seconds = entry.get("prover_seconds")
            use_prover = not entry.get("search_only", False)
            return lambda ctx: sc.inequality(relation, domain, ctx, reading=reading, use_prover=use_prover,
                                             prover_seconds=seconds)
        if "lhs" in entry and "rhs" in entry:
            symbols = scope["symbols"]
            names = identity_namespace(domain, symbols)
            texts = str(entry["lhs"]), str(entry["rhs"])
            if same_text(*texts):
                raise PaperError("lhs and rhs are the same text: the identity would check nothing "
                                 "(write the printed expression, e.g. diff(f, x) rather than its result)")
            what, points = str(entry.get("what", "")), entry.get("points")
            if scope["matrices"] or scope["let"]:
                return _matrix_identity(texts, domain, names, scope, what=what, reading=reading, points=points)
            lhs, rhs = (parse_expr(text, names, real=False) for text in texts)
            printed = (*texts, [str(n) for n in symbols if n not in domain])
            return lambda ctx: sc.identity(lhs, rhs, domain, ctx, what=what, points=points, assumptions_note=reading,
                                           printed=printed)
    except ValueError as exc:
        raise PaperError(f"{where}: {exc}") from None
    raise PaperError(f"{where}: needs relation (an inequality) or lhs and rhs (an identity)")


def _only(entry: dict[str, Any], allowed: set[str], what: str, where: str) -> None:
    """A link of a special form carries only its own fields: another decision field would be silently ignored."""
    stray = set(entry) - allowed
    if stray:
        raise PaperError(f"{where}: {what} carries only {', '.join(sorted(allowed))}, not {sorted(stray)}")


def _claim_verdict(claim_id: str, ctx: Context) -> Outcome:
    """The verdict of another claim, decided once per run (:func:`olr_verify.cache.shared`: the processes of a run
    share it; several chains reuse one step)."""
    from olr_verify.cache import shared
    from olr_verify.registry import note_link

    note_link(claim_id)  # read back from the cache or decided here, it is one of this claim's links
    key = (claim_id, str(ctx.out_dir), ctx.quick, ctx.seed)
    if key in _DECIDING:  # a Python check that decides, back, a chain linking it: a cycle the loader cannot see
        return Outcome("error", "claim link", {"reason": f"claim links form a cycle through {claim_id} (a Python "
                                                          "check decides a chain that links it)"})
    _DECIDING.add(key)
    try:
        return shared(ctx, f"claim-link-{claim_id}", lambda: _linked(claim_id, ctx))
    finally:
        _DECIDING.discard(key)


_DECIDING: set[tuple[str, str, bool, int]] = set()  # claim links being decided in this process


def _linked(claim_id: str, ctx: Context) -> Outcome:
    """The linked claim's outcome as a link: a check that raises is this link's ``error`` (a sibling link can still
    refute the chain), and a refutation's artefact names the linked claim, whose statement its replay checks."""
    from olr_verify.registry import decide, get

    if get(claim_id).check is None:
        return Outcome("error", "claim link", {"reason": f"{claim_id} has no check of its own (a parent decided "
                                                          "from its parts): link its parts"})
    try:
        out = decide(claim_id, ctx)
    except Exception as exc:  # noqa: BLE001 - the linked check's failure is this link's verdict
        return Outcome("error", "claim link", {"reason": f"the check of {claim_id} raised {type(exc).__name__}: "
                                                         f"{' '.join(str(exc).split())[:200]}"})
    if out.status == "refuted" and out.counterexample:
        out = Outcome(out.status, out.method, out.evidence, {**out.counterexample, "claim": claim_id},
                      out.certificate)
    return out


def _constant_fact(relation: str, where: str) -> Callable[[Context], Outcome]:
    """A relation between rational constants (``domain = {}``), decided by exact rational arithmetic: ``proved``
    with a certificate the kernel re-checks in fmpq (kind ``exact``), or ``refuted`` with a replayable artefact."""
    import sympy as sp

    from olr_verify.expr import parse_relation

    try:
        rel = parse_relation(relation, [])
    except ValueError as exc:
        raise PaperError(f"{where}: {exc}") from None
    lhs, rhs = rel.lhs, rel.rhs
    if not (isinstance(lhs, sp.Rational) and isinstance(rhs, sp.Rational)):
        raise PaperError(f"{where}: a relation with domain {{}} compares rational constants, got {relation!r}")
    holds = bool(type(rel)(lhs, rhs))
    certificate = None
    if holds:
        from olr_verify.kernel import FORMAT, statement_sha256

        certificate = {"format": FORMAT, "claim": None, "kind": "exact", "relations": [relation]}
        certificate["statement_sha256"] = statement_sha256(certificate)
    method = "exact rational arithmetic" + (" (kernel-checked in fmpq)" if holds else "")
    outcome = Outcome("proved" if holds else "refuted", method,
                      {"fact": relation, "lhs": str(lhs), "rhs": str(rhs)},
                      None if holds else {"replay": {"type": "scalar_relation", "relation": relation, "point": {},
                                                     "domain": {}}}, certificate)
    return lambda ctx: outcome


def _matrix_identity(texts: tuple[str, str], domain: dict[str, Any], scalars: dict[str, Any],
                     scope: dict[str, dict], *, what: str, reading: str, points: Any) -> Callable[[Context], Outcome]:
    """An identity that reads declared matrices or named sub-expressions. With ``let`` alone and no matrix
    function, the definitions are written into the sides (:func:`olr_verify.expr.expand_names`) and it is an
    identity like any other, whose certificate states the expanded sides for the kernel to read. Otherwise
    :mod:`olr_verify.checks.matrix_identity` decides it (at most ``verified``, for the declared sizes); its sides
    are read with fixed rational stand-ins for the matrices at load (names and shapes checked at once), and
    symbolically at the first decision."""
    from olr_verify.checks import matrix_identity as mi
    from olr_verify.checks import scalar_common as sc
    from olr_verify.expr import MATRIX_FUNCTIONS, called, expand_names, operands, parse_expr

    what = what or f"{texts[0]} == {texts[1]}"  # the sides as written, not expanded
    literals = {name: value for name, value in scope["let"].items() if isinstance(value, list)}
    if not scope["matrices"] and not literals:
        for name in scope["let"]:
            mi.check_let_name(name, scalars)
        expanded = tuple(expand_names(text, scope["let"]) for text in texts)
        if not any(called(text) & set(MATRIX_FUNCTIONS) for text in expanded):
            lhs, rhs = (parse_expr(text, scalars, real=False) for text in expanded)
            printed = (*expanded, [str(n) for n in scope["symbols"] if n not in domain])
            return lambda ctx: sc.identity(lhs, rhs, domain, ctx, what=what, points=points,
                                           assumptions_note=reading, printed=printed)
    @functools.cache
    def sides() -> tuple[Any, Any]:
        read = _scope_reader(scalars, scope)
        return read(texts[0]), read(texts[1])

    try:
        stand_in = mi.namespace(scalars, scope["matrices"], scope["let"], stand_in=True)
        shapes = [mi.shape(mi.read(text, stand_in)) for text in texts]
    except ValueError:  # e.g. log(det(A)) of a stand-in whose det is negative: read it symbolically, now
        shapes = [mi.shape(side) for side in sides()]
    if shapes[0] != shapes[1]:
        raise PaperError(f"the sides have shapes {shapes[0]} and {shapes[1]}")

    sizes = ", ".join([f"{name} {size}" for name, size in scope["matrices"].items()]
                      + [f"{name} {len(rows)}x{len(rows[0])} given" for name, rows in literals.items()]
                      ) or "no matrix declared"

    @functools.cache
    def written() -> list[Any]:
        """Every operand as written in the sides and the definitions, read with the same names: reading the whole
        may cancel what has no real value (``sqrt(det(A))**2`` reads as ``det(A)``)."""
        read, found = _scope_reader(scalars, scope), []
        for text in [*texts, *(t for t in scope["let"].values() if isinstance(t, str))]:
            for part in operands(text):
                try:
                    found.append(read(part))
                except ValueError:  # a piece that is no expression alone (a Piecewise condition)
                    continue
        return found

    def decide(ctx: Context) -> Outcome:
        try:
            lhs, rhs = sides()
            parts = written()
        except ValueError as exc:  # read with symbolic entries, a side grew beyond the reader's caps
            return Outcome("inconclusive", f"matrix identity, {sizes}", {"identity": what, "reason": str(exc)})
        return mi.decide(lhs, rhs, domain, ctx, sizes=sizes, what=what, reading=reading, points=points,
                         operands=parts)

    return decide


def _scope_reader(scalars: dict[str, Any], scope: dict[str, dict]) -> Callable[[str], Any]:
    """:func:`olr_verify.checks.matrix_identity.read` with a scope's names: the names, and each text, read once per
    process for every link of a chain that shares the scope (its ``let`` texts are operands of every link)."""
    from olr_verify.checks import matrix_identity as mi

    def frozen(value: Any) -> Any:
        return tuple(tuple(row) for row in value) if isinstance(value, list) else value

    key = (tuple(scalars.items()), tuple(scope["matrices"].items()),
           tuple((k, frozen(v)) for k, v in scope["let"].items()))
    if key not in _READERS:
        names = mi.namespace(scalars, scope["matrices"], scope["let"])
        _READERS[key] = functools.cache(lambda text: mi.read(text, names))
    return _READERS[key]


_READERS: dict[tuple, Callable[[str], Any]] = {}  # per process: a scope (its texts and symbols) -> its reader


def identity_namespace(domain: dict[str, Any], symbols: Any) -> dict[str, Any]:
    """The names an identity's sides are read with: the domain's names as plain (not real) symbols --
    scalar_common substitutes sample points by ``Symbol(name)`` -- and the ``symbols`` table's names with the
    assumptions it gives (``{ s = "positive" }``; ``""`` for a symbol outside the domain, left free)."""
    import sympy as sp

    if not isinstance(symbols, dict):
        raise PaperError("symbols must be a table name -> assumptions")
    from olr_verify.expr import NOT_A_VARIABLE

    names = {n: sp.Symbol(n) for n in domain}
    for name, given in symbols.items():
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or name in NOT_A_VARIABLE:
            raise PaperError(f"symbols.{name}: a symbol is an ASCII name that is not a constant "
                             f"({', '.join(sorted(NOT_A_VARIABLE))})")
        words = str(given).split()
        if not set(words) <= set(ASSUMPTIONS):
            raise PaperError(f"symbols.{name}: assumptions must be among {ASSUMPTIONS}, got {given!r}")
        if name in domain:
            _assumptions_hold(str(name), words, domain[name])
        elif set(words) - {"real"}:
            raise PaperError(f"symbols.{name}: {given!r} on a name outside the domain is checked nowhere (the "
                             f"certificate would say {name} is any real): give {name} a range in the domain")
        names[str(name)] = sp.Symbol(str(name), **{w: True for w in words})
    return names


def _assumptions_hold(name: str, words: list[str], bounds) -> None:
    """A domain variable's assumptions must hold on its whole closed range: sympy simplifies the sides under them
    while reading (sqrt(x**2) becomes x for a positive x, sign(x) becomes 1), so an assumption that fails anywhere
    on the range, even at one end, would prove another identity. The ends must be constants."""

    from olr_verify.expr import parse_expr

    need = {"positive": "lo > 0", "nonnegative": "lo >= 0", "negative": "hi < 0", "nonpositive": "hi <= 0",
            "nonzero": "lo > 0 or hi < 0", "integer": "lo == hi, an integer", "real": ""}
    if not any(need[w] for w in words):
        return
    lo, hi = (None if b in ("-oo", "oo") else parse_expr(str(b), [], real=True) for b in bounds)
    if any(b is not None and b.free_symbols for b in (lo, hi)):
        raise PaperError(f"symbols.{name}: an assumption on a variable with a dependent bound is not allowed")
    ge0 = lambda b: b is not None and bool(b >= 0)  # noqa: E731
    le0 = lambda b: b is not None and bool(b <= 0)  # noqa: E731
    gt0 = lambda b: b is not None and bool(b > 0)  # noqa: E731
    lt0 = lambda b: b is not None and bool(b < 0)  # noqa: E731
    holds = {"positive": gt0(lo), "nonnegative": ge0(lo), "negative": lt0(hi), "nonpositive": le0(hi),
             "nonzero": gt0(lo) or lt0(hi), "real": True,
             "integer": lo is not None and lo == hi and lo.is_integer}
    for w in words:
        if not holds[w]:
            raise PaperError(f"symbols.{name}: {w!r} needs {need[w]} but the domain gives [{bounds[0]}, {bounds[1]}]"
                             " (sympy would simplify the sides under an assumption the range contradicts)")


_DECISION_FIELDS = ("relation", "lhs", "rhs", "links", "learner", "bound", "inconclusive", "hunt")


def declarative_check(entry: dict[str, Any], where: str) -> Callable[[Context], Outcome] | None:
    """The check function of a declared claim (no Python in the paper folder), or None when the entry carries
    none of the fields a declarative kind is decided from (its check is then a Python ``@check``)."""
    kind = entry["check_kind"]
    if not _declares_a_decision(entry):
        return None
    if "hunt" in entry:  # validated by read(): a seed paper's bound hunted by olr_verify.hunting
        return _hunt(entry["id"])
    if kind in ("scalar-inequality", "identity", "chain"):
        shape = "chain" if "links" in entry else "scalar-inequality" if "relation" in entry else "identity"
        if shape != kind:
            raise PaperError(f"{where}: check_kind {kind!r} does not match its fields")
        return _node(entry, where)
    if kind == "undecided" or "inconclusive" in entry:
        return _undecided(entry.get("inconclusive"), where)
    if kind == "regret-bound":
        from olr_verify.hunting.declared import DeclaredBound, decide

        try:
            spec = DeclaredBound.from_toml(entry, where)
        except ValueError as exc:
            raise PaperError(str(exc)) from None
        return lambda ctx: decide(spec, ctx, entry["id"])
    raise PaperError(f"{where}: check_kind {kind!r} needs a Python @check in the folder "
                     f"(declarative kinds: {', '.join(DECLARATIVE)})")


def deferred_check(entry: dict[str, Any], where: str) -> Callable[[Context], Outcome] | None:
    """:func:`declarative_check`, built at the claim's first decision rather than at load: reading the seed folders'
    ~6,000 expressions took 12 s at every start of ``olr-verify`` (``list`` included) and is paid only for the
    claims a run decides. For the seed folders, which the package ships and its tests read whole and eagerly."""
    if not _declares_a_decision(entry):
        return None
    build = functools.cache(lambda: declarative_check(entry, where))
    return lambda ctx: build()(ctx)


def _declares_a_decision(entry: dict[str, Any]) -> bool:
    return any(field in entry for field in _DECISION_FIELDS)


def _hunt(claim: str) -> Callable[[Context], Outcome]:
    """The check of a ``[claim.hunt]`` table: the hunting engine on the target it loaded, with its budget."""
    def hunt(ctx: Context) -> Outcome:
        from olr_verify.hunting.bounds import BUDGETS
        from olr_verify.hunting.checkkit import hunt_outcome

        full, quick = BUDGETS[claim]
        return hunt_outcome(claim, ctx, full=full, quick=quick)

    return hunt


def is_plain(table: dict) -> bool:
    """Every value a string, number or boolean, or a list of them: the evidence a declared verdict may carry."""
    plain = (str, int, float, bool)
    return all(isinstance(v, plain) or (isinstance(v, list) and all(isinstance(x, plain) for x in v))
               for v in table.values())


def _undecided(table: Any, where: str) -> Callable[[Context], Outcome]:
    """A claim that cannot be decided (e.g. its statement is lost in the source): ``inconclusive = { method,
    reason, ... }`` is reported as is. Only ``inconclusive`` can be declared: every other status needs a decider."""
    if not (isinstance(table, dict) and isinstance(table.get("reason"), str) and table["reason"].strip()
            and isinstance(table.get("method", ""), str) and is_plain(table)):
        raise PaperError(f"{where}: inconclusive must be a table of plain values with a non-empty reason")
    method = table.get("method", "none")
    evidence = {k: v for k, v in table.items() if k != "method"}
    return lambda ctx: Outcome("inconclusive", method, dict(evidence))


def domain_text(entry: dict[str, Any]) -> str:
    """A one-line rendering of a declared domain for the report: ``printed_domain`` as printed, followed by the
    ranges the verdict is about when the claim declares them (the printed text is display only: a claim checked
    on a narrower range says so here, and with ``restricted`` is at most verified)."""
    def ranges(table: dict) -> str:  # shown as given; a malformed range is reported by the decider's loader
        return ", ".join(f"{k} ∈ [{v[0]}, {v[1]}]" if isinstance(v, list) and len(v) == 2 else f"{k}: {v!r}"
                         for k, v in table.items())

    dom = entry.get("domain")
    checked = (ranges(dom) if isinstance(dom, dict) and dom else ranges(entry["params"])
               if isinstance(entry.get("params"), dict) else "")
    printed = entry.get("printed_domain")
    if isinstance(printed, str) and printed:
        return f"{printed} (checked on {checked})" if checked else printed
    return checked or str(dom or "")


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

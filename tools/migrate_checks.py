"""Move the data-shaped Python checks of the seed papers into their ``paper.toml`` (issue 17).

A check migrates only when tracing proves it is data: run with ``inequality``, ``identity``, ``combine``,
``on_printed_domain`` and ``not_a_certificate`` replaced by recorders (in quick AND full mode), it must

- return exactly the outcome of one recorded call, every recorded call being used once in that tree;
- never look at an outcome (reading ``status``/``evidence``/... of a recorded outcome raises);
- pass only strings for relations and domain bounds, and sympy expressions that ``olr_verify.expr`` reads
  back to an equal expression (structurally equal, or sympy simplifies the difference to 0: an unevaluated
  ``2*(C + 1)`` reads back as ``2*C + 2``; the statuses are compared after the move);
- record the same tree in quick and in full mode.

Then the declared claim calls the same deciders with the same arguments (``olr_verify.paper_folder``), so its
status and evidence are those of the Python function. Usage::

    python tools/migrate_checks.py --report            # what would migrate, and why the others do not
    python tools/migrate_checks.py --write             # rewrite the seed paper.toml files (functions stay)

Deleting the migrated functions is a separate, reviewed edit (``--write`` prints the list).
"""
from __future__ import annotations

import argparse
import inspect
import sys
import tomllib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from paper_toml import paper_toml  # noqa: E402

from olr_verify import registry  # noqa: E402
from olr_verify.artefacts import time_limit  # noqa: E402
from olr_verify.checks import scalar_common  # noqa: E402
from olr_verify.outcome import Context, Outcome  # noqa: E402

TRACE_SECONDS = 20  # a data-shaped check records its calls in well under a second
TRACED = ("inequality", "identity", "combine", "on_printed_domain", "not_a_certificate", "matrix_identity")
OTHER_SEED = 7  # a constant verdict must not change with the seed either


class NotData(Exception):
    """The check is not a composition of the deciders with literal arguments."""


class Traced(Outcome):
    """A recorded call's placeholder; looking at its verdict means the check is not data."""

    def __init__(self, node: dict[str, Any]):
        object.__setattr__(self, "_node", node)

    def __getattribute__(self, name: str):
        if name in ("_node", "__class__"):
            return object.__getattribute__(self, name)
        if name == "evidence":  # writing extra evidence is data; reading it is not
            return _ExtraEvidence(object.__getattribute__(self, "_node"))
        raise NotData(f"the check reads .{name} of an outcome")


class _ExtraEvidence:
    """``outcome.evidence`` of a recorded call: ``[key] = value`` and ``update`` record extra evidence."""

    def __init__(self, node: dict[str, Any]):
        self._node = node

    def __setitem__(self, key: str, value: Any) -> None:
        self._node.setdefault("evidence", {})[str(key)] = value

    def update(self, other: dict[str, Any]) -> None:
        for k, v in dict(other).items():
            self[k] = v

    def __getattr__(self, name: str):
        raise NotData(f"the check reads the evidence of an outcome (.{name})")


def _domain(domain: Any) -> dict[str, list[str]]:
    if not isinstance(domain, dict) or not all(isinstance(v, (tuple, list)) and len(v) == 2 for v in domain.values()):
        raise NotData("domain is not a table of (lo, hi)")
    if not all(isinstance(b, str) for v in domain.values() for b in v):
        raise NotData("a domain bound is not a string")
    return {str(k): [v[0], v[1]] for k, v in domain.items()}


ASSUMPTIONS = ("positive", "nonnegative", "negative", "nonpositive", "real", "nonzero", "integer")


def _symbols(exprs, domain: dict[str, list[str]]) -> dict[str, str]:
    """The ``symbols`` table of an identity: every free symbol that is outside the domain or carries
    assumptions, with its assumptions as given when it was made (``""`` for none)."""
    out = {}
    for sym in sorted(set().union(*(e.free_symbols for e in exprs)), key=str):
        given = getattr(sym, "_assumptions_orig", {})
        if any(k not in ASSUMPTIONS or v is not True for k, v in given.items()):
            raise NotData(f"symbol {sym} has assumptions {given} outside {ASSUMPTIONS}")
        if given or str(sym) not in domain:
            out[str(sym)] = " ".join(sorted(given))
    return out


def _expr_text(e: Any, domain: dict[str, list[str]], symbols: dict[str, str]) -> str:
    import sympy as sp

    from olr_verify.paper_folder import identity_names

    text = sp.sstr(e)
    try:
        back = identity_names(text, domain, symbols)
    except ValueError as exc:
        raise NotData(f"{text!r} does not read back: {exc}") from None
    if back != e and sp.simplify(back - e) != 0:  # an unevaluated product (2*(C + 1)) reads back expanded: equal
        raise NotData(f"{text!r} reads back to a different expression")
    return text


def _recorders(calls: list[dict[str, Any]]) -> dict[str, Any]:
    def made(node: dict[str, Any]) -> Traced:
        calls.append(node)
        return Traced(node)

    def inequality(relation, domain, ctx, *, reading="", use_prover=True, prover_seconds=None):
        if not isinstance(relation, str):
            raise NotData("relation is not a string")
        node = {"relation": relation, "domain": _domain(domain)}
        if reading:
            node["reading"] = reading
        if not use_prover:
            node["search_only"] = True
        if prover_seconds is not None:
            node["prover_seconds"] = float(prover_seconds)
        return made(node)

    def identity(lhs, rhs, domain, ctx, *, what="", points=None, assumptions_note=""):
        dom = _domain(domain)
        syms = _symbols((lhs, rhs), dom)
        node = {"lhs": _expr_text(lhs, dom, syms), "rhs": _expr_text(rhs, dom, syms), "domain": dom}
        if syms:
            node["symbols"] = syms
        if what:
            node["what"] = what
        if points is not None:
            node["points"] = int(points)
        if assumptions_note:
            node["reading"] = assumptions_note
        return made(node)

    def combine(parts, method="printed chain, link by link", extra=None):
        links = []
        for label, out in parts:
            if type(out) is not Traced:
                raise NotData("a chain link is not a recorded decider")
            links.append({"label": str(label), **_take(out, calls)})
        node: dict[str, Any] = {"links": links}
        if method != "printed chain, link by link":
            node["method"] = method
        if extra:
            node["evidence"] = dict(extra)
        return made(node)

    def wrapper(field: str):
        def wrap(out, *text):
            if type(out) is not Traced:
                raise NotData(f"{field}: the wrapped outcome is not a recorded decider")
            node = _take(out, calls)
            if field in node:
                raise NotData(f"{field} twice")
            node[field] = {"proved_on": text[0], "printed": text[1]} if field == "restricted" else text[0]
            return made(node)
        return wrap

    def matrix_identity(lhs, rhs, domain, ctx, what):  # verdicts.matrix_identity, call by call
        if lhs.shape != rhs.shape:
            raise NotData("matrix shapes differ")
        parts = [(f"entry ({i},{j})", identity(lhs[i, j], rhs[i, j], domain, ctx, what=f"{what}, entry ({i},{j})"))
                 for i in range(lhs.rows) for j in range(lhs.cols)]
        return combine(parts, method=f"exact identity, entry by entry: {what}")

    return {"inequality": inequality, "identity": identity, "combine": combine, "matrix_identity": matrix_identity,
            "on_printed_domain": wrapper("restricted"), "not_a_certificate": wrapper("cited")}


def _take(out: Traced, calls: list[dict[str, Any]]) -> dict[str, Any]:
    node = object.__getattribute__(out, "_node")
    for i, n in enumerate(calls):
        if n is node:
            del calls[i]
            return node
    raise NotData("an outcome is used twice")


def _constant(out: Outcome, calls: list[dict[str, Any]], source: str) -> dict[str, Any]:
    """An ``inconclusive`` verdict made of strings alone (a statement lost in the seed ...), as data. Every
    string must stand in the check's module as written: a value the check computes (a gap, a test's outcome)
    would be frozen into the data, an expected output no longer computed."""
    if not (isinstance(out, Outcome) and out.status == "inconclusive" and out.counterexample is None
            and out.certificate is None and not calls):
        raise NotData("the check does not return a recorded decider's outcome")
    from olr_verify.paper_folder import is_plain

    if "method" in out.evidence or not is_plain(out.evidence):
        raise NotData("a constant inconclusive verdict whose evidence is not plain data")
    texts = [out.method, *(v for v in out.evidence.values() if isinstance(v, str))]
    if not all(t in source for t in texts):
        raise NotData("a constant inconclusive verdict whose evidence is computed (not written in the module)")
    return {"inconclusive": {"method": out.method, **out.evidence}}


def trace(claim: registry.Claim, quick: bool, seed: int | None = None) -> dict[str, Any]:
    """The decider tree of ``claim``'s check, or NotData."""
    import tempfile

    fn = claim.check
    glb = fn.__globals__
    calls: list[dict[str, Any]] = []
    from olr_verify.checks import verdicts

    real = {**{n: getattr(scalar_common, n) for n in TRACED if hasattr(scalar_common, n)},
            **{n: getattr(verdicts, n) for n in TRACED if hasattr(verdicts, n)}}
    saved = {name: glb[name] for name in TRACED if name in glb}
    wrapped = [name for name, fn in saved.items() if fn is not real[name]]
    if wrapped:  # a module's own wrapper (a cache, a quick-mode switch) is code, not data
        raise NotData(f"the module defines its own {', '.join(wrapped)}")
    if not saved and 'Outcome("inconclusive"' not in inspect.getsource(fn):
        raise NotData("the module uses none of the deciders")
    glb.update({k: v for k, v in _recorders(calls).items() if k in saved})
    scalar_common._RECORDING = []  # any decider reached another way returns a placeholder (then rejected)
    try:
        with tempfile.TemporaryDirectory() as tmp, time_limit(TRACE_SECONDS, "tracing"):
            ctx = Context(out_dir=Path(tmp), quick=quick)
            out = fn(Context(out_dir=ctx.out_dir, quick=quick, seed=seed or ctx.seed))
    except NotData:
        raise
    except Exception as exc:  # noqa: BLE001 - a check that needs a real verdict to go on is not data
        raise NotData(f"the check raised {type(exc).__name__} under tracing") from None
    finally:
        glb.update(saved)
        elsewhere, scalar_common._RECORDING = scalar_common._RECORDING, None
    if elsewhere:
        raise NotData("a decider is reached through another module")
    if type(out) is not Traced:
        return _constant(out, calls, inspect.getsource(inspect.getmodule(fn)))
    tree = _take(out, calls)
    if calls:
        raise NotData(f"{len(calls)} recorded call(s) not used in the verdict")
    return tree


def kind_of(tree: dict[str, Any]) -> str:
    if "inconclusive" in tree:
        return "undecided"
    return "chain" if "links" in tree else "identity" if "lhs" in tree else "scalar-inequality"


def plan() -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Claim id -> decider tree for the checks that are data; claim id -> reason for the others."""
    from olr_verify import paper_folder

    done, kept = {}, {}
    for claim in registry.claims():
        fn = claim.check
        if fn is None or fn.__module__.startswith("olr_verify.paper_folder") or "hunt_" in fn.__module__:
            continue
        if getattr(fn, "__qualname__", "").startswith("declarative_check"):
            continue
        try:
            quick = trace(claim, True)
            if quick != trace(claim, False):
                raise NotData("quick and full mode record different calls")
            if "inconclusive" in quick and quick != trace(claim, True, OTHER_SEED):
                raise NotData("the constant verdict changes with the seed")
            paper_folder.declarative_check({"id": claim.id, "check_kind": kind_of(quick), **quick}, claim.id)
        except NotData as exc:
            kept[claim.id] = str(exc)
            continue
        except paper_folder.PaperError as exc:
            kept[claim.id] = f"the declared form is rejected: {exc}"
            continue
        done[claim.id] = quick
    return done, kept


def write(done: dict[str, dict[str, Any]]) -> None:
    for folder in sorted(p.parent for p in registry.PAPERS_DIR.glob("s*/paper.toml")):
        path = folder / "paper.toml"
        text = path.read_text(encoding="utf-8")
        header = "\n".join(ln for ln in text.split("[paper]", 1)[0].splitlines() if ln.startswith("#"))
        data = tomllib.loads(text)
        claims = []
        for entry in data["claim"]:
            tree = done.get(entry["id"])
            if tree is not None:
                printed = entry.get("domain")
                meta = {k: v for k, v in entry.items() if k not in ("check_kind", "domain")}
                entry = {"id": meta.pop("id"), "title": meta.pop("title"), "check_kind": kind_of(tree), **meta}
                if isinstance(printed, str) and printed:
                    entry["printed_domain"] = printed  # the report's domain line stays as printed
                entry.update(tree)
            claims.append(entry)
        path.write_text(paper_toml(header, data["paper"], claims), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--delete", metavar="LIST", help="a --write output: delete the migrated functions it lists")
    args = ap.parse_args()
    if args.delete:
        ids = {ln.split()[1] for ln in Path(args.delete).read_text().splitlines() if ln.startswith("migrated ")}
        for folder in (Path(registry.__file__).parent / "checks", registry.PAPERS_DIR):
            for line in delete_functions(ids, folder):
                print("deleted", line)
        return
    done, kept = plan()
    if args.report:
        for cid, why in kept.items():
            print(f"kept  {cid}: {why}")
    print(f"data: {len(done)}; stays Python: {len(kept)}")
    if args.write:
        write(done)
        for cid in done:
            fn = registry.get(cid).check
            print(f"migrated {cid} {fn.__module__}.{fn.__name__}")




def delete_functions(ids: set[str], folder: Path) -> list[str]:
    """Remove the ``@check(ID)`` functions (and ``_lost``-style table rows) of ``ids`` from the modules under
    ``folder``; returns what was removed. Run after ``--write``: a claim may not have two checks."""
    import ast

    removed = []
    for path in sorted(folder.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        cut: list[tuple[int, int]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                for dec in node.decorator_list:
                    if (isinstance(dec, ast.Call) and getattr(dec.func, "id", "") == "check" and dec.args
                            and isinstance(dec.args[0], ast.Constant) and dec.args[0].value in ids):
                        cut.append((node.decorator_list[0].lineno, node.end_lineno))
                        removed.append(f"{path.name}: {dec.args[0].value} {node.name}")
            elif isinstance(node, ast.For) and isinstance(node.iter, ast.List):  # a table of checks made in a loop
                for row in node.iter.elts:
                    if (isinstance(row, ast.Tuple) and isinstance(row.elts[0], ast.Constant)
                            and row.elts[0].value in ids):
                        cut.append((row.lineno, row.end_lineno))
                        removed.append(f"{path.name}: {row.elts[0].value} (table row)")
        if not cut:
            continue
        lines = text.splitlines(keepends=True)
        drop = set()
        for a, b in cut:
            drop.update(range(a - 1, b))
            k = b
            while k < len(lines) and not lines[k].strip() and k - b < 2:  # the blank lines after a function
                drop.add(k)
                k += 1
        path.write_text("".join(ln for i, ln in enumerate(lines) if i not in drop), encoding="utf-8")
    return removed


if __name__ == "__main__":
    main()

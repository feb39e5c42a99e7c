"""Run the checks of the registry in parallel and write ``results.json``, ``REPORT.md`` and ``figures/``.

Each check runs in its own forked process (at most ``jobs`` at once) so that a crash, a hang
(per-check time limit) or an exception becomes an ``error`` result and never stops the others.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import sys
import time
import traceback
from collections import Counter
from datetime import datetime, timezone
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from olr_verify import __version__, artefacts, cache, registry
from olr_verify.outcome import Context, Outcome, no_check_yet

TIME_LIMIT_FULL = 240.0
TIME_LIMIT_QUICK = 40.0
QUICK_PROVER_TIMEOUT = 1.0  # --quick: every prove() call gets at most this many seconds


def _traceback_summary(exc: BaseException, lines: int = 12) -> str:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip().splitlines()
    return "\n".join(text[-lines:])


def execute(claim: registry.Claim, ctx: Context) -> dict[str, Any]:
    """Run one claim's check in this process; never raises."""
    start = time.perf_counter()
    fn = claim.check
    try:
        outcome = no_check_yet() if fn is None else fn(ctx)
        if not isinstance(outcome, Outcome):
            raise TypeError(f"check returned {type(outcome).__name__}, not Outcome")
        record = {"status": outcome.status, "method": outcome.method, "evidence": outcome.evidence,
                  "artefact": outcome.counterexample}
        json.dumps(record, default=str)  # fail here, inside the check's time, if not serialisable
    except Exception as exc:  # noqa: BLE001 - any failure of a check is its result
        record = {"status": "error", "method": "check raised",
                  "evidence": {"error": f"{type(exc).__name__}: {exc}", "traceback": _traceback_summary(exc)},
                  "artefact": None}
    record["seconds"] = round(time.perf_counter() - start, 3)
    return record


def _child(claim: registry.Claim, ctx: Context, conn: Connection) -> None:
    if ctx.quick:  # set in the forked child only: the caller's process keeps its prover settings
        from olr_verify.prover import core

        core.TIMEOUT_CAP = QUICK_PROVER_TIMEOUT
    try:
        record = execute(claim, ctx)
        conn.send(json.loads(json.dumps(record, default=str)))
    finally:
        conn.close()


def _error(method: str, message: str, seconds: float) -> dict[str, Any]:
    return {"status": "error", "method": method, "evidence": {"error": message}, "artefact": None,
            "seconds": round(seconds, 3)}


PRELOAD = ("numpy", "scipy.special", "scipy.optimize", "scipy.linalg", "mpmath", "sympy", "flint",
           "matplotlib.pyplot", "cvxpy", "algorithms", "reference.certify", "olr_verify.prover",
           "olr_verify.hunting.bounds")


def preload() -> None:
    """Import the heavy modules once in the parent: every forked check then starts with them loaded."""
    import importlib

    import matplotlib

    matplotlib.use("Agg")
    for name in PRELOAD:
        importlib.import_module(name)


def run_checks(claims: list[registry.Claim], ctx: Context, jobs: int, time_limit: float,
               progress: bool = True) -> dict[str, dict[str, Any]]:
    """Run every claim's check, ``jobs`` processes at a time; returns raw records by claim id."""
    preload()
    records: dict[str, dict[str, Any]] = {}
    todo = []
    for c in claims:
        if c.check is None:
            records[c.id] = {**execute(c, ctx), "seconds": 0.0}
        else:
            todo.append(c)
    bar = _progress(len(todo), progress)
    forking = mp.get_context("fork")
    running: dict[Connection, tuple[str, mp.Process, float]] = {}
    queue = list(todo)
    while queue or running:
        while queue and len(running) < jobs:
            c = queue.pop(0)
            recv, send = forking.Pipe(duplex=False)
            proc = forking.Process(target=_child, args=(c, ctx, send), daemon=False)
            proc.start()
            send.close()
            running[recv] = (c.id, proc, time.perf_counter())
        ready = wait(list(running), timeout=0.5)
        now = time.perf_counter()
        for conn in list(running):
            cid, proc, started = running[conn]
            if conn in ready:
                try:
                    records[cid] = conn.recv()
                except EOFError:
                    proc.join(5)
                    records[cid] = _error("check process died", f"exit code {proc.exitcode}", now - started)
            elif now - started > time_limit:
                proc.kill()
                records[cid] = _error("time limit", f"no result after {time_limit:.0f} s (killed)", now - started)
            else:
                continue
            proc.join(5)
            conn.close()
            del running[conn]
            bar.update(1)
            bar.set_postfix_str(cid, refresh=False)
    bar.close()
    return records


def _progress(total: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, desc="checks", unit="check", disable=not enabled or total == 0,
                file=sys.stderr, dynamic_ncols=True)


def summarise_parents(results: list[dict[str, Any]]) -> None:
    """Give each parent claim the summary of its parts (``id/part``).

    A parent with its own check keeps its status, and its evidence gains the counts of its
    parts. A parent without a check takes its status from its parts: refuted if a part was
    refuted (that part's counterexample is linked), proved only if every part was proved,
    verified if every part was proved or verified, otherwise inconclusive.
    """
    by_id = {r["id"]: r for r in results}
    parts: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        if "/" in r["id"]:
            parts.setdefault(r["id"].split("/", 1)[0], []).append(r)
    for pid, children in parts.items():
        parent = by_id.get(pid)
        if parent is None:
            continue
        counts = Counter(c["status"] for c in children)
        parent["evidence"]["parts"] = dict(counts)
        if parent["method"] != "none":
            continue
        refuted = [c for c in children if c["status"] == "refuted"]
        if refuted:
            status = "refuted"
            parent["counterexample"] = refuted[0]["counterexample"]
            parent["evidence"]["refuted_parts"] = [c["id"] for c in refuted]
        elif counts["proved"] == len(children):
            status = "proved"
        elif counts["proved"] + counts["verified"] == len(children):
            status = "verified"
        else:
            status = "inconclusive"
            parent["evidence"]["reason"] = "no check of its own; parts: " + ", ".join(
                f"{k} {v}" for k, v in sorted(counts.items()))
        if status != "inconclusive":
            parent["evidence"].pop("reason", None)
        parent["status"] = status
        parent["method"] = "summary of parts"


def assemble(claims: list[registry.Claim], records: dict[str, dict[str, Any]], out_dir: Path,
             seconds: float) -> dict[str, Any]:
    results = []
    for c in claims:
        rec = records[c.id]
        cx_path = None
        if rec.get("artefact") is not None:
            path = artefacts.write(rec["artefact"], out_dir / "counterexamples", c.id)
            cx_path = path.relative_to(out_dir).as_posix()
        results.append({"id": c.id, "title": c.title, "kind": c.check_kind, "status": rec["status"],
                        "method": rec["method"], "seconds": rec["seconds"], "evidence": rec["evidence"],
                        "counterexample": cx_path, "source": c.source, "statement": c.statement,
                        "domain": c.domain, "notes": c.notes, "variant_of": c.variant_of})
    summarise_parents(results)
    return {"generated": datetime.now(timezone.utc).isoformat(timespec="seconds"), "version": __version__,
            "seconds": round(seconds, 1), "claims": results,
            "papers": {s: {"title": p.title, "authors": p.authors, "notes": p.notes}
                       for s, p in registry.papers().items()}}


def _as_markdown(text: str) -> str:
    """A benchmark's output as printed: markdown tables pass through, plain-text tables are fenced."""
    return text if any(line.startswith("|") for line in text.splitlines()) else f"```\n{text}\n```"


def benchmark_sections(out_dir: Path) -> list[dict[str, str]]:
    """The last ``make bench`` output (``benchmarks.json`` in the output folder), as report sections."""
    path = out_dir / "benchmarks.json"
    if not path.exists():
        return [{"title": "Performance", "markdown": "No benchmark results yet: run `make bench`."}]
    bench = json.loads(path.read_text(encoding="utf-8"))
    head = (f"Measured {bench['generated']} on {bench['machine']} with `make bench` "
            "(benchmarks are not re-run by `olr-verify run`).")
    body = [head] + [f"### {e['name']}\n\n{_as_markdown(e['markdown'])}" for e in bench["benchmarks"]]
    return [{"title": "Performance", "markdown": "\n\n".join(body)}]


def campaign_sections(db: Path | None = None) -> list[dict[str, str]]:
    """The bound-hunting campaigns stored by ``olr-verify hunt`` (SQLite), as a report section."""
    from olr_verify.hunting import campaign

    db = Path(db or campaign.DB_DEFAULT)
    if not db.exists():
        return [{"title": "Hunting campaigns", "markdown": "No campaign yet: run `make campaign` "
                 "(`olr-verify hunt --budget 10m`)."}]
    rows = campaign.summary(db)
    lines = [f"From `{db}` (`olr-verify hunt`; the short deterministic hunts of `olr-verify run` are in the "
             "claims' evidence).", "",
             "| claim | status | best regret/bound | baseline ratio | sequences | seconds | units |",
             "|---|---|---:|---:|---:|---:|---:|"]
    lines += [f"| `{r['claim']}` | {r['status']} | {r['best_ratio']:.4g} | {r['baseline_ratio']:.4g} | "
              f"{r['sequences']} | {r['seconds']} | {r['units']} |" for r in rows]
    return [{"title": "Hunting campaigns", "markdown": "\n".join(lines)}]


SCALAR_KINDS = frozenset({"scalar-inequality", "exact-identity", "cited-result"})


def is_scalar(claim) -> bool:
    """A claim of the scalar registry: its kinds are scalar inequalities, identities and citations only."""
    parts = set(claim.check_kind.split("+"))
    return parts <= SCALAR_KINDS and bool(parts & {"scalar-inequality", "exact-identity"})


def run(out_dir: Path, only: str | None = None, quick: bool = False, jobs: int | None = None,
        progress: bool = True, seed: int = 20261123, scalar_only: bool = False) -> dict[str, Any]:
    """The main job of ``olr-verify run``: check, write results.json and REPORT.md, return the results.

    ``scalar_only`` keeps the scalar registry (:func:`is_scalar`), as ``benchmarks/prover.py`` times it."""
    from olr_verify import report

    start = time.perf_counter()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for stale in ("counterexamples", "figures"):
        for f in (out_dir / stale).glob("*"):
            f.unlink()
    cache.clear(out_dir)
    selected = [c for c in registry.select(only) if is_scalar(c) or not scalar_only]
    if not selected:
        raise ValueError(f"--only {only!r} selects no claim")
    ctx = Context(out_dir=out_dir.resolve(), quick=quick, seed=seed)
    jobs = jobs or os.cpu_count() or 1
    records = run_checks(selected, ctx, jobs, TIME_LIMIT_QUICK if quick else TIME_LIMIT_FULL, progress)
    results = assemble(selected, records, out_dir, time.perf_counter() - start)
    results["run"] = {"only": only, "quick": quick, "jobs": jobs, "seed": seed, "scalar_only": scalar_only}
    results["sections"] = benchmark_sections(out_dir) + campaign_sections()
    (out_dir / "results.json").write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    (out_dir / "REPORT.md").write_text(report.render(results), encoding="utf-8")
    return results

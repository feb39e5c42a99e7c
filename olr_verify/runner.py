"""Run the checks of the registry in parallel and write ``results.json``, ``REPORT.md`` and ``figures/``.

Each check runs in its own forked process (at most ``jobs`` at once) so that a crash
or an exception becomes an ``error`` result and never stops the others; a check still running at the per-check
wall-clock limit (a safety net) is ``inconclusive``.
"""
from __future__ import annotations

import gc
import json
import multiprocessing as mp
import os
import sys
import time
import traceback
from datetime import datetime, timezone
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from olr_verify import __version__, artefacts, cache, errata, registry
from olr_verify.outcome import Context, Outcome, no_check_yet
from olr_verify.summary import printed_parts_of, summarise, summarise_parents  # noqa: F401 - summarise_parents: old import path

TIME_LIMIT_FULL = 900.0  # a safety net only (budgets are work units): far above the slowest check, ~120 s loaded
TIME_LIMIT_QUICK = 120.0  # likewise for --quick: 3.5 x its slowest check (003:lemma-5, ~34 s idle); at 40 s a
# second busy process turned that claim and the chains linking it inconclusive
QUICK_PROVER_TIMEOUT = 1.0  # --quick: every prove() call gets at most this many seconds


def _traceback_summary(exc: BaseException, lines: int = 12) -> str:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip().splitlines()
    return "\n".join(text[-lines:])


def execute(claim: registry.Claim, ctx: Context) -> dict[str, Any]:
    """Run one claim's check in this process; never raises."""
    start = time.perf_counter()
    fn = claim.check
    try:
        outcome, links = (no_check_yet(), []) if fn is None else registry.decided(claim, ctx)
        if not isinstance(outcome, Outcome):
            raise TypeError(f"check returned {type(outcome).__name__}, not Outcome")
        record = {"status": outcome.status, "method": outcome.method, "evidence": outcome.evidence,
                  "artefact": outcome.counterexample, "certificate": None, "links_to": links}
        if outcome.status == "proved":
            kernel_gate(record, outcome.certificate, claim.id)
        json.dumps(record, default=str)  # fail here, inside the check's time, if not serialisable
    except Exception as exc:  # noqa: BLE001 - any failure of a check is its result
        record = {"status": "error", "method": "check raised",
                  "evidence": {"error": f"{type(exc).__name__}: {exc}", "traceback": _traceback_summary(exc)},
                  "artefact": None}
    record["seconds"] = round(time.perf_counter() - start, 3)
    return record


def sealed(certificate: dict[str, Any], claim_id: str) -> dict[str, Any]:
    """The certificate bound to its claim: the claim id and the hash of its statement, which results.json
    records too, so that ``olr-verify check-proof --results`` rejects a certificate of another statement."""
    from olr_verify.kernel import statement_sha256

    certificate = {**certificate, "claim": claim_id}
    return {**certificate, "statement_sha256": statement_sha256(certificate)}


def kernel_gate(record: dict[str, Any], certificate: dict[str, Any] | None, claim_id: str) -> None:
    """Only a certificate accepted by the kernel keeps ``proved``; otherwise ``verified`` (evidence.kernel)."""
    from olr_verify.kernel import check

    if certificate is None:
        reason = "no kernel-checkable certificate"
    else:
        certificate = sealed(certificate, claim_id)
        verdict = check(certificate)
        reason = "accepted" if verdict.accepted else f"rejected: {verdict.reason}"
    record["evidence"] = {**record["evidence"], "kernel": reason}
    if reason == "accepted":
        record["certificate"] = certificate
    else:
        record["status"] = "verified"
        record["method"] = f"{record['method']} (not re-checked by the kernel)"


def _write_certificate(cert: dict[str, Any] | None, out_dir: Path, claim_id: str) -> str | None:
    if cert is None:
        return None
    path = out_dir / "certificates" / artefacts.artefact_filename(claim_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(cert, indent=1, sort_keys=True), encoding="utf-8")
    return path.relative_to(out_dir).as_posix()


def _certify_summarised_parents(results: list[dict[str, Any]], out_dir: Path) -> None:
    """A parent proved as the summary of its parts gets the chain of its parts' certificates (kernel-checked);
    a parent whose parts' certificates cannot be read is ``verified``, never ``proved`` without one."""
    from olr_verify.kernel import check

    by_id = {r["id"]: r for r in results}
    for r in results:
        if r["status"] != "proved" or r.get("certificate"):
            continue
        parts = printed_parts_of(r["id"], results, by_id)
        try:
            links = [{"label": p["id"], "certificate": json.loads((out_dir / p["certificate"]).read_text())}
                     for p in parts]
        except (TypeError, OSError, ValueError):
            links = []
        cert = sealed({"format": "olr-verify-certificate/1", "kind": "chain", "links": links}, r["id"])
        verdict = check(cert) if links else None
        if verdict is not None and verdict.accepted:
            r["certificate"] = _write_certificate(cert, out_dir, r["id"])
            r["certificate_sha256"] = cert["statement_sha256"]
        else:
            r["status"] = "verified"
            r["evidence"]["kernel"] = "no kernel-checkable certificate for the summary of parts"


def _die_with_parent() -> None:
    """Linux: this (forked) check process is killed when the runner dies, so a killed run leaves no orphan."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    except (OSError, AttributeError):
        pass


def _child(claim: registry.Claim, ctx: Context, conn: Connection) -> None:
    _die_with_parent()
    registry.SHARED_RUN = True  # set in the forked child only, like the prover's cap below
    if ctx.quick:  # set in the forked child only: the caller's process keeps its prover settings
        from olr_verify.prover import core

        core.TIMEOUT_CAP = QUICK_PROVER_TIMEOUT
    try:
        record = execute(claim, ctx)
        conn.send(json.loads(json.dumps(record, default=str)))
    finally:
        conn.close()


def _timed_out(time_limit: float, seconds: float) -> dict[str, Any]:
    """The wall-clock safety net: a check still running at the limit is undecided, never another verdict (the
    checks' own budgets are in units of work, so an idle and a busy machine decide the same)."""
    return {"status": "inconclusive", "method": "time limit",
            "evidence": {"reason": f"no result after {time_limit:.0f} s of wall clock (killed; the machine may have "
                                   "been busy): the safety net, not a verdict"},
            "artefact": None, "seconds": round(seconds, 3)}


def _error(method: str, message: str, seconds: float) -> dict[str, Any]:
    return {"status": "error", "method": method, "evidence": {"error": message}, "artefact": None,
            "seconds": round(seconds, 3)}


PRELOAD = ("numpy", "scipy.special", "scipy.optimize", "scipy.linalg", "mpmath", "sympy", "flint",
           "matplotlib.pyplot", "cvxpy", "algorithms", "reference.certify", "olr_verify.prover",
           "olr_verify.hunting.bounds",
           # imported on first use by most scalar checks: once here rather than in every forked check (the project's
           # own modules have no bytecode cache when PYTHONDONTWRITEBYTECODE is set, so each child compiled them)
           "olr_verify.prover.core", "olr_verify.prover.certify", "olr_verify.kernel", "hypothesis",
           "sympy.physics.units")  # sympy.simplify imports sympy.physics.units on its first call


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
    gc.freeze()  # the loaded modules are shared, never collected: a forked check's collections skip them
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
                records[cid] = _timed_out(time_limit, now - started)
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


def assemble(claims: list[registry.Claim], records: dict[str, dict[str, Any]], out_dir: Path,
             seconds: float) -> dict[str, Any]:
    results = []
    for c in claims:
        rec = records[c.id]
        cx_path = None
        if rec.get("artefact") is not None:
            path = artefacts.write(rec["artefact"], out_dir / "counterexamples", c.id)
            cx_path = path.relative_to(out_dir).as_posix()
        cert = rec.get("certificate")  # accepted by the kernel in execute()
        results.append({"id": c.id, "title": c.title, "kind": c.check_kind, "status": rec["status"],
                        "method": rec["method"], "seconds": rec["seconds"], "evidence": rec["evidence"],
                        "counterexample": cx_path, "certificate": _write_certificate(cert, out_dir, c.id),
                        "certificate_sha256": cert and cert["statement_sha256"], "source": c.source,
                        "statement": c.statement, "domain": c.domain, "notes": c.notes, "variant_of": c.variant_of,
                        "links_to": rec.get("links_to", [])})
    summarise(results, claims)  # parents from parts, defect classes of refutations (olr_verify/summary.py)
    _certify_summarised_parents(results, out_dir)
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
    try:
        bench = json.loads(path.read_text(encoding="utf-8"))
        head = (f"Measured {bench['generated']} on {bench['machine']} with `make bench` "
                "(benchmarks are not re-run by `olr-verify run`).")
        body = [head] + [f"### {e['name']}\n\n{_as_markdown(e['markdown'])}" for e in bench["benchmarks"]]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        return [{"title": "Performance", "markdown": f"`{path.name}` could not be read ({type(exc).__name__}); "
                 "run `make bench` again."}]
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


DECIDED_BY_SCALARS = frozenset({"scalar-inequality", "exact-identity", "identity", "chain"})
SCALAR_KINDS = DECIDED_BY_SCALARS | {"cited-result"}


def is_scalar(claim) -> bool:
    """A claim of the scalar registry: its kinds are scalar inequalities, identities (as Python checks or declared),
    chains of them and citations only. The declared kinds count too, so that moving a claim from Python to its
    paper.toml does not take it out of what ``benchmarks/prover.py`` times."""
    parts = set(claim.check_kind.split("+"))
    return parts <= SCALAR_KINDS and bool(parts & DECIDED_BY_SCALARS)


class OutputError(ValueError):
    """The output folder cannot be written safely (the message is one line; nothing was changed)."""


#: What the runner writes in ``--out``; anything else there belongs to someone else and is kept as is.
MANAGED = ("results.json", "REPORT.md", "counterexamples", "figures", "certificates", "errata", cache.CACHE_DIR)
ARTEFACT_FOLDERS = ("counterexamples", "certificates")


def check_output_folder(out_dir: Path) -> None:
    """Refuse (before anything is written) an ``--out`` that is, or holds in a managed place, a symlink."""
    if out_dir.is_symlink():
        raise OutputError(f"--out {out_dir} is a symbolic link; give the real folder")
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"--out {out_dir} exists and is not a folder")
    if out_dir.is_dir():
        _written_by_olr_verify(out_dir)
    for name in MANAGED:
        path = out_dir / name
        if path.is_symlink():
            raise OutputError(f"{path} is a symbolic link; refusing to write through it")
        if path.is_dir():
            for entry in path.rglob("*"):
                if entry.is_symlink():
                    raise OutputError(f"{entry} is a symbolic link; refusing to replace it")


def _written_by_olr_verify(out_dir: Path) -> None:
    """A run replaces the runner's own entries of ``out_dir`` (MANAGED). Where ``out_dir`` holds one of those
    names but no results.json of an earlier run, the entry is someone else's (``--out ~`` with ``~/.cache``,
    a project's ``figures/``): refuse before anything is written, never delete it."""
    present = [name for name in MANAGED if (out_dir / name).exists() or (out_dir / name).is_symlink()]
    if not present:
        return
    if not (out_dir / "results.json").is_file():
        raise OutputError(f"--out {out_dir} holds {present[0]} but no results.json of an earlier olr-verify run; "
                          "give an empty folder or an earlier output folder")
    previous_results(out_dir)  # an OutputError unless it is a results file with a list of claims


def previous_results(out_dir: Path) -> dict[str, Any] | None:
    """The results.json already in ``out_dir`` (updated by ``--only``), or None; malformed is an error."""
    path = out_dir / "results.json"
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise OutputError(f"cannot update {path}: not a readable results file ({type(exc).__name__})") from None
    if not (isinstance(data, dict) and isinstance(data.get("claims"), list)
            and all(isinstance(c, dict) and isinstance(c.get("id"), str) for c in data["claims"])):
        raise OutputError(f"cannot update {path}: it has no list of claims with ids")
    return data


def _stage(out_dir: Path, previous: dict[str, Any] | None, selected: list[registry.Claim]) -> Path:
    """A new folder beside ``out_dir`` where the run is written; with ``previous``, a copy of the
    runner's files of ``out_dir`` without the selected claims' artefacts (they are decided again)."""
    import shutil
    import tempfile

    out_dir.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.run-", dir=out_dir.parent))
    if previous is None:
        return stage
    for name in ("counterexamples", "figures", "certificates"):
        src = out_dir / name
        if src.is_dir():
            shutil.copytree(src, stage / name, symlinks=True)
    for c in selected:
        for name in ARTEFACT_FOLDERS:
            (stage / name / artefacts.artefact_filename(c.id)).unlink(missing_ok=True)
    return stage


def merge(previous: dict[str, Any] | None, fresh: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The previous claims with the freshly decided ones replaced (or added), in registry order."""
    if previous is None:
        return fresh
    by_id = {c["id"]: c for c in previous["claims"]}
    by_id.update({c["id"]: c for c in fresh})
    order = {c.id: k for k, c in enumerate(registry.claims())}
    return sorted(by_id.values(), key=lambda c: order.get(c["id"], len(order)))


def update(previous: dict[str, Any], fresh: list[dict[str, Any]],
           selected: list[registry.Claim]) -> list[dict[str, Any]]:
    """``--only``: the previous claims with the selected ones decided again; their parents are
    summarised again from their parts; every other claim stays exactly as it was."""
    import copy

    merged = merge(previous, fresh)
    touched = {c.id for c in selected} | {c.parent for c in selected if c.parent}
    kept = {c["id"]: copy.deepcopy(c) for c in merged if c["id"] not in touched}
    summarise(merged, registry.claims())
    return [kept.get(c["id"], c) for c in merged]


def publish(stage: Path, out_dir: Path) -> None:
    """Put the staged run in place of ``out_dir`` in a few renames; entries the runner does not
    manage (e.g. benchmarks.json, a user's notes) move over unchanged, and only the replaced
    runner files are deleted."""
    import shutil
    import stat
    import tempfile

    shutil.rmtree(stage / cache.CACHE_DIR, ignore_errors=True)
    if not out_dir.exists():
        os.chmod(stage, 0o777 & ~_umask())
        os.rename(stage, out_dir)
        return
    os.chmod(stage, stat.S_IMODE(out_dir.stat().st_mode))
    for entry in sorted(os.listdir(out_dir)):
        if entry not in MANAGED:
            target = stage / entry
            if target.exists() or target.is_symlink():  # a check wrote it: the user's entry wins
                shutil.rmtree(target) if target.is_dir() and not target.is_symlink() else target.unlink()
            os.rename(out_dir / entry, target)
    trash = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
    os.rename(out_dir, trash / "old")
    os.rename(stage, out_dir)
    shutil.rmtree(trash)  # only the runner's own files of the previous run are left in it


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _updated_run(previous: dict[str, Any], update_run: dict[str, Any], ids: list[str],
                 results: dict[str, Any]) -> dict[str, Any]:
    """An ``--only`` update keeps the header of the run it updates (its time, mode and selection) and lists
    the updates below it, so REPORT.md never shows an update's few seconds as the time of the whole run."""
    base = previous.get("run") if isinstance(previous.get("run"), dict) else {}
    updates = list(base.get("updates") or [])
    updates.append({"only": update_run["only"], "quick": update_run["quick"], "ids": ids,
                    "seconds": results["seconds"], "generated": results["generated"]})
    if isinstance(previous.get("seconds"), (int, float)):
        results["seconds"] = previous["seconds"]
    if isinstance(previous.get("generated"), str):
        results["generated"] = previous["generated"]
    return {**{k: v for k, v in base.items() if k != "updates"}, "updated": ids, "updates": updates}


def run(out_dir: Path, only: str | None = None, quick: bool = False, jobs: int | None = None,
        progress: bool = True, seed: int = 20261123, scalar_only: bool = False) -> dict[str, Any]:
    """The main job of ``olr-verify run``: check, write results.json and REPORT.md, return the results.

    Claims are selected first (no match: :class:`ValueError`, nothing touched). The run is written
    in a new folder beside ``out_dir`` and put in place at the end (:func:`publish`), so a run
    that is killed leaves the previous report intact. With ``only`` and an existing results.json,
    the selected claims are updated inside it and every other claim is kept as it was.
    ``scalar_only`` keeps the scalar registry (:func:`is_scalar`), as ``benchmarks/prover.py`` times it."""
    import shutil

    from olr_verify import report

    start = time.perf_counter()
    out_dir = Path(out_dir).absolute()  # absolute, not resolved: a symlink stays visible (and is refused)
    selected = [c for c in registry.select(only) if is_scalar(c) or not scalar_only]
    if not selected:
        raise ValueError(f"--only {only!r} selects no claim; nothing was changed")
    if jobs is not None and jobs < 0:
        raise ValueError(f"jobs must be >= 0 (0 = all cores), got {jobs}")
    check_output_folder(out_dir)
    previous = previous_results(out_dir) if only else None
    if previous is not None:  # the claims that linked a re-decided claim are decided again with it
        again = registry.dependents({c.id for c in selected},
                                    {p["id"]: [t for t in p.get("links_to") or [] if isinstance(t, str)]
                                     for p in previous["claims"] if isinstance(p.get("links_to", []), list)})
        selected += [c for c in registry.claims() if c.id in again and c not in selected]
    restore = _exit_on_sigterm()
    stage = _stage(out_dir, previous, selected)
    try:
        ctx = Context(out_dir=stage.resolve(), quick=quick, seed=seed)
        jobs = jobs or os.cpu_count() or 1
        records = run_checks(selected, ctx, jobs, TIME_LIMIT_QUICK if quick else TIME_LIMIT_FULL, progress)
        results = assemble(selected, records, stage, time.perf_counter() - start)
        this_run = {"only": only, "quick": quick, "jobs": jobs, "seed": seed, "scalar_only": scalar_only,
                    "updated": None}
        if previous is not None:
            results["claims"] = update(previous, results["claims"], selected)
            this_run = _updated_run(previous, this_run, [c.id for c in selected], results)
        results["run"] = this_run
        results["sections"] = benchmark_sections(out_dir) + campaign_sections()
        errata.write(results, stage)  # witnesses from the artefacts, errata/<seed>.md (olr_verify/errata.py)
        (stage / "results.json").write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
        (stage / "REPORT.md").write_text(report.render(results), encoding="utf-8")
        publish(stage, out_dir)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)  # the runner's own staging folder only
        raise
    finally:
        restore()
    return results


def _exit_on_sigterm():
    """During a run, SIGTERM (``timeout``, a cancelled CI job) raises SystemExit(143) instead of killing the process
    outright, so that :func:`run` removes its staging folder (``.<out>.run-*`` beside ``--out``), which a plain kill
    left behind; the check processes die with the runner. Returns the function that restores the old handler."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGTERM)

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    return lambda: signal.signal(signal.SIGTERM, previous)

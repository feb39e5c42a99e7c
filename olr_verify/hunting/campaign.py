"""``olr-verify hunt``: many hunts on dask.distributed, results in SQLite as they arrive.

Work is cut into units ``(claim, k)``: hunt ``claim`` for ``unit_seconds`` with seed
``crc32(claim) + k``.  Each finished unit is written to ``reports/hunt/campaign.sqlite`` at once
(best ratio, baseline ratio, sequences evaluated, seconds, and the confirmed artefact if any), so a
killed campaign loses at most the units in flight; a restart skips every unit already stored.
A LocalCluster (processes, one thread each) is started unless ``scheduler`` names a running one.
"""
from __future__ import annotations

import fnmatch
import json
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any

DB_DEFAULT = Path("reports/hunt/campaign.sqlite")
SCHEMA = """CREATE TABLE IF NOT EXISTS units (
  claim TEXT, k INTEGER, seed INTEGER, unit_seconds REAL, best_ratio REAL, baseline_ratio REAL,
  evaluated INTEGER, seconds REAL, found_by TEXT, confirmed INTEGER, details TEXT, artefact TEXT,
  finished REAL, PRIMARY KEY (claim, k, unit_seconds))"""


def select_claims(pattern: str | None) -> list[str]:
    from olr_verify.hunting.bounds import TARGETS

    return [c for c in TARGETS if pattern is None or fnmatch.fnmatchcase(c, pattern) or c.startswith(pattern + "/")]


def run_unit(claim: str, k: int, unit_seconds: float) -> dict:
    """One hunt (executed on a Dask worker); confirms a candidate before calling it a violation."""
    from olr_verify.hunting.confirm import confirm
    from olr_verify.hunting.optimisers import hunt

    seed = (zlib.crc32(claim.encode()) + k) & 0x7FFFFFFF
    res = hunt(claim, unit_seconds, seed)
    out = {"claim": claim, "k": k, "seed": seed, "unit_seconds": unit_seconds, **res.summary(),
           "confirmed": 0, "details": None, "artefact": None}
    if res.best.seq is not None and res.best.ratio > 1:
        ok, details, art = confirm(claim, res.best.seq, res.best.cmp, res.best.lhs, res.best.rhs, res.best.how, seed)
        out.update(confirmed=int(ok), details=json.dumps(details, default=str),
                   artefact=json.dumps({"claim": claim, **art}, default=str))
    return out


def _db(path: Path) -> sqlite3.Connection:
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(str(path))
    con.execute(SCHEMA)
    return con


def store(con: sqlite3.Connection, r: dict) -> None:
    con.execute("INSERT OR REPLACE INTO units VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (r["claim"], r["k"], r["seed"], r["unit_seconds"], r["best_ratio"], r["baseline_ratio"],
                 r["sequences_evaluated"], r["seconds"], r["best_found_by"], r["confirmed"], r["details"],
                 r["artefact"], time.time()))
    con.commit()


def done_units(con: sqlite3.Connection, unit_seconds: float) -> set[tuple[str, int]]:
    return {(c, k) for c, k in con.execute("SELECT claim, k FROM units WHERE unit_seconds = ?", (unit_seconds,))}


def plan(claims: list[str], budget: float, workers: int, unit_seconds: float) -> list[tuple[str, int]]:
    per_claim = max(1, int(budget * workers / (unit_seconds * max(1, len(claims)))))
    return [(c, k) for k in range(per_claim) for c in claims]


def run_campaign(claims: list[str], budget: float, workers: int = 1, scheduler: str | None = None,
                 db: Path = DB_DEFAULT, unit_seconds: float = 10.0, progress: bool = True) -> dict:
    from dask.distributed import Client, LocalCluster, as_completed

    con = _db(db)
    todo = [u for u in plan(claims, budget, workers, unit_seconds) if u not in done_units(con, unit_seconds)]
    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc="hunt units", unit="unit")
    n_workers = max(1, len(client.scheduler_info()["workers"]))
    queue = list(todo)
    futures = [client.submit(run_unit, c, k, unit_seconds, pure=False) for c, k in queue[:2 * n_workers]]
    queue = queue[2 * n_workers:]
    evaluated = 0
    try:
        ac = as_completed(futures)
        for fut in ac:
            r = fut.result()
            store(con, r)
            evaluated += r["sequences_evaluated"]
            if bar:
                bar.update(1)
            if queue and time.perf_counter() - start + unit_seconds <= budget:
                c, k = queue.pop(0)
                ac.add(client.submit(run_unit, c, k, unit_seconds, pure=False))
    finally:
        if bar:
            bar.close()
        client.close()
        if cluster is not None:
            cluster.close()
    wall = time.perf_counter() - start
    return {"wall_seconds": wall, "units_run": len(todo) - len(queue), "sequences": evaluated,
            "throughput": evaluated / wall if wall > 0 else 0.0, "workers": n_workers}


def summary(db: Path = DB_DEFAULT) -> list[dict]:
    """Per claim: best ratio, baseline ratio, sequences evaluated, seconds, confirmed violations."""
    con = _db(db)
    rows = con.execute("""SELECT claim, MAX(best_ratio), MAX(baseline_ratio), SUM(evaluated), SUM(seconds),
                          SUM(confirmed), COUNT(*) FROM units GROUP BY claim ORDER BY claim""").fetchall()
    out = []
    for claim, best, base, ev, sec, conf, units in rows:
        out.append({"claim": claim, "status": "refuted" if conf else "verified", "best_ratio": best,
                    "baseline_ratio": base, "sequences": ev, "seconds": round(sec, 1), "units": units,
                    "confirmed_violations": conf})
    return out


def artefacts(db: Path = DB_DEFAULT) -> dict[str, Any]:
    con = _db(db)
    found = {}
    for claim, art in con.execute("SELECT claim, artefact FROM units WHERE confirmed = 1 ORDER BY best_ratio DESC"):
        found.setdefault(claim, json.loads(art))
    return found


def throughput(claims: list[str], seconds: float, unit_seconds: float = 5.0) -> dict:
    """Sequences/s with 1 and with 2 Dask workers on the same work (a scratch database)."""
    import tempfile

    out = {}
    for w in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            r = run_campaign(claims, seconds, workers=w, db=Path(tmp) / "t.sqlite", unit_seconds=unit_seconds,
                             progress=False)
        out[f"{w}_workers"] = r
    out["speedup"] = out["2_workers"]["throughput"] / max(out["1_workers"]["throughput"], 1e-12)
    return out

"""``olr-verify hunt``: many hunts on dask.distributed, results in SQLite as they arrive.

Work is cut into units ``(claim, k)``: hunt ``claim`` (parameters and sequences jointly, see
:mod:`~olr_verify.hunting.space`) for ``unit_seconds`` with seed ``crc32(claim) + k``.  Each finished
unit is written to ``reports/hunt/campaign.sqlite`` at once (best ratio, baseline ratio, sequences
evaluated, seconds, the 50-digit replay outcome and the confirmed artefact if any), so a killed campaign
loses at most the units in flight; a restart of the same ``campaign`` skips every unit already stored.
Rows belong to a named campaign: two campaigns on one database never overwrite each other's rows
(a unit already stored is kept, never replaced).
A LocalCluster (processes, one thread each, bound to 127.0.0.1) is started unless ``scheduler`` names a
running one; a scheduler must be trusted, since Dask exchanges pickles with it.
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
SCHEMA = """CREATE TABLE IF NOT EXISTS hunt_units (
  campaign TEXT NOT NULL, claim TEXT, k INTEGER, seed INTEGER, unit_seconds REAL, best_ratio REAL,
  baseline_ratio REAL, evaluated INTEGER, seconds REAL, found_by TEXT, confirmed INTEGER, replay TEXT,
  details TEXT, artefact TEXT, finished REAL, PRIMARY KEY (campaign, claim, k, unit_seconds))"""


def select_claims(pattern: str | None) -> list[str]:
    from olr_verify.hunting.bounds import TARGETS

    return [c for c in TARGETS if pattern is None or fnmatch.fnmatchcase(c, pattern) or c.startswith(pattern + "/")]


def unit_seed(claim: str, k: int, campaign: str = "default") -> int:
    """crc32(claim) + k for the default campaign; another campaign name draws other seeds."""
    key = claim if campaign == "default" else f"{campaign}/{claim}"
    return (zlib.crc32(key.encode()) + k) & 0x7FFFFFFF


def run_unit(claim: str, k: int, unit_seconds: float, campaign: str = "default") -> dict:
    """One hunt (executed on a Dask worker); confirms a candidate before calling it a violation."""
    from olr_verify.hunting.confirm import confirm
    from olr_verify.hunting.optimisers import hunt

    seed = unit_seed(claim, k, campaign)
    res = hunt(claim, unit_seconds, seed)
    out = {"claim": claim, "k": k, "seed": seed, "unit_seconds": unit_seconds, **res.summary(),
           "confirmed": 0, "replay": None, "details": None, "artefact": None}
    for cand in res.candidates:  # largest float64 violation first
        ok, details, art = confirm(claim, cand.seq, cand.cmp, cand.lhs, cand.rhs, cand.how, seed)
        if out["replay"] in (None, "dismissed") or ok:
            out.update(confirmed=int(ok), replay=details.get("replay_outcome"),
                       details=json.dumps(details, default=str),
                       artefact=json.dumps({"claim": claim, **art}, default=str) if ok else None)
        if ok:
            break
    return out


LEGACY = "SELECT 'default' AS campaign, units.*, NULL AS replay FROM units"  # before named campaigns


def _tables(con: sqlite3.Connection) -> set[str]:
    return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _db(path: Path) -> sqlite3.Connection:
    """Open for writing; rows of a database from before named campaigns join the 'default' campaign."""
    path.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(str(path))
    fresh = "hunt_units" not in _tables(con)
    con.execute(SCHEMA)
    if fresh and "units" in _tables(con):
        con.execute("""INSERT OR IGNORE INTO hunt_units (campaign, claim, k, seed, unit_seconds, best_ratio,
                       baseline_ratio, evaluated, seconds, found_by, confirmed, replay, details, artefact, finished)
                       SELECT campaign, claim, k, seed, unit_seconds, best_ratio, baseline_ratio, evaluated, seconds,
                       found_by, confirmed, replay, details, artefact, finished FROM (""" + LEGACY + ")")
        con.commit()
    return con


def _read(path: Path) -> tuple[sqlite3.Connection | None, str]:
    """Open read-only (a report never writes to a committed database): connection and the rows' source."""
    if not Path(path).exists():
        return None, ""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    tables = _tables(con)
    return con, "hunt_units" if "hunt_units" in tables else f"({LEGACY})" if "units" in tables else ""


def store(con: sqlite3.Connection, r: dict, campaign: str = "default") -> bool:
    """Insert one finished unit; a row already stored (same campaign, claim, k, unit length) is kept, never
    replaced.  Returns whether the row was new."""
    cur = con.execute("INSERT OR IGNORE INTO hunt_units VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                      (campaign, r["claim"], r["k"], r["seed"], r["unit_seconds"], r["best_ratio"],
                       r["baseline_ratio"], r["sequences_evaluated"], r["seconds"], r["best_found_by"],
                       r["confirmed"], r.get("replay"), r["details"], r["artefact"], time.time()))
    con.commit()
    return cur.rowcount == 1


def done_units(con: sqlite3.Connection, unit_seconds: float, campaign: str = "default") -> set[tuple[str, int]]:
    return {(c, k) for c, k in con.execute("SELECT claim, k FROM hunt_units WHERE unit_seconds = ? AND campaign = ?",
                                           (unit_seconds, campaign))}


def plan(claims: list[str], budget: float, workers: int, unit_seconds: float) -> list[tuple[str, int]]:
    per_claim = max(1, int(budget * workers / (unit_seconds * max(1, len(claims)))))
    return [(c, k) for k in range(per_claim) for c in claims]


def run_campaign(claims: list[str], budget: float, workers: int = 1, scheduler: str | None = None,
                 db: Path = DB_DEFAULT, unit_seconds: float = 10.0, progress: bool = True,
                 campaign: str = "default") -> dict:
    from dask.distributed import Client, LocalCluster, as_completed

    if workers < 1 or not unit_seconds > 0 or not budget > 0:
        raise ValueError(f"workers must be >= 1, unit_seconds and budget > 0 (got workers={workers}, "
                         f"unit_seconds={unit_seconds}, budget={budget})")
    con = _db(db)
    done = done_units(con, unit_seconds, campaign)
    todo = [u for u in plan(claims, budget, workers, unit_seconds) if u not in done]
    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                               host="127.0.0.1")  # Dask exchanges pickles: never listen beyond this machine
        client = Client(cluster)
    start = time.perf_counter()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc="hunt units", unit="unit")
    n_workers = max(1, len(client.scheduler_info()["workers"]))
    queue = list(todo)
    futures = [client.submit(run_unit, c, k, unit_seconds, campaign, pure=False) for c, k in queue[:2 * n_workers]]
    queue = queue[2 * n_workers:]
    evaluated = 0
    try:
        ac = as_completed(futures)
        for fut in ac:
            r = fut.result()
            store(con, r, campaign)
            evaluated += r["sequences_evaluated"]
            if bar:
                bar.update(1)
            if queue and time.perf_counter() - start + unit_seconds <= budget:
                c, k = queue.pop(0)
                ac.add(client.submit(run_unit, c, k, unit_seconds, campaign, pure=False))
    finally:
        if bar:
            bar.close()
        client.close()
        if cluster is not None:
            cluster.close()
    wall = time.perf_counter() - start
    return {"wall_seconds": wall, "units_run": len(todo) - len(queue), "sequences": evaluated,
            "throughput": evaluated / wall if wall > 0 else 0.0, "workers": n_workers}


def summary(db: Path = DB_DEFAULT, campaign: str | None = None) -> list[dict]:
    """Per claim (of one campaign, or of all): best ratio, baseline ratio, sequences, seconds, confirmed
    violations; status refuted (a confirmed violation), inconclusive (a float64 violation the replay could
    not settle) or verified."""
    con, source = _read(db)
    if not source:
        return []
    rows = con.execute(f"""SELECT claim, MAX(best_ratio), MAX(baseline_ratio), SUM(evaluated), SUM(seconds),
                          SUM(confirmed), SUM(replay = 'unresolved'), COUNT(*) FROM {source}
                          WHERE ? IS NULL OR campaign = ? GROUP BY claim ORDER BY claim""",
                       (campaign, campaign)).fetchall()
    out = []
    for claim, best, base, ev, sec, conf, unresolved, units in rows:
        status = "refuted" if conf else "inconclusive" if unresolved else "verified"
        out.append({"claim": claim, "status": status, "best_ratio": best,
                    "baseline_ratio": base, "sequences": ev, "seconds": round(sec, 1), "units": units,
                    "confirmed_violations": conf, "unresolved_candidates": unresolved or 0})
    return out


def artefacts(db: Path = DB_DEFAULT, campaign: str | None = None) -> dict[str, Any]:
    con, source = _read(db)
    found: dict[str, Any] = {}
    if not source:
        return found
    for claim, art in con.execute(f"""SELECT claim, artefact FROM {source} WHERE confirmed = 1
                                     AND (? IS NULL OR campaign = ?) ORDER BY best_ratio DESC""", (campaign, campaign)):
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

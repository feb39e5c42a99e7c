"""Results shared by several checks of one run (e.g. an experiment and the claims read off its figure).

Checks run in separate processes; ``shared(ctx, key, compute)`` computes ``compute()`` once per run
and (quick, seed): the first process to ask holds a file lock while it computes and pickles the
result under ``<stage>/.olr-verify-cache/``; the others wait on the lock and read it. ``<stage>`` is the
fresh directory the runner creates for each run and removes the cache from before publishing, so nothing is
reused across runs or code changes and nothing outside the run is ever unpickled.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import re
from pathlib import Path
from typing import Any, Callable

from olr_verify.outcome import Context

CACHE_DIR = ".olr-verify-cache"


def shared(ctx: Context, key: str, compute: Callable[[], Any]) -> Any:
    folder = Path(ctx.out_dir) / CACHE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    raw = f"{key}-{'quick' if ctx.quick else 'full'}-{ctx.seed}"
    # readable prefix + hash of the exact key: two keys that differ only in characters replaced by "_" (claim ids
    # k:a/b and k_a:b) must not share a result
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", raw)[:80] + "-" + hashlib.sha256(raw.encode()).hexdigest()[:16]
    data, lock = folder / f"{stem}.pkl", folder / f"{stem}.lock"
    with open(lock, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            if data.exists():
                return pickle.loads(data.read_bytes())
            value = compute()
            partial = data.with_suffix(".partial")
            partial.write_bytes(pickle.dumps(value))
            os.replace(partial, data)  # atomic: a process killed while writing leaves no truncated result
            return value
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


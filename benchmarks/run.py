"""Run every benchmark script of this folder and save their printed tables for the report.

Each ``benchmarks/<name>.py`` prints its results as markdown (tables and short notes). This
script runs them one after the other (never in parallel: they measure time), echoes their
output, and writes ``reports/latest/benchmarks.json``; ``olr-verify run`` puts it in the report's
performance section with the date it was measured.

Usage: ``make bench`` or ``python benchmarks/run.py [name ...] [--out reports/latest]``.
"""
from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent


SEPARATE = ("mutation", "cvc5_compare")  # run only when named (prover.py prints a sampled cvc5 table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", help="benchmark names (default: all)")
    parser.add_argument("--out", default=str(HERE.parent / "reports" / "latest"))
    args = parser.parse_args(argv)
    scripts = sorted(p for p in HERE.glob("*.py") if p.name != "run.py" and not p.name.startswith("_"))
    if args.names:
        scripts = [p for p in scripts if p.stem in args.names]
    else:  # mutation testing (~30 min) has its own target, make mutation
        scripts = [p for p in scripts if p.stem not in SEPARATE]
    entries = []
    for script in scripts:
        print(f"## {script.stem}", flush=True)
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
        seconds = time.perf_counter() - start
        print(proc.stdout, flush=True)
        if proc.returncode != 0:
            print(proc.stderr[-3000:], file=sys.stderr)
        entries.append({"name": script.stem, "seconds": round(seconds, 1), "returncode": proc.returncode,
                        "markdown": proc.stdout.strip() if proc.returncode == 0
                        else f"benchmark failed (exit {proc.returncode}):\n\n```\n{proc.stderr[-2000:]}\n```"})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    previous = out / "benchmarks.json"
    if args.names and previous.exists():  # a partial run keeps the other benchmarks' last numbers
        ran = {e["name"] for e in entries}
        kept = [e for e in json.loads(previous.read_text(encoding="utf-8")).get("benchmarks", [])
                if e["name"] not in ran]
        entries = sorted(kept + entries, key=lambda e: e["name"])
    record = {"generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
              "benchmarks": entries}
    (out / "benchmarks.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    print(f"wrote {out / 'benchmarks.json'}")
    return 0 if all(e["returncode"] == 0 for e in entries) else 1


if __name__ == "__main__":
    sys.exit(main())

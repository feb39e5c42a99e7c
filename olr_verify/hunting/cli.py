"""``olr-verify hunt [--claims GLOB] [--budget 10m] [--workers N] [--scheduler ADDRESS]``."""
from __future__ import annotations

import argparse
import json
from pathlib import Path


def parse_budget(text: str) -> float:
    """'90' or '90s' -> 90.0, '10m' -> 600.0, '1h' -> 3600.0.

    >>> parse_budget("2m"), parse_budget("45s"), parse_budget("3")
    (120.0, 45.0, 3.0)
    """
    text = text.strip().lower()
    mult = {"s": 1, "m": 60, "h": 3600}.get(text[-1:], None)
    return float(text[:-1]) * mult if mult else float(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--claims", default=None, help="glob of claim ids (default: every hunted bound)")
    parser.add_argument("--budget", default="10m", help="wall-clock budget, e.g. 90s, 10m, 1h")
    parser.add_argument("--workers", type=int, default=2, help="Dask workers of the LocalCluster")
    parser.add_argument("--scheduler", default=None, help="address of a running Dask scheduler")
    parser.add_argument("--db", default=str(Path("reports/hunt/campaign.sqlite")), help="SQLite results")
    parser.add_argument("--unit-seconds", type=float, default=10.0, help="length of one hunt unit")
    parser.add_argument("--throughput", action="store_true", help="also measure sequences/s with 1 and 2 workers")
    parser.add_argument("--no-progress", action="store_true")


def main(args: argparse.Namespace) -> int:
    from olr_verify.hunting import campaign

    claims = campaign.select_claims(args.claims)
    if not claims:
        print(f"no hunted bound matches {args.claims!r}")
        return 2
    budget = parse_budget(args.budget)
    db = Path(args.db)
    run = campaign.run_campaign(claims, budget, workers=args.workers, scheduler=args.scheduler, db=db,
                                unit_seconds=args.unit_seconds, progress=not args.no_progress)
    rows = campaign.summary(db)
    print(f"{'claim':32s} {'status':9s} {'best':>10s} {'baseline':>10s} {'sequences':>10s} {'seconds':>8s}")
    for r in rows:
        if r["claim"] in claims:
            print(f"{r['claim']:32s} {r['status']:9s} {r['best_ratio']:10.4g} {r['baseline_ratio']:10.4g} "
                  f"{r['sequences']:10d} {r['seconds']:8.1f}")
    art_dir = db.parent / "artefacts"
    from olr_verify.artefacts import write

    for claim, art in campaign.artefacts(db).items():
        art = {k: v for k, v in art.items() if k != "claim"}
        print(f"confirmed violation of {claim}: {write(art, art_dir, claim)}")
    print(f"this run: {run['units_run']} units, {run['sequences']} sequences in {run['wall_seconds']:.1f} s "
          f"({run['throughput']:.1f} sequences/s, {run['workers']} workers); results in {db}")
    if args.throughput:
        tp = campaign.throughput(claims[:2], min(60.0, max(20.0, budget / 4)), unit_seconds=5.0)
        print(json.dumps({"sequences_per_s_1_worker": round(tp["1_workers"]["throughput"], 2),
                          "sequences_per_s_2_workers": round(tp["2_workers"]["throughput"], 2),
                          "speedup": round(tp["speedup"], 3)}))
    return 0

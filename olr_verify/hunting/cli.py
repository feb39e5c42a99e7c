"""``olr-verify hunt [--claims GLOB] [--budget 10m] [--workers N] [--scheduler ADDRESS] [--campaign NAME]``."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def parse_budget(text: str) -> float:
    """'90' or '90s' -> 90.0, '10m' -> 600.0, '1h' -> 3600.0; anything else raises ValueError.

    >>> parse_budget("2m"), parse_budget("45s"), parse_budget("3")
    (120.0, 45.0, 3.0)
    """
    from olr_verify.cli import duration

    try:
        return duration(text)
    except argparse.ArgumentTypeError as exc:
        raise ValueError(str(exc)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``olr-verify hunt``, each checked by an argparse type (one-line error, exit status 2)."""
    from olr_verify.cli import duration, positive_float, positive_int

    parser.add_argument("--claims", default=None, help="glob of claim ids (default: every hunted bound)")
    parser.add_argument("--budget", default=600.0, type=duration, help="wall-clock budget, e.g. 90s, 10m, 1h")
    parser.add_argument("--workers", type=positive_int, default=2, help="Dask workers of the LocalCluster (>= 1)")
    parser.add_argument("--scheduler", default=None,
                        help="address of a running Dask scheduler; it must be trusted (Dask exchanges pickles)")
    parser.add_argument("--db", default=str(Path("reports/hunt/campaign.sqlite")), help="SQLite results")
    parser.add_argument("--campaign", default="default",
                        help="campaign name: rows of other campaigns in the same database are never touched; "
                             "the same name resumes (units already stored are skipped)")
    parser.add_argument("--unit-seconds", type=positive_float, default=10.0, help="length of one hunt unit (> 0)")
    parser.add_argument("--throughput", action="store_true", help="also measure sequences/s with 1 and 2 workers")
    parser.add_argument("--no-progress", action="store_true")


def main(args: argparse.Namespace) -> int:
    from olr_verify.hunting import campaign

    claims = campaign.select_claims(args.claims)
    if not claims:
        print(f"olr-verify hunt: error: no hunted bound matches --claims {args.claims!r}", file=sys.stderr)
        return 2
    budget = args.budget if isinstance(args.budget, float) else parse_budget(args.budget)
    db = Path(args.db)
    run = campaign.run_campaign(claims, budget, workers=args.workers, scheduler=args.scheduler, db=db,
                                unit_seconds=args.unit_seconds, progress=not args.no_progress,
                                campaign=args.campaign)
    rows = campaign.summary(db, args.campaign)
    print(f"{'claim':32s} {'status':9s} {'best':>10s} {'baseline':>10s} {'sequences':>10s} {'seconds':>8s}")
    for r in rows:
        if r["claim"] in claims:
            print(f"{r['claim']:32s} {r['status']:9s} {r['best_ratio']:10.4g} {r['baseline_ratio']:10.4g} "
                  f"{r['sequences']:10d} {r['seconds']:8.1f}")
    art_dir = db.parent / "artefacts"
    from olr_verify.artefacts import write

    for claim, art in campaign.artefacts(db, args.campaign).items():
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

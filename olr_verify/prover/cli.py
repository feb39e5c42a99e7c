"""``olr-verify prove "<relation>" --var "x=-oo..oo" [--var ...] [--json]``."""
from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("relation", help='e.g. "x + exp(-x) <= exp(9*x**2/16)"')
    parser.add_argument("--var", action="append", default=[], metavar="NAME=LO..HI",
                        help="a variable and its range, in order (bounds may use earlier variables)")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--max-boxes", type=int, default=200_000)
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")


def parse_var(text: str) -> tuple[str, tuple[str, str]]:
    name, _, rng = text.partition("=")
    lo, sep, hi = rng.partition("..")
    if not name.strip() or not sep:
        raise SystemExit(f"--var expects NAME=LO..HI, got {text!r}")
    return name.strip(), (lo.strip(), hi.strip())


def main(args: argparse.Namespace) -> int:
    from olr_verify.prover import prove

    domain = dict(parse_var(v) for v in args.var)
    res = prove(args.relation, domain, timeout=args.timeout, max_boxes=args.max_boxes)
    if args.json:
        print(json.dumps({"status": res.status, "counterexample": res.counterexample,
                          "seconds": round(res.seconds, 3), "certificate": res.certificate}, indent=1, default=str))
    else:
        c = res.certificate
        print(f"{res.status} in {res.seconds:.2f} s: {c.get('boxes', 0)} boxes, closers {c.get('closers', {})}")
        if c.get("tails"):
            print(f"tails: {c['tails']}")
        if res.counterexample:
            print(f"counterexample: {res.counterexample}")
        if c.get("reason"):
            print(f"reason: {c['reason']}")
    return {"proved": 0, "refuted": 1}.get(res.status, 2)

"""``olr-verify prove "<relation>" --var "x=-oo..oo" [--var ...] [--json]``."""
from __future__ import annotations

import argparse
import json
import re


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from olr_verify.cli import positive_float, positive_int

    parser.add_argument("relation", help='e.g. "x + exp(-x) <= exp(9*x**2/16)"')
    parser.add_argument("--var", action="append", default=[], metavar="NAME=LO..HI", type=parse_var,
                        help="a variable and its range, in order (bounds may use earlier variables)")
    parser.add_argument("--timeout", type=positive_float, default=30.0, help="seconds (> 0)")
    parser.add_argument("--max-boxes", type=positive_int, default=200_000)
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def parse_var(text: str) -> tuple[str, tuple[str, str]]:
    """``"x=-oo..oo"`` -> ``("x", ("-oo", "oo"))`` (an argparse type: a bad value is a one-line error)."""
    name, eq, rng = text.partition("=")
    lo, sep, hi = rng.partition("..")
    name = name.strip()
    if not eq or not sep or not lo.strip() or not hi.strip():
        raise argparse.ArgumentTypeError(f"--var expects NAME=LO..HI, got {text!r}")
    if not _NAME.fullmatch(name):
        raise argparse.ArgumentTypeError(f"--var: {name!r} is not a variable name (a letter, then letters, "
                                         "digits or _)")
    return name, (lo.strip(), hi.strip())


def domain_of(pairs: list[tuple[str, tuple[str, str]]]) -> dict[str, tuple[str, str]]:
    """The ordered domain of the ``--var`` options; a variable given twice is an error."""
    from olr_verify.cli import UsageError

    domain: dict[str, tuple[str, str]] = {}
    for name, rng in pairs:
        if name in domain:
            raise UsageError(f"--var {name} is given twice")
        domain[name] = rng
    if not domain:
        raise UsageError("give the range of every variable with --var NAME=LO..HI")
    return domain


def main(args: argparse.Namespace) -> int:
    from olr_verify.prover import prove
    from olr_verify.prover.parse import parse_domain, parse_relation

    domain = domain_of(args.var)
    parse_relation(args.relation, [v.name for v in parse_domain(domain)])  # a bad input fails here, clearly
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

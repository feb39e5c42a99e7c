"""Command line: ``olr-verify run | list | replay | prove | hunt``."""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

DEFAULT_OUT = Path("reports/latest")


def cmd_run(args: argparse.Namespace) -> int:
    from olr_verify import runner

    results = runner.run(Path(args.out), only=args.only, quick=args.quick, jobs=args.jobs,
                         progress=not args.no_progress, seed=args.seed)
    counts: dict[str, int] = {}
    for c in results["claims"]:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    print(f"{len(results['claims'])} claims in {results['seconds']} s: "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    print(f"wrote {Path(args.out) / 'results.json'} and {Path(args.out) / 'REPORT.md'}")
    return 0


def _latest_statuses(path: Path) -> dict[str, str]:
    if not path.exists():
        return {}
    return {c["id"]: c["status"] for c in json.loads(path.read_text(encoding="utf-8"))["claims"]}


def cmd_list(args: argparse.Namespace) -> int:
    from olr_verify import registry

    statuses = _latest_statuses(Path(args.results))
    shown = 0
    for c in registry.select(args.only, seed=args.seed, kind=args.kind):
        status = statuses.get(c.id, "not run")
        if args.status and status != args.status:
            continue
        check = "check" if c.check is not None else "no check"
        print(f"{c.id:42s} {status:13s} {check:9s} {c.check_kind:28s} {c.title}")
        shown += 1
    print(f"{shown} claims", file=sys.stderr)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from olr_verify import artefacts

    confirmed, details = artefacts.replay(args.path)
    print(json.dumps({"confirmed": confirmed, **details}, indent=1, default=str))
    return 0 if confirmed else 1


def _optional(module: str):
    """A subcommand implemented in another module (``add_arguments`` and ``main``), if present."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return None
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="olr-verify", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="verify the claim registry and write the report")
    p.add_argument("--only", help="a claim id or glob (an id also selects its parts)")
    p.add_argument("--quick", action="store_true", help="reduced budgets (about 2 minutes)")
    p.add_argument("--out", default=str(DEFAULT_OUT), help="output folder (default reports/latest)")
    p.add_argument("--jobs", type=int, default=None, help="parallel checks (default: number of cores)")
    p.add_argument("--seed", type=int, default=20261123, help="seed of every random choice")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("list", help="list registered claims")
    p.add_argument("--seed", choices=["000", "001", "002", "003", "004"])
    p.add_argument("--kind", help="lemma, theorem, equation, algorithm, ...")
    p.add_argument("--status", choices=["proved", "refuted", "verified", "inconclusive", "error", "not run"])
    p.add_argument("--only", help="a claim id or glob")
    p.add_argument("--results", default=str(DEFAULT_OUT / "results.json"),
                   help="results.json giving the statuses (default reports/latest/results.json)")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("replay", help="re-check a counterexample artefact")
    p.add_argument("path")
    p.set_defaults(func=cmd_replay)

    for name, module, text in (("prove", "olr_verify.prover.cli", "prove a scalar inequality"),
                               ("hunt", "olr_verify.hunting.cli", "run a bound-hunting campaign")):
        mod = _optional(module)
        if mod is not None:
            p = sub.add_parser(name, help=text)
            mod.add_arguments(p)
            p.set_defaults(func=mod.main)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # e.g. `olr-verify list | head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())

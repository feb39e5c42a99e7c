"""Command line: ``olr-verify run | list | replay | prove | hunt``.

Every error is one line on stderr and exit status 2 (``--debug`` anywhere on the line shows the
traceback instead). Arguments are checked by argparse types (:func:`jobs_type`, :func:`seed_type`,
:func:`positive_float`, :func:`positive_int`, :func:`duration`).
"""
from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import re
import sys
from pathlib import Path

DEFAULT_OUT = Path("reports/latest")


class UsageError(Exception):
    """A user error with a one-line message: printed as ``olr-verify: error: ...``, exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a bad argument in one line (no usage block) and exits with status 2."""

    def error(self, message: str):  # noqa: D102 - argparse API
        self.exit(2, f"{self.prog}: error: {one_line(message)}\n")


def one_line(text: object, limit: int = 400) -> str:
    """``text`` on one line, at most ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _integer(text: str, what: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"[+-]?\d{1,18}", text):
        raise argparse.ArgumentTypeError(f"{what} must be an integer, got {text!r}")
    return int(text)


def jobs_type(text: str) -> int:
    """``--jobs``: an integer >= 0; 0 means every core."""
    n = _integer(text, "jobs")
    if n < 0:
        raise argparse.ArgumentTypeError(f"jobs must be >= 0 (0 = all cores), got {n}")
    return n or (os.cpu_count() or 1)


def seed_type(text: str) -> int:
    """``--seed``: an integer in 0 .. 2**63 - 1."""
    n = _integer(text, "seed")
    if not 0 <= n < 2 ** 63:
        raise argparse.ArgumentTypeError(f"seed must be in 0 .. 2**63-1, got {n}")
    return n


def positive_int(text: str) -> int:
    n = _integer(text, "value")
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {n}")
    return n


def positive_float(text: str) -> float:
    """A finite number > 0 (e.g. a timeout in seconds)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not (math.isfinite(x) and x > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return x


def pattern_type(text: str) -> str:
    """``--only``: a claim id or glob; an empty pattern would select every claim (a full run), so it is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError("--only needs a claim id or glob (an empty pattern would select every claim)")
    return text


_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}


def duration(text: str) -> float:
    """A duration in seconds: ``90``, ``90s``, ``10m``, ``2h`` (finite, > 0)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d*)?)\s*(s|m|min|h)?\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"duration must look like 90, 90s, 10m or 2h, got {text!r}")
    seconds = float(m.group(1)) * _UNITS[m.group(2) or ""]
    if not (math.isfinite(seconds) and 0 < seconds <= 366 * 86400):
        raise argparse.ArgumentTypeError(f"duration must be > 0 and at most a year, got {text!r}")
    return seconds


def add_papers(folders: list[str], run_code: bool = False, listing: bool = False) -> None:
    """Add each ``--paper DIR`` to the registry of this process (CONTRACT: a paper as a folder); a folder's
    Python modules run only with ``--allow-code``, and never for ``list``."""
    from olr_verify import registry

    for folder in folders:
        registry.add_paper(folder, run_code=run_code, listing=listing)


def cmd_run(args: argparse.Namespace) -> int:
    from olr_verify import runner

    add_papers(args.paper, run_code=args.allow_code)

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
    """Claim id -> status from a results.json (none when the file does not exist)."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(c["id"]): str(c["status"]) for c in data["claims"]}
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"--results {path}: not a readable results file ({type(exc).__name__}: "
                         f"{one_line(exc, 80)})") from None


def cmd_list(args: argparse.Namespace) -> int:
    from olr_verify import registry

    add_papers(args.paper, listing=True)
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

    add_papers(args.paper, run_code=args.allow_code)
    confirmed, details = artefacts.replay(args.path)
    print(json.dumps({"confirmed": confirmed, **details}, indent=1, default=str))
    return 0 if confirmed else 1


def cmd_check_proof(args: argparse.Namespace) -> int:
    """Prints ``accepted`` (exit 0) or ``rejected: <reason>`` (exit 1): the kernel's verdict on the file."""
    from olr_verify.kernel.cli import verdict_of

    ok, reason = verdict_of(args.path, args.results, args.time_limit)
    reason = _one_line(reason)  # a name inside the certificate may hold a newline (and a line "accepted")
    print("accepted" if ok else f"rejected: {reason}")
    if ok and reason != "accepted":  # accepted, but not bound to a report: said apart, stdout keeps the contract
        print(f"note: {reason}", file=sys.stderr)
    return 0 if ok else 1


def _one_line(text: str) -> str:
    """Control characters shown escaped (``\\n``), so that a message is one line."""
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: m.group().encode("unicode_escape").decode(), text)


def _optional(module: str):
    """A subcommand implemented in another module (``add_arguments`` and ``main``), if present."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            return None
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="olr-verify", description=__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--debug", action="store_true", help="show a traceback on errors")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)

    p = sub.add_parser("run", help="verify the claim registry and write the report")
    p.add_argument("--only", type=pattern_type, help="a claim id or glob (an id also selects its parts)")
    p.add_argument("--quick", action="store_true", help="reduced budgets (about 2 minutes)")
    p.add_argument("--out", default=str(DEFAULT_OUT), help="output folder (default reports/latest)")
    p.add_argument("--jobs", type=jobs_type, default=None,
                   help="parallel checks, >= 1 (0 or default: number of cores)")
    p.add_argument("--seed", type=seed_type, default=20261123, help="seed of every random choice")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--paper", action="append", default=[], metavar="DIR",
                   help="add the paper folder DIR (paper.toml) to the registry (repeatable)")
    p.add_argument("--allow-code", action="store_true",
                   help="import the *.py check modules of the --paper folders (they run as Python)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("list", help="list registered claims")
    p.add_argument("--seed", choices=["000", "001", "002", "003", "004"])
    p.add_argument("--kind", help="lemma, theorem, equation, algorithm, ...")
    p.add_argument("--status", choices=["proved", "refuted", "verified", "inconclusive", "error", "not run"])
    p.add_argument("--only", type=pattern_type, help="a claim id or glob")
    p.add_argument("--results", default=str(DEFAULT_OUT / "results.json"),
                   help="results.json giving the statuses (default reports/latest/results.json)")
    p.add_argument("--paper", action="append", default=[], metavar="DIR",
                   help="add the paper folder DIR (paper.toml) to the registry (repeatable)")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("replay", help="re-check a counterexample artefact against the registry")
    p.add_argument("path")
    p.add_argument("--paper", action="append", default=[], metavar="DIR",
                   help="a paper folder whose claims the artefact may belong to (repeatable)")
    p.add_argument("--allow-code", action="store_true",
                   help="import the *.py check modules of the --paper folders (they run as Python)")
    p.set_defaults(func=cmd_replay)

    for name, module, text in (("prove", "olr_verify.prover.cli", "prove a scalar inequality"),
                               ("hunt", "olr_verify.hunting.cli", "run a bound-hunting campaign")):
        mod = _optional(module)
        if mod is not None:
            p = sub.add_parser(name, help=text)
            mod.add_arguments(p)
            p.set_defaults(func=mod.main)

    p = sub.add_parser("check-proof", help="re-check a proof certificate (kernel)")
    p.add_argument("path", type=Path, help="a certificate JSON file (e.g. reports/latest/certificates/000_lemma-5.json)")
    p.add_argument("--results", type=Path, default=None,
                   help="results.json binding the certificate's claim (default: ../../results.json if present)")
    p.add_argument("--time-limit", type=float, default=300.0, metavar="SECONDS",
                   help="safety net: reject a certificate not decided within this many seconds (default 300; 0: none)")
    p.set_defaults(func=cmd_check_proof)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; an error becomes one line on stderr and exit status 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    argv = [a for a in argv if a != "--debug"]
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # e.g. `olr-verify list | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"olr-verify {args.command}: interrupted", file=sys.stderr)
        return 130
    except SystemExit as exc:  # a subcommand's own exit: a message becomes one line, status 2
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        print(f"olr-verify {args.command}: error: {one_line(exc.code)}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - the CLI's promise: one line, no traceback
        if debug:
            raise
        print(f"olr-verify {args.command}: error: {_describe(exc)}", file=sys.stderr)
        return 2


def _describe(exc: BaseException) -> str:
    """One line naming what went wrong; the class is named when it is not a plain usage error."""
    from olr_verify.expr import ExprError

    if isinstance(exc, (UsageError, ExprError, ValueError)):
        return one_line(exc)
    if isinstance(exc, (OSError, ValueError, KeyError, TypeError, LookupError)):
        return one_line(f"{type(exc).__name__}: {exc}")
    return one_line(f"{type(exc).__name__}: {exc} (run with --debug for the traceback)")


if __name__ == "__main__":
    sys.exit(main())

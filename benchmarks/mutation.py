"""Benchmark: mutation score of the learners in algorithms/ under their focused tests (mutmut >= 3).

Usage:  .venv/bin/python benchmarks/mutation.py [--max-children N] [--workdir DIR] [--keep] [--list-survivors]
        .venv/bin/python benchmarks/mutation.py --workdir DIR --retest-survivors   (after adding tests)
        (``make mutation``)

What it does. The ``[tool.mutmut]`` section of pyproject.toml names the files to mutate (aioli, ons, ogd, ftrl, ekf,
scale_invariant, gaf) and the test selection (tests/algorithms, tests/multiclass). mutmut writes a ``mutants/``
tree next to the sources it mutates, so the run happens in a scratch copy of the files it needs (algorithms/,
reference/, tests/conftest.py, the two test folders, pyproject.toml), never in the working tree. Each mutant is
one small change of the source (an operator, a constant, an argument dropped ...); it is *killed* when at least
one test that executes the mutated function fails, *times out* when the tests run past mutmut's limit (counted as
detected, printed separately), and *survives* otherwise. Mutants that no selected test executes count as
survivors ("no tests").

Prints a markdown table per file and the line ``mutation score: K/N killed (P %)`` with K = killed + timed out,
N = every mutant generated. Exit status 0 even below the 90 % target: the number is the result.

Compiled kernels. mutmut never mutates a decorated function (it cannot rebuild its trampoline around an arbitrary
decorator), so numba's ``@njit``/``@jit`` kernels (AIOLI's round) would silently drop out of the denominator. In
the scratch copy only, those decorators are removed from the files to mutate (``strip_jit_decorators``) and every
run has ``NUMBA_DISABLE_JIT=1``, under which numba's decorators are the identity anyway: the mutated code is the
kernel's Python source, run as plain Python (numba's documented debugging mode). Nothing else is excluded.

``--retest-survivors`` reuses the scratch tree of an earlier run (``--workdir``): it copies the current test
selection into it again and re-runs only the mutants that were not detected, so that new tests can be checked
against the survivors in minutes instead of re-running every mutant (the mutated sources stay those of the
earlier run).
"""
from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPY = ["algorithms", "reference", "tests/conftest.py", "pyproject.toml"]
DETECTED = ("killed", "timeout")
JIT_DECORATORS = {"njit", "jit"}  # numba's; the identity under NUMBA_DISABLE_JIT=1


def mutmut_config() -> dict:
    """The ``[tool.mutmut]`` table of pyproject.toml (the one source of the file and test selection)."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mutmut"]


def prepare(workdir: Path, config: dict) -> None:
    """Copy what the mutated run needs into ``workdir`` (sources, references, selected tests, pyproject)."""
    for rel in COPY + test_selection(config):
        src, dst = ROOT / rel, workdir / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dst)
    for rel in config["only_mutate"]:
        strip_jit_decorators(workdir / rel)


def numba_jit_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names bound to numba.njit/numba.jit by ``from numba import ...``, aliases of ``import numba``)."""
    names, modules = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "numba":
            names |= {a.asname or a.name for a in node.names if a.name in JIT_DECORATORS}
        elif isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name == "numba"}
    return names, modules


def jit_decorator_lines(source: str) -> list[tuple[int, int]]:
    """(first, last) line of every numba ``@njit``/``@jit`` decorator (bare, called, or ``numba.``-qualified)."""
    tree = ast.parse(source)
    names, modules = numba_jit_names(tree)
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if (isinstance(target, ast.Name) and target.id in names) or (
                        isinstance(target, ast.Attribute) and target.attr in JIT_DECORATORS
                        and isinstance(target.value, ast.Name) and target.value.id in modules):
                    spans.append((dec.lineno, dec.end_lineno))
    return spans


def strip_jit_decorators(path: Path) -> int:
    """Replace each numba jit decorator of ``path`` by a comment line (line numbers kept); returns how many."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    spans = jit_decorator_lines("".join(lines))
    for first, last in spans:
        indent = lines[first - 1][:len(lines[first - 1]) - len(lines[first - 1].lstrip())]
        for i in range(first - 1, last):
            lines[i] = f"{indent}# (numba decorator removed for mutation testing: NUMBA_DISABLE_JIT=1)\n"
    path.write_text("".join(lines), encoding="utf-8")
    return len(spans)


def test_selection(config: dict) -> list[str]:
    """The test paths of ``pytest_add_cli_args_test_selection`` (options dropped)."""
    return [p for p in config["pytest_add_cli_args_test_selection"] if not p.startswith("-")]


def refresh_tests(workdir: Path, config: dict) -> None:
    """Copy the current test selection (and tests/conftest.py) over the one of an earlier run."""
    for rel in ["tests/conftest.py", *test_selection(config)]:
        src, dst = ROOT / rel, workdir / rel
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def mutmut(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    """Run the mutmut of this interpreter's environment in ``workdir``."""
    exe = Path(sys.executable).parent / "mutmut"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1",
               NUMBA_DISABLE_JIT="1")
    return subprocess.run([str(exe), *args], cwd=workdir, env=env, capture_output=True, text=True)


_RESULT_LINE = re.compile(r"^\s*(?P<name>[\w.]+__mutmut_\d+):\s*(?P<status>[\w ]+?)\s*$")


def statuses(workdir: Path) -> dict[str, str]:
    """mutant name -> status ('killed', 'survived', 'timeout', 'no tests', ...) from ``mutmut results --all``."""
    proc = mutmut(workdir, "results", "--all", "true")
    if proc.returncode != 0:
        raise RuntimeError(f"mutmut results failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    out = {}
    for line in proc.stdout.splitlines():
        m = _RESULT_LINE.match(line)
        if m:
            out[m["name"]] = m["status"]
    return out


def module_of(mutant: str) -> str:
    """'algorithms.aioli.x_solve_margin__mutmut_3' -> 'algorithms/aioli.py'."""
    parts = mutant.split(".")
    return "/".join(parts[:2]) + ".py"


def table(results: dict[str, str]) -> str:
    """Markdown table: per mutated file, mutants, detected, survived, no tests."""
    per = {}
    for name, status in results.items():
        per.setdefault(module_of(name), Counter())[status] += 1
    rows = ["| file | mutants | killed | timed out | survived | no tests |", "|---|---:|---:|---:|---:|---:|"]
    for path in sorted(per):
        c = per[path]
        rows.append(f"| {path} | {sum(c.values())} | {c['killed']} | {c['timeout']} | {c['survived']} "
                    f"| {c['no tests']} |")
    return "\n".join(rows)


def score(results: dict[str, str]) -> tuple[int, int]:
    """(K, N): mutants detected (killed or timed out) and mutants generated."""
    return sum(s in DETECTED for s in results.values()), len(results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2,
                        help="parallel mutant runs (default: number of CPUs)")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="scratch directory (default: a fresh temporary one; an existing one resumes)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory (to inspect mutants)")
    parser.add_argument("--list-survivors", action="store_true", help="print the name of every surviving mutant")
    parser.add_argument("--retest-survivors", action="store_true",
                        help="with --workdir of an earlier run: refresh the tests, re-run the undetected mutants")
    args = parser.parse_args(argv)
    if args.max_children < 1:
        parser.error(f"--max-children must be >= 1, got {args.max_children}")
    config = mutmut_config()
    if args.retest_survivors and (args.workdir is None or not (args.workdir / "mutants").exists()):
        parser.error("--retest-survivors needs --workdir of an earlier run (with its mutants/ folder)")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="olr-mutation-"))
    fresh = not (workdir / "mutants").exists()
    try:
        if fresh:
            prepare(workdir, config)
        names: list[str] = []
        if args.retest_survivors:
            refresh_tests(workdir, config)
            names = sorted(n for n, s in statuses(workdir).items() if s not in DETECTED)
        start = time.perf_counter()
        proc = mutmut(workdir, "run", "--max-children", str(args.max_children), *names)
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n", file=sys.stderr)
            raise RuntimeError(f"mutmut run failed with exit status {proc.returncode}")
        results = statuses(workdir)
        if not results:
            raise RuntimeError("mutmut generated no mutants: check [tool.mutmut] in pyproject.toml")
        killed, total = score(results)
        print(f"Mutation testing of {len(config['only_mutate'])} files of algorithms/ with mutmut under "
              f"{' '.join(config['pytest_add_cli_args_test_selection'])} ({args.max_children} parallel runs, "
              f"{seconds:.0f} s wall{'' if fresh else ', resumed'}"
              f"{f'; {len(names)} earlier survivors re-tested' if names else ''}).\n")
        print(table(results))
        survivors = sorted(n for n, s in results.items() if s not in DETECTED)
        if args.list_survivors and survivors:
            print("\nsurvivors:\n" + "\n".join(f"- {n} ({results[n]})" for n in survivors))
        print(f"\nmutation score: {killed}/{total} killed ({100.0 * killed / total:.1f} %)")
    finally:
        if args.keep or args.workdir:
            print(f"\n(scratch tree kept in {workdir})", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Timings of the scalar prover and of the whole scalar registry: ``.venv/bin/python benchmarks/prover.py``.

Prints markdown: one row per prover call (the issue's targets: Lemma A.1 over R in <= 2 s, Lemma 5
over C in [1/10, 10], a in [-C, C], b in R in <= 30 s), false variants (must be refuted), and the
wall time of ``olr-verify run`` restricted to the scalar registry (``runner.is_scalar``: scalar inequalities,
exact identities and chains of them, Python or declared in paper.toml; 2 parallel checks), in quick and in full mode, with the statuses it reached and the time the
kernel alone takes to re-check the certificates it wrote (with the load average, as the target of issue 13 is
<= 60 s in full mode on 2 cores); the soundness corpora ``tests/prover/corpus.py`` and the independent
``tests/prover/corpus_independent.py`` (false statements proved and true ones refuted must both be 0); and, when
the ``cvc5`` package is installed, a sampled side-by-side table with cvc5 (``benchmarks/cvc5_compare.py``: every
``CVC5_EVERY``-th statement of each set, ``CVC5_TLIMIT`` s per case; run that script alone for all of it).
Flags: ``--no-corpus``, ``--no-registry``, ``--no-cvc5``.
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
from olr_verify.checks.lemmas_core import (LEMMA_5 as L5, LEMMA_5_DOMAIN as L5_DOMAIN,  # noqa: E402
                                           LEMMA_8 as L8, LEMMA_A1)
from olr_verify.prover import prove  # noqa: E402  (after benchmarks/ left sys.path: it has an algorithms.py)

PLANE = {"a": ("-oo", "oo"), "b": ("-oo", "oo")}
CASES = [
    ("002 Lemma A.1 over R", LEMMA_A1, {"x": ("-oo", "oo")}),
    ("000 Lemma 5, full domain", L5, L5_DOMAIN),
    ("000 Lemma 8, direct (2 unbounded)", L8, PLANE),
    ("A.1 nudged c=1/2", "x + exp(-x) <= exp(x**2/2)", {"x": ("-oo", "oo")}),
    ("A.1 sign flip", "x + exp(-x) >= exp(9*x**2/16)", {"x": ("-oo", "oo")}),
    ("A.1 strict", "x + exp(-x) < exp(9*x**2/16)", {"x": ("-oo", "oo")}),
    ("Lemma 8 constant x1.01", L8.replace("1/(1+Abs(a))", "(1+1/100)/(1+Abs(a))"), PLANE),
    ("Lemma 5 with alpha=1", L5.replace("(2*(1+C))", "2"), L5_DOMAIN),
    ("Lemma 5 widened a in [-8C, 8C]", L5, {**L5_DOMAIN, "a": ("-8*C", "8*C")}),
]


def prover_calls() -> None:
    print("| case | status | seconds | boxes |")
    print("|---|---|---:|---:|")
    for name, rel, dom in CASES:
        t = time.perf_counter()
        r = prove(rel, dom, timeout=60)
        print(f"| {name} | {r.status} | {time.perf_counter() - t:.2f} | {r.certificate.get('boxes', 0)} |",
              flush=True)


def lemma_8_plan() -> None:
    from olr_verify.checks.lemmas_core import lemma_8
    from olr_verify.outcome import Context

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        out = lemma_8(Context(out_dir=Path(tmp), quick=True, seed=1))
        print(f"\n000 Lemma 8 over the whole plane by its proof plan "
              f"({len(out.evidence['proof_plan'])} steps): {out.status} in {time.perf_counter() - t:.2f} s")


def registry(quick: bool) -> None:
    from olr_verify import runner

    load = _load()
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        with _safety_shares(Path(tmp) / "shares.txt") as shares:
            res = runner.run(Path(tmp) / "run", quick=quick, jobs=min(2, os.cpu_count() or 1), progress=False,
                             scalar_only=True)
            share = max(shares(), default=0.0)
        wall = time.perf_counter() - t
        n_certs, accepted, kernel_s = kernel_recheck(Path(tmp) / "run" / "certificates")
    counts = Counter(c["status"] for c in res["claims"])
    slowest = sorted(res["claims"], key=lambda c: -c["seconds"])[:3]
    print(f"| {'quick' if quick else 'full'} | {len(res['claims'])} | {wall:.1f} | "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + " | "
          + ", ".join(f"`{c['id']}` {c['seconds']:.0f} s" for c in slowest)
          + f" | {accepted}/{n_certs} in {kernel_s:.1f} s | {share:.2f} | {load} |", flush=True)
    errors = [c["id"] for c in res["claims"] if c["status"] == "error"]
    if errors:
        print(f"\n({'quick' if quick else 'full'} mode errors: " + ", ".join(f"`{i}`" for i in errors) + ")\n")


@contextlib.contextmanager
def _safety_shares(path: Path):
    """Yields a function returning, for every ``prove()`` call of the run, its seconds over its wall-clock safety net
    (``core.safety_net``): how much slower a machine may be before the net turns a verdict into
    ``inconclusive``. The checks run in forked processes, which inherit the wrapper and append to ``path``."""
    from olr_verify.prover import core

    real = core.prove

    def timed(relation, domain, *, timeout=20.0, **kwargs):
        t = time.perf_counter()
        try:
            return real(relation, domain, timeout=timeout, **kwargs)
        finally:
            net = core.safety_net(min(timeout, core.TIMEOUT_CAP or timeout))
            with open(path, "a") as out:
                out.write(f"{(time.perf_counter() - t) / net}\n")

    core.prove = timed
    try:
        yield lambda: [float(v) for v in path.read_text().split()] if path.exists() else []
    finally:
        core.prove = real


def kernel_recheck(folder: Path) -> tuple[int, int, float]:
    """(certificates, accepted, seconds): every certificate of ``folder`` re-checked by the kernel alone."""
    import json

    from olr_verify.kernel import check

    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    t = time.perf_counter()
    accepted = sum(check(json.loads(p.read_text())).accepted for p in paths)
    return len(paths), accepted, time.perf_counter() - t


CORPORA = (("corpus.py", "prover_corpus"), ("corpus_independent.py", "prover_corpus_independent"))


def _status(relation: str, domain: dict, quick: bool = True) -> str:
    """prove()'s status with the corpus tests' options (``quick``) or its default budgets; ``unsupported`` when it
    declines the input (ValueError)."""
    try:
        return (prove(relation, domain, timeout=1, kernel_boxes=1500) if quick else prove(relation, domain)).status
    except ValueError:
        return "unsupported"


def soundness_corpus(file: str, module: str) -> None:
    """tests/prover/<file>: false statements proved (must be 0), true refuted (must be 0), true proved."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "tests" / "prover" / file
    spec = importlib.util.spec_from_file_location(module, path)
    corpus = sys.modules.setdefault(module, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(corpus)
    false, true = corpus.false_statements(), corpus.true_statements()
    t = time.perf_counter()
    f_status = Counter(_status(r, d) for r, d, _ in false)
    t_status = Counter(_status(r, d) for r, d in true)
    t_default = Counter(_status(r, d, quick=False) for r, d in true)
    seconds = time.perf_counter() - t
    print(f"\nSoundness corpus (tests/prover/{file}, `prove(..., timeout=1, kernel_boxes=1500)`):\n")
    print("| set | n | proved | refuted | verified | inconclusive | unsupported |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, n, c in (("false (50-digit witness)", len(false), f_status), ("true", len(true), t_status),
                       ("true, `prove()`'s default budgets", len(true), t_default)):
        print(f"| {name} | {n} | {c['proved']} | {c['refuted']} | {c['verified']} | {c['inconclusive']} | "
              f"{c['unsupported']} |")
    print(f"\nfalse proved: {f_status['proved']} (must be 0); true refuted: {t_status['refuted']} and "
          f"{t_default['refuted']} (must be 0); completeness (target >= 90 %): {t_status['proved']}/{len(true)} true "
          f"proved with the quick options ({100 * t_status['proved'] / len(true):.0f} %), {t_default['proved']}/"
          f"{len(true)} with the default budgets ({100 * t_default['proved'] / len(true):.0f} %); {seconds:.0f} s in "
          "all", flush=True)


CVC5_EVERY = 6
CVC5_TLIMIT = 2.0


def cvc5_table() -> None:
    """Sampled side by side with cvc5 (benchmarks/cvc5_compare.py), when the cvc5 package is installed."""
    import importlib.util

    if importlib.util.find_spec("cvc5") is None:
        print("\ncvc5 comparison skipped: the `cvc5` package is not installed (`pip install -e '.[dev]'`).")
        return
    spec = importlib.util.spec_from_file_location("cvc5_compare", Path(__file__).resolve().with_name("cvc5_compare.py"))
    compare = sys.modules.setdefault("cvc5_compare", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(compare)
    t = time.perf_counter()
    rows = compare.compare(["ours", "independent"], CVC5_TLIMIT, CVC5_EVERY)
    print(f"\nSide by side with cvc5 (every {CVC5_EVERY}th statement of each set; `benchmarks/cvc5_compare.py` "
          "for all; wrong = a false statement proved or a true one refuted):\n")
    print(compare.table(rows, CVC5_TLIMIT))
    print(f"\n{time.perf_counter() - t:.0f} s wall; load average {_load()}", flush=True)


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    prover_calls()
    if "--no-corpus" not in sys.argv:
        for file, module in CORPORA:
            soundness_corpus(file, module)
    lemma_8_plan()
    if "--no-registry" not in sys.argv:
        print("\nScalar registry (`olr-verify run` on scalar inequalities, identities and chains of them, Python or "
              "declared, 2 jobs; issue 13's target: full mode in <= 60 s on 2 cores):\n")
        print("| mode | claims | wall s | statuses | slowest | kernel re-check of its certificates | largest share of "
              "a prove() call's safety net | load average (1, 5, 15 min) at start |")
        print("|---|---:|---:|---|---|---|---:|---|")
        registry(quick=True)
        registry(quick=False)
    if "--no-cvc5" not in sys.argv:
        cvc5_table()


if __name__ == "__main__":
    main()

"""Timings of the scalar prover and of the whole scalar registry: ``.venv/bin/python benchmarks/prover.py``.

Prints markdown: one row per prover call (the issue's targets: Lemma A.1 over R in <= 2 s, Lemma 5
over C in [1/10, 10], a in [-C, C], b in R in <= 30 s), false variants (must be refuted), and the
wall time of ``olr-verify run`` restricted to the scalar registry (scalar inequalities and exact
identities; 2 parallel checks), in quick and in full mode, with the statuses it reached and the time the
kernel alone takes to re-check the certificates it wrote; and the soundness corpus of
``tests/prover/corpus.py`` (false statements proved and true ones refuted must both be 0).
Flags: ``--no-corpus``, ``--no-registry``.
"""
from __future__ import annotations

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

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        res = runner.run(Path(tmp), quick=quick, jobs=min(2, os.cpu_count() or 1), progress=False,
                         scalar_only=True)
        wall = time.perf_counter() - t
        n_certs, accepted, kernel_s = kernel_recheck(Path(tmp) / "certificates")
    counts = Counter(c["status"] for c in res["claims"])
    slowest = sorted(res["claims"], key=lambda c: -c["seconds"])[:3]
    print(f"| {'quick' if quick else 'full'} | {len(res['claims'])} | {wall:.1f} | "
          + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + " | "
          + ", ".join(f"`{c['id']}` {c['seconds']:.0f} s" for c in slowest)
          + f" | {accepted}/{n_certs} in {kernel_s:.1f} s |", flush=True)


def kernel_recheck(folder: Path) -> tuple[int, int, float]:
    """(certificates, accepted, seconds): every certificate of ``folder`` re-checked by the kernel alone."""
    import json

    from olr_verify.kernel import check

    paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
    t = time.perf_counter()
    accepted = sum(check(json.loads(p.read_text())).accepted for p in paths)
    return len(paths), accepted, time.perf_counter() - t


def soundness_corpus() -> None:
    """tests/prover/corpus.py: false statements proved (must be 0), true refuted (must be 0), true proved."""
    import importlib.util

    path = Path(__file__).resolve().parent.parent / "tests" / "prover" / "corpus.py"
    spec = importlib.util.spec_from_file_location("prover_corpus", path)
    corpus = sys.modules.setdefault("prover_corpus", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(corpus)
    false, true = corpus.false_statements(), corpus.true_statements()
    t = time.perf_counter()
    f_status = Counter(prove(r, d, timeout=1, kernel_boxes=1500).status for r, d, _ in false)
    t_status = Counter(prove(r, d, timeout=1, kernel_boxes=1500).status for r, d in true)
    seconds = time.perf_counter() - t
    print("\nSoundness corpus (tests/prover/corpus.py, `prove(..., timeout=1, kernel_boxes=1500)`):\n")
    print("| set | n | proved | refuted | verified | inconclusive |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, n, c in (("false (50-digit witness)", len(false), f_status), ("true", len(true), t_status)):
        print(f"| {name} | {n} | {c['proved']} | {c['refuted']} | {c['verified']} | {c['inconclusive']} |")
    print(f"\nfalse proved: {f_status['proved']} (must be 0); true refuted: {t_status['refuted']} (must be 0); "
          f"completeness: {t_status['proved']}/{len(true)} true proved; {seconds:.0f} s in all", flush=True)


def main() -> None:
    prover_calls()
    if "--no-corpus" not in sys.argv:
        soundness_corpus()
    lemma_8_plan()
    if "--no-registry" not in sys.argv:
        print("\nScalar registry (`olr-verify run` on scalar inequalities and identities, 2 jobs):\n")
        print("| mode | claims | wall s | statuses | slowest | kernel re-check of its certificates |")
        print("|---|---:|---:|---|---|---|")
        registry(quick=True)
        registry(quick=False)


if __name__ == "__main__":
    main()

"""Hunter quality (issue 15): planted false bounds refuted within the default budget.

For every hunted bound, a planted variant (the bound scaled down until the worst pair of a short
hunt at the paper's default parameters violates it by 25 %, see ``olr_verify/hunting/planted.py``)
is attacked with the budget of the registered check, another seed and every parameter free.  Prints
a markdown table (found?, sequences, seconds, witness parameters) and the fraction found.

Usage: ``python benchmarks/hunting_quality.py [CLAIM ...]`` (default: every hunted bound).
``python benchmarks/hunting_quality.py --throughput [SECONDS]``: campaign sequences/s (the float64 search runs
the shipped learners of algorithms/) with 1 and 2 Dask workers on ``olr-verify hunt``'s default throughput
claims, printed with the machine's load average (timings under load are inflated).
"""
from __future__ import annotations

import sys
from pathlib import Path

# run as a script, benchmarks/ comes first on sys.path and benchmarks/algorithms.py would shadow the package
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)


def throughput(seconds: float) -> int:
    import json
    import os

    from olr_verify.hunting import campaign

    claims = campaign.select_claims(None)[:2]
    load_before = os.getloadavg()
    tp = campaign.throughput(claims, seconds, unit_seconds=5.0)
    print(json.dumps({"claims": claims, "seconds_per_setting": seconds,
                      "sequences_per_s_1_worker": round(tp["1_workers"]["throughput"], 2),
                      "sequences_per_s_2_workers": round(tp["2_workers"]["throughput"], 2),
                      "speedup": round(tp["speedup"], 3), "cpus": os.cpu_count(),
                      "load_average_before": [round(v, 2) for v in load_before],
                      "load_average_after": [round(v, 2) for v in os.getloadavg()]}))
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if argv[:1] == ["--throughput"]:
        try:
            seconds = float(argv[1]) if len(argv) > 1 else 30.0
        except ValueError:
            seconds = -1.0
        if not seconds > 0:
            print(f"hunting_quality.py: --throughput takes a positive number of seconds, got {argv[1]!r}",
                  file=sys.stderr)
            return 2
        return throughput(seconds)
    from olr_verify.hunting.planted import attack, default_budget, hunted_claims

    claims = argv or hunted_claims()
    unknown = [c for c in claims if c not in hunted_claims()]
    if unknown:
        print(f"hunting_quality.py: not a hunted bound: {unknown[0]!r} (see olr_verify/hunting/bounds.py)",
              file=sys.stderr)
        return 2
    print("| planted variant | known ratio r0 | scale | found | status | sequences | seconds | witness parameters |")
    print("|---|---|---|---|---|---|---|---|")
    found, seconds = 0, []
    for claim in claims:
        r = attack(claim, full=default_budget(claim))
        found += r.found
        seconds.append(r.seconds)
        wp = ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.witness_params.items())
        print(f"| {r.planted} | {r.known_ratio:.4g} | {r.scale:.4g} | {'yes' if r.found else 'NO'} | {r.status} | "
              f"{r.sequences} | {r.seconds:.1f} | {wp} |", flush=True)
    print(f"\nPlanted violations found: {found}/{len(claims)} ({100 * found / max(len(claims), 1):.0f} %), "
          f"mean time to a verdict {sum(seconds) / max(len(seconds), 1):.1f} s per bound "
          "(default check budget, 1 core).")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

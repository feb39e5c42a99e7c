"""Hunter quality (issue 15): planted false bounds refuted within the default budget.

For every hunted bound, a planted variant (the bound scaled down until the worst pair of a short
hunt at the paper's default parameters violates it by 25 %, see ``olr_verify/hunting/planted.py``)
is attacked with the budget of the registered check, another seed and every parameter free.  Prints
a markdown table (found?, sequences, seconds, witness parameters) and the fraction found.

Usage: ``python benchmarks/hunting_quality.py [CLAIM ...]`` (default: every hunted bound).
"""
from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    from olr_verify.hunting.planted import attack, default_budget, hunted_claims

    claims = argv or hunted_claims()
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

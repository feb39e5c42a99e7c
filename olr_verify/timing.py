"""Cost measurements for the papers' complexity claims ("O(d^2) per round", "linear in n", ...).

A complexity claim is measured, never proved, and a measurement must not change its verdict with the load of
the machine. These choices keep it steady:

- the clock is the calling thread's CPU time (``time.thread_time``), which does not advance while another
  process holds the core, unlike wall time;
- BLAS runs on one thread (threadpoolctl), so all of the work is done, and counted, in the calling thread;
- each size is timed ``repeat`` times and the minimum is kept (the run least disturbed by cache sharing), and
  :func:`cost_curve` interleaves the repeats (pass r times every size once), so that a disturbance of the
  machine (another job's cache traffic, a frequency change) touches all sizes alike instead of one end of the
  fit;
- :func:`measured_order` measures again when a slope lands near the acceptance line (more passes can only
  lower each size's floor toward its undisturbed cost), up to a fixed number of passes: a budget in passes,
  not seconds.

What is left is the memory hierarchy: a d x d state that leaves a cache level makes the raw time jump (an
O(d^2) round measured at d = 200 ... 800 fits d^2.2 ... d^2.6 here). :data:`MARGIN` absorbs that. The verdict of
:func:`order_outcome` is ``verified`` when the log-log slope is at most the printed exponent plus the margin,
and ``inconclusive`` otherwise (or when every cost is below :data:`RESOLUTION`): a timing never refutes, and
never proves, a claim about an algorithm's order.

What a ``verified`` timing shows is limited, and the evidence says how much: a finite grid cannot exclude a
higher-order term with a small constant. :func:`hidden_term` is the size (relative to the largest measured
cost) of a term of the next order that the fit would not notice; with three sizes 16x apart and a margin of 0.5
it is about 4 even for a cost with no fixed part, and larger when a fixed cost dominates the small sizes.
These claims are the only verdicts of the suite that rest on a clock; the report says so in their evidence.
"""
from __future__ import annotations

import contextlib
import math
import time
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from olr_verify.outcome import Outcome

#: How far a fitted exponent may exceed the printed one and still count as agreeing (timer and cache noise).
MARGIN = 0.5


@contextlib.contextmanager
def single_threaded() -> Iterator[None]:
    """BLAS and OpenMP pools limited to one thread for the block, restored afterwards."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        yield


def cost_curve(sizes: Sequence[int], build: Callable[[int], Any], work: Callable[[Any], Any],
               repeat: int = 3) -> list[float]:
    """The least thread CPU time of ``work(build(s))`` at each size ``s`` (``build`` untimed), over ``repeat``
    passes that each time every size once."""
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise ValueError(f"repeat must be an integer >= 1, got {repeat!r}")
    if len(sizes) < 2:
        raise ValueError(f"sizes must hold at least two sizes, got {list(sizes)}")
    best = [math.inf] * len(sizes)
    with single_threaded():
        for _ in range(repeat):
            for i, size in enumerate(sizes):
                state = build(size)
                start = time.thread_time()
                work(state)
                best[i] = min(best[i], time.thread_time() - start)
    return [max(b, 1e-9) for b in best]


#: Costs all below this many seconds are timer noise, not a measurement: ``inconclusive``.
RESOLUTION = 1e-3

#: A slope within this distance of ``printed + margin`` is measured again (see :func:`measured_order`).
NEAR = 0.25


def measured_order(sizes: Sequence[int], build: Callable[[int], Any], work: Callable[[Any], Any], printed: float,
                   what: str, repeat: int = 3, margin: float = MARGIN, extra_rounds: int = 2) -> Outcome:
    """:func:`order_outcome` of :func:`cost_curve`; a slope within :data:`NEAR` of the acceptance line gets up
    to ``extra_rounds`` more rounds of ``repeat`` passes, pooled by the minimum."""
    if isinstance(extra_rounds, bool) or not isinstance(extra_rounds, int) or extra_rounds < 0:
        raise ValueError(f"extra_rounds must be an integer >= 0, got {extra_rounds!r}")
    costs = cost_curve(sizes, build, work, repeat)
    rounds = 1
    while rounds <= extra_rounds and abs(loglog_slope(sizes, costs) - (printed + margin)) < NEAR:
        costs = [min(a, b) for a, b in zip(costs, cost_curve(sizes, build, work, repeat))]
        rounds += 1
    out = order_outcome(sizes, costs, printed, what, margin)
    out.evidence["passes"] = rounds * repeat
    out.evidence["pooling"] = "least CPU time per size over interleaved passes (every size once per pass)"
    return out


def loglog_slope(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """The least-squares slope of log(seconds) against log(sizes): the measured exponent."""
    if len(sizes) != len(seconds) or len(sizes) < 2:
        raise ValueError(f"sizes and seconds must be two sequences of the same length >= 2, got "
                         f"{len(sizes)} and {len(seconds)}")
    s, t = np.asarray(sizes, float), np.asarray(seconds, float)
    if not (np.isfinite(s).all() and (s > 0).all() and len(set(s.tolist())) == len(s)):
        raise ValueError(f"sizes must be distinct finite positive numbers, got {list(sizes)}")
    if not (np.isfinite(t).all() and (t > 0).all()):
        raise ValueError(f"seconds must be finite positive numbers, got {list(seconds)}")
    return float(np.polyfit(np.log(s), np.log(t), 1)[0])


def hidden_term(sizes: Sequence[float], seconds: Sequence[float], printed: float, margin: float = MARGIN) -> float:
    """How large a term of the next order could hide in the measurements: the least k for which adding
    ``k * c_max * (s / max(sizes)) ** (printed + 1)`` (c_max: the cost at the largest size) to the costs lifts the fitted slope above
    ``printed + margin`` (inf if no k up to 1000 does). A fixed cost that dominates the grid makes k large."""
    s = np.asarray(sizes, float)
    t = np.asarray(seconds, float)
    shape = t[np.argmax(s)] * (s / s.max()) ** (printed + 1)

    def seen(k: float) -> bool:
        return loglog_slope(s, t + k * shape) > printed + margin

    if seen(0.0):
        return 0.0
    if not seen(1000.0):
        return math.inf
    lo, hi = 0.0, 1000.0
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if seen(mid) else (mid, hi)
    return hi


def within_order(slope: float, printed: float, margin: float = MARGIN) -> bool:
    """Does a measured exponent agree with a printed O(size**printed)? (slope <= printed + margin)"""
    return slope <= printed + margin


def order_outcome(sizes: Sequence[int], seconds: Sequence[float], printed: float, what: str,
                  margin: float = MARGIN) -> Outcome:
    """Is the measured cost O(size**printed)? ``verified`` when the log-log slope is <= ``printed + margin``.

    ``seconds`` are costs measured with :func:`cost_curve` at ``sizes`` (fit them on sizes large enough for
    the printed term to dominate the interpreter's fixed cost)."""
    slope = loglog_slope(sizes, seconds)
    below_resolution = max(seconds) < RESOLUTION
    ok = within_order(slope, printed, margin) and not below_resolution
    k = hidden_term(sizes, seconds, printed, margin)
    return Outcome("verified" if ok else "inconclusive", "thread CPU time (one BLAS thread), log-log slope",
                   {"what": what, "sizes": list(sizes), "cpu_seconds": [float(f"{t:.4g}") for t in seconds],
                    "loglog_slope": round(slope, 3), "printed_exponent": printed,
                    "accepted_if_slope_at_most": printed + margin,
                    "hidden_next_order_term": round(k, 2),
                    "hidden_next_order_term_means": "a term of order size**(printed + 1) costing up to this many times "
                                                    "the largest measured cost at the largest size would not lift the "
                                                    "slope over the line: the measurement does not exclude it",
                    "below_resolution": below_resolution,
                    "clock": "time.thread_time: CPU time of the measuring thread, not wall time"})

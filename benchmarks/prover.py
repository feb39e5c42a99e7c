"""Timings of the scalar prover: ``.venv/bin/python benchmarks/prover.py``."""
from __future__ import annotations

import time

from olr_verify.prover import prove

L5 = ("log(1+exp(-a)) >= log(1+exp(-b)) - (a-b)/(1+exp(b)) "
      "+ exp(b)/(2*(1+C))*(1/(1+exp(b)))**2*(a-b)**2")
L8 = "1/(1+Abs(a)) <= (exp(a-b)-1)/(a-b)*(1+exp(b))/(1+exp(a))"
CASES = [
    ("002 Lemma A.1", "x + exp(-x) <= exp(9*x**2/16)", {"x": ("-oo", "oo")}),
    ("000 Lemma 8", L8, {"a": ("-oo", "oo"), "b": ("-oo", "oo")}),
    ("000 Lemma 5", L5, {"C": ("1/10", "10"), "a": ("-C", "C"), "b": ("-oo", "oo")}),
    ("A.1 nudged c=1/2", "x + exp(-x) <= exp(x**2/2)", {"x": ("-oo", "oo")}),
    ("A.1 sign flip", "x + exp(-x) >= exp(9*x**2/16)", {"x": ("-oo", "oo")}),
    ("A.1 strict", "x + exp(-x) < exp(9*x**2/16)", {"x": ("-oo", "oo")}),
    ("Lemma 8 constant x1.01", "(1+1/100)/(1+Abs(a)) <= (exp(a-b)-1)/(a-b)*(1+exp(b))/(1+exp(a))",
     {"a": ("-oo", "oo"), "b": ("-oo", "oo")}),
    ("Lemma 5 with alpha=1", L5.replace("(2*(1+C))", "2"), {"C": ("1/10", "10"), "a": ("-C", "C"), "b": ("-oo", "oo")}),
]


def main() -> None:
    print(f"{'case':28s} {'status':13s} {'seconds':>8s} {'boxes':>7s}")
    for name, rel, dom in CASES:
        t = time.perf_counter()
        r = prove(rel, dom, timeout=30)
        print(f"{name:28s} {r.status:13s} {time.perf_counter() - t:8.2f} {r.certificate.get('boxes', 0):7d}")


if __name__ == "__main__":
    main()

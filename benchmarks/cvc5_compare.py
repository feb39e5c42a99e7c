"""prove() side by side with cvc5's transcendental arithmetic (issue 13's anchor): ``.venv/bin/python
benchmarks/cvc5_compare.py [--tlimit SECONDS] [--corpus ours|independent|both] [--every K] [--no-prove]``.

Each statement of ``tests/prover/corpus.py`` (ours) and ``tests/prover/corpus_independent.py`` (independent) is
translated into SMT-LIB (logic ``ALL``: nonlinear real arithmetic with cvc5's ``exp``, ``arctan``, ``real.pi``):
the domain as bounds (dependent bounds included), the negated relation asserted, and cvc5 asked for a model:
``sat`` => refuted, ``unsat`` => proved, ``unknown``/time limit => undecided. Functions cvc5 lacks are encoded
through auxiliary variables: ``sqrt(a)`` as ``s >= 0, s*s = a``, ``log(a)`` as ``exp(l) = a``, a non-integer power
``a**r`` as ``exp(r*l)`` with ``exp(l) = a``; ``tanh``, ``sinh``, ``cosh``, ``asinh``, ``log1p``, ``expm1``, the
logistic ``Sigmoid``/``Softplus``/``Exprel`` through ``exp``/``log``; ``Abs``, ``Max``, ``Min``, ``sign``,
``Piecewise`` through ``ite``. Every divisor is asserted non-zero (SMT-LIB division by 0 is total and would let a
spurious model through). Statements with a function outside this list (``erf``, ``sin``, ``floor``, ...) are
*untranslatable* and counted separately.

Each cvc5 call gets ``tlimit-per`` = ``--tlimit`` seconds (default 10; the issue's anchor used 60 s, too slow for a
benchmark run on a shared 2-core machine: a wall-clock limit, so cvc5's undecided count depends on the load) and
runs in a forked child killed 30 s after that limit. ``prove()`` runs with the corpus tests' options
(``timeout=1, kernel_boxes=1500``), also in a forked child (memory-capped at 2.5 GB, killed after 120 s).
Ground truth is the corpus: a false statement ``proved`` or a true one ``refuted`` is a wrong answer.
"""
from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import resource
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import sympy as sp

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
from olr_verify.expr import parse_expr, parse_relation  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CORPORA = {"ours": ROOT / "tests" / "prover" / "corpus.py",
           "independent": ROOT / "tests" / "prover" / "corpus_independent.py"}
PROVE_OPTIONS = dict(timeout=1, kernel_boxes=1500)
MEMORY_CAP = 2_500_000_000


class Untranslatable(ValueError):
    """The statement uses a function with no cvc5 encoding here (named in the message)."""


class _Smt:
    """A sympy expression written as an SMT-LIB term, collecting auxiliary variables and side conditions."""

    def __init__(self) -> None:
        self.decls: list[str] = []
        self.side: list[str] = []

    def aux(self) -> str:
        name = f"aux{len(self.decls)}"
        self.decls.append(f"(declare-fun {name} () Real)")
        return name

    def log(self, arg: str) -> str:
        v = self.aux()
        self.side.append(f"(= (exp {v}) {arg})")
        return v

    def sqrt(self, arg: str) -> str:
        v = self.aux()
        self.side.append(f"(>= {v} 0.0)")
        self.side.append(f"(= (* {v} {v}) {arg})")
        return v

    def div(self, num: str, den: str) -> str:
        self.side.append(f"(not (= {den} 0.0))")
        return f"(/ {num} {den})"

    def term(self, e: sp.Basic) -> str:  # noqa: C901 (one dispatch over sympy's node types)
        if e.is_Rational:
            q = Fraction(int(e.p), int(e.q))
            text = f"(/ {abs(q.numerator)}.0 {q.denominator}.0)" if q.denominator != 1 else f"{abs(q.numerator)}.0"
            return f"(- {text})" if q < 0 else text
        if e is sp.pi:
            return "real.pi"
        if e is sp.E:
            return "(exp 1.0)"
        if e.is_Symbol:
            return e.name
        if e.is_Add:
            return "(+ " + " ".join(self.term(a) for a in e.args) + ")"
        if e.is_Mul:
            num = [a for a in e.args if not (a.is_Pow and a.exp.is_Rational and a.exp < 0)]
            den = [1 / a for a in e.args if a.is_Pow and a.exp.is_Rational and a.exp < 0]
            top = "(* " + " ".join(self.term(a) for a in num) + ")" if len(num) > 1 else (
                self.term(num[0]) if num else "1.0")
            if not den:
                return top
            bottom = "(* " + " ".join(self.term(a) for a in den) + ")" if len(den) > 1 else self.term(den[0])
            return self.div(top, bottom)
        if e.is_Pow:
            return self.power(e.base, e.exp)
        return self.function(e)

    def power(self, base: sp.Expr, exp: sp.Expr) -> str:
        if exp.is_Integer:
            n = int(exp)
            if n == 0:
                return "1.0"
            b = self.term(base)
            if abs(n) > 64:
                raise Untranslatable(f"integer power {n} too large")
            prod = b if abs(n) == 1 else "(* " + " ".join([b] * abs(n)) + ")"
            return prod if n > 0 else self.div("1.0", prod)
        if exp == sp.Rational(1, 2):
            return self.sqrt(self.term(base))
        if exp == sp.Rational(-1, 2):
            return self.div("1.0", self.sqrt(self.term(base)))
        if base is sp.E:
            return f"(exp {self.term(exp)})"
        # a**r = exp(r*log(a)), a > 0 (sympy's real power of a negative base is not real)
        return f"(exp (* {self.term(exp)} {self.log(self.term(base))}))"

    def function(self, e: sp.Basic) -> str:  # noqa: C901
        name = type(e).__name__
        a = [self.term(x) for x in e.args] if name != "Piecewise" else []
        if name == "exp":
            return f"(exp {a[0]})"
        if name == "log":
            if len(a) == 2:
                return self.div(self.log(a[0]), self.log(a[1]))
            return self.log(a[0])
        if name == "log1p":
            return self.log(f"(+ 1.0 {a[0]})")
        if name == "expm1":
            return f"(- (exp {a[0]}) 1.0)"
        if name == "atan":
            return f"(arctan {a[0]})"
        if name in ("sin", "cos", "tan"):
            return f"({name} {a[0]})"
        if name == "tanh":
            return self.div(f"(- (exp (* 2.0 {a[0]})) 1.0)", f"(+ (exp (* 2.0 {a[0]})) 1.0)")
        if name == "sinh":
            return f"(/ (- (exp {a[0]}) (exp (- {a[0]}))) 2.0)"
        if name == "cosh":
            return f"(/ (+ (exp {a[0]}) (exp (- {a[0]}))) 2.0)"
        if name == "asinh":
            return self.log(f"(+ {a[0]} {self.sqrt(f'(+ (* {a[0]} {a[0]}) 1.0)')})")
        if name == "Sigmoid":
            return f"(/ 1.0 (+ 1.0 (exp (- {a[0]}))))"
        if name == "Softplus":
            return self.log(f"(+ 1.0 (exp {a[0]}))")
        if name == "Exprel":
            return f"(ite (= {a[0]} 0.0) 1.0 (/ (- (exp {a[0]}) 1.0) {a[0]}))"
        if name == "Abs":
            return f"(ite (>= {a[0]} 0.0) {a[0]} (- {a[0]}))"
        if name == "sign":
            return f"(ite (> {a[0]} 0.0) 1.0 (ite (< {a[0]} 0.0) (- 1.0) 0.0))"
        if name in ("Max", "Min"):
            op = ">=" if name == "Max" else "<="
            out = a[0]
            for b in a[1:]:
                out = f"(ite ({op} {out} {b}) {out} {b})"
            return out
        if name == "Piecewise":
            out = None
            for expr, cond in reversed(e.args):
                before = len(self.side)
                t = self.term(expr)
                if len(self.side) != before:  # a side condition would hold even where the branch is not taken
                    raise Untranslatable("partial function (sqrt/log/division) inside a Piecewise branch")
                out = t if cond is sp.true else f"(ite {self.condition(cond)} {t} {out})"
            if out is None:
                raise Untranslatable("empty Piecewise")
            return out
        raise Untranslatable(f"no cvc5 encoding for {name}")

    def condition(self, c: sp.Basic) -> str:
        ops = {sp.LessThan: "<=", sp.StrictLessThan: "<", sp.GreaterThan: ">=", sp.StrictGreaterThan: ">",
               sp.Eq: "="}
        for cls, op in ops.items():
            if isinstance(c, cls):
                return f"({op} {self.term(c.lhs)} {self.term(c.rhs)})"
        if isinstance(c, (sp.And, sp.Or)):
            return f"({'and' if isinstance(c, sp.And) else 'or'} " + " ".join(self.condition(x) for x in c.args) + ")"
        if isinstance(c, sp.Not):
            return f"(not {self.condition(c.args[0])})"
        if c is sp.true or c is sp.false:
            return "true" if c is sp.true else "false"
        raise Untranslatable(f"condition {c}")


def to_smtlib(relation: str, domain: dict[str, tuple[str, str]]) -> str:
    """SMT-LIB script asserting the domain and the negation of ``relation`` (a model is a counterexample)."""
    rel = parse_relation(relation)
    smt = _Smt()
    names = list(domain)
    lines = ["(set-logic ALL)"] + [f"(declare-fun {n} () Real)" for n in names]
    bounds = []
    for n, (lo, hi) in domain.items():
        if lo not in ("-oo", "oo"):
            bounds.append(f"(<= {smt.term(parse_expr(lo))} {n})")
        if hi not in ("-oo", "oo"):
            bounds.append(f"(<= {n} {smt.term(parse_expr(hi))})")
    lhs, rhs = smt.term(rel.lhs), smt.term(rel.rhs)
    negation = {sp.LessThan: ">", sp.StrictLessThan: ">=", sp.GreaterThan: "<", sp.StrictGreaterThan: "<="}[type(rel)]
    for sym in rel.free_symbols:
        if sym.name not in domain:
            raise Untranslatable(f"free name {sym.name} outside the domain")
    body = bounds + smt.side + [f"({negation} {lhs} {rhs})"]
    return "\n".join(lines + smt.decls + [f"(assert {b})" for b in body] + ["(check-sat)"]) + "\n"


def _cvc5_child(queue, text: str, tlimit_ms: int) -> None:
    import cvc5

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(tlimit_ms))
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "case")
    answer = ""
    while True:
        command = parser.nextCommand()
        if command.isNull():
            break
        answer = command.invoke(solver, symbols).strip() or answer
    queue.put(answer)


def _prove_child(queue, relation: str, domain: dict) -> None:
    from olr_verify.prover import prove

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    try:
        queue.put(prove(relation, domain, **PROVE_OPTIONS).status)
    except ValueError as exc:  # input the prover declines (e.g. a function it cannot enclose)
        queue.put(f"unsupported: {exc}")


def isolated(target, args: tuple, wall: float) -> tuple[str, float]:
    """(answer, seconds) of ``target(queue, *args)`` in a forked child; ``crashed``/``killed`` otherwise."""
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=target, args=(queue, *args))
    t = time.perf_counter()
    child.start()
    child.join(wall)
    if child.is_alive():
        child.kill()
        child.join()
        return "killed", time.perf_counter() - t
    seconds = time.perf_counter() - t
    return (queue.get() if not queue.empty() else f"crashed (exit {child.exitcode})"), seconds


def cvc5_decide(relation: str, domain: dict, tlimit: float) -> tuple[str, float]:
    """('proved' | 'refuted' | 'undecided' | 'untranslatable', seconds)."""
    try:
        text = to_smtlib(relation, domain)
    except (Untranslatable, ValueError):
        return "untranslatable", 0.0
    answer, seconds = isolated(_cvc5_child, (text, int(tlimit * 1000)), tlimit + 30)
    return {"unsat": "proved", "sat": "refuted"}.get(answer, "undecided"), seconds


def prove_decide(relation: str, domain: dict) -> tuple[str, float]:
    status, seconds = isolated(_prove_child, (relation, domain), 120)
    return (status if status in ("proved", "refuted") else "undecided"), seconds


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"cvc5_compare_{name}", CORPORA[name])
    module = sys.modules.setdefault(spec.name, importlib.util.module_from_spec(spec))  # dataclasses need it
    spec.loader.exec_module(module)
    return module


def cases(name: str, every: int = 1) -> list[tuple[str, str, dict]]:
    """(truth, relation, domain) of corpus ``name``, every ``every``-th statement of each set."""
    corpus = load(name)
    false = [("false", r, d) for r, d, _ in corpus.false_statements()][::every]
    true = [("true", r, d) for r, d in corpus.true_statements()][::every]
    return false + true


def compare(names: list[str], tlimit: float, every: int = 1, with_prove: bool = True,
            log=None) -> list[dict]:
    """One row per (corpus, truth): counts for cvc5 and prove()."""
    rows = []
    for name in names:
        tallies: dict[str, Counter] = {}
        for truth, relation, domain in cases(name, every):
            c = tallies.setdefault(truth, Counter())
            c["n"] += 1
            wrong = "proved" if truth == "false" else "refuted"
            verdict, s = cvc5_decide(relation, domain, tlimit)
            c["cvc5 " + verdict] += 1
            c["cvc5 wrong"] += verdict == wrong
            c["cvc5 s"] += s
            if with_prove:
                pv, ps = prove_decide(relation, domain)
                c["prove " + pv] += 1
                c["prove wrong"] += pv == wrong
                c["prove s"] += ps
            if log:
                log(f"{name} {truth} cvc5={verdict} ({s:.1f} s)"
                    + (f" prove={pv} ({ps:.1f} s)" if with_prove else "") + f" | {relation} | {domain}")
        for truth in ("false", "true"):
            if truth in tallies:
                rows.append({"corpus": name, "truth": truth, **tallies[truth]})
    return rows


def table(rows: list[dict], tlimit: float, with_prove: bool = True) -> str:
    def decided(c, who):
        return c.get(f"{who} proved", 0) + c.get(f"{who} refuted", 0)

    head = ["corpus", "set", "n", "cvc5 untranslatable", "cvc5 decided (proved/refuted)", "cvc5 wrong", "cvc5 s"]
    if with_prove:
        head += ["prove() decided (proved/refuted)", "prove() wrong", "prove() s"]
    out = [f"cvc5 {_cvc5_version()} with tlimit-per {tlimit:g} s per case; prove() with "
           f"timeout=1, kernel_boxes=1500\n", "| " + " | ".join(head) + " |",
           "|" + "|".join(["---"] * 2 + ["---:"] * (len(head) - 2)) + "|"]
    for c in rows:
        cells = [c["corpus"], c["truth"], str(c["n"]), str(c.get("cvc5 untranslatable", 0)),
                 f"{decided(c, 'cvc5')} ({c.get('cvc5 proved', 0)}/{c.get('cvc5 refuted', 0)})",
                 str(c.get("cvc5 wrong", 0)), f"{c.get('cvc5 s', 0):.0f}"]
        if with_prove:
            cells += [f"{decided(c, 'prove')} ({c.get('prove proved', 0)}/{c.get('prove refuted', 0)})",
                      str(c.get("prove wrong", 0)), f"{c.get('prove s', 0):.0f}"]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def _cvc5_version() -> str:
    from importlib.metadata import version

    return version("cvc5")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tlimit", type=float, default=10.0, help="cvc5 seconds per case (tlimit-per); default 10")
    ap.add_argument("--corpus", choices=("ours", "independent", "both"), default="both")
    ap.add_argument("--every", type=int, default=1, help="take every K-th statement of each set (default 1: all)")
    ap.add_argument("--no-prove", action="store_true", help="cvc5 only")
    ap.add_argument("--verbose", action="store_true", help="one line per case on stderr")
    args = ap.parse_args(argv)
    names = ["ours", "independent"] if args.corpus == "both" else [args.corpus]
    log = (lambda line: print(line, file=sys.stderr, flush=True)) if args.verbose else None
    t = time.perf_counter()
    rows = compare(names, args.tlimit, args.every, not args.no_prove, log)
    print(table(rows, args.tlimit, not args.no_prove))
    print(f"\n{time.perf_counter() - t:.0f} s wall in all")


if __name__ == "__main__":
    main()

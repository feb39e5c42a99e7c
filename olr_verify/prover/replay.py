"""Replayer ``"scalar"``: re-evaluate the slack at the stored exact point in arb (>= 200 bits).

Artefact: ``{"replay": {"type": "scalar", "relation": "...", "point": {"x": "-3/5"},
"domain": {"x": ["-oo", "oo"]}}}`` (``domain`` optional: when present the point must lie in it).
"""
from __future__ import annotations

from typing import Any

from olr_verify.artefacts import replayer


@replayer("scalar")
def replay_scalar(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    from flint import fmpq

    from olr_verify.prover import refute
    from olr_verify.prover.parse import parse_domain, parse_relation
    from olr_verify.prover.special import rewrite

    from olr_verify.expr import exact_rational

    from olr_verify.checks.scalar_replay import undefined_operand_at

    rep = artefact["replay"]
    point = {str(k): exact_rational(v) for k, v in dict(rep["point"]).items()}
    undefined = undefined_operand_at(rep, {k: str(v) for k, v in point.items()})
    if undefined:
        return False, undefined
    domain = rep.get("domain") or {k: ("-oo", "oo") for k in point}
    variables = parse_domain({k: tuple(v) for k, v in domain.items()})
    slack, strict, _ = parse_relation(rep["relation"], [v.name for v in variables])
    slack, _ = rewrite(slack)
    q = {k: fmpq(v.numerator, v.denominator) for k, v in point.items()}
    ok, upper = refute.confirm(slack, variables, q, bits=256)
    if not ok and strict and refute.touches(slack, variables, q):  # a defined exact 0 inside the domain
        ok, upper = True, "0 (exact, sympy)"
    return ok, {"slack_upper_bound_arb_256_bits": upper, "point": {k: str(v) for k, v in point.items()},
                "relation": rep["relation"]}

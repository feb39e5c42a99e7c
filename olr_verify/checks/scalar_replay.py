"""The replayers of the scalar deciders' artefacts (types ``scalar``, ``scalar_relation``, ``identity``: a
relation or an identity re-checked at 50-60 digits at the stored exact point) and statement mode, in which a check
records the statements it would decide so that ``olr-verify replay`` binds an artefact to the registry's statement."""
from __future__ import annotations

from typing import Any

from olr_verify.artefacts import replayer
from olr_verify.checks.exact_points import _exact, _sp, eval_exact, in_domain, parse, slack_of
from olr_verify.outcome import Context, Outcome


# --------------------------------------------------------------------------- replayers
# Tolerances of the replays: code constants, never read from an artefact.
RELATION_TOLERANCE = 1e-40  # the 60-digit slack must be below -this
IDENTITY_TOLERANCE = 1e-30  # |lhs - rhs| must exceed this times (1 + |lhs| + |rhs|)


def _point(rep: dict[str, Any], names) -> dict[str, str]:
    """The artefact's point as strings; every variable of the statement must be given."""
    point = rep.get("point")
    if not isinstance(point, dict):
        raise ValueError("replay.point must be an object name -> number")
    missing = sorted(set(map(str, names)) - set(map(str, point)))
    if missing:
        raise ValueError(f"replay.point gives no value for {missing}")
    return {str(k): str(v) for k, v in point.items()}


def _outside(rep: dict[str, Any], point: dict[str, str]) -> dict[str, Any] | None:
    """Not-confirmed details when the artefact carries a domain and the point is not in it."""
    if "domain" not in rep:
        return None
    domain = {str(k): (str(v[0]), str(v[1])) for k, v in rep["domain"].items()}
    if set(domain) - set(point) or not in_domain(point, domain):
        return {"reason": "the point is not inside the domain", "domain": rep["domain"], "point": point}
    return None


@replayer("scalar_relation")
def replay_scalar_relation(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Re-evaluate the relation at the stored exact point at 60 digits; confirmed if it fails."""
    sp = _sp()
    rep = artefact["replay"]
    rel = parse(rep["relation"])
    slack_expr = slack_of(rel)
    point = _point(rep, slack_expr.free_symbols)
    outside = _outside(rep, point) or undefined_operand_at(rep, point)
    if outside:
        return False, outside
    strict = isinstance(rel, (sp.StrictLessThan, sp.StrictGreaterThan))
    if slack_expr.is_Rational:  # a fact between rational constants: decided exactly, with no tolerance
        return bool(slack_expr < 0 or (strict and slack_expr == 0)), {"slack_exact": str(slack_expr)}
    slack = eval_exact(slack_expr, point, 60)
    if slack.is_real and strict and not slack < -RELATION_TOLERANCE and exact_zero(slack_expr, point):
        return True, {"slack_exact": "0", "reading": "a strict relation fails where its slack is exactly 0 (the "
                      "60-digit value below is rounding)", "slack_60_digits": str(slack)}
    confirmed = bool(slack.is_real and slack < -RELATION_TOLERANCE)
    return confirmed, {"slack_60_digits": str(slack), "tolerance": RELATION_TOLERANCE}


def exact_zero(expr, point: dict[str, str]) -> bool:
    """``expr`` is exactly 0 at the exact point (a tiny positive value such as e^-1000 is not 0): where a strict
    relation fails. The kernel's test (:func:`olr_verify.kernel.inequality.exactly_zero`: an enclosure that
    excludes 0 settles "not 0", else sympy's simplify must reach 0), on ``expr`` with the point put in."""
    from olr_verify.kernel.inequality import exactly_zero

    return exactly_zero(expr.subs({s: _exact(point[s.name]) for s in expr.free_symbols if s.name in point}))


@replayer("identity")
def replay_identity(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """lhs - rhs at the stored exact point: exactly when it is a rational number there (a rational function at a
    rational point), else at 60 digits; confirmed if it is not 0 (beyond the tolerance, at 60 digits)."""
    rep = artefact["replay"]
    lhs_e, rhs_e = parse(rep["lhs"]), parse(rep["rhs"])
    point = _point(rep, lhs_e.free_symbols | rhs_e.free_symbols)
    outside = _outside(rep, point) or undefined_operand_at(rep, point)
    if outside:
        return False, outside
    exact = (lhs_e - rhs_e).xreplace({s: _exact(point[s.name]) for s in (lhs_e - rhs_e).free_symbols})
    if exact.is_Rational:  # a rational function at a rational point: decided exactly, with no tolerance
        return exact != 0, {"difference_exact": str(exact)}
    lhs = eval_exact(lhs_e, point, 60)
    rhs = eval_exact(rhs_e, point, 60)
    if not (lhs.is_real and rhs.is_real):
        return False, {"reason": "lhs or rhs is not a real number at the point", "lhs": str(lhs), "rhs": str(rhs)}
    constant = nonzero_constant(lhs_e - rhs_e)
    if constant is not None:  # exact: the sides differ by this constant wherever both are defined
        return True, {"lhs": str(lhs), "rhs": str(rhs), "exact_difference": str(constant)}
    diff = abs(lhs - rhs)
    scale = 1 + abs(lhs) + abs(rhs)
    return bool(diff > IDENTITY_TOLERANCE * scale), {"lhs": str(lhs), "rhs": str(rhs), "difference": str(diff),
                                                     "tolerance": f"{IDENTITY_TOLERANCE} * (1 + |lhs| + |rhs|)"}


def undefined_operand_at(rep: dict[str, Any], point: dict) -> dict[str, str] | None:
    """Why the identity is no statement at ``point``: an operand as written (``rep["operands"]``, from the
    registry) has no real value there, which reading cancelled (``log(x) - log(x) + x`` reads as ``x``)."""
    for text in rep.get("operands", []):
        operand = parse(text)
        if not isinstance(operand, _sp().Expr) or not {s.name for s in operand.free_symbols} <= set(point):
            continue  # a relation (its sides are operands of their own) or a name the point does not give
        try:  # exactly, by sympy's assumptions: a float evaluation would round atanh(1 - 10^-45) to atanh(1)
            value = operand.xreplace({s: _exact(point[s.name]) for s in operand.free_symbols})
        except (ArithmeticError, ValueError, TypeError):
            continue
        if value.is_real is False or value.is_finite is False:  # None (sympy cannot tell) is not "undefined"
            return {"reason": f"the operand {text} as written has no real value at the point: the statement says "
                              "nothing there"}
    return None


def nonzero_constant(diff):
    """The nonzero constant that ``diff`` expands to (``x + 10**-60 - x``, ``exp(-1000)``), or None: a difference
    far below any sampling tolerance, decided exactly (sympy must know the constant is not 0)."""
    value = _sp().expand(diff)
    return value if value.is_number and value.is_zero is False and value.is_finite else None


# --------------------------------------------------------------------------- statement mode (replay binding)
_RECORDING: list[dict[str, Any]] | None = None  # set while registry_statements() runs a check


def recording() -> bool:
    """Whether a check is being run in statement mode (:func:`registry_statements`)."""
    return _RECORDING is not None


def _record(statement: dict[str, Any]) -> Outcome | None:
    """In statement mode: remember what a decider was asked and return a placeholder outcome."""
    if _RECORDING is None:
        return None
    _RECORDING.append(statement)
    return Outcome("inconclusive", "statement mode (replay binding): not decided", {})


def _artefact_statement(art: Any) -> dict[str, Any] | None:
    rep = art.get("replay") if isinstance(art, dict) else None
    if not isinstance(rep, dict):
        return None
    if rep.get("type") in ("scalar", "scalar_relation") and "relation" in rep:
        return {"kind": "relation", "relation": str(rep["relation"]), "domain": rep.get("domain")}
    if rep.get("type") == "identity" and "lhs" in rep and "rhs" in rep:
        return {"kind": "identity", "lhs": str(rep["lhs"]), "rhs": str(rep["rhs"]), "domain": rep.get("domain")}
    return None


def registry_statements(claim, quick: bool = True) -> tuple[list[dict[str, Any]], str]:
    """The relations and identities that ``claim``'s check decides, with their domains, and a note.

    The check runs in statement mode (``quick`` budget, default seed, figures in a throw-away folder):
    :func:`inequality` and :func:`identity` record their statement instead of deciding it; an
    artefact the check builds itself is recorded too. Used by ``olr-verify replay`` to rebuild a
    statement from the registry instead of trusting the artefact's copy.
    """
    global _RECORDING
    import tempfile
    from pathlib import Path

    from olr_verify.artefacts import STATEMENT_SECONDS, time_limit
    from olr_verify.prover import core

    fn = claim.check
    if fn is None:
        return [], "the claim has no check"
    def recording_prove(relation, domain, **_):  # direct prover calls are recorded too, not decided
        _record({"kind": "relation", "relation": relation,
                 "domain": {k: [str(a), str(b)] for k, (a, b) in domain.items()}})
        return core.ProofResult("inconclusive", None, 0.0, {"reason": "statement mode (replay binding)"})

    note = "complete"
    _RECORDING, cap, real_prove = [], core.TIMEOUT_CAP, core.prove
    core.TIMEOUT_CAP, core.prove = 1.0, recording_prove
    try:
        with tempfile.TemporaryDirectory() as tmp, time_limit(STATEMENT_SECONDS, "statement mode"):
            out = fn(Context(out_dir=Path(tmp), quick=quick))
        found = _artefact_statement(getattr(out, "counterexample", None))
        if found:
            _RECORDING.append(found)
    except TimeoutError:
        note = f"the check was stopped after {STATEMENT_SECONDS} s"
    except Exception as exc:  # noqa: BLE001 - what was recorded before still counts
        note = f"the check raised {type(exc).__name__}"
    finally:
        statements, _RECORDING, core.TIMEOUT_CAP, core.prove = _RECORDING, None, cap, real_prove
    return statements, note

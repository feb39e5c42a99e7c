"""Counterexample artefacts: JSON files that ``olr-verify replay PATH`` re-checks.

An artefact is a dict with at least::

    {"claim": "<claim id>", "replay": {"type": "<replayer name>", ...}, ...}

``replay.type`` names a function registered with :func:`replayer`; it receives the whole
artefact and returns ``(confirmed: bool, details: dict)`` after recomputing the violation in
>= 50-digit or ball arithmetic from the exact data stored in the file (never from floats that
were rounded on the way: store numbers as decimal strings or exact rationals).

What a replay trusts
--------------------
An artefact is shared data, possibly hostile. :func:`replay` reads it with size caps (no NaN,
no infinite or huge numbers), never evaluates its text (expressions go through
:mod:`olr_verify.expr`), and binds it to the registry by its claim id before anything is
re-checked (:func:`bind`):

- ``scalar``, ``scalar_relation``, ``identity``: the statement (relation, or lhs and rhs) and its
  domain are rebuilt from the registry by running the claim's check in *statement mode* (the
  deciders of :mod:`olr_verify.checks.scalar_common` record what they are asked and decide
  nothing). The artefact's copy must be one of them (else ``confirmed: false`` naming the
  mismatch); the registry's domain is used and the point must lie in it;
- ``hunt-regret``: the target must be the artefact's claim (the bound is the code's);
- ``regret_bound``: learner, parameters, bound and ranges must equal the claim's ``paper.toml``;
- every other type: the replayer must be the one of the claim's own check module (the statement
  and the tolerance are in that code; the artefact supplies only the counterexample data).

Tolerances are never read from the artefact. The details say exactly what was checked
(``checked``) and what came from the file (``from_artefact``).
"""
from __future__ import annotations

import json
import os
import math
import re
import signal
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

Replayer = Callable[[dict[str, Any]], tuple[bool, dict[str, Any]]]
_REPLAYERS: dict[str, Replayer] = {}

FORMAT = 2  # 1: artefacts without "format" (before the registry binding); 2: with "format" and "version"
MAX_BYTES = 50_000_000
MAX_INT_DIGITS = 1000
REPLAY_SECONDS = 300  # one replay (binding + re-check) at most this long
STATEMENT_SECONDS = 90  # the claim's check in statement mode at most this long
STATEMENT_TYPES = ("scalar", "scalar_relation", "identity")


class ArtefactError(ValueError):
    """An artefact file that cannot be read (one-line message)."""


def replayer(name: str) -> Callable[[Replayer], Replayer]:
    def register(fn: Replayer) -> Replayer:
        _REPLAYERS[name] = fn
        return fn

    return register


def artefact_filename(claim_id: str) -> str:
    return claim_id.replace(":", "_").replace("/", "__") + ".json"


def write(artefact: dict[str, Any], folder: Path, claim_id: str) -> Path:
    from olr_verify import __version__

    if "replay" not in artefact or "type" not in artefact["replay"]:
        raise ValueError("artefact needs a 'replay' entry with a 'type'")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / artefact_filename(claim_id)
    artefact = {"claim": claim_id, "format": FORMAT, "version": __version__, **artefact}
    path.write_text(json.dumps(artefact, indent=1, sort_keys=True, default=str), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- reading
def _int(text: str) -> int:
    if len(text.lstrip("+-")) > MAX_INT_DIGITS:
        raise ArtefactError(f"an integer with more than {MAX_INT_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ArtefactError(f"number {text[:40]} is not finite")
    return value


def _constant(name: str) -> float:
    raise ArtefactError(f"{name} is not a number")


def load(path: str | Path) -> dict[str, Any]:
    """The artefact at ``path`` (size-capped JSON: no NaN/Infinity, no huge numbers)."""
    import stat

    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block the open
        with os.fdopen(fd, "rb") as handle:  # fstat of the opened file: a device or pipe is never read
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise ArtefactError("not a regular file")
            raw = handle.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise ArtefactError(f"more than {MAX_BYTES} bytes")
        text = raw.decode("utf-8")
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except ArtefactError as exc:
        raise ArtefactError(f"{path}: {exc}") from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ArtefactError(f"{path}: not a readable JSON artefact ({type(exc).__name__}: "
                            f"{' '.join(str(exc).split())[:120]})") from None
    if not (isinstance(data, dict) and isinstance(data.get("claim"), str) and isinstance(data.get("replay"), dict)
            and isinstance(data["replay"].get("type"), str)):
        raise ArtefactError(f"{path}: an artefact is an object with 'claim' and 'replay': {{'type': ...}}")
    return data


_HUGE_EXPONENT = re.compile(r"(?<=[\d.])[eE][+-]?0*\d{4,}")  # linear time: no backtracking over digits
_LONG_DIGITS = re.compile(r"\d{%d}" % (MAX_INT_DIGITS + 1))
_HEX_FLOAT = re.compile(r"[+-]?0x[0-9a-fA-F]*\.?[0-9a-fA-F]*p[+-]?\d{1,5}")  # float.fromhex: bounded


def guard_sizes(value: Any, where: str = "artefact") -> None:
    """Refuse number-like text that would take unbounded time to convert (``1e999999999``, a
    10^5-digit integer) anywhere in the artefact, before any replayer sees it."""
    stack = [(value, where)]
    while stack:
        v, at = stack.pop()
        if isinstance(v, str):
            if len(v) < 64 and _HEX_FLOAT.fullmatch(v):
                continue
            if _LONG_DIGITS.search(v) or _HUGE_EXPONENT.search(v):
                raise ArtefactError(f"{at}: number {v[:40]!r} is too large to replay")
        elif isinstance(v, dict):
            stack.extend((x, f"{at}.{k}") for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((x, f"{at}[{i}]") for i, x in enumerate(v))


# --------------------------------------------------------------------------- binding
def _norm_domain(domain: Any) -> dict[str, list[str]]:
    if not isinstance(domain, dict):
        raise ArtefactError("domain must be an object name -> [lo, hi]")
    out = {}
    for k, v in domain.items():
        if not (isinstance(v, (list, tuple)) and len(v) == 2):
            raise ArtefactError(f"domain of {k} must be [lo, hi]")
        out[str(k)] = [str(v[0]), str(v[1])]
    return out


def _same_text(a: str, b: str) -> bool:
    """Two expression/relation texts read to the same sympy object (exact; no evaluation of text)."""
    from olr_verify.checks.scalar_common import parse

    try:
        return parse(a) == parse(b)
    except ValueError:
        return False


def _statement_fields(rep: dict[str, Any]) -> tuple[str, ...]:
    return ("relation",) if rep["type"] in ("scalar", "scalar_relation") else ("lhs", "rhs")


def bind_statement(art: dict[str, Any], claim) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The artefact with statement and domain taken from the registry, or (None, mismatch)."""
    from olr_verify.checks.scalar_common import registry_statements

    rep = art["replay"]
    fields = _statement_fields(rep)
    for f in fields:
        if not isinstance(rep.get(f), str):
            return None, {"mismatch": f"replay.{f} is missing or not a string"}
    wanted = "relation" if fields == ("relation",) else "identity"
    candidates: list[dict[str, Any]] = []
    notes = []
    match = None
    for quick in (True, False):  # a full run may decide statements that the quick budget skips
        statements, note = registry_statements(claim, quick=quick)
        notes.append(f"{'quick' if quick else 'full'}: {note}")
        candidates += [s for s in statements if s["kind"] == wanted]
        match = _matching(rep, fields, candidates)
        if match is not None:
            break
    if match is None:
        shown = [{f: s[f] for f in fields} for s in candidates][:6]
        what = " and ".join(f"{f} {rep[f]!r}" for f in fields)
        return None, {"mismatch": f"{what} is not a statement of {claim.id} in this registry",
                      "registry_statements": shown, "statement_mode": "; ".join(notes)}
    domain = match.get("domain")
    if "domain" in rep and domain is not None and _norm_domain(rep["domain"]) != _norm_domain(domain):
        return None, {"mismatch": f"domain {rep['domain']} differs from the registry's {domain}"}
    bound = {**rep, **{f: match[f] for f in fields}}
    bound.pop("operands", None)  # what must be defined at the point is the registry's to say, never the artefact's
    if match.get("operands"):
        bound["operands"] = match["operands"]
    if domain is not None:
        bound["domain"] = _norm_domain(domain)
        outside = _outside_domain(rep.get("point"), bound["domain"])
        if outside:
            return None, {"mismatch": outside, "domain": domain}
    return {**art, "replay": bound}, {"statement": {f: match[f] for f in fields}, "domain": domain}


def _matching(rep: dict[str, Any], fields: tuple[str, ...], statements: list[dict[str, Any]]) -> dict | None:
    """The registry statement whose text equals the artefact's copy (one with the artefact's domain
    first, when the same text is decided on several domains), or None."""
    same = [s for s in statements if all(_same_text(rep[f], s[f]) for f in fields)]
    if "domain" in rep:
        try:
            mine = _norm_domain(rep["domain"])
            same.sort(key=lambda s: s.get("domain") is None or _norm_domain(s["domain"]) != mine)
        except ArtefactError:
            pass
    return same[0] if same else None


def _outside_domain(point: Any, domain: dict[str, list[str]]) -> str | None:
    """Why ``point`` is not an exact point of the closed ``domain`` (None when it is)."""
    from olr_verify.checks.scalar_common import in_domain

    if not isinstance(point, dict):
        return "replay.point must be an object name -> exact number"
    missing = sorted(set(domain) - set(map(str, point)))
    if missing:
        return f"replay.point gives no value for {missing}"
    if not in_domain({str(k): str(v) for k, v in point.items()}, {k: tuple(v) for k, v in domain.items()}):
        return f"the point {point} is not inside the registry's domain {domain}"
    return None


def bind_module(art: dict[str, Any], claim) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """A specific replayer must belong to the claim's own check (same module)."""
    kind = art["replay"]["type"]
    fn = claim.check
    rep_module = _REPLAYERS[kind].__module__
    if fn is None or fn.__module__ != rep_module:
        owner = None if fn is None else fn.__module__
        return None, {"mismatch": f"replay type {kind!r} ({rep_module}) does not belong to the check of "
                                  f"{claim.id} ({owner})"}
    return art, {"statement": f"the replayer {kind!r} of {rep_module} (the claim's check module)"}


def bind_hunt(art: dict[str, Any], claim) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """``hunt-regret``: the hunted target is the claim itself, or one its check names in its code."""
    import inspect

    target = art["replay"].get("target")
    try:
        source = inspect.getsource(claim.check) if claim.check is not None else ""
    except (OSError, TypeError):
        source = ""
    if not isinstance(target, str) or (target != claim.id and f'"{target}"' not in source):
        return None, {"mismatch": f"hunt target {target!r} is not {claim.id!r} nor a target its check hunts"}
    return art, {"statement": f"the bound of target {target} in olr_verify.hunting (its paper.toml's [claim.hunt] "
                              "table, or code of olr_verify/hunting/bounds.py)"}


def bind_declared(art: dict[str, Any], claim) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """``regret_bound``: learner, parameters, bound and ranges from the claim's paper.toml."""
    from olr_verify import paper_folder

    try:
        entry = next(e for e in paper_folder.read(claim.source)[1] if e.get("id") == claim.id)
    except (StopIteration, Exception) as exc:  # noqa: BLE001 - any failure means "cannot bind"
        return None, {"mismatch": f"cannot read the declaration of {claim.id} from {claim.source!r} "
                                  f"({type(exc).__name__})"}
    rep = art["replay"]
    fields = {"learner": lambda e: str(e), "bound": lambda e: str(e),
              "learner_params": lambda e: {str(k): str(v) for k, v in dict(e).items()},
              "params": lambda e: _norm_domain(e)}
    for f, norm in fields.items():
        try:
            same = norm(rep.get(f, {})) == norm(entry.get(f, {}))
        except (TypeError, ValueError):
            same = False
        if not same:
            return None, {"mismatch": f"replay.{f} {rep.get(f)!r} differs from paper.toml's {entry.get(f)!r}"}
    bound = {**rep, **{f: entry[f] for f in fields if f in entry}}
    return {**art, "replay": bound}, {"statement": {f: entry.get(f) for f in fields}}


def bind(art: dict[str, Any], claim) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    kind = art["replay"]["type"]
    if kind in STATEMENT_TYPES:
        return bind_statement(art, claim)
    if kind == "hunt-regret":
        return bind_hunt(art, claim)
    if kind == "regret_bound":
        return bind_declared(art, claim)
    return bind_module(art, claim)


# --------------------------------------------------------------------------- replay
@contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    """Raise TimeoutError after ``seconds`` (main thread only; elsewhere no limit). Nests: an outer
    limit keeps running (and wins when it is shorter)."""
    import time

    def stop(*_):
        raise TimeoutError(f"{what} took more than {seconds:.0f} s")

    try:
        old = signal.signal(signal.SIGALRM, stop)
    except ValueError:  # not the main thread
        yield
        return
    outer = signal.getitimer(signal.ITIMER_REAL)[0]
    start = time.monotonic()
    if outer and outer < seconds:
        signal.signal(signal.SIGALRM, old)  # the outer limit comes first: let it fire
    else:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if outer:
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 0.001))


def recheck(artefact: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    """Run the replayer on ``artefact`` as it is, WITHOUT binding it to the registry (the statement,
    domain and data are taken from the dict): for a statement that is not a registry claim, e.g. a
    variant built in a test. ``olr-verify replay`` uses :func:`replay`."""
    from olr_verify import registry

    registry.load_checks()
    return _REPLAYERS[artefact["replay"]["type"]](artefact)


def _version_note(art: dict[str, Any]) -> str:
    from olr_verify import __version__

    written = art.get("version")
    if written is None:
        return f"artefact from an older version (format 1, no version); this is {__version__}"
    return f"artefact written by version {written}; this is {__version__}"


def replay(path: str | Path) -> tuple[bool, dict[str, Any]]:
    """Re-check the artefact at ``path`` against the registry; True when the violation is confirmed.

    Raises :class:`ArtefactError` for a file that is not an artefact at all; every other problem
    (unknown claim, statement mismatch, malformed data, timeout) is ``(False, {"reason": ...})``.
    """
    from olr_verify import registry

    registry.load_checks()  # check modules register their replayers on import
    art = load(path)
    kind = art["replay"]["type"]
    details: dict[str, Any] = {"claim": art["claim"], "replay_type": kind, "version": _version_note(art)}
    try:
        guard_sizes(art["replay"], "replay")
    except ArtefactError as exc:
        return False, {**details, "reason": str(exc)}
    if kind not in _REPLAYERS:
        return False, {**details, "reason": f"unknown replay type {kind!r} (known: {sorted(_REPLAYERS)})"}
    try:
        claim = registry.get(art["claim"])
    except KeyError:
        return False, {**details, "reason": f"claim {art['claim']!r} is not in the registry "
                                            "(a paper folder's claim needs --paper DIR)"}
    try:
        with time_limit(REPLAY_SECONDS, "the replay"):
            bound, binding = bind(art, claim)
            if bound is None:
                return False, {**details, **binding, "reason": "the artefact does not match the registry"}
            confirmed, found = _REPLAYERS[kind](bound)
    except Exception as exc:  # noqa: BLE001 - a hostile file must not crash the replay
        return False, {**details, "reason": f"replay failed: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}"}
    if not confirmed:
        found.setdefault("reason", "the re-check did not confirm a violation at the artefact's data")
    checked = [f"claim {claim.id} is in the registry",
               f"statement from the registry: {binding.get('statement')}",
               "tolerance and precision from the replayer's code (never from the artefact)"]
    if binding.get("domain") is not None:
        checked.append(f"point inside the registry's domain {binding['domain']}")
    if found.get("checked"):
        checked.append(f"replayer: {found['checked']}")
    return bool(confirmed), {**found, **details, "checked": checked,
                             "from_artefact": "the counterexample data (point, sequence, parameters)"}

"""Counterexample artefacts: JSON files that ``olr-verify replay PATH`` re-checks.

An artefact is a dict with at least::

    {"claim": "<claim id>", "replay": {"type": "<replayer name>", ...}, ...}

``replay.type`` names a function registered with :func:`replayer`; it receives the whole
artefact and returns ``(confirmed: bool, details: dict)`` after recomputing the violation in
>= 50-digit or ball arithmetic from the exact data stored in the file (never from floats that
were rounded on the way: store numbers as decimal strings or exact rationals).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

Replayer = Callable[[dict[str, Any]], tuple[bool, dict[str, Any]]]
_REPLAYERS: dict[str, Replayer] = {}


def replayer(name: str) -> Callable[[Replayer], Replayer]:
    def register(fn: Replayer) -> Replayer:
        _REPLAYERS[name] = fn
        return fn

    return register


def artefact_filename(claim_id: str) -> str:
    return claim_id.replace(":", "_").replace("/", "__") + ".json"


def write(artefact: dict[str, Any], folder: Path, claim_id: str) -> Path:
    if "replay" not in artefact or "type" not in artefact["replay"]:
        raise ValueError("artefact needs a 'replay' entry with a 'type'")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / artefact_filename(claim_id)
    artefact = {"claim": claim_id, **artefact}
    path.write_text(json.dumps(artefact, indent=1, sort_keys=True, default=str), encoding="utf-8")
    return path


def replay(path: str | Path) -> tuple[bool, dict[str, Any]]:
    """Re-check the artefact at ``path``; True when the violation is confirmed."""
    from olr_verify.registry import load_checks

    load_checks()  # check modules register their replayers on import
    artefact = json.loads(Path(path).read_text(encoding="utf-8"))
    kind = artefact.get("replay", {}).get("type")
    if kind not in _REPLAYERS:
        raise ValueError(f"artefact {path}: unknown replay type {kind!r} (known: {sorted(_REPLAYERS)})")
    return _REPLAYERS[kind](artefact)

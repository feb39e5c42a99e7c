"""Write a paper folder's ``paper.toml`` from data (the ``[paper]`` table and the ``[[claim]]`` entries).

Used by ``tools/migrate_checks.py``, which rewrites the five seed folders (``olr_verify/papers/s*/paper.toml``)
when it moves a check into data. The output is read back with :mod:`tomllib` and compared with the input,
so a value the writer cannot render faithfully is an error, never a silent change.
"""
from __future__ import annotations

import json
import re
import tomllib
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def string(s: str) -> str:
    """A TOML string for ``s``: plain quotes when possible, literal quotes for LaTeX, JSON escapes otherwise."""
    if "\n" not in s and "\\" not in s and '"' not in s and s.isprintable():
        return f'"{s}"'
    if "\n" not in s and "'" not in s and s.isprintable():
        return f"'{s}'"
    if "'''" not in s and not s.endswith("'") and all(ch.isprintable() or ch == "\n" for ch in s):
        return "'''" + ("\n" if s.startswith("\n") else "") + s + "'''"
    return json.dumps(s, ensure_ascii=False)


def key(k: str) -> str:
    return k if _BARE.match(k) else string(k)


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"value: cannot write {type(v).__name__} to TOML")


def _multiline_list(items: list[Any]) -> str:
    return "[\n" + "".join(f"  {value(x)},\n" for x in items) + "]"


def paper_toml(header: str, paper: dict[str, Any], claims: list[dict[str, Any]]) -> str:
    """The text of ``paper.toml``; raises ValueError unless it reads back to exactly ``paper`` and ``claims``."""
    out = [header.rstrip() + "\n\n" if header else "", "[paper]\n"]
    out += [f"{key(k)} = {value(v)}\n" for k, v in paper.items()]
    for entry in claims:
        out.append("\n[[claim]]\n")
        for k, v in entry.items():
            rendered = _multiline_list(v) if k == "links" else value(v)
            out.append(f"{key(k)} = {rendered}\n")
    text = "".join(out)
    back = tomllib.loads(text)
    if back.get("paper") != paper or back.get("claim", []) != claims:
        raise ValueError("paper_toml: the written text does not read back to the same data")
    return text

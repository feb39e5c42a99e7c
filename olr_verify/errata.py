"""Errata sheets: per paper, what is wrong in the printed text, how it reads corrected, and what depends on it.

``render_sheet(results, seed)`` is a pure function of a results.json dict (so REPORT.md can include the same
text); :func:`write` also reads each refutation's artefact once to give its witness in one line
(``witness`` in the claim's result) and writes ``errata/<seed>.md`` beside results.json.

An entry is a printed claim that the run refuted (a corrected variant that fails is shown on the line of the
claim it corrects; a parent whose class is inherited from a refuted part is shown through that part). Entries
come in the order of :data:`olr_verify.registry.DEFECTS`: substantive defects first, then slips, domain and
extraction, each in printed order. For each: the printed text, the corrected text (the statement of every
claim whose ``variant_of`` points to it, with its status), the witness, and the consequence: the status of
every result the TOML entry declares in ``depends_on``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from olr_verify.registry import DEFECTS
from olr_verify.summary import is_variant

HEADINGS = {"substantive": "Substantive defects", "slip": "Slips", "domain": "Domain",
            "extraction": "Extraction losses (our copy of the text, not the paper)", None: "Not yet classified"}
WITNESS_CHARS = 240
WITNESS_FIRST = ("point", "instance", "relation", "lhs", "rhs")  # the short, telling keys of an artefact first
ERRATA_DIR = "errata"


def seed_of(claim_id: str) -> str:
    """The paper key of a claim id (``000`` ... ``004``, or a paper folder's key)."""
    return claim_id.split(":", 1)[0]


def _inherited(c: dict[str, Any]) -> bool:
    return str(c.get("defect_reason", "")).startswith("inherited from")


def entries(claims: list[dict[str, Any]], seed: str) -> list[dict[str, Any]]:
    """The refuted printed claims of paper ``seed`` in errata order (class, then printed order)."""
    order = {d: i for i, d in enumerate(DEFECTS)}
    by_id = {c["id"]: c for c in claims}
    found = [c for c in claims if seed_of(c["id"]) == seed and c["status"] == "refuted"
             and not is_variant(c, by_id) and not _inherited(c)]
    return sorted(found, key=lambda c: order.get(c.get("defect"), len(order)))  # stable: printed order


def counts(claims: list[dict[str, Any]], seed: str | None = None) -> dict[str | None, int]:
    """Errata entries per defect class (``None``: refuted without a class), for one paper or all."""
    seeds = {seed_of(c["id"]) for c in claims} if seed is None else {seed}
    out: dict[str | None, int] = {d: 0 for d in DEFECTS}
    for s in sorted(seeds):
        for c in entries(claims, s):
            out[c.get("defect")] = out.get(c.get("defect"), 0) + 1
    return out


def witness_of_artefact(payload: dict[str, Any]) -> str:
    """One line from a counterexample artefact: its replay data without the replayer's name."""
    replay = payload.get("replay", payload)
    first = [k for k in WITNESS_FIRST if k in replay]
    data = {k: replay[k] for k in first + sorted(set(replay) - set(first) - {"type"})}
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "), default=str)
    return text if len(text) <= WITNESS_CHARS else text[:WITNESS_CHARS - 1] + "…"


def _witness_of_evidence(c: dict[str, Any]) -> str:
    ev = c.get("evidence", {})
    for key in ("witness", "counterexample", "point", "instance", "data", "refuted_link"):
        if ev.get(key) not in (None, "", {}):
            text = json.dumps(ev[key], ensure_ascii=False, default=str)
            return f"{key}: " + (text if len(text) <= WITNESS_CHARS else text[:WITNESS_CHARS - 1] + "…")
    return "in the artefact" if c.get("counterexample") else "no witness recorded"


def witness(c: dict[str, Any]) -> str:
    """The one-line witness of a refuted claim: from its artefact when :func:`write` has read it."""
    return c.get("witness") or _witness_of_evidence(c)


def _consequence(c: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> str:
    deps = c.get("depends_on") or []
    if not deps:
        return "no result of the paper is declared to depend on it"
    out = []
    for d in deps:
        r = by_id.get(d)
        if r is None:
            out.append(f"`{d}` not in this run")
            continue
        note = f" (printed proof step{'s' if len(r['refuted_parts']) > 1 else ''} false)" \
            if r.get("refuted_parts") and r["status"] != "refuted" else ""
        out.append(f"`{d}` {r['status']}{note}")
    return "; ".join(out)


def _corrected(c: dict[str, Any], claims: list[dict[str, Any]]) -> list[str]:
    variants = [v for v in claims if v.get("variant_of") == c["id"]]  # c is refuted: each is a corrected variant
    if not variants:
        return ["none registered" + ("" if c.get("defect") in ("substantive", "extraction", None)
                                     else " (a slip or domain defect needs one)")]
    return [f"`{v['id']}` ({v['status']}): {v.get('statement', '')}" for v in variants]


def entry_lines(c: dict[str, Any], claims: list[dict[str, Any]], by_id: dict[str, dict[str, Any]],
                level: str = "###", link_prefix: str = "") -> list[str]:
    """The markdown of one erratum; ``link_prefix`` leads from the sheet's folder to results.json's."""
    lines = [f"{level} `{c['id']}` — {c.get('title', '')}", "",
             f"- **printed:** {c.get('statement', '')}"]
    corrected = _corrected(c, claims)
    lines += [f"- **corrected:** {corrected[0]}"] + [f"  - also: {more}" for more in corrected[1:]]
    lines.append(f"- **why ({c.get('defect') or 'unclassified'}):** {c.get('defect_reason') or 'no reason given'}")
    if c.get("defect_range"):
        lines.append(f"- **range the paper uses:** {c['defect_range']}")
    cx = f" ([`{c['counterexample']}`]({link_prefix}{c['counterexample']}))" if c.get("counterexample") else ""
    lines.append(f"- **witness:** {witness(c)}{cx}")
    lines.append(f"- **consequence:** {_consequence(c, by_id)}")
    return lines + [""]


def count_line(n: dict[str | None, int]) -> str:
    text = ", ".join(f"{n[d]} {d}" for d in DEFECTS)
    return text + (f", **{n[None]} not classified**" if n.get(None) else "")


def render_sheet(results: dict[str, Any], seed: str, level: int = 1, link_prefix: str = "") -> str:
    """The errata sheet of paper ``seed`` (markdown); ``level`` is the heading level of its title."""
    claims = results["claims"]
    by_id = {c["id"]: c for c in claims}
    paper = results.get("papers", {}).get(seed, {})
    h = "#" * level
    lines = [f"{h} Errata — {seed}: {paper.get('title', '')}", ""]
    if paper.get("authors"):
        lines += [f"*{paper['authors']}*", ""]
    found = entries(claims, seed)
    lines += [f"{count_line(counts(claims, seed))} (refuted printed claims of this run).", ""]
    if not found:
        return "\n".join(lines + ["No printed claim of this paper was refuted in this run.", ""])
    for cls in (*DEFECTS, None):
        group = [c for c in found if c.get("defect") == cls]
        if group:
            lines += [f"{h}# {HEADINGS[cls]}", ""]
            for c in group:
                lines += entry_lines(c, claims, by_id, level=h + "##", link_prefix=link_prefix)
    return "\n".join(lines)


def section(results: dict[str, Any]) -> list[str]:
    """The "Errata" section of REPORT.md: every paper's sheet, substantive defects first."""
    claims = results["claims"]
    seeds = sorted({seed_of(c["id"]) for c in claims})
    lines = ["## Errata", "",
             "Every refuted printed claim, by paper, with its defect class (`substantive`: the intended statement "
             "is false; `slip`: a typo whose intended statement holds; `domain`: false only outside the range the "
             "paper uses; `extraction`: our copy lost something the paper has), the corrected text (a corrected "
             "variant decided in the same run), a witness, and which of the paper's results depend on it. "
             f"All papers: {count_line(counts(claims))}.", ""]
    for seed in seeds:
        lines += [render_sheet(results, seed, level=3), f"(also in [`errata/{seed}.md`](errata/{seed}.md))", ""]
    return lines


def attach_witnesses(results: dict[str, Any], out_dir: Path) -> None:
    """Give each refuted claim a one-line ``witness`` read from its artefact (if the file is there)."""
    for c in results["claims"]:
        if c["status"] != "refuted" or not c.get("counterexample"):
            continue
        path = Path(out_dir) / c["counterexample"]
        try:
            c["witness"] = witness_of_artefact(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, AttributeError):
            continue


def write(results: dict[str, Any], out_dir: Path) -> list[Path]:
    """Attach witnesses, then write ``errata/<seed>.md`` for every paper of the run; returns the files."""
    out_dir = Path(out_dir)
    attach_witnesses(results, out_dir)
    folder = out_dir / ERRATA_DIR
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for seed in sorted({seed_of(c["id"]) for c in results["claims"]}):
        path = folder / f"{seed}.md"
        path.write_text(render_sheet(results, seed, link_prefix="../").rstrip() + "\n", encoding="utf-8")
        written.append(path)
    return written

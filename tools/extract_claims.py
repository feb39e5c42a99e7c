"""Generate olr_verify/claims/s<seed>.toml from the "Claims to check" lists of ../shared/papers/*.md.

A one-off bootstrap kept for provenance: after generation the TOML files are the source of truth
and are edited by hand (new claims, notes).  Usage: python tools/extract_claims.py ../shared/papers
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ITEM = re.compile(r"^(\d+)\.\s+(?:`([^`]+)`|\*\*([^*]+)\*\*)\s+—\s+(.*)$")
KIND_SLUGS = [
    ("scalar", "scalar-inequality"), ("determinant", "scalar-inequality"),
    ("exact identity", "exact-identity"), ("exact-argmin", "exact-argmin"),
    ("regret bound", "regret-bound"), ("per-round", "per-round-inequality"),
    ("per-round measurement", "per-round-inequality"), ("convergence rate", "regret-bound"),
    ("inequality on sequences", "per-round-inequality"), ("inequality", "scalar-inequality"),
    ("complexity", "complexity"), ("cited", "cited-result"), ("cross-reference", "cited-result"),
    ("experiment", "experiment"), ("assumption", "assumption"), ("none", "protocol"),
]
KIND_NAMES = {"lemma": "Lemma", "theorem": "Theorem", "proposition": "Proposition", "corollary": "Corollary",
              "assumption": "Assumption", "equation": "Equation", "algorithm": "Algorithm", "table": "Table",
              "figure": "Figure", "claim": "Claim"}


def slugs(kind_text: str) -> str:
    out: list[str] = []
    low = kind_text.lower()
    for key, slug in KIND_SLUGS:
        if key in low and slug not in out:
            if slug == "scalar-inequality" and key == "inequality" and any(s.endswith("inequality") for s in out):
                continue
            out.append(slug)
    return "+".join(out) or "unspecified"


def split_item(rest: str) -> tuple[str, str, str]:
    m = re.search(r"\s*Kind:\s*(.*?)(?:\.\s*Domain:\s*(.*))?$", rest)
    if m and "Kind:" in rest:
        return rest[: m.start()].strip().rstrip("."), m.group(1).strip().rstrip("."), (m.group(2) or "").strip().rstrip(".")
    parts = rest.split(" — ")
    if len(parts) >= 3:
        return " — ".join(parts[:-2]).strip(), parts[-2].strip(), parts[-1].strip().rstrip(".")
    if len(parts) == 2:
        return parts[0].strip(), parts[1].strip(), ""
    return rest.strip(), "", ""


def title_of(cid: str) -> str:
    m = re.match(r"^\d{3}:([a-z]+)-([0-9a-z.]+)(?:/(.*))?$", cid)
    kind, number, part = m.groups()
    number = number[0].upper() + number[1:] if number[0].isalpha() else number
    t = f"{KIND_NAMES[kind]} {number}"
    return f"{t} — {part}" if part else t


def find_source(cid: str, headers: list[str], item: int, group: str) -> str:
    m = re.match(r"^\d{3}:([a-z]+)-([0-9a-z.]+)", cid)
    kind, number = m.groups()
    needles = []
    if kind == "equation":
        needles = [f"({number})", f"eq. ({number})", f"Equation ({number})", f"equation ({number})"]
    elif kind != "claim":
        name = KIND_NAMES[kind]
        needles = [f"{name} {number.upper() if len(number) == 1 and number.isalpha() else number}",
                   f"{name} {number}"]
    for h in headers:
        text = h.lstrip("#").strip()
        for n in needles:
            if re.search(re.escape(n) + r"(?![0-9.])", text, flags=re.IGNORECASE):
                return f"{text} [claims list item {item}]"
    return f"claims list item {item}" + (f" ({group})" if group else "")


def notes_for(seed: str, statement: str, item: int) -> str:
    notes = []
    if "⟨…⟩" in statement:
        notes.append("formula lost in the seed text (⟨…⟩): the statement is not recoverable as printed")
    if "[R-" in statement:
        notes.append("formula restored from the authors' published version or follow-up slides ([R-pub]/[R-slides]), "
                      "not from the seed text")
    if seed == "004" and item >= 42:
        notes.append("follow-up material (transcription Section 4), not part of the seed paper: a reconstruction")
    return "; ".join(notes)


def toml_str(s: str) -> str:
    if "'''" in s:
        raise ValueError(s)
    return "'''" + s + "'''" if ("\n" in s or "'" in s or "\\" in s or '"' in s) else '"' + s + '"'


def extract(md: Path) -> str:
    text = md.read_text(encoding="utf-8")
    seed = md.name[:3]
    first = text.splitlines()[0].lstrip("# ").split(" — ", 1)[1]
    names = first.split(", ")
    k = 3 if seed in ("000", "001", "003") else 1  # three comma-separated authors, or one author field
    authors, title = ", ".join(names[:k]), ", ".join(names[k:])
    head, claims_part = text.split("## Claims to check", 1)
    headers = [ln for ln in head.splitlines() if ln.startswith("#")]
    items: list[list] = []
    group = ""
    for line in claims_part.splitlines():
        m = ITEM.match(line)
        if m:
            items.append([int(m.group(1)), (m.group(2) or m.group(3)).strip(), m.group(4), group])
        elif line.startswith("**") and line.rstrip().endswith("**"):
            group = line.strip("* ").strip()
        elif line.startswith("    ") and items:
            items[-1][2] += "\n" + line.strip()
    out = [f"# Claims of seed {seed}, generated from the transcription's \"Claims to check\" list by",
           "# tools/extract_claims.py, then edited by hand. Order = printed order of the list.",
           "", "[paper]", f'seed = "{seed}"', f"title = {toml_str(title.strip())}",
           f"authors = {toml_str(authors.strip())}", ""]
    if seed == "004":
        out.insert(-1, 'notes = "The seed text lost its formulas. Statements marked ⟨…⟩ are not recoverable; '
                       '[R-pub]/[R-slides] items are restored from other sources; items of the follow-up material '
                       'are reconstructions, not the seed paper."')
    for item, cid, rest, grp in items:
        statement, kind, domain = split_item(rest)
        out += ["[[claim]]", f'id = "{cid}"', f"title = {toml_str(title_of(cid))}",
                f'check_kind = "{slugs(kind)}"', f"source = {toml_str(find_source(cid, headers, item, grp))}",
                f"statement = {toml_str(statement)}", f"domain = {toml_str(domain)}"]
        note = notes_for(seed, rest, item)
        if note:
            out.append(f"notes = {toml_str(note)}")
        out.append("")
    return "\n".join(out)


def main(folder: str) -> None:
    dest = Path(__file__).resolve().parents[1] / "olr_verify" / "claims"
    dest.mkdir(parents=True, exist_ok=True)
    for md in sorted(Path(folder).glob("00[0-4]_*.md")):
        (dest / f"s{md.name[:3]}.toml").write_text(extract(md), encoding="utf-8")
        print("wrote", dest / f"s{md.name[:3]}.toml")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/papers")

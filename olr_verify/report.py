"""REPORT.md as a pure function of results.json (``render(results) -> str``)."""
from __future__ import annotations

import json
from collections import Counter
from typing import Any

from olr_verify import errata
from olr_verify.errata import seed_of
from olr_verify.outcome import STATUSES
from olr_verify.registry import DEFECTS

ORDER = {"refuted": 0, "error": 1, "proved": 2, "verified": 3, "inconclusive": 4}
BADGE = {"proved": "✅ proved", "verified": "🔎 verified", "refuted": "❌ refuted",
         "inconclusive": "❔ inconclusive", "error": "💥 error"}
MEANING = {
    "proved": "a rigorous certificate over the whole stated domain (ball arithmetic, exact symbolic identity or "
              "exact rational arithmetic). Floating-point sampling never proves.",
    "refuted": "a counterexample re-checked at ≥ 50 digits (or in ball arithmetic), saved as a JSON artefact "
               "that `olr-verify replay PATH` re-checks.",
    "verified": "no certificate, but every check and hunt passed; the evidence says how much was tried.",
    "inconclusive": "the tools could not decide; the evidence says why (\"no check yet\" marks work not done).",
    "error": "the check itself failed; the evidence holds the error and traceback summary.",
}
SKIP_EVIDENCE = {"figures", "traceback"}


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (dict, list)):
        text = json.dumps(value, default=str, ensure_ascii=False)
        return text if len(text) <= 400 else text[:397] + "…"
    return str(value)


def summary_table(claims: list[dict[str, Any]], papers: dict[str, Any]) -> list[str]:
    """Claims per status and paper, then the errata entries per defect class (substantive and slips apart)."""
    lines = ["| seed | paper | " + " | ".join(STATUSES) + " | total | " + " | ".join(DEFECTS) + " |",
             "|---|---|" + "---:|" * (len(STATUSES) + 1 + len(DEFECTS))]
    total, total_defects = Counter(), Counter()
    for seed in sorted({seed_of(c["id"]) for c in claims}):
        counts = Counter(c["status"] for c in claims if seed_of(c["id"]) == seed)
        defects = errata.counts(claims, seed)
        total.update(counts)
        total_defects.update(defects)
        title = papers.get(seed, {}).get("title", "")
        lines.append(f"| {seed} | {_cell(title)} | " + " | ".join(str(counts[s]) for s in STATUSES)
                     + f" | {sum(counts.values())} | " + " | ".join(str(defects[d]) for d in DEFECTS) + " |")
    lines.append("| **all** | | " + " | ".join(f"**{total[s]}**" for s in STATUSES)
                 + f" | **{sum(total.values())}** | "
                 + " | ".join(f"**{total_defects[d]}**" for d in DEFECTS) + " |")
    unclassified = [c["id"] for c in claims if c["status"] == "refuted" and c.get("defect") not in DEFECTS]
    if unclassified:
        lines += ["", f"**Warning:** {len(unclassified)} refuted claim(s) without a defect class: "
                  + ", ".join(f"`{i}`" for i in unclassified) + "."]
    return lines


def status_text(c: dict[str, Any]) -> str:
    """The badge, and for a parent that holds over a false printed step, that step ("proved — printed ...")."""
    parts = c.get("refuted_parts") or []
    if not parts or c["status"] == "refuted":
        return BADGE[c["status"]]
    steps = ", ".join(f"`{p}`" for p in parts)
    return f"{BADGE[c['status']]} — printed proof step{'s' if len(parts) > 1 else ''} {steps} false"


def claim_details(c: dict[str, Any]) -> list[str]:
    lines = [f"#### `{c['id']}` — {c['title']}: {status_text(c)}", ""]
    variant = c.get("variant_of") and not c.get("evidence", {}).get("counted_as_printed_part")
    lines.append(f"- **statement ({'corrected variant, not printed' if variant else 'as printed'}):** "
                 f"{c.get('statement', '')}")
    if c.get("domain"):
        lines.append(f"- **domain:** {c['domain']}")
    if c.get("source"):
        lines.append(f"- **source:** {c['source']}")
    if c.get("variant_of") and c.get("evidence", {}).get("counted_as_printed_part"):
        lines.append(f"- **declares** `variant_of = {c['variant_of']}`, a claim this run did not refute: decided as "
                     "a printed part")
    elif variant:
        lines.append(f"- **corrected variant of** `{c['variant_of']}` (not printed in the paper)")
    if c["status"] == "refuted":
        lines.append(f"- **defect:** {c.get('defect') or 'not classified'} — {c.get('defect_reason', '')}"
                     + (f" (range the paper uses: {c['defect_range']})" if c.get("defect_range") else ""))
    if c.get("notes"):
        lines.append(f"- **notes:** {c['notes']}")
    lines.append(f"- **method:** {c['method']} ({c['seconds']:.2f} s)")
    if c.get("counterexample"):
        lines.append(f"- **counterexample:** [`{c['counterexample']}`]({c['counterexample']}) "
                     f"(re-check: `olr-verify replay {c['counterexample']}`)")
    for key, value in c.get("evidence", {}).items():
        if key not in SKIP_EVIDENCE:
            lines.append(f"- {key}: {_fmt(value)}")
    if "traceback" in c.get("evidence", {}):
        lines += ["", "```", c["evidence"]["traceback"], "```"]
    for fig in c.get("evidence", {}).get("figures", []):
        lines += ["", f"![{_cell(fig['caption'])}]({fig['path']})", "", f"*{fig['caption']}*"]
    lines.append("")
    return lines


def _tails_text(tails: Any) -> str:
    if isinstance(tails, str):
        return tails
    out = []
    for t in tails or []:
        args = "; ".join(a.split(":")[0] for a in t.get("argument", [])) or "none"
        out.append(f"{t['var']} {t['range']}: {args}{'' if t.get('proved') else ' (NOT certified)'}")
    return "<br>".join(dict.fromkeys(out)) or "no unbounded variable"


def _bracket_text(ev: dict[str, Any]) -> str:
    for key, value in ev.items():
        if key.startswith("optimal_constant") and isinstance(value, dict) and "bracket" in value:
            br = value["bracket"]
            star = str(br.get("c_star", ""))[:12]
            safe, bad = br.get("safe", {}), br.get("unsafe", {})
            return (f"{key.replace('optimal_constant', 'best').strip('_')}: {star}…; {safe.get('status')} at "
                    f"{safe.get('c')}, {bad.get('status')} at {bad.get('c')}"
                    + ("" if br.get("bracketed") else " (not bracketed)"))
    return ""


def prover_section(claims: list[dict[str, Any]]) -> list[str]:
    """One row per claim decided by a direct prover call or a proof plan: boxes, closers, tails, constants."""
    rows = []
    for c in claims:
        ev = c.get("evidence", {})
        cert, plan, br = ev.get("certificate"), ev.get("proof_plan"), _bracket_text(ev)
        if isinstance(plan, dict):
            proved = sum(1 for v in plan.values() if v.get("status") == "proved")
            rows.append((c, f"proof plan: {proved}/{len(plan)} steps proved", "covered by the plan's case split",
                         br))
            continue
        if not isinstance(cert, dict):
            if br:
                rows.append((c, c["method"], "", br))
            continue
        closers = ", ".join(f"{k} {v}" for k, v in sorted(cert.get("closers", {}).items()))
        how = f"{cert.get('boxes', 0)} boxes; {closers}" + (f"; proved box only {cert['proved_box']}"
                                                             if cert.get("proved_box") else "")
        rows.append((c, how, _tails_text(cert.get("tails")), br))
    if not rows:
        return []
    lines = ["| id | status | core certificate | tails | optimal constant |", "|---|---|---|---|---|"]
    for c, how, tails, br in rows:
        lines.append(f"| `{c['id']}` | {BADGE[c['status']]} | {_cell(how)} | {tails} | {_cell(br)} |")
    return lines


def paper_section(seed: str, claims: list[dict[str, Any]], paper: dict[str, Any]) -> list[str]:
    lines = [f"## {seed} — {paper.get('title', '')}", "", f"*{paper.get('authors', '')}*", ""]
    if paper.get("notes"):
        lines += [f"> **Source caveat.** {paper['notes']}", ""]
    counts = Counter(c["status"] for c in claims)
    lines += [", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s]), ""]
    lines += ["| id | title | kind | status | method | s |", "|---|---|---|---|---|---:|"]
    ranked = sorted(claims, key=lambda c: ORDER[c["status"]])  # stable: printed order within a status
    for c in ranked:
        reason = c["evidence"].get("reason", "") if c["status"] == "inconclusive" else ""
        method = c["method"] + (f" — {reason}" if reason else "")
        lines.append(f"| `{c['id']}` | {_cell(c['title'])} | {c['kind']} | {_cell(status_text(c))} | "
                     f"{_cell(method)} | {c['seconds']:.2f} |")
    lines.append("")
    detailed = [c for c in ranked if c["method"] != "none"]
    if detailed:
        lines += [f"### {seed}: claims with a check (refuted first)", ""]
        for c in detailed:
            lines += claim_details(c)
    return lines


def render(results: dict[str, Any]) -> str:
    """Markdown for a results.json dict; the same input always gives the same text."""
    claims = results["claims"]
    papers = results.get("papers", {})
    run = results.get("run", {})
    lines = ["# olr_verify report", "",
             f"Generated {results['generated']} by olr_verify {results['version']} in {results['seconds']} s"
             + (" (quick mode)" if run.get("quick") else "")
             + (f", claims matching `{run['only']}`" if run.get("only") else "") + ".", ""]
    lines += [f"Updated {u['generated']} by `--only '{u['only']}'` ({len(u['ids'])} claim(s), {u['seconds']} s"
              + (", quick mode" if u.get("quick") else "") + ")." for u in run.get("updates") or []]
    lines += ["", "## Summary", ""] if run.get("updates") else ["## Summary", ""]
    lines += summary_table(claims, papers)
    lines += ["", "Defect columns count the refuted printed claims of each paper by class (see Errata).", ""]
    lines += errata.section(results)
    lines += ["## What the statuses mean", ""]
    lines += [f"- **{s}** — {MEANING[s]}" for s in STATUSES]
    lines += ["", "A parent claim (`id`) summarises its parts (`id/part`, e.g. proof steps): with a check of its "
              "own it keeps its status, lists the counts of its parts, and says so when a printed proof step is "
              "false (\"proved — printed proof step X false\"); without one it takes a status from them (method "
              "\"summary of parts\"). Corrected variants (`variant_of` a claim the run refuted) are not parts; a claim "
              "that declares `variant_of` a claim the run did not refute is one.", ""]
    refuted = [c for c in claims if c["status"] == "refuted"]
    if refuted:
        lines += ["## Refuted claims at a glance", ""]
        lines += [f"- `{c['id']}` ({c['title']}) — **{c.get('defect') or 'not classified'}**; {c['method']}; "
                  f"counterexample `{c['counterexample']}`" for c in refuted]
    prover_rows = prover_section(claims)
    if prover_rows:
        lines += ["", "## Scalar lemmas: prover certificates", "",
                  "Claims decided by one `prove()` call or by a proof plan (every step an arb certificate or an "
                  "exact sympy identity). Tails: how each unbounded end was certified (see "
                  "`olr_verify/prover/tails.py`). Optimal constant: best value at 50 digits (evidence), then "
                  "the prover at a rational on each side.", ""] + prover_rows
    for extra in results.get("sections", []):
        lines += ["", f"## {extra['title']}", "", extra["markdown"]]
    for seed in sorted({seed_of(c["id"]) for c in claims}):
        lines += [""] + paper_section(seed, [c for c in claims if seed_of(c["id"]) == seed], papers.get(seed, {}))
    return "\n".join(lines).rstrip() + "\n"

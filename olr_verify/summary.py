"""What a run says about claims beyond their own checks: parents summarise their parts, refutations get a class.

Two passes over the results list of a run (``runner.assemble`` calls :func:`summarise`):

1. :func:`summarise_parents` — a parent claim (``id``) summarises its printed parts (``id/part``). A parent
   without a check of its own takes its status from them; a parent with its own check keeps its status but
   says both when a printed step is false (``refuted_parts``, and ``evidence.printed_proof`` such as
   "statement proved; printed proof step 000:lemma-8/derivative-at-0 false"). Corrected variants
   (:func:`is_variant`: ``variant_of`` a claim the run refuted) are not printed parts: they are listed apart,
   under ``evidence.variants``. A claim that names as its ``variant_of`` a claim the run did not refute is
   counted as a printed part: a declaration cannot take a false (or unproved) step out of its parent's verdict.
2. :func:`attach_defects` — every refuted claim carries ``defect`` (one of :data:`registry.DEFECTS`) and
   ``defect_reason``, copied from the judgement stored in the claim's TOML entry; a refuted parent without a
   judgement of its own inherits the class of its refuted parts (``substantive`` wins). A refuted claim with
   no class gets ``defect: null`` and a reason saying so, which :func:`defect_problems` reports.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from olr_verify.registry import DEFECTS, Claim

DECIDED = ("proved", "verified")
NO_CHECK = ("none", "summary of parts")  # a parent's method when its status comes from its parts (also merged)
RANK = {d: i for i, d in enumerate(DEFECTS)}  # substantive first: the class that wins when parts differ
DEFECT_FIELDS = ("defect", "defect_reason", "defect_range")
UNCLASSIFIED = "no defect class registered (add defect and defect_reason to the claim's TOML entry)"


def _top(claim_id: str) -> str:
    return claim_id.split("/", 1)[0]


def is_variant(r: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> bool:
    """A corrected variant: ``variant_of`` names a claim that is refuted in these results. (A variant corrects a
    refuted reading; one of a claim that stands, like a stronger reading of it, is decided as a printed part.)"""
    target = by_id.get(r.get("variant_of") or "")
    return target is not None and target["status"] == "refuted"


def printed_parts_of(parent_id: str, results: list[dict[str, Any]], by_id: dict[str, dict[str, Any]]):
    """The printed parts (``parent_id/...``, not corrected variants) of one claim."""
    return [p for p in results if p["id"].startswith(parent_id + "/") and not is_variant(p, by_id)]


def _printed_parts(results: list[dict[str, Any]], by_id) -> dict[str, list[dict[str, Any]]]:
    """Printed parts (not corrected variants) by top-level parent id."""
    parts: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        if "/" in r["id"] and not is_variant(r, by_id):
            parts.setdefault(_top(r["id"]), []).append(r)
    return parts


def _status_of_parts(counts: Counter, n: int) -> str:
    if counts["refuted"]:
        return "refuted"
    if counts["proved"] == n:
        return "proved"
    if counts["proved"] + counts["verified"] == n:
        return "verified"
    return "inconclusive"


def summarise_parents(results: list[dict[str, Any]]) -> None:
    """Give each parent claim the summary of its printed parts (``id/part``); see the module docstring.

    A parent without a check takes: refuted if a part was refuted (that part's counterexample is linked),
    proved only if every part was proved, verified if every part was proved or verified, else inconclusive.
    """
    by_id = {r["id"]: r for r in results}
    for r in results:  # a merged run (``--only``) may carry the summary of an earlier run
        r.pop("refuted_parts", None)
        for key in ("parts", "variants", "refuted_parts", "printed_proof", "counted_as_printed_part"):
            r["evidence"].pop(key, None)
    variants: dict[str, list[str]] = {}
    for r in results:
        if "/" in r["id"] and is_variant(r, by_id):
            variants.setdefault(_top(r["id"]), []).append(r["id"])
        elif r.get("variant_of"):
            r["evidence"]["counted_as_printed_part"] = (f"declares variant_of {r['variant_of']}, which this run did "
                                                        "not refute: a printed part of its parent")
    for pid, children in _printed_parts(results, by_id).items():
        parent = by_id.get(pid)
        if parent is None:
            continue
        counts = Counter(c["status"] for c in children)
        parent["evidence"]["parts"] = dict(counts)
        if variants.get(pid):
            parent["evidence"]["variants"] = variants[pid]
        refuted = [c["id"] for c in children if c["status"] == "refuted"]
        if refuted:
            parent["refuted_parts"] = refuted
            parent["evidence"]["refuted_parts"] = refuted
        if parent["method"] not in NO_CHECK:
            if refuted:
                parent["evidence"]["printed_proof"] = (f"statement {parent['status']}; printed proof step"
                                                       f"{'s' if len(refuted) > 1 else ''} {', '.join(refuted)} "
                                                       "false")
            continue
        status = _status_of_parts(counts, len(children))
        parent["counterexample"] = by_id[refuted[0]]["counterexample"] if status == "refuted" else None
        if status == "inconclusive":
            parent["evidence"]["reason"] = "no check of its own; parts: " + ", ".join(
                f"{k} {v}" for k, v in sorted(counts.items()))
        else:
            parent["evidence"].pop("reason", None)
        parent["status"] = status
        parent["method"] = "summary of parts"


def _judgement(claim: Claim | None) -> dict[str, Any]:
    if claim is None or not claim.defect:
        return {}
    out = {"defect": claim.defect, "defect_reason": claim.defect_reason}
    if claim.defect_range:
        out["defect_range"] = claim.defect_range
    return out


def _inherited(parent: dict[str, Any], by_id: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The class of a refuted parent's refuted parts: the highest-ranked one (substantive wins)."""
    classed = [by_id[p] for p in parent.get("refuted_parts", []) if by_id[p].get("defect")]
    if not classed:
        return {}
    worst = min(classed, key=lambda c: RANK[c["defect"]])
    return {"defect": worst["defect"],
            "defect_reason": f"inherited from its refuted part {worst['id']}: {worst['defect_reason']}"}


def attach_defects(results: list[dict[str, Any]], claims: Iterable[Claim]) -> None:
    """Copy each refuted claim's registered defect class into its result (parents after their parts)."""
    registered = {c.id: c for c in claims}
    by_id = {r["id"]: r for r in results}
    for r in results:
        claim = registered.get(r["id"])
        if claim is not None and claim.depends_on:
            r["depends_on"] = list(claim.depends_on)
    for r in sorted(results, key=lambda r: -r["id"].count("/")):  # parts before their parents
        for key in DEFECT_FIELDS:
            r.pop(key, None)
        r["evidence"].pop("declared_defect", None)
        if r["status"] != "refuted":
            declared = registered.get(r["id"])
            if declared is not None and declared.defect:
                r["evidence"]["declared_defect"] = (f"{declared.defect} declared in the paper folder, but this run "
                                                    f"did not refute the claim ({r['status']})")
            continue
        found = _judgement(registered.get(r["id"])) or _inherited(r, by_id)
        r.update(found or {"defect": None, "defect_reason": UNCLASSIFIED})


def summarise(results: list[dict[str, Any]], claims: Iterable[Claim]) -> None:
    """Both passes, in order: parents first (their status may become refuted), then defect classes."""
    summarise_parents(results)
    attach_defects(results, claims)


def defect_problems(results: list[dict[str, Any]]) -> list[str]:
    """What CONTRACT.md requires of refutations and is missing, one line each (empty when all is well).

    Every refuted claim has a class from :data:`DEFECTS` and a reason; every ``slip`` or ``domain`` claim has
    a corrected variant (``variant_of`` pointing back) decided (proved or verified) in the same results. A
    refuted parent whose class is inherited needs no variant of its own: its refuted parts carry them.
    """
    problems = []
    decided_variants: dict[str, list[str]] = {}
    by_id = {r["id"]: r for r in results}
    for r in results:
        if is_variant(r, by_id) and r["status"] in DECIDED:
            decided_variants.setdefault(r["variant_of"], []).append(r["id"])
    for r in results:
        if r["status"] != "refuted":
            continue
        defect = r.get("defect")
        if defect not in DEFECTS:
            problems.append(f"{r['id']}: refuted without a defect class ({defect!r})")
            continue
        if not str(r.get("defect_reason") or "").strip():
            problems.append(f"{r['id']}: defect {defect} without a defect_reason")
        inherited = str(r.get("defect_reason", "")).startswith("inherited from")
        if defect in ("slip", "domain") and not inherited and not decided_variants.get(r["id"]):
            problems.append(f"{r['id']}: {defect} without a decided corrected variant (variant_of = {r['id']!r})")
    return problems

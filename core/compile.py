"""Generated views: hot.md, index.md, index/<category>.md, SCHEMA.md (SPEC §2, §4 compile, §5.5). Pure renderers."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from datetime import datetime

from .models import Category, EvidenceGrade, MemoryClass, SensitivityTier, SourceType, Status, Tier, TrustZone, iso

HOT_WORD_LIMIT = 500


@dataclass
class HotInputs:
    now: datetime
    open_conflicts: int = 0
    newest_conflicts: list[tuple[str, str]] = field(default_factory=list)  # (id, title)
    pending_verifications: int = 0
    quiz_due: int = 0
    quiz_person: str | None = None  # whose count quiz_due is (the person with the most due), None before any ledger
    tier_review_pending: list[str] = field(default_factory=list)
    last_captures: list[tuple[str, str]] = field(default_factory=list)  # (title, page)
    commitments: list[tuple[str, str]] = field(default_factory=list)  # (title, page)


def _clip(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def render_hot(h: HotInputs) -> str:
    lines = [
        "# Hot — what is in flight",
        f"_Generated {iso(h.now)}. Read this first; then [index.md](index.md)._",
        "",
        "## Queues",
        f"- Open conflicts: **{h.open_conflicts}** (see [CONFLICTS.md](CONFLICTS.md))",
    ]
    lines += [f"  - {cid} — {_clip(title, 10)}" for cid, title in h.newest_conflicts[:3]]
    lines += [
        f"- Pending verifications: **{h.pending_verifications}**",
        f"- Quiz items due today: **{h.quiz_due}**" + (f" ({h.quiz_person}'s ledger)" if h.quiz_person else ""),
        f"- Tier reviews pending: **{len(h.tier_review_pending)}**",
    ]
    lines += [f"  - [{p}]({p})" for p in h.tier_review_pending[:3]]
    lines += ["", "## Last captures"]
    lines += [f"- [{_clip(t, 12)}]({p})" for t, p in h.last_captures[:5]] or ["- (none yet)"]
    lines += ["", "## Active commitments"]
    budget = HOT_WORD_LIMIT - len(" ".join(lines).split()) - 10
    for title, page in h.commitments:
        line = f"- [{_clip(title, 12)}]({page})"
        cost = len(line.split())
        if cost > budget:
            lines.append("- … and more in [index/commitment.md](index/commitment.md)")
            break
        lines.append(line)
        budget -= cost
    if not h.commitments:
        lines.append("- (none)")
    return "\n".join(lines) + "\n"


def render_index(now: datetime, counts: dict[str, int], archived: list[tuple[str, str]], archived_total: int) -> str:
    lines = ["# Wiki Index", f"_Generated {iso(now)}._", "", "## Categories", ""]
    for cat in Category:
        n = counts.get(cat.value, 0)
        if n:
            lines.append(f"- [{cat.value}](index/{cat.value}.md) — {n}")
    if not any(counts.values()):
        lines.append("- (empty)")
    lines += ["", "## Archived Memories", ""]
    lines += [f"- [{title}]({page})" for title, page in archived] or ["- (none)"]
    if archived_total > len(archived):
        lines.append(f"- … {archived_total - len(archived)} more (see index/<category>.md)")
    return "\n".join(lines) + "\n"


def category_line(title: str, page: str, status: str, zone: str) -> str:
    mark = "" if status == "active" else f" _({status})_"
    return f"- [{title}](../{page}) · {zone}{mark}"


def category_key(title: str, page: str) -> tuple[str, str]:
    return (title.lower(), page)


def render_category(category: str, rows: list[tuple[str, str, str, str]]) -> str:
    """rows: (title, page, status, zone); listed by (title case-folded, page)."""
    ordered = sorted(rows, key=lambda r: category_key(r[0], r[1]))
    return _category_page(category, [category_line(*r) for r in ordered])


def _category_page(category: str, lines: list[str]) -> str:
    head = [f"# {category}", "", f"[Wiki Index](../index.md) · {len(lines)} entries", ""]
    return "\n".join(head + lines) + "\n"


def _line_key(line: str) -> tuple[str, str]:
    cut = line.rfind("](../")
    if not line.startswith("- [") or cut == -1:
        raise TypeError(f"not a listing line: {line!r}")  # patch_category regenerates the page instead
    end = line.find(")", cut)
    return category_key(line[3:cut], line[cut + 5 : end])


def patch_category(text: str, category: str, remove: set[str], add: list[tuple[str, str, str, str]]) -> str | None:
    """Apply a few changes to an existing category page without re-listing the category: lines are found by their
    link and placed by binary search, so only O(log n) lines are parsed.

    Returns None when the page does not look like one we generated (the caller then regenerates it).
    """
    parts = text.split("\n")
    if len(parts) < 4 or parts[0] != f"# {category}":
        return None
    # The lines linking a removed page are found by searching the text (a new page is on no line: one scan of the
    # text in C), not by testing each of the category's lines; they are blanked, and blank lines are dropped.
    for page in remove:
        marker = f"](../{page})"
        at = text.find(marker)
        while at != -1:
            line = text.count("\n", 0, at)
            if line >= 4:
                parts[line] = ""
            at = text.find(marker, at + 1)
    lines = list(filter(None, parts[4:]))
    try:
        for title, page, status, zone in add:
            pos = bisect.bisect_left(lines, category_key(title, page), key=_line_key)
            lines.insert(pos, category_line(title, page, status, zone))
    except TypeError:  # a line that is not ours (hand-edited page): regenerate instead
        return None
    return _category_page(category, lines)


def render_schema() -> str:
    def enum(e) -> str:
        return " | ".join(m.value for m in e)

    return f"""# Entry schema — memkeeper.entry.v1

Every `entries/<slug>.md` page starts with YAML frontmatter validated against this schema, then a readable body
(`# Title`, a status line, `## Content`, optional `## Notes`, `## Traversal Links`).

| key | type / values |
|---|---|
| schema_version | `memkeeper.entry.v1` |
| memory_id | `mem_` + 16 hex, stable, unique |
| canonical_key | slug; partition = canonical_key + trust_zone + sensitivity_tier |
| title | one line |
| category | {enum(Category)} |
| memory_class | {enum(MemoryClass)} |
| trust_zone | {enum(TrustZone)} |
| sensitivity_tier | {enum(SensitivityTier)} |
| status | {enum(Status)} |
| tier | {enum(Tier)} (cold = no body excerpt in automatic recall; protected = set by hand) |
| confidence | 0..1, epistemic; changed only by evidence, consolidation and human decisions |
| strength | mnemonic accessibility; decays with time since last access (half-life 60 days) |
| reinforcement | integer ≥ 0 |
| evidence_grade | {enum(EvidenceGrade)} |
| source_type | {enum(SourceType)} |
| source_ref | where the claim came from, or null |
| verified | null or {{by, at}} |
| created_at / updated_at / last_accessed_at | ISO-8601 UTC |
| expires_at | ISO-8601 UTC or null |
| superseded_by | memory_id of the winner, or null |
| merged_into | memory_id of the keeper (archived by consolidate) |
| origin_created_at | on a record an import made: its origin record's created_at (when the statement was captured) |
| recall / tags | lists of phrases |
| quiz_question | optional question for the quiz |
| normalized_content_sha256 | sha256 of normalised title + content |
| notes_count | how many `- ` lines at the end of the body are notes (written by the engine; makes the body exact) |
"""

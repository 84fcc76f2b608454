"""Tier cleanup policy (SPEC 5.4): which records cool on their own, which need a person, which are protected.

Pure functions only: callers pass record values and `now`, and get values back. The store layer reads pages,
computes their hashes and writes tier changes; nothing here touches the wiki.

Flow: `plan_tiers` classifies records into protected / automatic / ambiguous. Committing writes the automatic changes
and `render_review(plan, …)` as `review/tier-review-<date>.md`. A person answers the ambiguous ids (in the file via
`set_decision`, or explicitly). `apply` then runs `parse_review` → `validate_review` → `stale_ids` over the current page
hashes, and writes nothing unless both come back empty. The review file's format is `tier_review.py`; its names are
importable from here too, so the engine and the desk see one tier policy.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

from .tier_review import (
    DECISION_PREFIX,
    NO_ANSWER,
    REVIEW_INSTRUCTION,
    REVIEW_KIND,
    REVIEW_RISK,
    REVIEW_SOURCE,
    Review,
    ReviewCandidate,
    accepted_candidates,
    candidate_id,
    candidate_line,
    clean_field,
    effective_accepted,
    parse_review,
    path_problem,
    render_review,
    review_path,
    set_decision,
    stale_ids,
    validate_review,
)

__all__ = [  # the review file's names, importable from the tier policy as before
    "DECISION_PREFIX",
    "NO_ANSWER",
    "REVIEW_INSTRUCTION",
    "REVIEW_KIND",
    "REVIEW_RISK",
    "REVIEW_SOURCE",
    "Review",
    "ReviewCandidate",
    "accepted_candidates",
    "candidate_id",
    "candidate_line",
    "clean_field",
    "effective_accepted",
    "parse_review",
    "path_problem",
    "render_review",
    "review_path",
    "set_decision",
    "stale_ids",
    "validate_review",
]

# "Old" is strictly more than this many days since last access; exactly 180.0 days is not old.
OLD_AFTER_DAYS = 180.0
_SECONDS_PER_DAY = 86400.0

PROTECTED_CATEGORIES = frozenset({"direction", "decision", "draft"})
# Categories whose old records cool without asking: they record what happened, not what to do next.
AUTO_COLD_CATEGORIES = frozenset({"milestone", "insight", "lesson"})
# Only these statuses are classified. Denied and archived records are already out of automatic recall, so a tier
# change would mean nothing for them.
IN_SCOPE_STATUSES = frozenset({"active", "superseded"})

Action = Literal["cold", "keep"]


# --------------------------------------------------------------------------------------------------------------- plan


@dataclass(frozen=True)
class TierInput:
    """What the policy needs to know about one record; the store layer fills it from the page."""

    path: str  # "entries/<slug>.md", relative to the wiki root
    memory_id: str
    title: str
    category: str
    status: str  # active|archived|superseded|denied
    tier: str  # warm|cold|protected (protected = set by hand)
    last_accessed_at: dt.datetime | None  # UTC-aware; None when missing or unparseable
    created_at: dt.datetime | None
    page_sha256: str  # sha256 of the page bytes as on disk
    excerpt_bytes: int  # bytes of body excerpt automatic recall would show
    in_open_conflict: bool = False
    linked_from_hot: bool = False


@dataclass(frozen=True)
class Candidate:
    """One classified record.

    `reason` is stable for a given record (no age in it) because it feeds `candidate_id`: a review file written
    yesterday must still name the same ids today. The age lives in `age_days`.
    """

    candidate_id: str
    path: str
    memory_id: str
    title: str
    category: str
    action: Action  # "cold" for automatic/ambiguous, "keep" for protected
    reason: str
    reasons: list[str]  # every reason that applies; for automatic/ambiguous it is just [reason]
    age_days: float | None  # None when the last-access date is missing or invalid
    page_sha256: str
    excerpt_bytes: int


@dataclass(frozen=True)
class TierPlan:
    protected: list[Candidate]
    automatic: list[Candidate]
    ambiguous: list[Candidate]
    unchanged_count: int  # in-scope records that are neither old nor protected
    out_of_scope_count: int  # denied/archived records and records already cold
    now: dt.datetime

    @property
    def projected_bytes_removed(self) -> int:
        """Excerpt bytes automatic recall stops showing once the automatic changes are written."""
        return sum(c.excerpt_bytes for c in self.automatic)

    @property
    def ambiguous_bytes(self) -> int:
        """Excerpt bytes that accepting every ambiguous candidate would additionally remove."""
        return sum(c.excerpt_bytes for c in self.ambiguous)


def age_days(last_accessed_at: dt.datetime, now: dt.datetime) -> float:
    return (now - last_accessed_at).total_seconds() / _SECONDS_PER_DAY


def _is_aware(value: dt.datetime) -> bool:
    return value.tzinfo is not None and value.tzinfo.utcoffset(value) is not None


def _date_problems(record: TierInput, now: dt.datetime) -> list[str]:
    """Reasons the dates cannot be trusted for an age-based decision.

    Checked: either date missing, a date without a timezone (cannot be compared with UTC `now`), a last access in
    the future, and a creation after the last access (the page cannot have been read before it existed).
    """
    problems: list[str] = []
    last, created = record.last_accessed_at, record.created_at
    if last is None:
        problems.append("missing last_accessed_at")
    elif not _is_aware(last):
        problems.append("last_accessed_at has no timezone")
        last = None
    elif last > now:
        problems.append("last_accessed_at is in the future")
    if created is None:
        problems.append("missing created_at")
    elif not _is_aware(created):
        problems.append("created_at has no timezone")
    elif last is not None and created > last:
        problems.append("created_at is after last_accessed_at")
    return problems


def protection_reasons(record: TierInput, now: dt.datetime) -> list[str]:
    """Every reason that keeps this record out of cleanup, in SPEC order; empty when none applies."""
    reasons: list[str] = []
    if record.category in PROTECTED_CATEGORIES:
        reasons.append(f"category {record.category}")
    if record.in_open_conflict:
        reasons.append("open conflict")
    if record.linked_from_hot:
        reasons.append("linked from hot.md")
    reasons.extend(_date_problems(record, now))
    if record.tier == "protected":
        reasons.append("tier: protected set by hand")
    return [clean_field(r) for r in reasons]


def _candidate(record: TierInput, action: Action, reasons: list[str], age: float | None) -> Candidate:
    reason = clean_field("; ".join(reasons))
    return Candidate(
        candidate_id=candidate_id(record.path, action, reason),
        path=record.path,
        memory_id=record.memory_id,
        title=record.title,
        category=record.category,
        action=action,
        reason=reason,
        reasons=list(reasons),
        age_days=age,
        page_sha256=record.page_sha256,
        excerpt_bytes=record.excerpt_bytes,
    )


def plan_tiers(records: list[TierInput], now: dt.datetime) -> TierPlan:
    """Classify records for tier cleanup (SPEC 5.4). Never writes; the plan is the whole answer.

    Scope: records whose status is active or superseded and whose tier is not already cold. SPEC says "active
    records" but also cools old superseded ones, so both are classified; denied/archived records and cold pages are
    counted in `out_of_scope_count` and otherwise ignored.

    - protected (action "keep", all reasons listed, any one wins): category direction/decision/draft, an open
      conflict, linked from hot.md, missing or invalid dates (see `_date_problems`), `tier: protected` by hand;
    - automatic (→ cold): old superseded records, old milestone/insight/lesson records;
    - ambiguous (proposed cold, needs a person): every other old record;
    - anything else is unchanged and only counted.

    Old = strictly more than 180 days since last access. Each list is sorted by path.
    """
    if not _is_aware(now):
        raise ValueError("now must be timezone-aware (UTC)")
    protected: list[Candidate] = []
    automatic: list[Candidate] = []
    ambiguous: list[Candidate] = []
    unchanged = out_of_scope = 0
    unused = f"not accessed in over {OLD_AFTER_DAYS:g} days"
    for record in records:
        if record.status not in IN_SCOPE_STATUSES or record.tier == "cold":
            out_of_scope += 1
            continue
        reasons = protection_reasons(record, now)
        last = record.last_accessed_at
        age = age_days(last, now) if last is not None and _is_aware(last) and last <= now else None
        if reasons:
            protected.append(_candidate(record, "keep", reasons, age))
        elif age is None or age <= OLD_AFTER_DAYS:
            unchanged += 1
        elif record.status == "superseded":
            automatic.append(_candidate(record, "cold", [f"old superseded record, {unused}"], age))
        elif record.category in AUTO_COLD_CATEGORIES:
            automatic.append(_candidate(record, "cold", [f"old {record.category}, {unused}"], age))
        else:
            ambiguous.append(_candidate(record, "cold", [f"old {record.category}, {unused}; needs a person"], age))

    def by_path(c: Candidate) -> str:
        return c.path

    return TierPlan(
        protected=sorted(protected, key=by_path),
        automatic=sorted(automatic, key=by_path),
        ambiguous=sorted(ambiguous, key=by_path),
        unchanged_count=unchanged,
        out_of_scope_count=out_of_scope,
        now=now,
    )

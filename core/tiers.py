"""Tier cleanup policy (SPEC 5.4) and the llmwiki-compatible review file.

Pure functions only: callers pass record values and `now`, and get values back. The store layer reads pages,
computes their hashes and writes tier changes; nothing here touches the wiki.

Flow: `plan_tiers` classifies records into protected / automatic / ambiguous. Committing writes the automatic changes
and `render_review(plan, …)` as `review/tier-review-<date>.md`. A person answers the ambiguous ids (in the file via
`set_decision`, or explicitly). `apply` then runs `parse_review` → `validate_review` → `stale_ids` over the current page
hashes, and writes nothing unless both come back empty.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Literal

from .pagefmt import Style, dumps, read_block
from .text import sha256_hex

# "Old" is strictly more than this many days since last access; exactly 180.0 days is not old.
OLD_AFTER_DAYS = 180.0
_SECONDS_PER_DAY = 86400.0

PROTECTED_CATEGORIES = frozenset({"direction", "decision", "draft"})
# Categories whose old records cool without asking: they record what happened, not what to do next.
AUTO_COLD_CATEGORIES = frozenset({"milestone", "insight", "lesson"})
# Only these statuses are classified. Denied and archived records are already out of automatic recall, so a tier
# change would mean nothing for them.
IN_SCOPE_STATUSES = frozenset({"active", "superseded"})

REVIEW_KIND = "cleanup"
REVIEW_SOURCE = "tier-cleanup"
REVIEW_RISK = "reversible-tier-only"
REVIEW_INSTRUCTION = "Accept only IDs whose proposed tier is appropriate. Rejected IDs stay unchanged."
DECISION_PREFIX = "A. accepted IDs:"
NO_ANSWER = "(none)"

Action = Literal["cold", "keep"]

_ID_RE = re.compile(r"[0-9a-f]{12}")
_HASH_RE = re.compile(r"[0-9a-f]{64}")
_DECISION_RE = re.compile(r"^A\. accepted IDs:([^\r\n]*)", re.MULTILINE)
_CANDIDATE_FIELDS = ("candidate", "path", "hash", "action", "reason", "risk")
_FIELD_SEP = " | "
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


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


def candidate_id(path: str, action: str, reason: str) -> str:
    """The llmwiki candidate id: first 12 hex digits of sha256("path|action|reason")."""
    return sha256_hex(f"{path}|{action}|{reason}")[:12]


def clean_field(text: str) -> str:
    """Make text safe as one field of a review line: one line, no `|` (the field separator), spaces collapsed."""
    return " ".join(text.replace("|", "/").split())


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


# -------------------------------------------------------------------------------------------------------- review file


@dataclass(frozen=True)
class ReviewCandidate:
    candidate_id: str
    path: str
    hash: str
    action: str
    reason: str
    risk: str


@dataclass(frozen=True)
class Review:
    frontmatter: dict[str, Any]
    candidates: list[ReviewCandidate]
    accepted_ids: list[str] | None  # None = unanswered ("(none)", blank or no decision line)
    problems: list[str]  # structural problems found while parsing; validate_review reports them


def review_path(date: str | dt.date) -> str:
    """Where a review for `date` lives, relative to the wiki root."""
    return f"review/tier-review-{_date_text(date)}.md"


def _date_text(date: str | dt.date) -> str:
    return date.isoformat() if isinstance(date, dt.date) else date


def candidate_line(c: Candidate | ReviewCandidate) -> str:
    if isinstance(c, Candidate):
        cid, page_hash, risk = c.candidate_id, c.page_sha256, REVIEW_RISK
    else:
        cid, page_hash, risk = c.candidate_id, c.hash, c.risk
    return (
        f"- candidate: {cid} | path: {c.path} | hash: {page_hash} | action: {c.action} | reason: {c.reason}"
        f" | risk: {risk}"
    )


def render_review(plan: TierPlan, owner: str, date: str | dt.date) -> str:
    """The text of `review/tier-review-<date>.md`: one line per ambiguous candidate, decision left unanswered.

    Raises ValueError when there is nothing to review (such a file could never be applied) or when a candidate path
    could not survive the round trip through the file.
    """
    if not plan.ambiguous:
        raise ValueError("no ambiguous candidates: there is nothing to review")
    for c in plan.ambiguous:
        if path_problem(c.path):
            raise ValueError(f"cannot review {c.path!r}: {path_problem(c.path)}")
    day = _date_text(date)
    head = {
        "title": "Tier cleanup review",
        "description": "Human approval for ambiguous reversible tier changes.",
        "kind": REVIEW_KIND,
        "owner": owner,
        "source": REVIEW_SOURCE,
        "status": "draft",
        "created": day,
        "tags": ["cleanup", "review", "maintenance"],
    }
    lines = [
        "",
        f"# Tier cleanup review {day}",
        "",
        REVIEW_INSTRUCTION,
        "",
        "## Candidates",
        "",
        *(candidate_line(c) for c in plan.ambiguous),
        "",
        "## Decision",
        "",
        f"{DECISION_PREFIX} {NO_ANSWER}",
        "",
    ]
    return dumps(head, "\n".join(lines), style=Style.REVIEW)


def _split_frontmatter(text: str) -> tuple[dict[str, Any], list[str], int]:
    """(frontmatter, problems, offset where the body starts). A bad frontmatter is a problem, not an exception."""
    block = read_block(text, strings=True)
    error = block.error
    if not block.opened:
        return {}, ["review has no frontmatter"], 0
    if block.close is None:
        return {}, ["review frontmatter is not closed"], 0
    if error is None:
        return block.data, [], block.body_offset
    if error.kind == "alias":
        problem = f"review frontmatter uses YAML anchors/aliases, which are not allowed (line {error.line})"
    elif error.kind == "mapping":
        problem = "review frontmatter is not a mapping"
    else:
        where = f" (line {error.line})" if error.line else ""
        problem = f"review frontmatter is not valid YAML{where}: {' '.join(error.reason.split())}"
    return {}, [problem], block.body_offset


def _parse_ids(answer: str) -> list[str] | None:
    """Ids from a decision answer: comma- or space-separated, lower-cased, de-duplicated in order."""
    answer = answer.strip()
    if not answer or answer == NO_ANSWER:
        return None
    return _normalize_ids(re.split(r"[,\s]+", answer))


def _normalize_ids(ids: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for raw in ids:
        cid = raw.strip().lower()
        if cid:
            seen.setdefault(cid, None)
    return list(seen)


def parse_review(text: str) -> Review:
    """Read a review file. Never raises: anything structurally wrong ends up in `problems`.

    A candidate line is any body line starting with `- candidate`; it must have exactly the six `key: value` fields
    (candidate, path, hash, action, reason, risk) separated by " | ". Values are checked by `validate_review`.
    """
    text = text.removeprefix("\ufeff")
    frontmatter, problems, body_offset = _split_frontmatter(text)
    body = text[body_offset:]
    first_line = text.count("\n", 0, body_offset) + 1
    candidates: list[ReviewCandidate] = []
    for number, raw in enumerate(body.splitlines(), start=first_line):
        line = raw.strip()
        if not line.startswith("- candidate"):
            continue
        fields: dict[str, str] = {}
        unexpected: list[str] = []
        for part in line[2:].split(_FIELD_SEP):
            key, sep, value = part.partition(":")
            key = key.strip()
            if not sep or key not in _CANDIDATE_FIELDS or key in fields:
                unexpected.append(key if sep and key else part.strip() or "(empty)")
                continue
            fields[key] = value.strip()
        missing = [k for k in _CANDIDATE_FIELDS if k not in fields]
        if missing or unexpected:
            detail = []
            if missing:
                detail.append(f"missing {', '.join(missing)}")
            if unexpected:
                detail.append(f"unexpected {', '.join(unexpected)}")
            problems.append(f"line {number}: malformed candidate line ({'; '.join(detail)})")
            continue
        candidates.append(
            ReviewCandidate(
                candidate_id=fields["candidate"],
                path=fields["path"],
                hash=fields["hash"],
                action=fields["action"],
                reason=fields["reason"],
                risk=fields["risk"],
            )
        )
    decisions = _DECISION_RE.findall(body)
    if len(decisions) > 1:
        problems.append(f"review has {len(decisions)} '{DECISION_PREFIX}' lines; expected one")
    accepted = _parse_ids(decisions[0]) if decisions else None
    return Review(frontmatter=frontmatter, candidates=candidates, accepted_ids=accepted, problems=problems)


def path_problem(path: str) -> str | None:
    """Why `path` is not a clean `entries/<name>.md` page path, or None when it is."""
    if not path:
        return "path is empty"
    if "\\" in path or _CONTROL_RE.search(path) or "|" in path:
        return "path contains a backslash, control character or '|'"
    pure = PurePosixPath(path)
    if pure.is_absolute():
        return "path is absolute"
    parts = path.split("/")
    if ".." in parts or "." in parts or "" in parts:
        return "path is not normalised (has '..', '.' or an empty segment)"
    if len(parts) != 2 or parts[0] != "entries":
        return "path is not entries/<name>.md"
    name = parts[1]
    if not name.endswith(".md") or len(name) <= len(".md") or name.startswith("."):
        return "path is not entries/<name>.md"
    return None


def _candidate_problems(c: ReviewCandidate) -> list[str]:
    label = f"candidate {c.candidate_id!r}"
    problems: list[str] = []
    if not _ID_RE.fullmatch(c.candidate_id):
        problems.append(f"{label}: id is not 12 lowercase hex digits")
    if not _HASH_RE.fullmatch(c.hash):
        problems.append(f"{label}: hash is not 64 lowercase hex digits")
    reason_of_path = path_problem(c.path)
    if reason_of_path:
        problems.append(f"{label}: {reason_of_path} ({c.path!r})")
    if c.action != "cold":
        problems.append(f"{label}: action must be 'cold' (got {c.action!r})")
    if not c.reason:
        problems.append(f"{label}: reason is empty")
    if c.risk != REVIEW_RISK:
        problems.append(f"{label}: risk must be {REVIEW_RISK!r} (got {c.risk!r})")
    # The id binds path, action and reason: an edited path or action no longer matches it.
    if _ID_RE.fullmatch(c.candidate_id) and c.candidate_id != candidate_id(c.path, c.action, c.reason):
        problems.append(f"{label}: id does not match sha256(path|action|reason)")
    return problems


def effective_accepted(review: Review, accepted_ids: list[str] | None) -> list[str] | None:
    """The answer that counts: explicit ids win over the file's decision line; None means unanswered.

    An explicit empty list is an answer ("reject all").
    """
    if accepted_ids is not None:
        return _normalize_ids(accepted_ids)
    return review.accepted_ids


def validate_review(review: Review, accepted_ids: list[str] | None) -> list[str]:
    """One-line errors that make the review unappliable; an empty list means it may be applied.

    Does not check the review's location (inside the root) or page hashes: the engine does the first, `stale_ids`
    the second.
    """
    errors = list(review.problems)
    kind = review.frontmatter.get("kind")
    if kind != REVIEW_KIND:
        errors.append(f"review kind must be {REVIEW_KIND!r} (got {kind!r})")
    source = review.frontmatter.get("source")
    if source != REVIEW_SOURCE:
        errors.append(f"review source must be {REVIEW_SOURCE!r} (got {source!r})")
    owner = review.frontmatter.get("owner")
    if not isinstance(owner, str) or not owner.strip():
        errors.append("review has no owner")
    if not review.candidates:
        errors.append("review has no candidates")
    seen: set[str] = set()
    for c in review.candidates:
        errors.extend(_candidate_problems(c))
        if c.candidate_id in seen:
            errors.append(f"duplicate candidate id {c.candidate_id!r}")
        seen.add(c.candidate_id)
    answer = effective_accepted(review, accepted_ids)
    if answer is None:
        errors.append("review is unanswered")
    else:
        for cid in answer:
            if cid not in seen:
                errors.append(f"unknown id {cid!r} is malformed: it is not a candidate in this review")
    return errors


def accepted_candidates(review: Review, accepted_ids: list[str] | None) -> list[ReviewCandidate]:
    """The candidates the answer accepts, in file order (unknown ids are ignored: validation reports them)."""
    answer = set(effective_accepted(review, accepted_ids) or [])
    return [c for c in review.candidates if c.candidate_id in answer]


def stale_ids(review: Review, accepted_ids: list[str] | None, current_hashes: dict[str, str | None]) -> list[str]:
    """Accepted ids whose page changed since the plan: current sha256 (by path) differs, or the page is gone.

    A path absent from `current_hashes` counts as a missing page. If this is non-empty, nothing may be written.
    """
    return [c.candidate_id for c in accepted_candidates(review, accepted_ids) if current_hashes.get(c.path) != c.hash]


def set_decision(text: str, accepted_ids: list[str]) -> str:
    """Rewrite the first `A. accepted IDs:` line; every other byte (line endings included) stays as it was.

    An empty list writes `(none)`, which reads back as unanswered: a "reject all" answer is given explicitly to apply.
    Raises ValueError when the file has no decision line or an id would corrupt the line.
    """
    ids = _normalize_ids(accepted_ids)
    for cid in ids:
        if not _ID_RE.fullmatch(cid):
            raise ValueError(f"not a candidate id: {cid!r}")
    # Search the body only, exactly where parse_review reads the answer.
    stripped = text.removeprefix("\ufeff")
    _, _, body_offset = _split_frontmatter(stripped)
    match = _DECISION_RE.search(text, body_offset + len(text) - len(stripped))
    if match is None:
        raise ValueError(f"review has no '{DECISION_PREFIX}' line")
    answer = ", ".join(ids) if ids else NO_ANSWER
    return text[: match.start()] + f"{DECISION_PREFIX} {answer}" + text[match.end() :]

"""The tier review file (SPEC 5.4), llmwiki's format: `review/tier-review-<date>.md`.

Frontmatter (`kind: cleanup`, `owner`, `source: tier-cleanup`, …), one `- candidate: <id> | path: … | hash: … |
action: cold | reason: … | risk: reversible-tier-only` line per ambiguous record, and an `A. accepted IDs:` decision
line. Pure functions: `render_review` writes one, `parse_review` reads one (never raises), `validate_review` and
`stale_ids` say whether an answer may be applied, `set_decision` writes an answer into the file. The frontmatter
goes through the page format's one YAML handler (`pagefmt`), with string semantics: every value reads back as a
string (`created: 2026-11-20` stays text), as llmwiki's own reader treats it.

The rules that decide which records are candidates are `tiers.py`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from .pagefmt import Style, dumps, read_block
from .text import sha256_hex

if TYPE_CHECKING:
    from .tiers import Candidate, TierPlan

REVIEW_KIND = "cleanup"
REVIEW_SOURCE = "tier-cleanup"
REVIEW_RISK = "reversible-tier-only"
REVIEW_INSTRUCTION = "Accept only IDs whose proposed tier is appropriate. Rejected IDs stay unchanged."
DECISION_PREFIX = "A. accepted IDs:"
NO_ANSWER = "(none)"

_ID_RE = re.compile(r"[0-9a-f]{12}")
_HASH_RE = re.compile(r"[0-9a-f]{64}")
_DECISION_RE = re.compile(r"^A\. accepted IDs:([^\r\n]*)", re.MULTILINE)
_CANDIDATE_FIELDS = ("candidate", "path", "hash", "action", "reason", "risk")
_FIELD_SEP = " | "
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


def candidate_id(path: str, action: str, reason: str) -> str:
    """The llmwiki candidate id: first 12 hex digits of sha256("path|action|reason")."""
    return sha256_hex(f"{path}|{action}|{reason}")[:12]


def clean_field(text: str) -> str:
    """Make text safe as one field of a review line: one line, no `|` (the field separator), spaces collapsed."""
    return " ".join(text.replace("|", "/").split())


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
    ticked: tuple[str, ...] = ()  # ids of candidate lines an editor made ticked tasks ("- [x] candidate: …")


def review_path(date: str | dt.date) -> str:
    """Where a review for `date` lives, relative to the wiki root."""
    return f"review/tier-review-{_date_text(date)}.md"


def _date_text(date: str | dt.date) -> str:
    return date.isoformat() if isinstance(date, dt.date) else date


def candidate_line(c: Candidate | ReviewCandidate) -> str:
    if isinstance(c, ReviewCandidate):
        cid, page_hash, risk = c.candidate_id, c.hash, c.risk
    else:
        cid, page_hash, risk = c.candidate_id, c.page_sha256, REVIEW_RISK
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


_BULLET_RE = re.compile(r"^\s*[-*+]\s+(\[[ xX]\]\s+)?(candidate\b.*)$")


def parse_review(text: str) -> Review:
    """Read a review file. Never raises: anything structurally wrong ends up in `problems`.

    A candidate line is any body line starting with `- candidate` (or `* `, `+ `, `- [ ] `, `- [x] `: a Markdown
    editor's bullets); it must have exactly the six `key: value` fields
    (candidate, path, hash, action, reason, risk) separated by " | ". Values are checked by `validate_review`.
    """
    text = text.removeprefix("\ufeff")
    frontmatter, problems, body_offset = _split_frontmatter(text)
    body = text[body_offset:]
    first_line = text.count("\n", 0, body_offset) + 1
    candidates: list[ReviewCandidate] = []
    ticked: list[str] = []
    for number, raw in enumerate(body.splitlines(), start=first_line):
        # A Markdown editor may re-bullet a list ("* ", "+ ") or make it a task list ("- [x] "): such a line is
        # still a candidate line (it was dropped without a word, the candidate neither accepted nor reported).
        m = _BULLET_RE.match(raw)
        if m is None:
            continue
        line = m.group(2).strip()
        tick = (m.group(1) or "").strip().lower() == "[x]"
        fields: dict[str, str] = {}
        unexpected: list[str] = []
        for part in line.split(_FIELD_SEP):
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
        if tick:
            ticked.append(fields["candidate"])
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
    return Review(
        frontmatter=frontmatter, candidates=candidates, accepted_ids=accepted, problems=problems, ticked=tuple(ticked)
    )


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
    pages: set[str] = set()
    for c in review.candidates:
        errors.extend(_candidate_problems(c))
        if c.candidate_id in seen:
            errors.append(f"duplicate candidate id {c.candidate_id!r}")
        elif c.path in pages:
            # A page is what a review decides, once: two lines for one page (a hand edit, with the id recomputed)
            # wrote it twice, and the second write's undo state took the first's place, so undo left it cold.
            errors.append(f"{c.path} is a candidate twice (id {c.candidate_id!r}): a review decides each page once")
        seen.add(c.candidate_id)
        pages.add(c.path)
    answer = effective_accepted(review, accepted_ids)
    if answer is None:
        errors.append("review is unanswered")
    else:
        for cid in answer:
            if cid not in seen:
                errors.append(f"unknown id {cid!r} is malformed: it is not a candidate in this review")
        # A tick reads as "accept" to a person, and is not what the review reads: one the answer leaves out would
        # be rejected without a word.
        for cid in review.ticked:
            if cid not in answer:
                errors.append(
                    f"candidate {cid!r} is ticked ([x]) but not accepted: ticks are not read; list its id on the "
                    "decision line, or untick it"
                )
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

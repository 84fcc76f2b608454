"""The contradiction queue (SPEC §5.1): conflict records, the CONFLICTS.md view, arbitration and snooze.

Detection policy lives in `relation/` (with `slots/` and `subjects.py`); this module owns the records and the
decisions. A `possible` conflict (conflict_type "possible", `suspected` the best-guess type) is held like any other
and cleared by "both valid", which is remembered in stated/compatible.jsonl.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from .errors import BadInput, NotFound, PageError
from .incoming import Incoming, entry_from_incoming
from .models import (
    Category,
    Entry,
    EvidenceGrade,
    MemoryClass,
    Receipt,
    SensitivityTier,
    SourceType,
    Status,
    TrustZone,
    at,
    iso,
    parse_iso,
    single_line,
    utc,
)
from .pages import MAX_LEDGER_BYTES, MAX_PAGE_BYTES, append_lines, atomic_write, iter_lines, read_text
from .paths import list_file_sigs
from .receipts import make_receipt
from .record import EntryError
from .store import DECISIONS_HEADER, Store, file_sig
from .text import content_sha256, normalize, sha256_hex, tokens
from .undo import UndoHandlers
from .until import OutOfRange, read_until
from .validate import validate_actor
from .views import Views

CHOICES = ("existing", "incoming", "both")
# The parsed records, keyed by each page's mtime and size: a header line, then a line appended for each record
# parsed ([id, mtime_ns, size, fields]; a later line for an id replaces an earlier one), rewritten whole when it has
# grown to twice the records it holds. Version 2's file (one JSON document) is removed when this one is first written.
CONFLICT_CACHE = ".memkeeper/conflicts.jsonl"
OLD_CONFLICT_CACHE = ".memkeeper/conflicts.json"
CONFLICT_CACHE_VERSION = 3  # 2: records validated field by field when parsed; 3: lines appended
SNOOZE_WARN_AFTER = 3
TWIN_CANDIDATES = 20  # records whose words match a held statement best, searched for one that holds its text

_RECORD_NAME = re.compile(r"C\d+\.md")  # a conflict record file


@dataclass(frozen=True)
class Hold:
    """What detection says of a statement against one active record: hold it in a conflict of this type."""

    memory_id: str
    conflict_type: str  # a type, or "possible"
    reason: str
    confidence: float | None = None
    suspected: str | None = None  # for a possible conflict, the type it would be


#: Given a statement (an incoming side) and the records to leave out, the active record of its zone and tier it most
#: contradicts, if any. The engine wires capture's detection in (`Engine.conflict_queue`).
Detector = Callable[[Incoming, set[str]], "Hold | None"]


@dataclass
class Conflict:
    conflict_id: str
    status: str  # open | snoozed | resolved
    conflict_type: str
    reason: str
    title: str
    detected_at: str
    detected_by: str
    existing: dict[str, Any]
    incoming: dict[str, Any]
    snooze_until: str | None = None
    snooze_count: int = 0
    resolution: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    confidence: float | None = None  # how sure detection was (1.0 when an agent declared it)
    suspected: str | None = None  # for a possible conflict: the type it would be
    declared: str | None = None  # "supersedes" | "contradicts" when an agent declared it

    @property
    def possible(self) -> bool:
        return self.conflict_type == "possible"

    @property
    def number(self) -> int:
        return int(self.conflict_id[1:])

    def is_open_at(self, now: datetime, session: str | None = None) -> bool:
        """Open, or snoozed and the snooze has run out (a session snooze ends with its session)."""
        if self.status == "open":
            return True
        if self.status != "snoozed" or not self.snooze_until:
            return False
        if self.snooze_until.startswith("session:"):
            return self.snooze_until != f"session:{session}"
        return parse_iso(self.snooze_until) <= now

    def to_frontmatter(self) -> dict[str, Any]:
        return {
            "schema_version": "memkeeper.conflict.v1",
            "conflict_id": self.conflict_id,
            "status": self.status,
            "conflict_type": self.conflict_type,
            "reason": self.reason,
            "title": self.title,
            "detected_at": self.detected_at,
            "detected_by": self.detected_by,
            "snooze_until": self.snooze_until,
            "snooze_count": self.snooze_count,
            "existing": self.existing,
            "incoming": self.incoming,
            "resolution": self.resolution,
            "history": self.history,
            **({"confidence": self.confidence} if self.confidence is not None else {}),
            **({"suspected": self.suspected} if self.suspected else {}),
            **({"declared": self.declared} if self.declared else {}),
        }

    @classmethod
    def from_frontmatter(cls, data: dict[str, Any]) -> Conflict:
        """The record a frontmatter mapping (or a receipt's copy of one) describes. Raises PageError naming the
        first missing or invalid field (`_checked`)."""
        try:
            return _checked(data)
        except _FieldError as exc:
            raise PageError(exc.text(), reason=exc.text()) from None


class _FieldError(ValueError):
    """A field of a conflict record that is missing (`msg` None) or invalid. `loc` names it (`existing.memory_id`
    for a key of a side, `history.0` for an item of a list)."""

    def __init__(self, loc: str, msg: str | None = None) -> None:
        super().__init__(loc)
        self.loc = loc
        self.msg = msg

    def text(self, line: int | None = None) -> str:
        where = f" (line {line})" if line else ""
        if self.msg is None:
            return f"malformed conflict record: missing field {self.loc}"
        return f"malformed conflict record: invalid field {self.loc}{where}: {self.msg}"


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


STATUSES = ("open", "snoozed", "resolved")
# What a record made from the incoming side needs (`incoming.entry_from_incoming`), and the record field that checks
# each; the engine has written all of them into every conflict record since the first version.
_INCOMING_FIELDS = {
    "text": "content",
    "title": "title",
    "category": "category",
    "canonical_key": "canonical_key",
    "zone": "trust_zone",
    "sensitivity": "sensitivity_tier",
    "memory_class": "memory_class",
    "confidence": "confidence",
    "evidence_grade": "evidence_grade",
    "source_type": "source_type",
    "source_ref": "source_ref",
}
_ENTRY_FIELDS = {v: k for k, v in _INCOMING_FIELDS.items()}


def _checked(data: Any) -> Conflict:
    """Validate a conflict record's mapping field by field (raising `_FieldError` for the first field, in page
    order, that is missing or invalid) and build the record. Values the engine reads later are checked here, so a
    record edited by hand is refused once, in one line, instead of failing whatever reads it next."""
    if not isinstance(data, dict):
        raise _FieldError("frontmatter", f"must be a mapping, not {_shown(data)}")

    def required(key: str) -> Any:
        if data.get(key) is None:
            raise _FieldError(key)
        return data[key]

    def text(key: str) -> str:
        value = data.get(key)
        if value is None:
            return ""
        if isinstance(value, dict | list):
            raise _FieldError(key, f"must be text, not {_shown(value)}")
        return str(value)

    def optional_text(key: str) -> str | None:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise _FieldError(key, f"must be text, not {_shown(value)}")
        return value

    def time(key: str, value: Any) -> str:
        if isinstance(value, datetime):  # an unquoted YAML time
            return iso(value)
        if isinstance(value, date):  # an unquoted YAML date: its midnight
            return iso(datetime(value.year, value.month, value.day, tzinfo=UTC))
        try:
            parse_iso(value)
        except (TypeError, ValueError, AttributeError):
            raise _FieldError(key, f"not a date-time (ISO 8601, like 2026-01-31T09:00:00Z): {_shown(value)}") from None
        return str(value)

    def mapping(key: str) -> dict[str, Any]:
        value = required(key)
        if not isinstance(value, dict):
            raise _FieldError(key, f"must be a mapping, not {_shown(value)}")
        return dict(value)

    cid = required("conflict_id")
    if not isinstance(cid, str) or not re.fullmatch(r"C\d+", cid):
        raise _FieldError("conflict_id", f"must be C<N>, not {_shown(cid)}")
    status = required("status")
    if status not in STATUSES:
        raise _FieldError("status", f"must be one of {', '.join(STATUSES)}, not {_shown(status)}")
    conflict_type = required("conflict_type")
    if not isinstance(conflict_type, str) or not conflict_type.strip():
        raise _FieldError("conflict_type", f"must be a type name, not {_shown(conflict_type)}")
    reason, title = text("reason"), text("title")
    detected_at = time("detected_at", required("detected_at"))
    detected_by = text("detected_by")
    snooze_until = data.get("snooze_until")
    if snooze_until is not None and not (isinstance(snooze_until, str) and snooze_until.startswith("session:")):
        snooze_until = time("snooze_until", snooze_until)
    snooze_count = data.get("snooze_count")
    if snooze_count is None:
        snooze_count = 0
    elif isinstance(snooze_count, bool) or not isinstance(snooze_count, int) or snooze_count < 0:
        raise _FieldError("snooze_count", f"must be a whole number of 0 or more, not {_shown(snooze_count)}")
    existing = mapping("existing")
    memory_id = existing.get("memory_id")
    if memory_id is None:
        raise _FieldError("existing.memory_id")
    if not isinstance(memory_id, str) or not memory_id.strip():
        raise _FieldError("existing.memory_id", f"must be a memory id, not {_shown(memory_id)}")
    incoming = mapping("incoming")
    _check_incoming(incoming)
    resolution = data.get("resolution")
    if resolution is not None and not isinstance(resolution, dict):
        raise _FieldError("resolution", f"must be a mapping or null, not {_shown(resolution)}")
    history = data.get("history")
    if history is None:
        history = []
    if not isinstance(history, list):
        raise _FieldError("history", f"must be a list of mappings, not {_shown(history)}")
    for i, item in enumerate(history):
        if not isinstance(item, dict):
            raise _FieldError(f"history.{i}", f"must be a mapping, not {_shown(item)}")
    confidence = data.get("confidence")
    if confidence is not None:
        if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0.0 <= confidence <= 1.0:
            raise _FieldError("confidence", f"must be a number from 0 to 1, not {_shown(confidence)}")
        confidence = float(confidence)
    return Conflict(
        conflict_id=cid,
        status=status,
        conflict_type=conflict_type,
        reason=reason,
        title=title,
        detected_at=detected_at,
        detected_by=detected_by,
        existing=existing,
        incoming=incoming,
        snooze_until=snooze_until,
        snooze_count=snooze_count,
        resolution=resolution,
        history=list(history),
        confidence=confidence,
        suspected=optional_text("suspected"),
        declared=optional_text("declared"),
    )


_ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


def _cached_record(cid: str, d: dict[str, Any]) -> Conflict | None:
    """A record from the parse cache, or None when a field is not of the type the engine wrote (the file is derived
    data anyone can write: a wrong-typed value trusted here failed whatever read it next). The types only, each
    field at a glance: `_checked` in full takes 18 µs a record, 54 ms for 3,000 on every process's first read."""

    def text(*keys: str, optional: bool = False) -> bool:
        return all(isinstance(d.get(k), str) or (optional and d.get(k) is None) for k in keys)

    def when(key: str, optional: bool = False) -> bool:
        v = d.get(key)
        if optional and v is None or isinstance(v, str) and v.startswith("session:"):
            return True
        if not isinstance(v, str) or _ISO_TIME.match(v) is None:
            return False
        try:  # a time of the right shape may be none ("2026-13-45T99:99"): it failed every read of the queue
            parse_iso(v)
        except ValueError:
            return False
        return True

    sides = (d.get("existing"), d.get("incoming"))
    count, confidence, history = d.get("snooze_count"), d.get("confidence"), d.get("history")
    if not (
        d.get("conflict_id") == cid
        and d.get("status") in STATUSES
        and text("conflict_type", "reason", "title", "detected_by")
        and text("suspected", "declared", optional=True)
        and when("detected_at")
        and when("snooze_until", optional=True)
        and isinstance(count, int)
        and not isinstance(count, bool)
        and count >= 0
        and all(isinstance(side, dict) for side in sides)
        and isinstance(sides[0].get("memory_id"), str)  # type: ignore[union-attr]
        and _incoming_at_a_glance(sides[1])  # type: ignore[arg-type]
        and (d.get("resolution") is None or isinstance(d.get("resolution"), dict))
        and isinstance(history, list)
        and all(isinstance(h, dict) for h in history)
        and (confidence is None or (isinstance(confidence, float) and 0.0 <= confidence <= 1.0))
    ):
        return None
    try:
        return Conflict(**d)
    except TypeError:  # a field of another name
        return None


_INCOMING_ENUMS = {
    "zone": frozenset(z.value for z in TrustZone),
    "sensitivity": frozenset(t.value for t in SensitivityTier),
    "category": frozenset(c.value for c in Category),
    "memory_class": frozenset(m.value for m in MemoryClass),
    "evidence_grade": frozenset(g.value for g in EvidenceGrade),
    "source_type": frozenset(t.value for t in SourceType),
}


def _incoming_at_a_glance(incoming: dict[str, Any]) -> bool:
    """The held statement as the cache holds it has every field a record is made from, its text and title as text
    and its enums among their values (`_check_incoming` validates it in full as a record, for a page)."""
    return (
        all(key in incoming for key in _INCOMING_FIELDS)
        and isinstance(incoming["text"], str)
        and isinstance(incoming["title"], str)
        and all(incoming[key] in values for key, values in _INCOMING_ENUMS.items())
    )


def _check_incoming(incoming: dict[str, Any]) -> None:
    """The incoming side holds what a record is made from when a person takes it: each of `_INCOMING_FIELDS`,
    valid as the record field it becomes."""
    for key in _INCOMING_FIELDS:
        if key not in incoming:
            raise _FieldError(f"incoming.{key}")
    fields = {field: incoming[key] for key, field in _INCOMING_FIELDS.items()}
    fields.update(
        memory_id="mem_0000000000000000",
        created_at="2000-01-01T00:00:00+00:00",
        updated_at="2000-01-01T00:00:00+00:00",
        last_accessed_at="2000-01-01T00:00:00+00:00",
        expires_at=incoming.get("expires_at"),
        recall=incoming.get("recall") or [],
        tags=incoming.get("tags") or [],
        quiz_question=incoming.get("quiz_question"),
        actor=incoming.get("actor"),
        origin_created_at=incoming.get("origin_created_at"),
    )
    try:
        Entry.model_validate(fields)
    except EntryError as exc:
        key = _ENTRY_FIELDS.get(exc.field, exc.field)
        raise _FieldError(f"incoming.{key}", exc.msg) from None


# What a line of a statement may start with that would open a Markdown block of its own: a heading (#), a setext
# underline (=, -), a thematic break (-, *, _), a list item (-, +, *, "1." / "1)"), a quote (>), a code fence
# (`, ~), an HTML block (<), a table's delimiter row (|, :) or a link reference definition ([).
_BLOCK_OPENER = re.compile(r"[ \t]*(?:[#=*_+>`~<|:\[-]|\d{1,9}(?=[.)](?:\s|\Z)))")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _escape_line_start(line: str) -> str:
    """The line with its block opener, if any, backslash-escaped, so it reads as the text it is: `\\### …`,
    `1\\. …`. A run of `*` or `_` is escaped whole (`\\*\\*Status**` shows its asterisks, where `\\**Status**`
    would be half emphasis)."""
    m = _BLOCK_OPENER.match(line)
    if m is None:
        return line
    if m[0][-1:].isdigit():  # an ordered list's number: its . or ) is the marker
        return f"{m[0]}\\{line[m.end() :]}"
    start, ch = m.end() - 1, m[0][-1]
    end = start + 1
    if ch in "*_":
        while end < len(line) and line[end] == ch:
            end += 1
    return line[:start] + "".join("\\" + c for c in line[start:end]) + line[end:]


def _quoted(text: str) -> list[str]:
    """A statement of several lines, as a Markdown quote: every line starts with `> `, a line's block opener is
    escaped, and a line followed by another ends in a hard break (a backslash), so a viewer shows the lines as they
    were written while none of them can be a heading, a rule, a setext underline or a field of the view."""
    lines = [line.rstrip() for line in _LINE_BREAK.split(text.strip())]
    out = []
    for n, line in enumerate(lines):
        if not line:
            out.append(">")
            continue
        followed = n + 1 < len(lines) and bool(lines[n + 1])
        out.append(f"> {_escape_line_start(line)}" + ("\\" if followed else ""))
    return out


def _one(value: Any) -> str:
    """A record's value as a heading or a field of the view shows it: on one line (a record edited by hand may
    hold a line break in any of them)."""
    return single_line(str(value))


def _side_lines(label: str, side: dict[str, Any]) -> list[str]:
    """A side of a conflict: its statement (on the label's line when it is one line, quoted under it when it has
    several), then its provenance."""
    text = str(side.get("text", ""))
    if _LINE_BREAK.search(text.strip()):
        lines = [f"**{label}**:", *_quoted(text)]
    else:
        lines = [f"**{label}**: {text.strip()}"]
    lines.append(
        f"  - source: {_one(side.get('source_ref') or '(none)')} · {_one(side.get('source_type', ''))} · "
        f"actor: {_one(side.get('actor', ''))} · at: {_one(side.get('at', ''))} · "
        f"evidence: {_one(side.get('evidence_grade', ''))}"
    )
    if label.startswith("Side B") and side.get("memory_id"):  # declared after the fact: a record already
        lines.append(f"  - already a record: {_one(side['memory_id'])} ({_one(side.get('page') or '')})")
    return lines


def type_text(c: Conflict) -> str:
    """The type as a person reads it: a possible conflict says so, and what it would be."""
    if c.possible:
        return f"possible ({c.suspected.replace('_', ' ') if c.suspected else 'unclear'}; not sure)"
    return c.conflict_type + (f" (declared: {c.declared})" if c.declared else "")


def render_conflict_page(c: Conflict) -> str:
    body = [f"# {c.conflict_id} — {single_line(c.title)}", "", f"**Status**: {c.status} · **Type**: {type_text(c)}", ""]
    body += _side_lines("Side A (existing)", c.existing) + [""] + _side_lines("Side B (incoming)", c.incoming)
    body += ["", f"**Detected by**: {c.detected_by} at {c.detected_at} ({c.reason})", ""]
    body.append(f"**Resolution**: {_resolution_text(c)}")
    body += ["", "- [Conflicts](../CONFLICTS.md) · [Wiki Index](../index.md)"]
    from .pagefmt import dumps

    return dumps(c.to_frontmatter(), "\n".join(body) + "\n")


def parse_conflict_page(text: str, conflict_id: str | None = None) -> Conflict:
    """The conflict record a `conflicts/C<N>.md` page holds; `conflict_id` is the id its file name gives, which the
    record must carry (its decisions are written to the file of the id it carries). Raises PageError (malformed page
    or record), naming the missing or invalid field and, when it is on the page, its line."""
    from .pagefmt import loads, normalize_newlines

    text = normalize_newlines(text)
    try:
        c = _checked(loads(text).metadata)
        if conflict_id is not None and c.conflict_id != conflict_id:
            raise _FieldError("conflict_id", f"{c.conflict_id!r} is not this file's id {conflict_id}")
        return c
    except _FieldError as exc:
        line = _line_of(text, exc.loc.split(".", 1)[0]) if exc.msg is not None else None
        raise PageError(exc.text(line), line=line, reason=exc.text()) from None


def _line_of(text: str, key: str) -> int | None:
    """The frontmatter line that sets the top-level `key`."""
    for n, line in enumerate(text.split("\n")[1:], 2):
        if line == "---":
            return None
        if line.startswith(f"{key}:"):
            return n
    return None


def _resolution_text(c: Conflict) -> str:
    if c.resolution:
        r = c.resolution
        return f"{r.get('choice')} by {r.get('by')} at {r.get('at')} (receipt {str(r.get('receipt', ''))[:12]})"
    if c.status == "snoozed" and c.snooze_until and c.snooze_until.startswith("session:"):
        return f"snoozed for one desk session ({c.snooze_count}×): open again everywhere else, and once it ends"
    if c.status == "snoozed":
        return f"snoozed until {c.snooze_until} ({c.snooze_count}×)"
    return "pending — keep existing / take incoming / both valid / snooze"


def _side_state(entry: Entry) -> dict[str, Any]:
    """What a resolution may change on a record, for its undo (`ConflictQueue._restore_side`)."""
    return {
        "status": entry.status.value,
        "superseded_by": entry.superseded_by,
        "strength": entry.strength,
        "last_accessed_at": iso(entry.last_accessed_at),
        "notes": len(entry.notes),
    }


# The markers `_supersede` adds to a record's text (one per conflict it lost), at its end.
_SUPERSEDED_MARKS = re.compile(r"(?:\s*\[SUPERSEDED by C\d+\])+\s*\Z")


def existing_text(content: str) -> str:
    """A record's text without the markers of the conflicts it lost: what it states."""
    return _SUPERSEDED_MARKS.sub("", content)


def _supersede(entry: Entry, by: str, conflict_id: str, now: datetime) -> None:
    """Mark a record that lost a conflict: superseded (kept, never deleted), with a marker in its text."""
    entry.status = Status.superseded
    entry.superseded_by = by
    entry.updated_at = now
    entry.content = entry.content.rstrip("\n") + f"\n\n[SUPERSEDED by {conflict_id}]"


def _opened_summary(c: Conflict) -> dict[str, Any]:
    return {"memory_id": c.existing["memory_id"], "conflict_type": c.conflict_type, "reason": c.reason}


def render_conflict_section(c: Conflict) -> str:
    """One conflict's part of CONFLICTS.md, with the blank line after it."""
    lines = [f"### {c.conflict_id} — {c.detected_at[:10]} — {_one(c.title)}", f"**Status**: {c.status}"]
    lines += _side_lines("Side A", c.existing) + _side_lines("Side B", c.incoming)
    lines.append(f"**Detected by**: {_one(c.detected_by)} ({_one(type_text(c))}: {_one(c.reason)})")
    lines.append(f"**Resolution**: {_one(_resolution_text(c))}")
    if c.snooze_count >= SNOOZE_WARN_AFTER and c.status != "resolved":
        lines.append(f"> Snoozed {c.snooze_count} times: decide or it will keep coming back.")
    return "\n".join(lines) + "\n\n"


def render_conflicts_view(
    conflicts: list[Conflict], now: datetime, section: Callable[[Conflict], str] = render_conflict_section
) -> str:
    """CONFLICTS.md: open and snoozed conflicts first, then resolved ones, newest first in each. `section` renders
    one conflict (the queue passes one that keeps each record's part while the record is unchanged)."""
    head = f"# Conflicts\n\n_Generated {iso(now)}. Open: {sum(1 for c in conflicts if c.status != 'resolved')}._\n\n"
    ordered = sorted(conflicts, key=lambda c: (c.status == "resolved", -c.number))
    return head + "".join(section(c) for c in ordered) + ("" if conflicts else "No conflicts.\n")


#: The conflict record files as the caches compare them: (name, mtime_ns, size) of each `C<N>.md`, by number.
FolderSig = tuple[tuple[str, int, int], ...]


class ConflictQueue:
    """Conflict records in conflicts/C<N>.md, their CONFLICTS.md view, and the decisions on them. Capture opens a
    conflict (`open_conflict`) and asks whether a person said two texts are both valid (`is_compatible_pair`)."""

    def __init__(self, store: Store, views: Views, undo: UndoHandlers) -> None:
        self.store = store
        self.views = views
        self._conflict_cache: dict[str, tuple[tuple[int, int], Conflict]] = {}
        # The records as last parsed, kept across processes in .memkeeper/ (derived data): every capture renders
        # CONFLICTS.md from all of them, resolved ones too, and parsing each page's YAML again grew with the queue.
        self._disk: dict[str, list[Any]] | None = None
        self._disk_new: list[str] = []  # ids parsed since the cache was last written
        self._disk_lines = 0  # record lines in the cache file as last read or written
        self._disk_rewrite = False  # the file is missing, of another version, or broken at its head
        # Each record's part of CONFLICTS.md, kept with the parsed record it was rendered from (a record parsed
        # again is another object): a new conflict renders one part, not every record's again.
        self._sections: dict[str, tuple[Conflict, str]] = {}
        # Every readable record and one line for each that is not, kept while no record file changed (`_folder_sig`).
        self._all_conflicts_cache: tuple[FolderSig, list[Conflict], list[str]] | None = None
        self._compat_cache: tuple[tuple[int, int] | None, set[tuple[str, str]]] | None = None
        self._view_sig: FolderSig | None = None
        self._pending_view_sig: FolderSig | None = None
        self.detect: Detector | None = None
        # The time zone a date the actor types is read in (`Engine.person_zone`, given by the engine); UTC alone.
        self.person_zone: Callable[[str], str] = lambda actor: "UTC"
        undo.register("resolve_conflict", self._undo_conflict, human_only=True)
        undo.register("snooze_conflict", self._undo_conflict, human_only=True)

    # -- reading --------------------------------------------------------------------------------------------------

    def conflict_files(self) -> list[str]:
        return [name for name, _, _ in self._folder_sig()]

    def _folder_sig(self) -> FolderSig:
        """Each conflict record file (`C<N>.md`, by number) with its (mtime_ns, size): what the caches compare. The
        folder's own mtime changes when a record is added, renamed or removed, not when one is edited in place (an
        editor that writes without a rename), so a long-running desk kept showing a hand edit's old text, and kept
        listing a record the edit broke, until some other write. A stat per record file, so once per write
        operation between its commits (`Txn.memo`): a capture asks for it several times, and resolved records stay."""
        txn = self.store.txn
        if txn is not None and "conflicts_sig" in txn.memo:
            return txn.memo["conflicts_sig"]
        try:
            # regular files only, never through a symlink
            sigs = list_file_sigs(self.store.root / "conflicts", ".md")
        except BadInput:
            return ()  # conflicts/ is a symlink: check reports it
        sig = tuple(sorted((s for s in sigs if _RECORD_NAME.fullmatch(s[0])), key=lambda s: int(s[0][1:-3])))
        if txn is not None:
            txn.memo["conflicts_sig"] = sig
        return sig

    def load_conflict(self, conflict_id: str, _dir: Path | None = None, *, fresh: bool = False) -> Conflict:
        """The conflict record `conflict_id` as its page holds it: a copy of the parsed record, the caller's to
        change. (The decisions change it before they commit: an operation that then failed left the queue showing,
        in the process that tried it — the desk — a decision that was never written.) `fresh`: parsed from the page
        now, whatever the caches hold — what a decision acts on and writes back (a cache keyed on the page's time
        and size misses an edit that kept both, and a cache file is anyone's to write)."""
        return copy.deepcopy(self._load_cached(conflict_id, _dir, fresh=fresh))

    def _load_cached(
        self,
        conflict_id: str,
        _dir: Path | None = None,
        listed: tuple[int, int] | None = None,
        *,
        fresh: bool = False,
    ) -> Conflict:
        """The parsed record, shared with the caches: never changed in place. `listed`: the page's (mtime_ns, size)
        as a listing of the folder just read it (no stat of its own). `fresh`: the page parsed again."""
        cid = conflict_id.strip().upper()
        if not re.fullmatch(r"C\d+", cid):
            raise BadInput(f"invalid conflict id {conflict_id!r} (expected C<N>)")
        # The id is validated above, so only the directory needs confining.
        path = (_dir or self.store.path("conflicts")) / f"{cid}.md"
        if listed is not None:
            sig = listed
        else:
            try:
                st = path.lstat()
            except FileNotFoundError:
                raise NotFound(f"unknown conflict {cid}") from None
            sig = (st.st_mtime_ns, st.st_size)
        cached = self._conflict_cache.get(cid)
        if cached and cached[0] == sig and not fresh:
            return cached[1]
        c = None if fresh else self._from_disk(cid, sig)
        if c is None:
            try:
                c = parse_conflict_page(read_text(path, limit=MAX_PAGE_BYTES, what="a conflict record"), cid)
            except FileNotFoundError:
                if listed is not None:
                    raise NotFound(f"unknown conflict {cid}") from None  # removed since the listing
                raise BadInput(f"unknown conflict {cid}") from None
            except OSError as exc:
                if fresh:
                    raise  # a decision's: its write says it in one line, that nothing was written and what to check
                raise BadInput(f"conflicts/{cid}.md: {exc.strerror or exc}") from None
            except PageError as exc:
                raise BadInput(f"conflicts/{cid}.md: {exc}") from None
            self._to_disk(cid, sig, c)
        self._conflict_cache[cid] = (sig, c)
        if fresh and (cached is None or cached[1] != c):
            # A reading the caches did not hold (an edit that kept the page's time and size, a cache line someone
            # wrote): the listing is made again with it, and the cache file takes it.
            self._all_conflicts_cache = None
            self._save_disk(set(self._disk or ()) | {cid})
        return c

    def _read_disk(self) -> dict[str, list[Any]]:
        """The cache file's records: {id: [mtime_ns, size, fields]}, the last line of each id winning. A missing
        file, another version or a broken head reads as empty (and is rewritten whole); a broken line (a power cut
        during an append: the lines are written without a flush) is skipped."""
        self._disk_lines, self._disk_rewrite = 0, True
        records: dict[str, list[Any]] = {}
        try:
            lines = read_text(self.store.root / CONFLICT_CACHE, limit=MAX_LEDGER_BYTES).splitlines()
            head = json.loads(lines[0]) if lines else None
        except (OSError, BadInput, ValueError):
            return records
        if not (isinstance(head, dict) and head.get("version") == CONFLICT_CACHE_VERSION):
            return records
        for line in lines[1:]:
            try:
                got = json.loads(line)
            except ValueError:
                continue
            if isinstance(got, list) and len(got) == 4 and isinstance(got[0], str):
                records[got[0]] = got[1:]
        self._disk_lines, self._disk_rewrite = len(lines) - 1, False
        return records

    def _from_disk(self, cid: str, sig: tuple[int, int]) -> Conflict | None:
        """The record as parsed before, when its page has not changed since (same mtime and size)."""
        if self._disk is None:
            self._disk = self._read_disk()
        got = self._disk.get(cid)
        if not (isinstance(got, list) and len(got) == 3 and got[:2] == list(sig) and isinstance(got[2], dict)):
            return None
        return _cached_record(cid, got[2])

    def _to_disk(self, cid: str, sig: tuple[int, int], c: Conflict) -> None:
        if self._disk is None:
            return
        fields = asdict(c)
        try:
            json.dumps(fields)
        except (TypeError, ValueError):  # a hand-edited page with values JSON cannot hold: parsed every time
            self._disk.pop(cid, None)
            return
        self._disk[cid] = [sig[0], sig[1], fields]
        self._disk_new.append(cid)

    def _save_disk(self, names: set[str]) -> None:
        """Add the records parsed since the last save to the cache (best effort: it is derived data): a line each,
        appended; the whole file, of `names` only, when it is new or has grown to twice the records it holds.
        Without a flush: a missing or broken cache is read from the pages. Two processes appending at once each
        write whole lines; a rewrite meanwhile may drop the other's line, which is parsed again the next time."""
        if not self._disk_new or self._disk is None:
            return
        new = [cid for cid in dict.fromkeys(self._disk_new) if cid in names and cid in self._disk]
        self._disk = {k: v for k, v in self._disk.items() if k in names}
        self._disk_new = []
        path = self.store.root / CONFLICT_CACHE

        def line(cid: str) -> str:
            return json.dumps([cid, *self._disk[cid]], separators=(",", ":"))  # type: ignore[index]

        try:
            if self._disk_rewrite or self._disk_lines + len(new) > 2 * len(self._disk) + 64:
                head = json.dumps({"version": CONFLICT_CACHE_VERSION})
                atomic_write(path, "\n".join([head, *map(line, self._disk)]) + "\n", durable=False)
                self._disk_lines, self._disk_rewrite = len(self._disk), False
                (self.store.root / OLD_CONFLICT_CACHE).unlink(missing_ok=True)  # version 2's, replaced by this
            elif new:
                append_lines(path, [line(cid) for cid in new], durable=False)
                self._disk_lines += len(new)
        except (OSError, BadInput):
            self._disk_rewrite = True

    def _all_conflicts(self) -> list[Conflict]:
        """Every readable conflict record, cached on the record files' signature (`_folder_sig`)."""
        return self._read_all()[1]

    def _read_all(self) -> tuple[FolderSig, list[Conflict], list[str]]:
        sig = self._folder_sig()
        cached = self._all_conflicts_cache
        if cached is not None and cached[0] == sig:
            return cached
        out = []
        problems = []
        cdir = self.store.path("conflicts")
        parsed = self._conflict_cache
        for name, mtime_ns, size in sig:
            hit = parsed.get(name[:-3])
            if hit is not None and hit[0] == (mtime_ns, size):
                out.append(hit[1])  # unchanged since parsed (most of them: a capture adds one)
                continue
            try:
                out.append(self._load_cached(name[:-3], cdir, (mtime_ns, size)))
            except NotFound:
                continue  # removed since the listing
            except BadInput as exc:
                problems.append(str(exc))
        out.sort(key=lambda c: -c.number)
        self._all_conflicts_cache = (sig, out, problems)
        self._save_disk({c.conflict_id for c in out})
        return self._all_conflicts_cache

    def conflict_problems(self) -> list[str]:
        """One line for each conflict record that cannot be read (malformed, unreadable), naming the file and what
        is wrong: such a record is left out of every listing, and whoever lists the queue says so."""
        return list(self._read_all()[2])

    def conflicts(
        self, *, now: datetime | None = None, session: str | None = None, include_resolved: bool = False
    ) -> list[Conflict]:
        """Conflicts newest first. With `now`, only those open at that time (expired snoozes reopen)."""
        if include_resolved:
            return list(self._all_conflicts())
        if now is None:
            return [c for c in self._all_conflicts() if c.status != "resolved"]
        now = at(now)
        return [c for c in self._all_conflicts() if c.is_open_at(now, session)]

    def open_conflict_memory_ids(self) -> set[str]:
        return set(self.awaiting_decision())

    def awaiting_decision(self) -> dict[str, str]:
        """{memory id: conflict id} of every record held as the existing side of a conflict not yet decided (open or
        snoozed; the oldest conflict when it is held in several)."""
        held: dict[str, str] = {}
        for c in sorted(self.conflicts(), key=lambda c: c.number):
            if c.existing.get("memory_id"):
                held.setdefault(str(c.existing["memory_id"]), c.conflict_id)
        return held

    def compatible_pairs(self) -> set[tuple[str, str]]:
        path = self.store.root / "stated" / "compatible.jsonl"
        cached = self._compat_cache
        sig = file_sig(path)
        if cached and cached[0] == sig:
            return cached[1]
        pairs: set[tuple[str, str]] = set()
        for _, line in iter_lines(path):
            if line is not None:
                try:
                    d = json.loads(line)
                    a, b = sorted((d["a"], d["b"]))
                except (ValueError, KeyError, TypeError):
                    continue
                if d.get("action", "both_valid") == "both_valid":
                    pairs.add((a, b))
                else:
                    pairs.discard((a, b))
        self._compat_cache = (sig, pairs)
        return pairs

    def is_compatible_pair(self, sha_a: str, sha_b: str) -> bool:
        return tuple(sorted((sha_a, sha_b))) in self.compatible_pairs()

    # -- hooks used by capture and compile ------------------------------------------------------------------------

    def conflicts_view_text(self, now: datetime, force: bool = False) -> str | None:
        """The text of CONFLICTS.md, or None when nothing in the queue changed since this queue wrote it (the views
        call it on every refresh and write the text with the others; then `conflicts_view_written`)."""
        if force:
            self._view_sig = None
        sig = self._folder_sig()
        if self._view_sig == sig and (self.store.root / "CONFLICTS.md").exists():
            return None
        self._pending_view_sig = sig
        conflicts = self.conflicts(include_resolved=True)
        sections = self._sections
        kept = {c.conflict_id: sections[c.conflict_id] for c in conflicts if c.conflict_id in sections}

        def section(c: Conflict) -> str:
            got = kept.get(c.conflict_id)
            if got is None or got[0] is not c:
                got = kept[c.conflict_id] = (c, render_conflict_section(c))
            return got[1]

        text = render_conflicts_view(conflicts, now, section)
        self._sections = kept  # records gone from the folder leave with their parts
        return text

    def conflicts_view_written(self) -> None:
        self._view_sig = self._pending_view_sig

    def _next_conflict_id(self) -> str:
        files = self.conflict_files()
        return f"C{int(files[-1][1:-3]) + 1 if files else 1}"

    def open_conflict(
        self,
        memory_id: str,
        incoming: Incoming,
        conflict_type: str,
        reason: str,
        now: datetime,
        actor: str,
        details: dict[str, Any] | None = None,
        confidence: float | None = None,
        suspected: str | None = None,
        declared: str | None = None,
    ) -> Receipt:
        """Hold an incoming statement that contradicts an active record. The existing page is not touched.
        conflict_type "possible" marks a conflict detection is not sure of (`suspected` is its best guess)."""
        extra = {
            **({"confidence": confidence} if confidence is not None else {}),
            **({"possible": True, "suspected": suspected} if conflict_type == "possible" else {}),
        }
        same = normalize(incoming["text"])
        open_c = self._waiting(memory_id, incoming["text"])
        if open_c is not None:
            # The same claim again: it is already waiting for a person; one record per disagreement.
            receipt = make_receipt(
                "capture",
                "conflict",
                now,
                actor,
                {
                    "conflict_id": open_c.conflict_id,
                    "conflict_type": open_c.conflict_type,
                    "reason": open_c.reason,
                    "memory_id": memory_id,
                    "page": open_c.existing.get("page"),
                    "duplicate": True,
                    **extra,
                    "canonical_key": incoming["canonical_key"],
                    "class": incoming["memory_class"],
                    "content_sha256": sha256_hex(same),
                    **(details or {}),
                    # (declared otherwise than the waiting conflict was: that declaration stands, and says so;
                    # "supersedes" after "contradicts" is not recorded over it)
                    **(
                        {"declared_before": open_c.declared}
                        if declared and open_c.declared and open_c.declared != declared
                        else {}
                    ),
                },
            )
            return self.store.record(receipt)
        c = self._hold(
            Hold(memory_id, conflict_type, reason, confidence, suspected),
            incoming,
            now,
            f"capture by {actor}",
            declared,
        )
        cid = c.conflict_id
        receipt = make_receipt(
            "capture",
            "conflict",
            now,
            actor,
            {
                "conflict_id": cid,
                "conflict_type": conflict_type,
                "reason": reason,
                "memory_id": memory_id,
                **extra,
                "page": c.existing["page"],
                "canonical_key": incoming["canonical_key"],
                "class": incoming["memory_class"],
                "content_sha256": sha256_hex(normalize(incoming["text"])),
                **(details or {}),
            },
        )
        self.store.record(receipt)
        self.views.refresh(now)
        return receipt

    def hold_stored(self, hold: Hold, incoming: Incoming, now: datetime, actor: str) -> tuple[Conflict, bool]:
        """Hold a statement that capture has just stored as a record (`incoming` names it: `memory_id`, `page`)
        against the record `hold` names, as a relation declared after the fact does, and write no receipt: the
        capture's own receipt says so (`CaptureOps.capture`, for a record its zone may not see). Returns the
        conflict and whether it was already open (the same text held against the same record)."""
        waiting = self._waiting(hold.memory_id, incoming["text"])
        if waiting is not None:
            return waiting, True
        return self._hold(hold, incoming, now, f"capture by {actor}"), False

    def _waiting(self, memory_id: str, text: str) -> Conflict | None:
        """The open conflict that already holds this claim against this record, if any: the same text, or a
        restatement of the text it holds (a retry that only adds a full stop or an article: "… is us-east-1" / "… is
        us-east-1."). A restatement is strict (`relation.decision.surface_differs`: every word outside articles and
        the like, every value, symbol and case the same), so the retry says nothing the held text does not."""
        from .relation import Statement, relate

        normalized = normalize(text)
        for open_c in self.conflicts():
            if open_c.existing.get("memory_id") != memory_id:
                continue
            held = str(open_c.incoming.get("text", ""))
            if normalize(held) == normalized or relate(Statement(held), Statement(text)).kind == "restatement":
                return open_c
        return None

    def _hold(
        self, hold: Hold, incoming: Incoming, now: datetime, detected_by: str, declared: str | None = None
    ) -> Conflict:
        """Write a new conflict record holding `incoming` against the record `hold` names."""
        memory_id = hold.memory_id
        existing = self.store.load(memory_id)
        cid = self._next_conflict_id()
        c = Conflict(
            conflict_id=cid,
            status="open",
            conflict_type=hold.conflict_type,
            reason=hold.reason,
            title=existing.title,
            detected_at=iso(now),
            detected_by=detected_by,
            existing={
                "memory_id": existing.memory_id,
                "page": self.store.page_of(memory_id),
                "title": existing.title,
                "text": existing.content,
                "source_ref": existing.source_ref,
                "source_type": existing.source_type.value,
                "actor": existing.actor or "unknown",
                "at": iso(existing.created_at),
                "evidence_grade": existing.evidence_grade.value,
                "confidence": existing.confidence,
                "category": existing.category.value,
            },
            incoming=dict(incoming),
            confidence=hold.confidence,
            suspected=hold.suspected,
            declared=declared,
        )
        self.store.write_file(self.store.path(f"conflicts/{cid}.md"), render_conflict_page(c))
        return c

    def _save_conflict(self, c: Conflict) -> None:
        self.store.write_file(self.store.path(f"conflicts/{c.conflict_id}.md"), render_conflict_page(c))

    # -- decisions ------------------------------------------------------------------------------------------------

    def resolve_conflict(self, conflict_id: str, choice: str, *, now: datetime, actor: str) -> Receipt:
        """Arbitrate: keep existing | take incoming | both valid. Only a human actor may resolve.

        Receipt details: conflict_id, choice, winner, loser (memory ids), undo (prior state).
        """
        now = at(now)
        actor = validate_actor(actor)
        choice = {"keep": "existing", "take": "incoming", "both_valid": "both"}.get(choice, choice)
        if choice not in CHOICES:
            return make_receipt("resolve_conflict", "reject", now, actor, {"reason": "invalid_choice", "value": choice})
        if not actor.startswith("human:"):
            return make_receipt(
                "resolve_conflict",
                "refused",
                now,
                actor,
                {"reason": "human_actor_required", "conflict_id": conflict_id},
            )
        with self.store.writing():
            c = self.load_conflict(conflict_id, fresh=True)
            if c.status == "resolved":
                return make_receipt(
                    "resolve_conflict",
                    "reject",
                    now,
                    actor,
                    {"reason": "already_resolved", "conflict_id": c.conflict_id},
                )
            prior_conflict = c.to_frontmatter()
            existing: Entry | None
            try:
                existing = self.store.load(c.existing["memory_id"])
            except NotFound:
                # A page still there that cannot be read is not gone: taking the incoming side without it would
                # leave both statements active once the page is mended.
                unreadable = self.unreadable_page(str(c.existing.get("page") or ""))
                if unreadable:
                    raise BadInput(
                        f"{c.conflict_id}: its existing side's page {unreadable}; mend the page (memkeeper check names "
                        f"the problem), then decide {c.conflict_id}"
                    ) from None
                # Its page was deleted or moved by hand since the conflict was opened ("unknown memory id" said
                # nothing of the conflict). Taking the incoming side needs nothing of it: the held statement becomes
                # a record (the conflict closed for good, which `check --repair` recording the deletion could not
                # do). Keeping it, or both, needs the page back.
                if choice != "incoming":
                    raise NotFound(
                        f"{c.conflict_id}: its existing side {c.existing['memory_id']} is no longer in the wiki (its "
                        f"page {c.existing.get('page') or 'entries/…'} was deleted or moved outside memkeeper); "
                        f"restore the page to keep it, or take the incoming side"
                    ) from None
                existing = None
            prior_existing = _side_state(existing) if existing is not None else None
            # The incoming side may already be a record (declared after the fact, `capture._declared`): then no
            # record is made from the held text, that one is kept or superseded.
            stored = self._stored_incoming(c)
            prior_stored = {"memory_id": stored.memory_id, **_side_state(stored)} if stored is not None else None
            winner = loser = created = None
            kept: Entry | None = None  # the incoming side as a record, when a person keeps it
            if existing is None:  # (only the incoming side can be taken: above)
                gone = c.existing["memory_id"]
                note = f"Kept in {c.conflict_id}, whose existing side {gone} was gone from the wiki ({iso(now)})"
                kept, created = self._keep_incoming(c, stored, note, now)
                winner = kept.memory_id
            elif existing.status is not Status.active:
                # Since the conflict was opened its existing side stopped being what memory holds: superseded by
                # another decision, denied by a person, archived by decay. A decision here never changes it back
                # (keep made no record active again, though it said so) nor over (take superseded a denied record,
                # and its denial was gone): keep leaves the incoming statement untaken, take and both make it a
                # record, and the existing side stays as it is. The receipt says which state that is.
                state = existing.status.value
                if choice == "existing":
                    winner = existing.memory_id
                    if stored is not None:
                        _supersede(stored, existing.memory_id, c.conflict_id, now)
                        self.store.save(stored)
                        loser = stored.memory_id
                else:
                    note = f"Kept in {c.conflict_id} beside {existing.memory_id}, already {state} ({iso(now)})"
                    kept, created = self._keep_incoming(c, stored, note, now)
                    winner = kept.memory_id
                    if choice == "both":
                        self._remember_compatible(existing, c, actor, now)
            else:
                if choice in ("existing", "both"):
                    # A side a person kept is refreshed as by an access (SPEC §4 decay); confidence is untouched.
                    existing.touch(now)
                    self.store.save(existing)
                if choice == "existing":
                    winner = existing.memory_id
                    loser = None  # the incoming text never became a memory; it stays in the conflict record
                    if stored is not None:  # it did: that record is superseded by the one kept (never deleted)
                        _supersede(stored, existing.memory_id, c.conflict_id, now)
                        self.store.save(stored)
                        loser = stored.memory_id
                elif choice == "incoming":
                    note = f"Took precedence over {existing.memory_id} in {c.conflict_id} ({iso(now)})"
                    kept, created = self._keep_incoming(c, stored, note, now)
                    _supersede(existing, kept.memory_id, c.conflict_id, now)
                    self.store.save(existing)
                    winner, loser = kept.memory_id, existing.memory_id
                else:
                    note = f"Both valid with {existing.memory_id} ({c.conflict_id}, {iso(now)})"
                    kept, created = self._keep_incoming(c, stored, note, now)
                    self._remember_compatible(existing, c, actor, now)
            # A record made here from the held text was compared at its capture only, with the records of that
            # time: a record captured while it waited may contradict it. It meets them now, like a capture.
            opened = self._meet_the_others(c, kept, now, actor) if created and kept is not None else None
            details = {
                "conflict_id": c.conflict_id,
                "choice": choice,
                "winner": winner,
                "loser": loser,
                "created": created,
                "conflict_type": c.conflict_type,
                # the existing side's state after the decision: "active" but when it had stopped being so before
                "existing_status": existing.status.value if existing is not None else "gone",
                **({"opened": {"conflict_id": opened.conflict_id, **_opened_summary(opened)}} if opened else {}),
                "undo": {
                    "conflict": prior_conflict,
                    "existing": (
                        {"memory_id": existing.memory_id, **prior_existing}
                        if existing is not None and prior_existing is not None
                        else None
                    ),
                    **({"incoming": prior_stored} if prior_stored is not None else {}),
                },
            }
            # Its hash goes into the record and DECISIONS.md before it is recorded: settled first (`own_hash`).
            receipt = self.store.own_hash(make_receipt("resolve_conflict", "resolved", now, actor, details))
            c.status = "resolved"
            c.resolution = {
                "choice": choice,
                "by": actor,
                "at": iso(now),
                "receipt": receipt.receipt_sha256,
                "winner": winner,
                "loser": loser,
            }
            c.history.append({"event": "resolved", "choice": choice, "by": actor, "at": iso(now)})
            self._save_conflict(c)
            self._append_decision(c, choice, actor, now, receipt.receipt_sha256, existing=existing)
            self.store.record(receipt, "high")
            self.views.refresh(now)
            return receipt

    def _remember_compatible(self, existing: Entry, c: Conflict, actor: str, now: datetime) -> None:
        """A person's "both valid": the two statements are never held against each other again."""
        pair = sorted((sha256_hex(normalize(existing.content)), sha256_hex(normalize(c.incoming["text"]))))
        self.store.append_file(
            self.store.root / "stated" / "compatible.jsonl",
            [
                json.dumps(
                    {
                        "action": "both_valid",
                        "a": pair[0],
                        "b": pair[1],
                        "conflict_id": c.conflict_id,
                        "by": actor,
                        "at": iso(now),
                    },
                    sort_keys=True,
                )
            ],
        )

    def unreadable_page(self, page: str) -> str:
        """Why the page `page` (a conflict side's, as recorded) is there but cannot be read as a record; "" when
        it is not there, or is read. The desk's Conflicts pane asks it of the side it shows (`Engine.page_unreadable`)."""
        if not page:
            return ""
        try:
            if not self.store.path(page).is_file():
                return ""
        except BadInput:
            return ""
        bad = self.store.index.bad_page(page)
        if bad is not None:
            return f"{page} cannot be read ({bad.error})"
        if self.store.index.scalar("SELECT memory_id FROM records WHERE path=?", (page,)):
            return ""  # read, as another record's page (the name was free again and taken): this side is gone
        return f"{page} cannot be read as a record"

    def _meet_the_others(self, c: Conflict, kept: Entry, now: datetime, actor: str) -> Conflict | None:
        """Open a conflict between the record a resolution made from `c`'s held text and the active record it most
        contradicts, other than `c`'s own existing side. Its incoming side names the record, so that deciding it
        keeps or supersedes that record rather than making a copy."""
        if self.detect is None:
            return None
        incoming = {**c.incoming, "memory_id": kept.memory_id, "page": self.store.page_of(kept.memory_id)}
        hold = self.detect(incoming, {str(c.existing["memory_id"]), kept.memory_id})
        if hold is None or self._waiting(hold.memory_id, kept.content) is not None:
            return None
        return self._hold(hold, incoming, now, f"resolution of {c.conflict_id} by {actor}")

    def _keep_incoming(self, c: Conflict, stored: Entry | None, note: str, now: datetime) -> tuple[Entry, str | None]:
        """The incoming side as a record a person kept: the record it already is (refreshed as by an access), else
        one made from the held text. Returns it and, when it was made here, its id."""
        if stored is not None:
            stored.touch(now)
            stored.notes.append(note)
            self.store.save(stored)
            return stored, None
        new = entry_from_incoming(self.store, c.incoming, now)
        new.notes.append(note)
        self.store.save(
            new,
            self.store.new_page(
                new.title, new.trust_zone.value, new.sensitivity_tier.value, fallback=new.canonical_key
            ),
        )
        return new, new.memory_id

    def _restore_side(self, state: dict[str, Any], marker: str, now: datetime) -> str:
        """Put a record back as `_side_state` recorded it (receipts from before a field was recorded lack it)."""
        entry = self.store.load(state["memory_id"])
        entry.status = Status(state["status"])
        entry.superseded_by = state["superseded_by"]
        if "strength" in state:
            entry.strength = state["strength"]
            entry.last_accessed_at = parse_iso(state["last_accessed_at"])
        if "notes" in state:
            entry.notes = entry.notes[: int(state["notes"])]
        if entry.content.endswith(marker):
            entry.content = entry.content[: -len(marker)]
        entry.updated_at = now
        self.store.save(entry)
        return entry.memory_id

    def _stored_incoming(self, c: Conflict) -> Entry | None:
        """The record the incoming side names, while it is active and still holds the incoming text; else an active
        record of its zone and tier that holds that text (`_twin`: captured while the conflict waited)."""
        for find in (lambda: c.incoming.get("memory_id"), lambda: self._twin(c)):
            mid = find()
            if not mid or not self.store.page_of(mid):
                continue
            try:
                entry = self.store.load(mid)
            except (BadInput, NotFound, PageError):
                continue
            if entry.status is Status.active and normalize(entry.content) == normalize(c.incoming.get("text", "")):
                return entry
        return None

    def _twin(self, c: Conflict) -> str | None:
        """An active record of the incoming side's zone and tier that holds its text, other than the existing side:
        the held statement captured again while the conflict waited (once its existing side was denied or
        superseded nothing held it back), or the existing side of a decision since undone. Taking the incoming side,
        or both, then keeps that record: a record made from the held text beside it was two active records saying
        one thing. The oldest, when there are several. Found by the text's hash with its title, else among the
        records whose words match it best (a title of its own changes the hash)."""
        text = normalize(c.incoming.get("text") or "")
        zone, tier = c.incoming.get("zone"), c.incoming.get("sensitivity")
        if not text or not zone or not tier:
            return None
        index = self.store.index
        rows = index.query(
            "SELECT memory_id, content, created_at FROM records WHERE content_sha=? AND trust_zone=? "
            "AND sensitivity_tier=? AND status='active'",
            (content_sha256(c.incoming.get("title") or "", c.incoming["text"]), zone, tier),
        )
        if not rows:
            ids = index.fts_candidates(tokens(c.incoming["text"])[:64], limit=TWIN_CANDIDATES)
            rows = index.rows_for(ids, "status='active' AND trust_zone=? AND sensitivity_tier=?", (zone, tier))
        same = [r for r in rows if r["memory_id"] != c.existing.get("memory_id") and normalize(r["content"]) == text]
        if not same:
            return None
        return str(min(same, key=lambda r: (r["created_at"] or "", r["memory_id"]))["memory_id"])

    def _append_decision(
        self,
        c: Conflict,
        choice: str,
        actor: str,
        now: datetime,
        receipt_sha: str,
        note: str = "",
        existing: Entry | None = None,
    ) -> None:
        """A decision's entry in DECISIONS.md. Side A is the existing record as it was decided on (`existing`,
        before the decision changed it): edited since detection, it is no longer the text the conflict holds."""
        label = {"existing": "keep existing", "incoming": "take incoming", "both": "both valid"}.get(choice, choice)
        held = " ".join(str(c.existing.get("text", "")).split())
        side_a = held
        if existing is not None:
            current = " ".join(existing_text(existing.content).split())
            if current != held:
                side_a = f"{current} (edited since detection; detected as: {held})"
            if existing.status is not Status.active and choice == "existing":
                side_a += f" [{existing.status.value}: the decision left it so]"
        lines = [
            "",
            f"## {c.conflict_id} — {iso(now)} — {label}{note}",
            f"- Decided by: {actor} · receipt {receipt_sha}",
            f"- Type: {c.conflict_type} ({c.reason})",
            f"- Side A (existing, {c.existing.get('memory_id')}): {side_a}",
            f"  - provenance: source {c.existing.get('source_ref') or '(none)'} · {c.existing.get('source_type')} · "
            f"actor {c.existing.get('actor')} · at {c.existing.get('at')} · evidence {c.existing.get('evidence_grade')}",
            f"- Side B (incoming): {' '.join(str(c.incoming.get('text', '')).split())}",
            f"  - provenance: source {c.incoming.get('source_ref') or '(none)'} · {c.incoming.get('source_type')} · "
            f"actor {c.incoming.get('actor')} · at {c.incoming.get('at')} · evidence {c.incoming.get('evidence_grade')}",
        ]
        self.store.append_file(self.store.root / "DECISIONS.md", lines, create=DECISIONS_HEADER)

    def snooze_conflict(
        self,
        conflict_id: str,
        *,
        now: datetime,
        actor: str,
        until: datetime | str | None = None,
        session: str | None = None,
    ) -> Receipt:
        """Snooze until a time, or (until=None) until the end of the given TUI session. Warns after 3 snoozes. A
        text `until` is read as `until.read_until` says, a date alone until that day begins in the person's time
        zone: the command line and the desk's dialog give the text as typed.

        A conflict still snoozed at `now` (as `session` sees it) is re-dated: its snooze ends at the new time and
        `snooze_count` stays (details `redated`, `was_until`); the count is how often it came back and was snoozed."""
        now = at(now)
        actor = validate_actor(actor)
        if not actor.startswith("human:"):
            return make_receipt("snooze_conflict", "refused", now, actor, {"reason": "human_actor_required"})
        if until is None and not session:
            return make_receipt("snooze_conflict", "reject", now, actor, {"reason": "snooze_needs_date_or_session"})
        until_dt: datetime | None = None
        said: dict[str, str] = {}
        if isinstance(until, datetime):
            until_dt = utc(until)
        elif until is not None:
            try:
                read = read_until(str(until), now=now, zone=lambda: self.person_zone(actor), day_end=False)
            except ValueError as exc:
                said = {"detail": str(exc)} if isinstance(exc, OutOfRange) else {}
                return make_receipt(
                    "snooze_conflict", "reject", now, actor, {"reason": "invalid_date", "value": str(until), **said}
                )
            until_dt, said = read.at, {"detail": read.not_after(now)}
        until_s = iso(until_dt) if until_dt is not None else f"session:{session}"
        if until_dt is not None and until_dt <= now:
            # A snooze that has already run out snoozes nothing, yet the conflict would list as snoozed.
            return make_receipt(
                "snooze_conflict", "reject", now, actor, {"reason": "snooze_date_past", "value": str(until), **said}
            )
        with self.store.writing():
            c = self.load_conflict(conflict_id, fresh=True)
            if c.status == "resolved":
                return make_receipt(
                    "snooze_conflict",
                    "reject",
                    now,
                    actor,
                    {"reason": "already_resolved", "conflict_id": c.conflict_id},
                )
            prior = c.to_frontmatter()
            # Still snoozed at `now` (its date not reached, or snoozed for this same session): the snooze's end
            # moves, and it is not one more snooze. The count is how often the conflict came back and was put off
            # again (SPEC §5.1: after 3 snoozes the queue warns that it keeps coming back); re-dating a snooze from
            # the snoozed list counted every change of date as a return.
            redated = c.status == "snoozed" and not c.is_open_at(now, session)
            was = c.snooze_until
            c.status = "snoozed"
            c.snooze_until = until_s
            if not redated:
                c.snooze_count += 1
            event = {"event": "snooze_moved", "from": was} if redated else {"event": "snoozed"}
            c.history.append({**event, "until": until_s, "by": actor, "at": iso(now)})
            details = {
                "conflict_id": c.conflict_id,
                "until": until_s,
                "snooze_count": c.snooze_count,
                "warning": "snoozed_3_times" if c.snooze_count >= SNOOZE_WARN_AFTER else None,
                # a snooze still running when this one was taken: its end moved, the count did not
                **({"redated": True, "was_until": was} if redated else {}),
                "undo": {"conflict": prior},
            }
            receipt = make_receipt("snooze_conflict", "snoozed", now, actor, details)
            self._save_conflict(c)
            self.store.record(receipt)
            self.views.refresh(now)
            return receipt

    def _same_conflict_there(self, prior: Conflict, receipt: dict[str, Any]) -> None:
        """Refuse (BadInput) to write `prior` back over a record file that now holds another conflict: one deleted
        by hand gives its id to the next conflict opened (the highest file's number + 1), and writing the old one
        back over it lost that conflict's held statement, which only its record holds. The same conflict is the
        one detected at the same time with the same incoming statement (the same one edited by hand since is refused
        too, said as such: the undo would write the old statement back over the edit)."""
        try:
            now_there = self.load_conflict(prior.conflict_id, fresh=True)
        except NotFound:
            return  # gone: written back (check reported it gone)
        except BadInput:
            return  # unreadable (check reports it): the receipt's copy is what can be put back
        same_text = normalize(now_there.incoming.get("text") or "") == normalize(prior.incoming.get("text") or "")
        if now_there.detected_at == prior.detected_at and same_text:
            return
        if now_there.detected_at == prior.detected_at:
            raise BadInput(
                f"conflicts/{prior.conflict_id}.md: its held statement was edited since receipt "
                f"{str(receipt.get('receipt_sha256'))[:12]} decided it; undoing would write the old one back over the "
                "edit; nothing was undone"
            )
        raise BadInput(
            f"conflicts/{prior.conflict_id}.md now holds another conflict (detected {now_there.detected_at}) than the "
            f"one receipt {str(receipt.get('receipt_sha256'))[:12]} decided (detected {prior.detected_at}): its id was "
            "given again after that record was removed; nothing was undone"
        )

    def _undo_conflict(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        """Restore a conflict (and the records a resolution touched) to the state before `receipt`."""
        undo = receipt["details"]["undo"]
        prior = Conflict.from_frontmatter(undo["conflict"])
        self._same_conflict_there(prior, receipt)
        touched = []
        if receipt["action"] == "resolve_conflict":
            # Each side a resolution touched gets its state back; the incoming side only when it was a record.
            marker = f"\n\n[SUPERSEDED by {prior.conflict_id}]"
            for state in (undo["existing"], undo.get("incoming")):
                if state and self.store.page_of(state["memory_id"]):
                    touched.append(self._restore_side(state, marker, now))
            opened = (receipt["details"].get("opened") or {}).get("conflict_id")
            if opened:
                # Opened by the resolution undone: its incoming side is no record any more. Withdrawn, not deleted;
                # a person's decision on it would have stopped this undo (`UndoOps.later_decision`).
                later = self.load_conflict(opened, fresh=True)
                if later.status != "resolved":
                    later.status = "resolved"
                    later.resolution = {
                        "choice": "withdrawn",
                        "by": actor,
                        "at": iso(now),
                        "receipt": receipt["receipt_sha256"],
                        "winner": None,
                        "loser": None,
                    }
                    later.history.append(
                        {
                            "event": "withdrawn",
                            "why": f"resolution of {prior.conflict_id} undone",
                            "by": actor,
                            "at": iso(now),
                        }
                    )
                    self._save_conflict(later)
            created = receipt["details"].get("created")
            if created and self.store.page_of(created):
                new = self.store.load(created)
                new.status = Status.archived
                new.updated_at = now
                new.notes.append(f"Resolution of {prior.conflict_id} undone ({iso(now)}); kept for the record")
                self.store.save(new)
                touched.append(created)
            if receipt["details"]["choice"] == "both":
                pair = sorted(
                    (
                        sha256_hex(normalize(prior.existing.get("text", ""))),
                        sha256_hex(normalize(prior.incoming["text"])),
                    )
                )
                self.store.append_file(
                    self.store.root / "stated" / "compatible.jsonl",
                    [
                        json.dumps(
                            {
                                "action": "undo_both_valid",
                                "a": pair[0],
                                "b": pair[1],
                                "conflict_id": prior.conflict_id,
                                "by": actor,
                                "at": iso(now),
                            },
                            sort_keys=True,
                        )
                    ],
                )
            self._append_decision(
                prior, receipt["details"]["choice"], actor, now, receipt["receipt_sha256"], " — UNDONE"
            )
        prior.history.append({"event": "undone", "receipt": receipt["receipt_sha256"], "by": actor, "at": iso(now)})
        self._save_conflict(prior)
        return {"conflict_id": prior.conflict_id, "restored": touched}

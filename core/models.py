"""The memory record's enums and times (SPEC §3), and the receipt (SPEC §4).

The record itself, `Entry`, is in `record.py` and importable from here too: it is loaded on first use, so what only
reads the index (`memkeeper retrieve`) never imports it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING, Any

from .errors import BadInput

ENTRY_SCHEMA = "memkeeper.entry.v1"
RECEIPT_SCHEMA = "memkeeper.receipt.v1"


class TrustZone(str, Enum):
    private_self = "private_self"
    trusted_collaborator = "trusted_collaborator"
    outside_contact = "outside_contact"
    paid_public = "paid_public"


class SensitivityTier(str, Enum):
    public_safe = "public_safe"
    normal = "normal"
    do_not_export = "do_not_export"


class MemoryClass(str, Enum):
    durable = "durable"
    expiring = "expiring"


class Status(str, Enum):
    active = "active"
    archived = "archived"
    superseded = "superseded"
    denied = "denied"


class Tier(str, Enum):
    warm = "warm"
    cold = "cold"
    protected = "protected"  # set by hand: tier cleanup never proposes it


class Category(str, Enum):
    preference = "preference"
    project = "project"
    decision = "decision"
    direction = "direction"
    fact = "fact"
    insight = "insight"
    lesson = "lesson"
    milestone = "milestone"
    commitment = "commitment"
    risk = "risk"
    question = "question"
    draft = "draft"


class EvidenceGrade(str, Enum):
    high = "high"
    medium = "medium"
    low = "low"


class SourceType(str, Enum):
    user_stated = "user_stated"
    user_confirmed = "user_confirmed"
    agent_inferred = "agent_inferred"


def utc(dt: datetime) -> datetime:
    """Make a datetime UTC-aware (naive values are taken as UTC)."""
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


# The years an operation may act at (`at`): every time it writes (a receipt file's name, log.md, a page's dates) is
# four digits wide, and schedules computed from it (a quiz interval of decades, an expiry) stay within datetime's range.
ACT_YEARS = (1000, 9000)


def at(now: datetime) -> datetime:
    """The time an operation acts at, in UTC. Outside `ACT_YEARS` it is refused (`BadInput`), before anything is
    written: `--now 0999-06-01` wrote "999-06-01T…" (no reader parses a three-digit year) into the receipt's file
    name, log.md and the write's intent, and every later command, `check --repair` too, stopped on it; near year
    9999 a capture's schedules overflowed datetime."""
    now = utc(now)
    if not ACT_YEARS[0] <= now.year <= ACT_YEARS[1]:
        raise BadInput(
            f"time {now.isoformat()} is out of range: an operation acts at a time in the years "
            f"{ACT_YEARS[0]}-{ACT_YEARS[1]}"
        )
    return now


def iso(dt: datetime) -> str:
    dt = utc(dt)
    if dt.microsecond:
        return dt.isoformat().replace("+00:00", "Z")
    if dt.year >= 1000:  # isoformat() is strftime's text here, several times faster (a cold build calls it 4× a page)
        return dt.isoformat()[:-6] + "Z"
    return dt.strftime("%Y-%m-%dT%H:%M:%SZ")  # glibc does not pad a year below 1000: keep its text


def iso_floor(dt: datetime) -> str:
    """A text that sorts (as text, the way SQLite compares the index's stamps) before every `iso` stamp from dt's
    whole second on, and after every earlier one: "2026-01-01T09:00:00" for 09:00:00.5. `iso` writes a sub-second
    stamp "…00.5Z", which sorts before "…00Z" ('.' < 'Z'), so `stamp > iso(now)` loses rows of now's second; a
    query filters with `stamp > iso_floor(now)` and compares the few rows of that second as times."""
    return iso(dt.replace(microsecond=0))[:-1]


def parse_iso(value: str | datetime) -> datetime:
    if isinstance(value, datetime):
        return utc(value)
    text = value.strip()
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    return utc(datetime.fromisoformat(text))


# Invisible characters that are part of how a word or an emoji is written, kept in one-line fields: ZERO WIDTH
# NON-JOINER (Persian "می‌خواهم" is one word) and ZERO WIDTH JOINER (👩‍👩‍👧 is one emoji; Indic scripts write
# it after a virama) when they follow a visible character, and the tag characters of a flag's emoji tag sequence
# (🏴 + tags + CANCEL TAG: the flags of England, Scotland, Wales). Every other character that is not printable still
# becomes a space: line breaks, control characters, the bidirectional embedding, override and isolate controls
# (U+202A–U+202E, U+2066–U+2069: a title would display other than it reads), and tag characters outside a flag
# (they spell text nobody sees).
_JOINERS = frozenset("\u200c\u200d")
# Invisible hints inside a word, dropped rather than made spaces: SOFT HYPHEN (where a word may be hyphenated: with
# a space, "Kuber\u00adnetes" became "Kuber netes"), ZERO WIDTH SPACE (where a line may break: Thai, Lao and Khmer
# write no spaces, and URLs and code names carry it), WORD JOINER and a ZERO WIDTH NO-BREAK SPACE (a byte-order
# mark pasted inside a text). None of them is seen, and each sits inside a word, which a space would cut in two.
_HINTS = frozenset("\u00ad\u200b\u2060\ufeff")
_FLAG_TAGS = re.compile("\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f")


def single_line(value: str) -> str:
    """Scalar fields live in frontmatter and headings: one line, no control characters, whitespace collapsed. The
    joiners and flag tags above stay: YAML reads them as text, and the page writer double-quotes a string holding
    any character that is not printable, so they can neither open a key nor end a line."""
    if value.isprintable() and "  " not in value and value[:1] != " " and value[-1:] != " ":
        return value  # already one line: a printable string's only whitespace is the ASCII space
    return " ".join(_visible(value).split())


def terminal_text(text: str) -> str:
    """Text for a terminal, by the rule of `single_line` but for two things: its line breaks (`\n`) stay, and its
    spaces are not collapsed (a listing's columns). Every other character that is not printable is a space: an ESC
    or a BEL, the other C0 and C1 controls (ESC [ 8 m hides text, OSC 0 sets the window's title, OSC 52 writes the
    clipboard), and the bidirectional controls (a line would display other than it reads). What the command line
    prints of stored text goes through it; its `--json` keeps the text exact, escaped."""
    if all(line.isprintable() for line in text.split("\n")):
        return text
    return _visible(text, keep="\n")


# What a terminal acts on rather than shows: the C0 controls but the line break and the tab, DEL and the C1 controls
# (ESC opens the sequences that clear the screen, hide text or set the window's title; U+009B is CSI for a terminal
# that reads 8-bit controls), the line and paragraph separators, and the bidirectional formatting characters (the
# marks U+061C, U+200E, U+200F, the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069: a line would
# display other than it reads). Letters of a right-to-left script are none of these.
TERMINAL_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def inert_text(text: str) -> str:
    """Stored text as the desk draws it: each character of `TERMINAL_CONTROLS` a space, one for one, so that an
    offset into the text (a cloze's gap, where a long text is cut) still points where it did. Line breaks and tabs
    stay (a pane lays them out), and so does every other character: unlike `terminal_text`, which also makes any
    other character that is not printable a space and drops the break hints, for a terminal the command line
    writes to as it is."""
    return TERMINAL_CONTROLS.sub(" ", text) if TERMINAL_CONTROLS.search(text) else text


def json_inert(text: str) -> str:
    """JSON text (json.dumps with ensure_ascii=False) with each character of `TERMINAL_CONTROLS` it left raw
    escaped (`\\u009b`): the same value for any parser (outside a string JSON is ASCII, and json.dumps escaped the
    C0 controls in strings), and nothing in it a terminal acts on."""
    return TERMINAL_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _visible(value: str, keep: str = "") -> str:
    """`value` with each character that is not printable made a space (but those in `keep`, the joiners after a
    visible character and a flag's tags), and the break hints dropped."""
    flag = {i for m in _FLAG_TAGS.finditer(value) for i in range(m.start() + 1, m.end())}
    out: list[str] = []
    for i, ch in enumerate(value):
        if ch in _HINTS:
            continue
        joins = ch in _JOINERS and bool(out) and not out[-1].isspace()  # after a visible character, joiner or tag
        out.append(ch if ch.isprintable() or ch in keep or joins or i in flag else " ")
    return "".join(out)


@dataclass
class Receipt:
    """What an operation returns (SPEC §4). `schema_` is the `schema` key of its JSON (`to_dict`)."""

    action: str
    status: str
    at: str
    actor: str
    details: dict[str, Any] = field(default_factory=dict)
    receipt_sha256: str = ""
    schema_: str = RECEIPT_SCHEMA

    @classmethod
    def model_validate(cls, data: Any) -> Receipt:
        """The receipt a JSON object holds (a line of receipts/<date>.jsonl). ValueError when it is not one."""
        if not isinstance(data, dict):
            raise ValueError("a receipt must be a JSON object")
        extra = set(data) - _RECEIPT_KEYS
        missing = {"action", "status", "at", "actor"} - set(data)
        if extra or missing:
            raise ValueError(f"not a receipt (unknown keys {sorted(extra)}, missing {sorted(missing)})")
        for key in ("schema", "action", "status", "at", "actor", "receipt_sha256"):
            if key in data and not isinstance(data[key], str):
                raise ValueError(f"receipt field {key} must be a string")
        if not isinstance(data.get("details", {}), dict):
            raise ValueError("receipt field details must be an object")
        return cls(
            action=data["action"],
            status=data["status"],
            at=data["at"],
            actor=data["actor"],
            details=dict(data.get("details", {})),
            receipt_sha256=data.get("receipt_sha256", ""),
            schema_=data.get("schema", RECEIPT_SCHEMA),
        )

    def body(self) -> dict[str, Any]:
        return {
            "schema": self.schema_,
            "action": self.action,
            "status": self.status,
            "at": self.at,
            "actor": self.actor,
            "details": self.details,
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self.body(), "receipt_sha256": self.receipt_sha256}

    @property
    def ok(self) -> bool:
        return self.status not in REFUSED_STATUSES


_RECEIPT_KEYS = {"schema", "action", "status", "at", "actor", "details", "receipt_sha256"}

# Statuses that mean "the operation did not run as asked": the CLI exits 2 for these.
REFUSED_STATUSES = frozenset({"reject", "refused"})
# Statuses of a receipt that is never recorded: a refusal, and a capture dropped as too short to be a memory.
UNRECORDED_STATUSES = REFUSED_STATUSES | {"drop"}


if TYPE_CHECKING:
    from .record import Entry as Entry
    from .record import Verified as Verified


def __getattr__(name: str) -> Any:
    if name in ("Entry", "Verified"):
        from . import record

        value = getattr(record, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The quiz ledger and notebook file formats (spec 5.3), file-compatible with llmwiki's.

Pure functions only: callers pass text in and get values or text back. Scheduling (what an answer does to a row,
which pages a session asks) is `quiz.py`.

The ledger ``quiz/quiz-ledger.<person>.md`` is file-compatible with llmwiki's: the ``<!-- quiz:{json} -->`` marker on
each row is the source of truth, the human-readable part of the row is regenerated from it, and a ledger written here
parses in llmwiki (unknown frontmatter keys and the extra ``fsrs`` marker key are ignored there). The frontmatter is
read and written by the page format's one YAML handler (``pagefmt``), in its ledger style.

Decisions beyond the spec, in one place:

- Person ids follow llmwiki's sanitiser exactly (lower-case, ``[^a-z0-9._-]+`` → ``-``, strip leading/trailing ``-``
  and ``.``, then cut to 40 characters), so one person maps to the same file in both tools; an empty id becomes "me".
- The four standard frontmatter keys (``kind``, ``person``, ``scheduler``, ``updated``) are typed fields of
  :class:`Ledger`; every other frontmatter key is kept in ``Ledger.frontmatter`` in file order and written back.
- FSRS state rides in the row marker as an extra ``fsrs`` key (``Card.to_dict()``) written *after* the eight standard
  keys, so readers that ignore unknown keys (llmwiki) still parse the row.
- A row that cannot be read (its marker does not parse, its page is not clean, its box or a date is out of range, it
  has no marker) is skipped and reported, and carried through every rewrite exactly as written, at its position among
  the rows (``Ledger.unreadable``): the engine never deletes what it cannot read; a person fixes or removes it.
- A person's quiz day is the calendar day of their own time zone, kept as ``time_zone`` (an IANA name) in the
  ledger frontmatter; without one it is the UTC day. Every date the ledger holds (due, last, buried, updated) and
  the notebook's file name is a day of that calendar (:func:`quiz_day`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from datetime import UTC, date, datetime, tzinfo
from functools import cache
from typing import Any, Literal, Self, TypeGuard
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# --- constants ------------------------------------------------------------------------------------------------------

MAX_BOX = 5
"""Rows hold a box 0–5 (llmwiki's six Leitner boxes; FSRS rows use the same range for display)."""
LAST_Q_MAX = 200
PERSON_ID_MAX = 40
LEDGER_KIND = "quiz-ledger"
NOTEBOOK_KIND = "quiz-notebook"

SchedulerName = Literal["leitner", "fsrs"]
Result = Literal["correct", "wrong", "skip"]

SCHEDULERS: tuple[str, ...] = ("leitner", "fsrs")
RESULTS: tuple[str, ...] = ("correct", "wrong", "skip")

_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MARKER_RE = re.compile(r"<!--\s*quiz:(\{.*\})\s*-->\s*$")
_VISIBLE_RE = re.compile(r"— box (\d+) · due (\S+) · (\d+)/(\d+)")  # render_row's readable half
_ITEMS_HEADING_RE = re.compile(r"##\s+Items\s*\((\d+)\)\s*")
_WS_RE = re.compile(r"\s+")
_PERSON_BAD_RE = re.compile(r"[^a-z0-9._-]+")


# --- models ---------------------------------------------------------------------------------------------------------


class Value:
    """An immutable record: its fields are its `__slots__`, it compares and hashes by them, and `model_copy(update=...)`
    gives a copy with some fields replaced (unchecked, like the fields it keeps). Plain classes rather than pydantic
    models: hot.md counts the quiz's due items after every capture, and importing pydantic cost that command ~100 ms
    (docs/decisions.md, "The record model is a plain class")."""

    __slots__: tuple[str, ...] = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: use model_copy(update=...)")

    def _set(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Self:
        new = object.__new__(type(self))
        changes = update or {}
        for name in self.__slots__:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        return new

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __reduce__(self) -> tuple[Any, ...]:  # copy, deepcopy and pickle set no attribute on the new value
        return (_rebuild, (type(self), self._values()))

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


def _rebuild(cls: type[Value], values: tuple[Any, ...]) -> Value:
    new = object.__new__(cls)
    for name, value in zip(cls.__slots__, values, strict=True):
        object.__setattr__(new, name, value)
    return new


def _count_field(name: str, value: Any, top: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (top is not None and value > top):
        limit = f"0–{top}" if top is not None else "0 or more"
        raise ValueError(f"quiz item {name} must be a whole number {limit}, not {value!r}")
    return value


def _date_field(name: str, value: Any, optional: bool = False) -> Any:
    if (value is None and optional) or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    raise ValueError(f"quiz item {name} must be a date, not {value!r}")


class QuizItem(Value):
    """One ledger row: a page that has been quizzed at least once (never-quizzed pages have no row)."""

    __slots__ = ("page", "box", "due", "asked", "correct", "last", "last_result", "last_q", "fsrs")
    page: str
    box: int
    due: date
    asked: int
    correct: int
    last: date | None
    last_result: Result | None
    last_q: str
    fsrs: dict[str, Any] | None

    def __init__(
        self,
        *,
        page: str,
        box: int,
        due: date,
        asked: int,
        correct: int,
        last: date | None = None,
        last_result: Result | None = None,
        last_q: str = "",
        fsrs: dict[str, Any] | None = None,
    ) -> None:
        if last_result is not None and last_result not in RESULTS:
            raise ValueError(f"quiz item last_result must be one of {', '.join(RESULTS)}, not {last_result!r}")
        self._set(
            page=page,
            box=_count_field("box", box, MAX_BOX),
            due=_date_field("due", due),
            asked=_count_field("asked", asked),
            correct=_count_field("correct", correct),
            last=_date_field("last", last, optional=True),
            last_result=last_result,
            last_q=last_q,
            fsrs=fsrs,
        )

    def marker(self) -> dict[str, Any]:
        """The marker JSON object, keys in llmwiki's order; ``fsrs`` last so llmwiki ignores it."""
        out: dict[str, Any] = {
            "page": self.page,
            "box": self.box,
            "due": self.due.isoformat(),
            "asked": self.asked,
            "correct": self.correct,
            "last": self.last.isoformat() if self.last else None,
            "lastResult": self.last_result,
            "lastQ": sanitize_question(self.last_q),
        }
        if self.fsrs is not None:
            out["fsrs"] = self.fsrs
        return out


class Ledger(Value):
    """A person's quiz ledger as parsed (or about to be rendered).

    ``frontmatter`` holds every frontmatter key other than the four typed ones (kind, person, scheduler, updated),
    in file order, so keys written by other tools survive a rewrite. ``problems`` lists the rows and header issues
    that parsing skipped, one ``"line N: why"`` each. ``unreadable`` holds the skipped rows themselves as
    ``(position among the rows, line exactly as written)``: a rewrite puts each back, unchanged, at its position
    (a later one goes last), so what the engine cannot read is never lost and stays reported until a person fixes it.
    A page listed twice is read from its first row; the second is one of the unreadable rows, and so is any other
    text under the items heading (a person's remark between rows): both go back as written.
    """

    __slots__ = (
        "person",
        "scheduler",
        "updated",
        "frontmatter",
        "note",
        "items",
        "problems",
        "unreadable",
        "damaged_head",
    )
    person: str
    scheduler: SchedulerName
    updated: date | None
    frontmatter: dict[str, Any]
    note: str
    items: list[QuizItem]
    problems: list[str]
    unreadable: list[tuple[int, str]]
    damaged_head: str  # why the frontmatter cannot be carried through a rewrite ("" when it can)

    def __init__(
        self,
        *,
        person: str = "me",
        scheduler: SchedulerName = "leitner",
        updated: date | None = None,
        frontmatter: dict[str, Any] | None = None,
        note: str = "",
        items: list[QuizItem] | None = None,
        problems: list[str] | None = None,
        unreadable: list[tuple[int, str]] | None = None,
        damaged_head: str = "",
    ) -> None:
        if scheduler not in SCHEDULERS:
            raise ValueError(f"quiz ledger scheduler must be one of {', '.join(SCHEDULERS)}, not {scheduler!r}")
        self._set(
            person=person,
            scheduler=scheduler,
            updated=_date_field("updated", updated, optional=True),
            frontmatter=dict(frontmatter or {}),
            note=note,
            items=list(items or []),
            problems=list(problems or []),
            unreadable=sorted(unreadable or []),
            damaged_head=damaged_head,
        )

    def item(self, page: str) -> QuizItem | None:
        for it in self.items:
            if it.page == page:
                return it
        return None


# --- names ----------------------------------------------------------------------------------------------------------


def person_id(name: str) -> str:
    """File-safe person id: lower-case, runs outside ``[a-z0-9._-]`` become ``-``, trimmed, at most 40 chars.

    Mirrors llmwiki's sanitiser (which also trims leading/trailing dots, so ``..`` can never be an id) so the same
    person finds the same ledger in both tools. An id that sanitises to nothing is ``"me"``, llmwiki's fallback.
    """
    pid = _PERSON_BAD_RE.sub("-", name.lower()).strip("-.")[:PERSON_ID_MAX]
    return pid or "me"


def ledger_path(person: str) -> str:
    """Wiki-relative path of a person's ledger."""
    return f"quiz/quiz-ledger.{person_id(person)}.md"


def notebook_path(day: date, person: str) -> str:
    """Wiki-relative path of a person's dated quiz notebook."""
    return f"quiz/{day.isoformat()}.{person_id(person)}.md"


def is_clean_page(page: object) -> TypeGuard[str]:
    """A wiki-relative ``.md`` path that can be written into a ledger row and read back unchanged.

    Besides the spec's rules (relative, no ``..``, no backslashes, ends with ``.md``) this refuses empty or ``.``
    segments, surrounding whitespace, control/line-separator characters (they would split or hide a row) and ``-->``
    (it would close the row's HTML comment).
    """
    if not isinstance(page, str) or not page.endswith(".md") or page != page.strip():
        return False
    if page.startswith("/") or "\\" in page or "-->" in page or re.match(r"[A-Za-z]:", page):
        return False
    if any(unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp") for ch in page):
        return False
    segments = page.split("/")
    return all(seg not in ("", ".", "..") for seg in segments) and segments[-1] != ".md"


def sanitize_question(question: str) -> str:
    """The ``lastQ`` form: one line, ``-->`` made harmless, at most 200 chars. Idempotent (the trailing strip after
    the cut keeps a re-sanitised value equal, which byte-stable rewrites rely on)."""
    one_line = _WS_RE.sub(" ", question).replace("-->", "→").strip()
    return one_line[:LAST_Q_MAX].rstrip()


# --- ledger: parse, render -----------------------------------------------------------------------------------------


def parse_ledger(text: str, *, person: str | None = None) -> Ledger:
    """Read a ledger; never raises.

    Rows whose marker does not parse, whose page is not a clean relative ``.md`` path, whose box is outside 0–5 or
    whose dates are not ``YYYY-MM-DD`` are skipped and reported in ``problems`` ("line N: why"), and kept as written
    in ``unreadable`` for the rewrite. ``person`` is the fallback id when the frontmatter has none (an llmwiki ledger
    carries its person only in the file name).
    """
    problems: list[str] = []
    if not isinstance(text, str):
        return Ledger(person=person_id(person or ""), problems=["line 1: ledger is not text"])
    if not text.strip():
        return Ledger(person=person_id(person or ""), problems=["line 1: empty ledger file"])
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")

    raw_fm, body_start, unread = _read_frontmatter(text, problems)
    # A frontmatter that does not parse is left out, and so is a scheduler of no known name: a rewrite would put a
    # default in its place (leitner, no buried cards, no other keys). Writers refuse such a ledger (`damaged_head`).
    damaged = problems[-1] if unread else ""
    fm = dict(raw_fm)
    kind = fm.pop("kind", None)
    if kind is not None and kind != LEDGER_KIND:
        problems.append(f"line 1: frontmatter kind is {kind!r}, expected {LEDGER_KIND!r}")
    pid = _read_person(fm.pop("person", None), person, problems)
    named = fm.pop("scheduler", None)
    scheduler = _read_scheduler(named, problems)
    if named not in (None, *SCHEDULERS):
        damaged = damaged or problems[-1]
    updated = _read_updated(fm.pop("updated", None), problems)
    _read_zone(fm.get(ZONE_KEY), problems)  # kept among the other keys, as written

    body = lines[body_start:]
    heading_at = next((i for i, line in enumerate(body) if _ITEMS_HEADING_RE.fullmatch(line)), None)
    items: list[QuizItem] = []
    unreadable: list[tuple[int, str]] = []
    seen: set[str] = set()
    kept = 0  # lines carried into the rewrite so far, rows and text alike: an unreadable line's position

    def keep(line: str) -> None:
        unreadable.append((kept, line))

    if heading_at is None:
        problems.append(f"line {body_start + 1}: no '## Items (N)' heading")
        note = ""
        # llmwiki reads markers wherever they are; do the same so a damaged header loses no history.
        for offset, line in enumerate(body):
            if "<!--" in line and "quiz:" in line:
                if not _take_row(line, body_start + offset + 1, items, seen, problems):
                    keep(line)
                kept += 1
            elif line.strip() not in ("", "(none)"):  # the rest of the body goes under the heading the rewrite adds
                keep(line)
                kept += 1
                problems.append(f"line {body_start + offset + 1}: text outside the items (kept as written)")
    else:
        note = "\n".join(body[:heading_at]).strip()
        heading_line = body_start + heading_at + 1
        m = _ITEMS_HEADING_RE.fullmatch(body[heading_at])
        declared = int(m.group(1)) if m else 0
        rows = 0
        for offset, line in enumerate(body[heading_at + 1 :], start=heading_at + 1):
            lineno = body_start + offset + 1
            stripped = line.strip()
            if not stripped or stripped == "(none)":
                continue
            if "<!--" in line and "quiz:" in line:
                if not _take_row(line, lineno, items, seen, problems):
                    keep(line)
                rows += 1
            elif stripped.startswith("- "):
                keep(line)
                rows += 1
                problems.append(f"line {lineno}: row has no quiz marker")
            else:  # a person's remark between the rows: not a row, and not counted as one
                keep(line)
                problems.append(f"line {lineno}: unexpected text under the items heading (kept as written)")
            kept += 1
        if declared != rows:
            problems.append(f"line {heading_line}: heading says {declared} items, {rows} rows follow")

    return Ledger(
        person=pid,
        scheduler=scheduler,
        updated=updated,
        frontmatter=fm,
        note=note,
        items=items,
        problems=problems,
        unreadable=unreadable,
        damaged_head=damaged,
    )


def render_ledger(ledger: Ledger) -> str:
    """Write a ledger. Byte-stable: ``render_ledger(parse_ledger(render_ledger(x))) == render_ledger(x)``.

    Readable rows are sorted by (due, page); each unreadable line goes back, exactly as it was read, at its position
    among the lines (past the end: last), but a second row for a page after every row, and counts in the
    ``## Items (N)`` heading as the parser counts it (a row does, a remark between rows does not)."""
    head: dict[str, Any] = {"kind": LEDGER_KIND, "person": ledger.person, "scheduler": ledger.scheduler}
    if ledger.updated is not None:
        head["updated"] = ledger.updated
    for key, value in ledger.frontmatter.items():
        if key not in ("kind", "person", "scheduler", "updated"):
            head[key] = value
    lines = [render_row(it) for it in sorted(ledger.items, key=lambda it: (it.due, it.page))]
    # A kept line that reads as a row is a second row for a page (a merge of two ledgers, a hand edit): it goes after
    # every readable row. Put back at its old place among re-sorted rows, it could come before the page's own row,
    # and the next reading took it instead: an answer just recorded was read as the stale duplicate's box and due.
    after = []
    for position, line in sorted(ledger.unreadable):
        if _parse_row(line)[0] is not None:
            after.append(line)
        else:
            lines.insert(min(position, len(lines)), line)
    lines += after
    rows = "\n".join(lines) if lines else "(none)"
    count = sum(1 for line in lines if _is_row(line))
    # parse_ledger reads CRLF files as LF; writing the note the same way keeps the round trip byte-stable.
    note = ledger.note.replace("\r\n", "\n").strip()
    body = "\n" + (note + "\n\n" if note else "") + f"## Items ({count})\n\n{rows}\n"
    from .pagefmt import Style, dumps

    return dumps(head, body, style=Style.LEDGER)


def render_row(item: QuizItem) -> str:
    """One ledger row in llmwiki's exact layout; the readable half is derived from the marker."""
    last = f"{item.last.isoformat()} {item.last_result or ''}".rstrip() if item.last else "never"
    marker = json.dumps(item.marker(), ensure_ascii=False, separators=(",", ":"))
    return (
        f"- {item.page} — box {item.box} · due {item.due.isoformat()} · {item.correct}/{item.asked} · last {last}"
        f"  <!-- quiz:{marker} -->"
    )


def _read_frontmatter(text: str, problems: list[str]) -> tuple[dict[str, Any], int, bool]:
    """(frontmatter, index of the body's first line, whether a frontmatter is there and could not be read) of a
    ledger read as LF text. None at all (as llmwiki writes a ledger) is not unread: it holds nothing to lose."""
    from .pagefmt import read_block

    block = read_block(text)
    if not block.opened:
        problems.append("line 1: no frontmatter")
        return {}, 0, False
    if block.close is None:
        problems.append("line 1: frontmatter is never closed")
        return {}, 1, True
    error = block.error
    if error is not None:
        if error.kind == "alias":
            # A few bytes of aliases can expand to gigabytes: refused, like in every other memkeeper file.
            problems.append(f"line {error.line}: frontmatter uses YAML anchors/aliases, which are not allowed")
        elif error.kind == "mapping":
            problems.append("line 1: frontmatter is not a mapping")
        else:
            problems.append(f"line {error.line or 1}: frontmatter does not parse: {error.reason}")
        return {}, block.close + 1, True
    return {str(k): v for k, v in block.data.items()}, block.close + 1, False


ZONE_KEY = "time_zone"
"""The ledger frontmatter key naming the person's time zone (IANA, "Europe/Berlin"): their quiz day's calendar."""


@cache
def zone_named(name: str) -> tzinfo:
    """The time zone of an IANA name ("UTC", "Europe/Berlin", "America/Los_Angeles"); ValueError with a one-line
    reason for anything else (fixed offsets and abbreviations such as "CET" or "+02:00" are not days' calendars:
    they do not follow a place's summer time)."""
    if not isinstance(name, str) or not name or name != name.strip() or len(name) > 64:
        raise ValueError(f"unknown time zone {name!r}: give an IANA name such as Europe/Berlin or UTC")
    if zone_key(name) == "UTC":
        return UTC
    try:
        # "CET", "EST", "EST5EDT": abbreviations the tz database keeps, no place's calendar (EST is five hours
        # behind UTC all year, a New Yorker's summer included; "IST" and "CST" would each be three places), and its
        # country names kept for old systems ("Japan", "GB"): Asia/Tokyo and Europe/London say them as places.
        # "posix/…", "right/…": its other trees (right/ counts leap seconds), not names
        # "Etc/GMT+5": a fixed offset (and, by POSIX, five hours *behind* UTC), no place's calendar
        if "/" not in name or name.split("/", 1)[0] in ("posix", "right") or name.lower().startswith("etc/gmt"):
            raise ZoneInfoNotFoundError(name)
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ValueError(f"unknown time zone {name!r}: give an IANA name such as Europe/Berlin or UTC") from None


# The names the tz database gives UTC (its `etcetera` and `backward` links), in upper case: each is UTC at every
# time, whatever a person's habit calls it ("GMT", "Zulu"). Other names without a "/" stay refused (`zone_named`).
UTC_NAMES = frozenset(
    prefix + name
    for prefix in ("", "ETC/")
    for name in ("UTC", "UCT", "ZULU", "UNIVERSAL", "GMT", "GMT0", "GMT+0", "GMT-0", "GREENWICH")
)


def zone_key(name: str) -> str:
    """The name a zone is kept under: UTC as "UTC" however it is written ("utc", "Etc/UTC", "GMT", "Zulu"), others
    as given."""
    return "UTC" if name.upper() in UTC_NAMES else name


def ledger_zone(ledger: Ledger) -> tuple[str, tzinfo]:
    """The ledger's time zone as (name, zone): ("UTC", UTC) when it names none, or one this machine does not know
    (`parse_ledger` reports that)."""
    name = ledger.frontmatter.get(ZONE_KEY)
    if isinstance(name, str):
        try:
            return name, zone_named(name)
        except ValueError:
            pass
    return "UTC", UTC


def ledger_zone_problem(ledger: Ledger) -> str | None:
    """Why the time zone the ledger names is not read (its days are then UTC days), or None when it names none or
    one this machine knows: a value written by hand ("CET", "Mars/Olympus")."""
    value = ledger.frontmatter.get(ZONE_KEY)
    if value is None:
        return None
    try:
        zone_named(value if isinstance(value, str) else repr(value))
    except ValueError as exc:
        return str(exc)
    return None


def with_zone(ledger: Ledger, name: object) -> Ledger:
    """The ledger with its time zone key set to `name` (None: the key dropped, UTC days; an undo puts back a value
    written by hand as it was); rows and other keys untouched."""
    fm = {k: v for k, v in ledger.frontmatter.items() if k != ZONE_KEY}
    if name is not None:
        fm[ZONE_KEY] = name
    return ledger.model_copy(update={"frontmatter": fm})


def quiz_day(now: datetime, zone: tzinfo = UTC) -> date:
    """The calendar day `now` falls on in `zone` (a naive `now` is taken as UTC)."""
    return (now if now.tzinfo is not None else now.replace(tzinfo=UTC)).astimezone(zone).date()


def _read_zone(value: object, problems: list[str]) -> None:
    if value is None:
        return
    try:
        zone_named(value if isinstance(value, str) else repr(value))
    except ValueError as exc:
        problems.append(f"line 1: {exc}; quiz days are UTC days until it is mended")


def _read_person(value: object, fallback: str | None, problems: list[str]) -> str:
    if value is None:
        return person_id(fallback or "")
    pid = person_id(str(value))
    if pid != str(value):
        problems.append(f"line 1: person {value!r} is not a clean id; read as {pid!r}")
    return pid


def _read_scheduler(value: object, problems: list[str]) -> SchedulerName:
    if value is None or value == "leitner":
        return "leitner"
    if value == "fsrs":
        return "fsrs"
    problems.append(f"line 1: unknown scheduler {value!r}; using leitner")
    return "leitner"


def _read_updated(value: object, problems: list[str]) -> date | None:
    if value is None:
        return None
    if isinstance(value, date) and not isinstance(value, datetime):
        return value
    parsed = _parse_date(value)
    if parsed is None:
        problems.append(f"line 1: updated {value!r} is not YYYY-MM-DD")
    return parsed


def _parse_date(value: object) -> date | None:
    if not isinstance(value, str) or not _DATE_RE.fullmatch(value):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


def _as_count(value: object) -> int | None:
    # JSON numbers written by JavaScript may come back as 2.0; bools are ints in Python but never counts.
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _is_row(line: str) -> bool:
    """Whether `parse_ledger` counts the line as a row of the items heading."""
    return ("<!--" in line and "quiz:" in line) or line.strip().startswith("- ")


def _take_row(line: str, lineno: int, items: list[QuizItem], seen: set[str], problems: list[str]) -> bool:
    """Read one row into ``items``; False when it cannot be read (the caller keeps the line as written)."""
    item, why = _parse_row(line)
    if item is None:
        problems.append(f"line {lineno}: {why}")
        return False
    if item.page in seen:
        problems.append(f"line {lineno}: {item.page} is listed twice; the first row is read, this one kept as written")
        return False
    else:
        seen.add(item.page)
        items.append(item)
        if why:
            problems.append(f"line {lineno}: {why}")
    return True


def _parse_row(line: str) -> tuple[QuizItem | None, str]:
    """A row's item, or None and why. A non-empty reason with an item is a warning (row kept)."""
    m = _MARKER_RE.search(line)
    if not m:
        return None, "quiz marker does not parse"
    try:
        data = json.loads(m.group(1))
    except json.JSONDecodeError as exc:
        return None, f"quiz marker JSON does not parse ({exc.msg})"
    page = data.get("page")  # the pattern only captures {…}, so a parsed marker is always an object
    if not is_clean_page(page):
        return None, f"page {page!r} is not a clean relative .md path"
    box = _as_count(data.get("box"))
    if box is None or not 0 <= box <= MAX_BOX:
        return None, f"box {data.get('box')!r} is outside 0–{MAX_BOX}"
    due = _parse_date(data.get("due"))
    if due is None:
        return None, f"due {data.get('due')!r} is not YYYY-MM-DD"
    last: date | None = None
    if data.get("last") is not None:
        last = _parse_date(data["last"])
        if last is None:
            return None, f"last {data['last']!r} is not YYYY-MM-DD"
    result = data.get("lastResult")
    if result is not None and result not in RESULTS:
        return None, f"lastResult {result!r} is not correct|wrong|skip"
    asked, correct = _as_count(data.get("asked", 0)), _as_count(data.get("correct", 0))
    if asked is None or correct is None or asked < 0 or correct < 0:
        return None, "asked/correct are not non-negative integers"
    last_q = data.get("lastQ")
    fsrs_state, fsrs_warning = _read_fsrs(data.get("fsrs"))
    item = QuizItem(
        page=page,
        box=box,
        due=due,
        asked=asked,
        correct=correct,
        last=last,
        last_result=result,
        last_q=sanitize_question(last_q) if isinstance(last_q, str) else "",
        fsrs=fsrs_state,
    )
    warnings = [fsrs_warning, _text_disagrees(line[: m.start()], item)]
    if correct > asked:
        warnings.append(f"correct {correct} is more than asked {asked}; both are kept as written")
    return item, "; ".join(w for w in warnings if w)


def _text_disagrees(text: str, item: QuizItem) -> str:
    """Why the row's readable half (`render_row`'s "box B · due D · C/A") says otherwise than its marker, or "".
    The marker is the record and the next rewrite writes the text again from it: a hand edit of the text would be
    undone without a word."""
    m = _VISIBLE_RE.search(text)
    if m is None:
        return ""  # another layout: nothing to compare
    shown = f"box {m[1]} · due {m[2]} · {m[3]}/{m[4]}"
    held = f"box {item.box} · due {item.due.isoformat()} · {item.correct}/{item.asked}"
    if shown == held:
        return ""
    return (
        f"the row's text says {shown} and its marker {held}: the marker is what counts, and the next answer "
        "writes the text again from it"
    )


def _read_fsrs(value: object) -> tuple[dict[str, Any] | None, str]:
    if value is None:
        return None, ""
    unreadable = "fsrs state is unreadable; the row is kept and its card restarts"
    if not isinstance(value, dict):
        return None, unreadable
    from fsrs import Card  # only for a row that holds FSRS state

    try:
        card = Card.from_dict(value)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 — unreadable state is reported; the Leitner half of the row still counts
        return None, unreadable
    # Naive datetimes would make the next review raise; treat them as unreadable now rather than crash later.
    if card.due.tzinfo is None or (card.last_review is not None and card.last_review.tzinfo is None):
        return None, unreadable
    return value, ""


# --- notebook -------------------------------------------------------------------------------------------------------


def notebook_header(day: date, person: str) -> str:
    """The top of a new ``quiz/<date>.<person>.md`` notebook."""
    pid = person_id(person)
    head = {"kind": NOTEBOOK_KIND, "person": pid, "date": day, "tags": ["quiz", "memory"]}
    from .pagefmt import Style, dumps

    return dumps(head, f"\n# Quiz notebook — {day.isoformat()} ({pid})\n\n", style=Style.LEDGER)


def render_notebook_entry(
    question: str,
    typed_answer: str | None,
    verdict: str,
    grounded_answer: str,
    source: str,
    at: datetime,
) -> str:
    """One answered question as a Markdown block to append to the notebook.

    The heading carries the UTC time and the question; bullets give the typed answer, the verdict and the source
    (a link when it is a page path); the grounded answer (the page content, the answer key) follows as a quote.
    """
    stamp = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC)
    answer = _WS_RE.sub(" ", typed_answer or "").strip()
    lines = [
        f"## {stamp.strftime('%H:%M')} UTC — {_WS_RE.sub(' ', question).strip()}",
        "",
        f"- **Your answer:** {answer}" if answer else "- **Your answer:** _(none typed)_",
        f"- **Verdict:** {verdict.strip()}",
        f"- **Source:** {_source_link(source)}",
    ]
    grounded = grounded_answer.replace("\r\n", "\n").strip("\n")
    if grounded.strip():
        lines.append("")
        lines.extend(f"> {line}".rstrip() for line in grounded.split("\n"))
    return "\n".join(lines) + "\n\n"


def render_notebook_undo(answered_at: datetime, verdict: str, source: str, at: datetime) -> str:
    """The line appended to a notebook when an answer in it is undone (the notebook is append-only: the answer
    stays, and says it no longer counts)."""
    stamp = (answered_at if answered_at.tzinfo else answered_at.replace(tzinfo=UTC)).astimezone(UTC)
    when = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(UTC)
    return (
        f"- _Undone at {when.strftime('%H:%M')} UTC: the {verdict.strip() or 'recorded'} answer of "
        f"{stamp.strftime('%H:%M')} on {_source_link(source)} no longer counts; the ledger is as before it._\n\n"
    )


def _source_link(source: str) -> str:
    source = source.strip()
    if not is_clean_page(source):
        return source or "_(unknown)_"
    # The notebook lives in quiz/, pages are relative to the wiki root; angle brackets keep spaces link-safe.
    target = f"../{source}"
    if any(ch in target for ch in " ()<>"):
        target = f"<{target}>"
    return f"[{source}]({target})"

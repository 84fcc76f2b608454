"""Quiz policy (spec 5.3): the ledger file format, Leitner and FSRS scheduling, session selection, the notebook.

Pure functions only: nothing here reads the wiki, the clock or the environment. Callers pass text in and get text or
values back, with ``today`` (a UTC calendar date) and ``now`` (a UTC-aware datetime) given explicitly.

The ledger ``quiz/quiz-ledger.<person>.md`` is file-compatible with llmwiki's: the ``<!-- quiz:{json} -->`` marker on
each row is the source of truth, the human-readable part of the row is regenerated from it, and a ledger written here
parses in llmwiki (unknown frontmatter keys and the extra ``fsrs`` marker key are ignored there).

Decisions beyond the spec, in one place:

- Person ids follow llmwiki's sanitiser exactly (lower-case, ``[^a-z0-9._-]+`` → ``-``, strip leading/trailing ``-``
  and ``.``, then cut to 40 characters), so one person maps to the same file in both tools; an empty id becomes "me".
- The four standard frontmatter keys (``kind``, ``person``, ``scheduler``, ``updated``) are typed fields of
  :class:`Ledger`; every other frontmatter key is kept in ``Ledger.frontmatter`` in file order and written back.
- FSRS state rides in the row marker as an extra ``fsrs`` key (``Card.to_dict()``) written *after* the eight standard
  keys, so readers that ignore unknown keys (llmwiki) still parse the row.
- FSRS runs day-granular (no sub-day learning steps) and without interval fuzz: a quiz is a once-a-day ritual where an
  item answered today is never asked again today, and the ledger must be reproducible from (ledger, grade, now).
- FSRS box = the Leitner box whose interval is nearest the card's new interval (ties to the lower box), for display
  only; the card id is the first 53 bits of sha256(page) (stable, and exact for JavaScript readers).
- A page met under FSRS without stored card state (new, or carried over from Leitner) starts a fresh card; a Leitner
  answer drops any stored FSRS state, which would be stale if the ledger switched back.
- Only ``active`` pages rotate (superseded/denied/archived are the other statuses; an unknown one fails closed).
- A session never exceeds 7 items whatever ``limit`` asks (the spec's ceiling; llmwiki's is fixed the same way).
- ``due_count`` counts what a session could offer, never-quizzed pages included; ``session_counts`` splits it.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal, NamedTuple, TypeGuard

import yaml
from fsrs import Card, Rating, Scheduler
from pydantic import BaseModel, ConfigDict, Field

from .pages import yaml_alias_line

# --- constants ------------------------------------------------------------------------------------------------------

INTERVALS: tuple[int, ...] = (1, 3, 7, 16, 35, 60)
"""Leitner box intervals in days, index = box (0–5). The last box repeats as long-term maintenance."""

MAX_BOX = len(INTERVALS) - 1
MAX_SESSION = 7
LAST_Q_MAX = 200
PERSON_ID_MAX = 40
LEDGER_KIND = "quiz-ledger"
NOTEBOOK_KIND = "quiz-notebook"

SchedulerName = Literal["leitner", "fsrs"]
Result = Literal["correct", "wrong", "skip"]
Grade = Literal["again", "hard", "good", "easy", "skip"]
Reason = Literal["due-wrong", "due", "new"]

SCHEDULERS: tuple[str, ...] = ("leitner", "fsrs")
RESULTS: tuple[str, ...] = ("correct", "wrong", "skip")

# Every spelling a person or a script may use, folded onto Anki's four grades plus skip. "correct"/"wrong" are the
# llmwiki/CLI words and land on good/again, which is also how FSRS reads them.
_GRADE_ALIASES: dict[str, Grade] = {
    "again": "again", "1": "again", "wrong": "again",
    "hard": "hard", "2": "hard",
    "good": "good", "3": "good", "correct": "good",
    "easy": "easy", "4": "easy",
    "skip": "skip", "s": "skip",
}
_RESULT_OF_GRADE: dict[Grade, Result] = {
    "again": "wrong", "hard": "correct", "good": "correct", "easy": "correct", "skip": "skip",
}
_RATING_OF_GRADE: dict[Grade, Rating] = {
    # A skip is a failure to recall as far as the memory model is concerned; only the ledger's lastResult keeps the
    # difference so a skipped item is re-asked in the "due-wrong" group like a wrong one.
    "again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good, "easy": Rating.Easy, "skip": Rating.Again,
}

# Question-worthiness of a never-quizzed page: judgement first, execution detail last.
_CATEGORY_WEIGHT: dict[str, int] = {"direction": 4, "decision": 3, "milestone": 1}
_DEFAULT_WEIGHT = 2

# Day-granular FSRS with no fuzz: see the module docstring. One instance is enough, review_card never mutates it.
_FSRS_SCHEDULER = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)

_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MARKER_RE = re.compile(r"<!--\s*quiz:(\{.*\})\s*-->\s*$")
_ITEMS_HEADING_RE = re.compile(r"##\s+Items\s*\((\d+)\)\s*")
_WS_RE = re.compile(r"\s+")
_PERSON_BAD_RE = re.compile(r"[^a-z0-9._-]+")


# --- models ---------------------------------------------------------------------------------------------------------


class QuizItem(BaseModel):
    """One ledger row: a page that has been quizzed at least once (never-quizzed pages have no row)."""

    model_config = ConfigDict(frozen=True)

    page: str
    box: int = Field(ge=0, le=MAX_BOX)
    due: date
    asked: int = Field(ge=0)
    correct: int = Field(ge=0)
    last: date | None = None
    last_result: Result | None = None
    last_q: str = ""
    fsrs: dict[str, Any] | None = None

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


class Ledger(BaseModel):
    """A person's quiz ledger as parsed (or about to be rendered).

    ``frontmatter`` holds every frontmatter key other than the four typed ones (kind, person, scheduler, updated),
    in file order, so keys written by other tools survive a rewrite. ``problems`` lists the rows and header issues
    that parsing skipped, one ``"line N: why"`` each; a rewrite drops those rows.
    """

    model_config = ConfigDict(frozen=True)

    person: str = "me"
    scheduler: SchedulerName = "leitner"
    updated: date | None = None
    frontmatter: dict[str, Any] = Field(default_factory=dict)
    note: str = ""
    items: list[QuizItem] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)

    def item(self, page: str) -> QuizItem | None:
        for it in self.items:
            if it.page == page:
                return it
        return None


class QuizCandidate(BaseModel):
    """A live page as the quiz sees it (built by the store layer from the entry's frontmatter)."""

    model_config = ConfigDict(frozen=True)

    page: str
    category: str
    updated_at: datetime
    status: str = "active"
    tier: str = "warm"
    quiz_question: str | None = None
    title: str = ""
    recall: list[str] = Field(default_factory=list)


class Selected(BaseModel):
    """One pick of a session: why it was picked, its ledger row (None for a new page) and the question to ask."""

    model_config = ConfigDict(frozen=True)

    page: str
    reason: Reason
    item: QuizItem | None
    question: str
    candidate: QuizCandidate


class SessionCounts(NamedTuple):
    """What a session could offer today, before the 7-item limit."""

    due_wrong: int
    due: int
    new: int

    @property
    def total(self) -> int:
        return self.due_wrong + self.due + self.new


# --- small policies -------------------------------------------------------------------------------------------------


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


def parse_grade(grade: str) -> Grade:
    """Fold every accepted spelling (again/hard/good/easy, correct/wrong/skip, 1/2/3/4/s) onto a grade.

    Raises ``ValueError`` for anything else: a grade is caller input, and guessing would corrupt the schedule.
    """
    key = grade.strip().lower()
    if key not in _GRADE_ALIASES:
        raise ValueError(f"unknown quiz grade {grade!r}: use again|hard|good|easy, correct|wrong|skip or 1|2|3|4|s")
    return _GRADE_ALIASES[key]


def result_of(grade: str) -> Result:
    """The ledger's three-valued result for a grade (hard/good/easy are all "correct")."""
    return _RESULT_OF_GRADE[parse_grade(grade)]


def category_weight(category: str) -> int:
    return _CATEGORY_WEIGHT.get(category.strip().lower(), _DEFAULT_WEIGHT)


def in_rotation(candidate: QuizCandidate) -> bool:
    """Whether a page may be quizzed at all.

    Only ``active`` records rotate (the spec's superseded/denied/archived are exactly the other statuses, and an
    unknown status fails closed); drafts await a person and cold pages have left automatic recall.
    """
    return (
        candidate.status.strip().lower() == "active"
        and candidate.category.strip().lower() != "draft"
        and candidate.tier.strip().lower() != "cold"
    )


def build_question(candidate: QuizCandidate) -> str:
    """The page's own ``quiz_question`` when set, else a recall prompt from its title and up to two recall phrases."""
    if candidate.quiz_question and candidate.quiz_question.strip():
        return _WS_RE.sub(" ", candidate.quiz_question).strip()
    title = _WS_RE.sub(" ", candidate.title).strip() or candidate.page.rsplit("/", 1)[-1].removesuffix(".md")
    hints: list[str] = []
    for phrase in candidate.recall:
        phrase = _WS_RE.sub(" ", phrase).strip()
        if phrase and phrase not in hints:
            hints.append(phrase)
        if len(hints) == 2:
            break
    question = f"What do you remember about “{title}”?"
    return f"{question} (hint: {', '.join(hints)})" if hints else question


# --- ledger: new, parse, render -------------------------------------------------------------------------------------


def default_note(scheduler: SchedulerName) -> str:
    if scheduler == "fsrs":
        rule = "FSRS schedules each page from its own memory model (again/hard/good/easy); skip counts as again."
    else:
        days = "·".join(str(d) for d in INTERVALS)
        rule = f"correct → next box ({days} days), wrong/skip → box 0."
    return (
        "> Engine-managed by memkeeper: one row per quizzed page; the JSON marker that ends each row is the record, "
        "never hand-edit it.\n"
        f"> {rule} due ≤ today = up for review.\n"
        "> Quiz files are never retrieved as knowledge."
    )


def new_ledger(person: str, scheduler: SchedulerName = "leitner", today: date | None = None) -> Ledger:
    """An empty ledger for a person; ``scheduler`` is fixed per ledger ("leitner" or "fsrs")."""
    if scheduler not in SCHEDULERS:
        raise ValueError(f"unknown quiz scheduler {scheduler!r}: use leitner or fsrs")
    return Ledger(
        person=person_id(person),
        scheduler=scheduler,
        updated=today,
        frontmatter={"title": "Quiz ledger", "tags": ["quiz", "meta"]},
        note=default_note(scheduler),
    )


def parse_ledger(text: str, *, person: str | None = None) -> Ledger:
    """Read a ledger; never raises.

    Rows whose marker does not parse, whose page is not a clean relative ``.md`` path, whose box is outside 0–5 or
    whose dates are not ``YYYY-MM-DD`` are skipped and reported in ``problems`` ("line N: why"). ``person`` is the
    fallback id when the frontmatter has none (an llmwiki ledger carries its person only in the file name).
    """
    problems: list[str] = []
    if not isinstance(text, str):
        return Ledger(person=person_id(person or ""), problems=["line 1: ledger is not text"])
    lines = text.replace("\r\n", "\n").split("\n")
    if not text.strip():
        return Ledger(person=person_id(person or ""), problems=["line 1: empty ledger file"])

    raw_fm, body_start = _split_frontmatter(lines, problems)
    fm = dict(raw_fm)
    kind = fm.pop("kind", None)
    if kind is not None and kind != LEDGER_KIND:
        problems.append(f"line 1: frontmatter kind is {kind!r}, expected {LEDGER_KIND!r}")
    pid = _read_person(fm.pop("person", None), person, problems)
    scheduler = _read_scheduler(fm.pop("scheduler", None), problems)
    updated = _read_updated(fm.pop("updated", None), problems)

    body = lines[body_start:]
    heading_at = next((i for i, line in enumerate(body) if _ITEMS_HEADING_RE.fullmatch(line)), None)
    items: list[QuizItem] = []
    seen: set[str] = set()
    if heading_at is None:
        problems.append(f"line {body_start + 1}: no '## Items (N)' heading")
        note = ""
        # llmwiki reads markers wherever they are; do the same so a damaged header loses no history.
        for offset, line in enumerate(body):
            if "<!--" in line and "quiz:" in line:
                _take_row(line, body_start + offset + 1, items, seen, problems)
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
                rows += 1
                _take_row(line, lineno, items, seen, problems)
            elif stripped.startswith("- "):
                rows += 1
                problems.append(f"line {lineno}: row has no quiz marker")
            else:
                problems.append(f"line {lineno}: unexpected text under the items heading (dropped on rewrite)")
        if declared != rows:
            problems.append(f"line {heading_line}: heading says {declared} items, {rows} rows follow")

    return Ledger(
        person=pid, scheduler=scheduler, updated=updated, frontmatter=fm, note=note, items=items, problems=problems
    )


def render_ledger(ledger: Ledger) -> str:
    """Write a ledger. Byte-stable: ``render_ledger(parse_ledger(render_ledger(x))) == render_ledger(x)``."""
    head: dict[str, Any] = {"kind": LEDGER_KIND, "person": ledger.person, "scheduler": ledger.scheduler}
    if ledger.updated is not None:
        head["updated"] = ledger.updated
    for key, value in ledger.frontmatter.items():
        if key not in ("kind", "person", "scheduler", "updated"):
            head[key] = value
    items = sorted(ledger.items, key=lambda it: (it.due, it.page))
    rows = "\n".join(render_row(it) for it in items) if items else "(none)"
    # parse_ledger reads CRLF files as LF; writing the note the same way keeps the round trip byte-stable.
    note = ledger.note.replace("\r\n", "\n").strip()
    parts = ["---\n", _dump_yaml(head), "---\n\n"]
    if note:
        parts.append(note + "\n\n")
    parts.append(f"## Items ({len(items)})\n\n{rows}\n")
    return "".join(parts)


def render_row(item: QuizItem) -> str:
    """One ledger row in llmwiki's exact layout; the readable half is derived from the marker."""
    last = f"{item.last.isoformat()} {item.last_result or ''}".rstrip() if item.last else "never"
    marker = json.dumps(item.marker(), ensure_ascii=False, separators=(",", ":"))
    return (
        f"- {item.page} — box {item.box} · due {item.due.isoformat()} · {item.correct}/{item.asked} · last {last}"
        f"  <!-- quiz:{marker} -->"
    )


def _split_frontmatter(lines: list[str], problems: list[str]) -> tuple[dict[str, Any], int]:
    if not lines or lines[0].rstrip() != "---":
        problems.append("line 1: no frontmatter")
        return {}, 0
    close = next((i for i in range(1, len(lines)) if lines[i].rstrip() == "---"), None)
    if close is None:
        problems.append("line 1: frontmatter is never closed")
        return {}, 1
    raw = "\n".join(lines[1:close])
    alias = yaml_alias_line(raw)
    if alias is not None:
        # A few bytes of aliases can expand to gigabytes: refused, like in every other memkeeper file.
        problems.append(f"line {alias + 1}: frontmatter uses YAML anchors/aliases, which are not allowed")
        return {}, close + 1
    try:
        loaded = yaml.safe_load(raw)
    except Exception as exc:  # noqa: BLE001 — any YAML failure is a reported problem, never a crash
        problems.append(f"line 1: frontmatter does not parse: {type(exc).__name__}")
        return {}, close + 1
    if loaded is None:
        return {}, close + 1
    if not isinstance(loaded, dict):
        problems.append("line 1: frontmatter is not a mapping")
        return {}, close + 1
    return {str(k): v for k, v in loaded.items()}, close + 1


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


def _take_row(line: str, lineno: int, items: list[QuizItem], seen: set[str], problems: list[str]) -> None:
    item, why = _parse_row(line)
    if item is None:
        problems.append(f"line {lineno}: {why}")
    elif item.page in seen:
        problems.append(f"line {lineno}: {item.page} is listed twice; the first row is kept")
    else:
        seen.add(item.page)
        items.append(item)
        if why:
            problems.append(f"line {lineno}: {why}")


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
    fsrs_state, warning = _read_fsrs(data.get("fsrs"))
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
    return item, warning


def _read_fsrs(value: object) -> tuple[dict[str, Any] | None, str]:
    if value is None:
        return None, ""
    unreadable = "fsrs state is unreadable; the row is kept and its card restarts"
    if not isinstance(value, dict):
        return None, unreadable
    try:
        card = Card.from_dict(value)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 — unreadable state is reported; the Leitner half of the row still counts
        return None, unreadable
    # Naive datetimes would make the next review raise; treat them as unreadable now rather than crash later.
    if card.due.tzinfo is None or (card.last_review is not None and card.last_review.tzinfo is None):
        return None, unreadable
    return value, ""


def _dump_yaml(data: Mapping[str, Any]) -> str:
    # Flow style for scalar lists (`tags: [quiz, meta]`, as llmwiki writes) and no line folding, so a dump of a
    # loaded dump is the same bytes. Raw Unicode reads best, but PyYAML writes some characters raw that it cannot
    # read back (NEL, U+0085); when the readable form does not survive a reload, fall back to escaped ASCII.
    plain = dict(data)
    options: dict[str, Any] = {"sort_keys": False, "default_flow_style": None, "width": 2**31 - 1}
    text = yaml.safe_dump(plain, allow_unicode=True, **options)
    try:
        if yaml.safe_load(text) == plain:
            return text
    except yaml.YAMLError:
        pass
    return yaml.safe_dump(plain, allow_unicode=False, **options)


# --- scheduling -----------------------------------------------------------------------------------------------------


def card_id_for(page: str) -> int:
    """A stable FSRS card id: the first 53 bits of sha256(page), so a page keeps its id across runs and machines
    (``fsrs.Card()`` would otherwise read the clock and sleep to invent one). 53 bits keep the id exact for
    JavaScript readers of the marker (llmwiki's side of the file)."""
    return int.from_bytes(hashlib.sha256(page.encode("utf-8")).digest()[:8], "big") >> 11


def box_for_interval(days: float) -> int:
    """Display bucket for an FSRS interval: the Leitner box whose interval is nearest; ties go to the lower box."""
    return min(range(len(INTERVALS)), key=lambda b: (abs(INTERVALS[b] - days), b))


def record_answer(
    ledger: Ledger,
    page: str,
    grade: str,
    today: date,
    question: str | None = None,
    now: datetime | None = None,
) -> tuple[Ledger, QuizItem, QuizItem | None]:
    """Record one answer; returns ``(new_ledger, new_item, prior_item)`` and leaves the inputs untouched (undo =
    keep the old ledger). ``prior_item`` is None when the page enters the ledger with this answer.

    Leitner: correct → box + 1 (a new page → box 1), capped at 5; wrong/skip → box 0; due = today + interval(box).
    FSRS: again/hard/good/easy are the card's rating (skip = again), reviewed at ``now`` (UTC-aware, required);
    due = the UTC date of the card's due, box = :func:`box_for_interval`. Both: asked + 1, correct + 1 on a correct
    result, ``lastResult`` is correct/wrong/skip, ``lastQ`` is the sanitised question (the prior one when None).
    Raises ``ValueError`` for an unknown grade, an unclean page, or FSRS without an aware ``now``.
    """
    g = parse_grade(grade)
    if not is_clean_page(page):
        raise ValueError(f"quiz page {page!r} is not a clean relative .md path")
    result = _RESULT_OF_GRADE[g]
    prior = ledger.item(page)

    if ledger.scheduler == "fsrs":
        box, due, fsrs_state = _fsrs_step(prior, page, g, now)
    else:
        box = min((prior.box if prior else 0) + 1, MAX_BOX) if result == "correct" else 0
        due, fsrs_state = today + timedelta(days=INTERVALS[box]), None

    last_q = sanitize_question(question) if question is not None else (prior.last_q if prior else "")
    item = QuizItem(
        page=page,
        box=box,
        due=due,
        asked=(prior.asked if prior else 0) + 1,
        correct=(prior.correct if prior else 0) + (1 if result == "correct" else 0),
        last=today,
        last_result=result,
        last_q=last_q,
        fsrs=fsrs_state,
    )
    others = [it for it in ledger.items if it.page != page]
    items = sorted([*others, item], key=lambda it: (it.due, it.page))
    return ledger.model_copy(update={"items": items, "updated": today}), item, prior


def _fsrs_step(
    prior: QuizItem | None, page: str, grade: Grade, now: datetime | None
) -> tuple[int, date, dict[str, Any]]:
    if now is None or now.tzinfo is None:
        raise ValueError("FSRS scheduling needs an explicit timezone-aware `now`")
    # fsrs insists on tzinfo == timezone.utc exactly (a ZoneInfo("UTC") is refused), so normalise.
    at = now.astimezone(UTC)
    if prior is not None and prior.fsrs is not None:
        card = Card.from_dict(prior.fsrs)  # type: ignore[arg-type]
    else:
        # A page first met under FSRS (or carried over from Leitner) starts a fresh card; passing both id and due
        # keeps fsrs from reading the clock or sleeping.
        card = Card(card_id=card_id_for(page), due=at)
    reviewed, _log = _FSRS_SCHEDULER.review_card(card, _RATING_OF_GRADE[grade], review_datetime=at)
    days = (reviewed.due - at).total_seconds() / 86400
    return box_for_interval(days), reviewed.due.astimezone(UTC).date(), dict(reviewed.to_dict())


def prune_vanished(ledger: Ledger, live_pages: Iterable[str]) -> tuple[Ledger, list[str]]:
    """Drop rows whose page no longer exists; returns the new ledger and the removed pages (sorted).

    ``live_pages`` is every existing page, in rotation or not: a superseded or cold page keeps its history in case it
    comes back; only a vanished page loses it.
    """
    live = set(live_pages)
    removed = sorted(it.page for it in ledger.items if it.page not in live)
    if not removed:
        return ledger, []
    kept = [it for it in ledger.items if it.page in live]
    return ledger.model_copy(update={"items": kept}), removed


def weak_spots(ledger: Ledger) -> list[QuizItem]:
    """Items asked at least 3 times with under 50% correct, worst ratio first (then most asked, then page)."""
    weak = [it for it in ledger.items if it.asked >= 3 and it.correct / it.asked < 0.5]
    return sorted(weak, key=lambda it: (it.correct / it.asked, -it.asked, it.page))


# --- selection ------------------------------------------------------------------------------------------------------


def _timestamp(moment: datetime) -> float:
    # Candidates come from page frontmatter; a naive time is read as UTC (the engine writes UTC only).
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _ranked(ledger: Ledger, candidates: Sequence[QuizCandidate], today: date) -> list[Selected]:
    live: dict[str, QuizCandidate] = {}
    for cand in candidates:
        if in_rotation(cand):
            live.setdefault(cand.page, cand)
    in_ledger = {it.page for it in ledger.items}

    due = [
        it
        for it in ledger.items
        if it.page in live and it.last != today and it.due <= today
    ]
    due.sort(key=lambda it: (it.due, it.page))
    wrong = [it for it in due if it.last_result in ("wrong", "skip")]
    review = [it for it in due if it.last_result not in ("wrong", "skip")]
    fresh = sorted(
        (c for c in live.values() if c.page not in in_ledger),
        key=lambda c: (-category_weight(c.category), -_timestamp(c.updated_at), c.page),
    )

    def pick(it: QuizItem, reason: Reason) -> Selected:
        cand = live[it.page]
        return Selected(page=it.page, reason=reason, item=it, question=build_question(cand), candidate=cand)

    return (
        [pick(it, "due-wrong") for it in wrong]
        + [pick(it, "due") for it in review]
        + [Selected(page=c.page, reason="new", item=None, question=build_question(c), candidate=c) for c in fresh]
    )


def select_session(
    ledger: Ledger, candidates: Sequence[QuizCandidate], today: date, limit: int = MAX_SESSION
) -> list[Selected]:
    """Today's session, at most ``min(limit, 7)`` picks.

    Order: due wrong/skip items by (due, page); other due items by (due, page); never-quizzed pages by weight
    (direction 4, decision 3, others 2, milestone 1), newest ``updated_at``, page. Items answered today, pages out of
    rotation (see :func:`in_rotation`) and ledger rows whose page is not among ``candidates`` are never picked.
    """
    return _ranked(ledger, candidates, today)[: max(0, min(limit, MAX_SESSION))]


def session_counts(ledger: Ledger, candidates: Sequence[QuizCandidate], today: date) -> SessionCounts:
    """How many picks each group could offer today, ignoring the session limit."""
    ranked = _ranked(ledger, candidates, today)
    return SessionCounts(
        due_wrong=sum(1 for s in ranked if s.reason == "due-wrong"),
        due=sum(1 for s in ranked if s.reason == "due"),
        new=sum(1 for s in ranked if s.reason == "new"),
    )


def due_count(ledger: Ledger, candidates: Sequence[QuizCandidate], today: date) -> int:
    """Everything :func:`select_session` would offer without its limit (due items plus never-quizzed pages)."""
    return session_counts(ledger, candidates, today).total


# --- notebook -------------------------------------------------------------------------------------------------------


def notebook_header(day: date, person: str) -> str:
    """The top of a new ``quiz/<date>.<person>.md`` notebook."""
    pid = person_id(person)
    head = {"kind": NOTEBOOK_KIND, "person": pid, "date": day, "tags": ["quiz", "memory"]}
    return f"---\n{_dump_yaml(head)}---\n\n# Quiz notebook — {day.isoformat()} ({pid})\n\n"


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


def _source_link(source: str) -> str:
    source = source.strip()
    if not is_clean_page(source):
        return source or "_(unknown)_"
    # The notebook lives in quiz/, pages are relative to the wiki root; angle brackets keep spaces link-safe.
    target = f"../{source}"
    if any(ch in target for ch in " ()<>"):
        target = f"<{target}>"
    return f"[{source}]({target})"

"""Quiz scheduling (spec 5.3): grades, Leitner and FSRS, session selection.

Pure functions only: nothing here reads the wiki, the clock or the environment. Callers pass values in and get values
back, with ``today`` (a UTC calendar date) and ``now`` (a UTC-aware datetime) given explicitly. The ledger and
notebook file formats are ``quiz_ledger.py``; their names are importable from here too, so the engine and the desk
see one quiz policy.

Decisions beyond the spec, in one place:

- FSRS runs day-granular (no sub-day learning steps, and every time it reads is the start of its UTC day) and without
  interval fuzz: a quiz is a once-a-day ritual where an item answered today is never asked again today, and the
  ledger must be reproducible from (ledger, grade, now).
- FSRS box = the Leitner box whose interval is nearest the card's new interval (ties to the lower box), for display
  only; the card id is the first 53 bits of sha256(page) (stable, and exact for JavaScript readers).
- A page met under FSRS without stored card state (new, or carried over from Leitner) starts a fresh card; a Leitner
  answer drops any stored FSRS state, which would be stale if the ledger switched back.
- Only ``active`` pages rotate (superseded/denied/archived are the other statuses; an unknown one fails closed).
- A session never exceeds 7 items whatever ``limit`` asks (the spec's ceiling; llmwiki's is fixed the same way).
- At most 20 never-quizzed pages join the rotation per quiz day (Anki's default new-card limit): a page whose first
  answer is today (``asked == 1``, ``last >= today``) uses one of them. So "due today" is a number a person can
  finish, and it falls with every answer. "Today" is the person's day (``quiz_day``: UTC, or their ``time_zone``);
  a ``last`` after it (the zone moved west since) counts as today: the card is not asked or promoted again.
- ``due_count`` counts what sessions could offer today (due items plus the day's remaining new pages), past the
  7-item session cap; ``session_counts`` splits it.
- A buried page (``buried: {page: date}`` in the ledger frontmatter, the UTC day it was buried) is left out of that
  day's sessions and counts, with its row untouched; entries from earlier days are pruned on the next bury.
- ``preview_intervals`` runs the ledger's own scheduler for every grade without writing: what Anki shows on its
  answer buttons.
- A question is the page's ``quiz_question``, else a cloze over the key value of its content (``build_cloze``; of a
  long page, its first ``CLOZE_CHARS`` characters), else the title prompt.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from . import unspaced
from .quiz_ledger import (
    LAST_Q_MAX,
    LEDGER_KIND,
    MAX_BOX,
    NOTEBOOK_KIND,
    PERSON_ID_MAX,
    RESULTS,
    SCHEDULERS,
    ZONE_KEY,
    Ledger,
    QuizItem,
    Result,
    SchedulerName,
    Value,
    is_clean_page,
    ledger_path,
    ledger_zone,
    ledger_zone_problem,
    notebook_header,
    notebook_path,
    parse_ledger,
    person_id,
    quiz_day,
    render_ledger,
    render_notebook_entry,
    render_notebook_undo,
    render_row,
    sanitize_question,
    with_zone,
    zone_key,
    zone_named,
)
from .slots import Tok, analyze, fold
from .slots.markdown import plain_blocks

if TYPE_CHECKING:
    from fsrs import Card, Scheduler

__all__ = [  # the ledger format's names, importable from the quiz policy as before
    "ZONE_KEY",
    "ledger_zone",
    "ledger_zone_problem",
    "quiz_day",
    "with_zone",
    "zone_key",
    "zone_named",
    "LAST_Q_MAX",
    "LEDGER_KIND",
    "MAX_BOX",
    "NOTEBOOK_KIND",
    "PERSON_ID_MAX",
    "RESULTS",
    "SCHEDULERS",
    "Ledger",
    "QuizItem",
    "Result",
    "SchedulerName",
    "is_clean_page",
    "ledger_path",
    "notebook_header",
    "notebook_path",
    "parse_ledger",
    "person_id",
    "render_ledger",
    "render_notebook_entry",
    "render_notebook_undo",
    "render_row",
    "sanitize_question",
]

# --- constants ------------------------------------------------------------------------------------------------------

INTERVALS: tuple[int, ...] = (1, 3, 7, 16, 35, 60)
"""Leitner box intervals in days, index = box (0–5). The last box repeats as long-term maintenance."""
assert len(INTERVALS) == MAX_BOX + 1

MAX_SESSION = 7
NEW_PER_DAY = 20
"""Never-quizzed pages that may join the rotation per UTC day (Anki's default new-card limit)."""
BURIED_KEY = "buried"
"""The ledger frontmatter key holding ``{page: the UTC day it was buried}`` (llmwiki keeps unknown keys as they are)."""

Grade = Literal["again", "hard", "good", "easy", "skip"]
Reason = Literal["due-wrong", "due", "new"]


# Every spelling a person or a script may use, folded onto Anki's four grades plus skip. "correct"/"wrong" are the
# llmwiki/CLI words and land on good/again, which is also how FSRS reads them.
_GRADE_ALIASES: dict[str, Grade] = {
    "again": "again",
    "1": "again",
    "wrong": "again",
    "hard": "hard",
    "2": "hard",
    "good": "good",
    "3": "good",
    "correct": "good",
    "easy": "easy",
    "4": "easy",
    "skip": "skip",
    "s": "skip",
}
_RESULT_OF_GRADE: dict[Grade, Result] = {
    "again": "wrong",
    "hard": "correct",
    "good": "correct",
    "easy": "correct",
    "skip": "skip",
}
_RATING_OF_GRADE: dict[Grade, str] = {  # the name of each grade's fsrs.Rating
    # A skip is a failure to recall as far as the memory model is concerned; only the ledger's lastResult keeps the
    # difference so a skipped item is re-asked in the "due-wrong" group like a wrong one.
    "again": "Again",
    "hard": "Hard",
    "good": "Good",
    "easy": "Easy",
    "skip": "Again",
}

# Question-worthiness of a never-quizzed page: judgement first, execution detail last.
_CATEGORY_WEIGHT: dict[str, int] = {"direction": 4, "decision": 3, "milestone": 1}
_DEFAULT_WEIGHT = 2


@cache
def _fsrs_scheduler() -> Scheduler:
    """Day-granular FSRS with no fuzz: see the module docstring. One instance is enough, review_card never mutates
    it. Made (and fsrs imported) on the first FSRS answer or preview: counting due items never needs it."""
    from fsrs import Scheduler

    return Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)


_WS_RE = re.compile(r"\s+")


# --- models ---------------------------------------------------------------------------------------------------------


class QuizCandidate(Value):
    """A live page as the quiz sees it (built by the store layer from the entry's frontmatter)."""

    __slots__ = ("page", "category", "updated_at", "status", "tier", "quiz_question", "title", "recall", "content")
    page: str
    category: str
    updated_at: datetime
    status: str
    tier: str
    quiz_question: str | None
    title: str
    recall: list[str]
    content: str

    def __init__(
        self,
        *,
        page: str,
        category: str,
        updated_at: datetime,
        status: str = "active",
        tier: str = "warm",
        quiz_question: str | None = None,
        title: str = "",
        recall: Sequence[str] = (),
        content: str = "",
    ) -> None:
        self._set(
            page=page,
            category=category,
            updated_at=updated_at,
            status=status,
            tier=tier,
            quiz_question=quiz_question,
            title=title,
            recall=list(recall),
            content=content,
        )


class Cloze(NamedTuple):
    """A question that hides the key value of a page's content: ``text`` is the content (of a long one, its opening
    and " …": ``CLOZE_CHARS``) with ``content[start:end]`` replaced by ``[…]``."""

    text: str
    start: int
    end: int
    hidden: str


class Selected(Value):
    """One pick of a session: why it was picked, its ledger row (None for a new page) and the question to ask."""

    __slots__ = ("page", "reason", "item", "question", "candidate")
    page: str
    reason: Reason
    item: QuizItem | None
    question: str
    candidate: QuizCandidate

    def __init__(
        self, *, page: str, reason: Reason, item: QuizItem | None, question: str, candidate: QuizCandidate
    ) -> None:
        self._set(page=page, reason=reason, item=item, question=question, candidate=candidate)


class SessionCounts(NamedTuple):
    """What a session could offer today, before the 7-item limit."""

    due_wrong: int
    due: int
    new: int

    @property
    def total(self) -> int:
        return self.due_wrong + self.due + self.new


# --- small policies -------------------------------------------------------------------------------------------------


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


def question_cloze(candidate: QuizCandidate) -> Cloze | None:
    """The cloze a question is built from: None when the page has its own ``quiz_question`` or no key value."""
    if candidate.quiz_question and candidate.quiz_question.strip():
        return None
    return build_cloze(candidate.content, candidate.title)


def build_question(candidate: QuizCandidate) -> str:
    """The page's own ``quiz_question`` when set, else a cloze over the key value of its content
    (:func:`build_cloze`), else a recall prompt from its title and up to two recall phrases."""
    if candidate.quiz_question and candidate.quiz_question.strip():
        return _WS_RE.sub(" ", candidate.quiz_question).strip()
    cloze = build_cloze(candidate.content, candidate.title)
    if cloze is not None:
        return cloze.text
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


# --- cloze questions ------------------------------------------------------------------------------------------------

CLOZE_GAP = "[…]"
# A question shows, and its cloze is read from, at most a note's first 1,000 characters (`_opening`): about a dozen
# lines of a terminal, past which a question is no longer one a person reads through (the desk shows 240 characters
# either side of the gap; `quiz due` prints a question on one line). A longer note is asked from its opening, "…"
# marking that it goes on; the revealed answer is the whole page. Reading the whole note cost its length: analyze()
# over a 55 KB list took seconds.
CLOZE_CHARS = 1_000
CLOZE_MORE = " …"
_SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*\s|[。！？]")


def _opening(content: str) -> int:
    """Where the part of ``content`` a question shows ends: all of a note of up to ``CLOZE_CHARS`` characters; of a
    longer one, its first ``CLOZE_CHARS`` cut at their last line break, or, when that leaves less than half of them
    (one long line), after their last sentence, else at their last space."""
    if len(content) <= CLOZE_CHARS:
        return len(content)
    half = CLOZE_CHARS // 2
    cut = content.rfind("\n", half, CLOZE_CHARS + 1)
    if cut < 0:
        ends = [m.end() for m in _SENTENCE_END.finditer(content, half, CLOZE_CHARS + 1)]
        cut = ends[-1] if ends else content.rfind(" ", half, CLOZE_CHARS + 1)
    if cut < 0:
        return CLOZE_CHARS
    return len(content[:cut].rstrip())


FUNCTION_WORDS_FILE = Path(__file__).parent / "data" / "function_words.json"

# How much a kind of value is the point of a statement, best first: a quantity with its unit, a date, a time, a weekday, a
# person (a name of two words or more), a member of a value class (a database, a language, a time zone...), then a
# single capitalised name that does not open a sentence (a product, an identifier). Bare numbers, frequencies,
# places and addresses are never hidden on their own, and an amount spelled without digits comes last. The kinds are
# the slot readers' (``slots.Value.kind``).
_CLOZE_RANK: dict[str, int] = {
    "quantity": 0,
    "duration": 0,
    "rate": 0,
    "date": 1,
    "time": 2,
    "weekday": 3,
    "enum": 5,
    "version": 5,
}
_NAME_RANK, _SINGLE_NAME_RANK = 4, 6
_SPELLED_RANK = 7  # an amount written without digits ("an hour", "twelve partners") is rarely the point
_NUMERIC_KINDS = frozenset({"quantity", "duration", "rate", "date", "time"})
_CLOZE_MIN_WORDS_LEFT = 2  # a question must keep some context besides the gap (`unspaced.word_count`)
# Values written side by side are hidden together when they are parts of one value: one moment or schedule (a date, a
# weekday, a time, a part of the day, how often, a time zone: "Friday 15:00 UTC", "every Monday morning"), one amount
# ("5 hours 30 minutes"), or one thing (a name, a member of a value class, its version, the kind of place it is:
# "PostgreSQL 16", "Harbor Street", "Oakwood Primary School"). A bare number is part of whatever value it is written
# beside ("18 °C", "PostgreSQL 16" where the readers take 16 for a count). Values of different families are different
# values ("ops-team@example.com every Monday morning" is an address and a schedule), and an address or a label is a
# whole value on its own.
_FAMILY: dict[str, str] = {
    "date": "when",
    "time": "when",
    "weekday": "when",
    "daypart": "when",
    "frequency": "when",
    "quantity": "amount",
    "duration": "amount",
    "rate": "amount",
    "enum": "thing",
    "version": "thing",
    "place": "thing",
}
_NAME_FAMILY = "thing"
_BARE_NUMBER = "number"  # joins any family


def _family(kind: str, key: str) -> str | None:
    """The family of values a value of ``kind`` (and class ``key``) is hidden together with; None: none."""
    if kind == "quantity" and not key:
        return _BARE_NUMBER
    return "when" if kind == "enum" and key == "time_zone" else _FAMILY.get(kind)


# --- code: never read for a cloze ---
# A note's code (a fenced block with its fence lines and info string, an inline code span with its backticks) is
# written for a machine: its values are not the statement's, and a gap in it breaks what it says ("image:
# postgres:[…]: always"). The readers are given the note with its code blanked; a gap never touches code.
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})([^\n]*)$", re.M)
_TICKS_OR_BLANK_LINE = re.compile(r"`+|\n[ \t\r]*(?=\n)")


def _code_ranges(content: str) -> list[tuple[int, int]]:
    """Where ``content`` is code, as (start, end) in order: fenced blocks, from their opening fence's line to their
    closing fence's (to the end of the note when it is never closed, as CommonMark reads it; a fence may be indented,
    as in a list item), and inline code spans, from a run of backticks to the next run of as many in the same
    paragraph (an unmatched run is a backtick as written). Indented code blocks are not told from indented lines."""
    out: list[tuple[int, int]] = []
    at = 0  # where the prose after the last fenced block starts
    opened: tuple[str, int, int] | None = None  # the fence's character, its length, where its line starts
    for m in _FENCE.finditer(content):
        run, rest = m.group(1), m.group(2)
        if opened is None:
            if run[0] == "`" and "`" in rest:
                continue  # "```x```": code in a line, not a fence
            out.extend(_inline_code(content, at, m.start()))
            opened = (run[0], len(run), m.start())
        elif run[0] == opened[0] and len(run) >= opened[1] and not rest.strip():
            out.append((opened[2], m.end()))
            at, opened = m.end(), None
    if opened is not None:
        out.append((opened[2], len(content)))
    else:
        out.extend(_inline_code(content, at, len(content)))
    return out


def _inline_code(content: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The inline code spans of ``content[lo:hi]`` (prose outside fenced blocks)."""
    runs: list[tuple[int, int]] = []  # backtick runs, a blank line as (position, 0)
    for m in _TICKS_OR_BLANK_LINE.finditer(content, lo, hi):
        runs.append((m.start(), m.end() - m.start() if m.group(0)[0] == "`" else 0))
    # for each run, the next run of as many backticks in its paragraph
    following: list[int | None] = [None] * len(runs)
    seen: dict[int, int] = {}
    for i in range(len(runs) - 1, -1, -1):
        size = runs[i][1]
        if size == 0:
            seen.clear()
            continue
        following[i] = seen.get(size)
        seen[size] = i
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(runs):
        j = following[i]
        if j is None:
            i += 1
            continue
        out.append((runs[i][0], runs[j][0] + runs[j][1]))
        i = j + 1
    return out


def _blank_code(content: str, code: Sequence[tuple[int, int]]) -> str:
    """``content`` with each character of its code a space (each line break kept): offsets stay those of the note."""
    if not code:
        return content
    parts: list[str] = []
    at = 0
    for a, b in code:
        parts.append(content[at:a])
        parts.append(re.sub(r"[^\n]", " ", content[a:b]))
        at = b
    parts.append(content[at:])
    return "".join(parts)


_LINE_BREAK = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")  # where `str.splitlines` ends a line


def _folded_with_origins(content: str) -> tuple[str, list[int]]:
    """``content`` folded (as the slot readers fold it) with whitespace runs collapsed, and for each character of the
    result the index of the character of ``content`` it came from."""
    chars: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(content):
        for out in fold(ch):
            if out.isspace():
                if not chars or chars[-1] == " ":
                    continue
                out = " "
            chars.append(out)
            origin.append(i)
    while chars and chars[-1] == " ":
        chars.pop()
        origin.pop()
    return "".join(chars), origin


# --- Chinese, Japanese and Korean for the readers ---
# The slot readers read English: a run of Chinese or Japanese letters is one word to them ("生产数据库运行在5432端口"),
# and they know dates, times and weekdays written in English. For a cloze, a note in these scripts is read as spaced
# at each edge of a run of their letters ("生产数据库运行在 5432 端口"), with its dates, times and weekdays written as
# the readers know them ("2026年3月15日" as "2026-03-15", "周三" as "Wednesday", "下午3点" as "15:00"); what a
# reader finds there is hidden in the note as written.

_WIDE_OR_HANGUL = re.compile(f"[{unspaced.LETTERS}\uac00-\ud7a3]")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = tuple("January February March April May June July August September October November December".split())
_CJK_WEEKDAY = {c: d for c, d in zip("一二三四五六日天", (*_WEEKDAYS, "Sunday"), strict=True)}
_JA_WEEKDAY = {c: d for c, d in zip("月火水木金土日", _WEEKDAYS, strict=True)}
_KO_WEEKDAY = {c: d for c, d in zip("월화수목금토일", _WEEKDAYS, strict=True)}
_LATER_HALF = ("下午", "晚上", "傍晚", "午後", "夜", "오후", "저녁", "밤")
_CJK_VALUE = re.compile(
    r"(?P<y>\d{4})\s?[年년]\s?(?P<ym>\d{1,2})\s?[月월]\s?(?P<yd>\d{1,2})\s?[日号號일]"
    r"|(?<!\d)(?P<m>\d{1,2})\s?[月월]\s?(?P<d>\d{1,2})\s?[日号號일]"
    r"|(?:星期|礼拜|禮拜|周|週)(?P<zw>[一二三四五六日天])"
    r"|(?P<jw>[月火水木金土日])曜日?"
    r"|(?<![\uac00-\ud7a3])(?P<kw>[월화수목금토일])요일"
    r"|(?P<half>上午|早上|凌晨|中午|下午|晚上|傍晚|午前|午後|夜|오전|오후|저녁|밤)?\s?"
    r"(?<!\d)(?P<h>\d{1,2})\s?(?:[点點时時](?![间間])|시(?!간))(?:\s?(?P<min>\d{1,2})\s?[分분]|(?P<half_hour>半|반))?"
)
_CJK_STOPS = {"。": ".", "、": ","}


def _cjk_value(m: re.Match[str]) -> str | None:
    """What the readers read for a date, weekday or time of Chinese, Japanese or Korean; None for none."""
    if m.group("y"):
        month, day = int(m.group("ym")), int(m.group("yd"))
        return f"{m.group('y')}-{month:02d}-{day:02d}" if 1 <= month <= 12 and 1 <= day <= 31 else None
    if m.group("m"):
        month, day = int(m.group("m")), int(m.group("d"))
        return f"{_MONTHS[month - 1]} {day}" if 1 <= month <= 12 and 1 <= day <= 31 else None
    if m.group("zw"):
        return _CJK_WEEKDAY[m.group("zw")]
    if m.group("jw"):
        return _JA_WEEKDAY[m.group("jw")]
    if m.group("kw"):
        return _KO_WEEKDAY[m.group("kw")]
    hour, minute = int(m.group("h")), int(m.group("min") or (30 if m.group("half_hour") else 0))
    if m.group("half") in _LATER_HALF and hour < 12:
        hour += 12
    return f"{hour:02d}:{minute:02d}" if hour <= 24 and minute < 60 else None


def _spaced_for_readers(text: str, first: list[int], last: list[int]) -> tuple[str, list[int], list[int]]:
    """``text`` (the folded content, with the first and last character of the content each of its characters came
    from) as the readers are given a note in Chinese, Japanese or Korean; each character written for a date, time
    or weekday comes from all of what it stands for."""
    chars: list[str] = []
    lo: list[int] = []
    hi: list[int] = []

    def put(out: str, a: int, b: int) -> None:
        for ch in out:
            chars.append(ch)
            lo.append(a)
            hi.append(b)

    at = 0
    for m in _CJK_VALUE.finditer(text):
        value = _cjk_value(m)
        if value is None or not m.group(0).strip():
            continue
        for i in range(at, m.start()):
            put(_CJK_STOPS.get(text[i], text[i]), first[i], last[i])
        put(value, first[m.start()], last[m.end() - 1])
        at = m.end()
    for i in range(at, len(text)):
        put(_CJK_STOPS.get(text[i], text[i]), first[i], last[i])
    # a space at each edge of a run of these letters: "在5432端口" reads as "在 5432 端口"
    out: list[str] = []
    out_lo: list[int] = []
    out_hi: list[int] = []
    for i, ch in enumerate(chars):
        if i and not ch.isspace() and not chars[i - 1].isspace():
            if bool(_WIDE_OR_HANGUL.match(ch)) != bool(_WIDE_OR_HANGUL.match(chars[i - 1])):
                out.append(" ")
                out_lo.append(lo[i])
                out_hi.append(hi[i])
        out.append(ch)
        out_lo.append(lo[i])
        out_hi.append(hi[i])
    return "".join(out), out_lo, out_hi


# A word after a number the readers take for what it counts ("3 replicas"), when it may as well be a word of
# grammar of another language ("5432 mit 16 GB", "5432 पर 16 GB", "5432 포트에서 실행됩니다"): the readers know
# the function words of English only. Such a number is read as a bare number (never hidden on its own), as English's
# "port 5432 with 16 GB" is.
def _counts_a_foreign_word(toks: Sequence[Tok], span: tuple[int, int]) -> int | None:
    """Where the word after the number of a counted quantity (``span``) stands when it is a word of another
    language's grammar or of a script other than Latin; None when it is neither."""
    for k in range(span[0] + 1, span[1]):
        t = toks[k]
        if t.kind != "word":
            continue
        if t.low in _other_function_words() or any(c.isalpha() and not _latin(c) for c in t.text):
            return k
        return None
    return None


@cache
def _latin(ch: str) -> bool:
    return unicodedata.name(ch, "").startswith("LATIN")


@cache
def _other_function_words() -> frozenset[str]:
    data = json.loads(FUNCTION_WORDS_FILE.read_text(encoding="utf-8"))
    return frozenset(w.lower() for words in data["languages"].values() for w in words)


@cache
def _articles() -> frozenset[str]:
    data = json.loads(FUNCTION_WORDS_FILE.read_text(encoding="utf-8"))
    return frozenset(w.lower() for words in data["articles"].values() for w in words)


def _token_span(toks: Sequence[Tok], start: int, text: str) -> tuple[int, int] | None:
    """The tokens ``start..stop`` whose texts joined by spaces are ``text`` (how the readers write a value), or None."""
    parts: list[str] = []
    stop = start
    while stop < len(toks) and len(" ".join(parts)) < len(text):
        parts.append(toks[stop].text)
        stop += 1
    return (start, stop) if parts and " ".join(parts) == text else None


def build_cloze(content: str, title: str = "") -> Cloze | None:
    """A cloze over the key value of ``content``: the value the slot readers find that best carries the statement
    (see ``_CLOZE_RANK``; never one a negation covers — "not X" says what is not the case; a name the statement is
    about, after "for", "of", "about", comes after a name it states; then the first in the text), widened over the
    values written right next to it that are parts of one value with it (``_FAMILY``: "14" + "March 2027", "05:30" +
    "UTC"). The note's code is never read and a gap never touches it (``_code_ranges``), nor crosses a line break.
    None when there is no such value, when every candidate also appears in ``title`` (the question would give it
    away), or when hiding it leaves too little to go on. Of a long note, only its opening is read and shown
    (``_opening``): the cost is that of the opening, whatever the note's length."""
    shown = _opening(content)
    # (code is looked for a little past the opening: an inline span may close there)
    code = [(a, min(b, shown)) for a, b in _code_ranges(content[: shown + CLOZE_CHARS]) if a < shown]
    text, origin = _folded_with_origins(_blank_code(content[:shown], code))
    if not text or fold(text) != text:
        return None  # the readers would see other characters than the map describes
    # the first and the last character of the content each character of the text comes from
    came_first, came_last = origin, origin
    if _WIDE_OR_HANGUL.search(text):
        text, came_first, came_last = _spaced_for_readers(text, origin, origin)
    analysis = analyze(text)
    plain = "\n\n".join(plain_blocks(text))  # what the readers read (the offsets of their tokens)
    toks = analysis.tokens

    def written(first: int, stop: int) -> tuple[int, int, int, int] | None:
        """Where the tokens ``first..stop`` stand in the text (lo, hi) and in the content as written (start, end);
        None when the Markdown marks cut through them ("**20** minutes"), or when there they cross a line break or
        touch code."""
        # The readers read the content with its Markdown marks dropped: find what they read in the content as written
        # (the same occurrence of the same words).
        lo, hi = toks[first].at, toks[stop - 1].end
        hidden = plain[lo:hi]
        at = -1
        for _ in range(plain.count(hidden, 0, lo) + 1):
            at = text.find(hidden, at + 1)
            if at < 0:
                return None
        lo, hi = at, at + len(hidden)
        start, end = came_first[lo], came_last[hi - 1] + 1
        if _LINE_BREAK.search(content, start, end) or any(a < end and start < b for a, b in code):
            return None
        return lo, hi, start, end

    spans: list[tuple[int, int, str | None]] = []  # token ranges of every value and its family, to widen the chosen one
    ranked: list[tuple[int, bool, int, tuple[int, int], str | None]] = []  # (rank, about, position, tokens, family)
    for v in analysis.values:
        span = _token_span(toks, v.start, v.text)
        if span is None:
            continue
        if v.text.islower() and v.text in _other_function_words():
            continue  # German "mit" is no MIT licence: another language's word of grammar is no value
        if v.key.startswith("n:") and (foreign := _counts_a_foreign_word(toks, span)) is not None:
            spans.append((span[0], foreign, _BARE_NUMBER))  # the number alone: the word after it is no value
            continue
        family = _family(v.kind, v.key)
        spans.append((*span, family))
        rank = _CLOZE_RANK.get(v.kind)
        if rank is None or v.negated or (v.kind == "quantity" and not v.key):
            continue
        if v.kind in _NUMERIC_KINDS and not any(c.isdigit() for c in v.text):
            rank = _SPELLED_RANK
        ranked.append((rank, False, span[0], span, family))
    for n in analysis.names:
        span = _token_span(toks, n.start, n.text)
        if span is None or n.initial or n.negated:
            continue
        if span[1] - span[0] > 1 and toks[span[0]].low in _articles():
            span = (span[0] + 1, span[1])  # "Die Datenbank": German's capitals make a name of an article and a noun
        rank = _NAME_RANK if span[1] - span[0] > 1 else _SINGLE_NAME_RANK
        ranked.append((rank, n.scoped, span[0], span, _NAME_FAMILY))
    folded_title = fold(" ".join(title.split())).lower()
    for _rank, _about, _at, (first, stop), family in sorted(ranked):
        where = written(first, stop)
        if where is None:
            continue
        # Values written right next to each other that are parts of one value read as one ("14 March 2027"): hide
        # them together, on the value's line.
        grown = family is not None
        while grown:
            grown = False
            for a, b, kin in spans:
                if kin in (family, _BARE_NUMBER) and (b == first or a == stop) and not (first <= a and b <= stop):
                    wider = written(min(first, a), max(stop, b))
                    if wider is not None:
                        first, stop, where, grown = min(first, a), max(stop, b), wider, True
        lo, hi, start, end = where
        if text[lo:hi].lower() in folded_title or (
            came_first is not origin and fold(" ".join(content[start:end].split())).lower() in folded_title
        ):
            continue  # (a date of Chinese is read as "2026-03-15": the title has it as written)
        if unspaced.word_count(text[:lo] + " " + text[hi:]) < _CLOZE_MIN_WORDS_LEFT:
            continue
        more = CLOZE_MORE if shown < len(content) else ""
        question = content[:start] + CLOZE_GAP + content[end:shown] + more
        return Cloze(text=question, start=start, end=end, hidden=content[start:end])
    return None


# --- a new ledger ---------------------------------------------------------------------------------------------------


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

    Leitner: correct → box + 1 (a new page → box 1), capped at 5; wrong/skip → box 0; due = today + interval(box);
    a correct answer to a page already answered today keeps its box and due (never promoted twice in a day).
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
        box, due, fsrs_state = _fsrs_step(prior, page, g, now, today)
    elif result == "correct" and prior is not None and prior.last is not None and prior.last >= today:
        # Answered already today (a second desk, a script): the answer is counted, the card is not promoted twice
        # in one day — a second right answer minutes later says nothing of the interval (docs/decisions.md, Quiz).
        box, due, fsrs_state = prior.box, prior.due, None
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
    prior: QuizItem | None, page: str, grade: Grade, now: datetime | None, today: date
) -> tuple[int, date, dict[str, Any]]:
    if now is None or now.tzinfo is None:
        raise ValueError("FSRS scheduling needs an explicit timezone-aware `now`")
    # fsrs insists on tzinfo == timezone.utc exactly (a ZoneInfo("UTC") is refused), so normalise. And the schedule
    # is counted in days, as the ledger's dates are: every time fsrs reads is the start of a day. fsrs counts the
    # days elapsed since the last review in whole days rounded down, so a card answered at 08:00 and then, on its
    # due day, at 07:59 had 0 days elapsed: read as a same-day review, it stayed at one day for good, and the grade
    # row's intervals (previewed when the card was shown) were not what the answer then gave. The day is the
    # person's quiz day (`today`, of their time zone), given to fsrs as 00:00 UTC of that date: fsrs counts days
    # between dates, and a day of the person's calendar that a summer-time change makes 23 hours long still counts.
    at = _day_start(datetime.combine(today, datetime.min.time()))
    from fsrs import Card, Rating

    if prior is not None and prior.fsrs is not None:
        card = Card.from_dict(prior.fsrs)  # type: ignore[arg-type]
        card.due = _day_start(card.due)
        if card.last_review is not None:
            card.last_review = _day_start(card.last_review)  # (rows written before reviews were day-anchored)
    elif (seeded := _card_from_leitner(prior, page)) is not None:
        card = seeded
    else:
        # A page first met under FSRS (or one last answered wrong under Leitner) starts a fresh card; passing both
        # id and due keeps fsrs from reading the clock or sleeping.
        card = Card(card_id=card_id_for(page), due=at)
    reviewed, _log = _fsrs_scheduler().review_card(card, Rating[_RATING_OF_GRADE[grade]], review_datetime=at)
    days = (reviewed.due - at).total_seconds() / 86400
    return box_for_interval(days), reviewed.due.astimezone(UTC).date(), dict(reviewed.to_dict())


def _card_from_leitner(prior: QuizItem | None, page: str) -> Card | None:
    """The FSRS card a row carried over from Leitner starts from, when its last answer was right: in review, its
    stability the interval Leitner last gave it (due − last, in days: at FSRS's default 90% retention a card's
    interval equals its stability), its difficulty the one FSRS gives a new card answered "good", its last review
    and due the row's. A mature card answered "good" on its due day then goes on to a longer interval, as it would
    have under Leitner, instead of starting again at one or two days; a switch does not throw away months of right
    answers. None for a row with nothing to carry (never answered, last answered wrong or skipped: a fresh card, as
    Leitner's box 0 starts again too)."""
    if prior is None or prior.last is None or prior.last_result != "correct" or prior.box < 1:
        return None
    from fsrs import Card, Rating, State

    last = _day_start(datetime.combine(prior.last, datetime.min.time()))
    first, _log = _fsrs_scheduler().review_card(Card(card_id=card_id_for(page), due=last), Rating.Good, last)
    return Card(
        card_id=card_id_for(page),
        state=State.Review,
        stability=float(max(1, (prior.due - prior.last).days)),
        difficulty=first.difficulty,
        due=_day_start(datetime.combine(prior.due, datetime.min.time())),
        last_review=last,
    )


def _day_start(moment: datetime) -> datetime:
    """00:00 UTC of `moment`'s UTC day (a naive moment is taken as UTC)."""
    at = moment.astimezone(UTC) if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return datetime.combine(at.date(), datetime.min.time(), tzinfo=UTC)


PREVIEW_GRADES: tuple[Grade, ...] = ("again", "hard", "good", "easy", "skip")


def preview_intervals(
    page: str, item: QuizItem | None, scheduler: SchedulerName, now: datetime, today: date | None = None
) -> dict[str, int]:
    """Days until the page is due again for each grade, as the ledger's scheduler would set them if it were answered
    at ``now`` (UTC-aware) on the person's quiz day ``today`` (default: the UTC day of ``now``); nothing is written.
    ``item`` is the page's ledger row (None for a new page)."""
    at = now.astimezone(UTC) if now.tzinfo is not None else now.replace(tzinfo=UTC)
    day = today if today is not None else at.date()
    ledger = Ledger(scheduler=scheduler, items=[item] if item is not None else [])
    out: dict[str, int] = {}
    for grade in PREVIEW_GRADES:
        _ledger, answered, _prior = record_answer(ledger, page, grade, day, now=at)
        out[grade] = (answered.due - day).days
    return out


# --- bury -----------------------------------------------------------------------------------------------------------


def buried_map(ledger: Ledger) -> dict[str, date]:
    """``{page: the UTC day it was buried}`` from the ledger frontmatter; entries that do not read as a clean page and
    a ``YYYY-MM-DD`` day are ignored."""
    raw = ledger.frontmatter.get(BURIED_KEY)
    if not isinstance(raw, dict):
        return {}
    out: dict[str, date] = {}
    for page, day in raw.items():
        if isinstance(day, str):
            try:
                day = date.fromisoformat(day)
            except ValueError:
                continue
        if is_clean_page(page) and isinstance(day, date) and not isinstance(day, datetime):
            out[page] = day
    return out


def buried_pages(ledger: Ledger, today: date) -> set[str]:
    """Pages buried today (or, from a hand edit, for a later day): left out of today's sessions and counts."""
    return {page for page, day in buried_map(ledger).items() if day >= today}


def with_buried(ledger: Ledger, buried: dict[str, date]) -> Ledger:
    """The ledger with its bury list replaced (the key is dropped when the list is empty); rows untouched."""
    fm = {k: v for k, v in ledger.frontmatter.items() if k != BURIED_KEY}
    if buried:
        fm[BURIED_KEY] = dict(sorted(buried.items()))
    return ledger.model_copy(update={"frontmatter": fm})


def bury(ledger: Ledger, page: str, today: date) -> tuple[Ledger, date | None]:
    """Bury a page for the rest of ``today``: returns the new ledger and the page's prior bury day (None if it had
    none). The page's row (box, FSRS state, asked, correct) is untouched; entries of earlier days are pruned."""
    if not is_clean_page(page):
        raise ValueError(f"quiz page {page!r} is not a clean relative .md path")
    current = buried_map(ledger)
    prior = current.get(page)
    kept = {p: d for p, d in current.items() if d >= today}
    kept[page] = today
    return with_buried(ledger, kept), prior


def new_today(ledger: Ledger, today: date) -> int:
    """How many pages had their first answer today (each used one of the day's new pages)."""
    return sum(1 for it in ledger.items if it.asked == 1 and it.last is not None and it.last >= today)


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


class _Pick(NamedTuple):
    page: str
    reason: Reason
    item: QuizItem | None
    candidate: QuizCandidate


def _ranked(ledger: Ledger, candidates: Sequence[QuizCandidate], today: date) -> list[_Pick]:
    """Every pick today could offer, in session order. Questions are not built here: a count needs none, and a
    cloze reads its page's content (``select_session`` builds them for the picks it returns)."""
    live: dict[str, QuizCandidate] = {}
    for cand in candidates:
        if in_rotation(cand):
            live.setdefault(cand.page, cand)
    in_ledger = {it.page for it in ledger.items}
    for page in buried_pages(ledger, today):
        live.pop(page, None)

    due = [it for it in ledger.items if it.page in live and (it.last is None or it.last < today) and it.due <= today]
    due.sort(key=lambda it: (it.due, it.page))
    wrong = [it for it in due if it.last_result in ("wrong", "skip")]
    review = [it for it in due if it.last_result not in ("wrong", "skip")]
    fresh = sorted(
        (c for c in live.values() if c.page not in in_ledger),
        key=lambda c: (-category_weight(c.category), -_timestamp(c.updated_at), c.page),
    )[: max(0, NEW_PER_DAY - new_today(ledger, today))]
    return (
        [_Pick(it.page, "due-wrong", it, live[it.page]) for it in wrong]
        + [_Pick(it.page, "due", it, live[it.page]) for it in review]
        + [_Pick(c.page, "new", None, c) for c in fresh]
    )


def select_session(
    ledger: Ledger, candidates: Sequence[QuizCandidate], today: date, limit: int = MAX_SESSION
) -> list[Selected]:
    """Today's session, at most ``min(limit, 7)`` picks.

    Order: due wrong/skip items by (due, page); other due items by (due, page); never-quizzed pages by weight
    (direction 4, decision 3, others 2, milestone 1), newest ``updated_at``, page, at most the day's remaining
    :data:`NEW_PER_DAY`. Items answered today, pages buried today, pages out of rotation (see :func:`in_rotation`)
    and ledger rows whose page is not among ``candidates`` are never picked.
    """
    picks = _ranked(ledger, candidates, today)[: max(0, min(limit, MAX_SESSION))]
    return [
        Selected(page=p.page, reason=p.reason, item=p.item, question=build_question(p.candidate), candidate=p.candidate)
        for p in picks
    ]


def session_counts(ledger: Ledger, candidates: Sequence[QuizCandidate], today: date) -> SessionCounts:
    """How many picks each group could offer today, ignoring the session limit."""
    ranked = _ranked(ledger, candidates, today)
    return SessionCounts(
        due_wrong=sum(1 for s in ranked if s.reason == "due-wrong"),
        due=sum(1 for s in ranked if s.reason == "due"),
        new=sum(1 for s in ranked if s.reason == "new"),
    )


def due_count(ledger: Ledger, candidates: Sequence[QuizCandidate], today: date) -> int:
    """Everything :func:`select_session` would offer without its session limit: due items plus the day's remaining
    never-quizzed pages. It falls by one with every answer (or bury), so sessions can follow one another until it
    reaches 0."""
    return session_counts(ledger, candidates, today).total

"""Temporal cues: whether a note states a temporary state ("down until tomorrow morning", "do not deploy for now"),
in any of the languages of `data/temporal_cues.json`. Capture stores a note with a cue as expiring with the default
expiry (SPEC.md, capture), and a note without one as durable. Pure functions; the word lists are data."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from .text import STOPWORDS

CUES_FILE = Path(__file__).parent / "data" / "temporal_cues.json"
FUNCTION_WORDS_FILE = Path(__file__).parent / "data" / "function_words.json"

# A written date after a spaced language's "until" ("bis 2026-03-15", "hasta 15/03/2026"); a bare number is a range or
# an amount ("bis 16 GB", "8000 bis 8080"), never read as one.
_WRITTEN_DATE = r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{2,4}"
# What a cue read only at the start of a clause may come right after.
_CLAUSE_START = r"(?:^|(?<=[.!?;:,(\[—–-])|(?<=[.!?;:,(\[—–-] ))"
_HANGUL = "\uac00-\ud7a3"
_NEAR = 40  # how far before or after a cue what cancels it is looked for (the longest is "a partire da")


@dataclass(frozen=True)
class _Cue:
    pattern: str  # the cue as a regex
    literal: str  # a word the cue holds (lower case): a text without it is not searched for the cue
    not_after: tuple[str, ...]  # what cancels the cue right before it
    not_before: tuple[str, ...]  # what cancels the cue right after it
    until: bool = False  # English's "until": not a cue when the time it names is already past (`_past_until`)


@dataclass(frozen=True)
class _Until:
    pattern: str  # "until" and the time it is until (compiled on first use: `_regex`)
    literals: tuple[str, ...]  # the until words: a text with none of them is not searched
    time_at: str  # the group that holds the time ("time"), or "" when the until word comes first
    range_word: str | None  # spaced: a word before "until" that makes it a range ("Montag bis Freitag")
    range_from: tuple[str, ...]  # unspaced: what before the time makes it a range ("月曜から金曜まで")


@dataclass(frozen=True)
class _Language:
    code: str
    writing: str
    cues: tuple[_Cue, ...]
    until: _Until | None
    #: Words of this language's grammar that English does not write and that are no cue of its own: a note in
    #: English words with none of them is not read for this language's cues (`_read_for`).
    evidence: frozenset[str] = frozenset()


def _phrase(entry: str, spaced: bool) -> str:
    """A cue or time as a regex: words joined by any whitespace, a final * for any ending."""
    words = []
    for word in entry.split():
        stem = word.endswith("*")
        body = re.escape(word.rstrip("*"))
        words.append(body + (r"\w*" if stem else ""))
    return (r"\s+" if spaced else r"\s?").join(words)


def _bounded(body: str, entry: str, writing: str) -> str:
    """``body`` read as a whole word (spaced), as the start of a word (particles), or anywhere (unspaced)."""
    if writing == "unspaced":
        return body
    if writing == "particles":
        return f"(?<![{_HANGUL}]){body}"
    return rf"(?<!\w){body}" + ("" if entry.endswith("'") else r"(?!\w)")


def _cue_pattern(entry: str, writing: str) -> str:
    if entry.startswith("^"):  # only at the start of a clause, or before a comma
        body = _phrase(entry[1:], writing == "spaced")
        return rf"{_CLAUSE_START}{body}(?!\w)|(?<!\w){body}(?=\s?,)"
    return _bounded(_phrase(entry, writing == "spaced"), entry, writing)


def _literal(entry: str) -> str:
    """The longest word of a cue, without its *: every text the cue matches holds it (in lower case)."""
    return max((w.rstrip("*") for w in entry.lstrip("^").split()), key=len).lower()


def _compile_cues(
    spec: dict[str, Any], writing: str, not_after: dict[str, list[str]], not_before: dict[str, list[str]]
) -> tuple[_Cue, ...]:
    out = []
    for entry in (str(c) for c in spec.get("cues", [])):
        name = entry.lstrip("^")
        out.append(
            _Cue(
                pattern=_cue_pattern(entry, writing),
                literal=_literal(entry),
                not_after=tuple(w.lower() for w in not_after.get(name, ())),
                not_before=tuple(w.lower() for w in not_before.get(name, ())),
            )
        )
    # English's "until" says a temporary state whatever follows it ("until Friday", "until the audit is done").
    for word in (str(u) for u in spec.get("until_any", [])):
        out.append(
            _Cue(
                pattern=rf"(?<!\w){re.escape(word)}\s+\S+\b",
                literal=word.lower(),
                not_after=(),
                not_before=(),
                until=True,
            )
        )
    return tuple(out)


def _compile_until(spec: dict[str, Any], writing: str) -> _Until | None:
    times = [str(t) for t in spec.get("times", [])]
    if not times:
        return None
    spaced = writing == "spaced"
    time_alts = [_phrase(t, spaced) for t in times]
    if spaced:
        words = [str(u) for u in spec.get("until", [])]
        until = "|".join(re.escape(u) + ("" if u.endswith("'") else r"(?!\w)") for u in words)
        time = "|".join(time_alts + [_WRITTEN_DATE])
        pattern = rf"(?<!\w)(?:{until})\s*(?:\S+\s+){{0,2}}?(?:{time})(?!\w)"
        ranges = "|".join(_phrase(t, spaced) for t in times)
        return _Until(
            pattern=pattern,
            literals=tuple(w.lower() for w in words),
            time_at="",
            range_word=rf"(?:{ranges})|.*\d.*",
            range_from=(),
        )
    # Unspaced and particles: the until comes after its time ("金曜まで", "금요일까지"); a time with a number is one
    # of numbered_times ("#月#日": a month and a day), never a bare number ("最大3日まで" is up to three days).
    numbered = [
        r"(?<!\d)" + r"\d{1,2}".join(re.escape(part) for part in t.split("#")).replace(r"\ ", r"\s?")
        for t in spec.get("numbered_times", [])
    ]
    time = "|".join([_bounded(t, "", writing) for t in time_alts] + numbered)
    afters = [str(a) for a in spec.get("until_after", [])]
    if not afters:
        return None
    after = "|".join(re.escape(a) for a in afters)
    return _Until(
        pattern=rf"(?P<time>{time})\s?(?:{after})",
        literals=tuple(a.lower() for a in afters),
        time_at="time",
        range_word=None,
        range_from=tuple(str(r) for r in spec.get("range_from", [])),
    )


@lru_cache(maxsize=1)
def _languages() -> tuple[_Language, ...]:
    data = json.loads(CUES_FILE.read_text(encoding="utf-8"))
    # Every language's cues are read in every note: a cue written alike in two languages ("morgen", German and
    # Dutch) is cancelled by what cancels it in either ("jeden Morgen", "elke morgen").
    not_after: dict[str, list[str]] = {}
    not_before: dict[str, list[str]] = {}
    for spec in data["languages"].values():
        for merged, key in ((not_after, "not_after"), (not_before, "not_before")):
            for cue, words in spec.get(key, {}).items():
                merged.setdefault(cue, []).extend(words)
    grammar = _grammar()
    out = []
    for code, spec in data["languages"].items():
        writing = spec.get("writing", "spaced")
        cues = _compile_cues(spec, writing, not_after, not_before)
        own = {
            w.lower().rstrip("*")
            for key in ("cues", "until", "until_any")
            for c in spec.get(key, [])
            for w in str(c).lstrip("^").split()
        }
        evidence = frozenset(w.lower() for w in grammar.get(code, ())) - STOPWORDS - own
        out.append(_Language(code, writing, cues, _compile_until(spec, writing), evidence))
    return tuple(out)


@lru_cache(maxsize=1)
def _grammar() -> dict[str, list[str]]:
    """Each language's words of grammar in `function_words.json`: its function words and its articles."""
    data = json.loads(FUNCTION_WORDS_FILE.read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}
    for key in ("languages", "articles"):
        for code, words in data.get(key, {}).items():
            out.setdefault(code, []).extend(w.lower() for w in words)
    return out


@lru_cache(maxsize=1)
def _english_words() -> frozenset[str]:
    """English's words of grammar that no other language of `function_words.json` writes ("the", "our", "was"; not
    "in", "is", which Dutch or German write too, nor a word of one letter, "a" and "i")."""
    others = {w for words in _grammar().values() for w in words}
    return frozenset(w for w in STOPWORDS - others if len(w) > 1)


_KANA = re.compile("[\u3040-\u30ff]")
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _read_for(lang: _Language, lowered: str, words: set[str], kana: bool) -> bool:
    """Whether a note is read for `lang`'s cues. A note is not told its language, and a cue of one language is a name
    or a word in another: "Morgen Witzel is the CFO" (German and Dutch "morgen"), "我们和客户当面签了合同" (Japanese
    当面, "for now"; Chinese, "in person"). So Japanese cues are read only in a note with kana, Chinese ones only in
    one without; the other Latin-script languages' cues not in a note of English words that has none of that
    language's own words of grammar ("der", "ist", "het", "avec")."""
    if lang.code == "ja":
        return kana
    if lang.code == "zh":
        return not kana
    if lang.writing != "spaced" or lang.code == "en" or not lang.evidence:
        return True
    return not (words & _english_words()) or bool(words & lang.evidence)


def _prepared(text: str) -> str:
    """The text cues are read in: compatibility forms folded (fullwidth letters and digits), a typographic apostrophe
    as ', whitespace runs as one space."""
    return " ".join(unicodedata.normalize("NFKC", text).replace("’", "'").split())


def _ends_with_word(before: str, word: str, spaced: bool) -> bool:
    if not before.endswith(word):
        return False
    if not spaced or len(before) == len(word):
        return True
    prev = before[-len(word) - 1]
    return not (prev.isalnum() or (word[0] == "'" and prev == "'"))


def _starts_with_word(after: str, word: str, spaced: bool) -> bool:
    if not after.startswith(word):
        return False
    return not spaced or len(after) == len(word) or not after[len(word)].isalnum()


@lru_cache(maxsize=512)
def _cues_regex(cues: tuple[_Cue, ...]) -> re.Pattern[str]:
    """One regex of ``cues``, cue i in group "c<i>" (built for the cues whose literal a text holds: a regex of all
    the cues, tried at every character, is slow on a long note)."""
    return re.compile("|".join(f"(?P<c{i}>{c.pattern})" for i, c in enumerate(cues)), re.IGNORECASE)


# What an until names that may already be past: a written date (ISO, or day and month either way with a four-digit
# year), else a year, within its first words up to the clause's end ("until 2019", "until March 5, 2019", "until the
# end of 2019", "bis 15.03.2019", "bis März 2019").
_UNTIL_WORDS = 5
_CLAUSE_END = re.compile(r"[.;:!?]\s|[.;:!?]$|,(?!\s*\d)|\s[—–-]\s")
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_DMY_DATE = re.compile(r"(\d{1,2})[./](\d{1,2})[./](\d{4})")
_YEAR = re.compile(r"(?:19|20|21)\d{2}")  # not "until 1500 requests are processed"


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _after(text: str, start: int) -> str:
    """The text an until's time is read in: a few words' worth from `start` (a long note is not copied whole)."""
    return text[start : start + 3 * _NEAR]


def _until_words(after: str) -> list[str]:
    """The first words after an until, up to its clause's end, brackets and quotes stripped."""
    end = _CLAUSE_END.search(after)
    return [w.strip("()[]'\"") for w in (after[: end.start()] if end else after).split()[:_UNTIL_WORDS]]


def _written_days(word: str) -> list[date] | None:
    """The day a word writes in digits with its year, ISO or day and month with slashes or dots (both readings
    when each could be the other: 03/05/2026 is 3 May or 5 March); None for any other word."""
    if m := _ISO_DATE.fullmatch(word):
        return [d for d in (_day(int(m[1]), int(m[2]), int(m[3])),) if d]
    if m := _DMY_DATE.fullmatch(word):
        return [d for d in (_day(int(m[3]), int(m[2]), int(m[1])), _day(int(m[3]), int(m[1]), int(m[2]))) if d]
    return None


def _past_until(after: str, now: datetime) -> bool:
    """Whether the time an until names in ``after`` (the text right after its until word) had ended at `now`: a
    date before now's date, or a year before now's year ("Until 2019 the team used Jenkins", captured in 2026, is a
    historical fact, not a temporary state). Day and month written with slashes or dots count as past only when
    both readings are (03/05/2026 is 3 May or 5 March). Anything else (a weekday, "the audit is done", a date to
    come, the current year) is no past time."""
    for word in _until_words(after):
        days = _written_days(word)
        if days:
            return all(d < now.date() for d in days)
        if days is None and _YEAR.fullmatch(word):
            return int(word) < now.year
    return False


def _cue_found(cues: tuple[_Cue, ...], text: str, lowered: str, spaced: bool, now: datetime | None = None) -> bool:
    present = tuple(c for c in cues if c.literal in lowered)
    if not present:
        return False
    pattern = _cues_regex(present)
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        cue = present[int((m.lastgroup or "c0")[1:])]
        before = text[max(0, m.start() - _NEAR) : m.start()].rstrip(" ").lower()
        after = text[m.end() : m.end() + _NEAR].lstrip(" ").lower()
        if (
            not any(_ends_with_word(before, w, spaced) for w in cue.not_after)
            and not any(_starts_with_word(after, w, spaced) for w in cue.not_before)
            and not (cue.until and now is not None and _past_until(_after(text, m.start() + len(cue.literal)), now))
        ):
            return True
        pos = m.start() + 1
    return False


@lru_cache(maxsize=64)
def _regex(source: str) -> re.Pattern[str]:
    """A pattern compiled on first use: the ten languages' until patterns, compiled with the cues as they were read,
    were 60 ms of every command's start (a `capture` from the command line), most of them for languages the note
    was not in."""
    return re.compile(source, re.IGNORECASE)


def _until_found(until: _Until, text: str, lowered: str, now: datetime | None = None) -> bool:
    if not any(w in lowered for w in until.literals):
        return False
    pattern = _regex(until.pattern)
    range_word = _regex(until.range_word) if until.range_word is not None else None
    pos = 0
    while (m := pattern.search(text, pos)) is not None:
        pos = m.start() + 1
        if range_word is not None:
            words = text[max(0, m.start() - _NEAR) : m.start()].split()
            # "Montag bis Freitag", "von 9 bis 17 Uhr", "von Montag, 8 Uhr, bis Freitag": a range, not an until
            if any(range_word.fullmatch(w.strip(",;")) for w in words[-3:]):
                continue
        elif until.time_at:
            before = text[max(0, m.start(until.time_at) - _NEAR) : m.start(until.time_at)].rstrip(" ")
            if any(before.endswith(r) for r in until.range_from):
                continue  # "月曜から金曜まで": opening days
        if range_word is not None and now is not None:
            word = text[m.start() : m.start() + _NEAR].split(maxsplit=1)[0]  # the until word ("bis", "jusqu'au")
            if _past_until(_after(text, m.start() + len(word)), now):
                continue  # "bis 15.03.2019", "bis März 2019": a time already past
        return True
    return False


def has_temporal_cue(text: str, now: datetime | None = None) -> bool:
    """Whether ``text`` says it states a temporary state: today, tonight, tomorrow, this week, this sprint, for now,
    temporary/temporarily, or until a time, in any language of `data/temporal_cues.json`. Given the time the note is
    written at (`now`), an until whose date or year had already ended then is no cue: the note tells history
    ("Until 2019 the team used Jenkins")."""
    prepared = _prepared(text)
    lowered = prepared.lower()
    words = set(_WORD.findall(lowered))
    kana = _KANA.search(prepared) is not None
    for lang in _languages():
        if not _read_for(lang, lowered, words, kana):
            continue
        if _cue_found(lang.cues, prepared, lowered, lang.writing == "spaced", now):
            return True
        if lang.until is not None and _until_found(lang.until, prepared, lowered, now):
            return True
    return False


# A date written with its month's name and its year after "until": "until 5 March 2027", "until March 5, 2027".
_NAMED_DATE = re.compile(
    r"(?:(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]{3,9})\.?,?\s+(\d{4}))"  # "5 March 2027"
    r"|(?:([a-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4}))"  # "March 5, 2027"
)
_ENGLISH_UNTIL = re.compile(r"(?<!\w)(?:until|till|til)(?!\w)", re.IGNORECASE)


def until_day(text: str, now: datetime) -> date | None:
    """The day an English "until" in ``text`` names, written with its year and still to come at `now` ("on parental
    leave until 2027-03-01", "until 5 March 2027", "until March 5, 2027", "until 01/03/2027"): the temporary state
    lasts through it, so a record that says so expires at its end, not after the default 14 days. Day and month
    written with slashes or dots, when both readings are dates to come, give the later one (a memory that stays a
    little longer is found; one that drops out of retrieval while still true is lost to the agent). None when no
    until names such a day ("until Friday", "until the audit is done": the default applies)."""
    for m in _ENGLISH_UNTIL.finditer(text):
        after = _after(text, m.end()).lstrip()
        end = _CLAUSE_END.search(after)
        head = (after[: end.start()] if end else after).lower()
        if named := _NAMED_DATE.match(head):
            d, mon, y = (named[1], named[2], named[3]) if named[1] else (named[5], named[4], named[6])
            month = _month_number(mon)
            day = _day(int(y), month, int(d)) if month else None
            if day is not None and day >= now.date():
                return day
            continue
        for word in _until_words(head):
            days = _written_days(word)
            if days is not None:
                if days and all(x >= now.date() for x in days):
                    return max(days)
                break
    return None


def _month_number(word: str) -> int | None:
    """The month a name or abbreviation says (the readers' calendar table), or None."""
    from .slots import lexicon  # on first use: a capture with no "until" never loads the readers' tables

    return lexicon().months.get(word)

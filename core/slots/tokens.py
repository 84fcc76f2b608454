"""A statement as tokens in sentences and clauses, and the phrase lookups every reader shares.

`tokenize` splits a folded text into typed tokens (words, numbers, clock times, money, addresses, ISO dates, ...),
numbers its sentences and clauses (a clause ends at a comma, a semicolon, a dash, a bracket or a word such as
"but") and stems its words. `match_any` finds a lexicon phrase at a token, through an index of the phrases by
their first word; `is_function` tells words that carry no topic (stop words, negation cues, light words,
qualifiers) from content words.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..text import STOPWORDS
from .lexicon import fold, lexicon, stem

_TOKEN = re.compile(
    r"""
    (?P<url>https?://[^\s)]+[^\s.,;:!?)])
   |(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)
   |(?P<handle>[\w.+-]+@)(?![\w])
   |(?P<channel>\#[\w-]+)
   |(?P<assign>\b[A-Za-z_][A-Za-z0-9_]*=[^\s,;)]*[^\s,;).])
   |(?P<path>(?<![\w/])(?:~|\.{1,2})?/[\w@-]+(?:\.[\w-]+)*(?:/[\w.@-]+)*(?:/|\.[A-Za-z0-9]+)(?![\w/]))
   |(?P<isodate>\d{4}-\d{2}-\d{2})
   |(?P<degree>°\s?[CcFfKk](?![\w]))
   |(?P<numdate>(?<![\w/.])(?:\d{4}/\d{1,2}/\d{1,2}|\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})|\d{1,2}\.\d{1,2}\.\d{4})
                 (?![\w/]|\.\d))
   |(?P<ratio>\b\d:\d\b)
   |(?P<time>\d{1,2}:\d{2}(?:\s?(?i:[ap]\.?m)\b)?|\b\d{1,2}\s?(?i:[ap]\.?m)\b)
   |(?P<money>[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|mm|bn|million|billion|thousand)\b)?)
   |(?P<alnum>\d+[A-Za-z][\w]*(?:-[\w]+)*)
   |(?P<num>\d+(?:,\d{3})*(?:\.\d+)*(?:\.x)?%?)
   |(?P<minus>\b(?:[A-F]|AB)-(?=[\s.,;:!?)]|$))
   |(?P<word>[^\W\d_](?:[\w'’]*[\w])?(?:[-/&.+#][\w]+)*[+#]*)
   |(?P<punct>[.,;:!?()\[\]"“”—–&/%=-])
    """,
    re.VERBOSE,
)
ORDINAL = re.compile(r"^(\d{1,2})(st|nd|rd|th)$")
_GLUED = re.compile(r"^(\d+(?:\.\d+)?)([a-z]+)$")
_SENT_END = frozenset({".", "!", "?"})
_CLAUSE_PUNCT = frozenset({";", ":", "(", ")", "—", "–", "-", ",", "[", "]", '"', "“", "”"})


@dataclass
class Tok:
    i: int
    text: str  # as written
    low: str  # folded, lower-case
    kind: str  # word | num | time | money | email | handle | url | channel | assign | path | isodate | numdate | ratio
    # | alnum | punct
    sent: int = 0
    clause: int = 0
    initial: bool = False  # first word of its sentence
    stem: str = ""
    used: bool = False  # consumed by a value
    at: int = 0  # where the token starts in the folded text (a character offset)
    end: int = 0  # where it ends (exclusive)
    quoted: bool = False  # a word alone in quotes ("side project 'tidepool'"): a name, whatever its case


_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_QUOTES = {"'": "'", '"': '"', "`": "`", "\u201c": "\u201d"}  # opening -> closing, as `fold` leaves them


def tokenize(text: str) -> list[Tok]:
    toks: list[Tok] = []
    folded = fold(text)
    for m in _TOKEN.finditer(folded):
        kind = m.lastgroup or "word"
        if kind == "degree":
            # "21 °C", "70°F": the unit with its sign (the units table's "°c"), which no word holds
            s = m.group(0)
            toks.append(Tok(len(toks), s, "°" + s[-1].lower(), "unit", at=m.start(), end=m.end()))
            continue
        if kind == "minus":
            kind = "word"  # a letter with a minus ("A-", "B-", "AB-"): a grade or a blood group, one word as "A+" is
        s = m.group(0)
        if kind == "ratio" and s in lexicon().variants:
            kind = "word"  # "1:1": a meeting, as "one-on-one" is (data file `[vocabulary.variants]`)
        if kind == "alnum":
            low = s.lower()
            g = _GLUED.match(low)
            om = ORDINAL.match(low)
            if om:
                toks.append(Tok(len(toks), s, low, "num", at=m.start(), end=m.end()))
                continue
            lex = lexicon()
            if g and (g.group(2) in lex.units or g.group(2) in lex.multipliers):
                cut = m.start() + len(g.group(1))
                toks.append(Tok(len(toks), g.group(1), g.group(1), "num", at=m.start(), end=cut))
                toks.append(Tok(len(toks), g.group(2), g.group(2), "unit", at=cut, end=m.end()))
                continue
            kind = "word"
        if kind == "word" and _day_list(s):
            # "Mon/Wed/Fri", "Mon-Fri": the days and their joiners, as if written with spaces
            at = m.start()
            for part in re.split(r"([-/])", s):
                toks.append(
                    Tok(len(toks), part, part.lower(), "punct" if part in "-/" else "word", at=at, end=at + len(part))
                )
                at += len(part)
            continue
        md = _MONTH_DAY.fullmatch(s) if kind == "word" else None
        if md and _month_word(md.group(1)):
            # "30 Nov-7 Dec", "26 Oct-2 Nov": a span across two months, its dash and second day as if spaced
            at = m.start()
            for part, k in ((md.group(1), "word"), ("-", "punct"), (md.group(2), "num")):
                toks.append(Tok(len(toks), part, part.lower(), k, at=at, end=at + len(part)))
                at += len(part)
            continue
        toks.append(Tok(len(toks), s, s.lower(), kind, at=m.start(), end=m.end()))
    for t in toks:
        if t.kind == "word" and 0 < t.at and t.end < len(folded):
            t.quoted = _QUOTES.get(folded[t.at - 1]) == folded[t.end]
    # a blank line ends a sentence (`analyze` gives each Markdown block as a paragraph of its own)
    _segment(toks, [m.end() for m in _BLANK_LINE.finditer(folded)])
    return toks


_MONTH_DAY = re.compile(r"([A-Za-z]{3,9})-(\d{1,2})")


def _month_word(word: str) -> bool:
    """A month's name or abbreviation (one that is also an English word only capitalised, as everywhere)."""
    lex = lexicon()
    low = word.lower()
    return low in lex.months and (low not in lex.calendar_case or word[:1].isupper())


def _day_list(word: str) -> bool:
    """A word of weekdays joined by slashes or a dash ("Mon/Wed/Fri", "Mon-Fri"); an abbreviation that is also an
    English word counts only capitalised, as everywhere."""
    lex = lexicon()
    parts = re.split(r"[-/]", word)
    return len(parts) > 1 and all(
        p.lower() in lex.weekdays and (p.lower() not in lex.calendar_case or p[:1].isupper()) for p in parts
    )


# The most tokens a clause runs to: a longer run with no clause break (a pasted log line, a list written without
# commas) is read as clauses of this many tokens. The longest clause of the labelled sets is 22 tokens; the readers
# look across a whole clause for each negation, state and passive in it, so one clause of thousands of tokens made
# reading a long note take time quadratic in its length (decisions.md, Performance).
CLAUSE_MAX = 128


def _segment(toks: list[Tok], blocks: list[int]) -> None:
    lex = lexicon()
    sent = clause = 0
    start = True
    b = 0
    opened = 0  # where the current clause starts
    for j, t in enumerate(toks):
        if b < len(blocks) and t.at >= blocks[b]:
            while b < len(blocks) and t.at >= blocks[b]:
                b += 1
            if not start:  # a paragraph ends the sentence before it, written with a full stop or not
                sent += 1
                clause += 1
                opened = j
                start = True
        if t.kind == "punct":
            prev = toks[j - 1].low if j else ""
            if (
                t.low in _SENT_END
                and prev not in lex.honorifics
                and not (prev in lex.saint_words and j + 1 < len(toks) and _saint_named(toks[j + 1]))
                and not (len(prev) == 1 and prev.isalpha())
            ):
                sent += 1
                clause += 1
                opened = j
                start = True
            elif t.low in _CLAUSE_PUNCT and not (
                t.low in "-/"
                and j
                and toks[j - 1].kind != "punct"
                and j + 1 < len(toks)
                and (
                    toks[j + 1].kind == "time" or (toks[j - 1].low in lex.weekdays and toks[j + 1].low in lex.weekdays)
                )
            ):
                clause += 1
                opened = j
                if t.low == ":":
                    start = True  # "Family logistics: Swimming is ...": a capital after a colon opens a sentence
            if j - opened >= CLAUSE_MAX:
                clause += 1
                opened = j
            t.sent, t.clause = sent, clause
            continue
        if (t.low in lex.clause_breaks or match_any(toks, j, lex.condition_phrases)) and not start:
            clause += 1
            opened = j
        if j - opened >= CLAUSE_MAX:
            clause += 1
            opened = j
        t.sent, t.clause = sent, clause
        if t.kind == "word":
            t.initial = start
            # an acronym's plural is the acronym ("PRs", "APIs", "VMs")
            t.stem = stem(t.low[:-1]) if ACRONYM_PLURAL.fullmatch(t.text) else stem(t.low)
        start = False


ACRONYM_PLURAL = re.compile(r"[A-Z][A-Z0-9]+s")


def clause_spans(toks: list[Tok]) -> dict[int, tuple[int, int]]:
    """Each clause's tokens as a range of indexes, (start, end): `_segment` numbers the clauses in order, so a
    clause's tokens stand together. A reader that looks across a token's clause reads this range instead of every
    token of the text."""
    out: dict[int, tuple[int, int]] = {}
    for t in toks:
        start, _end = out.get(t.clause, (t.i, t.i))
        out[t.clause] = (start, t.i + 1)
    return out


def glued_letter(toks: list[Tok], i: int) -> Tok | None:
    """A single letter written onto the number at i, with no space ("seat 14C", "Flat 3B", "Room 2b"; the tokenizer
    reads it apart, as a unit: C, bytes), or None."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if (
        nxt is None
        or toks[i].kind != "num"
        or nxt.kind not in ("unit", "word")
        or len(nxt.low) != 1
        or not nxt.low.isalpha()
        or nxt.at != toks[i].end
    ):
        return None
    return nxt


def _match(toks: list[Tok], i: int, phrase: tuple[str, ...]) -> bool:
    if i + len(phrase) > len(toks):
        return False
    return all(toks[i + k].low == w for k, w in enumerate(phrase))


_KEYS: dict[int, tuple[object, tuple[tuple[str, ...], ...]]] = {}


def phrases_of(mapping) -> tuple[tuple[str, ...], ...]:
    """The phrases of a lexicon mapping or set as one stable tuple (so its first-word index is built once)."""
    got = _KEYS.get(id(mapping))
    if got is None or got[0] is not mapping:
        got = (mapping, tuple(mapping))
        _KEYS[id(mapping)] = got
    return got[1]


def without_possessive(t: Tok) -> str:
    """The word without a possessive ("Prettier's" -> prettier)."""
    return t.low[:-2] if t.low.endswith("'s") else t.low


_INDEXES: dict[int, tuple[object, dict[str, list[tuple[str, ...]]]]] = {}


def first_word_index(phrases: tuple[tuple[str, ...], ...]) -> dict[str, list[tuple[str, ...]]]:
    """Phrases by their first word, longest first (built once per phrase list)."""
    got = _INDEXES.get(id(phrases))
    if got is not None and got[0] is phrases:
        return got[1]
    index: dict[str, list[tuple[str, ...]]] = {}
    for p in sorted(phrases, key=len, reverse=True):
        if p:
            index.setdefault(p[0], []).append(p)
    _INDEXES[id(phrases)] = (phrases, index)
    return index


def match_any(toks: list[Tok], i: int, phrases: tuple[tuple[str, ...], ...]) -> tuple[str, ...] | None:
    """The longest of the phrases that starts at token i, if any."""
    if i >= len(toks):
        return None
    for p in first_word_index(phrases).get(toks[i].low, ()):
        if _match(toks, i, p):
            return p
    return None


def after_naming(toks: list[Tok], i: int) -> bool:
    """The capitalised word at i follows "called" or "named": what someone or something is called ("a coach called
    Dev", "a server named Jenkins"), a name even when it is also a member of a class."""
    return i > 0 and toks[i - 1].low in lexicon().naming_verbs and toks[i].text[:1].isupper()


def copular(low: str) -> bool:
    """A form of "be", written out or contracted with a stop word ("it's", "we're", "I'm")."""
    head, _, tail = low.partition("'")
    return low in lexicon().copula or (tail in ("s", "re", "m") and head in STOPWORDS)


def is_function(low: str) -> bool:
    """A word that carries no topic: a stop word, a negation cue, a light word, a qualifier, a single letter, a stop
    word contracted with a verb ("we're", "it's", "they've")."""
    lex = lexicon()
    return (
        low in STOPWORDS
        or low in lex.negation_cues
        or low.endswith("n't")
        or (low.partition("'")[2] in lex.contractions and low.partition("'")[0] in STOPWORDS)
        or low in lex.light
        or len(low) < 2
        or low in _qualifier_words()
    )


@functools.cache
def _qualifier_words() -> frozenset[str]:
    """Single words of the bound, approximation, hedge and change-marker lists: how a claim is put, not its topic."""
    lex = lexicon()
    out: set[str] = set()
    for group in (lex.upper, lex.lower, lex.approx, lex.hedges, lex.change_markers, lex.not_negation, lex.alt_markers):
        for p in group:
            if len(p) == 1:
                out.add(p[0])
    return frozenset(out)


def bare_short_month(toks: list[Tok], i: int) -> bool:
    """A short month ("Jun", "Mar", "Dec") with no day, year or date word beside it: more likely a name or a word
    ("Jun is the tech lead")."""
    lex = lexicon()
    if toks[i].low in lex.full_months:
        return False
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    prev = toks[i - 1] if i else None
    return not (
        (nxt is not None and nxt.kind in ("num", "alnum"))
        or (prev is not None and (prev.kind in ("num", "alnum") or prev.low in lex.short_month_context))
    )


def _saint_named(t: Tok) -> bool:
    """The word after "St." is a saint's name ("St. Mary's"), not a new sentence ("Baker St. Then ...")."""
    return t.text[:1].isupper() and t.low not in STOPWORDS and not is_function(t.low)

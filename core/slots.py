"""What a statement says, in pieces two statements can be compared on (SPEC §5.1).

Pure: a text in, an `Analysis` out; no clock, no file other than the package's word lists. `analyze` splits a
statement into tokens and clauses and reads:

- **typed value slots**: clock times, weekdays and parts of the day, dates (partial: "the 14th", "December 2025",
  "Q3", "mid-2027"), durations, frequencies, quantities with units (and rates: "300 requests a minute"), versions
  ("Python 3.12", "v2"), members of exclusive value classes (log levels, languages, databases, time zones, ...),
  places ("the third floor", "room 204", "the shed") and addresses (e-mail, URL, channel). Each value knows its
  clause, whether it is a bound ("by 05:00", "up to 3 days") or approximate ("about 08:15"), whether a negation
  covers it, and its role in "from X to Y";
- **names**: people, teams, products and other proper nouns ("Aiko Tanaka", "Harper & Co", "LaunchDarkly",
  "OPS-412");
- **polarity**: the terms a negation covers ("does not use X", "never", "X-free", "rather than Y", "intolerant"),
  and states with two poles ("up"/"down", "accepted"/"rejected", "supported"/"deprecated");
- **change cues** ("no longer", "switched", "moved from X to Y") and **hedges** ("I think", "apparently");
- **terms**: stemmed content words with a weight, what `subjects.py` compares.

Word lists and value classes live in `data/relations.toml`; nothing here names a particular statement.
"""

from __future__ import annotations

import functools
import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from .text import STOPWORDS
from .text import stem as text_stem

# ---------------------------------------------------------------------------------------------------------------------
# Lexicon (data/relations.toml)
# ---------------------------------------------------------------------------------------------------------------------


def _phrase(s: str) -> tuple[str, ...]:
    return tuple(_words_of(s))


def _words_of(s: str) -> list[str]:
    return [t for t in re.findall(r"[a-z0-9$€£%°#@+.'/&-]+", fold(s).lower()) if t]


@dataclass(frozen=True)
class Lexicon:
    raw: dict[str, Any]
    negation_cues: frozenset[str]
    not_negation: tuple[tuple[str, ...], ...]
    neg_prefixes: tuple[str, ...]
    predicate_endings: tuple[str, ...]
    free_suffixes: tuple[str, ...]
    clause_breaks: frozenset[str]
    alt_markers: tuple[tuple[str, ...], ...]
    preference_verbs: frozenset[str]
    states: dict[tuple[str, ...], tuple[str, int, bool]]  # phrase -> (class, pole +1/-1, needs copula)
    object_states: frozenset[str]  # classes whose two sides must share the object
    strong_cues: tuple[tuple[str, ...], ...]
    retiring: tuple[tuple[str, ...], ...]
    directional_cues: tuple[tuple[str, ...], ...]
    change_markers: tuple[tuple[str, ...], ...]
    hedges: tuple[tuple[str, ...], ...]
    approx: tuple[tuple[str, ...], ...]
    upper: tuple[tuple[str, ...], ...]
    lower: tuple[tuple[str, ...], ...]
    number_words: dict[str, float]
    ordinals: dict[str, int]
    multipliers: dict[str, float]
    units: dict[str, tuple[str, float]]
    glued_units: frozenset[str]
    weekdays: dict[str, int]
    weekday_groups: dict[tuple[str, ...], frozenset[int]]
    calendar_case: frozenset[str]
    months: dict[str, int]
    seasons: dict[str, int]
    quarters: dict[str, int]
    dayparts: dict[tuple[str, ...], tuple[int, int]]
    clock_words: dict[tuple[str, ...], int]
    relative_days: frozenset[str]
    year_parts: dict[str, tuple[int, int]]
    freq_words: dict[str, float]
    every: frozenset[str]
    other: frozenset[str]
    classes: dict[tuple[str, ...], list[tuple[str, str, frozenset[str], bool]]]  # phrase -> [(class, canon, heads, cs)]
    class_max_len: int
    places: frozenset[tuple[str, ...]]
    numbered_places: frozenset[str]
    place_preps: frozenset[str]
    honorifics: frozenset[str]
    roles: tuple[tuple[str, ...], ...]
    label_heads: frozenset[str]
    value_before: frozenset[str]
    value_preps: frozenset[str]
    org_suffixes: frozenset[str]
    light: frozenset[str]
    abbreviations: dict[str, str]
    variants: dict[str, str]


@functools.cache
def lexicon() -> Lexicon:
    data = tomllib.loads(resources.files("memkeeper.core").joinpath("data/relations.toml").read_text("utf-8"))
    neg = data["negation"]
    states: dict[tuple[str, ...], tuple[str, int, bool]] = {}
    for cls, poles in data["states"].items():
        for key, pole, copula in (("plus", 1, False), ("minus", -1, False), ("plus_copula", 1, True),
                                  ("minus_copula", -1, True)):
            for w in poles.get(key, []):
                states.setdefault(_phrase(w), (cls, pole, copula))
    classes: dict[tuple[str, ...], list[tuple[str, str, frozenset[str], bool]]] = {}
    for cls, spec in data["classes"].items():
        heads = frozenset(fold(h).lower() for h in spec.get("heads", []))
        cs = frozenset(fold(w).lower() for w in spec.get("case_sensitive", []))
        for w in spec["members"]:
            p = _phrase(w)
            canon = " ".join(p)
            canon = fold(data["vocabulary"]["abbreviations"].get(canon, canon)).lower()
            classes.setdefault(p, []).append((cls, canon, heads, canon in cs or " ".join(p) in cs))
    cal = data["calendar"]
    weekdays = {fold(w): i + 1 for i, names in enumerate(cal["weekdays"]) for w in names}
    months = {fold(w): i + 1 for i, names in enumerate(cal["months"]) for w in names}
    units: dict[str, tuple[str, float]] = {}
    for name, (dim, factor) in data["units"].items():
        units[name.rstrip("_")] = (dim, float(factor))
    return Lexicon(
        raw=data,
        negation_cues=frozenset(neg["cues"]) | frozenset(neg["contractions"]),
        not_negation=tuple(sorted((_phrase(p) for p in neg["not_negation"]), key=len, reverse=True)),
        neg_prefixes=tuple(sorted(neg["prefixes"], key=len, reverse=True)),
        predicate_endings=tuple(neg["predicate_endings"]),
        free_suffixes=tuple(neg["free_suffixes"]),
        clause_breaks=frozenset(data["clauses"]["breaks"]),
        alt_markers=tuple(_phrase(p) for p in data["alternatives"]["markers"]),
        preference_verbs=frozenset(data["alternatives"]["preference_verbs"]),
        states=states,
        object_states=frozenset(c for c, spec in data["states"].items() if spec.get("needs_object")),
        strong_cues=tuple(sorted((_phrase(p) for p in data["supersession"]["strong"]), key=len, reverse=True)),
        retiring=tuple(sorted((_phrase(p) for p in data["supersession"]["retiring"]), key=len, reverse=True)),
        directional_cues=tuple(_phrase(p) for p in data["supersession"]["directional"]),
        change_markers=tuple(_phrase(p) for p in data["supersession"]["markers"]),
        hedges=tuple(_phrase(p) for p in data["hedges"]["phrases"]),
        approx=tuple(_phrase(p) for p in data["hedges"]["approx"]),
        upper=tuple(sorted((_phrase(p) for p in data["bounds"]["upper"]), key=len, reverse=True)),
        lower=tuple(sorted((_phrase(p) for p in data["bounds"]["lower"]), key=len, reverse=True)),
        number_words={k: float(v) for k, v in data["numbers"]["words"].items()},
        ordinals={k: int(v) for k, v in data["numbers"]["ordinals"].items()},
        multipliers={k: float(v) for k, v in data["numbers"]["multipliers"].items()},
        units=units,
        glued_units=frozenset(data["units_glued"]["names"]),
        weekdays=weekdays,
        weekday_groups={_phrase(k): frozenset(v) for k, v in cal["weekday_groups"].items()},
        calendar_case=frozenset(cal["case_sensitive"]),
        months=months,
        seasons=dict(cal["seasons"]),
        quarters=dict(cal["quarters"]),
        dayparts={_phrase(k): (int(v[0]), int(v[1])) for k, v in cal["dayparts"].items()},
        clock_words={_phrase(k): int(v) for k, v in cal["clock_words"].items()},
        relative_days=frozenset(cal["relative_days"]),
        year_parts={k: (int(v[0]), int(v[1])) for k, v in cal["year_parts"].items()},
        freq_words={fold(k): float(v) for k, v in data["frequencies"]["words"].items()},
        every=frozenset(data["frequencies"]["every"]),
        other=frozenset(data["frequencies"]["other"]),
        classes=classes,
        class_max_len=max(len(p) for p in classes),
        places=frozenset(_phrase(p) for p in data["places"]["nouns"]),
        numbered_places=frozenset(data["places"]["numbered"]),
        place_preps=frozenset(data["places"]["prepositions"]),
        honorifics=frozenset(data["people"]["honorifics"]),
        roles=tuple(_phrase(p) for p in data["roles"]["words"]),
        label_heads=frozenset(data["labels"]["heads"]),
        value_before=frozenset(data["roles"]["value_before"]),
        value_preps=frozenset(data["roles"]["value_preps"]),
        org_suffixes=frozenset(data["people"]["org_suffixes"]),
        light=frozenset(data["vocabulary"]["light"]),
        abbreviations={fold(k).lower(): fold(v).lower() for k, v in data["vocabulary"]["abbreviations"].items()},
        variants={k: v for k, v in data["vocabulary"]["variants"].items()},
    )


# ---------------------------------------------------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------------------------------------------------


def fold(s: str) -> str:
    """NFKC, typographic apostrophes and dashes made plain, accents dropped (Tomás -> Tomas)."""
    s = unicodedata.normalize("NFKC", s).replace("\u2019", "'").replace("\u2018", "'")
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c))


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The comparison form of a word: lower-case, spelling variant folded, Porter2 stem."""
    w = word.lower().strip("'")
    if w.endswith("'s"):
        w = w[:-2]
    lex = lexicon()
    w = lex.variants.get(w, w)
    exp = lex.abbreviations.get(w)
    if exp and " " not in exp:
        w = exp  # "prod" -> production, "k8s" -> kubernetes
    if not w.isalpha():
        return w
    if w.endswith("es") and len(w) > 4 and w[-3] in "hsxz" and w[-4:-2] in ("sh", "ch", "ss", "sx", "hs"):
        w = w[:-2]  # "SSHes", "pushes", "matches"
    return text_stem(w)


# ---------------------------------------------------------------------------------------------------------------------
# Tokens and clauses
# ---------------------------------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""
    (?P<url>https?://[^\s)]+[^\s.,;:!?)])
   |(?P<email>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)
   |(?P<handle>[\w.+-]+@)(?![\w])
   |(?P<channel>\#[\w-]+)
   |(?P<isodate>\d{4}-\d{2}-\d{2})
   |(?P<ratio>\b\d:\d\b)
   |(?P<time>\d{1,2}:\d{2}(?:\s?[ap]\.?m\b)?|\b\d{1,2}\s?[ap]\.?m\b)
   |(?P<money>[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|mm|bn|million|billion|thousand)\b)?)
   |(?P<alnum>\d+[A-Za-z][\w]*(?:-[\w]+)*)
   |(?P<num>\d[\d,]*(?:\.\d+)*(?:\.x)?%?)
   |(?P<word>[^\W\d_](?:[\w'’]*[\w])?(?:[-/&.+#][\w]+)*[+#]*)
   |(?P<punct>[.,;:!?()\[\]"“”—–&/%-])
    """,
    re.VERBOSE,
)
_ORDINAL = re.compile(r"^(\d{1,2})(st|nd|rd|th)$")
_GLUED = re.compile(r"^(\d+(?:\.\d+)?)([a-z]+)$")
_SENT_END = frozenset({".", "!", "?"})
_CLAUSE_PUNCT = frozenset({";", ":", "(", ")", "—", "–", "-", ",", "[", "]", '"', "“", "”"})


@dataclass
class Tok:
    i: int
    text: str  # as written
    low: str  # folded, lower-case
    kind: str  # word | num | time | money | email | handle | url | channel | isodate | ratio | alnum | punct
    sent: int = 0
    clause: int = 0
    initial: bool = False  # first word of its sentence
    stem: str = ""
    used: bool = False  # consumed by a value


def tokenize(text: str) -> list[Tok]:
    toks: list[Tok] = []
    for m in _TOKEN.finditer(fold(text)):
        kind = m.lastgroup or "word"
        s = m.group(0)
        if kind == "alnum":
            low = s.lower()
            g = _GLUED.match(low)
            om = _ORDINAL.match(low)
            if om:
                toks.append(Tok(len(toks), s, low, "num"))
                continue
            lex = lexicon()
            if g and (g.group(2) in lex.units or g.group(2) in lex.multipliers):
                toks.append(Tok(len(toks), g.group(1), g.group(1), "num"))
                toks.append(Tok(len(toks), g.group(2), g.group(2), "unit"))
                continue
            kind = "word"
        toks.append(Tok(len(toks), s, s.lower(), kind))
    _segment(toks)
    return toks


def _segment(toks: list[Tok]) -> None:
    lex = lexicon()
    sent = clause = 0
    start = True
    for j, t in enumerate(toks):
        if t.kind == "punct":
            prev = toks[j - 1].low if j else ""
            if t.low in _SENT_END and prev not in lex.honorifics and not (len(prev) == 1 and prev.isalpha()):
                sent += 1
                clause += 1
                start = True
            elif t.low in _CLAUSE_PUNCT and not (t.low in "-/" and j and toks[j - 1].kind != "punct"
                                                 and j + 1 < len(toks) and toks[j + 1].kind == "time"):
                clause += 1
            t.sent, t.clause = sent, clause
            continue
        if t.low in lex.clause_breaks and not start:
            clause += 1
        t.sent, t.clause = sent, clause
        if t.kind == "word":
            t.initial = start
            t.stem = stem(t.low)
        start = False


def _match(toks: list[Tok], i: int, phrase: tuple[str, ...]) -> bool:
    if i + len(phrase) > len(toks):
        return False
    return all(toks[i + k].low == w for k, w in enumerate(phrase))


_KEYS: dict[int, tuple[object, tuple[tuple[str, ...], ...]]] = {}


def _keys(mapping) -> tuple[tuple[str, ...], ...]:
    """The phrases of a lexicon mapping or set as one stable tuple (so its first-word index is built once)."""
    got = _KEYS.get(id(mapping))
    if got is None or got[0] is not mapping:
        got = (mapping, tuple(mapping))
        _KEYS[id(mapping)] = got
    return got[1]


def _base(t: Tok) -> str:
    """The word without a possessive ("Prettier's" -> prettier)."""
    return t.low[:-2] if t.low.endswith("'s") else t.low


_INDEXES: dict[int, tuple[object, dict[str, list[tuple[str, ...]]]]] = {}


def _first_word_index(phrases: tuple[tuple[str, ...], ...]) -> dict[str, list[tuple[str, ...]]]:
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


def _match_any(toks: list[Tok], i: int, phrases: tuple[tuple[str, ...], ...]) -> tuple[str, ...] | None:
    if i >= len(toks):
        return None
    for p in _first_word_index(phrases).get(toks[i].low, ()):
        if _match(toks, i, p):
            return p
    return None


# ---------------------------------------------------------------------------------------------------------------------
# The analysis
# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Value:
    kind: str  # time | weekday | daypart | date | duration | frequency | quantity | version | enum | place | address
    key: str  # what is compared within a kind: unit dimension, class name, versioned name; "" when none
    val: Any  # normalised value (see the kind's reader)
    text: str  # as written
    clause: int
    start: int  # token index
    bound: str | None = None  # "upper" | "lower" | None
    approx: bool = False
    negated: bool = False
    role: str | None = None  # "from" | "to" in "from X to Y"


@dataclass(frozen=True)
class Name:
    text: str  # as written, joined
    key: str  # folded lower-case words joined by one space
    words: tuple[str, ...]
    clause: int
    start: int
    initial: bool  # a single capitalised word that opens a sentence: maybe only a capitalised common word
    possessive: bool = False
    negated: bool = False
    value_like: bool = False  # placed where a value goes: after "is", "by", "is in", "built with" ...
    next_stem: str = ""  # the lower-case word right after it ("Atlas staging" -> stage)
    next_plural: bool = False
    scoped: bool = False  # after "for", "of", "about": what the statement is about, not a value


@dataclass(frozen=True)
class State:
    cls: str
    pole: int
    text: str
    clause: int
    after: frozenset[str] = frozenset()  # stems after the state word in its clause (its object)
    around: frozenset[str] = frozenset()  # stems of its whole clause


@dataclass(frozen=True)
class Analysis:
    text: str
    tokens: tuple[Tok, ...]
    values: tuple[Value, ...]
    names: tuple[Name, ...]
    states: tuple[State, ...]
    affirmed: frozenset[str]  # stems of content words outside any negation
    negated: frozenset[str]  # stems a negation or a rejected alternative covers
    neutral: frozenset[str]  # stems in a clause with a negative state ("X is blocked"): neither
    prefixed: dict[str, str] = field(default_factory=dict)  # stem of the rest -> word, for "intolerant", "unsupported"
    cues: tuple[str, ...] = ()  # change cues, as written
    from_to: tuple[tuple[Value | Name | str, Value | Name | str], ...] = ()
    markers: tuple[str, ...] = ()  # weak change markers ("now", "since", ...)
    hedged: bool = False
    role: bool = False  # names a role one person holds at a time ("owns", "maintainer", "our accountant")
    terms: dict[str, float] = field(default_factory=dict)  # stem -> weight (what the statement is about)
    words: frozenset[str] = frozenset()  # every folded lower-case word (for "does the other side mention X")
    modifiers: dict[str, frozenset[str]] = field(default_factory=dict)  # head stem -> stems of words before it
    clause_terms: dict[int, frozenset[str]] = field(default_factory=dict)


def analyze(text: str) -> Analysis:
    return _analyze(" ".join(text.split()))


@functools.lru_cache(maxsize=8192)
def _analyze(text: str) -> Analysis:
    lex = lexicon()
    toks = tokenize(text)
    values: list[Value] = []
    _read_values(toks, values)
    names = _read_names(toks)
    neg_idx, rejected_idx = _negation_scopes(toks)
    states = _read_states(toks, neg_idx)
    prefixed: dict[str, str] = {}
    affirmed: set[str] = set()
    negated: set[str] = set()
    neutral: set[str] = set()
    minus_clauses = {s.clause for s in states if s.pole < 0}
    clause_terms: dict[int, set[str]] = {}
    for t in toks:
        if t.kind != "word" or _is_function(t.low):
            continue
        stems = _stems_of(t)
        clause_terms.setdefault(t.clause, set()).update(stems)
        if t.i in neg_idx or t.i in rejected_idx:
            negated.update(stems)
        elif t.clause in minus_clauses:
            neutral.update(stems)
        else:
            affirmed.update(stems)
        for suffix in lex.free_suffixes:
            if t.low.endswith(suffix) and len(t.low) > len(suffix) + 2:
                negated.add(stem(t.low[: -len(suffix)]))
        for p in lex.neg_prefixes:
            rest = t.low[len(p):]
            if t.low.startswith(p) and len(rest) >= 4 and rest.endswith(lex.predicate_endings):
                prefixed[stem(rest)] = t.low
                break
    # Values a negation covers are negated values: "not part of 2.0", "never on a Saturday".
    values = [v if not (v.start in neg_idx or v.start in rejected_idx) else _replace(v, negated=True) for v in values]
    names = [n if not (n.start in neg_idx or n.start in rejected_idx) else _replace(n, negated=True) for n in names]
    for n in names:
        if n.negated:
            negated.update(n.words)
        elif n.clause in minus_clauses:
            neutral.update(n.words)
        else:
            affirmed.update(n.words)
    cues, from_to, markers = _change_cues(toks, values, names)
    values, names = _mark_retired(toks, values, names)
    hedged = any(_match_any(toks, i, lex.hedges) for i in range(len(toks)))
    role = any(_match_any(toks, i, lex.roles) for i in range(len(toks)))
    terms = _terms(toks, names)
    modifiers = _modifiers(toks)
    return Analysis(
        text=text, tokens=tuple(toks), values=tuple(values), names=tuple(names), states=tuple(states),
        affirmed=frozenset(affirmed - negated), negated=frozenset(negated), neutral=frozenset(neutral - affirmed),
        prefixed=prefixed, cues=tuple(cues), from_to=tuple(from_to), markers=tuple(markers), hedged=hedged, role=role,
        terms=terms, words=frozenset(w for t in toks for w in _word_forms(t)), modifiers=modifiers,
        clause_terms={k: frozenset(v) for k, v in clause_terms.items()},
    )


def _replace(obj, **kw):
    from dataclasses import replace

    return replace(obj, **kw)


def _is_function(low: str) -> bool:
    lex = lexicon()
    return (low in STOPWORDS or low in lex.negation_cues or low.endswith("n't") or low in lex.light
            or len(low) < 2 or low in _qualifier_words())


@functools.cache
def _qualifier_words() -> frozenset[str]:
    """Single words of the bound, approximation, hedge and change-marker lists: how a claim is put, not its topic."""
    lex = lexicon()
    out: set[str] = set()
    for group in (lex.upper, lex.lower, lex.approx, lex.hedges, lex.change_markers, lex.not_negation,
                  lex.alt_markers):
        for p in group:
            if len(p) == 1:
                out.add(p[0])
    return frozenset(out)


def _stems_of(t: Tok) -> set[str]:
    """A word's stem, plus its parts when hyphenated or slashed ("back-garden", "Legal/Contracts")."""
    out = {t.stem or stem(t.low)}
    if any(c in t.low for c in "-/"):
        for part in re.split(r"[-/]", t.low):
            if len(part) >= 2 and part not in STOPWORDS:
                out.add(stem(part))
    return out


def _word_forms(t: Tok) -> set[str]:
    out = {t.low}
    if t.kind == "word":
        out.add(t.stem or stem(t.low))
        for part in re.split(r"[-/]", t.low):
            if part:
                out.add(part)
                out.add(stem(part))
    elif t.kind in ("email", "handle"):
        local = t.low.split("@")[0]
        out.update({local, stem(local)})
    return out


# ---------------------------------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------------------------------


def _is_calendar_or_class(t: Tok, toks: list[Tok]) -> bool:
    lex = lexicon()
    low = t.low
    if low in lex.weekdays or low in lex.months or low in lex.quarters or low in lex.seasons:
        return True
    if low in lex.freq_words or low in lex.number_words or low in lex.ordinals:
        return True
    return (low,) in lex.classes or t.used


_ACRONYM = re.compile(r"^[A-Z][A-Z0-9&]+s?$")
_INNER_CAP = re.compile(r"^[a-zA-Z]+[A-Z][a-zA-Z]*$")


def _capitalised(t: Tok) -> bool:
    return t.kind == "word" and (t.text[:1].isupper() or bool(_INNER_CAP.match(t.text)) or
                                 (any(c.isdigit() for c in t.text) and any(c.isalpha() for c in t.text)))


def _read_names(toks: list[Tok]) -> list[Name]:
    lex = lexicon()
    names: list[Name] = []
    j = 0
    n = len(toks)
    while j < n:
        t = toks[j]
        if not _capitalised(t) or t.used or t.low in ("i", "i'm", "i'd", "i've", "i'll"):
            j += 1
            continue
        shaped = bool(_ACRONYM.match(t.text) or _INNER_CAP.match(t.text) or any(c.isdigit() for c in t.text))
        # "Risk:", "Lesson from Harbor:", "Decided:": a heading word, not a name
        heading = t.initial and any(toks[k].low == ":" for k in range(j + 1, min(n, j + 4)) if toks[k].sent == t.sent)
        if heading or (t.initial and not shaped and (t.low in STOPWORDS or _is_function(t.low) or t.low.endswith(
                "ly") or t.low in lex.negation_cues or t.low.endswith("n't"))):
            j += 1
            continue
        if _is_calendar_or_class(t, toks) and not shaped:
            j += 1
            continue
        if _is_calendar_or_class(t, toks) and t.used:
            j += 1
            continue
        words = [t]
        k = j + 1
        while k < n and not words[-1].low.endswith("'s"):
            u = toks[k]
            if u.kind == "punct" and u.low == "&" and k + 1 < n and _capitalised(toks[k + 1]):
                words.append(u)
                k += 1
                continue
            if u.kind == "punct" and u.low == "." and words[-1].low in lex.honorifics:
                k += 1
                continue
            if _capitalised(u) and not u.used and u.sent == t.sent and not _is_calendar_or_class(u, toks):
                words.append(u)
                k += 1
                continue
            break
        if words[0].low in lex.honorifics and len(words) > 1:
            words = words[1:]
        if len(words) == 1 and words[0].low in lex.honorifics:
            j = k
            continue
        text = " ".join(w.text for w in words)
        keyw = tuple(w.low.removesuffix("'s") for w in words if w.low != "&")
        possessive = words[-1].low.endswith("'s")
        initial = (words[0].initial and len(words) == 1 and not shaped and not possessive)
        k0 = words[0].i - 1
        while k0 >= 0 and toks[k0].low in ("the", "our", "a", "an", "their", "its", "his", "her", "my", "your",
                                           "mr", "mrs", "ms", "dr", "."):
            k0 -= 1
        value_like = k0 >= 0 and toks[k0].low in lex.value_before
        if k0 >= 1 and toks[k0].low in lex.value_preps:
            v = toks[k0 - 1]
            value_like = v.kind == "word" and (v.low in _COPULA or v.low.endswith(("ed", "en", "ing")) or v.low in (
                "be", "live", "lives", "sit", "sits", "stay", "stays"))
        scoped = k0 >= 0 and toks[k0].low in ("for", "of", "about", "regarding", "within", "across")
        after = toks[words[-1].i + 1] if words[-1].i + 1 < n else None
        nxt = after.stem if after is not None and after.kind == "word" and not after.text[:1].isupper() else ""
        names.append(Name(text=text, key=" ".join(keyw), words=tuple(stem(w) for w in keyw), clause=words[0].clause,
                          start=words[0].i, initial=initial, possessive=possessive, value_like=value_like,
                          next_stem=nxt, next_plural=bool(after is not None and after.low.endswith("s")),
                          scoped=scoped))
        j = k
    return names


# ---------------------------------------------------------------------------------------------------------------------
# Polarity
# ---------------------------------------------------------------------------------------------------------------------


def _negation_scopes(toks: list[Tok]) -> tuple[set[int], set[int]]:
    """Token indexes covered by a negation, and by a rejected alternative ("rather than Y", "prefers X over Y")."""
    lex = lexicon()
    neg: set[int] = set()
    rejected: set[int] = set()
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        skip = _match_any(toks, i, lex.not_negation)
        if skip:
            i += len(skip)
            continue
        alt = _match_any(toks, i, lex.alt_markers)
        if alt:
            k = i + len(alt)
            while k < n and toks[k].clause == toks[i + len(alt) - 1].clause:
                rejected.add(k)
                k += 1
            i = k
            continue
        if t.low == "over" and i > 0 and any(toks[m].low in lex.preference_verbs for m in range(max(0, i - 4), i)
                                                 if toks[m].clause == t.clause):
            k = i + 1
            while k < n and toks[k].clause == t.clause:
                rejected.add(k)
                k += 1
            i = k
            continue
        if t.kind == "word" and (t.low in lex.negation_cues or t.low.endswith("n't")):
            k = i + 1
            while k < n and toks[k].clause == t.clause:
                neg.add(k)
                k += 1
            if t.low in ("nobody", "noone", "none", "nothing"):
                neg.add(i)
        i += 1
    return neg, rejected


_COPULA = frozenset({"is", "are", "was", "were", "be", "been", "being", "'s", "stays", "stay", "remains", "remain",
                     "turned", "switched", "set", "kept", "left", "now", "still", "currently", "fully", "all"})


def _read_states(toks: list[Tok], neg: set[int]) -> list[State]:
    lex = lexicon()
    out: list[State] = []
    n = len(toks)
    i = 0
    longest = max(len(p) for p in lex.states)
    while i < n:
        found = None
        for size in range(min(longest, n - i), 0, -1):
            p = tuple(toks[i + k].low for k in range(size))
            if p in lex.states:
                found = (p, lex.states[p])
                break
        if not found:
            i += 1
            continue
        p, (cls, pole, copula) = found
        if i + len(p) < n and toks[i + len(p)].low == "by":
            i += len(p)  # "is maintained by X", "was approved by Y": a passive verb, not a state
            continue
        if copula:
            prev = toks[i - 1].low if i else ""
            nxt = toks[i + len(p)] if i + len(p) < n else None
            ends = nxt is None or nxt.kind == "punct" or nxt.low in ("and", "for", "by", "in", "again", "now",
                                                                      "today", "since", "at")
            if prev not in _COPULA or not ends:
                i += len(p)
                continue
        if i in neg:
            pole = -pole
        clause = toks[i].clause
        after = frozenset(t.stem for t in toks[i + len(p):] if t.clause == clause and t.kind == "word" and t.stem
                          and not _is_function(t.low))
        around = frozenset(t.stem for t in toks if t.clause == clause and t.kind == "word" and t.stem
                           and not _is_function(t.low) and (t.low,) not in lex.states)
        out.append(State(cls, pole, " ".join(p), clause, after, around))
        i += len(p)
    return out


# ---------------------------------------------------------------------------------------------------------------------
# Change cues
# ---------------------------------------------------------------------------------------------------------------------


def _change_cues(toks: list[Tok], values: list[Value], names: list[Name]):
    lex = lexicon()
    cues: list[str] = []
    markers: list[str] = []
    n = len(toks)
    for i in range(n):
        p = _match_any(toks, i, lex.strong_cues)
        if p:
            cues.append(" ".join(p))
            continue
        p = _match_any(toks, i, lex.directional_cues)
        if p:
            window = [toks[k].low for k in range(i + len(p), min(n, i + len(p) + 8)) if toks[k].clause in
                      (toks[i].clause, toks[i].clause + 1)]
            if "from" in window or "to" in window or "into" in window or "by" in window:
                cues.append(" ".join(p))
        m = _match_any(toks, i, lex.change_markers)
        if m:
            markers.append(" ".join(m))
    from_to = []
    for i in range(n):
        if toks[i].low != "from":
            continue
        for k in range(i + 1, min(n, i + 8)):
            if toks[k].low == "to" and toks[k].sent == toks[i].sent:
                a = _item_in(range(i + 1, k), values, names, toks)
                b = _item_in(range(k + 1, min(n, k + 6)), values, names, toks)
                if a is not None and b is not None:
                    from_to.append((a, b))
                break
    return cues, from_to, markers


def _mark_retired(toks: list[Tok], values: list[Value], names: list[Name]) -> tuple[list[Value], list[Name]]:
    """What follows "retired", "replaced", "stopped using", "gave up" (in its clause) is the old value: role "from"."""
    lex = lexicon()
    starts: list[tuple[int, int]] = []
    for i in range(len(toks)):
        p = _match_any(toks, i, lex.retiring)
        if p:
            starts.append((i + len(p), toks[i].clause))
    if not starts:
        return values, names

    def old(pos: int, clause: int) -> bool:
        return any(s <= pos < s + 5 and clause == c for s, c in starts)

    values = [_replace(v, role="from") if v.role is None and old(v.start, v.clause) else v for v in values]
    names = [_replace(n, negated=True) if old(n.start, n.clause) else n for n in names]
    return values, names


def _item_in(span: range, values: list[Value], names: list[Name], toks: list[Tok]):
    for v in values:
        if v.start in span:
            return v
    for nm in names:
        if nm.start in span:
            return nm
    for k in span:
        t = toks[k]
        if t.kind == "word" and not _is_function(t.low):
            return t.stem
    return None


# ---------------------------------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------------------------------


def _number(tok: Tok) -> float | None:
    lex = lexicon()
    s = tok.low
    if tok.kind == "num":
        om = _ORDINAL.match(s)
        if om:
            return float(om.group(1))
        s = s.rstrip("%").replace(",", "")
        if s.endswith(".x"):
            s = s[:-2]
        try:
            return float(s)
        except ValueError:
            try:
                return float(s.split(".")[0])
            except ValueError:
                return None
    if tok.kind == "word":
        if s in lex.number_words:
            return lex.number_words[s]
        if "-" in s:
            parts = s.split("-")
            if all(p in lex.number_words for p in parts):
                return sum(lex.number_words[p] for p in parts)
    return None


def _bound_before(toks: list[Tok], i: int) -> tuple[str | None, bool]:
    """The bound and approximation words right before token i (same clause, up to 4 words back)."""
    lex = lexicon()
    bound = None
    approx = False
    start = max(0, i - 5)
    for k in range(start, i):
        if toks[k].clause != toks[i].clause and toks[k].sent != toks[i].sent:
            continue
        p = _match_any(toks, k, lex.upper)
        if p and k + len(p) <= i:
            bound = "upper"
        p = _match_any(toks, k, lex.lower)
        if p and k + len(p) <= i:
            bound = "lower"
        if _match_any(toks, k, lex.approx):
            approx = True
    # "X or more", "X or later", "at the latest"
    return bound, approx


def _bound_after(toks: list[Tok], j: int) -> str | None:
    lex = lexicon()
    if j < len(toks) and toks[j].low in ("at", "or"):
        if _match_any(toks, j, lex.upper):
            return "upper"
        if _match_any(toks, j, lex.lower):
            return "lower"
    return None


def _add(values: list[Value], toks: list[Tok], kind: str, key: str, val: Any, i: int, j: int, **kw) -> None:
    """A value read from tokens i..j-1 (marks them used)."""
    bound, approx = _bound_before(toks, i)
    after = _bound_after(toks, j)
    for k in range(i, j):
        toks[k].used = True
    text = " ".join(t.text for t in toks[i:j])
    values.append(Value(kind, key, val, text, toks[i].clause, i, bound=kw.pop("bound", None) or after or bound,
                        approx=approx or kw.pop("approx", False), **kw))


def _time_of(tok: Tok) -> int | None:
    m = re.match(r"^(\d{1,2})(?::(\d{2}))?\s?([ap])?\.?m?\.?$", tok.low)
    if not m:
        return None
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if ap == "p" and h < 12:
        h += 12
    if ap == "a" and h == 12:
        h = 0
    if h > 24 or mi > 59:
        return None
    return h * 60 + mi


def _read_values(toks: list[Tok], values: list[Value]) -> None:
    for t in toks:
        if t.kind in ("email", "url", "channel", "handle"):
            t.used = True
            key = t.low.split("@")[0] if t.kind == "handle" else t.low
            values.append(Value("address", t.kind if t.kind != "handle" else "email", key, t.text, t.clause, t.i))
        elif t.kind == "isodate":
            y, mo, d = (int(x) for x in t.low.split("-"))
            _add(values, toks, "date", "", (y, mo, d), t.i, t.i + 1)
    _read_times(toks, values)
    _read_calendar(toks, values)
    _read_frequencies(toks, values)
    _read_versions(toks, values)
    _read_quantities(toks, values)
    _read_classes(toks, values)
    _read_places(toks, values)


def _unambiguous(low: str) -> bool:
    """A clock time that is not one of two (am/pm given, a leading zero, or an hour past 12)."""
    return "m" in low or low.startswith("0") or (low[:2].isdigit() and int(low[:2]) > 12)


def _read_times(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t.used:
            i += 1
            continue
        if t.kind == "time":
            m = _time_of(t)
            if m is not None:
                end = i + 1
                # a range: 01:00-03:00, 9 to 5
                if end + 1 < n and toks[end].low in ("-", "to", "–", "until") and toks[end + 1].kind == "time":
                    m2 = _time_of(toks[end + 1])
                    end += 2
                    _add(values, toks, "time", "", (m, m2 if m2 is not None else m, _unambiguous(t.low)), i, end)
                else:
                    _add(values, toks, "time", "", (m, m, _unambiguous(t.low)), i, end)
                i = end
                continue
        # "quarter past three", "half past two"
        cw = _match_any(toks, i, _keys(lex.clock_words))
        if cw:
            k = i + len(cw)
            if k < n:
                h = _number(toks[k])
                if h is not None and 0 < h <= 12:
                    mi = int(h) * 60 + lex.clock_words[cw]
                    _add(values, toks, "time", "", (mi, mi, False), i, k + 1)
                    i = k + 1
                    continue
        # "at 9", "at 11" next to a day or part of the day
        if t.low == "at" and i + 1 < n and toks[i + 1].kind == "num" and not toks[i + 1].used:
            h = _number(toks[i + 1])
            nxt = toks[i + 2].low if i + 2 < n else ""
            if h is not None and h == int(h) and 0 < h <= 24 and (nxt in ("", ".", ",", ";", "o'clock", "on",
                                                                          "in", "and", "every", "sharp")
                                                               or nxt in _time_words()):
                _add(values, toks, "time", "", (int(h) * 60, int(h) * 60, False), i + 1, i + 2)
                i += 2
                continue
        dp = _match_any(toks, i, _keys(lex.dayparts))
        if dp:
            a, b = lex.dayparts[dp]
            _add(values, toks, "daypart", "", (a, b), i, i + len(dp))
            i += len(dp)
            continue
        i += 1


def _read_calendar(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t.used or t.kind not in ("word", "num", "alnum"):
            i += 1
            continue
        low = t.low
        cs_ok = low not in lex.calendar_case or t.text[:1].isupper()
        grp = _match_any(toks, i, _keys(lex.weekday_groups))
        if grp and not (grp == ("daily",)):
            _add(values, toks, "weekday", "", lex.weekday_groups[grp], i, i + len(grp))
            i += len(grp)
            continue
        if low in lex.weekdays and cs_ok:
            days = {lex.weekdays[low]}
            j = i + 1
            # "Monday and Wednesday", "Mon-Fri"
            if j + 1 < n and toks[j].low in ("and", "or", "-", "to", "&", "/") and toks[j + 1].low in lex.weekdays:
                d2 = lex.weekdays[toks[j + 1].low]
                if toks[j].low in ("-", "to"):
                    a, b = sorted((days.pop(), d2))
                    days = set(range(a, b + 1))
                else:
                    days.add(d2)
                j += 2
            _add(values, toks, "weekday", "", frozenset(days), i, j)
            # "Friday the 14th"
            om2 = _ORDINAL.match(toks[j + 1].low) if j + 1 < n and toks[j].low == "the" else None
            if om2:
                _add(values, toks, "date", "", (None, None, int(om2.group(1))), j, j + 2)
                j += 2
            i = j
            continue
        if low in lex.months and cs_ok and not (low == "may" and t.initial):
            month = lex.months[low]
            j = i + 1
            day = year = None
            if j < n and toks[j].kind == "num":
                v = _number(toks[j])
                if v is not None and 1 <= v <= 31 and v == int(v):
                    day = int(v)
                    j += 1
                    if j + 1 < n and toks[j].low == "," and toks[j + 1].kind == "num" and len(toks[j + 1].low) == 4:
                        year = int(toks[j + 1].low)
                        j += 2
                elif v is not None and 1900 <= v <= 2200:
                    year = int(v)
                    j += 1
            elif i >= 1 and toks[i - 1].kind == "num":
                v = _number(toks[i - 1])
                if v is not None and 1 <= v <= 31 and not toks[i - 1].used:
                    day = int(v)
                    i -= 1
            om3 = _ORDINAL.match(toks[i - 2].low) if i >= 2 and day is None and toks[i - 1].low == "of" else None
            if om3:
                day = int(om3.group(1))
                i -= 2
            _add(values, toks, "date", "", (year, month, day), i, j)
            i = j
            continue
        if low in lex.quarters and (t.text[:1].isupper() or low.startswith("q")):
            j = i + 1
            year = None
            if j < n and toks[j].kind == "num" and len(toks[j].low) == 4:
                year = int(toks[j].low)
                j += 1
            _add(values, toks, "date", "quarter", (year, lex.quarters[low]), i, j)
            i = j
            continue
        if low in lex.seasons and (low not in lex.calendar_case or t.text[:1].isupper()):
            _add(values, toks, "date", "season", (None, lex.seasons[low]), i, i + 1)
            i += 1
            continue
        # "mid-2027", "early 2026", "late 2025"
        m = re.match(r"^(early|mid|middle|late|end|beginning|start)-(\d{4})$", low)
        if m:
            a, b = lex.year_parts[m.group(1)]
            _add(values, toks, "date", "", (int(m.group(2)), (a, b), None), i, i + 1)
            i += 1
            continue
        if low in lex.year_parts and i + 1 < n and toks[i + 1].kind == "num" and len(toks[i + 1].low) == 4:
            a, b = lex.year_parts[low]
            _add(values, toks, "date", "", (int(toks[i + 1].low), (a, b), None), i, i + 2)
            i += 2
            continue
        if t.kind == "num" and re.fullmatch(r"(19|20|21)\d\d", low) and not (i and toks[i - 1].low in ("$", "v")):
            prev = toks[i - 1].low if i else ""
            if prev in ("in", "of", "since", "until", "by", "from", "for", "during", "before", "after", "end",
                        "year", "early", "late", "mid", "q1", "q2", "q3", "q4", ",", "the"):
                _add(values, toks, "date", "", (int(low), None, None), i, i + 1)
                i += 1
                continue
        # "the 14th", "on the 21st"
        om = _ORDINAL.match(low)
        if om and i and toks[i - 1].low == "the":
            nxt = toks[i + 1].low if i + 1 < n else ""
            if nxt not in lex.units and nxt not in ("floor", "time", "place", "row", "line", "item"):
                _add(values, toks, "date", "", (None, None, int(om.group(1))), i - 1, i + 1)
                i += 1
                continue
        if low in lex.relative_days:
            t.used = True
        i += 1


def _unit_at(toks: list[Tok], j: int) -> tuple[str, float, int] | None:
    """A unit word at j: (dimension, factor, tokens used)."""
    lex = lexicon()
    if j >= len(toks):
        return None
    t = toks[j]
    low = t.low.rstrip(".")
    cands = [low]
    if low.endswith("s") and len(low) > 2:
        cands.append(low[:-1])
    if low.endswith("es") and len(low) > 3:
        cands.append(low[:-2])
    if low == "per" and j + 1 < len(toks) and toks[j + 1].low == "cent":
        return ("percent", 1.0, 2)
    for c in cands:
        if c in lex.units:
            if (c in lex.glued_units or len(c) == 1) and t.kind != "unit" and c not in ("$", "%", "€", "£"):
                continue
            dim, f = lex.units[c]
            return dim, f, 1
    if low.startswith("°") and low in lex.units:
        dim, f = lex.units[low]
        return dim, f, 1
    return None


def _time_unit(toks: list[Tok], j: int) -> float | None:
    u = _unit_at(toks, j)
    if u and u[0] == "time":
        return u[1]
    return None


def _read_frequencies(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t.used:
            i += 1
            continue
        low = t.low
        if low in lex.freq_words:
            _add(values, toks, "frequency", "", lex.freq_words[low], i, i + 1)
            i += 1
            continue
        # once/twice/N times (a|per|every) <unit>
        count = None
        j = i
        if low in ("once", "twice", "thrice"):
            count = lex.number_words[low]
            j = i + 1
        elif _number(t) is not None and i + 1 < n and toks[i + 1].low == "times":
            count = _number(t)
            j = i + 2
        if count is not None and j < n and toks[j].low in lex.every:
            k = j + 1
            mult = 1.0
            if k < n and _number(toks[k]) is not None and toks[k].low not in ("a", "an"):
                mult = _number(toks[k]) or 1.0
                k += 1
            f = _time_unit(toks, k) if k < n else None
            if f is not None:
                _add(values, toks, "frequency", "", f * mult / count, i, k + 1)
                i = k + 1
                continue
        # every (other)? (N)? <unit> | every <weekday>
        if low in ("every", "each"):
            k = i + 1
            mult = 1.0
            if k < n and toks[k].low in lex.other:
                mult = 2.0
                k += 1
            if k < n and _number(toks[k]) is not None and toks[k].kind in ("num", "word"):
                mult *= _number(toks[k]) or 1.0
                k += 1
            if k < n and toks[k].low in lex.weekdays:
                _add(values, toks, "frequency", "", 604800.0 * mult, i, i + 1)
                i = k
                continue
            f = _time_unit(toks, k)
            if f is not None and k < n:
                _add(values, toks, "frequency", "", f * mult, i, k + 1)
                i = k + 1
                continue
        # "<weekday>s" as habit ("on Mondays"): a weekly frequency is implied, the weekday reader keeps the day
        i += 1


def _counted_noun(toks: list[Tok], j: int) -> tuple[str, int]:
    """The noun counted by a number: its stem, and how many tokens it spans (up to 2 words: "approving review")."""
    n = len(toks)
    words: list[Tok] = []
    k = j
    while k < n and len(words) < 2:
        t = toks[k]
        if t.kind != "word" or t.used or _is_function(t.low) or t.low in ("of", "per", "a", "an"):
            break
        words.append(t)
        k += 1
        if t.low.endswith("s") or (k < n and toks[k].kind != "word"):
            break
    if not words:
        return "", 0
    return "+".join(w.stem or stem(w.low) for w in words), len(words)


def _read_quantities(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t.used:
            i += 1
            continue
        amount = None
        dim = None
        factor = 1.0
        j = i
        if t.kind == "money":
            m = re.match(r"^([$€£])\s?([\d,]+(?:\.\d+)?)\s?(k|m|mm|bn|million|billion|thousand)?$", t.low)
            if m:
                amount = float(m.group(2).replace(",", "")) * (lex.multipliers.get(m.group(3) or "", 1.0))
                dim, factor = lex.units[m.group(1)]
                j = i + 1
        elif t.kind == "num" and not _ORDINAL.match(t.low):
            prev = toks[i - 1] if i else None
            nxt = toks[i + 1] if i + 1 < n else None
            counted = nxt is not None and (nxt.kind in ("word", "unit") and not _is_function(nxt.low) or
                                           nxt.low == "%") or t.low.endswith("%")
            if prev is not None and prev.kind == "word" and not prev.used and (
                    not _is_function(prev.low) or prev.low in lex.label_heads) and \
                    prev.low not in lex.number_words and not prev.text[:1].isupper() and not counted and \
                    _bound_before(toks, i) == (None, False):
                # "berth 31", "level 9", "note 3": a number that labels the noun before it names which one
                t.used = True
                values.append(Value("label", prev.stem or stem(prev.low), t.low, f"{prev.text} {t.text}", t.clause, i))
                i += 1
                continue
            amount = _number(t)
            j = i + 1
            if t.low.endswith("%"):
                dim = "percent"
        elif t.kind == "word" and t.low in lex.number_words and t.low not in ("once", "twice", "thrice", "half"):
            amount = _number(t)
            j = i + 1
            # "a full year", "one whole week"
        elif t.kind == "word" and t.low in ("a", "an") and i + 1 < n:
            k = i + 1
            if k < n and toks[k].low in ("full", "whole", "single"):
                k += 1
            ordinal_second = toks[k].low == "second" and k + 1 < n and toks[k + 1].kind == "word" and not \
                _is_function(toks[k + 1].low)  # "a second EU region"
            if _time_unit(toks, k) is not None and not (i and toks[i - 1].kind in ("num",)) and \
                    not (i and _number(toks[i - 1]) is not None) and not ordinal_second:
                amount = 1.0
                j = k
        if amount is None:
            i += 1
            continue
        # "two weeks" vs "2-week": multiplier words
        if j < n and toks[j].low in lex.multipliers and toks[j].kind in ("word", "unit") and dim is None:
            amount *= lex.multipliers[toks[j].low]
            j += 1
        # a range: "3 to 12 replicas", "between 3 and 12"
        hi = None
        if j + 1 < n and toks[j].low in ("-", "to", "and") and _number(toks[j + 1]) is not None and \
                toks[j + 1].kind in ("num", "word") and dim is None:
            hi = _number(toks[j + 1])
            j += 2
        unit = None
        if dim is None:
            u = _unit_at(toks, j)
            if u:
                dim, factor, used = u
                j += used
        key = dim or ""
        if dim is None:
            noun, used = _counted_noun(toks, j)
            if noun:
                key = "n:" + noun
                j += used
        # a rate: "per minute", "a week", "/s", "each day"
        rate = None
        if j < n and toks[j].low in ("per", "a", "an", "each", "every", "/"):
            f = _time_unit(toks, j + 1)
            if f is not None:
                rate = f
                j += 2
        value: float | tuple[float, float] = amount * factor
        if hi is not None:
            value = (amount * factor, hi * factor)
        if rate:
            if isinstance(value, tuple):
                value = (value[0] / rate, value[1] / rate)
            else:
                value = value / rate
            key = (key or "n") + "/time"
        if key == "time" and not rate:
            kind = "duration"
        else:
            kind = "quantity"
        # A bare small number that is a list index or part of a name is not a quantity.
        if key == "" and t.kind == "word":
            i = j if j > i else i + 1
            continue
        _ = unit
        extra = {}
        if kind == "duration" and _bound_before(toks, i)[0] == "lower" and i and toks[i - 1].low in (
                "after", "from", "starting"):
            extra["bound"] = "none"  # "expire after 30 minutes": the length itself, not a lower limit
        _add(values, toks, kind, key, value, i, j, **extra)
        if values[-1].bound == "none":
            values[-1] = _replace(values[-1], bound=None)
        i = j


def _read_versions(toks: list[Tok], values: list[Value]) -> None:
    """"v2", "2.0", "Python 3.12", "Node 20", "version 8.x": a number that names a version of the word before it."""
    lex = lexicon()
    n = len(toks)
    for i, t in enumerate(toks):
        if t.used:
            continue
        if t.kind == "word" and re.fullmatch(r"v\d+(?:\.\d+)*", t.low):
            t.used = True
            values.append(Value("version", _owner_before(toks, i), t.low[1:], t.text, t.clause, i))
            continue
        if t.kind != "num" or t.low.endswith("%") or _ORDINAL.match(t.low):
            continue
        nxt_unit = i + 1 < n and (_unit_at(toks, i + 1) is not None or toks[i + 1].low in lex.multipliers)
        prev = toks[i - 1] if i else None
        decimal = "." in t.low.removesuffix(".x") or t.low.endswith(".x")
        after_name = prev is not None and prev.kind == "word" and not prev.used and (
            prev.low in ("version", "v", "release") or (_capitalised(prev) and prev.low not in lex.numbered_places
                                                        and prev.low not in lex.honorifics))
        if nxt_unit or not (decimal or after_name):
            continue
        if not decimal and i + 1 < n and toks[i + 1].kind == "word" and not _is_function(toks[i + 1].low) \
                and not _capitalised(toks[i + 1]):
            continue  # "Platform 8 engineers": a count, not a version
        t.used = True
        values.append(Value("version", _owner_before(toks, i), t.low.removesuffix(".x"), t.text, t.clause, i))


def _owner_before(toks: list[Tok], i: int) -> str:
    for k in range(i - 1, max(-1, i - 4), -1):
        t = toks[k]
        if t.kind == "punct" and t.low not in ("(",):
            break
        if t.kind == "word" and t.low not in ("version", "v", "the", "release", "of"):
            return t.stem or stem(t.low)
    return ""


def _read_classes(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    index = _first_word_index(_keys(lex.classes))
    i = 0
    while i < n:
        found = None
        for p in index.get(_base(toks[i]) if len(index.get(toks[i].low, ())) == 0 else toks[i].low, ()):
            size = len(p)
            if i + size > n or any(toks[i + k].used for k in range(size)):
                continue
            if tuple(toks[i + k].low for k in range(size - 1)) + (_base(toks[i + size - 1]),) == p:
                found = (p, lex.classes[p])
                break
        if not found:
            i += 1
            continue
        p, members = found
        took = False
        for cls, canon, heads, cs in members:
            if cs and not toks[i].text[:1].isupper():
                continue
            if heads:
                near = {toks[k].low for k in range(max(0, i - 3), min(n, i + len(p) + 3))
                        if toks[k].sent == toks[i].sent}
                if not (near & heads):
                    continue
            _add(values, toks, "enum", cls, canon, i, i + len(p))
            took = True
            break
        i += len(p) if took else 1


def _read_places(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    places = _keys(lex.places)
    i = 0
    while i < n:
        t = toks[i]
        # numbered places: "room 204", "floor 2", "number 14"
        if t.low in lex.numbered_places and i + 1 < n and toks[i + 1].kind in ("num", "word") and \
                re.fullmatch(r"\d+[a-z]?|[a-z]\d*", toks[i + 1].low) and not toks[i + 1].used:
            _add(values, toks, "place", "", f"{stem(t.low)}#{toks[i + 1].low}", i, i + 2)
            i += 2
            continue
        # ordinal floors: "the third floor", "the fifth"
        if t.low in lex.ordinals and lex.ordinals[t.low] > 0 and i + 1 < n and toks[i + 1].low in ("floor", "level"):
            _add(values, toks, "place", "", f"{toks[i + 1].low}#{lex.ordinals[t.low]}", i, i + 2)
            i += 2
            continue
        if t.low in lex.ordinals and lex.ordinals[t.low] > 0 and i and toks[i - 1].low == "the" and any(
                toks[k].low in ("floor", "level") for k in range(max(0, i - 8), i)):
            _add(values, toks, "place", "", f"floor#{lex.ordinals[t.low]}", i, i + 1)
            i += 1
            continue
        p = _match_any(toks, i, places)
        if p and not any(toks[i + k].used for k in range(len(p))):
            # a place noun after a place preposition (within a few words): "in the top drawer", "at the office"
            back = [toks[k].low for k in range(max(0, i - 6), i) if toks[k].clause == t.clause]
            if any(b in lex.place_preps for b in back):
                # the words that name which one: "the Oak room", "the Legal folder", "the top drawer"
                mods: list[str] = []
                k = i - 1
                while k >= 0 and toks[k].kind == "word" and toks[k].clause == t.clause and not _is_function(
                        toks[k].low) and toks[k].low not in lex.place_preps and len(mods) < 2:
                    mods.append(toks[k].low)
                    k -= 1
                val = " ".join(stem(w) for w in p) + ("|" + " ".join(mods) if mods else "")
                _add(values, toks, "place", "", val, i, i + len(p))
                i += len(p)
                continue
        i += 1


# ---------------------------------------------------------------------------------------------------------------------
# Terms: what the statement is about
# ---------------------------------------------------------------------------------------------------------------------


def _terms(toks: list[Tok], names: list[Name]) -> dict[str, float]:
    out: dict[str, float] = {}
    name_starts: dict[str, float] = {}
    for nm in names:
        for w in nm.words:
            name_starts[w] = 1.0 if nm.initial else 2.0
    for t in toks:
        if t.kind != "word" or _is_function(t.low):
            continue
        if t.used and (any(c.isdigit() for c in t.low) or _is_temporal_word(t.low)):
            continue  # dates, times, counts and frequencies are what a statement says, not what it is about
        if (t.low,) in lexicon().states:
            continue  # "up", "cancelled", "approved": the claim, not the subject
        for st in _stems_of(t):
            weight = name_starts.get(st, 1.0)
            if len(st) <= 2:
                weight *= 0.5
            out[st] = max(out.get(st, 0.0), weight)
    return out


def _is_temporal_word(low: str) -> bool:
    lex = lexicon()
    return (low in lex.weekdays or low in lex.months or low in lex.freq_words or low in lex.number_words
            or low in lex.ordinals or low in lex.seasons or low in lex.quarters or (low,) in lex.dayparts
            or low in lex.units or low.rstrip("s") in lex.units)


def _modifiers(toks: list[Tok]) -> dict[str, frozenset[str]]:
    """For each content word, the content words right before it in its noun group ("spare car key" -> key:
    {spare, car}; "Orbit's frontend" -> frontend: {orbit})."""
    out: dict[str, set[str]] = {}
    n = len(toks)
    for i in range(n):
        t = toks[i]
        if t.kind != "word" or _is_function(t.low):
            continue
        mods: set[str] = set()
        k = i - 1
        while k >= 0 and len(mods) < 3:
            u = toks[k]
            if u.kind != "word" or u.clause != t.clause or u.low in STOPWORDS or _is_function(u.low) or (
                    u.used and _is_temporal_word(u.low)):
                break
            mods.add(u.stem or stem(u.low))
            k -= 1
        if mods:
            out.setdefault(t.stem or stem(t.low), set()).update(mods)
    return {k: frozenset(v) for k, v in out.items()}


@functools.cache
def _time_words() -> frozenset[str]:
    lex = lexicon()
    return frozenset(w for p in lex.dayparts for w in p) | frozenset(lex.weekdays)

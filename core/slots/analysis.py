"""The analysis of one statement: the readers run in order, and what the statement is about.

`analyze` tokenizes a statement, runs the value readers (addresses and ISO dates, then `when`, `quantities` and
`enums`: each marks the tokens it reads, so the order matters), reads names, negation scopes and states, splits
content words into affirmed, negated and neutral, reads change cues, and weighs the terms the statement is about
(names most; values and state words not at all).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from typing import Any

from ..memo import READ_CHARS, text_cache
from ..text import STOPWORDS
from .enums import read_classes, read_places, read_street_addresses
from .lexicon import lexicon, stem
from .markdown import plain_blocks
from .names import Name, read_names
from .polarity import (
    State,
    change_cues,
    mark_remaining,
    mark_retired,
    negation_scopes,
    read_states,
    verbal_negations,
)
from .quantities import read_grades, read_quantities, read_versions
from .tokens import Tok, clause_spans, is_function, match_any, tokenize
from .values import Value, add_value
from .when import (
    numeric_date,
    read_calendar,
    read_frequencies,
    read_month_days,
    read_relative_periods,
    read_times,
)


@dataclass(frozen=True)
class Analysis:
    text: str
    tokens: tuple[Tok, ...]
    values: tuple[Value, ...]
    names: tuple[Name, ...]
    states: tuple[State, ...]
    affirmed: frozenset[str]  # stems of content words outside any negation
    negated: frozenset[str]  # stems a negation or a rejected alternative covers
    neutral: frozenset[str]  # stems in a clause a negative state holds ("X is blocked", `down`): neither
    # Clauses a negative state holds, written as a word of the clause ("closed on Sundays"; a state read from
    # another form of a word, "ships" read as "shipped", says nothing of the kind): their values assert nothing.
    down: frozenset[int]
    # Per clause, where the cue that negates its verb stands ("shouldn't", "never"): the words before it are what
    # the negated predicate is said of, neither affirmed nor negated (`slots.polarity.verbal_negations`).
    negated_from: dict[int, int]
    # Stems negated in a clause that says "so far" ("hasn't shipped yet"), and stems affirmed in a form that says
    # it happened ("was signed", "has shipped"): a not-yet is held only against a statement that says something
    # happened.
    not_yet: frozenset[str] = frozenset()
    happened: frozenset[str] = frozenset()
    prefixed: dict[str, str] = field(default_factory=dict)  # stem of the rest -> word, for "intolerant", "unsupported"
    # Light verbs that are a whole predicate (`[negation] bare_verbs`): denied with nothing after them ("never
    # runs"), and said as a verb ("runs a 5k"; not "before work", "to run")
    bare_denied: frozenset[str] = frozenset()
    bare_said: frozenset[str] = frozenset()
    retired: frozenset[str] = frozenset()  # stems of what a retiring word says stopped ("stopped drinking coffee")
    cues: tuple[str, ...] = ()  # change cues, as written
    from_to: tuple[tuple[Value | Name | str, Value | Name | str], ...] = ()
    markers: tuple[str, ...] = ()  # weak change markers ("now", "since", ...)
    hedged: bool = False
    role: bool = False  # names a role one person holds at a time ("owns", "maintainer", "our accountant")
    terms: dict[str, float] = field(default_factory=dict)  # stem -> weight (what the statement is about)
    words: frozenset[str] = frozenset()  # every folded lower-case word (for "does the other side mention X")
    modifiers: dict[str, frozenset[str]] = field(default_factory=dict)  # head stem -> stems of words before it
    rejected: frozenset[str] = frozenset()  # of `negated`, the stems of a rejected alternative ("X, not Y")
    clause_terms: dict[int, frozenset[str]] = field(default_factory=dict)
    # Negated stems past a context preposition ("no parking | at the office"), each with the negated stems before
    # it: the negation is about those; the place or time after the preposition is only where it holds.
    negated_tail: dict[str, frozenset[str]] = field(default_factory=dict)
    # What other readers derive from this reading, kept with it (`relation.exclusive.cues`): it goes when the
    # reading goes, where a table keyed by id() kept up to 4,096 readings alive after their own memo dropped them.
    derived: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)


def analyze(text: str) -> Analysis:
    """The reading of a statement. Each Markdown block is a sentence of its own, ended by a full stop or not, its
    marks dropped (`slots.markdown`): the blocks are read as paragraphs, one blank line apart."""
    return _analyze("\n\n".join(plain_blocks(text)))


@text_cache(maxsize=8192, max_chars=READ_CHARS)
def _analyze(text: str) -> Analysis:
    lex = lexicon()
    toks = tokenize(text)
    values: list[Value] = []
    _read_values(toks, values)
    names = read_names(toks)
    neg_idx, rejected_idx = negation_scopes(toks)
    states = read_states(toks, neg_idx)
    prefixed: dict[str, str] = {}
    affirmed: set[str] = set()
    negated: set[str] = set()
    rejected: set[str] = set()
    neutral: set[str] = set()
    spans = clause_spans(toks)
    down = frozenset(
        s.clause
        for s in states
        if s.pole < 0 and any(t.low == s.text.split()[0] for t in toks[slice(*spans[s.clause])])
    )
    neg_start = verbal_negations(toks)
    so_far_clauses = _so_far_clauses(toks, neg_start)
    not_yet: set[str] = set()
    # light words too: "(done)" from a ticked task box, "has gone"
    happened = {t.stem or stem(t.low) for t in toks if t.kind == "word" and t.i not in neg_idx and _happened(toks, t.i)}
    clause_terms: dict[int, set[str]] = {}
    for t in toks:
        if t.kind != "word" or is_function(t.low):
            continue
        stems = _stems_of(t)
        clause_terms.setdefault(t.clause, set()).update(stems)
        if t.i in neg_idx or t.i in rejected_idx:
            negated.update(stems)
            if t.i in rejected_idx:
                rejected.update(stems)
            if t.clause in so_far_clauses:
                not_yet.update(stems)
        elif t.clause in down or t.i < neg_start.get(t.clause, -1):
            neutral.update(stems)
        else:
            affirmed.update(stems)
        for suffix in lex.free_suffixes:
            if t.low.endswith(suffix) and len(t.low) > len(suffix) + 2:
                negated.add(stem(t.low[: -len(suffix)]))
        for p in lex.neg_prefixes:
            rest = t.low[len(p) :]
            if t.low.startswith(p) and len(rest) >= 4 and rest.endswith(lex.predicate_endings):
                prefixed[stem(rest)] = t.low
                break
    # Values a negation covers are negated values: "not part of 2.0", "never on a Saturday"; so are the values a
    # negated passive is said of ("Node 18 is no longer used": 18 is what is not used).
    # (Not a label that says which one the passive is said of: "Ticket 4412 is not fixed" denies it of ticket 4412,
    # it does not deny "4412".)
    passive = _negated_passive_subjects(toks)
    neg_values = neg_idx | rejected_idx | passive
    values = [
        v
        if v.start not in neg_values
        or (v.kind == "label" and v.role is None and v.start in passive - neg_idx - rejected_idx)
        else replace(v, negated=True)
        for v in values
    ]
    names = [n if not (n.start in neg_idx or n.start in rejected_idx) else replace(n, negated=True) for n in names]
    for n in names:
        if n.negated:
            negated.update(n.words)
        elif n.clause in down or n.start < neg_start.get(n.clause, -1):
            neutral.update(n.words)
        else:
            affirmed.update(n.words)
    negated_tail = _negated_tails(toks, neg_idx)
    bare_denied, bare_said = _bare_verbs(toks, neg_idx)
    cues, from_to, markers = change_cues(toks, values, names)
    values, names, retired = mark_retired(toks, values, names)
    values = mark_remaining(toks, values)
    # the tokens of a hedge ("I believe", "probably"): how sure the writer is, never what the statement is about
    hedging = frozenset(
        i + k for i in range(len(toks)) if (hedge := match_any(toks, i, lex.hedges)) for k in range(len(hedge))
    )
    hedged = bool(hedging)
    role = any(
        (match_any(toks, i, lex.roles) or _object_verb(toks, i)) and not _one_of_many(toks, i) for i in range(len(toks))
    )
    # The words of a change ("moved", "switched") say what is claimed, not what it is about.
    terms = _terms(toks, names, frozenset(w for c in cues for w in c.split()), hedging)
    modifiers = _modifiers(toks)
    return Analysis(
        text=text,
        tokens=tuple(toks),
        values=tuple(values),
        names=tuple(names),
        states=tuple(states),
        affirmed=frozenset(affirmed - negated),
        negated=frozenset(negated),
        negated_tail=negated_tail,
        rejected=frozenset(rejected),
        neutral=frozenset(neutral - affirmed),
        down=down,
        negated_from=neg_start,
        not_yet=frozenset(not_yet),
        happened=frozenset(happened),
        prefixed=prefixed,
        bare_denied=bare_denied,
        bare_said=bare_said,
        retired=retired,
        cues=tuple(cues),
        from_to=tuple(from_to),
        markers=tuple(markers),
        hedged=hedged,
        role=role,
        terms=terms,
        words=frozenset(w for t in toks for w in _word_forms(t)),
        modifiers=modifiers,
        clause_terms={k: frozenset(v) for k, v in clause_terms.items()},
    )


_CONFIG_KEY = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")  # "LOG_LEVEL", "max_connections"


def _read_prose_settings(toks: list[Tok], values: list[Value]) -> None:
    """A setting written in prose, its key as in code: "LOG_LEVEL is set to debug", "max_connections: 200" say what
    "LOG_LEVEL=debug" says. The value is the one word or bare number after the key and its glue."""
    for i, t in enumerate(toks):
        if t.kind != "word" or "_" not in t.text or not _CONFIG_KEY.fullmatch(t.text):
            continue
        k = i + 1
        while k < len(toks) and k <= i + 4 and toks[k].low in lexicon().setting_glue and toks[k].clause == t.clause:
            k += 1
        if k == i + 1 or k >= len(toks):
            continue
        v = toks[k]
        unit_after = (
            k + 1 < len(toks)
            and toks[k + 1].kind == "word"
            and toks[k + 1].clause == v.clause
            and not is_function(toks[k + 1].low)
        )
        if v.used or v.clause != t.clause or is_function(v.low):
            continue
        if v.kind == "word" or (v.kind == "num" and not unit_after):
            v.used = True
            values.append(Value("setting", t.low, v.low, f"{t.text} {v.text}", t.clause, t.i))


def _read_values(toks: list[Tok], values: list[Value]) -> None:
    for t in toks:
        if t.kind in ("email", "url", "channel", "handle"):
            t.used = True
            key = t.low.split("@")[0] if t.kind == "handle" else t.low
            values.append(Value("address", t.kind if t.kind != "handle" else "email", key, t.text, t.clause, t.i))
        elif t.kind == "path":
            t.used = True
            values.append(Value("address", "path", t.low.rstrip("/"), t.text, t.clause, t.i))
        elif t.kind == "assign":
            # "LOG_LEVEL=debug": the setting is what the statement is about, its value what it says
            t.used = True
            key, _eq, val = t.low.partition("=")
            values.append(Value("setting", key, val.strip("'\""), t.text, t.clause, t.i))
        elif t.kind == "isodate":
            y, mo, d = (int(x) for x in t.low.split("-"))
            add_value(values, toks, "date", "", (y, mo, d), t.i, t.i + 1)
        elif t.kind == "numdate":
            read = numeric_date(t.low)
            if read is not None:
                add_value(values, toks, "date", "", read[0], t.i, t.i + 1, alt=read[1])
    _read_prose_settings(toks, values)
    read_grades(toks, values)
    read_times(toks, values)
    read_month_days(toks, values)
    read_calendar(toks, values)
    read_relative_periods(toks, values)
    read_frequencies(toks, values)
    read_versions(toks, values)
    read_street_addresses(toks, values)
    read_quantities(toks, values)
    read_classes(toks, values)
    read_places(toks, values)


def _one_of_many(toks: list[Tok], i: int) -> bool:
    """The role word at `i` follows "a" or "an" in its noun group ("Ana is a manager at Acme", "a senior product
    manager"): one of several who hold it, not the one who does ("Ana is the manager")."""
    k = i - 1
    while k >= 0 and i - k <= 3 and toks[k].kind == "word" and toks[k].clause == toks[i].clause:
        if toks[k].low in ("a", "an", "another"):
            return True
        if is_function(toks[k].low):
            return False
        k -= 1
    return False


def _copula_of(toks: list[Tok], k: int) -> int | None:
    """The form of "be" the negation cue at `k` negates ("is not", "isn't"), in the cue's clause; None when the cue
    negates no form of "be"."""
    t = toks[k]
    cop = k if t.low.endswith("n't") and t.low[:-3] in lexicon().copula else k - 1
    if cop < 1 or toks[cop].clause != t.clause or toks[cop].low.removesuffix("n't") not in lexicon().copula:
        return None
    return cop


def _negated_passive_subjects(toks: list[Tok]) -> set[int]:
    """Token indexes before the verb of a clause that denies one passive participle of them and nothing else:
    "Node 18 is no longer used", "Python 3.8 isn't supported anymore" are about what stands before the verb."""
    lex = lexicon()
    out: set[int] = set()
    spans = clause_spans(toks)
    for k, t in enumerate(toks):
        if t.kind != "word" or not (t.low in lex.negation_cues or t.low.endswith("n't")):
            continue
        cop = _copula_of(toks, k)
        if cop is None:
            continue
        start, end = spans[t.clause]
        rest = [u for u in toks[k + 1 : end] if u.kind != "punct"]
        said = [u for u in rest if u.low not in lex.passive_fillers]  # "is no longer used"
        if len(said) != 1 or not (said[0].low.endswith(("ed", "en")) or said[0].low in lex.participles):
            continue
        out.update(range(start, cop))
    return out


def _so_far_clauses(toks: list[Tok], neg_start: dict[int, int]) -> set[int]:
    """The negated clauses that say "so far": "still" in the clause ("is still not signed"), or "yet" ending the
    sentence after it ("hasn't shipped yet"; "yet" between two clauses joins them: "cheap, yet not fast")."""
    lex = lexicon()
    out: set[int] = set()
    for k, t in enumerate(toks):
        if t.low not in lex.so_far:
            continue
        if t.clause in neg_start and t.low != "yet":
            out.add(t.clause)
        elif t.low == "yet" and (k + 1 == len(toks) or toks[k + 1].kind == "punct"):
            back = next((toks[j].clause for j in range(k - 1, -1, -1) if toks[j].kind != "punct"), None)
            if back is not None and back in neg_start and toks[k - 1].sent == t.sent:
                out.add(back)
    return out


def _happened(toks: list[Tok], i: int) -> bool:
    """The word at i says a thing happened: a past form ("signed", "was renewed", "has been paid", "held"), not
    one after "will", "to", "be" or a modal ("will be signed", "to be renewed")."""
    t = toks[i]
    if not (t.low.endswith(("ed", "en")) or t.low in lexicon().participles):
        return False
    return not (i and toks[i - 1].low in lexicon().not_done_before)


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


_NAME = stem("name")


def naming_verb(toks: list[Tok], i: int) -> bool:
    """The word at i is a naming verb ("called", "named") before the capitalised word it names."""
    return toks[i].low in lexicon().naming_verbs and i + 1 < len(toks) and toks[i + 1].text[:1].isupper()


def _terms(
    toks: list[Tok], names: list[Name], cue_words: frozenset[str] = frozenset(), hedging: frozenset[int] = frozenset()
) -> dict[str, float]:
    out: dict[str, float] = {}
    name_starts: dict[str, float] = {}
    for nm in names:
        for w in nm.words:
            name_starts[w] = 1.0 if nm.initial or w in lexicon().own else 2.0
    named = {w for nm in names for w in nm.words}
    for t in toks:
        if t.i in hedging or _title(toks, t.i):
            continue  # "I believe", "probably"; "Dr" of "Dr Kaur": how sure, and a title, not what it is about
        if t.kind == "assign":
            key = t.low.partition("=")[0]
            out[key] = max(out.get(key, 0.0), 1.0)  # the setting a "KEY=value" sets
            continue
        if t.kind != "word" or (is_function(t.low) and not (t.low not in STOPWORDS and t.stem in named)):
            continue  # (a word of a bound that is a name is a subject word: "Max" of "Max is down to 24 kilos")
        if t.used and (
            any(c.isdigit() for c in t.low) or _is_temporal_word(t.low) or t.low in lexicon().numbered_places
        ):
            continue  # dates, times, counts, frequencies, "floor 2" are what a statement says, not what it is about
        if ((t.low,) in lexicon().states and not _passive(toks, t.i)) or t.low in cue_words:
            continue  # "up", "cancelled", "approved", "moved": the claim, not the subject
        if t.low in lexicon().place_verbs or _relative_time(toks, t.i):
            continue  # "lives in", "sits on"; "last year", "next week", "yesterday": where and when, not what
        whole = t.stem or stem(t.low)
        if naming_verb(toks, t.i):
            whole = _NAME  # "The user's cat is called Biscuit" says the cat's name, as "The cat's name is Mochi"
            out[whole] = max(out.get(whole, 0.0), 1.0)
            continue
        for st in _stems_of(t):
            weight = name_starts.get(st, 1.0)
            if len(st) <= 2 or st != whole:
                weight *= 0.5  # a very short word, or a part of a compound ("call" of "on-call"): weaker evidence
            out[st] = max(out.get(st, 0.0), weight)
    return out


def _bare_verbs(toks: list[Tok], neg_idx: set[int]) -> tuple[frozenset[str], frozenset[str]]:
    """(verbs denied, verbs said) of `[negation] bare_verbs`. Denied: right after a cue that negates a verb ("never
    runs", "doesn't work"), with no content word after it in its clause. Said: outside any negation, and not after
    a preposition, an article or "to" (a noun, "before work", or what is wanted, "wants to run")."""
    lex = lexicon()
    denied: set[str] = set()
    said: set[str] = set()
    spans = clause_spans(toks)
    for i, t in enumerate(toks):
        verb = lex.bare_verbs.get(t.low) if t.kind == "word" else None
        if verb is None:
            continue
        prev = toks[i - 1].low if i else ""
        if prev in lex.verbal_negation or prev.endswith("n't"):
            rest = [u for u in toks[i + 1 : spans[t.clause][1]] if u.kind != "punct"]
            if not any(u.kind != "word" or not is_function(u.low) for u in rest):
                denied.add(verb)
        elif i not in neg_idx and prev not in lex.not_before_verb and prev not in lex.determiners:
            said.add(verb)
    return frozenset(denied), frozenset(said)


def _negated_tails(toks: list[Tok], neg_idx: set[int]) -> dict[str, frozenset[str]]:
    """Per clause negated by a noun's negation ("no", "without": `negation.cues` that are not `verbal`), the
    negated content words after the first context preposition that follows a negated content word ("There is no
    parking at the office": "office" past "at", after "parking"), each mapped to the negated content stems before
    that preposition. (Not after a verb's negation: "haven't sent in the application" negates the application.)"""
    out: dict[str, frozenset[str]] = {}
    lex = lexicon()
    preps = lex.context_preps
    spans = clause_spans(toks)
    by_clause: dict[int, list[Tok]] = {}
    for t in toks:
        if t.i in neg_idx:
            by_clause.setdefault(t.clause, []).append(t)
    for group in by_clause.values():
        cue = toks[group[0].i - 1] if group[0].i else None
        if cue is None or cue.low in lex.verbal_negation or cue.low.endswith("n't") or cue.low in preps:
            continue
        head: set[str] = set()
        past = False
        for t in group:
            if t.kind != "word":
                continue
            nxt = toks[t.i + 1].low if t.i + 1 < len(toks) else ""
            if t.low in preps and head and (t.low, nxt) not in lex.states:  # ("in stock" is a state, no place)
                past = True
                continue
            if is_function(t.low):
                continue
            if past:
                for st in _stems_of(t):
                    out[st] = out.get(st, frozenset()) | frozenset(head)
            else:
                head.update(_stems_of(t))
    # A negated passive ("Dinner is not included at the hotel") denies it of what stands before the verb: every
    # word it negates is held against the other statement only where that one says the same thing of it ("The
    # hotel includes breakfast" says nothing of dinner).
    for group in by_clause.values():
        k = group[0].i - 1  # the cue
        cue = toks[k] if k >= 0 else None
        if cue is None or not (cue.low in lex.verbal_negation or cue.low.endswith("n't")):
            continue
        cop = _copula_of(toks, k)
        if cop is None:
            continue
        verb = next((t for t in group if t.kind == "word" and t.low not in lex.passive_fillers), None)
        if verb is None or not (verb.low.endswith(("ed", "en")) or verb.low in lex.participles):
            continue
        said_of = {
            st
            for t in toks[spans[cue.clause][0] : cop]
            if t.clause == cue.clause and t.kind == "word" and not is_function(t.low)
            for st in _stems_of(t)
        }
        if not said_of:
            continue  # "It isn't included": the pronoun stands for what another clause names
        for t in group:
            if t.kind == "word" and not is_function(t.low):
                for st in _stems_of(t):
                    out[st] = out.get(st, frozenset()) | frozenset(said_of)
    return out


def _passive(toks: list[Tok], i: int) -> bool:
    """A state word followed by "by" is a passive verb ("maintained by Aiko", "approved by the board"), as
    `read_states` reads it: what someone does, which a statement may be about like its active form ("Aiko maintains
    it"). "By default" keeps it a state."""
    return i + 1 < len(toks) and toks[i + 1].low == "by" and not (i + 2 < len(toks) and toks[i + 2].low == "default")


def _relative_time(toks: list[Tok], i: int) -> bool:
    """A word of a time said relative to now: "yesterday", "last year", "next week", "two weeks ago" ("this week"
    may say which one: it stays)."""
    lex = lexicon()
    low = toks[i].low
    if low in lex.relative_days or low in lex.relative_before or low in lex.relative_after:
        return True
    return low in lex.periods and (
        (i and toks[i - 1].low in lex.relative_before) or (i + 1 < len(toks) and toks[i + 1].low in lex.relative_after)
    )


def _is_temporal_word(low: str) -> bool:
    lex = lexicon()
    return (
        low in lex.weekdays
        or (low,) in lex.weekday_groups  # "weekdays", "weekends", as "Mondays" is
        or low in lex.months
        or low in lex.freq_words
        or low in lex.number_words
        or low in lex.ordinals
        or low in lex.seasons
        or low in lex.quarters
        or (low,) in lex.dayparts
        or low in lex.units
        or low.rstrip("s") in lex.units
        or low in lex.when_words
    )


def _verb_before_object(toks: list[Tok], k: int) -> bool:
    """The word at k is a verb, so the noun group after it starts after it: an inflected verb of the data file's
    verb lists ("likes spicy food", "requires iOS 17"), or a word right after a modal, "to", a negated auxiliary
    ("can't handle spicy food") or a subject pronoun ("We file bugs"). (Base forms are left out: "start date", "work laptop" are noun groups.)"""
    low = toks[k].low
    if low in _inflected_verbs():
        return True
    if k == 0:
        return False
    before = toks[k - 1].low
    lex = lexicon()
    return (
        before in lex.not_done_before
        or before.endswith("n't")
        or (before in lex.subject_pronouns and toks[k - 1].clause == toks[k].clause)
    )


@functools.cache
def _inflected_verbs() -> frozenset[str]:
    lex = lexicon()
    verbs = lex.subject_verbs | lex.preference_verbs | lex.place_verbs | lex.affiliation_verbs | lex.additive_verbs
    return frozenset(w for w in verbs if w.endswith(("s", "ed")) and not w.endswith("eed") and w not in STOPWORDS)


def _modifiers(toks: list[Tok]) -> dict[str, frozenset[str]]:
    """For each content word, the content words right before it in its noun group ("spare car key" -> key:
    {spare, car}; "Orbit's frontend" -> frontend: {orbit}): up to three different ones, walking back from the word
    until a word that is no part of a noun group or the clause's start.

    Linear in the tokens: the walk back from each word is read from `_runs_before`, the first three different
    stems of the run ending at each token, computed once (walking back from every word of a long run of content
    words, "word word word ...", took time quadratic in its length)."""
    out: dict[str, set[str]] = {}
    n = len(toks)
    runs = _runs_before(toks)
    for i in range(n):
        t = toks[i]
        if t.kind != "word" or is_function(t.low) or (t.used and _is_temporal_word(t.low)):
            continue
        k = i - 1
        # "User's monthly rent": the frequency word says how often; the owner before it still says whose
        if k >= 1 and toks[k].used and _is_temporal_word(toks[k].low) and toks[k - 1].low.endswith("'s"):
            k -= 1
        mods: set[str] = set(runs[k]) if k >= 0 and toks[k].clause == t.clause else set()
        # "the channel for incidents", "backups of the wiki": what it is for, or of, says which one, as "the
        # incidents channel" does
        k = i + 1
        if k < n and toks[k].low in ("for", "of") and toks[k].clause == t.clause:
            k += 1
            while k < n and toks[k].low in lexicon().determiners:
                k += 1
            if k < n and toks[k].kind == "word" and not toks[k].used and not is_function(toks[k].low):
                mods.add(toks[k].stem or stem(toks[k].low))
        if mods:
            out.setdefault(t.stem or stem(t.low), set()).update(mods)
        # "the notification-service": a hyphen-joined noun group after a determiner, its last part the head ("the
        # notification service"; not "tracked client-side", which says how)
        parts = t.low.split("-")
        if (
            len(parts) >= 2
            and all(len(x) >= 3 and x.isalpha() for x in parts)
            and not is_function(parts[-1])
            and i
            and (toks[i - 1].low in lexicon().determiners or toks[i - 1].low.endswith("'s"))
        ):
            out.setdefault(stem(parts[-1]), set()).update(stem(x) for x in parts[:-1])
    return {k: frozenset(v) for k, v in out.items()}


def _runs_before(toks: list[Tok]) -> list[tuple[str, ...]]:
    """Per token k, the first three different stems met walking back from k through words that may qualify a noun
    (in k's clause, stopping before the first that may not: `_ends_group`), nearest first; () when k itself may
    not."""
    out: list[tuple[str, ...]] = []
    for k, u in enumerate(toks):
        if _ends_group(toks, k):
            out.append(())
            continue
        st = u.stem or stem(u.low)
        before = out[k - 1] if k and toks[k - 1].clause == u.clause else ()
        out.append((st, *[x for x in before if x != st][:2]))
    return out


def _ends_group(toks: list[Tok], k: int) -> bool:
    """The token at k is no qualifier of a noun group after it: not a word, a function word (a class member a value
    list read, written as a name, is none: "Go services"; a light word of compounds is none either), a word of a
    time, or a verb before its object."""
    u = toks[k]
    return (
        u.kind != "word"
        or u.low in STOPWORDS
        or (is_function(u.low) and u.low not in lexicon().compound_light and not (u.used and u.text[:1].isupper()))
        or (u.used and _is_temporal_word(u.low))
        or _verb_before_object(toks, k)
    )


def _object_verb(toks: list[Tok], i: int) -> bool:
    """A verb that holds a role with a thing after it, or its passive: "runs the weekly demo", "hosted by the people
    team" (data file `[roles] object_verbs`)."""
    lex = lexicon()
    return (
        toks[i].low in lex.object_verbs
        and i + 1 < len(toks)
        and (toks[i + 1].low in lex.determiners or toks[i + 1].low == "by")
    )


def _title(toks: list[Tok], i: int) -> bool:
    """Token `i` is a title right before a name: "Dr Kaur", "Dr. Lee", "Uncle Bob" (data file `honorifics`)."""
    if toks[i].kind != "word" or toks[i].low not in lexicon().honorifics:
        return False
    k = i + 1
    if k < len(toks) and toks[k].low == ".":
        k += 1
    return k < len(toks) and toks[k].kind == "word" and toks[k].text[:1].isupper()

"""Polarity and change in a statement: negation scopes, states with two poles, change cues.

- a negation cue ("not", "never", "no", any "n't") covers the rest of its clause; "rather than Y", "instead of Y"
  and "prefers X over Y" reject Y;
- states have two poles ("up"/"down", "accepted"/"rejected", "supported"/"deprecated"); some count only after a
  copula ("is open"); a negation flips a state;
- change cues ("no longer", "switched", "moved from X to Y") and weak change markers ("now", "since"); what follows
  "retired", "replaced", "stopped using" is the old value.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from .lexicon import lexicon, stem
from .names import Name
from .tokens import Tok, clause_spans, copular, is_function, match_any
from .values import Value


@dataclass(frozen=True)
class State:
    cls: str
    pole: int
    text: str
    clause: int
    after: frozenset[str] = frozenset()  # stems after the state word in its clause (its object)
    around: frozenset[str] = frozenset()  # stems of its whole clause
    # The other classes the same word belongs to, with its pole there ("open": progress +1 and resolution +1, so
    # "open" / "closed" are opposite states of resolution).
    also: tuple[tuple[str, int], ...] = ()
    # Negated with an object that is everything ("isn't allergic to anything", "doesn't like any of them")
    universal: bool = False

    def poles(self) -> dict[str, int]:
        """Every class this state is in, with its pole there."""
        return {self.cls: self.pole, **{c: p for c, p in self.also if c != self.cls}}


def _ends_alternative(toks: list[Tok], k: int, start: int) -> bool:
    return k > start and toks[k].low in lexicon().context_preps  # ("X over Y in Z": Z is shared)


def negation_scopes(toks: list[Tok]) -> tuple[set[int], set[int]]:
    """Token indexes covered by a negation, and by a rejected alternative ("rather than Y", "prefers X over Y")."""
    lex = lexicon()
    neg: set[int] = set()
    rejected: set[int] = set()
    n = len(toks)
    spans = clause_spans(toks)
    # per clause and set, the first index a cue has covered to the clause's end: a later cue in the clause covers
    # nothing new ("not X, not Y, not Z" in one clause would walk to its end once per cue)
    covered: dict[tuple[int, bool], int] = {}
    i = 0
    while i < n:
        t = toks[i]
        skip = match_any(toks, i, lex.not_negation)
        if skip:
            i += len(skip)
            continue
        alt = match_any(toks, i, lex.alt_markers)
        if alt:
            k = i + len(alt)
            while (
                k < n
                and toks[k].clause == toks[i + len(alt) - 1].clause
                and not _ends_alternative(toks, k, i + len(alt))
            ):
                rejected.add(k)
                k += 1
            i = k
            continue
        if (
            t.low == "over"
            and i > 0
            and any(toks[m].low in lex.preference_verbs for m in range(max(0, i - 4), i) if toks[m].clause == t.clause)
        ) or (
            # "would rather get an email than a call": what follows "than" is rejected
            t.low == "than"
            and any(toks[m].low == "rather" for m in range(max(0, i - 8), i) if toks[m].clause == t.clause)
        ):
            k = i + 1
            while k < n and toks[k].clause == t.clause and not _ends_alternative(toks, k, i + 1):
                rejected.add(k)
                k += 1
            i = k
            continue
        if t.kind == "word" and (t.low in lex.negation_cues or t.low.endswith("n't") or _taken_off(toks, i)):
            start, end = spans[t.clause]
            # the clause's first word
            opener = next((toks[k] for k in range(start, i) if toks[k].kind != "punct"), t)
            if opener.low in lex.conditions or match_any(toks, opener.i, lex.condition_phrases):
                i += 1  # inside a condition: the negation asserts nothing
                continue
            # "bought from Evans Cycles, not Cycle Republic": a correction, what follows the rejected alternative
            correction = t.low == "not" and i > 0 and toks[i - 1].low == ","
            into = rejected if correction else neg
            done = covered.get((t.clause, correction), end)
            into.update(range(i + 1, min(done, end)))
            covered[(t.clause, correction)] = min(done, i + 1)
            if t.low in lex.negative_pronouns:
                neg.add(i)
        i += 1
    return neg, rejected


def _taken_off(toks: list[Tok], i: int) -> bool:
    """Token `i` is "off" before what someone is taken from ("took the user off metformin", "kept off the pager
    rotation", "is off sugar"; data file `[negation] off_movers`)."""
    lex = lexicon()
    t = toks[i]
    if t.low != "off" or not i or i + 1 >= len(toks) or toks[i + 1].kind != "word":
        return False
    if toks[i + 1].low in lex.value_preps or toks[i - 1].low in lex.off_not_after:
        return False  # "took off at 9", "the day off"
    for k in range(i - 1, max(-1, i - 4), -1):
        u = toks[k]
        if u.clause != t.clause or u.kind != "word":
            return False
        if u.low in lex.off_movers or (k == i - 1 and copular(u.low)):
            return True
    return False


def verbal_negations(toks: list[Tok]) -> dict[int, int]:
    """Per clause, the token index of its first cue that negates a verb ("shouldn't", "not", "never"; not "not only",
    "not sure"). The words before it are what the negated predicate is said of."""
    lex = lexicon()
    out: dict[int, int] = {}
    for i, t in enumerate(toks):
        if t.kind != "word" or t.clause in out:
            continue
        if (t.low in lex.verbal_negation or t.low.endswith("n't")) and not match_any(toks, i, lex.not_negation):
            out[t.clause] = i
    return out


@functools.cache
def _longest_state() -> int:
    return max(len(p) for p in lexicon().states)


@functools.cache
def _state_stems() -> dict[str, tuple[str, ...]]:
    """The stem of each one-word state that needs no copula -> that word, so that its other forms read as the same
    state ("disallow" / "disallowed", "prefer" / "preferring"). Short stems are left out (too many words share them)."""
    out: dict[str, tuple[str, ...]] = {}
    for p, (_cls, _pole, copula) in lexicon().states.items():
        if len(p) == 1 and not copula and len(stem(p[0])) >= 4:
            out.setdefault(stem(p[0]), p)
    return out


def read_states(toks: list[Tok], neg: set[int]) -> list[State]:
    lex = lexicon()
    out: list[State] = []
    n = len(toks)
    i = 0
    longest = _longest_state()
    spans = clause_spans(toks)
    arounds: dict[int, tuple[frozenset[str], bool]] = {}  # per clause: `_around`, the same for each state in it
    while i < n:
        found = None
        for size in range(min(longest, n - i), 0, -1):
            p = tuple(toks[i + k].low for k in range(size))
            if p in lex.states:
                found = (p, lex.states[p])
                break
        if (
            not found
            and toks[i].kind == "word"
            and toks[i].stem in _state_stems()
            and not (toks[i].low.endswith("ing") or (i and toks[i - 1].low in lex.determiners))
        ):
            # another form of a listed word ("disallow" / "disallowed"); not a noun ("the opening", "a ban")
            p = _state_stems()[toks[i].stem]
            found = (p, lex.states[p])
            if toks[i].low.endswith("s") and i + 1 < n and toks[i + 1].low in lex.event_prepositions:
                found = None  # "closes at 20:00", "opens on Monday": when something happens, not a state
                i += 1
                continue
        if not found:
            i += 1
            continue
        p, (cls, pole, copula) = found
        if (
            i + len(p) < n
            and toks[i + len(p)].low == "by"
            and not (i + len(p) + 1 < n and toks[i + len(p) + 1].low == "default")
        ):
            i += len(p)  # "is maintained by X", "was approved by Y": a passive verb, not a state ("by default" is)
            continue
        prev = toks[i - 1].low if i else ""
        nxt = toks[i + len(p)] if i + len(p) < n else None
        ends = (
            nxt is None
            or nxt.kind == "punct"
            or nxt.low in ("and", "for", "by", "in", "on", "again", "now", "today", "since", "at")
        )
        predicate = prev in lex.copula and ends
        if copula and not predicate:
            i += len(p)
            continue
        sign = -1 if i in neg else 1
        pole = sign * pole
        also = tuple(
            (c, sign * q) for c, q, needs in lex.state_classes.get(p, ()) if c != cls and (predicate or not needs)
        )
        clause = toks[i].clause
        start, end = spans[clause]
        after = _content_stems(toks[i + len(p) : end], clause)
        if prev in lex.copula:
            # a passive or a predicate ("Lunch is included", "the charger is missing"): what it is said of stands
            # before it, where an active verb has its object after it ("the rate excludes lunch")
            after |= _content_stems(toks[start:i], clause)
        if clause not in arounds:
            arounds[clause] = _around(toks, spans, clause)
        around, borrowed = arounds[clause]
        if borrowed:
            after |= around
        universal = sign < 0 and any(t.low in lex.universal for t in toks[i + len(p) : end])
        out.append(State(cls, pole, " ".join(p), clause, after, around, also, universal))
        i += len(p)
    return out


def _around(toks: list[Tok], spans: dict[int, tuple[int, int]], clause: int) -> tuple[frozenset[str], bool]:
    """The content stems of a state's clause (without state words), and whether they are borrowed: "Anyone can see
    the repo; it's public": a clause that names only a pronoun is about what the clause before it names, in the
    same sentence."""
    lex = lexicon()
    start, end = spans[clause]
    around = _content_stems(toks[start:end], clause, states=False)
    if clause and not around - lex.pronouns and any(t.low in lex.pronouns for t in toks[start:end]):
        first, last = spans.get(clause - 1, (0, 0))
        named = [t for t in toks[first:last] if t.sent == toks[start].sent]
        return _content_stems(named, clause - 1, states=False), True
    return around, False


def _content_stems(toks: list[Tok], clause: int, states: bool = True) -> frozenset[str]:
    """The stems of the content words of `clause` among `toks` (without state words, with `states=False`)."""
    lex = lexicon()
    return frozenset(
        t.stem
        for t in toks
        if t.clause == clause
        and t.kind == "word"
        and t.stem
        and not is_function(t.low)
        and (states or (t.low,) not in lex.states)
    )


def _pending_openers(toks: list[Tok]) -> dict[int, int]:
    """Per clause opened by "when", "whenever" or a condition ("if", "unless", "as long as"), the index of that
    opener: what the rest of the clause says is awaited or supposed, not what happened. One pass over the tokens."""
    lex = lexicon()
    out: dict[int, int] = {}
    seen: set[int] = set()
    for u in toks:
        if u.kind == "punct" or u.clause in seen:
            continue
        seen.add(u.clause)  # the clause's first word
        if u.low in lex.pending or u.low in lex.conditions or match_any(toks, u.i, lex.condition_phrases):
            out[u.clause] = u.i
    return out


def change_cues(toks: list[Tok], values: list[Value], names: list[Name]):
    lex = lexicon()
    cues: list[str] = []
    markers: list[str] = []
    n = len(toks)
    pending = _pending_openers(toks)
    habitual = _frequency_clauses(values)
    at = _Starts(values)
    for i in range(n):
        if pending.get(toks[i].clause, i) < i:
            continue  # "will phone when the repair is finished": when something happens, not that it changed
        p = match_any(toks, i, lex.strong_cues)
        if p and i and toks[i - 1].low in ("gets", "get", "getting"):
            continue  # "the password gets replaced every month": what happens each time, not a change
        if p and _passive_aux(toks, i, p) is not None and toks[i].clause in habitual:
            continue  # "laptops are replaced every three years": so is a passive in a clause that says how often
        if p and p in lex.remaining and _rest_of(toks, i, at) is not None:
            continue  # "8 days of leave left": what remains, not a change
        if p and len(p) == 1 and i and toks[i - 1].low in lex.determiners and i + 1 < n and toks[i + 1].kind == "word":
            continue  # "her left knee", "the cancelled flight": a word that describes a noun, not a change told
        if p:
            cues.append(" ".join(p))
            continue
        p = match_any(toks, i, lex.directional_cues)
        if p:
            window = [
                toks[k].low
                for k in range(i + len(p), min(n, i + len(p) + 8))
                if toks[k].clause in (toks[i].clause, toks[i].clause + 1)
            ]
            if "from" in window or "to" in window or "into" in window or "by" in window:
                cues.append(" ".join(p))
        m = match_any(toks, i, lex.change_markers)
        if m:
            markers.append(" ".join(m))
    from_to = []
    named = _Starts(names)
    for i in range(n):
        if toks[i].low != "from":
            continue
        for k in range(i + 1, min(n, i + 8)):
            # (a "to" inside a value, "from 9am to 5pm", joins a range: no change)
            if toks[k].low == "to" and toks[k].sent == toks[i].sent and not toks[k].used:
                a = _item_in(range(i + 1, k), at, named, toks)
                b = _item_in(range(k + 1, min(n, k + 6)), at, named, toks)
                if a is not None and b is not None:
                    from_to.append((a, b))
                break
    return cues, from_to, markers


_Item = TypeVar("_Item", Value, Name)


class _Starts(Generic[_Item]):
    """Values or names by the token each starts at, with its place in the list: a reader that wants the first one
    (in the list's order) starting in a span of a few tokens looks those tokens up, not the whole list."""

    def __init__(self, items: list[_Item]) -> None:
        self.items: list[_Item] = items
        self.at: dict[int, list[int]] = {}
        for k, x in enumerate(items):
            self.at.setdefault(x.start, []).append(k)

    def starting_in(self, span: range) -> list[_Item]:
        """The items starting at a token of `span`, in the list's order."""
        return [self.items[k] for k in sorted(k for pos in span for k in self.at.get(pos, ()))]


def _frequency_clauses(values: list[Value]) -> set[int]:
    """The clauses that say how often (a frequency): what a passive in one says happens each time ("laptops are
    replaced every three years")."""
    return {v.clause for v in values if v.kind == "frequency"}


def _rest_of(toks: list[Tok], i: int, at: _Starts[Value]) -> Value | None:
    """The amount a few words before token `i`, in its clause, with only words between ("8 days of leave left",
    "£200 left"); None if there is none."""
    return next(
        (
            v
            for v in at.starting_in(range(max(0, i - 5), i))
            if v.kind in ("quantity", "duration")
            and v.clause == toks[i].clause
            and 0 < i - v.start <= 5
            and all(toks[k].kind != "punct" for k in range(v.start + 1, i))
        ),
        None,
    )


def mark_remaining(toks: list[Tok], values: list[Value]) -> list[Value]:
    """An amount followed by "left", "remaining" or "to go" is what remains of a whole (role "rest"): it is not
    compared with the whole ("an allowance of 25 days" / "8 days left")."""
    lex = lexicon()
    rests = set()
    at = _Starts(values)
    for i in range(len(toks)):
        if match_any(toks, i, lex.remaining):
            v = _rest_of(toks, i, at)
            if v is not None and v.role is None:
                rests.add(id(v))
    return [replace(v, role="rest") if id(v) in rests else v for v in values]


def mark_retired(
    toks: list[Tok], values: list[Value], names: list[Name]
) -> tuple[list[Value], list[Name], frozenset[str]]:
    """What follows "retired", "replaced", "stopped using", "gave up" (in its clause, up to a preposition: "replaced
    by GitHub Actions", "replaced the boiler for £400") is the old value: role "from"; so is the subject of a passive
    one ("Poetry was removed"). So is a value before a verb of becoming when one of its kind follows it in the
    clause ("the weekly digest went monthly": weekly was). Also returns the stems of the words a retiring verb (not
    an adjective of the list: "old", "former") says stopped ("stopped drinking coffee"). When and how often
    ("replaced last spring", "replaced every three years") are never what was retired."""
    lex = lexicon()
    values = _became(toks, values)
    habitual = _frequency_clauses(values)
    when = {k for v in values if v.kind in _WHEN for k in range(v.start, v.start + len(v.text.split()))}
    spans: list[range] = []
    stopped: set[str] = set()
    subjects: set[int] = set()  # token indexes of what a passive retires ("Poetry was removed")
    successors: set[int] = set()  # where what took the old one's place starts ("replaced ... with a Kia Niro")
    for i in range(len(toks)):
        p = match_any(toks, i, lex.retiring)
        if not p:
            continue
        first = k = i + len(p)
        while (
            k < len(toks)
            and k < first + 5
            and toks[k].clause == toks[i].clause
            and toks[k].low not in lex.change_span_ends
        ):
            k += 1
        spans.append(range(first, k))
        if k < len(toks) and toks[k].low in lex.successor_preps and toks[k].clause == toks[i].clause:
            successors.update(range(k + 1, k + 3))  # past an article: "with a Kia Niro", "by the data team"
        if len(p) > 1 or _participle(p):
            stopped.update(
                t.stem or stem(t.low)
                for t in toks[first:k]
                if t.kind == "word" and t.i not in when and not is_function(t.low)
            )
        aux = _passive_aux(toks, i, p)
        if aux is not None and toks[i].clause not in habitual:  # ("laptops are replaced every three years")
            subjects.update(range(max(0, aux - 4), aux))
    if not spans:
        return values, names, frozenset()

    spanned = {k for r in spans for k in r}
    end = max(subjects) + 1 if subjects else 0

    def retired(pos: int) -> bool:
        return pos in spanned or (pos in subjects and _last_before_aux(toks, pos, end))

    values = [
        replace(v, role="from") if v.role is None and v.kind not in _WHEN and retired(v.start) else v for v in values
    ]
    names = [
        replace(n, negated=True) if retired(n.start) else replace(n, value_like=True) if n.start in successors else n
        for n in names
    ]
    return values, names, frozenset(stopped)


_WHEN = frozenset(("frequency", "date", "time", "weekday", "daypart", "duration"))


def _participle(phrase: tuple[str, ...]) -> bool:
    """A retiring phrase that opens with a past participle ("removed", "sold", "given up"), not an adjective."""
    return phrase[0].endswith(("ed", "en")) or phrase[0] in lexicon().participles


def _passive_aux(toks: list[Tok], i: int, phrase: tuple[str, ...]) -> int | None:
    """The index of the auxiliary of a passive retiring participle at `i` ("Poetry was removed", "Slack has been
    dropped", "Redis is now deprecated"), or None. Adjectives of the list ("is old", "the former") are no passive."""
    lex = lexicon()
    if not _participle(phrase):
        return None
    k = i - 1
    while k >= 0 and toks[k].clause == toks[i].clause and toks[k].low in lex.name_skip_adverbs:
        k -= 1
    if k >= 1 and toks[k].low in lex.passive_aux and toks[k].clause == toks[i].clause:
        while k >= 1 and toks[k - 1].low in lex.passive_aux | lex.perfect_aux:
            k -= 1
        return k
    return None


def _last_before_aux(toks: list[Tok], pos: int, end: int) -> bool:
    """The thing at `pos` is the passive's subject: nothing after it up to the auxiliary is a verb or a clause
    break ("Poetry was removed"; not "uses Poetry, which was removed from the image", which says what was). `end`:
    one past the last token of what the passives retire."""
    return all(toks[k].kind == "word" and toks[k].clause == toks[pos].clause for k in range(pos, end))


def _became(toks: list[Tok], values: list[Value]) -> list[Value]:
    lex = lexicon()
    out = list(values)
    by_clause: dict[int, list[int]] = {}  # (each clause's values, by their place in `out`)
    for k, v in enumerate(out):
        by_clause.setdefault(v.clause, []).append(k)
    for i in range(len(toks)):
        p = match_any(toks, i, lex.becoming)
        if not p:
            continue
        mine = by_clause.get(toks[i].clause, [])
        before = [k for k in mine if out[k].start < i and out[k].role is None]
        after = [out[k] for k in mine if out[k].start >= i + len(p) and out[k].role is None]
        for k in before:
            if any(v.kind == out[k].kind and v.key.split("/")[0] == out[k].key.split("/")[0] for v in after):
                out[k] = replace(out[k], role="from")
    return out


def _item_in(span: range, values: _Starts[Value], names: _Starts[Name], toks: list[Tok]):
    found_values = values.starting_in(span)
    if found_values:
        return found_values[0]
    found_names = names.starting_in(span)
    if found_names:
        return found_names[0]
    for k in span:
        t = toks[k]
        if t.kind == "word" and not is_function(t.low):
            return t.stem
    return None

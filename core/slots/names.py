"""Names in a statement: people, teams, products and other proper nouns.

A name is a run of capitalised words in one sentence ("Aiko Tanaka", "Harper & Co", "LaunchDarkly", "OPS-412"),
without its honorific. A single capitalised word that opens a sentence may be a common word; a word shaped as a
name (an acronym, an inner capital, a digit) is a name wherever it stands. Each `Name` records where it stands:
possessive, where a value goes ("is X", "by X", "is in X"), after "for"/"of"/"about" (what the statement is
about), and the word right after it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..text import STOPWORDS
from .lexicon import lexicon, stem
from .tokens import Tok, after_naming, bare_short_month, copular, is_function, match_any


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
    placed_by: int = -1  # the token index of the place verb that puts it where a value goes ("lives in a flat in X")
    titled: bool = False  # written after an honorific ("Dr. Kim", "Mrs Lowe"): a person


def _is_calendar_or_class(t: Tok, toks: list[Tok]) -> bool:
    lex = lexicon()
    low = t.low
    if low in lex.months and not bare_short_month(toks, t.i):
        return True
    if low in lex.weekdays or low in lex.quarters or low in lex.seasons:
        return True
    if low in lex.freq_words or low in lex.number_words or low in lex.ordinals:
        return True
    # (a member of classes that count only beside their head words is a class member only where the reader took it:
    # "GitHub Enterprise" is a name, "the Enterprise plan" a tier)
    member = (low,) in lex.classes and not all(heads for _cls, _canon, heads, _cs in lex.classes[(low,)])
    return (member and not after_naming(toks, t.i)) or t.used


def _predicate_noun(toks: list[Tok], end: int) -> bool:
    """Token `end` closes a noun phrase said of the subject with a form of "be" and an article ("is a patient",
    "was the lead nurse", "is an engineer"): a name after a preposition after it is where or with whom that holds
    ("is a patient at Abbeyfield Vets", "is a student at Leeds University"), as after "works at"."""
    determiners = lexicon().determiners
    k = end
    while k > end - 3 and k >= 1 and toks[k].kind == "word" and toks[k].low not in determiners:
        k -= 1
    return (
        k < end
        and k >= 1
        and toks[k].low in ("a", "an", "the")
        and toks[k - 1].kind == "word"
        and copular(toks[k - 1].low)
    )


def _bound_word_named(toks: list[Tok], j: int) -> bool:
    """A sentence opener that is a word of a bound ("Max", "Under") but is someone's name: a form of "be" or "has"
    follows, or "the" and a word for what it is ("Max is down to 24 kilos", "Max the dog weighs 30 kg"), where a
    bound is followed by its amount ("Max 30 kg", "Under 18s")."""
    lex = lexicon()
    t = toks[j]
    if t.low in STOPWORDS or t.low in lex.negation_cues or j + 1 >= len(toks):
        return False
    nxt = toks[j + 1]
    if nxt.kind != "word":
        return False
    if nxt.low in ("is", "was", "has", "had"):
        return True
    if nxt.low != "the" or j + 2 >= len(toks):
        return False
    what = toks[j + 2].low
    return what in lex.kin or any(c in lex.apposed_classes for c, *_ in lex.classes.get((what,), ()))


_ACRONYM = re.compile(r"^[A-Z][A-Z0-9&]+s?$")
_INNER_CAP = re.compile(r"^[a-zA-Z]+[A-Z][a-zA-Z]*$")


def _lexicon_verb(t: Tok) -> bool:
    """A word the relation lexicon reads as a state, a preference or a change ("Prefers ORMs", "Avoid ORMs",
    "Dropped Jenkins"): opening a sentence, it is that word, not the start of a name."""
    lex = lexicon()
    return (
        (t.low,) in lex.states
        or t.low in lex.preference_verbs
        or (t.low,) in lex.strong_cues
        or (t.low,) in lex.retiring
    )


def capitalised(t: Tok) -> bool:
    """Shaped like a name: a capital first letter, an inner capital ("LaunchDarkly"), letters with digits, or a word
    alone in quotes ("'tidepool'")."""
    return t.kind == "word" and (
        t.quoted
        or t.text[:1].isupper()
        or bool(_INNER_CAP.match(t.text))
        or (any(c.isdigit() for c in t.text) and any(c.isalpha() for c in t.text))
    )


def _apposed_to_kin(toks: list[Tok], first: int, last: int) -> bool:
    """The name stands between commas or brackets right after a word for kin ("User's husband, Daniel, is a
    teacher"): it says who that person is, as "is called Daniel" does."""
    if first < 2 or last + 1 >= len(toks):
        return False
    return (
        toks[first - 1].low in (",", "(") and toks[first - 2].low in lexicon().kin and toks[last + 1].low in (",", ")")
    )


def read_names(toks: list[Tok]) -> list[Name]:
    lex = lexicon()
    names: list[Name] = []
    labels = _label_colons(toks)
    j = 0
    n = len(toks)
    while j < n:
        t = toks[j]
        if not capitalised(t) or t.used or t.low in ("i", "i'm", "i'd", "i've", "i'll"):
            j += 1
            continue
        shaped = bool(
            t.quoted or _ACRONYM.match(t.text) or _INNER_CAP.match(t.text) or any(c.isdigit() for c in t.text)
        )
        # "Risk:", "Lesson from Harbor:", "Decided:": a heading word, not a name
        heading = t.initial and any(toks[k].low == ":" for k in range(j + 1, min(n, j + 4)) if toks[k].sent == t.sent)
        if heading or (
            t.initial
            and not shaped
            and (
                t.low in STOPWORDS
                or (is_function(t.low) and not _bound_word_named(toks, j))
                or t.low.endswith("ly")
                or t.low in lex.negation_cues
                or t.low.endswith("n't")
                or _lexicon_verb(t)
            )
        ):
            j += 1
            continue
        following = toks[j + 1] if j + 1 < n else None
        if (
            _is_calendar_or_class(t, toks)
            and not shaped
            # (a class word no value took, mid-sentence, before another capitalised word, starts a name: "Green Fork
            # Catering", "Blue Bottle Coffee")
            and not (
                not t.used
                and not t.initial
                and following is not None
                and capitalised(following)
                and not following.used
                and following.sent == t.sent
                and not _is_calendar_or_class(following, toks)
            )
        ):
            j += 1
            continue
        if _is_calendar_or_class(t, toks) and t.used:
            j += 1
            continue
        words = [t]
        k = j + 1
        saint = t.low in lex.saint_words  # "St Anne's Primary", "St Mary's Hospital": one name, no owner's
        while k < n and not (words[-1].low.endswith("'s") and not (saint and len(words) > 1)):
            u = toks[k]
            if saint and len(words) == 1 and u.kind == "punct" and u.low == ".":
                k += 1  # "St. Anne's"
                continue
            if u.kind == "punct" and u.low == "&" and k + 1 < n and capitalised(toks[k + 1]):
                words.append(u)
                k += 1
                continue
            if u.kind == "punct" and u.low == "." and words[-1].low in lex.honorifics:
                k += 1
                continue
            if capitalised(u) and not u.used and u.sent == t.sent and not _is_calendar_or_class(u, toks):
                words.append(u)
                k += 1
                continue
            break
        titled = words[0].low in lex.honorifics and len(words) > 1
        if titled:
            words = words[1:]
        if len(words) == 1 and words[0].low in lex.honorifics:
            j = k
            continue
        text = " ".join(w.text for w in words)
        keyw = tuple(w.low.removesuffix("'s") for w in words if w.low != "&")
        possessive = words[-1].low.endswith("'s") and not saint
        initial = words[0].initial and len(words) == 1 and not shaped and not possessive
        k0 = words[0].i - 1
        # past articles, possessives, titles, and adverbs ("is now Dr Okafor"), to the word that says what the name is
        while k0 >= 0 and (
            toks[k0].low in lex.before_name
            or toks[k0].low in lex.name_skip_adverbs
            # a class member written as a name before it, that the name belongs to ("in AWS us-east-1")
            or (toks[k0].used and capitalised(toks[k0]) and toks[k0].clause == words[0].clause)
            # a number between an article and the name ("is a 2020 MacBook Air", "drives a 2018 VW Golf")
            or (toks[k0].kind == "num" and k0 >= 1 and toks[k0 - 1].low in lex.before_name and toks[k0 - 1].low != ".")
        ):
            k0 -= 1
        value_like = (k0 >= 0 and toks[k0].low in lex.value_before) or _apposed_to_kin(toks, words[0].i, words[-1].i)
        placed_by = -1
        if k0 >= 1 and toks[k0].low in lex.value_preps:
            v = toks[k0 - 1]
            # past a value the verb also took ("is in Year 3 at St Anne's", "leaves at 7:15 from Stansted"): the
            # verb before it, and the preposition that put the value there
            m = k0 - 1
            while m >= 1 and toks[m].used and toks[m - 1].clause == toks[k0].clause:
                m -= 1
            if m < k0 - 1 and toks[m].low in lex.value_preps and m >= 1:
                m -= 1
            if m < k0 - 1 and toks[m].clause == toks[k0].clause:
                v = toks[m]
            # "lives in a flat in Oakland": a place inside the place a place verb puts the subject in
            m = k0 - 1
            while m >= 2 and toks[m].kind == "word" and toks[m].clause == toks[k0].clause and k0 - m <= 4:
                if toks[m].low in lex.value_preps and toks[m - 1].low in lex.place_verbs:
                    v = toks[m - 1]
                    break
                m -= 1
            value_like = v.kind == "word" and (
                copular(v.low)
                or v.low.endswith(("ed", "en", "ing"))
                or v.low == "be"
                or v.low in lex.place_verbs
                or (v.low in lex.affiliation_verbs and toks[k0].low in lex.affiliation_preps)
                or v.low in lex.participles
                or (v.i >= 1 and match_any(toks, v.i - 1, lex.place_phrases) is not None)  # "takes place in"
                or _predicate_noun(toks, v.i)  # "is a patient at Abbeyfield Vets"
            )
            if v.kind == "word" and v.low in lex.place_verbs:
                placed_by = v.i
        if (
            not value_like
            and k0 >= 1
            and toks[k0].kind == "word"
            and not toks[k0].used
            and toks[k0].text.islower()
            and toks[k0].clause == words[0].clause
            and toks[k0 - 1].low in lex.name_skip_adverbs
        ):
            # the word between "now" (or "still", "currently") and the name is a verb and the name its object:
            # "User now sees Dr. Kim", "the kids still see Dr. Lind"
            value_like = True
        if not value_like and _after_label(toks, words[0].i, words[-1].i, labels):
            value_like = True
        passive = False
        if k0 >= 1 and toks[k0].low in lex.passive_value_preps:
            v = toks[k0 - 1]
            participle = v.low.endswith(("ed", "en")) or v.low in lex.participles
            passive = v.kind == "word" and (copular(v.low) or (participle and v.i >= 1 and copular(toks[v.i - 1].low)))
            value_like = value_like or passive
        scoped = k0 >= 0 and toks[k0].low in lex.scope_words and not passive
        after = toks[words[-1].i + 1] if words[-1].i + 1 < n else None
        nxt = after.stem if after is not None and after.kind == "word" and not after.text[:1].isupper() else ""
        names.append(
            Name(
                text=text,
                key=" ".join(keyw),
                words=tuple(stem(w) for w in keyw),
                clause=words[0].clause,
                start=words[0].i,
                initial=initial,
                possessive=possessive,
                value_like=value_like,
                next_stem=nxt,
                next_plural=bool(after is not None and after.low.endswith("s")),
                scoped=scoped,
                placed_by=placed_by,
                titled=titled,
            )
        )
        j = k
    return _attached_values(toks, names)


def _attached_values(toks: list[Tok], names: list[Name]) -> list[Name]:
    """A name right after a name where a value goes or a person's name ("Dr. Alvarez"), joined to it by a placing
    preposition or a bracket, is where that value or person is, a value too: "is Dr. Alvarez at Elm Surgery", "is
    Dr. Kim (Harbour Practice)", "Dr. Alvarez at Elm Surgery is …"."""
    out = list(names)
    for k in range(1, len(out)):
        prev, n = out[k - 1], out[k]
        if (prev.value_like or prev.titled) and not n.value_like and placed_after(toks, prev, n):
            out[k] = replace(n, value_like=True)
    return out


def placed_after(toks: Sequence[Tok], first: Name, second: Name) -> bool:
    """`second` stands right after `first`, joined by a placing preposition (`[roles] value_preps`) or a bracket:
    where the one named first is ("Dr. Alvarez at Elm Surgery", "Dr. Kim (Harbour Practice)")."""
    end = first.start + len(first.text.split())
    return end + 1 == second.start and (toks[end].low in lexicon().value_preps or toks[end].text == "(")


_LIST_OR_PLACE = frozenset({"and", "or", "nor", "of", "for", "to", "via", "by", "near"})


def _label_colons(toks: list[Tok]) -> dict[int, tuple[int, int]]:
    """Each sentence that opens with a label (one to three words, then a colon: "Hotel:", "- Outbound:"): its
    sentence number → (the colon's index, the index where what the label says ends: the sentence's next colon, or
    past its end). One pass over the tokens."""
    out: dict[int, tuple[int, int]] = {}
    first: dict[int, int] = {}  # sentence → index of its first token
    ok: dict[int, bool] = {}  # sentence → only words so far, before its first colon
    for k, t in enumerate(toks):
        s = t.sent
        if s not in first:
            first[s], ok[s] = k, True
        if s in out:
            c, end = out[s]
            if end == len(toks) and t.kind == "punct" and t.low == ":":
                out[s] = (c, k)
            continue
        if not ok[s]:
            continue
        if t.kind == "punct" and t.low == ":":
            ok[s] = False
            if 1 <= k - first[s] <= 3:
                out[s] = (k, len(toks))
        elif t.kind != "word":
            ok[s] = False
    return out


def _after_label(toks: list[Tok], i: int, last: int, labels: dict[int, tuple[int, int]]) -> bool:
    """The name at `i`..`last` stands after the colon of a label that opens its sentence ("Outbound: 12 June, 07:15
    from Gatwick", "Dentist: Dr. Fell at Smile Studio"; `labels`, from `_label_colons`): what follows a label is its
    value. Not the subject of a sentence the label introduces ("Decided: Harbor authenticates users through ...",
    "Decided: Wren uses a Redis stream"): a name right after the colon followed by a word that neither lists nor
    places (a verb, as a rule)."""
    sent = toks[i].sent
    if sent not in labels:
        return False
    k, end = labels[sent]
    if not k < i < end:
        return False
    first = all(t.kind == "word" and t.low in lexicon().before_name for t in toks[k + 1 : i])
    nxt = toks[last + 1] if last + 1 < len(toks) else None
    opens_a_clause = (
        first
        and nxt is not None
        and nxt.sent == sent
        and nxt.kind == "word"
        and not nxt.text[:1].isupper()
        and nxt.low not in _LIST_OR_PLACE
        and nxt.low not in lexicon().value_preps
    )
    return not opens_a_clause

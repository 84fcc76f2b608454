"""Readers of values named by a word from a list: members of exclusive value classes and places.

- class members (kind `enum`): log levels, languages, databases, frameworks, time zones, themes, environments,
  regions, ... from the classes of `data/relations.toml`; a class may ask for one of its head words nearby, or a
  capital letter;
- places: a place noun after a place preposition, with the words that say which one ("in the top drawer", "at the
  Oak room"), numbered rooms and floors ("room 204", "floor 2") and ordinal floors ("the third floor");
- street addresses (kind `address`, key "street"): a house number, capitalised words and a street type word ("42
  Fernhill Road").
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from .lexicon import lexicon, stem
from .tokens import (
    ORDINAL,
    Tok,
    after_naming,
    first_word_index,
    glued_letter,
    is_function,
    match_any,
    phrases_of,
    without_possessive,
)
from .values import Value, add_value


def read_classes(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    index = first_word_index(phrases_of(lex.classes))
    i = 0
    while i < n:
        found = None
        for p in index.get(without_possessive(toks[i]) if len(index.get(toks[i].low, ())) == 0 else toks[i].low, ()):
            size = len(p)
            if i + size > n or any(toks[i + k].used for k in range(size)):
                continue
            if tuple(toks[i + k].low for k in range(size - 1)) + (without_possessive(toks[i + size - 1]),) == p:
                found = (p, lex.classes[p])
                break
        if not found:
            i += 1
            continue
        p, members = found
        took = False
        if after_naming(toks, i):
            i += len(p)  # "a coach called Dev", "a server named Jenkins": what it is called, not a class member
            continue
        if _first_name(toks, i, len(p), index):
            i += len(p)  # "chaired by Dev Malhotra", "Ruby Chen owns it": a person's first name, not a member
            continue
        if len(p) == 1 and _numbered_place(toks, i):
            i += 1  # "Apt 4B", "Terminal 5": a numbered place (`read_places`), not the package manager or the app
            continue
        for cls, canon, heads, cs in members:
            if cs and not toks[i].text[:1].isupper():
                continue
            if cs and toks[i].initial and i + len(p) < n and toks[i + len(p)].low in lex.imperative_objects:
                continue  # "Meet at 3 pm", "Go to the store", "Render the page": an imperative, not the product
            if heads:
                if toks[i + len(p) - 1].low != without_possessive(toks[i + len(p) - 1]):
                    continue  # "the family's plan": whose it is, not a member beside its head
                near = {
                    toks[k].low for k in range(max(0, i - 4), min(n, i + len(p) + 4)) if toks[k].sent == toks[i].sent
                }
                if not (near & heads):
                    continue
            # compared by stem: "WARN" / "warning", "table" / "tables", "tabs" / "tab" are one member
            add_value(values, toks, "enum", cls, _stemmed(canon), i, i + len(p))
            took = True
            break
        i += len(p) if took else 1


def _numbered_place(toks: list[Tok], i: int) -> bool:
    """The word at i is a numbered place's word and a number (a letter or decimals written onto it, or a letter
    alone, or a number spelled out) says which one: "room 204", "Flat 3B", "Apt 4a", "gate B", "floor three"."""
    return (
        toks[i].low in lexicon().numbered_places
        and i + 1 < len(toks)
        and toks[i + 1].kind in ("num", "word")
        and (
            re.fullmatch(r"\d+(?:\.\d+)?[a-z]?|[a-z]\d*", toks[i + 1].low) is not None
            or _spelled_number(toks[i + 1]) is not None
        )
        and not toks[i + 1].used
    )


def _spelled_number(t: Tok) -> str | None:
    """A whole number spelled as a word ("three", "twelve") as its digits, else None. Counts that are nouns ("a
    couple", "a dozen") are not numbers that say which one."""
    lex = lexicon()
    value = lex.number_words.get(t.low) if t.kind == "word" else None
    if value is None or not value.is_integer() or value < 1 or t.low in lex.of_counts:
        return None
    return str(int(value))


def _first_name(toks: list[Tok], i: int, size: int, index: dict) -> bool:
    """A one-word member written as a name (capital, then lower case) right before another such word that starts
    no member: a person's first name and surname ("Dev Malhotra", "Ruby Chen", "Jasmine Patel"), where a product
    and what it offers are written apart or listed whole ("AWS Lambda", "GitHub Actions")."""
    if size != 1 or i + 1 >= len(toks):
        return False
    t, nxt = toks[i], toks[i + 1]

    def name_shaped(x: Tok) -> bool:
        return x.kind == "word" and x.text.isalpha() and x.text[:1].isupper() and x.text[1:].islower()

    lex = lexicon()
    return (
        name_shaped(t)
        and name_shaped(nxt)
        and not nxt.initial
        and not index.get(nxt.low)
        and nxt.low not in lex.weekdays
        and nxt.low not in lex.months
    )


def _stemmed(canon: str) -> str:
    return " ".join(stem(w) for w in canon.split())


def _numeric_ordinal(t: Tok) -> int:
    m = ORDINAL.match(t.low) if t.kind == "num" else None
    return int(m.group(1)) if m else 0


@functools.cache
def _place_stems() -> frozenset[str]:
    return frozenset(stem(p[0]) for p in lexicon().places if len(p) == 1)


def read_street_addresses(toks: list[Tok], values: list[Value]) -> None:
    """ "42 Fernhill Road", "17 Ashdown Close", "221B Baker Street": a house number, one to three capitalised words
    and a street type word, one address value (else the number counts roads)."""
    lex = lexicon()
    n = len(toks)
    for i, t in enumerate(toks):
        if t.used or t.kind not in ("num", "word") or not re.fullmatch(r"\d{1,5}[a-z]?", t.low):
            continue
        letter = glued_letter(toks, i)  # "221B", read apart
        number = t.low + (letter.low if letter is not None else "")
        k = i + 2 if letter is not None else i + 1
        words: list[Tok] = []
        while k < n and len(words) < 4 and toks[k].kind == "word" and toks[k].text[:1].isupper() and not toks[k].used:
            words.append(toks[k])
            k += 1
            if len(words) >= 2 and words[-1].low.rstrip(".") in lex.street_types:
                break
        if len(words) >= 2 and words[-1].low.rstrip(".") in lex.street_types:
            add_value(values, toks, "address", "street", " ".join([number] + [w.low for w in words]), i, k)


def read_places(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    places = phrases_of(lex.places)
    i = 0
    while i < n:
        t = toks[i]
        # numbered places: "room 204", "floor 2", "number 14"
        if _numbered_place(toks, i):
            # a letter written onto the number is part of it ("Room 2b", "Flat 3B"; read apart as a unit, bytes)
            letter = glued_letter(toks, i + 1)
            label = (_spelled_number(toks[i + 1]) or toks[i + 1].low) + (letter.low if letter is not None else "")
            span = 3 if letter is not None else 2
            add_value(values, toks, "place", "", f"{stem(t.low)}#{label}", i, i + span)
            if letter is not None:
                values[-1] = replace(values[-1], text=f"{t.text} {toks[i + 1].text}{letter.text}")
            i += span
            continue
        # ordinal floors: "the third floor", "the 4th floor", "the fifth"
        nth = lex.ordinals.get(t.low, 0) if t.kind == "word" else _numeric_ordinal(t)
        if nth > 0 and i + 1 < n and toks[i + 1].low in lex.storey_words:
            add_value(values, toks, "place", "", f"{toks[i + 1].low}#{nth}", i, i + 2)
            i += 2
            continue
        if (
            t.low in lex.ordinals
            and lex.ordinals[t.low] > 0
            and i
            and toks[i - 1].low == "the"
            and any(toks[k].low in lex.storey_words for k in range(max(0, i - 8), i))
        ):
            add_value(values, toks, "place", "", f"floor#{lex.ordinals[t.low]}", i, i + 1)
            i += 1
            continue
        spatial = match_any(toks, i, lex.spatial_preps) if i and toks[i - 1].low in lex.copula else None
        if spatial:
            # "is under the blue flowerpot": the noun group after it, its last word the place, the others which one
            k = i + len(spatial)
            words: list[Tok] = []
            while k < n and toks[k].clause == t.clause and toks[k].kind == "word" and not toks[k].used:
                if toks[k].low in lex.place_preps or (is_function(toks[k].low) and words):
                    break
                if not is_function(toks[k].low):
                    words.append(toks[k])
                k += 1
            if words and not any(match_any(toks, w.i, places) for w in words):  # else a listed place below
                head, which = words[-1], [w.low for w in reversed(words[:-1])][:2]
                val = stem(head.low) + ("|" + " ".join(which) if which else "")
                add_value(values, toks, "place", "", val, head.i, head.i + 1)
                i = head.i + 1
                continue
        p = match_any(toks, i, places)
        if p is None and t.kind == "word" and t.low not in lex.place_preps and stem(t.low) in _place_stems():
            p = (t.low,)  # another form of a listed one-word place: "the neighbours", "the lockers"
        if (
            p
            and t.text[:1].isupper()
            and i
            and toks[i - 1].kind == "word"
            and toks[i - 1].text[:1].isupper()
            and not toks[i - 1].used
        ):
            p = None  # the last word of a name ("Elm Street", "Harbour Road Surgery"): the name says the place
        if p and not any(toks[i + k].used for k in range(len(p))):
            # a place noun after a place preposition (within a few words): "in the top drawer", "at the office"
            back = [toks[k].low for k in range(max(0, i - 6), i) if toks[k].clause == t.clause]
            if any(b in lex.place_preps for b in back):
                # the words that name which one: "the Oak room", "the Legal folder", "the top drawer"
                mods: list[str] = []
                k = i - 1
                while (
                    k >= 0
                    and toks[k].kind == "word"
                    and toks[k].clause == t.clause
                    and not is_function(toks[k].low)
                    and toks[k].low not in lex.place_preps
                    and len(mods) < 2
                ):
                    mods.append(toks[k].low)
                    k -= 1
                val = " ".join(stem(w) for w in p) + ("|" + " ".join(mods) if mods else "")
                add_value(values, toks, "place", "", val, i, i + len(p))
                i += len(p)
                continue
        i += 1

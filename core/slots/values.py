"""The typed value a statement states, and what every value reader shares.

A `Value` knows its kind (time, weekday, daypart, date, duration, frequency, quantity, version, enum, place,
address, label), what it is compared within (a unit dimension, a class, a versioned name), its normalised value,
its clause, whether it is a bound ("by 05:00", "up to 3 days") or approximate ("about 08:15"), whether a negation
covers it and its role in "from X to Y". The helpers here read a number from a token, the bound and approximation
words around a value, and a unit word; `add_value` records a value read from a span of tokens and marks those
tokens used, so that a later reader skips them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .lexicon import lexicon
from .tokens import ORDINAL, Tok, match_any


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
    role: str | None = None  # "from" | "to" in "from X to Y"; "rest" for what remains of a whole ("8 days left")
    of: str = ""  # for an amount of money or a share: the stem of what it is ("a £200 deposit", "the limit is $12k")
    limit: str | None = None  # "upper" | "lower": an amount a limit word is said to be ("the lunch budget is £15",
    # "requires 12 characters"): see `limit_before`
    alt: Any = None  # a second reading of `val` the text allows as well: "05/12/2026" is 5 December or May 12


def number(tok: Tok) -> float | None:
    """The number a token says: digits ("1,200", "3.12", "14th", "8.x") or a number word ("two", "twenty-five")."""
    lex = lexicon()
    s = tok.low
    if tok.kind == "num":
        om = ORDINAL.match(s)
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


def bound_before(toks: list[Tok], i: int) -> tuple[str | None, bool]:
    """The bound and approximation words right before token i (same clause, up to 4 words back)."""
    lex = lexicon()
    bound = None
    approx = False
    start = max(0, i - 5)
    for k in range(start, i):
        if toks[k].clause != toks[i].clause and toks[k].sent != toks[i].sent:
            continue
        p = match_any(toks, k, lex.upper)
        if (
            p
            and k + len(p) <= i
            and not (" ".join(p) in lex.point_events and i - 1 > k and toks[i - 1].low in lex.point_preps)
            and not _rise(toks, k)
        ):
            bound = "upper"
        p = match_any(toks, k, lex.lower)
        if p and k + len(p) <= i:
            bound = "lower"
        if match_any(toks, k, lex.approx):
            approx = True
    # "X or more", "X or later", "at the latest"
    return bound, approx


def _rise(toks: list[Tok], k: int) -> bool:
    """The "up to" at token k follows a verb of change ("went up to 10 mg", "the rent goes up to £1,350"): a change
    to the amount, not a limit; unless a modal says how far it may go ("can go up to 100 mg")."""
    lex = lexicon()
    return (
        toks[k].low == "up"
        and k >= 1
        and toks[k - 1].low in lex.rise_verbs
        and not (k >= 2 and toks[k - 2].low in lex.capacity_modals)
    )


def limit_before(toks: list[Tok], i: int) -> str | None:
    """A limit word up to seven words before the amount at token i, in its clause: "upper" after one of `[bounds]
    limit_nouns` ("the p95 latency budget is 300 ms", "max upload size on the API is 10 MB"), "lower" after one of
    `floor_words` ("requires 12 characters"); None when neither (the nearest wins). Against another bound of its
    direction the amount is one too ("must stay under 500 ms", "at least 8 characters"); against a plain amount it
    is compared as one ("spends £80 a week")."""
    lex = lexicon()
    for k in range(i - 1, max(-1, i - 8), -1):
        if toks[k].clause != toks[i].clause:
            break
        word = toks[k].stem or toks[k].low
        if word in lex.limit_nouns or toks[k].low in lex.limit_nouns:
            return "upper"
        if word in lex.floor_words or toks[k].low in lex.floor_words:
            return "lower"
    return None


def _bound_after(toks: list[Tok], j: int) -> str | None:
    lex = lexicon()
    if j < len(toks) and toks[j].low in ("at", "or"):
        if match_any(toks, j, lex.upper):
            return "upper"
        if match_any(toks, j, lex.lower):
            return "lower"
    return None


def add_value(values: list[Value], toks: list[Tok], kind: str, key: str, val: Any, i: int, j: int, **kw) -> None:
    """A value read from tokens i..j-1 (marks them used)."""
    bound, approx = bound_before(toks, i)
    after = _bound_after(toks, j)
    for k in range(i, j):
        toks[k].used = True
    text = " ".join(t.text for t in toks[i:j])
    values.append(
        Value(
            kind,
            key,
            val,
            text,
            toks[i].clause,
            i,
            bound=kw.pop("bound", None) or after or bound,
            approx=approx or kw.pop("approx", False),
            limit=limit_before(toks, i) if kind in ("quantity", "duration") else None,
            **kw,
        )
    )


def currency_code(tok: Tok) -> bool:
    """A currency written as its code before an amount ("GBP 600", "EUR 1,450"): a unit word that is its own
    dimension in the units table (the table's currencies), written in capitals."""
    unit = lexicon().units.get(tok.low) if tok.kind == "word" else None
    return unit is not None and unit[0] == tok.low and tok.text.isupper()


def unit_at(toks: list[Tok], j: int) -> tuple[str, float, int] | None:
    """A unit word at j: (dimension, factor, tokens used)."""
    lex = lexicon()
    if j >= len(toks):
        return None
    t = toks[j]
    low = t.low.rstrip(".")
    if low.endswith("'s") and len(low) > 3:
        low = low[:-2]  # "a month's notice", "a day's work": the unit in the possessive
    cands = [low]
    if low.endswith("s") and len(low) > 2:
        cands.append(low[:-1])
    if low.endswith("es") and len(low) > 3:
        cands.append(low[:-2])
    if low == "per" and j + 1 < len(toks) and toks[j + 1].low == "cent":
        return ("percent", 1.0, 2)
    for c in cands:
        if c in lex.units:
            if (
                (c in lex.glued_units or len(c) == 1)
                and t.kind != "unit"
                and c not in ("$", "%", "€", "£")
                and not (c == low and t.text in lex.apart_units and j and toks[j - 1].kind == "num")
            ):
                continue
            dim, f = lex.units[c]
            return dim, f, 1
    if low.startswith("°") and low in lex.units:
        dim, f = lex.units[low]
        return dim, f, 1
    return None


def time_unit(toks: list[Tok], j: int) -> float | None:
    u = unit_at(toks, j)
    if u and u[0] == "time":
        return u[1]
    return None

"""Readers of numbers: quantities, durations, rates, labels and versions.

- quantities with units, converted to one base per dimension (time, data, currency, length, mass, volume,
  temperature, percent), or counted nouns ("8 engineers", "two approving reviews"); ranges ("3 to 12 replicas");
  rates ("300 requests a minute"); a duration is a quantity of time;
- labels: a number that names which one of the noun before it ("berth 31", "note 3");
- versions: a number after a name or "version" ("Python 3.12", "Node 20", "v2", "8.x").
"""

from __future__ import annotations

import re
from dataclasses import replace

from .lexicon import lexicon, stem
from .names import capitalised
from .tokens import ORDINAL, Tok, glued_letter, is_function, match_any, phrases_of
from .values import Value, add_value, bound_before, currency_code, limit_before, number, time_unit, unit_at


def _hyphen_unit(toks: list[Tok], i: int) -> bool:
    """The number at i is joined by a hyphen to the unit after it ("2-week", "30-minute")."""
    return i + 2 < len(toks) and toks[i + 1].low == "-" and unit_at(toks, i + 2) is not None


def _label_head(toks: list[Tok], k: int) -> Tok | None:
    """The label noun of the phrase that ends at k, before a form of "be": the word at k ("the port | is"), or one
    before a scope word and the noun group it scopes ("the code for the gate | is", "the door code of the Lisbon
    office | is"), which is the phrase's head. None when neither is a label noun."""
    lex = lexicon()
    j = k
    while j >= 1 and k - j < 5 and toks[j].kind == "word" and toks[j].clause == toks[k].clause:
        if toks[j].low in lex.scope_words and toks[j - 1].kind == "word" and toks[j - 1].low in lex.label_heads:
            return toks[j - 1]
        j -= 1
    return toks[k] if toks[k].kind == "word" and toks[k].low in lex.label_heads else None


def _glued_letter(toks: list[Tok], i: int) -> str:
    """The letter written onto the number at i (`tokens.glued_letter`), marked used; "" when there is none."""
    nxt = glued_letter(toks, i)
    if nxt is None:
        return ""
    nxt.used = True
    return nxt.low


def _minus_before(toks: list[Tok], i: int) -> bool:
    """A minus sign written onto the number at i, with a space or the start of the text before it ("at -18 °C"),
    not the dash of a range ("9-11")."""
    if i < 1 or toks[i - 1].low not in ("-", "\u2212") or toks[i - 1].end != toks[i].at:
        return False
    return i < 2 or toks[i - 2].end < toks[i - 1].at


def _hyphen_age(toks: list[Tok], i: int) -> tuple[float, int] | None:
    """An age joined by hyphens ("6-month-old", "a three-year-old"): (the length of life in seconds, how many
    tokens it takes). None for any other words."""
    t = toks[i]
    if t.kind == "num" and i + 2 < len(toks) and toks[i + 1].low == "-":
        count, rest, span = number(t), toks[i + 2].low, 3
    elif t.kind == "word" and t.low.count("-") == 2:
        head, _, rest = t.low.partition("-")
        count, span = number(Tok(t.i, head, head, "word")), 1
    else:
        return None
    unit, dash, old = rest.partition("-")
    lex = lexicon()
    if count is None or not dash or old not in lex.age_after or lex.units.get(unit, ("",))[0] != "time":
        return None
    return count * lex.units[unit][1], span


def _number_joined(t: Tok) -> tuple[float, str] | None:
    """A number word joined by a hyphen to one other word ("two-week", "three-bedroom"): (count, that word)."""
    head, dash, tail = t.low.partition("-")
    if not dash or "-" in tail or not head:
        return None
    count = number(Tok(t.i, head, head, "word"))
    return None if count is None else (count, tail)


def _joined_amount(t: Tok) -> tuple[float, tuple[str, float]] | None:
    """A number word and a unit written as one hyphenated word ("two-week", "six-month"): (count, (dimension,
    factor)); None for any other word."""
    joined = _number_joined(t)
    if joined is None:
        return None
    count, tail = joined
    unit = lexicon().units.get(tail)
    if unit is None or tail in lexicon().glued_units or len(tail) < 3:
        return None
    return count, unit


def _joined_count(toks: list[Tok], i: int) -> tuple[float, str] | None:
    """A count joined by a hyphen to the noun it counts, before another noun ("a three-bedroom flat", "a 3-bedroom
    flat", "a four-person team"): (count, the counted noun's stem). None for any other words."""
    t = toks[i]
    nxt: Tok | None
    count: float | None
    if t.kind == "word":
        joined = _number_joined(t)
        if joined is None:
            return None
        count, noun = joined
        nxt = toks[i + 1] if i + 1 < len(toks) else None
    elif t.kind == "num" and i + 3 < len(toks) and toks[i + 1].low == "-" and toks[i + 2].kind == "word":
        count = number(t)
        noun, nxt = toks[i + 2].low, toks[i + 3]
    else:
        return None
    lex = lexicon()
    if (
        count is None
        or not noun.isalpha()
        or len(noun) < 3
        or (is_function(noun) and noun not in lex.counted_light)
        or noun in lex.units
        or noun in lex.number_words  # "thirty-two"
        or noun in lex.ordinals  # "twenty-first"
        or nxt is None
        or nxt.kind != "word"
        or is_function(nxt.low)
    ):
        return None
    return count, stem(noun)


def _member_at(toks: list[Tok], i: int) -> bool:
    """A class member of two or more words starts at token i."""
    p = match_any(toks, i, phrases_of(lexicon().classes))
    return p is not None and len(p) > 1


def _counted_noun(toks: list[Tok], j: int) -> tuple[str, int]:
    """The noun counted by a number: its stem, and how many tokens it spans (up to 2 words: "approving review")."""
    n = len(toks)
    words: list[Tok] = []
    k = j
    while k < n and len(words) < 2:
        t = toks[k]
        if t.kind != "word" or t.used or t.low in ("of", "per", "a", "an"):
            break
        if is_function(t.low) and not (t.low in lexicon().counted_light and not words):
            break
        words.append(t)
        k += 1
        if t.low.endswith("s") or (k < n and toks[k].kind != "word"):
            break
    if not words:
        return "", 0
    return "+".join(w.stem or stem(w.low) for w in words), len(words)


_TENS = frozenset(float(x) for x in range(20, 100, 10))
_UNITS = frozenset(float(x) for x in range(1, 10))


def _quarter_of(toks: list[Tok], j: int) -> int | None:
    """Where the unit is in "quarter(s) of an hour" starting at j; None for any other words."""
    if (
        j + 3 < len(toks)
        and toks[j].low in ("quarter", "quarters")
        and toks[j + 1].low == "of"
        and toks[j + 2].low in ("a", "an")
        and time_unit(toks, j + 3) is not None
    ):
        return j + 3
    return None


def _and_a_half(toks: list[Tok], j: int) -> bool:
    return j + 2 < len(toks) and (toks[j].low, toks[j + 1].low, toks[j + 2].low) == ("and", "a", "half")


def read_quantities(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t.used or (t.kind == "word" and t.low in lex.number_words and _member_at(toks, i)):
            i += 1  # "single quotes", "double-quoted": a member of a class that opens with a number word
            continue
        amount = None
        minus = False
        dim = None
        factor = 1.0
        j = i
        if t.kind == "money":
            m = re.match(r"^([$€£])\s?([\d,]+(?:\.\d+)?)\s?(k|m|mm|bn|million|billion|thousand)?$", t.low)
            if m:
                amount = float(m.group(2).replace(",", "")) * (lex.multipliers.get(m.group(3) or "", 1.0))
                dim, factor = lex.units[m.group(1)]
                j = i + 1
        elif currency_code(t) and i + 1 < n and toks[i + 1].kind == "num" and not toks[i + 1].used:
            amount = number(toks[i + 1])  # "GBP 600", "EUR 1,450": the code, then the amount
            dim, factor = lex.units[t.low]
            j = i + 2
        elif t.kind == "num" and i and toks[i - 1].low in lex.numbered_places and re.fullmatch(r"\d+(?:\.\d+)?", t.low):
            i += 1  # "Flat 2", "Room 204" (capitalised too): which one, a place (`read_places`), not a count
            continue
        elif (age := _hyphen_age(toks, i)) is not None:
            # "a 6-month-old spaniel", "a three-year-old laptop": an age, joined by hyphens
            seconds, span = age
            for k in range(i, i + span):
                toks[k].used = True
            values.append(Value("quantity", "age", seconds, "".join(x.text for x in toks[i : i + span]), t.clause, i))
            i += span
            continue
        elif t.kind == "num" and not ORDINAL.match(t.low) and _hyphen_unit(toks, i):
            amount = number(t)  # "2-week sprints", "a 30-minute call": the number and its unit joined
            j = i + 2
        elif t.kind == "word" and (joined := _joined_amount(t)) is not None:
            # "two-week sprints", "a six-month contract", in one word
            count, (dim_, fac) = joined
            t.used = True
            kind_ = "duration" if dim_ == "time" else "quantity"
            values.append(
                Value(
                    kind_,
                    dim_,
                    count * fac,
                    t.text,
                    t.clause,
                    i,
                    bound=bound_before(toks, i)[0],
                    limit=limit_before(toks, i),
                )
            )
            i += 1
            continue
        elif not ORDINAL.match(t.low) and (joined_n := _joined_count(toks, i)) is not None:
            # "a three-bedroom flat", "a 4-person team": how many of the noun, said before another noun
            count, noun = joined_n
            span = 1 if t.kind == "word" else 3
            for k in range(i, i + span):
                toks[k].used = True
            text = "".join(x.text for x in toks[i : i + span])
            values.append(
                Value(
                    "quantity",
                    "n:" + noun,
                    count,
                    text,
                    t.clause,
                    i,
                    bound=bound_before(toks, i)[0],
                    limit=limit_before(toks, i),
                )
            )
            i += span
            continue
        elif t.kind == "num" and not ORDINAL.match(t.low):
            prev = toks[i - 1] if i else None
            nxt = toks[i + 1] if i + 1 < n else None
            counted = (
                nxt is not None
                and (
                    nxt.kind in ("word", "unit")
                    and (not is_function(nxt.low) or nxt.low in lex.counted_light)
                    or nxt.low == "%"
                )
                or t.low.endswith("%")
            )
            if (
                prev is not None
                and prev.kind == "word"
                and not prev.used
                and (not is_function(prev.low) or prev.low in lex.label_heads)
                and prev.low not in lex.number_words
                and prev.low not in lex.age_before  # "aged 42", "turns 30": an age
                and prev.low not in ("between", "from", "to", "of", "than")  # "between 3 and 12": a range
                # (a capitalised word names a thing, "Python 3", unless it is a label noun that opens its sentence:
                # "Ticket 4411 is fixed")
                and (not prev.text[:1].isupper() or (prev.initial and prev.low in lex.label_heads))
                and (not counted or _names_which(toks, i))
                and unit_at(toks, i + 1) is None  # "lasts 6 h": an amount of a unit
                and bound_before(toks, i) == (None, False)
            ):
                # "berth 31", "level 9", "note 3": a number that labels the noun before it names which one; after a
                # verb or a preposition ("listens on port 8080", "leaves from gate 12") it is what is said of the
                # subject, a value
                t.used = True
                k0 = i - 2
                while k0 >= 0 and toks[k0].low in lex.determiners:
                    k0 -= 1
                said = k0 >= 0 and (
                    toks[k0].low in lex.value_preps or toks[k0].low in lex.place_preps or toks[k0].low in lex.copula
                )
                letter = _glued_letter(toks, i)
                values.append(
                    Value(
                        "label",
                        prev.stem or stem(prev.low),
                        t.low + letter,
                        f"{prev.text} {t.text}{letter}",
                        t.clause,
                        i,
                        role="value" if said else None,
                    )
                )
                i += 2 if letter else 1
                continue
            head = (
                _label_head(toks, i - 2)
                if prev is not None
                and (prev.low in lex.copula or prev.low in lex.label_glue)
                and i >= 2
                and not counted
                else None
            )
            if head is not None:
                # "the port is 9090", "our gate is 12", "port: 9090", "the door code of the office is 7781": the label,
                # said of the subject
                t.used = True
                letter = _glued_letter(toks, i)
                label, text = t.low + letter, f"{head.text} {t.text}{letter}"
                values.append(Value("label", head.stem or stem(head.low), label, text, t.clause, i, role="value"))
                i += 2 if letter else 1
                continue
            amount = number(t)
            minus = amount is not None and _minus_before(toks, i)
            if minus and amount is not None:
                amount = -amount  # "-18 °C": a minus written onto the number, not a dash between two
            j = i + 1
            if t.low.endswith("%"):
                dim = "percent"
        elif t.kind == "word" and t.low == "half" and i + 2 < n and toks[i + 1].low in ("a", "an"):
            # "half an hour", "half a day"
            if time_unit(toks, i + 2) is not None or unit_at(toks, i + 2) is not None:
                amount = 0.5
                j = i + 2
        elif t.kind == "word" and number(t) is not None and t.low not in ("once", "twice", "thrice", "half"):
            amount = number(t)
            j = i + 1
            # "thirty four": a tens word and a units word
            if amount in _TENS and j < n and toks[j].kind == "word" and (number(toks[j]) or 0) in _UNITS:
                amount += number(toks[j]) or 0
                j += 1
            # "a couple of days", "a dozen of them": the noun after "of" is what is counted
            if t.low in lex.of_counts and j + 1 < n and toks[j].low == "of":
                j += 1
            # "a full year", "one whole week"
        elif t.kind == "word" and t.low in ("a", "an") and i + 1 < n:
            k = i + 1
            if k < n and toks[k].low in lex.whole_words:
                k += 1
            ordinal_second = (
                toks[k].low == "second"
                and k + 1 < n
                and toks[k + 1].kind == "word"
                and not is_function(toks[k + 1].low)
            )  # "a second EU region"
            if _quarter_of(toks, k) is not None:
                amount = 1.0
                j = k
            elif (
                time_unit(toks, k) is not None
                and not (i and toks[i - 1].kind in ("num",))
                and not (i and number(toks[i - 1]) is not None)
                and not ordinal_second
            ):
                amount = 1.0
                j = k
        if amount is None:
            i += 1
            continue
        # "a quarter of an hour", "three quarters of an hour"
        q = _quarter_of(toks, j)
        if q is not None:
            amount *= 0.25
            j = q
        # "two and a half hours": a half before the unit
        if _and_a_half(toks, j):
            amount += 0.5
            j += 3
        # "two weeks" vs "2-week": multiplier words
        if j < n and toks[j].low in lex.multipliers and toks[j].kind in ("word", "unit") and dim is None:
            amount *= lex.multipliers[toks[j].low]
            j += 1
        # a range: "3 to 12 replicas", "between 3 and 12"
        hi = None
        if (
            j + 1 < n
            and toks[j].low in ("-", "to", "and")
            and number(toks[j + 1]) is not None
            and toks[j + 1].kind in ("num", "word")
            and dim is None
        ):
            hi = number(toks[j + 1])
            j += 2
        unit = None
        slashed = None  # "3 GB/day", "40 km/h": a unit and the time it is per, in one word
        if dim is None and j < n and toks[j].kind == "word" and toks[j].low.count("/") == 1:
            top, per = toks[j].low.split("/")
            if top in lex.units and per in lex.units and lex.units[per][0] == "time":
                dim, factor = lex.units[top]
                slashed = lex.units[per][1]
                j += 1
        if dim is None:
            u = unit_at(toks, j)
            if u:
                dim, factor, used = u
                j += used
                if _and_a_half(toks, j):  # "an hour and a half"
                    amount += 0.5
                    j += 3
        key = dim or ""
        if dim is None:
            noun, used = _counted_noun(toks, j)
            if noun:
                key = "n:" + noun
                j += used
            elif t.kind == "num" and hi is None:
                key = _elided_noun(toks, values, i, j)
        # a rate: "per minute", "a week", "/s", "each day"
        rate = slashed
        if rate is None and j < n and (toks[j].low in lex.rate_words or toks[j].low == "/"):
            f = time_unit(toks, j + 1)
            if f is not None:
                rate = f
                j += 2
        # (past what it is of, too: "30 days of holiday a year", "£60 of groceries a week"; those words stay words
        # of the statement, the time it is per is used up)
        per_at = _per_after_of(toks, j) if rate is None and not slashed else None
        if per_at is not None:
            rate = time_unit(toks, per_at + 1)
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
        # An age: "8 years old", "six months old" (a length, then "old"); "aged 8", "turned eleven" (a bare number
        # after a word that says an age comes next). Compared as one length of life, in seconds. (Not yet: the
        # hyphen-joined "a 3-month-old puppy".)
        if kind == "duration" and j < n and toks[j].low in lex.age_after:
            kind, key = "quantity", "age"
            j += 1
        elif kind == "duration" and j < n and toks[j].low == "ago" and _made(toks, i):
            # "The boiler was installed about 3 years ago": the thing's age, as "is 3 years old" says it
            kind, key = "quantity", "age"
            j += 1
        elif key == "" and not rate and hi is None and i and toks[i - 1].low in lex.age_before:
            kind, key, value = "quantity", "age", amount * lex.units["year"][1]
        # A bare small number that is a list index or part of a name is not a quantity.
        if key == "" and t.kind == "word":
            i = j if j > i else i + 1
            continue
        _ = unit
        extra = {}
        if (
            kind == "duration"
            and bound_before(toks, i)[0] == "lower"
            and i
            and toks[i - 1].low in ("after", "from", "starting")
        ):
            extra["bound"] = "none"  # "expire after 30 minutes": the length itself, not a lower limit
        add_value(values, toks, kind, key, value, i, j, **extra)
        if per_at is not None:
            toks[per_at].used = toks[per_at + 1].used = True
        if minus:
            values[-1] = replace(values[-1], text="-" + values[-1].text)
        if values[-1].bound == "none":
            values[-1] = replace(values[-1], bound=None)
        if key.split("/")[0] in lex.amount_dims:
            values[-1] = replace(values[-1], of=_amount_of(toks, i, j))
        elif key and not key.startswith("n:"):
            # a measure of a thing it names right after: "40 GB of storage" / "95 GB of memory" are two things
            values[-1] = replace(values[-1], of=_measure_of(toks, j))
        i = j


def _elided_noun(toks: list[Tok], values: list[Value], i: int, j: int) -> str:
    """The counted noun a bare number leaves out because the count it is joined to said it ("runs 6 replicas in prod
    and 2 in staging": 2 replicas): its key, or "". The number follows "and", "or" or a comma, the count before it in
    its sentence is of a noun, and what follows the number is a preposition or the clause's end (so the number
    stands alone: "6 replicas and 2 of them idle" is no count of its own either way)."""
    lex = lexicon()
    if i < 1 or toks[i - 1].low not in ("and", "or", ",", "but"):
        return ""
    nxt = toks[j] if j < len(toks) else None
    if nxt is not None and nxt.sent == toks[i].sent and nxt.kind != "punct" and nxt.low not in lex.value_preps:
        return ""
    # (the amount read last before it, which must be that count: "6 replicas, 20 GB and 2 in staging" is not)
    last = max(
        (v for v in values if v.kind in ("quantity", "duration") and v.start < i), key=lambda v: v.start, default=None
    )
    if (
        last is None
        or toks[last.start].sent != toks[i].sent
        or not last.key.startswith("n:")
        or last.key.endswith("/time")
    ):
        return ""
    return last.key


def _measure_of(toks: list[Tok], j: int) -> str:
    """The stem of the noun a measure is of, written right after it ("40 GB of storage", "2 litres of the oat
    milk"), or ""."""
    n = len(toks)
    if not (j < n and toks[j].low == "of"):
        return ""
    k = j + 1
    while k < n and toks[k].low in lexicon().determiners:
        k += 1
    if k < n and toks[k].kind == "word" and toks[k].clause == toks[j].clause and not is_function(toks[k].low):
        return toks[k].stem or stem(toks[k].low)
    return ""


def _per_after_of(toks: list[Tok], j: int) -> int | None:
    """Where "a" / "per" / "each" of a rate stands after "of" and up to three words of what the amount is of ("30 days
    of holiday a year"), before a unit of time; None when not so."""
    n = len(toks)
    if not (j < n and toks[j].low == "of"):
        return None
    k = j + 1
    while k < n and k <= j + 3 and toks[k].kind == "word" and not toks[k].used and toks[k].clause == toks[j].clause:
        if toks[k].low in lexicon().rate_words:
            return k if k > j + 1 and time_unit(toks, k + 1) is not None else None
        k += 1
    return None


def _amount_of(toks: list[Tok], i: int, j: int) -> str:
    """What an amount of money or a share is: the noun right after it ("a £200 deposit", "a $2,500 bonus"), else the
    word before it past "is", "of", "about" and the like ("the credit limit is $12,000", "saved about £6,400",
    "contributes 8%"); "" when neither is a content word."""
    lex = lexicon()
    if j < len(toks):
        u = toks[j]
        if (
            u.kind == "word"
            and not u.used
            and not is_function(u.low)
            and u.low not in lex.units
            and u.clause == toks[i].clause
        ):
            return "price" if u.low in lex.price_words else u.stem or stem(u.low)
    if i and toks[i - 1].low in lex.price_words:
        return "price"  # "a course for £60", "tickets at £40"
    k = i - 1
    while k >= 0 and toks[k].clause == toks[i].clause and (toks[k].low in lex.amount_glue or toks[k].kind == "punct"):
        k -= 1
    if k >= 0 and toks[k].clause == toks[i].clause and toks[k].kind == "word" and not toks[k].used:
        return "price" if toks[k].low in lex.price_words else toks[k].stem or stem(toks[k].low)
    return ""


def _ordinal(word: str) -> int | None:
    """The number an ordinal says: "3rd", "fifth"; None for any other word."""
    m = ORDINAL.match(word)
    return int(m.group(1)) if m else lexicon().ordinals.get(word)


def read_grades(toks: list[Tok], values: list[Value]) -> None:
    """A school year (data file `[grades]`): "3rd grade", "a fifth grader", "third-grader", "grade 2", "Year 4".
    Read before dates, which would take "3rd" for a day of the month."""
    lex = lexicon()
    n = len(toks)
    for i, t in enumerate(toks):
        if t.used:
            continue
        nxt = toks[i + 1] if i + 1 < n else None
        first, _dash, rest = t.low.partition("-")
        found: tuple[int | None, int] = (None, 0)  # (grade, tokens)
        if rest in lex.grade_words:
            found = (_ordinal(first), 1)  # "third-grader"
        elif nxt is not None and nxt.low in lex.grade_words:
            found = (_ordinal(t.low), 2)  # "3rd grade", "fifth grader"
        elif nxt is not None and t.text in lex.grade_before_number and nxt.kind == "num" and nxt.low.isdigit():
            found = (int(nxt.low), 2)  # "grade 2", "Year 4"
        g, span = found
        if g is not None and 0 < g <= lex.grade_max:
            text = " ".join(x.text for x in toks[i : i + span])
            for x in toks[i : i + span]:
                x.used = True
            values.append(Value("quantity", "grade", float(g), text, t.clause, i))


def read_versions(toks: list[Tok], values: list[Value]) -> None:
    """ "v2", "2.0", "Python 3.12", "Node 20", "version 8.x": a number that names a version of the word before it."""
    lex = lexicon()
    n = len(toks)
    for i, t in enumerate(toks):
        if t.used:
            continue
        if t.kind == "word" and re.fullmatch(r"v\d+(?:\.\d+)*", t.low):
            t.used = True
            values.append(Value("version", _owner_before(toks, i), t.low[1:], t.text, t.clause, i))
            continue
        if t.kind != "num" or t.low.endswith("%") or ORDINAL.match(t.low):
            continue
        nxt_unit = i + 1 < n and (
            unit_at(toks, i + 1) is not None or toks[i + 1].low in lex.multipliers or _hyphen_unit(toks, i)
        )
        prev = toks[i - 1] if i else None
        decimal = "." in t.low.removesuffix(".x") or t.low.endswith(".x")
        after_name = (
            prev is not None
            and prev.kind == "word"
            and not prev.used
            and (
                (prev.low in lex.version_words or prev.low == "v")
                or (
                    capitalised(prev)
                    and prev.low not in lex.numbered_places
                    and prev.low not in lex.honorifics
                    # (a label noun opening its sentence, "Ticket 4411 is fixed", says which one: a label)
                    and not (prev.initial and prev.low in lex.label_heads and not decimal)
                    and not currency_code(prev)  # "GBP 600": an amount
                )
            )
        )
        if nxt_unit or not (decimal or after_name) or (prev is not None and prev.low in lex.numbered_places):
            continue  # (a number after "room", "suite", "gate" says which one: a place, "room 4.12")
        if (
            (not decimal or not after_name)
            and i + 1 < n
            and toks[i + 1].kind == "word"
            and not is_function(toks[i + 1].low)
            and not capitalised(toks[i + 1])
            and toks[i + 1].low not in lex.relative_days
            and toks[i + 1].low not in lex.version_words  # "the 2.0 release"
        ):
            continue  # "Platform 8 engineers", "at 2.5 bar": a count, not a version
        t.used = True
        values.append(Value("version", _owner_before(toks, i), t.low.removesuffix(".x"), t.text, t.clause, i))


def _names_which(toks: list[Tok], i: int) -> bool:
    """The whole number at `i` says which one of the noun right before it, whatever word follows: "for service 1
    starts", "the build 14 failed", "of step 3 takes" (a noun after a determiner or a preposition; data file
    `[grammar]`: `which_openers`, and `counting_words`, which count: "the last 3 runs"). Not a count of that word."""
    lex = lexicon()
    if i < 2 or not re.fullmatch(r"\d+", toks[i].low):
        return False
    noun, before = toks[i - 1], toks[i - 2]
    if noun.low in lex.label_always and noun.clause == toks[i].clause:
        return True  # "Pipeline number 3 deploys": a number after "number" says which one, whatever stands before
    return (
        noun.kind == "word"
        and noun.text.isalpha()
        and noun.text.islower()
        and not noun.used
        and len(noun.low) > 2
        and not is_function(noun.low)
        and not noun.low.endswith(("ly", "ing"))  # "by adding 3 nodes": a verb
        and noun.low not in lex.counting_words
        and noun.low not in lex.number_words
        and unit_at(toks, i - 1) is None
        and noun.clause == toks[i].clause
        and before.low != "to"  # "to support 50 users": a verb
        and (before.low in lex.determiners or before.low in lex.place_preps or before.low in lex.which_openers)
    )


def _owner_before(toks: list[Tok], i: int) -> str:
    """What a version number is the version of: the word before it ("Python 3.12"), past "version", "to" and the
    like ("pin Python to 3.11"); "" when that word is a verb ("upgraded to 3.11", "is running version 14": of
    whatever the other names)."""
    for k in range(i - 1, max(-1, i - 4), -1):
        t = toks[k]
        if t.kind == "punct" and t.low not in ("(",):
            break
        if t.kind == "word" and t.low not in ("version", "v", "the", "release", "of", "to", "at", "on", "from"):
            lex = lexicon()
            verb = t.low.endswith("ed") or t.low in lex.light or t.low in lex.subject_verbs
            return "" if verb and not t.text[:1].isupper() else t.stem or stem(t.low)
    return ""


def _made(toks: list[Tok], i: int) -> bool:
    """A passive verb that makes its subject comes before token `i` in its clause ("was installed about 3 years
    ago", "were built 10 years ago"; data file `[ages] made`): what was made is as old as the time since."""
    lex = lexicon()
    for k in range(i - 1, max(0, i - 4), -1):
        if toks[k].clause != toks[i].clause:
            return False
        if toks[k].low in lex.made_verbs:
            return k >= 1 and toks[k - 1].low in lex.copula
    return False

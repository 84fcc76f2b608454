"""Readers of when: clock times, parts of the day, weekdays, dates and frequencies.

- clock times: "09:30", "5 pm", "quarter past three", "at 9" next to a day or part of the day, ranges
  ("01:00-03:00", "9 to 5"); an unmarked hour may be am or pm;
- parts of the day ("mornings", "the evening") and weekdays, alone, in groups ("weekdays") or ranges ("Mon-Fri");
- dates with only the parts given: ISO dates are read in `analysis`, numeric dates in `numeric_date`; here "December 2025", "March 3", "the 14th",
  "Friday the 14th", quarters ("Q3 2026"), seasons, "mid-2027", years after a preposition;
- frequencies: "weekly", "twice a week", "3 times per day", "every other Monday", "every two weeks".
"""

from __future__ import annotations

import calendar
import functools
import re
from dataclasses import replace

from .lexicon import lexicon
from .tokens import ORDINAL, Tok, bare_short_month, match_any, phrases_of
from .values import Value, add_value, number, time_unit, unit_at


def numeric_date(low: str) -> tuple[tuple[int, int, int], tuple[int, int, int] | None] | None:
    """A date written in digits with slashes or dots ("2026/12/06", "12/05/2026", "05.12.2026", "5/12/26"; not
    "2026.12.06", a calendar version as often as a date) as
    (year, month, day), and the other reading when the text allows two: day and month both 12 or less and not equal
    are read both ways (month first, as an American writes it, then day first; with dots day first, then month), so
    "12/05/2026" stands for 5 December and 12 May alike. None when no reading is a day of the calendar. A year of
    two digits is of this century below 70, of the last one from 70."""
    texts = re.split(r"[/.]", low)
    if len(texts) != 3:
        return None
    parts = [int(x) for x in texts]
    if len(texts[0]) == 4:  # year first ("2026/12/06")
        readings = [(parts[0], parts[1], parts[2])]
    else:
        a, b, year = parts
        if year < 100:
            year += 2000 if year < 70 else 1900
        firsts = ((a, b), (b, a)) if "/" in low else ((b, a), (a, b))
        readings = [(year, m, d) for m, d in firsts]
    valid = []
    for y, m, d in readings:
        if 1000 <= y <= 9999 and 1 <= m <= 12 and 1 <= d <= calendar.monthrange(y, m)[1] and (y, m, d) not in valid:
            valid.append((y, m, d))
    if not valid:
        return None
    return valid[0], valid[1] if len(valid) > 1 else None


def _time_of(tok: Tok) -> int | None:
    m = re.match(r"^(\d{1,2})(?::(\d{2}))?\s?([ap])?\.?m?\.?$", tok.low)
    if not m:
        return None
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if ap == "p" and h < 12:
        h += 12
    if ap == "a" and h == 12:
        h = 0
    if h > 24 or mi > 59 or (h == 24 and mi):
        return None  # (24:00 is the end of a day; "24:31" is a time taken, a parkrun's, not a time of day)
    return h * 60 + mi


def _unambiguous(low: str) -> bool:
    """A clock time that is not one of two (am/pm given, a leading zero, or an hour past 12)."""
    return "m" in low or low.startswith("0") or (low[:2].isdigit() and int(low[:2]) > 12)


@functools.cache
def _time_words() -> frozenset[str]:
    lex = lexicon()
    return frozenset(w for p in lex.dayparts for w in p) | frozenset(lex.weekdays)


def read_times(toks: list[Tok], values: list[Value]) -> None:
    lex = lexicon()
    n = len(toks)
    i = 0
    while i < n:
        t = toks[i]
        if t.used:
            i += 1
            continue
        p = match_any(toks, i, lex.round_the_clock)
        if p:
            add_value(values, toks, "time", "", (0, 24 * 60, True), i, i + len(p))
            i += len(p)
            continue
        if t.kind == "time":
            m = _time_of(t)
            if m is not None:
                end = i + 1
                # a range: 01:00-03:00, 9 to 5, between 01:00 and 03:00
                joiners = ("-", "to", "–", "until") + (("and",) if i and toks[i - 1].low == "between" else ())
                m2 = m
                if end + 1 < n and toks[end].low in joiners and toks[end + 1].kind == "time":
                    m2 = _time_of(toks[end + 1]) or m
                    end += 2
                # "9:00 CET": the zone is part of the time (key "tz:<minutes ahead of UTC>")
                zone = lex.time_zones.get(toks[end].low) if end < n else None
                key = "" if zone is None else f"tz:{zone}"
                end += zone is not None
                add_value(values, toks, "time", key, (m, m2, _unambiguous(t.low)), i, end)
                i = end
                continue
        # "8-10am", "from 8 to 10 am", "between 8 and 10am": a bare hour opening a range whose end says am or pm
        joiners = ("-", "to", "–", "until") + (("and",) if i and toks[i - 1].low == "between" else ())
        if (
            t.kind == "num"
            and re.fullmatch(r"\d{1,2}", t.low)
            and 1 <= int(t.low) <= 12
            and i + 2 < n
            and toks[i + 1].low in joiners
            and toks[i + 2].kind == "time"
            and "m" in toks[i + 2].low
            and (last := _time_of(toks[i + 2])) is not None
        ):
            hour = int(t.low) % 12
            pm = last >= 12 * 60 and hour <= (last // 60) % 12  # "8-10pm": both pm; "11-1pm": 11 am to 1 pm
            add_value(values, toks, "time", "", ((hour + 12 * pm) * 60, last, True), i, i + 3)
            i += 3
            continue
        # "quarter past three", "half past two"
        cw = match_any(toks, i, phrases_of(lex.clock_words))
        if cw:
            k = i + len(cw)
            if k < n:
                h = number(toks[k])
                if h is not None and 0 < h <= 12:
                    mi = int(h) * 60 + lex.clock_words[cw]
                    add_value(values, toks, "time", "", (mi, mi, False), i, k + 1)
                    i = k + 1
                    continue
        # "at 7.45", "from 9.30": a clock time written with a dot, after a word that places a time
        if (
            t.kind == "num"
            and i
            and toks[i - 1].low in lex.dot_time_before
            and re.fullmatch(r"\d{1,2}\.[0-5]\d", t.low)
            and int(t.low.split(".")[0]) <= 23
        ):
            h, mi = (int(x) for x in t.low.split("."))
            m = h * 60 + mi
            add_value(values, toks, "time", "", (m, m, h > 12 or t.low.startswith("0")), i, i + 1)
            i += 1
            continue
        # "at 9", "at 11" next to a day or part of the day; "until 7 in the evening", "from 9 o'clock"
        if (
            (t.low == "at" or (t.low in lex.bounds_of_time and _clock_follows(toks, i + 2)))
            and i + 1 < n
            and (toks[i + 1].kind == "num" or toks[i + 1].low in lex.number_words)
            and not toks[i + 1].used
        ):
            h = number(toks[i + 1])
            nxt = toks[i + 2].low if i + 2 < n else ""
            if (
                h is not None
                and h == int(h)
                and 0 < h <= 24
                and (nxt in ("", ".", ",", ";", "o'clock", "on", "in", "and", "every", "sharp") or nxt in _time_words())
            ):
                add_value(values, toks, "time", "", (int(h) * 60, int(h) * 60, False), i + 1, i + 2)
                i += 2
                continue
        dp = match_any(toks, i, phrases_of(lex.dayparts))
        if dp and i and number(toks[i - 1]) is not None and unit_at(toks, i) is not None:
            dp = None  # "four nights": a count of a unit of time, read with the quantities, not a part of the day
        if dp:
            a, b = lex.dayparts[dp]
            add_value(values, toks, "daypart", "", (a, b), i, i + len(dp))
            i += len(dp)
            continue
        i += 1


def read_relative_periods(toks: list[Tok], values: list[Value]) -> None:
    """ "last year", "this month", "next week": which period, counted from now (key "rel:<period>", value ("rel",
    -1 | 0 | 1), compared on its second part as a period's number is). Two statements of two such periods speak
    of two times ("this year in Lisbon" / "last year in Berlin")."""
    lex = lexicon()
    offsets = lex.period_offsets
    for i in range(len(toks) - 1):
        t, u = toks[i], toks[i + 1]
        if t.used or u.used or t.low not in offsets or t.low not in lex.relative_before | {"this", "previous"}:
            continue
        period = u.low.removesuffix("'s")
        if period not in lex.periods or period.endswith("s"):
            continue  # "the past weeks", "last days": no one period
        add_value(values, toks, "date", f"rel:{period}", ("rel", offsets[t.low]), i, i + 2)


def _clock_follows(toks: list[Tok], k: int) -> bool:
    """What follows a bare number at k - 1 makes it a clock time: "o'clock", or a part of the day ("in the
    evening")."""
    if k >= len(toks):
        return False
    if toks[k].low == "o'clock":
        return True
    if toks[k].low != "in":
        return False
    k += 1 + (k + 1 < len(toks) and toks[k + 1].low == "the")
    return match_any(toks, k, phrases_of(lexicon().dayparts)) is not None


def read_month_days(toks: list[Tok], values: list[Value]) -> None:
    """ "the first of the month", "the last working day of the month", "the 3rd business day of each month": the
    day of the month a thing falls on, a date with neither year nor month, as "the 25th" is (the last: day -1). "of
    each month" is left to the frequencies."""
    lex = lexicon()
    n = len(toks)
    for i in range(n - 3):
        if toks[i].low != "the" or toks[i].used or toks[i + 1].used:
            continue
        om = ORDINAL.match(toks[i + 1].low)
        day = int(om.group(1)) if om else lex.ordinals.get(toks[i + 1].low)
        if day is None:
            continue
        j = i + 2
        if toks[j].low in lex.month_day_kinds:
            j += 1
        if j < n and toks[j].low == "day":
            j += 1
        elif j != i + 2:
            continue
        if (
            j + 2 < n
            and toks[j].low == "of"
            and toks[j + 2].low == "month"
            and toks[j + 1].low in ("the", "each", "every")
        ):
            add_value(values, toks, "date", "", (None, None, day), i, j + 3 if toks[j + 1].low == "the" else j)


def read_calendar(toks: list[Tok], values: list[Value]) -> None:
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
        grp = match_any(toks, i, phrases_of(lex.weekday_groups))
        if grp and not (grp == ("daily",)):
            add_value(values, toks, "weekday", "", lex.weekday_groups[grp], i, i + len(grp))
            i += len(grp)
            continue
        if low in lex.weekdays and cs_ok:
            days = {lex.weekdays[low]}
            j = i + 1
            # "Monday and Wednesday", "Mon-Fri", "Mon/Wed/Fri"
            if j + 1 < n and toks[j].low in ("and", "or", "-", "to", "&", "/") and toks[j + 1].low in lex.weekdays:
                d2 = lex.weekdays[toks[j + 1].low]
                if toks[j].low in ("-", "to"):
                    a, b = sorted((days.pop(), d2))
                    days = set(range(a, b + 1))
                else:
                    days.add(d2)
                j += 2
                while j + 1 < n and toks[j].low in ("and", "or", "&", "/") and toks[j + 1].low in lex.weekdays:
                    days.add(lex.weekdays[toks[j + 1].low])
                    j += 2
            # "the first Thursday", "the last Friday" (of the month): which one, in the value's key
            start, nth = i, ""
            k = i - 1
            if (
                len(days) == 1
                and k >= 1
                and not toks[k].used
                and toks[k].low in lex.nth_weekday
                and toks[k - 1].low == "the"
            ):
                start, nth = k, str(lex.nth_weekday[toks[k].low])
                # "... of the month" is part of it (else "month" would be a word both notes are about)
                if (
                    j + 2 < n
                    and toks[j].low == "of"
                    and toks[j + 1].low == "the"
                    and toks[j + 2].low == lex.nth_weekday_of
                    and not any(toks[x].used for x in range(j, j + 3))
                ):
                    j += 3
            add_value(values, toks, "weekday", nth, frozenset(days), start, j)
            # "Friday the 14th"
            om2 = ORDINAL.match(toks[j + 1].low) if j + 1 < n and toks[j].low == "the" else None
            if om2:
                add_value(values, toks, "date", "", (None, None, int(om2.group(1))), j, j + 2)
                j += 2
            i = j
            continue
        if low in lex.months and cs_ok and not (low == "may" and t.initial) and not bare_short_month(toks, i):
            month = lex.months[low]
            j = i + 1
            day = year = None
            if j < n and toks[j].kind == "num":
                v = number(toks[j])
                if v is not None and 1 <= v <= 31 and v == int(v):
                    day = int(v)
                    j += 1
                    if j + 1 < n and toks[j].low == "," and toks[j + 1].kind == "num" and len(toks[j + 1].low) == 4:
                        year = int(toks[j + 1].low)
                        j += 2
                elif v is not None and 1900 <= v <= 2200:
                    year = int(v)
                    j += 1
            first = None  # the first day of a range: "10 to 14 March", "March 10-14"
            if day is not None and j + 1 < n and toks[j].low in lex.day_range and toks[j + 1].kind == "num":
                v = number(toks[j + 1])
                if v is not None and day < v <= 31 and v == int(v):
                    first, day = day, int(v)
                    j += 2
            if day is None and i >= 1 and toks[i - 1].kind == "num":  # "14 March", "15 March 2026"
                v = number(toks[i - 1])
                if v is not None and 1 <= v <= 31 and not toks[i - 1].used:
                    day = int(v)
                    i -= 1
                    if i >= 2 and toks[i - 1].low in lex.day_range and toks[i - 2].kind == "num":
                        w = number(toks[i - 2])
                        if w is not None and 1 <= w < day and w == int(w) and not toks[i - 2].used:
                            first = int(w)
                            i -= 2
            om3 = ORDINAL.match(toks[i - 2].low) if i >= 2 and day is None and toks[i - 1].low == "of" else None
            if om3:
                day = int(om3.group(1))
                i -= 2
            if first is not None:
                # the days of a span, both ends ("from 10 to 14 March" is no "from 14 March on")
                add_value(values, toks, "date", "", (year, month, (first, day)), i, j, bound="none")
                values[-1] = replace(values[-1], bound=None)
            else:
                add_value(values, toks, "date", "", (year, month, day), i, j)
            i = j
            continue
        if low in lex.quarters and (t.text[:1].isupper() or low.startswith("q")):
            j = i + 1
            year = None
            if j < n and toks[j].kind == "num" and len(toks[j].low) == 4:
                year = int(toks[j].low)
                j += 1
            add_value(values, toks, "date", "quarter", (year, lex.quarters[low]), i, j)
            i = j
            continue
        if low in lex.seasons and (low not in lex.calendar_case or t.text[:1].isupper()):
            add_value(values, toks, "date", "season", (None, lex.seasons[low]), i, i + 1)
            i += 1
            continue
        # "mid-July", "early-March": the month (which part of it is left open)
        m = re.match(r"^(early|mid|late|end)-([a-z]+)$", low)
        if m and m.group(2) in lex.months and len(m.group(2)) >= 3:
            add_value(values, toks, "date", "", (None, lex.months[m.group(2)], None), i, i + 1)
            i += 1
            continue
        # "mid-2027", "early 2026", "late 2025"
        m = re.match(r"^(early|mid|middle|late|end|beginning|start)-(\d{4})$", low)
        if m:
            a, b = lex.year_parts[m.group(1)]
            add_value(values, toks, "date", "", (int(m.group(2)), (a, b), None), i, i + 1)
            i += 1
            continue
        if low in lex.year_parts and i + 1 < n and toks[i + 1].kind == "num" and len(toks[i + 1].low) == 4:
            a, b = lex.year_parts[low]
            add_value(values, toks, "date", "", (int(toks[i + 1].low), (a, b), None), i, i + 2)
            i += 2
            continue
        if (
            t.kind == "num"
            and re.fullmatch(r"(19|20|21)\d\d", low)
            and not (i and toks[i - 1].low in ("$", "v"))
            # "a limit of 1900 litres" is an amount; "the 1970s" (the s glued on) a decade
            and not (unit_at(toks, i + 1) is not None and toks[i + 1].at > t.end)
        ):
            prev = toks[i - 1].low if i else ""
            if prev in (
                "in",
                "of",
                "since",
                "until",
                "by",
                "from",
                "for",
                "during",
                "before",
                "after",
                "end",
                "year",
                "early",
                "late",
                "mid",
                "q1",
                "q2",
                "q3",
                "q4",
                ",",
                "the",
            ):
                add_value(values, toks, "date", "", (int(low), None, None), i, i + 1)
                i += 1
                continue
            if (
                # (or opening a sentence or a label's list: "Car: 2018 VW Golf, silver")
                (prev in lex.determiners or prev.endswith("'s") or prev in ("", ":", ",") or toks[i - 1].sent != t.sent)
                and i + 1 < n
                and toks[i + 1].kind == "word"
                and toks[i + 1].text[:1].isupper()
            ):
                # "a 2017 Honda Civic", "their 2019 MacBook": which model, said of the thing (never a count of
                # it, nor when the statement is about)
                add_value(values, toks, "label", "model year", low, i, i + 1, role="value")
                i += 1
                continue
        # "the 14th", "on the 21st"
        om = ORDINAL.match(low)
        if om and i and toks[i - 1].low == "the":
            nxt = toks[i + 1].low if i + 1 < n else ""
            if nxt not in lex.units and nxt not in lex.ordinal_nouns:
                add_value(values, toks, "date", "", (None, None, int(om.group(1))), i - 1, i + 1)
                i += 1
                continue
        if low in lex.relative_days:
            t.used = True
        i += 1


def read_frequencies(toks: list[Tok], values: list[Value]) -> None:
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
            add_value(values, toks, "frequency", "", lex.freq_words[low], i, i + 1)
            i += 1
            continue
        # "a day rate of GBP 600", "the week budget": the amount is per that unit (not "a 3 day limit")
        if (
            i + 1 < n
            and toks[i + 1].low in lex.rate_nouns
            and not (i and number(toks[i - 1]) is not None)
            and (period := time_unit(toks, i)) is not None
        ):
            add_value(values, toks, "frequency", "", period, i, i + 1)
            i += 1
            continue
        # once/twice/N times (a|per|every) <unit>
        count = None
        j = i
        if low in lex.multiplicatives:
            count = lex.number_words[low]
            j = i + 1
        elif number(t) is not None and i + 1 < n and toks[i + 1].low == "times":
            count = number(t)
            j = i + 2
        if count is not None and j < n and toks[j].low in lex.every:
            k = j + 1
            mult = 1.0
            if k < n and number(toks[k]) is not None and toks[k].low not in ("a", "an"):
                mult = number(toks[k]) or 1.0
                k += 1
            f = time_unit(toks, k) if k < n else None
            if f is not None:
                add_value(values, toks, "frequency", "", f * mult / count, i, k + 1)
                i = k + 1
                continue
        # every (other)? (N)? <unit> | every <weekday>
        if low in ("every", "each"):
            k = i + 1
            mult = 1.0
            if k < n and toks[k].low in lex.other:
                mult = 2.0
                k += 1
            if k < n and number(toks[k]) is not None and toks[k].kind in ("num", "word"):
                mult *= number(toks[k]) or 1.0
                k += 1
            if k < n and toks[k].low in lex.weekdays:
                add_value(values, toks, "frequency", "", 604800.0 * mult, i, i + 1)
                i = k
                continue
            grp = match_any(toks, k, phrases_of(lex.weekday_groups)) if k < n else None
            if grp and lex.weekday_groups[grp] == lex.weekday_groups.get(("weekend",)):
                # "every (other) weekend": the weekend comes once a week (the weekday reader has read its days)
                add_value(values, toks, "frequency", "", 604800.0 * mult, i, k + len(grp))
                i = k + len(grp)
                continue
            if k < n and any(toks[k].low in p for p in lex.dayparts):
                # "every morning": daily (the daypart reader has read the part of the day)
                add_value(values, toks, "frequency", "", 86400.0 * mult, i, k + 1)
                i = k + 1
                continue
            f = time_unit(toks, k)
            if f is not None and k < n:
                add_value(values, toks, "frequency", "", f * mult, i, k + 1)
                i = k + 1
                continue
        # "<weekday>s" as habit ("on Mondays"): a weekly frequency is implied, the weekday reader keeps the day
        i += 1

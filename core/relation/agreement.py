"""Whether two statements' values agree, slot by slot.

`compare_values` pairs the values two statements assert (not negated, not the old side of "from X to Y") by slot
and says, for each slot both fill, whether they agree; each disagreement is a `Diff` with the conflict type it
makes. How values agree:

- **when** (clock times, parts of the day, weekdays and dates together): some pair agrees on every part both give;
  an unmarked clock time may be am or pm, an approximate one has `TIME_TOLERANCE`, a bound agrees with anything on
  its side, a date with parts missing stands for every date it could be;
- **quantities and durations**, paired by unit dimension or counted noun (a bare number with the other side's
  only quantity): within `DRIFT` of each other (a percentage also by what it leaves: 99.9 % / 99.5 % is 0.1 % /
  0.5 % of downtime), or overlapping once bounds and ranges are read; a difference is `quantitative_drift`;
- **frequencies** within `DRIFT`; **versions** of the same name agree on every part both give; **class members**,
  **addresses**, **periods** and **places** by value (a place also by the words that say which one). A differing
  label ("note 3" / "note 4") is another subject, not a conflict.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace

from ..slots import Analysis, Value, lexicon, stem

DRIFT = 0.20  # SPEC §5.1: a quantity that differs by more than 20 % conflicts; within 20 % it is the same value
BARE_RATE = "n/time"  # the key of a bare number per unit of time ("1,800 per day")
SAME_AMOUNT = 0.015  # one amount written two ways ("90 days" / "3 months": a month is 30.44 days)
TIME_TOLERANCE = 30  # minutes, for approximate clock times ("about 08:15")
WHEN_KINDS = frozenset({"time", "daypart", "weekday"})
CURRENCY_STRENGTH = 0.5  # one price in two currencies, no rate given: a `possible` conflict at most


@dataclass(frozen=True)
class Diff:
    dim: str  # what differs: "when", "quantity:n:engin", "enum:log_level", "polarity", "name", ...
    ctype: str  # the conflict type it makes
    strength: float  # how sure: 1.0 for a typed value, less for a name or a place
    a: str
    b: str


def live(values: tuple[Value, ...]) -> list[Value]:
    """The values a statement asserts: not negated, not the old side of "from X to Y"."""
    return [v for v in values if not v.negated and v.role != "from"]


#: The pairs of values two statements are compared by, at most. Comparing pairs each value of one side off with
#: the other's, so the work grows with the product of the two counts: a minified JSON document or a log pasted into
#: a note holds thousands of numbers, and one capture beside such a note, read claim by claim, took minutes. Past
#: the bound the longer side is read to as many values as keep the product within it, in the order it says them; a
#: statement of the labelled sets says at most 15 values (2,650 texts), and a long note beside a one-line statement
#: is read whole (400 facts against one: 800 pairs).
VALUE_PAIRS = 4096


def compared(a: Analysis, b: Analysis) -> tuple[list[Value], list[Value]]:
    """The asserted values (`live`) of the two sides that are compared: all of them, unless their product passes
    VALUE_PAIRS (then the longer side is cut to fit)."""
    va, vb = live(a.values), live(b.values)
    if len(va) * len(vb) <= VALUE_PAIRS:
        return va, vb
    if len(va) >= len(vb):
        return va[: max(1, VALUE_PAIRS // max(1, len(vb)))], vb
    return va, vb[: max(1, VALUE_PAIRS // max(1, len(va)))]


def slot_of(v: Value) -> str:
    """The slot a value fills: "when" for times, parts of the day, weekdays and dates; else its kind and key."""
    if v.kind in WHEN_KINDS or (v.kind == "date" and v.key == ""):
        return "when"
    if v.kind == "date":
        return f"period:{v.key}"
    if v.kind in ("quantity", "duration"):
        return f"quantity:{v.key}"
    if v.kind == "version":
        return "version"
    if v.kind in ("enum", "address", "label", "setting"):
        return f"{v.kind}:{v.key}"
    return v.kind


def _interval(v: Value, lo: float, hi: float) -> tuple[float, float]:
    if v.bound == "upper":
        return (float("-inf"), hi)
    if v.bound == "lower":
        return (lo, float("inf"))
    return (lo, hi)


def _overlap(a: tuple[float, float], b: tuple[float, float], tol: float = 0.0) -> bool:
    return a[0] <= b[1] + tol and b[0] <= a[1] + tol


def _zone(v: Value) -> int | None:
    return int(v.key[3:]) if v.key.startswith("tz:") else None


def _times_agree(x: Value, y: Value) -> bool:
    (xs, xe, xampm), (ys, ye, yampm) = x.val, y.val
    tol = TIME_TOLERANCE if (x.approx or y.approx) else 0
    shifts = [0]
    if not (xampm and yampm):
        shifts += [720, -720]
    zx, zy = _zone(x), _zone(y)
    if zx is not None and zy is not None and zx != zy:
        # two zones: compared in UTC, as the same instant ("9:00 CET" / "8:00 UTC"; "23:00-01:00 UTC" / "00:00-02:00
        # CET")
        xs, xe, ys, ye = ((m - z) % 1440 for m, z in ((xs, zx), (xe, zx), (ys, zy), (ye, zy)))
    both_bounds = x.bound and y.bound
    for sh in shifts:
        if both_bounds:
            if x.bound == y.bound and abs(xs - (ys + sh)) <= tol and abs(xe - (ye + sh)) <= tol:
                return True
            if x.bound != y.bound and _overlap(_interval(x, xs, xe), _interval(y, ys + sh, ye + sh), tol):
                return True
            continue
        if xs != xe and ys != ye and not (x.bound or y.bound):
            # two spans ("9:00-17:00" / "around the clock"): the same hours, not hours that overlap
            if abs(xs - (ys + sh)) <= tol and abs(xe - (ye + sh)) <= tol:
                return True
            continue
        if _overlap(_interval(x, xs, xe), _interval(y, ys + sh, ye + sh), tol):
            return True
    return False


def _when_agree(xs: list[Value], ys: list[Value]) -> bool | None:
    """None when the two sides give no comparable "when"; else whether some pair agrees on every comparable part."""
    verdicts = []
    for kinds in (("time",), ("weekday",), ("daypart",)):
        a = [v for v in xs if v.kind in kinds]
        b = [v for v in ys if v.kind in kinds]
        if a and b:
            if kinds == ("time",):
                verdicts.append(any(_times_agree(p, q) for p in a for q in b))
            elif kinds == ("weekday",):
                # the same day, and the same one of the month when both say which ("the first Thursday")
                verdicts.append(any(p.val & q.val and (not p.key or not q.key or p.key == q.key) for p in a for q in b))
            else:
                verdicts.append(
                    any(p.val[0] < q.val[1] and q.val[0] < p.val[1] or p.val == q.val for p in a for q in b)
                )
    # a clock time against a part of the day ("5 pm" / "in the evening")
    ta, tb = [v for v in xs if v.kind == "time"], [v for v in ys if v.kind == "time"]
    da, db = [v for v in xs if v.kind == "daypart"], [v for v in ys if v.kind == "daypart"]
    if ta and db and not tb:
        verdicts.append(
            any(
                _overlap((t.val[0], t.val[1]), d.val) or _overlap((t.val[0] + 720, t.val[1] + 720), d.val)
                for t in ta
                for d in db
            )
        )
    if tb and da and not ta:
        verdicts.append(
            any(
                _overlap((t.val[0], t.val[1]), d.val) or _overlap((t.val[0] + 720, t.val[1] + 720), d.val)
                for t in tb
                for d in da
            )
        )
    da_ = [v for v in xs if v.kind == "date"]
    db_ = [v for v in ys if v.kind == "date"]
    if da_ and db_:
        # a day of the month against a day of the month ("on the 15th" / "on the 1st of each month"), whatever other
        # dates the two give ("until March 2027" agrees with any day)
        days_a, days_b = ([v for v in ds if _day_only(v)] for ds in (da_, db_))
        if days_a and days_b:
            verdicts.append(any(_dates_agree(p, q) for p in days_a for q in days_b))
        else:
            verdicts.append(any(_dates_agree(p, q) for p in da_ for q in db_))
    if not verdicts:
        return None
    return all(verdicts)


def _day_only(v: Value) -> bool:
    """A date that gives a day of the month and nothing else ("the 15th")."""
    return (
        isinstance(v.val, tuple) and len(v.val) == 3 and v.val[0] is None and v.val[1] is None and v.val[2] is not None
    )


def _date_parts(v: Value) -> tuple[int | None, tuple[int, int] | None, tuple[int, int] | None]:
    y, m, d = v.val
    days = d if isinstance(d, tuple) or d is None else (d, d)  # a day, or the days of a span ("10 to 14 March")
    return y, m if isinstance(m, tuple) else (m, m) if m else None, days


def _date_order(v: Value) -> tuple[float, float]:
    """A date as a comparable range (year*400 + month*32 + day), missing parts widening the range."""
    y, m, d = _date_parts(v)
    ylo, yhi = (y, y) if y else (0, 0)
    mlo, mhi = m if m else (1, 12)
    dlo, dhi = d if d else (1, 31)
    return (ylo * 400 + mlo * 32 + dlo, yhi * 400 + mhi * 32 + dhi)


def _dates_agree(x: Value, y: Value) -> bool:
    """Two dates agree when every part both give matches (a date with parts missing stands for every date it could
    be: "the 15th" agrees with "October 15"). A bound agrees with any date on its side of it. A date the text allows
    two readings of ("05/12/2026") agrees when either reading does."""
    if x.alt is not None or y.alt is not None:
        return any(_dates_agree(p, q) for p in _readings(x) for q in _readings(y))
    xy, xm, xd = _date_parts(x)
    yy, ym, yd = _date_parts(y)
    if x.bound != y.bound and (x.bound or y.bound) and xm and ym:
        if not (xy and yy):
            xy = yy = None
        xv = Value(x.kind, x.key, (xy, xm, xd), x.text, x.clause, x.start, x.bound, x.approx)
        yv = Value(y.kind, y.key, (yy, ym, yd), y.text, y.clause, y.start, y.bound, y.approx)
        return _overlap(_interval(x, *_date_order(xv)), _interval(y, *_date_order(yv)))
    if xy and yy and xy != yy:
        return False
    if xm and ym and not (xm[0] <= ym[1] and ym[0] <= xm[1]):
        return False
    return not (xd and yd and not (xd[0] <= yd[1] and yd[0] <= xd[1]))


def _readings(v: Value) -> list[Value]:
    """A value as each reading of it: itself, and its other reading when the text allows two."""
    return [v] if v.alt is None else [replace(v, alt=None), replace(v, val=v.alt, alt=None)]


def _drift(x: float, y: float) -> float:
    lo = min(abs(x), abs(y))
    if lo == 0:
        return 0.0 if x == y else float("inf")
    return abs(x - y) / lo


def _qty_range(v: Value) -> tuple[float, float]:
    if isinstance(v.val, tuple):
        return (float(v.val[0]), float(v.val[1]))
    return (float(v.val), float(v.val))


def _in_unit_of(x: Value, y: Value) -> Value:
    """A bare number (`x`) paired with an amount in a unit (`y`) is read in that unit: "retention is 30" against
    "kept for 90 days" is 30 days, not 30 seconds. `x` unchanged when `y` has no unit or no number in digits."""
    if x.key != "" or y.key in _vague_keys() or y.key.endswith("/time"):
        return x  # (a rate's value is per second already, not what is written)
    if isinstance(x.val, tuple) or isinstance(y.val, tuple):
        return x
    m = re.search(r"\d[\d,]*(?:\.\d+)?", y.text)
    written = float(m.group().replace(",", "")) if m else 0.0
    if not written or not y.val:
        return x
    return replace(x, val=x.val * (y.val / written))


def _qty_agree(x: Value, y: Value) -> tuple[bool, float]:
    """Agreement of two quantities, and how far apart they are (0 when they agree)."""
    x, y = _in_unit_of(x, y), _in_unit_of(y, x)
    # A limit against an upper bound is one too: "the latency budget is 300 ms" / "must stay under 500 ms" differ
    # (and a floor against a lower bound: "requires 12 characters" / "at least 8 characters")
    if x.limit and not x.bound and y.bound == x.limit:
        x = replace(x, bound=x.limit)
    if y.limit and not y.bound and x.bound == y.limit:
        y = replace(y, bound=y.limit)
    xa, xb = _qty_range(x)
    ya, yb = _qty_range(y)
    if not x.bound and not y.bound and xa == xb and ya == yb:
        d = _drift(xa, ya)
        if x.key == "percent" and y.key == "percent" and 0 <= xa <= 100 and 0 <= ya <= 100:
            d = max(d, _drift(100 - xa, 100 - ya))  # 99.9 % / 99.5 % is 0.1 % / 0.5 % of downtime
        return d <= DRIFT, d
    if x.bound and y.bound and x.bound == y.bound:
        d = _drift(xb if x.bound == "upper" else xa, yb if y.bound == "upper" else ya)
        return d <= DRIFT, d
    ix, iy = _interval(x, xa, xb), _interval(y, ya, yb)
    lo, hi = iy
    wide = (lo - abs(lo) * DRIFT if lo != float("-inf") else lo, hi + abs(hi) * DRIFT)
    if _overlap(ix, wide):
        return True, 0.0
    gap = min(abs(xa - yb), abs(xb - ya))
    return False, gap / max(min(abs(xa), abs(ya), abs(xb), abs(yb)), 1e-9)


def _as_rates(xs: list[Value], ys: list[Value]) -> list[Value]:
    """A quantity said with a frequency word beside it ("the monthly rent is €1,450") is the rate the other side
    gives per unit of time ("€1,900 per month"): when the other side has that key as a rate and this side one
    frequency, the quantity becomes its rate, and the frequency is used up."""
    freqs = [v for v in xs if v.kind == "frequency" and isinstance(v.val, float) and v.val > 0]
    rates = {y.key for y in ys if y.kind == "quantity" and y.key.endswith("/time")}
    if len(freqs) != 1 or not rates:
        return xs
    f = freqs[0]
    # a bare number per unit of time ("1,800 per day") is the rate of this side's only amount ("2,200 kcal daily")
    amounts = [v for v in xs if v.kind == "quantity" and not v.key.endswith("/time")]
    bare = BARE_RATE in rates and len(amounts) == 1
    out, turned = [], False
    for v in xs:
        # (a length of time too: "the annual leave allowance is 25 days" / "30 days of holiday a year")
        if (
            v.kind in ("quantity", "duration")
            and (f"{v.key}/time" in rates or (bare and v is amounts[0]))
            and not isinstance(v.val, tuple)
        ):
            out.append(replace(v, kind="quantity", key=f"{v.key}/time", val=v.val / f.val))
            turned = True
        else:
            out.append(v)
    return [v for v in out if v is not f] if turned else xs


def _as_frequency(xs: list[Value], ys: list[Value]) -> list[Value]:
    """A count of something per unit of time ("one meal a day", "two coffees a day") is how often it happens, when
    the other side says how often and this side says it no other way ("is fed twice a day")."""
    if not any(y.kind == "frequency" and isinstance(y.val, float) and y.val > 0 for y in ys):
        return xs
    if any(v.kind == "frequency" for v in xs):
        return xs
    counts = [v for v in xs if v.kind == "quantity" and v.key.startswith("n:") and v.key.endswith("/time")]
    if len(counts) != 1 or not isinstance(counts[0].val, float) or counts[0].val <= 0:
        return xs
    c = counts[0]
    return [replace(v, kind="frequency", key="", val=1.0 / v.val) if v is c else v for v in xs]


@functools.cache
def _vague_keys() -> frozenset[str]:
    """Quantity keys that say little of what is counted: a bare number, a count of people."""
    return frozenset({"", BARE_RATE} | {"n:" + stem(w) for w in lexicon().counted_light})


# The units table's temperature scales (a dimension each: they convert by more than a factor).
_TEMPERATURES = frozenset({"celsius", "fahrenheit"})


def _key_near(a: str, b: str) -> bool:
    """Two quantity keys count the same thing: the same unit dimension, or counted nouns sharing a stem; and a
    temperature in a scale against plain "degrees" ("set to 4 °C" / "set to 8 degrees")."""
    if a == b:
        return True
    if {a, b} & _TEMPERATURES and {a, b} - _TEMPERATURES == {"n:" + stem("degrees")}:
        return True
    if a.startswith("n:") and b.startswith("n:") and a.endswith("/time") == b.endswith("/time"):
        ra = set(a[2:].split("/")[0].split("+"))
        rb = set(b[2:].split("/")[0].split("+"))
        return any(
            x == y or (min(len(x), len(y)) >= 4 and (x.startswith(y) or y.startswith(x))) for x in ra for y in rb
        )
    return False


def _partners(x: Value, qa: list[Value], qb: list[Value], a: Analysis, b: Analysis, one_vague: bool) -> list[Value]:
    """The other side's amounts `x` is compared with: those of its unit or counted noun; a bare number, or a count
    of people, pairs with the other side's only quantity ("40 staff" / "about 120 people"). Two amounts of money or
    two shares said of two things are not compared ("the credit limit is $12,000" / "the balance is about $2,300",
    "costs £1,200" / "a £200 deposit")."""
    # (what remains of a whole, "8 days left", is compared only with what remains: "25 days a year" is the whole)
    qb = [y for y in qb if (y.role == "rest") == (x.role == "rest")]
    partners = [y for y in qb if _key_near(x.key, y.key) and not _other_things(x, y, a, b)]
    vague = _vague_keys()
    # (Only a side's one vague amount stands for the other's: two bare numbers, "128/82", are a reading of their
    # own, not "three months".)
    alone = one_vague if x.key in vague else len(qa) == 1
    if not partners and alone and len(qb) == 1 and (qb[0].key in vague or x.key in vague):
        # (A vague amount whose number the other side writes too is that number, not an amount in the other's
        # unit: "runs 5k three times a week" / "best 5k time is 24 minutes". A count of people is never an amount in
        # a unit: "30 minutes" / "about 120 people in the room" are two things.)
        if (
            not (x.key in vague and _writes(b, x))
            and not (qb[0].key in vague and _writes(a, qb[0]))
            and not _people_and_unit(x.key, qb[0].key)
        ):
            partners = qb
    return partners


def _people_and_unit(a: str, b: str) -> bool:
    """One key counts people (a counted noun) and the other is a unit's dimension (time, mass, money, …)."""
    return any(x.startswith("n:") and y and not y.startswith("n:") and y != BARE_RATE for x, y in ((a, b), (b, a)))


def _one_vague(qa: list[Value]) -> bool:
    """Whether exactly one of `qa` is a vague amount (counted once per comparison, not once per amount)."""
    vague = _vague_keys()
    seen = 0
    for v in qa:
        if v.key in vague:
            seen += 1
            if seen > 1:
                return False
    return seen == 1


def _writes(a: Analysis, v: Value) -> bool:
    """`a` writes the number of `v` somewhere, as a number of its own ("5" of "5k" in "best 5k time")."""
    m = re.search(r"\d[\d,]*(?:\.\d+)?", v.text)
    if m is None:
        return False
    return re.search(rf"(?<![\d.,]){re.escape(m.group())}(?!\d|[.,]\d)", a.text) is not None


def _other_currency(qa: list[Value], qb: list[Value], a: Analysis, b: Analysis) -> tuple[Value, Value] | None:
    """An amount of money on each side, in currencies the other side never uses, of one shape (both a rate per unit
    of time, or neither) and not said of two things: the pair, or None."""
    currencies = lexicon().currencies

    def money(vs: list[Value]) -> dict[str, list[Value]]:
        out: dict[str, list[Value]] = {}
        for v in vs:
            cur = v.key.partition("/")[0]
            if cur in currencies:
                out.setdefault(cur, []).append(v)
        return out

    ma, mb = money(qa), money(qb)
    if not ma or not mb or set(ma) & set(mb):
        return None
    for x in (v for vs in ma.values() for v in vs):
        for y in (v for vs in mb.values() for v in vs):
            if x.key.partition("/")[2] == y.key.partition("/")[2] and not _other_things(x, y, a, b):
                return x, y
    return None


def same_unit(x: Value, y: Value) -> bool:
    """Both amounts are written in one unit, or both bare ("4471" / "4417", "40 GB" / "44 GB"): no conversion
    stands between them."""

    def unit(v: Value) -> str:
        return re.sub(r"[\d.,\s]+", " ", v.text.lower()).strip()

    return unit(x) == unit(y)


def exact_near(a: Analysis, b: Analysis) -> str:
    """Two exact amounts of one slot that differ by no more than the drift ("EUR 1,450 a month" / "1,300 euros a
    month", "10 engineers" / "12 engineers"), as "<a> / <b>"; "" when none. Neither is approximate ("about",
    "roughly"), a range or a bound, and they are not one amount written two ways ("2 weeks" / "14 days")."""
    va, vb = compared(a, b)
    va, vb = _as_rates(va, vb), _as_rates(vb, va)
    qa = [v for v in va if v.kind in ("quantity", "duration")]
    qb = [v for v in vb if v.kind in ("quantity", "duration")]

    def exact(v: Value) -> bool:
        return not v.approx and not v.bound and not isinstance(v.val, tuple)

    one_vague = _one_vague(qa)  # (`_partners`: whether a's one vague amount may stand for b's)
    for x in qa:
        partners = _partners(x, qa, qb, a, b, one_vague)
        if not exact(x) or not partners or not all(exact(y) for y in partners):
            continue
        drifts = [(_qty_agree(x, y), 0.0 if same_unit(x, y) else SAME_AMOUNT) for y in partners]
        if all(ok and d > floor for (ok, d), floor in drifts) and not any(_rounded(x, y) for y in partners):
            return f"{x.text} / {partners[0].text}"
    return ""


def _rounded(x: Value, y: Value) -> bool:
    """One amount, written with decimals, is the other rounded to those decimals in its own unit ("1.2 GB" / "1,229
    MB", "3.5 km" / "3,480 m"): one amount, written with less precision. Not two amounts in one unit ("40 GB" / "44
    GB"), nor a whole number, which may be exact ("1,200 euros" / "EUR 1,150")."""
    if same_unit(x, y):
        return False
    for a, b in ((x, y), (y, x)):
        m = re.search(r"\d[\d,]*(?:\.(\d+))?", a.text)
        if m is None or not isinstance(a.val, float) or not isinstance(b.val, float) or not a.val:
            continue
        written = float(m.group().replace(",", ""))
        if not written:
            continue
        places = len(m.group(1) or "")
        if not places:
            continue  # (a whole number may be exact: "1,200 euros" / "EUR 1,150" are two amounts)
        in_a = b.val / (a.val / written)
        if round(in_a, places) == round(written, places):
            return True
    return False


def compare_values(a: Analysis, b: Analysis) -> tuple[list[Diff], set[str], set[str], set[str]]:
    """Differences per slot, the slots both sides agree on, and the slots only one side fills."""
    va, vb = compared(a, b)
    va, vb = _as_rates(va, vb), _as_rates(vb, va)
    va, vb = _as_frequency(va, vb), _as_frequency(vb, va)
    diffs: list[Diff] = []
    agreed: set[str] = set()
    slots_a = {slot_of(v) for v in va}
    slots_b = {slot_of(v) for v in vb}
    # when: times, parts of the day, weekdays and dates together
    wa = [v for v in va if slot_of(v) == "when"]
    wb = [v for v in vb if slot_of(v) == "when"]
    if wa and wb:
        verdict = _when_agree(wa, wb)
        if verdict is False:
            diffs.append(Diff("when", "mutually_exclusive", 1.0, _texts(wa), _texts(wb)))
        elif verdict:
            agreed.add("when")
    # quantities: paired by unit or counted noun; a bare number, or a count of people, pairs with the other side's
    # only quantity ("40 staff" / "about 120 people")
    qa = [v for v in va if v.kind in ("quantity", "duration")]
    qb = [v for v in vb if v.kind in ("quantity", "duration")]
    used_b: set[int] = set()
    one_vague = _one_vague(qa)  # (`_partners`: whether a's one vague amount may stand for b's)
    for x in qa:
        partners = _partners(x, qa, qb, a, b, one_vague)
        if not partners:
            continue
        results = [_qty_agree(x, y) for y in partners]
        for y in partners:
            used_b.add(id(y))
        if any(ok for ok, _ in results):
            agreed.add(f"quantity:{x.key}")
            continue
        if len(partners) == 1 and any(_key_near(z.key, partners[0].key) and _qty_agree(z, partners[0])[0] for z in qa):
            continue  # one value on that side, which another of this side's values gives ("$9; $29" / "$29")
        drift = min(d for _, d in results)
        diffs.append(
            Diff(
                f"quantity:{x.key or partners[0].key}",
                "quantitative_drift",
                1.0,
                x.text,
                partners[0].text + f" (drift {drift:.0%})" if drift != float("inf") else partners[0].text,
            )
        )
    # one price in two currencies, neither side giving the other's ("$40 a month" / "€40 a month"): only an exchange
    # rate neither states could make them one, so a difference, though not a sure one
    if not any(d.dim.startswith("quantity:") for d in diffs):
        clash = _other_currency(qa, qb, a, b)
        if clash is not None:
            diffs.append(Diff("quantity:money", "quantitative_drift", CURRENCY_STRENGTH, clash[0].text, clash[1].text))
    # frequencies: periods differ by more than 20 %
    fa = [v for v in va if v.kind == "frequency"]
    fb = [v for v in vb if v.kind == "frequency"]
    # A frequency both say alike, one for one, is set aside first: "The weekly sync" on both sides is the thing's
    # name, and must not make "every two weeks" agree with "every week".
    rest_a, rest_b = _unmatched(fa, fb)
    if rest_a and rest_b:
        fa, fb = rest_a, rest_b
    if fa and fb:
        if any(_drift(x.val, y.val) <= DRIFT for x in fa for y in fb):
            agreed.add("frequency")
        else:
            diffs.append(Diff("frequency", "mutually_exclusive", 1.0, _texts(fa), _texts(fb)))
    # versions, by the name they version
    for x in [v for v in va if v.kind == "version"]:
        ys = [
            y
            for y in vb
            if y.kind == "version"
            and (not x.key or not y.key or x.key == y.key or x.key.startswith(y.key) or y.key.startswith(x.key))
        ]
        if not ys:
            continue
        if any(_version_agree(x.val, y.val) for y in ys):
            agreed.add("version")
        elif len(ys) == 1 and any(
            z.kind == "version" and z.key == x.key and _version_agree(z.val, ys[0].val) for z in va
        ):
            continue  # one version on that side, which another of this side's gives ("16, 15" / "16")
        else:
            diffs.append(Diff("version", "mutually_exclusive", 1.0, x.text, ys[0].text))
            break
    # class members, places, addresses, periods (quarters, seasons)
    for slot in sorted((slots_a & slots_b) - {"when", "frequency", "version"}):
        if slot.startswith("quantity:"):
            continue
        xa = [v for v in va if slot_of(v) == slot]
        xb = [v for v in vb if slot_of(v) == slot]
        if slot == "place":
            # numbered places of two kinds ("suite 200" / "floor 4", "room 4.12" / "the sixth floor") can both be
            # true: only places of one kind, or unnumbered ones, are two answers
            if not any(_comparable_places(x.val, y.val) for x in xa for y in xb):
                continue
            # two numbers of one kind of place differ whatever else agrees ("room 4 on floor 2" / "room 6 on floor 2")
            kinds = {x.val.split("#")[0] for x in xa for y in xb if _same_numbered_kind(x.val, y.val)}
            renumbered = any(
                not any(
                    _places_agree(x.val, y.val)
                    for x in xa
                    for y in xb
                    if x.val.split("#")[0] == kind == y.val.split("#")[0]
                )
                for kind in kinds
            )
            same = not renumbered and (
                any(_places_agree(x.val, y.val) for x in xa for y in xb)
                or any(w in b.words for x in xa for w in _place_mods(x.val))
                or any(w in a.words for y in xb for w in _place_mods(y.val))
            )
        elif slot.startswith("period:"):
            same = any(x.val[1] == y.val[1] for x in xa for y in xb)
        elif slot.startswith("address:"):
            same = any(address_agree(x, y) for x in xa for y in xb)
        else:
            same = any(x.val == y.val for x in xa for y in xb)
        if same:
            agreed.add(slot)
        elif slot.startswith("label:") and not (
            any(x.role == "value" for x in xa) and any(y.role == "value" for y in xb)
        ):
            # "berth 31" / "berth 12", "note 3" / "note 4": which one it is, so another subject (unless both say
            # it of the subject: "listens on port 8080" / "its port is 9090")
            diffs.append(Diff(slot, "subject", 0.0, _texts(xa), _texts(xb)))
        elif slot.startswith("period:rel:"):
            # "this week" / "last week": which time the claim is of, so another time ("on call this week" / "was
            # on call last week"), not another answer
            diffs.append(Diff(slot, "subject", 0.0, _texts(xa), _texts(xb)))
        else:
            strength = 0.6 if slot == "place" else 1.0
            diffs.append(Diff(slot, "mutually_exclusive", strength, _texts(xa), _texts(xb)))
    only_a = {s for s in slots_a - slots_b}
    only_b = {s for s in slots_b - slots_a}
    return diffs, agreed, only_a, only_b


def _unmatched(xs: list[Value], ys: list[Value]) -> tuple[list[Value], list[Value]]:
    """The values of each side left when those equal to one of the other's are paired off, one for one."""
    left = list(ys)
    rest = []
    for x in xs:
        twin = next((y for y in left if y.val == x.val or {x.val, x.alt} & {y.val, y.alt} - {None}), None)
        if twin is None:
            rest.append(x)
        else:
            left.remove(twin)
    return rest, left


def times_apart(denied: list[Value], said: list[Value]) -> bool:
    """Each time one side denies differs from each time the other says, one by one ("Sundays" / "Saturdays"; not
    "Sundays" / "Saturdays and Sundays")."""
    return bool(denied and said) and all(_when_agree([x], [y]) is False for x in denied for y in said)


def value_agrees(v: Value, others: list[Value]) -> bool:
    """One value agrees with some value of the other side in its slot (as `compare_values` would say)."""
    slot = slot_of(v)
    same = [
        x
        for x in live(tuple(others))
        if slot_of(x) == slot or (v.kind in ("quantity", "duration") and x.kind == v.kind)
    ]
    if not same:
        return False
    if slot == "when":
        return bool(_when_agree([v], same))
    if v.kind in ("quantity", "duration"):
        return any(_qty_agree(v, x)[0] for x in same if _key_near(v.key, x.key))
    if slot == "place":
        return any(_places_agree(v.val, x.val) for x in same)
    return any(x.val == v.val for x in same)


def address_agree(x: Value, y: Value) -> bool:
    """The same address; a bare handle ("security@") agrees with any address that has its local part."""
    if x.val == y.val:
        return True
    if "@" in x.text and "@" in y.text and (x.text.endswith("@") or y.text.endswith("@")):
        return x.text.lower().split("@")[0] == y.text.lower().split("@")[0]
    return False


def _other_things(x: Value, y: Value, a: Analysis, b: Analysis) -> bool:
    """Two amounts said of two things, neither named by the other statement nor a price ("the credit limit is $12,000"
    / "the balance is about $2,300"; not "Cap the launch budget at $40k" / "Raise the budget cap to $65k", nor
    "The gym costs £35 a month" / "The gym membership is £600 a year")."""
    if not (x.of and y.of) or x.of == y.of or "price" in (x.of, y.of):
        return False  # (a price is what any thing named before "is" amounts to: "costs £35" / "the membership is £600")
    named_b = x.of in b.words or any(stem(w) == x.of for w in b.words)
    named_a = y.of in a.words or any(stem(w) == y.of for w in a.words)
    return not (named_b or named_a)


def _version_agree(x: str, y: str) -> bool:
    xs, ys = x.split("."), y.split(".")
    k = min(len(xs), len(ys))
    return xs[:k] == ys[:k]


def _places_agree(x: str, y: str) -> bool:
    return bool(set(x.split("|")[0].split()) & set(y.split("|")[0].split()))


def _same_numbered_kind(x: str, y: str) -> bool:
    """Two numbered places of one kind ("room#4" / "room#6")."""
    nx, ny = x.split("|")[0], y.split("|")[0]
    return "#" in nx and "#" in ny and nx.split("#")[0] == ny.split("#")[0]


def _comparable_places(x: str, y: str) -> bool:
    """Not two numbered places of different kinds ("suite#200" / "floor#4")."""
    nx, ny = x.split("|")[0], y.split("|")[0]
    return not ("#" in nx and "#" in ny and nx.split("#")[0] != ny.split("#")[0])


def _place_mods(x: str) -> list[str]:
    return x.split("|")[1].split() if "|" in x else []


def _texts(vs: list[Value]) -> str:
    return ", ".join(dict.fromkeys(v.text for v in vs))


def loose_equal(v: Value, x: Value) -> bool:
    """Two values of one slot that agree loosely: quantities within `DRIFT`, places that share a noun."""
    if v.kind in ("quantity", "duration") and not isinstance(v.val, tuple) and not isinstance(x.val, tuple):
        return _drift(v.val, x.val) <= DRIFT
    if v.kind == "place":
        return _places_agree(v.val, x.val)
    return False

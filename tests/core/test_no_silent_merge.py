"""No silent merge: two statements about the same subject that differ in one value slot or in polarity are never
consolidated, whatever the subject and the values (a property over generated pairs)."""

from __future__ import annotations

import shutil
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memkeeper.core import Engine
from memkeeper.core.relation import Statement, relate

NOW = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)

SUBJECTS = [
    "the loading dock",
    "the rota spreadsheet",
    "the night bus to Harwick",
    "the tenants' meeting",
    "the billing exporter",
    "the school library",
    "the pottery kiln",
    "the staging cluster",
    "the Halden warehouse",
    "the garden allotment",
    "the intake form",
    "the lab freezer",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
FREQUENCIES = ["hourly", "daily", "weekly", "monthly", "quarterly", "yearly"]
DATABASES = ["Postgres", "MySQL", "SQLite", "MongoDB", "Cassandra", "Redis"]
PEOPLE = ["Ayla", "Bruno", "Chidi", "Dorota", "Emeka", "Farah", "Gunnar", "Hiroshi"]
UNITS = ["litres", "kg", "GB", "minutes", "days", "seats"]
VERBS = [
    ("uses", "use", "the east entrance"),
    ("accepts", "accept", "card payments"),
    ("stores", "store", "the spare keys"),
    ("includes", "include", "the weekend shifts"),
    ("requires", "require", "a signed waiver"),
]


def _distinct(pool: list[str]) -> st.SearchStrategy[tuple[str, str]]:
    return st.tuples(st.sampled_from(pool), st.sampled_from(pool)).filter(lambda p: p[0] != p[1])


@st.composite
def differing_pairs(draw) -> tuple[str, str, str]:
    """(first, second, what differs): one slot with another value, or the same claim negated."""
    s = draw(st.sampled_from(SUBJECTS))
    S = s[0].upper() + s[1:]
    kind = draw(
        st.sampled_from(
            [
                "time",
                "weekday",
                "date",
                "quantity",
                "frequency",
                "named_frequency",
                "price_of_act",
                "class",
                "person",
                "version",
                "polarity",
                "task",
                "negated_weekday",
                "negated_time",
                "retired_version",
                "old_number",
                "pronoun",
                "and_or",
                "tense",
                "status_symbol",
                "slash_date",
                "flag_case",
                "who_to_whom",
                "direction",
                "time_zone",
                "relative_day",
            ]
        )
    )
    if kind == "time":
        h1, h2 = draw(st.tuples(st.integers(6, 21), st.integers(6, 21)).filter(lambda p: p[0] != p[1]))
        return f"{S} opens at {h1:02d}:00.", f"{S} opens at {h2:02d}:00.", kind
    if kind == "weekday":
        d1, d2 = draw(_distinct(WEEKDAYS))
        return f"{S} is closed on {d1}s.", f"{S} is closed on {d2}s.", kind
    if kind == "date":
        m1, m2 = draw(_distinct(MONTHS))
        day = draw(st.integers(1, 28))
        return f"The inspection of {s} is due on {m1} {day}.", f"The inspection of {s} is due on {m2} {day}.", kind
    if kind == "quantity":
        # any other amount: beyond 20 % a conflict, within it no conflict, and never a merge that loses it
        n1 = draw(st.integers(2, 500))
        n2 = draw(st.integers(1, n1 * 4).filter(lambda n: n != n1))
        unit = draw(st.sampled_from(UNITS))
        return f"{S} has a limit of {n1} {unit}.", f"{S} has a limit of {n2} {unit}.", kind
    if kind == "frequency":
        f1, f2 = draw(_distinct(FREQUENCIES))
        # (a verb of change says what is done each time: "replaced every three years" was read as retiring the
        # frequency, and two schedules merged)
        done = draw(st.sampled_from(["inspected", "replaced", "renewed", "rotated", "dropped off"]))
        return f"{S} is {done} {f1}.", f"{S} is {done} {f2}.", kind
    if kind == "named_frequency":
        # a frequency in the thing's name on both sides ("the weekly sync") made any other two agree
        name = draw(st.sampled_from(["weekly sync", "monthly report", "daily standup", "quarterly review"]))
        f1, f2 = draw(_distinct(FREQUENCIES + ["every two weeks"]))
        return f"The {name} is held {f1}.", f"The {name} is held {f2}.", kind
    if kind == "price_of_act":
        # a price said of the act after a word that retires ("replaced ... for £40") was read as the retired value
        n1 = draw(st.integers(20, 900))
        n2 = draw(st.integers(10, 2000).filter(lambda n: n != n1))
        verb = draw(st.sampled_from(["replaced", "sold", "retired", "dropped"]))
        return f"We {verb} {s} for £{n1}.", f"We {verb} {s} for £{n2}.", kind
    if kind == "class":
        a, b = draw(_distinct(DATABASES))
        return f"{S} keeps its records in {a}.", f"{S} keeps its records in {b}.", kind
    if kind == "person":
        a, b = draw(_distinct(PEOPLE))
        return f"{a} owns {s}.", f"{b} owns {s}.", kind
    if kind == "version":
        v1, v2 = draw(st.tuples(st.integers(1, 9), st.integers(1, 9)).filter(lambda p: p[0] != p[1]))
        return f"{S} runs version {v1}.2.", f"{S} runs version {v2}.2.", kind
    # The value differs where neither side asserts it, negated or the old side of a change: those values were left
    # out of the comparison, and "is not open on Mondays" / "is not open on Tuesdays" came back the same claim.
    if kind == "negated_weekday":
        d1, d2 = draw(_distinct(WEEKDAYS))
        return f"{S} is not open on {d1}s.", f"{S} is not open on {d2}s.", kind
    if kind == "negated_time":
        h1, h2 = draw(st.tuples(st.integers(6, 21), st.integers(6, 21)).filter(lambda p: p[0] != p[1]))
        return f"{S} no longer runs at {h1:02d}:00.", f"{S} no longer runs at {h2:02d}:00.", kind
    if kind == "retired_version":
        v1, v2 = draw(st.tuples(st.integers(1, 9), st.integers(1, 9)).filter(lambda p: p[0] != p[1]))
        return f"{S} is no longer on version {v1}.2.", f"{S} is no longer on version {v2}.2.", kind
    if kind == "old_number":
        n1, n2 = draw(st.tuples(st.integers(0, 99), st.integers(0, 99)).filter(lambda p: p[0] != p[1]))
        return (
            f"The old {s} number {n1} wrote to the shared drive.",
            f"The old {s} number {n2} wrote to the shared drive.",
            kind,
        )
    # What lives outside stems, values and names (`surface_differs`): another pronoun, conjunction or tense, a
    # symbol, a date's parts in another order, the case of a flag, who does what to whom, a time zone given.
    if kind == "pronoun":
        p1, p2 = draw(_distinct(["He", "She", "They", "I", "We"]))
        return f"{p1} keeps the spare keys for {s}.", f"{p2} keeps the spare keys for {s}.", kind
    if kind == "and_or":
        a, b = draw(_distinct(PEOPLE))
        return f"{S} needs sign-off from {a} and {b}.", f"{S} needs sign-off from {a} or {b}.", kind
    if kind == "tense":
        verb = draw(st.sampled_from([("paid", "pays"), ("met", "meets"), ("used", "uses"), ("kept", "keeps")]))
        return f"Ayla {verb[0]} the fee for {s}.", f"Ayla {verb[1]} the fee for {s}.", kind
    if kind == "status_symbol":
        m1, m2 = draw(_distinct(["✅", "❌", "⚠️", "🚧"]))
        return f"Status of {s}: {m1}", f"Status of {s}: {m2}", kind
    if kind == "slash_date":
        d, m = draw(st.tuples(st.integers(1, 12), st.integers(1, 12)).filter(lambda p: p[0] != p[1]))
        return f"{S} is booked for {d:02d}/{m:02d}/2026.", f"{S} is booked for {m:02d}/{d:02d}/2026.", kind
    if kind == "flag_case":
        f = draw(st.sampled_from(["r", "l", "f", "v"]))
        return f"Run `sync -{f}` before touching {s}.", f"Run `sync -{f.upper()}` before touching {s}.", kind
    if kind == "who_to_whom":
        a, b = draw(_distinct(PEOPLE))
        return f"{a} reports to {b} about {s}.", f"{b} reports to {a} about {s}.", kind
    if kind == "direction":
        return f"Every night {s} copies staging to production.", f"Every night {s} copies production to staging.", kind
    if kind == "time_zone":
        h = draw(st.integers(6, 21))
        zone = draw(st.sampled_from(["UTC", "PST", "CET"]))
        return f"{S} opens at {h:02d}:00.", f"{S} opens at {h:02d}:00 {zone}.", kind
    if kind == "relative_day":
        # "today", "tomorrow": read as times but given no value, so "ships today" / "ships tomorrow" merged
        d1, d2 = draw(_distinct(["today", "tomorrow", "yesterday", "tonight", ""]))
        return f"{S} was checked {d1}.".replace(" .", "."), f"{S} was checked {d2}.".replace(" .", "."), kind
    if kind == "task":  # a ticked and an unticked task box on the same item
        boxes = draw(st.sampled_from([("x", " "), (" ", "x"), ("X", " ")]))
        return f"- [{boxes[0]}] Inspect {s}", f"- [{boxes[1]}] Inspect {s}", kind
    verb, base, obj = draw(st.sampled_from(VERBS))
    return f"{S} {verb} {obj}.", f"{S} does not {base} {obj}.", kind


@settings(max_examples=300, deadline=None)
@given(pair=differing_pairs(), swap=st.booleans())
def test_a_pair_that_differs_in_one_slot_or_in_polarity_is_never_a_restatement(pair, swap):
    first, second, kind = pair
    if swap:
        first, second = second, first
    r = relate(Statement(first), Statement(second))
    assert r.kind != "restatement", (kind, first, second, r)
    # and the same holds when an agent gave both the same key
    r = relate(Statement(first), Statement(second), same_key=True)
    assert r.kind != "restatement", (kind, first, second, r)


_engines: dict[str, Path] = {}


def _template() -> Path:
    if "t" not in _engines:
        tmp = Path(tempfile.mkdtemp(prefix="mk-nomerge-"))
        Engine.init(tmp / "template", now=NOW).close()
        _engines["t"] = tmp
    return _engines["t"] / "template"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=differing_pairs(), keyed=st.booleans())
def test_capture_never_consolidates_a_differing_pair(pair, keyed, tmp_path_factory):
    first, second, kind = pair
    root = tmp_path_factory.mktemp("nomerge") / "w"
    shutil.copytree(_template(), root)
    eng = Engine.open(root)
    try:
        extra = {"key": "same-thing"} if keyed else {}
        a = eng.capture(first, now=NOW, actor="agent:one", **extra)
        assert a.status == "captured"
        b = eng.capture(second, now=NOW + timedelta(hours=1), actor="agent:two", **extra)
        assert b.status != "consolidated", (kind, first, second, b.details)
        page = (root / a.details["page"]).read_text(encoding="utf-8")
        assert second not in page  # the differing text never lands on the first record's page
    finally:
        eng.close()


def _write_partition(eng: Engine, key: str, texts: tuple[str, ...]) -> list[str]:
    """Records of one partition written straight to the page layer (as by hand or by another tool), oldest first;
    their ids."""
    from memkeeper.core.models import Entry

    ids = []
    for n, text in enumerate(texts):
        entry = Entry(
            memory_id=f"mem_{key[:4].encode().hex()}{n:08x}",
            canonical_key=key,
            title=key.replace("-", " ").capitalize(),
            created_at=NOW + timedelta(minutes=n),
            updated_at=NOW,
            last_accessed_at=NOW,
            content=text,
        )
        with eng.writing():
            eng.save(entry, f"entries/{key}-{n}.md")
        ids.append(entry.memory_id)
    return ids


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=differing_pairs())
def test_consolidate_never_merges_a_differing_pair(pair, tmp_path_factory):
    """Two records of one partition that differ in one value slot or in polarity (written to the page layer, as by
    hand or by another tool) are never merged by `consolidate`, however low its word-overlap threshold, and neither
    page gets the other's text."""
    first, second, kind = pair
    root = tmp_path_factory.mktemp("nomerge-consolidate") / "w"
    shutil.copytree(_template(), root)
    eng = Engine.open(root)
    try:
        _write_partition(eng, "same-thing", (first, second))
        r = eng.consolidate(now=NOW + timedelta(hours=1), actor="agent:cli", threshold=0.3)
        assert r.details["merges"] == [], (kind, first, second, r.details)
        for n, other in enumerate((second, first)):
            assert other not in (root / f"entries/same-thing-{n}.md").read_text(encoding="utf-8")
    finally:
        eng.close()


def test_consolidate_still_merges_a_near_duplicate_and_notes_only_the_fact(tmp_path):
    root = tmp_path / "w"
    shutil.copytree(_template(), root)
    eng = Engine.open(root)
    try:
        texts = (
            "Nightly backups of the billing database run at 02:00 UTC to the cold bucket.",
            "The nightly backups of the billing database run at 02:00 UTC to the cold bucket.",
        )
        older, newer = _write_partition(eng, "backups", texts)
        r = eng.consolidate(now=NOW + timedelta(hours=1), actor="agent:cli")
        assert r.details["merges"] == [{"source": newer, "target": older}]
        keeper = eng.load(older)
        assert keeper.notes[-1].endswith(f"merged {newer}") and texts[1] not in keeper.notes[-1]
        assert eng.load(newer).content == texts[1]  # the merged record keeps its text
    finally:
        eng.close()

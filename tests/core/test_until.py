"""What a typed expiry or snooze end means (`core/until.py`): one reading for the command line, the desk and agents."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memkeeper.core.until import read_until
from tests.conftest import T0

BERLIN = "Europe/Berlin"


@pytest.mark.parametrize(
    ("text", "day_end", "end"),
    [
        ("2026-11-25", True, "2026-11-25T23:00:00Z"),  # through the 25th in Berlin: it ends as the 26th begins
        ("2026-11-25", False, "2026-11-24T23:00:00Z"),  # a snooze holds until the 25th begins
        ("2027-03-27", True, "2027-03-27T23:00:00Z"),  # the day before Berlin's clocks go forward
        ("2027-03-28", True, "2027-03-28T22:00:00Z"),  # a day of 23 hours: it ends at midnight summer time
        ("20261125", True, "2026-11-25T23:00:00Z"),  # the other ISO spellings of a date
        ("2026-W48-3", True, "2026-11-25T23:00:00Z"),
        ("2026-11-25T18:00", True, "2026-11-25T17:00:00Z"),  # a time without an offset: Berlin's 18:00
        ("2026-11-25T18:00Z", True, "2026-11-25T18:00:00Z"),  # with one: that instant
        ("2026-11-25T18:00:00+05:30", False, "2026-11-25T12:30:00Z"),
        ("7d", True, "2026-11-27T09:00:00Z"),  # after now, to the second, whatever the zone
        ("+7d", False, "2026-11-27T09:00:00Z"),
        ("2w", True, "2026-12-04T09:00:00Z"),
        (" +2 W ", False, "2026-12-04T09:00:00Z"),
        ("3", False, "2026-11-23T09:00:00Z"),
    ],
)
def test_a_typed_time_is_read_in_the_persons_time_zone(text, day_end, end):
    read = read_until(text, now=T0, zone=BERLIN, day_end=day_end)
    assert read.at == datetime.fromisoformat(end) and read.at.tzinfo is UTC


def test_the_zone_is_asked_for_only_when_the_text_needs_it():
    def no_zone() -> str:
        raise AssertionError("asked for a zone")

    for text in ("7d", "2026-11-25T18:00Z"):
        read_until(text, now=T0, zone=no_zone, day_end=True)


@pytest.mark.parametrize("text", ["2026", "tomorrow", "7x", "2026-02-30", "", "1000"])
def test_what_is_none_of_the_forms_is_refused(text):
    with pytest.raises(ValueError):
        read_until(text, now=T0, zone=BERLIN, day_end=True)


def test_a_date_past_the_last_day_says_it_is_out_of_range():
    with pytest.raises(ValueError, match="out of range"):
        read_until("9999-12-31", now=T0, zone=BERLIN, day_end=True)


def test_whose_time_zone_a_typed_date_is_read_in(eng):
    """A person's own quiz zone; an agent (or a person without one) writes for the wiki's person: the one zone the
    ledgers name; with none, or two that differ, UTC."""
    assert eng.person_zone("agent:cli") == eng.person_zone("human:alice") == "UTC"
    eng.set_quiz_zone("alice", BERLIN, now=T0, actor="human:alice")
    assert eng.person_zone("human:alice") == eng.person_zone("agent:cli") == eng.person_zone("human:bob") == BERLIN
    eng.set_quiz_zone("bob", "America/Los_Angeles", now=T0, actor="human:bob")
    assert eng.person_zone("human:alice") == BERLIN and eng.person_zone("human:bob") == "America/Los_Angeles"
    assert eng.person_zone("agent:cli") == "UTC"
    r = eng.capture("The Berlin office is closed for the move.", now=T0, actor="human:alice", expires_at="2026-11-25")
    assert eng.load(r.details["memory_id"]).expires_at == datetime(2026, 11, 25, 23, tzinfo=UTC)

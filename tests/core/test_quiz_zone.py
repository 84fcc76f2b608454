"""A person's quiz day is the day of their own time zone (`memkeeper quiz zone`), not the UTC day.

A person in Tokyo quizzes at 08:00 local, which is 23:00 UTC of the day before. With UTC days, a card they answered
wrong then was due again at 09:00 local (a new UTC day had begun) and the morning's notebook was named by the day
before; with their zone set, the day turns at their midnight.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from memkeeper.core import Engine
from memkeeper.core.errors import BadInput
from memkeeper.tui.cli import main

HUMAN = "human:aiko"
MORNING = datetime(2026, 12, 5, 23, 0, tzinfo=UTC)  # 08:00 on the 6th in Tokyo
LATER = MORNING + timedelta(hours=2)  # 10:00 on the 6th in Tokyo; 01:00 on the 6th in UTC


def _wiki(tmp_path) -> tuple[Engine, str]:
    eng = Engine.init(tmp_path / "memory", now=MORNING - timedelta(days=1))
    r = eng.capture(
        "The staging cluster runs 12 worker nodes behind the internal load balancer.",
        now=MORNING - timedelta(days=1),
        actor="agent:notes",
    )
    assert r.status == "captured", r.details
    return eng, r.details["memory_id"]


@pytest.mark.parametrize(("zone", "back_at_ten"), [("Asia/Tokyo", False), (None, True)])
def test_a_card_answered_wrong_in_the_morning_is_not_due_again_the_same_morning(tmp_path, zone, back_at_ten):
    eng, mid = _wiki(tmp_path)
    try:
        if zone:
            assert eng.set_quiz_zone("aiko", zone, now=MORNING, actor=HUMAN).status == "changed"
        assert [c.memory_id for c in eng.quiz_session("aiko", now=MORNING)] == [mid]
        r = eng.quiz_record(mid, "wrong", now=MORNING, actor=HUMAN)
        assert r.status == "recorded"
        assert r.details["due"] == ("2026-12-07" if zone else "2026-12-06")
        again = [c.memory_id for c in eng.quiz_session("aiko", now=LATER)]
        assert (mid in again) is back_at_ten
        assert (eng.quiz_due_count("aiko", now=LATER) > 0) is back_at_ten  # hot.md's count, from the index's copy
        notebook = "quiz/2026-12-06.aiko.md" if zone else "quiz/2026-12-05.aiko.md"
        assert (eng.root / notebook).is_file()
        assert eng.quiz_day("aiko", now=MORNING).isoformat() == ("2026-12-06" if zone else "2026-12-05")
    finally:
        eng.close()


def test_the_zone_is_kept_in_the_ledger_read_by_another_process_and_undone(tmp_path):
    eng, mid = _wiki(tmp_path)
    try:
        r = eng.set_quiz_zone("aiko", "Asia/Tokyo", now=MORNING, actor=HUMAN)
        assert r.details["zone"] == "Asia/Tokyo" and r.details["today"] == "2026-12-06" and r.details["prior"] == "UTC"
        assert "time_zone: Asia/Tokyo" in (eng.root / "quiz" / "quiz-ledger.aiko.md").read_text()
        other = Engine.open(eng.root)
        try:
            assert other.quiz_zone("aiko") == "Asia/Tokyo"
            assert other.quiz_due_count("aiko", now=MORNING) == 1  # a new process: the count from the index's copy
        finally:
            other.close()
        eng.quiz_record(mid, "wrong", now=MORNING, actor=HUMAN)
        undone = eng.undo(r.receipt_sha256, now=LATER, actor=HUMAN)
        assert undone.status == "undone", undone.details
        assert eng.quiz_zone("aiko") == "UTC"
        assert "time_zone" not in (eng.root / "quiz" / "quiz-ledger.aiko.md").read_text()
        assert eng.quiz_day("aiko", now=MORNING).isoformat() == "2026-12-05"  # UTC days again
        assert eng.quiz_day("aiko", now=LATER).isoformat() == "2026-12-06"
    finally:
        eng.close()


def test_an_undone_answer_is_marked_in_the_notebook_of_its_own_day(tmp_path):
    eng, mid = _wiki(tmp_path)
    try:
        eng.set_quiz_zone("aiko", "Asia/Tokyo", now=MORNING, actor=HUMAN)
        r = eng.quiz_record(mid, "good", now=MORNING, actor=HUMAN)
        eng.set_quiz_zone("aiko", "America/Los_Angeles", now=MORNING, actor=HUMAN)  # its day is the 5th there
        assert eng.undo(r.receipt_sha256, now=LATER, actor=HUMAN).status == "undone"
        notebook = eng.root / "quiz" / "2026-12-06.aiko.md"
        assert "Undone at" in notebook.read_text()
        assert not (eng.root / "quiz" / "2026-12-05.aiko.md").exists()
    finally:
        eng.close()


def test_a_zone_that_is_no_place_is_refused_and_a_bad_one_written_by_hand_is_reported(tmp_path):
    eng, mid = _wiki(tmp_path)
    try:
        for bad in ("Mars/Olympus", "CET", "+09:00", "", "Asia/Tokyo ", "Etc/GMT+5", "Etc/GMT-9"):
            r = eng.set_quiz_zone("aiko", bad, now=MORNING, actor=HUMAN)
            assert (r.status, r.details["reason"]) == ("reject", "unknown_time_zone"), bad
        assert not (eng.root / "quiz" / "quiz-ledger.aiko.md").exists()  # nothing written
        eng.set_quiz_zone("aiko", "Asia/Tokyo", now=MORNING, actor=HUMAN)
        ledger = eng.root / "quiz" / "quiz-ledger.aiko.md"
        ledger.write_text(ledger.read_text().replace("time_zone: Asia/Tokyo", "time_zone: Atlantis/Capital"))
        assert eng.quiz_zone("aiko") == "UTC"  # read as UTC days
        assert any("Atlantis/Capital" in p for p in eng.check().problems)  # `memkeeper check` names it
        r = eng.quiz_record(mid, "good", now=MORNING, actor=HUMAN)
        assert r.status == "recorded"  # the answer is taken on the UTC day, the hand-written key kept as written
        assert "time_zone: Atlantis/Capital" in ledger.read_text()
    finally:
        eng.close()


def test_fsrs_counts_the_persons_days_across_a_summer_time_change(tmp_path):
    """Europe/Berlin's 29 March 2026 has 23 hours. An FSRS card answered at 00:30 local on the 29th and again at
    23:45 local on the 30th is one day on: the previews shown with the card are what the answer gives."""
    eng = Engine.init(tmp_path / "memory", now=datetime(2026, 3, 27, tzinfo=UTC))
    try:
        mid = eng.capture(
            "The payroll export runs on the 28th of each month at 06:00.",
            now=datetime(2026, 3, 27, tzinfo=UTC),
            actor="agent:notes",
        ).details["memory_id"]
        eng.create_ledger("aiko", "fsrs", now=datetime(2026, 3, 27, tzinfo=UTC), actor=HUMAN)
        eng.set_quiz_zone("aiko", "Europe/Berlin", now=datetime(2026, 3, 27, tzinfo=UTC), actor=HUMAN)
        first = datetime(2026, 3, 28, 23, 30, tzinfo=UTC)  # 00:30 on the 29th in Berlin (CET)
        r = eng.quiz_record(mid, "good", now=first, actor=HUMAN)
        assert r.details["due"] >= "2026-03-30"
        second = datetime(2026, 3, 30, 21, 45, tzinfo=UTC)  # 23:45 on the 30th in Berlin (CEST)
        assert eng.quiz_day("aiko", now=second).isoformat() == "2026-03-30"
        shown = eng.quiz_preview(mid, "aiko", now=second)
        answered = eng.quiz_record(mid, "good", now=second, actor=HUMAN)
        due = datetime.fromisoformat(answered.details["due"]).date()
        assert (due - eng.quiz_day("aiko", now=second)).days == shown["good"]
    finally:
        eng.close()


def test_the_command_line_sets_and_says_the_zone(tmp_path, capsys):
    root = str(tmp_path / "memory")
    at = ["--root", root, "--now", "2026-12-05T23:00:00Z", "--as", HUMAN]
    assert main([*at, "init"]) == 0
    capsys.readouterr()
    assert main([*at, "quiz", "zone"]) == 0
    assert "aiko: quiz days are UTC days (today is 2026-12-05)" in capsys.readouterr().out
    assert main([*at, "quiz", "zone", "Asia/Tokyo"]) == 0
    capsys.readouterr()
    assert main([*at, "quiz", "zone"]) == 0
    assert "aiko: quiz days are Asia/Tokyo days (today is 2026-12-06)" in capsys.readouterr().out
    assert main([*at, "quiz", "zone", "Tokyo"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "memkeeper: quiz_zone reject: unknown_time_zone ('Tokyo' is no IANA time zone name: give one such "
        "as Europe/Berlin, or UTC)"
    ]


def test_an_older_zone_change_is_not_undone_over_a_later_one(tmp_path):
    """Tokyo, then Berlin: undoing Tokyo said "undone" and put UTC back, silently dropping Berlin (as undoing an
    older scheduler change over a later one is refused)."""
    eng, _mid = _wiki(tmp_path)
    try:
        tokyo = eng.set_quiz_zone("aiko", "Asia/Tokyo", now=MORNING, actor=HUMAN)
        berlin = eng.set_quiz_zone("aiko", "Europe/Berlin", now=MORNING + timedelta(minutes=1), actor=HUMAN)
        refused = eng.undo(tokyo.receipt_sha256, now=LATER, actor=HUMAN)
        assert (refused.status, refused.details.get("reason")) == ("reject", "superseded_by_later_decision")
        assert eng.quiz_zone("aiko") == "Europe/Berlin"
        assert eng.undo(berlin.receipt_sha256, now=LATER, actor=HUMAN).status == "undone"
        assert eng.quiz_zone("aiko") == "Asia/Tokyo"
    finally:
        eng.close()


def test_the_command_line_says_why_a_zone_written_by_hand_is_not_read(tmp_path, capsys):
    """`quiz zone` said "quiz days are UTC days" of a ledger whose hand-written zone it could not read: what the
    person wrote looked taken, or ignored without a reason. It names the value and why (as `check` does)."""
    root = str(tmp_path / "memory")
    at = ["--root", root, "--now", "2026-12-05T23:00:00Z", "--as", HUMAN]
    assert main([*at, "init"]) == 0
    assert main([*at, "quiz", "zone", "Asia/Tokyo"]) == 0
    ledger = tmp_path / "memory" / "quiz" / "quiz-ledger.aiko.md"
    ledger.write_text(ledger.read_text().replace("time_zone: Asia/Tokyo", "time_zone: CET"))
    capsys.readouterr()
    assert main([*at, "quiz", "zone"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("aiko: quiz days are UTC days (today is 2026-12-05); the ledger's unknown time zone 'CET'")
    assert main([*at, "--json", "quiz", "zone"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["zone"] == "UTC" and "'CET'" in shown["problem"]
    assert main([*at, "quiz", "zone", "Europe/Berlin"]) == 0
    capsys.readouterr()
    assert main([*at, "--json", "quiz", "zone"]) == 0
    assert json.loads(capsys.readouterr().out)["problem"] is None


def test_undoing_a_zone_set_over_one_written_by_hand_puts_that_back(tmp_path):
    """A `time_zone` written by hand that names no zone, replaced by `quiz zone`, then the change undone: the undo
    failed with an internal error. It puts back what was written, which `check` reports again."""
    eng, _mid = _wiki(tmp_path)
    try:
        eng.set_quiz_zone("aiko", "Asia/Tokyo", now=MORNING, actor=HUMAN)
        ledger = eng.root / "quiz" / "quiz-ledger.aiko.md"
        ledger.write_text(ledger.read_text().replace("time_zone: Asia/Tokyo", "time_zone: [Tokyo, Osaka]"))
        r = eng.set_quiz_zone("aiko", "Asia/Tokyo", now=MORNING + timedelta(minutes=1), actor=HUMAN)
        assert r.status == "changed" and r.details["prior"] == "['Tokyo', 'Osaka']"
        assert eng.undo(r.receipt_sha256, now=LATER, actor=HUMAN).status == "undone"
        assert "time_zone: [Tokyo, Osaka]" in ledger.read_text()
        assert eng.quiz_zone("aiko") == "UTC"
        assert any("time_zone" in p or "Tokyo" in p for p in eng.check().problems)
    finally:
        eng.close()


@pytest.mark.parametrize("typed", ["utc", "Etc/UTC", "UTC", "Etc/GMT", "GMT", "gmt", "GMT0", "Greenwich", "Universal"])
def test_utc_is_one_zone_however_it_is_written(tmp_path, typed):
    eng, _mid = _wiki(tmp_path)
    try:
        assert eng.set_quiz_zone("aiko", typed, now=MORNING, actor=HUMAN).details["zone"] == "UTC"
        assert eng.quiz_zone("aiko") == "UTC"
        for other in ("right/UTC", "posix/Asia/Tokyo"):  # the tz database's other trees, not names of places
            assert eng.set_quiz_zone("aiko", other, now=MORNING, actor=HUMAN).details["reason"] == "unknown_time_zone"
    finally:
        eng.close()


def test_the_tz_databases_names_of_utc_are_taken_and_its_abbreviations_are_not(tmp_path):
    """Exploratory pass, 2026-12-05: `quiz zone GMT` was refused as no IANA name while UTC and Etc/GMT were taken.
    Every name the tz database gives UTC (this machine's zoneinfo knows each, at offset zero) is UTC; its
    abbreviations and country names without a "/" stay refused: EST is five hours behind UTC all year, a summer
    in New York included, and Asia/Tokyo says "Japan" as a place."""
    from zoneinfo import ZoneInfo, available_timezones

    from memkeeper.core.quiz_ledger import UTC_NAMES

    known = {name.upper(): name for name in available_timezones()}
    for name in UTC_NAMES:
        zone = ZoneInfo(known[name])
        assert all(
            zone.utcoffset(datetime(year, month, 1)) == timedelta(0) for year in (1990, 2026) for month in (1, 7)
        )
    eng, _mid = _wiki(tmp_path)
    try:
        for bad in ("EST", "PST", "CET", "EET", "MST", "EST5EDT", "PST8PDT", "Japan", "Factory", "localtime"):
            r = eng.set_quiz_zone("aiko", bad, now=MORNING, actor=HUMAN)
            assert (r.status, r.details["reason"]) == ("reject", "unknown_time_zone"), bad
    finally:
        eng.close()


def test_a_zone_moved_west_after_an_answer_does_not_ask_or_promote_the_card_again(tmp_path):
    """Answered on the 6th in Tokyo (23:00 UTC on the 5th), then the zone set to Los Angeles, where it is still the
    5th: the row's last answer is dated after "today". It counts as answered today: not offered again, and a right
    answer minutes later does not promote it twice."""
    eng, mid = _wiki(tmp_path)
    try:
        eng.set_quiz_zone("aiko", "Asia/Tokyo", now=MORNING, actor=HUMAN)
        first = eng.quiz_record(mid, "good", now=MORNING, actor=HUMAN)
        eng.set_quiz_zone("aiko", "America/Los_Angeles", now=MORNING, actor=HUMAN)
        soon = MORNING + timedelta(minutes=5)
        assert eng.quiz_day("aiko", now=soon).isoformat() == "2026-12-05"
        assert mid not in [c.memory_id for c in eng.quiz_session("aiko", now=soon)]
        again = eng.quiz_record(mid, "good", now=soon, actor=HUMAN)
        assert (again.details["box"], again.details["due"]) == (first.details["box"], first.details["due"])
    finally:
        eng.close()


def test_undoing_a_zone_change_over_a_zone_written_by_hand_since_is_refused(tmp_path):
    """Tokyo set, then Berlin written into the ledger by hand, then the Tokyo change undone: the person was put back
    on UTC days and Berlin dropped without a word. The undo is refused, and nothing changes."""
    eng, _mid = _wiki(tmp_path)
    try:
        r = eng.set_quiz_zone("aiko", "Asia/Tokyo", now=MORNING, actor=HUMAN)
        ledger = eng.root / "quiz" / "quiz-ledger.aiko.md"
        ledger.write_text(ledger.read_text().replace("time_zone: Asia/Tokyo", "time_zone: Europe/Berlin"))
        with pytest.raises(BadInput, match="Europe/Berlin days now, not the Asia/Tokyo days"):
            eng.undo(r.receipt_sha256, now=LATER, actor=HUMAN)
        assert eng.quiz_zone("aiko") == "Europe/Berlin" and "time_zone: Europe/Berlin" in ledger.read_text()
    finally:
        eng.close()

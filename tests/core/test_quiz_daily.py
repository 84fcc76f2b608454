"""The daily quiz (issue 11): cloze questions, grade previews, bury, the day's new pages, FSRS hard < good < easy."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from memkeeper.core import quiz
from memkeeper.core.quiz import (
    CLOZE_CHARS,
    CLOZE_GAP,
    INTERVALS,
    NEW_PER_DAY,
    QuizCandidate,
    QuizItem,
    build_cloze,
    build_question,
    buried_map,
    buried_pages,
    bury,
    due_count,
    new_ledger,
    parse_ledger,
    preview_intervals,
    record_answer,
    render_ledger,
    select_session,
    with_buried,
)

TODAY = date(2026, 11, 20)
NOW = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


def cand(page: str, *, content: str = "", title: str = "", quiz_question: str | None = None) -> QuizCandidate:
    return QuizCandidate(
        page=page, category="fact", updated_at=NOW, title=title or page, content=content, quiz_question=quiz_question
    )


# --- cloze ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "hidden"),
    [
        # a number with its unit (and money, and a duration)
        ("The nightly export writes 12 GB of parquet files to the archive bucket.", "12 GB"),
        ("We agreed a travel allowance of €2,400 for the offsite.", "€2,400"),
        ("Cache entries expire after 45 minutes without a read.", "45 minutes"),
        # a date, written as words (the day and the month-year read as one) or as ISO
        ("The vendor contract renews on 3 February 2028 unless cancelled.", "3 February 2028"),
        ("Feature freeze for the mobile app starts 2027-04-19.", "2027-04-19"),
        # a clock time, with its zone
        ("The warehouse sync starts at 02:15 UTC and takes most of an hour.", "02:15 UTC"),
        # a person
        ("Marta Oliveira approves every change to the payroll rules.", "Marta Oliveira"),
        # a technology
        ("Session state lives in Redis so that web nodes stay stateless.", "Redis"),
    ],
)
def test_cloze_hides_the_key_value(content: str, hidden: str) -> None:
    cloze = build_cloze(content, "Some title")
    assert cloze is not None
    assert cloze.hidden == hidden == content[cloze.start : cloze.end]
    assert cloze.text == content[: cloze.start] + CLOZE_GAP + content[cloze.end :]
    assert hidden not in cloze.text


def test_a_quantity_wins_over_a_technology_and_the_first_of_a_kind_wins() -> None:
    cloze = build_cloze("Kafka keeps 14 days of events; the audit topic keeps 90 days.", "Retention")
    assert cloze is not None and cloze.hidden == "14 days"


def test_what_a_negation_covers_is_never_the_gap() -> None:
    cloze = build_cloze("We no longer use MySQL; the reporting replica runs on Postgres.", "Reporting replica")
    assert cloze is not None and cloze.hidden == "Postgres"
    assert build_cloze("Invoices are never sent by fax machine, whatever the customer asks.", "Invoices") is None


@pytest.mark.parametrize(
    "content",
    [
        "Always prefer small pull requests with a clear description.",
        "Keep the onboarding checklist short and friendly.",
        "",
    ],
)
def test_no_key_value_means_no_cloze(content: str) -> None:
    assert build_cloze(content, "Anything") is None


def test_a_value_the_title_already_gives_is_not_hidden() -> None:
    content = "Incident reviews happen within 48 hours, led by Dana Whitfield."
    assert build_cloze(content, "Incident reviews within 48 hours").hidden == "Dana Whitfield"  # type: ignore[union-attr]
    assert build_cloze(content, "48 hours, Dana Whitfield") is None


def test_cloze_spans_point_into_the_original_text() -> None:
    # Accents, doubled spaces and line breaks are folded for reading, never in what the person sees.
    content = "Le  café de  Zoë\nouvre à 07:45 chaque matin, selon   Renée Dubois."
    cloze = build_cloze(content, "")
    assert cloze is not None and cloze.hidden == content[cloze.start : cloze.end] == "07:45"
    assert cloze.text.startswith("Le  café de  Zoë\nouvre à […]")


@pytest.mark.parametrize(
    "content, hidden",
    [
        ("# Notes\n\nThe search index rebuild takes 20 minutes on the large cluster", "20 minutes"),
        ("The backup job keeps **30 days** of snapshots on the NAS", "30 days"),
        ("- The standup is at 9:30 every weekday\n- Retro is on Fridays", "9:30"),
        ("> Quoted: the lease renewal is due on 14 March 2027", "14 March 2027"),
    ],
)
def test_a_cloze_over_markdown_hides_the_value_as_written(content: str, hidden: str) -> None:
    """The readers read a note with its Markdown marks dropped: the gap must still cover the value in the note as
    written (it was shifted by the marks: "take[…]es on the large cluster")."""
    cloze = build_cloze(content, "")
    assert cloze is not None and cloze.hidden == content[cloze.start : cloze.end] == hidden
    assert cloze.text == content.replace(hidden, "[…]", 1)


@pytest.mark.parametrize(
    "content",
    [
        # a fence's info string, a compose file (the gap took "15\n    restart"), a cron line, a query
        'Use this snippet to connect:\n\n```python\nclient = Redis(host="cache", port=6379, timeout=30)\n```\n',
        "The compose file for the ledger service:\n```yaml\nservices:\n  db:\n    image: postgres:15\n"
        "    restart: always\n```\n",
        "Backup cron entry on the db host:\n```\n0 3 * * 1 /usr/local/bin/backup.sh  # Monday 03:00\n```\n",
        "~~~sql\nSELECT * FROM users WHERE created_at > '2026-01-01' LIMIT 100;\n~~~",
        # a fence never closed runs to the end of the note
        "The migration script:\n```python\nbatch = 500\nsleep(2.5)\n",
        # inline code
        "Run `sleep 30 seconds && deploy` before each release.",
    ],
)
def test_a_note_whose_values_are_all_code_is_asked_by_its_title(content: str) -> None:
    """Code is written for a machine: its values are not the statement's, and a gap in it breaks what it says."""
    assert build_cloze(content, "Snippet") is None
    assert build_question(cand("entries/a.md", content=content, title="Snippet")) == (
        "What do you remember about “Snippet”?"
    )


@pytest.mark.parametrize(
    "content, hidden, code",
    [
        (
            "```bash\nrestic forget --keep-daily 7 --keep-weekly 4\n```\n"
            "The nightly backup keeps 30 days of snapshots.",
            "30 days",
            "```bash\nrestic forget --keep-daily 7 --keep-weekly 4\n```",
        ),
        (
            "- Restart the worker:\n  ```\n  systemctl restart worker --timeout 90 seconds\n  ```\n"
            "- The worker drains in 5 minutes.",
            "5 minutes",
            "  ```\n  systemctl restart worker --timeout 90 seconds\n  ```",
        ),
        (
            "Run `sleep 30 seconds && deploy` before the release on the staging box.",
            "staging box",
            "`sleep 30 seconds && deploy`",
        ),
    ],
)
def test_a_cloze_hides_a_value_of_the_prose_and_leaves_the_code_whole(content: str, hidden: str, code: str) -> None:
    cloze = build_cloze(content, "")
    assert cloze is not None and cloze.hidden == content[cloze.start : cloze.end] == hidden
    assert code in cloze.text


@pytest.mark.parametrize(
    "content, hidden",
    [
        ("1) Lunch is at 12:30\n2) Coffee at 15:00", "12:30"),  # it hid "12:30\n2"
        ("Orchid team tooling:\n1. Issues in Linear\n2. Docs in Notion", "Linear"),  # "Linear\n2"
        ("# Atlas\n\nAtlas staging uses Postgres 15.", "staging"),  # "Atlas\n\nAtlas staging"
    ],
)
def test_a_gap_never_crosses_a_line_break(content: str, hidden: str) -> None:
    cloze = build_cloze(content, "")
    assert cloze is not None and cloze.hidden == hidden
    assert cloze.text.count("\n") == content.count("\n")


@pytest.mark.parametrize(
    "content, hidden",
    [
        # values of different kinds are different values: an address and a schedule, an environment and a schedule,
        # a dose and a schedule
        ("Send the weekly report to ops-team@example.com every Monday morning.", "every Monday morning"),
        ("Lumen ships to production every Thursday afternoon.", "every Thursday afternoon"),
        ("Dad is on amlodipine, 5 mg every morning.", "5 mg"),
        ("Invoices are exported as CSV every Friday.", "every Friday"),
        # the parts of one value still hide together
        ("Deploys happen Friday 15:00 UTC after the freeze.", "Friday 15:00 UTC"),
        ("Dentist booked: Tuesday 14 May, 11:00am.", "Tuesday 14 May"),
        ("The build takes 5 hours 30 minutes on the old runners.", "5 hours 30 minutes"),
        ("Backend services target Python 3.12.", "Python 3.12"),
        ("The book launch is at Foyles on Charing Cross Road.", "Charing Cross Road"),
        ("The freezer is at 18 °C.", "18 °C"),
    ],
)
def test_values_written_side_by_side_hide_together_only_as_parts_of_one_value(content: str, hidden: str) -> None:
    cloze = build_cloze(content, "")
    assert cloze is not None and cloze.hidden == hidden


def _checked(lines: int) -> str:
    return "\n".join(f"- checked the archive bucket after batch {i}" for i in range(lines))


def test_a_long_notes_question_is_its_opening() -> None:
    """A question of 55 KB is no question: a long note is asked from its opening, cut at a line, "…" saying that it
    goes on; the gap still points into the note, whose whole text is the answer."""
    opening = "The nightly export writes 12 GB of parquet files to the archive bucket."
    content = opening + "\n" + _checked(5000)
    cloze = build_cloze(content, "Export")
    assert cloze is not None and cloze.hidden == content[cloze.start : cloze.end] == "12 GB"
    assert cloze.text.startswith(opening.replace("12 GB", CLOZE_GAP) + "\n- checked the archive bucket after batch 0")
    assert cloze.text.endswith(" …") and len(cloze.text) <= CLOZE_CHARS + len(" …")
    shown = cloze.text.removesuffix(" …").replace(CLOZE_GAP, "12 GB")
    assert content.startswith(shown + "\n")  # whole lines of the note
    assert build_question(cand("entries/a.md", content=content, title="Export")) == cloze.text
    # a note of up to CLOZE_CHARS characters is shown whole, as before
    short = (opening + "\n" + _checked(100))[:CLOZE_CHARS]
    assert build_cloze(short, "Export").text == short.replace("12 GB", CLOZE_GAP)  # type: ignore[union-attr]


def test_a_value_past_a_long_notes_opening_is_not_asked() -> None:
    content = _checked(5000) + "\nThe export takes 20 minutes."
    assert build_cloze(content, "Export checks") is None
    assert build_question(cand("entries/a.md", content=content, title="Export checks")) == (
        "What do you remember about “Export checks”?"
    )


def test_a_long_note_is_read_only_as_far_as_its_question_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a cloze costs is its opening's reading, whatever the note's length (the readers over a 55 KB note took
    seconds, for each card of a session). No timing here: benchmarks/run.py times it."""
    read: list[int] = []
    real = quiz.analyze

    def counted(text: str):  # type: ignore[no-untyped-def]
        read.append(len(text))
        return real(text)

    monkeypatch.setattr(quiz, "analyze", counted)
    content = "Weekly migration log, 5,000 lines.\n" + "\n".join(f"- a{i:04d} ok" for i in range(5000))
    assert build_cloze(content, "Migration log") is not None
    assert read and max(read) <= CLOZE_CHARS


def test_question_prefers_the_explicit_question_then_the_cloze_then_the_title() -> None:
    content = "The design review happens on Thursdays at 16:00 in the small room."
    assert build_question(cand("entries/a.md", content=content, quiz_question="When is design review?")) == (
        "When is design review?"
    )
    assert build_question(cand("entries/a.md", content=content)) == content.replace("16:00", CLOZE_GAP)
    assert build_question(cand("entries/b.md", content="Be kind in code review.", title="Review tone")) == (
        "What do you remember about “Review tone”?"
    )


# --- previews -------------------------------------------------------------------------------------------------------


def test_leitner_preview_is_what_recording_does() -> None:
    row = QuizItem(page="entries/a.md", box=2, due=TODAY, asked=3, correct=2, last=date(2026, 11, 13))
    preview = preview_intervals("entries/a.md", row, "leitner", NOW)
    assert preview == {"again": 1, "hard": INTERVALS[3], "good": INTERVALS[3], "easy": INTERVALS[3], "skip": 1}
    ledger = new_ledger("alice").model_copy(update={"items": [row]})
    for grade, days in preview.items():
        _, answered, _ = record_answer(ledger, "entries/a.md", grade, TODAY, now=NOW)
        assert answered.due == TODAY + timedelta(days=days)
    assert preview_intervals("entries/new.md", None, "leitner", NOW)["good"] == INTERVALS[1]


def _fsrs_days(item: QuizItem | None, at: datetime) -> dict[str, int]:
    return preview_intervals("entries/a.md", item, "fsrs", at)


def test_fsrs_hard_good_easy_differ_for_a_new_and_a_reviewed_card() -> None:
    new = _fsrs_days(None, NOW)
    assert 1 <= new["again"] <= new["hard"] < new["good"] < new["easy"]
    # Reviewed once (good), then asked again on its due day.
    _, reviewed, _ = record_answer(new_ledger("alice", "fsrs"), "entries/a.md", "good", TODAY, now=NOW)
    later = datetime.combine(reviewed.due, NOW.time(), tzinfo=UTC)
    days = _fsrs_days(reviewed, later)
    assert days["again"] < days["hard"] < days["good"] < days["easy"]


def test_fsrs_preview_is_what_recording_does_and_writes_nothing() -> None:
    ledger = new_ledger("alice", "fsrs")
    _, first, _ = record_answer(ledger, "entries/a.md", "hard", TODAY, now=NOW)
    ledger = ledger.model_copy(update={"items": [first]})
    at = NOW + timedelta(days=5)
    before = render_ledger(ledger)
    preview = _fsrs_days(first, at)
    assert render_ledger(ledger) == before
    for grade, days in preview.items():
        _, answered, _ = record_answer(ledger, "entries/a.md", grade, at.date(), now=at)
        assert answered.due == at.date() + timedelta(days=days)


# --- bury -----------------------------------------------------------------------------------------------------------


def test_bury_leaves_the_row_alone_and_hides_the_page_for_the_day() -> None:
    row = QuizItem(page="entries/a.md", box=3, due=TODAY, asked=5, correct=4, last=date(2026, 11, 3))
    ledger = new_ledger("alice").model_copy(update={"items": [row]})
    pages = [cand("entries/a.md"), cand("entries/b.md")]
    assert [s.page for s in select_session(ledger, pages, TODAY)] == ["entries/a.md", "entries/b.md"]
    buried, prior = bury(ledger, "entries/a.md", TODAY)
    assert prior is None and buried.items == [row]
    assert [s.page for s in select_session(buried, pages, TODAY)] == ["entries/b.md"]
    assert due_count(buried, pages, TODAY) == 1
    # Tomorrow it is offered again, box and history as they were.
    tomorrow = TODAY + timedelta(days=1)
    assert [s.page for s in select_session(buried, pages, tomorrow)] == ["entries/a.md", "entries/b.md"]
    assert select_session(buried, pages, tomorrow)[0].item == row


def test_a_new_page_can_be_buried_too() -> None:
    ledger, _ = bury(new_ledger("alice"), "entries/new.md", TODAY)
    assert ledger.items == []
    assert select_session(ledger, [cand("entries/new.md")], TODAY) == []


def test_bury_list_round_trips_in_the_frontmatter_and_prunes_past_days() -> None:
    ledger = new_ledger("alice", today=TODAY)
    ledger, _ = bury(ledger, "entries/old one.md", TODAY - timedelta(days=2))
    ledger, _ = bury(ledger, "entries/a: b #c.md", TODAY)
    assert buried_map(ledger) == {"entries/a: b #c.md": TODAY}  # yesterday's entry pruned by the new bury
    text = render_ledger(ledger)
    parsed = parse_ledger(text)
    assert parsed.problems == [] and buried_map(parsed) == {"entries/a: b #c.md": TODAY}
    assert render_ledger(parsed) == text
    assert "buried" not in render_ledger(with_buried(parsed, {}))


def test_an_unreadable_bury_list_is_ignored() -> None:
    ledger = new_ledger("alice").model_copy(
        update={"frontmatter": {"buried": {"../etc.md": "2026-11-20", "entries/x.md": "soon", "entries/y.md": 3}}}
    )
    assert buried_pages(ledger, TODAY) == set()
    assert buried_map(new_ledger("alice").model_copy(update={"frontmatter": {"buried": ["entries/x.md"]}})) == {}


# --- the day's new pages --------------------------------------------------------------------------------------------


def test_new_pages_per_day_are_capped_and_count_down_with_first_answers() -> None:
    pages = [cand(f"entries/p{i:02}.md") for i in range(NEW_PER_DAY + 10)]
    ledger = new_ledger("alice")
    assert due_count(ledger, pages, TODAY) == NEW_PER_DAY
    for n, page in enumerate(pages[:9], start=1):
        ledger, _, _ = record_answer(ledger, page.page, "good" if n % 2 else "again", TODAY)
        assert due_count(ledger, pages, TODAY) == NEW_PER_DAY - n
    # Sessions follow one another until the day's count is used up, never more than 7 at a time.
    assert len(select_session(ledger, pages, TODAY)) == 7
    # The next day brings a fresh allowance.
    assert due_count(ledger, pages, TODAY + timedelta(days=1)) >= NEW_PER_DAY

"""Quiz pane: reveal, grade with one key, summary; the ledger in the engine is the source of truth."""

from __future__ import annotations

import html
import io
import re
import threading
from datetime import timedelta

import pytest
from rich.console import Console

from memkeeper.core.quiz import INTERVALS
from memkeeper.core.quiz_queue import card_as_now
from memkeeper.tui.screens.modals import ConfirmModal
from memkeeper.tui.screens.quiz import QuizScreen, interval_label
from tests.conftest import out_of_rotation

from .conftest import NARROW, both_sizes, decided, footer_state, hold, mounted, open_pane, settle, status_line, wait_for
from .snapshot_app import FIXED_NOW as NOW
from .snapshot_app import PERSON, build_app

pytestmark = pytest.mark.anyio


# -- helpers ---------------------------------------------------------------------------------------------------------


# -- tests -----------------------------------------------------------------------------------------------------------


def expected_box(prior_box: int | None, grade: str) -> int:
    if grade in ("again", "skip"):
        return 0
    return min((prior_box or 0) + 1, len(INTERVALS) - 1)


def plain(widget) -> str:
    """What a Static shows, as plain text (its content may be any Rich renderable)."""
    console = Console(width=118, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def summary_text(pane: QuizScreen) -> str:
    return plain(pane.query_one("#quiz-summary-text"))


async def test_full_session_grades_every_card_and_summarises(demo):
    app, engine = demo, demo.engine
    cards = engine.quiz_session(PERSON, now=NOW)
    assert len(cards) == 7
    grades = ["again", "hard", "good", "easy", "skip", "good", "again"]
    keys = {"again": "1", "hard": "2", "good": "3", "easy": "4", "skip": "s"}
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        assert [c.memory_id for c in pane.cards] == [c.memory_id for c in cards]

        # Anki rule: no grade before the answer is shown.
        await pilot.press("3")
        assert not pane.deciding
        assert not pane.grades and not app.undo_stack("quiz")

        for card, grade in zip(cards, grades, strict=True):
            assert pane.current.memory_id == card.memory_id
            if grade != "skip":  # skip works before the reveal
                await pilot.press("space")
                assert pane.revealed
            await pilot.press(keys[grade])
            await decided(pilot)
            receipt = app.undo_stack("quiz")[-1]
            assert (receipt.action, receipt.status, receipt.details["page"]) == ("quiz_record", "recorded", card.page)

        assert pane.finished
        assert pane.query_one("#quiz-summary").display
        text = summary_text(pane)
        assert "7 cards" in text and "accuracy 67% (4/6 graded)" in text and "1 skipped" in text

    ledger = engine.read_ledger(PERSON)
    for card, grade in zip(cards, grades, strict=True):
        item = ledger.item(card.page)
        assert item.box == expected_box(card.box, grade), (card.page, grade)
        assert item.asked == card.asked + 1
        assert item.last_result == {"again": "wrong", "skip": "skip"}.get(grade, "correct")
        assert item.due == NOW.date() + timedelta(days=INTERVALS[item.box])
    # answered today, so nothing is due again today
    assert not {c.page for c in engine.quiz_session(PERSON, now=NOW)} & {c.page for c in cards}


async def test_typed_answer_goes_to_the_notebook(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = pane.current
        await pilot.press("a")
        await pilot.press(*"split along billing")
        await pilot.press("enter")
        assert pane.revealed
        await pilot.press("3")
        await decided(pilot)
        assert app.undo_stack("quiz")[-1].details["page"] == first.page
    notebook = (engine.root / "quiz" / f"2026-11-29.{PERSON}.md").read_text(encoding="utf-8")
    assert "split along billing" in notebook and first.question.split("(")[0].strip() in notebook


SECRET = "ghp_" + "1234567890abcdefghijklmnopqrstuvwxyzAB"


@pytest.mark.parametrize("retyped", ["split along billing", ""], ids=["retyped", "left-empty"])
async def test_a_typed_answer_refused_as_a_secret_is_typed_again_and_graded(demo, retyped):
    """Exploratory pass, 2026-12-05: an answer typed with a token in it made every grade refused (`secret_detected`),
    `a` did nothing once the answer was shown, and the line never said the typed answer was the problem. The line
    says so; `a` opens the answer box again, empty, on the revealed card; the answer typed again (or none) is
    graded, and the secret is written nowhere."""
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = pane.current
        prior = engine.read_ledger(PERSON).item(first.page)
        await pilot.press("a", *f"my token {SECRET}", "enter")
        assert pane.revealed
        for key in ("3", "s"):
            await pilot.press(key)
            await decided(pilot)
            await settle(pilot)
            assert pane.current.memory_id == first.memory_id and pane.revealed, key
            assert "Your typed answer looks like a secret" in pane.status.plain, pane.status.plain
            assert "a types it again" in pane.status.plain
            assert SECRET not in _screen_text(app)  # refused: no longer shown beside "you said"
        assert engine.read_ledger(PERSON).item(first.page) == prior and not app.undo_stack("quiz")
        assert any("typed answer looks like a secret" in n.message for n in app._notifications)
        box = pane.query_one("#quiz-answer-input")
        await pilot.press("a")
        assert box.display and app.focused is box and box.value == ""
        assert SECRET not in _screen_text(app)
        await pilot.press(*retyped, "enter")
        assert not box.display and pane.revealed and pane.current.memory_id == first.memory_id
        await pilot.press("3")
        await decided(pilot)
        receipt = app.undo_stack("quiz")[-1]
        assert (receipt.status, receipt.details["page"]) == ("recorded", first.page)
        assert pane.current.memory_id != first.memory_id
    notebook = (engine.root / "quiz" / f"2026-11-29.{PERSON}.md").read_text(encoding="utf-8")
    assert SECRET not in notebook and (retyped in notebook if retyped else True)


async def test_undo_returns_to_the_card_and_restores_the_ledger(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = pane.current
        prior = engine.read_ledger(PERSON).item(first.page)
        await pilot.press("space", "1")
        await decided(pilot)
        assert engine.read_ledger(PERSON).item(first.page).asked == (prior.asked if prior else 0) + 1
        assert pane.current.memory_id != first.memory_id
        await pilot.press("u")
        await decided(pilot)
        assert engine.read_ledger(PERSON).item(first.page) == prior
        assert pane.current.memory_id == first.memory_id and pane.revealed
        assert not pane.grades


async def test_an_undone_skip_comes_back_with_its_answer_hidden(demo):
    """A card skipped before its answer was shown came back revealed on undo: the answer never seen was shown."""
    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = pane.current
        assert not pane.revealed
        await pilot.press("s")
        await decided(pilot)
        assert pane.current.memory_id != first.memory_id
        await pilot.press("u")
        await decided(pilot)
        assert pane.current.memory_id == first.memory_id and not pane.revealed


async def test_a_card_whose_page_was_deleted_leaves_the_session(demo):
    """Its page deleted while the session ran, every key on the card failed with "No such file or directory" and
    the pane stayed on it. The engine says the page is gone, and the card leaves the session."""
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first, gone = pane.cards[0], pane.cards[1]
        (engine.root / gone.page).unlink()
        await pilot.press("space", "3")
        await decided(pilot)
        assert pane.current.memory_id == gone.memory_id
        await pilot.press("s")
        await decided(pilot)
        assert gone.memory_id not in [c.memory_id for c in pane.cards]
        assert pane.current is not None and pane.current.memory_id != first.memory_id
        assert "its page is gone from the wiki" in pane.status.plain
        await pilot.press("space", "3")
        await decided(pilot)
        assert "recorded" in pane.status.plain


async def test_a_card_denied_elsewhere_leaves_the_session_when_graded(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        denied = pane.cards[1]
        prior = engine.read_ledger(PERSON).item(denied.page)
        await pilot.press("space", "3")
        await decided(pilot)
        assert pane.current.memory_id == denied.memory_id
        await pilot.press("space")
        await settle(pilot)  # revealed, its page read: denied only now, the grade is what finds it out
        engine.deny(denied.memory_id, now=NOW, actor="human:other")
        await pilot.press("3")
        await decided(pilot)
        assert denied.memory_id not in [c.memory_id for c in pane.cards]
        assert pane.current is not None and "is denied now: the card left this session" in pane.status.plain
        assert engine.read_ledger(PERSON).item(denied.page) == prior  # not scheduled again


async def test_summary_lists_weak_spots(demo):
    app, engine = demo, demo.engine
    weak = engine.quiz_session(PERSON, now=NOW)[0]
    for days in (3, 2):
        engine.quiz_record(weak.memory_id, "again", now=NOW - timedelta(days=days), actor=app.actor, person=PERSON)
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        assert weak.page in {c.page for c in pane.cards}
        while not pane.finished:
            await pilot.press("space", "1" if pane.current.page == weak.page else "3")
            await decided(pilot)
        assert weak.page in {it.page for it in engine.weak_spots(PERSON)}
        assert "Weak spots" in summary_text(pane) and weak.page in summary_text(pane)


async def test_the_session_is_taken_off_the_ui_thread(demo, monkeypatch):
    """Taking a session builds each card's question (a cloze reads the page's slots): 80-160 ms on a pane's first
    visit, and again for every "study more", with the desk deaf to keys meanwhile. It is taken in a worker; the pane
    says so until the first card is up."""
    app = demo
    session = hold(monkeypatch, app.engine, "quiz_session", timeout=2, closed=True)
    gate, threads = session.gate, session.on_ui_thread
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        await pilot.press("Q")
        await mounted(pilot, QuizScreen)
        await pilot.pause()
        pane = app.screen
        try:
            assert threads == [False]
            assert "Taking today's session" in plain(pane.query_one("#quiz-empty"))
        finally:
            gate.set()
        await settle(pilot)
        assert len(pane.cards) == 7 and pane.current is not None
        assert not pane.query_one("#quiz-empty").display


async def test_the_summary_reads_the_ledger_off_the_ui_thread(demo, monkeypatch):
    """The summary read the person's weak spots and due count, and the empty state the whole ledger, on the UI
    thread at every paint: 80-90 ms each beside a 5,000-row ledger, with the desk deaf to keys meanwhile."""
    app = demo
    on_ui: list[str] = []
    for name in ("weak_spots", "quiz_due_count", "read_ledger"):
        original = getattr(app.engine, name)

        def watched(*args, _name=name, _original=original, **kwargs):
            if threading.current_thread() is threading.main_thread():
                on_ui.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(app.engine, name, watched)
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        await _grade_batch(pilot, pane, "1111111")
        reads = list(on_ui)
        due = app.engine.quiz_due_count(PERSON, now=NOW)  # (asked here, on this thread, after the paint)
        assert f"{due} more due today" in summary_text(pane)
        await pilot.press("3")  # a key on the summary: a paint, no read
        await settle(pilot)
    assert reads == [] and on_ui == ["quiz_due_count"]


async def test_empty_day(empty):
    app = empty
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        assert not pane.cards and pane.choosing  # no ledger yet: the scheduler is asked for first
        await pilot.press("l")
        await settle(pilot)  # the decision, then the session it starts (taken in a worker)
        assert app.engine.read_ledger(PERSON).scheduler == "leitner" and not pane.choosing
        assert "Nothing due today" in plain(pane.query_one("#quiz-empty"))
        await pilot.press("space", "3", "s", "b", "m")
        assert not pane.deciding and not app.undo_stack("quiz")


async def test_a_new_person_chooses_fsrs_and_sees_its_intervals(demo_root):
    app = build_app(demo_root, person="newcomer")
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        assert pane.choosing and pane.query_one("#quiz-setup").display
        text = plain(pane.query_one("#quiz-setup"))
        assert "FSRS" in text and "recommended" in text and "Leitner" in text
        await pilot.press("space", "1", "s", "b")  # no card yet: nothing is decided
        assert not pane.deciding and not app.engine.has_ledger("newcomer")
        await pilot.press("f")
        await settle(pilot)  # the decision, then the session it starts (taken in a worker)
        assert app.engine.read_ledger("newcomer").scheduler == "fsrs"
        assert not pane.choosing and pane.current is not None
        await pilot.press("space")
        row = plain(pane.query_one("#quiz-grade-row"))
        days = pane.current.intervals
        assert days["hard"] < days["good"] < days["easy"]
        for key, grade in (("1", "Again"), ("2", "Hard"), ("3", "Good"), ("4", "Easy")):
            assert f"{key} {grade} {interval_label(days[grade.lower()])}" in row
        assert "Leitner" not in row


async def test_revealed_leitner_card_shows_the_scheduled_intervals(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        card = pane.current
        assert not plain(pane.query_one("#quiz-grade-row")).strip()
        await pilot.press("space")
        row = plain(pane.query_one("#quiz-grade-row"))
        preview = engine.quiz_preview(card.memory_id, PERSON, now=NOW)
        assert card.intervals == preview
        assert f"1 Again {preview['again']}d" in row and f"3 Good {preview['good']}d" in row
        assert "Leitner: hard, good and easy all count as correct" in row
        await pilot.press("3")
        await decided(pilot)
        assert app.undo_stack("quiz")[-1].details["due"] == (NOW.date() + timedelta(days=preview["good"])).isoformat()


async def test_cloze_question_hides_the_value_and_the_answer_highlights_it(demo):
    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await _first_cloze(pilot)
        card = pane.current
        hidden = card.answer[card.cloze[0] : card.cloze[1]]
        question = plain(pane.query_one("#quiz-card"))
        assert "[…]" in question and hidden not in question.replace(card.title, "")
        await pilot.press("space")
        answer = pane.query_one("#quiz-answer-text").content.renderables[0]
        assert answer.plain == card.answer
        assert any((span.start, span.end) == card.cloze and "reverse" in str(span.style) for span in answer.spans)


async def test_bury_takes_the_card_out_for_today_without_a_penalty_and_undoes(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = pane.current
        row = engine.read_ledger(PERSON).item(first.page)
        due_before = app.counts["quiz_due"]
        await pilot.press("b")  # no reveal needed, like skip
        await decided(pilot)
        await settle(pilot)
        receipt = app.undo_stack("quiz")[-1]
        assert (receipt.action, receipt.status) == ("quiz_bury", "buried")
        assert engine.read_ledger(PERSON).item(first.page) == row
        assert pane.current.memory_id != first.memory_id and pane.grades[first.memory_id] == "bury"
        assert first.page not in {c.page for c in engine.quiz_session(PERSON, now=NOW)}
        assert app.counts["quiz_due"] == due_before - 1
        assert "buried 1" in plain(pane.query_one("#quiz-tally"))
        await pilot.press("u")
        await decided(pilot)
        assert pane.current.memory_id == first.memory_id and not pane.revealed
        assert first.page in {c.page for c in engine.quiz_session(PERSON, now=NOW)}


async def test_counts_fall_with_each_grade_and_study_more_loads_the_next_batch(demo):
    app, engine = demo, demo.engine
    hot = engine.root / "hot.md"
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        total = app.counts["quiz_due"]
        assert total > len(pane.cards) == 7
        first_batch = {c.memory_id for c in pane.cards}
        for n in range(1, 8):
            await pilot.press("space", "3")
            await settle(pilot)
            assert app.counts["quiz_due"] == total - n
            assert f"Quiz items due today: **{total - n}**" in hot.read_text()
        assert pane.finished
        text = summary_text(pane)
        assert f"m   study more — {total - 7} more due today" in text
        await pilot.press("m")
        await settle(pilot)
        assert not pane.finished and pane.cards and not pane.grades
        assert not {c.memory_id for c in pane.cards} & first_batch
        assert plain(pane.query_one("#quiz-position")).strip() == f"1/{len(pane.cards)}"


@both_sizes
def test_snapshot_quiz_question(demo, snap_compare, size):
    async def run_before(pilot):
        await open_pane(pilot, "Q", QuizScreen)

    assert snap_compare(demo, run_before=run_before, terminal_size=size)


@both_sizes
def test_snapshot_quiz_revealed(demo, snap_compare, size):
    """The answer revealed, with each grade's next interval under it (the demo ledger is Leitner)."""

    async def run_before(pilot):
        await open_pane(pilot, "Q", QuizScreen)
        await pilot.press("space", "3")
        await decided(pilot)
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.press("space")

    assert snap_compare(demo, run_before=run_before, terminal_size=size)


async def _first_cloze(pilot) -> QuizScreen:
    """Open the quiz and bury cards until one is asked as a cloze; settled, with no toast. The pane."""
    pane = await open_pane(pilot, "Q", QuizScreen)
    while pane.current.cloze is None:
        await pilot.press("b")
        await decided(pilot)
    await settle(pilot)
    pilot.app.clear_notifications()
    return pane


@both_sizes
def test_snapshot_quiz_cloze(demo, snap_compare, size):
    """A question built as a cloze over the page's key value, then revealed with the value highlighted."""

    async def run_before(pilot):
        await _first_cloze(pilot)
        await pilot.pause()

    assert snap_compare(demo, run_before=run_before, terminal_size=size)


def test_snapshot_quiz_cloze_revealed(demo, snap_compare):
    async def run_before(pilot):
        await _first_cloze(pilot)
        await pilot.press("space")

    assert snap_compare(demo, run_before=run_before, terminal_size=NARROW)


@both_sizes
def test_snapshot_quiz_summary(demo, snap_compare, size):
    """The end of a session: tally, accuracy, and "study more" since more is due today."""

    async def run_before(pilot):
        pane = await open_pane(pilot, "Q", QuizScreen)
        for key in ("1", "2", "3", "4", "s", "b", "3"):
            await pilot.press(*(("space", key) if key not in "sb" else (key,)))
            await decided(pilot)
        assert pane.finished
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(demo, run_before=run_before, terminal_size=size)


def test_snapshot_quiz_setup(empty, snap_compare):
    """No ledger yet: the scheduler is chosen first."""

    async def run_before(pilot):
        await open_pane(pilot, "Q", QuizScreen)

    assert snap_compare(empty, run_before=run_before, terminal_size=NARROW)


def test_snapshot_quiz_empty(empty, snap_compare):
    async def run_before(pilot):
        await open_pane(pilot, "Q", QuizScreen)
        await pilot.press("f")
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(empty, run_before=run_before, terminal_size=NARROW)


async def _answer(pilot, keys: str) -> None:
    """Answer cards in turn, one key each (1-4 after a reveal; s and b without one)."""
    for key in keys:
        await pilot.press(*((key,) if key in "sb" else ("space", key)))
        await decided(pilot)


async def _grade_batch(pilot, pane: QuizScreen, keys: str) -> None:
    """Answer the rest of the batch on screen, one key per card, and wait for its summary."""
    await _answer(pilot, keys)
    assert pane.finished
    await settle(pilot)


async def test_study_more_summary_counts_the_whole_sitting(demo):
    """After "study more", the summary at the end of the next batch counted that batch alone ("7 cards · accuracy
    83%"): the first batch's answers, its misses among them, were gone from it. The summary counts every card
    answered since the pane opened and says in how many batches; the progress row still counts the batch."""
    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = list(pane.cards)
        await _grade_batch(pilot, pane, "11s3333")  # 2 again, 1 skip, 4 good
        assert "7 cards · accuracy 67% (4/6 graded) · 1 skipped" in summary_text(pane)
        await pilot.press("m")
        await settle(pilot)
        second = list(pane.cards)
        assert len(second) == 7 and not {c.memory_id for c in second} & {c.memory_id for c in first}
        await _grade_batch(pilot, pane, "41b4444")  # 5 easy, 1 again, 1 buried
        # the batch's own progress
        assert plain(pane.query_one("#quiz-position")).strip() == "7/7"
        tally = " ".join(plain(pane.query_one("#quiz-tally")).split())
        assert tally == "again 1 hard 0 good 0 easy 5 skip 0 buried 1"
        # the sitting's summary
        text = summary_text(pane)
        assert "14 cards in 2 batches · accuracy 75% (9/12 graded) · 1 skipped · 1 buried until tomorrow" in text
        counts = " ".join(text.split())
        assert "1 again 2 hard 3 good 4 easy s skip 3 0 4 5 1" in counts
        for card in (*first, *second):
            assert card.title[:40] in text, card.title


async def test_an_undone_grade_keeps_the_sitting_totals_right(demo):
    """Undo in the next batch reverses the first batch's last grade: that card comes back to be graded again (it
    had stayed counted in the sitting, and the pane stayed on another card), and it counts once."""
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = list(pane.cards)
        prior = engine.read_ledger(PERSON).item(first[-1].page)
        await _grade_batch(pilot, pane, "3333331")
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("u")
        await decided(pilot)
        assert engine.read_ledger(PERSON).item(first[-1].page) == prior
        assert pane.current.memory_id == first[-1].memory_id and pane.revealed
        assert not pane.finished
        await _grade_batch(pilot, pane, "3" * len([c for c in pane.cards if c.memory_id not in pane.grades]))
        text = summary_text(pane)
        assert "14 cards in 2 batches · accuracy 100% (14/14 graded)" in text
        # undone again at the end: the sitting counts 13, one of them still to grade
        last = app.undo_stack("quiz")[-1].details["page"]
        await pilot.press("u")
        await decided(pilot)
        assert pane.current.page == last and not pane.finished
        await pilot.press("1")
        await decided(pilot)
        await settle(pilot)
        assert "14 cards in 2 batches · accuracy 93% (13/14 graded)" in summary_text(pane)


async def test_study_more_while_the_last_grade_is_written_counts_it_once(demo, monkeypatch):
    """`m` shows as soon as the batch's last key is pressed, before that grade is written (up to 2 s at 100k
    records). The next batch, taken meanwhile, offered that card again, and its receipt landed among the next batch's
    answers. The answer belongs to the batch it was given in, and the next batch does not offer the card again."""
    app = demo
    gate = threading.Event()
    original = app.engine.quiz_record

    def record(*args, **kwargs):
        gate.wait(60)
        return original(*args, **kwargs)

    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = list(pane.cards)
        await _answer(pilot, "333333")
        await settle(pilot)
        monkeypatch.setattr(app.engine, "quiz_record", record)
        try:
            await pilot.press("space", "1")
            assert pane.finished and pane.deciding
            await pilot.press("m")
            await wait_for(pilot, lambda: not pane.loading and pane.cards, what="the next batch")
        finally:
            gate.set()
        await decided(pilot)
        await settle(pilot)
        second = list(pane.cards)
        assert first[-1].memory_id not in {c.memory_id for c in second}
        assert not pane.grades and pane.current is not None
        monkeypatch.setattr(app.engine, "quiz_record", original)
        await _grade_batch(pilot, pane, "3" * len(second))
        text = summary_text(pane)
        cards = 7 + len(second)
        assert f"{cards} cards in 2 batches · accuracy {round(100 * (cards - 1) / cards)}% ({cards - 1}/{cards}" in text


# -- what real agents write ------------------------------------------------------------------------------------------


def _session_summary(passes: int = 190) -> str:
    """An agent's ~12 KB session summary: a heading, a line per pass over the logs, and the one fact a cloze can hide
    at the end of the note's opening (the first `quiz.CLOZE_CHARS` characters, all a cloze reads: a value past them is
    not asked), below the first lines of any panel; then the rest of the passes."""
    lines = [
        f"- Looked at the ingest worker logs again, pass {chr(97 + i % 26)}{chr(97 + i // 26)}; nothing new in them."
        for i in range(passes)
    ]
    outcome = ["", "## Outcome", "The retry budget of the ingest worker is 45 attempts.", "", "## Later passes"]
    return "\n".join(["# Session summary 2026-11-28", "", "## What happened", *lines[:10], *outcome, *lines[10:]])


def _screen_text(app) -> str:
    """Every character on the screen, as the person sees it (the screenshot's text, lines run together)."""
    return html.unescape(re.sub(r"<[^>]+>", "", app.export_screenshot())).replace("\xa0", " ")


def _on_screen(app, widget) -> bool:
    """The widget is shown whole between the header and the status line (not pushed off, not squeezed to nothing)."""
    region, status = widget.region, app.screen.query_one("#status").region
    return widget.display and region.height > 0 and region.y >= 1 and region.bottom <= status.y


@pytest.mark.parametrize("size", [NARROW, (160, 45)], ids=["80x24", "160x45"])
async def test_a_long_question_keeps_the_answer_and_the_grade_keys_on_screen(tmp_path, size):
    """A cloze over a 12 KB session summary, and a 4 KB quiz question an agent wrote: the card holds the passage
    around the gap (a card the height of the page pushed the answer and the grades off the screen), and once
    revealed the answer panel and the grade row are on screen."""
    from memkeeper.core import Engine

    engine = Engine.init(tmp_path / "wiki", now=NOW - timedelta(days=2))
    summary = _session_summary()
    assert len(summary.encode()) > 12_000
    r = engine.capture(
        summary,
        now=NOW - timedelta(days=1),
        actor="agent:x",
        title="Session summary",
        category="decision",
        source_type="user_stated",
    )
    assert r.ok, r
    question = "Which of these steps " + " ".join(f"(step {i} of the long runbook)" for i in range(120)) + "?"
    r = engine.capture(
        "The runbook has one hundred and twenty steps.",
        now=NOW - timedelta(days=1),
        actor="agent:x",
        title="Runbook length",
        category="decision",
        source_type="user_stated",
        quiz_question=question,
    )
    assert r.ok, r
    engine.create_ledger(PERSON, "leitner", now=NOW - timedelta(days=1), actor="human:demo")
    engine.close()
    app = build_app(tmp_path / "wiki")
    async with app.run_test(size=size) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        assert len(pane.cards) == 2
        for _ in pane.cards:
            card = pane.current
            box = pane.query_one("#quiz-card")
            cloze = card.cloze is not None
            if cloze:
                shown = plain(box)
                assert "[…]" in shown and len(shown) < len(summary) // 4, "the card shows the passage, not the page"
                assert "[…]" in _screen_text(app), "the gap is in view"
            assert pane.query_one("#quiz-card-box").region.height <= pane.query_one("#quiz-body").region.height // 2
            await pilot.press("space")
            await settle(pilot)
            assert pane.revealed
            grade_row = pane.query_one("#quiz-grade-row")
            assert _on_screen(app, grade_row), (grade_row.region, app.screen.query_one("#status").region)
            assert "3 Good" in grade_row.render().plain
            answer = pane.query_one("#quiz-answer")
            assert _on_screen(app, answer) and answer.region.height >= 3
            if cloze:  # the value the gap hid, at the end of the page, is in view in the answer panel
                assert "45 attempts" in _screen_text(app)
            await pilot.press("3")
            await decided(pilot)
            await settle(pilot)


async def test_switching_the_scheduler_from_the_desk_keeps_every_row_and_undo_switches_back(demo):
    """`F` asks, then changes the ledger's scheduler (the command line's `quiz scheduler`): every row keeps its box
    and due date, the cards left in the batch show the new scheduler's intervals, and `u` switches back."""
    app, engine = demo, demo.engine
    before = engine.read_ledger(PERSON)
    other = "leitner" if before.scheduler == "fsrs" else "fsrs"
    rows = {it.page: (it.box, it.due) for it in before.items}
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        assert pane.scheduler == before.scheduler
        first = pane.current
        await pilot.press("space", "3")  # one card answered under the old scheduler
        await decided(pilot)
        answered = engine.read_ledger(PERSON).item(first.page)
        shown_before = {c.memory_id: c.intervals for c in pane.cards if c.memory_id not in pane.grades}
        await pilot.press("F")
        await mounted(pilot, ConfirmModal)
        assert f"quiz ledger to {other.upper() if other == 'fsrs' else 'Leitner'}" in str(
            app.screen.query_one("#dialog-title").render()
        )
        await pilot.press("y")
        await decided(pilot)
        await settle(pilot)
        after = engine.read_ledger(PERSON)
        assert after.scheduler == other and pane.scheduler == other
        assert {it.page: (it.box, it.due) for it in after.items if it.page != first.page} == {
            p: v for p, v in rows.items() if p != first.page
        }
        assert (after.item(first.page).box, after.item(first.page).due) == (answered.box, answered.due)
        left = [c for c in pane.cards if c.memory_id not in pane.grades]
        assert left and all(c.scheduler == other for c in left)
        assert [c for c in pane.cards if c.memory_id in pane.grades][0].scheduler == before.scheduler
        expected = {c.memory_id: c.intervals for c in engine.quiz_session(PERSON, now=NOW)}
        assert all(c.intervals == expected[c.memory_id] for c in left)
        assert any(c.intervals != shown_before[c.memory_id] for c in left)  # the grade row's intervals are new
        assert app.undo_stack("quiz")[-1].action == "quiz_scheduler"
        await pilot.press("u")
        await decided(pilot)
        await settle(pilot)
        assert engine.read_ledger(PERSON).scheduler == before.scheduler == pane.scheduler
        assert all(c.scheduler == before.scheduler for c in pane.cards)


# -- a page corrected while the session runs (the page is the answer key) ---------------------------------------------


def _correct_page(app, card, content: str) -> None:
    """Correct a card's page by hand, as a person in an editor or another process would: its `## Content` only."""
    path = app.engine.root / card.page
    text = path.read_text(encoding="utf-8")
    old = f"## Content\n{card.answer}\n"
    assert old in text
    path.write_text(text.replace(old, f"## Content\n{content}\n", 1), encoding="utf-8")


async def _told(pilot) -> None:
    """What the watcher does on another process's change: resync the index, refresh the pane on screen; settled."""
    pilot.app.engine.sync()
    pilot.app.wiki_changed()
    await settle(pilot)


def _answer_shown(pane: QuizScreen) -> str:
    return pane.query_one("#quiz-answer-text").content.renderables[0].plain


CORRECTED = "Decided: every Lumen incident gets a pager rotation, and no chat channel."


def test_a_card_read_again_from_an_unchanged_page_is_the_card_of_the_session(demo):
    """The re-read builds what the session built: on a page nobody touched it changes nothing (no "page changed")."""
    engine = demo.engine
    cards = engine.quiz_session(PERSON, now=NOW)
    assert any(c.cloze is not None for c in cards) and any(c.cloze is None for c in cards)
    for card in cards:
        assert card_as_now(card, engine.load(card.memory_id), engine.page_of(card.memory_id)) == card


async def test_an_answer_corrected_by_hand_while_its_card_is_up_is_the_one_revealed(demo_root):
    """Exploratory pass, 2026-12-04: a card on screen, its page corrected by hand; the watcher saw the change and the
    engine read the new text, but space revealed the old answer and the grade was recorded against it. The session
    fixes which cards are asked, not what they say: the card now asks and answers from its page as it is now."""
    app = build_app(demo_root, watch=True)
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        card = pane.current
        old = card.answer
        events = app.watch_events
        _correct_page(app, card, CORRECTED)
        await wait_for(pilot, lambda: app.watch_events > events, timeout=15, what="the watcher to see the edit")
        await settle(pilot)
        assert pane.current.memory_id == card.memory_id and pane.current.answer == CORRECTED
        await pilot.press("space")
        await settle(pilot)
        assert _answer_shown(pane) == CORRECTED and old not in _screen_text(app)
        assert CORRECTED in _screen_text(app)
        await pilot.press("3")
        await decided(pilot)
        receipt = app.undo_stack("quiz")[-1]
        assert (receipt.status, receipt.details["memory_id"]) == ("recorded", card.memory_id)


async def test_a_revealed_answer_follows_its_page_and_says_the_page_changed(demo):
    """The answer on screen when its page is corrected (an agent writes): the panel shows the page as it is now and
    says it changed; the grade goes to the ledger with the question asked from it (a cloze hides a new value)."""
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await _first_cloze(pilot)
        card = pane.current
        await pilot.press("space")
        await settle(pilot)
        assert _answer_shown(pane) == card.answer and not pane.query_one("#quiz-answer").border_subtitle
        content = "Decided: Tessera authenticates users through Okta, with sessions that last 12 hours."
        _correct_page(app, card, content)
        await _told(pilot)
        now = pane.current
        assert now.memory_id == card.memory_id and pane.revealed
        assert _answer_shown(pane) == content and now.question != card.question and "Okta" in now.question
        assert content[now.cloze[0] : now.cloze[1]] == "12 hours"
        assert "changed" in pane.query_one("#quiz-answer").border_subtitle
        assert "its page changed" in pane.status.plain
        assert now.intervals == card.intervals and now.reason == card.reason  # its place in the session stays
        await pilot.press("3")
        await decided(pilot)
        assert engine.read_ledger(PERSON).item(card.page).last_q == now.question


async def test_a_reveal_reads_the_page_when_no_refresh_came(demo, monkeypatch):
    """The desk was not told of the edit (a watcher event still to come, or one taken for the echo of the desk's own
    write): the reveal reads the card's record again, in a worker, and shows the page as it is now."""
    app = demo
    threads: list[bool] = []
    original = app.engine.load

    def load(memory_id):
        threads.append(threading.current_thread() is threading.main_thread())
        return original(memory_id)

    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        await pilot.press("space", "3")  # a decision of the desk's own first
        await decided(pilot)
        await settle(pilot)
        card = pane.current
        _correct_page(app, card, CORRECTED.replace("Lumen", "Quill"))
        monkeypatch.setattr(app.engine, "load", load)
        await pilot.press("space")
        await settle(pilot)
        assert pane.current.memory_id == card.memory_id
        assert _answer_shown(pane) == CORRECTED.replace("Lumen", "Quill")
        assert "changed" in pane.query_one("#quiz-answer").border_subtitle
        assert threads and not any(threads), "the record is read off the UI thread"


async def test_a_card_not_yet_shown_asks_from_its_page_as_it_is_now(demo):
    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first, later = pane.cards[0], pane.cards[2]
        await pilot.press("space")
        _correct_page(app, later, CORRECTED)
        await _told(pilot)
        # The card on screen stays as it was (revealed, no note); the later one is read again.
        assert pane.current == first and pane.revealed and not pane.query_one("#quiz-answer").border_subtitle
        assert "changed" not in pane.status.plain
        await _answer(pilot, "33")
        assert pane.current.memory_id == later.memory_id and pane.current.answer == CORRECTED
        await pilot.press("space")
        await settle(pilot)
        assert _answer_shown(pane) == CORRECTED
        assert not pane.query_one("#quiz-answer").border_subtitle  # it changed before it came up


async def test_a_card_denied_or_deleted_elsewhere_leaves_the_session_when_the_desk_hears_of_it(demo):
    """Once the desk hears of the change, not only when the card is graded: the card leaves with the same line,
    and the card on screen stays as it was."""
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first, denied, gone = pane.cards[0], pane.cards[2], pane.cards[4]
        await pilot.press("space")
        engine.deny(denied.memory_id, now=NOW, actor="human:other")
        await _told(pilot)
        assert denied.memory_id not in [c.memory_id for c in pane.cards]
        assert f"{denied.title} is denied now: the card left this session" in pane.status.plain
        assert pane.current.memory_id == first.memory_id and pane.revealed
        (engine.root / gone.page).unlink()
        await _told(pilot)
        assert gone.memory_id not in [c.memory_id for c in pane.cards] and len(pane.cards) == 5
        assert "its page is gone from the wiki" in pane.status.plain
        assert pane.current.memory_id == first.memory_id and pane.revealed


async def test_a_desk_left_open_overnight_takes_the_new_days_session(demo_root):
    """A batch finished, the desk left open past midnight (UTC): the summary said "8 more due today", but `m` said
    "Nothing else is due today": yesterday's cards, due again, were left out as cards of an earlier batch."""
    clock = [NOW]
    app = build_app(demo_root, now=lambda: clock[0])
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = [c.memory_id for c in pane.cards]
        await _grade_batch(pilot, pane, "1111111")  # all missed: due again tomorrow
        clock[0] = NOW + timedelta(days=1)
        await pilot.press("m")
        await settle(pilot)
        due = [c.memory_id for c in app.engine.quiz_session(PERSON, now=clock[0])]
        assert [c.memory_id for c in pane.cards] == due and set(first) <= set(due)
        assert "Next batch: 7 cards." in pane.status.plain
        # a new sitting: yesterday's answers are not in today's summary
        await _grade_batch(pilot, pane, "3333333")
        assert "7 cards · accuracy 100% (7/7 graded)" in summary_text(pane)
        # and ctrl+r on a finished batch the next morning starts that day's session too
        clock[0] = NOW + timedelta(days=2)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert not pane.finished and pane.current is not None
        assert [c.memory_id for c in pane.cards] == [c.memory_id for c in app.engine.quiz_session(PERSON, now=clock[0])]


async def test_the_desk_turns_the_quiz_day_at_the_persons_own_midnight(demo_root):
    """With the person's zone set (`memkeeper quiz zone Asia/Tokyo`), a batch missed at 18:00 in Tokyo comes back
    after midnight there (16:00 UTC, the same UTC day): `m` takes the new day's session."""
    from memkeeper.core import Engine

    eng = Engine.open(demo_root)
    try:
        assert eng.set_quiz_zone(PERSON, "Asia/Tokyo", now=NOW, actor="human:demo").status == "changed"
    finally:
        eng.close()
    clock = [NOW]
    app = build_app(demo_root, now=lambda: clock[0])
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = [c.memory_id for c in pane.cards]
        await _grade_batch(pilot, pane, "1111111")  # all missed: due again on the 30th, Tokyo's
        clock[0] = NOW + timedelta(hours=6)  # 00:00 UTC is 9 hours away; 00:00 in Tokyo was an hour ago
        await pilot.press("m")
        await settle(pilot)
        due = [c.memory_id for c in app.engine.quiz_session(PERSON, now=clock[0])]
        assert [c.memory_id for c in pane.cards] == due and set(first) <= set(due)
        assert "Next batch:" in pane.status.plain


@pytest.mark.parametrize("how", ["cold", "expired"])
async def test_a_card_gone_cold_or_expired_on_screen_leaves_the_session(demo, how):
    """Its record made cold (or past its expiry) while the card was on screen: every grade and skip was refused
    (`record_not_in_rotation`) and the same card came back; only bury got past it."""
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        card = pane.current
        prior = engine.read_ledger(PERSON).item(card.page)
        await pilot.press("space")
        await settle(pilot)  # revealed, its page read: out of the rotation only now, the grade finds it out
        out_of_rotation(engine, card.memory_id, how, NOW)
        await pilot.press("3")
        await decided(pilot)
        assert card.memory_id not in [c.memory_id for c in pane.cards]
        assert pane.current is not None and pane.current.memory_id != card.memory_id
        assert f"{card.title} is " in pane.status.plain and "the card left this session" in pane.status.plain
        assert engine.read_ledger(PERSON).item(card.page) == prior  # not scheduled
        await pilot.press("space", "3")
        await decided(pilot)
        assert "recorded" in pane.status.plain


async def test_a_card_revealed_the_next_day_shows_that_days_intervals(demo_root):
    """Under FSRS a card's intervals depend on the day it is answered. Taken before midnight (UTC) and revealed
    after, the grade keys still showed the intervals of the day before, and the answer recorded others."""
    clock = [NOW]
    app = build_app(demo_root, now=lambda: clock[0])
    engine = app.engine
    engine.set_scheduler(PERSON, "fsrs", now=NOW, actor="human:other")
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        tomorrow = NOW + timedelta(days=1)
        # a card last answered right (carried into FSRS in review): its intervals move with the day it is answered
        card = next(c for c in pane.cards if engine.quiz_preview(c.memory_id, PERSON, now=tomorrow) != c.intervals)
        preview = engine.quiz_preview(card.memory_id, PERSON, now=tomorrow)
        while pane.current.memory_id != card.memory_id:  # the cards before it, buried
            await pilot.press("b")
            await decided(pilot)
        clock[0] = tomorrow
        await pilot.press("space")
        await settle(pilot)
        assert pane.current.memory_id == card.memory_id and pane.current.intervals == preview
        await pilot.press("3")
        await decided(pilot)
        row = engine.read_ledger(PERSON).item(card.page)
        assert (row.due - tomorrow.date()).days == preview["good"]


async def undo_in_the_receipts_pane(pilot, sha: str) -> None:
    """Open the Receipts pane, put the cursor on the receipt `sha` and undo it there (after its confirmation)."""
    from memkeeper.tui.screens.receipts import ReceiptsScreen

    await pilot.press("R")
    await mounted(pilot, ReceiptsScreen)
    receipts = pilot.app.screen
    await wait_for(pilot, lambda: any(r.sha == sha for r in receipts.shown_rows), what="the answer's receipt")
    receipts.table.move_cursor(row=next(i for i, r in enumerate(receipts.shown_rows) if r.sha == sha))
    await pilot.pause()
    await pilot.press("u")
    await mounted(pilot, ConfirmModal)
    await pilot.press("y")
    await decided(pilot)
    await settle(pilot)


async def test_answers_undone_in_the_receipts_pane_on_two_visits_both_come_back(demo):
    """The pane reads the receipts from where its last reading stopped: an answer undone on a second visit to the
    Receipts pane is found as the first was."""

    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        cards = list(pane.cards[:2])
        await _grade_batch(pilot, pane, "3333333")
        shas = {c.memory_id: pane.receipts[c.memory_id].receipt_sha256 for c in cards}
        for card in cards:
            await undo_in_the_receipts_pane(pilot, shas[card.memory_id])
            await pilot.press("Q")
            await mounted(pilot, QuizScreen)
            await settle(pilot)
            assert pane.current is not None and pane.current.memory_id == card.memory_id and pane.revealed
            await pilot.press("1")
            await decided(pilot)
            await settle(pilot)
        assert "7 cards · accuracy 71% (5/7 graded)" in summary_text(pane)


async def test_an_answer_undone_in_the_receipts_pane_leaves_the_sitting_and_comes_back(demo):
    """An older answer undone in the Receipts pane: the summary still counted it, and "study more" left its card
    out as one an earlier batch held. Back in the pane, the answer leaves the totals and the card is asked again."""

    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = pane.cards[0]
        prior = app.engine.read_ledger(PERSON).item(first.page)
        await _grade_batch(pilot, pane, "3333333")
        assert "7 cards · accuracy 100% (7/7 graded)" in summary_text(pane)
        await undo_in_the_receipts_pane(pilot, pane.receipts[first.memory_id].receipt_sha256)
        assert app.engine.read_ledger(PERSON).item(first.page) == prior  # the engine undid it
        await pilot.press("Q")
        await mounted(pilot, QuizScreen)
        await settle(pilot)
        assert pane.current is not None and pane.current.memory_id == first.memory_id and pane.revealed
        assert first.memory_id not in pane.grades
        await pilot.press("1")
        await decided(pilot)
        await settle(pilot)
        assert "7 cards · accuracy 86% (6/7 graded)" in summary_text(pane)


async def test_an_answer_given_again_in_the_second_of_its_undo_stands_after_a_return_to_the_pane(demo):
    """`3 u 3` inside one second (the desk's clock is fixed here): the second answer's receipt was the first one's,
    which the undo names, so back in the pane the standing answer was taken for undone and left the totals."""

    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first = pane.current
        for keys in (("space", "3"), ("u",), ("3",)):
            await pilot.press(*keys)
            await decided(pilot)
        assert list(pane.grades) == [first.memory_id]
        await pilot.press("B")
        await settle(pilot)
        await pilot.press("Q")
        await mounted(pilot, QuizScreen)
        await settle(pilot)
        assert list(pane.grades) == [first.memory_id]
        assert app.engine.read_ledger(PERSON).item(first.page).last_result == "correct"


@pytest.mark.parametrize("size", [NARROW, (120, 34)], ids=["80x24", "120x34"])
async def test_a_card_key_that_does_nothing_is_dimmed_and_pressed_says_why(demo, size):
    """Exploratory pass, 2026-12-05: a grade before the reveal, and every card key on the summary, did nothing and
    said nothing (the footer only dimmed them), which reads as a broken key. Each is dimmed in the footer and,
    pressed, says why in one whole line; nothing is recorded."""
    app = demo
    async with app.run_test(size=size) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        card = pane.current
        for key, action in [("1", "grade('again')"), ("3", "grade('good')"), ("4", "grade('easy')")]:
            assert footer_state(pane, action) is False, action
            pane.say("")
            await pilot.press(key)
            assert status_line(pane).startswith("Reveal first (space)"), (key, status_line(pane))
        assert footer_state(pane, "grade('skip')") and footer_state(pane, "bury") and footer_state(pane, "reveal")
        assert pane.current == card and not pane.revealed and not pane.grades and not app.undo_stack("quiz")
        await pilot.press("space")
        assert footer_state(pane, "grade('good')") and footer_state(pane, "reveal") is False
        pane.say("")
        await pilot.press("space")
        assert status_line(pane).startswith(("The answer is shown: grade it (1-4)", "Grade it (1-4)")), status_line(
            pane
        )
        await _grade_batch(pilot, pane, "3333333")
        assert pane.query_one("#quiz-summary").display and pane.remaining
        receipts = len(app.undo_stack("quiz"))
        for key, action in [("space", "reveal"), ("3", "grade('good')"), ("s", "grade('skip')"), ("b", "bury")]:
            assert footer_state(pane, action) is False, action
            pane.say("")
            await pilot.press(key)
            assert status_line(pane).startswith("Session done: m studies more"), (key, status_line(pane))
        await pilot.press("a")
        assert status_line(pane).startswith("Session done: m studies more") and app.focused is None
        assert len(app.undo_stack("quiz")) == receipts and pane.finished


async def test_a_card_answered_or_buried_elsewhere_today_leaves_the_session(demo):
    """Exploratory pass, 2026-12-05: a card graded from the command line while the desk showed it stayed "new · never
    asked", its grade keys promised the first answer's intervals, and a grade recorded a second answer the same day
    with another interval. Once the desk hears of it (a refresh, or the reveal's read of the card), a card answered
    or buried today elsewhere leaves the batch with a line that says so; the card on screen gives way to the next."""
    app, engine = demo, demo.engine
    other = f"human:{PERSON}"
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        first, later, buried = pane.cards[0], pane.cards[2], pane.cards[3]
        engine.quiz_record(first.memory_id, "again", now=NOW, actor=other, person=PERSON)
        engine.quiz_bury(later.memory_id, now=NOW, actor=other, person=PERSON)
        await _told(pilot)
        ids = [c.memory_id for c in pane.cards]
        assert first.memory_id not in ids and later.memory_id not in ids and len(ids) == 5
        assert pane.current is not None and pane.current.memory_id == pane.cards[0].memory_id and not pane.revealed
        assert "was answered elsewhere today" in pane.status.plain or "was buried elsewhere today" in pane.status.plain
        # Not told (no watcher event yet): the reveal reads the card and finds it answered.
        engine.quiz_record(buried.memory_id, "good", now=NOW, actor=other, person=PERSON)
        while pane.current.memory_id != buried.memory_id:
            await pilot.press("space", "3")
            await decided(pilot)
        await pilot.press("space")
        await settle(pilot)
        assert buried.memory_id not in [c.memory_id for c in pane.cards]
        assert f"{buried.title} was answered elsewhere today" in pane.status.plain
        assert pane.current is not None and pane.current.memory_id != buried.memory_id and not pane.revealed
        # The card now on screen records the interval its key shows.
        card = pane.current
        await pilot.press("space")
        await settle(pilot)
        await pilot.press("3")
        await decided(pilot)
        row = engine.read_ledger(PERSON).item(card.page)
        assert (row.due - NOW.date()).days == card.intervals["good"]
    ledger = engine.read_ledger(PERSON)
    assert ledger.item(first.page).asked == (first.asked + 1) and ledger.item(buried.page).asked == buried.asked + 1

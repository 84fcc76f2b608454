from __future__ import annotations

import re
from datetime import timedelta

import pytest

from memkeeper.core import BadInput, quiz
from tests.conftest import T0, out_of_rotation

HUMAN = "human:alice"
TEXTS = [
    "Long term, the billing monolith gets split along the invoicing boundary.",
    "Decided: background jobs run on a Redis stream rather than Celery.",
    "The public API allows 600 requests per minute for each token.",
    "Harbor reached public beta with twelve design partners onboarded.",
    "Run schema migrations before deploying code that reads the new columns.",
    "Priya prefers pull requests under 400 lines with a linked issue.",
    "Kenji owns the search service, including on-call and release notes.",
    "Only one geocoding vendor is under contract, with no fallback.",
    "Most flaky tests come from shared fixtures leaking temp directories.",
    "The on-call rotation hands over on Mondays at 10:00 Berlin time.",
]


def seed(eng, n=9, **kw):
    ids = []
    cats = ["direction", "decision", "fact", "milestone", "lesson", "preference", "project", "risk", "insight", "fact"]
    for i in range(n):
        r = eng.capture(TEXTS[i], now=T0 - timedelta(days=i), category=cats[i], title=f"Quiz fact {i}", **kw)
        assert r.status == "captured", r.details
        ids.append(r.details["memory_id"])
    return ids


def test_session_limit_and_new_weights(eng):
    ids = seed(eng, 10)
    cards = eng.quiz_session("alice", now=T0)
    assert len(cards) == 7
    assert cards[0].memory_id == ids[0]  # direction first (weight 4)
    assert cards[1].memory_id == ids[1]  # decision (3)
    assert all(c.reason == "new" for c in cards)
    assert ids[3] not in [c.memory_id for c in cards]  # milestone has the lowest weight


def test_record_writes_ledger_and_notebook(eng):
    ids = seed(eng, 3)
    r = eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN, answer="three replicas")
    assert r.status == "recorded" and r.details["box"] == 1 and r.details["due"] == "2026-11-23"
    ledger = quiz.parse_ledger((eng.root / "quiz" / "quiz-ledger.alice.md").read_text())
    assert ledger.items[0].page == eng.page_of(ids[0]) and ledger.items[0].asked == 1
    nb = (eng.root / "quiz" / "2026-11-20.alice.md").read_text()
    assert "three replicas" in nb and "Quiz fact 0" in nb
    # answered today → excluded from today's session
    assert ids[0] not in [c.memory_id for c in eng.quiz_session("alice", now=T0)]
    # due again three days later
    later = eng.quiz_session("alice", now=T0 + timedelta(days=3))
    assert later[0].memory_id == ids[0] and later[0].reason == "due"


def test_wrong_comes_first_and_skip_counts_as_asked(eng):
    ids = seed(eng, 4)
    eng.quiz_record(ids[2], "good", now=T0, actor=HUMAN)
    eng.quiz_record(ids[3], "skip", now=T0, actor=HUMAN)
    item = quiz.parse_ledger((eng.root / "quiz" / "quiz-ledger.alice.md").read_text()).item(eng.page_of(ids[3]))
    assert (item.asked, item.correct, item.box, item.last_result) == (1, 0, 0, "skip")
    cards = eng.quiz_session("alice", now=T0 + timedelta(days=3))
    assert [c.reason for c in cards[:2]] == ["due-wrong", "due"]
    assert cards[0].memory_id == ids[3]


def test_superseded_and_cold_leave_rotation_and_vanished_pruned(eng):
    ids = seed(eng, 3)
    for m in ids:
        eng.quiz_record(m, "good", now=T0, actor=HUMAN)
    e = eng.load(ids[1])
    e.tier = e.tier.__class__("cold")
    with eng.writing():
        eng.save(e)
    (eng.root / eng.page_of(ids[2])).unlink()
    eng.sync()
    cards = eng.quiz_session("alice", now=T0 + timedelta(days=3))
    assert [c.memory_id for c in cards] == [ids[0]]
    r = eng.quiz_record(ids[0], "good", now=T0 + timedelta(days=3), actor=HUMAN)
    assert r.details["pruned"] == ["entries/quiz-fact-2.md"]


def test_undoing_an_answer_brings_back_the_rows_it_pruned(eng):
    """A page missing when another card was answered lost its row (SPEC §5.3 prunes vanished pages); undoing that
    answer said "the ledger is as before it" and the row stayed gone, its history lost once the page came back."""
    ids = seed(eng, 3)
    for m in ids:
        eng.quiz_record(m, "good", now=T0, actor=HUMAN)
    page = eng.root / eng.page_of(ids[2])
    row = eng.read_ledger("alice").item(eng.page_of(ids[2]))
    text = page.read_text()
    page.unlink()
    eng.sync()
    r = eng.quiz_record(ids[0], "good", now=T0 + timedelta(days=3), actor=HUMAN)
    assert r.details["pruned"] == ["entries/quiz-fact-2.md"]
    page.write_text(text)  # restored, as check says to
    eng.sync()
    assert eng.undo(r.receipt_sha256, now=T0 + timedelta(days=3, hours=1), actor=HUMAN).status == "undone"
    assert eng.read_ledger("alice").item("entries/quiz-fact-2.md") == row


def test_undo_quiz_record(eng):
    ids = seed(eng, 2)
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    r = eng.quiz_record(ids[0], "again", now=T0 + timedelta(days=3), actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0 + timedelta(days=3), actor=HUMAN)
    item = eng.read_ledger("alice").item(eng.page_of(ids[0]))
    assert (item.box, item.asked, item.last_result) == (1, 1, "correct")


def test_an_undone_answer_is_marked_in_the_notebook(eng):
    """The notebook is append-only: an answer taken back stays, followed by a line saying it no longer counts (it
    read "Verdict: skip" then "Verdict: correct" with nothing to say the skip was undone)."""
    ids = seed(eng, 2)
    skip = eng.quiz_record(ids[0], "skip", now=T0, actor=HUMAN)
    eng.undo(skip.receipt_sha256, now=T0 + timedelta(minutes=1), actor=HUMAN)
    eng.quiz_record(ids[0], "good", now=T0 + timedelta(minutes=2), actor=HUMAN)
    notebook = (eng.root / "quiz" / f"{T0.date().isoformat()}.alice.md").read_text()
    skipped, undone = notebook.index("**Verdict:** skip"), notebook.index("_Undone at 09:01 UTC")
    assert skipped < undone < notebook.index("**Verdict:**", undone)  # the answer, its undo, the answer after
    assert f"answer of 09:00 on [{eng.page_of(ids[0])}]" in notebook


def test_fsrs_ledger(eng):
    ids = seed(eng, 2)
    assert eng.create_ledger("bob", "fsrs", now=T0, actor="human:bob").status == "created"
    r = eng.quiz_record(ids[0], "easy", now=T0, actor="human:bob")
    assert r.status == "recorded"
    ledger = eng.read_ledger("bob")
    assert ledger.scheduler == "fsrs" and ledger.items[0].fsrs is not None
    assert ledger.items[0].due > T0.date()


def test_quiz_files_never_retrieved(eng):
    ids = seed(eng, 1)
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN, answer="zebrafish")
    assert eng.retrieve("zebrafish", now=T0, record_access=False).details["results"] == []


def hot_quiz_line(eng) -> str:
    return next(line for line in (eng.root / "hot.md").read_text().splitlines() if "Quiz items due today" in line)


def test_due_count_falls_with_each_answer_past_the_session_cap(eng):
    ids = seed(eng, 10)
    assert len(eng.quiz_session("alice", now=T0)) == 7
    assert eng.quiz_due_count("alice", now=T0) == 10
    for n, mid in enumerate(ids[:7], start=1):
        eng.quiz_record(mid, "good", now=T0, actor=HUMAN)
        assert eng.quiz_due_count("alice", now=T0) == 10 - n
        assert eng.counts(T0, person="alice")["quiz_due"] == 10 - n
    # hot.md is regenerated with the ledger as it now stands (the only ledger is alice's, and it says whose).
    assert hot_quiz_line(eng) == "- Quiz items due today: **3** (alice's ledger)"
    # The next batch is the rest.
    assert {c.memory_id for c in eng.quiz_session("alice", now=T0)} == set(ids[7:])


def test_bury_hides_a_card_until_tomorrow_without_touching_its_row(eng):
    ids = seed(eng, 3)
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    later = T0 + timedelta(days=3)
    page = eng.page_of(ids[0])
    row = eng.read_ledger("alice").item(page)
    assert ids[0] in [c.memory_id for c in eng.quiz_session("alice", now=later)]
    before = eng.quiz_due_count("alice", now=later)

    r = eng.quiz_bury(ids[0], now=later, actor=HUMAN)
    assert (r.action, r.status) == ("quiz_bury", "buried")
    assert r.details["page"] == page and r.details["until"] == (later.date() + timedelta(days=1)).isoformat()
    assert eng.read_ledger("alice").item(page) == row  # no penalty: box, asked, correct as they were
    assert ids[0] not in [c.memory_id for c in eng.quiz_session("alice", now=later)]
    assert eng.quiz_due_count("alice", now=later) == before - 1
    assert hot_quiz_line(eng).startswith(f"- Quiz items due today: **{before - 1}** (")
    # Tomorrow it is due again, as it was.
    tomorrow = later + timedelta(days=1)
    assert ids[0] in [c.memory_id for c in eng.quiz_session("alice", now=tomorrow)]


@pytest.mark.parametrize("how", ["denied", "cold", "expired"])
def test_a_record_no_session_offers_is_not_buried(eng, how):
    """Burying a denied, cold or expired record was "buried until tomorrow": a burial written for a card no session
    would offer, back tomorrow for no one. Refused as an answer to it is, with the same reason."""
    ids = seed(eng, 2)
    if how == "denied":
        eng.deny(ids[0], now=T0, actor=HUMAN)
    else:
        out_of_rotation(eng, ids[0], how, T0)
    ledger = eng.root / "quiz" / "quiz-ledger.alice.md"
    before = ledger.read_text() if ledger.exists() else None
    r = eng.quiz_bury(ids[0], now=T0, actor=HUMAN)
    answer = eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    assert (r.status, r.details["reason"]) == ("reject", answer.details["reason"])
    assert r.details["reason"] == ("record_not_active" if how == "denied" else "record_not_in_rotation")
    assert (ledger.read_text() if ledger.exists() else None) == before
    assert eng.quiz_bury(ids[1], now=T0, actor=HUMAN).status == "buried"  # one in the rotation is


def test_undo_bury_puts_the_card_back(eng):
    ids = seed(eng, 2)
    r = eng.quiz_bury(ids[1], now=T0, actor=HUMAN)
    assert ids[1] not in [c.memory_id for c in eng.quiz_session("alice", now=T0)]
    assert eng.is_undoable("quiz_bury")
    u = eng.undo(r.receipt_sha256, now=T0, actor=HUMAN)
    assert u.status == "undone", u.details
    assert ids[1] in [c.memory_id for c in eng.quiz_session("alice", now=T0)]
    assert "buried" not in (eng.root / "quiz" / "quiz-ledger.alice.md").read_text()


def test_cards_carry_grade_previews_and_the_cloze_span(eng):
    ids = seed(eng, 10)
    eng.create_ledger("bob", "fsrs", now=T0, actor="human:bob")
    cards = {c.memory_id: c for c in eng.quiz_session("bob", now=T0)}
    card = cards[ids[2]]  # "The public API allows 600 requests per minute for each token."
    assert card.cloze is not None and card.answer[card.cloze[0] : card.cloze[1]] == "600 requests per minute"
    assert card.question == card.answer.replace("600 requests per minute", "[…]")
    assert card.scheduler == "fsrs"
    assert card.intervals == eng.quiz_preview(ids[2], "bob", now=T0)
    assert card.intervals["hard"] < card.intervals["good"] < card.intervals["easy"]
    # The preview is what the answer then does.
    r = eng.quiz_record(ids[2], "good", now=T0, actor="human:bob", question=card.question)
    assert r.details["due"] == (T0.date() + timedelta(days=card.intervals["good"])).isoformat()
    assert eng.read_ledger("bob").item(card.page).last_q == card.question


def test_has_ledger(eng):
    assert not eng.has_ledger("carol")
    eng.create_ledger("carol", "fsrs", now=T0, actor="human:carol")
    assert eng.has_ledger("Carol")


def test_a_record_past_its_expiry_is_never_asked(eng):
    """A temporary fact that has run out ("the VPN is down this week") is not worth rehearsing: not offered as a new
    card, not asked again when due, and not counted as due."""
    ids = seed(eng, 3)
    temp = eng.capture(
        "The VPN is down this week while the office firewall is replaced.",
        now=T0 - timedelta(days=3),
        category="direction",
        title="VPN outage",
        expires_at="2026-11-19T00:00:00Z",  # T0 is 2026-11-20
    ).details["memory_id"]
    before = [c.memory_id for c in eng.quiz_session("alice", now=T0 - timedelta(days=2))]
    assert temp in before  # before its expiry it is asked
    for c in eng.quiz_session("alice", now=T0 - timedelta(days=2)):
        eng.quiz_record(c.memory_id, "wrong", now=T0 - timedelta(days=2), actor=HUMAN, person="alice")
    later = T0 + timedelta(days=1)  # every card is due again; the VPN note has expired
    cards = [c.memory_id for c in eng.quiz_session("alice", now=later)]
    assert temp not in cards and set(cards) == set(ids)
    assert eng.quiz_due_count("alice", now=later) == len(ids)


def test_a_record_expiring_later_in_the_same_second_is_still_asked(eng):
    """Stamps are ISO text in the index, and "…00.5Z" sorts before "…00Z": a record expiring half a second after a
    whole-second now was left out of the session by the query that picks new cards, though it had not expired."""
    seed(eng, 2)
    temp = eng.capture(
        "The VPN is down this week while the office firewall is replaced.",
        now=T0 - timedelta(days=3),
        category="direction",
        title="VPN outage",
        expires_at=(T0 + timedelta(milliseconds=500)).isoformat(),
    ).details["memory_id"]
    assert T0.microsecond == 0 and eng.load(temp).expires_at == T0 + timedelta(milliseconds=500)
    assert temp in [c.memory_id for c in eng.quiz_session("alice", now=T0)]
    assert temp not in [c.memory_id for c in eng.quiz_session("alice", now=T0 + timedelta(seconds=1))]


def test_hot_md_says_whose_quiz_count_it_shows(eng):
    """hot.md is one page for everyone: its quiz count is the largest of the persons' and names whose it is, so it
    does not read as a contradiction of the desk's header (which counts for the person at the desk)."""
    ids = seed(eng, 9)
    assert "(" not in hot_quiz_line(eng)  # no ledger yet: every page is new to anyone
    for mid in ids[:5]:
        eng.quiz_record(mid, "good", now=T0, actor="human:bob")
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    assert eng.quiz_due_count("alice", now=T0) > eng.quiz_due_count("bob", now=T0)
    assert hot_quiz_line(eng) == f"- Quiz items due today: **{eng.quiz_due_count('alice', now=T0)}** (alice's ledger)"


LEDGER = "quiz/quiz-ledger.alice.md"

# Hand edits that make a row unreadable (SPEC §5.3: skipped and reported by check), as (old, new) on its marker.
BAD_ROWS = {
    "bad_due": ('"due":"2026-11-23"', '"due":"2026-11-3"'),
    "unparseable_marker": ('"box":1,', '"box":1,,'),
    "box_out_of_range": ('"box":1,', '"box":9,'),
    "path_escaping_the_wiki": ('"page":"entries/quiz-fact-0.md"', '"page":"../outside/quiz-fact-0.md"'),
}


def _ledger_rows(eng) -> list[str]:
    return [line for line in (eng.root / LEDGER).read_text().splitlines() if "<!--" in line and "quiz:" in line]


def _quiz_problems(eng) -> list[str]:
    """check's quiz-ledger problems without their line numbers (a rewrite may move a row down a line)."""
    report = eng.check()
    return sorted(re.sub(r": line \d+: ", ": ", p) for p in report.problems if p.startswith(LEDGER))


@pytest.mark.parametrize("kind", sorted(BAD_ROWS))
def test_an_unreadable_row_survives_every_rewrite_of_the_ledger(eng, kind):
    """A row the engine cannot read was silently dropped by the next answer (and its evidence with it: check then
    said ok). It is kept byte for byte in its place, stays reported, is never pruned, and undo leaves it too —
    even once its record is gone (a person decides)."""
    ids = seed(eng, 2)
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    path = eng.root / LEDGER
    old, new = BAD_ROWS[kind]
    text = path.read_text()
    assert text.count(old) == 1
    path.write_text(text.replace(old, new))
    [bad] = _ledger_rows(eng)
    problems = _quiz_problems(eng)
    assert len(problems) == 1, problems

    def assert_kept(n_rows: int) -> None:
        rows = _ledger_rows(eng)
        assert rows[0] == bad and len(rows) == n_rows  # byte for byte, still the first row
        assert _quiz_problems(eng) == problems  # still reported, and nothing new

    r = eng.quiz_record(ids[1], "good", now=T0 + timedelta(days=1), actor=HUMAN)
    assert r.status == "recorded" and r.details["pruned"] == []
    assert_kept(2)
    assert eng.read_ledger("alice").item(eng.page_of(ids[1])).asked == 1
    u = eng.undo(r.receipt_sha256, now=T0 + timedelta(days=1), actor=HUMAN)
    assert u.status == "undone", u.details
    assert_kept(1)

    # Its record gone, the row would be pruned if it could be read: it is kept anyway.
    page0 = eng.page_of(ids[0])
    (eng.root / page0).unlink()
    eng.sync()
    r = eng.quiz_record(ids[1], "again", now=T0 + timedelta(days=2), actor=HUMAN)
    assert r.status == "recorded" and r.details["pruned"] == []
    assert_kept(2)
    u = eng.undo(r.receipt_sha256, now=T0 + timedelta(days=2), actor=HUMAN)
    assert u.status == "undone", u.details
    assert_kept(1)  # the page's only answer is undone: the bad row is what is left


@pytest.mark.parametrize(
    "old, new",
    [
        ("scheduler: fsrs", "scheduler: [fsrs"),  # a typo: the frontmatter no longer parses
        ("scheduler: fsrs", "scheduler: fsr"),  # no known scheduler
    ],
)
def test_a_ledger_whose_frontmatter_cannot_be_read_is_never_rewritten(eng, old, new):
    """One typo in the ledger's frontmatter and the next answer rewrote it as a default ledger: leitner instead of
    fsrs, the buried cards and every other key gone, and check then said ok. Writes now refuse it in one line;
    reads (counts, the session) go on."""
    ids = seed(eng, 3)
    eng.create_ledger("alice", "fsrs", now=T0, actor=HUMAN)
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    eng.quiz_bury(ids[1], now=T0, actor=HUMAN)
    path = eng.root / LEDGER
    text = path.read_text()
    assert old in text and "buried" in text
    damaged = text.replace(old, new)
    path.write_text(damaged)
    for write in (
        lambda: eng.quiz_record(ids[2], "good", now=T0 + timedelta(days=1), actor=HUMAN),
        lambda: eng.quiz_bury(ids[2], now=T0 + timedelta(days=1), actor=HUMAN),
    ):
        with pytest.raises(BadInput) as err:
            write()
        assert str(err.value).startswith(f"{LEDGER}: line ") and "mend its frontmatter" in str(err.value)
        assert "\n" not in str(err.value)
    assert path.read_text() == damaged
    assert any(p.startswith(LEDGER) for p in eng.check().problems)  # still reported
    eng.quiz_due_count("alice", now=T0 + timedelta(days=1))  # reading goes on
    path.write_text(text)  # mended: answers are taken again, and the ledger keeps its scheduler and burials
    assert eng.quiz_record(ids[2], "good", now=T0 + timedelta(days=1), actor=HUMAN).status == "recorded"
    after = path.read_text()
    assert "scheduler: fsrs" in after and "buried" in after


def test_a_denied_record_keeps_its_quiz_history_for_an_undeny(eng):
    """The next answer of any card pruned a denied record's row as if its page were gone: undenied, the record came
    back as a card never asked. A denied record leaves the rotation, not its history."""
    ids = seed(eng, 3)
    for day in range(3):
        eng.quiz_record(ids[0], "again" if day < 2 else "good", now=T0 + timedelta(days=day), actor=HUMAN)
    row = eng.read_ledger("alice").item(eng.page_of(ids[0]))
    assert row is not None and row.asked == 3
    eng.deny(ids[0], now=T0 + timedelta(days=3), actor=HUMAN)
    r = eng.quiz_record(ids[1], "good", now=T0 + timedelta(days=3), actor=HUMAN)
    assert r.details["pruned"] == []
    assert ids[0] not in [c.memory_id for c in eng.quiz_session("alice", now=T0 + timedelta(days=30))]
    eng.undeny(ids[0], now=T0 + timedelta(days=4), actor=HUMAN)
    assert eng.read_ledger("alice").item(eng.page_of(ids[0])) == row


def test_an_answer_for_a_record_out_of_the_rotation_is_refused(eng):
    """`quiz record` of a denied record answered "recorded" and scheduled it again."""
    ids = seed(eng, 2)
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    row = eng.read_ledger("alice").item(eng.page_of(ids[0]))
    eng.deny(ids[0], now=T0, actor=HUMAN)
    r = eng.quiz_record(ids[0], "good", now=T0 + timedelta(days=1), actor=HUMAN)
    assert (r.status, r.details["reason"], r.details["status"]) == ("reject", "record_not_active", "denied")
    assert eng.read_ledger("alice").item(eng.page_of(ids[0])) == row


@pytest.mark.parametrize("why", ["cold", "draft", "expired"])
def test_an_answer_for_a_cold_draft_or_expired_record_is_refused(eng, why):
    """A session never offers them, but `quiz record` of a cold or expired record answered "recorded", scheduled
    it and refreshed its strength."""
    ids = seed(eng, 2)
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    e = eng.load(ids[0])
    if why == "cold":
        e.tier = e.tier.__class__("cold")
    elif why == "draft":
        e.category = e.category.__class__("draft")
    else:
        e.expires_at = T0 + timedelta(hours=1)
    with eng.writing():
        eng.save(e)
    row = eng.read_ledger("alice").item(eng.page_of(ids[0]))
    r = eng.quiz_record(ids[0], "good", now=T0 + timedelta(days=1), actor=HUMAN)
    assert (r.status, r.details["reason"], r.details["why"]) == ("reject", "record_not_in_rotation", why)
    assert eng.read_ledger("alice").item(eng.page_of(ids[0])) == row
    assert eng.quiz_record(ids[1], "good", now=T0 + timedelta(days=1), actor=HUMAN).status == "recorded"


def test_a_card_answered_twice_in_one_day_is_promoted_once(eng):
    """Two desks (a terminal and the browser) or a script answer the same card on one day: both answers are counted,
    the second right one does not move the card a box further (it would skip the next interval); a wrong one still
    sends it back to box 0, and the next day's answer promotes as usual."""
    ids = seed(eng, 2)
    first = eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    assert (first.details["box"], first.details["due"]) == (1, "2026-11-23")
    again = eng.quiz_record(ids[0], "easy", now=T0 + timedelta(hours=2), actor=HUMAN)
    assert (again.details["box"], again.details["due"]) == (1, "2026-11-23")
    row = quiz.parse_ledger((eng.root / "quiz" / "quiz-ledger.alice.md").read_text()).item(eng.page_of(ids[0]))
    assert (row.asked, row.correct) == (2, 2)
    # next day: promoted as usual
    tomorrow = eng.quiz_record(ids[0], "good", now=T0 + timedelta(days=1), actor=HUMAN)
    assert (tomorrow.details["box"], tomorrow.details["due"]) == (2, "2026-11-28")
    # a lapse the same day as a right answer is still a lapse
    eng.quiz_record(ids[1], "good", now=T0, actor=HUMAN)
    lapse = eng.quiz_record(ids[1], "again", now=T0 + timedelta(hours=1), actor=HUMAN)
    assert (lapse.details["box"], lapse.details["due"]) == (0, "2026-11-21")


def test_the_scheduler_can_be_changed_keeping_every_row_and_undone(eng):
    """A person who chose Leitner on the first visit (or FSRS) can switch: every row keeps its box, due and counts,
    so nothing learnt is lost and nothing comes due at once; the next answer schedules under the new scheduler; the
    change is undoable, and refused when it changes nothing or there is no ledger."""
    ids = seed(eng, 3)
    assert eng.set_scheduler("alice", "fsrs", now=T0, actor=HUMAN).details["reason"] == "no_ledger"
    assert eng.create_ledger("alice", "leitner", now=T0, actor=HUMAN).status == "created"
    for mid in ids:
        assert eng.quiz_record(mid, "good", now=T0, actor=HUMAN).status == "recorded"
    before = {it.page: (it.box, it.due, it.asked, it.correct) for it in eng.read_ledger("alice").items}

    same = eng.set_scheduler("alice", "leitner", now=T0, actor=HUMAN)
    assert (same.status, same.details["reason"]) == ("reject", "scheduler_unchanged")
    assert eng.set_scheduler("alice", "sm2", now=T0, actor=HUMAN).details["reason"] == "invalid_scheduler"

    r = eng.set_scheduler("alice", "fsrs", now=T0 + timedelta(hours=1), actor=HUMAN)
    assert (r.status, r.details["scheduler"], r.details["prior"]) == ("changed", "fsrs", "leitner")
    ledger = eng.read_ledger("alice")
    assert ledger.scheduler == "fsrs"
    assert {it.page: (it.box, it.due, it.asked, it.correct) for it in ledger.items} == before
    assert eng.quiz_session("alice", now=T0 + timedelta(days=1)) == []  # no row came due by the switch

    answered = eng.quiz_record(ids[0], "good", now=T0 + timedelta(days=3), actor=HUMAN)
    row = eng.read_ledger("alice").item(eng.page_of(ids[0]))
    assert answered.status == "recorded" and row.fsrs is not None and (row.asked, row.correct) == (2, 2)

    undo = eng.undo(r.receipt_sha256, now=T0 + timedelta(days=3, hours=1), actor=HUMAN)
    assert undo.status == "undone", undo.details
    ledger = eng.read_ledger("alice")
    assert ledger.scheduler == "leitner" and ledger.item(eng.page_of(ids[0])).asked == 2  # the answer stays
    assert eng.undo(r.receipt_sha256, now=T0 + timedelta(days=4), actor=HUMAN).details["reason"] == "already_undone"


def test_a_scheduler_change_undone_after_a_later_change_is_refused(eng):
    seed(eng, 1)
    eng.create_ledger("alice", "leitner", now=T0, actor=HUMAN)
    first = eng.set_scheduler("alice", "fsrs", now=T0, actor=HUMAN)
    assert eng.set_scheduler("alice", "leitner", now=T0 + timedelta(hours=1), actor=HUMAN).status == "changed"
    refused = eng.undo(first.receipt_sha256, now=T0 + timedelta(hours=2), actor=HUMAN)
    assert refused.details["reason"] == "superseded_by_later_decision"
    assert eng.read_ledger("alice").scheduler == "leitner"

from __future__ import annotations

from datetime import timedelta

from memkeeper.core import quiz
from tests.conftest import T0

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


def test_undo_quiz_record(eng):
    ids = seed(eng, 2)
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    r = eng.quiz_record(ids[0], "again", now=T0 + timedelta(days=3), actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0 + timedelta(days=3), actor=HUMAN)
    item = eng.read_ledger("alice").item(eng.page_of(ids[0]))
    assert (item.box, item.asked, item.last_result) == (1, 1, "correct")


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

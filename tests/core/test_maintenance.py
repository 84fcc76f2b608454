"""Decay and consolidation against curation: what a person acted on is refreshed, and maintenance can be previewed
and undone."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.conftest import T0

HUMAN = "human:alice"
LATER = T0 + timedelta(days=150)  # when the person acts
DECAY_AT = T0 + timedelta(days=180)  # 30 days after: an untouched record of T0 is below the archive threshold


def capture(eng, text, **kw):
    kw.setdefault("source_ref", "raw/chat.md#L3")
    r = eng.capture(text, now=T0, **kw)
    assert r.status == "captured", r.details
    return r.details["memory_id"]


def test_decay_respects_a_confirmation(eng):
    confirmed = capture(eng, "Kenji prefers async standups on Tuesdays and Thursdays.")
    untouched = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    confidence = eng.load(confirmed).confidence
    assert eng.confirm(confirmed, now=LATER, actor=HUMAN).status == "confirmed"
    r = eng.decay(now=DECAY_AT)
    assert untouched in r.details["archived"] and confirmed not in r.details["archived"]
    kept = eng.load(confirmed)
    assert kept.status.value == "active" and kept.strength > 0.5
    assert kept.confidence == confidence  # strength is refreshed, confidence is not
    assert eng.load(untouched).status.value == "archived"


def test_decay_respects_a_batch_confirmation_and_its_undo(eng):
    a = capture(eng, "Kenji prefers async standups on Tuesdays and Thursdays.")
    r = eng.confirm_many([a], now=LATER, actor=HUMAN)
    eng.undo(r.receipt_sha256, now=LATER, actor=HUMAN)  # undo puts the old strength and access back
    assert eng.load(a).last_accessed_at == T0
    assert a in eng.decay(now=DECAY_AT).details["archived"]


def test_decay_respects_a_kept_conflict_side(eng):
    kept = eng.capture(
        "The primary database for billing is Postgres.",
        now=T0,
        key="billing-db",
        title="Billing database",
        source_ref="raw/a.md#L1",
    ).details["memory_id"]
    other = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    c = eng.capture(
        "The primary database for billing is MySQL.",
        now=LATER,
        key="billing-db",
        title="Billing database",
        source_ref="raw/b.md#L9",
        actor="agent:notes",
    )
    assert c.status == "conflict", c.details
    assert eng.resolve_conflict(c.details["conflict_id"], "existing", now=LATER, actor=HUMAN).status == "resolved"
    archived = eng.decay(now=DECAY_AT).details["archived"]
    assert kept not in archived and other in archived


def test_decay_respects_a_quiz_answer_but_not_a_skip(eng):
    answered = capture(eng, "Decided: background jobs run on a Redis stream rather than Celery.", category="decision")
    skipped = capture(eng, "The public API allows 600 requests per minute for each token.")
    assert eng.quiz_record(answered, "good", now=LATER, actor=HUMAN).status == "recorded"
    assert eng.quiz_record(skipped, "skip", now=LATER, actor=HUMAN).status == "recorded"
    archived = eng.decay(now=DECAY_AT).details["archived"]
    assert answered not in archived and skipped in archived


def test_decay_preview_writes_nothing_and_lists_what_it_would_archive(eng):
    old = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.", title="Billing owner")
    receipts = len(list(eng.iter_receipts()))
    page = (eng.root / eng.page_of(old)).read_text()
    p = eng.decay(now=DECAY_AT, preview=True)
    assert p.status == "preview"
    assert p.details["archived"] == [old] and p.details["archived_titles"] == {old: "Billing owner"}
    assert p.details["archived_count"] == 1 and p.details["decayed_count"] == 1
    assert len(list(eng.iter_receipts())) == receipts
    assert (eng.root / eng.page_of(old)).read_text() == page and eng.load(old).status.value == "active"
    real = eng.decay(now=DECAY_AT)
    assert {k: real.details[k] for k in ("archived", "archived_count", "decayed_count")} == {
        k: p.details[k] for k in ("archived", "archived_count", "decayed_count")
    }


def test_decay_undo_restores_status_and_strength_with_one_receipt(eng):
    weak = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    fresh = eng.capture(
        "Kenji prefers async standups on Tuesdays and Thursdays.",
        now=DECAY_AT - timedelta(days=60),
        source_ref="raw/b.md",
    ).details["memory_id"]
    before = {m: eng.load(m) for m in (weak, fresh)}
    r = eng.decay(now=DECAY_AT)
    assert r.details["archived"] == [weak] and eng.load(fresh).strength == 0.5
    receipts = len(list(eng.iter_receipts()))
    u = eng.undo(r.receipt_sha256, now=DECAY_AT, actor="agent:cli")
    assert u.status == "undone", u.details
    assert sorted(u.details["restored"]) == sorted([weak, fresh])
    assert len(list(eng.iter_receipts())) == receipts + 1
    for m, e in before.items():
        now_e = eng.load(m)
        assert (now_e.status, now_e.strength, now_e.evidence_grade, now_e.notes) == (
            e.status,
            e.strength,
            e.evidence_grade,
            e.notes,
        )
    assert eng.undo(r.receipt_sha256, now=DECAY_AT, actor="agent:cli").details["reason"] == "already_undone"
    assert eng.check().ok


def near_duplicates(eng) -> tuple[str, str]:
    """Two records of one partition that consolidate merges: the second made a near duplicate of the first straight
    on the page layer (as test_capture does)."""
    from memkeeper.core.pagefmt import parse_entry

    a = capture(
        eng, "The deploy pipeline runs on GitHub Actions with three parallel jobs.", key="deploy", title="Deploy"
    )
    b = capture(eng, "Kenji prefers async standups on Tuesdays and Thursdays.", key="deploy", title="Deploy")
    p = eng.root / eng.page_of(b)
    e = parse_entry(p.read_text())
    e.content = "The deploy pipeline currently runs on GitHub Actions with three parallel jobs."
    with eng.writing():
        eng.save(e)
    return a, b


def test_consolidate_preview_and_undo(eng):
    a, b = near_duplicates(eng)
    before = {m: eng.load(m) for m in (a, b)}
    prev = eng.consolidate(now=T0 + timedelta(hours=1), preview=True)
    assert prev.status == "preview" and prev.details["count"] == 1
    assert {prev.details["merges"][0]["source"], prev.details["merges"][0]["target"]} == {a, b}
    assert prev.details["titles"] == {a: "Deploy", b: "Deploy"}
    assert all(eng.load(m).status.value == "active" for m in (a, b))
    r = eng.consolidate(now=T0 + timedelta(hours=1))
    assert r.details["count"] == 1
    u = eng.undo(r.receipt_sha256, now=T0 + timedelta(hours=2), actor="agent:cli")
    assert u.status == "undone", u.details
    for m, e in before.items():
        got = eng.load(m)
        assert (got.status, got.merged_into, got.reinforcement, got.confidence, got.notes) == (
            e.status,
            e.merged_into,
            e.reinforcement,
            e.confidence,
            e.notes,
        )
    assert eng.check().ok, eng.check().problems


def test_can_undo_says_what_undo_takes(eng):
    """`Engine.can_undo` is the question the desk asks before it offers an undo: a run that changed nothing (a
    consolidate with nothing to merge, a decay that moved no record) kept nothing to put back, and `undo` refuses it
    as `not_undoable`; a run that merged is one `undo` takes. The two agree."""
    capture(eng, "Kenji prefers async standups on Tuesdays and Thursdays.")
    empty = eng.consolidate(now=T0 + timedelta(minutes=1))
    idle = eng.decay(now=T0)  # at the capture's own time: no strength falls, nothing is archived
    assert (empty.status, empty.details["count"]) == ("ok", 0)
    assert (idle.status, idle.details["decayed_count"], idle.details["archived_count"]) == ("ok", 0, 0)
    for r in (empty, idle):
        assert eng.is_undoable(r.action) and not eng.can_undo(r)
        u = eng.undo(r.receipt_sha256, now=T0 + timedelta(hours=1), actor=HUMAN)
        assert (u.status, u.details["reason"]) == ("reject", "not_undoable")
    a, b = near_duplicates(eng)
    merged = eng.consolidate(now=T0 + timedelta(hours=2))
    assert merged.details["count"] == 1 and eng.can_undo(merged)
    assert eng.undo(merged.receipt_sha256, now=T0 + timedelta(hours=3), actor=HUMAN).status == "undone"
    rejected = eng.consolidate(now=T0 + timedelta(hours=4), threshold=2.0)
    assert rejected.status == "reject" and not eng.can_undo(rejected)


def test_check_reports_pages_it_never_reads_and_repair_leaves_them_where_they_are(eng):
    """Exploratory pass (2026-12-03): a page in a subfolder of entries/ was ignored without a word. `check` names
    every Markdown file under entries/ and conflicts/ that memkeeper does not read, one line each saying what to do;
    `check --repair` moves nothing (it lists them as left for a person)."""
    mid = capture(eng, "The staging cluster runs in the eu-west-1 region.")
    page = eng.root / eng.page_of(mid)
    (eng.root / "entries" / "sub" / "deeper").mkdir(parents=True)
    unread = {
        "entries/sub/staging.md": page.read_bytes(),
        "entries/sub/deeper/notes.markdown": b"# notes\n",
        "entries/Staging-copy.MD": page.read_bytes(),
        "conflicts/old/C3.md": b"---\nconflict_id: C3\n---\n",
        "conflicts/notes.md": b"# my notes on the queue\n",
    }
    (eng.root / "conflicts" / "old").mkdir(parents=True, exist_ok=True)
    for rel, data in unread.items():
        (eng.root / rel).write_bytes(data)
    # Not pages (attachments), or hidden on purpose: not reported.
    (eng.root / "entries" / "sub" / "diagram.png").write_bytes(b"\x89PNG")
    (eng.root / "entries" / ".drafts").mkdir()
    (eng.root / "entries" / ".drafts" / "draft.md").write_bytes(page.read_bytes())
    report = eng.check()
    assert not report.ok and report.pages == 1
    for rel in unread:
        lines = [p for p in report.problems if p.startswith(rel + ":")]
        assert len(lines) == 1 and "not read" in lines[0] and "\n" not in lines[0], (rel, report.problems)
    assert any("move it up into entries/" in p for p in report.problems if p.startswith("entries/sub/staging.md"))
    assert len(report.problems) == len(unread), report.problems
    r = eng.repair(now=T0 + timedelta(hours=1))
    assert r.status == "ok" and r.details["remaining_count"] == len(unread)
    assert all(any(p.startswith(rel + ":") for p in r.details["remaining"]) for rel in unread)
    for rel, data in unread.items():
        assert (eng.root / rel).read_bytes() == data  # never moved, rewritten or deleted
    assert eng.check().pages == 1  # still one memory: nothing was read from them


def test_check_reports_a_quiz_ledger_or_tier_review_it_never_finds(eng):
    """quiz/ and review/ were not walked. A ledger in a subfolder or named in another case is a person's answers and
    schedule that the quiz never uses; a tier review moved into a subfolder is a decision the desk never offers. Each
    is one line; a dated notebook (written, never read), an applied review and a person's own notes are not."""
    mid = capture(eng, "The staging cluster runs in the eu-west-1 region.")
    eng.quiz_record(mid, "good", now=T0 + timedelta(hours=1), actor=HUMAN, person="alice")
    ledger = (eng.root / "quiz" / "quiz-ledger.alice.md").read_bytes()
    assert eng.check().ok, eng.check().problems
    for d in ("quiz/2025", "review/old", "review/applied/2025"):
        (eng.root / d).mkdir(parents=True)
    review = b"---\nkind: cleanup\nsource: tier-cleanup\n---\n"
    unread = {
        "quiz/2025/quiz-ledger.alice.md": ledger,
        "quiz/quiz-ledger.Bob.md": ledger,
        "quiz/Quiz-Ledger.carol.md": ledger,
        "review/old/tier-review-2026-11-01.md": review,
        "review/Tier-Review-2026-11-02.md": review,
    }
    quiet = {
        "quiz/2026-11-20.alice.md": b"# notebook\n",
        "quiz/notes.md": b"# what to study\n",
        "review/applied/2025/tier-review-2025-01-01.md": review,
        "review/notes.md": b"# thoughts\n",
    }
    for rel, data in {**unread, **quiet}.items():
        (eng.root / rel).write_bytes(data)
    report = eng.check()
    assert sorted(p.split(":")[0] for p in report.problems) == sorted(unread), report.problems
    assert all("\n" not in p for p in report.problems)
    assert any("quiz ledger" in p for p in report.problems if p.startswith("quiz/quiz-ledger.Bob.md:"))
    assert any("tier review" in p for p in report.problems if p.startswith("review/old/"))
    r = eng.repair(now=T0 + timedelta(hours=2))
    assert r.details["remaining_count"] == len(unread)
    for rel, data in {**unread, **quiet}.items():
        assert (eng.root / rel).read_bytes() == data


def test_undo_of_a_merge_or_a_resolution_is_refused_once_an_agent_restated_its_record(eng):
    """Both undos write back the records' reinforcement, confidence and notes as they were: an agent's restatement
    captured since was undone with them (reinforcement 3 back to 1, its note gone), and its receipt no longer
    true. Such an undo is now refused, naming the capture; without one it undoes as before."""
    near_duplicates(eng)
    merge = eng.consolidate(now=T0 + timedelta(hours=1))
    keeper = merge.details["merges"][0]["target"]
    text = eng.load(keeper).content
    again = eng.capture(text, now=T0 + timedelta(hours=2), actor="agent:later", key="deploy", title="Deploy")
    assert again.status == "consolidated" and again.details["memory_id"] == keeper
    held = eng.load(keeper)
    u = eng.undo(merge.receipt_sha256, now=T0 + timedelta(hours=3), actor="human:me")
    assert (u.status, u.details["reason"], u.details["superseded_by"]) == (
        "reject",
        "changed_by_later_capture",
        again.receipt_sha256,
    )
    after = eng.load(keeper)
    assert (after.reinforcement, after.confidence, after.notes) == (held.reinforcement, held.confidence, held.notes)

    # A resolution: keep existing, then an agent restates the kept record.
    eng.capture("The staging database is Postgres 15.", now=T0, key="staging-db")
    held_c = eng.capture("The staging database is MySQL 8.", now=T0 + timedelta(hours=1), key="staging-db")
    resolved = eng.resolve_conflict(
        held_c.details["conflict_id"], "existing", now=T0 + timedelta(hours=2), actor="human:me"
    )
    quiet = eng.undo(resolved.receipt_sha256, now=T0 + timedelta(hours=3), actor="human:me")
    assert quiet.status == "undone", quiet.details  # nothing since: undone as before
    resolved = eng.resolve_conflict(
        held_c.details["conflict_id"], "existing", now=T0 + timedelta(hours=4), actor="human:me"
    )
    eng.capture("The staging database is Postgres 15.", now=T0 + timedelta(hours=5), actor="agent:b", key="staging-db")
    refused = eng.undo(resolved.receipt_sha256, now=T0 + timedelta(hours=6), actor="human:me")
    assert (refused.status, refused.details["reason"]) == ("reject", "changed_by_later_capture")


def test_undo_of_a_decay_leaves_the_grade_a_later_confirmation_gave(eng):
    mid = capture(eng, "The ops wiki lives under docs/ops in the handbook repo.")
    decay = eng.decay(now=T0 + timedelta(days=100))
    assert eng.load(mid).evidence_grade.value == "low" and eng.load(mid).status.value == "active"
    eng.confirm(mid, now=T0 + timedelta(days=101), actor="human:me")
    assert eng.load(mid).evidence_grade.value == "high"
    u = eng.undo(decay.receipt_sha256, now=T0 + timedelta(days=102), actor="human:me")
    assert u.status == "undone", u.details
    got = eng.load(mid)
    assert got.verified is not None and got.evidence_grade.value == "high"


def test_decay_never_archives_a_record_whose_conflict_awaits_a_decision(eng):
    """Decay archived the existing side of an open conflict: the person, asked to choose, found one side already
    gone from the rotation. A held record's strength still falls; it is archived only once the conflict is decided
    and the record is still weak (a side the person keeps is reinforced)."""
    held = eng.capture(
        "The primary database for billing is Postgres.", now=T0, key="billing-db", source_ref="raw/a.md#L1"
    ).details["memory_id"]
    other = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    c = eng.capture(
        "The primary database for billing is MySQL.",
        now=T0 + timedelta(days=1),
        key="billing-db",
        source_ref="raw/b.md#L9",
        actor="agent:notes",
    )
    assert c.status == "conflict" and c.details["memory_id"] == held, c.details
    cid = c.details["conflict_id"]
    eng.snooze_conflict(cid, now=T0 + timedelta(days=2), actor=HUMAN, until=T0 + timedelta(days=9))  # undecided

    preview = eng.decay(now=DECAY_AT, preview=True)
    r = eng.decay(now=DECAY_AT)
    for got in (preview, r):
        assert got.details["archived"] == [other]
        assert got.details["held_by_conflict"] == [
            {"memory_id": held, "conflict_id": cid, "title": eng.load(held).title}
        ]
    e = eng.load(held)
    assert e.status.value == "active" and e.strength < 0.15 and not any("Archived by decay" in n for n in e.notes)

    assert eng.resolve_conflict(cid, "incoming", now=DECAY_AT, actor=HUMAN).status == "resolved"
    assert "held_by_conflict" not in eng.decay(now=DECAY_AT + timedelta(days=1)).details
    assert eng.check().ok, eng.check().problems


def test_consolidate_leaves_a_record_whose_conflict_awaits_a_decision_out_of_every_merge(eng):
    """Consolidate merged the existing side of an open conflict into its near-duplicate: the conflict then held a
    side that was archived, and the person decided about a record no longer in the rotation."""
    a, b = near_duplicates(eng)
    c = eng.capture(
        "The deploy pipeline runs on Jenkins with three parallel jobs.",
        now=T0 + timedelta(minutes=5),
        key="deploy",
        source_ref="raw/c.md#L2",
        actor="agent:notes",
    )
    assert c.status == "conflict", c.details
    held, cid = c.details["memory_id"], c.details["conflict_id"]
    assert held in (a, b)

    r = eng.consolidate(now=T0 + timedelta(hours=1))
    assert r.details["count"] == 0 and r.details["merges"] == []
    assert r.details["held_by_conflict"] == [{"memory_id": held, "conflict_id": cid, "title": "Deploy"}]
    assert all(eng.load(m).status.value == "active" for m in (a, b))

    # Decided (the person keeps the existing side): the two near-duplicates merge as before.
    assert eng.resolve_conflict(cid, "existing", now=T0 + timedelta(hours=2), actor=HUMAN).status == "resolved"
    after = eng.consolidate(now=T0 + timedelta(hours=3))
    assert after.details["count"] == 1 and "held_by_conflict" not in after.details
    assert eng.check().ok, eng.check().problems


@pytest.mark.parametrize(
    "later", [timedelta(0), timedelta(seconds=1), timedelta(days=1)], ids=["same-second", "1s", "1d"]
)
def test_undo_of_a_decay_keeps_archived_a_record_restated_since(eng, later):
    """A statement archived by decay and captured again afterwards (a new record: an archived one is no candidate)
    is held once: the undo puts back the rest of the run, not a second active copy of what the new record says."""
    weak = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    other = capture(eng, "The office plants are watered on Fridays by whoever is in.")
    r = eng.decay(now=DECAY_AT)
    assert sorted(r.details["archived"]) == sorted([weak, other])
    again = eng.capture(
        "Priya owns the quarterly billing reconciliation for EMEA.",
        now=DECAY_AT + later,  # a script that decays and then captures may do both in one second
        source_ref="raw/later.md",
        actor="agent:other",
    )
    assert again.status == "captured", again.details
    newer = again.details["memory_id"]
    u = eng.undo(r.receipt_sha256, now=DECAY_AT + timedelta(days=2), actor="agent:cli")
    assert u.status == "undone", u.details
    assert u.details["restored"] == [other]
    assert u.details["kept_archived"] == [{"memory_id": weak, "restated_by": newer}]
    assert eng.load(weak).status.value == "archived" and eng.load(other).status.value == "active"
    assert eng.load(newer).status.value == "active"
    active = eng.index.query("SELECT memory_id FROM records WHERE status='active'")
    assert sorted(r["memory_id"] for r in active) == sorted([other, newer])
    assert eng.check().ok

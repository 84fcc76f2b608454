"""Decay and consolidation against curation: what a person acted on is refreshed, and maintenance can be previewed
and undone."""

from __future__ import annotations

from datetime import timedelta

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
    kept = eng.capture("The primary database for billing is Postgres.", now=T0, key="billing-db",
                       title="Billing database", source_ref="raw/a.md#L1").details["memory_id"]
    other = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    c = eng.capture("The primary database for billing is MySQL.", now=LATER, key="billing-db",
                    title="Billing database", source_ref="raw/b.md#L9", actor="agent:notes")
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

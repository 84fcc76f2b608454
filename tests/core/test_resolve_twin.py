"""A decision never makes a second active copy of a statement already held.

While a conflict waits, its held statement can become a record of its own: its existing side is denied and an
agent captures the statement again (nothing holds it back now), or a decision is undone and the statement it had
superseded is active again. Taking the incoming side, or both, then made a record from the held text beside that
one: two active records saying one thing, and `check` clean. The decision now keeps the record that holds the text."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memkeeper.core import Engine
from tests.conftest import T0

HUMAN = "human:alice"
A = "The database for project atlas is Postgres in production."
B = "The database for project atlas is MySQL in production."


def _active(eng: Engine, text: str) -> list[str]:
    rows = eng.store.index.query("SELECT memory_id, content FROM records WHERE status='active'")
    return [r["memory_id"] for r in rows if r["content"].strip() == text]


@pytest.mark.parametrize("choice", ["incoming", "both"])
def test_taking_a_statement_captured_again_while_it_waited_keeps_that_record(eng, choice):
    first = eng.capture(A, now=T0, key="atlas-db").details["memory_id"]
    held = eng.capture(B, now=T0 + timedelta(minutes=1), key="atlas-db")
    assert held.status == "conflict"
    cid = held.details["conflict_id"]
    assert eng.deny(first, now=T0 + timedelta(minutes=2), actor=HUMAN).status == "denied"
    again = eng.capture(B, now=T0 + timedelta(minutes=3), key="atlas-db", source_ref="raw/later.md")
    assert again.status == "captured", again.details
    twin = again.details["memory_id"]

    r = eng.resolve_conflict(cid, choice, now=T0 + timedelta(minutes=4), actor=HUMAN)
    assert r.status == "resolved"
    assert r.details["created"] is None and r.details["winner"] == twin
    assert _active(eng, B) == [twin]
    assert eng.load(first).status.value == "denied"
    assert eng.check().ok, eng.check().problems

    # the undo puts the record back as it was (no copy to archive, its notes as before)
    notes = len(eng.load(twin).notes)
    assert eng.undo(r.receipt_sha256, now=T0 + timedelta(minutes=5), actor=HUMAN).status == "undone"
    assert _active(eng, B) == [twin] and len(eng.load(twin).notes) == notes - 1
    assert eng.check().ok, eng.check().problems


def test_taking_a_statement_active_again_after_an_undo_keeps_that_record(eng):
    """Take B over A (A superseded); A is captured again (C2 holds A against B); the take is undone (A active,
    B not); taking C2's incoming side (A) made a second active A."""
    eng.capture(A, now=T0, key="atlas-db")
    c1 = eng.capture(B, now=T0 + timedelta(minutes=1), key="atlas-db").details["conflict_id"]
    took = eng.resolve_conflict(c1, "incoming", now=T0 + timedelta(minutes=2), actor=HUMAN)
    c2 = eng.capture(A, now=T0 + timedelta(minutes=3), key="atlas-db")
    assert c2.status == "conflict", c2.details
    assert eng.undo(took.receipt_sha256, now=T0 + timedelta(minutes=4), actor=HUMAN).status == "undone"
    (a_id,) = _active(eng, A)

    r = eng.resolve_conflict(c2.details["conflict_id"], "incoming", now=T0 + timedelta(minutes=5), actor=HUMAN)
    assert r.status == "resolved" and r.details["created"] is None and r.details["winner"] == a_id
    assert _active(eng, A) == [a_id] and _active(eng, B) == []
    assert eng.check().ok, eng.check().problems


def test_keeping_the_existing_side_supersedes_the_record_that_holds_the_held_statement(eng):
    """Kept A over B: a record that says B, captured while the conflict waited, is what the person ruled out."""
    first = eng.capture(A, now=T0, key="atlas-db").details["memory_id"]
    cid = eng.capture(B, now=T0 + timedelta(minutes=1), key="atlas-db").details["conflict_id"]
    assert eng.deny(first, now=T0 + timedelta(minutes=2), actor=HUMAN).status == "denied"
    twin = eng.capture(B, now=T0 + timedelta(minutes=3), key="atlas-db", source_ref="raw/x.md").details["memory_id"]
    assert eng.undeny(first, now=T0 + timedelta(minutes=4), actor=HUMAN).status != "reject"
    r = eng.resolve_conflict(cid, "existing", now=T0 + timedelta(minutes=5), actor=HUMAN)
    assert r.status == "resolved" and r.details["loser"] == twin
    assert eng.load(twin).status.value == "superseded"
    assert _active(eng, A) == [first] and _active(eng, B) == []
    assert eng.check().ok, eng.check().problems

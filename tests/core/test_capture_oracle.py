"""A capture's outcome tells the capturing zone nothing of records it may not see.

A limited zone writes to partitions it may not read back: an outside_contact agent stores `normal` records by
default, and its zone retrieves only `public_safe` ones (SPEC §4 retrieve). Capture compares a statement with the
records of its own partition; were the status `consolidated` or `conflict` there, an agent would learn from it that
someone stored the same or a different value ("Bob's salary is 90k" → `conflict`). When the zone may not see the
records it is compared with, the statement is stored as a new record (`captured`) whatever they hold; a
contradiction still reaches the person as a conflict between the two stored records."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from memkeeper.core import Engine
from tests.conftest import T0

BOB = "Bob's salary at Harbor is 90k per year."
EVE = "Bob's salary at Harbor is 120k per year."

# (zone, sensitivity) pairs whose records the zone itself may not retrieve (`scoring.zone_allows`).
WRITE_ONLY = [
    ("outside_contact", "normal"),
    ("paid_public", "normal"),
    ("outside_contact", "do_not_export"),
    ("trusted_collaborator", "do_not_export"),
]


def receipt_lines(eng: Engine) -> list[dict]:
    return [json.loads(line) for f in sorted((eng.root / "receipts").glob("*.jsonl")) for line in f.open()]


@pytest.mark.parametrize(("zone", "tier"), WRITE_ONLY)
def test_a_contradiction_of_a_record_the_zone_may_not_see_is_captured_and_opens_a_conflict(eng, zone, tier):
    bob = eng.capture(BOB, now=T0, actor="agent:bob", zone=zone, sensitivity=tier)
    assert bob.status == "captured"
    later = T0 + timedelta(minutes=5)
    eve = eng.capture(EVE, now=later, actor="agent:eve", zone=zone, sensitivity=tier)

    assert eve.status == "captured", eve.details
    mine, theirs = eve.details["memory_id"], bob.details["memory_id"]
    assert mine != theirs and eve.details["page"] != bob.details["page"]
    assert eng.load(mine).content == EVE and eng.load(mine).status.value == "active"
    assert eng.load(theirs).status.value == "active"  # nothing is resolved without a person

    # The person gets the contradiction: a conflict between the two stored records, like any other.
    (c,) = eng.conflicts()
    assert c.status == "open" and c.conflict_type == "quantitative_drift"
    assert c.existing["memory_id"] == theirs
    assert c.incoming["memory_id"] == mine and c.incoming["text"] == EVE
    assert eve.details["opened"] == {
        "conflict_id": c.conflict_id,
        "memory_id": theirs,
        "conflict_type": "quantitative_drift",
        "reason": c.reason,
    }
    # The audit trail holds the receipt as returned: captured, with the conflict it opened.
    (recorded,) = [r for r in receipt_lines(eng) if r["receipt_sha256"] == eve.receipt_sha256]
    assert recorded["status"] == "captured" and recorded["details"]["opened"]["conflict_id"] == c.conflict_id
    assert c.conflict_id in (eng.root / "CONFLICTS.md").read_text(encoding="utf-8")

    # The same claim again is stored again (the agent may not learn that it is held already); no second conflict.
    again = eng.capture(EVE, now=later + timedelta(minutes=1), actor="agent:eve", zone=zone, sensitivity=tier)
    assert again.status == "captured" and again.details["memory_id"] not in (mine, theirs)
    assert len(eng.conflicts()) == 1


@pytest.mark.parametrize(("zone", "tier"), WRITE_ONLY)
def test_a_restatement_of_a_record_the_zone_may_not_see_is_stored_not_consolidated(eng, zone, tier):
    bob = eng.capture(BOB, now=T0, actor="agent:bob", zone=zone, sensitivity=tier)
    eve = eng.capture(BOB, now=T0 + timedelta(minutes=5), actor="agent:eve", zone=zone, sensitivity=tier)
    assert eve.status == "captured", eve.details
    assert eve.details["memory_id"] != bob.details["memory_id"]
    assert "opened" not in eve.details and eng.conflicts() == []
    kept = eng.load(bob.details["memory_id"])
    assert kept.reinforcement == 1 and kept.notes == []  # the hidden record is untouched
    # Maintenance merges the duplicate later, as for any two records of one partition that say the same.
    merged = eng.consolidate(now=T0 + timedelta(hours=1))
    assert len(merged.details["merges"]) == 1


def test_the_conflict_is_decided_like_any_other(eng):
    bob = eng.capture(BOB, now=T0, actor="agent:bob", zone="outside_contact")
    eve = eng.capture(EVE, now=T0, actor="agent:eve", zone="outside_contact")
    cid = eve.details["opened"]["conflict_id"]
    later = T0 + timedelta(hours=1)
    taken = eng.resolve_conflict(cid, "incoming", now=later, actor="human:me")
    assert taken.status == "resolved", taken.details
    # Taking the incoming side keeps the record the capture made: no second copy of it.
    assert eng.load(eve.details["memory_id"]).status.value == "active"
    assert eng.load(bob.details["memory_id"]).status.value == "superseded"
    assert [r["content"] for r in eng.store.index.query("SELECT content FROM records WHERE status='active'")] == [EVE]


def test_the_partitions_a_zone_may_see_behave_as_before(eng):
    """Records the capturing zone may see are compared as ever: outside_contact's public_safe records, and every
    partition of private_self and trusted_collaborator's normal ones."""
    for zone, tier in (
        ("outside_contact", "public_safe"),
        ("paid_public", "public_safe"),
        ("private_self", "normal"),
        ("private_self", "do_not_export"),
        ("trusted_collaborator", "normal"),
    ):
        first = eng.capture(BOB, now=T0, actor="agent:bob", zone=zone, sensitivity=tier)
        assert first.status == "captured"
        conflict = eng.capture(EVE, now=T0, actor="agent:eve", zone=zone, sensitivity=tier)
        assert conflict.status == "conflict" and conflict.details["memory_id"] == first.details["memory_id"]
        assert conflict.details["related"][0]["memory_id"] == first.details["memory_id"]
        same = eng.capture(BOB, now=T0, actor="agent:eve", zone=zone, sensitivity=tier)
        assert same.status == "consolidated" and same.details["memory_id"] == first.details["memory_id"], zone


def test_a_page_in_a_partition_its_zone_may_not_read_is_named_whatever_else_is_there(tmp_path):
    """The page name is part of what the agent is told: a numeric suffix would say that a page of the same title
    (here: the same statement) is already in the partition."""
    pages, ids = [], []
    for seeded in (False, True):
        eng = Engine.init(tmp_path / f"w{seeded}", now=T0)
        if seeded:
            eng.capture(BOB, now=T0, actor="agent:bob", zone="outside_contact")
        r = eng.capture(BOB, now=T0 + timedelta(minutes=5), actor="agent:eve", zone="outside_contact")
        assert r.status == "captured"
        pages.append(r.details["page"])
        ids.append(r.details["memory_id"])
        eng.close()
    assert pages[0] == pages[1] and ids[0] == ids[1]
    assert pages[0].startswith("entries/bob-s-salary-at-harbor-is-90k-per-year--outside-contact--normal")

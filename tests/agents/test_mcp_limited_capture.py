"""What a limited server's capture tells its agent does not depend on the records its zone may not see.

The Desk is driven in-process (the stdio tests in test_mcp.py cover the transport): the same captures by agent eve,
at the same times, on a wiki where another outside contact stored records eve's zone may not read and on a wiki
without them, must get the same answers, field for field."""

from __future__ import annotations

import json
from datetime import timedelta

from memkeeper.agents.mcp_server import Desk, Identity
from memkeeper.core import Engine
from tests.conftest import T0

HIDDEN = [
    "Bob's salary at Harbor is 90k per year.",
    "The Harbor vault door code changes every Monday.",
]
PROBES = [
    "Bob's salary at Harbor is 120k per year.",  # contradicts a hidden record
    "Bob's salary at Harbor is 90k per year.",  # restates one
    "The Harbor vault door code changes every Friday.",  # contradicts the other
    "Harbor partners get the changelog by email each month.",  # about nothing stored
]


def answers(root, seeded: bool, zone: str = "outside_contact") -> list[dict]:
    eng = Engine.init(root, now=T0)
    try:
        if seeded:
            for text in HIDDEN:
                assert eng.capture(text, now=T0, actor="agent:bob", zone=zone).status == "captured"
        clock = [T0 + timedelta(minutes=5)]
        desk = Desk(eng, Identity.from_flags("eve", zone), clock=lambda: clock[0])
        out = []
        for text in PROBES:
            result = desk.capture(text=text)
            assert not result.is_error, result.content
            out.append(result.structured_content)
            clock[0] += timedelta(minutes=1)
        return out
    finally:
        eng.close()


def test_a_limited_servers_capture_answers_as_if_hidden_records_did_not_exist(tmp_path):
    for zone in ("outside_contact", "paid_public"):
        alone = answers(tmp_path / f"{zone}-alone", seeded=False, zone=zone)
        beside = answers(tmp_path / f"{zone}-beside", seeded=True, zone=zone)
        assert beside == alone, zone
        assert all(a["status"] == "captured" and a["details"]["related"] == [] for a in beside)
        shown = json.dumps(beside)
        assert "opened" not in shown and "conflict" not in shown and '"C1"' not in shown

    # The person's queue holds the two contradictions, each between two stored records.
    eng = Engine.open(tmp_path / "paid_public-beside")
    try:
        conflicts = eng.conflicts()
        assert len(conflicts) == 2
        assert all(c.incoming.get("memory_id") and c.incoming["actor"] == "agent:eve" for c in conflicts)
    finally:
        eng.close()


def test_a_limited_server_serves_its_pages_without_the_queues_numbers_or_the_persons_reasons(tmp_path):
    """A page an outside contact may read said "[SUPERSEDED by C4]" and "Took precedence over … in C4": the queue's
    numbers count every zone's conflicts, so three conflicts it may not see were told. A denied page gave the
    person's reason for the denial. Both are served without them; the owner's server reads the page as written."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        t = T0
        for i in range(3):  # three private conflicts, C1-C3
            for hour in ("7pm", "8pm"):
                t += timedelta(minutes=1)
                eng.capture(f"Private office {i} alarm is set at {hour}.", now=t, key=f"alarm-{i}")
        public = {"zone": "outside_contact", "sensitivity": "public_safe", "key": "demo-day"}
        first = eng.capture("The public demo day is on Friday.", now=t, **public).details["memory_id"]
        held = eng.capture("The public demo day is on Monday.", now=t + timedelta(minutes=1), **public)
        assert held.status == "conflict" and held.details["conflict_id"] == "C4"
        eng.resolve_conflict("C4", "incoming", now=t + timedelta(minutes=2), actor="human:me")
        winner = eng.get(first).superseded_by
        assert winner is not None
        denied = eng.capture(
            "The demo day venue is the north hall.",
            now=t + timedelta(minutes=3),
            zone="outside_contact",
            sensitivity="public_safe",
        ).details["memory_id"]
        eng.deny(denied, now=t + timedelta(minutes=4), actor="human:me", reason="Priya said the vendor lied about it")
        pages = {m: eng.page_of(m) for m in (first, winner, denied)}
        limited = Desk(eng, Identity.from_flags("contact", "outside_contact"))
        owner = Desk(eng, Identity.from_flags("me", "private_self"))
        for rel in pages.values():
            served, written = limited.page(rel), owner.page(rel)
            assert "C4" in written or "vendor lied" in written, written  # what the engine wrote
            assert "C4" not in served and "C1" not in served and "vendor lied" not in served, served
            assert served.splitlines()[:3] == written.splitlines()[:3]  # the record itself as written
        assert "[SUPERSEDED by a conflict]" in limited.page(pages[first])
        assert "- Denied by human:me (" in limited.page(pages[denied])
    finally:
        eng.close()


def test_a_limited_page_names_no_record_its_zone_may_not_see(tmp_path):
    """A note names the other side of a resolved conflict ("Took precedence over mem_…"). When the person later
    moves one side to another zone (a page edited by hand), the page a limited server serves named a record the
    zone may not see. Such ids are served as "a record this zone may not see"; ids the zone sees stay."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        public = {"zone": "outside_contact", "sensitivity": "public_safe", "key": "demo-day"}
        first = eng.capture("The public demo day is on Friday.", now=T0, **public).details["memory_id"]
        held = eng.capture("The public demo day is on Monday.", now=T0 + timedelta(minutes=1), **public)
        eng.resolve_conflict(held.details["conflict_id"], "incoming", now=T0 + timedelta(minutes=2), actor="human:me")
        winner = eng.get(first).superseded_by
        assert winner is not None
        limited = Desk(eng, Identity.from_flags("contact", "outside_contact"))
        before = limited.page(eng.page_of(winner))
        assert f"Took precedence over {first} in a conflict" in before  # a record the zone sees is named
        page = eng.root / eng.page_of(first)
        page.write_text(page.read_text().replace("trust_zone: outside_contact", "trust_zone: private_self"))
        eng.check()  # the hand edit is read
        assert eng.get(first).trust_zone.value == "private_self"
        served = limited.page(eng.page_of(winner))
        assert first not in served and winner in served
        assert "Took precedence over a record this zone may not see in a conflict" in served
        owner = Desk(eng, Identity.from_flags("me", "private_self"))
        assert f"Took precedence over {first} in C1" in owner.page(eng.page_of(winner))
    finally:
        eng.close()

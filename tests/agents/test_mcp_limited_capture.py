"""What a limited server's capture tells its agent does not depend on the records its zone may not see.

The Desk is driven in-process (the stdio tests in test_mcp.py cover the transport): the same captures by agent eve,
at the same times, on a wiki where another outside contact stored records eve's zone may not read and on a wiki
without them, must get the same answers, field for field."""

from __future__ import annotations

import json
from datetime import timedelta

from memkeeper.agents.mcp_server import Desk, Identity
from memkeeper.core import Engine
from memkeeper.core.pagefmt import parse_entry
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
            result = desk.capture(text=text, sensitivity="public_safe")  # the one tier eve's zone reads back
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
        shown = json.dumps(beside)
        assert "opened" not in shown and "conflict_id" not in shown and '"C1"' not in shown

    # Eve's records are public_safe, bob's normal: partitions are never reconciled, so nothing is held against bob's
    # (the one conflict is between two of eve's own statements, which she was told of).
    eng = Engine.open(tmp_path / "paid_public-beside")
    try:
        held = [eng.get(c.existing["memory_id"]) for c in eng.conflicts()]
        assert len(held) == 1 and all(e is not None and e.actor == "agent:eve" for e in held)
    finally:
        eng.close()


def private_conflicts(eng: Engine, n: int):
    """`n` conflicts in the owner's zone, C1-C<n>, which no limited zone may know of; the time after them."""
    t = T0
    for i in range(n):
        for hour in ("7pm", "8pm"):
            t += timedelta(minutes=1)
            eng.capture(f"Private office {i} alarm is set at {hour}.", now=t, key=f"alarm-{i}")
    assert sorted(c.conflict_id for c in eng.conflicts()) == [f"C{i + 1}" for i in range(n)]
    return t


def test_a_limited_server_serves_its_pages_without_the_queues_numbers_or_the_persons_reasons(tmp_path):
    """A page an outside contact may read said "[SUPERSEDED by C4]" and "Took precedence over … in C4": the queue's
    numbers count every zone's conflicts, so three conflicts it may not see were told. A denied page gave the
    person's reason for the denial. Both are served without them; the owner's server reads the page as written."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        t = private_conflicts(eng, 3)  # C1-C3
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
        assert "- Denied by human (" in limited.page(pages[denied])  # the person's login is not shown either
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


def test_a_limited_zone_is_shown_neither_the_persons_login_nor_where_they_keep_their_files(tmp_path):
    """A page a paid_public agent may read said `source_ref: /home/alice.smith/notes/support.md` and `verified: by:
    human:alice.smith`: the person's login and where they keep their notes. A limited zone is shown a person as
    `human`, and a source that is a local path as its file's name; agents, relative sources and URLs as written, and
    no frontmatter key the engine does not know. The owner's server reads the page as written."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        public = {"zone": "outside_contact", "sensitivity": "public_safe"}
        person = "human:alice.smith"
        hours_text = "Our public support hours are 9 to 5 CET on weekdays."
        pages: dict[str, str] = {}

        def capture(name: str, text: str, minute: int, actor: str, source_ref: str) -> str:
            r = eng.capture(text, now=T0 + timedelta(minutes=minute), actor=actor, source_ref=source_ref, **public)
            assert r.status == "captured", r.details
            pages[name] = r.details["page"]
            return r.details["memory_id"]

        hours = capture("hours", hours_text, 0, person, "/home/alice.smith/notes/support.md")
        assert eng.confirm(hours, now=T0 + timedelta(minutes=1), actor=person).ok
        again = eng.capture(
            hours_text,
            now=T0 + timedelta(minutes=2),
            actor=person,
            source_ref="file:///home/alice.smith/more.md",
            **public,
        )
        assert again.status == "consolidated"
        capture(
            "drive",
            "The public changelog is published every Tuesday.",
            3,
            "agent:scribe",
            "C:\\Users\\alice.smith\\log.txt",
        )
        capture("relative", "The public API allows 100 requests a minute.", 4, "agent:scribe", "raw/session-7.md#L40")
        capture(
            "url", "The public status page lists every incident.", 5, "agent:scribe", "https://status.example.com/x"
        )
        beta = capture(
            "denied", "The public beta of the mobile app closes in March.", 6, "agent:scribe", "~alice.smith/b.md"
        )
        assert eng.deny(beta, now=T0 + timedelta(minutes=7), actor=person, reason="alice.smith knows better").ok
        page = eng.root / pages["hours"]
        page.write_text(page.read_text().replace("\nactor: ", "\ncreated_by: alice.smith\nactor: "))  # by hand

        owner = Desk(eng, Identity.from_flags("me", "private_self"))
        assert owner.page(pages["hours"]) == page.read_text()
        for zone in ("trusted_collaborator", "outside_contact", "paid_public"):
            desk = Desk(eng, Identity.from_flags("ext", zone))
            served = {name: desk.page(rel) for name, rel in pages.items()}
            for name, text in served.items():
                assert "alice" not in text and person not in text, (zone, name, text)
                assert parse_entry(text).memory_id in text  # still a page
            hours_page = served["hours"]
            assert "source_ref: support.md\n" in hours_page and "verified:\n  by: human\n" in hours_page
            assert "\nactor: human\n" in hours_page and "created_by" not in hours_page
            assert "restated by human (more.md)" in hours_page and hours_text in hours_page
            assert "source_ref: log.txt\n" in served["drive"] and "\nactor: agent:scribe\n" in served["drive"]
            assert "source_ref: raw/session-7.md#L40\n" in served["relative"]
            assert "source_ref: https://status.example.com/x\n" in served["url"]
            assert "source_ref: b.md\n" in served["denied"] and "- Denied by human (" in served["denied"]
            # Nor in what else the zone reads: the results of a search, the filtered views.
            found = desk.retrieve("public support hours")
            assert not found.is_error and hours in json.dumps(found.structured_content)
            assert "alice" not in json.dumps(found.structured_content)
            assert "alice" not in desk.page("hot.md") + desk.page("index.md")
    finally:
        eng.close()


def test_a_limited_server_names_a_record_by_the_engines_rule_only(tmp_path):
    """A limited server resolved a declared relation from any prefix of a visible id, in any case: "m", "mem_",
    " MEM_ " restated whichever record was alone in the zone (a placeholder opened a conflict against an arbitrary
    record). It takes what `Store.resolve_id` takes, among the records its zone sees: a page path, a whole id, or
    `mem_` and at least six lower-case hex digits; anything else names no record, as on the owner's server."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        text = "The public status page lives at status.example.com for customers."
        public = {"zone": "outside_contact", "sensitivity": "public_safe"}
        seen = eng.capture(text, now=T0, actor="agent:seed", **public).details
        hidden = eng.capture("The renewal terms for Harbor are private.", now=T0, zone="outside_contact").details
        mid = seen["memory_id"]
        limited = Desk(eng, Identity.from_flags("ext", "outside_contact"), clock=lambda: T0 + timedelta(hours=1))
        owner = Desk(eng, Identity.from_flags("me", "private_self"), clock=lambda: T0 + timedelta(hours=1))

        def named(desk: Desk, ref: str) -> str | None:
            """The record a reference names: the one restated, or (the owner's server, whose captures are in
            another zone) the one the engine says is in another partition; None for `unknown_memory_id`."""
            r = desk.capture(text=text, restates=ref, sensitivity="public_safe")
            data = r.structured_content or {}
            assert data.get("details"), r.content
            if data["details"].get("reason") == "unknown_memory_id":
                return None
            assert data["status"] == "consolidated" or data["details"]["reason"] == "partition_mismatch", data
            return data["details"]["memory_id"]

        nothing = [
            "m",
            "mem_",
            "MEM_",
            " mem_ ",
            "mem_" + mid[4:9],
            mid.upper(),
            mid[:10].upper(),
            "mem_%",
            "./" + seen["page"],
        ]
        for ref in nothing:
            assert named(limited, ref) is None, ref
            assert named(owner, ref) is None, ref
        for ref in (mid, mid[:10], " " + mid[:10] + " ", seen["page"]):
            assert named(limited, ref) == mid, ref
            assert named(owner, ref) == mid, ref
        # A prefix of a record the zone may not see names nothing, for the zone.
        assert named(limited, hidden["memory_id"][:12]) is None
    finally:
        eng.close()


def test_a_limited_page_kept_beside_a_denied_record_names_no_conflict_number(tmp_path):
    """Taking the incoming side of a conflict whose existing side was denied (or gone) meanwhile writes "Kept in
    C<N> beside …" on the kept page: served to an outside contact, the number told it how many conflicts of other
    zones there were."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        t = private_conflicts(eng, 4)  # C1-C4
        public = {"zone": "outside_contact", "sensitivity": "public_safe", "key": "partner-rate-limit"}
        first = eng.capture("The partner API rate limit is 100 requests per minute.", now=t, **public)
        held = eng.capture("The partner API rate limit is 500 requests per minute.", now=t, **public)
        assert held.details["conflict_id"] == "C5"
        eng.deny(first.details["memory_id"], now=t + timedelta(minutes=1), actor="human:me")
        kept = eng.resolve_conflict("C5", "incoming", now=t + timedelta(minutes=2), actor="human:me")
        page = eng.page_of(kept.details["created"])
        written = Desk(eng, Identity.from_flags("me", "private_self")).page(page)
        assert "Kept in C5 beside" in written
        served = Desk(eng, Identity.from_flags("contact", "outside_contact")).page(page)
        assert "Kept in a conflict beside" in served and "C5" not in served
    finally:
        eng.close()


def test_a_limited_servers_reference_is_looked_up_within_its_zone_not_by_walking_every_listing(tmp_path, monkeypatch):
    """A prefix was resolved by walking every category's listing (O(wiki): 74 ms at 20,000 records), and a whole id
    that named nothing fell through to that walk: a hidden record's id answered in 1.6 ms and a made-up one in
    74 ms, the same refusal, so the time told an agent which ids the person holds. Now one range of the index
    within the zone's partitions; hidden ids neither cost anything nor make a prefix ambiguous."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        public = {"zone": "outside_contact", "sensitivity": "public_safe"}
        text = "The public status page lives at status.example.com for customers."
        mid = eng.capture(text, now=T0, actor="agent:seed", **public).details["memory_id"]
        hidden = eng.capture("The renewal terms for Harbor are private.", now=T0).details["memory_id"]
        limited = Desk(eng, Identity.from_flags("ext", "outside_contact"), clock=lambda: T0 + timedelta(hours=1))

        def walked(*args, **kwargs):
            raise AssertionError("a reference was looked up by walking a listing")

        monkeypatch.setattr(eng, "category_entries", walked)
        # what the zone sees, by its id, a prefix and its page
        for ref in (mid, mid[:10], eng.page_of(mid)):
            assert limited._visible_id(ref) == mid, ref
        # hidden, made up, or a prefix of a hidden id: nothing, for the zone
        for ref in (hidden, "mem_" + "0" * 16, hidden[:12], "mem_" + "f" * 10):
            assert limited._visible_id(ref) is None, ref
    finally:
        eng.close()

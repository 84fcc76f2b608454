from __future__ import annotations

import json
from datetime import timedelta

from memkeeper.core.pagefmt import parse_entry
from tests.conftest import T0

HUMAN = "human:alice"


def capture(eng, text="Kenji prefers async standups on Tuesdays and Thursdays.", **kw):
    kw.setdefault("source_ref", "raw/chat.md#L3")
    r = eng.capture(text, now=T0, **kw)
    assert r.status == "captured", r.details
    return r.details["memory_id"]


def test_pending_queue_lists_agent_inferred_unverified(eng):
    a = capture(eng)
    capture(eng, "Dana said the offsite is in Lisbon in March next year.", source_type="user_stated")
    assert [e.memory_id for e in eng.pending_verifications()] == [a]


def test_confirm_human_only_and_propagates(eng):
    a = capture(eng, title="Standups")
    b = capture(eng, title="Standups", zone="trusted_collaborator")  # same text, other partition
    r = eng.confirm(a, now=T0, actor="agent:bot")
    assert (r.status, r.details["reason"]) == ("refused", "human_actor_required")
    r = eng.confirm(a, now=T0, actor=HUMAN)
    assert r.status == "confirmed" and r.details["propagated_to"] == [b]
    for mid in (a, b):
        e = eng.load(mid)
        assert e.verified.by == HUMAN and e.source_type.value == "user_confirmed"
    assert eng.pending_verifications() == []
    line = json.loads((eng.root / "stated" / "confirmations.jsonl").read_text().splitlines()[0])
    assert line["memory_id"] == a and line["by"] == HUMAN


def test_deny_suppresses_then_undeny_captures(eng):
    text = "Kenji prefers async standups on Tuesdays and Thursdays."
    a = capture(eng, text)
    r = eng.deny(a, now=T0, actor=HUMAN, reason="wrong person")
    assert r.status == "denied" and eng.load(a).status.value == "denied"
    again = eng.capture(text, now=T0 + timedelta(days=1), source_ref="raw/chat.md#L3")
    assert again.status == "suppressed"
    u = eng.undeny(a, now=T0 + timedelta(days=2), actor=HUMAN)
    assert u.status == "undenied" and u.details["restored"] == [a]
    assert eng.load(a).status.value == "active"
    lines = (eng.root / "stated" / "denials.jsonl").read_text().splitlines()
    assert [json.loads(x)["action"] for x in lines] == ["deny", "undeny"]
    # the key is lifted: the same statement is ordinary memory again
    again = eng.capture(text, now=T0 + timedelta(days=3), source_ref="raw/chat.md#L3")
    assert again.status == "consolidated"


def test_undo_confirm_and_deny(eng):
    a = capture(eng)
    r = eng.confirm(a, now=T0, actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0, actor=HUMAN)
    e = eng.load(a)
    assert e.verified is None and e.source_type.value == "agent_inferred"
    r = eng.deny(a, now=T0, actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0, actor=HUMAN)
    assert eng.load(a).status.value == "active"
    assert eng.capture("Kenji prefers async standups on Tuesdays and Thursdays.", now=T0,
                       source_ref="raw/chat.md#L3").status == "consolidated"


def test_rebuild_reconstructs_identical_state(eng):
    a = capture(eng, title="Standups")
    b = capture(eng, "The design review moved to Wednesdays at 15:00 Berlin time.")
    c = capture(eng, "Marco is the release captain for the December train.")
    eng.confirm(a, now=T0, actor=HUMAN)
    eng.deny(b, now=T0 + timedelta(minutes=1), actor=HUMAN)
    eng.deny(c, now=T0 + timedelta(minutes=2), actor=HUMAN)
    eng.undeny(c, now=T0 + timedelta(minutes=3), actor=HUMAN)
    pages = {m: (eng.root / eng.page_of(m)).read_text() for m in (a, b, c)}
    # wreck the verification state by hand (as a careless edit would)
    for m in (a, b, c):
        p = eng.root / eng.page_of(m)
        e = parse_entry(p.read_text())
        e.verified = None
        e.source_type = e.source_type.__class__("agent_inferred")
        e.status = e.status.__class__("active")
        with eng.writing():
            eng.save(e)
    r = eng.rebuild_verification(now=T0 + timedelta(hours=1))
    assert sorted(r.details["changed"]) == sorted([a, b])
    for m in (a, b, c):
        want = parse_entry(pages[m])
        got = eng.load(m)
        assert (got.status, got.verified, got.source_type) == (want.status, want.verified, want.source_type)


def test_undo_of_old_deny_keeps_later_denial(eng):
    a = capture(eng)
    first = eng.deny(a, now=T0, actor=HUMAN)
    undeny = eng.undeny(a, now=T0 + timedelta(minutes=1), actor=HUMAN)
    second = eng.deny(a, now=T0 + timedelta(minutes=2), actor=HUMAN)
    r = eng.undo(first.receipt_sha256, now=T0 + timedelta(minutes=3), actor=HUMAN)
    assert (r.status, r.details["reason"]) == ("reject", "superseded_by_later_decision")
    assert r.details["superseded_by"] == undeny.receipt_sha256  # the first decision after it
    assert eng.load(a).status.value == "denied"
    assert eng.is_suppressed(second.details["suppression_key"])
    # the latest decision can still be undone, and then the older one is the latest again
    assert eng.undo(second.receipt_sha256, now=T0 + timedelta(minutes=4), actor=HUMAN).status == "undone"
    assert eng.load(a).status.value == "active"


def test_undo_ignores_later_decisions_that_were_undone(eng):
    a = capture(eng)
    deny = eng.deny(a, now=T0, actor=HUMAN)
    undeny = eng.undeny(a, now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert eng.undo(undeny.receipt_sha256, now=T0 + timedelta(minutes=2), actor=HUMAN).status == "undone"
    assert eng.load(a).status.value == "denied"
    # the undeny no longer stands, so the deny is the latest decision about the record again
    r = eng.undo(deny.receipt_sha256, now=T0 + timedelta(minutes=3), actor=HUMAN)
    assert r.status == "undone", r.details
    assert eng.load(a).status.value == "active" and not eng.is_suppressed(deny.details["suppression_key"])


def test_superseded_decision_order_follows_the_log_not_the_clock(eng):
    a = capture(eng)
    first = eng.deny(a, now=T0, actor=HUMAN)
    eng.undeny(a, now=T0 - timedelta(days=2), actor=HUMAN)  # --now in the past: a later decision all the same
    eng.deny(a, now=T0 - timedelta(days=1), actor=HUMAN)
    r = eng.undo(first.receipt_sha256, now=T0, actor=HUMAN)
    assert r.details.get("reason") == "superseded_by_later_decision"
    assert eng.load(a).status.value == "denied"


def test_undo_of_a_decision_about_other_records_is_not_blocked(eng):
    a = capture(eng)
    b = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    deny_a = eng.deny(a, now=T0, actor=HUMAN)
    eng.deny(b, now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert eng.undo(deny_a.receipt_sha256, now=T0 + timedelta(minutes=2), actor=HUMAN).status == "undone"
    assert eng.load(b).status.value == "denied"

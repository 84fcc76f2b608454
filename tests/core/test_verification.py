from __future__ import annotations

import json
from datetime import timedelta

import pytest

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


def test_a_denial_suppresses_only_where_the_capturing_zone_could_see_the_denied_record(eng):
    """A limited zone's agent told `suppressed` would learn that a person denied that very text in a record it may
    not read: a private denial does not suppress an outside_contact capture; it still suppresses the owner's."""
    text = "The team offsite is in Lisbon in March next year."
    private = capture(eng, text, sensitivity="do_not_export")
    shared = capture(eng, "Kenji prefers async standups on Tuesdays and Thursdays.", zone="trusted_collaborator")
    eng.deny(private, now=T0, actor=HUMAN)
    eng.deny(shared, now=T0, actor=HUMAN)
    later = T0 + timedelta(days=1)
    src = "raw/chat.md#L3"
    outside = eng.capture(text, now=later, source_ref=src, zone="outside_contact", sensitivity="public_safe")
    assert outside.status == "captured" and "suppression_key" not in outside.details
    trusted = eng.capture(text, now=later, source_ref=src, zone="trusted_collaborator")
    assert trusted.status == "captured"  # a do_not_export record is hidden from collaborators too
    assert eng.capture(text, now=later, source_ref=src, sensitivity="do_not_export").status == "suppressed"
    assert eng.capture(text, now=later, source_ref=src).status == "suppressed"  # the owner's zone sees every denial
    again = eng.capture(
        "Kenji prefers async standups on Tuesdays and Thursdays.",
        now=later,
        source_ref=src,
        zone="trusted_collaborator",
    )
    assert again.status == "suppressed"


def test_a_denial_still_suppresses_after_the_denials_ledger_is_lost(eng):
    """With stated/denials.jsonl deleted by hand, the denied statement was captured again as new memory and came
    back into the person's queue. The page still says denied: that suppresses, in the zones that see it."""
    text = "Kenji prefers async standups on Tuesdays and Thursdays."
    private = "The team offsite is in Lisbon in March next year."
    a = capture(eng, text, zone="trusted_collaborator")
    p = capture(eng, private, sensitivity="do_not_export")
    for mid in (a, p):
        assert eng.deny(mid, now=T0, actor=HUMAN).status == "denied"
    (eng.root / "stated" / "denials.jsonl").unlink()
    later = T0 + timedelta(days=1)
    src = "raw/chat.md#L3"
    assert eng.capture(text, now=later, source_ref=src, zone="trusted_collaborator").status == "suppressed"
    assert eng.capture(text, now=later, source_ref=src).status == "suppressed"
    assert eng.capture(private, now=later, source_ref=src).status == "suppressed"
    # A zone that may not see the denied record is not told of it; another source is another statement.
    assert eng.capture(private, now=later, source_ref=src, zone="trusted_collaborator").status == "captured"
    assert eng.capture(text, now=later, source_ref="raw/other.md#L1").status == "captured"
    assert not {a, p} & {e.memory_id for e in eng.pending_verifications()}  # the denied two stay out


def test_undo_confirm_and_deny(eng):
    a = capture(eng)
    r = eng.confirm(a, now=T0, actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0, actor=HUMAN)
    e = eng.load(a)
    assert e.verified is None and e.source_type.value == "agent_inferred"
    r = eng.deny(a, now=T0, actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0, actor=HUMAN)
    assert eng.load(a).status.value == "active"
    assert (
        eng.capture(
            "Kenji prefers async standups on Tuesdays and Thursdays.", now=T0, source_ref="raw/chat.md#L3"
        ).status
        == "consolidated"
    )


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


@pytest.mark.parametrize("repaired", [False, True], ids=["row_deleted", "row_repaired_to_the_end"])
def test_a_log_row_deleted_by_hand_does_not_make_an_older_decision_the_latest(eng, repaired):
    """log.md is the commit order undo reads; a row deleted by hand (and appended again at the end by a repair)
    must not make the older decision look like the latest: the receipts file it sits in keeps its place."""
    a = capture(eng)
    confirm = eng.confirm(a, now=T0, actor=HUMAN)
    eng.deny(a, now=T0 + timedelta(minutes=1), actor=HUMAN)
    log = eng.root / "log.md"
    log.write_text("".join(x for x in log.read_text().splitlines(True) if confirm.receipt_sha256 not in x))
    if repaired:
        assert eng.repair(now=T0 + timedelta(minutes=2), actor=HUMAN).details["log_rows_added"]
        assert eng.check().ok
    r = eng.undo(confirm.receipt_sha256, now=T0 + timedelta(minutes=3), actor=HUMAN)
    assert r.details.get("reason") == "superseded_by_later_decision", r.details
    got = eng.load(a)
    assert (got.status.value, got.source_type.value) == ("denied", "user_confirmed")


def test_undo_of_a_decision_about_other_records_is_not_blocked(eng):
    a = capture(eng)
    b = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    deny_a = eng.deny(a, now=T0, actor=HUMAN)
    eng.deny(b, now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert eng.undo(deny_a.receipt_sha256, now=T0 + timedelta(minutes=2), actor=HUMAN).status == "undone"
    assert eng.load(b).status.value == "denied"


def test_confirm_many_one_receipt_skips_same_text_and_undoes_whole(eng):
    a = capture(eng, title="Standups")
    twin = capture(eng, title="Standups", zone="trusted_collaborator")  # same text: the first item stamps it
    b = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    before = len(list(eng.iter_receipts()))
    r = eng.confirm_many([a, twin, b], now=T0, actor="agent:bot")
    assert (r.status, r.details["reason"]) == ("refused", "human_actor_required")
    r = eng.confirm_many([a, twin, b], now=T0, actor=HUMAN)
    assert r.status == "confirmed", r.details
    assert r.details["confirmed"] == [a, b] and r.details["skipped"] == [twin]
    assert sorted(r.details["memory_ids"]) == sorted([a, twin, b])
    assert len(list(eng.iter_receipts())) == before + 1  # one receipt for the batch
    assert eng.pending_verifications() == []
    lines = (eng.root / "stated" / "confirmations.jsonl").read_text().splitlines()
    assert [json.loads(x)["memory_id"] for x in lines] == [a, b]  # the twin is not re-stamped
    u = eng.undo(r.receipt_sha256[:12], now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert u.status == "undone" and sorted(u.details["restored"]) == sorted([a, twin, b])
    for m in (a, twin, b):
        e = eng.load(m)
        assert e.verified is None and e.source_type.value == "agent_inferred"
    # a rebuild from the ledgers agrees with the undo
    assert eng.rebuild_verification(now=T0 + timedelta(minutes=2)).details["changed"] == []


def test_confirm_many_is_atomic_and_blocks_undo_of_older_decisions(eng):
    a = capture(eng)
    b = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    eng.deny(b, now=T0, actor=HUMAN)
    r = eng.confirm_many([a, b], now=T0, actor=HUMAN)
    assert (r.status, r.details["reason"]) == ("reject", "record_is_denied")
    assert eng.load(a).verified is None  # nothing of the batch was written
    first = eng.confirm(a, now=T0, actor=HUMAN)
    eng.undo(first.receipt_sha256, now=T0, actor=HUMAN)
    c = capture(eng, "Marco is the release captain for the December train.")
    older = eng.confirm(c, now=T0 + timedelta(minutes=1), actor=HUMAN)
    batch = eng.confirm_many([a], now=T0 + timedelta(minutes=2), actor=HUMAN)
    assert batch.status == "confirmed"
    u = eng.undo(batch.receipt_sha256, now=T0 + timedelta(minutes=3), actor=HUMAN)
    assert u.status == "undone"
    assert eng.load(c).verified is not None  # other records' decisions stand
    assert eng.undo(older.receipt_sha256, now=T0 + timedelta(minutes=4), actor=HUMAN).status == "undone"


def test_deny_many_one_receipt_suppresses_each_and_undo_lifts_all(eng):
    text_a = "Kenji prefers async standups on Tuesdays and Thursdays."
    text_b = "Priya owns the quarterly billing reconciliation for EMEA."
    a, b = capture(eng, text_a), capture(eng, text_b)
    r = eng.deny_many([a, b], now=T0, actor=HUMAN, reason="not said")
    assert r.status == "denied" and r.details["memory_ids"] == [a, b] and r.details["count"] == 2
    assert {eng.load(m).status.value for m in (a, b)} == {"denied"}
    assert all(eng.is_suppressed(k) for k in r.details["suppression_keys"].values())
    # a later decision about one of the records blocks undoing the batch
    later = eng.undeny(a, now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert (
        eng.undo(r.receipt_sha256, now=T0 + timedelta(minutes=2), actor=HUMAN).details["reason"]
        == "superseded_by_later_decision"
    )
    eng.undo(later.receipt_sha256, now=T0 + timedelta(minutes=3), actor=HUMAN)
    u = eng.undo(r.receipt_sha256, now=T0 + timedelta(minutes=4), actor=HUMAN)
    assert u.status == "undone", u.details
    assert {eng.load(m).status.value for m in (a, b)} == {"active"}
    assert not any(eng.is_suppressed(k) for k in r.details["suppression_keys"].values())
    assert eng.capture(text_b, now=T0 + timedelta(minutes=5), source_ref="raw/chat.md#L3").status == "consolidated"


def test_the_queue_filter_folds_case_beyond_ascii(eng):
    # A person types the name as they think of it; the record spells it with capitals and an accent or an ß.
    a = eng.capture("Jürgen Müller reviews the STRASSE budget on Fridays.", now=T0, title="Müller review").details
    b = eng.capture("Øystein runs the Ålesund office handover.", now=T0, title="Ålesund handover").details
    assert eng.verify_count(needle="müller") == 1
    assert [e.memory_id for e in eng.verify_page(needle="MÜLLER")] == [a["memory_id"]]
    assert [e.memory_id for e in eng.verify_page(needle="ålesund")] == [b["memory_id"]]
    assert [e.memory_id for e in eng.verify_page(needle="straße")] == [a["memory_id"]]  # casefold: ß is "ss"
    assert eng.verify_count(needle="zürich") == 0


def test_a_ledger_cut_short_of_its_last_newline_keeps_every_later_decision(eng):
    """A ledger whose last line lost its newline (cut by hand, or an editor that drops it): the next decision is
    a line of its own, not glued onto that one, and both survive a rebuild from the ledgers."""
    a = capture(eng, "The cafeteria serves pizza every Wednesday at lunch.")
    b = capture(eng, "The parking garage closes at ten every night now.")
    eng.deny(a, now=T0, actor=HUMAN)
    denials = eng.root / "stated" / "denials.jsonl"
    denials.write_bytes(denials.read_bytes().rstrip(b"\n"))
    receipts = sorted((eng.root / "receipts").glob("*.jsonl"))[-1]
    receipts.write_bytes(receipts.read_bytes().rstrip(b"\n"))
    eng.deny(b, now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert [json.loads(line)["memory_id"] for line in denials.read_text().splitlines()] == [a, b]
    for line in receipts.read_text().splitlines():
        json.loads(line)  # every receipt is a whole line
    assert not [p for p in eng.check().problems if "denials" in p or "receipt" in p]
    for m in (a, b):
        e = eng.load(m)
        e.status = e.status.__class__("active")
        with eng.writing():
            eng.save(e)
    r = eng.rebuild_verification(now=T0 + timedelta(hours=1))
    assert sorted(r.details["changed"]) == sorted([a, b])
    assert {eng.load(m).status.value for m in (a, b)} == {"denied"}


def _recaptured_while_denied(eng):
    """A denied; an agent states the same again from another source (not suppressed): B, active."""
    text = "Kenji prefers async standups on Tuesdays and Thursdays."
    a = capture(eng, text)
    deny = eng.deny(a, now=T0 + timedelta(minutes=1), actor=HUMAN)
    b = eng.capture(text, now=T0 + timedelta(minutes=2), source_ref="raw/other.md#L9")
    assert b.status == "captured" and eng.load(b.details["memory_id"]).status.value == "active"
    return text, a, b.details["memory_id"], deny


def _active_holding(eng, text):
    found = eng.retrieve("Kenji standups", now=T0 + timedelta(hours=1), record_access=False).details["results"]
    return [r["memory_id"] for r in found]


def test_an_undenied_record_whose_statement_came_back_meanwhile_is_merged_into_that_record(eng):
    """Undeny A while B, captured from another source while A was denied, holds its statement: A comes back merged
    into B (archived, merged_into B), not as a second active copy quizzed and retrieved beside it. The denial is
    lifted all the same, and a verify rebuild keeps it so. Undoing the undeny denies A again, unmerged."""
    text, a, b, _ = _recaptured_while_denied(eng)
    u = eng.undeny(a, now=T0 + timedelta(minutes=3), actor=HUMAN)
    assert u.status == "undenied" and u.details["restored"] == [a] and u.details["merged_into"] == {a: b}
    got = eng.load(a)
    assert (got.status.value, got.merged_into) == ("archived", b)
    assert "already holds this statement" in got.notes[-1]
    assert eng.load(b).status.value == "active"
    assert _active_holding(eng, text) == [b]
    assert eng.check().problems == []
    # the suppression key is lifted: A's own source states it again, and it is merged as a restatement
    again = eng.capture(text, now=T0 + timedelta(minutes=4), source_ref="raw/chat.md#L3")
    assert again.status == "consolidated" and again.details["memory_id"] == b
    eng.rebuild_verification(now=T0 + timedelta(minutes=5))
    assert eng.load(a).status.value == "archived" and _active_holding(eng, text) == [b]


def test_undoing_an_undeny_that_merged_denies_the_record_again_unmerged(eng):
    _, a, b, _ = _recaptured_while_denied(eng)
    u = eng.undeny(a, now=T0 + timedelta(minutes=3), actor=HUMAN)
    eng.undo(u.receipt_sha256, now=T0 + timedelta(minutes=4), actor=HUMAN)
    got = eng.load(a)
    assert (got.status.value, got.merged_into) == ("denied", None)
    assert eng.load(b).status.value == "active"
    assert eng.check().problems == []


def test_undoing_a_denial_whose_statement_came_back_meanwhile_merges_the_same_way(eng):
    text, a, b, deny = _recaptured_while_denied(eng)
    r = eng.undo(deny.receipt_sha256, now=T0 + timedelta(minutes=3), actor=HUMAN)
    assert r.details["merged_into"] == {a: b}
    assert eng.load(a).status.value == "archived" and _active_holding(eng, text) == [b]
    assert eng.check().problems == []


def test_an_undeny_with_nothing_holding_the_statement_makes_the_record_active(eng):
    """The ordinary case is unchanged: no other record holds the text (one in another zone does not count)."""
    text = "Kenji prefers async standups on Tuesdays and Thursdays."
    a = capture(eng, text)
    other = capture(eng, text, zone="trusted_collaborator")
    eng.deny(a, now=T0, actor=HUMAN)
    u = eng.undeny(a, now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert "merged_into" not in u.details and eng.load(a).status.value == "active"
    assert eng.load(other).status.value == "active"


def test_a_deny_for_the_queue_refuses_a_record_no_longer_pending(eng):
    """`pending_only` (the desk acting on its list): a record confirmed since is refused with who confirmed it; one
    denied as part of a batch rejects the batch. Without it, a person may still overrule a confirmation."""
    a = capture(eng)
    b = capture(eng, "The design review moved to Wednesdays at 15:00 Berlin time.")
    eng.confirm(a, now=T0, actor="human:bob")
    r = eng.deny(a, now=T0 + timedelta(minutes=1), actor=HUMAN, pending_only=True)
    assert (r.status, r.details["reason"], r.details["confirmed_by"]) == ("reject", "record_is_confirmed", "human:bob")
    assert "human:bob confirmed it" in r.details["detail"]
    r = eng.deny_many([b, a], now=T0 + timedelta(minutes=1), actor=HUMAN, pending_only=True)
    assert (r.status, r.details["memory_id"]) == ("reject", a)
    assert eng.load(a).status.value == "active" and eng.load(b).status.value == "active"
    assert eng.deny(a, now=T0 + timedelta(minutes=2), actor=HUMAN).status == "denied"  # overruled on purpose


def test_undoing_a_deny_notes_it_on_the_page(eng):
    """The page said "Denied by …" after the undo as well, and agents read the page."""
    a = capture(eng)
    r = eng.deny(a, now=T0, actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0 + timedelta(minutes=1), actor=HUMAN)
    notes = eng.load(a).notes
    assert notes[-2].startswith("Denied by human:alice") and notes[-1].startswith("Denial undone by human:alice")


def test_undoing_a_confirmation_keeps_an_access_made_after_it(eng):
    """A confirmation refreshes strength as an access does, and its undo put back the access time from before it,
    rewinding an agent's restatement made in between (freshness and decay read it)."""
    text = "Kenji prefers async standups on Tuesdays and Thursdays."
    a = capture(eng, text)
    before = eng.load(a).last_accessed_at
    r = eng.confirm(a, now=T0 + timedelta(hours=2), actor=HUMAN)
    again = eng.capture(text, now=T0 + timedelta(hours=3), source_ref="raw/other.md#L1")
    assert again.status == "consolidated"
    eng.undo(r.receipt_sha256, now=T0 + timedelta(hours=4), actor=HUMAN)
    e = eng.load(a)
    assert e.verified is None and e.last_accessed_at == T0 + timedelta(hours=3)
    # with nothing in between, the undo puts the access back as it was
    r = eng.confirm(a, now=T0 + timedelta(hours=5), actor=HUMAN)
    eng.undo(r.receipt_sha256, now=T0 + timedelta(hours=6), actor=HUMAN)
    assert eng.load(a).last_accessed_at == T0 + timedelta(hours=3) != before


def test_undone_by_names_only_an_undo_that_undid(eng):
    """A refused undo names the receipt it refused to reverse; only an undo that undid it counts."""
    from memkeeper.core.receipts import make_receipt

    a = capture(eng)
    deny = eng.deny(a, now=T0, actor=HUMAN)
    refused = make_receipt("undo", "reject", T0, HUMAN, {"reason": "x", "reverses": deny.receipt_sha256})
    with eng.writing():
        eng.store.record(refused)
    assert eng.undone_by(deny.receipt_sha256) is None
    undo = eng.undo(deny.receipt_sha256, now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert eng.undone_by(deny.receipt_sha256) == undo.receipt_sha256


@pytest.mark.parametrize("later", [timedelta(milliseconds=500), -timedelta(days=1)], ids=["fraction", "clock_back"])
def test_rebuild_replays_a_ledger_in_the_order_it_was_written(eng, later):
    """ "…T10:00:00Z" sorts after "…T10:00:00.5Z" as text, and a clock set back writes an earlier time after a later
    one: the undeny of a deny is replayed after it all the same, and the record stays active."""
    a = capture(eng)
    eng.deny(a, now=T0, actor=HUMAN)
    eng.undeny(a, now=T0 + later, actor=HUMAN)
    assert eng.load(a).status.value == "active"
    r = eng.rebuild_verification(now=T0 + timedelta(hours=1))
    assert r.details["changed"] == [] and eng.load(a).status.value == "active"


def test_a_confirmed_record_keeps_the_stamp_of_the_person_who_confirmed_it(eng):
    """A second confirm (another person, another desk) is refused with who confirmed it; in a batch it is
    skipped, and the rest is stamped. A same-text record confirmed already is not stamped again by propagation."""
    a = capture(eng, title="Standups")
    b = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    twin = capture(eng, title="Standups", zone="trusted_collaborator")
    assert eng.confirm(twin, now=T0, actor="human:bob").status == "confirmed"  # propagates to a
    assert eng.load(a).verified.by == "human:bob"
    r = eng.confirm(a, now=T0 + timedelta(minutes=1), actor=HUMAN)
    assert (r.status, r.details["reason"], r.details["confirmed_by"]) == ("reject", "record_is_confirmed", "human:bob")
    many = eng.confirm_many([a, b], now=T0 + timedelta(minutes=2), actor=HUMAN)
    assert many.status == "confirmed"
    assert many.details["confirmed"] == [b] and many.details["skipped"] == [a]
    assert many.details["not_pending"][a]["confirmed_by"] == "human:bob"
    assert eng.load(a).verified.by == "human:bob" and eng.load(b).verified.by == HUMAN
    # the undo of the batch takes back only what it stamped
    assert eng.undo(many.receipt_sha256, now=T0 + timedelta(minutes=3), actor=HUMAN).status == "undone"
    assert eng.load(a).verified.by == "human:bob" and eng.load(b).verified is None


def test_a_persons_own_statement_is_not_made_a_confirmed_inference(eng):
    s = capture(eng, "Dana said the offsite is in Lisbon in March next year.", source_type="user_stated")
    r = eng.confirm(s, now=T0, actor=HUMAN)
    assert (r.status, r.details["reason"]) == ("reject", "record_is_user_stated")
    got = eng.load(s)
    assert (got.source_type.value, got.verified) == ("user_stated", None)


@pytest.mark.parametrize("bound", [500, 2])
def test_the_ids_of_many_marks_come_in_the_lists_order(eng, monkeypatch, bound):
    """Marks past the ids a query takes are read as the whole list kept to them: same ids, same order."""
    import memkeeper.core.verification as verification

    monkeypatch.setattr(verification, "ONLY_IN_QUERY", bound)
    texts = [
        "Kenji prefers async standups on Tuesdays and Thursdays.",
        "Priya owns the quarterly billing reconciliation for EMEA.",
        "The staging cluster is rebuilt from scratch every Sunday night.",
        "Marta reviews every pull request that touches the payments schema.",
    ]
    ids = [capture(eng, t) for t in texts]
    listed = eng.verify_ids("pending")
    marks = [ids[3], ids[0], ids[2]]
    assert eng.verify_ids("pending", only=marks) == [m for m in listed if m in marks]
    eng.confirm(ids[0], now=T0, actor=HUMAN)
    assert eng.verify_ids("pending", only=marks) == [m for m in listed if m in (ids[3], ids[2])]


def _put_back(eng, saved: dict[str, bytes]) -> None:
    """Pages put back as they were before the decisions (`git checkout -- entries/`, `git stash`, a backup): the
    ledgers in stated/ and the receipts are left as they are."""
    for page, raw in saved.items():
        (eng.root / page).write_bytes(raw)
    eng.sync()


def test_pages_put_back_from_an_older_copy_are_named_and_a_denied_record_is_never_served(eng):
    """A denied record came back active (served by retrieve) and a confirmed one pending, while the ledgers still
    said denied and confirmed, and check said ok. check names each record whose page disagrees with the ledgers,
    with both states and the fix; retrieval never serves, nor export ships, what the denials ledger denies; verify
    rebuild, the fix named, puts the ledgers' state back, after which check is clean."""
    denied = capture(eng, "The release train ships every second Thursday from main.", title="Release cadence")
    confirmed = capture(eng, "The project database is Postgres 15 on the main cluster.", title="Project database")
    saved = {eng.page_of(m): (eng.root / eng.page_of(m)).read_bytes() for m in (denied, confirmed)}
    assert eng.deny(denied, now=T0 + timedelta(minutes=1), actor=HUMAN).status == "denied"
    assert eng.confirm(confirmed, now=T0 + timedelta(minutes=2), actor=HUMAN).status == "confirmed"
    assert eng.check().ok, eng.check().problems
    _put_back(eng, saved)
    assert eng.load(denied).status.value == "active" and eng.load(confirmed).verified is None
    why = "the page put back from an older copy (git checkout, git stash, a backup) or edited by hand?"
    assert sorted(eng.check().problems) == [
        f"{eng.page_of(confirmed)}: not confirmed on its page, but stated/confirmations.jsonl confirms {confirmed} "
        f"(by {HUMAN} at 2026-11-20T09:02:00Z): {why} memkeeper verify rebuild puts the ledger's stamp back",
        f"{eng.page_of(denied)}: active on its page, but stated/denials.jsonl denies {denied} (by {HUMAN} at "
        f"2026-11-20T09:01:00Z): {why} Retrieval leaves it out meanwhile; memkeeper verify rebuild denies it again "
        f"(or memkeeper verify undeny {denied} lifts the denial)",
    ]
    hits = eng.retrieve("release train thursday", now=T0 + timedelta(hours=1), record_access=False)
    assert hits.details["results"] == []
    shipped = eng.export(zone="private_self", now=T0 + timedelta(hours=1), include_content=True)
    assert shipped.details["denied_left_out"] == 1
    assert "release train" not in (eng.root / shipped.details["envelope"]).read_text(encoding="utf-8")
    r = eng.rebuild_verification(now=T0 + timedelta(hours=1))
    assert sorted(r.details["changed"]) == sorted([denied, confirmed])
    assert eng.load(denied).status.value == "denied" and eng.load(confirmed).verified.by == HUMAN
    assert eng.check().ok, eng.check().problems


def test_a_page_that_says_more_than_the_ledgers_is_named_too(eng):
    """The other way round: a page denied or confirmed by hand (or put back from a newer copy), which no ledger line
    records: verify rebuild would undo it, so check says so before anyone runs it."""
    a = capture(eng, "The release train ships every second Thursday from main.", title="Release cadence")
    b = capture(eng, "The project database is Postgres 15 on the main cluster.", title="Project database")
    for mid, old, new in (
        (a, b"status: active", b"status: denied"),
        (b, b"verified: null", b"verified: {by: 'human:bob', at: '2026-11-20T10:00:00Z'}"),
    ):
        page = eng.root / eng.page_of(mid)
        page.write_bytes(page.read_bytes().replace(old, new))
    eng.sync()
    assert sorted(eng.check().problems) == [
        f"{eng.page_of(b)}: confirmed by human:bob at 2026-11-20T10:00:00Z on its page, but "
        f"stated/confirmations.jsonl holds no confirmation of {b}: the page put back from an older copy (git "
        "checkout, git stash, a backup) or edited by hand? memkeeper verify rebuild removes the stamp, as the ledger "
        "says",
        f"{eng.page_of(a)}: denied on its page, but stated/denials.jsonl does not deny {a}: the page put back from an "
        "older copy (git checkout, git stash, a backup) or edited by hand? memkeeper verify rebuild makes it active "
        "again, as the ledger says (to keep it denied, deny it once it is active)",
    ]


def test_a_confirmed_record_superseded_since_keeps_its_stamp_through_a_rebuild(eng):
    """verify rebuild kept a confirmation only while the record's text hashed as it did when confirmed: a confirmed
    record that lost a conflict (its text gains "[SUPERSEDED by C1]") lost its stamp to a rebuild, though every
    decision left it there. The ledgers and the page agree, so check is clean and a rebuild changes nothing."""
    old = capture(eng, "The billing database is Postgres.", key="billing-db", title="Billing database")
    assert eng.confirm(old, now=T0 + timedelta(minutes=1), actor=HUMAN).status == "confirmed"
    held = eng.capture("The billing database is MySQL.", now=T0 + timedelta(minutes=2), key="billing-db")
    assert held.status == "conflict"
    eng.resolve_conflict("C1", "incoming", now=T0 + timedelta(minutes=3), actor=HUMAN)
    assert eng.load(old).status.value == "superseded" and eng.load(old).verified.by == HUMAN
    assert eng.check().ok, eng.check().problems
    assert eng.rebuild_verification(now=T0 + timedelta(hours=1)).details["changed"] == []
    assert eng.load(old).verified.by == HUMAN

"""A conflict's existing side can change after the conflict was opened: superseded by another decision, denied by
a person, archived by decay, edited, or its page broken by hand. A decision on that conflict acts on the record as
it is now, and says what it did (an exploratory pass of the desk found each of these acting on the record as it
was, or reporting a record active that was not)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memkeeper.core import BadInput, Engine
from tests.conftest import T0

H = "human:me"


def three_days(eng: Engine) -> tuple[str, str, str]:
    """Friday stored; Monday and Wednesday each held against it (C1, C2)."""
    first = eng.capture("The Atlas team ships releases on Friday.", now=T0, actor="agent:a", title="Atlas release day")
    for day, n in (("Monday", 1), ("Wednesday", 2)):
        held = eng.capture(
            f"The Atlas team ships releases on {day}.",
            now=T0 + timedelta(days=n),
            actor="agent:b",
            title="Atlas release day",
        )
        assert held.status == "conflict" and held.details["conflict_id"] == f"C{n}", held.details
    return first.details["memory_id"], "C1", "C2"


def active_texts(eng: Engine) -> list[str]:
    rows = eng.index.query("SELECT memory_id FROM records WHERE status = 'active'")
    return sorted(eng.get(row["memory_id"]).content for row in rows)


def test_keeping_a_side_another_decision_superseded_leaves_it_superseded_and_says_so(eng):
    friday, c1, c2 = three_days(eng)
    eng.resolve_conflict(c1, "incoming", now=T0 + timedelta(days=3), actor=H)
    assert eng.get(friday).status.value == "superseded"
    r = eng.resolve_conflict(c2, "existing", now=T0 + timedelta(days=3, minutes=1), actor=H)
    assert r.status == "resolved"
    assert r.details["existing_status"] == "superseded" and r.details["winner"] == friday
    assert eng.get(friday).status.value == "superseded"  # keep made nothing active again
    assert active_texts(eng) == ["The Atlas team ships releases on Monday."]  # Wednesday is not taken
    decisions = (eng.root / "DECISIONS.md").read_text(encoding="utf-8")
    assert "[superseded: the decision left it so]" in decisions


def test_taking_the_incoming_side_of_a_denied_record_keeps_the_denial(eng):
    friday, _c1, c2 = three_days(eng)
    eng.deny(friday, now=T0 + timedelta(days=3), actor=H, reason="we never shipped on Fridays")
    r = eng.resolve_conflict(c2, "incoming", now=T0 + timedelta(days=3, minutes=1), actor=H)
    assert r.status == "resolved" and r.details["existing_status"] == "denied" and r.details["loser"] is None
    assert eng.get(friday).status.value == "denied"  # not superseded: the person's denial stands
    assert "The Atlas team ships releases on Wednesday." in active_texts(eng)
    # undoing the decision takes back only what it made: the denial stands
    undone = eng.undo(r.receipt_sha256, now=T0 + timedelta(days=3, minutes=2), actor=H)
    assert undone.status == "undone", undone.details
    assert eng.get(friday).status.value == "denied"
    assert "The Atlas team ships releases on Wednesday." not in active_texts(eng)
    assert eng.undeny(friday, now=T0 + timedelta(days=3, minutes=3), actor=H).status != "reject"


def test_both_valid_beside_an_archived_record_stores_the_statement_and_leaves_the_archive(eng):
    friday, _c1, c2 = three_days(eng)
    entry = eng.get(friday)
    page = eng.root / eng.page_of(friday)
    page.write_text(page.read_text(encoding="utf-8").replace("status: active", "status: archived"), encoding="utf-8")
    eng.check()
    assert eng.get(friday).status.value == "archived" and entry.status.value == "active"
    r = eng.resolve_conflict(c2, "both", now=T0 + timedelta(days=4), actor=H)
    assert r.status == "resolved" and r.details["existing_status"] == "archived"
    assert eng.get(friday).status.value == "archived"
    assert "The Atlas team ships releases on Wednesday." in active_texts(eng)


def test_a_side_whose_page_cannot_be_read_is_not_taken_for_deleted(eng):
    friday, c1, _c2 = three_days(eng)
    rel = eng.page_of(friday)
    page = eng.root / rel
    good = page.read_text(encoding="utf-8")
    page.write_text(good.replace("status: active", "status: [active"), encoding="utf-8")
    eng.check()
    for choice in ("incoming", "existing", "both"):
        with pytest.raises(BadInput) as err:
            eng.resolve_conflict(c1, choice, now=T0 + timedelta(days=4), actor=H)
        message = str(err.value)
        assert message.startswith(f"{c1}: its existing side's page {rel} cannot be read (")
        assert "mend the page" in message and "\n" not in message
    assert sorted(c.conflict_id for c in eng.conflicts()) == ["C1", "C2"]  # nothing decided
    page.write_text(good, encoding="utf-8")
    eng.check()
    assert active_texts(eng) == ["The Atlas team ships releases on Friday."]  # and nothing stored meanwhile


def test_the_decision_log_records_the_existing_side_as_it_was_decided_on(eng):
    friday, c1, _c2 = three_days(eng)
    page = eng.root / eng.page_of(friday)
    page.write_text(page.read_text(encoding="utf-8").replace("on Friday.", "on Thursday."), encoding="utf-8")
    eng.check()
    eng.resolve_conflict(c1, "existing", now=T0 + timedelta(days=4), actor=H)
    log = (eng.root / "DECISIONS.md").read_text(encoding="utf-8")
    entry = log.split(f"## {c1} ")[1]
    side_a = next(line for line in entry.splitlines() if line.startswith("- Side A"))
    assert side_a.endswith(
        "The Atlas team ships releases on Thursday. (edited since detection; detected as: The Atlas team ships "
        "releases on Friday.)"
    )
    # a side taken over carries its marker on the page, not an edit
    eng.resolve_conflict("C2", "incoming", now=T0 + timedelta(days=4, minutes=1), actor=H)
    entry = (eng.root / "DECISIONS.md").read_text(encoding="utf-8").split("## C2 ")[1]
    side_a = next(line for line in entry.splitlines() if line.startswith("- Side A"))
    assert "edited since detection" in side_a  # Thursday, against the Friday it was detected as
    assert "SUPERSEDED" not in side_a


def test_a_side_whose_page_name_another_record_took_since_is_gone_not_unreadable(eng):
    """Deleted by hand, the existing side's page name was free again, and a new record took it: that page is read
    (as the other record), so the side is gone, and taking the incoming side works as for a deleted page."""
    friday, c1, _c2 = three_days(eng)
    rel = eng.page_of(friday)
    (eng.root / rel).unlink()
    eng.check()
    other = eng.capture(
        "Atlas release notes are written by the docs team.", now=T0 + timedelta(days=4), title="Atlas release day"
    )
    assert eng.page_of(other.details["memory_id"]) == rel
    r = eng.resolve_conflict(c1, "incoming", now=T0 + timedelta(days=5), actor=H)
    assert r.status == "resolved" and r.details["existing_status"] == "gone"

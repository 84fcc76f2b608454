"""The record model (core/record.py): what a page's frontmatter may hold, what it reads to, how a bad field is
reported, and that keys the engine does not know survive a rewrite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memkeeper.core import Engine
from memkeeper.core.models import Category, Entry, Verified
from memkeeper.core.pagefmt import PageError, parse_entry, render_entry
from memkeeper.core.record import EntryError
from tests.conftest import T0

_BASE = {
    "memory_id": "mem_00000000000000aa",
    "canonical_key": "deploy-path",
    "title": "Deploy path",
    "created_at": "2026-01-02T03:04:05Z",
    "updated_at": "2026-01-02T03:04:05Z",
    "last_accessed_at": "2026-01-02T03:04:05Z",
}


def _page(**fields: str) -> str:
    """A hand-written page: the base keys, then `fields` as raw YAML lines."""
    lines = [f"{k}: {v}" for k, v in {**_BASE, **fields}.items()]
    return "---\n" + "\n".join(lines) + "\n---\n\nUse absolute paths.\n"


@pytest.mark.parametrize(
    ("field", "raw", "loc", "why"),
    [
        ("trust_zone", "purple", "trust_zone", "'purple' is not one of private_self, trusted_collaborator,"),
        ("confidence", "1.5", "confidence", "must be between 0 and 1"),
        ("confidence", "yes", "confidence", "must be a number, not True"),
        ("strength", ".inf", "strength", "must be a finite number"),
        ("reinforcement", "2.5", "reinforcement", "must be a whole number"),
        ("reinforcement", "-1", "reinforcement", "must be 0 or more"),
        ("created_at", "last tuesday", "created_at", "not a date-time"),
        ("created_at", "1700000000", "created_at", "not a date-time"),
        ("title", "''", "title", "must not be empty"),
        ("tags", "[ops, 7]", "tags.1", "must be a string, not 7"),
        ("verified", "{by: 'human:al', at: 2026-01-02, why: ok}", "verified.why", "unknown key"),
        ("verified", "{by: 'human:al'}", "verified.at", "required"),
    ],
)
def test_an_invalid_field_is_a_page_error_naming_the_field_and_its_line(field, raw, loc, why):
    text = _page(**{field: raw})
    line = text.split("\n").index(f"{field}: {raw}") + 1
    with pytest.raises(PageError) as exc:
        parse_entry(text)
    message = str(exc.value)
    assert message.startswith(f"invalid field {loc} (line {line}): {why}"), message
    assert "\n" not in message and exc.value.line == line


def test_a_missing_required_field_is_named():
    text = _page().replace("title: Deploy path\n", "")
    with pytest.raises(PageError, match=r"^invalid field title: required$"):
        parse_entry(text)


def test_hand_written_values_read_to_the_record_the_engine_would_write():
    entry = parse_entry(
        _page(
            expires_at="2027-03-01",  # a YAML date: midnight UTC
            created_at="2026-01-02 05:04:05+02:00",  # a YAML timestamp with an offset
            confidence="'0.5'",  # a number written as a string
            reinforcement="3.0",
            category="decision",
            tags="[' ops  team ', '', x]",
            notes_count="7",  # describes the body: never kept
        )
    )
    assert entry.expires_at == datetime(2027, 3, 1, tzinfo=UTC)
    assert entry.created_at == datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert (entry.confidence, entry.reinforcement, entry.category) == (0.5, 3, Category.decision)
    assert entry.tags == ["ops team", "x"]
    assert entry.extra == {} and "notes_count" not in entry.extra
    assert entry.frontmatter()["expires_at"] == "2027-03-01T00:00:00Z"


def test_keys_the_engine_does_not_know_are_written_back_after_its_own_in_page_order(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    page = eng.root / r.details["page"]
    hand = page.read_text().replace(
        "tags: []\n",
        "zeta: 1\ntags: []\nreviewed: 2026-02-01\nowner:\n  team: ops\n  since: 2025-12-01\nalpha: [b, a]\n",
    )
    page.write_text(hand)
    fresh = Engine.open(eng.root)
    try:
        fresh.retrieve("kestrel", now=T0 + timedelta(days=1))  # records the access: the page is rewritten
    finally:
        fresh.close()
    text = page.read_text()
    assert "last_accessed_at: '2026-11-21T09:00:00Z'" in text  # rewritten indeed
    tail = text.split("normalized_content_sha256: ", 1)[1].split("\n---\n", 1)[0].split("\n", 1)[1]
    assert tail == (
        "zeta: 1\nreviewed: '2026-02-01'\nowner:\n  team: ops\n  since: '2025-12-01'\nalpha:\n- b\n- a\nnotes_count: 0"
    )


def test_a_record_round_trips_and_compares_by_every_field():
    t = datetime(2026, 1, 2, tzinfo=UTC)
    entry = Entry.model_validate(
        {**_BASE, "verified": Verified(by="human:al", at=t), "content": "Body.", "notes": ["n1"], "custom": [1, 2]}
    )
    again = parse_entry(render_entry(entry))
    assert again == entry and again.extra == {"custom": [1, 2]}
    copy = entry.model_copy(deep=True)
    copy.notes.append("n2")
    copy.extra["custom"].append(3)
    assert entry.notes == ["n1"] and entry.extra == {"custom": [1, 2]}
    assert copy != entry
    copy = entry.model_copy(deep=True)
    copy.content = "Other body."
    assert copy != entry


def test_the_record_checks_what_the_engine_builds_too():
    with pytest.raises(EntryError) as exc:
        Entry(**{**_BASE, "category": "opinion"})
    assert exc.value.loc == "category" and "'opinion' is not one of preference, project, decision" in exc.value.msg
    with pytest.raises(EntryError, match="a record must be a mapping"):
        Entry.model_validate(["not", "a", "mapping"])

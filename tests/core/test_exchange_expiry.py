"""An envelope carries a record as it is: what has expired stays home, what expires keeps its own expiry, and what
finds a record (its recall phrases, tags, quiz question) comes with its content (SPEC §4: a record past its
`expires_at` is never returned; export/import)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from memkeeper.core import Engine
from memkeeper.core.receipts import canonical_json
from memkeeper.core.text import sha256_hex
from tests.conftest import T0

STAGING = "Use the staging-2 cluster for load tests while staging-1 is rebuilt."
FREEZE = "The quarterly planning freeze applies to all infra repos this year."
KESTREL = "The Kestrel rollout uses canary waves of five percent."
CHECKLIST = "Before a deploy, tag the release, drain the canary pool and post in the ops channel."
PAYLOAD_FIELDS = ("zone", "include_content", "items", "selected_ids", "source_receipt_sha256")


def export(engine: Engine, days: float, **kw):
    r = engine.export(zone=kw.pop("zone", "private_self"), now=T0 + timedelta(days=days), include_content=True, **kw)
    assert r.status == "ok", r.details
    path = engine.root / r.details["envelope"]
    return r, str(path), json.loads(path.read_text())


def found(engine: Engine, query: str, days: float) -> list[str]:
    r = engine.retrieve(query, now=T0 + timedelta(days=days), record_access=False)
    return [x["title"] for x in r.details["results"]]


def test_a_record_past_its_expiry_is_not_exported(source):
    """Retrieval stopped returning the record when it expired, but the export that day carried it (decay had not
    archived it yet), and an import brought it back to life elsewhere. It stays home, and the receipt says so."""
    gone = source.capture(STAGING, now=T0, title="Load test cluster", expires_at=T0 + timedelta(days=2))
    kept = source.capture(FREEZE, now=T0, title="Planning freeze", expires_at=T0 + timedelta(days=300))
    durable = source.capture(KESTREL, now=T0)
    assert found(source, "staging-2 load tests cluster", 10) == []  # the source no longer returns it

    r, _, env = export(source, 10)
    ids = [i["memory_id"] for i in env["items"]]
    assert gone.details["memory_id"] not in ids and gone.details["memory_id"] not in env["selected_ids"]
    assert sorted(ids) == sorted([kept.details["memory_id"], durable.details["memory_id"]])
    assert r.details["count"] == 2 and r.details["expired_left_out"] == 1
    assert "staging-2" not in json.dumps(env)

    # The day before it expired, it was exported, with its expiry.
    _, _, before = export(source, 1)
    [item] = [i for i in before["items"] if i["memory_id"] == gone.details["memory_id"]]
    assert item["expires_at"] == "2026-11-22T09:00:00Z"


def test_an_imported_record_keeps_its_own_expiry(source, other):
    """The import gave every expiring record a fresh default expiry (the import's time plus 14 days): one meant to
    last ten months was archived early, one about to expire lived two more weeks."""
    source.capture(FREEZE, now=T0, title="Planning freeze", expires_at="2027-09-30T00:00:00Z")
    source.capture(STAGING, now=T0, title="Load test cluster", expires_at=T0 + timedelta(days=3))
    _, path, env = export(source, 1)
    assert sorted(i["expires_at"] for i in env["items"]) == ["2026-11-23T09:00:00Z", "2027-09-30T00:00:00Z"]

    imp = other.import_envelope(path, now=T0 + timedelta(days=2))
    assert [x["status"] for x in imp.details["results"]] == ["captured", "captured"]
    made = {other.load(x["memory_id"]).title: other.load(x["memory_id"]) for x in imp.details["results"]}
    assert made["Planning freeze"].expires_at.isoformat() == "2027-09-30T00:00:00+00:00"
    assert made["Load test cluster"].expires_at.isoformat() == "2026-11-23T09:00:00+00:00"
    assert {e.memory_class.value for e in made.values()} == {"expiring"}

    # A month after the import (past the default 14 days) the freeze is still found; the cluster note is not.
    assert found(other, "quarterly planning freeze", 30) == ["Planning freeze"]
    assert found(other, "staging-2 load tests cluster", 4) == []
    assert other.decay(now=T0 + timedelta(days=30)).details["archived_count"] == 1
    assert other.load(made["Planning freeze"].memory_id).status.value == "active"


def test_an_item_expired_by_the_time_of_import_is_skipped(source, other):
    """An envelope exported while a record was live and imported after it expired: the import made it an active
    record with a new expiry. It is skipped as `expired`, and the other items still arrive."""
    staging = source.capture(STAGING, now=T0, title="Load test cluster", expires_at=T0 + timedelta(days=3))
    source.capture(KESTREL, now=T0)
    _, path, env = export(source, 1)
    assert len(env["items"]) == 2

    imp = other.import_envelope(path, now=T0 + timedelta(days=5))
    assert imp.status == "ok"
    assert [(s["memory_id"], s["reason"], s["expires_at"]) for s in imp.details["skipped"]] == [
        (staging.details["memory_id"], "expired", "2026-11-23T09:00:00Z")
    ]
    [arrived] = imp.details["results"]
    assert arrived["status"] == "captured" and other.load(arrived["memory_id"]).content == KESTREL
    assert found(other, "staging-2 load tests cluster", 5) == []
    assert [p.name for p in (other.root / "entries").glob("*.md")] == [
        Path(str(other.page_of(arrived["memory_id"]))).name
    ]


def test_recall_phrases_tags_and_quiz_question_arrive_with_the_content(source, other):
    """The imported record was no longer found by its recall phrase, and lost its tags and quiz question."""
    source.capture(
        CHECKLIST,
        now=T0,
        title="Deploy checklist",
        recall=["release steps"],
        tags=["ops", "deploy"],
        quiz_question="What is on the deploy checklist?",
    )
    assert found(source, "release steps", 1) == ["Deploy checklist"]
    _, path, _ = export(source, 1)

    imp = other.import_envelope(path, now=T0 + timedelta(days=2))
    [made] = imp.details["results"]
    assert made["status"] == "captured"
    assert found(other, "release steps", 2) == ["Deploy checklist"]
    entry = other.load(made["memory_id"])
    assert entry.recall == ["release steps"] and entry.tags == ["ops", "deploy"]
    [card] = other.quiz_session("alice", now=T0 + timedelta(days=2))
    assert card.question == "What is on the deploy checklist?"


def test_metadata_only_items_carry_no_recall_tags_or_quiz_question(source):
    """Recall phrases, tags and the question repeat the text: they leave only with it. Not in an envelope without
    content, not in an outside zone's (metadata only), not for a do_not_export record."""
    kw = dict(recall=["velvet harbour phrase"], tags=["velvet-tag"], quiz_question="Which velvet question?")
    source.capture(CHECKLIST, now=T0, title="Deploy checklist", zone="trusted_collaborator", **kw)
    source.capture(
        "The outside contact for vendor invoices is Marta at the finance desk.",
        now=T0,
        zone="trusted_collaborator",
        sensitivity="public_safe",
        **kw,
    )
    source.capture(FREEZE, now=T0, sensitivity="do_not_export", **kw)
    for zone, content in (("private_self", False), ("outside_contact", False), ("paid_public", False)):
        r = source.export(zone=zone, now=T0, include_content=content)
        raw = (source.root / r.details["envelope"]).read_text()
        assert json.loads(raw)["items"], zone
        assert "velvet" not in raw.lower(), zone
    _, _, env = export(source, 0)
    [dne] = [i for i in env["items"] if i["sensitivity_tier"] == "do_not_export"]
    assert not {"content", "recall", "tags", "quiz_question"} & set(dne)
    assert sum("recall" in i for i in env["items"]) == 2


def test_an_envelope_exported_before_expiry_and_recall_were_carried_still_imports(source, other, tmp_path):
    """An envelope written by an earlier version has no expires_at, recall, tags or quiz_question in its items. It
    still verifies and imports as it did: an expiring item gets the default expiry from the import's time."""
    items = [
        {
            "memory_id": "mem_00000000000000a1",
            "page": "entries/load-test-cluster.md",
            "title": "Load test cluster",
            "canonical_key": "load-test-cluster",
            "category": "fact",
            "memory_class": "expiring",
            "trust_zone": "private_self",
            "sensitivity_tier": "normal",
            "content_sha256": sha256_hex(STAGING),
            "source_type": "agent_inferred",
            "source_ref": None,
            "created_at": "2026-11-20T09:00:00Z",
            "confidence": 0.7,
            "content": STAGING,
        },
        {
            "memory_id": "mem_00000000000000b2",
            "page": "entries/kestrel.md",
            "title": "Kestrel rollout",
            "canonical_key": "kestrel-rollout",
            "category": "fact",
            "memory_class": "durable",
            "trust_zone": "private_self",
            "sensitivity_tier": "normal",
            "content_sha256": sha256_hex(KESTREL),
            "source_type": "agent_inferred",
            "source_ref": "raw/notes.md#L3",
            "created_at": "2026-11-20T09:00:00Z",
            "confidence": 0.8,
            "content": KESTREL,
        },
    ]
    payload = {
        "zone": "private_self",
        "include_content": True,
        "items": items,
        "selected_ids": [i["memory_id"] for i in items],
        "source_receipt_sha256": "0" * 64,
    }
    envelope = {
        "schema": "memkeeper.memory_update.v1",
        "created_at": "2026-11-20T10:00:00Z",
        "actor": "agent:cli",
        **payload,
        "payload_sha256": sha256_hex(canonical_json({k: payload[k] for k in PAYLOAD_FIELDS})),
    }
    header = {k: v for k, v in envelope.items() if k not in PAYLOAD_FIELDS and k != "payload_sha256"}
    envelope["header_sha256"] = sha256_hex(canonical_json(header))
    old = tmp_path / "old.json"
    old.write_text(json.dumps(envelope, indent=2))

    imp = other.import_envelope(str(old), now=T0 + timedelta(days=1))
    assert imp.status == "ok" and imp.details["header_checked"] is True and imp.details["skipped"] == []
    made = {other.load(x["memory_id"]).title: other.load(x["memory_id"]) for x in imp.details["results"]}
    assert sorted(made) == ["Kestrel rollout", "Load test cluster"]
    assert made["Load test cluster"].expires_at == T0 + timedelta(days=15)  # the import's time + 14 days
    assert made["Kestrel rollout"].expires_at is None and made["Kestrel rollout"].memory_class.value == "durable"
    assert made["Kestrel rollout"].recall == [] and made["Kestrel rollout"].tags == []

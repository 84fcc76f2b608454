"""Envelopes between wikis: one origin record counts once, whatever envelope brings it, and an envelope is imported
only as it was exported (SPEC §4 export/import: imports arrive agent_inferred, unverified, never with the source's
trust)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memkeeper.core import Engine
from memkeeper.core.errors import BadInput
from tests.conftest import T0

KESTREL = "The Kestrel rollout uses canary waves of five percent."
HERON = "The Heron team ships its mobile release every second Thursday."
IMPORT_CAP = 0.7  # what an imported statement's confidence is capped at (SPEC §4 capture default)


def files_outside_index(root: Path) -> dict[str, bytes]:
    """Every file the wiki holds (pages, receipts, log, queues), without the derived index."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memkeeper" not in p.relative_to(root).parts
    }


def export(engine: Engine, days: float) -> str:
    r = engine.export(zone="private_self", now=T0 + timedelta(days=days), include_content=True)
    assert r.status == "ok", r.details
    return str(engine.root / r.details["envelope"])


def payload_sha(envelope: str) -> str:
    return str(json.loads(Path(envelope).read_text())["payload_sha256"])


def edit_page(engine: Engine, memory_id: str, old: str, new: str) -> None:
    """A person edits a record's page by hand (the wiki's pages are theirs to edit); the engine picks it up."""
    page = engine.root / str(engine.page_of(memory_id))
    page.write_text(page.read_text().replace(old, new))
    engine.sync()
    assert new in engine.load(memory_id).content


# ------------------------------------------------------------------------------------- one origin, two envelopes


def test_one_origin_record_in_two_envelopes_counts_once(source, other):
    """Two exports of the same zone at different times carry the same record under different payload hashes. The
    second import made the record the first one brought consolidate into itself: reinforcement 2 and confidence 0.74,
    above what an import is capped at. It is the same record: skipped, and the receipt says where it already is."""
    origin = source.capture(KESTREL, now=T0).details["memory_id"]
    first_env = export(source, 0)
    heron_origin = source.capture(HERON, now=T0 + timedelta(hours=2)).details["memory_id"]  # new between the two
    second_env = export(source, 1)
    assert payload_sha(first_env) != payload_sha(second_env)

    first = other.import_envelope(first_env, now=T0 + timedelta(days=2))
    [made] = first.details["results"]
    assert (made["status"], made["origin"]) == ("captured", origin)
    kestrel = other.load(made["memory_id"])
    assert kestrel.confidence == IMPORT_CAP and kestrel.reinforcement == 1
    page = (other.root / str(other.page_of(kestrel.memory_id))).read_text()

    second = other.import_envelope(second_env, now=T0 + timedelta(days=3))
    assert second.status == "ok"
    # Only the record new in the second envelope arrives (and it does: nothing is lost).
    assert [(x["origin"], x["status"]) for x in second.details["results"]] == [(heron_origin, "captured")]
    assert other.load(second.details["results"][0]["memory_id"]).content == HERON
    # The record both envelopes carry is recognised, and the receipt names the record it already is.
    [skipped] = second.details["skipped"]
    assert skipped["memory_id"] == origin and skipped["reason"] == "already_imported"
    assert skipped["record"] == kestrel.memory_id
    after = other.load(kestrel.memory_id)
    assert after.confidence == IMPORT_CAP and after.reinforcement == 1
    assert (other.root / str(other.page_of(kestrel.memory_id))).read_text() == page
    assert after.source_type.value == "agent_inferred" and after.verified is None


def edited_between_exports(source: Engine, other: Engine, new: str):
    """KESTREL exported, "five percent" edited to `new` at the source, exported again; both envelopes imported by
    `other`. Returns the origin id, what the first import made, and the second import's receipt."""
    origin = source.capture(KESTREL, now=T0).details["memory_id"]
    first_env = export(source, 0)
    edit_page(source, origin, "five percent", new)
    second_env = export(source, 1)
    [made] = other.import_envelope(first_env, now=T0 + timedelta(days=2)).details["results"]
    return origin, made, other.import_envelope(second_env, now=T0 + timedelta(days=3))


def test_an_origin_record_restated_at_the_source_is_not_counted_again(source, other):
    """Between the two exports a person reworded the record at the source ("five percent" → "5 percent"): the same
    claim from the same record, not a second witness. It consolidated into the first import's record (0.74)."""
    origin, made, second = edited_between_exports(source, other, "5 percent")
    assert second.details["results"] == []
    assert [(s["memory_id"], s["reason"], s["record"]) for s in second.details["skipped"]] == [
        (origin, "already_imported", made["memory_id"])
    ]
    assert other.load(made["memory_id"]).confidence == IMPORT_CAP


def test_an_origin_record_changed_at_the_source_still_arrives(source, other):
    """Recognising the record is no licence to drop what changed in it: a new value arrives, here as a conflict with
    what the first import brought, for a person to decide, and the earlier record keeps its confidence."""
    origin, made, second = edited_between_exports(source, other, "twenty percent")
    [result] = second.details["results"]
    assert result["status"] == "conflict" and result["origin"] == origin
    assert second.details["skipped"] == []
    assert other.load(made["memory_id"]).confidence == IMPORT_CAP
    [conflict] = other.conflicts(now=T0 + timedelta(days=3))
    assert "twenty percent" in conflict.incoming["text"]


def test_a_denied_import_does_not_come_back_in_the_next_envelope(source, other):
    """A person denied what an import brought; the source's next export carries the same record. It came back as a
    new unverified record (the denial's suppression key names the first envelope's source reference)."""
    origin = source.capture(KESTREL, now=T0).details["memory_id"]
    first_env = export(source, 0)
    second_env = export(source, 1)

    [made] = other.import_envelope(first_env, now=T0 + timedelta(days=2)).details["results"]
    assert other.deny(made["memory_id"], now=T0 + timedelta(days=2), actor="human:alice").status == "denied"
    before = {e.memory_id for e in other.pending_verifications()}
    second = other.import_envelope(second_env, now=T0 + timedelta(days=3))
    assert second.details["results"] == []
    assert [(s["memory_id"], s["reason"], s["record"]) for s in second.details["skipped"]] == [
        (origin, "already_imported", made["memory_id"])
    ]
    assert {e.memory_id for e in other.pending_verifications()} == before
    assert other.load(made["memory_id"]).status.value == "denied"


# ------------------------------------------------------------------------------------------ what the hash covers


@pytest.mark.parametrize(
    "field, value",
    [
        ("actor", "human:mallory"),
        ("created_at", "2020-01-01T00:00:00Z"),
        ("note", "added by hand"),  # a field the export never wrote
    ],
)
def test_an_envelope_changed_outside_its_payload_is_refused(source, other, tmp_path, capsys, field, value):
    """`payload_sha256` covered the payload only: an envelope whose actor or time was changed by hand, or that was
    given a field, was imported as if it came so from the source. It is refused in one line and nothing is written,
    from the engine and from the command line."""
    source.capture(KESTREL, now=T0)
    data = json.loads(Path(export(source, 0)).read_text())
    assert data.get(field) != value
    data[field] = value
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data, indent=2))
    before = files_outside_index(other.root)

    with pytest.raises(BadInput, match="does not match") as caught:
        other.import_envelope(str(forged), now=T0 + timedelta(days=1))
    assert "\n" not in str(caught.value) and "nothing was imported" in str(caught.value)
    assert files_outside_index(other.root) == before

    from memkeeper.tui.cli import main

    code = main(["--root", str(other.root), "--now", "2026-11-21T09:00:00Z", "import", str(forged)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "does not match" in err, err
    assert files_outside_index(other.root) == before


def test_an_envelope_as_exported_says_who_exported_it_and_when(source, other):
    """The import's receipt names the envelope's exporter and time, which the envelope's hash now vouches for."""
    source.capture(KESTREL, now=T0, actor="agent:scribe")
    r = source.export(zone="private_self", now=T0 + timedelta(hours=3), actor="agent:scribe", include_content=True)
    imp = other.import_envelope(str(source.root / r.details["envelope"]), now=T0 + timedelta(days=1))
    assert imp.status == "ok" and [x["status"] for x in imp.details["results"]] == ["captured"]
    assert imp.details["exported_by"] == "agent:scribe"
    assert imp.details["exported_at"] == "2026-11-20T12:00:00Z"
    assert imp.details["header_checked"] is True


def test_an_envelope_written_before_the_header_hash_still_imports(source, other, tmp_path):
    """Envelopes exported before this change carry `payload_sha256` only. They still import (the source may be gone),
    their payload checked as before, and the receipt says their actor and time were not covered by a hash. Such an
    envelope holding any field but schema, created_at and actor is refused: nothing would vouch for it."""
    source.capture(KESTREL, now=T0)
    data = json.loads(Path(export(source, 0)).read_text())
    data.pop("header_sha256", None)  # exactly what the export wrote before
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data, indent=2))
    imp = other.import_envelope(str(old), now=T0 + timedelta(days=1))
    assert imp.status == "ok" and [x["status"] for x in imp.details["results"]] == ["captured"]
    assert imp.details["header_checked"] is False and imp.details["exported_by"] == "agent:cli"

    data["note"] = "added by hand"
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps(data, indent=2))
    before = files_outside_index(other.root)
    with pytest.raises(BadInput, match="note") as caught:
        other.import_envelope(str(extra), now=T0 + timedelta(days=2))
    assert "\n" not in str(caught.value)
    assert files_outside_index(other.root) == before


def test_an_envelope_whose_items_were_changed_is_still_refused(source, other, tmp_path):
    """The payload's own hash is checked as before (here with the header hash still matching)."""
    source.capture(KESTREL, now=T0)
    data = json.loads(Path(export(source, 0)).read_text())
    data["items"][0]["content"] = "The Kestrel rollout ships to everyone at once."
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data, indent=2))
    before = files_outside_index(other.root)
    with pytest.raises(BadInput, match="payload_sha256 does not match"):
        other.import_envelope(str(forged), now=T0 + timedelta(days=1))
    assert files_outside_index(other.root) == before


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        (1, "items[1] is not an object"),
        ({"memory_id": "mem_1", "content": ["a list"]}, "items[1].content is not a string"),
        ({"memory_id": "mem_1", "content": HERON, "confidence": "high"}, "items[1].confidence is not a number"),
        ({"memory_id": "mem_1", "content": HERON, "title": 7}, "items[1].title is not a string"),
        ({"memory_id": "mem_1", "content": HERON, "expires_at": "next week"}, "items[1].expires_at is not an ISO-8601"),
        ({"memory_id": "mem_1", "content": HERON, "created_at": "last week"}, "items[1].created_at is not an ISO-8601"),
        (
            {"memory_id": "mem_1", "content": HERON, "origin_created_at": 7},
            "items[1].origin_created_at is not a string",
        ),
        (
            {"memory_id": "mem_1", "content": HERON, "recall": "heron release"},
            "items[1].recall is not a list of strings",
        ),
        ({"memory_id": "mem_1", "content": HERON, "tags": ["ops", 7]}, "items[1].tags is not a list of strings"),
        ({"memory_id": "mem_1", "content": HERON, "quiz_question": ["q"]}, "items[1].quiz_question is not a string"),
    ],
)
def test_an_item_the_import_cannot_read_refuses_the_envelope_before_anything_is_written(
    source, other, tmp_path, bad, said
):
    """Envelopes whose hashes match may still be written by hand. An item of the wrong shape stopped the import half
    way with an internal error (AttributeError, ValueError), the items before it imported."""
    from memkeeper.core.receipts import canonical_json
    from memkeeper.core.text import sha256_hex

    source.capture(KESTREL, now=T0)
    data = json.loads(Path(export(source, 0)).read_text())
    data["items"].append(bad)
    payload = {k: data.get(k) for k in ("zone", "include_content", "items", "selected_ids", "source_receipt_sha256")}
    data["payload_sha256"] = sha256_hex(canonical_json(payload))
    data.pop("header_sha256")
    made = tmp_path / "made.json"
    made.write_text(json.dumps(data))
    before = files_outside_index(other.root)
    with pytest.raises(BadInput, match=re.escape(said)) as caught:
        other.import_envelope(str(made), now=T0 + timedelta(days=1))
    assert "\n" not in str(caught.value)
    assert files_outside_index(other.root) == before


# ----------------------------------------------------------------------------- from an exploratory pass of import


def rehashed(data: dict, path: Path) -> str:
    """An envelope written by hand: its payload hash recomputed, no header hash (as an envelope made before one)."""
    from memkeeper.core.receipts import canonical_json
    from memkeeper.core.text import sha256_hex

    payload = {k: data.get(k) for k in ("zone", "include_content", "items", "selected_ids", "source_receipt_sha256")}
    data["payload_sha256"] = sha256_hex(canonical_json(payload))
    data.pop("header_sha256", None)
    path.write_text(json.dumps(data))
    return str(path)


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda items: items.append(dict(items[0])), "items[0] and items[1] are one record"),
        (lambda items: items[0].update(memory_id="mem_x) import:aaaaaaaaaaaa:mem_y"), "items[0].memory_id is not"),
        (lambda items: items[0].update(memory_id="has a space"), "items[0].memory_id is not a record id"),
        (
            lambda items: items[0].update(memory_id="ghp_" + "Xy7Qw3Rt9Zk2Lm5Np8Vb4Hc6Jd1Fg0Sa2UeK"),
            "items[0].memory_id is a secret (github_token), not a record id",
        ),
    ],
    ids=["listed-twice", "forged-mark", "space", "a-token"],
)
def test_an_origin_id_listed_twice_or_not_an_id_refuses_the_envelope(source, other, tmp_path, edit, said):
    """One origin record listed three times raised the imported record to 0.78, and an id with a space or a bracket
    was read back from the record's source as another id (or a forged import mark), so each import of it counted
    again."""
    source.capture(KESTREL, now=T0)
    data = json.loads(Path(export(source, 0)).read_text())
    edit(data["items"])
    before = files_outside_index(other.root)
    with pytest.raises(BadInput, match=re.escape(said)) as caught:
        other.import_envelope(rehashed(data, tmp_path / "made.json"), now=T0 + timedelta(days=1))
    assert "\n" not in str(caught.value) and "nothing was imported" in str(caught.value)
    assert files_outside_index(other.root) == before


def test_one_statement_under_several_ids_in_one_envelope_counts_once(source, other, tmp_path):
    """The same text under five made-up origin ids took the imported record to confidence 0.98, reinforcement 8,
    still agent_inferred: past the import cap that says an import never carries the source's trust."""
    source.capture(KESTREL, now=T0)
    data = json.loads(Path(export(source, 0)).read_text())
    first = data["items"][0]
    data["items"] += [{**first, "memory_id": f"mem_{n:016x}"} for n in range(1, 5)]
    imp = other.import_envelope(rehashed(data, tmp_path / "made.json"), now=T0 + timedelta(days=1))
    assert [x["status"] for x in imp.details["results"]] == ["captured"]
    assert [s["reason"] for s in imp.details["skipped"]] == ["same_as_item"] * 4
    assert {s["item"] for s in imp.details["skipped"]} == {first["memory_id"]}
    record = other.load(imp.details["results"][0]["memory_id"])
    assert record.confidence <= IMPORT_CAP and record.reinforcement == 1


def test_a_confidence_of_zero_arrives_as_zero(source, other):
    """`0.0 or 0.7` made a record the source held at confidence 0 arrive at the import cap."""
    source.capture(KESTREL, now=T0, confidence=0.0)
    imp = other.import_envelope(export(source, 0), now=T0 + timedelta(days=1))
    assert other.load(imp.details["results"][0]["memory_id"]).confidence == 0.0


def test_a_wikis_own_records_coming_back_are_skipped(source, other):
    """Its own export imported again (a backup restored), or its record come back through a collaborator's wiki,
    consolidated into itself: 0.70 to 0.74, once per route."""
    mid = source.capture(KESTREL, now=T0).details["memory_id"]
    before = source.load(mid)
    own = source.import_envelope(export(source, 0), now=T0 + timedelta(days=1))
    assert own.details["results"] == []
    assert own.details["skipped"] == [{"memory_id": mid, "reason": "from_this_wiki", "record": mid}]

    other.import_envelope(export(source, 1), now=T0 + timedelta(days=2))
    back = source.import_envelope(export(other, 3), now=T0 + timedelta(days=4))
    assert back.details["results"] == [] and back.details["skipped"][0]["reason"] == "from_this_wiki"
    after = source.load(mid)
    assert (after.confidence, after.reinforcement) == (before.confidence, before.reinforcement)


def test_a_record_changed_on_its_way_back_still_arrives(source, other):
    """The other wiki edited the statement it imported: that is new evidence, captured as any item."""
    mid = source.capture(KESTREL, now=T0).details["memory_id"]
    imp = other.import_envelope(export(source, 0), now=T0 + timedelta(days=1))
    edit_page(other, imp.details["results"][0]["memory_id"], "five percent", "ten percent")
    back = source.import_envelope(export(other, 2), now=T0 + timedelta(days=3))
    assert [x["status"] for x in back.details["results"]] == ["conflict"], back.details
    assert source.load(mid).status.value == "active"


def test_an_import_before_the_envelope_was_exported_is_refused(source, other):
    source.capture(KESTREL, now=T0)
    envelope = export(source, 10)
    before = files_outside_index(other.root)
    with pytest.raises(BadInput, match="after this import's time") as caught:
        other.import_envelope(envelope, now=T0 + timedelta(days=2))
    assert "nothing was imported" in str(caught.value)
    assert files_outside_index(other.root) == before
    # within the clocks' skew it imports
    assert other.import_envelope(envelope, now=T0 + timedelta(days=10, minutes=-30)).status == "ok"


def test_an_item_refused_says_why(source, other, tmp_path):
    """A refused item read `items: 1 reject` and nothing more: its capture writes no receipt, and the reason was
    dropped."""
    source.capture(KESTREL, now=T0)
    data = json.loads(Path(export(source, 0)).read_text())
    data["items"][0]["trust_zone"] = "everyone"
    imp = other.import_envelope(rehashed(data, tmp_path / "made.json"), now=T0 + timedelta(days=1))
    [result] = imp.details["results"]
    assert (result["status"], result["reason"]) == ("reject", "invalid_trust_zone")


def test_an_import_held_in_a_conflict_is_not_held_again(source, other):
    """Imported again, an item held in a conflict opened the same conflict once more while it was open, and again
    after the person kept the existing side: C2 with the same two sides."""
    other.capture("The Kestrel rollout uses canary waves of ten percent.", now=T0)
    source.capture(KESTREL, now=T0)
    envelope = export(source, 0)
    first = other.import_envelope(envelope, now=T0 + timedelta(days=1))
    assert [x["status"] for x in first.details["results"]] == ["conflict"], first.details
    [c] = other.conflicts(now=T0 + timedelta(days=1))
    again = other.import_envelope(envelope, now=T0 + timedelta(days=2))
    assert again.details["results"] == []
    assert [(s["reason"], s["conflict"]) for s in again.details["skipped"]] == [("awaits_decision", c.conflict_id)]
    other.resolve_conflict(c.conflict_id, "existing", now=T0 + timedelta(days=3), actor="human:me")
    later = other.import_envelope(export(source, 4), now=T0 + timedelta(days=5))
    assert [(s["reason"], s["conflict"]) for s in later.details["skipped"]] == [("already_decided", c.conflict_id)]
    assert other.conflicts(now=T0 + timedelta(days=5)) == []


def test_a_derived_key_carries_no_authority_on_import(source, other):
    """The source's key, derived from its title, was passed as an explicit key: a statement the other wiki holds
    under another title (another derived key) was kept as a second, identical record instead of consolidated."""
    other.capture(HERON, now=T0, title="Heron mobile releases")
    source.capture(HERON, now=T0, title="Heron ship cadence")
    imp = other.import_envelope(export(source, 0), now=T0 + timedelta(days=1))
    assert [x["status"] for x in imp.details["results"]] == ["consolidated"], imp.details
    # a key the source was given stays a key
    source.capture(KESTREL, now=T0, key="kestrel-rollout-waves", title="Kestrel rollout")
    other.capture(KESTREL, now=T0, title="Kestrel canaries")
    imp = other.import_envelope(export(source, 2), now=T0 + timedelta(days=3))
    kept = [x for x in imp.details["results"] if x["status"] == "captured"]
    assert len(kept) == 1 and other.load(kept[0]["memory_id"]).canonical_key == "kestrel-rollout-waves"


def test_a_backup_restores_what_the_wiki_lost_and_skips_what_it_still_holds(source, tmp_path):
    """Its own export imported back: a record still here is skipped (even edited since: the export is its older
    word), and one whose page was lost is captured again from the envelope."""
    kept = source.capture(KESTREL, now=T0).details["memory_id"]
    lost = source.capture(HERON, now=T0).details["memory_id"]
    envelope = export(source, 0)
    edit_page(source, kept, "five percent", "ten percent")
    (source.root / str(source.page_of(lost))).unlink()
    source.sync()
    assert source.get(lost) is None
    back = source.import_envelope(envelope, now=T0 + timedelta(days=1))
    assert back.details["skipped"] == [{"memory_id": kept, "reason": "from_this_wiki", "record": kept}]
    [restored] = back.details["results"]
    assert restored["origin"] == lost and restored["status"] == "captured"
    assert source.load(restored["memory_id"]).content == HERON
    assert "ten percent" in source.load(kept).content


# ------------------------------------------------------------------------------------- progress, and stopping


STATEMENTS = [
    f"The {name} service keeps {n} days of access logs in cold storage."
    for n, name in enumerate(["Kestrel", "Heron", "Osprey", "Plover", "Avocet", "Dunlin"], start=3)
]


def test_an_import_says_how_far_it_is_and_stops_between_items_when_asked(source, other):
    """5,000 items took a minute and a half with nothing shown, and an import cut short left no receipt saying so.
    A stopped import's receipt is `partial`; the same import run again brings the rest, once."""
    for i, text in enumerate(STATEMENTS):
        source.capture(text, now=T0 + timedelta(minutes=i), title=f"Log retention {i}")
    envelope = export(source, 1)
    seen: list[tuple[int, int]] = []
    r = other.import_envelope(
        envelope,
        now=T0 + timedelta(days=2),
        progress=lambda d, n: seen.append((d, n)),
        cancelled=lambda: len(seen) >= 2,
    )
    assert r.status == "partial" and r.details["stopped"] == {"done": 2, "items": 6, "reason": "cancelled"}
    assert [x["status"] for x in r.details["results"]] == ["captured", "captured"]
    assert seen == [(1, 6), (2, 6)]
    assert r.receipt_sha256 in (other.root / "log.md").read_text()  # recorded, as far as it went
    seen.clear()
    again = other.import_envelope(envelope, now=T0 + timedelta(days=2), progress=lambda d, n: seen.append((d, n)))
    assert again.status == "ok" and "stopped" not in again.details
    assert [x["status"] for x in again.details["results"]] == ["captured"] * 4
    assert [s["reason"] for s in again.details["skipped"]] == ["already_imported"] * 2
    assert seen == [(d, 6) for d in range(1, 7)]
    assert other.counts(T0 + timedelta(days=2))["records"] == 6


def test_an_envelope_whose_exporter_is_a_secret_refuses_the_import(source, other, tmp_path):
    """The exporter is written into the import's receipt (`exported_by`), which nothing edits."""
    source.capture(KESTREL, now=T0)
    data = json.loads(Path(export(source, 0)).read_text())
    data["actor"] = "agent:ghp_" + "Xy7Qw3Rt9Zk2Lm5Np8Vb4Hc6Jd1Fg0Sa2UeK"
    before = files_outside_index(other.root)
    with pytest.raises(BadInput, match="its name is a secret") as caught:
        other.import_envelope(rehashed(data, tmp_path / "made.json"), now=T0 + timedelta(days=1))
    assert "Xy7Qw3Rt9Zk2" not in str(caught.value)
    assert files_outside_index(other.root) == before


# ------------------------------------------------------------------------ a log of dated reports, imported later

# Two reports of one series, each captured the day after the day it names (`relation.decision._two_occasions`).
FIRST_RUN, FIRST_AT = "Parkrun, 21 Nov: 5 km in 25:40", datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
SECOND_RUN, SECOND_AT = "Parkrun, 30 Jan: 5 km in 24:31", datetime(2027, 1, 31, 8, 0, tzinfo=UTC)
EXPORTED = datetime(2027, 2, 1, 9, 0, tzinfo=UTC)
IMPORTED = datetime(2027, 3, 15, 9, 0, tzinfo=UTC)  # both days more than a month before: not placeable from here


def runs_log(source: Engine) -> str:
    """The source keeps a log of two runs (two occasions where they were captured) and exports it."""
    for text, when in ((FIRST_RUN, FIRST_AT), (SECOND_RUN, SECOND_AT)):
        assert source.capture(text, now=when).status == "captured"
    r = source.export(zone="private_self", now=EXPORTED, include_content=True)
    return str(source.root / r.details["envelope"])


def said_at(engine: Engine) -> dict[str, tuple[str | None, str]]:
    """Each active record's text: (its origin_created_at, what the index says its statement's time is)."""
    from memkeeper.core.index_schema import STATEMENT_AT_SQL

    rows = engine.store.index.query(
        f"SELECT memory_id, content, {STATEMENT_AT_SQL} AS s FROM records WHERE status='active'"
    )
    out = {}
    for row in rows:
        at = engine.load(row["memory_id"]).origin_created_at
        out[row["content"]] = (at.isoformat() if at else None, row["s"])
    return out


def test_a_log_of_dated_reports_imports_as_two_occasions(source, other):
    """An import compared each item as of the import's time: "Parkrun, 21 Nov: 5 km in 25:40" and "Parkrun, 30 Jan:
    5 km in 24:31", imported in March, named days too far back to be placed, and the second was held as a
    contradiction of the first, where the wiki that captured them holds two runs. Each item is compared as of its
    origin record's created_at, and the record made keeps it: a run captured here later is a third occasion."""
    results = other.import_envelope(runs_log(source), now=IMPORTED).details["results"]
    assert [x["status"] for x in results] == ["captured", "captured"], results
    assert other.conflicts(now=IMPORTED) == []
    assert said_at(other) == {
        FIRST_RUN: (FIRST_AT.isoformat(), "2026-11-22T08:00:00Z"),
        SECOND_RUN: (SECOND_AT.isoformat(), "2027-01-31T08:00:00Z"),
    }
    page = (other.root / str(other.page_of(results[0]["memory_id"]))).read_text()
    assert "origin_created_at:" in page
    later = other.capture("Parkrun, 13 Mar: 5 km in 24:02", now=IMPORTED + timedelta(days=1))
    assert later.status == "captured", later.details
    assert said_at(other)["Parkrun, 13 Mar: 5 km in 24:02"] == (None, later.at)  # captured here: its own time


def test_a_log_imported_on_keeps_when_each_report_was_captured(source, other, tmp_path):
    """A wiki's export of what it imported says when the statement was first captured (`origin_created_at`), not
    only when it arrived there (`created_at`): imported on, the log is still two runs."""
    other.import_envelope(runs_log(source), now=IMPORTED)
    r = other.export(zone="private_self", now=IMPORTED + timedelta(days=1), include_content=True)
    third = Engine.init(tmp_path / "third", now=T0)
    try:
        results = third.import_envelope(str(other.root / r.details["envelope"]), now=IMPORTED + timedelta(days=2))
        assert [x["status"] for x in results.details["results"]] == ["captured", "captured"], results.details
        assert third.conflicts(now=IMPORTED + timedelta(days=2)) == []
        assert {k: v[0] for k, v in said_at(third).items()} == {
            FIRST_RUN: FIRST_AT.isoformat(),
            SECOND_RUN: SECOND_AT.isoformat(),
        }
    finally:
        third.close()


def test_an_imported_report_of_a_day_told_otherwise_here_still_conflicts(source, other):
    """Compared as of its capture, an imported report that gives another distance for a run this wiki holds is the
    same occasion told two ways: a conflict for a person, as any contradiction an import brings."""
    other.capture("Parkrun, 30 Jan: 3 km in 24:31", now=SECOND_AT + timedelta(hours=3))
    results = other.import_envelope(runs_log(source), now=IMPORTED).details["results"]
    assert sorted(x["status"] for x in results) == ["captured", "conflict"], results
    [conflict] = other.conflicts(now=IMPORTED)
    assert conflict.incoming["text"] == SECOND_RUN
    assert conflict.incoming["origin_created_at"] == "2027-01-31T08:00:00Z"

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest

from tests.conftest import T0

ZONE_CASES = [
    # (record zone, sensitivity, private_self, trusted_collaborator, outside_contact, paid_public)
    ("private_self", "normal", True, True, False, False),
    ("private_self", "do_not_export", True, False, False, False),
    ("private_self", "public_safe", True, True, False, False),
    ("trusted_collaborator", "public_safe", True, True, True, True),
    ("outside_contact", "normal", True, True, False, False),
    ("paid_public", "do_not_export", True, False, False, False),
]


@pytest.fixture
def zoned(eng):
    ids = {}
    for n, (zone, sens, *_rest) in enumerate(ZONE_CASES):
        r = eng.capture(
            f"Kestrel launch plan note {n}: the kestrel rollout uses canary waves.",
            now=T0,
            title=f"Kestrel note {n}",
            zone=zone,
            sensitivity=sens,
        )
        assert r.status == "captured", r.details
        ids[(zone, sens)] = r.details["memory_id"]
    return eng, ids


@pytest.mark.parametrize(
    "zone_index, zone", enumerate(["private_self", "trusted_collaborator", "outside_contact", "paid_public"])
)
def test_trust_zone_retrieval(zoned, zone_index, zone):
    eng, ids = zoned
    r = eng.retrieve("kestrel rollout", zone=zone, now=T0, record_access=False, actor="human:owner")
    got = {res["memory_id"] for res in r.details["results"]}
    want = {ids[(z, s)] for z, s, *flags in ZONE_CASES if flags[zone_index]}
    assert got == want
    assert r.details["hidden_by_zone"] == len(ZONE_CASES) - len(want)  # the owner previewing a zone is told
    as_agent = eng.retrieve("kestrel rollout", zone=zone, now=T0, record_access=False, actor="agent:helper")
    assert {res["memory_id"] for res in as_agent.details["results"]} == want
    assert "hidden_by_zone" not in as_agent.details  # an agent is never told what its zone may not see
    assert r.details["traversal_index"] == "index.md"


def test_a_hidden_count_says_when_it_stopped_at_its_bound(zoned, eng, monkeypatch):
    """The owner's count of hidden matches is looked up among at most `index.CANDIDATES` of them: at 100k records
    "300 hidden" stood for tens of thousands. The receipt says when the count stopped at the bound (a floor), and
    the command line shows it as "300+"."""
    from memkeeper.core import retrieve

    exact = eng.retrieve("kestrel rollout", zone="outside_contact", now=T0, record_access=False, actor="human:me")
    assert exact.details["hidden_by_zone"] == 5 and exact.details["hidden_by_zone_bounded"] is False
    monkeypatch.setattr(retrieve, "CANDIDATES", 3)
    floor = eng.retrieve("kestrel rollout", zone="outside_contact", now=T0, record_access=False, actor="human:me")
    assert floor.details["hidden_by_zone"] == 3 and floor.details["hidden_by_zone_bounded"] is True
    monkeypatch.setattr(retrieve, "CANDIDATES", 5)  # exactly as many as there are: still a floor, more may exist
    assert eng.retrieve(
        "kestrel rollout", zone="outside_contact", now=T0, record_access=False, actor="human:me"
    ).details["hidden_by_zone_bounded"]
    agent = eng.retrieve("kestrel rollout", zone="outside_contact", now=T0, record_access=False, actor="agent:x")
    assert "hidden_by_zone_bounded" not in agent.details  # an agent is told neither


def test_score_components_and_formula(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0, title="Kestrel rollout")
    res = eng.retrieve("kestrel rollout", now=T0 + timedelta(days=60), record_access=False).details["results"][0]
    c = res["components"]
    assert c["semantic"] == pytest.approx(1.0)
    assert c["freshness"] == pytest.approx(0.5, abs=1e-3)
    assert c["reinforcement"] == pytest.approx(0.25)
    assert c["confidence"] == pytest.approx(0.7)
    assert res["score"] == pytest.approx(0.45 + 0.2 * 0.5 + 0.2 * 0.25 + 0.15 * 0.7, abs=1e-3)
    assert res["memory_id"] == r.details["memory_id"]


def test_no_lexical_match_never_returned(eng):
    eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    r = eng.retrieve("invoice reconciliation", now=T0, record_access=False)
    assert r.details["results"] == []


def test_empty_query_and_unknown_zone_fail_closed(eng):
    log_before = (eng.root / "log.md").read_text()
    r = eng.retrieve("  the  ", now=T0)
    assert (r.status, r.details["reason"]) == ("reject", "empty_query")
    # a query of common words only is not empty as typed: the refusal says what it lacks
    assert "only common words" in r.details["detail"]
    assert "detail" not in eng.retrieve("   ", now=T0).details
    r = eng.retrieve("kestrel", zone="everyone", now=T0)
    assert (r.status, r.details["reason"]) == ("reject", "invalid_trust_zone")
    assert (eng.root / "log.md").read_text() == log_before


def test_preview_writes_nothing_but_agent_retrieve_records_access(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    page = eng.root / r.details["page"]
    before = page.read_text()
    log_before = (eng.root / "log.md").read_text()
    eng.retrieve("kestrel", now=T0 + timedelta(days=5), record_access=False)
    assert page.read_text() == before and (eng.root / "log.md").read_text() == log_before
    eng.retrieve("kestrel", now=T0 + timedelta(days=5))
    assert eng.load(r.details["memory_id"]).last_accessed_at == T0 + timedelta(days=5)
    assert (eng.root / "log.md").read_text() != log_before


# A process that holds the write lock (a long tier commit, a rebuild) until its stdin is closed.
HOLD_LOCK = """
import sys
from memkeeper.core.lockfile import FileLock
with FileLock(sys.argv[1]):
    print("held", flush=True)
    sys.stdin.read()
"""


@contextmanager
def _lock_held_by_another_process(root: Path) -> Iterator[None]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, str(root / ".memkeeper" / "write.lock")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        yield
    finally:
        holder.communicate("")  # closes its stdin: it releases the lock and exits
    assert holder.returncode == 0


def _files(root: Path) -> dict[str, bytes]:
    """Every file of the wiki but the derived index (.memkeeper/), with its bytes."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.relative_to(root).parts[0] != ".memkeeper"
    }


def test_retrieve_answers_at_once_while_another_process_holds_the_write_lock(eng):
    """A read never waits on a writer: the results come back at once (the lock's wait is 30 s), the access is not
    recorded (nothing is written, so nothing is half-written) and the receipt says so."""
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    mid = r.details["memory_id"]
    later = T0 + timedelta(days=5)
    before = _files(eng.root)
    with _lock_held_by_another_process(eng.root):
        t0 = time.monotonic()
        got = eng.retrieve("kestrel", now=later, actor="agent:x")
        took = time.monotonic() - t0
    assert took < 5.0, took
    assert got.status == "ok" and [x["memory_id"] for x in got.details["results"]] == [mid]
    assert got.details["access_recorded"] is False and got.details["access_skipped"] == "write_lock_busy"
    assert _files(eng.root) == before  # no page, ledger, journal or temp file was touched
    assert eng.load(mid).last_accessed_at == T0
    assert eng.check().ok, eng.check().problems
    # With the lock free again, the next read records its access as ever.
    again = eng.retrieve("kestrel", now=later, actor="agent:x")
    assert again.details["access_recorded"] is True and "access_skipped" not in again.details
    assert eng.load(mid).last_accessed_at == later
    logged = [json.loads(line) for line in (eng.root / "receipts" / f"{later.date()}.jsonl").read_text().splitlines()]
    assert [x["receipt_sha256"] for x in logged if x["action"] == "retrieve"] == [again.receipt_sha256]
    assert eng.check().ok, eng.check().problems


def test_retrieve_inside_its_own_threads_hold_of_the_lock_records_its_access(eng):
    """The lock is re-entrant within a thread: a retrieve run inside this thread's own operation records its access."""
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    later = T0 + timedelta(days=5)
    with eng.lock:
        got = eng.retrieve("kestrel", now=later, actor="agent:x")
    assert got.details["access_recorded"] is True
    assert eng.load(r.details["memory_id"]).last_accessed_at == later


def test_cold_records_are_pointers(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    e = eng.load(r.details["memory_id"])
    from memkeeper.core.models import Tier

    e.tier = Tier.cold
    with eng.writing():
        eng.save(e)
    res = eng.retrieve("kestrel", now=T0, record_access=False).details["results"][0]
    assert res["excerpt"] is None and res["page"] == r.details["page"] and res["title"]


def test_rebuilding_index_gives_identical_results(zoned):
    eng, _ = zoned
    before = eng.retrieve("kestrel canary", now=T0, record_access=False, actor="human:owner").details
    eng.close()
    shutil.rmtree(eng.root / ".memkeeper")
    from memkeeper.core import Engine

    fresh = Engine.open(eng.root)
    after = fresh.retrieve("kestrel canary", now=T0, record_access=False, actor="human:owner").details
    assert after["results"] == before["results"] and after["hidden_by_zone"] == before["hidden_by_zone"]
    fresh.close()


def test_export_boundaries(zoned):
    eng, ids = zoned
    dne = {v for (z, s), v in ids.items() if s == "do_not_export"}
    for zone in ("trusted_collaborator", "outside_contact", "paid_public"):
        r = eng.export(zone=zone, now=T0)
        env = json.loads((eng.root / r.details["envelope"]).read_text())
        assert not dne & set(env["selected_ids"])
        assert all("content" not in i for i in env["items"])
    for zone in ("outside_contact", "paid_public"):
        r = eng.export(zone=zone, now=T0, include_content=True)
        assert (r.status, r.details["reason"]) == ("reject", "content_not_allowed_for_zone")
    r = eng.export(zone="private_self", now=T0, include_content=True)
    env = json.loads((eng.root / r.details["envelope"]).read_text())
    items = {i["memory_id"]: i for i in env["items"]}
    assert dne <= set(items)
    assert all("content" not in items[m] for m in dne)
    assert all("content" in i for m, i in items.items() if m not in dne)
    r = eng.export(zone="trusted_collaborator", now=T0, include_content=True)
    env = json.loads((eng.root / r.details["envelope"]).read_text())
    assert all(i["sensitivity_tier"] != "do_not_export" for i in env["items"])


def test_a_private_self_envelope_carries_nothing_that_repeats_a_do_not_export_text(eng):
    """The envelope omitted a do_not_export record's content but gave its title, which a title made from the text
    is, and its key, page name and source (the text's slug, a quote)."""
    secret = "Alice's home address is 12 Elm Street, Springfield."
    r = eng.capture(secret, now=T0, sensitivity="do_not_export", source_ref="notes: 12 Elm Street")
    mid = r.details["memory_id"]
    for include_content in (True, False):
        out = eng.export(zone="private_self", now=T0, include_content=include_content)
        raw = (eng.root / out.details["envelope"]).read_text()
        assert "Elm" not in raw and "elm" not in raw and "home-address" not in raw, raw
        [item] = [i for i in json.loads(raw)["items"] if i["memory_id"] == mid]
        assert item["sensitivity_tier"] == "do_not_export" and item["content_sha256"]


def test_an_envelope_for_a_limited_zone_shows_the_person_as_that_zones_server_does(tmp_path, eng):
    """An export for trusted_collaborator (with content), outside_contact and paid_public (metadata) carried the
    person's login (`actor: human:alice.smith`) and full local paths (`/home/alice.smith/Documents/clients/…`), while
    the MCP server of the same zone shows `human` and the file's name (`limited_entry`). The envelope now carries
    what that zone's server shows, by the same code; the owner's own envelope carries both as they are, and an
    envelope naming its exporter `human` imports."""
    from memkeeper.core import Engine
    from memkeeper.core.shown import limited_entry

    alice = "human:alice.smith"
    local = "/home/alice.smith/Documents/clients/acme-confidential/sirius-plan.md"
    relative = "raw/session-2026-11-20.md#L40"
    plan = eng.capture(
        "The Sirius migration moves billing to the new ledger in Q3.",
        now=T0,
        actor=alice,
        zone="trusted_collaborator",
        sensitivity="public_safe",
        source_ref=local,
    ).details["memory_id"]
    kept = eng.capture(
        "The Vega status page is refreshed every five minutes.",
        now=T0,
        actor=alice,
        zone="trusted_collaborator",
        sensitivity="public_safe",
        source_ref=relative,
    ).details["memory_id"]
    envelopes = {}
    for zone, content in (("trusted_collaborator", True), ("outside_contact", False), ("paid_public", False)):
        r = eng.export(zone=zone, now=T0, actor=alice, include_content=content)
        raw = (eng.root / r.details["envelope"]).read_text()
        assert "alice.smith" not in raw and "/home" not in raw and "acme-confidential" not in raw, (zone, raw)
        env = json.loads(raw)
        items = {i["memory_id"]: i for i in env["items"]}
        assert env["actor"] == "human"
        assert items[plan]["source_ref"] == "sirius-plan.md" == limited_entry(eng.load(plan)).source_ref
        assert items[kept]["source_ref"] == relative  # a relative source says nothing of the person: as written
        envelopes[zone] = eng.root / r.details["envelope"]
    own = json.loads((eng.root / eng.export(zone="private_self", now=T0, actor=alice).details["envelope"]).read_text())
    assert own["actor"] == alice
    assert {i["memory_id"]: i["source_ref"] for i in own["items"]}[plan] == local
    other = Engine.init(tmp_path / "other", now=T0)
    try:
        imp = other.import_envelope(str(envelopes["trusted_collaborator"]), now=T0 + timedelta(hours=1))
        assert imp.status == "ok" and imp.details["exported_by"] == "human" and imp.details["header_checked"]
        refs = {x["origin"]: other.load(x["memory_id"]).source_ref for x in imp.details["results"]}
        assert refs[plan].endswith(f":{plan} (sirius-plan.md)") and refs[kept].endswith(f":{kept} ({relative})"), refs
    finally:
        other.close()


def test_import_arrives_unverified(tmp_path, zoned):
    eng, ids = zoned
    mid = ids[("private_self", "normal")]
    eng.confirm(mid, now=T0, actor="human:alice")
    r = eng.export(zone="private_self", now=T0, include_content=True)
    from memkeeper.core import Engine

    other = Engine.init(tmp_path / "other", now=T0)
    imp = other.import_envelope(str(eng.root / r.details["envelope"]), now=T0 + timedelta(hours=1))
    assert imp.status == "ok"
    created = [x for x in imp.details["results"] if x["status"] == "captured"]
    assert created
    for x in created:
        e = other.load(x["memory_id"])
        assert e.source_type.value == "agent_inferred" and e.verified is None
        assert e.source_ref.startswith("import:")
    assert len(other.pending_verifications()) >= len(created)
    other.close()


def test_the_same_envelope_imported_again_changes_nothing(tmp_path, eng):
    """An envelope imported twice is no new evidence: the second import skips every item it already brought,
    whether the first made a record of it or consolidated it into one that was already there."""
    from memkeeper.core import Engine

    shared = "Dana said the design review moves to Thursdays from now on."
    eng.capture(shared, now=T0)
    eng.capture("The Kestrel rollout uses canary waves of five percent.", now=T0)
    env = str(eng.root / eng.export(zone="private_self", now=T0, include_content=True).details["envelope"])
    other = Engine.init(tmp_path / "other", now=T0)
    other.capture(shared, now=T0)  # the first import restates this one
    first = other.import_envelope(env, now=T0 + timedelta(hours=1))
    assert sorted(x["status"] for x in first.details["results"]) == ["captured", "consolidated"]
    pages = {p: p.read_text() for p in (other.root / "entries").glob("*.md")}
    for n in (2, 3):
        again = other.import_envelope(env, now=T0 + timedelta(hours=n))
        assert again.status == "ok" and again.details["results"] == []
        assert [x["reason"] for x in again.details["skipped"]] == ["already_imported"] * 2
    assert {p: p.read_text() for p in (other.root / "entries").glob("*.md")} == pages
    other.close()


def test_snapshot_never_overwrites(eng):
    eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    a = eng.snapshot(now=T0)
    b = eng.snapshot(now=T0)
    assert a.details["snapshot"] != b.details["snapshot"]
    manifest = json.loads((eng.root / a.details["snapshot"] / "manifest.json").read_text())
    assert manifest["patterns_line_count"] >= 1 and len(manifest["state_sha256"]) == 64
    assert not (eng.root / a.details["snapshot"] / "snapshots").exists()
    assert not (eng.root / a.details["snapshot"] / ".memkeeper").exists()


def test_a_record_past_its_expiry_is_never_returned_even_before_decay(eng):
    eng.capture("Support hours are nine to five on weekdays, Berlin time.", now=T0, expires_at="2026-11-25")
    hit = eng.retrieve("support hours", zone="private_self", now=T0 + timedelta(days=2), record_access=False)
    assert [r["title"] for r in hit.details["results"]]
    later = eng.retrieve("support hours", zone="private_self", now=T0 + timedelta(days=6), record_access=False)
    assert later.details["results"] == []
    assert eng.load(hit.details["results"][0]["memory_id"]).status.value == "active"  # not archived, just not returned


def test_a_word_in_most_records_ranks_like_the_others_and_still_fills_the_results(eng):
    # "harbour" is in every record, "lantern" and "mooring" in one each: the rarer words decide the order (the
    # index asks them first), and records holding only the common word still fill the results after them.
    topics = ["ferry timetable", "fish market", "lighthouse keeper", "sailing club", "dry dock", "tide tables"]
    for n, topic in enumerate(topics):
        r = eng.capture(f"The harbour {topic} notes, entry {n}.", now=T0 + timedelta(minutes=n), title=topic)
        assert r.status == "captured", r.details
    lantern = eng.capture("The harbour lantern is lit at dusk.", now=T0, title="Lantern").details["memory_id"]
    mooring = eng.capture("Harbour mooring fees are paid monthly.", now=T0, title="Mooring").details["memory_id"]
    now = T0 + timedelta(hours=1)
    both = eng.retrieve("harbour lantern mooring", now=now).details["results"]
    ids = [r["memory_id"] for r in both]
    assert set(ids[:2]) == {lantern, mooring}, ids
    assert len(ids) == 8, ids  # every record holds "harbour": the rest follow the two
    only_common = eng.retrieve("harbour", now=now).details["results"]
    assert len(only_common) == 8

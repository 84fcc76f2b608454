"""A write commits as one unit; check finds what a crash or a hand edit leaves; check --repair fixes the derived part.

A kill is simulated in-process by raising a BaseException at a chosen step (the process's own cleanup then runs,
which a real SIGKILL would skip — the files on disk are the same). tests/core/test_probes.py kills real processes.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from datetime import timedelta

import pytest

import memkeeper.core.journal as journal
from memkeeper.core import Engine
from memkeeper.core.pagefmt import parse_entry
from memkeeper.tui.cli import main
from tests.conftest import T0

TEXT = "The kestrel rollout uses canary waves of five percent."


class Killed(BaseException):
    """Stands for SIGKILL: nothing of the operation after this point runs."""


def kill_when(monkeypatch, module, name, predicate):
    real = getattr(module, name)

    def fake(*args, **kwargs):
        if predicate(*args, **kwargs):
            raise Killed
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, fake)


def trail(root):
    receipts = [json.loads(x) for f in sorted((root / "receipts").glob("*.jsonl")) for x in f.read_text().splitlines()]
    log = [x for x in (root / "log.md").read_text().splitlines() if x.startswith("| 20")]
    patterns = [json.loads(x) for x in (root / "patterns" / "PATTERNS.jsonl").read_text().splitlines()]
    return receipts, log, patterns


def count_everywhere(root, sha):
    receipts, log, patterns = trail(root)
    return (
        sum(r["receipt_sha256"] == sha for r in receipts),
        sum(x.endswith(f"| {sha} |") for x in log),
        sum(p["payload"]["receipt_sha256"] == sha for p in patterns),
    )


def last_receipt(root):
    return [json.loads(x) for f in sorted((root / "receipts").glob("*.jsonl")) for x in f.read_text().splitlines()][-1]


# ---------------------------------------------------------------------------------------------------- the journal


def test_check_does_not_call_the_staged_page_of_a_committed_write_uncommitted(eng, monkeypatch):
    """Killed after its intent was written and before its page was put in place: the staged page belongs to a
    committed write, which the next write completes. check says so once, and never that the staged file "never
    committed" (a person deleting it on that word would lose the page of a receipt)."""
    eng.capture(TEXT, now=T0)
    kill_when(monkeypatch, journal, "_apply_write", lambda root, step, target, out: step["path"].startswith("entries/"))
    with pytest.raises(Killed):
        eng.capture("The heron rollout pauses on Fridays before the code freeze.", now=T0, title="Heron rollout")
    monkeypatch.undo()
    staged = journal.leftover_stage(eng.root)
    assert staged
    fresh = Engine.open(eng.root)
    problems = fresh.check().problems
    assert [p for p in problems if p.startswith("journal/intent.json: an interrupted write")], problems
    assert not [p for p in problems if "never committed" in p], problems
    fresh.capture("The osprey rollout ships on Mondays after the review.", now=T0 + timedelta(minutes=1))
    assert (eng.root / "entries" / "heron-rollout.md").exists()
    assert fresh.check().ok, fresh.check().problems
    fresh.close()


def test_check_names_an_uncommitted_staged_file_once(eng):
    eng.capture(TEXT, now=T0)
    stage = eng.root / journal.STAGE_DIR
    stage.mkdir(parents=True, exist_ok=True)
    (stage / "0-entries-x.md").write_text("half")
    (stage / ".0-entries-x.md.a1b2c3d4.tmp").write_text("half")
    problems = eng.check().problems
    assert [p for p in problems if "0-entries-x.md: staged by a write that never committed" in p], problems
    assert len([p for p in problems if "a1b2c3d4" in p]) == 1, problems


def test_kill_between_receipt_and_log_is_repaired(eng, monkeypatch):
    eng.capture(TEXT, now=T0)
    kill_when(monkeypatch, journal, "append_lines", lambda path, lines: path.name == "log.md")
    with pytest.raises(Killed):
        eng.capture("The heron rollout pauses on Fridays before the code freeze.", now=T0, title="Heron rollout")
    monkeypatch.undo()
    sha = last_receipt(eng.root)["receipt_sha256"]
    assert count_everywhere(eng.root, sha) == (1, 0, 0)  # the crash of issue 7: a receipt with no log row
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert any(p.startswith("journal/intent.json: an interrupted write") for p in rep.problems), rep.problems
    fresh.capture("The osprey rollout ships on Mondays after the review.", now=T0 + timedelta(minutes=1))
    assert count_everywhere(eng.root, sha) == (1, 1, 1)
    assert fresh.check().ok, fresh.check().problems
    assert not (eng.root / journal.INTENT).exists()
    fresh.close()


def test_check_repair_adds_a_missing_log_row(eng):
    """A receipt with no log row that no intent explains (an older version crashed): repair makes the row."""
    eng.capture(TEXT, now=T0)
    log = eng.root / "log.md"
    text = log.read_text()
    log.write_text(text[: text.rstrip("\n").rfind("\n") + 1])  # drop the last row
    sha = last_receipt(eng.root)["receipt_sha256"]
    rep = eng.check()
    assert any("has no row in log.md" in p for p in rep.problems), rep.problems
    r = eng.repair(now=T0 + timedelta(hours=1), actor="human:alice")
    assert r.action == "repair" and r.status == "repaired" and r.details["log_rows_added"] == [sha]
    assert count_everywhere(eng.root, sha) == (1, 1, 1)
    assert eng.check().ok, eng.check().problems
    # nothing left to do: a second repair says so and changes nothing but its own receipt
    again = eng.repair(now=T0 + timedelta(hours=2), actor="human:alice")
    assert again.status == "ok" and again.details["count"] == 0


def test_check_repair_adds_a_missing_pattern_event(eng):
    r = eng.capture(TEXT, now=T0)
    patterns = eng.root / "patterns" / "PATTERNS.jsonl"
    patterns.write_text("")
    rep = eng.check()
    assert any("has no event in patterns/PATTERNS.jsonl" in p for p in rep.problems), rep.problems
    fix = eng.repair(now=T0, actor="agent:cli")
    assert fix.details["patterns_added"] == [r.receipt_sha256]
    event = json.loads(patterns.read_text().splitlines()[0])
    assert event["event"] == "capture.captured" and event["target"] == r.details["memory_id"]
    assert eng.check().ok, eng.check().problems


def test_failed_operation_leaves_no_page_behind(eng, monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("database is locked")

    monkeypatch.setattr(eng.store, "record", fail)
    with pytest.raises(RuntimeError):
        eng.capture(TEXT, now=T0)
    monkeypatch.undo()
    assert list((eng.root / "entries").iterdir()) == []
    assert journal.leftover_stage(eng.root) == [] and not (eng.root / journal.INTENT).exists()
    assert eng.check().ok


def test_capture_survives_a_busy_index(eng, monkeypatch):
    def busy(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(eng.index, "put_many", busy)
    r = eng.capture(TEXT, now=T0)
    monkeypatch.undo()
    assert r.status == "captured" and (eng.root / r.details["page"]).is_file()
    fresh = Engine.open(eng.root)  # the cache catches up at the next sync
    assert fresh.page_of(r.details["memory_id"]) == r.details["page"]
    assert fresh.check().ok, fresh.check().problems
    fresh.close()


def test_kill_after_the_commit_point_is_completed_by_the_next_writer(eng, monkeypatch):
    kill_when(monkeypatch, journal, "apply_intent", lambda *a, fresh, **k: fresh)
    with pytest.raises(Killed):
        eng.capture(TEXT, now=T0)
    monkeypatch.undo()
    assert list((eng.root / "entries").glob("*.md")) == []  # committed, not yet applied
    intent = journal.read_intent(eng.root)
    fresh = Engine.open(eng.root)
    fresh.compile(now=T0)
    page = next(s["path"] for s in intent["steps"] if s["op"] == "write" and s["path"].startswith("entries/"))
    assert parse_entry((eng.root / page).read_text()).content == TEXT
    assert count_everywhere(eng.root, intent["receipt_sha256"]) == (1, 1, 1)
    assert fresh.page_of(parse_entry((eng.root / page).read_text()).memory_id) == page
    assert "kestrel" in (eng.root / "hot.md").read_text().lower()
    assert fresh.check().ok, fresh.check().problems
    fresh.close()


def test_torn_append_is_completed_once(eng, monkeypatch):
    real = journal.append_lines

    def torn(path, lines):
        if path.name == "PATTERNS.jsonl":
            data = "".join(x + "\n" for x in lines).encode()
            with open(path, "ab") as fh:
                fh.write(data[: len(data) // 2])
            raise Killed
        return real(path, lines)

    monkeypatch.setattr(journal, "append_lines", torn)
    with pytest.raises(Killed):
        eng.capture(TEXT, now=T0)
    monkeypatch.undo()
    sha = last_receipt(eng.root)["receipt_sha256"]
    fresh = Engine.open(eng.root)
    fresh.compile(now=T0)
    assert count_everywhere(eng.root, sha) == (1, 1, 1)
    assert fresh.check().ok, fresh.check().problems
    fresh.close()


def test_completing_twice_is_completing_once(eng, monkeypatch):
    kill_when(monkeypatch, journal, "apply_intent", lambda *a, fresh, **k: fresh)
    with pytest.raises(Killed):
        eng.capture(TEXT, now=T0)
    monkeypatch.undo()
    intent = journal.read_intent(eng.root)
    for _ in range(2):  # a recovery killed after it applied everything runs again
        journal.apply_intent(eng.root, intent, eng.path, fresh=False)
    assert count_everywhere(eng.root, intent["receipt_sha256"]) == (1, 1, 1)
    Engine.open(eng.root).compile(now=T0)
    assert count_everywhere(eng.root, intent["receipt_sha256"]) == (1, 1, 1)


def test_recovery_leaves_a_hand_edited_page_alone(eng, monkeypatch):
    first = eng.capture(TEXT, now=T0, key="kestrel")
    page = eng.root / first.details["page"]
    kill_when(monkeypatch, journal, "apply_intent", lambda *a, fresh, **k: fresh)
    with pytest.raises(Killed):
        eng.capture(TEXT, now=T0 + timedelta(hours=1), key="kestrel")  # a consolidation: rewrites the page
    monkeypatch.undo()
    edited = page.read_text().replace("five percent", "five percent (checked by hand)")
    page.write_text(edited)  # the person edits the page before anything completes the write
    fresh = Engine.open(eng.root)
    fresh.compile(now=T0 + timedelta(hours=2))
    assert page.read_text() == edited
    recover = [r for r in trail(eng.root)[0] if r["action"] == "recover"]
    assert len(recover) == 1 and recover[0]["status"] == "partial"
    assert recover[0]["details"]["skipped"] == [
        {"path": first.details["page"], "reason": "changed_since_the_write_began"}
    ]
    # the consolidation's receipt stands, and check says the page disagrees with it: the person decides
    rep = fresh.check()
    assert any("reinforcement 1, but its receipts make it 2" in p for p in rep.problems), rep.problems
    fresh.close()


def test_staged_writes_of_an_uncommitted_operation_are_discarded(eng, monkeypatch):
    kill_when(monkeypatch, journal.Txn, "intent", lambda *a, **k: True)
    with pytest.raises(Killed):
        eng.capture(TEXT, now=T0)
    monkeypatch.undo()
    # what the except-clause discarded in-process, a SIGKILL leaves behind: put one back
    stage = eng.root / journal.STAGE_DIR
    (stage / "0123456789abcdef-kestrel.md").write_text("staged, never committed\n")
    assert list((eng.root / "entries").glob("*.md")) == []
    fresh = Engine.open(eng.root)
    assert any("staged by a write that never committed" in p for p in fresh.check().problems)
    fresh.capture("The heron rollout pauses on Fridays before the code freeze.", now=T0)
    assert journal.leftover_stage(eng.root) == []
    assert fresh.check().ok, fresh.check().problems
    fresh.close()


def test_killed_snapshot_leaves_no_partial_copy(eng, monkeypatch):
    eng.capture(TEXT, now=T0)
    kill_when(monkeypatch, journal.Txn, "intent", lambda *a, **k: True)
    with pytest.raises(Killed):
        eng.snapshot(now=T0)
    monkeypatch.undo()
    assert list((eng.root / "snapshots").iterdir()) == []
    r = eng.snapshot(now=T0 + timedelta(minutes=1))
    assert (eng.root / r.details["snapshot"] / "manifest.json").is_file()
    assert not (eng.root / r.details["snapshot"] / "journal").exists()
    assert eng.check().ok, eng.check().problems


def test_kill_while_regenerating_views_is_finished_by_recovery(eng, monkeypatch):
    import memkeeper.core.compile as views

    kill_when(monkeypatch, views, "render_hot", lambda *a, **k: True)
    with pytest.raises(Killed):
        eng.capture(TEXT, now=T0, title="Kestrel rollout")
    monkeypatch.undo()
    assert "Kestrel rollout" not in (eng.root / "hot.md").read_text()
    fresh = Engine.open(eng.root)
    fresh.capture("The heron rollout pauses on Fridays before the code freeze.", now=T0, title="Heron rollout")
    assert "Kestrel rollout" in (eng.root / "hot.md").read_text()
    assert "Kestrel rollout" in (eng.root / "index" / "fact.md").read_text()
    assert fresh.check().ok, fresh.check().problems
    fresh.close()


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        json.dumps({"schema": journal.INTENT_SCHEMA, "steps": [{"op": "write", "path": "entries/x.md"}]}),
        json.dumps(
            {
                "schema": journal.INTENT_SCHEMA,
                "steps": [
                    {"op": "write", "path": "../outside.md", "stage": "journal/stage/x", "sha256": "0", "before": None}
                ],
            }
        ),
    ],
)
def test_unreadable_intent_is_set_aside_and_reported(eng, text):
    (eng.root / "journal").mkdir(exist_ok=True)
    (eng.root / journal.INTENT).write_text(text)
    r = eng.capture(TEXT, now=T0)
    assert r.status == "captured"
    aside = list((eng.root / "journal").glob("unreadable-intent-*.json"))
    assert len(aside) == 1 and aside[0].read_text() == text
    assert any("could not be read was set aside" in p for p in eng.check().problems)
    assert not (eng.root.parent / "outside.md").exists()


# ---------------------------------------------------------------------------------------------------- check finds


def test_repair_removes_leftover_temp_files_and_nothing_else(eng):
    eng.capture(TEXT, now=T0)
    tmp = eng.root / "entries" / ".kestrel.md.k3j2h1g0.tmp"
    tmp.write_text("half a page")
    raw = eng.root / "raw" / ".notes.md.abcdefgh.tmp"
    raw.write_text("the person's own file")
    rep = eng.check()
    assert any(p.startswith("entries/.kestrel.md.k3j2h1g0.tmp: temp file") for p in rep.problems), rep.problems
    fix = eng.repair(now=T0, actor="agent:cli")
    assert fix.details["tmp_removed"] == ["entries/.kestrel.md.k3j2h1g0.tmp"]
    assert not tmp.exists() and raw.exists()
    assert eng.check().ok, eng.check().problems


def test_a_persons_own_hidden_tmp_files_are_not_taken_for_leftovers(eng):
    """Only names `atomic_write` makes (`.<name>.<8 random>.tmp`) are leftovers: an editor's or a person's own
    hidden `.tmp` file in a folder the engine writes is never reported, nor removed by a repair or by the next
    write's recovery."""
    eng.capture(TEXT, now=T0)
    own = [eng.root / ".atlas-notes.tmp", eng.root / "entries" / ".draft-page.tmp", eng.root / "journal" / ".x.tmp"]
    for p in own:
        p.parent.mkdir(exist_ok=True)
        p.write_text("the person's own file")
    assert not [p for p in eng.check().problems if ".tmp" in p]
    eng.repair(now=T0, actor="agent:cli")
    eng.capture("The Kestrel backups run from the second data centre.", now=T0)
    assert all(p.exists() for p in own)


def test_check_reports_a_page_no_receipt_names(eng):
    r = eng.capture(TEXT, now=T0)
    stray = eng.root / "entries" / "stray.md"
    stray.write_text((eng.root / r.details["page"]).read_text().replace(r.details["memory_id"], "mem_00000000000000ff"))
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert any(p.startswith("entries/stray.md: no receipt names mem_00000000000000ff") for p in rep.problems), (
        rep.problems
    )
    fresh.repair(now=T0, actor="agent:cli")
    assert stray.exists()  # reported, never deleted
    assert not fresh.check().ok
    fresh.close()


def test_check_reports_reinforcement_drift(eng):
    r = eng.capture(TEXT, now=T0, key="kestrel")
    eng.capture(TEXT, now=T0 + timedelta(hours=1), key="kestrel")  # consolidated: 2
    page = eng.root / r.details["page"]
    page.write_text(page.read_text().replace("reinforcement: 2", "reinforcement: 7"))
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert f"{r.details['page']}: reinforcement 7, but its receipts make it 2" in rep.problems, rep.problems
    fresh.close()


def test_reinforcement_follows_consolidate_merges(eng):
    from memkeeper.core.models import Entry

    a = eng.capture(
        "Nightly backups of the billing database run at 02:00 UTC to the cold bucket.", now=T0, key="backups"
    )
    eng.capture("Nightly backups of the billing database run at 02:00 UTC to the cold bucket.", now=T0, key="backups")
    near = eng.capture(
        "The nightly backups of the billing database run at 02:00 UTC to the cold bucket.",
        now=T0,
        key="backups-2",
        title="Backups 2",
    )
    # move the near-duplicate into the same partition by hand, as consolidate's own test does
    e = eng.load(near.details["memory_id"])
    assert isinstance(e, Entry)
    e.canonical_key = "backups"
    with eng.writing():
        eng.save(e)
    r = eng.consolidate(now=T0 + timedelta(hours=1))
    assert r.details["reinforcement_after"] == {a.details["memory_id"]: 3}
    assert eng.check().ok, eng.check().problems


def test_check_reports_malformed_ledger_lines(eng):
    eng.capture(TEXT, now=T0)
    denials = eng.root / "stated" / "denials.jsonl"
    denials.write_text('{"action": "deny", "suppression_key": "k"}\n[1, 2]\n{"action": "und')
    rep = eng.check()
    assert "stated/denials.jsonl:2: not a JSON object (the line is ignored)" in rep.problems
    assert "stated/denials.jsonl:3: not a JSON object (the line is ignored)" in rep.problems
    assert "stated/denials.jsonl: the last line is not terminated (a torn append)" in rep.problems


def test_check_is_clean_after_every_kind_of_operation(eng):
    a = eng.capture(TEXT, now=T0, source_ref="raw/a.md#L1")
    eng.capture(TEXT, now=T0, source_ref="raw/a.md#L1")
    c = eng.capture(
        "The kestrel rollout uses canary waves of fifty percent.",
        now=T0,
        source_ref="raw/b.md#L2",
        key=a.details["canonical_key"],
    )
    h = "human:alice"
    if c.status == "conflict":
        eng.resolve_conflict(c.details["conflict_id"], "both", now=T0, actor=h)
    b = eng.capture("The heron rollout pauses on Fridays before the code freeze.", now=T0, source_ref="raw/c.md#L3")
    eng.confirm(a.details["memory_id"], now=T0, actor=h)
    d = eng.deny(b.details["memory_id"], now=T0, actor=h)
    eng.undo(d.receipt_sha256, now=T0, actor=h)
    eng.quiz_record(a.details["memory_id"], "good", now=T0, actor=h)
    eng.retrieve("kestrel", now=T0)
    eng.consolidate(now=T0)
    eng.decay(now=T0 + timedelta(days=400))
    eng.export(zone="private_self", now=T0)
    eng.snapshot(now=T0)
    eng.compile(now=T0)
    assert eng.check().ok, eng.check().problems
    assert not any(eng.root.joinpath("journal").iterdir()) or journal.leftover_stage(eng.root) == []


# ---------------------------------------------------------------------------------------------------- the index


@pytest.mark.parametrize("damage", ["bad_header", "truncated", "wal_and_shm_junk"])
def test_corrupt_index_db_is_rebuilt(eng, damage, capsys):
    r = eng.capture(TEXT, now=T0)
    eng.close()
    db = eng.root / ".memkeeper" / "index.db"
    if damage == "bad_header":
        with open(db, "r+b") as fh:
            fh.write(b"this is not sqlite" * 4)
    elif damage == "truncated":
        os.truncate(db, os.path.getsize(db) // 2)
    else:
        (eng.root / ".memkeeper" / "index.db-wal").write_bytes(os.urandom(5000))
        (eng.root / ".memkeeper" / "index.db-shm").write_bytes(os.urandom(32768))
    root = str(eng.root)
    assert main(["--root", root, "retrieve", "kestrel", "--preview"]) == 0
    capsys.readouterr()
    assert main(["--root", root, "--json", "retrieve", "kestrel rollout canary", "--preview"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [x["memory_id"] for x in out["details"]["results"]] == [r.details["memory_id"]]
    assert main(["--root", root, "capture", "The heron rollout pauses on Fridays before the code freeze."]) == 0
    assert main(["--root", root, "check"]) == 0


@pytest.mark.parametrize(
    "damage",
    ["DROP TABLE fts", "DROP TABLE records", "ALTER TABLE quiz_ledgers DROP COLUMN zone"],
    ids=["no_fts", "no_records", "no_zone_column"],
)
def test_an_index_of_this_version_missing_a_table_or_column_is_rebuilt(eng, damage, capsys):
    """The index's meta said this schema version while a table or a column was gone (dropped by hand, or a column
    change that shipped without a new version): every query ended in an internal error, a capture was written and
    then failed with its write unfinished, and check said ok or failed the same way. Such a file is no index of
    this version: it is rebuilt from the pages, as a damaged one is."""
    r = eng.capture(TEXT, now=T0)
    eng.close()
    db = sqlite3.connect(eng.root / ".memkeeper" / "index.db")
    db.execute(damage)
    db.commit()
    db.close()
    root = str(eng.root)
    assert main(["--root", root, "--json", "retrieve", "kestrel rollout canary", "--preview"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [x["memory_id"] for x in out["details"]["results"]] == [r.details["memory_id"]]
    assert main(["--root", root, "capture", "The heron rollout pauses on Fridays before the code freeze."]) == 0
    assert main(["--root", root, "check"]) == 0
    assert journal.leftover_stage(eng.root) == [] and not (eng.root / "journal" / "intent.json").exists()


def test_index_corrupted_while_open_is_rebuilt_on_the_next_query(eng):
    r = eng.capture(TEXT, now=T0)
    other = Engine.open(eng.root)
    db = eng.root / ".memkeeper" / "index.db"
    eng.index.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = os.path.getsize(db)
    with open(db, "r+b") as fh:
        fh.seek(100)  # keep the header: the damage is met by a query, not by opening
        fh.write(os.urandom(size - 100))
    other.index.db.close()
    other.index.db = other.index._connect()  # a fresh connection sees the damaged file
    assert (
        other.retrieve("kestrel", now=T0, record_access=False).details["results"][0]["memory_id"]
        == r.details["memory_id"]
    )
    assert other.index.rebuilt
    other.close()


def test_check_finds_a_stale_index_and_repair_rebuilds_it(eng):
    r = eng.capture(TEXT, now=T0)
    eng.index.db.execute("UPDATE files SET sha256='0' WHERE path=?", (r.details["page"],))
    rep = eng.check()
    assert any(p.startswith("index.db is stale") for p in rep.problems), rep.problems
    fix = eng.repair(now=T0, actor="agent:cli")
    assert fix.details["index_rebuilt"].startswith("index.db is stale")
    assert eng.check().ok, eng.check().problems
    assert eng.page_of(r.details["memory_id"]) == r.details["page"]


# ---------------------------------------------------------------------------------------------------- contention


def test_readers_never_fail_while_writer_busy(eng, monkeypatch, capsys):
    r = eng.capture(TEXT, now=T0)
    eng.capture("The heron rollout pauses on Fridays before the code freeze.", now=T0 + timedelta(minutes=1))
    root = str(eng.root)
    page = eng.root / r.details["page"]
    blocker = sqlite3.connect(eng.root / ".memkeeper" / "index.db", isolation_level=None, check_same_thread=False)
    held = threading.Event()

    def hold_index(seconds):
        blocker.execute("BEGIN IMMEDIATE")  # a writer mid-transaction on the index
        held.set()
        time.sleep(seconds)
        blocker.execute("COMMIT")

    def readers_while_held(seconds, commands):
        held.clear()
        t = threading.Thread(target=hold_index, args=(seconds,))
        t.start()
        held.wait()
        try:
            for args in commands:
                assert main(["--root", root, *args]) == 0, (args, capsys.readouterr())
        finally:
            t.join()

    with eng.lock:  # a writer holds the write lock throughout
        os.utime(page, ns=(time.time_ns(), time.time_ns() + 10**9))  # the next sync has something to write
        readers_while_held(
            1.0, (["retrieve", "kestrel", "--preview"], ["conflicts", "list"], ["verify", "list"], ["check"])
        )
        # an index busy past its timeout: the reader serves the cache as it is, and still succeeds
        monkeypatch.setattr("memkeeper.core.index.BUSY_TIMEOUT_S", 0.2)
        os.utime(page, ns=(time.time_ns(), time.time_ns() + 2 * 10**9))
        readers_while_held(1.5, (["retrieve", "kestrel", "--preview"], ["verify", "list"], ["conflicts", "list"]))
    blocker.close()
    assert main(["--root", root, "check"]) == 0


def test_check_while_writers_hold_the_lock_reports_damage_not_writes_in_progress(eng, monkeypatch):
    from filelock import FileLock

    import memkeeper.core.integrity as integrity

    eng.capture(TEXT, now=T0)
    (eng.root / "stated" / "denials.jsonl").write_text("not json\n")
    looks = iter(range(100))
    real = type(eng.integrity)._check_journal

    def in_flight(self, report):  # a different write is part-way through at every look
        real(self, report)
        report.add(
            "journal", f"journal/intent.json: an interrupted write (receipt {next(looks):012d}…) is not complete"
        )

    monkeypatch.setattr(type(eng.integrity), "_check_journal", in_flight)
    monkeypatch.setattr(integrity, "CHECK_LOCK_WAIT_S", 0.1)
    with FileLock(str(eng.root / ".memkeeper" / "write.lock")):
        rep = eng.check()
    assert rep.problems == ["stated/denials.jsonl:1: not a JSON object (the line is ignored)"]


def test_threads_sharing_an_engine_each_run_their_own_operation(eng):
    """The desk runs decisions in worker threads: an operation's staged writes belong to its thread."""
    from concurrent.futures import ThreadPoolExecutor

    def cap(n):
        return eng.capture(
            f"Thread note {n}: the {['atlas', 'harbor', 'lumen', 'quill'][n % 4]} queue drains at {n}:00.",
            now=T0 + timedelta(minutes=n),
            title=f"Thread note {n}",
        )

    with ThreadPoolExecutor(max_workers=4) as pool:
        receipts = list(pool.map(cap, range(12)))
    assert [r.status for r in receipts] == ["captured"] * 12
    assert len({r.details["page"] for r in receipts}) == 12
    assert eng.check().ok, eng.check().problems

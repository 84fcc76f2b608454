"""A cold index build (an empty index and many pages) writes a new database file and swaps it in whole: it must
hold exactly what the page-by-page sync would, report the same bad pages, and never leave a half-built file that
looks valid (issue 10)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path

import pytest

from memkeeper.core import Engine, index
from memkeeper.core.index_schema import entry_from_row
from memkeeper.core.models import Entry
from memkeeper.core.pagefmt import render_entry
from tests.conftest import T0


def _wiki(root: Path, n: int) -> Path:
    """A wiki of n engine-written pages, one hand-edited page, one bad page, one duplicate id and one symlink."""
    eng = Engine.init(root, now=T0)
    eng.capture("The staging database lives on the second rack", now=T0)  # written by the engine
    eng.close()
    entries = root / "entries"
    for i in range(n):
        t = T0 - timedelta(days=i)
        e = Entry(
            memory_id=f"mem_{i:016x}",
            canonical_key=f"subject-{i}",
            title=f"Subject {i} owner",
            category=["fact", "decision", "lesson"][i % 3],
            created_at=t,
            updated_at=t,
            last_accessed_at=t,
            content=f"The owner of subject {i} is team {i % 7}.\n\n## Notes\n- not a note {i}",
            tags=["owner"] if i % 2 else [],
        )
        if i % 5 == 0:
            e.notes = [f"Consolidated note {i}"]
        (entries / f"subject-{i}.md").write_text(render_entry(e), encoding="utf-8")
    hand = (
        (entries / "subject-3.md")
        .read_text(encoding="utf-8")
        .replace("title: Subject 3 owner", 'title: "Subject  3\\towner"')
    )
    (entries / "subject-3.md").write_text(hand, encoding="utf-8")  # off the fast path: the full parser reads it
    (entries / "broken.md").write_text("---\ntitle: [unclosed\n---\nbody\n", encoding="utf-8")
    dup = (entries / "subject-1.md").read_text(encoding="utf-8")
    (entries / "zz-duplicate.md").write_text(dup.replace("Subject 1 owner", "Subject 1 copy"), encoding="utf-8")
    os.symlink("subject-2.md", entries / "linked.md")
    return root


def _state(root: Path) -> tuple[list, list, list, list]:
    db = sqlite3.connect(root / ".memkeeper" / "index.db")
    db.row_factory = sqlite3.Row
    try:
        records = db.execute("SELECT * FROM records ORDER BY memory_id").fetchall()
        entries = [entry_from_row(r) for r in records]
        columns = [tuple(r[k] for k in r.keys() if k != "data") for r in records]
        files = [tuple(r) for r in db.execute("SELECT path, size, sha256, memory_id, error FROM files ORDER BY path")]
        fts = [tuple(r) for r in db.execute("SELECT * FROM fts ORDER BY memory_id")]
        return entries, columns, files, fts
    finally:
        db.close()


def test_cold_build_holds_what_the_page_by_page_sync_holds(tmp_path, monkeypatch):
    built = _wiki(tmp_path / "built", 40)
    slow = _wiki(tmp_path / "slow", 40)
    for root in (built, slow):
        os.unlink(root / ".memkeeper" / "index.db")
    monkeypatch.setattr(index, "BUILD_MIN", 10)
    monkeypatch.setattr(index, "BUILD_CHUNK", 7)
    eng = Engine.open(built)
    assert eng.store.index.scalar("PRAGMA journal_mode") == "wal"
    bad_built = [(b.path, b.error) for b in eng.bad_pages()]
    eng.close()
    monkeypatch.setattr(index, "BUILD_MIN", 10**9)
    eng = Engine.open(slow)
    bad_slow = [(b.path, b.error) for b in eng.bad_pages()]
    eng.close()
    assert bad_built == bad_slow
    assert {p for p, _ in bad_built} == {"entries/broken.md", "entries/linked.md", "entries/zz-duplicate.md"}
    assert _state(built) == _state(slow)
    names = {r[0] for r in sqlite3.connect(built / ".memkeeper" / "index.db").execute("SELECT name FROM sqlite_master")}
    assert {"records_pending", "records_quiz", "records_content_sha", "fts"} <= names
    assert not [n for n in os.listdir(built / ".memkeeper") if n.startswith(index.BUILD_PREFIX)]
    eng = Engine.open(built)  # reconciled: the next open does not scan, and reads the records
    assert eng.get("mem_0000000000000003").title == "Subject 3 owner"
    assert eng.retrieve("subject owner team", now=T0, record_access=False).details["results"]
    eng.close()


def test_a_build_that_fails_leaves_the_old_index_and_no_build_file(tmp_path, monkeypatch):
    root = _wiki(tmp_path / "w", 30)
    os.unlink(root / ".memkeeper" / "index.db")
    (root / ".memkeeper" / f"{index.BUILD_PREFIX}999999").write_bytes(b"left by a killed build")
    monkeypatch.setattr(index, "BUILD_MIN", 10)
    monkeypatch.setattr(index, "BUILD_CHUNK", 5)
    original = index._parsed_chunks

    def dies(root, paths):
        it = original(root, paths)
        yield next(it)
        raise KeyboardInterrupt  # killed part-way

    monkeypatch.setattr(index, "_parsed_chunks", dies)
    with pytest.raises(KeyboardInterrupt):
        Engine.open(root)
    assert not [n for n in os.listdir(root / ".memkeeper") if n.startswith(index.BUILD_PREFIX)]
    db = sqlite3.connect(root / ".memkeeper" / "index.db")
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 0  # the old (empty) index, not reconciled
    assert db.execute("SELECT value FROM meta WHERE key='reconciled'").fetchone() is None
    db.close()
    monkeypatch.setattr(index, "_parsed_chunks", original)
    eng = Engine.open(root)
    assert eng.get("mem_0000000000000007") is not None
    eng.close()


def test_pages_parsed_in_worker_processes_give_the_same_index(tmp_path, monkeypatch):
    """The parallel parse runs only in a process with no other thread (this test's runner has some): check it in
    a fresh interpreter against the same wiki built here, in this process."""
    here = _wiki(tmp_path / "here", 40)
    there = _wiki(tmp_path / "there", 40)
    for root in (here, there):
        os.unlink(root / ".memkeeper" / "index.db")
    monkeypatch.setattr(index, "BUILD_MIN", 10)
    Engine.open(here).close()
    script = textwrap.dedent(
        f"""
        import sys
        from memkeeper.core import Engine, index
        index.BUILD_MIN, index.PARALLEL_MIN, index.BUILD_CHUNK = 10, 10, 6
        index._free_cores = lambda: 2  # as on an idle machine
        assert index._can_fork() == sys.platform.startswith("linux")
        Engine.open({str(there)!r}).close()
        """
    )
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
    assert _state(there) == _state(here)


def _fts_matches_records(root: Path) -> None:
    db = sqlite3.connect(root / ".memkeeper" / "index.db")
    try:
        records = db.execute("SELECT rowid, memory_id FROM records ORDER BY rowid").fetchall()
        fts = db.execute("SELECT rowid, memory_id FROM fts ORDER BY rowid").fetchall()
    finally:
        db.close()
    assert fts == records  # one text row per record, under the record's rowid


def test_every_record_keeps_one_text_row_through_builds_writes_and_removals(tmp_path, monkeypatch):
    root = _wiki(tmp_path / "w", 30)
    os.unlink(root / ".memkeeper" / "index.db")
    monkeypatch.setattr(index, "BUILD_MIN", 10)
    eng = Engine.open(root)  # the bulk build
    _fts_matches_records(root)
    target = eng.pending_verifications()[0].memory_id if eng.pending_verifications() else None
    r = eng.capture("The loading dock closes at 18:00 on weekdays", now=T0 + timedelta(days=1))
    if target:
        eng.confirm(target, now=T0 + timedelta(days=1), actor="human:ana")  # rewrites that page and its rows
    eng.deny(r.details["memory_id"], now=T0 + timedelta(days=1), actor="human:ana")
    (root / "entries" / "subject-9.md").unlink()  # removed by hand: the next sync drops its rows
    eng.sync()
    _fts_matches_records(root)
    hits = eng.retrieve("loading dock weekdays", now=T0 + timedelta(days=1), record_access=False)
    assert all(h["memory_id"] != "mem_0000000000000009" for h in hits.details["results"])
    assert eng.get("mem_0000000000000009") is None
    eng.close()


def _fts_integrity(root: Path) -> None:
    db = sqlite3.connect(root / ".memkeeper" / "index.db")
    try:
        db.execute("INSERT INTO fts (fts, rank) VALUES ('integrity-check', 1)")  # raises when words and rows disagree
    finally:
        db.close()


def test_a_built_index_has_8_kb_pages_and_a_consistent_word_index(tmp_path, monkeypatch):
    root = _wiki(tmp_path / "w", 30)
    os.unlink(root / ".memkeeper" / "index.db")
    monkeypatch.setattr(index, "BUILD_MIN", 10)
    monkeypatch.setattr(index, "BUILD_CHUNK", 4)  # several chunks: several FTS5 segments
    eng = Engine.open(root)
    _fts_integrity(root)
    db = sqlite3.connect(root / ".memkeeper" / "index.db")
    try:
        assert db.execute("PRAGMA page_size").fetchone()[0] == 8192
    finally:
        db.close()
    r = eng.capture("The loading dock closes at 18:00 on weekdays", now=T0 + timedelta(days=1))
    eng.deny(r.details["memory_id"], now=T0 + timedelta(days=1), actor="human:ana")
    eng.close()
    _fts_integrity(root)


def test_an_index_of_an_older_schema_is_rebuilt_on_open(tmp_path, monkeypatch):
    root = _wiki(tmp_path / "w", 30)
    monkeypatch.setattr(index, "BUILD_MIN", 10)
    Engine.open(root).close()  # indexes the pages written by hand
    path = root / ".memkeeper" / "index.db"
    db = sqlite3.connect(path)
    rows = db.execute("SELECT count(*) FROM records").fetchone()[0]
    with db:  # as schema 10 left it: an index since dropped, and its version
        db.execute("CREATE INDEX records_status ON records (status, category)")
        db.execute("UPDATE meta SET value='10' WHERE key='schema'")
    db.close()
    eng = Engine.open(root)
    assert eng.get("mem_0000000000000007").title == "Subject 7 owner"
    eng.close()
    db = sqlite3.connect(path)
    try:
        assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == index.schema.SCHEMA_VERSION
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert "records_status" not in names and "records_updated" in names
        assert db.execute("SELECT count(*) FROM records").fetchone()[0] == rows == 31  # the good pages and the capture
    finally:
        db.close()
    _fts_integrity(root)


def test_free_cores_reads_what_is_idle_now_and_falls_back_to_the_load_average(monkeypatch):
    cpus = os.cpu_count() or 1
    if sys.platform.startswith("linux"):
        idle = index._idle_cores(0.05)
        assert idle is not None and 0.0 <= idle <= cpus + 1e-9
    # Without /proc/stat: the CPU count less the last minute's load beyond this process.
    monkeypatch.setattr(index, "_idle_cores", lambda window: None)
    monkeypatch.setattr(index.os, "getloadavg", lambda: (1.0 + cpus, 0.0, 0.0))
    assert index._free_cores() == 1
    monkeypatch.setattr(index.os, "getloadavg", lambda: (0.2, 0.0, 0.0))
    assert index._free_cores() == cpus
    # With it: the idle cores, rounded, never fewer than one.
    monkeypatch.setattr(index, "_idle_cores", lambda window: 0.3)
    assert index._free_cores() == 1
    monkeypatch.setattr(index, "_idle_cores", lambda window: 1.6)
    assert index._free_cores() == 2

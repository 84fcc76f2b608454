"""A long-lived engine (the MCP server, the desk) whose `index.db` another process removed or replaced.

SPEC: `.memkeeper/` is derived and may be deleted at any time. A process that kept its SQLite connection on the
deleted file read and wrote a file no one else could see: another process's capture made afterwards (into the new
index.db it built) was not found by `retrieve`, and the same statement captured again was stored as a second
record beside it, while `check` said ok. Two engines opened on one wiki in this test process stand for the two
processes: each has its own connection, as each process has.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from datetime import timedelta

import pytest

from memkeeper.core import Engine, index, lockfile
from memkeeper.core.lockfile import LockTimeout
from tests.conftest import T0, held_by_another_thread

X = "The payroll run happens on the 25th of every month via the Finch job."
Y = "The analytics warehouse is refreshed every Sunday at 04:00 UTC by dbt."
Y_QUERY = "analytics warehouse refreshed dbt"


def _remove(root, what: str, other: Engine | None = None) -> None:
    state = root / ".memkeeper"
    if what == "folder":  # `rm -rf .memkeeper`: the index, its -wal and -shm, and the lock files
        shutil.rmtree(state)
    elif what == "file":  # `rm .memkeeper/index.db`: the -wal and -shm of the open connections stay behind
        assert (state / "index.db-wal").exists()
        os.unlink(state / "index.db")
    else:  # another process rebuilt it (check --repair, a corrupt file): a new file under the same name
        assert other is not None
        other.index.rebuild("rebuilt by another process")


def _pages_holding(root, text: str) -> list[str]:
    return sorted(p.name for p in (root / "entries").glob("*.md") if text in p.read_text(encoding="utf-8"))


def _found(eng: Engine, query: str, at) -> list[str]:
    out = eng.retrieve(query, now=at, record_access=False)
    return [r["memory_id"] for r in out.details["results"]]


@pytest.mark.parametrize("what", ["folder", "file", "rebuilt"])
def test_a_long_lived_engine_sees_what_another_process_wrote_into_the_new_index(tmp_path, what):
    first = Engine.init(tmp_path / "m", now=T0)
    root = first.root
    x = first.capture(X, now=T0).details["memory_id"]
    if what == "rebuilt":
        second = Engine.open(root)
        _remove(root, what, second)
    else:
        _remove(root, what)
        second = Engine.open(root)  # builds a new index.db from the pages
    y = second.capture(Y, now=T0 + timedelta(minutes=1))
    assert y.status == "captured"
    y_id = y.details["memory_id"]

    # The first engine reads what the second wrote, and what was there before.
    assert _found(first, Y_QUERY, T0 + timedelta(minutes=2)) == [y_id]
    assert _found(first, "payroll Finch", T0 + timedelta(minutes=2)) == [x]
    assert first.get(y_id) is not None

    # A restatement of it consolidates into it: one record, not two.
    again = first.capture(Y, now=T0 + timedelta(minutes=3))
    assert again.status == "consolidated", again.details
    assert again.details["memory_id"] == y_id
    assert len(_pages_holding(root, Y)) == 1

    # And the second engine sees the first one's write (both use the one index.db now).
    assert second.get(y_id).reinforcement == 2
    for eng in (first, second):
        report = eng.check()
        assert report.ok, report.problems
    first.close()
    second.close()
    fresh = Engine.open(root)
    assert fresh.index.scalar("SELECT count(*) FROM records WHERE status='active'") == 2
    assert fresh.check().ok
    fresh.close()


@pytest.mark.parametrize("what", ["folder", "file"])
def test_an_engine_writes_after_its_index_was_deleted_with_no_other_writer(tmp_path, what):
    eng = Engine.init(tmp_path / "m", now=T0)
    root = eng.root
    x = eng.capture(X, now=T0).details["memory_id"]
    _remove(root, what)

    y = eng.capture(Y, now=T0 + timedelta(minutes=1))
    assert y.status == "captured"
    assert (root / ".memkeeper" / "index.db").exists()  # made again, from the pages
    # The record captured before the deletion is still known: its restatement consolidates.
    again = eng.capture(X, now=T0 + timedelta(minutes=2))
    assert again.status == "consolidated", again.details
    assert again.details["memory_id"] == x
    assert len(_pages_holding(root, X)) == 1
    assert _found(eng, Y_QUERY, T0 + timedelta(minutes=3)) == [y.details["memory_id"]]
    report = eng.check()
    assert report.ok, report.problems

    # Another process opening the wiki now sees both records in the file the engine made again.
    other = Engine.open(root)
    assert _found(other, Y_QUERY, T0 + timedelta(minutes=3)) == [y.details["memory_id"]]
    assert other.get(x).reinforcement == 2
    other.close()
    eng.close()


@pytest.mark.parametrize("what", ["folder", "file"])
def test_a_read_after_the_index_was_deleted_makes_it_again(tmp_path, what):
    eng = Engine.init(tmp_path / "m", now=T0)
    root = eng.root
    x = eng.capture(X, now=T0).details["memory_id"]
    _remove(root, what)

    assert _found(eng, "payroll Finch", T0 + timedelta(minutes=1)) == [x]
    assert (root / ".memkeeper" / "index.db").exists()
    # The file it made is the one the next process opens, whole.
    other = Engine.open(root)
    assert other.get(x) is not None
    assert other.check().ok
    y = other.capture(Y, now=T0 + timedelta(minutes=2)).details["memory_id"]
    assert _found(eng, Y_QUERY, T0 + timedelta(minutes=3)) == [y]
    other.close()
    eng.close()


@pytest.mark.parametrize("step", ["reconnect", "rebuild"])
def test_a_connection_that_could_not_be_made_again_is_tried_again_by_the_next_query(tmp_path, monkeypatch, step):
    """The folder deleted again while the index made its new connection (`rm -rf .memkeeper` under a reading
    desk or server): that one query may fail, in one line, but the index is never left on a closed connection
    ("Cannot operate on a closed database" for every later query of the process)."""
    eng = Engine.init(tmp_path / "m", now=T0)
    root = eng.root
    x = eng.capture(X, now=T0).details["memory_id"]
    ix = eng.index
    real = ix._open if step == "reconnect" else ix._create
    failures = [1]

    def vanished(*args, **kwargs):
        if failures:
            failures.pop()
            shutil.rmtree(root / ".memkeeper", ignore_errors=True)
            raise sqlite3.OperationalError("unable to open database file")
        return real(*args, **kwargs)

    monkeypatch.setattr(ix, "_open" if step == "reconnect" else "_create", vanished)
    if step == "reconnect":
        _remove(root, "folder")
        # tried again at once: the folder is made again and the second open succeeds
        assert _found(eng, "payroll Finch", T0 + timedelta(minutes=1)) == [x]
    else:
        with pytest.raises(sqlite3.OperationalError):
            ix.rebuild("a test")
        assert _found(eng, "payroll Finch", T0 + timedelta(minutes=1)) == [x]
    assert not failures
    assert eng.check().ok
    eng.close()


@pytest.mark.parametrize("decision", ["deny", "compile"])
def test_a_decision_taken_first_after_memkeeper_was_deleted(tmp_path, decision):
    """A write that takes the write lock before it reads anything: the lock lives in the deleted folder."""
    eng = Engine.init(tmp_path / "m", now=T0)
    root = eng.root
    x = eng.capture(X, now=T0).details["memory_id"]
    _remove(root, "folder")

    at = T0 + timedelta(minutes=1)
    if decision == "deny":
        assert eng.deny(x, now=at, actor="human:ana").status == "denied"
        assert eng.get(x).status.value != "active"
    else:
        assert eng.compile(now=at).status == "ok"
        assert eng.get(x) is not None
    assert (root / ".memkeeper" / "index.db").exists()
    report = eng.check()
    assert report.ok, report.problems
    eng.close()


def test_a_build_that_finds_the_file_deleted_makes_it_again_holding_the_index_lock(tmp_path, monkeypatch):
    """The cold build holds the index lock when it finds the file gone, and making it again takes the same lock:
    it is re-entrant (a second lock on the same file from the same thread would wait for itself)."""
    eng = Engine.init(tmp_path / "m", now=T0)
    root = eng.root
    words = ["kestrel", "heron", "osprey", "falcon", "merlin", "harrier", "kite"]
    ids = [
        eng.capture(
            f"The {w} service restarts nightly at {i} via cron on host {w}{i}.", now=T0 + timedelta(minutes=i)
        ).details["memory_id"]
        for i, w in enumerate(words)
    ]
    monkeypatch.setattr(index, "BUILD_MIN", 5)

    class ShortLock(lockfile.FileLock):  # a regression fails in seconds instead of waiting 300 s for itself
        def __init__(self, path: str, timeout: float = -1, poll_interval: float = 0.05) -> None:
            super().__init__(path, timeout=min(timeout, 5) if timeout >= 0 else 5, poll_interval=poll_interval)

    monkeypatch.setattr(lockfile, "FileLock", ShortLock)
    _remove(root, "folder")
    real_scan = index.Index.scan
    scans: list[int] = []

    def scan(self, sigs=True):
        out = real_scan(self, sigs)
        if not scans:
            os.unlink(self.path)  # deleted again after the scan, before the build takes the index lock
        scans.append(1)
        return out

    monkeypatch.setattr(index.Index, "scan", scan)
    assert _found(eng, "osprey service restarts", T0 + timedelta(hours=1))[:1] == [ids[2]]
    monkeypatch.setattr(index.Index, "scan", real_scan)
    report = eng.check()
    assert report.ok, report.problems
    eng.close()


def test_a_writer_waits_for_one_holding_the_lock_in_a_deleted_memkeeper(tmp_path):
    """A capture while another engine holds the write lock and `.memkeeper/` is deleted under it waits for that
    writer (here: times out, nothing written) instead of writing beside it."""
    root = tmp_path / "w"
    Engine.init(root, now=T0).close()
    holder, other = Engine.open(root), Engine.open(root)
    with held_by_another_thread(holder.store.lock):
        shutil.rmtree(root / ".memkeeper")
        other.store.lock.timeout = 0.3
        with pytest.raises(LockTimeout):
            other.capture("The kiln on the east wall fires on Thursdays.", now=T0)
        assert not list((root / "entries").glob("*.md"))
    r = other.capture("The kiln on the east wall fires on Thursdays.", now=T0)
    assert r.status == "captured", r.details
    holder.close()
    other.close()

"""The engine's inter-process lock (core/lockfile.py): exclusive across processes and threads, re-entrant within a
thread, a one-line timeout."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

import pytest

from memkeeper.core.lockfile import FileLock, LockTimeout
from tests.conftest import held_by_another_thread


def test_a_thread_waits_for_the_holder_and_times_out_with_one_line(tmp_path):
    path = str(tmp_path / "write.lock")
    lock = FileLock(path, timeout=5, poll_interval=0.01)
    with held_by_another_thread(lock):
        with pytest.raises(LockTimeout) as info:
            lock.acquire(timeout=0.1)
        assert "\n" not in str(info.value) and path in str(info.value)
        assert not lock.is_locked  # on this thread
    with lock.acquire(timeout=1):
        assert lock.is_locked
    assert not lock.is_locked


def test_re_entrant_within_a_thread_and_released_by_the_outermost(tmp_path):
    path = str(tmp_path / "write.lock")
    lock, other = FileLock(path, timeout=5), FileLock(path, timeout=5)  # two objects: like two engines
    with lock:
        with lock:
            assert lock.is_locked
        with pytest.raises(LockTimeout):
            other.acquire(timeout=0.05)  # still held: the inner exit did not release it
    with other.acquire(timeout=0.5):
        pass


def test_another_process_holding_the_lock_is_waited_for(tmp_path):
    path = str(tmp_path / "write.lock")
    code = (
        "import sys, time\n"
        "from memkeeper.core.lockfile import FileLock\n"
        "with FileLock(sys.argv[1], timeout=5):\n"
        "    print('held', flush=True)\n"
        "    time.sleep(0.6)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, path], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        lock = FileLock(path, timeout=5, poll_interval=0.01)
        with pytest.raises(LockTimeout):
            lock.acquire(timeout=0.05)
        t0 = time.monotonic()
        with lock.acquire(timeout=5):
            assert time.monotonic() - t0 < 5
    finally:
        proc.wait(10)


def test_the_library_lock_and_this_one_exclude_each_other(tmp_path):
    # Both are flock on the same file: a tool (or an older engine) that holds it with filelock is respected.
    from filelock import FileLock as LibraryLock

    path = str(tmp_path / "write.lock")
    with LibraryLock(path):
        with pytest.raises(LockTimeout):
            FileLock(path).acquire(timeout=0.05)
    with FileLock(path).acquire(timeout=0.5):
        pass


def test_a_lock_whose_folder_is_deleted_while_held_still_excludes(tmp_path):
    """`rm -rf .memkeeper` (derived: allowed) while a writer holds the lock: the next writer made a new write.lock
    and locked that while the first still wrote. The anchor (the wiki root) is locked too, and stays locked."""
    folder = tmp_path / ".memkeeper"
    folder.mkdir()
    path = str(folder / "write.lock")
    lock = FileLock(path, timeout=5, poll_interval=0.01, anchor=str(tmp_path))
    other = FileLock(path, timeout=5, poll_interval=0.01, anchor=str(tmp_path))  # another engine
    with held_by_another_thread(lock):
        shutil.rmtree(folder)
        folder.mkdir()  # the next writer makes it again (Store.writing) and opens a new write.lock there
        with pytest.raises(LockTimeout):
            other.acquire(timeout=0.1)
    shutil.rmtree(folder)  # gone when the next writer comes: made again under the anchor
    with other.acquire(timeout=1):
        assert other.is_locked and (folder / "write.lock").exists()


def test_a_capture_cancelled_while_it_waits_for_the_write_lock_writes_nothing(eng):
    """An MCP client's cancel reaches the engine as `cancelled`: asked while the capture waits for the lock, it stops
    the wait, and nothing is written (no page, no receipt); uncancelled, the same capture waits and is written."""
    from memkeeper.core.lockfile import WaitCancelled
    from tests.conftest import T0

    other = FileLock(eng.store.lock.lock_file, timeout=5)  # another writer's hold on the wiki's write lock
    pages, receipts = sorted((eng.root / "entries").iterdir()), eng.read_receipts()[0]
    asked = []

    def cancelled() -> bool:
        asked.append(1)
        return len(asked) > 2  # the client cancels while the capture waits

    with held_by_another_thread(other):
        with pytest.raises(WaitCancelled) as info:
            eng.capture("The office plants are watered on Fridays.", now=T0, cancelled=cancelled)
        assert "nothing was written" in str(info.value) and "\n" not in str(info.value)
    assert sorted((eng.root / "entries").iterdir()) == pages and eng.read_receipts()[0] == receipts
    assert eng.capture("The office plants are watered on Fridays.", now=T0, cancelled=lambda: False).ok

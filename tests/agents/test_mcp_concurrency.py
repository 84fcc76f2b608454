"""A session's tool calls share one engine, each in a worker thread of the SDK: reads never wait behind a capture,
even one that waits for the write lock, and a capture the client cancels before it begins writing is not written.
The Desk is driven in-process from threads, as the SDK drives it; the write lock is held by another engine (as by
another process) for the body of each test."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from memkeeper.agents.mcp_server import CAPTURE_CANCELLED, Desk, Identity
from memkeeper.core import Engine
from tests.conftest import T0, held_by_another_thread

STATEMENTS = ("The release train leaves every second Thursday.", "The staging database is rebuilt every night.")


@pytest.fixture
def root(tmp_path) -> Path:
    r = tmp_path / "memory"
    Engine.init(r, now=T0).close()
    return r


def test_reads_answer_at_once_while_a_capture_waits_for_the_write_lock(root, monkeypatch):
    """docs/agents.md: a retrieval never waits on a writer. A capture held the session's lock while the engine
    waited (up to 30 s) for the write lock another process held, and every retrieve and read_page of the session
    waited behind it."""
    from memkeeper.core import store

    monkeypatch.setattr(store, "LOCK_TIMEOUT_S", 5.0)  # (what the reads waited for before: the whole of it)
    other, engine = Engine.open(root), Engine.open(root)
    try:
        desk = Desk(engine, Identity.from_flags("claude", "private_self"), clock=lambda: T0)
        page = desk.capture(text=STATEMENTS[0]).structured_content["details"]["page"]
        waited: dict[str, object] = {}
        with held_by_another_thread(other.store.lock):
            capture = threading.Thread(target=lambda: waited.update(result=desk.capture(text=STATEMENTS[1])))
            capture.start()
            time.sleep(0.3)  # the capture now waits for the write lock
            t0 = time.monotonic()
            found = desk.retrieve("release train")
            read = desk.read_page(page)
            hot = desk.read_page("hot.md")
            counts = desk.queue_counts()
            took = time.monotonic() - t0
            assert capture.is_alive()  # still waiting
        capture.join(10)
        assert took < 2.5, took
        assert not found.is_error and found.structured_content["details"]["access_skipped"] == "write_lock_busy"
        assert [r["page"] for r in found.structured_content["details"]["results"]] == [page]
        assert STATEMENTS[0] in read.content[0].text and not hot.is_error
        assert counts.structured_content["records"] == 1
        result = waited["result"]
        assert result.structured_content["status"] == "captured"  # written once the lock was free
    finally:
        engine.close()
        other.close()


def test_a_capture_cancelled_before_it_begins_writing_is_not_written(root):
    """A capture waiting for the write lock, and one queued behind it in the same session, are both cancelled by the
    client: neither is written, both stop waiting at once, and the next capture is written as usual."""
    other, engine = Engine.open(root), Engine.open(root)
    try:
        desk = Desk(engine, Identity.from_flags("claude", "private_self"), clock=lambda: T0)
        flags = [threading.Event(), threading.Event()]
        results: dict[int, object] = {}

        def run(n: int) -> threading.Thread:
            def capture() -> None:
                results[n] = desk.capture(text=STATEMENTS[n], cancelled=flags[n].is_set)

            thread = threading.Thread(target=capture)
            thread.start()
            time.sleep(0.2)
            return thread

        with held_by_another_thread(other.store.lock):
            waiting, queued = run(0), run(1)  # the first waits for the write lock, the second for its turn
            for flag, thread in ((flags[1], queued), (flags[0], waiting)):
                flag.set()
                thread.join(2)
                assert not thread.is_alive()
        for n in (0, 1):
            result = results[n]
            assert result.is_error and result.content[0].text == CAPTURE_CANCELLED, n
        assert engine.counts(T0)["records"] == 0
        assert not [line for line in engine.iter_receipts() if line[2] and line[2]["action"] == "capture"]
        assert desk.capture(text=STATEMENTS[0]).structured_content["status"] == "captured"
    finally:
        engine.close()
        other.close()

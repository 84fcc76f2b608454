from __future__ import annotations

import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import pytest

from memkeeper.core import Engine
from memkeeper.core.demo import build_demo
from tests.conftest import T0

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


@pytest.mark.long
def test_demo_gives_every_queue_work(tmp_path):
    eng = build_demo(tmp_path / "demo", now=NOW)
    records = eng.index.scalar("SELECT count(*) FROM records")
    assert records >= 250
    zones = {r[0] for r in eng.index.query("SELECT DISTINCT trust_zone FROM records")}
    assert len(zones) == 4
    conflicts = eng.conflicts(now=NOW)
    assert len(conflicts) >= 5 and len(Counter(c.conflict_type for c in conflicts)) >= 3
    # The morning's verifications: a few dozen, from a handful of agent sessions (one source file each).
    pending = eng.pending_verifications()
    assert 15 <= len(pending) <= 60
    sources = Counter(e.source_ref.split("#")[0] for e in pending)
    assert 4 <= len(sources) <= 6 and len({e.actor for e in pending}) >= 4
    cards = eng.quiz_session("demo", now=NOW)
    assert any(c.reason in ("due", "due-wrong") for c in cards)
    plan = eng.plan_tiers(now=NOW)
    assert plan.protected and plan.automatic and plan.ambiguous
    assert eng.check().ok
    eng.close()


def _capture(root: str, n: int) -> int:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "memkeeper.tui.cli",
            "--root",
            root,
            "--now",
            "2026-11-29T09:00:00Z",
            "capture",
            f"Parallel writer note {n}: the {['atlas', 'harbor', 'lumen', 'quill'][n % 4]} team ships build {n * 7919}.",
            "--title",
            f"Parallel note {n}",
        ],
        capture_output=True,
        text=True,
    ).returncode


def test_two_processes_write_under_the_lock(tmp_path):
    eng = Engine.init(tmp_path / "m", now=NOW)
    with ThreadPoolExecutor(max_workers=4) as pool:
        codes = list(pool.map(lambda n: _capture(str(eng.root), n), range(12)))
    assert codes == [0] * 12
    fresh = Engine.open(eng.root)
    assert fresh.index.scalar("SELECT count(*) FROM records") == 12
    report = fresh.check()
    assert report.ok, report.problems
    assert report.receipts == 12 + 0  # init writes no receipt; one per capture
    hot = (eng.root / "hot.md").read_text()
    assert hot.count("Parallel note") == 5
    fresh.close()


def test_a_capture_compared_while_another_commit_was_half_applied_is_compared_again(tmp_path):
    """A capture compares its statement with the wiki before taking the write lock, and under the lock keeps that
    answer when nothing was committed since. Another process's commit appends its log.md row before it puts its
    record into the index: a comparison made between the two read the new log.md and the old index, and kept its
    answer under the lock. Two agents sending one keyed statement at the same instant were both told `captured`,
    and memory held it twice (two contradicting values under one key were both captured, no conflict)."""
    import threading

    root = tmp_path / "memory"
    Engine.init(root, now=T0).close()
    first, second = Engine.open(root), Engine.open(root)
    text = "The nightly export job runs at 02:00 UTC on the reporting cluster."
    compared = threading.Event()
    results = {}
    find = second.capture_ops.find_related

    def find_related(*args, **kwargs):
        found = find(*args, **kwargs)
        compared.set()
        return found

    second.capture_ops.find_related = find_related  # type: ignore[method-assign]

    def other_agent():
        results["second"] = second.capture(text, now=T0, actor="agent:b", key="nightly-export")

    put = first.store._index_written
    agent = threading.Thread(target=other_agent)

    def half_applied(*args, **kwargs):
        # log.md has the first record's row; the index does not have the record yet
        agent.start()
        assert compared.wait(10)
        return put(*args, **kwargs)

    first.store._index_written = half_applied  # type: ignore[method-assign]
    results["first"] = first.capture(text, now=T0, actor="agent:a", key="nightly-export")
    agent.join(30)
    assert results["first"].status == "captured"
    assert results["second"].status == "consolidated", results["second"].details
    active = first.store.index.query("SELECT memory_id FROM records WHERE canonical_key='nightly-export'")
    assert len(active) == 1
    first.close()
    second.close()


def test_an_index_held_locked_by_another_process_is_one_line_not_an_internal_error(tmp_path, monkeypatch, capsys):
    """index.db truncated while a desk had it open: every other process waited out the busy timeout and stopped
    with "internal error: OperationalError: database is locked", `check --repair` too. It is one line (exit 2)
    that says what holds it; the desk's own engine goes on."""
    import os

    import memkeeper.core.index as index
    from memkeeper.core.errors import Busy
    from memkeeper.tui.cli import main

    monkeypatch.setattr(index, "BUSY_TIMEOUT_S", 0.2)
    root = tmp_path / "memory"
    desk = Engine.init(root, now=T0)
    desk.capture("The Zephyr relay listens on port 4000.", now=T0)
    os.truncate(root / ".memkeeper" / "index.db", 0)
    with pytest.raises(Busy) as err:
        Engine.open(root)
    assert "index.db is held locked by another process" in str(err.value) and "\n" not in str(err.value)
    code = main(["--root", str(root), "--now", "2026-11-20T10:00:00Z", "check", "--repair"])
    out, stderr = capsys.readouterr()
    assert code == 2 and stderr.startswith("memkeeper: ") and "held locked" in stderr and "internal error" not in stderr
    desk.close()
    assert Engine.open(root).check().ok  # once the desk let go, the next process rebuilds the index

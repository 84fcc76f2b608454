"""The command line when the disk refuses a write or a file cannot be read: one line on stderr and exit 2 when
nothing was done, the receipt and exit 0 when the operation was committed (the next write finishes it) — never
`internal error`, and never a second answer counted because the first looked failed. tests/core/test_faults.py
covers the same faults through the engine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import run
from tests.core.test_faults import deny_reading, ledger_row, refuse_append, refuse_staging, wiki_files

H = ["--as", "human:alice"]
KESTREL = "The kestrel rollout uses canary waves of five percent."


def _capture(capsys, root, text, *args) -> dict:
    code, out, err = run(capsys, root, "--json", "capture", text, *args)
    assert code == 0, err
    return json.loads(out)


@pytest.fixture
def ids(root, capsys) -> dict[str, str]:
    db = _capture(capsys, root, "The primary database for billing is Postgres.", "--key", "billing-db")
    held = _capture(capsys, root, "The primary database for billing is MySQL.", "--key", "billing-db")
    assert held["status"] == "conflict"
    kestrel = _capture(capsys, root, KESTREL, "--title", "Kestrel rollout", "--source-ref", "raw/k.md#L2")
    return {"db": db["details"]["memory_id"], "kestrel": kestrel["details"]["memory_id"]}


def test_a_full_disk_before_the_commit_point_is_one_line_and_exit_2(root, ids, capsys, monkeypatch):
    before = wiki_files(root)
    refuse_staging(monkeypatch)
    code, out, err = run(capsys, root, "capture", "The osprey job retries uploads four times before alerting.")
    monkeypatch.undo()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("memkeeper: ") and "internal error" not in err
    assert "No space left on device; nothing was written" in err
    assert wiki_files(root) == before
    assert run(capsys, root, "check")[0] == 0


def test_an_answer_committed_before_the_disk_filled_is_exit_0_and_counted_once(root, ids, capsys, monkeypatch):
    """Told `internal error`, a person (or a script) answers again: the quiz counted it twice."""
    refuse_append(monkeypatch, "log.md")
    code, out, err = run(capsys, root, *H, "--json", "quiz", "record", ids["kestrel"], "good", "--person", "alice")
    monkeypatch.undo()
    # the operation stands (exit 0), and the person is told what is left to finish, in one line
    assert code == 0 and err.count("\n") == 1, err
    assert err.startswith("memkeeper: note: log.md: ") and "memkeeper check --repair, finishes it" in err
    receipt = json.loads(out)
    assert receipt["status"] == "recorded" and receipt["details"]["asked"] == 1
    code, out, _ = run(capsys, root, "check")
    assert code == 2 and "journal/intent.json: an interrupted write" in out
    assert run(capsys, root, "capture", "The walrus queue drains every hour on the hour.")[0] == 0
    assert run(capsys, root, "check")[0] == 0
    from memkeeper.core import Engine

    eng = Engine.open(root)
    assert ledger_row(eng, ids["kestrel"])["asked"] == 1
    eng.close()


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names a directory fd through /proc")
def test_an_unreadable_conflict_record_is_one_line(root, ids, capsys, monkeypatch):
    deny_reading(monkeypatch, root / "conflicts" / "C1.md")
    code, out, err = run(capsys, root, *H, "conflicts", "resolve", "C1", "--keep", "existing")
    monkeypatch.undo()
    assert code == 2 and out == ""
    assert err == "memkeeper: conflicts/C1.md: Permission denied; nothing was written\n"


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE")
def test_a_disk_that_refuses_every_write_is_one_line_and_keeps_the_index(root, ids, capsys):
    """A real process whose every file write fails (a file size limit of one byte, as a full disk would): every
    command, reads included, says so in one line, and the index is not deleted as if it were damaged."""
    import resource

    db = root / ".memkeeper" / "index.db"
    ident = (db.stat().st_ino, db.stat().st_size)
    before = wiki_files(root)

    def no_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1, 1))

    exe = Path(sys.executable).with_name("memkeeper")
    for args in (["capture", "The heron service pages the on-call engineer."], ["retrieve", "kestrel"], ["check"]):
        p = subprocess.run(
            [str(exe), "--root", str(root), *args], preexec_fn=no_room, capture_output=True, text=True, timeout=60
        )
        assert p.returncode == 2, (args, p.stderr)
        assert p.stderr.count("\n") == 1 and "internal error" not in p.stderr, p.stderr
        assert "nothing was written" in p.stderr
    assert (db.stat().st_ino, db.stat().st_size) == ident
    assert wiki_files(root) == before
    assert run(capsys, root, "capture", "The heron service pages the on-call engineer.")[0] == 0
    assert run(capsys, root, "check")[0] == 0

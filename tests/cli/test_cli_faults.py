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
    assert (
        err
        == "memkeeper: conflicts/C1.md: Permission denied; nothing was written (check the permissions of conflicts/)\n"
    )


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


@pytest.mark.parametrize("writes_before", [0, 2, 5], ids=["first-write", "log", "views"])
def test_init_on_a_full_disk_is_one_line_and_init_again_completes_it(tmp_path, capsys, monkeypatch, writes_before):
    """`memkeeper init` on a full disk was `internal error: OSError: [Errno 28] …` with an absolute temp path, exit 1.
    It is the disk's one line, exit 2; once there is room, init again completes the wiki."""
    import errno

    import memkeeper.core.pages as pages
    from memkeeper.tui.cli import main

    real = pages._write_all
    seen = {"n": 0}

    def write_all(fd, data):
        seen["n"] += 1
        if seen["n"] > writes_before:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    monkeypatch.setattr(pages, "_write_all", write_all)
    root = tmp_path / "memory"
    code = main(["--root", str(root), "init"])
    _, err = capsys.readouterr()
    monkeypatch.undo()
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("memkeeper: ") and "internal error" not in err, err
    assert "No space left on device" in err and "memkeeper init" in err, err
    assert main(["--root", str(root), "init"]) == 0
    capsys.readouterr()
    assert run(capsys, root, "check")[0] == 0


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE")
def test_init_in_a_process_that_may_not_write_is_one_line(tmp_path):
    """The same through a real process whose every file write fails (a file size limit of zero, as a full disk)."""
    import resource

    def no_room() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))

    exe = Path(sys.executable).with_name("memkeeper")
    p = subprocess.run(
        [str(exe), "--root", str(tmp_path / "memory"), "init"],
        preexec_fn=no_room,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2, p.stderr
    assert p.stderr.count("\n") == 1 and "internal error" not in p.stderr, p.stderr


def test_consolidate_lists_a_page_it_cannot_read_and_merges_the_rest(root, capsys):
    """One page holding a NUL byte (written in place since the index read it) stopped `consolidate` with exit 2 and
    nothing merged. It is skipped and named; the other near-duplicates merge."""
    from memkeeper.core import Engine
    from tests.core.test_faults import near_duplicates

    eng = Engine.open(root)
    backups = near_duplicates(
        eng,
        "backups",
        "Nightly backups of the billing database run at 02:00 UTC.",
        "The nightly backups of the billing database run at 02:00 UTC.",
    )
    near_duplicates(
        eng,
        "deploy",
        "The deploy pipeline runs on GitHub Actions with three parallel jobs.",
        "The deploy pipeline really runs on GitHub Actions with three parallel jobs.",
    )
    target = root / (eng.page_of(backups[1]) or "")
    eng.close()
    target.write_bytes(target.read_bytes().replace(b"billing database", b"billing\x00database"))
    code, out, err = run(capsys, root, "consolidate")
    assert code == 0 and err == "", err
    assert "consolidate: ok count=1 " in out
    rel = target.relative_to(root).as_posix()
    assert f"  skipped: {rel} (a NUL byte at line " in out, out


def test_check_names_a_page_deleted_by_hand_and_a_persons_repair_records_it(root, ids, capsys):
    code, out, _ = run(capsys, root, "--json", "retrieve", "kestrel canary", "--preview")
    page = json.loads(out)["details"]["results"][0]["page"]
    (root / page).unlink()
    code, out, _ = run(capsys, root, "check")
    assert code == 2
    lines = [line for line in out.splitlines() if ids["kestrel"] in line]
    assert len(lines) == 1 and lines[0].startswith(f"{page}: the page of {ids['kestrel']} is gone"), out
    code, out, _ = run(capsys, root, "check", "--repair")  # an agent's repair: still reported, nothing made up
    assert code == 2 and lines[0] in out.splitlines() and not (root / page).exists()
    code, out, _ = run(capsys, root, *H, "check", "--repair")
    assert code == 0 and "1 page(s) deleted by hand recorded as deleted" in out, out
    assert run(capsys, root, "check")[0] == 0


def test_conflicts_list_says_which_record_it_left_out(root, ids, capsys):
    """A malformed conflict record was left out of `conflicts list` without a word (only check named it)."""
    record = root / "conflicts" / "C1.md"
    (root / "conflicts" / "C2.md").write_text(record.read_text().replace("conflict_id: C1\n", ""))
    for args in ([], ["--json"]):
        code, out, err = run(capsys, root, *args, "conflicts", "list")
        assert code == 0
        assert "C1" in out and "C2" not in out, out
        assert err == (
            "memkeeper: warning: conflicts/C2.md: malformed conflict record: missing field conflict_id; "
            "not listed (fix the file)\n"
        )

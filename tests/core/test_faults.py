"""Faults met at the engine's front door (the API the desk and the command line call): a disk that fills up or fails
part-way through a write, a page that cannot be read, a page deleted or damaged by hand, a clock running behind.

Whatever happens, an operation either did not happen (one line says so, and nothing was written) or it happened
and its receipt is returned (the next write, or `check --repair`, finishes what the disk refused). Nothing a person
decided before is lost, and `check` names what is wrong. The tests in tests/core/test_crash_consistency.py kill
the process at each step; these make the disk refuse it.
"""

from __future__ import annotations

import errno
import io
import json
import os
import re
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

import memkeeper.core.journal as journal
import memkeeper.core.views as views_module
from memkeeper.core import Engine, MemkeeperError
from memkeeper.core.errors import NotFound, WriteFailed
from memkeeper.core.index import Index
from memkeeper.core.pagefmt import parse_entry
from tests.conftest import T0

H = "human:alice"
T1 = T0 + timedelta(hours=3)
DB_OLD = "The primary database for billing is Postgres."
DB_NEW = "The primary database for billing is MySQL."
KESTREL = "The kestrel rollout uses canary waves of five percent."


def no_space(path: object = None) -> OSError:
    return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), None if path is None else str(path))


@pytest.fixture
def wiki(eng: Engine) -> dict[str, str]:
    """A wiki a person has worked in: a confirmed record in an open conflict (C1), a pending record, a quiz answer,
    an old record the tier plan proposes for cold."""
    ids: dict[str, str] = {}
    db = eng.capture(DB_OLD, now=T0, key="billing-db", title="Billing database", source_ref="raw/a.md#L1")
    ids["db"] = db.details["memory_id"]
    held = eng.capture(DB_NEW, now=T0 + timedelta(hours=1), key="billing-db", title="Billing database", source_ref="b")
    assert held.status == "conflict"
    kestrel = eng.capture(KESTREL, now=T0, title="Kestrel rollout", source_ref="raw/k.md#L2")
    ids["kestrel"] = kestrel.details["memory_id"]
    ids["old"] = eng.capture(
        "The legacy importer reads CSV files from the shared drive nightly.",
        now=T0 - timedelta(days=400),
        title="Legacy importer",
    ).details["memory_id"]
    for n, word in enumerate(["atlas", "harbor", "lumen", "quill"]):
        eng.capture(
            f"The {word} team publishes its weekly report every Thursday at {n + 1} pm.",
            now=T0 + timedelta(minutes=n),
            title=f"{word} report",
        )
    ids["confirm"] = eng.confirm(ids["db"], now=T0 + timedelta(hours=2), actor=H).receipt_sha256
    eng.quiz_record(ids["db"], "good", now=T0 + timedelta(hours=2), actor=H, person="alice")
    assert eng.check().ok, eng.check().problems
    return ids


def trail_count(root: Path, sha: str) -> tuple[int, int, int]:
    receipts = [json.loads(x) for f in sorted((root / "receipts").glob("*.jsonl")) for x in f.read_text().splitlines()]
    log = [x for x in (root / "log.md").read_text().splitlines() if x.startswith("| 20")]
    patterns = [json.loads(x) for x in (root / "patterns" / "PATTERNS.jsonl").read_text().splitlines()]
    return (
        sum(r["receipt_sha256"] == sha for r in receipts),
        sum(x.endswith(f"| {sha} |") for x in log),
        sum(p["payload"]["receipt_sha256"] == sha for p in patterns),
    )


def wiki_files(root: Path) -> dict[str, bytes]:
    """Every file of the wiki but the derived index, by path."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memkeeper" not in p.parts
    }


def page(eng: Engine, mid: str) -> Path:
    rel = eng.page_of(mid)
    assert rel is not None
    return eng.root / rel


def ledger_row(eng: Engine, mid: str) -> dict[str, object]:
    text = (eng.root / "quiz" / "quiz-ledger.alice.md").read_text()
    rows = [json.loads(m) for m in re.findall(r"<!-- quiz:(\{.*\}) -->", text)]
    return next(r for r in rows if r["page"] == eng.page_of(mid))


# ------------------------------------------------------------------------------------------- the disk fills up


def refuse_append(monkeypatch, name: str, *, torn: bool = True) -> None:
    """Appends to files named `name` (or under a folder of that name) fail with ENOSPC, half written when `torn`."""
    real = journal.append_lines

    def append(path, lines):
        path = Path(path)
        if name in (path.name, path.parent.name):
            if torn:
                data = "".join(line.rstrip("\n") + "\n" for line in lines).encode()
                with open(path, "ab") as fh:
                    fh.write(data[: len(data) // 2])
            raise no_space(path)
        return real(path, lines)

    real_bytes = journal._append_bytes

    def append_bytes(path, data):  # how a recovery completes an append
        if name in (Path(path).name, Path(path).parent.name):
            raise no_space(path)
        return real_bytes(path, data)

    monkeypatch.setattr(journal, "append_lines", append)
    monkeypatch.setattr(journal, "_append_bytes", append_bytes)


def refuse_replace(monkeypatch, folder: str) -> None:
    """Moving a staged file into `folder` fails with ENOSPC (the intent is committed; its writes are not all made)."""
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if "journal/stage" in str(src) and Path(dst).parent.name == folder:
            raise no_space(dst)
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(journal.os, "replace", replace)


def refuse_staging(monkeypatch) -> None:
    """Every staged write fails with ENOSPC (before the commit point)."""
    real = journal.atomic_write

    def write(path, text, **kwargs):
        if journal.JOURNAL_DIR in Path(path).parts:
            raise no_space(path)
        return real(path, text, **kwargs)

    monkeypatch.setattr(journal, "atomic_write", write)


def _setup_tiers(eng: Engine, ids: dict[str, str]) -> None:
    commit = eng.commit_tiers(now=T1, actor=H)
    ids["review"] = commit.details["review"]
    _, review = eng.read_review(ids["review"])
    ids["accept"] = ",".join(c.candidate_id for c in review.candidates)


OPS = {
    "capture": (None, lambda eng, ids: eng.capture("The osprey job retries uploads four times.", now=T1), "captured"),
    "consolidate": (
        None,
        lambda eng, ids: eng.capture(KESTREL, now=T1, title="Kestrel rollout", source_ref="raw/k.md#L2"),
        "consolidated",
    ),
    "resolve_existing": (None, lambda eng, ids: eng.resolve_conflict("C1", "existing", now=T1, actor=H), "resolved"),
    "resolve_incoming": (None, lambda eng, ids: eng.resolve_conflict("C1", "incoming", now=T1, actor=H), "resolved"),
    "resolve_both": (None, lambda eng, ids: eng.resolve_conflict("C1", "both", now=T1, actor=H), "resolved"),
    "snooze": (
        None,
        lambda eng, ids: eng.snooze_conflict("C1", until=T1 + timedelta(days=2), now=T1, actor=H),
        "snoozed",
    ),
    "confirm": (None, lambda eng, ids: eng.confirm(ids["kestrel"], now=T1, actor=H), "confirmed"),
    "deny": (None, lambda eng, ids: eng.deny(ids["kestrel"], now=T1, actor=H), "denied"),
    "undeny": (
        lambda eng, ids: eng.deny(ids["kestrel"], now=T1, actor=H),
        lambda eng, ids: eng.undeny(ids["kestrel"], now=T1, actor=H),
        "undenied",
    ),
    "quiz": (
        None,
        lambda eng, ids: eng.quiz_record(ids["kestrel"], "wrong", now=T1, actor=H, person="alice"),
        "recorded",
    ),
    "tiers_commit": (None, lambda eng, ids: eng.commit_tiers(now=T1, actor=H), "ok"),
    "tiers_apply": (
        _setup_tiers,
        lambda eng, ids: eng.apply_tiers(ids["review"], ids["accept"].split(","), now=T1, actor=H),
        "applied",
    ),
    "undo": (None, lambda eng, ids: eng.undo(ids["confirm"], now=T1, actor=H), "undone"),
}

# (operation, what the disk refuses after the commit point): every ledger, a page, the quiz and review files.
AFTER_COMMIT = [
    ("capture", "receipts"),
    ("capture", "entries"),
    ("consolidate", "log.md"),
    ("resolve_existing", "PATTERNS.jsonl"),
    ("resolve_incoming", "entries"),
    ("resolve_incoming", "conflicts"),
    ("resolve_both", "stated"),
    ("resolve_both", "DECISIONS.md"),
    ("snooze", "log.md"),
    ("confirm", "stated"),
    ("deny", "stated"),
    ("undeny", "receipts"),
    ("quiz", "log.md"),
    ("quiz", "quiz"),
    ("tiers_commit", "review"),
    ("tiers_apply", "entries"),
    ("undo", "PATTERNS.jsonl"),
]


@pytest.mark.parametrize(("op", "refused"), AFTER_COMMIT, ids=[f"{o}-{r}" for o, r in AFTER_COMMIT])
def test_disk_full_after_the_commit_point_keeps_the_operation(eng, wiki, monkeypatch, op, refused):
    """The intent is on disk: the operation happened. Its receipt is returned (a caller told it failed would do it
    again: a quiz answer counted twice, a statement consolidated twice), and the next write finishes it."""
    setup, run, status = OPS[op]
    if setup:
        setup(eng, wiki)
    if refused in ("entries", "conflicts", "quiz", "review"):
        refuse_replace(monkeypatch, refused)
    else:
        refuse_append(monkeypatch, refused)
    r = run(eng, wiki)
    monkeypatch.undo()
    assert r.status == status, r.details
    rep = eng.check()
    assert any(p.startswith("journal/intent.json: an interrupted write") for p in rep.problems), rep.problems
    # the desk goes on with the same engine: its next write finishes this one
    eng.capture("The walrus queue drains every hour on the hour.", now=T1 + timedelta(minutes=5))
    assert trail_count(eng.root, r.receipt_sha256) == (1, 1, 1)
    assert eng.check().ok, eng.check().problems
    fresh = Engine.open(eng.root)
    assert fresh.check().ok, fresh.check().problems
    if op == "quiz":
        assert ledger_row(fresh, wiki["kestrel"])["asked"] == 1
    if op == "consolidate":
        assert fresh.load(wiki["kestrel"]).reinforcement == 2
    if op.startswith("resolve"):
        assert fresh.load_conflict("C1").status == "resolved"
    if op != "undo":  # the person's earlier decision stands
        assert fresh.load(wiki["db"]).verified is not None
    fresh.close()


def test_views_the_disk_refuses_are_written_by_the_next_write(eng, wiki, monkeypatch):
    def full(writes, **kwargs):
        raise no_space(writes[0][0])

    monkeypatch.setattr(views_module, "atomic_write_many", full)
    r = eng.capture("The osprey job retries uploads four times.", now=T1, title="Osprey retries")
    monkeypatch.undo()
    assert r.status == "captured"
    assert "Osprey retries" not in (eng.root / "hot.md").read_text()
    assert eng.load(r.details["memory_id"]).content == "The osprey job retries uploads four times."
    eng.capture("The walrus queue drains every hour on the hour.", now=T1 + timedelta(minutes=5))
    assert "Osprey retries" in (eng.root / "hot.md").read_text()
    assert "Osprey retries" in (eng.root / "index" / "fact.md").read_text()
    assert eng.check().ok, eng.check().problems


def test_an_index_the_disk_refuses_catches_up_at_the_next_write(eng, wiki, monkeypatch):
    def full(*args, **kwargs):
        exc = sqlite3.OperationalError("database or disk is full")
        exc.sqlite_errorcode = 13  # type: ignore[attr-defined]
        raise exc

    monkeypatch.setattr(eng.index, "put_many", full)
    r = eng.capture("The osprey job retries uploads four times.", now=T1, title="Osprey retries")
    monkeypatch.undo()
    assert r.status == "captured" and (eng.root / r.details["page"]).is_file()
    eng.capture("The walrus queue drains every hour on the hour.", now=T1 + timedelta(minutes=5))
    assert eng.page_of(r.details["memory_id"]) == r.details["page"]
    assert "Osprey retries" in (eng.root / "hot.md").read_text()
    assert eng.check().ok, eng.check().problems


BEFORE_COMMIT = ["capture", "resolve_incoming", "confirm", "deny", "quiz", "tiers_commit", "undo"]


@pytest.mark.parametrize("op", BEFORE_COMMIT)
def test_disk_full_before_the_commit_point_is_one_line_and_writes_nothing(eng, wiki, monkeypatch, op):
    setup, run, status = OPS[op]
    if setup:
        setup(eng, wiki)
    before = wiki_files(eng.root)
    refuse_staging(monkeypatch)
    with pytest.raises(WriteFailed) as failed:
        run(eng, wiki)
    monkeypatch.undo()
    message = str(failed.value)
    assert "\n" not in message and "No space left on device" in message and "nothing was written" in message
    assert isinstance(failed.value, MemkeeperError)  # the command line's one line and exit 2; the desk's toast
    assert wiki_files(eng.root) == before
    assert eng.check().ok, eng.check().problems
    r = run(eng, wiki)  # the disk has room again: the same decision goes through
    assert r.status == status, r.details


def test_an_intent_the_disk_still_refuses_to_finish_stops_the_next_write_in_one_line(eng, wiki, monkeypatch):
    refuse_append(monkeypatch, "log.md")
    first = eng.quiz_record(wiki["kestrel"], "good", now=T1, actor=H, person="alice")
    with pytest.raises(WriteFailed, match="an interrupted write could not be finished, and nothing was written"):
        eng.confirm(wiki["kestrel"], now=T1, actor=H)
    monkeypatch.undo()
    assert eng.load(wiki["kestrel"]).verified is None
    eng.confirm(wiki["kestrel"], now=T1, actor=H)
    assert trail_count(eng.root, first.receipt_sha256) == (1, 1, 1)
    assert ledger_row(eng, wiki["kestrel"])["asked"] == 1
    assert eng.check().ok, eng.check().problems


def test_a_failed_decision_leaves_the_desk_queue_as_it_was(eng, wiki, monkeypatch):
    """The desk keeps one engine: a resolution or snooze the disk refused must not show as made."""
    refuse_staging(monkeypatch)
    with pytest.raises((MemkeeperError, OSError)):
        eng.resolve_conflict("C1", "incoming", now=T1, actor=H)
    with pytest.raises((MemkeeperError, OSError)):
        eng.snooze_conflict("C1", until=T1 + timedelta(days=2), now=T1, actor=H)
    monkeypatch.undo()
    assert [c.conflict_id for c in eng.conflicts(now=T1)] == ["C1"]
    assert eng.load_conflict("C1").status == "open"
    assert eng.counts(T1, with_tiers=False)["open_conflicts"] == 1
    assert eng.resolve_conflict("C1", "incoming", now=T1, actor=H).status == "resolved"
    assert eng.conflicts(now=T1) == []


def test_retrieve_answers_when_its_access_cannot_be_written(eng, wiki, monkeypatch):
    before = wiki_files(eng.root)
    refuse_staging(monkeypatch)
    r = eng.retrieve("kestrel canary rollout", now=T1)
    monkeypatch.undo()
    assert [x["memory_id"] for x in r.details["results"]] == [wiki["kestrel"]]
    assert r.details["access_recorded"] is False and r.details["access_skipped"] == "write_failed"
    assert wiki_files(eng.root) == before
    assert eng.check().ok, eng.check().problems


def test_a_full_disk_never_deletes_the_index(eng, wiki, monkeypatch):
    """SQLite cannot grow its shared-memory file on a full disk (SQLITE_IOERR_SHMSIZE): that is no damage. Taken
    for it, opening the wiki deleted index.db (at 100k pages, a rebuild of a quarter of a minute once there is room
    again), then failed creating a new one."""
    eng.close()
    db = eng.root / ".memkeeper" / "index.db"
    ident = (db.stat().st_ino, db.stat().st_size)

    def shm_full(conn):
        exc = sqlite3.OperationalError("disk I/O error")
        exc.sqlite_errorcode = 4874  # type: ignore[attr-defined]  # SQLITE_IOERR_SHMSIZE
        raise exc

    monkeypatch.setattr(Index, "_schema_ok", staticmethod(shm_full))
    with pytest.raises(WriteFailed) as failed:
        Engine.open(eng.root)
    monkeypatch.undo()
    assert "could not open its index" in str(failed.value) and "free some space" in str(failed.value)
    assert (db.stat().st_ino, db.stat().st_size) == ident
    fresh = Engine.open(eng.root)
    assert not fresh.index.rebuilt
    assert fresh.check().ok
    fresh.close()


# ------------------------------------------------------------------------------------------- unreadable pages


def deny_reading(monkeypatch, target: Path) -> None:
    """`target` cannot be opened (EACCES), whichever way it is opened. (Root ignores permission bits: chmod 000
    would not stop a test run as root.)"""
    real_os_open = os.open
    real_open = open
    full = os.fspath(target)

    def named(path, dir_fd=None) -> str:
        name = os.fsdecode(path)
        if dir_fd is not None and not os.path.isabs(name):
            name = os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), name)
        return os.path.abspath(name)

    def os_open(path, flags, mode=0o777, *, dir_fd=None):
        if named(path, dir_fd) == full:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), full)
        return real_os_open(path, flags, mode, dir_fd=dir_fd)

    def builtin_open(file, *args, **kwargs):
        if isinstance(file, str | bytes | os.PathLike) and named(file) == full:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), full)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr("builtins.open", builtin_open)
    monkeypatch.setattr(io, "open", builtin_open)  # pathlib's read_text


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names a directory fd through /proc")
def test_a_page_that_cannot_be_read_is_reported_and_stops_nothing_else(eng, wiki, monkeypatch):
    target = page(eng, wiki["kestrel"])
    before = target.read_bytes()
    deny_reading(monkeypatch, target)
    rep = eng.check()
    assert f"{eng.rel(target)}: unreadable (Permission denied)" in "\n".join(rep.problems), rep.problems
    # retrieval serves the record as the index last read it
    assert [x["memory_id"] for x in eng.retrieve("kestrel canary", now=T1).details["results"]] == [wiki["kestrel"]]
    # a decision about it says why in one line; decay goes on with every other record
    with pytest.raises(MemkeeperError, match="Permission denied"):
        eng.confirm(wiki["kestrel"], now=T1, actor=H)
    with pytest.raises(MemkeeperError, match="Permission denied"):
        eng.capture(KESTREL, now=T1, title="Kestrel rollout", source_ref="raw/k.md#L2")
    preview = eng.decay(now=T1 + timedelta(days=400), preview=True)
    decay = eng.decay(now=T1 + timedelta(days=400))
    # the preview a person confirms lists what the run then does: the unreadable page skipped, not archived
    assert preview.details["skipped"] == decay.details["skipped"]
    assert preview.details["archived"] == decay.details["archived"]
    assert decay.details["skipped"] == [
        {"memory_id": wiki["kestrel"], "page": eng.rel(target), "reason": "Permission denied"}
    ]
    assert wiki["old"] in decay.details["archived"] and wiki["kestrel"] not in decay.details["archived"]
    monkeypatch.undo()
    assert target.read_bytes() == before
    assert eng.check().ok, eng.check().problems


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names a directory fd through /proc")
def test_an_unreadable_conflict_record_or_ledger_is_one_line(eng, wiki, monkeypatch):
    deny_reading(monkeypatch, eng.root / "conflicts" / "C1.md")
    with pytest.raises(MemkeeperError, match=r"conflicts/C1\.md: Permission denied"):
        eng.resolve_conflict("C1", "existing", now=T1, actor=H)
    monkeypatch.undo()
    eng.deny(wiki["kestrel"], now=T1, actor=H)
    fresh = Engine.open(eng.root)  # a new process reads the denials afresh
    deny_reading(monkeypatch, eng.root / "stated" / "denials.jsonl")
    # a capture cannot tell whether it was denied: it refuses rather than forget a denial
    with pytest.raises(MemkeeperError, match=r"stated/denials\.jsonl: Permission denied; nothing was written"):
        fresh.capture("The puffin service caches tokens for ten minutes.", now=T1)
    rep = fresh.check()
    assert any(p.startswith("stated/denials.jsonl: unreadable") for p in rep.problems), rep.problems
    monkeypatch.undo()
    assert fresh.check().ok, fresh.check().problems
    fresh.close()


# ------------------------------------------------------------------------------------------- pages damaged or gone


def test_a_page_over_the_size_limit_is_one_problem_and_never_rewritten(eng, wiki):
    target = page(eng, wiki["kestrel"])
    target.write_bytes(target.read_bytes() + b"x" * (10 * 1024 * 1024))
    damaged = target.read_bytes()
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert [p for p in rep.problems if "kestrel" in p or "index.db" in p] == [
        f"{fresh.rel(target)}: is {len(damaged)} bytes, over the 1 MiB limit for a page"
    ], rep.problems
    fix = fresh.repair(now=T1, actor=H)
    assert fix.details["index_rebuilt"] is None  # no rebuild could make it agree: it was reported as stale forever
    fresh.capture(KESTREL, now=T1, title="Kestrel rollout", source_ref="raw/k.md#L2")
    fresh.decay(now=T1 + timedelta(days=400))
    assert target.read_bytes() == damaged
    fresh.close()


def test_a_page_holding_a_nul_byte_is_reported_and_never_rewritten(eng, wiki):
    """What a power cut leaves in a file being written (a block of zeros), or a binary file: not a record to serve
    and write back."""
    target = page(eng, wiki["kestrel"])
    target.write_bytes(target.read_bytes().replace(b"canary waves", b"canary\x00\x00waves"))
    damaged = target.read_bytes()
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert any(p.startswith(f"{fresh.rel(target)}: a NUL byte at line") for p in rep.problems), rep.problems
    assert fresh.retrieve("kestrel canary", now=T1).details["results"] == []
    with pytest.raises(NotFound):
        fresh.confirm(wiki["kestrel"], now=T1, actor=H)
    fresh.capture(KESTREL, now=T1, title="Kestrel rollout", source_ref="raw/k.md#L2")
    fresh.decay(now=T1 + timedelta(days=400))
    fresh.repair(now=T1, actor=H)
    assert target.read_bytes() == damaged
    fresh.close()


def test_a_page_a_merge_left_unresolved_is_reported_and_never_served_or_confirmed(eng, wiki):
    """`git merge` (or `git stash pop`) left conflict markers in a page's body: the record held both sides, two
    statements, and was served to agents as one text, and a person could stamp it confirmed, while check said ok.
    It is a bad page named with its markers' lines; a decision on it says why it is refused; the person keeps one
    side and the record is back."""
    target = page(eng, wiki["kestrel"])
    before = target.read_bytes()
    side = b"The kestrel rollout uses canary waves of five percent.\n"
    assert side in before
    merged = before.replace(
        side,
        b"<<<<<<< HEAD\n" + side + b"=======\nThe kestrel rollout uses canary waves of ten percent.\n>>>>>>> laptop\n",
    )
    target.write_bytes(merged)
    first = merged.decode().split("\n").index("<<<<<<< HEAD") + 1
    why = (
        f"unresolved merge markers (<<<<<<< at line {first}, ======= at line {first + 2}, >>>>>>> at line "
        f"{first + 4}): a merge left both sides in the page; not read until a person keeps one side and removes the "
        "marker lines"
    )
    fresh = Engine.open(eng.root)
    assert fresh.check().problems == [f"{fresh.rel(target)}: {why}"]
    assert fresh.retrieve("kestrel canary", now=T1).details["results"] == []
    with pytest.raises(NotFound) as refused:
        fresh.confirm(wiki["kestrel"], now=T1, actor=H)
    assert str(refused.value) == f"{wiki['kestrel']}: its page {fresh.rel(target)} cannot be read: {why}"
    with pytest.raises(NotFound) as by_page:
        fresh.deny(fresh.rel(target), now=T1, actor=H)
    assert str(by_page.value) == f"{fresh.rel(target)} cannot be read: {why}"
    fresh.decay(now=T1 + timedelta(days=400))
    fresh.repair(now=T1, actor=H)
    assert target.read_bytes() == merged  # never rewritten
    target.write_bytes(before)  # the person keeps one side
    assert fresh.check().ok, fresh.check().problems
    assert fresh.confirm(wiki["kestrel"], now=T1 + timedelta(hours=1), actor=H).status == "confirmed"
    # Only a page that is not what the engine wrote is looked at: a note captured about resolving merge conflicts,
    # markers and all, is an ordinary record.
    text = "To resolve a conflict, keep one side:\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> topic\nthen commit."
    r = fresh.capture(text, now=T1, title="Resolving merge conflicts")
    assert r.status == "captured"
    fresh.close()
    again = Engine.open(eng.root)
    assert again.load(r.details["memory_id"]).content == text
    assert again.check().ok, again.check().problems
    again.close()


def test_a_nul_byte_in_a_capture_is_not_stored(eng):
    r = eng.capture("The osprey job writes a\x00 marker before each record it uploads.", now=T0)
    raw = (eng.root / r.details["page"]).read_bytes()
    assert b"\x00" not in raw
    assert parse_entry(raw.decode()).content == "The osprey job writes a marker before each record it uploads."
    assert "content" in r.details["normalized"]
    assert eng.check().ok, eng.check().problems


@pytest.mark.parametrize("how", ["deleted", "a directory"])
def test_resolving_a_conflict_whose_record_was_deleted_by_hand_says_so(eng, wiki, how):
    target = page(eng, wiki["db"])
    target.unlink()
    if how == "a directory":
        target.mkdir()
    fresh = Engine.open(eng.root)
    for choice in ("existing", "both"):
        with pytest.raises(NotFound) as gone:
            fresh.resolve_conflict("C1", choice, now=T1, actor=H)
        assert str(gone.value).startswith(f"C1: its existing side {wiki['db']} is no longer in the wiki (its page ")
        assert fresh.rel(target) in str(gone.value) and "or take the incoming side" in str(gone.value)
    assert fresh.load_conflict("C1").status == "open"  # nothing decided; the queue keeps it
    # Taking the incoming side needs nothing of the record that is gone: the held statement becomes a record and
    # the conflict closes (it stayed open for good, even after a person's repair recorded the deletion).
    r = fresh.resolve_conflict("C1", "incoming", now=T1, actor=H)
    assert r.status == "resolved" and r.details["loser"] is None and r.details["undo"]["existing"] is None
    made = fresh.load(r.details["created"])
    assert made.content == DB_NEW and made.status.value == "active" and r.details["winner"] == made.memory_id
    assert fresh.load_conflict("C1").status == "resolved" and fresh.counts(T1)["open_conflicts"] == 0
    assert [p for p in fresh.check().problems if "C1" in p or made.memory_id in p] == []
    u = fresh.undo(r.receipt_sha256, now=T1 + timedelta(minutes=1), actor=H)
    assert u.status == "undone" and fresh.load_conflict("C1").status == "open"
    assert fresh.load(made.memory_id).status.value == "archived"  # kept for the record, never deleted
    fresh.close()


# ------------------------------------------------------------------------------------------- a clock behind


@pytest.mark.parametrize("act", ["retrieve", "quiz", "resolve_existing", "consolidate", "confirm"])
def test_a_clock_behind_never_makes_a_record_look_long_unread(eng, wiki, act):
    """A person confirmed and studied the record yesterday; an agent whose clock is a year and a half behind reads
    it (or a person answers, keeps it, restates it with that clock). Its last access must not move back: decay
    today would archive what a person acted on within its half-life."""
    behind = T0 - timedelta(days=540)
    mid = wiki["db"]
    if act == "retrieve":
        eng.retrieve("billing database postgres", now=behind)
    elif act == "quiz":
        eng.quiz_record(mid, "good", now=behind, actor=H, person="alice")
    elif act == "resolve_existing":
        eng.resolve_conflict("C1", "existing", now=behind, actor=H)
    elif act == "consolidate":
        eng.capture(DB_OLD, now=behind, key="billing-db", title="Billing database", source_ref="raw/a.md#L1")
    else:
        mid = wiki["kestrel"]
        eng.retrieve("kestrel canary rollout", now=T0 + timedelta(hours=2))
        eng.confirm(mid, now=behind, actor=H)
    assert eng.load(mid).last_accessed_at >= T0
    decay = eng.decay(now=T1 + timedelta(days=1))
    assert mid not in decay.details["archived"]
    assert eng.load(mid).status.value == "active"


# ------------------------------------------------------------------------------------------- maintenance meets a bad page


def near_duplicates(eng: Engine, key: str, text: str, again: str) -> tuple[str, str]:
    """Two records of one partition that `consolidate` merges: `again` restates `text`. The second is captured under
    a key of its own and moved into the partition by hand (a capture into it would consolidate at once), as the
    maintenance tests do."""
    a = eng.capture(text, now=T0, key=key, title=key.title()).details["memory_id"]
    near = eng.capture(again, now=T0, key=f"{key}-2", title=key.title()).details["memory_id"]
    e = eng.load(near)
    e.canonical_key = key
    with eng.writing():
        eng.save(e)
    return a, near


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names a directory fd through /proc")
@pytest.mark.parametrize("how", ["unreadable", "nul"])
def test_consolidate_skips_a_page_it_cannot_read_and_lists_it(eng, monkeypatch, how):
    """One page whose permissions changed, or that a power cut filled with zeros since the index read it, stopped
    the whole run: nothing merged anywhere. It is left out (listed under `skipped`, as decay does) and never
    written; the other near-duplicates merge."""
    backups = near_duplicates(
        eng,
        "backups",
        "Nightly backups of the billing database run at 02:00 UTC.",
        "The nightly backups of the billing database run at 02:00 UTC.",
    )
    deploy = near_duplicates(
        eng,
        "deploy",
        "The deploy pipeline runs on GitHub Actions with three parallel jobs.",
        "The deploy pipeline really runs on GitHub Actions with three parallel jobs.",
    )
    assert eng.consolidate(now=T1, preview=True).details["count"] == 2
    target = page(eng, backups[1])
    if how == "unreadable":
        deny_reading(monkeypatch, target)
        reason = "Permission denied"
    else:  # rewritten in place: the index still holds the row it read before
        target.write_bytes(target.read_bytes().replace(b"billing database", b"billing\x00database"))
        reason = "a NUL byte at line"
    damaged = target.read_bytes() if how == "nul" else None
    for preview in (True, False):
        r = eng.consolidate(now=T1, preview=preview)
        assert r.status == ("preview" if preview else "ok"), r.details
        assert [{m["source"], m["target"]} for m in r.details["merges"]] == [set(deploy)]
        assert [(s["memory_id"], s["page"]) for s in r.details["skipped"]] == [(backups[1], eng.rel(target))]
        assert r.details["skipped"][0]["reason"].startswith(reason), r.details["skipped"]
    assert eng.get(backups[0]).status.value == "active"  # its near-duplicate's page could not be read: not merged
    if damaged is not None:
        assert target.read_bytes() == damaged
    monkeypatch.undo()
    if how == "unreadable":
        again = eng.consolidate(now=T1 + timedelta(hours=1))
        assert [{m["source"], m["target"]} for m in again.details["merges"]] == [set(backups)]
        assert "skipped" not in again.details
        assert eng.check().ok, eng.check().problems


@pytest.mark.parametrize("op", ["decay", "consolidate"])
def test_maintenance_never_writes_a_row_read_before_over_a_page_edited_in_place(eng, wiki, op):
    """A page edited in place (an editor that writes without a rename) changes neither entries/ nor log.md, so the
    index had not read it again: decay saved the row it held over it, and the person's edit was gone without a word
    (a crash's block of zeros was replaced the same way). Both runs read such a page again first; one that no longer
    reads is skipped and listed, never written."""
    edited, zeroed = page(eng, wiki["old"]), page(eng, wiki["kestrel"])
    edited.write_bytes(edited.read_bytes().replace(b"from the shared drive", b"from the SFTP server"))
    zeroed.write_bytes(zeroed.read_bytes().replace(b"canary waves", b"canary\x00\x00waves"))
    damaged = zeroed.read_bytes()
    later = T1 + timedelta(days=400)
    r = eng.decay(now=later) if op == "decay" else eng.consolidate(now=later)
    assert [(s["page"], s["reason"][:18]) for s in r.details["skipped"]] == [(eng.rel(zeroed), "a NUL byte at line")]
    assert zeroed.read_bytes() == damaged
    assert b"from the SFTP server" in edited.read_bytes()
    if op == "decay":
        assert wiki["old"] in r.details["archived"] and wiki["kestrel"] not in r.details["archived"]
        assert eng.load(wiki["old"]).content.endswith("from the SFTP server nightly.")


# ------------------------------------------------------------------------------------------- a page deleted by hand


def test_a_page_deleted_by_hand_is_reported_until_restored_or_a_person_records_it(eng, wiki):
    """`check` said the wiki was fine after a page was deleted by hand: the next sync dropped its row, and the memory
    was gone without a word. The audit trail says the record was made, so check names it, one line, in every later
    process; repair never makes the page up. Restored, it is no problem; a person's repair records the deletion (an
    agent's leaves it reported)."""
    target = page(eng, wiki["kestrel"])
    rel = eng.rel(target)
    saved = target.read_bytes()
    target.unlink()
    line = (
        f"{rel}: the page of {wiki['kestrel']} is gone (deleted outside memkeeper?) and its memory with it; restore "
        "the page (snapshots/ keeps copies), or, if it was deleted on purpose, memkeeper check --repair --as "
        "human:<you> records that"
    )
    assert [p for p in eng.check().problems if wiki["kestrel"] in p] == [line]
    fresh = Engine.open(eng.root)  # another process: the index row is long gone, the trail still knows
    assert fresh.check().problems == [line]
    assert fresh.retrieve("kestrel canary", now=T1).details["results"] == []
    by_agent = fresh.repair(now=T1, actor="agent:cli")
    assert line in by_agent.details["remaining"] and "pages_gone" not in by_agent.details
    assert not target.exists()  # never made up
    assert fresh.check().problems == [line]
    target.write_bytes(saved)
    assert fresh.check().ok, fresh.check().problems
    target.unlink()
    by_person = fresh.repair(now=T1 + timedelta(hours=1), actor=H)
    assert by_person.status == "repaired"
    assert by_person.details["pages_gone"] == [{"memory_id": wiki["kestrel"], "page": rel}]
    assert line not in by_person.details["remaining"]
    assert fresh.check().ok, fresh.check().problems
    # restored later and deleted again: the record was named since, so the new deletion is reported again
    target.write_bytes(saved)
    fresh.sync()
    fresh.confirm(wiki["kestrel"], now=T1 + timedelta(hours=2), actor=H)
    target.unlink()
    assert fresh.check().problems == [line]
    fresh.close()


@pytest.mark.parametrize("rebuild", ["repair", "index deleted"])
def test_a_directory_put_where_a_page_was_keeps_its_record_reported_as_gone(eng, wiki, rebuild):
    """A directory named like the page (an unzip, a sync tool) was skipped by the scan and taken for the page by the
    gone-record check: once the index was rebuilt (an agent's repair, `.memkeeper/` deleted) `check` said ok and no
    receipt recorded the loss. The directory is a bad page, and the record stays reported as gone, as a deleted
    page's is, until a person's repair records it."""
    target = page(eng, wiki["kestrel"])
    rel = eng.rel(target)
    target.unlink()
    target.mkdir()
    gone = (
        f"{rel}: the page of {wiki['kestrel']} is gone (deleted outside memkeeper?) and its memory with it; restore "
        "the page (snapshots/ keeps copies), or, if it was deleted on purpose, memkeeper check --repair --as "
        "human:<you> records that"
    )
    directory = f"{rel}: a directory named like a page; not read (a page is a file: move the directory out of entries/)"
    assert eng.check().problems == [directory, gone]
    eng.close()
    if rebuild == "repair":
        fresh = Engine.open(eng.root)
        assert gone in fresh.repair(now=T1, actor="agent:cli").details["remaining"]
    else:
        for f in (eng.root / ".memkeeper").iterdir():
            f.unlink()
        fresh = Engine.open(eng.root)
    assert fresh.check().problems == [directory, gone]
    by_person = fresh.repair(now=T1 + timedelta(hours=1), actor=H)
    assert by_person.details["pages_gone"] == [{"memory_id": wiki["kestrel"], "page": rel}]
    assert fresh.check().problems == [directory]  # the directory itself stays the person's to move
    fresh.close()


@pytest.mark.parametrize("process", ["this one", "another"])
def test_undoing_a_decision_about_a_record_whose_page_was_deleted_says_so(eng, wiki, process):
    """The undo of a confirm whose record's page was deleted by hand said only "unknown memory id 'mem_…'" (in a
    process whose index had forgotten it) or nothing of what to do: it names the page, says it was deleted outside
    memkeeper and how to undo it after all. Nothing is written."""
    kestrel = wiki["kestrel"]
    r = eng.confirm(kestrel, now=T1, actor=H)
    target = page(eng, kestrel)
    rel, saved = eng.rel(target), target.read_bytes()
    target.unlink()
    fresh = Engine.open(eng.root) if process == "another" else eng  # another process reads the folder afresh
    before = wiki_files(eng.root)
    with pytest.raises(NotFound) as gone:
        fresh.undo(r.receipt_sha256, now=T1 + timedelta(minutes=1), actor=H)
    assert str(gone.value) == (
        f"{kestrel}: its page {rel} was deleted or moved outside memkeeper, so receipt {r.receipt_sha256[:12]}… "
        "cannot be undone; restore the page (snapshots/ keeps copies) and undo again"
    )
    assert wiki_files(eng.root) == before
    target.write_bytes(saved)  # restored, as the line says: the undo goes through
    fresh.sync()
    assert fresh.undo(r.receipt_sha256, now=T1 + timedelta(minutes=2), actor=H).status == "undone"
    assert fresh.load(kestrel).verified is None
    if fresh is not eng:
        fresh.close()


def test_a_page_moved_or_damaged_by_hand_is_one_problem_not_two(eng, wiki):
    """A page moved into a subfolder is reported as not read, and a page holding a NUL byte as a bad page: neither
    is also reported as gone."""
    target = page(eng, wiki["kestrel"])
    (eng.root / "entries" / "old").mkdir()
    target.rename(eng.root / "entries" / "old" / target.name)
    other = page(eng, wiki["old"])
    other.write_bytes(other.read_bytes().replace(b"CSV files", b"CSV\x00files"))
    problems = eng.check().problems
    assert sorted(p.split(":")[0] for p in problems) == sorted([f"entries/old/{target.name}", eng.rel(other)]), problems


def test_the_desk_is_told_whether_pages_it_wrote_differ_from_the_index(eng, monkeypatch):
    """The desk's watcher skips a full rescan for its own writes only when the engine says every page named is as
    indexed; a hand edit, a vanished page, or an index that cannot answer all say 'rescan'."""
    page = eng.capture("The backup window opens at 02:00 on Sundays.", now=T0).details["page"]
    assert eng.pages_unindexed([page]) is False and eng.pages_unindexed([]) is False
    path = eng.root / page
    path.write_text(path.read_text(encoding="utf-8") + "\nEdited by hand.\n", encoding="utf-8")
    assert eng.pages_unindexed([page]) is True
    path.unlink()
    assert eng.pages_unindexed([page]) is True

    def busy(_pages):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(eng.store.index, "changed", busy)
    assert eng.pages_unindexed(["entries/x.md"]) is True


def test_repair_reads_pages_changed_by_hand_instead_of_rebuilding_the_index(eng, wiki):
    """A page edited in place (its folder untouched, as some editors write) or deleted by hand while a process had
    the wiki open: its repair verified the index before reading the pages again, found rows that differ, and
    rebuilt the whole index (15 s at 100k pages). It now reads the changed pages first, a stat each, as check
    does, and says so; the edit is searchable and nothing else is rebuilt."""
    edited = page(eng, wiki["kestrel"])
    text = edited.read_text(encoding="utf-8").replace("five percent", "ten percent")
    with open(edited, "r+", encoding="utf-8") as f:  # in place: the entries folder's mtime does not move
        f.write(text)
        f.truncate()
    gone = page(eng, wiki["old"])
    gone.unlink()
    r = eng.repair(now=T1, actor=H)
    assert r.details["index_rebuilt"] is None
    assert r.details["index_synced"] == {"updated": 1, "removed": 1}
    assert r.details["pages_gone"] == [{"memory_id": wiki["old"], "page": eng.rel(gone)}]
    assert [x["memory_id"] for x in eng.retrieve("kestrel ten percent", now=T1).details["results"]] == [wiki["kestrel"]]
    assert eng.check().ok, eng.check().problems
    again = eng.repair(now=T1, actor=H)
    assert again.details["index_synced"] is None and again.status != "repaired"


def _read_only(path: object = None) -> OSError:
    return OSError(errno.EROFS, os.strerror(errno.EROFS), None if path is None else str(path))


def _refuse_unlink(monkeypatch, part: str) -> None:
    """os.unlink fails with EROFS for paths holding `part` (a file system turned read-only also refuses removals)."""
    real = os.unlink

    def unlink(path, *args, **kwargs):
        if part in str(path):
            raise _read_only(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", unlink)


def test_a_read_only_file_system_before_the_commit_point_is_one_line(eng, wiki, monkeypatch):
    """The staged files cannot be removed either: the error told is the one that stopped the operation, in one
    line, and the staged file left behind is discarded by the next write."""
    real = journal.atomic_write
    staged: list[str] = []

    def write(path, text, **kwargs):
        if journal.JOURNAL_DIR in Path(path).parts:
            if staged:
                raise _read_only(path)
            staged.append(str(path))
        return real(path, text, **kwargs)

    monkeypatch.setattr(journal, "atomic_write", write)
    _refuse_unlink(monkeypatch, journal.STAGE_DIR)
    before = {k: v for k, v in wiki_files(eng.root).items() if not k.startswith(journal.STAGE_DIR)}
    with pytest.raises(WriteFailed) as failed:
        eng.resolve_conflict("C1", "incoming", now=T1, actor=H)
    monkeypatch.undo()
    message = str(failed.value)
    assert "\n" not in message and "Read-only file system" in message and "nothing was written" in message
    assert {k: v for k, v in wiki_files(eng.root).items() if not k.startswith(journal.STAGE_DIR)} == before
    assert eng.resolve_conflict("C1", "incoming", now=T1, actor=H).status == "resolved"
    assert not journal.leftover_stage(eng.root)
    assert eng.check().ok, eng.check().problems


def test_an_intent_the_disk_refuses_to_remove_leaves_the_operation_standing(eng, wiki, monkeypatch):
    """Applied whole, and only its intent could not be removed: the receipt is returned with a note (a caller told
    it failed would capture again, and reinforce its own record), and the next write finishes it."""
    _refuse_unlink(monkeypatch, journal.INTENT)
    r = eng.capture("The osprey job retries uploads four times.", now=T1)
    monkeypatch.undo()
    assert r.status == "captured"
    assert [n for n in eng.unfinished_writes if "Read-only file system" in n and "stands" in n]
    eng.capture("The walrus queue drains every hour on the hour.", now=T1 + timedelta(minutes=5))
    assert not (eng.root / journal.INTENT).exists()
    assert trail_count(eng.root, r.receipt_sha256) == (1, 1, 1)
    assert eng.load(r.details["memory_id"]).reinforcement == 1
    assert eng.check().ok, eng.check().problems


def test_a_folder_that_refuses_writes_is_named_by_the_file_it_refused(eng, wiki, monkeypatch):
    """A rename names the staged file first and its target second: the line names the target's folder."""
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if "entries" in Path(dst).parts and journal.JOURNAL_DIR in Path(src).parts:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(src), None, str(dst))
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    eng.capture("The osprey job retries uploads four times.", now=T1)
    note = " ".join(eng.unfinished_writes)
    assert "entries/" in note and "Permission denied" in note and "check the permissions of entries/" in note, note
    with pytest.raises(WriteFailed, match=r"^entries/.*Permission denied.*check the permissions of entries/"):
        eng.capture("The walrus queue drains every hour on the hour.", now=T1)
    monkeypatch.undo()
    eng.capture("The walrus queue drains every hour on the hour.", now=T1)
    assert eng.check().ok, eng.check().problems

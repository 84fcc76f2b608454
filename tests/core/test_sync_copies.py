"""Copies a sync tool (Dropbox, iCloud, Syncthing, OneDrive) makes beside a wiki's files when two machines changed
the same file: a page copied under another name holds the record's memory id, a ledger copied under another name
holds the same lines. Which file is the record must not depend on the index's history (it is a cache, SPEC §2), and
`check` names each copy and what to do about it."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path

import pytest

from memkeeper.core import Engine, index
from tests.conftest import T0

H = "human:alice"
TEXT = "The project database is Postgres 15 on the main cluster."
STALE = "The project database is MySQL 8 on the old cluster."
COPIES = [
    "project-database (conflicted copy 2026-12-05).md",  # Dropbox
    "project-database 2.md",  # iCloud
    "project-database.sync-conflict-20261205-101010-ABCDEF.md",  # Syncthing
    "project-database-LAPTOP.md",  # OneDrive
    "project-database-laptop.md",  # OneDrive, a host name in lower case: a name the engine could write
]


def _wiki(root: Path, copy: str) -> tuple[str, str]:
    """A wiki whose record's page has a sync tool's copy beside it, holding what the other machine had."""
    eng = Engine.init(root, now=T0)
    mid = eng.capture(TEXT, now=T0, title="Project database", key="project-db").details["memory_id"]
    eng.capture("The release train ships every second Thursday from main.", now=T0, title="Release cadence")
    page = eng.page_of(mid)
    assert page == "entries/project-database.md"
    eng.close()
    original = root / page
    (root / "entries" / copy).write_text(original.read_text(encoding="utf-8").replace(TEXT, STALE), encoding="utf-8")
    return mid, page


@pytest.mark.parametrize("copy", COPIES)
@pytest.mark.parametrize("history", ["kept", "rebuilt", "cold build"])
def test_the_record_is_the_page_the_engine_named_whatever_the_index_saw_first(tmp_path, monkeypatch, copy, history):
    """The index kept whichever page it read first: the page itself while it was kept up to date, the copy after a
    rebuild (pages are read in sorted order, and "x (…).md" and "x 2.md" sort before "x.md"). A person's confirm
    then stamped the copy and an export carried its stale text. The page the engine named holds the record in every
    case, and `check` names the copy, the page it copies, and what to do."""
    root = tmp_path / "memory"
    mid, page = _wiki(root, copy)
    if history != "kept":
        shutil.rmtree(root / ".memkeeper")  # derived: deleting it loses nothing
    if history == "cold build":
        monkeypatch.setattr(index, "BUILD_MIN", 1)
    eng = Engine.open(root)
    assert eng.page_of(mid) == page
    line = (
        f"entries/{copy}: duplicate memory_id {mid}: a copy of {page}, which holds the record; not read: merge into "
        f"{page} what you want to keep of this copy, then delete the copy"
    )
    assert eng.check().problems == [line]
    hits = eng.retrieve("project database cluster", now=T0, record_access=False).details["results"]
    assert [(h["page"], h["excerpt"]) for h in hits] == [(page, TEXT)]
    assert eng.confirm(mid, now=T0 + timedelta(hours=1), actor=H).status == "confirmed"
    assert "human:alice" in (root / page).read_text(encoding="utf-8")
    assert "human:alice" not in (root / "entries" / copy).read_text(encoding="utf-8")  # never written
    r = eng.export(zone="private_self", now=T0 + timedelta(hours=2), include_content=True)
    shipped = (root / r.details["envelope"]).read_text(encoding="utf-8")
    assert TEXT in shipped and STALE not in shipped
    eng.close()


@pytest.mark.parametrize("copy", COPIES[:3])
def test_the_copy_left_when_the_page_is_deleted_holds_the_record_as_a_rebuild_would(tmp_path, copy):
    """A person who settles a sync conflict by deleting the page and keeping the copy: the copy stayed a bad page
    naming a page that was gone (the record was served by nobody) until the index was rebuilt, which read it as the
    record. The next sync now reads it as the record too."""
    root = tmp_path / "memory"
    mid, page = _wiki(root, copy)
    eng = Engine.open(root)
    assert eng.page_of(mid) == page
    (root / page).unlink()
    assert eng.check().ok, eng.check().problems  # a page renamed by hand keeps its record
    assert eng.page_of(mid) == f"entries/{copy}"
    assert eng.load(mid).content == STALE
    eng.close()
    shutil.rmtree(root / ".memkeeper")
    again = Engine.open(root)
    assert again.page_of(mid) == f"entries/{copy}" and again.check().ok
    again.close()


def test_a_third_copy_names_the_page_that_holds_the_record(tmp_path):
    """With the page gone and two copies left, the better-named copy holds the record, and the other is named as
    its copy (not as a copy of the page that is gone)."""
    root = tmp_path / "memory"
    mid, page = _wiki(root, COPIES[0])
    shutil.copy(root / "entries" / COPIES[0], root / "entries" / COPIES[1])
    eng = Engine.open(root)
    (root / page).unlink()
    problems = eng.check().problems
    assert eng.page_of(mid) == f"entries/{COPIES[1]}"  # "project-database 2.md": the shorter name
    assert problems == [
        f"entries/{COPIES[0]}: duplicate memory_id {mid}: a copy of entries/{COPIES[1]}, which holds the record; not "
        f"read: merge into entries/{COPIES[1]} what you want to keep of this copy, then delete the copy"
    ]
    eng.close()


def _stray(rel: str, original: str) -> str:
    return (
        f"{rel}: a copy of {original} (a sync tool's conflicted copy?) that memkeeper never reads: what only it holds "
        f"is not in the audit trail; merge that into {original}, then delete the copy"
    )


def test_a_copy_of_a_ledger_is_named_and_never_read_as_the_trail(eng):
    """A sync tool's copy of a receipts day file was read as part of the audit trail: its receipts counted twice,
    and check blamed "operations alike in one second". Only the engine's day files are the trail; a copy of a day
    file, of a verification ledger, of PATTERNS.jsonl, of log.md or of DECISIONS.md is named with the file it
    copies and what to do. An OS's droppings and a person's own files there are left alone."""
    mid = eng.capture(TEXT, now=T0, title="Project database").details["memory_id"]
    eng.confirm(mid, now=T0 + timedelta(minutes=1), actor=H)
    root = eng.root
    before = eng.check()
    assert before.ok, before.problems
    trail = list(eng.iter_receipts())
    day = f"receipts/{T0:%Y-%m-%d}.jsonl"
    copies = {
        f"receipts/{T0:%Y-%m-%d} (conflicted copy 2026-12-05).jsonl": day,
        f"receipts/{T0:%Y-%m-%d} 2.jsonl": day,
        "stated/confirmations.sync-conflict-20261205-101010-ABCDEF.jsonl": "stated/confirmations.jsonl",
        "patterns/PATTERNS-LAPTOP.jsonl": "patterns/PATTERNS.jsonl",
        "log (conflicted copy 2026-12-05).md": "log.md",
        "DECISIONS 2.md": "DECISIONS.md",
    }
    for copy, original in copies.items():
        shutil.copy(root / original, root / copy)
    for dropping in ("receipts/Thumbs.db", "receipts/.DS_Store", "stated/desktop.ini", "log-notes.md"):
        (root / dropping).write_text("x\n", encoding="utf-8")
    report = eng.check()
    assert sorted(report.problems) == sorted(_stray(copy, original) for copy, original in copies.items())
    assert report.receipts == before.receipts
    assert list(eng.iter_receipts()) == trail
    eng.close()
    again = Engine.open(root)  # another process: a copy is not read there either
    assert [r[0] for r in again.iter_receipts()] == [r[0] for r in trail]
    assert again.undo(trail[-1][2]["receipt_sha256"], now=T0 + timedelta(hours=1), actor=H).status == "undone"
    again.close()

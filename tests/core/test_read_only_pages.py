"""A page a person made read-only ("don't touch this") is not replaced behind their back, and a rewrite of any other
page keeps its permission bits. (The atomic replace needs only the folder's write permission, so a `chmod 444` page
was replaced, and its mode reset to 0600, by the next decision about it.)"""

from __future__ import annotations

import os
import stat
from datetime import timedelta
from pathlib import Path

import pytest

from memkeeper.core import BadInput
from memkeeper.core.models import Entry
from memkeeper.core.pages import read_only
from memkeeper.tui.cli import main
from tests.conftest import T0

HUMAN = "human:alice"
TEXT = "Kenji prefers async standups on Tuesdays and Thursdays."


def capture(eng, text=TEXT, **kw):
    kw.setdefault("source_ref", "raw/chat.md#L3")
    r = eng.capture(text, now=T0, **kw)
    assert r.status == "captured", r.details
    return r.details["memory_id"], r.details["page"]


def wiki_files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memkeeper" not in p.parts
    }


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_a_rewrite_keeps_the_pages_permission_bits(eng):
    mid, page = capture(eng)
    os.chmod(eng.root / page, 0o640)  # shared read with a group
    os.chmod(eng.root / "hot.md", 0o644)  # a generated view, written without the journal
    assert eng.confirm(mid, now=T0, actor=HUMAN).status == "confirmed"
    assert eng.load(mid).verified is not None
    assert mode(eng.root / page) == 0o640
    assert mode(eng.root / "hot.md") == 0o644


def test_a_read_only_page_refuses_the_decision_before_anything_is_written(eng):
    mid, page = capture(eng, title="Standups")
    twin, twin_page = capture(eng, title="Standups", zone="trusted_collaborator")  # the confirm propagates to it
    os.chmod(eng.root / twin_page, 0o444)
    before = wiki_files(eng.root)
    with pytest.raises(BadInput) as exc:
        eng.confirm(mid, now=T0, actor=HUMAN)
    message = str(exc.value)
    assert "\n" not in message and message.startswith(f"{twin_page} is read-only, so nothing was written")
    assert f"chmod u+w {twin_page}" in message
    assert wiki_files(eng.root) == before  # neither page, nor a receipt, nor a ledger line: not half done
    assert mode(eng.root / twin_page) == 0o444
    os.chmod(eng.root / twin_page, 0o644)  # the person allows writes: the same decision goes through
    r = eng.confirm(mid, now=T0, actor=HUMAN)
    assert r.status == "confirmed" and r.details["propagated_to"] == [twin]


def test_the_command_line_says_so_in_one_line(eng, capsys):
    mid, page = capture(eng)
    os.chmod(eng.root / page, 0o444)
    root = str(eng.root)
    eng.close()
    code = main(["--root", root, "--as", HUMAN, "--now", "2026-11-21T09:00:00Z", "verify", "confirm", mid])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"{page} is read-only" in err, err


def test_an_agents_restatement_of_a_read_only_page_is_rejected_with_a_receipt(eng):
    mid, page = capture(eng)
    os.chmod(eng.root / page, 0o444)
    before = wiki_files(eng.root)
    r = eng.capture(TEXT, now=T0 + timedelta(hours=1), source_ref="raw/chat.md#L3")
    assert (r.status, r.details["reason"], r.details["page"]) == ("reject", "read_only_page", page)
    assert wiki_files(eng.root) == before


def test_maintenance_leaves_a_read_only_page_and_names_it(eng):
    kept, kept_page = capture(eng)
    other, _ = capture(eng, "Priya owns the quarterly billing reconciliation for EMEA.")
    os.chmod(eng.root / kept_page, 0o444)
    page_bytes = (eng.root / kept_page).read_bytes()
    later = T0 + timedelta(days=180)
    preview = eng.decay(now=later, preview=True)
    assert [s["page"] for s in preview.details["skipped"]] == [kept_page]
    r = eng.decay(now=later)
    assert r.status == "ok" and other in r.details["archived"] and kept not in r.details["archived"]
    assert [(s["memory_id"], s["page"]) for s in r.details["skipped"]] == [(kept, kept_page)]
    assert "read-only" in r.details["skipped"][0]["reason"]
    assert (eng.root / kept_page).read_bytes() == page_bytes


def test_consolidation_merges_around_a_read_only_page(eng):
    a = eng.capture("Nightly backups of the billing database run at 02:00 UTC to the cold bucket.", now=T0)
    near = Entry(
        memory_id="mem_00000000000000aa",
        canonical_key=a.details["canonical_key"],
        title="Backups",
        created_at=T0,
        updated_at=T0,
        last_accessed_at=T0,
        content="The nightly backups of the billing database run at 02:00 UTC to the cold bucket.",
    )
    with eng.writing():
        eng.save(near, "entries/backups-copy.md")
    os.chmod(eng.root / "entries/backups-copy.md", 0o444)
    page_bytes = (eng.root / "entries/backups-copy.md").read_bytes()
    r = eng.consolidate(now=T0 + timedelta(hours=1))
    assert r.status == "ok" and r.details["merges"] == []
    assert [s["page"] for s in r.details["skipped"]] == ["entries/backups-copy.md"]
    assert (eng.root / "entries/backups-copy.md").read_bytes() == page_bytes


def test_a_read_only_page_is_still_served_and_quizzed(eng):
    mid, page = capture(eng)
    os.chmod(eng.root / page, 0o444)
    page_bytes = (eng.root / page).read_bytes()
    r = eng.retrieve("kenji standups", now=T0 + timedelta(days=1))
    assert [x["memory_id"] for x in r.details["results"]] == [mid]
    assert r.details["access_not_recorded"] == {"read_only": [page]}
    q = eng.quiz_record(mid, "good", now=T0 + timedelta(days=1), actor=HUMAN, person="alice")
    assert q.status == "recorded" and "record" not in q.details["undo"]  # its strength was not refreshed
    assert (eng.root / page).read_bytes() == page_bytes


def test_read_only_is_no_write_bit_or_none_this_process_holds(tmp_path, monkeypatch):
    f = tmp_path / "page.md"
    f.write_text("x\n")
    assert not read_only(f) and not read_only(tmp_path / "missing.md")
    os.chmod(f, 0o444)
    assert read_only(f)  # root too: the bits say "don't touch", whoever may override them
    os.chmod(f, 0o644)
    monkeypatch.setattr(os, "access", lambda path, how: False)  # another user's page (the bits are theirs)
    assert read_only(f)

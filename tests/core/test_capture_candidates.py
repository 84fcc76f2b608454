"""What a capture is weighed against: the page as it is now, and every record that already holds its text."""

from __future__ import annotations

import os
from datetime import timedelta

from memkeeper.core import Engine
from tests.conftest import T0

OLD = "The Lyra backups are kept for 30 days in cold storage."
NEW = "The Lyra backups are kept for 90 days in cold storage."


def _edit_in_place(eng: Engine, page: str, old: str, new: str) -> None:
    """An editor that saves without a rename: the directory is unchanged, the file keeps its size (30 -> 90)."""
    path = eng.root / page
    text = path.read_text(encoding="utf-8")
    assert old in text
    st = os.stat(path)
    with open(path, "r+", encoding="utf-8") as f:
        f.write(text.replace(old, new))
        f.truncate()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a later save, same size


def _captured(eng: Engine) -> Engine:
    r = eng.capture(OLD, key="lyra-backup-retention", now=T0, actor="agent:a")
    assert r.status == "captured", r
    _edit_in_place(eng, r.details["page"], OLD, NEW)
    return eng


def test_the_old_value_against_a_page_corrected_in_place_is_a_conflict_not_a_restatement(eng):
    r = _captured(eng).capture(OLD, key="lyra-backup-retention", now=T0 + timedelta(hours=1), actor="agent:b")
    assert r.status == "conflict", r.details
    page = (eng.root / r.details["page"]).read_text(encoding="utf-8")
    assert "90 days" in page and "reinforcement: 1" in page  # the page was not reinforced by what it no longer says
    conflict = eng.load_conflict(r.details["conflict_id"])
    assert "90 days" in conflict.existing["text"] and "30 days" in conflict.incoming["text"]


def test_the_corrected_value_restates_the_page_corrected_in_place(eng):
    r = _captured(eng).capture(NEW, key="lyra-backup-retention", now=T0 + timedelta(hours=1), actor="agent:b")
    assert r.status == "consolidated", r.details
    assert not list((eng.root / "conflicts").glob("C*.md"))


def test_a_statement_said_again_restates_its_record_among_many_that_differ_only_in_a_number(eng):
    """Twenty notes that differ only in an invoice number share every other search word: the search ranks them
    alike, and the one that holds the text word for word must still be found."""
    ids = {}
    for n in range(1001, 1021):
        r = eng.capture(f"Invoice {n} from Acme was paid by bank transfer.", now=T0, actor="agent:a")
        assert r.status == "captured", (n, r.details)
        ids[n] = r.details["memory_id"]
    for n in (1018, 1003, 1020):
        again = eng.capture(f"Invoice {n} from Acme was paid by bank transfer.", now=T0 + timedelta(hours=1))
        assert again.status == "consolidated" and again.details["memory_id"] == ids[n], (n, again.details)
    active = eng.store.index.query("SELECT count(*) AS n FROM records WHERE status='active'")[0]["n"]
    assert active == 20

"""Opening a wiki scans `entries/` only when something changed since the cache was last reconciled (issue 10)."""

from __future__ import annotations

from datetime import timedelta

from memkeeper.core import Engine
from tests.conftest import T0


def _scans(monkeypatch, eng_cls=Engine):
    calls: list[int] = []
    from memkeeper.core.index import Index

    original = Index._sync

    def counting(self, progress=None):
        calls.append(1)
        return original(self, progress)

    monkeypatch.setattr(Index, "_sync", counting)
    return calls


def test_open_after_engine_writes_does_not_scan(tmp_path, monkeypatch):
    eng = Engine.init(tmp_path / "w", now=T0)
    eng.capture("The staging database lives on the second rack", now=T0)
    eng.close()
    calls = _scans(monkeypatch)
    eng = Engine.open(tmp_path / "w")  # reconciled by the init's sync and kept so by the capture
    eng.capture("The backup job runs every night at two", now=T0 + timedelta(seconds=1))
    eng.close()
    eng = Engine.open(tmp_path / "w")
    assert calls == []
    assert eng.retrieve("backup job", now=T0, record_access=False).details["results"]
    eng.close()


def test_page_added_by_hand_is_found_on_open(tmp_path):
    eng = Engine.init(tmp_path / "w", now=T0)
    r = eng.capture("The release train leaves every second Tuesday", now=T0)
    page = (tmp_path / "w" / r.details["page"]).read_text(encoding="utf-8")
    eng.close()
    copy = page.replace(r.details["memory_id"], "mem_00000000000000aa").replace("every second Tuesday", "on Fridays")
    (tmp_path / "w" / "entries" / "by-hand.md").write_text(copy, encoding="utf-8")
    eng = Engine.open(tmp_path / "w")  # the new file changed entries/: the open scans
    assert eng.get("mem_00000000000000aa") is not None
    eng.close()


def test_in_place_edit_is_found_by_the_next_full_scan(tmp_path):
    eng = Engine.init(tmp_path / "w", now=T0)
    r = eng.capture("The release train leaves every second Tuesday", now=T0)
    path = tmp_path / "w" / r.details["page"]
    mid = r.details["memory_id"]
    eng.close()
    with open(path, "r+", encoding="utf-8") as fh:  # rewritten in place: no rename, entries/ keeps its mtime
        text = fh.read().replace("every second Tuesday", "every third Monday")
        fh.seek(0)
        fh.write(text)
        fh.truncate()
    eng = Engine.open(tmp_path / "w")
    eng.sync()  # a full scan (check, the desk's start and watcher)
    assert "third Monday" in eng.load(mid).content
    eng.close()


def _word_index_consistent(root) -> None:
    """FTS5's own integrity check, which compares the word index with the records table it indexes."""
    import sqlite3

    db = sqlite3.connect(root / ".memkeeper" / "index.db")
    try:
        db.execute("INSERT INTO fts (fts, rank) VALUES ('integrity-check', 1)")  # raises when they disagree
    finally:
        db.close()


def test_search_follows_every_kind_of_change_and_the_word_index_stays_consistent(tmp_path):
    # The full-text index keeps no text of its own: each change must take a record's old words out with the values
    # they were indexed from.
    root = tmp_path / "w"
    eng = Engine.init(root, now=T0)
    kept = eng.capture("The pottery kiln fires on Thursdays", now=T0, title="Kiln day").details
    gone = eng.capture("The glaze buckets sit under the bench", now=T0, title="Glaze buckets").details
    moved = eng.capture("Clay deliveries come from the quarry depot", now=T0, title="Clay supplier").details
    eng.deny(kept["memory_id"], now=T0, actor="human:owner", reason="wrong day")
    _word_index_consistent(root)
    eng.undeny(kept["memory_id"], now=T0, actor="human:owner")
    _word_index_consistent(root)
    eng.close()
    (root / gone["page"]).unlink()  # removed by hand
    page = root / moved["page"]
    page.write_text(page.read_text().replace("quarry depot", "riverside wharf"))  # edited by hand
    eng = Engine.open(root)
    eng.sync()
    _word_index_consistent(root)
    later = T0 + timedelta(minutes=1)

    def found(query: str) -> list[str]:
        return [r["memory_id"] for r in eng.retrieve(query, now=later, record_access=False).details["results"]]

    assert found("glaze buckets") == []
    assert found("quarry depot") == [] and found("riverside wharf") == [moved["memory_id"]]
    assert kept["memory_id"] in found("pottery kiln")
    eng.close()
    _word_index_consistent(root)

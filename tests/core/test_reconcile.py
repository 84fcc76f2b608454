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

"""`Engine.sync(found=…)`: what a sync found lost, for the desk's notice — a page it could not read, an active record
whose page it found gone — each once, by the sync that first reads the change."""

from __future__ import annotations

from memkeeper.core.index import BadPage, GonePage, SyncFound
from tests.conftest import T0


def _capture(eng, text: str, title: str) -> tuple[str, str]:
    r = eng.capture(text, now=T0, actor="agent:a", title=title)
    mid = r.details["memory_id"]
    return mid, eng.page_of(mid)


def test_a_broken_page_and_a_deleted_one_are_found_once(eng):
    broken_id, broken = _capture(eng, "The kestrel rollout uses canary waves of five percent.", "Kestrel rollout")
    gone_id, gone = _capture(eng, "The osprey service pages the on-call team after two failures.", "Osprey paging")
    page = eng.root / broken
    page.write_text(page.read_text().replace("---\n", "---\nbroken: [unclosed\n", 1))
    (eng.root / gone).unlink()
    found = SyncFound()
    counts = eng.sync(found=found)
    assert counts["bad"] == 1 and counts["removed"] == 1
    assert [b.path for b in found.bad] == [broken] and found.bad[0].error.startswith("malformed YAML frontmatter")
    assert found.gone == [GonePage(gone, gone_id, "Osprey paging")]
    assert eng.get(broken_id) is None and eng.get(gone_id) is None
    again = SyncFound()
    eng.sync(found=again)
    assert not again  # as they were: not found again


def test_a_page_renamed_by_hand_or_a_record_no_longer_active_is_not_lost(eng):
    moved_id, moved = _capture(eng, "The heron build runs on the arm64 runners only.", "Heron build")
    denied_id, denied = _capture(eng, "The egret cache keeps entries for ninety seconds.", "Egret cache")
    assert eng.deny(denied_id, now=T0, actor="human:alice").ok
    (eng.root / moved).rename(eng.root / "entries" / "heron-build-moved.md")
    (eng.root / denied).unlink()
    found = SyncFound()
    counts = eng.sync(found=found)
    assert counts["removed"] == 2
    assert not found  # the record moved is read under its new name; a denied record left no list
    assert eng.page_of(moved_id) == "entries/heron-build-moved.md"


def test_a_page_that_cannot_be_read_keeps_its_row_and_is_found(eng, monkeypatch):
    mid, page = _capture(eng, "The kestrel rollout uses canary waves of five percent.", "Kestrel rollout")
    from memkeeper.core import index as index_mod

    real = index_mod.read_at
    name = page.split("/")[-1]

    def read_at(dir_fd, filename, **kw):  # root reads any file: the permission error an ordinary user gets
        if filename == name:
            raise PermissionError(13, "Permission denied")
        return real(dir_fd, filename, **kw)

    monkeypatch.setattr(index_mod, "read_at", read_at)
    path = eng.root / page
    path.write_text(path.read_text() + "\n")  # changed, so the sync reads it
    found = SyncFound()
    eng.sync(found=found)
    assert found.bad == [BadPage(page, "unreadable page: Permission denied")] and not found.gone
    assert eng.get(mid) is not None  # served as last read
    assert eng.page_unreadable(page) == f"{page} cannot be read (unreadable page: Permission denied)"

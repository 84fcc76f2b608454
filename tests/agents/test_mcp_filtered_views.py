"""A limited server's `index.md` and `hot.md` list what `read_page` would serve its zone, after a page is edited in
place as well.

An editor that saves without a rename changes neither `entries/` nor log.md, so nothing re-reads the page until
something syncs it; the filtered views were built from the index rows alone, while `read_page` checks the page on
disk. The Desk is driven in-process, on an engine that has not synced since the edits (as a server started before
them, or one that opened the wiki without seeing them)."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from memkeeper.agents.mcp_server import Desk, Identity
from memkeeper.core import Engine, MemkeeperError
from memkeeper.core.index import Index
from memkeeper.core.models import TrustZone
from memkeeper.core.store import Store
from tests.conftest import T0

ADDRESS = "Dana's home address is 12 Rue des Lilas, Lyon; she moves in March."
PLAN = "The Harbor launch plan is shared with the agency on Fridays."
GONE = "The Harbor press kit lives in the shared drive under press."
RENAMED = "The Harbor partner list is reviewed at the start of each quarter."


def edit_in_place(eng: Engine, memory_id: str, old: str, new: str) -> str:
    """Rewrite a record's page in place (no rename), as an editor that saves over the file does."""
    page = eng.page_of(memory_id)
    assert page is not None
    path = eng.root / page
    text = path.read_text(encoding="utf-8")
    assert old in text, text
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace(old, new))
    return page


def served(desk: Desk, rel: str) -> str | None:
    try:
        return desk.page(rel)
    except MemkeeperError:
        return None


def test_a_limited_servers_index_and_hot_list_only_what_read_page_serves_after_an_edit_in_place(tmp_path):
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        ids = {}
        for name, text, tier in (
            ("address", ADDRESS, "normal"),
            ("plan", PLAN, "do_not_export"),
            ("gone", GONE, "normal"),
            ("renamed", RENAMED, "normal"),
        ):
            r = eng.capture(text, now=T0, title=f"Harbor {name} title", sensitivity=tier)
            assert r.status == "captured", r.details
            ids[name] = r.details["memory_id"]
        # The owner re-zones by hand: the address leaves the collaborator, the plan reaches it.
        address = edit_in_place(eng, ids["address"], "sensitivity_tier: normal", "sensitivity_tier: do_not_export")
        plan = edit_in_place(eng, ids["plan"], "sensitivity_tier: do_not_export", "sensitivity_tier: normal")
        renamed = edit_in_place(eng, ids["renamed"], "title: Harbor renamed title", "title: Harbor partners review")
        gone = eng.page_of(ids["gone"])
        assert gone is not None
        (eng.root / gone).unlink()
        assert eng.get(ids["address"]).sensitivity_tier.value == "normal"  # the index has not read the edits

        desk = Desk(eng, Identity.from_flags("collab", "trusted_collaborator"))
        assert served(desk, address) is None  # read_page: the page on disk says do_not_export
        assert served(desk, gone) is None
        assert "Harbor launch plan" in (served(desk, plan) or "")
        for rel in ("index.md", "hot.md"):
            view = desk.page(rel)
            assert "Harbor address title" not in view and address not in view, (rel, view)
            assert "Harbor gone title" not in view and gone not in view, (rel, view)
            assert f"[Harbor plan title]({plan})" in view, (rel, view)
            assert f"[Harbor partners review]({renamed})" in view and "Harbor renamed title" not in view, (rel, view)
        assert "## fact (2)" in desk.page("index.md")
        # The edits were read into the index on the way (a stat each), as retrieve does for its results.
        assert not eng.pages_unindexed([address, plan, renamed])
        assert eng.get(ids["address"]).sensitivity_tier.value == "do_not_export"
        assert eng.page_of(ids["gone"]) is None

        # The owner's server reads the generated views as they are.
        owner = Desk(eng, Identity.from_flags("me", "private_self"))
        assert owner.page("index.md") == eng.read_view("index.md")
    finally:
        eng.close()


def test_the_filtered_views_read_no_page_when_none_changed(tmp_path, monkeypatch):
    """Building the filtered views costs a stat per active page beyond the index rows: no page is read, and the
    index is not written, unless a page changed since the index read it."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        for i, text in enumerate((ADDRESS, PLAN, GONE, RENAMED)):
            eng.capture(text, now=T0, title=f"Harbor title {i}")
        desk = Desk(eng, Identity.from_flags("collab", "trusted_collaborator"))
        reads: list[str] = []
        real_sync, real_load = Index.sync_paths, Store.load

        def sync_paths(self, paths, *args, **kwargs):
            reads.extend(paths)
            return real_sync(self, paths, *args, **kwargs)

        def load(self, memory_id):
            reads.append(memory_id)
            return real_load(self, memory_id)

        monkeypatch.setattr(Index, "sync_paths", sync_paths)
        monkeypatch.setattr(Store, "load", load)
        for rel in ("index.md", "hot.md"):
            assert "Harbor title 3" in desk.page(rel)
        assert reads == []
        edit_in_place(eng, first_id(eng), "title: Harbor title 0", "title: Harbor x")
        assert "Harbor x" in desk.page("index.md")
        assert len(reads) == 1  # the one page edited, read into the index; nothing else
    finally:
        eng.close()


def first_id(eng: Engine) -> str:
    _total, rows = eng.category_entries("fact", limit=10)
    return next(r["memory_id"] for r in rows if r["title"] == "Harbor title 0")


def test_a_page_the_index_cannot_reread_is_judged_from_the_page(tmp_path, monkeypatch):
    """With the index busy (another process writing), the edited page's row stays as it was: the views judge that
    record from its page, as read_page does, and the next listing reads it into the index."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        memory_id = eng.capture(ADDRESS, now=T0, title="Harbor address title").details["memory_id"]
        page = edit_in_place(eng, memory_id, "sensitivity_tier: normal", "sensitivity_tier: do_not_export")
        desk = Desk(eng, Identity.from_flags("collab", "trusted_collaborator"))
        real_sync = Index.sync_paths

        def busy(self, paths, *args, **kwargs):
            raise sqlite3.OperationalError("database is locked")

        monkeypatch.setattr(Index, "sync_paths", busy)
        assert eng.reread_edited_active() == [page]
        for rel in ("index.md", "hot.md"):
            assert "Harbor address title" not in desk.page(rel)
        assert eng.get(memory_id).sensitivity_tier.value == "normal"  # the row was left as it was
        monkeypatch.setattr(Index, "sync_paths", real_sync)
        assert "Harbor address title" not in desk.page("index.md")
        assert eng.reread_edited_active() == []
        assert eng.get(memory_id).sensitivity_tier.value == "do_not_export"
    finally:
        eng.close()


def test_hot_lists_the_last_captures_newest_first_to_the_microsecond(tmp_path):
    """hot.md's "Last captures" orders the index's ISO times as times: a capture at 09:00:00.5 is after one at
    09:00:00 (as text, "00.5Z" sorts before "00Z")."""
    eng = Engine.init(tmp_path / "w", now=T0)
    try:
        nouns = ["kettle", "ferry", "orchard", "lantern", "glacier", "quarry", "meadow"]
        offsets = [timedelta(seconds=1), timedelta(0), timedelta(microseconds=500_000), timedelta(days=1)]
        offsets += [timedelta(days=-1), timedelta(microseconds=1), timedelta(seconds=2, microseconds=999_999)]
        pages = {}
        for noun, offset in zip(nouns, offsets, strict=True):
            r = eng.capture(f"The {noun} ledger is checked on site.", now=T0 + offset, title=f"{noun} ledger")
            assert r.status == "captured", r.details
            pages[offset] = r.details["page"]
        desk = Desk(eng, Identity("agent:a", TrustZone.trusted_collaborator), clock=lambda: T0 + timedelta(days=2))
        hot = desk.page("hot.md")
        recent = hot.split("## Last captures")[1].split("## Active commitments")[0]
        listed = [line.split("](")[1].rstrip(")") for line in recent.strip().splitlines()]
        assert listed == [pages[o] for o in sorted(offsets, reverse=True)[:5]]
    finally:
        eng.close()

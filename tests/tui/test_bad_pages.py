"""Pages that stop reading while the desk is open: a page broken by hand (malformed frontmatter) or deleted by hand
leaves every list and count, and the desk says so once, by name (SPEC §3: a bad page is reported with a TUI
notice). Each sync the desk runs — the watcher's, ctrl+r, its start — tells what it found; a later sync that finds
the page as it was does not tell it again."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from memkeeper.core import Engine
from memkeeper.core.index import BadPage, GonePage
from memkeeper.tui.app import GONE_GRACE, lost_pages_notice
from memkeeper.tui.screens.verify import VerifyScreen

from .conftest import open_pane, settle, wait_for
from .snapshot_app import build_app

pytestmark = pytest.mark.anyio

SIZE = (120, 34)


def lost_notices(app) -> list[tuple[str, str]]:
    """(title, message) of every notice about pages that cannot be read or are gone."""
    return [
        (n.title, n.message)
        for n in app._notifications
        if n.title.endswith(("cannot be read", "gone")) or "cannot be read, " in n.title
    ]


def break_page(path: Path) -> None:
    """Malformed frontmatter, written in place (the folder's mtime stays: only a full sync reads it)."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("---\n", "---\nbroken: [unclosed\n", 1), encoding="utf-8")


def active_pages(engine: Engine, count: int) -> list[tuple[str, str]]:
    """(memory id, page) of `count` active records."""
    rows = engine.index.query(
        "SELECT memory_id, path FROM records WHERE status='active' ORDER BY path LIMIT ?", (count,)
    )
    return [(r[0], r[1]) for r in rows]


async def test_a_page_broken_then_one_deleted_while_verify_is_open_are_each_named_once_by_the_watcher(
    demo_root: Path,
) -> None:
    """The record under the cursor left the Verify list (31 → 30) with no toast, no status line; ctrl+r said only
    "Reloaded from disk."; a page deleted by hand went the same way."""
    app = build_app(demo_root, watch=True)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        await wait_for(pilot, lambda: any(w.group == "watch" for w in app.workers), what="the watcher to start")
        await pilot.pause(0.3)  # (setting the watch up walks the wiki's folders, in its thread)
        victim = pane.table.current_key
        page = app.engine.page_of(victim)
        before = pane.source.count()
        events = app.watch_events
        break_page(demo_root / page)
        await wait_for(pilot, lambda: app.watch_events > events, timeout=10, what="the watcher to see the edit")
        await settle(pilot)
        assert pane.source.count() == before - 1  # the record left the list ...
        notices = lost_notices(app)
        assert len(notices) == 1, app._notifications  # ... and the desk says so, once
        title, message = notices[0]
        assert title == "1 page cannot be read"
        assert f"{page}: malformed YAML frontmatter" in message
        assert "memkeeper check names them all" in message
        assert pane.status.plain.startswith("⚠ 1 page cannot be read")

        # A reload reads the page again only if it changed again: the notice is not repeated.
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert pane.status.plain == "Reloaded from disk."
        assert len(lost_notices(app)) == 1

        # A page deleted by hand: its record is gone from the wiki; the notice names the page and the record.
        gone_id = pane.table.current_key
        gone_page = app.engine.page_of(gone_id)
        title_of = app.engine.get(gone_id).title
        events = app.watch_events
        (demo_root / gone_page).unlink()
        await wait_for(pilot, lambda: app.watch_events > events, timeout=10, what="the watcher to see the deletion")
        await settle(pilot)
        assert pane.source.count() == before - 2
        notices = lost_notices(app)
        assert len(notices) == 2, app._notifications
        title, message = notices[1]
        assert title == "1 page is gone"
        assert f"{gone_page}: gone (deleted outside memkeeper?), and {gone_id} “{title_of}” with it" in message
        assert "restore a gone page" in message.lower() and "memkeeper check names them all" in message


def _threads_calling(app, method: str, when) -> list[threading.Thread]:
    """The threads the desk calls the engine's `method` from (with what `when` accepts): filled as it runs."""
    threads: list[threading.Thread] = []
    original = getattr(app.engine, method)

    def recorded(found):
        if when(found):
            threads.append(threading.current_thread())
        return original(found)

    setattr(app.engine, method, recorded)
    return threads


async def _watching(pilot, app) -> VerifyScreen:
    """The Verify pane open, once the desk's watcher runs."""
    pane = await open_pane(pilot, "V", VerifyScreen)
    await wait_for(pilot, lambda: any(w.group == "watch" for w in app.workers), what="the watcher to start")
    await pilot.pause(0.3)  # (setting the watch up walks the wiki's folders, in its thread)
    return pane


async def test_a_page_written_in_place_is_not_named_unreadable_while_it_is_written(demo_root: Path) -> None:
    """An editor that saves in place truncates the page, then writes it: a watcher step between the two read an
    empty page, and the desk warned "1 page cannot be read" for a page whole a moment later. A page bad when a sync
    reads it gets the same grace as a gone one, read again in the watcher's thread."""
    app = build_app(demo_root, watch=True)
    rereads = _threads_calling(app, "reread_bad", lambda found: bool(found.bad))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await _watching(pilot, app)
        target = pane.table.current_key
        page = demo_root / app.engine.page_of(target)
        before = pane.source.count()
        text = page.read_text(encoding="utf-8")
        events = app.watch_events
        page.write_text("", encoding="utf-8")  # truncated: the editor's first step
        await pilot.pause(0.5)  # several watcher steps: a sync reads the empty page
        page.write_text(text.replace("## Content\n", "## Content\nEdited in place.\n", 1), encoding="utf-8")
        await wait_for(pilot, lambda: app.watch_events > events, timeout=10, what="the watcher to see the save")
        await pilot.pause(GONE_GRACE + 0.5)
        await settle(pilot)
        assert lost_notices(app) == [], app._notifications
        assert app.engine.get(target).content.startswith("Edited in place.")
        assert pane.source.count() == before
        assert rereads and threading.main_thread() not in rereads  # read again, never on the UI thread


def test_reread_bad_keeps_only_the_pages_still_bad(demo_root: Path) -> None:
    from memkeeper.core.index import SyncFound

    engine = Engine.open(demo_root)
    first, second = sorted(demo_root.glob("entries/*.md"))[:2]
    texts = {first: first.read_text(encoding="utf-8"), second: second.read_text(encoding="utf-8")}
    for page in texts:
        page.write_text("half a page", encoding="utf-8")
    found = SyncFound()
    engine.sync(found=found)
    assert sorted(b.path for b in found.bad) == sorted(engine.rel(p) for p in texts)
    first.write_text(texts[first], encoding="utf-8")  # written whole: reads again
    counts = engine.reread_bad(found)
    assert [b.path for b in found.bad] == [engine.rel(second)] and "frontmatter" in found.bad[0].error
    assert counts["added"] + counts["updated"] == 1
    assert engine.reread_bad(found) == {"added": 0, "updated": 0, "removed": 0, "bad": 0}  # unchanged: still bad
    assert [b.path for b in found.bad] == [engine.rel(second)]


async def test_a_page_saved_by_moving_it_away_and_writing_it_anew_is_not_named_gone(demo_root: Path) -> None:
    """vim saves (`backupcopy=auto`) by renaming the page to `page~`, writing the page anew, then removing `page~`.
    An editor taking longer than a watcher step between the first two left a watcher sync finding the page gone,
    and the desk warned "1 page is gone" for a page back a moment later. A page back within the grace is read in
    and not named; the desk waits for it in the watcher's thread, never the UI thread."""
    app = build_app(demo_root, watch=True)
    rereads = _threads_calling(app, "reread_gone", lambda found: bool(found.gone))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await _watching(pilot, app)
        target = pane.table.current_key
        rel = app.engine.page_of(target)
        page = demo_root / rel
        before = pane.source.count()
        text = page.read_text(encoding="utf-8")
        events = app.watch_events
        os.rename(page, f"{page}~")
        await pilot.pause(0.5)  # the editor takes its time (several watcher steps); the desk goes on meanwhile
        page.write_text(text.replace("## Content\n", "## Content\nEdited in vim.\n", 1), encoding="utf-8")
        os.unlink(f"{page}~")
        await wait_for(pilot, lambda: app.watch_events > events, timeout=10, what="the watcher to see the save")
        await pilot.pause(GONE_GRACE + 0.5)  # whatever the watcher still had to see of it
        await settle(pilot)
        assert lost_notices(app) == [], app._notifications
        assert app.engine.page_of(target) == rel and app.engine.get(target).content.startswith("Edited in vim.")
        assert pane.source.count() == before
        # (looked for from the watcher's thread: none when its sync already found the page back)
        assert threading.main_thread() not in rereads and threading.current_thread() not in rereads


async def test_ctrl_r_names_what_it_found_and_never_again(demo_root: Path) -> None:
    """Without the watcher: ctrl+r reads a page broken and a page deleted by hand and says so in one notice (the
    first page of each kind named); the next ctrl+r finds nothing new and only reloads."""
    app = build_app(demo_root)  # no watcher
    (broken_id, broken), (gone_id, gone) = active_pages(app.engine, 2)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        records = app.counts["records"]
        break_page(demo_root / broken)
        (demo_root / gone).unlink()
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: lost_notices(app), what="the notice")
        await settle(pilot)
        assert app.counts["records"] == records - 2
        [(title, message)] = lost_notices(app)
        assert title == "1 page cannot be read, 1 is gone"
        lines = message.splitlines()
        assert lines[0].startswith(f"{broken}: malformed YAML frontmatter")
        assert lines[1].startswith(f"{gone}: gone (deleted outside memkeeper?), and {gone_id}")
        assert lines[-1].endswith("memkeeper check names them all.")
        assert pane.status.plain.startswith("⚠ 1 page cannot be read, 1 is gone")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert len(lost_notices(app)) == 1
        assert pane.status.plain == "Reloaded from disk."
    assert broken_id != gone_id


async def test_the_start_names_a_page_deleted_while_the_desk_was_closed(demo_root: Path) -> None:
    """A desk opened after a page was deleted by hand said nothing of it (only of malformed pages, at start). The
    start's reading of every page finds the record's page gone and names it, and a page broken meanwhile too (the
    index still held it as read)."""
    engine = Engine.open(demo_root)
    (gone_id, gone), (_, broken) = active_pages(engine, 2)
    engine.close()
    (demo_root / gone).unlink()
    break_page(demo_root / broken)
    engine = Engine.open(demo_root, sync=False)  # as `memkeeper` opens the desk: the first sync runs in a worker
    app = build_app(demo_root, engine=engine)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: app.engine.synced, timeout=15, what="the start's reading")
        await wait_for(pilot, lambda: lost_notices(app), what="the notice")
        await settle(pilot)
        [(title, message)] = lost_notices(app)
        assert title == "1 page cannot be read, 1 is gone"
        assert f"{gone}: gone (deleted outside memkeeper?), and {gone_id}" in message
        assert f"{broken}: malformed YAML frontmatter" in message


def test_the_notice_names_two_pages_and_counts_the_rest() -> None:
    bad = [BadPage(f"entries/bad-{n}.md", "malformed YAML frontmatter " + "x" * 300) for n in range(3)]
    gone = [GonePage(f"entries/gone-{n}.md", f"mem_{n:016x}", "") for n in range(2)]
    title, message, status = lost_pages_notice(bad, gone)
    assert title == "3 pages cannot be read, 2 are gone"
    lines = message.splitlines()
    assert lines[0].startswith("entries/bad-0.md: malformed YAML frontmatter xxx") and lines[0].endswith("…")
    assert len(lines[0]) < 160  # a long error is cut
    assert lines[1] == "entries/gone-0.md: gone (deleted outside memkeeper?), and mem_0000000000000000 with it"
    assert lines[2] == "… and 3 more"
    assert lines[3].endswith("memkeeper check names them all.")
    assert status[-1] == "⚠ 3 pages cannot be read, 2 are gone · memkeeper check"
    assert lost_pages_notice([], gone[:1])[0] == "1 page is gone"
    assert lost_pages_notice(bad[:2], [])[0] == "2 pages cannot be read"


async def test_pages_the_index_already_holds_as_unreadable_are_named_at_start(demo_root: Path) -> None:
    """A page broken before the desk opened, which the index already read as bad: the desk names it once at start
    (read in a worker, not while the first pane is drawn), and its own start-up reading does not name it again."""
    engine = Engine.open(demo_root)
    ((_, broken),) = active_pages(engine, 1)
    break_page(demo_root / broken)
    engine.close()
    engine = Engine.open(demo_root)
    engine.sync()  # another process's sync (a CLI command) read the page as bad, and the index keeps it so
    assert [b.path for b in engine.bad_pages()] == [broken]
    app = build_app(demo_root, engine=engine)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await wait_for(pilot, lambda: lost_notices(app), what="the notice")
        await settle(pilot)
        [(title, message)] = lost_notices(app)
        assert title == "1 page cannot be read"
        assert message.startswith(f"{broken}: malformed YAML frontmatter")

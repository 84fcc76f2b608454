"""Browse pane: hot.md first, the lazy index tree, entry pages with metadata, retrieval preview by trust zone."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest
from rich.console import Console
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Input, Markdown
from textual.widgets._markdown import MarkdownParagraph

from memkeeper.core import Engine, scoring
from memkeeper.core.index import CANDIDATES
from memkeeper.core.models import TrustZone
from memkeeper.tui.screens.browse import BrowseScreen, ViewRef, clip_view
from memkeeper.tui.widgets import indextree
from memkeeper.tui.widgets.indextree import NodeRef
from memkeeper.tui.widgets.wikiread import resolve_link, split_page

from .conftest import NARROW, WIDE, both_sizes, hold, settle, wait_for
from .snapshot_app import FIXED_NOW, build_app

pytestmark = pytest.mark.anyio

SIZE = (120, 34)
ZONES = [z.value for z in TrustZone]


QUERY_CANDIDATES = ("release", "retention", "rollback", "deploy", "api", "handoff", "support")


def zone_query(root: Path) -> str:
    """A query whose results differ by zone (some visible to outside zones, some hidden): the demo's words may
    change, the property the tests need does not."""
    engine = Engine.open(root)
    try:
        for query in QUERY_CANDIDATES:
            previews = engine.preview_all_zones(query, now=FIXED_NOW, limit=50)
            private = len(previews["private_self"].details["results"])
            outside = previews["outside_contact"].details
            if private > len(outside["results"]) > 0 and outside["hidden_by_zone"] > 0:
                return query
    finally:
        engine.close()
    raise AssertionError("the demo wiki has no query whose results differ by trust zone")


async def open_browse(pilot: Pilot) -> BrowseScreen:
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, BrowseScreen)
    await wait_for(pilot, lambda: screen.markdown.source, what="hot.md rendered")
    return screen


async def search(pilot: Pilot, screen: BrowseScreen, query: str) -> None:
    runs = screen.search_runs
    await pilot.press("slash")
    await pilot.press(*query)
    await pilot.press("enter")
    await wait_for(pilot, lambda: screen.search_runs > runs, what="search results")
    await pilot.pause()


# ------------------------------------------------------------------------------------------------ pages


async def test_opens_on_hot_md(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        assert screen.current == ViewRef("view", "hot.md")
        assert screen.markdown.source.startswith("# Hot")
        assert screen.query_one("#page-panel").border_title == "hot.md"


async def test_selecting_an_entry_renders_page_without_frontmatter(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        assert fact is not None
        tree.move_cursor(fact)
        await pilot.press("enter")  # expands (children load lazily)
        await wait_for(pilot, lambda: fact.children, what="fact entries")
        first = fact.children[0]
        tree.select_node(first)
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", first.data.value), what="entry shown")
        source = screen.markdown.source
        entry = app.engine.get(first.data.value)
        assert source.lstrip().startswith(f"# {entry.title}")
        assert "schema_version" not in source and not source.startswith("---")
        assert screen.query_one("#page-meta").display


async def test_metadata_grid_lists_every_field(demo_root: Path) -> None:
    from rich.console import Console

    from memkeeper.tui.widgets.meta import entry_meta_table

    engine = Engine.open(demo_root)
    try:
        mid = engine.index.scalar("SELECT memory_id FROM records WHERE status='active' ORDER BY memory_id LIMIT 1")
        console = Console(width=200, record=True)
        console.print(entry_meta_table(engine.get(mid)))
        text = console.export_text()
    finally:
        engine.close()
    for field in (
        "zone",
        "sensitivity",
        "status",
        "tier",
        "confidence",
        "strength",
        "reinforced",
        "evidence",
        "source",
        "verified",
        "created",
        "updated",
        "accessed",
    ):
        assert field in text, field


async def test_link_clicked_navigates_to_entries_and_back(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        page = app.engine.index.scalar("SELECT path FROM records WHERE status='active' ORDER BY path LIMIT 1")
        mid = app.engine.index.scalar("SELECT memory_id FROM records WHERE path=?", (page,))
        screen.markdown.post_message(Markdown.LinkClicked(screen.markdown, page))
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", mid), what="linked entry")
        # The entry page links back to the index with a relative link.
        screen.markdown.post_message(Markdown.LinkClicked(screen.markdown, "../index.md"))
        await wait_for(pilot, lambda: screen.current == ViewRef("view", "index.md"), what="index.md")
        await pilot.press("backspace")
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", mid), what="back to the entry")
        await pilot.press("h")
        await wait_for(pilot, lambda: screen.current == ViewRef("view", "hot.md"))


async def test_a_page_revealed_in_the_tree_late_is_not_shown_over_the_next_one(
    demo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Following a link to an entry moves the tree's cursor to it, once a worker has read its category. When that
    read came back after the person had already followed another link, the cursor's arrival showed the entry again
    over the page on view, and `back` then went to the wrong page (seen under load)."""
    app = build_app(demo_root)
    read = hold(monkeypatch, app.engine, "category_entries", timeout=10)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        page = app.engine.index.scalar("SELECT path FROM records WHERE status='active' ORDER BY path LIMIT 1")
        mid = app.engine.index.scalar("SELECT memory_id FROM records WHERE path=?", (page,))
        read.gate.clear()  # the category's entries are read slowly
        screen.markdown.post_message(Markdown.LinkClicked(screen.markdown, page))
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", mid), what="linked entry")
        screen.markdown.post_message(Markdown.LinkClicked(screen.markdown, "../index.md"))
        await wait_for(pilot, lambda: screen.current == ViewRef("view", "index.md"), what="index.md")
        read.gate.set()  # the read comes back: the cursor moves to the entry
        await wait_for(pilot, lambda: screen.index_tree.cursor_node.data == NodeRef("entry", mid), what="the cursor")
        await pilot.pause(0.5)  # past the highlight's delay
        await settle(pilot)
        assert screen.current == ViewRef("view", "index.md")
        await pilot.press("backspace")
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", mid), what="back to the entry")


def test_resolve_link_stays_inside_the_wiki() -> None:
    assert resolve_link("entries/a.md", "../index.md") == "index.md"
    assert resolve_link("hot.md", "entries/b.md#x") == "entries/b.md"
    assert resolve_link("index.md", "index/fact.md") == "index/fact.md"
    assert resolve_link("hot.md", "../../etc/passwd") is None
    assert resolve_link("hot.md", "/etc/passwd") is None
    assert resolve_link("hot.md", "https://example.com") is None
    assert resolve_link("hot.md", "#queues") is None


def test_long_views_are_clipped() -> None:
    long = "# Index\n" + "\n".join(f"- line {i}" for i in range(20000))
    clipped = clip_view("index/fact.md", long)
    assert len(clipped) < 45_000 and "shortened here" in clipped
    log = "# Wiki Log\n\n| time | action | status | count | receipt sha256 |\n|---|---|---|---|---|\n" + "\n".join(
        f"| 2026-01-01T00:00:{i % 60:02d}Z | capture | captured | 1 | {i:064x} |" for i in range(1000)
    )
    tail = clip_view("log.md", log)
    assert f"{999:064x}" in tail and f"{0:064x}" not in tail and "newest 200 of 1000" in tail


async def test_a_long_generated_view_mounts_a_bounded_number_of_blocks(demo_root: Path) -> None:
    """Textual's Markdown mounts a widget per block and list item: CONFLICTS.md with 317 open conflicts, cut at 40k
    characters, was 113 blocks and held the desk 1-1.5 s when the tree cursor rested on it (index/fact.md's 10k
    links: 3.4 s). A view is cut where it stays about a quarter of a second."""
    sections = [
        f"### C{n} — 2026-11-29 — Subject {n} limit\n**Status**: open\n**Side A**: The subject {n} limit is {n}. "
        + "Filler words about the subject and its history. " * 8
        + f"\n  - source: raw/a.md#L{n} · user_stated\n**Side B**: The subject {n} limit is {n + 1}.\n"
        f"  - source: raw/b.md#L{n} · agent_inferred\n**Detected by**: capture\n**Resolution**: pending\n"
        for n in range(300, 0, -1)
    ]
    (demo_root / "CONFLICTS.md").write_text("# Conflicts\n\n_Open: 300._\n\n" + "\n".join(sections))
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        await screen.show(ViewRef("view", "CONFLICTS.md"))
        await pilot.pause()
        assert "shortened here" in screen.markdown.source
        assert len(screen.markdown.children) <= 40


def long_entries_wiki(root: Path, notes: dict[str, str]) -> dict[str, str]:
    """A wiki holding `notes` (title: text) as agent captures; their memory ids by title."""
    engine = Engine.init(root, now=FIXED_NOW)
    ids = {}
    for title, text in notes.items():
        r = engine.capture(text, now=FIXED_NOW, actor="agent:x", title=title)
        assert r.ok, r
        ids[title] = r.details["memory_id"]
    engine.close()
    return ids


async def select_entry(pilot: Pilot, screen: BrowseScreen, title: str) -> None:
    """Select the fact entry titled `title` in the tree, as a person does, and wait for its page to be shown."""
    tree = screen.index_tree
    fact = tree.find(NodeRef("category", "fact"))
    assert fact is not None
    if not fact.is_expanded:
        tree.move_cursor(fact)
        await pilot.press("enter")
        await wait_for(pilot, lambda: fact.children, what="fact entries")
    node = next(n for n in fact.children if str(n.label) == title)
    tree.select_node(node)
    await wait_for(pilot, lambda: screen.current == ViewRef("entry", node.data.value), what=f"{title} shown")
    await settle(pilot)


@pytest.mark.long
async def test_a_long_entry_page_shows_its_start_and_a_line_saying_how_to_open_it_whole(tmp_path: Path) -> None:
    """An entry page went to Textual's Markdown whole: an agent's 5,000-line checklist (55 KB, under the engine's
    64 KiB) was some 20,000 widgets, and selecting it held the desk 14 s (53 s until it was quiet); a 60 KB line,
    wrapped whole, 1.5 s. The page shows its start, and its last line says how much is left and which key opens it
    whole in the editor."""
    checklist = "\n".join(f"- m{i:04d} ok" for i in range(5000))
    line = " ".join(f"The migration moved batch {i:05d} without errors." for i in range(1300))[:60_000]
    long_entries_wiki(tmp_path / "wiki", {"Migration checklist": checklist, "Migration line": line})
    app = build_app(tmp_path / "wiki")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        edit = f"{app.key_for('browse.edit')} opens the whole page in your editor."
        await select_entry(pilot, screen, "Migration checklist")
        source = screen.markdown.source
        assert "- m0000 ok\n- m0001 ok" in source and "m4999" not in source
        last = source.rstrip().splitlines()[-1]
        assert last.startswith("_… the page continues: ") and "more lines" in last and last.endswith(f"{edit}_")
        assert len(list(screen.markdown.query("*"))) < 200  # a page's worth of widgets, not 20,000
        note = screen.markdown.query(MarkdownParagraph).last()
        assert "the page continues" in str(note.source) and note is screen.markdown.children[-1]

        await select_entry(pilot, screen, "Migration line")
        source = screen.markdown.source
        assert "batch 00000 without errors" in source and "batch 01299" not in source
        assert len(source) < 8_500  # its first 8,000 characters, the page's title and the line that says so
        body, note_line = source.rstrip().rsplit("\n\n", 1)
        shown = body.split("## Content\n", 1)[1]  # (the page's title and status line above it)
        assert line.startswith(shown) and line[len(shown)] == " "  # cut between two words
        assert note_line.startswith("_… the page continues: ") and note_line.endswith(f"{edit}_")


async def test_a_page_is_read_off_the_ui_thread_and_the_last_selected_page_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Showing a page read it through the engine on the UI thread: a slow disk (a synced folder, a network home)
    froze the desk for as long as the read took. The read runs in a thread; while it is out the cursor moves, and a
    page selected meanwhile is the one shown when both reads are in, whichever finishes last."""
    long_entries_wiki(tmp_path / "wiki", {"Alpha note": "Alpha is the first.", "Beta note": "Beta is the second."})
    app = build_app(tmp_path / "wiki")
    read = hold(monkeypatch, app.engine, "read_view", timeout=10)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        await select_entry(pilot, screen, "Alpha note")
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        alpha, beta = (next(n for n in fact.children if str(n.label) == t) for t in ("Alpha note", "Beta note"))
        read.gate.clear()  # the next reads wait
        reads, shown = len(read.on_ui_thread), screen.pages_shown
        tree.select_node(beta)
        await wait_for(pilot, lambda: len(read.on_ui_thread) > reads, what="Beta's read to start")
        tree.select_node(alpha)  # the person changes their mind while Beta is being read
        await pilot.press("up")
        await wait_for(pilot, lambda: tree.cursor_node is not alpha, what="the cursor moving during the read")
        assert "Alpha is the first." in screen.markdown.source and screen.pages_shown == shown
        read.gate.set()
        await wait_for(pilot, lambda: screen.pages_shown > shown, what="a page shown")
        await settle(pilot)
        assert screen.pages_shown == shown + 1  # Beta's read, overtaken, showed nothing
        assert screen.current == ViewRef("entry", alpha.data.value)
        assert "Alpha is the first." in screen.markdown.source and "Beta" not in screen.markdown.source
    assert read.on_ui_thread and not any(read.on_ui_thread)


async def test_an_entry_page_of_ordinary_length_is_shown_whole(tmp_path: Path) -> None:
    """A note, a dozen-item checklist and a 6 KB summary are shown as their pages hold them, with no line saying
    they continue."""
    summary = "\n".join(
        f"Paragraph {i}: the ingest worker logs were read again and nothing new was in them." for i in range(70)
    )
    notes = {
        "CI database": "The CI runner uses Postgres 15 for tests.",
        "Release checklist": "\n".join(f"- step {i}: done" for i in range(12)),
        "Ingest summary": summary,
    }
    ids = long_entries_wiki(tmp_path / "wiki", notes)
    app = build_app(tmp_path / "wiki")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        for title in notes:
            await select_entry(pilot, screen, title)
            page = app.engine.page_of(ids[title])
            _, body = split_page(app.engine.read_view(page))
            assert screen.markdown.source == body and "continues" not in body, title


def test_an_entry_cut_inside_a_code_block_closes_it() -> None:
    """The line after the cut is not shown as code: the fence the cut left open is closed before it."""
    from memkeeper.tui.screens.browse import clip_entry

    code = "\n".join(f"    step_{i} = run({i})  # and a comment" for i in range(600))
    text = f"# Script\n\nThe script:\n\n```python\n{code}\n```\n\nAfter it."
    shown = clip_entry(text, "e")
    head, note = shown.rstrip().rsplit("\n\n", 1)
    assert head.endswith("\n```") and head.count("```") == 2
    assert note.startswith("_… the page continues: ") and note.endswith("e opens the whole page in your editor._")
    assert clip_entry("A note.\n\n```\ncode\n```\n", "e") == "A note.\n\n```\ncode\n```\n"


# ------------------------------------------------------------------------------------------------ tree


async def test_tree_loads_categories_lazily_in_pages(demo_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(indextree.IndexTree, "page_size", 5)
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        assert fact is not None and not fact.children  # nothing loaded until expanded
        fact.expand()
        await wait_for(pilot, lambda: len(fact.children) == 6)
        assert fact.children[-1].data.kind == "more"
        tree.select_node(fact.children[-1])
        await wait_for(pilot, lambda: len(fact.children) == 11, what="the next page")
        assert [c.data.kind for c in fact.children].count("entry") == 10


async def test_the_tree_reads_entries_off_the_ui_thread(demo_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A category's entries (25-180 ms at 100k records) are read in a worker: while a read is out the category says
    "…" and the cursor still moves; a next page and a rebuild after a sync are read the same way."""
    monkeypatch.setattr(indextree.IndexTree, "page_size", 5)
    app = build_app(demo_root)
    read = hold(monkeypatch, app.engine, "category_entries", timeout=10)
    gate, threads = read.gate, read.on_ui_thread
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        tree.move_cursor(fact)
        await pilot.pause()
        gate.clear()  # the next read waits
        fact.expand()
        await wait_for(pilot, lambda: str(fact.label).endswith("…"), what="the category reading")
        await pilot.press("up")
        await wait_for(pilot, lambda: tree.cursor_node is not fact, what="the cursor moving during the read")
        assert not fact.children
        gate.set()
        await wait_for(pilot, lambda: len(fact.children) == 6, what="the first page")
        assert not str(fact.label).endswith("…")
        tree.select_node(fact.children[-1])
        await wait_for(pilot, lambda: len(fact.children) == 11, what="the next page")
        reads = tree.reads
        screen.refresh_data()
        await wait_for(pilot, lambda: tree.reads > reads, what="the rebuild")
        fact = tree.find(NodeRef("category", "fact"))
        assert fact.is_expanded and [c.data.kind for c in fact.children].count("entry") == 10
    assert len(threads) >= 3 and not any(threads)


async def test_a_failed_tree_read_says_so_and_leaves_the_tree_usable(
    demo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = build_app(demo_root)

    def category_entries(*args, **kwargs):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(app.engine, "category_entries", category_entries)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await open_browse(pilot)
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        fact.expand()
        await wait_for(pilot, lambda: app._notifications, what="the error")
        await wait_for(pilot, lambda: not str(fact.label).endswith("…"), what="the category no longer reading")
        assert any("Reading the index failed" in (n.title or "") for n in app._notifications)
        assert not fact.children
        await pilot.press("down")  # the desk is still there
        assert isinstance(app.screen, BrowseScreen)


@pytest.mark.long
async def test_tree_stays_responsive_with_20000_records(demo_root: Path) -> None:
    # The tree reads the derived index only; fill a test copy of the cache with 20k rows in one category.
    engine = Engine.open(demo_root)
    # Archived rows: the queues (counted in the header) only read active records, the tree shows every status.
    rows = [
        (
            f"mem_{i:016x}",
            f"entries/bulk-{i}.md",
            f"bulk-{i}",
            "private_self",
            "normal",
            "archived",
            "warm",
            "fact",
            f"Bulk record {i:05d}",
        )
        for i in range(20_000)
    ]
    with engine.index._lock:
        engine.index.db.executemany(
            "INSERT INTO records (memory_id, path, canonical_key, trust_zone, sensitivity_tier, status, tier, category,"
            " title) VALUES (?,?,?,?,?,?,?,?,?)",
            rows,
        )
    app = build_app(demo_root, engine=engine)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        fact.expand()
        await wait_for(pilot, lambda: fact.children, what="first page")
        # Responsiveness comes from paging: one page of nodes plus a "more" node, never 20k widgets (speed itself
        # is measured in benchmarks/, not asserted here).
        assert len(fact.children) == indextree.IndexTree.page_size + 1
        assert fact.children[-1].data.kind == "more"
        tree.move_cursor(fact.children[3])
        await pilot.press("down", "down")
        await wait_for(pilot, lambda: tree.cursor_node is fact.children[5], what="cursor moves")


async def test_refresh_keeps_the_cursor(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        tree = screen.index_tree
        decision = tree.find(NodeRef("category", "decision"))
        decision.expand()
        await wait_for(pilot, lambda: decision.children)
        target = decision.children[2].data
        tree.move_cursor(decision.children[2])
        await pilot.pause()
        screen.refresh_data()
        await wait_for(
            pilot,
            lambda: tree.cursor_node is not None and tree.cursor_node.data == target,
            what="cursor back on the same entry",
        )


# ------------------------------------------------------------------------------------------------ search


async def test_search_shows_results_with_score_components(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        query = zone_query(demo_root)
        await search(pilot, screen, query)
        expected = app.engine.retrieve(
            query, zone="private_self", limit=50, now=FIXED_NOW, actor="human:demo", record_access=False
        )
        table = screen.results
        assert table.row_count == len(expected.details["results"]) > 0
        first = expected.details["results"][0]
        row = [str(c) for c in table.get_row_at(0)]
        c = first["components"]
        assert row[:5] == [
            f"{first['score']:.3f}",
            f"{c['semantic']:.2f}",
            f"{c['freshness']:.2f}",
            f"{c['reinforcement']:.2f}",
            f"{c['confidence']:.2f}",
        ]
        assert row[5] == first["title"]
        assert [str(k.value) for k in table.rows][0] == first["memory_id"]


async def test_search_writes_nothing(demo_root: Path) -> None:
    receipts_before = sorted(p.read_bytes() for p in (demo_root / "receipts").glob("*.jsonl"))
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        await search(pilot, screen, zone_query(demo_root))
        await pilot.press("down", "z", "z")  # down leaves the search box (where z is a letter) for the results
    assert sorted(p.read_bytes() for p in (demo_root / "receipts").glob("*.jsonl")) == receipts_before


async def test_z_on_a_closed_search_panel_puts_the_typing_in_its_box(demo_root: Path) -> None:
    """`z` opens the search panel showing an empty query: what is typed next is the query, not the pane's one-letter
    commands (left on the tree, the "e" of "release" opened the page on view in the editor)."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        assert not screen.query_one("#search-panel").display
        await pilot.press("z")
        await pilot.pause()
        box = screen.query_one("#search-input")
        assert app.focused is box
        runs = screen.search_runs
        await pilot.press(*"release", "enter")
        await wait_for(pilot, lambda: screen.search_runs > runs, what="search results")
        assert screen.query_text == "release" and screen.zone == ZONES[1]


async def test_zone_switch_changes_counts_and_shows_hidden(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        await search(pilot, screen, zone_query(demo_root))
        await pilot.press("down")  # to the results: in the search box z is a letter
        summary = screen.zone_summary()
        assert set(summary) == set(ZONES)
        counts = []
        for zone in ZONES:
            assert screen.zone == zone
            results, hidden, _bounded = summary[zone]
            assert screen.results.row_count == results
            strip = str(screen.query_one("#zone-strip").render())
            assert zone in strip
            if hidden:
                assert f"({hidden} hidden)" in strip
            counts.append(results)
            await pilot.press("z")
            await pilot.pause()
        assert screen.zone == ZONES[0]  # cycled all the way round
        # The query matches private records: the public zones see fewer and say how many were hidden.
        assert counts[0] > counts[-1]
        assert summary["paid_public"][1] > 0
        await pilot.press("Z")
        await pilot.pause()
        assert screen.zone == ZONES[-1]
        await screen.run_action("set_zone('trusted_collaborator')")  # what a click on the zone strip runs
        assert screen.zone == "trusted_collaborator"
        assert screen.results.row_count == summary["trusted_collaborator"][0]


async def test_a_search_says_it_is_running_until_its_results_are_in(demo_root: Path, monkeypatch) -> None:
    """A preview ranks every match in four zones: at 100k records a common word takes most of a second, and the
    panel showed nothing of it (the last results, or the hint) until the results came."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        gate = threading.Event()
        original = app.engine.preview_all_zones
        monkeypatch.setattr(app.engine, "preview_all_zones", lambda *a, **k: (gate.wait(60), original(*a, **k))[1])
        runs = screen.search_runs
        await pilot.press("slash", *"deploy", "enter")
        await pilot.pause(0.1)
        try:
            assert "searching “deploy”…" in str(screen.query_one("#zone-strip").render())
        finally:
            gate.set()
        await wait_for(pilot, lambda: screen.search_runs > runs, what="search results")
        await pilot.pause()
        strip = str(screen.query_one("#zone-strip").render())
        assert "searching" not in strip and "private_self" in strip


async def test_a_hidden_count_at_the_engines_bound_says_there_may_be_more(demo_root: Path, monkeypatch) -> None:
    """The engine counts the matches a zone may not see among a bounded number of them: at 100k records "(300
    hidden)" stood for tens of thousands. When the engine says its count stopped at the bound, the strip says
    "300+"; when it does not, the count is exact."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        original = app.engine.preview_all_zones
        bounded = [True]

        def at_the_bound(*args, **kwargs):
            previews = original(*args, **kwargs)
            for receipt in previews.values():
                if receipt.details.get("hidden_by_zone"):
                    receipt.details.update(hidden_by_zone=CANDIDATES, hidden_by_zone_bounded=bounded[0])
            return previews

        monkeypatch.setattr(app.engine, "preview_all_zones", at_the_bound)
        await search(pilot, screen, zone_query(demo_root))
        strip = str(screen.query_one("#zone-strip").render())
        assert f"({CANDIDATES}+ hidden)" in strip and f"({CANDIDATES} hidden)" not in strip
        bounded[0] = False
        runs = screen.search_runs
        await pilot.press("slash", "enter")  # the same query again
        await wait_for(pilot, lambda: screen.search_runs > runs, what="search results")
        await pilot.pause()
        strip = str(screen.query_one("#zone-strip").render())
        assert f"({CANDIDATES} hidden)" in strip and f"({CANDIDATES}+ hidden)" not in strip


async def test_enter_on_a_result_opens_its_page(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        await search(pilot, screen, zone_query(demo_root))
        first = str(next(iter(screen.results.rows)).value)
        await pilot.press("down", "enter")  # down leaves the search box for the results
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", first), what="result page")
        await wait_for(
            pilot,
            lambda: (node := screen.index_tree.cursor_node) is not None and node.data == NodeRef("entry", first),
            what="tree follows",
        )
        await pilot.press("escape")  # focus is on the results table: escape closes the search panel
        await pilot.pause()
        assert not screen.query_one("#search-panel").display


async def test_focus_stays_in_the_search_box_after_a_query(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        box = screen.query_one("#search-input")
        await search(pilot, screen, "billing")
        assert screen.results.row_count and app.focused is box
        # Refine and run again without leaving the box.
        runs = screen.search_runs
        await pilot.press(*" database", "enter")
        await wait_for(pilot, lambda: screen.search_runs > runs, what="the refined search")
        assert screen.query_text == "billing database" and app.focused is box
        await pilot.press("down")
        assert app.focused is screen.results


async def test_empty_query_reports_instead_of_crashing(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        await search(pilot, screen, "   ")
        assert screen.results.row_count == 0
        assert "empty_query" in str(screen.query_one("#zone-strip").render())


async def test_a_failed_search_is_shown_and_the_desk_stays_open(demo_root: Path, monkeypatch) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await open_browse(pilot)

        def broken(*args, **kwargs):
            raise OSError(5, "Input/output error")

        monkeypatch.setattr(app.engine, "preview_all_zones", broken)
        await pilot.press("slash", *"deploy", "enter")
        await wait_for(
            pilot,
            lambda: any(
                n.title == "Browse" and "OSError: [Errno 5] Input/output error" in n.message for n in app._notifications
            ),
            what="the failure notification",
        )
        assert app.is_running and app.screen is screen and screen.search_runs == 0


async def test_empty_wiki_browse(empty_root: Path) -> None:
    app = build_app(empty_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        children = screen.index_tree.root.children
        # three views, then the hint in lines short enough for the index at 80 columns
        assert [n.data.kind if n.data else None for n in children] == ["view", "view", "view", None, None, None]
        hint = " ".join(str(n.label) for n in children[3:])
        assert hint == "no records yet — agents add them with `memkeeper capture`"
        assert "(none yet)" in screen.markdown.source
        await search(pilot, screen, "anything at all")
        assert screen.results.row_count == 0


# ------------------------------------------------------------------------------------------------ snapshots


def _snap(run_extra=None):
    async def run_before(pilot: Pilot) -> None:
        await open_browse(pilot)
        if run_extra is not None:
            await run_extra(pilot)
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run_before


def test_snapshot_browse_hot(demo_root: Path, snap_compare) -> None:
    assert snap_compare(build_app(demo_root), run_before=_snap(), terminal_size=WIDE)


@both_sizes
def test_snapshot_browse_entry(demo_root: Path, snap_compare, size) -> None:
    """A superseded entry, selected in the tree: its status stays visible in a 28-column tree."""

    async def select_entry(pilot: Pilot) -> None:
        screen = pilot.app.screen
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        fact.expand()
        await wait_for(pilot, lambda: fact.children)
        node = next(n for n in fact.children if "superseded" in str(n.label))
        tree.select_node(node)
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", node.data.value))

    assert snap_compare(build_app(demo_root), run_before=_snap(select_entry), terminal_size=size)


def test_snapshot_browse_search_zone(demo_root: Path, snap_compare) -> None:
    query = zone_query(demo_root)

    async def search_and_switch(pilot: Pilot) -> None:
        screen = pilot.app.screen
        await search(pilot, screen, query)
        await pilot.press("down", "z", "z")  # outside_contact: fewer results, some hidden
        await pilot.pause()

    assert snap_compare(build_app(demo_root), run_before=_snap(search_and_switch), terminal_size=NARROW)


def test_snapshot_browse_empty_wiki(empty_root: Path, snap_compare) -> None:
    assert snap_compare(build_app(empty_root), run_before=_snap(), terminal_size=NARROW)


async def _open_result(pilot: Pilot, screen: BrowseScreen, memory_id: str, query: str) -> None:
    """Preview `query` (a fresh one: the box is emptied first), then open the result `memory_id` from the list."""
    screen.query_one("#search-input", Input).value = ""
    await search(pilot, screen, query)
    keys = [str(k.value) for k in screen.results.rows]
    assert memory_id in keys, (query, memory_id)
    await pilot.press("down")  # down leaves the search box (where z is a letter) for the results
    screen.results.move_cursor(row=keys.index(memory_id), animate=False)
    await pilot.press("enter")
    await wait_for(pilot, lambda: screen.current == ViewRef("entry", memory_id), what="the result's page")
    await pilot.pause()


async def test_the_page_view_says_when_the_previewed_zone_would_not_see_it(demo_root: Path) -> None:
    """The desk opens every page (it is the owner's). A result only private_self may see, opened from the preview,
    stayed on view when `z` switched the preview to a zone that may not see it, and nothing said so: the page passed
    for something that zone sees. The page panel now says when the zone previewed would not see the page, by the
    engine's zone rule, and follows the zone as it changes."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        panel = screen.query_one("#page-panel")
        for sensitivity, zone in (("do_not_export", "private_self"), ("normal", "trusted_collaborator")):
            mid, title = app.engine.index.query(
                "SELECT memory_id, title FROM records WHERE sensitivity_tier=? AND trust_zone=? AND status='active'"
                " ORDER BY memory_id LIMIT 1",
                (sensitivity, zone),
            )[0]
            entry = app.engine.get(mid)
            await _open_result(pilot, screen, mid, title)
            path = app.engine.page_of(mid)
            assert screen.zone == "private_self" and panel.border_title == path
            notes = {}
            for _ in ZONES:
                await pilot.press("z")
                await pilot.pause()
                notes[screen.zone] = str(panel.border_title)
                assert notes[screen.zone].endswith(path)
            assert screen.zone == "private_self"  # cycled all the way round
            assert screen.current == ViewRef("entry", mid)  # still on view: the tree may open every page
            for previewed in ZONES:
                hidden = not scoring.zone_allows(TrustZone(previewed), entry.trust_zone, entry.sensitivity_tier)
                assert (f"{previewed} would not see this page" in notes[previewed]) is hidden, (title, notes)
            assert any(notes.values())  # each record here is hidden from some zone
        # The note belongs to the preview: closed, the page is the owner's view again; reopened, it is back.
        await pilot.press("Z")
        await pilot.pause()
        assert "paid_public would not see this page" in str(panel.border_title)
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.query_one("#search-panel").display and panel.border_title == path
        await pilot.press("slash")
        await pilot.pause()
        assert "paid_public would not see this page" in str(panel.border_title)


async def test_a_2048_byte_source_ref_leaves_the_page_on_screen_at_80_columns(tmp_path: Path) -> None:
    """An agent's source ref can be 2048 bytes (a URL with its query string). At 80 columns the metadata wrapped it
    whole, took every row of the page panel and the page was not shown at all: it keeps its start and its end."""
    engine = Engine.init(tmp_path / "wiki", now=FIXED_NOW)
    ref = "https://example.com/very/long/path?" + "&".join(f"param{i}=value{i}" for i in range(200))
    ref = ref[:2040] + "#end"
    r = engine.capture(
        "The nightly ETL finishes by 04:00 and writes its report to the shared drive.",
        now=FIXED_NOW,
        actor="agent:x",
        title="Nightly ETL",
        source_ref=ref,
    )
    assert r.ok, r
    memory_id = r.details["memory_id"]
    engine.close()
    app = build_app(tmp_path / "wiki")
    async with app.run_test(size=NARROW) as pilot:
        screen = await open_browse(pilot)
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        assert fact is not None
        tree.move_cursor(fact)
        await pilot.press("enter")
        await wait_for(pilot, lambda: fact.children, what="fact entries")
        tree.select_node(fact.children[0])
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", memory_id), what="entry shown")
        await settle(pilot)
        meta = screen.query_one("#page-meta")
        console = Console(width=76, record=True, file=io.StringIO())
        console.print(meta.content)
        shown = console.export_text().replace("\n", "")
        assert ref[:40] in shown and ref[-24:] in shown  # its start and its end are told
        page = screen.query_one("#page-scroll")
        assert page.region.height >= 5, (meta.region, page.region)
        assert meta.region.height <= 12  # it was 51 rows, the ref wrapped whole


async def test_a_views_list_of_links_is_lines_of_one_paragraph_and_its_links_still_open(demo_root: Path) -> None:
    """Textual's Markdown mounts some four widgets a list item: hot.md's lists of captures and commitments made
    every `h`, back and pane key to Browse hold the desk 120-210 ms at 1,000 records. A view's list with nothing
    nested is one paragraph of "• " lines; a click on one of its links opens the page."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_browse(pilot)
        await wait_for(pilot, lambda: screen.current == ViewRef("view", "hot.md"), what="hot.md")
        await pilot.pause()
        paragraphs = [p for p in screen.markdown.query(MarkdownParagraph) if "• " in str(p.source or "")]
        captures = next(p for p in paragraphs if "Atlas feature flags" in str(p.source))
        assert len(str(captures.source).splitlines()) >= 2  # one widget for the whole list
        lines = [str(strip.text) for strip in captures.render_lines(Region(0, 0, captures.size.width, 5))]
        row = next(i for i, text in enumerate(lines) if "Atlas feature flags" in text)
        await pilot.click(captures, offset=(lines[row].index("Atlas") + 2, row))
        mid = app.engine.index.scalar("SELECT memory_id FROM records WHERE title='Atlas feature flags'")
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", mid), what="the entry clicked")

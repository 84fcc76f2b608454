"""Home/End (and vim's g/G) move the cursor in every list of the desk."""

from __future__ import annotations

import pytest

from memkeeper.tui.screens.browse import BrowseScreen
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.receipts import ReceiptsScreen
from memkeeper.tui.screens.tiers import TiersScreen
from memkeeper.tui.screens.verify import VerifyScreen

from .conftest import open_pane, wait_for
from .snapshot_app import build_app

pytestmark = pytest.mark.anyio

SIZE = (120, 34)


@pytest.mark.parametrize("key, cls, table", [
    ("V", VerifyScreen, "#verify-list"),
    ("T", TiersScreen, "#tier-list"),
    ("C", ConflictsScreen, "#conflict-list"),
    ("R", ReceiptsScreen, "#receipts-table"),
])
async def test_home_and_end_move_the_cursor_in_every_queue(demo, key, cls, table):
    async with demo.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, key, cls)
        if isinstance(pane, ReceiptsScreen):
            await wait_for(pilot, lambda: pane.loads >= 1)
        rows = pane.query_one(table)
        rows.focus()
        await pilot.pause()
        assert rows.row_count > 2
        await pilot.press("end")
        assert rows.cursor_row == rows.row_count - 1
        await pilot.press("home")
        assert rows.cursor_row == 0


async def test_home_and_end_in_the_browse_tree_and_results(demo):
    async with demo.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "B", BrowseScreen)
        tree = pane.tree
        assert pilot.app.focused is tree
        await pilot.press("end")
        assert tree.cursor_line == tree.last_line > 0
        await pilot.press("home")
        assert tree.cursor_line == 0

        runs = pane.search_runs
        await pilot.press("slash", *"billing", "enter")
        await wait_for(pilot, lambda: pane.search_runs > runs)
        results = pane.results
        assert results.row_count > 2
        results.focus()
        await pilot.press("end")
        assert results.cursor_row == results.row_count - 1
        await pilot.press("home")
        assert results.cursor_row == 0


async def test_vim_g_and_home_both_move_to_the_top(demo_root):
    app = build_app(demo_root, keymap="vim")
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        rows = pane.table
        rows.focus()
        await pilot.press("G")
        assert rows.cursor_row == rows.row_count - 1
        await pilot.press("g")
        assert rows.cursor_row == 0
        await pilot.press("end")
        assert rows.cursor_row == rows.row_count - 1
        await pilot.press("home")
        assert rows.cursor_row == 0

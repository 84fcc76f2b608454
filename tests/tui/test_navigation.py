"""Moving around: Home/End (and vim's g/G) in every list; every pane's footer and layout at 80×24 and 160×45."""

from __future__ import annotations

import pytest

from memkeeper.tui.screens.browse import BrowseScreen
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.quiz import QuizScreen
from memkeeper.tui.screens.receipts import ReceiptsScreen
from memkeeper.tui.screens.tiers import TiersScreen
from memkeeper.tui.screens.verify import VerifyScreen
from memkeeper.tui.widgets.footer import DeskFooter, FooterKey

from .conftest import open_pane, wait_for
from .snapshot_app import build_app

pytestmark = pytest.mark.anyio

SIZE = (120, 34)


@pytest.mark.long
async def test_home_and_end_move_the_cursor_in_every_queue(demo):
    async with demo.run_test(size=SIZE) as pilot:
        for key, cls, table in (
            ("V", VerifyScreen, "#verify-list"),
            ("T", TiersScreen, "#tier-list"),
            ("C", ConflictsScreen, "#conflict-list"),
            ("R", ReceiptsScreen, "#receipts-table"),
        ):
            pane = await open_pane(pilot, key, cls)
            if isinstance(pane, ReceiptsScreen):
                await wait_for(pilot, lambda p=pane: p.loads >= 1)
            rows = pane.query_one(table)
            rows.focus()
            await pilot.pause()
            assert rows.row_count > 2, key
            await pilot.press("end")
            assert rows.cursor_row == rows.row_count - 1, key
            await pilot.press("home")
            assert rows.cursor_row == 0, key


async def test_home_and_end_in_the_browse_tree_and_results(demo):
    async with demo.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "B", BrowseScreen)
        tree = pane.index_tree
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


# -- 80×24 and 160×45 --------------------------------------------------------------------------------------------------


PANE_KEYS = {
    "B": BrowseScreen,
    "C": ConflictsScreen,
    "V": VerifyScreen,
    "Q": QuizScreen,
    "T": TiersScreen,
    "R": ReceiptsScreen,
}


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=["80x24", "160x45"])
async def test_every_footer_keeps_whole_keys_and_help(demo, size):
    async with demo.run_test(size=size) as pilot:
        for key, cls in PANE_KEYS.items():
            pane = await open_pane(pilot, key, cls)
            footer = pane.query_one(DeskFooter)
            await wait_for(pilot, lambda f=footer: f.shown_ids and f.query(FooterKey), what="the footer keys")
            await pilot.pause()
            keys = list(footer.query(FooterKey))
            assert "app.help" in footer.shown_ids, key
            assert all(k.region.right <= footer.region.right for k in keys), (key, footer.shown_ids)
            if size[0] >= 160:  # the wide footer drops nothing that is live
                live = {b.id for _, b, enabled, _ in pane.active_bindings.values() if b.show and enabled}
                assert live <= set(footer.shown_ids), key
            assert pane.has_class("-narrow") == (size[0] < 110)
            if key in "VT" and size[0] < 110:  # a narrow pane stacks its list above its detail
                listing = pane.query_one("#verify-left" if key == "V" else "#tier-list")
                detail = pane.query_one("#verify-detail" if key == "V" else "#tier-detail")
                assert detail.region.y >= listing.region.bottom and detail.region.width >= 76, key


async def test_the_footer_is_built_again_only_when_its_keys_change(demo_root):
    """Every key, decision and focus change updates a screen's bindings; the footer built its keys again each time
    (a dozen widgets styled as they mount: a third of the UI thread's time in a quiz sitting). It keeps them while
    what it shows is the same, and shows the new keys when they change."""
    from .conftest import settle

    app = build_app(demo_root)
    async with app.run_test(size=(160, 45)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        footer = pane.query_one(DeskFooter)
        await wait_for(pilot, lambda: footer.query(FooterKey), what="the footer keys")
        before = list(footer.query(FooterKey))
        for _ in range(3):
            pane.refresh_bindings()  # as every decision and many keys do: the keys shown stay the same
            await settle(pilot)
        assert list(footer.query(FooterKey)) == before  # the same widgets: nothing built again
        await pilot.resize_terminal(80, 24)  # narrower: compact, and fewer keys
        await settle(pilot)
        await wait_for(pilot, lambda: footer.compact and footer.query(FooterKey), what="the narrow footer")
        keys = list(footer.query(FooterKey))
        assert not set(keys) & set(before)  # built again
        assert all(k.region.right <= footer.region.right for k in keys) and "app.help" in footer.shown_ids

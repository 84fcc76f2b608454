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

from .conftest import mounted, open_pane, settle, wait_for
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


async def test_a_pane_already_open_shows_at_once(demo_root):
    """Textual holds every frame back for 50 ms on a mode switch, to hide a new screen mounting. A pane opened
    before mounts nothing, and was held back all the same: the desk's own pane keys took 55-65 ms to show
    anything. Back to a pane already opened, frames are written at once; a pane never opened keeps the hold."""
    app = build_app(demo_root)
    async with app.run_test(size=(120, 34)) as pilot:
        await open_pane(pilot, "V", VerifyScreen)
        await open_pane(pilot, "C", ConflictsScreen)
        written: list[object] = []
        display = app._display

        def record(screen, renderable):  # what `_display` writes: a frame held back in a batch is dropped
            if renderable is not None and not app._batch_count:
                written.append(screen)
            return display(screen, renderable)

        app._display = record  # type: ignore[method-assign]
        app.action_switch_pane("verify")  # the pane key's action
        assert not app._batch_count  # nothing held back
        await pilot.pause()
        assert isinstance(app.screen, VerifyScreen) and app.screen in written
        written.clear()
        app.action_switch_pane("tiers")  # never opened: its widgets mount behind the hold, then it shows
        assert app._batch_count
        await wait_for(pilot, lambda: isinstance(app.screen, TiersScreen) and app.screen in written, what="Tiers")


async def test_a_pane_shown_again_is_styled_again_only_after_a_change_outside_it(demo_root):
    """Textual styled every widget of a pane again each time a pane key brought it back, though a class or
    pseudo-class change styles a widget at once, shown or not: Browse, some 230 widgets then, held the switch
    70-130 ms. Only a change outside the pane while it was away (the app's focus, theme, classes) calls for
    it, and still gets it."""
    app = build_app(demo_root)
    async with app.run_test(size=(120, 34)) as pilot:
        browse = await open_pane(pilot, "B", BrowseScreen)
        await wait_for(pilot, lambda: browse.markdown.children, what="the page on view")
        await settle(pilot)
        widgets = len(list(browse.walk_children(with_self=True)))
        await open_pane(pilot, "C", ConflictsScreen)
        styled: list[object] = []
        apply = app.stylesheet.apply

        def count(node, *args, **kwargs):
            if node.screen is browse:
                styled.append(node)
            return apply(node, *args, **kwargs)

        app.stylesheet.apply = count  # type: ignore[method-assign]
        await open_pane(pilot, "B", BrowseScreen)
        assert len(styled) < 10, (len(styled), widgets)  # the few whose focus or hover changed, not the whole pane
        await open_pane(pilot, "C", ConflictsScreen)
        app.app_focus = False  # the terminal lost focus while Browse was away: Textual restyles the pane on show
        await pilot.pause()
        styled.clear()
        app.action_switch_pane("browse")  # (a key press in the test would give the app its focus back)
        await mounted(pilot, BrowseScreen)
        await pilot.pause()
        assert len(styled) >= widgets, (len(styled), widgets)

"""Status and hint lines fit the smallest terminal the desk supports (80x24): no sentence loses its end, which is
often the key to press. A line that is too long at 80 columns says less (a shorter wording, or without its least
useful part); the full text stays for wider terminals."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget

from memkeeper.core import Receipt
from memkeeper.tui.screens.browse import BrowseScreen
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.receipts import ReceiptsScreen
from memkeeper.tui.screens.tiers import TiersScreen
from memkeeper.tui.screens.verify import VerifyScreen
from memkeeper.tui.widgets.indextree import IndexTree
from memkeeper.tui.widgets.status_line import StatusLine, fit_parts

from .conftest import NARROW, WIDE, open_pane, settle, wait_for

pytestmark = pytest.mark.anyio


def shown(widget: Widget) -> str:
    """What a one-line widget was given to show, before the screen crops it to the widget's width."""
    return str(widget.render())


def assert_fits(widget: Widget, what: str = "") -> None:
    text = shown(widget)
    width = widget.content_size.width
    assert width > 0, f"{what or widget} has no width"
    assert cell_len(text) <= width, f"{what or widget} is cut at {width} columns: {text!r}"


async def open_settled(pilot: Pilot, key: str, cls: type) -> object:
    pane = await open_pane(pilot, key, cls)
    if isinstance(pane, TiersScreen):
        await wait_for(pilot, lambda: not pane.table.loading, what="the tier plan")
    if isinstance(pane, ReceiptsScreen):
        await wait_for(pilot, lambda: pane.loads >= 1, what="the receipts")
    await settle(pilot)
    return pane


@pytest.mark.parametrize(
    "key, cls",
    [("C", ConflictsScreen), ("V", VerifyScreen), ("T", TiersScreen), ("R", ReceiptsScreen)],
    ids=["conflicts", "verify", "tiers", "receipts"],
)
async def test_the_pane_hint_fits_at_80_columns(demo, key, cls):
    async with demo.run_test(size=NARROW) as pilot:
        pane = await open_settled(pilot, key, cls)
        assert_fits(pane.status, f"the {cls.__name__} hint")
        # A wide terminal has the room for the whole sentence.
        await pilot.resize_terminal(*WIDE)
        await settle(pilot)
        assert shown(pane.status) == pane.status.plain


async def test_browse_hints_fit_at_80_columns(demo, empty):
    async with demo.run_test(size=NARROW) as pilot:
        pane = await open_settled(pilot, "B", BrowseScreen)
        assert_fits(pane.status, "the Browse hint")
        await pilot.press("slash")  # the search panel opens on its zone strip, which says how to run a query
        await settle(pilot)
        strip = pane.query_one("#zone-strip")
        assert "enter" in shown(strip)
        assert_fits(strip, "the zone strip")
    async with empty.run_test(size=NARROW) as pilot:
        pane = await open_settled(pilot, "B", BrowseScreen)
        tree = pane.query_one(IndexTree)
        hints = [str(node.label) for node in tree.root.children if node.data is None]
        assert hints and "memkeeper capture" in " ".join(hints)
        for hint in hints:
            assert cell_len(hint) <= tree.content_size.width, f"the empty index's hint is cut: {hint!r}"


async def test_what_a_key_says_fits_at_80_columns(demo):
    async with demo.run_test(size=NARROW) as pilot:
        pane = await open_settled(pilot, "V", VerifyScreen)
        await pilot.press("o")  # by source: the list gets a header row per source, which the line explains
        await settle(pilot)
        assert pane.status.plain.startswith("Ordered by source")
        assert "f " in shown(pane.status)  # the key that confirms a whole source is still named
        assert_fits(pane.status, "Verify's order line")

        pane = await open_settled(pilot, "R", ReceiptsScreen)
        sha = pane.selected().sha
        await pilot.press("y")
        await settle(pilot)
        assert sha[:12] in shown(pane.status) and "clipboard" in shown(pane.status)
        assert_fits(pane.status, "Receipts' copy line")


async def test_a_receipt_line_drops_details_before_it_is_cut():
    """A decision's summary is "what · detail · detail": at a narrow width the details go from the end (after the
    undo hint and the receipt hash), and what was dropped only to make room comes back when it fits again."""

    class LineApp(App):
        def compose(self) -> ComposeResult:
            yield StatusLine()

    receipt = Receipt(
        action="tiers_apply",
        status="applied",
        at="2026-11-29T09:00:00Z",
        actor="human:demo",
        receipt_sha256="e7ffae95a490" + "0" * 52,
    )
    summary = "3 → cold · 5 unchanged · moved to review/applied/tier-review-2026-11-29.md"
    app = LineApp()
    async with app.run_test(size=NARROW):
        line = app.query_one(StatusLine)
        line.show_receipt(receipt, summary, "u")
        assert line.plain == f"✓ applied · {summary} · receipt e7ffae95a490 · u undo"
        assert str(fit_parts(line.parts, 78)) == "✓ applied · 3 → cold · 5 unchanged · receipt e7ffae95a490 · u undo"
        assert str(fit_parts(line.parts, 40)) == "✓ applied · 3 → cold · 5 unchanged"
        assert str(fit_parts(line.parts, 200)) == line.plain
        # A refused or rejected decision wrote nothing, its receipt included: no hash for `undo` to look for.
        rejected = Receipt(
            action="resolve_conflict",
            status="reject",
            at="2026-11-29T09:00:00Z",
            actor="human:demo",
            receipt_sha256="3ba4b72087d5" + "0" * 52,
            details={"reason": "not_open"},
        )
        line.show_receipt(rejected, "C1 keep existing", "u")
        assert line.plain == "✗ reject · C1 keep existing · not_open · nothing recorded"

"""The lists' table keeps its cursor row in view when the list itself shrinks under it."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from memkeeper.tui.widgets.queue_table import QueueTable

pytestmark = pytest.mark.anyio


class Shrinking(App[None]):
    """A list over a detail that grows when the last row is chosen, as the Conflicts pane's detail does."""

    CSS = "QueueTable { height: 1fr; } #detail { height: auto; }"

    def compose(self) -> ComposeResult:
        with Vertical():
            yield QueueTable(("n", 10))
            yield Static("one line", id="detail")

    def on_mount(self) -> None:
        table = self.query_one(QueueTable)
        table.rebuild(((str(i), i) for i in range(60)), lambda i: [f"row {i}"])
        table.focus()

    def on_virtual_table_row_highlighted(self, event: QueueTable.RowHighlighted) -> None:
        last = event.row == self.query_one(QueueTable).row_count - 1
        self.query_one("#detail", Static).update("\n".join(["detail"] * (8 if last else 1)))


async def test_end_leaves_the_last_row_in_view_when_the_detail_below_grows():
    app = Shrinking()
    async with app.run_test(size=(60, 24)) as pilot:
        table = app.query_one(QueueTable)
        await pilot.press("end")
        await pilot.pause()
        await pilot.pause()
        assert table.cursor_row == 59
        assert table.max_scroll_y > 0 and table.scroll_y == table.max_scroll_y
        await pilot.press("home")
        await pilot.pause()
        assert table.cursor_row == 0 and table.scroll_y == 0


class Long(App[None]):
    CSS = "QueueTable { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield QueueTable(("n", 12))


async def test_a_queue_of_thousands_draws_only_the_rows_on_screen_and_keeps_the_cursor_by_key():
    """The Conflicts list is rebuilt after every decision: at 3,000 open conflicts a table of every row held the desk
    0.6-0.75 s per decision. Only the rows on screen are drawn; a rebuild keeps the cursor on its key, and a
    withheld row (a decision on its way) leaves the cursor on the row that followed it."""
    app = Long()
    drawn: list[int] = []

    def cells(i: int) -> list[str]:
        drawn.append(i)
        return [f"row {i}"]

    async with app.run_test(size=(40, 20)) as pilot:
        table = app.query_one(QueueTable)
        table.rebuild(((str(i), i) for i in range(20_000)), cells)
        table.focus()
        await pilot.pause()
        assert table.row_count == 20_000 and 0 < len(drawn) <= 40
        await pilot.press("end")
        await pilot.pause()
        assert table.current_key == "19999" and str(table.get_row("19999")[0]) == "row 19999"
        assert table.cached_rows <= 800
        table.select_key("12345")
        table.rebuild(((str(i), i) for i in range(10_000, 20_000)), cells)
        assert table.current_key == "12345"
        table.withhold(["12345"])
        assert table.current_key == "12346" and "12345" not in table.rows
        table.rebuild(((str(i), i) for i in range(10_000, 20_000)), cells)
        assert "12345" not in table.rows and table.current_key == "12346"
        table.release(["12345"])
        table.rebuild(((str(i), i) for i in range(10_000, 20_000)), cells, prefer="12345")
        assert table.current_key == "12345"

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
            yield QueueTable()
            yield Static("one line", id="detail")

    def on_mount(self) -> None:
        table = self.query_one(QueueTable)
        table.add_column("n", key="n")
        for i in range(60):
            table.add_row(f"row {i}", key=str(i))
        table.focus()

    def on_data_table_row_highlighted(self, event: QueueTable.RowHighlighted) -> None:
        last = event.cursor_row == self.query_one(QueueTable).row_count - 1
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

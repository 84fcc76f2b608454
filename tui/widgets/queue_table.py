"""Row-cursor tables: `ListTable` (Home/End move the cursor) and, on it, `QueueTable` for the curation queues:
rebuilt wholesale from (key, cells), cursor kept by key.

Queues are re-read from the engine after every decision and whenever an agent writes from another process. A
rebuild (`clear()` + one `add_row` per item) is cheap at thousands of rows; keeping the cursor by key means the
person's place survives a refresh, and when the selected item left the queue (it was just decided) the cursor stays
at the same position, which is the next item — the lazygit/Anki rhythm of "decide, decide, decide".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.widgets import DataTable
from textual.widgets.data_table import CellDoesNotExist, RowDoesNotExist, RowKey

Cells = Sequence[str | Text]


class ListTable(DataTable):
    """A `DataTable` whose Home/End move the cursor to the first/last row (DataTable's own Home/End scroll sideways,
    which moves nothing in a row list). The bindings share the app's ids, so a keymap that moves "cursor to top"
    (vim's `g`) moves it in every list too."""

    BINDINGS = [
        Binding("home", "cursor_first", "Cursor to top", show=False, id="app.cursor_top"),
        Binding("end", "cursor_last", "Cursor to bottom", show=False, id="app.cursor_bottom"),
    ]

    #: column key -> (weight, min width, max width): these columns share what the others leave, so the table fits
    #: its width and never scrolls sideways (80 columns or 160).
    flex: dict[str, tuple[int, int, int]] = {}

    _refit = False  # rows were added: fit the columns again once the table has measured them

    def on_resize(self) -> None:
        self.fit_columns()
        if self.row_count:
            # A list that shrank under its cursor (the detail below it grew for the row chosen: End on the Conflicts
            # list) left that row just out of view while keys acted on it: scrolled back into view, the cursor
            # unmoved (no highlight is posted for the same row).
            self.call_after_refresh(self.move_cursor, row=self.cursor_row, animate=False, scroll=True)

    def add_row(self, *cells: Any, **kwargs: Any) -> RowKey:
        self._refit = True
        return super().add_row(*cells, **kwargs)

    async def _on_idle(self, event: events.Idle) -> None:
        # DataTable measures the cells of new rows when idle, after the rows are added: a fit made as they were added
        # (what a pane's fill does) saw its fixed columns at their headers' width, so the flexible ones took that
        # room and the others were cut to their headers ("12-0", "captur") until the next resize.
        await super()._on_idle(event)
        if self._refit:
            self._refit = False
            self.fit_columns()

    def fit_columns(self) -> None:
        if not self.flex or not self.columns:
            return
        # The vertical scrollbar's cell is always set aside: rows that arrive later must not push the table sideways.
        width = self.content_region.width - self.styles.scrollbar_size_vertical
        if width <= 0:
            return
        flex = {k: v for k, v in self.flex.items() if k in {c.value for c in self.columns}}
        fixed = sum(c.get_render_width(self) for key, c in self.columns.items() if key.value not in flex)
        free = width - fixed - 2 * self.cell_padding * len(flex)
        widths = flex_widths(flex, free)
        changed = False
        for key, w in widths.items():
            column = self.columns[key]  # type: ignore[index]
            if column.width != w or column.auto_width:
                column.auto_width = False
                column.width = w
                changed = True
        if changed:
            # DataTable has no public way to re-measure after a width change: recompute the virtual size, drop the
            # rendered rows (Textual is pinned to a minor version, see pyproject.toml).
            self._require_update_dimensions = True
            self._clear_caches()
            self.refresh()

    def action_cursor_first(self) -> None:
        if self.row_count:
            self.move_cursor(row=0, animate=False, scroll=True)

    def action_cursor_last(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1, animate=False, scroll=True)


def flex_widths(flex: dict[str, tuple[int, int, int]], free: int) -> dict[str, int]:
    """Share `free` cells among flexible columns (`key: (weight, min, max)`) by weight, each within its bounds; what
    the caps leave over goes to the first column that can take it (the title, by convention)."""
    total = sum(weight for weight, _, _ in flex.values()) or 1
    widths = {k: max(lo, min(hi, free * weight // total)) for k, (weight, lo, hi) in flex.items()}
    spare = free - sum(widths.values())
    for k, (_, _lo, hi) in flex.items():
        if spare <= 0:
            break
        grow = min(spare, hi - widths[k])
        widths[k] += grow
        spare -= grow
    return widths


class QueueTable(ListTable):
    """`ListTable(cursor_type="row")` with `rebuild()` that keeps the cursor by row key."""

    DEFAULT_CSS = """
    QueueTable {
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        background: $surface;
        scrollbar-size-vertical: 1;
    }
    QueueTable:focus {
        border: round $accent;
        border-title-color: $accent;
        border-title-style: bold;
        background-tint: initial;
    }
    QueueTable > .datatable--header {
        color: $text-muted;
        text-style: bold;
        background: $surface;
    }
    """

    def __init__(
        self,
        *columns: tuple[str, int | None],
        id: str | None = None,
        classes: str | None = None,
        flex: dict[str, tuple[int, int, int]] | None = None,
    ) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, id=id, classes=classes)
        self.withheld: set[str] = set()  # rows a decision in flight took out: no rebuild shows them
        if flex:
            self.flex = flex
        for label, width in columns:
            self.add_column(label, width=width, key=label.strip().lower() or f"col{len(self.columns)}")

    @property
    def current_key(self) -> str | None:
        """The key of the row under the cursor, or None when the table is empty."""
        if self.row_count == 0:
            return None
        try:
            return self.coordinate_to_cell_key(Coordinate(self.cursor_row, 0)).row_key.value
        except CellDoesNotExist:  # the cursor can briefly point past the end during a rebuild
            return None

    def rebuild(self, rows: Iterable[tuple[str, Cells]], *, prefer: str | None = None) -> None:
        """Replace every row. The cursor goes to `prefer` if given and present, else stays on the same key, else
        stays at the same position (clamped)."""
        keep = self.current_key
        index = self.cursor_row
        self.clear()
        for key, cells in rows:
            if key not in self.withheld:
                self.add_row(*cells, key=key)
        self.fit_columns()
        if self.row_count == 0:
            return
        target = min(max(index, 0), self.row_count - 1)
        for wanted in (prefer, keep):
            if wanted is None:
                continue
            try:
                target = self.get_row_index(wanted)
                break
            except RowDoesNotExist:
                continue
        self.move_cursor(row=target, animate=False, scroll=True)

    def withhold(self, keys: Iterable[str]) -> None:
        """Take rows out now (a decision on them is being written); the cursor stays at the same position, on the
        row that followed, clamped to the end. Rebuilds leave them out until `release`."""
        index = self.cursor_row
        for key in keys:
            self.withheld.add(key)
            try:
                self.remove_row(key)
            except RowDoesNotExist:
                continue
        if self.row_count:
            self.move_cursor(row=min(max(index, 0), self.row_count - 1), animate=False, scroll=True)

    def release(self, keys: Iterable[str]) -> None:
        self.withheld.difference_update(keys)

    def select_key(self, key: str) -> bool:
        try:
            self.move_cursor(row=self.get_row_index(key), animate=False, scroll=True)
        except RowDoesNotExist:
            return False
        return True

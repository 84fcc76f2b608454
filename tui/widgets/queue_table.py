"""Row-cursor tables: `ListTable` (a `DataTable` whose Home/End move the cursor) for short lists, and `QueueTable`
for the curation queues: a `VirtualTable` rebuilt wholesale from (key, item) pairs, the cursor kept by key.

Queues are re-read from the engine after every decision and whenever an agent writes from another process. A
rebuild swaps the list and draws the rows on screen, so it costs the same at thousands of rows; keeping the cursor by
key means the person's place survives a refresh, and when the selected item left the queue (it was just decided) the
cursor stays at the same position, which is the next item — the lazygit/Anki rhythm of "decide, decide, decide".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from textual import events
from textual.binding import Binding
from textual.widgets import DataTable
from textual.widgets.data_table import RowKey

from .virtual_table import Cells, VirtualTable, flex_widths


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


class ListSource:
    """A `QueueTable`'s rows: (key, item) pairs held in memory, drawn by `cells(item)` only when on screen."""

    def __init__(self, items: list[tuple[str, Any]], cells: Callable[[Any], Cells]) -> None:
        self.items = items
        self.draw = cells
        self._where: dict[str, int] | None = None

    def count(self) -> int:
        return len(self.items)

    def rows(self, start: int, stop: int) -> list[tuple[str, Any]]:
        return self.items[start:stop]

    def cells(self, key: str, item: Any) -> Cells:
        return self.draw(item)

    def index_of(self, key: str) -> int | None:
        if self._where is None:
            self._where = {k: i for i, (k, _) in enumerate(self.items)}
        return self._where.get(key)


class QueueTable(VirtualTable):
    """A curation queue's list: rebuilt wholesale from (key, item) pairs after every read, the cursor kept by key;
    rows a decision in flight took out stay out (`withhold`) until `release`. Only the rows on screen are drawn, so
    a queue of thousands costs a decision what one screen does."""

    def __init__(
        self,
        *columns: tuple[str, int],
        id: str | None = None,
        classes: str | None = None,
        flex: dict[str, tuple[int, int, int]] | None = None,
    ) -> None:
        super().__init__(*columns, id=id, classes=classes, flex=flex)
        self.withheld: set[str] = set()  # rows a decision in flight took out: no rebuild shows them
        self._labels: dict[str, str] = {}

    @property
    def rows(self) -> dict[str, Any]:
        """The rows listed, key -> item, in order."""
        items = self.source.items if isinstance(self.source, ListSource) else []
        return dict(items)

    def get_row(self, key: str) -> Cells:
        """The cells drawn for a key's row (empty when it is not listed)."""
        index = self.source.index_of(key)
        return self.cells_at(index) if index is not None else []

    def set_label(self, key: str, label: str) -> None:
        """Another header for a column (the Conflicts list's "Age" reads "Until" over snoozed conflicts)."""
        self.columns = [(label if k == key else old, k, w) for old, k, w in self.columns]
        self.refresh()

    def label_of(self, key: str) -> str:
        return next((label for label, k, _ in self.columns if k == key), "")

    def rebuild(
        self, items: Iterable[tuple[str, Any]], cells: Callable[[Any], Cells], *, prefer: str | None = None
    ) -> None:
        """Replace every row. The cursor goes to `prefer` if given and present, else stays on the same key, else
        stays at the same position (clamped)."""
        rows = [(key, item) for key, item in items if key not in self.withheld]
        self.reload(ListSource(rows, cells), prefer=prefer)

    def withhold(self, keys: Iterable[str]) -> None:
        """Take rows out now (a decision on them is being written); the cursor stays at the same position, on the
        row that followed, clamped to the end. Rebuilds leave them out until `release`."""
        self.withheld.update(keys)
        source = self.source
        if isinstance(source, ListSource):
            rows = [(key, item) for key, item in source.items if key not in self.withheld]
            self.reload(ListSource(rows, source.draw), keep=False)

    def release(self, keys: Iterable[str]) -> None:
        self.withheld.difference_update(keys)

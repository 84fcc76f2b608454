"""`VirtualTable`: a row-cursor list that never holds its whole content (the Line API, like toolong's LogLines).

A queue of 30,000 records cannot be a `DataTable`: that keeps every row's cells as Rich objects (hundreds of MB at
100k records) and rebuilds them all after every decision. This widget keeps only a row count and the pages of rows
it has drawn lately; `render_line` draws the header and the visible rows, asking its `RowSource` for the page a row
falls in when it is not cached. The pane's source answers with a cheap indexed query (LIMIT/OFFSET on the index,
plus a count), so scrolling to row 29,000 costs one page, and End jumps there at once.

The cursor is a row position. Panes name rows by key (a memory id, a candidate id, a `§…` header row): `current_key`,
`select_key` (the source says where a key stands, `index_of`, without loading the rows before it) and `reload`
(keep the cursor on the same key, else at the same position: the next item after a decision).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

Cells = Sequence[str | Text]
#: Rows a page holds, and how many pages stay cached (the widget's memory does not grow with the list).
PAGE_SIZE = 100
CACHED_PAGES = 8


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


class RowSource(Protocol):
    """What a `VirtualTable` shows: a count, rows by position (keys and the data to draw them), cells for a row."""

    def count(self) -> int: ...

    def rows(self, start: int, stop: int) -> list[tuple[str, Any]]: ...

    def cells(self, key: str, item: Any) -> Cells: ...

    def index_of(self, key: str) -> int | None: ...


class EmptySource:
    def count(self) -> int:
        return 0

    def rows(self, start: int, stop: int) -> list[tuple[str, Any]]:
        return []

    def cells(self, key: str, item: Any) -> Cells:
        return []

    def index_of(self, key: str) -> int | None:
        return None


class VirtualTable(ScrollView, can_focus=True):
    """A header line and `source.count()` rows, of which only the visible ones are drawn and a few pages cached."""

    BINDINGS: ClassVar = [
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "cursor_first", "Cursor to top", show=False, id="app.cursor_top"),
        Binding("end", "cursor_last", "Cursor to bottom", show=False, id="app.cursor_bottom"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {"virtual-table--header", "virtual-table--cursor"}

    DEFAULT_CSS = """
    VirtualTable {
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        background: $surface;
        color: $foreground;
        scrollbar-size-vertical: 1;
        overflow-x: hidden;
        overflow-y: auto;
    }
    VirtualTable:focus {
        border: round $accent;
        border-title-color: $accent;
        border-title-style: bold;
    }
    VirtualTable > .virtual-table--header {
        color: $text-muted;
        text-style: bold;
        background: $surface;
    }
    VirtualTable > .virtual-table--cursor {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
        text-style: $block-cursor-blurred-text-style;
    }
    VirtualTable:focus > .virtual-table--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    """

    cursor_row: reactive[int] = reactive(0, repaint=False, always_update=True)

    class RowHighlighted(Message):
        """The cursor moved to another row (or the rows under it changed)."""

        def __init__(self, table: VirtualTable, row: int, key: str | None) -> None:
            super().__init__()
            self.table = table
            self.row = row
            self.key = key

        @property
        def control(self) -> VirtualTable:
            return self.table

    def __init__(
        self,
        *columns: tuple[str, int],
        id: str | None = None,
        classes: str | None = None,
        flex: dict[str, tuple[int, int, int]] | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        #: (label, key, width); `flex` columns share what the fixed ones leave: key -> (weight, min, max).
        self.columns: list[tuple[str, str, int]] = []
        self._widths: dict[str, int] = {}
        self.flex = flex or {}
        self._set_columns(columns)
        self.source: RowSource = EmptySource()
        self.row_count = 0
        self._pages: OrderedDict[int, list[tuple[str, Any]]] = OrderedDict()
        #: (top, row) of `open_at`, held until the cursor leaves `row`.
        self._held: tuple[int, int] | None = None

    def _set_columns(self, columns: Sequence[tuple[str, int]]) -> None:
        self.columns = []
        for label, width in columns:
            key = label.strip().lower() or f"col{len(self.columns)}"
            self.columns.append((label, key, width))
        self._widths = {key: width for _, key, width in self.columns}

    def set_columns(self, *columns: tuple[str, int]) -> None:
        """Other columns (a pane that drops one at 80 columns): the source's cells must follow them."""
        self._set_columns(columns)
        self.fit_columns()
        self.refresh()

    # ------------------------------------------------------------------------------------------------ data

    def reload(
        self, source: RowSource | None = None, *, prefer: str | None = None, keep: bool = True, new_list: bool = False
    ) -> None:
        """Read the count again and forget the cached pages (the rows are re-read as they are drawn). The cursor goes
        to `prefer` if the source has it, else stays on the same key (`keep`), else at the same position; for
        `new_list` (another filter: a position in the old list means nothing in it) at the top."""
        old_key = self.current_key if keep else None
        index = 0 if new_list else self.cursor_row
        if source is not None:
            self.source = source
        self._pages.clear()
        self._held = None
        self.row_count = max(0, self.source.count())
        self.virtual_size = Size(self.content_region.width or 1, self.row_count + 1)
        target = min(max(index, 0), max(self.row_count - 1, 0))
        for key in (prefer, old_key):
            if key is None:
                continue
            found = self.source.index_of(key)
            if found is not None and 0 <= found < self.row_count:
                target = found
                break
        self.move_cursor(target, force=True)
        self.refresh()

    def forget(self) -> None:
        """Redraw from the source (a mark changed): the cached pages stay, the cells are drawn again."""
        self.refresh()

    def item_at(self, row: int) -> tuple[str, Any] | None:
        """The (key, item) at a row position, loading its page when needed; None past the end."""
        if not 0 <= row < self.row_count:
            return None
        page_no = row // PAGE_SIZE
        page = self._pages.get(page_no)
        if page is None:
            start = page_no * PAGE_SIZE
            page = self.source.rows(start, min(self.row_count, start + PAGE_SIZE))
            self._pages[page_no] = page
            while len(self._pages) > CACHED_PAGES:
                self._pages.popitem(last=False)
        else:
            self._pages.move_to_end(page_no)
        offset = row - page_no * PAGE_SIZE
        return page[offset] if offset < len(page) else None

    @property
    def current_key(self) -> str | None:
        """The key of the row under the cursor, or None when the list is empty."""
        item = self.item_at(self.cursor_row)
        return item[0] if item else None

    @property
    def current_item(self) -> Any:
        item = self.item_at(self.cursor_row)
        return item[1] if item else None

    def cells_at(self, row: int) -> Cells:
        """The cells drawn for a row position (empty past the end)."""
        item = self.item_at(row)
        return self.source.cells(*item) if item else []

    @property
    def cached_rows(self) -> int:
        """Rows held in memory now (at most CACHED_PAGES × PAGE_SIZE, whatever the list's length)."""
        return sum(len(p) for p in self._pages.values())

    def select_key(self, key: str) -> bool:
        row = self.source.index_of(key)
        if row is None or not 0 <= row < self.row_count:
            return False
        self.move_cursor(row)
        return True

    # ------------------------------------------------------------------------------------------------ cursor

    def move_cursor(self, row: int, *, force: bool = False) -> None:
        row = min(max(row, 0), max(self.row_count - 1, 0))
        if row != self.cursor_row or force:
            self.cursor_row = row
        self.scroll_to_cursor()

    def open_at(self, row: int, top: int) -> None:
        """Put the cursor on `row`; when `row` is not in the first view, scroll so that `top` is the first line.
        Held until the cursor moves: the layout around a list that has just appeared can still change its height
        (a summary or a detail pane shown after it), and each resize places it again against the height it ends
        with. Placed once, a view taller on the first pass than on the last left the cursor on its last line."""
        self.move_cursor(row)
        self._held = (top, self.cursor_row)
        self._place_held()

    def _place_held(self) -> None:
        if self._held is None:
            return
        top, row = self._held
        if self.cursor_row != row:
            self._held = None
            return
        visible = max(1, self.scrollable_content_region.height - 1)  # a line is the column header
        self.scroll_to(y=top if row >= visible else 0, animate=False, immediate=True)

    def watch_cursor_row(self, old: int, new: int) -> None:
        self.refresh()
        self.post_message(self.RowHighlighted(self, new, self.current_key))

    def scroll_to_cursor(self) -> None:
        visible = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True)
        elif self.cursor_row >= top + visible:
            self.scroll_to(y=self.cursor_row - visible + 1, animate=False, immediate=True)

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor_row + 1)

    def action_page_up(self) -> None:
        self.move_cursor(self.cursor_row - max(1, self.scrollable_content_region.height - 2))

    def action_page_down(self) -> None:
        self.move_cursor(self.cursor_row + max(1, self.scrollable_content_region.height - 2))

    def action_cursor_first(self) -> None:
        self.move_cursor(0)

    def action_cursor_last(self) -> None:
        self.move_cursor(self.row_count - 1)

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            self.move_cursor(round(self.scroll_y) + event.y - 1)

    # ------------------------------------------------------------------------------------------------ drawing

    def on_resize(self, event: events.Resize) -> None:
        self.fit_columns()
        self.virtual_size = Size(self.content_region.width or 1, self.row_count + 1)
        self.scroll_to_cursor()
        self._place_held()

    def fit_columns(self) -> None:
        # The scrollbar's cell is always set aside, so the columns do not move when the list outgrows the view.
        width = self.content_region.width - self.styles.scrollbar_size_vertical
        if width <= 0 or not self.flex:
            return
        flex = {k: v for k, v in self.flex.items() if k in self._widths}
        fixed = sum(w + 2 for _, key, w in self.columns if key not in flex)
        free = width - fixed - 2 * len(flex)
        widths = flex_widths(flex, free)
        if any(self._widths[k] != w for k, w in widths.items()):
            self._widths.update(widths)
            self.refresh()

    def _line(self, cells: Cells, style: Style, width: int, row: int) -> Strip:
        segments: list[Segment] = []
        console = self.app.console
        for column, ((_, key, _), cell) in enumerate(zip(self.columns, cells, strict=False)):
            w = self._widths[key]
            text = cell.copy() if isinstance(cell, Text) else Text(str(cell).replace("\n", " "))
            justify = text.justify if text.justify in ("left", "center", "right") else "left"
            text.align(justify, w)  # cut (an ellipsis where the cell asks for one), then padded
            text.pad_left(1)
            text.pad_right(1)
            # `Text.render` draws the spans only: the text's own style goes under them here.
            # Each cell keeps segments of its own (its place as meta), as DataTable's do.
            segments += Segment.apply_style(
                text.render(console),
                console.get_style(text.style) if text.style else None,
                Style.from_meta({"row": row, "column": column}),
            )
        return Strip(segments).crop_extend(0, width, None).apply_style(style)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        if y == 0:
            header = self.get_component_rich_style("virtual-table--header")
            return self._line([Text(label, no_wrap=True) for label, _, _ in self.columns], base + header, width, -1)
        row = round(self.scroll_y) + y - 1
        item = self.item_at(row)
        if item is None:
            return Strip.blank(width, base)
        style = base
        if row == self.cursor_row:
            style = base + self.get_component_rich_style("virtual-table--cursor")
        return self._line(self.source.cells(*item), style, width, row)

"""Browse pane (SPEC §6): hot.md first; the index tree (categories → entries); the selected page rendered with its
metadata; `/` runs a retrieval preview (nothing is written) and `z` switches the trust zone being previewed, showing
for every zone how many results it gets and how many matches it hid. The desk is the owner's, so the tree and the
results open every page; while a preview is open, the page panel says when the zone previewed would not see the entry
on view (the engine's zone rule), so a page that zone may not read never passes for one of its results."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Literal

from markdown_it import MarkdownIt
from rich.text import Text
from textual import events, on, work
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.timer import Timer
from textual.widgets import DataTable, Input, Markdown, Static, Tree
from textual.widgets.data_table import CellDoesNotExist
from textual.worker import Worker, WorkerState

from memkeeper.core import BadInput, Entry, Receipt
from memkeeper.core.models import TrustZone, inert_text
from memkeeper.core.scoring import zone_allows

from ..widgets.indextree import IndexTree, NodeRef
from ..widgets.meta import ZONE_STYLES, entry_meta_table
from ..widgets.query_input import QueryInput
from ..widgets.queue_table import ListTable
from ..widgets.wikiread import read_view, resolve_link, split_page
from .base import PaneScreen

ZONES: tuple[str, ...] = tuple(z.value for z in TrustZone)
SEARCH_LIMIT = 50
# Rendering a Markdown document mounts a widget per block and per list item: cap what one view renders so a 20k-row
# index page or a long CONFLICTS.md cannot stall the desk. The file itself is untouched; the view says it was cut.
# Characters first (what is parsed to count blocks), then blocks: at 100k records, 40k characters of CONFLICTS.md
# (113 blocks) held the desk 1-1.5 s when the tree cursor rested on it, and of index/fact.md (430 links) 3.4 s.
MAX_VIEW_CHARS = 40_000
MAX_VIEW_BLOCKS = 40  # top-level blocks and list items
# An entry page is an agent's Markdown, shown as written (its lists keep Textual's list: `flat_lists` is for the
# generated views), so it is cut sooner: a list item mounts some four widgets, and a 5,000-line checklist of 55 KB
# (under the engine's 64 KiB) held the desk 14 s when selected and 53 s until it was quiet; a 60 KB line, wrapped
# whole, 1.5 s. Its first 8,000 characters or 64 widgets' worth of blocks are shown, and a line says that the page
# continues and which key opens it whole in the editor.
MAX_ENTRY_CHARS = 8_000
MAX_ENTRY_WIDGETS = 64  # a top-level block counts one, a list item (at any depth) ENTRY_ITEM_WIDGETS
ENTRY_ITEM_WIDGETS = 4
LOG_TAIL_ROWS = 200
HIGHLIGHT_DELAY = 0.12  # seconds the tree cursor must rest on a node before its page renders


@dataclass(frozen=True)
class ViewRef:
    kind: Literal["view", "entry"]
    value: str  # wiki-relative path (view) or memory id (entry)


HOT = ViewRef("view", "hot.md")


def clip_view(rel: str, text: str) -> str:
    """What a view renders: hot.md whole; log.md its newest rows; any other long view is cut at a line boundary, after
    `MAX_VIEW_CHARS` characters or `MAX_VIEW_BLOCKS` blocks, whichever comes first."""
    if rel == "log.md":
        lines = text.splitlines()
        header = [ln for ln in lines[:6] if not ln.startswith("| 2") and not ln.startswith("| 1")]
        rows = [ln for ln in lines if ln.startswith("| ") and ln not in header]
        if len(rows) > LOG_TAIL_ROWS:
            note = f"_Showing the newest {LOG_TAIL_ROWS} of {len(rows)} rows (the Receipts pane has all of them)._"
            return "\n".join([*header[:1], "", note, "", *header[1:3], *rows[-LOG_TAIL_ROWS:]]) + "\n"
        return text
    if rel == "hot.md":
        return text  # the engine keeps it under 500 words: read first, always whole
    end = _cut(text, MAX_VIEW_CHARS, MAX_VIEW_BLOCKS)
    if end >= len(text):
        return text
    return text[:end].rstrip("\n") + f"\n\n_… {rel} continues ({len(text):,} characters); shortened here._\n"


def clip_entry(text: str, edit_key: str) -> str:
    """What an entry page renders: its body whole when it is at most `MAX_ENTRY_CHARS` characters and
    `MAX_ENTRY_WIDGETS` widgets' worth of blocks; else its start (cut where a block starts, else at a line break,
    else at a space), a code fence left open closed, and a last line saying how much is left and that `edit_key`
    opens the whole page in the editor."""
    end = _cut(text, MAX_ENTRY_CHARS, MAX_ENTRY_WIDGETS, ENTRY_ITEM_WIDGETS)
    left = text[end:]
    if not left.strip():
        return text
    head = text[:end].rstrip()
    fence = _open_fence(head)
    lines = left.strip("\n").count("\n") + 1
    more = f"{len(left):,} more characters" + (f" in {lines:,} more lines" if lines > 1 else "")
    closed = f"{head}\n{fence}" if fence else head
    return f"{closed}\n\n_… the page continues: {more}. {edit_key} opens the whole page in your editor._\n"


def _cut(text: str, max_chars: int, max_blocks: int, item: int = 1) -> int:
    """Where a long text is cut: after at most `max_chars` characters, at the last line break in their second half,
    else at the last space there (a single long line), else at `max_chars`; then sooner, where the block past
    `max_blocks` starts (`_block_budget_line`)."""
    end = len(text)
    if end > max_chars:
        cut = text.rfind("\n", 0, max_chars)
        if cut < max_chars // 2:
            cut = max(cut, text.rfind(" ", max_chars // 2, max_chars))
        end = cut if cut > 0 else max_chars
    line = _block_budget_line(text[:end], max_blocks, item)
    if line is not None:  # markdown-it counts lines split at "\n" only
        end = min(end, sum(len(ln) + 1 for ln in text[:end].split("\n")[:line]))
    return end


_FENCE = re.compile(r"\s*(`{3,}|~{3,})")


def _open_fence(text: str) -> str:
    """The line that closes a code fence `text` leaves open, or "" when it leaves none (a text cut inside a code
    block would show the line after the cut as code)."""
    opened = ""
    for line in text.split("\n"):
        m = _FENCE.match(line)
        if m is None:
            continue
        marker = m.group(1)
        if not opened:
            opened = marker
        elif marker[0] == opened[0] and len(marker) >= len(opened) and not line[m.end() :].strip():
            opened = ""
    return opened


_ITEM = re.compile(r"[-*+] (?=\S)")
FLAT_RUN = 2  # items: a single one keeps Textual's own list


def flat_lists(text: str) -> str:
    """A generated view's runs of FLAT_RUN or more top-level list items with nothing nested under them, as one
    paragraph of lines, each "• " and the item's text. Textual's Markdown mounts some four widgets a list item:
    hot.md at 1,000 records (52 items) was 217 widgets and 0.48 s to show, every time `h`, back or a pane key
    showed it; as paragraphs it is 8 widgets and 0.06-0.08 s. The links stay links; a list with items nested
    under them keeps Textual's list. Never for an entry page: only the views memkeeper writes."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and _ITEM.match(lines[j]):
            j += 1
        nested = j < len(lines) and lines[j][:1] in (" ", "\t") and lines[j].strip() != ""
        if j - i >= FLAT_RUN and not nested:
            items = [f"• {line[2:].rstrip()}" for line in lines[i:j]]
            if out and out[-1].strip() and not out[-1].startswith("#"):
                out.append("")  # a paragraph of its own, not the end of the one before
            out.extend([f"{item}\\" for item in items[:-1]] + [items[-1]])  # a backslash ends a line: a hard break
            if j < len(lines) and lines[j].strip():
                out.append("")
            i = j
        else:
            out.extend(lines[i : max(j, i + 1)])
            i = max(j, i + 1)
    return "\n".join(out)


def _block_budget_line(text: str, budget: int = MAX_VIEW_BLOCKS, item: int = 1) -> int | None:
    """The line where the block past `budget` starts (a top-level block counts one, a list item `item`), or None
    when the text holds no more."""
    blocks = 0
    for token in MarkdownIt("gfm-like").parse(text):
        if token.map is None or token.nesting != 1:
            continue
        if token.type == "list_item_open":
            blocks += item
        elif token.level == 0:
            blocks += 1
        else:
            continue
        if blocks > budget:
            return token.map[0]
    return None


class BrowseScreen(PaneScreen):
    PANE_ID = "browse"
    CURSOR_DECISIONS = frozenset({"edit"})
    PANE_TITLE = "Browse"
    STATUS_HINT = "A search is a retrieval preview: it writes nothing, not even an access time."

    BINDINGS = [
        Binding("slash", "search", "Search", id="browse.search"),
        Binding("z", "zone(1)", "Zone", id="browse.zone"),
        Binding("Z", "zone(-1)", "Zone back", show=False, id="browse.zone_prev"),
        Binding("h", "hot", "hot.md", id="browse.hot"),
        Binding("backspace", "back", "Back", id="browse.back"),
        Binding("escape", "close_search", "Close search", show=False, id="browse.close"),
        Binding("e", "edit", "Edit", id="browse.edit"),
        # Undoes what was decided here: a maintenance run started from the palette (decay, consolidate).
        Binding("u", "undo", "Undo", show=False, id="browse.undo"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.current: ViewRef | None = None
        self.current_path: str = ""
        self.current_entry: Entry | None = None  # the record on view, when the view is an entry page
        self.history: list[ViewRef] = []
        self.zone_index = 0
        self.query_text = ""
        self.previews: dict[str, Receipt] = {}
        self._searching: str | None = None  # the query a preview is running for (the strip says so)
        self._highlight_timer: Timer | None = None
        self._show_seq = 0  # shows begun; a page read that finishes after a later show began is dropped
        self.pages_shown = 0  # shows completed (tests wait on it)
        self._asked: ViewRef | None = None  # the page last asked for: on screen, or being read
        self._revealed: str | None = None  # the entry the tree's cursor is being moved to (`show_entry_in_tree`)
        self.search_runs = 0  # completed searches (tests wait on it)

    # ------------------------------------------------------------------------------------------------ layout

    def compose_body(self):
        # The search panel spans the full width: the zone strip and the score components need the room.
        with Vertical(id="search-panel", classes="panel"):
            yield QueryInput(
                placeholder="search as a trust zone — enter runs a preview (nothing is written)",
                list_id="results",
                id="search-input",
            )
            yield Static(id="zone-strip")
            yield ListTable(id="results", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="browse-body"):
            with Vertical(id="browse-nav", classes="panel"):
                yield IndexTree(self.engine, id="index-tree")
            with Vertical(id="page-panel", classes="panel"):
                yield Static(id="page-meta")
                with VerticalScroll(id="page-scroll"):
                    yield Markdown(id="page", open_links=False)

    @property
    def index_tree(self) -> IndexTree:
        return self.query_one(IndexTree)

    @property
    def markdown(self) -> Markdown:
        return self.query_one("#page", Markdown)

    @property
    def results(self) -> ListTable:
        return self.query_one("#results", ListTable)

    @property
    def zone(self) -> str:
        return ZONES[self.zone_index]

    # A decorated handler rather than an `on_mount` override: PaneScreen.on_mount is synchronous. Textual still runs
    # this one first, then PaneScreen's.
    @on(events.Mount)
    async def _mount_browse(self) -> None:
        self.query_one("#browse-nav").border_title = "Index"
        self.query_one("#search-panel").display = False
        self._add_result_columns()
        self.index_tree.build()
        self.index_tree.focus()
        self.open_page(HOT, remember=False)
        hot = self.index_tree.find(NodeRef("view", "hot.md"))
        if hot is not None:
            self.index_tree.call_after_refresh(self.index_tree.move_cursor, hot)

    # ------------------------------------------------------------------------------------------------ showing pages

    def _read(self, ref: ViewRef, edit_key: str) -> tuple[Entry | None, str, str] | None:
        """What `show` puts on screen for `ref`: (the record or None, its path, the body to render); None when the
        record has left the index. Runs off the UI thread: it reads the page through the engine and clips it."""
        if ref.kind == "entry":
            entry = self.engine.get(ref.value)
            page = self.engine.page_of(ref.value)
            if entry is None or page is None:
                return None
            try:
                _, body = split_page(read_view(self.engine, page))
            except BadInput as exc:
                body = f"*Cannot read {page}: {exc}*"
            else:
                body = clip_entry(body, edit_key)
            return entry, page, inert_text(body)
        try:
            _, body = split_page(read_view(self.engine, ref.value))
            body = flat_lists(clip_view(ref.value, body))
        except BadInput as exc:
            body = f"*{exc}*"
        return None, ref.value, inert_text(body)

    def open_page(self, ref: ViewRef, *, remember: bool = True, keep_scroll: bool = False) -> None:
        """Show `ref` without holding this screen's messages while its page is read: keys, the tree's events and a
        next selection go on being handled, and the last page asked for is the one shown (`show`). What is asked
        for is known at once (`_asked`): the tree's highlight, handled before the worker starts, must not ask again."""
        self._asked = ref
        self.run_worker(
            self.show(ref, remember=remember, keep_scroll=keep_scroll), group="browse-page", exit_on_error=False
        )

    async def show(self, ref: ViewRef, *, remember: bool = True, keep_scroll: bool = False) -> None:
        """Render a generated view or an entry page (frontmatter stripped; entries get the metadata grid). The page
        is read in a thread (a long page is milliseconds of disk and clipping); when another `show` began meanwhile,
        this one gives way to it."""
        self._show_seq += 1
        seq = self._show_seq
        self._asked = ref
        edit_key = self.mk.key_for("browse.edit") or "browse.edit"
        read = await asyncio.to_thread(self._read, ref, edit_key)
        if seq != self._show_seq or not self.is_attached:
            return  # a later show owns the page, or the desk closed while it was read
        if read is None:
            self._asked = self.current
            self.say(f"{ref.value} is no longer in the index.", "yellow")
            return
        entry, path, body = read
        meta = self.query_one("#page-meta", Static)
        scroll = self.query_one("#page-scroll", VerticalScroll)
        y = scroll.scroll_y if keep_scroll else 0
        if entry is not None:
            meta.update(entry_meta_table(entry, narrow=self.has_class("-narrow")))
            meta.display = True
        else:
            meta.display = False
        if remember and self.current is not None and self.current != ref:
            self.history.append(self.current)
            del self.history[:-50]
        self.current = ref
        self.current_path = path
        self.current_entry = entry
        self._render_page_title()
        self.refresh_bindings()  # "back" becomes available once there is history
        # The agent's text as written, less what a terminal would act on (an escape sequence, a bidi override).
        await self.markdown.update(body)
        if keep_scroll:
            scroll.scroll_to(y=y, animate=False)
        else:
            scroll.scroll_home(animate=False)
        self.pages_shown += 1

    def show_entry_in_tree(self, memory_id: str) -> None:
        category = self.engine.category_of(memory_id)
        if category:
            # The cursor goes to the page asked for, maybe once a worker has read its category (a moment later):
            # that highlight shows where the page is and asks for nothing (by then another page may have been asked
            # for, and the late highlight would show this one again over it).
            self._revealed = memory_id
            self.index_tree.reveal_entry(memory_id, category)

    # ------------------------------------------------------------------------------------------------ tree events

    @on(Tree.NodeHighlighted, "#index-tree")
    def _node_highlighted(self, event: Tree.NodeHighlighted[NodeRef]) -> None:
        # Render after the cursor rests: holding ↓ through a long category must not render every page on the way.
        if self._highlight_timer is not None:
            self._highlight_timer.stop()
        ref = self._ref_for(event.node.data)
        if ref is not None and ref.kind == "entry" and ref.value == self._revealed:
            self._revealed = None
            return
        if ref is not None and ref != self._asked:
            self._highlight_timer = self.set_timer(HIGHLIGHT_DELAY, lambda: self._show_later(ref))

    def _show_later(self, ref: ViewRef) -> None:
        if ref != self._asked:
            self.open_page(ref)

    @on(Tree.NodeSelected, "#index-tree")
    def _node_selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        ref = self._ref_for(event.node.data)
        if ref is not None and ref != self._asked:
            if self._highlight_timer is not None:
                self._highlight_timer.stop()
            self.open_page(ref)

    @staticmethod
    def _ref_for(data: NodeRef | None) -> ViewRef | None:
        if data is None:
            return None
        if data.kind == "view":
            return ViewRef("view", data.value)
        if data.kind == "entry":
            return ViewRef("entry", data.value)
        return None

    # ------------------------------------------------------------------------------------------------ links

    def on_markdown_link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        target = resolve_link(self.current_path, event.href)
        if target is None:
            if "://" in event.href:
                self.app.open_url(event.href)
            return
        if target.startswith("entries/"):
            memory_id = self.engine.memory_id_at(target)
            if memory_id is None:
                self.say(f"{target} is not in the index.", "yellow")
                return
            self.open_page(ViewRef("entry", memory_id))
            self.show_entry_in_tree(memory_id)
            return
        self.open_page(ViewRef("view", target))

    # ------------------------------------------------------------------------------------------------ search

    def action_search(self) -> None:
        self.query_one("#search-panel").display = True
        self._render_zone_strip()
        self.query_one("#search-input", Input).focus()
        self.refresh_bindings()

    def action_close_search(self) -> None:
        panel = self.query_one("#search-panel")
        if panel.display:
            panel.display = False
            self._render_page_title()
            self.index_tree.focus()
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close_search":
            return bool(self.query_one("#search-panel").display)
        if action == "back":
            return bool(self.history) or None
        return True

    @on(Input.Submitted, "#search-input")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        # A preview ranks every match for four zones: most of a second for a common word at 100k records.
        self._searching = event.value
        self._render_zone_strip()
        self.run_search(event.value)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "browse-search" and event.state == WorkerState.ERROR and self._searching is not None:
            self._searching = None  # the app's guard reports the failure
            self._render_zone_strip()

    @work(thread=True, exclusive=True, group="browse-search", exit_on_error=False)
    def run_search(self, query: str) -> None:
        """Preview the query for every zone at once (record_access=False: a preview writes nothing)."""
        previews = self.engine.preview_all_zones(query, now=self.now(), limit=SEARCH_LIMIT)
        self.app.call_from_thread(self._show_results, query, previews)

    def _show_results(self, query: str, previews: dict[str, Receipt], keep_row: str | None = None) -> None:
        # Focus stays where it is (in the search box after a query): the person refines and runs again, or goes
        # down to the results.
        self.query_text = query
        self.previews = previews
        self._searching = None
        self.search_runs += 1
        self._render_results(keep_row)

    def action_zone(self, step: int) -> None:
        self.zone_index = (self.zone_index + step) % len(ZONES)
        panel = self.query_one("#search-panel")
        opened = not panel.display
        if opened:
            panel.display = True
            self.refresh_bindings()
        if opened or not self.query_text:
            # A box that shows an empty query takes the typing: left on the tree, the letters of a query would run
            # the pane's one-letter commands ("e" edits the page on view).
            self.query_one("#search-input", QueryInput).focus()
        keep = self._selected_result()
        self._render_results(keep)

    def action_set_zone(self, zone: str) -> None:
        """Click target of the zone strip."""
        if zone in ZONES:
            self.zone_index = ZONES.index(zone)
            self._render_results(self._selected_result())

    def _selected_result(self) -> str | None:
        table = self.results
        if not table.row_count:
            return None
        try:
            return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        except CellDoesNotExist:  # the cursor can briefly point past the end during a rebuild
            return None

    def zone_summary(self) -> dict[str, tuple[int, int, bool]]:
        """zone -> (results, hidden by the zone filter, whether that count is a floor) for the last query."""
        out: dict[str, tuple[int, int, bool]] = {}
        for zone in ZONES:
            r = self.previews.get(zone)
            if r is not None and r.ok:
                out[zone] = (
                    len(r.details.get("results", [])),
                    int(r.details.get("hidden_by_zone", 0)),
                    bool(r.details.get("hidden_by_zone_bounded")),
                )
        return out

    def _render_zone_strip(self) -> None:
        strip = self.query_one("#zone-strip", Static)
        summary = self.zone_summary()
        parts: list[Content] = [Content.styled("zone ", "dim")]
        for i, zone in enumerate(ZONES):
            if i:
                parts.append(Content.styled(" · ", "dim"))
            style = ZONE_STYLES.get(zone, "")
            base = f"bold reverse {style}" if i == self.zone_index else style
            label = zone.split("_")[0] if self.has_class("-narrow") else zone  # all four zones fit in 80 columns
            parts.append(Content.styled(label, f"{base} @click=screen.set_zone('{zone}')".strip()))
            if zone in summary and self._searching is None:
                count, hidden, bounded = summary[zone]
                parts.append(Content(f" {count}{'+' if count >= SEARCH_LIMIT else ''}"))
                if hidden:
                    # The engine counts hidden matches among a bounded number of them: at the bound (it says so),
                    # there may be many more (tens of thousands at 100k records).
                    parts.append(Content.styled(f" ({hidden}{'+' if bounded else ''} hidden)", "dim"))
        first = self.previews.get(ZONES[0])
        if self._searching is not None:
            query = self._searching.strip()
            shown = query if len(query) <= 24 else query[:23] + "…"
            parts.append(Content.styled(f"   searching “{shown}”…", "italic $text-muted"))
        elif first is not None and not first.ok:
            parts.append(Content.styled(f"   {first.details.get('reason', first.status)}", "$text-warning"))
        elif not self.previews:
            # Short enough for the strip with every zone's name, from 80 columns (short names) and from 110 (full).
            zone_key = self.mk.key_for("browse.zone") or "z"
            # (z types into the box: the zone key works from the results, a ↓ away)
            parts.append(Content.styled(f"   enter runs it; ↓ then {zone_key}: zone", "dim"))
        strip.update(Content.assemble(*parts))
        panel = self.query_one("#search-panel")
        panel.border_title = f"Retrieval preview as {self.zone}" + (
            f" — “{self.query_text}”" if self.query_text else ""
        )
        self._render_page_title()

    def _render_page_title(self) -> None:
        """The page panel's title: the path on view, led by a warning while a preview is open and the zone previewed
        would not see the entry (the engine's zone rule, `zone_allows`, which retrieval filters by, applied to the
        record the view read). The desk opens every page; the title keeps one the zone may not read from passing
        for one of its results. First, so that at 80 columns the path is what gets cut. Only a page the zone is
        denied is marked: status and expiry, which keep a record from every zone, are in the metadata below."""
        entry = self.current_entry
        hidden = (
            entry is not None
            and bool(self.query_one("#search-panel").display)
            and not zone_allows(TrustZone(self.zone), entry.trust_zone, entry.sensitivity_tier)
        )
        path = Content(inert_text(self.current_path))
        self.query_one("#page-panel").border_title = (
            Content.assemble(
                Content.styled(f"⚠ {self.zone} would not see this page", "bold $text-warning"), " · ", path
            )
            if hidden
            else path
        )

    def _add_result_columns(self) -> None:
        # The title takes what the score columns leave. At 80 columns the category goes and zones are shortened
        # (private, trusted, outside, paid): the four score components and the zone must stay on screen.
        table = self.results
        table.flex = {"title": (1, 12, 200)}
        narrow = self.has_class("-narrow")
        for name in (
            "score",
            "sem",
            "fresh",
            "reinf",
            "conf",
            "title",
            *(() if narrow else ("category",)),
            "zone",
            "tier",
        ):
            table.add_column(name, key=name)

    def narrow_changed(self, narrow: bool) -> None:
        self.results.clear(columns=True)
        self._add_result_columns()
        self._render_results(self._selected_result())
        if self.current is not None and self.current.kind == "entry":
            self.open_page(self.current, remember=False, keep_scroll=True)

    def _render_results(self, keep_row: str | None = None) -> None:
        self._render_zone_strip()
        table = self.results
        table.clear()
        narrow = self.has_class("-narrow")
        receipt = self.previews.get(self.zone)
        if receipt is None or not receipt.ok:
            return
        rows = []
        keys = []
        for res in receipt.details.get("results", []):
            c = res.get("components", {})
            zone = res.get("zone", "")
            title = Text(inert_text(str(res.get("title", ""))), no_wrap=True, overflow="ellipsis")
            rows.append(
                (
                    f"{res.get('score', 0):.3f}",
                    f"{c.get('semantic', 0):.2f}",
                    f"{c.get('freshness', 0):.2f}",
                    f"{c.get('reinforcement', 0):.2f}",
                    f"{c.get('confidence', 0):.2f}",
                    title,
                    *(() if narrow else (res.get("category", ""),)),
                    Text(zone.split("_")[0] if narrow else zone, style=ZONE_STYLES.get(zone, "")),
                    res.get("tier", ""),
                )
            )
            keys.append(res["memory_id"])
        for row, key in zip(rows, keys, strict=True):
            table.add_row(*row, key=key)
        table.fit_columns()
        if keep_row is not None and keep_row in keys:
            table.move_cursor(row=keys.index(keep_row), animate=False)

    @on(DataTable.RowSelected, "#results")
    def _result_selected(self, event: DataTable.RowSelected) -> None:
        memory_id = str(event.row_key.value)
        self.open_page(ViewRef("entry", memory_id))
        self.show_entry_in_tree(memory_id)

    # ------------------------------------------------------------------------------------------------ navigation

    def action_hot(self) -> None:
        self.open_page(HOT)
        node = self.index_tree.find(NodeRef("view", "hot.md"))
        if node is not None:
            self.index_tree.move_cursor(node)

    def action_edit(self) -> None:
        """Edit the entry page on view. Generated views (hot.md, indexes) are rewritten on every write: not those."""
        if self.current is None or self.current.kind != "entry":
            view = self.current_path or "This view"
            self.say(
                (
                    f"{view} is generated and rewritten on every write: open an entry to edit it.",
                    f"{view} is generated: open an entry to edit it.",
                ),
                "yellow",
            )
            return
        self.edit_page(self.current_path)

    def action_back(self) -> None:
        if self.history:
            self.open_page(self.history.pop(), remember=False)

    # ------------------------------------------------------------------------------------------------ refresh

    def refresh_data(self) -> None:
        """After a sync: rebuild the tree in place (cursor kept), re-render the open page at the same scroll offset,
        and re-run the search so counts and results are current."""
        self.index_tree.refresh_from_index()
        if self.current is not None:
            self.open_page(self.current, remember=False, keep_scroll=True)
        if self.query_text:
            self._refresh_search(self.query_text, self._selected_result())

    @work(thread=True, exclusive=True, group="browse-search", exit_on_error=False)
    def _refresh_search(self, query: str, keep_row: str | None) -> None:
        previews = self.engine.preview_all_zones(query, now=self.now(), limit=SEARCH_LIMIT)
        self.app.call_from_thread(self._show_results, query, previews, keep_row)

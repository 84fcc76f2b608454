"""Verify pane (SPEC §5.2, §6): confirm or deny what agents inferred; undeny from the denied list.

The queue (pending agent-inferred records, or the denied records — `a` switches) beside the selected record's
content, source and provenance (below it on a narrow terminal). Confirming propagates to every live record with the
same text; the count shows in the status line.

At the speed of judgement:
- `space` marks the row under the cursor and moves on; shift+↓/↑ mark as they move; `*` marks every row shown;
  escape clears the marks. Confirm, deny, deny with a reason and undeny act on the marked rows when there are any,
  else on the row under the cursor.
- `o` cycles the order: newest first, by source (a header row per source), highest confidence first.
- `f` confirms every pending record from the selected row's source, after a dialog that shows how many and which.
- `/` filters the queue as you type (title, text, source, actor, category); focus stays in the box after enter.

Several records are confirmed or denied by one engine call (`confirm_many`, `deny_many`) under one receipt, which one
undo reverses; several undenials are one call per record in one worker (`one_by_one`), reversed by one undo too.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from functools import partial
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState

from memkeeper.core import Entry, Receipt
from memkeeper.core.models import inert_text

from ..widgets.fmt import ago
from ..widgets.meta import middle_cut, more_marker
from ..widgets.query_input import QueryInput
from ..widgets.virtual_table import Cells, VirtualTable
from .base import PaneScreen, Summary, one_by_one
from .modals import ConfirmModal, InputModal, TextModal

PENDING, DENIED = "pending", "denied"
ORDERS = ("newest", "source", "confidence")
GROUP = "§"  # row keys of the source header rows start with this (memory ids never do)
MARK = Text("●", style="bold yellow")
#: The most characters of a record's text the detail shows. A 64 KB note agents write (a session's log, a paste)
#: was laid out whole on every cursor move (175-430 ms a key, against ~120 ms); the rest is one key away.
TEXT_SHOWN = 4000


def source_of(entry: Entry) -> str:
    """Where a record came from, for grouping: its source document (the source ref without its #anchor), else the
    actor that wrote it. (The engine groups and counts by the same rule: `verification.SOURCE_SQL`.)"""
    if entry.source_ref:
        return entry.source_ref.split("#", 1)[0] or entry.source_ref
    return entry.actor or "(unknown source)"


def short_source(source: str) -> str:
    """A source as the list column shows it: a document's file name (its folder is in the detail and the group
    header), an actor as it is."""
    return source.rstrip("/").rsplit("/", 1)[-1] if "/" in source else source


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class QueueSource:
    """The Verify list as the `VirtualTable` reads it: one of the engine's two verification lists, in an order,
    a page at a time. Ordered by source, a header row leads each source's records: the headers' places come from the
    engine's per-source counts (`verify_sources`), the records between them from the same paged query.

    Unfiltered, every query is an indexed one (a count, LIMIT/OFFSET pages, a position: a few ms at 100k records)
    and runs on the UI thread. A filter has to read every record's text, so a filtered source is built in a worker
    (`VerifyScreen._filter_worker`): it asks the engine for the matching ids once, in order, and its pages are
    primary-key lookups of a slice of them."""

    def __init__(
        self, pane: VerifyScreen, mode: str, order: str, needle: str | None, *, filtered: bool = False
    ) -> None:
        self.pane = pane
        self.engine = engine = pane.engine
        self.mode, self.order, self.needle = mode, order, needle
        self.ids: list[str] | None = engine.verify_ids(mode, order=order, needle=needle) if filtered else None
        self._where: dict[str, int] | None = None
        self.groups: list[tuple[str, int]] = engine.verify_sources(mode, needle=needle) if order == "source" else []
        # starts[g] = the row of group g's header
        self.starts: list[int] = []
        row = 0
        for _, n in self.groups:
            self.starts.append(row)
            row += n + 1
        if order == "source":
            self.total = row
        else:
            self.total = len(self.ids) if self.ids is not None else engine.verify_count(mode, needle=needle)
        self.records = self.total - len(self.groups)

    def count(self) -> int:
        return self.total

    def _page(self, offset: int, limit: int) -> list[Entry]:
        if self.ids is not None:
            return self.engine.verify_entries(self.ids[offset : offset + limit])
        return self.engine.verify_page(self.mode, order=self.order, offset=offset, limit=limit)

    def _position(self, key: str) -> int | None:
        if self.ids is None:
            return self.engine.verify_position(self.mode, key, order=self.order)
        if self._where is None:
            self._where = {m: i for i, m in enumerate(self.ids)}
        return self._where.get(key)

    def rows(self, start: int, stop: int) -> list[tuple[str, Any]]:
        if not self.groups:
            return [(e.memory_id, e) for e in self._page(start, stop - start)]
        # Rows start..stop hold some headers and a run of records; fetch the run in one query.
        g = bisect.bisect_right(self.starts, start) - 1
        first = start - (g + 1) + (1 if start == self.starts[g] else 0)  # records before `start`
        out: list[tuple[str, Any]] = []
        entries = iter(self._page(max(first, 0), stop - start))
        for row in range(start, stop):
            while g + 1 < len(self.starts) and row >= self.starts[g + 1]:
                g += 1
            if row == self.starts[g]:
                src, n = self.groups[g]
                out.append((f"{GROUP}{src}", (src, n)))
                continue
            e = next(entries, None)
            if e is None:
                break
            out.append((e.memory_id, e))
        return out

    def cells(self, key: str, item: Any) -> Cells:
        if isinstance(item, Entry):
            return self.pane.row_cells(item)
        src, n = item
        return [
            "",
            Text(inert_text(src), style="bold", no_wrap=True, overflow="ellipsis"),
            Text(_plural(n, "record"), style="dim"),
        ]

    def index_of(self, key: str) -> int | None:
        if key.startswith(GROUP):
            src = key[len(GROUP) :]
            for (s, _), row in zip(self.groups, self.starts, strict=True):
                if s == src:
                    return row
            return None
        pos = self._position(key)
        if pos is None or not self.groups:
            return pos
        # The record's group: the first whose records end after `pos`.
        seen = 0
        for g, (_, n) in enumerate(self.groups):
            if pos < seen + n:
                return self.starts[g] + 1 + (pos - seen)
            seen += n
        return None

    def source_count(self, source: str) -> int | None:
        return next((n for s, n in self.groups if s == source), None)


class VerifyScreen(PaneScreen):
    PANE_ID = "verify"
    CURSOR_DECISIONS = frozenset({"confirm", "deny", "deny_reason", "undeny", "edit"})
    # Dimmed in the footer while the list shows nothing, yet pressed they say so.
    ANSWERING = CURSOR_DECISIONS | {"confirm_source"}
    PANE_TITLE = "Verify"
    AUTO_FOCUS = "#verify-list"
    STATUS_HINT = (
        "Confirm stamps the record verified and propagates to every live record with the same text; "
        "deny suppresses its source+text.",
        "Confirm verifies it and same-text records; deny suppresses its source+text.",
    )

    # In the order the footer keeps them when the terminal is narrow.
    BINDINGS = [
        Binding("c", "confirm", "Confirm", id="verify.confirm"),
        Binding("d", "deny", "Deny", id="verify.deny"),
        Binding("space", "mark", "Mark", id="verify.mark"),
        Binding("f", "confirm_source", "Confirm source…", id="verify.confirm_source"),
        Binding("slash", "filter", "Filter", id="verify.filter"),
        Binding("o", "order", "Order", id="verify.order"),
        Binding("u", "undo", "Undo", id="verify.undo"),
        Binding("D", "deny_reason", "Deny with reason…", id="verify.deny_reason"),
        Binding("n", "undeny", "Undeny", id="verify.undeny"),
        Binding("a", "toggle_denied", "Pending/denied", id="verify.toggle_denied"),
        Binding("e", "edit", "Edit", id="verify.edit"),
        # Not in the footer: a text cut short in the detail says which key shows it whole.
        Binding("v", "whole", "Whole text", show=False, id="verify.whole"),
        Binding("shift+down", "mark_move(1)", "Mark ↓", show=False, id="verify.mark_down"),
        Binding("shift+up", "mark_move(-1)", "Mark ↑", show=False, id="verify.mark_up"),
        Binding("asterisk", "mark_all", "Mark all shown", show=False, id="verify.mark_all"),
        Binding("escape", "clear", "Clear filter/marks", show=False, id="verify.clear"),
    ]

    DEFAULT_CSS = """
    VerifyScreen #verify-body { height: 1fr; }
    VerifyScreen #verify-left { width: 1fr; height: 1fr; }
    VerifyScreen #verify-filter { height: 1; border: none; padding: 0 1; background: $boost; }
    VerifyScreen #verify-detail {
        width: 56;
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    VerifyScreen.-narrow #verify-body { layout: vertical; }
    VerifyScreen.-narrow #verify-detail { width: 1fr; height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.mode = PENDING
        self.order = ORDERS[0]
        self.filter_text = ""
        self.marked: set[str] = set()  # memory ids: marks survive scrolling, and rows that were never drawn
        self._gone_note = ""  # what the last `targets` left out, for the decision's line
        self.total = 0  # the whole list (no filter), from a count query
        self.source: QueueSource | None = None
        self._last_key: dict[str, str | None] = {PENDING: None, DENIED: None}
        #: The filtered list the box asks for (mode, order, needle, the key to select), and whether a scan runs.
        self._filter_wanted: tuple[str, str, str, str | None] | None = None
        self._filtering = False

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="verify-body"):
            with Vertical(id="verify-left"):
                yield QueryInput(
                    placeholder="filter: title, text, source, actor, category — esc clears",
                    list_id="verify-list",
                    id="verify-filter",
                )
                yield VirtualTable(
                    ("", 1),
                    ("Title", 30),
                    ("Source", 20),
                    ("Conf", 4),
                    ("Age", 4),
                    id="verify-list",
                    flex={"title": (3, 16, 60), "source": (2, 10, 32)},
                )
            with VerticalScroll(id="verify-detail"):
                yield Static(id="verify-record")
        yield Static(id="verify-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.query_one("#verify-filter").display = False
        self.refresh_data()

    # ------------------------------------------------------------------------------------------------ data

    @property
    def table(self) -> VirtualTable:
        return self.query_one("#verify-list", VirtualTable)

    @property
    def needle(self) -> str | None:
        return self.filter_text.lower() or None

    def row_cells(self, e: Entry) -> list[str | Text]:
        conf_style = "green" if e.confidence >= 0.8 else ("yellow" if e.confidence >= 0.6 else "red")
        title = Text(inert_text(e.title), no_wrap=True, overflow="ellipsis")
        if e.expires_at is not None and e.expires_at <= self.now():
            # a temporary fact past its expiry (decay has not archived it yet): retrieval and the quiz leave it out
            title = Text.assemble(("expired ", "red"), inert_text(e.title), no_wrap=True, overflow="ellipsis")
        return [
            MARK if e.memory_id in self.marked else "",
            title,
            Text(inert_text(short_source(source_of(e))), style="dim", no_wrap=True, overflow="ellipsis"),
            Text(f"{e.confidence:.2f}", style=conf_style),
            ago(e.created_at, self.now()),
        ]

    def refresh_data(self, prefer: str | None = None) -> None:
        """Re-count the list and redraw what is visible (a page or two of cheap indexed queries on the UI thread:
        counts and LIMIT/OFFSET pages, never the whole list). Marks keep only the records still listed."""
        self.total = self.engine.verify_count(self.mode)
        if self.marked:
            self.marked = set(self.engine.verify_ids(self.mode, only=sorted(self.marked)))
        self._show_rows(prefer)

    def _show_rows(self, prefer: str | None = None) -> None:
        if self.needle:
            self._filter_wanted = (self.mode, self.order, self.needle, prefer)
            if not self._filtering:
                self._filtering = True
                self._filter_worker(self._filter_wanted)
            self._show_titles()  # "filtering …" until the matches are in
            return
        self._filter_wanted = None  # a scan still running is dropped when it ends
        self._install(QueueSource(self, self.mode, self.order, None), prefer)

    @work(thread=True, group="verify-filter", exit_on_error=False)
    def _filter_worker(self, wanted: tuple[str, str, str, str | None]) -> None:
        """A filtered list reads every record's text (~250 ms at 100k records): built here, one scan at a time. A
        thread cannot be stopped, so a scan per key would leave the earlier ones running beside it to their end;
        keys typed meanwhile only change what the next scan reads (`_filter_done`)."""
        mode, order, needle, _prefer = wanted
        source = QueueSource(self, mode, order, needle, filtered=True)
        self.app.call_from_thread(self._filter_done, wanted, source)

    def _filter_done(self, wanted: tuple[str, str, str, str | None], source: QueueSource) -> None:
        latest = self._filter_wanted
        if latest is not None and latest[:3] != wanted[:3]:
            self._filter_worker(latest)  # the box changed while this scan ran: read what it holds now
            return
        self._filtering = False
        if latest is not None:
            self._install(source, latest[3])

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "verify-filter" and event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            self._filtering = False  # the failure is reported by the app's guard; the next key scans again

    def _install(self, source: QueueSource, prefer: str | None = None) -> None:
        if (source.mode, source.order, source.needle) != (self.mode, self.order, self.needle):
            return  # the person changed the list meanwhile; a newer source is on its way
        new_list = self.source is not None and self.source.needle != source.needle
        self.source = source
        self.table.reload(source, prefer=prefer, new_list=new_list)
        self._show_titles()
        empty = not self.total
        self.query_one("#verify-body").display = not empty
        self.query_one("#verify-empty").display = empty
        if not empty:
            self.focus_list_again(self.table)
        if empty:
            self.query_one("#verify-empty", Static).update(
                Text.assemble(
                    ("Nothing to verify\n\n" if self.mode == PENDING else "No denied records\n\n", "bold"),
                    (
                        "Agent-inferred records wait here until a person confirms or denies them.\n"
                        if self.mode == PENDING
                        else "Denied records are kept (status: denied) and can be undenied here.\n",
                        "dim",
                    ),
                    ("a: show denied records" if self.mode == PENDING else "a: back to pending", "dim"),
                )
            )
        self._show_detail()
        self.refresh_bindings()

    @property
    def shown_count(self) -> int:
        """Records the list shows (filtered), headers not counted."""
        return self.source.records if self.source else 0

    def _show_titles(self) -> None:
        total = self.total
        title = f"Pending verification ({total})" if self.mode == PENDING else f"Denied ({total})"
        if self.filter_text and (self.source is None or self.source.needle != self.needle):
            title += f" · filtering “{self.filter_text}”…"
        elif self.filter_text:
            title += f" · {self.shown_count} match “{self.filter_text}”"
        if self.marked:
            title += f" · {len(self.marked)} marked"
        self.table.border_title = title
        other = "denied" if self.mode == PENDING else "pending"
        self.table.border_subtitle = f"{self.order} · o order · a {other}"

    @property
    def current(self) -> Entry | None:
        item = self.table.current_item
        return item if isinstance(item, Entry) else None

    @property
    def current_source(self) -> str | None:
        """The source of the row under the cursor (a record, or a source header row)."""
        key = self.table.current_key
        if key is None:
            return None
        if key.startswith(GROUP):
            return key[len(GROUP) :]
        e = self.current
        return source_of(e) if e is not None else None

    def _show_detail(self) -> None:
        box = self.query_one("#verify-detail")
        key = self.table.current_key
        if key is not None and key.startswith(GROUP):
            self._show_group(key[len(GROUP) :])
            return
        e = self.current
        if e is None:
            self._show_no_record()
            return
        box.border_title = e.memory_id
        box.border_subtitle = ""
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True, min_width=10)
        grid.add_column(overflow="fold")  # only a single token longer than the panel (a long path) is folded
        ref = middle_cut(inert_text(e.source_ref)) if e.source_ref else "(none)"
        grid.add_row("source", Text(ref, style="underline" if e.source_ref else "dim italic"))
        verified = f"verified by {inert_text(e.verified.by)}" if e.verified else "not verified"
        grid.add_row("type", f"{e.source_type.value} · {verified}")
        grid.add_row("actor", inert_text(e.actor or "—"))
        grid.add_row("confidence", f"{e.confidence:.2f} · evidence {e.evidence_grade.value}")
        grid.add_row("category", e.category.value)
        grid.add_row("zone", f"{e.trust_zone.value} · {e.sensitivity_tier.value}")
        grid.add_row("created", f"{e.created_at:%Y-%m-%d %H:%M} ({ago(e.created_at, self.now())} ago)")
        if e.status.value != "active":
            grid.add_row("status", Text(e.status.value, style="bold red"))
        if e.expires_at is not None:
            now = self.now()
            when = f"{e.expires_at:%Y-%m-%d %H:%M}"
            if e.expires_at <= now:
                grid.add_row(
                    "expires",
                    Text(
                        f"{when} · expired {ago(e.expires_at, now)} ago: retrieval and the quiz leave it out, "
                        "and decay archives it",
                        style="bold red",
                    ),
                )
            else:
                grid.add_row("expires", f"{when} (in {ago(now, e.expires_at)})")
        parts: list = [
            Text(inert_text(e.title), style="bold"),
            Text(""),
            *_text_shown(e.content, self._whole_key()),
            Text(""),
            grid,
        ]
        notes = [n for n in e.notes if n.strip()][-3:]
        if notes:
            parts += [Text(""), Text("notes", style="dim")] + [
                Text(f"· {inert_text(n)}", style="italic") for n in notes
            ]
        self.query_one("#verify-record", Static).update(Group(*parts))

    def _show_no_record(self) -> None:
        """No record under the cursor (a filter that matches nothing): the detail says so. It kept the last record
        shown, which read as the one a decision key would act on."""
        box = self.query_one("#verify-detail")
        box.border_title = ""
        box.border_subtitle = ""
        if self.filter_text and self._shown() == 0:
            clear = self.mk.key_for("verify.clear") or "escape"
            text = Text.assemble(
                ("No record selected\n\n", "bold"),
                (f"Nothing matches “{self.filter_text}” ({clear} clears the filter).", "dim"),
            )
        else:
            text = Text("No record selected", style="bold")
        self.query_one("#verify-record", Static).update(text)

    def _whole_key(self) -> str:
        return self.mk.key_for("verify.whole") or "v"

    def action_whole(self) -> None:
        """The record's whole text and source ref in a dialog that scrolls (the detail shows the first
        `TEXT_SHOWN` characters of a long one)."""
        if self._nothing_listed():
            return
        e = self.current
        if e is None:
            self.say("Select a record: a source's row lists its records.", "yellow")
            return
        self.app.push_screen(
            TextModal(
                f"{e.memory_id} · {inert_text(e.title)}",
                Group(
                    Text(inert_text(e.content)),
                    Text(""),
                    Text.assemble(("source ", "dim"), inert_text(e.source_ref or "(none)")),
                ),
            )
        )

    def _show_group(self, source: str) -> None:
        box = self.query_one("#verify-detail")
        count = self.engine.verify_count(self.mode, source=source)
        listed = self.engine.verify_page(self.mode, order=self.order, source=source, limit=12)
        box.border_title = "source"
        box.border_subtitle = ""
        actors = sorted({inert_text(e.actor or "—") for e in listed})
        body = Text()
        body.append(inert_text(source) + "\n\n", style="bold")
        body.append(f"{_plural(count, 'record')} {'pending' if self.mode == PENDING else 'denied'}", style="bold")
        body.append(f" · written by {', '.join(actors)}\n\n", style="dim")
        for e in listed:
            body.append("· ", style="dim")
            body.append(inert_text(e.title) + "\n")
        if count > len(listed):
            body.append(f"… and {count - len(listed)} more\n", style="dim")
        if self.mode == PENDING:
            key = self.mk.key_for("verify.confirm_source") or "f"
            body.append(f"\n{key} confirms all {count} (after a dialog that lists them)", style="dim")
        self.query_one("#verify-record", Static).update(body)

    def on_virtual_table_row_highlighted(self, event: VirtualTable.RowHighlighted) -> None:
        self._show_detail()

    def _shown(self) -> int:
        """How many rows the list shows: 0 before the list is built (Textual may ask which keys apply, and a key may
        arrive, before the pane has composed; asking the table then raised `NoMatches`)."""
        try:
            return self.table.row_count
        except NoMatches:
            return 0

    def applies(self, action: str) -> bool:
        return self._shown() > 0 if action in self.ANSWERING else True

    def _nothing_listed(self) -> bool:
        """The list shows nothing: the status line says so (a decision key pressed on it is dimmed, not broken)."""
        if self._shown() > 0:
            return False
        if self.filter_text and (self.source is None or self.source.needle != self.needle):
            self.say("The filter is still being applied: try again in a moment.", "yellow")
        elif self.filter_text:
            clear = self.mk.key_for("verify.clear") or "escape"
            self.say(
                (f"Nothing matches “{self.filter_text}” ({clear} clears the filter).", "Nothing matches."), "yellow"
            )
        elif self.mode == PENDING:
            self.say("Nothing to verify: no inferred record is waiting.", "yellow")
        else:
            self.say("No denied record to undeny.", "yellow")
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        listed = self._shown() > 0
        if action in ("confirm", "deny", "deny_reason", "confirm_source"):
            return self.mode == PENDING
        if action == "undeny":
            return self.mode == DENIED
        if action in ("mark", "mark_move", "mark_all", "order"):
            return True if listed else None
        if action == "clear":
            return bool(self.marked or self.query_one("#verify-filter").display)
        return True

    # ------------------------------------------------------------------------------------------------ marks

    def _set_marked(self, memory_id: str, on: bool) -> None:
        if on:
            self.marked.add(memory_id)
        else:
            self.marked.discard(memory_id)

    def _after_marks(self) -> None:
        self.table.forget()  # redraw the visible rows with their marks
        self._show_titles()
        self.refresh_bindings()

    def action_mark(self) -> None:
        """Toggle the mark on the row (on a source header: on every record of that source shown) and move on."""
        key = self.table.current_key
        if key is None:
            return
        if key.startswith(GROUP):
            ids = self.engine.verify_ids(self.mode, source=key[len(GROUP) :], needle=self.needle)
            on = not all(m in self.marked for m in ids)
            for mid in ids:
                self._set_marked(mid, on)
        else:
            self._set_marked(key, key not in self.marked)
        self.table.action_cursor_down()
        self._after_marks()

    def action_mark_move(self, step: int) -> None:
        """Mark the row, move, and mark the next one: shift+arrows extend the marked run."""
        key = self.table.current_key
        if key is not None and not key.startswith(GROUP):
            self._set_marked(key, True)
        if step > 0:
            self.table.action_cursor_down()
        else:
            self.table.action_cursor_up()
        key = self.table.current_key
        if key is not None and not key.startswith(GROUP):
            self._set_marked(key, True)
        self._after_marks()

    def action_mark_all(self) -> None:
        """Mark every row shown (with a filter: every match); when they are all marked already, unmark them."""
        source = self.source
        ids = source.ids if source is not None and source.ids is not None else self.engine.verify_ids(self.mode)
        on = not all(m in self.marked for m in ids)
        self.marked = (self.marked | set(ids)) if on else (self.marked - set(ids))
        self._after_marks()

    def action_clear(self) -> None:
        """Escape: close the filter first, then clear the marks."""
        box = self.query_one("#verify-filter", QueryInput)
        if box.display:
            box.value = ""
            box.display = False
            self.filter_text = ""
            self._show_rows()
            self.table.focus()
        elif self.marked:
            self.marked.clear()
            self._after_marks()
        self.refresh_bindings()

    # ------------------------------------------------------------------------------------------------ order, filter

    def action_order(self) -> None:
        self.order = ORDERS[(ORDERS.index(self.order) + 1) % len(ORDERS)]
        self._show_rows()
        if self.order != "source":
            self.say(f"Ordered by {self.order}")
            return
        mark, confirm = self.mk.key_for("verify.mark"), self.mk.key_for("verify.confirm_source")
        self.say(
            (
                f"Ordered by source (a header row per source: {mark} marks it all, {confirm} confirms it all)",
                f"Ordered by source: on a header row, {mark} marks it all, {confirm} confirms it all",
            )
        )

    def action_filter(self) -> None:
        box = self.query_one("#verify-filter", QueryInput)
        box.display = True
        box.focus()
        self.refresh_bindings()

    @on(Input.Changed, "#verify-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value.strip()
        self._show_rows()

    @on(Input.Submitted, "#verify-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()  # the filter is live; enter keeps focus in the box (down goes to the list)

    # ------------------------------------------------------------------------------------------------ decisions

    def targets(self) -> list[str]:
        """What a decision key acts on: the marked records in the list's order, else the record under the cursor.
        Marked records no longer in the list (decided or changed elsewhere since the list was read) are left out,
        and the decision's line says so (`_noted`); when none is left, the line says that and nothing is done."""
        self._gone_note = ""
        if self.marked:
            ids = self.engine.verify_ids(self.mode, order=self.order, only=sorted(self.marked))
            gone = sorted(self.marked - set(ids))
            if gone:
                self.marked = set(ids)
                self._gone_note = " · " + _gone_text(gone, self.mode)
                if not ids:
                    self.say(_gone_text(gone, self.mode), "yellow")
                    self.refresh_data()
            return ids
        e = self.current
        return [e.memory_id] if e is not None else []

    def _noted(self, summary: Summary, note: str | None = None) -> Summary:
        """`summary`, with what `targets` left out said after it (`note`: as the last `targets` left it, when the
        decision is taken later, after a dialog)."""
        note = self._gone_note if note is None else note
        if not note:
            return summary
        if isinstance(summary, str):
            return summary + note
        return lambda r: summary(r) + note

    def _confirm_many(self, ids: list[str], what: str) -> None:
        # One receipt for the batch (same-text records an earlier item stamped are skipped): one undo reverses it.
        self.decide(partial(self.engine.confirm_many, ids, now=self.now(), actor=self.actor), self._noted(what))

    def action_confirm(self) -> None:
        if self._nothing_listed():
            return
        ids = self.targets()
        if self.mode != PENDING or not ids:
            return
        if len(ids) > 1:
            self._confirm_many(ids, f"{_plural(len(ids), 'marked record')}")
            return
        mid = ids[0]

        def summary(receipt: Receipt) -> str:
            propagated = receipt.details.get("propagated_to") or []
            if not receipt.ok:  # the status line gives the engine's reason beside it
                return mid
            text = f"{mid} confirmed"
            if receipt.ok:
                text += f" · propagated to {_plural(len(propagated), 'record')}"
                if propagated:
                    text += f" ({', '.join(propagated[:3])}{' …' if len(propagated) > 3 else ''})"
            return text

        self.decide(partial(self.engine.confirm, mid, now=self.now(), actor=self.actor), self._noted(summary))

    def action_confirm_source(self) -> None:
        """Confirm every pending record from the selected row's source, after a dialog with the count and titles.
        The count is the engine's (a count query), and so are the ids, asked for when the person says yes."""
        if self._nothing_listed():
            return
        source = self.current_source
        if self.mode != PENDING or source is None:
            return
        count = self.engine.verify_count(PENDING, source=source)
        listed = self.engine.verify_page(PENDING, order=self.order, source=source, limit=8)
        listing = Text()
        for e in listed:
            listing.append("  · ", style="dim")
            listing.append(inert_text(e.title) + "\n")
        if count > len(listed):
            listing.append(f"  … and {count - len(listed)} more\n", style="dim")
        hidden = count - self.engine.verify_count(PENDING, source=source, needle=self.needle) if self.needle else 0
        note = Text.assemble(
            (f"{hidden} of them are hidden by the filter.\n" if hidden else "", "yellow"),
            ("Each is stamped verified by you and propagates to same-text records; one undo reverses them all.", "dim"),
        )

        def done(confirmed: bool | None) -> None:
            if confirmed:
                ids = self.engine.verify_ids(PENDING, order=self.order, source=source)
                self._gone_note = ""  # (not the marks: every pending record from the source)
                self._confirm_many(ids, f"{_plural(len(ids), 'record')} from {source}")

        self.app.push_screen(
            ConfirmModal(
                f"Confirm all {count} from {inert_text(source)}?",
                Group(listing, note),
                confirm_label=f"Confirm {count}",
            ),
            done,
        )

    def _deny(self, ids: list[str], reason: str | None, note: str | None = None) -> None:
        now, actor = self.now(), self.actor
        why = f" ({reason})" if reason else ""
        if len(ids) == 1:
            self.decide(
                partial(self.engine.deny, ids[0], now=now, actor=actor, reason=reason, pending_only=True),
                self._noted(
                    lambda r: f"{ids[0]} denied{why} · same source+text will be suppressed" if r.ok else ids[0], note
                ),
            )
        else:
            what = _plural(len(ids), "marked record")
            self.decide(
                partial(self.engine.deny_many, ids, now=now, actor=actor, reason=reason, pending_only=True),
                self._noted(
                    lambda r: f"{what} denied{why} · same source+text will be suppressed" if r.ok else what, note
                ),
            )

    def action_deny(self) -> None:
        if self._nothing_listed():
            return
        ids = self.targets()
        if ids and self.mode == PENDING:
            self._deny(ids, None)

    def action_deny_reason(self) -> None:
        if self._nothing_listed():
            return
        ids = self.targets()
        if not ids or self.mode != PENDING:
            return
        one = self.engine.get(ids[0]) if len(ids) == 1 else None
        what = inert_text(one.title) if one is not None else f"{_plural(len(ids), 'marked record')}"
        note = self._gone_note

        def done(reason: str | None) -> None:
            if reason:
                self._deny(ids, reason, note)

        self.app.push_screen(
            InputModal(
                f"Deny {ids[0] if len(ids) == 1 else what} with a reason",
                Text(what, style="bold"),
                placeholder="why is this wrong?",
            ),
            done,
        )

    def action_undeny(self) -> None:
        if self._nothing_listed():
            return
        ids = self.targets()
        if not ids or self.mode != DENIED:
            return
        now, actor = self.now(), self.actor
        if len(ids) > 1:
            self.decide(
                partial(one_by_one, self.engine.undeny, ids, now=now, actor=actor),
                self._noted(f"{_plural(len(ids), 'marked record')} undenied"),
            )
            return
        mid = ids[0]
        self.decide(
            partial(self.engine.undeny, mid, now=now, actor=actor),
            self._noted(lambda r: _undenied_text(mid, r) if r.ok else mid),
        )

    def action_edit(self) -> None:
        if self._nothing_listed():
            return
        e = self.current
        self.edit_page(self.engine.page_of(e.memory_id) if e is not None else None)

    def action_toggle_denied(self) -> None:
        self._last_key[self.mode] = self.table.current_key
        self.mode = DENIED if self.mode == PENDING else PENDING
        self.marked.clear()  # marks belong to the list they were made in
        self.refresh_data(prefer=self._last_key[self.mode])

    def after_decision(self, receipt: Receipt) -> None:
        # The decided records left the list: their marks go with them (refresh_data keeps only ids still listed).
        # After an undo the cursor goes to the record it brought back.
        restored = (receipt.details.get("restored") or []) if receipt.action == "undo" else []
        self.refresh_data(prefer=restored[0] if restored else None)

    def undo_summary(self, receipt: Receipt) -> str:
        restored = receipt.details.get("restored") or []
        return f"undo {receipt.details.get('action', '')}" + (f" · {', '.join(restored[:3])}" if restored else "")


def _text_shown(text: str, whole_key: str) -> list[Text]:
    """The text whole when it is at most `TEXT_SHOWN` characters; else its start, cut at a space, and a line
    saying how much is left and which key shows it whole."""
    text = inert_text(text)
    if len(text) <= TEXT_SHOWN:
        return [Text(text)]
    cut = text.rfind(" ", TEXT_SHOWN // 2, TEXT_SHOWN)
    head = text[: cut if cut > 0 else TEXT_SHOWN].rstrip()
    left = len(text) - len(head)
    return [Text(head), more_marker(left, whole_key)]


def _undenied_text(mid: str, r: Receipt) -> str:
    """What an undeny did: the records active again, and those merged into a record that holds their statement
    already (captured again while they were denied)."""
    merged = r.details.get("merged_into") or {}
    back = len(r.details.get("restored") or []) - len(merged)
    text = f"{mid} undenied · {_plural(back, 'record')} active again"
    if merged:
        into = ", ".join(sorted(set(merged.values())))
        text += f" · {_plural(len(merged), 'record')} merged into {into}, which holds the statement already"
    return text


def _gone_text(gone: list[str], mode: str) -> str:
    """Marked records left out of a decision: no longer in the list (decided or changed elsewhere)."""
    listed = "pending" if mode == PENDING else "denied"
    first = gone[0] + (" …" if len(gone) > 1 else "")
    return f"{_plural(len(gone), 'marked record')} left out, no longer {listed} (decided elsewhere): {first}"

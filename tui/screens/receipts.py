"""Receipts pane (SPEC §6): a live tail of `receipts/*.jsonl`, newest first; the selected receipt as JSON with its
hash recomputed (`verify_receipt`), so a hand-edited or truncated receipt shows as a MISMATCH."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from rich.text import Text
from textual import on, work
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.highlight import highlight
from textual.widgets import DataTable, Input, Static

from memkeeper.core.receipts import receipt_hash, reread_files, verify_receipt

from ..widgets.query_input import QueryInput
from ..widgets.queue_table import ListTable
from .base import PaneScreen

MAX_ROWS = 5000  # newest receipts shown; the table stays quick on a wiki with a long history
#: Lines of a receipt's JSON the detail shows. A receipt can be megabytes (a tier commit at 100k records lists every
#: page it moved, with its prior tier: 98k lines indented): drawn whole it held the desk for half a minute.
MAX_JSON_LINES = 300
STATUS_STYLES = {
    "reject": "bold red",
    "refused": "bold red",
    "conflict": "yellow",
    "suppressed": "yellow",
    "drop": "dim",
    "undone": "cyan",
}


@dataclass(frozen=True)
class ReceiptRow:
    key: str  # "<file>:<line>" — unique and stable while the ledgers are append-only
    data: dict[str, Any] | None
    raw: str
    verified: bool
    undone_by: str = ""  # the hash of the undo receipt that reversed this decision, among the rows loaded

    @property
    def sha(self) -> str:
        return str((self.data or {}).get("receipt_sha256", ""))

    def cells(self, narrow: bool = False) -> tuple[Any, ...]:
        """The row's cells; `narrow` (80 columns) shortens the time and leaves the hash to the detail panel. A
        decision an undo receipt reversed reads "undone", dimmed."""
        d = self.data or {}
        at = str(d.get("at", "")).replace("T", " ").rstrip("Z")[:16]
        if narrow:
            at = at[5:]
        status = str(d.get("status", "—" if self.data is not None else "bad json"))
        mark = Text(" ✓", style="green") if self.verified else Text(" ✗", style="bold red")
        return (
            at or "?",
            str(d.get("action", "?")),
            Text("undone", style="dim")
            if self.undone_by
            else Text(status, style=STATUS_STYLES.get(status, "green" if self.verified else "red")),
            Text(str(d.get("actor", "")), no_wrap=True, overflow="ellipsis"),
            *(() if narrow else (Text.assemble((self.sha[:12] or "—", "dim" if self.verified else "red"), mark),)),
            Text(self.subject(), no_wrap=True, overflow="ellipsis"),
        )

    def subject(self) -> str:
        """What the receipt is about, in a few words: the refusal reason, else the first id or page it names."""
        details = (self.data or {}).get("details") or {}
        if not isinstance(details, dict):
            return ""
        if details.get("reason"):
            return str(details["reason"])
        for key in ("conflict_id", "page", "memory_id", "review", "envelope", "snapshot"):
            if details.get(key):
                return str(details[key])
        if details.get("reverses"):
            return f"reverses {str(details['reverses'])[:12]}"
        return ""

    def haystack(self) -> str:
        """What the filter searches: what the row shows (its subject too), the ids the receipt names, the receipt
        it reverses and, for an undone decision, "undone" and the undo receipt's hash."""
        d = self.data or {}
        details = d.get("details")
        named = (
            [str(details.get(k) or "") for k in ("memory_id", "conflict_id", "page", "reverses")]
            if isinstance(details, dict)
            else []
        )
        words = [str(d.get(k, "")) for k in ("at", "action", "status", "actor", "receipt_sha256")]
        words += [self.subject(), *named, self.key]
        if self.undone_by:
            words += ["undone", self.undone_by]
        return " ".join(words).lower()


def mark_undone(rows: list[ReceiptRow]) -> list[ReceiptRow]:
    """`rows` with each decision an undo receipt among them reversed marked with that receipt's hash (`undone_by`):
    two passes over the rows, where `Engine.undone_by` reads every ledger for one receipt. Only an undo that took
    effect (status "undone") and whose own hash verifies counts: a refused undo names the receipt too, and a forged
    one proves nothing."""
    undone: dict[str, str] = {}
    for row in reversed(rows):  # oldest first: the first undo of a receipt is the one that undid it
        d = row.data
        if row.verified and d and d.get("action") == "undo" and d.get("status") == "undone":
            reverses = (d.get("details") or {}).get("reverses")
            if isinstance(reverses, str) and reverses:
                undone.setdefault(reverses, row.sha)
    return [r if r.undone_by == undone.get(r.sha, "") else replace(r, undone_by=undone.get(r.sha, "")) for r in rows]


def read_rows(engine: Any, cursor: dict | None = None) -> tuple[list[ReceiptRow], dict, set[str]]:
    """Receipts appended since `cursor` (all of them for None), newest first, each verified against its stored
    hash; the cursor to pass next time; and the files whose rows read before no longer hold (gone, or read again
    from their start: what was read of them now is all they hold)."""
    new, after = engine.read_receipts(cursor)
    rows = [
        ReceiptRow(f"{f}:{n}", data, raw.rstrip("\n"), bool(data is not None and verify_receipt(data)))
        for f, n, data, raw in new
    ]
    rows.reverse()
    return rows, after, reread_files(cursor, after)


def pretty_json(data: Any, limit: int = MAX_JSON_LINES) -> tuple[str, bool]:
    """`data` as indented JSON, at most `limit` lines, and whether it was cut. The encoder is read lazily, so a huge
    receipt costs what is shown, not what it holds."""
    chunks: list[str] = []
    lines = 0
    for chunk in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(data):
        chunks.append(chunk)
        lines += chunk.count("\n")
        if lines >= limit:
            head = "".join(chunks).split("\n")[:limit]
            return "\n".join(head), True
    return "".join(chunks), False


def _position(row: ReceiptRow) -> tuple[str, int]:
    file, _, line = row.key.rpartition(":")
    return (file, int(line))


class ReceiptsScreen(PaneScreen):
    PANE_ID = "receipts"
    PANE_TITLE = "Receipts"
    STATUS_HINT = (
        "Every receipt's hash is recomputed here: ✗ marks one that was edited or cut short.",
        "Every receipt's hash is recomputed here: ✗ marks an edited or cut one.",
    )

    BINDINGS = [
        Binding("slash", "filter", "Filter", id="receipts.filter"),
        Binding("escape", "close_filter", "Clear filter", show=False, id="receipts.close"),
        Binding("f", "newest", "Newest", id="receipts.follow"),
        Binding("y", "copy_hash", "Copy hash", id="receipts.copy"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[ReceiptRow] = []
        self.shown_rows: list[ReceiptRow] = []
        self.filter_text = ""
        self.loads = 0  # completed loads (tests wait on it)
        self._cursor: dict | None = None  # how far the receipt ledgers have been read

    def compose_body(self):
        # List above detail: both get the full width, so the table never scrolls sideways and JSON lines stay whole.
        with Vertical(id="receipts-body"):
            with Vertical(id="receipts-list", classes="panel"):
                yield QueryInput(
                    placeholder="filter: action, status, actor, hash, date",
                    list_id="receipts-table",
                    id="receipts-filter",
                )
                yield ListTable(id="receipts-table", cursor_type="row", zebra_stripes=True)
            with Vertical(id="receipts-detail", classes="panel"):
                yield Static(id="receipt-verdict")
                with VerticalScroll(id="receipt-scroll"):
                    yield Static(id="receipt-json")

    @property
    def table(self) -> ListTable:
        return self.query_one("#receipts-table", ListTable)

    def _add_columns(self) -> None:
        # Subject (and actor) take what the other columns leave, so the table never scrolls sideways. At 80 columns
        # the hash column goes (the detail panel shows the hash) and the time loses its year.
        table = self.table
        table.flex = {"subject": (1, 10, 200), "actor": (1, 12, 20)}
        for key in (
            "time",
            "action",
            "status",
            "actor",
            *(() if self.has_class("-narrow") else ("receipt",)),
            "subject",
        ):
            table.add_column(key, key=key)

    def narrow_changed(self, narrow: bool) -> None:
        if not self.table.columns:
            return  # not mounted yet: on_mount adds the columns for the width it finds
        keep = self.selected()
        self.table.clear(columns=True)
        self._add_columns()
        self._fill(keep.key if keep else None)

    def on_mount(self) -> None:
        self.query_one("#receipts-filter").display = False
        self.query_one("#receipts-detail").border_title = "Receipt"
        self._add_columns()
        self.table.focus()
        self.load()

    # ------------------------------------------------------------------------------------------------ loading

    @work(thread=True, exclusive=True, group="receipts-load", exit_on_error=False)
    def load(self) -> None:
        # A tail: only what was appended since the last load is read and verified.
        rows, cursor, reread = read_rows(self.engine, self._cursor)
        self.app.call_from_thread(self._populate, rows, cursor, reread)

    def refresh_data(self) -> None:
        self.load()

    def selected(self) -> ReceiptRow | None:
        table = self.table
        if not table.row_count or table.cursor_row < 0 or table.cursor_row >= len(self.shown_rows):
            return None
        return self.shown_rows[table.cursor_row]

    def _populate(self, new_rows: list[ReceiptRow], cursor: dict, reread: set[str]) -> None:
        # Tail semantics: a cursor on the newest receipt follows new ones; a cursor elsewhere stays on its receipt.
        previous = self.selected()
        at_top = previous is None or self.table.cursor_row == 0
        self._cursor = cursor
        # A ledger edited, cut short or deleted by hand: none of its rows shown so far hold (a removed line moved
        # the later ones up; a deleted file has none). What was just read of it, if anything, is all it holds.
        fresh = {r.key for r in new_rows}
        rows = new_rows + [r for r in self.rows if r.key not in fresh and _position(r)[0] not in reread]
        rows.sort(key=_position, reverse=True)
        self.rows = mark_undone(rows)
        self.loads += 1
        self._fill(None if at_top or previous is None else previous.key)

    def _fill(self, keep_key: str | None) -> None:
        table = self.table
        needle = self.filter_text.lower()
        matching = [r for r in self.rows if needle in r.haystack()] if needle else self.rows
        self.shown_rows = matching[:MAX_ROWS]
        table.clear()
        narrow = self.has_class("-narrow")
        table.add_rows([r.cells(narrow) for r in self.shown_rows])
        table.fit_columns()
        index = 0
        if keep_key is not None:
            index = next((i for i, r in enumerate(self.shown_rows) if r.key == keep_key), 0)
        if self.shown_rows:
            table.move_cursor(row=index, animate=False)
        bad = sum(1 for r in self.rows if not r.verified)
        title = f"Receipts {len(matching)}"
        if needle:
            title += f" of {len(self.rows)} · filter “{self.filter_text}”"
        if len(matching) > MAX_ROWS:
            title += f" · newest {MAX_ROWS} shown"
        if bad:
            title += f" · {bad} ✗"
        self.query_one("#receipts-list").border_title = title
        self._show_detail(self.selected())

    # ------------------------------------------------------------------------------------------------ detail

    @on(DataTable.RowHighlighted, "#receipts-table")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail(self.selected())

    def _show_detail(self, row: ReceiptRow | None) -> None:
        verdict = self.query_one("#receipt-verdict", Static)
        body = self.query_one("#receipt-json", Static)
        detail = self.query_one("#receipts-detail")
        if row is None:
            verdict.update(Content.styled("no receipts yet", "dim"))
            body.update("")
            detail.border_title = "Receipt"
            return
        detail.border_title = row.key
        if row.data is None:
            verdict.update(Content.styled("not valid JSON ✗", "bold $text-error"))
            body.update(Text(row.raw))
            return
        if row.verified:
            said = Content.assemble(
                Content.styled("hash verified ✓", "bold $text-success"), Content.styled(f"  {row.sha}", "dim")
            )
        else:
            recomputed = receipt_hash(row.data) if isinstance(row.data, dict) else "?"
            said = Content.assemble(
                Content.styled("hash MISMATCH ✗", "bold $text-error"),
                Content.styled(f"  stored {row.sha[:16] or '—'}… recomputed {recomputed[:16]}…", "dim"),
            )
        if row.undone_by:
            said = Content.assemble(
                said,
                Content.styled("\nundone", "bold $text-warning"),
                Content.styled(f" by undo receipt {row.undone_by}: this decision no longer holds", "dim"),
            )
        verdict.update(said)
        pretty, cut = pretty_json(row.data)
        # Textual's highlighter styles tokens with theme variables, so the JSON follows the active theme.
        shown = highlight(pretty, language="json")
        if cut:
            file, _, line = row.key.rpartition(":")
            shown = Content.assemble(
                shown,
                Content.styled(
                    f"\n… cut here: this receipt is {len(row.raw.encode('utf-8')) // 1024:,} KB; the whole of it "
                    f"is line {line} of {file}",
                    "dim italic",
                ),
            )
        body.update(shown)

    # ------------------------------------------------------------------------------------------------ actions

    def action_filter(self) -> None:
        box = self.query_one("#receipts-filter", Input)
        box.display = True
        box.focus()

    def action_close_filter(self) -> None:
        box = self.query_one("#receipts-filter", Input)
        if box.display:
            keep = self.selected()
            box.value = ""
            box.display = False
            self.filter_text = ""
            self._fill(keep.key if keep else None)
            self.table.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "close_filter":
            return bool(self.query_one("#receipts-filter").display)
        return True

    @on(Input.Changed, "#receipts-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value.strip()
        self._fill(None)

    def action_newest(self) -> None:
        if self.shown_rows:
            self.table.move_cursor(row=0, animate=False)

    def action_copy_hash(self) -> None:
        row = self.selected()
        if row is not None and row.sha:
            self.app.copy_to_clipboard(row.sha)
            self.say(
                (f"Copied {row.sha} to the clipboard.", f"Copied {row.sha[:12]}… (the whole hash) to the clipboard.")
            )

"""Receipts pane (SPEC §6): a live tail of `receipts/*.jsonl`, newest first in commit order; the selected receipt as
JSON with its hash recomputed (`verify_receipt`), so a hand-edited or truncated receipt shows as a MISMATCH.

`u` undoes the selected decision, after a confirmation (it may be days old): the one way to undo a decision once
the desk has restarted, when the panes' undo stacks are empty."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any

from rich.text import Text
from textual import on, work
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.highlight import highlight
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from memkeeper.core import Receipt
from memkeeper.core.models import REFUSED_STATUSES, inert_text, json_inert
from memkeeper.core.receipts import ReceiptLine, receipt_hash, reread_files, verify_receipt
from memkeeper.core.undo import keeps_a_reversal

from ..widgets.query_input import QueryInput
from ..widgets.queue_table import ListSource
from ..widgets.status_line import Wording
from ..widgets.virtual_table import Cells, VirtualTable
from .base import PaneScreen, decision_subject
from .modals import ConfirmModal

#: The list's columns, wide and at 80 columns (the hash goes to the detail panel and the time loses its year), as
#: (label, width). Action and status are as wide as the widest the rows hold (`column_widths`); subject and actor
#: take what the others leave, so the list never scrolls sideways.
FLEX = {"subject": (1, 10, 200), "actor": (1, 12, 20)}


def columns(narrow: bool, action: int, status: int) -> tuple[tuple[str, int], ...]:
    time = ("time", 11 if narrow else 16)
    middle = (("action", action), ("status", status), ("actor", 12))
    return (time, *middle, ("subject", 20)) if narrow else (time, *middle, ("receipt", 14), ("subject", 30))


def column_widths(rows: list[ReceiptRow]) -> tuple[int, int]:
    """The action and status columns' widths: the widest value among `rows`, at least the header's."""
    action = max((len(r.action) for r in rows), default=0)
    status = max((len(r.status()) for r in rows), default=0)
    return max(action, len("action")), max(status, len("status"))


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

    @property
    def action(self) -> str:
        return str((self.data or {}).get("action", ""))

    def at(self) -> str:
        """When the receipt was written, to the minute, as the time column shows it ("2026-12-03 09:14")."""
        return str((self.data or {}).get("at", "")).replace("T", " ").rstrip("Z")[:16]

    def cells(self, narrow: bool = False) -> tuple[Any, ...]:
        """The row's cells; `narrow` (80 columns) shortens the time and leaves the hash to the detail panel. A
        decision an undo receipt reversed reads "undone", dimmed. What the ledger holds is shown less what a terminal
        would act on (`inert_text`: a receipt repeats what it was given, and a ledger may be edited by hand)."""
        d = self.data or {}
        at = self.at()
        if narrow:
            at = at[5:]
        status = inert_text(self.status())
        mark = Text(" ✓", style="green") if self.verified else Text(" ✗", style="bold red")
        return (
            inert_text(at) or "?",
            inert_text(str(d.get("action", "?"))),
            Text(status, style="dim")
            if self.undone_by
            else Text(status, style=STATUS_STYLES.get(status, "green" if self.verified else "red")),
            Text(inert_text(str(d.get("actor", ""))), no_wrap=True, overflow="ellipsis"),
            *(
                ()
                if narrow
                else (Text.assemble((inert_text(self.sha[:12]) or "—", "dim" if self.verified else "red"), mark),)
            ),
            Text(inert_text(self.subject()), no_wrap=True, overflow="ellipsis"),
        )

    def status(self) -> str:
        """The status column's word: "undone" for a decision an undo receipt reversed."""
        if self.undone_by:
            return "undone"
        return str((self.data or {}).get("status", "—" if self.data is not None else "bad json"))

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
        it reverses and, for an undone decision, "undone" and the undo receipt's hash. Built once per row (the load
        worker builds it for new rows), so a filter key searches 20k rows in a few milliseconds."""
        cached = self.__dict__.get("_haystack")
        if cached is None:
            cached = self.__dict__["_haystack"] = self._haystack()  # a frozen row: its own cache, past __setattr__
        return cached

    def _haystack(self) -> str:
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
    receipt costs what is shown, not what it holds. Exact, as the command line's `--json` is: what a terminal would
    act on and the encoder leaves raw (C1 controls, bidi overrides) is escaped (`json_inert`)."""
    chunks: list[str] = []
    lines = 0
    for chunk in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(data):
        chunks.append(chunk)
        lines += chunk.count("\n")
        if lines >= limit:
            head = "".join(chunks).split("\n")[:limit]
            return json_inert("\n".join(head)), True
    return json_inert("".join(chunks)), False


def _position(row: ReceiptRow) -> tuple[str, int]:
    file, _, line = row.key.rpartition(":")
    return (file, int(line))


@dataclass(frozen=True)
class Loaded:
    """What a load worker read and made of it, for `ReceiptsScreen._populate` on the UI thread."""

    base: list[ReceiptRow]  # the rows the worker merged into: a result made from other rows is stale
    rows: list[ReceiptRow]  # every row, newest first, undone ones marked
    cursor: dict
    undoable: set[str]
    new: int  # rows read this time
    bad: int  # rows whose hash does not verify (or that are not JSON)
    widths: tuple[int, int]  # the action and status columns'


def merge(
    base: list[ReceiptRow],
    new_rows: list[ReceiptRow],
    reread: set[str],
    in_commit_order: Callable[[list[ReceiptLine]], list[ReceiptLine]],
) -> list[ReceiptRow]:
    """`new_rows` added to `base`, newest first in commit order (`Engine.in_commit_order`, the order undo reads: a
    clock set back writes the latest decision into an earlier date's file), undone decisions marked. A ledger
    edited, cut short or deleted by hand (`reread`): none of its rows in `base` hold (a removed line moved the later
    ones up; a deleted file has none); what was just read of it, if anything, is all it holds.

    Rows read since the last load were committed after those held, and one file's lines are in commit order: rows
    of one file, a file not before the newest row's, go on top as they are, without reading log.md. Otherwise (the
    first load, rows of several files, a file read again) the engine orders them all."""
    if not new_rows and not reread:
        return base
    fresh = {r.key for r in new_rows}
    kept = [r for r in base if r.key not in fresh and _position(r)[0] not in reread]
    files = {_position(r)[0] for r in new_rows}
    if not reread and len(files) == 1 and (not kept or _position(kept[0])[0] <= next(iter(files))):
        return mark_undone(new_rows + kept)
    by_key = {r.key: r for r in new_rows + kept}
    lines = [(*_position(r), r.data, r.raw) for r in sorted(by_key.values(), key=_position)]
    ordered = [by_key[f"{rel}:{n}"] for rel, n, _, _ in in_commit_order(lines)]
    ordered.reverse()
    return mark_undone(ordered)


class ReceiptsScreen(PaneScreen):
    PANE_ID = "receipts"
    PANE_TITLE = "Receipts"
    # Undoing the selected receipt is a decision about the row under the cursor: chosen in the palette from another
    # pane, it only opens this one. Its key is dimmed on a row it cannot undo, and pressed there it says why.
    CURSOR_DECISIONS = frozenset({"undo_receipt"})
    ANSWERING = CURSOR_DECISIONS
    STATUS_HINT = (
        "Every receipt's hash is recomputed here: ✗ marks one that was edited or cut short. {undo} undoes the "
        "selected decision.",
        "Every hash is re-checked (✗: edited or cut); {undo} undoes the selected decision.",
    )

    BINDINGS = [
        Binding("slash", "filter", "Filter", id="receipts.filter"),
        Binding("escape", "close_filter", "Clear filter", show=False, id="receipts.close"),
        Binding("u", "undo_receipt", "Undo…", id="receipts.undo"),
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
        self._bad = 0  # rows whose hash does not verify
        self._widths = column_widths([])  # the action and status columns'
        # After an undo: the row of the decision it reversed, which keeps the cursor until a load has read the undo
        # receipt (the tail would otherwise follow the new receipt when that row was the newest).
        self._pin: tuple[str, str] | None = None  # (row key, the undo receipt's hash)
        # The actions among the rows loaded that the engine can undo (`Engine.is_undoable`, asked in the load worker:
        # its first call builds every queue that registers an undo, not something for the UI thread to wait on).
        self._undoable: set[str] = set()

    def compose_body(self):
        # List above detail: both get the full width, so the list never scrolls sideways and JSON lines stay whole.
        # The list is a `VirtualTable`: it draws the visible rows only, so a filter key, a resize or a load of 20k
        # receipts costs the rows on screen, not the whole history.
        with Vertical(id="receipts-body"):
            with Vertical(id="receipts-list", classes="panel"):
                yield QueryInput(
                    placeholder="filter: action, status, actor, hash, date",
                    list_id="receipts-table",
                    id="receipts-filter",
                )
                yield VirtualTable(*columns(False, *self._widths), id="receipts-table", flex=FLEX)
            with Vertical(id="receipts-detail", classes="panel"):
                yield Static(id="receipt-verdict")
                with VerticalScroll(id="receipt-scroll"):
                    yield Static(id="receipt-json")

    @property
    def table(self) -> VirtualTable:
        return self.query_one("#receipts-table", VirtualTable)

    def narrow_changed(self, narrow: bool) -> None:
        self.table.set_columns(*columns(narrow, *self._widths))  # the rows are drawn for the class they find

    def on_mount(self) -> None:
        self.query_one("#receipts-filter").display = False
        self.query_one("#receipts-detail").border_title = "Receipt"
        self.narrow_changed(self.has_class("-narrow"))
        self.table.focus()
        self.load()

    # ------------------------------------------------------------------------------------------------ loading

    @work(thread=True, exclusive=True, group="receipts-load", exit_on_error=False)
    def load(self) -> None:
        # A tail: only what was appended since the last load is read and verified. The merge, the sort and the
        # undone marks run here too, over the rows the pane holds now; the UI thread only swaps the list in.
        base, cursor = self.rows, self._cursor
        new_rows, after, reread = read_rows(self.engine, cursor)
        undoable = {a for a in {r.action for r in new_rows} if self.engine.is_undoable(a)}
        rows = merge(base, new_rows, reread, self.engine.in_commit_order)
        for row in new_rows:
            row.haystack()
        if rows is base:
            bad, widths = self._bad, self._widths
        else:
            bad, widths = sum(1 for r in rows if not r.verified), column_widths(rows)
        if get_current_worker().is_cancelled:
            return  # a newer load runs: it reads the same and more
        loaded = Loaded(base, rows, after, undoable, len(new_rows), bad, widths)
        self.app.call_from_thread(self._populate, loaded)

    def refresh_data(self) -> None:
        self.load()

    def selected(self) -> ReceiptRow | None:
        item = self.table.current_item
        return item if isinstance(item, ReceiptRow) else None

    def _populate(self, loaded: Loaded) -> None:
        if loaded.base is not self.rows:
            self.load()  # merged into rows another load has replaced since: read again from what is held now
            return
        # Tail semantics: a cursor on the newest receipt follows new ones; a cursor elsewhere stays on its receipt.
        previous = self.selected()
        keep = None if previous is None or self.table.cursor_row == 0 else previous.key
        pinned = self._pin
        if pinned is not None and (previous is None or previous.key == pinned[0]):
            keep = pinned[0]  # the row an undo reversed, though it was the newest
        self._cursor = loaded.cursor
        self._undoable |= loaded.undoable
        self.rows, self._bad = loaded.rows, loaded.bad
        if loaded.widths != self._widths:
            self._widths = loaded.widths
            self.narrow_changed(self.has_class("-narrow"))
        if pinned is not None and any(r.sha == pinned[1] for r in self.rows):
            self._pin = None  # the undo receipt is listed: from here on, the tail's rule holds
        self.loads += 1
        self._fill(keep)
        if loaded.new > 1000:  # a large load: its rows stay for as long as the pane does
            self.app.call_later(self.mk.settle_heap)

    def _fill(self, keep_key: str | None) -> None:
        needle = self.filter_text.lower()
        self.shown_rows = [r for r in self.rows if needle in r.haystack()] if needle else self.rows
        # In memory (20k receipts are a few MB); only the visible rows are drawn.
        source = ListSource([(r.key, r) for r in self.shown_rows], self._cells)
        self.table.reload(source, prefer=keep_key, keep=False, new_list=True)
        title = f"Receipts {len(self.shown_rows)}"
        if needle:
            title += f" of {len(self.rows)} · filter “{self.filter_text}”"
        if self._bad:
            title += f" · {self._bad} ✗"
        self.query_one("#receipts-list").border_title = title
        self._show_detail(self.selected())
        self.refresh_bindings()  # the undo key applies to some rows only

    def _cells(self, row: ReceiptRow) -> Cells:
        return row.cells(self.has_class("-narrow"))

    def status_hint(self) -> Wording:
        undo = self.mk.key_for("receipts.undo") or "receipts.undo"
        return tuple(w.format(undo=undo) for w in self.STATUS_HINT)

    # ------------------------------------------------------------------------------------------------ detail

    @on(VirtualTable.RowHighlighted, "#receipts-table")
    def _row_highlighted(self, event: VirtualTable.RowHighlighted) -> None:
        self._show_detail(self.selected())
        self.refresh_bindings()

    def _show_detail(self, row: ReceiptRow | None) -> None:
        verdict = self.query_one("#receipt-verdict", Static)
        body = self.query_one("#receipt-json", Static)
        detail = self.query_one("#receipts-detail")
        if row is None:
            verdict.update(Content.styled("no receipts yet", "dim"))
            body.update("")
            detail.border_title = "Receipt"
            return
        detail.border_title = inert_text(row.key)
        if row.data is None:
            verdict.update(Content.styled("not valid JSON ✗", "bold $text-error"))
            body.update(Text(inert_text(row.raw)))
            return
        if row.verified:
            said = Content.assemble(
                Content.styled("hash verified ✓", "bold $text-success"), Content.styled(f"  {row.sha}", "dim")
            )
        else:
            recomputed = receipt_hash(row.data) if isinstance(row.data, dict) else "?"
            said = Content.assemble(
                Content.styled("hash MISMATCH ✗", "bold $text-error"),
                Content.styled(f"  stored {inert_text(row.sha[:16]) or '—'}… recomputed {recomputed[:16]}…", "dim"),
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
            file, _, line = inert_text(row.key).rpartition(":")
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
        if not self.shown_rows:
            self.say("No receipts to show.", "dim")
        elif self.table.cursor_row == 0:
            # Pressed on the newest, the key did nothing to see: say so, as the other keys that do not apply do.
            self.say(("On the newest receipt already; new ones come in at the top.", "On the newest already."), "dim")
        else:
            self.table.move_cursor(0)

    def action_copy_hash(self) -> None:
        row = self.selected()
        if row is not None and row.sha:
            self.app.copy_to_clipboard(row.sha)
            self.say(
                (f"Copied {row.sha} to the clipboard.", f"Copied {row.sha[:12]}… (the whole hash) to the clipboard.")
            )

    # ------------------------------------------------------------------------------------------------ undo

    def why_not_undoable(self, row: ReceiptRow | None) -> Wording:
        """Why `u` cannot undo `row` (wordings, longest first), or "" when the engine is to be asked. The engine
        still decides: a decision a later one has superseded is refused by it, with the later receipt named."""
        if row is None:
            return "No receipt selected: nothing to undo."
        if row.data is None:
            return (
                "This line is not valid JSON (✗): there is no decision in it to undo.",
                "Not valid JSON (✗): nothing to undo.",
            )
        if not row.verified:
            return (
                "This receipt's hash does not match (✗): an edited receipt proves nothing and cannot be undone.",
                "Hash mismatch (✗): an edited receipt cannot be undone.",
            )
        action, status = row.action, str(row.data.get("status", ""))
        if action == "undo":
            return (
                "An undo cannot itself be undone: take the decision again in its pane.",
                "An undo cannot itself be undone.",
            )
        if status in REFUSED_STATUSES:
            return (
                f"This {action} was refused ({status}): it changed nothing, so there is nothing to undo.",
                f"A refused {action}: nothing to undo.",
            )
        if action not in self._undoable:
            return (
                f"This {action or '?'} receipt cannot be undone: it records no decision the engine can reverse.",
                f"This {action or '?'} receipt cannot be undone: it is no decision.",
            )
        if not keeps_a_reversal(action, status, row.data.get("details")):
            # (the engine's own test: `undo` would refuse it as not_undoable)
            return (
                f"This {action} changed nothing (a run with nothing to do): there is nothing to undo.",
                f"This {action} changed nothing: nothing to undo.",
            )
        if row.undone_by:
            return (
                f"Already undone, by undo receipt {row.undone_by[:12]}: this decision no longer holds.",
                f"Already undone, by receipt {row.undone_by[:12]}.",
            )
        return ""

    def applies(self, action: str) -> bool:
        if action == "undo_receipt":
            return not self.why_not_undoable(self.selected())
        return True

    def action_undo_receipt(self) -> None:
        """Undo the selected decision, however old, after a confirmation: a new receipt that names it (the engine's
        `undo`, in the decision worker). The panes' undo stacks hold only this session's decisions."""
        row = self.selected()
        why = self.why_not_undoable(row)
        if why or row is None or row.data is None:
            self.say(why, "yellow")
            return
        if self.deciding:  # an undo is still being written
            self.app.bell()
            return
        sha, at, actor = row.sha, inert_text(row.at()), inert_text(str(row.data.get("actor", "")))
        what = inert_text(f"{row.action} {decision_subject(row.data.get('details')) or row.subject()}".rstrip())
        ago = _ago(row.data.get("at"), self.now())
        body = Text.assemble(
            (f"Taken{f' {ago}' if ago else ''} by {actor} · receipt {sha[:12]}\n", ""),
            (
                "A new receipt reverses it and puts back what it changed; this receipt stays. If a later decision "
                "about the same thing still stands, the engine refuses: undo that one first.",
                "dim",
            ),
        )

        def done(yes: bool | None) -> None:
            if not yes:
                self.say(f"Undo {what}: cancelled, nothing written.", "dim")
                return
            self.decide(
                partial(self.engine.undo, sha, now=self.now(), actor=self.actor), f"undo {what} of {at}".rstrip()
            )

        self.app.push_screen(ConfirmModal(f"Undo {what} of {at}?", body, confirm_label="Undo"), done)

    def after_decision(self, receipt: Receipt) -> None:
        # The row of the decision an undo reversed keeps the cursor, and reads "undone" once the tail has the undo.
        reverses = receipt.details.get("reverses")
        row = next((r for r in self.rows if r.sha == reverses), None) if receipt.action == "undo" else None
        if row is not None and receipt.ok and receipt.receipt_sha256:
            self._pin = (row.key, receipt.receipt_sha256)
        self.refresh_data()


def _ago(at: Any, now: datetime) -> str:
    """How long before `now` a receipt's time (ISO, UTC) was, in the largest whole unit: "3 days ago"; "" when it
    does not parse or is not before `now`."""
    try:
        then = datetime.fromisoformat(str(at))
    except ValueError:
        return ""
    then = then if then.tzinfo else then.replace(tzinfo=UTC)
    now = now if now.tzinfo else now.replace(tzinfo=UTC)
    seconds = (now - then).total_seconds()
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'' if n == 1 else 's'} ago"
    return ""

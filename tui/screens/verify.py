"""Verify pane (SPEC §5.2, §6): confirm or deny what agents inferred; undeny from the denied list.

Left: the queue (pending agent-inferred records, newest first, or the denied records — `a` switches). Right: the
selected record's content, source and provenance. Confirming propagates to every live record with the same text;
the count shows in the status line.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import DataTable, Static

from memkeeper.core import Entry, Receipt

from ..widgets.fmt import ago
from ..widgets.queue_table import QueueTable
from .base import PaneScreen
from .modals import InputModal

PENDING, DENIED = "pending", "denied"


class VerifyScreen(PaneScreen):
    PANE_ID = "verify"
    PANE_TITLE = "Verify"
    STATUS_HINT = ("Confirm stamps the record verified and propagates to every live record with the same text; "
                   "deny suppresses its source+text.")

    BINDINGS = [
        Binding("c", "confirm", "Confirm", id="verify.confirm"),
        Binding("d", "deny", "Deny", id="verify.deny"),
        Binding("D", "deny_reason", "Deny with reason…", id="verify.deny_reason"),
        Binding("n", "undeny", "Undeny", id="verify.undeny"),
        Binding("a", "toggle_denied", "Pending/denied", id="verify.toggle_denied"),
        Binding("u", "undo", "Undo", id="verify.undo"),
    ]

    DEFAULT_CSS = """
    VerifyScreen #verify-body { height: 1fr; }
    VerifyScreen #verify-list { width: 60; height: 1fr; }
    VerifyScreen #verify-detail {
        width: 1fr;
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.mode = PENDING
        self._by_id: dict[str, Entry] = {}
        self._last_key: dict[str, str | None] = {PENDING: None, DENIED: None}

    def compose_body(self) -> Iterable[Widget]:
        with Horizontal(id="verify-body"):
            yield QueueTable(("Title", 30), ("Category", 10), ("Conf", 4), ("Age", 4), id="verify-list")
            with VerticalScroll(id="verify-detail"):
                yield Static(id="verify-record")
        yield Static(id="verify-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.refresh_data()

    # ------------------------------------------------------------------------------------------------ data

    @property
    def table(self) -> QueueTable:
        return self.query_one("#verify-list", QueueTable)

    def _row(self, e: Entry) -> list[str | Text]:
        title = e.title if len(e.title) <= 30 else e.title[:29] + "…"
        conf_style = "green" if e.confidence >= 0.8 else ("yellow" if e.confidence >= 0.6 else "red")
        return [title, e.category.value, Text(f"{e.confidence:.2f}", style=conf_style), ago(e.created_at, self.now())]

    def refresh_data(self, prefer: str | None = None) -> None:
        entries = self.engine.pending_verifications() if self.mode == PENDING else self.engine.denied_records()
        self._by_id = {e.memory_id: e for e in entries}
        self.table.rebuild(((e.memory_id, self._row(e)) for e in entries), prefer=prefer)
        self.table.border_title = (f"Pending verification ({len(entries)})" if self.mode == PENDING
                                   else f"Denied ({len(entries)})")
        self.table.border_subtitle = "a: show denied" if self.mode == PENDING else "a: show pending"
        empty = not entries
        self.query_one("#verify-body").display = not empty
        self.query_one("#verify-empty").display = empty
        if empty:
            self.query_one("#verify-empty", Static).update(Text.assemble(
                ("Nothing to verify\n\n" if self.mode == PENDING else "No denied records\n\n", "bold"),
                ("Agent-inferred records wait here until a person confirms or denies them.\n" if self.mode == PENDING
                 else "Denied records are kept (status: denied) and can be undenied here.\n", "dim"),
                ("a: show denied records" if self.mode == PENDING else "a: back to pending", "dim")))
        self._show_detail()
        self.refresh_bindings()

    @property
    def current(self) -> Entry | None:
        key = self.table.current_key
        return self._by_id.get(key) if key else None

    def _show_detail(self) -> None:
        e = self.current
        box = self.query_one("#verify-detail")
        if e is None:
            return
        box.border_title = e.memory_id
        box.border_subtitle = "c confirm · d deny · D deny with reason" if self.mode == PENDING else "n undeny"
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True, min_width=10)
        grid.add_column(overflow="fold")
        grid.add_row("source", Text(e.source_ref or "(none)", style="underline" if e.source_ref else "dim italic"))
        verified = f"verified by {e.verified.by}" if e.verified else "not verified"
        grid.add_row("type", f"{e.source_type.value} · {verified}")
        grid.add_row("actor", e.actor or "—")
        grid.add_row("confidence", f"{e.confidence:.2f} · evidence {e.evidence_grade.value}")
        grid.add_row("category", e.category.value)
        grid.add_row("zone", f"{e.trust_zone.value} · {e.sensitivity_tier.value}")
        grid.add_row("created", f"{e.created_at:%Y-%m-%d %H:%M} ({ago(e.created_at, self.now())} ago)")
        if e.status.value != "active":
            grid.add_row("status", Text(e.status.value, style="bold red"))
        parts: list = [Text(e.title, style="bold"), Text(""), Text(e.content), Text(""), grid]
        notes = [n for n in e.notes if n.strip()][-3:]
        if notes:
            parts += [Text(""), Text("notes", style="dim")] + [Text(f"· {n}", style="italic") for n in notes]
        self.query_one("#verify-record", Static).update(Group(*parts))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("confirm", "deny", "deny_reason"):
            if self.mode != PENDING:
                return False
            return True if self._by_id else None
        if action == "undeny":
            if self.mode != DENIED:
                return False
            return True if self._by_id else None
        return True

    # ------------------------------------------------------------------------------------------------ decisions

    def action_confirm(self) -> None:
        e = self.current
        if e is None or self.mode != PENDING:
            return
        mid = e.memory_id

        def summary(receipt: Receipt) -> str:
            propagated = receipt.details.get("propagated_to") or []
            text = f"{mid} confirmed"
            if receipt.ok:
                text += f" · propagated to {len(propagated)} record{'s' if len(propagated) != 1 else ''}"
            return text

        self.decide(partial(self.engine.confirm, mid, now=self.now(), actor=self.actor), summary)

    def _deny(self, memory_id: str, reason: str | None) -> None:
        summary = f"{memory_id} denied" + (f" ({reason})" if reason else "") + " · same source+text will be suppressed"
        self.decide(partial(self.engine.deny, memory_id, now=self.now(), actor=self.actor, reason=reason), summary)

    def action_deny(self) -> None:
        e = self.current
        if e is not None and self.mode == PENDING:
            self._deny(e.memory_id, None)

    def action_deny_reason(self) -> None:
        e = self.current
        if e is None or self.mode != PENDING:
            return
        mid = e.memory_id

        def done(reason: str | None) -> None:
            if reason:
                self._deny(mid, reason)

        self.app.push_screen(InputModal(f"Deny {mid} with a reason", Text(e.title, style="bold"),
                                        placeholder="why is this wrong?"), done)

    def action_undeny(self) -> None:
        e = self.current
        if e is None or self.mode != DENIED:
            return
        mid = e.memory_id
        self.decide(partial(self.engine.undeny, mid, now=self.now(), actor=self.actor),
                    lambda r: f"{mid} undenied · {len(r.details.get('restored') or [])} record(s) active again")

    def action_toggle_denied(self) -> None:
        self._last_key[self.mode] = self.table.current_key
        self.mode = DENIED if self.mode == PENDING else PENDING
        self.refresh_data(prefer=self._last_key[self.mode])

    def after_decision(self, receipt: Receipt) -> None:
        # After an undo the cursor goes to the record it brought back.
        restored = (receipt.details.get("restored") or []) if receipt.action == "undo" else []
        self.refresh_data(prefer=restored[0] if restored else None)

    def undo_summary(self, receipt: Receipt) -> str:
        restored = receipt.details.get("restored") or []
        return f"undo {receipt.details.get('action', '')}" + (f" · {', '.join(restored[:3])}" if restored else "")

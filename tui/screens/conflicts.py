"""Conflicts pane (SPEC §5.1, §6): arbitrate open contradictions — keep existing, take incoming, both valid, snooze.

The queue on top (newest first), the selected conflict's two sides side by side below it with provenance and the
words that differ emphasised. One key per decision; the cursor then sits on the next conflict.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial

from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import DataTable, Static

from memkeeper.core import Receipt
from memkeeper.core.conflicts import SNOOZE_WARN_AFTER, Conflict
from memkeeper.core.models import parse_iso

from ..widgets.fmt import ago
from ..widgets.queue_modals import parse_until, snooze_error
from ..widgets.queue_sides import ConflictSide, word_diff
from ..widgets.queue_table import QueueTable
from .base import PaneScreen
from .modals import InputModal

TYPE_LABELS = {
    "direct_negation": "negation",
    "mutually_exclusive": "exclusive",
    "quantitative_drift": "drift",
    "decision_supersession": "supersession",
    "source_disagreement": "sources",
}
CHOICE_LABELS = {"existing": "keep existing", "incoming": "take incoming", "both": "both valid"}


def _age(detected_at: str, now: datetime) -> str:
    try:
        return ago(parse_iso(detected_at), now)
    except ValueError:
        return "?"


class ConflictsScreen(PaneScreen):
    PANE_ID = "conflicts"
    PANE_TITLE = "Conflicts"
    STATUS_HINT = ("Resolutions are appended to DECISIONS.md with both sides' provenance; the loser is marked "
                   "superseded, never deleted.")

    BINDINGS = [
        Binding("k", "keep", "Keep existing", id="conflicts.keep"),
        Binding("i", "take", "Take incoming", id="conflicts.take"),
        Binding("b", "both", "Both valid", id="conflicts.both"),
        Binding("s", "snooze", "Snooze", id="conflicts.snooze"),
        Binding("S", "snooze_until", "Snooze until…", id="conflicts.snooze_until"),
        Binding("u", "undo", "Undo", id="conflicts.undo"),
    ]

    DEFAULT_CSS = """
    ConflictsScreen #conflict-list { height: 1fr; min-height: 6; }
    ConflictsScreen #conflict-meta {
        height: auto;
        padding: 0 1;
        background: $boost;
    }
    ConflictsScreen #conflict-sides { height: auto; max-height: 65%; }
    ConflictsScreen ConflictSide { height: auto; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._by_id: dict[str, Conflict] = {}

    # ------------------------------------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Vertical(id="conflicts-body"):
            yield QueueTable(("ID", 5), ("Type", 12), ("Title", 42), ("Detected", 11), ("Age", 4), ("Snz", 5),
                             ("Incoming from", 22), id="conflict-list")
            yield Static(id="conflict-meta")
            with Horizontal(id="conflict-sides"):
                yield ConflictSide(id="side-existing", classes="-existing")
                yield ConflictSide(id="side-incoming", classes="-incoming")
            yield Static(Text.assemble(("No open conflicts\n\n", "bold"),
                                       ("When an agent's new claim contradicts memory, the write halts and lands here.",
                                        "dim")), id="conflict-empty", classes="empty-state")

    def on_mount(self) -> None:
        self.query_one("#side-existing").border_title = "A · existing   k keep"
        self.query_one("#side-incoming").border_title = "B · incoming   i take"
        self.refresh_data()

    # ------------------------------------------------------------------------------------------------ data

    @property
    def table(self) -> QueueTable:
        return self.query_one("#conflict-list", QueueTable)

    def _row(self, c: Conflict) -> list[str | Text]:
        warn = c.snooze_count >= SNOOZE_WARN_AFTER
        snoozed = Text(f"⚠{c.snooze_count}×", style="bold yellow") if warn else Text(
            f"{c.snooze_count}×" if c.snooze_count else "—", style="dim")
        return [
            Text(c.conflict_id, style="bold"),
            TYPE_LABELS.get(c.conflict_type, c.conflict_type),
            c.title if len(c.title) <= 42 else c.title[:41] + "…",
            c.detected_at[5:16].replace("T", " "),
            _age(c.detected_at, self.now()),
            snoozed,
            str(c.incoming.get("actor") or ""),
        ]

    def refresh_data(self, prefer: str | None = None) -> None:
        conflicts = self.engine.conflicts(now=self.now(), session=self.mk.session_id)
        self._by_id = {c.conflict_id: c for c in conflicts}
        self.table.rebuild(((c.conflict_id, self._row(c)) for c in conflicts), prefer=prefer)
        warned = sum(1 for c in conflicts if c.snooze_count >= SNOOZE_WARN_AFTER)
        title = f"Open conflicts ({len(conflicts)})"
        if warned:
            title += f" · ⚠ {warned} snoozed {SNOOZE_WARN_AFTER}+ times"
        self.table.border_title = title
        empty = not conflicts
        for sel in ("#conflict-list", "#conflict-meta", "#conflict-sides"):
            self.query_one(sel).display = not empty
        self.query_one("#conflict-empty").display = empty
        self._show_detail()
        self.refresh_bindings()

    @property
    def current(self) -> Conflict | None:
        key = self.table.current_key
        return self._by_id.get(key) if key else None

    def _show_detail(self) -> None:
        c = self.current
        if c is None:
            return
        meta = Text()
        meta.append(f"{c.conflict_id} ", style="bold")
        meta.append(c.conflict_type, style="bold magenta")
        meta.append(f"  {c.reason}")
        meta.append(f"  · {c.detected_by} · {c.detected_at[:16].replace('T', ' ')}", style="dim")
        if c.snooze_count:
            style = "bold yellow" if c.snooze_count >= SNOOZE_WARN_AFTER else "dim"
            meta.append(f"  · snoozed {c.snooze_count}×", style=style)
            if c.snooze_count >= SNOOZE_WARN_AFTER:
                meta.append(" — decide, or it keeps coming back", style="yellow")
        self.query_one("#conflict-meta", Static).update(meta)
        a_text, b_text = word_diff(str(c.existing.get("text", "")), str(c.incoming.get("text", "")))
        mid = c.existing.get("memory_id") or "?"
        self.query_one("#side-existing", ConflictSide).show_side(
            c.existing, a_text, f"active record {mid} · {c.existing.get('page') or ''}")
        self.query_one("#side-incoming", ConflictSide).show_side(
            c.incoming, b_text, f"held in conflicts/{c.conflict_id}.md — not stored as memory until taken")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("keep", "take", "both", "snooze", "snooze_until") and not self._by_id:
            return None  # shown dimmed: nothing to decide
        return True

    # ------------------------------------------------------------------------------------------------ decisions

    def _resolve(self, choice: str) -> None:
        c = self.current
        if c is None:
            return
        cid = c.conflict_id

        def summary(receipt: Receipt) -> str:
            text = f"{cid} {CHOICE_LABELS[choice]}"
            if receipt.ok and receipt.details.get("winner"):
                text += f" → {receipt.details['winner']} active"
            return text

        self.decide(partial(self.engine.resolve_conflict, cid, choice, now=self.now(), actor=self.actor), summary)

    def action_keep(self) -> None:
        self._resolve("existing")

    def action_take(self) -> None:
        self._resolve("incoming")

    def action_both(self) -> None:
        self._resolve("both")

    def _snooze(self, conflict_id: str, until: datetime | None) -> None:
        when = "the end of this session" if until is None else until.strftime("%Y-%m-%d %H:%M")
        self.decide(partial(self.engine.snooze_conflict, conflict_id, now=self.now(), actor=self.actor, until=until,
                            session=self.mk.session_id),
                    lambda r: f"{conflict_id} snoozed until {when} ({r.details.get('snooze_count', 0)}×)" + (
                        " — decide it soon: it keeps coming back" if r.details.get("warning") else ""))

    def action_snooze(self) -> None:
        c = self.current
        if c is not None:
            self._snooze(c.conflict_id, None)

    def action_snooze_until(self) -> None:
        c = self.current
        if c is None:
            return
        cid, now = c.conflict_id, self.now()
        default = (now + timedelta(days=7)).date().isoformat()

        def done(text: str | None) -> None:
            if text:
                self._snooze(cid, parse_until(text, now))

        self.app.push_screen(InputModal(
            f"Snooze {cid} until", Text.assemble((c.title, "bold"), ("\nIt reopens then; after 3 snoozes the queue warns.",
                                                                    "dim")),
            placeholder="YYYY-MM-DD, an ISO time, or 7d", value=default, validate=lambda t: snooze_error(t, now)), done)

    def after_decision(self, receipt: Receipt) -> None:
        d = receipt.details
        # After a decision the cursor stays put, on the next conflict; after an undo it follows the reopened one.
        self.refresh_data(prefer=d.get("conflict_id") if receipt.action == "undo" else None)

    def undo_summary(self, receipt: Receipt) -> str:
        return f"undo {receipt.details.get('action', '')} {receipt.details.get('conflict_id') or ''}".strip()

"""Conflicts pane (SPEC §5.1, §6): arbitrate open contradictions — keep existing, take incoming, both valid, snooze.

The queue on top (newest first), the selected conflict's two sides side by side below it with provenance and the
words that differ emphasised. One key per decision; the cursor then sits on the next conflict. A side past its
`expires_at` says so. `a` switches to the conflicts that are snoozed right now (until when, how often), where the
same keys decide them early.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events, work
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from memkeeper.core import Engine, Receipt
from memkeeper.core.conflicts import SNOOZE_WARN_AFTER, Conflict, existing_text
from memkeeper.core.models import Entry, inert_text, parse_iso
from memkeeper.core.quiz_ledger import zone_named

from ..widgets.fmt import ago
from ..widgets.queue_modals import snooze_error
from ..widgets.queue_sides import ConflictSide, expiry_text, provenance_grid, word_diff
from ..widgets.queue_table import QueueTable
from .base import PaneScreen
from .modals import InputModal, TextModal

TYPE_LABELS = {
    "direct_negation": "negation",
    "mutually_exclusive": "exclusive",
    "quantitative_drift": "drift",
    "decision_supersession": "supersession",
    "source_disagreement": "sources",
    "possible": "possible?",
}
POSSIBLE_STYLE = "italic yellow"
#: Rows a side needs for its wide provenance and a few lines of its statement; fewer, and it is shown compact.
WIDE_SIDE_ROWS = 16
#: Conflict records that cannot be read, listed above the queue before "… and N more".
PROBLEMS_SHOWN = 2
#: Rows after (and one before) the cursor whose existing records a read brings along, so that moving down the queue
#: shows each next conflict without waiting for a read of its own.
AHEAD = 3


@dataclass(frozen=True)
class Existing:
    """A conflict's existing side as memory holds it now, read in a worker: its record (None when gone), the page it
    is on, and whether that page is there but cannot be read."""

    entry: Entry | None
    page: str
    unreadable: bool


def read_existing(engine: Engine, c: Conflict) -> Existing:
    mid = str(c.existing.get("memory_id") or "")
    entry = engine.get(mid)
    # A page that is there but cannot be read (malformed, permission denied) is not gone: the index keeps it as a
    # bad page (and a record it could not read again as last read), and every decision on it refuses. Asked of the
    # engine for the side's page now, else the one the conflict recorded.
    page = (engine.page_of(mid) if entry is not None else None) or str(c.existing.get("page") or "")
    return Existing(entry, page, bool(engine.page_unreadable(page)))


@dataclass(frozen=True)
class Queue:
    """What one read of the queue found (`ConflictsScreen._load`)."""

    mode: str
    open_now: list[Conflict]
    snoozed: list[Conflict]
    existing: dict[str, Existing]


def type_cell(c: Conflict) -> Text:
    """The Type column: a possible conflict is marked (detection is not sure; "both valid" clears it)."""
    if c.possible:
        return Text(TYPE_LABELS["possible"], style=POSSIBLE_STYLE)
    return Text(TYPE_LABELS.get(c.conflict_type, inert_text(c.conflict_type)) + ("*" if c.declared else ""))


CHOICE_LABELS = {"existing": "keep existing", "incoming": "take incoming", "both": "both valid"}
OPEN, SNOOZED = "open", "snoozed"


def _age(detected_at: str, now: datetime) -> str:
    try:
        return ago(parse_iso(detected_at), now)
    except ValueError:
        return "?"


def _until(c: Conflict, this_year: int | None = None) -> str:
    """A snooze end as the list shows it: the date, or "session" for a snooze that ends with this desk session."""
    until = c.snooze_until or ""
    if until.startswith("session:"):
        return "session"
    # The month and day in the year the desk is in; the whole date past it ("12-31" read as this December).
    return (until[5:10] if this_year is not None and until[:4] == str(this_year) else until[:10]) or "?"


def _expires(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value
    try:
        return parse_iso(str(value)) if value else None
    except ValueError:
        return None


class ConflictsScreen(PaneScreen):
    PANE_ID = "conflicts"
    CURSOR_DECISIONS = frozenset({"keep", "take", "both", "snooze", "snooze_until", "edit"})
    # Dimmed in the footer while the list is empty, yet pressed they say so (a key that does nothing silently
    # reads as a key that is broken).
    ANSWERING = CURSOR_DECISIONS
    PANE_TITLE = "Conflicts"
    STATUS_HINT = (
        "Resolutions are appended to DECISIONS.md with both sides' provenance; the loser is marked "
        "superseded, never deleted.",
        "Resolutions go to DECISIONS.md; the loser is superseded, never deleted.",
    )

    BINDINGS = [
        Binding("k", "keep", "Keep existing", id="conflicts.keep"),
        Binding("i", "take", "Take incoming", id="conflicts.take"),
        Binding("b", "both", "Both valid", id="conflicts.both"),
        Binding("s", "snooze", "Snooze", id="conflicts.snooze"),
        Binding("S", "snooze_until", "Snooze until…", id="conflicts.snooze_until"),
        Binding("u", "undo", "Undo", id="conflicts.undo"),
        Binding("a", "toggle_snoozed", "Open/snoozed", id="conflicts.toggle_snoozed"),
        Binding("e", "edit", "Edit existing", id="conflicts.edit"),
        # Not in the footer: a side cut short says which key shows it whole.
        Binding("v", "whole", "Whole statements", show=False, id="conflicts.whole"),
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
    ConflictsScreen ConflictSide { border-subtitle-color: $text-muted; }
    ConflictsScreen.-narrow #conflict-list { min-height: 5; }
    ConflictsScreen.-narrow #conflict-sides { max-height: 60%; }
    ConflictsScreen #conflict-problems {
        height: auto;
        padding: 0 1;
        color: $warning;
        background: $warning 10%;
        display: none;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.mode = OPEN
        self._by_id: dict[str, Conflict] = {}
        self._last_key: dict[str, str | None] = {OPEN: None, SNOOZED: None}
        #: The screen size the sides were last cut for (`_side_fit`); None until they are first shown.
        self._shown_for: tuple[int, int] | None = None
        #: Existing sides read in workers, by conflict id: those about the cursor as of the last read.
        self._existing: dict[str, Existing] = {}
        #: The last read of the queue (None until the first is in): the pane draws from it, never from the engine.
        self._queue: Queue | None = None
        #: The conflicts whose existing sides a worker is reading now, and how many reads of the queue are in: a side
        #: read before the last one is not taken.
        self._reading: set[str] = set()
        self._generation = 0
        #: The conflict a read was asked to put the cursor on (an undo's reopened one) until a read has come in: a
        #: newer read (another process's write, heard by the watcher) cancels the one that asked, and takes it over.
        self._prefer: str | None = None

    # ------------------------------------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Vertical(id="conflicts-body"):
            yield Static(id="conflict-problems")
            yield QueueTable(
                ("ID", 4),
                ("Type", 12),
                ("Title", 42),
                ("Age", 7),
                ("Snz", 4),
                ("Incoming from", 22),
                id="conflict-list",
                flex={"title": (3, 14, 60), "incoming from": (2, 10, 24)},
            )
            yield Static(id="conflict-meta")
            with Horizontal(id="conflict-sides"):
                yield ConflictSide(id="side-existing", classes="-existing")
                yield ConflictSide(id="side-incoming", classes="-incoming")
            yield Static(id="conflict-empty", classes="empty-state")

    def on_mount(self) -> None:
        # Until the first read is in: the list's frame, and no "No open conflicts" that may not be true.
        self.query_one("#conflict-empty").display = False
        self.table.border_title = "Open conflicts (…)"
        self.refresh_data()

    # ------------------------------------------------------------------------------------------------ data

    @property
    def table(self) -> QueueTable:
        return self.query_one("#conflict-list", QueueTable)

    def _row(self, c: Conflict) -> list[str | Text]:
        warn = c.snooze_count >= SNOOZE_WARN_AFTER
        snoozed = (
            Text(f"⚠{c.snooze_count}×", style="bold yellow")
            if warn
            else Text(f"{c.snooze_count}×" if c.snooze_count else "—", style="dim")
        )
        return [
            Text(c.conflict_id, style="bold"),
            type_cell(c),
            Text(inert_text(c.title), no_wrap=True, overflow="ellipsis"),
            _until(c, self.now().year) if self.mode == SNOOZED else _age(c.detected_at, self.now()),
            snoozed,
            Text(inert_text(str(c.incoming.get("actor") or "")), no_wrap=True, overflow="ellipsis"),
        ]

    def show_problems(self) -> None:
        """One line for each conflict record the queue leaves out because it cannot be read: the desk never lists a
        queue short of a record without saying so. The lines come from the engine, read by the app's count worker
        (`MemkeeperApp.conflict_problems`)."""
        problems = self.mk.conflict_problems
        widget = self.query_one("#conflict-problems", Static)
        widget.display = bool(problems)
        if not problems:
            return
        text = Text()
        for line in problems[:PROBLEMS_SHOWN]:
            text.append("⚠ not listed: ", style="bold")
            text.append(inert_text(line) + "\n")
        if len(problems) > PROBLEMS_SHOWN:
            text.append(f"… and {len(problems) - PROBLEMS_SHOWN} more (memkeeper check lists them)\n")
        text.rstrip()
        widget.update(text)

    def refresh_data(self, prefer: str | None = None) -> None:
        """Read the queue again, in a worker (`_load`): at thousands of conflicts a read takes tens of milliseconds,
        and the desk never waits on the engine on its UI thread. The list on screen stays until the read is in."""
        self.show_problems()
        # The rows the cursor may sit on when the read is in: the one asked for (now, or by a read this one cancels),
        # the one it is on, and (the one it is on decided meanwhile) those after it.
        self._prefer = prefer or self._prefer
        wanted = ([self._prefer] if self._prefer else []) + self._around()
        self._load(self.mode, self.now(), self.mk.session_id, wanted)

    def _around(self) -> list[str]:
        """The key under the cursor, those of the AHEAD rows below it, then the row above: the sides read ahead,
        and, in this order, where the cursor goes when the queue is read again (`_loaded`: the first still listed)."""
        table, at = self.table, self.table.cursor_row
        rows = [*range(at, at + AHEAD + 1), *([at - 1] if at > 0 else [])]
        return [item[0] for row in rows if (item := table.item_at(row))]

    @work(thread=True, exclusive=True, group="conflicts-load", exit_on_error=False)
    def _load(self, mode: str, now: datetime, session: str | None, wanted: list[str]) -> None:
        engine = self.engine
        unresolved = engine.conflicts()
        open_now = [c for c in unresolved if c.is_open_at(now, session)]
        # Snoozed at this moment: a snooze that ran out, or a session snooze of an earlier session, is open again.
        snoozed = [c for c in unresolved if c.status == "snoozed" and not c.is_open_at(now, session)]
        listed = open_now if mode == OPEN else snoozed
        by_id = {c.conflict_id: c for c in listed}
        # The first rows too: the cursor goes to the top of a list it was not on.
        ids = [k for k in wanted if k in by_id] + [c.conflict_id for c in listed[: AHEAD + 1]]
        existing = {k: read_existing(engine, by_id[k]) for k in dict.fromkeys(ids)}
        if get_current_worker().is_cancelled:
            return  # a newer read runs: it reads the same and more
        self.app.call_from_thread(self._loaded, Queue(mode, open_now, snoozed, existing), wanted)

    def _loaded(self, queue: Queue, wanted: list[str]) -> None:
        if queue.mode != self.mode:
            return  # the person switched lists meanwhile; that switch started a read of its own
        # The row asked for, else the one under the cursor, else (decided meanwhile) the first after it still listed.
        # (The first of `wanted` alone was the row above the cursor when none was asked for: every read, after a
        # decision, a refresh or another process's write, moved the cursor up a row, onto a conflict passed over.)
        listed = {c.conflict_id for c in (queue.open_now if queue.mode == OPEN else queue.snoozed)}
        listed -= set(self.table.withheld)
        prefer = next((k for k in wanted if k in listed), None)
        self._prefer = None
        self._queue = queue
        self._existing = dict(queue.existing)
        self._generation += 1
        self._reading = set()
        self._show_queue(prefer)

    def _read_ahead(self) -> None:
        """Read, in a worker, the existing sides about the cursor that are neither held nor being read."""
        missing = [k for k in self._around() if k not in self._existing and k not in self._reading and k in self._by_id]
        if missing:
            self._reading.update(missing)
            self._read_existing(self._generation, [self._by_id[k] for k in missing])

    @work(thread=True, group="conflicts-read", exit_on_error=False)
    def _read_existing(self, generation: int, conflicts: list[Conflict]) -> None:
        found = {c.conflict_id: read_existing(self.engine, c) for c in conflicts}
        self.app.call_from_thread(self._existing_read, generation, found)

    def _existing_read(self, generation: int, found: dict[str, Existing]) -> None:
        if generation != self._generation:
            return  # read before the queue was read again: that read's sides are newer
        self._reading.difference_update(found)
        self._existing.update(found)
        if self.table.current_key in found:
            self._show_detail()

    def _show_queue(self, prefer: str | None = None) -> None:
        queue = self._queue
        if queue is None:
            return
        open_now, snoozed = queue.open_now, queue.snoozed
        conflicts = open_now if self.mode == OPEN else snoozed
        withheld = self.table.withheld  # decided, the receipt on its way
        conflicts = [c for c in conflicts if c.conflict_id not in withheld]
        self._by_id = {c.conflict_id: c for c in conflicts}
        self.table.set_label("age", "Until" if self.mode == SNOOZED else "Age")
        # The cells are drawn for the rows on screen only (`_row`), however long the queue.
        self.table.rebuild(((c.conflict_id, c) for c in conflicts), self._row, prefer=prefer)
        if self.mode == OPEN:
            title = f"Open conflicts ({len(conflicts)})"
            warned = sum(1 for c in conflicts if c.snooze_count >= SNOOZE_WARN_AFTER)
            if warned:
                title += f" · ⚠ {warned} snoozed {SNOOZE_WARN_AFTER}+ times"
            subtitle = f"a: snoozed ({len(snoozed)})"
        else:
            title = f"Snoozed conflicts ({len(conflicts)})"
            subtitle = f"a: open ({len(open_now)})"
        self.table.border_title = title
        self.table.border_subtitle = subtitle
        empty = not conflicts
        for sel in ("#conflict-list", "#conflict-meta", "#conflict-sides"):
            self.query_one(sel).display = not empty
        self.query_one("#conflict-empty").display = empty
        if not empty:
            self.focus_list_again(self.table)
        if empty:
            key = self.mk.key_for("conflicts.toggle_snoozed") or "a"
            self.query_one("#conflict-empty", Static).update(
                Text.assemble(
                    *(
                        (
                            ("No open conflicts\n\n", "bold"),
                            ("When an agent's new claim contradicts memory, the write halts and lands here.\n", "dim"),
                            (f"{key}: snoozed conflicts ({len(snoozed)})", "dim"),
                        )
                        if self.mode == OPEN
                        else (
                            ("Nothing is snoozed\n\n", "bold"),
                            ("A snoozed conflict waits here until its date, or until this desk session ends.\n", "dim"),
                            (f"{key}: back to the open conflicts ({len(open_now)})", "dim"),
                        )
                    )
                )
            )
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
        if c.possible:
            meta.append("possible conflict ", style=f"bold {POSSIBLE_STYLE}")
            if c.suspected:
                meta.append(f"({inert_text(c.suspected.replace('_', ' '))}?)", style=POSSIBLE_STYLE)
            both = self.mk.key_for("conflicts.both") or "conflicts.both"
            meta.append(f" — not sure; {both} both valid clears it for good", style="yellow")
        else:
            meta.append(inert_text(c.conflict_type), style="bold magenta")
            if c.declared:
                meta.append(f" (declared: {inert_text(c.declared)})", style="magenta")
        if c.confidence is not None:
            meta.append(f"  confidence {c.confidence:.2f}", style="dim")
        meta.append(f"  {inert_text(c.reason)}")
        meta.append(f"  · {inert_text(c.detected_by)} · {c.detected_at[:16].replace('T', ' ')}", style="dim")
        if c.snooze_count:
            style = "bold yellow" if c.snooze_count >= SNOOZE_WARN_AFTER else "dim"
            meta.append(f"  · snoozed {c.snooze_count}×", style=style)
            if self.mode == SNOOZED:
                meta.append(
                    " until "
                    + (
                        "the end of this session"
                        if _until(c) == "session"
                        else str(c.snooze_until)[:16].replace("T", " ")
                    ),
                    style=style,
                )
            if c.snooze_count >= SNOOZE_WARN_AFTER:
                meta.append(" — decide, or it keeps coming back", style="yellow")
        now = self.now()
        # The existing side's expiry is on its record (the conflict holds its text); the incoming side carries its own.
        mid = str(c.existing.get("memory_id") or "")
        known = self._existing.get(c.conflict_id)
        if known is None:
            self._read_ahead()  # shown as the conflict holds it until the read is in
        existing = known.entry if known is not None else None
        unreadable = known is not None and known.unreadable
        expiries = {
            "existing": existing.expires_at if existing is not None else None,
            "incoming": _expires(c.incoming.get("expires_at")),
        }
        expired = [side for side, at in expiries.items() if at is not None and at <= now]
        if expired:
            meta.append("  · " + " and ".join(expired) + " side expired", style="bold red")
        self.query_one("#conflict-meta", Static).update(meta)
        # The existing side as memory holds it now: its record may have been edited, superseded (by another
        # decision), denied or archived since the conflict was opened, and a decision acts on that record.
        held, current = str(c.existing.get("text", "")), _existing_now(c, existing)
        edited = " ".join(current.split()) != " ".join(held.split())
        if known is None:
            state, changes = "record", ["reading A as memory holds it now…"]
            edited = False
        elif unreadable:
            state = "unreadable record"
            changes = ["A's page cannot be read: mend it (memkeeper check names the problem), then decide"]
        elif existing is None:
            state = "gone from the wiki"
            changes = ["A is gone from the wiki"]
        else:
            state = f"{existing.status.value} record"
            changes = (
                [] if existing.status.value == "active" else [f"A is {existing.status.value} since it was detected"]
            )
        if edited:
            changes.append("A was edited since it was detected")
        if changes:
            meta.append("  · " + "; ".join(changes), style="bold yellow")
            self.query_one("#conflict-meta", Static).update(meta)
        a_text, b_text = word_diff(current, str(c.incoming.get("text", "")))
        mid = mid or "?"
        a_side = self.query_one("#side-existing", ConflictSide)
        b_side = self.query_one("#side-incoming", ConflictSide)
        fit, whole = self._side_fit(), self.mk.key_for("conflicts.whole")
        # Narrow, or too short for the wide provenance (ten rows and more) and a few lines of the statement: the
        # provenance in four rows, where the side lives on its border.
        compact = self.has_class("-narrow") or fit[1] < WIDE_SIDE_ROWS
        a_side.show_side(
            c.existing,
            a_text,
            f"{mid} · {c.existing.get('page') or ''}" if compact else f"{state} {mid} · {c.existing.get('page') or ''}",
            expiry_text(expiries["existing"], now),
            compact,
            fit,
            whole,
        )
        b_side.show_side(
            c.incoming,
            b_text,
            _incoming_where(c, compact),
            expiry_text(expiries["incoming"], now),
            compact,
            fit,
            whole,
        )
        self._shown_for = (self.size.width, self.size.height)
        keep, take = self.mk.key_for("conflicts.keep"), self.mk.key_for("conflicts.take")
        a_side.border_title = "A · existing" + (" · expired" if "existing" in expired else "") + f"   {keep} keep"
        b_side.border_title = "B · incoming" + (" · expired" if "incoming" in expired else "") + f"   {take} take"

    def _side_fit(self) -> tuple[int, int]:
        """(columns, rows) a side's content may take: the sides are at most 65% of the pane's height (60% when
        narrow; `#conflict-sides`), less their borders, and half its width each, less border and padding."""
        body = self.query_one("#conflicts-body")
        height = body.size.height or max(0, self.app.size.height - 3)
        width = body.size.width or self.app.size.width
        share = 60 if self.has_class("-narrow") else 65
        return width // 2 - 4, height * share // 100 - 2

    def on_resize(self, event: events.Resize) -> None:
        # A taller or shorter terminal has room for more or less of a long statement (the width's class change
        # re-renders through `narrow_changed`).
        if self._shown_for not in (None, (event.size.width, event.size.height)):
            self.call_after_refresh(self._show_detail)

    def action_whole(self) -> None:
        """Both statements whole, with their whole provenance, in a dialog that scrolls: a side shows as much of a
        long statement as the screen has room for."""
        c = self._decidable()
        if c is None:
            return
        known = self._existing.get(c.conflict_id)
        if known is None:
            self.say("Still reading the existing record; ask again in a moment.", "yellow")
            return
        existing = known.entry
        a_text, b_text = word_diff(_existing_now(c, existing), str(c.incoming.get("text", "")))
        now = self.now()
        parts: list[RenderableType] = []
        for label, style, side, text, expires in (
            ("A · existing", "bold #e8a33d", c.existing, a_text, existing.expires_at if existing else None),
            ("B · incoming", "bold #3dbde8", c.incoming, b_text, _expires(c.incoming.get("expires_at"))),
        ):
            parts += [
                Text(label, style=style),
                text,
                Text(""),
                provenance_grid(side, expiry_text(expires, now), whole=True),
                Text(""),
            ]
        self.app.push_screen(TextModal(f"{c.conflict_id} · both statements whole", Group(*parts)))

    def on_virtual_table_row_highlighted(self, event: QueueTable.RowHighlighted) -> None:
        self._read_ahead()
        self._show_detail()

    def applies(self, action: str) -> bool:
        return bool(self._by_id) if action in self.ANSWERING else True

    def _decidable(self) -> Conflict | None:
        """The conflict under the cursor; with none, the status line says why the key did nothing."""
        c = self.current if self._by_id else None  # (nothing listed yet: the table may not be built)
        if c is None:
            toggle = self.mk.key_for("conflicts.toggle_snoozed") or "a"
            if self.mode == OPEN:
                self.say(
                    (
                        f"No open conflict to decide ({toggle} shows the snoozed ones).",
                        "No open conflict to decide.",
                    ),
                    "yellow",
                )
            else:
                self.say(
                    (f"No snoozed conflict to decide ({toggle} shows the open ones).", "No snoozed conflict."),
                    "yellow",
                )
        return c

    # ------------------------------------------------------------------------------------------------ decisions

    def _resolve(self, choice: str) -> None:
        c = self._decidable()
        if c is None:
            return
        cid = c.conflict_id

        def summary(receipt: Receipt) -> str:
            text = f"{cid} {CHOICE_LABELS[choice]}"
            state = receipt.details.get("existing_status")
            if receipt.ok and choice == "existing" and state not in (None, "active"):
                text += f" → the incoming statement is not taken; {receipt.details.get('winner')} stays {state}"
            elif receipt.ok and receipt.details.get("winner"):
                text += f" → {receipt.details['winner']} active"
            opened = receipt.details.get("opened") if receipt.ok else None
            if opened:  # the kept statement contradicts a record captured while it waited
                text += f"; it contradicts {opened['memory_id']}: {opened['conflict_id']} opened"
            return text

        self.decide(
            partial(self.engine.resolve_conflict, cid, choice, now=self.now(), actor=self.actor), summary, rows=(cid,)
        )

    def action_keep(self) -> None:
        self._resolve("existing")

    def action_take(self) -> None:
        self._resolve("incoming")

    def action_both(self) -> None:
        self._resolve("both")

    def _snooze(self, conflict_id: str, until: str | None) -> None:
        """Snooze for this session (`until` None), or until what the person typed, given to the engine as typed (as
        the command line's `--snooze` gives it): the engine reads it, and its receipt says when the snooze ends."""

        def when(r: Receipt) -> str:
            return (
                "the end of this session" if until is None else str(r.details.get("until", ""))[:16].replace("T", " ")
            )

        self.decide(
            partial(
                self.engine.snooze_conflict,
                conflict_id,
                now=self.now(),
                actor=self.actor,
                until=until,
                session=self.mk.session_id,
            ),
            lambda r: (
                # A snooze still running moves its end: not one more snooze (the count is of returns)
                f"{conflict_id} snooze moved to {when(r)} (still {r.details.get('snooze_count', 0)}×)"
                if r.details.get("redated")
                else f"{conflict_id} snoozed until {when(r)} ({r.details.get('snooze_count', 0)}×)"
                + (" — decide it soon: it keeps coming back" if r.details.get("warning") else "")
            ),
            rows=(conflict_id,) if self.mode == OPEN else (),
        )

    def action_snooze(self) -> None:
        c = self._decidable()
        if c is not None:
            self._snooze(c.conflict_id, None)

    def action_snooze_until(self) -> None:
        c = self._decidable()
        if c is not None:
            self._ask_snooze_until(c, self.actor, self.now())

    @work(thread=True, exclusive=True, group="conflicts-zone", exit_on_error=False)
    def _ask_snooze_until(self, c: Conflict, actor: str, now: datetime) -> None:
        # The dialog reads a date in the person's time zone, as the engine will: the zone is in their quiz ledger,
        # read here rather than on the UI thread.
        zone = self.engine.person_zone(actor)
        if not get_current_worker().is_cancelled:  # `S` again meanwhile: that one opens the dialog
            self.app.call_from_thread(self._snooze_dialog, c, now, zone)

    def _snooze_dialog(self, c: Conflict, now: datetime, zone: str) -> None:
        cid = c.conflict_id
        default = (now.astimezone(zone_named(zone)) + timedelta(days=7)).date().isoformat()

        def done(text: str | None) -> None:
            if text:
                self._snooze(cid, text)

        snoozed = c.status == "snoozed" and not c.is_open_at(now, self.mk.session_id)
        self.app.push_screen(
            InputModal(
                f"Move {cid}'s snooze to" if snoozed else f"Snooze {cid} until",
                Text.assemble(
                    (inert_text(c.title), "bold"),
                    (
                        "\nIt reopens then; a new date for a snooze still running is not another snooze."
                        if snoozed
                        else "\nIt reopens then; after 3 snoozes the queue warns.",
                        "dim",
                    ),
                ),
                placeholder="YYYY-MM-DD, an ISO time, or 7d",
                value=default,
                validate=lambda t: snooze_error(t, now, zone),
            ),
            done,
        )

    def narrow_changed(self, narrow: bool) -> None:
        self._show_detail()

    def action_edit(self) -> None:
        """Edit the existing side's page (the incoming side is not a page until it is taken)."""
        c = self._decidable()
        if c is not None:
            self.edit_page(str(c.existing.get("page") or "") or None)

    def action_toggle_snoozed(self) -> None:
        self._last_key[self.mode] = self.table.current_key
        self.mode = SNOOZED if self.mode == OPEN else OPEN
        self.refresh_data(prefer=self._last_key[self.mode])

    def withhold_rows(self, rows: Sequence[str]) -> None:
        # The decided conflict leaves the list now; the cursor stays put, on the next one. No re-read: the engine
        # has not written yet, and the list is what the last read showed less these rows.
        self.table.withhold(rows)
        if not self.table.row_count:
            self.refresh_data()  # the empty state says what else there is
            return
        self.table.border_title = re.sub(r"\(\d+\)", f"({self.table.row_count})", str(self.table.border_title), count=1)
        self._show_detail()
        self.refresh_bindings()

    def release_rows(self, rows: Sequence[str], failed: bool) -> None:
        self.table.release(rows)
        if failed:
            self.refresh_data(prefer=rows[0])

    def after_decision(self, receipt: Receipt) -> None:
        d = receipt.details
        # After a decision the cursor stays put, on the next conflict; after an undo it follows the reopened one.
        self.refresh_data(prefer=d.get("conflict_id") if receipt.action == "undo" else None)

    def undo_summary(self, receipt: Receipt) -> str:
        return f"undo {receipt.details.get('action', '')} {receipt.details.get('conflict_id') or ''}".strip()


def _existing_now(c: Conflict, existing: Entry | None) -> str:
    """The existing side as memory holds it now (its record may have been edited since the conflict was opened),
    else as the conflict holds it."""
    return str(c.existing.get("text", "")) if existing is None else existing_text(existing.content)


def _incoming_where(c: Conflict, compact: bool) -> str:
    """Where the incoming side lives: held in the conflict record, or (declared by an agent after it captured the
    statement) a record already, which keeping the existing side supersedes."""
    stored = c.incoming.get("memory_id")
    if stored:
        where = f"{stored} · {c.incoming.get('page') or ''}"
        return where if compact else f"record {where} — superseded if A is kept"
    if compact:
        return f"held in conflicts/{c.conflict_id}.md"
    return f"held in conflicts/{c.conflict_id}.md — not stored as memory until taken"

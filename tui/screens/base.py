"""The base of every pane: access to the engine, the injected clock, the actor, the shared chrome, and the one way a
pane decides (`decide`) and undoes (`action_undo`)."""

from __future__ import annotations

import os
import shlex
import subprocess
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual._context import active_app
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker, WorkerState, get_current_worker

from memkeeper.core import Engine, MemkeeperError, Receipt
from memkeeper.core.models import UNRECORDED_STATUSES

from ..messages import DecisionMade
from ..widgets.footer import COMPACT_BELOW, DeskFooter
from ..widgets.status_line import StatusLine, Wording

if TYPE_CHECKING:
    from memkeeper.tui.app import MemkeeperApp

#: Below this many columns a pane is "narrow": lists stack above their detail panel (80×24 is the floor), and the
#: footer goes compact.
NARROW_WIDTH = COMPACT_BELOW


def failure_text(error: BaseException | None) -> str:
    """One line for a failed call: an engine error is its message (meant for a person); anything else is an internal
    failure and says its type."""
    if isinstance(error, MemkeeperError):
        return str(error)
    text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    return text.splitlines()[0]


def refusal_line(receipt: Receipt) -> str:
    """The default error toast for a refused decision: what, the status, the receipt, and the engine's reason, with
    what it says to do about it where it says (`detail`: who confirmed a record, which page to mend)."""
    recorded = "nothing recorded" if receipt.status in UNRECORDED_STATUSES else receipt.receipt_sha256[:12]
    text = f"{receipt.action} · {receipt.status} · {recorded}"
    if receipt.details.get("reason"):
        text += f"\n{receipt.details['reason']}"
    if isinstance(receipt.details.get("detail"), str):
        text += f"\n{receipt.details['detail']}"
    return text


#: What the status line says about a decision: a text, or a function of the receipt when the receipt adds to it.
Summary = str | Callable[[Receipt], str]


class BatchFailed(Exception):
    """A call of `one_by_one` failed part way: `done` holds the receipts of the calls that went through."""

    def __init__(self, done: list[Receipt], error: BaseException) -> None:
        super().__init__(str(error))
        self.done = done
        self.error = error


def one_by_one(method: Callable[..., Receipt], refs: Sequence[str], **kwargs: Any) -> list[Receipt]:
    """`method(ref, **kwargs)` for every ref, in order, in the calling (worker) thread: the desk's stand-in for an
    engine call that decides many items under one receipt. Stops at the first failure (`BatchFailed`)."""
    done: list[Receipt] = []
    for ref in refs:
        try:
            done.append(method(ref, **kwargs))
        except MemkeeperError as exc:  # a typed refusal part way; anything else goes to the app's one guard
            raise BatchFailed(done, exc) from exc
    return done


class PaneScreen(Screen):
    """A pane. Subclasses implement `compose_body()` (their widgets; the counts bar and footer are added here) and
    `refresh_data()`, which re-reads from the engine and must keep the cursor/selection where it was.

    A pane changes memory only through `decide(call, summary)`: the engine call runs in a thread worker, its receipt
    comes back as a `DecisionMade` message, the app records it (undo stack, header counts; a toast only when it was
    refused), the pane's status line shows it, and `after_decision(receipt)` lets the pane refresh. `u`
    (`action_undo`) undoes the pane's last decision through the same path.

    Every pane has one status line (`STATUS_HINT` until something happens); `say(text)` puts a short outcome there.
    """

    PANE_ID: str = ""  # "browse" | "conflicts" | "verify" | "quiz" | "tiers" | "receipts"
    #: Actions that decide about the item under the cursor (or open it in an editor). Chosen in the command palette
    #: from another pane, they only open this pane: the person sees the item before deciding about it.
    CURSOR_DECISIONS: frozenset[str] = frozenset()
    #: Actions whose key answers when it does not apply: the footer dims it (`applies`), but pressed (or chosen in the
    #: palette) the action still runs and says in the status line why it does nothing. A person who read the keymap
    #: and presses the key never meets silence. Their `check_action` must not disable them.
    ANSWERING: frozenset[str] = frozenset()

    # The "nothing here" panel every queue shows when it is empty.
    DEFAULT_CSS = """
    PaneScreen .empty-state {
        height: 1fr;
        content-align: center middle;
        text-align: center;
        color: $text-muted;
        border: round $panel-lighten-2;
    }
    """
    PANE_TITLE: str = ""
    #: What the status line says before the first decision: one text, or several wordings of it, longest first (the
    #: line shows the first that fits; the last must fit 80 columns).
    STATUS_HINT: Wording = ""

    #: True from a decision key until its receipt has been handled (or its call failed). A second decision meanwhile
    #: would act on a cursor and an undo stack that are about to change, so it is refused with a bell.
    deciding: bool = False  # a decision is being written (or queued behind one)
    #: What the pane's styles were made under when it was last put away (`_style_context`); None before that.
    _styled_in: tuple[object, ...] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Textual re-parses every stylesheet and restyles the whole app when it first shows a mode whose screen has
        # not seen the app's latest CSS change (the theme set at start counts as one). A pane's widgets are styled
        # from the current stylesheet as they mount, and their DEFAULT_CSS is parsed on first use either way, so
        # that pass only slowed the first visit to each pane (by about a quarter). A theme change later restyles
        # every screen in the stack as before.
        try:
            self._css_update_count = active_app.get()._css_update_count
        except LookupError:  # built outside a running desk
            pass
        # Decisions in key order, the first one in flight: (call, summary, rows it took out of the list).
        self._decisions: deque[tuple[Callable[[], Receipt | list[Receipt]], Summary, tuple[str, ...]]] = deque()
        self._in_flight: Worker | None = None  # the worker writing the first of them

    def applies(self, action: str) -> bool:
        """Whether an `ANSWERING` action would act now (its key is live in the footer), or only say why it does not
        (dimmed)."""
        return True

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's, with the `ANSWERING` keys that do not apply right now dimmed: what the footer shows."""
        bindings = super().active_bindings
        for key, active in bindings.items():
            action = active.binding.action
            if active.enabled and active.node is self and action in self.ANSWERING and not self.applies(action):
                bindings[key] = active._replace(enabled=False)
        return bindings

    def compose(self) -> ComposeResult:
        from memkeeper.tui.widgets.countsbar import CountsBar

        yield CountsBar(self.PANE_ID)
        yield from self.compose_body()
        yield StatusLine(self.status_hint())
        yield DeskFooter()

    def status_hint(self) -> Wording:
        """The status line's text until something happens: `STATUS_HINT`, which a pane whose hint names a key
        overrides to name the key bound now."""
        return self.STATUS_HINT

    def compose_body(self) -> Iterable[Widget]:  # pragma: no cover - overridden
        return []

    @property
    def mk(self) -> MemkeeperApp:
        return self.app  # type: ignore[return-value]

    @property
    def engine(self) -> Engine:
        return self.mk.engine

    @property
    def actor(self) -> str:
        return self.mk.actor

    def now(self) -> datetime:
        return self.mk.now()

    def refresh_data(self) -> None:  # pragma: no cover - overridden
        """Re-read from the engine, keep the selection."""

    def on_mount(self) -> None:
        self._set_narrow(self.app.size.width)
        self.call_after_refresh(self.mk.pane_painted)

    def on_resize(self, event: events.Resize) -> None:
        self._set_narrow(event.size.width)

    def _set_narrow(self, width: int) -> None:
        # Below NARROW_WIDTH columns the panes stack their list above their detail (`.-narrow` in their CSS).
        narrow = width < NARROW_WIDTH
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
            self.narrow_changed(narrow)

    def narrow_changed(self, narrow: bool) -> None:
        """The terminal crossed NARROW_WIDTH: a pane whose content (not only its CSS) depends on it re-renders."""

    def edit_page(self, rel: str | None) -> None:
        """Open a wiki page in `$VISUAL` / `$EDITOR` (else `vi`) with the desk suspended, then re-read it: the index
        is resynced and every pane refreshes. The desk hands the editor the path; it never opens the file itself."""
        if not rel:
            self.say("Nothing to edit here: select a record.", "yellow")
            return
        try:
            path = self.engine.path(rel)  # confined to the wiki root
        except MemkeeperError as exc:
            self.mk.notify_error(str(exc), title="Edit")
            return
        editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
        try:
            with self.app.suspend():
                code = subprocess.call([*shlex.split(editor), str(path)])
        except SuspendNotSupported:
            self.mk.notify_error("This desk is not in a terminal it can hand to an editor.", title="Edit")
            return
        except (OSError, ValueError) as exc:  # no such editor, or an unparsable $EDITOR
            self.mk.notify_error(f"{editor}: {getattr(exc, 'strerror', None) or exc}", title="Edit")
            return
        exited = f" ({editor} exited with {code})" if code else ""
        name = rel.rsplit("/", 1)[-1]
        self.mk.reload_after_edit(rel, (f"Edited {rel}{exited}; re-read.", f"Edited {name}{exited}; re-read."))

    def focus_list_again(self, table: Widget) -> None:
        """Give a list shown again the focus, when nothing has it: hiding a list for its "nothing here" panel (an
        empty second list, a queue emptied) takes the focus from it, and the arrows, Home and End then did nothing
        until tab, while the decision keys acted on its first row."""
        if self.focused is None and table.display:
            table.focus()

    def _style_context(self) -> tuple[object, ...]:
        """What, outside this screen, its widgets' styles may depend on: the app's CSS generation (a theme or CSS
        change), its classes and its pseudo-classes (focus, dark or light, ANSI colours)."""
        app = self.app
        return (app._css_update_count, frozenset(app.classes), app.pseudo_classes)

    def on_screen_suspend(self) -> None:
        self._styled_in = self._style_context()

    @on(events.ScreenResume)
    def _keep_styles(self, event: events.ScreenResume) -> None:
        """Runs before Textual's own handler (`Screen._on_screen_resume`, a base class's). A mode switch back to a
        pane styled every widget of it again, though a class or pseudo-class change styles its widgets at once,
        suspended or not: only a change outside the screen while it was away calls for it. Browse's page of fifty
        list items is some 230 widgets, and styling them all held every switch back to Browse 70-130 ms."""
        if event.refresh_styles and self._styled_in == self._style_context():
            event.refresh_styles = False

    def on_screen_resume(self) -> None:
        if self.mk.is_stale(self.PANE_ID):
            self.mk.mark_fresh(self.PANE_ID)
            self.refresh_data()

    # ------------------------------------------------------------------------------------------------ deciding

    def decide(
        self, call: Callable[[], Receipt | list[Receipt]], summary: Summary, *, rows: Iterable[str] = ()
    ) -> None:
        """Run an engine decision off the UI thread.

        `call` takes no arguments and returns the receipt: bind its arguments (the clock and the actor included) on
        the UI thread, at the key press. `summary` is what the status line says next to the receipt status. An
        engine error (`MemkeeperError`) is shown as one line and the desk stays open; so is any other failure, by
        the app's one guard (`MemkeeperApp.worker_failed`).

        `rows`: the list rows the decision takes out of the queue. They leave the list at once and the next item is
        shown before the engine has written (`withhold_rows`); when the write fails they come back (the pane
        re-reads). A decision with rows may be taken while an earlier one is still being written: the item it
        acts on was on screen when the key was pressed. They run one after the other, in key order. A decision
        without rows (an undo, a snooze that keeps the row) waits for the one in flight: the key only rings.

        A call may also return a list of receipts (`partial(one_by_one, engine.confirm, ids, …)`): they land as one
        batch, which one undo reverses whole. When a call fails part way, the receipts already written still land.
        """
        rows = tuple(rows)
        if self.deciding and not rows:
            self.app.bell()
            return
        if rows:
            self.withhold_rows(rows)
        self._decisions.append((call, summary, rows))
        if not self.deciding:
            self._next_decision()

    def _next_decision(self) -> None:
        if not self._decisions:
            self.deciding = False
            return
        self.deciding = True
        call, summary, rows = self._decisions[0]
        self._in_flight = self._decision_worker(call, summary)

    def _decision_done(self, worker: Worker | None, failed: bool) -> None:
        """The decision `worker` ran has landed, or failed (an error, or a receipt that refused it): its rows are no
        longer withheld (decided, they are gone from what the engine lists; refused, they come back), and the next
        queued decision starts. A batch that fails part way reports twice (the receipts it wrote, then its error):
        only the first report finishes it."""
        if worker is None or worker is not self._in_flight:
            return
        self._in_flight = None
        if self._decisions:
            _call, _summary, rows = self._decisions.popleft()
            if rows:
                self.release_rows(rows, failed)
        self._next_decision()

    def withhold_rows(self, rows: Sequence[str]) -> None:
        """Take decided rows out of the pane's list at once (the cursor lands on the next one). Panes with a list
        override it; by default nothing is shown before the receipt comes back."""

    def release_rows(self, rows: Sequence[str], failed: bool) -> None:
        """Rows no longer withheld: their decision landed, or `failed` and they belong in the list again."""

    @work(thread=True, group="decision", exit_on_error=False)
    def _decision_worker(self, call: Callable[[], Receipt | list[Receipt]], summary: Summary) -> None:
        before = len(self.engine.unfinished_writes)
        try:
            # The receipts are noted as ours before the write counts as ended: in between, the watcher would take
            # the change for another process's and rescan the wiki.
            with self.mk.own_write():
                try:
                    result = call()
                except BatchFailed as failed:
                    self.mk.note_own(failed.done)
                    raise
                receipts = result if isinstance(result, list) else [result]
                self.mk.note_own(receipts)
        except BatchFailed as failed:
            if failed.done:
                self._post_decision(failed.done, summary, self.engine.unfinished_writes[before:])
            raise failed.error from None
        self._post_decision(receipts, summary, self.engine.unfinished_writes[before:])

    def _post_decision(self, receipts: list[Receipt], summary: Summary, unfinished: Sequence[str] = ()) -> None:
        if not receipts:
            return
        text = summary(receipts[-1]) if callable(summary) else summary
        self.post_message(
            DecisionMade(
                receipts[-1], self.PANE_ID, text, tuple(receipts), get_current_worker(), unfinished=tuple(unfinished)
            )
        )

    def on_decision_made(self, message: DecisionMade) -> None:
        # The app records the receipts here rather than when the message would bubble up to it: by the time the pane
        # takes its next decision key, an undo must find them on the undo stack.
        message.stop()
        receipts = list(message.batch) or [message.receipt]
        self.mk.decisions_made(receipts, message.pane, self.refusal_text)
        self.status.show_receipts(
            receipts, message.summary, self.undo_offer(receipts), unfinished=bool(message.unfinished)
        )
        self.mk.notify_unfinished(message.unfinished)
        self.after_decision(message.receipt)
        # After the pane has seen the receipt: a refused one puts its rows back.
        self._decision_done(message.worker, failed=not all(r.ok for r in receipts))

    def undo_offer(self, receipts: Sequence[Receipt]) -> str:
        """The undo key the status line offers after these receipts: the pane's, when `u` would undo them (they went
        on its undo stack: the engine takes them as decisions to reverse, `Engine.can_undo`); else "" (a run that
        changed nothing, or a receipt of no decision, offered an undo the engine then refused as `not_undoable`)."""
        if not any(r.ok and r.receipt_sha256 and self.engine.can_undo(r) for r in receipts):
            return ""
        return self.mk.key_for(f"{self.PANE_ID}.undo")

    def refusal_text(self, receipt: Receipt) -> str:
        """What the error toast says when the engine refused a decision (the status line says it too, in one line)."""
        return refusal_line(receipt)

    def after_decision(self, receipt: Receipt) -> None:
        """The pane's turn once a decision or an undo has landed (any status): by default, re-read keeping the
        cursor. Panes override it to pick what to select, or to say more than the status line does."""
        self.refresh_data()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        decision = event.worker.group == "decision"
        if event.state == WorkerState.ERROR:
            # Textual reports a worker's state only to the node that started it: failures go on to the app's guard.
            self.mk.worker_failed(event.worker)
            if decision:
                self.status.show_error(failure_text(event.worker.error))
                self.after_failure(event.worker.error)
                self.refresh_data()  # the call may have failed half way, or on a record that has gone: show that
        if decision and event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            # Last: the rows come back with the cursor on the first of them (the pane's own re-read, started after
            # the one above, is the one that lands), as after a refusal.
            self._decision_done(event.worker, failed=True)

    def after_failure(self, error: BaseException | None) -> None:
        """A pane's own answer to a decision the engine could not take (the status line has said why)."""

    @property
    def status(self) -> StatusLine:
        """The pane's one status area (receipts, outcomes, hints)."""
        return self.query_one(StatusLine)

    def say(self, text: Wording, style: str = "") -> None:
        """Put a short outcome in the status line: why a key did nothing, what a reload or a copy did. Several
        wordings (longest first): the line shows the first that fits, so no sentence loses its end at 80 columns."""
        self.status.show_text(text, style)

    # ------------------------------------------------------------------------------------------------ undo

    def action_undo(self) -> None:
        """Undo the newest decision taken in this pane: a new receipt that names the one it reverses."""
        stack = self.mk.undo_stack(self.PANE_ID)
        if self.deciding:  # the receipt still on its way may be the one to undo
            self.app.bell()
            return
        if not stack:
            self.say("Nothing to undo in this pane.", "yellow")
            return
        batch = self.mk.batch_of(self.PANE_ID, stack[-1])
        shas = [r.receipt_sha256 for r in reversed(batch)]  # newest first: each undo finds its record as it left it
        if len(shas) == 1:
            target = batch[-1]

            def summary(receipt: Receipt) -> str:
                if receipt.ok:
                    return self.undo_summary(receipt)
                # Refused (a later decision or capture changed what it decided): say which decision, and that it
                # leaves this pane's undo list, so the next `u` is not taken for a second try at it.
                return (
                    f"undo {target.action} {_subject(target)}".rstrip()
                    + " · off the undo list: u undoes the one before"
                )

            # Said at once: an undo writes back a record, a conflict and the views (0.1-0.2 s at scale), and the pane
            # showed nothing of it meanwhile.
            self.say(f"Undoing {target.action} {_subject(target)}".rstrip() + "…", "dim")
            self.decide(partial(self.engine.undo, shas[0], now=self.now(), actor=self.actor), summary)
        else:
            self.say(f"Undoing {len(shas)} × {batch[-1].action}…", "dim")
            self.decide(
                partial(one_by_one, self.engine.undo, shas, now=self.now(), actor=self.actor),
                f"undo {len(shas)} × {batch[-1].action}",
            )

    def undo_summary(self, receipt: Receipt) -> str:
        """The status line after an undo (runs in the decision worker: use the receipt, not the screen)."""
        return f"undo {receipt.details.get('action', '')}".rstrip()


def _subject(receipt: Receipt) -> str:
    """What a decision was about, as its receipt names it: a conflict, a record, or how many records."""
    return decision_subject(receipt.details)


def decision_subject(details: Any) -> str:
    """What a decision was about, from its receipt's details (a stored receipt's too): a conflict, a record, or how
    many records; "" when they name none of these."""
    d = details if isinstance(details, dict) else {}
    if isinstance(d.get("conflict_id"), str):
        return d["conflict_id"]
    if isinstance(d.get("memory_id"), str):
        return d["memory_id"]
    ids = d.get("memory_ids")
    if isinstance(ids, list) and ids:
        return ids[0] if len(ids) == 1 else f"{len(ids)} records"
    return ""

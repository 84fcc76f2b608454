"""The memkeeper curation desk: one Textual app, six panes as modes (SPEC §6).

The app owns what the panes share: the opened engine, the actor, the injected clock, the session id, the quiz person,
the per-pane undo stacks, the header counts (computed in a worker so a big tier plan never freezes input), the wiki
watcher, and the keymap. Panes are `PaneScreen`s; they call the engine in thread workers (`PaneScreen.decide`) and
the app records each receipt through `decision_made`. Every worker runs with `exit_on_error=False`; a failure of any
of them reaches `worker_failed`, the desk's one guard, which shows it as one line and keeps the desk open.
"""

from __future__ import annotations

import asyncio
import gc
import secrets
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import App
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.notifications import SeverityLevel
from textual.reactive import var
from textual.widget import AwaitMount
from textual.worker import Worker, WorkerState, get_current_worker

from memkeeper.core import Engine, MemkeeperError, Receipt
from memkeeper.core.index import BadPage, GonePage, SyncFound
from memkeeper.core.models import REFUSED_STATUSES, inert_text
from memkeeper.core.validate import validate_actor

from .keymap import Keymap, KeymapError, binding_ids, default_keys, live_bindings, load_keymap, normalize_keys
from .screens.base import PaneScreen, failure_text, refusal_line
from .screens.browse import BrowseScreen
from .screens.conflicts import ConflictsScreen
from .screens.help import HelpScreen
from .screens.modals import ConfirmModal, InputModal, TextModal
from .screens.quiz import QuizScreen
from .screens.receipts import ReceiptsScreen
from .screens.tiers import TiersScreen
from .screens.verify import VerifyScreen
from .widgets.status_line import Wording

PANES: tuple[str, ...] = ("browse", "conflicts", "verify", "quiz", "tiers", "receipts")
PANE_SCREENS: dict[str, type[PaneScreen]] = {
    "browse": BrowseScreen,
    "conflicts": ConflictsScreen,
    "verify": VerifyScreen,
    "quiz": QuizScreen,
    "tiers": TiersScreen,
    "receipts": ReceiptsScreen,
}
PANE_TITLES: dict[str, str] = {pid: (cls.PANE_TITLE or pid.title()) for pid, cls in PANE_SCREENS.items()}

Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _as_clock(now: Clock | datetime | None) -> Clock:
    # The CLI's `--now ISO` arrives as a datetime: the whole session then acts at that instant, which keeps
    # scheduling and snapshots deterministic.
    if now is None:
        return _utc_now
    if isinstance(now, datetime):
        fixed = now if now.tzinfo else now.replace(tzinfo=UTC)
        return lambda: fixed
    return now


# The title of a failed worker's notification, by worker group (a pane's own workers take the pane's title).
FAILURE_TITLES = {
    "counts": "Counting failed",
    "tier-count": "Counting failed",
    "maintenance": "Maintenance failed",
    "sync": "Reload failed",
    "watch": "Watching the wiki stopped",
    "tiers-plan": "Tier plan failed",
    "bad-pages": "Reading the index failed",
    "tree-read": "Reading the index failed",
    "tree-rebuild": "Reading the index failed",
}

#: The most pages the echo of our own decision may name and still be checked page by page (else: a full sync).
ECHO_PAGES = 1000
#: Seconds the watcher waits for a write of the desk still inside the engine before it looks at what changed.
OWN_WRITE_WAIT = 30.0

#: Seconds an error toast stays: long enough to read one line, short enough never to hide a pane for long.
ERROR_TIMEOUT = 4.0
#: Seconds the note about a write the disk refused to finish stays: a long line about the disk, to be read and acted
#: on (the status line keeps a short mark of it until the next outcome).
UNFINISHED_TIMEOUT = 30.0

# Whole-wiki engine operations the person can start from the command palette; each runs in a worker thread.
MAINTENANCE = {
    "decay": "Run decay (archive weak and expired records)",
    "consolidate": "Consolidate near-duplicates",
    "compile": "Regenerate the generated views",
    "snapshot": "Take a snapshot",
}
# Operations that first show what they would do (a preview that writes nothing) and ask before running.
PREVIEWED = frozenset({"decay", "consolidate"})
MAINTENANCE_LISTED = 10  # titles the confirmation dialog lists before "… and N more"

#: Pages the notice of pages that cannot be read or are gone names before "… and N more"; seconds it stays.
LOST_NAMED = 2
LOST_TIMEOUT = 12.0
#: Seconds a page a sync found gone has to come back before the desk says so (an editor's rename-and-write save
#: leaves it gone for a moment), and how often it is looked for meanwhile (`MemkeeperApp._await_gone`).
GONE_GRACE = 1.5
GONE_POLL = 0.1
#: Characters of a page's problem the notice shows (a YAML error can quote a long line).
LOST_ERROR_CHARS = 120


def _nothing_to_run(op: str, details: dict[str, Any]) -> str:
    """What a previewed maintenance run would do when that is nothing ("nothing to merge"), else "": a consolidate
    with no merge, a decay that changes no record's strength, grade or status."""
    if op == "consolidate" and not details.get("count"):
        return "nothing to merge"
    if op == "decay" and not any(details.get(k) for k in ("decayed_count", "regraded_count", "archived_count")):
        return "nothing to change"
    return ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def lost_pages_notice(bad: Sequence[BadPage], gone: Sequence[GonePage]) -> tuple[str, str, Wording]:
    """(title, message, status line) of the one notice for pages that cannot be read (their records leave every
    list) and for active records whose page is gone: how many, the first `LOST_NAMED` by name, and that `memkeeper
    check` names them all. The status line keeps a short mark of it until the next outcome."""
    parts = []
    if bad:
        parts.append(f"{_plural(len(bad), 'page')} cannot be read")
    if gone:
        are = "is" if len(gone) == 1 else "are"
        parts.append(f"{len(gone)} {are} gone" if bad else f"{_plural(len(gone), 'page')} {are} gone")
    title = ", ".join(parts)
    lines: list[str] = []
    named: list[BadPage | GonePage] = []
    for some in (bad[:1], gone[:1], bad[1:LOST_NAMED], gone[1:LOST_NAMED]):  # one of each kind first
        named += some
    del named[LOST_NAMED:]
    for item in named:
        if isinstance(item, BadPage):
            error = item.error if len(item.error) <= LOST_ERROR_CHARS else item.error[: LOST_ERROR_CHARS - 1] + "…"
            lines.append(f"{item.path}: {error}")
        else:
            record = f"{item.memory_id} “{item.title}”" if item.title else item.memory_id
            lines.append(f"{item.path}: gone (deleted outside memkeeper?), and {record} with it")
    more = len(bad) + len(gone) - len(named)
    if more:
        lines.append(f"… and {more} more")
    advice = []
    if bad:
        advice.append("a record whose page cannot be read is left out of every list until the page is mended")
    if gone:
        advice.append("restore a gone page to bring its record back (snapshots/ keeps copies)")
    advice_line = "; ".join(advice)
    lines.append(f"{advice_line[:1].upper()}{advice_line[1:]}. memkeeper check names them all.")
    status: Wording = (f"⚠ {title} · memkeeper check names them", f"⚠ {title} · memkeeper check")
    return title, "\n".join(lines), status


def shadowed_app_keys(active: dict[str, str], defaults: dict[str, str]) -> list[str]:
    """A keymap problem for each key the keymap gives both an app-wide action and a pane's: in that pane the pane's
    binding wins, so the app's action has no key there (`app.cursor_up = "k"` moved the cursor everywhere but in
    Conflicts, where k kept the existing side of the conflict under the cursor). Textual reports clashes within one
    screen only; overlaps the code's own defaults make are meant and are not reported."""

    def keys(value: str) -> set[str]:
        return {k.strip() for k in value.split(",") if k.strip()}

    out = []
    for app_id in sorted(b for b in active if b.startswith("app.")):
        for pane_id in sorted(b for b in active if b.split(".", 1)[0] in PANE_SCREENS):
            shared = keys(active[app_id]) & keys(active[pane_id])
            meant = keys(defaults.get(app_id, "")) & keys(defaults.get(pane_id, ""))
            for key in sorted(shared - meant):
                pane = PANE_TITLES.get(pane_id.split(".", 1)[0], pane_id.split(".", 1)[0])
                out.append(f"key {key!r} is bound to {app_id} and {pane_id}: in {pane}, {pane_id} takes it")
    return out


class MemkeeperCommands(Provider):
    """Command palette: every pane switch, every app action, and every action of every pane (with its live key)."""

    def _commands(self) -> list[tuple[str, str, Callable[[], Any]]]:
        app = self.app
        assert isinstance(app, MemkeeperApp)
        out: list[tuple[str, str, Callable[[], Any]]] = []
        for pid in PANES:
            out.append(
                (
                    f"Go to {PANE_TITLES[pid]}",
                    f"Switch to the {PANE_TITLES[pid]} pane · {app.key_for('app.' + pid)} · app.{pid}",
                    partial(app.action_switch_pane, pid),
                )
            )
        seen = {f"app.{pid}" for pid in PANES} | {"app.command_palette"}
        for b in live_bindings(app, app.active_keymap):
            if b.id and b.id not in seen and b.description:
                seen.add(b.id)
                out.append(
                    (
                        f"App: {b.description}",
                        f"{app.get_key_display(b)} · {b.id}",
                        partial(app.call_later, app.run_action, b.action),
                    )
                )
        current = app.current_pane()
        for pid in PANES:
            cls = PANE_SCREENS[pid]
            for b in live_bindings_for_class(cls, app.active_keymap):
                if not b.id or b.id in seen or not b.description:
                    continue
                seen.add(b.id)
                here = current is not None and current.PANE_ID == pid
                out.append(
                    (
                        f"{PANE_TITLES[pid]}: {b.description}",
                        f"{app.get_key_display(b)} · {b.id}" + ("" if here else f" (opens {PANE_TITLES[pid]})"),
                        partial(app.call_later, app.run_pane_action, pid, b.action, b.id or "", b.description),
                    )
                )
        for op, title in MAINTENANCE.items():
            out.append(
                (
                    f"Maintenance: {title}",
                    f"engine {op} as {app.actor}, in the background"
                    + (" · shows what it would do first" if op in PREVIEWED else ""),
                    partial(app.run_maintenance, op),
                )
            )
        return out

    async def discover(self) -> Hits:
        for name, help_text, callback in self._commands():
            yield DiscoveryHit(name, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, callback in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)


def live_bindings_for_class(cls: type[PaneScreen], keymap: dict[str, str]) -> list[Binding]:
    """A pane's bindings with the keymap applied, without instantiating the pane."""
    bindings = cls._merge_bindings()
    if keymap:
        bindings.apply_keymap(keymap)
    return [b for key_bindings in bindings.key_to_bindings.values() for b in key_bindings]


class MemkeeperApp(App[int]):
    """The curation desk. See the module docstring; panes rely on the attributes and methods documented below."""

    TITLE = "memkeeper"
    _warm_switch = False  # set for the length of a switch to a pane already opened (`switch_mode`)
    CSS_PATH = "app.tcss"
    MODES = dict(PANE_SCREENS)
    COMMANDS = App.COMMANDS | {MemkeeperCommands}

    # Panes are uppercase letters: pane-local decisions use lowercase letters, digits and space, so a pane key can
    # never shadow a decision. `[`/`]` cycle panes (lazygit's tab keys) so tab keeps moving focus inside a pane.
    BINDINGS = [
        Binding("B", "switch_pane('browse')", "Browse", show=False, id="app.browse"),
        Binding("C", "switch_pane('conflicts')", "Conflicts", show=False, id="app.conflicts"),
        Binding("V", "switch_pane('verify')", "Verify", show=False, id="app.verify"),
        Binding("Q", "switch_pane('quiz')", "Quiz", show=False, id="app.quiz"),
        Binding("T", "switch_pane('tiers')", "Tiers", show=False, id="app.tiers"),
        Binding("R", "switch_pane('receipts')", "Receipts", show=False, id="app.receipts"),
        Binding("right_square_bracket", "cycle_pane(1)", "Next pane", show=False, id="app.next_pane"),
        Binding("left_square_bracket", "cycle_pane(-1)", "Previous pane", show=False, id="app.prev_pane"),
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("ctrl+p", "command_palette", "Palette", show=False, priority=True, id="app.command_palette"),
        Binding("ctrl+r", "refresh_wiki", "Reload from disk", show=False, id="app.refresh"),
        Binding("ctrl+t", "change_theme", "Theme", show=False, id="app.theme"),
        Binding("ctrl+q", "quit", "Quit", show=False, id="app.quit"),
        # Movement for whatever list has focus. The default preset keeps letters free (arrows already move; these are
        # spare chords); the vim preset binds j/k/g/G here. On Conflicts, k stays "keep" (a pane key wins).
        Binding("ctrl+down", "cursor('down')", "Cursor down", show=False, id="app.cursor_down"),
        Binding("ctrl+up", "cursor('up')", "Cursor up", show=False, id="app.cursor_up"),
        Binding("home", "cursor('top')", "Cursor to top", show=False, id="app.cursor_top"),
        Binding("end", "cursor('bottom')", "Cursor to bottom", show=False, id="app.cursor_bottom"),
    ]

    #: Header counts ({open_conflicts, pending_verifications, quiz_due, tier_candidates, records}); None until counted.
    counts: var[dict[str, int] | None] = var(None, always_update=True)
    #: True while a counts worker runs (the header shows a progress mark).
    counting: var[bool] = var(False)
    #: A short progress text while a big sync runs ("sync 1500/20000"), else "".
    sync_progress: var[str] = var("")

    def __init__(
        self,
        root: Path | str,
        *,
        actor: str,
        keymap: str | None = None,
        now: Clock | datetime | None = None,
        watch: bool = True,
        session: str | None = None,
        person: str | None = None,
        engine: Engine | None = None,
    ) -> None:
        super().__init__()
        self.root = Path(root)
        self.engine: Engine = engine if engine is not None else Engine.open(self.root)
        self.actor: str = validate_actor(actor)
        self._clock: Clock = _as_clock(now)
        self.watch_enabled = watch
        self.session_id: str = session or secrets.token_hex(6)
        self.person: str = self.engine.person_for(self.actor, person)
        self.keymap: Keymap = load_keymap(keymap, known_ids=self.known_binding_ids())
        # Every id goes to Textual, defaults included: its clash detection only recognises a binding as "kept" when
        # the keymap names that binding's id too, so a partial keymap would hide clashes with unchanged keys.
        defaults = {bid: normalize_keys(keys) for bid, keys in default_keys(self.binding_classes()).items()}
        self.active_keymap: dict[str, str] = {
            **defaults,
            **{bid: normalize_keys(keys) for bid, keys in self.keymap.keys.items()},
        }
        self.keymap.errors.extend(shadowed_app_keys(self.active_keymap, defaults))
        self._undo: dict[str, list[Receipt]] = {pid: [] for pid in PANES}
        self._batches: dict[str, tuple[str, ...]] = {}  # receipt sha -> the shas taken with it by one key press
        self._stale: set[str] = set()
        self._clashes_reported: set[frozenset[str]] = set()
        self._key_displays: dict[str, str] | None = None  # binding id -> live key display (the keymap is fixed)
        self.watch_events = 0  # how many wiki changes the watcher has processed (tests wait on it)
        self.echo_waits = 0  # how many times the watcher waited for a write of the desk to end (tests wait on it)
        self._watch_stop = threading.Event()  # ends the watcher's thread when the desk closes
        # Receipts this desk wrote itself: when the newest receipt on disk is one of them, a watcher event is our own
        # echo: the active pane (which refreshed after deciding) is left alone — a quiz card must not jump — and the
        # index is not rescanned (`_pages_changed`).
        self._own_receipts: deque[str] = deque(maxlen=64)
        self._count_gen = self._quick_gen = 0  # recounts asked for / whose quick counts are in
        self._tier_counting = False  # a tier count runs (one at a time, `_quick_counted`)
        self._tiers_wanted = False  # and another was asked for meanwhile
        self._tiers_at: datetime | None = None  # the clock of the newest count asked for
        self._writes_in_flight = 0  # engine calls of this desk that write, running now (`own_write`)
        #: One line for each conflict record the queue leaves out because it cannot be read (malformed, unreadable):
        #: read from the engine by the count worker, with the counts; the Conflicts pane shows them.
        self.conflict_problems: list[str] = []
        self._writes_lock = threading.Lock()
        self._painted = threading.Event()  # set once the first pane has been drawn (`pane_painted`)
        self._background_started = False

    # ------------------------------------------------------------------------------------------------ contract

    def now(self) -> datetime:
        """The injected clock (real UTC now by default)."""
        return self._clock()

    def decision_made(self, receipt: Receipt, pane_id: str, refusal: str | None = None) -> None:
        """A pane changed memory: keep the pane's undo stack, refresh counts. The pane's status line shows the
        receipt; only a refused or rejected decision also raises an error toast (`refusal`, or a default line).

        An undoable receipt goes on the pane's undo stack; an undo receipt (whatever its status) takes the receipt it
        reverses off it.
        """
        self.decisions_made([receipt], pane_id, None if refusal is None else (lambda _r: refusal))

    def decisions_made(
        self, receipts: list[Receipt], pane_id: str, refusal_text: Callable[[Receipt], str] | None = None
    ) -> None:
        """`decision_made` for the receipts of one key press. Several undoable receipts form a batch that one undo
        reverses whole (`batch_of`); refusals among them raise one error toast, not one each."""
        stack = self._undo.setdefault(pane_id, [])
        refused: list[Receipt] = []
        batch: list[str] = []
        for receipt in receipts:
            details = receipt.details or {}
            if receipt.action == "undo":
                # Off the pane's own stack whatever the status; an undo that took effect (from Receipts, say) takes
                # the decision off the stack of the pane that took it as well.
                for pid, pane_stack in self._undo.items():
                    if pid != pane_id and receipt.status != "undone":
                        continue
                    reversed_ = next((r for r in pane_stack if r.receipt_sha256 == details.get("reverses")), None)
                    if reversed_ is not None:
                        pane_stack.remove(reversed_)
                        self._batches.pop(reversed_.receipt_sha256, None)
            if receipt.status == "reject" or receipt.status in REFUSED_STATUSES:
                refused.append(receipt)
            if receipt.receipt_sha256 and receipt.receipt_sha256 not in self._own_receipts:
                self._own_receipts.append(receipt.receipt_sha256)  # noted by the worker already, as a rule
            if receipt.ok and self.engine.can_undo(receipt) and receipt.receipt_sha256:
                stack.append(receipt)
                batch.append(receipt.receipt_sha256)
        if len(batch) > 1:
            for sha in batch:
                self._batches[sha] = tuple(batch)
        if refused:
            first = refused[0]
            text = refusal_text(first) if refusal_text is not None else refusal_line(first)
            if len(receipts) > 1:
                text = f"{len(refused)} of {len(receipts)} refused; the first:\n{text}"
            self.notify_error(text, title=PANE_TITLES.get(pane_id, pane_id))
        self._mark_others_stale(pane_id)
        self.refresh_counts()

    def batch_of(self, pane_id: str, receipt: Receipt) -> list[Receipt]:
        """The receipts still on the pane's undo stack that were taken with `receipt` by one key press (oldest
        first); just `[receipt]` for a single decision."""
        shas = self._batches.get(receipt.receipt_sha256, (receipt.receipt_sha256,))
        return [r for r in self._undo.get(pane_id, []) if r.receipt_sha256 in shas] or [receipt]

    def worker_failed(self, worker: Worker) -> None:
        """The desk's one guard: a worker that raised — a pane's decision or tier plan, the header counts, maintenance
        — is reported here as one line (an engine error as its message, anything else with its type), and the desk
        stays open. Panes pass their own workers' failures on (Textual tells only the node that started a worker)."""
        if worker.group == "counts":
            self._quick_gen = self._count_gen
            self.counting = False
        elif worker.group == "tier-count":
            self._tier_counting = self._tiers_wanted = False
            self.counting = False
        node = worker.node
        title = FAILURE_TITLES.get(worker.group) or (
            PANE_TITLES.get(node.PANE_ID, node.PANE_ID) if isinstance(node, PaneScreen) else self.TITLE
        )
        self.notify_error(failure_text(worker.error), title=title)
        pane = self.current_pane()
        if pane is not None and worker.group in FAILURE_TITLES:  # a pane's own failures are in its status line
            pane.status.show_error(f"{title}: {failure_text(worker.error)}")

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Textual's toast, less what a terminal would act on: a toast may name stored text (a page, a title, what
        the engine refused), and a pane's `notify` comes here too."""
        super().notify(inert_text(message), title=inert_text(title), severity=severity, timeout=timeout, markup=markup)

    def notify_error(self, message: str, *, title: str = "") -> None:
        """An error toast: short-lived, never markup. Toasts are for errors and the few warnings a person must read
        (keymap problems, pages that cannot be read or are gone, a write the disk did not finish); outcomes go to the
        status line."""
        self.notify(message, title=title, severity="error", timeout=ERROR_TIMEOUT, markup=False)

    def notify_unfinished(self, notes: Sequence[str]) -> None:
        """A decision committed, and the disk refused to finish writing it (`Engine.unfinished_writes`, read in the
        decision's worker): it stands, and the next write or `memkeeper check --repair` finishes it. The command
        line says so on stderr; the desk in a toast that stays long enough to read (the status line marks it)."""
        if notes:
            self.notify(
                "\n".join(notes),
                title="Recorded, not finished on disk",
                severity="warning",
                timeout=UNFINISHED_TIMEOUT,
                markup=False,
            )

    def say(self, text: Wording, style: str = "") -> None:
        """A short outcome in the current pane's status line."""
        pane = self.current_pane()
        if pane is not None:
            pane.say(text, style)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.worker_failed(event.worker)

    @work(thread=True, exclusive=True, group="maintenance", exit_on_error=False)
    def run_maintenance(self, op: str, confirmed: bool = False) -> None:
        """Run a whole-wiki engine operation off the UI thread, with progress in the header; report its receipt.

        Decay and consolidate first run as a preview (nothing written) and ask, with the counts and the list, before
        the real run (`confirmed`); the real run's receipt goes on the pane's undo stack."""
        if op not in MAINTENANCE:
            return
        if op in PREVIEWED and not confirmed:
            self.call_from_thread(setattr, self, "sync_progress", f"{op} preview…")
            try:
                preview = getattr(self.engine, op)(now=self.now(), actor=self.actor, preview=True)
            finally:
                self.call_from_thread(setattr, self, "sync_progress", "")
            self.call_from_thread(self._ask_maintenance, op, preview)
            return
        kwargs: dict[str, Any] = {"now": self.now(), "actor": self.actor}
        if op == "decay":
            kwargs["progress"] = lambda done, total: self.call_from_thread(
                setattr, self, "sync_progress", f"decay {done}/{total}"
            )
        self.call_from_thread(setattr, self, "sync_progress", f"{op}…")
        before = len(self.engine.unfinished_writes)
        try:
            with self.own_write():
                receipt = getattr(self.engine, op)(**kwargs)
                self.note_own([receipt])  # before the write counts as ended (`_decision_worker`)
        finally:
            self.call_from_thread(setattr, self, "sync_progress", "")
        self.call_from_thread(self._maintenance_done, op, receipt, tuple(self.engine.unfinished_writes[before:]))

    def _ask_maintenance(self, op: str, preview: Receipt) -> None:
        """The confirmation dialog for a previewed operation: what it would do, then y runs it for real."""
        d = preview.details
        # A run that would write nothing is not offered: it wrote a receipt of nothing, offered `u`, and the engine
        # refused that undo (`not_undoable`: the run kept nothing to put back).
        idle = _nothing_to_run(op, d)
        if op == "decay":
            n = d.get("archived_count", 0)
            title = f"Run decay: archive {n} record{'' if n == 1 else 's'}?"
            head = (
                f"Lowers the strength of {d.get('decayed_count', 0)} and re-grades {d.get('regraded_count', 0)}; "
                f"archives these {n}:\n"
                if n
                else f"Lowers the strength of {d.get('decayed_count', 0)}; archives none.\n"
            )
            items = [d.get("archived_titles", {}).get(m, m) for m in d.get("archived") or []]
        else:
            n = d.get("count", 0)
            title = f"Consolidate: merge {n} near-duplicate{'' if n == 1 else 's'}?"
            head = "Each is archived into the record it repeats:\n" if n else "Nothing to merge.\n"
        if idle:
            title = f"{MAINTENANCE[op]}: {idle}"
            head = (
                "No record's strength, evidence grade or status would change.\n"
                if op == "decay"
                else "No two active records say the same thing.\n"
            )
            names = d.get("titles") or {}
            items = [f"{names.get(m['source'], m['source'])} → {m['target']}" for m in d.get("merges") or []]
        body = Text(head)
        for item in items[:MAINTENANCE_LISTED]:
            body.append("  · ", style="dim")
            body.append(item + "\n")
        if len(items) > MAINTENANCE_LISTED:
            body.append(f"  … and {len(items) - MAINTENANCE_LISTED} more\n", style="dim")
        skipped = [f"{x.get('page')} ({x.get('reason')})" for x in d.get("skipped") or []]
        if skipped:  # records whose page cannot be read, or is read-only, take no part (the receipt lists them too)
            body.append(f"Left out, their pages cannot be read or are read-only ({len(skipped)}):\n", style="yellow")
            for item in skipped[:3]:
                body.append(f"  · {item}\n", style="yellow")
            if len(skipped) > 3:
                body.append(f"  … and {len(skipped) - 3} more\n", style="dim")
        held = [
            f"{h.get('title') or h.get('memory_id')} ({h.get('conflict_id')})" for h in d.get("held_by_conflict") or []
        ]
        if held:  # a conflict holding them awaits the person's decision (the receipt lists them too)
            verb = "archived" if op == "decay" else "merged"
            body.append(f"Not {verb}: their conflict awaits your decision ({len(held)}):\n")
            for item in held[:3]:
                body.append(f"  · {item}\n")
            if len(held) > 3:
                body.append(f"  … and {len(held) - 3} more\n", style="dim")
        pane = self.current_pane()
        undo_key = self.key_for(f"{pane.PANE_ID}.undo") if pane is not None else ""
        if idle:
            body.append("There is nothing to run: nothing is written.", style="dim")
        else:
            body.append(
                f"Nothing is written until you confirm; one undo{f' ({undo_key})' if undo_key else ''} "
                "reverses the whole run.",
                style="dim",
            )

        def done(yes: bool | None) -> None:
            if yes and not idle:
                self.run_maintenance(op, True)
            elif idle:
                self.say(f"{MAINTENANCE[op]}: {idle}, nothing written", "dim")
            else:
                self.say(f"{MAINTENANCE[op]}: cancelled, nothing written", "dim")

        if idle:
            self.push_screen(ConfirmModal(title, body, confirm_label=None, cancel_label="Close"), done)
            return
        self.push_screen(ConfirmModal(title, body, confirm_label=f"Run {op}", danger=bool(n)), done)

    def _maintenance_done(self, op: str, receipt: Receipt, unfinished: tuple[str, ...] = ()) -> None:
        pane = self.current_pane()
        self.decision_made(receipt, pane.PANE_ID if pane else "browse")
        if pane is not None:
            pane.status.show_receipt(receipt, MAINTENANCE[op], pane.undo_offer([receipt]), unfinished=bool(unfinished))
        self.notify_unfinished(unfinished)
        self.wiki_changed()

    def undo_stack(self, pane_id: str) -> list[Receipt]:
        """The pane's undoable receipts, oldest first (read-only view)."""
        return list(self._undo.get(pane_id, []))

    def is_stale(self, pane_id: str) -> bool:
        return pane_id in self._stale

    def mark_fresh(self, pane_id: str) -> None:
        self._stale.discard(pane_id)

    def mark_stale(self, pane_id: str) -> None:
        self._stale.add(pane_id)

    def refresh_counts(self) -> None:
        """Recount the header in a worker: a quick pass first, then the (possibly slow) tier count, one at a time."""
        self.counting = True
        self._count_gen += 1
        self._count_worker(self._count_gen)

    # ------------------------------------------------------------------------------------------------ helpers

    @classmethod
    def binding_classes(cls) -> list[type]:
        """Every class whose bindings are part of the keymap."""
        return [cls, *PANE_SCREENS.values(), HelpScreen, ConfirmModal, InputModal, TextModal]

    @classmethod
    def known_binding_ids(cls) -> set[str]:
        return set(binding_ids(cls.binding_classes()))

    def current_pane(self) -> PaneScreen | None:
        """The pane under whatever modal is open."""
        for screen in reversed(self.screen_stack):
            if isinstance(screen, PaneScreen):
                return screen
        return None

    def switch_mode(self, mode: str) -> AwaitMount:
        """Textual holds every frame back for 50 ms when it switches modes (`delay_update`), to hide a new screen's
        widgets mounting one by one. A pane already opened mounts nothing: its switch shows at once."""
        self._warm_switch = mode in self._screen_stacks
        try:
            return super().switch_mode(mode)
        finally:
            self._warm_switch = False

    def delay_update(self, delay: float = 0.05) -> None:
        if self._warm_switch:
            return
        super().delay_update(delay)

    def pane_started(self, pane_id: str) -> bool:
        # A mode's screen exists only once it has been opened; a pane that was never opened has nothing stale.
        return pane_id in self._screen_stacks

    def key_for(self, binding_id: str) -> str:
        """The live key display for a binding id ("" if unbound); the header and palette show these."""
        if self._key_displays is None:
            displays: dict[str, list[str]] = {}
            bindings = live_bindings(self, self.active_keymap)
            for cls in PANE_SCREENS.values():
                bindings += live_bindings_for_class(cls, self.active_keymap)
            for b in bindings:
                if b.id:
                    shown = displays.setdefault(b.id, [])
                    if (display := self.get_key_display(b)) not in shown:
                        shown.append(display)
            self._key_displays = {bid: "/".join(keys) for bid, keys in displays.items()}
        return self._key_displays.get(binding_id, "")

    def _mark_others_stale(self, pane_id: str | None) -> None:
        """Every started pane but `pane_id` is stale; the one on screen (if another) refreshes right away."""
        current = self.current_pane()
        for pid in PANES:
            if pid == pane_id or not self.pane_started(pid):
                continue
            if current is not None and current.PANE_ID == pid:
                current.refresh_data()
            else:
                self._stale.add(pid)

    # ------------------------------------------------------------------------------------------------ lifecycle

    def on_mount(self) -> None:
        self.set_keymap(self.active_keymap)
        if self.keymap.errors:
            shown = self.keymap.errors[:6]
            more = f"\n… and {len(self.keymap.errors) - 6} more" if len(self.keymap.errors) > 6 else ""
            self.notify("\n".join(shown) + more, title="Keymap problems", severity="warning", timeout=12, markup=False)
        self._name_bad_pages()
        self.switch_mode("browse")
        self.refresh_counts()

    @work(thread=True, group="bad-pages", exit_on_error=False)
    def _name_bad_pages(self) -> None:
        """The pages the index already holds as unreadable, named in one notice at start (read in a worker, as every
        engine read of the desk; a sync of the desk names those it finds later, `pages_lost`)."""
        bad = self.engine.bad_pages()
        if bad:
            title, message, _ = lost_pages_notice(bad, [])
            self.call_from_thread(
                self.notify, message, title=title, severity="warning", timeout=LOST_TIMEOUT, markup=False
            )

    def pane_painted(self) -> None:
        """A pane has been drawn (each pane calls this after its first refresh). The work that grows with the wiki
        waits for it: the tier count (in the count worker), then, once the counts are shown too, the full
        reconciliation and the watcher. Before that they would compete with the first pane for the interpreter
        and the index; so the desk is ready (a pane and its header counts shown) first, and their progress then
        shows in the header."""
        self._painted.set()
        self._start_background()

    def _start_background(self) -> None:
        """Once a pane is drawn and the header shows its counts (the desk is ready): the full reconciliation and
        the watcher (setting up a watch over a big wiki blocks the event loop for a moment)."""
        if self._background_started or not self._painted.is_set() or self.counts is None:
            return
        self._background_started = True
        self.settle_heap()
        if not self.engine.synced:
            self._sync_worker((), "", start=True)
        if self.watch_enabled:
            self.watch_wiki()

    def settle_heap(self) -> None:
        """What the desk holds for as long as it runs (the engine's caches and word lists, a pane's loaded rows) is
        moved out of the garbage collector's sight (`gc.freeze`): a full collection walked every object the desk
        holds, 0.3-0.45 s at 100k records (326 ms with the Receipts pane's rows loaded), on whichever thread
        allocated, and the UI thread stood still while it ran. Called when the desk is ready and after a large
        load; the freeze itself is a splice of lists, no walk. Objects frozen and dropped later are freed by their
        reference counts as ever; only a cycle among them is kept until the desk ends. Not in a headless run (a
        test process runs many desks one after the other: each one's widgets, in cycles, would be kept)."""
        if not self.is_headless:
            gc.freeze()

    def on_unmount(self) -> None:
        self._watch_stop.set()
        self.workers.cancel_all()

    def handle_bindings_clash(self, clashed_bindings: set[Binding], node: Any) -> None:
        # Textual calls this on every keypress while a clash is live: report each clash once.
        ids = frozenset(f"{b.id or b.action}={b.key}" for b in clashed_bindings)
        if ids in self._clashes_reported:
            return
        self._clashes_reported.add(ids)
        self.notify("Keymap clash: " + ", ".join(sorted(ids)), title="Keymap", severity="warning", markup=False)

    # ------------------------------------------------------------------------------------------------ actions

    def action_switch_pane(self, pane_id: str) -> None:
        if pane_id in PANE_SCREENS and pane_id != self.current_mode:
            self.switch_mode(pane_id)

    def action_cycle_pane(self, step: int) -> None:
        current = self.current_mode if self.current_mode in PANES else PANES[0]
        self.switch_mode(PANES[(PANES.index(current) + step) % len(PANES)])

    async def run_pane_action(self, pane_id: str, action: str, binding_id: str = "", label: str = "") -> None:
        """Open a pane and run one of its actions (the command palette's pane commands). A decision about the item
        under the pane's cursor, chosen from another pane, only opens the pane and says which key takes it: the
        item it would decide is one the person has not seen."""
        opened = pane_id != self.current_mode
        if opened:
            await self.switch_mode(pane_id)
        pane = self.current_pane()
        if pane is None:
            return
        if opened and action.split("(", 1)[0] in pane.CURSOR_DECISIONS:
            key = self.key_for(binding_id) if binding_id else ""
            self.notify(
                f"{PANE_TITLES[pane_id]} opened: {f'press {key} to ' if key else ''}{label.lower() or action}"
                " for the item under the cursor",
                markup=False,
            )
            return
        name = action.split("(", 1)[0]
        if pane.check_action(name, ()) is not True:
            # Textual skips an action its pane disables or dims, without a word: the palette lists every action of
            # the pane (undeny in the pending list, a grade before the answer shows), and choosing one did nothing.
            pane.say(f"{label or name}: not available here now.", "yellow")
            return
        await pane.run_action(action)

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
            return
        self.push_screen(HelpScreen(self.current_pane()))

    def action_refresh_wiki(self) -> None:
        self._sync_worker(())

    def reload_after_edit(self, rel: str, outcome: Wording) -> None:
        """A page was edited outside the desk: resync the index and refresh the panes, then say so."""
        self._sync_worker((rel,), outcome)

    def action_cursor(self, where: str) -> None:
        """Vim-style movement for whatever list has focus (Tree, DataTable, scrollables)."""
        widget = self.focused
        if widget is None:
            return
        if where in ("down", "up"):
            for name in (f"action_cursor_{where}", f"action_scroll_{where}"):
                if hasattr(widget, name):
                    getattr(widget, name)()
                    return
            return
        top = where == "top"
        if hasattr(widget, "move_cursor") and hasattr(widget, "row_count"):  # DataTable
            widget.move_cursor(row=0 if top else max(0, widget.row_count - 1))
        elif hasattr(widget, "cursor_line") and hasattr(widget, "last_line"):  # Tree
            widget.cursor_line = 0 if top else widget.last_line
        elif hasattr(widget, "scroll_home"):
            widget.scroll_home() if top else widget.scroll_end()

    # ------------------------------------------------------------------------------------------------ workers

    @work(thread=True, exclusive=True, group="counts", exit_on_error=False)
    def _count_worker(self, gen: int) -> None:
        worker = get_current_worker()
        now = self.now()
        try:
            quick = self.engine.counts(now, person=self.person, session=self.session_id, with_tiers=False)
            problems = self.engine.conflict_problems()  # the queue's own pass, just made by the count
            if worker.is_cancelled:
                return
            self.call_from_thread(self._quick_counted, quick, now, gen, problems)
        except RuntimeError:
            return  # the app is shutting down: nothing to show the counts on

    def _quick_counted(self, quick: dict[str, int], now: datetime, gen: int, problems: list[str] | None = None) -> None:
        """The quick counts are in: shown at once (with the last tier count), then the tier count is asked for."""
        self._quick_gen = max(self._quick_gen, gen)
        if problems is not None and problems != self.conflict_problems:
            self._conflict_problems_changed(problems)
        previous = self.counts or {}
        if "tier_candidates" in previous:
            quick.setdefault("tier_candidates", previous["tier_candidates"])
        self._set_counts(quick, True)
        self._tiers_at = now
        if self._tier_counting:
            # One tier count at a time: a thread cannot be stopped, and a recount beside a running one (the start's
            # reconciliation did that) doubled seconds of work at 100k records. Counted once more after it.
            self._tiers_wanted = True
            return
        self._tier_counting = True
        self._tier_count_worker(now)

    @work(thread=True, group="tier-count", exit_on_error=False)
    def _tier_count_worker(self, now: datetime) -> None:
        worker = get_current_worker()
        try:
            # The tier count reads every candidate on a cold start: not before the first pane has been drawn.
            while not self._painted.wait(0.05):
                if worker.is_cancelled:
                    return
            full = self.engine.counts(now, person=self.person, session=self.session_id, with_tiers=True)
            if not worker.is_cancelled:
                self.call_from_thread(self._tiers_counted, full)
        except RuntimeError:
            return  # the app is shutting down

    def _conflict_problems_changed(self, problems: list[str]) -> None:
        """Conflict records that cannot be read came or went: the Conflicts pane says so at once when it is on
        screen, else when it is next shown."""
        self.conflict_problems = problems
        pane = self.current_pane()
        if isinstance(pane, ConflictsScreen):
            pane.show_problems()
        elif self.pane_started("conflicts"):
            self.mark_stale("conflicts")

    def _tiers_counted(self, full: dict[str, int]) -> None:
        self._tier_counting = False
        if self._tiers_wanted:  # asked for again meanwhile: this count may be behind the quick counts shown
            self._tiers_wanted = False
            self._set_counts({**(self.counts or full), "tier_candidates": full["tier_candidates"]}, True)
            self._tier_counting = True
            self._tier_count_worker(self._tiers_at)
            return
        self._set_counts(full, self._quick_gen < self._count_gen)  # a quick count still on its way asks again

    def _set_counts(self, counts: dict[str, int], still_counting: bool) -> None:
        self.counts = counts
        self.counting = still_counting
        self._start_background()

    @property
    def counts_settled(self) -> bool:
        """Counts are computed and no count worker is running (tests and screenshots wait on this)."""
        return self.counts is not None and not self.counting and "tier_candidates" in self.counts

    @work(thread=True, exclusive=True, group="watch", exit_on_error=False)
    def watch_wiki(self) -> None:
        """Watch the wiki folder; when another process writes, resync and refresh (SPEC §6). The watch runs in a
        thread of its own: setting it up walks the wiki's folders (~0.3 s at 100k pages), which on the event
        loop would hold every keypress made meanwhile."""
        from watchfiles import watch

        root = self.engine.root
        for changes in watch(
            root,
            watch_filter=_WikiFilter(root),
            debounce=400,
            step=50,
            stop_event=self._watch_stop,
            raise_interrupt=False,
        ):
            paths = tuple(sorted({_rel(root, path) for _, path in changes}))
            # Ours: one of the desk's writes was still inside the engine (its pages are on disk before the call
            # returns and before the index has their rows: the pages are compared once it is done), or the newest
            # receipt is one this desk wrote.
            waited = self._own_writes_done()
            own = waited or self.engine.last_receipt_sha() in self._own_receipts
            if not own or self._pages_changed(paths):
                counts = self._sync_with_progress()
                # A page edited by hand beside our own write (or after it, with no receipt since: the newest is
                # still ours) is not ours: the panes re-read. They heard nothing of it, and the quiz revealed an
                # answer its page no longer gave.
                own = own and not any(counts.values())
            try:
                self.call_from_thread(self._wiki_change_seen, paths, own)
            except RuntimeError:
                return  # the app is closing

    def _own_writes_done(self, limit: float = OWN_WRITE_WAIT) -> bool:
        """In the watcher's thread: wait (at most `limit` seconds) until no write of this desk is inside the
        engine; whether one was. Compared while a write is half done, its pages differ from their index rows and
        the echo was taken for a hand edit (a full rescan, seen under load)."""
        if self._writes_in_flight <= 0:
            return False
        self.echo_waits += 1
        deadline = time.monotonic() + limit
        while self._writes_in_flight > 0 and time.monotonic() < deadline and not self._watch_stop.is_set():
            self._watch_stop.wait(0.02)
        return True

    def _pages_changed(self, paths: tuple[str, ...]) -> bool:
        """Whether the echo of our own decision holds a page the index has not read: one edited by hand in the same
        moment. The engine indexed every page it wrote, so a full sync (a stat of every page: 1.2-2.4 s of the
        desk's CPU at 100k records, beside the person's next keys) would find nothing else. Each page the change
        names is checked against its row (a stat each); past `ECHO_PAGES` (a tier commit, where the kernel may
        also have dropped events) the whole wiki is scanned as before."""
        pages = [p for p in paths if p.startswith("entries/")]
        if len(pages) > ECHO_PAGES:
            return True
        return self.engine.pages_unindexed(pages)

    @contextmanager
    def own_write(self) -> Iterator[None]:
        """Around an engine call that writes, in its worker thread: while it runs, what the watcher sees is ours."""
        with self._writes_lock:
            self._writes_in_flight += 1
        try:
            yield
        finally:
            with self._writes_lock:
                self._writes_in_flight -= 1

    def note_own(self, receipts: Iterable[Receipt]) -> None:
        """Receipts this desk wrote: called from the worker thread as soon as the engine returns, so the watcher
        knows the change it is about to see is our own (a deque's append is thread-safe)."""
        self._own_receipts.extend(r.receipt_sha256 for r in receipts if r.receipt_sha256)

    def _wiki_change_seen(self, paths: tuple[str, ...], own: bool) -> None:
        self.watch_events += 1
        if not own:  # our own decision: counts and panes were refreshed when it was made
            self.wiki_changed(paths)

    @work(exclusive=True, group="sync", exit_on_error=False)
    async def _sync_worker(
        self, paths: tuple[str, ...], done: Wording = "Reloaded from disk.", *, start: bool = False
    ) -> None:
        """Resync the index, then recount and refresh. `start`: the reconciliation the desk runs once it is ready
        (the first pane was read from the index as it was); when it finds every page as the index had it, the
        counts and the pane on screen are already right: the pane the person may already be working in is not
        reloaded under their cursor, and the counts are not taken again."""
        found = SyncFound()
        changed = await asyncio.to_thread(self._sync_with_progress, found)
        if start and not any(changed.values()):
            return
        self.wiki_changed(paths)
        if done and not found:  # (else the status line keeps the mark of the notice `pages_lost` gave)
            self.say(done)

    def pages_lost(self, found: SyncFound) -> None:
        """A sync of the desk found pages that can no longer be read, or active records whose page is gone: their
        records have just left every list and count, so one notice names them (SPEC §3: a bad page is reported with
        a TUI notice). The engine finds each once, by the sync that first reads the change: no later sync names
        it again while it stays as it is."""
        title, message, status = lost_pages_notice(found.bad, found.gone)
        self.notify(message, title=title, severity="warning", timeout=LOST_TIMEOUT, markup=False)
        self.say(status, "bold yellow")

    def _sync_with_progress(self, found: SyncFound | None = None) -> dict[str, int]:
        """A full sync, in the calling worker's thread (the sync worker's, the watcher's). What it found lost
        (`found`) is told from this thread as soon as the sync ends (`pages_lost`): a sync worker that a newer one
        cancelled (ctrl+r while the start's reading runs) still runs its thread to the end, and the newer sync would
        not find the same pages again."""

        def progress(done: int, total: int) -> None:
            if total >= 1000:  # small syncs finish before a progress text could be read
                self.call_from_thread(setattr, self, "sync_progress", f"sync {done}/{total}")

        found = SyncFound() if found is None else found
        try:
            counts = self.engine.sync(progress=progress, found=found)
            if found.gone or found.bad:
                counts = self._await_gone(found, counts)
            return counts
        finally:  # (what chunks committed before a failure was found all the same)
            try:
                self.call_from_thread(setattr, self, "sync_progress", "")
                if found:
                    self.call_from_thread(self.pages_lost, found)
            except RuntimeError:
                pass

    def _await_gone(self, found: SyncFound, counts: dict[str, int]) -> dict[str, int]:
        """In the sync's worker thread, never the UI thread: give the pages a sync found gone or could not read
        `GONE_GRACE` seconds to come back before the desk says so. An editor that saves by moving the page away and
        writing it anew (vim's `backupcopy=auto`) has it gone for as long as it takes between the two steps, and one
        that writes it in place has it empty or half written: a watcher step between them is a sync that finds it
        gone or bad, and the desk warned "1 page is gone" (or "cannot be read") for a page fine a moment later. A
        page back is read in again (`Engine.reread_gone`, `Engine.reread_bad`) and not named; one still gone or bad
        after the grace is."""
        deadline = time.monotonic() + GONE_GRACE
        while (found.gone or found.bad) and time.monotonic() < deadline and not self._watch_stop.is_set():
            self._watch_stop.wait(GONE_POLL)
            for reread in (self.engine.reread_gone, self.engine.reread_bad):
                back = reread(found)
                counts = {k: counts.get(k, 0) + back.get(k, 0) for k in counts.keys() | back.keys()}
        return counts

    def wiki_changed(self, paths: Iterable[str] = ()) -> None:
        """The index was resynced: recount, refresh the active pane in place, mark the other panes stale."""
        self.refresh_counts()
        pane = self.current_pane()
        self._mark_others_stale(pane.PANE_ID if pane else None)
        if pane is not None:
            self.mark_fresh(pane.PANE_ID)
            pane.refresh_data()


class _WikiFilter:
    """watchfiles filter: ignore the derived cache and editor droppings; everything else may change what we show."""

    IGNORED_NAMES = {".memkeeper", ".git", "__pycache__", "journal"}  # journal/: a write in flight, not yet a change

    def __init__(self, root: Path) -> None:
        self.root = root

    def __call__(self, change: Any, path: str) -> bool:
        rel = Path(path)
        try:
            rel = rel.relative_to(self.root)
        except ValueError:
            return False
        if any(part in self.IGNORED_NAMES for part in rel.parts):
            return False
        name = rel.name
        return not (name.endswith(("~", ".swp", ".swx", ".tmp")) or name.startswith(".#"))


def _rel(root: Path, path: str) -> str:
    try:
        return Path(path).relative_to(root).as_posix()
    except ValueError:
        return path


def run_app(
    root: Path | str,
    *,
    actor: str,
    keymap: str | None = None,
    now: Clock | datetime | None = None,
    person: str | None = None,
) -> int:
    """Open the engine and run the desk. 0 on a normal exit; 2 (one line on stderr) for a bad root/actor/keymap."""
    try:
        engine = Engine.open(root, sync=False)  # the first sync runs in a worker, with progress in the header
    except MemkeeperError as exc:
        print(f"memkeeper: {exc}", file=sys.stderr)
        return 2
    try:
        app = MemkeeperApp(root, actor=actor, keymap=keymap, now=now, engine=engine, person=person)
    except (MemkeeperError, KeymapError) as exc:
        engine.close()
        print(f"memkeeper: {exc}", file=sys.stderr)
        return 2
    try:
        app.run()
    finally:
        engine.close()
    return app.return_code or 0


__all__ = ["MemkeeperApp", "PANES", "PANE_SCREENS", "PANE_TITLES", "run_app"]

"""`Engine`: the one API every writer uses — the CLI, the desk, agents. A façade: it builds the store, the views, the
curation queues and the operations, wires them together, and delegates each public method to the object that owns
it. Nothing here decides anything, except the header counts that combine every queue.

    Store ──► Views ──► queues (conflicts, verification, quiz, tiers) ──► operations (capture, retrieve,
    maintenance, exchange, integrity, undo) ──► Engine ──► CLI (tui/cli.py), MCP server (agents/), desk (tui/app.py)
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import WriteFailed
from .index import is_busy
from .models import Category, MemoryClass, Receipt, SensitivityTier, SourceType, TrustZone, at
from .store import Progress, Store, disk_error_line, is_disk_error
from .views import Views

if TYPE_CHECKING:  # the parts are imported when first used (see Engine): a command pays only for what it runs
    from . import quiz, tiers
    from .capture import CaptureOps
    from .conflicts import Conflict, ConflictQueue
    from .exchange import ExchangeOps
    from .index import BadPage, Index, SyncFound
    from .integrity import CheckReport, Integrity
    from .lockfile import FileLock
    from .maintenance import MaintenanceOps
    from .models import Entry
    from .quiz_queue import QuizCard, QuizQueue
    from .receipts import ReceiptCursor, ReceiptLine
    from .retrieve import Listed, RetrieveOps
    from .tier_queue import TierOutline, TierQueue
    from .undo import UndoOps
    from .verification import VerificationQueue

__all__ = ["CheckReport", "Engine"]


def __getattr__(name: str) -> Any:
    if name == "CheckReport":  # kept importable from here; defined with the integrity checks
        from .integrity import CheckReport

        return CheckReport
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The parts that register undo handlers (`UndoHandlers.register`) when they are built.
_UNDO_REGISTRARS = ("conflict_queue", "verification_queue", "quiz_queue", "tier_queue", "maintenance_ops")


class Engine:
    """One wiki root with its queues and operations. `Engine.open(root)` / `Engine.init(root, now=...)`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.views = views = Views(store)
        store.on_recovered = views.refresh_all
        views.connect(
            conflicts_view=self._conflicts_view_text,
            conflicts_written=self._conflicts_view_written,
            queue_counts=self.queue_counts_for_hot,
        )
        # The queues and operations are built (and their modules imported) on first use, so a command pays only
        # for the parts it runs: `retrieve` never imports the conflict detector, the quiz or the tier rules. Undo
        # needs every handler, so `undo_ops` builds every part that registers one.
        self._parts: dict[str, Any] = {}
        self._parts_lock = threading.RLock()

    def _part(self, name: str, build: Any) -> Any:
        part = self._parts.get(name)
        if part is None:
            with self._parts_lock:  # the desk's workers may ask for a part at once: build it once
                part = self._parts.get(name)
                if part is None:
                    part = self._parts[name] = build()
        return part

    @property
    def _undo(self) -> UndoOps:
        def build() -> UndoOps:
            from .undo import UndoOps

            return UndoOps(self.store, self.views)

        return self._part("undo", build)

    @property
    def undo_ops(self) -> UndoOps:
        for name in _UNDO_REGISTRARS:  # built first: each registers how its decisions are undone
            getattr(self, name)
        return self._undo

    @property
    def conflict_queue(self) -> ConflictQueue:
        def build() -> ConflictQueue:
            from .conflicts import ConflictQueue

            queue = ConflictQueue(self.store, self.views, self._undo.handlers)
            # A record a resolution makes from a held statement meets the others through capture's detection
            # (built when first needed).
            queue.detect = lambda incoming, exclude: self.capture_ops.contradicted(incoming, exclude)
            queue.person_zone = self.person_zone
            return queue

        return self._part("conflict_queue", build)

    @property
    def verification_queue(self) -> VerificationQueue:
        def build() -> VerificationQueue:
            from .verification import VerificationQueue

            return VerificationQueue(self.store, self.views, self._undo.handlers)

        return self._part("verification_queue", build)

    @property
    def quiz_queue(self) -> QuizQueue:
        def build() -> QuizQueue:
            from .quiz_queue import QuizQueue

            return QuizQueue(self.store, self.views, self._undo.handlers)

        return self._part("quiz_queue", build)

    @property
    def tier_queue(self) -> TierQueue:
        def build() -> TierQueue:
            from .tier_queue import TierQueue

            return TierQueue(
                self.store, self.views, self._undo.handlers, in_conflict=self.conflict_queue.open_conflict_memory_ids
            )

        return self._part("tier_queue", build)

    @property
    def capture_ops(self) -> CaptureOps:
        def build() -> CaptureOps:
            from .capture import CaptureOps

            ops = CaptureOps(self.store, self.views, self.conflict_queue, self.verification_queue)
            ops.person_zone = self.person_zone
            return ops

        return self._part("capture_ops", build)

    @property
    def retrieve_ops(self) -> RetrieveOps:
        def build() -> RetrieveOps:
            from .retrieve import RetrieveOps

            return RetrieveOps(self.store)

        return self._part("retrieve_ops", build)

    @property
    def maintenance_ops(self) -> MaintenanceOps:
        def build() -> MaintenanceOps:
            from .maintenance import MaintenanceOps

            return MaintenanceOps(self.store, self.views, self.conflict_queue, self._undo.handlers)

        return self._part("maintenance_ops", build)

    @property
    def exchange_ops(self) -> ExchangeOps:
        def build() -> ExchangeOps:
            from .exchange import ExchangeOps

            return ExchangeOps(self.store, self.capture_ops)

        return self._part("exchange_ops", build)

    @property
    def integrity(self) -> Integrity:
        def build() -> Integrity:
            from .integrity import Integrity

            return Integrity(self.store, self.views, self.conflict_queue, self.quiz_queue)

        return self._part("integrity", build)

    def _conflicts_view_text(self, now: datetime, force: bool) -> str | None:
        return self.conflict_queue.conflicts_view_text(now, force)

    def _conflicts_view_written(self) -> None:
        self.conflict_queue.conflicts_view_written()

    # ---------------------------------------------------------------------------------------------- lifecycle

    @classmethod
    def open(cls, root: str | os.PathLike[str], *, sync: bool = True) -> Engine:
        """Open an existing wiki. With sync=False the derived index is brought up to date later, by `sync()` (the
        desk does it in a worker with progress, so a big wiki never blocks start-up)."""
        return cls(Store.open(root, sync=sync))

    @classmethod
    def init(cls, root: str | os.PathLike[str], now: datetime) -> Engine:
        """Create the layout and the first views (or complete an existing wiki's), and open it.

        A disk that refuses a write (full, read-only, permission denied) is one line, `WriteFailed`: what was made
        stays, and init again, once there is room, completes it (it was `internal error: OSError …`)."""
        now = at(now)  # refused before anything is made
        store: Store | None = None
        try:
            store = Store.create(root)
            engine = cls(store)
            with engine.store.lock:
                engine.store.write_headers()
                engine.views.refresh(now, full=True)
        except (OSError, sqlite3.OperationalError) as exc:
            if store is not None:
                store.close()
            if not is_disk_error(exc):
                raise
            raise WriteFailed(
                disk_error_line(
                    Path(os.path.realpath(root)),
                    exc,
                    "the new wiki is not complete; run memkeeper init again to complete it",
                )
            ) from None
        return engine

    def close(self) -> None:
        self.store.close()

    @property
    def unfinished_writes(self) -> list[str]:
        """One line for each operation of this engine that committed but that the disk refused to finish applying
        (the operation stands: the next write, or `check --repair`, finishes it)."""
        return list(self.store.unfinished)

    def unfinished_writes_since(self, mark: int) -> list[str]:
        """The lines `unfinished_writes` gained from position `mark` on (its length before an operation) for the
        operations the calling thread ran: an MCP server's tool calls run in threads that share one engine, and a
        note belongs to the call whose write it is."""
        me = threading.get_ident()
        pairs = list(zip(self.store.unfinished, self.store.unfinished_threads, strict=False))[mark:]
        return [line for line, thread in pairs if thread == me]

    def sync(self, progress: Progress | None = None, found: SyncFound | None = None) -> dict[str, int]:
        """Read every page changed since the index last read it (a stat of every page). `found`, when given, gets
        what this sync found lost: the pages it could not read (malformed, unreadable, not a regular file, a
        duplicate id) and the active records whose page was gone (deleted or moved by hand: the engine never deletes
        a page). Each once: a page is read again only when it changes again, and a change another process's sync
        (or a re-read of the pages an operation uses) read first is not found here; `check` names them all."""
        return self.store.sync(progress, found=found)

    def reread_gone(self, found: SyncFound) -> dict[str, int]:
        """Read again the pages of the records a sync found gone (`found.gone`), and keep there only those still
        gone: an editor that saves by moving the page away and writing it anew (vim's rename-and-write) has it back
        under its name a moment later. A page back that cannot be read joins `found.bad`. Returns the counts of the
        re-read (a record back is `added`); a busy index re-reads nothing (the next sync does)."""
        if not found.gone:
            return {"added": 0, "updated": 0, "removed": 0, "bad": 0}
        lost = type(found)()
        counts = self._reread([g.path for g in found.gone], lost)
        here = {r[0] for r in self.store.index.rows_for([g.memory_id for g in found.gone], columns="memory_id")}
        found.gone = [g for g in found.gone if g.memory_id not in here]
        found.bad.extend(lost.bad)
        return counts

    def reread_bad(self, found: SyncFound) -> dict[str, int]:
        """Read again the pages a sync could not read (`found.bad`), and keep there only those still bad: an editor
        that writes a page in place (truncating it, then writing) has it empty or half written for a moment, and a
        watcher step in between read it so. A page that changed since and now reads is read in (its record `added`
        or `updated`); one unchanged is still bad (the index read it once). Returns the counts of the re-read; a busy
        index re-reads nothing (the next sync does)."""
        if not found.bad:
            return {"added": 0, "updated": 0, "removed": 0, "bad": 0}
        lost = type(found)()
        counts = self._reread([b.path for b in found.bad], lost)
        still = {b.path: self.store.index.bad_page(b.path) for b in found.bad}
        found.bad = [now for now in still.values() if now is not None]
        found.gone.extend(lost.gone)
        return counts

    def _reread(self, paths: list[str], lost: SyncFound) -> dict[str, int]:
        """Read the pages `paths` again, and only them (what a sync found lost, given a moment to come back); what
        is still lost goes to `lost`. A busy index re-reads nothing (the next sync does)."""
        try:
            counts = self.store.index.sync_paths(sorted(set(paths)), found=lost)
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            return {"added": 0, "updated": 0, "removed": 0, "bad": 0}
        if any(counts.values()):
            self.store.rows_resynced()  # as a sync that changed rows: counts and caches start over
        return counts

    @property
    def root(self) -> Path:
        return self.store.root

    @property
    def index(self) -> Index:
        return self.store.index

    @property
    def lock(self) -> FileLock:
        return self.store.lock

    @property
    def synced(self) -> bool:
        return self.store.synced

    # ---------------------------------------------------------------------------------------------- the store

    def path(self, rel: str) -> Path:
        return self.store.path(rel)

    def rel(self, path: Path) -> str:
        return self.store.rel(path)

    def writing(self) -> AbstractContextManager[None]:
        return self.store.writing()

    def save(self, entry: Entry, page: str | None = None) -> str:
        return self.store.save(entry, page)

    def load(self, memory_id: str, *, scan: bool = False) -> Entry:
        return self.store.load(memory_id, scan=scan)

    def get(self, memory_id: str) -> Entry | None:
        return self.store.get(memory_id)

    def page_of(self, memory_id: str) -> str | None:
        return self.store.page_of(memory_id)

    def tallies(self) -> dict[str, int]:
        return self.store.tallies()

    def refresh_views(self, now: datetime, full: bool = False) -> None:
        self.views.refresh(now, full)

    def iter_receipts(self) -> Iterator[ReceiptLine]:
        return self.store.iter_receipts()

    def read_receipts(self, cursor: ReceiptCursor | None = None) -> tuple[list[ReceiptLine], ReceiptCursor]:
        return self.store.read_receipts(cursor)

    def last_receipt_sha(self) -> str | None:
        return self.store.last_receipt_sha()

    def in_commit_order(self, lines: list[ReceiptLine]) -> list[ReceiptLine]:
        """Receipt lines oldest first in the order they were committed (log.md's), the order undo reads: not their
        files' dates, which follow each receipt's time (a clock set back). Reads log.md."""
        from .receipts import in_commit_order

        return in_commit_order(self.store.root, lines)

    def pages_unindexed(self, pages: list[str]) -> bool:
        """Whether any of these entry pages differs from what the index holds for it (gone, or another size or
        mtime): a stat each. True too when the index cannot tell (busy, unreadable, a page that cannot be
        statted): a full `sync` knows what to do about those. What the desk asks of a change it made itself."""
        try:
            return bool(pages) and bool(self.store.index.changed(pages))
        except (sqlite3.Error, OSError):
            return True

    def reread_edited_active(self) -> list[str]:
        """Read again into the index every active record's page changed since the index read it, and return those
        of them whose rows still do not say what the page says. Opening the wiki misses a page edited in place (an
        editor that saves without a rename changes neither `entries/` nor log.md); retrieve checks its results'
        pages and maintenance its records' the same way. One stat per page (`Index.changed_active`) and a read of
        each changed one; nothing but the derived index is written. A page left out of date (the index busy, the
        page unreadable: its row is kept until a full sync) is returned: read it with `load` before trusting its
        row."""
        index = self.store.index
        edited = index.changed_active()
        if not edited:
            return []
        try:
            counts = index.sync_paths(sorted(edited))
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            return edited  # left for the next sync, as a sync on open leaves a busy index
        if any(counts.values()):
            self.store.rows_resynced()  # as retrieve does when it re-read a page: counts and caches start over
        stale = set(index.changed(edited)) | {b.path for b in index.bad_pages()}
        return [p for p in edited if p in stale]

    # ---------------------------------------------------------------------------------------------- capture, retrieve

    def capture(
        self,
        text: str,
        *,
        now: datetime,
        actor: str = "agent:cli",
        key: str | None = None,
        title: str | None = None,
        category: str | Category = "fact",
        zone: str | TrustZone = "private_self",
        sensitivity: str | SensitivityTier = "normal",
        memory_class: str | MemoryClass | None = None,
        expires_at: datetime | str | None = None,
        ttl_days: float | None = None,
        source_type: str | SourceType = "agent_inferred",
        source_ref: str | None = None,
        confidence: float = 0.7,
        recall: list[str] | None = None,
        tags: list[str] | None = None,
        quiz_question: str | None = None,
        redact: bool = False,
        supersedes: str | None = None,
        contradicts: str | None = None,
        restates: str | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Receipt:
        """See CaptureOps.capture. `supersedes` / `contradicts` / `restates` name a memory id the statement is
        declared to relate to (at most one). `cancelled`: asked while the capture waits for the write lock; once
        true, the wait stops with `WaitCancelled` and nothing is written."""
        return self.capture_ops.capture(
            text,
            now=now,
            actor=actor,
            key=key,
            title=title,
            category=category,
            zone=zone,
            sensitivity=sensitivity,
            memory_class=memory_class,
            expires_at=expires_at,
            ttl_days=ttl_days,
            source_type=source_type,
            source_ref=source_ref,
            confidence=confidence,
            recall=recall,
            tags=tags,
            quiz_question=quiz_question,
            redact=redact,
            supersedes=supersedes,
            contradicts=contradicts,
            restates=restates,
            cancelled=cancelled,
        )

    def retrieve(
        self,
        query: str,
        *,
        zone: str | TrustZone = "private_self",
        limit: int = 10,
        now: datetime,
        actor: str = "agent:cli",
        record_access: bool = True,
    ) -> Receipt:
        return self.retrieve_ops.retrieve(
            query, zone=zone, limit=limit, now=now, actor=actor, record_access=record_access
        )

    def preview_all_zones(self, query: str, *, now: datetime, limit: int = 10) -> dict[str, Receipt]:
        return self.retrieve_ops.preview_all_zones(query, now=now, limit=limit)

    def read_view(self, rel: str) -> str:
        return self.retrieve_ops.read_view(rel)

    def category_counts(self) -> list[tuple[str, int, int]]:
        return self.retrieve_ops.category_counts()

    def category_entries(self, category: str, *, offset: int = 0, limit: int = 200) -> tuple[int, list[dict[str, str]]]:
        return self.retrieve_ops.category_entries(category, offset=offset, limit=limit)

    def zone_listing(self, zone: TrustZone, now: datetime) -> list[Listed]:
        return self.retrieve_ops.zone_listing(zone, at(now))

    def memory_id_at(self, page: str) -> str | None:
        return self.retrieve_ops.memory_id_at(page)

    def category_of(self, memory_id: str) -> str | None:
        return self.retrieve_ops.category_of(memory_id)

    def seen_by(self, memory_id: str, zone: TrustZone) -> bool:
        return self.retrieve_ops.seen_by(memory_id, zone)

    def resolve_prefix(self, ref: str, zone: TrustZone) -> str | None:
        return self.retrieve_ops.resolve_prefix(ref, zone)

    def bad_pages(self) -> list[BadPage]:
        return self.retrieve_ops.bad_pages()

    # ---------------------------------------------------------------------------------------------- maintenance

    def consolidate(
        self,
        *,
        now: datetime,
        actor: str = "agent:cli",
        threshold: float | None = None,
        preview: bool = False,
    ) -> Receipt:
        if threshold is None:
            return self.maintenance_ops.consolidate(now=now, actor=actor, preview=preview)
        return self.maintenance_ops.consolidate(now=now, actor=actor, threshold=threshold, preview=preview)

    def decay(
        self, *, now: datetime, actor: str = "agent:cli", progress: Progress | None = None, preview: bool = False
    ) -> Receipt:
        return self.maintenance_ops.decay(now=now, actor=actor, progress=progress, preview=preview)

    def snapshot(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        return self.maintenance_ops.snapshot(now=now, actor=actor)

    def compile(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        return self.maintenance_ops.compile(now=now, actor=actor)

    def export(
        self, *, zone: str | TrustZone, now: datetime, actor: str = "agent:cli", include_content: bool = False
    ) -> Receipt:
        return self.exchange_ops.export(zone=zone, now=now, actor=actor, include_content=include_content)

    def import_envelope(
        self,
        envelope_path: str,
        *,
        now: datetime,
        actor: str = "agent:cli",
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Receipt:
        """See ExchangeOps.import_envelope. `progress(done, items)` after each item; `cancelled()` asked before
        each item: once true, the import stops there and its receipt is `partial`."""
        return self.exchange_ops.import_envelope(
            envelope_path, now=now, actor=actor, progress=progress, cancelled=cancelled
        )

    def check(self) -> CheckReport:
        return self.integrity.check()

    def repair(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        return self.integrity.repair(now=now, actor=actor)

    # ---------------------------------------------------------------------------------------------- conflicts

    def conflicts(
        self, *, now: datetime | None = None, session: str | None = None, include_resolved: bool = False
    ) -> list[Conflict]:
        return self.conflict_queue.conflicts(now=now, session=session, include_resolved=include_resolved)

    def page_unreadable(self, page: str) -> str:
        """Why the entry page `page` is there but cannot be read as a record (malformed, unreadable, not a regular
        file, a duplicate id), as the index last found it: "<page> cannot be read (<why>)", what a decision on a
        conflict whose side it is refuses with; "" when it is read, or not there (gone). A stat and two primary-key
        look-ups."""
        return self.conflict_queue.unreadable_page(page)

    def conflict_problems(self) -> list[str]:
        """One line for each conflict record left out of `conflicts()` because it cannot be read (malformed,
        unreadable), naming the file and what is wrong; whoever lists the queue says so (`check` names them too)."""
        return self.conflict_queue.conflict_problems()

    def load_conflict(self, conflict_id: str) -> Conflict:
        return self.conflict_queue.load_conflict(conflict_id)

    def resolve_conflict(self, conflict_id: str, choice: str, *, now: datetime, actor: str) -> Receipt:
        return self.conflict_queue.resolve_conflict(conflict_id, choice, now=now, actor=actor)

    def snooze_conflict(
        self,
        conflict_id: str,
        *,
        now: datetime,
        actor: str,
        until: datetime | str | None = None,
        session: str | None = None,
    ) -> Receipt:
        return self.conflict_queue.snooze_conflict(conflict_id, now=now, actor=actor, until=until, session=session)

    # ---------------------------------------------------------------------------------------------- verification

    def pending_verifications(self, limit: int | None = None) -> list[Entry]:
        return self.verification_queue.pending_verifications(limit)

    def pending_count(self) -> int:
        return self.verification_queue.pending_count()

    def denied_records(self) -> list[Entry]:
        return self.verification_queue.denied_records()

    def verify_page(
        self,
        mode: str = "pending",
        *,
        order: str = "newest",
        needle: str | None = None,
        source: str | None = None,
        offset: int = 0,
        limit: int = 100,
    ) -> list[Entry]:
        return self.verification_queue.queue_page(
            mode, order=order, needle=needle, source=source, offset=offset, limit=limit
        )

    def verify_entries(self, ids: list[str]) -> list[Entry]:
        return self.verification_queue.queue_entries(ids)

    def verify_count(self, mode: str = "pending", *, needle: str | None = None, source: str | None = None) -> int:
        return self.verification_queue.queue_count(mode, needle=needle, source=source)

    def verify_sources(self, mode: str = "pending", *, needle: str | None = None) -> list[tuple[str, int]]:
        return self.verification_queue.queue_sources(mode, needle=needle)

    def verify_ids(
        self,
        mode: str = "pending",
        *,
        order: str = "newest",
        needle: str | None = None,
        source: str | None = None,
        only: list[str] | None = None,
    ) -> list[str]:
        return self.verification_queue.queue_ids(mode, order=order, needle=needle, source=source, only=only)

    def verify_position(
        self, mode: str, memory_id: str, *, order: str = "newest", needle: str | None = None
    ) -> int | None:
        return self.verification_queue.queue_position(mode, memory_id, order=order, needle=needle)

    def is_suppressed(self, key: str) -> bool:
        return self.verification_queue.is_suppressed(key)

    def confirm(self, ref: str, *, now: datetime, actor: str) -> Receipt:
        return self.verification_queue.confirm(ref, now=now, actor=actor)

    def deny(
        self,
        ref: str,
        *,
        now: datetime,
        actor: str,
        reason: str | None = None,
        redact: bool = False,
        pending_only: bool = False,
    ) -> Receipt:
        return self.verification_queue.deny(
            ref, now=now, actor=actor, reason=reason, redact=redact, pending_only=pending_only
        )

    def confirm_many(self, refs: list[str], *, now: datetime, actor: str) -> Receipt:
        return self.verification_queue.confirm_many(refs, now=now, actor=actor)

    def deny_many(
        self,
        refs: list[str],
        *,
        now: datetime,
        actor: str,
        reason: str | None = None,
        redact: bool = False,
        pending_only: bool = False,
    ) -> Receipt:
        return self.verification_queue.deny_many(
            refs, now=now, actor=actor, reason=reason, redact=redact, pending_only=pending_only
        )

    def undeny(self, ref: str, *, now: datetime, actor: str) -> Receipt:
        return self.verification_queue.undeny(ref, now=now, actor=actor)

    def rebuild_verification(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        return self.verification_queue.rebuild_verification(now=now, actor=actor)

    # ---------------------------------------------------------------------------------------------- quiz

    def person_for(self, actor: str | None, person: str | None = None) -> str:
        return self.quiz_queue.person_for(actor, person)

    def read_ledger(self, person: str, *, strict: bool = True) -> quiz.Ledger:
        return self.quiz_queue.read_ledger(person, strict=strict)

    def create_ledger(self, person: str, scheduler: str, *, now: datetime, actor: str) -> Receipt:
        return self.quiz_queue.create_ledger(person, scheduler, now=now, actor=actor)

    def set_scheduler(self, person: str, scheduler: str, *, now: datetime, actor: str) -> Receipt:
        return self.quiz_queue.set_scheduler(person, scheduler, now=now, actor=actor)

    def set_quiz_zone(self, person: str, zone: str | None, *, now: datetime, actor: str) -> Receipt:
        """The time zone whose days are the person's quiz days (IANA name; None: UTC days). Undoable."""
        return self.quiz_queue.set_zone(person, zone, now=now, actor=actor)

    def quiz_zone(self, person: str) -> str:
        """The name of the time zone whose days are the person's quiz days ("UTC" without one)."""
        return self.quiz_queue.zone_of(person)

    def person_zone(self, actor: str) -> str:
        """The time zone a date or a time without an offset that `actor` types (an expiry, a snooze) is read in
        (`until.read_until`): the quiz zone of the actor's person when their ledger names one; else the one zone
        the wiki's quiz ledgers name, when they name exactly one (an agent writes for the wiki's person); else
        UTC. Reads the ledgers: the desk asks in a worker."""
        return self.quiz_queue.person_zone(actor)

    def quiz_zone_problem(self, person: str) -> str | None:
        """Why the time zone the person's ledger names (written by hand) is not read, its days being UTC days; None
        when it names none or a zone this machine knows."""
        return self.quiz_queue.zone_problem(person)

    def quiz_day(self, person: str, *, now: datetime) -> date:
        """The person's quiz day at `now` (their time zone's date; the UTC date without one)."""
        return self.quiz_queue.quiz_day(person, now)

    def quiz_session(self, person: str, *, now: datetime, limit: int | None = None) -> list[QuizCard]:
        """Today's session: at most `limit` items (default and ceiling: the quiz policy's MAX_SESSION)."""
        if limit is None:
            return self.quiz_queue.quiz_session(person, now=now)
        return self.quiz_queue.quiz_session(person, now=now, limit=limit)

    def quiz_record(
        self,
        ref: str,
        result: str,
        *,
        now: datetime,
        actor: str,
        person: str | None = None,
        answer: str | None = None,
        question: str | None = None,
        redact: bool = False,
    ) -> Receipt:
        return self.quiz_queue.quiz_record(
            ref, result, now=now, actor=actor, person=person, answer=answer, question=question, redact=redact
        )

    def weak_spots(self, person: str) -> list[quiz.QuizItem]:
        return self.quiz_queue.weak_spots(person)

    def quiz_bury(self, ref: str, *, now: datetime, actor: str, person: str | None = None) -> Receipt:
        return self.quiz_queue.quiz_bury(ref, now=now, actor=actor, person=person)

    def quiz_preview(self, ref: str, person: str, *, now: datetime) -> dict[str, int]:
        return self.quiz_queue.quiz_preview(ref, person, now=now)

    def quiz_due_count(self, person: str, *, now: datetime) -> int:
        return self.quiz_queue.quiz_due_count(person, now)

    def has_ledger(self, person: str) -> bool:
        return self.quiz_queue.has_ledger(person)

    # ---------------------------------------------------------------------------------------------- tiers

    def plan_tiers(self, *, now: datetime) -> tiers.TierPlan:
        return self.tier_queue.plan_tiers(now=now)

    def commit_tiers(self, *, now: datetime, actor: str, owner: str | None = None) -> Receipt:
        return self.tier_queue.commit_tiers(now=now, actor=actor, owner=owner)

    def read_review(self, review: str) -> tuple[str, tiers.Review]:
        return self.tier_queue.read_review(review)

    def apply_tiers(self, review: str, accepted_ids: list[str] | None, *, now: datetime, actor: str) -> Receipt:
        return self.tier_queue.apply_tiers(review, accepted_ids, now=now, actor=actor)

    def restore_tier(self, ref: str, *, now: datetime, actor: str) -> Receipt:
        return self.tier_queue.restore_tier(ref, now=now, actor=actor)

    def pending_reviews(self) -> list[str]:
        return self.store.pending_reviews()

    def cold_records(self) -> list[Entry]:
        return self.tier_queue.cold_records()

    def plan_outline(self, *, now: datetime) -> TierOutline:
        return self.tier_queue.plan_outline(now=now)

    def plan_candidates(self, paths: list[str], *, now: datetime) -> list[tiers.Candidate]:
        return self.tier_queue.plan_candidates(paths, now=now)

    def cold_count(self) -> int:
        return self.tier_queue.cold_count()

    def cold_page(self, *, offset: int = 0, limit: int = 100) -> list[Entry]:
        return self.tier_queue.cold_page(offset=offset, limit=limit)

    # ---------------------------------------------------------------------------------------------- undo

    def undo(self, receipt_sha256: str, *, now: datetime, actor: str) -> Receipt:
        return self.undo_ops.undo(receipt_sha256, now=now, actor=actor)

    def find_receipt(self, sha: str) -> dict[str, Any] | None:
        return self.undo_ops.find_receipt(sha)

    def undone_by(self, sha: str) -> str | None:
        return self.undo_ops.undone_by(sha)

    def undos_since(self, cursor: ReceiptCursor | None = None) -> tuple[dict[str, str], ReceiptCursor]:
        return self.undo_ops.undos_since(cursor)

    def is_undoable(self, action: str) -> bool:
        """Whether receipts of this action can be undone (a queue registered a handler for it)."""
        return action in self.undo_ops.handlers

    def can_undo(self, receipt: Receipt) -> bool:
        """Whether `undo` would take this receipt as a decision to reverse: its action has a handler, and it was taken
        and kept what to put back (`undo.keeps_a_reversal`). `undo` may still refuse it for what came after (already
        undone, a later decision); a receipt this says no to is refused as `not_undoable`."""
        from .undo import keeps_a_reversal

        return self.is_undoable(receipt.action) and keeps_a_reversal(receipt.action, receipt.status, receipt.details)

    # ---------------------------------------------------------------------------------------------- the header

    def queue_counts_for_hot(self, now: datetime) -> dict[str, Any]:
        open_c = self.conflict_queue.conflicts(now=now)
        quiz_due, quiz_person = self.quiz_queue.quiz_due_most(now)
        return {
            "open_conflicts": len(open_c),
            "newest_conflicts": [(c.conflict_id, c.title) for c in open_c[:3]],
            "pending_verifications": self.verification_queue.pending_count(),
            "quiz_due": quiz_due,
            "quiz_person": quiz_person,
            "tier_review_pending": self.store.pending_reviews(),
        }

    def counts(
        self, now: datetime, *, person: str | None = None, session: str | None = None, with_tiers: bool = True
    ) -> dict[str, int]:
        """Header counts: open conflicts, pending verifications, quiz due, tier candidates, active records."""
        now = at(now)
        out = {
            "open_conflicts": len(self.conflict_queue.conflicts(now=now, session=session)),
            "pending_verifications": self.verification_queue.pending_count(),
            "quiz_due": (
                self.quiz_queue.quiz_due_count(person or "me", now) if person else self.quiz_queue.quiz_due_total(now)
            ),
            "records": int(self.store.index.scalar("SELECT count(*) FROM records WHERE status='active'") or 0),
        }
        if with_tiers:
            out["tier_candidates"] = self.tier_queue.candidate_count(now=now)
        return out

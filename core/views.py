"""The generated views — hot.md, index.md, index/<category>.md, SCHEMA.md, CONFLICTS.md — regenerated after every
write. The renderers are pure (`compile.py`); this object knows what to read and what a write made dirty.

Every queue and operation that writes is given the `Views` and calls `refresh(now)` after its receipt. The views
in turn need two things from the queues, given once by the engine through `connect`: the CONFLICTS.md writer (the
conflict queue owns it) and the queue counts shown in hot.md.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from . import compile as render
from .models import Category, iso_floor, parse_iso
from .pages import MAX_LEDGER_BYTES, atomic_write_many, read_text
from .store import Store, is_disk_error

# The text of CONFLICTS.md, or None when the queue looks unchanged since it was written; with force=True the text.
ConflictsView = Callable[[datetime, bool], str | None]
# The queue part of hot.md: open_conflicts, newest_conflicts, pending_verifications, quiz_due, quiz_person,
# tier_review_pending.
QueueCounts = Callable[[datetime], dict[str, Any]]


class Views:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._conflicts_view: ConflictsView = lambda now, force: None
        self._conflicts_written: Callable[[], None] = lambda: None
        self._queue_counts: QueueCounts = lambda now: {}

    def connect(
        self, *, conflicts_view: ConflictsView, conflicts_written: Callable[[], None], queue_counts: QueueCounts
    ) -> None:
        """`conflicts_view` gives CONFLICTS.md's text when it must be written; `conflicts_written` is told once it
        has been."""
        self._conflicts_view = conflicts_view
        self._conflicts_written = conflicts_written
        self._queue_counts = queue_counts

    def refresh(self, now: datetime, full: bool = False) -> None:
        """Regenerate what a write affected: hot.md, index.md and the dirty index/<category>.md pages (lock held).
        With `full`, every view. The views are rendered first and written together (`atomic_write_many`)."""
        store = self.store
        writes: list[tuple[Path, str]] = []
        txn = store.txn
        if txn is not None and txn.unfinished is not None:
            return  # the operation's intent is not finished: whoever finishes it regenerates every view
        store.commit_staged()  # views describe committed pages only
        patches = store.take_category_patches()
        counts = {k[4:]: v for k, v in store.tallies().items() if k.startswith("cat:") and v}
        # index.md links index/<category>.md for each category it counts: one that is not there yet (its records
        # reached the index after the write that made them, busy) is written too, so no link leads nowhere.
        dirty = set(patches) | {c for c in counts if not (store.root / "index" / f"{c}.md").exists()}
        for cat in sorted({c.value for c in Category} if full else dirty):
            target = store.root / "index" / f"{cat}.md"
            text = None
            if not full and cat in patches and target.exists():
                remove, add = patches[cat]
                text = render.patch_category(
                    read_text(target, limit=MAX_LEDGER_BYTES, what="a generated view"), cat, remove, list(add.values())
                )
            if text is None:
                rows = store.index.query("SELECT title, path, status, trust_zone FROM records WHERE category=?", (cat,))
                if not rows and not target.exists():
                    continue
                text = render.render_category(cat, [(r[0], r[1], r[2], r[3]) for r in rows])
            writes.append((target, text))
        archived = [
            (r[0], r[1])
            for r in store.index.query(
                "SELECT title, path FROM records WHERE status='archived' ORDER BY updated_at DESC, path LIMIT 50"
            )
        ]
        archived_total = int(store.index.scalar("SELECT count(*) FROM records WHERE status='archived'") or 0)
        writes.append((store.root / "index.md", render.render_index(now, counts, archived, archived_total)))
        if full or not (store.root / "SCHEMA.md").exists():
            writes.append((store.root / "SCHEMA.md", render.render_schema()))
        conflicts = self._conflicts_view(now, full)
        if conflicts is not None:
            writes.append((store.root / "CONFLICTS.md", conflicts))
        writes.append((store.root / "hot.md", render.render_hot(self.hot_inputs(now))))
        try:
            atomic_write_many(writes)
        except OSError as exc:
            if txn is None or not txn.committed or not is_disk_error(exc):
                raise
            # The operation is committed and applied; only its views could not be written (the disk is full). It
            # stands: its intent stays, and whoever finishes it regenerates the views.
            store.mark_unfinished(exc)
            return
        if conflicts is not None:
            self._conflicts_written()

    def refresh_all(self, now: datetime) -> None:
        self.refresh(now, full=True)

    def hot_inputs(self, now: datetime) -> render.HotInputs:
        # Capture times are to the second: captures within one second are told apart by the order the index took
        # them in (its rowid follows the writes; a rebuilt index has the order it read the pages in), not by their
        # ids, which are hashes.
        last = self._live("status='active'", "created_at DESC, rowid DESC", 5, now)
        commitments = self._live("status='active' AND category='commitment'", "updated_at DESC", 40, now)
        return render.HotInputs(now=now, last_captures=last, commitments=commitments, **self._queue_counts(now))

    def _live(self, where: str, order: str, limit: int, now: datetime) -> list[tuple[str, str]]:
        """(title, path) of the first `limit` records by `order` that match `where` and are not past their
        `expires_at` at `now`: an expired record is never returned (SPEC §4 retrieve), and hot.md listed an
        expired commitment as in flight. Rows expiring within now's second are compared as times (`iso_floor`)."""
        fetch = limit
        while True:
            rows = self.store.index.query(
                f"SELECT title, path, expires_at FROM records WHERE {where} AND (expires_at IS NULL OR expires_at > ?)"
                f" ORDER BY {order} LIMIT ?",
                (iso_floor(now), fetch),
            )
            live = [(r[0], r[1]) for r in rows if not r[2] or parse_iso(r[2]) > now]
            if len(live) >= limit or len(rows) < fetch:
                return live[:limit]
            fetch += limit - len(live)

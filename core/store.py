"""The store: one wiki root — its pages, the derived index, the audit trail (receipts/, log.md, PATTERNS.jsonl) and
the write path. Every mutation runs inside `writing()`: it holds the cross-process write lock, stages its writes
(core/journal.py) and commits them with its receipt in `record()`.

The store knows nothing of capture, the queues or the views; they are given a store (see `api.Engine`). Time
(`now`) and actor are parameters of every operation; nothing here reads the clock or the login.
"""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import journal, receipts
from .errors import BadInput, NotFound, PageError, ReadOnlyPage, WriteFailed
from .index import Index, SyncFound, is_busy, is_disk_full
from .models import Receipt, SourceType, Status, TrustZone, parse_iso
from .pages import MAX_PAGE_BYTES, append_lines, atomic_write, read_only, read_text
from .paths import PathEscape, confine, list_files, mkdirs, partition_slug, refuse_wiki_links, slugify
from .receipts import LOG_HEADER, ReceiptCursor, ReceiptLine, canonical_json, log_row, make_receipt, pattern_event
from .text import content_sha256, sha256_hex

_ID_PREFIX = re.compile(r"mem_[0-9a-f]{6,16}")


def is_id_prefix(ref: str) -> bool:
    """Whether `ref` is an id prefix `Store.resolve_id` looks up: `mem_` and six to sixteen lower-case hex digits (a
    shorter prefix, another case or surrounding spaces are not; `resolve_id` strips the spaces first)."""
    return _ID_PREFIX.fullmatch(ref) is not None


if TYPE_CHECKING:  # imported when first used (a write, a page read): reading the index needs neither
    from .lockfile import FileLock
    from .models import Entry

CORE_DIRS = (
    "entries",
    "conflicts",
    "stated",
    "quiz",
    "review",
    "receipts",
    "patterns",
    "snapshots",
    "sync/outbound",
    "sync/inbound",
    "raw",
    "index",
    "journal",
    ".memkeeper",
)
LOCK_TIMEOUT_S = 30.0
# Directories the engine writes (atomic_write leaves `.<name>.<random>.tmp` there if killed mid-write). `raw/` is the
# person's untouched material and `snapshots/` holds copies: neither is ever cleaned.
ENGINE_DIRS = (
    "",
    "entries",
    "conflicts",
    "stated",
    "quiz",
    "review",
    "review/applied",
    "receipts",
    "patterns",
    "sync/outbound",
    "index",
    "journal",
    "journal/stage",
)
DECISIONS_HEADER = "# Decisions\n\nArbitration outcomes, append-only.\n"

# How a category listing changed since the views were written: (pages to drop, page → (title, page, status, zone)).
CategoryPatch = tuple[set[str], dict[str, tuple[str, str, str, str]]]
Progress = Callable[[int, int], None]


# What says the disk, not memkeeper, refused a write: full, over quota, an I/O error, a read-only file system, a file
# too large, permission denied on a file the operation needed. SQLite says so with its own codes (SQLITE_IOERR,
# SQLITE_FULL, SQLITE_CANTOPEN).
_DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS, errno.EFBIG, errno.EACCES, errno.EPERM})
_DISK_SQLITE_CODES = frozenset({10, 13, 14})
_NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})


def is_disk_error(exc: BaseException) -> bool:
    """Whether `exc` is the disk refusing a read or write (see `_DISK_ERRNOS`), not a fault of memkeeper's."""
    if isinstance(exc, OSError):
        return exc.errno in _DISK_ERRNOS
    if isinstance(exc, sqlite3.OperationalError):
        code = getattr(exc, "sqlite_errorcode", None)
        return code is not None and (code & 0xFF) in _DISK_SQLITE_CODES
    return False


def disk_error_line(root: Path, exc: BaseException, then: str) -> str:
    """`<file>: <what the disk said>; <then>` for a disk error, one line. The file is named relative to the root;
    an error that names none, or names one of the engine's own temp or staged files, is the disk's as a whole."""
    if isinstance(exc, OSError):
        why = exc.strerror or str(exc)
        where = None
        # A rename names the staged file first and its target second ("entries/x.md": a folder that refuses writes
        # is named by the file it refused, not by the engine's own staging file).
        for name in (exc.filename, exc.filename2):
            if not isinstance(name, str | bytes | os.PathLike):
                continue
            full = os.path.abspath(os.fsdecode(name))
            if full.startswith(os.fspath(root) + os.sep):
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                if not rel.startswith(journal.JOURNAL_DIR + "/") and not journal.TMP_NAME.match(rel.rpartition("/")[2]):
                    where = rel
                    break
            elif full != os.fspath(root):
                where = full
                break
        if exc.errno in _NO_SPACE:
            hint = " (free some space, then try again)"
        elif exc.errno in (errno.EACCES, errno.EPERM):
            folder = where.rpartition("/")[0] if where and "/" in where else None
            hint = f" (check the permissions of {folder + '/' if folder else 'the wiki folder'})"
        else:
            hint = ""
        if where is None and exc.errno in (errno.EACCES, errno.EPERM):
            where = "a write was not permitted"
    else:
        where, why = ".memkeeper/index.db", str(exc)
        hint = " (is the disk full? free some space, then try again)" if is_disk_full(exc) else ""
    return f"{where or 'the disk refused a write'}: {why}; {then}{hint}"


def read_only_line(page: str) -> str:
    """What a write refused by a read-only page says (`ReadOnlyPage`)."""
    how = f"make it writable: chmod u+w {page}"
    return f"{page} is read-only, so nothing was written; to let memkeeper change it, {how}"


def _review_order(rel: str) -> tuple[str, int, str]:
    """A review file's place, oldest first: by its date, then its number (`tier-review-<date>-<n>.md`, the first of
    a day having none). By name, "…-2.md" came before "….md" and "-10" before "-2", so the newest was not last."""
    m = re.fullmatch(r"review/tier-review-(\d{4}-\d{2}-\d{2})(?:-(\d+))?\.md", rel)
    if m is None:
        return ("", 0, rel)
    return (m.group(1), int(m.group(2) or 1), rel)


def file_sig(path: Path) -> tuple[int, int] | None:
    """(mtime_ns, size) of a file or directory, None when it is missing: what the caches compare."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_mtime_ns, st.st_size)


class Store:
    """One wiki root. Open with `Store.open(root)`; `Store.create(root)` makes the layout first."""

    def __init__(self, root: Path, sync: bool = True) -> None:
        self.root = Path(os.path.realpath(root))
        self._lock: FileLock | None = None
        self._lock_guard = threading.Lock()
        self.index = Index(self.root)
        self._local = (
            threading.local()
        )  # the operation in progress belongs to the thread running it (the desk's workers)
        self.recoveries: list[dict[str, Any]] = []  # what completing interrupted writes did (for check --repair)
        # One line for each operation of this process that committed but that the disk refused to finish applying:
        # it stands, and the next write (or check --repair) finishes it. What a front door tells the person.
        self.unfinished: list[str] = []
        self.unfinished_threads: list[int] = []  # the thread that ran each of them (`threading.get_ident`)
        self._log_sig: tuple[int, int] | None = None
        self._category_patches: dict[str, CategoryPatch] = {}
        self.synced = False
        self._tallies: dict[str, int] | None = None
        # Called with the time of an interrupted operation this store has just completed: the views are regenerated
        # (the operation may have stopped while writing them). Set by the engine, which owns the views.
        self.on_recovered: Callable[[datetime], None] = lambda at: None
        # Caches kept current by writes (the tier queue's candidate count): each is called with the entries an
        # operation of this process has just written, or with None when it must start over (a sync, another
        # process's write, a recovery, a page removed).
        self.write_listeners: list[Callable[[list[tuple[str, Entry]] | None], None]] = []
        # The index reconnected to another file (another process replaced it, or it was deleted and made again):
        # its rows may have been read again, so the counts and the caches kept by writes start over.
        self.index.on_replaced = self.rows_resynced
        if sync:
            self.sync(full=False)

    @property
    def lock(self) -> FileLock:
        """The write lock (`.memkeeper/write.lock`), made on first use: a command that only reads never imports it."""
        if self._lock is None:
            with self._lock_guard:
                if self._lock is None:
                    from .lockfile import FileLock

                    # A short poll interval: a waiting writer notices a released lock within 10 ms, so under
                    # contention the lock changes hands at about the pace writes finish instead of in 50 ms steps.
                    # The wiki root is locked too (`anchor`): `.memkeeper/` may be deleted while a writer holds
                    # the lock in it, and a new write.lock would then exclude no one.
                    path = str(self.root / ".memkeeper" / "write.lock")
                    self._lock = FileLock(path, timeout=LOCK_TIMEOUT_S, poll_interval=0.01, anchor=str(self.root))
        return self._lock

    @property
    def _txn(self) -> journal.Txn | None:
        return getattr(self._local, "txn", None)

    @_txn.setter
    def _txn(self, txn: journal.Txn | None) -> None:
        self._local.txn = txn

    @property
    def txn(self) -> journal.Txn | None:
        """The operation in progress on this thread (inside `writing()`), else None."""
        return self._txn

    # ---------------------------------------------------------------------------------------------------- lifecycle

    @classmethod
    def open(cls, root: str | os.PathLike[str], *, sync: bool = True) -> Store:
        """Open an existing wiki. With sync=False the derived index is brought up to date later, by `sync()` (the
        desk does it in a worker with progress, so a big wiki never blocks start-up)."""
        path = Path(root)
        if not path.exists():
            raise BadInput(f"wiki root {os.fspath(root)!r} does not exist (run `memkeeper init` first)")
        if not path.is_dir():
            raise BadInput(f"wiki root {os.fspath(root)!r} is not a directory")
        if not (path / "entries").is_dir():
            # An existing folder that is not a wiki (a project, a mistyped --root) was taken over: the first
            # command wrote entries/, log.md, receipts/ and .memkeeper/ into it, a layout without its headers.
            raise BadInput(
                f"wiki root {os.fspath(root)!r} is not a memkeeper wiki (it has no entries/ folder); "
                "run `memkeeper init` to make one there"
            )
        state = Path(os.path.realpath(path)) / ".memkeeper"
        read_only = BadInput(
            f"wiki root {os.fspath(root)!r} is read-only: memkeeper needs to write its index in .memkeeper/ "
            "(even to read); copy the wiki somewhere writable to browse it"
        )
        try:
            mkdirs(state)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                raise read_only from None
            raise
        if not os.access(state, os.W_OK | os.X_OK):
            # SQLite opens the index with its write-ahead log beside it, for reading too: on a read-only folder
            # every command, listings included, failed as an internal error ("unable to open database file").
            raise read_only
        try:
            return cls(path, sync=sync)
        except sqlite3.OperationalError as exc:
            if not is_disk_error(exc):
                raise
            # Opening the index writes (its write-ahead log and shared-memory file), even to read: on a full disk
            # there is no room for them. The index is kept as it is.
            raise WriteFailed(
                disk_error_line(
                    Path(os.path.realpath(path)),
                    exc,
                    "memkeeper could not open its index, which it writes to even to read; nothing was written",
                )
            ) from None

    @classmethod
    def create(cls, root: str | os.PathLike[str]) -> Store:
        """Create the layout of a new wiki (or complete an existing one) and open it. The caller writes the first
        views (`Engine.init`), holding the lock, with `write_headers`."""
        path = Path(root)
        if path.exists() and not path.is_dir():
            raise BadInput(f"wiki root {os.fspath(root)!r} is not a directory")
        path.mkdir(parents=True, exist_ok=True)
        real = Path(os.path.realpath(path))
        for d in CORE_DIRS:
            mkdirs(real / d)  # never creates anything through a symlinked directory
        gi = real / ".gitignore"
        if not os.path.lexists(gi):
            atomic_write(gi, ".memkeeper/\n")
        return cls(path)

    def write_headers(self) -> None:
        """log.md and DECISIONS.md with their headers, when missing (lock held)."""
        reconciled = self.index.is_reconciled()
        for name, text in (("log.md", LOG_HEADER), ("DECISIONS.md", DECISIONS_HEADER)):
            if not (self.root / name).exists():
                atomic_write(self.root / name, text)
        if reconciled:  # a new log.md changes the signature, not the pages
            self.index.mark_reconciled(self.index.change_signature())

    def close(self) -> None:
        self.index.close()

    def sync(
        self, progress: Progress | None = None, *, full: bool = True, found: SyncFound | None = None
    ) -> dict[str, int]:
        """Refresh the derived index from the Markdown. `full`: scan every page (stat each, re-read what changed);
        otherwise scan only when `entries/` or log.md changed since the cache was last reconciled — what opening
        a wiki does, so a command on a big wiki never stats every page. A page rewritten in place (no rename) is
        picked up by the next full scan (`check`, the desk's start and its watcher). `found`, when given, gets what
        the scan found lost (`Index.sync`).

        Never fails because a writer is busy: if the index stays locked past its busy timeout the cache is served
        as it is (a consistent snapshot), and the next sync catches up."""
        log_sig = file_sig(self.root / "log.md")
        self.index.ensure_current()
        try:
            if not full and self.index.is_reconciled():
                counts = {"added": 0, "updated": 0, "removed": 0, "bad": 0}
            else:
                counts = self.index.sync(progress, found)
        except sqlite3.OperationalError as exc:
            if not is_busy(exc) and not is_disk_error(exc):
                raise
            # Busy past its timeout, or the disk refused the update (full): the cache is served as it is.
            counts = {"added": 0, "updated": 0, "removed": 0, "bad": 0, "busy": 1}
        # Another process may have written (and updated the shared index.db itself): re-count on demand. The caches
        # kept by writes start over only when the scan changed rows (they notice another process's commits
        # themselves, by log.md).
        self._tallies = None
        if any(counts.values()):
            self._notify(None)
        self._log_sig = log_sig
        self.synced = True
        return counts

    def path(self, rel: str) -> Path:
        try:
            return confine(self.root, rel)
        except PathEscape as exc:
            raise BadInput(str(exc)) from None

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    # ---------------------------------------------------------------------------------------------------- writing

    @contextmanager
    def writing(self, cancelled: Callable[[], bool] | None = None) -> Iterator[None]:
        """Hold the cross-process write lock for one operation, whose writes commit as one unit (core/journal.py).

        On taking the lock: complete or discard what an interrupted writer left in journal/, and drop the cached
        counts if another process wrote since we last looked (the shared index.db already holds its rows — every
        writer updates it under this lock — so nothing is rescanned). Inside: writes are staged; `record()` commits
        them with the receipt. An operation that fails before its receipt leaves nothing behind. `cancelled`: asked
        while waiting for the lock (`FileLock.acquire`); once true, `WaitCancelled` and nothing is written."""
        if self._txn is not None:  # nested: part of the enclosing operation
            yield
            return
        refuse_wiki_links(self.root)  # a planted symlink refuses the operation before anything is written
        if not os.path.isdir(self.root / ".memkeeper"):
            # Deleted (it is derived: `rm -rf .memkeeper`), and the write lock lives there. Made again; the index
            # is made again from the pages under the lock (`ensure_current`, below).
            mkdirs(self.root / ".memkeeper")
        with self.lock.acquire(cancelled=cancelled):
            try:
                if self.index.ensure_current():
                    # Another process rebuilt the file, or it was deleted (and is made again, empty): make sure it
                    # is whole before deciding.
                    self.index.sync()
                self._recover()
            except Exception as exc:
                if not is_disk_error(exc):
                    raise
                # An earlier operation's intent could not be finished (the disk still refuses it): it stays in
                # journal/, and this operation has not begun.
                raise WriteFailed(
                    disk_error_line(
                        self.root, exc, "an interrupted write could not be finished, and nothing was written"
                    )
                ) from exc
            if file_sig(self.root / "log.md") != self._log_sig:
                self.rows_resynced()
            txn = self._txn = journal.Txn(self.root, self.path)
            try:
                yield
                if txn.pending:
                    self._commit(None)  # writes without a receipt still commit as one unit
            except BaseException as exc:
                txn.discard()  # what was staged and not committed; what was committed is completed next time
                if not txn.committed and is_disk_error(exc):
                    # Before the commit point: the journal guarantees that nothing of the operation was written.
                    raise WriteFailed(disk_error_line(self.root, exc, "nothing was written")) from exc
                raise
            finally:
                self._txn = None
            if txn.committed and txn.unfinished is None:
                try:
                    os.unlink(self.root / journal.INTENT)
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    if not is_disk_error(exc):
                        raise
                    # Applied whole; only its intent could not be removed (a file system turned read-only): the
                    # next writer finds every step done and removes it. The operation stands, as after a kill.
                    txn.unfinished = exc
            if txn.unfinished is not None:
                # Committed, not finished: the intent stays for the next writer or check --repair to finish (it
                # regenerates the views and re-reads the pages into the index); the caches start over.
                self.unfinished.append(
                    disk_error_line(
                        self.root,
                        txn.unfinished,
                        "the operation is recorded and stands; the next write, or memkeeper check --repair, finishes it",
                    )
                )
                self.unfinished_threads.append(threading.get_ident())
                self.rows_resynced()
                self._category_patches = {}
            self._log_sig = file_sig(self.root / "log.md")
            self._notify([])  # the operation is over (lock still held): log.md is where this process left it

    def _commit(self, receipt: Receipt | None) -> None:
        """The commit point: write the intent, then apply it (lock held)."""
        txn = self._txn
        assert txn is not None
        if txn.unfinished is not None:
            # An earlier commit of this operation is not finished: a new intent would take the place of its intent.
            raise WriteFailed(
                disk_error_line(
                    self.root,
                    txn.unfinished,
                    f"receipt {(txn.receipt_sha256 or 'none')[:12]}… is recorded and the next write (or check --repair) "
                    "finishes it, but the rest of the operation was not written",
                )
            )
        items = txn.entries()
        intent = txn.intent(receipt.to_dict() if receipt else None)
        journal.write_intent(self.root, intent)
        txn.committed = True
        txn.receipt_sha256 = intent["receipt_sha256"] or txn.receipt_sha256
        txn.clear()  # the staged files belong to the intent now: a failure from here on is completed, not discarded
        # Whether the cache is reconciled with the pages before this write: if so, it stays so after it (every page
        # this operation writes is put below, under the same lock).
        reconciled = self.index.is_reconciled()
        txn.memo.clear()  # the files change now
        try:
            out = journal.apply_intent(self.root, intent, txn.resolve, fresh=True)
        except Exception as exc:
            if not is_disk_error(exc):
                raise
            # After the commit point the operation stands, as it would after a kill: the intent is on disk, and the
            # next writer (or check --repair) finishes it. Its receipt is returned; the views wait for that writer.
            self.mark_unfinished(exc)
            return
        if any(
            s["op"] in ("remove", "rename")
            and (s["path"].startswith("entries/") or str(s.get("dst", "")).startswith("entries/"))
            for s in intent["steps"]
        ):
            self._notify(None)
        if out.skipped:
            # A page changed by hand in the moment since this operation read it: the person's text stays.
            self.recoveries.append(
                {"completed": intent["receipt_sha256"], "written": out.written, "skipped": out.skipped, "discarded": []}
            )
            skipped = {s["path"] for s in out.skipped}
            self.index.sync_paths(sorted(skipped & {i[0] for i in items}))
            items = [i for i in items if i[0] not in skipped]
            reconciled = False
        try:
            self._index_written(items, self.index.change_signature() if reconciled else None)
        except sqlite3.OperationalError as exc:
            if not is_disk_error(exc):
                raise
            self.mark_unfinished(exc)  # the pages are written; the next writer re-reads them into the index

    def mark_unfinished(self, exc: BaseException) -> None:
        """The operation in progress committed, and the disk failed while it was being applied (or its views were
        being regenerated): it stands, and its intent stays in journal/ for the next writer to finish."""
        txn = self._txn
        assert txn is not None and txn.committed
        txn.unfinished = exc
        self.rows_resynced()

    def _notify(self, entries: list[tuple[str, Entry]] | None) -> None:
        for listener in self.write_listeners:
            listener(entries)

    def commit_staged(self) -> None:
        """Commit what the operation has staged so far, without a receipt (the views describe committed pages
        only). Nothing to do outside an operation or when nothing is staged."""
        if self._txn is not None and self._txn.pending:
            self._commit(None)

    def take_category_patches(self) -> dict[str, CategoryPatch]:
        """How the category listings changed since the views were last refreshed (and forget it)."""
        patches, self._category_patches = self._category_patches, {}
        return patches

    def _index_written(self, items: list[tuple[str, Entry, str]], reconciled: str | None = None) -> None:
        """Update the cache (and the tallies and category patches the views use) for entry pages just written.
        `reconciled`: the change signature to record with them (see `Index.put_many`)."""
        if not items:
            if reconciled is not None:
                try:
                    self.index.put_many([], reconciled)
                except sqlite3.OperationalError as exc:
                    if not is_busy(exc):
                        raise
            return
        olds: dict[str, sqlite3.Row | None] = {}
        for page, _, _ in items:
            rows = self.index.query("SELECT category, status, source_type, verified FROM records WHERE path=?", (page,))
            olds[page] = rows[0] if rows else None
        try:
            self.index.put_many(items, reconciled)
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            # The pages are written and the receipt is committed; the cache catches up at the next sync (the rows'
            # mtime/size no longer match the pages). Counts are recomputed on demand.
            self.rows_resynced()
            return
        self._notify([(page, entry) for page, entry, _ in items])
        for page, entry, _ in items:
            old = olds[page]
            self._count_change(old, entry)
            # Remember how the category listings change, so `Views.refresh` patches them instead of re-listing.
            if old:
                self._category_patches.setdefault(old[0], ({page}, {}))[0].add(page)
            patch = self._category_patches.setdefault(entry.category.value, (set(), {}))
            patch[0].add(page)
            patch[1][page] = (entry.title, page, entry.status.value, entry.trust_zone.value)

    def _recover(self) -> dict[str, Any] | None:
        """Complete the intent an interrupted writer left in journal/, and discard what it staged but never
        committed (lock held). Returns what was done, or None when journal/ was clean (the common case: one
        listdir)."""
        if not journal.journal_busy(self.root):
            return None
        note: dict[str, Any] = {"completed": None, "written": [], "skipped": [], "discarded": []}
        intent = None
        if os.path.lexists(self.root / journal.INTENT):
            try:
                intent = journal.read_intent(self.root)
                out = journal.apply_intent(self.root, intent, self.path, fresh=False)
            except (ValueError, KeyError, TypeError, BadInput) as exc:
                # Not an intent this engine wrote (edited by hand?): set it aside, so it never stops a write.
                aside = self.root / journal.JOURNAL_DIR / f"unreadable-intent-{len(self.recoveries)}.json"
                n = 1
                while aside.exists():
                    n += 1
                    aside = aside.with_name(f"unreadable-intent-{len(self.recoveries)}-{n}.json")
                os.replace(self.root / journal.INTENT, aside)
                note["set_aside"] = {"path": self.rel(aside), "reason": str(exc)}
                intent = None
            else:
                note.update(completed=intent.get("receipt_sha256"), written=out.written, skipped=out.skipped)
                pages = sorted(
                    {
                        s["path"]
                        for s in intent["steps"]
                        if s["op"] in ("write", "remove") and s["path"].startswith("entries/")
                    }
                )
                try:
                    self.index.sync_paths(pages)
                except sqlite3.OperationalError as exc:
                    if not is_busy(exc):
                        raise
                if out.skipped and intent.get("at") and intent.get("actor"):
                    self._record_recovery(intent, out.skipped)
        self.rows_resynced()
        self._category_patches = {}
        if intent is not None:
            if intent.get("at"):
                # The interrupted operation may have stopped while regenerating the views: regenerate them all.
                self.on_recovered(parse_iso(intent["at"]))
            os.unlink(self.root / journal.INTENT)
        for rel in journal.leftover_stage(self.root):
            journal.remove_tree(self.root / rel)
            note["discarded"].append(rel)
        note["discarded"] += self.remove_tmp_files(("", "index", "journal") if intent is not None else ("journal",))
        self.recoveries.append(note)
        return note

    def _record_recovery(self, intent: dict[str, Any], skipped: list[dict[str, str]]) -> None:
        """A receipt saying which steps of an interrupted write were left alone (files edited by hand since). It is
        made from the interrupted intent alone (its time and actor), so completing twice records it once."""
        receipt = make_receipt(
            "recover",
            "partial",
            parse_iso(intent["at"]),
            intent["actor"],
            {"completes": intent.get("receipt_sha256"), "skipped": skipped},
        )
        txn = journal.Txn(self.root, self.path)
        self._stage_receipt(txn, receipt, "medium")
        new_intent = txn.intent(receipt.to_dict())
        journal.write_intent(self.root, new_intent)
        journal.apply_intent(self.root, new_intent, self.path, fresh=False)

    def pending_reviews(self) -> list[str]:
        """The tier review files awaiting a person (`review/tier-review-<date>.md`). Here rather than in the tier
        queue: hot.md lists them after every write, and a capture need not import the tier rules for it."""
        try:
            names = list_files(self.root / "review", ".md")  # regular files only, never through a symlink
        except BadInput:
            return []  # review/ is a symlink: check reports it
        return sorted((f"review/{n}" for n in names if n.startswith("tier-review-")), key=_review_order)

    def tmp_files(self, dirs: tuple[str, ...] = ENGINE_DIRS) -> list[str]:
        """Temp files an interrupted atomic write left in the directories the engine writes."""
        out = []
        for d in dirs:
            base = self.root / d if d else self.root
            if base.is_symlink() or not base.is_dir():
                continue
            with os.scandir(base) as it:
                for de in it:
                    if journal.TMP_NAME.match(de.name) and de.is_file(follow_symlinks=False):
                        out.append(f"{d}/{de.name}" if d else de.name)
        return sorted(out)

    def remove_tmp_files(self, dirs: tuple[str, ...] = ENGINE_DIRS) -> list[str]:
        """Remove leftover temp files (lock held: no write of ours is in flight)."""
        removed = []
        for rel in self.tmp_files(dirs):
            try:
                os.unlink(self.root / rel)
            except FileNotFoundError:
                continue
            removed.append(rel)
        return removed

    # -- staged writes: every write of an operation goes through these (outside an operation they write at once) --

    def write_file(self, path: Path, text: str) -> None:
        if self._txn is None:
            atomic_write(path, text)
        else:
            self._txn.write(self.rel(path), text)

    def append_file(self, path: Path, lines: list[str], create: str | None = None) -> None:
        """Append whole lines; `create` is the header written first when the file does not exist yet."""
        if self._txn is None:
            if create is not None and not path.exists():
                atomic_write(path, create)
            append_lines(path, lines)
        else:
            self._txn.append(self.rel(path), lines, create)

    def remove_file(self, path: Path) -> None:
        if self._txn is None:
            os.unlink(path)
        else:
            self._txn.remove(self.rel(path))

    def read_text(self, path: Path, limit: int = MAX_PAGE_BYTES) -> str:
        """A file's text as the current operation will leave it (its staged writes included)."""
        if self._txn is not None:
            text = self._txn.read_text(self.rel(path))
            if text is not None:
                return text
        # Bytes as they are: a CR in the content survives (no universal-newline translation).
        return read_text(path, limit=limit, what="a page" if limit == MAX_PAGE_BYTES else "this file")

    def _stage_receipt(self, txn: journal.Txn, receipt: Receipt, evidence_grade: str) -> None:
        self._own_hash(txn, receipt)
        txn.append(f"receipts/{receipt.at[:10]}.jsonl", [canonical_json(receipt.to_dict())])
        txn.append("log.md", [log_row(receipt)], create=LOG_HEADER)
        txn.append("patterns/PATTERNS.jsonl", [pattern_event(receipt, evidence_grade)])

    def _own_hash(self, txn: journal.Txn, receipt: Receipt) -> None:
        """Give the receipt about to be recorded a hash no receipt in the trail has (lock held). Two operations
        alike in one second (deny, undo, deny again: the doors give time to the second) made one receipt twice, and
        undo, which knows a decision by its hash, took the later for the undone earlier. Such a receipt gets
        `details.repeat` (2, 3, …) and its hash again (`receipts.distinguish`); every other receipt is as before.
        It is changed in place: whoever holds it sees the hash recorded. The trail is read from the end of the
        receipt's own day file back to an earlier second (`receipts.hashes_at_or_after`), never whole."""
        rel = f"receipts/{receipt.at[:10]}.jsonl"
        receipts.distinguish(receipt, receipts.hashes_at_or_after(self.root, receipt.at, txn.appending(rel)))

    def own_hash(self, receipt: Receipt) -> Receipt:
        """Settle the hash of a receipt the operation in progress is about to record (lock held), for an operation
        that writes the hash into a page before it records the receipt (a conflict's resolution names its receipt):
        `record` would otherwise give it another one there. Recording it later keeps the hash settled here."""
        txn = self._txn
        if txn is None:
            raise RuntimeError("own_hash: only inside writing(), whose lock keeps the hash free until it is recorded")
        self._own_hash(txn, receipt)
        return receipt

    def record(self, receipt: Receipt, evidence_grade: str = "medium") -> Receipt:
        """Commit the operation: its staged writes, then the receipt in receipts/<date>.jsonl, its row in log.md and
        its PATTERNS.jsonl event — all in one intent (lock held)."""
        if self._txn is None:
            with self.writing():
                return self.record(receipt, evidence_grade)
        self._stage_receipt(self._txn, receipt, evidence_grade)
        self._commit(receipt)
        return receipt

    def save(self, entry: Entry, page: str | None = None) -> str:
        """Write an entry page (staged until the operation's receipt commits it). Returns the page path."""
        page = page or self.page_of(entry.memory_id)
        if page is None:
            raise BadInput(f"no page for {entry.memory_id}")
        entry.normalized_content_sha256 = content_sha256(entry.title, entry.content)
        from .pagetext import render_entry

        text = render_entry(entry)
        if "\x00" in text:
            # A page holding a NUL byte is read as a torn write and never loaded (`pagefmt.parse_entry_block`).
            raise BadInput(f"{page}: the record's text holds a NUL byte, which no page may hold; nothing was written")
        if len(text.encode("utf-8")) > MAX_PAGE_BYTES:
            # A page the engine could not read back would be lost to every later command: refuse before writing.
            raise BadInput(
                f"{page} would be larger than the {MAX_PAGE_BYTES // (1024 * 1024)} MiB page limit; nothing was written"
            )
        target = self.path(page)
        if read_only(target):
            # Made read-only by hand ("don't touch this"): not replaced behind the person's back. Raised while the
            # operation is only staged, so nothing of it is written.
            raise ReadOnlyPage(read_only_line(page))
        if self._txn is not None:
            self._txn.write(self.rel(target), text, entry.model_copy(deep=True))
            return page
        atomic_write(target, text)
        self._index_written([(page, entry, sha256_hex(text))])
        return page

    # Tallies that hot.md and index.md need after every write, kept current by save() so a write never re-counts
    # the wiki. Any sync that finds outside changes drops them; they are re-counted once, on demand.
    def drop_tallies(self) -> None:
        self._tallies = None

    def rows_resynced(self) -> None:
        """The tallies and every cache kept by writes start over: rows changed in a way the writes did not report
        one by one (another process's commit, a recovery, a write the busy index could not take, retrieve's re-read
        of pages edited in place)."""
        self.drop_tallies()
        self._notify(None)

    def tallies(self) -> dict[str, int]:
        if self._tallies is None:
            t = {
                f"cat:{r[0]}": r[1]
                for r in self.index.query(
                    "SELECT category, count(*) FROM records WHERE status='active' GROUP BY category"
                )
            }
            t["pending"] = int(
                self.index.scalar(
                    "SELECT count(*) FROM records WHERE status='active' AND source_type='agent_inferred' AND verified=0"
                )
                or 0
            )
            self._tallies = t
        return self._tallies

    def _count_change(self, old: sqlite3.Row | None, entry: Entry) -> None:
        if self._tallies is None:
            return
        t = self._tallies
        if old is not None:
            if old["status"] == "active":
                t[f"cat:{old['category']}"] = t.get(f"cat:{old['category']}", 0) - 1
                if old["source_type"] == "agent_inferred" and not old["verified"]:
                    t["pending"] -= 1
        if entry.status is Status.active:
            t[f"cat:{entry.category.value}"] = t.get(f"cat:{entry.category.value}", 0) + 1
            if entry.source_type is SourceType.agent_inferred and entry.verified is None:
                t["pending"] += 1

    def read_only(self, page: str) -> bool:
        """Whether the page was made read-only by hand (`pages.read_only`): `save` refuses to replace it."""
        return read_only(self.path(page))

    def page_of(self, memory_id: str) -> str | None:
        if self._txn is not None and memory_id in self._txn.pages_by_id:
            return self._txn.pages_by_id[memory_id]
        return self.index.scalar("SELECT path FROM records WHERE memory_id=?", (memory_id,))

    def load(self, memory_id: str, *, scan: bool = False) -> Entry:
        """Read a record from its page on disk (the source of truth), as this operation has staged it. `scan`: look
        for secrets in every free-text field whatever the page's hash says (`pagefmt._refuse_secrets`): for a page
        about to be served as it is now, which the index may not have read since an edit by hand."""
        page = self.page_of(memory_id)
        if page is None:
            raise NotFound(f"unknown memory id {memory_id!r}")
        try:
            from .pagefmt import parse_entry

            return parse_entry(self.read_text(self.path(page)), edited=scan)
        except FileNotFoundError:  # deleted or moved by hand since the index last read the folder
            raise NotFound(f"{memory_id}: its page {page} is gone (deleted or moved outside memkeeper)") from None
        except (OSError, PageError) as exc:  # a symlink or an oversized file raises its own BadInput
            raise BadInput(f"{page}: {getattr(exc, 'strerror', None) or exc}") from None

    def get(self, memory_id: str) -> Entry | None:
        rows = self.index.query("SELECT data, content FROM records WHERE memory_id=?", (memory_id,))
        return self.index.entry(rows[0]) if rows else None

    def resolve_id(self, ref: str) -> str:
        """Accept a memory id, a unique id prefix of at least `mem_` and six hex digits, or a page path; return the
        memory id. A shorter prefix ("mem_", "m": an agent's placeholder) named whichever record was alone in a
        small wiki, and `_` and `%` were LIKE's wildcards."""
        ref = ref.strip()
        if ref.startswith("entries/"):
            mid = self.index.scalar("SELECT memory_id FROM records WHERE path=?", (ref,))
        elif exact := self.index.scalar("SELECT memory_id FROM records WHERE memory_id=?", (ref,)):
            mid = exact  # whatever its form (a page written by hand may give any id)
        elif is_id_prefix(ref):
            hi = ref + "g"  # past every hex digit: the ids that start with `ref` sort between the two
            rows = self.index.query(
                "SELECT memory_id FROM records WHERE memory_id >= ? AND memory_id < ? LIMIT 2", (ref, hi)
            )
            mid = rows[0][0] if len(rows) == 1 else None
        else:
            mid = None
        if mid is None:
            raise NotFound(self._unread_holder(ref) or f"unknown memory id {ref!r}")
        return mid

    def _unread_holder(self, ref: str) -> str | None:
        """What to say of `ref` (a page path or a whole memory id) that names no record because its page is a bad
        page (unresolved merge markers, a NUL byte, malformed frontmatter): the page and why it is not read, where
        "unknown memory id" left a person to guess why a decision on a record they could see was refused. Looked up
        only after a reference failed: the bad pages are few, and each is read once, without following a link."""
        if ref.startswith("entries/"):
            bad = self.index.bad_page(ref)
            return f"{ref} cannot be read: {bad.error}" if bad is not None else None
        line = re.compile(rf"^memory_id:[ \t]*(['\"]?){re.escape(ref)}\1[ \t\r]*$", re.MULTILINE)
        for bad in self.index.bad_pages():
            try:
                text = read_text(self.root / bad.path, limit=MAX_PAGE_BYTES, what="a page")
            except (OSError, ValueError, BadInput):
                continue
            if line.search(text):
                return f"{ref}: its page {bad.path} cannot be read: {bad.error}"
        return None

    def new_page(
        self, title: str, zone: str, sensitivity: str, fallback: str = "entry", unique: str | None = None
    ) -> str:
        """A free page name for a new record. `unique` (a few characters of its memory id) names a page in a
        partition its own zone may not read: there even a numeric suffix would tell the agent that a page of the
        same title is already in the partition, so the name carries something that depends on nothing else."""
        slug = slugify(title, fallback=slugify(fallback))
        base = partition_slug(slug, zone, sensitivity) + (f"--{unique}" if unique else "")
        qualified = f"entries/{base}.md"
        # A page's name may only depend on pages its own readers may see: were the plain name taken by whichever
        # partition came first, an agent of a limited zone would learn from the name of its own new page that a
        # page of that title exists where it may not look. Only the owner's zone (private_self, which sees every
        # page) takes the plain name; every other zone's pages are named by partition from the start.
        owner = zone == TrustZone.private_self.value and not unique
        candidates = [f"entries/{slug}.md", qualified] if owner else [qualified]
        for cand in candidates:
            if not self._page_taken(cand):
                return cand
        n = 2
        while True:
            cand = f"entries/{base}-{n}.md"
            if not self._page_taken(cand):
                return cand
            n += 1

    def _page_taken(self, page: str) -> bool:
        if self._txn is not None and self._txn.has(page):
            return True
        # lexists: a symlink (reported by check, never followed) still takes its name.
        return (
            os.path.lexists(self.root / page)
            or self.index.scalar("SELECT 1 FROM files WHERE path=?", (page,)) is not None
        )

    def new_id(self, seed: str) -> str:
        """`mem_` + 16 hex derived from what is being stored (so a rebuilt wiki gets the same ids); a collision with
        an existing record moves on to the next derivation."""
        n = 0
        while True:
            mid = "mem_" + sha256_hex(f"{seed}|{n}")[:16]
            if self.page_of(mid) is None:
                return mid
            n += 1

    # ---------------------------------------------------------------------------------------------------- the trail

    def last_receipt_sha(self) -> str | None:
        return receipts.last_receipt_sha(self.root)

    def iter_receipts(self) -> Iterator[ReceiptLine]:
        """(file, line number, parsed receipt or None, raw line) for every line of receipts/*.jsonl, oldest first."""
        yield from receipts.read_receipts(self.root)[0]

    def read_receipts(self, cursor: ReceiptCursor | None = None) -> tuple[list[ReceiptLine], ReceiptCursor]:
        """Receipts written after `cursor`, oldest first, and the new cursor (see `receipts.read_receipts`)."""
        return receipts.read_receipts(self.root, cursor)

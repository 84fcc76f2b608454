"""The derived SQLite index (`.memkeeper/index.db`): a cache of the Markdown pages, with FTS5 for candidates.

Deleting it loses nothing: `sync()` rebuilds it from `entries/` (per-file mtime+size, then content hash).
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import index_schema as schema
from .errors import BadInput, Busy, PageError
from .pages import MAX_PAGE_BYTES
from .paths import mkdirs, open_dir, page_rank, read_at, refuse_symlink
from .text import raw_tokens, sha256_hex

if TYPE_CHECKING:  # the lock and the page format are imported when first used: reading the index needs neither
    from .lockfile import FileLock
    from .models import Entry


@dataclass
class BadPage:
    path: str
    error: str


@dataclass(frozen=True)
class GonePage:
    """An active record whose page a sync found gone from `entries/`: deleted or moved outside memkeeper (the engine
    never deletes a page). The sync dropped the record's rows."""

    path: str
    memory_id: str
    title: str


@dataclass
class SyncFound:
    """What a sync found lost since the pages were last read: the pages it could not read (malformed, unreadable,
    not a regular file, a duplicate id) and the active records whose page it found gone. Each is found once, by the
    sync that first reads the change: a page that stays as it is is not read again (`Index.sync(found=…)`)."""

    bad: list[BadPage] = field(default_factory=list)
    gone: list[GonePage] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.bad or self.gone)

    def clear(self) -> None:
        self.bad.clear()
        self.gone.clear()

    def extend(self, other: SyncFound) -> None:
        self.bad.extend(other.bad)
        self.gone.extend(other.gone)


@dataclass(frozen=True)
class ZoneRows:
    """The records one trust zone may retrieve — active, and kept by its condition on the zone columns (`zone_where`,
    `scoring.zone_sql`; None: every record) — as sets of rowids read from covering indexes only: statuses from
    `records_pending`, the zone columns from `records_partition`. Made by `Index.zone_rows`; the counts say which
    of a set and its complement is the smaller, so a query names that one."""

    zone_where: str | None
    params: tuple
    everything: int  # every record
    inactive: int  # the records that are not active
    zoned: int  # the records, of any status, that the zone condition keeps (`everything` without one)

    @property
    def all_kept(self) -> bool:
        """Nothing is left out: every record is active and visible to the zone."""
        return not self.inactive and self.zoned == self.everything

    @property
    def exact(self) -> bool:
        """Whether `kept_bound` is the number of records kept (else a lower bound: inactive ones may be outside)."""
        return self.zone_where is None or not self.inactive

    @property
    def kept_bound(self) -> int:
        return self.zoned - self.inactive

    @property
    def by_kept(self) -> bool:
        """Whether the kept records are the smaller set (judged, when `kept_bound` is a bound, by `zoned`)."""
        return (self.kept_bound if self.exact else self.zoned) * 2 <= self.everything

    def _by_zone(self, keep: bool) -> str:
        condition = f"({self.zone_where})" if keep else f"NOT ({self.zone_where})"
        return f"SELECT rowid FROM records INDEXED BY records_partition WHERE {condition}"

    def kept(self) -> tuple[str, tuple]:
        """SQL selecting the rowids of the records kept, and its parameters."""
        if self.zone_where is None:
            return "SELECT rowid FROM records WHERE status = 'active'", ()
        if self.inactive:
            return f"{self._by_zone(True)} AND rowid NOT IN ({_NOT_ACTIVE})", self.params
        return self._by_zone(True), self.params

    def left_out(self) -> tuple[str, tuple]:
        """SQL selecting the rowids of the records left out (not active, or not visible to the zone)."""
        if self.zone_where is None:
            return _NOT_ACTIVE, ()
        if self.inactive:
            return f"{_NOT_ACTIVE} UNION {self._by_zone(False)}", self.params
        return self._by_zone(False), self.params

    def rowid_filter(self) -> tuple[str, tuple]:
        """A condition on `rowid` that keeps exactly the records kept ('' when nothing is left out), through the
        smaller of the two sets. `+rowid`: FTS5 is not handed the set to look up one by one; it walks its matches
        and each is checked against the set (built once per statement)."""
        if self.all_kept:
            return "", ()
        if self.by_kept:
            sql, p = self.kept()
            return f" AND +rowid IN ({sql})", p
        sql, p = self.left_out()
        return f" AND +rowid NOT IN ({sql})", p

    def hidden_filter(self) -> tuple[str, tuple] | None:
        """A condition on `rowid` that keeps the active records the zone may not see; None when there can be none
        (the zone sees every active record)."""
        if self.zone_where is None or self.zoned == self.everything:
            return None
        if (self.everything - self.zoned) * 2 <= self.everything:
            sql, p = self._by_zone(False), self.params
            if self.inactive:
                sql = f"{sql} AND rowid NOT IN ({_NOT_ACTIVE})"
            return f" AND +rowid IN ({sql})", p
        sql, p = self._by_zone(True), self.params
        if self.inactive:
            sql = f"{sql} UNION {_NOT_ACTIVE}"
        return f" AND +rowid NOT IN ({sql})", p


BUSY_TIMEOUT_S = 30.0
CANDIDATES = 300  # matches drawn from the full-text index per retrieve (the best bm25 first), then scored exactly
SYNC_CHUNK = 1000
# A cold build (an empty index, at least BUILD_MIN pages) is written to a new file and swapped in whole (`_build`);
# from PARALLEL_MIN pages on, the pages are read and parsed in worker processes while this one inserts.
BUILD_MIN = 200
PARALLEL_MIN = 5000
BUILD_CHUNK = 2000
BUILD_PREFIX = "index.db.build-"
# The records table has several indexes and the FTS table its segments: with SQLite's default 2 MB page cache a
# build of a big wiki re-reads b-tree pages over and over.
_CACHE_SIZE = "PRAGMA cache_size=-65536"
# 8 KB pages (SQLite's default is 4 KB): a records row is ~1.5 KB, so a 4 KB page wasted a quarter of itself, and a
# cold build spends less on page handling (set on a new file only: an existing index keeps its page size).
PAGE_SIZE = "page_size=8192"
# The rowids of records that are not active (two ranges of `records_pending`: every status but 'active').
_NOT_ACTIVE = "SELECT rowid FROM records WHERE status < 'active' OR status > 'active'"
SUBJECT_COMMON = 400  # a word in more records than this says too little about a subject to look candidates up by
# SQLite result codes that mean the file is not a usable database: rebuild it (it is derived data).
_CORRUPT_CODES = {10, 11, 26}  # SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_NOTADB
# ... except the I/O errors that say the disk refused a write (full, or the shared-memory file could not grow), not
# that the file is damaged: IOERR_WRITE, _FSYNC, _DIR_FSYNC, _TRUNCATE, _SHMOPEN, _SHMSIZE, _SHMMAP. Taken for
# damage, a full disk deleted the index on open and then could not create a new one.
_DISK_IOERR_CODES = {778, 1034, 1290, 1546, 4618, 4874, 5386}


def is_disk_full(exc: BaseException) -> bool:
    """The disk refused SQLite a write (SQLITE_FULL or a write-side I/O error): the file is not damaged."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and ((code & 0xFF) == 13 or code in _DISK_IOERR_CODES)


def is_corrupt(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _CORRUPT_CODES and code not in _DISK_IOERR_CODES
    text = str(exc).lower()
    return "malformed" in text or "not a database" in text


def is_busy(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
    return "locked" in str(exc).lower()


class Index:
    """The cache. Safe to share between processes: every write is its own `BEGIN IMMEDIATE` transaction (waiting up
    to BUSY_TIMEOUT_S for another writer's), readers see a consistent WAL snapshot, and a file that is not a
    usable database is deleted and rebuilt from the pages (never an error for the command that found it). Before
    each query or write it checks (a stat) that the file is still the one it has open: one another process replaced
    or deleted is reconnected to, or made again, and brought up to date (`_fresh`)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = root / ".memkeeper" / "index.db"
        self._prepare()
        self._lock = threading.RLock()
        self._rebuilding = False
        self._refreshing = False
        self._index_lock: FileLock | None = None
        self._index_lock_made = threading.Lock()
        self.rebuilt: str | None = None  # why this process rebuilt the file, if it did
        # Memory ids whose record a sync removed (`_remove_path`, `_put`): a copy set aside for one of them may hold
        # it now (`_promote_copies`).
        self._vacated: set[str] = set()
        self._ino: tuple[int, int] | None = None
        # Called (with no argument) when this index reconnected to another file than the one it had open: the rows
        # may have been read again, so the caches kept from them start over. Set by the store.
        self.on_replaced: Callable[[], None] = lambda: None
        self.db = self._open()

    # -- connection -----------------------------------------------------------------------------------------------

    def _prepare(self) -> None:
        """`.memkeeper/` (made again when it was deleted: it is derived), and none of the files SQLite and the
        locks open by name there a symlink (PathEscape)."""
        mkdirs(self.path.parent)
        for name in ("index.db", "index.db-wal", "index.db-shm", "index.db-journal", "write.lock"):
            refuse_symlink(self.path.parent / name)

    def _file_lock(self) -> FileLock:
        # Creating, deleting and rebuilding the file are serialised across processes, so two processes that find it
        # corrupt at once do not delete each other's fresh copy. One lock object, re-entrant within a thread: a
        # build that finds the file deleted makes it again (`_create`) while it holds the lock.
        if self._index_lock is None:
            with self._index_lock_made:
                if self._index_lock is None:
                    from .lockfile import FileLock

                    self._index_lock = FileLock(str(self.path.parent / "index.lock"), timeout=300)
        return self._index_lock

    def _connect(self, *, create: bool = True) -> sqlite3.Connection:
        """A connection to the file. Without `create` a missing file is not made (SQLITE_CANTOPEN): only `_create`
        makes one, under the index lock, after removing the `-wal` and `-shm` a removed file left behind."""
        target: str | Path = self.path if create else self.path.absolute().as_uri() + "?mode=rw"
        db = sqlite3.connect(
            target, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_S, uri=not create
        )
        db.row_factory = sqlite3.Row
        # SQLite's lower() folds ASCII letters only: a filter for "müller" would miss "Müller".
        db.create_function("casefold", 1, _casefold, deterministic=True)
        schema.register_fold(db)
        return db

    def _connect_existing(self) -> sqlite3.Connection | None:
        """A connection to the file if there is one, else None (never creates it)."""
        try:
            return self._connect(create=False)
        except sqlite3.OperationalError as exc:
            if getattr(exc, "sqlite_errorcode", None) != 14 or os.path.lexists(self.path):  # SQLITE_CANTOPEN
                raise
            return None

    def _open(self) -> sqlite3.Connection:
        try:
            return self._open_file()
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            # Another process holds the file locked past the busy timeout (one that has it open while the file was
            # truncated under it keeps it so until it closes): one line, not an internal error.
            raise Busy(
                f"{self.path.name} is held locked by another process on this wiki ({exc}); nothing was done: "
                "try again once it lets go, or close it (a desk, an agent's server)"
            ) from None

    def _open_file(self) -> sqlite3.Connection:
        db = self._connect_existing()
        if db is None:  # no file (a new wiki, or deleted: it is derived): made under the index lock
            return self._create(force=False)
        why = self._unusable(db)
        if why is None:
            return db
        if why:
            self.rebuilt = f"index.db was unreadable ({why}); rebuilt from the pages"
        return self._create(force=False)

    def _unusable(self, db: sqlite3.Connection) -> str | None:
        """None when `db`'s file is a usable index (`db` kept open, its identity noted). Otherwise `db` is closed and
        the reason returned: "" for a new or foreign file, the error for a damaged one; an error that is not damage
        (busy, a full disk) is raised."""
        try:
            if self._schema_ok(db):
                self._ino = self._identity()
                return None
        except sqlite3.DatabaseError as exc:
            db.close()
            if not is_corrupt(exc):
                raise
            return str(exc)
        db.close()
        return ""

    @staticmethod
    def _schema_ok(db: sqlite3.Connection) -> bool:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(_CACHE_SIZE)
        try:
            version = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.OperationalError as exc:
            if is_busy(exc) or is_disk_full(exc):
                raise
            return False  # no meta table: a new or foreign file
        if version is None or version[0] != schema.SCHEMA_VERSION:
            return False
        if any(schema.columns_of(db, t) != cols for t, cols in schema.table_columns().items()):
            return False  # this version's number on another table set: a table or a column missing or changed
        db.execute("SELECT count(*) FROM files").fetchone()  # touches the b-tree a sync reads first
        return True

    def _identity(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self.path)
        except (FileNotFoundError, NotADirectoryError):
            return None
        return (st.st_dev, st.st_ino)

    def _create(self, *, force: bool) -> sqlite3.Connection:
        """Create an empty file under the index lock. Without `force`, a usable file found there (another process
        created it meanwhile) is kept. The caller's sync fills it.

        A file that is not there (deleted) may have left its `-wal` and `-shm` behind, still open in a process that
        had it open: they are removed before the new file is made, never taken for its own (SQLite would read the
        old file's pages from them into the new one)."""
        self._prepare()
        with self._file_lock():
            if not force:
                db = self._connect_existing()
                if db is not None and self._unusable(db) is None:
                    return db
            for suffix in ("", "-wal", "-shm", "-journal"):
                try:
                    os.unlink(str(self.path) + suffix)
                except FileNotFoundError:
                    pass
            db = self._connect()
            db.execute(f"PRAGMA {PAGE_SIZE}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(_CACHE_SIZE)
            db.executescript(schema.DDL)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (schema.SCHEMA_VERSION,))
            self._ino = self._identity()
            return db

    def ensure_current(self) -> bool:
        """Reconnect when the file is no longer the one this connection has open (its device and inode): another
        process replaced it (rebuilt it: a corrupt file, `check --repair`, a cold build), or it was deleted
        (`rm -rf .memkeeper`: it is derived), in which case an empty one is made again under the index lock. A
        connection left on the old file reads and writes rows no other process sees. True when it reconnected:
        the caller syncs what it needs (the new file may be empty, or still being built). A stat when nothing
        changed."""
        ident = self._identity()
        if ident is not None and ident == self._ino:
            return False
        with self._lock:
            ident = self._identity()
            if ident is not None and ident == self._ino:
                return False  # another thread of this process reconnected meanwhile
            # The new connection is made before the old one is closed: the folder can be deleted again between
            # the two (a person's `rm -rf .memkeeper` while a desk or a server reads), and an open that fails then
            # left this index on a closed connection ("Cannot operate on a closed database" for every later query
            # of a long-lived process). It is tried again when the folder vanished under it; should it still fail,
            # the old connection stays, and the next query tries again (its file is still not this one).
            for attempt in range(3):
                self._prepare()  # the folder made again if it was deleted; a symlink put there is refused
                try:
                    fresh = self._open()
                    break
                except sqlite3.OperationalError:
                    if attempt == 2 or self.path.parent.is_dir():
                        raise
            old, self.db = self.db, fresh
            try:
                # SQLite neither checkpoints nor removes the -wal and -shm of a file that was moved or removed
                # when it closes it (they are another file's now, or gone).
                old.close()
            except sqlite3.Error:
                pass
        self.on_replaced()
        return True

    def _fresh(self) -> None:
        """Before a query or a write: if the file was replaced or deleted by another process (`ensure_current`),
        reconnect, and bring the new file up to date with the pages when it is not (made empty here, or another
        process's build still running) — a read does it as it rebuilds a corrupt file, a writer under the write
        lock. A stat when nothing changed. Not inside a transaction, nor while this index rebuilds or syncs after
        a reconnect (it is the current file then)."""
        if self._refreshing or self._rebuilding:
            return
        ident = self._identity()
        if ident is not None and ident == self._ino:
            return
        with self._lock:
            if self._refreshing or self._rebuilding or self._in_transaction():
                return
            self._refreshing = True
            try:
                gone = self._identity() is None
                if not self.ensure_current():
                    return
                if gone:
                    self.rebuilt = "index.db was deleted; made again from the pages"
                try:
                    if not self.is_reconciled():
                        self.sync()
                except sqlite3.OperationalError as exc:
                    if not is_busy(exc) and not is_disk_full(exc):
                        raise
                    # Busy past its timeout, or the disk refused the update: served as it is (as a sync on open).
            finally:
                self._refreshing = False

    def _in_transaction(self) -> bool:
        try:
            return self.db.in_transaction
        except sqlite3.ProgrammingError:
            return False  # closed: a connection that failed to open again (`_lost`); the next query reconnects

    def _lost(self) -> None:
        """The connection was closed and a new one could not be made (the folder deleted again meanwhile: a
        person's `rm -rf .memkeeper` under a desk or a server). The file it had open is forgotten, so that the
        next query connects again (`ensure_current`) instead of failing on a closed connection for the rest of the
        process's life."""
        self._ino = None

    def rebuild(self, reason: str) -> dict[str, int]:
        """Delete the file and build it again from the pages."""
        with self._lock:
            self._rebuilding = True
            try:
                try:
                    self.db.close()
                except sqlite3.Error:
                    pass
                try:
                    self.db = self._create(force=True)
                except BaseException:
                    self._lost()
                    raise
                self.rebuilt = reason
                return self.sync()
            finally:
                self._rebuilding = False

    def _recover_from(self, exc: sqlite3.DatabaseError) -> None:
        if not is_corrupt(exc) or self._rebuilding:
            raise exc
        with self._lock:
            if self.ensure_current():
                # Another process already rebuilt it (or it was deleted, and an empty one was made again).
                if not self._refreshing and not self.is_reconciled():
                    self.sync()
                return
            self.rebuild(f"index.db was unreadable ({exc}); rebuilt from the pages")

    def _guard(self, fn):
        try:
            return fn()
        except sqlite3.DatabaseError as exc:
            self._recover_from(exc)
        return fn()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken up front (`BEGIN IMMEDIATE`) so it never has to upgrade a read lock — the
        upgrade is what fails at once with "database is locked" when another connection wrote in between."""
        self._fresh()
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                self.db.execute("COMMIT")
            except BaseException:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise

    def close(self) -> None:
        with self._lock:
            self.db.close()

    # -- queries --------------------------------------------------------------------------------------------------

    def query(self, sql: str, params: tuple | list = ()) -> list[sqlite3.Row]:
        self._fresh()

        def run():
            with self._lock:
                return self.db.execute(sql, params).fetchall()

        return self._guard(run)

    def scalar(self, sql: str, params: tuple | list = ()):
        self._fresh()

        def run():
            with self._lock:
                return self.db.execute(sql, params).fetchone()

        row = self._guard(run)
        return row[0] if row else None

    def generation(self) -> tuple[int, tuple[int, int] | None, int]:
        """A value that changes when another connection, of this process or another, commits to the file, and when
        this index reconnects to another file (SQLite's `data_version` is per connection). What a reader compares
        to tell whether what it read may have changed since; a commit's log.md row is appended before its pages
        reach the index, so log.md alone does not say that the index has them."""
        self._fresh()

        def run():
            with self._lock:
                return (id(self.db), self._ino, int(self.db.execute("PRAGMA data_version").fetchone()[0]))

        return self._guard(run)

    def entry(self, row: sqlite3.Row) -> Entry:
        return schema.entry_from_row(row)

    def bad_pages(self) -> list[BadPage]:
        return [
            BadPage(r["path"], r["error"])
            for r in self.query("SELECT path, error FROM files WHERE error IS NOT NULL ORDER BY path")
        ]

    def bad_page(self, path: str) -> BadPage | None:
        """`path` as a bad page (`bad_pages`), or None when the index read it or has no row for it."""
        rows = self.query("SELECT path, error FROM files WHERE path=? AND error IS NOT NULL", (path,))
        return BadPage(rows[0]["path"], rows[0]["error"]) if rows else None

    # -- maintenance ----------------------------------------------------------------------------------------------

    def scan(self, sigs: bool = True) -> dict[str, tuple[int, int]]:
        """entries/*.md on disk (regular files only) with their (mtime_ns, size). Without `sigs`, a regular file's
        is (0, 0) and it is not stat'ed: enough for an empty index, which has nothing to compare them with (a
        build stats each page as it reads it)."""
        entries_dir = self.root / "entries"
        seen: dict[str, tuple[int, int]] = {}
        # Pages that are not regular files (a symlink, wherever it points; a directory; a FIFO) are never read:
        # reported as bad.
        refused: dict[str, tuple[tuple[int, int], str]] = {}
        self._refused = refused
        if entries_dir.is_symlink() or (os.path.lexists(entries_dir) and not entries_dir.is_dir()):
            try:
                refuse_symlink(entries_dir)
                why = "not a directory; not read"
            except BadInput as exc:
                why = _reason(exc, entries_dir)
            refused["entries"] = ((0, 0), why)
        elif entries_dir.is_dir():
            with os.scandir(entries_dir) as it:
                for de in it:
                    if not de.name.endswith(".md") or de.name.startswith("."):
                        continue
                    if not sigs and de.is_file(follow_symlinks=False):  # the directory entry's type, no stat
                        seen["entries/" + de.name] = (0, 0)
                        continue
                    try:
                        st = de.stat(follow_symlinks=False)
                    except FileNotFoundError:
                        continue
                    if de.is_symlink():
                        try:
                            target = os.readlink(entries_dir / de.name)
                        except OSError:
                            target = "?"
                        refused["entries/" + de.name] = (
                            (st.st_mtime_ns, st.st_size),
                            f"symlink to {target}; memkeeper never follows symlinks",
                        )
                    elif de.is_file(follow_symlinks=False):
                        seen["entries/" + de.name] = (st.st_mtime_ns, st.st_size)
                    else:  # a directory named like a page, a FIFO, a socket, a device
                        refused["entries/" + de.name] = ((st.st_mtime_ns, st.st_size), not_a_page(st.st_mode))
        return seen

    def sync(self, progress=None, found: SyncFound | None = None) -> dict[str, int]:
        """Bring the cache in line with `entries/` (a full scan). Returns counts of added/updated/removed/bad files;
        `found`, when given, gets the pages this sync found unreadable and the active records whose page it found
        gone (`SyncFound`).

        Changed files are re-read in transactions of SYNC_CHUNK files; each file is re-checked inside its
        transaction, so a sync running beside a writer never undoes the writer's row. Afterwards the cache is marked
        reconciled with the signature taken before the scan (`is_reconciled`): anything that changed during the scan
        changed the signature too, and makes the next open scan again."""
        sig = self.change_signature()
        counts = self._guard(lambda: self._sync(progress, found))
        self.mark_reconciled(sig)
        return counts

    def change_signature(self) -> str:
        """What says whether the pages may have changed since the cache was last reconciled with them: `entries/`
        (identity, mtime, size: a page created, renamed or removed there changes its mtime) and log.md (every
        commit appends to it). A page rewritten in place, without a rename, changes neither: the next full scan
        (`sync`: `check`, the desk's start and watcher) picks it up."""
        parts = []
        for path in (self.root / "entries", self.root / "log.md"):
            try:
                st = os.stat(path, follow_symlinks=False)
            except OSError:
                parts.append("-")
                continue
            parts.append(f"{st.st_mode:o}.{st.st_ino}.{st.st_mtime_ns}.{st.st_size}")
        return ":".join(parts)

    def is_reconciled(self) -> bool:
        """True when nothing has changed since the cache was last reconciled with the pages (no scan needed)."""
        try:
            row = self.scalar("SELECT value FROM meta WHERE key='reconciled'")
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            return False
        return row is not None and row == self.change_signature()

    def mark_reconciled(self, sig: str) -> None:
        with self._write() as db:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('reconciled', ?)", (sig,))

    def _sync(self, progress=None, found: SyncFound | None = None) -> dict[str, int]:
        if found is not None:
            found.clear()  # a retry after the index was rebuilt (`_guard`) starts over
        known = {r["path"]: (r["mtime_ns"], r["size"]) for r in self.query("SELECT path, mtime_ns, size FROM files")}
        # Every page is new to an empty index: a stat per page (~a third of a second at 100k) would tell nothing.
        seen = self.scan(sigs=bool(known))
        refused = self._refused
        changed = sorted(p for p, sig in seen.items() if p not in known or known[p] != sig)
        removed = sorted(p for p in known if p not in seen and p not in refused)
        built = None
        if not known and len(changed) >= BUILD_MIN:
            built = self._build(changed, progress)
            if built is not None:
                counts, changed = built  # what is left: pages the build could not take (bad, duplicate ids)
        fresh_refusals = {p: v for p, v in refused.items() if known.get(p) != v[0]}
        # The refusal of `entries` itself (a symlink, a file) is the one row that is not a page: once the folder is
        # a folder again there is nothing to re-read there, and reading it as a page made it "not a regular file"
        # on every check until a repair.
        lifted = [p for p in removed if not p.startswith("entries/")]
        removed = [p for p in removed if p.startswith("entries/")]
        if fresh_refusals or lifted:
            with self._write():
                for p in lifted:
                    self._remove_path(p)
                for p, (sig, why) in sorted(fresh_refusals.items()):
                    self._remove_path(p)
                    self._record_bad(p, sig, "", why, found)
        rest = self.sync_paths(removed + changed, progress=None if built else progress, total=len(changed), found=found)
        if built is not None:
            rest = {k: counts.get(k, 0) + v for k, v in rest.items()}
        rest["bad"] += len(fresh_refusals)
        if found is not None and found.gone:
            # A page renamed by hand is gone under its old name and read under the new one: its record is not lost.
            ids = [g.memory_id for g in found.gone]
            here = {r[0] for r in self.rows_for(ids, columns="memory_id")}
            found.gone = [g for g in found.gone if g.memory_id not in here]
        return rest

    def _build(self, paths: list[str], progress=None) -> tuple[dict[str, int], list[str]] | None:
        """A cold build: every page of `paths` (sorted) into a new database file, swapped in whole when complete.

        The file is written without a journal or fsyncs, its secondary indexes created after the rows; a crash
        leaves only a stray `index.db.build-<pid>` (removed by the next build) beside the old, empty index, never
        a half-built index that looks valid. Runs under the index lock, so two processes never build at once; None
        when another process filled or replaced the index meanwhile (the ordinary sync then does what is left).
        Returns the counts and the pages left for the ordinary sync: those that could not be read or parsed, and
        later pages with a memory id already taken (it keeps the one `page_rank` puts first and reports the other)."""
        with self._file_lock():
            if self._identity() != self._ino:
                self.ensure_current()  # another process replaced the file (built or rebuilt it): read that one
                return None
            if self.scalar("SELECT count(*) FROM files"):
                return None
            folder = self.path.parent
            for name in os.listdir(folder):
                if name.startswith(BUILD_PREFIX):  # left by a killed build: the index lock says none is running
                    os.unlink(folder / name)
            tmp = folder / f"{BUILD_PREFIX}{os.getpid()}"
            try:
                counts, left = self._fill(tmp, paths, progress)
                with self._lock:
                    self.db.close()
                    try:
                        for suffix in ("-wal", "-shm", "-journal"):
                            try:
                                os.unlink(str(self.path) + suffix)
                            except FileNotFoundError:
                                pass
                        refuse_symlink(self.path)
                        os.replace(tmp, self.path)
                    finally:
                        try:
                            self.db = self._connect()  # the new file, or the old one if the swap failed
                        except BaseException:
                            self._lost()
                            raise
                    if not self._schema_ok(self.db):
                        raise sqlite3.DatabaseError("the index just built has no schema")
                    self._ino = self._identity()
            finally:
                try:
                    os.unlink(tmp)
                except FileNotFoundError:
                    pass
        return counts, left

    def _fill(self, tmp: Path, paths: list[str], progress=None) -> tuple[dict[str, int], list[str]]:
        refuse_symlink(tmp)
        db = sqlite3.connect(tmp, isolation_level=None)
        schema.register_fold(db)
        try:
            # Nothing reads this file until it is complete and renamed into place: no journal, no fsync.
            for pragma in (
                PAGE_SIZE,
                "journal_mode=OFF",
                "synchronous=OFF",
                "locking_mode=EXCLUSIVE",
                "temp_store=MEMORY",
                "cache_size=-262144",
            ):
                db.execute(f"PRAGMA {pragma}")
            db.executescript(schema.TABLES)
            db.execute("BEGIN")
            taken: set[str] = set()
            left: list[str] = []
            added = 0
            done = 0
            for chunk, pages in _parsed_chunks(self.root, paths):
                if progress:
                    progress(done, len(paths))
                done += len(chunk)
                items = []
                for p in chunk:
                    page = pages.get(p)
                    if page is None or page.memory_id in taken:
                        left.append(p)  # unreadable or unparsable, or a duplicate id: the ordinary sync reports it
                        continue
                    taken.add(page.memory_id)
                    items.append(page)
                before = db.execute("SELECT max(rowid) FROM records").fetchone()[0] or 0
                db.executemany(schema.INSERT_RECORD, [v.record for v in items])
                # The chunk's words, from its rows in one statement: here, while the workers parse the next chunks,
                # rather than in one pass at the end, when nothing else is left to do.
                db.execute(schema.INSERT_FTS_AFTER, (before,))
                db.executemany(
                    "INSERT INTO files VALUES (?,?,?,?,?,NULL)",
                    [(v.path, *v.sig, v.digest, v.memory_id) for v in items],
                )
                added += len(items)
            for ddl in schema.INDEXES:
                db.execute(ddl)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (schema.SCHEMA_VERSION,))
            db.execute("COMMIT")
            db.execute("PRAGMA locking_mode=NORMAL")
            db.execute("PRAGMA journal_mode=WAL")
        finally:
            db.close()
        return {"added": added, "updated": 0, "removed": 0, "bad": 0}, left

    def sync_paths(
        self, paths: list[str], progress=None, total: int | None = None, found: SyncFound | None = None
    ) -> dict[str, int]:
        """Re-read the given entry pages (added, changed or gone) and update their rows. `found`: as `sync`'s."""
        counts = {"added": 0, "updated": 0, "removed": 0, "bad": 0}
        # entries/ is opened once (every component checked, no symlink followed) and each page is read relative to
        # it, instead of walking the root's components again for every page of a cold build.
        try:
            dfd: int | None = open_dir(self.root / "entries")
        except (BadInput, OSError):
            dfd = None  # gone, or a symlink (reported by scan): each page read below is refused on its own
        try:
            for i in range(0, len(paths), SYNC_CHUNK):
                if progress:
                    progress(i, total if total is not None else len(paths))
                chunk = paths[i : i + SYNC_CHUNK]
                pages = _read_new_pages(chunk, dfd)  # outside the transaction: it holds no lock while parsing
                lost = SyncFound()
                with self._write():
                    self._sync_chunk(chunk, pages, counts, dfd, lost)
                if found is not None:  # what the chunk's transaction committed
                    found.extend(lost)
            if self._vacated:
                lost = SyncFound()
                with self._write():
                    self._promote_copies(counts, dfd, lost)
                if found is not None:
                    found.extend(lost)
        finally:
            if dfd is not None:
                os.close(dfd)
        return counts

    def changed_active(self) -> list[str]:
        """`changed` over every active record's page: those whose file is gone, no longer a regular file, or has
        another (mtime_ns, size) than the cache holds. The signatures come from the narrow `files` table (every
        page the cache has read, a record's or one it could not read: a stat each; every record's row is written
        with its page's), and only the few that moved are looked up among the active records, so the wide
        `records` rows are never scanned."""
        rows = self.query("SELECT path, mtime_ns, size FROM files")
        moved = self._moved((r["path"], (r["mtime_ns"], r["size"])) for r in rows)
        out: list[str] = []
        for i in range(0, len(moved), 500):
            chunk = moved[i : i + 500]
            marks = ",".join("?" * len(chunk))
            active = {
                r[0] for r in self.query(f"SELECT path FROM records WHERE status='active' AND path IN ({marks})", chunk)
            }
            out += [p for p in chunk if p in active]
        return out

    def _moved(self, known: Iterable[tuple[str, tuple[int, int] | None]]) -> list[str]:
        """The pages of `known` (path, the (mtime_ns, size) the cache holds or None) that a sync would re-read."""
        out = []
        root = os.fspath(self.root)  # (a string join: a Path per page costs more than its stat)
        for p, sig in known:
            try:
                st = os.lstat(os.path.join(root, p))
            except (FileNotFoundError, NotADirectoryError):
                out.append(p)
                continue
            if not stat.S_ISREG(st.st_mode) or sig != (st.st_mtime_ns, st.st_size):
                out.append(p)
        return out

    def changed(self, paths: list[str]) -> list[str]:
        """Those of the indexed entry pages `paths` that `sync_paths` would re-read — gone, no longer a regular
        file, or with another (mtime_ns, size) than the cache holds for them (`_sync_one`'s test, the one every
        sync makes) — in the order given. A stat per page, and one query."""
        known: dict[str, tuple[int, int]] = {}
        for i in range(0, len(paths), 500):
            chunk = paths[i : i + 500]
            rows = self.query(
                f"SELECT path, mtime_ns, size FROM files WHERE path IN ({','.join('?' * len(chunk))})", chunk
            )
            known.update({r["path"]: (r["mtime_ns"], r["size"]) for r in rows})
        return self._moved((p, known.get(p)) for p in paths)

    def _sync_chunk(
        self,
        paths: list[str],
        pages: dict[str, NewPage],
        counts: dict[str, int],
        entries_fd: int | None,
        found: SyncFound | None = None,
    ) -> None:
        """Sync a chunk of pages inside one transaction. `pages`: those of them read and parsed without a problem
        (`_read_new_pages`). The ones the cache has never seen (all of them on a cold build) are inserted with one
        `executemany` per table; everything else (a known page, a page that could not be read or parsed, a memory
        id already taken) goes through `_sync_one`, which re-reads and reports it."""
        marks = ",".join("?" * len(paths))
        known = {r[0] for r in self.db.execute(f"SELECT path FROM files WHERE path IN ({marks})", paths)}
        known |= {r[0] for r in self.db.execute(f"SELECT path FROM records WHERE path IN ({marks})", paths)}
        slow = [p for p in paths if p in known or p not in pages]
        fresh: dict[str, NewPage] = {}
        taken: set[str] = set()
        for p in paths:
            page = pages.get(p)
            if page is None or p in known:
                continue
            if page.memory_id in taken:
                slow.append(p)  # two new pages with one id: `_sync_one` keeps the better-named one (`page_rank`)
                continue
            taken.add(page.memory_id)
            fresh[p] = page
        if fresh:
            ids = [v.memory_id for v in fresh.values()]
            clash: set[str] = set()
            for j in range(0, len(ids), 500):
                part = ids[j : j + 500]
                clash |= {
                    r[0]
                    for r in self.db.execute(
                        f"SELECT memory_id FROM records WHERE memory_id IN ({','.join('?' * len(part))})", part
                    )
                }
            for p, v in list(fresh.items()):
                if v.memory_id in clash:
                    del fresh[p]
                    slow.append(p)
            items = list(fresh.values())
            self.db.executemany(schema.INSERT_RECORD, [v.record for v in items])
            self.db.executemany(schema.INSERT_FTS, [(v.memory_id,) for v in items])
            self.db.executemany(
                "INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,NULL)",
                [(v.path, *v.sig, v.digest, v.memory_id) for v in items],
            )
            counts["added"] += len(items)
        for p in sorted(slow):
            self._sync_one(p, counts, entries_fd, found)

    def _sync_one(
        self, p: str, counts: dict[str, int], entries_fd: int | None = None, found: SyncFound | None = None
    ) -> None:
        row = self.db.execute("SELECT mtime_ns, size, sha256 FROM files WHERE path=?", (p,)).fetchone()
        full = self.root / p
        try:
            st = os.lstat(full)
        except (FileNotFoundError, NotADirectoryError):
            st = None
        if st is None:  # gone
            if row is not None:
                if found is not None:
                    rec = self.db.execute(
                        "SELECT memory_id, title FROM records WHERE path=? AND status='active'", (p,)
                    ).fetchone()
                    if rec is not None:
                        found.gone.append(GonePage(p, rec[0], rec[1] or ""))
                self._remove_path(p)
                counts["removed"] += 1
            return
        if not stat.S_ISREG(st.st_mode):  # a symlink (wherever it points) or not a file: never read, reported
            self._remove_path(p)
            why = not_a_page(st.st_mode)
            if stat.S_ISLNK(st.st_mode):
                try:
                    why = f"symlink to {os.readlink(full)}; memkeeper never follows symlinks"
                except OSError:
                    why = "symlink; memkeeper never follows symlinks"
            self._record_bad(p, (st.st_mtime_ns, st.st_size), "", why, found)
            counts["bad"] += 1
            return
        sig = (st.st_mtime_ns, st.st_size)
        if row is not None and (row["mtime_ns"], row["size"]) == sig:
            return  # current already (another process indexed it)
        try:
            # O_NOFOLLOW on every component: a page swapped for a symlink since the scan is refused, not followed;
            # over the page size limit or not a regular file is refused too.
            if entries_fd is not None and full.parent == self.root / "entries":
                raw = read_at(entries_fd, full.name, display=str(full), limit=MAX_PAGE_BYTES, what="a page")
            else:
                dfd = open_dir(full.parent)
                try:
                    raw = read_at(dfd, full.name, display=str(full), limit=MAX_PAGE_BYTES, what="a page")
                finally:
                    os.close(dfd)
        except BadInput as exc:
            self._remove_path(p)
            self._record_bad(p, sig, "", _reason(exc, full), found)
            counts["bad"] += 1
            return
        except OSError as exc:
            self._record_bad(p, sig, "", f"unreadable page: {exc.strerror or exc}", found)
            counts["bad"] += 1
            return
        digest = sha256_hex(raw)
        if row is not None and row["sha256"] == digest:
            self.db.execute("UPDATE files SET mtime_ns=?, size=? WHERE path=?", (*sig, p))
            return
        from .pagefmt import parse_entry

        try:
            # (a page the index held, changed since without the engine's write: edited by hand, scanned whole)
            entry = parse_entry(raw.decode("utf-8"), edited=row is not None)
        except (PageError, UnicodeDecodeError) as exc:
            self._remove_path(p)
            self._record_bad(p, sig, digest, str(exc), found)
            counts["bad"] += 1
            return
        dup = self.db.execute("SELECT path FROM records WHERE memory_id=? AND path<>?", (entry.memory_id, p)).fetchone()
        if dup is not None and os.path.lexists(self.root / dup[0]):
            # Two pages hold one memory id (a sync tool's conflicted copy, a copy made by hand): the one `page_rank`
            # puts first holds the record, whichever was read first, and the other is a bad page naming it.
            if page_rank(dup[0]) < page_rank(p):
                self._remove_path(p)
                self._record_bad(p, sig, digest, _copy_error(entry.memory_id, dup[0]), found)
                counts["bad"] += 1
                return
            self._set_aside(dup[0], entry.memory_id, p, found)
            counts["bad"] += 1
        self._put(p, entry, sig, digest)
        counts["added" if row is None else "updated"] += 1

    def _record_bad(
        self, path: str, sig: tuple[int, int], digest: str, error: str, found: SyncFound | None = None
    ) -> None:
        self.db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,NULL,?)", (path, sig[0], sig[1], digest, error))
        if found is not None:
            found.bad.append(BadPage(path, error))

    def _remove_path(self, path: str) -> None:
        row = self.db.execute("SELECT memory_id FROM records WHERE path=?", (path,)).fetchone()
        if row is not None:
            schema.delete_rows(self.db, row[0])
            self._vacated.add(row[0])
        self.db.execute("DELETE FROM files WHERE path=?", (path,))

    def _set_aside(self, path: str, memory_id: str, record_page: str, found: SyncFound | None) -> None:
        """The page at `path` held `memory_id`, and `record_page`, which `page_rank` puts first, holds it too: `path`
        becomes a bad page, a copy of `record_page` (its signature and digest as last read, so that it is read
        again only when it changes)."""
        row = self.db.execute("SELECT mtime_ns, size, sha256 FROM files WHERE path=?", (path,)).fetchone()
        self._remove_path(path)
        self._vacated.discard(memory_id)  # `record_page` takes it
        sig = (row[0], row[1]) if row is not None else (0, 0)
        self._record_bad(path, sig, row[2] if row is not None else "", _copy_error(memory_id, record_page), found)

    def _promote_copies(self, counts: dict[str, int], entries_fd: int | None, found: SyncFound | None) -> None:
        """Copies set aside for a record whose page no longer holds it (deleted, moved, no longer read, given another
        id) are read again, best `page_rank` first: the first holds the record, as a rebuild would make it, and the
        others are copies of that one. Without it, a person who deleted the page and kept its copy had no record
        until the copy changed. One scan of the bad pages, only after a sync that removed a record."""
        vacated, self._vacated = self._vacated, set()
        gone = {
            m for m in vacated if self.db.execute("SELECT 1 FROM records WHERE memory_id=?", (m,)).fetchone() is None
        }
        if not gone:
            return
        rows = self.db.execute("SELECT path, error FROM files WHERE error LIKE 'duplicate memory_id %'").fetchall()
        copies = [r[0] for r in rows if (m := _COPY_ERROR.match(r[1])) is not None and m[1] in gone]
        for p in sorted(copies, key=page_rank):
            self.db.execute("DELETE FROM files WHERE path=?", (p,))  # read again, whatever its signature
            self._sync_one(p, counts, entries_fd, found)
        self._vacated.clear()

    def put(self, path: str, entry: Entry, raw: bytes) -> None:
        """Record a page the engine has just written (keeps the cache current without a rescan)."""
        self.put_many([(path, entry, sha256_hex(raw))])

    def put_many(self, items: list[tuple[str, Entry, str]], reconciled: str | None = None) -> None:
        """Record pages the engine has just written — (path, entry, sha256 of the page) — in one transaction.
        `reconciled`: the change signature after the write, when the cache was reconciled before it (the writer
        knows every change it made, so the cache stays reconciled)."""
        if not items and reconciled is None:
            return
        sigs = []
        for path, _, _ in items:
            st = os.lstat(self.root / path)
            sigs.append((st.st_mtime_ns, st.st_size))

        def run():
            with self._write():
                for (path, entry, digest), sig in zip(items, sigs, strict=True):
                    self._put(path, entry, sig, digest)
                if reconciled is not None:
                    self.db.execute("INSERT OR REPLACE INTO meta VALUES ('reconciled', ?)", (reconciled,))

        self._guard(run)

    def put_quiz_ledger(
        self,
        person: str,
        stamp: str,
        buried: str,
        rows: list[tuple[str, str, str | None, int]],
        *,
        digest: str,
        racy: bool,
        zone: str = "UTC",
    ) -> None:
        """Replace the copy of `person`'s quiz ledger (schema's quiz_ledgers/quiz_rows): the file's `stamp` when it
        was read, its bury list (JSON), its rows as (page, due, last, asked), dates as YYYY-MM-DD, the digest of its
        text, whether the stamp alone cannot vouch for it yet (`racy`), and the time zone of its days."""

        def run():
            with self._write():
                self.db.execute("DELETE FROM quiz_rows WHERE person=?", (person,))
                self.db.executemany(
                    "INSERT OR IGNORE INTO quiz_rows VALUES (?, ?, ?, ?, ?)", [(person, *row) for row in rows]
                )
                self.db.execute(
                    "INSERT OR REPLACE INTO quiz_ledgers VALUES (?, ?, ?, ?, ?, ?)",
                    (person, stamp, buried, digest, int(racy), zone),
                )

        self._guard(run)

    def forget_quiz_ledgers(self) -> None:
        """Drop every copy of a quiz ledger: each is made again from its file at the next count."""

        def run():
            with self._write():
                self.db.execute("DELETE FROM quiz_rows")
                self.db.execute("DELETE FROM quiz_ledgers")

        self._guard(run)

    def settle_quiz_ledger(self, person: str, stamp: str) -> None:
        """The copy of `person`'s ledger at `stamp` is vouched for by its stamp from now on (no longer racy)."""

        def run():
            with self._write():
                self.db.execute("UPDATE quiz_ledgers SET racy=0 WHERE person=? AND stamp=?", (person, stamp))

        self._guard(run)

    def verify(self, unreadable: list[tuple[str, str]] | None = None) -> list[str]:
        """Problems that make the cache untrustworthy: corruption, or rows that disagree with the pages' bytes.
        `unreadable` gets (page, why) for each page whose bytes cannot be read (permission denied, an I/O error):
        its row is the last copy read, and no rebuild would read it either."""
        self._fresh()
        try:
            with self._lock:
                bad = [r[0] for r in self.db.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.DatabaseError as exc:
            if not is_corrupt(exc):
                raise
            return [f"index.db is corrupt: {exc}"]
        if bad != ["ok"]:
            return [f"index.db is corrupt: {'; '.join(bad[:3])}"]
        seen = self.scan()
        known = {r["path"]: (r["sha256"], r["error"]) for r in self.query("SELECT path, sha256, error FROM files")}
        # A page that is not a regular file (a symlink, a FIFO) is never read: kept as a bad page, reported as such
        # (check says so on its own line), and no rebuild of the index would make it agree.
        stale = sorted((set(seen) ^ set(known)) - set(self._refused))
        for p in sorted(set(seen) & set(known)):
            sha, error = known[p]
            if not sha and error is not None and seen[p][1] > MAX_PAGE_BYTES:
                continue  # over the size limit: a bad page, reported as such; a rebuild would refuse it again
            digest, why = _file_digest(self.root / p)
            if digest is None:
                if why and unreadable is not None and not (not sha and error is not None):
                    unreadable.append((p, why))  # a bad page never read is reported as one already
                continue
            if digest != sha:
                stale.append(p)
        if stale:
            return [f"index.db is stale: {len(stale)} page(s) differ from their rows (first: {stale[0]})"]
        return []

    def _put(self, path: str, entry: Entry, sig: tuple[int, int], digest: str) -> None:
        old = self.db.execute("SELECT memory_id FROM records WHERE path=? OR memory_id=?", (path, entry.memory_id))
        for row in old.fetchall():
            schema.delete_rows(self.db, row[0])
            if row[0] != entry.memory_id:
                self._vacated.add(row[0])  # the page was given another id: a copy of the old one may hold it now
        self.db.execute(schema.INSERT_RECORD, schema.record_row(path, entry))
        self.db.execute(schema.INSERT_FTS, schema.fts_row(entry))
        self.db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,NULL)", (path, *sig, digest, entry.memory_id))

    def fts_candidates(
        self,
        terms: list[str],
        limit: int = CANDIDATES,
        common: frozenset[str] = frozenset(),
        rows: ZoneRows | None = None,
    ) -> list[str]:
        """Memory ids whose indexed text matches any of the terms, best bm25 first — only among the records `rows`
        keeps (`zone_rows`: those a trust zone may retrieve), so that records it may not see take none of the
        `limit` places: which of its own records are candidates does not depend on how many hidden ones match.
        (bm25's term weights and average length are still FTS5's, over the whole index.)

        `common`: terms found in most records. bm25 gives such a term next to no weight, so the best matches of
        all the terms are the best matches of the others; ranking every record that holds the common term (most
        of the wiki) costs ~150 ms at 100k records. The others are asked first, and the common terms only fill
        what they leave of `limit`."""
        where, wp = rows.rowid_filter() if rows is not None else ("", ())
        sql = f"SELECT memory_id FROM fts WHERE fts MATCH ?{where} ORDER BY rank LIMIT ?"
        rare = [t for t in terms if t not in common]
        first: list[str] = []
        if rare and len(rare) < len(terms):
            match = _match_any(rare)
            if match:
                first = [r[0] for r in self.query(sql, (match, *wp, limit))]
                if len(first) >= limit:
                    return first
        match = _match_any(terms)
        if not match:
            return first
        seen = set(first)
        return first + [r[0] for r in self.query(sql, (match, *wp, limit)) if r[0] not in seen][: limit - len(first)]

    def fts_hidden(self, terms: list[str], rows: ZoneRows, limit: int = CANDIDATES) -> list[str]:
        """Memory ids of up to `limit` active records matching any of the terms that the zone of `rows` may not
        see, in rowid order (unranked: what they are used for is a count, the owner's hidden_by_zone)."""
        hidden = rows.hidden_filter()
        match = _match_any(terms)
        if hidden is None or not match:
            return []
        where, wp = hidden
        return [
            r[0] for r in self.query(f"SELECT memory_id FROM fts WHERE fts MATCH ?{where} LIMIT ?", (match, *wp, limit))
        ]

    def doc_freq(self, term: str) -> int:
        """How many records (of any zone and status) hold the term."""
        match = _match_all(term)
        if not match:
            return 0
        return int(self.scalar("SELECT count(*) FROM fts WHERE fts MATCH ?", (match,)) or 0)

    def zone_rows(self, zone_where: str | None = None, params: tuple = ()) -> ZoneRows:
        """The records a trust zone may retrieve (`ZoneRows`): active, and satisfying `zone_where`, an SQL condition
        on `trust_zone` and `sensitivity_tier` only (None: every active record). Counted from the covering
        indexes: no wide row is read."""
        everything = int(self.scalar("SELECT count(*) FROM records") or 0)
        inactive = int(self.scalar(f"SELECT count(*) FROM ({_NOT_ACTIVE})") or 0)
        p = tuple(params)
        z = ZoneRows(zone_where, p, everything, inactive, everything)
        if zone_where is None:
            return z
        zoned = int(self.scalar(f"SELECT count(*) FROM ({z._by_zone(True)})", p) or 0)
        return ZoneRows(zone_where, p, everything, inactive, zoned)

    def eligible_doc_freqs(
        self, terms: list[str], zone_where: str | None = None, params: tuple = (), rows: ZoneRows | None = None
    ) -> tuple[int, dict[str, int]]:
        """(how many active records satisfy `zone_where`, and for each term how many of those hold it): what the
        IDF weights of one trust zone are counted from, so that no record outside it moves them. `zone_where`: an
        SQL condition on `trust_zone` and `sensitivity_tier` only (None: every active record); or `rows`, the
        zone's records already counted (`zone_rows`).

        No wide row is read (`ZoneRows`). The records are split into those kept and those left out; a term's count
        is its count among the kept ones, or its count over the whole wiki less its count among those left out,
        whichever of the two sets is smaller (it is built once, in one statement with every term's count). When
        nothing is left out (every record active and visible, as for private_self on a wiki with no archived
        record), the counts are the whole wiki's, at no extra cost."""
        z = rows if rows is not None else self.zone_rows(zone_where, params)
        everything = z.everything
        kept = z.kept_bound  # exact when `z.exact`; else a lower bound, made exact below
        freq = {t: 0 for t in terms}
        if z.zoned == 0 or (z.zone_where is None and kept == 0):
            return 0, freq
        for t in terms:
            freq[t] = self.doc_freq(t)
        if z.all_kept:
            return everything, freq  # nothing is left out
        todo = [t for t in terms if freq[t]]
        if z.exact and not todo:
            return kept, freq
        among_kept = z.by_kept
        sql, sp = z.kept() if among_kept else z.left_out()
        # `+rowid`: FTS5 is not handed the set's rowids to look up one by one (~50 µs each); it walks the term's
        # matches, and each is checked against the set (a CTE used more than once is built once).
        counts = "".join(", (SELECT count(*) FROM fts WHERE fts MATCH ? AND +rowid IN (SELECT r FROM s))" for _ in todo)
        row = list(self.query(f"WITH s(r) AS ({sql}) SELECT count(*){counts} FROM s", (*sp, *map(_match_all, todo)))[0])
        kept = row[0] if among_kept else everything - row[0]
        for t, n in zip(todo, row[1:], strict=True):
            freq[t] = n if among_kept else freq[t] - n
        return kept, freq

    def subject_candidates(
        self, words: list[str], zone: str, sensitivity: str, limit: int = 12, common: int = SUBJECT_COMMON
    ) -> list[sqlite3.Row]:
        """Active records of one zone and tier that share subject words, best bm25 first, at most `limit`.

        The cost is bounded whatever the wiki's size: a word is counted only up to `common` + 1 records (a bounded
        sub-query), a word found in more than `common` records is too common to say what a statement is about
        and is left out, and the ranked query then matches at most len(words) × `common` records.
        """
        rare = []
        for w in dict.fromkeys(p for t in words for p in raw_tokens(t, query=True)):
            n = self.scalar(
                f"SELECT count(*) FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT {int(common) + 1})", (f'"{w}"',)
            )
            if n and n <= common:
                rare.append(w)
        if not rare:
            return []
        ids = [
            r[0]
            for r in self.query(
                "SELECT f.memory_id FROM fts f JOIN records r ON r.memory_id = f.memory_id WHERE fts MATCH ? "
                "AND r.status = 'active' AND r.trust_zone = ? AND r.sensitivity_tier = ? ORDER BY f.rank LIMIT ?",
                (_match_any(rare), zone, sensitivity, limit),
            )
        ]
        rows = {r["memory_id"]: r for r in self.rows_for(ids)}
        return [rows[i] for i in ids if i in rows]

    def rows_for(self, ids: list[str], where: str = "1", params: tuple = (), columns: str = "*") -> list[sqlite3.Row]:
        """Rows for the given ids (primary-key lookups, so the cost follows len(ids), not the wiki's size)."""
        out: list[sqlite3.Row] = []
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            out += self.query(
                f"SELECT {columns} FROM records INDEXED BY sqlite_autoindex_records_1 "
                f"WHERE memory_id IN ({','.join('?' * len(chunk))}) AND {where}",
                (*chunk, *params),
            )
        return out


@dataclass
class NewPage:
    """A page read and parsed for the index: its rows, ready to insert."""

    path: str
    memory_id: str
    sig: tuple[int, int]
    digest: str
    record: tuple


def _read_new_pages(paths: list[str], entries_fd: int | None) -> dict[str, NewPage]:
    """Read and parse the pages `entries/<name>` of `paths`, relative to the open `entries/` directory. A page that
    is not a regular file, cannot be read or cannot be parsed is left out: `_sync_one` reads it again and reports
    it."""
    from .pagefmt import parse_entry_block

    out: dict[str, NewPage] = {}
    if entries_fd is None:
        return out
    for p in paths:
        directory, _, name = p.rpartition("/")
        if directory != "entries":
            continue
        try:
            st = os.stat(name, dir_fd=entries_fd, follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode):
                continue
            raw = read_at(entries_fd, name, display=p, limit=MAX_PAGE_BYTES, what="a page")
            entry, fm = parse_entry_block(raw.decode("utf-8"))
        except (BadInput, OSError, PageError, UnicodeDecodeError):
            continue
        out[p] = NewPage(
            p,
            entry.memory_id,
            (st.st_mtime_ns, st.st_size),
            sha256_hex(raw),
            schema.record_row(p, entry, fm),
        )
    return out


def _parse_names(job: tuple[str, list[str]]) -> dict[str, NewPage]:
    """`_read_new_pages` in a worker process: the pages `paths` under `root`, with `entries/` opened there."""
    root, paths = job
    try:
        dfd: int | None = open_dir(Path(root) / "entries")
    except (BadInput, OSError):
        return {}
    try:
        return _read_new_pages(paths, dfd)
    finally:
        if dfd is not None:
            os.close(dfd)


def _parsed_chunks(root: Path, paths: list[str]) -> Iterator[tuple[list[str], dict[str, NewPage]]]:
    """(chunk, its pages read and parsed) for chunks of `paths`, in order. From PARALLEL_MIN pages on, worker
    processes parse the chunks while the caller inserts those already parsed — only where they can be forked
    safely: on Linux, from a process running no other thread (a fork copies no lock another thread holds, and,
    unlike spawn, runs none of the caller's `__main__` again). The desk builds in a worker thread, so it parses
    here. And only with at least two idle cores: handing the parsed rows over costs a fifth to a third more CPU
    in all, which only idle cores repay. A pool that cannot start or breaks leaves the rest of the work to this process."""
    chunks = [paths[i : i + BUILD_CHUNK] for i in range(0, len(paths), BUILD_CHUNK)]
    # Free cores are sampled (a tenth of a second) only for a build big enough to use them.
    workers = min(_free_cores(), 4) if len(paths) >= PARALLEL_MIN and _can_fork() else 1
    if workers > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        done = 0
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
                for pages in pool.map(_parse_names, [(str(root), c) for c in chunks]):
                    yield chunks[done], pages
                    done += 1
            return
        except (OSError, RuntimeError):  # no pool (BrokenProcessPool is a RuntimeError): go on in this process
            chunks = chunks[done:]
    for chunk in chunks:
        yield chunk, _parse_names((str(root), chunk))


# The bad-page error of a page set aside as a copy (`_copy_error`; before it, "duplicate memory_id <id> (also …)").
_COPY_ERROR = re.compile(r"duplicate memory_id (\S+?):? ")


def _copy_error(memory_id: str, record_page: str) -> str:
    """What the bad-page list says of a page that holds the memory id another page holds (`page_rank` chose that one):
    which page is the record's, and what the person does about the copy."""
    return (
        f"duplicate memory_id {memory_id}: a copy of {record_page}, which holds the record; not read: merge into "
        f"{record_page} what you want to keep of this copy, then delete the copy"
    )


def not_a_page(mode: int) -> str:
    """What the bad-page list says of something in entries/ named like a page that is not a file. A directory is
    named as such: skipped without a word, one put where a page was (an unzip, a sync tool) made its record vanish
    once the index was rebuilt, and `check` then said the wiki was fine."""
    if stat.S_ISDIR(mode):
        return "a directory named like a page; not read (a page is a file: move the directory out of entries/)"
    return "not a regular file; not read"


def _casefold(value: str | None) -> str | None:
    return value.casefold() if isinstance(value, str) else value


def _can_fork() -> bool:
    return sys.platform.startswith("linux") and threading.active_count() == 1


def _free_cores() -> int:
    """Cores not busy with other work. On Linux, the idle share of every core over a tenth of a second (the
    load average lags by a minute: work that has just ended, such as copying the wiki, still counts there);
    elsewhere, the CPU count less the last minute's load average, of which up to one is this process."""
    cpus = os.cpu_count() or 1
    idle = _idle_cores(0.1)
    if idle is not None:
        return max(1, int(idle + 0.5))
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on every platform
        return 1
    return max(1, int(cpus - max(0.0, load - 1.0) + 0.5))


def _idle_cores(window: float) -> float | None:
    """How many cores sat idle over `window` seconds (/proc/stat's idle and iowait time), or None without it."""

    def sample() -> tuple[int, int] | None:
        try:
            with open("/proc/stat", encoding="ascii") as fh:
                fields = fh.readline().split()
        except OSError:
            return None
        if not fields or fields[0] != "cpu" or len(fields) < 6:
            return None
        ticks = [int(x) for x in fields[1:]]
        return sum(ticks), ticks[3] + ticks[4]  # all, idle + iowait

    first = sample()
    if first is None:
        return None
    time.sleep(window)
    second = sample()
    if second is None or second[0] <= first[0]:
        return None
    return (os.cpu_count() or 1) * (second[1] - first[1]) / (second[0] - first[0])


def _reason(exc: Exception, path: Path) -> str:
    """The message of a refusal without the absolute path in front (the bad-page list names the file)."""
    text = str(exc)
    return text[len(str(path)) :].lstrip(" :") if text.startswith(str(path)) else text


def _match_all(term: str) -> str:
    """The FTS5 query for one term: all of its parts (an empty string when it has none)."""
    return " ".join(f'"{p}"' for p in _parts(term))


def _match_any(terms: list[str]) -> str:
    parts = sorted({p for t in terms for p in _parts(t)})
    return " OR ".join(f'"{p}"' for p in parts)


def _parts(term: str) -> list[str]:
    """The tokens of a term (itself a token: a query's or a record's), as the full-text index holds them. A token of
    another script than Latin is one already, and is not cut again: the pair "核心" is not looked up as 核, 核心 and
    心, nor a Russian stem as a word whose ending is taken off once more."""
    return raw_tokens(term) if term.isascii() else [term]


def _file_digest(path: Path) -> tuple[str | None, str | None]:
    """(sha256 of the file's bytes, None), or (None, why) when it cannot be read (why is None when it is gone)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, exc.strerror or str(exc)
    try:
        h = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            h.update(chunk)
        return h.hexdigest(), None
    except OSError as exc:
        return None, exc.strerror or str(exc)
    finally:
        os.close(fd)

"""The derived SQLite index (`.memkeeper/index.db`): a cache of the Markdown pages, with FTS5 for candidates.

Deleting it loses nothing: `sync()` rebuilds it from `entries/` (per-file mtime+size, then content hash).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

from .errors import BadInput
from .models import Entry, iso
from .pages import MAX_PAGE_BYTES, PageError, parse_entry
from .paths import mkdirs, open_dir, read_at, refuse_symlink
from .text import raw_tokens, sha256_hex

SCHEMA_VERSION = "6"
QUIZ_WEIGHTS = {"direction": 4, "decision": 3, "milestone": 1}

_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER, sha256 TEXT, memory_id TEXT, error TEXT
);
CREATE TABLE IF NOT EXISTS records (
    memory_id TEXT PRIMARY KEY, path TEXT UNIQUE, canonical_key TEXT, trust_zone TEXT, sensitivity_tier TEXT,
    status TEXT, tier TEXT, category TEXT, source_type TEXT, verified INTEGER, title TEXT, content TEXT,
    created_at TEXT, updated_at TEXT, last_accessed_at TEXT, expires_at TEXT, reinforcement INTEGER,
    confidence REAL, strength REAL, evidence_grade TEXT, source_ref TEXT, content_sha TEXT, data TEXT,
    quiz_rotation INTEGER, quiz_weight INTEGER, recall TEXT
);
CREATE INDEX IF NOT EXISTS records_pending ON records (status, source_type, verified);
CREATE INDEX IF NOT EXISTS records_quiz ON records (quiz_rotation, quiz_weight DESC, updated_at DESC, path);
CREATE INDEX IF NOT EXISTS records_category ON records (category, title COLLATE NOCASE, path);
CREATE INDEX IF NOT EXISTS records_partition ON records (canonical_key, trust_zone, sensitivity_tier);
CREATE INDEX IF NOT EXISTS records_status ON records (status, category);
CREATE INDEX IF NOT EXISTS records_created ON records (status, created_at, memory_id);
CREATE INDEX IF NOT EXISTS records_updated ON records (status, category, updated_at);
CREATE INDEX IF NOT EXISTS records_content_sha ON records (content_sha);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (
    memory_id UNINDEXED, title, content, canonical_key, recall, tokenize = 'porter unicode61 remove_diacritics 2'
);
"""


@dataclass
class BadPage:
    path: str
    error: str


class Index:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = root / ".memkeeper" / "index.db"
        # SQLite and the write lock open their files by name: make sure none of them is a symlink (PathEscape).
        mkdirs(self.path.parent)
        for name in ("index.db", "index.db-wal", "index.db-shm", "index.db-journal", "write.lock"):
            refuse_symlink(self.path.parent / name)
        self._lock = threading.RLock()
        self.db = self._connect()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.row_factory = sqlite3.Row
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        try:
            version = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError:
            version = None
        if version is None or version[0] != SCHEMA_VERSION:
            db.close()
            for suffix in ("", "-wal", "-shm"):
                try:
                    os.unlink(str(self.path) + suffix)
                except FileNotFoundError:
                    pass
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_DDL)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        return db

    def close(self) -> None:
        with self._lock:
            self.db.close()

    # -- queries --------------------------------------------------------------------------------------------------

    def query(self, sql: str, params: tuple | list = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self.db.execute(sql, params).fetchall()

    def scalar(self, sql: str, params: tuple | list = ()):
        with self._lock:
            row = self.db.execute(sql, params).fetchone()
        return row[0] if row else None

    def entry(self, row: sqlite3.Row) -> Entry:
        data = json.loads(row["data"])
        entry = Entry.model_validate(data["fm"])
        entry.content = data["content"]
        entry.notes = data["notes"]
        return entry

    def bad_pages(self) -> list[BadPage]:
        return [BadPage(r["path"], r["error"]) for r in self.query("SELECT path, error FROM files WHERE error IS NOT NULL ORDER BY path")]

    # -- maintenance ----------------------------------------------------------------------------------------------

    def sync(self, progress=None) -> dict[str, int]:
        """Bring the cache in line with `entries/`. Returns counts of added/updated/removed/bad files."""
        entries_dir = self.root / "entries"
        seen: dict[str, tuple[int, int]] = {}
        # Pages that are not regular files (a symlink, wherever it points; a FIFO): never read, reported as bad.
        refused: dict[str, tuple[tuple[int, int], str]] = {}
        dfd: int | None = None
        try:
            dfd = open_dir(entries_dir, listable=True)
        except FileNotFoundError:
            pass
        except BadInput as exc:  # entries/ itself is a symlink (or not a directory): serve nothing from it
            refused["entries"] = ((0, 0), _reason(exc, entries_dir))
        try:
            return self._sync(dfd, seen, refused, progress)
        finally:
            if dfd is not None:
                os.close(dfd)

    def _sync(self, dfd: int | None, seen: dict[str, tuple[int, int]],
              refused: dict[str, tuple[tuple[int, int], str]], progress) -> dict[str, int]:
        if dfd is not None:
            with os.scandir(dfd) as it:
                for de in it:
                    if not de.name.endswith(".md") or de.name.startswith("."):
                        continue
                    st = de.stat(follow_symlinks=False)
                    if de.is_symlink():
                        target = _readlink(dfd, de.name)
                        refused["entries/" + de.name] = ((st.st_mtime_ns, st.st_size),
                                                         f"symlink to {target}; memkeeper never follows symlinks")
                    elif de.is_file(follow_symlinks=False):
                        seen["entries/" + de.name] = (st.st_mtime_ns, st.st_size)
                    elif not de.is_dir(follow_symlinks=False):
                        refused["entries/" + de.name] = ((st.st_mtime_ns, st.st_size), "not a regular file; not read")
        with self._lock:
            known = {r["path"]: (r["mtime_ns"], r["size"], r["sha256"]) for r in self.db.execute("SELECT * FROM files")}
        counts = {"added": 0, "updated": 0, "removed": 0, "bad": 0}
        changed = [p for p, sig in seen.items() if p not in known or known[p][:2] != sig]
        removed = [p for p in known if p not in seen and p not in refused]
        with self._lock:
            self.db.execute("BEGIN")
            try:
                for p in removed:
                    self._remove_path(p)
                    counts["removed"] += 1
                for p, (sig, why) in refused.items():
                    if p in known and known[p][:2] == sig:
                        continue  # already reported
                    self._remove_path(p)
                    self._record_bad(p, sig, "", why)
                    counts["bad"] += 1
                for n, p in enumerate(sorted(changed)):
                    if progress and n % 500 == 0:
                        progress(n, len(changed))
                    full = self.root / p
                    try:
                        # O_NOFOLLOW in the directory opened above: a page swapped for a symlink since the scan
                        # is refused, not followed; over 1 MiB or not a regular file is refused too.
                        raw = read_at(dfd, p[len("entries/") :], display=str(full), limit=MAX_PAGE_BYTES,
                                      what="a page")
                    except BadInput as exc:
                        self._remove_path(p)
                        self._record_bad(p, seen[p], "", _reason(exc, full))
                        counts["bad"] += 1
                        continue
                    except OSError as exc:
                        self._remove_path(p)
                        self._record_bad(p, seen[p], "", f"unreadable page: {exc.strerror or exc}")
                        counts["bad"] += 1
                        continue
                    digest = sha256_hex(raw)
                    if p in known and known[p][2] == digest:
                        self.db.execute("UPDATE files SET mtime_ns=?, size=? WHERE path=?", (*seen[p], p))
                        continue
                    try:
                        entry = parse_entry(raw.decode("utf-8"))
                    except (PageError, UnicodeDecodeError) as exc:
                        self._remove_path(p)
                        self._record_bad(p, seen[p], digest, str(exc))
                        counts["bad"] += 1
                        continue
                    dup = self.db.execute(
                        "SELECT path FROM records WHERE memory_id=? AND path<>?", (entry.memory_id, p)
                    ).fetchone()
                    if dup is not None:
                        self._remove_path(p)
                        self._record_bad(p, seen[p], digest, f"duplicate memory_id {entry.memory_id} (also {dup[0]})")
                        counts["bad"] += 1
                        continue
                    self._put(p, entry, seen[p], digest)
                    counts["added" if p not in known else "updated"] += 1
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
        return counts

    def _record_bad(self, path: str, sig: tuple[int, int], digest: str, error: str) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO files VALUES (?,?,?,?,NULL,?)", (path, sig[0], sig[1], digest, error)
        )

    def _remove_path(self, path: str) -> None:
        row = self.db.execute("SELECT memory_id FROM records WHERE path=?", (path,)).fetchone()
        if row is not None:
            self.db.execute("DELETE FROM records WHERE memory_id=?", (row[0],))
            self.db.execute("DELETE FROM fts WHERE memory_id=?", (row[0],))
        self.db.execute("DELETE FROM files WHERE path=?", (path,))

    def put(self, path: str, entry: Entry, raw: bytes) -> None:
        """Record a page the engine has just written (keeps the cache current without a rescan)."""
        st = (self.root / path).stat()
        with self._lock:
            self.db.execute("BEGIN")
            try:
                self._put(path, entry, (st.st_mtime_ns, st.st_size), sha256_hex(raw))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def _put(self, path: str, entry: Entry, sig: tuple[int, int], digest: str) -> None:
        old = self.db.execute("SELECT memory_id FROM records WHERE path=? OR memory_id=?", (path, entry.memory_id))
        for row in old.fetchall():
            self.db.execute("DELETE FROM records WHERE memory_id=?", (row[0],))
            self.db.execute("DELETE FROM fts WHERE memory_id=?", (row[0],))
        data = json.dumps({"fm": entry.frontmatter(), "content": entry.content, "notes": entry.notes})
        self.db.execute(
            "INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                entry.memory_id, path, entry.canonical_key, entry.trust_zone.value, entry.sensitivity_tier.value,
                entry.status.value, entry.tier.value, entry.category.value, entry.source_type.value,
                1 if entry.verified else 0, entry.title, entry.content, iso(entry.created_at), iso(entry.updated_at),
                iso(entry.last_accessed_at), iso(entry.expires_at) if entry.expires_at else None,
                entry.reinforcement, entry.confidence, entry.strength, entry.evidence_grade.value, entry.source_ref,
                entry.normalized_content_sha256, data,
                # Quiz rotation and new-page weight (SPEC §5.3), indexed so a session never scans the wiki.
                int(entry.status.value == "active" and entry.tier.value != "cold" and entry.category.value != "draft"),
                QUIZ_WEIGHTS.get(entry.category.value, 2),
                " ".join(entry.recall),
            ),
        )
        self.db.execute(
            "INSERT INTO fts VALUES (?,?,?,?,?)",
            (entry.memory_id, entry.title, entry.content, entry.canonical_key.replace("-", " "), " ".join(entry.recall)),
        )
        self.db.execute("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,NULL)", (path, *sig, digest, entry.memory_id))

    def fts_candidates(self, terms: list[str], limit: int = 300) -> list[str]:
        """Memory ids whose indexed text matches any of the terms, best bm25 first."""
        match = _match_any(terms)
        if not match:
            return []
        rows = self.query("SELECT memory_id FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ?", (match, limit))
        return [r[0] for r in rows]

    def doc_freq(self, term: str) -> int:
        parts = raw_tokens(term)
        if not parts:
            return 0
        match = " ".join(f'"{p}"' for p in parts)
        return int(self.scalar("SELECT count(*) FROM fts WHERE fts MATCH ?", (match,)) or 0)

    def topic_candidates(self, tokens: list[str], where: str, params: tuple, limit: int = 400) -> list[sqlite3.Row]:
        """Records that could share at least half of `tokens` (the 'about the same thing' test of capture).

        A record whose token Jaccard with the statement is ≥ 0.5 contains at least half of its k tokens, so it
        contains at least one of the rarest ⌊k/2⌋+1 of them. Matching only those keeps the candidate set small and
        the cost independent of the wiki's size for all but the most generic statements.
        """
        distinct = sorted({p for t in tokens for p in raw_tokens(t) if not p.isdigit()})
        if not distinct:
            return []
        by_rarity = sorted(distinct, key=lambda p: (self.doc_freq(p), p))
        rare = by_rarity[: len(by_rarity) // 2 + 1]
        ids = [r[0] for r in self.query("SELECT memory_id FROM fts WHERE fts MATCH ? LIMIT ?", (_match_any(rare), limit))]
        return self.rows_for(ids, where, params)

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


def _reason(exc: Exception, path: Path) -> str:
    """The message of a refusal without the absolute path in front (the bad-page list names the file)."""
    text = str(exc)
    return text[len(str(path)) :].lstrip(" :") if text.startswith(str(path)) else text


def _readlink(dfd: int, name: str) -> str:
    try:
        return os.readlink(name, dir_fd=dfd)
    except OSError:
        return "?"


def _match_any(terms: list[str]) -> str:
    parts = sorted({p for t in terms for p in raw_tokens(t)})
    return " OR ".join(f'"{p}"' for p in parts)

"""What the derived index stores: its tables, their version, and how an entry becomes a row and back.

Change a column here (and bump SCHEMA_VERSION: an index with another version is rebuilt from the pages on open).
The cache itself, its sync from `entries/` and its queries are `index.py`.
"""

from __future__ import annotations

import json
import sqlite3
from functools import cache
from typing import TYPE_CHECKING, Any

from .models import iso
from .text import raw_tokens

if TYPE_CHECKING:
    from .record import Entry

SCHEMA_VERSION = "19"  # 13: quiz_ledgers/quiz_rows (the quiz ledgers hot.md counts from); 14: indexes; 15: digest;
# 16: a Latin word written against Chinese, Japanese or Korean letters is a word of its own (`text.search_fold`);
# 17: each script's letters are its own tokens, CJK as letters and pairs, emoji as words (`text.raw_tokens`);
# 18: quiz_ledgers.zone (the person's time zone, whose days are their quiz days); 19: "µ" before a unit is "u"
QUIZ_WEIGHTS = {"direction": 4, "decision": 3, "milestone": 1}

# The desk's verification queue (SPEC §5.2) and where a record came from, for grouping it: its source document (the
# source ref without its #anchor), else the actor that wrote it. Queries must spell these exactly as the partial and
# expression indexes below do, or SQLite will not use them.
PENDING_WHERE = "status='active' AND source_type='agent_inferred' AND verified=0"
SOURCE_SQL = (
    "(CASE WHEN coalesce(source_ref, '') <> '' THEN (CASE WHEN instr(source_ref, '#') > 1 "
    "THEN substr(source_ref, 1, instr(source_ref, '#') - 1) ELSE source_ref END) "
    "ELSE coalesce(nullif(json_extract(data, '$.fm.actor'), ''), '(unknown source)') END)"
)
COLD_WHERE = "tier='cold' AND status IN ('active', 'superseded')"

TABLES = """
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
-- Each person's quiz ledger as last read (quiz_queue.QuizQueue._mirror): `stamp` is the file's identity and version
-- when it was read, `buried` its bury list as JSON, and quiz_rows the fields of its rows a due count needs. Kept so
-- that hot.md's count after every capture does not parse every ledger (SPEC §4: a capture does not grow with the
-- wiki); a stamp that no longer matches the file means "read it again". `digest` is the text's, compared while the
-- copy is `racy` (made when the file was too recent for its stamp to vouch for it on a coarse-timed filesystem).
CREATE TABLE IF NOT EXISTS quiz_ledgers (
    person TEXT PRIMARY KEY, stamp TEXT, buried TEXT, digest TEXT, racy INTEGER, zone TEXT
);
CREATE TABLE IF NOT EXISTS quiz_rows (
    person TEXT, page TEXT, due TEXT, last TEXT, asked INTEGER, PRIMARY KEY (person, page)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5 (
    memory_id UNINDEXED, title, content, canonical_key, recall, content = 'records', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2 categories ''L* N* Co M* So'''
);
"""
# The records table's secondary indexes. A cold build creates them after the bulk insert (one sort each, instead of
# a b-tree insert per row and index).
INDEXES = (
    "CREATE INDEX IF NOT EXISTS records_pending ON records (status, source_type, verified)",
    "CREATE INDEX IF NOT EXISTS records_quiz ON records (quiz_rotation, quiz_weight DESC, updated_at DESC, path)",
    "CREATE INDEX IF NOT EXISTS records_category ON records (category, title COLLATE NOCASE, path)",
    "CREATE INDEX IF NOT EXISTS records_partition ON records (canonical_key, trust_zone, sensitivity_tier)",
    "CREATE INDEX IF NOT EXISTS records_created ON records (status, created_at, memory_id)",
    # It serves the counts by (status, category) too (tallies, the browse pane): an index of those two columns
    # alone was one more sort for every build.
    "CREATE INDEX IF NOT EXISTS records_updated ON records (status, category, updated_at)",
    "CREATE INDEX IF NOT EXISTS records_content_sha ON records (content_sha)",
    # A due count walks a person's due rows and today's, not the whole ledger.
    "CREATE INDEX IF NOT EXISTS quiz_rows_due ON quiz_rows (person, due, last)",
    "CREATE INDEX IF NOT EXISTS quiz_rows_last ON quiz_rows (person, last, asked)",
    # The desk's queues, one partial index per order (docs/decisions.md, "The desk").
    f"CREATE INDEX IF NOT EXISTS records_pending_newest ON records (created_at DESC, memory_id) WHERE {PENDING_WHERE}",
    "CREATE INDEX IF NOT EXISTS records_pending_confidence ON records (confidence DESC, created_at DESC, memory_id)"
    f" WHERE {PENDING_WHERE}",
    f"CREATE INDEX IF NOT EXISTS records_pending_source ON records ({SOURCE_SQL}, created_at DESC, memory_id)"
    f" WHERE {PENDING_WHERE}",
    "CREATE INDEX IF NOT EXISTS records_denied ON records (updated_at DESC, memory_id) WHERE status='denied'",
    f"CREATE INDEX IF NOT EXISTS records_cold ON records (updated_at DESC, memory_id) WHERE {COLD_WHERE}",
)
DDL = TABLES + "".join(f"{ddl};\n" for ddl in INDEXES)


@cache
def table_columns() -> dict[str, tuple[str, ...]]:
    """Each table of `TABLES` with its columns in order, as SQLite reports them (`PRAGMA table_info`): what an index
    file of this version must hold. A file whose meta says this version but lacks one (a table dropped, a column
    change that shipped without a new version) is no index of it: rebuilt, not an internal error on every query."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(TABLES)
        return {table: columns_of(db, table) for table in _table_names(db)}
    finally:
        db.close()


def columns_of(db: sqlite3.Connection, table: str) -> tuple[str, ...]:
    return tuple(row[1] for row in db.execute(f"PRAGMA table_info({table})"))


def _table_names(db: sqlite3.Connection) -> list[str]:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE 'CREATE %TABLE%'")
    return sorted(name for (name,) in rows if not name.startswith("fts_"))  # fts5's own shadow tables


INSERT_RECORD = f"INSERT INTO records VALUES ({','.join('?' * 26)})"
# The full-text index is an external-content FTS5 table over `records` (its columns are records' columns of the same
# names; a key's words are split at its hyphens by the tokenizer): it keeps no copy of the text, only the index of
# its words, and its rows share the records' rowids. FTS5 does not follow the records table by itself: a record's
# words are indexed after its row is inserted (INSERT_FTS) and removed, with the row's own values, before the row is
# deleted (delete_rows). A cold build indexes a chunk of rows at a time (INSERT_FTS_AFTER). Never VACUUM the index: it may
# renumber the rowids the two tables share.
#
# The words are indexed as a query's are read (`text.raw_tokens`: NFKC; Latin letters, digits and symbols
# transliterated to ASCII, every other script's letters kept, Chinese, Japanese, Korean and Thai as single letters and
# pairs): each text column goes through FOLD (`fts_fold`, registered on every connection that writes the index) on
# its way in, and on its way out (the 'delete' must give FTS5 the values it indexed). Indexed as written,
# "東京オフィスの住所は渋谷区です" was one token of fourteen characters, found by no word of it. So FTS5's own
# 'rebuild' and 'integrity-check' commands, which read the records' columns as they are, must not be used on this
# table. The tokenizer keeps marks (M*) and symbols (So) inside a token, so a Devanagari word with its vowel signs
# and an emoji are one token each, as `raw_tokens` gives them; an ASCII text has neither, and is split as before.
#
# The canonical key is indexed as search reads it (`keys.searched_key`, through KEY): not at all when it was made
# from a title or text in another script than Latin, whose words it transliterates.
FOLD = "mk_fold"
KEY = "mk_key"
_FTS_COLUMNS = "memory_id, title, content, canonical_key, recall"
_FTS_VALUES = f"memory_id, {FOLD}(title), {FOLD}(content), {KEY}(canonical_key, title, content), {FOLD}(recall)"
INSERT_FTS = f"INSERT INTO fts (rowid, {_FTS_COLUMNS}) SELECT rowid, {_FTS_VALUES} FROM records WHERE memory_id=?"
# A cold build indexes each chunk's words from its rows (those past the rowid before the chunk) in one statement.
INSERT_FTS_AFTER = f"INSERT INTO fts (rowid, {_FTS_COLUMNS}) SELECT rowid, {_FTS_VALUES} FROM records WHERE rowid > ?"


def fts_fold(value: str | None) -> str | None:
    """A column's text as the full-text index holds it: as written when it is ASCII (most text, and no change to
    how it was indexed before), else its tokens (`text.raw_tokens`) between spaces."""
    if value is None or value.isascii():
        return value
    return " ".join(raw_tokens(value))


def searched_key(key: str, title: str, content: str) -> str:
    """`keys.searched_key`, imported on first use: the command line's start-up does not load the key rules."""
    from .keys import searched_key

    return searched_key(key, title, content)


def register_fold(db: sqlite3.Connection) -> None:
    db.create_function(FOLD, 1, fts_fold, deterministic=True)
    db.create_function(KEY, 3, searched_key, deterministic=True)


def record_row(path: str, entry: Entry, fm: dict[str, Any] | None = None) -> tuple[Any, ...]:
    """The `records` row of the page at `path`; its `data` and `content` columns are the whole entry, for
    `entry_from_row`. `fm`: the frontmatter mapping the entry was validated from, when the page gave one
    (`pagefmt.parse_entry_block`)."""
    # The content is in its own column (read by full-text search too), not again in `data`: a row that repeats it
    # outgrows half a page, so every page held one row and the table (which index builds scan) doubled.
    data = json.dumps({"fm": entry.frontmatter() if fm is None else fm, "notes": entry.notes})
    return (
        entry.memory_id,
        path,
        entry.canonical_key,
        entry.trust_zone.value,
        entry.sensitivity_tier.value,
        entry.status.value,
        entry.tier.value,
        entry.category.value,
        entry.source_type.value,
        1 if entry.verified else 0,
        entry.title,
        entry.content,
        iso(entry.created_at),
        iso(entry.updated_at),
        iso(entry.last_accessed_at),
        iso(entry.expires_at) if entry.expires_at else None,
        entry.reinforcement,
        entry.confidence,
        entry.strength,
        entry.evidence_grade.value,
        entry.source_ref,
        entry.normalized_content_sha256,
        data,
        # Quiz rotation and new-page weight (SPEC §5.3), indexed so a session never scans the wiki.
        int(entry.status.value == "active" and entry.tier.value != "cold" and entry.category.value != "draft"),
        QUIZ_WEIGHTS.get(entry.category.value, 2),
        " ".join(entry.recall),
    )


def fts_row(entry: Entry) -> tuple[str, ...]:
    """INSERT_FTS's parameters: the record whose row's words are indexed (insert the row first)."""
    return (entry.memory_id,)


# When a record's statement was captured, as the pair decision reads it (`relation.Statement.at`: a day it names on
# or before then is a day it reports): for a record an import made, its origin record's created_at (the import's own
# time is when the statement arrived, not when it was said); for every other record its own created_at. The SQL
# reads the JSON only of a row that holds the key.
STATEMENT_AT_SQL = (
    "coalesce(CASE WHEN instr(data, '\"origin_created_at\"') > 0 THEN json_extract(data, '$.fm.origin_created_at') END,"
    " created_at)"
)


def statement_at(row: sqlite3.Row) -> str | None:
    """`STATEMENT_AT_SQL` for a whole `records` row (one with its `data` column)."""
    data = row["data"]
    if data and '"origin_created_at"' in data:
        said = json.loads(data)["fm"].get("origin_created_at")
        if isinstance(said, str) and said:
            return said
    return row["created_at"]


def entry_from_row(row: sqlite3.Row) -> Entry:
    """The entry a `records` row holds (without reading its page)."""
    from .record import Entry  # on first use: retrieving reads rows, never entries

    data = json.loads(row["data"])
    entry = Entry.model_validate(data["fm"])
    entry.content = row["content"]
    entry.notes = data["notes"]
    return entry


def delete_rows(db: sqlite3.Connection, memory_id: str) -> None:
    """Remove an entry's `records` and `fts` rows (its `files` row is the caller's)."""
    db.execute(
        f"INSERT INTO fts (fts, rowid, {_FTS_COLUMNS}) SELECT 'delete', rowid, {_FTS_VALUES} FROM records"
        " WHERE memory_id=?",
        (memory_id,),
    )
    db.execute("DELETE FROM records WHERE memory_id=?", (memory_id,))

"""The engine: the single writer of a wiki. Every operation returns a hashed receipt (SPEC §4).

Time (`now`) and actor are parameters of every operation; nothing here reads the clock or the login.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import sqlite3
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from filelock import FileLock

from . import compile as views
from . import journal, keys, scoring
from .errors import BadInput, NotFound
from .grading import initial_grade, regrade
from .index import Index, is_busy
from .models import (
    Category,
    Entry,
    EvidenceGrade,
    MemoryClass,
    Receipt,
    SensitivityTier,
    SourceType,
    Status,
    Tier,
    TrustZone,
    iso,
    parse_iso,
    single_line,
    utc,
)
from .pages import (
    MAX_ENVELOPE_BYTES,
    MAX_LEDGER_BYTES,
    MAX_PAGE_BYTES,
    PageError,
    append_lines,
    atomic_write,
    parse_entry,
    read_text,
    render_entry,
)
from .paths import PathEscape, confine, list_files, mkdirs, open_read, partition_slug, refuse_wiki_links, slugify
from .receipts import LOG_HEADER, canonical_json, log_row, make_receipt, pattern_event
from .keys import suppression_key
from .secrets import find_in_fields, redact_fields, secret_details
from .text import (
    content_sha256,
    has_temporal_cue,
    is_low_signal,
    jaccard,
    normalize,
    sha256_hex,
    token_set,
    tokens,
)

MAX_CAPTURE_BYTES = 64 * 1024
DEFAULT_EXPIRY_DAYS = 14
CONSOLIDATE_THRESHOLD = 0.82
DECAY_HALF_LIFE_DAYS = 60.0
ARCHIVE_BELOW_STRENGTH = 0.15

CORE_DIRS = ("entries", "conflicts", "stated", "quiz", "review", "receipts", "patterns", "snapshots", "sync/outbound",
             "sync/inbound", "raw", "index", "journal", ".memkeeper")
LOCK_TIMEOUT_S = 30.0
# Directories the engine writes (atomic_write leaves `.<name>.<random>.tmp` there if killed mid-write). `raw/` is the
# person's untouched material and `snapshots/` holds copies: neither is ever cleaned.
ENGINE_DIRS = ("", "entries", "conflicts", "stated", "quiz", "review", "review/applied", "receipts", "patterns",
               "sync/outbound", "index", "journal", "journal/stage")


def validate_actor(actor: str) -> str:
    if not re.fullmatch(r"(human|agent):[A-Za-z0-9._@-]{1,64}", actor or ""):
        raise BadInput(f"invalid actor {actor!r}: expected human:<login> or agent:<name>")
    return actor


def _enum(enum_cls, value, reason: str):
    if isinstance(value, enum_cls):
        return value, None
    try:
        return enum_cls(value), None
    except ValueError:
        return None, reason


class BaseEngine:
    """One wiki root: the store, the audit trail and the §4 operations.

    Never used alone: `api.Engine` composes it with the queues (conflicts.py, verification.py, quiz_queue.py,
    tier_queue.py), which provide what capture and compile consult — `find_match`'s compatible pairs,
    suppression keys, `open_conflict`, the CONFLICTS.md view and the queue counts in hot.md.
    Open with `Engine.open(root)`; `Engine.init(root, now=...)` creates the layout.
    """

    def __init__(self, root: Path, sync: bool = True) -> None:
        self.root = Path(os.path.realpath(root))
        # A short poll interval: a waiting writer notices a released lock within 10 ms, so under contention the lock
        # changes hands at about the pace writes finish instead of in 50 ms steps.
        self.lock = FileLock(str(self.root / ".memkeeper" / "write.lock"), timeout=LOCK_TIMEOUT_S, poll_interval=0.01)
        self.index = Index(self.root)
        self._local = threading.local()  # the operation in progress belongs to the thread running it (the desk's workers)
        self.recoveries: list[dict[str, Any]] = []  # what completing interrupted writes did (for check --repair)
        self._log_sig: tuple[int, int] | None = None
        self._category_patches: dict[str, tuple[set[str], dict[str, tuple[str, str, str, str]]]] = {}
        self._conflict_cache: dict[str, tuple[tuple[int, int], Any]] = {}
        self.synced = False
        self._tallies: dict[str, int] | None = None
        if sync:
            self.sync()

    @property
    def _txn(self) -> journal.Txn | None:
        return getattr(self._local, "txn", None)

    @_txn.setter
    def _txn(self, txn: journal.Txn | None) -> None:
        self._local.txn = txn

    # ---------------------------------------------------------------------------------------------------- lifecycle

    @classmethod
    def open(cls, root: str | os.PathLike[str], *, sync: bool = True) -> BaseEngine:
        """Open an existing wiki. With sync=False the derived index is brought up to date later, by `sync()` (the
        desk does it in a worker with progress, so a big wiki never blocks start-up)."""
        path = Path(root)
        if not path.exists():
            raise BadInput(f"wiki root {os.fspath(root)!r} does not exist (run `memkeeper init` first)")
        if not path.is_dir():
            raise BadInput(f"wiki root {os.fspath(root)!r} is not a directory")
        mkdirs(Path(os.path.realpath(path)) / ".memkeeper")
        return cls(path, sync=sync)

    @classmethod
    def init(cls, root: str | os.PathLike[str], now: datetime) -> BaseEngine:
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
        engine = cls(path)
        with engine.lock:
            for name, text in (("log.md", LOG_HEADER), ("DECISIONS.md", "# Decisions\n\nArbitration outcomes, append-only.\n")):
                if not (engine.root / name).exists():
                    atomic_write(engine.root / name, text)
            engine.compile(now=now, _locked=True)
        return engine

    def close(self) -> None:
        self.index.close()

    def sync(self, progress=None) -> dict[str, int]:
        """Refresh the derived index from the Markdown (cheap when nothing changed).

        Never fails because a writer is busy: if the index stays locked past its busy timeout the cache is served
        as it is (a consistent snapshot), and the next sync catches up."""
        log_sig = self._sig(self.root / "log.md")
        self.index.ensure_current()
        try:
            counts = self.index.sync(progress)
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            counts = {"added": 0, "updated": 0, "removed": 0, "bad": 0, "busy": 1}
        # Another process may have written (and updated the shared index.db itself): re-count on demand.
        self._tallies = None
        self._log_sig = log_sig
        self.synced = True
        return counts

    def _sig(self, path: Path) -> tuple[int, int] | None:
        try:
            st = path.stat()
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def path(self, rel: str) -> Path:
        try:
            return confine(self.root, rel)
        except PathEscape as exc:
            raise BadInput(str(exc)) from None

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    # ---------------------------------------------------------------------------------------------------- writing

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Hold the cross-process write lock for one operation, whose writes commit as one unit (core/journal.py).

        On taking the lock: complete or discard what an interrupted writer left in journal/, and drop the cached
        counts if another process wrote since we last looked (the shared index.db already holds its rows — every
        writer updates it under this lock — so nothing is rescanned). Inside: writes are staged; `record()` commits
        them with the receipt. An operation that fails before its receipt leaves nothing behind."""
        if self._txn is not None:  # nested: part of the enclosing operation
            yield
            return
        refuse_wiki_links(self.root)  # a planted symlink refuses the operation before anything is written
        with self.lock:
            if self.index.ensure_current():
                self.index.sync()  # another process rebuilt the file: make sure it is whole before deciding
            self._recover()
            if self._sig(self.root / "log.md") != self._log_sig:
                self._tallies = None
            txn = self._txn = journal.Txn(self.root, self.path)
            try:
                yield
                if txn.pending:
                    self._commit(None)  # writes without a receipt still commit as one unit
            except BaseException:
                txn.discard()  # what was staged and not committed; what was committed is completed next time
                raise
            finally:
                self._txn = None
            if txn.committed:
                try:
                    os.unlink(self.root / journal.INTENT)
                except FileNotFoundError:
                    pass
            self._log_sig = self._sig(self.root / "log.md")

    def _commit(self, receipt: Receipt | None) -> None:
        """The commit point: write the intent, then apply it (lock held)."""
        txn = self._txn
        assert txn is not None
        items = txn.entries()
        intent = txn.intent(receipt.to_dict() if receipt else None)
        journal.write_intent(self.root, intent)
        txn.committed = True
        txn.clear()  # the staged files belong to the intent now: a failure from here on is completed, not discarded
        out = journal.apply_intent(self.root, intent, txn.resolve, fresh=True)
        if out.skipped:
            # A page changed by hand in the moment since this operation read it: the person's text stays.
            self.recoveries.append({"completed": intent["receipt_sha256"], "written": out.written, "skipped": out.skipped,
                                    "discarded": []})
            skipped = {s["path"] for s in out.skipped}
            self.index.sync_paths(sorted(skipped & {i[0] for i in items}))
            items = [i for i in items if i[0] not in skipped]
        self._index_written(items)

    def _index_written(self, items: list[tuple[str, Entry, str]]) -> None:
        """Update the cache (and the tallies and category patches refresh_views uses) for entry pages just written."""
        if not items:
            return
        olds = {}
        for page, _, _ in items:
            rows = self.index.query("SELECT category, status, source_type, verified FROM records WHERE path=?", (page,))
            olds[page] = rows[0] if rows else None
        try:
            self.index.put_many(items)
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            # The pages are written and the receipt is committed; the cache catches up at the next sync (the rows'
            # mtime/size no longer match the pages). Counts are recomputed on demand.
            self._tallies = None
            return
        for page, entry, _ in items:
            old = olds[page]
            self._count_change(old, entry)
            # Remember how the category listings change, so refresh_views patches them instead of re-listing.
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
                pages = sorted({s["path"] for s in intent["steps"]
                                if s["op"] in ("write", "remove") and s["path"].startswith("entries/")})
                try:
                    self.index.sync_paths(pages)
                except sqlite3.OperationalError as exc:
                    if not is_busy(exc):
                        raise
                if out.skipped and intent.get("at") and intent.get("actor"):
                    self._record_recovery(intent, out.skipped)
        self._tallies = None
        self._category_patches = {}
        if intent is not None:
            if intent.get("at"):
                # The interrupted operation may have stopped while regenerating the views: regenerate them all.
                self.refresh_views(parse_iso(intent["at"]), full=True)
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
        receipt = make_receipt("recover", "partial", parse_iso(intent["at"]), intent["actor"],
                               {"completes": intent.get("receipt_sha256"), "skipped": skipped})
        txn = journal.Txn(self.root, self.path)
        self._stage_receipt(txn, receipt, "medium")
        new_intent = txn.intent(receipt.to_dict())
        journal.write_intent(self.root, new_intent)
        journal.apply_intent(self.root, new_intent, self.path, fresh=False)

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
        txn.append(f"receipts/{receipt.at[:10]}.jsonl", [canonical_json(receipt.to_dict())])
        txn.append("log.md", [log_row(receipt)], create=LOG_HEADER)
        txn.append("patterns/PATTERNS.jsonl", [pattern_event(receipt, evidence_grade)])

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
        text = render_entry(entry)
        if len(text.encode("utf-8")) > MAX_PAGE_BYTES:
            # A page the engine could not read back would be lost to every later command: refuse before writing.
            raise BadInput(f"{page} would be larger than the {MAX_PAGE_BYTES // (1024 * 1024)} MiB page limit; "
                           "nothing was written")
        target = self.path(page)
        if self._txn is not None:
            self._txn.write(self.rel(target), text, entry.model_copy(deep=True))
            return page
        atomic_write(target, text)
        self._index_written([(page, entry, sha256_hex(text))])
        return page

    # Tallies that hot.md and index.md need after every write, kept current by save() so a write never re-counts
    # the wiki. Any sync that finds outside changes drops them; they are re-counted once, on demand.
    def tallies(self) -> dict[str, int]:
        if self._tallies is None:
            t = {f"cat:{r[0]}": r[1] for r in self.index.query(
                "SELECT category, count(*) FROM records WHERE status='active' GROUP BY category")}
            t["pending"] = int(self.index.scalar(
                "SELECT count(*) FROM records WHERE status='active' AND source_type='agent_inferred' AND verified=0"
            ) or 0)
            self._tallies = t
        return self._tallies

    def _count_change(self, old, entry: Entry) -> None:
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

    def page_of(self, memory_id: str) -> str | None:
        if self._txn is not None and memory_id in self._txn.pages_by_id:
            return self._txn.pages_by_id[memory_id]
        return self.index.scalar("SELECT path FROM records WHERE memory_id=?", (memory_id,))

    def load(self, memory_id: str) -> Entry:
        """Read a record from its page on disk (the source of truth), as this operation has staged it."""
        page = self.page_of(memory_id)
        if page is None:
            raise NotFound(f"unknown memory id {memory_id!r}")
        try:
            return parse_entry(self.read_text(self.path(page)))
        except (OSError, PageError) as exc:  # a symlink or an oversized file raises its own BadInput
            raise BadInput(f"{page}: {getattr(exc, 'strerror', None) or exc}") from None

    def get(self, memory_id: str) -> Entry | None:
        rows = self.index.query("SELECT data FROM records WHERE memory_id=?", (memory_id,))
        return self.index.entry(rows[0]) if rows else None

    def resolve_id(self, ref: str) -> str:
        """Accept a memory id, a unique id prefix, or a page path; return the memory id."""
        ref = ref.strip()
        if ref.startswith("entries/"):
            mid = self.index.scalar("SELECT memory_id FROM records WHERE path=?", (ref,))
        else:
            rows = self.index.query("SELECT memory_id FROM records WHERE memory_id LIKE ? LIMIT 2", (ref + "%",))
            mid = rows[0][0] if len(rows) == 1 else None
        if mid is None:
            raise NotFound(f"unknown memory id {ref!r}")
        return mid

    def _new_page(self, title: str, zone: str, sensitivity: str, fallback: str = "entry") -> str:
        slug = slugify(title, fallback=slugify(fallback))
        base = f"entries/{slug}.md"
        candidates = [base, f"entries/{partition_slug(slug, zone, sensitivity)}.md"]
        for cand in candidates:
            if not self._page_taken(cand):
                return cand
        n = 2
        while True:
            cand = f"entries/{partition_slug(slug, zone, sensitivity)}-{n}.md"
            if not self._page_taken(cand):
                return cand
            n += 1

    def _page_taken(self, page: str) -> bool:
        if self._txn is not None and self._txn.has(page):
            return True
        # lexists: a symlink (reported by check, never followed) still takes its name.
        return os.path.lexists(self.root / page) or self.index.scalar("SELECT 1 FROM files WHERE path=?", (page,)) is not None

    def _new_id(self, seed: str) -> str:
        """`mem_` + 16 hex derived from what is being stored (so a rebuilt wiki gets the same ids); a collision with
        an existing record moves on to the next derivation."""
        n = 0
        while True:
            mid = "mem_" + sha256_hex(f"{seed}|{n}")[:16]
            if self.page_of(mid) is None:
                return mid
            n += 1

    # ---------------------------------------------------------------------------------------------------- capture

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
    ) -> Receipt:
        """Capture a statement. Receipt status: captured | consolidated | conflict | suppressed | drop | reject.

        Details always carry `reason` for drop/reject; otherwise memory_id, class, canonical_key, page and
        content_sha256 (and conflict_id for a conflict).
        """
        now = utc(now)
        actor = validate_actor(actor)

        def refuse(status: str, reason: str, **extra: Any) -> Receipt:
            return make_receipt("capture", status, now, actor, {"reason": reason, **extra})

        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:  # undecodable bytes on the command line arrive as lone surrogates
            return refuse("reject", "invalid_text", detail="text is not valid UTF-8")
        if size > MAX_CAPTURE_BYTES:
            return refuse("reject", "oversize_text", limit_bytes=MAX_CAPTURE_BYTES)
        zone_e, bad = _enum(TrustZone, zone, "invalid_trust_zone")
        if bad:
            return refuse("reject", bad, value=str(zone))
        sens_e, bad = _enum(SensitivityTier, sensitivity, "invalid_sensitivity_tier")
        if bad:
            return refuse("reject", bad, value=str(sensitivity))
        cls_e = None
        if memory_class is not None:
            cls_e, bad = _enum(MemoryClass, memory_class, "invalid_memory_class")
            if bad:
                return refuse("reject", bad, value=str(memory_class))
        cat_e, bad = _enum(Category, category, "invalid_category")
        if bad:
            return refuse("reject", bad, value=str(category))
        src_e, bad = _enum(SourceType, source_type, "invalid_source_type")
        if bad:
            return refuse("reject", bad, value=str(source_type))
        if not 0.0 <= float(confidence) <= 1.0:
            return refuse("reject", "invalid_confidence", value=confidence)
        if is_low_signal(text):
            return refuse("drop", "low_signal_short_text")
        # Every free-text field is scanned as given (the key before it is slugified).
        fields = {"text": text, "title": title, "key": key, "source_ref": source_ref, "recall": recall, "tags": tags,
                  "quiz_question": quiz_question}
        found = find_in_fields(fields)
        redacted: list[str] = []
        if found:
            if not redact:
                return refuse("reject", "secret_detected", **secret_details(found))
            fields, redacted = redact_fields(fields)
            text, title, key, source_ref, recall, tags, quiz_question = fields.values()
        exp: datetime | None = None
        if expires_at is not None:
            try:
                exp = parse_iso(expires_at)
            except ValueError:
                return refuse("reject", "invalid_expires_at", value=str(expires_at))
        elif ttl_days is not None:
            exp = now + timedelta(days=float(ttl_days))
        if cls_e is None:
            cls_e = MemoryClass.expiring if (exp is not None or has_temporal_cue(text)) else MemoryClass.durable
        if cls_e is MemoryClass.expiring and exp is None:
            exp = now + timedelta(days=DEFAULT_EXPIRY_DAYS)
        if key and not slugify(key, fallback=""):
            # An explicit key carries authority (consolidation, conflicts): one that slugs to nothing would be a
            # constant shared by unrelated records.
            return refuse("reject", "invalid_key", value=key)
        content = text.strip()
        given_title = single_line(title or "")
        canonical_key = keys.canonical_key(key, given_title, content)
        normalized = keys.normalized_fields(text=text, content=content, title=title, stored_title=given_title, key=key,
                                        canonical_key=canonical_key, tags=tags, recall=recall, source_ref=source_ref,
                                        quiz_question=quiz_question)
        title = given_title or keys.title_from(content)
        noted = {"normalized": normalized} if normalized else {}
        incoming = dict(
            text=content, title=title, category=cat_e.value, canonical_key=canonical_key, zone=zone_e.value,
            sensitivity=sens_e.value, memory_class=cls_e.value, expires_at=iso(exp) if exp else None,
            source_type=src_e.value, source_ref=source_ref, confidence=float(confidence), recall=recall or [],
            tags=tags or [], quiz_question=quiz_question, actor=actor, at=iso(now),
            evidence_grade=initial_grade(src_e, source_ref).value,
        )
        # Compare with the candidates before taking the lock. Under the lock, if nothing was committed in between
        # (log.md unchanged: every commit appends to it), that answer stands; otherwise the comparison runs again,
        # and only what changed in between is classified anew (the pair verdicts are cached). Either way the lock
        # is held for milliseconds, not for the detection.
        seen = self._sig(self.root / "log.md")
        early = self.find_match(incoming)

        with self.writing():
            sup_key = suppression_key(source_ref, content)
            if self.is_suppressed(sup_key):
                receipt = make_receipt(
                    "capture", "suppressed", now, actor,
                    {"reason": "denied_suppression_key", "suppression_key": sup_key, "canonical_key": canonical_key,
                     **noted},
                )
                return self.record(receipt)
            match = early if self._sig(self.root / "log.md") == seen and seen is not None else self.find_match(incoming)
            if match is not None and match[0] == "restatement":
                return self._consolidate_into(match[1], incoming, now, actor, redacted, noted)
            if match is not None:
                return self.open_conflict(match[1], incoming, match[0], match[2], now, actor, details=noted)
            entry = self._entry_from_incoming(incoming, now)
            page = self.save(entry, self._new_page(title, zone_e.value, sens_e.value, fallback=canonical_key))
            receipt = make_receipt(
                "capture", "captured", now, actor,
                {
                    "memory_id": entry.memory_id, "class": cls_e.value, "canonical_key": canonical_key, "page": page,
                    "content_sha256": sha256_hex(normalize(content)), "category": cat_e.value, "zone": zone_e.value,
                    "sensitivity": sens_e.value, **({"redacted": redacted} if redacted else {}), **noted,
                },
            )
            self.record(receipt, entry.evidence_grade.value)
            self.refresh_views(now)
            return receipt

    def _entry_from_incoming(self, inc: dict[str, Any], now: datetime, memory_id: str | None = None) -> Entry:
        return Entry(
            memory_id=memory_id or self._new_id(canonical_json(inc) + "|" + iso(now)),
            canonical_key=inc["canonical_key"],
            title=inc["title"],
            category=inc["category"],
            memory_class=inc["memory_class"],
            trust_zone=inc["zone"],
            sensitivity_tier=inc["sensitivity"],
            confidence=inc["confidence"],
            evidence_grade=inc["evidence_grade"],
            source_type=inc["source_type"],
            source_ref=inc["source_ref"],
            created_at=now,
            updated_at=now,
            last_accessed_at=now,
            expires_at=parse_iso(inc["expires_at"]) if inc.get("expires_at") else None,
            recall=inc.get("recall") or [],
            tags=inc.get("tags") or [],
            quiz_question=inc.get("quiz_question"),
            actor=inc.get("actor"),
            content=inc["text"],
        )

    def partition_rows(self, key: str, zone: str, sensitivity: str, statuses=("active",)):
        marks = ",".join("?" * len(statuses))
        return self.index.query(
            f"SELECT * FROM records WHERE canonical_key=? AND trust_zone=? AND sensitivity_tier=? AND status IN ({marks})",
            (key, zone, sensitivity, *statuses),
        )

    def find_match(self, inc: dict[str, Any]) -> tuple[str, str, str] | None:
        """Compare an incoming statement with active same-partition records that share its key or topic.

        Returns (relation, memory_id, reason) for the best restatement, else the first conflict, else None.
        """
        from .contradiction import Statement

        new = Statement(inc["text"], inc["category"], inc["canonical_key"], inc["source_ref"])
        rows = {r["memory_id"]: r for r in self.partition_rows(inc["canonical_key"], inc["zone"], inc["sensitivity"])}
        for r in self.index.topic_candidates(
            tokens(inc["text"]), "status='active' AND trust_zone=? AND sensitivity_tier=?", (inc["zone"], inc["sensitivity"])
        ):
            rows.setdefault(r["memory_id"], r)
        inc_sha = sha256_hex(normalize(inc["text"]))
        restatements: list[tuple[float, str, str]] = []
        conflicts: list[tuple[int, str, str, str]] = []
        inc_tokens = token_set(inc["text"])
        for mid, row in rows.items():
            same_key = row["canonical_key"] == inc["canonical_key"]
            # Cheap pre-filter before the detector: records about the same thing share a good part of their words.
            if not same_key and jaccard(token_set(row["content"]), inc_tokens) < 0.25:
                continue
            old = Statement(row["content"], row["category"], row["canonical_key"], row["source_ref"])
            if not _is_related(old, new):
                continue
            verdict = _classify_pair(old, new)
            if verdict.relation == "unrelated":
                continue
            if verdict.relation == "restatement":
                if row["canonical_key"] != inc["canonical_key"]:
                    continue  # consolidation stays inside one partition (key + zone + tier)
                score = jaccard(token_set(row["content"]), token_set(inc["text"])) + (1 if row["canonical_key"] == inc["canonical_key"] else 0)
                restatements.append((-score, mid, verdict.reason))
            elif not same_key and verdict.relation != "direct_negation":
                # Across different keys a differing name is usually the subject ("Atlas staging…" / "Orbit
                # staging…"), not a competing value; only a plain reversal of the same words is a contradiction.
                continue
            elif not self.is_compatible_pair(sha256_hex(normalize(row["content"])), inc_sha):
                conflicts.append((0 if same_key else 1, mid, verdict.relation, verdict.reason))
        if restatements:
            _, mid, reason = sorted(restatements)[0]
            return ("restatement", mid, reason)
        if conflicts:
            _, mid, relation, reason = sorted(conflicts)[0]
            return (relation, mid, reason)
        return None

    def _consolidate_into(self, memory_id: str, inc: dict[str, Any], now: datetime, actor: str, redacted,
                          noted: dict[str, Any] | None = None) -> Receipt:
        entry = self.load(memory_id)
        before = {"reinforcement": entry.reinforcement, "confidence": entry.confidence}
        entry.reinforcement += 1
        entry.confidence = round(min(0.99, max(entry.confidence, inc["confidence"]) + 0.04), 4)
        entry.strength = 1.0
        entry.updated_at = now
        entry.last_accessed_at = now
        if normalize(inc["text"]) != normalize(entry.content):
            entry.notes.append(f"Consolidated note ({iso(now)}): {' '.join(inc['text'].split())}")
        else:
            entry.notes.append(f"Consolidated note ({iso(now)}): restated by {actor}")
        for phrase in inc.get("recall") or []:
            if phrase not in entry.recall:
                entry.recall.append(phrase)
        page = self.save(entry)
        receipt = make_receipt(
            "capture", "consolidated", now, actor,
            {
                "memory_id": entry.memory_id, "class": entry.memory_class.value, "canonical_key": entry.canonical_key,
                "page": page, "content_sha256": sha256_hex(normalize(inc["text"])), "before": before,
                "reinforcement": entry.reinforcement, "confidence": entry.confidence,
                **({"redacted": redacted} if redacted else {}), **(noted or {}),
            },
        )
        self.record(receipt, entry.evidence_grade.value)
        self.refresh_views(now)
        return receipt

    # ---------------------------------------------------------------------------------------------------- retrieve

    def retrieve(
        self, query: str, *, zone: str | TrustZone = "private_self", limit: int = 10, now: datetime,
        actor: str = "agent:cli", record_access: bool = True,
    ) -> Receipt:
        """Search active records visible to `zone`.

        Receipt details: query_sha256, zone, traversal_index, results (memory_id, page, title, score, the four
        components, excerpt or pointer for cold records), hidden_by_zone. status: ok | reject (empty_query,
        invalid_trust_zone). Writes (last_accessed_at, receipts) only when record_access is True.
        """
        now = utc(now)
        actor = validate_actor(actor)
        zone_e, bad = _enum(TrustZone, zone, "invalid_trust_zone")
        if bad:
            return make_receipt("retrieve", "reject", now, actor, {"reason": bad, "value": str(zone)})
        terms = scoring.query_terms(query)
        if not terms:
            return make_receipt("retrieve", "reject", now, actor, {"reason": "empty_query"})
        ranked, hidden = self._rank(terms, zone_e, now)
        ranked = ranked[: max(0, int(limit))]
        details = {
            "query_sha256": sha256_hex(query),
            "zone": zone_e.value,
            "traversal_index": "index.md",
            "results": [r for _, r in ranked],
            "hidden_by_zone": hidden,
            "result_count": len(ranked),
            "preview": not record_access,
        }
        receipt = make_receipt("retrieve", "ok", now, actor, details)
        if not record_access or not ranked:
            return receipt
        with self.writing():
            for _, r in ranked:
                try:
                    entry = self.load(r["memory_id"])
                except BadInput:
                    continue
                entry.last_accessed_at = now
                entry.strength = 1.0
                self.save(entry, r["page"])
            self.record(receipt)
        return receipt

    def _rank(self, terms: list[str], zone: TrustZone, now: datetime) -> tuple[list[tuple[tuple, dict]], int]:
        total = int(self.index.scalar("SELECT count(*) FROM records") or 0)
        weights = {t: scoring.idf(self.index.doc_freq(t), total) for t in terms}
        ids = self.index.fts_candidates(terms)
        if not ids:
            return [], 0
        ranked: list[tuple[tuple, dict]] = []
        hidden = 0
        rows = self.index.rows_for(
            ids, "status='active'", (),
            "memory_id, path, title, content, canonical_key, recall, category, trust_zone, sensitivity_tier, tier,"
            " last_accessed_at, reinforcement, confidence",
        )
        for row in rows:
            rterms = scoring.term_set(
                f"{row['title']} {row['content']} {row['canonical_key'].replace('-', ' ')} {row['recall']}"
            )
            sem = scoring.semantic(terms, weights, rterms)
            if sem <= 0:
                continue
            if not scoring.zone_allows(zone, TrustZone(row["trust_zone"]), SensitivityTier(row["sensitivity_tier"])):
                hidden += 1
                continue
            score = scoring.Score(
                sem,
                scoring.freshness(parse_iso(row["last_accessed_at"]), now),
                scoring.reinforcement_score(row["reinforcement"]),
                float(row["confidence"]),
            )
            if not scoring.returnable(score):
                continue
            cold = row["tier"] == Tier.cold.value
            result = {
                "memory_id": row["memory_id"],
                "page": row["path"],
                "title": row["title"],
                "category": row["category"],
                "zone": row["trust_zone"],
                "sensitivity": row["sensitivity_tier"],
                "tier": row["tier"],
                "score": round(score.total, 4),
                "components": score.components(),
                "excerpt": None if cold else _excerpt(row["content"]),
            }
            ranked.append(((-round(score.total, 6), row["memory_id"]), result))
        ranked.sort(key=lambda x: x[0])
        return ranked, hidden

    def preview_all_zones(self, query: str, *, now: datetime, limit: int = 10) -> dict[str, Receipt]:
        """What each trust zone would get for a query (no writes): the TUI's zone switch."""
        return {z.value: self.retrieve(query, zone=z, limit=limit, now=now, actor="human:preview", record_access=False) for z in TrustZone}

    # ---------------------------------------------------------------------------------------------------- consolidate

    def consolidate(self, *, now: datetime, actor: str = "agent:cli", threshold: float = CONSOLIDATE_THRESHOLD) -> Receipt:
        """Merge same-partition active records whose token Jaccard ≥ threshold into the most reinforced keeper.

        Receipt details: merges [{source, target}], count.
        """
        now = utc(now)
        actor = validate_actor(actor)
        if not 0.0 < threshold <= 1.0:
            return make_receipt("consolidate", "reject", now, actor, {"reason": "invalid_threshold", "value": threshold})
        with self.writing():
            groups: dict[tuple[str, str, str], list[Any]] = {}
            for row in self.index.query(
                "SELECT memory_id, canonical_key, trust_zone, sensitivity_tier, title, content, reinforcement, created_at"
                " FROM records WHERE status='active'"
            ):
                groups.setdefault((row["canonical_key"], row["trust_zone"], row["sensitivity_tier"]), []).append(row)
            merges: list[dict[str, str]] = []
            for rows in groups.values():
                if len(rows) < 2:
                    continue
                toks = {r["memory_id"]: token_set(r["title"] + " " + r["content"]) for r in rows}
                shas = {r["memory_id"]: sha256_hex(normalize(r["content"])) for r in rows}
                # Most reinforced first (then oldest): each keeper absorbs the near-duplicates not yet merged.
                order = sorted(rows, key=lambda r: (-r["reinforcement"], r["created_at"], r["memory_id"]))
                merged: set[str] = set()
                for keeper in order:
                    kid = keeper["memory_id"]
                    if kid in merged:
                        continue
                    for other in order:
                        oid = other["memory_id"]
                        if oid == kid or oid in merged or any(m["source"] == kid for m in merges):
                            continue
                        if jaccard(toks[kid], toks[oid]) >= threshold and not self.is_compatible_pair(shas[kid], shas[oid]):
                            merged.add(oid)
                            merges.append({"source": oid, "target": kid})
            after: dict[str, int] = {}  # each keeper's reinforcement after its merges (check replays it)
            for m in merges:
                src = self.load(m["source"])
                tgt = self.load(m["target"])
                src.status = Status.archived
                src.merged_into = tgt.memory_id
                src.updated_at = now
                src.notes.append(f"Merged into {tgt.memory_id} ({iso(now)})")
                tgt.reinforcement += src.reinforcement
                tgt.confidence = round(min(0.99, max(tgt.confidence, src.confidence) + 0.04), 4)
                tgt.updated_at = now
                tgt.notes.append(f"Consolidated note ({iso(now)}): merged {src.memory_id}: {' '.join(src.content.split())[:200]}")
                after[tgt.memory_id] = tgt.reinforcement
                self.save(src)
                self.save(tgt)
            receipt = make_receipt("consolidate", "ok", now, actor, {"merges": merges, "count": len(merges), "threshold": threshold,
                                                                    "reinforcement_after": after})
            self.record(receipt)
            self.refresh_views(now, full=bool(merges))
            return receipt

    # ---------------------------------------------------------------------------------------------------- decay

    def decay(self, *, now: datetime, actor: str = "agent:cli", progress=None) -> Receipt:
        """Decay strength by time since last access; archive weak and expired records; re-grade evidence.

        Confidence is never changed. Receipt details: decayed_count, archived_count, archived (ids), regraded_count.
        """
        now = utc(now)
        actor = validate_actor(actor)
        with self.writing():
            rows = self.index.query("SELECT memory_id, data FROM records WHERE status='active'")
            decayed = regraded = 0
            archived: list[str] = []
            for n, row in enumerate(rows):
                if progress and n % 500 == 0:
                    progress(n, len(rows))
                entry = self.index.entry(row)
                before = (entry.strength, entry.status, entry.evidence_grade)
                days = max(0.0, (now - entry.last_accessed_at).total_seconds() / 86400.0)
                entry.strength = round(0.5 ** (days / DECAY_HALF_LIFE_DAYS), 6)
                expired = entry.expires_at is not None and entry.expires_at <= now
                if entry.strength < ARCHIVE_BELOW_STRENGTH or expired:
                    entry.status = Status.archived
                    entry.notes.append(f"Archived by decay ({iso(now)}): {'expired' if expired else 'strength below 0.15'}")
                    archived.append(entry.memory_id)
                grade = regrade(entry, now)
                if grade is not entry.evidence_grade:
                    entry.evidence_grade = grade
                    regraded += 1
                if entry.strength != before[0]:
                    decayed += 1
                if (entry.strength, entry.status, entry.evidence_grade) != before:
                    self.save(entry)
            receipt = make_receipt(
                "decay", "ok", now, actor,
                {"decayed_count": decayed, "archived_count": len(archived), "archived": archived, "regraded_count": regraded},
            )
            self.record(receipt)
            self.refresh_views(now, full=True)
            return receipt

    # ---------------------------------------------------------------------------------------------------- export / import

    def export(self, *, zone: str | TrustZone, now: datetime, actor: str = "agent:cli", include_content: bool = False) -> Receipt:
        """Write an export envelope to sync/outbound/. Receipt details: envelope path, count, payload_sha256."""
        now = utc(now)
        actor = validate_actor(actor)
        zone_e, bad = _enum(TrustZone, zone, "invalid_trust_zone")
        if bad:
            return make_receipt("export", "reject", now, actor, {"reason": bad, "value": str(zone)})
        if include_content and zone_e in (TrustZone.outside_contact, TrustZone.paid_public):
            return make_receipt("export", "reject", now, actor, {"reason": "content_not_allowed_for_zone", "zone": zone_e.value})
        with self.writing():
            items = []
            for row in self.index.query("SELECT * FROM records WHERE status='active' ORDER BY memory_id"):
                sens = SensitivityTier(row["sensitivity_tier"])
                if sens is SensitivityTier.do_not_export and zone_e is not TrustZone.private_self:
                    continue
                if not scoring.zone_allows(zone_e, TrustZone(row["trust_zone"]), sens):
                    continue
                entry = self.index.entry(row)
                item = {
                    "memory_id": entry.memory_id, "page": row["path"], "title": entry.title,
                    "canonical_key": entry.canonical_key, "category": entry.category.value,
                    "memory_class": entry.memory_class.value, "trust_zone": entry.trust_zone.value,
                    "sensitivity_tier": sens.value, "content_sha256": entry.normalized_content_sha256,
                    "source_type": entry.source_type.value, "source_ref": entry.source_ref,
                    "created_at": iso(entry.created_at), "confidence": entry.confidence,
                }
                if include_content and sens is not SensitivityTier.do_not_export:
                    item["content"] = entry.content
                items.append(item)
            last = self.last_receipt_sha()
            payload = {"zone": zone_e.value, "include_content": include_content, "items": items,
                       "selected_ids": [i["memory_id"] for i in items], "source_receipt_sha256": last}
            envelope = {"schema": "memkeeper.memory_update.v1", "created_at": iso(now), "actor": actor, **payload,
                        "payload_sha256": sha256_hex(canonical_json(payload))}
            name = f"sync/outbound/{now.strftime('%Y%m%dT%H%M%SZ')}-{zone_e.value}-{envelope['payload_sha256'][:8]}.json"
            self.write_file(self.path(name), json.dumps(envelope, indent=2, ensure_ascii=False) + "\n")
            receipt = make_receipt("export", "ok", now, actor, {"envelope": name, "zone": zone_e.value, "count": len(items),
                                                                 "payload_sha256": envelope["payload_sha256"], "include_content": include_content})
            return self.record(receipt)

    def import_envelope(self, envelope_path: str, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        """Import an envelope: records arrive agent_inferred and unverified, with provenance, never the source's trust."""
        now = utc(now)
        actor = validate_actor(actor)
        try:
            data = json.loads(_read_envelope(envelope_path))
        except BadInput:
            raise
        except OSError as exc:
            raise BadInput(f"cannot read envelope {envelope_path}: {exc.strerror or exc}") from None
        except (ValueError, RecursionError) as exc:
            raise BadInput(f"cannot read envelope {envelope_path}: {' '.join(str(exc).split())[:200]}") from None
        if not isinstance(data, dict) or data.get("schema") != "memkeeper.memory_update.v1":
            raise BadInput(f"{envelope_path}: not a memkeeper.memory_update.v1 envelope")
        payload = {k: data.get(k) for k in ("zone", "include_content", "items", "selected_ids", "source_receipt_sha256")}
        if sha256_hex(canonical_json(payload)) != data.get("payload_sha256"):
            raise BadInput(f"{envelope_path}: payload_sha256 does not match the payload")
        created, skipped = [], []
        for item in data.get("items") or []:
            content = item.get("content")
            if not content:
                skipped.append({"memory_id": item.get("memory_id"), "reason": "metadata_only"})
                continue
            r = self.capture(
                content, now=now, actor=actor, key=item.get("canonical_key"), title=item.get("title"),
                category=item.get("category", "fact"), zone=item.get("trust_zone", "private_self"),
                sensitivity=item.get("sensitivity_tier", "normal"), memory_class=item.get("memory_class"),
                source_type="agent_inferred",
                source_ref=f"import:{data['payload_sha256'][:12]}:{item.get('memory_id')}" + (f" ({item['source_ref']})" if item.get("source_ref") else ""),
                confidence=min(0.7, float(item.get("confidence") or 0.7)),
            )
            created.append({"memory_id": r.details.get("memory_id"), "status": r.status, "origin": item.get("memory_id")})
        with self.writing():
            receipt = make_receipt("import", "ok", now, actor, {"envelope": os.fspath(envelope_path), "payload_sha256": data["payload_sha256"],
                                                                "results": created, "skipped": skipped})
            return self.record(receipt)

    # ---------------------------------------------------------------------------------------------------- snapshot

    def snapshot(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        """Copy the wiki (minus snapshots/ and .memkeeper/) to snapshots/<iso>/ with manifest.json. Never overwrites."""
        now = utc(now)
        actor = validate_actor(actor)
        with self.writing():
            stamp = now.strftime("%Y%m%dT%H%M%SZ")
            mkdirs(self.root / "snapshots")
            target = self.root / "snapshots" / stamp
            n = 1
            while os.path.lexists(target):
                n += 1
                target = self.root / "snapshots" / f"{stamp}-{n}"
            # Copied into journal/stage/ and moved into place when the receipt commits: an interrupted snapshot
            # leaves no half-copied folder in snapshots/.
            staged = self.root / journal.STAGE_DIR / f"snapshot-{target.name}"
            if staged.exists():
                journal.remove_tree(staged)
            skipped: list[str] = []

            def ignore(d: str, names: list[str]) -> list[str]:
                # Only real directories and regular files are copied: a symlink (reported by check) is never
                # followed, and a FIFO or device is never read.
                out = []
                for x in names:
                    if Path(d) == self.root and x in ("snapshots", ".memkeeper", journal.JOURNAL_DIR):
                        out.append(x)
                        continue
                    st = os.lstat(os.path.join(d, x))
                    if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                        out.append(x)
                        skipped.append(Path(os.path.join(d, x)).relative_to(self.root).as_posix())
                return out

            shutil.copytree(self.root, staged, symlinks=True, ignore=ignore)
            digest_parts = []
            for f in sorted(p for p in staged.rglob("*") if p.is_file() and not p.is_symlink()):
                digest_parts.append(f.relative_to(staged).as_posix() + ":" + sha256_hex(f.read_bytes()))
            patterns = staged / "patterns" / "PATTERNS.jsonl"
            lines = patterns.read_bytes().count(b"\n") if patterns.is_file() else 0
            manifest = {"time": iso(now), "patterns_line_count": lines, "state_sha256": sha256_hex("\n".join(digest_parts)),
                        "files": len(digest_parts)}
            atomic_write(staged / "manifest.json", json.dumps(manifest, indent=2) + "\n")
            assert self._txn is not None
            self._txn.rename(self.rel(staged), self.rel(target))
            receipt = make_receipt("snapshot", "ok", now, actor, {"snapshot": self.rel(target), **manifest,
                                                                   **({"skipped": sorted(skipped)} if skipped else {})})
            return self.record(receipt)

    # ---------------------------------------------------------------------------------------------------- compile

    def compile(self, *, now: datetime, actor: str = "agent:cli", _locked: bool = False) -> Receipt:
        """Regenerate every generated view: hot.md, index.md, index/*.md, SCHEMA.md, CONFLICTS.md."""
        now = utc(now)
        if _locked:
            self.refresh_views(now, full=True)
            return make_receipt("compile", "ok", now, actor, {})
        with self.writing():
            receipt = make_receipt("compile", "ok", now, validate_actor(actor), {"pages": ["hot.md", "index.md", "SCHEMA.md", "CONFLICTS.md", "index/"]})
            self.record(receipt)  # first, so an interrupted compile is finished by whoever completes the intent
            self.refresh_views(now, full=True)
            return receipt

    def refresh_views(self, now: datetime, full: bool = False) -> None:
        """Regenerate what a write affected: hot.md, index.md and the dirty index/<category>.md pages (lock held)."""
        if self._txn is not None and self._txn.pending:
            self._commit(None)  # views describe committed pages only
        patches, self._category_patches = self._category_patches, {}
        for cat in sorted({c.value for c in Category} if full else set(patches)):
            target = self.root / "index" / f"{cat}.md"
            text = None
            if not full and cat in patches and target.exists():
                remove, add = patches[cat]
                text = views.patch_category(read_text(target, limit=MAX_LEDGER_BYTES, what="a generated view"), cat,
                                            remove, list(add.values()))
            if text is None:
                rows = self.index.query("SELECT title, path, status, trust_zone FROM records WHERE category=?", (cat,))
                if not rows and not target.exists():
                    continue
                text = views.render_category(cat, [(r[0], r[1], r[2], r[3]) for r in rows])
            atomic_write(target, text)
        counts = {k[4:]: v for k, v in self.tallies().items() if k.startswith("cat:") and v}
        archived = [(r[0], r[1]) for r in self.index.query("SELECT title, path FROM records WHERE status='archived' ORDER BY updated_at DESC, path LIMIT 50")]
        archived_total = int(self.index.scalar("SELECT count(*) FROM records WHERE status='archived'") or 0)
        atomic_write(self.root / "index.md", views.render_index(now, counts, archived, archived_total))
        if full or not (self.root / "SCHEMA.md").exists():
            atomic_write(self.root / "SCHEMA.md", views.render_schema())
        if full:
            self._conflicts_view_sig = None
        self.write_conflicts_view(now)
        atomic_write(self.root / "hot.md", views.render_hot(self.hot_inputs(now)))

    def hot_inputs(self, now: datetime) -> views.HotInputs:
        last = self.index.query(
            "SELECT title, path FROM records WHERE status='active' ORDER BY created_at DESC, memory_id DESC LIMIT 5"
        )
        commitments = self.index.query("SELECT title, path FROM records WHERE status='active' AND category='commitment' ORDER BY updated_at DESC LIMIT 40")
        return views.HotInputs(
            now=now,
            last_captures=[(r[0], r[1]) for r in last],
            commitments=[(r[0], r[1]) for r in commitments],
            **self.queue_counts_for_hot(now),
        )

    # ---------------------------------------------------------------------------------------------------- reading helpers

    def last_receipt_sha(self) -> str | None:
        try:
            fh = open_read(self.root / "log.md")
        except FileNotFoundError:
            return None
        with fh:
            fh.seek(max(0, os.fstat(fh.fileno()).st_size - 4096))
            lines = fh.read(8192).decode("utf-8", "replace").strip().splitlines()
        for line in reversed(lines):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 5 and re.fullmatch(r"[0-9a-f]{64}", cells[4]):
                return cells[4]
        return None

    def iter_receipts(self) -> Iterator[tuple[str, int, dict[str, Any] | None, str]]:
        """(file, line number, parsed receipt or None, raw line) for every line of receipts/*.jsonl, oldest first."""
        yield from self.read_receipts()[0]

    def read_receipts(
        self, cursor: dict[str, tuple[int, int, str]] | None = None
    ) -> tuple[list[tuple[str, int, dict[str, Any] | None, str]], dict[str, tuple[int, int, str]]]:
        """Receipts written after `cursor` (file → (byte offset, lines read, sha256 of the bytes before it)),
        oldest first, and the new cursor.

        The ledgers are append-only, so a live tail reads only what was appended since the last call. A file that
        whose bytes before the offset changed (edited by hand) is read again from the start.
        """
        cursor = dict(cursor or {})
        out: list[tuple[str, int, dict[str, Any] | None, str]] = []
        try:
            names = list_files(self.root / "receipts", ".jsonl")  # regular files only, never through a symlink
        except PathEscape:
            names = []  # receipts/ is a symlink: nothing is read through it (check reports it)
        for name in names:
            f = self.root / "receipts" / name
            rel = self.rel(f)
            offset, count, tail = cursor.get(rel, (0, 0, ""))
            try:
                fh = open_read(f)
            except FileNotFoundError:
                continue
            size = os.fstat(fh.fileno()).st_size
            with fh:
                # Hashing what was already read is far cheaper than parsing and verifying it again, and it notices
                # any hand edit, even one that keeps the size.
                seen = hashlib.sha256(fh.read(offset)) if offset <= size else None
                if seen is None or seen.hexdigest() != tail:
                    offset, count, seen = 0, 0, hashlib.sha256()
                if size == offset:
                    continue
                fh.seek(offset)
                chunk = fh.read(size - offset)
            whole = chunk[: chunk.rfind(b"\n") + 1]  # a line still being appended waits for the next call
            for raw in whole.decode("utf-8", "replace").split("\n")[:-1]:
                count += 1
                if not raw.strip():
                    continue
                try:
                    data = json.loads(raw)
                except ValueError:
                    data = None
                out.append((rel, count, data if isinstance(data, dict) else None, raw))
            seen.update(whole)
            cursor[rel] = (offset + len(whole), count, seen.hexdigest())
        return out, cursor


# -------------------------------------------------------------------------------------------------------- policy helpers


@functools.lru_cache(maxsize=16384)
def _is_related(old, new) -> bool:
    from .contradiction import is_related

    return is_related(old, new)


@functools.lru_cache(maxsize=16384)
def _classify_pair(old, new):
    """contradiction.classify_pair, cached: it is a pure function of the two (frozen) statements."""
    from .contradiction import classify_pair

    return classify_pair(old, new)



def _read_envelope(envelope_path: str) -> bytes:
    """An import envelope: a regular file (not a device or FIFO: `import /dev/zero` is refused at once) of at most
    MAX_ENVELOPE_BYTES, read no further than that. The path is the user's own, so it may lie outside the wiki."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(envelope_path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadInput(f"cannot read envelope {envelope_path}: not a regular file")
        if st.st_size > MAX_ENVELOPE_BYTES:
            raise BadInput(f"cannot read envelope {envelope_path}: {st.st_size} bytes, over the "
                           f"{MAX_ENVELOPE_BYTES // (1024 * 1024)} MiB envelope limit")
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(MAX_ENVELOPE_BYTES + 1)
        if len(data) > MAX_ENVELOPE_BYTES:
            raise BadInput(f"cannot read envelope {envelope_path}: over the "
                           f"{MAX_ENVELOPE_BYTES // (1024 * 1024)} MiB envelope limit")
        return data
    finally:
        os.close(fd)


def _excerpt(content: str, limit: int = 280) -> str:
    flat = " ".join(content.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

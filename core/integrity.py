"""`check` and `check --repair` (SPEC §4, §7): what the audit trail and the derived files must agree on, and the
repairs that restore derived data without ever touching a person's page.

What check finds, and what repair does about it:

| problem                                                   | repair                                          |
|-----------------------------------------------------------|-------------------------------------------------|
| an interrupted write left in journal/ (intent, staged)    | completed / discarded (as any writer does)      |
| a receipt with no row in log.md                           | the row is appended, made from the receipt      |
| a receipt with no PATTERNS.jsonl event                    | the event is appended, made from the receipt    |
| a generated view that is gone (hot.md, index.md,          | regenerated (they are derived from the pages    |
|   index/<category>.md, SCHEMA.md, CONFLICTS.md)           |   and queues), and listed in the receipt        |
| leftover `.<name>.<random>.tmp` files of atomic writes    | removed                                         |
| index.db corrupt, or rows that disagree with the pages    | index.db rebuilt from the pages                 |
| a receipt line that is not JSON or whose hash is wrong    | reported (a receipt is never rewritten)         |
| one receipt hash on two or more lines of receipts/        | reported (the trail is append-only)             |
| a log.md row whose receipt is missing                     | reported (a receipt cannot be made up)          |
| log.md rows out of commit order (moved by hand)           | reported (log.md is append-only: the person     |
|                                                           |   puts the rows back)                           |
| an entry page that no receipt names                       | reported (written outside the engine)           |
| reinforcement that disagrees with the receipts            | reported (the page is the person's to correct)  |
| a line of stated/*.jsonl that is not a JSON object        | reported (the ledgers are append-only)          |
| a page whose denial or stamp disagrees with the ledgers   | reported (`verify rebuild` puts the ledgers'    |
|   (put back by `git checkout`, edited by hand)            |   state back on the page)                       |
| malformed pages, conflict records, quiz ledger rows       | reported (never rewritten by the engine)        |
| an entry page that cannot be read (permission, I/O error) | reported (the person fixes the file)            |
| a Markdown file under entries/ or conflicts/ never read   | reported (never moved: the person decides)      |
|   (in a subfolder, `.MD`, not named `C<N>.md`), and a     |                                                 |
|   quiz ledger or tier review memkeeper does not find      |                                                 |
| a record the receipts made whose page is gone             | reported (never made up); a person's repair     |
|   (deleted by hand, or a directory put in its place)      |   records the deletion in its receipt           |
| a copy of a ledger memkeeper never reads (a sync tool's   | reported (never merged: the person merges and   |
|   conflicted copy of a receipts day file, stated/*.jsonl, |   deletes it)                                   |
|   PATTERNS.jsonl, log.md, DECISIONS.md)                   |                                                 |
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from . import journal
from .conflicts import ConflictQueue
from .errors import BadInput
from .ledgers import CONFIRMATIONS, DENIALS
from .lockfile import LockTimeout
from .models import Category, Receipt, at, iso
from .pages import MAX_LEDGER_BYTES, MAX_PAGE_BYTES, iter_lines, read_text
from .paths import list_files, open_read, symlinks_under
from .quiz_ledger import person_id
from .quiz_queue import QuizQueue
from .receipts import (
    DAY_FILE,
    LOG_HEADER,
    log_row,
    make_receipt,
    parse_log_row,
    pattern_event,
    receipt_files,
    verify_receipt,
)
from .store import DECISIONS_HEADER, Store
from .validate import validate_actor
from .verification import Drift, ledger_drift, ledger_gaps
from .views import Views

# A lock-free check that found something looks again holding the write lock (a writer may have been part-way
# through an operation while it read); it waits this long for the lock before reporting what it saw.
CHECK_LOCK_WAIT_S = 5.0
CHECK_LOOKS = 3
HUMAN_DECISIONS = frozenset({"confirm", "deny", "undeny", "confirm_many", "deny_many", "resolve_conflict", "undo"})
_MEMORY_ID = re.compile(r"mem_[0-9a-f]{16}")

# What a Markdown file looks like: a file with one of these endings (any case) under entries/ or conflicts/ that is
# not read is reported. Other files there (attachments: images, PDFs) are not pages and are left alone.
MARKDOWN_SUFFIXES = (".md", ".markdown")
_CONFLICT_FILE = re.compile(r"C\d+\.md")
_LEDGER_FILE = re.compile(r"quiz-ledger\.(.+)\.md")
# A category's line in index.md (`compile.render_index`).
_CATEGORY_LINK = re.compile(r"^- \[([a-z]+)\]\(index/([a-z]+)\.md\) — \d+$", re.MULTILINE)

# The verification and arbitration ledgers in stated/ (`ledgers.py`, `conflicts.py`); any other `.jsonl` there is a
# copy (`_check_stray_copies`).
STATED_LEDGERS = ("compatible.jsonl", "confirmations.jsonl", "denials.jsonl")

# Kinds of problem `repair` fixes.
REPAIRABLE = frozenset({"journal", "log_row_missing", "pattern_missing", "tmp", "index", "view_missing"})
# The generated views every write regenerates (`Views.refresh`); index/<category>.md is written only for a category
# that has records.
TOP_VIEWS = ("hot.md", "index.md", "SCHEMA.md", "CONFLICTS.md")


@dataclass
class CheckReport:
    problems: list[str] = field(default_factory=list)
    receipts: int = 0
    pages: int = 0
    kinds: list[str] = field(default_factory=list)  # parallel to problems

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, kind: str, message: str) -> None:
        self.problems.append(message)
        self.kinds.append(kind)

    @property
    def repairable(self) -> list[str]:
        return [p for p, k in zip(self.problems, self.kinds, strict=True) if k in REPAIRABLE]

    @property
    def unrepairable(self) -> list[str]:
        return [p for p, k in zip(self.problems, self.kinds, strict=True) if k not in REPAIRABLE]


@dataclass
class _Trail:
    """The audit trail as read from disk."""

    receipts: dict[str, tuple[str, dict[str, Any]]]  # sha → (file:line, receipt), valid receipts only
    order: list[str]  # receipt shas in commit order (log.md order, then receipts not in the log)
    logged: set[str]
    patterned: set[str]
    # Each ledger's order, for `_check_log_order`: a receipt's first row in log.md (line number, sha; receipts in
    # receipts/ only), its first event in PATTERNS.jsonl, and each receipts/<date>.jsonl's receipts by line (a
    # receipt under the first file that holds it).
    log_rows: list[tuple[int, str]] = field(default_factory=list)
    pattern_order: list[str] = field(default_factory=list)
    filed: dict[str, list[str]] = field(default_factory=dict)


class Integrity:
    """check and repair. Given the conflict queue and the quiz queue: their records are validated too."""

    def __init__(self, store: Store, views: Views, conflicts: ConflictQueue, quiz: QuizQueue) -> None:
        self.store = store
        self.views = views
        self.conflicts = conflicts
        self.quiz = quiz

    # ---------------------------------------------------------------------------------------------- check

    def check(self) -> CheckReport:
        """Recompute every receipt hash; cross-check receipts ↔ log.md ↔ PATTERNS.jsonl ↔ pages; validate every page,
        ledger, conflict record and the derived index. Read-only (apart from bringing the index up to date).

        A write in progress can look like a problem to a reader (its receipt is appended, its log row not yet), so a
        check that finds something looks again holding the write lock before it reports."""
        report = self._check_once()
        if report.ok or self.store.txn is not None:
            return report
        try:
            with self.store.lock.acquire(timeout=CHECK_LOCK_WAIT_S):
                return self._check_once()
        except LockTimeout:
            pass
        # Writers kept the lock busy all that time: look again without it and keep only what every look finds. What a
        # write in progress shows (its intent, its receipt without a log row yet, its temp file) is a different write
        # each time; damage is the same each time.
        for _ in range(CHECK_LOOKS):
            again = set(self._check_once().problems)
            keep = [(p, k) for p, k in zip(report.problems, report.kinds, strict=True) if p in again]
            report.problems, report.kinds = [p for p, _ in keep], [k for _, k in keep]
            if report.ok:
                break
        return report

    def _check_once(self) -> CheckReport:
        report = CheckReport()
        # Every symlink under the root is a problem, wherever it points: the engine never follows one.
        links: set[str] = set()
        for rel, target in symlinks_under(self.store.root):
            links.add(rel)
            report.add("symlink", f"{rel}: symlink to {target}; memkeeper never follows symlinks (remove it)")
        self.store.sync()
        completing = self._check_journal(report)
        trail = self._read_trail(report, links)
        self._check_log_order(report, trail)
        self._check_pages(report, trail, links)
        self._check_ledgers(report)
        self._check_trail_against_files(report, trail)
        for rel in self.store.tmp_files():
            report.add("tmp", f"{rel}: temp file left by an interrupted write (check --repair removes it)")
        unreadable: list[tuple[str, str]] = []
        for problem in self.store.index.verify(unreadable):
            report.add("index", f"{problem} (check --repair rebuilds it)")
        _report_unreadable(report, unreadable)
        self._check_conflicts(report)
        unread = self._check_unread(report)
        self._check_stray_copies(report)
        for mid, page in self.gone_records(trail, unread):
            report.add("page_gone", _gone_line(mid, page))
        for problem in self.quiz.quiz_problems():
            report.add("quiz", problem)
        if not completing:  # completing the interrupted write regenerates every view: one problem, not one per view
            for rel in self.missing_views():
                report.add(
                    "view_missing",
                    f"{rel}: generated view missing (deleted by hand?); check --repair regenerates it",
                )
        return report

    def missing_views(self, *, listed: bool = True) -> list[str]:
        """The generated views that are not there (deleted by hand?). hot.md, index.md, SCHEMA.md and CONFLICTS.md
        are written by init and by every write. index/<category>.md: with `listed` (what check reports), for each
        category index.md lists — a link that leads nowhere; a new wiki lists none, and a category whose records
        reached the index after their write (busy) is listed only once its page is written. Otherwise, and when
        index.md is gone, for each category with records: what `Views.refresh(full=True)` writes, so what repair
        regenerates. A symlink in a view's place is reported as a symlink, not as missing."""
        root = self.store.root
        missing = [rel for rel in TOP_VIEWS if not os.path.lexists(root / rel)]
        cats = _listed_categories(root / "index.md") if listed and "index.md" not in missing else None
        if cats is None:
            cats = {r[0] for r in self.store.index.query("SELECT DISTINCT category FROM records")}
        for cat in sorted(c.value for c in Category if c.value in cats):
            if not os.path.lexists(root / "index" / f"{cat}.md"):
                missing.append(f"index/{cat}.md")
        return missing

    def _detected_at(self, cid: str) -> str | None:
        try:
            return self.conflicts.load_conflict(cid).detected_at
        except Exception:  # unreadable: reported as such by `_check_conflicts`
            return None

    def _check_conflicts(self, report: CheckReport) -> None:
        """Every conflict record read from its page, not through the parse cache (`.memkeeper/conflicts.jsonl`,
        keyed on each page's time and size): an edit that kept both, or a cache line written by anyone, is read
        as the page holds it, and the cache takes that reading, as a sync brings the index up to date."""
        for name in self.conflicts.conflict_files():
            try:
                self.conflicts.load_conflict(name[:-3], fresh=True)
            except OSError as exc:  # unreadable (read fresh, it is not made a BadInput)
                report.add("conflict", f"conflicts/{name}: {exc.strerror or exc}")
            except Exception as exc:  # BadInput: one line per bad record
                report.add("conflict", str(exc))

    def _check_unread(self, report: CheckReport) -> list[str]:
        """Markdown files memkeeper never reads where a person would expect it to: under entries/ a page in a
        subfolder (only entries/*.md are memories) or whose name ends in `.MD` or `.markdown`; under conflicts/ a
        file not named `C<N>.md`; under quiz/ a file named as a quiz ledger that is not `quiz-ledger.<person>.md`
        directly in quiz/ (a person's answers and schedule, never used); under review/ a file named as a tier review
        that is not `tier-review-….md` directly in review/ (a pending decision nobody is shown; review/applied/
        holds the applied ones). Each is one line saying what to do; nothing moves them (a person decides what they
        are). Hidden files and folders (a leading dot) are out of sight on purpose, symlinks are reported as such,
        and other files are not reported: attachments are not pages, a dated quiz notebook is written and never
        read by design, and nothing else in quiz/ or review/ is memory. Returns their paths."""
        out: list[str] = []
        for folder in ("entries", "conflicts", "quiz", "review"):
            base = self.store.root / folder
            if base.is_symlink() or not base.is_dir():
                continue  # a symlink is reported with every other one; no folder, nothing unread
            for dirpath, dirnames, filenames in os.walk(base, followlinks=False):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                sub = os.path.relpath(dirpath, base).replace(os.sep, "/")
                nested = sub != "."
                if folder == "review" and (sub == "applied" or sub.startswith("applied/")):
                    dirnames[:] = []  # applied reviews: kept for the record, never read again
                    continue
                for name in sorted(filenames):
                    if name.startswith(".") or not name.lower().endswith(MARKDOWN_SUFFIXES):
                        continue
                    reason = _unread_reason(folder, name, nested)
                    if reason is None:
                        continue  # read (or reported as a bad page, record or ledger), or nothing memkeeper reads
                    full = os.path.join(dirpath, name)
                    if os.path.islink(full):
                        continue  # reported as a symlink
                    rel = os.path.relpath(full, self.store.root).replace(os.sep, "/")
                    report.add("unread", f"{rel}: {reason}")
                    out.append(rel)
        return out

    def _check_stray_copies(self, report: CheckReport) -> None:
        """Copies of the append-only ledgers under names memkeeper never reads, one line each with what to do: a sync
        tool that saw a ledger appended on two machines keeps the second version beside it (Dropbox "2026-12-01
        (conflicted copy 2026-12-05).jsonl", iCloud "denials 2.jsonl", Syncthing "PATTERNS.sync-conflict-….jsonl",
        OneDrive "log-HOSTNAME.md"), and what only the copy holds (a receipt, a denial made on the other machine) is
        missing from the trail. In receipts/ every file but the day files is one (`receipts.receipt_files`: a copy
        was read as part of the trail, its receipts counted twice); in stated/ and patterns/ every `.jsonl` but the
        ledgers'; at the top, a file named as a copy of log.md or DECISIONS.md that starts as they do (a person's
        own `log-notes.md` is theirs). Hidden files (a leading dot) and other files (an OS's `Thumbs.db`) are left
        alone. Never moved or merged: which lines belong is the person's to say."""
        root = self.store.root
        for name in _plain_files(root / "receipts"):
            if DAY_FILE.fullmatch(name):
                continue
            day = re.match(r"\d{4}-\d{2}-\d{2}", name)
            if day or name.lower().endswith(".jsonl"):
                report.add("stray_copy", _stray_line(f"receipts/{name}", f"receipts/{day[0]}.jsonl" if day else None))
        for folder, ledgers in (("stated", STATED_LEDGERS), ("patterns", ("PATTERNS.jsonl",))):
            for name in _plain_files(root / folder):
                if name in ledgers or not name.lower().endswith(".jsonl"):
                    continue
                of = next((f"{folder}/{led}" for led in ledgers if _named_as_copy(name, led)), None)
                report.add("stray_copy", _stray_line(f"{folder}/{name}", of, folder))
        for name in _plain_files(root):
            for original, first in (("log.md", LOG_HEADER), ("DECISIONS.md", DECISIONS_HEADER)):
                if _named_as_copy(name, original) and _starts_with(root / name, first.split("\n", 1)[0]):
                    report.add("stray_copy", _stray_line(name, original))

    def gone_records(self, trail: _Trail, unread: list[str]) -> list[tuple[str, str | None]]:
        """(memory id, page or None) of each record the receipts made (a capture that stored it, a resolution that
        created it) whose page is gone: the engine never deletes a page, so it was deleted (or renamed out of
        entries/) by hand, and the next sync forgot the record without a word. A page still there under its name
        (a bad page, an unreadable one, a symlink) or a file reported as never read that holds its id is reported
        as that, not twice; a directory or a FIFO in its place holds no page, and the record is gone. A person's repair that recorded the deletion (`pages_gone` in its receipt) silences it,
        until a later receipt names the record again (restored, then deleted again)."""
        made: dict[str, str | None] = {}
        recorded: set[str] = set()
        for sha in trail.order:
            data = trail.receipts[sha][1]
            action, d = data.get("action"), data.get("details")
            if not isinstance(d, dict):
                continue
            if action == "repair":
                recorded.update(g["memory_id"] for g in d.get("pages_gone") or [] if isinstance(g, dict))
                continue
            if action == "recover":
                continue
            mid = d.get("memory_id")
            if action == "capture" and data.get("status") == "captured" and isinstance(mid, str):
                made[mid] = d.get("page") if isinstance(d.get("page"), str) else None
            elif action == "resolve_conflict" and isinstance(d.get("created"), str):
                made.setdefault(d["created"], None)
            elif isinstance(mid, str) and mid in made and isinstance(d.get("page"), str):
                made[mid] = d["page"]  # where a later receipt says it lives
            if recorded:
                recorded -= set(_MEMORY_ID.findall(json.dumps(d)))
        if not made:
            return []
        present = {r[0] for r in self.store.index.query("SELECT memory_id FROM records")}
        gone = {m: page for m, page in made.items() if m not in present and m not in recorded}
        gone = {m: page for m, page in gone.items() if page is None or not _holds_page(self.store.root / page)}
        if not gone:
            return []
        # A page moved where memkeeper does not read it, or damaged: reported as such already.
        holders = unread + [b.path for b in self.store.index.bad_pages()]
        for rel in holders:
            if not os.path.isfile(self.store.root / rel):
                continue  # a directory or a FIFO named like a page holds no record (and a FIFO would block the read)
            try:
                with open(self.store.root / rel, "rb") as fh:
                    text = fh.read(MAX_PAGE_BYTES).decode("utf-8", "replace")
            except OSError:
                continue
            for m in [m for m in gone if m in text]:
                del gone[m]
        return sorted(gone.items(), key=lambda x: (x[1] or "", x[0]))

    def _check_journal(self, report: CheckReport) -> bool:
        """Report what an interrupted write left in journal/. True when completing its intent will regenerate
        every view (an intent with a receipt time: `Store._recover`)."""
        jdir = self.store.root / journal.JOURNAL_DIR
        completing = False
        named: set[str] = set()  # staged files the intent applies: part of a committed write, never to be removed
        if (self.store.root / journal.INTENT).exists():
            try:
                intent = journal.read_intent(self.store.root)
                sha = intent.get("receipt_sha256") or "none"
                completing = bool(intent.get("at"))
                named = {
                    str(step.get("stage") if step.get("op") == "write" else step.get("path"))
                    for step in intent["steps"]
                }
                report.add(
                    "journal",
                    f"{journal.INTENT}: an interrupted write (receipt {sha[:12]}…) is not complete yet "
                    "(the next write or check --repair completes it)",
                )
            except (OSError, ValueError) as exc:
                report.add("journal", f"{journal.INTENT}: unreadable intent ({exc}); the next write sets it aside")
        for rel in journal.leftover_stage(self.store.root):
            # (a staged file the intent names is what completing it applies; a temp file is reported as one below)
            if rel not in named and not journal.TMP_NAME.match(rel.rpartition("/")[2]):
                report.add("journal", f"{rel}: staged by a write that never committed (the next write discards it)")
        if jdir.is_dir():
            for p in sorted(jdir.glob("unreadable-intent-*.json")):
                report.add(
                    "set_aside",
                    f"{self.store.rel(p)}: an intent that could not be read was set aside; look at it, then delete it",
                )
        return completing

    def _ledger_lines(self, rel: str, report: CheckReport, links: set[str]):
        """(line number, text) of an append-only ledger; a ledger that cannot be read safely (a symlink, not a
        regular file) or a line that is too long or not UTF-8 is reported, never fatal."""
        try:
            for n, line in iter_lines(self.store.root / rel):
                if line is None:
                    report.add("ledger", f"{rel}:{n}: line too long or not UTF-8")
                    continue
                yield n, line
        except BadInput as exc:
            if not _under_link(rel, links):
                report.add("ledger", f"{rel}: {exc}")

    def _read_trail(self, report: CheckReport, links: set[str]) -> _Trail:
        receipts: dict[str, tuple[str, dict[str, Any]]] = {}
        filed: dict[str, list[str]] = {}
        try:
            lines = list(self.store.iter_receipts())
        except BadInput as exc:
            lines = []
            if not _under_link("receipts/", links):
                report.add("receipt", f"receipts/: {exc}")
        for name in self._torn_receipt_files():
            report.add(
                "receipt",
                f"{name}: the last line is not terminated (a torn append; the receipt on it is not read until a "
                "person mends or removes it)",
            )
        places: dict[str, list[str]] = {}  # sha → every file:line that holds it
        for f, n, data, _ in lines:
            report.receipts += 1
            if data is None:
                report.add("receipt", f"{f}:{n}: not valid JSON")
            elif not verify_receipt(data):
                report.add("receipt", f"{f}:{n}: receipt_sha256 does not match its content")
            else:
                sha = data["receipt_sha256"]
                if sha not in receipts:
                    filed.setdefault(f, []).append(sha)
                receipts[sha] = (f"{f}:{n}", data)
                places.setdefault(sha, []).append(f"{f}:{n}")
        for sha, held in places.items():
            if len(held) > 1:
                report.add("receipt_repeated", _repeated_line(sha, held))
        order: list[str] = []
        logged: set[str] = set()
        log_rows: list[tuple[int, str]] = []
        if (self.store.root / "log.md").exists():
            for n, line in self._ledger_lines("log.md", report, links):
                row = parse_log_row(line) if line.startswith("|") else None
                if row is None:
                    continue
                sha = row[4]
                if sha in receipts and sha not in logged:
                    log_rows.append((n, sha))
                logged.add(sha)
                if sha in receipts:
                    order.append(sha)
                else:
                    report.add("log_orphan", f"log.md:{n}: receipt {sha[:12]}… is not in receipts/")
        order += [sha for sha in receipts if sha not in logged]
        patterned: set[str] = set()
        pattern_order: list[str] = []
        if (self.store.root / "patterns" / "PATTERNS.jsonl").exists():
            for n, line in self._ledger_lines("patterns/PATTERNS.jsonl", report, links):
                try:
                    event = json.loads(line)
                except ValueError:
                    report.add("pattern_line", f"patterns/PATTERNS.jsonl:{n}: not valid JSON")
                    continue
                payload = event.get("payload") if isinstance(event, dict) else None
                if isinstance(payload, dict) and isinstance(payload.get("receipt_sha256"), str):
                    if payload["receipt_sha256"] not in patterned:
                        pattern_order.append(payload["receipt_sha256"])
                    patterned.add(payload["receipt_sha256"])
        for sha, (where, _) in receipts.items():
            if sha not in logged:
                report.add(
                    "log_row_missing", f"{where}: receipt {sha[:12]}… has no row in log.md (check --repair adds it)"
                )
            if sha not in patterned:
                report.add(
                    "pattern_missing",
                    f"{where}: receipt {sha[:12]}… has no event in patterns/PATTERNS.jsonl (check --repair adds it)",
                )
        return _Trail(receipts, order, logged, patterned, log_rows, pattern_order, filed)

    def _check_log_order(self, report: CheckReport, trail: _Trail) -> None:
        """log.md is the commit order (undo and the reinforcement check replay it), appended in the same commit as
        the receipt's line in receipts/<date>.jsonl and its PATTERNS.jsonl event, so a row moved by hand shows as a
        disagreement with them. Receipt times cannot tell: they are whatever `now` said, and may go backwards.

        The receipts, the source of truth, order the rows of each day's receipts; PATTERNS.jsonl orders rows of
        different days (receipts/ cannot), and is believed only while it agrees with every receipts file. Left out:
        rows and events repair appended (at the end, so out of order by design: `log_rows_added`,
        `patterns_added`), and a receipt's rows or events after its first (identical receipts, such as two compiles
        at one `now` in a wiki written before each receipt had its own hash, have one row each; such a pair is
        reported on its own). One line, for the first row out of place; repair leaves it to a person."""
        repaired_rows: set[str] = set()
        repaired_events: set[str] = set()
        for _, data in trail.receipts.values():
            d = data.get("details")
            if data.get("action") == "repair" and isinstance(d, dict):
                repaired_rows.update(s for s in d.get("log_rows_added") or [] if isinstance(s, str))
                repaired_events.update(s for s in d.get("patterns_added") or [] if isinstance(s, str))
        rows = [(n, sha) for n, sha in trail.log_rows if sha not in repaired_rows]
        log_seq = [sha for _, sha in rows]
        first = _disorder_by_file(log_seq, trail.filed)  # (index in rows, the sha that belongs there, the witness)
        if first is None:
            events = [sha for sha in trail.pattern_order if sha not in repaired_events]
            if _disorder_by_file(events, trail.filed) is None:
                found = _first_disagreement(log_seq, events)
                if found is not None:
                    first = (*found, "patterns/PATTERNS.jsonl")
        if first is None:
            return
        i, want, witness = first
        n, sha = rows[i]
        m = next(k for k, s in rows if s == want)
        report.add(
            "log_order",
            f"log.md:{n}: rows out of order (moved by hand?): the row of receipt {sha[:12]}… stands before that of "
            f"{want[:12]}… (line {m}), which {witness} recorded first; undo and check read log.md as the commit "
            "order: put its rows back in the order they were written (snapshots/ keeps copies)",
        )

    def _check_pages(self, report: CheckReport, trail: _Trail, links: set[str]) -> None:
        for bad in self.store.index.bad_pages():
            if not _under_link(bad.path, links):  # already reported as a symlink
                report.add("page", f"{bad.path}: {bad.error}")
        report.pages = int(self.store.index.scalar("SELECT count(*) FROM records") or 0)
        named: set[str] = set()
        page_ids: dict[str, str] = {}  # page -> the record id the last receipt that names both gave it
        for sha in trail.order:
            data = trail.receipts[sha][1]
            if data.get("action") not in ("repair", "recover"):  # those quote problems, they do not name records
                details = data.get("details")
                named.update(_MEMORY_ID.findall(json.dumps(details)))
                if isinstance(details, dict) and isinstance(details.get("page"), str):
                    if isinstance(details.get("memory_id"), str):
                        page_ids[details["page"]] = details["memory_id"]
        expected = expected_reinforcement(trail.receipts[sha][1] for sha in trail.order)
        for row in self.store.index.query("SELECT memory_id, path, reinforcement FROM records ORDER BY path"):
            if row["memory_id"] not in named:
                was = page_ids.get(row["path"])
                report.add(
                    "unnamed_page",
                    f"{row['path']}: no receipt names {row['memory_id']} "
                    + (
                        f"(its receipts made it {was}: its memory_id was changed by hand, and what names {was} "
                        "no longer finds it)"
                        if was and was != row["memory_id"]
                        else "(a page written outside the engine?)"
                    ),
                )
            want = expected.get(row["memory_id"])
            if want is not None and want != row["reinforcement"]:
                report.add(
                    "reinforcement",
                    f"{row['path']}: reinforcement {row['reinforcement']}, but its receipts make it {want}",
                )

    def _check_ledgers(self, report: CheckReport) -> None:
        stated = self.store.root / "stated"
        if stated.is_symlink() or not stated.is_dir():
            return  # a symlinked stated/ is reported with every other symlink
        for f in sorted(stated.glob("*.jsonl")):
            if f.is_symlink() or not f.is_file() or f.name not in STATED_LEDGERS:
                continue  # (a copy of a ledger is named as such: `_check_stray_copies`)
            try:
                text = f.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                report.add("ledger", f"{self.store.rel(f)}: unreadable ({exc})")
                continue
            for n, line in enumerate(text.splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except ValueError:
                    data = None
                if not isinstance(data, dict) or not isinstance(data.get("action", "both_valid"), str):
                    report.add("ledger", f"{self.store.rel(f)}:{n}: not a JSON object (the line is ignored)")
            if text and not text.endswith("\n"):
                report.add("ledger", f"{self.store.rel(f)}: the last line is not terminated (a torn append)")

    def _torn_receipt_files(self) -> list[str]:
        """receipts/*.jsonl files whose last line has no line end: the reader leaves such a line for a writer still
        appending it, so a torn one was never reported until another receipt was appended after it."""
        out = []
        try:
            names = receipt_files(self.store.root)
        except BadInput:
            return []  # a symlinked receipts/ is reported with every other symlink
        for name in names:
            try:
                with open_read(self.store.root / "receipts" / name) as fh:
                    size = os.fstat(fh.fileno()).st_size
                    if size:
                        fh.seek(size - 1)
                        if fh.read(1) != b"\n":
                            out.append(f"receipts/{name}")
            except (OSError, BadInput):
                continue
        return out

    def _check_trail_against_files(self, report: CheckReport, trail: _Trail) -> None:
        """What the receipts prove was written and is no longer there: a verification decision's ledger line
        (`verification.ledger_gaps`), and the record of a conflict a capture or a resolution opened (it alone
        holds the held statement). Only a person can say what became of them: reported, never made up."""
        receipts = [trail.receipts[sha][1] for sha in trail.order]
        for gap in ledger_gaps(self.store.root, receipts):
            report.add("ledger_gap", gap)
        try:
            drifts = ledger_drift(self.store)
        except (BadInput, OSError):
            drifts = []  # a ledger that cannot be read safely is reported as such
        for drift in drifts:
            for line in _drift_lines(drift):
                report.add("ledger_drift", line)
        decided = [d for d in receipts if d.get("action") == "resolve_conflict" and d.get("status") == "resolved"]
        if decided and not os.path.lexists(self.store.root / "DECISIONS.md"):
            report.add(
                "decisions_gone",
                f"DECISIONS.md: gone, though {len(decided)} decision(s) were recorded there (the first by receipt "
                f"{str(decided[0].get('receipt_sha256'))[:12]}…); it is the arbitration history, never regenerated: "
                "restore it from snapshots/ or your backups",
            )
        present = set(self.conflicts.conflict_files())
        seen: set[str] = set()
        for data in receipts:
            details = data.get("details") or {}
            opened: dict[str, Any] = details["opened"] if isinstance(details.get("opened"), dict) else {}
            cids = []
            if data.get("action") == "capture" and data.get("status") == "conflict":
                cids.append(details.get("conflict_id"))
            cids.append(opened.get("conflict_id"))
            for cid in cids:
                if isinstance(cid, str) and re.fullmatch(r"C\d+", cid) and cid not in seen:
                    seen.add(cid)
                    sha = str(data.get("receipt_sha256"))[:12]
                    if f"{cid}.md" not in present:
                        report.add(
                            "conflict_gone",
                            f"conflicts/{cid}.md: opened by receipt {sha}… and no longer there (deleted outside "
                            "memkeeper?); its held statement is only in that file: restore it from snapshots/ or your "
                            "backups",
                        )
                    elif (detected := self._detected_at(cid)) is not None and detected != data.get("at"):
                        # The file was removed and its id given to the next conflict opened (the highest + 1): the
                        # first one's held statement is gone all the same.
                        report.add(
                            "conflict_gone",
                            f"conflicts/{cid}.md: holds a conflict detected at {detected}, not the one receipt {sha}… "
                            f"opened at {data.get('at')} (its record was removed and the id given again?); that "
                            "one's held statement was only in its record: restore it from snapshots/ or your backups",
                        )

    # ---------------------------------------------------------------------------------------------- repair

    def repair(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        """Fix what check finds in the derived files and the audit trail, holding the write lock: complete or discard
        interrupted writes, append missing log rows and PATTERNS events (made from the receipts), remove leftover
        temp files, rebuild a corrupt or stale index, regenerate every generated view. Never touches an entry page,
        a receipt or a ledger line, and never reorders log.md.

        Receipt details: what was done (completed, log_rows_added, patterns_added, tmp_removed, index_synced: the
        pages read again because they changed since this process read them, index_rebuilt, views_regenerated: the
        generated views that were missing) and the problems left for a person (remaining)."""
        now = at(now)
        actor = validate_actor(actor)
        first = len(self.store.recoveries)
        with self.store.writing():  # taking the lock completes an interrupted intent and discards staged files
            recovered = self.store.recoveries[first:]
            tmp_removed = self.store.remove_tmp_files()
            # Pages changed since this process last read them (edited in place, deleted by hand) are read first, a
            # stat each, as check does: the rows that still differ after that are what a rebuild is for. Verified
            # first, a page edited in place by another process rebuilt the whole index (15 s at 100k pages).
            synced = {k: v for k, v in self.store.sync().items() if v and k != "busy"}
            unreadable: list[tuple[str, str]] = []
            index_problems = self.store.index.verify(unreadable)
            rebuilt = None
            if index_problems:
                rebuilt = index_problems[0]
                self.store.index.rebuild(f"check --repair: {rebuilt}")
                self.store.drop_tallies()
            # The index's copies of the quiz ledgers are read again at the next count: nothing in a copy is checked
            # against its file, so a repair does not vouch for one.
            self.store.index.forget_quiz_ledgers()
            # What the recovery above and the views refreshed below regenerate, read after the index is current
            # (index/<category>.md is expected for the categories that have records).
            views = self.missing_views(listed=False)
            report = CheckReport()
            trail = self._read_trail(report, set())
            self._check_log_order(report, trail)
            missing_log = [sha for sha in trail.order if sha not in trail.logged]
            missing_pat = [sha for sha in trail.order if sha not in trail.patterned]
            if missing_log:
                self.store.append_file(
                    self.store.root / "log.md",
                    [log_row(Receipt.model_validate(trail.receipts[sha][1])) for sha in missing_log],
                    create=LOG_HEADER,
                )
            if missing_pat:
                self.store.append_file(
                    self.store.root / "patterns" / "PATTERNS.jsonl",
                    [
                        pattern_event(
                            Receipt.model_validate(trail.receipts[sha][1]), self._grade_of(trail.receipts[sha][1])
                        )
                        for sha in missing_pat
                    ],
                )
            self._check_pages(report, trail, set())
            _report_unreadable(report, unreadable)
            self._check_ledgers(report)
            self._check_conflicts(report)
            gone = self.gone_records(trail, self._check_unread(report))
            # A page deleted by hand is never made up. A person's repair records the deletion (it was theirs to
            # decide); an agent's leaves it reported for a person.
            human = actor.startswith("human:")
            if not human:
                for mid, page in gone:
                    report.add("page_gone", _gone_line(mid, page))
            for problem in self.quiz.quiz_problems():
                report.add("quiz", problem)
            jdir = self.store.root / journal.JOURNAL_DIR
            for p in sorted(jdir.glob("unreadable-intent-*.json")) if jdir.is_dir() else []:
                report.add("set_aside", f"{self.store.rel(p)}: an intent that could not be read was set aside")
            remaining = report.unrepairable
            details: dict[str, Any] = {
                "completed": [r["completed"] for r in recovered if r.get("completed")],
                "skipped": [s for r in recovered for s in r.get("skipped", [])],
                "discarded": [d for r in recovered for d in r.get("discarded", [])],
                "log_rows_added": missing_log,
                "patterns_added": missing_pat,
                "tmp_removed": tmp_removed,
                "index_synced": synced or None,
                "index_rebuilt": rebuilt,
                "views_regenerated": views,
                **({"pages_gone": [{"memory_id": m, "page": p} for m, p in gone]} if human and gone else {}),
                "remaining": remaining[:50],
                "remaining_count": len(remaining),
            }
            did = any(
                details[k]
                for k in (
                    "completed",
                    "discarded",
                    "log_rows_added",
                    "patterns_added",
                    "tmp_removed",
                    "index_synced",
                    "index_rebuilt",
                    "views_regenerated",
                    "pages_gone",
                )
                if k in details
            )
            details["count"] = (
                len(details["completed"])
                + len(details["discarded"])
                + len(missing_log)
                + len(missing_pat)
                + len(tmp_removed)
                + (1 if rebuilt else 0)
                + len(views)
                + len(details.get("pages_gone", []))
            )
            receipt = make_receipt("repair", "repaired" if did else "ok", now, actor, details)
            self.store.record(receipt)
            self.views.refresh(now, full=True)
            return receipt

    def _grade_of(self, receipt: dict[str, Any]) -> str:
        """The evidence grade record() gives a receipt's PATTERNS event: high for a person's decisions, the record's
        grade for a capture, medium otherwise."""
        if receipt.get("action") in HUMAN_DECISIONS:
            return "high"
        mid = (receipt.get("details") or {}).get("memory_id")
        if receipt.get("action") == "capture" and receipt.get("status") in ("captured", "consolidated") and mid:
            grade = self.store.index.scalar("SELECT evidence_grade FROM records WHERE memory_id=?", (mid,))
            if grade:
                return grade
        return "medium"


def _unread_reason(folder: str, name: str, nested: bool) -> str | None:
    """What `check` says of a Markdown file memkeeper does not read, and what to do about it; None when memkeeper
    reads it (or reports its problems elsewhere), or when it is no file memkeeper would read."""
    if folder == "entries":
        if nested:
            return (
                "not read: memkeeper reads only pages directly in entries/ (entries/<name>.md); move it up into "
                "entries/ to make it a memory, or out of entries/"
            )
        if name.endswith(".md"):
            return None
        return (
            "not read: memkeeper reads only page names ending in .md (lower case); rename it to make it a memory, "
            "or move it out of entries/"
        )
    if folder == "conflicts":
        if nested:
            return "not read: conflict records are conflicts/C<N>.md, never in a subfolder; move it out of conflicts/"
        if _CONFLICT_FILE.fullmatch(name):
            return None
        return "not read: conflict records are named conflicts/C<N>.md; move it out of conflicts/"
    if folder == "quiz":
        if not name.lower().startswith("quiz-ledger"):
            return None  # a dated notebook (written, never read), or the person's own file
        ledger = _LEDGER_FILE.fullmatch(name)
        if not nested and ledger and person_id(ledger[1]) == ledger[1]:
            return None
        return (
            "not read: a quiz ledger is quiz/quiz-ledger.<person>.md (the person in lower case, directly in quiz/); "
            "its answers and schedule are not used until it is renamed or moved there"
        )
    if not name.lower().startswith("tier-review"):
        return None
    if not nested and name.startswith("tier-review-") and name.endswith(".md"):
        return None
    return (
        "not listed as pending: a tier review waits as review/tier-review-<date>.md, directly in review/; rename or "
        "move it there (or apply it with memkeeper tiers apply)"
    )


def _listed_categories(index_md: Path) -> set[str] | None:
    """The categories index.md links to (`- [fact](index/fact.md) — 3` lines of its "## Categories" section: a
    title quoted under "## Archived Memories" is not read as a link); None when it cannot be read."""
    try:
        text = read_text(index_md, limit=MAX_LEDGER_BYTES, what="a generated view")
    except (OSError, ValueError, BadInput):
        return None
    section = text.split("\n## Categories\n", 1)[-1].split("\n## ", 1)[0]
    return {m[1] for m in _CATEGORY_LINK.finditer(section) if m[1] == m[2]}


def _first_disagreement(seq: list[str], witness: list[str]) -> tuple[int, str] | None:
    """Where `seq` first disagrees with `witness` on the order of what both hold (each holds an item once): the
    index in `seq` and the item the witness puts there; None when they agree."""
    common = set(seq).intersection(witness)
    ours = [(i, s) for i, s in enumerate(seq) if s in common]
    theirs = [s for s in witness if s in common]
    for (i, s), w in zip(ours, theirs, strict=True):
        if s != w:
            return i, w
    return None


def _disorder_by_file(seq: list[str], filed: dict[str, list[str]]) -> tuple[int, str, str] | None:
    """The first place (index in `seq`, the receipt that belongs there, its receipts file) where `seq` disagrees with
    the order of a receipts file about that file's receipts; None when it agrees with every file. Each receipt is
    compared within its own file only, so the cost is one pass over `seq` and the files."""
    file_of = {sha: name for name, shas in filed.items() for sha in shas}
    positions: dict[str, list[int]] = {}
    for i, sha in enumerate(seq):
        if sha in file_of:
            positions.setdefault(file_of[sha], []).append(i)
    first: tuple[int, str, str] | None = None
    for name, idx in positions.items():
        found = _first_disagreement([seq[i] for i in idx], filed[name])
        if found is not None and (first is None or idx[found[0]] < first[0]):
            first = (idx[found[0]], found[1], name)
    return first


def _plain_files(folder: Path) -> list[str]:
    """The regular files directly in `folder` whose names do not start with a dot; [] when it is missing or a
    symlink (reported as one)."""
    try:
        return [n for n in list_files(folder) if not n.startswith(".")]
    except (BadInput, OSError):
        return []


def _named_as_copy(name: str, original: str) -> bool:
    """Whether `name` is `original` as a sync tool names its copy: the stem, then a space, a dot, a hyphen, an
    underscore or a parenthesis and more, and the same extension (any case)."""
    stem, _, ext = original.rpartition(".")
    return (
        len(name) > len(original)
        and name.startswith(stem)
        and name[len(stem)] in " ._(-"
        and name.lower().endswith("." + ext.lower())
    )


def _starts_with(path: Path, line: str) -> bool:
    """Whether the file's first line is `line` (read without following a link, at most a few bytes)."""
    try:
        with open_read(path) as fh:
            head = fh.read(len(line.encode("utf-8")) + 2)
    except (OSError, BadInput):
        return False
    return head.decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0].rstrip("\r") == line


def _stray_line(rel: str, original: str | None, folder: str = "receipts") -> str:
    """What `check` says of a copy of a ledger that memkeeper never reads (`_check_stray_copies`)."""
    if original is None:
        where = "receipts/<date>.jsonl" if folder == "receipts" else f"its ledgers ({folder}/)"
        return (
            f"{rel}: not a file memkeeper reads (the audit trail is {where}); a copy of one (a sync tool's "
            "conflicted copy?): merge what only it holds into the file it copies, then delete it"
        )
    return (
        f"{rel}: a copy of {original} (a sync tool's conflicted copy?) that memkeeper never reads: what only it holds "
        f"is not in the audit trail; merge that into {original}, then delete the copy"
    )


def _holds_page(path: Path) -> bool:
    """Whether something that may hold a record's page is at `path`: a file, or a symlink (reported as such). A
    directory put where the page was holds none: taken for the page, the record vanished without a word once the
    index was rebuilt (`check --repair`, `.memkeeper/` deleted), where a deleted page stays reported."""
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def _drift_lines(drift: Drift) -> list[str]:
    """What `check` says of a record whose page disagrees with the verification ledgers (`ledger_drift`): both
    states, and the fix. The ledgers are the record of verification (SPEC §5.2); `verify rebuild` puts their state
    on the pages, and is refused while a ledger misses a line its receipts record (`ledger_gap`)."""
    e = drift.entry
    mid = e.memory_id
    why = "the page put back from an older copy (git checkout, git stash, a backup) or edited by hand?"
    out = []
    if drift.denial_differs and drift.denial is not None:
        d = drift.denial
        out.append(
            f"{drift.page}: active on its page, but {DENIALS} denies {mid} (by {d.get('by')} at {d.get('at')}): {why} "
            f"Retrieval leaves it out meanwhile; memkeeper verify rebuild denies it again (or memkeeper verify undeny "
            f"{mid} lifts the denial)"
        )
    elif drift.denial_differs:
        out.append(
            f"{drift.page}: denied on its page, but {DENIALS} does not deny {mid}: {why} memkeeper verify rebuild "
            "makes it active again, as the ledger says (to keep it denied, deny it once it is active)"
        )
    if drift.stamp_differs:
        has = f"confirmed by {e.verified.by} at {iso(e.verified.at)}" if e.verified else "not confirmed"
        want = drift.stamp
        says = f"confirms {mid} (by {want['by']} at {want['at']})" if want else f"holds no confirmation of {mid}"
        fix = "puts the ledger's stamp back" if want else "removes the stamp, as the ledger says"
        out.append(f"{drift.page}: {has} on its page, but {CONFIRMATIONS} {says}: {why} memkeeper verify rebuild {fix}")
    return out


def _gone_line(memory_id: str, page: str | None) -> str:
    """What `check` says of a record whose page was deleted by hand."""
    where = f"{page}: the page of {memory_id}" if page else f"{memory_id}: its page"
    return (
        f"{where} is gone (deleted outside memkeeper?) and its memory with it; restore the page (snapshots/ keeps "
        "copies), or, if it was deleted on purpose, memkeeper check --repair --as human:<you> records that"
    )


def _report_unreadable(report: CheckReport, unreadable: list[tuple[str, str]]) -> None:
    """Pages whose bytes cannot be read (permission denied, an I/O error): each record is served as last read, and
    every decision about it refuses until the page can be read again."""
    for page, why in unreadable:
        report.add(
            "page",
            f"{page}: unreadable ({why}); its record is served as last read, and nothing can change it until the "
            "page can be read (check its permissions)",
        )


def _repeated_line(sha: str, where: list[str]) -> str:
    """The problem of one receipt hash on several lines of receipts/: operations alike in one second, recorded
    before each receipt was given a hash of its own (`Store._own_hash`), or a line copied by hand."""
    return (
        f"receipt {sha[:12]}… is on {len(where)} lines ({', '.join(where)}): operations alike in one second, "
        "recorded before each had its own hash (or a line copied); undo takes them for one and cannot reverse the "
        "later: to reverse it, make the opposite decision (an undeny for a deny); the trail is append-only, and "
        "repair leaves it"
    )


def _under_link(rel: str, links: set[str]) -> bool:
    """Whether `rel` is one of the symlinks `check` found, or lies under one."""
    parts = rel.rstrip("/").split("/")
    return any("/".join(parts[:i]) in links for i in range(1, len(parts) + 1))


def expected_reinforcement(receipts: Iterable[dict[str, Any]]) -> dict[str, int | None]:
    """A record's reinforcement as its receipts tell it, replayed in commit order: 1 when captured (or created by a
    resolution), the value a consolidating capture states, and for `consolidate` merges the target's value the
    receipt states in `reinforcement_after` (or, in receipts that do not state it, target + source when both are
    known). None when the
    receipts cannot tell (a merge of a record they do not know)."""
    out: dict[str, int | None] = {}
    for r in receipts:
        action, status, d = r.get("action"), r.get("status"), r.get("details") or {}
        if action == "capture" and status == "captured" and d.get("memory_id"):
            out[d["memory_id"]] = 1
        elif action == "capture" and status == "consolidated" and d.get("memory_id"):
            out[d["memory_id"]] = d["reinforcement"] if isinstance(d.get("reinforcement"), int) else None
        elif action == "resolve_conflict" and d.get("created"):
            out[d["created"]] = 1
        elif action == "consolidate" and status == "ok":
            stated: dict[str, Any] = d["reinforcement_after"] if isinstance(d.get("reinforcement_after"), dict) else {}
            for m in d.get("merges") or []:
                src, tgt = m.get("source"), m.get("target")
                before, merged = out.get(tgt), out.get(src)
                if before is not None and merged is not None:
                    out[tgt] = before + merged
                else:
                    out[tgt] = None
            for tgt, value in stated.items():
                out[tgt] = value if isinstance(value, int) else None
        elif action == "undo" and status == "undone" and d.get("action") == "consolidate":
            restored: dict[str, Any] = (
                d["reinforcement_restored"] if isinstance(d.get("reinforcement_restored"), dict) else {}
            )
            for tgt, value in restored.items():
                out[tgt] = value if isinstance(value, int) else None
    return out

"""`Engine`: the one API every writer uses — the CLI, the TUI, agents. Composes the base engine and the queues."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .conflicts import ConflictQueue
from .engine import BadInput, BaseEngine, validate_actor
from .index import BadPage
from .models import Receipt, utc
from .pages import MAX_LEDGER_BYTES, iter_lines, read_text
from .paths import symlinks_under
from .quiz_queue import QuizQueue
from .receipts import make_receipt, parse_log_row, verify_receipt
from .tier_queue import TierQueue
from .verification import VerificationQueue

UNDOABLE = {
    "resolve_conflict": "_undo_conflict",
    "snooze_conflict": "_undo_conflict",
    "confirm": "_undo_verification",
    "deny": "_undo_verification",
    "undeny": "_undo_verification",
    "quiz_record": "_undo_quiz",
    "tiers_apply": "_undo_tiers",
    "tiers_commit": "_undo_tiers",
    "tier_restore": "_undo_tiers",
}


@dataclass
class CheckReport:
    problems: list[str] = field(default_factory=list)
    receipts: int = 0
    pages: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


class Engine(ConflictQueue, VerificationQueue, QuizQueue, TierQueue, BaseEngine):
    """The engine with its curation queues. `Engine.open(root)` / `Engine.init(root, now=...)`."""

    # ---------------------------------------------------------------------------------------------- hot.md / header

    def queue_counts_for_hot(self, now: datetime) -> dict[str, Any]:
        open_c = self.conflicts(now=now)
        return {
            "open_conflicts": len(open_c),
            "newest_conflicts": [(c.conflict_id, c.title) for c in open_c[:3]],
            "pending_verifications": self.pending_count(),
            "quiz_due": self.quiz_due_total(now),
            "tier_review_pending": self.pending_reviews(),
        }

    def counts(self, now: datetime, *, person: str | None = None, session: str | None = None,
               with_tiers: bool = True) -> dict[str, int]:
        """Header counts: open conflicts, pending verifications, quiz due, tier candidates, active records."""
        now = utc(now)
        out = {
            "open_conflicts": len(self.conflicts(now=now, session=session)),
            "pending_verifications": self.pending_count(),
            "quiz_due": self.quiz_due_count(person or "me", now) if person else self.quiz_due_total(now),
            "records": int(self.index.scalar("SELECT count(*) FROM records WHERE status='active'") or 0),
        }
        if with_tiers:
            plan = self.plan_tiers(now=now)
            out["tier_candidates"] = len(plan.automatic) + len(plan.ambiguous)
        return out

    # ---------------------------------------------------------------------------------------------- reading (the desk)

    def read_view(self, rel: str) -> str:
        """The text of a wiki file (hot.md, index pages, entries, ledgers), confined to the root. BadInput when the
        path escapes or the file cannot be read."""
        path = self.path(rel)
        try:
            return read_text(path, limit=MAX_LEDGER_BYTES, what="a file shown in the desk")
        except FileNotFoundError:
            raise BadInput(f"{rel} does not exist") from None
        except OSError as exc:
            raise BadInput(f"{rel}: {getattr(exc, 'strerror', None) or exc}") from None

    def category_counts(self) -> list[tuple[str, int, int]]:
        """(category, active, total) for every category that has records, by name."""
        rows = self.index.query(
            "SELECT category, sum(status='active') AS active, count(*) AS total FROM records "
            "GROUP BY category ORDER BY category"
        )
        return [(r["category"], int(r["active"] or 0), int(r["total"])) for r in rows]

    def category_entries(self, category: str, *, offset: int = 0, limit: int = 200) -> tuple[int, list[dict[str, str]]]:
        """(total, a page of {memory_id, title, status, tier}) for a category: active first, then by title."""
        total = int(self.index.scalar("SELECT count(*) FROM records WHERE category=?", (category,)) or 0)
        rows = self.index.query(
            "SELECT memory_id, title, status, tier FROM records WHERE category=? "
            "ORDER BY status<>'active', title COLLATE NOCASE, memory_id LIMIT ? OFFSET ?",
            (category, limit, offset),
        )
        return total, [dict(r) for r in rows]

    def memory_id_at(self, page: str) -> str | None:
        """The memory id of an entry page path, if it is indexed."""
        return self.index.scalar("SELECT memory_id FROM records WHERE path=?", (page,))

    def bad_pages(self) -> list[BadPage]:
        """Pages skipped because they could not be read as records (file and one-line reason)."""
        return self.index.bad_pages()

    def category_of(self, memory_id: str) -> str | None:
        return self.index.scalar("SELECT category FROM records WHERE memory_id=?", (memory_id,))

    # ---------------------------------------------------------------------------------------------- undo

    def find_receipt(self, sha: str) -> dict[str, Any] | None:
        sha = sha.strip().lower()
        for _, _, data, _ in self.iter_receipts():
            if data and data.get("receipt_sha256") == sha:
                return data
        return None

    def undone_by(self, sha: str) -> str | None:
        for _, _, data, _ in self.iter_receipts():
            if data and data.get("action") == "undo" and data.get("details", {}).get("reverses") == sha:
                return data.get("receipt_sha256")
        return None

    def undo(self, receipt_sha256: str, *, now: datetime, actor: str) -> Receipt:
        """Reverse a curation decision with a new receipt naming the one it reverses. Undoing twice is refused.

        Receipt details: reverses, action (of the reversed receipt), plus what was restored.
        """
        now = utc(now)
        actor = validate_actor(actor)
        with self.writing():
            original = self.find_receipt(receipt_sha256)
            if original is None:
                return make_receipt("undo", "reject", now, actor, {"reason": "unknown_receipt", "reverses": receipt_sha256})
            if not verify_receipt(original):
                return make_receipt("undo", "reject", now, actor, {"reason": "receipt_hash_mismatch", "reverses": receipt_sha256})
            handler = UNDOABLE.get(original.get("action", ""))
            if handler is None or original.get("status") in ("reject", "refused") or "undo" not in original.get("details", {}) and original["action"] != "undeny":
                return make_receipt("undo", "reject", now, actor,
                                    {"reason": "not_undoable", "reverses": original["receipt_sha256"], "action": original.get("action")})
            if original["action"] in ("resolve_conflict", "snooze_conflict", "confirm", "deny", "undeny") and not actor.startswith("human:"):
                return make_receipt("undo", "refused", now, actor, {"reason": "human_actor_required", "reverses": original["receipt_sha256"]})
            prior_undo = self.undone_by(original["receipt_sha256"])
            if prior_undo:
                return make_receipt("undo", "reject", now, actor,
                                    {"reason": "already_undone", "reverses": original["receipt_sha256"], "undone_by": prior_undo})
            extra = getattr(self, handler)(original, now, actor)
            receipt = make_receipt("undo", "undone", now, actor,
                                   {"reverses": original["receipt_sha256"], "action": original["action"], **extra})
            self.record(receipt, "high")
            self.refresh_views(now)
            return receipt

    # ---------------------------------------------------------------------------------------------- check

    def check(self) -> CheckReport:
        """Recompute every receipt hash, cross-check log.md ↔ receipts, validate every page, ledger and conflict."""
        report = CheckReport()
        # Every symlink under the root is a problem, wherever it points: the engine never follows one.
        links: set[str] = set()
        for rel, target in symlinks_under(self.root):
            links.add(rel)
            report.problems.append(f"{rel}: symlink to {target}; memkeeper never follows symlinks (remove it)")
        self.sync()
        hashes: dict[str, str] = {}
        try:
            receipts = list(self.iter_receipts())
        except BadInput as exc:
            receipts = []
            if not _under_link("receipts/", links):
                report.problems.append(f"receipts/: {exc}")
        for f, n, data, _ in receipts:
            report.receipts += 1
            if data is None:
                report.problems.append(f"{f}:{n}: not valid JSON")
            elif not verify_receipt(data):
                report.problems.append(f"{f}:{n}: receipt_sha256 does not match its content")
            else:
                hashes[data["receipt_sha256"]] = f"{f}:{n}"
        logged: set[str] = set()
        for n, line in self._ledger_lines("log.md", report, links):
            row = parse_log_row(line) if line.startswith("|") else None
            if row is None:
                continue
            sha = row[4]
            logged.add(sha)
            if sha not in hashes:
                report.problems.append(f"log.md:{n}: receipt {sha[:12]}… is not in receipts/")
        for sha, where in hashes.items():
            if sha not in logged:
                report.problems.append(f"{where}: receipt {sha[:12]}… has no row in log.md")
        for n, line in self._ledger_lines("patterns/PATTERNS.jsonl", report, links):
            try:
                json.loads(line)
            except ValueError:
                report.problems.append(f"patterns/PATTERNS.jsonl:{n}: not valid JSON")
        for bad in self.index.bad_pages():
            if not _under_link(bad.path, links):  # already reported as a symlink above
                report.problems.append(f"{bad.path}: {bad.error}")
        report.pages = int(self.index.scalar("SELECT count(*) FROM records") or 0)
        for name in self.conflict_files():
            try:
                self.load_conflict(name[:-3])
            except BadInput as exc:
                report.problems.append(str(exc))
        report.problems.extend(self.quiz_problems())
        return report

    def _ledger_lines(self, rel: str, report: CheckReport, links: set[str]):
        """(line number, text) of an append-only ledger for check; a ledger that cannot be read safely (a symlink,
        not a regular file) or a line that is too long or not UTF-8 is reported, never fatal."""
        try:
            for n, line in iter_lines(self.root / rel):
                if line is None:
                    report.problems.append(f"{rel}:{n}: line too long or not UTF-8")
                    continue
                yield n, line
        except BadInput as exc:
            if not _under_link(rel, links):
                report.problems.append(f"{rel}: {exc}")


def _under_link(rel: str, links: set[str]) -> bool:
    """Whether `rel` is one of the symlinks `check` found, or lies under one."""
    parts = rel.rstrip("/").split("/")
    return any("/".join(parts[:i]) in links for i in range(1, len(parts) + 1))

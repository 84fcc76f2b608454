"""`Engine`: the one API every writer uses — the CLI, the TUI, agents. Composes the store (`engine.BaseEngine`), the
operations (capture, retrieve, maintenance, exchange) and the queues."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from .capture import CaptureOps
from .conflicts import ConflictQueue
from .engine import BadInput, BaseEngine, validate_actor
from .exchange import ExchangeOps
from .index import BadPage
from .integrity import CheckReport, Integrity
from .maintenance import MaintenanceOps
from .models import Receipt, utc
from .pages import MAX_LEDGER_BYTES, read_text
from .quiz_queue import QuizQueue
from .receipts import make_receipt, verify_receipt
from .retrieve import RetrieveOps
from .tier_queue import TierQueue
from .verification import VerificationQueue

__all__ = ["CheckReport", "Engine", "UNDOABLE"]

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
# Decisions only a person may take, and so only a person may undo (SPEC §7).
HUMAN_ONLY = frozenset({"resolve_conflict", "snooze_conflict", "confirm", "deny", "undeny", "tiers_commit",
                        "tiers_apply"})


class Engine(ConflictQueue, VerificationQueue, QuizQueue, TierQueue, Integrity, CaptureOps, RetrieveOps, MaintenanceOps,
             ExchangeOps, BaseEngine):
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
        """The receipt with this sha256, or with this unique prefix of at least 8 hex characters (the desk shows
        12). BadInput when a prefix is too short, not hex, or names more than one receipt."""
        sha = sha.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{8,64}", sha):
            raise BadInput(f"receipt {sha!r}: give the full sha256 or a unique prefix of at least 8 hex characters")
        found: dict[str, dict[str, Any]] = {}
        for _, _, data, _ in self.iter_receipts():
            if data and isinstance(data.get("receipt_sha256"), str) and data["receipt_sha256"].startswith(sha):
                found[data["receipt_sha256"]] = data
        if len(found) > 1:
            raise BadInput(f"receipt prefix {sha!r} names {len(found)} receipts; give more characters")
        return next(iter(found.values()), None)

    def undone_by(self, sha: str) -> str | None:
        for _, _, data, _ in self.iter_receipts():
            if data and data.get("action") == "undo" and data.get("details", {}).get("reverses") == sha:
                return data.get("receipt_sha256")
        return None

    def commit_order(self) -> dict[str, int]:
        """Receipt sha → its position in log.md, which is appended in commit order (receipt times can be anything
        `--now` said; files under receipts/ are per receipt date)."""
        from .receipts import parse_log_row

        order: dict[str, int] = {}
        log = self.root / "log.md"
        if log.exists():
            for line in log.read_text(encoding="utf-8").splitlines():
                row = parse_log_row(line) if line.startswith("|") else None
                if row is not None:
                    order.setdefault(row[4], len(order))
        return order

    def later_decision(self, original: dict[str, Any]) -> str | None:
        """The receipt of a later curation decision about the same thing (a record, a suppression key, a conflict, a
        quiz item) that is still in effect, if there is one. Undo reverses only the latest decision about a thing:
        undoing an older one would also undo what the later one decided (deny, undeny, deny again, then undo the
        first deny would lift the second denial)."""
        subjects = decision_subjects(original)
        if not subjects:
            return None
        order = self.commit_order()
        here = order.get(original["receipt_sha256"])
        undone = set()
        later = []
        for n, (_, _, data, _) in enumerate(self.iter_receipts()):
            if not data or not verify_receipt(data):
                continue
            if data.get("action") == "undo" and data.get("status") == "undone":
                undone.add((data.get("details") or {}).get("reverses"))
            elif data.get("action") in UNDOABLE and data.get("status") not in ("reject", "refused") and \
                    data["receipt_sha256"] != original["receipt_sha256"]:
                later.append((order.get(data["receipt_sha256"], len(order) + n), data))
        if here is None:
            return None
        for pos, data in sorted(later, key=lambda x: x[0]):
            if pos > here and data["receipt_sha256"] not in undone and decision_subjects(data) & subjects:
                return data["receipt_sha256"]
        return None

    def undo(self, receipt_sha256: str, *, now: datetime, actor: str) -> Receipt:
        """Reverse a curation decision with a new receipt naming the one it reverses. Undoing twice is refused, and so
        is undoing a decision a later one (not itself undone) has superseded: `superseded_by_later_decision`.

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
            if original["action"] in HUMAN_ONLY and not actor.startswith("human:"):
                return make_receipt("undo", "refused", now, actor, {"reason": "human_actor_required", "reverses": original["receipt_sha256"]})
            prior_undo = self.undone_by(original["receipt_sha256"])
            if prior_undo:
                return make_receipt("undo", "reject", now, actor,
                                    {"reason": "already_undone", "reverses": original["receipt_sha256"], "undone_by": prior_undo})
            later = self.later_decision(original)
            if later:
                return make_receipt("undo", "reject", now, actor,
                                    {"reason": "superseded_by_later_decision", "reverses": original["receipt_sha256"],
                                     "superseded_by": later})
            extra = getattr(self, handler)(original, now, actor)
            receipt = make_receipt("undo", "undone", now, actor,
                                   {"reverses": original["receipt_sha256"], "action": original["action"], **extra})
            self.record(receipt, "high")
            self.refresh_views(now)
            return receipt


def decision_subjects(receipt: dict[str, Any]) -> set[str]:
    """What a curation decision changed: records (`mem:`), suppression keys (`key:`), conflicts (`conflict:`), quiz
    items (`quiz:<person>:<page>`)."""
    action = receipt.get("action")
    d = receipt.get("details") or {}
    undo = d.get("undo") if isinstance(d.get("undo"), dict) else {}
    mems: list[Any] = []
    out: set[str] = set()
    if action in ("confirm", "deny", "undeny"):
        mems += [d.get("memory_id"), *(d.get("memory_ids") or []), *(d.get("restored") or []),
                 *(d.get("propagated_to") or []), *((undo.get("prior") or {}).keys())]
        if d.get("suppression_key"):
            out.add(f"key:{d['suppression_key']}")
    elif action in ("resolve_conflict", "snooze_conflict"):
        if d.get("conflict_id"):
            out.add(f"conflict:{d['conflict_id']}")
        mems += [d.get("winner"), d.get("loser"), d.get("created"), (undo.get("existing") or {}).get("memory_id")]
    elif action == "quiz_record":
        out.add(f"quiz:{d.get('person')}:{d.get('page')}")
    elif action in ("tiers_apply", "tiers_commit", "tier_restore"):
        mems += list((undo.get("prior_tiers") or {}).keys())
    out.update(f"mem:{m}" for m in mems if isinstance(m, str) and m)
    return out

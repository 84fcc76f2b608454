"""Tier cleanup in the engine (SPEC §5.4): plan (no writes), commit, apply with an all-or-nothing hash check, restore.

The policy and the review-file format live in `tiers.py`.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from . import tiers as policy
from .errors import BadInput
from .index_schema import COLD_WHERE
from .models import Entry, Receipt, Tier, at, iso, parse_iso, utc
from .pages import MAX_LEDGER_BYTES, MAX_PAGE_BYTES, read_bytes, read_text
from .paths import mkdirs
from .receipts import make_receipt
from .store import Store, file_sig
from .text import sha256_hex
from .undo import UndoHandlers
from .validate import validate_actor
from .views import Views


class TierQueue:
    """Tier cleanup: which records could go cold (a plan, no writes), the automatic changes and the review file a
    person answers, applying that review, restoring a record to warm.

    `in_conflict` gives the memory ids in an open conflict (the conflict queue's): those are never planned cold."""

    def __init__(self, store: Store, views: Views, undo: UndoHandlers, in_conflict: Callable[[], set[str]]) -> None:
        self.store = store
        self.views = views
        self.in_conflict = in_conflict
        undo.register("tiers_commit", self._undo_tiers, human_only=True)
        undo.register("tiers_apply", self._undo_tiers, human_only=True)
        undo.register("tier_restore", self._undo_tiers, human_only=False)
        self._count = _CandidateCount()
        self._count.log_of = lambda: file_sig(store.root / "log.md")
        store.write_listeners.append(self._count.written)

    def _hot_links(self) -> set[str]:
        try:
            text = read_text(self.store.root / "hot.md", limit=MAX_LEDGER_BYTES, what="hot.md")
        except (FileNotFoundError, BadInput):
            return set()  # missing, or a symlink (reported by check): links nothing
        return set(re.findall(r"\]\((entries/[^)\s]+\.md)\)", text))

    def tier_inputs(self) -> list[policy.TierInput]:
        return self._inputs(self.store.index.query(f"{_INPUT_SQL} WHERE r.status IN ('active', 'superseded')"))

    def _inputs(self, rows, in_conflict: set[str] | None = None, hot: set[str] | None = None) -> list[policy.TierInput]:
        in_conflict = self.in_conflict() if in_conflict is None else in_conflict
        hot = self._hot_links() if hot is None else hot
        out = []
        for r in rows:
            out.append(
                policy.TierInput(
                    path=r["path"],
                    memory_id=r["memory_id"],
                    title=r["title"],
                    category=r["category"],
                    status=r["status"],
                    tier=r["tier"],
                    last_accessed_at=_dt(r["last_accessed_at"]),
                    created_at=_dt(r["created_at"]),
                    page_sha256=r["sha256"],
                    excerpt_bytes=int(r["nbytes"] or 0),
                    in_open_conflict=r["memory_id"] in in_conflict,
                    linked_from_hot=r["path"] in hot,
                )
            )
        return out

    def plan_tiers(self, *, now: datetime) -> policy.TierPlan:
        """Classify records into protected / automatic / ambiguous. Writes nothing."""
        return policy.plan_tiers(self.tier_inputs(), utc(now))

    def plan_outline(self, *, now: datetime, chunk: int = 2000) -> TierOutline:
        """`plan_tiers` without holding the plan: the records are classified a chunk at a time (keyset pages of the
        index) and only each section's pages and candidate ids are kept, in the plan's order (by path), with the
        counts and byte totals. The desk pages through it with `plan_candidates`. Writes nothing."""
        now = at(now)
        in_conflict, hot = self.in_conflict(), self._hot_links()
        found: dict[str, list[tuple[str, str]]] = {s: [] for s in TIER_SECTIONS}
        nbytes = dict.fromkeys(TIER_SECTIONS, 0)
        unchanged = out_of_scope = 0
        last = 0
        while True:
            rows = self.store.index.query(
                f"{_INPUT_SQL_ROWID} WHERE r.rowid > ? AND r.status IN ('active', 'superseded') ORDER BY r.rowid LIMIT ?",
                (last, chunk),
            )
            if not rows:
                break
            last = rows[-1]["rowid"]
            plan = policy.plan_tiers(self._inputs(rows, in_conflict, hot), now)
            for section in TIER_SECTIONS:
                for c in getattr(plan, section):
                    found[section].append((c.path, c.candidate_id))
                    nbytes[section] += c.excerpt_bytes
            unchanged += plan.unchanged_count
            out_of_scope += plan.out_of_scope_count
        for items in found.values():
            items.sort()
        return TierOutline(
            now=now,
            paths={s: [p for p, _ in found[s]] for s in TIER_SECTIONS},
            candidate_ids={s: [c for _, c in found[s]] for s in TIER_SECTIONS},
            bytes=nbytes,
            unchanged_count=unchanged,
            out_of_scope_count=out_of_scope,
        )

    def plan_candidates(self, paths: list[str], *, now: datetime) -> list[policy.Candidate]:
        """The plan's candidates for these pages (a page of an outline's section), classified as `plan_tiers`
        classifies them, in the order given; a page that left the plan since is left out."""
        rows = []
        for i in range(0, len(paths), 500):
            part = paths[i : i + 500]
            rows += self.store.index.query(
                f"{_INPUT_SQL_PATH} WHERE r.path IN ({','.join('?' * len(part))}) AND r.status IN ('active', 'superseded')",
                part,
            )
        plan = policy.plan_tiers(self._inputs(rows), utc(now))
        by_path = {c.path: c for section in TIER_SECTIONS for c in getattr(plan, section)}
        return [by_path[p] for p in paths if p in by_path]

    def cold_count(self) -> int:
        return int(
            self.store.index.scalar(f"SELECT count(*) FROM records INDEXED BY records_cold WHERE {COLD_WHERE}") or 0
        )

    def cold_page(self, *, offset: int = 0, limit: int = 100) -> list[Entry]:
        """A page of `cold_records` (LIMIT/OFFSET on the index)."""
        return [
            self.store.index.entry(r)
            for r in self.store.index.query(
                f"SELECT data, content FROM records INDEXED BY records_cold WHERE {COLD_WHERE} "
                "ORDER BY updated_at DESC, memory_id LIMIT ? OFFSET ?",
                (max(0, int(limit)), max(0, int(offset))),
            )
        ]

    def candidate_count(self, *, now: datetime) -> int:
        """len(plan.automatic) + len(plan.ambiguous) of `plan_tiers(now=now)` (the desk's header count), without
        classifying the wiki: the records that only age could make candidates are kept sorted by last access and
        kept current by every write of this engine (see `_CandidateCount`)."""
        log = file_sig(self.store.root / "log.md")
        if self._count.stamps is None or log != self._count.log_sig:  # another process committed
            protected = ",".join(f"'{c}'" for c in sorted(policy.PROTECTED_CATEGORIES))
            self._count.load(
                self.store.index.query(
                    "SELECT memory_id, path, category, status, tier, last_accessed_at, created_at FROM records "
                    f"WHERE status IN ('active', 'superseded') AND tier NOT IN ('cold', 'protected') "
                    f"AND category NOT IN ({protected})"
                )
            )
            self._count.log_sig = log
        hot = self._hot_links()
        return self._count.count(utc(now), self.in_conflict(), hot)

    def _set_tier(self, memory_id: str, tier: Tier, now: datetime, note: str, touch: bool = False) -> dict[str, Any]:
        """Change the access tier; returns what undo needs to put the page back byte for byte. `touch`: a person's
        act on the record, which refreshes it as an access does."""
        entry = self.store.load(memory_id)
        prior: dict[str, Any] = {
            "tier": entry.tier.value,
            "updated_at": iso(entry.updated_at),
            "notes": len(entry.notes),
        }
        if touch:
            prior.update(strength=entry.strength, last_accessed_at=iso(entry.last_accessed_at))
            entry.touch(now)
        entry.tier = tier
        entry.updated_at = now
        entry.notes.append(f"{note} ({iso(now)})")
        self.store.save(entry)
        return prior

    def _restore_tier_state(self, memory_id: str, prior: dict[str, Any]) -> None:
        """Put back what the tier change changed: its tier, and the one note it added (at `prior["notes"]`). Notes
        added since (an agent's restatement, consolidated: "restated by … (source)") stay, and with them the time
        and the access they brought: cutting the notes back to their old count deleted them, and nothing on the
        page explained the reinforcement they left."""
        entry = self.store.load(memory_id)
        k = int(prior["notes"])
        later = len(entry.notes) > k + 1
        entry.tier = Tier(prior["tier"])
        # The note is at `k` unless notes before it were edited out by hand since: the first tier note from there.
        own = next((i for i in range(min(k, len(entry.notes)), len(entry.notes)) if _tier_note(entry.notes[i])), None)
        if own is not None:
            entry.notes = entry.notes[:own] + entry.notes[own + 1 :]
        if not later:
            entry.updated_at = parse_iso(prior["updated_at"])
            if "last_accessed_at" in prior:  # a restore's access, taken back with it
                entry.strength = prior["strength"]
                entry.last_accessed_at = parse_iso(prior["last_accessed_at"])
        self.store.save(entry)

    def _protected_now(self, candidates: list[policy.ReviewCandidate], mids: dict[str, str]) -> dict[str, str]:
        """Candidate id → why, for the candidates whose record (`mids`: by page) an open conflict or a hot.md link
        protects now."""
        if not candidates:
            return {}
        in_conflict, hot = self.in_conflict(), self._hot_links()
        out: dict[str, str] = {}
        for c in candidates:
            mid = mids.get(c.path)
            why = [
                r for r, hit in (("open conflict", mid in in_conflict), ("linked from hot.md", c.path in hot)) if hit
            ]
            if why:
                out[c.candidate_id] = "; ".join(why)
        return out

    def commit_tiers(self, *, now: datetime, actor: str, owner: str | None = None) -> Receipt:
        """Write the automatic tier changes and, when there are ambiguous candidates, review/tier-review-<date>.md.

        Receipt details: automatic (ids made cold), review (path or null), ambiguous_count, projected_bytes_removed.
        """
        now = at(now)
        actor = validate_actor(actor)
        if not actor.startswith("human:"):  # a tier change is a person's review (SPEC §7)
            return make_receipt("tiers_commit", "refused", now, actor, {"reason": "human_actor_required"})
        with self.store.writing():
            pending = self.store.pending_reviews()
            if pending:
                # One review at a time, as the desk has it: a second one repeated every candidate of the first, and
                # whichever was applied second went stale for every id the first accepted.
                return make_receipt(
                    "tiers_commit",
                    "reject",
                    now,
                    actor,
                    {
                        "reason": "review_pending",
                        "pending": pending,
                        "detail": f"apply {pending[-1]} first (accepting no id sets it aside)",
                    },
                )
            plan = self.plan_tiers(now=now)
            prior: dict[str, dict[str, Any]] = {}
            for c in plan.automatic:
                prior[c.memory_id] = self._set_tier(c.memory_id, Tier.cold, now, f"Cold by tier cleanup: {c.reason}")
            review = review_sha = None
            if plan.ambiguous:
                # Hashes in the review must describe the pages as they are now, after the automatic writes.
                review = policy.review_path(now.date().isoformat())
                target = self.store.path(review)
                n = 2
                while target.exists():
                    review = f"review/tier-review-{now.date().isoformat()}-{n}.md"
                    target = self.store.path(review)
                    n += 1
                text = policy.render_review(plan, owner or actor.split(":", 1)[1], now.date().isoformat())
                self.store.write_file(target, text)
                review_sha = sha256_hex(text)
            receipt = make_receipt(
                "tiers_commit",
                "ok",
                now,
                actor,
                {
                    "automatic": [c.memory_id for c in plan.automatic],
                    "review": review,
                    "ambiguous_count": len(plan.ambiguous),
                    "protected_count": len(plan.protected),
                    "projected_bytes_removed": plan.projected_bytes_removed,
                    "count": len(plan.automatic),
                    "undo": {"prior_tiers": prior, "review": review, "review_sha256": review_sha},
                },
            )
            self.store.record(receipt)
            self.views.refresh(now)
            return receipt

    def read_review(self, review: str) -> tuple[str, policy.Review]:
        rel = review
        if os.path.isabs(review):
            try:
                rel = os.path.relpath(os.path.realpath(review), os.path.realpath(self.store.root))
            except ValueError:
                rel = ".."
            if rel == ".." or rel.startswith(".." + os.sep):
                # (the relative path made from it named a path with "..", which the person never wrote)
                raise BadInput(f"review file {review!r} is outside the wiki root")
        path = self.store.path(rel)
        rel = self.store.rel(path)
        if rel.startswith("review/applied/"):
            # Answered: its rejected ids wait for the next review, and applying it again made them cold.
            raise BadInput(f"{rel} was applied already; the records it left out come back in the next review")
        if not rel.startswith("review/") or not path.is_file():
            done = self.store.path(f"review/applied/{rel.split('/', 1)[1]}") if rel.startswith("review/") else None
            if done is not None and done.is_file():
                raise BadInput(f"{rel} was applied already (moved to {self.store.rel(done)})")
            raise BadInput(
                f"review file {review!r} is not a file under review/ (a relative path is read from the wiki root)"
            )
        try:
            text = read_text(path, limit=MAX_LEDGER_BYTES, what="a review file")
        except OSError as exc:
            raise BadInput(f"{rel}: {exc.strerror or exc}") from None
        return rel, policy.parse_review(text)

    def apply_tiers(self, review: str, accepted_ids: list[str] | None, *, now: datetime, actor: str) -> Receipt:
        """Apply a tier review: validate, check the hash of every accepted page first (any stale → nothing written),
        then accepted ids go cold and the review moves to review/applied/.

        Receipt status: applied | reject (reason: invalid_review with errors, or stale_pages with stale ids).
        """
        now = at(now)
        actor = validate_actor(actor)
        if not actor.startswith("human:"):  # a human review, applied by a person (SPEC §7)
            return make_receipt(
                "tiers_apply", "refused", now, actor, {"reason": "human_actor_required", "review": review}
            )
        with self.store.writing():
            rel, parsed = self.read_review(review)
            errors = policy.validate_review(parsed, accepted_ids)
            if errors:
                return make_receipt(
                    "tiers_apply", "reject", now, actor, {"reason": "invalid_review", "review": rel, "errors": errors}
                )
            accepted = policy.accepted_candidates(parsed, accepted_ids)
            hashes: dict[str, str | None] = {}
            for c in accepted:
                try:
                    hashes[c.path] = sha256_hex(
                        read_bytes(self.store.path(c.path), limit=MAX_PAGE_BYTES, what="a page")
                    )
                except (OSError, BadInput):
                    hashes[c.path] = None  # missing or unreadable: stale
            stale = policy.stale_ids(parsed, accepted_ids, hashes)
            # What protects a record and is not on its page: an open conflict, a link from hot.md. Opening a
            # conflict leaves the page as it was (SPEC §5.1), so the hashes cannot tell that a record the plan
            # offered is now protected; such an id is held back as a stale one is (SPEC §5.4: protection wins).
            # (each accepted page's record, looked up once: the check below and the writes both need it)
            mids = {
                c.path: self.store.index.scalar("SELECT memory_id FROM records WHERE path=?", (c.path,))
                for c in accepted
            }
            fresh = set(stale)
            protected = self._protected_now([c for c in accepted if c.candidate_id not in fresh], mids)
            stale += list(protected)
            if stale:
                held = set(stale)
                return make_receipt(
                    "tiers_apply",
                    "reject",
                    now,
                    actor,
                    {
                        "reason": "stale_pages",
                        "review": rel,
                        "stale_ids": stale,
                        "stale_paths": [c.path for c in accepted if c.candidate_id in held],
                        "protected": protected,
                    },
                )
            prior: dict[str, dict[str, Any]] = {}
            ids: list[str] = []
            for c in accepted:
                mid = mids[c.path]
                prior[mid] = self._set_tier(mid, Tier.cold, now, f"Cold by tier review {rel} ({c.candidate_id})")
                ids.append(c.candidate_id)
            text = self.store.read_text(self.store.path(rel), limit=MAX_LEDGER_BYTES)
            answered = policy.set_decision(text, ids) if ids else text
            applied = f"review/applied/{rel.split('/', 1)[1]}"
            n = 2
            while self.store.path(applied).exists():
                applied = f"review/applied/{n}-{rel.split('/', 1)[1]}"
                n += 1
            mkdirs(self.store.path("review/applied"))
            # A move, as a write of the answered review under applied/ and the removal of the pending one.
            self.store.write_file(self.store.path(applied), answered)
            self.store.remove_file(self.store.path(rel))
            receipt = make_receipt(
                "tiers_apply",
                "applied",
                now,
                actor,
                {
                    "review": rel,
                    "moved_to": applied,
                    "accepted_ids": ids,
                    "rejected_ids": [c.candidate_id for c in parsed.candidates if c.candidate_id not in ids],
                    "memory_ids": sorted(prior),
                    "undo": {"prior_tiers": prior, "review": rel, "moved_to": applied},
                },
            )
            self.store.record(receipt)
            self.views.refresh(now)
            return receipt

    def restore_tier(self, ref: str, *, now: datetime, actor: str) -> Receipt:
        """Set a cold record back to warm (cold is an access tier, not a verdict)."""
        now = at(now)
        actor = validate_actor(actor)
        with self.store.writing():
            mid = self.store.resolve_id(ref)
            entry = self.store.load(mid)
            if entry.tier is Tier.warm:
                return make_receipt("tier_restore", "reject", now, actor, {"reason": "already_warm", "memory_id": mid})
            # A person asked for it back: an access now, or the next plan would find it as old and unread as
            # before and make it cold again at the next commit, unasked.
            prior = self._set_tier(mid, Tier.warm, now, "Restored to warm", touch=True)
            receipt = make_receipt(
                "tier_restore", "restored", now, actor, {"memory_id": mid, "undo": {"prior_tiers": {mid: prior}}}
            )
            self.store.record(receipt)
            self.views.refresh(now)
            return receipt

    def _undo_tiers(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        undo = receipt["details"]["undo"]
        restored = []
        for mid, prior in undo["prior_tiers"].items():
            if self.store.page_of(mid):
                self._restore_tier_state(mid, prior)
                restored.append(mid)
        out: dict[str, Any] = {"restored": restored}
        if receipt["action"] == "tiers_commit" and undo.get("review_sha256"):
            # The review the commit wrote goes with it: left behind, it would stay pending (the desk's commit key
            # does nothing while a review waits) and the next commit would write a second one beside it. Only the
            # commit's own text is taken back; a review a person has marked up since is kept and said so.
            path = self.store.path(undo["review"])
            current = read_bytes(path, limit=MAX_LEDGER_BYTES) if path.is_file() else None
            if current is not None and sha256_hex(current) == undo["review_sha256"]:
                self.store.remove_file(path)
                out["review_removed"] = undo["review"]
            elif current is not None:
                out["review_kept"] = undo["review"]
        moved = undo.get("moved_to")
        if moved and self.store.path(moved).is_file() and not self.store.path(undo["review"]).exists():
            # The review is pending again, unanswered; the pages are back byte for byte, so its hashes match again
            # (a page that changed for another reason since will read as stale, as it should).
            text = self.store.read_text(self.store.path(moved), limit=MAX_LEDGER_BYTES)
            try:
                text = policy.set_decision(text, [])
            except ValueError:
                pass
            self.store.write_file(self.store.path(undo["review"]), text)
            self.store.remove_file(self.store.path(moved))
            out["review"] = undo["review"]
        return out

    def cold_records(self) -> list[Entry]:
        """Records in the cold access tier (restorable to warm), most recently changed first."""
        return [
            self.store.index.entry(r)
            for r in self.store.index.query(
                f"SELECT data, content FROM records WHERE {COLD_WHERE} ORDER BY updated_at DESC, memory_id"
            )
        ]


TIER_SECTIONS = ("automatic", "ambiguous", "protected")
_INPUT_SQL = (
    "SELECT r.rowid, r.memory_id, r.path, r.title, r.category, r.status, r.tier, r.last_accessed_at, r.created_at, "
    "length(CAST(r.content AS BLOB)) AS nbytes, f.sha256 FROM records r JOIN files f ON f.path = r.path"
)
# The same, walking the table in rowid order (keyset chunks), or looking pages up by path.
_INPUT_SQL_ROWID = _INPUT_SQL.replace("FROM records r", "FROM records r NOT INDEXED")
_INPUT_SQL_PATH = _INPUT_SQL.replace("FROM records r", "FROM records r INDEXED BY sqlite_autoindex_records_2")


@dataclass(frozen=True)
class TierOutline:
    """A tier plan without its candidates (`TierQueue.plan_outline`): per section, the pages in the plan's order and
    their candidate ids, and the excerpt bytes; `plan_candidates` gives a page of them whole."""

    now: datetime
    paths: dict[str, list[str]]
    candidate_ids: dict[str, list[str]]
    bytes: dict[str, int]
    unchanged_count: int
    out_of_scope_count: int

    def count(self, section: str) -> int:
        return len(self.paths[section])

    @property
    def projected_bytes_removed(self) -> int:
        return self.bytes["automatic"]


_TIER_NOTES = ("Cold by tier cleanup: ", "Cold by tier review ", "Restored to warm (")


def _tier_note(note: str) -> bool:
    """A note a tier change wrote (`_set_tier`): what its undo takes off the page."""
    return note.startswith(_TIER_NOTES)


def _dt(value: str | None) -> datetime | None:
    try:
        return parse_iso(value) if value else None
    except ValueError:
        return None


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICRO = timedelta(microseconds=1)
_ZERO = timedelta(0)


class _CandidateCount:
    """The records that `tiers.plan_tiers` would make automatic or ambiguous once they are old enough: in scope and
    not protected by anything but an open conflict or a hot.md link (those two sets are small and change without a
    page write, so they are applied at count time). Their last accesses are kept sorted (integer microseconds), so
    a count is a bisection and a write moves only the records it wrote. `stamps` None means "load again"."""

    def __init__(self) -> None:
        self.stamps: list[int] | None = None
        self.by_id: dict[str, tuple[int, str]] = {}  # memory_id -> (last access in µs, page)
        self.by_page: dict[str, str] = {}
        self.log_sig: tuple[int, int] | None = None  # log.md when loaded, moved on by this engine's own writes
        self.log_of: Callable[[], tuple[int, int] | None] = lambda: None

    @staticmethod
    def _key(category: str, status: str, tier: str, last: datetime | None, created: datetime | None) -> int | None:
        """The record's last access in microseconds when only its age decides it, else None."""
        if status not in policy.IN_SCOPE_STATUSES or tier in ("cold", "protected"):
            return None
        if category in policy.PROTECTED_CATEGORIES or last is None or created is None or created > last:
            return None
        return (last - _EPOCH) // _MICRO

    def load(self, rows) -> None:
        self.by_id, self.by_page = {}, {}
        for mid, path, category, status, tier, last_text, created_text in rows:
            last: datetime | None
            created: datetime | None
            try:  # the index holds the engine's own UTC stamps; anything else goes through parse_iso
                parsed = datetime.fromisoformat(last_text), datetime.fromisoformat(created_text)
                if parsed[0].utcoffset() != _ZERO or parsed[1].utcoffset() != _ZERO:
                    raise ValueError
                last, created = parsed
            except (TypeError, ValueError):
                last, created = _dt(last_text), _dt(created_text)
            key = self._key(category, status, tier, last, created)
            if key is not None:
                self.by_id[mid] = (key, path)
                self.by_page[path] = mid
        self.stamps = sorted(k for k, _ in self.by_id.values())

    def written(self, entries: list[tuple[str, Entry]] | None) -> None:
        if entries is None or self.stamps is None:
            self.stamps = None
            return
        if not entries:  # an operation of this engine ended, under the write lock: its log rows are its own
            self.log_sig = self.log_of()
            return
        for page, e in entries:
            old = self.by_id.pop(e.memory_id, None)
            if old is not None:
                del self.stamps[bisect.bisect_left(self.stamps, old[0])]
                self.by_page.pop(old[1], None)
            key = self._key(e.category.value, e.status.value, e.tier.value, e.last_accessed_at, e.created_at)
            if key is not None:
                self.by_id[e.memory_id] = (key, page)
                self.by_page[page] = e.memory_id
                bisect.insort(self.stamps, key)

    def count(self, now: datetime, in_conflict: set[str], hot: set[str]) -> int:
        assert self.stamps is not None
        cutoff = (now - timedelta(days=policy.OLD_AFTER_DAYS) - _EPOCH) // _MICRO
        total = bisect.bisect_left(self.stamps, cutoff)  # last access strictly before now - 180 days
        protected = set(in_conflict) | {self.by_page[p] for p in hot if p in self.by_page}
        return total - sum(1 for mid in protected if mid in self.by_id and self.by_id[mid][0] < cutoff)

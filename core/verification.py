"""The verification queue (SPEC §5.2): confirm / deny / undeny, ledgers in stated/, rebuild from the ledgers."""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import BadInput
from .index_schema import PENDING_WHERE, SOURCE_SQL
from .keys import suppression_key
from .ledgers import CONFIRMATIONS, DENIALS, denials_in_force, read_jsonl
from .models import (
    Entry,
    EvidenceGrade,
    Receipt,
    SensitivityTier,
    SourceType,
    Status,
    TrustZone,
    Verified,
    at,
    iso,
    parse_iso,
)
from .receipts import make_receipt
from .scoring import zone_allows
from .secrets import find_in_fields, redact_secrets, secret_details
from .store import Store, file_sig
from .text import normalize
from .undo import UndoHandlers
from .validate import validate_actor
from .views import Views

# The desk's two verification lists, as index conditions (each has its indexes: index_schema.py).
QUEUE_MODES = {"pending": PENDING_WHERE, "denied": "status='denied'"}
QUEUE_ORDERS = ("newest", "source", "confidence")
_ACTOR_SQL = "json_extract(data, '$.fm.actor')"
# What the desk's filter looks in: title, text, source ref, actor, category, case-folded (`casefold` is the
# index connection's own function: SQLite's lower() folds ASCII letters only).
MATCH_SQL = (
    "casefold(title || ' ' || content || ' ' || coalesce(source_ref, '') || ' ' || "
    f"coalesce({_ACTOR_SQL}, '') || ' ' || category)"
)
# (mode, order) -> the ORDER BY columns, (expression, descending); memory_id last makes every order total.
_NEWEST = {"pending": "created_at", "denied": "updated_at"}
_ORDER_COLUMNS = {
    (mode, order): [
        *([(SOURCE_SQL, False)] if order == "source" else []),
        *([("confidence", True)] if order == "confidence" else []),
        (_NEWEST[mode], True),
        ("memory_id", False),
    ]
    for mode in QUEUE_MODES
    for order in QUEUE_ORDERS
}


def _order_sql(mode: str, order: str) -> str:
    try:
        cols = _ORDER_COLUMNS[(mode, order)]
    except KeyError:
        raise BadInput(f"unknown order {order!r} (valid: {', '.join(QUEUE_ORDERS)})") from None
    return ", ".join(f"{expr}{' DESC' if desc else ''}" for expr, desc in cols)


# What each verification receipt wrote to a ledger: (ledger, action of the line, the ids given a line).
_LEDGER_LINES = {
    "confirm": (CONFIRMATIONS, "confirm", lambda d: [d.get("memory_id")]),
    "confirm_many": (CONFIRMATIONS, "confirm", lambda d: d.get("confirmed") or []),
    "deny": (DENIALS, "deny", lambda d: [d.get("memory_id")]),
    "deny_many": (DENIALS, "deny", lambda d: d.get("memory_ids") or []),
    "undeny": (DENIALS, "undeny", lambda d: [d.get("memory_id")]),
}


def ledger_gaps(root: Path, receipts: Iterable[dict[str, Any]]) -> list[str]:
    """One line for each decision a receipt records whose line its ledger (stated/confirmations.jsonl,
    stated/denials.jsonl) no longer holds: a ledger cut or deleted by hand. `verify rebuild` replays the ledgers,
    so it would forget such a decision (a denial lifted, a stamp gone)."""
    held: set[tuple[str, str, str]] = set()
    for name in (CONFIRMATIONS, DENIALS):
        try:
            held.update(
                (str(d.get("action")), str(d.get("memory_id")), str(d.get("at"))) for d in read_jsonl(root / name)
            )
        except (BadInput, OSError):
            continue  # unreadable: reported as such
    gaps = []
    for data in receipts:
        spec = _LEDGER_LINES.get(str(data.get("action")))
        if spec is None or data.get("status") in ("reject", "refused"):
            continue
        ledger, action, ids = spec
        for mid in ids(data.get("details") or {}):
            if isinstance(mid, str) and (action, mid, str(data.get("at"))) not in held:
                gaps.append(
                    f"{ledger}: no line for the {action} of {mid} at {data.get('at')} (receipt "
                    f"{str(data.get('receipt_sha256'))[:12]}…): the ledger lost it, and verify rebuild would forget it"
                )
    return gaps


def _pending(e: Entry) -> bool:
    """What a confirmation stamps: an agent's inference no person has confirmed (SPEC §5.2's queue, when active)."""
    return e.source_type is SourceType.agent_inferred and e.verified is None


def _settled(e: Entry) -> dict[str, Any]:
    """Why an active record is not confirmed again: a person's stamp is theirs (a second confirm replaced bob's
    with alice's), and a person's own statement is not made a confirmed inference (`record_is_user_stated`)."""
    why = _not_pending(e) or {"reason": f"record_is_{e.source_type.value}"}
    return {**why, "memory_id": e.memory_id}


def _event_time(d: dict[str, Any]) -> datetime:
    """A ledger line's time, for merging the two ledgers (a line without a readable one sorts first)."""
    try:
        return at(parse_iso(str(d.get("at", ""))))
    except (ValueError, TypeError):
        return datetime.min.replace(tzinfo=UTC)


def ledger_events(root: Path) -> Iterator[dict[str, Any]]:
    """The lines of both verification ledgers in the order `verify rebuild` replays them. Each ledger is appended in
    commit order, which is kept: sorted by the text of `at`, "…T10:00:00Z" came after "…T10:00:00.5Z" (a time is
    written without its fraction when it has none), and a time set back (`--now`) put a deny after its own undeny.
    The two ledgers are merged by the time each line gives (parsed), each keeping its own order. BadInput when a
    ledger cannot be read safely (a symlink)."""
    merged = heapq.merge(
        ((_event_time(d), 0, d) for d in read_jsonl(root / CONFIRMATIONS)),
        ((_event_time(d), 1, d) for d in read_jsonl(root / DENIALS)),
        key=lambda x: (x[0], x[1]),
    )
    return (d for _, _, d in merged)


def _stamp(d: dict[str, Any]) -> dict[str, str] | None:
    """A confirm line's stamp, {by, at} with the time as the engine writes it; None when it gives no person or no
    readable time (a line written by hand: replayed, it stopped `verify rebuild` with an internal error)."""
    by, when = d.get("by"), d.get("at")
    if not isinstance(by, str) or not isinstance(when, str):
        return None
    try:
        return {"by": by, "at": iso(at(parse_iso(when)))}
    except (ValueError, TypeError):
        return None


def replay_ledgers(
    events: Iterable[dict[str, Any]], entry_of: Callable[[str], Entry | None]
) -> tuple[dict[str, dict[str, str] | None], dict[str, dict[str, Any] | None]]:
    """What the verification ledgers say of each record a line names: its stamp ({by, at}; None: not confirmed) and
    the deny line in force (None: not denied). A record no line names is neither. `entry_of` gives a record as its
    page holds it, None when there is none: a confirmation holds for every record it names (whatever its text has
    become since, as the stamp on its page does), and an undeny lifts every record denied under its suppression key
    (as its text gives it)."""
    verified: dict[str, dict[str, str] | None] = {}
    denied: dict[str, dict[str, Any] | None] = {}
    # The records denied under each suppression key since it was last lifted: an undeny walked every record (32 s
    # at 20k records after the undo of a bulk deny of 2,000).
    by_key: dict[str, set[str]] = {}
    for d in events:
        act = d.get("action")
        if act == "confirm":
            stamp = _stamp(d)
            named: list[Any] = d["propagated_to"] if isinstance(d.get("propagated_to"), list) else []
            for m in [d.get("memory_id"), *named]:
                e = entry_of(m) if isinstance(m, str) else None
                if stamp and e is not None:
                    verified[e.memory_id] = stamp
        elif act == "unconfirm":
            listed = d.get("memory_ids")
            ids: list[Any] = listed if isinstance(listed, list) and listed else [d.get("memory_id")]
            for m in ids:
                if isinstance(m, str):
                    verified[m] = None
        elif act == "deny":
            m = d.get("memory_id")
            e = entry_of(m) if isinstance(m, str) else None
            if e is not None:
                denied[e.memory_id] = d
                by_key.setdefault(suppression_key(e.source_ref, e.content), set()).add(e.memory_id)
        elif act == "undeny":
            for m in by_key.pop(str(d.get("suppression_key")), ()):
                denied[m] = None
    return verified, denied


@dataclass(frozen=True)
class Drift:
    """A record whose page disagrees with the verification ledgers (`ledger_drift`): the entry as its page holds
    it, and what the ledgers say — its stamp and the deny line in force."""

    entry: Entry
    page: str
    stamp: dict[str, str] | None
    denial: dict[str, Any] | None

    @property
    def stamp_differs(self) -> bool:
        e = self.entry
        return self.stamp != ({"by": e.verified.by, "at": iso(e.verified.at)} if e.verified else None)

    @property
    def denial_differs(self) -> bool:
        """Only between active and denied: an archived or superseded record keeps its status (`verify rebuild`
        moves records between those two alone; an undenied record merged into its twin stays archived)."""
        status = self.entry.status
        return status in (Status.active, Status.denied) and (self.denial is not None) != (status is Status.denied)


def ledger_drift(store: Store) -> list[Drift]:
    """The records whose page says other than the verification ledgers, by memory id: exactly what `verify rebuild`
    changes. A page put back from an older copy (`git checkout`, `git stash`, a backup) brought a denied record back
    to active, served to agents, and a confirmed one back to pending, while the ledgers (SPEC §5.2: the record of
    verification) still said denied and confirmed. Only the records a ledger line names, or whose page carries a
    stamp or a denial, are read: the others agree with ledgers that say nothing of them. BadInput when a ledger
    cannot be read safely."""
    cache: dict[str, Entry | None] = {}

    def entry_of(m: str) -> Entry | None:
        if m not in cache:
            cache[m] = store.get(m)
        return cache[m]

    verified, denied = replay_ledgers(ledger_events(store.root), entry_of)
    ids = set(verified) | set(denied)
    ids.update(r[0] for r in store.index.query("SELECT memory_id FROM records WHERE verified=1 OR status='denied'"))
    out = []
    for m in sorted(ids):
        e = entry_of(m)
        page = store.page_of(m) if e is not None else None
        if e is None or page is None:
            continue
        drift = Drift(e, page, verified.get(m), denied.get(m))
        if drift.stamp_differs or drift.denial_differs:
            out.append(drift)
    return out


# Up to this many ids of `only` are asked for in the query (SQLite's bound parameters); more are read as the whole
# list kept to them (at 33k marks, 67 queries and the list again to order them took 171 ms on the desk's UI thread).
ONLY_IN_QUERY = 500


class VerificationQueue:
    """Records an agent inferred, waiting for a person to confirm or deny them; the ledgers of those decisions in
    stated/; and the suppression keys a denial leaves (capture asks `is_suppressed`)."""

    def __init__(self, store: Store, views: Views, undo: UndoHandlers) -> None:
        self.store = store
        self.views = views
        self._denial_cache: tuple[tuple[int, int] | None, dict[str, dict[str, Any]]] | None = None
        self._denied_by_key: dict[str, list[str]] = {}  # suppression key -> the records denied under it
        for action in ("confirm", "deny", "undeny", "confirm_many", "deny_many"):
            undo.register(action, self._undo_verification, human_only=True)

    def pending_verifications(self, limit: int | None = None) -> list[Entry]:
        sql = (
            "SELECT data, content FROM records WHERE status='active' AND source_type='agent_inferred' AND verified=0 "
            "ORDER BY created_at DESC, memory_id"
        )
        if limit:
            sql += f" LIMIT {int(limit)}"
        return [self.store.index.entry(r) for r in self.store.index.query(sql)]

    def pending_count(self) -> int:
        return self.store.tallies()["pending"]

    # -- the queue a page at a time (the desk's Verify list; never the whole queue in memory) ----------------------

    def _queue_where(
        self, mode: str, needle: str | None, source: str | None, only: list[str] | None, order: str = "newest"
    ) -> tuple[str, list[Any]]:
        """`records INDEXED BY … WHERE …` for a list: the index is named, because without statistics SQLite would
        pick the equality index on status and sort the whole queue for every page."""
        if mode not in QUEUE_MODES:
            raise BadInput(f"unknown verification list {mode!r} (valid: {', '.join(QUEUE_MODES)})")
        if order not in QUEUE_ORDERS:
            raise BadInput(f"unknown order {order!r} (valid: {', '.join(QUEUE_ORDERS)})")
        if only is not None:
            index = "sqlite_autoindex_records_1"
        elif mode == "denied":
            index = "records_denied"
        else:
            index = f"records_pending_{'source' if source is not None else order}"
        where, params = [QUEUE_MODES[mode]], []
        if needle:
            where.append(f"instr({MATCH_SQL}, ?) > 0")
            params.append(needle.casefold())
        if source is not None:
            where.append(f"{SOURCE_SQL} = ?")
            params.append(source)
        if only is not None:
            where.append(f"memory_id IN ({','.join('?' * len(only))})")
            params += only
        return f"records INDEXED BY {index} WHERE {' AND '.join(where)}", params

    def queue_page(
        self,
        mode: str = "pending",
        *,
        order: str = "newest",
        needle: str | None = None,
        source: str | None = None,
        offset: int = 0,
        limit: int = 100,
    ) -> list[Entry]:
        """Rows `offset` to `offset + limit` of the pending (or the denied) list in `order` (newest, source,
        confidence), narrowed to the records whose title, text, source, actor or category hold `needle`
        (case-insensitive) and to one `source` (`source_of`). An indexed LIMIT/OFFSET query: its cost follows the
        page and the offset, never the wiki's size."""
        where, params = self._queue_where(mode, needle, source, None, order)
        # The ids first: without a filter the offset is walked in a covering index (index_schema.py), then the
        # page's rows by primary key.
        ids = [
            r[0]
            for r in self.store.index.query(
                f"SELECT memory_id FROM {where} ORDER BY {_order_sql(mode, order)} LIMIT ? OFFSET ?",
                (*params, max(0, int(limit)), max(0, int(offset))),
            )
        ]
        return self.queue_entries(ids)

    def queue_entries(self, ids: list[str]) -> list[Entry]:
        """The records with these ids, in that order (primary-key lookups; a page of an id list)."""
        rows = {r["memory_id"]: r for r in self.store.index.rows_for(ids, columns="memory_id, data, content")}
        return [self.store.index.entry(rows[m]) for m in ids if m in rows]

    def queue_count(self, mode: str = "pending", *, needle: str | None = None, source: str | None = None) -> int:
        """How many records `queue_page` pages through (a count query)."""
        where, params = self._queue_where(mode, needle, source, None)
        return int(self.store.index.scalar(f"SELECT count(*) FROM {where}", params) or 0)

    def queue_sources(self, mode: str = "pending", *, needle: str | None = None) -> list[tuple[str, int]]:
        """(source, count) for every source in the list, in the `source` order: the group headers."""
        where, params = self._queue_where(mode, needle, None, None, "source")
        rows = self.store.index.query(
            f"SELECT {SOURCE_SQL} AS src, count(*) FROM {where} GROUP BY src ORDER BY src", params
        )
        return [(r[0], int(r[1])) for r in rows]

    def queue_ids(
        self,
        mode: str = "pending",
        *,
        order: str = "newest",
        needle: str | None = None,
        source: str | None = None,
        only: list[str] | None = None,
    ) -> list[str]:
        """The memory ids of the list (narrowed as `queue_page` narrows it, and to `only` when given), in `order`:
        what a batch decision over a source, a filter or the marks acts on."""
        if only is not None and not only:
            return []
        if only is not None and len(only) > ONLY_IN_QUERY:
            # Many marks (a whole source, every pending record): the list read once and kept to them is one indexed
            # query, where a query per 500 ids and the list again to order them were two readings and many queries.
            wanted = set(only)
            return [m for m in self.queue_ids(mode, order=order, needle=needle, source=source) if m in wanted]
        where, params = self._queue_where(mode, needle, source, only, order)
        return [
            r[0]
            for r in self.store.index.query(f"SELECT memory_id FROM {where} ORDER BY {_order_sql(mode, order)}", params)
        ]

    def queue_position(
        self, mode: str, memory_id: str, *, order: str = "newest", needle: str | None = None
    ) -> int | None:
        """Where `memory_id` stands in the list (0-based; None when it is not in it): a count of the rows that sort
        before it, so the desk can put its cursor on a record it has not loaded."""
        where, params = self._queue_where(mode, needle, None, [memory_id], order)
        cols = _ORDER_COLUMNS[(mode, order)]
        row = self.store.index.query(f"SELECT {', '.join(expr for expr, _ in cols)} FROM {where}", params)
        if not row:
            return None
        key = tuple(row[0])
        before, bparams = [], []
        for i, (expr, desc) in enumerate(cols):
            eq = [f"{cols[j][0]} = ?" for j in range(i)]
            before.append("(" + " AND ".join([*eq, f"{expr} {'>' if desc else '<'} ?"]) + ")")
            bparams += [*key[:i], key[i]]
        where, params = self._queue_where(mode, needle, None, None, order)
        return int(
            self.store.index.scalar(f"SELECT count(*) FROM {where} AND ({' OR '.join(before)})", (*params, *bparams))
            or 0
        )

    def denied_records(self) -> list[Entry]:
        return [
            self.store.index.entry(r)
            for r in self.store.index.query(
                "SELECT data, content FROM records WHERE status='denied' ORDER BY updated_at DESC, memory_id"
            )
        ]

    def active_suppression_keys(self) -> dict[str, dict[str, Any]]:
        path = self.store.root / DENIALS
        cached = self._denial_cache
        sig = file_sig(path)
        if cached and cached[0] == sig:
            return cached[1]
        keys, denied = denials_in_force(path)
        self._denial_cache = (sig, keys)
        self._denied_by_key = denied
        return keys

    def is_suppressed(
        self, key: str, zone: TrustZone | None = None, *, content: str | None = None, source_ref: str | None = None
    ) -> bool:
        """Whether a capture with this suppression key is suppressed. For a capture into `zone`, only a denial of a
        record that zone may see counts: a limited zone's agent told `suppressed` would learn that a person denied
        that very text in a record it may not read. The owner's zone (or no zone given) sees every denial.

        Given the capture's `content` and `source_ref`, a record still denied on its page suppresses too, whatever
        the denials ledger says: with stated/denials.jsonl cut or deleted by hand (`check` names each line it lost),
        the person's no stood on the page, and the statement came back into the queue."""
        if key in self.active_suppression_keys():
            denied = self._denied_by_key.get(key, [])
        elif content is not None:
            denied = self._denied_on_pages(key, content, source_ref)
        else:
            return False
        if not denied:
            return False
        if zone is None or zone is TrustZone.private_self:
            return True
        for mid in denied:
            row = self.store.index.query("SELECT trust_zone, sensitivity_tier FROM records WHERE memory_id=?", (mid,))
            if row and zone_allows(zone, TrustZone(row[0][0]), SensitivityTier(row[0][1])):
                return True
        return False

    def _denied_on_pages(self, key: str, content: str, source_ref: str | None) -> list[str]:
        """The records a page says are denied whose suppression key is `key` (the same source, the same text)."""
        rows = self.store.index.query(
            "SELECT memory_id, source_ref, content FROM records WHERE status='denied' AND COALESCE(source_ref, '') = ?",
            (source_ref or "",),
        )
        return [r[0] for r in rows if suppression_key(r[1], r[2]) == key]

    def _same_text(self, entry: Entry, statuses: tuple[str, ...]) -> list[str]:
        marks = ",".join("?" * len(statuses))
        return [
            r[0]
            for r in self.store.index.query(
                f"SELECT memory_id FROM records WHERE content_sha=? AND status IN ({marks}) ORDER BY memory_id",
                (entry.normalized_content_sha256, *statuses),
            )
        ]

    def _stamp_confirmed(self, mid: str, now: datetime, actor: str, prior: dict[str, Any]) -> list[str]:
        """Stamp the record and every live same-text record verified by `actor`, recording each one's prior state in
        `prior` (a record already in it is left alone); append the ledger line. A confirmation refreshes strength
        as an access does (SPEC §4 decay: what a person acted on is not archived within its half-life); confidence
        is untouched. Returns the records stamped, `mid` first."""
        entry = self.store.load(mid)
        targets = [mid] + [m for m in self._same_text(entry, ("active",)) if m != mid and m not in prior]
        for m in targets:
            e = self.store.load(m)
            if m != mid and not _pending(e):
                continue  # stated by a person, or confirmed already: its stamp and provenance stay
            prior[m] = {
                "source_type": e.source_type.value,
                "verified": e.verified.to_dict() if e.verified else None,
                "evidence_grade": e.evidence_grade.value,
                "confidence": e.confidence,
                "strength": e.strength,
                "last_accessed_at": iso(e.last_accessed_at),
            }
            e.verified = Verified(by=actor, at=now)
            e.source_type = SourceType.user_confirmed
            e.evidence_grade = EvidenceGrade.high
            e.updated_at = now
            e.touch(now)
            self.store.save(e)
        targets = [m for m in targets if m in prior]
        line = {
            "action": "confirm",
            "memory_id": mid,
            "content_sha256": entry.normalized_content_sha256,
            "by": actor,
            "at": iso(now),
            "propagated_to": targets[1:],
        }
        self.store.append_file(self.store.root / CONFIRMATIONS, [json.dumps(line, sort_keys=True, ensure_ascii=False)])
        return targets

    def confirm(self, ref: str, *, now: datetime, actor: str) -> Receipt:
        """Stamp `verified: {by, at}` and `source_type: user_confirmed` on the record and every live record with the
        same normalised title+content. Human actors only. Receipt details: memory_id, propagated_to, undo."""
        now = at(now)
        actor = validate_actor(actor)
        if not actor.startswith("human:"):
            return make_receipt("confirm", "refused", now, actor, {"reason": "human_actor_required", "memory_id": ref})
        with self.store.writing():
            mid = self.store.resolve_id(ref)
            entry = self.store.load(mid)
            if entry.status is not Status.active:
                return make_receipt(
                    "confirm", "reject", now, actor, {"reason": f"record_is_{entry.status.value}", "memory_id": mid}
                )
            if not _pending(entry):
                return make_receipt("confirm", "reject", now, actor, _settled(entry))
            prior: dict[str, Any] = {}
            targets = self._stamp_confirmed(mid, now, actor, prior)
            receipt = make_receipt(
                "confirm",
                "confirmed",
                now,
                actor,
                {"memory_id": mid, "propagated_to": targets[1:], "memory_ids": targets, "undo": {"prior": prior}},
            )
            self.store.record(receipt, "high")
            self.views.refresh(now)
            return receipt

    def confirm_many(self, refs: list[str], *, now: datetime, actor: str) -> Receipt:
        """Confirm many records under one receipt, atomically (all or none). Human actors only. A record an earlier
        item of the batch already confirmed (same text) is skipped, not re-stamped; a record that is not active
        rejects the whole batch. Receipt details: confirmed (the records asked for and stamped), skipped,
        memory_ids (every record stamped, propagation included), count, undo."""
        now = at(now)
        actor = validate_actor(actor)
        if not actor.startswith("human:"):
            return make_receipt(
                "confirm_many", "refused", now, actor, {"reason": "human_actor_required", "memory_ids": list(refs)}
            )
        if not refs:
            return make_receipt(
                "confirm_many", "reject", now, actor, {"reason": "nothing_to_confirm", "memory_ids": []}
            )
        with self.store.writing():
            mids = [self.store.resolve_id(r) for r in refs]
            settled: dict[str, dict[str, Any]] = {}  # confirmed already, or stated by a person: left as they are
            for mid in mids:
                e = self.store.load(mid)
                status = e.status
                if status is Status.active and not _pending(e):
                    settled[mid] = _settled(e)
                if status is not Status.active:
                    return make_receipt(
                        "confirm_many",
                        "reject",
                        now,
                        actor,
                        {"reason": f"record_is_{status.value}", "memory_id": mid, "memory_ids": mids},
                    )
            prior: dict[str, Any] = {}
            confirmed: list[str] = []
            skipped: list[str] = []
            for mid in mids:
                if mid in prior or mid in settled:
                    skipped.append(mid)
                    continue
                self._stamp_confirmed(mid, now, actor, prior)
                confirmed.append(mid)
            receipt = make_receipt(
                "confirm_many",
                "confirmed",
                now,
                actor,
                {
                    "confirmed": confirmed,
                    "skipped": skipped,
                    "not_pending": settled,
                    "memory_ids": list(prior),
                    "count": len(prior),
                    "undo": {"prior": prior},
                },
            )
            self.store.record(receipt, "high")
            self.views.refresh(now)
            return receipt

    def _deny_one(self, mid: str, now: datetime, actor: str, reason: str | None) -> tuple[str, str]:
        """Deny one record (status, note, ledger line). Returns (prior status, suppression key)."""
        entry = self.store.load(mid)
        prior_status = entry.status.value
        key = suppression_key(entry.source_ref, entry.content)
        entry.status = Status.denied
        entry.updated_at = now
        entry.notes.append(f"Denied by {actor} ({iso(now)})" + (f": {' '.join(reason.split())}" if reason else ""))
        self.store.save(entry)
        line = {
            "action": "deny",
            "memory_id": mid,
            "suppression_key": key,
            "source_ref": entry.source_ref,
            "content_sha256": entry.normalized_content_sha256,
            "reason": reason,
            "by": actor,
            "at": iso(now),
        }
        self.store.append_file(self.store.root / DENIALS, [json.dumps(line, sort_keys=True, ensure_ascii=False)])
        return prior_status, key

    def _deny_reason(
        self, action: str, reason: str | None, redact: bool, now: datetime, actor: str, subject: dict[str, Any]
    ) -> tuple[str | None, list[str], Receipt | None]:
        found = find_in_fields({"reason": reason})
        if not found:
            return reason, [], None
        if not redact:
            return (
                reason,
                [],
                make_receipt(
                    action, "reject", now, actor, {"reason": "secret_detected", **subject, **secret_details(found)}
                ),
            )
        clean, redacted = redact_secrets(reason or "")
        return clean, redacted, None

    def deny(
        self,
        ref: str,
        *,
        now: datetime,
        actor: str,
        reason: str | None = None,
        redact: bool = False,
        pending_only: bool = False,
    ) -> Receipt:
        """Set `status: denied` and record a suppression key = sha256(source_ref + normalised content); a later capture
        with the same key is `suppressed`. Receipt details: memory_id, suppression_key, undo.

        A reason holding a secret is refused (`secret_detected`) unless `redact`, which stores it redacted.
        `pending_only` (a desk acting on the verification queue): a record no longer pending, confirmed or no longer
        active since the queue was read (by someone else, or from the command line), is refused (`_not_pending`)
        rather than denied over that decision. Without it a person may deny a record they confirmed earlier."""
        now = at(now)
        actor = validate_actor(actor)
        if not actor.startswith("human:"):
            return make_receipt("deny", "refused", now, actor, {"reason": "human_actor_required", "memory_id": ref})
        reason, redacted, rejected = self._deny_reason("deny", reason, redact, now, actor, {"memory_id": ref})
        if rejected:
            return rejected
        with self.store.writing():
            mid = self.store.resolve_id(ref)
            entry = self.store.load(mid)
            if entry.status is Status.denied:
                return make_receipt("deny", "reject", now, actor, {"reason": "already_denied", "memory_id": mid})
            if pending_only and (why := _not_pending(entry)):
                return make_receipt("deny", "reject", now, actor, {**why, "memory_id": mid})
            prior_status, key = self._deny_one(mid, now, actor, reason)
            receipt = make_receipt(
                "deny",
                "denied",
                now,
                actor,
                {
                    "memory_id": mid,
                    "suppression_key": key,
                    "reason": reason,
                    "undo": {"prior": {mid: {"status": prior_status}}},
                    **({"redacted": redacted} if redacted else {}),
                },
            )
            self.store.record(receipt, "high")
            self.views.refresh(now)
            return receipt

    def deny_many(
        self,
        refs: list[str],
        *,
        now: datetime,
        actor: str,
        reason: str | None = None,
        redact: bool = False,
        pending_only: bool = False,
    ) -> Receipt:
        """Deny many records under one receipt, atomically (all or none); a record already denied rejects the batch,
        and with `pending_only` (as `deny`) so does one no longer pending. Human actors only. Receipt details:
        memory_ids, suppression_keys ({memory id: key}), reason, count, undo."""
        now = at(now)
        actor = validate_actor(actor)
        if not actor.startswith("human:"):
            return make_receipt(
                "deny_many", "refused", now, actor, {"reason": "human_actor_required", "memory_ids": list(refs)}
            )
        if not refs:
            return make_receipt("deny_many", "reject", now, actor, {"reason": "nothing_to_deny", "memory_ids": []})
        reason, redacted, rejected = self._deny_reason(
            "deny_many", reason, redact, now, actor, {"memory_ids": list(refs)}
        )
        if rejected:
            return rejected
        with self.store.writing():
            mids = list(dict.fromkeys(self.store.resolve_id(r) for r in refs))
            for mid in mids:
                entry = self.store.load(mid)
                why = {"reason": "already_denied"} if entry.status is Status.denied else None
                if why is None and pending_only:
                    why = _not_pending(entry)
                if why:
                    return make_receipt(
                        "deny_many", "reject", now, actor, {**why, "memory_id": mid, "memory_ids": mids}
                    )
            prior: dict[str, Any] = {}
            keys: dict[str, str] = {}
            for mid in mids:
                status, keys[mid] = self._deny_one(mid, now, actor, reason)
                prior[mid] = {"status": status}
            receipt = make_receipt(
                "deny_many",
                "denied",
                now,
                actor,
                {
                    "memory_ids": mids,
                    "suppression_keys": keys,
                    "reason": reason,
                    "count": len(mids),
                    "undo": {"prior": prior},
                    **({"redacted": redacted} if redacted else {}),
                },
            )
            self.store.record(receipt, "high")
            self.views.refresh(now)
            return receipt

    def _twin(self, entry: Entry, exclude: Iterable[str]) -> str | None:
        """The newest other active record of `entry`'s zone and tier that holds its title and text: the statement
        an agent captured again (from another source, so not suppressed) while `entry` was denied."""
        rows = self.store.index.query(
            "SELECT memory_id, created_at, content FROM records WHERE content_sha=? AND status='active' "
            "AND trust_zone=? AND sensitivity_tier=?",
            (entry.normalized_content_sha256, entry.trust_zone.value, entry.sensitivity_tier.value),
        )
        skip = {entry.memory_id, *exclude}
        text = normalize(entry.content)
        same = [r for r in rows if r["memory_id"] not in skip and normalize(r["content"]) == text]
        if not same:
            return None
        return str(max(same, key=lambda r: (r["created_at"] or "", r["memory_id"]))["memory_id"])

    def _back(self, e: Entry, now: datetime, note: str, exclude: Iterable[str]) -> str | None:
        """Make a denied record active again (`note` on its page). When another active record already holds its
        statement (captured while it was denied), it comes back merged into that one instead (archived, with
        `merged_into`), as `consolidate` would merge the pair: two active copies of one statement, each quizzed
        and retrieved, is what the person would then have to clean up. Returns the record it was merged into."""
        twin = self._twin(e, exclude)
        e.updated_at = now
        if twin is None:
            e.status = Status.active
            e.notes.append(note)
        else:
            e.status = Status.archived
            e.merged_into = twin
            e.notes.append(
                f"{note}: {twin} already holds this statement (captured while it was denied); merged into it"
            )
        self.store.save(e)
        return twin

    def undeny(self, ref: str, *, now: datetime, actor: str) -> Receipt:
        """Lift the suppression key and restore the denied same-text records to active (an appended ledger line)."""
        now = at(now)
        actor = validate_actor(actor)
        if not actor.startswith("human:"):
            return make_receipt("undeny", "refused", now, actor, {"reason": "human_actor_required", "memory_id": ref})
        with self.store.writing():
            mid = self.store.resolve_id(ref)
            entry = self.store.load(mid)
            key = suppression_key(entry.source_ref, entry.content)
            if entry.status is not Status.denied and key not in self.active_suppression_keys():
                return make_receipt("undeny", "reject", now, actor, {"reason": "not_denied", "memory_id": mid})
            restored: list[str] = []
            merged: dict[str, str] = {}
            twins = self._same_text(entry, ("denied",))
            for m in twins:
                e = self.store.load(m)
                if suppression_key(e.source_ref, e.content) != key:
                    continue
                twin = self._back(e, now, f"Undenied by {actor} ({iso(now)})", twins)
                if twin is not None:
                    merged[m] = twin
                restored.append(m)
            line = {
                "action": "undeny",
                "memory_id": mid,
                "suppression_key": key,
                "by": actor,
                "at": iso(now),
                "restored": restored,
            }
            self.store.append_file(self.store.root / DENIALS, [json.dumps(line, sort_keys=True, ensure_ascii=False)])
            receipt = make_receipt(
                "undeny",
                "undenied",
                now,
                actor,
                {
                    "memory_id": mid,
                    "suppression_key": key,
                    "restored": restored,
                    "memory_ids": restored,
                    **({"merged_into": merged} if merged else {}),
                },
            )
            self.store.record(receipt, "high")
            self.views.refresh(now)
            return receipt

    def rebuild_verification(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        """Reconstruct verification state (stamps, denied status) from stated/*.jsonl by replaying them in order:
        the pages `ledger_drift` finds (what `check` names) are written as the ledgers say.

        Receipt details: changed (memory ids whose page was corrected), count.
        """
        now = at(now)
        actor = validate_actor(actor)
        with self.store.writing():
            gaps = ledger_gaps(self.store.root, (data for _, _, data, _ in self.store.iter_receipts() if data))
            if gaps:
                # Replaying ledgers that lost lines would undo what those lines record (the receipts prove it).
                return make_receipt(
                    "verify_rebuild",
                    "refused",
                    now,
                    actor,
                    {
                        "reason": "ledger_lines_missing",
                        "errors": gaps[:20],
                        "count": len(gaps),
                        "detail": "put the lines back from a copy (memkeeper snapshot keeps one in snapshots/); "
                        "memkeeper check names every one, and the pages keep their state meanwhile",
                    },
                )
            changed = []
            for drift in ledger_drift(self.store):
                e = drift.entry
                if drift.stamp_differs:
                    want = drift.stamp
                    e.verified = Verified(by=want["by"], at=parse_iso(want["at"])) if want else None
                    e.source_type = (
                        SourceType.user_confirmed
                        if want
                        else (
                            SourceType.agent_inferred if e.source_type is SourceType.user_confirmed else e.source_type
                        )
                    )
                if drift.denial_differs:
                    e.status = Status.denied if drift.denial is not None else Status.active
                self.store.save(e)
                changed.append(e.memory_id)
            receipt = make_receipt("verify_rebuild", "ok", now, actor, {"changed": changed, "count": len(changed)})
            self.store.record(receipt)
            self.views.refresh(now, full=bool(changed))
            return receipt

    def _undo_verification(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        action = receipt["action"]
        d = receipt["details"]
        if action == "undeny":
            # Re-deny what the undeny restored: same ledger semantics as a fresh deny.
            was_merged = d.get("merged_into") or {}
            for m in d.get("restored") or []:
                e = self.store.load(m)
                e.status = Status.denied
                if m in was_merged:
                    e.merged_into = None
                e.updated_at = now
                e.notes.append(f"Undeny undone by {actor} ({iso(now)})")
                self.store.save(e)
            first = d.get("memory_id")
            e = self.store.load(first)
            self.store.append_file(
                self.store.root / DENIALS,
                [
                    json.dumps(
                        {
                            "action": "deny",
                            "memory_id": first,
                            "suppression_key": suppression_key(e.source_ref, e.content),
                            "source_ref": e.source_ref,
                            "content_sha256": e.normalized_content_sha256,
                            "reason": "undo of undeny",
                            "by": actor,
                            "at": iso(now),
                        },
                        sort_keys=True,
                        ensure_ascii=False,
                    )
                ],
            )
            return {"restored": d.get("restored") or []}
        prior = d["undo"]["prior"]
        confirming = action in ("confirm", "confirm_many")
        merged: dict[str, str] = {}
        for m, state in prior.items():
            e = self.store.load(m)
            if not confirming and state["status"] == Status.active.value:
                # (noted: its page said "Denied by …", and agents read the page)
                twin = self._back(e, now, f"Denial undone by {actor} ({iso(now)})", prior)
                if twin is not None:
                    merged[m] = twin
                continue
            if confirming:
                e.source_type = SourceType(state["source_type"])
                e.verified = Verified(**state["verified"]) if state["verified"] else None
                e.evidence_grade = EvidenceGrade(state["evidence_grade"])
                if "strength" in state and e.last_accessed_at <= parse_iso(receipt["at"]):
                    # (only when nothing read or restated the record since: a later access is its own, and the
                    # undo of the confirmation rewound it, an agent's restatement with it)
                    e.strength = state["strength"]
                    e.last_accessed_at = parse_iso(state["last_accessed_at"])
            else:
                e.status = Status(state["status"])
            e.updated_at = now
            self.store.save(e)
        if confirming:
            self.store.append_file(
                self.store.root / CONFIRMATIONS,
                [
                    json.dumps(
                        {
                            "action": "unconfirm",
                            "memory_ids": sorted(prior),
                            "by": actor,
                            "at": iso(now),
                            "reverses": receipt["receipt_sha256"],
                        },
                        sort_keys=True,
                    )
                ],
            )
        else:
            keys = d.get("suppression_keys") or {d["memory_id"]: d["suppression_key"]}
            self.store.append_file(
                self.store.root / DENIALS,
                [
                    json.dumps(
                        {
                            "action": "undeny",
                            "memory_id": m,
                            "suppression_key": keys[m],
                            "by": actor,
                            "at": iso(now),
                            "restored": [m],
                            "reverses": receipt["receipt_sha256"],
                        },
                        sort_keys=True,
                    )
                    for m in sorted(prior)
                ],
            )
        return {"restored": sorted(prior), **({"merged_into": merged} if merged else {})}


def _not_pending(entry: Entry) -> dict[str, Any] | None:
    """Why a record the verification queue listed is no longer in it, or None: confirmed (by whom, when), or no
    longer active (archived, superseded), in the words `confirm` refuses a record that is not active in."""
    if entry.status is not Status.active:
        return {"reason": f"record_is_{entry.status.value}"}
    if entry.verified is not None:
        by, when = entry.verified.by, iso(entry.verified.at)
        return {
            "reason": "record_is_confirmed",
            "confirmed_by": by,
            "confirmed_at": when,
            "detail": f"{by} confirmed it at {when}; `memkeeper verify deny` overrules a confirmation",
        }
    return None

"""Reading: retrieving records (ranked within a trust zone, previews across zones) and what the desk browses (the
category listings, a wiki file's text). The score and zone visibility are policy in `scoring.py`."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from . import scoring
from .errors import BadInput, Busy, ReadOnlyPage, WriteFailed, clip
from .index import CANDIDATES, BadPage, ZoneRows, is_busy
from .index_schema import searched_key
from .ledgers import DENIALS, denials_in_force
from .models import Receipt, SensitivityTier, Status, Tier, TrustZone, at, iso, parse_iso
from .pages import MAX_LEDGER_BYTES, read_text
from .receipts import make_receipt
from .store import Store, file_sig
from .text import sha256_hex
from .validate import parse_enum, validate_actor

if TYPE_CHECKING:
    from .record import Entry

# How long a retrieve that records its access waits for the write lock before it answers without recording it. The
# ordinary holders are over within it (measured on a loaded 2-core machine: a capture holds the lock 19 ms median,
# 51 ms at most; another retrieve's access write 42 ms median, 109 ms at most), so everyday contention still records
# the access; a long hold (a tier commit, a repair, a rebuild) costs a read no more than this, where it cost the
# lock's 30 s wait and then a `Busy` error (docs/decisions.md, Contention).
ACCESS_LOCK_WAIT_S = 0.2

# ((-score, memory_id), the result as the receipt shows it): sorted, best first.
Ranked = tuple[tuple[float, str], dict[str, Any]]


class RetrieveOps:
    def __init__(self, store: Store) -> None:
        self.store = store
        # The records stated/denials.jsonl denies, as of the file's (mtime, size) when it was read (`_denied`).
        self._denials: tuple[tuple[int, int] | None, frozenset[str]] = (None, frozenset())

    def _denied(self) -> frozenset[str]:
        """The records the denials ledger denies, whatever their pages say. A page put back from an older copy (`git
        checkout`, `git stash`) says active while the ledger, the record of the person's no (SPEC §5.2), still says
        denied: such a record is never served (`check` names it, and `verify rebuild` puts the denial back on its
        page). Read again only when the file changed: a stat per retrieve. A ledger that cannot be read safely (a
        symlink) leaves the pages to say (check reports it, and every write refuses)."""
        path = self.store.root / DENIALS
        sig = file_sig(path)
        if sig is None:
            return frozenset()
        if sig != self._denials[0]:
            try:
                _, by_key = denials_in_force(path)
            except (BadInput, OSError):
                by_key = {}
            self._denials = (sig, frozenset(m for ids in by_key.values() for m in ids))
        return self._denials[1]

    def retrieve(
        self,
        query: str,
        *,
        zone: str | TrustZone = "private_self",
        limit: int = 10,
        now: datetime,
        actor: str = "agent:cli",
        record_access: bool = True,
    ) -> Receipt:
        """Search active records visible to `zone`.

        Receipt details: query_sha256, zone, traversal_index, results (memory_id, page, title, score, the four
        components, excerpt or pointer for cold records), and for a `human:` actor only, hidden_by_zone (how many
        matches the zone may not see) and hidden_by_zone_bounded (the count is a floor: the look-up stopped at
        `index.CANDIDATES` of them). status: ok | reject (empty_query,
        invalid_trust_zone). Writes (last_accessed_at, receipts) only when record_access is True and there are
        results; then access_recorded says whether it did: False (with access_skipped: write_lock_busy) when the
        write lock was held elsewhere for longer than ACCESS_LOCK_WAIT_S, or (write_failed) when the disk refused the
        write; nothing was written then.
        """
        now = at(now)
        actor = validate_actor(actor)
        zone_e = parse_enum(TrustZone, zone)
        if zone_e is None:
            return make_receipt("retrieve", "reject", now, actor, {"reason": "invalid_trust_zone", "value": str(zone)})
        try:
            query.encode("utf-8")
        except UnicodeEncodeError:  # undecodable bytes on the command line arrive as lone surrogates
            return make_receipt(
                "retrieve", "reject", now, actor, {"reason": "invalid_text", "detail": "the query is not valid UTF-8"}
            )
        terms = scoring.query_terms(query)
        if not terms:
            # (a query of common words only, "the of and", is empty of what could be looked up: say so)
            said = {"detail": "no word to look up: only common words such as 'the' or 'and'"} if query.strip() else {}
            return make_receipt("retrieve", "reject", now, actor, {"reason": "empty_query", **said})
        ranked, hidden, bounded = self._rank(terms, zone_e, now, limit, actor.startswith("human:"))
        details = {
            "query_sha256": sha256_hex(query),
            "zone": zone_e.value,
            "traversal_index": "index.md",
            "results": [r for _, r in ranked],
            "result_count": len(ranked),
            "preview": not record_access,
        }
        if actor.startswith("human:"):
            # How many matches the zone may not see is for the owner previewing a zone (the desk's zone switch, a
            # person on the command line). An agent is never told: the count says that something it may not read
            # matches its words, which is itself a leak.
            details["hidden_by_zone"] = hidden
            # Counted among at most index.CANDIDATES of them: at the bound there may be many more (tens of thousands
            # at 100k records), and the count is a floor ("300+" in the desk and on the command line).
            details["hidden_by_zone_bounded"] = bounded
        if not record_access or not ranked:
            return make_receipt("retrieve", "ok", now, actor, details)
        # A read never waits on a writer: the access is recorded only if the write lock can be had within
        # ACCESS_LOCK_WAIT_S, else it is skipped (not queued) and the receipt says so (docs/decisions.md, Contention).
        held = self._lock_for_access()
        if held is None:
            details.update(access_recorded=False, access_skipped="write_lock_busy")
            return make_receipt("retrieve", "ok", now, actor, details)
        with held:
            try:
                with self.store.writing():  # takes the lock again: re-entrant, no second wait
                    read_only: list[str] = []
                    for _, r in ranked:
                        try:
                            entry = self.store.load(r["memory_id"])
                        except BadInput:
                            continue
                        entry.touch(now)
                        try:
                            self.store.save(entry, r["page"])
                        except ReadOnlyPage:
                            read_only.append(r["page"])  # made read-only by hand: served, its access not written
                    receipt = make_receipt(
                        "retrieve",
                        "ok",
                        now,
                        actor,
                        {
                            **details,
                            "access_recorded": True,
                            **({"access_not_recorded": {"read_only": read_only}} if read_only else {}),
                        },
                    )
                    self.store.record(receipt)
            except WriteFailed:
                # The disk refused the access write before its commit point (full, an I/O error): nothing was
                # written. A read still answers; the access is skipped, as when the lock is busy.
                details.update(access_recorded=False, access_skipped="write_failed")
                return make_receipt("retrieve", "ok", now, actor, details)
        return receipt

    def _lock_for_access(self) -> AbstractContextManager[object] | None:
        """The write lock, held (release it by leaving the returned context), when it can be had within
        ACCESS_LOCK_WAIT_S; None when another process or thread holds it longer. Held by this thread already (a
        retrieve inside its own operation), it is taken again at once."""
        try:
            return self.store.lock.acquire(timeout=ACCESS_LOCK_WAIT_S)
        except Busy:  # LockTimeout: held elsewhere past the wait
            return None

    def _rank(
        self, terms: list[str], zone: TrustZone, now: datetime, limit: int, count_hidden: bool
    ) -> tuple[list[Ranked], int, bool]:
        """The zone's best `limit` matches, best first, how many matches it may not see (counted only when
        `count_hidden`: the owner's preview), and whether that count stopped at its bound (`_hidden`).

        The IDF weights (record total, document frequencies, the common terms) are counted over the records the
        zone may retrieve, never the whole wiki: a word found only in a record hidden from the zone (another
        zone's, do_not_export, archived, denied) moves no score the zone is shown (SPEC §4). The candidates are
        drawn from those records too: a hidden record takes no candidate's place."""
        index = self.store.index
        eligible = index.zone_rows(*scoring.zone_sql(zone))
        total, freq = index.eligible_doc_freqs(terms, rows=eligible)
        weights = {t: scoring.idf(n, total) for t, n in freq.items()}
        # The owner's count of the matches the zone may not see: looked up among those records alone (the
        # candidates below are drawn from what the zone may retrieve, so none of them is hidden from it), before
        # the candidates' pages are checked and their rows refreshed (`_current` counts those pages itself).
        hidden, bounded = self._hidden(terms, weights, zone, now, eligible) if count_hidden else (0, False)
        if not any(freq.values()):
            return [], hidden, bounded  # no record the zone may see holds any of the words
        # Looked up last (`fts_candidates`): the terms in more than half of the zone's records, and those in none
        # of them — a word all over the wiki but in no record the zone may see would otherwise be ranked first, for
        # nothing.
        common = frozenset(t for t, n in freq.items() if n * 2 > total or n == 0)
        # Only what the zone may retrieve is a candidate: past CANDIDATES matches, records it may not see (another
        # zone's, do_not_export, not active) would otherwise take the places of its own, and which of its records
        # it is shown would depend on them.
        ids = index.fts_candidates(terms, common=common, rows=eligible)
        if not ids:
            return [], hidden, bounded
        ranked: list[Ranked] = []
        denied = self._denied()
        for row in index.rows_for(ids, "status='active'", (), _COLUMNS):
            if row["memory_id"] in denied:
                continue  # active on its page, denied in the ledger (`_denied`)
            item, concealed = _score(row, terms, weights, zone, now)
            hidden += concealed
            if item is not None:
                ranked.append(item)
        ranked.sort(key=lambda x: x[0])
        best, more_hidden = self._current(
            ranked, max(0, int(limit)), lambda row: _score(row, terms, weights, zone, now)
        )
        return best, hidden + more_hidden, bounded

    def _hidden(
        self, terms: list[str], weights: dict[str, float], zone: TrustZone, now: datetime, eligible: ZoneRows
    ) -> tuple[int, bool]:
        """How many active, unexpired records with a lexical match the zone may not see, among at most
        `index.CANDIDATES` of those holding a query word (a bounded look-up: the count is the owner's preview),
        and whether the look-up reached that bound (then there may be more)."""
        index = self.store.index
        ids = index.fts_hidden(terms, eligible, limit=CANDIDATES)
        if not ids:
            return 0, False
        found = index.rows_for(ids, "status='active'", (), _COLUMNS)
        return sum(_score(row, terms, weights, zone, now)[1] for row in found), len(ids) >= CANDIDATES

    def _current(
        self, ranked: list[Ranked], limit: int, rescore: Callable[[_Row], tuple[Ranked | None, bool]]
    ) -> tuple[list[Ranked], int]:
        """The first `limit` of `ranked` as their pages now say, and how many of them the zone may no longer see.

        The index is refreshed on open by a cheap scan that misses a page edited in place (no rename), so each
        result's page is checked against its row (`Index.changed`: a stat each). A page that changed is read again
        (`Store.load`, which validates it), its row brought up to date, and the record scored from what the page
        now says: dropped if it is gone, no longer parses, is no longer active or is hidden from the zone now.
        Candidates are checked in order until `limit` of them are current, so dropping some still fills the list;
        an unchecked candidate ranks below all of those, so it cannot belong in the list."""
        current: list[Ranked] = []
        changed: list[Ranked] = []
        i = 0
        while len(current) < limit and i < len(ranked):
            batch = ranked[i : i + limit - len(current)]
            i += len(batch)
            stale = set(self.store.index.changed([r["page"] for _, r in batch]))
            for item in batch:
                (changed if item[1]["page"] in stale else current).append(item)
        if not changed:
            return current, 0
        hidden = 0
        for _, r in changed:
            try:
                entry = self.store.load(r["memory_id"])
            except BadInput:  # gone, unreadable, or no longer a valid page (NotFound is a BadInput)
                continue
            if entry.memory_id != r["memory_id"]:
                continue  # the page now holds another record: the next sync indexes it as such
            now_is, concealed = rescore(_entry_row(r["page"], entry))
            hidden += concealed
            if now_is is not None:
                current.append(now_is)
        self._refresh([r["page"] for _, r in changed])
        current.sort(key=lambda x: x[0])
        return current[:limit], hidden

    def _refresh(self, pages: list[str]) -> None:
        """Bring the index rows of pages found changed up to date (what a sync does for them), so the next query
        needs no second look. A busy index is left for the next sync, as a sync on open leaves it."""
        try:
            counts = self.store.index.sync_paths(sorted(pages))
        except sqlite3.OperationalError as exc:
            if not is_busy(exc):
                raise
            return
        if any(counts.values()):
            # As `Store.sync` does when a scan changed rows: counts and the caches kept by writes start over.
            self.store.rows_resynced()

    def preview_all_zones(self, query: str, *, now: datetime, limit: int = 10) -> dict[str, Receipt]:
        """What each trust zone would get for a query (no writes): the TUI's zone switch."""
        return {
            z.value: self.retrieve(query, zone=z, limit=limit, now=now, actor="human:preview", record_access=False)
            for z in TrustZone
        }

    # ---------------------------------------------------------------------------------------------- browsing (the desk)

    def read_view(self, rel: str) -> str:
        """The text of a wiki file (hot.md, index pages, entries, ledgers), confined to the root. BadInput when the
        path escapes or the file cannot be read."""
        path = self.store.path(rel)
        try:
            return read_text(path, limit=MAX_LEDGER_BYTES, what="a file shown in the desk")
        except FileNotFoundError:
            raise BadInput(f"{clip(rel)} does not exist") from None
        except OSError as exc:
            raise BadInput(f"{clip(rel)}: {getattr(exc, 'strerror', None) or exc}") from None

    def category_counts(self) -> list[tuple[str, int, int]]:
        """(category, active, total) for every category that has records, by name."""
        # Grouped by (status, category) so SQLite reads only the records_updated index, never the wide rows: a
        # browse pane opening on a big wiki waits milliseconds, not a table scan.
        totals: dict[str, list[int]] = {}
        for status, category, n in self.store.index.query(
            "SELECT status, category, count(*) FROM records GROUP BY status, category"
        ):
            t = totals.setdefault(category, [0, 0])
            t[0] += n if status == "active" else 0
            t[1] += n
        return [(c, a, n) for c, (a, n) in sorted(totals.items())]

    def category_entries(self, category: str, *, offset: int = 0, limit: int = 200) -> tuple[int, list[dict[str, str]]]:
        """(total, a page of {memory_id, title, status, tier}) for a category: active first, then by title."""
        index = self.store.index
        total = int(index.scalar("SELECT count(*) FROM records WHERE category=?", (category,)) or 0)
        rows = index.query(
            "SELECT memory_id, title, status, tier FROM records WHERE category=? "
            "ORDER BY status<>'active', title COLLATE NOCASE, memory_id LIMIT ? OFFSET ?",
            (category, limit, offset),
        )
        return total, [dict(r) for r in rows]

    def zone_listing(self, zone: TrustZone, now: datetime) -> list[Listed]:
        """Every active, unexpired record `zone` may see (`scoring.zone_allows`, as SQL on the index's zone and
        sensitivity columns), as its narrow index columns: no record is built, so a listing of the whole wiki costs
        a read of those columns (a limited server's hot.md and index.md). The rows say what the pages said when the
        index last read them: a caller that must judge by the pages re-reads the edited ones first
        (`Engine.reread_edited_active`)."""
        where, params = scoring.zone_sql(zone)
        rows = self.store.index.query(
            "SELECT memory_id, path, title, category, created_at, expires_at FROM records WHERE status='active'"
            + (f" AND {where}" if where else ""),
            params,
        )
        return [
            Listed(r["memory_id"], r["path"], r["title"], r["category"], r["created_at"])
            for r in rows
            if not r["expires_at"] or parse_iso(r["expires_at"]) > now
        ]

    def memory_id_at(self, page: str) -> str | None:
        """The memory id of an entry page path, if it is indexed."""
        return self.store.index.scalar("SELECT memory_id FROM records WHERE path=?", (page,))

    def category_of(self, memory_id: str) -> str | None:
        return self.store.index.scalar("SELECT category FROM records WHERE memory_id=?", (memory_id,))

    def seen_by(self, memory_id: str, zone: TrustZone) -> bool:
        """Whether the index holds the record in a partition `zone` may see (as the index last read its page)."""
        where, params = scoring.zone_sql(zone)
        sql = "SELECT 1 FROM records WHERE memory_id=?" + (f" AND {where}" if where else "")
        return self.store.index.scalar(sql, (memory_id, *params)) is not None

    def resolve_prefix(self, ref: str, zone: TrustZone) -> str | None:
        """The one memory id that the id prefix `ref` (`store.is_id_prefix`) begins among the records `zone` may see,
        as the index holds them; None when it begins none of them, or several. Records the zone may not see neither
        make a prefix ambiguous nor cost its look-up anything: one range of the primary key."""
        where, params = scoring.zone_sql(zone)
        rows = self.store.index.query(
            "SELECT memory_id FROM records WHERE memory_id >= ? AND memory_id < ?"
            + (f" AND {where}" if where else "")
            + " LIMIT 2",
            (ref, ref + "g", *params),  # "g" sorts past every hex digit: the ids that begin with `ref` lie between
        )
        return rows[0][0] if len(rows) == 1 else None

    def bad_pages(self) -> list[BadPage]:
        """Pages skipped because they could not be read as records (file and one-line reason)."""
        return self.store.index.bad_pages()


@dataclass(frozen=True, slots=True)
class Listed:
    """A record as a listing names it (`zone_listing`): its id, page, title, category and creation time (ISO)."""

    memory_id: str
    path: str
    title: str
    category: str
    created_at: str


# A record to score: an index row (`_COLUMNS`), or the same columns read from its page (`_entry_row`).
_Row = sqlite3.Row | dict[str, Any]
_COLUMNS = (
    "memory_id, path, title, content, canonical_key, recall, category, trust_zone, sensitivity_tier, tier, status,"
    " last_accessed_at, reinforcement, confidence, expires_at"
)


def _score(
    row: _Row, terms: list[str], weights: dict[str, float], zone: TrustZone, now: datetime
) -> tuple[Ranked | None, bool]:
    """A record (an index row, or `_entry_row` of a page) as a result for `zone`, or None when it is not returned
    (not active, expired, no lexical match, hidden from the zone, below the floor); and whether it is a match the
    zone may not see (the owner's hidden_by_zone)."""
    if row["status"] != Status.active.value:
        return None, False
    if row["expires_at"] and parse_iso(row["expires_at"]) <= now:
        return None, False  # past its expiry: never returned, even before decay archives it (SPEC §4)
    key = searched_key(row["canonical_key"], row["title"], row["content"])
    rterms = scoring.term_set(f"{row['title']} {row['content']} {key.replace('-', ' ')} {row['recall']}")
    sem = scoring.semantic(terms, weights, rterms)
    if sem <= 0:
        return None, False
    if not scoring.zone_allows(zone, TrustZone(row["trust_zone"]), SensitivityTier(row["sensitivity_tier"])):
        return None, True
    score = scoring.Score(
        sem,
        scoring.freshness(parse_iso(row["last_accessed_at"]), now),
        scoring.reinforcement_score(row["reinforcement"]),
        float(row["confidence"]),
    )
    if not scoring.returnable(score):
        return None, False
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
    return ((-round(score.total, 6), row["memory_id"]), result), False


def _entry_row(page: str, entry: Entry) -> dict[str, Any]:
    """The `_COLUMNS` of a record read from its page, as its index row holds them (`index_schema.record_row`)."""
    return {
        "memory_id": entry.memory_id,
        "path": page,
        "title": entry.title,
        "content": entry.content,
        "canonical_key": entry.canonical_key,
        "recall": " ".join(entry.recall),
        "category": entry.category.value,
        "trust_zone": entry.trust_zone.value,
        "sensitivity_tier": entry.sensitivity_tier.value,
        "tier": entry.tier.value,
        "status": entry.status.value,
        "last_accessed_at": iso(entry.last_accessed_at),
        "reinforcement": entry.reinforcement,
        "confidence": entry.confidence,
        "expires_at": iso(entry.expires_at) if entry.expires_at else None,
    }


def _excerpt(content: str, limit: int = 280) -> str:
    flat = " ".join(content.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

"""Reading: retrieving records (ranked within a trust zone, previews across zones) and what the desk browses (the
category listings, a wiki file's text). The score and zone visibility are policy in `scoring.py`."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from . import scoring
from .errors import BadInput
from .index import BadPage
from .models import Receipt, SensitivityTier, Tier, TrustZone, parse_iso, utc
from .pages import MAX_LEDGER_BYTES, read_text
from .receipts import make_receipt
from .store import Store
from .text import sha256_hex
from .validate import parse_enum, validate_actor

# ((-score, memory_id), the result as the receipt shows it): sorted, best first.
Ranked = tuple[tuple[float, str], dict[str, Any]]


class RetrieveOps:
    def __init__(self, store: Store) -> None:
        self.store = store

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
        matches the zone may not see). status: ok | reject (empty_query,
        invalid_trust_zone). Writes (last_accessed_at, receipts) only when record_access is True.
        """
        now = utc(now)
        actor = validate_actor(actor)
        zone_e = parse_enum(TrustZone, zone)
        if zone_e is None:
            return make_receipt("retrieve", "reject", now, actor, {"reason": "invalid_trust_zone", "value": str(zone)})
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
            "result_count": len(ranked),
            "preview": not record_access,
        }
        if actor.startswith("human:"):
            # How many matches the zone may not see is for the owner previewing a zone (the desk's zone switch, a
            # person on the command line). An agent is never told: the count says that something it may not read
            # matches its words, which is itself a leak.
            details["hidden_by_zone"] = hidden
        receipt = make_receipt("retrieve", "ok", now, actor, details)
        if not record_access or not ranked:
            return receipt
        with self.store.writing():
            for _, r in ranked:
                try:
                    entry = self.store.load(r["memory_id"])
                except BadInput:
                    continue
                entry.last_accessed_at = now
                entry.strength = 1.0
                self.store.save(entry, r["page"])
            self.store.record(receipt)
        return receipt

    def _rank(self, terms: list[str], zone: TrustZone, now: datetime) -> tuple[list[Ranked], int]:
        total = int(self.store.index.scalar("SELECT count(*) FROM records") or 0)
        freq = {t: self.store.index.doc_freq(t) for t in terms}
        weights = {t: scoring.idf(n, total) for t, n in freq.items()}
        common = frozenset(t for t, n in freq.items() if n * 2 > total)  # in more than half of the records
        ids = self.store.index.fts_candidates(terms, common=common)
        if not ids:
            return [], 0
        ranked: list[Ranked] = []
        hidden = 0
        rows = self.store.index.rows_for(
            ids,
            "status='active'",
            (),
            "memory_id, path, title, content, canonical_key, recall, category, trust_zone, sensitivity_tier, tier,"
            " last_accessed_at, reinforcement, confidence, expires_at",
        )
        for row in rows:
            if row["expires_at"] and parse_iso(row["expires_at"]) <= now:
                continue  # past its expiry: never returned, even before decay archives it (SPEC §4)
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
            raise BadInput(f"{rel} does not exist") from None
        except OSError as exc:
            raise BadInput(f"{rel}: {getattr(exc, 'strerror', None) or exc}") from None

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

    def memory_id_at(self, page: str) -> str | None:
        """The memory id of an entry page path, if it is indexed."""
        return self.store.index.scalar("SELECT memory_id FROM records WHERE path=?", (page,))

    def category_of(self, memory_id: str) -> str | None:
        return self.store.index.scalar("SELECT category FROM records WHERE memory_id=?", (memory_id,))

    def bad_pages(self) -> list[BadPage]:
        """Pages skipped because they could not be read as records (file and one-line reason)."""
        return self.store.index.bad_pages()


def _excerpt(content: str, limit: int = 280) -> str:
    flat = " ".join(content.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

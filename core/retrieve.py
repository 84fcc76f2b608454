"""Retrieving records: ranking within a trust zone, previews across zones. A mixin over BaseEngine (composed into
api.Engine)."""

from __future__ import annotations

from datetime import datetime

from . import scoring
from .engine import _enum, validate_actor
from .errors import BadInput
from .models import Receipt, SensitivityTier, Tier, TrustZone, parse_iso, utc
from .receipts import make_receipt
from .text import sha256_hex


class RetrieveOps:
    """Mixin over BaseEngine."""


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
        return {z.value: self.retrieve(query, zone=z, limit=limit, now=now, actor="human:preview", record_access=False) for z in TrustZone}


def _excerpt(content: str, limit: int = 280) -> str:
    flat = " ".join(content.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

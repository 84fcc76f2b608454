"""Retrieval policy: zone eligibility and the score formula (SPEC §4 retrieve). Pure functions.

Terms are the text module's tokens with only plurals folded (`text.stem(..., plural_only=True)`): "deploys" finds
"deploy", while the terms stay close to what the person typed. A query's terms are its tokens as looked up (`tokens(...,
query=True)`: a Chinese, Japanese or Korean query by its pairs of letters), a record's as indexed (its single letters
and pairs both), so a query's pair is among the terms of every record that holds it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from .models import SensitivityTier, TrustZone
from .text import stem, tokens

W_SEMANTIC, W_FRESHNESS, W_REINFORCEMENT, W_CONFIDENCE = 0.45, 0.20, 0.20, 0.15
MIN_SCORE = 0.12
FRESHNESS_HALF_LIFE_DAYS = 60.0


def zone_allows(zone: TrustZone, origin_zone: TrustZone, sensitivity: SensitivityTier) -> bool:
    """The eligibility table: what a requester in `zone` may see of a record."""
    if zone is TrustZone.private_self:
        return True
    if zone is TrustZone.trusted_collaborator:
        return sensitivity is not SensitivityTier.do_not_export
    return sensitivity is SensitivityTier.public_safe and origin_zone is not TrustZone.private_self


def zone_sql(zone: TrustZone) -> tuple[str | None, tuple[str, ...]]:
    """`zone_allows` as an SQL condition on the index's `trust_zone` and `sensitivity_tier` columns, with its
    parameters; None when the zone may see every record. The IDF weights are counted over the records it keeps."""
    if zone is TrustZone.private_self:
        return None, ()
    if zone is TrustZone.trusted_collaborator:
        return "sensitivity_tier <> ?", (SensitivityTier.do_not_export.value,)
    return "sensitivity_tier = ? AND trust_zone <> ?", (SensitivityTier.public_safe.value, TrustZone.private_self.value)


def term_set(text: str) -> set[str]:
    return {stem(t, plural_only=True) for t in tokens(text)}


def query_terms(query: str) -> list[str]:
    seen: dict[str, None] = {}
    for t in tokens(query, query=True):
        seen.setdefault(stem(t, plural_only=True), None)
    return list(seen)


def idf(doc_freq: int, total: int) -> float:
    return math.log(1.0 + (total + 1) / (doc_freq + 1))


def semantic(query: list[str], weights: dict[str, float], record_terms: set[str]) -> float:
    """IDF-weighted coverage of the query's distinct terms by the record's terms, in [0, 1]."""
    total = sum(weights[t] for t in query)
    if total <= 0:
        return 0.0
    return sum(weights[t] for t in query if t in record_terms) / total


def freshness(last_accessed: datetime, now: datetime) -> float:
    days = max(0.0, (now - last_accessed).total_seconds() / 86400.0)
    return 0.5 ** (days / FRESHNESS_HALF_LIFE_DAYS)


def reinforcement_score(n: int) -> float:
    return min(1.0, math.log2(n + 1) / 4.0)


@dataclass(frozen=True)
class Score:
    semantic: float
    freshness: float
    reinforcement: float
    confidence: float

    @property
    def total(self) -> float:
        return (
            W_SEMANTIC * self.semantic
            + W_FRESHNESS * self.freshness
            + W_REINFORCEMENT * self.reinforcement
            + W_CONFIDENCE * self.confidence
        )

    def components(self) -> dict[str, float]:
        return {
            "semantic": round(self.semantic, 4),
            "freshness": round(self.freshness, 4),
            "reinforcement": round(self.reinforcement, 4),
            "confidence": round(self.confidence, 4),
        }


def returnable(score: Score) -> bool:
    """A record with no lexical match is never returned, however fresh; nor is one below the floor."""
    return score.semantic > 0 and score.total >= MIN_SCORE

"""An incoming statement: the fields capture derives from what it was given (text, title, category, canonical_key,
zone, sensitivity, memory_class, expires_at, source_type, source_ref, confidence, recall, tags, quiz_question,
actor, at, evidence_grade; origin_created_at only for an item an import brings). A conflict record keeps it as its
`incoming` side, so a record can be made from it when the capture happens or when a person takes the incoming side
of a conflict."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .models import Entry, iso, parse_iso
from .receipts import canonical_json
from .store import Store

Incoming = dict[str, Any]


def entry_from_incoming(store: Store, inc: Incoming, now: datetime) -> Entry:
    """A new record for an incoming statement, with an id derived from it (so a rebuilt wiki gets the same ids)."""
    return Entry(
        memory_id=store.new_id(canonical_json(inc) + "|" + iso(now)),
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
        content=inc["text"].replace("\x00", ""),  # a statement held before capture dropped NUL bytes (never text)
        origin_created_at=inc.get("origin_created_at"),
    )


def incoming_at(inc: Incoming) -> str | None:
    """When the incoming statement was captured, as the pair decision reads it (`relation.Statement.at`): the origin
    record's created_at for an item an import brings (`origin_created_at`), else the capture's own time."""
    return inc.get("origin_created_at") or inc.get("at")

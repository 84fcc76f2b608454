"""Evidence grading: pure functions of an entry (or its source) and `now`. No I/O."""

from __future__ import annotations

from datetime import datetime

from .models import Entry, EvidenceGrade, SourceType


def initial_grade(source_type: SourceType, source_ref: str | None) -> EvidenceGrade:
    """The grade a capture starts with: high for what the user stated or confirmed, medium with a named source,
    low without one."""
    if source_type in (SourceType.user_stated, SourceType.user_confirmed):
        return EvidenceGrade.high
    return EvidenceGrade.medium if source_ref else EvidenceGrade.low


def regrade(entry: Entry, now: datetime) -> EvidenceGrade:
    """high = human-verified or user-stated; medium = named source and < 30 days old; low = no source or > 90 days
    since last verification. Between 30 and 90 days with a source the grade is kept (never raised by time)."""
    if entry.verified is not None or entry.source_type in (SourceType.user_stated, SourceType.user_confirmed):
        return EvidenceGrade.high
    if not entry.source_ref:
        return EvidenceGrade.low
    age = (now - entry.created_at).total_seconds() / 86400.0
    if age < 30:
        return EvidenceGrade.medium
    since_verified = (now - (entry.verified.at if entry.verified else entry.created_at)).total_seconds() / 86400.0
    if since_verified > 90:
        return EvidenceGrade.low
    return entry.evidence_grade if entry.evidence_grade is not EvidenceGrade.high else EvidenceGrade.medium

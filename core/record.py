"""The memory record (SPEC §3): the frontmatter of `entries/<slug>.md`, validated by a pydantic model.

Importable from `models.py` as before; kept apart so that reading the index never imports pydantic.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .models import (
    ENTRY_SCHEMA,
    Category,
    EvidenceGrade,
    MemoryClass,
    SensitivityTier,
    SourceType,
    Status,
    Tier,
    TrustZone,
    iso,
    single_line,
    utc,
)


class Verified(BaseModel):
    model_config = ConfigDict(extra="forbid")
    by: str
    at: datetime

    _utc = field_validator("at")(lambda cls, v: utc(v))


_single_line = single_line


class Entry(BaseModel):
    """Frontmatter of `entries/<slug>.md`. `content` and `notes` are carried in the page body."""

    model_config = ConfigDict(extra="allow", use_enum_values=False)

    schema_version: str = ENTRY_SCHEMA
    memory_id: str
    canonical_key: str
    title: str
    category: Category = Category.fact
    memory_class: MemoryClass = MemoryClass.durable
    trust_zone: TrustZone = TrustZone.private_self
    sensitivity_tier: SensitivityTier = SensitivityTier.normal
    status: Status = Status.active
    tier: Tier = Tier.warm
    confidence: float = Field(0.7, ge=0.0, le=1.0)
    strength: float = Field(1.0, ge=0.0)
    reinforcement: int = Field(1, ge=0)
    evidence_grade: EvidenceGrade = EvidenceGrade.medium
    source_type: SourceType = SourceType.agent_inferred
    source_ref: str | None = None
    verified: Verified | None = None
    created_at: datetime
    updated_at: datetime
    last_accessed_at: datetime
    expires_at: datetime | None = None
    superseded_by: str | None = None
    merged_into: str | None = None
    recall: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    quiz_question: str | None = None
    actor: str | None = None
    normalized_content_sha256: str = ""
    # body, not frontmatter
    content: str = Field("", exclude=True)
    notes: list[str] = Field(default_factory=list, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _derived_keys(cls, data: Any) -> Any:
        # `notes_count` describes the page body (see frontmatter()); it is recomputed on every write, never stored.
        if isinstance(data, dict) and "notes_count" in data:
            data = {k: v for k, v in data.items() if k != "notes_count"}
        return data

    @field_validator("created_at", "updated_at", "last_accessed_at", "expires_at")
    @classmethod
    def _tz(cls, v: datetime | None) -> datetime | None:
        return utc(v) if v is not None else None

    @field_validator("title", "canonical_key")
    @classmethod
    def _one_line(cls, v: str) -> str:
        v = _single_line(v)
        if not v:
            raise ValueError("must not be empty")
        return v

    @field_validator("source_ref", "quiz_question", "superseded_by", "merged_into")
    @classmethod
    def _opt_one_line(cls, v: str | None) -> str | None:
        return _single_line(v) or None if v is not None else None

    @field_validator("recall", "tags")
    @classmethod
    def _list_one_line(cls, v: list[str]) -> list[str]:
        return [s for s in (_single_line(str(x)) for x in v) if s]

    @property
    def partition(self) -> tuple[str, str, str]:
        return (self.canonical_key, self.trust_zone.value, self.sensitivity_tier.value)

    def frontmatter(self) -> dict[str, Any]:
        """Ordered frontmatter mapping with enums and datetimes as plain strings."""
        data = self.model_dump(mode="json", exclude={"content", "notes"})
        for key in ("created_at", "updated_at", "last_accessed_at", "expires_at"):
            value = getattr(self, key)
            data[key] = iso(value) if value is not None else None
        if self.verified is not None:
            data["verified"] = {"by": self.verified.by, "at": iso(self.verified.at)}
        # Optional keys that are unset stay out of the page to keep it readable.
        for key in ("merged_into", "quiz_question", "actor"):
            if data.get(key) is None:
                data.pop(key, None)
        # How many `- ` lines at the end of the body are notes: it makes reading the body back exact whatever the
        # content holds (a `## Notes` heading, list items, `---` lines). See pages.split_body.
        data["notes_count"] = len(self.notes)
        return data

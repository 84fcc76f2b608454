"""The memory record (SPEC §3): the frontmatter of `entries/<slug>.md`, checked by a hand-written validator.

Importable from `models.py` as before. A plain class rather than a pydantic model: importing pydantic and building
the model cost ~100 ms of every `memkeeper capture` (docs/decisions.md, "The record model is a plain class").

`Entry.model_validate(mapping)` (and `Entry(**fields)`, the same check) accepts what the pages hold and what the
engine builds:
- strings for the text fields (`title` and `canonical_key` made one line and non-empty; `source_ref`,
  `quiz_question`, `superseded_by`, `merged_into` made one line, empty read as unset);
- enum members or their values for the enum fields;
- numbers, or strings holding one, for `confidence` (0 to 1), `strength` (0 or more) and `reinforcement` (a whole
  number, 0 or more); never booleans, never NaN or infinities;
- datetimes, dates (midnight) or ISO 8601 strings for the times, all made UTC (`utc`);
- lists of strings for `recall` and `tags` (each made one line, empty ones dropped) and `notes`;
- any other key, kept in `extra` in the order given and written back after the known ones (`frontmatter`).
`notes_count` describes the page body and is dropped (see `frontmatter`). Anything else raises `EntryError`,
naming the field.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime
from enum import Enum
from typing import Any

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


class EntryError(ValueError):
    """A record field that does not validate. `loc` names it (`tags.1` for an item of a list, `verified.at` for a
    key of `verified`, empty for the mapping itself); `msg` says why, in one line."""

    def __init__(self, loc: str, msg: str) -> None:
        super().__init__(f"{loc}: {msg}" if loc else msg)
        self.loc = loc
        self.msg = msg

    @property
    def field(self) -> str:
        """The top-level key at fault (`tags` for `tags.1`), or empty."""
        return self.loc.split(".", 1)[0]


_MISSING: Any = object()


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _str(loc: str, v: Any) -> str:
    if type(v) is str:
        return v
    if isinstance(v, str):
        return str.__str__(v)  # a str subclass (a str-valued enum member): its plain text
    raise EntryError(loc, f"must be a string, not {_shown(v)}")


def _one_line(loc: str, v: Any) -> str:
    text = single_line(_str(loc, v))
    if not text:
        raise EntryError(loc, "must not be empty")
    return text


def _schema(loc: str, v: Any) -> str:
    """Only the schema this engine writes: a page of another version (a newer memkeeper's) would be read by the
    wrong rules and, at its next write, rewritten as this one, losing what that version means."""
    name = _str(loc, v)
    if name != ENTRY_SCHEMA:
        raise EntryError(loc, f"unknown schema {name!r} (this memkeeper reads {ENTRY_SCHEMA})")
    return name


def _opt_one_line(loc: str, v: Any) -> str | None:
    return None if v is None else (single_line(_str(loc, v)) or None)


def _opt_str(loc: str, v: Any) -> str | None:
    return None if v is None else _str(loc, v)


def _number(loc: str, v: Any) -> float:
    if type(v) is float or (isinstance(v, int | float) and not isinstance(v, bool)):
        out = float(v)
    elif isinstance(v, str):
        try:
            out = float(v)
        except ValueError:
            raise EntryError(loc, f"must be a number, not {_shown(v)}") from None
    else:
        raise EntryError(loc, f"must be a number, not {_shown(v)}")
    if not math.isfinite(out):
        raise EntryError(loc, f"must be a finite number, not {_shown(v)}")
    return out


def _unit(loc: str, v: Any) -> float:
    out = _number(loc, v)
    if not 0.0 <= out <= 1.0:
        raise EntryError(loc, f"must be between 0 and 1, not {_shown(v)}")
    return out


def _non_negative(loc: str, v: Any) -> float:
    out = _number(loc, v)
    if out < 0.0:
        raise EntryError(loc, f"must be 0 or more, not {_shown(v)}")
    return out


def _count(loc: str, v: Any) -> int:
    if type(v) is int:
        out = v
    elif isinstance(v, bool):
        raise EntryError(loc, f"must be a whole number, not {_shown(v)}")
    elif isinstance(v, int):
        out = int(v)
    else:
        number = _number(loc, v) if isinstance(v, float | str) else math.nan
        if not number.is_integer():
            raise EntryError(loc, f"must be a whole number, not {_shown(v)}")
        out = int(number)
    if out < 0:
        raise EntryError(loc, f"must be 0 or more, not {_shown(v)}")
    return out


def _datetime(loc: str, v: Any) -> datetime:
    if isinstance(v, datetime):
        return utc(v)
    if isinstance(v, date):
        return datetime(v.year, v.month, v.day, tzinfo=UTC)
    if isinstance(v, str):
        try:
            return utc(datetime.fromisoformat(v.strip()))
        except ValueError:
            pass
    raise EntryError(loc, f"not a date-time (ISO 8601, like 2026-01-31T09:00:00Z): {_shown(v)}")


def _opt_datetime(loc: str, v: Any) -> datetime | None:
    return None if v is None else _datetime(loc, v)


def _enum(kind: type[Enum]) -> Any:
    members = kind._value2member_map_
    allowed = ", ".join(str(m) for m in members)

    def check(loc: str, v: Any) -> Enum:
        if type(v) is kind:
            return v
        member = members.get(v) if isinstance(v, str) else None
        if member is None:
            raise EntryError(loc, f"{_shown(v)} is not one of {allowed}")
        return member

    return check


def _strings(loc: str, v: Any) -> list[str]:
    if not isinstance(v, list | tuple):
        raise EntryError(loc, f"must be a list of strings, not {_shown(v)}")
    return [_str(f"{loc}.{i}", x) for i, x in enumerate(v)]


def _one_line_strings(loc: str, v: Any) -> list[str]:
    return [s for s in (single_line(x) for x in _strings(loc, v)) if s]


def _verified(loc: str, v: Any) -> Verified | None:
    if v is None or type(v) is Verified:
        return v
    if not isinstance(v, dict):
        raise EntryError(loc, f"must be a mapping with by and at, not {_shown(v)}")
    return Verified._from(v, loc)


class Verified:
    """Who confirmed a record and when (`verified:` in the frontmatter)."""

    __slots__ = ("by", "at")
    by: str
    at: datetime

    def __init__(self, by: str, at: datetime | str) -> None:
        self.by = _str("by", by)
        self.at = _datetime("at", at)

    @classmethod
    def _from(cls, data: dict[Any, Any], loc: str = "verified") -> Verified:
        for key in ("by", "at"):
            if key not in data:
                raise EntryError(f"{loc}.{key}", "required")
        for key in data:
            if key not in ("by", "at"):
                raise EntryError(f"{loc}.{key}", "unknown key (verified holds by and at)")
        self = object.__new__(cls)
        self.by = _str(f"{loc}.by", data["by"])
        self.at = _datetime(f"{loc}.at", data["at"])
        return self

    def to_dict(self) -> dict[str, str]:
        return {"by": self.by, "at": iso(self.at)}

    def __eq__(self, other: object) -> bool:
        if type(other) is not Verified:
            return NotImplemented
        return self.by == other.by and self.at == other.at

    __hash__ = None  # type: ignore[assignment]  # mutable, like the record

    def __repr__(self) -> str:
        return f"Verified(by={self.by!r}, at={self.at!r})"


# The record's fields, in page order: (name, check, default). A default of _MISSING marks a required field; a list
# default is copied for each record.
_FIELDS: tuple[tuple[str, Any, Any], ...] = (
    ("schema_version", _schema, ENTRY_SCHEMA),
    ("memory_id", _str, _MISSING),
    ("canonical_key", _one_line, _MISSING),
    ("title", _one_line, _MISSING),
    ("category", _enum(Category), Category.fact),
    ("memory_class", _enum(MemoryClass), MemoryClass.durable),
    ("trust_zone", _enum(TrustZone), TrustZone.private_self),
    ("sensitivity_tier", _enum(SensitivityTier), SensitivityTier.normal),
    ("status", _enum(Status), Status.active),
    ("tier", _enum(Tier), Tier.warm),
    ("confidence", _unit, 0.7),
    ("strength", _non_negative, 1.0),
    ("reinforcement", _count, 1),
    ("evidence_grade", _enum(EvidenceGrade), EvidenceGrade.medium),
    ("source_type", _enum(SourceType), SourceType.agent_inferred),
    ("source_ref", _opt_one_line, None),
    ("verified", _verified, None),
    ("created_at", _datetime, _MISSING),
    ("updated_at", _datetime, _MISSING),
    ("last_accessed_at", _datetime, _MISSING),
    ("expires_at", _opt_datetime, None),
    ("superseded_by", _opt_one_line, None),
    ("merged_into", _opt_one_line, None),
    # On a record an import made: the created_at of the origin record it came from (the envelope item's), when the
    # statement was captured where it was first said; unset on every other record (`statement_at`).
    ("origin_created_at", _opt_datetime, None),
    ("recall", _one_line_strings, []),
    ("tags", _one_line_strings, []),
    ("quiz_question", _opt_one_line, None),
    ("actor", _opt_str, None),
    ("normalized_content_sha256", _str, ""),
    # the page body, not frontmatter
    ("content", _str, ""),
    ("notes", _strings, []),
)
_NAMES = frozenset(name for name, _, _ in _FIELDS)
# Keys that describe the page, recomputed on every write, never stored: `notes_count` (see Entry.frontmatter).
_DERIVED = frozenset({"notes_count"})


class Entry:
    """Frontmatter of `entries/<slug>.md`. `content` and `notes` are carried in the page body; `extra` holds the
    frontmatter keys the engine does not know, in page order."""

    __slots__ = (*(name for name, _, _ in _FIELDS), "extra")

    schema_version: str
    memory_id: str
    canonical_key: str
    title: str
    category: Category
    memory_class: MemoryClass
    trust_zone: TrustZone
    sensitivity_tier: SensitivityTier
    status: Status
    tier: Tier
    confidence: float
    strength: float
    reinforcement: int
    evidence_grade: EvidenceGrade
    source_type: SourceType
    source_ref: str | None
    verified: Verified | None
    created_at: datetime
    updated_at: datetime
    last_accessed_at: datetime
    expires_at: datetime | None
    superseded_by: str | None
    merged_into: str | None
    origin_created_at: datetime | None
    recall: list[str]
    tags: list[str]
    quiz_question: str | None
    actor: str | None
    normalized_content_sha256: str
    content: str
    notes: list[str]
    extra: dict[str, Any]

    def __init__(self, **data: Any) -> None:
        self._fill(data)

    @classmethod
    def model_validate(cls, data: Any) -> Entry:
        """The record a mapping describes (a page's frontmatter, maybe with `content` and `notes`). Raises
        EntryError naming the first field, in page order, that does not validate."""
        if isinstance(data, cls):
            return data
        if not isinstance(data, dict):
            raise EntryError("", f"a record must be a mapping, not {_shown(data)}")
        self = object.__new__(cls)
        self._fill(data)
        return self

    def _fill(self, data: dict[Any, Any]) -> None:
        setter = object.__setattr__
        for name, check, default in _FIELDS:
            value = data.get(name, _MISSING)
            if value is _MISSING:
                if default is _MISSING:
                    raise EntryError(name, "required")
                value = default.copy() if type(default) is list else default
            else:
                value = check(name, value)
            setter(self, name, value)
        extra: dict[str, Any] = {}
        if not _NAMES.issuperset(data):
            for key, value in data.items():
                if key in _NAMES or key in _DERIVED:
                    continue
                if not isinstance(key, str):
                    raise EntryError(str(key), "frontmatter keys must be strings")
                _check_extra(key, value)
                extra[key] = value
        self.extra = extra

    def touch(self, now: datetime) -> None:
        """An access at `now`, or a person's act on the record (SPEC §4 decay): strength back to 1.0 and the last
        access at `now` — never moved back. A clock behind the record's (a skewed agent, a `--now` in the past)
        would otherwise make decay take a record read or decided on today for one unread since then, and archive it.
        """
        self.strength = 1.0
        if now > self.last_accessed_at:
            self.last_accessed_at = now

    @property
    def partition(self) -> tuple[str, str, str]:
        return (self.canonical_key, self.trust_zone.value, self.sensitivity_tier.value)

    def frontmatter(self) -> dict[str, Any]:
        """Ordered frontmatter mapping with enums and datetimes as plain strings (JSON values only): the known keys
        in field order, the unknown ones after them in page order, then `notes_count`."""
        data: dict[str, Any] = {
            "schema_version": self.schema_version,
            "memory_id": self.memory_id,
            "canonical_key": self.canonical_key,
            "title": self.title,
            "category": self.category.value,
            "memory_class": self.memory_class.value,
            "trust_zone": self.trust_zone.value,
            "sensitivity_tier": self.sensitivity_tier.value,
            "status": self.status.value,
            "tier": self.tier.value,
            "confidence": self.confidence,
            "strength": self.strength,
            "reinforcement": self.reinforcement,
            "evidence_grade": self.evidence_grade.value,
            "source_type": self.source_type.value,
            "source_ref": self.source_ref,
            "verified": self.verified.to_dict() if self.verified is not None else None,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
            "last_accessed_at": iso(self.last_accessed_at),
            "expires_at": iso(self.expires_at) if self.expires_at is not None else None,
            "superseded_by": self.superseded_by,
        }
        # Optional keys that are unset stay out of the page to keep it readable.
        if self.merged_into is not None:
            data["merged_into"] = self.merged_into
        if self.origin_created_at is not None:
            data["origin_created_at"] = iso(self.origin_created_at)
        data["recall"] = list(self.recall)
        data["tags"] = list(self.tags)
        if self.quiz_question is not None:
            data["quiz_question"] = self.quiz_question
        if self.actor is not None:
            data["actor"] = self.actor
        data["normalized_content_sha256"] = self.normalized_content_sha256
        for key, value in self.extra.items():
            data[key] = _plain(value)
        # How many `- ` lines at the end of the body are notes: it makes reading the body back exact whatever the
        # content holds (a `## Notes` heading, list items, `---` lines). See pages.split_body.
        data["notes_count"] = len(self.notes)
        return data

    def model_copy(self, *, deep: bool = False) -> Entry:
        """A copy; with `deep`, one that shares no list, mapping or `verified` with this record."""
        new = object.__new__(Entry)
        setter = object.__setattr__
        for name in self.__slots__:
            setter(new, name, getattr(self, name))
        if deep:
            new.recall, new.tags, new.notes = list(self.recall), list(self.tags), list(self.notes)
            if self.verified is not None:
                new.verified = Verified(self.verified.by, self.verified.at)
            if self.extra:
                import copy

                new.extra = copy.deepcopy(self.extra)
            else:
                new.extra = {}
        return new

    def __eq__(self, other: object) -> bool:
        if type(other) is not Entry:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"Entry({fields})"


def _check_extra(key: str, value: Any) -> None:
    """An unknown key's value must be writable back as the page's YAML: bytes (a `!!binary` value) only as text."""
    if isinstance(value, bytes | bytearray):
        try:
            value.decode("utf-8")
        except UnicodeDecodeError:
            raise EntryError(key, "binary value is not UTF-8 text") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_extra(key, v)
            _check_extra(key, k)
    elif isinstance(value, list | tuple | set | frozenset):
        for v in value:
            _check_extra(key, v)


def _plain(value: Any) -> Any:
    """An unknown key's value as JSON: dates as ISO text (UTC written `Z`), sets and tuples as lists, bytes as text,
    non-finite floats as null, mapping keys as text. (What pydantic's JSON dump wrote, so pages written before the
    record model was a plain class are written back the same.)"""
    if value is None or isinstance(value, str | bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, datetime):
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bytes | bytearray):
        return value.decode("utf-8")
    if isinstance(value, dict):
        return {_plain_key(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return value


def _plain_key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    plain = _plain(key)
    return plain if isinstance(plain, str) else str(key)

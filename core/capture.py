"""Capturing statements: normalisation, secret scanning, consolidation with a restatement, conflicts with a
contradiction. Contradiction policy lives in `contradiction.py`, keys in `keys.py`, grading in `grading.py`."""

from __future__ import annotations

import functools
import sqlite3
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from . import keys
from .conflicts import ConflictQueue
from .grading import initial_grade
from .incoming import Incoming, entry_from_incoming
from .keys import suppression_key
from .models import (
    Category,
    MemoryClass,
    Receipt,
    SensitivityTier,
    SourceType,
    TrustZone,
    iso,
    parse_iso,
    single_line,
    utc,
)
from .paths import slugify
from .receipts import make_receipt
from .secrets import FieldValue, find_in_fields, redact_fields, secret_details
from .store import Store, file_sig
from .text import has_temporal_cue, is_low_signal, jaccard, normalize, sha256_hex, token_set, tokens
from .validate import parse_enum, validate_actor
from .verification import VerificationQueue
from .views import Views

if TYPE_CHECKING:
    from .contradiction import PairVerdict, Statement

MAX_CAPTURE_BYTES = 64 * 1024
DEFAULT_EXPIRY_DAYS = 14


class CaptureOps:
    """Capture is given the conflict queue (to open a conflict, and to skip pairs a person said are both valid) and
    the verification queue (a denied statement's suppression key)."""

    def __init__(self, store: Store, views: Views, conflicts: ConflictQueue, verification: VerificationQueue) -> None:
        self.store = store
        self.views = views
        self.conflicts = conflicts
        self.verification = verification

    def capture(
        self,
        text: str,
        *,
        now: datetime,
        actor: str = "agent:cli",
        key: str | None = None,
        title: str | None = None,
        category: str | Category = "fact",
        zone: str | TrustZone = "private_self",
        sensitivity: str | SensitivityTier = "normal",
        memory_class: str | MemoryClass | None = None,
        expires_at: datetime | str | None = None,
        ttl_days: float | None = None,
        source_type: str | SourceType = "agent_inferred",
        source_ref: str | None = None,
        confidence: float = 0.7,
        recall: list[str] | None = None,
        tags: list[str] | None = None,
        quiz_question: str | None = None,
        redact: bool = False,
    ) -> Receipt:
        """Capture a statement. Receipt status: captured | consolidated | conflict | suppressed | drop | reject.

        Details always carry `reason` for drop/reject; otherwise memory_id, class, canonical_key, page and
        content_sha256 (and conflict_id for a conflict).
        """
        now = utc(now)
        actor = validate_actor(actor)

        def refuse(status: str, reason: str, **extra: Any) -> Receipt:
            return make_receipt("capture", status, now, actor, {"reason": reason, **extra})

        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:  # undecodable bytes on the command line arrive as lone surrogates
            return refuse("reject", "invalid_text", detail="text is not valid UTF-8")
        if size > MAX_CAPTURE_BYTES:
            return refuse("reject", "oversize_text", limit_bytes=MAX_CAPTURE_BYTES)
        zone_e = parse_enum(TrustZone, zone)
        if zone_e is None:
            return refuse("reject", "invalid_trust_zone", value=str(zone))
        sens_e = parse_enum(SensitivityTier, sensitivity)
        if sens_e is None:
            return refuse("reject", "invalid_sensitivity_tier", value=str(sensitivity))
        cls_e = None
        if memory_class is not None:
            cls_e = parse_enum(MemoryClass, memory_class)
            if cls_e is None:
                return refuse("reject", "invalid_memory_class", value=str(memory_class))
        cat_e = parse_enum(Category, category)
        if cat_e is None:
            return refuse("reject", "invalid_category", value=str(category))
        src_e = parse_enum(SourceType, source_type)
        if src_e is None:
            return refuse("reject", "invalid_source_type", value=str(source_type))
        if not 0.0 <= float(confidence) <= 1.0:
            return refuse("reject", "invalid_confidence", value=confidence)
        if is_low_signal(text):
            return refuse("drop", "low_signal_short_text")
        # Every free-text field is scanned as given (the key before it is slugified).
        fields: dict[str, FieldValue] = {"text": text, "title": title, "key": key, "source_ref": source_ref,
                                         "recall": recall, "tags": tags, "quiz_question": quiz_question}
        found = find_in_fields(fields)
        redacted: list[str] = []
        if found:
            if not redact:
                return refuse("reject", "secret_detected", **secret_details(found))
            clean, redacted = redact_fields(fields)
            # Redaction keeps each field's shape (a string stays a string, a list a list, None None).
            text, title, key, source_ref, recall, tags, quiz_question = cast("dict[str, Any]", clean).values()
        exp: datetime | None = None
        if expires_at is not None:
            try:
                exp = parse_iso(expires_at)
            except ValueError:
                return refuse("reject", "invalid_expires_at", value=str(expires_at))
            if exp <= now:  # an expiry already past would store a record retrieval never returns
                return refuse("reject", "expires_in_past", value=str(expires_at))
        elif ttl_days is not None:
            exp = now + timedelta(days=float(ttl_days))
        if cls_e is None:
            cls_e = MemoryClass.expiring if (exp is not None or has_temporal_cue(text)) else MemoryClass.durable
        if cls_e is MemoryClass.expiring and exp is None:
            exp = now + timedelta(days=DEFAULT_EXPIRY_DAYS)
        if key and not slugify(key, fallback=""):
            # An explicit key carries authority (consolidation, conflicts): one that slugs to nothing would be a
            # constant shared by unrelated records.
            return refuse("reject", "invalid_key", value=key)
        content = text.strip()
        given_title = single_line(title or "")
        canonical_key = keys.canonical_key(key, given_title, content)
        normalized = keys.normalized_fields(text=text, content=content, title=title, stored_title=given_title, key=key,
                                        canonical_key=canonical_key, tags=tags, recall=recall, source_ref=source_ref,
                                        quiz_question=quiz_question)
        title = given_title or keys.title_from(content)
        noted = {"normalized": normalized} if normalized else {}
        incoming = dict(
            text=content, title=title, category=cat_e.value, canonical_key=canonical_key, zone=zone_e.value,
            sensitivity=sens_e.value, memory_class=cls_e.value, expires_at=iso(exp) if exp else None,
            source_type=src_e.value, source_ref=source_ref, confidence=float(confidence), recall=recall or [],
            tags=tags or [], quiz_question=quiz_question, actor=actor, at=iso(now),
            evidence_grade=initial_grade(src_e, source_ref).value,
        )
        # Compare with the candidates before taking the lock. Under the lock, if nothing was committed in between
        # (log.md unchanged: every commit appends to it), that answer stands; otherwise the comparison runs again,
        # and only what changed in between is classified anew (the pair verdicts are cached). Either way the lock
        # is held for milliseconds, not for the detection.
        seen = file_sig(self.store.root / "log.md")
        early = self.find_match(incoming)

        with self.store.writing():
            sup_key = suppression_key(source_ref, content)
            if self.verification.is_suppressed(sup_key):
                receipt = make_receipt(
                    "capture", "suppressed", now, actor,
                    {"reason": "denied_suppression_key", "suppression_key": sup_key, "canonical_key": canonical_key,
                     **noted},
                )
                return self.store.record(receipt)
            match = early if file_sig(self.store.root / "log.md") == seen and seen is not None else self.find_match(incoming)
            if match is not None and match[0] == "restatement":
                return self._consolidate_into(match[1], incoming, now, actor, redacted, noted)
            if match is not None:
                return self.conflicts.open_conflict(match[1], incoming, match[0], match[2], now, actor, details=noted)
            entry = entry_from_incoming(self.store, incoming, now)
            page = self.store.save(entry, self.store.new_page(title, zone_e.value, sens_e.value, fallback=canonical_key))
            receipt = make_receipt(
                "capture", "captured", now, actor,
                {
                    "memory_id": entry.memory_id, "class": cls_e.value, "canonical_key": canonical_key, "page": page,
                    "content_sha256": sha256_hex(normalize(content)), "category": cat_e.value, "zone": zone_e.value,
                    "sensitivity": sens_e.value, **({"redacted": redacted} if redacted else {}), **noted,
                },
            )
            self.store.record(receipt, entry.evidence_grade.value)
            self.views.refresh(now)
            return receipt

    def partition_rows(self, key: str, zone: str, sensitivity: str,
                       statuses: tuple[str, ...] = ("active",)) -> list[sqlite3.Row]:
        marks = ",".join("?" * len(statuses))
        return self.store.index.query(
            f"SELECT * FROM records WHERE canonical_key=? AND trust_zone=? AND sensitivity_tier=? AND status IN ({marks})",
            (key, zone, sensitivity, *statuses),
        )

    def find_match(self, inc: Incoming) -> tuple[str, str, str] | None:
        """Compare an incoming statement with active same-partition records that share its key or topic.

        Returns (relation, memory_id, reason) for the best restatement, else the first conflict, else None.
        """
        # Imported on first use, not to dodge a cycle: compiling the detector's patterns costs tens of milliseconds
        # that commands which never capture should not pay at start-up.
        from .contradiction import Statement

        new = Statement(inc["text"], inc["category"], inc["canonical_key"], inc["source_ref"])
        rows = {r["memory_id"]: r for r in self.partition_rows(inc["canonical_key"], inc["zone"], inc["sensitivity"])}
        for r in self.store.index.topic_candidates(
            tokens(inc["text"]), "status='active' AND trust_zone=? AND sensitivity_tier=?", (inc["zone"], inc["sensitivity"])
        ):
            rows.setdefault(r["memory_id"], r)
        inc_sha = sha256_hex(normalize(inc["text"]))
        restatements: list[tuple[float, str, str]] = []
        conflicts: list[tuple[int, str, str, str]] = []
        inc_tokens = token_set(inc["text"])
        for mid, row in rows.items():
            same_key = row["canonical_key"] == inc["canonical_key"]
            # Cheap pre-filter before the detector: records about the same thing share a good part of their words.
            if not same_key and jaccard(token_set(row["content"]), inc_tokens) < 0.25:
                continue
            old = Statement(row["content"], row["category"], row["canonical_key"], row["source_ref"])
            if not _is_related(old, new):
                continue
            verdict = _classify_pair(old, new)
            if verdict.relation == "unrelated":
                continue
            if verdict.relation == "restatement":
                if row["canonical_key"] != inc["canonical_key"]:
                    continue  # consolidation stays inside one partition (key + zone + tier)
                score = jaccard(token_set(row["content"]), token_set(inc["text"])) + (1 if row["canonical_key"] == inc["canonical_key"] else 0)
                restatements.append((-score, mid, verdict.reason))
            elif not same_key and verdict.relation != "direct_negation":
                # Across different keys a differing name is usually the subject ("Atlas staging…" / "Orbit
                # staging…"), not a competing value; only a plain reversal of the same words is a contradiction.
                continue
            elif not self.conflicts.is_compatible_pair(sha256_hex(normalize(row["content"])), inc_sha):
                conflicts.append((0 if same_key else 1, mid, verdict.relation, verdict.reason))
        if restatements:
            _, mid, reason = sorted(restatements)[0]
            return ("restatement", mid, reason)
        if conflicts:
            _, mid, relation, reason = sorted(conflicts)[0]
            return (relation, mid, reason)
        return None

    def _consolidate_into(self, memory_id: str, inc: Incoming, now: datetime, actor: str, redacted: list[str],
                          noted: dict[str, Any] | None = None) -> Receipt:
        entry = self.store.load(memory_id)
        before = {"reinforcement": entry.reinforcement, "confidence": entry.confidence}
        entry.reinforcement += 1
        entry.confidence = round(min(0.99, max(entry.confidence, inc["confidence"]) + 0.04), 4)
        entry.strength = 1.0
        entry.updated_at = now
        entry.last_accessed_at = now
        if normalize(inc["text"]) != normalize(entry.content):
            entry.notes.append(f"Consolidated note ({iso(now)}): {' '.join(inc['text'].split())}")
        else:
            entry.notes.append(f"Consolidated note ({iso(now)}): restated by {actor}")
        for phrase in inc.get("recall") or []:
            if phrase not in entry.recall:
                entry.recall.append(phrase)
        page = self.store.save(entry)
        receipt = make_receipt(
            "capture", "consolidated", now, actor,
            {
                "memory_id": entry.memory_id, "class": entry.memory_class.value, "canonical_key": entry.canonical_key,
                "page": page, "content_sha256": sha256_hex(normalize(inc["text"])), "before": before,
                "reinforcement": entry.reinforcement, "confidence": entry.confidence,
                **({"redacted": redacted} if redacted else {}), **(noted or {}),
            },
        )
        self.store.record(receipt, entry.evidence_grade.value)
        self.views.refresh(now)
        return receipt


@functools.lru_cache(maxsize=16384)
def _is_related(old: Statement, new: Statement) -> bool:
    from .contradiction import is_related  # on first use (see find_match)

    return is_related(old, new)


@functools.lru_cache(maxsize=16384)
def _classify_pair(old: Statement, new: Statement) -> PairVerdict:
    """contradiction.classify_pair, cached: it is a pure function of the two (frozen) statements."""
    from .contradiction import classify_pair  # on first use (see find_match)

    return classify_pair(old, new)

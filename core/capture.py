"""Capturing statements: normalisation, secret scanning, consolidation with a restatement, conflicts with a
contradiction. Relation policy lives in `relation/` (with `slots/` and `subjects.py`), keys in `keys.py`,
grading in `grading.py`.

Candidates come from what a statement is about (`subjects.search_words` through the index, best first, bounded),
plus the records under the same key when an agent gave one. `relation.relate` decides each pair; capture
consolidates only a restatement, holds anything that differs about the same subject in the Conflicts queue (typed or
`possible`), and lists up to three related records in the receipt. Agents may declare what they know:
`supersedes`, `contradicts` (a conflict for a person) or `restates` (consolidation into that record).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from . import keys
from .conflicts import ConflictQueue, Hold
from .grading import initial_grade
from .incoming import Incoming, entry_from_incoming, incoming_at
from .index_schema import statement_at
from .keys import suppression_key
from .models import (
    Category,
    Entry,
    MemoryClass,
    Receipt,
    SensitivityTier,
    SourceType,
    TrustZone,
    at,
    iso,
    parse_iso,
    single_line,
    utc,
)
from .paths import slugify
from .receipts import make_receipt
from .scoring import zone_allows
from .secrets import FieldValue, find_in_fields, redact_fields, secret_details
from .store import Store, file_sig, read_only_line
from .temporal import has_temporal_cue, until_day
from .text import content_sha256, is_low_signal, lf_line_endings, normalize, sha256_hex
from .until import OutOfRange, read_until
from .validate import parse_enum, validate_actor
from .verification import VerificationQueue
from .views import Views

if TYPE_CHECKING:
    from .relation import Relation

MAX_CAPTURE_BYTES = 64 * 1024
# The one-line fields (title, key, source ref, each recall phrase and tag) and the quiz question. Only the text was
# capped: a 1 MB source ref made a page next to the 1 MiB page limit, so that every restatement of it failed (each
# adds a note naming its source), and a 500 KB title made hot.md and every retrieve receipt as large.
MAX_FIELD_BYTES = 1024
MAX_SOURCE_BYTES = 2048  # a URL with its query string
MAX_QUESTION_BYTES = 4096
MAX_LIST_ITEMS = 64
DEFAULT_EXPIRY_DAYS = 14
CANDIDATES = 12  # records compared with each capture (best subject matches first); bounds the cost per capture
SEARCH_WORDS = 8  # subject words a capture looks candidates up with
RELATED_IN_RECEIPT = 3
CLAIM_SEARCHES = 8  # claims of a note of several (`relation.decision.claims`) looked up one by one, at most
CLAIM_WORDS = 4  # subject words each of them is looked up with
CLAIM_CANDIDATES = 3  # records each of them adds, at most


@dataclass(frozen=True)
class Candidate:
    memory_id: str
    row: sqlite3.Row
    relation: Relation
    same_key: bool  # both under the key an agent gave

    def related(self) -> dict[str, Any]:
        rel = self.relation
        label = rel.conflict_type if rel.kind == "conflict" and rel.conflict_type else rel.kind
        return {
            "memory_id": self.memory_id,
            "title": self.row["title"],
            "relation": label,
            "score": round(float(rel.score), 3),
        }


def _field_problem(value: object, limit: int) -> str | None:
    """ "invalid" for a string that is not UTF-8 (undecodable bytes on the command line arrive as lone surrogates),
    "oversize" for one longer than `limit` bytes, else None (a value of another type is the caller's to refuse)."""
    if not isinstance(value, str):
        return None
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:
        return "invalid"
    return "oversize" if size > limit else None


class CaptureOps:
    """Capture is given the conflict queue (to open a conflict, and to skip pairs a person said are both valid) and
    the verification queue (a denied statement's suppression key)."""

    def __init__(self, store: Store, views: Views, conflicts: ConflictQueue, verification: VerificationQueue) -> None:
        self.store = store
        self.views = views
        self.conflicts = conflicts
        self.verification = verification
        # The time zone a date the actor types is read in (`Engine.person_zone`, given by the engine); UTC alone.
        self.person_zone: Callable[[str], str] = lambda actor: "UTC"

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
        supersedes: str | None = None,
        contradicts: str | None = None,
        restates: str | None = None,
        cancelled: Callable[[], bool] | None = None,
        origin_created_at: datetime | None = None,
    ) -> Receipt:
        """Capture a statement. Receipt status: captured | consolidated | conflict | suppressed | drop | reject.

        Details always carry `reason` for drop/reject; otherwise memory_id, class, canonical_key, page,
        content_sha256 and `related` (up to 3 records about the same subject: memory_id, title, relation, score),
        and conflict_id for a conflict. `supersedes` / `contradicts` / `restates` (a memory id, at most one of them)
        declare how the statement relates to a record: the first two open a conflict for a person, the last
        consolidates into that record; the receipt's `declared` says which.

        Only the records the capturing zone may see (`scoring.zone_allows`) decide the status. Compared with a
        record it may not see (its own partition, when the zone may not read that back), the statement is stored
        (`captured`); a contradiction of such a record opens a conflict between the two records, named in the
        receipt's `opened` (conflict_id, memory_id, conflict_type, reason).

        `expires_at`: a datetime, taken as it is, or text as a person or an agent typed it, read by
        `until.read_until` (a date alone lasts through that day in the person's time zone, `7d` is a week from now).

        `cancelled` (an MCP client's cancel) is asked while the capture waits for the write lock: once true, the
        wait stops with `lockfile.WaitCancelled` and nothing is written. Once the lock is held the capture completes.

        `origin_created_at` (an import's item: its origin record's created_at, never after `now`) is when the
        statement was captured where it was first said. The pair decision reads its days by it instead of by `now`
        (`relation.Statement.at`: "Parkrun, 5 Sep: 25:40" said on 6 Sep and imported in December reports a day gone
        by), and the record made keeps it, so that a later statement is compared with it the same way.
        """
        now = at(now)
        actor = validate_actor(actor)

        def refuse(status: str, reason: str, **extra: Any) -> Receipt:
            return make_receipt("capture", status, now, actor, {"reason": reason, **extra})

        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:  # undecodable bytes on the command line arrive as lone surrogates
            return refuse("reject", "invalid_text", detail="text is not valid UTF-8")
        if size > MAX_CAPTURE_BYTES:
            return refuse(
                "reject",
                "oversize_text",
                size_bytes=size,
                limit_bytes=MAX_CAPTURE_BYTES,
                detail=f"the text is {size} bytes; the limit is {MAX_CAPTURE_BYTES} bytes",
            )
        if isinstance(key, str) and not key.strip():
            # A key of spaces says no more than an empty one: no key (the key is derived), as `key=""` always was.
            key = None
        # (field, how the refusal names it, value, limit)
        for name, what, value, limit in (
            ("title", "the title", title, MAX_FIELD_BYTES),
            ("key", "the key", key, MAX_FIELD_BYTES),
            ("source_ref", "the source_ref", source_ref, MAX_SOURCE_BYTES),
            ("quiz_question", "the quiz_question", quiz_question, MAX_QUESTION_BYTES),
            *(("recall", f"recall phrase {n}", v, MAX_FIELD_BYTES) for n, v in enumerate(recall or [], 1)),
            *(("tags", f"tag {n}", v, MAX_FIELD_BYTES) for n, v in enumerate(tags or [], 1)),
        ):
            bad = _field_problem(value, limit)
            if bad == "invalid":
                return refuse("reject", "invalid_text", field=name, detail=f"{name} is not valid UTF-8")
            if bad == "oversize":
                size = len(cast("str", value).encode("utf-8"))
                return refuse(
                    "reject",
                    "oversize_field",
                    field=name,
                    size_bytes=size,
                    limit_bytes=limit,
                    detail=f"{what} is {size} bytes; the limit is {limit} bytes",
                )
        for name, what, values in (("recall", "recall phrases", recall), ("tags", "tags", tags)):
            if values is not None and len(values) > MAX_LIST_ITEMS:
                return refuse(
                    "reject",
                    "oversize_field",
                    field=name,
                    size_items=len(values),
                    limit_items=MAX_LIST_ITEMS,
                    detail=f"{len(values)} {what} were given; the limit is {MAX_LIST_ITEMS}",
                )
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
        if src_e is SourceType.user_confirmed and not actor.startswith("human:"):
            # A person's confirmation: an agent claiming it would skip the verification queue (SPEC §5.2: an agent
            # confirming its own claim is refused), on every front door alike.
            return refuse("refused", "human_actor_required", source_type=src_e.value)
        if not 0.0 <= float(confidence) <= 1.0:
            return refuse("reject", "invalid_confidence", value=confidence)
        declared = {
            name: str(v).strip()
            for name, v in (("supersedes", supersedes), ("contradicts", contradicts), ("restates", restates))
            if v is not None
        }
        if len(declared) > 1:
            return refuse("reject", "one_declared_relation", declared=sorted(declared))
        if any(not v for v in declared.values()):
            return refuse("reject", "unknown_memory_id", value="")
        if is_low_signal(text):
            return refuse("drop", "low_signal_short_text")
        # Every free-text field is scanned as given (the key before it is slugified).
        fields: dict[str, FieldValue] = {
            "text": text,
            "title": title,
            "key": key,
            "source_ref": source_ref,
            "recall": recall,
            "tags": tags,
            "quiz_question": quiz_question,
        }
        found = find_in_fields(fields)
        redacted: list[str] = []
        if found:
            if not redact:
                return refuse("reject", "secret_detected", **secret_details(found))
            clean, redacted = redact_fields(fields)
            # Redaction keeps each field's shape (a string stays a string, a list a list, None None).
            text, title, key, source_ref, recall, tags, quiz_question = cast("dict[str, Any]", clean).values()
        exp: datetime | None = None
        if isinstance(expires_at, datetime):
            exp = utc(expires_at)
            if exp <= now:  # an expiry already past would store a record retrieval never returns
                return refuse("reject", "expires_in_past", value=iso(exp))
        elif expires_at is not None:
            # As the person or agent typed it: a date alone lasts through that day of the person's time zone.
            try:
                until = read_until(str(expires_at), now=now, zone=lambda: self.person_zone(actor), day_end=True)
            except ValueError as exc:
                said = {"detail": str(exc)} if isinstance(exc, OutOfRange) else {}
                return refuse("reject", "invalid_expires_at", value=str(expires_at), **said)
            if until.at <= now:
                return refuse("reject", "expires_in_past", value=str(expires_at), detail=until.not_after(now))
            exp = until.at
        elif ttl_days is not None:
            exp = now + timedelta(days=float(ttl_days))
        if cls_e is MemoryClass.durable and exp is not None:
            # Asked for both, the record was stored as durable and expired anyway (retrieval stopped returning it,
            # decay archived it): which one was meant is the caller's to say.
            return refuse("reject", "durable_with_expiry", value=iso(exp))
        durable_given = cls_e is MemoryClass.durable  # said so, not only the default (a restatement keeps the record)
        if cls_e is None:
            cls_e = MemoryClass.expiring if (exp is not None or has_temporal_cue(text, now)) else MemoryClass.durable
        if cls_e is MemoryClass.expiring and exp is None and (day := until_day(text, now)) is not None:
            # "on parental leave until 2027-03-01": through that day of the person's time zone, not 14 days
            exp = read_until(day.isoformat(), now=now, zone=lambda: self.person_zone(actor), day_end=True).at
        if cls_e is MemoryClass.expiring and exp is None:
            exp = now + timedelta(days=DEFAULT_EXPIRY_DAYS)
        if key and not slugify(key, fallback=""):
            # An explicit key carries authority (consolidation, conflicts): one that slugs to nothing would be a
            # constant shared by unrelated records.
            return refuse("reject", "invalid_key", value=key)
        # Line endings are not content: a note captured from Windows (CRLF) or an old Mac (CR) is stored as the
        # same note from Unix. Hashes and the restatement match already ignored them (whitespace is collapsed).
        # Nor is a NUL byte: a page holding one is read as a torn write and never loaded (`pagefmt.parse_entry`).
        content = lf_line_endings(text).replace("\x00", "").strip()
        given_title = single_line(title or "")
        canonical_key = keys.canonical_key(key, given_title, content)
        normalized = keys.normalized_fields(
            text=text,
            content=content,
            title=title,
            stored_title=given_title,
            key=key,
            canonical_key=canonical_key,
            tags=tags,
            recall=recall,
            source_ref=source_ref,
            quiz_question=quiz_question,
        )
        title = given_title or keys.title_from(content)
        noted = {"normalized": normalized} if normalized else {}
        incoming = dict(
            text=content,
            title=title,
            category=cat_e.value,
            canonical_key=canonical_key,
            zone=zone_e.value,
            sensitivity=sens_e.value,
            memory_class=cls_e.value,
            expires_at=iso(exp) if exp else None,
            source_type=src_e.value,
            source_ref=source_ref,
            confidence=float(confidence) + 0.0,  # (-0.0 + 0.0 is 0.0: "-0" was written "Confidence: -0.00")
            recall=recall or [],
            tags=tags or [],
            quiz_question=quiz_question,
            actor=actor,
            at=iso(now),
            evidence_grade=initial_grade(src_e, source_ref).value,
        )
        if origin_created_at is not None:
            # (only then: the incoming side of every other capture, from which its memory id is derived, is as it was)
            incoming["origin_created_at"] = iso(min(utc(origin_created_at), now))
        # Compare with the candidates before taking the lock. Under the lock, if nothing was committed in between
        # (log.md unchanged: every commit appends to it; and the index unchanged: a commit appends its log.md row
        # before its pages reach the index, so a comparison made in between read the new log.md beside the old
        # index), that answer stands; otherwise the comparison runs again (the pair verdicts are cached). Either way
        # the lock is held for milliseconds, not for the detection.
        explicit = bool(key)
        seen = (file_sig(self.store.root / "log.md"), self.store.index.generation())
        early = self.find_related(incoming, given_title, explicit)

        with self.store.writing(cancelled=cancelled):
            sup_key = suppression_key(source_ref, content)
            now_sig = (file_sig(self.store.root / "log.md"), self.store.index.generation())
            same = now_sig == seen and seen[0] is not None
            candidates = early if same else self.find_related(incoming, given_title, explicit)
            related = [c.related() for c in _ranked(candidates)[:RELATED_IN_RECEIPT]]
            if self.verification.is_suppressed(sup_key, zone_e, content=content, source_ref=source_ref):
                receipt = make_receipt(
                    "capture",
                    "suppressed",
                    now,
                    actor,
                    {
                        "reason": "denied_suppression_key",
                        "suppression_key": sup_key,
                        "canonical_key": canonical_key,
                        "related": related,
                        **noted,
                    },
                )
                return self.store.record(receipt)
            if declared:
                ((how, target),) = declared.items()
                return self._declared(
                    how,
                    target,
                    incoming,
                    given_title,
                    now,
                    actor,
                    redacted,
                    noted,
                    related,
                    candidates,
                    durable_given=durable_given,
                )
            # Only records the capturing zone may see decide the outcome. A record it may not see (its own partition
            # when the zone may not read it back: outside_contact's `normal` records) never makes a capture
            # `consolidated` or `conflict`: the status would tell the agent what the partition holds. The statement
            # is then stored whatever those records say, and a contradiction of one still reaches the person, as a
            # conflict between the two stored records.
            shown = [c for c in candidates if _visible(zone_e, c.row)]
            unseen = [c for c in candidates if not _visible(zone_e, c.row)]
            decision, best = self._decide(incoming, shown, explicit)
            if decision == "consolidate" and best is not None:
                return self._consolidate_into(
                    best.memory_id,
                    incoming,
                    now,
                    actor,
                    redacted,
                    {**noted, "related": related, "reason": best.relation.reason},
                    durable_given=durable_given,
                    given_title=given_title,
                )
            if decision == "conflict" and best is not None:
                rel = best.relation
                possible = rel.kind == "possible"
                return self.conflicts.open_conflict(
                    best.memory_id,
                    incoming,
                    "possible" if possible else str(rel.conflict_type),
                    rel.reason,
                    now,
                    actor,
                    details={**noted, "related": related},
                    confidence=rel.confidence,
                    suspected=rel.conflict_type if possible else None,
                )
            entry = entry_from_incoming(self.store, incoming, now)
            # In a partition its zone may not read, the page name depends on nothing else there (`Store.new_page`).
            blind = not zone_allows(zone_e, zone_e, sens_e)
            unique = entry.memory_id[4:12] if blind else None
            page = self.store.save(
                entry, self.store.new_page(title, zone_e.value, sens_e.value, fallback=canonical_key, unique=unique)
            )
            opened = self._hold_unseen(incoming, entry.memory_id, page, unseen, explicit, now, actor)
            receipt = make_receipt(
                "capture",
                "captured",
                now,
                actor,
                {
                    "memory_id": entry.memory_id,
                    "class": cls_e.value,
                    # (when it stops being retrieved: the default 14 days, the until day the text names, or as given)
                    **({"expires_at": iso(entry.expires_at)} if entry.expires_at else {}),
                    "canonical_key": canonical_key,
                    "page": page,
                    "content_sha256": sha256_hex(normalize(content)),
                    "category": cat_e.value,
                    "zone": zone_e.value,
                    "sensitivity": sens_e.value,
                    **({"redacted": redacted} if redacted else {}),
                    **noted,
                    "related": related,
                    **({"opened": opened} if opened else {}),
                },
            )
            self.store.record(receipt, entry.evidence_grade.value)
            self.views.refresh(now)
            return receipt

    def partition_rows(
        self, key: str, zone: str, sensitivity: str, statuses: tuple[str, ...] = ("active",)
    ) -> list[sqlite3.Row]:
        marks = ",".join("?" * len(statuses))
        return self.store.index.query(
            f"SELECT * FROM records WHERE canonical_key=? AND trust_zone=? AND sensitivity_tier=? AND status IN ({marks})",
            (key, zone, sensitivity, *statuses),
        )

    def find_related(self, inc: Incoming, given_title: str = "", explicit_key: bool = False) -> list[Candidate]:
        """Active records of the incoming statement's zone and tier that are about its subject, each with its
        relation to it. Candidates (`_candidate_rows`): the records that hold its text, those that share the
        subject's words (the index, best first, at most CANDIDATES), and the records under the same key when the
        agent gave the key."""
        # Imported on first use: reading the word lists costs milliseconds that commands which never capture
        # should not pay at start-up.
        from .relation import Statement, relate

        rows = self._candidate_rows(inc, given_title, explicit_key)
        # A candidate's page edited in place since the index read it (an editor that saves without a rename leaves
        # the directory as it was, so no rescan noticed) is read again first: the statement is weighed against what
        # the page says now, never merged into or held against text the page no longer holds.
        stale = self.store.index.changed(sorted({r["path"] for r in rows.values()}))
        if stale:
            self.store.index.sync_paths(stale)
            rows = self._candidate_rows(inc, given_title, explicit_key)
        new = Statement(inc["text"], given_title, inc["category"], inc["source_ref"], incoming_at(inc))
        out = []
        for mid, row in rows.items():
            same_key = explicit_key and row["canonical_key"] == inc["canonical_key"]
            old = Statement(row["content"], row["title"] or "", row["category"], row["source_ref"], statement_at(row))
            out.append(Candidate(mid, row, relate(old, new, same_key=same_key), same_key))
        return out

    def _candidate_rows(
        self,
        inc: Incoming,
        given_title: str,
        explicit_key: bool,
    ) -> dict[str, sqlite3.Row]:
        """The active records of the statement's zone and tier it is compared with: those that already hold its
        text (whatever the search ranks first: a hundred notes that differ only in a number share every other
        word), the records under its key when the agent gave the key, and the best subject matches."""
        from .relation.decision import claims
        from .subjects import search_words

        zone, sens = inc["zone"], inc["sensitivity"]
        rows: dict[str, sqlite3.Row] = {}
        for r in self.store.index.query(
            "SELECT * FROM records WHERE content_sha=? AND trust_zone=? AND sensitivity_tier=? AND status='active'",
            (content_sha256(inc["title"], inc["text"]), zone, sens),
        ):
            rows[r["memory_id"]] = r
        if explicit_key:
            for r in self.partition_rows(inc["canonical_key"], zone, sens):
                rows.setdefault(r["memory_id"], r)
        words = search_words(inc["text"], given_title, limit=SEARCH_WORDS)
        for r in self.store.index.subject_candidates(words, zone, sens, limit=CANDIDATES):
            rows.setdefault(r["memory_id"], r)
        # A note of several claims is looked up claim by claim as well: its few heaviest words would stand for
        # some of its claims only. Bounded: at most CLAIM_SEARCHES claims, CLAIM_CANDIDATES records each.
        parts = claims(inc["text"])
        if len(parts) > 1:
            for part in parts[:CLAIM_SEARCHES]:
                part_words = search_words(part, "", limit=CLAIM_WORDS)
                for r in self.store.index.subject_candidates(part_words, zone, sens, limit=CLAIM_CANDIDATES):
                    rows.setdefault(r["memory_id"], r)
        return rows

    def _decide(self, inc: Incoming, found: list[Candidate], explicit_key: bool) -> tuple[str, Candidate | None]:
        """consolidate (a restatement) | conflict (typed or possible) | new. A pair a person called "both valid" is
        never held again."""
        restated = [c for c in found if c.relation.kind == "restatement" and (c.same_key or not explicit_key)]
        if restated:
            return "consolidate", max(restated, key=lambda c: (c.same_key, c.relation.score, c.memory_id))
        held = self._held(inc, found)
        return ("conflict", held) if held is not None else ("new", None)

    def _hold_unseen(
        self,
        inc: Incoming,
        memory_id: str,
        page: str,
        unseen: list[Candidate],
        explicit_key: bool,
        now: datetime,
        actor: str,
    ) -> dict[str, Any] | None:
        """After a capture stored a statement as a new record: when it contradicts a record its zone may not see,
        open a conflict between the two records, as a contradiction declared after the fact does (the incoming
        side names the record just stored). What the receipt's `opened` says of it, or None. A restatement of such
        a record is left as it is: `consolidate` merges the two later."""
        decision, best = self._decide(inc, unseen, explicit_key)
        if decision != "conflict" or best is None:
            return None
        rel = best.relation
        possible = rel.kind == "possible"
        hold = Hold(
            best.memory_id,
            "possible" if possible else str(rel.conflict_type),
            rel.reason,
            rel.confidence,
            rel.conflict_type if possible else None,
        )
        c, duplicate = self.conflicts.hold_stored(hold, {**inc, "memory_id": memory_id, "page": page}, now, actor)
        return {
            "conflict_id": c.conflict_id,
            "memory_id": best.memory_id,
            "conflict_type": c.conflict_type,
            "reason": c.reason,
            **({"duplicate": True} if duplicate else {}),
        }

    def _held(self, inc: Incoming, found: list[Candidate]) -> Candidate | None:
        """The record among `found` the statement most contradicts (a typed conflict before a possible one), leaving
        out the pairs a person called both valid."""
        inc_sha = sha256_hex(normalize(inc["text"]))
        held = [
            c
            for c in found
            if c.relation.is_conflict
            and not self.conflicts.is_compatible_pair(sha256_hex(normalize(c.row["content"])), inc_sha)
        ]
        if not held:
            return None
        return max(
            held,
            key=lambda c: (
                c.relation.kind == "conflict",
                c.same_key,
                c.relation.confidence,
                c.relation.score,
                c.memory_id,
            ),
        )

    def contradicted(self, inc: Incoming, exclude: set[str]) -> Hold | None:
        """The active record of the statement's zone and tier it most contradicts, other than those in `exclude`,
        as a conflict to hold it in. For a record a person kept from a conflict (`ConflictQueue.resolve_conflict`):
        its text was compared at its capture only, with the records of that time."""
        found = [c for c in self.find_related(inc, inc.get("title") or "") if c.memory_id not in exclude]
        best = self._held(inc, found)
        if best is None:
            return None
        rel = best.relation
        possible = rel.kind == "possible"
        return Hold(
            best.memory_id,
            "possible" if possible else str(rel.conflict_type),
            rel.reason,
            rel.confidence,
            rel.conflict_type if possible else None,
        )

    def _declared(
        self,
        how: str,
        target: str,
        inc: Incoming,
        given_title: str,
        now: datetime,
        actor: str,
        redacted: list[str],
        noted: dict[str, Any],
        related: list[dict[str, Any]],
        candidates: Sequence[Candidate] = (),
        *,
        durable_given: bool = False,
    ) -> Receipt:
        """An agent said how its statement relates to a record. supersedes / contradicts: a conflict for a person
        to arbitrate (nothing is resolved here). restates: consolidation into that record.

        An agent often declares after the fact: it captured the statement, read `related` in the receipt, and
        captures the same statement again with the relation. Then the statement is already a record, and the
        conflict's incoming side names it (`incoming.memory_id`): taking it keeps that record instead of making a
        second copy of it (`ConflictQueue.resolve_conflict`)."""
        from .errors import BadInput
        from .relation import Statement, relate

        def reject(reason: str, **extra: Any) -> Receipt:
            return make_receipt("capture", "reject", now, actor, {"reason": reason, "declared": how, **extra})

        try:
            mid = self.store.resolve_id(target)
            entry = self.store.load(mid)
        except BadInput:
            return reject("unknown_memory_id", value=target)
        if entry.status.value != "active":
            return reject("not_active", memory_id=mid, status=entry.status.value)
        if entry.trust_zone.value != inc["zone"] or entry.sensitivity_tier.value != inc["sensitivity"]:
            return reject(
                "partition_mismatch",
                memory_id=mid,
                detail=f"{mid} is in {entry.trust_zone.value}/{entry.sensitivity_tier.value}; the "
                f"statement is in {inc['zone']}/{inc['sensitivity']}",
            )
        declared = {"relation": how, "memory_id": mid}
        same_text = normalize(entry.content) == normalize(inc["text"])
        # Each side with when it was captured, as `find_related` compares them: two reports of days gone by are two
        # occasions, so a declared supersession or contradiction of one by the other is the agent's word alone, its
        # type the declared one, its reason naming no difference the detection does not hold.
        rel = relate(
            Statement(
                entry.content,
                entry.title,
                entry.category.value,
                entry.source_ref,
                iso(entry.origin_created_at or entry.created_at),
            ),
            Statement(inc["text"], given_title, inc["category"], inc["source_ref"], incoming_at(inc)),
            same_key=how == "restates",  # the agent says they are about one subject; is the claim the same?
        )
        if how == "restates":
            if not same_text and rel.kind != "restatement":
                # A consolidation keeps only that it happened: a statement that says anything else (another value,
                # a detail added, another subject) would be stored nowhere (SPEC §5.1: never merged silently).
                return reject(
                    "not_a_restatement",
                    memory_id=mid,
                    relation=rel.kind,
                    detail=f"{mid} does not say the same ({_why_not_the_same(rel)}); capture it without restates, "
                    "or declare supersedes or contradicts",
                )
            return self._consolidate_into(
                mid,
                inc,
                now,
                actor,
                redacted,
                {**noted, "declared": declared, "related": related},
                durable_given=durable_given,
                given_title=given_title,
            )
        if same_text:
            # A record cannot supersede or contradict its own statement: the conflict would hold one text twice.
            return reject(
                "same_statement",
                memory_id=mid,
                detail=f"{mid} already holds this statement; to replace it, capture the new statement with {how} {mid}",
            )
        if rel.kind == "conflict" and rel.conflict_type:
            ctype = rel.conflict_type
        else:
            ctype = "decision_supersession" if how == "supersedes" else "mutually_exclusive"
        reason = f"declared by {actor}: {how} {mid}" + (f" ({rel.reason})" if rel.is_conflict else "")
        stored = self._stored_copy(inc, candidates, exclude=mid)
        if stored is not None:
            inc = {**inc, "memory_id": stored, "page": self.store.page_of(stored)}
        return self.conflicts.open_conflict(
            mid,
            inc,
            ctype,
            reason,
            now,
            actor,
            details={**noted, "declared": declared, "related": related},
            confidence=1.0,
            declared=how,
        )

    def _stored_copy(self, inc: Incoming, candidates: Sequence[Candidate], exclude: str) -> str | None:
        """An active record of the statement's zone and tier that already holds its text (the newest), if any."""
        text = normalize(inc["text"])

        def holding(rows: Sequence[sqlite3.Row]) -> list[sqlite3.Row]:
            return [
                r
                for r in rows
                if r["memory_id"] != exclude
                and r["status"] == "active"
                and r["trust_zone"] == inc["zone"]
                and r["sensitivity_tier"] == inc["sensitivity"]
                and normalize(r["content"]) == text
            ]

        # The candidates hold every record with the statement's text and title (`_candidate_rows` asks the index
        # for them first), and those the subject search found with its text under another title.
        same = holding([c.row for c in candidates])
        if not same:
            return None
        return str(max(same, key=lambda r: (r["created_at"] or "", r["memory_id"]))["memory_id"])

    def _consolidate_into(
        self,
        memory_id: str,
        inc: Incoming,
        now: datetime,
        actor: str,
        redacted: list[str],
        noted: dict[str, Any] | None = None,
        *,
        durable_given: bool = False,
        given_title: str = "",
    ) -> Receipt:
        entry = self.store.load(memory_id)
        held = self.store.page_of(memory_id)
        if held is not None and self.store.read_only(held):
            # A restatement of a page made read-only by hand: the page is not replaced (`Store.save`), and the
            # statement it already holds is not stored twice. Refused with a receipt, so an import lists the item.
            return make_receipt(
                "capture",
                "reject",
                now,
                actor,
                {"reason": "read_only_page", "memory_id": memory_id, "page": held, "detail": read_only_line(held)},
            )
        before: dict[str, Any] = {"reinforcement": entry.reinforcement, "confidence": entry.confidence}
        entry.reinforcement += 1
        entry.confidence = round(min(0.99, max(entry.confidence, inc["confidence"]) + 0.04), 4)
        entry.updated_at = now
        entry.touch(now)
        renewed = _renewal(entry, inc, now, durable_given)
        if renewed is not None:
            before.update(
                memory_class=entry.memory_class.value, expires_at=(iso(entry.expires_at) if entry.expires_at else None)
            )
            entry.memory_class, entry.expires_at = renewed
        # Only the fact of the restatement is noted: a text that differs from the record is never appended to it.
        src = f" ({inc['source_ref']})" if inc.get("source_ref") else ""
        entry.notes.append(f"Consolidated note ({iso(now)}): restated by {actor}{src}")
        added = _recall_added(entry, inc.get("recall") or [], given_title)
        entry.recall += added
        page = self.store.save(entry)
        receipt = make_receipt(
            "capture",
            "consolidated",
            now,
            actor,
            {
                "memory_id": entry.memory_id,
                "class": entry.memory_class.value,
                "canonical_key": entry.canonical_key,
                "page": page,
                "content_sha256": sha256_hex(normalize(inc["text"])),
                "before": before,
                "reinforcement": entry.reinforcement,
                "confidence": entry.confidence,
                **(
                    {"expires_at": (iso(entry.expires_at) if entry.expires_at else None)} if renewed is not None else {}
                ),
                **({"recall_added": added} if added else {}),
                **({"redacted": redacted} if redacted else {}),
                **(noted or {}),
            },
        )
        self.store.record(receipt, entry.evidence_grade.value)
        self.views.refresh(now)
        return receipt


def _recall_added(entry: Entry, recall: Sequence[str], given_title: str) -> list[str]:
    """The phrases a restatement adds to the record's recall phrases: its own, and the title its agent gave when the
    record has another (two agents titled one sentence "Public API rate limit" and "Internal API rate limit": the
    second title was lost, and the record could not be found by it). A phrase the record already has as its title
    or a recall phrase (in any case) is not added again, and the list stays within the capture limit."""
    have = {normalize(p).casefold() for p in (entry.title, *entry.recall)}
    out: list[str] = []
    for phrase in (*recall, given_title):
        folded = normalize(phrase).casefold()
        if not folded or folded in have or len(entry.recall) + len(out) >= MAX_LIST_ITEMS:
            continue
        have.add(folded)
        out.append(phrase)
    return out


def _renewal(
    entry: Entry, inc: Incoming, now: datetime, durable_given: bool
) -> tuple[MemoryClass, datetime | None] | None:
    """What a restatement makes of an expiring record's class and expiry, or None when nothing changes.

    Stated again, a temporary fact holds at least as long as the restatement says: an expiry of its own, or, said
    without one, the default window from now (the record was temporary, and nothing says for how long it is
    now). Said to be durable (`--class durable`), it no longer expires. Before this, a restatement of a record
    past its expiry (not yet archived by decay) came back `consolidated` into a record that retrieve never returns:
    the agent was told its statement was kept, and nothing it could find held it."""
    if entry.memory_class is not MemoryClass.expiring:
        return None
    if durable_given:
        return MemoryClass.durable, None
    given = parse_iso(inc["expires_at"]) if inc.get("expires_at") else None
    until = given if given is not None else now + timedelta(days=DEFAULT_EXPIRY_DAYS)
    if entry.expires_at is not None and entry.expires_at >= until:
        return None
    return MemoryClass.expiring, until


def _visible(zone: TrustZone, row: sqlite3.Row) -> bool:
    """Whether the capturing zone may see a candidate record (the retrieve table, `scoring.zone_allows`)."""
    origin = parse_enum(TrustZone, row["trust_zone"])
    tier = parse_enum(SensitivityTier, row["sensitivity_tier"])
    return origin is not None and tier is not None and zone_allows(zone, origin, tier)


def _ranked(found: list[Candidate]) -> list[Candidate]:
    """Related records for a receipt: restatements and conflicts first, then possible conflicts, compatible records,
    and last the records that share much of the subject's words but that detection judged to be about another
    subject (`unrelated` at a subject score of at least SUBJECT_SURE): detection reads words, not meaning, and the
    agent that reads the receipt can tell "the Ferrous client timeout" from "the HTTP client timeout" and declare
    the relation (`contradicts`, `supersedes`, `restates`). Within each group, by subject score."""
    from .relation.decision import SUBJECT_SURE

    order = {"restatement": 0, "conflict": 0, "possible": 1, "compatible": 2, "unrelated": 3}
    return sorted(
        (c for c in found if c.relation.kind != "unrelated" or c.relation.score >= SUBJECT_SURE),
        key=lambda c: (order.get(c.relation.kind, 3), -c.relation.score, c.memory_id),
    )


def _why_not_the_same(rel: Relation) -> str:
    """Why a declared restatement is none, as the refusal says it. Read as declared (the agent says the two are
    about one subject), a pair that shares nothing was described as "same subject, adds …": a subject score under
    the relation's minimum says what it is, little in common."""
    from .relation.decision import SUBJECT_MIN

    if rel.score < SUBJECT_MIN:
        return f"little in common with it: subject score {rel.score:.2f}"
    return str(rel.reason or rel.kind)

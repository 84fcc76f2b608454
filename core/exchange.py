"""Exchange: export a trust zone as an envelope, import one (through capture, as agent-inferred statements)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from . import keys, scoring
from .capture import CaptureOps
from .errors import BadInput, Busy, ImportStopped, WriteFailed
from .index_schema import statement_at
from .ledgers import DENIALS, denials_in_force
from .lockfile import LockTimeout
from .models import UNRECORDED_STATUSES, Receipt, SensitivityTier, TrustZone, at, iso, parse_iso, single_line
from .pages import MAX_ENVELOPE_BYTES
from .receipts import canonical_json, make_receipt
from .secrets import find_secrets
from .shown import SHOWN_PERSON, shown_actor, shown_source
from .store import Store, disk_error_line
from .text import lf_line_endings, normalize, sha256_hex
from .validate import parse_enum, validate_actor, validate_named_actor

SCHEMA = "memkeeper.memory_update.v1"
# What `payload_sha256` covers. `header_sha256` covers every other field of the envelope but the two hashes (its
# schema, created_at and actor, and any field added by hand): between them, the whole envelope.
PAYLOAD_FIELDS = ("zone", "include_content", "items", "selected_ids", "source_receipt_sha256")
HASH_FIELDS = ("payload_sha256", "header_sha256")
# The header of an envelope exported before `header_sha256` existed: such an envelope still imports (its payload
# checked as before), and any other field in it, covered by no hash, refuses it.
UNHASHED_HEADER = frozenset({"schema", "created_at", "actor"})
IMPORT_CONFIDENCE_CAP = 0.7  # an imported statement never arrives above the capture default (SPEC §4)
# Where an import left an item: `import:<12 hex of the envelope's payload_sha256>:<origin id>`, as the source_ref of
# a record it made, or in the consolidation note of the record it restated.
IMPORT_MARK = re.compile(r"import:([0-9a-f]{12}):([^\s()\"]+)")
_ORIGIN_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
# How far an import's time may be before the envelope's export time (two machines' clocks) before it is refused.
CLOCK_SKEW = timedelta(hours=1)


class ExchangeOps:
    def __init__(self, store: Store, capture: CaptureOps) -> None:
        self.store = store
        self.capture = capture

    def export(
        self, *, zone: str | TrustZone, now: datetime, actor: str = "agent:cli", include_content: bool = False
    ) -> Receipt:
        """Write an export envelope to sync/outbound/. Receipt details: envelope path, count, payload_sha256, and
        expired_left_out: the records the zone would carry that are past their `expires_at` at `now` (retrieval never
        returns them, SPEC §4; decay has not archived them yet), which stay home.

        Each item carries its `expires_at` (an absolute ISO time, null for a durable record), so that an import keeps
        the record's own expiry, and its `created_at` (and, for a record an import made, its `origin_created_at`), so
        that an import knows when the statement was captured (`import_envelope`). An item whose content is carried
        also carries what finds and quizzes it: its recall phrases, tags and quiz question. A metadata-only item
        (outside_contact, paid_public, an export without content, a do_not_export record) carries none of them: they
        repeat the text.

        An envelope for any zone but `private_self` carries what that zone's MCP server shows (`core/shown.py`): a
        person as `human` (the envelope's `actor`) and a source that is a local path as its file's name. A
        `private_self` envelope (the person's own) carries both as they are."""
        now = at(now)
        actor = validate_actor(actor)
        zone_e = parse_enum(TrustZone, zone)
        if zone_e is None:
            return make_receipt("export", "reject", now, actor, {"reason": "invalid_trust_zone", "value": str(zone)})
        if include_content and zone_e in (TrustZone.outside_contact, TrustZone.paid_public):
            return make_receipt(
                "export", "reject", now, actor, {"reason": "content_not_allowed_for_zone", "zone": zone_e.value}
            )
        owner = zone_e is TrustZone.private_self  # a limited zone is shown neither logins nor local paths
        with self.store.writing():
            items = []
            expired = 0
            # A record the denials ledger denies stays home whatever its page says (one put back from an older copy
            # says active; `check` names it): the person's no is the ledger's (SPEC §5.2).
            denied = {m for ids in denials_in_force(self.store.root / DENIALS)[1].values() for m in ids}
            left_denied = 0
            for row in self.store.index.query("SELECT * FROM records WHERE status='active' ORDER BY memory_id"):
                sens = SensitivityTier(row["sensitivity_tier"])
                if sens is SensitivityTier.do_not_export and zone_e is not TrustZone.private_self:
                    continue
                if not scoring.zone_allows(zone_e, TrustZone(row["trust_zone"]), sens):
                    continue
                if row["memory_id"] in denied:
                    left_denied += 1  # (counted among what the zone may see: a limited zone learns of no other)
                    continue
                entry = self.store.index.entry(row)
                if entry.expires_at is not None and entry.expires_at <= now:
                    expired += 1  # past its expiry: never retrieved, so never sent to be retrieved elsewhere
                    continue
                item = {
                    "memory_id": entry.memory_id,
                    "page": row["path"],
                    "title": entry.title,
                    "canonical_key": entry.canonical_key,
                    "category": entry.category.value,
                    "memory_class": entry.memory_class.value,
                    "trust_zone": entry.trust_zone.value,
                    "sensitivity_tier": sens.value,
                    "content_sha256": entry.normalized_content_sha256,
                    "source_type": entry.source_type.value,
                    "source_ref": entry.source_ref
                    if owner or entry.source_ref is None
                    else shown_source(entry.source_ref) or None,
                    "created_at": iso(entry.created_at),
                    "expires_at": iso(entry.expires_at) if entry.expires_at else None,
                    "confidence": entry.confidence,
                }
                if entry.origin_created_at is not None:
                    # A record an import made: when its statement was first captured, carried on to the next wiki
                    # (the import reads it before `created_at`, which is when the statement arrived here).
                    item["origin_created_at"] = iso(entry.origin_created_at)
                if include_content and sens is not SensitivityTier.do_not_export:
                    item["content"] = entry.content
                    item["recall"] = list(entry.recall)
                    item["tags"] = list(entry.tags)
                    item["quiz_question"] = entry.quiz_question
                if sens is SensitivityTier.do_not_export:
                    # Its content stays home, and so does every field that repeats it: a title made from the text
                    # is the text, the key and the page name are its slug, a source may quote it. What leaves is
                    # that such a record exists (its id, hash, kind and dates).
                    for name in ("title", "canonical_key", "page", "source_ref"):
                        item.pop(name)
                items.append(item)
            last = self.store.last_receipt_sha()
            payload = {
                "zone": zone_e.value,
                "include_content": include_content,
                "items": items,
                "selected_ids": [i["memory_id"] for i in items],
                "source_receipt_sha256": last,
            }
            envelope: dict[str, Any] = {
                "schema": SCHEMA,
                "created_at": iso(now),
                "actor": actor if owner else shown_actor(actor),
                **payload,
                "payload_sha256": sha256_hex(canonical_json(payload)),
            }
            envelope["header_sha256"] = sha256_hex(canonical_json(_header(envelope)))
            name = (
                f"sync/outbound/{now.strftime('%Y%m%dT%H%M%SZ')}-{zone_e.value}-{envelope['payload_sha256'][:8]}.json"
            )
            self.store.write_file(self.store.path(name), json.dumps(envelope, indent=2, ensure_ascii=False) + "\n")
            receipt = make_receipt(
                "export",
                "ok",
                now,
                actor,
                {
                    "envelope": name,
                    "zone": zone_e.value,
                    "count": len(items),
                    "expired_left_out": expired,
                    **({"denied_left_out": left_denied} if left_denied else {}),
                    "payload_sha256": envelope["payload_sha256"],
                    "include_content": include_content,
                },
            )
            return self.store.record(receipt)

    def import_envelope(
        self,
        envelope_path: str,
        *,
        now: datetime,
        actor: str = "agent:cli",
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> Receipt:
        """Import an envelope: records arrive agent_inferred and unverified, with provenance, never the source's trust.

        An envelope imports only as it was exported: its payload must match `payload_sha256` and every other field
        `header_sha256` (`_checked`); else BadInput, one line, and nothing is written. An origin record counts once,
        whatever envelope brings it: an item an earlier import left in the wiki is skipped as `already_imported`
        (`record` names the record it is in), so it never raises that record's confidence above the import cap
        (`_already_here`). Receipt details: envelope, payload_sha256, exported_by and exported_at (the envelope's
        actor and time), header_checked (False for an envelope exported before `header_sha256`: nothing vouched for
        its actor and time), results (one per item captured: memory_id, status, origin) and skipped.

        An item is compared with what the wiki holds as of when its statement was captured: its origin record's
        `origin_created_at` when it carries one (a record the exporting wiki itself imported), else its
        `created_at`, never after `now`; an item carrying neither, as of `now`. That time decides which days it
        names were gone by when it was said (`relation.Statement.at`): a log of dated reports ("Parkrun, 5 Sep:
        25:40", "Parkrun, 21 Nov: 24:31") imported months later is two occasions, not a contradiction, as it was
        where it was captured. The record made keeps it (`Entry.origin_created_at`) for what is captured later.

        An item keeps its `expires_at` (the origin record's absolute expiry, not a new default from the import's
        time); an item already past it at `now` is skipped as `expired` (with its expires_at): it would be a record
        retrieval never returns. An item's recall phrases, tags and quiz question come with it. An item without these
        fields (an envelope exported before they were carried) imports as it did: an expiring one gets the default
        expiry from `now`.

        `progress(done, items)` is called after each item. `cancelled()` is asked before each item (an item is one
        capture: atomic, never stopped half-way): once it is true the import stops, and its receipt is `partial`,
        with `stopped: {done, items, reason: "cancelled"}`. The same import run again brings the rest: what arrived
        is skipped as `already_imported`.

        An item whose capture finds the write lock held past the wait (`Busy`) or the disk refusing it
        (`WriteFailed`: nothing of that item was written) stops the import there the same way, `stopped.reason`
        `write_lock_busy` or `write_failed`, once an earlier item was written: its receipt is `partial` when it can
        be recorded (it waits for the lock once more, as any write does). When it cannot, `ImportStopped` says how
        far the import went and that running it again brings the rest. Stopped before anything was written, the
        error is raised as it is ("nothing was written", which is then true)."""
        now = at(now)
        actor = validate_actor(actor)
        try:
            data = json.loads(_read_envelope(envelope_path))
        except BadInput:
            raise
        except OSError as exc:
            raise BadInput(f"cannot read envelope {envelope_path}: {exc.strerror or exc}") from None
        except (ValueError, RecursionError) as exc:
            raise BadInput(f"cannot read envelope {envelope_path}: {' '.join(str(exc).split())[:200]}") from None
        header_checked = _checked(os.fspath(envelope_path), data)
        exported = parse_iso(data["created_at"])
        if now < exported - CLOCK_SKEW:
            # Imported "before" it was exported (a --now in the past): its records would be dated before the
            # envelope existed and an expiring one would live from then.
            raise BadInput(
                f"{os.fspath(envelope_path)}: exported at {iso(exported)}, after this import's time {iso(now)}; "
                "nothing was imported"
            )
        this = data["payload_sha256"][:12]
        earlier = self._earlier_imports()
        held = self._held_imports()
        exported_here = self._exported_here()
        own = data["payload_sha256"][:8] in exported_here  # this wiki's own envelope, imported back
        created, skipped = [], []
        said: dict[tuple[str, str, str], Any] = {}  # (normalized content, zone, tier) -> the first item's origin id
        items = data.get("items") or []
        stopped: dict[str, Any] | None = None
        failure: Busy | WriteFailed | None = None
        for done, item in enumerate(items):
            if progress is not None and done:
                progress(done, len(items))
            if cancelled is not None and cancelled():
                stopped = {"done": done, "items": len(items), "reason": "cancelled"}
                break
            content = item.get("content")
            if not content:
                skipped.append({"memory_id": item.get("memory_id"), "reason": "metadata_only"})
                continue
            home = self._from_here(item, content, own, exported_here)
            if home is not None:
                # This wiki's own record coming back (an export imported into the wiki it came from, or through a
                # collaborator's wiki that imported it): no new evidence, and captured it would reinforce itself.
                skipped.append({"memory_id": item.get("memory_id"), "reason": "from_this_wiki", "record": home})
                continue
            where = (normalize(content), str(item.get("trust_zone")), str(item.get("sensitivity_tier")))
            if where in said:
                # One envelope says a statement once: a second item with the same text in the same partition (a
                # hand-made envelope lists it under made-up ids) would consolidate into the first and raise its
                # confidence past the import cap, once per copy.
                skipped.append({"memory_id": item.get("memory_id"), "reason": "same_as_item", "item": said[where]})
                continue
            said[where] = item.get("memory_id")
            expires = item.get("expires_at")
            if expires is not None and parse_iso(expires) <= now:
                skipped.append({"memory_id": item.get("memory_id"), "reason": "expired", "expires_at": expires})
                continue
            memory_class = item.get("memory_class")
            if expires is not None and memory_class == "durable":
                # A page made durable by hand and left with its expiry: at the source it expires all the same
                # (retrieval and decay read expires_at), and capture refuses the pair (durable_with_expiry).
                memory_class = "expiring"
            source_ref = f"import:{this}:{item.get('memory_id')}" + (
                f" ({item['source_ref']})" if item.get("source_ref") else ""
            )
            kept = self._already_here(item, content, source_ref, this, earlier.get(str(item.get("memory_id")), []), now)
            if kept is not None:
                # No new evidence: captured again, the item would consolidate into what an import made of it before
                # and raise its confidence, or bring back what a person denied.
                skipped.append({"memory_id": item.get("memory_id"), "reason": "already_imported", "record": kept})
                continue
            decided = next(
                (c for c in held.get(str(item.get("memory_id")), []) if normalize(c[1]) == normalize(content)), None
            )
            if decided is not None:
                # An earlier import of this origin record is held in a conflict: still open, or a person kept the
                # existing side. Captured again, it opened the same conflict once more (a decided one reopened).
                skipped.append({"memory_id": item.get("memory_id"), "reason": decided[2], "conflict": decided[0]})
                continue
            # The envelope does not say whether the source's key was given or derived; one equal to what this
            # engine derives from the title and text carries nothing beyond them, and given as a key it would carry
            # authority here (SPEC §4: only an explicit key does): a statement this wiki holds under another title
            # was kept as a second record instead of consolidated.
            key = item.get("canonical_key")
            if key and key == keys.canonical_key(None, single_line(item.get("title") or ""), content.strip()):
                key = None
            try:
                r = self.capture.capture(
                    content,
                    now=now,
                    actor=actor,
                    key=key,
                    title=item.get("title"),
                    category=item.get("category", "fact"),
                    zone=item.get("trust_zone", "private_self"),
                    sensitivity=item.get("sensitivity_tier", "normal"),
                    memory_class=memory_class,
                    expires_at=expires,
                    source_type="agent_inferred",
                    source_ref=source_ref,
                    confidence=min(
                        IMPORT_CONFIDENCE_CAP,
                        IMPORT_CONFIDENCE_CAP if item.get("confidence") is None else float(item["confidence"]),
                    ),
                    recall=item.get("recall"),
                    tags=item.get("tags"),
                    quiz_question=item.get("quiz_question"),
                    origin_created_at=_said_at(item),
                )
            except (Busy, WriteFailed) as exc:
                # Nothing of this item was written (a write is whole or nothing); those before it stand.
                reason = "write_lock_busy" if isinstance(exc, Busy) else "write_failed"
                stopped = {"done": done, "items": len(items), "reason": reason}
                failure = exc
                break
            created.append(
                {
                    "memory_id": r.details.get("memory_id"),
                    "status": r.status,
                    "origin": item.get("memory_id"),
                    # a refused item says why, here only: its capture wrote no receipt of its own
                    **({"reason": r.details["reason"]} if r.status in ("reject", "drop") else {}),
                }
            )
        if progress is not None and stopped is None and items:
            progress(len(items), len(items))
        written = sum(1 for x in created if x["status"] not in UNRECORDED_STATUSES)
        if failure is not None and not written:
            raise failure  # stopped before anything was written: its own line ("nothing was written") is true
        try:
            return self._record_import(
                now,
                actor,
                stopped,
                {
                    "envelope": os.fspath(envelope_path),
                    "payload_sha256": data["payload_sha256"],
                    "exported_by": data["actor"],
                    "exported_at": data["created_at"],
                    "header_checked": header_checked,
                    "results": created,
                    "skipped": skipped,
                },
            )
        except (Busy, WriteFailed) as exc:
            if not written:
                raise
            raise ImportStopped(self._stopped_line(failure or exc, stopped, len(items), written)) from exc

    def _record_import(
        self, now: datetime, actor: str, stopped: dict[str, Any] | None, details: dict[str, Any]
    ) -> Receipt:
        with self.store.writing():
            receipt = make_receipt(
                "import",
                "ok" if stopped is None else "partial",
                now,
                actor,
                {**details, **({"stopped": stopped} if stopped is not None else {})},
            )
            return self.store.record(receipt)

    def _stopped_line(self, exc: BaseException, stopped: dict[str, Any] | None, items: int, written: int) -> str:
        """The one line of an import that wrote some of its items and could not record its own receipt."""
        done = stopped["done"] if stopped is not None else items
        how_far = (
            f"the import stopped after {done:,} of {items:,} items"
            if done < items
            else f"all {items:,} items were read"
        )
        then = (
            f"{how_far} and {written:,} were written, each with its capture's receipt, but not the import's own "
            f"receipt; run it again to {'bring the rest' if done < items else 'record it'} (what arrived is skipped "
            "as already imported)"
        )
        if isinstance(exc, LockTimeout):
            return f"the write lock {exc.lock_file} is held by another process: {then}"
        if isinstance(exc, WriteFailed) and exc.__cause__ is not None:
            return disk_error_line(self.store.root, exc.__cause__, then)
        return f"{exc}: {then}"

    def _exported_here(self) -> set[str]:
        """The first 8 hex of the payload hash of each envelope this wiki exported (its sync/outbound/ file names:
        `<time>-<zone>-<8 hex>.json`). Memory ids are derived from what is stored, so the same statement captured in
        two wikis may have one id: an id alone does not say a record came from here, its envelope does."""
        try:
            names = os.listdir(self.store.root / "sync" / "outbound")
        except OSError:
            return set()
        return {n.removesuffix(".json").rsplit("-", 1)[-1] for n in names if n.endswith(".json")}

    def _from_here(self, item: dict[str, Any], content: str, own: bool, exported_here: set[str]) -> str | None:
        """The record of this wiki an item is: from this wiki's own envelope (a backup imported back), its origin
        record when it is still here; come back through another wiki that imported it (its source names an envelope
        this wiki exported, `import:<sha>:<id>`), that origin record when it still says the same (a statement the
        other wiki changed since is new evidence, captured as any item). None otherwise."""
        origin = str(item.get("memory_id") or "")
        entry = self.store.get(origin) if own and origin else None
        if entry is not None:
            return entry.memory_id
        for sha, origin in IMPORT_MARK.findall(str(item.get("source_ref") or "")):
            entry = self.store.get(origin) if sha[:8] in exported_here else None
            if entry is not None and normalize(entry.content) == normalize(content):
                return entry.memory_id
        return None

    def _held_imports(self) -> dict[str, list[tuple[str, str, str]]]:
        """The conflicts holding what an earlier import brought, by origin id: (conflict id, the text held, why the
        item is skipped: `awaits_decision` while the conflict is open or snoozed, `already_decided` once a person
        kept the existing side). A conflict taken or called both valid made a record (`_earlier_imports` finds it);
        a withdrawn one holds nothing."""
        found: dict[str, list[tuple[str, str, str]]] = {}
        for c in self.capture.conflicts.conflicts(include_resolved=True):
            choice = (c.resolution or {}).get("choice") if c.status == "resolved" else None
            why = "awaits_decision" if c.status != "resolved" else "already_decided" if choice == "existing" else ""
            if not why:
                continue
            for _sha, origin in IMPORT_MARK.findall(str(c.incoming.get("source_ref") or "")):
                found.setdefault(origin, []).append((c.conflict_id, str(c.incoming.get("text") or ""), why))
        return found

    def _earlier_imports(self) -> dict[str, list[tuple[str, sqlite3.Row]]]:
        """What earlier imports left in the wiki, by origin id: (12 hex of the envelope's payload_sha256, the record
        the item is in), for the record an import made of it (its source, `import:<sha>:<origin id>`) and for the
        record it restated (a consolidation note), whatever their status now. One scan of the index, and an import
        is rare."""
        found: dict[str, list[tuple[str, sqlite3.Row]]] = {}
        rows = self.store.index.query(
            "SELECT * FROM records WHERE source_ref LIKE 'import:%' OR instr(data, 'import:') > 0 ORDER BY memory_id"
        )
        for row in rows:
            marks = {m for text in (row["source_ref"] or "", row["data"] or "") for m in IMPORT_MARK.findall(text)}
            for sha, origin in sorted(marks):
                found.setdefault(origin, []).append((sha, row))
        return found

    def _already_here(
        self,
        item: dict[str, Any],
        content: Any,
        source_ref: str,
        this: str,
        earlier: list[tuple[str, sqlite3.Row]],
        now: datetime,
    ) -> str | None:
        """The record an earlier import left this item in, when the item is no new evidence, else None.

        The same envelope brought it (`this`, its payload's hash): the record its mark is in. Another envelope
        brought the same origin record (two exports of one zone at different times): a record of the item's zone and
        tier that the earlier import made or restated, when the item restates it (the same text, or what capture
        would consolidate: `relation.relate`, as capture asks it). Whatever became of that record since stands (a
        person's denial, a conflict's decision, an archive). An item whose origin changed its statement since (a
        different value, another subject) is no restatement: it is captured, a conflict with the earlier import when
        it contradicts it."""
        same = [row["memory_id"] for sha, row in earlier if sha == this]
        if same:
            return str(same[0])
        if not earlier or not isinstance(content, str):
            return None
        from .relation import Statement, relate

        # The statement as capture would compare it (`CaptureOps.capture`, `find_related`).
        text = lf_line_endings(content).replace("\x00", "").strip()
        title = single_line(str(item.get("title") or ""))
        key = item.get("canonical_key")
        explicit = isinstance(key, str) and bool(key)
        ckey = keys.canonical_key(key, title, text) if explicit else None
        said = _said_at(item)
        new = Statement(
            text, title, str(item.get("category", "fact")), source_ref, iso(min(said, now) if said else now)
        )
        zone, tier = item.get("trust_zone", "private_self"), item.get("sensitivity_tier", "normal")
        for _, row in earlier:
            if row["trust_zone"] != zone or row["sensitivity_tier"] != tier:
                continue  # another partition: never consolidated with, and the item's own there
            if normalize(row["content"] or "") == normalize(text):
                return str(row["memory_id"])
            old = Statement(
                row["content"] or "", row["title"] or "", row["category"], row["source_ref"], statement_at(row)
            )
            if relate(old, new, same_key=explicit and row["canonical_key"] == ckey).kind == "restatement":
                return str(row["memory_id"])
        return None


def _said_at(item: dict[str, Any]) -> datetime | None:
    """When an item's statement was first captured, as its envelope says: `origin_created_at` (a record the
    exporting wiki imported), else `created_at` (the origin record's); None when it says neither (an envelope written
    by hand). `_check_items` has read both as ISO times."""
    said = item.get("origin_created_at") or item.get("created_at")
    return parse_iso(said) if said else None


def _header(envelope: dict[str, Any]) -> dict[str, Any]:
    """Every field of an envelope outside its payload and its two hashes: what `header_sha256` covers."""
    return {k: v for k, v in envelope.items() if k not in PAYLOAD_FIELDS and k not in HASH_FIELDS}


def _names(fields: Any) -> str:
    """Field names for a one-line message: sorted, each cut short, at most eight."""
    names = sorted(str(name)[:40] for name in fields)
    return ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")


def _checked(where: str, data: Any) -> bool:
    """Refuse (BadInput, one line) an envelope changed since its export; else whether its header was covered by a
    hash of its own: False for an envelope exported before `header_sha256` existed, whose payload is checked as
    before and which may hold no field but schema, created_at and actor outside it. Its actor and created_at must be
    an actor and an ISO-8601 time, as an export writes them: the import's receipt names them."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise BadInput(f"{where}: not a {SCHEMA} envelope")
    payload = {k: data.get(k) for k in PAYLOAD_FIELDS}
    if sha256_hex(canonical_json(payload)) != data.get("payload_sha256"):
        raise BadInput(
            f"{where}: payload_sha256 does not match the payload (changed after export); nothing was imported"
        )
    header = _header(data)
    if "header_sha256" in data:
        if sha256_hex(canonical_json(header)) != data["header_sha256"]:
            raise BadInput(
                f"{where}: header_sha256 does not match its {_names(header)} (changed after export); "
                "nothing was imported"
            )
        checked = True
    else:
        unhashed = set(header) - UNHASHED_HEADER
        if unhashed:
            raise BadInput(
                f"{where}: no hash covers its {_names(unhashed)} (an envelope without header_sha256 holds only "
                "schema, created_at and actor besides its payload); nothing was imported"
            )
        checked = False
    _check_items(where, data.get("items"))
    by, when = data.get("actor"), data.get("created_at")
    if by == SHOWN_PERSON:
        # A person, as an envelope for a limited zone names its exporter (`shown.shown_actor`): no login to check.
        try:
            parse_iso(when if isinstance(when, str) else "")
        except ValueError:
            raise BadInput(
                f"{where}: its actor and created_at are not an actor and an ISO-8601 time, as an export writes them; "
                "nothing was imported"
            ) from None
        return checked
    try:
        validate_actor(by if isinstance(by, str) else "")
        parse_iso(when if isinstance(when, str) else "")
    except (BadInput, ValueError):
        raise BadInput(
            f"{where}: its actor and created_at are not an actor and an ISO-8601 time, as an export writes them; "
            "nothing was imported"
        ) from None
    # The exporter is written into the import's receipt (`exported_by`), which nothing ever edits.
    try:
        validate_named_actor(str(by))
    except BadInput as exc:
        raise BadInput(f"{where}: its actor is not one: {exc}") from None
    return checked


# The fields of an item the import reads, and what each must be when present (None is "not given").
_ITEM_TEXT = (
    "memory_id",
    "content",
    "title",
    "canonical_key",
    "category",
    "trust_zone",
    "sensitivity_tier",
    "memory_class",
    "source_ref",
    "expires_at",
    "created_at",
    "origin_created_at",
    "quiz_question",
)
_ITEM_TIMES = ("expires_at", "created_at", "origin_created_at")  # ISO-8601 times
_ITEM_LISTS = ("recall", "tags")  # lists of strings


def _check_items(where: str, items: Any) -> None:
    """Refuse (BadInput, one line, before anything is written) items an import cannot read: an envelope whose hashes
    match may still have been written by hand, and a number where an object belongs stopped the import half way
    with an internal error, the items before it imported."""
    if items is None:
        return
    if not isinstance(items, list):
        raise BadInput(f"{where}: items is not a list; nothing was imported")
    seen: dict[str, int] = {}
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            raise BadInput(f"{where}: items[{n}] is not an object; nothing was imported")
        origin = item.get("memory_id")
        if origin is not None:
            # The origin id is written into the record's source (`import:<sha>:<id>`), where `IMPORT_MARK` reads it
            # back: one with a space or a bracket was read back as another id (never `already_imported`), or as a
            # second, forged mark. And one origin record is one item: listed twice, each copy consolidated into the
            # first and raised its confidence past the import cap.
            if not isinstance(origin, str) or not _ORIGIN_ID.fullmatch(origin):
                raise BadInput(
                    f"{where}: items[{n}].memory_id is not a record id (letters, digits, '_', '.', '-', at most 64); "
                    "nothing was imported"
                )
            # Written into the record's source and the import's receipt (even for an item refused as a secret):
            # an id that is a token ("ghp_…", "AKIA…") is no id.
            found = find_secrets(origin)
            if found:
                raise BadInput(
                    f"{where}: items[{n}].memory_id is a secret ({', '.join(found)}), not a record id; nothing was "
                    "imported"
                )
            if origin in seen:
                raise BadInput(
                    f"{where}: items[{seen[origin]}] and items[{n}] are one record ({origin}); nothing was imported"
                )
            seen[origin] = n
        for name in _ITEM_TEXT:
            if item.get(name) is not None and not isinstance(item[name], str):
                raise BadInput(f"{where}: items[{n}].{name} is not a string; nothing was imported")
        for name in _ITEM_LISTS:
            values = item.get(name)
            if values is not None and (not isinstance(values, list) or not all(isinstance(v, str) for v in values)):
                raise BadInput(f"{where}: items[{n}].{name} is not a list of strings; nothing was imported")
        for name in _ITEM_TIMES:
            if item.get(name) is not None:
                try:
                    parse_iso(item[name])
                except (ValueError, OverflowError):
                    raise BadInput(
                        f"{where}: items[{n}].{name} is not an ISO-8601 time; nothing was imported"
                    ) from None
        conf = item.get("confidence")
        if conf is not None and (isinstance(conf, bool) or not isinstance(conf, int | float) or not 0 <= conf <= 1):
            raise BadInput(f"{where}: items[{n}].confidence is not a number from 0 to 1; nothing was imported")


def _read_envelope(envelope_path: str) -> bytes:
    """An import envelope: a regular file (not a device or FIFO: `import /dev/zero` is refused at once) of at most
    MAX_ENVELOPE_BYTES, read no further than that. The path is the user's own, so it may lie outside the wiki."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(envelope_path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise BadInput(f"cannot read envelope {envelope_path}: not a regular file")
        if st.st_size > MAX_ENVELOPE_BYTES:
            raise BadInput(
                f"cannot read envelope {envelope_path}: {st.st_size} bytes, over the "
                f"{MAX_ENVELOPE_BYTES // (1024 * 1024)} MiB envelope limit"
            )
        os.set_blocking(fd, True)
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(MAX_ENVELOPE_BYTES + 1)
        if len(data) > MAX_ENVELOPE_BYTES:
            raise BadInput(
                f"cannot read envelope {envelope_path}: over the "
                f"{MAX_ENVELOPE_BYTES // (1024 * 1024)} MiB envelope limit"
            )
        return data
    finally:
        os.close(fd)

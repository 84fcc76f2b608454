"""Exchange: export a trust zone as an envelope, import one (through capture, as agent-inferred statements)."""

from __future__ import annotations

import json
import os
import re
import stat
from datetime import datetime
from typing import Any

from . import scoring
from .capture import CaptureOps
from .errors import BadInput
from .models import Receipt, SensitivityTier, TrustZone, at, iso
from .pages import MAX_ENVELOPE_BYTES
from .receipts import canonical_json, make_receipt
from .store import Store
from .text import sha256_hex
from .validate import parse_enum, validate_actor


class ExchangeOps:
    def __init__(self, store: Store, capture: CaptureOps) -> None:
        self.store = store
        self.capture = capture

    def export(
        self, *, zone: str | TrustZone, now: datetime, actor: str = "agent:cli", include_content: bool = False
    ) -> Receipt:
        """Write an export envelope to sync/outbound/. Receipt details: envelope path, count, payload_sha256."""
        now = at(now)
        actor = validate_actor(actor)
        zone_e = parse_enum(TrustZone, zone)
        if zone_e is None:
            return make_receipt("export", "reject", now, actor, {"reason": "invalid_trust_zone", "value": str(zone)})
        if include_content and zone_e in (TrustZone.outside_contact, TrustZone.paid_public):
            return make_receipt(
                "export", "reject", now, actor, {"reason": "content_not_allowed_for_zone", "zone": zone_e.value}
            )
        with self.store.writing():
            items = []
            for row in self.store.index.query("SELECT * FROM records WHERE status='active' ORDER BY memory_id"):
                sens = SensitivityTier(row["sensitivity_tier"])
                if sens is SensitivityTier.do_not_export and zone_e is not TrustZone.private_self:
                    continue
                if not scoring.zone_allows(zone_e, TrustZone(row["trust_zone"]), sens):
                    continue
                entry = self.store.index.entry(row)
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
                    "source_ref": entry.source_ref,
                    "created_at": iso(entry.created_at),
                    "confidence": entry.confidence,
                }
                if include_content and sens is not SensitivityTier.do_not_export:
                    item["content"] = entry.content
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
                "schema": "memkeeper.memory_update.v1",
                "created_at": iso(now),
                "actor": actor,
                **payload,
                "payload_sha256": sha256_hex(canonical_json(payload)),
            }
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
                    "payload_sha256": envelope["payload_sha256"],
                    "include_content": include_content,
                },
            )
            return self.store.record(receipt)

    def import_envelope(self, envelope_path: str, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        """Import an envelope: records arrive agent_inferred and unverified, with provenance, never the source's trust."""
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
        if not isinstance(data, dict) or data.get("schema") != "memkeeper.memory_update.v1":
            raise BadInput(f"{envelope_path}: not a memkeeper.memory_update.v1 envelope")
        payload = {
            k: data.get(k) for k in ("zone", "include_content", "items", "selected_ids", "source_receipt_sha256")
        }
        if sha256_hex(canonical_json(payload)) != data.get("payload_sha256"):
            raise BadInput(f"{envelope_path}: payload_sha256 does not match the payload")
        created, skipped = [], []
        done = self._imported_before(data["payload_sha256"])
        for item in data.get("items") or []:
            content = item.get("content")
            if not content:
                skipped.append({"memory_id": item.get("memory_id"), "reason": "metadata_only"})
                continue
            if str(item.get("memory_id")) in done:
                # The same envelope again is no new evidence: captured again, the item would consolidate into what
                # it made the first time and raise its confidence.
                skipped.append({"memory_id": item.get("memory_id"), "reason": "already_imported"})
                continue
            r = self.capture.capture(
                content,
                now=now,
                actor=actor,
                key=item.get("canonical_key"),
                title=item.get("title"),
                category=item.get("category", "fact"),
                zone=item.get("trust_zone", "private_self"),
                sensitivity=item.get("sensitivity_tier", "normal"),
                memory_class=item.get("memory_class"),
                source_type="agent_inferred",
                source_ref=f"import:{data['payload_sha256'][:12]}:{item.get('memory_id')}"
                + (f" ({item['source_ref']})" if item.get("source_ref") else ""),
                confidence=min(0.7, float(item.get("confidence") or 0.7)),
            )
            created.append(
                {"memory_id": r.details.get("memory_id"), "status": r.status, "origin": item.get("memory_id")}
            )
        with self.store.writing():
            receipt = make_receipt(
                "import",
                "ok",
                now,
                actor,
                {
                    "envelope": os.fspath(envelope_path),
                    "payload_sha256": data["payload_sha256"],
                    "results": created,
                    "skipped": skipped,
                },
            )
            return self.store.record(receipt)

    def _imported_before(self, payload_sha256: str) -> set[str]:
        """The origin ids of an envelope's items that an earlier import of it left in the wiki: as a record's
        source (`import:<sha>:<origin id>`) or in a consolidation note, when the item restated a record already
        here. One scan of the index, and an import is rare."""
        mark = f"import:{payload_sha256[:12]}:"
        found: set[str] = set()
        rows = self.store.index.query(
            "SELECT source_ref, data FROM records WHERE source_ref LIKE ? OR instr(data, ?) > 0", (mark + "%", mark)
        )
        for source_ref, data in rows:
            for text in (source_ref or "", data or ""):
                found.update(re.findall(re.escape(mark) + r"([^\s()\"]+)", text))
        return found


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

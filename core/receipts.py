"""Receipts: canonical JSON, SHA-256, and the three audit trails (receipts/, log.md, PATTERNS.jsonl)."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from .models import RECEIPT_SCHEMA, Receipt, iso
from .text import sha256_hex

LOG_HEADER = "# Wiki Log\n\n| time | action | status | count | receipt sha256 |\n|---|---|---|---|---|\n"


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def receipt_hash(body: dict[str, Any]) -> str:
    """SHA-256 of the canonical JSON of the receipt without its `receipt_sha256` field."""
    body = {k: v for k, v in body.items() if k != "receipt_sha256"}
    return sha256_hex(canonical_json(body))


def make_receipt(action: str, status: str, now: datetime, actor: str, details: dict[str, Any]) -> Receipt:
    # Round-trip through JSON so the hashed form is exactly what is stored (tuples → lists, etc.).
    details = json.loads(canonical_json(details))
    receipt = Receipt(schema=RECEIPT_SCHEMA, action=action, status=status, at=iso(now), actor=actor, details=details)
    receipt.receipt_sha256 = receipt_hash(receipt.body())
    return receipt


def verify_receipt(data: dict[str, Any]) -> bool:
    return isinstance(data, dict) and data.get("receipt_sha256") == receipt_hash(data)


def receipt_count(receipt: Receipt) -> int:
    """The `count` column of log.md: how many records the operation touched."""
    d = receipt.details
    for key in ("count", "changed_count", "result_count"):
        if isinstance(d.get(key), int):
            return d[key]
    for key in ("results", "merges", "memory_ids", "archived", "accepted_ids", "selected_ids"):
        if isinstance(d.get(key), list):
            return len(d[key])
    return 1 if receipt.status not in {"drop", "reject", "refused"} else 0


def log_row(receipt: Receipt) -> str:
    return (
        f"| {receipt.at} | {receipt.action} | {receipt.status} | {receipt_count(receipt)} | {receipt.receipt_sha256} |"
    )


def pattern_event(receipt: Receipt, evidence_grade: str = "medium") -> str:
    event = {
        "ts": receipt.at,
        "agent": receipt.actor,
        "event": f"{receipt.action}.{receipt.status}",
        "target": receipt.details.get("memory_id") or receipt.details.get("conflict_id") or receipt.details.get("page"),
        "payload": {"receipt_sha256": receipt.receipt_sha256},
        "evidence_grade": evidence_grade,
    }
    event["hash"] = "sha256:" + sha256_hex(canonical_json(event))
    return canonical_json(event)


def parse_log_row(line: str) -> tuple[str, str, str, str, str] | None:
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) != 5 or cells[0] in ("time", "---") or not cells[0]:
        return None
    return cells[0], cells[1], cells[2], cells[3], cells[4]

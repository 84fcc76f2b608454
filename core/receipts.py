"""Receipts: canonical JSON, SHA-256, and the three audit trails (receipts/, log.md, PATTERNS.jsonl)."""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import datetime
from pathlib import Path
from typing import Any

from .models import RECEIPT_SCHEMA, Receipt, iso
from .paths import PathEscape, list_files, open_read
from .text import sha256_hex

# One line of receipts/*.jsonl as read back: (file, line number, the receipt or None when not a JSON object, raw line).
ReceiptLine = tuple[str, int, dict[str, Any] | None, str]
# Where a tail of receipts/ stopped: file → (byte offset, lines read, sha256 of the bytes before the offset, how many
# times the file was read from its start). A file no longer there has no entry.
ReceiptCursor = dict[str, tuple[int, int, str, int]]

_EMPTY_SHA = hashlib.sha256().hexdigest()

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
    receipt = Receipt(schema_=RECEIPT_SCHEMA, action=action, status=status, at=iso(now), actor=actor, details=details)
    receipt.receipt_sha256 = receipt_hash(receipt.body())
    return receipt


def verify_receipt(data: dict[str, Any]) -> bool:
    return isinstance(data, dict) and data.get("receipt_sha256") == receipt_hash(data)


def distinguish(receipt: Receipt, taken: set[str]) -> bool:
    """Give `receipt` a hash none of `taken` has: when its own is taken (an operation alike in the same second: deny,
    undo, deny again), it gets `details.repeat` = 2, 3, … — the first that makes it new — and is hashed again. A
    receipt whose hash is free is left as it is. Returns whether it changed. The caller holds the write lock."""
    if receipt.receipt_sha256 not in taken:
        return False
    n = 2
    while True:
        receipt.details["repeat"] = n
        receipt.receipt_sha256 = receipt_hash(receipt.body())
        if receipt.receipt_sha256 not in taken:
            return True
        n += 1


_TAIL_CHUNK = 1 << 16


def _second(at: str) -> str:
    """A receipt time to the second ("2026-12-05T09:00:00"), for comparing times of one receipts file."""
    return at.partition(".")[0].rstrip("Z")


def hashes_at_or_after(root: Path, at: str, staged: str = "") -> set[str]:
    """The hashes of the receipts in receipts/<at[:10]>.jsonl timed in `at`'s second or later that are at the end
    of the file, read backwards in chunks from its end until a receipt of an earlier second; and those of `staged`
    (lines the operation in progress will append to that file). A receipt alike in every field to one recorded at
    `at` has `at` too, and so is in that file, after every receipt of an earlier second as long as the clock did
    not go back: a clock set back in between can leave one of an earlier second after it, where this stops (`check`
    reports such a pair).

    A line that is not a receipt (torn, not JSON, without a time) is passed over, never a reason to stop."""
    want = _second(at)
    out: set[str] = set()

    def take(raw: bytes | str) -> bool:
        """Note the line's hash; False when it is a receipt of an earlier second (nothing before it is read)."""
        try:
            data = json.loads(raw)
        except ValueError:
            return True
        if not isinstance(data, dict) or not isinstance(data.get("at"), str):
            return True
        if _second(data["at"]) < want:
            return False
        if isinstance(data.get("receipt_sha256"), str):
            out.add(data["receipt_sha256"])
        return True

    for line in staged.splitlines():
        if line.strip():
            take(line)
    try:
        fh = open_read(root / "receipts" / f"{at[:10]}.jsonl")
    except FileNotFoundError:
        return out
    with fh:
        end = os.fstat(fh.fileno()).st_size
        rest = b""  # the start of a line whose beginning is in the chunk before
        while end > 0:
            start = max(0, end - _TAIL_CHUNK)
            fh.seek(start)
            pieces = (fh.read(end - start) + rest).split(b"\n")
            end = start
            rest = pieces[0] if start > 0 else b""
            for raw in reversed(pieces if start == 0 else pieces[1:]):
                if raw.strip() and not take(raw):
                    return out
    return out


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


# ---------------------------------------------------------------------------------------------- reading the trail


# The files of receipts/ the engine writes: one per day, named by the receipt's date (`Store._stage_receipt`).
DAY_FILE = re.compile(r"\d{4}-\d{2}-\d{2}\.jsonl")


def receipt_files(root: Path) -> list[str]:
    """The day files of receipts/ (`YYYY-MM-DD.jsonl`, regular files only, never through a symlink), sorted: the
    audit trail. Any other file there is not part of it: a sync tool's conflicted copy of a day file ("2026-12-01
    (conflicted copy 2026-12-05).jsonl") holds the same receipts again, and read as the trail it doubled them and
    `check` blamed operations alike in one second (`check` names such a file as a stray copy). PathEscape when
    receipts/ is a symlink."""
    return [name for name in list_files(root / "receipts", ".jsonl") if DAY_FILE.fullmatch(name)]


def read_receipts(root: Path, cursor: ReceiptCursor | None = None) -> tuple[list[ReceiptLine], ReceiptCursor]:
    """Receipts written after `cursor`, oldest first, and the new cursor.

    The ledgers are append-only, so a live tail reads only what was appended since the last call. A file whose
    bytes before the offset changed (edited by hand, cut short, replaced) is read again from the start, and its
    cursor says so (its read count goes up: `reread_files`); a file no longer there leaves the cursor.
    """
    before = dict(cursor or {})
    cursor = {}
    out: list[ReceiptLine] = []
    try:
        names = receipt_files(root)  # the day files only, never through a symlink
    except PathEscape:
        names = []  # receipts/ is a symlink: nothing is read through it (check reports it)
    for name in names:
        f = root / "receipts" / name
        rel = f"receipts/{name}"
        offset, count, tail, reads = before.get(rel, (0, 0, _EMPTY_SHA, 0))
        try:
            fh = open_read(f)
        except FileNotFoundError:
            continue
        size = os.fstat(fh.fileno()).st_size
        with fh:
            # Hashing what was already read is far cheaper than parsing and verifying it again, and it notices
            # any hand edit, even one that keeps the size.
            seen = hashlib.sha256(fh.read(offset)) if offset <= size else None
            if seen is None or seen.hexdigest() != tail:
                offset, count, seen, reads = 0, 0, hashlib.sha256(), reads + 1
            if size == offset:
                cursor[rel] = (offset, count, seen.hexdigest(), reads)
                continue
            fh.seek(offset)
            chunk = fh.read(size - offset)
        whole = chunk[: chunk.rfind(b"\n") + 1]  # a line still being appended waits for the next call
        for raw in whole.decode("utf-8", "replace").split("\n")[:-1]:
            count += 1
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except ValueError:
                data = None
            out.append((rel, count, data if isinstance(data, dict) else None, raw))
        seen.update(whole)
        cursor[rel] = (offset + len(whole), count, seen.hexdigest(), reads)
    return out, cursor


def reread_files(before: ReceiptCursor | None, after: ReceiptCursor) -> set[str]:
    """Files of `before` whose lines as read then no longer hold in `after`: gone from receipts/, or read again from
    their start (edited, cut short or replaced). A tail shows none of what it had read of them."""
    return {rel for rel, entry in (before or {}).items() if rel not in after or after[rel][3] != entry[3]}


def last_receipt_sha(root: Path) -> str | None:
    """The sha256 in the last row of log.md (read from its tail only)."""
    try:
        fh = open_read(root / "log.md")
    except FileNotFoundError:
        return None
    with fh:
        fh.seek(max(0, os.fstat(fh.fileno()).st_size - 4096))
        lines = fh.read(8192).decode("utf-8", "replace").strip().splitlines()
    for line in reversed(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"[0-9a-f]{64}", cells[4]):
            return cells[4]
    return None


def _log_places(root: Path, lines: list[ReceiptLine] | None) -> dict[str, float]:
    """Receipt sha → its row's place in log.md, less the rows a repair appended at its end (`log_rows_added` of a
    repair receipt among `lines`: out of commit order by design)."""
    rows: list[str] = []
    log = root / "log.md"
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            row = parse_log_row(line) if line.startswith("|") else None
            if row is not None:
                rows.append(row[4])
    repaired: set[str] = set()
    for _, _, data, _ in lines or ():
        details = data.get("details") if data else None
        if data and data.get("action") == "repair" and isinstance(details, dict):
            repaired.update(s for s in details.get("log_rows_added") or [] if isinstance(s, str))
    order: dict[str, float] = {}
    for sha in rows:
        if sha not in repaired:
            order.setdefault(sha, len(order))
    return order


def commit_order(root: Path, lines: list[ReceiptLine] | None = None) -> dict[str, float]:
    """Receipt sha → its place in commit order: its position in log.md, which is appended in commit order (receipt
    times can be anything `--now` said; files under receipts/ are per receipt date).

    Given the receipts' `lines` (`read_receipts`), a receipt log.md does not place (its row deleted by hand, or
    appended again at the end by a repair: `log_rows_added`, out of order by design) takes the place just after the
    receipt before it in its own receipts file, which is appended in commit order too; without lines, or with none
    before it in its file, it comes after every row. Undo asks this whether a decision is the latest about its
    record: a row repaired to the end of log.md made an older decision look like the latest."""
    order = _log_places(root, lines)
    if not lines:
        return order
    end = float(len(order))
    placed: dict[str, float] = {}
    last: dict[str, float] = {}  # receipts file → the place of its latest receipt read so far
    step = 1.0 / (len(lines) + 1)
    for k, (rel, _, data, _) in enumerate(lines):
        named = data.get("receipt_sha256") if data else None
        if not isinstance(named, str):
            continue
        if named in order:
            last[rel] = order[named]
        elif named not in placed:
            placed[named] = last[rel] = (last[rel] if rel in last else end + k) + step
    order.update(placed)
    return order


def in_commit_order(root: Path, lines: list[ReceiptLine]) -> list[ReceiptLine]:
    """`lines` (as `read_receipts` gives them: by file, then line) oldest first in commit order: each receipt at its
    row's place in log.md, the order undo judges which decision is the latest by (`commit_order`). A clock set back
    writes a later receipt into an earlier date's file, so (file, line) is not the order they were written in.

    A line log.md does not place (no row, a row a repair appended, a second line with a hash already placed, a line
    that is not JSON) stays where its file puts it: just after the line before it in its own file, and the first
    line of a file just after the latest receipt of the files before it (files are named by date)."""
    order = _log_places(root, lines)
    placed: set[str] = set()
    last: dict[str, float] = {}  # receipts file → the place of its line before
    before = latest = -1.0  # the latest place among the lines of the files before this one; of those read so far
    keyed = []
    for k, line in enumerate(lines):
        rel, _, data, _ = line
        if rel not in last:
            before = latest
        named = data.get("receipt_sha256") if data else None
        place = order.get(named) if isinstance(named, str) and named not in placed else None
        if place is not None:
            placed.add(str(named))
        else:
            place = last.get(rel, before)
        last[rel] = place
        latest = max(latest, place)
        keyed.append((place, k, line))
    keyed.sort(key=lambda item: (item[0], item[1]))
    return [line for _, _, line in keyed]

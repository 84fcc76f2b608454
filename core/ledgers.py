"""The verification ledgers in stated/ (SPEC §5.2) read back: their lines, and the denials in force.

Apart from the verification queue (`verification.py`) so that retrieval can ask which records the denials ledger
denies without loading the queue (its secret rules cost a command-line retrieve some 100 ms of imports).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .pages import iter_lines

CONFIRMATIONS = "stated/confirmations.jsonl"
DENIALS = "stated/denials.jsonl"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a ledger, line by line (bounded), never through a symlink; other lines are skipped
    (`check` names them). A refused ledger raises BadInput rather than being read as empty, so a denial is never
    forgotten."""
    out = []
    for _, line in iter_lines(path):
        if line is None:
            continue
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if isinstance(d, dict):
            out.append(d)
    return out


def denials_in_force(path: Path) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]]]:
    """The denials ledger replayed in its order: each suppression key in force with the deny line that set it, and
    the records denied under each (a deny line adds its record, an undeny lifts the key and all of them)."""
    keys: dict[str, dict[str, Any]] = {}
    denied: dict[str, list[str]] = {}
    for d in read_jsonl(path):
        k = d.get("suppression_key")
        if not k or not isinstance(k, str):
            continue
        if d.get("action") == "deny":
            keys[k] = d
            denied.setdefault(k, []).append(str(d.get("memory_id") or ""))
        elif d.get("action") == "undeny":
            keys.pop(k, None)
            denied.pop(k, None)
    return keys, denied

"""The two sides of a conflict, side by side, with provenance and the words that differ highlighted."""

from __future__ import annotations

from datetime import datetime
from difflib import SequenceMatcher
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

DIFF_STYLE = {"existing": "bold #e8a33d", "incoming": "bold #3dbde8"}
SHORT_TYPES = {"agent_inferred": "inferred", "user_stated": "stated", "user_confirmed": "confirmed"}


def word_diff(a: str, b: str) -> tuple[Text, Text]:
    """Both texts with the words that differ from the other side emphasised (a word-level diff, like lazygit's)."""
    wa, wb = a.split(), b.split()
    ta, tb = Text(), Text()
    for op, i1, i2, j1, j2 in SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        same = op == "equal"
        if i2 > i1:
            ta.append(" ".join(wa[i1:i2]) + " ", style="" if same else DIFF_STYLE["existing"])
        if j2 > j1:
            tb.append(" ".join(wb[j1:j2]) + " ", style="" if same else DIFF_STYLE["incoming"])
    ta.rstrip()
    tb.rstrip()
    return ta, tb


def _short_time(value: Any) -> str:
    text = str(value or "")
    return text[:16].replace("T", " ") if len(text) >= 16 else text or "—"


def expiry_text(expires: datetime | None, now: datetime) -> Text | None:
    """When a side stops being true (`expires_at`), and "expired" once that has passed; None when it never does."""
    if expires is None:
        return None
    text = Text(f"{expires:%Y-%m-%d %H:%M}")
    if expires <= now:
        text.append(" · expired", style="bold red")
    return text


def provenance_grid(side: dict[str, Any], expires: Text | None = None, compact: bool = False) -> Table:
    """Source, type, actor, time, evidence grade, confidence, category (and expiry) — in four rows when `compact`
    (a narrow terminal, where both sides must fit under the queue)."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True, min_width=7 if compact else 10)
    grid.add_column(overflow="fold")
    grade = str(side.get("evidence_grade") or "—")
    grade_style = {"high": "bold green", "medium": "yellow", "low": "red"}.get(grade, "")
    conf = side.get("confidence")
    conf_text = f"{float(conf):.2f}" if isinstance(conf, (int, float)) else "—"
    source = Text(str(side.get("source_ref") or "(none)"), style="underline" if side.get("source_ref") else "dim")
    if compact:
        grid.add_row("source", source)
        kind = str(side.get("source_type") or "—")
        grid.add_row("by", f"{side.get('actor') or '—'} · {SHORT_TYPES.get(kind, kind)}")
        grid.add_row(
            "at", Text.assemble(_short_time(side.get("at"))[:10], " · ", (grade, grade_style), f" {conf_text}")
        )
        if expires is not None:
            grid.add_row("expires", expires)
        return grid
    grid.add_row("source", source)
    grid.add_row("type", str(side.get("source_type") or "—"))
    grid.add_row("actor", str(side.get("actor") or "—"))
    grid.add_row("at", _short_time(side.get("at")))
    grid.add_row("evidence", Text(grade, style=grade_style))
    grid.add_row("confidence", conf_text)
    grid.add_row("category", str(side.get("category") or "—"))
    if expires is not None:
        grid.add_row("expires", expires)
    return grid


class ConflictSide(Static):
    """One side of a conflict: the statement (differences emphasised) over its provenance."""

    DEFAULT_CSS = """
    ConflictSide {
        width: 1fr;
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-style: bold;
        padding: 0 1;
        overflow-y: auto;
    }
    ConflictSide.-existing { border-title-color: #e8a33d; }
    ConflictSide.-incoming { border-title-color: #3dbde8; }
    """

    def show_side(
        self, side: dict[str, Any], text: Text, where: str, expires: Text | None = None, compact: bool = False
    ) -> None:
        body = Text()
        body.append_text(text)
        if compact:  # where the side lives goes to the border: every row counts at 24 lines
            self.border_subtitle = where
            self.update(Group(body, provenance_grid(side, expires, compact=True)))
            return
        self.border_subtitle = ""
        footer = Text(where, style="dim italic")
        self.update(Group(body, Text(""), provenance_grid(side, expires), Text(""), footer))

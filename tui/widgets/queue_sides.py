"""The two sides of a conflict, side by side, with provenance and the words that differ highlighted."""

from __future__ import annotations

import re
from datetime import datetime
from difflib import SequenceMatcher
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from memkeeper.core.models import inert_text

from .meta import middle_cut, more_marker

DIFF_STYLE = {"existing": "bold #e8a33d", "incoming": "bold #3dbde8"}
#: A narrow side's source ref is cut to two rows or so (the statement above it needs the rows more).
COMPACT_SOURCE_SHOWN, COMPACT_SOURCE_TAIL = 56, 20
SHORT_TYPES = {"agent_inferred": "inferred", "user_stated": "stated", "user_confirmed": "confirmed"}


def word_diff(a: str, b: str) -> tuple[Text, Text]:
    """Both texts with the words that differ from the other side emphasised (a word-level diff, like lazygit's).
    Line breaks are kept (a checklist or a summary stays one item a line); other runs of spaces are one space. What
    a terminal would act on (an escape sequence, a bidi override: `inert_text`) is a space."""
    wa, wb = _words(inert_text(a)), _words(inert_text(b))
    ta, tb = _Runs(), _Runs()
    for op, i1, i2, j1, j2 in SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        same = op == "equal"
        if i2 > i1:
            ta.add(wa[i1:i2], "" if same else DIFF_STYLE["existing"])
        if j2 > j1:
            tb.add(wb[j1:j2], "" if same else DIFF_STYLE["incoming"])
    return ta.text(), tb.text()


def _words(text: str) -> list[str]:
    """Words and line breaks (at most one blank line in a row), in order."""
    return [w for w in re.sub(r"\n(\s*\n)+", "\n\n", text.strip()).replace("\n", " \n ").split(" ") if w]


class _Runs:
    """A text built of runs of words, a space between two words and none around a line break."""

    def __init__(self) -> None:
        self.out = Text()
        self.spaced = False  # the text ends with a space put after a word

    def add(self, words: list[str], style: str) -> None:
        run = " ".join(words).replace(" \n ", "\n").replace(" \n", "\n").replace("\n ", "\n")
        if run.startswith("\n") and self.spaced:
            self.out.right_crop(1)
        self.spaced = not run.endswith("\n")
        self.out.append(run + " " if self.spaced else run, style=style)

    def text(self) -> Text:
        if self.spaced:
            self.out.right_crop(1)
        return self.out


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


def provenance_grid(
    side: dict[str, Any], expires: Text | None = None, compact: bool = False, whole: bool = False
) -> Table:
    """Source, type, actor, time, evidence grade, confidence, category (and expiry) — in four rows when `compact`
    (a narrow terminal, where both sides must fit under the queue). A long source ref is cut in its middle unless
    `whole`."""

    def field(key: str) -> str:  # as the side holds it, less what a terminal would act on (`inert_text`)
        return inert_text(str(side.get(key) or ""))

    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim", no_wrap=True, min_width=7 if compact else 10)
    grid.add_column(overflow="fold")
    grade = field("evidence_grade") or "—"
    grade_style = {"high": "bold green", "medium": "yellow", "low": "red"}.get(grade, "")
    conf = side.get("confidence")
    conf_text = f"{float(conf):.2f}" if isinstance(conf, (int, float)) else "—"
    ref = field("source_ref")
    # A ref may be 2048 bytes (a URL with its query string): whole, it took every row of the side (the statement's
    # whole view, `conflicts.whole`, shows it unabridged).
    shown = ref if whole else middle_cut(ref, *((COMPACT_SOURCE_SHOWN, COMPACT_SOURCE_TAIL) if compact else ()))
    source = Text(shown or "(none)", style="underline" if ref else "dim")
    if compact:
        grid.add_row("source", source)
        kind = field("source_type") or "—"
        grid.add_row("by", f"{field('actor') or '—'} · {SHORT_TYPES.get(kind, kind)}")
        grid.add_row("at", Text.assemble(_short_time(field("at"))[:10], " · ", (grade, grade_style), f" {conf_text}"))
        if expires is not None:
            grid.add_row("expires", expires)
        return grid
    grid.add_row("source", source)
    grid.add_row("type", field("source_type") or "—")
    grid.add_row("actor", field("actor") or "—")
    grid.add_row("at", _short_time(field("at")))
    grid.add_row("evidence", Text(grade, style=grade_style))
    grid.add_row("confidence", conf_text)
    grid.add_row("category", field("category") or "—")
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
        self,
        side: dict[str, Any],
        text: Text,
        where: str,
        expires: Text | None = None,
        compact: bool = False,
        fit: tuple[int, int] | None = None,
        whole_key: str = "v",
    ) -> None:
        """The statement over its provenance. With `fit` (columns, rows the side's content may take), a statement
        longer than what is left once the provenance is counted is cut, and says how to see it whole: the
        provenance (source, actor, grade) always shows, however long the statement (a 12 KB note filled the side,
        and the box cut off its provenance with nothing to scroll)."""
        where = inert_text(where)
        if compact:  # where the side lives goes to the border: every row counts at 24 lines
            self.border_subtitle = where
            rest: list[RenderableType] = [provenance_grid(side, expires, compact=True)]
        else:
            self.border_subtitle = ""
            rest = [Text(""), provenance_grid(side, expires), Text(""), Text(where, style="dim italic")]
        body = text
        if fit is not None and fit[0] > 0:
            console = self.app.console
            width, rows = fit
            below = len(console.render_lines(Group(*rest), console.options.update_width(width), pad=False))
            body = clip_statement(text, width, max(2, rows - below), console, whole_key)
        self.update(Group(body, *rest))


def clip_statement(text: Text, width: int, rows: int, console: Console, whole_key: str = "v") -> Text:
    """`text` whole when it wraps to at most `rows` lines of `width` cells; else its first `rows - 1` lines and a
    last one saying how much is left and which key shows it whole. Reads at most `rows × width` characters: a line
    never holds more, and a 64 KB statement is not wrapped whole to show its first lines."""
    head = text[: rows * width + 1]
    lines = head.wrap(console, width)
    if len(lines) <= rows and len(head) == len(text):
        return text
    marker = more_marker(len(text.plain), whole_key)  # (its widest: for the rows it takes)
    kept = lines[: max(1, rows - len(marker.wrap(console, width)))]
    plain, shown = text.plain, 0
    for line in kept:  # where the kept lines end in the text (wrapping drops the spaces and newlines it breaks at)
        at = plain.find(line.plain, shown)
        shown = at + len(line.plain) if at >= 0 else shown + len(line.plain)
    left = len(plain[shown:].strip())
    out = Text("\n").join(kept)
    out.append("\n")
    out.append_text(more_marker(left, whole_key))
    return out

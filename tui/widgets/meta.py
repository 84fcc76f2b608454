"""Compact renderings shared by panes: a record's metadata grid and trust-zone colours."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group
from rich.table import Table
from rich.text import Text

from memkeeper.core import Entry
from memkeeper.core.errors import clip
from memkeeper.core.models import inert_text

# Colours name the zone everywhere it appears (results, metadata, zone strip) so a leak stands out.
ZONE_STYLES: dict[str, str] = {
    "private_self": "magenta",
    "trusted_collaborator": "cyan",
    "outside_contact": "yellow",
    "paid_public": "green",
}
SENSITIVITY_STYLES: dict[str, str] = {"do_not_export": "bold red", "public_safe": "green", "normal": ""}
STATUS_STYLES: dict[str, str] = {"active": "green", "archived": "dim", "superseded": "yellow", "denied": "red"}


#: The most characters of a source ref the narrow metadata shows; a longer one keeps its start and its end. Refs may
#: be 2048 bytes (a URL with its query string): wrapped whole at 80 columns they took every row of the page panel,
#: and the page itself was not shown at all.
SOURCE_SHOWN = 100
SOURCE_TAIL = 32


def middle_cut(text: str, limit: int = SOURCE_SHOWN, tail: int = SOURCE_TAIL) -> str:
    """`text` whole when it is at most `limit` characters, else its start and its last `tail` characters around
    an ellipsis (a path or a URL is told apart by its end as often as by its start)."""
    return clip(text, limit, tail=tail, mark=" … ")


def more_marker(left: int, whole_key: str) -> Text:
    """The last line of a text cut short: how much is left, and the key that shows it whole."""
    return Text(f"… {left:,} more characters · {whole_key}: whole", style="italic yellow")


def short_time(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else "—"


def entry_meta_table(entry: Entry, narrow: bool = False) -> Group:
    """zone, sensitivity, status, tier, confidence, strength, reinforcement, evidence, source, verified, dates —
    three key/value pairs per row so the whole record fits in five lines; two per row when `narrow` (the page panel
    is about 50 columns at 80), where the date and source lines wrap rather than lose their ends."""
    pairs_per_row = 2 if narrow else 3
    grid = Table.grid(padding=(0, 1), expand=True)
    for _ in range(pairs_per_row):
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")

    def v(text: str, style: str = "") -> Text:
        return Text(text, style=style)

    zone = entry.trust_zone.value
    sens = entry.sensitivity_tier.value
    status = entry.status.value
    verified = f"{inert_text(entry.verified.by)} {short_time(entry.verified.at)}" if entry.verified else "no"
    ref = inert_text(entry.source_ref or "")
    source = entry.source_type.value + (f" · {middle_cut(ref) if narrow else ref}" if ref else "")
    pairs = [
        ("zone", v(zone, ZONE_STYLES.get(zone, ""))),
        ("sensitivity", v(sens, SENSITIVITY_STYLES.get(sens, ""))),
        ("status", v(status, STATUS_STYLES.get(status, ""))),
        ("tier", v(entry.tier.value, "cyan" if entry.tier.value == "cold" else "")),
        ("confidence", v(f"{entry.confidence:.2f}")),
        ("strength", v(f"{entry.strength:.2f}")),
        ("reinforced", v(str(entry.reinforcement))),
        ("evidence", v(entry.evidence_grade.value)),
        ("verified", v(verified, "green" if entry.verified else "dim")),
    ]
    if narrow:  # the dates as grid cells (days only): a line of three timestamps would wrap mid-way
        pairs += [
            ("created", v(f"{entry.created_at:%Y-%m-%d}")),
            ("updated", v(f"{entry.updated_at:%Y-%m-%d}")),
            ("accessed", v(f"{entry.last_accessed_at:%Y-%m-%d}")),
        ]
        if entry.expires_at:
            pairs.append(("expires", v(f"{entry.expires_at:%Y-%m-%d}", "yellow")))
    for at in range(0, len(pairs), pairs_per_row):
        row = pairs[at : at + pairs_per_row]
        row += [("", v(""))] * (pairs_per_row - len(row))
        grid.add_row(*(cell for pair in row for cell in pair))
    # Free-width lines below the grid: dates, source refs and ids are too long for a grid cell.
    dates = Text.assemble(
        ("created ", "dim"),
        short_time(entry.created_at),
        ("  updated ", "dim"),
        short_time(entry.updated_at),
        ("  accessed ", "dim"),
        short_time(entry.last_accessed_at),
    )
    if entry.expires_at:
        dates.append_text(Text.assemble(("  expires ", "dim"), (short_time(entry.expires_at), "yellow")))
    source_line = Text.assemble(("source ", "dim"), source, ("  ", ""), (entry.memory_id, "dim"))
    lines: list[Text | Table] = [grid, source_line] if narrow else [grid, dates, source_line]
    if entry.superseded_by:
        lines.append(Text.assemble(("superseded by ", "dim"), (entry.superseded_by, "yellow")))
    for line in lines[1:]:
        if isinstance(line, Text) and not narrow:
            line.no_wrap = True
            line.overflow = "ellipsis"
    return Group(*lines)

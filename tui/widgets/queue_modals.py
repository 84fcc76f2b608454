"""What the queue panes put in the app's generic dialogs (`screens/modals.py`): checking a snooze date as the engine
reads it, and the body of the tier-apply confirmation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from rich.console import Group
from rich.table import Table
from rich.text import Text

from memkeeper.core.models import inert_text
from memkeeper.core.tiers import Candidate
from memkeeper.core.until import OutOfRange, read_until


def snooze_error(text: str, now: datetime, zone: str) -> str | None:
    """Why `text` is not a usable snooze end (for the input dialog's validation), or None. Read as the engine reads
    it (`until.read_until`: a date until it begins in the person's time zone `zone`), so what the dialog takes the
    engine takes, and ends at the same time as the command line's `--snooze` with the same text."""
    try:
        until = read_until(text, now=now, zone=zone, day_end=False)
    except ValueError as exc:
        return str(exc) if isinstance(exc, OutOfRange) else f"Not a date: {text!r} (YYYY-MM-DD, an ISO time, or 7d)"
    if until.at <= now:
        return f"Pick a time after now: {until.not_after(now)}."
    return None


def human_bytes(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


@dataclass
class ApplySummary:
    """What applying a tier review will do, as the confirmation shows it. An apply moves the ids it accepts and
    nothing else: the plan's automatic records (`automatic_count`, when a review waits while some are warm, e.g.
    after the commit that wrote it was undone) go cold only with the next commit, so their bytes are not projected
    here."""

    review: str
    accepted: list[tuple[str, str]]  # (candidate id, title)
    rejected_count: int
    accepted_bytes: int
    automatic_count: int
    not_in_review: list[str] = field(default_factory=list)

    @property
    def total_bytes(self) -> int:
        """The projected bytes: the excerpts of the accepted pages, the only ones the apply moves."""
        return self.accepted_bytes


def commit_summary_renderable(
    first: Sequence[Candidate], *, automatic: int, projected_bytes: int, ambiguous: int, protected: int
) -> Group:
    """The body of the commit confirmation: what goes cold now, what waits for a review, and the first pages that go
    cold (`first`: at most 8 are listed)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", justify="right", no_wrap=True)
    grid.add_column()
    grid.add_row(
        "automatic → cold",
        Text(f"{automatic} page{'s' if automatic != 1 else ''} ({human_bytes(projected_bytes)})", style="bold"),
    )
    grid.add_row("to review", f"{ambiguous} ambiguous (a review file; nothing moves until you apply it)")
    grid.add_row("protected", f"{protected} kept")
    pages = Text()
    for c in first[:8]:
        pages.append("  · ", style="dim")
        pages.append(f"{inert_text(c.title)}\n")
    if automatic > 8:
        pages.append(f"  … and {automatic - 8} more\n", style="dim")
    pages.rstrip()
    note = Text("Cold is reversible (w restores one page); one undo reverses the whole commit.", style="dim")
    return Group(grid, Text(""), pages, Text(""), note)


def apply_summary_renderable(s: ApplySummary) -> Group:
    """The body of the apply confirmation: what goes cold, what stays, projected bytes, and the guarantee."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", justify="right", no_wrap=True)
    grid.add_column()
    grid.add_row("review", inert_text(s.review))
    grid.add_row(
        "accept → cold", Text(f"{len(s.accepted)} id{'s' if len(s.accepted) != 1 else ''}", style="bold green")
    )
    grid.add_row("stay unchanged", f"{s.rejected_count} id{'s' if s.rejected_count != 1 else ''}")
    if s.automatic_count:
        grid.add_row("automatic", f"{s.automatic_count} wait for the next commit")
    grid.add_row(
        "projected bytes",
        Text.assemble((human_bytes(s.total_bytes), "bold"), ("  the accepted pages' excerpts", "dim")),
    )
    ids = Text()
    for cid, title in s.accepted[:8]:
        ids.append(f"  ✓ {cid}  ", style="green")
        ids.append(f"{inert_text(title)}\n")
    if len(s.accepted) > 8:
        ids.append(f"  … and {len(s.accepted) - 8} more\n", style="dim")
    if not s.accepted:
        ids.append("No id accepted: every candidate stays unchanged and the review is closed.\n", style="italic")
    if s.not_in_review:
        ids.append(
            f"⚠ {len(s.not_in_review)} toggled id(s) are not in this review and are left out: "
            f"{', '.join(s.not_in_review[:4])}\n",
            style="yellow",
        )
    ids.rstrip()
    note = Text(
        "Every accepted page is hash-checked first: if any changed since the plan, nothing is written. "
        "Cold is reversible (w restores).",
        style="dim",
    )
    return Group(grid, Text(""), ids, Text(""), note)

"""The pane's one status area, a line above the footer (lazygit's command log, one line).

It shows the receipt of the last decision, or what just happened (a reload, a copy, why a key did nothing), or the
pane's hint. Toasts are for errors only: a receipt that lands here never covers the pane. The line is fitted to its
width by dropping the least important parts first (the undo hint, then the receipt hash, then the summary's details
from its end, then the status word), so at 80 columns what the decision did stays readable; a part dropped only to
make room for one that went later comes back. A hint or an outcome may come in several wordings, longest first: the
line shows the first that fits (80 columns is the floor; a wide terminal gets the whole sentence).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.widgets import Static

from memkeeper.core import Receipt
from memkeeper.core.models import UNRECORDED_STATUSES, inert_text

#: (text, style, priority): priority 0 is never dropped; higher numbers go first when the line is too narrow.
Part = tuple[str, str, int]

#: What a pane says: one text, or several wordings of it, longest first (`StatusLine.show_text`).
Wording = str | tuple[str, ...]

#: A summary's details ("what · detail · detail"): dropped from the end after the receipt hash, before the status word.
DETAIL = 2


def fit_parts(parts: list[Part], width: int) -> Text:
    """The parts that fit in `width` cells, dropping the highest priority numbers first (the last such part first);
    then a dropped part comes back if it fits after all (it was dropped before one that went later). What still does
    not fit is cut with an ellipsis."""
    size = [cell_len(t) for t, _, _ in parts]
    kept = list(range(len(parts)))
    dropped: list[int] = []
    while width > 0 and sum(size[i] for i in kept) > width:
        droppable = [i for i in kept if parts[i][2] > 0]
        if not droppable:
            break
        worst = max(parts[i][2] for i in droppable)
        # Drop the last part of the lowest priority: "· u undo" goes before "· receipt …".
        victim = max(i for i in droppable if parts[i][2] == worst)
        kept.remove(victim)
        dropped.append(victim)
    for i in reversed(dropped):  # the most important first
        if sum(size[k] for k in kept) + size[i] <= width:
            kept.append(i)
    line = Text(no_wrap=True, overflow="ellipsis", end="")
    for i in sorted(kept):
        text, style, _ = parts[i]
        line.append(text, style=style)
    return line


def summary_parts(summary: str) -> list[Part]:
    """A decision's summary as parts: what it did (never dropped), then each " · detail" (droppable, from the end)."""
    head, *details = summary.split(" · ")
    return [(head, "", 0), *((f" · {d}", "", DETAIL) for d in details)]


#: What the line adds when the disk refused to finish a decision that stands (the note toast says the rest).
UNFINISHED = " · ⚠ not finished on disk"


def _with_unfinished(parts: list[Part], unfinished: bool) -> list[Part]:
    """`parts` with the unfinished mark after what the decision did (before the droppable receipt and undo hint)."""
    if not unfinished:
        return parts
    at = next((i for i, (_, _, priority) in enumerate(parts) if priority >= 2), len(parts))
    return [*parts[:at], (UNFINISHED, "bold yellow", 0), *parts[at:]]


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        padding: 0 1;
        color: $text-muted;
        background: $surface;
    }
    """

    def __init__(self, hint: Wording = "", id: str | None = "status") -> None:
        super().__init__("", id=id)
        self.hint = hint
        self.parts: list[Part] = []
        #: Shorter wordings of `parts`, for narrower lines (`show_text`).
        self._shorter: list[list[Part]] = []
        self.show_hint()

    @property
    def plain(self) -> str:
        """Everything the line says (before fitting; its longest wording), as plain text."""
        return "".join(t for t, _, _ in self.parts)

    def _show(self, parts: list[Part], *shorter: list[Part]) -> None:
        # A line may repeat stored text (a title, a file name, a reason given): less what a terminal would act on.
        parts, *more = ([(inert_text(t), style, p) for t, style, p in w] for w in (parts, *shorter))
        self.parts = parts
        self._shorter = more
        self._render_parts()

    def _render_parts(self) -> None:
        width = self.content_size.width
        # The first wording whose undroppable text fits; the last one (cut) when none does.
        wordings = [self.parts, *self._shorter]
        parts = next(
            (w for w in wordings if width <= 0 or sum(cell_len(t) for t, _, p in w if p == 0) <= width),
            wordings[-1],
        )
        self.update(fit_parts(parts, width))

    def on_resize(self) -> None:
        self._render_parts()

    def show_hint(self) -> None:
        self.show_text(self.hint, "dim")

    def show_receipt(self, receipt: Receipt, summary: str, undo_key: str = "", *, unfinished: bool = False) -> None:
        """A decision's receipt. `unfinished`: it stands, but the disk refused to finish writing it (a note says
        what is left; the next write or `check --repair` finishes it): said on the line, never dropped."""
        ok = receipt.ok
        parts: list[Part] = [
            ("✓ " if ok else "✗ ", "bold green" if ok else "bold red", 0),
            (receipt.status + (" · " if summary else ""), "bold", 1),
        ]
        if summary:
            parts += summary_parts(summary)
        if not ok and receipt.details.get("reason"):
            parts.append((f" · {receipt.details['reason']}", "red", 1))
        if receipt.status in UNRECORDED_STATUSES:
            # refused, rejected or dropped: nothing was written, this receipt included (undo would not find it)
            parts.append((" · nothing recorded", "dim", 2))
        elif receipt.receipt_sha256:
            parts.append((f" · receipt {receipt.receipt_sha256[:12]}", "dim", 2))
        if ok and receipt.action != "undo" and undo_key:
            parts.append((f" · {undo_key} undo", "dim", 3))
        self._show(_with_unfinished(parts, unfinished))

    def show_receipts(
        self, receipts: list[Receipt], summary: str, undo_key: str = "", *, unfinished: bool = False
    ) -> None:
        """One key press's receipts: one receipt as `show_receipt`; a batch as counts (one undo reverses it all)."""
        if len(receipts) == 1:
            self.show_receipt(receipts[0], summary, undo_key, unfinished=unfinished)
            return
        ok = sum(1 for r in receipts if r.ok)
        statuses = sorted({r.status for r in receipts})
        parts: list[Part] = [
            ("✓ " if ok == len(receipts) else "✗ ", "bold green" if ok == len(receipts) else "bold red", 0),
            (f"{' / '.join(statuses)} · " if summary else " / ".join(statuses), "bold", 1),
        ]
        if summary:
            parts += summary_parts(summary)
        if ok != len(receipts):
            parts.append((f" · {len(receipts) - ok} of {len(receipts)} not done", "red", 0))
        parts.append((f" · {len(receipts)} receipts", "dim", 2))
        if ok and receipts[-1].action != "undo" and undo_key:
            parts.append((f" · {undo_key} undoes all {ok}", "dim", 3))
        self._show(_with_unfinished(parts, unfinished))

    def show_text(self, text: Wording, style: str = "") -> None:
        """One line of text; several wordings (longest first) show the longest that fits the line."""
        wordings = [text] if isinstance(text, str) else list(text)
        self._show(*([(w, style, 0)] if w else [] for w in wordings or [""]))

    def show_error(self, text: str) -> None:
        self._show([("✗ ", "bold red", 0), (text, "red", 0)])

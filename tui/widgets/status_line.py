"""The pane's one status area, a line above the footer (lazygit's command log, one line).

It shows the receipt of the last decision, or what just happened (a reload, a copy, why a key did nothing), or the
pane's hint. Toasts are for errors only: a receipt that lands here never covers the pane. The line is fitted to its
width by dropping the least important parts first (the undo hint, then the receipt hash, then the status word), so
at 80 columns what the decision did stays readable.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from memkeeper.core import Receipt

#: (text, style, priority): priority 0 is never dropped; higher numbers go first when the line is too narrow.
Part = tuple[str, str, int]


def fit_parts(parts: list[Part], width: int) -> Text:
    """The parts that fit in `width` cells, dropping the highest priority numbers first; what still does not fit is
    cut with an ellipsis."""
    kept = list(parts)
    while width > 0 and sum(len(t) for t, _, _ in kept) > width:
        droppable = [p for p in kept if p[2] > 0]
        if not droppable:
            break
        worst = max(p[2] for p in droppable)
        # Drop the last part of the lowest priority: "· u undo" goes before "· receipt …".
        victim = next(p for p in reversed(kept) if p[2] == worst)
        kept.remove(victim)
    line = Text(no_wrap=True, overflow="ellipsis", end="")
    for text, style, _ in kept:
        line.append(text, style=style)
    return line


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        padding: 0 1;
        color: $text-muted;
        background: $surface;
    }
    """

    def __init__(self, hint: str = "", id: str | None = "status") -> None:
        super().__init__("", id=id)
        self.hint = hint
        self.parts: list[Part] = []
        self.show_hint()

    @property
    def plain(self) -> str:
        """Everything the line says (before fitting), as plain text."""
        return "".join(t for t, _, _ in self.parts)

    def _show(self, parts: list[Part]) -> None:
        self.parts = parts
        self._render_parts()

    def _render_parts(self) -> None:
        self.update(fit_parts(self.parts, self.content_size.width))

    def on_resize(self) -> None:
        self._render_parts()

    def show_hint(self) -> None:
        self._show([(self.hint, "dim", 0)] if self.hint else [])

    def show_receipt(self, receipt: Receipt, summary: str, undo_key: str = "") -> None:
        ok = receipt.ok
        parts: list[Part] = [
            ("✓ " if ok else "✗ ", "bold green" if ok else "bold red", 0),
            (receipt.status + (" · " if summary else ""), "bold", 1),
        ]
        if summary:
            parts.append((summary, "", 0))
        if not ok and receipt.details.get("reason"):
            parts.append((f" · {receipt.details['reason']}", "red", 1))
        if receipt.receipt_sha256:
            parts.append((f" · receipt {receipt.receipt_sha256[:12]}", "dim", 2))
        if ok and receipt.action != "undo" and undo_key:
            parts.append((f" · {undo_key} undo", "dim", 3))
        self._show(parts)

    def show_receipts(self, receipts: list[Receipt], summary: str, undo_key: str = "") -> None:
        """One key press's receipts: one receipt as `show_receipt`; a batch as counts (one undo reverses it all)."""
        if len(receipts) == 1:
            self.show_receipt(receipts[0], summary, undo_key)
            return
        ok = sum(1 for r in receipts if r.ok)
        statuses = sorted({r.status for r in receipts})
        parts: list[Part] = [
            ("✓ " if ok == len(receipts) else "✗ ", "bold green" if ok == len(receipts) else "bold red", 0),
            (f"{' / '.join(statuses)} · " if summary else " / ".join(statuses), "bold", 1),
        ]
        if summary:
            parts.append((summary, "", 0))
        if ok != len(receipts):
            parts.append((f" · {len(receipts) - ok} of {len(receipts)} not done", "red", 0))
        parts.append((f" · {len(receipts)} receipts", "dim", 2))
        if ok and receipts[-1].action != "undo" and undo_key:
            parts.append((f" · {undo_key} undoes all {ok}", "dim", 3))
        self._show(parts)

    def show_text(self, text: str, style: str = "") -> None:
        self._show([(text, style, 0)])

    def show_error(self, text: str) -> None:
        self._show([("✗ ", "bold red", 0), (text, "red", 0)])

"""The one-line log of the last decision at the bottom of a queue pane (lazygit's command log, one line)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from memkeeper.core import Receipt


class DecisionLine(Static):
    DEFAULT_CSS = """
    DecisionLine {
        height: 1;
        padding: 0 1;
        color: $text-muted;
        background: $surface;
    }
    """

    def __init__(self, hint: str = "", id: str | None = None) -> None:
        super().__init__("", id=id)
        self.hint = hint
        self.show_hint()

    def show_hint(self) -> None:
        self.update(Text(self.hint, style="dim"))

    def show_receipt(self, receipt: Receipt, summary: str) -> None:
        ok = receipt.ok
        line = Text()
        line.append("✓ " if ok else "✗ ", style="bold green" if ok else "bold red")
        line.append(receipt.status, style="bold")
        line.append(f" · {summary}")
        if not ok and receipt.details.get("reason"):
            line.append(f" · {receipt.details['reason']}", style="red")
        if receipt.receipt_sha256:
            line.append(f" · receipt {receipt.receipt_sha256[:12]}", style="dim")
        if ok and receipt.action != "undo":
            line.append(" · u undo", style="dim")
        self.update(line)

    def show_text(self, text: str, style: str = "") -> None:
        self.update(Text(text, style=style))

"""The base of every pane: access to the engine, the injected clock, the actor, and the shared chrome."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer

from memkeeper.core import Engine, Receipt

if TYPE_CHECKING:
    from memkeeper.tui.app import MemkeeperApp


class PaneScreen(Screen):
    """A pane. Subclasses implement `compose_body()` (their widgets; the counts bar and footer are added here) and
    `refresh_data()`, which re-reads from the engine and must keep the cursor/selection where it was."""

    PANE_ID: str = ""  # "browse" | "conflicts" | "verify" | "quiz" | "tiers" | "receipts"

    # The "nothing here" panel every queue shows when it is empty.
    DEFAULT_CSS = """
    PaneScreen .empty-state {
        height: 1fr;
        content-align: center middle;
        text-align: center;
        color: $text-muted;
        border: round $panel-lighten-2;
    }
    """
    PANE_TITLE: str = ""

    def compose(self) -> ComposeResult:
        from memkeeper.tui.widgets.countsbar import CountsBar

        yield CountsBar(self.PANE_ID)
        yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> Iterable[Widget]:  # pragma: no cover - overridden
        return []

    @property
    def mk(self) -> MemkeeperApp:
        return self.app  # type: ignore[return-value]

    @property
    def engine(self) -> Engine:
        return self.mk.engine

    @property
    def actor(self) -> str:
        return self.mk.actor

    def now(self) -> datetime:
        return self.mk.now()

    def refresh_data(self) -> None:  # pragma: no cover - overridden
        """Re-read from the engine, keep the selection."""

    def decided(self, receipt: Receipt) -> None:
        """Report a decision: notification with the receipt status, the pane's undo stack, header counts."""
        self.mk.decision_made(receipt, self.PANE_ID)

    def on_screen_resume(self) -> None:
        if self.mk.is_stale(self.PANE_ID):
            self.mk.mark_fresh(self.PANE_ID)
            self.refresh_data()

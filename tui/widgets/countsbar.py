"""The header every pane shows: pane tabs (the current one highlighted, each with its live key) carrying the queue
counts — open conflicts on Conflicts, pending verifications on Verify, quiz due on Quiz, tier candidates on Tiers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Label, Static

from .status_line import Part, fit_parts

if TYPE_CHECKING:
    from memkeeper.tui.app import MemkeeperApp

# Which count belongs on which tab, and how the tooltip names it.
TAB_COUNTS: dict[str, tuple[str, str]] = {
    "conflicts": ("open_conflicts", "open conflicts"),
    "verify": ("pending_verifications", "pending verifications"),
    "quiz": ("quiz_due", "quiz items due"),
    "tiers": ("tier_candidates", "tier candidates"),
}


class PaneTab(Label):
    """One pane tab; clicking it switches pane."""

    def __init__(self, pane_id: str, active: bool) -> None:
        super().__init__("", id=f"tab-{pane_id}", classes="tab -active" if active else "tab")
        self.pane_id = pane_id

    def on_click(self) -> None:
        self.app.action_switch_pane(self.pane_id)  # type: ignore[attr-defined]


class CountsStatus(Static):
    """The right end of the header (sync progress, record count, actor), fitted to what the tabs leave: the record
    count goes first, then the actor; a progress text stays."""

    parts: list[Part] = []

    def show(self, parts: list[Part]) -> None:
        self.parts = parts
        self.update(self._fitted())

    def on_resize(self) -> None:
        self.update(self._fitted())

    def _fitted(self) -> Text:
        """The parts that fit; nothing while the tabs leave no room (at 80 columns) or before the header is laid out
        (then `on_resize` fits them). Given all the parts to a region of no width, the header was drawn one way or
        another depending on when the layout came, and a snapshot of it differed from run to run."""
        width = self.content_size.width
        return fit_parts(self.parts, width) if width > 0 else Text("")


class CountsBar(Horizontal):
    """Header: `memkeeper │ B Browse  C Conflicts 6  V Verify 24 … │ 312 records`."""

    DEFAULT_CSS = """
    CountsBar {
        height: 1;
        width: 1fr;
        background: $panel;
    }
    CountsBar #brand {
        padding: 0 1;
        color: $text-primary;
        text-style: bold;
    }
    CountsBar .tab {
        padding: 0 1;
        color: $text-muted;
    }
    CountsBar .tab:hover {
        background: $boost;
        color: $text;
    }
    CountsBar .tab.-active {
        background: $primary;
        color: $text;
        text-style: bold;
    }
    CountsBar #counts-status {
        width: 1fr;
        content-align: right middle;
        padding: 0 1;
        color: $text-muted;
    }
    """

    def __init__(self, pane_id: str) -> None:
        super().__init__(id="counts-bar")
        self.pane_id = pane_id

    @property
    def mk(self) -> MemkeeperApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        from memkeeper.tui.app import PANES

        yield Label("memkeeper", id="brand")
        for pid in PANES:
            yield PaneTab(pid, pid == self.pane_id)
        yield CountsStatus("", id="counts-status")

    def on_mount(self) -> None:
        self.watch(self.app, "counts", self._render_counts, init=False)
        self.watch(self.app, "counting", self._render_counts, init=False)
        self.watch(self.app, "sync_progress", self._render_counts, init=False)
        self._render_counts()

    def _render_counts(self, _value: Any = None) -> None:
        from memkeeper.tui.app import PANE_TITLES, PANES

        app = self.mk
        counts = app.counts or {}
        for pid in PANES:
            tab = self.query_one(f"#tab-{pid}", PaneTab)
            key = app.key_for(f"app.{pid}")
            title = PANE_TITLES[pid]
            parts: list[Content | str] = []
            # The key is underlined in the title when the title starts with it (B Browse → B̲rowse): six tabs and
            # their counts then fit in 80 columns.
            first = key.split("/")[0]
            if first and title.startswith(first):
                parts += [Content.styled(first, "underline"), title[len(first) :]]
            elif key:
                parts += [Content.styled(key, "underline"), " ", title]
            else:
                parts.append(title)
            tooltip = f"{PANE_TITLES[pid]} pane ({key})" if key else f"{PANE_TITLES[pid]} pane"
            if pid in TAB_COUNTS:
                field, noun = TAB_COUNTS[pid]
                value = counts.get(field)
                badge = "…" if value is None else str(value)
                style = "bold $text-warning" if value and pid == "conflicts" else "bold"
                parts.append(" ")
                parts.append(Content.styled(badge, style) if pid != self.pane_id else Content.styled(badge, "bold"))
                if value is not None:
                    tooltip += f": {value} {noun}"
            tab.update(Content.assemble(*parts))
            tab.tooltip = tooltip
        status: list[Part] = []
        if app.sync_progress:
            status.append((app.sync_progress + " · ", "", 0))
        elif app.counting:
            status.append(("counting… · ", "", 1))
        if "records" in counts:
            status.append((f"{counts['records']} records · ", "", 2))
        status.append((app.actor, "", 1))
        self.query_one("#counts-status", CountsStatus).show(status)

"""The help screen: the LIVE keymap — every binding of the current pane, the focused widget and the app, with the key
it is bound to right now (after the preset and the user file) and its binding id, so remapping is copy-paste."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from ..keymap import display_source, live_bindings, user_keymap_display
from ..widgets.queue_table import ListTable

if TYPE_CHECKING:
    from ..app import MemkeeperApp


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "close", "Close", id="help.close")]

    def __init__(self, pane: Screen | None) -> None:
        super().__init__(classes="modal")
        self.pane = pane

    @property
    def mk(self) -> MemkeeperApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        with Vertical(id="help-dialog"):
            title = "Keys"
            if self.pane is not None:
                title += f" — {getattr(self.pane, 'PANE_TITLE', '') or type(self.pane).__name__}"
            yield Label(Content(title), id="help-title")
            yield ListTable(id="help-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="help-source")

    def rows(self) -> list[tuple[str, str, str, str]]:
        """(scope, key, description, binding id) for the pane, the focused widget and the app — live keys."""
        keymap = self.mk.active_keymap
        scopes: list[tuple[str, DOMNode]] = []
        if self.pane is not None:
            scopes.append((getattr(self.pane, "PANE_ID", "") or "pane", self.pane))
            focused = self.pane.focused
            if focused is not None:
                scopes.append((f"{type(focused).__name__.lower()}", focused))
        scopes.append(("app", self.mk))
        out: list[tuple[str, str, str, str]] = []
        for scope, node in scopes:
            by_id: dict[str, list[str]] = {}
            meta: dict[str, Binding] = {}
            for b in live_bindings(node, keymap):
                if b.system or (not b.id and not b.description):
                    continue
                ident = b.id or f"{scope}:{b.action}"
                by_id.setdefault(ident, [])
                display = self.mk.get_key_display(b)
                if display not in by_id[ident]:
                    by_id[ident].append(display)
                meta.setdefault(ident, b)
            for ident, keys in by_id.items():
                b = meta[ident]
                what = b.description or b.action
                if b.tooltip:  # what the footer has no room for: the help says it in full
                    what += f" — {b.tooltip}"
                out.append((scope, ", ".join(keys), what, b.id or "—"))
        # Remappable bindings (with ids) first, pane before app; then the widget and focus keys Textual provides.
        out.sort(key=lambda row: row[3] == "—")
        return out

    def on_mount(self) -> None:
        table = self.query_one(ListTable)
        # The action column takes what the others leave: the table fits the dialog at 80 columns.
        table.flex = {"action": (1, 12, 60)}
        for name in ("scope", "key", "action", "binding id"):
            table.add_column(name, key=name)
        table.add_rows(self.rows())
        table.focus()
        km = self.mk.keymap
        sources = " + ".join(display_source(s) for s in km.sources) or "default"
        lines = [f"keymap: {sources}   ·   override by id in {user_keymap_display()}   ·   esc closes"]
        lines += [f"⚠ {err}" for err in km.errors[:4]]
        self.query_one("#help-source", Static).update(Content("\n".join(lines)))

    def action_close(self) -> None:
        self.dismiss(None)

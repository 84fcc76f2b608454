"""The footer every pane shows, fitted to its width.

Textual's Footer lays every shown binding out in a row and lets the ones past the edge disappear, with the palette
key drawn over the last of them: at 80 columns the ends were lost mid-word. This footer keeps whole keys only. When
they do not all fit it goes compact, then leaves out the palette key, then the keys that do nothing right now
(dimmed ones), then the pane's keys from the end of its BINDINGS (panes list their keys in order of use). `? Help`
always stays: the help screen lists every key.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

HELP_ID = "app.help"
PALETTE_ID = "app.command_palette"
COMPACT_BELOW = 110  # columns; the panes' narrow layout starts at the same width


class DeskFooter(Footer):
    def __init__(self) -> None:
        super().__init__()
        self._fitted_width = 0
        #: The binding ids shown after the last fit (tests read it).
        self.shown_ids: list[str] = []

    def _cost(self, binding: Binding, compact: bool) -> int:
        # FooterKey: " key " + "description " normally; "key" + " description" + a one-cell margin when compact.
        return len(self.app.get_key_display(binding)) + len(binding.description) + (2 if compact else 3)

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        width = self.size.width or self.app.size.width
        self._fitted_width = width
        active = self.screen.active_bindings
        # One key per action, as Textual's footer shows them (quiz reveal is space and enter: space is shown).
        by_action: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in by_action:
                by_action[binding.action] = (binding, enabled, tooltip)
        items = list(by_action.values())
        compact = width < COMPACT_BELOW or sum(self._cost(b, False) for b, _, _ in items) > width
        self.compact = compact
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            # By binding id: the keymap may have moved the palette off Textual's fixed `ctrl+p`.
            palette = next((entry for entry in active.values() if entry[1].id == PALETTE_ID), None)
        total = sum(self._cost(b, compact) for b, _, _ in items)
        palette_cost = self._cost(palette[1], compact) + 2 if palette else 0
        if palette and total + palette_cost > width:
            palette = None
            palette_cost = 0
        for dimmed_first in (True, False):
            for item in reversed(list(items)):
                if total + palette_cost <= width:
                    break
                binding, enabled, _ = item
                if binding.id == HELP_ID or (dimmed_first and enabled):
                    continue
                items.remove(item)
                total -= self._cost(binding, compact)
        self.shown_ids = [b.id or b.action for b, _, _ in items]
        for binding, enabled, tooltip in items:
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                disabled=not enabled,
                tooltip=tooltip,
            ).data_bind(compact=Footer.compact)
        if palette is not None:
            _node, binding, enabled, tooltip = palette
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=binding.tooltip or binding.description,
            )

    def on_resize(self) -> None:
        if self._bindings_ready and self.size.width != self._fitted_width:
            self.call_after_refresh(self.recompose)

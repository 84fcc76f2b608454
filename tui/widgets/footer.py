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
        #: What the keys on show were composed from (`_fit`): a recompose that would show the same is skipped.
        self._shown: tuple[object, ...] | None = None

    def _cost(self, binding: Binding, compact: bool) -> int:
        # FooterKey: " key " + "description " normally; "key" + " description" + a one-cell margin when compact.
        return len(self.app.get_key_display(binding)) + len(binding.description) + (2 if compact else 3)

    async def recompose(self) -> None:
        """Compose again only when what it would show changed. Every decision, key and focus change updates the
        screen's bindings, and a new set of keys (a dozen widgets, each styled as it mounts) took a third of the
        UI thread's time in a quiz sitting, though the keys shown were the same most of the time."""
        if self._bindings_ready and self.is_attached and self._shown is not None and self._fit()[0] == self._shown:
            return
        await super().recompose()

    def _fit(self) -> tuple[tuple[object, ...], bool, list[tuple[Binding, bool, str]], tuple | None]:
        """What the footer shows at its width now: (a signature of it, compact, the keys, the palette key)."""
        width = self.size.width or self.app.size.width
        active = self.screen.active_bindings
        # One key per action, as Textual's footer shows them (quiz reveal is space and enter: space is shown).
        by_action: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in by_action:
                by_action[binding.action] = (binding, enabled, tooltip)
        items = list(by_action.values())
        compact = width < COMPACT_BELOW or sum(self._cost(b, False) for b, _, _ in items) > width
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
        shown = [(b, e, t) for b, e, t in items] + ([palette[1:]] if palette is not None else [])
        signature = (
            width,
            compact,
            palette is not None,
            tuple((b.key, self.app.get_key_display(b), b.description, b.action, e, t) for b, e, t in shown),
        )
        return signature, compact, items, palette

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        signature, compact, items, palette = self._fit()
        self._fitted_width = signature[0]  # type: ignore[assignment]
        self._shown = signature
        self.compact = compact
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

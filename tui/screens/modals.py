"""Generic dialogs every pane reuses: a yes/no confirmation, a one-line text input and a long text to read.

Both are `ModalScreen`s used with a callback (`app.push_screen(ConfirmModal(...), on_result)`) or, inside a worker,
`await app.push_screen_wait(...)`. Messages are shown as plain text unless a `Content` / Rich renderable is passed, so
user text (titles, page content) can never be read as markup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import RenderableType
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Static

from memkeeper.core.models import inert_text

Message = str | Content | RenderableType


#: Below this many rows the dialog drops its inner top and bottom padding.
SHORT_SCREEN = 30


def bound_key(screen: Screen[Any], binding_id: str, *, typing: bool = False) -> str:
    """The key `binding_id` has now on `screen`, as the footer shows it: what a dialog names on its buttons and hints.

    The screen's own bindings with the app's keymap applied, as Textual resolves a key press there (the desk's
    `key_for` covers the app and the panes, not the dialogs). Of several keys the first is named. `typing`: the
    dialog's focus is a text box, which takes a printable key as text, so name a key it does not take (escape
    rather than n)."""
    app = screen.app
    bindings = screen._bindings.copy()
    if app._keymap:
        bindings.apply_keymap(app._keymap)
    displays = [app.get_key_display(b) for bs in bindings.key_to_bindings.values() for b in bs if b.id == binding_id]
    if typing:
        displays = [d for d in displays if len(d) > 1 or not d.isprintable()] or displays
    return displays[0] if displays else ""


def _body(message: Message) -> VerticalScroll:
    """The message, in a box that scrolls when the screen is too short for all of it (`_FitsTheScreen`)."""
    text = Static(Content(inert_text(message)) if isinstance(message, str) else message, classes="modal-message")
    return VerticalScroll(text, id="dialog-body", can_focus=False)


class _FitsTheScreen:
    """A dialog whose message gives up rows first: the title, the answer's widgets and the buttons always show.

    A dialog is at most 90% of the screen; a long message (an apply's list of ids at 80x24) pushed the buttons
    past its bottom border, where they were clipped. The message's box is held to what is left once everything
    else is counted, and scrolls."""

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.height)

    def on_mount(self) -> None:
        self.call_after_refresh(lambda: self._fit(self.size.height))  # type: ignore[attr-defined]

    def _fit(self, height: int) -> None:
        dialog = self.query_one("#dialog")  # type: ignore[attr-defined]
        dialog.set_class(height < SHORT_SCREEN, "-short")
        bodies = dialog.query("#dialog-body")
        if not bodies:
            return
        body = bodies.first()
        room = height * 9 // 10 - dialog.styles.gutter.height
        if height < SHORT_SCREEN:
            room += dialog.styles.padding.top + dialog.styles.padding.bottom  # "-short" drops them
        for child in dialog.children:
            if child is not body and child.display:
                room -= child.outer_size.height + child.styles.margin.height
        body.styles.max_height = max(3, room - body.styles.margin.height)


class ConfirmModal(_FitsTheScreen, ModalScreen[bool]):
    """Ask a yes/no question. Dismisses with True (confirm) or False (cancel / escape). With `confirm_label=None` it
    only tells (there is nothing to confirm): one button, the cancel one, named `cancel_label` ("Close")."""

    BINDINGS = [
        Binding("y", "confirm", "Confirm", id="modal.confirm"),
        Binding("escape,n", "cancel", "Cancel", id="modal.cancel"),
    ]

    def __init__(
        self,
        title: str,
        message: Message = "",
        *,
        confirm_label: str | None = "Confirm",
        cancel_label: str = "Cancel",
        danger: bool = False,
        confirm_enabled: bool = True,
    ) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.message = message
        self.confirm_label = confirm_label
        self.cancel_label = cancel_label
        self.danger = danger
        # A dialog may explain why the action cannot go ahead (e.g. stale pages) and offer only "cancel".
        self.confirm_enabled = confirm_enabled and confirm_label is not None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="-danger" if self.danger else ""):
            yield Label(Content(inert_text(self.title_text)), id="dialog-title")
            if self.message:
                yield _body(self.message)
            with Horizontal(id="dialog-buttons"):
                if self.confirm_label is not None:
                    yield Button(
                        f"{self.confirm_label} ({bound_key(self, 'modal.confirm')})",
                        id="confirm",
                        variant="error" if self.danger else "primary",
                        disabled=not self.confirm_enabled,
                    )
                yield Button(f"{self.cancel_label} ({bound_key(self, 'modal.cancel')})", id="cancel")

    def on_mount(self) -> None:
        # Focus the safe choice for destructive dialogs: a stray enter must not apply anything.
        target = "#cancel" if self.danger or not self.confirm_enabled else "#confirm"
        self.query_one(target, Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm" and self.confirm_enabled)

    def action_confirm(self) -> None:
        if self.confirm_enabled:
            self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)


class InputModal(_FitsTheScreen, ModalScreen[str | None]):
    """Ask for one line of text. Dismisses with the text, or None on escape.

    `validate(text)` returns an error message to show (and keep the dialog open), or None to accept.
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="modal.cancel")]

    def __init__(
        self,
        title: str,
        prompt: Message = "",
        *,
        placeholder: str = "",
        value: str = "",
        validate: Callable[[str], str | None] | None = None,
        allow_empty: bool = False,
    ) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.prompt = prompt
        self.placeholder = placeholder
        self.initial = value
        self.validate_text = validate
        self.allow_empty = allow_empty

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(Content(inert_text(self.title_text)), id="dialog-title")
            if self.prompt:
                yield _body(self.prompt)
            yield Input(value=self.initial, placeholder=self.placeholder, id="dialog-input")
            yield Label("", id="dialog-error")
            cancel = bound_key(self, "modal.cancel", typing=True)
            yield Label(Content(f"enter to accept · {cancel} to cancel"), id="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        error = None
        if not text and not self.allow_empty:
            error = f"A value is required ({bound_key(self, 'modal.cancel', typing=True)} to cancel)."
        elif self.validate_text is not None:
            error = self.validate_text(text)
        if error:
            self.query_one("#dialog-error", Label).update(Content(error))
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextModal(_FitsTheScreen, ModalScreen[None]):
    """A long text to read (a conflict's two statements whole): it scrolls with the arrows and the page keys, and
    escape (or q) closes it. The text is shown as given (a Rich renderable or plain text, never markup)."""

    BINDINGS = [
        Binding("escape,q", "close", "Close", id="modal.close"),
        Binding("down,j", "scroll('down')", "Down", show=False),
        Binding("up,k", "scroll('up')", "Up", show=False),
        Binding("pagedown,space", "scroll('page_down')", "Page down", show=False),
        Binding("pageup", "scroll('page_up')", "Page up", show=False),
        Binding("home,g", "scroll('home')", "Top", show=False),
        Binding("end,G", "scroll('end')", "Bottom", show=False),
    ]

    def __init__(self, title: str, message: Message) -> None:
        super().__init__(classes="modal")
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="-wide"):
            yield Label(Content(inert_text(self.title_text)), id="dialog-title")
            yield _body(self.message)
            close = bound_key(self, "modal.close")
            yield Label(Content(f"↑↓ pgup pgdn home end to scroll · {close} to close"), id="dialog-hint")

    def action_scroll(self, how: str) -> None:
        body = self.query_one("#dialog-body", VerticalScroll)
        {
            "down": body.scroll_down,
            "up": body.scroll_up,
            "page_down": body.scroll_page_down,
            "page_up": body.scroll_page_up,
            "home": body.scroll_home,
            "end": body.scroll_end,
        }[how](animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

"""Generic dialogs every pane reuses: a yes/no confirmation and a one-line text input.

Both are `ModalScreen`s used with a callback (`app.push_screen(ConfirmModal(...), on_result)`) or, inside a worker,
`await app.push_screen_wait(...)`. Messages are shown as plain text unless a `Content` / Rich renderable is passed, so
user text (titles, page content) can never be read as markup.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

Message = str | Content | RenderableType


def _body(message: Message) -> Static:
    if isinstance(message, str):
        return Static(Content(message), classes="modal-message")
    return Static(message, classes="modal-message")


class ConfirmModal(ModalScreen[bool]):
    """Ask a yes/no question. Dismisses with True (confirm) or False (cancel / escape)."""

    BINDINGS = [
        Binding("y", "confirm", "Confirm", id="modal.confirm"),
        Binding("escape,n", "cancel", "Cancel", id="modal.cancel"),
    ]

    def __init__(
        self,
        title: str,
        message: Message = "",
        *,
        confirm_label: str = "Confirm",
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
        self.confirm_enabled = confirm_enabled

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="-danger" if self.danger else ""):
            yield Label(Content(self.title_text), id="dialog-title")
            if self.message:
                yield _body(self.message)
            with Horizontal(id="dialog-buttons"):
                yield Button(
                    f"{self.confirm_label} (y)",
                    id="confirm",
                    variant="error" if self.danger else "primary",
                    disabled=not self.confirm_enabled,
                )
                yield Button(f"{self.cancel_label} (esc)", id="cancel")

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


class InputModal(ModalScreen[str | None]):
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
            yield Label(Content(self.title_text), id="dialog-title")
            if self.prompt:
                yield _body(self.prompt)
            yield Input(value=self.initial, placeholder=self.placeholder, id="dialog-input")
            yield Label("", id="dialog-error")
            yield Label(Content("enter to accept · esc to cancel"), id="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        error = None
        if not text and not self.allow_empty:
            error = "A value is required (esc to cancel)."
        elif self.validate_text is not None:
            error = self.validate_text(text)
        if error:
            self.query_one("#dialog-error", Label).update(Content(error))
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)

"""The `/` box of a pane (Browse search, Verify and Receipts filters).

Enter runs the query and focus stays here, so the person can refine it and run it again; `down` moves to the list
the box feeds; the pane's escape binding closes the box.
"""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import Input


class QueryInput(Input):
    BINDINGS = [Binding("down", "to_list", "To the list", show=False)]

    def __init__(self, *, placeholder: str = "", list_id: str, id: str | None = None) -> None:
        super().__init__(placeholder=placeholder, id=id)
        self.list_id = list_id

    def action_to_list(self) -> None:
        target = self.screen.query_one(f"#{self.list_id}")
        if target.display:
            target.focus()

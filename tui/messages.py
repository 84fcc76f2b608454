"""Small messages the panes and the app exchange."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from memkeeper.core import Receipt


@dataclass
class DecisionMade(Message):
    """A pane changed memory through the engine; the app notifies and refreshes counts."""

    receipt: Receipt
    pane: str


@dataclass
class WikiChanged(Message):
    """The wiki folder changed on disk (another process wrote)."""

    paths: tuple[str, ...] = ()

"""Small messages the panes and the app exchange."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message
from textual.worker import Worker

from memkeeper.core import Receipt


@dataclass
class DecisionMade(Message):
    """A pane's engine call returned: `receipt` is what it did, `summary` what the status line says about it, and
    `batch` every receipt when the call decided several items (`receipt` is then the last of them).

    Posted from the decision worker to the pane (`PaneScreen.decide`), which has the app record the receipts and then
    refreshes.
    """

    receipt: Receipt
    pane: str
    summary: str = ""
    batch: tuple[Receipt, ...] = ()
    worker: Worker | None = None  # the decision worker that posted it
    #: One line for each write of the call that committed but that the disk refused to finish (it stands; the next
    #: write or `memkeeper check --repair` finishes it): `Engine.unfinished_writes`, read in the worker.
    unfinished: tuple[str, ...] = ()

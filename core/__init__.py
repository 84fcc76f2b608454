"""memkeeper.core — the engine: on-disk format, policy, scoring, queues, receipts. No UI imports."""

from .api import CheckReport, Engine
from .errors import BadInput, MemkeeperError, NotFound, Refused, Stale
from .models import Entry, Receipt

__all__ = ["BadInput", "CheckReport", "Engine", "Entry", "MemkeeperError", "NotFound", "Receipt", "Refused", "Stale"]

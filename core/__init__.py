"""memkeeper.core — the engine: on-disk format, policy, scoring, queues, receipts. No UI imports."""

from .api import CheckReport, Engine
from .engine import BadInput
from .models import Entry, Receipt

__all__ = ["BadInput", "CheckReport", "Engine", "Entry", "Receipt"]

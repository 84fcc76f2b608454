"""memkeeper.core — the engine: on-disk format, policy, scoring, queues, receipts. No UI imports.

The names below are imported on first use (PEP 562), so `import memkeeper.core.models` (or the command line's
`retrieve`) does not load every part of the engine."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .api import Engine
    from .errors import BadInput, MemkeeperError, NotFound, Refused, Stale
    from .integrity import CheckReport
    from .models import Entry, Receipt

__all__ = ["BadInput", "CheckReport", "Engine", "Entry", "MemkeeperError", "NotFound", "Receipt", "Refused", "Stale"]

_WHERE = {
    "BadInput": ".errors",
    "CheckReport": ".integrity",
    "Engine": ".api",
    "Entry": ".models",
    "MemkeeperError": ".errors",
    "NotFound": ".errors",
    "Receipt": ".models",
    "Refused": ".errors",
    "Stale": ".errors",
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(where, __name__), name)
    globals()[name] = value  # later look-ups (and monkeypatching) see a plain module attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

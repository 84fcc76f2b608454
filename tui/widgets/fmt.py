"""Small text formatters the panes share."""

from __future__ import annotations

from datetime import datetime


def ago(then: datetime, now: datetime) -> str:
    """A compact age: hours under a day ("5h"), whole days after ("12d")."""
    days = (now - then).total_seconds() / 86400
    if days < 1:
        return f"{max(0, int(days * 24))}h"
    return f"{int(days)}d"

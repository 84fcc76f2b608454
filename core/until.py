"""When something a person or an agent sets ends: a capture's expiry (`capture --expires`, MCP `expires_at`) and a
conflict's snooze (`conflicts resolve --snooze UNTIL`, the desk's "Snooze until…" dialog). One reading for every
door, so the same text ends at the same instant whoever types it, and wherever:

- an ISO-8601 time with an offset ("2027-01-31T18:00:00Z", "2027-01-31T18:00+01:00") is that instant;
- a time without one ("2027-01-31T18:00") is that time of day in the person's time zone;
- a date alone ("2027-01-31") is that day in the person's time zone: an expiry lasts through it (the record expires
  as the next day begins there), a snooze holds until it begins;
- a number of days or weeks after now: "7d", "+7d", "2w", "+2w", or "7" (days).

The person's time zone is the one whose days are their quiz days (`memkeeper quiz zone`), UTC without one
(`Engine.person_zone`). Pure: the time and the zone are parameters; the zone is asked for only when the text needs it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

from .models import iso

#: The forms, as a refusal lists them.
FORMS = "an ISO-8601 time, a date in the quiz time zone (UTC without one), or 7d / 2w from now"

# "7d", "+7d", "2w", "+ 2 w"; a bare number is days, up to 999 ("2026" is no number of days: a year, refused).
_RELATIVE = re.compile(r"\+?\s*(?:(\d{1,4})\s*([dw])|(\d{1,3}))", re.IGNORECASE)


class OutOfRange(ValueError):
    """Text in one of the forms that reads as a time outside datetime's years ("9999-12-31" through its end)."""


@dataclass(frozen=True)
class Until:
    text: str  # as typed
    at: datetime  # the instant, UTC
    how: str  # how the text was read: "the end of 2026-03-02 in America/Los_Angeles (2026-03-03T08:00:00Z)"

    def not_after(self, now: datetime) -> str:
        """The reason a time not after `now` is refused, saying how it was read."""
        return f"{self.text!r} is read as {self.how}, which is not after now ({iso(now)})"


def _zone(zone: str | Callable[[], str]) -> tuple[str, tzinfo]:
    from .quiz_ledger import zone_named  # the quiz's module, imported only for a text that needs a zone

    name = zone() if callable(zone) else zone
    return name, zone_named(name)


def read_until(text: str, *, now: datetime, zone: str | Callable[[], str] = "UTC", day_end: bool) -> Until:
    """`text` as an instant (module docstring). `day_end`: a date alone is read through its end (an expiry), else
    from its start (a snooze). `zone`: the person's time zone's IANA name, or what gives it (called only for a date
    or a time without an offset). Raises ValueError for text in none of the forms, `OutOfRange` (a ValueError) for
    one read as a time outside datetime's range."""
    raw = text.strip()
    try:
        if m := _RELATIVE.fullmatch(raw):
            count = int(m[1] or m[3])
            weeks = (m[2] or "d").lower() == "w"
            end = now + timedelta(weeks=count) if weeks else now + timedelta(days=count)
            unit = "week" if weeks else "day"
            return Until(raw, end, f"{count} {unit}{'' if count == 1 else 's'} after now ({iso(end)})")
        try:
            day: date | None = date.fromisoformat(raw)
        except ValueError:
            day = None
        if day is not None:
            name, tz = _zone(zone)
            start = day + timedelta(days=1) if day_end else day
            end = datetime.combine(start, time(0), tzinfo=tz).astimezone(UTC)
            return Until(raw, end, f"the {'end' if day_end else 'start'} of {day.isoformat()} in {name} ({iso(end)})")
        value = datetime.fromisoformat(raw[:-1] + "+00:00" if raw.endswith(("Z", "z")) else raw)
        if value.tzinfo is not None:
            end = value.astimezone(UTC)
            return Until(raw, end, iso(end))
        name, tz = _zone(zone)
        end = value.replace(tzinfo=tz).astimezone(UTC)
        return Until(raw, end, f"{value.isoformat()} in {name} ({iso(end)})")
    except OverflowError:
        raise OutOfRange(f"{raw!r} is out of range: read as a time outside the years 1-9999") from None

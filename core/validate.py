"""Checks every operation makes of its inputs before it does anything: the actor, and enum values given as text."""

from __future__ import annotations

import re
from enum import Enum
from typing import TypeVar

from .errors import BadInput

E = TypeVar("E", bound=Enum)


def validate_actor(actor: str) -> str:
    """`human:<login>` or `agent:<name>`; anything else is BadInput."""
    if not re.fullmatch(r"(human|agent):[A-Za-z0-9._@-]{1,64}", actor or ""):
        raise BadInput(f"invalid actor {actor!r}: expected human:<login> or agent:<name>")
    return actor


def parse_enum(enum_cls: type[E], value: E | str) -> E | None:
    """The member for a member or its value, else None (the caller refuses with its own reason)."""
    if isinstance(value, enum_cls):
        return value
    try:
        return enum_cls(value)
    except ValueError:
        return None

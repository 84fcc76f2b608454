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


def validate_named_actor(actor: str) -> str:
    """`validate_actor` for an actor a person or an envelope names (`--as`, the MCP server's `--agent`, an import's
    exporter), once per process or envelope: also refused when the name is a recognised secret ("agent:ghp_…"),
    which every receipt, page and export would carry, and which no field is scanned for. The refusal names the
    kind, never the value."""
    validate_actor(actor)
    from .secrets import find_secrets  # (loaded only for an actor someone named)

    found = find_secrets(actor.split(":", 1)[1])
    if found:
        raise BadInput(
            f"invalid actor: its name is a secret ({', '.join(found)}); name the person or the agent, not a "
            "credential (nothing was written)"
        )
    return actor


def parse_enum(enum_cls: type[E], value: E | str) -> E | None:
    """The member for a member or its value, else None (the caller refuses with its own reason)."""
    if isinstance(value, enum_cls):
        return value
    try:
        return enum_cls(value)
    except ValueError:
        return None

"""The engine's typed errors: what the CLI maps to exit 2 and the desk shows as one line.

Every call that cannot produce a receipt raises one of these. A decision the engine takes and refuses (an agent
resolving a conflict, a stale tier apply) is not an exception: it returns a receipt with status `refused` or
`reject`, because that refusal is itself part of the audit trail.
"""

from __future__ import annotations

# How much of a value the caller gave an error message repeats: a 5,000-character path or name echoed whole made the
# one line as long, for nothing the caller did not already have. Above the longest page path (about 145 characters:
# `entries/`, an 80-character slug, the partition, the id's characters, a number), so a page name is never cut.
ECHO_CHARS = 200


def clip(value: object, limit: int = ECHO_CHARS, *, tail: int | None = None, mark: str = "…") -> str:
    """A value given by a caller as an error message repeats it: whole when it is at most `limit` characters, else
    its start and its end around `mark`, `limit` characters in all (a path keeps its folder and its file name). The
    end is `tail` characters (default: half)."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return text
    if tail is None:
        tail = limit - limit // 2 - len(mark)
    return f"{text[: limit - tail - len(mark)]}{mark}{text[len(text) - tail :]}"


class MemkeeperError(ValueError):
    """Base of every error the engine raises on purpose. The message is one line, fit to show a person as is."""

    def __str__(self) -> str:
        # A wrapped parser or validation message may span lines; the CLI prints one line and the desk one toast line.
        return " · ".join(line.strip() for line in super().__str__().splitlines() if line.strip())


class BadInput(MemkeeperError):
    """Input refused before anything is done (bad root, bad actor, path escape, malformed file)."""


class PathEscape(BadInput):
    """A path that would leave the wiki root, or pass through a symlink (memkeeper never follows one)."""


class UnsafeFile(BadInput):
    """A file the engine will not read: not a regular file (a device, a FIFO, a directory) or over its size limit."""


class NotFound(BadInput):
    """An unknown memory id, conflict id, receipt or file."""


class ReadOnlyPage(BadInput):
    """A page its owner made read-only (`pages.read_only`): the engine does not replace it; nothing was written."""


class Refused(MemkeeperError):
    """A decision only a person may take, asked by an agent."""


class Stale(MemkeeperError):
    """A review file or page changed since it was planned."""


class Busy(MemkeeperError):
    """The write lock stayed held by another process for the whole wait: nothing was done; try again."""


class ImportStopped(MemkeeperError):
    """An import stopped between items by a busy write lock or a disk error after it had written some of them, and
    whose own receipt could not be written either: what arrived stands (each item with its capture's receipt); the
    same import run again brings the rest. The message says how far it went."""


class WriteFailed(MemkeeperError):
    """The disk refused an operation before its commit point (full, over quota, an I/O error, read-only, permission
    denied on a file it needed): nothing was written. A failure after the commit point is no error: the operation
    stands and the next write (or `check --repair`) finishes it (docs/decisions.md, Crash consistency)."""


class PageError(ValueError):
    """A file whose frontmatter cannot be read (missing, unclosed, malformed YAML, not a mapping, invalid fields).
    Not an engine error but the page format's (`pagefmt` raises it); defined here so that code handling it need
    not import the YAML reader.

    `line` is the file line it points at, when known; `kind` (missing, unclosed, alias, yaml, mapping, field, nul,
    secret, merge) and `reason` (the message without the line) let formats that word their problems their own way (quiz
    ledgers, review files) do so.
    """

    def __init__(
        self, message: str, *, kind: str = "field", line: int | None = None, reason: str | None = None
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.line = line
        self.reason = reason or message


__all__ = [
    "BadInput",
    "ImportStopped",
    "MemkeeperError",
    "NotFound",
    "PageError",
    "PathEscape",
    "ReadOnlyPage",
    "Refused",
    "Stale",
    "UnsafeFile",
    "WriteFailed",
    "clip",
]

"""Errors the engine raises for input it refuses. Each carries a one-line message; the CLI exits 2 for them."""

from __future__ import annotations


class BadInput(ValueError):
    """Input the engine refuses before doing anything (bad root, path escape, malformed file). One-line message."""


class PathEscape(BadInput):
    """A path that would leave the wiki root, or pass through a symlink (memkeeper never follows one)."""


class UnsafeFile(BadInput):
    """A file the engine will not read: not a regular file (a device, a FIFO, a directory) or over its size limit."""

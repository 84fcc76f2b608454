"""Path confinement and safe slugs (SPEC §3)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .text import ascii_fold


class PathEscape(ValueError):
    """A path that would leave the wiki root."""


# Windows device names (a file called `com2.md` or `nul.md` cannot be created or opened there), and the names of
# the generated pages at the top of a wiki. Slugs are ASCII-folded with NFKC first, so fullwidth `ＣＯＭ２` and
# superscript `COM¹` arrive here as `com2` / `com1`.
_DEVICE_NAMES = frozenset(
    {"con", "prn", "aux", "nul", "conin", "conout", "clock"}
    | {f"com{n}" for n in range(10)}
    | {f"lpt{n}" for n in range(10)}
)
RESERVED_SLUGS = frozenset({"index", "hot", "log", "schema", "decisions", "conflicts", "readme"}) | _DEVICE_NAMES
MAX_SLUG = 80


def confine(root: Path, rel: str | os.PathLike[str]) -> Path:
    """Resolve `rel` inside `root`, walking every component; reject `..`, absolute paths and escaping symlinks.

    The returned path is absolute and lies inside the real root. A symlink is followed only if its target stays
    inside the root. Never creates anything.
    """
    real_root = Path(os.path.realpath(root))
    text = os.fspath(rel)
    if not text or "\x00" in text:
        raise PathEscape(f"invalid path {text!r}")
    if os.path.isabs(text) or text.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", text):
        raise PathEscape(f"absolute path {text!r} is not allowed; paths are relative to the wiki root")
    parts = re.split(r"[\\/]+", text)
    if any(part == ".." for part in parts):
        raise PathEscape(f"path {text!r} contains '..'")
    current = real_root
    for part in parts:
        if part in ("", "."):
            continue
        candidate = current / part
        if candidate.is_symlink():
            target = Path(os.path.realpath(candidate))
            if not _inside(real_root, target):
                raise PathEscape(f"path {text!r} follows a symlink out of the wiki root")
            candidate = target
        current = candidate
    if not _inside(real_root, current):
        raise PathEscape(f"path {text!r} escapes the wiki root")
    return current


def _inside(root: Path, path: Path) -> bool:
    return path == root or root in path.parents


def slugify(title: str, fallback: str = "entry") -> str:
    """Safe ASCII slug: transliterated, separators collapsed, max 80 chars, never reserved.

    A title with nothing to transliterate (emoji, punctuation) gives `fallback`; pass `fallback=""` to learn that
    it slugs to nothing.
    """
    folded = ascii_fold(title).lower()
    slug = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")
    slug = slug[:MAX_SLUG].rstrip("-")
    if not slug:
        slug = fallback
    if slug in RESERVED_SLUGS:
        slug = f"{slug}-entry"
    return slug


def partition_slug(slug: str, zone: str, sensitivity: str) -> str:
    """The partition-qualified name used when a same-title page belongs to another partition."""
    suffix = f"--{zone.replace('_', '-')}--{sensitivity.replace('_', '-')}"
    return slug[: MAX_SLUG + len(suffix) - len(suffix)] + suffix

"""Read-only access to the generated Markdown views (hot.md, index.md, index/<category>.md, entry pages).

The TUI never writes wiki files; it reads through `engine.path(rel)`, which confines every path to the wiki root
(`..`, absolute paths and escaping symlinks raise BadInput). This is a stand-in for an engine method
`Engine.read_view(rel) -> str` that the engine does not have yet.
"""

from __future__ import annotations

import posixpath
from typing import Any
from urllib.parse import urlsplit

from memkeeper.core import BadInput, Engine
from memkeeper.core.pages import PageError, split_frontmatter


def read_view(engine: Engine, rel: str) -> str:
    """The text of a wiki file, confined to the root. Raises BadInput for escapes and unreadable files."""
    path = engine.path(rel)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BadInput(f"{rel} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{rel}: {getattr(exc, 'strerror', None) or exc}") from None


def split_page(text: str) -> tuple[dict[str, Any] | None, str]:
    """(frontmatter or None, body). A page without a frontmatter block is all body; a malformed block is kept
    visible (body = whole text) so the person sees what is wrong instead of a blank view."""
    if not text.startswith(("---\n", "\ufeff---\n")):
        return None, text
    try:
        return split_frontmatter(text)
    except PageError:
        return None, text


def resolve_link(current: str, href: str) -> str | None:
    """A wiki-relative path for a Markdown link on the page `current`; None for external links and anchors."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return None
    target = parts.path
    if not target:
        return None  # same-page anchor
    if target.startswith("/"):
        return None  # absolute paths never resolve inside the wiki
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(current), target))
    if joined.startswith("../") or joined == "..":
        return None
    return joined

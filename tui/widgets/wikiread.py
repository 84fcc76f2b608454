"""Read-only access to the generated Markdown views (hot.md, index.md, index/<category>.md, entry pages).

The TUI never touches wiki files itself: it reads through `Engine.read_view(rel)`, which confines every path to the
wiki root (`..`, absolute paths and escaping symlinks raise BadInput).
"""

from __future__ import annotations

import posixpath
from typing import Any
from urllib.parse import urlsplit

from memkeeper.core import Engine
from memkeeper.core.pagefmt import PageError, split_frontmatter


def read_view(engine: Engine, rel: str) -> str:
    """The text of a wiki file through the engine (confined to the root; BadInput for escapes and unreadable files)."""
    return engine.read_view(rel)


def split_page(text: str) -> tuple[dict[str, Any] | None, str]:
    """(frontmatter or None, body). A page without a frontmatter block is all body; a malformed block is kept
    visible (body = whole text) so the person sees what is wrong instead of a blank view."""
    if not text.startswith(("---\n", "\ufeff---\n", "---\r\n", "\ufeff---\r\n")):  # LF or CRLF pages
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

"""Keys and titles derived from captured text: canonical keys, display titles, suppression keys, and the report
of which captured values are stored normalised. Pure functions of their arguments. No I/O."""

from __future__ import annotations

import re

from .models import single_line
from .paths import MAX_SLUG, slugify, uncut_slug
from .text import normalize, sha256_hex, tokens


def suppression_key(source_ref: str | None, content: str) -> str:
    """What a denial suppresses: the hash of the source reference and the normalised content."""
    return sha256_hex((source_ref or "") + normalize(content))


# A Markdown line's own marker, which is not a word of the title: a heading's #s, a list item's bullet or number, a
# quote's >.
_LINE_MARKER = re.compile(r"^\s*(?:#{1,6}|[-*+]|\d{1,3}[.)]|>)(?:\s+|$)")


def title_from(content: str) -> str:
    """A display title: the first ten words of the first line that has any (control characters are spaces), without
    the line's Markdown marker ("## Vendor notes" is titled "Vendor notes")."""
    for line in content.splitlines():
        words = single_line(_LINE_MARKER.sub("", line, count=1)).split()
        if words:
            title = " ".join(words[:10]) + ("…" if len(words) > 10 else "")
            return title[:120]
    return "untitled"


def key_from(content: str) -> str:
    """The first six distinct non-stopword tokens; content with none gets `entry-<8 hex of its hash>`, so two
    unrelated token-less captures never share a key (§4: never a shared constant)."""
    seen: list[str] = []
    for t in tokens(content):
        if t not in seen:
            seen.append(t)
        if len(seen) == 6:
            break
    return slugify(" ".join(seen), fallback="") or f"entry-{sha256_hex(content)[:8]}"


def canonical_key(key: str | None, title: str, content: str) -> str:
    """The record's canonical key: an explicit key, slugified; else the title's slug; else the content's tokens.
    A title that slugs to nothing (emoji, `---`, `..`) gives the key no meaning, so the content decides.

    An explicit key whose slug is longer than a slug may be keeps its first characters and ends in 8 hex of the
    whole slug: cut short, two keys that differ only past the cut would name one partition and meet as a conflict.
    """
    if not key:
        return slugify(title, fallback="") or key_from(content)
    whole = uncut_slug(key)
    if len(whole) <= MAX_SLUG:
        return slugify(key)
    return f"{whole[: MAX_SLUG - 9].rstrip('-')}-{sha256_hex(whole)[:8]}"


def normalized_fields(
    *,
    text: str,
    content: str,
    title: str | None,
    stored_title: str,
    key: str | None,
    canonical_key: str,
    tags: list[str] | None,
    recall: list[str] | None,
    source_ref: str | None,
    quiz_question: str | None,
) -> list[str]:
    """Which of the capture's values are stored differently from how they were given (the receipt says so):
    content with surrounding whitespace trimmed, one-line fields with line breaks, tabs or control characters
    collapsed, an explicit key turned into a slug."""
    out = []
    if content != text:
        out.append("content")
    if title is not None and stored_title != title:
        out.append("title")
    if key and canonical_key != key:
        out.append("key")
    for name, values in (("tags", tags), ("recall", recall)):
        if values and [v for v in (single_line(str(x)) for x in values) if v] != list(values):
            out.append(name)
    for name, value in (("source_ref", source_ref), ("quiz_question", quiz_question)):
        if value is not None and (single_line(value) or None) != value:
            out.append(name)
    return out

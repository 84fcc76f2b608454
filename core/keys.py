"""Keys and titles derived from captured text: canonical keys, display titles, suppression keys, and the report
of which captured values are stored normalised. Pure functions of their arguments. No I/O."""

from __future__ import annotations

import functools
import re

from . import unspaced
from .models import single_line
from .paths import MAX_SLUG, slugify, uncut_slug
from .text import folded_tokens, has_script_letters, normalize, sha256_hex


def suppression_key(source_ref: str | None, content: str) -> str:
    """What a denial suppresses: the hash of the source reference and the normalised content."""
    return sha256_hex((source_ref or "") + normalize(content))


# A Markdown line's own marker, which is not a word of the title: a heading's #s, a list item's bullet or number, a
# quote's >.
_LINE_MARKER = re.compile(r"^\s*(?:#{1,6}|[-*+]|\d{1,3}[.)]|>)(?:\s+|$)")


# Where a clause ends in Chinese or Japanese: a fullwidth mark, or an ASCII one written right after a letter.
_CLAUSE_END = re.compile(rf"[。，、；：！？]|(?<=[{unspaced.LETTERS}])[,;:!?.](?!\d)")
_TITLE_WORDS = 10
_TITLE_MIN_WORDS = 3  # a first clause shorter than this is a label: the title takes the next one too


def title_from(content: str) -> str:
    """A display title: the first ten words of the first line that has any (control characters are spaces), without
    the line's Markdown marker ("## Vendor notes" is titled "Vendor notes").

    A line in a script written without spaces (Chinese, Japanese) has no words to count: its title is its first
    clause, up to ten words where a letter counts half a word (`unspaced.word_count`): "生产数据库运行在5432端口，
    版本是PostgreSQL 16。" is titled "生产数据库运行在5432端口…", where the whole line, the title of a line of one
    word, would give away what a quiz asks about it."""
    return _title_from(content, unspaced_clause=True)


def is_derived_title(title: str, content: str) -> bool:
    """Whether ``title`` is what `title_from` makes of ``content``, or made of it before a line of Chinese or
    Japanese was titled by its first clause (by its first ten words between spaces: often the whole line). A page
    keeps the title it was captured with."""
    return title in (_title_from(content, unspaced_clause=True), _title_from(content, unspaced_clause=False))


def _title_from(content: str, *, unspaced_clause: bool) -> str:
    for line in content.splitlines():
        words = single_line(_LINE_MARKER.sub("", line, count=1)).split()
        if words and unspaced_clause and unspaced.has_letters(line):
            return _unspaced_title(" ".join(words))
        if words:
            title = " ".join(words[:_TITLE_WORDS]) + ("…" if len(words) > _TITLE_WORDS else "")
            return title[:120]
    return "untitled"


def _unspaced_title(line: str) -> str:
    """The first clause of ``line``, up to ten words; the whole line when it is no longer. A clause of fewer than
    three words is a label or a reply ("注意：", "更新：", "はい、"), which names nothing (every note that opens with
    it got the same title, and a quiz asked about "注意…"): the title goes on to the end of the next clause."""
    start = 1
    while True:
        end = _CLAUSE_END.search(line, start)
        clause = line[: end.start()].rstrip() if end else line
        if end is None or unspaced.word_count(clause) >= _TITLE_MIN_WORDS:
            break
        start = end.end()
    cut = bool(line[len(clause) :].strip(" 。．.！!？?"))  # more than the mark that ends the line
    count, stop = 0.0, 0
    for _start, piece_end, words in unspaced.pieces(clause):
        if count + words > _TITLE_WORDS:
            cut = True
            break
        count, stop = count + words, piece_end
    if not cut:
        return line[:120]
    return (clause[:stop].rstrip() + "…")[:120]


def key_from(content: str) -> str:
    """The first six distinct non-stopword tokens, every script transliterated (`text.folded_tokens`: the key names
    the partition it always did); content with none gets `entry-<8 hex of its hash>`, so two unrelated token-less
    captures never share a key (§4: never a shared constant)."""
    seen: list[str] = []
    for t in folded_tokens(content):
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


# How much of a text's start `searched_key` reads for the six words a key is made of (`key_from`).
_KEY_HEAD = 512


def searched_key(key: str, title: str, content: str) -> str:
    """The canonical key as search reads it (the full-text index and a result's terms): the key, or nothing when it
    is the key a capture without one made (`canonical_key`: the title's slug, else the text's first words) and the
    title is written in a script other than Latin. Such a key is those words transliterated ("核心服务" ->
    "he-xin-fu-wu"), and search no longer reads a script through its transliteration: "ping" found 平, "server" a
    Russian "сервер". The words themselves are searched in the title and the text. A key given with the capture
    ("vendor-billing" on a Chinese note) is searched as before, and so is every key of a Latin title."""
    if title.isascii():
        return key
    made = _made_from(key, title, content[:_KEY_HEAD], len(content) > _KEY_HEAD)
    if made is None:  # a long text with fewer than six words in its first characters
        made = key == key_from(content)
    return "" if made else key


@functools.lru_cache(maxsize=4096)
def _made_from(key: str, title: str, head: str, cut: bool) -> bool | None:
    """Whether `key` is what `canonical_key` makes of a title with letters of another script than Latin, or of a
    text that begins with `head` (cut: the text goes on); None when `head` is too short to tell."""
    if not has_script_letters(title):
        return False
    if key == slugify(title, fallback=""):
        return True
    if not cut:
        return key == key_from(head)
    # The words of the text's start, but the last, which the cut may have split: six of them are the key's six.
    seen = list(dict.fromkeys(folded_tokens(head)[:-1]))[:6]
    return key == slugify(" ".join(seen), fallback="") if len(seen) == 6 else None


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

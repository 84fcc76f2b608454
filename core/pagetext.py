"""An entry page's text without PyYAML, for the values the engine writes (issue 10).

Importing PyYAML costs a command ~11 ms, and a capture writes one page. The frontmatter of an entry is a flat
mapping of a few value kinds: strings, numbers, booleans, nulls and lists of strings. For those, `page_block` writes
exactly the bytes the page format's YAML writer (`pagefmt.HANDLER.export(..., style=Style.PAGE)`: libyaml's emitter
under PyYAML's safe representer) would write, by the same rules:

- a string is written plain unless YAML would read it back as something else (a number, a date, a boolean, null:
  PyYAML's implicit resolvers, copied below) or libyaml's emitter may not write it plain (it starts with an
  indicator, holds `: ` or ` #`, ends with `:`, ...): then single-quoted;
- floats as PyYAML represents them (`repr`, lower case, `.0` added before an exponent);
- an empty list as `[]`, others as a block sequence, one `- item` a line, at the key's indentation.

Anything else — a string with a line break, a control character, surrounding spaces or a character outside the
Basic Multilingual Plane (the YAML writer double-quotes and escapes those), a nested mapping (`verified`), a key
that is not a plain word — makes `page_block` return None, and the page is written by YAML as before.
`tests/core/test_pagetext.py` compares the two writers on generated and hand-picked values.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .record import Entry

TRAVERSAL = "## Traversal Links\n- [Wiki Index](../index.md) · [Wiki Log](../log.md)\n"
NOTES_HEADING = "## Notes"

# PyYAML's implicit resolvers (yaml/resolver.py, `Resolver`): a plain scalar matching one is read as that type. As
# in PyYAML, each is tried only on strings starting with one of its characters, and compiled when first needed (a
# capture's strings need one or two of them).
_RESOLVERS: tuple[tuple[str, str], ...] = (
    ("yYnNtTfFoO", r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"),
    (
        "-+0123456789.",
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
            |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
            |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
            |[-+]?\.(?:inf|Inf|INF)
            |\.(?:nan|NaN|NAN))$""",
    ),
    (
        "-+0123456789",
        r"""^(?:[-+]?0b[0-1_]+
            |[-+]?0[0-7_]+
            |[-+]?(?:0|[1-9][0-9_]*)
            |[-+]?0x[0-9a-fA-F_]+
            |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$""",
    ),
    ("<", r"^(?:<<)$"),
    ("~nN", r"^(?:~|null|Null|NULL)$"),
    (
        "0123456789",
        r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
            |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?
             (?:[Tt]|[\ \t]+)[0-9][0-9]?
             :[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?
             (?:[\ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""",
    ),
    ("=", r"^(?:=)$"),
    ("!&*", r"^(?:!|&|\*)$"),
)
_compiled: dict[int, re.Pattern[str]] = {}


def _resolved(s: str) -> bool:
    """Whether PyYAML would read the non-empty plain scalar `s` as something other than a string."""
    first = s[0]
    for i, (starts, pattern) in enumerate(_RESOLVERS):
        if first in starts:
            rx = _compiled.get(i)
            if rx is None:
                rx = _compiled[i] = re.compile(pattern, re.X)
            if rx.match(s):
                return True
    return False


_FLOAT = re.compile(r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
_KEY = re.compile(r"[a-z_][a-z0-9_]*\Z")
# What libyaml's scalar analysis calls an indicator (yaml_emitter_analyze_scalar), for a scalar in block context.
_FIRST_INDICATORS = frozenset("#,[]{}&*!|>'\"%@`")


def _plain_allowed(s: str) -> bool:
    """libyaml's `block_plain_allowed` for a non-empty one-line string without surrounding spaces or special
    characters."""
    if s.startswith(("---", "...")):
        return False
    first = s[0]
    if first in _FIRST_INDICATORS:
        return False
    followed = len(s) == 1 or s[1] in " \t"
    if first in "?:-" and followed:
        return False
    if ": " in s or "\t#" in s or " #" in s or s.endswith(":") or ":\t" in s:
        return False
    return True


def _string(s: str) -> str | None:
    if not s or not s.isprintable() or s.strip() != s or s.startswith("---"):
        return None  # empty, or double-quoted by the page writer: YAML writes it
    # libyaml writes as they are printable ASCII and the printable Basic Multilingual Plane (allow_unicode). Of
    # what Python calls printable, only characters beyond the BMP fall outside: libyaml escapes those.
    if not s.isascii() and max(s) > "\uffff":
        return None
    if _resolved(s) or not _plain_allowed(s):
        return "'" + s.replace("'", "''") + "'"
    return s


def _scalar(value: Any) -> str | None:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    cls = type(value)
    if cls is str:
        return _string(value)
    if cls is int:
        return str(value)
    if cls is float:
        text = repr(value).lower()
        if "." not in text and "e" in text:
            text = text.replace("e", ".0e", 1)
        return text if _FLOAT.match(text) else None
    return None


def page_block(metadata: dict[str, Any]) -> str | None:
    """The YAML text of a page's frontmatter mapping, as the page format writes it, or None when a value is outside
    the forms written here."""
    out: list[str] = []
    for key, value in metadata.items():
        # libyaml writes a key longer than 128 characters as a complex key (`? key`).
        if type(key) is not str or len(key) > 128 or not _KEY.match(key) or _resolved(key):
            return None
        if type(value) is list:
            if not value:
                out.append(f"{key}: []\n")
                continue
            out.append(f"{key}:\n")
            for item in value:
                text = _scalar(item)
                if text is None:
                    return None
                out.append(f"- {text}\n")
            continue
        text = _scalar(value)
        if text is None:
            return None
        out.append(f"{key}: {text}\n")
    return "".join(out) if out else None


# ------------------------------------------------------------------------------------------------------- entries


def entry_head(entry: Entry) -> str:
    return (
        f"# {entry.title}\n"
        f"Status: {entry.status.value} · Class: {entry.memory_class.value} · Zone: {entry.trust_zone.value}"
        f" · Confidence: {entry.confidence:.2f}\n\n## Content\n"
    )


def note_line(note: str) -> str:
    # Notes are generated one-liners; a line break could never be read back as one note.
    return "- " + note.replace("\r", " ").replace("\n", " ") + "\n"


def entry_tail(entry: Entry) -> str:
    notes = "".join(note_line(note) for note in entry.notes)
    return ("\n\n" + NOTES_HEADING + "\n" + notes if notes else "\n") + "\n" + TRAVERSAL


def render_entry(entry: Entry) -> str:
    """The page for `entry` (see `pagefmt.render_entry`): its frontmatter written here when it can be, else by
    YAML."""
    body = entry_head(entry) + entry.content + entry_tail(entry)
    metadata = entry.frontmatter()
    block = page_block(metadata)
    if block is None:
        from .pagefmt import dumps

        return dumps(metadata, body)
    return "---\n" + block + "---\n" + body

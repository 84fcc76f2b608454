"""The page format (SPEC §3), for every Markdown file with YAML frontmatter that memkeeper reads or writes.

One YAML handler (`HANDLER`, python-frontmatter's handler API) loads and dumps every frontmatter block: entries and
conflict records whole, quiz ledgers and tier review files for their frontmatter (their bodies are their own
formats, in `quiz_ledger.py` and `tier_review.py`). It reads with libyaml's C loader and writes pages with libyaml's
C dumper when PyYAML was built with them (the pure-Python classes otherwise: same results, slower); ledgers and
review files are written by PyYAML's own emitter, see `_DUMPERS`.

What every file gets from it, whoever wrote the file:
- **Bounded, inert YAML.** The safe loader only; anchors and aliases refused (a few hundred bytes of them expand
  to gigabytes); tags outside YAML's safe set refused by the safe constructor (review files read every value as
  a string, so a tag there builds nothing); a value the constructor cannot build (`2026-02-30`) refused; nesting
  bounded (libyaml's limit, or a RecursionError caught). Every refusal is a `PageError` that names the file line.
- **No injection.** The writer quotes any string that would read back as something else (a number, a date, a
  bool) and, on pages, double-quotes every string holding a line break or control character or starting with
  `---`, so user text can never add a key or close the block.
- **Exact layout.** `format` writes `---\\n<yaml>---\\n<body>` and `split` gives the body back byte for byte (the
  library's own `loads`/`dumps` strip whitespace, so they are not used for that part).

Pages (entries, conflict records) are split strictly: the file starts with `---` and the block closes at the first
line that is exactly `---` (CRLF pages are read as LF). Quiz ledgers and review files, llmwiki's formats, are
fenced by lines that are `---` up to trailing whitespace (`read_block`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

import frontmatter
import yaml
from frontmatter.default_handlers import YAMLHandler

from . import pagetext
from .errors import PageError
from .record import Entry, EntryError
from .text import content_sha256

try:  # libyaml: several times faster on a cold index build; the pure-Python classes behave the same.
    from yaml import CBaseLoader as _StringLoader
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _SafeLoader
except ImportError:  # pragma: no cover - depends on the platform build of PyYAML
    from yaml import BaseLoader as _StringLoader  # type: ignore[assignment]
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _SafeLoader  # type: ignore[assignment]


class _Loader(_SafeLoader):
    """The safe loader, with a shortcut for strings (most frontmatter values): the safe constructor returns
    `node.value` for them too, through four calls and an identity cache. The cache only matters for a node reached
    twice, through an alias, and aliases are refused before loading. A fifth faster on a cold index build."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        if node.tag == _STR_TAG and node.__class__ is yaml.ScalarNode:
            return node.value
        return super().construct_object(node, deep=deep)


_STR_TAG = "tag:yaml.org,2002:str"


class _LocatingLoader(_Loader):
    """The safe loader, made to say where a scalar its constructor cannot build (`2026-02-30`, `!!int x`,
    `!!bool x`) is: such a value raises a bare ValueError, TypeError or KeyError. Only used to re-read a block that
    raised one (the extra frame per node costs a few percent on a cold index build)."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except _UNBUILDABLE as exc:
            raise yaml.constructor.ConstructorError(None, None, f"unreadable value ({exc})", node.start_mark) from None


_UNBUILDABLE = (ValueError, TypeError, LookupError, OverflowError)


# ----------------------------------------------------------------------------------------------------------- writers


class Style(Enum):
    """How a frontmatter block is written (the reader is the same for all but REVIEW)."""

    PAGE = "page"  # entries, conflict records: block lists, injection-safe double quotes
    LEDGER = "ledger"  # quiz ledgers and notebooks: flow scalar lists, as llmwiki writes them
    REVIEW = "review"  # tier review files: every value is read as a string (BaseLoader semantics)


class _PageDumper(_Dumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # the readers refuse anchors and aliases: a value used twice is written twice


def _page_str(dumper: _PageDumper, data: str) -> yaml.ScalarNode:
    # Any string with a line break or control character is written double-quoted on one line, so user text can
    # never open a new key or close the frontmatter block.
    if not data.isprintable() or data.strip() != data or data.startswith("---"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"')
    return dumper.represent_str(data)


_PageDumper.add_representer(str, _page_str)


class _LedgerDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True  # the readers refuse anchors and aliases: a value used twice is written twice


class _StringDumper(_LedgerDumper):
    # Read back with BaseLoader semantics, nothing is a number or a date: `created: 2026-11-20` stays plain.
    yaml_implicit_resolvers: dict[str, Any] = {}


def _plain_for_strings(value: str) -> bool:
    try:
        return yaml.load(f"k: {value}", Loader=_StringLoader) == {"k": value}  # noqa: S506 - BaseLoader
    except yaml.YAMLError:
        return False


def _review_str(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    # Plain when the string loader reads it back unchanged, else double-quoted (the review format's rule).
    style = None if _plain_for_strings(data) else '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_StringDumper.add_representer(str, _review_str)

# Ledgers and review files are llmwiki's formats, and llmwiki writes characters outside the Basic Multilingual Plane
# (emoji) raw. libyaml's emitter escapes those, PyYAML's writes them raw, so these two styles keep the pure-Python
# emitter and an llmwiki file round-trips byte for byte. Their frontmatter is a few lines: speed is not at stake.
_DUMPERS: dict[Style, type] = {Style.PAGE: _PageDumper, Style.LEDGER: _LedgerDumper, Style.REVIEW: _StringDumper}
_WIDTH = 2**31 - 1  # never fold a line: a dump of a loaded dump is the same bytes


# ----------------------------------------------------------------------------------------------------------- handler


class FrontmatterHandler(YAMLHandler):
    """python-frontmatter's YAML handler, made strict and exact (see the module docstring)."""

    FM_BOUNDARY = re.compile(r"^---$", re.MULTILINE)
    START_DELIMITER = END_DELIMITER = "---"

    def detect(self, text: str) -> bool:
        return normalize_newlines(text).startswith("---\n")

    def split(self, text: str) -> tuple[str, str]:
        """(yaml, body) of a page: `---\\n<yaml>\\n---\\n<body>`, CRLF read as LF. Raises PageError when the page does
        not open with a `---` line or the block is never closed by one."""
        text = normalize_newlines(text)
        if not text.startswith("---\n"):
            if text.startswith("---\r"):
                raise PageError(
                    "page uses CR-only line endings; memkeeper reads pages with LF or CRLF line endings",
                    kind="missing",
                    line=1,
                )
            raise PageError("page does not start with a '---' frontmatter block", kind="missing", line=1)
        end = text.find("\n---\n", 3)
        if end == -1:
            if text.endswith("\n---"):
                end = len(text) - 4
            else:
                raise PageError("frontmatter block is not closed with '---'", kind="unclosed", line=1)
        return text[4:end], text[end + 5 :]

    def load(  # type: ignore[override]
        self, fm: str, *, first_line: int = 2, strings: bool = False, **_: object
    ) -> Any:
        """Parse a frontmatter block with the safe loader (`strings`: every scalar a string, as BaseLoader reads).
        `first_line` is the file line of the block's first line, for messages. Raises PageError with the line."""
        alias = _alias_line(fm)
        if alias is not None:
            line = alias + first_line - 1
            reason = "YAML anchors and aliases are not allowed"
            raise PageError(f"{reason} (frontmatter line {line})", kind="alias", line=line, reason=reason)
        try:
            try:
                return yaml.load(fm, Loader=_StringLoader if strings else _Loader)  # noqa: S506 - safe/base loaders
            except _UNBUILDABLE:
                return yaml.load(fm, Loader=_LocatingLoader)  # noqa: S506 - raises the same error, with its line
        except yaml.reader.ReaderError as exc:  # a character YAML does not allow, at an offset
            line = fm.count("\n", 0, exc.position) + first_line
            reason = f"unacceptable character #x{exc.character:04x}: {exc.reason}"
            raise PageError(
                f"malformed YAML frontmatter (frontmatter line {line}): {reason}", kind="yaml", line=line, reason=reason
            ) from None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at: int | None = mark.line + first_line if mark is not None else None
            reason = str(getattr(exc, "problem", None) or exc)
            where = f" (frontmatter line {at})" if at is not None else ""
            raise PageError(
                f"malformed YAML frontmatter{where}: {reason}", kind="yaml", line=at, reason=reason
            ) from None
        except RecursionError:
            raise PageError(
                "malformed YAML frontmatter: nested too deeply", kind="yaml", reason="nested too deeply"
            ) from None
        except _UNBUILDABLE as exc:  # not located by the second read (not expected): still a page error
            reason = f"unreadable value ({exc})"
            raise PageError(f"malformed YAML frontmatter: {reason}", kind="yaml", reason=reason) from None

    def export(  # type: ignore[override]
        self, metadata: dict[str, Any], *, style: Style = Style.PAGE, **_: object
    ) -> str:
        """The YAML text of a frontmatter mapping, ending in a newline, keys in the given order."""
        if style is Style.PAGE:
            return yaml.dump(
                metadata,
                Dumper=_PageDumper,
                sort_keys=False,
                allow_unicode=True,
                width=_WIDTH,
                default_flow_style=False,
            )
        options: dict[str, Any] = {
            "Dumper": _DUMPERS[style],
            "sort_keys": False,
            "default_flow_style": None,
            "width": _WIDTH,
        }
        text = yaml.dump(metadata, allow_unicode=True, **options)
        # Raw Unicode reads best, but the emitter writes a few characters raw that read back differently (NEL,
        # U+0085, in a single-quoted scalar): when the readable form does not survive a reload, escape to ASCII.
        try:
            if self.load(text, strings=style is Style.REVIEW) == metadata:
                return text
        except PageError:
            pass
        return yaml.dump(metadata, allow_unicode=False, **options)

    def format(self, post: frontmatter.Post, **kwargs: Any) -> str:
        """`---\\n<yaml>---\\n<body>`: the body exactly as given (the library's own format strips it)."""
        return "---\n" + self.export(post.metadata, **kwargs) + "---\n" + post.content


HANDLER = FrontmatterHandler()


def _alias_line(raw: str) -> int | None:
    """Line (1-based, within `raw`) of the first YAML anchor or alias, or None. The event scan runs only when `&`
    or `*` occurs in the block, so ordinary pages pay nothing."""
    if "&" not in raw and "*" not in raw:
        return None
    try:
        for event in yaml.parse(raw, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                assert event.start_mark is not None  # the parser marks every event
                return event.start_mark.line + 1
    except yaml.YAMLError:
        return None  # the loader reports the syntax error itself
    return None


def normalize_newlines(text: str) -> str:
    """A page whose frontmatter opens with `---\\r\\n` was saved with CRLF line endings (a Windows editor): read
    it as LF. Pages written by the engine always use LF, and a CR inside their content is kept as it is."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if text.startswith("---\r\n"):
        return text.replace("\r\n", "\n")
    return text


# ------------------------------------------------------------------------------------------------------------- pages


def loads(text: str) -> frontmatter.Post:
    """A page (entry, conflict record) as a `frontmatter.Post`: metadata and the exact body. Raises PageError."""
    fm, body = HANDLER.split(text)
    data = HANDLER.load(fm)
    if not isinstance(data, dict):
        raise PageError("frontmatter is not a mapping", kind="mapping", line=2)
    post = frontmatter.Post(body, HANDLER)
    post.metadata = data
    return post


def dumps(metadata: dict[str, Any], body: str, *, style: Style = Style.PAGE) -> str:
    """The text of a file: frontmatter written by the one handler, then `body` as it is."""
    post = frontmatter.Post(body, HANDLER)
    post.metadata = metadata
    return frontmatter.dumps(post, handler=HANDLER, style=style)


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(frontmatter, body) of a page. Raises PageError when the block is missing, unclosed, not a mapping, or uses
    YAML anchors/aliases."""
    post = loads(text)
    return post.metadata, post.content


@dataclass(frozen=True)
class Block:
    """The frontmatter of a line-fenced file (quiz ledger, review file), as `read_block` found it."""

    data: dict[str, Any]  # {} when missing or unreadable
    opened: bool  # the first line is a fence
    close: int | None  # index of the closing fence line (lines split on "\n"); None when not closed
    body_offset: int  # where the body starts in the text; 0 when there is no closed block
    error: PageError | None  # why `data` is empty, when it is not simply an empty block


def is_fence(line: str) -> bool:
    return line.rstrip() == "---"


def read_block(text: str, *, strings: bool = False) -> Block:
    """Read the frontmatter of a file whose block is fenced by `---` lines (trailing whitespace and CR allowed).
    Never raises: a missing, unclosed or unreadable block is `error`, with the file line in it."""
    end = text.find("\n")
    if not is_fence(text if end == -1 else text[:end]):
        return Block({}, False, None, 0, PageError("no frontmatter", kind="missing", line=1))
    start = offset = end + 1
    index = 1
    while end != -1:
        end = text.find("\n", offset)
        line = text[offset:] if end == -1 else text[offset:end]
        if is_fence(line):
            return _block(text[start:offset], index, len(text) if end == -1 else end + 1, strings)
        offset, index = end + 1, index + 1
    return Block({}, True, None, 0, PageError("frontmatter is not closed", kind="unclosed", line=1))


def _block(raw: str, close: int, body_offset: int, strings: bool) -> Block:
    try:
        data = HANDLER.load(raw, strings=strings)
    except PageError as exc:
        return Block({}, True, close, body_offset, exc)
    if data is None:
        return Block({}, True, close, body_offset, None)
    if not isinstance(data, dict):
        return Block({}, True, close, body_offset, PageError("frontmatter is not a mapping", kind="mapping", line=2))
    return Block(data, True, close, body_offset, None)


# ----------------------------------------------------------------------------------------------------------- entries

# The body's layout and the writer of the common case live in `pagetext` (no YAML import: a capture writes a page).
TRAVERSAL = pagetext.TRAVERSAL
NOTES_HEADING = pagetext.NOTES_HEADING
_head = pagetext.entry_head
_note_line = pagetext.note_line
_tail = pagetext.entry_tail


def render_entry(entry: Entry) -> str:
    """The page for `entry`. Its frontmatter carries `notes_count`, which makes reading the body back exact
    whatever the content holds (headings such as `## Notes`, `---` lines, list items)."""
    return pagetext.render_entry(entry)


# ------------------------------------------------------------------------------------------- the engine's own blocks
# A cold index build spends most of its time in YAML. The frontmatter the engine writes itself uses a handful of line
# forms: `key: value` with a plain, single-quoted, numeric, null or `[]` value, and `- item` lists under a key. Those
# are read here without YAML; anything else (a double-quoted or multi-line string, a nested mapping, a non-ASCII
# character, a comment, an anchor, a value YAML would read as something other than what it looks like) is left to
# the full parser. What this reader accepts, the full parser reads to the same values (tests/core/test_pagefmt.py
# compares them on generated pages and on mutated ones).

_FAST_KEY = re.compile(r"([a-z][a-z0-9_]*): ?(.*)\Z")
_FAST_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./#:@()+,=-]*(?: [A-Za-z0-9_./#:@()+,=-]+)*\Z")
_FAST_HEX = re.compile(r"[0-9a-f]*[a-f][0-9a-f]*\Z")
_FAST_INT = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")
_FAST_BINARY = re.compile(r"0b[01]+\Z")  # YAML 1.1 reads 0b101 as an int
_FAST_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+(?:e[-+][0-9]+)?\Z")
_FAST_QUOTED = re.compile(r"'((?:[ -&(-~]|'')*)'\Z")  # printable ASCII, a quote only doubled
# Plain words YAML 1.1 reads as booleans or null.
_FAST_WORDS = {
    w: v
    for ws, v in (
        ("yes Yes YES true True TRUE on On ON", True),
        ("no No NO false False FALSE off Off OFF", False),
        ("null Null NULL", None),
    )
    for w in ws.split()
}
_NO = object()


def _fast_scalar(raw: str) -> Any:
    if raw.startswith("'"):
        m = _FAST_QUOTED.match(raw)
        return m.group(1).replace("''", "'") if m else _NO
    if raw == "[]":
        return []
    if raw in _FAST_WORDS:
        return _FAST_WORDS[raw]
    if _FAST_PLAIN.match(raw):
        # `: ` would start a mapping and ` #` a comment; a trailing `:` is a key.
        return _NO if (": " in raw or " #" in raw or raw.endswith(":")) else raw
    if _FAST_INT.match(raw):
        return int(raw)
    if _FAST_FLOAT.match(raw):
        return float(raw)
    if _FAST_HEX.match(raw) and not _FAST_BINARY.match(raw):
        return raw  # a content hash: digits and a-f with at least one letter is never a number or a date in YAML
    return _NO


def fast_block(fm: str) -> dict[str, Any] | None:
    """The mapping of a frontmatter block written in the engine's own line forms, or None (read it with
    `HANDLER.load`). Never accepts a block the full parser would refuse, and reads what it accepts to the same
    values."""
    if not fm.isascii() or "&" in fm or "*" in fm or "\t" in fm or "\r" in fm:
        return None
    out: dict[str, Any] = {}
    lines = fm.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i, n = 0, len(lines)
    while i < n:
        known = _FAST_LINES.get(lines[i])
        if known is not None:  # a `key: scalar` line met before (most lines repeat from page to page)
            key, value = known
            if key in out:
                return None
            out[key] = value
            i += 1
            continue
        m = _FAST_KEY.match(lines[i])
        if m is None:
            return None
        key, raw = m.group(1), m.group(2)
        if key in out or key in _FAST_WORDS or (raw and lines[i][len(key) + 1] != " "):
            return None
        i += 1
        if raw == "":  # a block list: `- item` lines, each a string
            items = []
            while i < n and lines[i].startswith("- "):
                item = _fast_scalar(lines[i][2:])
                if not isinstance(item, str):
                    return None
                items.append(item)
                i += 1
            if not items:
                return None
            out[key] = items
            continue
        value = _fast_scalar(raw)
        if value is _NO:
            return None
        out[key] = value
        if not isinstance(value, list) and len(_FAST_LINES) < _FAST_LINES_MAX:
            _FAST_LINES[lines[i - 1]] = (key, value)
    return out or None


# `key: scalar` lines already read, with what they read to (the line alone decides it; immutable values only).
_FAST_LINES: dict[str, tuple[str, Any]] = {}
_FAST_LINES_MAX = 4096


def parse_entry(text: str, *, edited: bool = False) -> Entry:
    """The entry a page holds. Raises PageError naming the line of a malformed block or an invalid field.
    `edited`: the page is known to have been changed outside the engine (`_refuse_secrets`)."""
    return parse_entry_block(text, edited=edited)[0]


def parse_entry_block(text: str, *, edited: bool = False) -> tuple[Entry, dict[str, Any] | None]:
    """`parse_entry`, and the frontmatter mapping the entry was validated from when the page is in the engine's
    own line forms (`fast_block`: plain JSON values), else None. The index stores that mapping as the row's
    frontmatter instead of rendering `entry.frontmatter()` again (both validate to the same entry)."""
    if "\x00" in text:
        # Never text: what a write cut short by a power cut leaves (a block of zeros), or a binary file. Loaded, the
        # record would be served, and written back with the damage in it, by the next decision about it.
        at = text.count("\n", 0, text.index("\x00")) + 1
        raise PageError(
            f"a NUL byte at line {at}: a write cut short by a crash, or not a text page; not read (fix or remove it)",
            kind="nul",
            line=at,
        )
    text = normalize_newlines(text)
    fm, body = HANDLER.split(text)
    fast = fast_block(fm)
    if fast is not None:
        data = fast
    else:
        data, body = split_frontmatter(text)
    fm_notes = data.pop("notes", None)  # tolerate hand-written pages that keep notes in frontmatter
    notes_count = data.pop("notes_count", None)
    try:
        entry = Entry.model_validate(data)
    except EntryError as exc:
        line = _line_of(text, exc.field)
        where = f" (line {line})" if line else ""
        raise PageError(
            f"invalid field {exc.loc or 'frontmatter'}{where}: {exc.msg}", kind="field", line=line
        ) from None
    if fm_notes is not None and not isinstance(fm_notes, list):
        line = _line_of(text, "notes")
        raise PageError(
            f"invalid field notes{f' (line {line})' if line else ''}: expected a list of strings",
            kind="field",
            line=line,
        )
    if isinstance(notes_count, bool) or not isinstance(notes_count, int) or notes_count < 0:
        notes_count = None  # hand-edited or absent: read the body by the tolerant rule
    entry.content, body_notes = split_body(body, entry, notes_count)
    entry.notes = [str(n) for n in fm_notes or []] + body_notes
    hand_written = content_sha256(entry.title, entry.content) != entry.normalized_content_sha256
    if hand_written:
        _refuse_merge_markers(text)
    if edited or hand_written:
        _refuse_secrets(entry)
    return entry, data if fast is not None else None


_MERGE_OPEN = re.compile(r"<{7} ")
_MERGE_CLOSE = re.compile(r">{7} ")


def _refuse_merge_markers(text: str) -> None:
    """A page a merge left unresolved (`git merge`, `git stash pop`, `git rebase`): a line starting `<<<<<<< `, a line
    `=======`, a line starting `>>>>>>> `, in that order. Read as content, the record held both sides — two statements
    that may contradict each other — was served to agents, and a person could confirm it; markers in the frontmatter
    already failed as YAML. Such a page is a bad page, named with the lines of its markers, until a person keeps one
    side. Only a page whose title or content is not what the engine wrote is looked at (its
    `normalized_content_sha256` disagrees): a note captured about merge conflicts may quote the markers."""
    lines = text.split("\n")
    opened = middle = None
    for n, line in enumerate(lines, 1):
        if opened is None:
            if _MERGE_OPEN.match(line):
                opened = n
        elif middle is None:
            if line.rstrip() == "=======":
                middle = n
        elif _MERGE_CLOSE.match(line):
            raise PageError(
                f"unresolved merge markers (<<<<<<< at line {opened}, ======= at line {middle}, >>>>>>> at line "
                f"{n}): a merge left both sides in the page; not read until a person keeps one side and removes the "
                "marker lines",
                kind="merge",
                line=opened,
            )


def _refuse_secrets(entry: Entry) -> None:
    """A page whose title or content is not what the engine wrote (its `normalized_content_sha256` disagrees: an
    edit by hand, or a page written outside memkeeper) is scanned for secrets as a capture is (`secrets`), in every
    free-text field. One that holds a secret is not read: loaded, it would be served to every agent whose zone sees
    it and carried out by an export, where a capture of the same text is refused (`secret_detected`). The page stays
    as it is on disk; `check` names it (the classes and fields, never the value) until the secret is taken out.
    A page the engine wrote is not scanned again: every text it writes was scanned when it arrived. The hash covers
    the title and the content; a page the index held and finds changed since without the engine's write
    (`edited`: an edit by hand to its tags, recall phrases, source ref, question or notes) is scanned whole."""
    from .secrets import find_in_fields  # (its rules and the detect-secrets plugins load on the first hand edit)

    found = find_in_fields(
        {
            "content": entry.content,
            "title": entry.title,
            "canonical_key": entry.canonical_key,
            "tags": list(entry.tags),
            "recall": list(entry.recall or ()),
            "quiz_question": entry.quiz_question,
            "source_ref": entry.source_ref,
            "notes": list(entry.notes),
        }
    )
    if found:
        classes = sorted({c for cs in found.values() for c in cs})
        raise PageError(
            f"holds a secret ({', '.join(classes)} in {', '.join(found)}) not written by memkeeper: not read, so never"
            " served or exported, until it is taken out of the page",
            kind="secret",
        )


def _line_of(text: str, key: str) -> int | None:
    """The frontmatter line that sets `key`, so `memkeeper check` can point at it."""
    for n, line in enumerate(text.split("\n")[1:], 2):
        if line == "---":
            break
        if key and line.startswith(f"{key}:"):
            return n
    return None


def split_body(body: str, entry: Entry, notes_count: int | None) -> tuple[str, list[str]]:
    """(content, notes) from a page body.

    Exact for pages the engine wrote: the head is regenerated from the frontmatter, and `notes_count` says how
    many list lines at the end belong to `## Notes`, so content that itself holds a `## Notes` heading, list items
    or `---` lines comes back byte for byte. A page edited by hand (the count no longer matches the layout) or
    written before the count existed is read by a rule that never loses text: see `_tolerant_tail`. What a person
    wrote in the head (a note above `## Content`, a heading retitled) and after the generated links (a section
    appended at the end) is content too (`_hand_head`, `_after_links`).
    """
    head = _head(entry)
    above = ""
    if body.startswith(head):
        rest = body[len(head) :]
    else:
        # Hand-edited head: the content starts after the first `## Content` line (the generated head is a title
        # line and a status line, so that is the generated heading).
        match = _CONTENT_HEADING.search(body)
        if match is None:
            return _tolerant_tail(body)
        rest = body[match.end() :]
        above = body[: match.start()]
    content, notes = _tail_of(rest, notes_count)
    if above:
        kept = _hand_head(above, entry, content)
        if kept:
            content = kept + "\n\n" + content if content else kept
    return content, notes


def _tail_of(rest: str, notes_count: int | None) -> tuple[str, list[str]]:
    """(content, notes) of what follows `## Content`."""
    if notes_count is not None:
        exact = _exact_tail(rest, notes_count)
        if exact is not None:
            return exact
        # A section a person appended after the generated links: the layout up to them is the engine's.
        after = _after_links(rest)
        if after is not None:
            exact = _exact_tail(rest[: len(rest) - len(after)], notes_count)
            if exact is not None:
                return _with_appended(exact[0], after), exact[1]
    return _tolerant_tail(rest)


def _after_links(text: str) -> str | None:
    """What follows the last generated `## Traversal Links` section (at a line start), when that is not blank: a
    person's text appended at the end of the page. None when there is no such section or nothing after it."""
    at = text.rfind(_TRAILER)
    if at != -1:
        at += 1
    elif text.startswith(TRAVERSAL):
        at = 0
    else:
        return None
    after = text[at + len(TRAVERSAL) :]
    return after if after.strip() else None


def _with_appended(content: str, after: str) -> str:
    after = after.strip("\n")
    return content + "\n\n" + after if content else after


def _hand_head(above: str, entry: Entry, content: str) -> str:
    """What a person wrote in a page's head, above `## Content`: its lines but the generated title line and status
    line, which are written again from the frontmatter. A title line is the generated one when it names the record's
    title, or the title the engine last wrote (the frontmatter's retitled by hand since: the content hash of that
    title and the content still holds). A retitled heading is the person's, as is any note."""
    lines = above.split("\n")
    drop: set[int] = set()
    titled = f"# {entry.title}"
    headings = [i for i, line in enumerate(lines) if line.startswith("# ")]
    own = next((i for i in headings if lines[i] == titled), None)
    if own is None and headings:
        first = headings[0]
        if content_sha256(lines[first][2:], content) == entry.normalized_content_sha256:
            own = first
    if own is not None:
        drop.add(own)
    status = next((i for i, line in enumerate(lines) if _STATUS_LINE.fullmatch(line)), None)
    if status is not None:
        drop.add(status)
    kept = "\n".join(line for i, line in enumerate(lines) if i not in drop)
    return kept.strip("\n") if kept.strip() else ""


_CONTENT_HEADING = re.compile(r"(?m)^## Content[ \t]*\n")
_NOTES_LINE = re.compile(r"(?m)^## Notes[ \t]*$")
_STATUS_LINE = re.compile(r"Status: \S+ · Class: \S+ · Zone: \S+ · Confidence: \S+")
_TRAILER = "\n" + TRAVERSAL


def _exact_tail(rest: str, notes_count: int) -> tuple[str, list[str]] | None:
    """Undo `entry.content + _tail(entry)` given the number of notes; None when the layout does not match."""
    if not rest.endswith(_TRAILER):
        return None
    before = rest[: -len(_TRAILER)]  # content + "\n"  |  content + "\n\n## Notes\n" + notes lines
    if not before.endswith("\n"):
        return None
    if notes_count == 0:
        return before[:-1], []
    parts = before[:-1].rsplit("\n", notes_count)
    if len(parts) != notes_count + 1 or not all(p.startswith("- ") for p in parts[1:]):
        return None
    marker = "\n\n" + NOTES_HEADING
    if not parts[0].endswith(marker):
        return None
    return parts[0][: -len(marker)], [p[2:] for p in parts[1:]]


def _tolerant_tail(rest: str) -> tuple[str, list[str]]:
    """Content and notes of a body whose layout is not exactly the generated one. Nothing is ever dropped:

    - a trailing `## Traversal Links` section is removed only when it is exactly the generated one; text a person
      added after the generated section is content, after the content above it (`_after_links`);
    - the last `## Notes` heading starts the notes only when every non-blank line under it is a `- ` list item;
    - everything else is content (an ambiguous block stays content), with surrounding blank lines trimmed.
    """
    after = _after_links(rest)
    if after is not None:
        above, above_notes = _tolerant_tail(rest[: len(rest) - len(after)])
        return _with_appended(above, after), above_notes
    text = rest
    stripped = text.rstrip("\n")
    generated = TRAVERSAL.rstrip("\n")
    if stripped == generated or stripped.endswith("\n" + generated):
        text = stripped[: len(stripped) - len(generated)]
    notes: list[str] = []
    last = None
    for last in _NOTES_LINE.finditer(text):  # noqa: B007 - the last match is the one wanted
        pass
    if last is not None:
        lines = [line for line in text[last.end() :].split("\n") if line.strip()]
        if lines and all(line.startswith("- ") for line in lines):
            notes = [line[2:] for line in lines]
            text = text[: last.start()]
    return text.strip("\n"), notes

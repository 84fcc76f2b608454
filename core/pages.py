"""Reading and writing Markdown pages: frontmatter, body layout, atomic writes (SPEC §3)."""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from .errors import PathEscape, UnsafeFile
from .models import Entry
from .paths import FD_WALK, mkdirs, open_dir, open_read, read_file, refuse_symlink

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

try:  # libyaml is much faster on 100k pages; the pure loader behaves the same.
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the platform build of PyYAML
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


class PageError(ValueError):
    """A page that cannot be read as a memory record (malformed frontmatter, invalid fields)."""


class _SafeStrDumper(_Dumper):
    pass


def _str_representer(dumper: _SafeStrDumper, data: str) -> yaml.ScalarNode:
    # Any string with a line break or control character is written double-quoted on one line, so user text can
    # never open a new key or close the frontmatter block.
    if any(not ch.isprintable() for ch in data) or data.strip() != data or data.startswith("---"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"')
    return dumper.represent_str(data)


_SafeStrDumper.add_representer(str, _str_representer)


def dump_frontmatter(data: dict[str, Any]) -> str:
    return yaml.dump(
        data, Dumper=_SafeStrDumper, sort_keys=False, allow_unicode=True, width=1_000_000, default_flow_style=False
    )


def yaml_alias_line(raw: str) -> int | None:
    """Line (1-based, within `raw`) of the first YAML anchor or alias, or None.

    Aliases are how a few hundred bytes expand to gigabytes ("billion laughs"); no memkeeper file needs them, so
    they are refused everywhere. The event scan runs only when `&` or `*` occurs in the block, so ordinary pages
    pay nothing.
    """
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


def load_yaml_block(raw: str, *, first_line: int = 2) -> Any:
    """Parse a frontmatter block (safe loader, no anchors or aliases). `first_line` is the file line of the
    block's first line, for messages. Raises PageError with the line."""
    alias = yaml_alias_line(raw)
    if alias is not None:
        raise PageError(f"YAML anchors and aliases are not allowed (frontmatter line {alias + first_line - 1})")
    try:
        return yaml.load(raw, Loader=_Loader)  # noqa: S506 - SafeLoader/CSafeLoader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (frontmatter line {mark.line + first_line})" if mark is not None else ""
        raise PageError(f"malformed YAML frontmatter{where}: {getattr(exc, 'problem', exc)}") from None
    except RecursionError:
        raise PageError("malformed YAML frontmatter: nested too deeply") from None


def normalize_newlines(text: str) -> str:
    """A page whose frontmatter opens with `---\\r\\n` was saved with CRLF line endings (a Windows editor): read
    it as LF. Pages written by the engine always use LF, and a CR inside their content is kept as it is."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if text.startswith("---\r\n"):
        return text.replace("\r\n", "\n")
    return text


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """Split `---\n<yaml>\n---\n<body>` (CRLF pages are read as LF). Raises PageError when the block is missing
    or not a mapping, or uses YAML anchors/aliases."""
    text = normalize_newlines(text)
    if not text.startswith("---\n"):
        if text.startswith("---\r"):
            raise PageError("page uses CR-only line endings; memkeeper reads pages with LF or CRLF line endings")
        raise PageError("page does not start with a '---' frontmatter block")
    end = text.find("\n---\n", 3)
    if end == -1:
        if text.endswith("\n---"):
            end = len(text) - 4
        else:
            raise PageError("frontmatter block is not closed with '---'")
    raw = text[4:end]
    data = load_yaml_block(raw)
    if not isinstance(data, dict):
        raise PageError("frontmatter is not a mapping")
    body = text[end + 5 :]
    return data, body


TRAVERSAL = "## Traversal Links\n- [Wiki Index](../index.md) · [Wiki Log](../log.md)\n"
NOTES_HEADING = "## Notes"
# Size limits for what the engine reads (one bad file never stops a command: it is reported and skipped).
MAX_PAGE_BYTES = 1024 * 1024  # entries/*.md, conflicts/C<N>.md
MAX_LEDGER_BYTES = 64 * 1024 * 1024  # quiz ledgers, review files, generated views read back
MAX_ENVELOPE_BYTES = 128 * 1024 * 1024  # import envelopes
MAX_LINE_BYTES = 1024 * 1024  # one line of an append-only JSONL ledger


def _head(entry: Entry) -> str:
    return (
        f"# {entry.title}\n"
        f"Status: {entry.status.value} · Class: {entry.memory_class.value} · Zone: {entry.trust_zone.value}"
        f" · Confidence: {entry.confidence:.2f}\n\n## Content\n"
    )


def _note_line(note: str) -> str:
    # Notes are generated one-liners; a line break could never be read back as one note.
    return "- " + note.replace("\r", " ").replace("\n", " ") + "\n"


def _tail(entry: Entry) -> str:
    notes = "".join(_note_line(note) for note in entry.notes)
    return ("\n\n" + NOTES_HEADING + "\n" + notes if notes else "\n") + "\n" + TRAVERSAL


def render_entry(entry: Entry) -> str:
    """The page for `entry`. Its frontmatter carries `notes_count`, which makes reading the body back exact
    whatever the content holds (headings such as `## Notes`, `---` lines, list items)."""
    return "---\n" + dump_frontmatter(entry.frontmatter()) + "---\n" + _head(entry) + entry.content + _tail(entry)


def parse_entry(text: str) -> Entry:
    text = normalize_newlines(text)
    data, body = split_frontmatter(text)
    fm_notes = data.pop("notes", None)  # tolerate hand-written pages that keep notes in frontmatter
    notes_count = data.pop("notes_count", None)
    try:
        entry = Entry.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "frontmatter"
        raise PageError(f"invalid field {loc}{_line_of(text, str(first['loc'][0]) if first['loc'] else '')}: "
                        f"{first['msg']}") from None
    if fm_notes is not None and not isinstance(fm_notes, list):
        raise PageError(f"invalid field notes{_line_of(text, 'notes')}: expected a list of strings")
    if isinstance(notes_count, bool) or not isinstance(notes_count, int) or notes_count < 0:
        notes_count = None  # hand-edited or absent: read the body by the tolerant rule
    entry.content, body_notes = split_body(body, entry, notes_count)
    entry.notes = [str(n) for n in fm_notes or []] + body_notes
    return entry


def _line_of(text: str, key: str) -> str:
    """" (line N)" for the frontmatter line that sets `key`, so `memkeeper check` can point at it."""
    for n, line in enumerate(text.split("\n")[1:], 2):
        if line == "---":
            break
        if key and line.startswith(f"{key}:"):
            return f" (line {n})"
    return ""


def split_body(body: str, entry: Entry, notes_count: int | None) -> tuple[str, list[str]]:
    """(content, notes) from a page body.

    Exact for pages the engine wrote: the head is regenerated from the frontmatter, and `notes_count` says how
    many list lines at the end belong to `## Notes`, so content that itself holds a `## Notes` heading, list items
    or `---` lines comes back byte for byte. A page edited by hand (the count no longer matches the layout) or
    written before the count existed is read by a rule that never loses text: see `_tolerant_tail`.
    """
    head = _head(entry)
    if body.startswith(head):
        rest = body[len(head) :]
    else:
        # Hand-edited head: the content starts after the first `## Content` line (the generated head is a title
        # line and a status line, so that is the generated heading).
        match = _CONTENT_HEADING.search(body)
        if match is None:
            return _tolerant_tail(body)
        rest = body[match.end() :]
    if notes_count is not None:
        exact = _exact_tail(rest, notes_count)
        if exact is not None:
            return exact
    return _tolerant_tail(rest)


_CONTENT_HEADING = re.compile(r"(?m)^## Content[ \t]*\n")
_NOTES_LINE = re.compile(r"(?m)^## Notes[ \t]*$")
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

    - a trailing `## Traversal Links` section is removed only when it is exactly the generated one;
    - the last `## Notes` heading starts the notes only when every non-blank line under it is a `- ` list item;
    - everything else is content (an ambiguous block stays content), with surrounding blank lines trimmed.
    """
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


def atomic_write(path: Path, text: str | bytes) -> None:
    """Write via a temp file in the same directory, fsync, os.replace: a crash leaves the old or the new page.

    Never through a symlink: every directory on the way is opened without following links (missing ones are
    created), the temp file is created with O_EXCL | O_NOFOLLOW, and a symlink where the file should be is refused
    (PathEscape) rather than replaced.
    """
    data = text.encode("utf-8") if isinstance(text, str) else text
    path = Path(os.path.abspath(path))
    if not FD_WALK:  # pragma: no cover - platforms without openat (Windows)
        _atomic_write_by_name(path, data)
        return
    dfd = open_dir(path.parent, create=True)
    try:
        _refuse_link_at(dfd, path)
        for _ in range(100):
            tmp = f".{path.name}.{secrets.token_hex(4)}.tmp"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dfd)
                break
            except FileExistsError:
                continue
        else:  # pragma: no cover
            raise FileExistsError(f"no free temp name beside {path}")
        try:
            try:
                _write_all(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(tmp, path.name, src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dfd)
            except FileNotFoundError:
                pass
            raise
    finally:
        os.close(dfd)


def _atomic_write_by_name(path: Path, data: bytes) -> None:  # pragma: no cover - Windows
    import tempfile

    mkdirs(path.parent)
    refuse_symlink(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _refuse_link_at(dfd: int, path: Path) -> None:
    try:
        st = os.lstat(path.name, dir_fd=dfd)
    except FileNotFoundError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise PathEscape(f"{path} is a symlink (-> {_readlink_at(dfd, path.name)}); memkeeper never reads or writes "
                         "through symlinks in a wiki")


def _readlink_at(dfd: int, name: str) -> str:
    try:
        return os.readlink(name, dir_fd=dfd)
    except OSError:
        return "?"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def append_lines(path: Path, lines: list[str]) -> None:
    """Append whole lines in one write (O_APPEND), so concurrent readers never see half a line.

    Never through a symlink (the file is opened with O_NOFOLLOW in a directory reached without following links),
    and only to a regular file (a FIFO or a device where a ledger should be is refused).
    """
    if not lines:
        return
    data = "".join(line.rstrip("\n") + "\n" for line in lines).encode("utf-8")
    path = Path(os.path.abspath(path))
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0)
    if FD_WALK:
        dfd = open_dir(path.parent, create=True)
        try:
            fd = _open_for_append(lambda: os.open(path.name, flags, 0o644, dir_fd=dfd), path)
        finally:
            os.close(dfd)
    else:  # pragma: no cover - Windows
        mkdirs(path.parent)
        refuse_symlink(path)
        fd = _open_for_append(lambda: os.open(path, flags, 0o644), path)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafeFile(f"{path} is not a regular file; refusing to append to it")
        _write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _open_for_append(opener, path: Path) -> int:
    try:
        return opener()
    except OSError as exc:
        if exc.errno in (errno.ELOOP, getattr(errno, "EMLINK", -1), getattr(errno, "EFTYPE", -1)):
            raise PathEscape(f"{path} is a symlink; memkeeper never reads or writes through symlinks in a wiki") from None
        if exc.errno == errno.ENXIO:  # a FIFO with no reader
            raise UnsafeFile(f"{path} is not a regular file; refusing to append to it") from None
        raise


def read_bytes(path: Path, *, limit: int | None = None, what: str = "this file") -> bytes:
    """The bytes of a regular file inside the wiki, never through a symlink, at most `limit` bytes (UnsafeFile
    beyond). FileNotFoundError when it does not exist."""
    return read_file(path, limit=limit, what=what)


def read_text(path: Path, *, limit: int | None = None, what: str = "this file") -> str:
    """`read_bytes` decoded as UTF-8, line endings kept exactly as they are (no universal-newline translation)."""
    raw = read_file(path, limit=limit, what=what)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnsafeFile(f"{path} is not valid UTF-8 (byte {exc.start})") from None


def iter_lines(path: Path, *, max_line: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str | None]]:
    """(line number, text) for each line of an append-only ledger, read in bounded chunks; a line longer than
    `max_line` (or not UTF-8) is yielded as None so the caller can report it. Nothing when the file is missing."""
    try:
        fh = open_read(path)
    except FileNotFoundError:
        return
    with fh:
        n = 0
        while True:
            raw = fh.readline(max_line + 1)
            if not raw:
                return
            n += 1
            if len(raw) > max_line and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # skip the rest of the over-long line
                    raw = fh.readline(1 << 20)
                yield n, None
                continue
            try:
                yield n, raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                yield n, None

"""Path confinement, safe slugs and symlink-free file access (SPEC §3).

memkeeper never follows a symlink inside a wiki. The root is canonicalised once (`realpath`) when an engine opens
it, so every path the engine touches is `<real root>/<components>` and none of its components may be a symlink.
The helpers here enforce that component by component: directories are opened one at a time from `/` with
`O_NOFOLLOW | O_DIRECTORY` (each next step is relative to the directory already opened, so a symlink swapped in
mid-walk is refused, not followed) and the final file is opened with `O_NOFOLLOW` relative to its directory.
Reads also refuse anything that is not a regular file (devices, FIFOs) and read at most `limit + 1` bytes.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from .errors import PathEscape, UnsafeFile, clip
from .text import ascii_fold

__all__ = [
    "PathEscape",
    "UnsafeFile",
    "confine",
    "slugify",
    "partition_slug",
    "page_rank",
    "open_dir",
    "read_file",
    "read_at",
    "open_read",
    "list_files",
    "refuse_symlink",
    "symlinks_under",
    "mkdirs",
    "refuse_wiki_links",
    "WIKI_PATHS",
    "SCANNED",
]

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

_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
# O_PATH opens a directory for use as a dir_fd without needing read permission on it (a 0711 home is common).
_O_SEARCH = getattr(os, "O_PATH", os.O_RDONLY)
# Linux reports ELOOP for O_NOFOLLOW on a symlink; FreeBSD EMLINK; NetBSD EFTYPE.
_SYMLINK_ERRNOS = {errno.ELOOP, getattr(errno, "EMLINK", -1), getattr(errno, "EFTYPE", -1)}
FD_WALK = bool(_O_NOFOLLOW and _O_DIRECTORY) and os.open in os.supports_dir_fd and os.mkdir in os.supports_dir_fd


# ------------------------------------------------------------------------------------------------------ confinement


def confine(root: Path, rel: str | os.PathLike[str]) -> Path:
    """Resolve `rel` inside `root`, walking every component; reject `..`, absolute paths and symlinks.

    The returned path is absolute and lies inside the real root. No component may be a symlink, wherever it
    points (see docs/decisions.md, "Symlinks"). Never creates anything.
    """
    real_root = Path(os.path.realpath(root))
    text = os.fspath(rel)
    if not text or "\x00" in text:
        raise PathEscape(f"invalid path {clip(text)!r}")
    if os.path.isabs(text) or text.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", text):
        raise PathEscape(f"absolute path {clip(text)!r} is not allowed; paths are relative to the wiki root")
    parts = re.split(r"[\\/]+", text)
    if any(part == ".." for part in parts):
        raise PathEscape(f"path {clip(text)!r} contains '..'")
    current = real_root
    for part in parts:
        if part in ("", "."):
            continue
        current = current / part
        if current.is_symlink():
            raise PathEscape(
                f"path {clip(text)!r} passes through a symlink ({current.relative_to(real_root).as_posix()} -> "
                f"{_link_target(current)}); memkeeper never follows symlinks in a wiki"
            )
    return current


def _link_target(path: str | os.PathLike[str]) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


def _symlink_error(path: str) -> PathEscape:
    return PathEscape(
        f"{path} is a symlink (-> {_link_target(path)}); memkeeper never reads or writes through symlinks in a wiki"
    )


def _component_error(path: str) -> Exception:
    """The error for a path component that could not be opened as a directory."""
    try:
        st = os.lstat(path)
    except OSError:
        return PathEscape(f"{path} could not be opened as a directory")
    if stat.S_ISLNK(st.st_mode):
        return _symlink_error(path)
    return UnsafeFile(f"{path} is not a directory")


def refuse_symlink(path: str | os.PathLike[str]) -> None:
    """Raise PathEscape when `path` or any directory above it is a symlink (a missing path is fine).

    For files opened by name by other libraries (SQLite's index.db, the write lock): checked right before use.
    """
    path = os.path.abspath(os.fspath(path))
    parts = Path(path).parts
    current = parts[0]
    for name in parts[1:]:
        current = os.path.join(current, name)
        try:
            st = os.lstat(current)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(st.st_mode):
            raise _symlink_error(current)


# What write operations touch at fixed places in a wiki. `refuse_wiki_links` checks them (and the files directly in
# the SCANNED directories) before every write operation, so a planted symlink refuses the operation up front instead
# of part-way through it. A dot-named file in a SCANNED directory is left out: the engine never names one there (its
# files there are dated, per person, per category or fixed names) and never reads through a link, and an editor keeps
# its lock there (Emacs's `.#<name>`, a dangling link to `user@host.pid:boot`) while a person edits the file beside it. `snapshots/` and `sync/` are left out: only snapshot and export write there, and they are
# refused (before writing anything) by the file helpers, so a person who links them elsewhere can still capture.
WIKI_PATHS = (
    ".memkeeper",
    ".memkeeper/index.db",
    ".memkeeper/write.lock",
    "entries",
    "conflicts",
    "stated",
    "quiz",
    "review",
    "review/applied",
    "receipts",
    "patterns",
    "index",
    "hot.md",
    "index.md",
    "log.md",
    "SCHEMA.md",
    "DECISIONS.md",
    "CONFLICTS.md",
)
SCANNED = ("stated", "patterns", "receipts", "index", "quiz")


def refuse_wiki_links(root: str | os.PathLike[str]) -> None:
    """Raise PathEscape naming the first symlink among WIKI_PATHS and the files in SCANNED under `root` (dot-named
    files there excepted: the engine neither reads nor writes one)."""
    for rel in WIKI_PATHS:
        full = os.path.join(root, rel)
        if os.path.islink(full):
            raise _wiki_link_error(rel, full)
    for d in SCANNED:
        try:
            with os.scandir(os.path.join(root, d)) as it:
                links = sorted(de.name for de in it if de.is_symlink() and not de.name.startswith("."))
        except (FileNotFoundError, NotADirectoryError):
            continue
        if links:
            raise _wiki_link_error(f"{d}/{links[0]}", os.path.join(root, d, links[0]))


def _wiki_link_error(rel: str, full: str) -> PathEscape:
    return PathEscape(
        f"{rel} is a symlink (-> {_link_target(full)}); memkeeper never reads or writes through symlinks "
        "in a wiki (remove it; `memkeeper check` lists every symlink)"
    )


def open_dir(path: str | os.PathLike[str], *, create: bool = False, listable: bool = False) -> int:
    """A file descriptor for directory `path`, opened one component at a time from `/` without following any
    symlink. `create` makes missing directories (like `mkdir -p`); `listable` opens the last one readable, for
    `os.scandir(fd)`. The caller closes the descriptor. Raises PathEscape (a symlink), UnsafeFile (not a
    directory) or FileNotFoundError."""
    path = os.path.abspath(os.fspath(path))
    if not FD_WALK:  # pragma: no cover - platforms without openat/O_NOFOLLOW (Windows)
        refuse_symlink(path)
        if create:
            os.makedirs(path, exist_ok=True)
        return os.open(path, os.O_RDONLY)
    parts = Path(path).parts
    fd = os.open(parts[0], _O_SEARCH | _O_DIRECTORY | _O_CLOEXEC)
    current = parts[0]
    try:
        for i, name in enumerate(parts[1:], 2):
            current = os.path.join(current, name)
            flags = (
                (os.O_RDONLY if listable and i == len(parts) else _O_SEARCH) | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC
            )
            try:
                nfd = os.open(name, flags, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass
                try:
                    nfd = os.open(name, flags, dir_fd=fd)
                except OSError as exc:
                    if exc.errno in (errno.ENOTDIR, *_SYMLINK_ERRNOS):
                        raise _component_error(current) from None
                    raise
            except OSError as exc:
                if exc.errno in (errno.ENOTDIR, *_SYMLINK_ERRNOS):
                    raise _component_error(current) from None
                raise
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd


def mkdirs(path: str | os.PathLike[str]) -> None:
    """`mkdir -p` that refuses to pass through (or create inside) a symlinked directory."""
    os.close(open_dir(path, create=True))


def _open_file_at(dir_fd: int | None, name: str, display: str) -> int:
    flags = os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC
    try:
        if dir_fd is None:  # pragma: no cover - no openat
            refuse_symlink(display)
            return os.open(display, flags)
        return os.open(name, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno in _SYMLINK_ERRNOS:
            raise _symlink_error(display) from None
        raise


def _human(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 and n % (1024 * 1024) == 0 else f"{n} bytes"


def _check_regular(fd: int, display: str, limit: int | None, what: str) -> os.stat_result:
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        kind = (
            "a directory"
            if stat.S_ISDIR(st.st_mode)
            else "a device"
            if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "a FIFO"
            if stat.S_ISFIFO(st.st_mode)
            else "a socket"
            if stat.S_ISSOCK(st.st_mode)
            else "not a regular file"
        )
        raise UnsafeFile(f"{display} is {kind}, not a regular file; refusing to read it")
    if limit is not None and st.st_size > limit:
        raise UnsafeFile(f"{display} is {st.st_size} bytes, over the {_human(limit)} limit for {what}")
    return st


def _read_fd(fd: int, display: str, limit: int | None, what: str) -> bytes:
    _check_regular(fd, display, limit, what)
    chunks: list[bytes] = []
    total = 0
    cap = None if limit is None else limit + 1  # the file may have grown since fstat: read at most limit + 1
    while True:
        want = 1 << 20 if cap is None else min(1 << 20, cap - total)
        if want <= 0:
            break
        chunk = os.read(fd, want)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if limit is not None and total > limit:
        raise UnsafeFile(f"{display} is over the {_human(limit)} limit for {what}")
    return b"".join(chunks)


def read_at(dir_fd: int | None, name: str, *, display: str, limit: int | None = None, what: str = "this file") -> bytes:
    """The bytes of regular file `name` in the directory open as `dir_fd`, never through a symlink."""
    fd = _open_file_at(dir_fd, name, display)
    try:
        return _read_fd(fd, display, limit, what)
    finally:
        os.close(fd)


def read_file(path: str | os.PathLike[str], *, limit: int | None = None, what: str = "this file") -> bytes:
    """The bytes of a regular file reached without any symlink (FileNotFoundError when it does not exist)."""
    path = os.path.abspath(os.fspath(path))
    parent, name = os.path.split(path)
    dfd = open_dir(parent)
    try:
        return read_at(dfd, name, display=path, limit=limit, what=what)
    finally:
        os.close(dfd)


def open_read(path: str | os.PathLike[str], *, limit: int | None = None, what: str = "this file") -> BinaryIO:
    """A binary file object for a regular file reached without any symlink (for tails and line-by-line reads)."""
    path = os.path.abspath(os.fspath(path))
    parent, name = os.path.split(path)
    dfd = open_dir(parent)
    try:
        fd = _open_file_at(dfd, name, path)
    finally:
        os.close(dfd)
    try:
        _check_regular(fd, path, limit, what)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def list_files(directory: str | os.PathLike[str], suffix: str = "") -> list[str]:
    """Names of the regular files (never symlinks) in `directory` ending with `suffix`, sorted; [] when the
    directory does not exist. Raises PathEscape when the directory itself is reached through a symlink."""
    try:
        dfd = open_dir(directory, listable=True)
    except FileNotFoundError:
        return []
    try:
        with os.scandir(dfd) as it:
            return sorted(de.name for de in it if de.name.endswith(suffix) and de.is_file(follow_symlinks=False))
    finally:
        os.close(dfd)


def list_file_sigs(directory: str | os.PathLike[str], suffix: str = "") -> list[tuple[str, int, int]]:
    """`list_files`, with each file's (mtime_ns, size): (name, mtime_ns, size), sorted by name. A file removed
    between the listing and its stat is left out."""
    try:
        dfd = open_dir(directory, listable=True)
    except FileNotFoundError:
        return []
    out = []
    try:
        with os.scandir(dfd) as it:
            for de in it:
                if not de.name.endswith(suffix) or not de.is_file(follow_symlinks=False):
                    continue
                try:
                    st = de.stat(follow_symlinks=False)
                except FileNotFoundError:
                    continue
                out.append((de.name, st.st_mtime_ns, st.st_size))
    finally:
        os.close(dfd)
    return sorted(out)


def symlinks_under(root: str | os.PathLike[str]) -> Iterator[tuple[str, str]]:
    """(relative path, target) for every symlink under `root`, at any depth (never descending through one)."""
    root = os.fspath(root)
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in sorted(dirnames + filenames):
            full = os.path.join(dirpath, name)
            if os.path.islink(full):
                yield os.path.relpath(full, root).replace(os.sep, "/"), _link_target(full)


# ------------------------------------------------------------------------------------------------------ slugs


def uncut_slug(title: str) -> str:
    """The slug before the length cut: transliterated, lower-case, separators collapsed. Invisible format characters
    (a zero-width space or joiner, a byte-order mark, a soft hyphen) are not separators: "pay\u200bments-settle"
    slugged to "pay-ments-settle", a key that looks the same as "payments-settle" and named another partition."""
    return re.sub(r"[^a-z0-9]+", "-", ascii_fold(_INVISIBLE.sub("", title)).lower()).strip("-")


_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]")


def slugify(title: str, fallback: str = "entry") -> str:
    """Safe ASCII slug: transliterated, separators collapsed, max 80 chars, never reserved.

    A title with nothing to transliterate (emoji, punctuation) gives `fallback`; pass `fallback=""` to learn that
    it slugs to nothing.
    """
    slug = uncut_slug(title)[:MAX_SLUG].rstrip("-")
    if not slug:
        slug = fallback
    if slug in RESERVED_SLUGS:
        slug = f"{slug}-entry"
    return slug


# The page names the engine writes (`Store.new_page`): a slug, `--<zone>--<tier>` and `--<id part>` after it, and a
# `-<n>` suffix: lower-case ASCII letters and digits in runs joined by one or two hyphens.
ENGINE_PAGE_NAME = re.compile(r"[a-z0-9]+(?:--?[a-z0-9]+)*\.md")


def page_rank(path: str) -> tuple[int, int, str]:
    """Which of several pages that hold one memory id is the record's page: the lowest. A sync tool's copy of a page
    adds to its name (Dropbox "x (conflicted copy 2026-12-05).md", iCloud "x 2.md", Syncthing
    "x.sync-conflict-20261205-101010-ABCDEF.md", OneDrive "x-HOSTNAME.md"), with spaces, parentheses, dots or upper
    case the engine never writes. So: a name the engine could have written first, then the shorter name, then the
    name. It depends on the names alone, never on which page the index read first: a rebuilt index and one kept up
    to date page by page name the same page."""
    name = path.rpartition("/")[2]
    return (0 if ENGINE_PAGE_NAME.fullmatch(name) else 1, len(name), name)


def partition_slug(slug: str, zone: str, sensitivity: str) -> str:
    """The partition-qualified name used when a same-title page belongs to another partition."""
    suffix = f"--{zone.replace('_', '-')}--{sensitivity.replace('_', '-')}"
    return slug[: MAX_SLUG + len(suffix) - len(suffix)] + suffix

"""Reading and writing wiki files safely: bounded reads, atomic writes, whole-line appends (SPEC §3).

Never through a symlink, never more than a size limit. What a page holds (frontmatter, body layout) is the page
format, in `pagefmt.py`.
"""

from __future__ import annotations

import errno
import os
import stat
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import PageError, PathEscape, UnsafeFile
from .paths import FD_WALK, mkdirs, open_dir, open_read, read_file, refuse_symlink

if TYPE_CHECKING:
    from .pagefmt import parse_entry as parse_entry
    from .pagefmt import render_entry as render_entry

# The page format used to live here: these three are still importable from this module (the two functions are
# loaded with pagefmt, and its YAML reader, on first use).
__all__ = ["PageError", "parse_entry", "render_entry"]


def __getattr__(name: str) -> Any:
    if name in ("parse_entry", "render_entry"):
        from . import pagefmt

        return getattr(pagefmt, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

# Size limits for what the engine reads (one bad file never stops a command: it is reported and skipped).
MAX_PAGE_BYTES = 1024 * 1024  # entries/*.md, conflicts/C<N>.md
MAX_LEDGER_BYTES = 64 * 1024 * 1024  # quiz ledgers, review files, generated views read back
MAX_ENVELOPE_BYTES = 128 * 1024 * 1024  # import envelopes
MAX_LINE_BYTES = 1024 * 1024  # one line of an append-only JSONL ledger


def atomic_write(path: Path, text: str | bytes, *, durable: bool = True) -> None:
    """Write via a temp file in the same directory, fsync, os.replace: a crash leaves the old or the new page.

    Never through a symlink: every directory on the way is opened without following links (missing ones are
    created), the temp file is created with O_EXCL | O_NOFOLLOW, and a symlink where the file should be is refused
    (PathEscape) rather than replaced.

    `durable=False` skips the flush, for derived data a reader rebuilds when it is missing or broken (a cache):
    readers still never see half a file, but after a power cut the file may be empty or missing.
    """
    atomic_write_many([(path, text)], durable=durable)


def atomic_write_many(files: Sequence[tuple[Path, str | bytes]], *, durable: bool = True) -> None:
    """`atomic_write` for several files at once: every temp file is written, then all are fsynced together (the
    disk's flushes overlap instead of queueing one after the other: what a write's regenerated views cost), then
    each is renamed over its file. Each file is replaced whole or not at all; a file that cannot be written stops
    the batch before any is renamed."""
    items = [(Path(os.path.abspath(p)), t.encode("utf-8") if isinstance(t, str) else t) for p, t in files]
    if not FD_WALK:  # pragma: no cover - platforms without openat (Windows)
        for path, data in items:
            _atomic_write_by_name(path, data, durable)
        return
    opened: list[list[Any]] = []  # [dir fd, temp name, temp fd or None once closed, path, renamed]
    try:
        for path, data in items:
            dfd = open_dir(path.parent, create=True)
            try:
                mode = _refuse_link_at(dfd, path)
                tmp, fd = _create_temp(dfd, path)
            except BaseException:
                os.close(dfd)
                raise
            opened.append([dfd, tmp, fd, path, False])
            if mode is not None:
                os.fchmod(fd, mode)  # a rewrite keeps the file's permission bits (a new file is 0600)
            _write_all(fd, data)
        if durable:
            fsync_all([o[2] for o in opened])
        for o in opened:
            os.close(o[2])
            o[2] = None
        for o in opened:
            dfd, tmp, _, path, _ = o
            os.replace(tmp, path.name, src_dir_fd=dfd, dst_dir_fd=dfd)
            o[4] = True
    finally:
        for dfd, tmp, fd, _, renamed in opened:
            if fd is not None:
                os.close(fd)
            if not renamed:
                try:
                    os.unlink(tmp, dir_fd=dfd)
                except FileNotFoundError:
                    pass
            os.close(dfd)


def _create_temp(dfd: int, path: Path) -> tuple[str, int]:
    for _ in range(100):
        tmp = f".{path.name}.{os.urandom(4).hex()}.tmp"  # secrets.token_hex(4), without importing `random`
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dfd)
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temp name beside {path}")  # pragma: no cover


def fsync_all(fds: list[int]) -> None:
    """fsync every file, the flushes running at once (each in its own thread: fsync releases the GIL). Raises the
    first error after every flush has ended."""
    if len(fds) <= 1:
        for fd in fds:
            os.fsync(fd)
        return
    errors: list[BaseException] = []

    def flush(fd: int) -> None:
        try:
            os.fsync(fd)
        except BaseException as exc:  # raised in the caller's thread below
            errors.append(exc)

    threads = [threading.Thread(target=flush, args=(fd,), daemon=True) for fd in fds[1:]]
    for t in threads:
        t.start()
    flush(fds[0])
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


def _atomic_write_by_name(path: Path, data: bytes, durable: bool = True) -> None:  # pragma: no cover - Windows
    import tempfile

    mkdirs(path.parent)
    refuse_symlink(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _refuse_link_at(dfd: int, path: Path) -> int | None:
    """Refuse a symlink where `path` should be written; the permission bits of the regular file there, if any."""
    try:
        st = os.lstat(path.name, dir_fd=dfd)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        raise PathEscape(
            f"{path} is a symlink (-> {_readlink_at(dfd, path.name)}); memkeeper never reads or writes "
            "through symlinks in a wiki"
        )
    return stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else None


def keep_mode(src: Path, target: Path) -> None:
    """Give `src` (a staged file about to be renamed over `target`) the permission bits of the regular file at
    `target`, if there is one: a rewrite keeps a page's mode (a group's read, a person's read-only)."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return
    if stat.S_ISREG(st.st_mode):
        os.chmod(src, stat.S_IMODE(st.st_mode))


def read_only(path: Path) -> bool:
    """Whether the regular file at `path` is read-only: it has no write permission bit at all, or none this process
    holds (vim's test: root, whom the bits do not stop, still sees a `chmod a-w` page as read-only). False when there
    is no regular file there."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    return not st.st_mode & 0o222 or not os.access(path, os.W_OK)


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


def append_lines(path: Path, lines: list[str], *, durable: bool = True) -> None:
    """Append whole lines in one write (O_APPEND), so concurrent readers never see half a line.

    Never through a symlink (the file is opened with O_NOFOLLOW in a directory reached without following links),
    and only to a regular file (a FIFO or a device where a ledger should be is refused). Inside `synced_together`
    the fsync is left to the end of that block; `durable=False` (derived data, rebuilt when lost) skips it.
    """
    if not lines:
        return
    data = "".join(line.rstrip("\n") + "\n" for line in lines).encode("utf-8")
    path = Path(os.path.abspath(path))
    # Read and write: the last byte is read before appending (below).
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | _NOFOLLOW | _CLOEXEC | getattr(os, "O_NONBLOCK", 0)
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
    deferred: list[int] | None = getattr(_together, "fds", None)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafeFile(f"{path} is not a regular file; refusing to append to it")
        size = os.fstat(fd).st_size
        if size and os.pread(fd, 1, size - 1) != b"\n":
            # The file does not end in a newline (cut short by hand, or by an editor that drops it): the first line
            # appended would be glued onto its last line, and a reader would drop both as one bad line.
            data = b"\n" + data
        _write_all(fd, data)
        if not durable:
            pass
        elif deferred is None:
            os.fsync(fd)
        else:
            deferred.append(fd)
            fd = -1
    finally:
        if fd != -1:
            os.close(fd)


_together = threading.local()


@contextmanager
def synced_together() -> Iterator[None]:
    """The appends made inside (`append_lines`, this thread) are fsynced together when the block ends — their
    flushes overlap instead of queueing — whether it ends normally or by an exception. Nested: the outer block
    syncs."""
    if getattr(_together, "fds", None) is not None:
        yield
        return
    fds: list[int] = []
    _together.fds = fds
    try:
        yield
    finally:
        _together.fds = None
        try:
            fsync_all(fds)
        finally:
            for fd in fds:
                os.close(fd)


def _open_for_append(opener, path: Path) -> int:
    try:
        return opener()
    except OSError as exc:
        if exc.errno in (errno.ELOOP, getattr(errno, "EMLINK", -1), getattr(errno, "EFTYPE", -1)):
            raise PathEscape(
                f"{path} is a symlink; memkeeper never reads or writes through symlinks in a wiki"
            ) from None
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

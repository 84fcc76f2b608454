"""The engine's inter-process locks (`.memkeeper/write.lock`, `index.lock`).

On POSIX a lock is `flock` on the lock file, held through one descriptor per thread: exclusive between processes
and between the threads of one process (each thread opens its own descriptor, and `flock` treats descriptors
independently), re-entrant within a thread. That is what the engine asked of `filelock.FileLock` (its default,
thread-local mode); written out here because importing filelock cost every writing command ~35 ms of its ~250 ms
budget (it imports logging, inspect, decimal and more at start-up). Elsewhere (Windows) filelock does it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from .errors import Busy

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


class LockTimeout(TimeoutError, Busy):
    """The lock stayed held by another process (or thread) for the whole timeout. An engine error (`Busy`): the
    command line says so in one line and exits 2, the MCP server answers with that line, the desk shows it."""

    def __init__(self, path: str) -> None:
        super().__init__(f"the write lock {path} is held by another process; nothing was written, try again")
        self.lock_file = path


class WaitCancelled(Exception):
    """A wait for the lock given up because the waiter said it was cancelled (`cancelled`): nothing was locked, and
    the operation that waited has not begun."""

    def __init__(self, path: str) -> None:
        super().__init__(f"the wait for the lock {path} was cancelled; nothing was written")
        self.lock_file = path


class _Held:
    """What `acquire()` returns: releases once when used as a context manager."""

    def __init__(self, lock: FileLock) -> None:
        self.lock = lock

    def __enter__(self) -> FileLock:
        return self.lock

    def __exit__(self, *exc: object) -> None:
        self.lock.release()


class FileLock:
    """An exclusive, re-entrant (per thread) lock on `path`, waiting up to `timeout` seconds, polling every
    `poll_interval` seconds.

    `cancelled` (given to `acquire`): asked at each poll while the lock is held elsewhere; when it says so, the wait
    stops with `WaitCancelled` (nothing locked). POSIX only (filelock's wait cannot be stopped).

    `anchor`: a directory that is locked too, first (POSIX). A lock file in a folder that may be deleted while it
    is held (`rm -rf .memkeeper`: derived, so allowed) stops excluding anyone: the next writer makes a new file
    and locks that, while the holder still writes. `flock` on the directory that holds the folder (the wiki root)
    is not undone by that deletion. Where a file system cannot lock a directory (some network ones), the lock file
    alone is used, as before."""

    def __init__(self, path: str, timeout: float = -1, poll_interval: float = 0.05, anchor: str | None = None) -> None:
        self.lock_file = path
        self.anchor = anchor
        self.timeout = timeout
        self.poll_interval = poll_interval
        self._local = threading.local()
        self._fallback: Any = None
        if fcntl is None:  # pragma: no cover - not on POSIX
            from filelock import FileLock as _Library

            self._fallback = _Library(path, timeout=timeout, poll_interval=poll_interval)

    @property
    def is_locked(self) -> bool:
        if self._fallback is not None:  # pragma: no cover
            return bool(self._fallback.is_locked)
        return getattr(self._local, "count", 0) > 0

    def acquire(self, timeout: float | None = None, cancelled: Callable[[], bool] | None = None) -> _Held:
        if self._fallback is not None:  # pragma: no cover
            try:
                self._fallback.acquire(timeout=self.timeout if timeout is None else timeout)
            except TimeoutError:
                raise LockTimeout(self.lock_file) from None
            return _Held(self)
        local = self._local
        if getattr(local, "count", 0) > 0:
            local.count += 1
            return _Held(self)
        wait = self.timeout if timeout is None else timeout
        deadline = None if wait is None or wait < 0 else time.monotonic() + wait
        anchor = self._lock_anchor(deadline, cancelled)
        try:
            fd = self._open_lock_file()
            try:
                self._flock(fd, deadline, cancelled)
            except BaseException:
                os.close(fd)
                raise
        except BaseException:
            if anchor is not None:
                os.close(anchor)  # (closing the descriptor releases its flock)
            raise
        local.fd, local.anchor, local.count = fd, anchor, 1
        return _Held(self)

    def _lock_anchor(self, deadline: float | None, cancelled: Callable[[], bool] | None) -> int | None:
        """The anchor directory, opened and locked (None without one, or where its file system cannot lock it)."""
        if self.anchor is None:
            return None
        fd = os.open(self.anchor, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
        try:
            self._flock(fd, deadline, cancelled)
        except (LockTimeout, WaitCancelled):
            os.close(fd)
            raise
        except OSError:  # EBADF, ENOLCK, EOPNOTSUPP: no directory locks here; the lock file still excludes
            os.close(fd)
            return None
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _open_lock_file(self) -> int:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC
        try:
            return os.open(self.lock_file, flags, 0o600)
        except FileNotFoundError:
            if self.anchor is None:
                raise
            # Its folder was deleted since the caller made it; holding the anchor, it is made again.
            os.makedirs(os.path.dirname(self.lock_file), exist_ok=True)
            return os.open(self.lock_file, flags, 0o600)

    def _flock(self, fd: int, deadline: float | None, cancelled: Callable[[], bool] | None) -> None:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if cancelled is not None and cancelled():
                    raise WaitCancelled(self.lock_file) from None
                if deadline is not None and time.monotonic() >= deadline:
                    raise LockTimeout(self.lock_file) from None
                time.sleep(self.poll_interval)

    def release(self) -> None:
        if self._fallback is not None:  # pragma: no cover
            self._fallback.release()
            return
        local = self._local
        count = getattr(local, "count", 0)
        if count <= 0:
            return
        local.count = count - 1
        if local.count == 0:
            fd, local.fd = local.fd, None
            anchor, local.anchor = getattr(local, "anchor", None), None
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)
                if anchor is not None:
                    os.close(anchor)  # the lock file first: a waiter on the anchor then finds the file free

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()

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
    `poll_interval` seconds."""

    def __init__(self, path: str, timeout: float = -1, poll_interval: float = 0.05) -> None:
        self.lock_file = path
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

    def acquire(self, timeout: float | None = None) -> _Held:
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
        fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC, 0o600)
        deadline = None if wait is None or wait < 0 else time.monotonic() + wait
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if deadline is not None and time.monotonic() >= deadline:
                        raise LockTimeout(self.lock_file) from None
                    time.sleep(self.poll_interval)
        except BaseException:
            os.close(fd)
            raise
        local.fd, local.count = fd, 1
        return _Held(self)

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
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()

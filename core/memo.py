"""A memo bounded by what it holds, not only by how many entries: `text_cache(maxsize, max_chars)`.

The readers of the pair decision keep each text's reading (`slots.analyze`, `subjects.side`, `relation.claims`) so
that a note met by many statements is read once. `functools.lru_cache` bounds them by entries only, and a reading
takes about 100 bytes per character of its text: 8,192 readings of 64 KB notes would be some 56 GB in a desk or an
MCP server that stays open for days. Here the entries are also bounded by the characters of the texts they were
read from, counted by `weigh` (by default every `str` argument's length); the least recently used go first. A
single text over the whole bound is read and not kept.

Thread-safe: the desk's workers and the MCP server's requests read in threads. The function itself runs outside
the lock (as with `lru_cache`, two threads may read one text at once, and one reading is kept).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, NamedTuple, TypeVar

R = TypeVar("R")

# The characters of text whose readings one reader's memo keeps: 1 MiB, some 100-170 MB of readings (16 notes of
# 64 KB, or every one of 8,192 short statements).
READ_CHARS = 1 << 20
# For memos that keep the texts and small results (pair decisions, claims): the texts are what they hold.
TEXT_CHARS = 4 << 20


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    maxsize: int
    currsize: int
    chars: int  # the characters the entries were read from
    max_chars: int


def str_chars(*args: Any, **kwargs: Any) -> int:
    """The length of every `str` argument."""
    return sum(len(a) for a in (*args, *kwargs.values()) if isinstance(a, str))


class TextCache(Generic[R]):
    """The memo of one function (see the module's docstring). Called as the function is; `cache_info()` and
    `cache_clear()` as `lru_cache`'s."""

    def __init__(self, fn: Callable[..., R], maxsize: int, max_chars: int, weigh: Callable[..., int]) -> None:
        self._fn = fn
        self._maxsize = maxsize
        self._max_chars = max_chars
        self._weigh = weigh
        self._data: OrderedDict[Any, tuple[R, int]] = OrderedDict()
        self._chars = 0
        self._hits = self._misses = 0
        self._lock = threading.Lock()
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> R:
        key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        with self._lock:
            got = self._data.get(key)
            if got is not None:
                self._data.move_to_end(key)
                self._hits += 1
                return got[0]
            self._misses += 1
        value = self._fn(*args, **kwargs)
        weight = max(1, self._weigh(*args, **kwargs))
        if weight > self._max_chars:
            return value  # larger than the whole bound: kept, it would push every other entry out
        with self._lock:
            if key not in self._data:
                self._data[key] = (value, weight)
                self._chars += weight
                while len(self._data) > self._maxsize or self._chars > self._max_chars:
                    _, (_, gone) = self._data.popitem(last=False)
                    self._chars -= gone
        return value

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, self._maxsize, len(self._data), self._chars, self._max_chars)

    def cache_clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._chars = 0
            self._hits = self._misses = 0


def text_cache(
    maxsize: int, max_chars: int, weigh: Callable[..., int] = str_chars
) -> Callable[[Callable[..., R]], TextCache[R]]:
    """Memoise a function of texts, at most `maxsize` entries read from at most `max_chars` characters in all."""

    def wrap(fn: Callable[..., R]) -> TextCache[R]:
        return TextCache(fn, maxsize, max_chars, weigh)

    return wrap

"""The readers' memos are bounded by the text they hold, not only by entries.

A reading (`slots.analyze`, `subjects.side`) takes about 100 bytes per character of its text. With memos bounded
by entries alone, a desk or an MCP server that stays open kept every long note it had ever read: 8,192 readings of
64 KB notes, some 56 GB. These tests check the bound itself (`memo.text_cache`) and that, through `relate`, a long
note's reading is let go once newer texts fill the bound (the test lowers the bound to keep the test short)."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

from memkeeper.core import memo, subjects
from memkeeper.core.relation import Statement, decision, relate
from memkeeper.core.slots import analysis


def _counting():
    calls: list[str] = []

    def read(text: str) -> str:
        calls.append(text)
        return text.upper()

    return calls, read


def test_entries_are_bounded_by_the_characters_they_were_read_from() -> None:
    calls, read = _counting()
    cached = memo.text_cache(maxsize=100, max_chars=25)(read)
    for t in ("a" * 10, "b" * 10, "c" * 10):
        assert cached(t) == t.upper()
    info = cached.cache_info()
    assert info.currsize == 2 and info.chars == 20  # the first went when the third passed 25 characters
    cached("b" * 10)
    cached("c" * 10)
    assert len(calls) == 3  # kept: read once
    cached("a" * 10)
    assert len(calls) == 4  # let go: read again


def test_the_least_recently_used_goes_first() -> None:
    calls, read = _counting()
    cached = memo.text_cache(maxsize=2, max_chars=10_000)(read)
    cached("one")
    cached("two")
    cached("one")  # "two" is now the least recently used
    cached("three")
    n = len(calls)
    cached("one")
    assert len(calls) == n
    cached("two")
    assert len(calls) == n + 1


def test_a_text_over_the_whole_bound_is_read_and_not_kept() -> None:
    calls, read = _counting()
    cached = memo.text_cache(maxsize=10, max_chars=8)(read)
    cached("small")
    assert cached("x" * 9) == "X" * 9
    assert cached.cache_info().currsize == 1  # the small one is still there
    cached("x" * 9)
    assert calls.count("x" * 9) == 2
    cached("small")
    assert calls.count("small") == 1


def test_weigh_counts_what_the_caller_says() -> None:
    calls, read = _counting()
    cached = memo.text_cache(maxsize=10, max_chars=5, weigh=lambda text: 3)(read)
    cached("a" * 100)
    cached("b" * 100)  # 6 > 5: the first goes
    assert cached.cache_info().currsize == 1 and cached.cache_info().chars == 3


def test_cache_clear_empties_it() -> None:
    calls, read = _counting()
    cached = memo.text_cache(maxsize=10, max_chars=100)(read)
    cached("a")
    cached.cache_clear()
    assert cached.cache_info().currsize == 0 and cached.cache_info().chars == 0
    cached("a")
    assert len(calls) == 2


def test_threads_share_one_memo_and_its_count_stays_true() -> None:
    cached = memo.text_cache(maxsize=50, max_chars=400)(str.upper)
    texts = [f"text number {i:03d}" for i in range(200)]  # 15 characters each

    def run() -> None:
        for t in texts:
            assert cached(t) == t.upper()

    workers = [threading.Thread(target=run) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    info = cached.cache_info()
    assert info.chars == 15 * info.currsize <= 400


def _long_note(i: int) -> str:
    """One claim of ~50 KB (no sentence ends): read whole, its "only" cue read too."""
    part = "pipeline {n} of service {i} runs nightly at 02:00 UTC for 45 minutes"
    return "Ravi is the only owner of " + ", ".join(part.format(n=n, i=i) for n in range(700))


@pytest.fixture
def small_bounds(monkeypatch: pytest.MonkeyPatch):
    """The readers' bound lowered to 150,000 characters (two long notes), so that a few notes pass it."""
    for fn in (analysis._analyze, subjects.side):
        monkeypatch.setattr(fn, "_max_chars", 150_000)
        fn.cache_clear()
    decision._relate.cache_clear()
    yield
    for fn in (analysis._analyze, subjects.side, decision._relate):
        fn.cache_clear()


def test_a_long_notes_reading_is_let_go_once_newer_texts_fill_the_bound(small_bounds) -> None:
    short = Statement("Service 7's nightly pipeline now takes 50 minutes.")
    first = _long_note(0)
    relate(Statement(first), short)
    reading = weakref.ref(analysis.analyze(first))
    gc.collect()
    assert reading() is not None  # kept while it is among the latest
    for i in range(1, 4):
        relate(Statement(_long_note(i)), short)
    gc.collect()
    assert reading() is None  # nothing else holds it: not the side, not the exclusive cues read from it
    assert subjects.side.cache_info().chars <= 150_000
    assert analysis._analyze.cache_info().chars <= 150_000


def test_the_readers_bounds_hold_some_long_notes_and_every_short_statement() -> None:
    """The bound in use: 16 notes of 64 KiB (a capture's long candidates read once), or 8,192 statements of 128
    characters (the entry bound is what holds them, as before)."""
    for fn in (analysis._analyze, subjects.side):
        info = fn.cache_info()
        assert info.max_chars == memo.READ_CHARS >= 16 * 65536
        assert info.maxsize * 128 <= info.max_chars

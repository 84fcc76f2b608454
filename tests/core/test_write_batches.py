"""Writes made together: `atomic_write_many` (the views after a write) and `synced_together` (an operation's
appends). Each file is still written whole; only the flushes overlap."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memkeeper.core import pages
from memkeeper.core.errors import PathEscape
from memkeeper.core.pages import append_lines, atomic_write_many, fsync_all, synced_together


def _temps(d: Path) -> list[str]:
    return [p.name for p in d.rglob(".*.tmp")]


def test_every_file_is_written_and_no_temp_file_is_left(tmp_path):
    (tmp_path / "a.md").write_text("old a")
    atomic_write_many([(tmp_path / "a.md", "new a"), (tmp_path / "sub" / "b.md", "b"), (tmp_path / "c.md", b"c")])
    assert (tmp_path / "a.md").read_text() == "new a"
    assert (tmp_path / "sub" / "b.md").read_text() == "b" and (tmp_path / "c.md").read_text() == "c"
    assert _temps(tmp_path) == []


def test_a_file_that_cannot_be_written_replaces_none(tmp_path):
    (tmp_path / "a.md").write_text("old a")
    (tmp_path / "target").write_text("elsewhere")
    (tmp_path / "b.md").symlink_to(tmp_path / "target")
    with pytest.raises(PathEscape):
        atomic_write_many([(tmp_path / "a.md", "new a"), (tmp_path / "b.md", "new b")])
    assert (tmp_path / "a.md").read_text() == "old a" and (tmp_path / "target").read_text() == "elsewhere"
    assert _temps(tmp_path) == []


def test_a_cache_write_skips_the_flush_but_still_replaces_the_file_whole(tmp_path, monkeypatch):
    """`durable=False` (derived data such as the conflict cache) pays no disk flush; readers still see the old or
    the new file, never a temp file beside it."""
    flushed: list[list[int]] = []
    monkeypatch.setattr(pages, "fsync_all", lambda fds: flushed.append(list(fds)))
    (tmp_path / "cache.json").write_text("old")
    pages.atomic_write(tmp_path / "cache.json", "new", durable=False)
    assert (tmp_path / "cache.json").read_text() == "new" and flushed == [] and _temps(tmp_path) == []
    pages.atomic_write(tmp_path / "page.md", "page")
    assert len(flushed) == 1


def test_a_failed_flush_replaces_none(tmp_path, monkeypatch):
    (tmp_path / "a.md").write_text("old a")

    def failing(fds):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(pages, "fsync_all", failing)
    with pytest.raises(OSError):
        atomic_write_many([(tmp_path / "a.md", "new a"), (tmp_path / "b.md", "b")])
    assert (tmp_path / "a.md").read_text() == "old a" and not (tmp_path / "b.md").exists()
    assert _temps(tmp_path) == []


def test_fsync_all_flushes_every_file_and_raises_the_first_error(tmp_path):
    fds = [os.open(tmp_path / f"f{i}", os.O_WRONLY | os.O_CREAT) for i in range(3)]
    try:
        fsync_all(fds)
        fsync_all([])
        closed = os.open(tmp_path / "g", os.O_WRONLY | os.O_CREAT)
        os.close(closed)
        with pytest.raises(OSError):
            fsync_all([fds[0], closed, fds[1]])
    finally:
        for fd in fds:
            os.close(fd)


def test_appends_inside_a_block_are_written_at_once_and_flushed_at_its_end(tmp_path, monkeypatch):
    flushed: list[list[int]] = []
    real = pages.fsync_all
    monkeypatch.setattr(pages, "fsync_all", lambda fds: (flushed.append(list(fds)), real(fds))[1])
    with synced_together():
        append_lines(tmp_path / "log.md", ["a"])
        with synced_together():  # nested: the outer block flushes
            append_lines(tmp_path / "p.jsonl", ["b", "c"])
        assert (tmp_path / "log.md").read_text() == "a\n"  # readers see it at once
        assert flushed == []
    assert [len(f) for f in flushed] == [2]
    assert (tmp_path / "p.jsonl").read_text() == "b\nc\n"
    append_lines(tmp_path / "log.md", ["d"])  # outside a block: flushed by itself
    assert (tmp_path / "log.md").read_text() == "a\nd\n"


def test_a_block_that_fails_still_flushes_and_closes_what_it_appended(tmp_path):
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    with pytest.raises(RuntimeError), synced_together():
        append_lines(tmp_path / "log.md", ["a"])
        raise RuntimeError("stop")
    assert (tmp_path / "log.md").read_text() == "a\n"
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before

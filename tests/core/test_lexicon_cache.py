"""The lexicon's cache (core/slots/lexicon.py): the lists read back from it are the lists built from the TOML, and a
cache that does not belong to the files it claims to be made from is never used."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from memkeeper.core.slots import lexicon

L = sys.modules["memkeeper.core.slots.lexicon"]


def _same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (a tuple is not a list, a frozenset not a set)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@pytest.fixture
def cache_at(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "__pycache__" / "relations.test.lexicon"
    monkeypatch.setattr(L, "cache_file", lambda: path)
    return path


def _fresh() -> dict[str, Any]:
    return L.build_fields(L.DATA_FILE.read_bytes())


def test_the_cached_lists_are_the_built_lists(cache_at: Path) -> None:
    first = L.lexicon.__wrapped__()  # builds and writes the cache
    assert cache_at.exists()
    second = L.lexicon.__wrapped__()  # reads it
    fresh = _fresh()
    assert _same(first.__dict__, fresh) and _same(second.__dict__, fresh)


def test_a_cache_made_from_other_files_is_ignored_and_replaced(cache_at: Path) -> None:
    L.lexicon.__wrapped__()
    blob = cache_at.read_bytes()
    cut = blob.index(b"\n", len(L._CACHE_MAGIC)) + 1
    # Same layout, other lists, keyed by other sources: never read.
    import marshal

    other = dict(_fresh(), light=frozenset({"planted"}))
    cache_at.write_bytes(L._CACHE_MAGIC + b"0" * 64 + b"\n" + marshal.dumps(other))
    assert "planted" not in L.lexicon.__wrapped__().light
    assert cache_at.read_bytes()[:cut] == blob[:cut]  # written again for the current sources


@pytest.mark.parametrize("junk", [b"", b"memkeeper-lexicon-1\n", b"\x00" * 100])
def test_an_unreadable_cache_is_ignored(cache_at: Path, junk: bytes) -> None:
    cache_at.parent.mkdir(parents=True)
    cache_at.write_bytes(junk)
    assert _same(L.lexicon.__wrapped__().__dict__, _fresh())


def test_a_truncated_cache_is_ignored(cache_at: Path) -> None:
    L.lexicon.__wrapped__()
    blob = cache_at.read_bytes()
    cache_at.write_bytes(blob[: len(blob) - 100])
    assert _same(L.lexicon.__wrapped__().__dict__, _fresh())


def test_a_cache_that_cannot_be_written_is_no_error(cache_at: Path) -> None:
    cache_at.parent.write_text("a file where the cache directory would be")
    assert _same(L.lexicon.__wrapped__().__dict__, _fresh())
    assert cache_at.parent.is_file() and not list(cache_at.parent.parent.glob("*.tmp"))


def test_one_lexicon_per_process() -> None:
    assert lexicon() is lexicon()

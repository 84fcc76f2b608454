"""Records in any script are found by their own words.

A query is read folded (NFKC, then transliterated to ASCII: "сервер" is read "server"), and the full-text index
held the words as written: a record in Cyrillic, Japanese, Hebrew, or with a ligature or a "ß", was found by no word
of its own (only by a Latin word in its title). The index now holds its words folded as a query's are."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest

from memkeeper.core import Engine
from tests.conftest import T0

RECORDS = {
    "russian": "Сервер базы данных называется orion-db.",
    "japanese": "東京オフィスの住所は渋谷区です。",
    "hebrew": "הפגישה השבועית של הצוות נערכת ביום שלישי.",
    "ligature": "ﬁnance team uses the ﬂoor two meeting room.",
    "german": "Die Abteilung heißt jetzt Plattform-Betrieb.",
    "greek": "Ο διακομιστής αντιγράφων ασφαλείας είναι στην Αθήνα.",
}
QUERIES = [
    ("сервер", "russian"),
    ("базы данных", "russian"),
    ("東京", "japanese"),
    ("渋谷区", "japanese"),
    ("הפגישה השבועית", "hebrew"),
    ("finance", "ligature"),
    ("floor", "ligature"),
    ("heißt", "german"),
    ("Αθήνα", "greek"),
    ("διακομιστής", "greek"),
]


@pytest.fixture
def written(eng: Engine) -> dict[str, str]:
    ids = {}
    for name, text in RECORDS.items():
        r = eng.capture(text, title=f"note {name}", now=T0, actor="agent:notes")
        assert r.status == "captured", r.details
        ids[name] = r.details["memory_id"]
    return ids


def _found(eng: Engine, query: str) -> list[str]:
    r = eng.retrieve(query, now=T0 + timedelta(hours=1), actor="agent:probe", record_access=False)
    return [x["memory_id"] for x in r.details["results"]]


@pytest.mark.parametrize(("query", "name"), QUERIES, ids=[q for q, _ in QUERIES])
def test_a_record_is_found_by_its_own_words_in_any_script(eng, written, query, name):
    assert _found(eng, query)[:1] == [written[name]]


def test_the_index_built_cold_finds_them_too(eng, written, tmp_path):
    """A wiki opened on a new machine builds its index from the pages (the cold build, its own code path)."""
    eng.close()
    shutil.rmtree(eng.root / ".memkeeper")
    again = Engine.open(eng.root)
    try:
        for query, name in QUERIES:
            assert _found(again, query)[:1] == [written[name]], query
    finally:
        again.close()


def test_a_removed_or_changed_record_leaves_none_of_its_words_in_the_index(eng, written):
    """A record's words are taken out of the full-text index as they were put in: folded. Taken out as written,
    "сервер" would stay indexed as "server" under a row that no longer holds it."""
    index = eng.store.index
    (eng.root / "entries" / "note-russian.md").unlink()
    eng.sync()
    assert index.query("SELECT rowid FROM fts WHERE fts MATCH '\"server\"'") == []
    # a page edited in place: its old words go, its new ones come
    ja = eng.root / "entries" / "note-japanese.md"
    ja.write_text(ja.read_text(encoding="utf-8").replace("東京", "大阪"), encoding="utf-8")
    eng.sync()
    assert index.query("SELECT rowid FROM fts WHERE fts MATCH '\"dong\"'") == []
    assert _found(eng, "大阪") == [written["japanese"]]
    assert eng.check().kinds == ["page_gone"]  # the deleted page, and nothing about the index

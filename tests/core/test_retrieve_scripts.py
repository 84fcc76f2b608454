"""Records in any script are found by their own words.

A query was read folded (NFKC, then transliterated to ASCII: "сервер" was read "server"), and the full-text index
held the words as written: a record in Cyrillic, Japanese, Hebrew, or with a ligature or a "ß", was found by no word
of its own (only by a Latin word in its title). The index then held its words folded as a query's were; now both
keep each script's own letters (Latin is still folded: "ß" is "ss", "ﬁ" "fi"), so a query in a script finds the
same letters in that script and no homophone in another."""

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
    """A record's words are taken out of the full-text index as they were put in: as its tokens. Taken out as
    written, "сервер" would stay indexed under a row that no longer holds it."""
    index = eng.store.index
    assert index.query("SELECT rowid FROM fts WHERE fts MATCH '\"сервер\"'") != []
    (eng.root / "entries" / "note-russian.md").unlink()
    eng.sync()
    assert index.query("SELECT rowid FROM fts WHERE fts MATCH '\"сервер\"'") == []
    # a page edited in place: its old words go, its new ones come
    ja = eng.root / "entries" / "note-japanese.md"
    ja.write_text(ja.read_text(encoding="utf-8").replace("東京", "大阪"), encoding="utf-8")
    eng.sync()
    assert index.query("SELECT rowid FROM fts WHERE fts MATCH '\"東京\"'") == []
    assert _found(eng, "大阪") == [written["japanese"]]
    assert eng.check().kinds == ["page_gone"]  # the deleted page, and nothing about the index


# --- each script's own letters (the pass over other languages, 2026-12-05) ------------------------------------------
#
# Folded to ASCII, scripts met each other and English through homophones (核 and 和 are both "he", 平 found "pings",
# Arabic س and ص are both "s"), a Japanese kana run was one token with its particles ("サーバーの" -> "sa-ba-no"), and
# a one-letter Chinese query or an emoji was no query at all. Search now keeps every script's own letters.


def _capture_all(eng: Engine, texts: dict[str, str], **kw) -> dict[str, str]:
    ids = {}
    for name, text in texts.items():
        r = eng.capture(text, now=T0, actor="agent:notes", **kw)
        assert r.status == "captured", (name, r.status, r.details)
        ids[name] = r.details["memory_id"]
    return ids


def _retrieve(eng: Engine, query: str):
    return eng.retrieve(query, now=T0 + timedelta(hours=1), actor="agent:probe", record_access=False)


JAPANESE = {
    "ip": "本番サーバーのIPアドレスは10.0.0.5です。",
    "db": "このプロジェクトのデータベースはPostgreSQL 16で、東京のサーバーに置いてあります。",
    "home": "私は東京に住んでいます。会社は渋谷にあります。",
    "deploy": "デプロイは毎週木曜日に行います。担当はカトウさんです。",
}


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("サーバー", {"ip", "db"}),
        ("アドレス", {"ip"}),
        ("データベース", {"db"}),
        ("プロジェクト", {"db"}),
        ("住んで", {"home"}),
        ("カトウ", {"deploy"}),
        ("東京のサーバー", {"db"}),
    ],
)
def test_a_japanese_word_is_found_by_its_own_letters(eng, query, names):
    """A kana run was one token glued to the particle after it ("サーバーの" -> "sa-ba-no"): サーバー, アドレス and
    データベース found nothing. Kanji, hiragana and katakana runs are cut where the script changes."""
    ids = _capture_all(eng, JAPANESE)
    found = [r["memory_id"] for r in _retrieve(eng, query).details["results"]]
    assert set(found[: len(names)]) == {ids[n] for n in names}
    # the best of them holds every letter of the query
    assert all(r["components"]["semantic"] == 1.0 for r in _retrieve(eng, query).details["results"][: len(names)])


CHINESE = {
    "core": "核心服务部署在北京，备用服务在广州。",
    "badge": "新员工入职第一天需要领取门禁卡。",
    "pings": "The production server pings the health check every 30 seconds.",
    "audit": "服务器安全策略每季度审查一次，由运维组负责。",
    "quan": "The Quan family restaurant hosts the team dinner in December.",
    "river": "我们的河边办公室在杭州，每周五下午开会。",
}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("核心", ["core"]),  # 核 was "he" (a stopword): 心 and 新 are both "xin"
        ("和平", []),  # 和 "he", 平 "ping": the English "pings"
        ("安全", ["audit"]),  # 安 "an" (a stopword), 全 "quan": the Quan family
        ("喝茶", []),  # 茶 "cha": 查 in 审查
    ],
)
def test_chinese_letters_are_not_matched_through_their_pinyin(eng, query, expected):
    ids = _capture_all(eng, CHINESE)
    found = [r["memory_id"] for r in _retrieve(eng, query).details["results"]]
    assert found == [ids[n] for n in expected]


def test_a_one_letter_chinese_query_is_searched(eng):
    """河 (river) was read "he", an English stopword, and refused as an empty query."""
    ids = _capture_all(eng, CHINESE)
    r = _retrieve(eng, "河")
    assert r.status == "ok", r.details
    assert [x["memory_id"] for x in r.details["results"]] == [ids["river"]]


ARABIC = {
    "summer": "الإجازة السنوية للفريق تكون في الصيف دائما.",
    "sword": "السيف القديم معلق في مكتب المدير.",
    "figs": "التين يصل من المورد كل أسبوع.",
    "project": "المشروع الجديد يبدأ في مارس.",
}


@pytest.mark.parametrize(("query", "name"), [("السيف", "sword"), ("الصيف", "summer")])
def test_arabic_letters_that_transliterate_alike_stay_apart(eng, query, name):
    """س and ص were both "s": السيف (the sword) found الصيف (the summer) first."""
    ids = _capture_all(eng, ARABIC)
    assert [r["memory_id"] for r in _retrieve(eng, query).details["results"]] == [ids[name]]


def test_a_hebrew_query_does_not_find_arabic_letters(eng):
    """קל (easy) and كل (every) were both "kl"."""
    _capture_all(eng, ARABIC)
    assert _retrieve(eng, "קל").details["results"] == []


def test_an_arabic_or_hebrew_word_is_found_after_its_article_or_prefix(eng):
    ids = _capture_all(eng, {**ARABIC, "meeting": "הפגישה הבאה בתל אביב ביום שלישי."})
    assert [r["memory_id"] for r in _retrieve(eng, "مشروع").details["results"]] == [ids["project"]]
    assert [r["memory_id"] for r in _retrieve(eng, "פגישה").details["results"]] == [ids["meeting"]]


EMOJI = {
    "peanut": "🥜🚫 Ana: severe peanut allergy ⚠️",
    "oncall": "🚀 Deploys happen on Thursdays; the on-call engineer is 👩🏽‍💻 Priya.",
    "paris": "The flag on the wall of the Paris office is 🇫🇷.",
    "berlin": "The flag on the wall of the Berlin office is 🇩🇪.",
}


@pytest.mark.parametrize(
    ("query", "name"), [("🥜", "peanut"), ("👩‍💻", "oncall"), ("🚀", "oncall"), ("🇫🇷", "paris"), ("🇩🇪", "berlin")]
)
def test_an_emoji_is_a_word(eng, query, name):
    """An emoji query was refused as empty (`empty_query`), and emoji were not indexed: "🥜🚫 Ana: severe peanut
    allergy" was found by "peanut" but not by 🥜. A skin tone and a joiner are not part of the word."""
    ids = _capture_all(eng, EMOJI)
    r = _retrieve(eng, query)
    assert r.status == "ok", r.details
    assert [x["memory_id"] for x in r.details["results"]] == [ids[name]]


def test_a_query_with_nothing_searchable_is_still_refused(eng):
    _capture_all(eng, EMOJI)
    for query in ("!!!", "the", "  ", "の"):
        r = _retrieve(eng, query)
        assert (r.status, r.details.get("reason")) == ("reject", "empty_query"), query


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("База данных проекта — PostgreSQL 16, сервер стоит в Москве.", "Москва"),
        ("Резервные копии серверов хранятся на отдельном диске.", "сервер"),
        ("서버 주소는 10.0.0.7입니다. 달리기를 좋아합니다.", "달리기"),
    ],
)
def test_a_russian_or_korean_word_is_found_in_another_form(eng, text, query):
    """Москве (in Moscow) is found by Москва: one Russian case or plural ending is taken off; a Korean particle is
    joined to its word (달리기를), and a query is looked up by its pairs of syllables."""
    mid = _capture_all(eng, {"note": text})["note"]
    assert [r["memory_id"] for r in _retrieve(eng, query).details["results"]] == [mid]


def test_a_latin_query_does_not_find_a_transliterated_key(eng):
    """A key made from a Chinese title is its pinyin ("ping-fan-dian-..."): searched, "ping" found 和平饭店."""
    ids = _capture_all(eng, {"hotel": "和平饭店的晚宴在十二月举行。", "pings": CHINESE["pings"]})
    assert [r["memory_id"] for r in _retrieve(eng, "ping").details["results"]] == [ids["pings"]]
    assert [r["memory_id"] for r in _retrieve(eng, "和平").details["results"]] == [ids["hotel"]]


def test_a_key_given_to_a_note_in_another_script_is_still_searched(eng):
    r = eng.capture("供应商的账单每月五号寄出。", key="vendor-billing", now=T0, actor="agent:notes")
    assert r.status == "captured"
    assert [x["memory_id"] for x in _retrieve(eng, "vendor billing").details["results"]] == [r.details["memory_id"]]


def test_the_cold_build_keeps_each_scripts_letters(eng):
    ids = _capture_all(eng, {**JAPANESE, "river": CHINESE["river"], "peanut": EMOJI["peanut"]})
    eng.close()
    shutil.rmtree(eng.root / ".memkeeper")
    again = Engine.open(eng.root)
    try:
        for query, name in (("アドレス", "ip"), ("河", "river"), ("🥜", "peanut"), ("10.0.0.5", "ip")):
            assert [r["memory_id"] for r in _retrieve(again, query).details["results"]] == [ids[name]], query
    finally:
        again.close()


# --- guards: English and other Latin text is searched as before ------------------------------------------------------

ENGLISH = {
    "deploy": "Deploys to production happen on Thursdays after the release review.",
    "rotate": "Rotate the service credentials every ninety days and record it in the runbook.",
    "vault": "The billing service reads its configuration from the vault at start-up.",
    "oncall": "The on-call engineer this week is Priya; page her for production incidents.",
    "cafe": "The team café on floor two serves espresso until 16:00.",
    "dus": "Our Düsseldorf office hosts the quarterly planning in the big meeting room.",
    "units": "Median latency of the billing API is 5µs in the cache and 3 ms to the database.",
    "quotes": "Sam’s laptop runs the nightly backup — ask him before rebooting it.",
}
# What each query returned before each script kept its letters, best first (score to 4 places): computed from the
# code as it was, with these records alone.
ENGLISH_RANKING = {
    "deploy production": [("deploy", 0.8049), ("oncall", 0.5591)],
    "billing": [("units", 0.8049), ("vault", 0.8049)],
    "service": [("rotate", 0.8049), ("vault", 0.8049)],
    "release thursday": [("deploy", 0.8049)],
    "cafe espresso": [("cafe", 0.8049)],
    "planning office": [("dus", 0.8049)],
    "latency database": [("units", 0.8049)],
    "on-call page": [("oncall", 0.8049)],
    "runbook credentials rotation": [("rotate", 0.6549)],
    "the vault": [("vault", 0.8049)],
    "deploys": [("deploy", 0.8049)],
    "sam's backup": [("quotes", 0.8049)],
    "nightly backup laptop": [("quotes", 0.8049)],
    "thursday": [("deploy", 0.8049)],
    "production": [("deploy", 0.8049), ("oncall", 0.8049)],
    "billing service": [("vault", 0.8049), ("rotate", 0.5799), ("units", 0.5799)],
    "office floor": [("cafe", 0.5799), ("dus", 0.5799)],
    "database cache": [("units", 0.8049)],
}


@pytest.mark.parametrize("query", list(ENGLISH_RANKING))
def test_english_ranking_is_unchanged(eng, query):
    ids = _capture_all(eng, ENGLISH)
    _capture_all(eng, {f"zh-{k}": v for k, v in CHINESE.items() if k not in ("pings", "quan")})
    name = {v: k for k, v in ids.items()}
    got = [(name.get(r["memory_id"], "other"), r["score"]) for r in _retrieve(eng, query).details["results"]]
    assert sorted(got, key=lambda x: (-x[1], x[0])) == ENGLISH_RANKING[query]


@pytest.mark.parametrize(
    ("query", "name"),
    [("cafe", "cafe"), ("Dusseldorf", "dus"), ("5us", "units"), ("5µs", "units"), ("sam's", "quotes")],
)
def test_latin_accents_and_symbols_still_fold(eng, query, name):
    ids = _capture_all(eng, ENGLISH)
    assert [r["memory_id"] for r in _retrieve(eng, query).details["results"]][:1] == [ids[name]]


def test_microseconds_are_not_searched_as_milliseconds(eng):
    """NFKC makes the micro sign the Greek mu, which transliterates to "m": "5 µs" was indexed and searched as
    "5 ms", a thousand times more. The micro prefix of a unit is "u", as ASCII writes it."""
    micro = eng.capture("The trading gateway adds 5µs of latency per hop.", now=T0).details["memory_id"]
    milli = eng.capture("The reporting proxy adds 5ms of latency per request.", now=T0).details["memory_id"]
    assert _found(eng, "5µs") == [micro]
    assert _found(eng, "5 μs latency")[:1] == [micro]
    assert _found(eng, "5ms") == [milli]

"""Quiz clozes over other languages and scripts: the gap hides the value (a number with its unit, a date, a time, a
weekday, a name) and leaves the sentence to answer from, as it does in English; a note in Chinese or Japanese
without a title is titled by its first clause, not its whole line."""

from __future__ import annotations

import pytest

from tests.conftest import T0


def card_for(eng, text: str, title: str | None = None):
    r = eng.capture(text, now=T0, category="decision", title=title)
    assert r.status == "captured", r.details
    cards = {c.memory_id: c for c in eng.quiz_session("alice", now=T0)}
    return r, cards[r.details["memory_id"]]


def title_of(eng, receipt) -> str:
    return eng.load(receipt.details["memory_id"]).title


def hidden(card) -> str | None:
    return None if card.cloze is None else card.answer[card.cloze[0] : card.cloze[1]]


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Die Produktionsdatenbank läuft auf Port 5432 mit 16 GB RAM.", "Produktionsdatenbank"),
        ("قاعدة البيانات تعمل على المنفذ 5432 بذاكرة 16 GB.", "قاعدة البيانات"),
        ("מסד הנתונים רץ על פורט 5432 עם 16 GB זיכרון.", "מסד הנתונים"),
        ("डेटाबेस पोर्ट 5432 पर 16 GB मेमोरी के साथ चलता है।", "डेटाबेस"),
    ],
)
def test_a_word_of_grammar_after_a_number_is_not_its_unit(eng, text, title):
    # English's "port 5432 with 16 GB RAM" hides "16 GB": "mit", "بذاكرة", "עם", "पर" are no unit of 5432.
    _r, card = card_for(eng, text, title)
    assert hidden(card) == "16 GB"
    assert "5432" in card.question


@pytest.mark.parametrize(
    ("text", "title", "value"),
    [
        # German writes its nouns with a capital: "Die Datenbank" was read as a name of two words and hidden.
        ("Die Datenbank des Projekts läuft auf PostgreSQL 16 im Rechenzentrum.", "Projekt", "PostgreSQL 16"),
        ("Das Team von Anna Schmidt betreut den Kunden seit dem Frühjahr.", "Kundenbetreuung", "Anna Schmidt"),
        # and "mit" is German's "with", not the MIT licence: it was hidden with the version beside it
        ("Der Server steht im Keller und läuft mit Debian 12.", "Kellerserver", "Debian 12"),
    ],
)
def test_an_article_or_a_word_of_grammar_is_no_part_of_a_german_value(eng, text, title, value):
    _r, card = card_for(eng, text, title)
    assert hidden(card) == value


def test_korean_number_before_its_noun_is_not_a_count(eng):
    # "프로덕션 데이터베이스는 5432 포트에서 실행됩니다" is English's "the production database runs on port 5432": no value
    # to hide (a port number is a label), never "5432 포트에서 실행됩니다" (the number and half the sentence).
    _r, card = card_for(eng, "프로덕션 데이터베이스는 5432 포트에서 실행됩니다.", "프로덕션 DB")
    assert card.cloze is None
    assert card.question == "What do you remember about “프로덕션 DB”?"


@pytest.mark.parametrize(
    ("text", "title", "value"),
    [
        ("生产数据库运行在5432端口，版本是PostgreSQL 16。", "生产数据库", "PostgreSQL 16"),
        ("项目的截止日期是2026年3月15日。", "项目截止日期", "2026年3月15日"),
        ("リリース日は2026年4月1日です。", "リリース日", "2026年4月1日"),
        ("每周例会在周三下午3点举行，负责人是王芳。", "例会", "周三下午3点"),
        ("デプロイは毎週木曜日に行います。担当はカトウさんです。", "デプロイ", "木曜日"),
        ("주간 회의는 매주 월요일 오전 10시에 시작합니다.", "주간 회의", "월요일 오전 10시"),
        ("生产数据库端口是５４３２，内存１６GB。", "端口", "１６GB"),
    ],
)
def test_a_cloze_in_chinese_japanese_or_korean_hides_the_value(eng, text, title, value):
    _r, card = card_for(eng, text, title)
    assert hidden(card) == value
    assert card.question == text.replace(value, "[…]", 1)


def test_a_chinese_note_without_a_title_is_titled_by_its_first_clause(eng):
    # The whole line was the title: the fallback question printed the answer.
    text = "生产数据库运行在5432端口，版本是PostgreSQL 16。"
    r, card = card_for(eng, text)
    assert title_of(eng, r) == "生产数据库运行在5432端口…"
    assert card.question == "生产数据库运行在5432端口，版本是[…]。"


def test_a_long_line_without_spaces_is_cut_at_about_ten_words(eng):
    r, _card = card_for(eng, "这是我们团队为新同事准备的入职流程说明文档它包括账号申请和权限开通以及开发环境搭建")
    title = title_of(eng, r)
    assert title.endswith("…") and 15 <= len(title) <= 25


# --- English is unchanged -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The production database runs on port 5432 with 16 GB RAM.", "16 GB"),
        ("The cluster runs 3 replicas with 16 GB each.", "3 replicas"),
        ("The vendor contract renews on 3 February 2028 unless cancelled.", "3 February 2028"),
        ("The on-call rotation hands over on Mondays at 10:00 Berlin time.", "10:00 Berlin time"),
    ],
)
def test_english_clozes_are_unchanged(eng, text, value):
    _r, card = card_for(eng, text, "Some title")
    assert hidden(card) == value


def test_english_derived_titles_are_unchanged(eng):
    text = "The production database runs PostgreSQL 16 on port 5432 with sixteen gigabytes of memory, in Frankfurt."
    r, _card = card_for(eng, text)
    assert title_of(eng, r) == "The production database runs PostgreSQL 16 on port 5432 with…"
    r2, _card = card_for(eng, "The release date is April 1, 2026.")
    assert title_of(eng, r2) == "The release date is April 1, 2026."


def test_a_first_clause_that_is_only_a_label_does_not_title_the_note(eng):
    """ "注意：…" and "更新：…" were titled "注意…" and "更新…": every note that opens with the label got the same
    title (and the same quiz question); the title goes on to the next clause."""
    titles = []
    for text in (
        "注意：生产数据库运行在5432端口。",
        "注意：备份每天凌晨三点运行。",
        "はい、本番サーバーのIPは10.0.0.5です。",
    ):
        r = eng.capture(text, now=T0)
        assert r.status == "captured", r.details
        titles.append(title_of(eng, r))
    assert titles == [
        "注意：生产数据库运行在5432端口。",
        "注意：备份每天凌晨三点运行。",
        "はい、本番サーバーのIPは10.0.0.5です。",
    ]

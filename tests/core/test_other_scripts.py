"""Notes in scripts other than Latin, from an exploratory pass: two names that differ by a Japanese voicing mark were
one claim (the second consolidated into the first and lost), and a cloud key written against Chinese or Korean
letters was stored."""

from __future__ import annotations

import pytest

from memkeeper.core.pagefmt import parse_entry
from memkeeper.core.slots import fold
from tests.conftest import T0


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("リリース担当：カトウ", "リリース担当：ガトウ"),  # Katō / Gatō: the release owner changed
        ("通勤手段：バス", "通勤手段：パス"),  # bus / pass
        ("担当者：さとう", "担当者：さどう"),
        ("Owner of the billing service: विक्रम", "Owner of the billing service: विकरम"),  # a virama
    ],
)
def test_a_value_that_differs_by_a_mark_of_its_script_is_not_the_same_claim(eng, first, second):
    one = eng.capture(first, now=T0)
    assert one.status == "captured"
    two = eng.capture(second, now=T0)
    assert two.status != "consolidated", two.details
    # The second statement is somewhere a person sees it: a page of its own or a conflict that holds it.
    held = [p.read_text(encoding="utf-8") for d in ("entries", "conflicts") for p in (eng.root / d).glob("*.md")]
    assert any(second in text for text in held)


def test_latin_accents_still_fold_and_other_marks_are_kept():
    assert fold("Tomás naïve") == "Tomas naive"
    assert fold("ガトウ") == "ガトウ" and fold("विक्रम") == "विक्रम"
    assert fold("한국어") == "한국어"  # recomposed, not left as jamo


def test_the_same_statement_in_japanese_still_consolidates(eng):
    eng.capture("リリース担当：ガトウ", now=T0)
    assert eng.capture("リリース担当：ガトウ", now=T0).status == "consolidated"


@pytest.mark.parametrize(
    "text",
    [
        "AWS访问密钥ID是AKIAQ3EGT7ZPWXN4KR2D。",
        "AWS 액세스 키는 AKIAQ3EGT7ZPWXN4KR2D입니다.",
        "AWSアクセスキーはAKIAQ3EGT7ZPWXN4KR2Dです。",
    ],
)
def test_a_cloud_key_written_against_cjk_letters_is_refused(eng, text):
    r = eng.capture(text, now=T0)
    assert (r.status, r.details.get("reason")) == ("reject", "secret_detected")
    assert list((eng.root / "entries").iterdir()) == []


def test_a_key_inside_a_longer_latin_word_is_still_no_key(eng):
    r = eng.capture("The build id was XAKIAQ3EGT7ZPWXN4KR2DX in the old system.", now=T0)
    assert r.status == "captured"
    page = parse_entry((eng.root / r.details["page"]).read_text(encoding="utf-8"))
    assert "XAKIAQ3EGT7ZPWXN4KR2DX" in page.content


# Passwords named in other languages: stored before, and with them the password in the page's file name, hot.md and
# the receipts. Beside each, a note about a password that gives none.
@pytest.mark.parametrize(
    "text",
    [
        "Пароль сервера: Qx7!mPz92kLw",
        "пароль от роутера — Zebra-7741",
        "كلمة المرور للخادم هي Qx7!mPz92kLw",
        "הסיסמה לשרת היא Qx7!mPz92kLw",
        "सर्वर का पासवर्ड Qx7!mPz92kLw है।",
        "La password del server è Qx7!mPz92kLw.",
        "şifre: Kedi2024!",
        "服务器密码：Qx7!mPz92kLw",
        "密码是Hunter2024!。",
        "サーバーのパスワードは Qx7!mPz92kLw です。",
        "서버 비밀번호는 Qx7!mPz92kLw 입니다.",
    ],
)
def test_a_password_named_in_another_language_is_refused(eng, text):
    r = eng.capture(text, now=T0)
    assert (r.status, r.details.get("reason")) == ("reject", "secret_detected")
    assert list((eng.root / "entries").iterdir()) == []
    redacted = eng.capture(text, now=T0, redact=True)
    assert redacted.status == "captured"
    page = (eng.root / redacted.details["page"]).read_text(encoding="utf-8")
    assert "[REDACTED:password_assignment]" in page and "Qx7!mPz92kLw" not in page and "2024!" not in page


@pytest.mark.parametrize(
    "text",
    [
        "Пароль хранится в 1Password.",
        "Пароль: см. менеджер паролей",
        "Пароль сервера: ${DB_PASSWORD}",
        "كلمة المرور في مدير كلمات المرور",
        "הסיסמה נמצאת ב-Bitwarden",
        "पासवर्ड बदल दिया गया है।",
        "La password è nel vault.",
        "密码管理器是1Password",
        "密码：见1Password",
        "パスワードは8文字以上にしてください。",
        "パスワードはBitwardenにあります",
        "비밀번호는 관리자에게 문의하세요.",
    ],
)
def test_a_note_about_a_password_in_another_language_is_kept(eng, text):
    assert eng.capture(text, now=T0).status == "captured"


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("我们用Redis做缓存，用Kafka做消息队列。", "Redis"),
        ("我们用Redis做缓存，用Kafka做消息队列。", "kafka"),
        ("本番サーバーのIPアドレスは10.0.0.5です。", "10.0.0.5"),
        ("このデータベースはPostgreSQL 16で動いています。", "PostgreSQL"),
        ("서버 주소는 10.0.0.7입니다.", "10.0.0.7"),
    ],
)
def test_a_latin_word_written_against_cjk_letters_is_found(eng, text, query):
    """Chinese and Japanese write a Latin word against the letters around it, and Korean joins its particles to
    one: transliterated as they stood, "Redis做" was one token ("rediszuo") and a search for Redis found nothing."""
    mid = eng.capture(text, now=T0).details["memory_id"]
    found = eng.retrieve(query, now=T0, record_access=False).details["results"]
    assert mid in [r["memory_id"] for r in found]


def test_a_key_with_latin_and_cjk_letters_names_the_partition_it_always_did():
    """Search splits the two scripts; slugs and keys do not (an agent's key names the same partition as before)."""
    from memkeeper.core.paths import slugify

    assert slugify("用Redis做缓存") == "yong-rediszuo-huan-cun"

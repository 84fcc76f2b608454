"""Scripts written without spaces between words (Chinese, Japanese): where a word of English is a run of letters
between spaces, a run of these letters may be a whole clause ("生产数据库运行在5432端口"). A count of words counts
their letters instead: a Han letter as half a word (a word of Chinese is one to three of them), a kana as a third of
one (Japanese writes loanwords and endings in kana: "データベース" is one word, "ています" one ending)."""

from __future__ import annotations

import re

# Han (with its extensions and compatibility forms) and the iteration mark 々; hiragana and katakana (with the
# halfwidth forms, which `fold` makes full). Korean is written with spaces between its words and is not among them.
_HAN = "\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_KANA = "\u3040-\u30ff\uff66-\uff9f"
LETTERS = _HAN + _KANA
LETTER = re.compile(f"[{LETTERS}]")
_HAN_LETTER = re.compile(f"[{_HAN}]")
# A letter of them, or a run of other characters between spaces.
_PIECE = re.compile(rf"[{LETTERS}]|[^\s{LETTERS}]+")
HAN_WORDS, KANA_WORDS = 1 / 2, 1 / 3  # what a letter counts for in a count of words


def has_letters(text: str) -> bool:
    """Whether ``text`` holds a letter of a script written without spaces."""
    return LETTER.search(text) is not None


def pieces(text: str) -> list[tuple[int, int, float]]:
    """``text`` as (start, end, words): each letter of an unspaced script the part of a word it counts for; each run
    of other characters between spaces and those letters a word when it holds a letter or a digit, else nothing
    ("，", "-")."""
    out = []
    for m in _PIECE.finditer(text):
        s = m.group(0)
        if LETTER.match(s):
            out.append((m.start(), m.end(), HAN_WORDS if _HAN_LETTER.match(s) else KANA_WORDS))
        else:
            out.append((m.start(), m.end(), 1.0 if any(c.isalnum() for c in s) else 0.0))
    return out


def word_count(text: str) -> float:
    """How many words ``text`` holds: the words between its spaces that hold a letter or a digit, where a letter of
    a script written without spaces counts the part of a word it carries. For text without such letters, the words
    between its spaces that hold a letter or a digit."""
    return sum(words for _a, _b, words in pieces(text))

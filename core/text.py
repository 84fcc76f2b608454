"""Text policy shared by capture, retrieval, consolidation and conflict detection.

Pure functions: normalisation, tokens, the one stemmer, stopwords, Jaccard, slugs' raw material. Secret detection
lives in `secrets.py`.
"""

from __future__ import annotations

import functools
import hashlib
import re
import unicodedata

STOPWORDS = frozenset(
    """
    a an and are as at be been being but by can could did do does for from had has have he her his i if in into is it
    its me my of on or our ours she so than that the their them then there these they this those to too us was we were
    what when where which who whom why will with would you your yours also just about over under very should shall may
    might must am let lets let's via per any some such each both only own same more most other ours itself
    """.split()
)

# Words that flip polarity. Kept out of STOPWORDS-based keys on purpose (they matter for meaning) but conflict
# detection treats them as polarity, not topic.
NEGATIONS = frozenset(
    "not no never none nothing nobody neither nor cannot can't don't doesn't didn't won't isn't aren't wasn't weren't "
    "shouldn't mustn't without stop stopped avoid".split()
)

ACKNOWLEDGEMENTS = frozenset(
    {
        "ok",
        "okay",
        "k",
        "kk",
        "thanks",
        "thank you",
        "thx",
        "ty",
        "sounds good",
        "got it",
        "cool",
        "great",
        "nice",
        "sure",
        "yes",
        "yep",
        "yeah",
        "no",
        "nope",
        "ack",
        "noted",
        "lgtm",
        "done",
        "fine",
        "ugh ok",
        "ok thanks",
        "okay thanks",
        "thanks a lot",
        "thank you so much",
        "will do",
        "makes sense",
        "perfect",
        "all good",
        "no worries",
        "understood",
        "roger",
        "roger that",
        "alright",
        "ok cool",
        "sounds great",
        "thanks so much",
        "thanks very much",
        "thank you very much",
        "many thanks",
        "much appreciated",
        "appreciate it",
        "thanks for the help",
        "thanks for your help",
        "you're welcome",
        "of course",
        "please",
        "cheers",
        "awesome",
        "excellent",
        "agreed",
        "absolutely",
        "exactly",
        "right",
        "hi",
        "hello",
        "hey",
        "sure thing",
        "works for me",
        "that works",
        "anytime",
        # In languages written in other scripts, whose short facts need no "is" ("Сэм — веган.": two words keep a
        # text written in them, see is_low_signal): their commonest thanks and okays.
        "спасибо",
        "спасибо большое",
        "большое спасибо",
        "ок",
        "окей",
        "хорошо",
        "понял",
        "поняла",
        "понятно",
        "ладно",
        "отлично",
        "договорились",
        "شكرا",
        "شكرا جزيلا",
        "حسنا",
        "تمام",
        "تم",
        "תודה",
        "תודה רבה",
        "בסדר",
        "אוקיי",
        "סבבה",
        "מעולה",
        "धन्यवाद",
        "शुक्रिया",
        "ठीक है",
        "ठीक",
        "समझ गया",
        "teşekkürler",
        "tamam",
    }
)

# Words that carry no fact of their own in an acknowledgement: "thanks *again*", "*really* appreciate it". With the
# function words (STOPWORDS, NEGATIONS) they may stand between the phrases of one (`is_acknowledgement`).
_ACK_FILLERS = frozenset({"again", "really", "much", "lot", "now", "all"})
# Clitics of a contraction, so "that's", "I'm", "we'll" read as the function word before them.
_CLITIC = re.compile(r"'(?:s|re|ll|ve|m|d)\Z")
# Acknowledgements in Chinese, Japanese and Korean. Chinese and Japanese put no space between words, so these are
# found as substrings of the text (longest first), and the particles and pronouns an acknowledgement wraps them in
# (`_WIDE_FILLERS`: "谢谢你了", "了解です") are then all that may be left of it.
WIDE_ACKNOWLEDGEMENTS = (
    # Chinese
    "好的",
    "好吧",
    "好",
    "谢谢",
    "多谢",
    "感谢",
    "非常感谢",
    "收到",
    "明白",
    "知道",
    "没问题",
    "可以",
    "行",
    "嗯",
    "对",
    "是的",
    "不客气",
    "辛苦",
    "太好",
    "没事",
    "你的帮助",
    "您的帮助",
    # Japanese
    "ありがとうございました",
    "ありがとうございます",
    "ありがとう",
    "どうも",
    "はい",
    "了解しました",
    "了解",
    "承知しました",
    "かしこまりました",
    "わかりました",
    "分かりました",
    "大丈夫",
    "よろしくお願いします",
    "お疲れ様",
    "すみません",
    "いいえ",
    "オーケー",
    # Korean
    "감사합니다",
    "고맙습니다",
    "고마워요",
    "고마워",
    "네",
    "예",
    "알겠습니다",
    "알겠어요",
    "좋아요",
    "좋습니다",
    "괜찮아요",
    "수고하셨습니다",
)
_WIDE_ACKS = sorted(WIDE_ACKNOWLEDGEMENTS, key=len, reverse=True)
_WIDE_FILLERS = frozenset("你您了啊吧呢的呀哈哦噢喔很也都啦非常大家ですますねよなさ요")

# The longest text the acknowledgement test reads: past it, a text the word lists see no fact in is kept anyway.
ACK_MAX_CHARS = 120

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"[a-z0-9]+(?:[.'_-][a-z0-9]+)*")


_ACK_WORDS = frozenset(w for phrase in ACKNOWLEDGEMENTS for w in phrase.split())
# Each acknowledgement as its words, longest first: a text is matched against its phrases greedily.
_ACK_PHRASES = sorted((tuple(p.split()) for p in ACKNOWLEDGEMENTS), key=len, reverse=True)


def collapse_ws(text: str) -> str:
    return _WS.sub(" ", text).strip()


def lf_line_endings(text: str) -> str:
    """Line endings are not content: CRLF and a lone CR become LF (a note typed on Windows and on Unix is one
    note, and a page never mixes line endings)."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def normalize(text: str) -> str:
    """Lower-case, NFKC, whitespace collapsed. The form hashed for content identity."""
    return collapse_ws(unicodedata.normalize("NFKC", text).lower())


def ascii_fold(text: str) -> str:
    return _unidecode(unicodedata.normalize("NFKC", text))


def _unidecode(text: str) -> str:
    from unidecode import unidecode

    return unidecode(text)


# Where Chinese, Japanese or Korean letters meet a Latin letter or digit: Chinese and Japanese write a Latin word
# against the letters around it ("用Redis做缓存", "IPアドレスは10.0.0.5です"), and Korean joins its particles to one
# ("10.0.0.7입니다"). Transliterated as they stand, the Latin word was glued to the next syllable ("rediszuo").
_WIDE_EDGE = re.compile(
    "(?<=[A-Za-z0-9])(?=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff])"
    "|(?<=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff])(?=[A-Za-z0-9])"
)


def search_fold(text: str) -> str:
    """`ascii_fold` for search (the tokens of a query and of what the index holds), a space set where a Chinese,
    Japanese or Korean letter meets a Latin one or a digit. Slugs and keys keep `ascii_fold` as it was: an agent's
    key names the same partition it always did."""
    text = unicodedata.normalize("NFKC", text)
    if not text.isascii():
        text = _MICRO.sub("u", _WIDE_EDGE.sub(" ", text))
    return _unidecode(text)


# The micro prefix of a unit ("5 µs", "200μg", "10 µF"): NFKC makes the micro sign the Greek mu, which transliterates
# to "m", so "5 µs" was searched as "5 ms" (a thousand times more). Written "u", as ASCII writes it ("5 us").
_MICRO = re.compile(r"(?:(?<=\d)|(?<=\d )|(?<![^\W\d_]))μ(?=[a-zA-Z]{1,2}\b)")


def raw_tokens(text: str, *, query: bool = False) -> list[str]:
    """All tokens in order, lower-cased; punctuation dropped (apostrophes kept inside words). Latin letters, digits
    and symbols are ASCII-folded as they always were (`search_fold`: "café" is read "cafe", "½" "1/2"); the letters
    of every other script are kept as written, each script's word its own token (`_script_tokens`).

    `query`: the tokens a query is looked up by, which differ from a text's in two ways only: Chinese, Japanese,
    Korean and Thai letters are looked up by their pairs (a single letter by itself) where a text is indexed by its
    single letters and pairs both, and an Arabic or Hebrew word is looked up as written where a text is indexed with
    its article or one-letter prefix taken off too."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)  # "…" is "...", a fullwidth "Ａ" an "A"
        if not text.isascii():
            return _script_tokens(text, query)
    return _TOKEN.findall(text.lower())  # what `search_fold` gives an ASCII text, without its passes


def tokens(text: str, *, query: bool = False) -> list[str]:
    """Content tokens in order: raw tokens minus stopwords (English function words, and the Japanese particles
    that stand alone between two words of other scripts: "東京のサーバー")."""
    return [t for t in raw_tokens(text, query=query) if t not in _STOP]


def token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def folded_tokens(text: str) -> list[str]:
    """Content tokens with every script transliterated to ASCII (`search_fold`), as search read all text before it
    kept each script's own letters: what a key derived from content is made of (`keys.key_from`), so that it names
    the partition it always named."""
    folded = search_fold(text).lower().replace("\u2019", "'")
    return [t for t in _TOKEN.findall(folded) if t not in STOPWORDS]


def has_script_letters(text: str) -> bool:
    """Whether a text holds letters of a script other than Latin, which search keeps as they are written."""
    return not text.isascii() and _holds(_LETTERS, unicodedata.normalize("NFKC", text))


# --- tokens of scripts other than Latin -----------------------------------------------------------------------------
#
# Transliterated to ASCII, other scripts met each other and English through homophones: 核 and 和 are both "he" (an
# English stopword), 平 finds "pings", Arabic س and ص are both "s", Hebrew קל finds Arabic كل, and a Japanese kana
# run was one token with its particles ("サーバーの" -> "sa-ba-no"). So only Latin letters (and digits, symbols and
# punctuation of any script) are folded; every other script's letters stay its own, and a query in a script finds
# the same letters in that script. How each script is cut into tokens:
# - Chinese, Japanese, Korean and Thai write no space between words (Korean joins its particles to the word): a run
#   of the script is indexed as its single letters and its pairs of neighbouring letters, and a query is looked up
#   by its pairs (a one-letter run by its letter), as Lucene's CJKBigramFilter and most CJK search do. 核心 finds
#   the records holding 核心, not those holding 核 and 心 apart; 河 finds 河边; 서버 finds 서버는.
# - Japanese runs of kanji, hiragana and katakana are cut where the script changes ("本番|サーバー|の|IP"), so a
#   katakana word is not glued to the particle after it; a particle standing alone is a stopword (`_PARTICLES`).
# - Every other script (Cyrillic, Greek, Arabic, Hebrew, Devanagari, ...) writes words between spaces: a word is a
#   run of its letters and marks, lower-cased; Greek, Arabic and Hebrew without their optional marks (tonos,
#   harakat, niqqud), Arabic with its alef forms, ى and ة as Lucene's Arabic normaliser writes them, Russian ё as
#   е and without one case or plural ending (Москве -> москв, as Москва). An Arabic word is also indexed without
#   its article (المشروع also as مشروع), a Hebrew one without a one-letter prefix (בבית also as בית).
# - Emoji are words of their own (🥜 finds "🥜🚫 Ana: severe peanut allergy"; a flag is its pair of letters); skin
#   tones, variation selectors and joiners are not part of any word.
# A single Greek letter against Latin letters or digits is a unit or a symbol of Latin text ("5µs", "Δt") and is
# folded with it, as before.
# Each character's class (`_CLASSES`, filled on first sight): "w" a Latin letter or a digit, "a" anything else
# folded (space, punctuation, a symbol), "m" a mark or a joiner (it belongs to the run before it), "H" a Chinese
# character (kanji), "h" hiragana, "k" katakana, "K" the prolonged sound mark ー (kana of either kind), "g" Hangul,
# "t" Thai, Lao, Khmer or Myanmar, "y" Greek, "o" a letter of another script, "e" an emoji, "r" a flag's letter.
_SCRIPTS = (  # (first, last, class): a letter or letter number outside these is of another script ("o")
    (0x0080, 0x036F, "w"),
    (0x0370, 0x03FF, "y"),
    (0x0E00, 0x0EFF, "t"),
    (0x1000, 0x109F, "t"),
    (0x1100, 0x11FF, "g"),
    (0x1780, 0x17FF, "t"),
    (0x1A20, 0x1AAF, "t"),
    (0x1D00, 0x1DBF, "w"),
    (0x1E00, 0x1EFF, "w"),
    (0x1F00, 0x1FFF, "y"),
    (0x2070, 0x218F, "w"),
    (0x2C60, 0x2C7F, "w"),
    (0x2E80, 0x2FDF, "H"),
    (0x3005, 0x3007, "H"),
    (0x3021, 0x3029, "H"),
    (0x3038, 0x303B, "H"),
    (0x3041, 0x309F, "h"),
    (0x30FC, 0x30FC, "K"),
    (0x30A0, 0x30FF, "k"),
    (0x3130, 0x318F, "g"),
    (0x31F0, 0x31FF, "k"),
    (0x3400, 0x4DBF, "H"),
    (0x4E00, 0x9FFF, "H"),
    (0xA720, 0xA7FF, "w"),
    (0xA960, 0xA97F, "g"),
    (0xA9E0, 0xA9FF, "t"),
    (0xAA60, 0xAA7F, "t"),
    (0xAB30, 0xAB6F, "w"),
    (0xAC00, 0xD7FF, "g"),
    (0xF900, 0xFAFF, "H"),
    (0xFB00, 0xFB06, "w"),
    (0xFF00, 0xFFEF, "w"),
    (0x1B000, 0x1B16F, "h"),
    (0x1D400, 0x1D7FF, "w"),
    (0x20000, 0x3FFFF, "H"),
)


def _char_class(cp: int) -> str:
    ch = chr(cp)
    cat = unicodedata.category(ch)
    if cat[0] == "M" or cp in (0x200C, 0x200D) or 0x1F3FB <= cp <= 0x1F3FF or 0xE0000 <= cp <= 0xE0FFF:
        return "m"
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return "r"
    if cat == "So":  # a symbol transliteration has letters for is folded as before ("©" -> "(c)", "°" -> "deg")
        return "a" if _unidecode(ch) else "e"
    if cat[0] != "L" and cat != "Nl":
        return "w" if cat[0] == "N" else "a"  # a digit of any script is folded ("٣" -> "3")
    for first, last, kind in _SCRIPTS:
        if first <= cp <= last:
            return kind
    return "o"


class _ClassTable(dict[int, str]):
    """`str.translate`'s table from a code point to its class letter, each computed on first sight."""

    def __missing__(self, cp: int) -> str:
        kind = self[cp] = _char_class(cp)
        return kind


_CLASSES = _ClassTable((cp, "w" if chr(cp).isalnum() else "a") for cp in range(128))
_RUN = re.compile(r"[awm]+|H[Hm]*|[hK][hKm]*|k[kKm]*|g[gm]*|t[tm]*|[oy][oym]*|e[em]*|r[rm]*")
_KEPT = re.compile(r"[^awm]")
# Runs of characters other than those always folded (Latin letters and marks, general punctuation such as ’ — …,
# currency): only these are classed to learn whether a text is folded as a whole, as most Latin text is.
_MAYBE_KEPT = re.compile("[^\x00-\u036f\u1d00-\u1dbf\u1e00-\u1eff\u2000-\u20ff]+")
_LETTERS = re.compile(r"[HhKkgtoy]")
_LONE_GREEK = re.compile(r"(?<=w)y(?![oym])|(?<![oym])y(?=w)")
# Not part of a word: joiners, variation selectors (of emoji and of kanji). Folded, they were nothing already.
_UNJOINED = re.compile("[\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]")
_PARTICLES = frozenset("はがをにでともへやのか")
_STOP = STOPWORDS | _PARTICLES


def _script_tokens(text: str, query: bool) -> list[str]:
    """`raw_tokens` of an NFKC text that is not ASCII."""
    if "μ" in text:
        text = _MICRO.sub("u", text)
    if not _holds(_KEPT, text):
        # Latin letters, digits and symbols only: folded as a whole, as before
        return _TOKEN.findall(_unidecode(text).lower().replace("\u2019", "'"))
    text = _UNJOINED.sub("", text)
    classes = text.translate(_CLASSES)
    if "y" in classes:
        classes = _LONE_GREEK.sub("w", classes)
    out: list[str] = []
    for m in _RUN.finditer(classes):
        start, end = m.span()
        kind, run = classes[start], text[start:end]
        if kind in "HhKkgt":
            out += _pairs(run, query) if end - start > 16 else _short_pairs(run, query)
        elif kind in "awm":
            out += _fold(run) if end - start > 16 else _short_fold(run)
        elif kind in "oy":
            out += _script_word(run, query)
        else:  # emoji one by one, a flag's two letters together
            letters = "".join(ch for ch, c in zip(run, classes[start:end], strict=True) if c == kind)
            step = 2 if kind == "r" else 1
            out += [letters[i : i + step] for i in range(0, len(letters), step)]
    return out


def _fold(run: str) -> list[str]:
    """The tokens of a run of Latin letters, digits, punctuation and symbols: ASCII-folded."""
    return _TOKEN.findall((run if run.isascii() else _unidecode(run)).lower().replace("\u2019", "'"))


def _holds(kind: re.Pattern[str], text: str) -> bool:
    """Whether an NFKC text holds a character of a class `kind` matches."""
    return any(kind.search(m.group().translate(_CLASSES)) for m in _MAYBE_KEPT.finditer(text))


def _pairs(run: str, query: bool) -> list[str]:
    """A run of Chinese, Japanese, Korean or Thai letters: each letter and each pair of neighbours, in order; a
    query's run by its pairs alone (by its letter when it has one)."""
    n = len(run)
    if n < 2:
        return [run] if run else []
    pairs = [run[i : i + 2] for i in range(n - 1)]
    if query:
        return pairs
    out = [""] * (2 * n - 1)
    out[::2] = run
    out[1::2] = pairs
    return out


# The short runs a text is mostly made of (a particle, a word, the punctuation between), each cut once.
_short_pairs = functools.lru_cache(maxsize=8192)(lambda run, query: tuple(_pairs(run, query)))
_short_fold = functools.lru_cache(maxsize=8192)(lambda run: tuple(_fold(run)))


@functools.lru_cache(maxsize=8192)
def _script_word(run: str, query: bool) -> tuple[str, ...]:
    """A word of a script written with spaces (Cyrillic, Greek, Arabic, Hebrew, Devanagari, ...): lower-cased,
    without the marks its script writes optionally, and as indexed, also without its article or prefix."""
    word = run.lower()
    if not word:
        return ()
    first = ord(word[0])
    if 0x0400 <= first <= 0x052F:  # Cyrillic
        word = _ru_stem(word.replace("\u0301", "").replace("\u0300", "").replace("ё", "е"))
    elif 0x0370 <= first <= 0x03FF or 0x1F00 <= first <= 0x1FFF:  # Greek
        word = unicodedata.normalize(
            "NFC", "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))
        ).replace("ς", "σ")
    elif 0x0590 <= first <= 0x05FF:  # Hebrew
        word = word.translate(_HEBREW_POINTS)
        if not query and len(word) > 3 and word[0] in "בהוכלמש":
            return (word, word[1:])
    elif 0x0600 <= first <= 0x06FF or 0x0750 <= first <= 0x077F or 0x08A0 <= first <= 0x08FF:  # Arabic
        word = word.translate(_ARABIC_NORMAL)
        if not query:
            bare = _ARABIC_ARTICLE.sub("", word)
            if bare != word and len(bare) >= 2:
                return (word, bare)
    return (word,) if word else ()


_HEBREW_POINTS = dict.fromkeys(range(0x0591, 0x05C8))
for _cp in (0x05BE, 0x05C0, 0x05C3, 0x05C6):  # maqaf, paseq, sof pasuq, nun hafukha: punctuation, not points
    del _HEBREW_POINTS[_cp]
_ARABIC_NORMAL: dict[int, int | None] = {
    **dict.fromkeys([0x0640, *range(0x064B, 0x0653), 0x0670]),  # tatweel, harakat, superscript alef
    0x0622: 0x0627,  # آ -> ا
    0x0623: 0x0627,  # أ -> ا
    0x0625: 0x0627,  # إ -> ا
    0x0671: 0x0627,  # ٱ -> ا
    0x0649: 0x064A,  # ى -> ي
    0x0629: 0x0647,  # ة -> ه
}
_ARABIC_ARTICLE = re.compile("^(?:[وبكف]?ال|لل)")
# Russian case and number endings (of nouns and adjectives; verbs are left alone): the longest that leaves three
# letters is taken off a word of Russian letters, when a vowel stays.
_RU_ENDING = re.compile(
    "^([а-я]{3,}?)(?:иями|ями|ами|ого|его|ому|ему|ыми|ими|иях|иям|ием|ией|ой|ей|ий|ый|ая|яя|ое|ее|ые|ие|ую|юю|ом|ем"
    "|ам|ям|ах|ях|ов|ев|ью|ия|ья|ье|ии|ию|ых|их|ым|им|ою|ею|а|я|о|е|и|ы|у|ю|ь|й)$"
)
_RU_VOWEL = re.compile("[аеиоуыэюя]")


def _ru_stem(word: str) -> str:
    m = _RU_ENDING.match(word)
    return m.group(1) if m and _RU_VOWEL.search(m.group(1)) else word


def jaccard(a: frozenset[str] | set[str], b: frozenset[str] | set[str]) -> float:
    if not a and not b:
        return 1.0
    union = len(a | b)
    return len(a & b) / union if union else 0.0


# Irregular verb forms a suffix stripper cannot reach, mapped to their base form.
_IRREGULAR = {
    "sent": "send",
    "wrote": "write",
    "written": "write",
    "ran": "run",
    "built": "build",
    "chose": "choose",
    "chosen": "choose",
    "made": "make",
    "kept": "keep",
    "held": "hold",
    "paid": "pay",
    "met": "meet",
    "led": "lead",
    "began": "begin",
    "begun": "begin",
    "broke": "break",
    "broken": "break",
    "took": "take",
    "taken": "take",
    "gave": "give",
    "given": "give",
    "got": "get",
    "gotten": "get",
    "went": "go",
    "gone": "go",
    "done": "do",
    "did": "do",
    "does": "do",
    "lives": "live",
    "uses": "use",
    "used": "use",
    "using": "use",
}
_SUFFIXES = ("ations", "ation", "ments", "ment", "ingly", "ing", "edly", "ed", "ly")
_VOWEL = re.compile(r"[aeiouy]")


def stem(word: str, *, plural_only: bool = False) -> str:
    """The engine's one stemmer: a deliberately small suffix stripper (not Porter), so two phrasings of one claim
    meet on the same term while keys and reasons stay readable. `word` is a lower-cased token.

    Both forms fold plurals of words longer than 3 characters: -ies → -y, and a final -s that is not -ss/-us/-is.

    - `plural_only=True` (retrieval scoring) stops there, for any token: "deploys" finds "deploy".
    - the full form (contradiction detection) leaves tokens that are not purely alphabetic alone, maps irregular
      verbs (sent → send), also folds -ied → -y and -sses → -ss, then strips one of -ation(s), -ment(s), -ingly,
      -ing, -edly, -ed (not -eed), -ly when a vowel stays, undoubles a final consonant other than l/s/z (shipped →
      ship) and drops a final -e, so "merge", "merging" and "merged" all meet on "merg".
    """
    if not plural_only:
        if word in _IRREGULAR:
            return _IRREGULAR[word]
        if not word.isalpha():
            return word
    if len(word) <= 3:
        return word
    w = word
    if len(w) > 4 and (w.endswith("ies") or (not plural_only and w.endswith("ied"))):
        w = w[:-3] + "y"
    elif not plural_only and w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    if plural_only:
        return w
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and not (suffix == "ed" and w.endswith("eed")):
            rest = w[: -len(suffix)]
            if len(rest) >= 2 and _VOWEL.search(rest):
                w = rest
                if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
                    w = w[:-1]  # shipped -> ship, running -> run
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]  # merge/merging/merged all meet on "merg"
    return w


def sha256_hex(data: str | bytes) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()


def content_sha256(title: str, content: str) -> str:
    """Identity of a statement: normalised title + normalised content (used for confirm propagation)."""
    return sha256_hex(normalize(title) + "\n" + normalize(content))


def _wide_letters(norm: str) -> int:
    """Letters that take two cells (Chinese, Japanese and Korean script): each carries about a word."""
    return sum(1 for ch in norm if ord(ch) > 0x10FF and ch.isalnum() and unicodedata.east_asian_width(ch) in "WF")


def is_low_signal(text: str) -> bool:
    """Drop rule of capture: normalised text shorter than 16 characters, or a pure acknowledgement
    (`is_acknowledgement`). A short text that states something of something ("User is vegan.", "Sam is 34."; three
    words or more, two of them neither function words nor words of an acknowledgement) is kept: dropping it loses a
    memory. A Chinese, Japanese or Korean letter counts as three characters, about what English takes to say as
    much: "用户喜欢喝绿茶，不喝咖啡。" (twelve letters: the user likes green tea, not coffee) and "我的爱好是游泳" (my
    hobby is swimming) are memories, where counting characters dropped them. Russian, Hebrew, Arabic or Korean say
    "Sam is vegan" in two words ("Сэм — веган.", "סאם טבעוני."): a short text written mostly in a script other than
    Latin is kept with two words that are no acknowledgement's, and one in Chinese or Japanese with four letters
    ("山姆吃素。"), unless it is an acknowledgement.

    Only what shows counts (`_visible`): zero-width spaces, bidi and other format or control characters, and blank
    letters (Hangul fillers, the blank Braille pattern) are no text, and a text without a letter, a digit or a
    pictograph says nothing ("# \n## \n###", an empty code fence, a row of dashes)."""
    norm = _visible(normalize(text))
    if not any(ch.isalnum() or unicodedata.category(ch) == "So" for ch in norm):
        return True
    # (wide letters only lengthen a text: counted for a short one alone, not over every capture's whole text)
    wide = _wide_letters(norm) if len(norm) < 16 else 0
    if len(norm) + 2 * wide < 16:
        if wide >= 4:
            return is_acknowledgement(text)
        words = _words(norm)
        content = [w for w in words if w not in STOPWORDS and w not in NEGATIONS and w not in _ACK_WORDS]
        if _other_script(norm):
            return len(content) < 2 or is_acknowledgement(text)
        return len(words) < 3 or len(content) < 2
    return is_acknowledgement(text)


# Letters and symbols that draw nothing: Hangul fillers, the blank Braille pattern, the Mongolian vowel separator.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
# Characters that take no place of their own: controls, format characters (zero-width spaces and joiners, bidi
# controls, tag characters), surrogates, private-use and unassigned code points, combining and enclosing marks.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"})


def _visible(norm: str) -> str:
    """`norm` without the characters that show nothing ("\u200b" forty times is no text; a mark stays with the letter
    it sits on). A text of visible characters only is returned as it is."""
    if norm.isascii() and norm.isprintable():
        return norm
    out: list[str] = []
    for ch in norm:
        if ch in _BLANK_LETTERS:
            out.append(" ")
            continue
        cat = unicodedata.category(ch)
        if cat in ("Mn", "Me") and out and out[-1] not in " ":
            out.append(ch)  # a mark on a letter: part of that letter's word
        elif cat not in _INVISIBLE:
            out.append(ch)
    return collapse_ws("".join(out))


def _words(norm: str) -> list[str]:
    """The words of a normalised text: runs of letters, digits, underscores, apostrophes and marks (a Devanagari
    vowel sign is no `\\w`: "ठीक" is one word)."""
    return "".join(
        ch if ch.isalnum() or ch in "'_" or unicodedata.category(ch)[0] == "M" else " " for ch in norm
    ).split()


def _other_script(norm: str) -> bool:
    """Whether most of a text's letters are of a script other than Latin."""
    letters = [ch for ch in norm if ch.isalpha()]
    return sum(1 for ch in letters if ord(ch) >= 0x0370) * 2 > len(letters)


def is_acknowledgement(text: str) -> bool:
    """Whether a text is nothing but an acknowledgement: one or more of the ACKNOWLEDGEMENTS phrases ("Sounds good,
    thanks!", "Got it, thank you very much.", "ok ok ok"), with nothing but function words, negations and fillers
    between them ("Okay, that's fine with me."). Any other word is a fact's: a name, a number, a noun, a verb ("OK
    to deploy on Fridays.", "Got it: the port is 8443."). A phrase counts whole, its words not one by one ("no
    problem" would make "We have a problem." an acknowledgement). Past `ACK_MAX_CHARS` nothing is one."""
    norm = normalize(text)
    if len(norm) > ACK_MAX_CHARS or _names_someone(text):
        return False
    norm, acknowledged = _strip_wide_acknowledgements(norm)
    if _wide_letters(norm):
        return False  # a word of a fact in Chinese, Japanese or Korean
    words = _words(norm.replace("\u2019", "'"))
    i = 0
    while i < len(words):
        phrase = next((p for p in _ACK_PHRASES if tuple(words[i : i + len(p)]) == p), None)
        if phrase is not None:
            acknowledged = True
            i += len(phrase)
            continue
        word = words[i]
        base = _CLITIC.sub("", word)
        if not (base in STOPWORDS or word in NEGATIONS or base in _ACK_FILLERS):
            return False
        i += 1
    return acknowledged


def _strip_wide_acknowledgements(norm: str) -> tuple[str, bool]:
    """`norm` without the WIDE_ACKNOWLEDGEMENTS it holds (and, when it held one, without the fillers around them),
    and whether it held one."""
    if not _wide_letters(norm):
        return norm, False
    found = False
    for phrase in _WIDE_ACKS:
        if phrase in norm:
            norm, found = norm.replace(phrase, " "), True
    if found:
        norm = "".join(" " if ch in _WIDE_FILLERS else ch for ch in norm)
    return norm, found


_MID_CAPITAL = re.compile(r"(?<![.!?]\s)(?<![.!?])(?<!^)\b([A-Z][\w']+)")


def _names_someone(text: str) -> bool:
    """A capitalised word inside a sentence that is no word of an acknowledgement: a name ("Ok, Will is with May."),
    which the word lists would read as the function words "will" and "may"."""
    for m in _MID_CAPITAL.finditer(text.strip()):
        if m.start() == 0:
            continue
        word = _CLITIC.sub("", m.group(1).lower())
        if word not in _ACK_WORDS and word not in _ACK_FILLERS:
            return True
    return False

"""Text policy shared by capture, retrieval, consolidation and conflict detection.

Pure functions: normalisation, tokens, the one stemmer, stopwords, Jaccard, slugs' raw material. Secret detection
lives in `secrets.py`.
"""

from __future__ import annotations

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
        text = _WIDE_EDGE.sub(" ", text)
    return _unidecode(text)


def raw_tokens(text: str) -> list[str]:
    """All tokens in order, lower-cased and ASCII-folded (`search_fold`); punctuation dropped (apostrophes kept
    inside words)."""
    folded = search_fold(text).lower().replace("\u2019", "'")
    return _TOKEN.findall(folded)


def tokens(text: str) -> list[str]:
    """Content tokens in order: raw tokens minus stopwords."""
    return [t for t in raw_tokens(text) if t not in STOPWORDS]


def token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


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
    ("山姆吃素。"), unless it is an acknowledgement."""
    norm = normalize(text)
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


# --- temporal cues -------------------------------------------------------------------------------------------------

TEMPORAL_CUE = re.compile(
    r"\b(?:today|tonight|tomorrow|this week|this sprint|for now|temporary|temporarily|until\s+\S+)\b", re.IGNORECASE
)


def has_temporal_cue(text: str) -> bool:
    return bool(TEMPORAL_CUE.search(text))

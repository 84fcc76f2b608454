"""Secret detection for every free-text field the engine stores (SPEC §4 capture, issue 7).

Pure functions: text in, findings out. Two sources of rules, merged into one list of spans:

- the regex plugins of `detect-secrets` (Yelp) for the token formats they know (AWS key ids, Azure storage keys,
  passwords in URLs, Discord bot tokens, GitHub, GitLab, private-key headers, PyPI, SendGrid, Slack, Square,
  Stripe, Telegram, Twilio, Mailchimp, Artifactory), and its JWT validator. Its entropy plugins and its Keyword
  plugin are not used: the wiki is full of sha256 hex, `mem_` ids and receipts, and prose must never be flagged;
- the rules below for what the library misses or matches too narrowly: whole private-key blocks of every kind,
  vendor-prefixed tokens (after gitleaks' rules), webhooks, connection strings, `password=` / `token:` assignments,
  `Authorization` headers, configuration and command-line syntaxes (a Kubernetes Secret's data, a Markdown table's
  password column, ODBC and Oracle connect strings, OpenSSL's "pass:"), and prose: "the wifi password is …", "pw:
  …", a passphrase of plain words, a password dictated one character at a time, "my bank PIN: 4821", "card PIN
  4821", "alarm code 9051" (the words of these rules are in `data/secret_words.json`).

A finding that holds no usable credential is dropped: a placeholder written in a token's format, a value vendors
publish as an example (`data/secret_examples.json`), a private key's header with no key material, the public key of a
Firebase web app's config.

Measured on `tests/core/fixtures/secrets/` (see docs/decisions.md): every format of the corpus, no false positive
on the negatives, the demo wiki or the contradiction fixtures; about 0.1 ms for a 300-character statement.

A secret class is a short stable name (`aws_access_key`, `private_key`, `password_assignment`, `url_password`, …)
used in `[REDACTED:<class>]` and in receipts. Findings never carry the secret itself.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .text import NEGATIONS, STOPWORDS


@dataclass(frozen=True)
class Finding:
    start: int
    end: int
    secret_class: str
    priority: int = 0


# --- value checks ------------------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(
    r"""^(?:[$<{(*%\[]|x{3,}|\.{3})              # ${VAR}, <password>, {{ x }}, $(cmd), ***, %(x)s, [REDACTED:…], xxx, ...
    |://                                          # a URL, not a value
    |^(?:null|none|nil|true|false|undefined|changeme|change[_-]?me|example|redacted|hidden|masked|secret|password
        |passw(?:or)?d|token|required|optional|empty|unset|not[_-]?set|todo|tbd|your[_-].*|my[_-].*)$""",
    re.IGNORECASE | re.VERBOSE,
)
_SEPARATORS = set("-_./")


def credential_like(value: str) -> bool:
    """Could this assigned value be a real credential (not a word, a placeholder, a path or a URL)?

    Words and phrases are what prose puts after `password:`; credentials mix letters with digits or symbols, or are
    long random-looking mixed-case strings. A PIN of six or more digits counts.
    """
    v = value.strip("\"'`.,;:)]}")
    if len(v) < 6 or len(set(v)) < 4 or _PLACEHOLDER.search(v) or v[0] in "/~":
        return False
    if v.isdigit():
        return True
    letters = sum(c.isalpha() for c in v)
    digits = sum(c.isdigit() for c in v)
    symbols = sum(1 for c in v if not c.isalnum() and c not in _SEPARATORS)
    if letters and (digits or symbols):
        return True
    return len(v) >= 16 and any(c.isupper() for c in v) and any(c.islower() for c in v)


def _tight_value(value: str) -> bool:
    """A value written `key=value` with nothing around the `=`: a credential, or a mixed-case word of 8+ letters."""
    v = value.rstrip(".,;:)]}")
    if credential_like(v):
        return True
    return len(v) >= 8 and not _PLACEHOLDER.search(v) and any(c.isupper() for c in v) and any(c.islower() for c in v)


def _long_credential(value: str) -> bool:
    """A value named in prose as a token or a secret: 16 characters or more, letters and digits both, and a
    credential by `credential_like`."""
    v = value.strip("\"'`.,;:)]}")
    return len(v) >= 16 and _has_digit(v) and any(c.isalpha() for c in v) and credential_like(v)


def _given_bare(value: str) -> bool:
    """A password given with no separator before it: a credential that mixes both cases and a digit, or holds a
    symbol (not a word, a size or a path)."""
    v = value.rstrip(".,;:)]}")
    symbols = any(not c.isalnum() and c not in _SEPARATORS for c in v)
    return credential_like(v) and (_mixed(v) or symbols)


def _mixed(value: str) -> bool:
    """Random-looking: upper case, lower case and digits all present."""
    return any(c.isupper() for c in value) and any(c.islower() for c in value) and any(c.isdigit() for c in value)


def _has_digit(value: str) -> bool:
    return any(c.isdigit() for c in value)


# The prefixes of an AWS access key id (the library's AWSKeyDetector pattern starts with one of them).
_AWS_ID_PREFIXES = ("A3T", "ABIA", "ACCA", "AKIA", "ASIA")
_AWS_PAIR_REACH = 80  # how far after its access key id a secret access key is read as the secret of that pair
_PATH_SEGMENT = re.compile(r"[a-z]+|[A-Z]+|(?:[A-Z][a-z]+)+")


def _aws_secret(value: str) -> bool:
    """Could this 40-character [A-Za-z0-9/+] run be an AWS secret access key (30 random bytes in base64)? Both cases
    of letters, and a digit, a "/" or a "+" (a hex digest has one case only; 40 letters are a word run); never a
    path of words ("Users/Alice/Documents/Projects/MemKeeper")."""
    if not (any(c.isupper() for c in value) and any(c.islower() for c in value)):
        return False
    if _has_digit(value) or "+" in value:
        return True
    return "/" in value and not all(_PATH_SEGMENT.fullmatch(part) for part in value.split("/"))


def _after_aws_key_id(m: re.Match[str]) -> bool:
    """The match starts at most `_AWS_PAIR_REACH` characters after the end of an AWS access key id."""
    start = m.start()
    offset = max(0, start - _AWS_PAIR_REACH - 20)  # a key id is 20 characters
    ids = _aws_key_id().finditer(m.string[offset:start])
    return any(offset + k.end() >= start - _AWS_PAIR_REACH for k in ids)


def _basic_credentials(value: str) -> bool:
    """A `Basic` header value: base64 of printable `user:password`."""
    v = value.rstrip("=")
    try:
        raw = base64.b64decode(v + "=" * (-len(v) % 4), validate=True)
        decoded = raw.decode("ascii")
    except (binascii.Error, ValueError):
        return False
    user, sep, password = decoded.partition(":")
    return bool(sep and user and password and decoded.isprintable())


def _jwt_valid(value: str) -> bool:
    from detect_secrets.plugins.jwt import JwtTokenDetector

    header_payload = ".".join(value.split(".")[:2])  # the signature is not JSON and may carry any padding
    return JwtTokenDetector.is_formally_valid(header_payload)


def _url_password(value: str) -> bool:
    v = value.strip()
    return len(v) >= 3 and not _PLACEHOLDER.search(v)


_MEASURE = re.compile(r"\d+(?:[.,]\d+)?[A-Za-z%µ]{1,3}")
_EXPRESSION = re.compile(r"[A-Za-z_][\w.]*[(\[]|\s")


def _literal(check: Callable[[str], bool]) -> Callable[[str], bool]:
    """`check`, for a short key such as "pw" that names many things besides a password (page width, pulse width, a
    power spectrum, a piecewise function): never a number with a unit ("1920px", "1500us"), and never code
    (`_not_code`: "Piecewise((x", "self.passwords[netloc]", "Optional[str]"), nor a quoted value that starts with a
    space."""
    not_code = _not_code(check)

    def vetted(value: str) -> bool:
        return _MEASURE.fullmatch(value.rstrip(".,;:)]}")) is None and not_code(value)

    return vetted


# A reference in code to where a secret is kept, not the secret: a call or a subscript (`os.getenv(`,
# `os.environ[`, `getpass.getpass()`, `load_token()`), or a dotted name that starts in lower case
# (`process.env.DB_PASSWORD`, `settings.SECRET_KEY`, `config.auth.token`). Agents write such lines in notes on
# configuration, and refusing them lost the fact. A quoted value is a literal, and is never such a reference.
_CODE_REFERENCE = re.compile(r"[a-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")


def _not_code(check: Callable[[str], bool]) -> Callable[[str], bool]:
    """`check`, for an unquoted value of an assignment: never a reference in code to where the secret is kept."""

    def vetted(value: str) -> bool:
        v = value.rstrip(".,;:)]}")
        reference = _CODE_REFERENCE.fullmatch(v) is not None and _DIGIT_INSIDE.search(v) is None
        return _EXPRESSION.match(value) is None and not reference and check(value)

    return vetted


# A digit between letters ("s3cr3t.Pa55word"): what a password does and a name in code seldom does ("S3_KEY").
_DIGIT_INSIDE = re.compile(r"[A-Za-z]\d+[A-Za-z]")


# Which check applies to which value group of an assignment (`_ASSIGNED`: an unquoted one is never code).
_VALUE_CHECKS: dict[str, Callable[[str], bool]] = {
    "tight": _tight_value,
    "dq": credential_like,
    "sq": credential_like,
    "bare": credential_like,
}
_ASSIGNED = {g: _not_code(c) if g in ("tight", "bare") else c for g, c in _VALUE_CHECKS.items()}


# --- own rules ---------------------------------------------------------------------------------------------------


class Rule:
    """One pattern; the span reported is `group`'s. `check` vets the value, `where` (if any) the whole match in its
    text; the rule only runs on texts whose lower-cased form contains one of `hints` (cheap literal tests keep a
    scan of ~60 rules well under a millisecond). The pattern is compiled when the rule first runs: most texts match
    no rule's hints, and compiling all ~60 cost every capture about 7 ms."""

    __slots__ = ("secret_class", "source", "flags", "group", "check", "where", "hints", "also", "_pattern")

    def __init__(
        self,
        secret_class: str,
        source: str,
        flags: int = 0,
        group: str | int = 0,
        check: Callable[[str], bool] | dict[str, Callable[[str], bool]] | None = None,
        hints: tuple[str, ...] = (),
        where: Callable[[re.Match[str]], bool] | None = None,
        also: tuple[str, ...] = (),
    ) -> None:
        self.secret_class = secret_class
        self.source = source
        self.flags = flags
        self.group = group
        self.check = check
        self.where = where
        self.hints = hints
        self.also = also  # and one of these, as written (the sign a value is given with: ":", "/")
        self._pattern: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._pattern is None:
            self._pattern = re.compile(self.source, self.flags)
        return self._pattern

    def __repr__(self) -> str:
        return f"Rule({self.secret_class!r}, {self.source!r})"

    def runs(self, text: str, lowered: str | None, hinted: dict[tuple[str, ...], bool] | None) -> bool:
        """Whether the text holds one of the rule's hints (and of `also`). `hinted` keeps, for one text, whether each
        tuple of hints is in it: the rules that share a tuple (the names of a password: 20 words) look it up once."""
        if self.hints:
            lowered = text.lower() if lowered is None else lowered
            present = None if hinted is None else hinted.get(self.hints)
            if present is None:
                present = any(h in lowered for h in self.hints)
                if hinted is not None:
                    hinted[self.hints] = present
            if not present:
                return False
        return not self.also or any(a in text for a in self.also)

    def spans(
        self, text: str, lowered: str | None = None, hinted: dict[tuple[str, ...], bool] | None = None
    ) -> Iterator[tuple[int, int]]:
        """The spans of the rule's secrets in the text, when it holds one of the hints (`runs`)."""
        if not self.runs(text, lowered, hinted):
            return
        for m in self.pattern.finditer(text):
            group = self.group
            if isinstance(group, str) and "|" in group:  # the first alternative group that matched
                group = next((g for g in group.split("|") if m.group(g) is not None), 0)
            value = m.group(group)
            check = self.check.get(str(group)) if isinstance(self.check, dict) else self.check
            if value is None or (check is not None and not check(value)) or (self.where and not self.where(m)):
                continue
            yield m.span(group)


def _r(
    secret_class: str,
    pattern: str,
    *,
    group: str | int = 0,
    check: Callable[[str], bool] | dict[str, Callable[[str], bool]] | None = None,
    flags: int = 0,
    hints: tuple[str, ...],
    where: Callable[[re.Match[str]], bool] | None = None,
    also: tuple[str, ...] = (),
) -> Rule:
    return Rule(secret_class, pattern, flags, group, check, hints, where, also)


_END = r"(?![A-Za-z0-9_-])"  # the token ends here
_AWS_SECRET_END = r"(?![A-Za-z0-9/+=_-]|\.[A-Za-z0-9])"  # a 40-character AWS secret key is not cut from a longer token
_I = re.IGNORECASE

# Keywords of an assignment. Matched anywhere in a key (`POSTGRES_PASSWORD`, `bindPassword`, `X-API-Key`), but the
# key must end with the keyword: `password_hash`, `secretName`, `max_tokens` are not secrets.
_PASSWORD_KEYS = r"pass(?:word|wd|phrase)|pwd"
_SECRET_KEYS = r"secret(?:[_.-]?key)?|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|token|credentials?"
_SECRET_LEAD = r"(?=[sSaApPtTcC])"  # (`_lead` of _SECRET_KEYS)
_BARE = r"[^\s\"'`,;&<>]"
# `key=value` written tight is code or config, not prose, and is read with a laxer check (`tight`).
_ASSIGN = r"(?![A-Za-z0-9_])(?:=(?P<tight>" + _BARE + r"{8,256})(?!" + _BARE + r")|[\"'\]]?[ \t]*(?:=>|:=|=|:)[ \t]*"
# (an unquoted value after a separator may hold "&" past its first character, "password: Lantern&Reef-30"; a
# tight `key=value` stops at it, as a URL's query does)
_VALUE = r"(?:\"(?P<dq>[^\"\n]{1,256})\"|'(?P<sq>[^'\n]{1,256})'|(?P<bare>" + _BARE + r"[^\s\"'`,;<>]{0,255})))"
_VALUE_GROUPS = "tight|dq|sq|bare"
# The words of the prose rules (`data/secret_words.json`): names of a password ("password", "pass phrase", "pwd")
# and of a PIN, and the nouns such a keyword qualifies in prose ("password manager", "pwd command", "pin header"):
# what "is" then names is the manager or the command, not the password.
PROSE_WORDS_FILE = Path(__file__).parent / "data" / "secret_words.json"


def _words_pattern(words: list[str], plural: bool = False) -> str:
    """An alternation of the words (longest first), each phrase matching any run of spaces or tabs between its
    words, with an optional final s when `plural`."""
    phrases = sorted({r"[ \t]+".join(re.escape(w) for w in p.split()) for p in words if p.split()}, key=len)
    return "(?:" + "|".join(reversed(phrases)) + ")" + ("s?" if plural else "") + r"\b"


def _lead(words: list[str]) -> str:
    """A lookahead for the first letters of the words, to start a pattern that starts with one of them: sre then
    skips to those letters instead of trying the whole alternation at every character (a rule on 64 KiB of prose
    that names a credential took 2-4 ms; with the lead, a half or a third of that)."""
    letters = {c for w in words for c in (w[:1].lower(), w[:1].upper()) if w}
    return "(?=[" + "".join(re.escape(c) for c in sorted(letters)) + "])"


def _prose_words() -> dict[str, list[str]]:
    data = json.loads(PROSE_WORDS_FILE.read_text(encoding="utf-8"))
    return {k: [str(w).lower() for w in v] for k, v in data.items() if k != "about"}  # a missing list fails loudly


def _slips(word: str) -> set[str]:
    """The slips of typing a word (of 6+ letters) is read through: a letter left out, a letter doubled, two
    neighbouring letters swapped ("pasword", "passsword", "passowrd")."""
    out = set()
    for i in range(len(word)):
        out.add(word[:i] + word[i + 1 :])
        out.add(word[:i] + word[i] + word[i:])
        if i + 1 < len(word):
            out.add(word[:i] + word[i + 1] + word[i] + word[i + 2 :])
    return {w for w in out if w != word and len(w) >= 6}


_WORDS = _prose_words()
# A misspelt name of a password names it as well ("the pasword for the NAS: …"): read as one of password_words.
_WORDS["password_words"] += sorted({s for w in _WORDS["misspelt_words"] for s in _slips(w)})
_QUALIFIED = _words_pattern(_WORDS["qualified_nouns"], plural=True)
_PIN_QUALIFIED = _words_pattern(_WORDS["qualified_nouns"] + _WORDS["pin_qualified_nouns"], plural=True)
_PASSWORD_WORDS = _words_pattern(_WORDS["password_words"], plural=True)
_PASSWORD_LEAD = _lead(_WORDS["password_words"])
# (each name's first word, or "pass" for one that holds it: "mot de passe", "passcode"; a slip of typing that keeps no
# "pass" by itself: "pssword", "apssword")
_PASSWORD_HINTS = tuple(sorted({"pass" if "pass" in w else w.split()[0] for w in _WORDS["password_words"]}))
# A name of a password where it names one ("the wifi password for the office"), not a noun it qualifies ("the
# password manager", "the pwd command"), and the rest of its clause up to a separator: what the prose rules share.
_PASSWORD_NAMED = _PASSWORD_LEAD + r"\b" + _PASSWORD_WORDS + r"(?![ \t]+" + _QUALIFIED + r")[^.\n]{0,40}?"
_PASSPHRASE_NAMES = _words_pattern(_WORDS["passphrase_words"], plural=True)  # (a passphrase is words by definition)
# Short names of a password ("pw"): a whole word, or the end of a key after "_" or "-" ("DB_PW"), read only right
# before ":", "=", "is" or "was" (their rule is after the prose rules): "mpw", "the pw column", "PW runner is
# node20" name no password.
_SHORT_PASSWORD_WORDS = r"(?<![A-Za-z0-9])" + _words_pattern(_WORDS["short_password_words"])
_SHORT_PASSWORD_HINTS = tuple(sorted(set(_WORDS["short_password_words"])))
# "is" in the languages of password_words ("das Passwort ist …", "le mot de passe est …", "la contraseña es …").
_COPULAS = _words_pattern(_WORDS["copula_words"])
# Names of a password in other scripts written with spaces (`password_words_other_scripts`), after an optional
# Hebrew prefix letter ("הסיסמה": the password), and what may give the value after them: a colon or "=", their "is"
# where the language writes one (`other_script_copulas`), or a dash ("Сэм — …"). In Chinese, Japanese and Korean
# (`password_words_unspaced`) the name stands inside a run of letters, and a particle may join it to the value.
_OTHER_PASSWORD = r"(?<!\w)(?:[הלבמשו]{1,2})?(?=\w)" + _words_pattern(_WORDS["password_words_other_scripts"])
_OTHER_GIVES = (
    r"(?:[ \t]*[:=][ \t]*|[ \t]+" + _words_pattern(_WORDS["other_script_copulas"]) + r"[ \t]+|[ \t]+[—–][ \t]+)"
)
_UNSPACED_PASSWORD = (
    "(?:"
    + "|".join(re.escape(w) for w in sorted(_WORDS["password_words_unspaced"], key=len, reverse=True))
    + ")(?:[ \t]*(?:"
    + "|".join(re.escape(p) for p in _WORDS["unspaced_particles"])
    + "))?[ \t]*"
)
# A value written in Latin letters, digits and signs, ending at a space, a quote, a clause's end or a letter of
# another script ("密码是Qx7!mPz92kLw。").
_ASCII_VALUE = r"[\"'`«「『]?(?P<v>[!-~]{6,64}?)(?=[\s\"'`»」』,;，。、]|[.!?](?:\s|$)|$|[^\x00-\x7f])"
_OTHER_HINTS = tuple(sorted({w.split()[0] for w in _WORDS["password_words_other_scripts"]}))
# What a secret is for, between its name and the sign that gives it: a phrase that starts with one of for_words
# ("for the router", "für den Router im Keller") and holds no separator, then a remark in brackets ("(read
# only)", "(scope:zone:read)"); each optional.
_FOR_PHRASE = (
    r"(?:[ \t]+" + _words_pattern(_WORDS["for_words"]) + r"[ \t]+[^.;:!?\n=()<>→\"'`]{1,50}?)?"
    r"(?:[ \t]*\([^()\n]{1,40}\))?"
)
# The sign that gives a value in a note: a colon, "=", an arrow, a dash of punctuation.
_GIVES = r"[ \t]*(?::|=>|=|->|→|—|–)[ \t]*"
_GIVES_SIGNS = (":", "=", "->", "→", "—", "–")
# A value given in prose: up to a space or a quote, not ending on the sentence's punctuation.
_PROSE_VALUE = r"(?P<v>[^\s\"'`,;]*[^\s\"'`,;.:)\]])"
_NETWORK_SECURITY = frozenset(_WORDS["network_security_words"])
# A name of a secret that names something else with the noun after it ("key id", "token name", "secret path").
_KEY_ELSE = r"(?![ \t_-]*" + _words_pattern(_WORDS["key_name_qualified"], plural=True) + r")"
# A PIN by name (`_named_pin`): "PIN code" / "pin number" / "passcode" in any case; "PIN" as written in capitals;
# "pin" in any case right after whose it is or what it unlocks ("my pin", "the bank pin"); "code" / "combination"
# right after an alarm or a lock that guards someone's things ("alarm code", "the safe combination"). "the pin was
# 2023" is a version pin, "pin 18" a hardware one: "pin" alone in lower case names no PIN; "error code 4040", "zip
# code 90210" and a door's entry code ("the door code is 4471", a fact the conflict tests record) no PIN.
_PIN_NAMES = r"\b(?P<name>" + _words_pattern(_WORDS["pin_words"] + _WORDS["pin_acronyms"] + _WORDS["code_words"]) + ")"
_PIN_HINTS = tuple(sorted({w.split()[0] for w in _WORDS["pin_words"] + _WORDS["pin_acronyms"] + _WORDS["code_words"]}))
_PIN_PHRASES = frozenset(_WORDS["pin_words"])
_PIN_ACRONYMS = frozenset(w.upper() for w in _WORDS["pin_acronyms"])
_CODE_WORDS = frozenset(_WORDS["code_words"])
_PIN_OWNER = re.compile(r"\b" + _words_pattern(_WORDS["pin_owner_words"]) + r"(?:['’]s)?[ \t]+\Z", re.IGNORECASE)
_CODE_OWNER = re.compile(r"\b" + _words_pattern(_WORDS["code_owner_words"]) + r"(?:['’]s)?[ \t]+\Z", re.IGNORECASE)
# A version pin in capitals ("The PIN was 2023"): a year a calendar version has (a year before 2000 is more likely a
# birth year, a common PIN), after is/was, in a sentence with no word of PIN context (whose it is, what it unlocks).
_VERSION_YEAR = re.compile(r"20\d\d")
# The words of PIN context, looked up in the set of the words of the sentence (a phrase such as "key box" in their
# joined text): as one alternation tried at every position of it, a 64 KiB text of "The PIN was 2023 " took 0.3 s.
_PIN_CONTEXT = [" ".join(w.split()) for w in _WORDS["pin_owner_words"] + _WORDS["code_owner_words"]]
_PIN_CONTEXT_WORDS = frozenset(w for w in _PIN_CONTEXT if " " not in w)
_PIN_CONTEXT_PHRASES = tuple(f" {w} " for w in _PIN_CONTEXT if " " in w)
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_END = re.compile(r"[.!?](?=\s|\Z)|[;\n]")
_SENTENCE_REACH = 120  # how far a sentence is read either side of a match (bounds the cost on a long text)


def _version_pin(m: re.Match[str]) -> bool:
    """ "The PIN was 2023": a year 2000-2099 right after is/was, and no word of PIN context in its sentence ("my",
    "bank", "card", "phone", "door", … before or after: "The PIN for my debit card is 2024" is a PIN)."""
    if m.group("verb") is None or not _VERSION_YEAR.fullmatch(m.group("v")):
        return False
    text = m.string
    reach = max(0, m.start() - _SENTENCE_REACH)
    start = max((e.end() for e in _SENTENCE_END.finditer(text, reach, m.start())), default=reach)
    after = _SENTENCE_END.search(text, m.end(), m.end() + _SENTENCE_REACH)
    end = after.start() if after else min(len(text), m.end() + _SENTENCE_REACH)
    words = _WORD.findall(text[start:end].lower())
    joined = f" {' '.join(words)} "
    return _PIN_CONTEXT_WORDS.isdisjoint(words) and not any(p in joined for p in _PIN_CONTEXT_PHRASES)


# What ends a clause right after a value ("…2019.", "…2019, then …", the end of the text).
_CLAUSE_AFTER = re.compile(r"[ \t]*(?:[,;:!?)\]}\n]|\.(?!\w)|\Z)")
# An owner of a code a clause before it: "the lockbox under the porch, code 3815".
_CODE_OWNER_CLAUSE = re.compile(
    r"\b" + _words_pattern(_WORDS["code_owner_words"]) + r"[^.;:!?\n,]{0,40},[ \t]+\Z", re.IGNORECASE
)


def _named_pin(m: re.Match[str]) -> bool:
    """Whether the name a PIN match starts with (group `name`) names a PIN where it stands. The owner is looked for
    only here, on a match: as an alternation at the head of the pattern it was tried at every word of the text."""
    name = m.group("name")
    folded = " ".join(name.lower().split())
    if folded in _CODE_WORDS:
        before = max(0, m.start() - 80)
        if _CODE_OWNER.search(m.string, before, m.start()) is not None:
            return True
        # (a clause before it: only a code that ends its clause, "the alarm panel, code 4040 error …" is not one)
        clause = _CODE_OWNER_CLAUSE.search(m.string, before, m.start()) is not None
        return clause and _CLAUSE_AFTER.match(m.string, m.end()) is not None
    if folded in _PIN_PHRASES:
        return True
    if name in _PIN_ACRONYMS:
        return not _version_pin(m)
    return _PIN_OWNER.search(m.string, max(0, m.start() - 40), m.start()) is not None


def _trie_pattern(words: set[str]) -> str:
    """The words as one alternation shaped like a trie ("a(?:n(?:d)?|s)", no word longer than it): sre tries the
    branches of an alternation one by one, and a flat one of 300 words cost each word of a text 300 tries."""
    trie: dict[str, Any] = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        alt = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{alt})?" if "" in node else alt

    return "(?:" + emit(trie) + ")"


# A word of a passphrase: letters only (3 to 20), not a function word ("the", "for", "not"), not a word that says
# something about a password rather than spells it ("every", "long", "see") and not a name of a password ("the
# password is domain account password"): a run of words ends before one.
_NOT_PASSPHRASE = _trie_pattern(
    {w.lower() for w in STOPWORDS | NEGATIONS}
    | {f for w in _WORDS["passphrase_prose_words"] for f in (w, w + "s")}  # and the plural of each
    | {w for w in _WORDS["password_words"] if " " not in w}
)
_PASSPHRASE_WORD = r"(?!" + _NOT_PASSPHRASE + r"(?![\w'’]))[^\W\d_]{3,20}(?![\w'’])"
_PARTICIPLES = frozenset(_WORDS["passphrase_participles"])
# Where a passphrase of only three words separated by spaces must end: the end of the clause (punctuation, a quote,
# a line end, the end of the text), not more words ("is purple monkey dishwasher for visitors" is not read).
_CLAUSE_END = r"(?=[ \t]*(?:[,;:!?)\]}\"'`\n]|\.(?!\w)|\Z))"


def _passphrase(value: str) -> bool:
    """A run of plain words given as a password: all in lower case or all capitalised ("Correct Horse Battery
    Staple"), and not prose in the passive voice ("is stored encrypted …", "was kept …": a first word that is a
    past participle). Three words separated by spaces only in lower case ("The password is Harbor Bay Launch"
    names a thing) and with no participle or -ly adverb anywhere."""
    words = re.split(r"[ -]", value)
    if len(words) == 3 and " " in value:
        # Three words are read more strictly: in lower case, with no past participle and no adverb in -ly anywhere
        # ("is user name reversed", "is quite obviously terrible").
        return value.islower() and not any(_says_how(w) for w in words)
    if not (all(w.islower() for w in words) or all(w[0].isupper() and w[1:].islower() for w in words)):
        return False
    return not _participle(words[0])


def _given_passphrase(value: str) -> bool:
    """Three plain words where they are given as a passphrase (after "passphrase", after "=", in quotes): in lower
    case or all capitalised ("Passphrase: Velvet Orbit Canyon"; after a bare "password is", capitals name a thing,
    which `_passphrase` keeps), with no past participle or -ly adverb."""
    words = value.split(" ")
    if not (value.islower() or all(w[:1].isupper() and w[1:].islower() for w in words)):
        return False
    return not any(_says_how(w) for w in words)


def _says_how(word: str) -> bool:
    """A past participle or an adverb in -ly: a word of prose about a password ("is stored …", "is quite obviously
    …"), never of a passphrase of three words."""
    return _participle(word) or (len(word) >= 6 and word.endswith("ly"))


def _participle(word: str) -> bool:
    """A past participle: one of `passphrase_participles`, or a word of 5+ letters in -ed (not -eed)."""
    w = word.lower()
    return w in _PARTICIPLES or (len(w) >= 5 and w.endswith("ed") and not w.endswith("eed"))


_FILE_NAME = re.compile(r"\.[A-Za-z]{2,4}\Z")
# A slug of words ("summer-sale-2024", "eu-west-1"): a name, not a key.
_SLUG = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)+")
_LICENCE_NAME = re.compile(r"\b(?:key|licen[cs]e|serial|activation|product)\b", re.IGNORECASE)


def _query_secret(value: str) -> bool:
    """A value of a URL's `key=`/`token=`/`secret=` query parameter that is a secret: `_tight_value`, never a path,
    a file name, or a slug of words."""
    if "/" in value or _FILE_NAME.search(value) or _SLUG.fullmatch(value):
        return False
    return _tight_value(value)


def _named_licence(m: re.Match[str]) -> bool:
    """A product key named as one in its line before it ("Office product key: …", "Activation …")."""
    start = max(0, m.string.rfind("\n", 0, m.start()) + 1, m.start() - 80)
    return _LICENCE_NAME.search(m.string, start, m.start()) is not None


def _base32_seed(value: str) -> bool:
    """A TOTP seed: 16 base32 characters or more (spaces and hyphens between groups), letters and a digit 2-7."""
    v = value.replace(" ", "").replace("-", "").upper()
    return len(v) >= 16 and any(c.isalpha() for c in v) and any(c.isdigit() for c in v)


def _not_public(m: re.Match[str]) -> bool:
    """A key's name not after "public" (a public key, a public token: "Public key (for the README): …")."""
    return not m.string[max(0, m.start() - 8) : m.start()].lower().rstrip(" \t-_").endswith("public")


def _bare_password(m: re.Match[str]) -> bool:
    """A password given with only a space after its name: mixed cases and a digit, or a symbol (`_given_bare`); or
    letters then two digits or more ("cedarwood42") where the clause ends after it ("password argon2id hash" is
    prose)."""
    v = m.group("v").rstrip(".,;:)]}")
    if _given_bare(v):
        return True
    return _LETTERS_DIGITS.fullmatch(v) is not None and _CLAUSE_AFTER.match(m.string, m.end()) is not None


_LETTERS_DIGITS = re.compile(r"[a-z]{4,}\d{2,}")


def _named_secret(value: str) -> bool:
    """A token or a secret given in prose after its name: long, letters and digits (`_long_credential`), and not a
    path or a resource's name (a "/" only in a value that mixes cases and digits, as base64 does)."""
    v = value.strip("\"'`.,;:)]}")
    if ":" in v or ("/" in v and not _mixed(v)):
        return False
    return _long_credential(v)


def _key_value(value: str) -> bool:
    """The value of a key named as the secret itself: a secret by `_named_secret`, or 8 characters or more that
    mix cases and a digit or hold a symbol ("8Xq-trellis-Ponder-31"; not "AES-256", "YubiKey")."""
    v = value.strip("\"'`.,;:)]}")
    return _named_secret(v) or (len(v) >= 8 and _given_bare(v) and ":" not in v and "/" not in v)


def _network_key_value(value: str) -> bool:
    """A wireless network's key: a password (`credential_like`) of WPA's 8 characters or more, or a key by
    `_key_value`."""
    v = value.strip("\"'`.,;:)]}")
    if all(part.lower() in _NETWORK_SECURITY for part in re.split(r"[-_/+ ]+", v) if part):
        return False  # how the network is secured ("WPA2-PSK"), not its key
    return (len(v) >= 8 and credential_like(v) and ":" not in v and "/" not in v) or _key_value(v)


def _named_key_rule(names: str, value: Callable[[str], bool], hints: tuple[str, ...]) -> Rule:
    """A key named as the secret itself (a list of `secret_words.json`), then a sign or "is", then its value."""
    return _r(
        "secret_assignment",
        _lead(_WORDS[names])
        + r"\b"
        + _words_pattern(_WORDS[names])
        + _KEY_ELSE
        + _FOR_PHRASE
        + r"(?:"
        + _GIVES
        + r"|[ \t]+"
        + _COPULAS
        + r"(?:[ \t]*:)?[ \t]+)[\"'`]?"
        + _PROSE_VALUE,
        group="v",
        check=_not_code(value),
        flags=_I,
        hints=hints,
        where=_not_public,
        also=(*_GIVES_SIGNS, *(f" {c} " for c in _WORDS["copula_words"])),
    )


def _assigned_key_rule(names: str, value: Callable[[str], bool]) -> Rule:
    """A key that is itself the secret by name (`key_names`), as the key of an assignment in code or configuration:
    its words joined by "_", ".", "-" or nothing ("JWT_SIGNING_KEY=…", '"SigningKey": "…"', "licence-key: …"),
    the key ending with them, and a value the prose rule takes (`_key_value`: "AES-256" names an algorithm)."""
    keys = sorted({r"[_.-]?".join(re.escape(w) for w in n.split()) for n in _WORDS[names]}, key=len, reverse=True)
    return _r(
        "secret_assignment",
        _lead(_WORDS[names]) + r"(?:" + "|".join(keys) + ")" + _ASSIGN + _VALUE,
        group=_VALUE_GROUPS,
        check={g: _not_code(value) if g in ("tight", "bare") else value for g in _VALUE_CHECKS},
        flags=_I,
        hints=tuple(sorted({n.split()[-1] for n in _WORDS[names]})),
    )


# A password dictated one character at a time ("capital Q, lowercase r, seven, hash, m, m, …"): a letter with its case
# or alone, a digit or a number's name, a symbol's name (`data/secret_words.json`: spelling_*), each maybe after
# "a"/"an"/"the", joined by commas, "then" or "followed by".
_NUMBER_WORDS = _WORDS["spelling_number_words"]  # (zero to nine, in order)
_SYMBOL_WORDS = frozenset(" ".join(w.split()) for w in _WORDS["spelling_symbol_words"])
_CASE_WORDS = _words_pattern(_WORDS["spelling_case_words"])
_SPELLED_END = r"(?![\w'’-])"
_SPELLED_WORDS = _words_pattern(_WORDS["spelling_number_words"] + _WORDS["spelling_symbol_words"])
_SPELLED_ITEM = (
    r"(?:(?:an?|the)[ \t]+)?(?:"
    + _CASE_WORDS
    + r"[ \t]+[A-Za-z]|"
    + _SPELLED_WORDS
    + r"|\d{1,6}|[A-Za-z])"
    + _SPELLED_END
)
_SPELLED_SEP = (
    r"(?:[ \t]*,[ \t]*(?:(?:and[ \t]+)?then[ \t]+|and[ \t]+)?|[ \t]+(?:and[ \t]+)?then[ \t]+"
    r"|[ \t]+followed[ \t]+by[ \t]+)"
)
_DICTATED_ITEM = re.compile(
    r"(?:(?:an?|the)[ \t]+)?(?:(?P<case>"
    + _CASE_WORDS
    + r")[ \t]+(?P<letter>[A-Za-z])|(?P<w>"
    + _SPELLED_WORDS
    + r"|\d{1,6}|[A-Za-z]))"
    + _SPELLED_END,
    re.IGNORECASE,
)


def _dictated(value: str) -> bool:
    """What a run of dictated characters spells is a credential (`credential_like`: letters with a digit or a
    symbol, six characters or more)."""
    spelled = []
    for item in _DICTATED_ITEM.finditer(value):
        if item.group("letter"):
            lower = item.group("case").lower().startswith(("lower", "small"))
            spelled.append(item.group("letter").lower() if lower else item.group("letter").upper())
            continue
        word = " ".join(item.group("w").lower().split())
        if word in _NUMBER_WORDS:
            spelled.append(str(_NUMBER_WORDS.index(word)))
        elif word in _SYMBOL_WORDS:
            spelled.append("#")
        else:
            spelled.append(item.group("w"))
    return credential_like("".join(spelled))


# A Kubernetes manifest's kind, and its `data:` block: the lines under it indented more (`_SecretDataRule`).
_MANIFEST_REACH = 4000
_SECRET_KIND = re.compile(r"(?m)^[ \t]*kind:[ \t]*[\"']?Secret[\"']?[ \t]*$")
_DATA_BLOCK = r"(?m)^(?P<ind>[ \t]*)data:[ \t]*\n(?P<block>(?:(?P=ind)[ \t]+[^\n]*(?:\n|\Z))+)"
_DATA_VALUE = re.compile(r"(?m)^[ \t]+[\w.-]+:[ \t]*[\"']?(?P<v>[A-Za-z0-9+/]{4,}={0,2})[\"']?[ \t]*$")


def _base64_text(value: str) -> bool:
    """Base64 of printable text (a password, a token, a docker config, a PEM key), not a placeholder."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    d = decoded.strip()
    if len(d) < 3 or (not d.startswith('{"') and _PLACEHOLDER.search(d)):  # (a docker config is JSON)
        return False
    return all(line.isprintable() for line in d.splitlines())


def _braced_password(value: str) -> bool:
    """The value of an ODBC connection string's `Pwd={…}` (braces quote a value that holds ";" or "}"): a
    credential, never a name in a format string (`{password}`, `{DB_PASSWORD}`: a name in one case, or with no
    digit between its letters)."""
    if _FORMAT_FIELD.fullmatch(value) and not (_DIGIT_INSIDE.search(value) and _mixed(value)):
        return False
    return _CALL.match(value) is None and credential_like(value)


# A replacement field of a format string ("password", "DB_PASSWORD", "cfg.pwd!r", "pw:>12"), and a call in code.
_FORMAT_FIELD = re.compile(r"[A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:![rsa])?(?::[^{}]*)?")
_CALL = re.compile(r"[A-Za-z_][\w.]*\(")


def _flag_token(value: str) -> bool:
    """The value of a command-line flag named as a token or a secret ("--auth …", "--api-key …"): a long value
    of letters and digits (`_named_secret`), never a slug of words ("--secret my-app-secret-2")."""
    return _named_secret(value) and _SLUG.fullmatch(value) is None


def _after_email(m: re.Match[str]) -> bool:
    """The "@" of the match ends an address's local part ("ana.k@…"), not a handle or a mention ("@ana")."""
    return m.start() > 0 and (m.string[m.start() - 1].isalnum() or m.string[m.start() - 1] in "._+-")


def _pair_password(value: str) -> bool:
    """A password given after an account's address and a slash: mixed cases and a digit, or a symbol and a digit,
    8 characters or more (`_given_bare`); never another address, a domain, a channel or a path."""
    v = value.rstrip(".,;:)]}")
    if len(v) < 8 or v[0] in "#@" or "/" in v or _ADDRESS.fullmatch(v):
        return False
    return _given_bare(v) and _has_digit(v)


_ADDRESS = re.compile(r"(?:[\w.+-]+@)?[\w-]+(?:\.[\w-]+)+")


# What follows the name of a client that a password flag belongs to ("redis-cli -h cache -p 6380 -a …"): read
# from the flag back to its client, so a flag of the same letter before it (redis-cli's "-p" is its port) does not
# hide it.
_CLIENT_BEFORE = re.compile(
    r"\b(?:mysql|mysqldump|mysqladmin|mariadb|sshpass|docker[ \t]+login|podman[ \t]+login|mongo(?:sh|dump)?"
    r"|redis-cli|smbclient|htpasswd)\b[^\n`|;]{0,80}\Z"
)


def _after_client(m: re.Match[str]) -> bool:
    return _CLIENT_BEFORE.search(m.string, max(0, m.start() - 120), m.start()) is not None


_PASSWORD_STORES = frozenset(" ".join(w.split()) for w in _WORDS["password_store_names"])
# A Markdown table: a header row, its row of dashes, and the rows under it.
_TABLE = (
    r"(?m)^(?P<head>[ \t]*\|?[^\n|]*(?:\|[^\n|]*)+)\n[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*"
    r"(?P<body>(?:\n[^\n]*\|[^\n]*)+)"
)
# The name of a column of passwords or secrets: it ends with a name of a password ("Password", "Admin pw",
# "Passwort (neu)") or of a token or a secret (`table_secret_columns`), as an assignment's key does.
_PASSWORD_COLUMN = re.compile(
    r"(?:[^|]{0,30}[ \t_-])?(?:"
    + _PASSWORD_WORDS
    + "|"
    + _words_pattern(_WORDS["short_password_words"] + ["pass"])
    + r")(?:[ \t]*\([^()]*\))?",
    re.IGNORECASE,
)
_SECRET_COLUMN = re.compile(
    r"(?:[^|]{0,30}[ \t_-])?" + _words_pattern(_WORDS["table_secret_columns"], plural=True) + r"(?:[ \t]*\([^()]*\))?",
    re.IGNORECASE,
)


_PIPE = re.compile(r"(?<!\\)\|")  # (not an escaped "\|" inside a cell)


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The cells of a table's row text[start:end] as spans of their stripped text (outer pipes dropped)."""
    bounds = [start - 1] + [p.start() for p in _PIPE.finditer(text, start, end)] + [end]
    cells = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        a += 1
        while a < b and text[a] in " \t`*":
            a += 1
        while b > a and text[b - 1] in " \t`*":
            b -= 1
        cells.append((a, b))
    if text[start:end].lstrip().startswith("|"):
        cells = cells[1:]
    if text[start:end].rstrip().endswith("|") and cells:
        cells = cells[:-1]
    return cells


def _table_password(value: str) -> bool:
    """A cell of a password column: one credential (`credential_like`, not a reference in code), never a phrase or
    the name of where the password is kept ("1Password", "see vault")."""
    if not value or any(c.isspace() for c in value) or value.lower() in _PASSWORD_STORES:
        return False
    return _not_code(credential_like)(value)


class _TableRule(Rule):
    """A Markdown table whose header names a column of passwords or of secrets: the cells of that column that hold
    one (a password by `_table_password`, a token or a secret by `_named_secret`)."""

    __slots__ = ()

    def spans(
        self, text: str, lowered: str | None = None, hinted: dict[tuple[str, ...], bool] | None = None
    ) -> Iterator[tuple[int, int]]:
        if not self.runs(text, lowered, hinted):
            return
        for m in self.pattern.finditer(text):
            columns: dict[int, Callable[[str], bool]] = {}
            for i, (a, b) in enumerate(_cells(text, *m.span("head"))):
                name = text[a:b]
                if _PASSWORD_COLUMN.fullmatch(name):
                    columns[i] = _table_password
                elif _SECRET_COLUMN.fullmatch(name):
                    columns[i] = _not_code(_named_secret)
            if not columns:
                continue
            row = m.start("body") + 1
            while row < m.end("body"):
                end = text.find("\n", row, m.end("body"))
                end = m.end("body") if end < 0 else end
                for i, (a, b) in enumerate(_cells(text, row, end)):
                    check = columns.get(i)
                    if check is not None and check(text[a:b]):
                        yield a, b
                row = end + 1


class _SecretDataRule(Rule):
    """The values of a Kubernetes Secret's `data:` (base64 is only their encoding): each value in base64 of
    printable text (`_base64_text`) of a `data:` block in a YAML document that says `kind: Secret` (not a
    ConfigMap, an ExternalSecret, nor a SealedSecret's `encryptedData:`, which is encrypted)."""

    __slots__ = ()

    def spans(
        self, text: str, lowered: str | None = None, hinted: dict[tuple[str, ...], bool] | None = None
    ) -> Iterator[tuple[int, int]]:
        if not self.runs(text, lowered, hinted):
            return
        for m in self.pattern.finditer(text):
            # (its document: from the "---" before it to the one after, read at most `_MANIFEST_REACH` either side)
            lo, hi = max(0, m.start() - _MANIFEST_REACH), min(len(text), m.end() + _MANIFEST_REACH)
            doc_start = max(lo, text.rfind("\n---", lo, m.start()))
            doc_end = text.find("\n---", m.end(), hi)
            if _SECRET_KIND.search(text, doc_start, hi if doc_end < 0 else doc_end) is None:
                continue
            for v in _DATA_VALUE.finditer(text, m.start("block"), m.end("block")):
                if _base64_text(v.group("v")):
                    yield v.span("v")


# Between the words of a seed phrase: spaces, a comma, or a line break and a bullet; each word may be numbered.
_SEED_SEP = r"(?:[ \t]*,?[ \t]+|[ \t]*,?[ \t]*\n[ \t]*(?:[-*+][ \t]+)?)"
_SEED_NUMBER = r"(?:\d{1,2}[.):][ \t]*)?"


RULES: list[Rule] = [
    # Private key blocks of every kind: PEM (RSA, EC, DSA, OPENSSH, PKCS#8, ENCRYPTED, PGP), SSH2, PuTTY, age.
    # A header without its footer takes the key material that follows it.
    _r(
        "private_key",
        # (the dashes optional: a Markdown renderer turns a line of them into a rule, and the key read without them
        # was redacted as its header alone, its body kept)
        r"(?:-{4,5} ?)?BEGIN [A-Z0-9 _-]{0,40}?PRIVATE KEY(?: BLOCK)?(?: ?-{4,5})?"
        r"(?:[\s\S]*?(?:-{4,5} ?)?END [A-Z0-9 _-]{0,40}?PRIVATE KEY(?: BLOCK)?(?: ?-{4,5})?|[A-Za-z0-9+/=\s:,.\\\"-]*)",
        hints=("private key",),
    ),
    _r("private_key", r"PuTTY-User-Key-File-\d+:[\s\S]*?(?:Private-MAC: ?[0-9a-fA-F]+|\Z)", hints=("putty-user-key",)),
    _r("private_key", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b", hints=("age-secret-key",)),
    # Cloud.
    _r(
        "aws_secret_key",
        r"aws[\w .-]{0,40}?secret[\w .-]{0,40}?(?:[=:]|\bis\b)[ \t]*[\"']?(?P<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])",
        group="v",
        check=_mixed,
        flags=_I,
        hints=("aws",),
    ),
    # "aws_secret_access_key <value>", "Secret Access Key <value>": the keyword, whitespace only, then the value.
    _r(
        "aws_secret_key",
        r"(?<![A-Za-z0-9])(?:aws[_ -]?)?secret[_ -]?access[_ -]?key(?![A-Za-z0-9])\s+"
        r"(?P<v>[A-Za-z0-9/+]{40})" + _AWS_SECRET_END,
        group="v",
        check=_aws_secret,
        flags=_I,
        hints=("secret",),
    ),
    # The secret of a pair named a secret in its own note, its key id refused or given elsewhere ("IAM secret for
    # reports (pairs with the key id above): …"): 40 characters shaped as an AWS secret after "secret" and a colon,
    # an equals sign or "is", in one line.
    _r(
        "aws_secret_key",
        r"\bsecret\b[^\n:=]{0,60}?(?:[=:]|\bis\b)[ \t]*[\"'`]?(?P<v>[A-Za-z0-9/+]{40})" + _AWS_SECRET_END,
        group="v",
        check=_aws_secret,
        flags=_I,
        hints=("secret",),
    ),
    # The secret of a key pair given after its key id: "AKIA… with secret …", "AKIA… / …", "AKIA…:…".
    _r(
        "aws_secret_key",
        r"(?<![A-Za-z0-9/+_.~-])[A-Za-z0-9/+]{40}" + _AWS_SECRET_END,
        check=_aws_secret,
        hints=tuple(p.lower() for p in _AWS_ID_PREFIXES),
        where=_after_aws_key_id,
    ),
    _r("google_api_key", r"\bAIza[0-9A-Za-z_-]{35}" + _END, hints=("aiza",)),
    _r("google_oauth_secret", r"\bGOCSPX-[0-9A-Za-z_-]{28}" + _END, hints=("gocspx-",)),
    _r("google_oauth_token", r"\bya29\.[0-9A-Za-z_-]{30,}", hints=("ya29.",)),
    # Firebase Cloud Messaging's legacy server key: "AAAA" and 7 characters, a colon, "APA91b" and the key.
    _r("firebase_server_key", r"\bAAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}", hints=("apa91b",)),
    _r(
        "azure_storage_key",
        r"\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)[ \t]*=[ \t]*"
        r"(?P<v>[A-Za-z0-9+/%]{20,}={0,2})",
        group="v",
        flags=_I,
        hints=("accountkey", "sharedaccess"),
    ),
    _r(
        "azure_sas_token", r"[?&]sig=(?P<v>[A-Za-z0-9%+/]{20,}(?:%3D|=){0,2})", group="v", check=_mixed, hints=("sig=",)
    ),
    _r(
        "azure_client_secret",
        r"(?<![A-Za-z0-9_~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])",
        hints=("q~",),
    ),
    _r("digitalocean_token", r"\bdo[opr]_v1_[a-f0-9]{64}\b", hints=("_v1_",)),
    _r("heroku_api_key", r"\bHRKU-[A-Za-z0-9_-]{20,}", hints=("hrku-",)),
    _r("netlify_token", r"\bnfp_[A-Za-z0-9]{36,}" + _END, check=_mixed, hints=("nfp_",)),
    _r("alibaba_access_key", r"\bLTAI[A-Za-z0-9]{12,20}\b", check=_mixed, hints=("ltai",)),
    # Version control (GitLab: the library's rules).
    _r("github_token", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,}" + _END, hints=("gh",)),
    _r("github_token", r"\bgithub_pat_[A-Za-z0-9_]{22,}", hints=("github_pat_",)),
    # GitLab's routable tokens carry a suffix after dots (".01.<id>"), which the library's pattern stops before:
    # redacted, the token kept its tail.
    _r(
        "gitlab_token",
        r"\b(?:glpat|gldt|glft|glsoat|glrt)-[A-Za-z0-9_-]{20,}\.[0-9a-z]{2}\.[0-9A-Za-z]{7,12}" + _END,
        hints=("gl",),
    ),
    # Package registries.
    _r("npm_token", r"\bnpm_[A-Za-z0-9]{36}" + _END, hints=("npm_",)),
    _r(
        "npm_token",
        r"_authToken[ \t]*=[ \t]*[\"']?(?P<v>[^\s\"']+)",
        group="v",
        check=credential_like,
        hints=("_authtoken",),
    ),
    _r("rubygems_key", r"\brubygems_[a-f0-9]{48}" + _END, hints=("rubygems_",)),
    _r("nuget_key", r"\boy2[a-z0-9]{43}" + _END, check=_has_digit, hints=("oy2",)),
    _r("docker_token", r"\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}", hints=("dckr_",)),
    # Chat.
    _r("slack_token", r"\bxox[abeoprs]-[A-Za-z0-9-]{10,}", hints=("xox",)),
    _r("slack_token", r"\bxapp-\d-[A-Za-z0-9-]{10,}", hints=("xapp-",)),
    _r(
        "slack_webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}",
        hints=("hooks.slack.com",),
    ),
    _r(
        "discord_webhook",
        r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/\d{5,}/[A-Za-z0-9_-]{30,}",
        hints=("/api/webhooks/",),
    ),
    _r(
        "teams_webhook",
        r"https://[A-Za-z0-9-]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{20,}",
        hints=("webhook.office.com",),
    ),
    _r(
        "teams_webhook", r"https://outlook\.office(?:365)?\.com/webhook/[A-Za-z0-9@/_-]{20,}", hints=("outlook.office",)
    ),
    _r(
        "chat_webhook",
        r"https?://[A-Za-z0-9.-]+(?::\d+)?/hooks/(?P<v>[a-z0-9]{20,})" + _END,
        group="v",
        check=_has_digit,
        hints=("/hooks/",),
    ),
    # Payments and SaaS API keys (prefix formats, after gitleaks' rules).
    _r("stripe_key", r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}", hints=("k_live_", "k_test_", "k_prod_")),
    _r("stripe_webhook_secret", r"\bwhsec_[A-Za-z0-9]{24,}", hints=("whsec_",)),
    _r("mailgun_key", r"\bkey-[0-9a-f]{32}\b", hints=("key-",)),
    _r("vault_token", r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}", hints=("hvs.", "hvb.", "hvr.")),
    _r("shopify_token", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b", hints=("shp",)),
    _r("square_token", r"\b(?:sq0atp|sq0csp)-[A-Za-z0-9_-]{22,}", hints=("sq0",)),
    _r("square_token", r"\bEAAA[A-Za-z0-9_-]{22,}" + _END, check=_mixed, hints=("eaaa",)),  # its access tokens
    _r("facebook_token", r"\bEAA[A-Za-z0-9]{100,}" + _END, check=_mixed, hints=("eaa",)),
    _r("atlassian_token", r"\bATATT3[A-Za-z0-9_=-]{40,}", hints=("atatt3",)),
    _r("openai_key", r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}", hints=("sk-",)),
    _r("openai_key", r"\bsk-[A-Za-z0-9]{32,}" + _END, check=_mixed, hints=("sk-",)),
    _r("anthropic_key", r"\bsk-ant-[a-z]{3,6}\d{2}-[A-Za-z0-9_-]{20,}", hints=("sk-ant-",)),
    _r("huggingface_token", r"\bhf_[A-Za-z]{34}" + _END, hints=("hf_",)),
    _r("databricks_token", r"\bdapi[a-f0-9]{32}(?:-\d)?\b", hints=("dapi",)),
    _r("terraform_token", r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}", hints=(".atlasv1.",)),
    _r("postman_key", r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b", hints=("pmak-",)),
    _r("linear_key", r"\blin_api_[A-Za-z0-9]{40}\b", hints=("lin_api_",)),
    _r("pulumi_token", r"\bpul-[a-f0-9]{40}\b", hints=("pul-",)),
    _r("sentry_token", r"\bsntry[us]_[A-Za-z0-9+/=_]{40,}", hints=("sntry",)),
    _r("newrelic_key", r"\bNR(?:AK|II|JS|RA)-[A-Za-z0-9]{19,32}\b", hints=("nrak-", "nrii-", "nrjs-", "nrra-")),
    _r("grafana_token", r"\bgl(?:sa|c)_[A-Za-z0-9+/_=]{32,}", hints=("glsa_", "glc_")),
    _r("doppler_token", r"\bdp\.(?:st|pt|ct|sa|scim|audit)\.[A-Za-z0-9._-]{40,}", hints=("dp.",)),
    # JWTs: three base64url parts, the first two JSON (checked with detect-secrets' own validator).
    _r(
        "jwt",
        r"\beyJ[A-Za-z0-9_=-]+\.[A-Za-z0-9_=-]+(?:\.[A-Za-z0-9_+/=-]*[A-Za-z0-9_+/=-])?",
        check=_jwt_valid,
        hints=("eyj",),
    ),
    # Passwords in URLs (also when the user name is empty: redis://:pw@host).
    _r(
        "url_password",
        r"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@]*:(?P<v>[^\s@/]+)@[A-Za-z0-9\[]",
        group="v",
        check=_url_password,
        hints=("://",),
    ),
    # Oracle's connect string: "sqlplus hr_app/…@//db:1521/PDB", "CONNECT scott/…@orcl", JDBC's thin driver
    # ("jdbc:oracle:thin:ledger/…@//host:1521/SVC"): the password between the user's slash and the "@".
    _r(
        "url_password",
        r"(?:\b(?:sqlplus|sqlcl|rman|expdp|impdp|sqlldr|dgmgrl)(?:[ \t]+-[A-Za-z]+)*"
        r"(?:[ \t]+(?:target|catalog|auxiliary))?[ \t]+|\bjdbc:oracle:(?:thin|oci8?):|\bconn(?:ect)?[ \t]+)"
        r"[\"']?[A-Za-z][\w$#.]*/(?P<v>[^\s@/\"']+)@",
        group="v",
        check=_url_password,
        flags=_I,
        hints=("sqlplus", "sqlcl", "rman", "expdp", "impdp", "sqlldr", "dgmgrl", "jdbc:oracle", "conn"),
        also=("@",),
    ),
    # Authorization headers and bearer tokens.
    _r(
        "basic_auth_header",
        r"\bBasic[ \t]+(?P<v>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])",
        group="v",
        check=_basic_credentials,
        flags=_I,
        hints=("basic",),
    ),
    _r(
        "bearer_token",
        r"\bbearer[ \t]+(?:token[ \t]+)?(?:[:=][ \t]*)?[\"']?(?P<v>[A-Za-z0-9._~+/-]{16,}=*)",
        group="v",
        check=credential_like,
        flags=_I,
        hints=("bearer",),
    ),
    # Assignments: password=…, passwd: …, secret=…, api_key=…, token: …, "password": "…".
    _r(
        "password_assignment",
        _lead(["p"]) + r"(?:" + _PASSWORD_KEYS + ")" + _ASSIGN + _VALUE,
        group=_VALUE_GROUPS,
        check=_ASSIGNED,
        flags=_I,
        hints=("pass", "pwd"),
    ),
    _r(
        "secret_assignment",
        _SECRET_LEAD + r"(?:" + _SECRET_KEYS + ")" + _ASSIGN + _VALUE,
        group=_VALUE_GROUPS,
        check=_ASSIGNED,
        flags=_I,
        hints=("secret", "key", "token", "credential"),
    ),
    # The same keys as elements and attributes of XML (Maven's settings.xml, a .NET app.config, NuGet.Config):
    # "<password>…</password>", "<apiToken>…</apiToken>", '<add key="SmtpPassword" value="…"/>'.
    *(
        _r(
            secret_class,
            r"<(?P<tag>[\w.:-]*?(?:" + keys + r"))(?:[ \t][^<>\n]*)?>[ \t]*(?P<v>[^<>\n]{1,256}?)[ \t]*</(?P=tag)>",
            group="v",
            check=credential_like,
            flags=_I,
            hints=("</",),
        )
        for secret_class, keys in (("password_assignment", _PASSWORD_KEYS), ("secret_assignment", _SECRET_KEYS))
    ),
    _r(
        "secret_assignment",
        r"\b(?:key|name)[ \t]*=[ \t]*\"[\w.:-]*?(?:" + _PASSWORD_KEYS + "|" + _SECRET_KEYS + r")\"[ \t]+"
        r"value[ \t]*=[ \t]*\"(?P<v>[^\"\n]{1,256})\"",
        group="v",
        check=credential_like,
        flags=_I,
        hints=("value",),
    ),
    # "pass" as a key in code or configuration, not in prose ("boarding pass: …"): a quoted key ('"pass": "…"'),
    # the end of a key after "_", "." or "-" ("DB_PASS=…", "smtp.pass: …"), or right before "=".
    _r(
        "password_assignment",
        r"(?:(?<=[\"'])pass(?=[\"'])|(?<=[A-Za-z0-9][_.-])pass|(?<![A-Za-z0-9])pass(?==))" + _ASSIGN + _VALUE,
        group=_VALUE_GROUPS,
        check=_ASSIGNED,
        flags=_I,
        hints=("pass",),
    ),
    # An ODBC connection string quotes a value in braces ("Driver={…};Uid=etl;Pwd={Qx;7}…"): the value inside them.
    # (a pair of the string, a ";" before or after it: "password={password!r}" is a format string)
    _r(
        "password_assignment",
        r"(?:;[ \t]*(?:pwd|passw(?:or)?d|pass)[ \t]*=[ \t]*\{(?P<v>(?:[^{}\n]|\}\})+)\}"
        r"|(?<![A-Za-z0-9_])(?:pwd|passw(?:or)?d|pass)[ \t]*=[ \t]*\{(?P<w>(?:[^{}\n]|\}\})+)\}(?=[ \t]*;))",
        group="v|w",
        check=_braced_password,
        flags=_I,
        hints=("pass", "pwd"),
        also=("={", "= {"),
    ),
    # Keys that are the secret by name, assigned in code or configuration ('"SigningKey": "…"', "LICENSE_KEY=…",
    # "wifi_psk: …"): `key_names` with their words joined, the value read as in prose.
    _assigned_key_rule("key_names", _key_value),
    _assigned_key_rule("network_key_names", _network_key_value),
    # A Kubernetes Secret's data: every value of its `data:` is the secret, in base64 (a pull secret's
    # `.dockerconfigjson`, a `password:`, a `tls.key:`).
    _SecretDataRule("secret_assignment", _DATA_BLOCK, hints=("secret",)),
    # Credential files of their own syntax: a .netrc entry ("machine host login user password …"), a .pgpass line
    # ("host:port:database:user:password"), a docker config's "auth" (base64 of "user:password").
    _r(
        "password_assignment",
        r"\bmachine[ \t]+\S+\s+login[ \t]+\S+\s+password[ \t]+(?P<v>\S+)",
        group="v",
        check=_tight_value,
        hints=("machine",),
    ),
    _r(
        "password_assignment",
        r"(?m)^[ \t]*[A-Za-z0-9.*_-]+:(?:\d{1,5}|\*):[\w*.-]+:[\w*.@-]+:(?P<v>[^\s]+?)[ \t]*$",
        group="v",
        check=_url_password,
        hints=("pgpass", ":5432:", ":5433:", ":6432:", ":*:"),
    ),
    _r(
        "basic_auth_header",
        r"\"auth\"[ \t]*:[ \t]*\"(?P<v>[A-Za-z0-9+/]{8,}={0,2})\"",
        group="v",
        check=_basic_credentials,
        hints=('"auth"',),
    ),
    # A secret in a URL's query: "?key=…", "&access_token=…", "?secret=…" (a deploy hook, a TOTP otpauth:// URI),
    # with the checks of a tight `key=value`, never a path or a file name.
    _r(
        "url_token",
        r"[?&](?:key|api[_-]?key|apikey|token|access[_-]?token|auth[_-]?token|auth|secret|client[_-]?secret"
        r"|private[_-]?token|signature)=(?P<v>[^\s&#\"'<>]{8,256})",
        group="v",
        check=_query_secret,
        flags=_I,
        hints=("key=", "token=", "auth=", "secret=", "signature="),
    ),
    # Licence keys that grant the software: a licence block ("----- BEGIN LICENSE -----" … "END LICENSE"), and a
    # product key of five groups of five (Windows, Office) in a text that names a key, a licence or a serial.
    _r(
        "license_key",
        r"-{3,}[ \t]*BEGIN[ \t]+(?:[A-Z]+[ \t]+)?LICEN[SC]E(?:[ \t]+(?:KEY|FILE))?[ \t]*-{3,}"
        r"(?:[\s\S]*?-{3,}[ \t]*END[ \t]+(?:[A-Z]+[ \t]+)?LICEN[SC]E(?:[ \t]+(?:KEY|FILE))?[ \t]*-{3,}"
        r"|(?:\n[ \t]*[A-Za-z0-9+/=:. -]+){1,40})",
        flags=_I,
        hints=("begin license", "begin licence"),
    ),
    _r(
        "license_key",
        r"(?<![A-Za-z0-9-])[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}(?![A-Za-z0-9-])",
        check=lambda v: _has_digit(v) and any(c.isalpha() for c in v),
        hints=("key", "licen", "serial", "activation"),
        where=_named_licence,
    ),
    # A TOTP seed in prose: base32 after the name of an authenticator's secret ("the 2FA seed for the bank: JBSW
    # Y3DP …"); the otpauth:// URI is read by the query rule above.
    _r(
        "totp_seed",
        r"\b(?:totp|otp|2fa|mfa|authenticator|two[ -]factor)\b[^\n:=]{0,40}?\b(?:seed|secret|setup[ \t]+key|key)\b"
        r"[^\n:=]{0,20}?(?:[:=]|\b(?:is|was)\b)[ \t]*[\"'`]?(?P<v>[A-Z2-7]{4,}(?:[ -]?[A-Z2-7]{4,}){0,15})"
        r"(?![A-Za-z0-9])",
        group="v",
        check=_base32_seed,
        flags=_I,
        hints=("totp", "otp", "2fa", "mfa", "authenticator", "two"),
    ),
    # Prose about a token or a secret, as about a password: "the signing secret is …", "the auth token was: …",
    # and a token named right before it ("auth token 9c1d…", "session token eyJ…"). Only a long value that mixes
    # letters and digits (`_long_credential`): "the token is valid for a day", "the secret is out" are prose.
    _r(
        "secret_assignment",
        _SECRET_LEAD + r"\b(?:" + _SECRET_KEYS + r")\b[^.\n]{0,30}?\b(?:is|was)(?:[ \t]*:[ \t]*|[ \t]+)[\"'`]?"
        r"(?P<v>[^\s\"'`,;]*[^\s\"'`,;.?!:)\]])",  # (not the sentence's end: "Which token is ghp_…?")
        group="v",
        check=_long_credential,
        flags=_I,
        hints=("secret", "token", "key", "credential"),
    ),
    _r(
        "secret_assignment",
        r"(?=[aArRsSbB])\b(?:auth|access|api|refresh|session|bearer|bot|app)[ _-]?token[ \t]+(?P<v>[A-Za-z0-9._~+/=-]{20,256})"
        + _END,
        group="v",
        check=_long_credential,
        flags=_I,
        hints=("token",),
    ),
    # A session cookie: the credential of a signed-in session ("Cookie: sessionid=…; csrftoken=…"), also under an
    # application's own name ("forum_session=…", "_myapp_session=…", "app.sid=…").
    _r(
        "session_cookie",
        r"(?<![A-Za-z0-9])(?:[A-Za-z0-9]+[_.-])?(?:session[_-]?(?:id|token|key)?|sess(?:ion)?id|sid|php_?sessid|jsessionid|connect\.sid)=(?P<v>[A-Za-z0-9%._~+/-]{16,256})",
        group="v",
        check=_long_credential,
        flags=_I,
        hints=("sess", "sid"),
    ),
    # A cookie as a server sets it, whatever its name: a long opaque value and a cookie's attributes after it,
    # HttpOnly among them ("auth=…; Path=/; HttpOnly"): what a script may not read is a session's credential, not
    # an analytics id ("_ga=GA1.2.…; Path=/").
    _r(
        "session_cookie",
        r"(?<![\w.-])[A-Za-z_][\w.-]{0,40}=(?P<v>[A-Za-z0-9%._~+/-]{24,256});[ \t]*"
        r"(?:(?:Path|Domain|SameSite|Expires|Max-Age)=[^;\n]*;[ \t]*|Secure;[ \t]*){0,6}HttpOnly\b",
        group="v",
        check=_long_credential,
        flags=_I,
        hints=("httponly",),
    ),
    # A password given to a command-line client as its flag ("mysql -u root -pS3cret", "sshpass -p 'S3cret'",
    # "docker login -u deploy -p S3cret", "--password=S3cret"): the flag within the client's command line.
    # (each flag is read with its client before it in the line, so redis-cli's "-p 6380", its port, does not hide the
    # "-a …" after it)
    _r(
        "password_assignment",
        r"[ \t](?:-p[ \t]?|-a[ \t]|--pass(?:word)?[= \t])[\"']?(?P<v>[^\s\"'`]+)",
        group="v",
        check=credential_like,
        hints=("mysql", "mariadb", "sshpass", "login", "mongo", "redis-cli", "smbclient", "htpasswd"),
        where=_after_client,
    ),
    # OpenSSL's pass phrase argument given in the clear: "-passin pass:…", "-passout pass:…", "-password pass:…"
    # ("env:VAR" and "file:path" name where it is kept).
    _r(
        "password_assignment",
        r"(?<![\w-])-pass(?:in|out|word)?[ \t]+[\"']?pass:(?P<v>[^\s\"'`]+)",
        group="v",
        check=_tight_value,  # (not a word of the documentation's examples: "pass:sample", "pass:changeit")
        hints=("pass",),
    ),
    # A command-line flag named as a token or a secret, its value after a space ("--auth …", "--api-key …",
    # "--webhook-secret …"; written "--token=…" it is an assignment).
    _r(
        "secret_assignment",
        r"(?<![\w-])--(?:[a-z0-9]+-)*(?:token|auth|secret|api-?key|access-key|secret-key)[ \t]+[\"']?"
        r"(?P<v>[A-Za-z0-9._~+/-]{16,}=*)(?![^\s\"'`])",
        group="v",
        check=_flag_token,
        flags=_I,
        hints=("--",),
    ),
    # An HTTP client's credentials as its flag: "curl -u deploy:S3cret", "http -a admin:…", "wget --user x
    # --password …", "--http-password=…": the password after the user's colon, or the password flag's value.
    _r(
        "password_assignment",
        r"(?<![\w./-])(?:curl|https?|xh|xhs|wget|httpie|aria2c)(?=[ \t])[^\n`|;]{0,120}?[ \t]"
        r"(?:(?:-u|--user|-a|--auth)(?:[ \t]+|=)[\"']?[^\s:\"'@]+:(?P<v>[^\s\"'`]+)"
        r"|--(?:http-|ftp-|proxy-)?pass(?:word)?(?:[ \t]+|=)[\"']?(?P<w>[^\s\"'`]+))",
        group="v|w",
        check=_url_password,
        hints=("curl", "http ", "https ", "xh ", "xhs ", "wget", "aria2c"),
    ),
    # PowerShell's password in the clear: ConvertTo-SecureString "…" -AsPlainText.
    _r(
        "password_assignment",
        r"ConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(?:\"(?P<v>[^\"\n]+)\"|'(?P<w>[^'\n]+)')",
        group="v|w",
        check=_url_password,
        flags=_I,
        hints=("convertto-securestring",),
    ),
    # A wallet's recovery (seed) phrase: twelve to twenty-four plain words after its name and a colon or "is".
    _r(
        "seed_phrase",
        r"\b(?:recovery|seed|mnemonic|backup|secret)[ \t-]+(?:phrase|words)\b[^:\n=]{0,60}?(?:[:=]|\b(?:is|was)\b)"
        # (on one line, or one word a line, numbered or bulleted: "1. book\n2. adult\n…")
        r"[ \t]*[\"'`]?\s*(?P<v>"
        + _SEED_NUMBER
        + r"[a-z]{3,8}(?:"
        + _SEED_SEP
        + _SEED_NUMBER
        + r"[a-z]{3,8}){11,23})\b",
        group="v",
        flags=_I,
        hints=("phrase", "words"),
    ),
    # Recovery or backup codes listed after their name: "recovery codes: 4f9e2-8c1a7 b07d3-55e19 …", one a line.
    _r(
        "recovery_codes",
        r"\b(?:recovery|backup|2fa|mfa|one-time)[ \t-]+codes?\b[^\n]{0,60}\n?(?P<v>(?:[ \t]*(?:[-*+][ \t]+)?"
        r"[0-9A-Za-z]{4,10}(?:-[0-9A-Za-z]{4,10})?[ \t]*[,;]?[ \t]*\n?){3,})",
        group="v",
        check=lambda v: sum(c.isdigit() for c in v) >= 6,
        flags=_I,
        hints=("codes",),
    ),
    # Prose: "the wifi password for the office is …", "my mysql pwd is …" (the first is/was after the keyword,
    # within one clause). Not when the keyword qualifies the noun after it: "our password manager is 1Password"
    # names a product, "the pwd command is …" a command (`_PASSWORD_NAMED`).
    _r(
        "password_assignment",
        # ("is" or "was", then a space or a colon: "the wifi password is: …")
        _PASSWORD_NAMED + r"\b" + _COPULAS + r"(?:[ \t]*:[ \t]*|[ \t]+)[\"'`]?(?P<v>[^\s\"'`,;]+)",
        group="v",
        check=credential_like,
        flags=_I,
        hints=_PASSWORD_HINTS,
    ),
    # A password given with a sign after what it is for: "password for the router: …", "Kennwort für den Router im
    # Keller: …", "password (guest network) → …" (an arrow, a dash, a colon or "=": `_FOR_PHRASE`, `_GIVES`).
    _r(
        "password_assignment",
        _PASSWORD_LEAD
        + r"\b"
        + _PASSWORD_WORDS
        + r"(?![ \t]+"
        + _QUALIFIED
        + r")"
        + _FOR_PHRASE
        + _GIVES
        + r"[\"'`]?"
        + _PROSE_VALUE,
        group="v",
        check=_not_code(credential_like),
        flags=_I,
        hints=_PASSWORD_HINTS,
        also=_GIVES_SIGNS,
    ),
    # A password with only a space after its name, as a login is given in a list ("user kasse, Passwort
    # Laterne88!", "SSID PineHollow, password cedarwood42"): a value that mixes cases and a digit or holds a symbol
    # (`_given_bare`), or letters then digits ending the clause (`_bare_password`).
    _r(
        "password_assignment",
        _PASSWORD_LEAD
        + r"\b"
        + _PASSWORD_WORDS
        + r"(?![ \t]+"
        + _QUALIFIED
        + r")[ \t]+(?P<v>[^\s\"'`,;]{6,64})(?![^\s\"'`,;])",
        group="v",
        check=_literal(lambda v: True),
        flags=_I,
        hints=_PASSWORD_HINTS,
        where=_bare_password,
    ),
    # A password spelled out with a space between its characters ("the pw is 'h u n t e r 4 2' without the
    # spaces"): six characters or more, read joined, after a name of a password (also "pw") in its clause.
    _r(
        "password_assignment",
        r"(?:\b" + _PASSWORD_WORDS + r"|" + _SHORT_PASSWORD_WORDS + r")(?![ \t]+" + _QUALIFIED + r")[^.\n]{0,40}?"
        r"(?:\b" + _COPULAS + r"[ \t]*:?|[:=→])[ \t]*[\"'`]?(?P<v>[^\s\"'`](?: [^\s\"'`]){5,63})(?![^\s\"'`])",
        group="v",
        check=lambda v: credential_like(v.replace(" ", "")),
        flags=_I,
        hints=_PASSWORD_HINTS + _SHORT_PASSWORD_HINTS,
    ),
    # A user and a password after the name of a login: "her bank login is d.okafor77@example.net / Marigold#19",
    # "credentials: admin / Tr0ub4dor!" (a value that mixes cases and a digit, or holds a symbol: `_given_bare`).
    _r(
        "password_assignment",
        r"(?=[lLsScC])\b(?:login|log-in|logon|sign-in|credentials?|creds)\b[^\n:=]{0,40}?(?:\b(?:is|are|was|were)\b|[:=])"
        r"[ \t]*[\"'`]?[^\s/\"'`]{2,64}[ \t]*/[ \t]*[\"'`]?(?P<v>[^\s\"'`,;]+)",
        group="v",
        check=lambda v: _given_bare(v) and "/" not in v,
        flags=_I,
        hints=("login", "log-in", "logon", "sign-in", "cred"),
        also=("/",),
    ),
    # "pass" as the name of a password in a login given as a pair: "user ci-bot, pass …", "login: kiosk / pass: …"
    # (alone, "pass" is a boarding pass, a mountain pass, "pass the test").
    _r(
        "password_assignment",
        # (a sign between the user and "pass", or after "pass": "allow user to pass execution_id" is prose)
        r"(?=[uUlL])\b(?:user(?:name)?|login)\b[ \t]*[:=]?[ \t]*[\"']?[\w.@+-]{2,64}[\"']?"
        r"(?:[ \t]*[,;/|][ \t]*pass\b[ \t]*[:=]?|[ \t]+pass[ \t]*[:=])[ \t]*[\"'`]?(?P<v>[^\s\"'`,;<>]+)",
        group="v",
        check=_given_bare,
        flags=_I,
        hints=("pass",),
    ),
    # An account's address, a slash, and its password, as a login is handed over ("ana.k@school.example /
    # …"): mixed cases and a digit or a symbol and a digit, 8 characters or more (`_pair_password`).
    _r(
        "password_assignment",
        # (a space beside the slash: "https://ana@host.example/Reports2024" is a URL's path)
        r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:[ \t]+/[ \t]*|/[ \t]+)[\"'`]?(?P<v>[^\s\"'`,;]+)",
        group="v",
        check=_pair_password,
        hints=("@",),
        also=("/",),
        where=_after_email,
    ),
    # A password named in another script, given with a sign or an "is" after up to a few words of what it is for
    # ("Пароль сервера: …", "كلمة المرور للخادم هي …", "הסיסמה לשרת היא …"), or with only a space after its name,
    # as Hindi puts the "is" last ("सर्वर का पासवर्ड … है", `_bare_password`); and one in Chinese, Japanese or
    # Korean, joined to its value by a particle or a colon ("服务器密码：…", "パスワードは …", "비밀번호는 …").
    _r(
        "password_assignment",
        _OTHER_PASSWORD + r"[^\n.:=!?]{0,30}?" + _OTHER_GIVES + _ASCII_VALUE,
        group="v",
        check=_not_code(credential_like),
        flags=_I,
        hints=_OTHER_HINTS,
    ),
    _r(
        "password_assignment",
        _OTHER_PASSWORD + r"[ \t]+" + _ASCII_VALUE,
        group="v",
        check=_literal(lambda v: True),
        flags=_I,
        hints=_OTHER_HINTS,
        where=_bare_password,
    ),
    _r(
        "password_assignment",
        _UNSPACED_PASSWORD + _ASCII_VALUE,
        group="v",
        check=_not_code(credential_like),
        hints=tuple(_WORDS["password_words_unspaced"]),
    ),
    # A token, a secret or a key named in prose, given with a sign after what it is for: "Mapping service API token
    # for the tile cache (read only): …", "access token for the kiosk integration → …". A long value mixing
    # letters and digits (`_named_secret`), never a path, an ARN or a name in code.
    _r(
        "secret_assignment",
        _SECRET_LEAD + r"\b(?:" + _SECRET_KEYS + r")\b" + _KEY_ELSE + _FOR_PHRASE + _GIVES + r"[\"'`]?" + _PROSE_VALUE,
        group="v",
        check=_not_code(_named_secret),
        flags=_I,
        hints=("secret", "key", "token", "credential"),
        where=_not_public,
        also=_GIVES_SIGNS,
    ),
    # A key that is itself the secret, by name (`key_names`: a network's key, a licence's or product key, a signing
    # key): "WPA2 key for the workshop (guests ok): …", "licence key for the audio editor: …", "the wireless key is
    # …". A value of 8 characters or more that mixes cases and a digit or holds a symbol, or is long (`_key_value`).
    _named_key_rule("key_names", _key_value, ("key", "psk", "secret")),
    # A wireless network's key (`network_key_names`) is a passphrase: its value is read as a password's, 8
    # characters or more (WPA's least), letters with a digit or a symbol ("the wifi key is sunflower42", "WPA2 key:
    # homenet2024"), where the rule above asks another key's value to mix cases or hold a symbol.
    _named_key_rule("network_key_names", _network_key_value, ("key", "psk")),
    # Prose: a passphrase of plain words after "password/passphrase … is", ":" or "=": four or more words
    # ("correct horse battery staple"), or three or more joined by hyphens ("ember-lagoon-whistle"), none of them a
    # function word or a word about the password ("is changed every quarter", "is eight characters long", "is
    # identical across hosts"). Three separated by spaces: the next rule.
    _r(
        "password_assignment",
        _PASSWORD_NAMED + r"(?:[:=]|\b(?:is|was)[ \t])[ \t]*[\"'`]?"
        r"(?P<v>" + _PASSPHRASE_WORD + r"(?:(?: " + _PASSPHRASE_WORD + r"){3,11}|(?:-" + _PASSPHRASE_WORD + r"){2,11})"
        r")(?![\w'’-])",
        group="v",
        check=_passphrase,
        flags=_I,
        hints=_PASSWORD_HINTS,
    ),
    # Three plain words separated by spaces, ending the clause, only where they are given as a passphrase: after
    # "passphrase", after "=", or in quotes ("the wifi passphrase is purple monkey dishwasher", "password =
    # ember lagoon whistle", 'the NAS password was "copper kettle meadow"'). After "password is" or "Password:"
    # three words were prose as often as not ("Password: terraform cloud workspace": 8 of 45 sentences written
    # after the rule refused, 3 of 45 with this reading), so "the wifi password is purple monkey dishwasher" is
    # not read.
    _r(
        "password_assignment",
        r"\b(?:" + _PASSPHRASE_NAMES + r"[^.\n]{0,40}?(?:[:=]|\b(?:is|was)[ \t])[ \t]*[\"'`]?"
        r"|" + _PASSWORD_NAMED + r"(?:=[ \t]*[\"'`]?|(?::|\b(?:is|was))[ \t]*[\"'`]))"
        r"(?P<v>" + _PASSPHRASE_WORD + r"(?: " + _PASSPHRASE_WORD + r"){2})" + _CLAUSE_END + r"(?![\w'’-])",
        group="v",
        check=_given_passphrase,
        flags=_I,
        hints=_PASSWORD_HINTS,
    ),
    # "pw: …", "pw=…", "DB_PW=…", "the wifi pw is …": a short name of a password right before its separator (not
    # "mpw", "the pw column", "PW runner is node20"), with the checks of `password=`; a measure or an expression of
    # code is no password ("pw=1920px", "servo pw: 1500us", "pw = Piecewise((x, x < 1), …)": `_literal`).
    _r(
        "password_assignment",
        _SHORT_PASSWORD_WORDS + r"(?:" + _ASSIGN + _VALUE + r"|[ \t]+(?:is|was)[ \t]+[\"'`]?(?P<prose>[^\s\"'`,;]+))",
        group=_VALUE_GROUPS + "|prose",
        check={g: _literal(c) for g, c in {**_VALUE_CHECKS, "prose": credential_like}.items()},
        flags=_I,
        hints=_SHORT_PASSWORD_HINTS,
    ),
    # ... and with nothing but a space before the value, as a login is given in a chat ("it's jo@x.com, pw
    # Sunflower#88"): only a value no measure or name is, both cases of letters and a digit, or a symbol
    # (`_given_bare`: "pw 1920x1080", "PW runner" are not).
    _r(
        "password_assignment",
        _SHORT_PASSWORD_WORDS + r"[ \t]+(?P<v>[^\s\"'`,;]{6,64})(?![^\s\"'`,;])",
        group="v",
        check=_literal(lambda v: _given_bare(v)),
        flags=_I,
        hints=_SHORT_PASSWORD_HINTS,
    ),
    # ... and with what it is for before the sign, as a password's name is ("Admin pw for the shop backend: …").
    _r(
        "password_assignment",
        _SHORT_PASSWORD_WORDS + _FOR_PHRASE + _GIVES + r"[\"'`]?" + _PROSE_VALUE,
        group="v",
        check=_literal(credential_like),
        flags=_I,
        hints=_SHORT_PASSWORD_HINTS,
        also=_GIVES_SIGNS,
    ),
    # A password dictated one character at a time: "capital Q, lowercase r, seven, hash, m, m, capital Z, two,
    # zero" (six items or more from a letter given with its case; `_dictated` reads what they spell).
    _r(
        "password_assignment",
        _lead(_WORDS["spelling_case_words"])
        + r"\b"
        + _CASE_WORDS
        + r"[ \t]+[A-Za-z]"
        + _SPELLED_END
        + r"(?:"
        + _SPELLED_SEP
        + _SPELLED_ITEM
        + r"){5,}",
        check=_dictated,
        flags=_I,
        hints=("capital", "case", "small", "big"),  # ("upper-case", "lower case", "lowercase": "case")
    ),
    # A Markdown table with a column of passwords or secrets (`_TableRule`).
    _TableRule("password_assignment", _TABLE, hints=("|",)),
    # A Wi-Fi network's QR code as text: "WIFI:T:WPA;S:<network>;P:<key>;;" (its P field is the key).
    _r(
        "password_assignment",
        r"\bWIFI:(?:[^;\n]*;){0,6}?P:(?P<v>(?:\\.|[^;\\\n])+)",
        group="v",
        check=_url_password,
        flags=_I,
        hints=("wifi:",),
    ),
    # Prose: "my bank PIN is 4821", "PIN: 4821", "PIN=4821", "card PIN 4821", "alarm code 9051". A PIN is 4 to 8
    # digits right after is/was, in the same clause with no digit between (not "GPIO pin 18 is 3300"), right after a
    # colon or an equals sign, or right after the name ("PIN 2 on the header" has too few digits); never the start
    # of a longer token ("2024.1", "1024-bit"). "The PIN was 2023" is a version pin (`_version_pin`).
    _r(
        "pin_code",
        _PIN_NAMES + r"(?![ \t]+" + _PIN_QUALIFIED + r")"
        # (what it unlocks may come between: "Unlock code for the test iPhone: 274913", as "the wifi password for
        # the office is …")
        r"(?:[^.;:!?\n\d]{0,30}?\b(?P<verb>is|was)[ \t]+|(?:[ \t]+for[ \t]+[^.;:!?\n\d=]{1,40}?)?[ \t]*[:=][ \t]*"
        r"|[ \t]+)[\"'`]?(?P<v>\d{4,8}|\d(?:-\d){3,7})(?![\w.,/-]*\w)",  # (or digit by digit: "1-9-0-7")
        group="v",
        flags=_I,
        hints=_PIN_HINTS,
        where=_named_pin,
    ),
]


# --- detect-secrets plugins ----------------------------------------------------------------------------------------


def _aws_class(value: str) -> str:
    return "aws_access_key" if value.startswith(_AWS_ID_PREFIXES) else "aws_secret_key"


def _slack_class(value: str) -> str:
    return "slack_webhook" if "hooks.slack.com" in value.lower() else "slack_token"


# plugin class → (secret class or a function of the value, span mode). The span is the match (its first group when
# it has one), then: "extend" = on to the end of the token (longer keys of the same format); "bounded" = ignored
# when it is part of a longer word (these rules have no boundaries of their own).
# Not used: the entropy and Keyword plugins (they flag hashes, ids and prose), IP addresses (not secrets), the
# IBM/Cloudant/SoftLayer keyword rules (covered by the assignment rules), and three whose patterns take quadratic
# time on a long line (a 64 KiB capture of "/" or "eyJ" took 3-40 s): JWT (its validator is used, on our linear
# pattern), npm (`_authToken=` and `npm_` rules above) and OpenAI (`sk-` rules above).
LIBRARY_PLUGINS: dict[str, tuple[str | Callable[[str], str], str | None]] = {
    "AWSKeyDetector": (_aws_class, "bounded"),
    "AzureStorageKeyDetector": ("azure_storage_key", "extend"),
    "BasicAuthDetector": ("url_password", None),
    "DiscordBotTokenDetector": ("discord_bot_token", "extend"),
    "GitHubTokenDetector": ("github_token", "extend"),
    "GitLabTokenDetector": ("gitlab_token", "extend"),
    "PrivateKeyDetector": ("private_key", None),
    "PypiTokenDetector": ("pypi_token", "extend"),
    "SendGridDetector": ("sendgrid_key", "extend"),
    "SlackDetector": (_slack_class, None),
    "SquareOAuthDetector": ("square_token", "extend"),
    "StripeDetector": ("stripe_key", "extend"),
    "TelegramBotTokenDetector": ("telegram_bot_token", "extend"),
    "TwilioKeyDetector": ("twilio_key", "bounded"),
    "MailchimpDetector": ("mailchimp_key", "bounded"),
    "ArtifactoryDetector": ("artifactory_token", "extend"),
}

_TOKEN_CHARS = re.compile(r"[A-Za-z0-9_-]*")
_EDGE = " \t\r\n\"'=:"


PATTERNS_FILE = Path(__file__).parent / "data" / "secret_patterns.json"


def library_patterns() -> dict[str, Any]:
    """The regexes (pattern, flags) of the detect-secrets plugins in LIBRARY_PLUGINS, read from the installed
    library, with its version: what `scripts/secret_patterns.py` writes to PATTERNS_FILE. None of these plugins may
    filter its matches in code (`analyze_string` overridden): a scan from the regexes alone would then find more
    than the library does, so that is refused here."""
    from importlib.metadata import version

    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    # detect-secrets types these as type[Plugin], a TypeVar its signature never binds: use them untyped.
    classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
    by_name: dict[str, Any] = {c.__name__: c for c in classes}
    plugins: dict[str, list[list[Any]]] = {}
    for name in LIBRARY_PLUGINS:
        cls = by_name.get(name)
        if cls is None:
            continue
        if cls.analyze_string is not RegexBasedDetector.analyze_string:
            raise ValueError(f"detect-secrets' {name} filters its matches in code: scan with the library")
        plugins[name] = [[rx.pattern, rx.flags] for rx in cls().denylist]
    return {"detect_secrets": version("detect-secrets"), "plugins": plugins}


@lru_cache(maxsize=1)
def _pattern_data() -> dict[str, list[list[Any]]]:
    """The plugins' (pattern, flags) lists as PATTERNS_FILE holds them (kept equal to the installed library by a
    test). Importing the library costs ~0.1 s per process (its plugin base imports `requests`); the file costs about
    a millisecond."""
    data: dict[str, list[list[Any]]] = json.loads(PATTERNS_FILE.read_text(encoding="utf-8"))["plugins"]
    return data


@lru_cache(maxsize=1)
def _aws_key_id() -> re.Pattern[str]:
    """An AWS access key id as a whole token, by the library's own pattern (AWSKeyDetector's first): the rule that
    reads the secret given after it (`_after_aws_key_id`) knows the ids the library finds."""
    pattern, flags = _pattern_data()["AWSKeyDetector"][0]
    return re.compile(r"(?<![A-Za-z0-9])" + pattern + r"(?![A-Za-z0-9])", flags)


@lru_cache(maxsize=1)
def _plugins() -> list[tuple[tuple[re.Pattern[str], ...], str | Callable[[str], str], str | None]]:
    """The detect-secrets plugins in use, as their compiled regexes (`_pattern_data`)."""
    data = _pattern_data()
    out = []
    for name, (secret_class, mode) in LIBRARY_PLUGINS.items():
        regexes = tuple(re.compile(pattern, flags) for pattern, flags in data[name])  # a missing one fails loudly
        out.append((regexes, secret_class, mode))
    return out


def _word_char(ch: str) -> bool:
    """Whether a character beside a bounded match makes it part of a longer word: a Latin letter or digit. Chinese
    and Japanese write the next word without a space, and Korean joins its particles to a value
    ("…AKIAQ3EGT7ZPWXN4KR2D입니다."): letters of those scripts end a key, as a space does."""
    return ch.isascii() and ch.isalnum()


def _library_findings(text: str) -> Iterator[Finding]:
    for regexes, secret_class, mode in _plugins():
        for rx in regexes:
            for m in rx.finditer(text):
                start, end = m.span(1) if rx.groups and m.group(1) else m.span()
                while start < end and text[start] in _EDGE:
                    start += 1
                while end > start and text[end - 1] in _EDGE:
                    end -= 1
                if start >= end:
                    continue
                if mode == "extend":
                    tail = _TOKEN_CHARS.match(text, end)
                    end = tail.end() if tail else end  # `*`: it always matches
                elif mode == "bounded" and (
                    (start > 0 and _word_char(text[start - 1])) or (end < len(text) and _word_char(text[end]))
                ):
                    continue
                value = text[start:end]
                name = secret_class(value) if callable(secret_class) else secret_class
                if name == "url_password" and not _url_password(value):
                    continue  # https://<user>:<password>@host is a template, not a credential
                yield Finding(start, end, name, 1)


# --- the API -------------------------------------------------------------------------------------------------------


def _folded(text: str) -> tuple[str, list[int]]:
    """The text as the rules read it when it is not plain ASCII: each character in its compatibility form
    (NFKC: full-width "ｐａｓｓｗｏｒｄ＝" is "password="), a Cyrillic or Greek letter that looks like a Latin one as
    that letter (`_confusables`: the slugifier transliterated "ghр_" into a page name, the rules let it pass),
    invisible format characters (zero-width spaces and joiners,
    soft hyphens, direction marks) left out, so a secret cannot hide from the rules behind them; and for each
    character of that text, the index of the character of `text` it comes from."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch.isascii():
            out.append(ch)
            where.append(i)
            continue
        if unicodedata.category(ch) == "Cf":
            continue
        form = unicodedata.normalize("NFKC", ch)
        form = _confusables().get(form, form)  # a Cyrillic "р" in "ghр_", an "а" in "pаssword"
        out.append(form)
        where.extend([i] * len(form))
    return "".join(out), where


@functools.cache
def _confusables() -> dict[str, str]:
    """Letters of other scripts that look like one ASCII letter (`data/confusables.json`)."""
    data = json.loads((Path(__file__).parent / "data" / "confusables.json").read_text(encoding="utf-8"))
    return dict(data["letters"])


# A run of one character, eight or more: what a placeholder in a token's format is made of.
_RUN = re.compile(r"([A-Za-z0-9*])\1{7,}")


def _filler(value: str) -> bool:
    """A placeholder written in a token's own format: runs of one character make half of it or more
    ("sk_test_xxxxxxxxxxxxxxxxxxxxxxxx", "ghp_000000000000…", "AKIAXXXXXXXXXXXXXXXX"). No generated secret has
    such a run (a private key's body has runs of "A", a small part of it)."""
    return sum(len(m.group()) for m in _RUN.finditer(value)) * 2 >= len(value)


@functools.cache
def _published_examples() -> tuple[str, ...]:
    """Values vendors publish as examples of a credential (`data/secret_examples.json`)."""
    data = json.loads((Path(__file__).parent / "data" / "secret_examples.json").read_text(encoding="utf-8"))
    return tuple(e.strip("=") for e in data["published_examples"])  # (a finding may leave out base64's padding)


def _published(value: str) -> bool:
    """A value its vendor publishes as an example: one that holds "EXAMPLE" in capitals (AWS's documentation:
    "AKIAIOSFODNN7EXAMPLE", "…/bPxRfiCYEXAMPLEKEY"; no generated token holds a seven-letter word in capitals), or
    one of `data/secret_examples.json` (jwt.io's sample token, the Azure storage emulator's account key)."""
    return "EXAMPLE" in value or any(e in value for e in _published_examples())


# What ends a private key's header ("-----BEGIN RSA PRIVATE KEY-----", "PuTTY-User-Key-File-3:"), and key material
# after it: a run of base64 with letters and digits (a line of a key's body; prose and file names have none).
_KEY_HEADER_END = re.compile(r"PRIVATE KEY(?: BLOCK)?(?: ?-{4,5})?|PuTTY-User-Key-File-\d+")
_KEY_MATERIAL = re.compile(r"[A-Za-z0-9+/=]{16,}")
_KEY_REACH = 400  # how far after a header its material is looked for


def _no_key_material(text: str, f: Finding) -> bool:
    """A private key's header with no key material after it (in an error message, in prose about a format): no
    key. A body, whole or cut after a line, is one."""
    header = _KEY_HEADER_END.search(text, f.start, max(f.end, f.start + 80))
    if header is None:
        return False
    end = max(f.end, header.end() + _KEY_REACH)
    return not any(
        _has_digit(run.group()) and any(c.isalpha() for c in run.group())
        for run in _KEY_MATERIAL.finditer(text, header.end(), end)
    )


_GOOGLE_KEY = re.compile(r"AIza[0-9A-Za-z_-]{35}")


def _public_web_key(text: str, f: Finding) -> bool:
    """A Google API key as the `apiKey` of a Firebase web app's config (beside its `authDomain`): it identifies
    the app to Google and ships in every page that uses it; Firebase's documentation says it is not a secret."""
    value = text[f.start : f.end]
    if _GOOGLE_KEY.fullmatch(value.strip("\"'")) is None:
        return False
    return "authDomain" in text[max(0, f.start - 300) : f.end + 300]


def _not_a_secret(text: str, f: Finding) -> bool:
    """A finding that holds no usable credential: a placeholder in a token's format, a value vendors publish as an
    example, a private key's header alone, a Firebase web config's public key."""
    value = text[f.start : f.end]
    if _filler(value) or _published(value):
        return True
    if f.secret_class == "private_key" and _no_key_material(text, f):
        return True
    return _public_web_key(text, f)


def _findings(text: str) -> list[Finding]:
    lowered = text.lower()
    hinted: dict[tuple[str, ...], bool] = {}
    # (the hints are looked up before a rule's generator is made: most rules meet none of theirs in a text)
    found = [
        Finding(s, e, rule.secret_class, 0)
        for rule in RULES
        if rule.runs(text, lowered, hinted)
        for s, e in rule.spans(text, lowered, hinted)
        if e > s
    ]
    found.extend(_library_findings(text))
    return [f for f in found if not _not_a_secret(text, f)]


def scan(text: str) -> list[Finding]:
    """Every secret in the text as non-overlapping spans, in text order. Overlapping findings merge into one span
    that keeps the class of the finding that starts first (the longer one on a tie, then the own rule). Text that
    is not plain ASCII is read in its folded form too (`_folded`), its findings mapped back onto the text."""
    if not text:
        return []
    found = _findings(text)
    if not text.isascii():
        folded, where = _folded(text)
        if folded != text:
            found.extend(
                Finding(where[f.start], where[f.end - 1] + 1, f.secret_class, f.priority) for f in _findings(folded)
            )
    found.sort(key=lambda f: (f.start, -f.end, f.priority))
    merged: list[Finding] = []
    for f in found:
        if merged and f.start < merged[-1].end:
            last = merged[-1]
            if f.end > last.end:
                merged[-1] = Finding(last.start, f.end, last.secret_class, last.priority)
            continue
        merged.append(f)
    return merged


def _classes(findings: list[Finding]) -> list[str]:
    return list(dict.fromkeys(f.secret_class for f in findings))


def find_secrets(text: str) -> list[str]:
    """Classes of the secrets in the text, in order of appearance, without duplicates. Empty = nothing found."""
    return _classes(scan(text))


def redact_secrets(text: str) -> tuple[str, list[str]]:
    """The text with each secret replaced by `[REDACTED:<class>]`, and the classes replaced."""
    findings = scan(text)
    if not findings:
        return text, []
    parts, pos = [], 0
    for f in findings:
        parts.append(text[pos : f.start])
        parts.append(f"[REDACTED:{f.secret_class}]")
        pos = f.end
    parts.append(text[pos:])
    return "".join(parts), _classes(findings)


# --- fields of a write ---------------------------------------------------------------------------------------------

FieldValue = str | list[str] | tuple[str, ...] | None


def _texts(value: FieldValue) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [v for v in value if isinstance(v, str)]


def find_in_fields(fields: dict[str, FieldValue]) -> dict[str, list[str]]:
    """Secret classes per field, for the fields that hold one (a field is a string or a list of strings)."""
    out: dict[str, list[str]] = {}
    for name, value in fields.items():
        classes = list(dict.fromkeys(c for t in _texts(value) for c in find_secrets(t)))
        if classes:
            out[name] = classes
    return out


def secret_details(found: dict[str, list[str]]) -> dict[str, list[str]]:
    """What a refusal says: the classes and the fields, never the values."""
    return {"secret_classes": list(dict.fromkeys(c for cs in found.values() for c in cs)), "secret_fields": list(found)}


def redact_fields(fields: dict[str, FieldValue]) -> tuple[dict[str, FieldValue], list[str]]:
    """Every field with its secrets replaced by `[REDACTED:<class>]` (same shape), and the classes replaced."""
    out: dict[str, FieldValue] = {}
    classes: list[str] = []
    for name, value in fields.items():
        if value is None:
            out[name] = None
            continue
        parts = []
        for t in [value] if isinstance(value, str) else list(value):
            clean, found = redact_secrets(t) if isinstance(t, str) else (t, [])
            parts.append(clean)
            classes.extend(found)
        out[name] = parts[0] if isinstance(value, str) else type(value)(parts)
    return out, list(dict.fromkeys(classes))

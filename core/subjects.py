"""What a statement is about, and whether two statements are about the same thing (SPEC §5.1).

Pure. A statement's subject is read from its content and its title (`slots.analyze`): names (people, teams,
products, identifiers) weigh most, then the other content words; values (dates, counts, times) say what is claimed,
not what it is about, and weigh little or nothing. Two statements are about the same subject when their weighted
terms overlap; terms match when they are the same word after stemming, an abbreviation or spelling variant of it
("prod"/"production"), a short form of it ("retro"/"retrospective"), an acronym of the other's words
("DevRel"/"developer relations", "PR"/"pull request"), a numeronym ("k8s"/"kubernetes") or a near-equal spelling.

`subject_terms` gives the weighted terms `capture` looks candidates up with (through the index);
`compare` tells how much two statements share, which names and qualifiers only one of them has, and on which
qualifier of a shared word they differ ("Atlas staging" / "Orbit staging", "spare car key" / "spare house key").
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from .slots import Analysis, Name, analyze, fold, lexicon, spellings, stem

TITLE_WEIGHT = 0.8
SPELLINGS = 2  # other written forms of a search word looked up with it
SLOT_BONUS = 0.08  # per value slot both statements fill (at most two count)  # a title says what a note is about, in fewer and vaguer words than its content


@dataclass(frozen=True)
class Side:
    """One statement, content and title together."""

    content: Analysis
    title: Analysis | None
    terms: dict[str, float]
    words: frozenset[str]
    names: tuple[Name, ...]
    sequence: tuple[str, ...]  # folded lower-case words in order (content, then title): acronyms are read here
    modifiers: dict[str, frozenset[str]] = field(default_factory=dict)
    numeronyms: frozenset[str] = frozenset()  # terms like "k8s"
    memo: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)  # matches() answers


@functools.lru_cache(maxsize=8192)
def side(text: str, title: str = "") -> Side:
    c = analyze(text)
    t = analyze(title) if title.strip() else None
    terms = dict(c.terms)
    words = set(c.words)
    names = list(c.names)
    seq = [tok.low for tok in c.tokens if tok.kind == "word"]
    modifiers = {k: set(v) for k, v in c.modifiers.items()}
    if t is not None:
        for k, w in t.terms.items():
            terms[k] = max(terms.get(k, 0.0), w * TITLE_WEIGHT)
        words |= t.words
        have = {n.key for n in names}
        # A title's first word is capitalised by convention (and a title-cased title capitalises every word):
        # from a title only names shaped as names ("SRE", "DevEx", "OPS-412", "Noah's") count.
        names += [n for n in t.names if n.key not in have and (_shaped(n.text) or n.possessive)]
        seq += ["."] + [tok.low for tok in t.tokens if tok.kind == "word"]
        for k, v in t.modifiers.items():
            modifiers.setdefault(k, set()).update(v)
    return Side(
        c,
        t,
        terms,
        frozenset(words),
        tuple(names),
        tuple(seq),
        {k: frozenset(v) for k, v in modifiers.items()},
        frozenset(k for k in terms if _NUMERONYM.fullmatch(k)),
    )


def _shaped(text: str) -> bool:
    return bool(re.search(r"[A-Z]{2}|[a-z][A-Z]|\d", text))


def subject_terms(text: str, title: str = "", limit: int = 8) -> list[tuple[str, float]]:
    """The words a statement is about, heaviest first: what candidates are looked up with."""
    s = side(text, title)
    ranked = sorted(s.terms.items(), key=lambda kv: (-kv[1], -len(kv[0]), kv[0]))
    return ranked[:limit]


def search_words(text: str, title: str = "", limit: int = 8) -> list[str]:
    """Index search words for the subject terms: the words as written (the index stems them itself), names first,
    each followed by the other ways the vocabulary writes it ("Prod DB" finds "production database" and the
    reverse), which do not count towards `limit`."""
    s = side(text, title)
    by_stem: dict[str, str] = {}
    for a in (s.content, s.title):
        if a is None:
            continue
        for tok in a.tokens:
            if tok.kind == "word" and tok.stem and tok.stem not in by_stem:
                by_stem[tok.stem] = tok.low
    out: list[str] = []
    others: list[str] = []
    for term, _w in subject_terms(text, title, limit=limit * 2):
        word = by_stem.get(term, term)
        for part in re.split(r"[-/'&.+#]", word):
            if len(part) >= 2 and part not in out and len(out) < limit:
                out.append(part)
                others += spellings(part)[:SPELLINGS]
        if len(out) >= limit:
            break
    # (a word with a derivation's ending is looked up in its root's other forms too: "dental" finds "dentist")
    derived = [d for w in out for d in derivations(w)]
    return out + [w for w in dict.fromkeys(others + derived) if w not in out]


@functools.lru_cache(maxsize=4096)
def derivations(word: str) -> tuple[str, ...]:
    """The other words of `word`'s root, when it ends in one of `[vocabulary] derivations` after a root of at least
    four letters: "dental" -> "dentist", "dentic", ...; "allergy" -> "allergic", "allergist", .... Most are no
    words at all, and find nothing."""
    ends = lexicon().derivations
    for end in sorted(ends, key=len, reverse=True):
        if word.endswith(end) and len(word) - len(end) >= 4:
            root = word[: -len(end)]
            return tuple(root + e for e in sorted(ends) if e != end)
    return ()


# ---------------------------------------------------------------------------------------------------------------------
# Term matching
# ---------------------------------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=65536)
def _near(a: str, b: str) -> bool:
    """Two stems name the same thing: equal, a short form of the other, or a near-equal spelling."""
    if a == b:
        return True
    if not (a.isalpha() and b.isalpha()):
        return False
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 4 and long_.startswith(short) and len(long_) - len(short) <= 8:
        return True
    if one_root(a, b):
        return True  # "dentist" / "dental", "allergy" / "allergic"
    # (A first letter replaced makes another word, not a slip: "maternal" / "paternal", "hosting" / "posting".)
    return len(short) >= 6 and not (len(a) == len(b) and a[0] != b[0]) and _one_edit(a, b)


def one_root(a: str, b: str) -> bool:
    """Two words of one root (four letters or more) and two endings of `[vocabulary] derivations`: "therapy" /
    "therapist". (A word and a longer one that starts with it are `_near`'s.)"""
    if a[:4] != b[:4] or a == b:
        return False
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    ends = lexicon().derivations
    # (the root may end before the common letters do: "economics" / "economist" share "economi", root "econom")
    return any(a[i:] in ends and b[i:] in ends for i in range(4, k + 1))


def same_term(a: str, b: str) -> bool:
    """Two stems name the same thing (`_near`): what one word of a statement is matched with in the other."""
    return _near(a, b)


def _one_edit(a: str, b: str) -> bool:
    """Levenshtein distance at most 1: equal, one character replaced, or one inserted. (The test this replaced,
    rapidfuzz's distance, cost a capture ~10 ms to import; a test compares the two.)"""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


_NUMERONYM = re.compile(r"([a-z])(\d+)([a-z])")


def _numeronym(short: str, long_: str) -> bool:
    m = _NUMERONYM.fullmatch(short)
    if m is None:
        return False
    return len(long_) == int(m.group(2)) + 2 and long_[0] == m.group(1) and long_[-1] == m.group(3)


def _acronym_of(word: str, text: str, seq: tuple[str, ...]) -> bool:
    """`word` (as written) abbreviates consecutive words of `seq`: "PR" -> pull request, "SRE" -> site reliability
    engineering, "DevRel" -> developer relations."""
    return _acronym_window(text, seq) is not None


def _acronym_window(text: str, seq: tuple[str, ...]) -> tuple[str, ...] | None:
    """The consecutive words of `seq` that `text` abbreviates, or None."""
    if re.fullmatch(r"[A-Z]{2,6}s?", text):
        parts = list(text.rstrip("s").lower())
    elif re.fullmatch(r"(?:[A-Z][a-z]+){2,4}", text):
        parts = [p.lower() for p in re.findall(r"[A-Z][a-z]+", text)]
    else:
        return None
    k = len(parts)
    for i in range(len(seq) - k + 1):
        window = seq[i : i + k]
        if all(w.startswith(p) and w != p for w, p in zip(window, parts, strict=True)):
            return window
    return None


def _spelled_out(x: Side, y: Side, acronyms: list[Name]) -> tuple[set[str], set[str]]:
    """Terms of `x` that are acronyms of words of `y` ("RCs" / "release candidates"), and the terms of `y` those
    words are: each side's words for one thing. `acronyms`: the names of `x` `_name_match` found to be one."""
    mine: set[str] = set()
    theirs: set[str] = set()
    for n in acronyms:
        compact = n.text.replace(" ", "").replace("'s", "")
        window = _acronym_window(compact, y.sequence)
        if window is None:
            continue
        forms = {*n.words, stem(compact), stem(compact.removesuffix("s"))}  # "RCs": rc
        mine |= {t for t in forms if t in x.terms}
        theirs |= {t for t in (stem(w) for w in window) if t in y.terms}
    return mine, theirs


def _abbrev_words(word: str) -> tuple[str, ...]:
    exp = lexicon().abbreviations.get(word)
    return tuple(exp.split()) if exp else ()


def matches(term: str, other: Side) -> bool:
    """A subject term of one statement is a subject term of the other (in any of the forms above). A word the other
    uses only inside a value ("once a week") does not count."""
    if term in other.terms:
        return True
    got = other.memo.get(term)
    if got is None:
        got = (
            any(_near(term, t) for t in other.terms)
            or any(_numeronym(t, term) for t in other.numeronyms)
            or (bool(_NUMERONYM.fullmatch(term)) and any(_numeronym(term, t) for t in other.terms))
        )
        other.memo[term] = got
    return got


def name_matched(name: Name, other: Side) -> bool:
    return _name_match(name, other) is not None


def _name_match(name: Name, other: Side) -> str | None:
    """A name of one statement is in the other: all its words ("Sofia Rossi"), a name of the other that contains it
    or that it contains ("Acme" / "Acme Corp", not "Project Falcon" / "Project Heron"), or an acronym either way
    ("DevEx" / "Developer Experience")."""
    words = set(name.words)

    def said(w: str) -> bool:
        return (
            w in other.words
            or w in other.terms
            or (len(w) >= 4 and any(_near(w, t) for t in other.terms))
            or any(_numeronym(w, t) or _numeronym(t, w) for t in other.terms)
        )

    if all(said(w) for w in words):
        return "words"
    for n in other.names:
        theirs = set(n.words)
        if words & theirs and (words <= theirs or theirs <= words):
            return "part"
    compact = name.text.replace(" ", "").replace("'s", "")
    if _acronym_of(compact, compact, other.sequence):
        return "acronym"
    own_seq = tuple(fold(w).lower() for w in name.key.split())
    for n in other.names:
        c = n.text.replace(" ", "").replace("'s", "")
        if _acronym_of(c, c, own_seq):
            return "acronym"
    exp = _abbrev_words(name.key)
    if exp and all(any(_near(stem(e), t) for t in other.terms) for e in exp):
        return "acronym"
    return None


def _slots(s: Side) -> set[str]:
    out = set()
    for v in s.content.values:
        if v.kind in ("time", "daypart", "weekday"):
            out.add("when")
        elif v.kind in ("enum", "quantity", "duration", "date", "address"):
            out.add(f"{v.kind}:{v.key.split('/')[0] if v.kind != 'quantity' else v.key}")
        else:
            out.add(v.kind)
    return out


# ---------------------------------------------------------------------------------------------------------------------
# Comparing two statements
# ---------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SubjectMatch:
    score: float  # weighted share of what the two say they are about, in [0, 1]
    shared: tuple[str, ...]  # stems both have
    only_a_names: tuple[Name, ...]  # names only the first statement has
    only_b_names: tuple[Name, ...]
    qualifiers: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]  # (shared head, qualifiers of a, of b)
    shared_weight: float
    spelled: frozenset[str] = frozenset()  # terms matched as an acronym and the words it abbreviates


def _after(word: str, shared: frozenset[str], s: Side) -> bool:
    """`word` stands after every word of its group that both statements have, and qualifies none of them."""
    return (
        bool(shared)
        and shared <= s.modifiers.get(word, frozenset())
        and not any(word in s.modifiers.get(w, frozenset()) for w in shared)
    )


def compare(a: Side, b: Side, drop: frozenset[str] = frozenset()) -> SubjectMatch:
    """How much `a` and `b` share. Terms in `drop` (the words of values the two statements claim differently) are
    left out on both sides: they say what is claimed, not what it is claimed about."""
    shared: list[str] = []
    terms_a = {t: w for t, w in a.terms.items() if t not in drop}
    terms_b = {t: w for t, w in b.terms.items() if t not in drop}
    wa = sum(terms_a.values()) or 1.0
    wb = sum(terms_b.values()) or 1.0
    how_a = {n: _name_match(n, b) for n in a.names}
    how_b = {n: _name_match(n, a) for n in b.names}
    # an acronym on one side and the words it abbreviates on the other are one thing said two ways
    acr_a, spelled_b = _spelled_out(a, b, [n for n, m in how_a.items() if m == "acronym"])
    acr_b, spelled_a = _spelled_out(b, a, [n for n, m in how_b.items() if m == "acronym"])
    known_a, known_b = acr_a | spelled_a, acr_b | spelled_b
    got_a = 0.0
    for t, w in terms_a.items():
        if matches(t, b) or t in known_a:
            got_a += w
            shared.append(t)
    got_b = sum(w for t, w in terms_b.items() if matches(t, a) or t in known_b)
    score = (got_a + got_b) / (wa + wb)
    only_a = tuple(n for n in a.names if not n.negated and how_a[n] is None)
    only_b = tuple(n for n in b.names if not n.negated and how_b[n] is None)
    # Slots both statements fill (a log level, a clock time, a count of engineers) are evidence of one subject.
    common = _slots(a) & _slots(b)
    score = min(1.0, score + SLOT_BONUS * min(2, len(common)))
    # Words of a name the other statement also has (or abbreviates) are not qualifiers of their own.
    matched_names = {
        w
        for how, other in ((how_a, b), (how_b, a))
        for n, m in how.items()
        if m
        for w in n.words
        if m == "acronym" or w in other.words or w in other.terms
    }
    quals: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    own = lexicon().own
    for head in set(a.modifiers) & set(b.modifiers):
        if head not in shared and head not in b.terms:
            continue
        qa = [m for m in a.modifiers[head] if not matches(m, b) and m not in b.words and m not in matched_names]
        qb = [m for m in b.modifiers[head] if not matches(m, a) and m not in a.words and m not in matched_names]
        # A word after every word the two groups share, where the other group has no word but its owner, is the
        # group's own head noun, not a qualifier ("The car insurance policy renews" / "User's car insurance
        # renews": "policy" names what "car insurance" is)
        both = (a.modifiers[head] - set(qa)) & (b.modifiers[head] - set(qb))
        qa, qb = (
            [m for m in qa if not (set(qb) <= own and _after(m, both, a))],
            [m for m in qb if not (set(qa) <= own and _after(m, both, b))],
        )
        if set(qa) <= own and set(qb) <= own:
            continue  # "the family dog" / "the user's dog": one owner
        # (Beside a name both give, the memory's own person says whose, against any other qualifier: "User's friend
        # Tom Ashby" / "Tom Ashby, an old uni friend" qualify "friend" two ways that do not differ. Without one,
        # "the allotment rent" / "User's rent" are two rents.)
        if matched_names - own:
            qa, qb = [m for m in qa if m not in own], [m for m in qb if m not in own]
        if qa and qb:
            quals.append((head, tuple(sorted(qa)), tuple(sorted(qb))))
    return SubjectMatch(
        score=round(score, 4),
        shared=tuple(sorted(shared)),
        only_a_names=only_a,
        only_b_names=only_b,
        qualifiers=tuple(sorted(quals)),
        shared_weight=round(got_a, 3),
        spelled=frozenset(known_a | known_b),
    )

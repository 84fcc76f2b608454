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
from collections.abc import Iterable
from dataclasses import dataclass, field

from .memo import READ_CHARS, text_cache
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
    # Indexes of the terms, names and word sequence, built on first use (`_Lookup`): a long note has thousands of
    # terms, and testing each word of the other statement against every one took time quadratic in their lengths.
    lookup: dict[str, _Lookup] = field(default_factory=dict, compare=False, repr=False)


def _attribution(c: Analysis) -> set[int]:
    """The token indices of a source the statement names for itself, from a lead of `[hedges] attribution` to the
    end of its clause ("According to Alice, …", "Per the runbook, …", "…, per finance."): who said it is not what it
    is about, and two statements that name one source ("According to Alice, the deploy window is 2 hours" /
    "According to Alice, the code freeze lasts 3 days") shared it as a subject. A lead of one word counts only at
    the start of its sentence or after a comma ("two per day" is no source)."""
    toks = c.tokens
    leads = lexicon().attribution
    firsts = {p[0] for p in leads}
    out: set[int] = set()
    for k, t in enumerate(toks):
        if t.low not in firsts:  # (a long note's every token was sliced against every lead)
            continue
        opens = t.initial or (k and toks[k - 1].text == ",")
        lead = next((p for p in leads if tuple(x.low for x in toks[k : k + len(p)]) == p), None)
        if lead is None or (len(lead) == 1 and not opens):
            continue
        j = k + len(lead)
        while j < len(toks) and toks[j].sent == t.sent and toks[j].text not in (",", ";", "."):
            j += 1
        out.update(range(k, j))
    return out


@text_cache(maxsize=8192, max_chars=READ_CHARS)
def side(text: str, title: str = "") -> Side:
    c = analyze(text)
    t = analyze(title) if title.strip() else None
    terms = dict(c.terms)
    names = list(c.names[:NAMES_READ])
    said = _attribution(c)
    if said:
        inside = {tok.stem or tok.low for tok in c.tokens if tok.i in said}
        outside = {tok.stem or tok.low for tok in c.tokens if tok.i not in said}
        for k in inside - outside:
            terms.pop(k, None)
        names = [nm for nm in names if nm.start not in said]
    words = set(c.words)
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


INDEXED = 32  # terms, names or words from which a side's lookups go through `_Lookup` instead of a scan
# The names of a statement that are matched, at most (in the order it says them). Each name of one side is matched
# against the other side: a base64 blob or a log pasted into a note reads as thousands of capitalised "names", and
# a capture beside such a note, read claim by claim, matched them once per claim (40 s for one capture). Prose
# says a few: the most in a statement of the labelled sets (2,650 texts) is 10.
NAMES_READ = 128


class _Near:
    """Words indexed for `_near`: by their first four letters (a short form and a word of one root share them) and,
    from six letters, by themselves and each form with one letter deleted (two words one edit apart share one).
    `candidates(word)` is a superset of the words `_near` matches with `word` (but itself); `_near` decides."""

    def __init__(self, words: Iterable[str]) -> None:
        self.by_head: dict[str, list[str]] = {}
        self.by_deletion: dict[str, list[str]] = {}
        for w in words:
            if not w.isalpha():
                continue  # (`_near` matches a word with a digit or a mark only with itself)
            self.by_head.setdefault(w[:4], []).append(w)
            if len(w) >= 6:
                for k in _deletions(w):
                    self.by_deletion.setdefault(k, []).append(w)

    def candidates(self, word: str) -> list[str]:
        if not word.isalpha():
            return []
        out = list(self.by_head.get(word[:4], ()))
        if len(word) >= 6:
            for k in _deletions(word):
                out += self.by_deletion.get(k, ())
        return out


def _deletions(word: str) -> set[str]:
    return {word, *(word[:i] + word[i + 1 :] for i in range(len(word)))}


class _Lookup:
    """A side's terms, names and words indexed for the tests `matches` and `_name_match` make of the other
    statement's words, so that comparing a long note is not every term of one statement against every term of the
    other. Each index only narrows down where to look: the test made of what it finds is the scan's test, and
    `_name_match` still returns the first answer of the scan. Each is built when first asked for."""

    def __init__(self, s: Side) -> None:
        self.side = s

    @functools.cached_property
    def terms(self) -> _Near:
        return _Near(self.side.terms)

    @functools.cached_property
    def name_words(self) -> frozenset[str]:
        return frozenset(w for n in self.side.names for w in n.words)

    @functools.cached_property
    def near_name_words(self) -> _Near:
        return _Near(self.name_words)

    @functools.cached_property
    def names_by_word(self) -> dict[str, list[Name]]:
        out: dict[str, list[Name]] = {}
        for n in self.side.names:
            for w in dict.fromkeys(n.words):
                out.setdefault(w, []).append(n)
        return out

    @functools.cached_property
    def positions(self) -> dict[str, list[int]]:
        """Where each first letter opens a word of the sequence, in order."""
        out: dict[str, list[int]] = {}
        for i, w in enumerate(self.side.sequence):
            out.setdefault(w[:1], []).append(i)
        return out

    @functools.cached_property
    def by_shape(self) -> dict[tuple[str, str, int], list[str]]:
        """The side's terms by (first letter, last letter, length): the words a numeronym ("k8s") may stand for."""
        out: dict[tuple[str, str, int], list[str]] = {}
        for t in self.side.terms:
            if t:
                out.setdefault((t[0], t[-1], len(t)), []).append(t)
        return out

    @functools.cached_property
    def numeronym_shapes(self) -> frozenset[tuple[str, str, int]]:
        """The (first letter, last letter, length) of the words the side's numeronyms may stand for."""
        return frozenset(k for n in self.side.numeronyms if (k := _shape_of(n)) is not None)

    @functools.cached_property
    def acronyms(self) -> list[tuple[int, str]]:
        """The side's names written as acronyms ("SRE", "DevRel"), compacted, each with its number of parts, in
        order."""
        compact = (n.text.replace(" ", "").replace("'s", "") for n in self.side.names)
        return [(len(parts), c) for c in compact if (parts := _acronym_parts(c)) is not None]


def _lookup(s: Side) -> _Lookup:
    got = s.lookup.get("")
    if got is None:
        got = s.lookup[""] = _Lookup(s)
    return got


def _near_any(term: str, s: Side) -> bool:
    """`_near(term, t)` for some term t of `s`."""
    if len(s.terms) < INDEXED:
        return any(_near(term, t) for t in s.terms)
    return term in s.terms or any(_near(term, t) for t in _lookup(s).terms.candidates(term))


def _much_longer(x: Side, other: Side) -> bool:
    """`x` has so many more terms and names than `other` that testing each of its own against `other` costs more
    than finding, through `x`'s indexes, which of its own each of `other`'s matches (`_near` is symmetric)."""
    size = len(x.terms) + len(x.names)
    return size >= INDEXED and size > 4 * (len(other.terms) + len(other.names) + 1)


def _matching_terms(x: Side, other: Side) -> set[str] | None:
    """The terms t of `x` for which `matches(t, other)`, found from `other`'s terms when `x` is much the longer
    (`_much_longer`); None when testing each term of `x` (`matches`) is as cheap."""
    if not _much_longer(x, other):
        return None
    near = _lookup(x).terms
    hits = {t for t in other.terms if t in x.terms}
    for t in other.terms:
        hits.update(u for u in near.candidates(t) if _near(t, u))
    for n in other.numeronyms:
        hits.update(_lookup(x).by_shape.get(_shape_of(n) or ("", "", 0), ()))
    hits.update(u for u in x.numeronyms if _stands_for_a_term(u, other))
    return hits


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


def _shape_of(short: str) -> tuple[str, str, int] | None:
    """The (first letter, last letter, length) of the words the numeronym `short` may stand for, or None."""
    m = _NUMERONYM.fullmatch(short)
    return None if m is None else (m.group(1), m.group(3), int(m.group(2)) + 2)


def _stands_for_a_term(short: str, s: Side) -> bool:
    """`short` is a numeronym of a term of `s` (`_numeronym(short, t)` for some t), through `s`'s index of its terms'
    shapes: a paste of thousands of numeronym-shaped words ("w123x") made the scan of every term a square."""
    shape = _shape_of(short)
    return shape is not None and shape in _lookup(s).by_shape


def _a_numeronym_of(word: str, s: Side) -> bool:
    """A numeronym of `s` stands for `word` (`_numeronym(n, word)` for some n of `s.numeronyms`)."""
    return bool(word) and bool(s.numeronyms) and (word[0], word[-1], len(word)) in _lookup(s).numeronym_shapes


def _numeronym(short: str, long_: str) -> bool:
    m = _NUMERONYM.fullmatch(short)
    if m is None:
        return False
    return len(long_) == int(m.group(2)) + 2 and long_[0] == m.group(1) and long_[-1] == m.group(3)


@functools.lru_cache(maxsize=16384)
def _acronym_parts(text: str) -> tuple[str, ...] | None:
    """The parts of an acronym as written ("SRE": s, r, e; "DevRel": dev, rel), or None when `text` is none."""
    if re.fullmatch(r"[A-Z]{2,6}s?", text):
        return tuple(text.rstrip("s").lower())
    if re.fullmatch(r"(?:[A-Z][a-z]+){2,4}", text):
        return tuple(p.lower() for p in re.findall(r"[A-Z][a-z]+", text))
    return None


def _acronym_window(text: str, seq: tuple[str, ...], starts: list[int] | None = None) -> tuple[str, ...] | None:
    """The consecutive words of `seq` that `text` abbreviates, or None. `starts`: the positions in `seq` of the
    words that open with the acronym's first letter, when known (`_Lookup.positions`), in order."""
    parts = _acronym_parts(text)
    if parts is None:
        return None
    k = len(parts)
    for i in range(len(seq) - k + 1) if starts is None else starts:
        window = seq[i : i + k]
        if len(window) == k and all(w.startswith(p) and w != p for w, p in zip(window, parts, strict=True)):
            return window
    return None


def acronym_window(text: str, s: Side) -> tuple[str, ...] | None:
    """The consecutive words of `s` the acronym `text` abbreviates ("EM": engineering, manager), or None."""
    return _side_window(text, s)


def _side_window(text: str, s: Side) -> tuple[str, ...] | None:
    """`_acronym_window(text, s.sequence)`, through the side's index of first letters when it is long. An acronym
    the vocabulary spells out ("QA": quality assurance, "PR": pull request) abbreviates those words only, not
    others that open with its letters ("quarterly audits", "press releases")."""
    if len(s.sequence) < INDEXED or not text:
        window = _acronym_window(text, s.sequence)
    else:
        window = _acronym_window(text, s.sequence, _lookup(s).positions.get(text[:1].lower(), []))
    if window is not None:
        spelled = lexicon().abbreviations.get(text.lower()) or lexicon().abbreviations.get(
            text.lower().removesuffix("s")
        )
        if spelled and [stem(w) for w in spelled.split()] != [stem(w) for w in window]:
            return None
    return window


def _spelled_out(x: Side, y: Side, acronyms: list[Name]) -> tuple[set[str], set[str]]:
    """Terms of `x` that are acronyms of words of `y` ("RCs" / "release candidates"), and the terms of `y` those
    words are: each side's words for one thing. `acronyms`: the names of `x` `_name_match` found to be one."""
    mine: set[str] = set()
    theirs: set[str] = set()
    for n in acronyms:
        compact = n.text.replace(" ", "").replace("'s", "")
        window = _side_window(compact, y)
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
        got = _near_any(term, other) or _a_numeronym_of(term, other) or _stands_for_a_term(term, other)
        other.memo[term] = got
    return got


def name_matched(name: Name, other: Side) -> bool:
    return _name_match(name, other) is not None


def _name_match(
    name: Name, other: Side, said_words: frozenset[str] | None = None, parts: frozenset[Name] | None = None
) -> str | None:
    """A name of one statement is in the other: all its words ("Sofia Rossi"), a name of the other that contains it
    or that it contains ("Acme" / "Acme Corp", not "Project Falcon" / "Project Heron"), or an acronym either way
    ("DevEx" / "Developer Experience"). `said_words`, `parts`: which words of the names of `name`'s side `other`
    says, and which of those names are a part of one of `other`'s or contain one, when known (`_name_matches`)."""
    words = set(name.words)

    def said(w: str) -> bool:
        if said_words is not None:
            return w in said_words
        return (
            w in other.words
            or w in other.terms
            or (len(w) >= 4 and _near_any(w, other))
            # (a numeronym is a term `side` lists in `numeronyms`: "k8s" / "kubernetes", either way round)
            or _stands_for_a_term(w, other)
            or _a_numeronym_of(w, other)
        )

    if all(said(w) for w in words):
        return "words"
    if parts is not None:
        if name in parts:
            return "part"
    else:
        many = len(other.names) >= INDEXED
        near = (
            [n for w in words for n in _lookup(other).names_by_word.get(w, ())] if many else other.names
        )  # (the names sharing a word with this one: the others cannot be a part of it or hold it)
        for n in near:
            theirs = set(n.words)
            if words & theirs and (words <= theirs or theirs <= words):
                return "part"
    compact = name.text.replace(" ", "").replace("'s", "")
    if _side_window(compact, other) is not None:
        return "acronym"
    acronyms = _lookup(other).acronyms
    if acronyms:
        own_seq = tuple(fold(w).lower() for w in name.key.split())
        for k, c in acronyms:
            if k <= len(own_seq) and _acronym_window(c, own_seq) is not None:  # (k parts abbreviate k words)
                return "acronym"
    exp = _abbrev_words(name.key)
    if exp and all(_near_any(stem(e), other) for e in exp):
        return "acronym"
    return None


def _name_matches(x: Side, other: Side) -> dict[Name, str | None]:
    """`_name_match` of each name of `x` in `other`. When `x` is much the longer (`_much_longer`), which words of
    its names `other` says, and which of its names are a part of one of `other`'s, are found from `other`'s words
    and names through `x`'s indexes, instead of testing each word of `x` against `other`."""
    if not _much_longer(x, other):
        return {n: _name_match(n, other) for n in x.names}
    look = _lookup(x)
    words = look.name_words
    said = {w for w in words if w in other.words or w in other.terms}
    for t in other.terms:
        said.update(u for u in look.near_name_words.candidates(t) if len(u) >= 4 and _near(u, t))
    said.update(w for w in words if _stands_for_a_term(w, other))
    for short in other.numeronyms:
        said.update(w for w in words if _numeronym(short, w))
    parts: set[Name] = set()
    for m in other.names:
        theirs = set(m.words)
        for w in theirs:
            for n in look.names_by_word.get(w, ()):
                mine = set(n.words)
                if mine <= theirs or theirs <= mine:
                    parts.add(n)
    said_words, part_names = frozenset(said), frozenset(parts)
    return {n: _name_match(n, other, said_words, part_names) for n in x.names}


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


def _nested(m: str, head: str, x: Side, other: Side) -> bool:
    """`m` qualifies a nearer word of `head`'s phrase that `other` has too: it is that word's qualifier, compared
    there, not one of `head` ("The Ferrous HTTP client timeout" / "Ferrous client: request timeout": "HTTP" says
    which client; "request" is no rival of it)."""
    return any(
        w != m and m in x.modifiers.get(w, frozenset()) and (w in other.modifiers or w in other.terms)
        for w in x.modifiers[head]
    )


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
    how_a = _name_matches(a, b)
    how_b = _name_matches(b, a)
    # an acronym on one side and the words it abbreviates on the other are one thing said two ways
    acr_a, spelled_b = _spelled_out(a, b, [n for n, m in how_a.items() if m == "acronym"])
    acr_b, spelled_a = _spelled_out(b, a, [n for n, m in how_b.items() if m == "acronym"])
    known_a, known_b = acr_a | spelled_a, acr_b | spelled_b
    hits_a, hits_b = _matching_terms(a, b), _matching_terms(b, a)
    got_a = 0.0
    for t, w in terms_a.items():
        if (t in hits_a if hits_a is not None else matches(t, b)) or t in known_a:
            got_a += w
            shared.append(t)
    got_b = sum(w for t, w in terms_b.items() if (t in hits_b if hits_b is not None else matches(t, a)) or t in known_b)
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

    def said_in(m: str, x: Side, hits: set[str] | None, other: Side) -> bool:
        """`matches(m, other)` for a qualifier `m` of `x` (from `hits` when it is a term of `x` they were found for)."""
        return m in hits if hits is not None and m in x.terms else matches(m, other)

    for head in set(a.modifiers) & set(b.modifiers):
        if head not in shared and head not in b.terms:
            continue
        qa = [
            m
            for m in a.modifiers[head]
            if not said_in(m, a, hits_a, b)
            and m not in b.words
            and m not in matched_names
            and not _nested(m, head, a, b)
        ]
        qb = [
            m
            for m in b.modifiers[head]
            if not said_in(m, b, hits_b, a)
            and m not in a.words
            and m not in matched_names
            and not _nested(m, head, b, a)
        ]
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

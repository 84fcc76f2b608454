"""A value said to be the only one of its kind: "User drives a Toyota Corolla; it's their only car", "Biscuit is a
patient at Abbeyfield Veterinary Practice, the only vet they use", "mailed to sec-team@ferrous.io; that is the one
monitored address".

Against another value of that kind for the same thing ("User's car is a Skoda Octavia", "Biscuit is registered at
Greenway Vets", "Security reports for Ferrous go to security@ferrous.dev"), the two are two answers, though the
statements may share few words. `clash(a, b)` finds such a pair of values.

The cue words are in the data file (`[exclusive]`): before the words they bind ("only", "sole", "the one"), after
them ("economy only", "Aiko Tanaka alone"), or a phrase that binds none ("nothing else", "no other"). An "only" that
limits a time, a condition or an amount ("only if", "only after", "only a few") binds no value.

What ties the two: the word the cue makes exclusive, in the other statement too ("their only car" / "User's car"),
or, for two values of one slot (two email addresses, two members of one value class, two places), a name both give
("Ferrous"). Two names need the word: a name both give is not enough ("Pepper is fed only Harringtons kibble" says
nothing against "Pepper's vet is Greenway Vets"). Names in what each statement is about, before its first verb, are
its subject, not its value; when each names a subject the other does not ("Ana's only car is a Tesla" / "Tom's car
is a Skoda"), the two are about two things.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..slots import Analysis, Name, lexicon
from ..slots.tokens import is_function, match_any
from .agreement import live, slot_of, value_agrees
from .frame import subject_end

TYPED = frozenset({"address", "enum", "place"})  # value kinds whose slot says what kind of thing the value is


@dataclass(frozen=True)
class Cue:
    sent: int  # the sentence it is in
    head: str  # stem of the word it makes exclusive ("car" of "their only car"); "" for a phrase or a name
    bound: frozenset[int] = frozenset()  # the words it binds ("Harringtons kibble" of "only Harringtons kibble")


def cues(a: Analysis) -> list[Cue]:
    """Where `a` says a value is the only one, and of what. Read once per analysis (a long note is met by many
    statements, and reading it again for each cost time linear in its length every time)."""
    found = a.derived.get("exclusive_cues")
    if found is None:
        found = a.derived["exclusive_cues"] = _read_cues(a)
    return found


def _read_cues(a: Analysis) -> list[Cue]:
    lex = lexicon()
    toks = list(a.tokens)
    named = {k for n in a.names for k in range(n.start, n.start + len(n.words))}

    def cue(sent: int, scope: list[int], head: int) -> Cue:
        # (a name names no kind: "only Marco knows" binds Marco, and says nothing of what kind of thing he is)
        return Cue(sent, "" if head in named else toks[head].stem, frozenset(scope))

    out: list[Cue] = []
    for i, t in enumerate(toks):
        if t.kind != "word":
            continue
        if match_any(toks, i, lex.exclusive_phrases):
            out.append(Cue(t.sent, ""))
            continue
        prev = toks[i - 1] if i else None
        nxt = toks[i + 1] if i + 1 < len(toks) else None
        before = t.low in lex.exclusive_before or (
            t.low in lex.exclusive_the_before and prev is not None and prev.low == "the"
        )
        # (after a determiner or a possessive, a noun follows: "their only car", "the user's only car"; elsewhere
        # only a name it binds is a value: "is fed only Harringtons kibble", not "Ruth only reviewed it")
        if (
            before
            and prev is not None
            and prev.low not in lex.exclusive_not_prev
            and nxt is not None
            and nxt.kind == "word"
            and nxt.low not in lex.exclusive_not_next
            and (prev.low in lex.determiners or prev.low.endswith("'s") or nxt.text[:1].isupper())
        ):
            scope = _run(toks, i, +1)
            if scope:
                out.append(cue(t.sent, scope, max(scope)))
                continue
        ends = nxt is None or nxt.kind == "punct" or nxt.sent != t.sent
        if t.low in lex.exclusive_after and ends and prev is not None and prev.kind == "word":
            scope = _run(toks, i, -1)
            if scope:
                out.append(cue(t.sent, scope, i - 1))
    return out


def _run(toks: list, i: int, step: int) -> list[int]:
    """The content words next to token i in one direction, in its clause, up to a function word or a mark."""
    out = []
    j = i + step
    while 0 <= j < len(toks):
        t = toks[j]
        if t.kind != "word" or t.clause != toks[i].clause or is_function(t.low):
            break
        out.append(j)
        j += step
    return out


def clash(a: Analysis, b: Analysis, about_one: bool) -> tuple[str, str, bool] | None:
    """Two values of one kind for one thing, one said to be the only one: (a's value, b's value, tied by the word
    made exclusive), or None. The newer statement's cue is read first. `about_one`: the two share enough words to be
    about one thing, which a word qualified differently needs ("economy only" / "Premium economy is allowed"; not
    "Secrets in the CI vault: security team only" / "Module registry: run by the platform team")."""
    found = _clash(b, a, about_one)
    if found is not None:
        return found[1], found[0], found[2]
    return _clash(a, b, about_one)


def _clash(e: Analysis, o: Analysis, about_one: bool) -> tuple[str, str, bool] | None:
    cs = cues(e)
    if not cs:
        return None
    own = lexicon().own
    end_e, end_o = subject_end(e), subject_end(o)

    def subject(n: Name) -> bool:
        return not n.initial and not set(n.words) & own

    def usable(n: Name) -> bool:  # a name that may be a value: not an owner's
        return subject(n) and not n.possessive

    def lead(start: int, end: int | None) -> bool:
        return start < end if end is not None else start == 0

    keys_e, keys_o = {n.key for n in e.names}, {n.key for n in o.names}
    words_e = {w for n in e.names for w in n.words}
    words_o = {w for n in o.names for w in n.words}
    # each names, in what it is about, a thing the other does not: two subjects
    # (whose a thing is, too: "Ana's only car" / "Tom's car")
    if any(subject(n) and lead(n.start, end_e) and n.key not in keys_o for n in e.names) and any(
        subject(n) and lead(n.start, end_o) and n.key not in keys_e for n in o.names
    ):
        return None
    shared = {k for k in keys_e & keys_o if not set(k.split()) & own}
    stems_o = {t.stem for t in o.tokens if t.kind == "word"}
    for c in cs:
        by_head = bool(c.head) and c.head in stems_o
        if not (by_head or shared):
            continue
        # (the names it binds, if it binds any: "only Marco knows how the Tessera export works" says nothing of
        # Tessera against another project; else the names of its sentence, "a Toyota Corolla, their only car")
        bound = [n for n in e.names if usable(n) and c.bound & set(range(n.start, n.start + len(n.words)))]
        mine = [
            n
            for n in bound
            or [x for x in e.names if usable(x) and e.tokens[x.start].sent == c.sent and not lead(x.start, end_e)]
            if not set(n.words) & words_o
        ]
        theirs = [n for n in o.names if usable(n) and not lead(n.start, end_o) and not set(n.words) & words_e]
        if by_head and mine and theirs:
            return mine[0].text, theirs[0].text, by_head
        for x in live(e.values):
            if x.kind not in TYPED or e.tokens[x.start].sent != c.sent or lead(x.start, end_e):
                continue
            ys = [y for y in live(o.values) if slot_of(y) == slot_of(x) and not lead(y.start, end_o)]
            if ys and not value_agrees(x, ys):
                return x.text, ys[0].text, by_head
        # the word made exclusive, qualified otherwise on the other side: "rebase merges only" / "squash merges",
        # "economy only" / "premium economy" (not whose it is: "the partner's cycling group")
        kinds_e = _kinds(e, c.head) - own
        # (a word the cue's statement gives too names no other kind: "Our only office is in Leeds" / "The Leeds
        # office has 40 desks")
        kinds_o = _kinds(o, c.head) - own - ({t.stem for t in e.tokens} - kinds_e)
        # (and the two share a word besides it: "team" alone says nothing of whose team does what)
        if by_head and about_one and kinds_o and not kinds_o <= kinds_e and _shared_besides(e, o, c.head):
            return _written(e, c.head, kinds_e), _written(o, c.head, kinds_o), by_head
    return None


def _shared_besides(e: Analysis, o: Analysis, head: str) -> bool:
    """The two share a content word other than `head` and whose a thing is."""

    def content(x: Analysis) -> set[str]:
        return {t.stem for t in x.tokens if t.kind == "word" and not is_function(t.low)}

    return bool((content(e) & content(o)) - {head} - lexicon().own)


def _kinds(x: Analysis, head: str) -> frozenset[str]:
    """The words that qualify `head` in `x`, but a possessive: whose it is says no kind."""
    owners = {t.stem for t in x.tokens if t.kind == "word" and (t.low.endswith("'s") or t.low.endswith("s'"))}
    return x.modifiers.get(head, frozenset()) - owners


def _written(x: Analysis, head: str, kinds: frozenset[str]) -> str:
    """The word `head` with the words before it that qualify it, as written ("rebase merges")."""
    toks = x.tokens
    for i, t in enumerate(toks):
        if t.kind == "word" and t.stem == head:
            j = i
            while j > 0 and toks[j - 1].kind == "word" and toks[j - 1].stem in kinds:
                j -= 1
            return " ".join(u.text for u in toks[j : i + 1])
    return head

"""Polarity and change between two statements: flips, opposite states, change cues, "from X to Y".

- `polarity_flips`: terms one statement negates and the other affirms ("uses X" / "does not use X"), a negative prefix
  against the plain word ("intolerant" / "tolerates"), a negated value the other asserts ("not part of 2.0" /
  "ships in 2.0");
- `state_flips`: two states of one class with opposite poles about the same thing ("up" / "down");
- `new_cues`: change cues the newer statement has and the older one does not;
- `from_matches`: "from X to Y" in the newer statement where X is what the older one says.
"""

from __future__ import annotations

from ..slots import Analysis, Name, State, Value, lexicon, stem
from ..slots.tokens import is_function
from ..subjects import Side
from .agreement import address_agree, loose_equal, slot_of


def whole_stems(a: Analysis) -> set[str]:
    """The stems of whole words and of names' words (not the parts of a hyphenated or slashed word), and the keys
    of settings ("LOG_LEVEL" of "LOG_LEVEL=info")."""
    return (
        {t.stem or stem(t.low) for t in a.tokens if t.kind == "word"}
        | {w for n in a.names for w in n.words}
        | {t.low.partition("=")[0] for t in a.tokens if t.kind == "assign"}
    )


def _salient(term: str) -> bool:
    """A term a negation can be held on: three letters or more, or a short acronym that is a common noun ("no CI",
    "no PR")."""
    return (len(term) >= 3 and not term.isdigit()) or term in lexicon().common_acronyms


def polarity_flips(a: Analysis, b: Analysis) -> list[str]:
    """Terms one statement negates and the other affirms ("uses X" / "does not use X")."""
    out: list[str] = []
    for this, other in ((b, a), (a, b)):
        # A word the other statement has only inside a compound is another word ("not a call" / "on-call duty").
        said = whole_stems(other)
        other_aff = other.affirmed & said
        elsewhere = _other_objects(this, other, other_aff)
        when = {stem(w) for v in this.values for w in v.text.lower().split()}
        for t in sorted(this.negated):
            if not _salient(t) or t in other.negated:
                continue
            if t in this.not_yet and not other.happened:
                continue  # "hasn't shipped yet" / "ships on Friday", "Book flights": planned, not happened
            heads = this.negated_tail.get(t)
            if heads is not None and not any(h in other_aff or any(_same(h, o) for o in other_aff) for h in heads):
                continue  # "no parking at the office" says nothing against the office
            # (a value after the preposition says when, not where: "took the user off metformin in March")
            tails = [w for w, hs in this.negated_tail.items() if t in hs and w not in when]
            if tails and not any(w in said or any(_same(w, o) for o in said) for w in tails):
                continue  # nor against parking the other puts elsewhere ("at the dentist" / "the office has parking")
            if _denied_of_another(this, t, other):
                continue  # "Ana doesn't drink coffee" says nothing against "Ben drinks coffee all day"
            if t in elsewhere:
                continue  # "doesn't eat pork" says nothing against "eats chicken and fish"
            if t in other_aff or any(_same(t, o) for o in other_aff):
                out.append(t)
    for pref, other_aff, own_words in ((b.prefixed, a.affirmed, a.words), (a.prefixed, b.affirmed, b.words)):
        for rest, word in pref.items():
            if word in own_words or stem(word) in other_aff:
                continue
            if rest in other_aff or any(_same_root(rest, o) for o in other_aff):
                out.append(word)

    # What the older statement says stopped, said again by the newer with no change of its own ("User stopped
    # drinking coffee" / "User drinks coffee every morning"): back, or one of the two is wrong.
    if not b.cues:
        out += sorted(t for t in a.retired - b.retired if t in b.affirmed and _salient(t) and t not in out)

    # A light verb that is the whole predicate, denied against the same verb said ("never runs" / "runs a 5k")
    out += sorted((a.bare_denied & b.bare_said) | (b.bare_denied & a.bare_said))

    # A negated value the other side asserts ("not part of 2.0" / "ships in 2.0").
    def same(x: Value, y: Value) -> bool:
        return y.kind == x.kind and (y.val == x.val or (x.kind == "address" and address_agree(x, y)))

    def said_of_other(this: Analysis, x: Value, other: Analysis) -> bool:
        """The negation of `x` is held only where the other statement says the same of what it is said of ("Parking
        is not included in the day rate" says nothing against "The day rate includes lunch")."""
        heads = [this.negated_tail.get(stem(w)) for w in x.text.lower().split() if not w.isdigit()]
        if not heads or any(h is None for h in heads):
            return True
        aff = other.affirmed & whole_stems(other)
        return any(h in aff or any(_same(h, o) for o in aff) for hs in heads if hs for h in hs)

    for xs, ys, other, this in ((b.values, a.values, a, b), (a.values, b.values, b, a)):
        # a value in a clause with a negative state asserts nothing ("closed on Sundays" / "doesn't open on Sundays")
        for x in xs:
            if (
                x.negated
                and said_of_other(this, x, other)
                and any(
                    same(x, y) and not y.negated and y.clause not in other.down and not _before_negation(other, y)
                    for y in ys
                )
                and not any(same(x, y) and y.negated for y in ys)
            ):
                out.append(x.text)
    return sorted(set(out))


def _denied_of_another(this: Analysis, t: str, other: Analysis) -> bool:
    """Every clause of `this` that negates `t` with a verb's negation says it of a name, before the cue, that
    `other` never names ("Orbit will not read from Atlas's replica", "the ReplicaLag alarm never fired in prod",
    "Ana doesn't drink coffee"), while `other` names a thing of its own: a denial of another subject's doing. A
    clause whose subject is no name ("The team no longer uses Jira") is held as before: a common noun may be said
    another way."""
    clauses = [c for c, ts in this.clause_terms.items() if t in ts and c in this.negated_from]
    if not clauses:
        return False
    # (and `other` names a thing of its own: a sentence of a note that names nothing may be about what the note
    # names, "TLS is terminated at the load balancer" of "the Wren service config")
    mine = whole_stems(this)
    if not any(not n.initial and not any(w in mine for w in n.words) for n in other.names):
        return False
    said = whole_stems(other)
    for c in clauses:
        cue = this.negated_from[c]
        names = [n for n in this.names if n.clause == c and n.start < cue and not n.value_like]
        if not names or any(w in said or any(_same(w, o) for o in said) for n in names for w in n.words):
            return False
    return True


_CIRCUMSTANCES = frozenset({"time", "weekday", "daypart", "date", "duration", "frequency"})


def _objects(x: Analysis, verb: str, denied: bool) -> list[list[str]]:
    """What each use of the verb `verb` takes in `x`, denied by a verb's negation (`denied`) or said: the stems of
    the content words right after it in its clause, in order, up to a preposition of context, a value or a mark
    ("doesn't eat pork at home": pork; "calls the search API every minute": search, API; "speaks fluent Spanish":
    fluent, Spanish)."""
    lex = lexicon()
    toks = x.tokens
    # (where a value says when, how often or how long, the object has ended)
    when = {k for v in x.values if v.kind in _CIRCUMSTANCES for k in range(v.start, v.start + len(v.text.split()))}
    out: list[list[str]] = []
    for t in toks:
        if t.kind != "word" or (t.stem or stem(t.low)) != verb:
            continue
        cue = x.negated_from.get(t.clause)
        negated = cue is not None and cue < t.i
        if negated != denied:
            continue
        if cue is not None and negated and not (toks[cue].low in lex.verbal_negation or toks[cue].low.endswith("n't")):
            continue  # a noun's negation ("no parking"): its words are read by `negated_tail`
        got: list[str] = []
        for u in toks[t.i + 1 :]:
            if u.clause != t.clause or u.kind == "punct" or u.low in lex.context_preps or u.i in when:
                break
            if u.kind == "word" and not is_function(u.low):
                got.append(u.stem or stem(u.low))
        out.append(got)
    return out


def _other_objects(this: Analysis, other: Analysis, other_aff: set[str] | frozenset[str]) -> set[str]:
    """The verbs `this` denies of another object than `other` says them of (`_another_object`), with the words of
    the objects denied: none of them is a flip."""
    out: set[str] = set()
    for verb in this.negated & other_aff:
        denied = _objects(this, verb, True)
        if _another_object(this, denied, _objects(other, verb, False), other):
            out.add(verb)
            out.update(w for d in denied for w in d)
    return out


def _another_object(this: Analysis, denied: list[list[str]], said: list[list[str]], other: Analysis) -> bool:
    """`this` denies a verb of an object `other` never names (`denied`: the objects of its denials, `_objects`), and
    `other` says it of objects `this` never names (`said`): "The user doesn't eat pork" / "User eats chicken and
    fish", "Contractors can't access payroll" / "… can access the finance dashboard"; or of one thing qualified two
    ways ("doesn't call the billing API" / "calls the search API"): two objects, not a yes and a no. A denial of
    the verb alone ("never drinks") or of an object both name ("doesn't use feature flags" / "uses feature flags for
    every release"; "doesn't support dark mode" / "supports a dark theme") is held as before."""
    if not denied or not said or not all(denied) or not all(said):
        return False
    words_this, words_other = whole_stems(this), whole_stems(other)

    def named(w: str, where: set[str]) -> bool:
        return w in where or any(_same(w, o) for o in where)

    def another(d: list[str], s: list[str]) -> bool:
        if not any(named(w, words_other) for w in d) and not any(named(w, words_this) for w in s):
            return True
        # one head, each qualified by a word the other statement never says
        return (
            len(d) > 1
            and len(s) > 1
            and _same(d[-1], s[-1])
            and any(not named(w, words_other) for w in d[:-1])
            and any(not named(w, words_this) for w in s[:-1])
        )

    return all(another(d, s) for d in denied for s in said)


def nominal_flips(a: Analysis, b: Analysis) -> list[tuple[str, bool]]:
    """A noun one statement denies, against the state word of the same root the other affirms ("has no allergies"
    / "is allergic to penicillin"): (the denied noun, whether the denial is qualified). A denial with other words
    denied beside the noun ("no food allergies", "no known drug allergies") may be of another kind than the one
    the other statement names; it is qualified, and a person should look."""
    out: list[tuple[str, bool]] = []
    for this, other in ((b, a), (a, b)):
        for t in sorted(this.negated):
            if not _salient(t) or t in other.negated:
                continue
            for st in other.states:
                words = [stem(w) for w in st.text.split()]
                if any(w in other.negated or w in this.negated for w in words):
                    continue  # the other side denies it too ("isn't allergic"), or this side names the state itself
                if any(w != t and _same_root(t, w) for w in words):
                    mine = [ts for ts in this.clause_terms.values() if t in ts]
                    qualified = any(u != t and _salient(u) and any(u in ts for ts in mine) for u in this.negated)
                    out.append((t, qualified))
                    break
    return sorted(set(out))


def _before_negation(a: Analysis, v: Value) -> bool:
    """`v` stands before the cue that negates the verb of its clause ("React components shouldn't use default
    exports"): what the negated predicate is said of, not asserted."""
    return v.start < a.negated_from.get(v.clause, -1)


def _same_root(x: str, y: str) -> bool:
    """Two words of one root: they begin alike for at least 5 letters and 70 % of the shorter ("intolerant" /
    "tolerates" once the prefix is off; "allergies" / "allergic")."""
    return _common_prefix(x, y) >= max(5, 0.7 * min(len(x), len(y)))


def _common_prefix(x: str, y: str) -> int:
    n = 0
    for cx, cy in zip(x, y, strict=False):
        if cx != cy:
            break
        n += 1
    return n


def _same(x: str, y: str) -> bool:
    if x == y:
        return True
    short, long_ = sorted((x, y), key=len)
    return len(short) >= 4 and long_.startswith(short)


def state_flips(a: Analysis, b: Analysis) -> list[tuple[State, State]]:
    """Two states of one class with opposite poles ("up" / "down", "approved" / "rejected") about the same thing:
    their clauses share a word (for verbs like "wants" / "dislikes", their objects do). Pairs (state of `a`, state
    of `b`), in order of their texts."""
    objects = lexicon().object_states
    out: list[tuple[State, State]] = []
    poles_a = [s.poles() for s in a.states]
    poles_b = [s.poles() for s in b.states]
    said_a: dict[str, set[int]] = {}  # per class, the poles `a` gives it
    for pa in poles_a:
        for c, q in pa.items():
            said_a.setdefault(c, set()).add(q)
    # (b's states by class and pole: a state of `a` meets only those at another pole of one of its classes)
    by_class: dict[str, dict[int, list[int]]] = {}
    for k, pb in enumerate(poles_b):
        for c, q in pb.items():
            by_class.setdefault(c, {}).setdefault(q, []).append(k)
    for sa_, pa in zip(a.states, poles_a, strict=True):
        meets = sorted(
            {k for c, q in pa.items() for other, ks in by_class.get(c, {}).items() if other != q for k in ks}
        )
        for k in meets:
            sb_, pb = b.states[k], poles_b[k]
            # A word may belong to more than one class ("open" is a state of progress and of resolution): the two
            # are opposite when some class they share has them at opposite poles.
            opposite = [c for c in pa if c in pb and pa[c] != pb[c]]
            if not opposite:
                continue
            cls = opposite[0]
            if len(said_a[cls]) > 1:
                continue  # one side says both
            if _planned(a, sa_, b) or _planned(b, sb_, a):
                continue  # "isn't signed yet" / "will be signed next week"
            shared = (sa_.after & sb_.after) if cls in objects else (sa_.around & sb_.around)
            if cls in objects and (sa_.universal or sb_.universal) and sa_.around & sb_.around:
                shared = sa_.around & sb_.around  # "isn't allergic to anything" denies it of cats too
            if shared or (cls not in objects and not sa_.around and not sb_.around):
                out.append((sa_, sb_))
    return sorted(set(out), key=lambda p: (p[0].text, p[1].text))


def _planned(x: Analysis, s: State, other: Analysis) -> bool:
    """`s` is negated "so far" in `x` ("isn't signed yet") and `other` says nothing happened."""
    return stem(s.text.split()[-1]) in x.not_yet and not other.happened


def new_cues(a: Analysis, b: Analysis) -> list[str]:
    """The change cues of `b` that `a` does not have (word by word, stemmed)."""
    have = {stem(w) for c in a.cues for w in c.split()}
    return [c for c in b.cues if not all(stem(w) in have for w in c.split())]


def from_matches(b: Analysis, a: Analysis, sa: Side) -> str | None:
    """ "from X to Y" in the newer statement where X is what the older one says."""
    for x, y in b.from_to:
        if isinstance(x, Value):
            if any(
                v.kind == x.kind and (v.val == x.val or slot_of(v) == slot_of(x) and loose_equal(v, x))
                for v in a.values
            ):
                return f"from {x.text} to {getattr(y, 'text', y)}"
        elif isinstance(x, Name):
            if any(w in sa.words for w in x.words):
                return f"from {x.text} to {getattr(y, 'text', y)}"
        elif isinstance(x, str) and (x in sa.terms or x in sa.words):
            return f"from {x} to {getattr(y, 'text', y)}"
    return None

"""One claim put in the same frame two ways: "X is drafted in Notion" / "X is drafted in Confluence".

When the value lists know neither word (they cannot know every product, tool or style), the shape of the two
sentences still says what is claimed: most of the words stand in the same order on both sides, and one short span
of content words takes the place of another. A sentence that adds detail inserts words; a paraphrase reorders
them; a substitution in a shared frame is two answers to one question.

`substitution(a, b)` aligns the two statements' words (stems, so "runs" meets "run") with difflib and returns the
substituted spans when the frame holds: exactly one replaced span with content words on both sides, each at most
`MAX_SPAN` content words, and the words the two share in order at least `FRAME_MIN` of each side. A span with
only function words, negations, hedges or values on either side is no substitution (polarity, hedges and values
are read elsewhere), nor is one whose words occur elsewhere in the other statement (they moved), nor one whose two
sides are the same word written shorter ("Jan" / "January"), nor one of negations or states the polarity reader
compares ("isn't public" / "private").

Also here, from the same reading of a sentence's shape: `complement` ("<S> is <X>" / "<S> is <Y>", two answers to
"what is S" when the two share too few words for a frame), `which_thing` (one frame with a value said of two
things: "We deploy the frontend on Fridays" / "We deploy the backend on Mondays", two facts) and `subject_end`
(where the phrase a statement is about ends)."""

from __future__ import annotations

import difflib
from collections.abc import Callable

from ..slots import Analysis, lexicon
from ..slots.tokens import is_function

FRAME_MIN = 0.5  # the shared words in order, as a share of each side's words
MAX_SPAN = 3  # content words on each side of the substituted span


# Values compared with units, calendars and tolerances (`agreement`): "2 weeks" / "14 days" agree there, and a
# frame must not call them two answers. Names, class members, places and labels are words like any other here.
MEASURED = frozenset({"time", "weekday", "daypart", "date", "duration", "frequency", "quantity", "version"})


def _words(a: Analysis) -> list[tuple[str, str, bool, bool]]:
    """(stem, folded word, whether it is a content word, whether it is part of a measured value) of each token that
    is not punctuation. A content word carries a topic (`is_function`) and is no part of a measured value."""
    from ..slots import lexicon

    particles = lexicon().particles
    measured: set[int] = set()
    for v in a.values:
        if v.kind in MEASURED:
            i = v.start
            while i < len(a.tokens) and a.tokens[i].used:
                measured.add(i)
                i += 1
    return [
        (
            t.stem or t.low,
            t.low,
            t.kind == "word" and k not in measured and not is_function(t.low) and t.low not in particles,
            k in measured,
        )
        for k, t in enumerate(a.tokens)
        if t.kind != "punct"
    ]


def _polar(a: Analysis, span: list[tuple[str, str, bool, bool]]) -> set[str]:
    """What of polarity the span holds: "negation" for a negation cue, and the classes of its state words."""
    from ..slots import lexicon

    neg = lexicon().negation_cues
    words = {w for _s, w, _c, _m in span}
    out = {"negation"} if any(w in neg or w.endswith("n't") for w in words) else set()
    for st in a.states:
        if set(st.text.lower().split()) & words:
            out |= {st.cls} | {c for c, _pole in st.also}
    return out


def _denied(a: Analysis, k: int, polar: set[str]) -> bool:
    """The span at token k is denied: it holds a negation cue, or stands after one in its clause."""
    cue = a.negated_from.get(a.tokens[k].clause)
    return "negation" in polar or (cue is not None and cue < k)


def _same_word(x: str, y: str) -> bool:
    """One word written shorter: an abbreviation that is a prefix of the other ("jan" / "january")."""
    short, long_ = sorted((x, y), key=len)
    return len(short) >= 3 and long_.startswith(short)


def substitution(a: Analysis, b: Analysis) -> tuple[str, str] | None:
    """The span `b` puts where `a` has another, in a frame the two share; None when there is no such frame."""
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return None
    # token index of each word, to tell a span in the phrase a statement is about (before its first verb)
    pos_a = [k for k, t in enumerate(a.tokens) if t.kind != "punct"]
    pos_b = [k for k, t in enumerate(b.tokens) if t.kind != "punct"]
    ea, eb = subject_end(a), subject_end(b)
    sa, sb = [w[0] for w in wa], [w[0] for w in wb]
    ops = difflib.SequenceMatcher(None, sa, sb, autojunk=False).get_opcodes()
    shared = sum(i2 - i1 for op, i1, i2, _j1, _j2 in ops if op == "equal")
    if shared < FRAME_MIN * len(sa) or shared < FRAME_MIN * len(sb):
        return None
    found: tuple[str, str] | None = None
    for op, i1, i2, j1, j2 in ops:
        if op != "replace":
            continue
        ca = [s for s, _w, c, _m in wa[i1:i2] if c]
        cb = [s for s, _w, c, _m in wb[j1:j2] if c]
        if not ca or not cb:
            continue  # a function word or a value traded for another ("via" / "through", "2 weeks" / "14 days")
        if any(m for *_x, m in wa[i1:i2]) or any(m for *_x, m in wb[j1:j2]):
            # the span holds a measured value: the claim is that value, and `agreement` judges it with its
            # tolerances and bounds ("must finish by 06:00" / "usually finishes around 04:30" agree)
            return None
        if set(ca) & set(sb) or set(cb) & set(sa):
            continue  # a word that moved within the sentence, not one put in another's place
        pa, pb = _polar(a, wa[i1:i2]), _polar(b, wb[j1:j2])
        if pa & pb or ("negation" in pa and pb) or ("negation" in pb and pa):
            return None  # states of one class, or a negation against a state ("isn't public" / "private"): `polarity`
        if _denied(a, pos_a[i1], pa) != _denied(b, pos_b[j1], pb):
            # what one denies is no answer to what the other says ("Leo isn't allergic to dogs" / "Leo is allergic
            # to cats"; "The kitchen has no microwave" / "… has a dishwasher"): both may hold
            return None
        if found is not None or len(ca) > MAX_SPAN or len(cb) > MAX_SPAN:
            return None  # two substitutions, or a long one: rewording, not one answer traded for another
        if len(ca) == len(cb) == 1 and _same_word(ca[0], cb[0]):
            continue
        if ea is not None and eb is not None and pos_a[i2 - 1] < ea and pos_b[j2 - 1] < eb:
            return None  # the span says which thing ("the Wi-Fi password" / "the alarm code" is on the fridge)
        if (i2 - i1 == 1 and _verb_at(a, pos_a[i1], ea)) or (j2 - j1 == 1 and _verb_at(b, pos_b[j1], eb)):
            # one verb for another ("prefers tea" / "drinks tea", "targets" / "supports"), or a verb where the other
            # names what it is about ("User banks with X" / "User's mortgage is with X"): not one answer for another
            continue
        if any(len(x) >= 4 and len(y) >= 4 and (x.startswith(y) or y.startswith(x)) for x in ca for y in cb):
            return None  # one word said in another form ("renews in March" / "renewal: early March"): rewording
        found = (" ".join(w[1] for w in wa[i1:i2]), " ".join(w[1] for w in wb[j1:j2]))
    return found


def _verb_at(a: Analysis, k: int, end: int | None) -> bool:
    """The word at token k is the statement's first verb: where its subject phrase ends, or, when no verb the
    lists know ends it, a present form right after a name that opens the sentence ("Wren targets Python")."""
    if end is not None:
        return k == end
    t = a.tokens[k]
    return k == 1 and t.low.endswith("s") and not t.low.endswith("ss") and a.tokens[0].text[:1].isupper()


def _copular(a: Analysis) -> tuple[list[str], list[str], list[str]] | None:
    """(subject stems, complement stems, complement words) of a statement of one sentence built "<subject> is
    <complement>"; None for any other shape, or when the clause holds what other parts compare: a measured value
    (`agreement`, with units and tolerances), a state, a negation or a hedge (`polarity`)."""
    toks = a.tokens
    if len({t.sent for t in toks if t.kind != "punct"}) != 1:
        return None
    words = _words(a)
    ks = [k for k, t in enumerate(toks) if t.kind != "punct"]
    as_copulas = lexicon().as_copulas
    cop = next(
        (
            n
            for n, k in enumerate(ks)
            if toks[k].low in lexicon().copula
            # "works as an electrician": the verb and "as" are the copula
            or (toks[k].low in as_copulas and n + 1 < len(ks) and toks[ks[n + 1]].low == "as")
        ),
        None,
    )
    if not cop:
        return None
    clause = toks[ks[cop]].clause
    if any(st.clause == clause for st in a.states) or a.negated or a.hedged:
        return None  # a state ("in progress", "open") or a negation: `polarity` compares those
    subject = [w[0] for n, w in enumerate(words[:cop]) if w[2] and toks[ks[n]].clause == clause]
    rest = [w for n, w in enumerate(words) if n > cop and toks[ks[n]].clause == clause]
    if any(w[3] for w in rest):
        return None
    comp = [w for w in rest if w[2]]
    if not subject or not comp:
        return None
    return subject, [w[0] for w in comp], [w[1] for w in comp]


def complement(a: Analysis, b: Analysis, same: Callable[[str, str], bool]) -> tuple[str, str] | None:
    """The two answers of "<S> is <X>" / "<S> is <Y>": one sentence each, the subject words of one all matched
    (`same`) in the other's, and two complements that share no word, nor any with the other's subject ("the
    favourite is the Georgian place" / "the favourite is the sushi bar"). None for any other pair."""
    ca, cb = _copular(a), _copular(b)
    if ca is None or cb is None:
        return None
    (sa, xa, wa), (sb, xb, wb) = ca, cb
    if not (all(any(same(s, t) for t in sb) for s in sa) or all(any(same(s, t) for t in sa) for s in sb)):
        return None
    if any(same(x, y) for x in xa for y in xb) or set(xa) & set(sb) or set(xb) & set(sa):
        return None
    return " ".join(wa), " ".join(wb)


def subject_end(a: Analysis) -> int | None:
    """Where the phrase a statement is about ends: its first verb in the first clause (a form of "be", a modal, a
    verb of a role, a place or a preference, a common verb), after at least one word ("Backups for the wiki | run
    nightly"). None when the first clause has no such verb."""
    from ..slots import lexicon

    lex = lexicon()
    toks = a.tokens
    first = next((t.clause for t in toks if t.kind != "punct"), None)
    for k, t in enumerate(toks):
        if t.clause != first:
            break
        if (
            t.kind == "word"
            and k
            and not t.used  # a value ("the Go services"), not a verb
            and (
                t.low in lex.copula
                or t.low in lex.subject_verbs
                or t.low in lex.place_verbs
                or t.low in lex.preference_verbs
                # (a role word a form of "be" follows is the phrase's head noun: "User's yoga teacher | is")
                or ((t.low,) in lex.roles and not (k + 1 < len(toks) and toks[k + 1].low in lex.copula))
            )
        ):
            return k
    # No verb the lists know: a present or past form after the noun it is said of, before a light word ("The 4th
    # floor printer | jams a lot", "The night bus | stopped at midnight", "Staging deploys | continue in May").
    for k, t in enumerate(toks):
        if t.clause != first:
            break
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        plural_before = k >= 1 and toks[k - 1].low.endswith("s") and not toks[k - 1].low.endswith(("ss", "'s"))
        if (
            k >= 2
            and t.kind == "word"
            and len(t.low) > 3
            and (
                t.low.endswith("s")
                and not t.low.endswith(("ss", "'s"))
                or t.low.endswith("ed")
                or (plural_before and not t.low.endswith("s"))
            )
            and toks[k - 1].kind == "word"
            and not is_function(toks[k - 1].low)
            and nxt is not None
            and nxt.kind == "word"
            and is_function(nxt.low)
        ):
            return k
    # A note that opens with what it is about, set off by a colon or a bracket ("Flat 2 at Harbour View (our rental):
    # the tenant pays ...", "My pottery class: Thursdays ..."): that phrase.
    for k, t in enumerate(toks):
        if t.clause != first:
            return k if k >= 2 and t.kind == "punct" and t.low in (":", "(") else None
    return None


def which_thing(a: Analysis, b: Analysis) -> tuple[str, str] | None:
    """Two statements of one frame that differ in two places, a value and the thing it is said of ("We deploy the
    frontend on Fridays" / "We deploy the backend on Mondays"): the words naming the two things, else None. Two facts
    of one kind, not two answers to one question. Every other word stands in both, in order; the thing's span is of
    content words (at most `MAX_SPAN`) neither statement says elsewhere, and the value's span on each side is a
    measured value. Not the head of the phrase a statement is about after a shared modifier ("Rubbish pickup" /
    "Trash collection"): another noun for one thing as often as another thing."""
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return None
    sa, sb = [w[0] for w in wa], [w[0] for w in wb]
    ops = [op for op in difflib.SequenceMatcher(None, sa, sb, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 2 or any(op[0] != "replace" for op in ops):
        return None
    pos_a = [k for k, t in enumerate(a.tokens) if t.kind != "punct"]
    ea = subject_end(a)
    thing: tuple[str, str] | None = None
    valued = False
    for _op, i1, i2, j1, j2 in ops:
        span_a, span_b = wa[i1:i2], wb[j1:j2]
        if all(m for *_x, m in span_a) and all(m for *_x, m in span_b):
            valued = True
            continue
        ca = [s for s, _w, c, _m in span_a if c]
        cb = [s for s, _w, c, _m in span_b if c]
        if (
            len(ca) != len(span_a)
            or len(cb) != len(span_b)
            or not ca
            or len(ca) > MAX_SPAN
            or len(cb) > MAX_SPAN
            or set(ca) & set(sb)
            or set(cb) & set(sa)
            or _polar(a, span_a)
            or _polar(b, span_b)
            or (len(ca) == len(cb) == 1 and _same_word(ca[0], cb[0]))
        ):
            return None
        if ea is not None and pos_a[i2 - 1] < ea and i2 < len(wa) and pos_a[i2] >= ea:
            # the head of the phrase a statement is about, after words the two share ("Rubbish pickup" / "Trash
            # collection"): as often another noun for the same thing as another thing of the same kind
            if any(c for _s, _w, c, _m in wa[:i1]):
                return None
        thing = (" ".join(w for _s, w, _c, _m in span_a), " ".join(w for _s, w, _c, _m in span_b))
    return thing if valued else None

"""How a new statement relates to a stored one: the pair decision of capture (SPEC §5.1).

Pure and deterministic. `relate(old, new)` reads both statements (`slots.analyze`, `subjects.side`) and returns a
`Relation`:

- `unrelated`: not about the same subject (too little in common, or about another subject that has its own value:
  "Atlas staging uses Postgres 15" / "Orbit staging uses MySQL 8");
- `restatement`: the same claim: same subject, same polarity, the same values in every slot, nothing added;
- `compatible`: the same subject, nothing contradicts, but one side adds detail (kept as its own record);
- `conflict` with a type: `direct_negation`, `mutually_exclusive`, `quantitative_drift`,
  `decision_supersession`, `source_disagreement`;
- `possible`: the same subject, something differs, but no type fits confidently (a hedged claim, a difference only
  in a name or a place that may be the subject rather than a value). A person sees it marked as such.

Each relation carries a confidence in [0, 1], the subject score and a one-line reason. The thresholds are below;
docs/decisions.md explains them. A differing source alone never makes a conflict: `source_disagreement` needs a
differing value too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .slots import Analysis, Name, Value, stem
from .subjects import Side, SubjectMatch, compare, matches, side

CONFLICT_TYPES = ("direct_negation", "mutually_exclusive", "quantitative_drift", "decision_supersession",
                  "source_disagreement")
KINDS = ("restatement", "compatible", "conflict", "possible", "unrelated")

DRIFT = 0.20  # SPEC §5.1: a quantity that differs by more than 20 % conflicts; within 20 % it is the same value
SUBJECT_MIN = 0.26  # below this weighted share of subject terms, two statements are about different things
SUBJECT_SURE = 0.50  # at or above it, the subject match adds no doubt to a conflict
CUE_SUBJECT = 0.40  # a change cue alone ("no longer", "switched") needs this subject score
SHARED_MIN = 0.8  # and at least one full subject word in common
RESTATE_MIN = 0.50  # a restatement shares at least this much (and adds no value, name or claim)
POSSIBLE_BELOW = 0.55  # a conflict whose confidence is below this is queued as `possible`
FLAG_MIN = 0.40  # below this confidence a difference is not held at all (the subject match is too weak)
TIME_TOLERANCE = 30  # minutes, for approximate clock times ("about 08:15")
WHEN_KINDS = frozenset({"time", "daypart", "weekday"})


@dataclass(frozen=True)
class Statement:
    text: str
    title: str = ""
    category: str = "fact"
    source_ref: str | None = None


@dataclass(frozen=True)
class Relation:
    kind: str  # one of KINDS
    conflict_type: str | None  # one of CONFLICT_TYPES for kind "conflict"; the best guess for "possible"
    confidence: float
    score: float  # subject score in [0, 1]
    reason: str

    @property
    def is_conflict(self) -> bool:
        return self.kind in ("conflict", "possible")


@dataclass(frozen=True)
class Diff:
    dim: str  # what differs: "when", "quantity:n:engin", "enum:log_level", "polarity", "name", ...
    ctype: str  # the conflict type it makes
    strength: float  # how sure: 1.0 for a typed value, less for a name or a place
    a: str
    b: str


# ---------------------------------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------------------------------


def _live(values: tuple[Value, ...]) -> list[Value]:
    """The values a statement asserts: not negated, not the old side of "from X to Y"."""
    return [v for v in values if not v.negated and v.role != "from"]


def _slot(v: Value) -> str:
    if v.kind in WHEN_KINDS or (v.kind == "date" and v.key == ""):
        return "when"
    if v.kind == "date":
        return f"period:{v.key}"
    if v.kind in ("quantity", "duration"):
        return f"quantity:{v.key}"
    if v.kind == "version":
        return "version"
    if v.kind in ("enum", "address", "label"):
        return f"{v.kind}:{v.key}"
    return v.kind


def _interval(v: Value, lo: float, hi: float) -> tuple[float, float]:
    if v.bound == "upper":
        return (float("-inf"), hi)
    if v.bound == "lower":
        return (lo, float("inf"))
    return (lo, hi)


def _overlap(a: tuple[float, float], b: tuple[float, float], tol: float = 0.0) -> bool:
    return a[0] <= b[1] + tol and b[0] <= a[1] + tol


def _times_agree(x: Value, y: Value) -> bool:
    (xs, xe, xampm), (ys, ye, yampm) = x.val, y.val
    tol = TIME_TOLERANCE if (x.approx or y.approx) else 0
    shifts = [0]
    if not (xampm and yampm):
        shifts += [720, -720]
    both_bounds = x.bound and y.bound
    for sh in shifts:
        if both_bounds:
            if x.bound == y.bound and abs(xs - (ys + sh)) <= tol and abs(xe - (ye + sh)) <= tol:
                return True
            if x.bound != y.bound and _overlap(_interval(x, xs, xe), _interval(y, ys + sh, ye + sh), tol):
                return True
            continue
        if _overlap(_interval(x, xs, xe), _interval(y, ys + sh, ye + sh), tol):
            return True
    return False


def _when_agree(xs: list[Value], ys: list[Value]) -> bool | None:
    """None when the two sides give no comparable "when"; else whether some pair agrees on every comparable part."""
    verdicts = []
    for kinds in (("time",), ("weekday",), ("daypart",)):
        a = [v for v in xs if v.kind in kinds]
        b = [v for v in ys if v.kind in kinds]
        if a and b:
            if kinds == ("time",):
                verdicts.append(any(_times_agree(p, q) for p in a for q in b))
            elif kinds == ("weekday",):
                verdicts.append(any(p.val & q.val for p in a for q in b))
            else:
                verdicts.append(any(p.val[0] < q.val[1] and q.val[0] < p.val[1] or p.val == q.val
                                    for p in a for q in b))
    # a clock time against a part of the day ("5 pm" / "in the evening")
    ta, tb = [v for v in xs if v.kind == "time"], [v for v in ys if v.kind == "time"]
    da, db = [v for v in xs if v.kind == "daypart"], [v for v in ys if v.kind == "daypart"]
    if ta and db and not tb:
        verdicts.append(any(_overlap((t.val[0], t.val[1]), d.val) or _overlap((t.val[0] + 720, t.val[1] + 720),
                                                                               d.val) for t in ta for d in db))
    if tb and da and not ta:
        verdicts.append(any(_overlap((t.val[0], t.val[1]), d.val) or _overlap((t.val[0] + 720, t.val[1] + 720),
                                                                               d.val) for t in tb for d in da))
    da_ = [v for v in xs if v.kind == "date"]
    db_ = [v for v in ys if v.kind == "date"]
    if da_ and db_:
        verdicts.append(any(_dates_agree(p, q) for p in da_ for q in db_))
    if not verdicts:
        return None
    return all(verdicts)


def _date_parts(v: Value) -> tuple[int | None, tuple[int, int] | None, int | None]:
    y, m, d = v.val
    if isinstance(m, tuple):
        return y, m, d
    return y, (m, m) if m else None, d


def _date_order(v: Value) -> tuple[float, float]:
    """A date as a comparable range (year*400 + month*32 + day), missing parts widening the range."""
    y, m, d = _date_parts(v)
    ylo, yhi = (y, y) if y else (0, 0)
    mlo, mhi = m if m else (1, 12)
    dlo, dhi = (d, d) if d else (1, 31)
    return (ylo * 400 + mlo * 32 + dlo, yhi * 400 + mhi * 32 + dhi)


def _dates_agree(x: Value, y: Value) -> bool:
    """Two dates agree when every part both give matches (a date with parts missing stands for every date it could
    be: "the 15th" agrees with "October 15"). A bound agrees with any date on its side of it."""
    xy, xm, xd = _date_parts(x)
    yy, ym, yd = _date_parts(y)
    if x.bound != y.bound and (x.bound or y.bound) and xm and ym:
        if not (xy and yy):
            xy = yy = None
        xv = Value(x.kind, x.key, (xy, xm, xd), x.text, x.clause, x.start, x.bound, x.approx)
        yv = Value(y.kind, y.key, (yy, ym, yd), y.text, y.clause, y.start, y.bound, y.approx)
        return _overlap(_interval(x, *_date_order(xv)), _interval(y, *_date_order(yv)))
    if xy and yy and xy != yy:
        return False
    if xm and ym and not (xm[0] <= ym[1] and ym[0] <= xm[1]):
        return False
    return not (xd and yd and xd != yd)


def _drift(x: float, y: float) -> float:
    lo = min(abs(x), abs(y))
    if lo == 0:
        return 0.0 if x == y else float("inf")
    return abs(x - y) / lo


def _qty_range(v: Value) -> tuple[float, float]:
    if isinstance(v.val, tuple):
        return (float(v.val[0]), float(v.val[1]))
    return (float(v.val), float(v.val))


def _qty_agree(x: Value, y: Value) -> tuple[bool, float]:
    """Agreement of two quantities, and how far apart they are (0 when they agree)."""
    xa, xb = _qty_range(x)
    ya, yb = _qty_range(y)
    if not x.bound and not y.bound and xa == xb and ya == yb:
        d = _drift(xa, ya)
        if x.key == "percent" and y.key == "percent" and 0 <= xa <= 100 and 0 <= ya <= 100:
            d = max(d, _drift(100 - xa, 100 - ya))  # 99.9 % / 99.5 % is 0.1 % / 0.5 % of downtime
        return d <= DRIFT, d
    if x.bound and y.bound and x.bound == y.bound:
        d = _drift(xb if x.bound == "upper" else xa, yb if y.bound == "upper" else ya)
        return d <= DRIFT, d
    ix, iy = _interval(x, xa, xb), _interval(y, ya, yb)
    lo, hi = iy
    wide = (lo - abs(lo) * DRIFT if lo != float("-inf") else lo, hi + abs(hi) * DRIFT)
    if _overlap(ix, wide):
        return True, 0.0
    gap = min(abs(xa - yb), abs(xb - ya))
    return False, gap / max(min(abs(xa), abs(ya), abs(xb), abs(yb)), 1e-9)


def _key_near(a: str, b: str) -> bool:
    """Two quantity keys count the same thing: the same unit dimension, or counted nouns sharing a stem."""
    if a == b:
        return True
    if a.startswith("n:") and b.startswith("n:") and a.endswith("/time") == b.endswith("/time"):
        ra = set(a[2:].split("/")[0].split("+"))
        rb = set(b[2:].split("/")[0].split("+"))
        return any(x == y or (min(len(x), len(y)) >= 4 and (x.startswith(y) or y.startswith(x)))
                   for x in ra for y in rb)
    return False


def _compare_values(a: Analysis, b: Analysis) -> tuple[list[Diff], set[str], set[str], set[str]]:
    """Differences per slot, the slots both sides agree on, and the slots only one side fills."""
    va, vb = _live(a.values), _live(b.values)
    diffs: list[Diff] = []
    agreed: set[str] = set()
    slots_a = {_slot(v) for v in va}
    slots_b = {_slot(v) for v in vb}
    # when: times, parts of the day, weekdays and dates together
    wa = [v for v in va if _slot(v) == "when"]
    wb = [v for v in vb if _slot(v) == "when"]
    if wa and wb:
        verdict = _when_agree(wa, wb)
        if verdict is False:
            diffs.append(Diff("when", "mutually_exclusive", 1.0, _texts(wa), _texts(wb)))
        elif verdict:
            agreed.add("when")
    # quantities: paired by unit or counted noun; a bare number pairs with the other side's only quantity
    qa = [v for v in va if v.kind in ("quantity", "duration")]
    qb = [v for v in vb if v.kind in ("quantity", "duration")]
    used_b: set[int] = set()
    for x in qa:
        partners = [y for y in qb if _key_near(x.key, y.key)]
        if not partners and (x.key == "" or len(qa) == 1) and len(qb) == 1 and (qb[0].key == "" or x.key == ""):
            partners = qb
        if not partners:
            continue
        results = [_qty_agree(x, y) for y in partners]
        for y in partners:
            used_b.add(id(y))
        if any(ok for ok, _ in results):
            agreed.add(f"quantity:{x.key}")
            continue
        drift = min(d for _, d in results)
        diffs.append(Diff(f"quantity:{x.key or partners[0].key}", "quantitative_drift", 1.0, x.text,
                          partners[0].text + f" (drift {drift:.0%})" if drift != float("inf") else partners[0].text))
    # frequencies: periods differ by more than 20 %
    fa = [v for v in va if v.kind == "frequency"]
    fb = [v for v in vb if v.kind == "frequency"]
    if fa and fb:
        if any(_drift(x.val, y.val) <= DRIFT for x in fa for y in fb):
            agreed.add("frequency")
        else:
            diffs.append(Diff("frequency", "mutually_exclusive", 1.0, _texts(fa), _texts(fb)))
    # versions, by the name they version
    for x in [v for v in va if v.kind == "version"]:
        ys = [y for y in vb if y.kind == "version" and (not x.key or not y.key or x.key == y.key
                                                        or x.key.startswith(y.key) or y.key.startswith(x.key))]
        if not ys:
            continue
        if any(_version_agree(x.val, y.val) for y in ys):
            agreed.add("version")
        else:
            diffs.append(Diff("version", "mutually_exclusive", 1.0, x.text, ys[0].text))
            break
    # class members, places, addresses, periods (quarters, seasons)
    for slot in sorted((slots_a & slots_b) - {"when", "frequency", "version"}):
        if slot.startswith("quantity:"):
            continue
        xa = [v for v in va if _slot(v) == slot]
        xb = [v for v in vb if _slot(v) == slot]
        if slot == "place":
            same = any(_places_agree(x.val, y.val) for x in xa for y in xb) or any(
                w in b.words for x in xa for w in _place_mods(x.val)) or any(
                w in a.words for y in xb for w in _place_mods(y.val))
        elif slot.startswith("period:"):
            same = any(x.val[1] == y.val[1] for x in xa for y in xb)
        elif slot.startswith("address:"):
            same = any(_address_agree(x, y) for x in xa for y in xb)
        else:
            same = any(x.val == y.val for x in xa for y in xb)
        if same:
            agreed.add(slot)
        elif slot.startswith("label:"):
            # "berth 31" / "berth 12", "note 3" / "note 4": which one it is, so another subject
            diffs.append(Diff(slot, "subject", 0.0, _texts(xa), _texts(xb)))
        else:
            strength = 0.6 if slot == "place" else 1.0
            diffs.append(Diff(slot, "mutually_exclusive", strength, _texts(xa), _texts(xb)))
    only_a = {s for s in slots_a - slots_b}
    only_b = {s for s in slots_b - slots_a}
    return diffs, agreed, only_a, only_b


def _address_agree(x: Value, y: Value) -> bool:
    """The same address; a bare handle ("security@") agrees with any address that has its local part."""
    if x.val == y.val:
        return True
    if "@" in x.text and "@" in y.text and (x.text.endswith("@") or y.text.endswith("@")):
        return x.text.lower().split("@")[0] == y.text.lower().split("@")[0]
    return False


def _version_agree(x: str, y: str) -> bool:
    xs, ys = x.split("."), y.split(".")
    k = min(len(xs), len(ys))
    return xs[:k] == ys[:k]


def _places_agree(x: str, y: str) -> bool:
    return bool(set(x.split("|")[0].split()) & set(y.split("|")[0].split()))


def _place_mods(x: str) -> list[str]:
    return x.split("|")[1].split() if "|" in x else []


def _texts(vs: list[Value]) -> str:
    return ", ".join(dict.fromkeys(v.text for v in vs))


# ---------------------------------------------------------------------------------------------------------------------
# Polarity and change
# ---------------------------------------------------------------------------------------------------------------------


def _salient(term: str) -> bool:
    return len(term) >= 3 and not term.isdigit()


def _flips(a: Analysis, b: Analysis) -> list[str]:
    """Terms one statement negates and the other affirms ("uses X" / "does not use X")."""
    out: list[str] = []
    for neg, other_aff, other_neg in ((b.negated, a.affirmed, a.negated), (a.negated, b.affirmed, b.negated)):
        for t in sorted(neg):
            if not _salient(t) or t in other_neg:
                continue
            if t in other_aff or any(_same(t, o) for o in other_aff):
                out.append(t)
    for pref, other_aff, own_words in ((b.prefixed, a.affirmed, a.words), (a.prefixed, b.affirmed, b.words)):
        for rest, word in pref.items():
            if word in own_words or stem(word) in other_aff:
                continue
            if rest in other_aff or any(_common_prefix(rest, o) >= max(5, 0.7 * min(len(rest), len(o)))
                                        for o in other_aff):
                out.append(word)
    # A negated value the other side asserts ("not part of 2.0" / "ships in 2.0").
    def same(x: Value, y: Value) -> bool:
        return y.kind == x.kind and (y.val == x.val or (x.kind == "address" and _address_agree(x, y)))

    for xs, ys in ((b.values, a.values), (a.values, b.values)):
        for x in xs:
            if x.negated and any(same(x, y) and not y.negated for y in ys) and not any(
                    same(x, y) and y.negated for y in ys):
                out.append(x.text)
    return sorted(set(out))


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


def _state_flips(a: Analysis, b: Analysis) -> list[str]:
    """Two states of one class with opposite poles ("up" / "down", "approved" / "rejected") about the same thing:
    their clauses share a word (for verbs like "wants" / "dislikes", their objects do)."""
    from .slots import lexicon

    objects = lexicon().object_states
    out = []
    for sa_ in a.states:
        for sb_ in b.states:
            if sa_.cls != sb_.cls or sa_.pole == sb_.pole:
                continue
            if any(s.cls == sa_.cls and s.pole != sa_.pole for s in a.states):
                continue  # one side says both
            shared = (sa_.after & sb_.after) if sa_.cls in objects else (sa_.around & sb_.around)
            if shared or (sa_.cls not in objects and not sa_.around and not sb_.around):
                out.append(f"{sa_.text} / {sb_.text}")
    return sorted(set(out))


def _new_cues(a: Analysis, b: Analysis) -> list[str]:
    have = {stem(w) for c in a.cues for w in c.split()}
    return [c for c in b.cues if not all(stem(w) in have for w in c.split())]


def _from_matches(b: Analysis, a: Analysis, sa: Side) -> str | None:
    """"from X to Y" in the newer statement where X is what the older one says."""
    for x, y in b.from_to:
        if isinstance(x, Value):
            if any(v.kind == x.kind and (v.val == x.val or _slot(v) == _slot(x) and _loose_equal(v, x))
                   for v in a.values):
                return f"from {x.text} to {getattr(y, 'text', y)}"
        elif isinstance(x, Name):
            if any(w in sa.words for w in x.words):
                return f"from {x.text} to {getattr(y, 'text', y)}"
        elif isinstance(x, str) and (x in sa.terms or x in sa.words):
            return f"from {x} to {getattr(y, 'text', y)}"
    return None


def _loose_equal(v: Value, x: Value) -> bool:
    if v.kind in ("quantity", "duration") and not isinstance(v.val, tuple) and not isinstance(x.val, tuple):
        return _drift(v.val, x.val) <= DRIFT
    if v.kind == "place":
        return _places_agree(v.val, x.val)
    return False


# ---------------------------------------------------------------------------------------------------------------------
# The decision
# ---------------------------------------------------------------------------------------------------------------------


def relate(old: Statement, new: Statement, *, same_key: bool = False) -> Relation:
    """How `new` relates to `old`. `same_key`: both carry the same key an agent gave explicitly (its authority
    says they are about the same subject)."""
    return _relate(old, new, same_key)


@functools.lru_cache(maxsize=16384)
def _relate(old: Statement, new: Statement, same_key: bool) -> Relation:
    if " ".join(old.text.lower().split()) == " ".join(new.text.lower().split()):
        return Relation("restatement", None, 1.0, 1.0, "the same text")
    sa, sb = side(old.text, old.title), side(new.text, new.title)
    a, b = sa.content, sb.content
    subj = compare(sa, sb)
    score = subj.score
    if not same_key and (score < SUBJECT_MIN or subj.shared_weight < SHARED_MIN):
        return Relation("unrelated", None, 0.0, score, f"little in common ({score:.2f})")

    diffs, agreed, slots_only_a, slots_only_b = _compare_values(a, b)
    flips = _flips(a, b)
    states = _state_flips(a, b)
    cues = _new_cues(a, b)
    moved = _from_matches(b, a, sa)

    dims: dict[str, Diff] = {d.dim: d for d in diffs}
    if flips:
        # A flip on a value whose slot already differs is that difference ("no longer on Mondays; Tuesdays now").
        diff_words = {w for d in diffs for w in (d.a + " " + d.b).lower().replace(",", " ").split()}
        own = [f for f in flips if not ({f.lower()} | set(f.lower().split())) & diff_words
               and not any(f == stem(w) for w in diff_words)]
        if own:
            dims["polarity"] = Diff("polarity", "direct_negation", 1.0, "", ", ".join(own))
    if states and "polarity" not in dims:
        dims["state"] = Diff("state", "mutually_exclusive", 0.9, "", states[0])
    # Names only one side has, paired across: names written as names first; a capitalised sentence opener
    # ("Designers use ...") counts only where a side has no other unmatched name.
    name_words = set()
    only_a, only_b = _prefer_shaped(subj.only_a_names), _prefer_shaped(subj.only_b_names)
    n_names = min(len(only_a), len(only_b))
    # Both statements speak of a role one person holds ("owns", "maintainer", "account manager").
    role = (a.role or (sa.title is not None and sa.title.role)) and (b.role or (sb.title is not None and sb.title.role))
    subject_names = False
    if n_names:
        initial = any(n.initial for n in only_a[:n_names] + only_b[:n_names])
        for k in range(n_names):
            # A name in a role ("Maya handles ...") or where a value goes ("in Lisbon") is a value; otherwise the
            # two names are two subjects ("Atlas ships weekly" / "Harbor ships weekly").
            na, nb = only_a[k], only_b[k]
            qualifier = na.possessive or nb.possessive or na.scoped or nb.scoped or any(
                n.next_stem and not n.next_plural and matches(n.next_stem, other)
                for n, other in ((na, sb), (nb, sa)))
            as_value = not qualifier and (role or (na.value_like and nb.value_like))
            subject_names = subject_names or not as_value
            dims[f"name{k}"] = Diff(f"name{k}", "mutually_exclusive" if as_value else "subject",
                                    (0.6 if initial else 0.8) if as_value else 0.0, only_a[k].text, only_b[k].text)
    name_words = {w for n in only_a[:n_names] + only_b[:n_names] for w in n.words}  # counted already
    # A qualifier that is a value already compared ("WARN level" / "DEBUG level") is not a second difference.
    value_words = {stem(w) for d in diffs for w in (d.a + " " + d.b).lower().replace(",", " ").split()}
    quals = [q for q in subj.qualifiers if not (set(q[1]) <= name_words or set(q[2]) <= name_words)
             and not (set(q[1]) <= value_words and set(q[2]) <= value_words)]
    if quals:
        _h, qa, qb = quals[0]
        dims["qualifier"] = Diff("qualifier", "mutually_exclusive", 0.5, ", ".join(sorted(set(qa) - name_words)),
                                 ", ".join(sorted(set(qb) - name_words)))

    # An anchor: what the two share is more than one name ("Atlas" alone is a project, not a subject), or they
    # agree on a value. Without one, a difference is not held against the other record.
    name_stems = {w for n in sa.names + sb.names for w in n.words}
    anchored = (same_key or len(subj.shared) >= 2 or any(t not in name_stems for t in subj.shared) or bool(agreed)
                or bool(flips) or bool(states))
    hedged = a.hedged or b.hedged
    decision = old.category == "decision" and new.category == "decision"
    # How sure the subject match is: 0.3 at SUBJECT_MIN, 1.0 from SUBJECT_SURE on; 0 without an anchor.
    subject_factor = 1.0 if same_key else 0.3 + 0.7 * max(0.0, min(1.0, (score - SUBJECT_MIN) /
                                                                   (SUBJECT_SURE - SUBJECT_MIN)))
    if not anchored:
        subject_factor = 0.0

    if (cues or moved) and (len(dims) <= 2 or moved) and (dims or moved or score >= CUE_SUBJECT or same_key):
        conf = (0.85 if moved else 0.7 if dims else 0.6) * subject_factor * (0.85 if hedged else 1.0)
        why = moved or f"says it changed ({', '.join(cues[:2])})"
        if dims and not moved:
            d = next(iter(dims.values()))
            why += f"; {d.a or '·'} / {d.b}"
        return _conflict("decision_supersession", conf, score, why)

    # Another subject with its own value: two independent differences ("Atlas" / "Orbit" and "Postgres" / "MySQL").
    if not same_key and len(dims) >= 2:
        what = "; ".join(f"{d.a or '·'} / {d.b}" for d in list(dims.values())[:2])
        return Relation("unrelated", None, 0.0, score, f"another subject: differs in {len(dims)} ways ({what})")

    if dims and any(d.ctype == "subject" for d in dims.values()) and all(
            d.ctype == "subject" or name == "qualifier" for name, d in dims.items()):
        d = next(d for d in dims.values() if d.ctype == "subject")
        return Relation("unrelated", None, 0.0, score, f"about another subject: {d.a} / {d.b}")
    if set(dims) == {"qualifier"}:
        # Only a qualifier of a shared word differs ("background jobs" / "async jobs"): another subject or another
        # word for the same one; neither is a claim against the other.
        return Relation("compatible", None, round(score, 3), score, f"same words, qualified differently: "
                                                                    f"{dims['qualifier'].a} / {dims['qualifier'].b}")
    if dims:
        d = max(dims.values(), key=lambda d: d.strength)
        ctype = d.ctype
        if decision:
            ctype = "decision_supersession"
        elif d.dim.startswith("name") or d.dim in ("place", "qualifier"):
            if old.source_ref and new.source_ref and old.source_ref != new.source_ref:
                ctype = "source_disagreement"
        conf = d.strength * subject_factor * (0.8 if hedged else 1.0)
        if same_key:
            conf = max(conf, 0.6)
        label = {"polarity": "negates", "polarity-value": "negates", "state": "opposite states"}.get(d.dim, "differs")
        return _conflict(ctype, conf, score, f"{label}: {d.a + ' / ' if d.a else ''}{d.b}")

    # Nothing differs.
    added = slots_only_a | slots_only_b
    names_added = bool(subj.only_a_names or subj.only_b_names)
    if decision and same_key and score < RESTATE_MIN:
        return _conflict("decision_supersession", 0.6, score, "a new decision for this key says something else")
    # A restatement says the same with the same subject words (in any form: stems, short forms, spellings): a word
    # one side has and the other lacks is a detail, and the statement is kept as a record of its own
    # (consolidation must never swallow a claim).
    # Every other word counts too ("before" / "after", "left" / "right", "more" / "less" are claims): only
    # articles, pronouns, forms of "be" and the like may differ.
    extra_a = sum(w for t, w in sa.content.terms.items() if not matches(t, sb))
    extra_b = sum(w for t, w in sb.content.terms.items() if not matches(t, sa))
    loose_a, loose_b = _plain_words(a) - _plain_words(b), _plain_words(b) - _plain_words(a)
    if score >= RESTATE_MIN and not added and not names_added and not hedged and max(extra_a, extra_b) <= 0.5 \
            and not loose_a and not loose_b:
        return Relation("restatement", None, round(min(1.0, score + 0.3), 3), score,
                        "same claim" + (f" ({', '.join(sorted(agreed))} agree)" if agreed else ""))
    detail = sorted(added) or ["wording"]
    return Relation("compatible", None, round(score, 3), score,
                    f"same subject, adds {', '.join(detail)}" if added or names_added else "same subject, consistent")


# Words whose presence or absence never changes a claim: articles, pronouns, forms of "be", conjunctions.
TRIVIAL = frozenset("""
    the a an this that these those our ours their theirs its it his her hers my mine your yours we they i you he she
    them us me is are was were be been being am and or of to as so also just really very please here there then
    currently now still actually do does did has have had will would shall should can could may might must
    """.split())


def _plain_words(a: Analysis) -> set[str]:
    """Stems of every word outside values, except the trivial ones."""
    return {t.stem or stem(t.low) for t in a.tokens if t.kind == "word" and not t.used and t.low not in TRIVIAL}


def _prefer_shaped(names) -> list:
    strong = [n for n in names if not n.initial]
    return strong or list(names)


def _conflict(ctype: str, conf: float, score: float, reason: str) -> Relation:
    conf = round(max(0.0, min(1.0, conf)), 3)
    if conf < FLAG_MIN:
        return Relation("unrelated", None, conf, score, f"weak subject match ({score:.2f}); {reason}")
    if conf < POSSIBLE_BELOW:
        return Relation("possible", ctype, conf, score, reason)
    return Relation("conflict", ctype, conf, score, reason)


def describe(rel: Relation) -> str:
    return f"{rel.kind}{'/' + rel.conflict_type if rel.conflict_type else ''} ({rel.confidence:.2f}): {rel.reason}"


_ = SubjectMatch

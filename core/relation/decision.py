"""The pair decision: how a new statement relates to a stored one.

`relate(old, new)` reads both statements (`subjects.side`) and scores their subject (`subjects.compare`; too low:
`unrelated`). It gathers the dimensions along which they differ (values from `agreement`; flips, opposite states
and change cues from `polarity`; names only one side has; qualifiers of a shared word) and decides, in this order:

- a change cue the older statement lacks, with at most two differences (with none, a subject score of
  `CUE_SUBJECT`, and a result that is not what the older one says: "upgraded to 64 GB" / "has 64 GB"), or "from
  X to Y" where X is what the older statement says: `decision_supersession`;
- two or more differences: another subject with its own value, `unrelated` (unless an explicit key says one
  subject). Two values side by side in both count as one ("AWS eu-west-1"); with a verb that takes several
  members of a class on both sides ("supports"), differing members are two the thing has, not a difference;
- only names or labels that name another subject: `unrelated`; only a qualifier: `compatible` (in a role, a
  qualifier of the holder, "the finance team" / "the data team", is a value);
- values both give inside the phrase before their first verb say which subject ("the printer on floor 2 …"),
  unless both are thresholds and the rest of the two is word for word the same ("Expenses over $500 need …");
- one difference: a conflict of its type (`decision_supersession` between two decisions, `source_disagreement`
  when a name, place or qualifier differs and the two sources differ), its confidence weighed by how sure the
  subject match is; a low one makes it `possible`, a lower one `unrelated` (`_conflict`);
- a shared name alone anchors no subject (nor does a name negated on one side, nor the word for a kind of value
  both give: "email"), except for a `possible` conflict when the two give different members of a class a project
  or a person has one of (a CI, a licence: `one_per_subject` in the data file) or two ages; nor do words
  shared only after both first verbs, or only in what two differing counts count, when each statement names
  before its first verb something the other does not ("The board meets quarterly" / "Mei-Lin and I meet
  monthly");
- nothing differs that the value lists know, but one span is put differently in a frame both share
  (`frame.substitution`), or "<S> is <X>" / "<S> is <Y>" with no word in common (`frame.complement`): `possible`;
- nothing differs: a `restatement` when every word agrees, else `compatible`.

Where that says `compatible` or `unrelated`, a value one statement says is the only one of its kind ("it's their
only car") against another of that kind on the other side is `mutually_exclusive` (`exclusive`).

The thresholds are below; docs/decisions.md explains them.
"""

from __future__ import annotations

import calendar
import functools
import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date

from ..keys import is_derived_title
from ..memo import TEXT_CHARS, text_cache
from ..slots import Analysis, Name, Value, fold, lexicon, stem
from ..slots.markdown import plain_blocks
from ..slots.names import placed_after
from ..slots.tokens import ACRONYM_PLURAL, is_function, match_any
from ..slots.values import time_unit
from ..subjects import Side, SubjectMatch, acronym_window, compare, matches, one_root, same_term, side
from .agreement import (
    DRIFT,
    Diff,
    compare_values,
    exact_near,
    live,
    same_unit,
    slot_of,
    times_apart,
    value_agrees,
)
from .exclusive import clash as exclusive_clash
from .frame import complement, subject_end, substitution, which_thing
from .polarity import from_matches, new_cues, nominal_flips, polarity_flips, state_flips, whole_stems

CONFLICT_TYPES = (
    "direct_negation",
    "mutually_exclusive",
    "quantitative_drift",
    "decision_supersession",
    "source_disagreement",
)
KINDS = ("restatement", "compatible", "conflict", "possible", "unrelated")

SUBJECT_MIN = 0.26  # below this weighted share of subject terms, two statements are about different things
SUBJECT_SURE = 0.50  # at or above it, the subject match adds no doubt to a conflict
CUE_SUBJECT = 0.40  # a change cue alone ("no longer", "switched") needs this subject score
SHARED_MIN = 0.8  # and at least one full subject word in common
RESTATE_MIN = 0.50  # a restatement shares at least this much (and adds no value, name or claim)
POSSIBLE_BELOW = 0.55  # a conflict whose confidence is below this is queued as `possible`
FLAG_MIN = 0.40  # below this confidence a difference is not held at all (the subject match is too weak)
SINGLE_CLASS_FACTOR = 0.5  # subject factor of a shared name and two members of a one-per-subject class, at any score
# A qualified denial against a state of the same root ("no food allergies" / "allergic to penicillin"): `possible`
NOMINAL_QUALIFIED = 0.5
NOMINAL_FACTOR = 0.9  # the subject factor of such a pair: the shared root is its subject
FRAME_CONFIDENCE = 0.45  # one span substituted in a shared frame, no value list knowing the words (`frame`)
# One value said to be the only one, another of its kind on the other side (`exclusive`): tied by the word made
# exclusive ("their only car" / "User's car is ..."), a conflict; by a name both give alone, `possible`.
EXCLUSIVE_HEAD = 0.6
EXCLUSIVE_NAME = 0.5
# A day named without its year is a day a statement reports when it is at most this many days before its capture
# (`_reported_days`); further back, it is as likely the next year's.
REPORTED_DAYS = 31


@dataclass(frozen=True)
class Statement:
    text: str
    title: str = ""
    category: str = "fact"
    source_ref: str | None = None
    at: str | None = None  # when it was captured (ISO): a day it names on or before then is a day it reports


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


def relate(old: Statement, new: Statement, *, same_key: bool = False) -> Relation:
    """How `new` relates to `old`. `same_key`: both carry the same key an agent gave explicitly (its authority
    says they are about the same subject).

    A note of several claims (MULTI_MIN or more, sentences or list items: a session summary, a page of facts) is
    also read claim by claim: whole, its other claims dilute what it shares with a one-line statement and pool
    their values ("Tuesdays, Mondays, 10:00, 02:00 / Thursdays"), so a contradiction of one of them went unseen.
    Each claim of the new statement meets the claim of the other it is most about; a conflict there is the pair's
    conflict (unless the two, read whole, name different subjects), and the new statement restates the note when
    each of its claims restates one of the note's.

    Long notes are read within bounds, so that the cost stays linear in their length: two texts whose token counts
    multiplied pass WHOLE_TOKENS are not read whole (`_not_read_whole`), and past CLAIM_PAIRS pairs of claims each
    claim meets only some of the other's (`_neighbours`).

    A statement that only asks ("Question: does Chen want to be cc'd on the weekly report?") asserts nothing: it is
    never held against a record, nor a record against it (`_asks`)."""
    rel, held = _relate_statements(old, new, same_key)
    # Read again with one's acronyms written as the other's words ("- EM: Noor Hassan" / "Yusuf Kaya is the
    # engineering manager"), then, for two already about one subject, with the head word a class needs that one
    # gives and the other leaves out ("User is primary on-call" / "the user is secondary that week"; not "Direct
    # pushes to main are blocked" / "The default branch is master"); only a conflict found so is kept, what the
    # texts share is read as written. (Its claims are of the texts rewritten: the occasions read the notes.)
    for rewrite in (_written_out, _headed):
        if rel.is_conflict or (rewrite is _headed and rel.kind != "compatible"):
            break
        written = rewrite(old, new)
        if written is not None:
            again, _claims = _relate_statements(*written, same_key)
            if again.is_conflict:
                rel, held = again, None
    if rel.is_conflict and (_asks(old.text) or _asks(new.text)):
        return Relation("compatible", None, rel.score, rel.score, "a question: it asserts nothing")
    whole = (old, new)  # (the plan rule's bound reads the two whole, as written)
    if held is not None:
        # (the days of the claims in conflict, with their note's lead, not of the note's other claims: "- Boiler
        # service: booked for 14 March" is no occasion of "- Cleaner: Fridays 9-12" against "The cleaner comes on
        # Wednesdays now"; "Week ahead, 2-8 Nov:" dates each of its items)
        old, new = (replace(s, text=_in_context(s.text, claim)) for s, claim in zip((old, new), held, strict=True))
    if rel.is_conflict:
        days = ""
        if rel.conflict_type != "decision_supersession":
            # (a plan whose days went by against a report of another day: another occasion, unless the two are
            # surely about one thing, "The launch is on 24 Nov" / "The launch was on 26 Nov": it slipped)
            # (read whole: a claim of a list shares more with a one-line statement than the list does)
            days = _two_occasions(old, new) or (_plan_gone_by(old, new) if _whole_score(*whole) < SUBJECT_SURE else "")
        if days:
            return Relation("compatible", None, rel.score, rel.score, f"two occasions: {days}")
        days = _exception(old, new)
        if days:
            return Relation("compatible", None, rel.score, rel.score, f"an exception to a habit: {days}")
    if rel.is_conflict and rel.conflict_type == "decision_supersession":
        days = _history(old, new)
        if days:
            return Relation("compatible", None, rel.score, rel.score, f"a report of days gone by: {days}")
    return rel


@functools.cache
def _headed_classes() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Each value class that counts only beside one of its head words ("primary" beside "on-call", "Premium" beside
    "plan"): its one-word members and its heads."""
    out: dict[str, tuple[set[str], frozenset[str]]] = {}
    for phrase, members in lexicon().classes.items():
        for cls, _canon, heads, _cs in members:
            if heads and len(phrase) == 1:
                out.setdefault(cls, (set(), heads))[0].add(phrase[0])
    return {cls: (frozenset(words), heads) for cls, (words, heads) in out.items()}


def _headed(old: Statement, new: Statement) -> tuple[Statement, Statement] | None:
    """`old` and `new`, a member of a class one gives beside its head word ("User is primary on-call") written with
    that head word in the other, where the other names the member bare ("the user is secondary that week"); None
    when neither has one to write."""
    sides = [side(s.text, s.title).content for s in (old, new)]
    out = [old, new]
    classes = _headed_classes()
    for k in (0, 1):
        given, bare = sides[k], sides[1 - k]
        have = {v.key for v in bare.values if v.kind == "enum"}
        for cls in sorted({v.key for v in given.values if v.kind == "enum"} - have):
            if cls not in classes:
                continue
            words, heads = classes[cls]
            head = next((t.text for t in given.tokens if t.low in heads), None)
            found = [w for w in sorted(words) if w in bare.words and w not in {t.low for t in given.tokens}]
            if head is None or not found:
                continue
            pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, found)) + r")(?![\w-])", re.IGNORECASE)
            st = out[1 - k]
            out[1 - k] = replace(st, text=pattern.sub(r"\1 " + head.replace("\\", r"\\"), st.text))
    return None if out[0] is old and out[1] is new else (out[0], out[1])


_LIST_ITEM = re.compile(r"([-*+]|\d+[.)])\s")


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")


def _note_lead(text: str, got: tuple[str, ...], first: str | None = None) -> str:
    """The lead of a note of claims `got`: its first claim, when the note opens with a heading or a sentence
    ("Week ahead, 2-8 Nov:", "INC-2389, Wed 11 Nov: …") and not with a list item (an item is a claim of its own,
    no lead of the others); "" when none. `first`: the note's first line, when already read."""
    if len(got) < 2:
        return ""
    return "" if _LIST_ITEM.match(_first_line(text) if first is None else first) else got[0]


def _heading(text: str, got: tuple[str, ...]) -> str:
    """The heading a note of claims `got` opens with: a Markdown heading, or a first claim that ends with a colon
    ("Vet summary for Pepper (cat):"); "" when none."""
    if len(got) < 2:
        return ""
    first = _first_line(text)
    lead = _note_lead(text, got, first)
    return lead if lead and (first.startswith("#") or lead.rstrip().endswith(":")) else ""


def _in_context(text: str, claim: str) -> str:
    """A claim of a note with the note's lead before it (`_note_lead`)."""
    lead = _note_lead(text, claims(text))
    return claim if not lead or claim == lead else lead + "\n" + claim


# (not after a number: "5 PM", "16 GB" are units)
_CAPITALS = re.compile(r"(?<![\w-])(?<!\d )([A-Z]{2,6})(s?)(?![\w-])")


@text_cache(maxsize=8192, max_chars=TEXT_CHARS)
def _capital_words(text: str) -> tuple[tuple[str, str], ...]:
    """The words of `text` in two to six capitals, each as (letters, plural "s" or ""), once each, in order."""
    return tuple(dict.fromkeys(_CAPITALS.findall(text)))


def _written_out(old: Statement, new: Statement) -> tuple[Statement, Statement] | None:
    """`old` and `new`, each word of one written in two to six capitals ("EM", "PTO", "RCs") that abbreviates words
    the other says ("engineering manager", "paid time off", "release candidates") written as those words; None
    when neither has one. The words abbreviated open with a word of content, and half of them are ("WFH": "work
    from home"; "IT" is not "is the")."""
    sa, sb = side(old.text, old.title), side(new.text, new.title)
    a, b = _spell(old, sb), _spell(new, sa)
    return None if a is old and b is new else (a, b)


def _spell(st: Statement, other: Side) -> Statement:
    """`st` with its acronyms that abbreviate words of `other` written as those words (`_written_out`)."""
    spelled: dict[str, str] = {}
    for acronym, plural in _capital_words(st.text) + _capital_words(st.title):
        if acronym.lower() in other.words or (acronym + plural).lower() in other.words:
            continue  # the other writes it so too
        window = acronym_window(acronym, other)
        if window is None or is_function(window[0]) or 2 * sum(is_function(w) for w in window) > len(window):
            continue
        spelled[acronym + plural] = " ".join(window)
    if not spelled:
        return st
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, spelled)) + r")(?![\w-])")

    def write(text: str) -> str:
        return pattern.sub(lambda m: spelled[m.group(1)], text)

    return replace(st, text=write(st.text), title=write(st.title))


Span = tuple[date, date]


def _reported_days(s: Statement) -> tuple[list[Span], bool, bool] | None:
    """`_named_days` of a statement that reports a day gone by: its spans gone by, whether it names a day still to
    come, and whether the spans are months or years; None when it reports none."""
    named = _named_days(s)
    if named is None or not named[0]:
        return None
    return named[0], bool(named[1]), named[2]


def _named_days(s: Statement) -> tuple[list[Span], list[Span], bool] | None:
    """The days of the month a statement names (a day, a span of days), as (first, last) spans, in two lists: those
    gone by, or that day, when it was captured (the days it reports), and those still to come (a plan, a deadline,
    a booking: what it says of that day is a claim another statement can contradict). A
    day without its year is read in the year of the capture: "on 21 Nov" captured on 23 Nov is a day just gone, but
    "June 12" captured in November is as likely next June's (an anniversary, a renewal), and a day more than
    REPORTED_DAYS before the capture makes the statement one whose days cannot be placed. A statement that names no
    day of a month reports the months and years it names, each as all its days ("set in April 2024", "joined in
    June 2026"; "in October" under the same rule as a day without its year); one that names days is read by its
    days alone ("November in short: … 9-16 Nov …" reports those days, not all of November). None when it names
    nothing, or something it cannot place; else the spans gone by, the spans still to come, and whether they are
    months or years (no day named)."""
    if not s.at:
        return None
    try:
        captured = date.fromisoformat(s.at[:10])
    except ValueError:
        return None
    days: list[tuple[date, date, bool]] = []  # (first, last, year given)
    coarse: list[tuple[date, date, bool]] = []
    for v in side(s.text, s.title).content.values:
        if v.kind != "date" or v.key != "" or v.bound or not isinstance(v.val, tuple) or len(v.val) != 3:
            continue
        y, m, d = v.val
        year = y or captured.year
        try:
            if isinstance(m, int) and d is not None:
                first, last = (d, d) if isinstance(d, int) else d
                days.append((date(year, m, first), date(year, m, last), y is not None))
            elif isinstance(m, int):
                coarse.append((date(year, m, 1), date(year, m, calendar.monthrange(year, m)[1]), y is not None))
            elif isinstance(y, int) and m is None and d is None:
                coarse.append((date(y, 1, 1), date(y, 12, 31), True))
        except ValueError:
            continue
    spans: list[tuple[date, date]] = []
    ahead: list[tuple[date, date]] = []
    for first, last, year_given in days or coarse:
        if not year_given and (captured - last).days > REPORTED_DAYS:
            return None
        (ahead if last > captured else spans).append((first, last))
    return (spans, ahead, not days) if spans or ahead else None


def _two_occasions(old: Statement, new: Statement) -> str:
    """The days of two statements that each report a day gone by, none of one's days among the other's ("Parkrun, 5
    Sep: 25:40" / "Parkrun, 21 Nov: 24:31"; "Mentoring with Dara, 24 Sep: …" / "…, 19 Nov: …"): two occasions, and
    what differs between them is what differed between the days, not a contradiction; unless both also name a day
    still to come (two plans made on two days may be two answers for one), or both name months or years and no day
    (as likely one event dated two ways). "" otherwise. (An occasion against a habit: `_exception`.)"""
    ra, rb = _reported_days(old), _reported_days(new)
    if not ra or not rb or (ra[1] and rb[1]):
        return ""  # (two reports that each name a day still to come may give two answers for it: a plan changed)
    if ra[2] and rb[2]:
        return ""  # (two months or years: as likely one event dated two ways, "moved in 2024" / "moved in 2025")
    a, b = ra[0], rb[0]
    if any(x[0] <= y[1] and y[0] <= x[1] for x in a for y in b):
        return ""
    return f"{_days_text(a)} / {_days_text(b)}"


def _whole_score(old: Statement, new: Statement) -> float:
    """The subject score of two statements read whole."""
    return compare(side(old.text, old.title), side(new.text, new.title)).score


def _plan_gone_by(old: Statement, new: Statement) -> str:
    """One statement names only days still to come when it was captured (a plan: "Week ahead, 7-13 Sep: …"), all
    of them gone by when the other was captured, and the other reports days gone by, none of them the plan's
    ("Parkrun 26 Sep: 24:58"); or the report was captured first, of days before all of the plan's ("Noor passed
    her swimming badge on Wed 9 Sep" / "Week ahead, 30 Nov-6 Dec: … Wed 2 Dec: Noor swimming"): two occasions
    (`relate` asks it only of two statements not surely about one thing). Days of a month only. The days, or ""."""
    for plan, report, text in ((old, new, "{} / {}"), (new, old, "{1} / {0}")):
        p, r = _named_days(plan), _reported_days(report)
        if not p or p[0] or p[2] or not p[1] or not r or r[1] or r[2] or not report.at:
            continue
        try:
            told = date.fromisoformat(report.at[:10])
        except ValueError:
            continue
        # (the plan's days all gone by when the report was told; or the report told first, of days before them all)
        if any(last >= told for _, last in p[1]) and not (
            plan.at and report.at < plan.at and max(y for _, y in r[0]) < min(x for x, _ in p[1])
        ):
            continue
        if any(x[0] <= y[1] and y[0] <= x[1] for x in p[1] for y in r[0]):
            continue
        return text.format(_days_text(p[1]), _days_text(r[0]))
    return ""


def _history(old: Statement, new: Statement) -> str:
    """The older statement reports days gone by when it was captured and names none still to come (a log entry:
    "On-call, 15 Oct: no pages overnight", "Octavia passed its MOT on 12 Nov; advisory on the rear tyres"): what it
    says happened on them stays true whatever changes after, so a change the newer one tells ("Handed on-call to
    Marta on 19 Oct", "Replace the rear tyres before Christmas") does not supersede it, unless the newer one
    reports one of those days itself. Its days, or ""."""
    ra = _reported_days(old)
    if not ra or ra[1] or ra[2]:
        return ""
    rb = _reported_days(new)
    if rb and any(x[0] <= y[1] and y[0] <= x[1] for x in ra[0] for y in rb[0]):
        return ""
    return _days_text(ra[0])


def _exception(old: Statement, new: Statement) -> str:
    """One statement tells of one occasion, on days it names (gone by or to come), the other of a habit (`_habit`):
    the occasion is an exception to the habit, not a contradiction of it, whatever changed on that day ("Parkrun on
    19 Nov at 10:30" / "runs parkrun most Saturdays at 09:00"; "No release on Fri 30 Oct: half-term" / "the release
    train goes out on Fridays"; "Swimming on 30 Sep was cancelled" / "swimming on Wednesdays"). A day that bounds a
    time ("from 3 Nov", "until 1 Dec", "starting Monday 7 Dec") says when the habit changes: no exception. The
    occasion's days against "a habit", or ""."""
    for one, other, text in ((old, new, "{} / a habit"), (new, old, "a habit / {}")):
        days = _occasion_days(one)
        if days and _habit(other):
            return text.format(days)
    return ""


def _occasion_days(s: Statement) -> str:
    """The days of the month a statement names, when it names some and none of its dates is a bound; "" else."""
    dates = [v for v in side(s.text, s.title).content.values if v.kind == "date" and v.key == ""]
    if not dates or any(v.bound for v in dates):
        return ""
    days = [v for v in dates if isinstance(v.val, tuple) and len(v.val) == 3 and isinstance(v.val[1], int)]
    if len(days) != len(dates) or any(v.val[2] is None for v in days):
        return ""  # (a month or a year is no occasion)
    return ", ".join(v.text for v in days)


def _habit(s: Statement) -> bool:
    """A statement of what recurs ("runs parkrun most Saturdays at 09:00", "every other Thursday", "weekly") that
    names no day of the month: one occasion on a day gone by, done otherwise, is an exception to it, not a
    contradiction ("Parkrun, 21 Nov: 24:31"; "an extra Wednesday lesson on 25 Nov")."""
    values = side(s.text, s.title).content.values
    if any(v.kind == "date" and v.key == "" for v in values):
        return False
    return any(v.kind == "frequency" or (v.kind == "weekday" and v.text.lower().endswith("s")) for v in values)


def _days_text(spans: list[tuple[date, date]]) -> str:
    return ", ".join(x.isoformat() if x == y else f"{x.isoformat()}..{y.isoformat()}" for x, y in spans)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")


def _asks(text: str) -> bool:
    """Every sentence of `text` is a question (ends with "?")."""
    parts = [p.strip() for p in _SENTENCE_END.split(text) if p.strip()]
    return bool(parts) and all(p.endswith("?") for p in parts)


def _relate_statements(old: Statement, new: Statement, same_key: bool) -> tuple[Relation, tuple[str, str] | None]:
    """`relate` without the question check and the occasions, with the claims of the two (old's, new's) whose
    conflict is the pair's when it came from one claim of a note (None when read whole)."""
    if _same_text(old, new):
        # a note captured again says all it said: its claims are not held against one another
        return _relate(old, new, same_key), None
    sa, sb = side(old.text, old.title), side(new.text, new.title)
    if len(sa.content.tokens) * len(sb.content.tokens) <= WHOLE_TOKENS:
        whole = _relate(old, new, same_key)
    else:
        whole = _not_read_whole(sa, sb, same_key)
    claims_old, claims_new = claims(old.text), claims(new.text)
    if len(claims_old) == 1 and len(claims_new) == 1:
        return whole, None
    # A title made from the note's opening words (`keys.title_from`, when the agent gave none) says nothing the
    # note does not: given to each claim, it would put the whole note's opening back into every one of them.
    title_old, title_new = (_own_title(s) for s in (old, new))
    # (a note without a title of its own that opens with a heading, "Vet summary for Pepper (cat):", "## Kestrel
    # contacts", says in it what its other claims are about: it is their title; an opening sentence is a claim of
    # its own, "Home: the boiler is a Worcester Bosch", and given to each claim would put itself in every one)
    lead_old, lead_new = (_heading(s.text, c) for s, c in ((old, claims_old), (new, claims_new)))

    def pair(a: str, b: str) -> Relation:
        return _relate(
            Statement(a, title_old or (lead_old if a != lead_old else ""), old.category, old.source_ref),
            Statement(b, title_new or (lead_new if b != lead_new else ""), new.category, new.source_ref),
            same_key,
        )

    if len(claims_old) * len(claims_new) <= CLAIM_PAIRS:
        pairs = [[(a, b) for a in claims_old] for b in claims_new]
    else:
        pairs = [
            [(claims_old[k], b) for k in ks]
            for b, ks in zip(claims_new, _neighbours(claims_old, claims_new), strict=True)
        ]
    by_new = [[pair(a, b) for a, b in row] for row in pairs]
    parts = [r for row in by_new for r in row]
    # Each sentence of the new statement is read against the sentence of the other it is most about (the highest
    # subject score): "Billing deploys are on Tuesdays" meets the note's sentence on deploys, not its sentence on
    # the on-call rotation's Mondays.
    # (a claim read against none of the other's, past the bound, is one the other says nothing of)
    best_of = [
        max(zip(row, texts, strict=True), key=lambda x: (x[0].score, x[0].kind != "unrelated")) if row else None
        for row, texts in zip(by_new, pairs, strict=True)
    ]
    aligned = [x[0] if x is not None else _UNREAD for x in best_of]
    held = [x for x in best_of if x is not None and x[0].is_conflict]
    if held and _names_another_subject(old, new):
        held = []  # the note is about one named thing, the statement about another ("Kestrel" / "Orbit")
    if held and not (whole.kind == "conflict" and whole.confidence > max(r.confidence for r, _t in held)):
        best, texts = max(held, key=lambda x: (x[0].kind == "conflict", x[0].confidence, x[0].score))
        found = Relation(best.kind, best.conflict_type, best.confidence, best.score, f"{best.reason} (in one sentence)")
        return found, texts
    if whole.kind == "restatement":
        return whole, None
    if whole.is_conflict:
        # Read whole, a note pools the values of all its claims ("Postgres 16" of prod with "Postgres 15" of
        # staging); when no claim of one differs from a claim of the other, and each claim of the new statement
        # meets one it is more about than the two are about each other whole, the claims have the better reading.
        if any(r.is_conflict for r in parts) or not all(
            r.kind in ("restatement", "compatible") and r.score > whole.score for r in aligned
        ):
            return whole, None
        top = max(aligned, key=lambda r: r.score)
        return Relation("compatible", None, top.confidence, top.score, f"{top.reason} (in one sentence)"), None
    if all(any(r.kind == "restatement" for r in row) for row in by_new):
        restated = [r for r in parts if r.kind == "restatement"]
        return Relation(
            "restatement",
            None,
            min(r.confidence for r in restated),
            max(r.score for r in restated),
            "same claims",
        ), None
    if whole.kind == "unrelated":
        near = [r for r in aligned if r.kind in ("restatement", "compatible")]
        if near:
            top = max(near, key=lambda r: r.score)
            return Relation("compatible", None, top.confidence, top.score, f"{top.reason} (in one sentence)"), None
    return whole, None


# Bounds of the reading of long notes (decisions.md, Performance). Every note of the labelled sets is read in full:
# the longest has 9 claims and 462 characters.
CLAIM_PAIRS = 256  # claim pairs read one by one (16 claims against 16); past it, each claim meets its neighbours
CLAIM_NEIGHBOURS = 8  # the claims of the older note a claim of the new one is read against, past CLAIM_PAIRS
POSTINGS_MAX = 64  # claims of the older note a word of the new claim proposes as neighbours, at most
# Two texts are read whole while their token counts multiplied stay within this (two notes of about 2,000 tokens,
# 10-12 KB each; a one-line statement against any note up to the 64 KiB a capture takes): the whole reading
# compares every value, state and name of one with every one of the other.
WHOLE_TOKENS = 4_000_000
_UNREAD = Relation("unrelated", None, 0.0, 0.0, "not read claim by claim")


def _not_read_whole(sa: Side, sb: Side, same_key: bool) -> Relation:
    """What stands for the whole reading of two long texts (WHOLE_TOKENS): nothing is said of them whole; their
    claims decide (`relate`). Pooled, the values of hundreds of claims are no claim of either. Its score is the
    subject score of the two read whole."""
    score = compare(sa, sb).score
    kind = "compatible" if same_key else "unrelated"  # (a key an agent gave says they are about one subject)
    return Relation(kind, None, 0.0, score, "long texts, read claim by claim")


def _neighbours(old: tuple[str, ...], new: tuple[str, ...]) -> list[list[int]]:
    """Past CLAIM_PAIRS: per claim of the new statement, the claims of the older one it is read against. A claim the
    older note says word for word (case and spacing aside) meets that claim alone: it restates it, as a note
    captured again restates itself. Any other meets the CLAIM_NEIGHBOURS claims that share the largest part of its
    words (numbers too: "step 3"), ties in the older note's order, until CLAIM_PAIRS claims have been met; the
    claims after that, and a claim that shares no word, are read against none (`_UNREAD`: the new statement then
    restates nothing, and a contradiction in such a claim is seen only by the whole reading, when the two are read
    whole). Linear in the claims: a word in many claims proposes only its first POSTINGS_MAX."""
    twin: dict[str, int] = {}
    for k, a in enumerate(old):
        twin.setdefault(_plain(a), k)
    words_old = [_claim_words(a) for a in old]
    postings: dict[str, list[int]] = {}
    for k, ws in enumerate(words_old):
        for w in ws:
            postings.setdefault(w, []).append(k)
    budget = CLAIM_PAIRS
    out: list[list[int]] = []
    for b in new:
        same = twin.get(_plain(b))
        if same is not None:
            out.append([same])
            continue
        if budget <= 0:
            out.append([])
            continue
        ws = _claim_words(b)
        near = {k for w in ws for k in postings.get(w, ())[:POSTINGS_MAX]}
        ranked = sorted(near, key=lambda k: (-len(words_old[k] & ws) / (len(words_old[k]) + len(ws)), k))
        out.append(ranked[: min(CLAIM_NEIGHBOURS, budget)])
        budget -= len(out[-1])
    return out


_CLAIM_WORD = re.compile(r"[^\W_]+")


def _claim_words(text: str) -> frozenset[str]:
    """A claim's words as `_neighbours` compares them: stemmed, function words left out, numbers kept."""
    return frozenset(stem(w) for w in _CLAIM_WORD.findall(fold(text).lower()) if w.isdigit() or not is_function(w))


def _own_title(s: Statement) -> str:
    """The statement's title, or "" when it is only the opening of its text (`keys.title_from`)."""
    return "" if s.title and is_derived_title(s.title, s.text) else s.title


def _names_another_subject(old: Statement, new: Statement) -> bool:
    """Read whole, the two name different subjects: a name only one has, paired with one only the other has, that
    is no value in a role ("Kestrel deploys …" / "Orbit ships …", not "the contact is Raj" / "… is Helen"), and
    not two capitalised sentence openers, nor a single letter (the C of "20 °C"). A sentence of a note is about
    what the note names, though the sentence may not repeat it."""
    sa, sb = side(old.text, old.title), side(new.text, new.title)
    return any(
        not as_value and not (na.initial and nb.initial) and min(len(na.text), len(nb.text)) > 1
        for na, nb, as_value in _name_pairs(compare(sa, sb), sa, sb)
    )


MULTI_MIN = 3  # claims (sentences, list items) from which a text is also compared claim by claim (`relate`)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")


@text_cache(maxsize=4096, max_chars=TEXT_CHARS)
def claims(text: str) -> tuple[str, ...]:
    """The claims of a text of MULTI_MIN or more: its Markdown blocks (`slots.markdown`: list items, headings,
    paragraphs, marks dropped), each split into its sentences and at its semicolons; else the text as one claim. A
    piece of fewer than three words ("Done.", "Billing:") goes with the one before it, or, first in the text or in
    a block that goes on, with the one after it."""
    pieces: list[tuple[int, str]] = []  # (its block, the piece)
    for k, block in enumerate(plain_blocks(text)):
        # a semicolon separates claims as a full stop does ("the Starter plan is $9 a month; the Pro plan is $29")
        for sentence in _sentences(block):
            parts = _label_list(sentence) or [part.strip() for part in sentence.split(";") if part.strip()]
            pieces += [(k, part) for part in parts]
    out: list[str] = []
    lead = ""
    for j, (k, piece) in enumerate(pieces):
        if len(piece.split()) < 3:
            # (one that opens its block goes with the rest of the block: "- Thu: office; physio 08:00" is Thursday's,
            # not the item before it)
            opens = (j == 0 or pieces[j - 1][0] != k) and j + 1 < len(pieces) and pieces[j + 1][0] == k
            if out and not opens:
                out[-1] += " " + piece
            elif out:
                lead += piece + "; "
            else:  # a heading or a label: a block of its own when it ends with no mark ("Deploys")
                lead += piece + ("\n\n" if piece[-1].isalnum() else " ")
            continue
        out.append(lead + piece)
        lead = ""
    return tuple(out) if len(out) >= MULTI_MIN else (text,)


_LABEL_LIST = re.compile(r"^([^:,;.]{2,40}):\s+(.+)$", re.S)


def _label_list(sentence: str) -> list[str]:
    """A label and a list of what it says, by commas or semicolons ("Mum's details: lives in Cork, birthday 14
    June, phone ends 4471"): each item a claim about what the label names, the label before it. [] when the
    sentence is not one (a label before fewer than three items)."""
    m = _LABEL_LIST.match(sentence.strip())
    if not m:
        return []
    items = [x.strip() for x in re.split(r";|,(?!\d)", m.group(2)) if x.strip()]  # (not "£1,350")
    if len(items) < MULTI_MIN:
        return []
    label = m.group(1)
    first = items[0].split()
    if len(first) <= 5 and all(w[:1].isupper() or w[:1].isdigit() for w in first):
        # the first item names what the label is ("Car: 2018 VW Golf, silver, insured with Admiral"): the items
        # after it are about that one
        return [f"{label}: {items[0]}"] + [f"{label} ({items[0]}): {x}" for x in items[1:]]
    return [f"{label}: {x}" for x in items]


def _sentences(line: str) -> list[str]:
    """A line's sentences: split at a full stop, question or exclamation mark before a capital, not after an
    abbreviation or an initial."""
    out: list[str] = []
    start = 0
    for m in _SENTENCE_END.finditer(line):
        head = line[start : m.start()].rstrip(".!?")
        last = head.rsplit(None, 1)[-1].lower() if head.split() else ""
        if last in lexicon().sentence_abbreviations or (len(last) == 1 and last.isalpha()):
            continue
        out.append(line[start : m.start()].strip())
        start = m.end()
    if line[start:].strip():
        out.append(line[start:].strip())
    return out


def _statement_chars(old: Statement, new: Statement, same_key: bool) -> int:
    return len(old.text) + len(old.title) + len(new.text) + len(new.title)


@text_cache(maxsize=16384, max_chars=TEXT_CHARS, weigh=_statement_chars)
def _relate(old: Statement, new: Statement, same_key: bool) -> Relation:
    rel = _read_pair(old, new, same_key)
    # (read claim by claim: in a note of several, the value a cue says is the only one is in its own claim; `relate`
    # reads each claim of a note against the other statement's)
    if rel.kind in ("compatible", "unrelated") and len(claims(old.text)) == 1 and len(claims(new.text)) == 1:
        return _only_one(old, new, rel) or rel
    return rel


def _only_one(old: Statement, new: Statement, rel: Relation) -> Relation | None:
    """One statement says its value is the only one of its kind, the other gives another value of that kind for the
    same thing ("User's car is a silver Skoda Octavia" / "User drives a Toyota Corolla, their only car"): two
    answers, however few words the two share (`exclusive`). Not when one is about someone the other's subject has,
    or another one of a kind, or says it adds."""
    a, b = side(old.text, old.title).content, side(new.text, new.title).content
    found = exclusive_clash(a, b, rel.score >= SUBJECT_MIN)
    if found is None:
        return None
    if _kin_of(a, b) or _kin_of(b, a) or _another_of(a, b) or _another_of(b, a) or _whose(a, b) or _adds(a) or _adds(b):
        return None
    x, y, by_head = found
    conf = (EXCLUSIVE_HEAD if by_head else EXCLUSIVE_NAME) * (0.85 if a.hedged or b.hedged else 1.0)
    return _conflict("mutually_exclusive", conf, rel.score, f"one says it is the only one: {x} / {y}")


# Words a restatement may leave out or add (`surface_differs`): articles, present forms of "be", "do" and "have",
# and words that stress. Not the pronouns, "and" and "or" (TRIVIAL has them: there they never make two subjects),
# which say whose and how many: "He is allergic" / "She is allergic", "Alice and Bob" / "Alice or Bob".
SURFACE_TRIVIAL = frozenset(
    """
    the a an this that these those is are be been being am do does has have also just really very please here there
    then currently now still actually
    """.split()
)
# Characters that carry a claim outside words: symbols (math, currency, arrows, emoji: "passing ✅" / "passing
# ❌") and the operators and marks Unicode files as punctuation ("a == b" / "a != b", "~~struck~~", "~5 min").
_CLAIM_MARKS = frozenset("~=<>&|%@^")
# Marks of Markdown formatting, which a restatement may drop: emphasis, code ticks, headings, quotes.
_FORMAT_MARKS = frozenset("*_`#>")
_NUMBER_GROUP = re.compile(r"\d+(?:[/.:\-]\d+)+")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_SHORT_WORD = re.compile(r"(?<![\w])([^\W\d_]{1,3})(?![\w])")


def surface_differs(old: str, new: str, a: Analysis, b: Analysis) -> str:
    """What, read from the two texts as written, a restatement would lose ("" when nothing): the pair decision reads
    stems, values and names, and some claims live outside what it compares. Each is the kind of difference, not a
    word list:
    - a word outside the values, as written (not its stem): another pronoun ("He" / "She", "My" / "Her"), "and" /
      "or", another tense ("paid" / "pays"), another noun of one stem ("training" / "train", "rating" / "rate");
      or those words in another order ("the billing service depends on the auth service" / the other way round);
    - names in another order ("Alice reports to Bob" / "Bob reports to Alice");
    - another value, or values of one kind in another order ("ET" / "PT"; "staging replicates to production"),
      the values a statement gives without asserting them included (`compare_values` leaves them out): negated
      ("not open on Mondays" / "… Tuesdays") or the old side of a change ("the old job number 0" / "number 1");
    - a symbol or operator ("✅" / "❌", "==" / "!=", "~~…~~");
    - a number written as one group (a date with slashes, a version, a phone number) with its parts in another
      order ("05/03/2026" / "03/05/2026": the values read the three numbers alone);
    - case, where case is the claim: in a code span ("`-r`" / "`-R`") or a short word ("Mb" / "MB", "mW" / "MW");
    - a time zone on one side only ("9:00" / "9:00 PST": the times agree as written; the zone would be lost);
    - a day said relative to now ("ships today" / "ships tomorrow", or on one side only): the time readers mark
      those words read but give them no value, so neither the values nor the words held them."""
    wa, wb = _surface_words(a), _surface_words(b)
    if set(wa) != set(wb):
        return "words"
    if wa != wb:
        return "word order"
    na, nb = [n.key for n in a.names], [n.key for n in b.names]
    if sorted(na) == sorted(nb) and na != nb:
        return "name order"
    va, vb = _values_by_slot(a), _values_by_slot(b)
    if {k: sorted(v) for k, v in va.items()} != {k: sorted(v) for k, v in vb.items()}:
        return "values"
    if va != vb:
        return "value order"
    if _marks(old) != _marks(new):
        return "symbols"
    if sorted(_number_groups(old)) != sorted(_number_groups(new)):
        return "number groups"
    if sorted(_CODE_SPAN.findall(old)) != sorted(_CODE_SPAN.findall(new)):
        return "code"
    sa, sb = _short_words(old), _short_words(new)
    if sorted(w.lower() for w in sa) == sorted(w.lower() for w in sb) and sorted(sa) != sorted(sb):
        return "case"
    za = {v.key for v in a.values if v.key.startswith("tz:")}
    zb = {v.key for v in b.values if v.key.startswith("tz:")}
    if za != zb:
        return "time zone"
    return ""


def _surface_words(a: Analysis) -> list[str]:
    """The words `surface_differs` compares, in order: those no value reads, and the relative days, which a value
    reader marks read without giving them a value."""
    relative = lexicon().relative_days
    return [
        t.low
        for t in a.tokens
        if t.kind == "word" and (not t.used or t.low in relative) and t.low not in SURFACE_TRIVIAL
    ]


def _values_by_slot(a: Analysis) -> dict[tuple[str, str], list[str]]:
    """Each value the statement gives, as read (normalised: "5 pm" and "17:00" are one), by its kind and key, in the
    order it gives them: two of one kind in the other order are two claims ("staging replicates to production")."""
    out: dict[tuple[str, str], list[str]] = {}
    for v in a.values:
        out.setdefault((v.kind, v.key), []).append(f"{v.val}{'!' if v.negated else ''}{v.role or ''}{v.bound or ''}")
    return out


def _marks(text: str) -> list[str]:
    """The symbols and operator marks of a text, in order (`_CLAIM_MARKS`; not the marks of Markdown formatting)."""
    return [
        ch
        for ch in text
        if ch not in _FORMAT_MARKS and (ch in _CLAIM_MARKS or unicodedata.category(ch).startswith("S"))
    ]


def _number_groups(text: str) -> list[str]:
    """Numbers written as one group of parts ("05/03/2026", "1.2.3", "10:00"), each part as a number ("09" is 9);
    a decimal ("3.50") as its value."""
    out = []
    for g in _NUMBER_GROUP.findall(text):
        parts = re.split(r"([/.:\-])", g)
        if len(parts) == 3 and parts[1] == ".":
            out.append(repr(float(g)))
        else:
            out.append("".join(p if i % 2 else str(int(p)) for i, p in enumerate(parts)))
    return out


def _short_words(text: str) -> list[str]:
    """Words of at most three letters outside code spans, not opening a sentence and not trivial: where a change of
    case changes a unit or a flag ("Mb" / "MB")."""
    text = _CODE_SPAN.sub(" ", text)
    out = []
    for m in _SHORT_WORD.finditer(text):
        j = m.start() - 1
        while j >= 0 and text[j] in " \t":
            j -= 1
        if j < 0 or text[j] in ".!?:\n\r":
            continue  # opens a sentence: its capital says nothing
        if m.group(1).lower() in TRIVIAL:
            continue
        out.append(m.group(1))
    return out


def _read_pair(old: Statement, new: Statement, same_key: bool) -> Relation:
    if _same_text(old, new):
        return Relation("restatement", None, 1.0, 1.0, "the same text")
    sa, sb = side(old.text, old.title), side(new.text, new.title)
    a, b = sa.content, sb.content
    subj = compare(sa, sb)
    diffs, agreed, slots_only_a, slots_only_b = compare_values(a, b)
    # What the two are about is read without the values they claim differently ("the passports are in the desk" /
    # "the passports are in the safe" are both about the passports): those words are the claim, not the subject.
    # Fewer words are left to judge by, so that reading counts only when it is a sure match.
    pairs = _name_pairs(subj, sa, sb)
    if any(not v for _na, _nb, v in pairs) and b.markers:
        # "Tom drives a Honda Civic" / "Tom now drives a Tesla": what the same verb takes, newly, is its value
        pairs = [(na, nb, v or _after_same_word(a, na, b, nb)) for na, nb, v in pairs]
    claimed = _claimed_words(diffs, pairs) | _where_words(a, b, pairs) | _attached_words(a, b, pairs)
    score, shared_weight = subj.score, subj.shared_weight
    if claimed:
        bare = compare(sa, sb, drop=claimed)
        if (
            bare.score > score
            and bare.score >= SUBJECT_SURE
            and bare.shared_weight >= SHARED_MIN
            and not _owner_alone(bare, sa, sb, claimed)
        ):
            score, shared_weight = bare.score, bare.shared_weight
    nominal_read = nominal_flips(a, b) if score < SUBJECT_MIN else None
    if nominal_read:
        # The root of a state word one affirms and a noun the other denies ("is allergic to peanuts" / "has no food
        # allergies") is what the two are about: the state word, a claim, is no subject term of its own, and counts
        # here as one both share (a term of weight 1 on the state's side, matching the other's noun).
        total = sum(sa.terms.values()) + sum(sb.terms.values())
        score = round((score * total + 2.0) / (total + 1.0), 4)
        shared_weight += 1.0
    # "Physio: Dr. Hale at Core Clinic" / "User changed physios; now goes to Stretch Studio": the newer says the
    # very thing the older is about was changed for another of its kind, however few other words the two share.
    kind = _changed_kind(b)
    changed_kind = kind if kind and matches(stem(kind), sa) else ""
    if changed_kind:
        score, shared_weight = max(score, SUBJECT_MIN), max(shared_weight, SHARED_MIN)
    elif kind and not same_key and (other := _changed_kind(a)) and stem(other) != stem(kind):
        # "User changed dentists …" / "User changed GPs …": a change of one kind and of another
        return Relation("unrelated", None, 0.0, score, f"about another one: {other} / {kind}")
    if not same_key and (score < SUBJECT_MIN or shared_weight < SHARED_MIN):
        return Relation("unrelated", None, 0.0, score, f"little in common ({score:.2f})")

    # "Ana lives in Leith" / "Ana's sister lives in Portobello": a person and someone that person has are two
    kin = _kin_of(a, b) or _kin_of(b, a)
    if kin and not same_key:
        return Relation("unrelated", None, 0.0, score, f"another person: {kin}")

    flips = polarity_flips(a, b)
    states = state_flips(a, b)
    cues = new_cues(a, b)
    moved = from_matches(b, a, sa)

    dims: dict[str, Diff] = {d.dim: d for d in diffs}
    if "when" in dims and "frequency" in dims:
        # "every second Tuesday" / "every Thursday": one schedule said differently, not two differences
        del dims["frequency"]
    # "isn't open on Sundays" / "is open on Saturdays": denied at one time, said at another; no negation
    apart = bool(flips or states) and _at_other_times(a, b)
    if flips:
        # A flip on a value whose slot already differs is that difference ("no longer on Mondays; Tuesdays now").
        diff_words = {w for d in diffs for w in (d.a + " " + d.b).lower().replace(",", " ").split()}
        own = [
            f
            for f in flips
            if not ({f.lower()} | set(f.lower().split())) & diff_words and not any(f == stem(w) for w in diff_words)
        ]
        if own and not apart:
            dims["polarity"] = Diff(
                "polarity", "direct_negation", 1.0, "", ", ".join(dict.fromkeys(_as_written(f, b, a) for f in own))
            )
    nominal = (nominal_read if nominal_read is not None else nominal_flips(a, b)) if not flips else []
    if nominal and "polarity" not in dims:
        # "has no allergies" / "is allergic to penicillin"; qualified ("no food allergies"), a `possible` conflict
        term, qualified = nominal[0]
        dims["polarity"] = Diff("polarity", "direct_negation", NOMINAL_QUALIFIED if qualified else 1.0, "", term)
    if states and "polarity" not in dims:
        x, y = states[0]
        if x.text == y.text:  # the same state word, negated on one side ("is allergic" / "isn't allergic"): a negation
            if not apart:
                dims["polarity"] = Diff("polarity", "direct_negation", 1.0, "", x.text)
        else:
            dims["state"] = Diff("state", "mutually_exclusive", 0.9, "", f"{x.text} / {y.text}")
    # A diet one side gives and a food it leaves out that the other says the subject eats ("is vegetarian" / "eats
    # chicken and fish"): two answers about the diet.
    if "enum:diet" not in dims and (breach := _diet_breach(a, b) or _diet_breach(b, a)[::-1]):
        dims["enum:diet"] = Diff("enum:diet", "mutually_exclusive", 0.9, *breach)
    # Names only one side has, paired across (`pairs`): a pair in a role or where a value goes is a value that
    # differs; otherwise the two names are two subjects.
    initial = any(na.initial or nb.initial for na, nb, _v in pairs)
    for k, (na, nb, as_value) in enumerate(pairs):
        dims[f"name{k}"] = Diff(
            f"name{k}",
            "mutually_exclusive" if as_value else "subject",
            (0.6 if initial else 0.8) if as_value else 0.0,
            na.text,
            nb.text,
        )
    # Values both statements give inside the phrase they are about, before their first verb ("The printer on floor
    # 2 is …" / "The printer on floor 3 …", "Our EU customers are …" / "Our US customers …"), say which one, not
    # what is claimed of it: two subjects, not a conflict.
    ea, eb = subject_end(a), subject_end(b)
    # (Unless both are thresholds and the two say the same of them, word for word: "Expenses over $500 need
    # director approval" / "Expenses over $1,000 need director approval" give one rule two thresholds. Said the
    # same of two members, "The iOS build runs on Bitrise" / "The Android build runs on Bitrise", it is two things.)
    if ea is not None and eb is not None:
        same_rest = _after(a, ea) == _after(b, eb)
        for key, d in list(dims.items()):
            if d.dim == "polarity" or key.startswith("name") or key == "state":
                continue
            if same_rest and _within(a, d.dim, ea, bounded=True) and _within(b, d.dim, eb, bounded=True):
                continue
            if _within(a, d.dim, ea) and _within(b, d.dim, eb):
                dims[key] = Diff(d.dim, "subject", 0.0, d.a, d.b)
    _join_adjacent(dims, a, b)
    if any(k.startswith("enum:") for k in dims) and _additive(a) and _additive(b):
        # "supports Android" / "supports iOS": two members the thing has, not two answers
        for key in [k for k in dims if k.startswith("enum:")]:
            del dims[key]
    name_words = {w for na, nb, _v in pairs for w in na.words + nb.words}  # counted already
    # A qualifier that is a value already compared ("WARN level" / "DEBUG level") is not a second difference.
    value_words = {stem(w) for d in diffs for w in (d.a + " " + d.b).lower().replace(",", " ").split()}
    # (Unless each side says its value twice, once as the qualifier: "Python services run on Python 3.9" / "Go
    # services run on Go 1.21" are two subjects, each with its own value.)
    # Nor is one made of the state words already counted ("Prefers ORMs" / "Avoid ORMs").
    state_words = {stem(w) for s in a.states + b.states for w in s.text.split()}
    # (People named on one side and called by what they are to someone on the other may be the same people: "The
    # kids' school day starts at 8:15" / "Leo and Nora's school begins at 8:45". Maybe: a `possible` conflict at
    # most.)
    kin_quals = [q for q in subj.qualifiers if _kin_and_named(q, a, b)]
    kin_named = bool(kin_quals)
    # (A qualifier counted as a name is one written inside a name: "water" of "Thames Water" is no qualifier of
    # "supplier" there, and is one in "User's water supplier is Thames Water".)
    quals = [
        q
        for q in subj.qualifiers
        if q not in kin_quals
        and not (
            (set(q[1]) <= name_words and _inside_names(a, q[1])) or (set(q[2]) <= name_words and _inside_names(b, q[2]))
        )
        and not (
            (set(q[1]) <= value_words or set(q[2]) <= value_words)
            and not (_said_twice(a, q[1]) and _said_twice(b, q[2]))
        )
        and not (set(q[1]) <= state_words and set(q[2]) <= state_words)
    ]
    claimed_head = False  # the qualified word is in what both claim, after their first verb
    qual_head = ""  # the word whose qualifiers differ
    if quals:
        # (the qualified word that names a holder, if one is qualified as one: "The platform team owns it" / "The
        # data team owns it" also qualify "owns", the verb after the group; "the search team's on-call" says whose)
        head, qa, qb = next(
            (q for q in quals if q[0] in _holder_stems() and not (_says_whose(a, q[0]) or _says_whose(b, q[0]))),
            quals[0],
        )
        qual_head = head
        qa_text, qb_text = (
            ", ".join(sorted(w for w in q if not (w in name_words and _inside_names(x, (w,)))))
            for x, q in ((a, qa), (b, qb))
        )
        if head in _holder_stems() and _in_role(sa) and _in_role(sb):
            # Who holds a role, said as a team ("belongs to the finance team" / "the data team maintains it"): the
            # qualifier says which team, a value in that role, not another subject
            dims["holder"] = Diff("holder", "mutually_exclusive", 0.8, qa_text, qb_text)
        else:
            dims["qualifier"] = Diff("qualifier", "mutually_exclusive", 0.5, qa_text, qb_text)
            claimed_head = (
                ea is not None
                and eb is not None
                and _stated_after(a, head, ea)
                and _stated_after(b, head, eb)
                and bool(_classes_of(a, qa) & _classes_of(b, qb))
            )

    # Who holds a role: a person on one side, a team the other names by what it is ("owned by Ravi" / "belongs to
    # the payments team now"), and no other holder either way.
    if not pairs and "holder" not in dims and _in_role(sa) and _in_role(sb):
        pa, pb = _person_holder(subj.only_a_names), _person_holder(subj.only_b_names)
        if pa and not subj.only_b_names and (team := _named_team(b, a)):
            dims["holder"] = Diff("holder", "mutually_exclusive", 0.8, pa, team)
        elif pb and not subj.only_a_names and (team := _named_team(a, b)):
            dims["holder"] = Diff("holder", "mutually_exclusive", 0.8, team, pb)
        # or the memory's own person the other ("User runs the weekly ops review" / "is run by Dev Malhotra")
        elif pa and not _others(subj.only_b_names) and (me := _self_holds(b, eb)) and not _self_holds(a, ea):
            dims["holder"] = Diff("holder", "mutually_exclusive", 0.8, pa, me)
        elif pb and not _others(subj.only_a_names) and (me := _self_holds(a, ea)) and not _self_holds(b, eb):
            dims["holder"] = Diff("holder", "mutually_exclusive", 0.8, me, pb)
        # or each names a person who holds it, and the one the older names is named on the newer side too, doing
        # something else ("Ruth runs the ops review" / "The ops review is chaired by Dev since Ruth went on leave")
        elif (
            (ha := _role_holders(a)) and (hb := _role_holders(b)) and not any(_one_person(x, y) for x in ha for y in hb)
        ):
            dims["holder"] = Diff("holder", "mutually_exclusive", 0.8, ", ".join(ha), ", ".join(hb))
        if "holder" in dims and "qualifier" in dims:
            # the two holders read as qualifiers of the role's verb too ("The user owns" / "Priya owns"): one
            # difference, not two
            holders_said = _stems_in(dims["holder"].a) | _stems_in(dims["holder"].b)
            if _stems_in(dims["qualifier"].a) | _stems_in(dims["qualifier"].b) <= holders_said:
                del dims["qualifier"]

    # An anchor: what the two share is more than one name ("Atlas" alone is a project, not a subject), or they
    # agree on a value. Without one, a difference is not held against the other record.
    # (A capitalised sentence opener may be a common word: "Budget", "Ship".)
    name_stems = {w for n in sa.names + sb.names if not n.initial for w in n.words} - lexicon().common_acronyms
    # (A word one side has only inside a compound, "call" of "on-call", anchors nothing.)
    # (One written with a hyphen, the other with a space, is one phrase: "payments-service" / "payments service".)
    # (Or words of one root: "dentist" / "dental".)
    whole_a, whole_b = whole_stems(a), whole_stems(b)
    whole = (
        (whole_a & whole_b)
        | {t for t in whole_a if any(one_root(t, u) for u in whole_b)}
        # (and a role's noun and its verb, both speaking of the role: "the maintainer of Ferrous" / "maintained by
        # Jonas")
        | (
            {t for t in whole_a & _role_stems() if any(same_term(t, u) for u in whole_b & _role_stems())}
            if _in_role(sa) and _in_role(sb)
            else set()
        )
        | _spaced(a, b)
        | _spaced(b, a)
    )
    slot_nouns = _slot_nouns(a, b)
    shared = [t for t in subj.shared if (t in whole or t in name_stems or t in subj.spelled) and t not in slot_nouns]
    # Words the two share only after their first verb (in what they say, not in what they are about: "The board
    # meets quarterly" / "Mei-Lin and I meet once a month"), or only in what two differing counts count ("The
    # platform team has 8 engineers" / "Marlowe is active, with two engineers on it"), anchor nothing when each
    # names, before its first verb, something the other does not. ("We need three reviewers" / "Two reviewers are
    # enough" count one thing; in a role the thing held comes after the verb: "Boris owns the scripts".)
    anchor_agreed = set(agreed)
    if shared and ea is not None and eb is not None:
        count_nouns = {w for d in diffs for w in _stems_in(d.a) & _stems_in(d.b)}
        lead_a, lead_b = _lead(a, ea), _lead(b, eb)
        # (whose a thing is says nothing of which thing it is: "User's weekly piano lesson" / "User's weekly Spanish
        # class" share only their owner before their verbs; a name's possessive may be what both are about: "Wren's
        # CI runs on GitHub Actions" / "Wren pipelines are on Buildkite")
        owners = {
            t.stem
            for x in (a, b)
            for t in x.tokens
            if t.kind == "word" and t.low.endswith("'s") and t.stem in lexicon().own
        }
        if (
            (set(shared) <= count_nouns or not ((lead_a | lead_b) - owners) & set(shared))
            and {t for t in lead_a if not matches(t, sb)} - subj.spelled
            and {t for t in lead_b if not matches(t, sa)} - subj.spelled
            and not (_in_role(sa) or _in_role(sb) or any(as_value for _na, _nb, as_value in pairs))
        ):
            shared = []
            # (nor does a schedule both give: "User's weekly long run is on Sunday" / "User's weekly swim is on
            # Wednesday" are two things done weekly)
            anchor_agreed -= {"when", "frequency"}
    # (A capitalised word both open with may be a common word, "Budget", or a name: it is a name when each
    # statement goes on, before its first verb, to name a thing the other does not: "Atlas builds take 5 minutes" /
    # "Atlas deploys take 20 minutes" are two things of Atlas.)
    # (Not a word the vocabulary knows as a common one: "Trash pickup" / "Garbage collection day".)
    known = _vocabulary_words()
    openers = {w for n in sa.names if n.initial and n.key not in known for w in n.words} & {
        w for n in sb.names if n.initial and n.key not in known for w in n.words
    }
    if (
        shared
        and set(shared) <= openers
        and ea is not None
        and eb is not None
        and {t for t in _lead(a, ea) if not matches(t, sb)} - subj.spelled
        and {t for t in _lead(b, eb) if not matches(t, sa)} - subj.spelled
    ):
        name_stems = name_stems | openers
    if shared and set(shared) <= name_stems:
        # (nor, when a name is all the two share, does a time both give: "Noor's piano lesson is on Saturdays at
        # 10:30" / "Noor's screen time: 2 hours a day at weekends" are two things of hers)
        anchor_agreed -= {"when", "frequency"}
    anchored = (
        same_key
        or len(shared) >= 2
        or any(t not in name_stems for t in shared)
        or bool(anchor_agreed - _owners_of_versions(a, b) if "version" in dims else anchor_agreed)
        or any(f not in name_stems for f in flips)  # a name negated on one side is no subject either
        or bool(states)
        or bool(nominal)
    )
    # Only the memory's own person in common ("The user's dentist appointment is on December 3" / "The user's gym
    # membership renews in January"; "The user is allergic to peanuts" / "The user is learning Portuguese"): two
    # things of theirs, at two times or put two ways, not two answers to one question.
    own_only = bool(shared) and set(shared) <= lexicon().own and not same_key
    hedged = a.hedged or b.hedged
    decision = old.category == "decision" and new.category == "decision"
    # How sure the subject match is: 0.3 at SUBJECT_MIN, 1.0 from SUBJECT_SURE on; 0 without an anchor.
    subject_factor = (
        1.0 if same_key else 0.3 + 0.7 * max(0.0, min(1.0, (score - SUBJECT_MIN) / (SUBJECT_SURE - SUBJECT_MIN)))
    )
    # Only a name in common, but two members of a class a project or a person has one of ("Wren's CI runs on
    # GitHub Actions" / "Wren pipelines are on Buildkite now"): a `possible` conflict, for a person to look at.
    # The class, not the wording around the name, says the name is what both are about: the factor is the same
    # however little else the two share ("Quillon tracks its issues in Redmine" / "File Quillon bugs in ..."), and
    # it is the least an anchored pair gets ("User is vegan" / "User eats fish a couple of times a week").
    single = lexicon().single_classes
    # (A person has one age, too: "Maya is 8 years old" / "Maya turned eleven".)
    one_each = bool(shared) and (
        any(
            (k.startswith("enum:") and k[5:] in single)
            or (k.startswith("quantity:") and k[9:] in lexicon().single_quantities)
            for k in dims
        )
        # (and one birth date: "Mia's birthday is on 14 March" / "Mia was born on 3 April")
        or ("when" in dims and _birth_date(a) and _birth_date(b))
    )
    # A name is all the two share, but both give it a measure of one kind (a length, a mass, a duration, a count of
    # one noun) and no more, and they do not each name something before their first verbs the other does not: one
    # measure of one thing ("The Golf has about 40,000 miles on the clock" / "User's Golf is on roughly 95,000
    # miles"; not "Atlas builds take 5 minutes" / "Atlas deploys take 20 minutes").
    one_measure = (
        not anchored
        and bool(shared)
        and bool(dims)
        and all(k.startswith("quantity:") and k != "quantity:" for k in dims)
        and score >= SUBJECT_SURE
        and not (_own_lead(a, ea, sb) and _own_lead(b, eb, sa))
    )
    if anchored and changed_kind:
        subject_factor = 1.0  # the thing changed is the older statement's subject: the match is sure
    if not anchored:
        subject_factor = SINGLE_CLASS_FACTOR if one_each or one_measure else 0.0
    elif one_each:
        subject_factor = max(subject_factor, SINGLE_CLASS_FACTOR)

    # A change whose result is what the older statement says ("the server was upgraded to 64 GB" / "the server has
    # 64 GB") confirms it: nothing differs, and the value the change went to agrees with the older one.
    # So does one that retires something the older does not say, for what the older says ("Slack has been dropped;
    # the team chats on Teams" / "The team chats on Teams").
    confirms = bool(cues) and not moved and not dims and (_changed_to(b, a) or _replaced_by(b, a))
    if (
        (cues or moved)
        and not confirms
        and (len(dims) <= 2 or moved)
        and (dims or moved or score >= CUE_SUBJECT or same_key)
    ):
        conf = (0.85 if moved else 0.7 if dims else 0.6) * subject_factor * (0.85 if hedged else 1.0)
        why = moved or f"says it changed ({', '.join(cues[:2])})"
        if dims and not moved:
            d = next(iter(dims.values()))
            why += f"; {d.a or '·'} / {d.b}"
        return _conflict("decision_supersession", conf, score, why)

    # The older statement says a thing ended, the newer that it goes on ("Ana left Acme in 2023" / "Ana still works
    # at Acme"): a negation of the ending.
    kept = "" if cues or moved or len(dims) > 1 else _still_holds(a, b)
    if kept and (score >= CUE_SUBJECT or same_key):
        conf = 0.7 * subject_factor * (0.85 if hedged else 1.0)
        return _conflict("direct_negation", conf, score, f"says it goes on: {kept}")

    # When one starts and when it ends are two times, not two answers ("Registration opens on Monday" /
    # "Registration closes on Friday"; "leaves at 06:40" / "lands at 09:15").
    # A birth date against another day of the same person ("Sam's birthday is 8 November" / "Dinner for Sam's
    # birthday, Sat 7 Nov"; "Felix lost his first tooth on 22 Oct"): the other day is of another event.
    if set(dims) == {"when"} and _birth_date(a) != _birth_date(b) and not (cues or moved or same_key):
        return Relation(
            "compatible",
            None,
            round(score, 3),
            score,
            f"a birth date and another day: {dims['when'].a} / {dims['when'].b}",
        )
    if own_only and set(dims) == {"when"} and not (_birth_date(a) and _birth_date(b)) and not (cues or moved):
        return Relation("unrelated", None, 0.0, score, f"only the owner in common: {dims['when'].a} / {dims['when'].b}")
    if set(dims) == {"when"} and None not in (ends := (_span_end(a), _span_end(b))) and ends[0] != ends[1]:
        return Relation("compatible", None, round(score, 3), score, f"two ends of one span: {ends[0]} / {ends[1]}")
    # "Millie, our other labrador, eats 300 g" against "Max, our labrador, eats 250 g": the other one of a kind the
    # two share is another subject.
    # "The data pipeline team holds its standup at 9:15" against "The data pipeline runs nightly at 02:00": a group
    # named by the thing the other statement is about is another subject, the people, not the thing.
    group = "" if (_in_role(sa) or _in_role(sb) or same_key) else (_group_of(a, b, ea) or _group_of(b, a, eb))
    if group:
        return Relation("unrelated", None, 0.0, score, f"about a group named after it: {group}")
    # "We deploy the frontend on Fridays" / "We deploy the backend on Mondays": one frame, a value said of two things.
    if (
        not same_key
        and (things := which_thing(a, b))
        # (words the subject match takes for one: "dentist" / "dental")
        and not any(matches(stem(w), sb) for w in things[0].split())
        and not any(matches(stem(w), sa) for w in things[1].split())
    ):
        return Relation("unrelated", None, 0.0, score, f"about another one: {things[0]} / {things[1]}")
    other = _another_of(a, b) or _another_of(b, a)
    if other and not same_key:
        return Relation("unrelated", None, 0.0, score, f"about another one: {other}")
    # "My pottery class is on Thursdays" / "Jen's pottery class is on Mondays": one thing of the person the memory is
    # for, and one of someone named, are two.
    whose = _whose(a, b)
    if whose and not same_key:
        return Relation("unrelated", None, 0.0, score, f"whose: {whose}")
    # A statement that says it adds ("Dave also runs Ben's cricket club on Thursdays", against "Ben's football is on
    # Tuesdays; the coach is Dave") and differs only in values gives a second fact beside the first.
    if dims and (_adds(a) or _adds(b)) and not any(k in ("polarity", "state") for k in dims):
        what = "; ".join(f"{d.a or '·'} / {d.b}" for d in list(dims.values())[:2])
        return Relation("compatible", None, round(score, 3), score, f"adds a second fact: {what}")
    # Another subject with its own value: two independent differences ("Atlas" / "Orbit" and "Postgres" / "MySQL").
    # A statement that negates what the other asserts ("We don't use LaunchDarkly; flags live in ...") is about that
    # claim: a capitalised sentence opener it pairs with another name is no second subject. Nor is a negation a
    # second subject when the rest differs only in a value ("runs in us-east-1" / "lives in eu-west-1; there is no
    # production cluster in any US region"); a qualifier or a name that differs too says another subject ("the
    # public API has a rate limit" / "the internal API has no rate limit").
    # A correction that rejects what the other says ("bought from Evans Cycles, not Cycle Republic", "leaves from
    # Luton rather than Gatwick") is about that claim: the name it puts in its place is the new value, no second
    # subject.
    counted = dims
    if "polarity" in dims:
        counted = {k: d for k, d in dims.items() if not (k.startswith("name") and initial)}
        if flips and all(f in a.rejected or f in b.rejected for f in flips):
            counted = {k: d for k, d in counted.items() if not k.startswith("name")}
        # (A label that says which one, "Ticket 4411" / "Ticket 4412", is another subject as a name is.)
        if not any(
            (k.startswith(("name", "label:")) and d.ctype == "subject") or k in ("qualifier", "holder")
            for k, d in counted.items()
        ):
            counted = {k: d for k, d in counted.items() if k != "polarity"}
    if "polarity" in counted and "qualifier" in counted and qual_head:
        # The denied thing is the other's, qualifier and all ("has an Uplift V2 standing desk" / "works at a
        # fixed-height desk and doesn't own a standing desk"): the other qualifier is of another mention, no second
        # subject.
        denied = _stems_in(dims["polarity"].b)
        if qual_head in denied and len(denied) > 1:
            counted = {k: d for k, d in counted.items() if k != "qualifier"}
    if "state" in counted:
        # A value whose word is what the flipped state is of is that flip said again ("prefers an aisle seat" /
        # "pick a window seat, they dislike the aisle"), no second difference.
        held = lexicon().object_states
        objects = {w for x, y in states if x.cls in held for w in x.after & y.after}
        counted = {k: d for k, d in counted.items() if k == "state" or not (_stems_in(d.a) ^ _stems_in(d.b)) & objects}
    placed = {  # (a value on both sides, or a person named with a title: "Dr. Alvarez")
        f"name{k}"
        for k, (na, nb, _v) in enumerate(pairs)
        if (na.value_like or na.titled) and (nb.value_like or nb.titled)
    }
    valued = [k for k, d in counted.items() if k in placed and d.ctype != "subject"]
    if len(valued) > 1 and len(valued) == len(counted):
        # Every difference is a name where a value goes on both sides ("User's dentist, Dr. Alvarez, works at Elm
        # Street Surgery" / "… is Dr. Kim at Harbour Practice"): the one answer, given in parts, is another
        counted = {valued[0]: counted[valued[0]]}
    if not same_key and len(counted) >= 2:
        what = "; ".join(f"{d.a or '·'} / {d.b}" for d in list(dims.values())[:2])
        return Relation("unrelated", None, 0.0, score, f"another subject: differs in {len(dims)} ways ({what})")

    if (
        dims
        and any(d.ctype == "subject" for d in dims.values())
        and all(d.ctype == "subject" or name == "qualifier" for name, d in dims.items())
    ):
        d = next(d for d in dims.values() if d.ctype == "subject")
        if anchored and pairs and _claimed_names(a, b, ea, eb, pairs):
            # Two names in what both claim of one subject ("Hannah is based in the Manchester office" / "Hannah
            # works out of the Leeds office"): which one is the claim, a `possible` conflict
            return _same_frame(d.a, d.b, score, decision)
        return Relation("unrelated", None, 0.0, score, f"about another subject: {d.a} / {d.b}")
    if set(dims) == {"qualifier"} and claimed_head and anchored:
        # Two members of one value class qualifying a word in what both claim ("the key is on the blue keyring" /
        # "on the red keyring"; the colour class counts only beside its own head words): which one is the claim,
        # two answers in one frame, a `possible` conflict
        return _same_frame(dims["qualifier"].a, dims["qualifier"].b, score, decision)
    if set(dims) == {"qualifier"}:
        # Only a qualifier of a shared word differs ("background jobs" / "async jobs"): another subject or another
        # word for the same one; neither is a claim against the other.
        return Relation(
            "compatible",
            None,
            round(score, 3),
            score,
            f"same words, qualified differently: {dims['qualifier'].a} / {dims['qualifier'].b}",
        )
    if dims:
        d = max(dims.values(), key=lambda d: d.strength)
        ctype = d.ctype
        if decision:
            ctype = "decision_supersession"
        elif d.dim.startswith("name") or d.dim in ("place", "qualifier", "holder"):
            if old.source_ref and new.source_ref and old.source_ref != new.source_ref:
                ctype = "source_disagreement"
        factor = subject_factor
        if d.dim == "polarity" and nominal:
            # the denied noun and the state word share their root: that is what the two are about, however few
            # other words they share ("Sam has no food allergies" / "Sam is allergic to peanuts")
            factor = max(factor, NOMINAL_FACTOR)
        conf = d.strength * factor * (0.8 if hedged else 1.0)
        if kin_named:
            conf = min(conf, FRAME_CONFIDENCE)
        if same_key:
            conf = max(conf, 0.6)
        label = {"polarity": "negates", "polarity-value": "negates", "state": "opposite states"}.get(d.dim, "differs")
        return _conflict(ctype, conf, score, f"{label}: {d.a + ' / ' if d.a else ''}{d.b}")

    # Nothing differs.
    added = slots_only_a | slots_only_b
    names_added = bool(subj.only_a_names or subj.only_b_names)
    if decision and same_key and score < RESTATE_MIN:
        return _conflict("decision_supersession", 0.6, score, "a new decision for this key says something else")
    # No value list knows the words, but the two put one span in the same frame differently: a `possible`
    # conflict for a person to look at, never a merge and never a silent "compatible".
    swapped = substitution(a, b) if anchored else None
    if swapped is not None and own_only and not _only_swapped(a, b, swapped):
        # (only the memory's own person in common: one span put for another in a frame is a claim against the other
        # only when nothing else differs, "User prefers tea" / "User prefers coffee")
        swapped = None
    if swapped is None and anchored and not own_only and score >= CUE_SUBJECT:
        swapped = complement(a, b, same_term)
    if swapped is not None and (_adds(a, final_only=True) or _adds(b, final_only=True)):
        swapped = None  # "The repo has no README either": a second fact beside the first, not another answer
    if swapped is not None and _two_attributes(slots_only_a, slots_only_b):
        swapped = None
    if swapped is not None and _measured(a, swapped[0]) and _measured(b, swapped[1]):
        swapped = None  # what two measures are of ("40 GB of storage" / "95 GB of memory"): two things measured
    if swapped is not None and agreed and not (slots_only_a or slots_only_b) and ea is not None and eb is not None:
        # Every value both give agrees, both claim it (after their first verbs), and what differs is the words
        # around it ("lives at 42 Fernhill Road" / "User's home is 42 Fernhill Road"), not a value written two ways
        # ("main" / "master"); a value in what both are about ("Errors in the Go services") is no such claim.
        # (A time is when the claim holds, not the claim: "is available on Fridays" / "is booked on Fridays"; a
        # birth date is the claim: "Mia's birthday is on 14 March" / "Mia was born on 14 March".)
        timed = agreed & {"when", "frequency"}
        claimed_both = (not timed or (timed == {"when"} and _birth_date(a) and _birth_date(b))) and all(
            v.start >= end for x, end in ((a, ea), (b, eb)) for v in x.values if slot_of(v) in agreed
        )
        if claimed_both:
            said = {w for v in (*a.values, *b.values) for w in v.text.lower().split()}
            if not {w for span in swapped for w in span.lower().split()} & said:
                swapped = None
    if swapped is not None:
        return _same_frame(swapped[0], swapped[1], score, decision)
    # A restatement says the same with the same subject words (in any form: stems, short forms, spellings): a word
    # one side has and the other lacks is a detail, and the statement is kept as a record of its own
    # (consolidation must never swallow a claim).
    # Every other word counts too ("before" / "after", "left" / "right", "more" / "less" are claims): only
    # articles, pronouns, forms of "be" and the like may differ.
    near = amounts_near(a, b)
    extra_a = sum(w for t, w in sa.content.terms.items() if not matches(t, sb))
    extra_b = sum(w for t, w in sb.content.terms.items() if not matches(t, sa))
    loose_a, loose_b = _plain_words(a) - _plain_words(b), _plain_words(b) - _plain_words(a)
    if (
        score >= RESTATE_MIN
        and not added
        and not names_added
        and not hedged
        and max(extra_a, extra_b) <= 0.5
        and not loose_a
        and not loose_b
        and not near
        and not _refined(a, b)
        and not surface_differs(old.text, new.text, a, b)
    ):
        return Relation(
            "restatement",
            None,
            round(min(1.0, score + 0.3), 3),
            score,
            "same claim" + (f" ({', '.join(sorted(agreed))} agree)" if agreed else ""),
        )
    # Two exact amounts within the drift ("EUR 1,450 a month" / "1,300 euros a month"): not one value (a person
    # who wrote both figures meant two), and not surely two either: a `possible` conflict, never a merge.
    close = exact_near(a, b) if not hedged else ""
    if close:
        return Relation(
            "possible", "quantitative_drift", FRAME_CONFIDENCE, score, f"amounts within {DRIFT:.0%}: {close}"
        )
    detail = sorted(added) or ["wording"]
    if added or names_added:
        why = f"same subject, adds {', '.join(detail)}"
    elif near:
        why = f"same subject, amounts within {DRIFT:.0%} of each other: {near}"
    else:
        why = CONSISTENT
    return Relation("compatible", None, round(score, 3), score, why)


# The reason of a compatible pair that adds nothing (no value, name, word of substance or amount): what an agent's
# declared restatement may consolidate into (`CaptureOps._declared`).
CONSISTENT = "same subject, consistent"


# Words whose presence or absence never changes a claim: articles, pronouns, present forms of "be", "do" and
# "have", conjunctions. (Not the modals, "must" / "may", nor the past and future forms, "is with Tom" / "was with
# Tom", "will move" / "did move": a statement that differs in one says something else, and is kept as a record of
# its own.)
TRIVIAL = frozenset(
    """
    the a an this that these those our ours their theirs its it his her hers my mine your yours we they i you he she
    them us me is are be been being am and or of to as so also just really very please here there then
    currently now still actually do does has have
    """.split()
)


def _only_swapped(a: Analysis, b: Analysis, swapped: tuple[str, str]) -> bool:
    """Every word of the two statements outside the substituted spans is the same, and is more than the memory's
    own person: one span put for another in one frame and nothing else said ("User prefers tea" / "User prefers
    coffee"; not "The user is allergic to shellfish" / "The user is learning Japanese", two things of theirs)."""
    rest = _plain_words(a) - _stems_in(swapped[0])
    return rest == _plain_words(b) - _stems_in(swapped[1]) and bool(rest - lexicon().own)


def _owner_alone(bare: SubjectMatch, sa: Side, sb: Side, claimed: set[str] | frozenset[str]) -> bool:
    """What two statements share, their claims left out, is the memory's own person alone, and each says another
    thing of that person the other does not ("The user's dentist is Dr. Alvarez" / "The user's plumber is Dr.
    Kim"): two things of one person, not one. (One that says nothing but the person, "User lives in Oakland" /
    "The user moved out of the Bay Area and now lives in Sacramento", is about where that person lives.)"""
    own = lexicon().own
    if set(bare.shared) - own:
        return False
    rest_a = [t for t in sa.terms if t not in claimed and t not in own and t not in bare.shared]
    rest_b = [t for t in sb.terms if t not in claimed and t not in own and not matches(t, sa)]
    return bool(rest_a) and bool(rest_b)


def _name_pairs(subj: SubjectMatch, sa: Side, sb: Side) -> list[tuple[Name, Name, bool]]:
    """Names only one side has, paired across, each with whether the pair is a value (True) or two subjects.

    Names written as names pair first; a capitalised sentence opener ("Designers use ...") counts only where a side
    has no other unmatched name. A name in a role both statements speak of ("owns", "maintainer", "account
    manager") or where a value goes ("in Lisbon") is a value; one that qualifies a word ("Atlas staging",
    "Noah's laptop") or stands alone as what the statement is about ("Atlas ships weekly" / "Harbor ships weekly")
    is a subject."""
    # Names where a value goes pair with each other first ("owned by Caspian" / "owned by Wendeline"), the others
    # after them in order ("the service in Corvid" / "Fathom's service").
    # (The owner word, "User's", is the memory's own person, whom a statement may or may not name: no name to pair.)
    own = lexicon().own
    only_a, only_b = (
        sorted(_prefer_shaped([n for n in names if n.key not in own]), key=lambda n: not n.value_like)
        for names in (subj.only_a_names, subj.only_b_names)
    )
    if len(only_a) == len(only_b) and sum(n.titled for n in only_a) == sum(n.titled for n in only_b) == 1:
        # a person's name pairs with a person's, whatever order the rest stands in ("Dr. Alvarez at Elm Street
        # Surgery" / "works at Harbour Practice"; "Dr. Kim"): one person, one place
        only_b = _aligned(only_a, only_b)
    role = _in_role(sa) and _in_role(sb)
    out = []
    holders = _holder_stems()
    for na, nb in zip(only_a, only_b, strict=False):
        # In a role, "Chen's team" is who holds it, as "Chen" is ("Ravi owns the billing service" / "The billing
        # service belongs to Chen's team now"): a possessive before a word for a team says which holder.
        qualifier = (
            (na.possessive and not (role and na.next_stem in holders))
            or (nb.possessive and not (role and nb.next_stem in holders))
            or na.scoped
            or nb.scoped
            or any(
                n.next_stem and not n.next_plural and matches(n.next_stem, other) for n, other in ((na, sb), (nb, sa))
            )
        )
        out.append((na, nb, bool(not qualifier and (role or (na.value_like and nb.value_like)))))
    return out


def _aligned(only_a: list[Name], only_b: list[Name]) -> list[Name]:
    """`only_b` reordered so that its one titled name stands where `only_a`'s does (two lists of one length, each
    holding one)."""
    ia = next(k for k, n in enumerate(only_a) if n.titled)
    ib = next(k for k, n in enumerate(only_b) if n.titled)
    rest = [n for k, n in enumerate(only_b) if k != ib]
    rest.insert(ia, only_b[ib])
    return rest


def _span_end(a: Analysis) -> str | None:
    """Which end of a span the statement gives a time for: "end" ("closes", "lands", "open until"), "start"
    ("opens", "departs"), or None."""
    lex = lexicon()
    toks = list(a.tokens)

    def said(phrases: tuple[tuple[str, ...], ...]) -> bool:
        # (a word followed by "of" names a point in time, not an end of the span: "end of day", "start of Q3")
        return any(
            (m := match_any(toks, i, phrases)) and not (i + len(m) < len(toks) and toks[i + len(m)].low == "of")
            for i in range(len(toks))
        )

    if said(lex.span_ends):
        return "end"
    if said(lex.span_starts):
        return "start"
    return None


def _additive(a: Analysis) -> bool:
    """The statement says what it says with a verb that takes several members of a class at once ("supports")."""
    verbs = lexicon().additive_verbs
    return any(t.kind == "word" and t.low in verbs for t in a.tokens)


def _join_adjacent(dims: dict[str, Diff], a: Analysis, b: Analysis) -> None:
    """Two differing values that stand side by side in both statements are one value said in two parts ("runs in
    AWS eu-west-1" / "runs in GCP europe-west4": a cloud and its region), one difference, not two subjects."""
    keys = [k for k, d in dims.items() if d.ctype != "direct_negation" and d.a and d.b]
    for x in keys:
        for y in keys:
            if x == y or x not in dims or y not in dims:
                continue
            dx, dy = dims[x], dims[y]
            if dx.ctype == dy.ctype == "subject" or any(
                d.ctype == "subject" and not k.startswith("name") for k, d in ((x, dx), (y, dy))
            ):
                continue  # two subjects, or a value that says which subject ("the printer on floor 2")
            # (a place joined by a preposition belongs to a name where a value goes, not to a subject: "is Dr.
            # Alvarez at Elm Surgery", not "met Dr. Alvarez at Elm Surgery")
            placed = dx.ctype != "subject"
            if _adjacent(a, dx.a, dy.a, placed) and _adjacent(b, dx.b, dy.b, placed):
                # a name beside a value is part of it ("AWS eu-west-1"): the value says what kind of difference
                strong = max((d for d in (dx, dy) if d.ctype != "subject"), key=lambda d: d.strength)
                dims[x] = Diff(strong.dim, strong.ctype, strong.strength, f"{dx.a} {dy.a}", f"{dx.b} {dy.b}")
                del dims[y]


def _adjacent(a: Analysis, first: str, second: str, placed: bool = True) -> bool:
    """The value or name written `first` ends where the one written `second` starts, or, for two names, where a
    preposition that places the second or a bracket before it starts: "Dr. Alvarez at Bright Smile Dental", "Dr.
    Kim (Harbour Dental)", a person and where they are (only with `placed`: the first is where a value goes)."""

    def spans(text: str) -> list[tuple[int, int]]:
        out = [(v.start, v.start + len(v.text.split())) for v in a.values if v.text == text]
        return out + [(n.start, n.start + len(n.text.split())) for n in a.names if n.text == text]

    # (two values with a preposition between are two things said of the claim: "from home on Tuesdays")
    return any(end == start for _s, end in spans(first) for start, _e in spans(second)) or (
        placed
        and any(placed_after(a.tokens, x, y) for x in a.names if x.text == first for y in a.names if y.text == second)
    )


def _claimed_names(
    a: Analysis, b: Analysis, ea: int | None, eb: int | None, pairs: list[tuple[Name, Name, bool]]
) -> bool:
    """Every differing name stands after its statement's first verb, where a value goes on one side at least, and
    qualifies the word the other name qualifies ("is based in the Manchester office" / "works out of the Leeds
    office"), and the two say it of one subject: the words before their first verbs are the same. (A name a role
    verb takes is no such value: "Dana owns the Atlas service" / "Dana owns the Harbor service" are two services.)"""
    if ea is None or eb is None:
        return False
    if any(
        na.start < ea
        or nb.start < eb
        or not (na.value_like or nb.value_like)
        or not na.next_stem
        or na.next_stem != nb.next_stem
        or is_function(na.next_stem)
        for na, nb, _v in pairs
    ):
        return False
    lead_a, lead_b = _lead(a, ea), _lead(b, eb)
    return bool(lead_a) and lead_a == lead_b


def _diet_breach(a: Analysis, b: Analysis) -> tuple[str, str] | tuple[()]:
    """`a` gives a diet (not denied) and `b`, which gives none, says its subject eats something that diet leaves
    out, beside a verb of eating and not denied: (the diet, the food); () when not."""
    lex = lexicon()
    diets = [v for v in a.values if v.kind == "enum" and v.key == "diet" and not v.negated]
    if len(diets) != 1 or any(v.kind == "enum" and v.key == "diet" for v in b.values):
        return ()
    left_out = lex.diet_excludes.get(str(diets[0].val), frozenset())
    if not any(t.kind == "word" and t.low in lex.diet_eating for t in b.tokens):
        return ()
    eaten = sorted(w for w in left_out & b.affirmed if w not in b.negated)
    return (diets[0].text, eaten[0]) if eaten else ()


def _same_frame(x: str, y: str, score: float, decision: bool) -> Relation:
    """One span put two ways in a frame both statements share: a `possible` conflict for a person to look at."""
    ctype = "decision_supersession" if decision else "mutually_exclusive"
    return Relation("possible", ctype, FRAME_CONFIDENCE, score, f"same frame, differs: {x} / {y}")


def _spaced(a: Analysis, b: Analysis) -> set[str]:
    """The stems of the parts of a hyphenated word of `a` that `b` writes as words, side by side and in order."""
    joined = [t.low for t in a.tokens if t.kind == "word" and "-" in t.low.strip("-")]
    if not joined:
        return set()
    seq = [t.stem or stem(t.low) for t in b.tokens if t.kind == "word"]
    out: set[str] = set()
    for word in joined:
        parts = [stem(p) for p in word.split("-") if p]
        if len(parts) >= 2 and any(seq[k : k + len(parts)] == parts for k in range(len(seq) - len(parts) + 1)):
            out |= set(parts)
    return out


def _classes_of(a: Analysis, stems: tuple[str, ...]) -> set[str]:
    """The value classes a one-word qualifier of `a` is a member of, whatever words its class counts it beside."""
    if len(stems) != 1:
        return set()
    classes = lexicon().classes
    return {c[0] for t in a.tokens if (t.stem or stem(t.low)) == stems[0] for c in classes.get((t.low,), ())}


def _stated_after(a: Analysis, head: str, end: int) -> bool:
    """Every word of `a` with the stem `head` stands after token `end` (the first verb): in what is claimed."""
    at = [t.i for t in a.tokens if t.kind == "word" and (t.stem or stem(t.low)) == head]
    return bool(at) and all(i > end for i in at)


def _said_twice(a: Analysis, stems: tuple[str, ...]) -> bool:
    """Each of these stems is written at least twice in `a`."""
    said = [t.stem or stem(t.low) for t in a.tokens if t.kind == "word"]
    return bool(stems) and all(said.count(w) >= 2 for w in stems)


def _inside_names(a: Analysis, stems: tuple[str, ...]) -> bool:
    """Every word of `a` with one of these stems is written inside one of its names."""
    spans: set[int] = set()
    for n in a.names:
        k, left = n.start, len(n.words)
        while k < len(a.tokens) and left:
            if a.tokens[k].kind == "word":
                spans.add(k)
                left -= 1
            k += 1
    want = set(stems)
    return all(
        t.i in spans for t in a.tokens if t.kind == "word" and ((t.stem or stem(t.low.removesuffix("'s"))) in want)
    )


def _claimed_words(diffs: list[Diff], pairs: list[tuple[Name, Name, bool]]) -> frozenset[str]:
    """The stems of the values two statements claim differently, and of the names that stand where a value goes
    ("owned by Tomas" / "owned by Aiko"; not two capitalised sentence openers, which may be common words)."""
    out = {w for d in diffs for w in _stems_in(d.a + " " + d.b)}
    for na, nb, as_value in pairs:
        if as_value and not (na.initial and nb.initial):
            out |= set(na.words) | set(nb.words)
    return frozenset(out)


def _attached_words(a: Analysis, b: Analysis, pairs: list[tuple[Name, Name, bool]]) -> frozenset[str]:
    """The words of a name that says where a differing name standing where a value goes is, on either side: after
    a placing preposition or in brackets right after it ("is Dr. Alvarez at Bright Smile Dental", "Dr. Kim (Harbour
    Dental)"). Part of the value claimed, not of what the two statements are about."""
    out: set[str] = set()
    for na, nb, as_value in pairs:
        if as_value:
            for x, n in ((a, na), (b, nb)):
                out |= {w for m in x.names if placed_after(x.tokens, n, m) for w in m.words}
    return frozenset(out)


def _placed_by(a: Analysis, n: Name) -> tuple[str, frozenset[str]] | None:
    """The place verb that puts `n` where a value goes (`Name.placed_by`: "lives in a two-bedroom flat in
    Oakland"), as its stem, with the stems of the content words between the two ("two-bedroom", "flat"); None
    when no place verb does."""
    if n.placed_by < 0:
        return None
    verb = a.tokens[n.placed_by]
    return verb.stem or stem(verb.low), frozenset(
        w
        for u in a.tokens[n.placed_by + 1 : n.start]
        if u.kind == "word" and not is_function(u.low)
        for w in {u.stem or stem(u.low)} | _stems_in(u.low.replace("-", " "))
    )


def _where_words(a: Analysis, b: Analysis, pairs: list[tuple[Name, Name, bool]]) -> frozenset[str]:
    """What one place verb puts each of two differing places in, said on both sides ("lives in a two-bedroom flat
    in Oakland" / "lives in a house in Sacramento"): where the person lives is the claim, the flat and the house
    with it, not what the two are about."""
    out: set[str] = set()
    for na, nb, as_value in pairs:
        if not as_value:
            continue
        pa, pb = _placed_by(a, na), _placed_by(b, nb)
        if pa is not None and pb is not None and pa[0] == pb[0]:
            out |= pa[1] | pb[1]
    return frozenset(out)


def _lead(a: Analysis, end: int) -> set[str]:
    """The stems of the content words before token `end` (its first verb), values left out: what `a` is about."""
    return {
        t.stem or stem(t.low) for t in a.tokens[:end] if t.kind == "word" and not t.used and not is_function(t.low)
    } | {w for n in a.names if n.start < end for w in n.words}


def _still_holds(a: Analysis, b: Analysis) -> str:
    """A change cue of `a` (the older) that `b` lacks, where `b`, which negates nothing, says that the thing goes on
    ("still", "always"; data file `[supersession] continuing`) and names a word that follows the cue in its clause
    ("left Acme" / "still works at Acme"): "<cue> / <continuing word>", else ""."""
    lex = lexicon()
    if b.negated:
        return ""
    toks_b = list(b.tokens)
    going = next((" ".join(p) for i in range(len(toks_b)) if (p := match_any(toks_b, i, lex.continuing))), "")
    if not going:
        return ""
    have = {stem(w) for c in b.cues for w in c.split()}
    toks = list(a.tokens)
    for i in range(len(toks)):
        p = match_any(toks, i, lex.strong_cues)
        if p is None or all(stem(w) in have for w in p):
            continue
        after = {
            t.stem or stem(t.low)
            for t in toks[i + len(p) :]
            if t.clause == toks[i].clause and t.kind == "word" and not is_function(t.low)
        }
        if after & (b.affirmed | {w for n in b.names for w in n.words}):
            return f"{' '.join(p)} / {going}"
    return ""


def _own_lead(a: Analysis, end: int | None, other: Side) -> set[str]:
    """The words `a` names before its first verb (all of them without one) that `other` does not have, whose-words
    left out ("User's")."""
    owners = {w for n in a.names if n.possessive for w in n.words}
    return {t for t in _lead(a, len(a.tokens) if end is None else end) if not matches(t, other)} - owners


def _slot_nouns(a: Analysis, b: Analysis) -> frozenset[str]:
    """Stems of the words that name a kind of value both statements give ("email" when both give an address)."""
    nouns = lexicon().slot_nouns
    both = {slot_of(v) for v in a.values} & {slot_of(v) for v in b.values}
    return frozenset(stem(w) for slot in both for w in nouns.get(slot, ()))


def _stems_in(text: str) -> set[str]:
    return {stem(w) for w in re.findall(r"[^\W_]+", fold(text).lower())}


def _same_text(old: Statement, new: Statement) -> bool:
    """The same text, whatever the spacing. (Not whatever the case: "`-r`" / "`-R`", "100 Mb/s" / "100 MB/s" are
    two claims; a pair that differs in case only is read as any other pair, and a restatement it is unless the case
    it differs in says something, `surface_differs`.)"""
    return old.text == new.text or _one_spaced(old.text) == _one_spaced(new.text)


@text_cache(maxsize=1024, max_chars=TEXT_CHARS)
def _one_spaced(text: str) -> str:
    """The text's words one space apart, as written (each text is compared with many statements: kept)."""
    return " ".join(text.split())


@text_cache(maxsize=1024, max_chars=TEXT_CHARS)
def _plain(text: str) -> str:
    """The text's words in lower case, one space apart (a long note is compared with many statements)."""
    return " ".join(text.lower().split())


def _after(a: Analysis, start: int) -> frozenset[str]:
    """The stems of the content words from token `start` on: what a statement says of its subject."""
    return frozenset(t.stem or t.low for t in a.tokens[start:] if t.kind == "word" and not is_function(t.low))


def _in_role(s: Side) -> bool:
    """The statement (or its title) speaks of a role one person or team holds ("owns", "maintainer")."""
    return s.content.role or (s.title is not None and s.title.role)


def _birth_date(a: Analysis) -> bool:
    """A date of `a` is a birth date: the words before it are a birth word and glue only ("born on 3 April",
    "birthday is on 14 March"; data file `[ages] births`)."""
    lex = lexicon()
    for v in live(a.values):
        if slot_of(v) != "when" or v.kind != "date":
            continue
        k = v.start - 1
        while k >= 0 and a.tokens[k].low in lex.birth_glue:
            k -= 1
        if k >= 0 and a.tokens[k].low in lex.births:
            return True
    return False


def _person_holder(names: tuple[Name, ...]) -> str:
    """The first name that holds the role, not a possessive; "" if none. A name holds it where a value goes ("owned
    by Ravi"; not a sentence opener there, which may be a common word), or as the one doing the role's verb ("Ravi
    owns the billing service": a word before "owns" is someone, even opening the sentence)."""
    return next(
        (
            n.text
            for n in names
            if not n.possessive and ((n.value_like and not n.initial) or n.next_stem in _role_stems())
        ),
        "",
    )


@functools.cache
def _role_stems() -> frozenset[str]:
    """Stems of the one-word role words (data file): "owns", "maintains", "leads", "runs" (the thing after it)."""
    return frozenset(stem(p[0]) for p in lexicon().roles if len(p) == 1) | {stem(w) for w in lexicon().object_verbs}


def _kin_and_named(q: tuple[str, tuple[str, ...], tuple[str, ...]], a: Analysis, b: Analysis) -> bool:
    """A qualifier pair of people: words for people someone has on one side ("the kids'"), names on the other."""
    return (_kin_words(q[1]) and _named_people(b, q[2])) or (_kin_words(q[2]) and _named_people(a, q[1]))


def _kin_words(words: tuple[str, ...]) -> bool:
    """Every word is a word for people someone has ("kids", "children", "parents")."""
    return bool(words) and all(w in _kin_stems() for w in words)


@functools.cache
def _kin_stems() -> frozenset[str]:
    return frozenset(stem(w) for w in lexicon().kin)


def _named_people(a: Analysis, words: tuple[str, ...]) -> bool:
    """Every word is a word of a name `a` gives, written whose ("Nora's"), or joined to one ("Leo and Nora's")."""
    named = {w for n in a.names for w in n.words}
    return bool(words) and all(w in named for w in words)


def _role_holders(a: Analysis) -> list[str]:
    """The names doing the role's verb ("Ruth runs the review": a role word with a determiner or a name after it)
    or after "by" right after a role word ("chaired by Dev"), with the names joined to them ("led by Mara and
    Kai"): who `a` says holds the role. A name only near one holds nothing ("a Loom for Laura (their PM)"), nor
    does one before a role word used as a noun ("the Quill on-call rotation")."""
    roles, toks, lex = _role_stems(), a.tokens, lexicon()
    starts = {n.start for n in a.names}
    out: list[str] = []
    for n in a.names:
        if n.possessive:
            continue
        k, after = n.start - 1, n.start + len(n.words) + 1
        does = n.next_stem in roles and after < len(toks) and (toks[after].low in lex.determiners or after in starts)
        by_role = k >= 1 and toks[k].low == "by" and (toks[k - 1].stem or stem(toks[k - 1].low)) in roles
        joined = bool(out) and k >= 0 and toks[k].low in ("and", "&", ",") and _ends_name(a, out[-1], k)
        if does or by_role or joined:
            out.append(n.text)
    return out


def _ends_name(a: Analysis, text: str, k: int) -> bool:
    """A name written `text` ends right before token `k`."""
    return any(n.text == text and n.start + len(n.words) == k for n in a.names)


def _group_of(x: Analysis, y: Analysis, end: int | None) -> str:
    """`x`, before its first verb, names a group (`[roles] holders`: team, squad, department) by a word `y` says of
    the thing itself and never of such a group ("the data pipeline team" / "the data pipeline"): the words, or "".
    Not a name's team ("the Sable team" / "Sable engineers": a project's or a company's people either way)."""
    holders = _holder_stems()
    stems_y = {t.stem or stem(t.low) for t in y.tokens if t.kind == "word"}
    grouped_y = {
        y.tokens[i - 1].stem or stem(y.tokens[i - 1].low)
        for i in range(1, len(y.tokens))
        if (y.tokens[i].stem or stem(y.tokens[i].low)) in holders
    }
    toks = x.tokens
    for i in range(1, len(toks) if end is None else min(end, len(toks))):
        t, prev = toks[i], toks[i - 1]
        here, before = t.stem or stem(t.low), prev.stem or stem(prev.low)
        if (
            t.kind == "word"
            and prev.kind == "word"
            and here in holders
            and here not in stems_y
            and before in stems_y
            and before not in grouped_y
            and not is_function(prev.low)
            and prev.text.islower()  # (a team named after a project or a company, "the Sable team", is its people)
        ):
            return f"{prev.text} {t.text}"
    return ""


def _as_written(term: str, *sides: Analysis) -> str:
    """A flipped term as the statements write it: the first word whose stem it is ("lin" is "line"), else itself."""
    for a in sides:
        for t in a.tokens:
            if t.kind == "word" and (t.stem or stem(t.low)) == term:
                return t.text
    return term


def _one_person(x: str, y: str) -> bool:
    """Two names that share a word may be one person ("Ruth" / "Ruth Ekwueme")."""
    return bool({w.lower() for w in x.split()} & {w.lower() for w in y.split()})


def _others(names: tuple[Name, ...]) -> list[Name]:
    """The names that are not the memory's own person ("User" opening a sentence is read as a name)."""
    return [n for n in names if n.key not in lexicon().owners_subject]


def _self_holds(a: Analysis, end: int | None) -> str:
    """The memory's own person is who does what `a` says (a word of `[owners] subject` before its first verb: "User
    runs the review", "I organise it") or where a value goes ("run by the user", "organised by me"): the words, or
    ""."""
    toks = a.tokens
    for i, t in enumerate(toks):
        if t.kind != "word" or t.low not in lexicon().owners_subject:
            continue
        k = i - 1 if i and toks[i - 1].low == "the" else i
        if (end is not None and i < end) or (k and toks[k - 1].low == "by"):
            return " ".join(u.text for u in toks[k : i + 1])
    return ""


def _named_team(a: Analysis, other: Analysis) -> str:
    """A team `a` names by what it is ("the payments team"), with words `other` does not have: its text, or ""."""
    holders = _holder_stems()
    for head, mods in a.modifiers.items():
        if head in holders and mods and not (mods & other.affirmed) and head not in other.affirmed:
            toks = list(a.tokens)
            at = next(k for k, t in enumerate(toks) if (t.stem or stem(t.low)) == head)
            start = at
            while start and (toks[start - 1].stem or stem(toks[start - 1].low)) in mods:
                start -= 1
            return " ".join(t.text for t in toks[start : at + 1])
    return ""


def _says_whose(a: Analysis, head: str) -> bool:
    """The word `head` is written possessive ("the search team's on-call") or after a scope word past its
    qualifiers ("for the payments team", as `Name.scoped` for a name): it says whose or what the statement is
    about, not who holds a role."""
    toks = list(a.tokens)
    for i, t in enumerate(toks):
        if t.kind != "word" or (t.stem or stem(t.low.removesuffix("'s"))) != head:
            continue
        if t.low.endswith("'s"):
            return True
        k = i - 1
        while k >= 0 and toks[k].kind == "word" and toks[k].low not in lexicon().scope_words and i - k <= 4:
            k -= 1
        if k >= 0 and toks[k].low in lexicon().scope_words:
            return True
    return False


@functools.cache
def _holder_stems() -> frozenset[str]:
    """Stems of the nouns that name who holds a role: a team, a department, an agency (data file)."""
    return frozenset(stem(w) for w in lexicon().role_holders)


def _within(a: Analysis, dim: str, end: int, bounded: bool = False) -> bool:
    """Every value of slot `dim` that `a` asserts stands before token `end` (and, with `bounded`, is a bound: "over
    $500")."""
    got = [v for v in a.values if not v.negated and v.role != "from" and slot_of(v) == dim]
    return bool(got) and all(v.start < end and (v.bound or not bounded) for v in got)


def _changed_to(b: Analysis, a: Analysis) -> bool:
    """`b` says what something changed to ("upgraded to 64 GB", "moved into room 4", "before moving to
    Copenhagen"), and `a` says that value (or names that name)."""
    a_names = {n.key for n in a.names if not n.negated}
    return any(
        v.start >= 1 and b.tokens[v.start - 1].low in ("to", "into") and value_agrees(v, list(a.values))
        for v in b.values
        if not v.negated and v.role != "from"
    ) or any(
        n.start >= 1 and b.tokens[n.start - 1].low in ("to", "into") and n.key in a_names
        for n in b.names
        if not n.negated and not n.initial
    )


def _replaced_by(b: Analysis, a: Analysis) -> bool:
    """`b` retires values ("Jenkins was replaced by GitHub Actions", "Slack has been dropped; we chat on Teams")
    that `a` does not assert, and asserts, in each slot it retires one of, a value that `a` asserts; or it retires
    only what `a` denies ("Redis was removed from the service" / "The service has no Redis dependency")."""
    old = [v for v in b.values if v.role == "from"]
    if not old:
        return False
    said = live(a.values)
    if any(value_agrees(v, said) for v in old):
        return False
    denied = [replace(v, negated=False) for v in a.values if v.negated]  # compared as said
    if all(value_agrees(v, denied) for v in old):
        return not any(slot_of(v) in {slot_of(o) for o in old} for v in live(b.values))
    new = [v for v in live(b.values) if slot_of(v) in {slot_of(o) for o in old}]
    return (
        bool(new) and all(value_agrees(v, said) for v in new) and {slot_of(v) for v in new} == {slot_of(o) for o in old}
    )


def _at_other_times(a: Analysis, b: Analysis) -> bool:
    """One side denies a thing at times (its negated days, dates, clock times) that differ, one by one, from every
    time the other side says it at, and says it at none of them: "The office isn't open on Sundays" / "The office
    is open on Saturdays" speak of two days."""
    for this, other in ((a, b), (b, a)):
        denied = [v for v in this.values if v.negated and slot_of(v) == "when"]
        said = [v for v in live(other.values) if slot_of(v) == "when"]
        if denied and not any(slot_of(v) == "when" for v in live(this.values)) and times_apart(denied, said):
            return True
    return False


def amounts_near(a: Analysis, b: Analysis) -> str:
    """Two amounts of one slot that agree only within the drift a conflict allows ("10 people" / "11 people", "40 GB"
    / "44 GB"), as "<a> / <b>": no conflict, and no restatement either, since merging one into the other would
    lose a number. "" when every amount one side gives, the other gives too. An approximate one ("about $55k",
    "roughly 11 minutes") says the same as any within the drift."""
    vb = live(b.values)
    for v in live(a.values):
        if v.kind not in ("quantity", "duration") or v.approx:
            continue
        # (a measure of another thing is no other answer: "40 GB of storage" / "95 GB of memory")
        same = [x for x in vb if x.kind == v.kind and slot_of(x) == slot_of(v) and not (x.of and v.of and x.of != v.of)]
        if same and not any(x.approx or _same_amount(x.val, v.val, same_unit(x, v)) for x in same):
            return f"{v.text} / {same[0].text}"
    return ""


def _refined(a: Analysis, b: Analysis) -> bool:
    """A version, a clock time, a date or a weekday one side gives that the other does not give exactly, though
    the two agree ("v2.1" / "v2.1.3", "9:30" / "9:30pm", "on the 1st" / "on the 1st and 15th"): merging one into
    the other would lose it."""
    kinds = ("version", "time", "date", "weekday")
    for x_side, y_side in ((a, b), (b, a)):
        ys = live(y_side.values)
        for v in live(x_side.values):
            if v.kind not in kinds:
                continue
            same = [y for y in ys if y.kind == v.kind and y.key == v.key]
            if same and not any(_exact(y) == _exact(v) for y in same):
                return True
    return False


def _exact(v: Value) -> object:
    """What a version or a clock time says exactly: the version; the minutes of a time ("9:30" and "09:30" agree,
    "9:30" and "9:30pm" do not)."""
    return v.val[:2] if v.kind == "time" and isinstance(v.val, tuple) else v.val


def _same_amount(x, y, same_unit: bool = False) -> bool:
    """One amount, however it was written ("3 days" / "72 hours", "£35 a month" / "£420 a year", "90 days" / "3
    months"): equal up to the rounding of the conversion (a month is 30.44 days, so within 1.5 %). Written in one
    unit, nothing was converted: only equal numbers are one amount ("door code 4471" / "4417")."""
    xs, ys = (x if isinstance(x, tuple) else (x,)), (y if isinstance(y, tuple) else (y,))
    tolerance = 0.0 if same_unit else 0.015
    return len(xs) == len(ys) and all(
        abs(p - q) <= tolerance * max(abs(p), abs(q)) for p, q in zip(xs, ys, strict=True)
    )


def _another_of(a: Analysis, b: Analysis) -> str:
    """ "our other labrador", "another flat": `a` speaks of another one of a kind `b` names ("" when not)."""
    toks = list(a.tokens)
    for i, t in enumerate(toks):
        if t.low not in lexicon().another or (t.low == "other" and i and toks[i - 1].low == "each"):
            continue
        if i and (toks[i - 1].low in lexicon().negation_cues or toks[i - 1].low.endswith("n't")):
            continue  # "no other flavour": only this one
        for k in range(i + 1, min(len(toks), i + 3)):
            u = toks[k]
            if u.kind != "word" or u.low == "than" or u.clause != t.clause:
                break
            # a member of a class both give ("our other labrador" / "Max, our labrador")
            member = next((v for v in a.values if v.kind == "enum" and v.start == k), None)
            if member is not None and any(w.kind == "enum" and w.val == member.val for w in b.values):
                return f"{t.text} {u.text}"
            if is_function(u.low) or u.used:
                continue
            if time_unit(toks, k) is not None:
                break  # "the other day", "another week"
            if (u.stem or stem(u.low)) in b.terms:
                return f"{t.text} {u.text}"
            break
    return ""


def _possessors(a: Analysis) -> dict[str, str]:
    """For each noun a possessive stands before ("my pottery class", "Jen's pottery class", "the kids' dentist"),
    whose it is: "self" (my, our, the user's) or the stem of the owner; the first noun group of each possessive."""
    out: dict[str, str] = {}
    toks = list(a.tokens)
    folded = fold(a.text)  # the tokens' offsets are in the folded text
    for i, t in enumerate(toks):
        if t.kind != "word":
            continue
        if t.low in lexicon().owners_self:
            owner = "we" if t.low in lexicon().owners_group else "self"
        elif t.low.endswith("'s") and len(t.low) > 3:
            owner = stem(t.low[:-2])  # "Jen's", "the kid's"
        elif t.low.endswith("s") and folded[t.end : t.end + 1] == "'" and i and toks[i - 1].low == "the":
            owner = stem(t.low)  # "the kids' dentist", "the neighbours' dog" (not "parents' evening", a kind)
        else:
            continue
        for u in toks[i + 1 : i + 4]:
            if u.low == "own" or u.low in lexicon().exclusive_before:
                continue  # "the user's own dentist", "the user's only car"
            if u.kind != "word" or u.clause != t.clause or is_function(u.low):
                break
            out.setdefault(u.stem or stem(u.low), owner)
    return out


def _whose(a: Analysis, b: Analysis) -> str:
    """A noun both name, one side's own ("my", "the user's") and the other's someone else's ("Jen's", "the kids'"):
    "<a> / <b>"."""
    pa, pb = _possessors(a), _possessors(b)
    for noun, x in pa.items():
        y = pb.get(noun)
        if y and {x, y} & {"self", "we"} and not _one_owner(x, y):
            return f"{x} / {y}"
    return ""


def _one_owner(x: str, y: str) -> bool:
    """Two owners are one: the same, the memory's person alone and with others ("my car" / "our car"), or "our"
    and a word for a group ("our fiscal year" / "the company's fiscal year")."""
    return x == y or {x, y} == {"self", "we"} or ("we" in (x, y) and ({x, y} - {"we"}) <= _holder_stems())


def _after_same_word(a: Analysis, na: Name, b: Analysis, nb: Name) -> bool:
    """Both names come right after one word, past articles and possessives ("drives a Honda Civic" / "drives a
    Tesla"), a word that is neither a preposition nor a name: what that verb takes on each side."""
    lex = lexicon()

    def before(x: Analysis, n: Name) -> str | None:
        k = n.start - 1
        while k >= 0 and x.tokens[k].low in lex.determiners:
            k -= 1
        if k < 0:
            return None
        t = x.tokens[k]
        if t.kind != "word" or t.text[:1].isupper() or t.low in lex.value_preps or is_function(t.low):
            return None
        return t.stem or stem(t.low)

    wa = before(a, na)
    return wa is not None and wa == before(b, nb)


def _kin_of(a: Analysis, b: Analysis) -> str:
    """`a` speaks of someone a person has ("Ana's sister", "the user's partner") where `b` speaks of that person
    and of no one of that kind: "<person>'s <kin> / <person>" ("" when not)."""
    kin = lexicon().kin
    common = lexicon().common_acronyms  # ("GP", "HR": common nouns, not whose)

    def bare(t) -> str:  # "mum's", "parents'": the word without its possessive mark
        return t.low.removesuffix("'s").rstrip("'")

    toks, other = list(a.tokens), list(b.tokens)
    for i, t in enumerate(toks[:-1]):
        nxt = toks[i + 1]
        if t.kind != "word" or not t.low.endswith("'s") or bare(nxt) not in kin:
            continue
        who = bare(t)
        if (
            i + 2 < len(toks)
            and toks[i + 2].kind == "word"
            and toks[i + 2].text[:1].isupper()
            and (
                any(who not in n.words and not n.initial and stem(n.key) not in common for n in _whose_names(b))
                or any(u.kind == "word" and u.low == toks[i + 2].low for u in other)
            )
        ):
            continue  # "the user's partner Dan" / "Dan's …": the name says who, and names are compared as names
        said = [k for k, u in enumerate(other) if u.kind == "word" and bare(u) == who]
        if said and not any(bare(u) in kin and stem(bare(u)) == stem(bare(nxt)) for u in other):
            return f"{t.text} {nxt.text} / {other[said[0]].text}"
    return ""


def _whose_names(b: Analysis) -> list[Name]:
    """The names `b` is about someone by: possessive ("Priya's dentist"), or standing before its first verb and
    where no value goes ("Priya works at Acme"); not a name it gives as a value ("is Dr. Alvarez at Elm Surgery",
    "Dr. Alvarez, works at …" after "User's dentist")."""
    end = subject_end(b)
    own = lexicon().own  # (the memory's own person, "User's", is whose by default, and no name to compare)
    return [
        n
        for n in b.names
        if n.key not in own and (n.possessive or (not n.value_like and (end is None or n.start < end) and not n.titled))
    ]


def _adds(a: Analysis, final_only: bool = False) -> bool:
    """The statement says it adds a fact ("also", "as well"; "too", "either" ending its sentence: data file
    `additions`). With `final_only`, "also" counts only in the first clause of its sentence ("is also allergic to
    peanuts"): inside a later clause it may add to that clause only ("a locum who also covers ...")."""
    toks = list(a.tokens)
    opening: dict[int, int] = {}  # sentence -> its first clause
    for t in toks:
        opening.setdefault(t.sent, t.clause)
    for i in range(len(toks)):
        p = match_any(toks, i, lexicon().additions)
        final = p is not None and len(p) == 1 and p[0] in lexicon().additions_final
        if final_only and not final and toks[i].clause != opening[toks[i].sent]:
            continue
        if p and (not final or i + 1 == len(toks) or toks[i + 1].kind == "punct"):
            return True
    return False


def _owners_of_versions(a: Analysis, b: Analysis) -> set[str]:
    """The class slots of the names a version is given of ("Node" of "Node 18"): when the versions differ, the two
    naming that thing alike is no sign they are about one subject ("Builds use Node 18" / "The lambda runtime is
    Node 20")."""
    values = [*live(a.values), *live(b.values)]
    owners = {v.key for v in values if v.kind == "version" and v.key}
    return {f"enum:{v.key}" for v in values if v.kind == "enum" and stem(str(v.val)) in owners}


@functools.cache
def _change_verbs() -> frozenset[str]:
    """The one-word change cues ("switched", "changed", "moved"): `[supersession] strong` and `directional`."""
    lex = lexicon()
    return frozenset(p[0] for p in (*lex.strong_cues, *lex.directional_cues) if len(p) == 1)


def _changed_kind(b: Analysis) -> str:
    """The first plural noun right after a one-word change verb of `b` ("changed dentists", "switched banks";
    "swapped energy suppliers" is not read): a change of one thing of that kind for another. Not one a relative makes
    ("User's sister changed dentists"). "" when there is none."""
    verbs = _change_verbs()
    kin = lexicon().kin
    toks = list(b.tokens)
    for k, (t, nxt) in enumerate(zip(toks, toks[1:], strict=False)):
        if (
            t.kind == "word"
            and t.low in verbs
            and nxt.kind == "word"
            and (nxt.text.islower() or ACRONYM_PLURAL.fullmatch(nxt.text))  # a noun, not a name ("handed Atlas")
            and nxt.low.endswith("s")
            and not nxt.low.endswith(("ss", "'s"))
            and not any(u.clause == t.clause and u.low.removesuffix("'s") in kin for u in toks[:k])
        ):
            return nxt.text
    return ""


def _two_attributes(only_a: set[str], only_b: set[str]) -> bool:
    """Each side gives a kind of value the other does not, and neither is a member of a class ("can be reached by
    email at …" / "is on the fifth floor"): two attributes of one thing, not one answer traded for another. (Two
    classes may answer one question: "drafted in Notion" / "drafted in Confluence".)"""
    kinds_a = {k.partition(":")[0] for k in only_a}
    kinds_b = {k.partition(":")[0] for k in only_b}
    return bool(kinds_a and kinds_b) and not (kinds_a & kinds_b) and "enum" not in kinds_a | kinds_b


@functools.cache
def _vocabulary_words() -> frozenset[str]:
    """The words the synonym and spelling tables name, either way: common words, not names."""
    variants = lexicon().variants
    return frozenset(variants) | frozenset(variants.values())


def _measured(a: Analysis, span: str) -> bool:
    """`span` is the one word a measure of `a` is of ("storage" of "40 GB of storage")."""
    words = _stems_in(span)
    return len(words) == 1 and any(v.of in words for v in a.values if v.kind in ("quantity", "duration"))


def _plain_words(a: Analysis) -> set[str]:
    """Stems of every word outside values, except the trivial ones (a word whose stem is a shorter word keeps its
    form: "only" stems to "on"), and the numbers outside values."""
    out = set()
    for t in a.tokens:
        if t.kind == "word" and not t.used and t.low not in TRIVIAL:
            st = t.stem or stem(t.low)
            out.add(st if len(st) > 2 else t.low)
        elif t.kind == "num" and not t.used:
            out.add(t.low)  # a number no value reader took ("on the 1st and 15th") is a word of the claim too
    return out


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

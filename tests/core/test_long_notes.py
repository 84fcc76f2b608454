"""Long notes: relation detection's work grows linearly with a note's length, and stays bounded (no timing).

A capture takes up to 64 KiB of text. Reading one (`slots.analyze`) and relating it to a stored note (`relate`)
used to take time quadratic in its length: walking back from every word of a long run of words for its qualifiers,
scanning every token of the text for each state or negation, reading every claim of a note against every claim of
the other. These tests count work instead of timing it: the lines of Python run (deterministic, whatever the
machine's load) for a text and for one four times as long, and the claim pairs `relate` reads. They also check that
the faster paths give the answers of the walks and scans they replace."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable

import pytest

from memkeeper.core import subjects
from memkeeper.core.relation import Statement, decision, relate
from memkeeper.core.slots import analysis, tokens
from memkeeper.core.slots.tokens import CLAUSE_MAX, Tok, is_function, tokenize

VOCAB = (
    "service database pipeline dashboard runbook cluster gateway scheduler backup release budget contract roadmap "
    "vendor report owner region port timeout retention deadline limit version channel format index"
).split()
NAMES = ["Alice", "Bob", "Orbit", "Atlas", "Kestrel", "Ravi", "Noah", "Wren"]


def _work(fn: Callable[[], object]) -> int:
    """The lines of Python `fn` runs (each turn of a loop counts): a measure of its work that does not depend on
    the machine's speed or load."""
    count = 0

    def trace(_frame, event, _arg):  # noqa: ANN001, ANN202
        nonlocal count
        if event == "line":
            count += 1
        return trace

    old = sys.gettrace()
    sys.settrace(trace)
    try:
        fn()
    finally:
        sys.settrace(old)
    return count


# Four times the text is at most this many times the work: linear work gives about 4 (the readers' fixed costs
# make it a little less or more); the loops this file guards against gave 5 to 15 on these texts.
LINEAR = 4.6


def _shapes(n: int, seed: int) -> dict[str, str]:
    """Long texts of n units, each shape stressing one reader: a single line of repeated words, a run of content
    words, negations and states in one clause, a checklist, facts, what remains, what became, from ... to, a
    passive in a clause that says how often."""
    r = random.Random(seed)

    def w() -> str:
        return r.choice(VOCAB)

    def nm() -> str:
        return r.choice(NAMES)

    return {
        "repeated word": "Long line: " + "word " * n,
        "content words": "Pasted: " + " ".join(w() for _ in range(n)),
        "negations": "It is " + " ".join(f"not {w()}" for _ in range(n // 2)) + ".",
        "states": " and ".join(f"the {w()} is {r.choice(['down', 'up', 'closed', 'open'])}" for _ in range(n // 4)),
        "checklist": "Checklist\n" + "\n".join(f"- [ ] {w()} {w()} {i}: run the {w()}" for i in range(n // 6)),
        "facts": " ".join(f"The {w()} {w()} is {r.randrange(2, 900)} now." for _ in range(n // 6)),
        "remaining": " ".join(f"{r.randrange(2, 30)} days of {w()} left." for _ in range(n // 5)),
        "becoming": " ".join(f"The weekly {w()} went monthly." for _ in range(n // 5)),
        "from to": " ".join(f"We moved the {w()} from {nm()} to {nm()}." for _ in range(n // 8)),
        "habitual": " ".join(
            f"Laptops are replaced every {r.randrange(2, 9)} years; {nm()} was removed." for _ in range(n // 10)
        ),
        "not yet": " ".join(f"The {w()} hasn't shipped yet, the {w()} is still not signed." for _ in range(n // 12)),
    }


def _analysis_work(text: str) -> int:
    return _work(lambda: analysis._analyze.__wrapped__(text))  # type: ignore[attr-defined]


@pytest.mark.parametrize("shape", sorted(_shapes(10, 0)))
def test_reading_a_text_four_times_as_long_is_about_four_times_the_work(shape: str) -> None:
    analysis.analyze("Warm up the word lists: the service is not down.")
    small, large = _shapes(400, 1)[shape], _shapes(1600, 2)[shape]
    ratio = _analysis_work(large) / _analysis_work(small)
    assert ratio < LINEAR, f"{shape}: {ratio:.2f}× the work for four times the text"


def test_a_clause_runs_to_at_most_clause_max_tokens(monkeypatch) -> None:
    toks = tokenize("Long line: " + "word " * 1000)
    sizes: dict[int, int] = {}
    for t in toks:
        sizes[t.clause] = sizes.get(t.clause, 0) + 1
    assert max(sizes.values()) <= CLAUSE_MAX
    # a sentence as notes write them keeps its clauses
    normal = [
        "The billing service, which Priya owns, deploys on Tuesdays but not on Fridays.",
        "Deploys are frozen from 20 December until 3 January unless the on-call lead approves a hotfix in writing.",
        "- [x] Book flights\n- [ ] Renew passport\n\nThe hotel is booked; the car is not.",
    ]
    capped = [[t.clause for t in tokenize(x)] for x in normal]
    monkeypatch.setattr(tokens, "CLAUSE_MAX", 10**9)
    assert capped == [[t.clause for t in tokenize(x)] for x in normal]


# -- qualifiers: the run before each word, computed once -------------------------------------------------------------


def _modifiers_by_walking(toks: list[Tok]) -> dict[str, frozenset[str]]:
    """`_modifiers` as it was: walking back from every word for its qualifiers (quadratic in a long run of words).
    Kept as the reference the run-by-run reading must agree with."""
    out: dict[str, set[str]] = {}
    n = len(toks)
    for i in range(n):
        t = toks[i]
        if t.kind != "word" or is_function(t.low) or (t.used and analysis._is_temporal_word(t.low)):
            continue
        mods: set[str] = set()
        k = i - 1
        if k >= 1 and toks[k].used and analysis._is_temporal_word(toks[k].low) and toks[k - 1].low.endswith("'s"):
            k -= 1
        while k >= 0 and len(mods) < 3:
            if toks[k].clause != t.clause or analysis._ends_group(toks, k):
                break
            mods.add(toks[k].stem or analysis.stem(toks[k].low))
            k -= 1
        k = i + 1
        if k < n and toks[k].low in ("for", "of") and toks[k].clause == t.clause:
            k += 1
            while k < n and toks[k].low in analysis.lexicon().determiners:
                k += 1
            if k < n and toks[k].kind == "word" and not toks[k].used and not is_function(toks[k].low):
                mods.add(toks[k].stem or analysis.stem(toks[k].low))
        if mods:
            out.setdefault(t.stem or analysis.stem(t.low), set()).update(mods)
        parts = t.low.split("-")
        if (
            len(parts) >= 2
            and all(len(x) >= 3 and x.isalpha() for x in parts)
            and not is_function(parts[-1])
            and i
            and (toks[i - 1].low in analysis.lexicon().determiners or toks[i - 1].low.endswith("'s"))
        ):
            out.setdefault(analysis.stem(parts[-1]), set()).update(analysis.stem(x) for x in parts[:-1])
    return {k: frozenset(v) for k, v in out.items()}


def test_qualifiers_read_once_per_run_are_those_of_the_walk_back() -> None:
    words = (
        "the spare car key house for of a Orbit's frontend Go services monthly User's rent likes spicy food runs "
        "on Mondays can't handle 3 pm , and ; word step is Alice Bob's team weekly the notification-service"
    ).split()
    rng = random.Random(3)
    for _ in range(300):
        text = " ".join(rng.choice(words) for _ in range(rng.randrange(1, 60)))
        toks = tokenize(text)
        analysis._read_values(toks, [])  # (the value readers mark the words they read, as `analyze` runs them)
        assert analysis._modifiers(toks) == _modifiers_by_walking(toks), text


# -- relating long notes: bounded pairs of claims --------------------------------------------------------------------


def _checklist(lines: int, ticked: int | None = None) -> str:
    return "Release checklist\n" + "\n".join(
        f"- [{'x' if i == ticked else ' '}] step {i}: check the {VOCAB[i % len(VOCAB)]}" for i in range(lines)
    )


def _count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    reads = [0]
    read_pair = decision._read_pair

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003
        reads[0] += 1
        return read_pair(*args, **kwargs)

    monkeypatch.setattr(decision, "_read_pair", counted)
    decision._relate.cache_clear()
    return reads


def test_a_long_checklist_with_one_box_ticked_reads_few_pairs_and_still_conflicts(monkeypatch) -> None:
    reads = _count_reads(monkeypatch)
    old, new = _checklist(300), _checklist(300, ticked=150)
    rel = relate(Statement(old), Statement(new))
    assert rel.kind == "conflict" and "pending / done" in rel.reason
    # each unchanged line meets its twin only; the ticked one meets its neighbours (before: 300 × 300 pairs)
    assert reads[0] <= 300 + decision.CLAIM_NEIGHBOURS + 1


def test_a_one_line_statement_against_a_long_note_meets_the_claims_it_shares_words_with(monkeypatch) -> None:
    reads = _count_reads(monkeypatch)
    facts = [f"The {VOCAB[i % len(VOCAB)]} of service {i} is {10 + i} minutes." for i in range(400)]
    rel = relate(Statement(" ".join(facts)), Statement("The timeout of service 217 is 900 minutes."))
    assert rel.is_conflict, rel
    assert reads[0] <= decision.CLAIM_NEIGHBOURS + 1


def test_relating_two_long_notes_four_times_as_long_is_about_four_times_the_work() -> None:
    def work(lines: int, tag: str) -> int:
        old = _checklist(lines).replace("step", f"{tag} step")
        new = _checklist(lines, ticked=lines // 2).replace("step", f"{tag} step")
        relate(Statement("Warm up: the service is down."), Statement("The service is up."))
        return _work(lambda: relate(Statement(old), Statement(new)))

    ratio = work(400, "alpha") / work(100, "beta")
    assert ratio < LINEAR, f"{ratio:.2f}× the work for four times the lines"


def test_a_long_note_with_claims_left_unread_is_never_a_restatement() -> None:
    old = _checklist(300)
    # every line again, then many new ones: past the bound, the new lines that are read are few
    new = old + "\n" + "\n".join(f"- [ ] extra {i}: check the {VOCAB[i % len(VOCAB)]}" for i in range(300))
    assert relate(Statement(old), Statement(new)).kind != "restatement"
    # every line said again word for word, in another order, is still a restatement (each meets its twin)
    lines = old.splitlines()
    shuffled = "\n".join([*lines[:2], *reversed(lines[2:])])
    assert relate(Statement(old), Statement(shuffled)).kind == "restatement"


def test_notes_within_the_bounds_are_read_in_full(monkeypatch) -> None:
    reads = _count_reads(monkeypatch)
    old = " ".join(f"The {v} of the Atlas service is {i} minutes." for i, v in enumerate(VOCAB[:12]))
    new = " ".join(f"The {v} of the Atlas service is {i + 1} minutes." for i, v in enumerate(VOCAB[:12]))
    relate(Statement(old), Statement(new))
    assert reads[0] == 1 + 12 * 12  # whole, and every claim against every claim


# -- the indexes give the scans' answers ------------------------------------------------------------------------------


def _long_and_short(rng: random.Random) -> tuple[str, str]:
    sentences = [
        "The SRE team owns the k8s cluster and the Kubernetes dashboards.",
        "Site reliability engineering meets on Tuesdays with DevRel.",
        "Developer relations moved the newsletter from Mailchimp to Buttondown.",
        "Priya Nair maintains the ingestion service; Acme Corp pays for it.",
        "The retrospective is held in the Oak room every second Friday.",
        "The prod DB runs Postgres 15 in eu-west-1.",
        "Production database backups are kept for thirty days.",
        "Our dentist is Dr. Kaur at the Leith surgery.",
    ]
    extra = [f"The {rng.choice(VOCAB)} {rng.choice(VOCAB)} is {rng.choice(NAMES)}'s." for _ in range(60)]
    long_ = " ".join(rng.sample(sentences + extra, 40))
    short = rng.choice(
        [
            "The retro is in the Oak room.",
            "Acme owns the ingestion service.",
            "The production database runs Postgres 16.",
            "SRE meets on Thursdays.",
            "Kubernetes dashboards belong to site reliability.",
            "The dentist is Dr Kaur.",
        ]
    )
    return long_, short


def test_subject_comparison_through_the_indexes_matches_the_scans(monkeypatch) -> None:
    rng = random.Random(9)
    pairs = [_long_and_short(rng) for _ in range(25)]
    for long_, short in pairs:
        for a, b in ((long_, short), (short, long_)):
            subjects.side.cache_clear()
            fast = subjects.compare(subjects.side(a), subjects.side(b))
            with monkeypatch.context() as m:
                m.setattr(subjects, "_much_longer", lambda x, other: False)
                m.setattr(subjects, "INDEXED", 10**9)
                subjects.side.cache_clear()
                slow = subjects.compare(subjects.side(a), subjects.side(b))
            assert fast == slow, (a, b)
    subjects.side.cache_clear()


def _minified(n: int, seed: int) -> str:
    """Minified JSON an agent pasted into a note: n numbers, and n/2 keys that read as names ("k17")."""
    r = random.Random(seed)
    return "Dump: " + ",".join(f'"k{i}":[{r.randrange(1, 999)},{r.randrange(1, 99)}]' for i in range(n // 2))


def test_a_paste_of_json_is_read_to_a_bound_beside_a_long_note() -> None:
    """Each name of one side is matched against the other, each amount paired off with the other's: a paste of
    thousands of them (minified JSON), beside a note read claim by claim, made one capture take minutes. Past
    NAMES_READ names, and past VALUE_PAIRS pairs of values, a statement is not read further: four times the paste is well
    under four times the work (3.7× without the bounds; the texts' own reading, cached, aside)."""
    note = " ".join(f"Step {i}: the {VOCAB[i % len(VOCAB)]} retry budget was {3 * i} attempts." for i in range(60))

    def work(n: int, seed: int) -> int:
        paste = _minified(n, seed)
        relate(Statement(paste), Statement(note))  # each text read once (the readers' caches are kept) ...
        decision._relate.cache_clear()  # ... but the pairs are related again
        return _work(lambda: relate(Statement(paste), Statement(note)))

    small, large = work(1000, 1), work(4000, 2)
    assert large / small < 3.0, f"{large / small:.2f}× the work for four times the paste"


def test_numeronym_shaped_words_are_matched_through_an_index() -> None:
    """A word shaped as a numeronym ("k8s", "i18n") is matched against the other side's terms of its first letter,
    last letter and length. Tested against every term, a note of thousands of such words ("w123x": ids, hashes)
    compared with another made each capture seconds longer per similar note; four times both texts is now about four
    times the work (sixteen before)."""
    r = random.Random(5)

    def text(n: int) -> str:
        return " ".join(f"w{r.randrange(3000)}x" + ("." if r.random() < 0.1 else "") for _ in range(n))

    def work(n: int) -> int:
        a, b = subjects.side(text(n)), subjects.side(text(n))
        return _work(lambda: subjects.compare(a, b))

    ratio = work(1600) / work(400)
    assert ratio < LINEAR, f"{ratio:.2f}× the work for four times the texts"

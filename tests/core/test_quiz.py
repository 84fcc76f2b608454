"""Quiz policy (spec 5.3): ledger format (quiz_ledger), Leitner and FSRS scheduling, selection, notebook."""

from __future__ import annotations

import copy
import json
import pickle
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memkeeper.core import quiz, quiz_ledger
from memkeeper.core.quiz import (
    INTERVALS,
    Ledger,
    QuizCandidate,
    QuizItem,
    box_for_interval,
    build_question,
    card_id_for,
    due_count,
    is_clean_page,
    new_ledger,
    notebook_header,
    parse_grade,
    parse_ledger,
    person_id,
    preview_intervals,
    prune_vanished,
    record_answer,
    render_ledger,
    render_notebook_entry,
    render_row,
    select_session,
    session_counts,
    weak_spots,
)

TODAY = date(2026, 11, 20)
NOW = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


def item(
    page: str,
    *,
    box: int = 1,
    due: date = TODAY,
    last: date | None = date(2026, 11, 10),
    result: str | None = "correct",
    asked: int = 1,
    correct: int = 1,
    last_q: str = "",
) -> QuizItem:
    return QuizItem(
        page=page, box=box, due=due, asked=asked, correct=correct, last=last, last_result=result, last_q=last_q
    )


def cand(
    page: str,
    category: str = "fact",
    *,
    updated: datetime = NOW,
    status: str = "active",
    tier: str = "warm",
    title: str = "",
    recall: list[str] | None = None,
    quiz_question: str | None = None,
) -> QuizCandidate:
    return QuizCandidate(
        page=page,
        category=category,
        updated_at=updated,
        status=status,
        tier=tier,
        quiz_question=quiz_question,
        title=title or page,
        recall=recall or [],
    )


def ledger_with(*items: QuizItem, scheduler: str = "leitner") -> Ledger:
    return new_ledger("alice", scheduler, TODAY).model_copy(update={"items": list(items)})  # type: ignore[arg-type]


def marker_of(row: str) -> dict:
    m = re.search(r"<!-- quiz:(\{.*\}) -->$", row)
    assert m, row
    return json.loads(m.group(1))


# --- person id ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Alice", "alice"),
        ("Alice Smith", "alice-smith"),
        ("alice.smith_2", "alice.smith_2"),
        ("José Ñúñez", "jos-ez"),
        ("--weird//name--", "weird-name"),
        ("..", "me"),
        ("", "me"),
        ("日本語", "me"),
        ("x" * 60, "x" * 40),
    ],
)
def test_person_id(name: str, expected: str) -> None:
    assert person_id(name) == expected
    assert re.fullmatch(r"[a-z0-9._-]{1,40}", person_id(name))


def test_paths_use_the_person_id() -> None:
    assert quiz.ledger_path("Alice Smith") == "quiz/quiz-ledger.alice-smith.md"
    assert quiz.notebook_path(TODAY, "Alice Smith") == "quiz/2026-11-20.alice-smith.md"


# --- grades and Leitner ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spelling", "grade", "result"),
    [
        ("again", "again", "wrong"),
        ("1", "again", "wrong"),
        ("wrong", "again", "wrong"),
        ("hard", "hard", "correct"),
        ("2", "hard", "correct"),
        ("good", "good", "correct"),
        ("3", "good", "correct"),
        ("correct", "good", "correct"),
        ("Easy", "easy", "correct"),
        ("4", "easy", "correct"),
        ("skip", "skip", "skip"),
        ("s", "skip", "skip"),
        (" S ", "skip", "skip"),
    ],
)
def test_grade_spellings(spelling: str, grade: str, result: str) -> None:
    assert parse_grade(spelling) == grade
    assert quiz.result_of(spelling) == result


def test_unknown_grade_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown quiz grade"):
        parse_grade("maybe")


def test_box_climbs_and_clamps_at_five() -> None:
    ledger = new_ledger("alice")
    day = TODAY
    boxes = []
    for _ in range(8):
        ledger, it, _prior = record_answer(ledger, "entries/a.md", "correct", day, "Q?")
        boxes.append(it.box)
        assert it.due == day + timedelta(days=INTERVALS[it.box])
        day = it.due
    assert boxes == [1, 2, 3, 4, 5, 5, 5, 5]
    assert ledger.item("entries/a.md") == it
    assert (it.asked, it.correct) == (8, 8)


def test_new_page_answered_correctly_goes_to_box_one() -> None:
    ledger, it, prior = record_answer(new_ledger("alice"), "entries/a.md", "good", TODAY, "Q?")
    assert prior is None
    assert (it.box, it.due, it.asked, it.correct) == (1, TODAY + timedelta(days=3), 1, 1)
    assert (it.last, it.last_result, it.last_q) == (TODAY, "correct", "Q?")
    assert ledger.updated == TODAY


@pytest.mark.parametrize("grade", ["wrong", "again", "1"])
def test_wrong_resets_to_box_zero_due_tomorrow(grade: str) -> None:
    ledger = ledger_with(item("entries/a.md", box=4, asked=5, correct=5))
    _, it, prior = record_answer(ledger, "entries/a.md", grade, TODAY)
    assert prior is not None and prior.box == 4
    assert (it.box, it.due, it.asked, it.correct, it.last_result) == (0, TODAY + timedelta(days=1), 6, 5, "wrong")


def test_skip_counts_as_asked_not_correct() -> None:
    ledger = ledger_with(item("entries/a.md", box=3, asked=2, correct=2))
    _, it, _ = record_answer(ledger, "entries/a.md", "s", TODAY)
    assert (it.box, it.due, it.asked, it.correct, it.last_result) == (0, TODAY + timedelta(days=1), 3, 2, "skip")


@pytest.mark.parametrize("grade", ["hard", "good", "easy"])
def test_hard_good_easy_all_count_as_correct_for_leitner(grade: str) -> None:
    _, it, _ = record_answer(ledger_with(item("entries/a.md", box=2)), "entries/a.md", grade, TODAY)
    assert (it.box, it.due, it.last_result) == (3, TODAY + timedelta(days=16), "correct")


@pytest.mark.parametrize("prior_box", range(6))
def test_due_date_per_box(prior_box: int) -> None:
    _, it, _ = record_answer(ledger_with(item("entries/a.md", box=prior_box)), "entries/a.md", "correct", TODAY)
    new_box = min(prior_box + 1, 5)
    assert it.box == new_box
    assert it.due == TODAY + timedelta(days=[1, 3, 7, 16, 35, 60][new_box])


def test_record_returns_new_objects_and_leaves_the_old_ledger_alone() -> None:
    old = ledger_with(item("entries/a.md", box=2, last_q="old question"))
    before = render_ledger(old)
    new, it, prior = record_answer(old, "entries/a.md", "wrong", TODAY)
    assert render_ledger(old) == before  # undo = keep the old ledger
    assert prior == old.items[0]
    assert new is not old and new.items[0] is it
    assert it.last_q == "old question"  # no question given: the prior one is kept
    _, it2, _ = record_answer(old, "entries/a.md", "wrong", TODAY, "  new\n  question ")
    assert it2.last_q == "new question"


def test_record_refuses_an_unclean_page() -> None:
    with pytest.raises(ValueError, match="clean relative"):
        record_answer(new_ledger("alice"), "../etc/passwd.md", "good", TODAY)


def test_leitner_answer_drops_stale_fsrs_state() -> None:
    fsrs_ledger, _, _ = record_answer(new_ledger("a", "fsrs"), "entries/a.md", "good", TODAY, now=NOW)
    leitner = fsrs_ledger.model_copy(update={"scheduler": "leitner"})
    _, it, _ = record_answer(leitner, "entries/a.md", "good", TODAY + timedelta(days=3))
    assert it.fsrs is None


# --- ledger format --------------------------------------------------------------------------------------------------


def test_row_layout_is_llmwiki_exact() -> None:
    row = render_row(
        item(
            "3_decision/db.md",
            box=2,
            due=date(2026, 11, 27),
            asked=3,
            correct=2,
            last=date(2026, 11, 20),
            last_q="Why Postgres?",
        )
    )
    assert row == (
        "- 3_decision/db.md — box 2 · due 2026-11-27 · 2/3 · last 2026-11-20 correct  "
        '<!-- quiz:{"page":"3_decision/db.md","box":2,"due":"2026-11-27","asked":3,"correct":2,'
        '"last":"2026-11-20","lastResult":"correct","lastQ":"Why Postgres?"} -->'
    )


def test_rendered_ledger_shape_and_round_trip() -> None:
    ledger = new_ledger("Alice", today=TODAY)
    for page, grade in [("entries/b.md", "good"), ("entries/a.md", "wrong"), ("entries/c.md", "skip")]:
        ledger, _, _ = record_answer(ledger, page, grade, TODAY, f"Question about {page}?")
    text = render_ledger(ledger)
    assert text.startswith("---\nkind: quiz-ledger\nperson: alice\nscheduler: leitner\nupdated: 2026-11-20\n")
    assert "\n## Items (3)\n\n- entries/a.md — box 0 · due 2026-11-21" in text
    rows = [line for line in text.splitlines() if line.startswith("- ")]
    assert [marker_of(r)["page"] for r in rows] == ["entries/a.md", "entries/c.md", "entries/b.md"]  # (due, page)
    assert text.endswith(" -->\n")
    parsed = parse_ledger(text)
    assert parsed.problems == []
    assert (parsed.person, parsed.scheduler, parsed.updated) == ("alice", "leitner", TODAY)
    assert parsed.frontmatter == {"title": "Quiz ledger", "tags": ["quiz", "meta"]}
    assert parsed.note == ledger.note
    assert parsed.items == sorted(ledger.items, key=lambda i: (i.due, i.page))
    assert render_ledger(parsed) == text


def test_empty_ledger_round_trips() -> None:
    text = render_ledger(new_ledger("bob"))
    assert "## Items (0)\n\n(none)\n" in text
    parsed = parse_ledger(text)
    assert parsed.items == [] and parsed.problems == []
    assert render_ledger(parsed) == text


def test_non_ascii_pages_and_comment_closers_in_questions() -> None:
    q = "Was   heißt „Übergabe“ -->\n und <!-- hier --> ?"
    ledger, it, _ = record_answer(new_ledger("alice"), "entries/übergabe-日本.md", "good", TODAY, q)
    assert it.last_q == "Was heißt „Übergabe“ → und <!-- hier → ?"
    text = render_ledger(ledger)
    assert '"page":"entries/übergabe-日本.md"' in text  # raw, not \u-escaped
    row = next(line for line in text.splitlines() if line.startswith("- "))
    assert row.count("-->") == 1 and row.endswith(" -->")  # only the marker's own closer
    parsed = parse_ledger(text)
    assert parsed.problems == [] and parsed.items == [it]
    assert render_ledger(parsed) == text


def test_last_q_is_truncated_at_200() -> None:
    _, it, _ = record_answer(new_ledger("alice"), "entries/a.md", "good", TODAY, "word " * 100)
    assert len(it.last_q) <= 200
    assert it.last_q == ("word " * 40).strip()
    assert quiz.sanitize_question(it.last_q) == it.last_q
    _, it, _ = record_answer(new_ledger("alice"), "entries/a.md", "good", TODAY, "x" * 300)
    assert it.last_q == "x" * 200


GOOD_ROW = (
    "- entries/good.md — box 1 · due 2026-11-21 · 1/1 · last 2026-11-18 correct  "
    '<!-- quiz:{"page":"entries/good.md","box":1,"due":"2026-11-21","asked":1,"correct":1,"last":"2026-11-18",'
    '"lastResult":"correct","lastQ":"Q"} -->'
)


def _row(**overrides: object) -> str:
    data: dict[str, object] = {
        "page": "entries/x.md",
        "box": 1,
        "due": "2026-11-21",
        "asked": 1,
        "correct": 1,
        "last": "2026-11-18",
        "lastResult": "correct",
        "lastQ": "",
    }
    data.update(overrides)
    return f"- whatever  <!-- quiz:{json.dumps(data, ensure_ascii=False)} -->"


def _ledger_text(*rows: str) -> str:
    head = ["---", "kind: quiz-ledger", "person: alice", "scheduler: leitner", "---", "", f"## Items ({len(rows)})", ""]
    return "\n".join([*head, *rows]) + "\n"


def test_a_hand_edit_of_a_rows_text_is_reported_and_the_marker_counts() -> None:
    """The readable half of a row is written from its marker: "box 1 · due 2026-11-21" edited by hand to box 4
    and a later due changed nothing, and the next answer wrote the old text back, without a word anywhere."""
    row = render_row(item("entries/x.md", box=1, due=date(2026, 11, 21), asked=2, correct=1))
    edited = row.replace("box 1 · due 2026-11-21 · 1/2", "box 4 · due 2026-12-30 · 1/2")
    assert edited != row
    ledger = parse_ledger(_ledger_text(edited))
    (it,) = ledger.items
    assert (it.box, it.due) == (1, date(2026, 11, 21))  # the marker is the record
    (problem,) = ledger.problems
    assert problem.startswith("line 9: the row's text says box 4 · due 2026-12-30 · 1/2 and its marker box 1")
    assert "\n" not in problem
    assert parse_ledger(_ledger_text(row)).problems == []  # as written: nothing to say
    assert parse_ledger(_ledger_text(_row())).problems == []  # another readable half: nothing to compare


def test_a_row_with_more_right_answers_than_questions_is_reported_and_kept() -> None:
    ledger = parse_ledger(_ledger_text(_row(asked=2, correct=5)))
    assert [(it.asked, it.correct) for it in ledger.items] == [(2, 5)]
    assert ledger.problems == ["line 9: correct 5 is more than asked 2; both are kept as written"]


def test_malformed_rows_are_skipped_and_reported() -> None:
    bad_rows = [
        '- broken  <!-- quiz:{"page":"entries/x.md","box":1,,} -->',
        _row(page="../x.md"),
        _row(page="/abs.md"),
        _row(box=6),
        _row(due="2026-13-45"),
        _row(page="notes.txt"),
        _row(page="a\\b.md"),
        _row(box=-1),
        _row(last="yesterday"),
        _row(lastResult="maybe"),
        _row(asked="three"),
        "- entries/no-marker.md — box 1",
        '- x  <!-- quiz:["not", "an", "object"] -->',
    ]
    lines = [
        "---",
        "kind: quiz-ledger",
        "person: alice",
        "scheduler: leitner",
        "---",
        "",
        f"## Items ({len(bad_rows) + 1})",
        "",
        bad_rows[0],
        GOOD_ROW,
        *bad_rows[1:],
    ]
    ledger = parse_ledger("\n".join(lines) + "\n")
    assert [it.page for it in ledger.items] == ["entries/good.md"]
    assert len(ledger.problems) == len(bad_rows)
    assert all(re.match(r"line \d+: \S", p) for p in ledger.problems)
    reported_lines = [int(p.split(":")[0].removeprefix("line ")) for p in ledger.problems]
    assert reported_lines == [9, *range(11, 11 + len(bad_rows) - 1)]
    joined = "\n".join(ledger.problems)
    for fragment in [
        "JSON does not parse",
        "'../x.md'",
        "'/abs.md'",
        "box 6",
        "'2026-13-45'",
        "'notes.txt'",
        "no quiz marker",
        "marker does not parse",
    ]:
        assert fragment in joined
    # The rewrite keeps every row: the good one, and the bad ones as written, in their places (SPEC §5.3: skipped
    # and reported, never lost).
    rewritten = render_ledger(ledger)
    assert f"## Items ({len(bad_rows) + 1})" in rewritten
    rows = rewritten.split(f"## Items ({len(bad_rows) + 1})\n\n", 1)[1].rstrip("\n").split("\n")
    assert rows == [bad_rows[0], GOOD_ROW, *bad_rows[1:]]
    again = parse_ledger(rewritten)
    assert again.items == ledger.items and again.unreadable == ledger.unreadable
    assert [p.split(": ", 1)[1] for p in again.problems] == [p.split(": ", 1)[1] for p in ledger.problems]


def test_unreadable_rows_keep_their_place_through_answers_pruning_and_bury() -> None:
    bad_due, bad_box = _row(page="entries/b.md", due="2026-1-5"), _row(page="entries/c.md", box=7)
    text = "\n".join(
        ["---", "kind: quiz-ledger", "person: alice", "---", "", "## Items (4)", "", GOOD_ROW, bad_due, _row(), bad_box]
    )
    ledger = parse_ledger(text + "\n")
    assert ledger.unreadable == [(1, bad_due), (3, bad_box)]
    answered, _item, _prior = record_answer(ledger, "entries/new.md", "good", TODAY)
    pruned, removed = quiz.prune_vanished(answered, ["entries/new.md"])
    assert removed == ["entries/good.md", "entries/x.md"]  # never the unreadable rows, whatever their page
    buried, _day = quiz.bury(pruned, "entries/new.md", TODAY)
    for step in (answered, pruned, buried):
        out = render_ledger(step)
        rows = [line for line in out.split("\n") if line.startswith("- ")]
        assert rows[1] == bad_due and bad_box in rows and f"## Items ({len(rows)})" in out
        assert render_ledger(parse_ledger(out)) == out
    assert [line for line in render_ledger(pruned).split("\n") if line.startswith("- ")][1:] == [bad_due, bad_box]


def test_a_page_listed_twice_is_read_from_its_first_row_and_the_second_is_kept_as_written() -> None:
    second = _row(box=4)
    text = "---\nkind: quiz-ledger\n---\n\n## Items (2)\n\n" + _row(box=2) + "\n" + second + "\n"
    ledger = parse_ledger(text)
    assert [it.box for it in ledger.items] == [2]
    assert ledger.problems == ["line 8: entries/x.md is listed twice; the first row is read, this one kept as written"]
    # An answer rewrites the ledger: the first row moves on, the second is still there, byte for byte.
    answered, it, _prior = record_answer(ledger, "entries/x.md", "good", TODAY)
    out = render_ledger(answered)
    assert it.box == 3 and second in out.split("\n") and "## Items (2)" in out
    assert render_ledger(parse_ledger(out)) == out
    assert parse_ledger(out).problems == ledger.problems


def test_text_between_the_rows_and_a_body_without_its_heading_survive_a_rewrite() -> None:
    remark = "Leo said to drop the parking question after March."
    lines = ["---", "kind: quiz-ledger", "---", "", "## Items (2)", "", GOOD_ROW, remark, _row(), ""]
    ledger = parse_ledger("\n".join(lines))
    assert ledger.problems == ["line 8: unexpected text under the items heading (kept as written)"]
    out = render_ledger(record_answer(ledger, "entries/new.md", "good", TODAY)[0])
    body = out.split("## Items (3)\n\n", 1)[1].split("\n")
    assert body.index(remark) == 1, out  # in its place among the rows, not counted as one
    assert render_ledger(parse_ledger(out)) == out
    # A heading damaged by hand: the rows are read wherever they are, and the rest of the body is kept too.
    damaged = "\n".join(["---", "kind: quiz-ledger", "---", "", "## Itmes", "", GOOD_ROW, remark, ""])
    ledger = parse_ledger(damaged)
    assert [it.page for it in ledger.items] == ["entries/good.md"]
    out = render_ledger(ledger)
    assert "## Itmes" in out and remark in out and "## Items (1)" in out
    assert render_ledger(parse_ledger(out)) == out


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n",
        "garbage",
        "---\n: : :\n---\n",
        "---\nunclosed",
        "---\n- a list\n---\n",
        "## Items (x)",
        "\x00\x01\x02",
        "---\nperson: [1, 2]\nscheduler: anki\nupdated: soon\n---\n## Items (0)\n",
    ],
)
def test_garbage_never_raises(text: str) -> None:
    ledger = parse_ledger(text)
    assert ledger.items == []
    assert ledger.problems
    render_ledger(ledger)  # and whatever was read can be written


def test_markers_outside_a_heading_are_still_read() -> None:
    ledger = parse_ledger("some damaged header\n" + GOOD_ROW + "\n")
    assert [it.page for it in ledger.items] == ["entries/good.md"]
    assert any("no '## Items (N)' heading" in p for p in ledger.problems)


# Verbatim llmwiki output (renderLedger), long lines and all.
LLMWIKI_LEDGER = """\
---
title: Quiz ledger
description: human memory ledger — day-granular spaced-repetition schedule. Engine-managed (quiz-record); never hand-edit markers
date: 2026-11-20
updated: 2026-11-20
tags: [quiz, meta]
status: ready
domain: meta
source: quiz-engine
---

> Auto-managed (LLM-0): /wiki-quiz authors questions (warm); quiz-record updates this ledger (deterministic).
> correct → next box (1·3·7·16·35·60 days), wrong/skip → reset to box 0. due ≤ today = up for review.
> This folder (the quiz layer) is excluded from index/search/cold-start — one-directional wiki → human.

## Items (3)

- 3_decision/db-choice.md — box 0 · due 2026-11-21 · 1/3 · last 2026-11-20 wrong  <!-- quiz:{"page":"3_decision/db-choice.md","box":0,"due":"2026-11-21","asked":3,"correct":1,"last":"2026-11-20","lastResult":"wrong","lastQ":"Postgres를 고른 이유는?"} -->
- 1_direction/roadmap.md — box 2 · due 2026-11-27 · 2/2 · last 2026-11-20 correct  <!-- quiz:{"page":"1_direction/roadmap.md","box":2,"due":"2026-11-27","asked":2,"correct":2,"last":"2026-11-20","lastResult":"correct","lastQ":"Where is the roadmap headed?"} -->
- 4_milestone/v1.md — box 0 · due 2026-11-21 · 0/1 · last 2026-11-20 skip  <!-- quiz:{"page":"4_milestone/v1.md","box":0,"due":"2026-11-21","asked":1,"correct":0,"last":"2026-11-20","lastResult":"skip","lastQ":""} -->
"""


def test_llmwiki_ledger_parses_and_keeps_its_rows_and_keys() -> None:
    ledger = parse_ledger(LLMWIKI_LEDGER, person="alice")
    assert ledger.problems == []
    assert (ledger.person, ledger.scheduler, ledger.updated) == ("alice", "leitner", date(2026, 11, 20))
    assert ledger.note.startswith("> Auto-managed (LLM-0)")
    assert ledger.frontmatter["source"] == "quiz-engine" and ledger.frontmatter["tags"] == ["quiz", "meta"]
    db = ledger.item("3_decision/db-choice.md")
    assert db == QuizItem(
        page="3_decision/db-choice.md",
        box=0,
        due=date(2026, 11, 21),
        asked=3,
        correct=1,
        last=date(2026, 11, 20),
        last_result="wrong",
        last_q="Postgres를 고른 이유는?",
    )
    rewritten = render_ledger(ledger)
    original_rows = sorted(line for line in LLMWIKI_LEDGER.splitlines() if line.startswith("- "))
    assert sorted(line for line in rewritten.splitlines() if line.startswith("- ")) == original_rows
    assert render_ledger(parse_ledger(rewritten)) == rewritten


def _llmwiki_parse(md: str) -> list[dict]:
    """llmwiki's parseLedger acceptance rules, transcribed, to prove our files read back there."""
    out = []
    for line in md.split("\n"):
        m = re.search(r"<!--\s*quiz:(\{.*\})\s*-->\s*$", line)
        if not m:
            continue
        j = json.loads(m.group(1))
        if not (isinstance(j["page"], str) and j["page"].endswith(".md") and ".." not in j["page"].split("/")):
            continue
        if not (isinstance(j["box"], int) and 0 <= j["box"] < 6):
            continue
        if not (re.fullmatch(r"\d{4}-\d{2}-\d{2}", j["due"]) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", j["last"])):
            continue
        if j["lastResult"] not in ("correct", "wrong", "skip"):
            continue
        out.append(j)
    return out


def test_fsrs_ledger_stays_readable_by_llmwiki() -> None:
    ledger, _, _ = record_answer(new_ledger("alice", "fsrs"), "entries/a.md", "easy", TODAY, "Q?", NOW)
    ledger, _, _ = record_answer(ledger, "entries/b.md", "again", TODAY, "Q2?", NOW)
    text = render_ledger(ledger)
    read = _llmwiki_parse(text)
    assert [j["page"] for j in read] == ["entries/b.md", "entries/a.md"]
    for j in read:
        assert list(j)[:8] == ["page", "box", "due", "asked", "correct", "last", "lastResult", "lastQ"]
        assert list(j)[8:] == ["fsrs"]


# --- FSRS -----------------------------------------------------------------------------------------------------------


def test_fsrs_grades_order_due_dates_for_a_fresh_card() -> None:
    dues = {}
    for grade in ["again", "hard", "good", "easy"]:
        _, it, _ = record_answer(new_ledger("alice", "fsrs"), "entries/a.md", grade, TODAY, "Q?", NOW)
        dues[grade] = it.due
        assert it.fsrs is not None and it.fsrs["card_id"] == card_id_for("entries/a.md")
        assert it.due == datetime.fromisoformat(it.fsrs["due"]).date()
        assert it.due > TODAY  # day-granular: never due again the same day
    assert dues["again"] <= dues["hard"] <= dues["good"] <= dues["easy"]
    assert dues["again"] < dues["easy"]


def test_fsrs_result_mapping() -> None:
    base = new_ledger("alice", "fsrs")
    _, skipped, _ = record_answer(base, "entries/a.md", "skip", TODAY, now=NOW)
    _, again, _ = record_answer(base, "entries/a.md", "again", TODAY, now=NOW)
    _, wrong, _ = record_answer(base, "entries/a.md", "wrong", TODAY, now=NOW)
    _, correct, _ = record_answer(base, "entries/a.md", "correct", TODAY, now=NOW)
    _, good, _ = record_answer(base, "entries/a.md", "good", TODAY, now=NOW)
    assert (skipped.last_result, skipped.asked, skipped.correct) == ("skip", 1, 0)
    assert skipped.fsrs == again.fsrs == wrong.fsrs  # skip is Again to the memory model
    assert correct.fsrs == good.fsrs and correct.last_result == "correct"


def test_fsrs_is_deterministic_and_never_reads_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    import fsrs.card
    import fsrs.scheduler

    class NoClock(datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[no-untyped-def, override]
            raise AssertionError("fsrs read the clock")

    def no_sleep(_: float) -> None:
        raise AssertionError("fsrs slept")

    monkeypatch.setattr(fsrs.card.time, "sleep", no_sleep)
    monkeypatch.setattr(fsrs.card, "datetime", NoClock)
    monkeypatch.setattr(fsrs.scheduler, "datetime", NoClock)

    def run() -> str:
        ledger = new_ledger("alice", "fsrs")
        now = NOW
        for grade in ["good", "good", "again", "hard", "easy"]:
            ledger, it, _ = record_answer(ledger, "entries/a.md", grade, now.date(), "Q?", now)
            now = datetime.combine(it.due, NOW.timetz())
        return render_ledger(ledger)

    assert run() == run()


def test_fsrs_needs_an_aware_now() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        record_answer(new_ledger("alice", "fsrs"), "entries/a.md", "good", TODAY)
    with pytest.raises(ValueError, match="timezone-aware"):
        record_answer(new_ledger("alice", "fsrs"), "entries/a.md", "good", TODAY, now=NOW.replace(tzinfo=None))


def test_fsrs_accepts_any_utc_equivalent_now() -> None:
    from zoneinfo import ZoneInfo

    _, a, _ = record_answer(new_ledger("x", "fsrs"), "entries/a.md", "good", TODAY, now=NOW)
    _, b, _ = record_answer(
        new_ledger("x", "fsrs"), "entries/a.md", "good", TODAY, now=NOW.astimezone(ZoneInfo("Europe/Berlin"))
    )
    assert a == b


def test_fsrs_ledger_round_trip_and_review_history() -> None:
    ledger = new_ledger("alice", "fsrs", TODAY)
    now = NOW
    for grade in ["good", "good", "good"]:
        ledger, it, _ = record_answer(ledger, "entries/a.md", grade, now.date(), "Q?", now)
        text = render_ledger(ledger)
        parsed = parse_ledger(text)
        assert parsed.problems == [] and parsed.scheduler == "fsrs"
        assert parsed.items == ledger.items
        assert render_ledger(parsed) == text
        ledger = parsed  # continue from the file, as the engine does
        now = datetime.combine(it.due, NOW.timetz())
    # Successful reviews grow the interval, and the display box follows it.
    assert it.due - it.last > timedelta(days=7) and it.box >= 2
    assert it.fsrs is not None and it.fsrs["state"] == 2  # Review


def test_a_mature_leitner_row_carried_into_fsrs_keeps_what_was_learnt() -> None:
    """Box 5, its 60 days run out today, every answer right: under FSRS "good" goes on past 60 days (it restarted
    at two days, box 0, before: a switch threw away months of right answers at each card's next answer)."""
    row = item("entries/a.md", box=5, due=TODAY, last=TODAY - timedelta(days=60), asked=6, correct=6)
    ledger = ledger_with(row, scheduler="fsrs")
    _, it, prior = record_answer(ledger, "entries/a.md", "good", TODAY, now=NOW)
    assert prior is not None and prior.fsrs is None
    assert (it.asked, it.correct) == (7, 7)
    assert it.due - TODAY > timedelta(days=60) and it.box == 5
    assert it.fsrs is not None and it.fsrs["card_id"] == card_id_for("entries/a.md") and it.fsrs["state"] == 2
    # Forgotten after all: a lapse, not a new card's first day, and sooner than a right answer.
    _, lapsed, _ = record_answer(ledger, "entries/a.md", "again", TODAY, now=NOW)
    assert lapsed.due < it.due and lapsed.box < it.box
    # The grade keys show what the answer gives.
    shown = preview_intervals("entries/a.md", row, "fsrs", NOW)
    assert shown["good"] == (it.due - TODAY).days and shown["again"] == (lapsed.due - TODAY).days


def test_a_leitner_row_with_less_learnt_carries_less() -> None:
    young = item("entries/a.md", box=1, due=TODAY, last=TODAY - timedelta(days=3))
    old = item("entries/a.md", box=4, due=TODAY, last=TODAY - timedelta(days=35))
    _, young_it, _ = record_answer(ledger_with(young, scheduler="fsrs"), "entries/a.md", "good", TODAY, now=NOW)
    _, old_it, _ = record_answer(ledger_with(old, scheduler="fsrs"), "entries/a.md", "good", TODAY, now=NOW)
    assert TODAY < young_it.due < old_it.due


@pytest.mark.parametrize("result", ["wrong", "skip"])
def test_a_leitner_row_last_answered_wrong_starts_a_fresh_fsrs_card(result: str) -> None:
    """Box 0 starts again under Leitner too: the card is a new one to FSRS, as a page never quizzed is."""
    row = item("entries/a.md", box=0, due=TODAY, last=TODAY - timedelta(days=1), result=result, asked=3, correct=2)
    _, it, _ = record_answer(ledger_with(row, scheduler="fsrs"), "entries/a.md", "good", TODAY, now=NOW)
    _, new, _ = record_answer(ledger_with(scheduler="fsrs"), "entries/a.md", "good", TODAY, now=NOW)
    assert (it.due, it.box, it.fsrs) == (new.due, new.box, new.fsrs)
    assert (it.asked, it.correct) == (4, 3)


@pytest.mark.parametrize(
    "state",
    [
        {"nope": 1},
        [1, 2],
        "card",
        {
            "card_id": 1,
            "state": 2,
            "step": None,
            "stability": 2.0,
            "difficulty": 5.0,
            "due": "2026-11-22T09:00:00",
            "last_review": None,
        },
    ],
)
def test_unreadable_fsrs_state_is_reported_but_the_row_survives(state: object) -> None:
    text = "---\nkind: quiz-ledger\nscheduler: fsrs\n---\n\n## Items (1)\n\n" + _row(fsrs=state) + "\n"
    ledger = parse_ledger(text)
    assert [it.page for it in ledger.items] == ["entries/x.md"] and ledger.items[0].fsrs is None
    assert ledger.problems == ["line 8: fsrs state is unreadable; the row is kept and its card restarts"]


@pytest.mark.parametrize(
    ("days", "box"), [(0.01, 0), (1, 0), (2, 0), (3, 1), (5, 1), (6, 2), (12, 3), (30, 4), (50, 5), (400, 5)]
)
def test_box_for_interval_nearest_lower_on_ties(days: float, box: int) -> None:
    assert box_for_interval(days) == box


def test_card_id_is_stable_and_positive() -> None:
    assert card_id_for("entries/a.md") == card_id_for("entries/a.md") != card_id_for("entries/b.md")
    assert 0 < card_id_for("entries/a.md") < 2**53  # exact in JavaScript too


# --- selection ------------------------------------------------------------------------------------------------------


def test_selection_priority_across_the_three_groups() -> None:
    yesterday, earlier = TODAY - timedelta(days=1), TODAY - timedelta(days=5)
    ledger = ledger_with(
        item("entries/due-ok-b.md", due=earlier, result="correct"),
        item("entries/due-ok-a.md", due=earlier, result="correct"),
        item("entries/due-wrong-late.md", due=TODAY, result="wrong"),
        item("entries/due-skip-early.md", due=yesterday, result="skip"),
        item("entries/not-due.md", due=TODAY + timedelta(days=1), result="wrong"),
    )
    candidates = [
        cand("entries/due-ok-a.md"),
        cand("entries/due-ok-b.md"),
        cand("entries/due-wrong-late.md"),
        cand("entries/due-skip-early.md"),
        cand("entries/not-due.md"),
        cand("entries/new-milestone.md", "milestone"),
        cand("entries/new-fact-old.md", "fact", updated=NOW - timedelta(days=30)),
        cand("entries/new-fact-new.md", "fact", updated=NOW),
        cand("entries/new-direction.md", "direction", updated=NOW - timedelta(days=300)),
        cand("entries/new-decision.md", "decision"),
    ]
    picks = select_session(ledger, candidates, TODAY, limit=100)
    assert [(p.reason, p.page) for p in picks] == [
        ("due-wrong", "entries/due-skip-early.md"),
        ("due-wrong", "entries/due-wrong-late.md"),
        ("due", "entries/due-ok-a.md"),
        ("due", "entries/due-ok-b.md"),
        ("new", "entries/new-direction.md"),
        ("new", "entries/new-decision.md"),
        ("new", "entries/new-fact-new.md"),
    ]  # capped at 7: new-fact-old and the milestone wait
    assert picks[0].item == ledger.item("entries/due-skip-early.md")
    assert picks[-1].item is None and picks[-1].question == build_question(candidates[7])
    everything = quiz._ranked(ledger, candidates, TODAY)
    assert [p.page for p in everything[7:]] == ["entries/new-fact-old.md", "entries/new-milestone.md"]
    assert session_counts(ledger, candidates, TODAY) == (2, 2, 5)
    assert due_count(ledger, candidates, TODAY) == 9


def test_new_pages_tie_break_on_page() -> None:
    picks = select_session(new_ledger("a"), [cand("entries/b.md"), cand("entries/a.md")], TODAY)
    assert [p.page for p in picks] == ["entries/a.md", "entries/b.md"]


def test_naive_and_aware_update_times_compare() -> None:
    naive = datetime(2026, 11, 19, 12, 0)
    picks = select_session(new_ledger("a"), [cand("entries/a.md", updated=naive), cand("entries/b.md")], TODAY)
    assert [p.page for p in picks] == ["entries/b.md", "entries/a.md"]


def test_limit_is_seven_and_respects_smaller_limits() -> None:
    candidates = [cand(f"entries/p{i:02}.md") for i in range(20)]
    assert len(select_session(new_ledger("a"), candidates, TODAY)) == 7
    assert len(select_session(new_ledger("a"), candidates, TODAY, limit=50)) == 7
    assert len(select_session(new_ledger("a"), candidates, TODAY, limit=3)) == 3
    assert select_session(new_ledger("a"), candidates, TODAY, limit=-1) == []
    assert due_count(new_ledger("a"), candidates, TODAY) == 20


def test_items_answered_today_are_not_asked_again_today() -> None:
    ledger, _, _ = record_answer(new_ledger("a"), "entries/a.md", "wrong", TODAY)
    assert [p.page for p in select_session(ledger, [cand("entries/a.md")], TODAY)] == []
    tomorrow = TODAY + timedelta(days=1)
    assert [(p.reason, p.page) for p in select_session(ledger, [cand("entries/a.md")], tomorrow)] == [
        ("due-wrong", "entries/a.md")
    ]
    # A hand-set due of today does not override the same-day rule either.
    same_day = ledger_with(item("entries/b.md", due=TODAY, last=TODAY, result="wrong"))
    assert select_session(same_day, [cand("entries/b.md")], TODAY) == []


@pytest.mark.parametrize(
    "out",
    [
        {"status": "superseded"},
        {"status": "denied"},
        {"status": "archived"},
        {"status": "mystery"},
        {"category": "draft"},
        {"tier": "cold"},
    ],
)
def test_pages_out_of_rotation_are_never_selected(out: dict[str, str]) -> None:
    kwargs = {"category": "decision", **out}
    category = kwargs.pop("category")
    new_page = cand("entries/new.md", category, **kwargs)  # type: ignore[arg-type]
    due_page = cand("entries/due.md", category, **kwargs)  # type: ignore[arg-type]
    ledger = ledger_with(item("entries/due.md", due=TODAY - timedelta(days=3), result="wrong"))
    assert select_session(ledger, [new_page, due_page], TODAY) == []
    assert due_count(ledger, [new_page, due_page], TODAY) == 0


def test_ledger_rows_without_a_live_page_are_not_selected() -> None:
    ledger = ledger_with(item("entries/gone.md", due=TODAY - timedelta(days=3), result="wrong"))
    assert select_session(ledger, [], TODAY) == []


def test_protected_tier_stays_in_rotation() -> None:
    picks = select_session(new_ledger("a"), [cand("entries/a.md", tier="protected")], TODAY)
    assert [p.page for p in picks] == ["entries/a.md"]


# --- prune, weak spots, questions -----------------------------------------------------------------------------------


def test_prune_vanished() -> None:
    ledger = ledger_with(item("entries/a.md"), item("entries/b.md"), item("entries/c.md"))
    pruned, removed = prune_vanished(ledger, {"entries/a.md", "entries/c.md", "entries/other.md"})
    assert removed == ["entries/b.md"]
    assert [it.page for it in pruned.items] == ["entries/a.md", "entries/c.md"]
    assert len(ledger.items) == 3  # the input is untouched
    same, none_removed = prune_vanished(pruned, {"entries/a.md", "entries/c.md"})
    assert none_removed == [] and same == pruned


def test_weak_spots() -> None:
    ledger = ledger_with(
        item("entries/never-right.md", asked=4, correct=0),
        item("entries/one-of-three.md", asked=3, correct=1),
        item("entries/two-of-six.md", asked=6, correct=2),
        item("entries/half.md", asked=4, correct=2),  # 50% is not weak
        item("entries/too-few.md", asked=2, correct=0),  # fewer than 3 asks
        item("entries/fine.md", asked=5, correct=5),
    )
    assert [it.page for it in weak_spots(ledger)] == [
        "entries/never-right.md",
        "entries/two-of-six.md",
        "entries/one-of-three.md",
    ]


def test_build_question() -> None:
    assert build_question(cand("entries/a.md", quiz_question="  Why do we\nuse absolute paths? ")) == (
        "Why do we use absolute paths?"
    )
    assert build_question(cand("entries/a.md", title="Handoff path style", recall=["absolute", "handoff", "x"])) == (
        "What do you remember about “Handoff path style”? (hint: absolute, handoff)"
    )
    assert build_question(cand("entries/a.md", title="Handoff path style")) == (
        "What do you remember about “Handoff path style”?"
    )
    blank = QuizCandidate(page="entries/zone-rules.md", category="fact", updated_at=NOW, title="", recall=[" ", ""])
    assert build_question(blank) == "What do you remember about “zone-rules”?"


@pytest.mark.parametrize(
    ("page", "clean"),
    [
        ("entries/a.md", True),
        ("a.md", True),
        ("entries/ü 日本.md", True),
        ("../a.md", False),
        ("entries/../a.md", False),
        ("/a.md", False),
        ("a\\b.md", False),
        ("a.txt", False),
        ("", False),
        (".md", False),
        ("a//b.md", False),
        ("./a.md", False),
        (" a.md", False),
        ("a\nb.md", False),
        ("a-->b.md", False),
        ("C:/a.md", False),
        (None, False),
        (3, False),
    ],
)
def test_is_clean_page(page: object, clean: bool) -> None:
    assert is_clean_page(page) is clean


# --- notebook -------------------------------------------------------------------------------------------------------


def test_notebook_header_and_entry() -> None:
    head = notebook_header(TODAY, "Alice Smith")
    assert head.startswith("---\nkind: quiz-notebook\nperson: alice-smith\ndate: 2026-11-20\n")
    assert head.endswith("---\n\n# Quiz notebook — 2026-11-20 (alice-smith)\n\n")
    entry = render_notebook_entry(
        "Which paths go in\nhandoffs?",
        "absolute   ones",
        "correct",
        "Always use absolute paths in handoff artifacts.\n\nSee the style guide.",
        "entries/handoff-path-style.md",
        NOW,
    )
    assert entry == (
        "## 09:30 UTC — Which paths go in handoffs?\n\n"
        "- **Your answer:** absolute ones\n"
        "- **Verdict:** correct\n"
        "- **Source:** [entries/handoff-path-style.md](../entries/handoff-path-style.md)\n\n"
        "> Always use absolute paths in handoff artifacts.\n"
        ">\n"
        "> See the style guide.\n\n"
    )
    skipped = render_notebook_entry("Q?", None, "skip", "", "raw/session.md#L40", NOW)
    assert "- **Your answer:** _(none typed)_" in skipped and "- **Source:** raw/session.md#L40" in skipped
    assert ">" not in skipped.replace("-->", "")


def test_notebook_header_quotes_a_person_yaml_would_misread() -> None:
    head = notebook_header(TODAY, "true")
    assert "person: 'true'" in head


# --- properties -----------------------------------------------------------------------------------------------------

_segment = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Cf", "Co", "Cn", "Zl", "Zp"), blacklist_characters="/\\"),
    min_size=1,
    max_size=12,
).filter(lambda s: s.strip() == s and s not in (".", "..") and "-->" not in s)
_page = st.lists(_segment, min_size=1, max_size=3).map(lambda segs: "/".join(segs) + ".md").filter(is_clean_page)
_day = st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31))
_item = st.builds(
    QuizItem,
    page=_page,
    box=st.integers(0, 5),
    due=_day,
    asked=st.integers(0, 10_000),
    correct=st.integers(0, 10_000),
    last=_day,
    last_result=st.sampled_from(["correct", "wrong", "skip"]),
    last_q=st.text(max_size=300),
).map(lambda it: it.model_copy(update={"correct": min(it.correct, it.asked)}))  # never more right than asked
_scalar = st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.text(max_size=30), _day)
_frontmatter = st.dictionaries(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=10),
    st.one_of(_scalar, st.lists(st.text(max_size=10), max_size=3)),
    max_size=4,
)
_note = st.text(max_size=200).filter(
    lambda n: not any(quiz_ledger._ITEMS_HEADING_RE.fullmatch(line) for line in n.split("\n"))
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    person=st.text(max_size=50),
    scheduler=st.sampled_from(["leitner", "fsrs"]),
    updated=st.one_of(st.none(), _day),
    frontmatter=_frontmatter,
    note=_note,
    items=st.lists(_item, max_size=6, unique_by=lambda i: i.page),
)
def test_round_trip_property(
    person: str, scheduler: str, updated: date | None, frontmatter: dict, note: str, items: list[QuizItem]
) -> None:
    ledger = Ledger(
        person=person_id(person),
        scheduler=scheduler,
        updated=updated,  # type: ignore[arg-type]
        frontmatter=frontmatter,
        note=note,
        items=items,
    )
    text = render_ledger(ledger)
    parsed = parse_ledger(text)
    assert parsed.problems == []
    assert (parsed.person, parsed.scheduler, parsed.updated) == (ledger.person, scheduler, updated)
    assert parsed.frontmatter == {
        k: v for k, v in frontmatter.items() if k not in ("kind", "person", "scheduler", "updated")
    }
    expected = sorted(
        (it.model_copy(update={"last_q": quiz.sanitize_question(it.last_q)}) for it in items),
        key=lambda it: (it.due, it.page),
    )
    assert parsed.items == expected
    assert render_ledger(parsed) == text


@settings(max_examples=60, deadline=None)
@given(
    grades=st.lists(st.sampled_from(["again", "hard", "good", "easy", "skip"]), min_size=1, max_size=6),
    pages=st.lists(_page, min_size=1, max_size=3, unique=True),
)
def test_fsrs_history_round_trips(grades: list[str], pages: list[str]) -> None:
    ledger = new_ledger("p", "fsrs", TODAY)
    now = NOW
    for i, grade in enumerate(grades):
        ledger, it, _ = record_answer(ledger, pages[i % len(pages)], grade, now.date(), f"q{i}", now)
        now += timedelta(days=1, hours=3)
        text = render_ledger(ledger)
        parsed = parse_ledger(text)
        assert parsed.problems == [] and parsed.items == ledger.items
        assert render_ledger(parsed) == text
        ledger = parsed


_ledgerish = st.lists(
    st.one_of(
        st.text(max_size=40),
        st.sampled_from(
            [
                "---",
                "## Items (1)",
                "(none)",
                GOOD_ROW,
                "kind: quiz-ledger",
                "person: Bob Smith",
                "scheduler: fsrs",
                "updated: 2026-02-30",
                "tags: [a, b]",
                "- x.md  <!-- quiz:{} -->",
            ]
        ),
        st.builds(
            lambda box, due, q: _row(box=box, due=due, lastQ=q),
            st.integers(-2, 8),
            st.sampled_from(["2026-11-21", "2026-02-30", "21.11.2026"]),
            st.text(max_size=20),
        ),
    ),
    max_size=12,
).map("\n".join)


@settings(max_examples=200)
@given(st.one_of(st.text(max_size=400), _ledgerish))
def test_parse_never_raises_and_a_rewrite_is_stable(text: str) -> None:
    rewritten = render_ledger(parse_ledger(text))
    assert render_ledger(parse_ledger(rewritten)) == rewritten


@settings(max_examples=100)
@given(st.text(max_size=300))
def test_sanitize_question_is_idempotent_and_comment_safe(q: str) -> None:
    once = quiz.sanitize_question(q)
    assert quiz.sanitize_question(once) == once
    assert "-->" not in once and "\n" not in once and len(once) <= 200


def test_quiz_values_are_immutable_and_survive_copy_and_pickle() -> None:
    row = item("entries/a.md", box=2)
    ledger = ledger_with(row)
    with pytest.raises(AttributeError):
        row.box = 3  # type: ignore[misc]
    for value in (row, ledger, cand("entries/a.md")):
        assert copy.copy(value) == value
        assert pickle.loads(pickle.dumps(value)) == value
        assert copy.deepcopy(value) == value
    deep = copy.deepcopy(ledger)
    assert deep.items is not ledger.items and deep.items[0] == row
    assert ledger.model_copy(update={"note": "x"}) != ledger and ledger.note != "x"


def _fsrs_intervals(answer_times) -> list[int]:
    """The intervals a card gets, answered "good" on each due day at the time of day `answer_times` gives for the
    n-th answer (after one "again", so it starts short)."""
    ledger, it, _ = record_answer(new_ledger("alice", "fsrs"), "entries/a.md", "again", TODAY, "Q?", NOW)
    out = []
    for n in range(6):
        day = max(it.due, TODAY + timedelta(days=1))
        now = answer_times(n, day)
        ledger, answered, _ = record_answer(ledger, "entries/a.md", "good", now.date(), "Q?", now)
        out.append((answered.due - now.date()).days)
        it = answered
    return out


def test_fsrs_counts_days_not_the_minute_a_card_is_answered() -> None:
    """fsrs counts the days since the last review rounded down: a card answered at 08:00 and then, on its due day,
    at 07:59 had 0 days elapsed, was read as a same-day review, and stayed at one day for good (1, 1, 1, 1, 1, 1
    where 08:00 each day gave 1, 1, 1, 2, 4, 8)."""
    same = _fsrs_intervals(lambda n, day: datetime.combine(day, NOW.timetz()))
    earlier = _fsrs_intervals(lambda n, day: datetime.combine(day, NOW.timetz()) - timedelta(minutes=n + 1))
    around = _fsrs_intervals(
        lambda n, day: datetime.combine(day, datetime.min.time(), UTC) + timedelta(hours=23 * (n % 2))
    )
    assert same == earlier == around
    assert same[-1] > 1  # it leaves the one-day interval


def test_fsrs_grade_row_shows_what_the_answer_gives_later_that_day() -> None:
    """The grade row is previewed when the card is shown; answered later the same day, the interval is the one it
    showed (it was not: "good = 1 day", answered 20 s later, gave 5)."""
    ledger, it, _ = record_answer(new_ledger("alice", "fsrs"), "entries/a.md", "again", TODAY, "Q?", NOW)
    # shown on its due day 10 s before the time of day of the last answer, answered 20 s later: across 24 hours
    shown_at = datetime.combine(it.due, NOW.timetz()) - timedelta(seconds=10)
    shown = preview_intervals("entries/a.md", it, "fsrs", shown_at)
    for grade in ("again", "hard", "good", "easy"):
        answered_at = shown_at + timedelta(seconds=20)
        _, answered, _ = record_answer(ledger, "entries/a.md", grade, answered_at.date(), "Q?", answered_at)
        assert (answered.due - answered_at.date()).days == shown[grade], grade

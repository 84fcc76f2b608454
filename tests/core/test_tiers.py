"""Tier cleanup policy and review file (SPEC 5.4)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
from typing import Any

import pytest

from memkeeper.core.tiers import (
    REVIEW_INSTRUCTION,
    Candidate,
    TierInput,
    TierPlan,
    accepted_candidates,
    candidate_id,
    parse_review,
    plan_tiers,
    render_review,
    review_path,
    set_decision,
    stale_ids,
    validate_review,
)

NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.UTC)
DAY = dt.timedelta(days=1)


def page_hash(path: str) -> str:
    return hashlib.sha256(f"page {path}".encode()).hexdigest()


def record(
    slug: str,
    *,
    category: str = "fact",
    status: str = "active",
    tier: str = "warm",
    days_ago: float | None = 240,
    created_days_ago: float | None = 400,
    excerpt_bytes: int = 100,
    **flags: bool,
) -> TierInput:
    path = f"entries/{slug}.md"
    last = None if days_ago is None else NOW - dt.timedelta(days=days_ago)
    created = None if created_days_ago is None else NOW - dt.timedelta(days=created_days_ago)
    return TierInput(
        path=path,
        memory_id=f"mem_{slug}",
        title=slug.replace("-", " ").title(),
        category=category,
        status=status,
        tier=tier,
        last_accessed_at=last,
        created_at=created,
        page_sha256=page_hash(path),
        excerpt_bytes=excerpt_bytes,
        **flags,
    )


def only(plan: TierPlan) -> tuple[str, Candidate]:
    """The single candidate of a one-record plan and the list it landed in."""
    found = [(name, c) for name in ("protected", "automatic", "ambiguous") for c in getattr(plan, name)]
    assert len(found) == 1, found
    return found[0]


def ambiguous_plan() -> TierPlan:
    return plan_tiers(
        [
            record("old-fact", category="fact", excerpt_bytes=40),
            record("old-preference", category="preference", days_ago=300, excerpt_bytes=60),
            record("old-lesson", category="lesson"),
        ],
        NOW,
    )


def review_text(plan: TierPlan | None = None) -> str:
    return render_review(plan or ambiguous_plan(), "human:alice", "2026-11-20")


# ------------------------------------------------------------------------------------------------------ tier table


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"category": "direction"}, "category direction"),
        ({"category": "decision"}, "category decision"),
        ({"category": "draft"}, "category draft"),
        ({"in_open_conflict": True}, "open conflict"),
        ({"linked_from_hot": True}, "linked from hot.md"),
        ({"days_ago": None}, "missing last_accessed_at"),
        ({"created_days_ago": None}, "missing created_at"),
        ({"days_ago": -2, "created_days_ago": 400}, "last_accessed_at is in the future"),
        ({"days_ago": 240, "created_days_ago": 100}, "created_at is after last_accessed_at"),
        ({"tier": "protected"}, "tier: protected set by hand"),
    ],
)
def test_each_protection_reason_keeps_an_old_record(kwargs: dict[str, Any], reason: str) -> None:
    name, c = only(plan_tiers([record("x", category=kwargs.pop("category", "lesson"), **kwargs)], NOW))
    assert name == "protected"
    assert c.action == "keep"
    assert c.reasons == [reason]
    assert c.reason == reason


def test_protection_wins_even_when_not_old() -> None:
    name, c = only(plan_tiers([record("recent-decision", category="decision", days_ago=3)], NOW))
    assert (name, c.reasons, c.age_days) == ("protected", ["category decision"], pytest.approx(3.0))


def test_all_protection_reasons_are_listed_in_spec_order() -> None:
    r = record(
        "everything",
        category="direction",
        tier="protected",
        status="superseded",
        days_ago=None,
        in_open_conflict=True,
        linked_from_hot=True,
    )
    name, c = only(plan_tiers([r], NOW))
    assert name == "protected"
    assert c.reasons == [
        "category direction",
        "open conflict",
        "linked from hot.md",
        "missing last_accessed_at",
        "tier: protected set by hand",
    ]
    assert c.reason == "; ".join(c.reasons)
    assert c.age_days is None


def test_naive_dates_are_invalid_dates() -> None:
    r = dataclasses.replace(record("naive"), last_accessed_at=dt.datetime(2020, 1, 1))
    name, c = only(plan_tiers([r], NOW))
    assert (name, c.reasons) == ("protected", ["last_accessed_at has no timezone"])


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError):
        plan_tiers([], dt.datetime(2026, 11, 20))


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"status": "superseded", "category": "fact"}, "old superseded record, not accessed in over 180 days"),
        ({"status": "superseded", "category": "lesson"}, "old superseded record, not accessed in over 180 days"),
        ({"category": "milestone"}, "old milestone, not accessed in over 180 days"),
        ({"category": "insight"}, "old insight, not accessed in over 180 days"),
        ({"category": "lesson"}, "old lesson, not accessed in over 180 days"),
    ],
)
def test_automatic_cold(kwargs: dict[str, Any], reason: str) -> None:
    name, c = only(plan_tiers([record("x", days_ago=212, **kwargs)], NOW))
    assert (name, c.action, c.reason, c.reasons) == ("automatic", "cold", reason, [reason])
    assert c.age_days == pytest.approx(212.0)


@pytest.mark.parametrize("category", ["fact", "preference", "project", "commitment", "risk", "question"])
def test_every_other_old_record_is_ambiguous(category: str) -> None:
    name, c = only(plan_tiers([record("x", category=category)], NOW))
    assert name == "ambiguous"
    assert c.action == "cold"
    assert c.reason == f"old {category}, not accessed in over 180 days; needs a person"


def test_reason_is_stable_across_days_so_ids_survive() -> None:
    r = record("old-fact")
    today = plan_tiers([r], NOW).ambiguous[0]
    tomorrow = plan_tiers([r], NOW + DAY).ambiguous[0]
    assert today.candidate_id == tomorrow.candidate_id
    assert tomorrow.age_days == pytest.approx(today.age_days + 1)


def test_180_day_boundary() -> None:
    exactly = record("exactly", category="lesson", days_ago=180)
    plan = plan_tiers([exactly], NOW)
    assert (plan.protected, plan.automatic, plan.ambiguous, plan.unchanged_count) == ([], [], [], 1)

    just_over = dataclasses.replace(exactly, last_accessed_at=NOW - dt.timedelta(days=180, seconds=1))
    assert only(plan_tiers([just_over], NOW))[0] == "automatic"
    over_fact = dataclasses.replace(just_over, category="fact")
    assert only(plan_tiers([over_fact], NOW))[0] == "ambiguous"


def test_scope_and_counts() -> None:
    plan = plan_tiers(
        [
            record("recent-fact", days_ago=10),
            record("recent-superseded", status="superseded", days_ago=10),
            record("denied", status="denied"),
            record("archived", status="archived", category="decision"),
            record("already-cold", tier="cold"),
            record("old-lesson", category="lesson"),
        ],
        NOW,
    )
    assert plan.unchanged_count == 2
    assert plan.out_of_scope_count == 3
    assert [c.path for c in plan.automatic] == ["entries/old-lesson.md"]
    assert plan.protected == plan.ambiguous == []
    assert plan.now == NOW


def test_lists_sorted_by_path_and_bytes_projected() -> None:
    plan = plan_tiers(
        [
            record("zeta-lesson", category="lesson", excerpt_bytes=300),
            record("alpha-milestone", category="milestone", excerpt_bytes=200),
            record("beta-superseded", status="superseded", excerpt_bytes=50),
            record("zz-fact", excerpt_bytes=7),
            record("aa-risk", category="risk", excerpt_bytes=11),
            record("m-decision", category="decision", excerpt_bytes=1000),
        ],
        NOW,
    )
    assert [c.path for c in plan.automatic] == [
        "entries/alpha-milestone.md",
        "entries/beta-superseded.md",
        "entries/zeta-lesson.md",
    ]
    assert [c.path for c in plan.ambiguous] == ["entries/aa-risk.md", "entries/zz-fact.md"]
    assert plan.projected_bytes_removed == 550
    assert plan.ambiguous_bytes == 18  # protected bytes are never counted


def test_candidate_carries_record_identity() -> None:
    c = plan_tiers([record("old-fact", excerpt_bytes=42)], NOW).ambiguous[0]
    assert (c.memory_id, c.title, c.category) == ("mem_old-fact", "Old Fact", "fact")
    assert c.page_sha256 == page_hash("entries/old-fact.md")
    assert c.excerpt_bytes == 42


def test_candidate_id_formula() -> None:
    c = plan_tiers([record("old-fact")], NOW).ambiguous[0]
    expected = hashlib.sha256(f"{c.path}|{c.action}|{c.reason}".encode()).hexdigest()[:12]
    assert c.candidate_id == expected == candidate_id(c.path, "cold", c.reason)
    assert candidate_id("entries/a.md", "cold", "r") == hashlib.sha256(b"entries/a.md|cold|r").hexdigest()[:12]


def test_pipes_and_newlines_never_reach_a_reason() -> None:
    c = plan_tiers([record("odd", category="fa|ct\nx")], NOW).ambiguous[0]
    assert "|" not in c.reason and "\n" not in c.reason
    assert c.candidate_id == candidate_id(c.path, c.action, c.reason)


# ------------------------------------------------------------------------------------------------------ review file


def test_review_path() -> None:
    assert review_path("2026-11-20") == "review/tier-review-2026-11-20.md"
    assert review_path(dt.date(2026, 11, 20)) == "review/tier-review-2026-11-20.md"


def test_render_review_exact_format() -> None:
    plan = ambiguous_plan()
    fact, pref = plan.ambiguous
    text = render_review(plan, "human:alice", dt.date(2026, 11, 20))
    assert text == "\n".join(
        [
            "---",
            "title: Tier cleanup review",
            "description: Human approval for ambiguous reversible tier changes.",
            "kind: cleanup",
            "owner: human:alice",
            "source: tier-cleanup",
            "status: draft",
            "created: 2026-11-20",
            "tags: [cleanup, review, maintenance]",
            "---",
            "",
            "# Tier cleanup review 2026-11-20",
            "",
            "Accept only IDs whose proposed tier is appropriate. Rejected IDs stay unchanged.",
            "",
            "## Candidates",
            "",
            f"- candidate: {fact.candidate_id} | path: entries/old-fact.md | hash: {page_hash('entries/old-fact.md')}"
            " | action: cold | reason: old fact, not accessed in over 180 days; needs a person"
            " | risk: reversible-tier-only",
            f"- candidate: {pref.candidate_id} | path: entries/old-preference.md"
            f" | hash: {page_hash('entries/old-preference.md')}"
            " | action: cold | reason: old preference, not accessed in over 180 days; needs a person"
            " | risk: reversible-tier-only",
            "",
            "## Decision",
            "",
            "A. accepted IDs: (none)",
            "",
        ]
    )
    assert REVIEW_INSTRUCTION in text.splitlines()


def test_render_refuses_an_empty_review() -> None:
    with pytest.raises(ValueError):
        render_review(plan_tiers([record("recent", days_ago=1)], NOW), "human:alice", "2026-11-20")


def test_owner_that_is_not_plain_yaml_is_quoted_and_round_trips() -> None:
    review = parse_review(render_review(ambiguous_plan(), "human: alice # x", "2026-11-20"))
    assert review.frontmatter["owner"] == "human: alice # x"


def test_parse_render_round_trip() -> None:
    plan = ambiguous_plan()
    review = parse_review(review_text(plan))
    assert review.problems == []
    assert review.accepted_ids is None
    assert review.frontmatter["kind"] == "cleanup"
    assert review.frontmatter["source"] == "tier-cleanup"
    assert review.frontmatter["owner"] == "human:alice"
    assert review.frontmatter["status"] == "draft"
    assert review.frontmatter["created"] == "2026-11-20"
    assert [(c.candidate_id, c.path, c.hash, c.action, c.reason, c.risk) for c in review.candidates] == [
        (c.candidate_id, c.path, c.page_sha256, "cold", c.reason, "reversible-tier-only") for c in plan.ambiguous
    ]


def test_rendered_review_is_unanswered_until_decided() -> None:
    review = parse_review(review_text())
    assert validate_review(review, None) == ["review is unanswered"]


def test_answer_in_the_file_is_read() -> None:
    plan = ambiguous_plan()
    first = plan.ambiguous[0].candidate_id
    review = parse_review(set_decision(review_text(plan), [first]))
    assert review.accepted_ids == [first]
    assert validate_review(review, None) == []
    assert [c.candidate_id for c in accepted_candidates(review, None)] == [first]


def test_decision_line_accepts_commas_spaces_and_upper_case() -> None:
    plan = ambiguous_plan()
    a, b = (c.candidate_id for c in plan.ambiguous)
    text = review_text(plan).replace("A. accepted IDs: (none)", f"A. accepted IDs: {a.upper()},  {b} ,{a}")
    assert parse_review(text).accepted_ids == [a, b]


@pytest.mark.parametrize("answer", ["", "   ", "(none)"])
def test_blank_or_none_decision_is_unanswered(answer: str) -> None:
    text = review_text().replace("A. accepted IDs: (none)", f"A. accepted IDs:{answer}")
    review = parse_review(text)
    assert review.accepted_ids is None
    assert validate_review(review, None) == ["review is unanswered"]


def test_missing_decision_line_is_unanswered() -> None:
    review = parse_review(review_text().replace("A. accepted IDs: (none)\n", ""))
    assert review.accepted_ids is None
    assert "review is unanswered" in validate_review(review, None)


def test_explicit_ids_take_precedence_over_the_file() -> None:
    plan = ambiguous_plan()
    a, b = (c.candidate_id for c in plan.ambiguous)
    review = parse_review(set_decision(review_text(plan), [a]))
    assert validate_review(review, [b]) == []
    assert [c.candidate_id for c in accepted_candidates(review, [b])] == [b]


def test_explicit_empty_list_rejects_all_and_is_valid() -> None:
    review = parse_review(review_text())
    assert validate_review(review, []) == []
    assert accepted_candidates(review, []) == []


def test_unknown_id_is_malformed() -> None:
    review = parse_review(review_text())
    assert validate_review(review, ["0123456789ab"]) == [
        "unknown id '0123456789ab' is malformed: it is not a candidate in this review"
    ]


def _with_line(text: str, old_line_index: int, new_line: str) -> str:
    lines = text.split("\n")
    candidate_lines = [i for i, line in enumerate(lines) if line.startswith("- candidate")]
    lines[candidate_lines[old_line_index]] = new_line
    return "\n".join(lines)


def _first_line(text: str) -> str:
    return next(line for line in text.split("\n") if line.startswith("- candidate"))


GOOD_HASH = "a" * 64
RISK = "reversible-tier-only"


def _line(cid: str, path: str, hash_: str = GOOD_HASH, action: str = "cold", risk: str = RISK) -> str:
    return f"- candidate: {cid} | path: {path} | hash: {hash_} | action: {action} | reason: r | risk: {risk}"


def _signed(path: str, hash_: str = GOOD_HASH, action: str = "cold", risk: str = RISK) -> str:
    """A line whose id matches its path/action/reason, so only the deliberate defect is reported."""
    return _line(candidate_id(path, action, "r"), path, hash_, action, risk)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("- candidate: abc | path: entries/x.md", "malformed candidate line (missing hash, action, reason, risk)"),
        (_signed("entries/x.md") + " | extra: 1", "malformed candidate line (unexpected extra)"),
        (_signed("entries/x.md") + " | path: entries/y.md", "malformed candidate line (unexpected path)"),
        (_line("ABCDEF012345", "entries/x.md"), "id is not 12 lowercase hex digits"),
        (_line("abcdef01234", "entries/x.md"), "id is not 12 lowercase hex digits"),
        (_signed("entries/x.md", hash_="abc"), "hash is not 64 lowercase hex digits"),
        (_signed("entries/x.md", hash_="A" * 64), "hash is not 64 lowercase hex digits"),
        (_signed("../x.md"), "path is not normalised"),
        (_signed("entries/../hot.md"), "path is not normalised"),
        (_signed("/etc/x.md"), "path is absolute"),
        (_signed("notes/x.md"), "path is not entries/<name>.md"),
        (_signed("entries/x.txt"), "path is not entries/<name>.md"),
        (_signed("entries/sub/x.md"), "path is not entries/<name>.md"),
        (_signed("entries\\x.md"), "backslash"),
        (_signed("entries/x.md", action="warm"), "action must be 'cold'"),
        (_signed("entries/x.md", risk="permanent"), "risk must be 'reversible-tier-only'"),
        (_line("0123456789ab", "entries/x.md"), "id does not match sha256(path|action|reason)"),
    ],
)
def test_malformed_candidate_lines(line: str, expected: str) -> None:
    plan = ambiguous_plan()
    text = _with_line(set_decision(review_text(plan), [plan.ambiguous[1].candidate_id]), 0, line)
    errors = validate_review(parse_review(text), None)
    assert len(errors) == 1, errors
    assert expected in errors[0]


def test_edited_path_breaks_the_id() -> None:
    text = review_text()
    line = _first_line(text)
    review = parse_review(text.replace(line, line.replace("entries/old-fact.md", "entries/other.md")))
    errors = validate_review(review, [])
    assert len(errors) == 1 and "id does not match" in errors[0]


def test_duplicate_ids() -> None:
    text = review_text()
    line = _first_line(text)
    review = parse_review(text.replace(line, line + "\n" + line))
    assert validate_review(review, []) == [f"duplicate candidate id {review.candidates[0].candidate_id!r}"]


def test_no_candidates() -> None:
    plan = ambiguous_plan()
    text = review_text(plan)
    for line in text.split("\n"):
        if line.startswith("- candidate"):
            text = text.replace(line + "\n", "")
    assert validate_review(parse_review(text), []) == ["review has no candidates"]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("kind: cleanup", "kind: quiz", "review kind must be 'cleanup' (got 'quiz')"),
        ("kind: cleanup\n", "", "review kind must be 'cleanup' (got None)"),
        ("source: tier-cleanup", "source: wiki-clean", "review source must be 'tier-cleanup' (got 'wiki-clean')"),
        ("owner: human:alice\n", "", "review has no owner"),
    ],
)
def test_wrong_frontmatter(old: str, new: str, expected: str) -> None:
    review = parse_review(review_text().replace(old, new, 1))
    assert validate_review(review, []) == [expected]


def test_missing_frontmatter_is_reported_not_raised() -> None:
    text = review_text()
    body = text.split("---\n", 2)[2]
    errors = validate_review(parse_review(body), [])
    assert errors[0] == "review has no frontmatter"
    assert "review kind must be 'cleanup' (got None)" in errors


def test_candidate_lines_in_frontmatter_are_ignored() -> None:
    text = review_text()
    review = parse_review(text.replace("status: draft", "- candidate: sneaky", 1))
    assert len(review.candidates) == 2


def test_two_decision_lines_are_a_problem() -> None:
    text = review_text() + "A. accepted IDs: (none)\n"
    assert any("2 'A. accepted IDs:' lines" in e for e in validate_review(parse_review(text), []))


# ------------------------------------------------------------------------------------------------------------ stale


def test_stale_detection_includes_missing_pages() -> None:
    plan = ambiguous_plan()
    fact, pref = plan.ambiguous
    review = parse_review(review_text(plan))
    accepted = [fact.candidate_id, pref.candidate_id]
    current = {fact.path: fact.page_sha256, pref.path: pref.page_sha256}
    assert stale_ids(review, accepted, current) == []
    assert stale_ids(review, accepted, {**current, pref.path: "b" * 64}) == [pref.candidate_id]
    assert stale_ids(review, accepted, {**current, fact.path: None}) == [fact.candidate_id]
    assert stale_ids(review, accepted, {}) == accepted  # absent from the map = page missing


def test_only_accepted_pages_can_be_stale() -> None:
    plan = ambiguous_plan()
    fact, pref = plan.ambiguous
    review = parse_review(set_decision(review_text(plan), [fact.candidate_id]))
    current = {fact.path: fact.page_sha256, pref.path: None}
    assert stale_ids(review, None, current) == []  # the file's answer is used when none is passed
    assert stale_ids(review, [], {}) == []


# ------------------------------------------------------------------------------------------------------ set_decision


def test_set_decision_changes_only_the_decision_line() -> None:
    plan = ambiguous_plan()
    a, b = (c.candidate_id for c in plan.ambiguous)
    text = review_text(plan)
    decided = set_decision(text, [a, b])
    before, after = text.split("A. accepted IDs: (none)")
    assert decided == f"{before}A. accepted IDs: {a}, {b}{after}"
    assert set_decision(decided, []) == text


def test_set_decision_preserves_crlf_and_other_bytes() -> None:
    plan = ambiguous_plan()
    a = plan.ambiguous[0].candidate_id
    text = review_text(plan).replace("\n", "\r\n") + "trailing note\r\n"
    decided = set_decision(text, [a])
    assert decided == text.replace("A. accepted IDs: (none)\r\n", f"A. accepted IDs: {a}\r\n")
    assert parse_review(decided).accepted_ids == [a]
    assert validate_review(parse_review(decided), None) == []


def test_set_decision_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        set_decision(review_text(), ["not an id, really"])
    with pytest.raises(ValueError):
        set_decision("---\nkind: cleanup\n---\nno decision here\n", [])

"""Contradiction detector (SPEC §5.1): examples per type, the 20% boundary, determinism, and the labelled fixture."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from memkeeper.core.contradiction import (
    CONFLICT_TYPES,
    RELATIONS,
    PairVerdict,
    Statement,
    classify_pair,
    evaluate,
    format_report,
    is_related,
    load_fixture,
    main,
)

FIXTURE = Path(__file__).parent / "fixtures" / "conflict_pairs.jsonl"


def rel(a: str | Statement, b: str | Statement, **common: str | None) -> str:
    """Relation of a pair; plain strings become statements sharing `common` fields (e.g. canonical_key)."""
    sa = a if isinstance(a, Statement) else Statement(a, **common)  # type: ignore[arg-type]
    sb = b if isinstance(b, Statement) else Statement(b, **common)  # type: ignore[arg-type]
    return classify_pair(sa, sb).relation


# --------------------------------------------------------------------------------------------------------- API shape


def test_public_api_shape():
    assert CONFLICT_TYPES == (
        "direct_negation", "mutually_exclusive", "quantitative_drift", "decision_supersession", "source_disagreement",
    )
    assert set(RELATIONS) == {"unrelated", "restatement", *CONFLICT_TYPES}
    s = Statement("Use Postgres")
    assert (s.category, s.canonical_key, s.source_ref) == ("fact", None, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.text = "x"  # type: ignore[misc]
    v = classify_pair(s, Statement("Use MySQL", canonical_key="db"))
    assert isinstance(v, PairVerdict) and v.reason


# ----------------------------------------------------------------------------------------------- spec §5.1 verbatim


def test_spec_example_negation():
    v = classify_pair(Statement("uses Postgres"), Statement("does not use Postgres"))
    assert v.relation == "direct_negation"
    assert "postgres" in v.reason


def test_spec_example_always_never():
    assert rel("always X", "never X") == "direct_negation"


def test_spec_example_db_values_need_a_shared_key():
    # low word overlap: only comparable when both records share a canonical key (SPEC: same key or Jaccard >= 0.5)
    assert rel("DB is Postgres", "DB is MySQL") == "unrelated"
    v = classify_pair(Statement("DB is Postgres", canonical_key="db"), Statement("DB is MySQL", canonical_key="db"))
    assert v.relation == "mutually_exclusive"
    assert v.reason == "values differ: postgres vs mysql"


def test_spec_example_ship_days():
    assert rel("Ship Friday", "Ship next Monday") == "mutually_exclusive"


def test_spec_example_budget_drift():
    v = classify_pair(Statement("Budget $50k"), Statement("Budget $80k"))
    assert v.relation == "quantitative_drift"
    assert "$50k" in v.reason and "$80k" in v.reason


# ------------------------------------------------------------------------------------------------------ relatedness


def test_is_related_by_key_or_overlap():
    keyed = Statement("DB is Postgres", canonical_key="db")
    assert is_related(keyed, Statement("We store data in MySQL", canonical_key="DB"))
    assert not is_related(keyed, Statement("DB is MySQL", canonical_key=None))
    assert not is_related(Statement("DB is Postgres", canonical_key=""), Statement("DB is MySQL", canonical_key=""))
    assert is_related(Statement("Never squash merge PRs"), Statement("Always squash merge PRs"))
    # frame tokens: polarity words and amounts do not count against "about the same thing"
    assert is_related(Statement("uses Postgres"), Statement("does not use Postgres"))
    assert is_related(Statement("Budget $50k"), Statement("Budget $80k"))
    assert not is_related(Statement("Prefers tabs"), Statement("The staging database is refreshed nightly"))
    assert not is_related(Statement(""), Statement(""))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Use pnpm for JavaScript packages", "Use uv for Python packages"),
        ("Design reviews happen in Figma", "Code reviews happen on GitHub"),
        ("Never deploy on Fridays", "Friday lunch is a team tradition"),
        ("Our OpenAI spend is roughly $900/month", "Our Vercel spend is roughly $300/month"),
    ],
)
def test_unrelated(a, b):
    assert rel(a, b) == "unrelated"


# --------------------------------------------------------------------------------------------------- direct_negation


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Maya prefers squash merges for feature branches", "Maya doesn't like squash merges for feature branches"),
        ("The billing service runs on Kubernetes", "The billing service isn't on Kubernetes yet"),
        ("We deploy the marketing site on Fridays", "We no longer deploy the marketing site on Fridays"),
        ("i like getting pinged on weekends if prod is down", "dont ping me on weekends even if prod is down"),
        ("Dark mode is enabled by default in the dashboard", "Dark mode is disabled by default in the dashboard"),
        ("Code reviews are required before merging to main", "Code reviews aren't required for merging to main now"),
        ("Telemetry is sent to Sentry from the CLI", "The CLI never sends telemetry to Sentry"),
        ("Two-factor auth is mandatory for admin accounts", "Two-factor auth isn't mandatory for admin accounts"),
    ],
)
def test_direct_negation(a, b):
    assert rel(a, b, canonical_key="k") == "direct_negation"
    assert rel(b, a, canonical_key="k") == "direct_negation"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Never push directly to main", "Direct pushes to main are not allowed"),  # both negative
        ("We don't deploy on Fridays", "No deploys on Fridays"),
        ("Don't deploy on Friday", "Deploy on Monday"),  # negates a different value: compatible
        # a rejected alternative is not a negation of the chosen value
        ("Use Postgres, not MySQL, for the billing service", "The billing service uses Postgres"),
        ("Prefer composition over inheritance in TypeScript", "In TypeScript code, favor composition over inheritance"),
        ("Retry at most 3 times", "Retry no more than 3 times"),  # "no more than" is a bound, not a negation
        ("Self-serve signup is no longer open; it's invite-only now.", "Signup is invite-only; self-serve is closed"),
    ],
)
def test_same_polarity_is_not_a_negation(a, b):
    assert rel(a, b, canonical_key="k") == "restatement"


def test_negation_about_a_different_subject_is_not_trusted_without_a_key():
    assert rel("The public API has a rate limit of 100 requests per minute", "The internal API has no rate limit") != (
        "direct_negation"
    )


# ------------------------------------------------------------------------------------------------ mutually_exclusive


@pytest.mark.parametrize(
    ("a", "b", "key"),
    [
        ("The marketing site is hosted on Netlify", "The marketing site is hosted on Vercel", None),
        ("Team standup is at 9:30 CET", "Team standup is at 10:15 CET", None),
        ("Lena prefers tabs for indentation in Go files", "Lena prefers spaces for indentation in Go files", None),
        ("The public launch is scheduled for March 14", "The public launch is scheduled for April 2", None),
        ("The data pipeline is orchestrated with Airflow", "The data pipeline is orchestrated with Dagster", None),
        ("The Python services target Python 3.11", "The Python services target Python 3.12", None),
        ("Customer emails are sent from support@acme.io", "Customer emails are sent from hello@acme.io", "sender"),
        ("Launch is in May", "Launch is in June", "launch"),
        ("Our on-call escalation goes to Priya", "Our on-call escalation goes to Marcus", None),
    ],
)
def test_mutually_exclusive(a, b, key):
    assert rel(a, b, canonical_key=key) == "mutually_exclusive"
    assert rel(b, a, canonical_key=key) == "mutually_exclusive"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The design team meets on Tuesdays at 14:00", "Design team meeting: every Tuesday, 2pm"),
        ("Launch is on 2026-03-14", "Launch is on March 14th"),
        ("Backups run every night at 02:00 UTC", "Nightly backup job starts at 2am UTC"),
    ],
)
def test_same_value_written_differently_is_a_restatement(a, b):
    assert rel(a, b, canonical_key="k") == "restatement"


# ------------------------------------------------------------------------------------------------ quantitative_drift


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("Budget $50k", "Budget $60k", "restatement"),  # exactly 20%: consolidation
        ("Budget $60k", "Budget $50k", "restatement"),  # symmetric
        ("Budget $50k", "Budget $60.5k", "quantitative_drift"),  # 21%
        ("Team has 10 engineers", "Team has 12 engineers", "restatement"),
        ("Team has 10 engineers", "Team has 13 engineers", "quantitative_drift"),
        ("API rate limit is 100 requests per minute", "API rate limit is 120 req/min", "restatement"),
        ("API rate limit is 100 requests per minute", "API rate limit is 1,000 requests/minute", "quantitative_drift"),
    ],
)
def test_drift_boundary(a, b, expected):
    assert rel(a, b, canonical_key="k") == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("Onboarding takes 2 weeks", "Onboarding takes 14 days", "restatement"),
        ("Median page load is 1.2 seconds", "Median page load is 1,300 ms", "restatement"),
        ("Storage quota is 1 TB per team", "Storage quota is 1,000 GB per team", "restatement"),
        ("Sessions expire after 30 minutes of inactivity", "Sessions expire after half an hour idle", "restatement"),
        ("Sprint length is two weeks", "Sprint length is 3 weeks", "quantitative_drift"),
        ("The Postgres instance has 16 GB of RAM", "The Postgres instance has 64GB of RAM", "quantitative_drift"),
        ("Docker images must stay under 500MB", "Docker images must stay under 1.2 GB", "quantitative_drift"),
        ("Our seed round target is €1.5M", "Our seed round target is €2M", "quantitative_drift"),
        ("Contract rate is €95 per hour", "Contract rate is €120 per hour", "quantitative_drift"),
        ("Conversion rate is 2.5%", "Conversion rate is 4.1%", "quantitative_drift"),
        ("Churn is about 30% of trial users", "Churn is about 33% of trial users", "restatement"),
        # percentages are also read on their remainder: 0.1% vs 0.5% downtime
        ("Uptime SLA is 99.9%", "Uptime SLA is 99.5%", "quantitative_drift"),
        ("Test coverage target is 80%", "Test coverage target is 90%", "quantitative_drift"),
    ],
)
def test_quantities_units_and_percentages(a, b, expected):
    assert rel(a, b, canonical_key="k") == expected


def test_quantities_of_different_subjects_do_not_drift_without_a_key():
    assert rel("Our OpenAI spend is $900/month", "Our Vercel spend is $300/month") != "quantitative_drift"


# --------------------------------------------------------------------------------------------- decision_supersession


def decision(text: str, key: str | None = "orm-choice", source: str | None = None) -> Statement:
    return Statement(text, category="decision", canonical_key=key, source_ref=source)


def test_decision_supersession():
    v = classify_pair(decision("Use Prisma as the ORM for the API"), decision("Replace Prisma with Drizzle in the API"))
    assert v.relation == "decision_supersession"
    assert v.reason.startswith("new decision replaces the active one")
    # divergent content without a typed value is still a new decision
    assert classify_pair(
        decision("Keep all services in a single monorepo", "repo-layout"),
        decision("Split services into separate repositories per team", "repo-layout"),
    ).relation == "decision_supersession"
    # precedence: a reversed decision is a supersession, not a plain negation
    assert classify_pair(
        decision("We will support IE11 in the admin portal", "ie11"),
        decision("We will not support IE11 in the admin portal", "ie11"),
    ).relation == "decision_supersession"


def test_decision_supersession_needs_two_decisions_with_one_key():
    fact = Statement("Backend is written in Python", canonical_key="backend-language")
    new = decision("The backend will be rewritten in Go", "backend-language")
    assert classify_pair(fact, new).relation == "mutually_exclusive"
    other_key = classify_pair(decision("Use Postgres for the main database", "db-choice"),
                              decision("Use MySQL for the main database", "database-selection"))
    assert other_key.relation == "mutually_exclusive"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Decision: use Prisma as the ORM", "We decided to go with Prisma for the ORM layer"),
        ("Host the API on Fly.io", "Host the API on Fly.io in the Frankfurt region"),  # additive
        ("Cap the launch budget at $40k", "Cap the launch budget at $45k"),  # within 20%
    ],
)
def test_restated_decision_consolidates(a, b):
    assert classify_pair(decision(a), decision(b)).relation == "restatement"


# ----------------------------------------------------------------------------------------------- source_disagreement


def test_source_disagreement_needs_key_and_two_sources():
    a, b = "Invoices are generated at the end of each month", "Invoices are generated as soon as an order ships"
    v = classify_pair(
        Statement(a, canonical_key="invoice-timing", source_ref="raw/call.md#L3"),
        Statement(b, canonical_key="invoice-timing", source_ref="raw/email.md#L9"),
    )
    assert v.relation == "source_disagreement"
    assert "raw/call.md#L3" in v.reason and "raw/email.md#L9" in v.reason
    same_source = classify_pair(
        Statement(a, canonical_key="invoice-timing", source_ref="raw/call.md#L3"),
        Statement(b, canonical_key="invoice-timing", source_ref="raw/call.md#L3"),
    )
    assert same_source.relation == "restatement"
    one_source = classify_pair(
        Statement(a, canonical_key="invoice-timing", source_ref="raw/call.md#L3"),
        Statement(b, canonical_key="invoice-timing"),
    )
    assert one_source.relation == "restatement"


def test_specific_type_wins_over_source_disagreement():
    v = classify_pair(
        Statement("CI runs on GitHub Actions", canonical_key="ci", source_ref="raw/a.md"),
        Statement("CI runs on CircleCI", canonical_key="ci", source_ref="raw/b.md"),
    )
    assert v.relation == "mutually_exclusive"


def test_paraphrase_from_two_sources_is_not_a_disagreement():
    v = classify_pair(
        Statement("Prefers tabs for indentation", canonical_key="indent", source_ref="raw/s1.md#L4"),
        Statement("Likes to indent code with tabs", canonical_key="indent", source_ref="raw/s2.md#L8"),
    )
    assert v.relation == "restatement"


# ------------------------------------------------------------------------------------------------------- restatement


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Use Postgres", "Use Postgres 16 with pgvector"),  # additive, compatible detail
        ("Run database migrations before deploying the API", "Before deploying the API, run the database migrations"),
        ("Always write commit messages in the imperative mood", "Commit messages should be written in imperative mood"),
        ("We use Sentry for error tracking", "Error tracking is handled by Sentry"),
        ("Maya prefers async code reviews over meetings", "Maya likes code reviews async rather than done in meetings"),
        ("Avoid using any in TypeScript", "Don't use the any type in TypeScript code"),
    ],
)
def test_restatement(a, b):
    sa = Statement(a, canonical_key="k", source_ref="raw/one.md")
    sb = Statement(b, canonical_key="k", source_ref="raw/two.md")
    assert classify_pair(sa, sb).relation == "restatement"
    assert classify_pair(sb, sa).relation == "restatement"


# ------------------------------------------------------------------------------------------------------- determinism


def test_deterministic_and_stateless():
    pairs = load_fixture(FIXTURE)
    first = [classify_pair(e, i) for e, i, _ in pairs]
    shuffled = list(enumerate(pairs))
    random.Random(7).shuffle(shuffled)
    again = {n: classify_pair(e, i) for n, (e, i, _) in shuffled}
    assert first == [again[n] for n in range(len(pairs))]
    assert evaluate(pairs) == evaluate(pairs)


def test_every_verdict_is_explained():
    for e, i, _ in load_fixture(FIXTURE):
        v = classify_pair(e, i)
        assert v.relation in RELATIONS
        assert v.reason.strip()


# ------------------------------------------------------------------------------------------------------- measurement


def test_evaluate_counts_and_report():
    pairs = [
        (Statement("uses Postgres"), Statement("does not use Postgres"), "direct_negation"),
        (Statement("Budget $50k"), Statement("Budget $80k"), "quantitative_drift"),
        (Statement("Budget $50k"), Statement("Budget $52k"), "mutually_exclusive"),  # deliberately wrong label
        (Statement("Prefers tabs"), Statement("The staging database is refreshed nightly"), "unrelated"),
    ]
    result = evaluate(pairs)
    assert result["total"] == 4
    assert result["labels"]["direct_negation"] == {
        "precision": 1.0, "recall": 1.0, "support": 1, "predicted": 1, "correct": 1,
    }
    assert result["labels"]["mutually_exclusive"]["recall"] == 0.0
    assert result["labels"]["restatement"]["precision"] == 0.0  # predicted once, never expected
    assert result["overall"] == {
        "precision": 1.0, "recall": 2 / 3, "support": 3, "tp": 2, "fp": 0, "fn": 1, "tn": 1,
    }
    assert [m["index"] for m in result["misclassified"]] == [2]
    report = format_report(result)
    lines = report.splitlines()
    assert lines[0].split() == ["relation", "precision", "recall", "support"]
    for name in RELATIONS:
        assert any(line.startswith(name + " ") for line in lines)
    table = [line for line in lines if not line.startswith("accuracy")]
    assert len({len(line) for line in table}) == 1  # aligned


def test_evaluate_rejects_unknown_labels():
    with pytest.raises(ValueError):
        evaluate([(Statement("a b c"), Statement("a b c"), "contradiction")])


def test_load_fixture_formats(tmp_path):
    row = {
        "existing": {"text": "uses Postgres"},
        "incoming": {"text": "does not use Postgres", "source_ref": "r"},
        "label": "direct_negation",
        "note": "spec",
    }
    jsonl = tmp_path / "pairs.jsonl"
    jsonl.write_text(json.dumps(row) + "\n\n", encoding="utf-8")
    as_json = tmp_path / "pairs.json"
    as_json.write_text(json.dumps([row]), encoding="utf-8")
    expected = [(Statement("uses Postgres"), Statement("does not use Postgres", source_ref="r"), "direct_negation")]
    assert load_fixture(jsonl) == load_fixture(as_json) == expected
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**row, "label": "nope"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError):
        load_fixture(bad)
    typo = tmp_path / "typo.jsonl"
    typo.write_text(json.dumps({**row, "existing": {"txt": "uses Postgres"}}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError):
        load_fixture(typo)


def test_fixture_coverage():
    labels = [label for _, _, label in load_fixture(FIXTURE)]
    assert len(labels) >= 100
    for conflict in CONFLICT_TYPES:
        assert labels.count(conflict) >= 12, conflict
    assert labels.count("restatement") >= 15
    assert labels.count("unrelated") >= 10


def test_fixture_precision_and_recall():
    result = evaluate(load_fixture(FIXTURE))
    report = format_report(result)
    assert result["overall"]["precision"] >= 0.9, report
    assert result["overall"]["recall"] >= 0.8, report
    for conflict in CONFLICT_TYPES:
        assert result["labels"][conflict]["recall"] >= 0.6, f"{conflict}\n{report}"


def test_bench_entry_point(capsys):
    assert main([str(FIXTURE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("relation")
    assert "any conflict (binary)" in out

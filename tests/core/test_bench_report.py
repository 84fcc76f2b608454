"""The contradiction bench's report says what came back for a held-out half without quoting the half's words."""

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCH))

import contradictions as bench  # noqa: E402


def _report(name: str) -> "bench.Report":
    case = bench.Case(
        id=f"{name}-001",
        label="contradiction",
        kind=None,
        domain="schedules",
        first={"content": "The bins go out on Monday."},
        second={"content": "The bins go out on Friday."},
    )
    other = bench.Outcome(case, "other", "first statement came back conflict (differs: Monday / Friday)")
    return bench.Report(name, [other])


def test_a_held_out_half_reports_what_came_back_without_its_words():
    text = bench.format_report([_report("fourth-heldout")], 0.0)
    assert "fourth-heldout: 1 pair whose first statement came back conflict (counted as not flagged)." in text
    assert "Friday" not in text


def test_a_dev_half_reports_the_reason_too():
    text = bench.format_report([_report("fourth-dev")], 0.0)
    assert "first statement came back conflict (differs: Monday / Friday)" in text


def test_a_missed_contradiction_the_receipt_listed_counts_as_shown_to_the_agent():
    def case(i: int) -> "bench.Case":
        return bench.Case(f"dev-{i}", "contradiction", None, "schedules", {"content": "a"}, {"content": "b"})

    outcomes = [
        bench.Outcome(case(1), "conflict", "mutually_exclusive"),
        bench.Outcome(case(2), "separate", listed=True, pair_kind="compatible"),
        bench.Outcome(case(3), "separate", listed=False, pair_kind="unrelated"),
    ]
    text = bench.format_report([bench.Report("dev", outcomes)], 0.0)
    assert "| dev | 2 | 1 | 1 | 0 | 0 | 1 |" in text  # two missed, one of them listed in `related`
    assert "dev 2/3 (0.67)." in text  # shown: the conflict and the listed one

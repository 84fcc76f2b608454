"""`check` and `check --repair` on two things a person can do by hand that check did not notice: deleting a
generated view, and reordering the rows of log.md."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta

import pytest

from memkeeper.core import Engine
from memkeeper.core import views as views_module
from tests.conftest import T0

GENERATED = ["hot.md", "index.md", "SCHEMA.md", "CONFLICTS.md"]


class Killed(BaseException):
    """Stands for SIGKILL: nothing of the operation after this point runs."""


def _capture(eng: Engine, n: int, *, now, category: str = "fact") -> str:
    r = eng.capture(
        f"The {['atlas', 'harbor', 'lumen', 'quill', 'kestrel'][n % 5]} service runs build {n * 7919} on host node{n}.",
        now=now,
        title=f"Build note {n}",
        category=category,
    )
    assert r.status == "captured", r.details
    return r.receipt_sha256


def _log_rows(eng: Engine) -> list[str]:
    return [x for x in (eng.root / "log.md").read_text().splitlines() if x.startswith("| 2")]


def _swap_log_rows(eng: Engine, a: str, b: str) -> None:
    """Swap the log.md rows of receipts a and b, as a person editing the table would."""
    log = eng.root / "log.md"
    lines = log.read_text().splitlines(keepends=True)
    i = next(n for n, x in enumerate(lines) if f"| {a} |" in x)
    j = next(n for n, x in enumerate(lines) if f"| {b} |" in x)
    lines[i], lines[j] = lines[j], lines[i]
    log.write_text("".join(lines))


def _log_line(eng: Engine, sha: str) -> int:
    return next(n for n, x in enumerate((eng.root / "log.md").read_text().splitlines(), 1) if f"| {sha} |" in x)


# ---------------------------------------------------------------------------------------------- generated views


def test_check_names_each_missing_generated_view(eng):
    _capture(eng, 1, now=T0, category="risk")
    assert eng.check().ok
    gone = [*GENERATED, "index/risk.md"]
    for rel in gone:
        (eng.root / rel).unlink()
    rep = eng.check()
    assert not rep.ok
    for rel in gone:
        lines = [p for p in rep.problems if p.startswith(f"{rel}: ")]
        assert len(lines) == 1, (rel, rep.problems)
        assert "check --repair regenerates it" in lines[0]
    # derived from the pages, so repairable; and nothing else is reported
    assert sorted(rep.repairable) == sorted(rep.problems) and len(rep.problems) == len(gone)


def test_repair_regenerates_missing_views_and_lists_them(eng):
    _capture(eng, 1, now=T0, category="risk")
    _capture(eng, 2, now=T0, category="fact")
    before = {rel: (eng.root / rel).read_text() for rel in ["SCHEMA.md", "index/risk.md", "index/fact.md"]}
    for rel in ["hot.md", "SCHEMA.md", "CONFLICTS.md", "index/risk.md"]:
        (eng.root / rel).unlink()
    # index.md is there and links index/risk.md: a link that leads nowhere
    assert [p.split(":")[0] for p in eng.check().problems] == ["hot.md", "SCHEMA.md", "CONFLICTS.md", "index/risk.md"]
    r = eng.repair(now=T0 + timedelta(hours=1), actor="human:alice")
    assert r.status == "repaired"
    assert r.details["views_regenerated"] == ["hot.md", "SCHEMA.md", "CONFLICTS.md", "index/risk.md"]
    assert r.details["count"] == 4
    for rel in [*GENERATED, "index/risk.md", "index/fact.md"]:
        assert (eng.root / rel).is_file(), rel
    # regenerated exactly: a derived view comes back as the engine wrote it
    assert {rel: (eng.root / rel).read_text() for rel in before} == before
    rep = eng.check()
    assert rep.ok, rep.problems
    again = eng.repair(now=T0 + timedelta(hours=2), actor="human:alice")
    assert again.status == "ok" and again.details["views_regenerated"] == []


def test_only_the_views_the_engine_writes_are_expected(tmp_path):
    """A new wiki has no index/<category>.md (none is written for a category without records): check is clean on
    it, and stays clean as the engine writes — a conflict opened, categories filled, a later process."""
    eng = Engine.init(tmp_path / "m", now=T0)
    assert not list((eng.root / "index").iterdir())
    rep = eng.check()
    assert rep.ok, rep.problems
    _capture(eng, 1, now=T0, category="decision")
    eng.capture("The billing export runs every Monday at 06:00.", now=T0, key="billing-export")
    c = eng.capture("The billing export runs every Friday at 18:00.", now=T0, key="billing-export")
    assert c.status == "conflict", c.status
    eng.compile(now=T0 + timedelta(minutes=5))
    rep = eng.check()
    assert rep.ok, rep.problems
    eng.close()
    fresh = Engine.open(tmp_path / "m")
    rep = fresh.check()
    assert rep.ok, rep.problems
    fresh.close()


def test_an_interrupted_write_is_one_problem_not_one_per_view(eng, monkeypatch):
    """A write killed after its commit point, while writing its views: completing it (the next write, or repair)
    regenerates every view, so check names the interrupted write and not each view it had not written yet."""
    real = views_module.atomic_write_many

    def killed(files, **kwargs):
        raise Killed

    monkeypatch.setattr(views_module, "atomic_write_many", killed)
    with pytest.raises(Killed):
        _capture(eng, 1, now=T0, category="lesson")
    monkeypatch.setattr(views_module, "atomic_write_many", real)
    assert not (eng.root / "index" / "lesson.md").exists()
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert len(rep.problems) == 1 and rep.problems[0].startswith("journal/intent.json: an interrupted write")
    fresh.repair(now=T0 + timedelta(hours=1))
    assert (eng.root / "index" / "lesson.md").is_file()
    rep = fresh.check()
    assert rep.ok, rep.problems
    fresh.close()


# ---------------------------------------------------------------------------------------------- log.md order


def test_check_names_the_first_log_row_out_of_order(eng):
    shas = [_capture(eng, n, now=T0 + timedelta(minutes=n)) for n in range(4)]
    assert eng.check().ok
    _swap_log_rows(eng, shas[1], shas[3])  # rows of one day's receipts: receipts/<day>.jsonl has their order
    log_before = (eng.root / "log.md").read_bytes()
    rep = eng.check()
    assert len(rep.problems) == 1, rep.problems
    line = rep.problems[0]
    assert line.startswith(f"log.md:{_log_line(eng, shas[3])}: ")  # the first row out of place
    assert shas[3][:12] in line and shas[1][:12] in line and "receipts/2026-11-20.jsonl" in line
    # the commit order undo and the reinforcement check read: never rewritten, left for a person
    r = eng.repair(now=T0 + timedelta(hours=1), actor="human:alice")
    assert r.details["remaining"] == [line]
    assert (eng.root / "log.md").read_bytes().startswith(log_before)
    _swap_log_rows(eng, shas[1], shas[3])  # put back by hand
    rep = eng.check()
    assert rep.ok, rep.problems


def test_check_names_rows_of_different_days_out_of_order(eng):
    """Receipts are filed by day, so only PATTERNS.jsonl (appended in the same commit) says in which order two
    days' rows were written."""
    shas = [_capture(eng, n, now=T0 + timedelta(days=n)) for n in range(3)]
    _swap_log_rows(eng, shas[0], shas[2])
    rep = eng.check()
    assert len(rep.problems) == 1, rep.problems
    assert rep.problems[0].startswith(f"log.md:{_log_line(eng, shas[2])}: ")
    assert shas[2][:12] in rep.problems[0] and "patterns/PATTERNS.jsonl" in rep.problems[0]


def test_no_false_alarm_on_a_log_the_engine_wrote(eng):
    """Rows out of time order are not rows out of commit order: `now` going backwards (within a day and across
    days), rows repair appended at the end, two compiles at one `now` (alike but for `details.repeat`)."""
    _capture(eng, 1, now=T0 + timedelta(hours=5))
    _capture(eng, 2, now=T0 + timedelta(hours=1))  # the same day, earlier
    _capture(eng, 3, now=T0 - timedelta(days=3))  # an earlier day, written later
    eng.compile(now=T0)
    eng.compile(now=T0)  # the same operation twice in one second: two receipts, each with its own hash
    late = _capture(eng, 4, now=T0 + timedelta(days=1))
    _capture(eng, 5, now=T0 - timedelta(days=1))
    # a lost log row and a lost PATTERNS event, appended at the end by repair
    log = eng.root / "log.md"
    log.write_text("".join(x + "\n" for x in log.read_text().splitlines() if late not in x))
    patterns = eng.root / "patterns" / "PATTERNS.jsonl"
    kept = patterns.read_text().splitlines()
    lost = kept.pop(2)
    patterns.write_text("".join(x + "\n" for x in kept))
    assert not eng.check().ok
    r = eng.repair(now=T0 - timedelta(days=7))
    assert r.details["log_rows_added"] == [late]
    assert r.details["patterns_added"] == [json.loads(lost)["payload"]["receipt_sha256"]]
    _capture(eng, 6, now=T0)
    rep = eng.check()
    assert rep.ok, rep.problems
    times = [row.split("|")[1].strip() for row in _log_rows(eng)]
    assert times != sorted(times)  # the log is out of time order, and that is fine


def test_patterns_reordered_within_a_day_is_not_blamed_on_log_md(eng):
    """PATTERNS.jsonl orders rows of different days only while it agrees with the receipts: events moved by hand
    within a day make it no witness, and a log.md written by the engine is not reported."""
    for n in range(3):
        _capture(eng, n, now=T0 + timedelta(minutes=n))
    _capture(eng, 3, now=T0 + timedelta(days=1))
    patterns = eng.root / "patterns" / "PATTERNS.jsonl"
    lines = patterns.read_text().splitlines(keepends=True)
    lines[0], lines[2] = lines[2], lines[0]
    patterns.write_text("".join(lines))
    rep = eng.check()
    assert not any(p.startswith("log.md") for p in rep.problems), rep.problems


def test_a_capture_the_busy_index_missed_leaves_no_link_to_nowhere(eng, monkeypatch):
    """A capture whose index update found the index busy stands, and its record reaches the index at the next
    sync; index.md lists its category from then on, so the next write also writes that category's page, and
    check is clean all along."""

    def busy(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(eng.index, "put_many", busy)
    _capture(eng, 1, now=T0, category="fact")
    monkeypatch.undo()
    fresh = Engine.open(eng.root)
    rep = fresh.check()
    assert rep.ok, rep.problems
    _capture(fresh, 2, now=T0 + timedelta(minutes=1), category="risk")
    assert "- [fact](index/fact.md) — 1" in (eng.root / "index.md").read_text()
    assert (eng.root / "index" / "fact.md").is_file()
    rep = fresh.check()
    assert rep.ok, rep.problems
    fresh.close()

"""The header's tier candidate count is kept current by writes and always equals the plan's (issue 10)."""

from __future__ import annotations

from datetime import timedelta

from memkeeper.core import Engine
from memkeeper.core.demo import build_demo
from tests.conftest import T0


def _plan_count(eng: Engine, now) -> int:
    plan = eng.tier_queue.plan_tiers(now=now)
    return len(plan.automatic) + len(plan.ambiguous)


def test_the_count_equals_the_plan_through_writes(tmp_path):
    build_demo(tmp_path / "w", now=T0, records=120)
    eng = Engine.open(tmp_path / "w")
    nows = [T0 + timedelta(days=d) for d in (-400, 0, 90, 181, 365, 900)]
    for now in nows:
        assert eng.tier_queue.candidate_count(now=now) == _plan_count(eng, now)
    # Writes move only what they wrote: a capture, a retrieve that records access, a tier change, a decision.
    eng.capture("The vendor contract renews on the first of March every year", now=T0 + timedelta(days=1))
    hits = eng.retrieve("deploy", now=T0 + timedelta(days=200), record_access=True).details["results"]
    assert hits
    for now in nows:
        assert eng.tier_queue.candidate_count(now=now) == _plan_count(eng, now)
    later = T0 + timedelta(days=400)
    eng.commit_tiers(now=later, actor="human:alice")
    pending = eng.pending_verifications(limit=3)
    for e in pending:
        eng.confirm(e.memory_id, now=later, actor="human:alice")
    for now in [*nows, later]:
        assert eng.tier_queue.candidate_count(now=now) == _plan_count(eng, now)
        assert eng.counts(now)["tier_candidates"] == _plan_count(eng, now)
    eng.close()


def test_a_write_by_another_process_is_counted(tmp_path):
    build_demo(tmp_path / "w", now=T0, records=60)
    eng = Engine.open(tmp_path / "w")
    now = T0 + timedelta(days=400)
    assert eng.tier_queue.candidate_count(now=now) == _plan_count(eng, now)
    other = Engine.open(tmp_path / "w")
    other.capture("The quarterly report goes to the board in the second week", now=T0 - timedelta(days=300))
    other.commit_tiers(now=now, actor="human:alice")
    other.close()  # no sync: the count notices log.md moved
    assert eng.tier_queue.candidate_count(now=now) == _plan_count(eng, now)
    eng.close()

"""Decisions taken in one second: each has a receipt of its own, and the latest can be undone.

The doors give time to the second, so deny, undo, deny again (the desk's `d u d`) is three decisions at one `now`.
The second deny's receipt was the first one's, byte for byte: undo, which knows a decision by its hash, took it for
the undone first and refused it (`already_undone`), and the record stayed denied; `check` said ok.
"""

from __future__ import annotations

import json
import shutil

from memkeeper.core import Engine
from memkeeper.core.receipts import canonical_json, make_receipt
from tests.conftest import T0
from tests.core.test_conflict_queue import make_conflict
from tests.core.test_quiz_queue import seed
from tests.core.test_verification import capture

HUMAN = "human:alice"


def trail(eng) -> list[dict]:
    """Every receipt line of the wiki, in the order written."""
    return [
        json.loads(line) for f in sorted((eng.root / "receipts").glob("*.jsonl")) for line in f.read_text().splitlines()
    ]


def assert_each_its_own(eng) -> None:
    shas = [r["receipt_sha256"] for r in trail(eng)]
    assert len(shas) == len(set(shas)), "two receipts of the trail share a hash"
    rows = [line for line in (eng.root / "log.md").read_text().splitlines() if line.startswith("| 20")]
    assert len(rows) == len(shas)
    rep = eng.check()
    assert rep.ok, rep.problems


def test_deny_undo_deny_at_one_now_the_last_deny_undoes(eng):
    a = capture(eng)
    first = eng.deny(a, now=T0, actor=HUMAN)
    assert "repeat" not in first.details  # a receipt alone in its second is as it always was
    decisions = [first]
    for _ in range(2):  # deny, undo, deny, undo, deny: the third deny is the same decision a third time
        assert eng.undo(decisions[-1].receipt_sha256, now=T0, actor=HUMAN).status == "undone"
        again = eng.deny(a, now=T0, actor=HUMAN)
        assert again.status == "denied"
        decisions.append(again)
    assert len({d.receipt_sha256 for d in decisions}) == 3
    u = eng.undo(decisions[-1].receipt_sha256, now=T0, actor=HUMAN)
    assert u.status == "undone", u.details
    assert eng.load(a).status.value == "active"
    assert not eng.is_suppressed(first.details["suppression_key"])
    assert_each_its_own(eng)


def test_confirm_undo_confirm_at_one_now_the_last_confirm_undoes(eng):
    a = capture(eng)
    first = eng.confirm(a, now=T0, actor=HUMAN)
    eng.undo(first.receipt_sha256, now=T0, actor=HUMAN)
    second = eng.confirm(a, now=T0, actor=HUMAN)
    assert second.receipt_sha256 != first.receipt_sha256
    u = eng.undo(second.receipt_sha256, now=T0, actor=HUMAN)
    assert u.status == "undone", u.details
    e = eng.load(a)
    assert e.verified is None and e.source_type.value == "agent_inferred"
    assert a in [p.memory_id for p in eng.pending_verifications()]
    assert_each_its_own(eng)


def test_quiz_grade_undo_grade_at_one_now_the_last_grade_undoes(eng):
    ids = seed(eng, 2)
    page = eng.page_of(ids[0])
    first = eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    eng.undo(first.receipt_sha256, now=T0, actor=HUMAN)
    unanswered = eng.read_ledger("alice").item(page)
    second = eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    assert second.receipt_sha256 != first.receipt_sha256
    assert eng.read_ledger("alice").item(page).asked == 1  # the one answer that stands
    u = eng.undo(second.receipt_sha256, now=T0, actor=HUMAN)
    assert u.status == "undone", u.details
    assert eng.read_ledger("alice").item(page) == unanswered
    # what the desk asks after a return to the quiz pane: the standing answer was never taken for undone
    undone, _ = eng.undos_since(None)
    assert set(undone) == {first.receipt_sha256, second.receipt_sha256}
    assert_each_its_own(eng)


def test_deny_undeny_confirm_deny_at_one_now_the_last_deny_undoes(eng):
    """The last deny had the first deny's hash, so it took the first deny's place in log.md: its undo was refused
    as superseded by the undeny, which came before it."""
    a = capture(eng)
    first = eng.deny(a, now=T0, actor=HUMAN)
    eng.undeny(a, now=T0, actor=HUMAN)
    assert eng.confirm(a, now=T0, actor=HUMAN).status == "confirmed"
    last = eng.deny(a, now=T0, actor=HUMAN)
    assert last.receipt_sha256 != first.receipt_sha256
    u = eng.undo(last.receipt_sha256, now=T0, actor=HUMAN)
    assert u.status == "undone", u.details
    e = eng.load(a)
    assert (e.status.value, e.source_type.value) == ("active", "user_confirmed")
    assert_each_its_own(eng)


def test_resolve_undo_resolve_the_same_way_at_one_now_the_last_resolution_undoes(eng):
    mid, cid = make_conflict(eng)
    first = eng.resolve_conflict(cid, "existing", now=T0, actor=HUMAN)
    eng.undo(first.receipt_sha256, now=T0, actor=HUMAN)
    second = eng.resolve_conflict(cid, "existing", now=T0, actor=HUMAN)
    assert second.status == "resolved" and second.receipt_sha256 != first.receipt_sha256
    record = (eng.root / "conflicts" / f"{cid}.md").read_text()
    assert second.receipt_sha256 in record and second.receipt_sha256 in (eng.root / "DECISIONS.md").read_text()
    u = eng.undo(second.receipt_sha256, now=T0, actor=HUMAN)
    assert u.status == "undone", u.details
    assert [c.conflict_id for c in eng.conflicts(now=T0)] == [cid]
    assert eng.load(mid).status.value == "active"
    assert_each_its_own(eng)


def test_a_resolution_names_in_its_pages_the_hash_it_is_recorded_under(tmp_path):
    """A resolution writes its receipt's hash into the conflict record and DECISIONS.md before it records it. Met
    by a receipt alike in the trail (here the same resolution, taken in a copy of the wiki and put in this one's
    receipts), it is recorded under a hash of its own: the pages name that one, which undo and the trail know."""
    one = Engine.init(tmp_path / "one", now=T0)
    _, cid = make_conflict(one)
    one.close()
    shutil.copytree(tmp_path / "one", tmp_path / "two")
    one, two = Engine.open(tmp_path / "one"), Engine.open(tmp_path / "two")
    try:
        taken = one.resolve_conflict(cid, "existing", now=T0, actor=HUMAN)
        day = two.root / "receipts" / f"{taken.at[:10]}.jsonl"
        with day.open("a", encoding="utf-8") as fh:
            fh.write((one.root / "receipts" / day.name).read_text().splitlines()[-1] + "\n")
        r = two.resolve_conflict(cid, "existing", now=T0, actor=HUMAN)
        assert r.status == "resolved" and r.receipt_sha256 != taken.receipt_sha256
        assert r.receipt_sha256 in [d["receipt_sha256"] for d in trail(two)]
        assert f"receipt: {r.receipt_sha256}" in (two.root / "conflicts" / f"{cid}.md").read_text()
        assert r.receipt_sha256 in (two.root / "DECISIONS.md").read_text()
    finally:
        one.close()
        two.close()


def test_check_reports_one_receipt_on_two_lines(eng):
    """A wiki written before each receipt had a hash of its own holds such pairs (two lines, two log rows, two
    events): check says so, naming the hash and the lines, and repair leaves the append-only trail alone."""
    a = capture(eng)
    eng.deny(a, now=T0, actor=HUMAN)
    day = eng.root / "receipts" / f"{T0.date().isoformat()}.jsonl"
    lines = day.read_text().splitlines()
    sha = json.loads(lines[-1])["receipt_sha256"]
    day.write_text("\n".join([*lines, lines[-1]]) + "\n")
    log = eng.root / "log.md"
    row = next(x for x in log.read_text().splitlines() if sha in x)
    log.write_text(log.read_text() + row + "\n")
    patterns = eng.root / "patterns" / "PATTERNS.jsonl"
    event = next(x for x in patterns.read_text().splitlines() if sha in x)
    patterns.write_text(patterns.read_text() + event + "\n")
    rep = eng.check()
    assert len(rep.problems) == 1, rep.problems
    where = f"receipts/{day.name}:{len(lines)}, receipts/{day.name}:{len(lines) + 1}"
    assert sha[:12] in rep.problems[0] and where in rep.problems[0]
    eng.repair(now=T0, actor=HUMAN)
    assert [json.loads(x)["receipt_sha256"] for x in day.read_text().splitlines()].count(sha) == 2  # left as it was
    assert any(sha[:12] in p for p in eng.check().problems)


def test_a_decision_taken_again_after_a_busy_second_still_gets_a_hash_of_its_own(eng):
    """The trail is read backwards from the end of the day's file while its receipts are of this second: the first
    deny lies more than one read (64 KiB) back, behind other receipts of the same second."""
    a = capture(eng)
    first = eng.deny(a, now=T0, actor=HUMAN)
    eng.undo(first.receipt_sha256, now=T0, actor=HUMAN)
    day = eng.root / "receipts" / f"{T0.date().isoformat()}.jsonl"
    others = [make_receipt("retrieve", "ok", T0, "agent:bot", {"n": n, "pad": "x" * 500}) for n in range(300)]
    with day.open("a", encoding="utf-8") as fh:
        fh.writelines(canonical_json(r.to_dict()) + "\n" for r in others)
    again = eng.deny(a, now=T0, actor=HUMAN)
    assert again.receipt_sha256 != first.receipt_sha256
    assert eng.undo(again.receipt_sha256, now=T0, actor=HUMAN).status == "undone"
    assert eng.load(a).status.value == "active"

"""hot.md's quiz count after each capture is taken from the index's copy of each ledger (`QuizQueue._mirror`), not by
parsing every ledger. These tests hold that count to the one the ledger file itself gives (`quiz.due_count` over
the file and the live pages) through answers, burials, undos, records leaving rotation and hand edits of the file."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from memkeeper.core import quiz
from memkeeper.core.models import Tier
from tests.conftest import T0

HUMAN = "human:alice"
NAMES = ["Zephyr", "Quokka", "Marlin", "Tundra", "Falcon", "Orchid", "Basalt", "Cobalt", "Juniper", "Nimbus"]
CATEGORIES = ["fact", "decision", "direction", "milestone", "preference", "draft"]
LEDGER = "quiz/quiz-ledger.alice.md"


def from_file(eng, now) -> int:
    """The count as the ledger file gives it (what the count was before it had a copy to read)."""
    queue = eng.quiz_queue
    ledger = queue.read_ledger("alice", strict=False)
    today = quiz.quiz_day(now, quiz.ledger_zone(ledger)[1])  # the person's own day (`quiz zone`)
    return quiz.due_count(ledger, queue._picks(ledger, now, today), today)


def capture(eng, rnd, i, now, category=None):
    """A record about its own relay; with no `category` given, a random one, and now and then one that expires."""
    name = f"{rnd.choice(NAMES)}{i}"
    expires = now + timedelta(hours=rnd.choice([2, 30, 80])) if category is None and rnd.random() < 0.2 else None
    r = eng.capture(
        f"The {name} relay listens on port {2000 + i}.",
        now=now,
        actor=HUMAN,
        title=f"{name} relay port",
        category=category or rnd.choice(CATEGORIES),
        source_type="user_stated",
        expires_at=expires,
    )
    return r.details.get("memory_id")


HALF = timedelta(milliseconds=500)


def stated(eng, text: str, title: str, **kwargs) -> str:
    """A statement the person made at T0; its memory id."""
    r = eng.capture(text, now=T0, actor=HUMAN, title=title, source_type="user_stated", **kwargs)
    assert r.status == "captured", r.details
    return r.details["memory_id"]


@pytest.mark.parametrize("seed", range(4))
def test_the_count_is_the_ledger_files_through_a_month_of_use(eng, seed):
    rnd = random.Random(seed)
    now = T0
    ids = [m for i in range(14) if (m := capture(eng, rnd, i, now))]
    receipts = []
    for step in range(70):
        op = rnd.random()
        cards = eng.quiz_session("alice", now=now)
        if op < 0.45 and cards:
            r = eng.quiz_record(
                cards[0].memory_id, rnd.choice(["again", "hard", "good", "easy", "skip"]), now=now, actor=HUMAN
            )
            receipts.append(r.receipt_sha256)
        elif op < 0.52 and cards:
            receipts.append(eng.quiz_bury(rnd.choice(cards).memory_id, now=now, actor=HUMAN).receipt_sha256)
        elif op < 0.57 and receipts:
            eng.undo(receipts.pop(), now=now, actor=HUMAN)
        elif op < 0.62:
            e = eng.load(rnd.choice(ids))
            e.tier = Tier.cold if e.tier is not Tier.cold else Tier.warm
            with eng.writing():
                eng.save(e)
        elif op < 0.66:
            eng.deny(rnd.choice(ids), now=now, actor=HUMAN, reason="wrong")
        elif op < 0.70:
            if m := capture(eng, rnd, 100 + step, now):
                ids.append(m)
        elif op < 0.74 and (eng.root / LEDGER).exists():
            # A hand edit: a row dropped, or made due today (the file changes under the copy).
            path = eng.root / LEDGER
            lines = path.read_text().splitlines(keepends=True)
            rows = [n for n, line in enumerate(lines) if "<!-- quiz:" in line]
            if rows:
                n = rnd.choice(rows)
                if rnd.random() < 0.5:
                    del lines[n]
                else:
                    lines[n] = lines[n].replace('"due":"', f'"due":"{now.date().isoformat()}","x":"')
                path.write_text("".join(lines))
        elif op < 0.80 and (eng.root / LEDGER).exists() and rnd.random() < 0.3:
            eng.set_scheduler("alice", rnd.choice(["fsrs", "leitner"]), now=now, actor=HUMAN)
        elif op < 0.84:  # the day turns at another hour: the copy's zone follows the file's
            zone = rnd.choice(["Asia/Tokyo", "America/Los_Angeles", "Pacific/Kiritimati", "UTC"])
            receipts.append(eng.set_quiz_zone("alice", zone, now=now, actor=HUMAN).receipt_sha256)
        else:
            now += timedelta(hours=rnd.choice([1, 7, 20, 26, 49, 75]))
        assert eng.quiz_due_count("alice", now=now) == from_file(eng, now), f"step {step}"
        assert eng.quiz_due_count("alice", now=now + timedelta(days=3)) == from_file(eng, now + timedelta(days=3))


def test_a_capture_does_not_read_the_ledger_again(eng, monkeypatch):
    """The point of the copy: after the first count, a capture's hot.md takes the count without parsing the ledger,
    until the file changes."""
    rnd = random.Random(7)
    ids = [capture(eng, rnd, i, T0, category="fact") for i in range(6)]
    for m in ids:
        eng.quiz_record(m, "good", now=T0, actor=HUMAN)
    parsed = []
    real = quiz.parse_ledger
    monkeypatch.setattr(quiz, "parse_ledger", lambda *a, **k: parsed.append(1) or real(*a, **k))
    capture(eng, rnd, 50, T0 + timedelta(minutes=1))
    assert parsed == []
    hot = (eng.root / "hot.md").read_text()
    assert f"- Quiz items due today: **{from_file(eng, T0 + timedelta(minutes=1))}**" in hot
    # The file edited by hand: read once, then kept again.
    path = eng.root / LEDGER
    path.write_text(path.read_text().replace(f'"due":"{(T0 + timedelta(days=3)).date()}"', f'"due":"{T0.date()}"', 1))
    day2 = T0 + timedelta(days=1)
    assert eng.quiz_due_count("alice", now=day2) == from_file(eng, day2)
    parsed.clear()
    capture(eng, rnd, 51, day2)
    capture(eng, rnd, 52, day2)
    assert parsed == []
    # An answer reads the ledger once, to rewrite it; its hot.md count reads the copy made from what it wrote.
    eng.quiz_record(ids[1], "again", now=day2, actor=HUMAN)
    assert parsed == [1]
    assert eng.quiz_due_count("alice", now=day2) == from_file(eng, day2)


def test_a_copy_from_a_ledger_that_is_gone_or_unreadable_is_not_trusted(eng):
    rnd = random.Random(3)
    ids = [capture(eng, rnd, i, T0, category="fact") for i in range(5)]
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    later = T0 + timedelta(days=4)
    eng.quiz_record(ids[1], "good", now=later, actor=HUMAN)
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later) == 4  # ids[0] due, 3 new
    path = eng.root / LEDGER
    path.unlink()  # deleted: every page is new again
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later) == 5
    path.write_bytes(b"\xff\xfe not a ledger")  # unreadable: read as empty, and no copy is made of it
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later)


def test_an_answer_that_fails_before_its_commit_leaves_the_count_as_it_was(eng, monkeypatch):
    rnd = random.Random(5)
    ids = [capture(eng, rnd, i, T0, category="fact") for i in range(4)]
    eng.quiz_record(ids[0], "good", now=T0, actor=HUMAN)
    day = T0 + timedelta(days=3)
    before = eng.quiz_due_count("alice", now=day)
    text = (eng.root / LEDGER).read_text()

    def fail(*a, **k):
        raise OSError("disk went away")

    monkeypatch.setattr(eng.store, "record", fail)
    with pytest.raises(OSError):
        eng.quiz_record(ids[0], "good", now=day, actor=HUMAN)
    monkeypatch.undo()
    assert (eng.root / LEDGER).read_text() == text
    assert eng.quiz_due_count("alice", now=day) == from_file(eng, day) == before


def test_records_expiring_within_the_current_second_are_counted_until_they_expire(eng):
    """Index stamps are text, and "…00.5Z" sorts before "…00Z": records half a second from expiring are counted,
    as the session still asks them, and not after."""
    later = T0 + timedelta(days=3)
    expiring = [
        stated(eng, f"The {name} relay is in maintenance this week.", f"{name} maintenance", expires_at=later + HALF)
        for name in ("Quokka", "Marlin")
    ]
    eng.quiz_record(expiring[0], "good", now=T0, actor=HUMAN)  # due again at `later`; the other one is new
    assert later.microsecond == 0
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later) == 2
    gone = later + timedelta(milliseconds=600)
    assert eng.quiz_due_count("alice", now=gone) == from_file(eng, gone) == 0


def test_an_answer_is_not_hidden_by_a_second_row_for_its_page(eng):
    """Two rows for one page (a merge of two ledgers, a hand edit): the first is read, the second kept as written.
    An answer re-sorted the rows and put the kept line back at its old place, above the page's updated row: the
    file then read the page as the stale duplicate (the answer lost, the card offered again), while the count's
    copy, made from what was written, held the answer."""
    rnd = random.Random(9)
    ids = [capture(eng, rnd, i, T0, category="fact") for i in range(4)]
    for m in ids[:3]:
        eng.quiz_record(m, "good", now=T0, actor=HUMAN)  # due in three days
    path = eng.root / LEDGER
    lines = path.read_text().split("\n")
    n = next(i for i, line in enumerate(lines) if "<!-- quiz:" in line)
    page = lines[n].split(" — ")[0][2:]
    lines.insert(n + 1, lines[n].replace('"lastResult":"correct"', '"lastResult":"wrong"'))  # a second row
    path.write_text("\n".join(lines))
    later = T0 + timedelta(days=3)
    answered = eng.quiz_record(eng.memory_id_at(page), "good", now=later, actor=HUMAN)
    row = eng.quiz_queue.read_ledger("alice").item(page)
    assert (row.due.isoformat(), row.asked) == (answered.details["due"], 2)
    assert page not in [c.page for c in eng.quiz_session("alice", now=later)]
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later)
    kept = [line for line in path.read_text().split("\n") if page in line and "<!-- quiz:" in line]
    assert len(kept) == 2 and '"lastResult":"wrong"' in kept[1]  # the duplicate is kept, after the page's row


def test_records_ending_this_second_do_not_take_the_places_of_live_ones(eng):
    """25 records of the heaviest category expiring at 10:00:00 (as `--expires` gives many records one instant) and
    25 that do not: at 10:00:00 the session was empty and the count from the file 0, because the query for new
    pages took its rows up to its limit and the expired ones were left out after it."""
    ends = T0 + timedelta(days=1)
    for i in range(25):
        stated(
            eng,
            f"The Zephyr{i} relay is paused until tomorrow.",
            f"Zephyr{i} pause",
            category="direction",
            expires_at=ends,
        )
        stated(eng, f"The Quokka{i} relay listens on port {3000 + i}.", f"Quokka{i} port")
    for now in (ends, ends + timedelta(milliseconds=400)):
        cards = eng.quiz_session("alice", now=now)
        assert len(cards) == 7 and all("Quokka" in c.title for c in cards)
        assert eng.quiz_due_count("alice", now=now) == from_file(eng, now) == 20


def test_a_copy_made_while_the_ledger_was_recent_is_checked_by_its_text(eng, monkeypatch):
    """On a filesystem with coarse times (FAT's 2 s, a second on ext3 or a network share, a clock tick on older
    kernels) a rewrite of the same size within one tick keeps the whole stamp: the count kept the copy of the old
    text for good, and `check --repair` did not mend it. A copy made while the file was recent compares the file's
    text with its digest until the file is old enough for its stamp to vouch for it."""
    rnd = random.Random(11)
    ids = [capture(eng, rnd, i, T0, category="fact") for i in range(6)]
    for m in ids[:4]:
        eng.quiz_record(m, "good", now=T0, actor=HUMAN)  # due in three days
    queue = eng.quiz_queue
    real = queue._ledger_stamp
    changed: list[int] = []

    def coarse(pid):  # every field of the stamp kept across a rewrite, as such a filesystem may
        stat = real(pid)
        return stat if stat is None or stat[0] == "absent" else ("coarse", changed[-1] if changed else stat[1])

    monkeypatch.setattr(queue, "_ledger_stamp", coarse)
    later = T0 + timedelta(days=1)
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later)  # the copy, made now: recent
    path = eng.root / LEDGER
    text = path.read_text()
    due = f'"due":"{(T0 + timedelta(days=3)).date()}"'
    path.write_text(text.replace(due, f'"due":"{later.date()}"', 2))  # two cards due today, same size
    assert len(path.read_text()) == len(text)
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later) == 2 + 2  # two due, two new
    # Old enough: the stamp alone vouches for the copy again, and the file is not read.
    changed.append(0)
    eng.quiz_due_count("alice", now=later)
    read = []
    monkeypatch.setattr(queue, "_text", lambda pid: read.append(pid))
    assert eng.quiz_due_count("alice", now=later) == 4 and read == []


def test_check_repair_makes_every_copy_again_from_its_file(eng):
    """Nothing checks a copy against its file: a copy changed by hand (or by a filesystem the stamp could not
    follow) was trusted for good, and `check --repair` said there was nothing to repair."""
    rnd = random.Random(13)
    ids = [capture(eng, rnd, i, T0, category="fact") for i in range(5)]
    for m in ids[:3]:
        eng.quiz_record(m, "good", now=T0, actor=HUMAN)
    later = T0 + timedelta(days=3)
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later)
    with eng.store.index._write() as db:  # the copy damaged, its stamp kept
        db.execute("UPDATE quiz_rows SET due='2099-01-01' WHERE person='alice'")
    assert eng.quiz_due_count("alice", now=later) != from_file(eng, later)
    eng.repair(now=later, actor=HUMAN)
    assert eng.quiz_due_count("alice", now=later) == from_file(eng, later)

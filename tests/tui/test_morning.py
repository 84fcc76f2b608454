"""The morning session, driven through the desk as a person would (issue 11, point 7).

On the full demo wiki (the one `make demo` opens): today's quiz, every open conflict, every pending verification and
one tier review, counting each key pressed. Then every decision is undone from the desk, and the wiki's queues are
back where the morning started.
"""

from __future__ import annotations

from itertools import cycle
from pathlib import Path

import pytest
from textual.pilot import Pilot

from memkeeper.core.demo import build_demo
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.quiz import QuizScreen
from memkeeper.tui.screens.tiers import TiersScreen
from memkeeper.tui.screens.verify import VerifyScreen, source_of

from .conftest import settle, wait_for
from .snapshot_app import FIXED_NOW, PERSON, build_app, copy_wiki

pytestmark = pytest.mark.anyio

MAX_KEYS = 45
SIZE = (120, 34)


@pytest.fixture(scope="module")
def full_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("morning-demo") / "wiki"
    build_demo(root, now=FIXED_NOW).close()  # the demo's own size and seed, as `make demo` builds it
    return root


class Keys:
    """Presses keys and counts them; each key is followed by the desk settling (no key is pressed blind)."""

    def __init__(self, pilot: Pilot) -> None:
        self.pilot = pilot
        self.count = 0
        self.log: list[str] = []

    async def press(self, *keys: str) -> None:
        for key in keys:
            self.count += 1
            self.log.append(key)
            await self.pilot.press(key)
            await settle(self.pilot)


def queues(engine) -> dict[str, object]:
    return {
        "conflicts": sorted((c.conflict_id, c.status) for c in engine.conflicts(include_resolved=True)),
        "pending": sorted(e.memory_id for e in engine.pending_verifications()),
        "ledger": engine.read_ledger(PERSON).items,
        "cold": sorted(e.memory_id for e in engine.cold_records()),
    }


@pytest.mark.long
async def test_a_whole_morning_takes_at_most_45_keys_and_every_decision_undoes(tmp_path, full_demo):
    app = build_app(copy_wiki(full_demo, tmp_path / "wiki"))
    engine = app.engine
    start = queues(engine)
    sources = {source_of(e) for e in engine.pending_verifications()}
    assert start["conflicts"] and start["pending"]
    assert 2 <= len(sources) <= 6, sources  # a realistic handful of sources, not one per record

    async with app.run_test(size=SIZE) as pilot:
        keys = Keys(pilot)
        await settle(pilot)

        # The quiz: reveal, grade Good, for every card of today's session.
        await keys.press("Q")
        quiz = app.screen
        assert isinstance(quiz, QuizScreen) and quiz.cards
        while not quiz.finished:
            await keys.press("space", "3")
        assert len(quiz.grades) == len(quiz.cards)

        # Every open conflict: one key each (keep, take incoming, both valid, in turn).
        await keys.press("C")
        assert isinstance(app.screen, ConflictsScreen)
        choices = cycle("kib")
        for _ in range(len(start["conflicts"])):
            if not engine.conflicts():
                break
            await keys.press(next(choices))
        assert engine.conflicts() == []

        # Every pending verification: confirm each source's records at once, after the dialog's count.
        await keys.press("V")
        assert isinstance(app.screen, VerifyScreen)
        for _ in range(len(sources)):
            if not engine.pending_verifications():
                break
            await keys.press("f")
            await wait_for(pilot, lambda: app.screen.__class__.__name__ == "ConfirmModal", what="the count dialog")
            await keys.press("y")
        assert engine.pending_verifications() == []

        # One tier review: commit the plan (asks first), then apply the review it wrote (asks first).
        await keys.press("T")
        assert isinstance(app.screen, TiersScreen)
        await keys.press("c", "y")
        assert len(engine.pending_reviews()) == 1
        await keys.press("a", "y")
        assert engine.pending_reviews() == []
        moved = queues(engine)["cold"]

        assert keys.count <= MAX_KEYS, f"{keys.count} keys: {' '.join(keys.log)}"
        assert moved != start["cold"], "the tier review moved nothing"

        # Every decision undoes from the desk: `u` in each pane until its undo stack is empty, newest first.
        for key, pane_id in (("T", "tiers"), ("V", "verify"), ("C", "conflicts"), ("Q", "quiz")):
            await pilot.press(key)
            await settle(pilot)
            stack = app.undo_stack(pane_id)
            assert stack, f"no decision to undo in {pane_id}"
            decisions = list(stack)
            for _ in decisions:
                await pilot.press("u")
                await settle(pilot)
            assert app.undo_stack(pane_id) == []
            for d in decisions:
                undone = engine.undone_by(d.receipt_sha256)
                assert undone, f"{d.action} was not undone"
                assert engine.find_receipt(undone)["status"] == "undone"

    assert queues(engine) == start

"""How every pane decides: the engine call runs in a thread worker, its receipt comes back as a message, engine errors
are shown as one line with the desk left open, and one undo method serves every queue pane."""

from __future__ import annotations

import os
import threading
from functools import partial

import pytest

from memkeeper.core import BadInput
from memkeeper.tui.screens.base import PaneScreen, one_by_one
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.quiz import QuizScreen
from memkeeper.tui.screens.tiers import TiersScreen
from memkeeper.tui.screens.verify import VerifyScreen
from memkeeper.tui.widgets.status_line import StatusLine

from .conftest import decided, open_pane, settle, wait_for
from .snapshot_app import PERSON

pytestmark = pytest.mark.anyio

SIZE = (120, 34)


def messages(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_a_decision_runs_off_the_ui_thread(demo, monkeypatch):
    app, engine = demo, demo.engine
    ui_thread = threading.current_thread()  # the test drives the app's event loop on this thread
    seen: list[threading.Thread] = []
    original = engine.resolve_conflict

    def resolve(*args, **kwargs):
        seen.append(threading.current_thread())
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, "resolve_conflict", resolve)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "C", ConflictsScreen)
        target = pane.table.current_key
        await pilot.press("k")
        await decided(pilot)
        assert len(seen) == 1 and seen[0] is not ui_thread and seen[0] is not threading.main_thread()
        assert engine.load_conflict(target).status == "resolved"
        assert app.undo_stack("conflicts")[-1].details["conflict_id"] == target


async def test_an_engine_error_in_a_decision_is_one_line_and_the_desk_stays_open(demo, monkeypatch):
    app, engine = demo, demo.engine

    def refuse(*args, **kwargs):
        raise BadInput("entries/x.md: malformed YAML frontmatter\n  at line 3")

    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        target = pane.table.current_key
        original = engine.confirm
        monkeypatch.setattr(engine, "confirm", refuse)
        await pilot.press("c")
        await decided(pilot)
        one_line = "entries/x.md: malformed YAML frontmatter · at line 3"
        await wait_for(pilot, lambda: one_line in messages(app), what="the error notification")
        assert "✗ " + one_line in str(pane.query_one(StatusLine).render())
        assert app.is_running and isinstance(app.screen, VerifyScreen)
        assert not app.undo_stack("verify") and engine.load(target).verified is None
        # The desk is not stuck: the next decision goes through.
        monkeypatch.setattr(engine, "confirm", original)
        await pilot.press("c")
        await decided(pilot)
        assert app.undo_stack("verify")[-1].status == "confirmed"


async def test_a_decided_item_leaves_the_list_at_once_and_the_next_key_decides_the_next(demo, monkeypatch):
    """The next conflict is on screen before the engine has written the first decision; a key pressed then decides
    that one (its decision waits its turn), while undo waits for every receipt to land."""
    app, engine = demo, demo.engine
    release = threading.Event()
    calls: list[str] = []
    original = engine.resolve_conflict

    def slow(conflict_id, *args, **kwargs):
        calls.append(conflict_id)
        assert release.wait(10)
        return original(conflict_id, *args, **kwargs)

    monkeypatch.setattr(engine, "resolve_conflict", slow)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "C", ConflictsScreen)
        first = pane.current.conflict_id
        await pilot.press("k")
        await wait_for(pilot, lambda: calls, what="the first call")
        assert pane.deciding
        await pilot.pause()
        second = pane.current.conflict_id
        assert second != first and first not in pane.table.rows  # painted before the write landed
        await pilot.press("k", "u")  # k decides the conflict now shown; u rings: a receipt is still on its way
        release.set()
        await decided(pilot)
        assert calls == [first, second]
        assert [r.details["conflict_id"] for r in app.undo_stack("conflicts")] == [first, second]
        assert engine.load_conflict(first).status == "resolved" and engine.load_conflict(second).status == "resolved"
        assert first not in pane.table.rows and second not in pane.table.rows


async def test_a_batch_that_fails_part_way_finishes_once_and_the_next_decision_keeps_its_turn(demo):
    """A batch reports twice when it fails part way (the receipts it wrote, then its error): the decision queued
    behind it must stay withheld and in flight until its own receipt lands."""
    app, engine = demo, demo.engine
    release = threading.Event()
    original = engine.resolve_conflict

    def held(conflict_id, *args, **kwargs):
        assert release.wait(10)
        return original(conflict_id, *args, **kwargs)

    def resolve_or_fail(conflict_id, **kwargs):
        if conflict_id == "no-such":
            raise BadInput("no conflict no-such")
        return original(conflict_id, "both", **kwargs)

    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_pane(pilot, "C", ConflictsScreen)
        ids = list(pane.table.rows)
        first, queued = ids[-1], ids[0]
        kwargs = dict(now=app.now(), actor=app.actor)
        pane.decide(partial(one_by_one, resolve_or_fail, [first, "no-such"], **kwargs), "batch")
        pane.decide(partial(held, queued, "keep", **kwargs), "queued", rows=(queued,))
        await wait_for(pilot, lambda: engine.load_conflict(first).status == "resolved", what="the batch's receipt")
        await pilot.pause(0.3)  # both reports of the failed batch are handled
        assert pane.deciding and queued in pane.table.withheld  # still its turn, still taken out of the list
        release.set()
        await decided(pilot)
        assert engine.load_conflict(queued).status == "resolved"
        assert not pane.deciding and pane.table.withheld == set() and queued not in pane.table.rows


async def test_a_confirm_of_a_read_only_page_says_so_in_one_line_and_writes_nothing(demo):
    """A page its owner made read-only is not replaced by a decision from the desk (it was, and its mode reset to
    0600): the notice names the page and how to allow writes, the item stays, and once writable it goes through."""
    app, engine = demo, demo.engine
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        target = pane.table.current_key
        page = engine.root / engine.page_of(target)
        os.chmod(page, 0o444)
        before = page.read_bytes()
        await pilot.press("c")
        await decided(pilot)
        line = f"{engine.rel(page)} is read-only, so nothing was written"
        await wait_for(pilot, lambda: any(m.startswith(line) for m in messages(app)), what="the read-only notice")
        assert app.is_running and isinstance(app.screen, VerifyScreen)
        assert page.read_bytes() == before and not app.undo_stack("verify")
        await settle(pilot)
        assert pane.table.current_key == target  # the item is back, to decide once the page is writable
        os.chmod(page, 0o644)
        await pilot.press("c")
        await decided(pilot)
        assert app.undo_stack("verify")[-1].details["memory_id"] == target


async def test_a_refused_decision_puts_its_item_back(demo, monkeypatch):
    app, engine = demo, demo.engine

    def refuse(*args, **kwargs):
        raise BadInput("C1 was resolved elsewhere")

    monkeypatch.setattr(engine, "resolve_conflict", refuse)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_pane(pilot, "C", ConflictsScreen)
        first = pane.current.conflict_id
        rows = list(pane.table.rows)
        await pilot.press("k")
        await settle(pilot)
        assert list(pane.table.rows) == rows and pane.table.withheld == set()
        assert engine.load_conflict(first).status == "open"
        assert not app.undo_stack("conflicts")


@pytest.mark.parametrize(
    "pane_cls, key, decide_keys",
    [
        (ConflictsScreen, "C", ("b",)),
        (VerifyScreen, "V", ("d",)),
        (QuizScreen, "Q", ("space", "3")),
        (TiersScreen, "T", ("c", "y")),  # commit asks first
    ],
)
async def test_one_undo_method_undoes_the_last_decision_in_every_pane(demo, pane_cls, key, decide_keys):
    assert "action_undo" not in vars(pane_cls) and pane_cls.action_undo is PaneScreen.action_undo
    app, engine = demo, demo.engine
    before = {
        "conflicts": lambda: [(c.conflict_id, c.status) for c in engine.conflicts(include_resolved=True)],
        "verify": lambda: [e.memory_id for e in engine.pending_verifications()],
        "quiz": lambda: engine.read_ledger(PERSON).items,
        "tiers": lambda: engine.plan_tiers(now=app.now()),
    }  # (undoing a commit leaves its review pending)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_pane(pilot, key, pane_cls)
        state = before[pane.PANE_ID]
        start = state()
        await pilot.press(*decide_keys)
        await settle(pilot)
        stack = app.undo_stack(pane.PANE_ID)
        # (seen empty once in a loaded run, not reproduced: say what the desk showed, should it happen again)
        assert stack, (
            f"no decision landed: screen {app.screen!r}, focus {app.focused!r}, "
            f"status {str(pane.query_one(StatusLine).render())!r}, "
            f"notifications {[n.message for n in app._notifications]!r}"
        )
        decision = stack[-1]
        assert state() != start
        await pilot.press("u")
        await settle(pilot)
        assert app.undo_stack(pane.PANE_ID) == []
        assert state() == start
        undo = engine.find_receipt(engine.undone_by(decision.receipt_sha256) or "")
        assert undo is not None and undo["status"] == "undone"
        assert str(pane.query_one(StatusLine).render()).startswith("✓ undone · undo ")


async def test_a_decision_the_disk_did_not_finish_says_so_and_stays_readable(demo, monkeypatch):
    """A decision whose write committed but whose log.md append the disk refused stands (the next write, or check
    --repair, finishes it). The command line notes it on stderr; the desk said nothing. It marks the status line and
    shows the engine's note in a toast that stays long enough to read."""
    from tests.core.test_faults import refuse_append

    app, engine = demo, demo.engine
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        pane = await open_pane(pilot, "C", ConflictsScreen)
        target = pane.table.current_key
        refuse_append(monkeypatch, "log.md")
        await pilot.press("k")
        await decided(pilot)
        monkeypatch.undo()
        assert engine.load_conflict(target).status == "resolved"  # it stands
        assert app.undo_stack("conflicts")[-1].details["conflict_id"] == target
        notes = [n for n in app._notifications if n.title == "Recorded, not finished on disk"]
        assert len(notes) == 1, [(n.title, n.message) for n in app._notifications]
        assert notes[0].message.startswith("log.md: No space left on device; the operation is recorded and stands")
        assert "memkeeper check --repair" in notes[0].message
        assert notes[0].severity == "warning" and notes[0].timeout >= 20
        assert "⚠ not finished on disk" in str(pane.query_one(StatusLine).render())
        # the next decision finishes it and says nothing more
        await pilot.press("k")
        await decided(pilot)
        assert len([n for n in app._notifications if n.title == "Recorded, not finished on disk"]) == 1
        assert "not finished" not in str(pane.query_one(StatusLine).render())
        assert engine.check().ok, engine.check().problems


async def test_a_decision_key_on_an_empty_queue_is_dimmed_and_pressed_says_why(empty):
    """At 80 columns, on an empty wiki: every decision key of Conflicts and Verify is dimmed in the footer, and
    pressed it says in one whole line that there is nothing to decide (it used to do nothing at all, which reads as
    a broken key). Nothing is written."""
    app = empty

    def line(pane: PaneScreen) -> str:
        text = str(pane.status.render())
        assert len(text) <= pane.status.content_size.width, f"cut: {text!r}"
        return text

    def dimmed(pane: PaneScreen, action: str) -> bool:
        return any(a.binding.action == action and not a.enabled for a in pane.active_bindings.values())

    async with app.run_test(size=(80, 24)) as pilot:
        pane = await open_pane(pilot, "C", ConflictsScreen)
        for key, action in [("k", "keep"), ("i", "take"), ("b", "both"), ("s", "snooze"), ("e", "edit")]:
            assert dimmed(pane, action), action
            pane.say("")
            await pilot.press(key)
            assert line(pane).startswith("No open conflict to decide"), (key, line(pane))
        await pilot.press("S")  # no dialog opens for a conflict that is not there
        assert isinstance(app.screen, ConflictsScreen) and line(pane).startswith("No open conflict")
        await pilot.press("a")
        await settle(pilot)
        await pilot.press("k")
        assert line(pane).startswith("No snoozed conflict")

        pane = await open_pane(pilot, "V", VerifyScreen)
        for key, action in [("c", "confirm"), ("d", "deny"), ("D", "deny_reason"), ("f", "confirm_source")]:
            assert dimmed(pane, action), action
            pane.say("")
            await pilot.press(key)
            assert isinstance(app.screen, VerifyScreen), key  # no dialog either
            assert line(pane) == "Nothing to verify: no inferred record is waiting.", (key, line(pane))
        await pilot.press("slash", *"zzz", "enter")
        await wait_for(pilot, lambda: pane.source is not None and pane.source.needle == "zzz", what="the filter")
        pane.table.focus()  # (the box keeps the focus after enter: a key typed there is part of the filter)
        await pilot.press("c")
        assert line(pane).startswith("Nothing matches “zzz”"), line(pane)
        await pilot.press("escape", "a")
        await settle(pilot)
        await pilot.press("n")
        assert line(pane) == "No denied record to undeny."
        assert not any(app.undo_stack(p) for p in ("conflicts", "verify"))
        assert app.engine.last_receipt_sha() is None

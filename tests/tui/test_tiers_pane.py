"""Tiers pane: commit the plan, toggle ambiguous ids, apply behind a confirmation; stale pages are refused whole."""

from __future__ import annotations

import io
import threading

import pytest
from rich.console import Console

from memkeeper.tui.screens import tiers as tiers_screen
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.modals import ConfirmModal
from memkeeper.tui.screens.tiers import TiersScreen
from memkeeper.tui.widgets.queue_modals import human_bytes

from .conftest import NARROW, both_sizes, footer_state, mounted, open_pane, settle, status_line, wait_for

pytestmark = pytest.mark.anyio


# -- helpers ---------------------------------------------------------------------------------------------------------


def full_plan(app):
    """The whole plan, from the engine (the pane keeps only an outline and pages of it)."""
    return app.engine.plan_tiers(now=app.now())


def as_text(renderable, width: int = 64) -> str:
    console = Console(width=width, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text()


# -- tests -----------------------------------------------------------------------------------------------------------


async def replanned(pilot) -> None:
    """Wait for the plan worker (and the header counts) after a decision."""
    await settle(pilot)
    await wait_for(pilot, lambda: not pilot.app.screen.table.loading, what="the tier plan")


async def commit_and_toggle(pilot, pane: TiersScreen, count: int) -> list:
    """Commit the plan (after its confirmation), then tick the first `count` ambiguous candidates."""
    await pilot.press("c")
    await mounted(pilot, ConfirmModal)
    await pilot.press("y")
    await mounted(pilot, TiersScreen)
    await replanned(pilot)
    chosen = full_plan(pilot.app).ambiguous[:count]
    for c in chosen:
        assert pane.table.select_key(c.candidate_id)
        await pilot.press("space")
    assert pane.accepted == {c.candidate_id for c in chosen}
    return chosen


async def confirm_apply(pilot) -> None:
    await pilot.press("a")
    await mounted(pilot, ConfirmModal)
    await pilot.press("y")
    await mounted(pilot, TiersScreen)
    await replanned(pilot)


async def test_commit_then_apply_toggled_ids(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        plan = full_plan(app)
        assert pane.view.plan.candidate_ids["ambiguous"] == [c.candidate_id for c in plan.ambiguous]
        assert plan.automatic and len(plan.ambiguous) >= 3
        assert pane.table.current_key == plan.ambiguous[0].candidate_id  # the cursor starts where a person is needed
        automatic = [c.memory_id for c in plan.automatic]

        chosen = await commit_and_toggle(pilot, pane, 2)
        commit = app.undo_stack("tiers")[-1]
        assert (commit.action, commit.status) == ("tiers_commit", "ok")
        review = commit.details["review"]
        assert engine.pending_reviews() == [review]
        assert all(engine.load(m).tier.value == "cold" for m in automatic)
        assert pane.view.review_path == review

        # protected / automatic rows do not toggle
        assert pane.table.select_key("§protected")
        await pilot.press("space")
        assert len(pane.accepted) == 2

        await confirm_apply(pilot)
        receipt = app.undo_stack("tiers")[-1]
        assert (receipt.action, receipt.status) == ("tiers_apply", "applied")
        assert sorted(receipt.details["accepted_ids"]) == sorted(c.candidate_id for c in chosen)
        for c in chosen:
            assert engine.load(c.memory_id).tier.value == "cold"
        for c in plan.ambiguous[2:]:
            assert engine.load(c.memory_id).tier.value == "warm"
        assert engine.pending_reviews() == []
        assert (engine.root / receipt.details["moved_to"]).is_file()
        # the applied records now sit in the COLD section
        cold = [key for key, _ in pane.table.source.rows(0, pane.table.row_count) if key.startswith("cold:")]
        assert {f"cold:{c.memory_id}" for c in chosen} <= set(cold)

        # w restores one to warm; u undoes that
        target = chosen[0].memory_id
        pane.table.move_cursor(pane.table.row_count - 1 - cold[::-1].index(f"cold:{target}"))
        assert pane.table.current_key == f"cold:{target}"
        await pilot.press("w")
        await replanned(pilot)
        assert engine.load(target).tier.value == "warm"
        assert app.undo_stack("tiers")[-1].action == "tier_restore"
        await pilot.press("u")
        await replanned(pilot)
        assert engine.load(target).tier.value == "cold"


async def test_star_ticks_every_ambiguous_record_and_the_apply_takes_them_all(demo):
    """A review at scale holds tens of thousands of ambiguous records: `*` ticks them all (the candidates read in a
    worker, so the apply dialog names each), `*` again unticks them."""
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        await commit_and_toggle(pilot, pane, 1)
        ambiguous = full_plan(app).ambiguous
        await pilot.press("asterisk")
        await wait_for(pilot, lambda: len(pane.accepted) == len(ambiguous), what="every ambiguous record ticked")
        assert pane.accepted == {c.candidate_id for c in ambiguous}
        assert "ticked" in status_line(pane)
        await pilot.press("asterisk")
        assert pane.accepted == set()
        await pilot.press("asterisk")
        await wait_for(pilot, lambda: len(pane.accepted) == len(ambiguous), what="ticked again")
        summary = pane._apply_summary(pane.view.plan, pane.view.review_path, pane.view.review)
        assert {title for _, title in summary.accepted} == {c.title for c in ambiguous}
        await confirm_apply(pilot)
        receipt = app.undo_stack("tiers")[-1]
        assert (receipt.action, receipt.status) == ("tiers_apply", "applied")
        assert all(engine.load(c.memory_id).tier.value == "cold" for c in ambiguous)


async def test_undo_an_apply_restores_the_tiers(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        chosen = await commit_and_toggle(pilot, pane, 1)
        await confirm_apply(pilot)
        assert engine.load(chosen[0].memory_id).tier.value == "cold"
        await pilot.press("u")
        await replanned(pilot)
        assert engine.load(chosen[0].memory_id).tier.value == "warm"


async def test_stale_page_refuses_the_whole_apply(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        chosen = await commit_and_toggle(pilot, pane, 2)
        review = engine.pending_reviews()[0]
        stale = chosen[0]
        # An agent writes to one accepted page between the commit and the apply.
        entry = engine.load(stale.memory_id)
        entry.notes.append("Touched by an agent after the plan")
        engine.save(entry)

        await confirm_apply(pilot)
        receipt = app.undo_stack("tiers")[-1]
        assert receipt.action == "tiers_commit"  # the refused apply is not undoable
        assert engine.pending_reviews() == [review]  # not moved
        for c in chosen:
            assert engine.load(c.memory_id).tier.value == "warm"  # nothing written
        messages = [f"{n.title} {n.message}" for n in app._notifications]
        assert any("Nothing was written" in m and stale.candidate_id in m and stale.path in m for m in messages)
        assert f"nothing written · stale {stale.candidate_id}" in pane.status.plain
        assert stale.candidate_id not in pane.accepted and chosen[1].candidate_id in pane.accepted

        # Applying again goes through for the rest.
        await confirm_apply(pilot)
        receipt = app.undo_stack("tiers")[-1]
        assert receipt.status == "applied" and receipt.details["accepted_ids"] == [chosen[1].candidate_id]
        assert engine.load(chosen[1].memory_id).tier.value == "cold"
        assert engine.load(stale.memory_id).tier.value == "warm"


async def test_a_decay_after_the_ticks_leaves_a_way_out_of_the_review(demo):
    """A decay run between the commit and the apply rewrites every page it reads: every ticked record is stale.
    The refusal says that an apply with nothing ticked closes the review and that `c` then plans again; both work
    (a pending review refuses `c`, and nothing said how to close it)."""
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        chosen = await commit_and_toggle(pilot, pane, 2)
        review = engine.pending_reviews()[0]
        assert engine.decay(now=pane.now(), actor="human:demo").ok
        await confirm_apply(pilot)
        messages = [f"{n.title} {n.message}" for n in app._notifications]
        assert any("nothing else is ticked: a now closes this review" in m for m in messages), messages
        assert not pane.accepted
        await confirm_apply(pilot)
        receipt = app.undo_stack("tiers")[-1]
        assert receipt.status == "applied" and receipt.details["accepted_ids"] == []
        assert review not in engine.pending_reviews()
        for c in chosen:
            assert engine.load(c.memory_id).tier.value == "warm"
        await replanned(pilot)
        await pilot.press("c")  # no longer refused as "a review is pending"; decay archived what was old
        await wait_for(pilot, lambda: "Nothing to commit" in pane.status.plain, what="the commit's answer")


async def test_apply_without_a_review_and_commit_with_one_pending_are_refused(demo):
    """A key that does not apply is dimmed in the footer, and pressed it says why in one line (at 80 columns too):
    a person who read the keymap and presses it never meets silence."""
    app, engine = demo, demo.engine
    async with app.run_test(size=NARROW, notifications=True) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        await replanned(pilot)
        assert footer_state(pane, "apply") is False and footer_state(pane, "commit") is True
        await pilot.press("a")  # nothing pending: nothing happens but the reason
        assert isinstance(app.screen, TiersScreen) and not app.undo_stack("tiers")
        assert status_line(pane) == "No review is pending: c commits the plan and writes one."
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, TiersScreen))
        await replanned(pilot)
        assert footer_state(pane, "commit") is not True and footer_state(pane, "apply") is True
        await pilot.press("c")  # a review is pending: a second commit would only fork it
        await replanned(pilot)
        assert isinstance(app.screen, TiersScreen)
        assert len(app.undo_stack("tiers")) == 1 and len(engine.pending_reviews()) == 1
        assert status_line(pane) == "A review is pending: apply it (a) before committing a new plan."

        # space and w answer off their rows too
        assert pane.table.select_key("§protected")
        await pilot.press("space")
        assert status_line(pane) == "space ticks ambiguous records only: pick one in the AMBIGUOUS section."
        await pilot.press("w")
        assert status_line(pane) == "w restores a cold record: pick one in the COLD section."
        assert len(app.undo_stack("tiers")) == 1


async def test_no_candidates(empty):
    app = empty
    async with app.run_test(size=NARROW) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        await replanned(pilot)
        assert pane.query_one("#tier-empty").display and not pane.query_one("#tier-body").display
        await pilot.press("c")
        assert status_line(pane) == "Nothing to commit: no record is a tier candidate (p re-plans)."
        await pilot.press("a")
        assert status_line(pane) == "No review is pending, and the plan has nothing to review."
        await pilot.press("space", "w")
        assert isinstance(app.screen, TiersScreen) and not app.undo_stack("tiers")


async def test_receipt_lines_fit_at_80_columns(demo):
    """The commit's and the apply's receipt lines name paths: at 80 columns they drop details, never their end."""
    app = demo
    async with app.run_test(size=NARROW) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        await commit_and_toggle(pilot, pane, 1)
        assert status_line(pane).startswith("✓ ok · plan committed · 6 automatic → cold")
        assert "review/tier-review-" in pane.status.plain  # the whole line, for wider terminals
        await confirm_apply(pilot)
        assert status_line(pane).startswith("✓ applied · 1 → cold · 7 unchanged")
        assert "moved to review/applied/" in pane.status.plain


async def test_the_apply_dialog_counts_what_the_apply_writes(demo, monkeypatch):
    """A review is pending while other records have become automatic candidates since its commit (here: the
    commit's automatic records set back to warm by hand). Applying the review moves only the ids it accepts, so the
    dialog's projected bytes are theirs; the automatic records wait for the next commit."""
    shown: list = []
    real = tiers_screen.apply_summary_renderable
    monkeypatch.setattr(tiers_screen, "apply_summary_renderable", lambda s: shown.append(s) or real(s))
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        automatic = full_plan(app).automatic
        await commit_and_toggle(pilot, pane, 0)
        for c in automatic:
            page = engine.root / engine.page_of(c.memory_id)
            page.write_text(page.read_text(encoding="utf-8").replace("\ntier: cold\n", "\ntier: warm\n"))
        await pilot.press("ctrl+r")
        await replanned(pilot)
        assert engine.pending_reviews() and pane.view.plan.count("automatic") == len(automatic)

        target = full_plan(app).ambiguous[0]
        assert pane.table.select_key(target.candidate_id)
        await pilot.press("space", "a")
        await mounted(pilot, ConfirmModal)
        summary = shown[-1]
        assert summary.total_bytes == target.excerpt_bytes
        text = as_text(real(summary))
        projected = next(line for line in text.splitlines() if "projected bytes" in line)
        assert human_bytes(target.excerpt_bytes) in projected
        automatic_bytes = human_bytes(sum(c.excerpt_bytes for c in automatic))
        assert automatic_bytes not in text
        await pilot.press("y")
        await mounted(pilot, TiersScreen)
        await replanned(pilot)
        assert engine.load(target.memory_id).tier.value == "cold"
        assert all(engine.load(c.memory_id).tier.value != "cold" for c in automatic)  # as the dialog said


@both_sizes
def test_snapshot_tiers(demo, snap_compare, size):
    async def run_before(pilot):
        await open_pane(pilot, "T", TiersScreen)
        await pilot.press("space", "down", "down", "space")

    assert snap_compare(demo, run_before=run_before, terminal_size=size)


def test_snapshot_tiers_empty(empty, snap_compare):
    async def run_before(pilot):
        await open_pane(pilot, "T", TiersScreen)

    assert snap_compare(empty, run_before=run_before, terminal_size=NARROW)


def test_snapshot_apply_confirmation(demo, snap_compare):
    async def run_before(pilot):
        pane = await open_pane(pilot, "T", TiersScreen)
        await commit_and_toggle(pilot, pane, 3)
        pilot.app.clear_notifications()
        await pilot.press("a")
        await mounted(pilot, ConfirmModal)
        await pilot.pause()

    assert snap_compare(demo, run_before=run_before, terminal_size=NARROW)


async def test_a_failed_plan_is_shown_and_the_desk_stays_open(demo, monkeypatch):
    app = demo
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)

        def broken(*args, **kwargs):
            raise OSError(5, "Input/output error")

        monkeypatch.setattr(app.engine, "plan_outline", broken)
        await pilot.press("p")
        await wait_for(pilot, lambda: not pane.table.loading, what="the failed plan")
        assert "planning failed: OSError: [Errno 5] Input/output error" in str(pane.query_one("#tier-summary").render())
        await wait_for(pilot, lambda: any(n.title == "Tier plan failed" for n in app._notifications))
        assert app.is_running and isinstance(app.screen, TiersScreen)


async def test_commit_shows_the_plan_first_and_cancel_writes_nothing(demo):
    app, engine = demo, demo.engine
    async with app.run_test(size=(120, 34)) as pilot:
        await open_pane(pilot, "T", TiersScreen)
        plan = full_plan(app)
        n = len(plan.automatic)
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal))
        assert app.screen.title_text == f"Commit the tier plan: {n} page{'' if n == 1 else 's'} to cold?"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, TiersScreen))
        assert not app.undo_stack("tiers") and engine.pending_reviews() == []
        assert all(engine.load(c.memory_id).tier.value != "cold" for c in plan.automatic)


async def test_the_plan_list_pages_through_the_engine(demo, monkeypatch):
    """Five rows a page, two pages cached: the list draws the plan a page at a time, End reaches its last row, and a
    tick on a row from a later page sticks."""
    from memkeeper.tui.widgets import virtual_table

    monkeypatch.setattr(virtual_table, "PAGE_SIZE", 5)
    monkeypatch.setattr(virtual_table, "CACHED_PAGES", 2)
    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        plan = full_plan(app)
        sections = [s for s in ("automatic", "ambiguous", "protected") if getattr(plan, s)]
        assert pane.table.row_count == len(sections) + sum(len(getattr(plan, s)) for s in sections)
        assert pane.table.cached_rows <= 10
        await pilot.press("end")
        assert pane.table.current_key == plan.protected[-1].candidate_id
        last = plan.ambiguous[-1]
        assert pane.table.select_key(last.candidate_id)
        await pilot.press("space")
        assert pane.accepted == {last.candidate_id}
        await pilot.press("end", "home")
        assert pane.table.select_key(last.candidate_id)
        assert str(pane.table.source.cells(*pane.table.item_at(pane.table.cursor_row))[0]) == "✓"


async def test_the_first_plan_opens_on_the_ambiguous_section_at_the_top_of_the_list(demo):
    """The cursor starts on the first ambiguous record, the section's header at the top of the list. The scroll was
    made while the list was hidden behind its loading indicator (no height to scroll in): at 100k records, with 98
    automatic rows above it, the first screen was all automatic rows and the cursor on its last line."""
    async with demo.run_test(size=NARROW) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        await pilot.pause()
        table = pane.table
        start = table.source.section_start("ambiguous")
        assert start is not None and start + 1 >= table.scrollable_content_region.height - 1  # not in the first view
        assert table.cursor_row == start + 1
        assert round(table.scroll_y) == min(start, table.max_scroll_y)


async def test_the_opening_place_holds_while_the_layout_settles_and_lets_go_when_the_cursor_moves(demo):
    """The list can change height after its first placement (the summary and detail shown beside it). The placement
    is made again against the height the list ends with: opened where the ambiguous rows fit the first view and then
    made smaller, the header of the section comes to the top; once the cursor moves, a resize only keeps it in
    view. (Placed once, a view taller at the first pass left the header above and the cursor on the last line.)"""
    async with demo.run_test(size=(120, 60)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        await pilot.pause()
        table = pane.table
        start = table.source.section_start("ambiguous")
        assert start is not None and start + 1 < table.scrollable_content_region.height - 1  # in the first view
        assert table.cursor_row == start + 1 and round(table.scroll_y) == 0
        await pilot.resize_terminal(*NARROW)
        await pilot.pause()
        assert start + 1 >= table.scrollable_content_region.height - 1  # no longer in the first view
        assert table.cursor_row == start + 1
        assert round(table.scroll_y) == min(start, table.max_scroll_y)
        await pilot.press("down")
        moved = table.cursor_row
        await pilot.resize_terminal(120, 60)
        await pilot.pause()
        await pilot.resize_terminal(*NARROW)
        await pilot.pause()
        visible = table.scrollable_content_region.height - 1
        assert table.cursor_row == moved
        assert round(table.scroll_y) == moved - visible + 1  # kept in view on the last line, not placed again


async def test_a_replan_keeps_the_plan_on_screen_until_the_next_one_is_read(demo, monkeypatch):
    """A plan reads every record (3-4 s at 100k records, slower under its own spinner). After a decision in another
    pane the Tiers pane re-plans when it comes back, and it showed a spinner instead of the list all that time. The
    plan on screen stays, its title saying it is being re-planned, until the new one is in."""
    app = demo
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        rows = pane.table.row_count
        await open_pane(pilot, "C", ConflictsScreen)
        await pilot.press("b")
        await settle(pilot)
        gate = threading.Event()
        original = app.engine.plan_outline
        monkeypatch.setattr(app.engine, "plan_outline", lambda **kw: (gate.wait(60), original(**kw))[1])
        await pilot.press("T")
        await mounted(pilot, TiersScreen)
        await pilot.pause()
        try:
            assert pane.table.row_count == rows and not pane.table.loading
            assert "re-planning" in pane.table.border_title
        finally:
            gate.set()
        await settle(pilot)
        assert "re-planning" not in pane.table.border_title


async def test_one_plan_is_read_at_a_time(demo, monkeypatch):
    """Every decision that lands while Tiers is on screen re-plans it (grades queued in the quiz land one by one), and
    a thread worker cancelled by the next runs to its end anyway: at 100k records four plans ran side by side and the
    list waited 16 s for the last. One plan runs at a time; what is asked meanwhile is read once after it."""
    app = demo
    gate = threading.Event()
    lock = threading.Lock()
    running, most, calls = [0], [0], [0]
    original = app.engine.plan_outline

    def plan(**kwargs):
        with lock:
            running[0] += 1
            calls[0] += 1
            most[0] = max(most[0], running[0])
        gate.wait(60)
        try:
            return original(**kwargs)
        finally:
            with lock:
                running[0] -= 1

    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        monkeypatch.setattr(app.engine, "plan_outline", plan)
        for _ in range(3):  # three changes seen while the first re-plan is being read
            app.wiki_changed()
            await pilot.pause()
        gate.set()
        await settle(pilot)
        assert most[0] == 1 and calls[0] == 2
        assert "re-planning" not in pane.table.border_title

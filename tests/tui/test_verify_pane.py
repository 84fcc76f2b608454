"""Verify pane: confirm / deny / undeny / undo drive the engine, and the queue follows."""

from __future__ import annotations

import io
import json
import threading
from datetime import timedelta

import pytest
from rich.console import Console

from memkeeper.core import Engine
from memkeeper.tui.app import MemkeeperApp
from memkeeper.tui.screens.modals import ConfirmModal, InputModal
from memkeeper.tui.screens.verify import VerifyScreen

from .conftest import NARROW, both_sizes, decided, mounted, open_pane, settle, wait_for
from .snapshot_app import FIXED_NOW as NOW
from .snapshot_app import build_app

pytestmark = pytest.mark.anyio


# -- helpers ---------------------------------------------------------------------------------------------------------


# -- tests -----------------------------------------------------------------------------------------------------------


def rows(pane) -> list[tuple[str, object]]:
    """Every row the list shows, in order (source headers included), read through its pages as the list reads them."""
    return pane.source.rows(0, pane.source.count())


def shown(pane) -> list:
    """The records the list shows, in order."""
    return [item for key, item in rows(pane) if not key.startswith("§")]


def listed(pane) -> list[str]:
    return [e.memory_id for e in shown(pane)]


def plain(widget) -> str:
    """What a Static shows, as plain text (its content may be any Rich renderable)."""
    console = Console(width=118, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


PR_TEXT = "Priya prefers pull requests under 400 lines with a linked issue."


def restate_pr(engine, source_ref: str):
    """An agent states the `pr` record's text again, from `source_ref`."""
    return engine.capture(PR_TEXT, now=NOW, actor="agent:scribe", title="PR size", source_ref=source_ref)


@pytest.fixture
def small(tmp_path) -> tuple[MemkeeperApp, dict[str, str]]:
    """Four pending agent-inferred records; `twin` has the same title and text as `staging` in another zone."""
    ids = {}
    engine = Engine.init(tmp_path / "small", now=NOW - timedelta(days=30))
    for n, (name, text, title, zone) in enumerate(
        [
            (
                "staging",
                "The staging database is reset every Sunday night at 02:00 UTC.",
                "Staging reset",
                "private_self",
            ),
            (
                "twin",
                "The staging database is reset every Sunday night at 02:00 UTC.",
                "Staging reset",
                "trusted_collaborator",
            ),
            ("pr", PR_TEXT, "PR size", "private_self"),
            ("region", "The billing service deploys to the Frankfurt region.", "Billing region", "private_self"),
        ]
    ):
        r = engine.capture(
            text,
            now=NOW - timedelta(days=10 - n),
            actor="agent:scribe",
            title=title,
            zone=zone,
            source_ref=f"raw/notes-{n}.md#L3",
            category="fact",
        )
        assert r.status == "captured", r
        ids[name] = r.details["memory_id"]
    engine.close()
    return build_app(tmp_path / "small"), ids


async def test_confirm_stamps_and_propagates(small):
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert set(listed(pane)) == set(ids.values())
        assert pane.table.select_key(ids["staging"])
        await pilot.press("c")
        await decided(pilot)
        receipt = app.undo_stack("verify")[-1]
        assert (receipt.action, receipt.status) == ("confirm", "confirmed")
        assert receipt.details["propagated_to"] == [ids["twin"]]
        for mid in (ids["staging"], ids["twin"]):
            e = engine.load(mid)
            assert e.verified is not None and e.verified.by == app.actor
            assert e.source_type.value == "user_confirmed"
        assert ids["staging"] not in listed(pane) and ids["twin"] not in listed(pane)
        assert "propagated to 1 record" in pane.status.plain
        assert not app._notifications  # a receipt is not an error: the status line shows it, no toast

        # undo: both stamps removed, both back in the queue
        await pilot.press("u")
        await decided(pilot)
        assert engine.load(ids["staging"]).verified is None
        assert engine.load(ids["twin"]).source_type.value == "agent_inferred"
        assert {ids["staging"], ids["twin"]} <= set(listed(pane))


async def test_deny_then_undeny_from_the_denied_list(small):
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(ids["pr"])
        await pilot.press("d")
        await decided(pilot)
        assert engine.load(ids["pr"]).status.value == "denied"
        assert app.undo_stack("verify")[-1].status == "denied"
        assert ids["pr"] not in listed(pane)
        # the suppression key now holds: an agent restating it is suppressed
        again = restate_pr(engine, "raw/notes-2.md#L3")
        assert again.status == "suppressed"

        await pilot.press("a")
        assert pane.mode == "denied" and set(listed(pane)) == {ids["pr"]}
        assert pane.table.border_title.startswith("Denied (1)")
        await pilot.press("n")
        await decided(pilot)
        assert engine.load(ids["pr"]).status.value == "active"
        assert app.undo_stack("verify")[-1].action == "undeny"
        assert not listed(pane)  # the denied list is empty now
        await pilot.press("a")
        assert pane.mode == "pending" and ids["pr"] in listed(pane)


async def test_deny_with_a_reason(small):
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(ids["region"])
        await pilot.press("D")
        await wait_for(pilot, lambda: isinstance(app.screen, InputModal))
        await pilot.press(*"wrong region")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen))
        await decided(pilot)
        assert engine.load(ids["region"]).status.value == "denied"
        ledger = [json.loads(line) for line in (engine.root / "stated" / "denials.jsonl").read_text().splitlines()]
        assert ledger[-1]["memory_id"] == ids["region"] and ledger[-1]["reason"] == "wrong region"


async def test_undo_a_denial_puts_the_record_back_under_the_cursor(small):
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(ids["pr"])
        await pilot.press("d")
        await decided(pilot)
        assert pane.table.current_key != ids["pr"]
        await pilot.press("u")
        await decided(pilot)
        assert engine.load(ids["pr"]).status.value == "active"
        assert pane.table.current_key == ids["pr"]


async def test_deny_undo_deny_undo_in_one_second_leaves_the_record_active(small):
    """`d u d u` inside one second (the desk's clock is fixed here): the second deny was the first one's receipt,
    byte for byte, so its undo was refused as already undone and the record stayed denied."""
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(ids["pr"])
        for key in "dud":
            await pilot.press(key)
            await decided(pilot)
        assert engine.load(ids["pr"]).status.value == "denied"
        await pilot.press("u")
        await decided(pilot)
        assert engine.load(ids["pr"]).status.value == "active"
        assert not app._notifications  # no "already_undone" toast
        assert not app.undo_stack("verify")  # both denies undone: nothing left to undo
    denies = [r for r in engine.iter_receipts() if r[2] and r[2]["action"] == "deny"]
    assert len({d[2]["receipt_sha256"] for d in denies}) == 2


async def test_keys_that_do_not_apply_to_the_list_do_nothing(small):
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34)) as pilot:
        await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("n")  # undeny on the pending list
        await pilot.press("a", "c", "d")  # confirm / deny on the (empty) denied list
        await settle(pilot)
        assert not app.undo_stack("verify")
        assert all(engine.load(m).status.value == "active" for m in ids.values())


@both_sizes
def test_snapshot_verify(demo, snap_compare, size):
    async def run_before(pilot):
        await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("down")

    assert snap_compare(demo, run_before=run_before, terminal_size=size)


def test_snapshot_verify_empty(empty, snap_compare):
    async def run_before(pilot):
        await open_pane(pilot, "V", VerifyScreen)

    assert snap_compare(empty, run_before=run_before, terminal_size=NARROW)


def test_snapshot_verify_denied_list(small, snap_compare):
    app, ids = small

    async def run_before(pilot):
        pane = await open_pane(pilot, "V", VerifyScreen)
        pane.table.select_key(ids["pr"])
        await pilot.press("D")
        await mounted(pilot, InputModal)
        await pilot.press(*"not what Priya said")
        await pilot.press("enter")
        await mounted(pilot, VerifyScreen)
        await decided(pilot)
        await pilot.press("a")
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=NARROW)


def test_snapshot_verify_marks_by_source(sourced, snap_compare):
    """Grouped by source at 80 columns: header rows, marks, the filter box, the count in the title."""
    app, by_source = sourced

    async def run_before(pilot):
        pane = await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("o")  # by source
        assert pane.table.select_key("§raw/standup.md")
        await pilot.press("space")  # the whole source
        await pilot.press("slash", *"raw", "down")
        for widget in pilot.app.screen.query("Input"):
            widget.cursor_blink = False
        await settle(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=NARROW)


def test_snapshot_verify_confirm_source_dialog(sourced, snap_compare):
    app, by_source = sourced

    async def run_before(pilot):
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(by_source["raw/standup.md"][0])
        await pilot.press("f")
        await mounted(pilot, ConfirmModal)
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=NARROW)


async def test_an_engine_failure_is_shown_and_the_desk_stays_open(small, monkeypatch):
    app, ids = small

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        monkeypatch.setattr(app.engine, "confirm", broken)
        assert pane.table.select_key(ids["staging"])
        await pilot.press("c")
        await decided(pilot)
        assert app.is_running and isinstance(app.screen, VerifyScreen)
        await wait_for(
            pilot,
            lambda: any("OSError: [Errno 28] No space left on device" in n.message for n in app._notifications),
            what="the failure notification",
        )
        assert app.engine.load(ids["staging"]).verified is None
        assert not app.undo_stack("verify")


# -- at the speed of judgement: marks, a source at once, filter, order -----------------------------------------------


@pytest.fixture
def sourced(tmp_path) -> tuple[MemkeeperApp, dict[str, list[str]]]:
    """Six pending records: three from one meeting's notes, two from a plan, one with no source ref at all."""
    engine = Engine.init(tmp_path / "sourced", now=NOW - timedelta(days=30))
    by_source: dict[str, list[str]] = {}
    rows = [
        ("raw/standup.md#L4", "Nightly backups run at 01:00 UTC.", "Backup time", 0.9),
        ("raw/standup.md#L9", "The billing team owns the invoice emails.", "Invoice emails", 0.6),
        ("raw/standup.md#L12", "Feature flags live in the config service.", "Feature flags", 0.75),
        ("raw/plan.md#L2", "The mobile app ships every second Tuesday.", "Mobile cadence", 0.95),
        ("raw/plan.md#L8", "Load tests run against the staging cluster.", "Load tests", 0.55),
        (None, "The design review happens on Thursdays.", "Design review", 0.7),
    ]
    for n, (ref, text, title, conf) in enumerate(rows):
        r = engine.capture(
            text,
            now=NOW - timedelta(days=10 - n),
            actor="agent:scribe",
            title=title,
            source_ref=ref,
            category="fact",
            confidence=conf,
        )
        assert r.status == "captured", r
        source = ref.split("#")[0] if ref else "agent:scribe"
        by_source.setdefault(source, []).append(r.details["memory_id"])
    engine.close()
    return build_app(tmp_path / "sourced"), by_source


def pending(engine) -> set[str]:
    return {e.memory_id for e in engine.pending_verifications()}


async def test_marks_then_confirm_acts_on_every_marked_record_and_one_undo_reverses_them(sourced):
    app, by_source = sourced
    engine = app.engine
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        first, second, third = [listed(pane)[i] for i in range(3)]
        await pilot.press("space")  # marks the first row and moves to the second
        assert pane.marked == {first} and pane.table.current_key == second
        await pilot.press("down", "space")  # skips the second, marks the third
        assert pane.marked == {first, third}
        assert "2 marked" in pane.table.border_title
        await pilot.press("c")
        await decided(pilot)
        assert pending(engine) == set(listed(pane))
        assert {first, third}.isdisjoint(pending(engine)) and second in pending(engine)
        assert pane.marked == set()  # the decided records left the list, their marks with them
        stack = app.undo_stack("verify")
        assert len(stack) == 1  # one receipt for the batch
        assert (stack[0].action, stack[0].status) == ("confirm_many", "confirmed")
        assert stack[0].details["confirmed"] == [first, third]
        assert pane.status.plain.startswith("✓ confirmed · 2 marked records")
        assert not app._notifications

        await pilot.press("u")  # one undo, the whole batch
        await decided(pilot)
        assert app.undo_stack("verify") == []
        assert {first, third} <= pending(engine)
        assert engine.load(first).verified is None and engine.load(third).verified is None


async def test_shift_arrows_extend_the_marks_and_escape_clears_them(sourced):
    app, _ = sourced
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        ids = listed(pane)
        await pilot.press("shift+down", "shift+down")
        assert pane.marked == set(ids[:3]) and pane.table.current_key == ids[2]
        await pilot.press("down", "down", "shift+up")
        assert pane.marked == {*ids[:3], ids[3], ids[4]}
        await pilot.press("escape")
        assert pane.marked == set()
        await pilot.press("asterisk")  # every row shown
        assert pane.marked == set(ids)
        await pilot.press("asterisk")
        assert pane.marked == set()


async def test_deny_marked_records_with_one_reason(sourced):
    app, _ = sourced
    engine = app.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        a, b = listed(pane)[0], listed(pane)[1]
        await pilot.press("space", "space", "D")
        await wait_for(pilot, lambda: isinstance(app.screen, InputModal))
        await pilot.press(*"not from this meeting", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen))
        await decided(pilot)
        for mid in (a, b):
            entry = engine.load(mid)
            assert entry.status.value == "denied" and "not from this meeting" in entry.notes[-1]
        assert pane.status.plain.startswith("✓ denied · 2 marked records denied (not from this meeting)")


async def test_confirm_all_from_a_source_shows_the_count_first_then_confirms_them_all(sourced):
    app, by_source = sourced
    engine = app.engine
    standup = set(by_source["raw/standup.md"])
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(by_source["raw/standup.md"][1])
        await pilot.press("f")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal))
        dialog = app.screen
        assert dialog.title_text == "Confirm all 3 from raw/standup.md?"
        assert dialog.confirm_label == "Confirm 3"
        assert pending(engine) >= standup  # nothing is written before the person says yes
        await pilot.press("escape")  # cancel: nothing happens
        await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen))
        assert pending(engine) >= standup and not app.undo_stack("verify")

        await pilot.press("f")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen))
        await decided(pilot)
        assert standup.isdisjoint(pending(engine))
        assert pending(engine) == set(by_source["raw/plan.md"]) | set(by_source["agent:scribe"])
        assert [r.action for r in app.undo_stack("verify")] == ["confirm_many"]
        assert set(app.undo_stack("verify")[0].details["memory_ids"]) == standup
        assert "3 records from raw/standup.md" in pane.status.plain
        await pilot.press("u")
        await decided(pilot)
        assert pending(engine) >= standup and app.undo_stack("verify") == []


async def test_order_groups_by_source_and_a_header_row_marks_its_source(sourced):
    app, by_source = sourced
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.order == "newest"
        assert listed(pane) == [e.memory_id for e in app.engine.pending_verifications()]
        await pilot.press("o")
        assert pane.order == "source"
        keys = [key for key, _ in rows(pane)]
        assert keys[0] == "§agent:scribe" and "§raw/plan.md" in keys and "§raw/standup.md" in keys
        assert keys.index("§raw/standup.md") < keys.index(by_source["raw/standup.md"][0])
        assert pane.table.select_key("§raw/plan.md")
        await pilot.press("space")  # on a header: marks every record of that source
        assert pane.marked == set(by_source["raw/plan.md"])
        await pilot.press("o")
        assert pane.order == "confidence"
        confidences = [e.confidence for e in shown(pane)]
        assert confidences == sorted(confidences, reverse=True)
        await pilot.press("o")
        assert pane.order == "newest"


async def test_filter_narrows_the_queue_and_keeps_focus_in_the_box(sourced):
    app, by_source = sourced
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        box = pane.query_one("#verify-filter")
        await pilot.press("slash", *"standup")  # matches the source ref
        await settle(pilot)  # a filtered list is built in a worker
        assert set(listed(pane)) == set(by_source["raw/standup.md"])
        await pilot.press("enter")
        assert app.focused is box
        await pilot.press("ctrl+u", *"backup")  # and the text
        await settle(pilot)
        assert [e.title for e in shown(pane)] == ["Backup time"]
        assert "1 match “backup”" in pane.table.border_title
        await pilot.press("down")
        assert app.focused is pane.table
        await pilot.press("space")
        assert pane.marked == {listed(pane)[0]}
        await pilot.press("escape")  # closes the filter, keeps the mark
        assert not box.display and pane.shown_count == 6 and len(pane.marked) == 1
        await pilot.press("escape")  # then clears the marks
        assert pane.marked == set()


async def test_typing_a_filter_reads_the_queue_one_scan_at_a_time(sourced, monkeypatch):
    """A filter reads every pending record's text (~250 ms at 100k records). A scan per key, the cancelled ones still
    running to their end beside each other, piled up: typing "session-142" showed its matches 2.4 s after the last
    key. One scan runs at a time, the list says it is filtering meanwhile, and the next scan reads what the box holds
    by then."""
    app, by_source = sourced
    engine = app.engine
    gate = threading.Event()
    lock = threading.Lock()
    running, most, needles = [0], [0], []
    original = engine.verify_ids

    def slow(mode="pending", **kwargs):
        if kwargs.get("needle") is None:
            return original(mode, **kwargs)
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            needles.append(kwargs["needle"])
        gate.wait(60)
        try:
            return original(mode, **kwargs)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(engine, "verify_ids", slow)
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("slash", *"standup")
        await pilot.pause(0.2)
        assert "filtering “standup”" in pane.table.border_title
        gate.set()
        await settle(pilot)
        assert most[0] == 1
        assert needles[-1] == "standup" and len(needles) <= 2
        assert set(listed(pane)) == set(by_source["raw/standup.md"])
        assert "3 match “standup”" in pane.table.border_title


async def test_a_new_filter_starts_at_the_top_of_its_matches(sourced):
    """A row position in the whole list means nothing in a filtered one: the cursor goes to the first match (it kept
    the old position, so `c` would confirm whichever match sat there, and `space` marked from there)."""
    app, by_source = sourced
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("end")
        assert pane.table.cursor_row > 2
        await pilot.press("slash", *"plan")  # two records, none of them the one under the cursor
        await settle(pilot)
        assert set(listed(pane)) == set(by_source["raw/plan.md"])
        await pilot.press("down")
        assert app.focused is pane.table and pane.table.cursor_row == 0
        await pilot.press("space")
        assert pane.marked == {listed(pane)[0]}


async def test_a_filter_that_matches_nothing_clears_the_detail(sourced):
    """Exploratory pass, 2026-12-05: a filter that matched nothing left the last record's detail on screen (its
    title, text and source) beside an empty list, as if a decision key would act on it. The detail says no record is
    selected and why; a filter that matches again shows its first match."""
    app, _by_source = sourced
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        first = pane.current
        assert first is not None and first.title in plain(pane.query_one("#verify-record"))
        await pilot.press("slash", *"zzzqx")
        await settle(pilot)
        assert pane.shown_count == 0 and pane.current is None
        detail = plain(pane.query_one("#verify-record"))
        assert first.title not in detail and first.memory_id != pane.query_one("#verify-detail").border_title
        assert "No record selected" in detail and "Nothing matches “zzzqx” (esc clears the filter)" in detail
        await pilot.press("ctrl+u", *"backup")
        await settle(pilot)
        assert [e.title for e in shown(pane)] == ["Backup time"]
        assert "Backup time" in plain(pane.query_one("#verify-record"))


async def test_a_batch_that_fails_part_way_writes_nothing(sourced, monkeypatch):
    app, by_source = sourced
    engine = app.engine
    queue = engine.verification_queue
    original = queue._stamp_confirmed
    calls: list[str] = []

    def flaky(mid, *args):
        calls.append(mid)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return original(mid, *args)

    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        marked = [listed(pane)[i] for i in range(3)]
        monkeypatch.setattr(queue, "_stamp_confirmed", flaky)
        await pilot.press("space", "space", "space", "c")
        await wait_for(
            pilot,
            lambda: any("No space left on device" in n.message for n in app._notifications),
            what="the error toast",
        )
        assert len(calls) == 2
        assert app.undo_stack("verify") == []
        assert "No space left on device" in pane.status.plain
        assert set(marked) <= pending(engine)  # the batch is all or nothing
        assert all(engine.load(m).verified is None for m in marked)


# -- a queue longer than a page: the list is virtual -----------------------------------------------------------------

SYL = "ka lo mi ne ru sa ti vo be da fe gu hi jo ke lu ma no pe qu".split()


@pytest.fixture
def long_queue(tmp_path, monkeypatch) -> tuple[MemkeeperApp, dict[str, list[str]]]:
    """45 pending records (31 from one document, 14 from another), shown ten rows a page with two pages cached: the
    list has to page through the engine to show them."""
    from memkeeper.tui.widgets import virtual_table

    monkeypatch.setattr(virtual_table, "PAGE_SIZE", 10)
    monkeypatch.setattr(virtual_table, "CACHED_PAGES", 2)
    engine = Engine.init(tmp_path / "long", now=NOW - timedelta(days=30))
    by_source: dict[str, list[str]] = {}
    for i in range(45):
        word = SYL[i % 20] + SYL[(i * 7 + 3) % 20] + SYL[(i // 20) + 5]
        source = "raw/big.md" if i % 7 != 3 and i < 30 or i >= 40 else "raw/small.md"
        r = engine.capture(
            f"The {word}{i} archive keeps item {word} number {1000 + 17 * i} for the {word}x ledger.",
            now=NOW - timedelta(days=5, minutes=45 - i),
            actor="agent:scribe",
            title=f"Item {i:02d} {word}",
            source_ref=f"{source}#L{i}",
            category="fact",
        )
        assert r.status == "captured", r
        by_source.setdefault(source, []).append(r.details["memory_id"])
    engine.close()
    return build_app(tmp_path / "long"), by_source


async def test_a_queue_longer_than_a_page_loads_rows_as_the_cursor_scrolls(long_queue):
    app, by_source = long_queue
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        table = pane.table
        assert table.row_count == 45 and pane.table.border_title.startswith("Pending verification (45)")
        assert table.cached_rows <= 20  # never the whole queue
        newest = app.engine.verify_ids()
        for _ in range(24):  # past the first page, then the second
            await pilot.press("down")
        assert table.cursor_row == 24 and table.current_key == newest[24]
        assert table.cached_rows <= 20
        await pilot.press("end")  # the last row of a queue three pages long
        assert table.cursor_row == 44 and table.current_key == newest[-1]
        assert pane.current is not None and pane.current.memory_id == newest[-1]
        await pilot.press("home")
        assert table.cursor_row == 0 and table.current_key == newest[0]


async def test_marks_survive_scrolling_out_of_the_cached_pages(long_queue):
    app, by_source = long_queue
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        newest = app.engine.verify_ids()
        await pilot.press("space", "space")  # rows 0 and 1
        await pilot.press("end", "shift+up")  # rows 44 and 43, pages away
        assert pane.marked == {newest[0], newest[1], newest[43], newest[44]}
        await pilot.press("home")  # the first page is drawn again: its marks are still there
        cells = pane.source.cells(*pane.table.item_at(0))
        assert str(cells[0]) == "●"
        assert "4 marked" in pane.table.border_title
        await pilot.press("c")
        await decided(pilot)
        receipt = app.undo_stack("verify")[-1]
        assert receipt.action == "confirm_many" and receipt.details["confirmed"] == [
            newest[0],
            newest[1],
            newest[43],
            newest[44],
        ]
        assert pane.marked == set() and pane.table.row_count == 41


async def test_confirm_all_from_a_source_longer_than_a_page_is_one_receipt_and_one_undo(long_queue):
    app, by_source = long_queue
    engine = app.engine
    big = by_source["raw/big.md"]
    assert len(big) > 20  # more rows than a page, and than the cached pages
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("o")  # by source: raw/big.md's header first
        await settle(pilot)
        assert pane.table.current_key is not None
        assert pane.table.select_key("§raw/big.md")
        await pilot.press("f")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal))
        assert app.screen.title_text == f"Confirm all {len(big)} from raw/big.md?"
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(app.screen, VerifyScreen))
        await decided(pilot)
        stack = app.undo_stack("verify")
        assert [r.action for r in stack] == ["confirm_many"]
        assert set(stack[0].details["confirmed"]) == set(big)
        assert set(big).isdisjoint(pending(engine)) and set(by_source["raw/small.md"]) <= pending(engine)
        assert pane.table.row_count == len(by_source["raw/small.md"]) + 1  # one header, its records
        await pilot.press("u")
        await decided(pilot)
        assert set(big) <= pending(engine) and app.undo_stack("verify") == []
        assert pane.table.row_count == 45 + 2


async def test_a_filter_over_a_long_queue_pages_its_matches(long_queue):
    app, by_source = long_queue
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("slash", *"small")
        await settle(pilot)
        assert pane.shown_count == len(by_source["raw/small.md"])
        await pilot.press("down", "end")
        assert pane.table.current_key == app.engine.verify_ids(needle="small")[-1]
        await pilot.press("asterisk")  # marks every match, loaded or not
        assert pane.marked == set(by_source["raw/small.md"])


async def test_an_undeny_says_when_the_record_came_back_merged_into_the_one_that_holds_it_now(small):
    """Denied, then stated again by an agent from another source (a new record): the undeny merges the denied record
    into that one, and the status line says so instead of "1 record(s) active again"."""
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(ids["pr"])
        await pilot.press("d")
        await decided(pilot)
        again = restate_pr(engine, "raw/other-notes.md#L8")
        assert again.status == "captured"
        await pilot.press("a")
        assert pane.table.select_key(ids["pr"])
        await pilot.press("n")
        await decided(pilot)
        twin = again.details["memory_id"]
        assert engine.load(ids["pr"]).merged_into == twin
        line = pane.status.plain
        assert f"{ids['pr']} undenied · 0 records active again · 1 record merged into {twin}" in line, line


async def test_a_refused_decision_does_not_say_it_was_done(small):
    """A record denied from the command line while the desk shows it: `c` is refused by the engine, and the status
    line said "✗ reject · mem_… confirmed · record_is_denied"."""
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(ids["staging"])
        engine.deny(ids["staging"], now=NOW, actor="human:other")  # not yet seen by the pane
        await pilot.press("c")
        await decided(pilot)
        line = pane.status.plain
        assert "record_is_denied" in line and ids["staging"] in line, line
        assert "confirmed" not in line and "propagated" not in line, line


async def test_a_long_record_shows_its_start_in_the_detail_and_v_shows_it_whole(tmp_path):
    """An agent's 64 KB note (a log pasted whole) was laid out whole in the detail on every cursor move; the detail
    now shows its start and says how much is left, `v` shows all of it, and a 2 KB source ref is cut in its middle
    in the detail and whole in the dialog."""
    from memkeeper.tui.screens.modals import TextModal
    from memkeeper.tui.screens.verify import TEXT_SHOWN

    lines = [f"{i:05d} worker-{i % 7} heartbeat ok; queue depth {i % 13}; nothing to report." for i in range(1000)]
    text = "\n".join([*lines, "The ingest worker's retry budget is 45 attempts."])
    ref = "https://logs.example.com/search?q=" + "ingest%20worker%20" * 110 + "&end=tail-of-the-ref"
    assert len(text) > 60_000 and len(ref) > 2_000
    engine = Engine.init(tmp_path / "wiki", now=NOW - timedelta(days=3))
    r = engine.capture(
        text, now=NOW - timedelta(days=1), actor="agent:scribe", title="Worker log", source_ref=ref, category="fact"
    )
    assert r.status == "captured", r
    engine.close()
    app = build_app(tmp_path / "wiki")
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        detail = plain(pane.query_one("#verify-record"))
        assert "00000 worker-0 heartbeat ok" in detail and "45 attempts" not in detail
        left = len(text) - len(detail.split("…")[0].strip())
        assert "more characters · v: whole" in detail and len(detail) < TEXT_SHOWN * 2 < left
        assert "tail-of-the-ref" in detail and ref not in "".join(detail.split())
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, TextModal), 5, "the whole text")
        whole = "".join(plain(app.screen.query_one(".modal-message")).split())
        assert "".join(text.split()) in whole and ref in whole
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is pane, 5, "the pane again")


async def test_deny_does_not_overrule_a_confirmation_made_elsewhere_since_the_list_was_read(small):
    """Another person confirmed the record from the command line while the desk listed it as pending: `d` is
    refused with who confirmed it, and the record stays confirmed and active (it was denied over the confirmation,
    "✓ denied", a page both denied and user_confirmed)."""
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(ids["region"])
        engine.confirm(ids["region"], now=NOW, actor="human:bob")  # not yet seen by the pane
        await pilot.press("d")
        await decided(pilot)
        line = pane.status.plain
        assert "record_is_confirmed" in line and ids["region"] in line and "denied ·" not in line, line
        e = engine.load(ids["region"])
        assert e.status.value == "active" and e.verified is not None and e.verified.by == "human:bob"
        assert any("human:bob confirmed it" in n.message for n in app._notifications), [
            n.message for n in app._notifications
        ]


async def test_a_decision_on_marks_says_which_marked_records_it_left_out(sourced):
    """Three marked; one is denied elsewhere before `c`: the two still pending are confirmed, and the line says the
    third was left out (it said "2 marked records" and nothing of the third)."""
    app, _ = sourced
    engine = app.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        first, second, third = listed(pane)[:3]
        await pilot.press("space", "space", "space")
        assert pane.marked == {first, second, third}
        engine.deny(second, now=NOW, actor="human:bob")
        await pilot.press("c")
        await decided(pilot)
        assert engine.load(first).verified is not None and engine.load(third).verified is not None
        assert engine.load(second).status.value == "denied" and engine.load(second).verified is None
        line = pane.status.plain
        assert "2 marked records" in line, line
        assert f"1 marked record left out, no longer pending (decided elsewhere): {second}" in line, line


async def test_when_every_marked_record_was_decided_elsewhere_the_key_says_so(sourced):
    app, _ = sourced
    engine = app.engine
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        first = listed(pane)[0]
        await pilot.press("space")
        engine.deny(first, now=NOW, actor="human:bob")
        await pilot.press("c")
        await pilot.pause()
        assert app.undo_stack("verify") == []  # nothing was decided
        assert "1 marked record left out, no longer pending (decided elsewhere)" in pane.status.plain
        assert pane.marked == set() and first not in listed(pane)


async def test_an_expired_record_says_so_in_the_list_and_the_detail(tmp_path):
    """A temporary fact past its expiry, not yet archived by decay, is still pending: the list marks it and the
    detail says when it expired and what that means (it looked like any other pending record)."""
    engine = Engine.init(tmp_path / "w", now=NOW - timedelta(days=30))
    old = engine.capture(
        "This week the staging cluster is frozen for the audit.",
        now=NOW - timedelta(days=20),
        actor="agent:scribe",
        title="Staging freeze",
        source_ref="raw/week.md#L1",
    )
    fresh = engine.capture(
        "The release train leaves on Thursday this week.",
        now=NOW - timedelta(days=1),
        actor="agent:scribe",
        title="Release train",
        source_ref="raw/week.md#L2",
    )
    assert engine.load(old.details["memory_id"]).expires_at < NOW < engine.load(fresh.details["memory_id"]).expires_at
    engine.close()
    app = build_app(tmp_path / "w")
    async with app.run_test(size=(140, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        cells = {key: item for key, item in rows(pane)}
        assert str(pane.row_cells(cells[old.details["memory_id"]])[1]).startswith("expired Staging freeze")
        assert str(pane.row_cells(cells[fresh.details["memory_id"]])[1]) == "Release train"
        assert pane.table.select_key(old.details["memory_id"])
        await pilot.pause()
        detail = plain(pane.query_one("#verify-record"))
        assert "expired 6d ago: retrieval and the quiz leave it out" in " ".join(detail.split()), detail
        assert pane.table.select_key(fresh.details["memory_id"])
        await pilot.pause()
        detail = " ".join(plain(pane.query_one("#verify-record")).split())
        assert "expires 2026-12-12 09:00 (in 13d)" in detail, detail


async def test_a_refused_undo_names_the_decision_and_what_came_after_it(small):
    """Another person undenied the record the desk denied: `u` is refused. The line said "✗ reject · undo  ·
    superseded_by_later_decision", naming nothing, and the next `u` went on to an older decision unannounced."""
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(140, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.table.select_key(ids["pr"])
        await pilot.press("d")
        await decided(pilot)
        engine.undeny(ids["pr"], now=NOW, actor="human:other")
        await pilot.press("u")
        await decided(pilot)
        line = pane.status.plain
        assert f"undo deny {ids['pr']} · off the undo list: u undoes the one before" in line, line
        assert "superseded_by_later_decision" in line
        assert any("undeny by human:other" in n.message for n in app._notifications), [
            n.message for n in app._notifications
        ]


async def test_a_palette_command_the_pane_cannot_take_now_says_so(small):
    """The palette lists every action of a pane; "Undeny" chosen in the pending list did nothing and said nothing."""
    app, _ = small
    async with app.run_test(size=(140, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        await app.run_pane_action("verify", "undeny", "verify.undeny", "Undeny")
        await pilot.pause()
        assert pane.status.plain == "Undeny: not available here now."
        assert app.undo_stack("verify") == []

"""Receipts pane: a verified tail, newest first; tampering shows; the tail follows new receipts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.pilot import Pilot

from memkeeper.core.receipts import receipt_hash, verify_receipt
from memkeeper.tui.screens.receipts import MAX_JSON_LINES, ReceiptsScreen

from .conftest import both_sizes, mounted, settle, wait_for
from .snapshot_app import ACTOR, FIXED_NOW, build_app

pytestmark = pytest.mark.anyio

SIZE = (120, 34)


async def open_receipts(pilot: Pilot) -> ReceiptsScreen:
    await settle(pilot)
    await pilot.press("R")
    await mounted(pilot, ReceiptsScreen)
    screen = pilot.app.screen
    await wait_for(pilot, lambda: screen.loads >= 1, timeout=10.0, what="receipts loaded")
    await settle(pilot)
    return screen


def verdict(screen: ReceiptsScreen) -> str:
    return str(screen.query_one("#receipt-verdict").render())


def newest_receipt(root: Path) -> dict:
    last = sorted((root / "receipts").glob("*.jsonl"))[-1]
    return json.loads(last.read_text(encoding="utf-8").splitlines()[-1])


async def test_newest_first_and_verified(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        total = sum(1 for _ in app.engine.iter_receipts())
        assert len(screen.shown_rows) == total
        assert screen.shown_rows[0].sha == newest_receipt(demo_root)["receipt_sha256"]
        assert all(r.verified for r in screen.shown_rows)
        assert screen.table.cursor_row == 0
        assert "hash verified ✓" in verdict(screen)
        row = [str(c) for c in screen.table.get_row_at(0)]
        newest = newest_receipt(demo_root)
        assert row[1] == newest["action"] and row[2] == newest["status"] and row[3] == newest["actor"]
        assert row[4].startswith(newest["receipt_sha256"][:12]) and row[4].endswith("✓")
        assert json.loads(str(screen.query_one("#receipt-json").render())) == newest


async def test_tampered_receipt_shows_mismatch(demo_root: Path) -> None:
    # Someone edits a stored receipt by hand: the status changes, the stored hash does not.
    ledger = sorted((demo_root / "receipts").glob("*.jsonl"))[-1]
    lines = ledger.read_text(encoding="utf-8").splitlines()
    data = json.loads(lines[-1])
    data["status"] = "forged"
    assert not verify_receipt(data)
    lines[-1] = json.dumps(data, sort_keys=True, separators=(",", ":"))
    lines.append("{not json")
    ledger.write_text("\n".join(lines) + "\n", encoding="utf-8")

    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        bad_json, forged = screen.shown_rows[0], screen.shown_rows[1]
        assert bad_json.data is None and not bad_json.verified
        assert "not valid JSON ✗" in verdict(screen)
        await pilot.press("down")
        await pilot.pause()
        assert screen.selected() is forged and not forged.verified
        assert "hash MISMATCH ✗" in verdict(screen)
        assert str(screen.table.get_row_at(1)[4]).endswith("✗")
        assert "2 ✗" in screen.query_one("#receipts-list").border_title
        await pilot.press("down")
        await pilot.pause()
        assert "hash verified ✓" in verdict(screen)


async def test_tail_follows_new_receipts_and_keeps_a_moved_cursor(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        loads = screen.loads
        r1 = app.engine.capture(
            "The reading room closes at nine on Fridays during the winter.",
            now=FIXED_NOW,
            actor="agent:test",
            title="Reading room hours",
        )
        screen.refresh_data()
        await wait_for(pilot, lambda: screen.loads > loads)
        assert screen.shown_rows[0].sha == r1.receipt_sha256 and screen.table.cursor_row == 0  # followed
        await pilot.press("down", "down", "down")
        await pilot.pause()
        kept = screen.selected()
        loads = screen.loads
        app.engine.capture(
            "The reading room lends umbrellas when it rains in the afternoon.",
            now=FIXED_NOW,
            actor="agent:test",
            title="Reading room umbrellas",
        )
        screen.refresh_data()
        await wait_for(pilot, lambda: screen.loads > loads)
        assert screen.selected() == kept  # not yanked to the top
        await pilot.press("f")
        await pilot.pause()
        assert screen.table.cursor_row == 0


async def test_decision_in_another_pane_shows_in_the_tail(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        await pilot.press("C")
        await wait_for(pilot, lambda: app.current_mode == "conflicts")
        cid = app.engine.conflicts(now=FIXED_NOW)[0].conflict_id
        receipt = app.engine.resolve_conflict(cid, "incoming", now=FIXED_NOW, actor=app.actor)
        app.decision_made(receipt, "conflicts")
        await pilot.press("R")
        await wait_for(pilot, lambda: screen.shown_rows[0].sha == receipt.receipt_sha256, what="decision on top")
        assert "resolve_conflict" in str(screen.table.get_row_at(0)[1])


async def test_filter(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        await pilot.press("slash", *"quiz_record")
        await pilot.pause()
        assert screen.shown_rows and all(r.data["action"] == "quiz_record" for r in screen.shown_rows)
        await pilot.press("enter")
        assert app.focused is screen.query_one("#receipts-filter")  # focus stays in the box after a query
        await pilot.press("escape")
        await pilot.pause()
        assert len(screen.shown_rows) == len(screen.rows)


@both_sizes
def test_snapshot_receipts_selected(demo_root: Path, snap_compare, size) -> None:
    async def run_before(pilot: Pilot) -> None:
        await open_receipts(pilot)
        await pilot.press("down", "down")
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(build_app(demo_root), run_before=run_before, terminal_size=size)


async def test_tail_reads_appends_and_rereads_a_hand_edited_ledger(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        total = len(screen.rows)
        app.engine.capture("The heron rollout pauses on Fridays before the freeze.", now=FIXED_NOW, actor="agent:x")
        loads = screen.loads
        screen.refresh_data()
        await wait_for(pilot, lambda: screen.loads > loads, what="the tail")
        assert len(screen.rows) == total + 1 and screen.rows[0].data["action"] == "capture"
        # a hand edit of an old line: the whole ledger is read again, the forged row shows ✗, nothing is doubled
        ledger = sorted((demo_root / "receipts").glob("*.jsonl"))[-1]
        ledger.write_text(ledger.read_text(encoding="utf-8").replace('"status":"ok"', '"status":"OK"', 1))
        loads = screen.loads
        screen.refresh_data()
        await wait_for(pilot, lambda: screen.loads > loads, what="the re-read")
        assert len(screen.rows) == total + 1
        assert len({r.key for r in screen.rows}) == len(screen.rows)
        assert sum(not r.verified for r in screen.rows) == 1


@pytest.mark.parametrize("size", [(80, 24), (160, 45)], ids=["80x24", "160x45"])
async def test_the_columns_fit_the_table_once_the_rows_are_measured(demo_root: Path, size) -> None:
    """The flexible columns (subject, actor) take what the others leave once the table has measured its rows: fitted
    as the rows were added, they were given the room of columns still at their headers' width, and at 80x24 the
    table ran past its width, cutting time, action and status to "12-0", "captur"."""
    app = build_app(demo_root)
    async with app.run_test(size=size) as pilot:
        screen = await open_receipts(pilot)
        table = screen.table
        await pilot.pause()
        used = sum(c.get_render_width(table) for c in table.columns.values())
        room = table.content_region.width - table.styles.scrollbar_size_vertical
        assert used <= room


async def test_a_huge_receipt_shows_its_beginning_and_says_where_the_rest_is(demo_root: Path) -> None:
    """A receipt can be megabytes (a tier commit at 100k records lists 16k ids, each with its prior tier): drawn
    whole, its 98k lines of JSON froze the desk for half a minute and took 500 MB. The detail shows its first lines,
    says how much was left out and where the whole receipt is; the hash is still checked on all of it."""
    ledger = sorted((demo_root / "receipts").glob("*.jsonl"))[-1]
    ids = [f"mem_{i:016x}" for i in range(4000)]
    data = {
        "schema": "memkeeper.receipt.v1",
        "action": "tiers_commit",
        "status": "ok",
        "at": "2026-11-29T08:59:00Z",
        "actor": ACTOR,
        "details": {"automatic": ids, "undo": {"prior_tiers": {m: {"tier": "warm", "notes": 0} for m in ids}}},
    }
    data["receipt_sha256"] = receipt_hash(data)
    line = json.dumps(data, sort_keys=True, separators=(",", ":"))
    with ledger.open("a", encoding="utf-8") as fh:
        fh.write(line + "\n")
    number = len(ledger.read_text(encoding="utf-8").splitlines())

    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        assert screen.selected().sha == data["receipt_sha256"]  # the newest: selected on arrival
        assert "hash verified ✓" in verdict(screen)
        shown = str(screen.query_one("#receipt-json").render())
        assert len(shown.splitlines()) <= MAX_JSON_LINES + 3
        assert shown.startswith('{\n  "action": "tiers_commit"')
        assert f"line {number} of receipts/{ledger.name}" in shown
        assert f"{len(line) // 1024:,} KB" in shown

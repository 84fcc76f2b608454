"""Receipts pane: a verified tail, newest first; tampering shows; the tail follows new receipts."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest
from textual.pilot import Pilot

from memkeeper.core import Engine
from memkeeper.core.receipts import receipt_hash, verify_receipt
from memkeeper.tui.screens.modals import ConfirmModal
from memkeeper.tui.screens.receipts import MAX_JSON_LINES, ReceiptsScreen

from .conftest import both_sizes, decided, mounted, settle, wait_for
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
        row = [str(c) for c in screen.table.cells_at(0)]
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
        assert str(screen.table.cells_at(1)[4]).endswith("✗")
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
        await pilot.press("f")  # on the newest already: the key says so instead of doing nothing to see
        await pilot.pause()
        assert "On the newest" in str(screen.status.render())


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
        assert "resolve_conflict" in str(screen.table.cells_at(0)[1])


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
        widths = table._widths
        used = sum(widths[key] + 2 for _, key, _ in table.columns)  # each cell is padded by one on either side
        room = table.content_region.width - table.styles.scrollbar_size_vertical
        assert used <= room
        # The fixed columns hold what the rows put in them, uncut.
        for row in range(table.row_count):
            for (_, key, _), cell in zip(table.columns, table.cells_at(row), strict=True):
                if key in ("time", "action", "status", "receipt"):
                    assert len(str(cell)) <= widths[key], (key, str(cell))


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


async def test_a_long_history_is_listed_whole_and_the_filter_searches_all_of_it(demo_root: Path) -> None:
    """A wiki with a long history: every receipt is in the list (End reaches the oldest, which a 5,000-row cap
    left out), the list holds only the pages of rows it drew, and the filter finds a receipt far down the history."""
    ledger = demo_root / "receipts" / "2024-01-01.jsonl"  # older than every demo receipt
    lines = []
    for i in range(6000):
        data = {
            "schema": "memkeeper.receipt.v1",
            "action": "quiz_record",
            "status": "recorded",
            "at": f"2024-01-01T{i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z",
            "actor": ACTOR,
            "details": {"memory_id": f"mem_{i:016x}"},
        }
        data["receipt_sha256"] = receipt_hash(data)
        lines.append(json.dumps(data, sort_keys=True, separators=(",", ":")))
    ledger.write_text("\n".join(lines) + "\n", encoding="utf-8")

    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        total = sum(1 for _ in app.engine.iter_receipts())
        assert len(screen.shown_rows) == total > 6000
        assert screen.table.cached_rows <= 800  # the rows drawn, not the history
        await pilot.press("end")
        await pilot.pause()
        oldest = screen.selected()
        assert oldest is not None and oldest.key == f"receipts/{ledger.name}:1"
        assert "mem_0000000000000000" in str(screen.query_one("#receipt-json").render())
        await pilot.press("slash", *"mem_00000000000000a7")
        await wait_for(pilot, lambda: len(screen.shown_rows) == 1, what="the filter's one match")
        assert screen.selected().key == f"receipts/{ledger.name}:{0xA7 + 1}"
        assert screen.query_one("#receipts-list").border_title.startswith(f"Receipts 1 of {total}")


async def reload(pilot: Pilot, screen: ReceiptsScreen) -> None:
    loads = screen.loads
    await pilot.press("ctrl+r")
    await wait_for(pilot, lambda: screen.loads > loads, timeout=10.0, what="the reload")
    await settle(pilot)


async def test_a_reload_shows_what_a_new_desk_would_after_receipts_were_removed(demo_root: Path) -> None:
    """The tail merged re-read rows by "<file>:<line>": a line removed from a ledger left the file's last receipt
    listed twice (under its old and new line numbers) and the count unchanged, and a deleted ledger's rows stayed.
    The pane that is meant to show tampering hid a removal until the desk was opened again."""
    files = sorted((demo_root / "receipts").glob("*.jsonl"))
    newest, oldest = files[-1], files[0]
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        total = len(screen.rows)
        lines = newest.read_text(encoding="utf-8").splitlines(keepends=True)
        removed = json.loads(lines.pop(3))["receipt_sha256"]
        newest.write_text("".join(lines), encoding="utf-8")
        await reload(pilot, screen)
        shas = [r.sha for r in screen.rows]
        assert len(screen.rows) == total - 1 and removed not in shas
        assert len(set(shas)) == len(shas)  # nothing listed twice
        assert screen.query_one("#receipts-list").border_title == f"Receipts {total - 1}"

        gone = sum(1 for line in oldest.read_text(encoding="utf-8").splitlines() if line.strip())
        oldest.unlink()
        await reload(pilot, screen)
        assert not [r for r in screen.rows if r.key.startswith(f"receipts/{oldest.name}:")]
        assert len(screen.rows) == total - 1 - gone

        newest.write_text("", encoding="utf-8")  # emptied, not deleted
        await reload(pilot, screen)
        assert not [r for r in screen.rows if r.key.startswith(f"receipts/{newest.name}:")]
        after = [(r.key, r.sha) for r in screen.rows]

    fresh = build_app(demo_root)
    async with fresh.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        assert [(r.key, r.sha) for r in screen.rows] == after


async def deny_and_undo(pilot: Pilot, screen: ReceiptsScreen):
    app = pilot.app
    mid = app.engine.pending_verifications(1)[0].memory_id
    deny = app.engine.deny(mid, now=FIXED_NOW, actor=ACTOR)
    undo = app.engine.undo(deny.receipt_sha256, now=FIXED_NOW, actor=ACTOR)
    assert undo.status == "undone" and app.engine.undone_by(deny.receipt_sha256) == undo.receipt_sha256
    await reload(pilot, screen)
    return mid, deny, undo


async def test_an_undone_decision_reads_undone(demo_root: Path) -> None:
    """An undone denial read "deny · denied ✓" like one in force, its detail the JSON alone."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        mid, deny, undo = await deny_and_undo(pilot, screen)
        index = next(i for i, r in enumerate(screen.shown_rows) if r.sha == deny.receipt_sha256)
        assert str(screen.table.cells_at(index)[2]) == "undone"
        assert str(screen.table.cells_at(index)[5]) == mid
        screen.table.move_cursor(index)
        await pilot.pause()
        assert f"undone by undo receipt {undo.receipt_sha256}" in verdict(screen)
        # the undo receipt itself, and every decision not undone, read as before
        assert screen.shown_rows[0].sha == undo.receipt_sha256 and str(screen.table.cells_at(0)[2]) == "undone"
        statuses = [str(screen.table.cells_at(i)[2]) for i in range(len(screen.shown_rows))]
        assert statuses.count("undone") == 2


async def test_newest_first_is_commit_order_after_a_clock_set_back(tmp_path: Path) -> None:
    """Exploratory pass, 2026-12-05: a deny at 00:30 UTC, then an undeny with the clock set back to 23:40 the day
    before, and the pane listed the undeny (the decision in effect, which undo knows came last) below the capture,
    as the oldest row: it ordered by (file date, line). It lists in commit order, as the engine's undo reads, on
    opening and as new receipts come in."""
    at = partial(datetime, tzinfo=UTC)
    engine = Engine.init(tmp_path / "wiki", now=at(2026, 10, 25, 0, 0))
    try:
        mid = engine.capture("The billing service uses Postgres 16 for its ledger.", now=at(2026, 10, 25, 0, 10))
        memory_id = mid.details["memory_id"]
        deny = engine.deny(memory_id, now=at(2026, 10, 25, 0, 30), actor=ACTOR)
        undeny = engine.undeny(memory_id, now=at(2026, 10, 24, 23, 40), actor=ACTOR)  # the clock set back an hour
        assert undeny.status == "undenied"
    finally:
        engine.close()
    app = build_app(tmp_path / "wiki", now=lambda: at(2026, 10, 25, 1, 0))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        newest_first = [undeny.receipt_sha256, deny.receipt_sha256, mid.receipt_sha256]
        assert [r.sha for r in screen.shown_rows] == newest_first
        again = app.engine.deny(memory_id, now=at(2026, 10, 24, 23, 50), actor=ACTOR)  # still an hour behind
        await reload(pilot, screen)
        assert [r.sha for r in screen.shown_rows] == [again.receipt_sha256, *newest_first]
        later = app.engine.undeny(memory_id, now=at(2026, 10, 25, 1, 5), actor=ACTOR)  # the clock right again
        await reload(pilot, screen)
        assert [r.sha for r in screen.shown_rows] == [later.receipt_sha256, again.receipt_sha256, *newest_first]
        last = app.engine.deny(memory_id, now=at(2026, 10, 24, 23, 55), actor=ACTOR)  # and back once more
        await reload(pilot, screen)
        assert [r.sha for r in screen.shown_rows][:3] == [
            last.receipt_sha256,
            later.receipt_sha256,
            again.receipt_sha256,
        ]


async def test_the_filter_finds_what_a_row_shows(demo_root: Path) -> None:
    """The filter searched neither the memory id the subject column shows (0 rows) nor the receipt an undo
    reverses."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        mid, deny, undo = await deny_and_undo(pilot, screen)
        await pilot.press("slash", *mid)
        await pilot.pause()
        assert deny.receipt_sha256 in [r.sha for r in screen.shown_rows]
        assert all(mid in r.haystack() for r in screen.shown_rows)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("slash", *deny.receipt_sha256[:12])
        await pilot.pause()
        assert {r.sha for r in screen.shown_rows} == {deny.receipt_sha256, undo.receipt_sha256}


# -- undo from the Receipts pane -------------------------------------------------------------------------------------

YESTERDAY = FIXED_NOW + timedelta(minutes=14)  # the decision, taken in an earlier desk session
TODAY = FIXED_NOW + timedelta(days=1)  # the clock of the desk that undoes it


def receipt_count(root: Path) -> int:
    return sum(1 for f in (root / "receipts").glob("*.jsonl") for line in f.read_text("utf-8").splitlines() if line)


async def select(pilot: Pilot, screen: ReceiptsScreen, sha: str) -> int:
    index = next(i for i, r in enumerate(screen.shown_rows) if r.sha == sha)
    screen.table.move_cursor(index)
    await pilot.pause()
    assert screen.selected().sha == sha
    return index


def status_text(screen: ReceiptsScreen) -> str:
    return str(screen.status.render())


def resolve_in_an_earlier_session(root: Path) -> tuple[str, str, str]:
    """Take incoming on the first open conflict through the engine, as a desk closed since did: (conflict id, the
    existing side's memory id, the resolution's receipt hash)."""
    engine = Engine.open(root)
    try:
        conflict = engine.conflicts(now=YESTERDAY)[0]
        existing = conflict.existing["memory_id"]
        assert engine.get(existing).status.value == "active"
        receipt = engine.resolve_conflict(conflict.conflict_id, "incoming", now=YESTERDAY, actor=ACTOR)
        assert receipt.ok and engine.get(existing).status.value == "superseded"
        return conflict.conflict_id, existing, receipt.receipt_sha256
    finally:
        engine.close()


async def test_u_undoes_a_decision_taken_before_the_desk_restarted(demo_root: Path) -> None:
    """After a restart the panes' undo stacks are empty (`u` in Conflicts: "Nothing to undo"): the Receipts pane
    undoes the selected decision, after a dialog naming it, and the row then reads "undone" with the cursor on it."""
    cid, existing, sha = resolve_in_an_earlier_session(demo_root)
    app = build_app(demo_root, now=lambda: TODAY)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("C")  # started, so the undo has a pane to tell
        await wait_for(pilot, lambda: app.current_mode == "conflicts" and app.screen.is_mounted)
        screen = await open_receipts(pilot)
        assert not app.is_stale("conflicts")
        index = await select(pilot, screen, sha)
        before = receipt_count(demo_root)

        await pilot.press("u")
        await mounted(pilot, ConfirmModal)
        dialog = app.screen
        assert dialog.title_text == f"Undo resolve_conflict {cid} of 2026-11-29 09:14?"
        assert "Taken 23 hours ago by human:demo" in str(dialog.query_one(".modal-message").render())
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is screen, what="the dialog to close")
        await decided(pilot)
        await wait_for(pilot, lambda: screen.rows[0].data["action"] == "undo", what="the undo in the tail")
        await settle(pilot)

        # the conflict is open again and the existing side active, as before the resolution
        assert app.engine.load_conflict(cid).status == "open"
        assert cid in [c.conflict_id for c in app.engine.conflicts(now=TODAY)]
        assert app.engine.get(existing).status.value == "active"
        undo = screen.rows[0].data
        assert undo["details"]["reverses"] == sha and undo["status"] == "undone" and undo["at"].startswith("2026-11-30")
        assert app.engine.undone_by(sha) == undo["receipt_sha256"]
        assert receipt_count(demo_root) == before + 1
        # the row reads undone, and the cursor stayed on it (one row down: the undo is the newest)
        assert screen.selected().sha == sha and screen.table.cursor_row == index + 1
        assert str(screen.table.cells_at(index + 1)[2]) == "undone"
        assert "✓ undone · undo resolve_conflict" in status_text(screen)
        assert app.is_stale("conflicts")  # the other panes re-read when shown

        # pressed again on the same row, it says it is undone already; on the undo receipt, that an undo cannot be
        await pilot.press("u")
        await pilot.pause()
        assert "Already undone" in status_text(screen) and isinstance(app.screen, ReceiptsScreen)
        await select(pilot, screen, undo["receipt_sha256"])
        await pilot.press("u")
        await pilot.pause()
        assert "An undo cannot itself be undone" in status_text(screen) and isinstance(app.screen, ReceiptsScreen)
        assert receipt_count(demo_root) == before + 1


def demo_resolution(screen: ReceiptsScreen) -> str:
    """The hash of the demo's one conflict resolution (a decision nothing later superseded)."""
    return next(r.sha for r in screen.shown_rows if r.data and r.data["action"] == "resolve_conflict")


async def test_u_then_no_writes_nothing(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        sha = demo_resolution(screen)
        cid = app.engine.find_receipt(sha)["details"]["conflict_id"]
        await select(pilot, screen, sha)
        before = receipt_count(demo_root)
        for cancel in ("n", "escape"):
            screen.say("")
            await pilot.press("u")
            await mounted(pilot, ConfirmModal)
            await pilot.press(cancel)
            await wait_for(pilot, lambda: "cancelled, nothing written" in status_text(screen), what=cancel)
            assert app.screen is screen and not screen.deciding
        await settle(pilot)
        assert receipt_count(demo_root) == before
        assert app.engine.undone_by(sha) is None and app.engine.load_conflict(cid).status == "resolved"


async def test_u_on_a_receipt_that_is_no_decision_says_why_and_writes_nothing(demo_root: Path) -> None:
    # A quiz answer (a decision) edited by hand, and a line that is not JSON: neither can be undone either.
    ledgers = sorted((demo_root / "receipts").glob("*.jsonl"))
    every = [line for f in ledgers for line in f.read_text(encoding="utf-8").splitlines()]
    forged = json.loads(next(line for line in every if '"action":"quiz_record"' in line))
    forged["details"]["box"] = 5
    with ledgers[-1].open("a", encoding="utf-8") as fh:
        fh.write(f"{json.dumps(forged)}\n{{not json\n")
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        before = receipt_count(demo_root)

        async def says(index: int, why: str) -> None:
            screen.table.move_cursor(index)
            await pilot.pause()
            undo_key = {b.binding.id: b for b in screen.active_bindings.values()}["receipts.undo"]
            assert not undo_key.enabled  # dimmed in the footer on this row
            await pilot.press("u")
            await pilot.pause()
            assert app.screen is screen  # no dialog
            assert why in status_text(screen)

        await says(0, "not valid JSON")
        await says(1, "hash does not match")
        capture = next(i for i, r in enumerate(screen.shown_rows) if r.data and r.data["action"] == "capture")
        await says(capture, "This capture receipt cannot be undone")
        await select(pilot, screen, demo_resolution(screen))
        assert {b.binding.id: b for b in screen.active_bindings.values()}["receipts.undo"].enabled
        assert receipt_count(demo_root) == before


async def test_u_on_a_run_that_changed_nothing_says_so_and_offers_no_undo(empty_root: Path) -> None:
    """A consolidate with nothing to merge (run from the command line) writes a receipt that keeps nothing to put
    back: `u` on it opened the dialog and the engine refused the undo as `not_undoable`. It is dimmed and says why,
    as the engine decides (`undo.keeps_a_reversal`)."""
    engine = Engine.open(empty_root)
    try:
        r = engine.consolidate(now=FIXED_NOW, actor=ACTOR)
        assert r.ok and r.details["count"] == 0 and not engine.can_undo(r)
    finally:
        engine.close()
    app = build_app(empty_root)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        await select(pilot, screen, r.receipt_sha256)
        assert not {b.binding.id: b for b in screen.active_bindings.values()}["receipts.undo"].enabled
        await pilot.press("u")
        await pilot.pause()
        assert app.screen is screen  # no dialog
        assert "This consolidate changed nothing" in status_text(screen)
        assert receipt_count(empty_root) == 1


async def test_u_on_a_decision_a_later_one_superseded_shows_the_refusal(demo_root: Path) -> None:
    """Deny, then undeny the same record: undoing the deny would lift a denial the undeny already lifted. The engine
    refuses; the desk shows its reason and which later decision to undo first, and nothing changes."""
    engine = Engine.open(demo_root)
    try:
        mid = engine.pending_verifications(1)[0].memory_id
        deny = engine.deny(mid, now=YESTERDAY, actor=ACTOR)
        undeny = engine.undeny(mid, now=YESTERDAY + timedelta(minutes=1), actor=ACTOR)
        assert deny.ok and undeny.ok
    finally:
        engine.close()
    app = build_app(demo_root, now=lambda: TODAY)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await open_receipts(pilot)
        status = app.engine.get(mid).status
        before = receipt_count(demo_root)
        await select(pilot, screen, deny.receipt_sha256)
        await pilot.press("u")
        await mounted(pilot, ConfirmModal)
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is screen, what="the dialog to close")
        await decided(pilot)
        await settle(pilot)
        assert "superseded_by_later_decision" in status_text(screen)
        toast = [n.message for n in app._notifications if "superseded_by_later_decision" in n.message]
        assert toast and f"undeny by {ACTOR}" in toast[0] and undeny.receipt_sha256[:12] in toast[0], toast
        assert receipt_count(demo_root) == before and app.engine.undone_by(deny.receipt_sha256) is None
        assert app.engine.get(mid).status == status
        assert screen.selected().sha == deny.receipt_sha256 and not screen.selected().undone_by


async def test_undone_here_it_leaves_the_undo_list_of_the_pane_that_decided(demo_root: Path) -> None:
    """A decision taken in Conflicts and undone from Receipts was still on Conflicts' undo list: its `u` then asked
    the engine to undo it a second time (refused, already_undone) instead of saying there was nothing to undo."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("C")
        await wait_for(pilot, lambda: app.current_mode == "conflicts" and app.screen.is_mounted)
        await settle(pilot)
        conflicts = app.screen
        await pilot.press("i")
        await decided(pilot)
        [resolved] = app.undo_stack("conflicts")
        screen = await open_receipts(pilot)
        await select(pilot, screen, resolved.receipt_sha256)
        await pilot.press("u")
        await mounted(pilot, ConfirmModal)
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is screen)
        await decided(pilot)
        await settle(pilot)
        assert app.engine.undone_by(resolved.receipt_sha256)
        await pilot.press("C")
        await wait_for(pilot, lambda: app.screen is conflicts)
        await settle(pilot)
        await pilot.press("u")
        await pilot.pause()
        assert "Nothing to undo in this pane." in str(conflicts.status.render())


async def test_the_undo_key_can_be_remapped(demo_root: Path, tmp_path: Path) -> None:
    keymap = tmp_path / "keys.toml"
    keymap.write_text('[keys]\n"receipts.undo" = "ctrl+z"\n', encoding="utf-8")
    app = build_app(demo_root, keymap=str(keymap))
    assert app.keymap.errors == []
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_receipts(pilot)
        assert app.key_for("receipts.undo") == "^z"
        assert "^z undoes the selected decision" in screen.status.plain
        await select(pilot, screen, demo_resolution(screen))
        await pilot.press("u")  # no longer bound
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("ctrl+z")
        await mounted(pilot, ConfirmModal)
        assert "resolve_conflict" in app.screen.title_text

"""The app shell: pane switching, the command palette, decisions/undo, staleness, the watcher, run_app, snapshots."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from textual.command import CommandPalette

from memkeeper.core import Engine
from memkeeper.tui.app import PANES, MemkeeperApp, MemkeeperCommands, run_app
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.help import HelpScreen
from memkeeper.tui.screens.modals import ConfirmModal, InputModal
from memkeeper.tui.widgets.status_line import StatusLine

from .conftest import both_sizes, decided, mounted, settle, wait_for
from .snapshot_app import ACTOR, FIXED_NOW, build_app

pytestmark = pytest.mark.anyio

SIZE = (120, 34)
PANE_KEYS = {"browse": "B", "conflicts": "C", "verify": "V", "quiz": "Q", "tiers": "T", "receipts": "R"}


def notifications(app: MemkeeperApp) -> list[str]:
    return [n.message for n in app._notifications]


# ------------------------------------------------------------------------------------------------ panes


async def test_every_pane_has_one_key(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.current_mode == "browse"
        for pane in ("conflicts", "verify", "quiz", "tiers", "receipts", "browse"):
            await pilot.press(PANE_KEYS[pane])
            await wait_for(pilot, lambda p=pane: app.current_mode == p, what=f"pane {pane}")
            assert app.current_pane() is not None and app.current_pane().PANE_ID == pane


async def test_a_theme_change_styles_open_panes_and_panes_opened_after_it(demo_root: Path) -> None:
    """Panes skip Textual's whole-app restyle on their first visit (it made that visit several times slower); a
    theme chosen before a pane is first opened must still colour it, and the pane already open must follow."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dark = app.screen.styles.background
        app.theme = "textual-light"
        await settle(pilot)
        light = app.get_theme("textual-light").background
        assert app.screen.styles.background != dark
        assert app.screen.styles.background.hex == light.upper()
        for pane in ("conflicts", "verify", "quiz", "tiers", "receipts"):
            await pilot.press(PANE_KEYS[pane])
            await wait_for(pilot, lambda p=pane: app.current_mode == p, what=f"pane {pane}")
            await settle(pilot)
            assert app.screen.styles.background.hex == light.upper(), pane
            assert app.screen.query_one("DeskFooter").styles.background != dark


async def test_clicking_a_tab_switches_pane(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.click("#tab-verify")
        await wait_for(pilot, lambda: app.current_mode == "verify")
        assert "-active" in app.screen.query_one("#tab-verify").classes


@pytest.mark.long
async def test_brackets_cycle_panes(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen = [app.current_mode]
        for _ in PANES:
            await pilot.press("right_square_bracket")
            await pilot.pause()
            seen.append(app.current_mode)
        assert seen == [*PANES, "browse"]
        await pilot.press("left_square_bracket")
        await pilot.pause()
        assert app.current_mode == "receipts"


async def test_command_palette_switches_pane(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: CommandPalette.is_open(app), what="palette")
        await pilot.press(*"go to receipts")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.current_mode == "receipts", what="receipts pane")


async def test_command_palette_lists_every_action(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        provider = MemkeeperCommands(app.screen)
        names = [name for name, _, _ in provider._commands()]
        for pane in ("Browse", "Conflicts", "Verify", "Quiz", "Tiers", "Receipts"):
            assert f"Go to {pane}" in names
        assert "Browse: Search" in names
        assert "Receipts: Copy hash" in names
        assert "App: Help" in names
        # Every binding with an id and a description anywhere in the desk has a palette entry.
        helps = " ".join(h for _, h, _ in provider._commands())
        for cls in MemkeeperApp.binding_classes()[:7]:
            for b in cls._merge_bindings().key_to_bindings.values():
                for binding in b:
                    if binding.id and binding.description and binding.id != "app.command_palette":
                        assert binding.id in helps, binding.id


async def test_palette_runs_a_pane_action(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await wait_for(pilot, lambda: app.current_mode == "receipts")
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: CommandPalette.is_open(app))
        await pilot.press(*"browse: search")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.current_mode == "browse")
        await wait_for(pilot, lambda: app.screen.query_one("#search-panel").display, what="search panel")


async def test_a_decision_chosen_in_the_palette_from_another_pane_only_opens_its_pane(demo_root: Path) -> None:
    """ "Conflicts: Keep existing" chosen from Receipts would decide a conflict the person never saw: it opens
    Conflicts and says which key decides the one under the cursor; nothing is resolved. From Conflicts, it runs."""
    app = build_app(demo_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        before = [(c.conflict_id, c.status) for c in app.engine.conflicts(include_resolved=True)]

        async def palette(command: str) -> None:
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: CommandPalette.is_open(app))
            await pilot.press(*command)
            await pilot.pause(0.3)
            await pilot.press("enter")

        await pilot.press("R")
        await wait_for(pilot, lambda: app.current_mode == "receipts")
        await palette("conflicts: keep existing")
        await wait_for(pilot, lambda: app.current_mode == "conflicts")
        await settle(pilot)
        assert [(c.conflict_id, c.status) for c in app.engine.conflicts(include_resolved=True)] == before
        assert any("press k to keep existing" in m for m in notifications(app))
        await palette("conflicts: keep existing")  # now in Conflicts, with the conflict on screen: it runs
        await decided(pilot)
        await settle(pilot)
        assert [(c.conflict_id, c.status) for c in app.engine.conflicts(include_resolved=True)] != before


# ------------------------------------------------------------------------------------------------ decisions / undo


def _first_conflict(app: MemkeeperApp) -> str:
    return app.engine.conflicts(now=FIXED_NOW)[0].conflict_id


async def test_a_decision_shows_in_the_status_line_without_a_toast_and_undo_reverses_it(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        before = app.counts["open_conflicts"]
        await pilot.press("C")
        await wait_for(pilot, lambda: app.current_mode == "conflicts")
        await settle(pilot)
        pane = app.screen
        await pilot.press("k")
        await decided(pilot)
        receipt = app.undo_stack("conflicts")[-1]
        assert receipt.ok and receipt.action == "resolve_conflict"
        status = pane.query_one(StatusLine)
        assert status.plain.startswith(f"✓ {receipt.status} · ") and receipt.receipt_sha256[:12] in status.plain
        assert "u undo" in status.plain
        await wait_for(
            pilot,
            lambda: app.counts_settled and app.counts["open_conflicts"] == before - 1,
            what="counts after the decision",
        )
        assert notifications(app) == []  # toasts are for errors only

        await pilot.press("u")  # the pane's undo takes the newest receipt off the pane's stack
        await decided(pilot)
        assert app.undo_stack("conflicts") == []
        undone = app.engine.find_receipt(app.engine.undone_by(receipt.receipt_sha256) or "")
        assert undone is not None and undone["status"] == "undone"
        assert status.plain.startswith("✓ undone · undo resolve_conflict")
        assert undone["receipt_sha256"][:12] in status.plain
        await wait_for(
            pilot, lambda: app.counts_settled and app.counts["open_conflicts"] == before, what="counts after the undo"
        )
        await pilot.press("u")
        assert not app.screen.deciding
        assert "Nothing to undo" in status.plain
        assert notifications(app) == []


async def test_refused_decision_is_an_error_and_not_undoable(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        refused = app.engine.resolve_conflict(_first_conflict(app), "existing", now=app.now(), actor="agent:bot")
        assert refused.status in ("refused", "reject")
        app.decision_made(refused, "conflicts")
        assert app.undo_stack("conflicts") == []
        await wait_for(pilot, lambda: any("nothing recorded" in m for m in notifications(app)))
        last = list(app._notifications)[-1]
        assert last.severity in ("error", "warning")
        # A refused decision wrote nothing, its receipt included: a hash there sent `undo` looking for a receipt
        # that was never recorded.
        assert refused.receipt_sha256[:12] not in last.message


async def test_decisions_mark_other_started_panes_stale(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await wait_for(pilot, lambda: app.current_mode == "receipts" and app.screen.loads >= 1)
        await pilot.press("C")
        await wait_for(pilot, lambda: app.current_mode == "conflicts")
        receipt = app.engine.resolve_conflict(_first_conflict(app), "both", now=app.now(), actor=app.actor)
        app.decision_made(receipt, "conflicts")
        assert app.is_stale("receipts") and app.is_stale("browse")
        assert not app.is_stale("conflicts")
        assert not app.is_stale("quiz")  # never opened: it reads fresh data when it first mounts
        await pilot.press("R")
        await wait_for(pilot, lambda: not app.is_stale("receipts"))
        screen = app.screen
        await wait_for(
            pilot,
            lambda: screen.shown_rows and screen.shown_rows[0].sha == receipt.receipt_sha256,
            what="the decision at the top of the receipts tail",
        )


# ------------------------------------------------------------------------------------------------ help, modals


async def test_help_lists_live_keys_with_ids(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = app.screen.rows()
        assert ("browse", "/", "Search", "browse.search") in rows
        assert any(r[3] == "app.conflicts" and r[1] == "C" for r in rows)
        assert any(r[3] == "app.help" for r in rows)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, HelpScreen))


async def test_confirm_modal_dismisses_with_choice(demo_root: Path) -> None:
    app = build_app(demo_root)
    results: list[bool | None] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.push_screen(ConfirmModal("Apply?", "3 pages go cold.", confirm_label="Apply"), results.append)
        await pilot.pause()
        await pilot.press("y")
        await wait_for(pilot, lambda: results == [True])
        app.push_screen(ConfirmModal("Apply?", "again"), results.append)
        await pilot.pause()
        await pilot.press("escape")
        await wait_for(pilot, lambda: results == [True, False])


async def test_input_modal_validates(demo_root: Path) -> None:
    app = build_app(demo_root)
    results: list[str | None] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        modal = InputModal(
            "Snooze until",
            placeholder="YYYY-MM-DD",
            validate=lambda t: None if t.startswith("2026") else "not a 2026 date",
        )
        app.push_screen(modal, results.append)
        await pilot.pause()
        await pilot.press(*"tomorrow", "enter")
        await pilot.pause()
        assert results == [] and "not a 2026 date" in str(modal.query_one("#dialog-error").render())
        modal.query_one("Input").value = ""
        await pilot.press(*"2026-12-01", "enter")
        await wait_for(pilot, lambda: results == ["2026-12-01"])


async def test_a_long_dialog_keeps_its_buttons_and_input_on_screen(demo_root: Path) -> None:
    """A dialog is at most 90% of the screen: at 80x24 a long message (an apply's list of ids) pushed the buttons
    past the dialog's bottom border, where they were cut off. The message scrolls instead; on a tall screen it is
    shown whole."""
    app = build_app(demo_root)
    long = "\n".join(f"✓ {n:012x}  a page that would go cold" for n in range(40))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for modal, widget in (
            (ConfirmModal("Apply tier review?", long, confirm_label="Apply"), "#cancel"),
            (InputModal("Snooze until", long, placeholder="YYYY-MM-DD"), "#dialog-hint"),
        ):
            app.push_screen(modal)
            await pilot.pause()
            await pilot.pause()
            dialog = modal.query_one("#dialog").content_region
            for selector in ("#dialog-title", widget):
                shown = modal.query_one(selector).region
                assert dialog.y <= shown.y and shown.bottom <= dialog.bottom, selector
            body = modal.query_one("#dialog-body")
            assert body.max_scroll_y > 0
            await pilot.resize_terminal(160, 60)
            await pilot.pause()
            await pilot.pause()
            assert body.max_scroll_y == 0
            await pilot.press("escape")
            await pilot.resize_terminal(80, 24)
            await pilot.pause()


# ------------------------------------------------------------------------------------------------ contract


async def test_contract_attributes(demo_root: Path) -> None:
    app = MemkeeperApp(demo_root, actor="human:alice", watch=False)
    assert app.person == "alice"
    assert isinstance(app.session_id, str) and len(app.session_id) >= 8
    assert app.now().tzinfo is not None
    fixed = build_app(demo_root)
    assert fixed.now() == FIXED_NOW and fixed.actor == ACTOR
    app.engine.close()
    fixed.engine.close()


def test_run_app_bad_root_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_app(tmp_path / "missing", actor=ACTOR) == 2
    err = capsys.readouterr().err
    assert err.startswith("memkeeper: ") and len(err.strip().splitlines()) == 1


def test_run_app_bad_keymap_exits_2(demo_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_app(demo_root, actor=ACTOR, keymap="no-such-preset") == 2
    assert "unknown keymap" in capsys.readouterr().err


def test_run_app_bad_actor_exits_2(demo_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_app(demo_root, actor="nobody", keymap=None) == 2
    assert "invalid actor" in capsys.readouterr().err


def test_tui_package_never_writes_wiki_files() -> None:
    tui = Path(__file__).resolve().parents[2] / "tui"
    offenders = []
    for path in tui.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for needle in ("write_text(", "write_bytes(", "os.replace(", "'w')", '"w")', "'a')", '"a")', "shutil."):
            if needle in text:
                offenders.append(f"{path.name}: {needle}")
    assert offenders == []


# ------------------------------------------------------------------------------------------------ watcher


async def test_the_start_reconciliation_recounts_only_when_it_read_a_changed_page(demo_root: Path) -> None:
    """The desk first shows the index as it was, then reads every page in a worker. When every page is as the
    index had it, nothing is counted or reloaded again after the reading (the header's tier count runs once); a
    page archived by hand in place while the desk was closed is counted once the reading has found it."""
    seen: list[tuple[int, int]] = []
    for edit in (False, True):
        if edit:
            page = next(
                p
                for p in sorted((demo_root / "entries").glob("*.md"))
                if "\nstatus: active\n" in p.read_text(encoding="utf-8")
            )
            with open(page, "r+", encoding="utf-8") as f:  # in place: the folder and log.md are untouched
                text = f.read().replace("\nstatus: active\n", "\nstatus: archived\n", 1)
                f.seek(0)
                f.write(text)
                f.truncate()
        engine = Engine.open(demo_root, sync=False)
        tier_counts = []
        counts = engine.counts

        def counting(now, *, _counts=counts, _calls=tier_counts, **kw):
            if kw.get("with_tiers", True):
                _calls.append(now)
            return _counts(now, **kw)

        engine.counts = counting  # type: ignore[method-assign]
        app = build_app(demo_root, engine=engine)
        async with app.run_test(size=SIZE) as pilot:
            await wait_for(pilot, lambda app=app: app.engine.synced, timeout=15, what="the start's reconciliation")
            await settle(pilot)
            seen.append((len(tier_counts), app.counts["records"]))
    (unchanged_counts, records), (edited_counts, records_after_edit) = seen
    assert unchanged_counts == 1
    assert records_after_edit == records - 1 and edited_counts == 2


async def test_watcher_shows_a_capture_from_another_process(demo_root: Path) -> None:
    app = build_app(demo_root, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.counts_settled, timeout=10)
        browse = app.screen
        await wait_for(pilot, lambda: "Hot" in browse.markdown.source)
        records_before = app.counts["records"]
        commitments_before = _active_in_category(browse, "commitment")
        # Another process: the CLI, through its own engine, with its own lock.
        title = "Zeppelin hangar lease"
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "memkeeper.tui.cli",
                "--root",
                str(demo_root),
                "--as",
                "agent:other-process",
                "--now",
                "2026-11-29T10:00:00Z",
                "capture",
                "The Zeppelin hangar lease renews on the first of March every year.",
                "--title",
                title,
                "--category",
                "commitment",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        await wait_for(pilot, lambda: title in browse.markdown.source, timeout=5, what="hot.md to show the capture")
        await wait_for(
            pilot,
            lambda: _active_in_category(browse, "commitment") == commitments_before + 1,
            timeout=5,
            what="the category count in the tree",
        )
        await wait_for(pilot, lambda: app.counts_settled and app.counts["records"] == records_before + 1, timeout=5)
        # Receipts pane opened afterwards shows it on top.
        await pilot.press("R")
        await wait_for(
            pilot,
            lambda: (
                app.screen.loads >= 1
                and app.screen.shown_rows[0].data["details"].get("page", "").startswith("entries/zeppelin")
            ),
            timeout=5,
            what="the capture receipt on top",
        )
        # And while Receipts is the active pane, a second write is tailed in place.
        second = Engine.open(demo_root)
        try:
            r = second.capture(
                "The Zeppelin hangar has a second bay for the small airship from April.",
                now=FIXED_NOW.replace(hour=11),
                actor="agent:other-process",
                title="Zeppelin second bay",
            )
        finally:
            second.close()
        await wait_for(
            pilot,
            lambda: app.screen.shown_rows[0].sha == r.receipt_sha256,
            timeout=5,
            what="the second capture tailed live",
        )
        assert app.screen.table.cursor_row == 0


async def test_watcher_ignores_the_echo_of_our_own_decisions(demo_root: Path) -> None:
    app = build_app(demo_root, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        # (every worker done, the desk's first reconciliation too: under load it ended after the counts and
        # reloaded the pane, which read as a refresh for our echo)
        await settle(pilot)
        browse = app.screen
        calls: list[int] = []
        original = browse.refresh_data
        browse.refresh_data = lambda: (calls.append(1), original())[1]  # type: ignore[method-assign]
        events = app.watch_events
        receipt = app.engine.resolve_conflict(_first_conflict(app), "both", now=app.now(), actor=app.actor)
        app.decision_made(receipt, "browse")
        await wait_for(pilot, lambda: app.watch_events > events, timeout=5, what="the watcher to see our write")
        assert calls == []
        events = app.watch_events
        other = Engine.open(demo_root)
        try:
            other.capture(
                "The loading dock opens at six for deliveries from the north gate.",
                now=FIXED_NOW,
                actor="agent:other-process",
                title="Loading dock hours",
            )
        finally:
            other.close()
        await wait_for(pilot, lambda: app.watch_events > events and calls, timeout=5, what="a refresh for theirs")


async def test_the_watcher_does_not_rescan_the_wiki_after_our_own_decisions(demo_root: Path) -> None:
    """A full sync stats every page: at 100k records 1.2-2.4 s of the desk's CPU after every decision, beside the
    person's next keys (a Verify decision's receipt came 3x later at a steady pace). The engine has indexed what
    the desk wrote, so after the echo of our own decision the watcher re-checks only the pages the change names;
    a page edited by hand in the same moment is still read."""
    app = build_app(demo_root, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.counts_settled, timeout=10)
        scans: list[int] = []
        original = app.engine.sync
        app.engine.sync = lambda *a, **k: (scans.append(1), original(*a, **k))[1]  # type: ignore[method-assign]
        await pilot.press("C")
        await mounted(pilot, ConflictsScreen)
        await settle(pilot)
        events = app.watch_events
        await pilot.press("b")
        await decided(pilot)
        await wait_for(pilot, lambda: app.watch_events > events, timeout=5, what="the watcher to see our write")
        await settle(pilot)
        assert scans == []
        # A page edited by hand (in place, no rename) as the desk decides: the index reads it.
        record = app.engine.verify_page("pending", limit=1)[0]
        page = app.engine.page_of(record.memory_id)
        assert page is not None
        path = demo_root / page
        text = path.read_text(encoding="utf-8")
        events = app.watch_events
        with path.open("w", encoding="utf-8") as fh:
            fh.write(text.replace(record.content, record.content + " Edited by hand.", 1))
        await pilot.press("b")
        await decided(pilot)
        await wait_for(
            pilot,
            lambda: app.watch_events > events and app.engine.index.changed([page]) == [],
            timeout=5,
            what="the hand edit in the index",
        )
        assert "Edited by hand." in app.engine.get(record.memory_id).content


async def test_the_watcher_does_not_rescan_while_our_decision_is_still_being_written(demo_root: Path) -> None:
    """A write on disk before the engine call returns (a quiz grade at 100k records takes up to 2 s: it regenerates
    the views after its receipt) is our own too: the watcher's batch came before the receipt was noted, and the whole
    wiki was scanned beside the writes still queued. The watcher waits for the write to end before it compares the
    pages with their index rows (compared half-way, a page written before its row was taken for a hand edit)."""
    app = build_app(demo_root, watch=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: app.counts_settled, timeout=10)
        await pilot.press("C")
        await mounted(pilot, ConflictsScreen)
        await settle(pilot)
        scans: list[int] = []
        original_sync = app.engine.sync
        app.engine.sync = lambda *a, **k: (scans.append(1), original_sync(*a, **k))[1]  # type: ignore[method-assign]
        gate = threading.Event()
        original = app.engine.resolve_conflict

        def slow(*args, **kwargs):
            receipt = original(*args, **kwargs)
            gate.wait(60)  # written, not yet returned
            return receipt

        app.engine.resolve_conflict = slow  # type: ignore[method-assign]
        events, waits = app.watch_events, app.echo_waits
        await pilot.press("b")
        try:
            await wait_for(pilot, lambda: app.echo_waits > waits, timeout=5, what="the watcher to see the write")
        finally:
            gate.set()
        await decided(pilot)
        await wait_for(pilot, lambda: app.watch_events > events, timeout=5, what="the watcher to be done with it")
        assert scans == []


def _active_in_category(browse, category: str) -> int:
    node = next(n for n in browse.index_tree.root.children if n.data and n.data.value == category)
    return int(str(node.label).split()[1].split("+")[0])


# ------------------------------------------------------------------------------------------------ snapshots


@both_sizes
def test_snapshot_help_screen(demo_root: Path, snap_compare, size) -> None:
    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("question_mark")
        await mounted(pilot, HelpScreen)
        await pilot.pause()

    assert snap_compare(build_app(demo_root), run_before=run_before, terminal_size=size)


async def test_maintenance_runs_from_the_palette_in_a_worker(demo_root: Path) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        names = [name for name, _, _ in MemkeeperCommands(app.screen)._commands()]
        assert "Maintenance: Run decay (archive weak and expired records)" in names
        status = app.screen.query_one(StatusLine)
        preview = app.engine.decay(now=app.now(), actor=ACTOR, preview=True)

        def decays() -> list[dict]:
            return [d for _, _, d, _ in app.engine.iter_receipts() if d and d["action"] == "decay"]

        app.run_maintenance("decay")  # first the preview, in a dialog; nothing is written
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal), timeout=15, what="the decay preview")
        n = preview.details["archived_count"]
        assert app.screen.title_text == f"Run decay: archive {n} record{'' if n == 1 else 's'}?"
        # The demo's "Support hours" would have been archived, but a person has yet to decide its conflict.
        held = preview.details["held_by_conflict"]
        assert [h["title"] for h in held] == ["Support hours"]
        assert (
            f"Not archived: their conflict awaits your decision (1):\n  · Support hours ({held[0]['conflict_id']})"
            in (str(app.screen.message))
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmModal))
        assert decays() == [] and "cancelled" in status.plain

        app.run_maintenance("decay")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal), timeout=15, what="the decay preview")
        await pilot.press("y")
        await wait_for(pilot, lambda: status.plain.startswith("✓ ok · Run decay"), timeout=15, what="the decay receipt")
        assert decays() and decays()[-1]["actor"] == ACTOR
        assert decays()[-1]["details"]["archived"] == preview.details["archived"]
        assert app.is_running and app.sync_progress == ""
        archived = preview.details["archived"]
        assert all(app.engine.load(m).status.value == "archived" for m in archived)

        await pilot.press("u")  # one undo reverses the whole run
        await wait_for(pilot, lambda: "undone" in status.plain, timeout=15, what="the undo receipt")
        assert all(app.engine.load(m).status.value == "active" for m in archived)


async def test_the_tier_count_runs_one_at_a_time_and_the_quick_counts_do_not_wait_for_it(
    demo_root: Path, monkeypatch
) -> None:
    """The header's tier count reads every candidate (seconds on a cold start at 100k records). A recount cancelled
    the running one, whose thread ran on to its end: at the start of a 100k desk the reconciliation's recount ran a
    second tier count beside the first (7 s and 3 s, beside the 6 s sync). One tier count runs at a time, and what is
    asked meanwhile is counted once after it; the quick counts (a decision's open conflicts) still come at once."""
    app = build_app(demo_root)
    gate = threading.Event()
    lock = threading.Lock()
    running, most, quick = [0], [0], [0]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        original = app.engine.counts

        def counts(*args, **kwargs):
            if not kwargs.get("with_tiers", True):
                quick[0] += 1
                return original(*args, **kwargs)
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            gate.wait(60)
            try:
                return original(*args, **kwargs)
            finally:
                with lock:
                    running[0] -= 1

        monkeypatch.setattr(app.engine, "counts", counts)
        for n in range(1, 4):
            app.refresh_counts()
            await wait_for(pilot, lambda n=n: quick[0] == n, what="the quick count")
        assert app.counting
        gate.set()
        await settle(pilot)
        assert most[0] == 1 and app.counts_settled


async def test_a_failed_count_is_shown_and_the_header_stops_waiting(demo_root: Path, monkeypatch) -> None:
    app = build_app(demo_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)

        def broken(*args, **kwargs):
            raise OSError(5, "Input/output error")

        monkeypatch.setattr(app.engine, "counts", broken)
        app.refresh_counts()
        await wait_for(pilot, lambda: not app.counting, what="the failed count")
        await wait_for(
            pilot,
            lambda: any(n.title == "Counting failed" and "Input/output error" in n.message for n in app._notifications),
        )
        assert app.is_running


@pytest.mark.parametrize("op", ["consolidate", "decay"])
async def test_a_maintenance_run_with_nothing_to_do_is_not_offered(empty_root: Path, op: str) -> None:
    """Exploratory pass, 2026-12-05: consolidate with nothing to merge still offered "Run consolidate (y)" and "one
    undo reverses the whole run"; y wrote a receipt of nothing, the status line offered `u undo`, and u was refused as
    `not_undoable` with an error toast. With nothing to do the dialog says so and offers only Close; nothing is
    written and nothing offers an undo."""
    app = build_app(empty_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        pane = app.current_pane()
        preview = getattr(app.engine, op)(now=app.now(), actor=ACTOR, preview=True)
        assert not preview.details.get("count") and not preview.details.get("decayed_count")
        app.run_maintenance(op)
        await mounted(pilot, ConfirmModal, timeout=15)
        await pilot.pause()
        dialog = app.screen
        assert dialog.title_text.endswith("nothing to merge" if op == "consolidate" else "nothing to change")
        assert not dialog.query("#confirm") and "Close" in str(dialog.query_one("#cancel").label)
        assert "undo" not in str(dialog.message)
        await pilot.press("y")  # there is nothing to confirm
        await pilot.pause()
        assert app.screen is dialog
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmModal))
        await settle(pilot)
        assert "nothing written" in pane.status.plain and "u undo" not in pane.status.plain
        assert app.engine.last_receipt_sha() is None and not app.undo_stack(pane.PANE_ID)
        await pilot.press("u")
        assert pane.status.plain == "Nothing to undo in this pane."
        assert not [n for n in app._notifications if n.severity == "error"]


async def test_the_status_line_offers_an_undo_only_for_a_receipt_the_engine_would_undo(empty_root: Path) -> None:
    """A receipt the engine cannot undo (a new quiz ledger) offered `u undo` all the same; `u` then found nothing.
    The line offers the undo key only for a receipt that went on the pane's undo stack (`Engine.can_undo`)."""
    from memkeeper.tui.screens.quiz import QuizScreen

    app = build_app(empty_root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("Q")
        await mounted(pilot, QuizScreen)
        await settle(pilot)
        pane = app.screen
        await pilot.press("f")
        await decided(pilot)
        await settle(pilot)
        assert pane.status.plain.startswith("✓") and "quiz ledger" in pane.status.plain
        assert "u undo" not in pane.status.plain and not app.undo_stack("quiz")
        await pilot.press("F", "y")  # a switch of scheduler is undoable: offered
        await decided(pilot)
        assert app.undo_stack("quiz") and pane.status.plain.endswith("u undo")

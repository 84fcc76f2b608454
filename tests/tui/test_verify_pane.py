"""Verify pane: confirm / deny / undeny / undo drive the engine, and the queue follows."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from rich.console import Console

from memkeeper.core import Engine
from memkeeper.tui.app import MemkeeperApp
from memkeeper.tui.screens.modals import InputModal
from memkeeper.tui.screens.verify import VerifyScreen

from .conftest import decided, open_pane, settle, wait_for
from .snapshot_app import FIXED_NOW as NOW
from .snapshot_app import build_app

pytestmark = pytest.mark.anyio


# -- helpers ---------------------------------------------------------------------------------------------------------


# -- tests -----------------------------------------------------------------------------------------------------------


def plain(widget) -> str:
    """What a Static shows, as plain text (its content may be any Rich renderable)."""
    console = Console(width=118, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


@pytest.fixture
def small(tmp_path) -> tuple[MemkeeperApp, dict[str, str]]:
    """Four pending agent-inferred records; `twin` has the same title and text as `staging` in another zone."""
    ids = {}
    engine = Engine.init(tmp_path / "small", now=NOW - timedelta(days=30))
    for n, (name, text, title, zone) in enumerate([
        ("staging", "The staging database is reset every Sunday night at 02:00 UTC.", "Staging reset",
         "private_self"),
        ("twin", "The staging database is reset every Sunday night at 02:00 UTC.", "Staging reset",
         "trusted_collaborator"),
        ("pr", "Priya prefers pull requests under 400 lines with a linked issue.", "PR size", "private_self"),
        ("region", "The billing service deploys to the Frankfurt region.", "Billing region", "private_self"),
    ]):
        r = engine.capture(text, now=NOW - timedelta(days=10 - n), actor="agent:scribe", title=title, zone=zone,
                           source_ref=f"raw/notes-{n}.md#L3", category="fact")
        assert r.status == "captured", r
        ids[name] = r.details["memory_id"]
    engine.close()
    return build_app(tmp_path / "small"), ids


async def test_confirm_stamps_and_propagates(small):
    app, ids = small
    engine = app.engine
    async with app.run_test(size=(120, 34), notifications=True) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert set(pane._by_id) == set(ids.values())
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
        assert ids["staging"] not in pane._by_id and ids["twin"] not in pane._by_id
        assert "propagated to 1 record" in pane.status.plain
        assert not app._notifications  # a receipt is not an error: the status line shows it, no toast

        # undo: both stamps removed, both back in the queue
        await pilot.press("u")
        await decided(pilot)
        assert engine.load(ids["staging"]).verified is None
        assert engine.load(ids["twin"]).source_type.value == "agent_inferred"
        assert {ids["staging"], ids["twin"]} <= set(pane._by_id)


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
        assert ids["pr"] not in pane._by_id
        # the suppression key now holds: an agent restating it is suppressed
        again = engine.capture("Priya prefers pull requests under 400 lines with a linked issue.", now=NOW,
                               actor="agent:scribe", title="PR size", source_ref="raw/notes-2.md#L3")
        assert again.status == "suppressed"

        await pilot.press("a")
        assert pane.mode == "denied" and set(pane._by_id) == {ids["pr"]}
        assert pane.table.border_title.startswith("Denied (1)")
        await pilot.press("n")
        await decided(pilot)
        assert engine.load(ids["pr"]).status.value == "active"
        assert app.undo_stack("verify")[-1].action == "undeny"
        assert not pane._by_id  # the denied list is empty now
        await pilot.press("a")
        assert pane.mode == "pending" and ids["pr"] in pane._by_id


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


def test_snapshot_verify(demo, snap_compare):
    async def run_before(pilot):
        await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("down")

    assert snap_compare(demo, run_before=run_before, terminal_size=(120, 34))


def test_snapshot_verify_empty(empty, snap_compare):
    async def run_before(pilot):
        await open_pane(pilot, "V", VerifyScreen)

    assert snap_compare(empty, run_before=run_before, terminal_size=(120, 34))


def test_snapshot_verify_denied_list(small, snap_compare):
    app, ids = small

    async def run_before(pilot):
        pane = await open_pane(pilot, "V", VerifyScreen)
        pane.table.select_key(ids["pr"])
        await pilot.press("D")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, InputModal))
        await pilot.press(*"not what Priya said")
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, VerifyScreen))
        await decided(pilot)
        await pilot.press("a")
        await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(app, run_before=run_before, terminal_size=(120, 34))


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
        await wait_for(pilot, lambda: any("OSError: [Errno 28] No space left on device" in n.message
                                          for n in app._notifications), what="the failure notification")
        assert app.engine.load(ids["staging"]).verified is None
        assert not app.undo_stack("verify")

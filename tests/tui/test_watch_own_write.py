"""A page edited by hand after one of the desk's own decisions is not the desk's own write: the newest receipt is
still the desk's (a hand edit writes none), and the watcher took the change for the echo of that decision. It
synced the index, and told no pane: the lists kept the old text, and the quiz revealed an answer the page no
longer gave."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkeeper.tui.screens.verify import VerifyScreen

from .conftest import decided, open_pane, settle, wait_for
from .snapshot_app import build_app

pytestmark = pytest.mark.anyio


async def test_a_hand_edit_after_a_decision_of_the_desk_reaches_the_pane(demo_root: Path) -> None:
    app = build_app(demo_root, watch=True)
    async with app.run_test(size=(120, 34)) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        await wait_for(pilot, lambda: any(w.group == "watch" for w in app.workers), what="the watcher to start")
        await pilot.pause(0.3)  # (setting the watch up walks the wiki's folders, in its thread)
        events = app.watch_events
        await pilot.press("c")  # the desk's own write: the newest receipt is ours from here on
        await decided(pilot)
        await wait_for(pilot, lambda: app.watch_events > events, timeout=10, what="the echo of the decision")
        await settle(pilot)
        other = pane.table.current_key
        page = demo_root / app.engine.page_of(other)
        title = app.engine.get(other).title
        text = page.read_text(encoding="utf-8")
        assert f"title: {title}\n" in text
        page.write_text(text.replace(f"title: {title}\n", "title: Edited by hand\n", 1), encoding="utf-8")
        events = app.watch_events
        await wait_for(pilot, lambda: app.watch_events > events, timeout=10, what="the watcher to see the edit")
        await settle(pilot)
        shown = pane.source.cells(*pane.table.item_at(pane.table.cursor_row))
        assert str(shown[1]) == "Edited by hand"

"""Regenerate `screenshots/<pane>.svg` for the six panes (`make screenshots`).

The demo wiki is built with a fixed clock and seeded ids (the same builder the snapshot tests use), the watcher is
off and the user's own keymap is kept out, so the pictures change only when the desk or the demo changes.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.tui.snapshot_app import build_app, build_demo_wiki  # noqa: E402

SIZE = (120, 34)
OUT = ROOT / "screenshots"
PANES = ("browse", "conflicts", "verify", "quiz", "tiers", "receipts")
KEYS = {"browse": "B", "conflicts": "C", "verify": "V", "quiz": "Q", "tiers": "T", "receipts": "R"}
BROWSE_QUERY = "release"


async def wait_for(pilot, condition, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"screenshot setup timed out waiting for {condition}")
        await pilot.pause(0.02)


async def settle(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: app.counts_settled)
    await app.workers.wait_for_complete([w for w in app.workers if w.group != "watch"])
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()


async def stage_browse(pilot) -> None:
    """Browse as a newcomer meets it after one search: zone strip, scored results, the first result's page."""
    screen = pilot.app.screen
    runs = screen.search_runs
    await pilot.press("slash", *BROWSE_QUERY, "enter")
    await wait_for(pilot, lambda: screen.search_runs > runs)
    await pilot.press("down")  # focus stays in the search box after a query; down goes to the results
    await pilot.press("z")
    await pilot.pause()
    if screen.results.row_count:
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.current is not None and screen.current.kind == "entry")


async def stage_receipts(pilot) -> None:
    await wait_for(pilot, lambda: pilot.app.screen.loads >= 1)
    await pilot.press("down", "down")


async def shoot(wiki: Path) -> list[Path]:
    app = build_app(wiki)
    written: list[Path] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for pane in PANES:
            await pilot.press(KEYS[pane])
            await wait_for(pilot, lambda p=pane: app.current_mode == p)
            await settle(pilot)
            if pane == "browse":
                await stage_browse(pilot)
            elif pane == "receipts":
                await stage_receipts(pilot)
            await settle(pilot)
            app.clear_notifications()
            await pilot.pause()
            written.append(Path(app.save_screenshot(f"{pane}.svg", str(OUT))))
    return written


def main() -> int:
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memkeeper-shots-") as tmp:
        os.environ["XDG_CONFIG_HOME"] = str(Path(tmp) / "xdg")  # a developer's keymap must not leak into the docs
        wiki = build_demo_wiki(Path(tmp) / "wiki")
        for path in asyncio.run(shoot(wiki)):
            print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())

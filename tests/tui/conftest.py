"""Fixtures for the desk: a demo wiki built once per session and copied per test, and condition waits."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from memkeeper.tui.app import MemkeeperApp

from .snapshot_app import build_app, build_demo_wiki, build_empty_wiki, copy_wiki


@pytest.fixture(scope="session")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_demo_wiki(tmp_path_factory.mktemp("demo-template") / "wiki")


@pytest.fixture
def demo_root(tmp_path: Path, demo_template: Path) -> Path:
    return copy_wiki(demo_template, tmp_path / "wiki")


@pytest.fixture
def empty_root(tmp_path: Path) -> Path:
    return build_empty_wiki(tmp_path / "empty-wiki")


async def wait_for(pilot: Pilot, condition: Callable[[], object], timeout: float = 5.0, what: str = "") -> None:
    """Let the app run until `condition()` is truthy (harlequin's wait_for_value); fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():
                return
        except Exception:  # the widget may not be mounted yet
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what or condition}")
        await pilot.pause(0.02)


async def decided(pilot: Pilot, timeout: float = 10.0) -> None:
    """Wait until the pane's decision (a thread worker) has come back and been handled: the receipt is on the undo
    stack and in the decision line, and the pane has started its refresh. A no-op when no decision is running."""
    app = pilot.app
    pane = app.current_pane()  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: not getattr(pane, "deciding", False), timeout, "the decision to land")


async def settle(pilot: Pilot, timeout: float = 10.0) -> None:
    """Wait for a running decision, the header counts (a worker) and every other worker, then for the screen to be
    idle. Until nothing is left running: a worker may start another as it ends (the desk's first reconciliation,
    once the counts are in, recounts and reloads the pane when it found a page changed), and one started after the
    wait began would otherwise still be running when the test goes on (a snapshot of a pane half reloaded)."""
    app = pilot.app
    deadline = time.monotonic() + timeout
    while True:
        await decided(pilot, timeout)
        await wait_for(pilot, lambda: app.counts_settled, timeout, "header counts")  # type: ignore[attr-defined]
        # Everything but the watcher, which runs for the app's lifetime (an empty list would mean every worker to
        # `wait_for_complete`, the watcher too: never done).
        busy = [w for w in app.workers if w.group != "watch" and not w.is_finished]
        if busy:
            await app.workers.wait_for_complete(busy)
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        still = [w for w in app.workers if w.group != "watch" and not w.is_finished]
        if not still and app.counts_settled and not getattr(app.current_pane(), "deciding", False):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for the desk to settle ({still})")


# -- snapshot sizes ---------------------------------------------------------------------------------------------------

#: Every pane is snapshotted at the smallest terminal the desk supports and at a large one (issue 11).
NARROW, WIDE = (80, 24), (160, 45)
both_sizes = pytest.mark.parametrize("size", [NARROW, WIDE], ids=["80x24", "160x45"])


# -- the desk over the demo wiki, for the pane tests ------------------------------------------------------------------


@pytest.fixture
def demo(demo_root: Path) -> MemkeeperApp:
    """The desk over a private copy of the deterministic demo wiki (built once per session)."""
    return build_app(demo_root)


@pytest.fixture
def empty(empty_root: Path) -> MemkeeperApp:
    return build_app(empty_root)


async def mounted(pilot: Pilot, cls: type, timeout: float = 10.0) -> None:
    """Wait until a screen of `cls` is on top and mounted: composed, and its mount handler (which starts the pane's
    first load) has run. A screen is on top before that, and on a loaded machine a test that only waited for it
    would settle before the pane had started anything, then press keys into a pane that is not there yet."""
    await wait_for(
        pilot,
        lambda: isinstance(pilot.app.screen, cls) and pilot.app.screen.is_mounted,
        timeout,
        f"{cls.__name__} mounted",
    )


async def open_pane(pilot: Pilot, key: str, cls: type) -> object:
    """Press a pane key, wait until that pane is on screen and settled, return it."""
    await pilot.press(key)
    await mounted(pilot, cls)
    await settle(pilot)
    return pilot.app.screen


@dataclass
class Held:
    """An engine call held by a test: each call waits for `gate` (open unless the test clears it, or set the test
    sets it at the end), and `on_ui_thread` says, call by call, whether it ran on the UI thread."""

    gate: threading.Event
    on_ui_thread: list[bool] = field(default_factory=list)


def hold(monkeypatch: pytest.MonkeyPatch, engine: Any, name: str, *, timeout: float, closed: bool = False) -> Held:
    """Replace `engine.<name>` with a call that records its thread and waits for the gate (up to `timeout`)."""
    held = Held(threading.Event())
    if not closed:
        held.gate.set()
    original = getattr(engine, name)

    def call(*args: Any, **kwargs: Any) -> Any:
        held.on_ui_thread.append(threading.current_thread() is threading.main_thread())
        held.gate.wait(timeout)
        return original(*args, **kwargs)

    monkeypatch.setattr(engine, name, call)
    return held


def footer_state(pane: Any, action: str) -> bool | None:
    """How the footer shows a pane key: True (live), False (dimmed), None (not shown at all)."""
    for active in pane.active_bindings.values():
        if active.binding.action == action:
            return active.enabled
    return None


def status_line(pane: Any) -> str:
    """What the status line shows, asserting it is not cut at its width."""
    from rich.cells import cell_len

    text = str(pane.status.render())
    assert cell_len(text) <= pane.status.content_size.width, f"cut: {text!r}"
    return text

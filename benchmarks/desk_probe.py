"""The desk as a user feels it, in a process of its own (benchmarks/scale.py runs it): prints one JSON line.

    python benchmarks/desk_probe.py ROOT [--switches N]

- desk_ready_s: from opening the engine to the first pane painted with the header's counts shown, headless through
  Pilot; desk_idle_s: until the first full sync, the tier count and every worker but the watcher finished;
- switch_s: pane switch, keypress to the first paint of the new pane (the app's own `_display` calls that reach the
  terminal, timestamped),
  median over warm switches (every pane visited once before); first_switch_s: the same for first visits;
  switch_slowest_s / switch_slowest_pane: the warm median of the pane slowest to show (its key);
- decide_s: a decision, keypress to the first paint that shows another item selected (Conflicts `b`, Verify `c`),
  median over up to 3 decisions in each pane; nan when neither queue has items;
- decide_paced_s: the same for Verify `c` at a person's pace, one decision a second without waiting for idle, the
  watcher running: what each write costs the next decision (a full rescan of the wiki after each of the desk's own
  writes tripled it at 100k records);
- noop_s: an unbound key, press to idle (what Pilot itself costs);
- rss_mb: the process's peak resident set size with the desk open (VmHWM on Linux).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import time
from datetime import UTC, datetime

from memkeeper.core import Engine
from memkeeper.tui.app import MemkeeperApp

NOW = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
PANE_KEYS = ["C", "V", "Q", "T", "R", "B"]


def peak_rss_mb() -> float:
    """This process's peak resident set size. Linux's VmHWM belongs to the process image: getrusage's ru_maxrss
    survives exec, so a probe started by a big parent (the bench, after a 100k build) would report the parent's
    size at fork time (500 MB where the desk itself peaked at 285 MB)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def idle(app: MemkeeperApp, pilot, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        busy = [w for w in app.workers if w.group != "watch" and not w.is_finished]
        if not busy and app.counts_settled and not app.sync_progress:
            await pilot.pause()
            return
        await pilot.pause(0.01)
    raise TimeoutError(
        f"the desk never became idle: {[(w.group, w.name, w.state) for w in app.workers]} counts={app.counts_settled} sync={app.sync_progress!r}"
    )


async def probe(root: str, switches: int) -> dict[str, float]:
    t_start = time.perf_counter()
    engine = Engine.open(root, sync=False)
    app = MemkeeperApp(root, actor="human:bench", engine=engine, now=NOW)
    paints: list[tuple[float, object, object]] = []

    def selected(screen) -> object:
        table = getattr(screen, "table", None)
        try:
            return table.current_key if table is not None else None
        except Exception:  # a table mid-rebuild
            return None

    original = app._display

    def display(screen, renderable):  # timestamp every frame the app writes, with the item selected in it
        # A frame rendered while updates are held back (a batch, or Textual's `delay_update` on a mode switch)
        # never reaches the terminal: `_display` drops it. Counting those timed a switch at 12 ms that showed at 80.
        if renderable is not None and screen is app.screen and not app._batch_count:
            paints.append((time.perf_counter(), screen, selected(screen)))
        return original(screen, renderable)

    app._display = display  # type: ignore[method-assign]
    out: dict[str, float] = {}
    async with app.run_test(size=(120, 34)) as pilot:
        # Ready: the first pane painted and the header showing counts (the full reconciliation and the tier count
        # may still run in the background, with progress in the header). Idle: every worker but the watcher done.
        deadline = time.monotonic() + 120
        while not (app.counts is not None and any(s is app.screen for _, s, _k in paints)):
            if time.monotonic() > deadline:
                raise TimeoutError("the desk never showed its counts")
            await pilot.pause(0.005)
        out["desk_ready_s"] = time.perf_counter() - t_start
        await idle(app, pilot)
        out["desk_idle_s"] = time.perf_counter() - t_start

        async def switch(key: str) -> float:
            before = app.screen
            t0 = time.perf_counter()
            await pilot.press(key)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                hit = [t for t, s, _k in paints if t >= t0 and s is app.screen and s is not before]
                if hit:
                    took = hit[0] - t0
                    await idle(app, pilot)
                    return took
                await pilot.pause(0.002)
            raise TimeoutError(f"no paint after {key}")

        first = [await switch(k) for k in PANE_KEYS]
        warm = []
        by_pane: dict[str, list[float]] = {}
        for i in range(switches):
            key = PANE_KEYS[i % len(PANE_KEYS)]
            warm.append(await switch(key))
            by_pane.setdefault(key, []).append(warm[-1])
        slowest = max(by_pane, key=lambda k: statistics.median(by_pane[k]))

        async def decide_once(key: str) -> float | None:
            """Press `key` on the selected item: seconds to the first paint with another item selected, or None
            when nothing is selected (or nothing changed within 30 s)."""
            screen = app.screen
            item = selected(screen)
            if item is None:
                return None
            t0 = time.perf_counter()
            await pilot.press(key)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                hit = [t for t, s, k in paints if t >= t0 and s is screen and k is not None and k != item]
                if hit:
                    return hit[0] - t0
                await pilot.pause(0.002)
            return None

        async def decision(pane_key: str, key: str) -> list[float]:
            await pilot.press(pane_key)
            await idle(app, pilot)
            took = []
            for _ in range(3):
                took_one = await decide_once(key)
                if took_one is None:
                    break
                took.append(took_one)
                await idle(app, pilot)
            return took

        in_conflicts, in_verify = await decision("C", "b"), await decision("V", "c")
        decisions = in_conflicts + in_verify

        async def paced(key: str, n: int = 6, gap: float = 1.0) -> list[float]:
            took = []
            for _ in range(n):
                t0 = time.perf_counter()
                took_one = await decide_once(key)
                if took_one is None:
                    break
                took.append(took_one)
                await asyncio.sleep(max(0.0, gap - (time.perf_counter() - t0)))  # the watcher sees the write
            return took

        in_pace = await paced("c")  # still on Verify
        out["decide_paced_s"] = statistics.median(in_pace) if in_pace else float("nan")
        out["decide_s"] = statistics.median(decisions) if decisions else float("nan")
        out["decide_conflicts_s"] = statistics.median(in_conflicts) if in_conflicts else float("nan")
        out["decide_verify_s"] = statistics.median(in_verify) if in_verify else float("nan")
        noop = []
        for _ in range(5):
            t0 = time.perf_counter()
            await pilot.press("f12")
            await idle(app, pilot)
            noop.append(time.perf_counter() - t0)
        out["first_switch_s"] = statistics.median(first)
        out["switch_s"] = statistics.median(warm)
        out["switch_slowest_s"] = statistics.median(by_pane[slowest])
        out["switch_slowest_pane"] = slowest  # type: ignore[assignment]
        out["noop_s"] = statistics.median(noop)
        out["rss_mb"] = peak_rss_mb()
        await app.action_quit() if asyncio.iscoroutinefunction(app.action_quit) else app.action_quit()
    engine.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--switches", type=int, default=12)
    args = ap.parse_args()
    print(json.dumps(asyncio.run(probe(args.root, args.switches))))


if __name__ == "__main__":
    main()

"""Take `screenshots/browser.png`: the desk served by `memkeeper serve`, in a real headless Chromium.

    python scripts/browser_screenshot.py [--out screenshots/browser.png] [--chromium chromium]

Needs Debian's `chromium` (`apt-get install -y chromium`); not part of `make test`. It builds a demo wiki with a fixed
clock in a temporary directory, starts `memkeeper serve` on a free port of 127.0.0.1, opens the page in Chromium with
its DevTools protocol (the desk starts only after the page has connected its websocket, so a one-shot
`chromium --screenshot` catches the splash screen), waits until the desk has drawn and stopped changing, saves a PNG
and stops both processes.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
FIXED_NOW = "2026-11-20T09:00:00Z"
WINDOW = (1280, 800)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not answer within {timeout:.0f} s")
        time.sleep(0.2)


def memkeeper(*args: str) -> list[str]:
    return [sys.executable, "-m", "memkeeper.tui.cli", *args]


class DevTools:
    """The smallest DevTools protocol client: one page, commands in order."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.next_id = 0

    async def send(self, method: str, **params) -> dict:
        self.next_id += 1
        await self.ws.send_json({"id": self.next_id, "method": method, "params": params})
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data.get("id") == self.next_id:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                return data.get("result", {})
        raise RuntimeError("DevTools connection closed")

    async def evaluate(self, expression: str):
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")


async def capture(devtools_port: int, url: str, out: Path, settle: float) -> None:
    async with aiohttp.ClientSession() as http:
        deadline = time.monotonic() + 30
        while True:
            try:
                async with http.get(f"http://127.0.0.1:{devtools_port}/json/list") as resp:
                    pages = [t for t in await resp.json() if t.get("type") == "page"]
                if pages:
                    break
            except aiohttp.ClientError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium's DevTools endpoint did not answer")
            await asyncio.sleep(0.2)
        async with http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            dt = DevTools(ws)
            await dt.send("Page.enable")
            await dt.send(
                "Emulation.setDeviceMetricsOverride",
                width=WINDOW[0],
                height=WINDOW[1],
                deviceScaleFactor=1,
                mobile=False,
            )
            await dt.send("Page.navigate", url=url)
            # textual.js marks the body once the desk's first bytes arrive over the websocket.
            deadline = time.monotonic() + 60
            while not await dt.evaluate("document.body && document.body.classList.contains('-first-byte')"):
                if time.monotonic() > deadline:
                    raise TimeoutError("the desk never drew in the browser")
                await asyncio.sleep(0.25)
            # Then wait until the terminal stops changing (the desk loads its counts in workers).
            last, stable_since = None, time.monotonic()
            while time.monotonic() - stable_since < settle:
                text = await dt.evaluate("document.querySelector('#terminal').innerText")
                if text != last:
                    last, stable_since = text, time.monotonic()
                await asyncio.sleep(0.25)
            shot = await dt.send("Page.captureScreenshot", format="png")
    out.write_bytes(base64.b64decode(shot["data"]))


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "screenshots" / "browser.png")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--settle", type=float, default=2.0, help="seconds the desk must stay unchanged before the shot")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="memkeeper-browser-") as tmp:
        wiki = Path(tmp) / "wiki"
        subprocess.run(
            memkeeper("--now", FIXED_NOW, "demo", str(wiki), "--no-tui"), check=True, stdout=subprocess.DEVNULL
        )
        port, devtools_port = free_port(), free_port()
        url = f"http://127.0.0.1:{port}/"
        server = subprocess.Popen(
            memkeeper("--root", str(wiki), "--now", FIXED_NOW, "--as", "human:demo", "serve", "--port", str(port)),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        browser = None
        try:
            wait_http(url)
            browser = subprocess.Popen(
                [
                    args.chromium,
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--hide-scrollbars",
                    "--no-first-run",
                    f"--user-data-dir={Path(tmp) / 'chromium'}",
                    f"--remote-debugging-port={devtools_port}",
                    f"--window-size={WINDOW[0]},{WINDOW[1]}",
                    "about:blank",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
            )
            args.out.parent.mkdir(parents=True, exist_ok=True)
            asyncio.run(capture(devtools_port, url, args.out, args.settle))
        finally:
            if browser is not None:
                stop(browser)
            stop(server)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGTERM)  # a desk the server started for the page, if still running
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

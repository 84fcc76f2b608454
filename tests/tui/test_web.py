"""`memkeeper serve`: the desk through textual-serve. The server runs as a subprocess on a free port of 127.0.0.1; the
page answers, its websocket starts the desk and answers, and SIGTERM stops it cleanly."""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import anyio
import pytest

from memkeeper.core import Engine
from memkeeper.tui.cli import build_parser
from memkeeper.tui.web import desk_command, is_loopback

from .snapshot_app import FIXED_NOW

pytestmark = pytest.mark.anyio


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    """A `memkeeper serve` on a fresh wiki: (base url, process). Stopped (and its process group) afterwards."""
    root = tmp_path / "memory"
    Engine.init(root, now=FIXED_NOW).close()
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "memkeeper.tui.cli",
            "--root",
            str(root),
            "--as",
            "human:tester",
            "serve",
            "--port",
            str(port),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env={**os.environ, "COLUMNS": "120"},
    )
    try:
        yield f"http://127.0.0.1:{port}", proc
    finally:
        if proc.poll() is None:
            proc.kill()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        if proc.stdout:
            proc.stdout.close()


async def get_page(session: aiohttp.ClientSession, url: str, proc: subprocess.Popen, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        assert proc.poll() is None, proc.stdout.read().decode(errors="replace") if proc.stdout else "server exited"
        try:
            async with session.get(url) as resp:
                assert resp.status == 200
                return await resp.text()
        except aiohttp.ClientConnectionError:
            if time.monotonic() > deadline:
                raise
            await anyio.sleep(0.1)


async def test_serve_answers_the_page_and_the_websocket_then_stops_cleanly(served):
    base, proc = served
    async with aiohttp.ClientSession() as session:
        html = await get_page(session, base + "/", proc)
        assert "textual-terminal" in html
        assert "<div>memkeeper</div>" in html
        ws_url = base.replace("http://", "ws://") + "/ws"
        assert f'data-session-websocket-url="{ws_url}"' in html

        # The websocket starts the desk for this tab and streams its screen.
        async with session.ws_connect(ws_url + "?width=100&height=30") as ws:
            await ws.send_json(["ping", "hello"])
            pong = False
            screen = b""
            deadline = time.monotonic() + 60
            while not (pong and b"memkeeper" in screen):
                assert time.monotonic() < deadline, f"pong={pong}, {len(screen)} bytes of screen"
                msg = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
                if msg.type == aiohttp.WSMsgType.TEXT and msg.json() == ["pong", "hello"]:
                    pong = True
                elif msg.type == aiohttp.WSMsgType.BINARY:
                    screen += msg.data
                elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                    pytest.fail(f"websocket closed early: {msg}")

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0


def test_serve_binds_loopback_by_default_and_serves_the_desk_on_the_same_root(tmp_path):
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("example.org")
    argv = shlex.split(desk_command(Path("rel/memory"), actor="human:ann", keymap="vim"))
    assert argv[0] == sys.executable
    assert argv[1:] == [
        "-m",
        "memkeeper.tui.cli",
        "--root",
        str(Path("rel/memory").resolve()),
        "--as",
        "human:ann",
        "--keymap",
        "vim",
        "tui",
    ]


def test_serve_refuses_a_missing_root_and_a_bad_port(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "memkeeper.tui.cli", *args],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )

    missing = run("--root", str(tmp_path / "nowhere"), "serve", "--port", str(free_port()))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    bad_port = run("--root", str(tmp_path), "serve", "--port", "70000")
    assert bad_port.returncode == 2 and "not a port number" in bad_port.stderr
    # a keymap that cannot be read is said once, here, not in each browser tab's desk (every tab stayed blank)
    Engine.init(tmp_path / "wiki", now=FIXED_NOW).close()
    keymap = run("--root", str(tmp_path / "wiki"), "--keymap", "nope", "serve", "--port", str(free_port()))
    assert keymap.returncode == 2 and "unknown keymap 'nope'" in keymap.stderr, keymap.stderr
    assert keymap.stderr.count("\n") == 1

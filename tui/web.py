"""`memkeeper serve`: the same desk in a browser, through textual-serve.

textual-serve answers the page at `/` and, for each browser tab, starts the desk (`memkeeper --root R tui`) as a
subprocess driven over the websocket at `/ws`. It listens on 127.0.0.1 by default: whoever reaches the port acts in
the desk as the person who started the server.
"""

from __future__ import annotations

import ipaddress
import shlex
import sys
from pathlib import Path

from memkeeper.core import Engine
from memkeeper.tui.keymap import KeymapError, load_keymap


def desk_command(
    root: str | Path, *, actor: str | None = None, now: str | None = None, keymap: str | None = None
) -> str:
    """The shell command textual-serve runs for each browser tab: the desk on the same root (absolute, so the
    server's working directory does not matter), with the global options the server was given."""
    argv = [sys.executable, "-m", "memkeeper.tui.cli", "--root", str(Path(root).resolve())]
    for flag, value in (("--as", actor), ("--now", now), ("--keymap", keymap)):
        if value:
            argv += [flag, value]
    return shlex.join([*argv, "tui"])


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_desk(
    root: str | Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    actor: str | None = None,
    now: str | None = None,
    keymap: str | None = None,
) -> int:
    """Serve the desk on `root` at http://host:port until interrupted (Ctrl+C or SIGTERM)."""
    Engine.open(root, sync=False).close()  # a missing root fails here, once, instead of in every browser tab
    try:  # and so does a keymap that cannot be read (each tab's desk stopped on it, and the tab stayed blank)
        load_keymap(keymap, use_user_file=False)
    except KeymapError as exc:
        print(f"memkeeper: {exc}", file=sys.stderr)
        return 2
    from textual_serve.server import Server

    if not is_loopback(host):
        print(
            f"memkeeper: warning: serving the desk on {host}: anyone who reaches port {port} acts as you",
            file=sys.stderr,
        )
    public_url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    server = Server(
        desk_command(root, actor=actor, now=now, keymap=keymap),
        host=host,
        port=port,
        title="memkeeper",
        public_url=public_url,
    )
    server.serve()
    return 0

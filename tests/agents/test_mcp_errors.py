"""What an agent is told when the engine refuses a call for a reason of the machine, not of the arguments: the
command line's one line, without where the person keeps the wiki."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkeeper.agents.mcp_server import Desk, Identity
from memkeeper.core import Engine
from tests.conftest import T0, held_by_another_thread


@pytest.fixture
def root(tmp_path) -> Path:
    r = tmp_path / "home" / "lena" / "memory"
    Engine.init(r, now=T0).close()
    return r


@pytest.mark.parametrize("zone", ["private_self", "outside_contact"])
def test_a_write_lock_held_elsewhere_is_named_relative_to_the_wiki(root, monkeypatch, zone):
    """The engine names its write lock by its absolute path when another process holds it past the wait: the agent
    learnt where the person keeps the wiki (`/home/lena/memory/.memkeeper/write.lock`). It is told the file
    relative to the root, as the engine names the files of a disk error; nothing was written."""
    from memkeeper.core import store

    monkeypatch.setattr(store, "LOCK_TIMEOUT_S", 0.2)
    other, engine = Engine.open(root), Engine.open(root)
    try:
        desk = Desk(engine, Identity.from_flags("busy", zone), clock=lambda: T0)
        with held_by_another_thread(other.store.lock):
            result = desk.capture(text="The release train leaves every second Thursday.")
        line = result.content[0].text
        assert result.is_error
        assert line == (
            "memkeeper: the write lock .memkeeper/write.lock is held by another process; nothing was written, try again"
        )
        assert str(root) not in line and "lena" not in line
        assert not list((root / "entries").glob("*.md"))
    finally:
        engine.close()
        other.close()

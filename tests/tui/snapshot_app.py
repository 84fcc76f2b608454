"""Builds the desk for snapshot tests and screenshots: a deterministic demo wiki, a fixed clock, no watcher.

Memory ids are derived from what is stored and when, so every build of the demo is byte-identical and snapshots
(which show ids and receipt hashes) are stable.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from memkeeper.core import Engine
from memkeeper.core.demo import build_demo
from memkeeper.tui.app import MemkeeperApp

FIXED_NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
ACTOR = "human:demo"
PERSON = "demo"
SESSION = "snapshot-session"
DEMO_RECORDS = 60  # small enough to build in about a second, big enough to fill every pane


def build_demo_wiki(path: Path, records: int = DEMO_RECORDS) -> Path:
    """A demo wiki at `path`, identical on every call."""
    build_demo(path, now=FIXED_NOW, records=records).close()
    return path


def build_empty_wiki(path: Path) -> Path:
    Engine.init(path, now=FIXED_NOW).close()
    return path


def copy_wiki(template: Path, target: Path) -> Path:
    """A private copy of a prebuilt wiki (building the demo once per session keeps the suite fast)."""
    shutil.copytree(template, target, symlinks=True)
    return target


def build_app(root: Path, **overrides) -> MemkeeperApp:
    """The desk over `root` with the fixed clock, no watcher and a fixed session id."""
    options = dict(actor=ACTOR, now=lambda: FIXED_NOW, watch=False, session=SESSION, person=PERSON)
    options.update(overrides)
    return MemkeeperApp(root, **options)

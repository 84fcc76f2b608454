from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memkeeper.core import Engine

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


@pytest.fixture
def now() -> datetime:
    return T0


@pytest.fixture
def eng(tmp_path) -> Engine:
    engine = Engine.init(tmp_path / "memory", now=T0)
    yield engine
    engine.close()


@pytest.fixture(autouse=True)
def _isolate_user_config(tmp_path, monkeypatch):
    # Keep a developer's own keymap and environment out of the tests.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("MEMKEEPER_ROOT", raising=False)

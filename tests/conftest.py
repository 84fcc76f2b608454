from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memkeeper.core import Engine

T0 = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The few tests marked `long` run first (the order is otherwise kept): started last on one worker, one of them
    kept `make test` waiting on it while the other worker sat idle."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


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

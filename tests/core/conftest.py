"""Fixtures of the core tests that several files share."""

from __future__ import annotations

import pytest

from memkeeper.core import Engine
from tests.conftest import T0


@pytest.fixture
def source(tmp_path):
    """A wiki that exports (an envelope's origin)."""
    engine = Engine.init(tmp_path / "source", now=T0)
    yield engine
    engine.close()


@pytest.fixture
def other(tmp_path):
    """A second wiki, that imports."""
    engine = Engine.init(tmp_path / "other", now=T0)
    yield engine
    engine.close()

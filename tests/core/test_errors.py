"""The engine's typed errors: one family, old import paths kept, unknown ids raise NotFound."""

from __future__ import annotations

import pytest

from memkeeper.core import BadInput, Engine, MemkeeperError, NotFound, Refused, Stale
from memkeeper.core import engine as engine_module
from tests.conftest import T0


def test_one_family_under_value_error():
    assert engine_module.BadInput is BadInput  # `from memkeeper.core.engine import BadInput` keeps working
    assert issubclass(NotFound, BadInput)
    for cls in (BadInput, NotFound, Refused, Stale):
        assert issubclass(cls, MemkeeperError) and issubclass(cls, ValueError)
    assert not issubclass(Refused, BadInput) and not issubclass(Stale, BadInput)


def test_message_is_one_line():
    assert str(BadInput("entries/x.md: malformed YAML\n  line 3: mapping values")) == (
        "entries/x.md: malformed YAML · line 3: mapping values"
    )


def test_unknown_ids_raise_not_found(eng: Engine):
    with pytest.raises(NotFound, match="unknown memory id"):
        eng.load("mem_0000000000000000")
    with pytest.raises(NotFound, match="unknown memory id"):
        eng.confirm("mem_nope", now=T0, actor="human:alice")
    with pytest.raises(NotFound, match="unknown conflict C42"):
        eng.resolve_conflict("C42", "both", now=T0, actor="human:alice")
    with pytest.raises(BadInput) as malformed:
        eng.load_conflict("nonsense")
    assert not isinstance(malformed.value, NotFound)

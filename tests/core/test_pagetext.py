"""The page writer without YAML (core/pagetext.py) writes exactly what the YAML writer writes, for every value it
accepts; it declines the rest (issue 10)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memkeeper.core import pagetext
from memkeeper.core.models import Entry, Verified
from memkeeper.core.pagefmt import HANDLER, Style, dumps, parse_entry
from memkeeper.core.pagetext import page_block
from tests.core.entry_strategies import common_entry, entries

T = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

# Strings that sit on one side or the other of a rule of the YAML writer.
EDGES = [
    "plain",
    "a: b",
    "a:b",
    "x:",
    "#x",
    "a #b",
    "a#b",
    "-",
    "- x",
    "-x",
    "?",
    "? x",
    "?x",
    ":x",
    ": x",
    "...x",
    "..x",
    "---x",
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "n",
    "null",
    "Null",
    "~",
    "2026-11-29",
    "2026-11-29T10:00:00Z",
    "2026-1-2 3:04:05",
    "12",
    "-0",
    "007",
    "09",
    "0x1F",
    "0o17",
    "1.5",
    "1e5",
    "1.0e+05",
    "1_000",
    "0b1",
    "0b12",
    "190:20:30",
    "1:20",
    ".5",
    "+1",
    ".inf",
    "-.Inf",
    ".NaN",
    "NaN",
    "=",
    "<<",
    "!",
    "&",
    "*",
    "!x",
    "&x",
    "*x",
    "it's",
    "'quoted'",
    '"dq"',
    "a,b",
    "[x]",
    "{x}",
    "a[b]",
    "%x",
    "@x",
    "`x",
    "|x",
    ">x",
    "a - b",
    "e:",
    "x ?",
    "x?y",
    "x, y",
    "C#",
    "https://x.y/z?q=1#frag",
    "The Sale database port is 781 from now on, per…",
    "Ünïcödé",
    "日本語",
    "a\u00a0b",
    "emoji 😀",
    "tab\tx",
    "a  b",
    " a",
    "a ",
    "",
    "line\nbreak",
    "nel\x85",
    "bom\ufeff",
    "\ufffd",
    "\ue000",
    "ls\u2028",
    "mem_d6d2b9cc2dbe1329",
    "memkeeper.entry.v1",
    "agent:cli",
    "0123abc",
    "abc123",
]
_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30)
_ascii = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=30)
_string = st.one_of(_text, _ascii, st.sampled_from(EDGES))
_scalar = st.one_of(
    _string,
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
)
_key = st.one_of(
    st.from_regex(r"[a-z_][a-z0-9_]{0,20}", fullmatch=True),
    st.sampled_from(["on", "no", "yes", "null", "y", "Key", "a-b", "1a", "k" * 129, "k" * 128]),
)
_value = st.one_of(_scalar, st.lists(_scalar, max_size=3), st.dictionaries(_key, _scalar, max_size=2))


def _yaml(metadata: dict[str, Any]) -> str:
    return HANDLER.export(metadata, style=Style.PAGE)


@pytest.mark.parametrize("s", EDGES)
def test_each_edge_string_is_written_as_yaml_writes_it_or_declined(s):
    for metadata in ({"k": s}, {"k": [s, "x"]}, {"k": ["x", s], "n": None}):
        block = page_block(metadata)
        if block is not None:
            assert block == _yaml(metadata)


def test_the_common_values_are_written_here():
    metadata = {
        "schema_version": "memkeeper.entry.v1",
        "title": "The Sale database port is 781 from now on, per…",
        "created_at": "2026-11-29T10:00:00Z",
        "confidence": 0.7,
        "strength": 1.0,
        "reinforcement": 0,
        "tiny": 1e-05,
        "huge": 1e17,
        "source_ref": None,
        "flag": True,
        "recall": [],
        "tags": ["ops", "yes", "a: b"],
    }
    assert page_block(metadata) == _yaml(metadata)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_key, _value, min_size=1, max_size=6))
def test_what_is_written_here_is_what_yaml_writes(metadata):
    block = page_block(metadata)
    if block is not None:
        assert block == _yaml(metadata)


def _entries():
    return entries(st.sampled_from([_string, st.sampled_from(EDGES)]), _text, notes=_ascii, empty_content="c")


def _yaml_page(entry: Entry) -> str:
    body = pagetext.entry_head(entry) + entry.content + pagetext.entry_tail(entry)
    return dumps(entry.frontmatter(), body)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_entries())
def test_an_entry_page_is_the_page_yaml_writes_and_reads_back(entry):
    page = pagetext.render_entry(entry)
    assert page == _yaml_page(entry)
    assert parse_entry(page) == entry


def test_a_captured_page_needs_no_yaml_but_a_verified_one_does():
    entry = common_entry(T, title="Deploy path…")
    assert page_block(entry.frontmatter()) is not None
    entry.verified = Verified(by="human:alice", at=T)
    assert page_block(entry.frontmatter()) is None  # a nested mapping: YAML writes it
    assert pagetext.render_entry(entry) == _yaml_page(entry)

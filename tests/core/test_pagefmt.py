"""The page format: one YAML handler for entries, conflict records, quiz ledgers and review files."""

from __future__ import annotations

from datetime import UTC, date, datetime

import frontmatter
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memkeeper.core import Engine, pagefmt
from memkeeper.core.pagefmt import (
    HANDLER,
    PageError,
    Style,
    dumps,
    fast_block,
    loads,
    parse_entry,
    read_block,
    render_entry,
    split_frontmatter,
)
from memkeeper.core.quiz import parse_ledger, render_ledger
from memkeeper.core.tiers import parse_review
from tests.conftest import T0
from tests.core.entry_strategies import common_entry, entries


def test_the_handler_is_python_frontmatters_yaml_handler_on_libyaml():
    assert isinstance(HANDLER, frontmatter.default_handlers.YAMLHandler)
    if yaml.__with_libyaml__:
        assert issubclass(pagefmt._Loader, yaml.CSafeLoader)
        assert issubclass(pagefmt._PageDumper, yaml.CSafeDumper)
        assert pagefmt._StringLoader is yaml.CBaseLoader


def test_a_page_round_trips_through_a_post():
    text = dumps({"title": "x", "n": 3}, "# body\n\n---\n  kept  \n")
    post = loads(text)
    assert isinstance(post, frontmatter.Post) and post.handler is HANDLER
    assert post.metadata == {"title": "x", "n": 3} and post.content == "# body\n\n---\n  kept  \n"
    assert frontmatter.dumps(post, handler=HANDLER) == text


@pytest.mark.parametrize(
    ("block", "line", "why"),
    [
        ("a: 1\nb: 2026-02-30", 3, "day is out of range"),  # a bare ValueError from the constructor before
        ("a: !!int x", 2, "invalid literal"),
        ("a: 1\nb: 2\nc: !!bool maybe", 4, "unreadable value"),
        ("a: 1\nb: !!python/object:os.system x", 3, "could not determine a constructor"),
        ("a: !custom x", 2, "could not determine a constructor"),
        ("a: &x 1\nb: *x", 2, "anchors and aliases"),
        ("a: [1\nb: 2", 3, "malformed YAML"),
        ("a: b\x01", 2, "unacceptable character #x0001"),
    ],
)
def test_unsafe_or_malformed_yaml_is_a_page_error_with_its_line(block, line, why):
    with pytest.raises(PageError, match=why) as err:
        split_frontmatter(f"---\n{block}\n---\nbody\n")
    assert err.value.line == line and f"line {line}" in str(err.value)


def test_nesting_is_bounded():
    with pytest.raises(PageError):
        split_frontmatter("---\na: " + "[" * 100_000 + "\n---\n")


def test_page_values_cannot_inject_keys_or_close_the_block():
    meta = {
        "title": "x\n---\nstatus: denied",
        "t2": "--- a",
        "t3": " lead",
        "t4": "true",
        "t5": "2026-11-20",
        "t6": "a\u2028b",
        "t7": "x\x85y",
        "tags": ["a\nb: c"],
    }
    text = dumps(meta, "body\n")
    assert text.count("\n---\n") == 1 and "\nstatus:" not in text
    assert split_frontmatter(text) == (meta, "body\n")


def test_a_crlf_page_is_read_and_a_cr_only_page_is_refused():
    assert split_frontmatter("---\r\na: 1\r\n---\r\nbody\r\n") == ({"a": 1}, "body\n")
    with pytest.raises(PageError, match="CR-only"):
        split_frontmatter("---\ra: 1\r---\rbody\r")


def test_read_block_reports_instead_of_raising():
    assert read_block("---\na: 1\n---\nbody").data == {"a": 1}
    assert read_block("---\ncreated: 2026-11-20\n---\n", strings=True).data == {"created": "2026-11-20"}
    assert read_block("no block").error.kind == "missing"
    assert read_block("---\na: 1\n").error.kind == "unclosed"
    bad = read_block("---\na: 1\nb: &x 2\n---\nbody")
    assert bad.error.kind == "alias" and bad.error.line == 3 and bad.body_offset == len("---\na: 1\nb: &x 2\n---\n")


def test_ledger_frontmatter_problems_name_the_line():
    ledger = parse_ledger("---\nkind: quiz-ledger\nupdated: [x\n---\n\n## Items (0)\n\n(none)\n")
    assert any(p.startswith("line 4: frontmatter does not parse") for p in ledger.problems), ledger.problems


def test_an_llmwiki_ledger_with_emoji_in_its_frontmatter_round_trips_byte_for_byte():
    text = (
        "---\nkind: quiz-ledger\nperson: alice\nscheduler: leitner\nupdated: 2026-11-20\ntitle: Quiz ledger 🎉\n"
        "tags: [quiz, meta]\n---\n\n## Items (0)\n\n(none)\n"
    )
    ledger = parse_ledger(text)
    assert ledger.problems == [] and ledger.updated == date(2026, 11, 20)
    assert render_ledger(ledger) == text


def test_review_frontmatter_reads_as_strings_and_is_written_plain():
    head = {"owner": "human:josé 🎉", "created": "2026-11-20", "status": "draft", "tags": ["cleanup"]}
    text = HANDLER.export(head, style=Style.REVIEW)
    assert text == "owner: human:josé 🎉\ncreated: 2026-11-20\nstatus: draft\ntags: [cleanup]\n"
    review = parse_review("---\n" + text + "---\n\n## Decision\n\nA. accepted IDs: (none)\n")
    assert review.frontmatter == head and review.problems == []


def test_an_entry_with_an_unreadable_date_is_reported_not_fatal(eng):
    r = eng.capture("The kestrel rollout uses canary waves of five percent.", now=T0)
    good = (eng.root / r.details["page"]).read_text()
    bad = good.replace("tags: []\n", "tags: []\nreviewed: 2026-02-30\n").replace(
        r.details["memory_id"], "mem_00000000000000ff"
    )
    (eng.root / "entries" / "bad-date.md").write_text(bad)
    line = bad.split("\n").index("reviewed: 2026-02-30") + 1
    fresh = Engine.open(eng.root)
    problems = fresh.check().problems
    assert any(
        p.startswith(f"entries/bad-date.md: malformed YAML frontmatter (frontmatter line {line})") for p in problems
    ), problems
    assert len(fresh.retrieve("kestrel", now=T0, record_access=False).details["results"]) == 1
    assert (eng.root / "entries" / "bad-date.md").read_text() == bad
    fresh.close()


# ---------------------------------------------------------------------------------------- the fast path (issue 10)

_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
_ascii = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)
_word = st.one_of(
    _text,
    _ascii,
    st.sampled_from(
        [
            "yes",
            "No",
            "null",
            "on",
            "0b101",
            "0b12",
            "1e5",
            "12",
            "-0",
            "007",
            "1.5",
            "a: b",
            "a #b",
            "a#b",
            "x:",
            "'q'",
            "[]",
            "~",
            "-",
            "2026-01-02",
            "abc123",
            "0123abc",
            "a  b",
            " a",
            "a ",
        ]
    ),
)


def _entries():
    return entries(st.just(_word), _text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_entries())
def test_the_fast_path_reads_engine_pages_as_the_full_parser_does(entry):
    fm, _ = HANDLER.split(render_entry(entry))
    fast = fast_block(fm)
    if fast is not None:
        assert fast == HANDLER.load(fm)
        assert [type(v) for v in fast.values()] == [type(v) for v in HANDLER.load(fm).values()]


def test_the_fast_path_takes_the_common_page():
    t = datetime(2026, 1, 2, tzinfo=UTC)
    entry = common_entry(t)
    fm, _ = HANDLER.split(render_entry(entry))
    assert fast_block(fm) == HANDLER.load(fm)
    assert parse_entry(render_entry(entry)) == entry


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_entries(), st.integers(0, 40), st.one_of(_word, _text), st.sampled_from(["replace", "insert", "append"]))
def test_the_fast_path_never_accepts_what_the_full_parser_refuses_or_reads_differently(entry, at, text, how):
    fm, _ = HANDLER.split(render_entry(entry))
    lines = fm.split("\n")
    i = at % len(lines)
    if how == "replace":
        lines[i] = text
    elif how == "insert":
        lines.insert(i, text)
    else:
        lines[i] = lines[i] + text
    block = "\n".join(lines)
    fast = fast_block(block)
    if fast is None:
        return
    full = HANDLER.load(block)  # a PageError here fails the test: the fast path accepted a refused block
    assert fast == full
    assert [type(v) for v in fast.values()] == [type(v) for v in full.values()]

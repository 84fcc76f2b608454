"""Every field of a capture is checked as its text is: undecodable bytes on the command line, and one-line fields
too large to be one, are refused in one line with nothing written (an exploratory pass found the title and key
mangled, the source ref and a retrieve query an internal error, and only the text capped)."""

from __future__ import annotations

import json

import pytest

from .conftest import run

BAD = "Bo\udcffx"  # b"Bo\xffx" on the command line: Python hands it over surrogate-escaped


@pytest.mark.parametrize(
    ("option", "field"),
    [
        ("--title", "title"),
        ("--key", "key"),
        ("--source-ref", "source_ref"),
        ("--recall", "recall"),
        ("--tag", "tags"),
        ("--quiz-question", "quiz_question"),
    ],
)
def test_undecodable_bytes_in_any_field_are_refused_in_one_line(capsys, root, option, field):
    code, out, err = run(capsys, root, "--json", "capture", "The build box is in room nine forty two.", option, BAD)
    assert code == 2 and json.loads(out)["details"] == {
        "reason": "invalid_text",
        "field": field,
        "detail": f"{field} is not valid UTF-8",
    }
    assert err == f"memkeeper: capture reject: invalid_text ({field} is not valid UTF-8)\n"
    assert not list((root / "entries").iterdir()) and not list((root / "receipts").iterdir())


def test_undecodable_bytes_in_a_query_are_refused_in_one_line(capsys, root):
    code, _, err = run(capsys, root, "retrieve", f"build {BAD}")
    assert code == 2 and err == "memkeeper: retrieve reject: invalid_text (the query is not valid UTF-8)\n"


@pytest.mark.parametrize(
    ("option", "value", "limit"),
    [("--title", "t" * 1025, 1024), ("--source-ref", "raw/" + "s" * 2045, 2048), ("--quiz-question", "q" * 4097, 4096)],
    ids=["title", "source_ref", "quiz_question"],
)
def test_a_field_too_large_to_be_one_line_is_refused(capsys, root, option, value, limit):
    code, out, err = run(capsys, root, "--json", "capture", "The build box is in room nine forty two.", option, value)
    field = option[2:].replace("-", "_")
    assert code == 2 and json.loads(out)["details"]["reason"] == "oversize_field"
    said = f"the {field} is {len(value)} bytes; the limit is {limit} bytes"
    assert err == f"memkeeper: capture reject: oversize_field ({said})\n"
    assert not list((root / "entries").iterdir())
    # At the limit it is taken.
    code, out, _ = run(capsys, root, "--json", "capture", "The build box is in room nine forty two.", option, value[1:])
    assert code == 0 and json.loads(out)["status"] == "captured"


def test_too_many_tags_are_refused(capsys, root):
    tags = [arg for n in range(65) for arg in ("--tag", f"t{n}")]
    code, _, err = run(capsys, root, "capture", "The build box is in room nine forty two.", *tags)
    assert code == 2 and err == "memkeeper: capture reject: oversize_field (65 tags were given; the limit is 64)\n"


def test_a_key_of_spaces_is_no_key(capsys, root):
    code, out, err = run(capsys, root, "--json", "capture", "The build box is in room nine forty two.", "--key", "  ")
    assert (code, err) == (0, "") and json.loads(out)["status"] == "captured"


def test_an_invisible_character_in_a_key_names_the_same_partition(capsys, root):
    """A zero-width space inside an explicit key was a separator ("pay\u200bments-settle" gave the key
    "pay-ments-settle"), so one statement under two keys that look the same was stored twice."""
    text = "Payments settle at 17:00 UTC on business days."
    code, out, _ = run(capsys, root, "--json", "capture", text, "--key", "payments-settle")
    code, out, _ = run(capsys, root, "--json", "capture", text, "--key", "pay\u200bments-settle")
    r = json.loads(out)
    assert r["status"] == "consolidated" and r["details"]["canonical_key"] == "payments-settle"


def test_a_refused_value_is_repeated_only_in_part(capsys, root):
    """An unknown category of 5,000 characters was repeated whole in the one-line refusal (the MCP server cut it
    already); the receipt keeps it whole."""
    value = "c" * 2500 + "-middle-" + "d" * 2500
    code, out, err = run(
        capsys, root, "--json", "capture", "The build box is in room nine forty two.", "--category", value
    )
    assert code == 2 and json.loads(out)["details"]["value"] == value
    assert err.startswith("memkeeper: capture reject: invalid_category 'ccc") and "…" in err and "-middle-" not in err
    assert len(err) < 600 and err.count("\n") == 1

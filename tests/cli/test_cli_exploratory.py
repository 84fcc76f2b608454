"""Defects an exploratory pass on the command line found (2026-12-03): a short password word in prose, CRLF
line endings from stdin, a page in a subfolder, a malformed conflict record."""

from __future__ import annotations

import io
import json
import sys

from .conftest import run


def test_capture_refuses_a_pwd_in_prose_and_keeps_prose_about_pwd(capsys, root):
    code, _, err = run(capsys, root, "capture", "my mysql pwd is Sup3rS3cret!")
    assert code == 2 and err.count("\n") == 1 and "secret_detected" in err and "Sup3rS3cret" not in err
    assert list((root / "entries").iterdir()) == []
    for text in ("the pwd command prints the working directory", "run pwd to check the path of the job"):
        code, out, err = run(capsys, root, "capture", text)
        assert code == 0 and "captured" in out, (text, err)


def test_capture_dash_stores_crlf_from_stdin_as_lf(capsys, root, monkeypatch):
    raw = b"Deploy notes for the heron billing service\r\nline two of the notes\r\nline three\r\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), newline=""))
    code, out, _ = run(capsys, root, "--json", "capture", "-")
    assert code == 0
    first = json.loads(out)
    page = root / first["details"]["page"]
    assert b"\r" not in page.read_bytes()
    assert "line two of the notes\nline three\n" in page.read_text(encoding="utf-8")
    code, out, _ = run(capsys, root, "--json", "capture", raw.decode().replace("\r\n", "\n"))
    again = json.loads(out)
    assert again["status"] == "consolidated" and again["details"]["memory_id"] == first["details"]["memory_id"]


def test_check_reports_a_page_in_a_subfolder_in_one_line_and_repair_moves_nothing(capsys, root):
    code, out, _ = run(capsys, root, "--json", "capture", "The staging cluster runs in the eu-west-1 region.")
    page = root / json.loads(out)["details"]["page"]
    (root / "entries" / "sub").mkdir()
    nested = root / "entries" / "sub" / "x.md"
    nested.write_bytes(page.read_bytes())
    code, out, err = run(capsys, root, "check")
    assert code == 2
    lines = [line for line in out.splitlines() if line.startswith("entries/sub/x.md:")]
    assert len(lines) == 1 and "not read" in lines[0] and "move it up into entries/" in lines[0], out
    code, out, _ = run(capsys, root, "check", "--repair")
    assert code == 2 and nested.read_bytes() == page.read_bytes()
    assert sum(line.startswith("entries/sub/x.md:") for line in out.splitlines()) == 1, out


def test_a_conflict_record_missing_its_id_is_one_line_naming_the_file_and_the_field(capsys, root):
    run(capsys, root, "capture", "The primary database for billing is Postgres.", "--key", "billing-db")
    code, out, _ = run(
        capsys, root, "--json", "capture", "The primary database for billing is MySQL.", "--key", "billing-db"
    )
    assert json.loads(out)["status"] == "conflict"
    record = root / "conflicts" / "C1.md"
    (root / "conflicts" / "C9.md").write_text(record.read_text().replace("conflict_id: C1\n", ""))
    expected = "conflicts/C9.md: malformed conflict record: missing field conflict_id"
    code, out, _ = run(capsys, root, "check")
    assert code == 2 and expected in out.splitlines(), out
    code, out, err = run(capsys, root, "--as", "human:alice", "conflicts", "resolve", "C9", "--keep", "existing")
    assert code == 2 and err == f"memkeeper: {expected}\n"
    # A bad id no longer stops the listing; the record is left out of it (check names it).
    (root / "conflicts" / "C10.md").write_text(record.read_text().replace("conflict_id: C1", "conflict_id: banana"))
    code, out, err = run(capsys, root, "conflicts", "list")
    assert code == 0 and out.split()[0] == "C1" and "C9" not in out and "C10" not in out, (out, err)
    code, out, _ = run(capsys, root, "check")
    assert (
        "conflicts/C10.md: malformed conflict record: invalid field conflict_id (line 3): must be C<N>, not 'banana'"
        in (out.splitlines())
    ), out

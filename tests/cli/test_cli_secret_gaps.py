"""`memkeeper capture` refuses a PIN after a colon or an equals sign and a passphrase of plain words, and keeps a
version pin and prose about passwords (the front door of core/secrets.py's prose rules)."""

from __future__ import annotations

import pytest

from tests.cli.conftest import run

SECRETS = [
    "my bank PIN: 4821",
    "The router admin PIN=4821",
    "the wifi passphrase is correct horse battery staple",
    "password: hunter2 for the router",
    "The NAS password is correct-horse-battery-staple.",
]
ALLOWED = [
    "the pin was 2023",
    "we pin numpy to 2023",
    "pin numpy at 1.26",
    "password manager is 1Password",
    "reset your password in settings",
    "the PIN pad is broken",
    "pin the tab when you work on it",
]


@pytest.mark.parametrize("text", SECRETS)
def test_the_command_line_refuses_the_secret_and_writes_nothing(capsys, root, text):
    code, out, err = run(capsys, root, "capture", text)
    assert code == 2, (out, err)
    assert "secret_detected" in err
    assert list((root / "entries").iterdir()) == []
    code, out, err = run(capsys, root, "capture", text, "--redact", "--json")
    assert code == 0, err
    page = (root / "entries").glob("*.md").__next__().read_text(encoding="utf-8")
    assert "[REDACTED:" in page
    for secret in ("4821", "correct horse", "hunter2", "correct-horse"):
        assert secret not in page


@pytest.mark.parametrize("text", ALLOWED)
def test_the_command_line_keeps_version_pins_and_prose_about_passwords(capsys, root, text):
    code, out, err = run(capsys, root, "capture", text)
    assert code == 0, err
    assert out.startswith("capture: captured "), out

"""What every command-line test shares: a fixed clock, a helper that runs one command, a fresh wiki."""

from __future__ import annotations

import pytest

from memkeeper.tui.cli import main

NOW = ["--now", "2026-11-20T09:00:00Z"]


def run(capsys, root, *args):
    code = main(["--root", str(root), *NOW, *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def root(tmp_path, capsys):
    r = tmp_path / "memory"
    assert main(["--root", str(r), *NOW, "init"]) == 0
    capsys.readouterr()
    return r

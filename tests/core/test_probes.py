"""The crash and contention probes of issue 7, small enough for `make test` (`make stress` runs the long ones)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.probes import contention_probe, kill_probe, seed_wiki

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.long
def test_random_sigkills_leave_pages_parseable_and_check_clean(tmp_path):
    root = tmp_path / "wiki"
    seed_wiki(root)
    rep = kill_probe(root, 20, seed=7)
    assert rep.ok, (rep.lost, rep.unparseable, rep.next_command_failures, rep.check_problems)
    assert rep.kills == 20 and rep.ops_done > 0


def test_concurrent_writers_and_a_reader_lose_nothing(tmp_path):
    rep = contention_probe(tmp_path / "wiki", writers=3, captures=30, readers=1)
    assert rep.ok, (rep.failures[:5], rep.lost[:5], rep.reader_failures[:5], rep.check_problems[:5])
    assert rep.captures == 90 and rep.statuses == {"captured": 90}
    assert rep.reader_calls > 0


def test_stress_script_runs_and_prints_its_figures(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            str(REPO / "scripts" / "stress.py"),
            "--kills",
            "2",
            "--writers",
            "2",
            "--captures",
            "3",
            "--readers",
            "1",
            "--dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "SIGKILLs: 2" in out.stdout and "captures: 6" in out.stdout and "lost: 0" in out.stdout

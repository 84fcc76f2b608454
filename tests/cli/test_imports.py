"""What the command line loads: importing it, and running `retrieve --preview`, must not import the parts of the
engine (and the libraries) that only other commands need (issue 10: the CLI's time is mostly its imports).
Checked in a fresh interpreter, by `sys.modules`; no timings here (those are in benchmarks/scale.py)."""

from __future__ import annotations

import json
import subprocess
import sys

from memkeeper.core import Engine
from tests.conftest import T0

# Imported by `import memkeeper.tui.cli` before issue 10; none of them is needed to parse a command line.
NOT_ON_IMPORT = [
    "pydantic",
    "yaml",
    "frontmatter",
    "filelock",
    "fsrs",
    "memkeeper.core.record",
    "memkeeper.core.pagefmt",
    "memkeeper.core.capture",
    "memkeeper.core.conflicts",
    "memkeeper.core.secrets",
    "memkeeper.core.quiz",
    "memkeeper.core.quiz_queue",
    "memkeeper.core.tier_queue",
    "memkeeper.core.integrity",
]
# A preview retrieval reads the index only: no page parsing (pydantic, YAML), no write lock, no other queue.
NOT_ON_RETRIEVE_PREVIEW = NOT_ON_IMPORT
# A capture builds records (core/record.py, a plain class) and counts the quiz's due items for hot.md (plain classes
# too): pydantic is the MCP server's alone, and FSRS is needed only to schedule an answer. hot.md lists the pending
# tier review files, which needs no tier rules. A new record's page is written without YAML (core/pagetext.py).
NOT_ON_CAPTURE = [
    "pydantic",
    "pydantic_core",
    "fsrs",
    "filelock",
    "memkeeper.core.tier_queue",
    "memkeeper.core.tiers",
    "yaml",
    "frontmatter",
    "memkeeper.core.pagefmt",
]


def _loaded(code: str, names: list[str]) -> list[str]:
    probe = code + f"\nimport json, sys\nprint(json.dumps([n for n in {names!r} if n in sys.modules]))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_importing_the_cli_loads_none_of_the_engine_parts_it_does_not_need():
    assert _loaded("import memkeeper.tui.cli", NOT_ON_IMPORT) == []


def _wiki_and_cli_run(tmp_path, args: list[str], expect: str) -> str:
    """A wiki with one record, and the code of a CLI run on it (in the probe's fresh interpreter) that must succeed
    and print `expect`."""
    eng = Engine.init(tmp_path / "w", now=T0)
    eng.capture("The staging database lives on the second rack", now=T0)
    eng.close()
    return (
        "import contextlib, io\n"
        "from memkeeper.tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    assert main(['--root', {str(tmp_path / 'w')!r}, *{args!r}]) == 0\n"
        f"assert {expect!r} in out.getvalue().lower()\n"
    )


def test_retrieve_preview_loads_no_page_parser_no_lock_no_queue(tmp_path):
    code = _wiki_and_cli_run(tmp_path, ["retrieve", "staging database", "--preview"], "staging")
    assert _loaded(code, NOT_ON_RETRIEVE_PREVIEW) == []
    # A capture still loads what it needs (the check above would pass vacuously if the names were wrong).
    capture = _wiki_and_cli_run(tmp_path / "c", ["capture", "The backup job runs nightly at two"], "captured")
    assert set(_loaded(capture, NOT_ON_IMPORT)) >= {"memkeeper.core.capture", "memkeeper.core.record"}


def test_capture_loads_no_pydantic_and_no_yaml(tmp_path):
    code = _wiki_and_cli_run(tmp_path, ["capture", "The backup job runs nightly at two"], "captured")
    # hot.md's quiz count ran and a page was written: the check would pass vacuously if the capture stopped short.
    ran = ["memkeeper.core.quiz_queue", "memkeeper.core.record", "memkeeper.core.pagetext"]
    assert _loaded(code, NOT_ON_CAPTURE + ran) == ran
    # The MCP server still declares its tools with pydantic: what capture leaves out is still installed.
    assert _loaded("import memkeeper.agents.mcp_server", ["pydantic"]) == ["pydantic"]

"""`e` hands the selected page to $EDITOR with the desk suspended, then the desk re-reads it."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from memkeeper.tui.screens.browse import BrowseScreen, ViewRef
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.verify import VerifyScreen

from .conftest import open_pane, wait_for

pytestmark = pytest.mark.anyio

SIZE = (120, 34)
EDIT = " Edited by hand."


@pytest.fixture
def editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """$EDITOR is a tiny script: it logs the path it was given and adds a sentence to the page's content."""
    log = tmp_path / "editor.log"
    script = tmp_path / "fake-editor"
    script.write_text(f"""#!{sys.executable}
import sys
path = sys.argv[1]
with open({str(log)!r}, "a") as out:
    out.write(path + "\\n")
lines = open(path, encoding="utf-8").read().split("\\n")
at = lines.index("## Content") + 1
lines[at] += {EDIT!r}
open(path, "w", encoding="utf-8").write("\\n".join(lines))
""")
    script.chmod(0o755)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    return log


def record_suspends(app, monkeypatch) -> list[str]:
    """The headless test driver cannot suspend: record that the desk asked to (it must, or the editor and the
    desk would share the terminal)."""
    calls: list[str] = []

    @contextmanager
    def suspend():
        calls.append("suspend")
        yield
        calls.append("resume")

    monkeypatch.setattr(app, "suspend", suspend)
    return calls


def edited_paths(log: Path) -> list[str]:
    return log.read_text().split() if log.exists() else []


async def test_e_in_verify_suspends_runs_the_editor_and_rereads_the_record(demo, editor, monkeypatch):
    app, engine = demo, demo.engine
    calls = record_suspends(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        record = pane.current
        page = engine.page_of(record.memory_id)
        await pilot.press("e")
        assert calls == ["suspend", "resume"]
        assert edited_paths(editor) == [str(engine.root / page)]
        await wait_for(pilot, lambda: pane.status.plain == f"Edited {page}; re-read.", what="the re-read")
        assert engine.get(record.memory_id).content.endswith(EDIT.strip())
        assert pane.current.content.endswith(EDIT.strip())  # the pane shows the edited record


async def test_e_in_browse_edits_the_entry_on_view_and_not_a_generated_view(demo, editor, monkeypatch):
    app, engine = demo, demo.engine
    calls = record_suspends(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "B", BrowseScreen)
        assert pane.current == ViewRef("view", "hot.md")
        await pilot.press("e")
        assert calls == [] and "generated" in pane.status.plain

        memory_id = engine.pending_verifications()[0].memory_id
        await pane.show(ViewRef("entry", memory_id))
        await pilot.press("e")
        assert calls == ["suspend", "resume"]
        assert edited_paths(editor) == [str(engine.root / engine.page_of(memory_id))]
        await wait_for(pilot, lambda: EDIT.strip() in pane.markdown.source, what="the edited page on view")


async def test_e_in_conflicts_edits_the_existing_side(demo, editor, monkeypatch):
    app, engine = demo, demo.engine
    record_suspends(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "C", ConflictsScreen)
        existing = pane.current.existing
        await pilot.press("e")
        assert edited_paths(editor) == [str(engine.root / existing["page"])]
        await wait_for(pilot, lambda: engine.get(existing["memory_id"]).content.endswith(EDIT.strip()))


async def test_an_editor_that_cannot_start_is_an_error_toast(demo, monkeypatch):
    app = demo
    record_suspends(app, monkeypatch)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "/nonexistent/editor --wait")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("e")
        await wait_for(
            pilot,
            lambda: any(n.title == "Edit" and "/nonexistent/editor" in n.message for n in app._notifications),
            what="the error toast",
        )
        assert app.is_running

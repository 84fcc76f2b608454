"""What the desk writes to the terminal never carries a control sequence or a bidi override from stored text. An agent
stored a note holding `ESC ] 0 ; … BEL` (the window's title), `ESC [ 2 J ESC [ H` (clear the screen), a C1 CSI and
right-to-left overrides, embeddings and isolates; the engine keeps it verbatim, and the Browse page, the Verify detail
and the Conflicts sides passed it to the terminal (Rich's Text drops only BEL, BS, VT, FF and CR). Each pane family
is read here as the terminal would receive it: the compositor's full repaint, as written, less the sequences Textual
writes itself (cursor moves, colours, links). The words around the controls, the lines of a body and the letters of
a right-to-left script still show."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from textual.pilot import Pilot

from memkeeper.core import Engine
from memkeeper.core.models import inert_text
from memkeeper.tui.screens.browse import BrowseScreen, ViewRef
from memkeeper.tui.screens.conflicts import ConflictsScreen
from memkeeper.tui.screens.modals import TextModal
from memkeeper.tui.screens.quiz import QuizScreen
from memkeeper.tui.screens.receipts import ReceiptsScreen
from memkeeper.tui.screens.verify import VerifyScreen
from memkeeper.tui.widgets.indextree import NodeRef

from .conftest import mounted, open_pane, settle, wait_for
from .snapshot_app import FIXED_NOW as NOW
from .snapshot_app import PERSON, build_app

pytestmark = pytest.mark.anyio

SIZE = (140, 45)
#: What an agent may put in a note: OSC 0 (set the window's title, its BEL dropped by Rich: left unterminated), CSI 2J
#: and CSI H (clear the screen, cursor home), a C1 CSI (U+009B, CSI for a terminal that reads 8-bit controls), a
#: right-to-left override around a file name, an isolate, an embedding; a line in Hebrew and Arabic (letters, not
#: controls), and a second line of the body that starts with a tab.
CONTROLS = (
    "\x1b]0;pwned\x07 \x1b[2J\x1b[H invoice \u202eexe.fdp\u202c \x9b31m \u2066isolated\u2069 \u202bembedded\u202c"
)
RTL = "שלום עולם مرحبا بالعالم"
DB = f"The CI runner uses Postgres 15 for tests. {CONTROLS}.\n{RTL}\n\tThe tab line stays."
DB_AGAIN = f"The CI runner uses MySQL 8 for tests. {CONTROLS} again."
TRAIN = f"The release train leaves on Fridays at noon. {CONTROLS}."
REASON = f"wrong {CONTROLS}"
SEEN = ("invoice", "exe.fdp", "isolated", "embedded", "שלום", "مرحبا")

#: The sequences Textual itself writes around the cells: colours (SGR), cursor moves, OSC 8 links (`ESC ] 8 ; … ESC \`).
#: An OSC 8 link whose address held an ESC would not match, and its ESC would be left over.
OWN = re.compile(r"\x1b\[[0-9;:]*m|\x1b\[\d+;\d+H|\x1b\]8;[^\x1b\x07]*\x1b\\")
#: What must not reach the terminal from stored text: ESC (whatever follows it), the other C0 controls but the line
#: break, DEL and the C1 controls, and the bidi embeddings, overrides and isolates.
ACTED_ON = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def written(pilot: Pilot) -> str:
    """What the desk writes to the terminal for the screen on top (its full repaint), less Textual's own sequences."""
    app = pilot.app
    update = app.screen._compositor.render_update(full=True)
    return OWN.sub("", update.render_segments(app.console))


def assert_inert(pilot: Pilot, *words: str) -> None:
    out = written(pilot)
    found = sorted({f"U+{ord(c):04X}" for c in ACTED_ON.findall(out)})
    assert not found, f"{found} reach the terminal: {out[max(0, out.find('pwned') - 80) : out.find('pwned') + 80]!r}"
    for word in words:
        assert word in out, f"{word!r} is not shown"


@pytest.fixture
def hostile_root(tmp_path: Path) -> Path:
    """A wiki where agents stored the controls: a pending note (Verify, Browse), a contradiction of it (Conflicts),
    a quizzable note (Quiz), and a denial whose reason holds them (Receipts, the denied list's notes)."""
    root = tmp_path / "wiki"
    then = NOW - timedelta(days=1)
    engine = Engine.init(root, now=then - timedelta(days=1))
    try:
        first = engine.capture(DB, now=then, actor="agent:probe", title="CI database", key="ci-db")
        assert first.ok, first
        second = engine.capture(DB_AGAIN, now=then, actor="agent:probe", title="CI database", key="ci-db")
        assert second.status == "conflict", second
        quiz = engine.capture(
            TRAIN, now=then, actor="agent:probe", title="Release train", category="decision", source_type="user_stated"
        )
        assert quiz.ok, quiz
        denied = engine.capture(
            "The staging cluster runs on three nodes in Frankfurt.", now=then, actor="agent:probe", title="Staging"
        )
        assert engine.deny(denied.details["memory_id"], now=then, actor="human:demo", reason=REASON).ok
        engine.create_ledger(PERSON, "leitner", now=then, actor="human:demo")
    finally:
        engine.close()
    return root


async def test_browse_shows_an_entry_page_and_a_view_without_the_controls(hostile_root):
    app = build_app(hostile_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        tree = screen.index_tree
        fact = tree.find(NodeRef("category", "fact"))
        tree.move_cursor(fact)
        await pilot.press("enter")
        await wait_for(pilot, lambda: fact.children, what="the fact entries")
        node = next(n for n in fact.children if "CI database" in str(n.label))
        tree.select_node(node)
        await wait_for(pilot, lambda: screen.current == ViewRef("entry", node.data.value), what="the entry page")
        await settle(pilot)
        assert_inert(pilot, "Postgres 15", *SEEN, "The tab line stays.")
        # CONFLICTS.md, which the engine writes with both sides' statements
        tree.select_node(tree.find(NodeRef("view", "CONFLICTS.md")))
        await wait_for(pilot, lambda: screen.current == ViewRef("view", "CONFLICTS.md"), what="CONFLICTS.md")
        await settle(pilot)
        assert_inert(pilot, "MySQL 8", "invoice", "isolated")


async def test_verify_shows_the_list_the_detail_the_whole_text_and_a_denials_note_without_the_controls(hostile_root):
    app = build_app(hostile_root)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert pane.current is not None and pane.current.title == "CI database"
        assert_inert(pilot, "Postgres 15", *SEEN, "The tab line stays.")
        await pilot.press("v")  # the whole text, in a dialog
        await mounted(pilot, TextModal)
        assert_inert(pilot, "Postgres 15", *SEEN)
        await pilot.press("escape")
        await mounted(pilot, VerifyScreen)
        await pilot.press("a")  # the denied list: the denial's note repeats the reason given
        await wait_for(pilot, lambda: pane.current is not None and pane.current.title == "Staging", what="denied")
        await settle(pilot)
        assert_inert(pilot, "Frankfurt", "Denied by human:demo", "invoice", "isolated")


async def test_conflicts_shows_the_list_both_sides_and_the_whole_statements_without_the_controls(hostile_root):
    app = build_app(hostile_root)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "C", ConflictsScreen)
        await wait_for(pilot, lambda: pane.current is not None, what="the conflict")
        await settle(pilot)
        assert_inert(pilot, "Postgres 15", "MySQL 8", "invoice", "exe.fdp", "isolated")
        await pilot.press("v")
        await mounted(pilot, TextModal)
        assert_inert(pilot, "Postgres 15", "MySQL 8", *SEEN)


async def test_quiz_shows_the_question_and_the_revealed_answer_without_the_controls(hostile_root):
    app = build_app(hostile_root)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "Q", QuizScreen)
        assert "Release train" in [c.title for c in pane.cards]
        while pane.current.title != "Release train":
            await pilot.press("s")
            await settle(pilot)
        assert_inert(pilot, "Fridays at noon", "invoice", "exe.fdp")  # (the cloze's gap hides the words after)
        await pilot.press("space")
        await settle(pilot)
        assert pane.revealed
        assert_inert(pilot, "Fridays at noon", "invoice", "exe.fdp", "isolated", "embedded")


async def test_receipts_show_a_reason_given_in_the_list_and_the_json_without_the_controls(hostile_root):
    app = build_app(hostile_root)
    async with app.run_test(size=SIZE) as pilot:
        pane = await open_pane(pilot, "R", ReceiptsScreen)
        await wait_for(pilot, lambda: pane.loads, what="the receipts")
        row = next(i for i, r in enumerate(pane.shown_rows) if r.action == "deny")
        pane.table.move_cursor(row)
        await settle(pilot)
        assert pane.selected() is not None and pane.selected().action == "deny"
        out = written(pilot)
        # The JSON is exact: each control the encoder leaves raw is escaped, as the command line's --json does.
        assert "\\u001b]0;pwned" in out and "\\u009b31m" in out and "\\u202eexe.fdp\\u202c" in out
        assert_inert(pilot, "wrong", "invoice", "isolated")


def test_the_text_keeps_its_length_its_lines_tabs_and_letters():
    """One for one (a cloze's gap and a cut point are offsets into the text), and only what a terminal acts on: line
    breaks, tabs, letters of a right-to-left script, a joiner, a no-break space and a zero-width space stay."""
    text = f"{DB}\u200d\u00a0\u200b·"
    shown = inert_text(text)
    changed = [i for i, (a, b) in enumerate(zip(text, shown, strict=True)) if a != b]
    assert changed == [i for i, c in enumerate(text) if c != "\t" and ACTED_ON.match(c)]
    assert {shown[i] for i in changed} == {" "}
    assert RTL in shown and "\n\tThe tab line stays." in shown and shown.endswith("\u200d\u00a0\u200b·")

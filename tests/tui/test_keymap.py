"""Keymaps: presets, user overrides by id, unknown ids reported, the live keymap applied to the desk."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets._footer import FooterKey

from memkeeper.tui.app import PANE_SCREENS, MemkeeperApp
from memkeeper.tui.keymap import (
    KeymapError,
    default_keys,
    load_keymap,
    normalize_keys,
    preset_names,
    user_keymap_path,
)
from memkeeper.tui.screens.browse import BrowseScreen
from memkeeper.tui.screens.help import HelpScreen
from memkeeper.tui.screens.modals import ConfirmModal, InputModal, TextModal
from memkeeper.tui.screens.verify import VerifyScreen
from memkeeper.tui.widgets.footer import DeskFooter

from .conftest import open_pane, settle, wait_for
from .snapshot_app import build_app

pytestmark = pytest.mark.anyio

SIZE = (120, 34)

# The decision keys the pane engineers settled on (SPEC §6); both presets must carry them.
PANE_DEFAULTS = {
    "conflicts.keep": "k",
    "conflicts.take": "i",
    "conflicts.both": "b",
    "conflicts.snooze": "s",
    "conflicts.snooze_until": "S",
    "conflicts.undo": "u",
    "verify.confirm": "c",
    "verify.deny": "d",
    "verify.deny_reason": "D",
    "verify.undeny": "n",
    "verify.toggle_denied": "a",
    "verify.undo": "u",
    "quiz.reveal": "space,enter",
    "quiz.again": "1",
    "quiz.hard": "2",
    "quiz.good": "3",
    "quiz.easy": "4",
    "quiz.skip": "s",
    "quiz.answer": "a",
    "quiz.undo": "u",
    "tiers.toggle": "space",
    "tiers.tick_all": "*",
    "tiers.apply": "a",
    "tiers.commit": "c",
    "tiers.restore": "w",
    "tiers.replan": "p",
    "tiers.undo": "u",
    "receipts.undo": "u",
}


# The one decision vim moves: k is "up" there, and a motion key must never resolve a conflict.
VIM_DECISIONS = {"conflicts.keep": "K"}


def write_user_keymap(text: str) -> Path:
    path = user_keymap_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------------ loading


def test_presets_ship_default_and_vim() -> None:
    assert {"default", "vim"} <= set(preset_names())


@pytest.mark.parametrize("preset", ["default", "vim"])
def test_presets_cover_every_id_and_nothing_unknown(preset: str) -> None:
    known = MemkeeperApp.known_binding_ids()
    km = load_keymap(preset, known_ids=known | set(PANE_DEFAULTS), use_user_file=False)
    assert km.errors == []
    assert set(km.keys) >= known, f"{preset} lacks {sorted(known - set(km.keys))}"
    for binding_id, keys in PANE_DEFAULTS.items():
        want = VIM_DECISIONS.get(binding_id, keys) if preset == "vim" else keys
        assert km.keys[binding_id] == want, binding_id


def test_default_preset_matches_the_code_defaults() -> None:
    # The preset is the documentation of the defaults: it must say what the code does.
    code = default_keys(MemkeeperApp.binding_classes())
    km = load_keymap("default", use_user_file=False)
    for binding_id, keys in code.items():
        assert sorted(normalize_keys(km.keys[binding_id]).split(",")) == sorted(normalize_keys(keys).split(",")), (
            binding_id
        )


def test_vim_preset_differs_only_in_navigation_and_keep() -> None:
    default = load_keymap("default", use_user_file=False).keys
    vim = load_keymap("vim", use_user_file=False).keys
    changed = {k for k in default if default[k] != vim[k]}
    assert changed == {
        "app.quit",
        "app.next_pane",
        "app.prev_pane",
        "app.cursor_down",
        "app.cursor_up",
        "app.cursor_top",
        "app.cursor_bottom",
        "browse.back",
        "conflicts.keep",
    }
    assert set(default) == set(vim)


def test_docs_list_every_binding_id() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "keymap.md").read_text(encoding="utf-8")
    for binding_id in load_keymap("default", use_user_file=False).keys:
        assert f"`{binding_id}`" in doc, binding_id


def test_every_binding_has_a_namespaced_id() -> None:
    for cls in [MemkeeperApp, *PANE_SCREENS.values()]:
        for bindings in cls._merge_bindings().key_to_bindings.values():
            for b in bindings:
                if b.system or b.action in ("app.focus_next", "app.focus_previous", "screen.copy_text"):
                    continue  # Textual's own focus/copy keys
                if cls is MemkeeperApp:
                    assert b.id and b.id.startswith("app."), b
                else:
                    assert b.id and b.id.startswith(cls.PANE_ID + "."), (cls.__name__, b)


def test_user_file_overrides_by_id() -> None:
    path = write_user_keymap('[keys]\n"browse.search" = "ctrl+f"\n"app.quit" = ["ctrl+q", "f10"]\n')
    km = load_keymap("vim", known_ids=MemkeeperApp.known_binding_ids())
    assert km.keys["browse.search"] == "ctrl+f"
    assert km.keys["app.quit"] == "ctrl+q,f10"
    assert km.keys["app.cursor_top"] == "g,home"  # everything else still from the preset
    assert km.sources == ["vim", str(path)] and km.errors == []


def test_unknown_ids_are_reported_with_their_source() -> None:
    path = write_user_keymap('[keys]\n"browse.serch" = "ctrl+f"\n"conflicts.keep" = "K"\n[extra]\nx = 1\n')
    km = load_keymap("default", known_ids=MemkeeperApp.known_binding_ids() | set(PANE_DEFAULTS))
    assert f"{path}: unknown binding id 'browse.serch'" in km.errors
    assert any("unknown top-level entry 'extra'" in e for e in km.errors)
    assert "browse.serch" not in km.keys and km.keys["conflicts.keep"] == "K"


def test_bad_values_are_reported() -> None:
    write_user_keymap('[keys]\n"browse.search" = ""\n"browse.zone" = 3\n"browse.hot" = "h,"\n')
    km = load_keymap("default", known_ids=MemkeeperApp.known_binding_ids())
    assert len(km.errors) == 3 and km.keys["browse.search"] == "/"


def test_key_names_textual_cannot_produce_are_reported() -> None:
    # "ctrl-b" was accepted without a word: the footer showed it and no key press ever matched it.
    path = write_user_keymap(
        '[keys]\n"conflicts.both" = "ctrl-b"\n"verify.clear" = "Esc"\n"browse.zone" = ["z", "spacebar"]\n'
        '"browse.hot" = ["ctrl+h", "question_mark", "/", "shift+down", "f5"]\n'
    )
    km = load_keymap("default", known_ids=MemkeeperApp.known_binding_ids() | set(PANE_DEFAULTS))
    assert f"{path}: 'conflicts.both' has an unknown key 'ctrl-b' (did you mean 'ctrl+b'?); it keeps its default" in (
        km.errors
    )
    assert any("'verify.clear' has an unknown key 'Esc' (did you mean 'escape'?)" in e for e in km.errors)
    assert any("'browse.zone' has an unknown key 'spacebar' (did you mean 'space'?)" in e for e in km.errors)
    assert len(km.errors) == 3, km.errors  # the good names are taken as they are
    # The binding keeps what it had before the user file (here the preset's key).
    assert km.keys["conflicts.both"] == "b" and km.keys["verify.clear"] == "escape" and km.keys["browse.zone"] == "z"
    assert km.keys["browse.hot"] == "ctrl+h,question_mark,/,shift+down,f5"


def test_broken_user_file_does_not_stop_the_desk() -> None:
    write_user_keymap("[keys\nnot toml")
    km = load_keymap("default")
    assert km.errors and "not valid TOML" in km.errors[0]
    assert km.keys["browse.search"] == "/"


def test_keymap_by_path_and_bad_specs(tmp_path: Path) -> None:
    custom = tmp_path / "mine.toml"
    custom.write_text('[keys]\n"browse.zone" = "x"\n', encoding="utf-8")
    assert load_keymap(str(custom), use_user_file=False).keys == {"browse.zone": "x"}
    with pytest.raises(KeymapError, match="unknown keymap"):
        load_keymap("emacs")
    with pytest.raises(KeymapError, match="cannot read keymap"):
        load_keymap(str(tmp_path / "missing.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("[keys", encoding="utf-8")
    with pytest.raises(KeymapError, match="not valid TOML"):
        load_keymap(str(bad))


def test_user_keymap_path_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert user_keymap_path() == tmp_path / "cfg" / "memkeeper" / "keymap.toml"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert user_keymap_path() == Path(os.path.expanduser("~")) / ".config" / "memkeeper" / "keymap.toml"


# ------------------------------------------------------------------------------------------------ in the desk


async def test_user_override_applies_in_the_desk(demo_root: Path) -> None:
    write_user_keymap('[keys]\n"browse.search" = "ctrl+f"\n"app.receipts" = "F"\n')
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        await pilot.press("slash")
        await pilot.pause()
        assert not screen.query_one("#search-panel").display  # "/" no longer searches
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: screen.query_one("#search-panel").display)
        await pilot.press("escape", "escape")
        await pilot.press("F")
        await wait_for(pilot, lambda: app.current_mode == "receipts")
        assert app.key_for("app.receipts") == "F"


async def test_vim_preset_in_the_desk(demo_root: Path) -> None:
    app = build_app(demo_root, keymap="vim")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("L")
        await wait_for(pilot, lambda: app.current_mode == "conflicts")
        await pilot.press("H", "H")
        await wait_for(pilot, lambda: app.current_mode == "receipts")
        await pilot.press("G")
        await pilot.pause()
        table = app.screen.table
        assert table.cursor_row == table.row_count - 1
        await pilot.press("g")
        await pilot.pause()
        assert table.cursor_row == 0
        await pilot.press("j", "j")
        await pilot.pause()
        assert table.cursor_row == 2
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running, what="q quits in the vim preset")


async def startup_notice(pilot, app, text: str):
    """The notification that says `text`, once the desk has given it."""
    await wait_for(pilot, lambda: any(text in n.message for n in app._notifications), what="startup notification")
    return next(n for n in app._notifications if text in n.message)


async def test_unknown_ids_notify_at_startup(demo_root: Path) -> None:
    write_user_keymap('[keys]\n"browse.serch" = "ctrl+f"\n')
    app = build_app(demo_root)
    assert any("browse.serch" in e for e in app.keymap.errors)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        note = await startup_notice(pilot, app, "unknown binding id 'browse.serch'")
        assert note.severity == "warning" and note.title == "Keymap problems"


async def test_help_shows_remapped_keys(demo_root: Path) -> None:
    write_user_keymap('[keys]\n"browse.search" = "ctrl+f"\n"app.help" = "?,f1"\n')
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = app.screen.rows()
        assert ("browse", "^f", "Search", "browse.search") in rows
        assert any(r[3] == "app.help" and r[1] == "?, f1" for r in rows)
        source = str(app.screen.query_one("#help-source").render())
        assert "keymap: default + $XDG_CONFIG_HOME/memkeeper/keymap.toml" in source


async def test_clashes_are_reported_once(demo_root: Path) -> None:
    write_user_keymap('[keys]\n"browse.zone" = "h"\n')  # h is already hot.md on Browse
    app = build_app(demo_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("h")
        await pilot.press("h")
        await wait_for(pilot, lambda: any("Keymap clash" in n.message for n in app._notifications))
        await pilot.pause()
        assert sum("Keymap clash" in n.message for n in app._notifications) == 1


async def test_dialogs_name_the_keys_bound_now(demo_root: Path) -> None:
    # The buttons said "(y)" / "(esc)" and the input hint "esc to cancel" whatever the keymap bound.
    write_user_keymap('[keys]\n"modal.confirm" = "Y"\n"modal.cancel" = "n,ctrl+g"\n')
    app = build_app(demo_root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_pane(pilot, "V", VerifyScreen)
        assert isinstance(pane, VerifyScreen)
        await pilot.press("D")  # deny with reason: a one-line input
        await wait_for(pilot, lambda: isinstance(app.screen, InputModal))
        hint = str(app.screen.query_one("#dialog-hint").render())
        assert "^g to cancel" in hint, hint  # n would be typed into the box: the hint names the key that cancels
        await pilot.press("enter")
        await pilot.pause()
        assert "^g to cancel" in str(app.screen.query_one("#dialog-error").render())
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: app.screen is pane)
        await pilot.press("f")  # confirm the source: a yes/no dialog
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmModal))
        labels = [str(b.label) for b in app.screen.query("Button")]
        assert labels[0].endswith("(Y)") and labels[1] == "Cancel (n)", labels
        await pilot.press("Y")
        await wait_for(pilot, lambda: app.screen is pane, what="Y confirms")


async def test_a_mistyped_key_is_reported_and_the_default_still_works(demo_root: Path) -> None:
    write_user_keymap('[keys]\n"conflicts.both" = "ctrl-b"\n')
    app = build_app(demo_root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await startup_notice(pilot, app, "unknown key 'ctrl-b' (did you mean 'ctrl+b'?)")
        assert app.key_for("conflicts.both") == "b"  # the footer, help and palette name the key that works


async def test_the_whole_text_dialog_close_key_can_be_remapped(demo_root: Path) -> None:
    # modal.close was "an unknown binding id": the app's keymap classes left the whole-text dialog out.
    write_user_keymap('[keys]\n"modal.close" = "ctrl+w"\n')
    app = build_app(demo_root)
    assert app.keymap.errors == []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pane = await open_pane(pilot, "V", VerifyScreen)
        await pilot.press("v")
        await wait_for(pilot, lambda: isinstance(app.screen, TextModal))
        hint = str(app.screen.query_one("#dialog-hint").render())
        assert hint.endswith("· ^w to close"), hint
        await pilot.press("escape")  # no longer bound: the dialog stays
        await pilot.pause()
        assert isinstance(app.screen, TextModal)
        await pilot.press("ctrl+w")
        await wait_for(pilot, lambda: app.screen is pane, what="ctrl+w closes")


async def test_the_footer_shows_the_remapped_palette_key(demo_root: Path) -> None:
    # The footer looked the palette up by Textual's fixed ctrl+p and dropped it once the keymap moved it.
    write_user_keymap('[keys]\n"app.command_palette" = "ctrl+k"\n')
    app = build_app(demo_root)
    async with app.run_test(size=(180, 40)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(DeskFooter)
        await wait_for(pilot, lambda: footer.query("FooterKey"))
        palette = [k for k in footer.query(FooterKey) if k.has_class("-command-palette")]
        assert [(k.key_display, k.description) for k in palette] == [("^k", "Palette")]


async def test_pane_hints_name_the_keys_bound_now(demo_root: Path) -> None:
    """Tiers' hints said "w restores", "(c)", "space ✓ · a apply" and Conflicts' "b both valid" whatever the
    keymap: with those keys moved, the keys named did nothing there."""
    from memkeeper.tui.screens.tiers import TiersScreen

    write_user_keymap(
        '[keys]\n"tiers.restore" = "r"\n"tiers.commit" = "m"\n"tiers.toggle" = "t"\n"tiers.apply" = "A"\n'
    )
    app = build_app(demo_root)
    async with app.run_test(size=(160, 45)) as pilot:
        pane = await open_pane(pilot, "T", TiersScreen)
        await settle(pilot)
        hint = pane.status.plain
        assert "r restores them" in hint and "w restores" not in hint, hint
        keys = pane._keys()
        assert keys == {"commit": "m", "toggle": "t", "apply": "A", "restore": "r"}
        cells = [str(c) for c in pane.section_cells("ambiguous", 1)]
        assert "t ✓ · A apply" in cells, cells


async def test_a_key_given_to_an_app_action_and_a_pane_action_is_a_keymap_problem(demo_root: Path) -> None:
    """`app.cursor_up = "k"` moved the cursor everywhere but in Conflicts, where k kept the existing side of the
    conflict under the cursor, and nothing said so (Textual reports clashes within one screen only)."""
    write_user_keymap('[keys]\n"app.cursor_up" = "k"\n')
    app = build_app(demo_root)
    assert "key 'k' is bound to app.cursor_up and conflicts.keep: in Conflicts, conflicts.keep takes it" in (
        app.keymap.errors
    )
    async with app.run_test(size=(160, 45), notifications=True) as pilot:
        await settle(pilot)
        assert any("conflicts.keep takes it" in n.message for n in app._notifications)
    # the presets and the code's own defaults make no such problem
    for preset in ("default", "vim"):
        write_user_keymap("")
        assert not build_app(demo_root, keymap=preset).keymap.errors

"""A command's line is parsed by a parser holding only that command (`build_parser(command)`): it must read every
line exactly as the whole command line does, and fail with the same message."""

from __future__ import annotations

import argparse

import pytest

from memkeeper.tui.cli import COMMANDS, UsageError, build_parser, command_of, hoist_globals

LINES = [
    ["capture", "The backup job runs nightly"],
    ["--json", "capture", "x y z", "--key", "k", "--tag", "a", "--tag", "b", "--supersedes", "mem_1"],
    ["capture", "text", "--root", "/w", "--now", "2026-01-01", "--confidence", "0.4", "--redact"],
    ["--as=human:ann", "capture", "-", "--zone", "outside_contact", "--class", "durable", "--recall", "r"],
    ["retrieve", "query words", "--limit", "3", "--preview"],
    ["conflicts", "resolve", "C1", "--keep", "both"],
    ["conflicts", "resolve", "C1", "--snooze"],
    ["verify", "deny", "a", "b", "--reason", "no"],
    ["quiz", "record", "q1", "good", "--person", "me"],
    ["quiz", "new-ledger", "--scheduler", "fsrs"],
    ["tiers", "apply", "review/x.md", "--accept", ""],
    ["demo", "--no-tui", "--records", "5"],
    ["check", "--repair"],
    ["serve", "--port", "8100"],
    ["mcp", "--agent", "a", "--zone", "trusted_collaborator"],
    ["export", "--zone", "private_self", "--include-content"],
    ["decay", "--preview"],
    ["undo", "abc"],
    ["--keymap", "vim", "tui"],
    ["init"],
]
BAD = [
    ["capture"],
    ["capture", "x", "--confidence", "high"],
    ["capture", "x", "--supersedes", "a", "--restates", "b"],
    ["capture", "x", "--bogus"],
    ["retrieve", "q", "--limit", "0"],
    ["conflicts"],
    ["conflicts", "resolve", "C1"],
    ["quiz", "new-ledger", "--scheduler", "sm2"],
    ["serve", "--port", "99999"],
    ["verify", "nope"],
]


def _parse(parser: argparse.ArgumentParser, line: list[str]) -> argparse.Namespace | str:
    try:
        return parser.parse_args(line)
    except UsageError as exc:
        return f"error: {exc}"


def test_the_commands_are_the_whole_parsers_commands():
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == set(COMMANDS)


@pytest.mark.parametrize("argv", LINES + BAD, ids=lambda a: " ".join(a))
def test_a_command_alone_parses_as_the_whole_line(argv):
    line = hoist_globals(argv)
    command = command_of(line)
    assert command is not None and command in argv
    assert _parse(build_parser(command), line) == _parse(build_parser(), line)


@pytest.mark.parametrize(
    "argv",
    [[], ["--json"], ["--help"], ["--bogus", "capture", "x"], ["nosuch", "x"], ["--root"], ["--roo", "w", "init"]],
)
def test_lines_without_a_known_command_first_get_the_whole_parser(argv):
    assert command_of(hoist_globals(argv)) is None


@pytest.mark.parametrize("columns", [None, "120", "0", "-3", "wide", "47"])
def test_the_help_width_is_shutils(monkeypatch, columns):
    import shutil

    from memkeeper.tui.cli import terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
    parser = build_parser()
    plain = argparse.ArgumentParser(prog=parser.prog, description=parser.description)
    assert parser._get_formatter()._width == plain._get_formatter()._width
    assert _command_parser(build_parser("capture")).format_help() == _command_parser(build_parser()).format_help()


def _command_parser(parser: argparse.ArgumentParser, name: str = "capture") -> argparse.ArgumentParser:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]

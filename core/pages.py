"""Reading and writing Markdown pages: frontmatter, body layout, atomic writes (SPEC §3)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from .models import Entry

try:  # libyaml is much faster on 100k pages; the pure loader behaves the same.
    from yaml import CSafeDumper as _Dumper
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on the platform build of PyYAML
    from yaml import SafeDumper as _Dumper  # type: ignore[assignment]
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]


class PageError(ValueError):
    """A page that cannot be read as a memory record (malformed frontmatter, invalid fields)."""


class _SafeStrDumper(_Dumper):  # type: ignore[misc, valid-type]
    pass


def _str_representer(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    # Any string with a line break or control character is written double-quoted on one line, so user text can
    # never open a new key or close the frontmatter block.
    if any(not ch.isprintable() for ch in data) or data.strip() != data or data.startswith("---"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style='"')
    return dumper.represent_str(data)


_SafeStrDumper.add_representer(str, _str_representer)


def dump_frontmatter(data: dict[str, Any]) -> str:
    return yaml.dump(
        data, Dumper=_SafeStrDumper, sort_keys=False, allow_unicode=True, width=1_000_000, default_flow_style=False
    )


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """Split `---\\n<yaml>\\n---\\n<body>`. Raises PageError when the block is missing or not a mapping."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.startswith("---\n"):
        raise PageError("page does not start with a '---' frontmatter block")
    end = text.find("\n---\n", 3)
    if end == -1:
        if text.endswith("\n---"):
            end = len(text) - 4
        else:
            raise PageError("frontmatter block is not closed with '---'")
    raw = text[4:end]
    try:
        data = yaml.load(raw, Loader=_Loader)  # noqa: S506 - SafeLoader/CSafeLoader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (frontmatter line {mark.line + 2})" if mark is not None else ""
        raise PageError(f"malformed YAML frontmatter{where}: {getattr(exc, 'problem', exc)}") from None
    if not isinstance(data, dict):
        raise PageError("frontmatter is not a mapping")
    body = text[end + 5 :]
    return data, body


TRAVERSAL = "## Traversal Links\n- [Wiki Index](../index.md) · [Wiki Log](../log.md)\n"


def _head(entry: Entry) -> str:
    return (
        f"# {entry.title}\n"
        f"Status: {entry.status.value} · Class: {entry.memory_class.value} · Zone: {entry.trust_zone.value}"
        f" · Confidence: {entry.confidence:.2f}\n\n## Content\n"
    )


def _tail(entry: Entry) -> str:
    notes = "".join(f"- {note}\n" for note in entry.notes)
    return ("\n\n## Notes\n" + notes if notes else "\n") + "\n" + TRAVERSAL


def render_entry(entry: Entry) -> str:
    return "---\n" + dump_frontmatter(entry.frontmatter()) + "---\n" + _head(entry) + entry.content + _tail(entry)


def parse_entry(text: str) -> Entry:
    data, body = split_frontmatter(text)
    notes = data.pop("notes", None)  # tolerate hand-written pages that keep notes in frontmatter
    try:
        entry = Entry.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"]) or "frontmatter"
        raise PageError(f"invalid field {loc}{_line_of(text, str(first['loc'][0]) if first['loc'] else '')}: "
                        f"{first['msg']}") from None
    entry.notes = _parse_notes(body) if notes is None else [str(n) for n in notes]
    entry.content = _parse_content(body, entry)
    return entry


def _line_of(text: str, key: str) -> str:
    """" (line N)" for the frontmatter line that sets `key`, so `memkeeper check` can point at it."""
    for n, line in enumerate(text.split("\n")[1:], 2):
        if line == "---":
            break
        if key and line.startswith(f"{key}:"):
            return f" (line {n})"
    return ""


def _parse_notes(body: str) -> list[str]:
    marker = "\n\n## Notes\n"
    start = body.rfind(marker)
    if start == -1:
        return []
    block = body[start + len(marker) :].split("\n\n## Traversal Links", 1)[0]
    return [line[2:] for line in block.splitlines() if line.startswith("- ")]


def _parse_content(body: str, entry: Entry) -> str:
    """Content between the generated head and tail; exact when the page was written by the engine."""
    start = body.find("## Content\n")
    if start == -1:
        return body.strip()
    rest = body[start + len("## Content\n") :]
    tail = _tail(entry)
    if rest.endswith(tail):
        return rest[: -len(tail)]
    # Hand-edited page: fall back to the last generated section heading.
    for marker in ("\n## Notes\n", "\n## Traversal Links\n"):
        cut = rest.rfind(marker)
        if cut != -1:
            rest = rest[:cut]
    return rest.strip("\n")


def atomic_write(path: Path, text: str) -> None:
    """Write via a temp file in the same directory, fsync, os.replace: a crash leaves the old or the new page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def append_lines(path: Path, lines: list[str]) -> None:
    """Append whole lines in one write (O_APPEND), so concurrent readers never see half a line."""
    if not lines:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    data = "".join(line.rstrip("\n") + "\n" for line in lines).encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)

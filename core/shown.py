"""What a limited zone is shown of a record: every zone but `private_self`, on an MCP server (`read_page`) and in an
export envelope for the zone (`core/exchange.py`). One rule for both doors, so an envelope meant for a zone carries no
more about the person than that zone's server shows."""

from __future__ import annotations

import re

from .record import Entry, Verified

# Who acted on a record and where it came from, as a limited zone is shown them (`limited_entry`). A person is an
# actor `human:<login>`: the login is the person's account name, shown as `human`. An agent's name (`agent:<name>`)
# is the name a server or a command was started with, not a person's, and stays. A source that is a path on the
# person's machine (absolute, under `~`, on a drive, a `file:` URL) says where they keep their files (`/home/<login>/
# …`): it is shown as its last component, the file's name. Any other source (a relative path such as
# `raw/session.md#L40`, an `https:` URL, a session id) is shown as written.
_PERSON = re.compile(r"\bhuman:[A-Za-z0-9._@-]{1,64}")
SHOWN_PERSON = "human"  # what a person (`human:<login>`) is shown as
_LOCAL_PATH = re.compile(r"file:|~|[\\/]|[A-Za-z]:[\\/]", re.I)  # how a source that is a local path begins
_LOCAL_PATH_IN_TEXT = re.compile(r"(?<![^\s(\[\"'])(?:file:|~|[\\/]|[A-Za-z]:[\\/])\S*", re.I)
_RESTATED_FROM = re.compile(r"(Consolidated note \([^)]*\): restated by \S+) \((.*)\)", re.S)


def _file_name(path: str) -> str:
    """The last component of a local path ("" when it has none but where it is: `~alice`, `C:`, `file:`)."""
    parts = [p for p in re.split(r"[\\/]+", path) if p]
    if parts and (parts[0].startswith("~") or re.fullmatch(r"[A-Za-z]:|file:", parts[0], re.I)):
        parts = parts[1:]
    return parts[-1] if parts else ""


def shown_source(ref: str) -> str:
    """A source as a limited zone is shown it: a local path as its file's name, a local path within the text (after a
    space, a bracket or a quote) likewise, anything else as written. "" when nothing is left to show."""
    if _LOCAL_PATH.match(ref.strip()):
        return _file_name(ref.strip())
    return _LOCAL_PATH_IN_TEXT.sub(lambda m: _file_name(m.group(0)), ref)


def shown_actor(text: str) -> str:
    """An actor, or a line naming actors, with each person shown as `human`; agents as written."""
    return _PERSON.sub(SHOWN_PERSON, text)


def _shown_note(note: str) -> str:
    restated = _RESTATED_FROM.fullmatch(note)
    if restated is not None:  # "restated by <actor> (<the restatement's source_ref>)"
        source = shown_source(restated.group(2))
        note = restated.group(1) + (f" ({source})" if source else "")
    else:
        note = _LOCAL_PATH_IN_TEXT.sub(lambda m: _file_name(m.group(0)), note)
    return shown_actor(note)


def limited_entry(entry: Entry) -> Entry:
    """A record as a server for a zone other than `private_self` shows it: a copy with every person's login
    (`verified.by`, `actor`, the notes) shown as `human`, a source that is a local path shown as its file's name
    (`source_ref`, and the source of a restatement in its note), and none of the frontmatter keys the engine does not
    know (the person's own additions: `created_by`, `owner`, …). The rest (the statement, its title, tags, recall
    phrases, times and scores) as the page says."""
    shown = entry.model_copy(deep=True)
    if shown.source_ref is not None:
        shown.source_ref = shown_source(shown.source_ref) or None
    if shown.verified is not None:
        shown.verified = Verified(shown_actor(shown.verified.by), shown.verified.at)
    if shown.actor is not None:
        shown.actor = shown_actor(shown.actor)
    shown.notes = [_shown_note(note) for note in shown.notes]
    shown.extra = {}
    return shown

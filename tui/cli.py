"""The `memkeeper` command line (SPEC §7). Every command is one engine call; stable output for scripts.

Exit codes: 0 the operation ran (including drop / conflict / suppressed), 2 bad input or a refused/rejected
operation (one-line reason on stderr), 1 an internal failure.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, cast

from memkeeper.core.api import Engine
from memkeeper.core.errors import BadInput, MemkeeperError, clip
from memkeeper.core.models import (
    REFUSED_STATUSES,
    UNRECORDED_STATUSES,
    Category,
    MemoryClass,
    SensitivityTier,
    SourceType,
    TrustZone,
    at,
    json_inert,
    parse_iso,
    single_line,
    terminal_text,
)
from memkeeper.core.until import FORMS as UNTIL_FORMS
from memkeeper.core.validate import validate_named_actor

if TYPE_CHECKING:
    from memkeeper.core.models import Receipt


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        raise UsageError(message)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse makes a formatter for every argument it adds (to check its metavar), and the formatter asks
        # the shutil module for the terminal's width: importing it (with bz2 and lzma) cost every command ~2.5 ms.
        # The same width, found without it.
        # typeshed's formatter_class protocol takes only `prog`; every HelpFormatter also takes `width`.
        formatter_class = cast("type[argparse.HelpFormatter]", self.formatter_class)
        return formatter_class(prog=self.prog, width=terminal_columns() - 2)


def terminal_columns() -> int:
    """The columns of shutil's `get_terminal_size()`: $COLUMNS when it is a positive number, else the width of the
    terminal on standard output, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80
    return size.columns or 80


GLOBAL_VALUED = ("--root", "--as", "--now", "--keymap")
GLOBAL_FLAGS = ("--json",)


def hoist_globals(argv: list[str]) -> list[str]:
    """Move the global options to the front, wherever they stand on the line (SPEC §7): `capture X --json` and
    `--json capture X` are the same command. A `--` ends option processing; what follows it is left alone."""
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            rest += argv[i:]
            break
        name = arg.split("=", 1)[0]
        if arg in GLOBAL_FLAGS:
            front.append(arg)
        elif name in GLOBAL_VALUED and "=" in arg:
            front.append(arg)
        elif arg in GLOBAL_VALUED and i + 1 < len(argv):
            front += [arg, argv[i + 1]]
            i += 1
        else:
            rest.append(arg)
        i += 1
    return front + rest


def _values(enum_cls) -> str:
    return ", ".join(m.value for m in enum_cls)


QUIZ_RESULTS = "again, hard, good, easy, correct, wrong, skip (or 1-4, s)"
# What a rejection names as the valid values, by the engine's reason (SPEC §7: every rejection lists them).
VALID_VALUES = {
    "invalid_trust_zone": _values(TrustZone),
    "invalid_category": _values(Category),
    "invalid_sensitivity_tier": _values(SensitivityTier),
    "invalid_memory_class": _values(MemoryClass),
    "invalid_source_type": _values(SourceType),
    "invalid_confidence": "a number from 0 to 1",
    "invalid_expires_at": f"{UNTIL_FORMS}, after --now; a date lasts through that day",
    "expires_in_past": f"{UNTIL_FORMS}, after --now; a date lasts through that day",
    "invalid_result": QUIZ_RESULTS,
    "invalid_scheduler": "leitner, fsrs",
    "invalid_choice": "existing, incoming, both",
    "invalid_date": f"{UNTIL_FORMS}; a date holds until that day begins",
    "invalid_threshold": "a number above 0 and at most 1",
    "invalid_key": "letters or digits (a key is slugified: a-z, 0-9 and -)",
}


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be 1 or more")
    return value


COMMANDS = (
    "init",
    "tui",
    "demo",
    "capture",
    "retrieve",
    "consolidate",
    "decay",
    "compile",
    "check",
    "snapshot",
    "conflicts",
    "verify",
    "quiz",
    "tiers",
    "export",
    "import",
    "undo",
    "mcp",
    "serve",
)


class _Skipped:
    """Stands for the parser of a command that is not being built: takes any call and ignores it."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self


_SKIPPED = _Skipped()


def command_of(line: list[str]) -> str | None:
    """The command of a line whose global options stand first (`hoist_globals`), when it is one of COMMANDS."""
    i = 0
    while i < len(line):
        arg = line[i]
        if arg in GLOBAL_FLAGS or (arg.split("=", 1)[0] in GLOBAL_VALUED and "=" in arg):
            i += 1
        elif arg in GLOBAL_VALUED:
            i += 2
        else:
            return arg if arg in COMMANDS else None
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `command` (one of COMMANDS), only that command's parser is built under the
    global options: it parses that command's lines exactly as the whole one does, and a command's start does not
    pay for building the other thirty parsers (~10 ms)."""
    p = _Parser(prog="memkeeper", description="A local-first memory wiki for AI agents, and its curation desk.")
    p.add_argument("--root", help="wiki root (default: $MEMKEEPER_ROOT or ./memory)")
    p.add_argument(
        "--as", dest="actor", help="actor: human:NAME or agent:NAME (default agent:cli; the TUI uses human:<login>)"
    )
    p.add_argument("--now", help="ISO-8601 time to act at (default: the current time)")
    p.add_argument("--json", action="store_true", help="print the receipt or listing as JSON")
    p.add_argument("--keymap", help="TUI keymap preset name (default, vim) or path to a TOML file")
    sub = p.add_subparsers(dest="command")

    def add(name: str, **kwargs: Any) -> Any:
        return sub.add_parser(name, **kwargs) if command is None or name == command else _SKIPPED

    add("init", help="create the wiki layout")
    add("tui", help="open the curation desk")
    d = add("demo", help="build a demo wiki and open the desk on it")
    d.add_argument("dir", nargs="?", default=None, help="where to build it (default: --root if given, else .demo-wiki)")
    d.add_argument("--no-tui", action="store_true", help="build the wiki and print hot.md instead of opening the desk")
    d.add_argument("--records", type=int, default=300)

    c = add("capture", help="capture a memory")
    c.add_argument("text", help="the statement, or - to read it from stdin")
    c.add_argument("--key", help="canonical key, shared by statements about the same thing (default: derived)")
    c.add_argument("--title")
    c.add_argument("--category", default="fact", help=f"one of: {_values(Category)} (default fact)")
    c.add_argument(
        "--zone", default="private_self", help=f"trust zone, one of: {_values(TrustZone)} (default private_self)"
    )
    c.add_argument("--sensitivity", default="normal", help=f"one of: {_values(SensitivityTier)} (default normal)")
    c.add_argument(
        "--class", dest="memory_class", help=f"one of: {_values(MemoryClass)} (default: from --expires and the text)"
    )
    c.add_argument(
        "--expires",
        metavar="WHEN",
        help="makes the record expiring: an ISO-8601 time, a date (through that day in your quiz time zone), or 7d, 2w",
    )
    c.add_argument(
        "--source-type", default="agent_inferred", help=f"one of: {_values(SourceType)} (default agent_inferred)"
    )
    c.add_argument("--source-ref", help="where the statement came from (a URL, a file, a session id)")
    c.add_argument("--confidence", type=float, default=0.7, help="a number from 0 to 1 (default 0.7)")
    c.add_argument("--recall", action="append", default=[])
    c.add_argument("--tag", action="append", default=[])
    c.add_argument("--quiz-question")
    c.add_argument("--redact", action="store_true", help="store secrets as [REDACTED:<class>] instead of refusing")
    declared = c.add_mutually_exclusive_group()
    declared.add_argument(
        "--supersedes",
        metavar="ID",
        help="this statement replaces memory ID: a conflict is opened for a person to decide",
    )
    declared.add_argument(
        "--contradicts",
        metavar="ID",
        help="this statement contradicts memory ID: a conflict is opened for a person to decide",
    )
    declared.add_argument(
        "--restates",
        metavar="ID",
        help="this statement says the same as memory ID: consolidate into it (same zone and sensitivity only)",
    )

    r = add("retrieve", help="search memory as a trust zone")
    r.add_argument("query")
    r.add_argument(
        "--zone", default="private_self", help=f"trust zone, one of: {_values(TrustZone)} (default private_self)"
    )
    r.add_argument("--limit", type=_positive_int, default=10, help="how many results, 1 or more (default 10)")
    r.add_argument("--preview", action="store_true", help="do not record access (writes nothing)")

    cs = add("consolidate")
    cs.add_argument("--threshold", type=float, default=0.82, help="similarity above 0 and at most 1 (default 0.82)")
    cs.add_argument("--preview", action="store_true", help="list the merges it would make and write nothing")
    add("decay").add_argument(
        "--preview", action="store_true", help="count and list what it would archive and write nothing"
    )
    add("compile")
    add("check").add_argument(
        "--repair",
        action="store_true",
        help="complete interrupted writes, add missing log rows and PATTERNS events, remove temp files, rebuild the index",
    )
    add("snapshot")

    cf = add("conflicts").add_subparsers(dest="sub", required=True)
    cl = cf.add_parser("list")
    cl.add_argument("--all", action="store_true", help="include resolved conflicts")
    cl.add_argument("--limit", type=_positive_int, default=None, help=LIST_LIMIT_HELP)
    rs = cf.add_parser("resolve")
    rs.add_argument("id")
    g = rs.add_mutually_exclusive_group(required=True)
    g.add_argument("--keep", choices=["existing", "incoming", "both"])
    g.add_argument(
        "--snooze",
        nargs="?",
        const="",
        metavar="UNTIL",
        help="until an ISO-8601 time, a date (as it begins in your quiz time zone), or 7d, 2w",
    )

    v = add("verify").add_subparsers(dest="sub", required=True)
    v.add_parser("list").add_argument("--limit", type=_positive_int, default=None, help=LIST_LIMIT_HELP)
    v.add_parser("confirm").add_argument("id", nargs="+", help="one or more ids; several are one batch, one receipt")
    v.add_parser("undeny").add_argument("id")
    dn = v.add_parser("deny")
    dn.add_argument("id", nargs="+", help="one or more ids; several are one batch, one receipt")
    dn.add_argument("--reason")
    dn.add_argument("--redact", action="store_true", help="store a secret in the reason redacted instead of refusing")
    v.add_parser("rebuild")

    q = add("quiz").add_subparsers(dest="sub", required=True)
    qd = q.add_parser("due")
    qd.add_argument("--person")
    qr = q.add_parser("record")
    qr.add_argument("id")
    qr.add_argument("result", help=f"one of: {QUIZ_RESULTS}")
    qr.add_argument("--person")
    qr.add_argument("--answer")
    qr.add_argument("--redact", action="store_true", help="store a secret in the answer redacted instead of refusing")
    qb = q.add_parser("bury", help="put a page off until tomorrow (undoable)")
    qb.add_argument("id")
    qb.add_argument("--person")
    qn = q.add_parser("new-ledger")
    qn.add_argument("--person")
    qn.add_argument("--scheduler", choices=["leitner", "fsrs"], default="leitner")
    qs = q.add_parser(
        "scheduler", help="change the scheduler of an existing ledger (rows keep their history; undoable)"
    )
    qs.add_argument("scheduler", choices=["leitner", "fsrs"])
    qs.add_argument("--person")
    qz = q.add_parser(
        "zone",
        help="the time zone whose days are your quiz days (IANA name, e.g. Europe/Berlin; undoable); "
        "without one, say which it is",
    )
    qz.add_argument("zone", nargs="?")
    qz.add_argument("--person")

    t = add("tiers").add_subparsers(dest="sub", required=True)
    tp = t.add_parser("plan")
    tp.add_argument("--commit", action="store_true")
    tp.add_argument(
        "--limit", type=_positive_int, default=None, help="list at most N candidates of each kind (default: all)"
    )
    ta = t.add_parser("apply")
    ta.add_argument("review")
    ta.add_argument(
        "--accept",
        default=None,
        help="comma-separated candidate ids (empty string = reject all; - reads them from stdin, one or more a line)",
    )
    t.add_parser("restore").add_argument("id")

    e = add("export")
    e.add_argument("--zone", required=True, help=f"trust zone, one of: {_values(TrustZone)}")
    e.add_argument("--include-content", action="store_true")
    add("import").add_argument("envelope")
    add("undo").add_argument("receipt")

    m = add("mcp", help="serve the wiki to one agent over the Model Context Protocol (stdio)")
    m.add_argument("--agent", default="mcp", help="the agent's name: the server acts as agent:NAME (default mcp)")
    m.add_argument(
        "--zone",
        default="private_self",
        help=f"the trust zone the agent works in, one of: {_values(TrustZone)} (default private_self)",
    )
    sv = add("serve", help="run the desk in a browser (textual-serve)")
    sv.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000)")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    return p


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1-65535)")
    return value


def _now(args) -> datetime:
    if args.now:
        try:
            return parse_iso(args.now)
        except ValueError:
            raise BadInput(f"--now {args.now!r} is not an ISO-8601 time") from None
    return datetime.now(UTC).replace(microsecond=0)


def _root(args) -> Path:
    return Path(args.root or os.environ.get("MEMKEEPER_ROOT") or "memory")


def default_human() -> str:
    try:
        login = getpass.getuser()
    except (KeyError, OSError):  # no login name and no passwd entry (some containers)
        login = "me"
    return "human:" + "".join(ch if ch.isalnum() or ch in "._@-" else "-" for ch in login)[:64]


LIST_LIMIT_HELP = "list at most N (default: all)"


def _more(n: int) -> str:
    """The line a listing cut by --limit ends with."""
    return f"\n… and {n} more (--limit)" if n > 0 else ""


def json_text(data: Any) -> str:
    """`--json` output: exact (every string as stored, read back by any JSON parser), and nothing in it a terminal
    acts on. json.dumps escapes the C0 controls; what it leaves raw with ensure_ascii=False (DEL, the C1 controls,
    U+009B is CSI and U+009D OSC for a terminal that reads them, and the bidirectional controls) is escaped here
    (`json_inert`, as the desk's Receipts pane shows a receipt)."""
    return json_inert(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def say(text: str, *, err: bool = False) -> None:
    """Print a line (or lines) for a person: stored text in it (a statement, a title, a file name) may hold what an
    agent wrote, and a control character of it is a space (`terminal_text`, the rule titles are stored by)."""
    print(terminal_text(text), file=sys.stderr if err else sys.stdout)


def _emit(args, data: Any, text: str) -> None:
    if args.json:
        print(json_text(data))
    elif text:
        say(text)


def _receipt_text(r: Receipt) -> str:
    d = r.details
    bits = [f"{r.action}: {r.status}"]
    for key in (
        "reason",
        "memory_id",
        "conflict_id",
        "conflict_type",
        "suspected",
        "page",
        "box",  # a quiz answer: where the card is now, and when it comes back
        "due",
        "review",
        "envelope",
        "snapshot",
        "count",
        "expired_left_out",
        "scheduler",
    ):
        if d.get(key) not in (None, "", []) and not (key == "expired_left_out" and d[key] == 0):
            bits.append(f"{key}={d[key]}")
    if isinstance(d.get("declared"), dict):
        bits.append(f"declared={d['declared'].get('relation')}:{d['declared'].get('memory_id')}")
    # A refused or rejected operation, or a dropped capture, wrote nothing, its receipt included: a hash here would
    # send `undo` looking for a receipt that was never recorded (unknown_receipt).
    bits.append("(nothing recorded)" if r.status in UNRECORDED_STATUSES else f"receipt={r.receipt_sha256}")
    lines = [" ".join(bits)]
    if isinstance(d.get("opened"), dict):  # a resolution kept a statement that contradicts another record
        o = d["opened"]
        lines.append(f"  opened: {o.get('conflict_id')} {o.get('conflict_type')} against {o.get('memory_id')}")
    if isinstance(d.get("merged_into"), dict):  # an undenied record whose statement another record holds now
        lines += [f"  merged: {m} into {t} (already holds this statement)" for m, t in sorted(d["merged_into"].items())]
    for rel in d.get("related") or []:  # what else memory holds about this subject, so the agent can decide
        lines.append(f"  related: {rel.get('memory_id')} {rel.get('relation')} {rel.get('score')} {rel.get('title')}")
    return "\n".join(lines + _skipped_lines(r))


def _skipped_lines(r: Receipt) -> list[str]:
    """The pages a maintenance run left out because it could not read them (`check` names them too), and the
    records it left alone because a conflict holding them awaits a person's decision."""
    if r.action == "import":
        # Who exported it and when, unverified when no header hash covered them (anyone may write those two
        # fields of such an envelope); what each item became; then the items left out and why.
        by, when = r.details.get("exported_by"), r.details.get("exported_at")
        head = (
            [
                f"  exported by {by} at {when}"
                + ("" if r.details.get("header_checked") else " (unverified: no header_sha256)")
            ]
            if by or when
            else []
        )
        tally: dict[str, int] = {}
        for x in r.details.get("results") or []:
            tally[str(x.get("status"))] = tally.get(str(x.get("status")), 0) + 1
        out = head + (
            ["  items: " + ", ".join(f"{n} {status}" for status, n in sorted(tally.items()))] if tally else []
        )
        out += [  # an item refused or dropped says why: its capture wrote no receipt of its own
            f"  {x.get('status')}: {x.get('origin')} ({x.get('reason')})"
            for x in r.details.get("results") or []
            if x.get("reason")
        ]
        return out + [
            f"  skipped: {s.get('memory_id')} ({s.get('reason')}"
            + (f" {s['expires_at']}" if s.get("expires_at") else "")
            + (f" {s['record']}" if s.get("record") else "")
            + (f" {s['item']}" if s.get("item") else "")
            + (f" {s['conflict']}" if s.get("conflict") else "")
            + ")"
            for s in r.details.get("skipped") or []
        ]
    if r.action not in ("consolidate", "decay"):
        return []
    lines = [f"  skipped: {s.get('page')} ({s.get('reason')})" for s in r.details.get("skipped") or []]
    left = "archived" if r.action == "decay" else "merged"
    lines += [
        f"  held: {h.get('memory_id')}  {h.get('title')}  (not {left}: conflict {h.get('conflict_id')} awaits a decision)"
        for h in r.details.get("held_by_conflict") or []
    ]
    return lines


def _repair_text(r: Receipt) -> str:
    d = r.details
    done = [
        f"{len(d[k])} {label}"
        for k, label in (
            ("completed", "interrupted write(s) completed"),
            ("discarded", "staged/temp file(s) of interrupted writes discarded"),
            ("log_rows_added", "log row(s) added"),
            ("patterns_added", "PATTERNS event(s) added"),
            ("tmp_removed", "temp file(s) removed"),
            ("views_regenerated", "generated view(s) regenerated"),
            ("pages_gone", "page(s) deleted by hand recorded as deleted"),
        )
        if d.get(k)
    ]
    if d.get("index_synced"):
        done.append(f"{sum(d['index_synced'].values())} page(s) changed outside memkeeper read into the index")
    if d.get("index_rebuilt"):
        done.append("index rebuilt")
    if d.get("skipped"):
        done.append(f"{len(d['skipped'])} step(s) left alone (files changed by hand)")
    return f"repair: {', '.join(done) or 'nothing to repair'} (receipt={r.receipt_sha256})"


STDIN_LIMIT = 1024 * 1024  # more than capture accepts (64 KiB): the engine refuses it with oversize_text


def _stdin_text(
    what: str = "capture - reads the statement",
    limit: int = STDIN_LIMIT,
    too_much: str = "a capture takes at most 64 KiB",
) -> str:
    """What a command reads from stdin (`capture -`: the statement), bounded, UTF-8."""
    if sys.stdin is None:  # started with stdin closed (`<&-`)
        raise BadInput(f"{what} from stdin, and stdin is closed")
    raw = sys.stdin.buffer.read(limit + 1)
    if len(raw) > limit:
        raise BadInput(f"stdin holds more than {limit} bytes; {too_much}")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"stdin is not valid UTF-8 (byte {exc.start})") from None


IDS_LIMIT = 16 * 1024 * 1024  # a review's every id (33k of them at 100k records) is under 0.5 MB


def _stdin_ids() -> str:
    """`tiers apply --accept -`: the accepted ids from stdin (commas or white space between them): a review of tens
    of thousands of candidates does not fit one argument (Linux caps one at 128 KiB)."""
    return _stdin_text("--accept - reads the ids", IDS_LIMIT, "that is more ids than any review holds")


# What to do about a durable record given an expiry, in the command line's options (the MCP server names its own).
EXPIRY_HINT = "leave out --class durable to store an expiring record, or leave out --expires"


def refusal_line(r: Receipt, *, redact_hint: str = "--redact", expiry_hint: str = EXPIRY_HINT) -> str | None:
    """The one-line reason for a refused or rejected receipt (None when the operation ran). Shared by the command
    line (stderr, exit 2) and the MCP server (a tool error); `redact_hint` names the option that redacts a secret,
    `expiry_hint` what to leave out of a capture that asked for a durable record with an expiry."""
    if r.status not in REFUSED_STATUSES:
        return None
    reason = r.details.get("reason", r.status)
    extra = r.details.get("errors") or r.details.get("stale_ids") or ""
    if reason in VALID_VALUES:
        given = r.details.get("value")
        given = clip(given) if isinstance(given, str) else given  # a value of thousands of characters, in part
        if isinstance(given, str) and _holds_secret(given):
            given = "<a value holding a secret>"  # pasted into the wrong field: never said back
        reason += (f" {given!r}" if given not in (None, "") else "") + f" (valid: {VALID_VALUES[reason]})"
    if reason == "secret_detected":  # say which kinds and where, never the value
        reason += (
            f" ({', '.join(r.details.get('secret_classes', []))} in {', '.join(r.details.get('secret_fields', []))};"
            f" {redact_hint} stores it as [REDACTED:<class>])"
        )
    if reason == "durable_with_expiry":  # which of the two was meant is the caller's to say: name both
        reason += f" (a durable record does not expire: {expiry_hint})"
    if isinstance(r.details.get("detail"), str):  # what to do about it, where the engine says
        reason += f" ({r.details['detail']})"
    return f"memkeeper: {r.action} {r.status}: {reason}{(' ' + json.dumps(extra)) if extra else ''}"


def _holds_secret(text: str) -> bool:
    from memkeeper.core.secrets import find_secrets

    return bool(find_secrets(text))


def error_line(exc: BaseException) -> str:
    """The one line for a call that could not produce a receipt (bad input, not found, refused, stale)."""
    return f"memkeeper: {exc}"


def _finish(args, r: Receipt) -> int:
    _emit(args, r.to_dict(), _receipt_text(r))
    line = refusal_line(r)
    if line is not None:
        say(line, err=True)
        return 2
    return 0


def _import(args, eng: Engine, now: datetime, actor: str) -> int:
    """An import, item by item: on a terminal, how far it is (stderr, one line rewritten); the first Ctrl-C stops it
    before the next item (each item is written whole or not at all) and its receipt says `partial`, the second one
    stops at once. Exit 130 when it was stopped."""
    import signal
    import time

    stop: list[bool] = []
    shown = [0.0]
    tty = sys.stderr.isatty()

    def progress(done: int, items: int) -> None:
        if tty and (time.monotonic() - shown[0] >= 0.2 or done == items):
            shown[0] = time.monotonic()
            print(
                f"\rmemkeeper: importing {done:,}/{items:,} items (Ctrl-C stops after the current one)",
                end="",
                file=sys.stderr,
                flush=True,
            )

    def interrupted(signum: int, frame: Any) -> None:
        stop.append(True)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a second Ctrl-C stops at once

    try:
        before = signal.signal(signal.SIGINT, interrupted)
    except ValueError:  # not the main thread (a test's): Ctrl-C is not ours to catch
        before = None
    try:
        r = eng.import_envelope(args.envelope, now=now, actor=actor, progress=progress, cancelled=lambda: bool(stop))
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)
        if tty and shown[0]:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
    code = _finish(args, r)
    if r.status == "partial":
        s = r.details.get("stopped") or {}
        why = IMPORT_STOPPED_BY.get(str(s.get("reason")), "")
        print(
            f"memkeeper: import stopped after {s.get('done', 0):,} of {s.get('items', 0):,} items{why}; run it "
            "again to bring the rest (what arrived is skipped as already imported)",
            file=sys.stderr,
        )
        # Ctrl-C: 130, as the shell has it. A busy lock or a disk error: 2, as when it stops a command before it
        # writes, so that a script retries; what arrived stands, and its receipt says how far it went.
        return 2 if why else 130
    return code


# Why an import stopped between items, when it was not Ctrl-C (`stopped.reason` of its partial receipt).
IMPORT_STOPPED_BY = {
    "write_lock_busy": ": the write lock was held by another process past the wait",
    "write_failed": ": the disk refused a write",
}


def _finish_preview(args, r: Receipt) -> int:
    """What a maintenance run would do: counts, then one line per record, and nothing written."""
    d = r.details
    if r.action == "decay":
        lines = [
            f"decay preview: would archive {d['archived_count']}, decay {d['decayed_count']}, "
            f"re-grade {d['regraded_count']} (nothing written)"
        ]
        lines += [f"  archive {m}  {d['archived_titles'].get(m, '')}" for m in d["archived"]]
    else:
        lines = [f"consolidate preview: would merge {d['count']} (threshold {d['threshold']}, nothing written)"]
        lines += [f"  merge {m['source']}  {d['titles'].get(m['source'], '')}  into {m['target']}" for m in d["merges"]]
    _emit(args, r.to_dict(), "\n".join(lines + _skipped_lines(r)))
    return 0


def run(argv: list[str]) -> int:
    line = hoist_globals(argv)
    args = build_parser(command_of(line)).parse_args(line)
    cmd = args.command or "tui"
    now = _now(args)
    if args.actor:  # refused before any command runs, a read-only one too: it would be taken for someone
        validate_named_actor(args.actor)
    actor = args.actor or ("agent:cli")
    root = _root(args)

    if cmd == "demo":
        from memkeeper.core.demo import build_demo

        # An explicit --root names the demo's folder as it names the wiki of every other command; the environment's
        # MEMKEEPER_ROOT (a person's own wiki) never does. A folder the demo did not build is never replaced.
        args.dir = Path(args.dir or args.root or ".demo-wiki")
        try:
            build_demo(args.dir, now=now, records=args.records).close()
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        if args.no_tui:
            eng = Engine.open(args.dir)
            try:
                say(eng.read_view("hot.md"))
                r = eng.retrieve("deploy", zone="trusted_collaborator", now=now, record_access=False)
                for res in r.details["results"][:5]:
                    say(f"{res['score']:.3f}  {res['title']}  ({res['page']})")
            finally:
                eng.close()
            return 0
        return _tui(Path(args.dir), args, person="demo")  # the demo's quiz history belongs to "demo"
    if cmd == "init":
        eng = Engine.init(root, now=now)
        eng.close()  # its index connection is closed here, not whenever the collector gets to it
        _emit(args, {"root": str(eng.root), "status": "ok"}, f"initialised {eng.root}")
        return 0
    if cmd == "tui":
        return _tui(root, args)
    if cmd == "mcp":
        # The actor and the time come from the server itself (agent:<--agent>, the current time of each call).
        for flag, given in (("--as", args.actor), ("--now", args.now)):
            if given:
                raise UsageError(f"mcp does not take {flag}: the server acts as agent:<--agent> at the current time")
        from memkeeper.agents.mcp_server import serve_stdio

        return serve_stdio(root, agent=args.agent, zone=args.zone)
    if cmd == "serve":
        from memkeeper.tui.web import serve_desk

        if args.now:
            at(now)  # refused here, once, as the desk of every browser tab would refuse it (`_tui`)

        return serve_desk(root, host=args.host, port=args.port, actor=args.actor, now=args.now, keymap=args.keymap)

    eng = Engine.open(root)
    try:
        code = _dispatch(eng, args, cmd, now, actor)
        for note in eng.unfinished_writes:  # the operation stands: said, not an error
            say(f"memkeeper: note: {note}", err=True)
        return code
    finally:
        eng.close()


def _tui(root: Path, args, person: str | None = None) -> int:
    from memkeeper.tui.app import run_app

    # Out of the years an operation acts at: one line and exit 2, as every command that writes says it, not a desk
    # whose first count fails.
    now = at(parse_iso(args.now)) if args.now else None
    return run_app(root, actor=args.actor or default_human(), keymap=args.keymap, now=now, person=person)


def _dispatch(eng: Engine, args, cmd: str, now: datetime, actor: str) -> int:
    if cmd == "capture":
        return _finish(
            args,
            eng.capture(
                _stdin_text() if args.text == "-" else args.text,
                now=now,
                actor=actor,
                key=args.key,
                title=args.title,
                category=args.category,
                zone=args.zone,
                sensitivity=args.sensitivity,
                memory_class=args.memory_class,
                expires_at=args.expires,
                source_type=args.source_type,
                source_ref=args.source_ref,
                confidence=args.confidence,
                recall=args.recall,
                tags=args.tag,
                quiz_question=args.quiz_question,
                redact=args.redact,
                supersedes=args.supersedes,
                contradicts=args.contradicts,
                restates=args.restates,
            ),
        )
    if cmd == "retrieve":
        r = eng.retrieve(
            args.query, zone=args.zone, limit=args.limit, now=now, actor=actor, record_access=not args.preview
        )
        code = _finish(args, r) if args.json or r.status in REFUSED_STATUSES else 0
        if not args.json and r.status not in REFUSED_STATUSES:
            for res in r.details["results"]:
                c = res["components"]
                say(
                    f"{res['score']:.3f}  {res['title']}  [{res['page']}]  sem={c['semantic']:.2f} "
                    f"fresh={c['freshness']:.2f} reinf={c['reinforcement']:.2f} conf={c['confidence']:.2f}"
                )
            hidden = r.details.get("hidden_by_zone")
            print(
                f"{len(r.details['results'])} result(s)"
                + (
                    f"; {hidden}{'+' if r.details.get('hidden_by_zone_bounded') else ''} hidden by zone "
                    f"{r.details['zone']}"
                    if hidden is not None
                    else ""
                )
                + ("; access not recorded (write lock busy)" if r.details.get("access_recorded") is False else "")
            )
        return code
    if cmd == "consolidate":
        r = eng.consolidate(now=now, actor=actor, threshold=args.threshold, preview=args.preview)
        return _finish_preview(args, r) if r.status == "preview" else _finish(args, r)
    if cmd == "decay":
        r = eng.decay(now=now, actor=actor, preview=args.preview)
        return _finish_preview(args, r) if r.status == "preview" else _finish(args, r)
    if cmd == "compile":
        return _finish(args, eng.compile(now=now, actor=actor))
    if cmd == "snapshot":
        return _finish(args, eng.snapshot(now=now, actor=actor))
    if cmd == "check":
        repaired = None
        if args.repair:
            repaired = eng.repair(now=now, actor=actor)
        rep = eng.check()
        data: dict[str, Any] = {"ok": rep.ok, "problems": rep.problems, "receipts": rep.receipts, "pages": rep.pages}
        lines = list(rep.problems)
        if repaired is not None:
            data["repair"] = repaired.to_dict()
            lines.insert(0, _repair_text(repaired))
        lines.append(
            f"check: {'ok' if rep.ok else 'problems found'} — {rep.pages} pages, {rep.receipts} receipts, "
            f"{len(rep.problems)} problem(s)"
        )
        _emit(args, data, "\n".join(lines))
        return 0 if rep.ok else 2
    if cmd == "export":
        return _finish(args, eng.export(zone=args.zone, now=now, actor=actor, include_content=args.include_content))
    if cmd == "import":
        return _import(args, eng, now, actor)
    if cmd == "undo":
        return _finish(args, eng.undo(args.receipt, now=now, actor=actor))
    if cmd == "conflicts":
        if args.sub == "list":
            from memkeeper.core.conflicts import type_text

            every = eng.conflicts(include_resolved=args.all)
            cs = every[: args.limit]
            listed = [c.to_frontmatter() for c in cs]
            text = (
                # A snooze that has run out, or one for a desk session (this command is none), leaves it open.
                "\n".join(
                    f"{c.conflict_id}  {'open' if c.status == 'snoozed' and c.is_open_at(now) else c.status:8}  "
                    f"{type_text(c)[:40]:40}  {c.title}"
                    for c in cs
                )
                or "no open conflicts"
            ) + _more(len(every) - len(cs))
            _emit(args, listed, text)
            # A record that cannot be read is left out of the list: said here, one line each, not only by check.
            for problem in eng.conflict_problems():
                say(f"memkeeper: warning: {problem}; not listed (fix the file)", err=True)
            return 0
        if args.snooze is not None:
            return _finish(
                args,
                eng.snooze_conflict(
                    args.id, now=now, actor=actor, until=args.snooze or None, session=None if args.snooze else "cli"
                ),
            )
        return _finish(args, eng.resolve_conflict(args.id, args.keep, now=now, actor=actor))
    if cmd == "verify":
        if args.sub == "list":
            pend = eng.pending_verifications(args.limit)
            more = eng.pending_count() - len(pend) if args.limit else 0
            listed = [
                {
                    "memory_id": e.memory_id,
                    "title": e.title,
                    "source_ref": e.source_ref,
                    "content": e.content,
                    "page": eng.page_of(e.memory_id),
                }
                for e in pend
            ]
            _emit(
                args,
                listed,
                ("\n".join(f"{e.memory_id}  {e.title}  (source: {e.source_ref or 'none'})" for e in pend) + _more(more))
                or "nothing pending",
            )
            return 0
        if args.sub == "confirm":
            if len(args.id) > 1:  # one batch: one receipt, one undo
                return _finish(args, eng.confirm_many(args.id, now=now, actor=actor))
            return _finish(args, eng.confirm(args.id[0], now=now, actor=actor))
        if args.sub == "deny":
            if len(args.id) > 1:
                return _finish(
                    args, eng.deny_many(args.id, now=now, actor=actor, reason=args.reason, redact=args.redact)
                )
            return _finish(args, eng.deny(args.id[0], now=now, actor=actor, reason=args.reason, redact=args.redact))
        if args.sub == "undeny":
            return _finish(args, eng.undeny(args.id, now=now, actor=actor))
        return _finish(args, eng.rebuild_verification(now=now, actor=actor))
    if cmd == "quiz":
        person = eng.person_for(actor, getattr(args, "person", None))
        if args.sub == "due":
            cards = eng.quiz_session(person, now=now)
            due = eng.quiz_due_count(person, now=now)  # what sessions could still offer today (the 7 are a part)
            data = {
                "person": person,
                "items": [c.__dict__ for c in cards],
                "due_today": due,
                "weak_spots": [w.marker() for w in eng.weak_spots(person)],
            }
            lines = [f"{c.memory_id}  [{c.reason}]  {single_line(c.question)}" for c in cards]
            if due > len(cards):
                lines.append(f"{due} due today: this session is the first {len(cards)}; answer them, then ask again")
            _emit(args, data, "\n".join(lines) or "nothing due")
            return 0
        if args.sub == "new-ledger":
            return _finish(args, eng.create_ledger(person, args.scheduler, now=now, actor=actor))
        if args.sub == "scheduler":
            return _finish(args, eng.set_scheduler(person, args.scheduler, now=now, actor=actor))
        if args.sub == "zone":
            if args.zone is not None:
                return _finish(args, eng.set_quiz_zone(person, args.zone, now=now, actor=actor))
            zone = eng.quiz_zone(person)
            today = eng.quiz_day(person, now=now)
            unread_zone = eng.quiz_zone_problem(person)
            # A zone written by hand that this machine cannot read: say so, or "UTC days" reads as what was asked.
            unread = f"; the ledger's {unread_zone}" if unread_zone else ""
            _emit(
                args,
                {"person": person, "zone": zone, "today": today.isoformat(), "problem": unread_zone},
                f"{person}: quiz days are {zone} days (today is {today.isoformat()}){unread}",
            )
            return 0
        if args.sub == "bury":
            return _finish(args, eng.quiz_bury(args.id, now=now, actor=actor, person=person))
        return _finish(
            args,
            eng.quiz_record(
                args.id, args.result, now=now, actor=actor, person=person, answer=args.answer, redact=args.redact
            ),
        )
    if cmd == "tiers":
        if args.sub == "plan":
            if args.commit:
                return _finish(args, eng.commit_tiers(now=now, actor=actor))
            plan = eng.plan_tiers(now=now)
            n = args.limit
            data = {
                kind: [c.__dict__ for c in getattr(plan, kind)[:n]] for kind in ("protected", "automatic", "ambiguous")
            }
            data.update(unchanged_count=plan.unchanged_count, projected_bytes_removed=plan.projected_bytes_removed)
            if n:  # the counts of the whole plan, since the lists are cut
                data.update(
                    {f"{kind}_count": len(getattr(plan, kind)) for kind in ("protected", "automatic", "ambiguous")}
                )
            lines = [
                f"protected {len(plan.protected)} · automatic {len(plan.automatic)} · ambiguous {len(plan.ambiguous)}"
                f" · projected bytes removed {plan.projected_bytes_removed}"
            ]
            lines += [f"  auto   {c.candidate_id} {c.path} — {c.reason}" for c in plan.automatic[:n]]
            lines[-1] += _more(len(plan.automatic) - len(plan.automatic[:n]))
            lines += [f"  review {c.candidate_id} {c.path} — {c.reason}" for c in plan.ambiguous[:n]]
            lines[-1] += _more(len(plan.ambiguous) - len(plan.ambiguous[:n]))
            _emit(args, data, "\n".join(lines))
            return 0
        if args.sub == "restore":
            return _finish(args, eng.restore_tier(args.id, now=now, actor=actor))
        given = _stdin_ids() if args.accept == "-" else args.accept
        accepted = None if given is None else [x for x in re.split(r"[,\s]+", given) if x]
        return _finish(args, eng.apply_tiers(args.review, accepted, now=now, actor=actor))
    raise UsageError(f"unknown command {cmd!r}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        code = run(argv)
    except (UsageError, MemkeeperError) as exc:  # bad input, not found, refused, stale: one line, exit 2
        say(error_line(exc), err=True)
        code = 2
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:  # stdout closed early (a pipe into `head`): end quietly
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except OSError:
            pass
        code = 0
    except Exception as exc:  # an internal failure: say what, exit 1
        say(f"memkeeper: internal error: {type(exc).__name__}: {exc}", err=True)
        if os.environ.get("MEMKEEPER_DEBUG"):
            raise
        code = 1
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

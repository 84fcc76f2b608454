"""`memkeeper mcp`: the wiki served to one agent over the Model Context Protocol (stdio), with the official `mcp` SDK.

The server is an edge, like the command line: every call is one call into `memkeeper.core.Engine` at the current UTC
time, and it never opens a wiki file itself. Who acts and what they may see are fixed when the server starts:

- the actor is `agent:<NAME>` (`--agent NAME`) and the trust zone is `--zone Z`; no tool takes an actor or a zone,
  and an argument a tool does not declare is refused rather than ignored;
- captures are stored in the server's zone, in a sensitivity tier the zone reads back (an agent is never told it
  stored what it may then not read); retrieval and pages are filtered by it (`core/scoring.py` `zone_allows`): a
  server for `outside_contact` never returns a `private_self` record nor any `do_not_export` content;
- no tool takes a decision only a person may take (resolve, confirm, deny, undeny, tier apply, undo), and a capture
  cannot claim `source_type: user_confirmed` (that is a person's confirmation);
- a refused or rejected operation, and a call that cannot produce a receipt, come back as a tool error (`isError`)
  carrying the command line's one-line reason (`tui/cli.py` `refusal_line` / `error_line`); a failure the engine did
  not foresee is `memkeeper: internal error: <Type>` (its message and traceback stay in the server's log).

Pages (`read_page`, and the `hot.md` / `index.md` resources): a `private_self` server reads the generated views and
every entry page as they are. A server for any other zone reads an entry page only when its record is visible to the
zone (rendered without the person's login or local paths: `limited_entry`), `SCHEMA.md`, and a rendering of `hot.md` and
`index.md` filtered for the zone (only the active, unexpired records it may see; the owner's queues and every other
title are left out), because the generated views list the titles of every zone's records. The other views
(`index/<category>.md`, `CONFLICTS.md`, `conflicts/`, `DECISIONS.md`, `log.md`) are for `private_self` only. Reading
writes nothing: the engine has no receipt-producing read for pages or queue counts, so `read_page`, the resources and
`queue_counts` leave no receipt; `capture` and `retrieve` return the engine's receipt (the engine records it when the
call changed or touched memory).

A server for any other zone than `private_self` is limited (`Desk`): it is not offered `queue_counts` (the person's
queues count every zone's records), it resolves a capture's declared relation among the records its zone may see
before the engine looks anything up (a hidden, missing or ambiguous reference gets the engine's `unknown_memory_id`
refusal), and it shows a capture receipt without the conflict id, without the records its zone may not see (nor the
conflict a capture opened against one of them) and without the receipt hash (`Desk._limited_result`).

The protocol around the tools (`MemkeeperServer`, `agents/stdio.py`): over stdio, a line that is not one JSON-RPC
message is answered (-32700 or -32600, one line) instead of being dropped, and a client that writes its requests and
closes stdin gets every answer before the server exits; a request whose params do not have the method's shape is told
which (-32602, `memkeeper: tools/call: arguments must be an object`); a request before `initialize` is told so (-32600),
and so is a second `initialize`; the server offers no prompts (`prompts/*` are -32601, method not found, and no
`prompts` capability is announced); an unknown resource is named with those there are (-32602, as the SDK answers it). A
tool's arguments are checked before it runs, every problem said in one line in the server's own words
(`argument_problems`), as a tool error; a value an error repeats is cut to `clip`'s length.
"""

from __future__ import annotations

import heapq
import importlib.metadata
import inspect
import json
import logging
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, cast

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.lowlevel.helper_types import ReadResourceContents
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, INVALID_REQUEST, CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from mcp_types import RequestId
from mcp_types.methods import SPEC_CLIENT_METHODS, validate_client_request
from pydantic import AnyUrl, BaseModel, ConfigDict, Field, ValidationError, create_model

from memkeeper.agents import stdio
from memkeeper.core import BadInput, Engine, Entry, MemkeeperError, Receipt, Refused
from memkeeper.core.errors import PageError, clip
from memkeeper.core.lockfile import WaitCancelled
from memkeeper.core.models import (
    REFUSED_STATUSES,
    Category,
    MemoryClass,
    SensitivityTier,
    SourceType,
    Status,
    TrustZone,
    iso,
)
from memkeeper.core.pagefmt import parse_entry, render_entry
from memkeeper.core.retrieve import Listed
from memkeeper.core.scoring import zone_allows
from memkeeper.core.shown import limited_entry
from memkeeper.core.store import is_id_prefix
from memkeeper.core.validate import validate_named_actor
from memkeeper.tui.cli import VALID_VALUES, error_line, refusal_line

SERVER_NAME = "memkeeper"
log = logging.getLogger(__name__)
# What an agent may say about where a statement came from. `user_confirmed` is what a person's confirmation sets.
AGENT_SOURCE_TYPES = (SourceType.agent_inferred.value, SourceType.user_stated.value)
MAX_RETRIEVE_LIMIT = 100
# A hundred years: beyond it a ttl is a mistake (and past ~2.7 million days the date overflows).
MAX_TTL_DAYS = 36500
# What to leave out of a capture that asked for a durable record with an expiry (`refusal_line`).
EXPIRY_HINT = 'leave out memory_class "durable" to store an expiring record, or leave out ttl_days / expires_at'
# An hour: a shorter ttl is a unit mistake (seconds or minutes given as days) or a record expired before anyone can
# retrieve it (`1e-9` days is 86 microseconds).
MIN_TTL_DAYS = 1 / 24
RELATIONS = ("supersedes", "contradicts", "restates")
# How often a capture waiting for the session's earlier captures asks whether the client cancelled it (seconds).
TURN_POLL_S = 0.05
CAPTURE_CANCELLED = "memkeeper: capture cancelled by the client before it was written; nothing was written"
# A zone-filtered index lists at most this many records per category; retrieve finds the rest.
FILTERED_INDEX_PER_CATEGORY = 200

ENTRY_PAGE = re.compile(r"entries/[^/]+\.md")
MEMORY_ID = re.compile(r"mem_[0-9a-f]{16}")  # a whole id as the engine makes it (`store.new_id`): read_page takes it
OWNER_VIEWS = re.compile(r"(index/[^/]+\.md|CONFLICTS\.md|conflicts/[^/]+\.md|DECISIONS\.md|log\.md)")
FILTERED_VIEWS = ("hot.md", "index.md")
PUBLIC_VIEWS = ("SCHEMA.md",)
PAGES_HELP = (
    "entries/<slug>.md or a memory id (mem_ and 16 hex), hot.md, index.md, SCHEMA.md, and for private_self also "
    "index/<category>.md, "
    "CONFLICTS.md, conflicts/C<N>.md, DECISIONS.md, log.md"
)


def _never() -> bool:
    return False


def utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def package_version() -> str:
    """The installed memkeeper's version, for `serverInfo` (a source tree that was never installed has none)."""
    try:
        return importlib.metadata.version("memkeeper")
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


@dataclass(frozen=True)
class Identity:
    """Who the server acts as, and what it may see: fixed by its command-line flags."""

    actor: str
    zone: TrustZone

    @classmethod
    def from_flags(cls, agent: str, zone: str) -> Identity:
        actor = validate_named_actor(f"agent:{agent}")
        try:
            zone_e = TrustZone(zone)
        except ValueError:
            raise BadInput(f"invalid_trust_zone {zone!r} (valid: {VALID_VALUES['invalid_trust_zone']})") from None
        return cls(actor, zone_e)


@dataclass(frozen=True)
class Param:
    """One capture argument as the tool publishes it."""

    name: str
    type: Any
    default: Any
    description: str
    enum: tuple[str, ...] | None = None
    extra: dict[str, Any] | None = None  # published in the schema only; the engine checks the value
    checked: dict[str, Any] | None = None  # checked before the call (pydantic Field constraints)

    def annotation(self) -> Any:
        extra = dict(self.extra or {})
        enum = list(self.enum) if self.enum else None

        def schema_extra(schema: dict[str, Any]) -> None:
            schema.update(extra)
            if enum is None:
                return
            # An optional argument (`anyOf: [string, null]`) takes one of the values or null: the values belong to
            # the string branch, or a validator would refuse the null the tool accepts.
            branches = [b for b in schema.get("anyOf", []) if b.get("type") == "string"]
            for branch in branches:
                branch["enum"] = enum
            if not branches:
                schema["enum"] = enum

        field = Field(
            description=self.description,
            json_schema_extra=schema_extra if extra or enum else None,
            **(self.checked or {}),
        )
        return Annotated[self.type, field]


def _values(enum_cls) -> tuple[str, ...]:
    return tuple(m.value for m in enum_cls)


REQUIRED = inspect.Parameter.empty
# Every option of `Engine.capture` but the ones the server fixes (actor, zone, now). The allowed values are published
# in the schema; the engine checks them, so a bad one gets the command line's reason with the valid values.
CAPTURE_PARAMS = (
    Param("text", str, REQUIRED, "The statement to remember, in a sentence or a short paragraph (at most 64 KiB)."),
    Param(
        "key",
        str | None,
        None,
        "Canonical key shared by statements about the same thing (e.g. 'deploy-day'). "
        "Only an explicit key carries authority: a later statement with the same key and different content "
        "opens a conflict for the person to arbitrate; the same statement consolidates.",
    ),
    Param("title", str | None, None, "A short title (default: derived from the text)."),
    Param("category", str, "fact", "What kind of memory this is.", _values(Category)),
    Param(
        "sensitivity",
        str,
        "normal",
        "Default normal. public_safe may reach outside zones; do_not_export never leaves the owner.",
        _values(SensitivityTier),
    ),
    Param(
        "memory_class",
        str | None,
        None,
        "durable or expiring (default: expiring when an expiry is given or the "
        "text carries a temporal cue such as 'this week'; it then lasts 14 days, or through the day an 'until' "
        "in the text names with its year, as in 'until 2027-03-01'; the receipt gives expires_at).",
        _values(MemoryClass),
    ),
    Param(
        "expires_at",
        str | None,
        None,
        "When the record expires, after now; makes it expiring. An ISO-8601 time, a date (the record lasts through "
        "that day in the person's quiz time zone, UTC without one), or a number of days or weeks (7d, 2w).",
    ),
    # The engine takes any number of days; a record that expires before it can be retrieved is never retrieved (at
    # least an hour, `MIN_TTL_DAYS`), and NaN, infinity or a date past the year 9999 would be silently dropped or
    # crash the date arithmetic.
    Param(
        "ttl_days",
        float | None,
        None,
        f"Days until the record expires, at least one hour ({MIN_TTL_DAYS:.4f}) and at most {MAX_TTL_DAYS} "
        "(instead of expires_at).",
        checked={"ge": MIN_TTL_DAYS, "le": MAX_TTL_DAYS, "allow_inf_nan": False},
    ),
    Param(
        "source_type",
        str,
        "agent_inferred",
        "agent_inferred (you concluded it) or user_stated (the person said it). Only a person confirms a memory.",
        AGENT_SOURCE_TYPES,
    ),
    Param("source_ref", str | None, None, "Where the statement came from: a file, a URL, a session id."),
    Param("confidence", float, 0.7, "How sure you are, from 0 to 1.", extra={"minimum": 0, "maximum": 1}),
    Param("recall", list[str] | None, None, "Extra phrases that should find this memory."),
    Param("tags", list[str] | None, None, "Tags."),
    Param("quiz_question", str | None, None, "A question the person can be quizzed with; the memory is the answer."),
    Param("redact", bool, False, "Store a detected secret as [REDACTED:<class>] instead of refusing the capture."),
    # Declared relations: published only when the engine's capture accepts them.
    Param(
        "supersedes",
        str | None,
        None,
        "The memory id (or its page) this statement replaces: a conflict is opened for the person to arbitrate "
        "(nothing is replaced until they take this statement).",
    ),
    Param(
        "contradicts", str | None, None, "The memory id (or its page) this statement contradicts (opens a conflict)."
    ),
    Param(
        "restates",
        str | None,
        None,
        "The memory id (or its page) this statement restates: consolidated into it when it says the same, else refused.",
    ),
)


def capture_params() -> list[Param]:
    """The capture arguments the engine accepts today (the declared relations arrive with the engine's support)."""
    accepted = set(inspect.signature(Engine.capture).parameters)
    return [p for p in CAPTURE_PARAMS if p.name in accepted]


class StrictArguments(BaseModel):
    """Arguments a tool does not declare are refused: an agent passing `zone` or `actor` learns it has no effect."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)


class StrictTool(Tool):
    """A tool whose arguments are checked before it runs, every problem said in one line, in the server's own words
    ("capture: argument `text` is required"; the SDK's own message is pydantic's multi-line report). An argument
    required by the server's zone says why (`required_hints`: the clause after "is required")."""

    required_hints: dict[str, str] = Field(default_factory=dict)

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        wrong = _wrong_json_types(self, arguments)
        problems = list(wrong.items())
        try:
            self.fn_metadata.validate_arguments(arguments)
        except ValidationError as exc:  # an argument of a wrong JSON type is said once, as above
            problems += [(name, problem) for name, problem in argument_problems(self, exc) if name not in wrong]
        if problems:
            order = list(self.parameters.get("properties", {}))  # the tool's order; an unknown argument last
            problems.sort(key=lambda p: order.index(p[0]) if p[0] in order else len(order))
            return _error(BadInput(f"{self.name}: {'; '.join(problem for _, problem in problems)}"))
        try:
            return await super().run(arguments, context, convert_result)
        except MCPError:  # a protocol error, answered as one by the SDK
            raise
        except Exception as exc:  # the Desk answers every failure itself; this is the net under it
            return _internal_error(self.name, exc.__cause__ or exc)


# What a number or a flag argument must be, by the JSON types its schema declares.
SCALAR_TYPES = {"number": "a number", "integer": "an integer", "boolean": "true or false"}


def _json_type(value: Any) -> str:
    """The JSON type of an argument as received, in the words of an error ("a string", "true")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _given(value: Any) -> str:
    """A number as the client sent it, in JSON ("2.5", "1e+308", "NaN"), at most `clip`'s length; any other value
    by its JSON type."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return _json_type(value)
    try:
        return clip(json.dumps(value))
    except ValueError:  # an integer of more digits than Python converts to text (`sys.set_int_max_str_digits`)
        return "a number too long to repeat"


def _argument(name: str) -> str:
    return f"argument `{clip(name)}`"


def _wrong_json_types(tool: Tool, arguments: dict[str, Any]) -> dict[str, str]:
    """The arguments the schema types as a number, an integer or a boolean, given as another JSON type, each with its
    problem. pydantic's lax mode converts them: true was read as 1 (`confidence: true` stored a certainty of 1.0 the
    agent never stated, `limit: true` asked for one result), "0.9" as 0.9 and "5" as 5, "yes" and 1 as true. A
    careful client sends the type the schema declares; another one is told so instead of being guessed at. null is
    pydantic's to judge (taken where the schema allows it), and so are the arguments of other types (an array given
    as a JSON string is parsed by the SDK on purpose: some clients send every array so)."""
    props = tool.parameters.get("properties", {})
    problems: dict[str, str] = {}
    for name, value in arguments.items():
        spec = props.get(name)
        if value is None or not isinstance(spec, dict):
            continue
        types = {spec.get("type")} | {b.get("type") for b in spec.get("anyOf", []) if isinstance(b, dict)}
        scalar = [SCALAR_TYPES[t] for t in ("number", "integer", "boolean") if t in types]
        if not scalar or "string" in types:
            continue
        number = not isinstance(value, bool) and isinstance(value, int | float)
        if (number and {"number", "integer"} & types) or (isinstance(value, bool) and "boolean" in types):
            continue
        problems[name] = f"{_argument(name)} must be {scalar[0]}, got {_json_type(value)}"
    return problems


# A limit on a number argument (pydantic's Field constraints), said as the limit and the value given.
BOUND_PROBLEMS = {
    "greater_than": ("gt", "more than"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "less_than_equal": ("le", "at most"),
}
# A bound said in words where its number is not one a person types (`ttl_days`' hour, 0.041666…).
BOUND_WORDS: dict[float, str] = {MIN_TTL_DAYS: f"{MIN_TTL_DAYS:.4f} (one hour)"}


def _argument_problem(err: Any) -> str:
    """One problem with one argument, in the words of the server's own params errors (`PARAM_PROBLEMS`): what it
    must be, and what was given (its JSON type, or the number)."""
    kind, given = err["type"], err.get("input")
    if kind == "missing":
        return "is required"
    if kind in BOUND_PROBLEMS:
        bound, words = BOUND_PROBLEMS[kind]
        limit = (err.get("ctx") or {}).get(bound)
        if isinstance(limit, float) and limit.is_integer():  # a float argument's bound: 36500, not 36500.0
            limit = int(limit)
        shown = BOUND_WORDS.get(limit, limit) if isinstance(limit, float) else limit
        return f"must be {words} {shown}, got {_given(given)}"
    if kind == "finite_number":
        return f"must be a finite number, got {_given(given)}"
    if kind == "int_from_float":
        return f"must be an integer, got {_given(given)}"
    problem = PARAM_PROBLEMS.get(kind)
    if problem is not None and problem.startswith("must be "):
        return f"{problem}, got {_json_type(given)}"
    return f"is not valid ({clip(err['msg'])})"


def argument_problems(tool: Tool, exc: ValidationError) -> list[tuple[str, str]]:
    """Each argument pydantic refused, with its problem in one clause ("argument `text` is required", "argument `tags`
    item 2 must be a string, got a number"): an argument a tool does not declare names those it takes."""
    names = ", ".join(tool.parameters.get("properties", {})) or "no arguments"
    hints: dict[str, str] = getattr(tool, "required_hints", {})
    problems = []
    for err in exc.errors(include_url=False):
        loc = err["loc"]
        name = str(loc[0]) if loc else "arguments"
        if err["type"] == "extra_forbidden":
            problems.append(
                (
                    name,
                    f"unknown {_argument(name)} (takes: {names}; the actor and the trust zone are fixed by the "
                    "server's flags)",
                )
            )
            continue
        where = _argument(name) + "".join(
            f" item {part + 1}" if isinstance(part, int) else f".{part}"
            for part in loc[1:]
            if not (isinstance(part, str) and _UNION_MEMBER.fullmatch(part))
        )
        if err["type"] == "missing" and len(loc) == 1 and name in hints:
            problems.append((name, f"{where} is required {hints[name]}"))
            continue
        problems.append((name, f"{where} {_argument_problem(err)}"))
    return problems


def _strict(tool: Tool, required_hints: dict[str, str] | None = None) -> StrictTool:
    meta = tool.fn_metadata
    # FieldInfo.annotation is Optional in pydantic's types, but the fields of a model built from a signature always
    # carry one (Any for a parameter without an annotation).
    fields: dict[str, Any] = {name: (f.annotation, f) for name, f in meta.arg_model.model_fields.items()}
    bases: tuple[type[BaseModel], ...] = (meta.arg_model, StrictArguments)
    strict = create_model(meta.arg_model.__name__, __base__=bases, **fields)
    # create_model's types cannot say the new class subclasses both bases: arg_model is its first.
    meta.arg_model = cast("type[ArgModelBase]", strict)
    data = {name: getattr(tool, name) for name in Tool.model_fields}
    schema = strict.model_json_schema(by_alias=True)
    return StrictTool(**{**data, "parameters": schema, "fn_metadata": meta, "required_hints": required_hints or {}})


def _receipt_result(
    r: Receipt, *, redact_hint: str = "redact=true", data: dict[str, Any] | None = None
) -> CallToolResult:
    data = r.to_dict() if data is None else data
    line = refusal_line(r, redact_hint=redact_hint, expiry_hint=EXPIRY_HINT)
    if line is not None:
        return CallToolResult(content=[TextContent(type="text", text=line)], structured_content=data, is_error=True)
    text = json.dumps(data, ensure_ascii=False, default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


# What a capture receipt adds when its write committed and the disk did not let it finish (`Desk._noted`).
UNFINISHED_UNTIL = "until then, read_page and retrieve may not find it: do not capture it again"
UNFINISHED_LIMITED = (
    "the disk did not let this operation finish; it is recorded and stands, and the next write, or memkeeper check "
    f"--repair, finishes it (the server's log names the file); {UNFINISHED_UNTIL}"
)


def _error(exc: BaseException) -> CallToolResult:
    return _error_text(error_line(exc))


def _error_text(line: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=line)], is_error=True)


def internal_error_line(exc: BaseException) -> str:
    """What the agent is told of a failure the engine did not foresee: its type, never its message or traceback
    (they may name files and values); both stay in the server's log on stderr."""
    return f"memkeeper: internal error: {type(exc).__name__}"


def queue_counts_not_offered(zone: TrustZone) -> str:
    return (
        f"memkeeper: queue_counts is not offered to zone {zone.value}: the person's queues count the records of "
        "every zone"
    )


def _internal_error(what: str, exc: BaseException) -> CallToolResult:
    log.error("%s failed", what, exc_info=exc)
    return _error_text(internal_error_line(exc))


# What a limited server shows of a capture receipt whose record (`details.memory_id`) the zone may not see: only what
# the statement itself carried (its key and class, the hash of its text, what was redacted or normalized in it).
HIDDEN_RECORD_KEEPS = {
    "conflict": frozenset({"canonical_key", "class", "content_sha256", "redacted", "normalized", "related"}),
    "consolidated": frozenset({"content_sha256", "redacted", "normalized", "related"}),
}


# What the engine writes on a page about the person's queue, as a limited zone reads it (`limited_page`): the
# conflict numbers ("in C4", "[SUPERSEDED by C4]") count every zone's conflicts, so an outside contact reading its own
# record learnt how many others there were; a denial's reason is the person's own words about the record.
_PAGE_CONFLICT_IDS = re.compile(
    r"(?P<a>\[SUPERSEDED by )C\d+(?P<b>\])"
    r"|(?P<c>Took precedence over \S+ in )C\d+(?P<d> \()"
    r"|(?P<e>Both valid with \S+ \()C\d+(?P<f>, )"
    r"|(?P<g>[Rr]esolution of )C\d+(?P<h> (?:undone|by) )"
    r"|(?P<i>Kept in )C\d+(?P<j>, whose | beside )"
)
_PAGE_DENIAL_REASON = re.compile(r"^(?P<head>- Denied by \S+ \([^)\n]*\)): [^\n]*$", re.M)


_PAGE_MEMORY_ID = re.compile(r"\bmem_[0-9a-f]{16}\b")
WHOLE_ID = len("mem_") + 16  # a memory id as the engine makes it (`store.new_id`)


def limited_page(text: str, sees: Callable[[str], bool] = lambda memory_id: True) -> str:
    """An entry page as a limited server serves it: the engine's own notes without the conflict numbers of the
    person's queue and without the reason the person gave for a denial, and no id of a record the zone may not see
    (`sees`): a note that names the other side of a conflict or a merge ("Took precedence over mem_…", "Merged into
    mem_…", `superseded_by:`) names a record of another zone when that record's page was moved there since. The
    record is given as `limited_entry` shows it (`Desk.page` renders it so before this)."""

    def unnumbered(m: re.Match[str]) -> str:
        for a, b in (("a", "b"), ("c", "d"), ("e", "f"), ("g", "h"), ("i", "j")):
            if m.group(a) is not None:
                return m.group(a) + "a conflict" + m.group(b)
        return m.group(0)

    def unseen(m: re.Match[str]) -> str:
        return m.group(0) if sees(m.group(0)) else "a record this zone may not see"

    text = _PAGE_DENIAL_REASON.sub(r"\g<head>", _PAGE_CONFLICT_IDS.sub(unnumbered, text))
    return _PAGE_MEMORY_ID.sub(unseen, text)


class Desk:
    """The operations the server exposes, over one engine, for one identity.

    The SDK runs each tool call in a worker thread, and the engine is shared by them, as the desk's workers share it
    (the index serialises its connection, the write lock excludes threads as it does processes, and an operation's
    staged writes belong to its thread). Captures take turns (`_writes`), so a session's captures are written in
    the order they came; reads (`retrieve`, pages, `queue_counts`) take no turn: they never wait behind a capture,
    even one that waits for the write lock (a retrieval's own access write waits at most 0.2 s, then is skipped).

    A capture the client cancels (`cancelled`, from `notifications/cancelled`) before it began writing (waiting for
    its turn or for the write lock) is not written; one that began writing is written whole.

    A server for any zone but `private_self` is *limited*: it answers as if the records its zone may not see
    (`zone_allows` on the record's zone and sensitivity, the rule of `read_page`) did not exist, in pages, in the
    references a capture declares and in the receipts it passes on; it shows a record without the person's login
    or local paths (`limited_entry`); and it stores a capture only in a tier its zone reads back."""

    def __init__(self, engine: Engine, identity: Identity, clock: Callable[[], datetime] = utc_now) -> None:
        self.engine = engine
        self.identity = identity
        self.clock = clock
        self._writes = threading.Lock()

    @property
    def limited(self) -> bool:
        return self.identity.zone is not TrustZone.private_self

    @property
    def readable_tiers(self) -> tuple[str, ...]:
        """The sensitivity tiers of the records this zone reads back when it stores them in its own zone."""
        zone = self.identity.zone
        return tuple(t.value for t in SensitivityTier if zone_allows(zone, zone, t))

    @property
    def default_sensitivity(self) -> str | None:
        """The tier of a capture that gives none: the engine's `normal` when this zone reads such records back, else
        None (outside_contact, paid_public: they read back only `public_safe` records, which the other outside zone
        reads too, so the agent says so itself: `sensitivity_required`)."""
        return SensitivityTier.normal.value if SensitivityTier.normal.value in self.readable_tiers else None

    def sensitivity_required(self) -> str:
        """The clause of the one-line refusal of a capture that gives no sensitivity where there is no default."""
        zone, tiers = self.identity.zone, self.readable_tiers
        readers = [z.value for z in TrustZone if all(zone_allows(z, zone, SensitivityTier(t)) for t in tiers)]
        who = "every zone" if len(readers) == len(TrustZone) else "zones " + ", ".join(readers)
        return (
            f"for zone {zone.value}: give {' or '.join(tiers)} (the only tier this zone reads back; {who} may read "
            "such a record)"
        )

    def _guarded(self, what: str, call: Callable[[], CallToolResult]) -> CallToolResult:
        """Every tool's answer: an engine error is its one line, anything else `memkeeper: internal error: <Type>`."""
        try:
            return call()
        except MemkeeperError as exc:
            return _error_text(self.error_line(exc))
        except Exception as exc:
            return _internal_error(what, exc)

    def error_line(self, exc: BaseException) -> str:
        """The command line's line for an engine error, with a file under the wiki named relative to its root: the
        engine names its write lock by its absolute path when another process holds it past the wait (`Busy`), and
        where the person keeps the wiki (`/home/<login>/…`) is not the agent's to learn; the person reads it in the
        server's log."""
        line = error_line(exc)
        for root in dict.fromkeys((str(self.engine.root), os.path.realpath(self.engine.root))):
            line = line.replace(root.rstrip(os.sep) + os.sep, "")
        if line != error_line(exc):
            log.warning("%s", error_line(exc))
        return line

    def _answer(self, r: Receipt) -> CallToolResult:
        """A capture receipt as this server shows it."""
        return self._limited_result(r) if self.limited else _receipt_result(r)

    # ------------------------------------------------------------------------------------------------ tools

    def capture(
        self, *, cancelled: Callable[[], bool] | None = None, undecodable: Iterable[str] = (), **options: Any
    ) -> CallToolResult:
        """`options`: the tool's arguments. `cancelled`: whether the client has cancelled the call (asked before the
        capture begins writing). `undecodable`: the arguments that arrived with bytes that are not UTF-8 or a lone
        surrogate escape (read as U+FFFD on the way in: `agents/stdio.py`)."""
        return self._guarded("capture", lambda: self._capture(dict(options), cancelled or _never, tuple(undecodable)))

    def _capture(
        self, options: dict[str, Any], cancelled: Callable[[], bool], undecodable: tuple[str, ...]
    ) -> CallToolResult:
        if undecodable:
            order = [p.name for p in CAPTURE_PARAMS]
            first = min(undecodable, key=lambda name: order.index(name) if name in order else len(order))
            return self._answer(self._invalid_text(first, "capture"))
        if options.get("source_type") == SourceType.user_confirmed.value:
            return _error(
                Refused(
                    "capture refused: source_type 'user_confirmed' is a person's confirmation (valid over MCP: "
                    f"{', '.join(AGENT_SOURCE_TYPES)}); the person confirms in the desk or with `memkeeper verify confirm`"
                )
            )
        if options.get("expires_at") is not None and options.get("ttl_days") is not None:
            # The engine would take expires_at and drop ttl_days without a word.
            return _error(BadInput("capture: expires_at and ttl_days: give one of them, not both"))
        refused = self._unreadable_tier(options)
        if refused is not None:
            return _error(refused)
        text = options.pop("text")
        if not self._take_turn(cancelled):
            return self._cancelled()
        mark = len(self.engine.unfinished_writes)
        try:
            declared = self._declared(options)
            if declared is not None and self.limited:
                how, ref = declared
                memory_id = self._visible_id(ref)
                if memory_id is None:
                    return self._limited_result(self._unknown_reference(how, ref, self.clock()))
                options[how] = memory_id  # the full id: the engine looks up nothing the zone may not see
            if cancelled():
                return self._cancelled()
            try:  # the engine's wait for the write lock stops once the client cancels
                r = self.engine.capture(
                    text,
                    now=self.clock(),
                    actor=self.identity.actor,
                    zone=self.identity.zone,
                    cancelled=cancelled,
                    **options,
                )
            except WaitCancelled:
                return self._cancelled()
        finally:
            self._writes.release()
        unfinished = self.engine.unfinished_writes_since(mark)
        if not self.limited:
            return self._noted(_receipt_result(r), unfinished)
        if r.status in REFUSED_STATUSES and declared is not None:
            named = r.details.get("memory_id")
            if isinstance(named, str) and not self._sees(named):
                # The record changed zone between the look-up and the engine's: still nothing to name.
                return self._limited_result(self._unknown_reference(*declared, self.clock()))
        return self._noted(self._limited_result(r), unfinished)

    def _noted(self, result: CallToolResult, unfinished: list[str]) -> CallToolResult:
        """A capture that committed and that the disk did not let finish (`Engine.unfinished_writes`): it stands, and
        the next write or `memkeeper check --repair` finishes it; until then its page may not be there. The command
        line says so on stderr and the desk in a toast; the agent gets it beside the receipt, as `unfinished` (one
        line each), so it does not take its memory for lost and capture it again, and the server's log has the
        engine's own line. The owner's server gives that line (a file under the wiki named relative to its root); a
        limited one does not name the file, which may be another zone's page or the person's conflict record."""
        for line in unfinished:
            log.warning("capture recorded, not finished on disk: %s", line)
        if not unfinished or result.structured_content is None or result.is_error:
            return result
        notes = []
        for line in unfinished:
            if self.limited:
                notes.append(UNFINISHED_LIMITED)
            else:
                for root in dict.fromkeys((str(self.engine.root), os.path.realpath(self.engine.root))):
                    line = line.replace(root.rstrip(os.sep) + os.sep, "")
                notes.append(f"{line}; {UNFINISHED_UNTIL}")
        data = {**result.structured_content, "unfinished": list(dict.fromkeys(notes))}
        text = json.dumps(data, ensure_ascii=False, default=str)
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)

    def _take_turn(self, cancelled: Callable[[], bool]) -> bool:
        """Wait for the captures before this one; False when the client cancelled this one meanwhile."""
        while not self._writes.acquire(timeout=TURN_POLL_S):
            if cancelled():
                return False
        return True

    def _cancelled(self) -> CallToolResult:
        """What a capture cancelled before it began writing returns (the SDK sends no answer to a cancelled
        request: JSON-RPC leaves it unanswered)."""
        log.warning("%s", CAPTURE_CANCELLED)
        return _error_text(CAPTURE_CANCELLED)

    def _unreadable_tier(self, options: dict[str, Any]) -> MemkeeperError | None:
        """Why a limited server does not store this capture's tier, if it does not: a record its own zone could not
        read back would be one the agent was told it stored and could then not read, restate nor find (and each
        retry a duplicate). The tier is filled in when there is a default (`default_sensitivity`)."""
        if options.get("sensitivity") is None:
            default = self.default_sensitivity
            if default is None:
                return BadInput(f"capture: argument `sensitivity` is required {self.sensitivity_required()}")
            options["sensitivity"] = default
        tier, zone = options["sensitivity"], self.identity.zone.value
        if tier in self.readable_tiers:
            return None
        valid = ", ".join(self.readable_tiers)
        if tier in _values(SensitivityTier):
            return Refused(
                f"capture refused: sensitivity {tier!r} would store a record zone {zone} cannot read back "
                f"(valid for this zone: {valid})"
            )
        return BadInput(
            f"capture reject: invalid_sensitivity_tier {clip(str(tier))!r} (valid for zone {zone}: {valid})"
        )

    def _invalid_text(self, name: str, action: str) -> Receipt:
        """The engine's refusal of text that is not valid UTF-8 (what the command line gets for such bytes), for the
        argument `name`, which arrived with bytes that are not UTF-8 or a lone surrogate escape."""
        if action == "retrieve":
            details: dict[str, Any] = {"reason": "invalid_text", "detail": "the query is not valid UTF-8"}
        elif name == "text":
            details = {"reason": "invalid_text", "detail": "text is not valid UTF-8"}
        else:
            details = {"reason": "invalid_text", "field": name, "detail": f"{name} is not valid UTF-8"}
        return Receipt(action=action, status="reject", at=iso(self.clock()), actor=self.identity.actor, details=details)

    def retrieve(self, query: str, limit: int = 10, *, undecodable: Iterable[str] = ()) -> CallToolResult:
        def run() -> CallToolResult:
            if "query" in tuple(undecodable):
                return _receipt_result(self._invalid_text("query", "retrieve"))
            r = self.engine.retrieve(
                query,
                zone=self.identity.zone,
                limit=limit,
                now=self.clock(),
                actor=self.identity.actor,
                record_access=True,
            )
            return _receipt_result(r)

        return self._guarded("retrieve", run)

    def read_page(self, path: str) -> CallToolResult:
        return self._guarded(
            "read_page", lambda: CallToolResult(content=[TextContent(type="text", text=self.page(path))])
        )

    def queue_counts(self) -> CallToolResult:
        def run() -> CallToolResult:
            if self.limited:  # not offered to a limited server (build_server); refused should it be called anyway
                return _error_text(queue_counts_not_offered(self.identity.zone))
            counts = self.engine.counts(self.clock())
            return CallToolResult(
                content=[TextContent(type="text", text=json.dumps(counts))], structured_content=counts
            )

        return self._guarded("queue_counts", run)

    # ------------------------------------------------------------------------------------------------ capture, limited

    @staticmethod
    def _declared(options: dict[str, Any]) -> tuple[str, str] | None:
        """The one relation a capture declares (name, reference as the engine reads it), if exactly one: with several
        the engine refuses the capture before it looks anything up."""
        given = [(name, options[name]) for name in RELATIONS if options.get(name) is not None]
        if len(given) != 1:
            return None
        how, ref = given[0]
        return how, str(ref).strip()

    def _sees(self, memory_id: str) -> bool:
        """Whether this server's zone may see the record (the rule of read_page: the zone and sensitivity its page
        says now, on disk; an unknown id is seen by no one). A record the index holds outside the zone is read
        from its page only when the page changed since the index read it (a hand edit may have moved it into the
        zone): otherwise it is refused without reading and parsing its page, nearly as fast as an id that names
        nothing, so the time taken does not tell that it exists."""
        if not self._may_see(memory_id):
            return False
        try:
            entry = self.engine.load(memory_id, scan=True)
        except (MemkeeperError, OSError):  # a page that cannot be read as a record is nobody's to see but the owner's
            return False
        return zone_allows(self.identity.zone, entry.trust_zone, entry.sensitivity_tier)

    def _visible_id(self, ref: str) -> str | None:
        """The memory id a reference (stripped) names among the records this zone may see, by the engine's rule
        (`Store.resolve_id`), over what the zone sees: a page path (`entries/…`), a memory id as a record has it, or
        `mem_` and six to sixteen lower-case hex digits that begin exactly one visible id (`is_id_prefix`: "m",
        "mem_" or "MEM_…" name nothing). None when it names no visible record, or several; a reference that names
        only records the zone may not see is one that names none."""
        if ref.startswith("entries/"):
            memory_id = self.engine.memory_id_at(ref)
            return memory_id if memory_id is not None and self._sees(memory_id) else None
        if self.engine.page_of(ref) is not None:  # a whole id (what `related` gives): taken before any prefix
            return ref if self._sees(ref) else None
        if not is_id_prefix(ref) or len(ref) == WHOLE_ID:  # a whole id that names nothing begins nothing either
            return None
        # One range of the index, within the zone's partitions: the ids the zone may not see neither make a prefix
        # ambiguous nor cost its look-up anything (a walk of every listing took O(wiki), and the time it took told
        # an agent whether an id it guessed belonged to a record it may not see).
        memory_id = self.engine.resolve_prefix(ref, self.identity.zone)
        return memory_id if memory_id is not None and self._sees(memory_id) else None

    def _unknown_reference(self, how: str, ref: str, now: datetime) -> Receipt:
        """The engine's refusal of a reference that names no record, for one the zone may not see as well."""
        details = {"declared": how, "reason": "unknown_memory_id", "value": ref}
        return Receipt(action="capture", status="reject", at=iso(now), actor=self.identity.actor, details=details)

    def _limited_result(self, r: Receipt) -> CallToolResult:
        """A capture receipt as a limited server shows it: nothing that describes the rest of the wiki.

        - no conflict id (the queue's numbering counts every zone's conflicts): the conflict is said to be held for
          the person;
        - `related` lists only the records the zone may see;
        - a receipt about a record the zone may not see (a restatement or a contradiction of it, found in the
          statement's own partition) keeps only what the statement itself carried;
        - nothing of a conflict a capture opened (`opened`: its id, the record it holds the statement against);
          the engine opens one only against a record the zone may not see, and stores the statement all the same;
        - no `receipt_sha256`: with every other field known, the hash of the recorded receipt would let one test
          guesses of what was left out (a conflict number, a title). The audit trail keeps the receipt whole."""
        details = dict(r.details)
        related = details.get("related")
        if isinstance(related, list):
            details["related"] = [
                item for item in related if isinstance(item, dict) and self._sees(str(item.get("memory_id")))
            ]
        named = details.get("memory_id")
        keeps = HIDDEN_RECORD_KEEPS.get(r.status)
        if keeps is not None and isinstance(named, str) and not self._sees(named):
            details = {k: v for k, v in details.items() if k in keeps}
            details["note"] = f"about a record zone {self.identity.zone.value} may not see"
        details.pop("opened", None)
        if r.status == "conflict":
            details.pop("conflict_id", None)
            details["conflict"] = "held for the person to arbitrate"
        shown = Receipt(action=r.action, status=r.status, at=r.at, actor=r.actor, details=details, schema_=r.schema_)
        data = shown.to_dict()
        del data["receipt_sha256"]
        return _receipt_result(shown, data=data)

    # ------------------------------------------------------------------------------------------------ pages

    def page(self, path: str) -> str:
        """The text of a wiki page as this server's zone may see it. BadInput for a path that escapes the root or
        names no page; Refused for a page the zone may not see (the same reason whether or not it exists, and
        whether or not it can be read)."""
        zone = self.identity.zone
        owner = zone is TrustZone.private_self
        if MEMORY_ID.fullmatch(path):
            # A record by its id (what a receipt's `related` gives): its page, by the rules of a page. An id this
            # zone may not see and one that names nothing get the refusal a page the zone may not see gets.
            page = self.engine.page_of(path)
            if page is None:
                if owner:
                    raise BadInput(f"{path} does not exist")
                raise Refused(f"read_page refused: no page {path} visible to zone {zone.value}")
            return self._entry_page(page, path)
        rel, reachable = self._rel(path)
        shown = clip(rel)  # as a refusal repeats it
        if ENTRY_PAGE.fullmatch(rel):
            return self._entry_page(rel, shown, reachable)
        if rel in FILTERED_VIEWS and reachable:
            return self.engine.read_view(rel) if owner else self._filtered_view(rel)
        if reachable and (rel in PUBLIC_VIEWS or (owner and OWNER_VIEWS.fullmatch(rel))):
            return self.engine.read_view(rel)
        if OWNER_VIEWS.fullmatch(rel) and not owner:
            raise Refused(
                f"read_page refused: {shown} lists records of every zone; a server for zone {zone.value} "
                "reads hot.md, index.md, SCHEMA.md and the entry pages it may see"
            )
        if not reachable and (rel in FILTERED_VIEWS or rel in PUBLIC_VIEWS or OWNER_VIEWS.fullmatch(rel)):
            raise BadInput(f"{shown} does not exist")
        raise BadInput(f"read_page: {shown} is not a wiki page (pages: {PAGES_HELP})")

    def _entry_page(self, rel: str, shown: str, reachable: bool = True) -> str:
        """An entry page (`rel`, named `shown` in a refusal: the path or the id as the agent gave it) as this zone may
        see it."""
        zone = self.identity.zone
        if zone is not TrustZone.private_self:
            # The record as its page says now, judged and shown from that one reading. A page the zone may not
            # see, one that is not there and one that cannot be read get the same refusal.
            entry = self._visible_record(rel) if reachable else None
            if entry is None:
                raise Refused(f"read_page refused: no page {shown} visible to zone {zone.value}")
            return limited_page(render_entry(limited_entry(entry)), self._sees)
        if not reachable:
            raise BadInput(f"{shown} does not exist")  # what the engine says of a page that is not there
        text = self.engine.read_view(rel)
        try:
            parse_entry(text, edited=True)
        except PageError as exc:
            # The owner's server shows a malformed page as it is (so that its agent can say what is wrong with
            # it), but not a secret typed into it by hand: the engine reads no such page, serves it to no zone
            # and exports none of it (`pagefmt`), and an agent of the owner's zone is an agent all the same.
            if exc.kind == "secret":
                raise Refused(f"read_page refused: {shown} {exc}") from None
        return text

    def _rel(self, path: str) -> tuple[str, bool]:
        """The path relative to the root as the engine resolves it, and whether the file system could be asked about
        it. A path it cannot be (a name longer than the file system allows) is named as written, without empty and
        `.` components; the engine's own refusals (`..`, absolute, a symlink) stand."""
        try:
            return self.engine.rel(self.engine.path(path)), True
        except OSError:
            return "/".join(p for p in re.split(r"[\\/]+", path) if p not in ("", ".")), False

    def _may_see(self, memory_id: str, page: str | None = None) -> bool:
        """Whether the record may be in the zone: the index holds it there, or its page changed since the index
        read it (then only the page can say)."""
        if self.engine.seen_by(memory_id, self.identity.zone):
            return True
        page = page or self.engine.page_of(memory_id)
        return page is not None and self.engine.pages_unindexed([page])

    def _visible_record(self, rel: str) -> Entry | None:
        """The record of the entry page `rel` as its page says now, when this zone may see it; else None. A page the
        index holds outside the zone is read only when it changed since (`_may_see`)."""
        memory_id = self.engine.memory_id_at(rel)
        seen = memory_id is not None and self._may_see(memory_id, rel)
        entry = self._on_page(memory_id) if memory_id is not None and seen else None
        if entry is None or not zone_allows(self.identity.zone, entry.trust_zone, entry.sensitivity_tier):
            return None
        return entry

    def _visible_entries(self, now: datetime) -> list[Listed]:
        """The active, unexpired records this zone may see (what retrieve could return), with their pages: by the
        rule of `read_page`, the zone and sensitivity each page says now. Listed from the index's narrow columns
        (`Engine.zone_listing`: no record is built, a read of those columns for the whole wiki). A page edited in
        place since the index read it (an editor that saves without a rename: nothing re-reads it until something
        syncs) is read into the index first (`Engine.reread_edited_active`: a stat per active page, a read per
        changed one); a page the index could not bring up to date is judged as `read_page` judges it, from the page
        itself."""
        unsure = {m: p for p in self.engine.reread_edited_active() if (m := self.engine.memory_id_at(p)) is not None}
        out = [item for item in self.engine.zone_listing(self.identity.zone, now) if item.memory_id not in unsure]
        for memory_id, page in unsure.items():
            entry = self._on_page(memory_id)
            if entry is None or entry.status is not Status.active:
                continue
            if entry.expires_at is not None and entry.expires_at <= now:
                continue
            if zone_allows(self.identity.zone, entry.trust_zone, entry.sensitivity_tier):
                out.append(Listed(memory_id, page, entry.title, entry.category.value, iso(entry.created_at)))
        return out

    def _on_page(self, memory_id: str) -> Entry | None:
        """The record as its page says now, or None when the page cannot be read as that record (what `read_page`
        refuses as if it were not there)."""
        try:
            entry = self.engine.load(memory_id, scan=True)  # served as it is now: a secret typed in by hand is not
        except (MemkeeperError, OSError):
            return None
        return entry if entry.memory_id == memory_id else None

    def _filtered_view(self, rel: str) -> str:
        now = self.clock()
        zone = self.identity.zone.value
        entries = self._visible_entries(now)
        by_title = sorted(entries, key=lambda e: (e.title.lower(), e.path))
        note = (
            f"_Generated {iso(now)} for zone {zone}: only the active records this zone may see are listed; "
            "the owner's curation queues and every other record are left out._"
        )
        if rel == "hot.md":
            recent = heapq.nlargest(5, entries, key=lambda e: (_iso_order(e.created_at), e.memory_id))
            commitments = [e for e in by_title if e.category == Category.commitment.value]
            lines = [f"# Hot — what is in flight (zone {zone})", note, "", "## Last captures"]
            lines += [f"- [{e.title}]({e.path})" for e in recent] or ["- (none)"]
            lines += ["", "## Active commitments"]
            lines += [f"- [{e.title}]({e.path})" for e in commitments[:20]] or ["- (none)"]
            if len(commitments) > 20:
                lines.append(f"- … {len(commitments) - 20} more in [index.md](index.md)")
            return "\n".join(lines) + "\n"
        lines = [f"# Wiki Index (zone {zone})", note, ""]
        by_category: dict[str, list[Listed]] = {}
        for e in by_title:
            by_category.setdefault(e.category, []).append(e)
        for category in Category:
            group = by_category.get(category.value, [])
            if not group:
                continue
            lines += [f"## {category.value} ({len(group)})", ""]
            lines += [f"- [{e.title}]({e.path})" for e in group[:FILTERED_INDEX_PER_CATEGORY]]
            if len(group) > FILTERED_INDEX_PER_CATEGORY:
                lines.append(f"- … {len(group) - FILTERED_INDEX_PER_CATEGORY} more (use retrieve)")
            lines.append("")
        if not entries:
            lines.append("- (nothing visible to this zone)")
        return "\n".join(lines).rstrip("\n") + "\n"


def _iso_order(text: str) -> tuple[str, str]:
    """An ISO time as the index writes it (`iso`: "2026-11-20T09:00:00Z", with ".123456" before the Z when it has
    microseconds, a year below 1000 unpadded), as a key that sorts as the times do, without parsing each."""
    date, _, rest = text.partition("T")
    year, _, month_day = date.partition("-")
    return f"{year.zfill(4)}-{month_day}T{rest[:8]}", rest[8:].rstrip("Z")


def _zone_param(desk: Desk, p: Param) -> Param:
    """A capture argument as a limited desk's tool publishes it: `sensitivity` takes only the tiers its zone reads
    back, with the default it has there (`Desk.default_sensitivity`), or none: then it is required."""
    if p.name != "sensitivity" or not desk.limited:
        return p
    zone, tiers, default = desk.identity.zone.value, desk.readable_tiers, desk.default_sensitivity
    if default is None:
        what = f"Required {desk.sensitivity_required()}."
    else:
        what = f"Default {default}. public_safe may reach outside zones."
    refused = [t for t in _values(SensitivityTier) if t not in tiers]
    what += f" {' and '.join(refused)} {'is' if len(refused) == 1 else 'are'} refused: zone {zone} could not read "
    what += "back what it stored."
    return replace(p, default=REQUIRED if default is None else default, enum=tiers, description=what)


def _capture_tool(desk: Desk, calls: Calls) -> Tool:
    params = [_zone_param(desk, p) for p in capture_params()]

    def capture(ctx: Context[Any, Any] | None = None, **options: Any) -> CallToolResult:
        call = calls.of(ctx)
        return desk.capture(cancelled=call.cancelled.is_set, undecodable=call.undecodable, **options)

    capture.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [
            inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default, annotation=p.annotation())
            for p in params
        ],
        return_annotation=CallToolResult,
    )
    relations = [p.name for p in params if p.name in ("supersedes", "contradicts", "restates")]
    doc = (
        f"Remember a statement as {desk.identity.actor}, in trust zone {desk.identity.zone.value}. Returns the "
        "receipt: status captured (a new memory), consolidated (the same statement was already known; it was "
        "reinforced), conflict (it disagrees with a memory: a person will arbitrate; nothing was stored), "
        "suppressed (a person denied this statement before), drop (too short, or only an acknowledgement such as "
        "'thanks', to keep) or reject (refused, with a reason: a credential in it, a bad argument; nothing stored). "
        "The receipt names "
        "the memory_id and page, and lists related memories when the engine finds them: read them (read_page "
        "takes a memory_id; an 'unrelated' one shares most of the words; decide yourself whether it says the same "
        "thing)."
    )
    if relations:
        doc += (
            f" Declare a relation to an existing memory id with {', '.join(relations)}; for a statement you "
            "already captured, capture the same text again with the relation (no second copy is made)."
        )
    if desk.limited:
        doc += (
            f" As zone {desk.identity.zone.value} you name and are shown only the records this zone may see, and "
            "only they decide the status (a statement about records it may not see is stored as a new memory): a "
            "conflict is held for the person without its id. It stores a statement only in a sensitivity tier "
            f"this zone reads back ({', '.join(desk.readable_tiers)}), so you can always read back what you stored."
        )
    hints = {"sensitivity": desk.sensitivity_required()} if desk.default_sensitivity is None else {}
    return _strict(
        Tool.from_function(
            capture,
            name="capture",
            description=doc,
            context_kwarg="ctx",
            annotations=ToolAnnotations(
                read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
            ),
        ),
        required_hints=hints,
    )


@dataclass(frozen=True)
class Call:
    """A tool call in flight: set `cancelled` when the client cancels it; `undecodable`: the arguments that arrived
    with bytes that are not UTF-8 or a lone surrogate escape."""

    cancelled: threading.Event
    undecodable: tuple[str, ...] = ()


class Calls:
    """The tool calls of a session in flight, by request id (`middleware`), for the tool functions to ask about their
    own (`of`). The SDK applies `notifications/cancelled` to the request's task and drops its answer, but a tool runs
    in a worker thread that the cancellation does not reach: a capture waiting for the write lock was written all
    the same. The middleware sets the call's flag, which the capture asks while it waits. It also reads the mark
    `agents/stdio.py` puts in a request's `_meta` when arguments arrived undecodable (`stdio.undecodable`)."""

    def __init__(self) -> None:
        self._calls: dict[RequestId, Call] = {}

    async def middleware(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.request_id is None:
            if ctx.method == "notifications/cancelled" and isinstance(ctx.params, Mapping):
                rid = as_request_id(ctx.params.get("requestId"))
                call = self._calls.get(coerce_request_id(rid)) if rid is not None else None
                if call is not None:
                    call.cancelled.set()
            return await call_next(ctx)
        if ctx.method != "tools/call":
            return await call_next(ctx)
        key = coerce_request_id(ctx.request_id)
        call = Call(threading.Event(), stdio.undecodable(ctx.params))
        self._calls[key] = call  # (a duplicate id in flight: the latest, as the SDK correlates it)
        try:
            return await call_next(ctx)
        finally:
            if self._calls.get(key) is call:
                del self._calls[key]

    def of(self, ctx: Context[Any, Any] | None) -> Call:
        """The call a tool function runs for (a call outside a request, as from a test: one never cancelled)."""
        try:
            request_id = ctx.request_context.request_id if ctx is not None else None
        except ValueError:  # "Context is not available outside of a request"
            request_id = None
        found = self._calls.get(coerce_request_id(request_id)) if request_id is not None else None
        return found or Call(threading.Event())


def already_initialised(version: str) -> str:
    return (
        f"memkeeper: the session is already initialised (protocol version {version}); initialize is sent once, "
        "at the start of a session"
    )


async def refuse_a_second_initialize(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """MCP: `initialize` is the first request of a session, and only the first. The SDK answered a second one as the
    first, and the session then spoke the protocol version it named: it is refused (-32600, the request is not valid
    in the session's state), and the session goes on as it was."""
    if ctx.method == "initialize" and ctx.session.client_params is not None:
        raise MCPError(code=INVALID_REQUEST, message=already_initialised(ctx.protocol_version))
    return await call_next(ctx)


# What the SDK answers a request other than `initialize` and `ping` before the handshake (`ServerRunner`'s gate).
SDK_NOT_INITIALISED = "Invalid request parameters"


def not_initialised(method: str) -> str:
    return (
        f"memkeeper: the session is not initialised: send initialize, then notifications/initialized, before {method}"
    )


async def say_the_session_is_not_initialised(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """A request before `initialize` is refused by the SDK as "Invalid request parameters" (-32602), which sends a
    client to check arguments that are fine: it is answered -32600 (the request is not valid in the session's state),
    saying so. Only the SDK's own refusal is rewritten: no `initialize` was received, and the error is its gate's."""
    try:
        return await call_next(ctx)
    except MCPError as exc:
        gate = exc.error.code == INVALID_PARAMS and exc.error.message == SDK_NOT_INITIALISED
        if gate and ctx.session.client_params is None:
            raise MCPError(code=INVALID_REQUEST, message=not_initialised(ctx.method)) from None
        raise


# A parameter of the wrong shape, in JSON's words (pydantic's error types; any other keeps pydantic's message).
PARAM_PROBLEMS = {
    "missing": "is required",
    "string_type": "must be a string",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
    "list_type": "must be an array",
    "int_type": "must be an integer",
    "int_from_float": "must be an integer",
    "int_parsing": "must be an integer",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "none_required": "must be null",
    "extra_forbidden": "is not a parameter of this method",
}
# A part of an error's location that names a member of a union (`progressToken.str`, `ref.PromptReference`), not a
# parameter (the protocol's are camelCase).
_UNION_MEMBER = re.compile(r"[A-Z]\w*|str|int|float|bool|none|dict|list|.*\[.*\]")


def params_problems(method: str, exc: ValidationError) -> str:
    """What is wrong with a request's params, one clause per parameter ("tools/call: arguments must be an object;
    name is required"), the members of a union said together ("must be a string or an integer")."""
    said: dict[str, list[str]] = {}
    for err in exc.errors(include_url=False, include_input=False):
        loc = [str(part) for part in err["loc"][1:]]  # the location starts at `params`
        where = ".".join(part for part in loc if not _UNION_MEMBER.fullmatch(part)) or "params"
        problem = PARAM_PROBLEMS.get(err["type"])
        clauses = said.setdefault(where, [])
        if problem is None:
            clauses.append(f": {err['msg']}")
        elif clauses and clauses[-1].startswith(" must be ") and problem.startswith("must be "):
            clauses[-1] += " or " + problem.removeprefix("must be ")
        else:
            clauses.append(f" {problem}")
    return f"memkeeper: {method}: " + "; ".join(where + clause for where, clauses in said.items() for clause in clauses)


async def name_what_is_wrong_with_the_params(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """The SDK refuses a request of the protocol whose params do not have the method's shape (`tools/call` with
    `arguments` a list, no `name`, a `name` that is not a string) as -32602 "Invalid request parameters" with
    `data: ""`, which says nothing of what to fix. The params are checked first here with the SDK's own check
    (`validate_client_request`, for the session's protocol version), so what it accepts is exactly what the SDK
    accepts, and a refusal is the same -32602 with a one-line reason naming each parameter. A method the version
    does not have is the SDK's to answer (-32601)."""
    if ctx.method in SPEC_CLIENT_METHODS:
        try:
            validate_client_request(ctx.method, ctx.protocol_version, ctx.params)
        except ValidationError as exc:
            raise MCPError(code=INVALID_PARAMS, message=params_problems(ctx.method, exc)) from None
        except (KeyError, ValueError):  # not a method of this version, or a version the SDK does not know
            pass
    return await call_next(ctx)


def unknown_resource(uri: str, offered: str) -> str:
    return f"memkeeper: unknown resource {clip(uri)!r} (resources: {offered}; read any other page with read_page)"


def _plain_log() -> None:
    """One plain line per logged event on stderr ("WARNING memkeeper: bytes that are not UTF-8 read as U+FFFD"), as
    the command line writes its errors: the SDK's server, built with a log level, installs a Rich handler when the
    process has none, which wraps a message over several lines at 80 columns (a path cut in two) and adds a time
    and a source column an operator's log does not need. Only that handler is replaced; one a host installed stays."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if type(handler).__name__ == "RichHandler":
            root.removeHandler(handler)
            plain = logging.StreamHandler(sys.stderr)
            plain.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
            root.addHandler(plain)


class MemkeeperServer(MCPServer[Any]):
    """The SDK's server, answering a call to a tool it does not offer with a one-line `memkeeper:` reason (the SDK
    says "Unknown tool: x"): a limited server says why it has no `queue_counts`. A resource it does not offer is
    named with those it does (`unknown_resource`).

    It offers no prompts: `prompts/list` and `prompts/get` are not served (-32601, method not found) and the
    `prompts` capability is not announced (the SDK serves both on every server, and answered an unknown prompt with
    error code 0). Over stdio it runs behind `agents/stdio.py`'s gate (`run_stdio_async`)."""

    def __init__(self, *args: Any, zone: TrustZone, calls: Calls | None = None, **kwargs: Any) -> None:
        middleware = [say_the_session_is_not_initialised, refuse_a_second_initialize]
        middleware += [name_what_is_wrong_with_the_params, (calls or Calls()).middleware]
        super().__init__(*args, middleware=middleware, **kwargs)
        self.zone = zone
        # The SDK has no call to unregister a method; its capabilities are derived from the methods it serves.
        for method in ("prompts/list", "prompts/get"):
            self._lowlevel_server._request_handlers.pop(method, None)

    async def run_stdio_async(self) -> None:
        await stdio.serve(self._lowlevel_server)

    async def read_resource(
        self, uri: AnyUrl | str, context: Context[Any, Any] | None = None
    ) -> Iterable[ReadResourceContents] | InputRequiredResult:
        """A resource the server does not offer is named with those it does, in a `memkeeper:` line (the SDK says
        "Unknown resource: <uri>"); the SDK answers it as before (-32602, the uri in `data`)."""
        try:
            return await super().read_resource(uri, context)
        except ResourceNotFoundError:
            offered = ", ".join(str(resource.uri) for resource in await self.list_resources())
            raise ResourceNotFoundError(unknown_resource(str(uri), offered)) from None

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        offered = [tool.name for tool in await self.list_tools()]
        if name in offered:
            return await super().call_tool(name, arguments, context)
        if name == "queue_counts":
            return _error_text(queue_counts_not_offered(self.zone))
        return _error_text(f"memkeeper: unknown tool {clip(name)!r} (tools: {', '.join(offered)})")


def build_server(engine: Engine, identity: Identity, clock: Callable[[], datetime] = utc_now) -> MCPServer:
    """The MCP server for one engine and one identity (tools, and the hot.md / index.md resources)."""
    desk = Desk(engine, identity, clock)
    calls = Calls()
    zone = identity.zone.value
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    def retrieve(
        query: Annotated[str, Field(description="What to look for, in words.")],
        limit: Annotated[int, Field(ge=1, le=MAX_RETRIEVE_LIMIT, description="How many results at most.")] = 10,
        ctx: Context[Any, Any] | None = None,
    ) -> CallToolResult:
        return desk.retrieve(query, limit, undecodable=calls.of(ctx).undecodable)

    def read_page(
        path: Annotated[
            str,
            Field(
                description="A page path relative to the wiki root, e.g. hot.md or "
                "entries/<slug>.md (the `page` of a receipt or a result), or a record's memory id "
                "(the `memory_id` of a receipt, a result or a `related` record)."
            ),
        ],
    ) -> CallToolResult:
        return desk.read_page(path)

    def queue_counts() -> CallToolResult:
        return desk.queue_counts()

    tools = [
        _capture_tool(desk, calls),
        _strict(
            Tool.from_function(
                retrieve,
                name="retrieve",
                context_kwarg="ctx",
                description=f"Search memory as zone {zone}: the best active records for a query, with their score "
                "components and an excerpt (cold records come as pointers). Returns the receipt.",
                annotations=ToolAnnotations(read_only_hint=False, idempotent_hint=False, open_world_hint=False),
            )
        ),
        _strict(
            Tool.from_function(
                read_page,
                name="read_page",
                description=f"Read one wiki page as zone {zone} may see it: {PAGES_HELP}. Read hot.md first.",
                annotations=read_only,
            )
        ),
    ]
    if not desk.limited:  # the person's queues count every zone's records: the owner's server only
        tools.append(
            _strict(
                Tool.from_function(
                    queue_counts,
                    name="queue_counts",
                    description="How much waits for the person: open conflicts, pending verifications, quiz items "
                    "due, tier candidates, and the number of active records.",
                    annotations=read_only,
                )
            )
        )
    server: MCPServer = MemkeeperServer(
        SERVER_NAME,
        zone=identity.zone,
        calls=calls,
        instructions=(
            f"memkeeper: the person's memory wiki. You act as {identity.actor} in trust zone {zone}. "
            "Read hot.md first; retrieve before you assume; capture durable facts, decisions and "
            "preferences with a stable key; a conflict in a receipt is for the person to arbitrate."
        ),
        version=package_version(),
        tools=tools,
        log_level="WARNING",
    )
    _plain_log()

    def view(rel: str) -> Callable[[], str]:
        def read() -> str:
            try:
                return desk.page(rel)
            except MemkeeperError as exc:
                raise ResourceError(desk.error_line(exc)) from None
            except Exception as exc:
                log.error("resource %s failed", rel, exc_info=exc)
                raise ResourceError(internal_error_line(exc)) from None

        read.__name__ = rel.replace(".", "_")
        return read

    for rel, what in (("hot.md", "what is in flight; read it first"), ("index.md", "the domain index")):
        server.resource(
            f"memkeeper://{rel}",
            name=rel,
            description=f"{rel}: {what} (as zone {zone} may see it)",
            mime_type="text/markdown",
        )(view(rel))
    return server


def serve_stdio(root: str | Path, *, agent: str, zone: str) -> int:
    """`memkeeper mcp`: serve the wiki at `root` over stdio until the client closes it."""
    identity = Identity.from_flags(agent, zone)
    for name, stream in (("stdin", sys.stdin), ("stdout", sys.stdout)):
        if stream is None:  # started with it closed (`<&-`, `>&-`)
            raise BadInput(f"mcp serves its client over stdin and stdout, and {name} is closed")
    engine = Engine.open(root)
    try:
        build_server(engine, identity).run("stdio")
    finally:
        engine.close()
    return 0

"""`memkeeper mcp`: the wiki served to one agent over the Model Context Protocol (stdio), with the official `mcp` SDK.

The server is an edge, like the command line: every call is one call into `memkeeper.core.Engine` at the current UTC
time, and it never opens a wiki file itself. Who acts and what they may see are fixed when the server starts:

- the actor is `agent:<NAME>` (`--agent NAME`) and the trust zone is `--zone Z`; no tool takes an actor or a zone,
  and an argument a tool does not declare is refused rather than ignored;
- captures are stored in the server's zone; retrieval and pages are filtered by it (`core/scoring.py` `zone_allows`):
  a server for `outside_contact` never returns a `private_self` record nor any `do_not_export` content;
- no tool takes a decision only a person may take (resolve, confirm, deny, undeny, tier apply, undo), and a capture
  cannot claim `source_type: user_confirmed` (that is a person's confirmation);
- a refused or rejected operation, and a call that cannot produce a receipt, come back as a tool error (`isError`)
  carrying the command line's one-line reason (`tui/cli.py` `refusal_line` / `error_line`).

Pages (`read_page`, and the `hot.md` / `index.md` resources): a `private_self` server reads the generated views and
every entry page as they are. A server for any other zone reads an entry page only when its record is visible to the
zone, `SCHEMA.md`, and a rendering of `hot.md` and `index.md` filtered for the zone (only the active, unexpired records
it may see; the owner's queues and every other title are left out), because the generated views list the titles of
every zone's records. The other views (`index/<category>.md`, `CONFLICTS.md`, `conflicts/`, `DECISIONS.md`,
`log.md`) are for `private_self` only. Reading writes nothing: the engine has no receipt-producing read for pages or
queue counts, so `read_page`, the resources and `queue_counts` leave no receipt; `capture` and `retrieve` return the
engine's receipt (the engine records it when the call changed or touched memory).
"""

from __future__ import annotations

import inspect
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, cast

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from memkeeper.core import BadInput, Engine, Entry, MemkeeperError, Receipt, Refused
from memkeeper.core.engine import validate_actor
from memkeeper.core.models import Category, MemoryClass, SensitivityTier, SourceType, Status, TrustZone, iso
from memkeeper.core.scoring import zone_allows
from memkeeper.tui.cli import VALID_VALUES, error_line, refusal_line

SERVER_NAME = "memkeeper"
# What an agent may say about where a statement came from. `user_confirmed` is what a person's confirmation sets.
AGENT_SOURCE_TYPES = (SourceType.agent_inferred.value, SourceType.user_stated.value)
MAX_RETRIEVE_LIMIT = 100
# A zone-filtered index lists at most this many records per category; retrieve finds the rest.
FILTERED_INDEX_PER_CATEGORY = 200

ENTRY_PAGE = re.compile(r"entries/[^/]+\.md")
OWNER_VIEWS = re.compile(r"(index/[^/]+\.md|CONFLICTS\.md|conflicts/[^/]+\.md|DECISIONS\.md|log\.md)")
FILTERED_VIEWS = ("hot.md", "index.md")
PUBLIC_VIEWS = ("SCHEMA.md",)
PAGES_HELP = (
    "entries/<slug>.md, hot.md, index.md, SCHEMA.md, and for private_self also index/<category>.md, "
    "CONFLICTS.md, conflicts/C<N>.md, DECISIONS.md, log.md"
)


def utc_now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


@dataclass(frozen=True)
class Identity:
    """Who the server acts as, and what it may see: fixed by its command-line flags."""

    actor: str
    zone: TrustZone

    @classmethod
    def from_flags(cls, agent: str, zone: str) -> Identity:
        actor = validate_actor(f"agent:{agent}")
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
        schema_extra = dict(self.extra or {})
        if self.enum:
            schema_extra["enum"] = list(self.enum)
        field = Field(description=self.description, json_schema_extra=schema_extra or None, **(self.checked or {}))
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
        "public_safe may reach outside zones; do_not_export never leaves the owner.",
        _values(SensitivityTier),
    ),
    Param(
        "memory_class",
        str | None,
        None,
        "durable or expiring (default: expiring when an expiry is given or the "
        "text carries a temporal cue such as 'this week').",
        _values(MemoryClass),
    ),
    Param("expires_at", str | None, None, "ISO-8601 date or time after now; makes the record expiring."),
    # The engine takes any number of days; a record that expires before it is stored would never be retrieved.
    Param("ttl_days", float | None, None, "Days until the record expires (instead of expires_at).", checked={"gt": 0}),
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
    Param("supersedes", str | None, None, "The memory id this statement replaces."),
    Param("contradicts", str | None, None, "The memory id this statement contradicts (opens a conflict)."),
    Param("restates", str | None, None, "The memory id this statement restates (consolidates into it)."),
)


def capture_params() -> list[Param]:
    """The capture arguments the engine accepts today (the declared relations arrive with the engine's support)."""
    accepted = set(inspect.signature(Engine.capture).parameters)
    return [p for p in CAPTURE_PARAMS if p.name in accepted]


class StrictArguments(BaseModel):
    """Arguments a tool does not declare are refused: an agent passing `zone` or `actor` learns it has no effect."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)


class StrictTool(Tool):
    """A tool whose arguments are checked before it runs, each problem said in one line (the SDK's own message is
    pydantic's multi-line report)."""

    async def run(self, arguments: dict[str, Any], context: Any, convert_result: bool = False) -> Any:
        try:
            self.fn_metadata.validate_arguments(arguments)
        except ValidationError as exc:
            return _error(BadInput(f"{self.name}: {argument_problems(self, exc)}"))
        return await super().run(arguments, context, convert_result)


def argument_problems(tool: Tool, exc: ValidationError) -> str:
    names = ", ".join(tool.parameters.get("properties", {})) or "no arguments"
    problems = []
    for err in exc.errors():
        where = ".".join(str(part) for part in err["loc"])
        if err["type"] == "extra_forbidden":
            problems.append(
                f"unknown argument {where!r} (takes: {names}; the actor and the trust zone are fixed "
                "by the server's flags)"
            )
        else:
            problems.append(f"{where}: {err['msg']}")
    return "; ".join(problems)


def _strict(tool: Tool) -> StrictTool:
    meta = tool.fn_metadata
    # FieldInfo.annotation is Optional in pydantic's types, but the fields of a model built from a signature always
    # carry one (Any for a parameter without an annotation).
    fields: dict[str, Any] = {name: (f.annotation, f) for name, f in meta.arg_model.model_fields.items()}
    bases: tuple[type[BaseModel], ...] = (meta.arg_model, StrictArguments)
    strict = create_model(meta.arg_model.__name__, __base__=bases, **fields)
    # create_model's types cannot say the new class subclasses both bases: arg_model is its first.
    meta.arg_model = cast("type[ArgModelBase]", strict)
    data = {name: getattr(tool, name) for name in Tool.model_fields}
    return StrictTool(**{**data, "parameters": strict.model_json_schema(by_alias=True), "fn_metadata": meta})


def _receipt_result(r: Receipt, *, redact_hint: str = "redact=true") -> CallToolResult:
    data = r.to_dict()
    line = refusal_line(r, redact_hint=redact_hint)
    if line is not None:
        return CallToolResult(content=[TextContent(type="text", text=line)], structured_content=data, is_error=True)
    text = json.dumps(data, ensure_ascii=False, default=str)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _error(exc: BaseException) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=error_line(exc))], is_error=True)


class Desk:
    """The operations the server exposes, over one engine, for one identity. Calls are serialised: the engine is
    shared by the SDK's worker threads."""

    def __init__(self, engine: Engine, identity: Identity, clock: Callable[[], datetime] = utc_now) -> None:
        self.engine = engine
        self.identity = identity
        self.clock = clock
        self._lock = threading.Lock()

    # ------------------------------------------------------------------------------------------------ tools

    def capture(self, **options: Any) -> CallToolResult:
        if options.get("source_type") == SourceType.user_confirmed.value:
            return _error(
                Refused(
                    "capture refused: source_type 'user_confirmed' is a person's confirmation (valid over MCP: "
                    f"{', '.join(AGENT_SOURCE_TYPES)}); the person confirms in the desk or with `memkeeper verify confirm`"
                )
            )
        text = options.pop("text")
        with self._lock:
            try:
                r = self.engine.capture(
                    text, now=self.clock(), actor=self.identity.actor, zone=self.identity.zone, **options
                )
            except MemkeeperError as exc:
                return _error(exc)
        return _receipt_result(r)

    def retrieve(self, query: str, limit: int = 10) -> CallToolResult:
        with self._lock:
            try:
                r = self.engine.retrieve(
                    query,
                    zone=self.identity.zone,
                    limit=limit,
                    now=self.clock(),
                    actor=self.identity.actor,
                    record_access=True,
                )
            except MemkeeperError as exc:
                return _error(exc)
        return _receipt_result(r)

    def read_page(self, path: str) -> CallToolResult:
        try:
            text = self.page(path)
        except MemkeeperError as exc:
            return _error(exc)
        return CallToolResult(content=[TextContent(type="text", text=text)])

    def queue_counts(self) -> CallToolResult:
        with self._lock:
            try:
                counts = self.engine.counts(self.clock())
            except MemkeeperError as exc:
                return _error(exc)
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(counts))], structured_content=counts)

    # ------------------------------------------------------------------------------------------------ pages

    def page(self, path: str) -> str:
        """The text of a wiki page as this server's zone may see it. BadInput for a path that escapes the root or
        names no page; Refused for a page the zone may not see (the same reason whether or not it exists)."""
        zone = self.identity.zone
        with self._lock:
            rel = self.engine.rel(self.engine.path(path))
            owner = zone is TrustZone.private_self
            if ENTRY_PAGE.fullmatch(rel):
                if not owner and not self._visible(rel):
                    raise Refused(f"read_page refused: no page {rel} visible to zone {zone.value}")
                return self.engine.read_view(rel)
            if rel in FILTERED_VIEWS:
                return self.engine.read_view(rel) if owner else self._filtered_view(rel)
            if rel in PUBLIC_VIEWS or (owner and OWNER_VIEWS.fullmatch(rel)):
                return self.engine.read_view(rel)
            if OWNER_VIEWS.fullmatch(rel):
                raise Refused(
                    f"read_page refused: {rel} lists records of every zone; a server for zone {zone.value} "
                    "reads hot.md, index.md, SCHEMA.md and the entry pages it may see"
                )
            raise BadInput(f"read_page: {rel} is not a wiki page (pages: {PAGES_HELP})")

    def _visible(self, rel: str) -> bool:
        memory_id = self.engine.memory_id_at(rel)
        if memory_id is None:
            return False
        try:
            entry = self.engine.load(memory_id)
        except MemkeeperError:  # a page that cannot be read as a record is nobody's to see but the owner's
            return False
        return zone_allows(self.identity.zone, entry.trust_zone, entry.sensitivity_tier)

    def _visible_entries(self, now: datetime) -> list[Entry]:
        """The active, unexpired records this zone may see (what retrieve could return), by category."""
        out: list[Entry] = []
        for category, active, _total in self.engine.category_counts():
            offset = 0
            while active:
                total, rows = self.engine.category_entries(category, offset=offset, limit=500)
                for row in rows:
                    if row["status"] != Status.active.value:
                        continue
                    entry = self.engine.get(row["memory_id"])
                    if entry is None or (entry.expires_at is not None and entry.expires_at <= now):
                        continue
                    if zone_allows(self.identity.zone, entry.trust_zone, entry.sensitivity_tier):
                        out.append(entry)
                offset += len(rows)
                # Active rows come first: stop at the first page that ends in a non-active one, or at the end.
                if not rows or offset >= total or rows[-1]["status"] != Status.active.value:
                    break
        return out

    def _filtered_view(self, rel: str) -> str:
        now = self.clock()
        zone = self.identity.zone.value
        entries = self._visible_entries(now)
        pages = {e.memory_id: self.engine.page_of(e.memory_id) for e in entries}
        note = (
            f"_Generated {iso(now)} for zone {zone}: only the active records this zone may see are listed; "
            "the owner's curation queues and every other record are left out._"
        )
        if rel == "hot.md":
            recent = sorted(entries, key=lambda e: (e.created_at, e.memory_id), reverse=True)[:5]
            commitments = [e for e in entries if e.category is Category.commitment]
            lines = [f"# Hot — what is in flight (zone {zone})", note, "", "## Last captures"]
            lines += [f"- [{e.title}]({pages[e.memory_id]})" for e in recent] or ["- (none)"]
            lines += ["", "## Active commitments"]
            lines += [f"- [{e.title}]({pages[e.memory_id]})" for e in commitments[:20]] or ["- (none)"]
            if len(commitments) > 20:
                lines.append(f"- … {len(commitments) - 20} more in [index.md](index.md)")
            return "\n".join(lines) + "\n"
        lines = [f"# Wiki Index (zone {zone})", note, ""]
        by_category: dict[str, list[Entry]] = {}
        for e in entries:
            by_category.setdefault(e.category.value, []).append(e)
        for category in Category:
            group = sorted(by_category.get(category.value, []), key=lambda e: (e.title.lower(), pages[e.memory_id]))
            if not group:
                continue
            lines += [f"## {category.value} ({len(group)})", ""]
            lines += [f"- [{e.title}]({pages[e.memory_id]})" for e in group[:FILTERED_INDEX_PER_CATEGORY]]
            if len(group) > FILTERED_INDEX_PER_CATEGORY:
                lines.append(f"- … {len(group) - FILTERED_INDEX_PER_CATEGORY} more (use retrieve)")
            lines.append("")
        if not entries:
            lines.append("- (nothing visible to this zone)")
        return "\n".join(lines).rstrip("\n") + "\n"


def _capture_tool(desk: Desk) -> Tool:
    params = capture_params()

    def capture(**options: Any) -> CallToolResult:
        return desk.capture(**options)

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
        "suppressed (a person denied this statement before) or drop (too short to keep). The receipt names "
        "the memory_id and page, and lists related memories when the engine finds them: read them (an "
        "'unrelated' one shares most of the words; decide yourself whether it says the same thing)."
    )
    if relations:
        doc += (
            f" Declare a relation to an existing memory id with {', '.join(relations)}; for a statement you "
            "already captured, capture the same text again with the relation (no second copy is made)."
        )
    return _strict(
        Tool.from_function(
            capture,
            name="capture",
            description=doc,
            annotations=ToolAnnotations(
                read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
            ),
        )
    )


def build_server(engine: Engine, identity: Identity, clock: Callable[[], datetime] = utc_now) -> MCPServer:
    """The MCP server for one engine and one identity (tools, and the hot.md / index.md resources)."""
    desk = Desk(engine, identity, clock)
    zone = identity.zone.value
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    def retrieve(
        query: Annotated[str, Field(description="What to look for, in words.")],
        limit: Annotated[int, Field(ge=1, le=MAX_RETRIEVE_LIMIT, description="How many results at most.")] = 10,
    ) -> CallToolResult:
        return desk.retrieve(query, limit)

    def read_page(
        path: Annotated[
            str,
            Field(
                description="A page path relative to the wiki root, e.g. hot.md or "
                "entries/<slug>.md (the `page` of a receipt or a result)."
            ),
        ],
    ) -> CallToolResult:
        return desk.read_page(path)

    def queue_counts() -> CallToolResult:
        return desk.queue_counts()

    tools = [
        _capture_tool(desk),
        _strict(
            Tool.from_function(
                retrieve,
                name="retrieve",
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
        _strict(
            Tool.from_function(
                queue_counts,
                name="queue_counts",
                description="How much waits for the person: open conflicts, pending verifications, quiz items due, "
                "tier candidates, and the number of active records.",
                annotations=read_only,
            )
        ),
    ]
    server: MCPServer = MCPServer(
        SERVER_NAME,
        instructions=(
            f"memkeeper: the person's memory wiki. You act as {identity.actor} in trust zone {zone}. "
            "Read hot.md first; retrieve before you assume; capture durable facts, decisions and "
            "preferences with a stable key; a conflict in a receipt is for the person to arbitrate."
        ),
        tools=tools,
        log_level="WARNING",
    )

    def view(rel: str) -> Callable[[], str]:
        def read() -> str:
            try:
                return desk.page(rel)
            except MemkeeperError as exc:
                raise ResourceError(error_line(exc)) from None

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
    engine = Engine.open(root)
    try:
        build_server(engine, identity).run("stdio")
    finally:
        engine.close()
    return 0

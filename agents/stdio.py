"""`memkeeper mcp`'s stdio transport: the SDK's own (`mcp.server.stdio.stdio_server`), with a gate on the lines it
reads.

The SDK hands each line of stdin to its dispatcher, which drops a line that is not one JSON-RPC message with a debug
log: a client that sent a malformed line, a batch (a JSON array) or an object of the wrong shape waited for an answer
that never came. At the end of stdin it cancelled the requests still running and dropped their answers: a client that
writes its requests and closes stdin at once (`printf '...' | memkeeper mcp`) had its captures done and their
receipts lost. The gate reads stdin in the SDK's place, line by line, and hands it only what it accepts:

- a line that is one JSON-RPC message (what the SDK itself accepts: `jsonrpc_message_adapter`) is passed on as read;
  bytes that are not UTF-8 are read as U+FFFD, and a line the SDK's parser refuses only for a lone surrogate escape
  (`\\ud800` without its pair: valid JSON syntax naming no character) is passed on with each of them read as U+FFFD
  (`mend_surrogates`), so the request is answered by its id. A `tools/call` whose arguments held either is marked
  (`_meta` `memkeeper/undecodable`: the names of those arguments, `damaged_arguments`), and the tool refuses them as
  the command line refuses such text (`invalid_text`) instead of storing the replacement characters;
- a line that is not JSON is answered `-32700` (parse error) with id null, and so is JSON nested deeper than the
  parser reads (`MAX_JSON_DEPTH`), saying so; a JSON array (a batch: MCP has taken none since 2025-06-18) `-32600`
  once for each request in it, by its id, or once with id null when it holds none; any other line that is not one
  message `-32600`, by its id when it has a method and a usable id (else null), and so is an object with a method
  and an id that is not a string or an integer (`null`, `true`, `1.5`), which the SDK took for a notification and
  never answered. Each answer is one line naming the problem; a blank line carries nothing and is skipped;
- at the end of stdin, the SDK is told of it only once every request passed on has been answered, or cancelled by
  the client (`notifications/cancelled`: JSON-RPC leaves a cancelled request unanswered). The answers are written and
  flushed before the process exits;
- on the way out, the SDK's -32601 for a method the server does not serve is said in the server's words, naming the
  methods it serves (`named_method`).

fd 0 is read through a private duplicate and points at the null device while the server runs, as when the SDK reads
stdin itself: a handler or a child process that reads stdin gets EOF, never protocol bytes. fd 1 is the SDK's.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections import Counter
from collections.abc import AsyncIterable, AsyncIterator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from io import TextIOWrapper
from types import TracebackType
from typing import TYPE_CHECKING, Any, BinaryIO, cast

import anyio
import pydantic_core
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.dispatcher import as_request_id, coerce_request_id
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    ErrorData,
    JSONRPCError,
    JSONRPCMessage,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    RequestId,
    jsonrpc_message_adapter,
)
from pydantic import ValidationError

from memkeeper.core.errors import clip

if TYPE_CHECKING:
    from mcp.shared._stream_protocols import WriteStream

log = logging.getLogger(__name__)

BAD_ID = "memkeeper: invalid request: an id is a string or an integer (a notification has no id)"
BATCH_REFUSED = "memkeeper: invalid request: a batch (a JSON array) is not accepted; send each message on its own line"


def _error(request_id: RequestId | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def named_method(error: JSONRPCError, served: Sequence[str]) -> JSONRPCError:
    """The SDK's -32601 ("Method not found", the method in `data`) in this server's words, naming the methods it
    serves; any other answer as it is."""
    e = error.error
    if e.code != METHOD_NOT_FOUND or e.message.startswith("memkeeper:"):
        return error
    method = clip(e.data) if isinstance(e.data, str) else "?"
    # (a method the SDK has a handler for but refuses in this session, "server/discover" under the protocol
    # version negotiated, is no method it serves)
    others = ", ".join(m for m in served if m != e.data)
    message = f"memkeeper: unknown method {method!r} (this server serves: {others})"
    return JSONRPCError(jsonrpc="2.0", id=error.id, error=ErrorData(code=e.code, message=message, data=e.data))


def _request_id(value: object) -> RequestId | None:
    """The id a reply to this value carries: its own, when it is an object with a method (a request, however
    malformed) and an id JSON-RPC allows; else None (`"id": null`)."""
    if isinstance(value, dict) and "method" in value:
        return as_request_id(value.get("id"))
    return None


def _problem(value: object, exc: ValidationError) -> str:
    """What is wrong with a JSON value that is not a JSON-RPC message, in a few words."""
    if not isinstance(value, dict):
        return "a JSON object is expected"
    shape = "JSONRPCRequest" if "id" in value else "JSONRPCNotification"
    problems = [
        f"{'.'.join(str(part) for part in err['loc'][1:2]) or 'message'}: {err['msg']}"
        for err in exc.errors(include_url=False, include_input=False)
        if err["loc"][:1] == (shape,)
    ]
    return "; ".join(dict.fromkeys(problems)) or "not a request, a notification nor a response"


# How deep the SDK's JSON parser (pydantic-core's) reads: a value inside more arrays and objects than this is
# refused, as a recursion limit, before the line is read as a message (tests/agents/test_mcp_stdio.py pins it).
MAX_JSON_DEPTH = 200
TOO_DEEP = f"memkeeper: parse error: the line nests deeper than {MAX_JSON_DEPTH} levels"


def _parse_error(reason: str) -> JSONRPCError:
    """-32700 for a line the parser could not read: not JSON, or JSON nested past the parser's depth (valid JSON all
    the same, which the message says; its id cannot be read either)."""
    if reason.startswith("recursion limit exceeded"):
        return _error(None, PARSE_ERROR, TOO_DEEP)
    return _error(None, PARSE_ERROR, f"memkeeper: parse error: the line is not JSON ({reason})")


def refusals(line: str, exc: ValidationError) -> list[JSONRPCError]:
    """The answers to a line that is not one JSON-RPC message (`exc`: why the SDK's adapter refused it)."""
    for err in exc.errors(include_url=False, include_input=False):
        if err["type"] == "json_invalid":
            return [_parse_error(str((err.get("ctx") or {}).get("error") or err["msg"]))]
    try:
        value = pydantic_core.from_json(line)
    except ValueError as parse:  # the adapter parsed it; should this parser not, it is not JSON all the same
        return [_parse_error(str(parse))]
    if isinstance(value, list):
        ids = [rid for item in value if (rid := _request_id(item)) is not None]
        return [_error(rid, INVALID_REQUEST, BATCH_REFUSED) for rid in ids] or [
            _error(None, INVALID_REQUEST, BATCH_REFUSED)
        ]
    message = f"memkeeper: invalid request: not a JSON-RPC 2.0 message ({_problem(value, exc)})"
    return [_error(_request_id(value), INVALID_REQUEST, message)]


def _misread_id(line: str, message: JSONRPCMessage) -> list[JSONRPCError]:
    """The SDK reads an object with a method and an id it does not take (null, true, 1.5) as a notification, which is
    never answered: it is refused instead (MCP: a request's id is a string or an integer, never null)."""
    if not isinstance(message, JSONRPCNotification) or '"id"' not in line:
        return []
    value = pydantic_core.from_json(line)
    if isinstance(value, dict) and "id" in value:
        return [_error(None, INVALID_REQUEST, BAD_ID)]
    return []


# Every escape in a JSON string, a surrogate pair first: `\\` is consumed whole, so `\\ud800` is text, not an escape.
_ESCAPE = re.compile(
    r"\\(?:u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|(u[dD][89a-fA-F][0-9a-fA-F]{2})|.)", re.S
)
REPLACEMENT_ESCAPE = "\\ufffd"


def mend_surrogates(line: str) -> tuple[str, int]:
    """The line with each lone surrogate escape (`\\ud800` not followed by its low half, or a low half alone)
    replaced by `\\ufffd`, and how many there were. JSON's syntax allows them, but they name no character, and the
    SDK's parser refuses the whole line: they are read as U+FFFD, as the bytes of a line that are not UTF-8 are."""
    count = 0

    def mend(m: re.Match[str]) -> str:
        nonlocal count
        if m.group(1) is None:
            return m.group(0)
        count += 1
        return REPLACEMENT_ESCAPE

    return _ESCAPE.sub(mend, line), count


# A lone surrogate in a line as read: a byte that is not UTF-8 (`surrogateescape`), or, once parsed by Python's JSON
# reader, an escape of half a pair.
_SURROGATE = re.compile("[\ud800-\udfff]")
# The `_meta` key that marks a request whose `tools/call` arguments arrived undecodable: their names.
UNDECODABLE = "memkeeper/undecodable"


def _holds_surrogate(value: object) -> bool:
    if isinstance(value, str):
        return _SURROGATE.search(value) is not None
    if isinstance(value, list):
        return any(_holds_surrogate(item) for item in value)
    if isinstance(value, dict):
        return any(_holds_surrogate(k) or _holds_surrogate(v) for k, v in value.items())
    return False


def damaged_arguments(raw: str) -> list[str]:
    """The arguments of a `tools/call` line as read (a byte that is not UTF-8 kept as a lone surrogate) whose text,
    at any depth, holds a byte that is not UTF-8 or a lone surrogate escape; [] for any other line."""
    try:
        value = json.loads(raw)  # (Python's reader takes lone surrogate escapes, and reads them as such)
    except (ValueError, RecursionError):
        return []
    params = value.get("params") if isinstance(value, dict) and value.get("method") == "tools/call" else None
    arguments = params.get("arguments") if isinstance(params, dict) else None
    if not isinstance(arguments, dict):
        return []
    return [name for name, v in arguments.items() if _holds_surrogate(v)]


def _marked(line: str, names: list[str]) -> str:
    """The (mended) line of a `tools/call` request with `names` in its `_meta` (`UNDECODABLE`); as it is when its
    `_meta` is not an object (the SDK refuses such params itself)."""
    value = json.loads(line)
    params = value["params"]
    meta = params.setdefault("_meta", {})
    if not isinstance(meta, dict):
        return line
    meta[UNDECODABLE] = names
    return json.dumps(value, ensure_ascii=False)


def undecodable(params: Mapping[str, Any] | None) -> tuple[str, ...]:
    """The arguments a request's params say arrived undecodable (the gate's mark, `UNDECODABLE`)."""
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    names = meta.get(UNDECODABLE) if isinstance(meta, Mapping) else None
    return tuple(n for n in names if isinstance(n, str)) if isinstance(names, list) else ()


class Gate:
    """The lines of stdin the SDK's reader iterates: only JSON-RPC messages, each other line answered, and the end of
    input held back until every request passed on has been answered (see the module docstring)."""

    def __init__(self, stdin: AsyncIterable[str], served: Sequence[str] = ()) -> None:
        self._stdin = stdin
        #: The methods the server serves, named when it answers a request for another (`named_method`).
        self.served = tuple(served)
        self._wire: WriteStream[SessionMessage] | None = None
        self._open = anyio.Event()
        # Requests passed on and not answered yet, by id as the dispatcher correlates them ("7" is 7).
        self._pending: Counter[RequestId] = Counter()
        self._settled = anyio.Event()

    def answers(self, wire: WriteStream[SessionMessage]) -> WriteStream[SessionMessage]:
        """The write stream to give the server: `wire`, noting each answer to a request the gate passed on. The gate
        writes its own answers on `wire` itself (an id it answers is never one the server still owes)."""
        self._wire = wire
        self._open.set()
        return _Answers(wire, self)

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for read in self._stdin:
            if not read.strip():
                continue
            line, damaged = read, _SURROGATE.search(read) is not None
            if damaged:  # bytes that are not UTF-8, as the SDK reads them
                line = read.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
                log.warning("memkeeper: bytes that are not UTF-8 read as U+FFFD")
            try:
                message = jsonrpc_message_adapter.validate_json(line, by_name=False)
            except ValidationError as exc:
                mended, count = mend_surrogates(line) if "\\u" in line else (line, 0)
                if not count:
                    await self._refuse(refusals(line, exc))
                    continue
                try:
                    message = jsonrpc_message_adapter.validate_json(mended, by_name=False)
                except ValidationError as again:
                    await self._refuse(refusals(mended, again))
                    continue
                log.warning("memkeeper: %d lone surrogate escape(s) read as U+FFFD", count)
                line, damaged = mended, True
            if misread := _misread_id(line, message):
                await self._refuse(misread)
                continue
            if damaged and isinstance(message, JSONRPCRequest) and (names := damaged_arguments(read)):
                line = _marked(line, names)
            self._note(message)
            yield line
        # End of input: the server answers what it was handed first (the SDK would cancel it and drop the answers).
        while self._pending:
            self._settled = anyio.Event()
            await self._settled.wait()

    def _note(self, message: JSONRPCMessage) -> None:
        if isinstance(message, JSONRPCRequest):
            self._pending[coerce_request_id(message.id)] += 1
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
            cancelled = as_request_id((message.params or {}).get("requestId"))
            if cancelled is not None:
                self.settle(cancelled)

    def settle(self, request_id: RequestId) -> None:
        key = coerce_request_id(request_id)
        if self._pending[key] <= 1:
            self._pending.pop(key, None)
        else:
            self._pending[key] -= 1
        self._settled.set()

    async def _refuse(self, errors: list[JSONRPCError]) -> None:
        await self._open.wait()
        assert self._wire is not None
        for error in errors:
            log.warning("%s", error.error.message)
            try:
                await self._wire.send(SessionMessage(error))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                log.debug("dropped an answer to a refused line: the write stream is closed")


class _Answers:
    """The server's write stream, telling the gate of each answer once it is handed to the stdout writer."""

    def __init__(self, wire: WriteStream[SessionMessage], gate: Gate) -> None:
        self._wire = wire
        self._gate = gate

    async def send(self, item: SessionMessage, /) -> None:
        message = item.message
        if isinstance(message, JSONRPCError):
            message = named_method(message, self._gate.served)
            item = SessionMessage(message, metadata=item.metadata)
        await self._wire.send(item)
        if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            self._gate.settle(message.id)

    async def aclose(self) -> None:
        await self._wire.aclose()

    async def __aenter__(self) -> _Answers:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc_val: BaseException | None, exc_tb: TracebackType | None
    ) -> None:
        await self.aclose()


@contextmanager
def _wire_stdin() -> Iterator[BinaryIO]:
    """stdin's bytes through a private duplicate of fd 0, fd 0 pointing at the null device meanwhile. The duplicate is
    never closed (a worker thread may still be blocked reading it when the server stops, as in the SDK)."""
    wire = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
    finally:
        os.close(null)
    try:
        yield os.fdopen(wire, "rb", closefd=False)
    finally:
        os.dup2(wire, 0)


CLIENT_GONE = "memkeeper: the client closed stdout; the server stops (every write it answered or began stands)"


def _client_gone() -> None:
    """The client closed its end of stdout (it exited, or stopped reading): nobody is left to answer. Said in one
    line on stderr; fd 1 then points at the null device, so the interpreter's last flush of stdout at exit cannot
    raise on the broken pipe (the command line's `BrokenPipeError` rule: end quietly, exit 0)."""
    log.warning(CLIENT_GONE)
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 1)
        finally:
            os.close(null)
    except OSError:
        pass


async def serve(server: Server[Any]) -> None:
    """Serve `server` (the SDK's low-level server) over stdin and stdout until the client closes stdin and every
    request read has been answered, or until it closes stdout. The SDK's stdout writer fails on a closed pipe
    (`BrokenPipeError`, raised out of its task group): the server stops there, a tool call still running in its
    worker thread finishing first (the SDK does not abandon a thread on cancellation), so nothing the engine began
    is cut short."""
    with _wire_stdin() as wire:
        served = sorted(server._request_handlers)  # (the SDK has no public list of them)
        # Bytes that are not UTF-8 are kept (as lone surrogates) for the gate to tell where they were.
        gate = Gate(anyio.wrap_file(TextIOWrapper(wire, encoding="utf-8", errors="surrogateescape")), served)
        try:
            async with stdio_server(stdin=cast("anyio.AsyncFile[str]", gate)) as (read_stream, write_stream):
                await server.run(read_stream, gate.answers(write_stream), server.create_initialization_options())
        except* (BrokenPipeError, ConnectionResetError):
            _client_gone()

"""`memkeeper mcp` spoken to over stdio in raw bytes, as a client of its own (or a shell pipe) would: what the server
answers to lines that are not one JSON-RPC message, to a request before the handshake, to the prompts it does not
offer, and to requests written just before stdin is closed. Every read waits at most `TIMEOUT` seconds, so an answer
that never comes fails the test instead of hanging it."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memkeeper.core import Engine

TIMEOUT = 20.0
HELLO = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
BATCH_REFUSED = "memkeeper: invalid request: a batch (a JSON array) is not accepted; send each message on its own line"
STATEMENTS = ("Deploys of the billing service go out on Friday.", "The staging database is rebuilt every night at two.")


def request(rid: Any, method: str, **params: Any) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params:
        message["params"] = params
    return json.dumps(message)


def notification(method: str, **params: Any) -> str:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params:
        message["params"] = params
    return json.dumps(message)


def tool_call(rid: Any, tool: str, **arguments: Any) -> str:
    return request(rid, "tools/call", name=tool, arguments=arguments)


class RawServer:
    """The server in a subprocess: lines written as bytes, answers read one line at a time with a timeout."""

    def __init__(self, root: Path, *flags: str) -> None:
        argv = [sys.executable, "-m", "memkeeper.tui.cli", "--root", str(root), "mcp", "--agent", "raw", *flags]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.answers: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr or []), daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.answers.put(line)
        self.answers.put(None)

    def write(self, *lines: str | bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines))
        self.proc.stdin.flush()

    def read(self) -> dict:
        try:
            line = self.answers.get(timeout=TIMEOUT)
        except queue.Empty:
            pytest.fail(f"no answer within {TIMEOUT:.0f} s; server log: {b''.join(self.stderr).decode()[-2000:]}")
        assert line is not None, "the server closed stdout without an answer"
        assert line.endswith(b"\n") and line.count(b"\n") == 1
        return json.loads(line)

    def rest(self) -> list[dict]:
        """Every answer until the server closes stdout."""
        out = []
        while True:
            try:
                line = self.answers.get(timeout=TIMEOUT)
            except queue.Empty:
                pytest.fail(f"stdout still open {TIMEOUT:.0f} s after stdin was closed; answers so far: {out}")
            if line is None:
                return out
            out.append(json.loads(line))

    def initialize(self) -> dict:
        self.write(request(0, "initialize", **HELLO))
        hello = self.read()
        assert hello["id"] == 0 and "result" in hello, hello
        self.write(notification("notifications/initialized"))
        return hello["result"]

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=TIMEOUT)

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)


@pytest.fixture
def root(tmp_path) -> Path:
    r = tmp_path / "memory"
    Engine.init(r, now=datetime.now(UTC)).close()
    return r


def error(answer: dict) -> tuple[Any, int, str]:
    assert set(answer) == {"jsonrpc", "id", "error"}, answer
    message = answer["error"]["message"]
    assert "\n" not in message
    return answer["id"], answer["error"]["code"], message


def records(root: Path) -> int:
    engine = Engine.open(root)
    try:
        return engine.counts(datetime.now(UTC))["records"]
    finally:
        engine.close()


def test_a_line_that_is_not_one_json_rpc_message_is_answered(root):
    """JSON-RPC 2.0: a parse error is -32700 and an invalid request -32600, by the request's id when it can be told,
    else null. MCP takes no batch (since 2025-06-18): each request in one is refused by its id, so none is left
    waiting. The session goes on; a blank line carries nothing and gets no answer."""
    with RawServer(root) as server:
        server.initialize()

        server.write("{not json")
        rid, code, message = error(server.read())
        assert (rid, code) == (None, -32700)
        assert message == "memkeeper: parse error: the line is not JSON (key must be a string at line 1 column 2)"
        server.write(b"\xff\xfe{}")  # not UTF-8 either
        assert error(server.read())[:2] == (None, -32700)

        batch = [request(5, "ping"), notification("notifications/initialized"), request("six", "tools/list")]
        server.write(f"[{', '.join(batch)}]")
        assert [error(server.read()) for _ in range(2)] == [(5, -32600, BATCH_REFUSED), ("six", -32600, BATCH_REFUSED)]
        server.write("[]")
        assert error(server.read()) == (None, -32600, BATCH_REFUSED)

        server.write('{"jsonrpc": "2.0", "id": 7, "method": 42}')
        assert error(server.read()) == (
            7,
            -32600,
            "memkeeper: invalid request: not a JSON-RPC 2.0 message (method: Input should be a valid string)",
        )
        server.write('{"jsonrpc": "2.0", "id": 9, "method": "ping", "params": 3}')
        assert error(server.read()) == (
            9,
            -32600,
            "memkeeper: invalid request: not a JSON-RPC 2.0 message (params: Input should be an object)",
        )
        # An id MCP does not take: the SDK read these as notifications, which are never answered.
        for rid in ("null", "true", "1.5"):
            server.write(f'{{"jsonrpc": "2.0", "id": {rid}, "method": "tools/list"}}')
            assert error(server.read()) == (
                None,
                -32600,
                "memkeeper: invalid request: an id is a string or an integer (a notification has no id)",
            ), rid
        server.write('"hello"')
        assert error(server.read()) == (
            None,
            -32600,
            "memkeeper: invalid request: not a JSON-RPC 2.0 message (a JSON object is expected)",
        )

        server.write("", "   ", request(8, "ping"))
        assert server.read() == {"jsonrpc": "2.0", "id": 8, "result": {}}
        assert server.close() == 0


def test_a_request_before_initialize_is_told_to_initialise_first(root):
    with RawServer(root) as server:
        server.write(tool_call(1, "capture", text=STATEMENTS[0]))
        assert error(server.read()) == (
            1,
            -32600,
            "memkeeper: the session is not initialised: send initialize, then notifications/initialized, "
            "before tools/call",
        )
        server.write(request(2, "ping"))  # ping is answered before the handshake
        assert server.read() == {"jsonrpc": "2.0", "id": 2, "result": {}}
        server.write(request(3, "no/such/method"))  # a method the server does not serve is that, first
        assert error(server.read())[:2] == (3, -32601)

        server.initialize()
        server.write(tool_call(4, "queue_counts"))
        assert server.read()["result"]["structuredContent"]["records"] == 0  # the early capture stored nothing
        assert server.close() == 0


def test_the_server_offers_no_prompts(root):
    with RawServer(root) as server:
        capabilities = server.initialize()["capabilities"]
        assert "prompts" not in capabilities and {"tools", "resources"} <= set(capabilities)
        server.write(request(1, "prompts/get", name="nope"), request(2, "prompts/list"))
        answers = sorted((server.read(), server.read()), key=lambda a: a["id"])
        assert [error(a)[:2] for a in answers] == [(1, -32601), (2, -32601)]
        assert error(answers[1])[2].startswith("memkeeper: unknown method 'prompts/list' (this server serves: ")
        assert server.close() == 0


def test_an_unknown_method_is_named_in_the_servers_words_with_those_it_serves(root):
    """The SDK answered "Method not found" (the method only in `data`): the one answer of the server without its
    `memkeeper:` prefix, with nothing to send instead."""
    with RawServer(root) as server:
        server.initialize()
        server.write(request(1, "tools/cal"), request(2, "x" * 5000))
        first, second = sorted((server.read(), server.read()), key=lambda a: a["id"])
        rid, code, message = error(first)
        assert (rid, code) == (1, -32601) and first["error"]["data"] == "tools/cal"
        assert message.startswith("memkeeper: unknown method 'tools/cal' (this server serves: ")
        assert "tools/call" in message and "resources/read" in message and "prompts/list" not in message
        assert error(second)[1] == -32601 and len(error(second)[2]) < 600  # the method repeated in part
        # a method the SDK knows but refuses in this session is not listed as served in its own refusal
        server.write(request(4, "server/discover"))
        rid, code, message = error(server.read())
        assert (rid, code) == (4, -32601) and "'server/discover' (" in message, message
        assert "server/discover," not in message and not message.endswith("server/discover)"), message
        server.write(tool_call(3, "queue_counts"))
        assert "result" in server.read()  # and the session goes on
        assert server.close() == 0


def test_requests_written_before_stdin_closes_are_all_answered(root):
    """`printf '...' | memkeeper mcp`: the requests read before the end of stdin are carried out and answered, and
    the answers reach stdout before the server exits. A request the client cancelled is not waited for."""
    with RawServer(root) as server:
        server.write(
            request(0, "initialize", **HELLO),
            notification("notifications/initialized"),
            tool_call(1, "capture", text=STATEMENTS[0]),
            tool_call(2, "retrieve", query="billing deploys"),
            tool_call(3, "capture", text=STATEMENTS[1]),
            tool_call(4, "retrieve", query="staging database"),
            notification("notifications/cancelled", requestId=4),
            "{oops",
        )
        assert server.close() == 0
        answers = server.rest()
    by_id: dict[Any, list[dict]] = {}
    for answer in answers:
        by_id.setdefault(answer["id"], []).append(answer)
    assert {0, 1, 2, 3, None} <= set(by_id) <= {0, 1, 2, 3, 4, None}
    assert all(len(same) == 1 for same in by_id.values()), by_id
    assert by_id[None][0]["error"]["code"] == -32700
    receipts = {rid: by_id[rid][0]["result"]["structuredContent"] for rid in (1, 2, 3)}
    assert receipts[1]["status"] == receipts[3]["status"] == "captured"
    assert receipts[2]["status"] == "ok"
    assert records(root) == 2


def test_a_client_that_closes_stdout_ends_the_server_quietly_and_keeps_its_write(root):
    """A client that goes away (it exited, or closed its end of stdout) while a call runs: the call's write stands,
    and the server stops without an error. The SDK's stdout writer raised `BrokenPipeError` out of its task group,
    and the server exited 1 with `memkeeper: internal error: ExceptionGroup: ...` on stderr."""
    argv = [sys.executable, "-m", "memkeeper.tui.cli", "--root", str(root), "mcp", "--agent", "gone"]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        proc.stdin.write(f"{request(0, 'initialize', **HELLO)}\n".encode())
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 0
        proc.stdout.close()  # nobody reads the answers any more
        proc.stdin.write(
            f"{notification('notifications/initialized')}\n{tool_call(1, 'capture', text=STATEMENTS[0])}\n".encode()
        )
        proc.stdin.close()
        code = proc.wait(timeout=TIMEOUT)
        stderr = proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=TIMEOUT)
    assert "internal error" not in stderr and "Traceback" not in stderr, stderr
    assert code == 0, stderr
    assert records(root) == 1  # the capture whose receipt could not be delivered is stored


@pytest.mark.parametrize(("redirect", "name"), [("<&-", "stdin"), (">&-", "stdout")])
def test_a_server_started_with_stdin_or_stdout_closed_says_so(root, redirect, name):
    argv = [sys.executable, "-m", "memkeeper.tui.cli", "--root", str(root), "mcp"]
    run = subprocess.run(
        ["sh", "-c", f'exec "$@" {redirect}', "sh", *argv], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert run.returncode == 2
    assert run.stderr == f"memkeeper: mcp serves its client over stdin and stdout, and {name} is closed\n"


def test_malformed_tools_call_params_are_named_in_one_line(root):
    """The SDK answered a `tools/call` whose params are not a call (arguments a list, no name, a name that is not a
    string) with -32602 "Invalid request parameters" and `data: ""`: a client could not tell what to fix. The code
    stays -32602 (JSON-RPC's invalid params), by the request's id, with a line naming the problem; nothing runs."""
    with RawServer(root) as server:
        server.initialize()
        for rid, params, problem in (
            (1, {"name": "capture", "arguments": ["x"]}, "arguments must be an object"),
            (2, {"arguments": {"text": STATEMENTS[0]}}, "name is required"),
            (3, {"name": 5}, "name must be a string"),
            (4, {"name": ["capture"], "arguments": 3}, "arguments must be an object; name must be a string"),
            (5, None, "params is required"),
        ):
            message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": "tools/call"}
            if params is not None:
                message["params"] = params
            server.write(json.dumps(message))
            assert error(server.read()) == (rid, -32602, f"memkeeper: tools/call: {problem}"), params
        server.write(request(6, "resources/read"))  # the same for any method's params
        assert error(server.read()) == (6, -32602, "memkeeper: resources/read: params is required")
        server.write(request(7, "resources/read", uri=3))
        assert error(server.read()) == (7, -32602, "memkeeper: resources/read: uri must be a string")
        # A well-formed call still runs; arguments may be left out (null or absent: no arguments).
        server.write(request(8, "tools/call", name="queue_counts", arguments=None))
        assert server.read()["result"]["structuredContent"]["records"] == 0
        assert server.close() == 0


def test_text_that_arrives_undecodable_is_refused_as_on_the_command_line(root):
    r"""A lone surrogate escape (`\ud800` without its pair: JSON text from a string cut in the middle of an emoji)
    and bytes that are not UTF-8 name no character. The line is still answered by its id (the SDK's parser refused
    the escape, and the client waited forever), but a capture holding either in any argument is refused as the
    command line refuses such text, `invalid_text` naming the argument: it was stored with U+FFFD in place of what
    the agent sent, and nothing said so. An escaped backslash before `u` is text, and a pair is its character."""
    pairs = "\\ud83d\\ude80"  # a rocket, as JSON escapes
    statement = "The deploy key rotation is quarterly, on a Monday."
    with RawServer(root) as server:
        server.initialize()
        server.write(tool_call(7, "capture", text=statement).replace("quarterly,", "quarterly \\ud800,"))
        server.write(tool_call(8, "capture", text=statement, title="Caf\u00e9").encode().replace(b"\\u00e9", b"\xe9"))
        server.write(
            tool_call(9, "capture", text=statement, tags=["ok", "caf\u00e9"]).encode().replace(b"\\u00e9", b"\xe9")
        )
        server.write(tool_call(10, "retrieve", query="deploy key rotation").replace("rotation", "rotation \\udc00"))
        answers = {a["id"]: a["result"] for a in (server.read() for _ in range(4))}
        for rid, said in (
            (7, "memkeeper: capture reject: invalid_text (text is not valid UTF-8)"),
            (8, "memkeeper: capture reject: invalid_text (title is not valid UTF-8)"),
            (9, "memkeeper: capture reject: invalid_text (tags is not valid UTF-8)"),
            (10, "memkeeper: retrieve reject: invalid_text (the query is not valid UTF-8)"),
        ):
            assert answers[rid]["isError"] is True, answers[rid]
            assert answers[rid]["content"] == [{"type": "text", "text": said}], rid
            assert answers[rid]["structuredContent"]["details"]["reason"] == "invalid_text"
        line = tool_call(11, "capture", text=statement, title="Key")
        server.write(line.replace('"Key"', '"Key \\\\udc00 ' + pairs + '"'))
        stored = server.read()["result"]["structuredContent"]
        assert stored["status"] == "captured", stored
        server.write(tool_call(12, "read_page", path=stored["details"]["page"]))
        page = server.read()["result"]["content"][0]["text"]
        assert "# Key \\udc00 \U0001f680\n" in page
        assert server.close() == 0
    assert records(root) == 1
    # the server's log says so in one plain line each (not a table wrapped at 80 columns)
    warned = [line for line in b"".join(server.stderr).decode().splitlines() if "U+FFFD" in line]
    assert warned and all(line.startswith("WARNING memkeeper: ") for line in warned), warned


def nested(rid: Any, depth: int) -> str:
    """A ping whose params hold a value `depth` arrays and objects deep, the message itself counted (the message,
    its params, then arrays)."""
    return f'{{"jsonrpc": "2.0", "id": {rid}, "method": "ping", "params": {{"deep": {"[" * (depth - 2)}1{"]" * (depth - 2)}}}}}'


def test_json_nested_past_the_parsers_depth_is_said_to_be_so(root):
    """JSON nested deeper than the parser reads was answered "the line is not JSON (recursion limit exceeded …)",
    which it is. It is still a parse error (-32700, id null: the id cannot be read from a line the parser stops
    in), saying what is wrong, in one line, and the server goes on with the next line. 200 levels are read."""
    with RawServer(root) as server:
        server.initialize()
        for depth in (201, 5000):
            server.write(nested(1, depth))
            assert error(server.read()) == (
                None,
                -32700,
                "memkeeper: parse error: the line nests deeper than 200 levels",
            ), depth
        server.write(nested(2, 200))
        assert server.read() == {"jsonrpc": "2.0", "id": 2, "result": {}}
        server.write("{not json")  # a line that is not JSON is still said to be so
        assert error(server.read())[2].startswith("memkeeper: parse error: the line is not JSON (")
        server.write(request(3, "ping"))
        assert server.read() == {"jsonrpc": "2.0", "id": 3, "result": {}}
        assert server.close() == 0


def test_an_unknown_resource_is_a_memkeeper_error_naming_the_resources(root):
    """A resource the server does not offer got the SDK's own words ("Unknown resource: memkeeper://x"), the one
    error of the server without its `memkeeper:` prefix. It names the resources there are, and read_page for any
    other page; the code (-32602, the SDK's) and the uri in `data` are unchanged."""
    with RawServer(root, "--zone", "outside_contact") as server:
        server.initialize()
        for rid, uri in ((1, "memkeeper://log.md"), (2, "file:///etc/passwd"), (3, "memkeeper://" + "u" * 5000)):
            server.write(request(rid, "resources/read", uri=uri))
            answer = server.read()
            shown = uri if len(uri) <= 200 else f"{uri[:100]}…{uri[-99:]}"
            assert error(answer) == (
                rid,
                -32602,
                f"memkeeper: unknown resource {shown!r} (resources: memkeeper://hot.md, memkeeper://index.md; "
                "read any other page with read_page)",
            )
            assert answer["error"]["data"] == {"uri": uri}
        server.write(request(4, "resources/read", uri="memkeeper://hot.md"))
        assert server.read()["result"]["contents"][0]["text"].startswith("# Hot")
        assert server.close() == 0


def test_a_bad_tool_argument_is_still_a_tool_error_on_the_wire(root):
    """The server's own words for a tool's arguments changed nothing of how they are answered: a result with
    `isError` (the agent reads it), not a JSON-RPC error; a request's malformed params stay -32602."""
    with RawServer(root) as server:
        server.initialize()
        server.write(tool_call(1, "retrieve", query="deploys", limit="5"))
        result = server.read()["result"]
        assert result["isError"] is True
        assert result["content"] == [
            {"type": "text", "text": "memkeeper: retrieve: argument `limit` must be an integer, got a string"}
        ]
        server.write(tool_call(2, "capture"))
        assert server.read()["result"]["content"][0]["text"] == "memkeeper: capture: argument `text` is required"
        server.write(request(3, "tools/call", arguments={}))
        assert error(server.read()) == (3, -32602, "memkeeper: tools/call: name is required")
        assert server.close() == 0


def test_a_capture_cancelled_while_it_waits_for_the_write_lock_is_not_written(root):
    """MCP: the receiver of `notifications/cancelled` should stop processing the request. A capture waiting for the
    write lock (another process held it) was written once the lock was free, and never answered (JSON-RPC leaves a
    cancelled request unanswered): the user pressed stop, and the agent could not learn the id of what was stored.
    It has not begun writing, so it is dropped; the session goes on."""
    holder = Engine.open(root)
    try:
        with RawServer(root) as server:
            server.initialize()
            with holder.lock:  # this process: the server is another one
                server.write(tool_call(77, "capture", text=STATEMENTS[0]))
                time.sleep(0.5)  # the capture now waits for the lock
                server.write(notification("notifications/cancelled", requestId=77, reason="the user pressed stop"))
                server.write(request(78, "ping"))
                assert server.read() == {"jsonrpc": "2.0", "id": 78, "result": {}}
                time.sleep(0.2)
            server.write(tool_call(79, "queue_counts"))
            answer = server.read()
            assert answer["id"] == 79 and answer["result"]["structuredContent"]["records"] == 0, answer
            assert server.close() == 0
            assert server.rest() == []  # nothing for 77
    finally:
        holder.close()
    assert records(root) == 0


def test_a_second_initialize_is_refused_and_the_session_goes_on_as_it_was(root):
    """MCP: initialize is the first request of a session, and only the first. A second one was answered as the first
    and the session then spoke the protocol version it named."""
    with RawServer(root) as server:
        assert server.initialize()["protocolVersion"] == "2025-06-18"
        server.write(request(1, "initialize", **{**HELLO, "protocolVersion": "2025-03-26"}))
        assert error(server.read()) == (
            1,
            -32600,
            "memkeeper: the session is already initialised (protocol version 2025-06-18); initialize is sent once, "
            "at the start of a session",
        )
        server.write(tool_call(2, "queue_counts"))
        assert server.read()["result"]["structuredContent"]["records"] == 0
        server.write(request(3, "initialize", **HELLO))  # the same version: refused all the same
        assert error(server.read())[:2] == (3, -32600)
        assert server.close() == 0

"""What an agent is told when a call is refused: for a reason of the machine, not of the arguments, the command
line's one line, without where the person keeps the wiki; for its arguments, one line in the server's own words that
names the argument, says what was wrong (a limit with the size given) and repeats what the agent sent only up to a
bounded length."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from memkeeper.agents.mcp_server import PAGES_HELP, Desk, Identity, build_server
from memkeeper.core import Engine
from tests.conftest import T0, held_by_another_thread

STATEMENT = "The release train leaves every second Thursday."


@pytest.fixture
def root(tmp_path) -> Path:
    r = tmp_path / "home" / "lena" / "memory"
    Engine.init(r, now=T0).close()
    return r


@pytest.mark.parametrize("zone", ["private_self", "outside_contact"])
def test_a_write_lock_held_elsewhere_is_named_relative_to_the_wiki(root, monkeypatch, zone):
    """The engine names its write lock by its absolute path when another process holds it past the wait: the agent
    learnt where the person keeps the wiki (`/home/lena/memory/.memkeeper/write.lock`). It is told the file
    relative to the root, as the engine names the files of a disk error; nothing was written."""
    from memkeeper.core import store

    monkeypatch.setattr(store, "LOCK_TIMEOUT_S", 0.2)
    other, engine = Engine.open(root), Engine.open(root)
    try:
        desk = Desk(engine, Identity.from_flags("busy", zone), clock=lambda: T0)
        tier = {} if zone == "private_self" else {"sensitivity": "public_safe"}
        with held_by_another_thread(other.store.lock):
            result = desk.capture(text="The release train leaves every second Thursday.", **tier)
        line = result.content[0].text
        assert result.is_error
        assert line == (
            "memkeeper: the write lock .memkeeper/write.lock is held by another process; nothing was written, try again"
        )
        assert str(root) not in line and "lena" not in line
        assert not list((root / "entries").glob("*.md"))
    finally:
        engine.close()
        other.close()


# ------------------------------------------------------------------------------------------------ through tool calls


@asynccontextmanager
async def agent(root: Path, zone: str = "private_self") -> AsyncIterator[Client]:
    """An agent's session with the server in process (the SDK's client, speaking the protocol to it)."""
    engine = Engine.open(root)
    try:
        async with Client(build_server(engine, Identity.from_flags("claude", zone), clock=lambda: T0)) as client:
            yield client
    finally:
        engine.close()


async def refusal(client: Client, tool: str, **arguments) -> tuple[str, dict | None]:
    """The one line an agent is shown for a refused call (a tool error, not a JSON-RPC error), and the receipt when
    there is one."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error, result
    (block,) = result.content
    assert "\n" not in block.text and block.text.startswith("memkeeper: ")
    return block.text, result.structured_content


def records(root: Path) -> int:
    engine = Engine.open(root)
    try:
        return engine.counts(T0)["records"]
    finally:
        engine.close()


def clipped(value: str) -> str:
    """A long value as an error message repeats it: its first 100 and last 99 characters around "…"."""
    return f"{value[:100]}…{value[-99:]}"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("arguments", "reason", "said", "limits"),
    [
        (
            {"text": "x" * 70_000},
            "oversize_text",
            "the text is 70000 bytes; the limit is 65536 bytes",
            {"size_bytes": 70_000, "limit_bytes": 65_536},
        ),
        (
            {"text": STATEMENT + " é" * 40_000},
            "oversize_text",
            "the text is 120047 bytes; the limit is 65536 bytes",
            {"size_bytes": 120_047, "limit_bytes": 65_536},
        ),
        (
            {"title": "t" * 1025},
            "oversize_field",
            "the title is 1025 bytes; the limit is 1024 bytes",
            {"field": "title", "size_bytes": 1025, "limit_bytes": 1024},
        ),
        (
            {"key": "k" * 3000},
            "oversize_field",
            "the key is 3000 bytes; the limit is 1024 bytes",
            {"field": "key", "size_bytes": 3000, "limit_bytes": 1024},
        ),
        (
            {"source_ref": "https://example.org/?" + "q" * 2100},
            "oversize_field",
            "the source_ref is 2121 bytes; the limit is 2048 bytes",
            {"field": "source_ref", "size_bytes": 2121, "limit_bytes": 2048},
        ),
        (
            {"quiz_question": "q" * 5000},
            "oversize_field",
            "the quiz_question is 5000 bytes; the limit is 4096 bytes",
            {"field": "quiz_question", "size_bytes": 5000, "limit_bytes": 4096},
        ),
        (
            {"tags": ["ok", "t" * 1500]},
            "oversize_field",
            "tag 2 is 1500 bytes; the limit is 1024 bytes",
            {"field": "tags", "size_bytes": 1500, "limit_bytes": 1024},
        ),
        (
            {"recall": [f"phrase {n}" for n in range(70)]},
            "oversize_field",
            "70 recall phrases were given; the limit is 64",
            {"field": "recall", "size_items": 70, "limit_items": 64},
        ),
    ],
    ids=["text", "text-utf8", "title", "key", "source_ref", "quiz_question", "tag", "recall-count"],
)
async def test_a_value_over_its_limit_is_told_its_size_and_the_limit(root, arguments, reason, said, limits):
    """An oversize capture text was refused as "memkeeper: capture reject: oversize_text", without the limit the
    receipt carried (`limit_bytes`) nor the size sent: the agent could only guess how much to cut. Every refusal
    that carries a limit now says the size given and the limit, in bytes as they are counted (UTF-8); nothing is
    stored."""
    async with agent(root) as client:
        line, receipt = await refusal(client, "capture", **{"text": STATEMENT, **arguments})
    assert line == f"memkeeper: capture reject: {reason} ({said})"
    assert receipt is not None and receipt["details"] == {"reason": reason, **limits, "detail": said}
    assert records(root) == 0


@pytest.mark.anyio
async def test_a_blank_key_is_no_key(root):
    """`key: ""` was taken as no key while `key: "   "` was refused as `invalid_key`: a key of whitespace says no
    more than an empty one, and is taken the same way (the key is derived from the title or the text)."""
    statements = ("The canteen closes at three on Fridays.", "Badges are renewed at the front desk in March.")
    async with agent(root) as client:
        for text, key in zip(statements, ("   ", "\t \n"), strict=True):
            blank = await client.call_tool("capture", {"text": text, "key": key})
            assert not blank.is_error, blank.content
            assert blank.structured_content is not None and blank.structured_content["status"] == "captured"
            assert "key" not in blank.structured_content["details"].get("normalized", [])
            # The same statement without a key is the same record: the blank key made no partition of its own.
            for again in ({}, {"key": ""}):
                same = await client.call_tool("capture", {"text": text, **again})
                assert same.structured_content is not None and same.structured_content["status"] == "consolidated"
                details, first = same.structured_content["details"], blank.structured_content["details"]
                assert (details["memory_id"], details["canonical_key"]) == (first["memory_id"], first["canonical_key"])
        line, _ = await refusal(client, "capture", text=STATEMENT, key="  !!!  ")  # a key, slugging to nothing
        assert line.startswith("memkeeper: capture reject: invalid_key '  !!!  '")


@pytest.mark.anyio
@pytest.mark.parametrize("zone", ["private_self", "outside_contact"])
async def test_a_long_value_is_repeated_only_in_part(root, zone):
    """A 5,000-character path given to read_page came back whole in the refusal (and a tool name, an argument name,
    a resource URI, a category): the line was as long as what the agent sent. A value a message repeats is cut to
    200 characters, its start and its end around "…" (a page path, at most about 145, is never cut); the rest of
    the line is unchanged."""
    long_path = "notes/" + "p" * 5000 + ".md"
    long_entry = "entries/" + "e" * 5000 + ".md"
    long_name = "n" * 5000
    async with agent(root, zone) as client:
        line, _ = await refusal(client, "read_page", path=long_path)
        assert line == f"memkeeper: read_page: {clipped(long_path)} is not a wiki page (pages: {PAGES_HELP})"
        line, _ = await refusal(client, "read_page", path=long_entry)
        if zone == "private_self":
            assert line == f"memkeeper: {clipped(long_entry)} does not exist"
        else:
            assert line == f"memkeeper: read_page refused: no page {clipped(long_entry)} visible to zone {zone}"
        line, _ = await refusal(client, "read_page", path="../" + long_path)
        assert line == f"memkeeper: path {clipped('../' + long_path)!r} contains '..'"
        line, _ = await refusal(client, "read_page", path="/" + long_path)
        assert line.startswith(f"memkeeper: absolute path {clipped('/' + long_path)!r} is not allowed")
        line, _ = await refusal(client, long_name)
        assert line.startswith(f"memkeeper: unknown tool {clipped(long_name)!r} (tools: capture, retrieve, read_page")
        line, _ = await refusal(client, "retrieve", query="deploys", **{long_name: 1})
        assert line.startswith(f"memkeeper: retrieve: unknown argument `{clipped(long_name)}` (takes: query, limit;")
        tier = {} if zone == "private_self" else {"sensitivity": "public_safe"}
        line, receipt = await refusal(client, "capture", text=STATEMENT, category=long_name, **tier)
        assert line.startswith(f"memkeeper: capture reject: invalid_category {clipped(long_name)!r} (valid: ")
        assert receipt is not None and receipt["details"]["value"] == long_name  # the receipt keeps what was sent
        with pytest.raises(MCPError) as unknown:
            await client.read_resource("memkeeper://" + long_name)
        assert unknown.value.error.message.startswith(
            f"memkeeper: unknown resource {clipped('memkeeper://' + long_name)!r} (resources: "
        )
        # A page path as long as the engine names one is repeated whole, and so is a value at the bound.
        longest = "entries/" + "a" * 80 + "--trusted-collaborator--do-not-export--0123abcd-12.md"
        line, _ = await refusal(client, "read_page", path=longest)
        assert line.endswith(
            f"{longest} does not exist" if zone == "private_self" else f"{longest} visible to zone {zone}"
        )
        line, _ = await refusal(client, "read_page", path="x" * 200)
        assert line.startswith(f"memkeeper: read_page: {'x' * 200} is not a wiki page")


@pytest.mark.anyio
async def test_a_bad_argument_is_named_in_the_servers_own_words(root):
    """A tool's arguments were refused in pydantic's words ("text: Field required", "limit: Input should be less
    than or equal to 100") while a request's params are refused in the server's own ("tools/call: name is
    required"). Each problem is now one clause naming the argument and what was wrong, with the JSON type or the
    number given; every problem of a call on one line. It is still a tool error (`isError`), as before."""
    async with agent(root) as client:
        for tool, arguments, said in (
            ("capture", {}, "argument `text` is required"),
            ("capture", {"text": 42}, "argument `text` must be a string, got a number"),
            ("capture", {"text": STATEMENT, "tags": "release"}, "argument `tags` must be an array, got a string"),
            ("capture", {"text": STATEMENT, "tags": ["a", 7]}, "argument `tags` item 2 must be a string, got a number"),
            (
                "capture",
                {"text": STATEMENT, "ttl_days": 0},
                "argument `ttl_days` must be at least 0.0417 (one hour), got 0",
            ),
            (
                "capture",
                {"text": STATEMENT, "ttl_days": 4e5},
                "argument `ttl_days` must be at most 36500, got 400000.0",
            ),
            ("capture", {"text": STATEMENT, "confidence": True}, "argument `confidence` must be a number, got true"),
            ("capture", {"text": STATEMENT, "redact": "no"}, "argument `redact` must be true or false, got a string"),
            ("retrieve", {"query": "deploys", "limit": "5"}, "argument `limit` must be an integer, got a string"),
            ("retrieve", {"query": "deploys", "limit": 2.5}, "argument `limit` must be an integer, got 2.5"),
            ("retrieve", {"query": "deploys", "limit": 0}, "argument `limit` must be at least 1, got 0"),
            ("retrieve", {"query": "deploys", "limit": 500}, "argument `limit` must be at most 100, got 500"),
            ("retrieve", {"query": None}, "argument `query` must be a string, got null"),
            (
                "retrieve",
                {"limit": "ten", "zone": "paid_public"},
                "argument `query` is required; argument `limit` must be an integer, got a string; unknown argument "
                "`zone` (takes: query, limit; the actor and the trust zone are fixed by the server's flags)",
            ),
            ("read_page", {"path": ["hot.md"]}, "argument `path` must be a string, got an array"),
        ):
            line, _ = await refusal(client, tool, **arguments)
            assert line == f"memkeeper: {tool}: {said}", arguments
    assert records(root) == 0


@pytest.mark.anyio
async def test_a_limited_server_stores_a_capture_only_where_its_zone_reads_it_back(root):
    """An outside_contact agent that captured with the default sensitivity (`normal`) wrote into a partition its
    zone never reads: it was given a memory_id and a page it was then refused, retrieve found nothing, and each
    retry stored a duplicate. outside_contact and paid_public read back only public_safe records, which every zone
    may read: the agent names that tier itself (required, the one value offered). A tier the zone cannot read back
    is refused, and nothing refused is stored. A trusted collaborator keeps the default, normal."""
    statement = "Customer Acme prefers invoices sent on the first Monday of each month."
    for zone in ("outside_contact", "paid_public"):
        async with agent(root, zone) as client:
            tool = {t.name: t for t in (await client.list_tools()).tools}["capture"]
            sensitivity = tool.input_schema["properties"]["sensitivity"]
            assert "sensitivity" in tool.input_schema["required"] and "default" not in sensitivity
            assert sensitivity["enum"] == ["public_safe"] and f"Required for zone {zone}" in sensitivity["description"]
            line, _ = await refusal(client, "capture", text=statement)
            assert line == (
                f"memkeeper: capture: argument `sensitivity` is required for zone {zone}: give public_safe (the only "
                "tier this zone reads back; every zone may read such a record)"
            )
            for tier in ("normal", "do_not_export"):
                line, _ = await refusal(client, "capture", text=statement, sensitivity=tier)
                assert line == (
                    f"memkeeper: capture refused: sensitivity {tier!r} would store a record zone {zone} cannot read "
                    "back (valid for this zone: public_safe)"
                )
    assert records(root) == 0
    async with agent(root, "outside_contact") as client:
        stored = (
            await client.call_tool("capture", {"text": statement, "sensitivity": "public_safe"})
        ).structured_content
        assert stored is not None and stored["status"] == "captured"
        memory_id, page = stored["details"]["memory_id"], stored["details"]["page"]
        read = await client.call_tool("read_page", {"path": page})
        assert not read.is_error and statement in read.content[0].text
        found = (await client.call_tool("retrieve", {"query": "Acme invoices"})).structured_content
        assert found is not None and [r["memory_id"] for r in found["details"]["results"]] == [memory_id]
        for declared in ({}, {"restates": memory_id}):  # a retry, and a declared restatement: no second copy
            again = await client.call_tool("capture", {"text": statement, "sensitivity": "public_safe", **declared})
            assert again.structured_content is not None, again.content
            assert again.structured_content["status"] == "consolidated", again.structured_content
            assert again.structured_content["details"]["memory_id"] == memory_id
    assert records(root) == 1
    async with agent(root, "trusted_collaborator") as client:
        tool = {t.name: t for t in (await client.list_tools()).tools}["capture"]
        sensitivity = tool.input_schema["properties"]["sensitivity"]
        assert sensitivity["default"] == "normal" and sensitivity["enum"] == ["public_safe", "normal"]
        assert tool.input_schema["required"] == ["text"] and "Default normal" in sensitivity["description"]
        stored = (await client.call_tool("capture", {"text": STATEMENT})).structured_content
        assert stored is not None and stored["details"]["sensitivity"] == "normal"
        assert not (await client.call_tool("read_page", {"path": stored["details"]["page"]})).is_error
        line, _ = await refusal(client, "capture", text=STATEMENT, sensitivity="do_not_export")
        assert line == (
            "memkeeper: capture refused: sensitivity 'do_not_export' would store a record zone trusted_collaborator "
            "cannot read back (valid for this zone: public_safe, normal)"
        )
    assert records(root) == 2


@pytest.mark.anyio
async def test_a_ttl_is_at_least_an_hour_and_a_durable_record_is_told_what_to_leave_out(root):
    """`ttl_days: 1e-9` was taken: the record expired 86 microseconds after it was stored, and was never retrieved.
    A ttl is at least an hour. `memory_class: durable` with a ttl was refused as `durable_with_expiry` with no word of
    what to do, where every other refusal names what is valid: it says what to leave out, in the tool's words."""
    async with agent(root) as client:
        for value, given in ((1e-9, "1e-09"), (0.04, "0.04")):
            line, _ = await refusal(client, "capture", text=STATEMENT, ttl_days=value)
            assert line == f"memkeeper: capture: argument `ttl_days` must be at least 0.0417 (one hour), got {given}"
        hour = await client.call_tool("capture", {"text": STATEMENT, "ttl_days": 1 / 24})
        assert hour.structured_content is not None and hour.structured_content["status"] == "captured"
        page = (await client.call_tool("read_page", {"path": hour.structured_content["details"]["page"]})).content
        assert "expires_at: '2026-11-20T10:00:00Z'" in page[0].text  # T0 plus an hour
        line, _ = await refusal(
            client, "capture", text="The canteen closes early for staff parties.", memory_class="durable", ttl_days=3
        )
        assert line == (
            "memkeeper: capture reject: durable_with_expiry (a durable record does not expire: leave out "
            'memory_class "durable" to store an expiring record, or leave out ttl_days / expires_at)'
        )
    assert records(root) == 1


@pytest.mark.parametrize("zone", ["private_self", "trusted_collaborator"])
def test_a_capture_the_disk_did_not_finish_says_so_beside_its_receipt(root, monkeypatch, caplog, zone):
    """entries/ refuses the page's rename after the commit point: the capture stands (the next write, or check
    --repair, finishes it) and its page is not there yet. The command line notes it on stderr and the desk in a
    toast; over MCP the agent got a plain `captured` receipt, read_page then said the page does not exist, and the
    server's log said nothing. The answer now carries `unfinished` beside the receipt, and the log has the engine's
    line. The owner's server names the file relative to the root; a limited one names no file."""
    import errno
    import logging
    import os

    from memkeeper.core import journal

    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if "entries" in Path(dst).parts and journal.JOURNAL_DIR in Path(src).parts:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(src), None, str(dst))
        return real(src, dst, *args, **kwargs)

    engine = Engine.open(root)
    try:
        desk = Desk(engine, Identity.from_flags("claude", zone), clock=lambda: T0)
        monkeypatch.setattr(os, "replace", replace)
        with caplog.at_level(logging.WARNING, logger="memkeeper.agents.mcp_server"):
            result = desk.capture(text=STATEMENT)
        monkeypatch.undo()
        data = result.structured_content
        assert not result.is_error and data["status"] == "captured"
        assert json.loads(result.content[0].text) == data
        [note] = data["unfinished"]
        assert "recorded and stands" in note and "check --repair" in note and "do not capture it again" in note
        assert str(root) not in note and "lena" not in note
        if zone == "private_self":
            assert note.startswith("entries/") and "Permission denied" in note
        else:
            assert "entries/" not in note and "Permission denied" not in note
        logged = [r.getMessage() for r in caplog.records]
        assert any("Permission denied" in m and "recorded and stands" in m for m in logged), logged
        # the next capture finishes it, and says nothing more
        follow = desk.capture(text="The walrus queue drains every hour on the hour.")
        assert not follow.is_error and "unfinished" not in follow.structured_content
        page = desk.read_page(data["details"]["page"])
        assert not page.is_error and STATEMENT in page.content[0].text
        assert engine.check().ok, engine.check().problems
    finally:
        engine.close()


def test_an_unfinished_note_belongs_to_the_thread_whose_write_it_is(root):
    """A server's tool calls run in threads that share one engine: a note another thread's write left is not this
    capture's."""
    import threading

    engine = Engine.open(root)
    try:
        mark = len(engine.unfinished_writes)
        other = threading.Thread(target=lambda: engine.store.unfinished_threads.append(-1))
        engine.store.unfinished.append("log.md: No space left on device; the operation is recorded and stands")
        other.start()
        other.join()
        assert engine.unfinished_writes_since(mark) == []
        engine.store.unfinished.append("entries/x.md: Permission denied; the operation is recorded and stands")
        engine.store.unfinished_threads.append(threading.get_ident())
        assert engine.unfinished_writes_since(mark) == [engine.unfinished_writes[-1]]
    finally:
        engine.close()

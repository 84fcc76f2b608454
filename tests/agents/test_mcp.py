"""`memkeeper mcp`, driven by the SDK's own client over stdio: the server runs as a subprocess, as an MCP client
(a coding assistant, a desktop chat app) would start it."""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from memkeeper.core import Engine
from memkeeper.tui.cli import main

pytestmark = pytest.mark.anyio

HUMAN_ONLY_WORDS = ("resolve", "confirm", "deny", "undeny", "apply", "undo", "snooze", "commit")
GITHUB_TOKEN = "ghp_" + "Xy7Qw3Rt9Zk2Lm5Np8Vb4Hc6Jd1Fg0Sa2UeK"


def server_argv(root: Path, *flags: str) -> list[str]:
    return ["-m", "memkeeper.tui.cli", "--root", str(root), "mcp", *flags]


@asynccontextmanager
async def mcp(root: Path, *flags: str) -> AsyncIterator[Client]:
    params = StdioServerParameters(command=sys.executable, args=server_argv(root, *flags))
    async with Client(params, cache=None, read_timeout_seconds=60) as client:
        yield client


def text(result) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


async def call(client: Client, tool: str, **arguments):
    return await client.call_tool(tool, arguments)


async def receipt(client: Client, tool: str, **arguments) -> dict:
    result = await call(client, tool, **arguments)
    assert not result.is_error, text(result)
    assert result.structured_content == json.loads(text(result))
    return result.structured_content


@pytest.fixture
def root(tmp_path) -> Path:
    r = tmp_path / "memory"
    Engine.init(r, now=datetime.now(UTC)).close()
    return r


def cli_error(capsys, root: Path, *args: str) -> str:
    """The one line the command line prints on stderr for a refused operation."""
    assert main(["--root", str(root), *args]) == 2
    return capsys.readouterr().err.strip()


# ------------------------------------------------------------------------------------------------ the surface


async def test_tools_resources_and_no_identity_or_human_decision_in_any_schema(root):
    async with mcp(root, "--agent", "claude") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        resources = {str(r.uri): r for r in (await client.list_resources()).resources}
    assert set(tools) == {"capture", "retrieve", "read_page", "queue_counts"}
    assert not any(word in name for name in tools for word in HUMAN_ONLY_WORDS)
    for tool in tools.values():
        props = tool.input_schema.get("properties", {})
        assert not {"actor", "as", "zone", "trust_zone", "now"} & set(props), tool.name
        assert tool.input_schema.get("additionalProperties") is False, tool.name
    capture = tools["capture"].input_schema["properties"]
    assert tools["capture"].input_schema["required"] == ["text"]
    assert capture["category"]["enum"][0] == "preference" and "fact" in capture["category"]["enum"]
    assert capture["source_type"]["enum"] == ["agent_inferred", "user_stated"]
    # The declared relations are published exactly when the engine's capture takes them.
    engine_takes = set(inspect.signature(Engine.capture).parameters)
    for relation in ("supersedes", "contradicts", "restates"):
        assert (relation in capture) == (relation in engine_takes), relation
    assert set(resources) == {"memkeeper://hot.md", "memkeeper://index.md"}


# ------------------------------------------------------------------------------------------------ capture, retrieve, a conflict


async def test_capture_retrieve_and_a_conflict_opened_by_a_second_agent(root):
    async with mcp(root, "--agent", "alpha") as alpha, mcp(root, "--agent", "beta") as beta:
        first = await receipt(
            alpha,
            "capture",
            text="Deploys of the billing service go out on Friday.",
            key="billing-deploy-day",
            category="decision",
            source_ref="session-1",
        )
        assert first["status"] == "captured"
        assert first["actor"] == "agent:alpha"
        assert first["details"]["zone"] == "private_self"
        page = first["details"]["page"]

        found = await receipt(alpha, "retrieve", query="billing deploy day", limit=3)
        assert found["status"] == "ok" and found["details"]["zone"] == "private_self"
        assert [r["page"] for r in found["details"]["results"]] == [page]
        assert "Friday" in text(await call(alpha, "read_page", path=page))
        assert (await receipt(alpha, "queue_counts"))["open_conflicts"] == 0

        # Another agent, in another process, says the opposite under the same explicit key.
        second = await receipt(
            beta,
            "capture",
            text="Deploys of the billing service go out on Monday.",
            key="billing-deploy-day",
            category="decision",
            source_ref="session-2",
        )
        assert second["status"] == "conflict"
        assert second["actor"] == "agent:beta"
        assert second["details"]["conflict_id"]

        # The first agent sees the conflict waiting for the person; the existing memory is untouched.
        assert (await receipt(alpha, "queue_counts"))["open_conflicts"] == 1
        assert "Friday" in text(await call(alpha, "read_page", path=page))
        hot = (await alpha.read_resource("memkeeper://hot.md")).contents[0].text
        assert "Open conflicts: **1**" in hot

    # Every write left its receipt in the audit trail, with the server's actor.
    engine = Engine.open(root)
    try:
        trail = [(d["action"], d["status"], d["actor"]) for _, _, d, _ in engine.iter_receipts() if d]
    finally:
        engine.close()
    assert ("capture", "captured", "agent:alpha") in trail
    assert ("capture", "conflict", "agent:beta") in trail
    assert ("retrieve", "ok", "agent:alpha") in trail


async def test_retrieve_answers_at_once_while_another_process_holds_the_write_lock(root):
    """A read over MCP never waits on a writer (a long tier commit, a rebuild in another process): the results come
    back at once, not after the lock's 30 s wait as `Busy`, and the receipt says the access was not recorded."""
    async with mcp(root, "--agent", "alpha", "--zone", "trusted_collaborator") as alpha:
        first = await receipt(alpha, "capture", text="Deploys of the billing service go out on Friday.")
        page = first["details"]["page"]
        before = (root / page).read_bytes()
        holder = Engine.open(root)
        try:
            with holder.lock:  # this process: the server is another one
                t0 = time.monotonic()
                found = await receipt(alpha, "retrieve", query="billing deploys")
                took = time.monotonic() - t0
        finally:
            holder.close()
        assert took < 10.0, took
        assert [r["page"] for r in found["details"]["results"]] == [page]
        assert found["details"]["access_recorded"] is False
        assert (root / page).read_bytes() == before
        again = await receipt(alpha, "retrieve", query="billing deploys")
        assert again["details"]["access_recorded"] is True


async def test_consolidation_and_related_records_come_back_in_the_receipt(root):
    async with mcp(root, "--agent", "claude") as client:
        statement = "The staging database is rebuilt every night at two."
        await receipt(client, "capture", text=statement, key="staging-rebuild")
        again = await receipt(client, "capture", text=statement, key="staging-rebuild")
    assert again["status"] == "consolidated"
    related = again["details"]["related"]
    assert related and related[0]["memory_id"] == again["details"]["memory_id"]
    assert set(related[0]) >= {"memory_id", "title", "relation", "score"}


async def test_a_declared_supersession_opens_a_conflict_and_nothing_is_resolved(root):
    async with mcp(root, "--agent", "alpha") as alpha, mcp(root, "--agent", "beta") as beta:
        first = await receipt(alpha, "capture", text="The weekly planning call is on Tuesdays at 10:00.")
        assert first["status"] == "captured"
        mid = first["details"]["memory_id"]
        second = await receipt(
            beta, "capture", text="Planning moved to Thursday mornings from next week on.", supersedes=mid
        )
        assert second["status"] == "conflict" and second["details"]["conflict_id"]
        assert (await receipt(beta, "queue_counts"))["open_conflicts"] == 1
        # The existing record is untouched: a person arbitrates.
        assert "Tuesdays" in text(await call(alpha, "read_page", path=first["details"]["page"]))
        unknown = await call(
            beta, "capture", text="The planning call now happens on Fridays at noon.", supersedes="mem_0000000000000000"
        )
        assert unknown.is_error


async def test_an_agent_reads_related_and_declares_a_contradiction_after_the_fact(root):
    """The loop the capture tool's description asks for: read `related`, and when a listed memory says otherwise,
    capture the same text again with `contradicts`. The conflict's incoming side is the memory the first capture
    made; a person taking it makes no second copy."""
    async with mcp(root, "--agent", "claude") as client:
        old = await receipt(client, "capture", text="Vega's error tracker is Sentry.")
        new = await receipt(client, "capture", text="Vega exceptions are reported to Rollbar.")
        listed = {r["memory_id"] for r in new["details"]["related"]}
        assert new["status"] == "captured" and old["details"]["memory_id"] in listed
        declared = await receipt(
            client,
            "capture",
            text="Vega exceptions are reported to Rollbar.",
            contradicts=old["details"]["memory_id"],
        )
    assert declared["status"] == "conflict"
    eng = Engine.open(root)
    try:
        conflict = eng.load_conflict(declared["details"]["conflict_id"])
        assert conflict.incoming["memory_id"] == new["details"]["memory_id"]
        r = eng.resolve_conflict(conflict.conflict_id, "incoming", now=datetime.now(UTC), actor="human:pat")
        assert r.details["winner"] == new["details"]["memory_id"] and r.details["created"] is None
        active = eng.store.index.query("SELECT memory_id FROM records WHERE status='active'")
        assert sorted(row["memory_id"] for row in active) == [new["details"]["memory_id"]]
    finally:
        eng.close()


def test_read_page_takes_the_memory_id_a_related_record_is_listed_by(root):
    """A `related` entry names a record by id, a title cut at ~55 characters, a relation and a score, and the agent
    is told to read it before declaring a relation: read_page refused an id ("is not a wiki page"). It takes a whole
    memory id now and serves that record's page, by the rules of its page."""
    from memkeeper.agents.mcp_server import Desk, Identity

    engine = Engine.open(root)
    try:
        desk = Desk(engine, Identity.from_flags("claude", "private_self"), clock=lambda: datetime.now(UTC))
        old = desk.capture(text="The Ferrous HTTP client timeout is 5 seconds for every outbound call to billing.")
        new = desk.capture(text="Ferrous client: request timeout set to 60 s.").structured_content
        [related] = [
            r for r in new["details"]["related"] if r["memory_id"] == old.structured_content["details"]["memory_id"]
        ]
        page = desk.read_page(related["memory_id"])
        assert not page.is_error
        assert "for every outbound call to billing" in page.content[0].text  # past the cut title
        assert page.content[0].text == desk.read_page(old.structured_content["details"]["page"]).content[0].text
        missing = desk.read_page("mem_0000000000000000")
        assert missing.is_error and missing.content[0].text == "memkeeper: mem_0000000000000000 does not exist"
    finally:
        engine.close()


def test_a_limited_server_refuses_a_memory_id_it_may_not_see_exactly_as_a_missing_one(root):
    """read_page by id keeps the zone rule of read_page by path: a record of a zone the agent may not read (held
    there by the index, or moved there by hand since the index read it) gets the refusal an id that names nothing
    gets, word for word but for the id it repeats; a visible one is shown as its page is (`limited_entry`)."""
    from memkeeper.agents.mcp_server import Desk, Identity

    seeds = seed_zones(root)
    engine = Engine.open(root)
    try:
        desk = Desk(engine, Identity.from_flags("contact", "outside_contact"), clock=lambda: datetime.now(UTC))
        zone = "outside_contact"

        def refusal(ref: str) -> str:
            result = desk.read_page(ref)
            assert result.is_error, ref
            return result.content[0].text.replace(ref, "<ref>")

        nothing = refusal("mem_0123456789abcdef")
        assert nothing == f"memkeeper: read_page refused: no page <ref> visible to zone {zone}"
        for name, seed in seeds.items():
            if name == "outside_public":
                continue
            assert refusal(seed["memory_id"]) == nothing, name
            assert refusal(seed["page"]) == nothing, name  # as its page is refused
        visible = seeds["outside_public"]
        shown = desk.read_page(visible["memory_id"])
        assert not shown.is_error and visible["text"] in shown.content[0].text
        assert shown.content[0].text == desk.read_page(visible["page"]).content[0].text
        # the person moves it out of the zone by hand, in place: refused as a missing one at once
        path = root / visible["page"]
        text = path.read_text(encoding="utf-8")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text.replace("sensitivity_tier: public_safe", "sensitivity_tier: normal"))
        assert refusal(visible["memory_id"]) == nothing
        # an id in another case or a prefix is no id here (declared relations take prefixes, read_page does not)
        assert "is not a wiki page" in desk.read_page(visible["memory_id"].upper()).content[0].text
        assert "is not a wiki page" in desk.read_page(visible["memory_id"][:10]).content[0].text
    finally:
        engine.close()


# ------------------------------------------------------------------------------------------------ zones


def seed_zones(root: Path) -> dict[str, dict]:
    """Records in every partition that matters, captured with the engine before the servers start."""
    now = datetime.now(UTC)
    seeds = {
        "private_public_safe": dict(
            text="Harbor codename for the launch is BLUEHERON.",
            title="Harbor codename",
            zone="private_self",
            sensitivity="public_safe",
            category="commitment",
        ),
        "private_normal": dict(
            text="Harbor on-call rotation starts with Priya on Mondays.",
            title="Harbor on-call rotation",
            zone="private_self",
        ),
        "collab_do_not_export": dict(
            text="Harbor acquisition price is four million euros.",
            title="Harbor acquisition price",
            zone="trusted_collaborator",
            sensitivity="do_not_export",
        ),
        "outside_normal": dict(
            text="Harbor contract renewal is negotiated by Lena.",
            title="Harbor contract renewal",
            zone="outside_contact",
        ),
        "outside_public": dict(
            text="Harbor public documentation lives at docs.harbor.example.",
            title="Harbor public documentation",
            zone="outside_contact",
            sensitivity="public_safe",
        ),
    }
    engine = Engine.open(root)
    try:
        out = {}
        for name, kw in seeds.items():
            options = {k: v for k, v in kw.items() if k != "text"}
            r = engine.capture(kw["text"], now=now, actor="agent:seed", **options)
            assert r.status == "captured", r.details
            out[name] = {"page": r.details["page"], "memory_id": r.details["memory_id"], **kw}
    finally:
        engine.close()
    return out


async def test_a_zone_limited_server_leaks_nothing(root):
    seeds = seed_zones(root)
    hidden = [s for name, s in seeds.items() if name != "outside_public"]
    visible = seeds["outside_public"]
    async with (
        mcp(root, "--agent", "contact", "--zone", "outside_contact") as outside,
        mcp(root, "--agent", "colleague", "--zone", "trusted_collaborator") as collab,
    ):
        seen: list[str] = []

        found = await receipt(outside, "retrieve", query="harbor", limit=20)
        seen.append(json.dumps(found))
        assert [r["page"] for r in found["details"]["results"]] == [visible["page"]]
        assert "hidden_by_zone" not in found["details"]  # no count of what the zone may not see

        page = await call(outside, "read_page", path=visible["page"])
        assert not page.is_error and "docs.harbor.example" in text(page)
        seen.append(text(page))
        for s in hidden:
            refused = await call(outside, "read_page", path=s["page"])
            assert refused.is_error
            assert text(refused) == f"memkeeper: read_page refused: no page {s['page']} visible to zone outside_contact"
            seen.append(text(refused))
        # The same answer for a page that does not exist: no oracle for what is there.
        missing = await call(outside, "read_page", path="entries/no-such-page.md")
        assert text(missing).endswith("no page entries/no-such-page.md visible to zone outside_contact")
        # A path that only looks different names the same page.
        sneaky = await call(outside, "read_page", path="./entries//" + Path(hidden[0]["page"]).name)
        assert sneaky.is_error
        for view in ("CONFLICTS.md", "index/commitment.md", "DECISIONS.md", "log.md"):
            refused = await call(outside, "read_page", path=view)
            assert refused.is_error and "lists records of every zone" in text(refused), view

        for uri in ("memkeeper://hot.md", "memkeeper://index.md"):
            body = (await outside.read_resource(uri)).contents[0].text
            assert "zone outside_contact" in body
            seen.append(body)
        for path in ("hot.md", "index.md"):
            seen.append(text(await call(outside, "read_page", path=path)))
        index = seen[-1]
        assert visible["title"] in index and visible["page"] in index

        # A trusted collaborator sees private_self records but never do_not_export content.
        collab_found = await receipt(collab, "retrieve", query="harbor", limit=20)
        pages = {r["page"] for r in collab_found["details"]["results"]}
        assert seeds["private_normal"]["page"] in pages
        assert seeds["collab_do_not_export"]["page"] not in pages
        dne = await call(collab, "read_page", path=seeds["collab_do_not_export"]["page"])
        assert dne.is_error
        collab_views = [
            (await collab.read_resource(u)).contents[0].text for u in ("memkeeper://hot.md", "memkeeper://index.md")
        ]
        assert all("acquisition" not in v and "four million" not in v for v in collab_views)
        assert any("Harbor on-call rotation" in v for v in collab_views)

        # What the outside server captures stays in its zone.
        mine = await receipt(
            outside, "capture", text="Harbor partners get the changelog by email each month.", sensitivity="public_safe"
        )
        assert mine["details"]["zone"] == "outside_contact" and mine["actor"] == "agent:contact"

    everything = "\n".join(seen)
    for s in hidden:
        assert s["title"] not in everything, s["title"]
        assert s["text"] not in everything, s["text"]
    for word in ("BLUEHERON", "Priya", "four million", "Lena"):
        assert word not in everything


async def test_the_owner_server_reads_every_page_and_the_generated_views(root):
    seeds = seed_zones(root)
    async with mcp(root, "--agent", "claude", "--zone", "private_self") as client:
        for s in seeds.values():
            assert s["text"] in text(await call(client, "read_page", path=s["page"]))
        hot = (await client.read_resource("memkeeper://hot.md")).contents[0].text
        assert hot.startswith("# Hot — what is in flight\n") and "Harbor codename" in hot
        assert not (await call(client, "read_page", path="CONFLICTS.md")).is_error
        outside = await call(client, "read_page", path="raw/notes.md")
        assert outside.is_error and "is not a wiki page" in text(outside)


def refusal_shape(result) -> tuple[str, dict]:
    """A refusal as the agent sees it, without the echo of its own argument (`value`) and the time."""
    data = dict(result.structured_content or {})
    data.pop("at", None)
    details = {k: v for k, v in data.pop("details", {}).items() if k != "value"}
    return text(result), {**data, "details": details}


def deny(root: Path, text_: str, **options) -> dict:
    """A record captured by an agent and denied by the person."""
    now = datetime.now(UTC)
    engine = Engine.open(root)
    try:
        r = engine.capture(text_, now=now, actor="agent:seed", **options)
        assert r.status == "captured", r.details
        assert engine.deny(r.details["memory_id"], now=now, actor="human:pat").ok
    finally:
        engine.close()
    return {"memory_id": r.details["memory_id"], "page": r.details["page"], "text": text_}


async def test_a_limited_server_resolves_a_declared_relation_only_among_what_its_zone_sees(root):
    """An id prefix or a page path names a record among those the zone may see: a hidden record, a missing one and
    an ambiguous reference get the same answer, with no id, zone or status of anything the zone may not see."""
    seeds = seed_zones(root)
    denied = deny(root, "Harbor legal review finished in May after two rounds.")
    hidden = [s for name, s in seeds.items() if name != "outside_public"] + [denied]
    visible = seeds["outside_public"]
    statement = "Harbor documentation moved to a new address in June."
    public = {"sensitivity": "public_safe"}  # the only tier outside_contact reads back
    async with mcp(root, "--agent", "contact", "--zone", "outside_contact") as outside:
        missing = await call(outside, "capture", text=statement, contradicts="mem_ffffffffffffffff", **public)
        assert missing.is_error and text(missing) == "memkeeper: capture reject: unknown_memory_id"
        expected = refusal_shape(missing)
        assert expected[1]["details"] == {"declared": "contradicts", "reason": "unknown_memory_id"}
        answers = [missing]
        for relation in ("contradicts", "supersedes", "restates"):
            refs = ["entries/no-such-page.md", "mem_0000", "%", "mem_%", "_"]
            for s in hidden:
                refs += [s["memory_id"], s["memory_id"][:12], s["page"], " " + s["memory_id"].upper()]
            for ref in refs:
                answer = await call(outside, "capture", text=statement, **public, **{relation: ref})
                assert refusal_shape(answer) == (
                    expected[0],
                    {**expected[1], "details": {**expected[1]["details"], "declared": relation}},
                ), (relation, ref)
                answers.append(answer)
        # Every answer but the echo of the agent's own argument (`value`).
        everything = "\n".join(json.dumps(refusal_shape(a)) for a in answers)
        for s in hidden:
            assert s["memory_id"] not in everything
        for word in ("private_self", "do_not_export", "denied", "partition_mismatch", "not_active"):
            assert word not in everything, word

        # What the zone sees resolves as before: by prefix or page, passed on to the engine as the full id.
        declared = await receipt(
            outside,
            "capture",
            text="Harbor public documentation now lives at docs.harbor.example/v2.",
            sensitivity="public_safe",
            contradicts=visible["memory_id"][:10],
        )
        assert declared["status"] == "conflict"
        assert declared["details"]["declared"] == {"relation": "contradicts", "memory_id": visible["memory_id"]}
        restated = await receipt(
            outside, "capture", text=visible["text"], sensitivity="public_safe", restates=visible["page"]
        )
        assert restated["status"] == "consolidated" and restated["details"]["memory_id"] == visible["memory_id"]

    # A trusted collaborator sees the owner's records, never do_not_export ones.
    async with mcp(root, "--agent", "colleague", "--zone", "trusted_collaborator") as collab:
        dne = seeds["collab_do_not_export"]
        for ref in (dne["memory_id"], dne["page"], "mem_ffffffffffffffff"):
            answer = await call(collab, "capture", text=statement, restates=ref)
            restates = {**expected[1]["details"], "declared": "restates"}
            assert refusal_shape(answer) == (
                expected[0],
                {**expected[1], "actor": "agent:colleague", "details": restates},
            ), ref
            assert "private_self" not in json.dumps(refusal_shape(answer))
        mismatch = await call(collab, "capture", text=statement, restates=seeds["private_normal"]["memory_id"][:12])
        assert text(mismatch) == (  # the line says where the record is: a zone this server sees
            f"memkeeper: capture reject: partition_mismatch ({seeds['private_normal']['memory_id']} is in "
            "private_self/normal; the statement is in trusted_collaborator/normal)"
        )

    # The owner's server keeps the engine's answers.
    async with mcp(root, "--agent", "claude") as owner:
        mismatch = await call(owner, "capture", text=statement, contradicts=seeds["collab_do_not_export"]["memory_id"])
        assert mismatch.is_error and text(mismatch).startswith("memkeeper: capture reject: partition_mismatch (")
        gone = await call(owner, "capture", text=statement, contradicts=denied["memory_id"][:12])
        assert gone.structured_content["details"]["status"] == "denied"


async def test_a_limited_server_is_not_offered_the_owners_queue_counts(root):
    seed_zones(root)
    async with (
        mcp(root, "--agent", "contact", "--zone", "outside_contact") as outside,
        mcp(root, "--agent", "colleague", "--zone", "trusted_collaborator") as collab,
        mcp(root, "--agent", "claude") as owner,
    ):
        for client in (outside, collab):
            assert {t.name for t in (await client.list_tools()).tools} == {"capture", "retrieve", "read_page"}
            refused = await call(client, "queue_counts")
            assert refused.is_error and not refused.structured_content
            zone = "outside_contact" if client is outside else "trusted_collaborator"
            assert text(refused) == (
                f"memkeeper: queue_counts is not offered to zone {zone}: the person's queues count the records of "
                "every zone"
            )
        unknown = await call(owner, "bogus")
        assert text(unknown) == "memkeeper: unknown tool 'bogus' (tools: capture, retrieve, read_page, queue_counts)"
        assert (await receipt(owner, "queue_counts"))["records"] == 5
    from memkeeper.agents.mcp_server import Desk, Identity

    engine = Engine.open(root)
    try:  # the desk refuses it too, should it be called
        refused = Desk(engine, Identity.from_flags("contact", "outside_contact")).queue_counts()
        assert refused.is_error and text(refused).startswith("memkeeper: queue_counts is not offered to zone ")
    finally:
        engine.close()


async def test_a_limited_servers_capture_receipt_shows_no_conflict_id_nor_a_record_it_may_not_see(root):
    seeds = seed_zones(root)
    now = datetime.now(UTC)
    engine = Engine.open(root)
    try:  # three conflicts of the owner's: the next conflict is C4
        for day, service in (("Monday", "billing"), ("Tuesday", "search"), ("Wednesday", "mail")):
            for when in (day, "Friday"):
                engine.capture(f"The {service} service deploys on {when}.", now=now, actor="agent:seed", key=service)
        assert engine.counts(now)["open_conflicts"] == 3
    finally:
        engine.close()
    lena = seeds["outside_normal"]  # outside_contact / normal: a record of the zone the zone may not read
    async with mcp(root, "--agent", "contact", "--zone", "outside_contact") as outside:
        first = await receipt(
            outside,
            "capture",
            text="Harbor support starts at 9:00 each weekday.",
            key="support",
            sensitivity="public_safe",
        )
        second = await call(
            outside,
            "capture",
            text="Harbor support starts at 10:00 each weekday.",
            key="support",
            sensitivity="public_safe",
        )
        shown = second.structured_content
        assert not second.is_error and shown == json.loads(text(second))
        assert shown["status"] == "conflict" and shown["details"]["conflict"] == "held for the person to arbitrate"
        assert "conflict_id" not in shown["details"] and "C4" not in text(second)
        assert "receipt_sha256" not in shown  # the hash would let one test guesses of what was left out
        assert shown["details"]["memory_id"] == first["details"]["memory_id"]  # a record the zone sees is named

        # A statement that contradicts a record the zone may not see (Lena's: outside_contact/normal). The agent
        # stores it in the tier its zone reads back (public_safe), a partition Lena's record is not in: that record
        # never decides its status nor shows in its receipt, and the agent reads back what it stored.
        statement = "Harbor contract renewal is negotiated by Bob."
        answers = [await receipt(outside, "capture", text=statement, sensitivity="public_safe")]
        assert statement in text(await call(outside, "read_page", path=answers[0]["details"]["page"]))
        assert [a["status"] for a in answers] == ["captured"]
        for a in answers:
            assert "receipt_sha256" not in a and "conflict_id" not in a["details"]
            assert "opened" not in a["details"] and "conflict" not in a["details"]
            assert a["details"]["related"] == [] and a["details"]["memory_id"] != lena["memory_id"]
            assert a["details"]["sensitivity"] == "public_safe"
        everything = json.dumps(answers)
        for leak in (lena["memory_id"], lena["page"], "Lena /", "/ Lena", lena["title"], "C4"):
            assert leak not in everything, leak
    engine = Engine.open(root)
    try:  # partitions are never reconciled: nothing is held against Lena's record
        assert not [c for c in engine.conflicts() if c.existing["memory_id"] == lena["memory_id"]]
    finally:
        engine.close()


async def test_no_tool_call_surfaces_a_bare_exception(root, monkeypatch):
    """An engine error keeps its one line; anything else is `memkeeper: internal error: <Type>`, and the server's
    own message and traceback stay on the server."""
    from memkeeper.agents.mcp_server import Identity, build_server

    engine = Engine.open(root)

    def crash(*args, **kwargs):
        raise RuntimeError("disk on fire at /home/pat/secret")

    try:
        monkeypatch.setattr(engine, "retrieve", crash)
        monkeypatch.setattr(engine, "capture", crash)
        monkeypatch.setattr(engine, "counts", crash)
        monkeypatch.setattr(engine, "read_view", crash)
        server = build_server(engine, Identity.from_flags("claude", "private_self"))
        async with Client(server) as client:
            for tool, arguments in (
                ("retrieve", {"query": "deploys"}),
                ("capture", {"text": "Deploys of the billing service go out on Friday."}),
                ("queue_counts", {}),
                ("read_page", {"path": "hot.md"}),
            ):
                result = await client.call_tool(tool, arguments)
                assert result.is_error and text(result) == "memkeeper: internal error: RuntimeError", tool
            with pytest.raises(Exception) as failed:
                await client.read_resource("memkeeper://hot.md")
            assert "memkeeper: internal error: RuntimeError" in str(failed.value)
            assert "fire" not in str(failed.value)
    finally:
        engine.close()

    seeds = seed_zones(root)
    long_page = "entries/" + "y" * 300 + ".md"
    shown = f"{long_page[:100]}…{long_page[-99:]}"  # as a refusal repeats it
    async with (
        mcp(root, "--agent", "claude") as owner,
        mcp(root, "--agent", "contact", "--zone", "outside_contact") as outside,
    ):
        huge = await call(owner, "capture", text="Quokkas are marsupials found on Rottnest island.", ttl_days=1e308)
        assert (
            huge.is_error and text(huge) == "memkeeper: capture: argument `ttl_days` must be at most 36500, got 1e+308"
        )
        # An over-long path is a page that does not exist, on either server.
        assert text(await call(owner, "read_page", path=long_page)) == f"memkeeper: {shown} does not exist"
        assert (
            text(await call(owner, "read_page", path="entries/nope.md")) == "memkeeper: entries/nope.md does not exist"
        )
        too_long = await call(outside, "read_page", path=long_page)
        assert text(too_long) == f"memkeeper: read_page refused: no page {shown} visible to zone outside_contact"
        assert text(await call(outside, "read_page", path=seeds["private_normal"]["page"])) == text(too_long).replace(
            shown, seeds["private_normal"]["page"]
        )
        not_a_page = await call(owner, "read_page", path="y" * 300)
        assert not_a_page.is_error and "is not a wiki page" in text(not_a_page)
        for result in (huge, too_long, not_a_page):
            assert "\n" not in text(result) and "Error executing tool" not in text(result)


def raw_calls(root: Path, calls: list[str]) -> list[dict]:
    """Tool calls written as raw JSON-RPC lines: the SDK's client sends a NaN or an infinity as null, a client of
    its own may send them as they are."""
    proc = subprocess.Popen(
        [sys.executable, *server_argv(root, "--agent", "raw")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 0
        proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        for n, arguments in enumerate(calls, 1):
            params = f'{{"name": "capture", "arguments": {arguments}}}'
            proc.stdin.write(f'{{"jsonrpc": "2.0", "id": {n}, "method": "tools/call", "params": {params}}}\n')
        proc.stdin.flush()
        answers = [json.loads(proc.stdout.readline()) for _ in calls]
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        watchdog.cancel()
    return [a["result"] for a in sorted(answers, key=lambda a: a["id"])]


async def test_ttl_days_is_finite_and_in_range_and_never_given_with_expires_at(root):
    statement = "Platypus lays eggs despite being a mammal."
    sent = ("NaN", "Infinity", "-Infinity", "1e400")
    for value, shown, answer in zip(
        sent,
        ("NaN", "Infinity", "-Infinity", "Infinity"),  # 1e400 is read as an infinity
        raw_calls(root, [f'{{"text": "{statement}", "ttl_days": {v}}}' for v in sent]),
        strict=True,
    ):
        assert answer["isError"], value
        said = f"memkeeper: capture: argument `ttl_days` must be a finite number, got {shown}"
        assert answer["content"][0]["text"] == said, value
    async with mcp(root, "--agent", "claude") as client:
        schema = {t.name: t for t in (await client.list_tools()).tools}["capture"].input_schema["properties"]
        for value in (1e308, 36501, 0, -1e-9):
            bad = await call(client, "capture", text=statement, ttl_days=value)
            assert bad.is_error and text(bad).startswith("memkeeper: capture: argument `ttl_days` must be "), value
            assert "\n" not in text(bad)
        both = await call(client, "capture", text=statement, expires_at="2099-01-01", ttl_days=3)
        assert both.is_error
        assert text(both) == "memkeeper: capture: expires_at and ttl_days: give one of them, not both"
        assert (await receipt(client, "queue_counts"))["records"] == 0
        # memory_class: one of the values, or null for the default; the schema says exactly that.
        assert "enum" not in schema["memory_class"]
        assert {"type": "null"} in schema["memory_class"]["anyOf"]
        assert {"type": "string", "enum": ["durable", "expiring"]} in schema["memory_class"]["anyOf"]
        assert schema["ttl_days"]["anyOf"][0] == {"type": "number", "minimum": 1 / 24, "maximum": 36500}
        kept = await receipt(client, "capture", text=statement, memory_class=None, ttl_days=36500)
        assert kept["status"] == "captured" and kept["details"]["class"] == "expiring"


async def test_server_info_names_the_package_version(root):
    async with mcp(root, "--agent", "claude") as client:
        assert client.server_info.name == "memkeeper"
        assert client.server_info.version == importlib.metadata.version("memkeeper")


# ------------------------------------------------------------------------------------------------ bad arguments


async def test_bad_arguments_get_the_command_lines_one_line_reasons(root, capsys):
    statement = "Deploys of the billing service go out on Friday."
    cli_category = cli_error(capsys, root, "capture", statement, "--category", "bogus")
    cli_secret = cli_error(capsys, root, "capture", f"The bot token is {GITHUB_TOKEN} for now")
    async with mcp(root, "--agent", "claude") as client:
        bad_category = await call(client, "capture", text=statement, category="bogus")
        assert bad_category.is_error
        assert text(bad_category) == cli_category
        assert cli_category.startswith("memkeeper: capture reject: invalid_category 'bogus' (valid: preference,")
        assert bad_category.structured_content["details"]["reason"] == "invalid_category"

        secret = await call(client, "capture", text=f"The bot token is {GITHUB_TOKEN} for now")
        assert secret.is_error
        assert text(secret) == cli_secret.replace("--redact", "redact=true")
        assert GITHUB_TOKEN not in text(secret)
        redacted = await receipt(client, "capture", text=f"The bot token is {GITHUB_TOKEN} for now", redact=True)
        assert redacted["status"] == "captured" and redacted["details"]["redacted"]

        for path, reason in (
            ("../outside.md", "contains '..'"),
            ("/etc/passwd", "absolute path"),
            ("entries/../../x.md", "contains '..'"),
        ):
            escaped = await call(client, "read_page", path=path)
            assert escaped.is_error and reason in text(escaped), path
            assert text(escaped).startswith("memkeeper: ") and "\n" not in text(escaped)

        zone = await call(client, "capture", text=statement, zone="outside_contact")
        assert zone.is_error
        assert "unknown argument `zone`" in text(zone) and "fixed by the server" in text(zone)
        actor = await call(client, "retrieve", query="deploys", actor="human:alice")
        assert actor.is_error and "unknown argument `actor`" in text(actor)
        limit = await call(client, "retrieve", query="deploys", limit=0)
        assert limit.is_error and text(limit) == "memkeeper: retrieve: argument `limit` must be at least 1, got 0"
        ttl = await call(client, "capture", text=statement, ttl_days=-1)
        assert ttl.is_error
        assert text(ttl) == "memkeeper: capture: argument `ttl_days` must be at least 0.0417 (one hour), got -1"
        empty = await call(client, "retrieve", query="  ")
        assert empty.is_error and text(empty) == "memkeeper: retrieve reject: empty_query"
        confirmed = await call(client, "capture", text=statement, source_type="user_confirmed")
        assert confirmed.is_error and "person's confirmation" in text(confirmed)
        for result in (bad_category, secret, zone, actor, limit, confirmed):
            assert "\n" not in text(result)
        # Nothing above was stored but the redacted capture.
        assert (await receipt(client, "queue_counts"))["records"] == 1


def test_bad_server_flags_are_refused_before_serving(root):
    def start(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, *args], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
        )

    bad_zone = start(*server_argv(root, "--zone", "everyone"))
    assert bad_zone.returncode == 2
    assert bad_zone.stderr.strip() == (
        "memkeeper: invalid_trust_zone 'everyone' (valid: private_self, "
        "trusted_collaborator, outside_contact, paid_public)"
    )
    bad_agent = start(*server_argv(root, "--agent", "two words"))
    assert bad_agent.returncode == 2 and "invalid actor" in bad_agent.stderr
    human = start("-m", "memkeeper.tui.cli", "--as", "human:alice", "--root", str(root), "mcp")
    assert human.returncode == 2 and "mcp does not take --as" in human.stderr
    no_root = start(*server_argv(root.parent / "nowhere"))
    assert no_root.returncode == 2 and "does not exist" in no_root.stderr


def test_the_server_module_does_not_import_textual():
    code = (
        "import sys, memkeeper.agents.mcp_server; "
        "sys.exit(1 if any(m == 'textual' or m.startswith('textual.') for m in sys.modules) else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0


async def test_true_is_not_a_number(root):
    """pydantic reads true as 1: `confidence: true` was stored as a certainty of 1.0, `limit: true` asked for one
    result. Each is refused in one line, and nothing is stored."""
    statement = "Wombats produce cube-shaped droppings."
    async with mcp(root, "--agent", "claude") as client:
        for name in ("confidence", "ttl_days"):
            bad = await call(client, "capture", text=statement, **{name: True})
            assert bad.is_error and text(bad) == f"memkeeper: capture: argument `{name}` must be a number, got true"
        assert (await receipt(client, "queue_counts"))["records"] == 0
        bad = await call(client, "retrieve", query="wombats", limit=True)
        assert bad.is_error and text(bad) == "memkeeper: retrieve: argument `limit` must be an integer, got true"
        kept = await receipt(client, "capture", text=statement, confidence=1, ttl_days=2)
        assert kept["status"] == "captured"
        assert not (await call(client, "retrieve", query="wombats", limit=3)).is_error


async def test_a_number_or_a_flag_sent_as_a_string_is_refused(root):
    """A careful client sends the JSON type the tool's schema declares. pydantic's lax mode read "0.9" as 0.9,
    "5" as 5 and "yes" or 1 as true: an argument given as another type than the schema's number, integer or boolean
    is refused in one line naming it, and nothing is stored."""
    statement = "Octopuses have three hearts and blue blood."
    async with mcp(root, "--agent", "claude") as client:
        for name, value, what in (
            ("confidence", "0.9", "a number, got a string"),
            ("ttl_days", "2", "a number, got a string"),
            ("redact", "false", "true or false, got a string"),
            ("redact", 1, "true or false, got a number"),
        ):
            bad = await call(client, "capture", text=statement, **{name: value})
            assert bad.is_error and text(bad) == f"memkeeper: capture: argument `{name}` must be {what}", (name, value)
        assert (await receipt(client, "queue_counts"))["records"] == 0
        bad = await call(client, "retrieve", query="octopuses", limit="5")
        assert bad.is_error and text(bad) == "memkeeper: retrieve: argument `limit` must be an integer, got a string"
        # The declared types, and null where the schema allows it, are taken as before.
        kept = await receipt(client, "capture", text=statement, confidence=0.9, ttl_days=None, redact=False)
        assert kept["status"] == "captured"
        assert not (await call(client, "retrieve", query="octopuses", limit=2.0)).is_error


def test_no_server_serves_a_page_holding_a_secret_typed_in_by_hand(root):
    """The owner's server shows a malformed page as it is, but not one holding a secret typed in by hand (in its
    content, or in a field the page's hash does not cover), even before the index has read the edit; a limited
    server refuses it as a page it may not see."""
    from memkeeper.agents.mcp_server import Desk, Identity

    token = "ghp_" + "Xy7Qw3Rt9Zk2Lm5Np8Vb4Hc6Jd1Fg0Sa2UeK"
    engine = Engine.open(root)
    try:
        r = engine.capture(
            "The release pipeline publishes wheels to the internal index every Tuesday.",
            zone="trusted_collaborator",
            sensitivity="public_safe",
            now=datetime(2026, 11, 20, tzinfo=UTC),
        )
        rel = r.details["page"]
        page = root / rel
        page.write_text(page.read_text().replace("tags: []", f"tags: [{token}]", 1))
        for zone in ("private_self", "trusted_collaborator"):
            result = Desk(engine, Identity.from_flags("probe", zone)).read_page(rel)
            shown = text(result)
            assert result.is_error and token not in shown, (zone, shown)
            assert "refused" in shown
    finally:
        engine.close()


def test_a_server_named_by_a_secret_is_refused():
    from memkeeper.agents.mcp_server import Identity
    from memkeeper.core import BadInput

    with pytest.raises(BadInput, match=r"its name is a secret \(aws_access_key\)") as caught:
        Identity.from_flags("AKIAZ7QWERTY4LMN8PQR", "private_self")
    assert "AKIAZ7QWERTY4LMN8PQR" not in str(caught.value)

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from memkeeper.core import Engine
from memkeeper.tui.cli import main

from .conftest import run


def test_capture_retrieve_json(capsys, root):
    code, out, _ = run(
        capsys,
        root,
        "--json",
        "capture",
        "Always use absolute paths in handoff artifacts.",
        "--title",
        "Handoff path style",
        "--category",
        "preference",
    )
    assert code == 0
    receipt = json.loads(out)
    assert receipt["schema"] == "memkeeper.receipt.v1" and receipt["status"] == "captured"
    code, out, _ = run(capsys, root, "--json", "retrieve", "handoff paths", "--zone", "trusted_collaborator")
    assert code == 0 and json.loads(out)["details"]["results"][0]["title"] == "Handoff path style"


def test_exit_codes(capsys, root):
    code, out, err = run(capsys, root, "capture", "ugh ok")
    assert code == 0 and "drop" in out
    code, _, err = run(capsys, root, "capture", "The deploy window is Tuesday afternoon.", "--zone", "everyone")
    assert code == 2 and err.count("\n") == 1 and "invalid_trust_zone" in err
    code, _, err = run(capsys, root, "retrieve", "x", "--zone", "nope")
    assert code == 2 and "invalid_trust_zone" in err
    code, _, err = run(capsys, root, "capture")
    assert code == 2 and err.startswith("memkeeper:")
    code, _, err = main(["--root", str(root / "nope"), "check"]), *capsys.readouterr()
    assert code == 2


def test_root_is_a_file(capsys, tmp_path):
    f = tmp_path / "f"
    f.write_text("x")
    code = main(["--root", str(f), "check"])
    _, err = capsys.readouterr()
    assert code == 2 and "not a directory" in err and err.count("\n") == 1


@pytest.mark.parametrize("when", ["0999-06-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-30T00:00:00Z"])
def test_a_time_out_of_range_is_refused_before_anything_is_written(capsys, root, tmp_path, when):
    """`--now 0999-06-01` wrote a three-digit year ("999-06-01T…", which no reader parses) into the receipt's file
    name, log.md and the write's intent, and every later command, `check --repair` too, stopped on it; near 9999 a
    capture overflowed. Such a time is now one line, exit 2, and nothing is written; the wiki goes on."""
    trail = {
        p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".memkeeper" not in p.parts
    }
    for args in (
        ["capture", "The staging cluster runs in the Frankfurt region."],
        ["retrieve", "staging"],
        ["--as", "human:me", "decay"],
        ["--as", "human:me", "quiz", "record", "mem_0000000000000000", "good"],
    ):
        code, out, err = run(capsys, root, "--now", when, *args)
        assert code == 2 and out == "" and err.count("\n") == 1 and "out of range" in err, (args, err)
    after = {
        p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file() and ".memkeeper" not in p.parts
    }
    assert after == trail
    code, out, _ = run(capsys, root, "capture", "The office printer is an HP LaserJet 4000.")
    assert code == 0 and "captured" in out
    assert run(capsys, root, "check")[0] == 0
    # init too: refused before the folder is made
    code, _, err = main(["--root", str(tmp_path / "new"), "--now", when, "init"]), *capsys.readouterr()
    assert code == 2 and "out of range" in err and not (tmp_path / "new").exists()


@pytest.mark.parametrize("when", ["0999-01-01", "9999-01-01"])
def test_the_desk_refuses_a_time_out_of_range_as_every_command_does(capsys, root, monkeypatch, when):
    """Exploratory pass, 2026-12-05: `memkeeper --now 0999-01-01 tui` opened the desk, which showed "Counting
    failed: time … is out of range" notices, where every command that acts at `--now` exits 2 with one line. The
    desk (and `serve`, which starts one for each browser tab) says the same line before it opens."""
    import memkeeper.tui.app
    import memkeeper.tui.web

    opened = []
    monkeypatch.setattr(memkeeper.tui.app, "run_app", lambda *a, **kw: opened.append("desk") or 0)
    monkeypatch.setattr(memkeeper.tui.web, "serve_desk", lambda *a, **kw: opened.append("server") or 0)
    for command in ("tui", "serve"):
        code, out, err = run(capsys, root, "--now", when, command)
        assert code == 2 and out == "" and err.count("\n") == 1 and "is out of range" in err, (command, err)
    assert opened == []
    assert run(capsys, root, "--now", "2026-11-20T09:00:00Z", "tui")[0] == 0 and opened == ["desk"]


def test_durable_with_an_expiry_is_refused(capsys, root):
    """Stored, such a record said `durable` and expired all the same (retrieval stopped returning it, decay archived
    it). The same check serves the MCP server's `ttl_days`."""
    text = "The canteen closes early for staff parties."
    code, out, err = run(capsys, root, "capture", text, "--class", "durable", "--expires", "2026-12-10")
    assert code == 2 and err.count("\n") == 1, err
    assert err == (  # what to do, as every other refusal names what is valid
        "memkeeper: capture reject: durable_with_expiry (a durable record does not expire: leave out --class durable "
        "to store an expiring record, or leave out --expires)\n"
    )
    eng = Engine.open(root)
    try:
        r = eng.capture(text, now=datetime(2026, 11, 20, 9, tzinfo=UTC), memory_class="durable", ttl_days=5)
        assert (r.status, r.details["reason"]) == ("reject", "durable_with_expiry")
    finally:
        eng.close()
    assert not list((root / "entries").glob("*.md"))
    code, out, _ = run(capsys, root, "capture", text, "--expires", "2026-12-10")
    assert code == 0 and "captured" in out


def test_a_folder_that_is_not_a_wiki_is_refused_and_left_untouched(capsys, tmp_path):
    """A mistyped --root, or a project folder: the first command used to write entries/, log.md, receipts/ and
    .memkeeper/ beside the project's files (a layout without its headers), even a retrieve."""
    project = tmp_path / "myproject"
    project.mkdir()
    (project / "app.py").write_text("print('hi')\n")
    for args in (["capture", "The release train leaves on Thursdays."], ["retrieve", "release"], ["check"]):
        code = main(["--root", str(project), *args])
        _, err = capsys.readouterr()
        assert code == 2 and "is not a memkeeper wiki" in err and "memkeeper init" in err and err.count("\n") == 1
    assert sorted(p.name for p in project.iterdir()) == ["app.py"]
    assert main(["--root", str(project), "init"]) == 0  # asked for, it is made there
    capsys.readouterr()
    code = main(["--root", str(project), "capture", "The release train leaves on Thursdays."])
    assert code == 0 and "captured" in capsys.readouterr()[0]


def test_a_confidence_of_minus_zero_is_stored_as_zero(capsys, root):
    code, out, _ = run(capsys, root, "--json", "capture", "The lab printer jams on A3 paper.", "--confidence", "-0")
    assert code == 0
    page = (root / json.loads(out)["details"]["page"]).read_text(encoding="utf-8")
    assert "confidence: 0.0\n" in page and "-0" not in page


@pytest.mark.parametrize("n", ["-5", "100000000"])
def test_a_demo_record_count_out_of_range_is_refused(capsys, tmp_path, n):
    """-5 built all but five statements, 100000000 the 320 there are, each without a word."""
    code = main(["demo", str(tmp_path / "d"), "--no-tui", "--records", n])
    _, err = capsys.readouterr()
    assert code == 2 and "--records must be between 0 and" in err and not (tmp_path / "d").exists()


def test_conflict_flow_and_undo(capsys, root):
    run(capsys, root, "capture", "The primary database for billing is Postgres.", "--key", "billing-db")
    code, out, _ = run(
        capsys, root, "--json", "capture", "The primary database for billing is MySQL.", "--key", "billing-db"
    )
    assert code == 0 and json.loads(out)["status"] == "conflict"
    code, out, _ = run(capsys, root, "conflicts", "list")
    assert "C1" in out
    code, _, err = run(capsys, root, "conflicts", "resolve", "C1", "--keep", "incoming")
    assert code == 2 and "human_actor_required" in err
    code, out, _ = run(
        capsys, root, "--as", "human:alice", "--json", "conflicts", "resolve", "C1", "--keep", "incoming"
    )
    assert code == 0
    sha = json.loads(out)["receipt_sha256"]
    code, out, _ = run(capsys, root, "--as", "human:alice", "undo", sha)
    assert code == 0 and "undone" in out
    code, _, err = run(capsys, root, "--as", "human:alice", "undo", sha)
    assert code == 2 and "already_undone" in err


def test_an_agent_cannot_capture_a_statement_as_confirmed_by_the_person(capsys, root):
    """`user_confirmed` is what a person's confirmation sets: an agent claiming it would skip the verification
    queue, so the command line refuses it as the MCP server does; a person may say it."""
    text = "The build farm has sixteen runners in the south rack."
    code, _, err = run(capsys, root, "capture", text, "--source-type", "user_confirmed")
    assert code == 2 and "human_actor_required" in err
    assert not list((root / "entries").glob("*.md"))
    code, out, _ = run(
        capsys, root, "--as", "human:alice", "--json", "capture", text, "--source-type", "user_confirmed"
    )
    assert code == 0 and json.loads(out)["status"] == "captured"
    mid = json.loads(out)["details"]["memory_id"]
    run(capsys, root, "capture", "Dana thinks the runners could move north next spring.")
    code, out, _ = run(capsys, root, "--json", "verify", "list")
    assert code == 0 and "Dana thinks" in out and mid not in out


def test_verify_quiz_tiers_commands(capsys, root):
    run(capsys, root, "capture", "Kenji prefers async standups on Tuesdays and Thursdays.", "--source-ref", "raw/c.md")
    code, out, _ = run(capsys, root, "--json", "verify", "list")
    mid = json.loads(out)[0]["memory_id"]
    assert run(capsys, root, "--as", "human:alice", "verify", "confirm", mid)[0] == 0
    code, out, _ = run(capsys, root, "--as", "human:alice", "--json", "quiz", "due")
    assert json.loads(out)["items"][0]["memory_id"] == mid
    assert run(capsys, root, "--as", "human:alice", "quiz", "record", mid, "good")[0] == 0
    assert run(capsys, root, "--as", "human:alice", "quiz", "record", mid, "maybe")[0] == 2
    code, out, _ = run(capsys, root, "--json", "tiers", "plan")
    assert code == 0 and "ambiguous" in json.loads(out)
    assert run(capsys, root, "check")[0] == 0


def test_quiz_bury_puts_a_card_off_until_tomorrow_and_undo_brings_it_back(capsys, root):
    run(capsys, root, "capture", "The boiler service is booked for the second week of March.")
    person = ("--as", "human:alice")
    due = json.loads(run(capsys, root, *person, "--json", "quiz", "due")[1])["items"]
    mid = due[0]["memory_id"]
    code, out, _ = run(capsys, root, *person, "--json", "quiz", "bury", mid)
    receipt = json.loads(out)
    assert code == 0 and receipt["status"] == "buried", receipt
    assert mid not in [
        c["memory_id"] for c in json.loads(run(capsys, root, *person, "--json", "quiz", "due")[1])["items"]
    ]
    tomorrow = ("--now", "2026-11-21T09:00:00Z")
    later = json.loads(run(capsys, root, *person, *tomorrow, "--json", "quiz", "due")[1])["items"]
    assert mid in [c["memory_id"] for c in later]
    assert run(capsys, root, *person, "undo", receipt["receipt_sha256"][:12])[0] == 0
    assert mid in [c["memory_id"] for c in json.loads(run(capsys, root, *person, "--json", "quiz", "due")[1])["items"]]
    assert run(capsys, root, *person, "quiz", "bury", "mem_nope")[0] == 2


def test_check_reports_problems_with_file(capsys, root):
    (root / "entries" / "bad.md").write_text("---\nx: [\n---\n")
    code, out, _ = run(capsys, root, "check")
    assert code == 2 and "entries/bad.md" in out


def test_console_script_runs(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "memkeeper.tui.cli", "--root", str(tmp_path / "m"), "init"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr


SLACK = "xoxb-" + "123456789012-1234567890123-" + "Ab3dEf6hIj9kLm2nOp5qRs8t"


def _wiki_text(root) -> str:
    return "\n".join(
        p.read_text(errors="replace") for p in root.rglob("*") if p.is_file() and ".memkeeper" not in p.parts
    )


def test_capture_with_a_secret_exits_2_with_one_line_and_writes_nothing(capsys, root):
    code, out, err = run(
        capsys, root, "capture", f"The standup bot posts with {SLACK} every morning.", "--key", "standup-bot"
    )
    assert code == 2 and err.count("\n") == 1
    assert "secret_detected" in err and "slack_token in text" in err and "--redact" in err
    assert SLACK not in out + err
    code, _, err = run(capsys, root, "capture", "The standup bot posts every morning to the team.", "--tag", SLACK)
    assert code == 2 and "in tags" in err
    assert list((root / "entries").iterdir()) == [] and SLACK not in _wiki_text(root)


def test_capture_redact_flag_stores_the_secret_redacted(capsys, root):
    code, out, _ = run(
        capsys, root, "--json", "capture", f"The standup bot posts with {SLACK} every morning.", "--redact"
    )
    assert code == 0
    receipt = json.loads(out)
    assert receipt["details"]["redacted"] == ["slack_token"]
    page = (root / receipt["details"]["page"]).read_text()
    assert "[REDACTED:slack_token]" in page and SLACK not in _wiki_text(root)


def test_deny_reason_and_quiz_answer_with_a_secret_need_redact(capsys, root):
    code, out, _ = run(capsys, root, "--json", "capture", "Kenji prefers async standups on Tuesdays and Thursdays.")
    mid = json.loads(out)["details"]["memory_id"]
    human = ["--as", "human:alice"]
    code, _, err = run(capsys, root, *human, "quiz", "record", mid, "good", "--answer", f"it was {SLACK}")
    assert code == 2 and "secret_detected" in err and "in answer" in err
    code, _, _ = run(capsys, root, *human, "quiz", "record", mid, "good", "--answer", f"it was {SLACK}", "--redact")
    assert code == 0
    code, _, err = run(capsys, root, *human, "verify", "deny", mid, "--reason", f"leaked {SLACK}")
    assert code == 2 and "secret_detected" in err and "in reason" in err
    code, out, _ = run(capsys, root, *human, "--json", "verify", "deny", mid, "--reason", f"leaked {SLACK}", "--redact")
    assert code == 0 and json.loads(out)["details"]["reason"] == "leaked [REDACTED:slack_token]"
    assert SLACK not in _wiki_text(root)
    assert run(capsys, root, "check")[0] == 0


def test_not_found_is_bad_input_exit_2(capsys, root):
    for args, message in (
        (("verify", "confirm", "mem_nope"), "unknown memory id 'mem_nope'"),
        (("conflicts", "resolve", "C9", "--keep", "both"), "unknown conflict C9"),
        (("quiz", "record", "mem_nope", "good"), "unknown memory id"),
    ):
        code, _, err = run(capsys, root, "--as", "human:alice", *args)
        assert code == 2 and err.startswith("memkeeper: ") and message in err and err.count("\n") == 1, (args, err)


@pytest.mark.parametrize("error", ["BadInput", "NotFound", "Refused", "Stale"])
def test_every_engine_error_is_one_line_and_exit_2(capsys, root, monkeypatch, error):
    from memkeeper import core

    def refuse(*args, **kwargs):
        raise getattr(core, error)(f"{error} here\nwith a second line")

    monkeypatch.setattr(core.Engine, "confirm", refuse)
    code, out, err = run(capsys, root, "--as", "human:alice", "verify", "confirm", "mem_x")
    assert code == 2 and out == ""
    assert err == f"memkeeper: {error} here · with a second line\n"


def test_an_internal_failure_is_exit_1(capsys, root, monkeypatch):
    from memkeeper import core

    def broken(*args, **kwargs):  # a fault of memkeeper's own (a full disk is the disk's: tests/cli/test_cli_faults)
        raise KeyError("existing")

    monkeypatch.setattr(core.Engine, "confirm", broken)
    code, _, err = run(capsys, root, "--as", "human:alice", "verify", "confirm", "mem_x")
    assert code == 1 and err.startswith("memkeeper: internal error: KeyError") and err.count("\n") == 1


def test_decay_preview_lists_and_writes_nothing_then_undo_reverses_the_run(capsys, root):
    run(
        capsys,
        root,
        "--now",
        "2026-01-01T09:00:00Z",
        "capture",
        "Priya owns the quarterly billing reconciliation.",
        "--title",
        "Billing owner",
    )
    code, out, _ = run(capsys, root, "--now", "2026-12-01T09:00:00Z", "decay", "--preview")
    assert code == 0 and out.startswith("decay preview: would archive 1") and "Billing owner" in out
    code, out, _ = run(capsys, root, "--json", "--now", "2026-12-01T09:00:00Z", "decay", "--preview")
    assert json.loads(out)["status"] == "preview"
    code, out, _ = run(capsys, root, "--json", "--now", "2026-12-01T09:00:00Z", "decay")
    receipt = json.loads(out)
    assert receipt["details"]["archived_count"] == 1
    code, out, _ = run(capsys, root, "--json", "undo", receipt["receipt_sha256"][:12])
    assert code == 0 and json.loads(out)["status"] == "undone"
    code, out, _ = run(capsys, root, "--now", "2026-12-01T09:00:00Z", "decay", "--preview")
    assert out.startswith("decay preview: would archive 1")


def test_decay_names_the_record_it_leaves_for_an_open_conflict(capsys, root):
    early = ["--now", "2026-01-01T09:00:00Z"]
    run(capsys, root, *early, "capture", "Billing runs on Postgres.", "--key", "billing-db", "--title", "Billing db")
    code, out, _ = run(capsys, root, *early, "--json", "capture", "Billing runs on MySQL.", "--key", "billing-db")
    conflict = json.loads(out)["details"]["conflict_id"]
    for args in (["decay", "--preview"], ["decay"]):
        code, out, _ = run(capsys, root, "--now", "2026-12-01T09:00:00Z", *args)
        assert code == 0
        assert "held: mem_" in out and f"Billing db  (not archived: conflict {conflict} awaits a decision)" in out


def test_init_and_demo_leave_no_connection_open(tmp_path, capsys):
    """A command closes the index it opened: a connection left for the garbage collector would checkpoint and
    remove the write-ahead log whenever the collector runs, under a later command's feet."""
    import gc

    gc.disable()
    try:
        root = tmp_path / "w"
        assert main(["--root", str(root), "--now", "2026-11-20T09:00:00Z", "init"]) == 0
        assert not (root / ".memkeeper" / "index.db-wal").exists()
        demo = tmp_path / "demo"
        assert main(["--now", "2026-11-20T09:00:00Z", "demo", str(demo), "--no-tui", "--records", "20"]) == 0
        assert not (demo / ".memkeeper" / "index.db-wal").exists()
    finally:
        gc.enable()
    capsys.readouterr()


def test_list_commands_take_a_limit_and_say_how_many_more(capsys, root):
    old = ("--now", "2026-05-01T09:00:00Z")  # old enough to be a tier candidate at NOW
    for i, text in enumerate(
        [
            "The harbor deploy pipeline runs lint before the build.",
            "Kenji prefers async standups on Tuesdays.",
            "The staging database is backed up every night.",
            "Invoices are exported as CSV every Friday.",
        ]
    ):
        assert run(capsys, root, *old, "capture", text, "--source-ref", f"raw/note-{i}.md")[0] == 0
    for text in [
        "Lisbon offsite is booked.",
        "The rota changes soon.",
        "Search reindexing is slow.",
        "Ada is on call.",
        "The VPN is flaky.",
    ]:
        run(capsys, root, "capture", text)  # hot.md protects the newest captures
    every = json.loads(run(capsys, root, "--json", "verify", "list")[1])
    code, out, _ = run(capsys, root, "verify", "list", "--limit", "2")
    assert code == 0 and len(out.splitlines()) == 3 and f"… and {len(every) - 2} more (--limit)" in out
    assert [e["memory_id"] for e in json.loads(run(capsys, root, "--json", "verify", "list", "--limit", "2")[1])] == [
        e["memory_id"] for e in every[:2]
    ]

    whole = json.loads(run(capsys, root, "--json", "tiers", "plan")[1])
    cut = json.loads(run(capsys, root, "--json", "tiers", "plan", "--limit", "1")[1])
    kinds = [k for k in ("automatic", "ambiguous") if len(whole[k]) > 1]
    assert kinds, whole  # the seeded notes make more than one candidate of some kind
    for kind in ("protected", "automatic", "ambiguous"):
        assert cut[kind] == whole[kind][:1] and cut[f"{kind}_count"] == len(whole[kind])
    assert "more (--limit)" in run(capsys, root, "tiers", "plan", "--limit", "1")[1]
    assert run(capsys, root, "verify", "list", "--limit", "0")[0] == 2  # a limit is 1 or more


def test_conflicts_list_takes_a_limit(capsys, root):
    for n in range(2):
        receipt = json.loads(run(capsys, root, "--json", "capture", f"Printer {n} sits on floor {n + 2}.")[1])
        mid = receipt["details"]["memory_id"]
        run(capsys, root, "capture", f"Printer {n} moved to floor {n + 5}.", "--contradicts", mid)
    assert len(json.loads(run(capsys, root, "--json", "conflicts", "list")[1])) == 2
    code, out, _ = run(capsys, root, "conflicts", "list", "--limit", "1")
    assert code == 0 and out.splitlines()[-1] == "… and 1 more (--limit)" and len(out.splitlines()) == 2


def test_demo_builds_at_root_and_never_replaces_a_wiki_it_did_not_build(tmp_path, capsys, root):
    """`--root` names the demo's folder as it names every command's wiki; and a person's own wiki given to `demo`
    (as its folder or as --root) is refused in one line and left as it was, where it used to be deleted."""
    run(capsys, root, "capture", "Ravi owns the billing service and its on-call rota.")
    pages = sorted(p.read_text() for p in (root / "entries").glob("*.md"))
    for argv in (["demo", str(root), "--no-tui"], ["--root", str(root), "demo", "--no-tui"]):
        code = main(["--now", "2026-11-20T09:00:00Z", *argv, "--records", "5"])
        _, err = capsys.readouterr()
        assert code == 2 and err.count("\n") == 1 and "refusing to replace it" in err
        assert sorted(p.read_text() for p in (root / "entries").glob("*.md")) == pages
    demo = tmp_path / "the-demo"
    for _ in range(2):  # a demo it built, it rebuilds
        assert main(["--root", str(demo), "--now", "2026-11-20T09:00:00Z", "demo", "--no-tui", "--records", "5"]) == 0
        capsys.readouterr()
        assert len(list((demo / "entries").glob("*.md"))) >= 5


def test_a_conflict_snoozed_for_a_desk_session_lists_as_open_outside_it(capsys, root):
    """A session snooze lasts until that desk closes: to the command line (no desk session) the conflict is open, and
    CONFLICTS.md says what kind of snooze it is rather than naming an opaque session id."""
    from memkeeper.core import Engine

    run(capsys, root, "capture", "The primary database for billing is Postgres.", "--key", "billing-db")
    run(capsys, root, "capture", "The primary database for billing is MySQL.", "--key", "billing-db")
    run(capsys, root, "capture", "The staging cluster has 3 nodes.", "--key", "staging-nodes")
    run(capsys, root, "capture", "The staging cluster has 9 nodes.", "--key", "staging-nodes")
    eng = Engine.open(root)
    try:
        when = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
        assert eng.snooze_conflict("C1", now=when, actor="human:alice", session="desk-1").status == "snoozed"
        assert eng.snooze_conflict("C2", now=when, actor="human:alice", until="2026-12-24").status == "snoozed"
    finally:
        eng.close()
    code, out, _ = run(capsys, root, "conflicts", "list")
    rows = {line.split()[0]: line.split()[1] for line in out.splitlines()}
    assert code == 0 and rows == {"C1": "open", "C2": "snoozed"}
    text = (root / "CONFLICTS.md").read_text()
    assert "snoozed for one desk session" in text and "session:desk-1" not in text


def test_a_snooze_until_a_date_already_past_is_refused(capsys, root):
    run(capsys, root, "capture", "The primary database for billing is Postgres.", "--key", "billing-db")
    run(capsys, root, "capture", "The primary database for billing is MySQL.", "--key", "billing-db")
    code, _, err = run(capsys, root, "--as", "human:alice", "conflicts", "resolve", "C1", "--snooze", "2020-01-01")
    assert code == 2 and "snooze_date_past" in err and err.count("\n") == 1
    code, out, _ = run(capsys, root, "conflicts", "list")
    assert out.split()[:2] == ["C1", "open"]
    code, _, _ = run(capsys, root, "--as", "human:alice", "conflicts", "resolve", "C1", "--snooze", "2026-12-24")
    assert code == 0


def test_a_date_typed_for_an_expiry_or_a_snooze_is_a_day_of_the_persons_time_zone(capsys, root):
    """Exploratory pass, 2026-12-05: `--expires 2026-03-02` meant 00:00 UTC with the person's quiz zone set, so at
    17:30 in Los Angeles "tomorrow" was refused as past, and a record captured that morning left retrieval in the
    evening; `--snooze 7d` was refused though the desk took it. A date is a day of the person's quiz time zone (an
    agent's capture too: the wiki's one zone): an expiry lasts through it, a snooze holds until it begins, and a
    refusal says how the text was read."""

    def at(when: str, *args: str) -> tuple[int, str, str]:
        code = main(["--root", str(root), "--now", when, *args])
        out, err = capsys.readouterr()
        return code, out, err

    assert at("2026-11-20T09:00:00Z", "--as", "human:alice", "quiz", "zone", "America/Los_Angeles")[0] == 0
    evening = "2026-11-20T17:30:00-08:00"  # 01:30 UTC on the 21st; the 20th in Los Angeles
    text = "Staging is frozen for the Acme audit, do not deploy."
    code, out, err = at(evening, "--json", "capture", text, "--expires", "2026-11-21")
    assert code == 0, err
    page = (root / json.loads(out)["details"]["page"]).read_text(encoding="utf-8")
    assert "expires_at: '2026-11-22T08:00:00Z'" in page  # when the 22nd begins in Los Angeles
    for when, found in (("2026-11-21T23:59:00-08:00", "1 result(s)"), ("2026-11-22T00:00:00-08:00", "0 result(s)")):
        code, out, _ = at(when, "retrieve", "staging frozen Acme audit", "--preview")
        assert out.splitlines()[-1] == found, when
    code, _, err = at(evening, "capture", "The Acme audit room is booked all week.", "--expires", "2026-11-19")
    assert code == 2 and err.count("\n") == 1, err
    assert (
        "('2026-11-19' is read as the end of 2026-11-19 in America/Los_Angeles (2026-11-20T08:00:00Z), which is not "
        "after now (2026-11-21T01:30:00Z))" in err
    )
    at(evening, "capture", "The primary database for billing is Postgres.", "--key", "billing-db")
    at(evening, "capture", "The primary database for billing is MySQL.", "--key", "billing-db")
    for until, end in (
        ("2026-12-10", "2026-12-10T08:00:00Z"),
        ("7d", "2026-11-28T01:30:00Z"),
        ("+2w", "2026-12-05T01:30:00Z"),
    ):
        code, out, err = at(evening, "--as", "human:alice", "--json", "conflicts", "resolve", "C1", "--snooze", until)
        assert code == 0 and json.loads(out)["details"]["until"] == end, (until, err)
    code, _, err = at(evening, "--as", "human:alice", "conflicts", "resolve", "C1", "--snooze", "2026-11-20")
    assert code == 2 and "'2026-11-20' is read as the start of 2026-11-20 in America/Los_Angeles" in err, err


def test_a_hidden_count_at_its_bound_is_shown_as_a_floor(capsys, root, monkeypatch):
    """The owner previewing a zone is told how many matches it hides, counted among a bounded number of them: at
    the bound the line says "N+" (it said "300 hidden" for tens of thousands)."""
    from memkeeper.core import retrieve

    for n in range(3):
        code, _, _ = run(capsys, root, "capture", f"Kestrel rollout step {n} uses canary wave {n}.")
        assert code == 0
    code, out, _ = run(capsys, root, "--as", "human:me", "retrieve", "kestrel", "--zone", "outside_contact")
    assert code == 0 and out.splitlines()[-1] == "0 result(s); 3 hidden by zone outside_contact"
    monkeypatch.setattr(retrieve, "CANDIDATES", 2)
    code, out, _ = run(capsys, root, "--as", "human:me", "retrieve", "kestrel", "--zone", "outside_contact")
    assert code == 0 and out.splitlines()[-1] == "0 result(s); 2+ hidden by zone outside_contact"


def test_quiz_scheduler_changes_an_existing_ledger_and_says_so(capsys, root):
    me = ("--as", "human:alice")
    code, _, err = run(capsys, root, *me, "quiz", "scheduler", "fsrs")
    assert code == 2 and err.strip() == "memkeeper: quiz_scheduler reject: no_ledger"
    assert run(capsys, root, *me, "quiz", "new-ledger")[0] == 0
    code, out, _ = run(capsys, root, *me, "quiz", "scheduler", "fsrs")
    assert code == 0 and out.startswith("quiz_scheduler: changed scheduler=fsrs receipt=")
    assert "scheduler: fsrs" in (root / "quiz" / "quiz-ledger.alice.md").read_text()
    code, _, err = run(capsys, root, *me, "quiz", "scheduler", "fsrs")
    assert code == 2 and "scheduler_unchanged" in err
    receipt = out.split("receipt=")[1].strip()
    assert run(capsys, root, *me, "undo", receipt)[0] == 0
    assert "scheduler: leitner" in (root / "quiz" / "quiz-ledger.alice.md").read_text()


def test_undeny_says_which_record_it_merged_into(capsys, root):
    """Denied, stated again from another source meanwhile: the undeny's text output names the record it merged the
    undenied one into (the same record the --json receipt gives under merged_into)."""
    text = "The on-call rota changes every Monday at nine."
    code, out, _ = run(capsys, root, "--json", "capture", text, "--source-ref", "raw/a.md#L1")
    first = json.loads(out)["details"]["memory_id"]
    assert run(capsys, root, "--as", "human:me", "verify", "deny", first)[0] == 0
    code, out, _ = run(capsys, root, "--json", "capture", text, "--source-ref", "raw/b.md#L2")
    second = json.loads(out)["details"]["memory_id"]
    code, out, _ = run(capsys, root, "--as", "human:me", "verify", "undeny", first)
    assert code == 0 and f"  merged: {first} into {second} (already holds this statement)" in out, out


def test_quiz_due_says_how_many_are_due_beyond_the_session(capsys, root):
    """After a long absence 40 cards were due and `quiz due` listed 7 without a word of the other 33."""
    for n in range(10):
        run(capsys, root, "capture", f"Locker {n + 1} on the third floor holds the spare badge set number {n + 20}.")
    code, out, _ = run(capsys, root, "--as", "human:alice", "quiz", "due")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 8, out
    assert lines[-1] == "10 due today: this session is the first 7; answer them, then ask again"
    code, out, _ = run(capsys, root, "--as", "human:alice", "--json", "quiz", "due")
    data = json.loads(out)
    assert (len(data["items"]), data["due_today"]) == (7, 10)


def test_quiz_due_asks_a_long_note_from_its_opening(capsys, root):
    """`quiz due` printed a long note's whole text as its question, on one line (55 KB for a 5,000-line log)."""
    log = "The nightly export writes 12 GB of parquet files.\n" + "\n".join(
        f"- checked the archive bucket after batch {i}" for i in range(400)
    )
    run(capsys, root, "capture", log, "--title", "Export log")
    code, out, _ = run(capsys, root, "--as", "human:alice", "quiz", "due")
    (line,) = out.splitlines()
    assert code == 0 and "The nightly export writes […] of parquet files." in line, line
    assert line.endswith(" …") and len(line) < 1_100, len(line)
    code, out, _ = run(capsys, root, "--as", "human:alice", "--json", "quiz", "due")
    (card,) = json.loads(out)["items"]
    assert card["answer"] == log and card["answer"][slice(*card["cloze"])] == "12 GB"


def test_quiz_record_says_when_the_card_comes_back(capsys, root):
    run(capsys, root, "capture", "Locker 4 on the third floor holds the spare badge set number 22.")
    mid = json.loads(run(capsys, root, "--as", "human:alice", "--json", "quiz", "due")[1])["items"][0]["memory_id"]
    code, out, _ = run(capsys, root, "--as", "human:alice", "quiz", "record", mid, "good")
    assert code == 0 and re.search(r"^quiz_record: recorded .* box=1 due=\d{4}-\d\d-\d\d ", out), out

"""The command line as SPEC §7 states it: global options anywhere, `capture -`, a closed stdout, undo by prefix,
human-only tier decisions."""

from __future__ import annotations

import io
import json
import sys

from memkeeper.tui.cli import hoist_globals, main

from .conftest import NOW, run


def test_global_options_may_stand_after_the_sub_command(capsys, root):
    code, out, _ = run(capsys, root, "capture", "The nightly ETL finishes by four in the morning.", "--json")
    assert code == 0 and json.loads(out)["status"] == "captured"
    code, out, _ = run(capsys, root, "retrieve", "nightly ETL", "--json", "--preview")
    assert code == 0 and json.loads(out)["details"]["result_count"] == 1


def test_hoisting_keeps_text_after_double_dash():
    assert hoist_globals(["capture", "--", "--json"]) == ["capture", "--", "--json"]
    assert hoist_globals(["capture", "x", "--as", "human:a", "--root=r"]) == [
        "--as",
        "human:a",
        "--root=r",
        "capture",
        "x",
    ]


def test_capture_dash_reads_the_statement_from_stdin(capsys, root, monkeypatch):
    text = "Ravi owns the billing service and its on-call rota.\n\n## Notes\n- kept as content"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8"))))
    code, out, _ = run(capsys, root, "--json", "capture", "-")
    assert code == 0
    page = json.loads(out)["details"]["page"]
    assert "- kept as content" in (root / page).read_text()


def test_capture_dash_with_stdin_closed_is_one_line(capsys, root, monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)  # what Python gives a process started with `<&-`
    code, _, err = run(capsys, root, "capture", "-")
    assert code == 2 and err.count("\n") == 1 and "stdin is closed" in err


def test_a_write_lock_held_elsewhere_is_one_line_and_nothing_written(capsys, root, monkeypatch):
    from memkeeper.core import store
    from memkeeper.core.lockfile import FileLock

    monkeypatch.setattr(store, "LOCK_TIMEOUT_S", 0.2)
    held = FileLock(str(root / ".memkeeper" / "write.lock"), timeout=1)
    with held.acquire():
        code, _, err = run(capsys, root, "capture", "The release train leaves every second Thursday.")
    assert code == 2 and err.count("\n") == 1
    assert "held by another process" in err and "internal error" not in err
    assert not list((root / "entries").glob("*.md"))


def test_retrieve_with_the_write_lock_held_elsewhere_answers_and_says_the_access_was_not_recorded(capsys, root):
    from memkeeper.core.lockfile import FileLock

    code, _, _ = run(capsys, root, "capture", "The release train leaves every second Thursday.")
    assert code == 0
    held = FileLock(str(root / ".memkeeper" / "write.lock"), timeout=1)
    with held.acquire():
        code, out, err = run(capsys, root, "retrieve", "release train")
    assert code == 0 and not err
    assert "The release train" in out
    assert out.strip().splitlines()[-1] == "1 result(s); access not recorded (write lock busy)"


def test_a_read_only_wiki_is_one_line_not_an_internal_error(capsys, root, monkeypatch):
    """SQLite opens the index with its write-ahead log beside it even to read, so on a read-only folder every
    command failed as an internal error ("unable to open database file"): now one line, exit 2, nothing touched."""
    import os

    real_access = os.access
    state = os.path.realpath(root / ".memkeeper")

    def access(path, mode, *args, **kwargs):  # what a read-only mount answers (root ignores permission bits)
        if os.path.realpath(path) == state and mode & os.W_OK:
            return False
        return real_access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    for argv in (["retrieve", "anything"], ["conflicts", "list"], ["capture", "The build farm has sixteen runners."]):
        code, _, err = run(capsys, root, *argv)
        assert code == 2 and err.count("\n") == 1 and "read-only" in err and "internal error" not in err


def test_negative_limit_is_refused_with_one_line(capsys, root):
    code, _, err = run(capsys, root, "retrieve", "anything", "--limit", "-5")
    assert code == 2 and err.count("\n") == 1 and "must be 1 or more" in err


def test_undo_accepts_a_unique_prefix_of_eight_hex(capsys, root):
    code, out, _ = run(capsys, root, "--json", "capture", "Kenji prefers async standups on Tuesdays and Thursdays.")
    mid = json.loads(out)["details"]["memory_id"]
    code, out, _ = run(capsys, root, "--as", "human:alice", "--json", "verify", "deny", mid)
    sha = json.loads(out)["receipt_sha256"]
    code, _, err = run(capsys, root, "--as", "human:alice", "undo", sha[:6])
    assert code == 2 and "at least 8 hex" in err
    code, out, _ = run(capsys, root, "--as", "human:alice", "--json", "undo", sha[:12])
    assert code == 0 and json.loads(out)["details"]["reverses"] == sha


def test_tier_commit_and_apply_refuse_an_agent(capsys, root):
    code, _, err = run(capsys, root, "--as", "agent:bot", "tiers", "plan", "--commit")
    assert code == 2 and "human_actor_required" in err
    code, _, err = run(capsys, root, "--as", "agent:bot", "tiers", "apply", "review/x.md", "--accept", "abc")
    assert code == 2 and "human_actor_required" in err


class _ClosedPipe(io.StringIO):
    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_stdout_ends_quietly(capsys, root, monkeypatch):
    run(capsys, root, "capture", "The staging database is refreshed from production every Sunday night.")
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    code = main(["--root", str(root), *NOW, "--json", "retrieve", "staging database", "--preview"])
    err = capsys.readouterr().err
    assert code == 0 and err == ""


def test_a_rejected_enum_names_the_value_and_lists_the_valid_ones(capsys, root):
    code, _, err = run(capsys, root, "capture", "The staging cluster runs in Frankfurt.", "--zone", "friends")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "invalid_trust_zone 'friends'" in err
    assert "private_self, trusted_collaborator, outside_contact, paid_public" in err
    code, _, err = run(capsys, root, "capture", "The staging cluster runs in Frankfurt.", "--category", "gossip")
    assert code == 2 and "gossip" in err and "preference" in err and "draft" in err


def test_sub_command_help_lists_the_allowed_values(capsys):
    for argv, values in (
        (["capture", "--help"], ["private_self", "do_not_export", "agent_inferred", "expiring", "milestone"]),
        (["retrieve", "--help"], ["paid_public"]),
        (["quiz", "record", "--help"], ["again", "skip"]),
    ):
        try:
            main(argv)
        except SystemExit:
            pass
        out = " ".join(capsys.readouterr().out.split())
        for value in values:
            assert value in out, (argv, value)


def test_verify_confirm_of_several_ids_is_one_batch_with_one_receipt_and_one_undo(capsys, root):
    ids = []
    for text in ("The staging cluster runs in Frankfurt.", "Nightly backups are kept for thirty days."):
        code, out, _ = run(capsys, root, "--json", "capture", text)
        ids.append(json.loads(out)["details"]["memory_id"])
    code, out, _ = run(capsys, root, "--json", "--as", "human:ana", "verify", "confirm", *ids)
    batch = json.loads(out)
    assert code == 0 and batch["action"] == "confirm_many" and sorted(batch["details"]["memory_ids"]) == sorted(ids)
    code, out, _ = run(capsys, root, "--json", "verify", "list")
    assert code == 0 and json.loads(out) == []
    code, out, _ = run(capsys, root, "--json", "--as", "human:ana", "undo", batch["receipt_sha256"][:12])
    assert code == 0 and json.loads(out)["status"] == "undone"
    code, out, _ = run(capsys, root, "--json", "verify", "list")
    assert sorted(item["memory_id"] for item in json.loads(out)) == sorted(ids)


def test_tier_apply_reads_the_accepted_ids_from_stdin(capsys, root, monkeypatch):
    """A review of tens of thousands of candidates does not fit one argument: `--accept -` reads the ids from
    stdin, one or more a line, commas or white space between them."""
    for n, word in enumerate(["harbor", "lumen", "quill"]):
        run(capsys, root, "--now", f"2026-03-0{n + 1}T09:00:00Z", "capture", f"The {word} report goes out on Fridays.")
    for n in range(5):  # hot.md links the last five captures (protected): push the old ones out of it
        run(capsys, root, "capture", f"Fresh note number {n} about the kestrel rollout waves.")
    code, out, _ = run(capsys, root, "--as", "human:alice", "--json", "tiers", "plan", "--commit")
    review = json.loads(out)["details"]["review"]
    ids = [
        line.split("candidate: ", 1)[1][:12]
        for line in (root / review).read_text().splitlines()
        if "candidate: " in line
    ]
    assert len(ids) == 3
    given = f"{ids[0]}, {ids[1]}\n{ids[2]}\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(given.encode("utf-8"))))
    code, out, err = run(capsys, root, "--as", "human:alice", "--json", "tiers", "apply", review, "--accept", "-")
    assert code == 0, err
    assert sorted(json.loads(out)["details"]["accepted_ids"]) == sorted(ids)

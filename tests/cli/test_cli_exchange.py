"""`memkeeper export` / `memkeeper import` from the command line: an envelope carries a record's own expiry and
recall phrases, and leaves home what has already expired (SPEC §4, §7)."""

from __future__ import annotations

import json
from pathlib import Path

from memkeeper.tui.cli import main


def cli(capsys, root, now, *args):
    code = main(["--root", str(root), "--now", now, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_export_then_import_keeps_expiry_and_recall_and_leaves_the_expired_home(tmp_path, capsys):
    """The exploratory repro: a note expired on 2026-01-12 was exported on 2026-01-20 and came back alive, with
    2026-02-03 (the import's time + 14 days) as its expiry; so did a note meant to last until 2026-12-31, and the
    recall phrase that found a third no longer did."""
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        assert cli(capsys, root, "2026-01-10T10:00:00Z", "init")[0] == 0
    day0, day = "2026-01-10T10:00:00Z", "2026-01-20T10:00:00Z"
    for args in (
        (
            ["Use the staging-2 cluster for load tests while staging-1 is rebuilt.", "--title", "Load test cluster"],
            ["--expires", "2026-01-12T00:00:00Z"],
        ),
        (
            ["The quarterly planning freeze applies to all infra repos this year.", "--title", "Planning freeze"],
            ["--expires", "2026-12-31T00:00:00Z"],
        ),
        (
            ["Before a deploy, tag the release and drain the canary pool.", "--title", "Deploy checklist"],
            ["--recall", "release steps"],
        ),
    ):
        code, out, err = cli(capsys, a, day0, "capture", *args[0], *args[1])
        assert code == 0 and out.startswith("capture: captured"), (out, err)

    code, out, err = cli(capsys, a, day, "--json", "export", "--zone", "private_self", "--include-content")
    assert code == 0, err
    receipt = json.loads(out)
    assert receipt["details"]["count"] == 2 and receipt["details"]["expired_left_out"] == 1
    envelope = a / receipt["details"]["envelope"]
    assert "staging-2" not in envelope.read_text()

    code, out, err = cli(capsys, b, day, "--json", "import", str(envelope))
    assert code == 0 and err == ""
    assert [r["status"] for r in json.loads(out)["details"]["results"]] == ["captured", "captured"]

    # Past the default 14 days from the import, the freeze is still found; the expired note never arrived.
    code, out, _ = cli(
        capsys, b, "2026-03-01T10:00:00Z", "--json", "retrieve", "quarterly planning freeze", "--preview"
    )
    assert [r["title"] for r in json.loads(out)["details"]["results"]] == ["Planning freeze"]
    code, out, _ = cli(capsys, b, day, "--json", "retrieve", "staging-2 load tests cluster", "--preview")
    assert json.loads(out)["details"]["results"] == []
    code, out, _ = cli(capsys, b, day, "--json", "retrieve", "release steps", "--preview")
    assert [r["title"] for r in json.loads(out)["details"]["results"]] == ["Deploy checklist"]
    assert cli(capsys, b, day, "check")[0] == 0


def test_the_text_output_says_what_was_left_out_and_what_each_item_became(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        assert cli(capsys, root, "2026-01-10T10:00:00Z", "init")[0] == 0
    early = "2026-01-10T10:00:00Z"
    cli(capsys, a, early, "capture", "Use staging-2 for load tests this week.", "--expires", "2026-01-12T00:00:00Z")
    cli(capsys, a, early, "capture", "The quarterly planning freeze applies to all infra repos.")
    code, out, _ = cli(capsys, a, early, "export", "--zone", "private_self", "--include-content")
    assert code == 0 and "count=2" in out and "expired_left_out" not in out  # nothing had expired
    envelope = a / out.split("envelope=")[1].split()[0]
    code, out, _ = cli(capsys, a, "2026-01-20T10:00:00Z", "export", "--zone", "private_self", "--include-content")
    assert "count=1 expired_left_out=1" in out

    # the early envelope, imported after the note expired: the one item arrives, the other is said to be left out
    code, out, _ = cli(capsys, b, "2026-01-20T10:00:00Z", "import", str(envelope))
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "  exported by agent:cli at 2026-01-10T10:00:00Z"  # its header hash vouches for both
    assert lines[2] == "  items: 1 captured"
    assert lines[3].startswith("  skipped: mem_") and lines[3].endswith("(expired 2026-01-12T00:00:00Z)")


def test_the_text_output_says_why_an_item_was_refused_and_what_it_skipped(tmp_path, capsys):
    """`items: 1 reject` was all a person read of an item refused: its capture writes no receipt of its own."""
    from memkeeper.core.receipts import canonical_json
    from memkeeper.core.text import sha256_hex

    a, b = tmp_path / "a", tmp_path / "b"
    now = "2026-01-10T10:00:00Z"
    for root in (a, b):
        assert cli(capsys, root, now, "init")[0] == 0
    cli(capsys, a, now, "capture", "The quarterly planning freeze applies to all infra repos.")
    code, out, _ = cli(capsys, a, now, "export", "--zone", "private_self", "--include-content")
    data = json.loads((a / out.split("envelope=")[1].split()[0]).read_text())
    first = data["items"][0]
    data["items"] = [{**first, "trust_zone": "everyone"}, {**first, "memory_id": "mem_0000000000000001"}]
    payload = {k: data.get(k) for k in ("zone", "include_content", "items", "selected_ids", "source_receipt_sha256")}
    data["payload_sha256"] = sha256_hex(canonical_json(payload))
    data.pop("header_sha256")
    made = tmp_path / "made.json"
    made.write_text(json.dumps(data))
    code, out, err = cli(capsys, b, now, "import", str(made))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1:] == [
        "  exported by agent:cli at 2026-01-10T10:00:00Z (unverified: no header_sha256)",
        "  items: 1 captured, 1 reject",
        f"  reject: {first['memory_id']} (invalid_trust_zone)",
    ], out


def test_ctrl_c_stops_an_import_between_items_and_says_how_to_bring_the_rest(tmp_path, capsys, monkeypatch):
    """The first Ctrl-C during an import stops it before the next item (each item is written whole): the receipt
    is `partial`, the exit is 130, and the same import run again brings the rest."""
    import os
    import signal

    from memkeeper.core.api import Engine

    a, b = tmp_path / "a", tmp_path / "b"
    day = "2026-01-10T10:00:00Z"
    for root in (a, b):
        assert cli(capsys, root, day, "init")[0] == 0
    for name in ("Kestrel", "Heron", "Osprey"):
        cli(capsys, a, day, "capture", f"The {name} service keeps access logs for ninety days.", "--title", name)
    code, out, _ = cli(capsys, a, day, "--json", "export", "--zone", "private_self", "--include-content")
    envelope = str(a / json.loads(out)["details"]["envelope"])

    real = Engine.import_envelope

    def pressed_after_the_first(self, path, **kw):
        shown = kw["progress"]

        def progress(done, items):
            shown(done, items)
            if done == 1:
                os.kill(os.getpid(), signal.SIGINT)  # the person presses Ctrl-C

        return real(self, path, **{**kw, "progress": progress})

    monkeypatch.setattr(Engine, "import_envelope", pressed_after_the_first)
    before = signal.getsignal(signal.SIGINT)
    code, out, err = cli(capsys, b, day, "import", envelope)
    assert code == 130 and out.startswith("import: partial") and "items: 1 captured" in out
    assert err.strip() == (
        "memkeeper: import stopped after 1 of 3 items; run it again to bring the rest (what arrived is skipped as "
        "already imported)"
    )
    assert signal.getsignal(signal.SIGINT) is before  # Ctrl-C is the shell's again
    monkeypatch.undo()
    code, out, err = cli(capsys, b, day, "import", envelope)
    assert code == 0 and err == "" and "items: 2 captured" in out and "(already_imported" in out


SERVICES = (
    "The Kestrel service keeps access logs for ninety days.",
    "Heron invoices are sent on the first Monday of each month.",
    "The Osprey build agents run Debian twelve with sixteen gigabytes of memory.",
    "Plover release notes are written in the wiki by the on-call engineer.",
)


def envelope_of_four(capsys, tmp_path, day: str) -> tuple[Path, str]:
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        assert cli(capsys, root, day, "init")[0] == 0
    for text in SERVICES:
        assert cli(capsys, a, day, "capture", text)[0] == 0
    code, out, _ = cli(capsys, a, day, "--json", "export", "--zone", "private_self", "--include-content")
    return b, str(a / json.loads(out)["details"]["envelope"])


def imports(root: Path) -> list[dict]:
    return [
        json.loads(line)
        for f in sorted((root / "receipts").glob("*.jsonl"))
        for line in f.read_text().splitlines()
        if json.loads(line)["action"] == "import"
    ]


def test_an_import_a_busy_lock_stops_half_way_says_what_arrived_and_records_a_partial_receipt(
    tmp_path, capsys, monkeypatch
):
    """The write lock held by another writer past the wait at the third item: the import said "nothing was written,
    try again" and exited 2 after writing two records, with no import receipt. It now stops there as Ctrl-C stops
    it: a `partial` receipt (`stopped.reason: write_lock_busy`), a line that says how far it went, and the same
    import again brings the rest. Exit 2, as a busy lock gives: a script retries. Stopped at the first item, when
    nothing was written, the lock's own line stands."""
    from memkeeper.core.capture import CaptureOps
    from memkeeper.core.lockfile import LockTimeout

    day = "2026-01-10T10:00:00Z"
    b, envelope = envelope_of_four(capsys, tmp_path, day)
    real = CaptureOps.capture
    calls: list[int] = []

    def busy_at(n: int):
        def capture(self, *args, **kwargs):
            calls.append(1)
            if len(calls) == n:
                raise LockTimeout(str(b / ".memkeeper" / "write.lock"))
            return real(self, *args, **kwargs)

        return capture

    monkeypatch.setattr(CaptureOps, "capture", busy_at(1))
    code, out, err = cli(capsys, b, day, "import", envelope)
    assert (code, out) == (2, "") and err.strip().endswith("nothing was written, try again"), err
    assert not list((b / "entries").glob("*.md")) and imports(b) == []

    calls.clear()
    monkeypatch.setattr(CaptureOps, "capture", busy_at(3))
    code, out, err = cli(capsys, b, day, "import", envelope)
    assert code == 2 and out.startswith("import: partial") and "items: 2 captured" in out, out
    assert err.strip() == (
        "memkeeper: import stopped after 2 of 4 items: the write lock was held by another process past the wait; "
        "run it again to bring the rest (what arrived is skipped as already imported)"
    )
    [partial] = imports(b)
    assert partial["status"] == "partial"
    assert partial["details"]["stopped"] == {"done": 2, "items": 4, "reason": "write_lock_busy"}
    assert len(list((b / "entries").glob("*.md"))) == 2
    monkeypatch.undo()
    code, out, err = cli(capsys, b, day, "import", envelope)
    assert code == 0 and err == "" and "items: 2 captured" in out and out.count("(already_imported") == 2, out
    assert len(list((b / "entries").glob("*.md"))) == 4


def test_an_import_the_disk_refuses_half_way_says_what_arrived_and_records_a_partial_receipt(
    tmp_path, capsys, monkeypatch
):
    """The disk refuses the third item's write (full, read-only): the two before it stand, the import stops there
    with a `partial` receipt (`stopped.reason: write_failed`) and a line that says how far it went and why, exit 2;
    the same import again, once the disk takes writes, brings the rest."""
    from memkeeper.core.capture import CaptureOps
    from memkeeper.core.errors import WriteFailed

    day = "2026-01-10T10:00:00Z"
    b, envelope = envelope_of_four(capsys, tmp_path, day)
    real = CaptureOps.capture
    calls: list[int] = []

    def refused_at_third(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise WriteFailed("entries/: No space left on device; nothing was written")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(CaptureOps, "capture", refused_at_third)
    code, out, err = cli(capsys, b, day, "import", envelope)
    assert code == 2 and out.startswith("import: partial") and "items: 2 captured" in out, out
    assert err.strip() == (
        "memkeeper: import stopped after 2 of 4 items: the disk refused a write; "
        "run it again to bring the rest (what arrived is skipped as already imported)"
    )
    [partial] = imports(b)
    assert partial["details"]["stopped"] == {"done": 2, "items": 4, "reason": "write_failed"}
    assert len(list((b / "entries").glob("*.md"))) == 2
    monkeypatch.undo()
    code, out, err = cli(capsys, b, day, "import", envelope)
    assert code == 0 and err == "" and "items: 2 captured" in out and out.count("(already_imported") == 2, out
    assert len(list((b / "entries").glob("*.md"))) == 4


def test_an_import_whose_own_receipt_waits_out_a_busy_lock_says_how_many_items_arrived(tmp_path, capsys, monkeypatch):
    """Another writer takes the lock after two items and keeps it: the third item waits out the lock, and so does
    the import's receipt. No receipt can be written without the lock, so the line must be true on its own: two were
    written, the import's receipt was not, and running it again brings the rest."""
    import threading

    from memkeeper.core import store
    from memkeeper.core.api import Engine

    day = "2026-01-10T10:00:00Z"
    b, envelope = envelope_of_four(capsys, tmp_path, day)
    monkeypatch.setattr(store, "LOCK_TIMEOUT_S", 0.2)
    other = Engine.open(b)
    held, release = threading.Event(), threading.Event()

    def holder() -> None:
        with other.store.lock:
            held.set()
            release.wait(10)

    real = Engine.import_envelope
    thread = threading.Thread(target=holder)

    def taken_after_two(self, path, **kw):
        shown = kw["progress"]

        def progress(done, items):
            shown(done, items)
            if done == 2:  # another writer takes the lock and keeps it
                thread.start()
                assert held.wait(5)

        return real(self, path, **{**kw, "progress": progress})

    monkeypatch.setattr(Engine, "import_envelope", taken_after_two)
    try:
        code, out, err = cli(capsys, b, day, "import", envelope)
    finally:
        release.set()
        thread.join(5)
        other.close()
    assert (code, out) == (2, "")
    assert err.strip() == (
        f"memkeeper: the write lock {b / '.memkeeper' / 'write.lock'} is held by another process: the import stopped "
        "after 2 of 4 items and 2 were written, each with its capture's receipt, but not the import's own receipt; "
        "run it again to bring the rest (what arrived is skipped as already imported)"
    )
    assert len(list((b / "entries").glob("*.md"))) == 2 and imports(b) == []
    monkeypatch.undo()
    code, out, err = cli(capsys, b, day, "import", envelope)
    assert code == 0 and "items: 2 captured" in out and out.count("(already_imported") == 2, out

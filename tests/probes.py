"""Crash and contention probes: random SIGKILLs during writes, and many writer processes beside readers.

The fast versions run in `make test` (tests/core/test_probes.py); `make stress` runs the long ones through
scripts/stress.py and prints the figures. Run as a script, this file is the worker a probe starts:

    python tests/probes.py mixed ROOT SEED            # captures and decisions until killed
    python tests/probes.py capture ROOT TAG N          # N captures through the CLI entry point, one JSON line each
    python tests/probes.py read ROOT STOPFILE          # read-only commands until STOPFILE exists
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
HUMAN = "human:stress"
HERE = Path(__file__).resolve()
WORDS = (
    "atlas harbor lumen quill ember falcon garnet heron indigo juniper kestrel lagoon meadow nimbus onyx pylon "
    "quartz raven sierra tundra umber vertex willow xenon yonder zephyr cobalt delta ferris gable"
).split()


# ---------------------------------------------------------------------------------------------------- workers


def _cli(args: list[str]) -> tuple[int, dict[str, Any] | None, str]:
    """Run one `memkeeper` command in this process; (exit code, --json output, stderr)."""
    from memkeeper.tui.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    try:
        data = json.loads(out.getvalue()) if out.getvalue().strip() else None
    except ValueError:
        data = None
    return code, data, err.getvalue().strip()


def _statement(rng: random.Random, n: int) -> str:
    words = rng.sample(WORDS, 5)
    return f"Stress note {n}: the {words[0]} service reads {words[1]} {words[2]} before {words[3]} {words[4]} runs."


def worker_capture(root: str, tag: str, n: int) -> None:
    """N captures, each a full CLI command (open, sync, capture, close), each reported as one JSON line."""
    rng = random.Random(tag)
    for i in range(n):
        t0 = time.perf_counter()
        code, data, err = _cli(
            [
                "--root",
                root,
                "--json",
                "--now",
                (NOW + timedelta(seconds=i)).isoformat(),
                "capture",
                f"{_statement(rng, i)} ({tag}-{i})",
                "--title",
                f"Stress {tag} {i}",
            ]
        )
        took = time.perf_counter() - t0
        line = {
            "tag": tag,
            "i": i,
            "code": code,
            "seconds": round(took, 4),
            "err": err[:300],
            "status": data and data.get("status"),
            "sha": data and data.get("receipt_sha256"),
            "page": data and data.get("details", {}).get("page"),
        }
        print(json.dumps(line), flush=True)


def worker_read(root: str, stopfile: str) -> None:
    """Read-only commands in a loop until the stop file appears; one JSON line per command."""
    commands = [["retrieve", "stress service", "--preview"], ["conflicts", "list"], ["verify", "list"], ["check"]]
    n = 0
    while not os.path.exists(stopfile):
        cmd = commands[n % len(commands)]
        t0 = time.perf_counter()
        code, data, err = _cli(["--root", root, "--json", "--now", NOW.isoformat(), *cmd])
        if cmd[0] == "check" and isinstance(data, dict) and data.get("problems"):
            err = "; ".join(data["problems"][:3])  # a write in progress must never look like damage
        print(
            json.dumps({"cmd": cmd[0], "code": code, "seconds": round(time.perf_counter() - t0, 4), "err": err[:300]}),
            flush=True,
        )
        n += 1


def worker_mixed(root: str, seed: int) -> None:
    """Captures (new, restated, contradicting) and decisions (resolve, confirm, deny, undeny, quiz record) until
    killed. Prints `ready`, then one JSON line per operation after it returned."""
    from memkeeper.core import Engine

    rng = random.Random(seed)
    eng = Engine.open(root)
    eng.undo_ops, eng.capture_ops  # noqa: B018 - build the parts (imports) before the kills start timing operations
    print("ready", flush=True)
    now = NOW + timedelta(hours=seed)
    n = 0
    while True:
        n += 1
        now += timedelta(seconds=1)
        op = rng.choice(["capture", "capture", "restate", "contradict", "resolve", "confirm", "deny", "undeny", "quiz"])
        r = None
        if op == "capture":
            r = eng.capture(
                _statement(rng, n) + f" ({seed}-{n})",
                now=now,
                actor="agent:stress",
                title=f"Kill {seed} {n}",
                source_ref=f"raw/kill-{seed}.md#L{n}",
            )
        elif op in ("restate", "contradict"):
            key = f"budget-{rng.randrange(6)}"
            amount = 50 if op == "restate" else rng.choice([80, 120, 200])
            r = eng.capture(
                f"The {key.replace('-', ' ')} for the quarter is ${amount}k.",
                now=now,
                actor="agent:stress",
                key=key,
                title=key,
                source_ref="raw/budget.md#L1",
            )
        elif op == "resolve":
            open_c = eng.conflicts(now=now)
            if open_c:
                r = eng.resolve_conflict(
                    rng.choice(open_c).conflict_id, rng.choice(["existing", "incoming", "both"]), now=now, actor=HUMAN
                )
        elif op in ("confirm", "deny"):
            pending = eng.pending_verifications(limit=20)
            if pending:
                mid = rng.choice(pending).memory_id
                r = (eng.confirm if op == "confirm" else eng.deny)(mid, now=now, actor=HUMAN)
        elif op == "undeny":
            denied = eng.denied_records()
            if denied:
                r = eng.undeny(rng.choice(denied).memory_id, now=now, actor=HUMAN)
        else:
            cards = eng.quiz_session("stress", now=now)
            if cards:
                r = eng.quiz_record(
                    rng.choice(cards).memory_id,
                    rng.choice(["good", "again", "easy"]),
                    now=now,
                    actor=HUMAN,
                    person="stress",
                )
        if r is not None:
            print(json.dumps({"op": op, "action": r.action, "status": r.status, "sha": r.receipt_sha256}), flush=True)


# ---------------------------------------------------------------------------------------------------- probes


def _spawn(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(HERE), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=str(HERE.parent.parent),
    )


def seed_wiki(root: Path) -> None:
    """A small wiki with something in every queue the mixed worker decides on."""
    from memkeeper.core import Engine

    eng = Engine.init(root, now=NOW - timedelta(days=1))
    rng = random.Random(0)
    for i in range(12):
        eng.capture(
            _statement(rng, i), now=NOW - timedelta(hours=20 - i), title=f"Seed {i}", source_ref=f"raw/s.md#L{i}"
        )
    for k in range(6):
        eng.capture(
            f"The budget {k} for the quarter is $50k.",
            now=NOW - timedelta(hours=5),
            key=f"budget-{k}",
            title=f"budget-{k}",
            source_ref="raw/budget.md#L1",
        )
    eng.close()


@dataclass
class KillReport:
    kills: int = 0
    ops_done: int = 0
    intents_left: int = 0  # kills that landed after a commit point (an intent to complete)
    staged_left: int = 0  # kills that landed before one (staged files to discard)
    lost: list[str] = field(default_factory=list)  # operations reported done whose receipt is not in the trail
    unparseable: list[str] = field(default_factory=list)
    next_command_failures: list[str] = field(default_factory=list)
    check_problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.lost or self.unparseable or self.next_command_failures or self.check_problems)


def kill_probe(root: Path, kills: int, *, seed: int = 1, max_delay: float = 0.6, log=None) -> KillReport:
    """`kills` times: start a worker doing captures and decisions, SIGKILL it at a random moment, then require that
    every page parses, that the next command runs (and completes what the kill interrupted), that `check` is
    clean, and that every operation the worker reported done is in receipts/, log.md and PATTERNS.jsonl."""
    from memkeeper.core import Engine
    from memkeeper.core.journal import INTENT, leftover_stage
    from memkeeper.core.pagefmt import parse_entry

    rng = random.Random(seed)
    rep = KillReport()
    t0 = time.perf_counter()
    done: list[dict[str, Any]] = []
    for k in range(kills):
        proc = _spawn("mixed", str(root), str(seed * 100_000 + k))
        assert proc.stdout is not None
        first = proc.stdout.readline()
        if first.strip() != "ready":
            proc.kill()
            raise RuntimeError(f"worker did not start: {first!r} {proc.stderr.read() if proc.stderr else ''}")
        time.sleep(rng.uniform(0.0, max_delay))
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate()
        rep.kills += 1
        for line in out.splitlines():
            try:
                done.append(json.loads(line))
            except ValueError:
                pass  # a line cut by the kill
        rep.intents_left += (root / INTENT).exists()
        rep.staged_left += bool(leftover_stage(root))
        for page in sorted((root / "entries").glob("*.md")):
            try:
                parse_entry(page.read_text(encoding="utf-8"))
            except Exception as exc:  # noqa: BLE001 - any failure to parse is the finding
                rep.unparseable.append(f"kill {k}: {page.name}: {exc}")
        code, _, err = _cli(
            [
                "--root",
                str(root),
                "--now",
                (NOW + timedelta(days=30, seconds=k)).isoformat(),
                "capture",
                f"After kill {k}: the {rng.choice(WORDS)} probe wrote its follow-up note.",
                "--title",
                f"After kill {k}",
            ]
        )
        if code != 0:
            rep.next_command_failures.append(f"kill {k}: exit {code}: {err}")
        eng = Engine.open(root)
        report = eng.check()
        eng.close()
        if not report.ok:
            rep.check_problems += [f"kill {k}: {p}" for p in report.problems]
        if log:
            log(
                f"kill {k + 1}/{kills}: {len(done)} operations so far, intents left {rep.intents_left}, "
                f"staged left {rep.staged_left}"
            )
        if not rep.ok:
            break
    rep.ops_done = len(done)
    receipts, logged, patterned = _trail(root)
    for d in done:
        if d["status"] in ("reject", "refused"):
            continue  # refusals change nothing and are not written
        for name, seen in (("receipts/", receipts), ("log.md", logged), ("PATTERNS.jsonl", patterned)):
            if d["sha"] not in seen:
                rep.lost.append(f"{d['action']} {d['status']} {d['sha'][:12]}… missing from {name}")
    rep.seconds = time.perf_counter() - t0
    return rep


def _trail(root: Path) -> tuple[set[str], set[str], set[str]]:
    receipts = set()
    for f in (root / "receipts").glob("*.jsonl"):
        for line in f.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError):
                receipts.add(json.loads(line)["receipt_sha256"])
    logged = {
        line.strip().strip("|").split("|")[-1].strip()
        for line in (root / "log.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("|")
    }
    patterned = set()
    for line in (root / "patterns" / "PATTERNS.jsonl").read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(ValueError, KeyError, TypeError):
            patterned.add(json.loads(line)["payload"]["receipt_sha256"])
    return receipts, logged, patterned


@dataclass
class ContentionReport:
    writers: int = 0
    captures: int = 0
    failures: list[str] = field(default_factory=list)  # non-zero exits of captures
    lost: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    reader_calls: int = 0
    reader_failures: list[str] = field(default_factory=list)
    reader_latencies: list[float] = field(default_factory=list)
    check_problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.failures or self.lost or self.reader_failures or self.check_problems)

    def figures(self) -> dict[str, Any]:
        lat = sorted(self.latencies)
        rl = sorted(self.reader_latencies)

        def pct(xs: list[float], q: float) -> float:
            return round(xs[min(len(xs) - 1, int(q * len(xs)))], 3) if xs else 0.0

        return {
            "writers": self.writers,
            "captures": self.captures,
            "failures": len(self.failures),
            "lost": len(self.lost),
            "statuses": self.statuses,
            "wall_seconds": round(self.seconds, 1),
            "captures_per_second": round(self.captures / self.seconds, 1) if self.seconds else 0.0,
            "capture_latency_median_s": round(statistics.median(lat), 3) if lat else 0.0,
            "capture_latency_p95_s": pct(lat, 0.95),
            "capture_latency_max_s": round(lat[-1], 3) if lat else 0.0,
            "reader_calls": self.reader_calls,
            "reader_failures": len(self.reader_failures),
            "reader_latency_median_s": round(statistics.median(rl), 3) if rl else 0.0,
            "reader_latency_p95_s": pct(rl, 0.95),
            "check_problems": len(self.check_problems),
        }


def contention_probe(root: Path, writers: int, captures: int, readers: int) -> ContentionReport:
    """`writers` processes × `captures` CLI captures each, beside `readers` processes running read-only commands.
    Requires: every capture exits 0 and is captured, every one is in receipts/, log.md and its page exists, no
    read-only command exits 1, and `check` is clean afterwards."""
    from memkeeper.core import Engine

    Engine.init(root, now=NOW).close()
    rep = ContentionReport(writers=writers)
    stop = root.parent / f".{root.name}.stop"
    stop.unlink(missing_ok=True)
    t0 = time.perf_counter()
    readers_p = [_spawn("read", str(root), str(stop)) for _ in range(readers)]
    writers_p = [_spawn("capture", str(root), f"w{i}", str(captures)) for i in range(writers)]
    outputs = [p.communicate() for p in writers_p]
    rep.seconds = time.perf_counter() - t0
    stop.touch()
    reader_out = [p.communicate() for p in readers_p]
    stop.unlink(missing_ok=True)
    done = []
    for (out, err), p in zip(outputs, writers_p, strict=True):
        lines = [json.loads(x) for x in out.splitlines() if x.startswith("{")]
        if p.returncode != 0 or len(lines) != captures:
            rep.failures.append(f"writer exited {p.returncode} after {len(lines)} captures: {err[-500:]}")
        for d in lines:
            rep.captures += 1
            rep.latencies.append(d["seconds"])
            rep.statuses[str(d["status"])] = rep.statuses.get(str(d["status"]), 0) + 1
            if d["code"] != 0:
                rep.failures.append(f"{d['tag']}-{d['i']}: exit {d['code']}: {d['err']}")
            else:
                done.append(d)
    for (out, err), p in zip(reader_out, readers_p, strict=True):
        if p.returncode != 0:
            rep.reader_failures.append(f"reader exited {p.returncode}: {err[-500:]}")
        for x in out.splitlines():
            if not x.startswith("{"):
                continue
            d = json.loads(x)
            rep.reader_calls += 1
            rep.reader_latencies.append(d["seconds"])
            if d["code"] != 0:
                rep.reader_failures.append(f"{d['cmd']}: exit {d['code']}: {d['err']}")
    receipts, logged, patterned = _trail(root)
    for d in done:
        if d["status"] != "captured":
            rep.lost.append(f"{d['tag']}-{d['i']}: status {d['status']}")
        elif d["sha"] not in receipts or d["sha"] not in logged or d["sha"] not in patterned:
            rep.lost.append(f"{d['tag']}-{d['i']}: receipt {d['sha'][:12]}… missing from the trail")
        elif not (root / d["page"]).is_file():
            rep.lost.append(f"{d['tag']}-{d['i']}: page {d['page']} missing")
    eng = Engine.open(root)
    report = eng.check()
    pages = int(eng.index.scalar("SELECT count(*) FROM records") or 0)
    eng.close()
    rep.check_problems = list(report.problems)
    if pages != len(done):
        rep.lost.append(f"{pages} records indexed for {len(done)} captures")
    return rep


if __name__ == "__main__":
    kind, *rest = sys.argv[1:]
    if kind == "mixed":
        worker_mixed(rest[0], int(rest[1]))
    elif kind == "capture":
        worker_capture(rest[0], rest[1], int(rest[2]))
    elif kind == "read":
        worker_read(rest[0], rest[1])
    else:
        raise SystemExit(f"unknown worker {kind!r}")

"""The scale bench (issue 10): every figure a user feels, at 1k and 100k records, beside the floors measured in the
same run, with PASS/FAIL against the goals.

    python benchmarks/scale.py [--sizes 1000,100000] [--quick] [--parts build,cli,capture,desk,tiers,long,views]

Wikis are built from realistic ~1.5 KB pages written with the engine's own renderer (`pagefmt.render_entry`). The
pages of each size are cached under `.bench-cache/` (keyed by GEN_VERSION: change the generator, bump it); each run
works on a copy whose `entries/` is hard-linked to the cache (the engine replaces pages, never edits them in place,
so the cache is never changed) and builds its index from nothing (the cold build).

Figures:
- cold index build (pages/s, `Engine.open` timed in a fresh process, as a command opens a wiki; the median of three
  builds from nothing), warm `Engine.open`;
- CLI `retrieve` / `capture` wall time as subprocesses (what an agent waits for);
- capture median in-process, with statements that share subjects (and half of them keys) with existing records, so
  contradiction detection runs on every capture; and again with statements whose other words are each in nearly
  `SUBJECT_COMMON` records, the candidate search's worst case (twelve records found and decided at any size: in
  the first captures the synthetic nouns are too common to be looked up at 100k, so fewer records are decided
  there than at 1k, and that ratio says less about the search);
- the desk's header counts after a write (`Engine.counts`);
- long notes (`long_note_figures`): a ~12 KB session summary captured again with one sentence edited, a 300-line
  checklist captured again with one box ticked, and a new single-line note of 64 KiB (the most a capture takes: one
  word repeated, the shape that found the readers quadratic),
  each beside the median of a short capture timed in the same rounds (what detection costs on a long text, against
  what it costs on a line);
- a limited MCP server's filtered views (`views_figures`): hot.md and index.md as a trusted_collaborator server
  builds them (every active record the zone may see, listed from the index), beside a read of the index columns
  they are listed from;
- the desk (benchmarks/desk_probe.py, a subprocess driven by Pilot): ready until idle, pane switch from keypress to
  the first paint of the new pane, peak RSS.
Floors: raw read of every page, libyaml parse of every frontmatter, a raw FTS5 query, the FTS5 candidate ranking of
the CLI's `retrieve` query, `python -c pass`, importing the CLI module.

`--parts` runs only some of the figures (build: cold build, warm open and the floors; cli: the CLI wall times;
capture: the in-process capture and header counts; desk: the desk probe; tiers: the tier cleanup; long: the long
notes; views: a limited MCP server's hot.md and index.md); the others are left out of the table.
The CLI rows run with the package byte-compiled first (`compileall`, as pip installs it): an interpreter that may
not write bytecode (PYTHONDONTWRITEBYTECODE) would otherwise compile every memkeeper module on every start.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CACHE = REPO / ".bench-cache"
GEN_VERSION = 2
BUILD_RUNS = 3  # cold builds timed per size (the median is reported)
NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
PY = sys.executable
MEMKEEPER = (
    [PY, "-m", "memkeeper.tui.cli"]
    if not (Path(PY).parent / "memkeeper").exists()
    else [str(Path(PY).parent / "memkeeper")]
)

_SYLLABLES = "ka lo mi ne ru sa ti vo be da fe gu hi jo ke lu ma no pe qu ri so tu va we xi yo zu".split()
VOCAB = [a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in ("", "n", "r", "s")][:4000]
ZIPF = [1.0 / (rank + 1) for rank in range(len(VOCAB))]
NAMES = [a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in _SYLLABLES]  # 24k subject names
NOUNS = [
    "service",
    "database",
    "pipeline",
    "dashboard",
    "runbook",
    "cluster",
    "gateway",
    "scheduler",
    "backup",
    "release",
    "budget",
    "contract",
    "roadmap",
    "team",
    "vendor",
    "report",
]
ATTRS = ["owner", "region", "port", "timeout", "retention", "deadline", "limit", "version", "channel", "format"]
CATS = ["fact", "project", "preference", "decision", "insight", "lesson", "milestone", "commitment", "risk", "question"]
ZONES = ["private_self", "trusted_collaborator", "outside_contact"]
SOURCES = ["agent_inferred", "user_stated", "user_confirmed"]


def subject(i: int) -> tuple[str, str, str]:
    """Record i's subject: (name, noun, attribute). About three records share each name."""
    return NAMES[(i * 7919 // 3) % len(NAMES)].capitalize(), NOUNS[i % len(NOUNS)], ATTRS[(i // 3) % len(ATTRS)]


def value(rng: random.Random) -> str:
    return str(rng.randrange(2, 9000))


def _render_chunk(args: tuple[int, int, str]) -> int:
    from memkeeper.core.models import Entry
    from memkeeper.core.pagefmt import render_entry
    from memkeeper.core.text import content_sha256

    start, stop, entries = args
    for i in range(start, stop):
        rng = random.Random(i)
        name, noun, attr = subject(i)
        filler = []
        for _ in range(7):
            filler.append(" ".join(rng.choices(VOCAB, weights=ZIPF, k=rng.randrange(9, 15))).capitalize() + ".")
        content = f"The {name} {noun} {attr} is {value(rng)}. " + " ".join(filler)
        t = NOW - timedelta(days=rng.randrange(400), minutes=rng.randrange(1440))
        e = Entry(
            memory_id=f"mem_{i:016x}",
            canonical_key=f"{name.lower()}-{noun}-{attr}-{i}",
            title=f"{name} {noun} {attr} {i}",
            category=CATS[i % len(CATS)],
            trust_zone=ZONES[i % 3],
            source_type=SOURCES[i % 3],
            created_at=t,
            updated_at=t,
            last_accessed_at=t,
            content=content,
            source_ref=f"raw/session-{i // 50}.md#L{i % 50}",
            tags=[noun, attr] if i % 4 == 0 else [],
            confidence=round(0.5 + (i % 40) / 100, 2),
            reinforcement=1 + i % 3,
        )
        e.normalized_content_sha256 = content_sha256(e.title, e.content)
        with open(os.path.join(entries, f"{name.lower()}-{noun}-{attr}-{i}.md"), "w", encoding="utf-8") as fh:
            fh.write(render_entry(e))
    return stop - start


def template(n: int) -> Path:
    """The cached page set of size n (built once per GEN_VERSION), with the wiki's first views."""
    from memkeeper.core import Engine

    root = CACHE / f"wiki-g{GEN_VERSION}-{n}"
    if (root / ".complete").exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    t0 = time.perf_counter()
    eng = Engine.init(root, now=NOW)
    eng.close()
    step = 2000
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        list(pool.map(_render_chunk, [(s, min(n, s + step), str(root / "entries")) for s in range(0, n, step)]))
    eng = Engine.open(root)
    eng.compile(now=NOW)
    eng.close()
    shutil.rmtree(root / ".memkeeper")
    (root / ".complete").write_text(str(GEN_VERSION))
    print(
        f"  generated {n:,} pages in {time.perf_counter() - t0:.1f}s (cached in {root.relative_to(REPO)})", flush=True
    )
    return root


def working_copy(n: int) -> Path:
    src = template(n)
    dst = CACHE / f"work-{n}"
    if dst.exists():
        shutil.rmtree(dst)
    dst.mkdir(parents=True)
    for item in src.iterdir():
        if item.name == ".complete":
            continue
        if item.name == "entries":
            subprocess.run(["cp", "-al", str(item), str(dst / "entries")], check=True)
        elif item.is_dir():
            shutil.copytree(item, dst / item.name, symlinks=True)
        else:
            shutil.copy2(item, dst / item.name)
    # Removing the last copy and making this one leaves ~100k files' metadata for the kernel to write back: flushed
    # here, so the build timed next is not sharing the cores with that writeback.
    os.sync()
    return dst


def wall(cmd: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


CLI_QUERY = "kalo mine rusa"
PARTS = ("build", "cli", "capture", "desk", "tiers", "long", "views")


def floors(root: Path, n: int) -> dict[str, float]:
    import yaml

    out: dict[str, float] = {}
    paths = [e.path for e in os.scandir(root / "entries") if e.name.endswith(".md")]
    t0 = time.perf_counter()
    texts = []
    for p in paths:
        with open(p, "rb") as fh:
            texts.append(fh.read())
    out["raw_read_pps"] = len(paths) / (time.perf_counter() - t0)
    out["page_bytes"] = statistics.mean(len(t) for t in texts[:2000])
    blocks = []
    for raw in texts:
        text = raw.decode("utf-8")
        blocks.append(text[4 : text.find("\n---\n", 3)])
    t0 = time.perf_counter()
    for b in blocks:
        yaml.load(b, Loader=yaml.CSafeLoader)  # noqa: S506 - the C safe loader
    out["yaml_pps"] = len(blocks) / (time.perf_counter() - t0)
    db = sqlite3.connect(root / ".memkeeper" / "index.db")
    rng = random.Random(7)
    qt = []
    for _ in range(30):
        q = " OR ".join(f'"{w}"' for w in rng.choices(VOCAB[:800], k=3))
        t0 = time.perf_counter()
        db.execute("SELECT memory_id FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT 10", (q,)).fetchall()
        qt.append(time.perf_counter() - t0)
    out["fts_query_s"] = statistics.median(qt)
    # What the CLI's retrieve cannot go below: FTS5 ranking (bm25) every record that matches its query's words.
    match = " OR ".join(f'"{w}"' for w in sorted(CLI_QUERY.split()))
    qt = []
    for _ in range(5):
        t0 = time.perf_counter()
        db.execute("SELECT memory_id FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT 300", (match,)).fetchall()
        qt.append(time.perf_counter() - t0)
    out["fts_cli_query_s"] = statistics.median(qt)
    out["fts_cli_query_matches"] = db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (match,)).fetchone()[0]
    db.close()
    return out


def compile_package() -> None:
    """Byte-compile memkeeper (as pip does when it installs a wheel), so a CLI start reads bytecode."""
    import memkeeper.agents
    import memkeeper.core
    import memkeeper.tui

    dirs = [d for pkg in (memkeeper.core, memkeeper.tui, memkeeper.agents) for d in pkg.__path__]
    subprocess.run([PY, "-m", "compileall", "-q", *dirs], check=True, stdout=subprocess.DEVNULL)


def cli_figures(root: Path, runs: int) -> dict[str, float]:
    """The CLI's wall times and their floors, the runs interleaved so a change in the machine's load touches all."""
    compile_package()
    base = [*MEMKEEPER, "--root", str(root), "--now", "2026-11-29T10:00:00Z"]
    times: dict[str, list[float]] = {
        "python_start_s": [],
        "import_cli_s": [],
        "cli_retrieve_s": [],
        "cli_capture_s": [],
    }
    for i in range(runs):
        name, noun, attr = subject(i * 37)
        for key, cmd in (
            ("python_start_s", [PY, "-c", "pass"]),
            ("import_cli_s", [PY, "-c", "import memkeeper.tui.cli"]),
            ("cli_retrieve_s", [*base, "retrieve", CLI_QUERY, "--preview"]),
            (
                "cli_capture_s",
                [*base, "capture", f"The {name} {noun} {attr} is {9100 + i} from now on, per the cli run {i}."],
            ),
        ):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            times[key].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def cold_build_seconds(root: Path) -> float:
    """`Engine.open` on a wiki without an index, timed in a fresh process, as when a command (or an agent's first
    call) opens it: this process has run threads and holds the earlier sections' memory, and a build forks its
    parse workers only from a process with no other thread. The interpreter's start and the imports are left
    out (they are floors of their own)."""
    code = (
        "import sys, time\n"
        "from memkeeper.core import Engine\n"
        "t0 = time.perf_counter()\n"
        "Engine.open(sys.argv[1]).close()\n"
        "print(time.perf_counter() - t0)\n"
    )
    out = subprocess.run([PY, "-c", code, str(root)], check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def measure(n: int, quick: bool, parts: tuple[str, ...] = PARTS) -> dict[str, float]:
    from memkeeper.core import Engine

    res: dict[str, float] = {}
    root = working_copy(n)
    # The median of three builds from nothing (the index removed between them): one build's figure moved by half
    # with what else the shared machine ran in that moment (its parse workers are sized by the cores idle then).
    builds = []
    for k in range(1 if quick else BUILD_RUNS):
        if k:
            for name in ("index.db", "index.db-wal", "index.db-shm"):
                (root / ".memkeeper" / name).unlink(missing_ok=True)
        builds.append(n / cold_build_seconds(root))
    res["cold_build_pps"] = statistics.median(builds)
    shown = ", ".join(f"{b:,.0f}" for b in builds)
    print(f"  {n:,}: cold build {res['cold_build_pps']:,.0f} pages/s (median of {shown})", flush=True)
    if "build" in parts:
        res.update(floors(root, n))
        opens = []
        for _ in range(5):
            t0 = time.perf_counter()
            eng = Engine.open(root)
            opens.append(time.perf_counter() - t0)
            eng.close()
        res["warm_open_s"] = statistics.median(opens)

    if "cli" in parts:
        res.update(cli_figures(root, 3 if quick else 7))
    if "capture" in parts:
        res.update(capture_figures(root, n, quick))
    if "long" in parts:
        res.update(long_note_figures(root, quick))
    if "views" in parts:
        res.update(views_figures(root, quick))
    if "desk" in parts:
        res.update(desk_figures(root, quick))
    if "tiers" in parts:  # last: it makes a sixth of the records cold
        res.update(tier_figures(root))
    print(f"  {n:,}: done", flush=True)
    return res


def capture_figures(root: Path, n: int, quick: bool) -> dict[str, float]:
    from memkeeper.core import Engine

    res: dict[str, float] = {}
    eng = Engine.open(root)
    rng = random.Random(n)
    cap = []
    statuses: dict[str, int] = {}
    for i in range(30 if quick else 60):
        j = rng.randrange(n)
        name, noun, attr = subject(j)
        zone = ZONES[j % 3]
        # Half keep the existing record's key (same partition: the detector compares them), half only share
        # its subject words (found through the index).
        key = f"{name.lower()}-{noun}-{attr}-{j}" if i % 2 == 0 else None
        text = f"The {name} {noun} {attr} is {value(rng)} now, according to the latest review."
        t0 = time.perf_counter()
        r = eng.capture(text, now=NOW + timedelta(seconds=i), key=key, zone=zone, title=f"Fresh {i} {name} {noun}")
        cap.append(time.perf_counter() - t0)
        statuses[r.status] = statuses.get(r.status, 0) + 1
    res["capture_s"] = statistics.median(cap)
    res["capture_statuses"] = statuses  # type: ignore[assignment]
    res.update(_capture_at_bound(eng, n, rng, 30 if quick else 60))

    # Session summaries: one note of six claims, each about an existing record's subject, as agents end a session.
    # Detection reads such a note claim by claim and looks each claim up (bounded: 8 claims x 3 records).
    notes = []
    for i in range(10 if quick else 20):
        claims = []
        for _k in range(6):
            j = rng.randrange(n)
            name, noun, attr = subject(j)
            claims.append(f"The {name} {noun} {attr} is {value(rng)}.")
        t0 = time.perf_counter()
        eng.capture(
            "Session summary. " + " ".join(claims), now=NOW + timedelta(minutes=2, seconds=i), title=f"Summary {i}"
        )
        notes.append(time.perf_counter() - t0)
    res["capture_note_s"] = statistics.median(notes)

    counts = []
    for i in range(5):
        eng.capture(
            f"A note written before counting, number {i}, about the {NOUNS[i]} handover.",
            now=NOW + timedelta(minutes=5, seconds=i),
            title=f"Counting note {i} {n}",
        )
        t0 = time.perf_counter()
        eng.counts(NOW + timedelta(minutes=6))
        counts.append(time.perf_counter() - t0)
    res["counts_s"] = statistics.median(counts)
    res.update(_capture_beside_ledgers(eng, n, 10 if quick else 20))
    eng.close()
    return res


LEDGER_PERSONS = ("ann", "bob", "carol", "dave")
RACY_S = 3.2  # a little past `quiz_queue.RACY_NS`
LEDGER_ROWS = 5000


def _capture_beside_ledgers(eng, n: int, captures: int) -> dict[str, float]:
    """Captures beside four people's quiz ledgers of min(n, 5,000) rows each, against captures timed just before
    with no ledger: hot.md counts every person's due items after each capture, and that count must not grow with
    the ledgers (SPEC §4). First ledgers of people who keep up (rows spread over the Leitner boxes, last answered
    within their interval, so about a twentieth are due today), then the same rows all due (people back after a
    long absence). The ledgers are written as files (not timed) and removed after. The first figure is taken once
    the files are a few seconds old; the captures right after they were written, when each count also compares
    the file's text with the copy's digest (for filesystems with coarse times), are reported beside it."""
    from memkeeper.core import quiz

    pages = [
        r["path"]
        for r in eng.store.index.query("SELECT path FROM records WHERE quiz_rotation=1 LIMIT ?", (min(n, LEDGER_ROWS),))
    ]
    today = NOW.date()

    def row(i: int, page: str, all_due: bool) -> quiz.QuizItem:
        box = 1 + i % quiz.MAX_BOX
        last = today - timedelta(days=quiz.INTERVALS[box] if all_due else i % quiz.INTERVALS[box])
        return quiz.QuizItem(
            page=page,
            box=box,
            due=last + timedelta(days=quiz.INTERVALS[box]),
            asked=box,
            correct=box,
            last=last,
            last_result="correct",
            last_q="q",
        )

    def timed(tag: str, start: datetime) -> list[float]:
        out = []
        for i in range(captures + 1):
            t0 = time.perf_counter()
            eng.capture(
                f"The {tag} relay number {i} listens on port {4000 + i}.",
                now=start + timedelta(seconds=i),
                title=f"{tag} relay {i} {n}",
            )
            if i:  # the first capture beside new ledgers reads them once
                out.append(time.perf_counter() - t0)
        return out

    res = {"capture_noledger_s": statistics.median(timed("Plain", NOW + timedelta(minutes=7)))}
    paths = [eng.root / quiz.ledger_path(p) for p in LEDGER_PERSONS]
    for key, all_due, minute in (("capture_ledgers_s", False, 8), ("capture_ledgers_due_s", True, 9)):
        ledger = quiz.new_ledger("bench").model_copy(
            update={"items": [row(i, page, all_due) for i, page in enumerate(pages)]}
        )
        for path in paths:
            path.parent.mkdir(exist_ok=True)
            path.write_text(quiz.render_ledger(ledger), encoding="utf-8")
        if not all_due:  # just written: the copies compare each file's text with its digest (`QuizQueue._racy`)
            res["capture_ledgers_recent_s"] = statistics.median(timed("Recent", NOW + timedelta(minutes=minute)))
        time.sleep(RACY_S)  # then the files are old enough for their stamps to vouch for the copies
        res[key] = statistics.median(timed(f"Ledgered{minute}", NOW + timedelta(minutes=minute, seconds=30)))
    for path in paths:
        path.unlink()
    return res


REGIONS = ["eu-west-1", "us-east-1", "ap-south-1"]
LONG_ROUNDS = 5  # rounds of long-note captures (3 with --quick); each round's notes are new
CHECKLIST_LINES = 300
SUMMARY_BYTES = 12_000
MAX_CAPTURE_BYTES = 64 * 1024  # `capture.MAX_CAPTURE_BYTES`


def _summary(rng: random.Random, tag: str) -> list[str]:
    """The sentences of a ~12 KB session summary about existing-looking subjects: values, owners, schedules,
    negations and changes, each sentence numbered (`tag` keeps one round's notes apart from another's)."""
    out: list[str] = []
    size = 0
    k = 0
    while size < SUMMARY_BYTES:
        name, noun, attr = subject(rng.randrange(10**6))
        other = NAMES[rng.randrange(len(NAMES))].capitalize()
        form = k % 6
        if form == 0:
            s = f"The {name} {noun} {attr} is {value(rng)} ({tag} item {k})."
        elif form == 1:
            s = f"{other} owns the {name} {noun} and reviews its {attr} ({tag} item {k})."
        elif form == 2:
            s = f"The {name} {noun} does not use the {other} {attr} any more ({tag} item {k})."
        elif form == 3:
            s = f"The {name} {noun} review moved from Tuesday to Thursday at 10:00 ({tag} item {k})."
        elif form == 4:
            s = f"The {name} {noun} {attr} went up from {value(rng)} to {value(rng)} ms ({tag} item {k})."
        else:
            s = f"The {name} {noun} runs every {rng.randrange(2, 9)} weeks in {REGIONS[k % 3]} ({tag} item {k})."
        out.append(s)
        size += len(s) + 1
        k += 1
    return out


def _checklist(tag: str, ticked: int | None = None) -> str:
    """A Markdown checklist of CHECKLIST_LINES steps, none ticked or one."""
    lines = [f"Release checklist {tag}"]
    for i in range(CHECKLIST_LINES):
        noun, attr = NOUNS[i % len(NOUNS)], ATTRS[(i // len(NOUNS)) % len(ATTRS)]
        lines.append(f"- [{'x' if i == ticked else ' '}] step {i}: check the {noun} {attr}")
    return "\n".join(lines)


def _long_line(rng: random.Random) -> str:
    """One word repeated on one line, just under the most a capture takes (64 KiB): the shape of the report that
    found reading a long note quadratic ("word " × 4,000 took 9–15 s), where every reader's walk along a run of
    words or a clause runs the whole line."""
    word = rng.choice(VOCAB[:400])
    head = "Long line: "
    return head + " ".join([word] * ((MAX_CAPTURE_BYTES - 64 - len(head)) // (len(word) + 1)))


def long_note_figures(root: Path, quick: bool, engine=None) -> dict[str, float]:
    """Captures of long notes, each round beside a short capture (the baseline, timed in the same rounds): a ~12 KB
    summary captured again with one sentence edited, a 300-line checklist captured again with one box ticked (the
    first capture of each is not timed), and a new single-line note of 64 KiB. Medians over the rounds.
    `engine`: the Engine class to open the wiki with (another version of the engine, to compare)."""
    if engine is None:
        from memkeeper.core import Engine as engine

    eng = engine.open(root)
    rng = random.Random(64)
    times: dict[str, list[float]] = {
        k: [] for k in ("long_base_s", "long_summary_s", "long_checklist_s", "long_line_s")
    }
    statuses: dict[str, str] = {}

    def timed(key: str, text: str, at: datetime, **kwargs) -> None:
        t0 = time.perf_counter()
        r = eng.capture(text, now=at, **kwargs)
        times[key].append(time.perf_counter() - t0)
        statuses[key] = r.status

    try:
        for rnd in range(3 if quick else LONG_ROUNDS):
            at = NOW + timedelta(hours=3, minutes=10 * rnd)
            tag = f"r{rnd}"
            name, noun, attr = subject(rng.randrange(10**6))
            timed("long_base_s", f"The {name} {noun} {attr} is {value(rng)} now, per round {rnd}.", at)
            summary = _summary(rng, tag)
            eng.capture("Session summary\n\n" + " ".join(summary), now=at + timedelta(minutes=1))
            k = len(summary) // 2
            summary[k] = summary[k].replace(f"item {k})", f"item {k}, confirmed)")
            timed("long_summary_s", "Session summary\n\n" + " ".join(summary), at + timedelta(minutes=2))
            eng.capture(_checklist(tag), now=at + timedelta(minutes=3))
            timed("long_checklist_s", _checklist(tag, ticked=CHECKLIST_LINES // 2), at + timedelta(minutes=4))
            timed("long_line_s", _long_line(rng), at + timedelta(minutes=5))
    finally:
        eng.close()
    out: dict[str, float] = {k: statistics.median(v) for k, v in times.items()}
    out["long_statuses"] = statuses  # type: ignore[assignment]
    return out


def views_figures(root: Path, quick: bool) -> dict[str, float]:
    """A limited MCP server's hot.md and index.md (`Desk.page` for a trusted_collaborator server), medians over the
    runs, beside the floor: a read of the columns they are listed from, on a connection of its own. Measured in a
    process of its own, as `memkeeper mcp` runs: in this one, after the other parts, the figure carried the heap
    those parts left (2.2 s against 1.3 s at 100k records, 8.0 against 5.0 times the floor)."""
    probe = subprocess.run(
        [PY, "-c", _VIEWS_PROBE, str(root), "3" if quick else "7", NOW.isoformat()], capture_output=True, text=True
    )
    if probe.returncode != 0:
        print(probe.stderr[-2000:], file=sys.stderr)
        return {"views_hot_s": float("nan"), "views_index_s": float("nan"), "views_floor_s": float("nan")}
    return json.loads(probe.stdout.strip().splitlines()[-1])


_VIEWS_PROBE = """
import json, sqlite3, statistics, sys, time
from datetime import datetime
from pathlib import Path

from memkeeper.agents.mcp_server import Desk, Identity
from memkeeper.core import Engine
from memkeeper.core.models import TrustZone

root, runs, now = Path(sys.argv[1]), int(sys.argv[2]), datetime.fromisoformat(sys.argv[3])
out = {"views_hot_s": [], "views_index_s": [], "views_floor_s": []}
eng = Engine.open(root)
try:
    desk = Desk(eng, Identity("agent:bench", TrustZone.trusted_collaborator), clock=lambda: now)
    db = sqlite3.connect(root / ".memkeeper" / "index.db")
    for _ in range(runs):
        for key, rel in (("views_hot_s", "hot.md"), ("views_index_s", "index.md")):
            t0 = time.perf_counter()
            desk.page(rel)
            out[key].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        db.execute(
            "SELECT memory_id, path, title, category, created_at, expires_at FROM records "
            "WHERE status='active' AND sensitivity_tier <> 'do_not_export'"
        ).fetchall()
        out["views_floor_s"].append(time.perf_counter() - t0)
    db.close()
finally:
    eng.close()
print(json.dumps({k: statistics.median(v) for k, v in out.items()}))
"""


def _bound_words(eng, k: int) -> list[str]:
    """k filler words each in between half of and `SUBJECT_COMMON` records (the most a looked-up word may be in):
    at any size, a capture that uses them makes the candidate search do the most work its bound allows."""
    from memkeeper.core.index import SUBJECT_COMMON

    index = eng.store.index

    def records(w: str) -> int:
        sql = f"SELECT count(*) FROM (SELECT 1 FROM fts WHERE fts MATCH ? LIMIT {SUBJECT_COMMON + 1})"
        return int(index.scalar(sql, (f'"{w}"',)) or 0)

    # the filler's words are drawn by Zipf rank: the number of records a word is in falls with its rank
    lo, hi = 0, len(VOCAB) - 1
    while lo < hi:  # the first rank whose word is in no more than SUBJECT_COMMON records
        mid = (lo + hi) // 2
        lo, hi = (mid + 1, hi) if records(VOCAB[mid]) > SUBJECT_COMMON else (lo, mid)
    out = []
    for w in VOCAB[lo:]:
        if SUBJECT_COMMON // 2 <= records(w) <= SUBJECT_COMMON:
            out.append(w)
        if len(out) == k:
            break
    return out


def _capture_at_bound(eng, n: int, rng: random.Random, captures: int) -> dict[str, float]:
    """Captures whose every other subject word is in nearly `SUBJECT_COMMON` records: the candidate search's worst
    case, the same at every size (the captures above find fewer candidates at 100,000 than at 1,000: there the
    synthetic nouns are in thousands of records and left out of the look-up, so they measure less work)."""
    from memkeeper.core.index import SUBJECT_COMMON

    words = _bound_words(eng, 5)
    ops = eng.capture_ops
    find = ops.find_related
    found: list[int] = []

    def counted(*args, **kwargs):
        out = find(*args, **kwargs)
        found.append(len(out))
        return out

    ops.find_related = counted
    times = []
    try:
        for i in range(captures):
            j = rng.randrange(n)
            name, noun, attr = subject(j)
            text = f"The {name} {noun} {attr} is {value(rng)} now; " + " ".join(rng.sample(words, len(words))) + "."
            t0 = time.perf_counter()
            eng.capture(text, now=NOW + timedelta(minutes=1, seconds=i), zone=ZONES[j % 3], title=f"Bound {i} {name}")
            times.append(time.perf_counter() - t0)
    finally:
        ops.find_related = find
    return {
        "capture_bound_s": statistics.median(times),
        "bound_candidates": statistics.mean(found) if found else 0.0,
        "bound_words": len(words),
        "bound_common": SUBJECT_COMMON,
    }


def desk_figures(root: Path, quick: bool) -> dict[str, float]:
    res: dict[str, float] = {}
    probe = subprocess.run(
        [PY, str(HERE / "desk_probe.py"), str(root), "--switches", "6" if quick else "30"],
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        print(probe.stderr[-2000:], file=sys.stderr)
        res.update(
            desk_ready_s=float("nan"),
            desk_idle_s=float("nan"),
            switch_s=float("nan"),
            switch_slowest_s=float("nan"),
            first_switch_s=float("nan"),
            noop_s=float("nan"),
            decide_s=float("nan"),
            rss_mb=float("nan"),
        )
    else:
        desk = json.loads(probe.stdout.strip().splitlines()[-1])
        res.update(desk)
    return res


def tier_figures(root: Path) -> dict[str, float]:
    """A person's first tier cleanup of the whole wiki, and its undo: the plan, the commit (every automatic
    candidate's page rewritten as cold, and the review file of the ambiguous ones), the undo of that commit. The
    floor beside them: the same number of pages of the same size written through `pages.atomic_write_many` (the
    engine's own staged write: temp files, fsynced together, renamed) in a folder of their own."""
    from memkeeper.core import Engine
    from memkeeper.core.pages import atomic_write_many

    res: dict[str, float] = {}
    eng = Engine.open(root)
    try:
        t0 = time.perf_counter()
        plan = eng.plan_tiers(now=NOW)
        res["tier_plan_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        r = eng.commit_tiers(now=NOW, actor="human:bench")
        res["tier_commit_s"] = time.perf_counter() - t0
        assert r.status == "ok", r.details
        res["tier_automatic"] = len(plan.automatic)
        res["tier_ambiguous"] = len(plan.ambiguous)
        t0 = time.perf_counter()
        u = eng.undo(r.receipt_sha256, now=NOW + timedelta(minutes=1), actor="human:bench")
        res["tier_undo_s"] = time.perf_counter() - t0
        assert u.status == "undone", u.details
    finally:
        eng.close()
    count = max(1, int(res["tier_automatic"]))
    sample = [p for p in sorted((root / "entries").iterdir())[:count]]
    floor_dir = root.parent / f"tier-floor-{root.name}"
    shutil.rmtree(floor_dir, ignore_errors=True)
    floor_dir.mkdir()
    items = [(floor_dir / p.name, p.read_bytes()) for p in sample]
    t0 = time.perf_counter()
    for k in range(0, len(items), 500):
        atomic_write_many(items[k : k + 500])
    res["tier_floor_s"] = time.perf_counter() - t0
    shutil.rmtree(floor_dir, ignore_errors=True)
    return res


# (label, key, unit, goal text, check(res_by_size) -> bool | None, which size the goal applies to)
def fmt(key: str, v: float) -> str:
    if v != v:  # nan
        return "failed"
    if key.endswith("_pps"):
        return f"{v:,.0f}/s"
    if key == "rss_mb":
        return f"{v:,.0f} MB"
    if key.endswith("_s"):
        return f"{v * 1000:,.0f} ms" if v < 10 else f"{v:,.1f} s"
    return f"{v}"


PANE_NAMES = {"C": "Conflicts", "V": "Verify", "Q": "Quiz", "T": "Tiers", "R": "Receipts", "B": "Browse"}

ROWS = [
    ("cold index build", "cold_build_pps", "≥ 8,000 pages/s", lambda v, r: v >= 8000, "yaml_pps", "libyaml parse"),
    ("warm `Engine.open`", "warm_open_s", "≤ 0.1 s", lambda v, r: v <= 0.1, None, None),
    ("CLI `retrieve`, wall", "cli_retrieve_s", "≤ 250 ms", lambda v, r: v <= 0.25, "python_start_s", "python start"),
    ("CLI `capture`, wall", "cli_capture_s", "≤ 250 ms", lambda v, r: v <= 0.25, "python_start_s", "python start"),
    ("capture median (detection on)", "capture_s", "≤ 1.5× the 1k median", None, None, None),
    ("capture median, six-claim summary notes", "capture_note_s", "≤ 1.5× the 1k median", None, None, None),
    (
        "capture median, every look-up word at the bound",
        "capture_bound_s",
        "≤ 1.5× the 1k median",
        None,
        None,
        None,
    ),
    ("desk header counts", "counts_s", "≤ 50 ms", lambda v, r: v <= 0.05, None, None),
    (
        f"capture median beside {len(LEDGER_PERSONS)} quiz ledgers of min(n, {LEDGER_ROWS:,}) rows, people who keep up",
        "capture_ledgers_s",
        "≤ 1.5× a capture with no ledger",
        lambda v, r: v <= 1.5 * r[max(r)]["capture_noledger_s"],
        "capture_noledger_s",
        "a capture with no ledger",
    ),
    (
        "capture median beside the same ledgers, in the 3 s after they were written",
        "capture_ledgers_recent_s",
        "—",
        lambda v, r: None,
        "capture_noledger_s",
        "a capture with no ledger",
    ),
    (
        "capture median beside the same ledgers, every row due (back after a long absence)",
        "capture_ledgers_due_s",
        "—",
        lambda v, r: None,
        "capture_noledger_s",
        "a capture with no ledger",
    ),
    ("capture median, a short statement (the long notes' baseline)", "long_base_s", "—", lambda v, r: None, None, None),
    (
        "capture median, ~12 KB summary captured again, one sentence edited",
        "long_summary_s",
        "≤ 2 s",
        lambda v, r: v <= 2.0,
        "long_base_s",
        "a short capture",
    ),
    (
        f"capture median, {CHECKLIST_LINES}-line checklist captured again, one box ticked",
        "long_checklist_s",
        "≤ 2 s",
        lambda v, r: v <= 2.0,
        "long_base_s",
        "a short capture",
    ),
    (
        "capture median, a new 64 KiB single-line note",
        "long_line_s",
        "≤ 2 s",
        lambda v, r: v <= 2.0,
        "long_base_s",
        "a short capture",
    ),
    (
        "limited MCP server: hot.md",
        "views_hot_s",
        "≤ 2 s",
        lambda v, r: v <= 2.0,
        "views_floor_s",
        "the read of its index columns",
    ),
    (
        "limited MCP server: index.md",
        "views_index_s",
        "≤ 2 s",
        lambda v, r: v <= 2.0,
        "views_floor_s",
        "the read of its index columns",
    ),
    (
        "desk ready (first pane painted, header counts shown)",
        "desk_ready_s",
        "≤ 1.5 s",
        lambda v, r: v <= 1.5,
        None,
        None,
    ),
    ("desk idle (full reconciliation and tier count done)", "desk_idle_s", "—", lambda v, r: None, None, None),
    ("pane switch, key → paint (warm)", "switch_s", "≤ 50 ms", lambda v, r: v <= 0.05, None, None),
    (
        "pane switch, key → paint (warm, the slowest pane)",
        "switch_slowest_s",
        "≤ 50 ms",
        lambda v, r: v <= 0.05,
        None,
        None,
    ),
    ("pane switch, key → paint (first visit)", "first_switch_s", "—", lambda v, r: None, None, None),
    ("decision → next item painted", "decide_s", "≤ 100 ms", lambda v, r: v <= 0.1, None, None),
    ("peak RSS, desk open", "rss_mb", "≤ 300 MB", lambda v, r: v <= 300, None, None),
    ("tier plan of the whole wiki", "tier_plan_s", "—", lambda v, r: None, None, None),
    (
        "tier commit (every automatic candidate made cold)",
        "tier_commit_s",
        "—",
        lambda v, r: None,
        "tier_floor_s",
        "the staged write of as many pages",
    ),
    ("undo of that commit", "tier_undo_s", "—", lambda v, r: None, "tier_floor_s", "the staged write of as many pages"),
]


def report(results: dict[int, dict[str, float]]) -> tuple[str, bool]:
    sizes = sorted(results)
    big = sizes[-1]
    head = "| measure | " + " | ".join(f"{n:,} records" for n in sizes) + f" | goal (at {big:,}) | result |"
    lines = [head, "|" + "---|" * (len(sizes) + 3)]
    ok = True
    for label, key, goal, check, floor_key, floor_label in ROWS:
        if any(key not in results[n] for n in sizes):
            continue  # a part not run (--parts)
        cells = []
        for n in sizes:
            v = results[n][key]
            cell = fmt(key, v)
            if key == "switch_slowest_s" and v == v:
                cell += f" ({PANE_NAMES.get(results[n].get('switch_slowest_pane', ''), '?')})"
            if floor_key and floor_key in results[n]:
                f = results[n][floor_key]
                if key.endswith("_pps"):
                    cell += f" ({v / f:.1f}× the {floor_label} floor)"
                else:
                    cell += f" ({v / f:.1f}× {floor_label})"
            cells.append(cell)
        big_v = results[big][key]
        if key in ("capture_s", "capture_note_s", "capture_bound_s"):
            ratio = big_v / results[sizes[0]][key]
            cells[-1] += f" ({ratio:.2f}× the {sizes[0]:,} median)"
            passed = ratio <= 1.5 if len(sizes) > 1 else None
        else:
            passed = None if big_v != big_v else check(big_v, results)  # type: ignore[misc]
            if big_v != big_v:
                passed = False
        if goal == "—":
            passed = None
        verdict = "—" if passed is None else ("PASS" if passed else "FAIL")
        ok = ok and passed is not False
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {goal} | {verdict} |")
    lines.append("")
    lines.append("Floors measured in the same run:")
    lines.append("")
    lines.append("| floor | " + " | ".join(f"{n:,} records" for n in sizes) + " |")
    lines.append("|" + "---|" * (len(sizes) + 1))
    for label, key in (
        ("page size (mean)", "page_bytes"),
        ("raw read of every page", "raw_read_pps"),
        ("libyaml parse of every frontmatter", "yaml_pps"),
        ("raw FTS5 query (median)", "fts_query_s"),
        ("FTS5 ranking of the CLI query's matches (median)", "fts_cli_query_s"),
        ("`python -c pass`", "python_start_s"),
        ("`import memkeeper.tui.cli`", "import_cli_s"),
        ("a no-op key, press → idle (Pilot's own cost)", "noop_s"),
    ):
        if all(key not in results[n] for n in sizes):
            continue
        vals = [results[n].get(key, float("nan")) for n in sizes]
        cells = [f"{v:,.0f} bytes" if key == "page_bytes" else fmt(key, v) for v in vals]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    for n in sizes:
        if "fts_cli_query_matches" in results[n]:
            lines.append(
                f"The CLI's retrieve query ({CLI_QUERY!r}) matches {results[n]['fts_cli_query_matches']:,} records at {n:,}."
            )
    for n in sizes:
        if "bound_candidates" in results[n]:
            lines.append(
                f"Captures at the bound, {n:,}: {results[n]['bound_words']:.0f} filler words each in "
                f"{results[n]['bound_common'] // 2:.0f}–{results[n]['bound_common']:.0f} records; "
                f"{results[n]['bound_candidates']:.1f} records "
                "found and decided per capture (mean)."
            )
    for n in sizes:
        if "tier_automatic" in results[n]:
            lines.append(
                f"Tier cleanup at {n:,}: {results[n]['tier_automatic']:,.0f} records made cold, "
                f"{results[n]['tier_ambiguous']:,.0f} ambiguous ones written to the review file."
            )
    for n in sizes:
        ls = results[n].get("long_statuses")
        if ls:
            lines.append(
                f"Long notes at {n:,} (status of the last round): summary {ls['long_summary_s']}, "  # type: ignore[index]
                f"checklist {ls['long_checklist_s']}, single line {ls['long_line_s']}."  # type: ignore[index]
            )
    for n in sizes:
        st = results[n].get("capture_statuses")
        if st:
            lines.append(f"Captures at {n:,}: " + ", ".join(f"{k} {v}" for k, v in sorted(st.items())) + ".")  # type: ignore[union-attr]
    return "\n".join(lines), ok


def run(sizes: list[int], quick: bool = False, parts: tuple[str, ...] = PARTS) -> bool:
    CACHE.mkdir(exist_ok=True)
    results = {n: measure(n, quick, parts) for n in sizes}
    text, ok = report(results)
    print(text)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,100000")
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--parts", default=",".join(PARTS), help=f"which figures, of: {', '.join(PARTS)} (default all)")
    args = ap.parse_args()
    parts = tuple(p.strip() for p in args.parts.split(",") if p.strip())
    if unknown := set(parts) - set(PARTS):
        ap.error(f"unknown part(s): {', '.join(sorted(unknown))}")
    ok = run([int(s) for s in args.sizes.split(",")], args.quick, parts)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""`make bench`: speed targets, reported as medians and as ratios against a baseline measured in the same run.

1. capture and retrieve medians at 1,000 and 20,000 records; one capture at 20k must cost ≤ 2× one at 1k.
2. capture with detection running: statements about subjects the wiki already holds (restatements, changed values,
   added detail), so every capture finds candidates and decides each pair; medians at 1,000 and 20,000 records.
3. contradiction detection end to end through `capture` (benchmarks/contradictions.py): the dev and held-out halves
   of the agent-style pairs, and the fixture. Its targets are reported, met or not; they do not fail the run.
   The same halves again in a crowd (benchmarks/crowd.py): every pair of a half in one wiki, where a loose subject
   match opens conflicts between notes of different pairs. And false conflicts on a consistent corpus
   (benchmarks/consistent.py): one persona's notes over three months, none contradicting another, captured in order
   into one wiki per half; every conflict that opens is false.
4. secret detection: recall on the dev and held-out halves of the corpus, false positives, cost per call.
   The quiz: a card's question (its cloze) from notes of 500 to 5,000 lines, beside a one-line note's, and a session
   over three 5,000-line notes.
5. scale (benchmarks/scale.py, issue 10): cold build, warm open, CLI wall times, capture, header counts, the desk's
   ready time, pane switch and RSS at 1,000 and 100,000 records, beside the floors measured in the same run, with
   PASS/FAIL against the issue's goals.

Every section's output is also written to benchmarks/results.md.
"""

from __future__ import annotations

import contextlib
import io
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memkeeper.core import Engine
from memkeeper.core.models import Entry
from memkeeper.core.pagefmt import render_entry
from memkeeper.core.text import content_sha256

NOW = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
# A Zipf-distributed vocabulary: real notes share a few common words and many rare ones. (A 40-word vocabulary
# would make every record match every query, which no wiki looks like.)
_SYLLABLES = "ka lo mi ne ru sa ti vo be da fe gu hi jo ke lu ma no pe qu ri so tu va we xi yo zu".split()
VOCAB = [a + b + c for a in _SYLLABLES for b in _SYLLABLES for c in ("", "n", "r", "s")][:4000]
ZIPF = [1.0 / (rank + 1) for rank in range(len(VOCAB))]


def words(rng: random.Random, k: int) -> list[str]:
    return rng.choices(VOCAB, weights=ZIPF, k=k)


CATS = ["fact", "project", "preference", "decision", "insight", "lesson", "milestone", "commitment", "risk", "question"]
ZONES = ["private_self", "trusted_collaborator", "outside_contact"]


def seed(root: Path, n: int, rng: random.Random) -> Engine:
    """Write n pages straight to entries/ (as an existing wiki would have), then open the engine (index build)."""
    eng = Engine.init(root, now=NOW)
    entries = root / "entries"
    for i in range(n):
        ws = words(rng, 12)
        content = f"Record {i}: " + " ".join(ws) + "."
        t = NOW - timedelta(days=rng.randrange(400))
        e = Entry(
            memory_id=f"mem_{i:016x}",
            canonical_key=f"bench-{i}",
            title=f"Bench {i} {ws[0]} {ws[1]}",
            category=CATS[i % len(CATS)],
            trust_zone=ZONES[i % 3],
            created_at=t,
            updated_at=t,
            last_accessed_at=t,
            content=content,
            source_ref=f"raw/bench-{i}.md",
        )
        e.normalized_content_sha256 = content_sha256(e.title, e.content)
        (entries / f"bench-{i}.md").write_text(render_entry(e), encoding="utf-8")
    eng.close()
    eng = Engine.open(root)
    eng.compile(now=NOW)
    return eng


def measure(eng: Engine, rng: random.Random, captures: int, retrieves: int) -> tuple[float, float]:
    cap, ret = [], []
    for i in range(captures):
        text = f"Fresh note {i}: " + " ".join(words(rng, 10))
        t0 = time.perf_counter()
        r = eng.capture(text, now=NOW + timedelta(seconds=i), title=f"Fresh {i} {rng.random():.6f}")
        cap.append(time.perf_counter() - t0)
        assert r.status in ("captured", "consolidated", "conflict"), r.details
    for i in range(retrieves):
        q = " ".join(words(rng, 3))
        t0 = time.perf_counter()
        eng.retrieve(q, zone=ZONES[i % 3], now=NOW, record_access=False)
        ret.append(time.perf_counter() - t0)
    return statistics.median(cap), statistics.median(ret)


def measure_desk(eng: Engine, runs: int = 5) -> float:
    """The desk's header refresh after each decision: every queue count, including the O(wiki) tier plan."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        eng.counts(NOW)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_scale() -> bool:
    rng = random.Random(42)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1_000, 20_000):
            t0 = time.perf_counter()
            eng = seed(Path(tmp) / f"w{n}", n, rng)
            build = time.perf_counter() - t0
            cap, ret = measure(eng, rng, captures=60, retrieves=60)
            desk = measure_desk(eng)
            results[n] = (cap, ret, desk)
            print(
                f"{n:>6} records: seed+index {build:6.1f}s · capture median {cap * 1000:7.2f} ms · "
                f"retrieve median {ret * 1000:7.2f} ms · desk header counts (incl. tier plan) median "
                f"{desk * 1000:7.1f} ms"
            )
            eng.close()
    cap_ratio = results[20_000][0] / results[1_000][0]
    ret_ratio = results[20_000][1] / results[1_000][1]
    desk_ratio = results[20_000][2] / results[1_000][2]
    ok = cap_ratio <= 2.0
    print(
        f"ratio 20k/1k: capture {cap_ratio:.2f}× (target ≤ 2.00×: {'ok' if ok else 'FAIL'}) · retrieve "
        f"{ret_ratio:.2f}× · desk counts {desk_ratio:.2f}× (runs in a worker; no target)"
    )
    return ok


# Subjects for the detection bench: made-up project names, facets of a project, and a value per facet.
FACETS = [
    ("deploy day", "{p} deploys to production on {v}.", ["Mondays", "Tuesdays", "Wednesdays", "Thursdays"]),
    ("owner", "{v} owns the {p} billing service.", ["Priya", "Marco", "Dana", "Kenji", "Ama", "Noor"]),
    ("rate limit", "The {p} public API allows {v} requests per minute.", ["100", "250", "600", "1,000"]),
    ("log retention", "{p} keeps application logs for {v} days.", ["7", "14", "30", "90"]),
    ("database", "The {p} primary database is {v}.", ["Postgres", "MySQL", "SQLite", "MongoDB"]),
    ("standup", "The {p} standup is at {v} on weekdays.", ["09:00", "09:30", "10:00", "10:30"]),
    ("on-call", "{p} on-call hands over on {v} mornings.", ["Monday", "Tuesday", "Thursday", "Friday"]),
    ("release cadence", "{p} ships a release {v}.", ["weekly", "monthly", "every two weeks", "quarterly"]),
]


def project_name(i: int) -> str:
    a, b = _SYLLABLES[i % len(_SYLLABLES)], _SYLLABLES[(i // len(_SYLLABLES)) % len(_SYLLABLES)]
    c = _SYLLABLES[(i // len(_SYLLABLES) ** 2) % len(_SYLLABLES)]
    return (a + b + c).capitalize()


def seed_subjects(root: Path, n: int) -> Engine:
    """n records: one per (project, facet), written straight to entries/ and indexed on open."""
    eng = Engine.init(root, now=NOW)
    entries = root / "entries"
    for i in range(n):
        p, (facet, tmpl, values) = project_name(i // len(FACETS)), FACETS[i % len(FACETS)]
        content = tmpl.format(p=p, v=values[i % len(values)])
        t = NOW - timedelta(days=1 + i % 300)
        e = Entry(
            memory_id=f"mem_{i:016x}",
            canonical_key=f"{p}-{facet}".lower().replace(" ", "-"),
            title=f"{p} {facet}",
            category="fact",
            created_at=t,
            updated_at=t,
            last_accessed_at=t,
            content=content,
            source_ref=f"raw/seed-{i}.md",
        )
        e.normalized_content_sha256 = content_sha256(e.title, e.content)
        (entries / f"seed-{i}.md").write_text(render_entry(e), encoding="utf-8")
    eng.close()
    eng = Engine.open(root)
    eng.compile(now=NOW)
    return eng


def measure_detection(eng: Engine, n: int, rng: random.Random, captures: int) -> tuple[float, float, dict[str, int]]:
    """Captures about subjects the wiki holds, as another agent writes them (no key, its own title): the same value
    again, another value, or the same value with a detail added. Returns the median capture, the median time spent
    finding and deciding the related records (the index look-up and every pair decision), and the outcomes."""
    ops = eng.capture_ops
    find = ops.find_related
    spent: list[float] = []

    def timed(*args, **kwargs):
        t0 = time.perf_counter()
        try:
            return find(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - t0)

    ops.find_related = timed  # type: ignore[method-assign]
    times, outcomes = [], {}
    try:
        for i in range(captures):
            k = rng.randrange(n)
            p, (facet, tmpl, values) = project_name(k // len(FACETS)), FACETS[k % len(FACETS)]
            value = values[k % len(values)]
            kind = i % 3
            if kind == 1:
                value = values[(k + 1 + rng.randrange(len(values) - 1)) % len(values)]
            text = tmpl.format(p=p, v=value) + (" The runbook has the details." if kind == 2 else "")
            t0 = time.perf_counter()
            r = eng.capture(
                text,
                now=NOW + timedelta(seconds=i),
                actor="agent:bench",
                title=f"{p} {facet} (session {i})",
                source_ref=f"raw/bench-session-{i}.md",
            )
            times.append(time.perf_counter() - t0)
            outcomes[r.status] = outcomes.get(r.status, 0) + 1
    finally:
        ops.find_related = find  # type: ignore[method-assign]
    return statistics.median(times), statistics.median(spent), outcomes


def bench_detection() -> bool:
    rng = random.Random(7)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1_000, 20_000):
            t0 = time.perf_counter()
            eng = seed_subjects(Path(tmp) / f"s{n}", n)
            build = time.perf_counter() - t0
            cap, detect, outcomes = measure_detection(eng, n, rng, captures=90)
            results[n] = (cap, detect)
            print(
                f"{n:>6} records: seed+index {build:6.1f}s · capture with detection median {cap * 1000:7.2f} ms, "
                f"of which finding and deciding related records {detect * 1000:6.2f} ms · outcomes "
                f"{', '.join(f'{k} {v}' for k, v in sorted(outcomes.items()))}"
            )
            eng.close()
    ratio = results[20_000][0] / results[1_000][0]
    dratio = results[20_000][1] / results[1_000][1]
    print(
        f"ratio 20k/1k: capture with detection {ratio:.2f}×, detection alone {dratio:.2f}× (issue 9 asks "
        f"≤ 1.50× for the capture at 100k against 1k; 100k is not run here)"
    )
    return True


def bench_issue10() -> bool:
    import scale

    return scale.run([1_000, 100_000])


def bench_agent_pairs() -> bool:
    import contradictions

    reports, elapsed = contradictions.run()
    print(contradictions.format_report(reports, elapsed))
    return True


def bench_crowd() -> bool:
    import crowd

    print(crowd.format_report(crowd.run()))
    return True


def bench_consistent() -> bool:
    import consistent

    print(consistent.format_report(consistent.run()))
    return True


def bench_secrets() -> bool:
    import json

    from memkeeper.core.secrets import find_secrets

    corpus = Path(__file__).resolve().parent.parent / "tests" / "core" / "fixtures" / "secrets"
    pos = [json.loads(x) for x in (corpus / "positives.jsonl").read_text(encoding="utf-8").splitlines()]
    neg = [json.loads(x) for x in (corpus / "negatives.jsonl").read_text(encoding="utf-8").splitlines()]
    for split in ("dev", "heldout"):
        rows = [r for r in pos if r["split"] == split]
        hit = sum(bool(find_secrets(r["text"])) for r in rows)
        missed = [r["format"] for r in rows if not find_secrets(r["text"])]
        print(f"recall {split:8} {hit}/{len(rows)}" + (f"  missed: {', '.join(missed)}" if missed else ""))
    fp = [r for r in neg if find_secrets(r["text"])]
    print(f"false positives {len(fp)}/{len(neg)} negatives")
    # Agent-style notes (benchmarks/data/secret_notes.jsonl), through `capture`: the front door an agent uses.
    # Three sets, each split into halves before it was measured (benchmarks/data/secret_notes*.md).
    for name, label in (
        ("secret_notes.jsonl", "agent notes"),
        ("secret_notes_second.jsonl", "second set"),
        ("secret_notes_third.jsonl", "third set"),
    ):
        notes = [json.loads(x) for x in (Path(__file__).resolve().parent / "data" / name).open()]
        notes = [r for r in notes if "label" in r]
        with tempfile.TemporaryDirectory() as tmp:
            eng = Engine.init(Path(tmp) / "w", now=NOW)
            refused = {
                r["id"]: eng.capture(r["text"], now=NOW).details.get("reason") == "secret_detected" for r in notes
            }
            eng.close()
        for split in ("dev", "heldout"):
            sec = [r for r in notes if r["split"] == split and r["label"] == "secret"]
            ben = [r for r in notes if r["split"] == split and r["label"] == "benign"]
            hit = sum(refused[r["id"]] for r in sec)
            wrong = sum(refused[r["id"]] for r in ben)
            print(f"{label} through capture, {split:8} recall {hit}/{len(sec)}, false positives {wrong}/{len(ben)}")
    statement = (
        "The billing service reads its configuration from the vault at start-up; the staging database lives "
        "on db-staging.internal and the deploy bot posts to the #deploys channel after every release. Rotate "
        "the service credentials every ninety days and record the rotation in the runbook for on-call."
    )
    big = (statement + "\n") * (64 * 1024 // (len(statement) + 1))
    for label, text, n in ((f"{len(statement)}-char statement", statement, 2000), ("64 KiB text", big, 10)):
        find_secrets(text)
        times = []
        for _ in range(n):
            t = time.perf_counter()
            find_secrets(text)
            times.append(time.perf_counter() - t)
        print(f"find_secrets on a {label}: median {statistics.median(times) * 1000:.3f} ms")
    return not fp


def _log_note(lines: int, tag: str, head: str = "") -> str:
    """A note of `lines` list lines, as an agent's migration log is written (11 characters a line)."""
    return head + "\n".join(f"- {tag}{i:04d} ok" for i in range(lines))


def bench_quiz() -> bool:
    """A quiz card's question from a long note. Its cloze reads and shows the note's opening only
    (`quiz.CLOZE_CHARS`); it read the whole note, 1.6 s for a 4,000-line one. Each note is new to the readers' memo
    (another first line each run). Goal: a card from a 5,000-line note costs about what one from 500 lines does."""
    from memkeeper.core import quiz
    from memkeeper.core.slots import analysis

    def question(content: str, title: str) -> float:
        cand = quiz.QuizCandidate(page="entries/log.md", category="fact", updated_at=NOW, title=title, content=content)
        t = time.perf_counter()
        quiz.build_question(cand)
        return time.perf_counter() - t

    runs = 5
    question(_log_note(500, "w"), "Warm-up")  # the readers' word lists load on first use
    floor = statistics.median(
        question(f"The nightly export {k} writes 12 GB of parquet files to the archive bucket.", "Export")
        for k in range(runs)
    )
    print(f"build_question, median of {runs}: a one-line note {floor * 1000:.1f} ms (the floor)")
    medians = {}
    for lines in (500, 1_000, 5_000):
        medians[lines] = statistics.median(
            question(_log_note(lines, "a", f"Migration log {lines}/{k}\n"), "Migration log") for k in range(runs)
        )
        size = len(_log_note(lines, "a"))
        took = medians[lines]
        print(f"  a {lines:,}-line note ({size / 1000:.0f} KB): {took * 1000:.1f} ms ({took / floor:.1f}× the floor)")
    ratio = medians[5_000] / medians[500]
    print(f"5,000 lines against 500: {ratio:.2f}× (goal about 1×: {'met' if ratio <= 1.5 else 'NOT met'})")
    with tempfile.TemporaryDirectory() as tmp:
        eng = Engine.init(Path(tmp) / "w", now=NOW)
        for n in range(3):
            eng.capture(_log_note(5_000, "abc"[n]), now=NOW, actor="agent:bench", title=f"Migration log {n + 1}")
        times = []
        for _ in range(3):
            analysis._analyze.cache_clear()  # each session reads its notes afresh
            t = time.perf_counter()
            cards = eng.quiz_session("bench", now=NOW)
            times.append(time.perf_counter() - t)
        eng.close()
    print(
        f"quiz_session over three 5,000-line notes (55 KB each): median of 3 {statistics.median(times) * 1000:.0f} ms, "
        f"{len(cards)} cards, longest question {max(len(c.question) for c in cards):,} characters"
    )
    return True


RESULTS = Path(__file__).resolve().parent / "results.md"


class _Tee(io.StringIO):
    def __init__(self, out) -> None:
        super().__init__()
        self.out = out

    def write(self, s: str) -> int:
        self.out.write(s)
        return super().write(s)

    def flush(self) -> None:
        self.out.flush()


def section(title: str, fn, results: list[str], markdown: bool = False) -> bool:
    """Run one bench, printing as it goes, and keep its output for results.md."""
    print(f"== {title}", flush=True)
    tee = _Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        ok = fn()
    body = tee.getvalue().rstrip()
    results.append(f"## {title}\n\n" + (body if markdown else f"```\n{body}\n```") + "\n")
    return ok


if __name__ == "__main__":
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    results: list[str] = []
    ok = section(
        "contradiction detection end to end through capture (agent pairs dev / held-out, fixture)",
        bench_agent_pairs,
        results,
        markdown=True,
    )
    ok = (
        section(
            "contradiction detection in a crowd (every pair of a half in one wiki)", bench_crowd, results, markdown=True
        )
        and ok
    )
    ok = (
        section(
            "false conflicts on a consistent corpus (notes that never contradict, one wiki per half)",
            bench_consistent,
            results,
            markdown=True,
        )
        and ok
    )
    ok = section("secret detection (corpus, dev / held-out)", bench_secrets, results) and ok
    ok = section("quiz: a card's question from a long note", bench_quiz, results) and ok
    ok = section("capture / retrieve scaling", bench_scale, results) and ok
    ok = (
        section("capture with detection running (statements about subjects the wiki holds)", bench_detection, results)
        and ok
    )
    ok = (
        section("scale: 1k and 100k records against the goals of issue 10", bench_issue10, results, markdown=True)
        and ok
    )
    RESULTS.write_text(
        "# Benchmark results\n\n"
        f"Written by `make bench` (`benchmarks/run.py`) on {datetime.now(UTC):%Y-%m-%d}, Python "
        f"{platform.python_version()}, {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"
        + (f", load average {load:.1f} at the start" if load is not None else "")
        + ": one run on one machine; timings move with the machine's load.\n\n"
        + "\n".join(results),
        encoding="utf-8",
    )
    print(f"results written to {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}")
    sys.exit(0 if ok else 1)

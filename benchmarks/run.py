"""`make bench`: speed targets, reported as medians and as ratios against a baseline measured in the same run.

1. scale (benchmarks/scale.py, issue 10): cold build, warm open, CLI wall times, capture, header counts, the desk's
   ready time, pane switch and RSS at 1,000 and 100,000 records, beside the floors measured in the same run.
2. contradiction detection precision/recall per type on the labelled fixture.
3. contradiction detection end to end through `capture` (benchmarks/contradictions.py): the dev and held-out halves
   of the agent-style pairs, and the fixture. Its targets are reported, met or not; they do not fail the run.
4. secret detection: recall on the dev and held-out halves of the corpus, false positives, cost per call.

Every section's output is also written to benchmarks/results.md.
"""

from __future__ import annotations

import contextlib
import io
import os
import platform
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path


def bench_scale() -> bool:
    import scale

    return scale.run([1_000, 100_000])


def bench_conflicts() -> bool:
    from memkeeper.core.contradiction import evaluate, format_report, load_fixture

    fixture = Path(__file__).resolve().parent.parent / "tests" / "core" / "fixtures"
    path = next(p for p in sorted(fixture.glob("conflict_pairs.*")))
    result = evaluate(load_fixture(path))
    print(format_report(result))
    return True


def bench_agent_pairs() -> bool:
    import contradictions

    reports, elapsed = contradictions.run()
    print(contradictions.format_report(reports, elapsed))
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
    statement = ("The billing service reads its configuration from the vault at start-up; the staging database lives "
                 "on db-staging.internal and the deploy bot posts to the #deploys channel after every release. Rotate "
                 "the service credentials every ninety days and record the rotation in the runbook for on-call.")
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
    ok = section("contradiction detection (labelled fixture, pair classifier)", bench_conflicts, results)
    ok = section("contradiction detection end to end through capture (agent pairs dev / held-out, fixture)",
                 bench_agent_pairs, results, markdown=True) and ok
    ok = section("secret detection (corpus, dev / held-out)", bench_secrets, results) and ok
    ok = section("scale: 1k and 100k records against the goals of issue 10", bench_scale, results, markdown=True) and ok
    RESULTS.write_text(
        "# Benchmark results\n\n"
        f"Written by `make bench` (`benchmarks/run.py`) on {datetime.now(UTC):%Y-%m-%d}, Python "
        f"{platform.python_version()}, {platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"
        + (f", load average {load:.1f} at the start" if load is not None else "")
        + ": one run on one machine; timings move with the machine's load.\n\n"
        + "\n".join(results), encoding="utf-8")
    print(f"results written to {RESULTS.relative_to(Path.cwd()) if RESULTS.is_relative_to(Path.cwd()) else RESULTS}")
    sys.exit(0 if ok else 1)

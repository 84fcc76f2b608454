"""False conflicts on a consistent corpus: notes that never contradict each other, captured into one wiki in order.

The labelled sets (benchmarks/contradictions.py, benchmarks/crowd.py) measure recall on contradictions and precision
on a few hundred pairs. Here, for each half of benchmarks/data/consistent_notes.jsonl (one persona's memory over three
months: `dev` is persona a, `heldout` persona b; benchmarks/data/consistent_notes.md), every note is captured through
`Engine.capture` into one fresh wiki, in time order, at its own `at`, by its own agent, with its own title, category,
zone, sensitivity, source type and source ref, as an agent's captures arrive. No note contradicts another, so:

- **conflicts opened**: every conflict is false; also per 1,000 notes and by conflict type;
- **held out of memory**: captures that came back `conflict` (the note waits for a person) or were refused; a held
  note never becomes a record, so it is never compared with the notes after it;
- **consolidated**: captures merged into an earlier record as a restatement. A merge of two notes that say different
  things is a silent merge (the later note's words are lost): counted as consolidations whose two texts differ;
- **capture median**: the wall time of one `capture`, as the wiki grows to the corpus's size.

Run alone: `.venv/bin/python benchmarks/consistent.py [--halves dev,heldout] [--list]`. `--list` prints each conflict's
two texts and reason, and each consolidation's two texts, for the dev half only: the held-out half is reported in
totals and never listed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import contradictions as pairs

DATA = Path(__file__).resolve().parent / "data" / "consistent_notes.jsonl"
HALVES = ("dev", "heldout")
LISTED = frozenset({"dev"})  # halves whose conflicts and consolidations --list prints
CAPTURE_ARGS = ("title", "category", "zone", "sensitivity", "source_type", "source_ref")


@dataclass
class Consistent:
    half: str
    notes: int = 0
    statuses: Counter[str] = field(default_factory=Counter)  # capture status -> count
    # (type, existing note id, incoming note id, reason); a side that is no note of the corpus is "?"
    conflicts: list[tuple[str, str, str, str]] = field(default_factory=list)
    consolidated: list[tuple[str, str]] = field(default_factory=list)  # (earlier note id, merged note id)
    texts: dict[str, str] = field(default_factory=dict)  # note id -> text, for --list
    capture_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def per_thousand(self) -> float:
        return 1000 * len(self.conflicts) / self.notes if self.notes else 0.0

    @property
    def held(self) -> int:
        return sum(n for status, n in self.statuses.items() if status not in ("captured", "consolidated"))

    @property
    def differing_merges(self) -> int:
        return sum(pairs._norm(self.texts[a]) != pairs._norm(self.texts[b]) for a, b in self.consolidated)

    @property
    def median_ms(self) -> float:
        return 1000 * statistics.median(self.capture_seconds) if self.capture_seconds else 0.0


def load(half: str, path: Path = DATA) -> list[dict]:
    notes = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    mine = [n for n in notes if n["half"] == half]
    return sorted(mine, key=lambda n: datetime.fromisoformat(n["at"]))  # already in order; stable if not


def run_half(half: str, root: Path, path: Path = DATA) -> Consistent:
    t0 = time.perf_counter()
    notes = load(half, path)
    out = Consistent(half, notes=len(notes))
    owner: dict[str, str] = {}  # normalised text -> note id
    record: dict[str, str] = {}  # memory id -> note id of the capture that stored it
    first = datetime.fromisoformat(notes[0]["at"])
    eng = pairs.Engine.init(root, now=first - timedelta(minutes=1))
    try:
        now = first
        for note in notes:
            out.texts[note["id"]] = note["text"]
            owner.setdefault(pairs._norm(note["text"]), note["id"])
            now = datetime.fromisoformat(note["at"])
            kwargs = {k: note[k] for k in CAPTURE_ARGS if note.get(k) is not None}
            c0 = time.perf_counter()
            r = eng.capture(note["text"], now=now, actor=note["agent"], **kwargs)
            out.capture_seconds.append(time.perf_counter() - c0)
            out.statuses[r.status] += 1
            mid = r.details.get("memory_id")
            if r.status == "captured" and mid:
                record[mid] = note["id"]
            elif r.status == "consolidated":
                out.consolidated.append((record.get(mid, "?"), note["id"]))
        for cf in eng.conflicts(now=now + timedelta(minutes=1)):
            a, b = (owner.get(pairs._side_text(s), "?") for s in (cf.existing, cf.incoming))
            if a == "?":  # a side read back from a stored record: find the note that stored it
                a = record.get(pairs._side_id(cf.existing) or "", "?")
            out.conflicts.append((cf.conflict_type, a, b, cf.reason))
    finally:
        eng.close()
    out.texts.setdefault("?", "(not a note of the corpus)")
    out.seconds = time.perf_counter() - t0
    return out


def format_report(results: list[Consistent]) -> str:
    types = sorted({t for c in results for t, *_ in c.conflicts})
    lines = [
        "Each half's notes (one persona's memory over three months; none contradicts another) captured through "
        "`capture` into one fresh wiki, in time order, each at its own time by its own agent. Every conflict is false.",
        "",
        "| half | notes | conflicts opened | per 1,000 notes | held out of memory | consolidated "
        "| consolidations of differing text | capture median | time |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for c in results:
        lines.append(
            f"| {c.half} | {c.notes} | {len(c.conflicts)} | {c.per_thousand:.1f} | {c.held} "
            f"| {len(c.consolidated)} | {c.differing_merges} | {c.median_ms:.1f} ms | {c.seconds:.0f} s |"
        )
    if types:
        lines += ["", "Conflicts by type:", "", "| half | " + " | ".join(types) + " |", "|---|" + "---|" * len(types)]
        for c in results:
            n = Counter(t for t, *_ in c.conflicts)
            lines.append(f"| {c.half} | " + " | ".join(str(n[t]) for t in types) + " |")
    other = {s for c in results for s in c.statuses} - {"captured", "consolidated", "conflict"}
    if other:
        lines += [
            "",
            "Other capture statuses: "
            + "; ".join(
                f"{c.half} " + ", ".join(f"{s} {c.statuses[s]}" for s in sorted(other) if c.statuses[s])
                for c in results
            )
            + ".",
        ]
    return "\n".join(lines)


def list_half(c: Consistent) -> str:
    """Every conflict's two texts and reason, and every consolidation's two texts. Dev halves only."""
    if c.half not in LISTED:
        raise ValueError(f"{c.half} is not listed: a held-out half is reported in totals only")
    lines = [f"Conflicts, {c.half} half ({len(c.conflicts)}): type, existing note / incoming note, reason"]
    for ctype, a, b, reason in c.conflicts:
        lines += [f"- {ctype}: {a} / {b} ({reason})", f"    existing: {c.texts[a]!r}", f"    incoming: {c.texts[b]!r}"]
    lines.append(f"Consolidations, {c.half} half ({len(c.consolidated)}): earlier note / merged note")
    for a, b in c.consolidated:
        lines += [f"- {a} / {b}", f"    earlier: {c.texts[a]!r}", f"    merged:  {c.texts[b]!r}"]
    return "\n".join(lines)


def run(halves: tuple[str, ...] = HALVES) -> list[Consistent]:
    with tempfile.TemporaryDirectory(prefix="mk-consistent-", dir=pairs._scratch()) as tmp:
        return [run_half(h, Path(tmp) / h) for h in halves]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--halves", default=",".join(HALVES), help=f"comma-separated, from {', '.join(HALVES)}")
    p.add_argument("--list", action="store_true", help="list the dev half's conflicts and consolidations")
    args = p.parse_args(argv)
    halves = tuple(h.strip() for h in args.halves.split(",") if h.strip())
    for h in halves:
        if h not in HALVES:
            raise SystemExit(f"unknown half {h!r}: expected one of {', '.join(HALVES)}")
    results = run(halves)
    print(format_report(results))
    if args.list:
        for c in results:
            if c.half in LISTED:
                print()
                print(list_half(c))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Contradiction detection in a crowd: every pair of a half captured into one wiki, through `capture`.

The per-pair bench (benchmarks/contradictions.py) gives each pair a wiki of its own among 60 distractor notes. A
wiki that agents fill holds hundreds of notes on neighbouring subjects: there a detector that matches subjects
loosely opens conflicts between notes that were never about one thing, and a conflict held against the wrong
record may take the place of the right one. Here, for each half: the distractors, then every pair's first statement
(one agent), then every pair's second (a day later, another agent), all in one wiki. Then:

- **found**: contradicting pairs with a conflict open between their own two statements (recall);
- **flagged**: compatible or unrelated pairs with a conflict open between their own two statements;
- **across domains**: conflicts between statements of pairs of two different domains, or between a statement and a
  distractor. Counted as false: the sets' domains (schedules, health, tools, ...) and the distractors do not share
  subjects;
- **within a domain**: conflicts between statements of two different pairs of one domain. Not counted: a few
  subjects recur within a domain across pairs and sets ("the customer newsletter", "Chloe"), so some of these
  are true; `--list` shows them for a dev half, to read;
- **precision** = found / (found + flagged + across domains);
- **recall after a morning**: then a person answers every conflict but a pair's own contradiction "both valid".
  Each held statement becomes a record, and its resolution compares it with the records captured while it
  waited (opening a conflict there, which the person answers in turn), until nothing new opens;
- **shown**: contradicting pairs found, or whose first record the second capture's receipt listed among its
  `related` records (the agent that captured it sees the record and may declare `--contradicts`).

The halves are those of the per-pair bench, unchanged: `dev` is dev + fresh-dev + summaries-dev, `heldout` their
held-out halves; `third-dev` and `third-heldout` the third set's, `fourth-dev` and `fourth-heldout` the fourth's,
each one domain (those sets name none, and their pairs share subjects). A held-out half is reported in totals only
and never listed.

Run alone: `.venv/bin/python benchmarks/crowd.py [--halves dev,heldout,third-dev,fourth-dev,...] [--list]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import contradictions as pairs

HALVES = {
    "dev": ("dev", "fresh-dev", "summaries-dev"),
    "heldout": ("heldout", "fresh-heldout", "summaries-heldout"),
    "third-dev": ("third-dev",),
    "third-heldout": ("third-heldout",),
    "fourth-dev": ("fourth-dev",),
    "fourth-heldout": ("fourth-heldout",),
}
# The third set names no domains, and its two writers each came back to the same subjects across pairs ("daily
# standup is at 9:30" / "the team standup starts at 10:00 CET"; "the 1:1 is every Monday" / "Wednesdays at 10:00"):
# its half is one domain, so a conflict between two of its pairs is listed and not counted (as within a domain of
# the other halves); one with a distractor counts as false.
ONE_DOMAIN = frozenset({"third-dev", "third-heldout", "fourth-dev", "fourth-heldout"})


@dataclass
class Crowd:
    half: str
    notes: int = 0
    contradictions: int = 0
    found: set[str] = field(default_factory=set)  # case ids
    flagged: set[str] = field(default_factory=set)
    across: list[tuple[str, str, str, str]] = field(default_factory=list)  # (type, owner a, owner b, reason)
    within: list[tuple[str, str, str, str]] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # owner -> text, for --list
    after_morning: set[str] = field(default_factory=set)  # found once a person cleared every other conflict
    listed: set[str] = field(default_factory=set)  # second capture's receipt lists the first record in `related`
    cleared: int = 0  # conflicts the person answered "both valid" (those the resolutions opened included)
    seconds: float = 0.0

    @property
    def recall(self) -> float:
        return len(self.found) / self.contradictions if self.contradictions else 0.0

    @property
    def precision(self) -> float:
        held = len(self.found) + len(self.flagged) + len(self.across)
        return len(self.found) / held if held else 0.0


def run_half(half: str, root: Path) -> Crowd:
    t0 = time.perf_counter()
    cases = [c for name in HALVES[half] for c in pairs.load_pairs(name)]
    pairs.build_template(root)
    out = Crowd(half, notes=len(pairs._jsonl(pairs.DISTRACTORS)) + 2 * len(cases))
    out.contradictions = sum(c.label == "contradiction" for c in cases)
    owner: dict[str, tuple[str, str]] = {}  # normalised text -> (case id, domain)
    eng = pairs.Engine.open(root)
    try:
        t = pairs.T_FIRST
        first_id: dict[str, str] = {}
        for which, actor in (("first", pairs.ACTOR_FIRST), ("second", pairs.ACTOR_SECOND)):
            for c in cases:
                side = getattr(c, which)
                text = pairs._norm(side["content"])
                owner.setdefault(text, (c.id, half.split("-")[0] if half in ONE_DOMAIN else c.domain))
                out.texts.setdefault(f"{c.id}.{which}", text)
                t += timedelta(minutes=1)
                r = pairs._capture(eng, side, t, actor)
                if which == "first" and r.status == "captured":
                    first_id[c.id] = r.details["memory_id"]
                elif which == "second" and c.id in first_id and c.label == "contradiction":
                    if pairs.lists(r, first_id[c.id]):
                        out.listed.add(c.id)
            t += timedelta(hours=24)
        label = {c.id: c.label for c in cases}

        def sides(cf) -> tuple[tuple[str, str], tuple[str, str]]:
            a, b = (owner.get(pairs._side_text(s), ("distractor", "distractor")) for s in (cf.existing, cf.incoming))
            return a, b

        for cf in eng.conflicts(now=t):
            (ia, da), (ib, db) = sides(cf)
            row = (cf.conflict_type, ia, ib, cf.reason)
            if ia == ib != "distractor":
                (out.found if label[ia] == "contradiction" else out.flagged).add(ia)
            elif da != db or "distractor" in (ia, ib):
                out.across.append(row)
            else:
                out.within.append(row)
        # A person's morning: every conflict but a pair's own contradiction is answered "both valid", so each held
        # statement becomes a record and meets the records captured while it waited (a resolution opens that
        # conflict); until nothing new opens.
        while True:
            todo = []
            for cf in eng.conflicts(now=t):
                (ia, _), (ib, _) = sides(cf)
                if ia == ib != "distractor" and label[ia] == "contradiction":
                    out.after_morning.add(ia)
                else:
                    todo.append(cf.conflict_id)
            if not todo:
                break
            for cid in todo:
                t += timedelta(seconds=1)
                eng.resolve_conflict(cid, "both", now=t, actor="human:bench")
                out.cleared += 1
    finally:
        eng.close()
    out.seconds = time.perf_counter() - t0
    return out


def format_report(crowds: list[Crowd]) -> str:
    lines = [
        "Every pair of a half in one wiki with the 60 distractors, captured in order (all first statements, then all "
        "second ones a day later). Conflicts across domains, or with a distractor, are counted as false; conflicts "
        "between two pairs of one domain are not counted (some are true).",
        "",
        "| half | notes | contradictions | recall | precision | compatible/unrelated pairs flagged "
        "| conflicts across domains | conflicts within a domain (not counted) | recall after a morning "
        "| conflicts cleared | shown (a conflict, or listed in `related`) | time |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in crowds:
        morning = len(c.after_morning)
        shown = len(c.found | c.listed)
        lines.append(
            f"| {c.half} | {c.notes} | {c.contradictions} | {c.recall:.2f} ({len(c.found)}/{c.contradictions}) "
            f"| {c.precision:.2f} | {len(c.flagged)} | {len(c.across)} | {len(c.within)} "
            f"| {morning / c.contradictions if c.contradictions else 0:.2f} ({morning}/{c.contradictions}) "
            f"| {c.cleared} | {shown / c.contradictions if c.contradictions else 0:.2f} ({shown}/{c.contradictions}) "
            f"| {c.seconds:.0f} s |"
        )
    lines += [
        "",
        'Recall after a morning: a person answers every other conflict "both valid"; each held statement becomes '
        "a record and meets the records captured while it waited. Conflicts cleared counts every answer, those the "
        "resolutions opened included. Shown: the contradictions with a conflict open between their two statements, "
        "or whose first record the second capture's receipt listed among its `related` records, where the agent "
        "that captured it sees the record and may declare `--contradicts`.",
    ]
    return "\n".join(lines)


def list_crowd(c: Crowd) -> str:
    lines = [f"Conflicts between two pairs, {c.half} half (type, the two pairs):"]
    for title, rows in (("across domains", c.across), ("within a domain", c.within)):
        lines.append(f"- {title}:")
        for ctype, ia, ib, reason in rows:
            lines.append(f"  - {ctype}: {ia} / {ib} ({reason})")
    return "\n".join(lines)


DEFAULT_HALVES = ("dev", "heldout", "third-dev", "third-heldout", "fourth-dev", "fourth-heldout")


def run(halves: tuple[str, ...] = DEFAULT_HALVES) -> list[Crowd]:
    out = []
    with tempfile.TemporaryDirectory(prefix="mk-crowd-", dir=pairs._scratch()) as tmp:
        for half in halves:
            out.append(run_half(half, Path(tmp) / half))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--halves", default=",".join(DEFAULT_HALVES), help=f"comma-separated, from {', '.join(HALVES)}")
    p.add_argument("--list", action="store_true", help="list the conflicts between pairs of a dev half")
    args = p.parse_args(argv)
    halves = tuple(h.strip() for h in args.halves.split(",") if h.strip())
    for h in halves:
        if h not in HALVES:
            raise SystemExit(f"unknown half {h!r}: expected one of {', '.join(HALVES)}")
    crowds = run(halves)
    print(format_report(crowds))
    if args.list:
        for c in crowds:
            if c.half in ("dev", "third-dev", "fourth-dev"):
                print()
                print(list_crowd(c))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Contradiction detection measured end to end, through the engine's front door.

For every labelled pair: a wiki of its own (a copy of one that holds only the distractor notes, captured through
`capture`), then `capture(first)` by one agent, `capture(second)` a day later by another, then the outcome:

- **conflict**: a conflict is open whose two sides are this pair's two statements (a predicted contradiction);
- **consolidated**: the second statement was merged into the first;
- **separate**: the second statement was stored as a record of its own;
- anything else (merged into or held against a distractor, refused) is counted as **other**.

For each missed contradiction the report also says whether the second capture's receipt listed the first record
among its `related` records (SPEC §5.1: up to three, with relation and score): there the agent that captured it
sees the record and may declare `--contradicts`. "Shown" counts the pairs a person or that agent is shown.

Sets: the `dev` and `heldout` halves of `benchmarks/data/agent_pairs.jsonl` (no keys), the `fresh-dev` and
`fresh-heldout` halves of `benchmarks/data/agent_pairs_fresh.jsonl` (a second set written later, in the same style),
the `summaries-dev` and `summaries-heldout` halves of `benchmarks/data/agent_summaries.jsonl` (a note of several
claims, then a one-liner), the `third-dev` and `third-heldout` halves of `benchmarks/data/agent_pairs_third.jsonl`
(240 pairs written after the detector by writers who never saw it), the `fourth-dev` and `fourth-heldout` halves of
`benchmarks/data/agent_pairs_fourth.jsonl` (240 more, written the same way on 2026-12-03), and the older labelled fixture `tests/core/fixtures/conflict_pairs.jsonl`, once with the keys it states and once
without them.

Run alone: `.venv/bin/python benchmarks/contradictions.py` (a Markdown report on stdout). `--list dev` adds the
outcome of every dev pair. There is no such listing for a held-out half: it is not read when writing rules.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memkeeper.core import Engine
from memkeeper.core.relation import Statement, relate

HERE = Path(__file__).resolve().parent
PAIRS = HERE / "data" / "agent_pairs.jsonl"
PAIRS_FRESH = HERE / "data" / "agent_pairs_fresh.jsonl"  # a second set, written later: fresh-dev / fresh-heldout
# A third: session summaries of several claims against one-liners (summaries-dev / summaries-heldout).
SUMMARIES = HERE / "data" / "agent_summaries.jsonl"
# Two more, each written after the detector by writers who never saw it: third-dev / third-heldout and
# fourth-dev / fourth-heldout.
PAIRS_THIRD = HERE / "data" / "agent_pairs_third.jsonl"
PAIRS_FOURTH = HERE / "data" / "agent_pairs_fourth.jsonl"
# Probe pairs written from general knowledge: probe-dev is training data (rules were written from it), probe-heldout
# was written after those rules and committed before it was measured (data/README.md).
PAIRS_PROBE = HERE / "data" / "probe_pairs.jsonl"
DISTRACTORS = HERE / "data" / "distractors.jsonl"
FIXTURE = HERE.parent / "tests" / "core" / "fixtures" / "conflict_pairs.jsonl"

T_DISTRACTORS = datetime(2026, 11, 17, 9, 0, tzinfo=UTC)  # three days before the first statement
T_FIRST = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
T_SECOND = T_FIRST + timedelta(hours=26)
ACTOR_SEED, ACTOR_FIRST, ACTOR_SECOND = "agent:seed-session", "agent:session-a", "agent:session-b"

# Targets on the held-out half, end to end (issue 9).
TARGET_RECALL, TARGET_PRECISION, TARGET_CONSOLIDATED = 0.75, 0.85, 0

CAPTURE_ARGS = ("title", "key", "category", "zone", "sensitivity", "source_type", "source_ref")
FIXTURE_COMPATIBLE = {"restatement"}
FIXTURE_UNRELATED = {"unrelated"}


@dataclass
class Case:
    id: str
    label: str  # contradiction | compatible | unrelated
    kind: str | None
    domain: str
    first: dict
    second: dict


@dataclass
class Outcome:
    case: Case
    verdict: str  # conflict | consolidated | separate | other
    detail: str = ""  # conflict type, or what "other" was
    first_status: str = ""
    second_status: str = ""
    distractor_conflicts: int = 0  # conflicts opened against a distractor by this pair's captures
    pair_kind: str = ""  # what the pair decision alone says of the two statements (relate), for the miss breakdown
    listed: bool = False  # the second capture's receipt lists the first record among its `related` records


@dataclass
class Report:
    name: str
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0

    def of(self, label: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.case.label == label]

    @property
    def tp(self) -> int:
        return sum(o.verdict == "conflict" for o in self.of("contradiction"))

    @property
    def fp(self) -> int:
        return sum(o.verdict == "conflict" for o in self.outcomes if o.case.label != "contradiction")

    @property
    def recall(self) -> float | None:
        n = len(self.of("contradiction"))
        return self.tp / n if n else None

    @property
    def precision(self) -> float | None:
        flagged = self.tp + self.fp
        return self.tp / flagged if flagged else None

    def count(self, label: str, verdict: str) -> int:
        return sum(o.verdict == verdict for o in self.of(label))

    @property
    def distractor_conflicts(self) -> int:
        return sum(o.distractor_conflicts for o in self.outcomes)


# -- loading -------------------------------------------------------------------------------------------------------


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def load_pairs(split: str) -> list[Case]:
    if split.startswith("summaries-"):
        path, split = SUMMARIES, split.removeprefix("summaries-")
    elif split.startswith("third-"):
        path = PAIRS_THIRD
    elif split.startswith("fourth-"):
        path = PAIRS_FOURTH
    elif split.startswith("probe-"):
        path = PAIRS_PROBE
    else:
        path = PAIRS_FRESH if split.startswith("fresh-") else PAIRS
    return [
        Case(r["id"], r["label"], r.get("kind"), r["domain"], r["first"], r["second"])
        for r in _jsonl(path)
        if r["split"] == split
    ]


def load_fixture(with_keys: bool) -> list[Case]:
    """The older fixture, mapped onto the three labels: its contradiction types become kinds."""
    cases = []
    for i, r in enumerate(_jsonl(FIXTURE), 1):
        raw = r["label"]
        label = (
            "compatible" if raw in FIXTURE_COMPATIBLE else "unrelated" if raw in FIXTURE_UNRELATED else "contradiction"
        )
        sides = []
        for side in (r["existing"], r["incoming"]):
            s = {"content": side["text"]}
            for name in ("category", "source_ref") + (("canonical_key",) if with_keys else ()):
                if side.get(name):
                    s["key" if name == "canonical_key" else name] = side[name]
            sides.append(s)
        cases.append(Case(f"fixture-{i:03d}", label, raw if label == "contradiction" else None, "fixture", *sides))
    return cases


# -- running -------------------------------------------------------------------------------------------------------


def _capture(eng: Engine, side: dict, now: datetime, actor: str):
    kwargs = {k: side[k] for k in CAPTURE_ARGS if side.get(k) is not None}
    return eng.capture(side["content"], now=now, actor=actor, **kwargs)


def build_template(root: Path) -> Path:
    """A wiki holding only the distractors, each captured through the front door."""
    eng = Engine.init(root, now=T_DISTRACTORS)
    try:
        for i, d in enumerate(_jsonl(DISTRACTORS)):
            r = _capture(eng, d, T_DISTRACTORS + timedelta(minutes=i), ACTOR_SEED)
            if r.status != "captured":  # distractors are about distinct subjects; say so if one was not stored
                print(
                    f"note: distractor {d['id']} came back {r.status} ({r.details.get('reason', '')})", file=sys.stderr
                )
    finally:
        eng.close()
    return root


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())


def _side_text(side) -> str:
    return _norm(side.get("text") if isinstance(side, dict) else getattr(side, "text", None))


def _side_id(side) -> str | None:
    return side.get("memory_id") if isinstance(side, dict) else getattr(side, "memory_id", None)


def _pair_kind(case: Case) -> str:
    """The pair decision on the two statements alone, as capture would call it when the first is a candidate."""
    old, new = (
        Statement(side["content"], side.get("title") or "", side.get("category") or "fact", side.get("source_ref"))
        for side in (case.first, case.second)
    )
    return relate(old, new).kind


def lists(receipt, memory_id: str) -> bool:
    """The capture receipt lists `memory_id` among its `related` records (what the capturing agent is shown)."""
    return any(x.get("memory_id") == memory_id for x in receipt.details.get("related") or [])


def run_case(template: Path, work: Path, case: Case) -> Outcome:
    root = work / case.id
    shutil.copytree(template, root)
    eng = Engine.open(root)
    try:
        r1 = _capture(eng, case.first, T_FIRST, ACTOR_FIRST)
        first_id = r1.details.get("memory_id") if r1.status == "captured" else None
        r2 = _capture(eng, case.second, T_SECOND, ACTOR_SECOND)
        texts = {_norm(case.first["content"]), _norm(case.second["content"])}
        mine, others = [], 0
        for c in eng.conflicts(now=T_SECOND + timedelta(minutes=1)):
            a, b = c.existing, c.incoming
            if {_side_text(a), _side_text(b)} == texts or (
                first_id and _side_id(a) == first_id and _side_text(b) == _norm(case.second["content"])
            ):
                mine.append(c)
            else:
                others += 1  # held against a distractor: by the first capture or the second
        out = Outcome(case, "other", first_status=r1.status, second_status=r2.status, distractor_conflicts=others)
        out.pair_kind = _pair_kind(case)
        out.listed = bool(first_id) and lists(r2, first_id)
        if first_id is None:
            out.detail = f"first statement came back {r1.status} ({r1.details.get('reason', '')})"
        if mine:
            out.verdict, out.detail = "conflict", mine[0].conflict_type
        elif r2.status == "consolidated" and first_id and r2.details.get("memory_id") == first_id:
            out.verdict = "consolidated"
        elif r2.status == "captured" and first_id:
            out.verdict = "separate"
        elif not out.detail:
            target = "a distractor" if r2.status in ("conflict", "consolidated") else ""
            out.detail = (
                f"second statement came back {r2.status}"
                + (f" against {target}" if target else "")
                + (f" ({r2.details['reason']})" if r2.details.get("reason") else "")
            )
        return out
    finally:
        eng.close()
        shutil.rmtree(root, ignore_errors=True)


def run_set(name: str, cases: list[Case], template: Path, work: Path) -> Report:
    t0 = time.perf_counter()
    report = Report(name, [run_case(template, work, c) for c in cases])
    report.seconds = time.perf_counter() - t0
    return report


# -- reporting -----------------------------------------------------------------------------------------------------


def _f(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def _frac(hits: int, n: int) -> str:
    return f"{hits}/{n} ({hits / n:.2f})" if n else "-"


def _met(ok: bool) -> str:
    return "met" if ok else "not met"


def format_report(reports: list[Report], elapsed: float) -> str:
    lines: list[str] = []
    add = lines.append
    add(
        "Each pair in a wiki of its own among 60 distractor notes; `first` captured by one agent, `second` a day later "
        "by another. A conflict open between the pair's two statements = predicted contradiction."
    )
    add("")
    add(
        "| set | pairs | contradictions | recall | precision | contradictions consolidated | compatible flagged "
        "| unrelated flagged | conflicts with a distractor |"
    )
    add("|---|---|---|---|---|---|---|---|---|")
    for r in reports:
        pos, comp, unrel = (len(r.of(label)) for label in ("contradiction", "compatible", "unrelated"))
        add(
            f"| {r.name} | {len(r.outcomes)} | {pos} | {_f(r.recall)} ({r.tp}/{pos}) "
            f"| {_f(r.precision)} ({r.tp}/{r.tp + r.fp}) | {r.count('contradiction', 'consolidated')} "
            f"| {r.count('compatible', 'conflict')}/{comp} | {r.count('unrelated', 'conflict')}/{unrel} "
            f"| {r.distractor_conflicts} |"
        )
    add("")
    for held in (r for r in reports if r.name in HELD_OUT):
        add(
            f"Targets ({held.name}, end to end): recall ≥ {TARGET_RECALL:.2f} ({_f(held.recall)}: "
            f"{_met((held.recall or 0) >= TARGET_RECALL)}), precision ≥ {TARGET_PRECISION:.2f} "
            f"({_f(held.precision)}: {_met((held.precision or 0) >= TARGET_PRECISION)}), "
            f"{TARGET_CONSOLIDATED} contradicting pairs consolidated "
            f"({held.count('contradiction', 'consolidated')}: "
            f"{_met(held.count('contradiction', 'consolidated') <= TARGET_CONSOLIDATED)})."
        )
        add("")

    add("What happened to the second statement (conflict / consolidated / separate / other):")
    add("")
    add("| set | contradiction | compatible | unrelated |")
    add("|---|---|---|---|")
    for r in reports:
        cells = [
            " / ".join(str(r.count(label, v)) for v in ("conflict", "consolidated", "separate", "other"))
            for label in ("contradiction", "compatible", "unrelated")
        ]
        add(f"| {r.name} | " + " | ".join(cells) + " |")
    add("")

    add("Recall by kind of contradiction:")
    add("")
    kinds = sorted({o.case.kind for r in reports for o in r.of("contradiction") if o.case.kind})
    add("| kind | " + " | ".join(r.name for r in reports) + " |")
    add("|---|" + "---|" * len(reports))
    for k in kinds:
        cells = []
        for r in reports:
            rows = [o for o in r.of("contradiction") if o.case.kind == k]
            cells.append(_frac(sum(o.verdict == "conflict" for o in rows), len(rows)))
        add(f"| {k} | " + " | ".join(cells) + " |")
    add("")

    agent = [r for r in reports if r.name in AGENT_SETS]
    if agent:
        add("Recall by domain (agent pairs), and compatible/unrelated pairs flagged:")
        add("")
        add("| domain | " + " | ".join(f"{r.name} recall | {r.name} flagged" for r in agent) + " |")
        add("|---|" + "---|---|" * len(agent))
        domains = list(dict.fromkeys(o.case.domain for r in agent for o in r.outcomes))
        for d in domains:
            cells = []
            for r in agent:
                rows = [o for o in r.of("contradiction") if o.case.domain == d]
                neg = [o for o in r.outcomes if o.case.domain == d and o.case.label != "contradiction"]
                cells.append(_frac(sum(o.verdict == "conflict" for o in rows), len(rows)))
                cells.append(f"{sum(o.verdict == 'conflict' for o in neg)}/{len(neg)}")
            add(f"| {d} | " + " | ".join(cells) + " |")
        add("")

    for r in reports:
        # (for a held-out half, what came back and no more: the reason would quote the half's words)
        others = Counter(
            o.detail.split(" (")[0] if r.name in HELD_OUT else o.detail for o in r.outcomes if o.verdict == "other"
        )
        if others:
            add(
                f"{r.name}: "
                + "; ".join(f"{n} pair{'s' * (n > 1)} whose {d}" for d, n in sorted(others.items()))
                + " (counted as not flagged)."
            )
            add("")

    add(
        "Contradictions missed, by what the pair decision alone says of the two statements (`unrelated`: their"
        " subjects were not matched; `compatible` / `restatement`: matched, no difference held; `conflict` /"
        " `possible`: the decision holds it, so the first record was not among the capture's candidates):"
    )
    add("")
    add(
        "The last column: of the missed, those whose first statement the second capture's receipt still lists among its"
        " `related` records (up to three, best first), where the agent that captured it sees the record and may declare"
        " `--contradicts` (SPEC §5.1)."
    )
    add("")
    add("| set | missed | unrelated | compatible | restatement | conflict or possible | listed in `related` |")
    add("|---|---|---|---|---|---|---|")
    for r in reports:
        missed = [o for o in r.of("contradiction") if o.verdict != "conflict"]
        by = Counter(o.pair_kind for o in missed)
        add(
            f"| {r.name} | {len(missed)} | {by['unrelated']} | {by['compatible']} | {by['restatement']} "
            f"| {by['conflict'] + by['possible']} | {sum(o.listed for o in missed)} |"
        )
    add("")
    add(
        "Contradictions a person or the capturing agent is shown (a conflict opened, or the first record listed in the"
        " receipt's `related`): "
        + "; ".join(
            f"{r.name} {_frac(sum(o.verdict == 'conflict' or o.listed for o in r.of('contradiction')), len(r.of('contradiction')))}"
            for r in reports
            if r.of("contradiction")
        )
        + "."
    )
    add("")

    types = Counter((r.name, o.detail) for r in reports for o in r.outcomes if o.verdict == "conflict")
    if types:
        add(
            "Conflict types opened: "
            + "; ".join(
                f"{r.name}: " + ", ".join(f"{t} {n}" for (name, t), n in sorted(types.items()) if name == r.name)
                for r in reports
                if any(name == r.name for name, _ in types)
            )
            + "."
        )
        add("")
    add(f"Runtime: {elapsed:.1f} s in all (" + ", ".join(f"{r.name} {r.seconds:.1f} s" for r in reports) + ").")
    return "\n".join(lines)


def list_outcomes(report: Report) -> str:
    out = [f"Outcomes, {report.name}:"]
    for o in report.outcomes:
        mark = "ok " if (o.verdict == "conflict") == (o.case.label == "contradiction") else "XX "
        out.append(f"{mark}{o.case.id:18} {o.case.label:13} {o.case.kind or '':13} -> {o.verdict:12} {o.detail}")
    return "\n".join(out)


AGENT_SETS = ("dev", "heldout", "fresh-dev", "fresh-heldout", "summaries-dev", "summaries-heldout")
THIRD_SETS = ("third-dev", "third-heldout")  # no domains: kept out of the by-domain table
FOURTH_SETS = ("fourth-dev", "fourth-heldout")  # likewise
PROBE_SETS = ("probe-dev", "probe-heldout")  # likewise
HELD_OUT = ("heldout", "fresh-heldout", "summaries-heldout", "third-heldout", "fourth-heldout", "probe-heldout")
SETS = (
    ("dev", "heldout", "fixture", "fixture-nokeys")
    + (("fresh-dev", "fresh-heldout") if PAIRS_FRESH.exists() else ())
    + (("summaries-dev", "summaries-heldout") if SUMMARIES.exists() else ())
    + (THIRD_SETS if PAIRS_THIRD.exists() else ())
    + (FOURTH_SETS if PAIRS_FOURTH.exists() else ())
    + (PROBE_SETS if PAIRS_PROBE.exists() else ())
)


def _scratch() -> str | None:
    """A memory-backed directory when there is one: ~800 small wikis are written and removed, and what is measured
    here is detection, not the disk's fsync."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


def run(sets: tuple[str, ...] = SETS) -> tuple[list[Report], float]:
    t0 = time.perf_counter()
    reports = []
    with tempfile.TemporaryDirectory(prefix="mk-pairs-", dir=_scratch()) as tmp:
        template = build_template(Path(tmp) / "template")
        work = Path(tmp) / "work"
        work.mkdir()
        for name in sets:
            if name in AGENT_SETS or name in THIRD_SETS or name in FOURTH_SETS or name in PROBE_SETS:
                cases = load_pairs(name)
            elif name == "fixture":
                cases = load_fixture(with_keys=True)
            elif name == "fixture-nokeys":
                cases = load_fixture(with_keys=False)
            else:
                raise SystemExit(f"unknown set {name!r}: expected one of {', '.join(SETS)}")
            reports.append(run_set(name, cases, template, work))
    return reports, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, from {', '.join(SETS)}")
    p.add_argument(
        "--list",
        choices=(
            "dev",
            "fresh-dev",
            "summaries-dev",
            "third-dev",
            "fourth-dev",
            "probe-dev",
            "fixture",
            "fixture-nokeys",
        ),
        action="append",
        default=[],
        help="also list every pair's outcome for this set (never the held-out half)",
    )
    args = p.parse_args(argv)
    sets = tuple(s.strip() for s in args.sets.split(",") if s.strip())
    reports, elapsed = run(sets)
    print(format_report(reports, elapsed))
    for name in args.list:
        for r in reports:
            if r.name == name:
                print()
                print(list_outcomes(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())

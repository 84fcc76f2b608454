"""Assign `split` and the source refs of agent_pairs_fresh.jsonl, deterministically, and rewrite the file.

Both depend only on the pair ids (and, for the split, on label, domain and kind), so running this again changes
nothing. The split rule is the one written in README.md, "The fresh set":

1. Group the pairs into strata by (label, domain); sort the strata by that tuple; number them n = 0, 1, ...
2. Inside a stratum, sort the pairs by (kind or "", sha256(id) as hex); number them i = 0, 1, ...
3. The offset of a stratum is n when it holds an even number of pairs, and m, its 0-based index among the
   odd-sized strata (in the same sorted order), when it holds an odd number.
4. Pair i goes to "fresh-dev" when (i + offset) is even, else to "fresh-heldout".

Source refs: a generator seeded with sha256(id) decides whether each side has a source_ref (both sides in most
pairs, one or neither in the rest) and draws its text; the two refs of a pair are never equal.

Usage: python benchmarks/data/make_fresh_split.py [path]
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

PATH = Path(__file__).resolve().with_name("agent_pairs_fresh.jsonl")
DEV, HELDOUT = "fresh-dev", "fresh-heldout"
SIDE_ORDER = ("title", "content", "category", "zone", "sensitivity", "source_type", "source_ref")

CHANNELS = ("general", "ops", "eng", "household", "announcements", "help", "platform", "family")
MEETINGS = ("sync", "1on1", "planning", "retro", "standup", "review")
DOCS = ("handbook", "runbook", "team-notes", "household-binder", "wiki", "onboarding")


def _hex(pair_id: str) -> str:
    return hashlib.sha256(pair_id.encode()).hexdigest()


def _rng(pair_id: str) -> random.Random:
    return random.Random(int(_hex(pair_id)[:16], 16))


def _date(r: random.Random) -> str:
    return f"{r.choice((2024, 2025))}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _ref(r: random.Random) -> str:
    form = r.randrange(7)
    if form == 0:
        return f"session-{_date(r)}-{r.getrandbits(24):06x}"
    if form == 1:
        return f"slack:#{r.choice(CHANNELS)}/p{r.randint(1_700_000_000, 1_760_000_000)}{r.randint(0, 999999):06d}"
    if form == 2:
        return f"notes/{_date(r)}.md"
    if form == 3:
        return f"meeting:{_date(r)}-{r.choice(MEETINGS)}"
    if form == 4:
        return f"email:{_date(r)}/{r.getrandbits(24):06x}"
    if form == 5:
        return f"chat:{_date(r)}T{r.randint(7, 22):02d}:{r.randint(0, 59):02d}"
    return f"doc:{r.choice(DOCS)}#{r.randint(1, 40)}"


def assign_sources(pair: dict) -> None:
    r = _rng(pair["id"])
    x = r.random()
    has_first, has_second = (
        (True, True) if x < 0.6 else (True, False) if x < 0.75 else (False, True) if x < 0.9 else (False, False)
    )
    first = _ref(r)
    second = _ref(r)
    while second == first:
        second = _ref(r)
    for side, has, ref in (("first", has_first, first), ("second", has_second, second)):
        pair[side].pop("source_ref", None)
        if has:
            pair[side]["source_ref"] = ref


def assign_split(pairs: list[dict]) -> None:
    strata: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for p in pairs:
        strata[(p["label"], p["domain"])].append(p)
    odd_index = 0
    for n, key in enumerate(sorted(strata)):
        members = sorted(strata[key], key=lambda p: (p.get("kind") or "", _hex(p["id"])))
        if len(members) % 2:
            offset = odd_index
            odd_index += 1
        else:
            offset = n
        for i, p in enumerate(members):
            p["split"] = DEV if (i + offset) % 2 == 0 else HELDOUT


def _ordered(p: dict) -> dict:
    out = {"id": p["id"], "split": p["split"], "domain": p["domain"], "label": p["label"]}
    if p["label"] == "contradiction":
        out["kind"] = p["kind"]
    for side in ("first", "second"):
        out[side] = {k: p[side][k] for k in SIDE_ORDER if k in p[side]}
    return out


def main(path: Path = PATH) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    pairs = [json.loads(line) for line in lines if line.strip()]
    for p in pairs:
        assign_sources(p)
    assign_split(pairs)
    text = "".join(json.dumps(_ordered(p), ensure_ascii=False) + "\n" for p in pairs)
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else PATH)

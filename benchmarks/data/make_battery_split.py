"""Build agent_pairs_third.jsonl and agent_pairs_fourth.jsonl from their source batteries, with their split and
source refs, deterministically.

Each set was written after the detector, by two writers who never saw the project, as plain batteries: lists of
[want, first, second] with want `c` (contradiction), `k` (compatible: same subject, both can be true) or `u`
(unrelated: the same wording about another entity). `third_a.json` favours people, homes, health and money;
`third_b.json` codebases, deployments, vendors and family logistics; `fourth_a.json` work life, `fourth_b.json`
personal life. Neither names domains or kinds.

The split is made before any rule is written from the set, and depends only on the pair ids:

1. A pair's id is `<set>-<a|b>-<NNN>` (its set, its battery and 0-based index).
2. Inside each (battery, label) group, sort the pairs by sha256(id) as hex and number them i = 0, 1, ...
3. Pair i goes to "<set>-dev" when i is even, else to "<set>-heldout".

Source refs: every side has one, `session-<date>-<six hex digits of sha256(id + side)>`, so the two differ.

Usage: python benchmarks/data/make_battery_split.py   (rewrites both files; running it again changes nothing)
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SETS = ("third", "fourth")
LABELS = {"c": "contradiction", "k": "compatible", "u": "unrelated"}


def _hex(s: str) -> str:
    return hashlib.sha256(s.encode()).hexdigest()


def out(name: str) -> Path:
    return HERE / f"agent_pairs_{name}.jsonl"


def build(name: str) -> list[dict]:
    pairs: list[dict] = []
    for battery in ("a", "b"):
        path = HERE / f"{name}_{battery}.json"
        for n, (want, first, second) in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            pid = f"{name}-{battery}-{n:03d}"
            pairs.append(
                {
                    "id": pid,
                    "split": "",
                    "domain": f"battery-{battery}",
                    "label": LABELS[want],
                    "first": {"content": first, "source_ref": f"session-2026-11-20-{_hex(pid + 'first')[:6]}"},
                    "second": {"content": second, "source_ref": f"session-2026-11-21-{_hex(pid + 'second')[:6]}"},
                }
            )
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for p in pairs:
        groups[(p["domain"], p["label"])].append(p)
    for group in groups.values():
        for i, p in enumerate(sorted(group, key=lambda p: _hex(p["id"]))):
            p["split"] = f"{name}-dev" if i % 2 == 0 else f"{name}-heldout"
    return pairs


def main() -> None:
    for name in SETS:
        out(name).write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in build(name)), encoding="utf-8")


if __name__ == "__main__":
    main()

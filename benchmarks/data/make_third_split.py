"""Build agent_pairs_third.jsonl from its two source batteries, with its split and source refs, deterministically.

The third set was written after the detector, by two writers who never saw the project, as plain batteries: lists of
[want, first, second] with want `c` (contradiction), `k` (compatible: same subject, both can be true) or `u`
(unrelated: the same wording about another entity). `third_a.json` favours people, homes, health and money;
`third_b.json` codebases, deployments, vendors and family logistics. Neither names domains or kinds.

The split is made before any rule is written from the set, and depends only on the pair ids:

1. A pair's id is `third-<a|b>-<NNN>` (its battery and 0-based index).
2. Inside each (battery, label) group, sort the pairs by sha256(id) as hex and number them i = 0, 1, ...
3. Pair i goes to "third-dev" when i is even, else to "third-heldout".

Source refs: every side has one, `session-<date>-<six hex digits of sha256(id + side)>`, so the two differ.

Usage: python benchmarks/data/make_third_split.py   (rewrites agent_pairs_third.jsonl; running it again changes nothing)
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = (("a", HERE / "third_a.json"), ("b", HERE / "third_b.json"))
OUT = HERE / "agent_pairs_third.jsonl"
LABELS = {"c": "contradiction", "k": "compatible", "u": "unrelated"}


def _hex(s: str) -> str:
    return hashlib.sha256(s.encode()).hexdigest()


def build() -> list[dict]:
    pairs: list[dict] = []
    for battery, path in SOURCES:
        for n, (want, first, second) in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            pid = f"third-{battery}-{n:03d}"
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
            p["split"] = "third-dev" if i % 2 == 0 else "third-heldout"
    return pairs


def main() -> None:
    OUT.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in build()), encoding="utf-8")


if __name__ == "__main__":
    main()

"""Assigns a deterministic dev/heldout split to agent_summaries.jsonl (rewrites it in place).

Rule: group pairs into strata by (label, domain) and sort the strata by that tuple.
Within stratum n (0-based), sort pairs by (kind or "", sha256(id) hex); the pair at
position i goes to "dev" when (i + n) is even, else to "heldout".
The file is rewritten with lines ordered by id; "split" is placed right after "id".
"""

import hashlib
import json
import os
from collections import Counter, defaultdict

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "agent_summaries.jsonl")


def main():
    with open(PATH, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]

    strata = defaultdict(list)
    for r in rows:
        strata[(r["label"], r["domain"])].append(r)

    split_of = {}
    for n, key in enumerate(sorted(strata)):
        members = sorted(
            strata[key], key=lambda r: (r.get("kind") or "", hashlib.sha256(r["id"].encode("utf-8")).hexdigest())
        )
        for i, r in enumerate(members):
            split_of[r["id"]] = "dev" if (i + n) % 2 == 0 else "heldout"

    out = []
    for r in sorted(rows, key=lambda r: r["id"]):
        new = {"id": r["id"], "split": split_of[r["id"]]}
        new.update({k: v for k, v in r.items() if k not in ("id", "split")})
        out.append(new)

    tmp = PATH + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for r in out:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    os.replace(tmp, PATH)

    counts = Counter((r["split"], r["label"]) for r in out)
    labels = ["contradiction", "compatible", "unrelated"]
    print(f"{'split':<8} " + " ".join(f"{lab:>13}" for lab in labels) + f" {'total':>6}")
    for s in ("dev", "heldout"):
        vals = [counts[(s, lab)] for lab in labels]
        print(f"{s:<8} " + " ".join(f"{v:>13}" for v in vals) + f" {sum(vals):>6}")
    tot = [counts[("dev", lab)] + counts[("heldout", lab)] for lab in labels]
    print(f"{'total':<8} " + " ".join(f"{v:>13}" for v in tot) + f" {sum(tot):>6}")


if __name__ == "__main__":
    main()

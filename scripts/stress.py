"""`make stress`: the long crash and contention probes of issue 7, with the figures for the README.

1. SIGKILL a process doing captures and decisions (resolve, confirm, deny, undeny, quiz record) at random moments;
   after each kill every page must parse, the next command must run (completing what the kill interrupted) and
   `check` must be clean; no operation the process reported done may be missing from the audit trail.
2. Writer processes making CLI captures beside reader processes running read-only commands: no capture fails or
   is lost, no read-only command fails, `check` is clean afterwards.

Exit 1 when any requirement fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.probes import contention_probe, kill_probe, seed_wiki  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kills", type=int, default=200)
    p.add_argument("--writers", type=int, default=8)
    p.add_argument("--captures", type=int, default=500, help="captures per writer")
    p.add_argument("--readers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dir", help="where to build the probe wikis (default: a temporary directory)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="memkeeper-stress-", dir=args.dir) as tmp:
        base = Path(tmp)
        failed = False
        figures: dict[str, object] = {}

        if args.kills:
            root = base / "kill"
            seed_wiki(root)
            step = max(1, args.kills // 10)
            rep = kill_probe(
                root,
                args.kills,
                seed=args.seed,
                log=lambda msg: (
                    print(msg, flush=True)
                    if msg.startswith("kill ") and int(msg.split()[1].split("/")[0]) % step == 0
                    else None
                ),
            )
            figures["kill"] = {
                "sigkills": rep.kills,
                "operations_completed": rep.ops_done,
                "kills_after_a_commit_point": rep.intents_left,
                "kills_before_one": rep.staged_left,
                "lost": len(rep.lost),
                "unparseable_pages": len(rep.unparseable),
                "next_command_failures": len(rep.next_command_failures),
                "check_problems": len(rep.check_problems),
                "wall_seconds": round(rep.seconds, 1),
            }
            print(
                f"SIGKILLs: {rep.kills} during {rep.ops_done} completed captures and decisions "
                f"({rep.intents_left} after a commit point, {rep.staged_left} before one) in {rep.seconds:.0f} s — "
                f"lost: {len(rep.lost)}, unparseable pages: {len(rep.unparseable)}, "
                f"next-command failures: {len(rep.next_command_failures)}, check problems: {len(rep.check_problems)}"
            )
            for line in (rep.lost + rep.unparseable + rep.next_command_failures + rep.check_problems)[:20]:
                print("  " + line)
            failed |= not rep.ok

        if args.writers and args.captures:
            t0 = time.perf_counter()
            rep2 = contention_probe(base / "contention", args.writers, args.captures, args.readers)
            f = rep2.figures()
            figures["contention"] = f
            print(
                f"captures: {f['captures']} by {args.writers} writer processes beside {args.readers} reader(s) in "
                f"{f['wall_seconds']} s ({f['captures_per_second']}/s) — failures: {f['failures']}, lost: {f['lost']}, "
                f"check problems: {f['check_problems']}"
            )
            print(
                f"capture latency under contention: median {f['capture_latency_median_s']} s, "
                f"95th {f['capture_latency_p95_s']} s, max {f['capture_latency_max_s']} s"
            )
            print(
                f"read-only commands: {f['reader_calls']}, failures: {f['reader_failures']}, "
                f"median {f['reader_latency_median_s']} s, 95th {f['reader_latency_p95_s']} s"
            )
            for line in (rep2.failures + rep2.lost + rep2.reader_failures + rep2.check_problems)[:20]:
                print("  " + line)
            failed |= not rep2.ok
            figures["contention_probe_seconds"] = round(time.perf_counter() - t0, 1)

        if args.json:
            print(json.dumps(figures, indent=2))
        print("stress: " + ("FAILED" if failed else "ok"))
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

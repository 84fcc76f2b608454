"""Write core/data/secret_patterns.json: the regexes of the detect-secrets plugins memkeeper scans with.

Capture reads this file instead of importing detect-secrets, whose plugin base imports `requests` (about 0.1 s on
every CLI capture). tests/core/test_secrets.py fails when the file and the installed library disagree: after an
upgrade of detect-secrets, run `.venv/bin/python scripts/secret_patterns.py` and commit the file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from memkeeper.core.secrets import LIBRARY_PLUGINS, PATTERNS_FILE, library_patterns


def main() -> int:
    patterns = library_patterns()
    missing = sorted(set(LIBRARY_PLUGINS) - set(patterns["plugins"]))
    if missing:
        print(f"detect-secrets no longer has: {', '.join(missing)}", file=sys.stderr)
        return 1
    Path(PATTERNS_FILE).write_text(json.dumps(patterns, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {PATTERNS_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

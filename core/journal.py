"""Write-ahead intents: the writes of one operation commit as one unit (SPEC §3 atomic writes, §4 receipts).

Under the write lock an operation does not touch the wiki directly. New file texts are staged under
`journal/stage/` (each written atomically), appends are held in memory. When the operation records its receipt,
the **intent** — every step, with the sha256 each file will have, the sha256 it has now, and the byte offset at
which each append starts — is written atomically to `journal/intent.json`. That is the commit point. Then the
steps are applied (a staged file is renamed over its target; appends are written; the receipt, log row and
PATTERNS event come last), and the intent is removed when the operation ends.

A process killed before the commit point leaves only staged files, which are discarded. A process killed after it
leaves the intent, which the next writer (on taking the lock) or `check --repair` completes. Every step is
idempotent, so completing twice is completing once:
- a write whose target already has the new sha256 is done; one whose target still has the old sha256 is applied;
  a target that has neither was changed by hand after the crash and is left alone (reported, never overwritten);
- an append compares the bytes at its offset with its data: present → done, a torn prefix → the rest is written,
  absent → written once;
- a removal only removes a file that still has the sha256 it had when the operation read it.

`journal/` lives in the wiki root, not in `.memkeeper/`: an intent is not derived data (it holds the receipt of a
write that may not be in `receipts/` yet), and `.memkeeper/` may be deleted at any time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .pages import append_lines, atomic_write, keep_mode, synced_together

JOURNAL_DIR = "journal"
INTENT = "journal/intent.json"
STAGE_DIR = "journal/stage"
INTENT_SCHEMA = "memkeeper.intent.v1"

# `atomic_write` names its temp files `.<name>.<random>.tmp`; a process killed between creating one and renaming it
# leaves it behind. The random part is 8 characters (8 hex digits; `tempfile.mkstemp`'s 8 of [a-z0-9_] where there
# is no `dir_fd`): a person's own hidden `.notes.tmp` is not one, and is never removed.
TMP_NAME = re.compile(r"^\..+\.[0-9a-z_]{8}\.tmp$")


def file_sha256(path: Path) -> str | None:
    """sha256 of a regular file's bytes, or None when there is no file there (a symlink is never followed)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == 40:  # ELOOP: a symlink where a file should be
            return "symlink"
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "not-a-file"
        h = hashlib.sha256()
        while chunk := os.read(fd, 1 << 20):
            h.update(chunk)
        return h.hexdigest()
    finally:
        os.close(fd)


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def encode_lines(lines: list[str]) -> str:
    """Exactly what `append_lines` writes for `lines`."""
    return "".join(line.rstrip("\n") + "\n" for line in lines)


# The steps of a transaction, and what applying an intent did. Plain classes: the engine's CLI imports this module
# for every command, and five dataclasses cost it ~3 ms to create.


class _Write:
    __slots__ = ("path", "stage", "sha256", "before", "entry")

    def __init__(self, path: str, stage: str, sha256: str, before: str | None, entry: Any = None) -> None:
        self.path = path
        self.stage = stage
        self.sha256 = sha256
        self.before = before
        self.entry = entry  # the Entry behind an entries/ page (kept in memory only, to update the index on apply)

    def to_json(self) -> dict[str, Any]:
        return {"op": "write", "path": self.path, "stage": self.stage, "sha256": self.sha256, "before": self.before}


class _Append:
    __slots__ = ("path", "data", "offset")

    def __init__(self, path: str, data: str, offset: int = 0) -> None:
        self.path = path
        self.data = data  # text to append, every line ending with "\n" (a header first when the file did not exist)
        self.offset = offset

    def to_json(self) -> dict[str, Any]:
        return {"op": "append", "path": self.path, "data": self.data, "offset": self.offset}


class _Remove:
    __slots__ = ("path", "sha256")

    def __init__(self, path: str, sha256: str | None) -> None:
        self.path = path
        self.sha256 = sha256

    def to_json(self) -> dict[str, Any]:
        return {"op": "remove", "path": self.path, "sha256": self.sha256}


class _Rename:
    __slots__ = ("path", "dst")

    def __init__(self, path: str, dst: str) -> None:
        self.path = path  # source (a staged directory)
        self.dst = dst

    def to_json(self) -> dict[str, Any]:
        return {"op": "rename", "path": self.path, "dst": self.dst}


class Outcome:
    """What applying an intent did: files written, steps already done, steps left alone (with why)."""

    __slots__ = ("written", "done_before", "skipped")

    def __init__(self) -> None:
        self.written: list[str] = []
        self.done_before: list[str] = []
        self.skipped: list[dict[str, str]] = []

    def __repr__(self) -> str:
        return f"Outcome(written={self.written!r}, done_before={self.done_before!r}, skipped={self.skipped!r})"


class Txn:
    """The staged writes of one operation (lock held). Paths are relative to the root, already confined."""

    def __init__(self, root: Path, resolve: Callable[[str], Path]) -> None:
        self.root = root
        self._resolve = resolve
        self._resolved: dict[str, Path] = {}
        self.steps: dict[str, Any] = {}  # keyed by path (rename: by source); insertion order is apply order
        self.pages_by_id: dict[str, str] = {}  # memory id → entry page staged in this operation
        self.renamed_to: set[str] = set()
        self.committed = False
        # The error that stopped applying a committed intent (the disk failed after the commit point): the operation
        # stands, its intent stays in journal/ for the next writer (or check --repair) to finish.
        self.unfinished: BaseException | None = None
        self.receipt_sha256: str | None = None  # of the last commit with a receipt
        # What readers worked out from files this operation has not changed since (the lock keeps other writers
        # out): emptied as each commit is applied. The conflicts folder's signature is one (a stat per record file,
        # asked several times by one capture).
        self.memo: dict[str, Any] = {}

    # -- staging --------------------------------------------------------------------------------------------------

    def resolve(self, rel: str) -> Path:
        """The confined path of `rel`, resolved once per operation (the lock is held throughout)."""
        path = self._resolved.get(rel)
        if path is None:
            path = self._resolved[rel] = self._resolve(rel)
        return path

    @property
    def pending(self) -> bool:
        return bool(self.steps)

    def stage_path(self, rel: str) -> str:
        digest = hashlib.sha256(rel.encode("utf-8")).hexdigest()[:16]
        return f"{STAGE_DIR}/{digest}-{rel.rsplit('/', 1)[-1]}"

    def write(self, rel: str, text: str, entry: Any = None) -> None:
        """Stage the new text of a file (written atomically to journal/stage/ now, renamed into place on commit)."""
        prior = self.steps.pop(rel, None)
        if isinstance(prior, _Write):
            before = prior.before
        elif isinstance(prior, _Remove):
            before = prior.sha256
        else:
            # An append staged before a write of the same file is folded into the write's text by the caller
            # (`read_text` shows it); the file on disk is what the write replaces.
            before = file_sha256(self.resolve(rel))
        stage = self.stage_path(rel)
        atomic_write(self.root / stage, text)
        self.steps[rel] = _Write(rel, stage, text_sha256(text), before, entry)
        if entry is not None:
            self.pages_by_id[entry.memory_id] = rel

    def append(self, rel: str, lines: list[str], create: str | None = None) -> None:
        """Stage whole lines to append; `create` is written first when the file does not exist yet."""
        if not lines:
            return
        data = encode_lines(lines)
        prior = self.steps.get(rel)
        if isinstance(prior, _Write):
            self.write(rel, (self.read_text(rel) or "") + data, prior.entry)
            return
        if isinstance(prior, _Append):
            prior.data += data
            # Keep the apply order: appends to one file stay where it was first touched.
            return
        if isinstance(prior, _Remove):
            raise ValueError(f"{rel}: append after remove in one operation")
        target = self.resolve(rel)
        if create is not None and not os.path.lexists(target):
            data = create + data
        self.steps[rel] = _Append(rel, data)

    def remove(self, rel: str) -> None:
        prior = self.steps.pop(rel, None)
        if isinstance(prior, _Write):
            self._drop_stage(prior)
            if prior.before is None:
                return  # created and removed within the operation
            self.steps[rel] = _Remove(rel, prior.before)
            return
        self.steps[rel] = _Remove(rel, file_sha256(self.resolve(rel)))

    def rename(self, src_rel: str, dst_rel: str) -> None:
        """Move a staged directory into place (snapshots)."""
        self.steps[src_rel] = _Rename(src_rel, dst_rel)
        self.renamed_to.add(dst_rel)

    def has(self, rel: str) -> bool:
        return isinstance(self.steps.get(rel), _Write | _Append) or rel in self.renamed_to

    def appending(self, rel: str) -> str:
        """What this operation has staged to append to `rel` and not yet committed ("" when nothing)."""
        step = self.steps.get(rel)
        return step.data if isinstance(step, _Append) else ""

    def read_text(self, rel: str) -> str | None:
        """The text `rel` will have after this operation, or None when the operation has not touched it."""
        step = self.steps.get(rel)
        if isinstance(step, _Write):
            return (self.root / step.stage).read_text(encoding="utf-8")
        if isinstance(step, _Append):
            try:
                old = self.resolve(rel).read_text(encoding="utf-8")
            except FileNotFoundError:
                old = ""
            return old + step.data
        if isinstance(step, _Remove):
            raise FileNotFoundError(rel)
        return None

    def entries(self) -> list[tuple[str, Any, str]]:
        """(page, Entry, sha256) of every entry page this operation writes."""
        return [
            (s.path, s.entry, s.sha256) for s in self.steps.values() if isinstance(s, _Write) and s.entry is not None
        ]

    def discard(self) -> None:
        """Forget what was staged and not committed (the operation failed before its receipt)."""
        for step in self.steps.values():
            self._drop_stage(step)
        self.clear()

    def clear(self) -> None:
        """Forget the staged steps (committed: they belong to the intent now; or discarded)."""
        self.steps = {}
        self.pages_by_id = {}
        self.renamed_to = set()

    def _drop_stage(self, step: Any) -> None:
        if isinstance(step, _Write):
            try:
                os.unlink(self.root / step.stage)
            except OSError:
                # Gone already, or the disk refuses this too (a file system turned read-only): a staged file no
                # intent names is discarded by the next write, and the error that stopped the operation is the one
                # to tell (it is being handled when this runs).
                pass

    # -- commit ---------------------------------------------------------------------------------------------------

    def intent(self, receipt: dict[str, Any] | None) -> dict[str, Any]:
        """The intent for what is staged. Apply order: writes, renames and removals, then appends (in the order
        first touched — the caller stages the receipt, log row and PATTERNS event last)."""
        files = [s for s in self.steps.values() if not isinstance(s, _Append)]
        appends = [s for s in self.steps.values() if isinstance(s, _Append)]
        for a in appends:
            try:
                a.offset = os.lstat(self.resolve(a.path)).st_size
            except FileNotFoundError:
                a.offset = 0
        return {
            "schema": INTENT_SCHEMA,
            "receipt_sha256": receipt.get("receipt_sha256") if receipt else None,
            "at": receipt.get("at") if receipt else None,
            "actor": receipt.get("actor") if receipt else None,
            "steps": [s.to_json() for s in files + appends],
        }


# ---------------------------------------------------------------------------------------------------- applying


def write_intent(root: Path, intent: dict[str, Any]) -> None:
    atomic_write(root / INTENT, json.dumps(intent, ensure_ascii=False, sort_keys=True) + "\n")


def read_intent(root: Path) -> dict[str, Any]:
    """The intent left on disk. ValueError when it cannot be read as one."""
    data = json.loads((root / INTENT).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("schema") != INTENT_SCHEMA or not isinstance(data.get("steps"), list):
        raise ValueError("not a memkeeper.intent.v1 file")
    for step in data["steps"]:
        if (
            not isinstance(step, dict)
            or step.get("op") not in ("write", "append", "remove", "rename")
            or not isinstance(step.get("path"), str)
        ):
            raise ValueError(f"malformed step {step!r:.80}")
    return data


def apply_intent(root: Path, intent: dict[str, Any], resolve: Callable[[str], Path], *, fresh: bool) -> Outcome:
    """Apply every step of an intent. `fresh`: it was written a moment ago by this process (the common path: no
    step can have been done yet, so appends are written without reading the files first)."""
    out = Outcome()
    with synced_together():  # the appends (receipt, log row, PATTERNS event) are flushed at once, at the end
        for step in intent["steps"]:
            op = step["op"]
            target = resolve(step["path"])
            if op == "write":
                _apply_write(root, step, target, out)
            elif op == "remove":
                current = file_sha256(target)
                if current is None:
                    out.done_before.append(step["path"])
                elif current == step.get("sha256"):
                    os.unlink(target)
                    out.written.append(step["path"])
                else:
                    out.skipped.append({"path": step["path"], "reason": "changed_since_the_write_began"})
            elif op == "rename":
                dst = resolve(step["dst"])
                if os.path.lexists(target) and not os.path.lexists(dst):
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    os.replace(target, dst)
                    out.written.append(step["dst"])
                elif os.path.lexists(dst):
                    out.done_before.append(step["dst"])
                else:
                    out.skipped.append({"path": step["dst"], "reason": "staged_copy_missing"})
            else:
                data = step["data"]
                if fresh:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    append_lines(target, data.split("\n")[:-1])
                    out.written.append(step["path"])
                elif _complete_append(target, data.encode("utf-8"), int(step.get("offset") or 0)):
                    out.written.append(step["path"])
                else:
                    out.done_before.append(step["path"])
    return out


def _apply_write(root: Path, step: dict[str, Any], target: Path, out: Outcome) -> None:
    current = file_sha256(target)
    stage = root / step["stage"]
    if current == step["sha256"]:
        out.done_before.append(step["path"])
        try:
            os.unlink(stage)
        except FileNotFoundError:
            pass
        return
    if current != step.get("before"):
        # Edited by hand after the write began: the person's text wins; the engine's is not forced over it.
        out.skipped.append({"path": step["path"], "reason": "changed_since_the_write_began"})
        return
    if file_sha256(stage) != step["sha256"]:
        out.skipped.append({"path": step["path"], "reason": "staged_text_missing"})
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    keep_mode(stage, target)
    os.replace(stage, target)
    out.written.append(step["path"])


def _complete_append(path: Path, data: bytes, offset: int) -> bool:
    """Make sure `data` follows `offset` in `path`; write only what is missing. True when something was written."""
    try:
        size = os.lstat(path).st_size
    except FileNotFoundError:
        size = -1
    if size > offset:
        with open(path, "rb") as fh:
            fh.seek(offset)
            tail = fh.read(size - offset)
        if tail.startswith(data) or data in tail:
            return False
        if data.startswith(tail):  # torn: the write stopped part-way
            _append_bytes(path, data[len(tail) :])
            return True
        # Something else follows the offset (written by a process that did not see this intent): append after it.
        _append_bytes(path, (b"" if tail.endswith(b"\n") else b"\n") + data)
        return True
    if 0 < size < offset:
        # The file is shorter than when the write began (edited by hand): append the data after what is there.
        with open(path, "rb") as fh:
            fh.seek(size - 1)
            last = fh.read(1)
        _append_bytes(path, (b"" if last == b"\n" else b"\n") + data)
        return True
    if size > 0:  # the file ends at the offset: start a line of its own if it does not end in a newline
        with open(path, "rb") as fh:
            fh.seek(size - 1)
            if fh.read(1) != b"\n":
                data = b"\n" + data
    path.parent.mkdir(parents=True, exist_ok=True)
    _append_bytes(path, data)
    return True


def _append_bytes(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------------------------------- leftovers


def leftover_stage(root: Path) -> list[str]:
    """Staged files and directories in journal/stage/ (relative paths)."""
    d = root / STAGE_DIR
    try:
        return sorted(f"{STAGE_DIR}/{n}" for n in os.listdir(d))
    except (FileNotFoundError, NotADirectoryError):
        return []


def journal_busy(root: Path) -> bool:
    """Anything in journal/ besides an empty stage/: an intent to complete or staged files to discard."""
    d = root / JOURNAL_DIR
    try:
        names = os.listdir(d)
    except (FileNotFoundError, NotADirectoryError):
        return False
    return any(n != "stage" for n in names) or bool(leftover_stage(root))


def remove_tree(path: Path) -> None:
    """Remove a staged file or directory (never follows a symlink)."""
    if path.is_dir() and not path.is_symlink():
        for child in path.iterdir():
            remove_tree(child)
        os.rmdir(path)
    else:
        os.unlink(path)

"""Maintenance: consolidate near-duplicates, decay strength, snapshot the wiki, compile the views. Evidence
re-grading is policy in `grading.py`; the views themselves are `views.Views`."""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import journal
from .conflicts import ConflictQueue
from .errors import BadInput, ReadOnlyPage
from .grading import regrade
from .index_schema import STATEMENT_AT_SQL
from .models import EvidenceGrade, Receipt, Status, at, iso, iso_floor, parse_iso
from .pages import atomic_write
from .paths import mkdirs
from .receipts import make_receipt
from .store import Progress, Store
from .text import jaccard, normalize, sha256_hex, token_set
from .undo import UndoHandlers
from .validate import validate_actor
from .views import Views

if TYPE_CHECKING:
    from .models import Entry

CONSOLIDATE_THRESHOLD = 0.82
DECAY_HALF_LIFE_DAYS = 60.0
ARCHIVE_BELOW_STRENGTH = 0.15
# Why a maintenance run left out a record whose page was made read-only by hand (`Store.save` would refuse it).
READ_ONLY = "read-only, left as it is; make it writable to let memkeeper change it"


class MaintenanceOps:
    """Whole-wiki operations. Consolidation is given the conflict queue: a pair a person said is both valid is never
    merged."""

    def __init__(self, store: Store, views: Views, conflicts: ConflictQueue, undo: UndoHandlers) -> None:
        self.store = store
        self.views = views
        self.conflicts = conflicts
        undo.register("decay", self._undo_decay, human_only=False)
        undo.register("consolidate", self._undo_consolidate, human_only=False)

    def consolidate(
        self,
        *,
        now: datetime,
        actor: str = "agent:cli",
        threshold: float = CONSOLIDATE_THRESHOLD,
        preview: bool = False,
    ) -> Receipt:
        """Merge same-partition active records whose token Jaccard ≥ threshold into the most reinforced keeper, when
        the pair decision finds nothing that differs between them (`_says_the_same`). A record held in a conflict
        a person has yet to decide takes no part: a merge would archive a side of it, or change what the person
        is deciding about (`held_by_conflict` lists those that had a near-duplicate).

        With `preview`, writes nothing and returns what it would do (status `preview`). Receipt details: merges
        [{source, target}], titles ({id: title}), count, threshold, reinforcement_after, undo (each touched
        record's prior state; undo restores them with one receipt).
        """
        now = at(now)
        actor = validate_actor(actor)
        if not 0.0 < threshold <= 1.0:
            return make_receipt(
                "consolidate", "reject", now, actor, {"reason": "invalid_threshold", "value": threshold}
            )
        with self.store.writing():
            rows, skipped = self._active_rows(
                "memory_id, path, canonical_key, trust_zone, sensitivity_tier, title, content, reinforcement,"
                f" created_at, category, source_ref, {STATEMENT_AT_SQL} AS statement_at"
            )
            groups: dict[tuple[str, str, str], list[Any]] = {}
            for row in rows:
                groups.setdefault((row["canonical_key"], row["trust_zone"], row["sensitivity_tier"]), []).append(row)
            # A page that cannot be read (permission denied, an I/O error) takes no part: one such page never stops
            # the merges of the others, and nothing is written over it blind. The merges are planned again without
            # it (its near-duplicates may merge with each other instead).
            loaded: dict[str, Entry] = {}
            awaiting = self.conflicts.awaiting_decision()
            while True:
                merges, titles, held = _plan_merges(
                    groups, threshold, set(skipped), self.conflicts.is_compatible_pair, set(awaiting)
                )
                for m in merges:
                    for mid in (m["source"], m["target"]):
                        if mid in loaded or mid in skipped:
                            continue
                        got = self._load_or_skip(mid, skipped, writable=True)
                        if got is not None:
                            loaded[mid] = got
                if not any(mid in skipped for m in merges for mid in (m["source"], m["target"])):
                    break
            named = {m: titles.get(m, "") for pair in merges for m in (pair["source"], pair["target"])}
            extra: dict[str, Any] = {"skipped": sorted(skipped.values(), key=lambda s: s["page"])} if skipped else {}
            if held:
                extra["held_by_conflict"] = [
                    {"memory_id": m, "conflict_id": awaiting[m], "title": titles.get(m, "")} for m in sorted(held)
                ]
            if preview:
                return make_receipt(
                    "consolidate",
                    "preview",
                    now,
                    actor,
                    {"merges": merges, "titles": named, "count": len(merges), "threshold": threshold, **extra},
                )
            after: dict[str, int] = {}  # each keeper's reinforcement after its merges (check replays it)
            prior: dict[str, dict[str, Any]] = {}
            for m in merges:
                src = loaded[m["source"]]
                tgt = loaded[m["target"]]
                prior.setdefault(
                    src.memory_id, {"status": src.status.value, "merged_into": src.merged_into, "notes": len(src.notes)}
                )
                prior.setdefault(
                    tgt.memory_id,
                    {"reinforcement": tgt.reinforcement, "confidence": tgt.confidence, "notes": len(tgt.notes)},
                )
                src.status = Status.archived
                src.merged_into = tgt.memory_id
                src.updated_at = now
                src.notes.append(f"Merged into {tgt.memory_id} ({iso(now)})")
                tgt.reinforcement += src.reinforcement
                tgt.confidence = round(min(0.99, max(tgt.confidence, src.confidence) + 0.04), 4)
                tgt.updated_at = now
                # Only the fact of the merge: a text that differs from the record is never appended to it (the
                # merged record keeps its own text on its page).
                tgt.notes.append(f"Consolidated note ({iso(now)}): merged {src.memory_id}")
                after[tgt.memory_id] = tgt.reinforcement
                self.store.save(src)
                self.store.save(tgt)
            receipt = make_receipt(
                "consolidate",
                "ok",
                now,
                actor,
                {
                    "merges": merges,
                    "titles": named,
                    "count": len(merges),
                    "threshold": threshold,
                    "reinforcement_after": after,
                    **extra,
                    **({"undo": {"prior": prior}} if merges else {}),
                },
            )
            self.store.record(receipt)
            self.views.refresh(now, full=bool(merges))
            return receipt

    def _active_rows(self, columns: str) -> tuple[list[Any], dict[str, dict[str, Any]]]:
        """The active records' rows (`columns` of the records table), with every page rewritten in place since the
        index read it read again first (lock held), and the records left out because their page no longer reads, as
        {memory_id: {memory_id, page, reason}}.

        A page edited in place (an editor that writes without a rename) changes neither `entries/` nor log.md, so
        opening the wiki does not re-read it: decay saved the row it had read before over it, and the person's edit
        was lost without a word; a block of zeros written there by a crash was replaced the same way. One stat per
        page (`Index.changed`), as the desk's watcher checks its echoes."""
        sql = f"SELECT {columns} FROM records WHERE status='active'"
        rows = self.store.index.query(sql)
        changed = set(self.store.index.changed([r["path"] for r in rows]))
        skipped: dict[str, dict[str, Any]] = {}
        if not changed:
            return rows, skipped
        for r in rows:
            if r["path"] in changed:
                self._load_or_skip(r["memory_id"], skipped)
        # A page that no longer reads keeps its row until the next full sync (which reports it as a bad page);
        # the others are read into the index now.
        self.store.index.sync_paths(sorted(changed - {s["page"] for s in skipped.values()}))
        self.store.rows_resynced()
        return [r for r in self.store.index.query(sql) if r["memory_id"] not in skipped], skipped

    def _load_or_skip(
        self, memory_id: str, skipped: dict[str, dict[str, Any]], *, writable: bool = False
    ) -> Entry | None:
        """The record as its page holds it, or None when the page cannot be read (permission denied, a NUL byte, not
        UTF-8, gone), or, `writable`, was made read-only by hand: then it is added to `skipped` with the page and the
        reason."""
        try:
            entry = self.store.load(memory_id)
        except BadInput as exc:
            page = self.store.page_of(memory_id) or ""
            skipped[memory_id] = {"memory_id": memory_id, "page": page, "reason": str(exc).removeprefix(f"{page}: ")}
            return None
        page = self.store.page_of(memory_id) or ""
        if writable and page and self.store.read_only(page):
            skipped[memory_id] = {"memory_id": memory_id, "page": page, "reason": READ_ONLY}
            return None
        return entry

    def _undo_consolidate(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        """Un-merge: each source back to its status (active) and unmerged, each keeper back to its reinforcement
        and confidence; the notes the merge added are dropped."""
        prior: dict[str, dict[str, Any]] = receipt["details"]["undo"]["prior"]
        reinforcement: dict[str, int] = {}
        for m, state in sorted(prior.items()):
            e = self.store.load(m)
            if "status" in state:
                e.status = Status(state["status"])
                e.merged_into = state["merged_into"]
            else:
                e.reinforcement = state["reinforcement"]
                e.confidence = state["confidence"]
                reinforcement[m] = e.reinforcement
            e.notes = e.notes[: state["notes"]]
            e.updated_at = now
            self.store.save(e)
        self.views.refresh(now, full=True)
        return {"restored": sorted(prior), "reinforcement_restored": reinforcement}

    # ---------------------------------------------------------------------------------------------------- decay

    def decay(
        self, *, now: datetime, actor: str = "agent:cli", progress: Progress | None = None, preview: bool = False
    ) -> Receipt:
        """Decay strength by time since last access; archive weak and expired records; re-grade evidence.

        Confidence is never changed. A record held in a conflict a person has yet to decide is never archived (its
        strength still falls): the decision is the person's, and may keep it (`held_by_conflict`). With `preview`,
        writes nothing and returns what it would do (status `preview`). Receipt details: decayed_count,
        archived_count, archived (ids), archived_titles ({id: title}), regraded_count, held_by_conflict, undo (each
        changed record's prior strength, status and grade; undo restores them with one receipt).
        """
        now = at(now)
        actor = validate_actor(actor)
        with self.store.writing():
            rows, left_out = self._active_rows("memory_id, path, data, content")
            awaiting = self.conflicts.awaiting_decision()
            held: list[dict[str, str]] = []
            decayed = regraded = 0
            archived: list[str] = []
            skipped: list[dict[str, Any]] = list(left_out.values())
            titles: dict[str, str] = {}
            prior: dict[str, dict[str, Any]] = {}
            for n, row in enumerate(rows):
                if progress and n % 500 == 0:
                    progress(n, len(rows))
                entry = self.store.index.entry(row)
                before = (entry.strength, entry.status, entry.evidence_grade)
                days = max(0.0, (now - entry.last_accessed_at).total_seconds() / 86400.0)
                entry.strength = round(0.5 ** (days / DECAY_HALF_LIFE_DAYS), 6)
                expired = entry.expires_at is not None and entry.expires_at <= now
                archive = entry.strength < ARCHIVE_BELOW_STRENGTH or expired
                if archive and entry.memory_id in awaiting:
                    held.append(
                        {"memory_id": entry.memory_id, "conflict_id": awaiting[entry.memory_id], "title": entry.title}
                    )
                    archive = False
                if archive:
                    entry.status = Status.archived
                    entry.notes.append(
                        f"Archived by decay ({iso(now)}): {'expired' if expired else 'strength below 0.15'}"
                    )
                grade = regrade(entry, now)
                regrade_it = grade is not entry.evidence_grade
                entry.evidence_grade = grade
                if (entry.strength, entry.status, entry.evidence_grade) == before:
                    continue
                try:
                    if not preview:
                        self.store.save(entry)
                    elif archive:
                        # What the preview lists for archiving is what the run will archive: a page the run could
                        # not open is listed as skipped here too (a stat would not tell; the run reads each page).
                        with open(self.store.path(row["path"]), "rb"):
                            pass
                        if self.store.read_only(row["path"]):
                            raise ReadOnlyPage(row["path"])
                except PermissionError as exc:
                    # A page memkeeper may not open (check reports it): one unreadable page never stops the
                    # decay of the others, and it is not written over blind.
                    skipped.append({"memory_id": entry.memory_id, "page": row["path"], "reason": exc.strerror})
                    continue
                except ReadOnlyPage:
                    # Made read-only by hand: left as it is, and named, as an unreadable page is.
                    skipped.append({"memory_id": entry.memory_id, "page": row["path"], "reason": READ_ONLY})
                    continue
                prior[entry.memory_id] = {
                    "strength": before[0],
                    "status": before[1].value,
                    "evidence_grade": before[2].value,
                }
                if archive:
                    archived.append(entry.memory_id)
                    titles[entry.memory_id] = entry.title
                regraded += regrade_it
                decayed += entry.strength != before[0]
            details: dict[str, Any] = {
                "decayed_count": decayed,
                "archived_count": len(archived),
                "archived": archived,
                "archived_titles": titles,
                "regraded_count": regraded,
                **({"skipped": sorted(skipped, key=lambda x: x["page"])} if skipped else {}),
                **({"held_by_conflict": held} if held else {}),
            }
            if preview:
                return make_receipt("decay", "preview", now, actor, details)
            receipt = make_receipt(
                "decay", "ok", now, actor, {**details, **({"undo": {"prior": prior}} if prior else {})}
            )
            self.store.record(receipt)
            self.views.refresh(now, full=True)
            return receipt

    def _undo_decay(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        """Put back each record's strength, status and evidence grade from before the decay (strength only if the
        record was not accessed since), and drop the note an archive added."""
        prior: dict[str, dict[str, Any]] = receipt["details"]["undo"]["prior"]
        note = f"Archived by decay ({receipt['at']})"
        restated = self._restated_since(receipt, prior)
        restored: list[str] = []
        for m, state in sorted(prior.items()):
            e = self.store.get(m)
            if e is None:
                continue
            if m in restated:
                continue
            restored.append(m)
            if e.last_accessed_at <= parse_iso(receipt["at"]):  # an access since then set strength afresh
                e.strength = state["strength"]
            e.status = Status(state["status"])
            if e.verified is None or e.verified.at <= parse_iso(receipt["at"]):
                # a person's confirmation since then graded it high, and that stands (SPEC §5.2: human-verified)
                e.evidence_grade = EvidenceGrade(state["evidence_grade"])
            e.notes = [x for x in e.notes if not x.startswith(note)]
            self.store.save(e)
        self.views.refresh(now, full=True)
        kept = [{"memory_id": m, "restated_by": restated[m]} for m in sorted(restated)]
        return {"restored": restored, **({"kept_archived": kept} if kept else {})}

    def _restated_since(self, receipt: dict[str, Any], prior: dict[str, dict[str, Any]]) -> dict[str, str]:
        """The records the decay archived whose statement was captured again after it (in its second or later), as a
        new active record of the same zone and tier (an archived record is no capture's candidate): {archived id:
        the newest such record}. The undo leaves these archived; putting them back would make two active records
        say one thing."""
        decayed_at = parse_iso(receipt["at"])
        archived = {m for m, state in prior.items() if state.get("status") == Status.active.value}
        if not archived:
            return {}
        later: dict[tuple[str, str, str], tuple[datetime, str]] = {}
        for row in self.store.index.query(
            "SELECT memory_id, content, trust_zone, sensitivity_tier, created_at FROM records"
            " WHERE status='active' AND created_at > ?",
            (iso_floor(decayed_at),),
        ):
            made = parse_iso(row["created_at"])
            # (a record made in the decay's own second, not one it touched, came after it: the decay would have
            # found an identical active record already there only in a zone that keeps restatements apart, where
            # keeping the old one archived beside it loses nothing either)
            if made < decayed_at or row["memory_id"] in prior:
                continue
            k = (row["trust_zone"], row["sensitivity_tier"], normalize(row["content"]))
            if k not in later or (made, row["memory_id"]) > later[k]:
                later[k] = (made, row["memory_id"])
        if not later:
            return {}
        # The archived records as the index holds them (the undo reads each page once, after this).
        out: dict[str, str] = {}
        ids = sorted(archived)
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            for row in self.store.index.query(
                "SELECT memory_id, content, trust_zone, sensitivity_tier FROM records"
                f" WHERE status='archived' AND memory_id IN ({','.join('?' * len(chunk))})",
                chunk,
            ):
                hit = later.get((row["trust_zone"], row["sensitivity_tier"], normalize(row["content"])))
                if hit:
                    out[row["memory_id"]] = hit[1]
        return out

    # ----------------------------------------------------------------------------------------------------- snapshot

    def snapshot(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        """Copy the wiki (minus snapshots/ and .memkeeper/) to snapshots/<iso>/ with manifest.json. Never overwrites."""
        now = at(now)
        actor = validate_actor(actor)
        with self.store.writing():
            stamp = now.strftime("%Y%m%dT%H%M%SZ")
            mkdirs(self.store.root / "snapshots")
            target = self.store.root / "snapshots" / stamp
            n = 1
            while os.path.lexists(target):
                n += 1
                target = self.store.root / "snapshots" / f"{stamp}-{n}"
            # Copied into journal/stage/ and moved into place when the receipt commits: an interrupted snapshot
            # leaves no half-copied folder in snapshots/.
            staged = self.store.root / journal.STAGE_DIR / f"snapshot-{target.name}"
            if staged.exists():
                journal.remove_tree(staged)
            skipped: list[str] = []

            def ignore(d: str, names: list[str]) -> list[str]:
                # Only real directories and regular files are copied: a symlink (reported by check) is never
                # followed, and a FIFO or device is never read.
                out = []
                for x in names:
                    if Path(d) == self.store.root and x in ("snapshots", ".memkeeper", journal.JOURNAL_DIR):
                        out.append(x)
                        continue
                    st = os.lstat(os.path.join(d, x))
                    if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
                        out.append(x)
                        skipped.append(Path(os.path.join(d, x)).relative_to(self.store.root).as_posix())
                return out

            shutil.copytree(self.store.root, staged, symlinks=True, ignore=ignore)
            digest_parts = []
            for f in sorted(p for p in staged.rglob("*") if p.is_file() and not p.is_symlink()):
                digest_parts.append(f.relative_to(staged).as_posix() + ":" + sha256_hex(f.read_bytes()))
            patterns = staged / "patterns" / "PATTERNS.jsonl"
            lines = patterns.read_bytes().count(b"\n") if patterns.is_file() else 0
            manifest = {
                "time": iso(now),
                "patterns_line_count": lines,
                "state_sha256": sha256_hex("\n".join(digest_parts)),
                "files": len(digest_parts),
            }
            atomic_write(staged / "manifest.json", json.dumps(manifest, indent=2) + "\n")
            txn = self.store.txn
            assert txn is not None
            txn.rename(self.store.rel(staged), self.store.rel(target))
            receipt = make_receipt(
                "snapshot",
                "ok",
                now,
                actor,
                {"snapshot": self.store.rel(target), **manifest, **({"skipped": sorted(skipped)} if skipped else {})},
            )
            return self.store.record(receipt)

    # ---------------------------------------------------------------------------------------------------- compile

    def compile(self, *, now: datetime, actor: str = "agent:cli") -> Receipt:
        """Regenerate every generated view: hot.md, index.md, index/*.md, SCHEMA.md, CONFLICTS.md."""
        now = at(now)
        with self.store.writing():
            receipt = make_receipt(
                "compile",
                "ok",
                now,
                validate_actor(actor),
                {"pages": ["hot.md", "index.md", "SCHEMA.md", "CONFLICTS.md", "index/"]},
            )
            self.store.record(receipt)  # first, so an interrupted compile is finished by whoever completes the intent
            self.views.refresh(now, full=True)
            return receipt


def _plan_merges(
    groups: dict[tuple[str, str, str], list[Any]],
    threshold: float,
    left_out: set[str],
    compatible: Callable[[str, str], bool],
    awaiting: set[str],
) -> tuple[list[dict[str, str]], dict[str, str], set[str]]:
    """The merges of each partition's near-duplicates into its most reinforced keeper (then the oldest), leaving out
    the records in `left_out`; the titles of every record of a partition that had two or more; and the records
    awaiting a decision (`awaiting`) that would have merged with another, kept out of every merge."""
    merges: list[dict[str, str]] = []
    titles: dict[str, str] = {}
    held: set[str] = set()
    for all_rows in groups.values():
        rows = [r for r in all_rows if r["memory_id"] not in left_out]
        if len(rows) < 2:
            continue
        titles.update((r["memory_id"], r["title"]) for r in rows)
        toks = {r["memory_id"]: token_set(r["title"] + " " + r["content"]) for r in rows}
        shas = {r["memory_id"]: sha256_hex(normalize(r["content"])) for r in rows}
        # Most reinforced first (then oldest): each keeper absorbs the near-duplicates not yet merged.
        order = sorted(rows, key=lambda r: (-r["reinforcement"], r["created_at"], r["memory_id"]))
        merged: set[str] = set()
        for keeper in order:
            kid = keeper["memory_id"]
            if kid in merged:
                continue
            for other in order:
                oid = other["memory_id"]
                if oid == kid or oid in merged or any(m["source"] == kid for m in merges):
                    continue
                waiting = {kid, oid} & awaiting
                if waiting and waiting <= held:
                    continue  # already said to be kept out: the pair decision need not run for it again
                if (
                    jaccard(toks[kid], toks[oid]) >= threshold
                    and not compatible(shas[kid], shas[oid])
                    and _says_the_same(keeper, other)
                ):
                    if waiting:
                        held.update(waiting)
                        continue
                    merged.add(oid)
                    merges.append({"source": oid, "target": kid})
    return merges, titles, held


def _says_the_same(a: Any, b: Any) -> bool:
    """Two near-duplicate rows of one partition may merge only when the pair decision calls them a restatement:
    word overlap alone would merge "the window is on Tuesdays" into "the window is on Thursdays", a contradiction
    silently resolved. A pair detection holds as a conflict, or a possible one, stays two records (for `capture` to
    put to a person; SPEC §5.1). Nor do two that give one amount differently within the drift ("10 people" / "11
    people"): merging would lose a number. Nor a compatible pair: one that adds a detail, or says "at most" where
    the other says "at least", "used to be" where the other says "is": the merged record was archived, and what
    it said beyond the other left every list."""
    from .relation import Statement, relate

    # (a restatement already differs in no amount, however near, and in no value it does not assert:
    # `decision.surface_differs`). Each with when it was captured, as capture compares a statement with a record.
    rel = relate(
        Statement(a["content"], a["title"] or "", a["category"], a["source_ref"], a["statement_at"]),
        Statement(b["content"], b["title"] or "", b["category"], b["source_ref"], b["statement_at"]),
        same_key=True,  # one partition: the same key
    )
    return rel.kind == "restatement"

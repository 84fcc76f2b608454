"""The quiz in the engine (SPEC §5.3): sessions from the ledger and the live pages, recording, notebooks, undo.

Scheduling and the ledger format live in `quiz.py`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Any, cast

from . import quiz as policy
from .errors import BadInput, ReadOnlyPage
from .models import Receipt, Status, Tier, at, iso, iso_floor, parse_iso
from .pages import MAX_LEDGER_BYTES, read_text
from .paths import list_files
from .receipts import make_receipt
from .secrets import find_in_fields, redact_fields, secret_details
from .store import Store
from .undo import UndoHandlers
from .validate import validate_actor
from .views import Views

if TYPE_CHECKING:
    from .record import Entry


@dataclass(frozen=True)
class QuizCard:
    """One question of today's session, with its answer key (the page)."""

    memory_id: str
    page: str
    title: str
    question: str
    answer: str
    source: str
    reason: str  # due-wrong | due | new
    box: int | None
    asked: int
    correct: int
    #: Days until due again for each grade (again/hard/good/easy/skip), from the ledger's scheduler at session time.
    intervals: dict[str, int] = field(default_factory=dict)
    #: The part of ``answer`` the question hides (start, end), when the question is a cloze over the content.
    cloze: tuple[int, int] | None = None
    scheduler: str = "leitner"


def card_as_now(card: QuizCard, entry: Entry, page: str) -> QuizCard:
    """`card` asking and answering from its record as it reads now (`entry`, whose page is `page`): the page is the
    answer key (SPEC §5.3), and a person or an agent may have corrected it since the session was taken. The question,
    the answer, its cloze, the title and the source are built as `QuizQueue.quiz_session` builds them; what placed
    the card in the session (its reason, its ledger row's box and counts, the intervals) is kept. Reads nothing."""
    candidate = policy.QuizCandidate(
        page=page,
        category=entry.category.value,
        updated_at=entry.updated_at,
        status=entry.status.value,
        tier=entry.tier.value,
        quiz_question=entry.quiz_question,
        title=entry.title,
        recall=entry.recall,
        content=entry.content,
    )
    cloze = policy.question_cloze(candidate)
    return replace(
        card,
        page=page,
        title=entry.title,
        question=policy.build_question(candidate),
        answer=entry.content,
        source=entry.source_ref or page,
        cloze=None if cloze is None else (cloze.start, cloze.end),
    )


class QuizQueue:
    """Each person's quiz ledger (quiz/quiz-ledger.<person>.md), today's session, answers and notebooks."""

    def __init__(self, store: Store, views: Views, undo: UndoHandlers) -> None:
        self.store = store
        self.views = views
        # The last ledger text this engine staged for each person, with the ledger it renders (`_save_ledger`).
        self._written: dict[str, tuple[str, policy.Ledger]] = {}
        undo.register("quiz_record", self._undo_quiz, human_only=False)
        undo.register("quiz_bury", self._undo_bury, human_only=False)
        undo.register("quiz_scheduler", self._undo_scheduler, human_only=False)
        undo.register("quiz_zone", self._undo_zone, human_only=False)

    def person_for(self, actor: str | None, person: str | None = None) -> str:
        if person:
            return policy.person_id(person)
        if actor and actor.startswith("human:"):
            return policy.person_id(actor.split(":", 1)[1])
        return policy.person_id("me")

    def read_ledger(self, person: str, *, strict: bool = True) -> policy.Ledger:
        """A person's ledger. One that cannot be read safely (a symlink, not a regular file, over the size limit,
        not UTF-8) raises BadInput; with strict=False (counts, hot.md, check) it reads as empty with that problem,
        so one bad ledger never stops another command. Writers read strictly: nothing is written over it."""
        try:
            text = read_text(self.store.path(policy.ledger_path(person)), limit=MAX_LEDGER_BYTES, what="a quiz ledger")
        except FileNotFoundError:
            return policy.new_ledger(person)
        except (BadInput, OSError) as exc:
            if strict:
                raise BadInput(f"{policy.ledger_path(person)}: {getattr(exc, 'strerror', None) or exc}") from None
            return policy.new_ledger(person).model_copy(update={"problems": [f"unreadable ledger: {exc}"]})
        return policy.parse_ledger(text, person=person)

    def _writable_ledger(self, person: str) -> policy.Ledger:
        """The ledger a write rewrites: read strictly, and refused when its frontmatter cannot be carried through
        the rewrite (it does not parse, or names no known scheduler): a grade would have rewritten it as a
        default ledger, losing its scheduler, its buried cards and its other keys without a word."""
        ledger = self.read_ledger(person)
        if ledger.damaged_head:
            raise BadInput(
                f"{policy.ledger_path(person)}: {ledger.damaged_head}; mend its frontmatter (memkeeper check names "
                "the problem) before the next answer, which would rewrite it without what it cannot read"
            )
        return ledger

    def has_ledger(self, person: str) -> bool:
        """Whether the person has a ledger file yet (the desk offers a choice of scheduler before the first one).
        `person` as a person or an actor names them ("Carol", "human:carol")."""
        return self.store.path(policy.ledger_path(policy.person_id(person))).exists()

    def ledger_persons(self) -> list[str]:
        try:
            names = list_files(self.store.root / "quiz", ".md")
        except BadInput:
            return []  # quiz/ is a symlink: check reports it
        return sorted(n[len("quiz-ledger.") : -3] for n in names if n.startswith("quiz-ledger."))

    def create_ledger(self, person: str, scheduler: str, *, now: datetime, actor: str) -> Receipt:
        """Create a person's ledger with the chosen scheduler (leitner | fsrs). Refuses to replace an existing one."""
        now, actor = at(now), validate_actor(actor)
        pid = policy.person_id(person)
        if scheduler not in policy.SCHEDULERS:
            return _invalid_scheduler("quiz_ledger", scheduler, now, actor)
        with self.store.writing():
            path = self.store.path(policy.ledger_path(pid))
            if path.exists():
                return make_receipt("quiz_ledger", "reject", now, actor, {"reason": "ledger_exists", "person": pid})
            name = cast(policy.SchedulerName, scheduler)  # one of SCHEDULERS, checked above
            self._save_ledger(pid, policy.new_ledger(pid, name, now.date()))
            receipt = make_receipt(
                "quiz_ledger",
                "created",
                now,
                actor,
                {"person": pid, "scheduler": scheduler, "ledger": policy.ledger_path(pid)},
            )
            return self.store.record(receipt)

    def set_scheduler(self, person: str, scheduler: str, *, now: datetime, actor: str) -> Receipt:
        """Change the scheduler of a person's ledger (leitner | fsrs). Every row keeps its box, due and history, so
        nothing learnt is lost and no card comes due at once: under FSRS a row first answered there starts a fresh
        card (as any row carried over from Leitner does); under Leitner a row's FSRS state is kept for a later
        switch back until it is answered. Undoable. Receipt details: person, scheduler, prior, ledger."""
        now, actor = at(now), validate_actor(actor)
        pid = policy.person_id(person)
        if scheduler not in policy.SCHEDULERS:
            return _invalid_scheduler("quiz_scheduler", scheduler, now, actor)
        with self.store.writing():
            path = self.store.path(policy.ledger_path(pid))
            if not path.exists():
                return make_receipt("quiz_scheduler", "reject", now, actor, {"reason": "no_ledger", "person": pid})
            ledger = self._writable_ledger(pid)
            prior = ledger.scheduler
            if prior == scheduler:
                return make_receipt(
                    "quiz_scheduler",
                    "reject",
                    now,
                    actor,
                    {"reason": "scheduler_unchanged", "person": pid, "scheduler": scheduler},
                )
            self._write_scheduler(pid, ledger, scheduler)
            receipt = make_receipt(
                "quiz_scheduler",
                "changed",
                now,
                actor,
                {
                    "person": pid,
                    "scheduler": scheduler,
                    "prior": prior,
                    "ledger": policy.ledger_path(pid),
                    "undo": {"person": pid, "prior": prior},
                },
            )
            return self.store.record(receipt)

    def set_zone(self, person: str, zone: str | None, *, now: datetime, actor: str) -> Receipt:
        """Set the time zone whose calendar days are the person's quiz days (an IANA name: "Europe/Berlin"); None
        goes back to UTC days. Every date the ledger holds stays as it is: a card due on the 5th is due on the 5th of
        the new calendar. Creates the ledger (Leitner) if the person has none. Undoable. Receipt details: person,
        zone, prior, today (the person's quiz day at `now`), ledger."""
        now, actor = at(now), validate_actor(actor)
        pid = policy.person_id(person)
        if zone is not None:
            try:
                policy.zone_named(zone)
                zone = policy.zone_key(zone)
            except ValueError:
                shown = zone if len(zone) <= 64 else zone[:64] + "…"
                return make_receipt(
                    "quiz_zone",
                    "reject",
                    now,
                    actor,
                    {
                        "reason": "unknown_time_zone",
                        "zone": shown,
                        "detail": f"{shown!r} is no IANA time zone name: give one such as Europe/Berlin, or UTC",
                    },
                )
        with self.store.writing():
            exists = self.store.path(policy.ledger_path(pid)).exists()
            day = policy.quiz_day(now, policy.zone_named(zone) if zone else UTC)
            ledger = self._writable_ledger(pid) if exists else policy.new_ledger(pid, today=day)
            # As written: a value written by hand that names no zone (or is no text) comes back as it was on undo.
            prior = ledger.frontmatter.get(policy.ZONE_KEY)
            if prior == zone:
                return make_receipt(
                    "quiz_zone",
                    "reject",
                    now,
                    actor,
                    {
                        "reason": "zone_unchanged",
                        "person": pid,
                        "zone": zone,
                        "detail": f"{pid}'s quiz days are {zone or 'UTC'} days already",
                    },
                )
            self._save_ledger(pid, policy.with_zone(ledger, zone))
            receipt = make_receipt(
                "quiz_zone",
                "changed",
                now,
                actor,
                {
                    "person": pid,
                    "zone": zone or "UTC",
                    "prior": prior if isinstance(prior, str) else "UTC" if prior is None else repr(prior),
                    "today": day.isoformat(),
                    "ledger": policy.ledger_path(pid),
                    "undo": {"person": pid, "prior": prior},
                },
            )
            self.store.record(receipt)
            self.views.refresh(now)
            return receipt

    def _undo_zone(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        undo = receipt["details"]["undo"]
        pid, prior = undo["person"], undo["prior"]
        ledger = self._writable_ledger(pid)
        now_there = ledger.frontmatter.get(policy.ZONE_KEY)
        shown = now_there if isinstance(now_there, str) else "UTC" if now_there is None else repr(now_there)
        if shown != receipt["details"].get("zone"):
            # Written by hand since (a later `quiz zone` is refused as a later decision): putting the prior value
            # back would drop it without a word.
            raise BadInput(
                f"{pid}'s quiz days are {shown} days now, not the {receipt['details'].get('zone')} days this change "
                "set (the ledger's time_zone was written since); nothing was undone: `memkeeper quiz zone NAME` sets "
                "the zone you want"
            )
        # The ledger's key as it was, even a value written by hand that names no zone (`check` reports it again).
        self._save_ledger(pid, policy.with_zone(ledger, prior))
        return {"person": pid, "zone": prior if isinstance(prior, str) else "UTC"}

    def zone_of(self, person: str) -> str:
        return policy.ledger_zone(self.read_ledger(policy.person_id(person), strict=False))[0]

    def person_zone(self, actor: str) -> str:
        """`Engine.person_zone`: the actor's own quiz zone, else the one zone the ledgers name, else "UTC"."""
        own = self.read_ledger(self.person_for(actor), strict=False)
        if own.frontmatter.get(policy.ZONE_KEY) is not None:
            return policy.ledger_zone(own)[0]
        named = set()
        for person in self.ledger_persons():
            ledger = self.read_ledger(person, strict=False)
            if ledger.frontmatter.get(policy.ZONE_KEY) is not None:
                named.add(policy.ledger_zone(ledger)[0])
        return named.pop() if len(named) == 1 else "UTC"

    def zone_problem(self, person: str) -> str | None:
        return policy.ledger_zone_problem(self.read_ledger(policy.person_id(person), strict=False))

    def quiz_day(self, person: str, now: datetime) -> date:
        """The person's quiz day at `now`: the date in their time zone (UTC without one)."""
        ledger = self.read_ledger(policy.person_id(person), strict=False)
        return policy.quiz_day(at(now), policy.ledger_zone(ledger)[1])

    def _undo_scheduler(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        undo = receipt["details"]["undo"]
        pid, prior = undo["person"], undo["prior"]
        if prior not in policy.SCHEDULERS:
            raise BadInput(f"the receipt names no scheduler to go back to ({prior!r})")
        self._write_scheduler(pid, self._writable_ledger(pid), prior)
        return {"person": pid, "scheduler": prior}

    def _write_scheduler(self, pid: str, ledger: policy.Ledger, scheduler: str) -> None:
        """Rewrite the ledger with `scheduler` (one of SCHEDULERS) and nothing else changed."""
        name = cast(policy.SchedulerName, scheduler)
        self._save_ledger(pid, ledger.model_copy(update={"scheduler": name}))

    def _candidates(self, ledger: policy.Ledger, extra: int, now: datetime) -> list[policy.QuizCandidate]:
        """Live pages the session could use: the ledger's own pages plus the best never-quizzed ones, none past its
        `expires_at` (a temporary fact that has run out is not worth rehearsing: "the VPN is down this week").

        Selecting from this subset gives the same session as selecting from every page, without an O(wiki) scan.
        """
        cols = "path, category, updated_at, status, tier, title, content, data, expires_at"
        pages = [it.page for it in ledger.items]
        rows = {r["path"]: r for r in self._rows_at(pages, cols)}
        known = set(pages)
        limit = extra + len(known)
        while True:
            found = self.store.index.query(
                f"SELECT {cols} FROM records WHERE quiz_rotation=1 AND (expires_at IS NULL OR expires_at > ?)"
                " ORDER BY quiz_weight DESC, updated_at DESC, path LIMIT ?",
                (iso_floor(now), limit),  # the rows of now's second are compared as times below
            )
            # Rows expiring within now's second are left out below: they must not take the places of live ones.
            ended = sum(1 for r in found if r["expires_at"] and parse_iso(r["expires_at"]) <= now)
            if not ended or len(found) < limit:
                break
            limit += ended
        for r in found:
            rows.setdefault(r["path"], r)
        out = []
        for r in rows.values():
            if r["expires_at"] and parse_iso(r["expires_at"]) <= now:
                continue
            fm = json.loads(r["data"])["fm"]
            out.append(
                policy.QuizCandidate(
                    page=r["path"],
                    category=r["category"],
                    updated_at=parse_iso(r["updated_at"]),
                    status=r["status"],
                    tier=r["tier"],
                    quiz_question=fm.get("quiz_question"),
                    title=r["title"],
                    recall=fm.get("recall") or [],
                    content=r["content"] or "",
                )
            )
        return out

    def _rows_at(self, pages: list[str], cols: str) -> list[Any]:
        """The index's rows (`cols`) of those of `pages` it holds, 500 pages to a query."""
        out: list[Any] = []
        for i in range(0, len(pages), 500):
            chunk = pages[i : i + 500]
            out += self.store.index.query(
                f"SELECT {cols} FROM records WHERE path IN ({','.join('?' * len(chunk))})", chunk
            )
        return out

    def _picks(self, ledger: policy.Ledger, now: datetime, today: date) -> list[policy.QuizCandidate]:
        # Enough never-quizzed candidates for the day's new pages, past the ones buried today.
        return self._candidates(ledger, policy.NEW_PER_DAY + len(policy.buried_pages(ledger, today)), now)

    def quiz_session(self, person: str, *, now: datetime, limit: int = policy.MAX_SESSION) -> list[QuizCard]:
        """Today's session (at most 7): due wrong/skip, other due, then never-quizzed pages. Writes nothing."""
        now = at(now)
        ledger = self.read_ledger(policy.person_id(person), strict=False)
        today = policy.quiz_day(now, policy.ledger_zone(ledger)[1])
        picks = policy.select_session(ledger, self._picks(ledger, now, today), today, limit)
        cards = []
        for s in picks:
            row = self.store.index.query(
                "SELECT memory_id, content, source_ref, title FROM records WHERE path=?", (s.page,)
            )
            if not row:
                continue
            r = row[0]
            cloze = policy.question_cloze(s.candidate)
            cards.append(
                QuizCard(
                    memory_id=r["memory_id"],
                    page=s.page,
                    title=r["title"],
                    question=s.question,
                    answer=r["content"],
                    source=r["source_ref"] or s.page,
                    reason=s.reason,
                    box=s.item.box if s.item else None,
                    asked=s.item.asked if s.item else 0,
                    correct=s.item.correct if s.item else 0,
                    intervals=policy.preview_intervals(s.page, s.item, ledger.scheduler, now, today),
                    cloze=(cloze.start, cloze.end)
                    if cloze is not None and r["content"] == s.candidate.content
                    else None,
                    scheduler=ledger.scheduler,
                )
            )
        return cards

    def quiz_preview(self, ref: str, person: str, *, now: datetime) -> dict[str, int]:
        """Days until due again for each grade if the page were answered at `now`, by the person's scheduler
        (what the desk shows on the grade keys). Writes nothing."""
        now = at(now)
        ledger = self.read_ledger(policy.person_id(person), strict=False)
        page = self.store.page_of(self.store.resolve_id(ref))
        if page is None:
            raise BadInput(f"no record {ref!r}")
        today = policy.quiz_day(now, policy.ledger_zone(ledger)[1])
        return policy.preview_intervals(page, ledger.item(page), ledger.scheduler, now, today)

    def quiz_due_count(self, person: str, now: datetime) -> int:
        """What the person's sessions could still offer today: due items plus the day's remaining new pages, past
        the 7-item session cap (it falls with every answer or bury). `quiz.due_count` over the ledger and the
        live pages, counted from the index's copy of the ledger (`_mirror`): hot.md counts after every capture."""
        now = at(now)
        pid = policy.person_id(person)
        mirrored = self._mirror(pid)
        if mirrored is None:  # the copy could not be kept current: count from the file
            ledger = self.read_ledger(pid, strict=False)
            today = policy.quiz_day(now, policy.ledger_zone(ledger)[1])
            return policy.due_count(ledger, self._picks(ledger, now, today), today)
        buried, zone = mirrored
        today = policy.quiz_day(now, zone)
        skip = sorted(page for page, day in buried.items() if day >= today)
        # A record expiring after now's second is live; one expiring within it is compared as a time (`iso_floor`).
        floor, after = iso_floor(now), iso_floor(now + timedelta(seconds=1))
        index = self.store.index
        rows_due = (
            " FROM quiz_rows q JOIN records r ON r.path=q.page WHERE q.person=? AND q.due<=? AND (q.last IS NULL"
            " OR q.last<?) AND r.quiz_rotation=1 AND q.page NOT IN (SELECT value FROM json_each(?))"
        )
        params = (pid, today.isoformat(), today.isoformat(), json.dumps(skip))
        live, border = index.query(
            "SELECT coalesce(sum(r.expires_at IS NULL OR r.expires_at>?), 0),"
            f" coalesce(sum(r.expires_at>? AND NOT r.expires_at>?), 0){rows_due}",
            (after, floor, after, *params),
        )[0]
        due = int(live)
        if border:
            due += sum(
                parse_iso(r[0]) > now
                for r in index.query(
                    f"SELECT r.expires_at{rows_due} AND r.expires_at>? AND NOT r.expires_at>?", (*params, floor, after)
                )
            )
        new_today = index.scalar(
            "SELECT count(*) FROM quiz_rows WHERE person=? AND asked=1 AND last>=?", (pid, today.isoformat())
        )
        wanted = max(0, policy.NEW_PER_DAY - int(new_today or 0))
        fresh, limit = 0, wanted + 8
        while wanted:
            rows = index.query(
                "SELECT r.expires_at FROM records r WHERE r.quiz_rotation=1 AND (r.expires_at IS NULL OR"
                " r.expires_at>?) AND r.path NOT IN (SELECT value FROM json_each(?))"
                " AND NOT EXISTS (SELECT 1 FROM quiz_rows q WHERE q.person=? AND q.page=r.path) LIMIT ?",
                (floor, json.dumps(skip), pid, limit),
            )
            fresh = min(wanted, sum(r[0] is None or parse_iso(r[0]) > now for r in rows))
            if fresh == wanted or len(rows) < limit:
                break
            limit *= 2
        return due + fresh

    def _ledger_stamp(self, pid: str) -> tuple[str, int] | None:
        """The ledger file's identity and version (device, inode, size, modified and changed times), with the later
        of its two times: ("absent", 0) when there is none, None when it cannot be looked at."""
        try:
            st = os.lstat(self.store.path(policy.ledger_path(pid)))
        except FileNotFoundError:
            return "absent", 0
        except (OSError, BadInput):
            return None
        return (
            f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}",
            max(st.st_mtime_ns, st.st_ctime_ns),
        )

    def _racy(self, changed_ns: int) -> bool:
        """Whether a file last changed at `changed_ns` may change again with no change to its stamp: on a
        filesystem whose times are coarse (FAT's 2 s, a second on ext3 or a network share, a clock tick on older
        kernels) a rewrite of the same size within the same tick keeps every field of the stamp. The newest time
        of the index's files, written at every commit, is a time of that filesystem from just before; a file
        changed more than `RACY_NS` before it cannot be changed within its own tick any more. (Git's "racily
        clean" index entries, for the same reason.)"""
        base = self.store.index.path
        times = []
        for path in (base, base.with_name(base.name + "-wal")):
            try:
                times.append(os.stat(path).st_mtime_ns)
            except OSError:
                pass
        return not times or changed_ns >= max(times) - RACY_NS

    def _mirror(self, pid: str) -> tuple[dict[str, date], tzinfo] | None:
        """Bring the index's copy of the person's ledger (its rows, bury list and time zone) up to the file, reading
        the file only when it changed since the copy was made; returns the bury list and the zone, or None when no
        copy can be trusted (the file cannot be looked at or read, or it changed while it was being read).

        A copy made while the file was recent (`_racy`) also keeps a digest of its text: while the stamp matches,
        the file is read and its digest compared (a millisecond or two, no parse) until it is old enough to be
        trusted by its stamp alone."""
        stat = self._ledger_stamp(pid)
        if stat is None:
            return None
        stamp, changed = stat
        index = self.store.index
        kept = index.query("SELECT stamp, buried, digest, racy, zone FROM quiz_ledgers WHERE person=?", (pid,))
        text: str | None = "" if stamp == "absent" else None
        if kept and kept[0]["stamp"] == stamp:
            row = kept[0]
            buried = {page: date.fromisoformat(day) for page, day in json.loads(row["buried"]).items()}
            try:
                zone = policy.zone_named(row["zone"] or "UTC")
            except ValueError:  # known when the copy was made; not to this machine's tz database now
                zone = UTC
            if not row["racy"]:
                return buried, zone
            text = self._text(pid)
            if text is not None and _digest(text) == row["digest"]:
                if not self._racy(changed):
                    try:
                        index.settle_quiz_ledger(pid, stamp)
                    except sqlite3.OperationalError:
                        pass  # asked again next time
                return buried, zone
        if text is None:
            text = self._text(pid)
            if text is None:
                return None
        written = self._written.pop(pid, None)
        if stamp == "absent":
            ledger = policy.new_ledger(pid)
        elif written is not None and written[0] == text and not written[1].unreadable:
            ledger = written[1]  # the file is what this engine wrote: no parse (lines kept as written need one)
        else:
            ledger = policy.parse_ledger(text, person=pid)
        if self._ledger_stamp(pid) != stat:
            return None
        return self._keep_mirror(pid, stat, ledger, text)

    def _text(self, pid: str) -> str | None:
        """The ledger file's text, None when it cannot be read (missing, unsafe, too big, not UTF-8)."""
        try:
            return read_text(self.store.path(policy.ledger_path(pid)), limit=MAX_LEDGER_BYTES, what="a quiz ledger")
        except (BadInput, OSError):
            return None

    def _keep_mirror(
        self, pid: str, stat: tuple[str, int], ledger: policy.Ledger, text: str
    ) -> tuple[dict[str, date], tzinfo] | None:
        """Store `ledger`, read from `text`, as the copy of the file with stamp `stat`; its bury list and time zone,
        or None when the index would not take it (busy past its timeout, read-only, a full disk): the count is then
        taken from the file."""
        buried = policy.buried_map(ledger)
        zone_name, zone = policy.ledger_zone(ledger)
        try:
            self.store.index.put_quiz_ledger(
                pid,
                stat[0],
                json.dumps({page: day.isoformat() for page, day in buried.items()}),
                [
                    (it.page, it.due.isoformat(), it.last.isoformat() if it.last else None, it.asked)
                    for it in ledger.items
                ],
                digest=_digest(text),
                racy=self._racy(stat[1]),
                zone=zone_name,
            )
        except sqlite3.OperationalError:
            return None
        return buried, zone

    def _save_ledger(self, pid: str, ledger: policy.Ledger) -> None:
        """Stage the person's ledger (written when the operation commits) and remember what it holds: the count
        hot.md takes after the commit keeps its copy from it once the file is found to hold exactly that text,
        without parsing the file again. An operation that fails before its commit leaves the file, and so the
        copy, as they were."""
        text = policy.render_ledger(ledger)
        self.store.write_file(self.store.path(policy.ledger_path(pid)), text)
        self._written[pid] = (text, ledger)

    def quiz_due_total(self, now: datetime) -> int:
        return self.quiz_due_most(now)[0]

    def quiz_due_most(self, now: datetime) -> tuple[int, str | None]:
        """The largest of the persons' due counts and whose it is (None before anyone has a ledger: a new person's
        count, every page new). hot.md shows both: the desk's header counts for the person at the desk."""
        persons = self.ledger_persons()
        if not persons:
            return self.quiz_due_count("me", now), None
        return max((self.quiz_due_count(p, now), p) for p in persons)

    def weak_spots(self, person: str) -> list[policy.QuizItem]:
        return policy.weak_spots(self.read_ledger(policy.person_id(person), strict=False))

    def quiz_record(
        self,
        ref: str,
        result: str,
        *,
        now: datetime,
        actor: str,
        person: str | None = None,
        answer: str | None = None,
        question: str | None = None,
        redact: bool = False,
    ) -> Receipt:
        """Record an answer (again|hard|good|easy|correct|wrong|skip|1-4|s) for a page; update the ledger, prune
        vanished pages, append to the dated notebook. Receipt details: page, person, result, box, due, prior.

        An answer or question holding a secret is refused (`secret_detected`) unless `redact`, which stores it
        redacted."""
        now, actor = at(now), validate_actor(actor)
        pid = self.person_for(actor, person)
        try:
            policy.parse_grade(result)
        except ValueError:
            return make_receipt("quiz_record", "reject", now, actor, {"reason": "invalid_result", "value": result})
        found = find_in_fields({"answer": answer, "question": question})
        redacted: list[str] = []
        if found:
            if not redact:
                return make_receipt(
                    "quiz_record",
                    "reject",
                    now,
                    actor,
                    {"reason": "secret_detected", "memory_id": ref, **secret_details(found)},
                )
            clean, redacted = redact_fields({"answer": answer, "question": question})
            # Redaction keeps each field's shape: a string stays a string, None stays None.
            answer, question = cast("str | None", clean["answer"]), cast("str | None", clean["question"])
        with self.store.writing():
            mid = self.store.resolve_id(ref)
            entry = self.store.load(mid)
            # Denied, superseded or archived since the session was taken, or out of the rotation as a session
            # selects it (SPEC §5.3): an answer would schedule it again and refresh its strength. Its row stays.
            if refused := not_askable(entry, now):
                return make_receipt("quiz_record", "reject", now, actor, {**refused, "memory_id": mid})
            page = self.store.page_of(mid)
            assert page is not None  # load() found it
            ledger = self._writable_ledger(pid)
            # Every page still there keeps its row: a denied record leaves the rotation, not its history (an undeny
            # brings it back with what was learnt of it), as a superseded or cold one does.
            # (the ledger's own pages looked up, not every page of the wiki: 139 ms an answer at 100k records)
            live = {r["path"] for r in self._rows_at([it.page for it in ledger.items], "path")}
            before = ledger
            ledger, pruned = policy.prune_vanished(ledger, live | {page})
            # (kept for the undo: a page missing for a while, moved by hand or on another branch, had its history
            # pruned by the next answer of any card, and undoing that answer did not bring it back)
            gone = set(pruned)
            pruned_rows = [it.marker() for it in before.items if it.page in gone]
            q = question or policy.build_question(
                policy.QuizCandidate(
                    page=page,
                    category=entry.category.value,
                    updated_at=entry.updated_at,
                    title=entry.title,
                    quiz_question=entry.quiz_question,
                    recall=entry.recall,
                    content=entry.content,
                )
            )
            today = policy.quiz_day(now, policy.ledger_zone(ledger)[1])
            try:
                new_ledger, item, prior = policy.record_answer(ledger, page, result, today, q, now)
            except ValueError as exc:
                raise BadInput(str(exc)) from None
            self._save_ledger(pid, new_ledger)
            refreshed = None
            if policy.parse_grade(result) != "skip":
                # An answer is a review: it refreshes strength as an access does (SPEC §4 decay), so decay does not
                # archive what a person is studying. Confidence is untouched.
                refreshed = {
                    "memory_id": mid,
                    "strength": entry.strength,
                    "last_accessed_at": iso(entry.last_accessed_at),
                }
                entry.touch(now)
                try:
                    self.store.save(entry)
                except ReadOnlyPage:
                    refreshed = None  # a page made read-only by hand is not rewritten: the answer is recorded alone
            notebook = policy.notebook_path(today, pid)
            nb = self.store.path(notebook)
            self.store.append_file(
                nb,
                policy.render_notebook_entry(
                    q, answer, item.last_result or "", entry.content, entry.source_ref or page, now
                )
                .rstrip("\n")
                .split("\n")
                + [""],
                create=policy.notebook_header(today, pid),
            )
            receipt = make_receipt(
                "quiz_record",
                "recorded",
                now,
                actor,
                {
                    "memory_id": mid,
                    "page": page,
                    "person": pid,
                    "result": item.last_result,
                    "grade": result,
                    "box": item.box,
                    "due": item.due.isoformat(),
                    "asked": item.asked,
                    "correct": item.correct,
                    "pruned": pruned,
                    "undo": {
                        "person": pid,
                        "page": page,
                        "notebook": notebook,  # named by the person's quiz day, which a later zone may not give
                        "prior": prior.marker() if prior else None,
                        **({"record": refreshed} if refreshed else {}),
                        **({"pruned_rows": pruned_rows} if pruned_rows else {}),
                    },
                    **({"redacted": redacted} if redacted else {}),
                },
            )
            self.store.record(receipt)
            self.views.refresh(now)
            return receipt

    def quiz_bury(self, ref: str, *, now: datetime, actor: str, person: str | None = None) -> Receipt:
        """Bury a page until tomorrow (UTC): it leaves today's sessions and counts, with no penalty — its ledger row
        (box, FSRS state, asked, correct) is untouched. Kept in the ledger frontmatter (`buried: {page: day}`).
        Receipt details: memory_id, page, person, buried_on, until (the day it is offered again)."""
        now, actor = at(now), validate_actor(actor)
        pid = self.person_for(actor, person)
        with self.store.writing():
            mid = self.store.resolve_id(ref)
            page = self.store.page_of(mid)
            if page is None:
                raise BadInput(f"no record {ref!r}")
            # A record no session offers (denied, cold, past its expiry…) is not buried: "back tomorrow" would
            # not be true of it.
            if refused := not_askable(self.store.load(mid), now):
                return make_receipt("quiz_bury", "reject", now, actor, {**refused, "memory_id": mid})
            ledger = self._writable_ledger(pid)
            today = policy.quiz_day(now, policy.ledger_zone(ledger)[1])
            try:
                new_ledger, prior = policy.bury(ledger, page, today)
            except ValueError as exc:
                raise BadInput(str(exc)) from None
            self._save_ledger(pid, new_ledger)
            receipt = make_receipt(
                "quiz_bury",
                "buried",
                now,
                actor,
                {
                    "memory_id": mid,
                    "page": page,
                    "person": pid,
                    "buried_on": today.isoformat(),
                    "until": (today + timedelta(days=1)).isoformat(),
                    "undo": {"person": pid, "page": page, "prior": prior.isoformat() if prior else None},
                },
            )
            self.store.record(receipt)
            self.views.refresh(now)
            return receipt

    def _undo_bury(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        undo = receipt["details"]["undo"]
        pid, page, prior = undo["person"], undo["page"], undo["prior"]
        ledger = self._writable_ledger(pid)
        buried = policy.buried_map(ledger)
        buried.pop(page, None)
        if prior:
            buried[page] = date.fromisoformat(prior)
        self._save_ledger(pid, policy.with_buried(ledger, buried))
        return {"person": pid, "page": page}

    def _undo_quiz(self, receipt: dict[str, Any], now: datetime, actor: str) -> dict[str, Any]:
        undo = receipt["details"]["undo"]
        pid, page, prior = undo["person"], undo["page"], undo["prior"]
        ledger = self._writable_ledger(pid)
        items = [it for it in ledger.items if it.page != page]
        if prior is not None:
            items.append(_item_of(prior))
        # The rows the answer pruned come back (pages gone then), unless a row for the page was written since.
        held = {it.page for it in items}
        items += [_item_of(row) for row in undo.get("pruned_rows") or [] if row["page"] not in held]
        items.sort(key=lambda it: (it.due, it.page))
        self._save_ledger(pid, ledger.model_copy(update={"items": items}))
        record = undo.get("record")
        if record and self.store.page_of(record["memory_id"]):
            entry = self.store.load(record["memory_id"])
            entry.strength = record["strength"]
            entry.last_accessed_at = parse_iso(record["last_accessed_at"])
            self.store.save(entry)
        answered = parse_iso(receipt["at"])
        notebook = undo.get("notebook")
        if not (isinstance(notebook, str) and notebook == policy.notebook_path(_notebook_day(notebook), pid)):
            notebook = policy.notebook_path(answered.date(), pid)  # (receipts from before the person's own day)
        nb = self.store.path(notebook)
        if nb.is_file():  # the answer's entry says it was taken back (the notebook is never edited)
            line = policy.render_notebook_undo(answered, str(receipt["details"].get("result") or ""), page, now)
            self.store.append_file(nb, [line.rstrip("\n"), ""])
        return {"person": pid, "page": page}

    def quiz_problems(self) -> list[str]:
        out: list[str] = []
        for pid in self.ledger_persons():
            ledger = self.read_ledger(pid, strict=False)
            out.extend(f"{policy.ledger_path(pid)}: {p}" for p in ledger.problems)
        return out


RACY_NS = 3_000_000_000  # FAT's 2 s times, and a margin


def _notebook_day(path: str) -> date:
    """The day a notebook path names (`quiz/<YYYY-MM-DD>.<person>.md`); 1970-01-01 when it names none."""
    try:
        return date.fromisoformat(path.removeprefix("quiz/")[:10])
    except ValueError:
        return date(1970, 1, 1)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _invalid_scheduler(action: str, scheduler: str, now: datetime, actor: str) -> Receipt:
    return make_receipt(action, "reject", now, actor, {"reason": "invalid_scheduler", "value": scheduler})


def _item_of(marker: dict[str, Any]) -> policy.QuizItem:
    """A ledger row from its marker (`QuizItem.marker()`), as a receipt keeps it for an undo."""
    return policy.QuizItem(
        page=marker["page"],
        box=marker["box"],
        due=date.fromisoformat(marker["due"]),
        asked=marker["asked"],
        correct=marker["correct"],
        last=date.fromisoformat(marker["last"]) if marker.get("last") else None,
        last_result=marker.get("lastResult"),
        last_q=marker.get("lastQ") or "",
        fsrs=marker.get("fsrs"),
    )


def not_askable(entry: Entry, now: datetime) -> dict[str, str]:
    """Why a session would not offer the record (a receipt's refusal details), or {} when it would: its status is
    not active (`record_not_active`), or it is out of the rotation (`record_not_in_rotation`: `left_rotation`)."""
    if entry.status is not Status.active:
        return {"reason": "record_not_active", "status": entry.status.value}
    if left := left_rotation(entry, now):
        return {"reason": "record_not_in_rotation", "why": left}
    return {}


def left_rotation(entry: Entry, now: datetime) -> str:
    """Why an active record is out of the rotation a session selects from (`policy.in_rotation`, and expiry): a
    draft awaits a person, a cold page has left automatic recall, a temporary fact that ran out is not rehearsed;
    "" when it is in it."""
    if entry.category.value == "draft":
        return "draft"
    if entry.tier is Tier.cold:
        return "cold"
    if entry.expires_at is not None and entry.expires_at <= now:
        return "expired"
    return ""

"""Undo: reversing a curation decision with a new receipt that names the one it reverses.

Each queue registers, when it is built, how to reverse each of its decisions (`UndoHandlers.register`): the
handler, and whether only a person may undo it. `Undo.undo` finds the receipt, refuses what cannot be undone
(unknown, tampered, not undoable, already undone, superseded by a later decision, human-only asked by an agent) and
otherwise calls the handler inside the operation, then records the undo receipt.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .errors import BadInput, NotFound, clip
from .models import Receipt, at
from .receipts import ReceiptCursor, ReceiptLine, commit_order, make_receipt, verify_receipt
from .store import Store
from .validate import validate_actor
from .views import Views

# (the receipt being reversed, now, actor) → details the undo receipt adds (what was restored). Runs inside the
# operation: its writes are staged and commit with the undo receipt.
UndoHandler = Callable[[dict[str, Any], datetime, str], dict[str, Any]]


def keeps_a_reversal(action: str, status: str, details: Any) -> bool:
    """Whether a receipt holds a decision that `undo` can reverse, its action's handler aside: it was not refused or
    rejected, and it kept what to put back (`details.undo`; an undeny is reversed from its own details). A run that
    changed nothing (a consolidate with nothing to merge, a decay that moved no record) keeps nothing to put back, and
    its undo is refused as `not_undoable`: what offers an undo asks this first (`Engine.can_undo`)."""
    if status in ("reject", "refused"):
        return False
    return action == "undeny" or (isinstance(details, dict) and "undo" in details)


@dataclass(frozen=True)
class Reversal:
    handler: UndoHandler
    human_only: bool  # a decision only a person may take, and so only a person may undo (SPEC §7)


class UndoHandlers:
    """Action → how to reverse it. Filled by the queues as they are built."""

    def __init__(self) -> None:
        self._by_action: dict[str, Reversal] = {}

    def register(self, action: str, handler: UndoHandler, *, human_only: bool) -> None:
        if action in self._by_action:
            raise ValueError(f"{action!r} already has an undo handler")
        self._by_action[action] = Reversal(handler, human_only)

    def get(self, action: str) -> Reversal | None:
        return self._by_action.get(action)

    def __contains__(self, action: object) -> bool:
        return action in self._by_action

    @property
    def actions(self) -> frozenset[str]:
        return frozenset(self._by_action)

    @property
    def human_only(self) -> frozenset[str]:
        return frozenset(a for a, r in self._by_action.items() if r.human_only)


def _reversed_by(data: dict[str, Any] | None) -> str | None:
    """The receipt an undo receipt reversed, when this line is one that did (`undone`: a refused undo names the
    receipt it refused to reverse); None for any other line. Its hash is the caller's to check."""
    if not data or data.get("action") != "undo" or data.get("status") != "undone":
        return None
    reverses = (data.get("details") or {}).get("reverses")
    return reverses if isinstance(reverses, str) else None


class UndoOps:
    def __init__(self, store: Store, views: Views) -> None:
        self.store = store
        self.views = views
        self.handlers = UndoHandlers()

    def find_receipt(self, sha: str, lines: list[ReceiptLine] | None = None) -> dict[str, Any] | None:
        """The receipt with this sha256, or with this unique prefix of at least 8 hex characters (the desk shows
        12). BadInput when a prefix is too short, not hex, or names more than one receipt. `lines`: the trail as
        already read (`undo` reads it once for its three questions)."""
        given = sha
        sha = sha.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{8,64}", sha):
            # (quoted as given: "Receipt-XYZ", not the lower-cased form it is compared in)
            raise BadInput(
                f"receipt {clip(given)!r}: give the full sha256 or a unique prefix of at least 8 hex characters"
            )
        found: dict[str, dict[str, Any]] = {}
        for _, _, data, _ in self.store.iter_receipts() if lines is None else lines:
            if data and isinstance(data.get("receipt_sha256"), str) and data["receipt_sha256"].startswith(sha):
                found[data["receipt_sha256"]] = data
        if len(found) > 1:
            raise BadInput(f"receipt prefix {sha!r} names {len(found)} receipts; give more characters")
        return next(iter(found.values()), None)

    def undone_by(self, sha: str) -> str | None:
        """The undo receipt that reversed `sha`, if any: one that undid it (`undone`) and whose hash holds, as
        `later_decision` counts them (a refused undo names the receipt it refused to reverse)."""
        return self.undone_among([sha]).get(sha)

    def undos_since(self, cursor: ReceiptCursor | None = None) -> tuple[dict[str, str], ReceiptCursor]:
        """The undos written after `cursor` (`read_receipts`): {receipt reversed: the undo that reversed it}, and the
        cursor to ask from next time. A reader that asks again and again (the desk's quiz pane, after each return to
        it) reads only what was appended since, where `undone_among` reads the whole trail."""
        lines, cursor = self.store.read_receipts(cursor)
        found: dict[str, str] = {}
        for _, _, data, _ in lines:
            reverses = _reversed_by(data)
            if data and reverses is not None and reverses not in found and verify_receipt(data):
                found[reverses] = str(data["receipt_sha256"])
        return found, cursor

    def undone_among(self, shas: Iterable[str], lines: list[ReceiptLine] | None = None) -> dict[str, str]:
        """`undone_by` for several receipts in one reading of the trail: {receipt: the undo that reversed it}."""
        wanted = set(shas)
        found: dict[str, str] = {}
        for _, _, data, _ in self.store.iter_receipts() if lines is None else lines:
            reverses = _reversed_by(data)
            if data and reverses in wanted and reverses not in found and verify_receipt(data):
                found[reverses] = str(data["receipt_sha256"])
                if len(found) == len(wanted):
                    break  # every one found: the rest of the trail is not read
        return found

    def later_decision(self, original: dict[str, Any], lines: list[ReceiptLine] | None = None) -> dict[str, Any] | None:
        """The receipt of a later curation decision about the same thing (a record, a suppression key, a conflict, a
        quiz item) that is still in effect, if there is one. Undo reverses only the latest decision about a thing:
        undoing an older one would also undo what the later one decided (deny, undeny, deny again, then undo the
        first deny would lift the second denial)."""
        subjects = decision_subjects(original)
        if not subjects:
            return None
        # A merge's and a resolution's undo put back the records' reinforcement, confidence and notes as they were:
        # a statement an agent restated into one of them since (a capture or an import that consolidated) would be
        # undone with it, and its receipt would no longer be true. Such a capture stops the undo too.
        restates = original.get("action") in RESTORES_COUNTS
        if lines is None:
            lines = list(self.store.iter_receipts())
        order = commit_order(self.store.root, lines)
        here = order.get(original["receipt_sha256"])
        undone = set()
        later = []
        for n, (_, _, data, _) in enumerate(lines):
            if not data or not verify_receipt(data):
                continue
            if (reverses := _reversed_by(data)) is not None:
                undone.add(reverses)
            elif (
                (data.get("action") in self.handlers or restates and data.get("action") in ("capture", "import"))
                and data.get("status") not in ("reject", "refused")
                and data["receipt_sha256"] != original["receipt_sha256"]
            ):
                later.append((order.get(data["receipt_sha256"], len(order) + n), data))
        if here is None:
            return None
        for pos, data in sorted(later, key=lambda x: x[0]):
            if pos > here and data["receipt_sha256"] not in undone and decision_subjects(data) & subjects:
                return data
        return None

    def undo(self, receipt_sha256: str, *, now: datetime, actor: str) -> Receipt:
        """Reverse a curation decision with a new receipt naming the one it reverses. Undoing twice is refused, and so
        is undoing a decision a later one (not itself undone) has superseded: `superseded_by_later_decision`.

        Receipt details: reverses, action (of the reversed receipt), plus what was restored.
        """
        now = at(now)
        actor = validate_actor(actor)
        with self.store.writing():
            # The trail, read once for the three questions below (which receipt, undone already, a later decision):
            # each read it whole, and at a large wiki the garbage of three readings held the UI thread's lock.
            trail = list(self.store.iter_receipts())
            original = self.find_receipt(receipt_sha256, trail)
            if original is None:
                return make_receipt(
                    "undo", "reject", now, actor, {"reason": "unknown_receipt", "reverses": receipt_sha256}
                )
            if not verify_receipt(original):
                return make_receipt(
                    "undo", "reject", now, actor, {"reason": "receipt_hash_mismatch", "reverses": receipt_sha256}
                )
            reversal = self.handlers.get(original.get("action", ""))
            if reversal is None or not keeps_a_reversal(
                str(original.get("action", "")), str(original.get("status", "")), original.get("details", {})
            ):
                return make_receipt(
                    "undo",
                    "reject",
                    now,
                    actor,
                    {
                        "reason": "not_undoable",
                        "reverses": original["receipt_sha256"],
                        "action": original.get("action"),
                    },
                )
            if reversal.human_only and not actor.startswith("human:"):
                return make_receipt(
                    "undo",
                    "refused",
                    now,
                    actor,
                    {"reason": "human_actor_required", "reverses": original["receipt_sha256"]},
                )
            prior_undo = self.undone_among([original["receipt_sha256"]], trail).get(original["receipt_sha256"])
            if prior_undo:
                return make_receipt(
                    "undo",
                    "reject",
                    now,
                    actor,
                    {"reason": "already_undone", "reverses": original["receipt_sha256"], "undone_by": prior_undo},
                )
            later = self.later_decision(original, trail)
            if later:
                return make_receipt(
                    "undo",
                    "reject",
                    now,
                    actor,
                    {
                        "reason": "changed_by_later_capture"
                        if later.get("action") in ("capture", "import")
                        else "superseded_by_later_decision",
                        "reverses": original["receipt_sha256"],
                        "superseded_by": later["receipt_sha256"],
                        "detail": f"{later.get('action')} by {later.get('actor')} at {later.get('at')} "
                        f"(receipt {str(later['receipt_sha256'])[:12]}) came after it"
                        + ("" if later.get("action") in ("capture", "import") else "; undo that first"),
                    },
                )
            try:
                extra = reversal.handler(original, now, actor)
            except NotFound as exc:
                raise self._page_gone(original, trail, exc) from None
            receipt = make_receipt(
                "undo",
                "undone",
                now,
                actor,
                {"reverses": original["receipt_sha256"], "action": original["action"], **extra},
            )
            self.store.record(receipt, "high")
            self.views.refresh(now)
            return receipt

    def _page_gone(self, original: dict[str, Any], trail: list[ReceiptLine], exc: NotFound) -> NotFound:
        """What an undo says when a record it would put back is no longer in the wiki: its page was deleted (or
        moved out of entries/) by hand since the decision. The handler only knew an id it could not find ("unknown
        memory id 'mem_…'"), though the receipt being undone names the record."""
        gone = [
            m[len("mem:") :]
            for m in sorted(decision_subjects(original))
            if m.startswith("mem:") and m[len("mem:") :] in str(exc)
        ]
        if not gone:
            return exc
        mid = gone[0]
        page = self.store.page_of(mid)
        if page is None:  # forgotten by the index since: where the receipts last put it
            for _, _, data, _ in trail:
                d = (data or {}).get("details")
                if isinstance(d, dict) and d.get("memory_id") == mid and isinstance(d.get("page"), str):
                    page = d["page"]
        where = f"its page {page}" if page else "its page"
        return NotFound(
            f"{mid}: {where} was deleted or moved outside memkeeper, so receipt {original['receipt_sha256'][:12]}… "
            "cannot be undone; restore the page (snapshots/ keeps copies) and undo again"
        )


# Decisions whose undo writes back a record's reinforcement, confidence and notes as they were before it.
RESTORES_COUNTS = frozenset({"consolidate", "resolve_conflict"})


def decision_subjects(receipt: dict[str, Any]) -> set[str]:
    """What a curation decision changed: records (`mem:`), suppression keys (`key:`), conflicts (`conflict:`), quiz
    items (`quiz:<person>:<page>`), their burials (`quiz-bury:<person>:<page>`) and ledgers' schedulers and time zones
    (`quiz-scheduler:<person>`, `quiz-zone:<person>`)."""
    action = receipt.get("action")
    d: dict[str, Any] = receipt.get("details") or {}
    undo: dict[str, Any] = d["undo"] if isinstance(d.get("undo"), dict) else {}
    mems: list[Any] = []
    out: set[str] = set()
    if action in ("confirm", "deny", "undeny", "confirm_many", "deny_many"):
        mems += [
            d.get("memory_id"),
            *(d.get("memory_ids") or []),
            *(d.get("restored") or []),
            *(d.get("propagated_to") or []),
            *((undo.get("prior") or {}).keys()),
        ]
        if d.get("suppression_key"):
            out.add(f"key:{d['suppression_key']}")
        out.update(f"key:{k}" for k in (d.get("suppression_keys") or {}).values() if isinstance(k, str))
    elif action in ("resolve_conflict", "snooze_conflict"):
        if d.get("conflict_id"):
            out.add(f"conflict:{d['conflict_id']}")
        if isinstance(d.get("opened"), dict) and d["opened"].get("conflict_id"):
            out.add(f"conflict:{d['opened']['conflict_id']}")  # a conflict the resolution opened (withdrawn by undo)
        mems += [
            d.get("winner"),
            d.get("loser"),
            d.get("created"),
            (undo.get("existing") or {}).get("memory_id"),
            (undo.get("incoming") or {}).get("memory_id"),  # an incoming side that was a record already
        ]
    elif action == "quiz_record":
        out.add(f"quiz:{d.get('person')}:{d.get('page')}")
    elif action == "quiz_bury":  # the bury list, not the row: a bury and an answer are undone independently
        out.add(f"quiz-bury:{d.get('person')}:{d.get('page')}")
    elif action == "quiz_scheduler":
        out.add(f"quiz-scheduler:{d.get('person')}")
    elif action == "quiz_zone":
        out.add(f"quiz-zone:{d.get('person')}")
    elif action == "decay":
        mems += list(d.get("archived") or [])
    elif action == "consolidate":
        mems += list((undo.get("prior") or {}).keys())
    elif action in ("tiers_apply", "tiers_commit", "tier_restore"):
        mems += list((undo.get("prior_tiers") or {}).keys())
        if action in ("tiers_apply", "tiers_commit") and isinstance(undo.get("review"), str):
            # The review a commit wrote and its apply answered: undoing the commit while the apply stands brought
            # the review back as pending, to be applied again for a commit that was undone.
            out.add(f"review:{undo['review']}")
    elif action == "capture" and receipt.get("status") == "consolidated":
        mems.append(d.get("memory_id"))  # only ever a subject for the undo of a merge or a resolution (above)
    elif action == "import":
        mems += [
            r.get("memory_id")
            for r in d.get("results") or []
            if isinstance(r, dict) and r.get("status") == "consolidated"
        ]
    out.update(f"mem:{m}" for m in mems if isinstance(m, str) and m)
    return out

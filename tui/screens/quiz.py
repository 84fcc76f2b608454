"""Quiz pane (SPEC §5.3, §6): today's spaced-repetition session — question, reveal, grade with one key, next.

Decisions (documented in the help and here):
- The session is taken once, when the pane mounts, and kept: re-querying between cards would reshuffle it (an
  answered item leaves "due"). A refresh only re-reads when the session was empty (an agent may have written since).
- Like Anki, a card is graded only after its answer is revealed (1–4 are dimmed until then and, pressed, say so);
  skip (`s`) works at any time, because "not now" needs no answer key. Every card key that does nothing says why.
- `a` opens an answer box: type, enter reveals; the typed text goes to the dated quiz notebook with the verdict. A
  typed answer the engine refuses as a secret is typed again: `a` opens the box again, empty, on the revealed card.
- Accuracy in the summary = correct / graded, where again is wrong, hard/good/easy are correct and skips are left out.
- Undo (`u`) reverses the last grade in the ledger and returns to that card, revealed, to grade it again; an undone
  bury returns to the card unrevealed.
- Once revealed, the grade row shows what each key would schedule (Anki's answer buttons), from the engine's preview
  of the ledger's own scheduler; under Leitner hard, good and easy all mean "correct" (one interval), which the row
  says.
- `b` buries the card until tomorrow with no penalty (skip, `s`, is a miss: box 0). Like skip it needs no reveal.
- When a session ends and more is due today (the 7-card cap, or the day's new pages), `m` loads the next batch in
  place. The batches since the pane opened are one sitting: the progress row counts the batch on screen, the summary
  every card of the sitting (and says in how many batches). An undone answer from an earlier batch brings its card
  into the batch on screen, to be answered again there.
- A person without a ledger is asked for its scheduler first: `f` FSRS (recommended), `l` Leitner.
- `F` switches the ledger's scheduler later (after a dialog; every card keeps its box and due date; undoable).
- The session fixes which cards are asked, not what they say: the page is the answer key. When the wiki changes (an
  agent writes, a page is corrected by hand), the cards not yet answered are read again from their records (in a
  worker) and ask and answer what the pages say now; a card whose answer changed on screen says so. A card whose
  record has left the rotation meanwhile (denied, superseded, archived) or whose page is gone leaves the session,
  and so does a card answered or buried today outside this desk (another desk, the command line): a second answer
  today would not be scheduled as its grade keys say.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, tzinfo
from functools import partial

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, ProgressBar, Static
from textual.worker import Worker, WorkerState, get_current_worker

from memkeeper.core import MemkeeperError, NotFound, Receipt
from memkeeper.core.models import Status, inert_text
from memkeeper.core.quiz_ledger import ledger_zone, quiz_day, zone_named
from memkeeper.core.quiz_queue import QuizCard, card_as_now, left_rotation
from memkeeper.core.receipts import ReceiptCursor

from ..widgets.status_line import Wording
from .base import PaneScreen
from .modals import ConfirmModal

GRADES = ("again", "hard", "good", "easy", "skip")
SCHEDULER_NAMES = {"fsrs": "FSRS", "leitner": "Leitner"}
#: What the tally counts: the grades, and cards buried for the day.
OUTCOMES = (*GRADES, "bury")
GRADE_STYLE = {
    "again": "bold red",
    "hard": "bold yellow",
    "good": "bold green",
    "easy": "bold cyan",
    "skip": "dim",
    "bury": "dim",
}
GRADE_KEY = {"again": "1", "hard": "2", "good": "3", "easy": "4", "skip": "s", "bury": "b"}
REASON_LABEL = {"due-wrong": "due · missed last time", "due": "due", "new": "new"}
#: The help's note on grades under Leitner, which has one "correct" whatever the grade.
LEITNER_NOTE = "Leitner cannot tell hard, good and easy apart: each is correct, one box up"
#: How the hidden part of a cloze shows, in the question (the gap) and in the revealed answer (the value).
GAP_STYLE = "bold reverse"
#: The gap of a cloze question.
GAP = "[…]"
#: Characters of a cloze question shown either side of its gap: a cloze over a long page (an agent's 12 KB session
#: summary) is the whole page, which filled the screen and pushed the answer and the grade keys off it. The card
#: shows the passage around the gap; the revealed answer is the whole page.
CLOZE_CONTEXT = 240
#: What a card asks and answers, read from its record: what a change to its page can change.
ASKED = ("page", "title", "question", "answer", "source", "cloze")
#: The answer panel's subtitle on a card whose page changed while it was on screen.
CHANGED_NOTE = "the page changed while this card was up: this is it now"


@dataclass(frozen=True)
class Aside:
    """What the summary and the empty state show beside the cards, read in a worker."""

    weak: list  # the person's weak spots (`Engine.weak_spots`)
    remaining: int  # what sessions could still offer today
    pages: int  # rows in the person's ledger
    next_due: date | None


#: Why a card left the session when its answer (or bury) for today was written outside this desk.
ANSWERED, BURIED = "answered elsewhere", "buried elsewhere"

LEFT_AS = {"draft": "a draft", "cold": "cold (out of automatic recall)", "expired": "past its expiry"}


def _is_card(memory_id: str, card: QuizCard) -> bool:
    return card.memory_id == memory_id


def _left_line(title: str, status: str) -> str:
    """What the status line says of a card that left the session: its record's status, or why it left the
    rotation (`left_rotation`)."""
    return f"{title} is {LEFT_AS.get(status, status or 'out of the rotation')} now: the card left this session."


def _elsewhere_line(title: str, why: str) -> Wording:
    """What the status line says of a card answered (or buried) today outside this desk: it left the session, since a
    second answer today would be scheduled from the first, not as its grade keys say."""
    return (
        f"{title} was {why} today (another desk or the command line): the card left this session.",
        f"{title} was {why} today: the card left this session.",
        f"A card was {why} today: it left this session.",
    )


def interval_label(days: int) -> str:
    """A next interval as Anki writes it on its buttons: days, then months, then years."""
    if days < 1:
        return "<1d"
    if days < 30:
        return f"{days}d"
    if days < 365:
        return f"{days / 30.4:.1f}".rstrip("0").rstrip(".") + "mo"
    return f"{days / 365:.1f}".rstrip("0").rstrip(".") + "y"


def cloze_passage(question: str, context: int = CLOZE_CONTEXT) -> str:
    """The part of a cloze question the card shows: all of a short one; of a long one, the passage from `context`
    characters before its first gap to `context` after its last, cut at a line break or a space where there is one
    near, "…" marking what was left out."""
    first, last = question.find(GAP), question.rfind(GAP)
    if len(question) <= 2 * context + len(GAP) or first < 0:
        return question
    start, end = max(0, first - context), min(len(question), last + len(GAP) + context)
    if start > 0:
        cut = max(question.rfind("\n", start, first), question.rfind(" ", start, first))
        # A break in the first half of the margin (else the margin is one long token: cut it where it is).
        start = cut + 1 if cut >= 0 and cut - start < context // 2 else start
    if end < len(question):
        cut = question.find("\n", last + len(GAP), end)
        if cut < 0:
            cut = question.rfind(" ", last + len(GAP), end)
        end = cut if cut >= 0 and end - cut < context // 2 else end
    return ("… " if start > 0 else "") + question[start:end].strip("\n") + (" …" if end < len(question) else "")


@dataclass
class Batch:
    """A batch of the sitting: its cards, and how each was answered (by memory id)."""

    cards: list[QuizCard]
    grades: dict[str, str]  # memory_id -> grade, or "bury"
    receipts: dict[str, Receipt]

    def holds(self, memory_id: str) -> bool:
        return any(c.memory_id == memory_id for c in self.cards)


class AnswerInput(Input):
    """The typed-answer box: enter reveals (handled by the pane), escape leaves the box without revealing."""

    BINDINGS = [Binding("escape", "leave", "Leave answer box", show=False)]

    def action_leave(self) -> None:
        self.screen.set_focus(None)


class QuizScreen(PaneScreen):
    PANE_ID = "quiz"
    CURSOR_DECISIONS = frozenset({"grade", "bury"})
    #: The card keys: dimmed in the footer when they do not apply (a grade before the reveal, any of them on the
    #: summary or with nothing due); pressed, they say why in the status line (`_why_not`).
    ANSWERING = frozenset({"reveal", "answer", "bury", *(f"grade('{g}')" for g in GRADES)})
    PANE_TITLE = "Quiz"
    AUTO_FOCUS = ""  # keys go to the pane; the answer box takes focus only when asked for (a)

    BINDINGS = [
        Binding("space,enter", "reveal", "Reveal", id="quiz.reveal"),
        Binding("1", "grade('again')", "Again", id="quiz.again"),
        Binding("2", "grade('hard')", "Hard", tooltip=LEITNER_NOTE, id="quiz.hard"),
        Binding("3", "grade('good')", "Good", tooltip=LEITNER_NOTE, id="quiz.good"),
        Binding("4", "grade('easy')", "Easy", tooltip=LEITNER_NOTE, id="quiz.easy"),
        Binding("s", "grade('skip')", "Skip", tooltip="a miss: back to box 0", id="quiz.skip"),
        Binding("b", "bury", "Bury", tooltip="until tomorrow, no penalty", id="quiz.bury"),
        Binding("a", "answer", "Type answer", id="quiz.answer"),
        Binding("m", "more", "Study more", tooltip="the next batch of today's cards", id="quiz.more"),
        Binding("f", "scheduler('fsrs')", "FSRS ledger", tooltip="new ledger; recommended", id="quiz.fsrs"),
        Binding("l", "scheduler('leitner')", "Leitner ledger", tooltip="new ledger", id="quiz.leitner"),
        Binding("u", "undo", "Undo", id="quiz.undo"),
        # Not in the footer (a ledger's scheduler is changed seldom): in help and the palette.
        Binding("F", "switch_scheduler", "Switch scheduler…", show=False, id="quiz.switch_scheduler"),
    ]

    DEFAULT_CSS = """
    QuizScreen #quiz-body { height: 1fr; padding: 0 1; }
    QuizScreen #quiz-progress-row { height: 1; margin: 1 0 0 0; }
    QuizScreen #quiz-progress-row ProgressBar { width: 1fr; max-width: 60; }
    QuizScreen #quiz-progress-row Bar { width: 1fr; }
    QuizScreen #quiz-position { width: auto; padding: 0 2; text-style: bold; }
    QuizScreen #quiz-tally { width: auto; color: $text-muted; }
    QuizScreen #quiz-card-box {
        height: auto;
        max-height: 45%;
        scrollbar-size-vertical: 1;
        scrollbar-size-horizontal: 0;  /* a stable gutter would otherwise add a row to the card's auto height */
        scrollbar-gutter: stable;
        border: round $accent;
        border-title-color: $accent;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
        padding: 1 2;
        margin-top: 1;
    }
    QuizScreen #quiz-card { height: auto; }
    QuizScreen #quiz-answer-input { margin-top: 1; display: none; }
    QuizScreen #quiz-grade-row { height: auto; padding: 0 1; }
    QuizScreen #quiz-answer {
        height: 1fr;
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        padding: 1 2;
        margin-top: 1;
    }
    QuizScreen #quiz-answer.-revealed { border: round $success; border-title-color: $success; }
    QuizScreen #quiz-summary {
        height: 1fr;
        border: round $success;
        border-title-color: $success;
        border-title-style: bold;
        padding: 1 2;
        margin-top: 1;
    }
    QuizScreen #quiz-empty {
        margin-top: 1;
    }
    QuizScreen #quiz-setup {
        height: auto;
        border: round $accent;
        border-title-color: $accent;
        border-title-style: bold;
        padding: 1 2;
        margin-top: 1;
    }
    """

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[QuizCard] = []
        self.index = 0
        self.revealed = False
        #: The sitting's earlier batches, in the order they were taken (`cards`, `grades` and `receipts` are the batch
        #: on screen). Each was done when "study more" took the next one; the summary counts them with it.
        self.batches: list[Batch] = []
        self.grades: dict[str, str] = {}  # memory_id -> grade
        self.receipts: dict[str, Receipt] = {}
        self.sent: dict[str, str] = {}  # memory_id -> the grade (or "bury") whose receipt is on its way
        #: Of those, the cards whose answer was shown when the key was pressed: a refused one comes back as it was.
        self.sent_revealed: set[str] = set()
        self.typed: dict[str, str] = {}
        #: Cards whose typed answer the engine refused as a secret (`secret_detected`): `a` opens the answer box again
        #: on them, revealed, so the person retypes it (or leaves it empty) and grades.
        self.secret_typed: set[str] = set()
        self._loaded = False
        #: True while today's session is being taken (`_session_worker`).
        self.loading = False
        #: True while the person has no ledger: the pane asks for a scheduler before the first card.
        self.choosing = False
        #: The scheduler of the person's ledger when the session was taken (None without a ledger).
        self.scheduler: str | None = None
        #: What sessions could still offer today once this one is done (read when the summary shows).
        self.remaining = 0
        #: The summary's and the empty state's reads, with the sitting they were read for (`_aside_now`).
        self._aside: tuple[tuple[object, ...], Aside] | None = None
        self._aside_wanted: tuple[object, ...] | None = None
        #: The person's quiz day the batch on screen was taken for: a new day is a new sitting.
        self.day: date | None = None
        #: The person's time zone, whose days are their quiz days (read with the session: `_session_worker`).
        self.zone: tzinfo = UTC
        #: The cards whose page changed while they were on screen (the answer panel says so).
        self.changed: set[str] = set()
        #: The wiki changed while the session was being taken: its cards are read again once it is in.
        self._reread_pending = False
        #: Reads of cards started so far, and for each card the newest read applied: a read that comes back after a
        #: later one of the same card (two workers) is not applied over it.
        self._reads = 0
        self._read_applied: dict[str, int] = {}
        #: The undos read so far ({receipt reversed: its undo}) and where the receipts were read to: each return to
        #: the pane reads only the receipts written since (`_check_undone`).
        self._undos: dict[str, str] = {}
        self._undo_cursor: ReceiptCursor | None = None

    # ------------------------------------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Vertical(id="quiz-body"):
            with Horizontal(id="quiz-progress-row"):
                yield ProgressBar(total=1, show_eta=False, show_percentage=False, id="quiz-progress")
                yield Static(id="quiz-position")
                yield Static(id="quiz-tally")
            # The question scrolls inside its box: a long one (a cloze over an agent's 12 KB summary) must not push
            # the answer and the grade keys off the screen.
            with VerticalScroll(id="quiz-card-box"):
                yield Static(id="quiz-card")
            yield AnswerInput(
                placeholder="Type your answer, enter to reveal (esc leaves the box)", id="quiz-answer-input"
            )
            with VerticalScroll(id="quiz-answer"):
                yield Static(id="quiz-answer-text")
            yield Static(id="quiz-grade-row")
            yield Static(id="quiz-setup")
            with VerticalScroll(id="quiz-summary"):
                yield Static(id="quiz-summary-text")
            yield Static(id="quiz-empty", classes="empty-state")

    def on_mount(self) -> None:
        self._load_session()

    def _load_session(self, *, announce: bool = False) -> None:
        """Take today's session in a worker: building the questions (a cloze reads the page's slots) takes 80-160 ms
        on a first visit, which on the UI thread held every key. The pane says so until the first card is up;
        `announce` says how many cards came (a "study more")."""
        self.loading = True
        self.cards = []
        self.index = 0
        self.revealed = False
        self.grades = {}  # new dicts: a batch done (`action_more`) keeps its own
        self.receipts = {}
        self.typed.clear()
        self.secret_typed.clear()
        self.changed.clear()
        self._paint()
        now = self.now()
        self.day = self.today(now)  # the day of the zone last read; the session's read says which it is
        self._session_worker(self.mk.person, now, announce)

    @work(thread=True, exclusive=True, group="quiz-session", exit_on_error=False)
    def _session_worker(self, person: str, now: datetime, announce: bool) -> None:
        choosing = not self.engine.has_ledger(person)
        scheduler = None if choosing else self.engine.read_ledger(person, strict=False).scheduler
        zone = self.engine.quiz_zone(person)
        cards = list(self.engine.quiz_session(person, now=now))
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._session_taken, choosing, cards, announce, scheduler, (zone, now))

    def _session_taken(
        self,
        choosing: bool,
        cards: list[QuizCard],
        announce: bool,
        scheduler: str | None = None,
        zoned: tuple[str, datetime] | None = None,
    ) -> None:
        if zoned is not None:
            try:
                self.zone = zone_named(zoned[0])
            except ValueError:
                self.zone = UTC  # as the engine reads a zone this machine does not know
            self.day = self.today(zoned[1])
        self.loading = False
        self.choosing = choosing
        self.scheduler = scheduler
        # Not a card of an earlier batch whose answer was still being written when this one was taken.
        cards = [c for c in cards if self._earlier(c.memory_id) is None]
        self.cards = cards
        self._loaded = True
        self._resume_last_batch()
        self._paint()
        if announce:
            self.say(f"Next batch: {len(cards)} cards." if cards else "Nothing else is due today.")
        if self._reread_pending:  # the wiki changed while it was taken: it may have read a page before the change
            self._reread_pending = False
            self._reread()

    def _resume_last_batch(self) -> None:
        """No next batch after all: the last one comes back on screen, and with it the sitting's summary."""
        if not self.cards and self.batches:
            last = self.batches.pop()
            self.cards, self.grades, self.receipts = last.cards, last.grades, last.receipts
            self.index = self._next_ungraded(0)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "quiz-session" and event.state == WorkerState.ERROR:
            self.loading = False  # the app's guard reports the failure; the pane shows its empty state
            self._resume_last_batch()
            self._paint()

    def after_failure(self, error: BaseException | None) -> None:
        # The card's record is gone (its page deleted since the session was taken): every key on it would fail
        # the same way, so the card leaves the session and the next one comes up.
        card = self.current
        if isinstance(error, NotFound) and card is not None:
            self._drop_card(
                card.memory_id, f"{card.title}: its page is gone from the wiki; the card left this session."
            )

    def _drop_card(self, memory_id: str, why: Wording) -> None:
        earlier = self._earlier(memory_id)
        if earlier is not None:  # answered in an earlier batch, refused once the next one was taken
            self._leave_earlier(earlier, memory_id)
            self.sent.pop(memory_id, None)
            self.say(why, "yellow")
            self._paint()
            return
        card = next((c for c in self.cards if c.memory_id == memory_id), None)
        if card is None:
            return
        shown = self.current
        at = self.cards.index(card)
        self.cards = [c for c in self.cards if c.memory_id != memory_id]
        self.sent.pop(memory_id, None)
        self.grades.pop(memory_id, None)
        self._resume_last_batch()  # it was the batch's only card: the sitting's summary, not "nothing due"
        ids = [c.memory_id for c in self.cards]
        if shown is not None and shown.memory_id != memory_id and shown.memory_id in ids:
            self.index = ids.index(shown.memory_id)  # another card left: the one on screen stays as it is
        else:
            if self.cards and not self.finished:
                self.index = self._next_ungraded(min(at, len(self.cards) - 1))
            self.revealed = False
        self.say(why, "yellow")
        self._paint()

    def _new_day(self) -> bool:
        """The person's quiz day changed since the batch on screen was taken (a desk left open overnight)."""
        return self.day is not None and self.today(self.now()) != self.day and not self.loading

    def today(self, now: datetime) -> date:
        """The person's quiz day at `now`: the date in their time zone (`memkeeper quiz zone`), UTC without one."""
        return quiz_day(now, self.zone)

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self._check_undone()

    def refresh_data(self) -> None:
        # The session's cards are fixed once taken; only an empty session is worth asking for again, or a finished
        # one on a new day: yesterday's sitting is over, and its cards (due again today) are today's session. What
        # each card asks and answers may change: the page is the answer key, and it may have been corrected since.
        if self._new_day() and (self.finished or not self.cards) and not self.sent:
            self.batches = []
            self._load_session()
            return
        if not self.cards and not self.loading:
            self._load_session()
            return
        self._paint()
        if self.loading:
            self._reread_pending = True
        else:
            self._reread()

    def _reread(self, only: QuizCard | None = None) -> None:
        """Read the cards not yet answered in the batch on screen (or `only` that one) again from their records, in a
        worker: a wiki change reads them all; a reveal reads the card revealed (the watcher may not have said, or not
        yet, that its page changed)."""
        if self.choosing:  # the session is taken again once the ledger is there
            return
        cards = [c for c in self.cards if c.memory_id not in self.grades and c.memory_id not in self.sent]
        if only is not None:
            cards = [c for c in cards if c.memory_id == only.memory_id]
        if cards:
            self._reads += 1
            worker = self._reveal_read_worker if only is not None else self._reread_worker
            worker(cards, self._reads, self.now())

    @work(thread=True, exclusive=True, group="quiz-reread", exit_on_error=False)
    def _reread_worker(self, cards: list[QuizCard], read: int, now: datetime) -> None:
        self._read_cards(cards, read, now)

    @work(thread=True, exclusive=True, group="quiz-reveal-read", exit_on_error=False)
    def _reveal_read_worker(self, cards: list[QuizCard], read: int, now: datetime) -> None:
        self._read_cards(cards, read, now)

    def _read_cards(self, cards: list[QuizCard], read: int, now: datetime) -> None:
        """In a worker: each card as its record reads now, or why it left the rotation (its status, or the engine's
        `left_rotation`: a draft, a cold page, a record past its expiry, whose answers are refused), or that it was
        answered or buried today elsewhere (another desk, the command line): the person's ledger says so."""
        from memkeeper.core.quiz import buried_pages, person_id

        fresh: dict[str, QuizCard] = {}
        left: dict[str, str] = {}  # memory_id -> its status now, "gone", "answered" or "buried"
        ledger = self.engine.read_ledger(person_id(self.mk.person), strict=False)  # read, not written
        today = quiz_day(now, ledger_zone(ledger)[1])
        buried = buried_pages(ledger, today)
        for card in cards:
            item = ledger.item(card.page)
            if item is not None and item.last is not None and item.last >= today:
                left[card.memory_id] = ANSWERED  # a second answer today would not be the interval its keys show
                continue
            if card.page in buried:
                left[card.memory_id] = BURIED
                continue
            try:
                entry = self.engine.load(card.memory_id)
                page = self.engine.page_of(card.memory_id) or card.page
            except NotFound:
                left[card.memory_id] = "gone"
                continue
            except MemkeeperError:
                continue  # unreadable just now (a page half saved): the card stays as it was; a grade says why
            if entry.status is not Status.active:
                left[card.memory_id] = entry.status.value  # what `quiz_record` would refuse
            elif why := left_rotation(entry, now):
                left[card.memory_id] = why
            else:
                fresh[card.memory_id] = card_as_now(card, entry, page)
                if self.day is not None and self.today(now) != self.day:
                    # Taken on an earlier day (a desk open overnight): the grade keys' intervals count from today.
                    days = self.engine.quiz_preview(card.memory_id, self.mk.person, now=now)
                    fresh[card.memory_id] = replace(fresh[card.memory_id], intervals=days)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._reread_taken, fresh, left, read)

    def _reread_taken(self, fresh: dict[str, QuizCard], left: dict[str, str], read: int) -> None:
        """The cards as their records read now. One answered meanwhile (or its grade on its way) is left as it was
        graded; one no longer in the batch on screen ("study more" took the next) is not brought back."""
        shown = self.current
        changed = False
        for i, card in enumerate(self.cards):
            mid = card.memory_id
            now = fresh.get(mid)
            if now is None or mid in self.grades or mid in self.sent or self._read_applied.get(mid, 0) > read:
                continue
            self._read_applied[mid] = read
            if any(getattr(now, f) != getattr(card, f) for f in (*ASKED, "intervals")):
                # Its place in the session (reason, box, counts) stays: what the page says is new, and the grade
                # keys' intervals when the card was taken on an earlier day.
                self.cards[i] = replace(card, **{f: getattr(now, f) for f in (*ASKED, "intervals")})
                changed = True
                on_screen = shown is not None and shown.memory_id == mid
                if on_screen and (now.question, now.answer) != (card.question, card.answer):
                    self.changed.add(mid)
                    self.say(
                        (
                            f"{now.title}: its page changed; the card shows it as it is now.",
                            "Its page changed; the card shows it as it is now.",
                        ),
                        "yellow",
                    )
        for mid, status in left.items():
            leaving = next((c for c in self.cards if c.memory_id == mid), None)
            if leaving is None or mid in self.grades or mid in self.sent or self._read_applied.get(mid, 0) > read:
                continue
            if status == "gone":
                self._drop_card(mid, f"{leaving.title}: its page is gone from the wiki; the card left this session.")
            elif status in (ANSWERED, BURIED):
                self._drop_card(mid, _elsewhere_line(leaving.title, status))
            else:
                self._drop_card(mid, _left_line(leaving.title, status))
            changed = False  # repainted
        if changed:
            self._paint()

    # ------------------------------------------------------------------------------------------------ state

    @property
    def current(self) -> QuizCard | None:
        if self.choosing:
            return None
        if 0 <= self.index < len(self.cards) and not self.finished:
            return self.cards[self.index]
        return None

    @property
    def finished(self) -> bool:
        """Every card of the batch on screen is answered (or buried)."""
        return bool(self.cards) and all(c.memory_id in self.grades for c in self.cards)

    @property
    def on_screen(self) -> Batch:
        """The batch on screen (its dicts are the pane's `grades` and `receipts`)."""
        return Batch(self.cards, self.grades, self.receipts)

    @property
    def sitting(self) -> list[Batch]:
        """Every batch since the pane opened, the one on screen last."""
        return [*self.batches, self.on_screen] if self.cards else list(self.batches)

    def _earlier(self, memory_id: str) -> Batch | None:
        """The earlier batch of the sitting that holds this card, if any."""
        return next((b for b in self.batches if b.holds(memory_id)), None)

    def _leave_earlier(self, batch: Batch, memory_id: str) -> QuizCard | None:
        """Take a card, and its answer, out of an earlier batch (a batch left empty goes); return the card."""
        card = next((c for c in batch.cards if c.memory_id == memory_id), None)
        batch.cards = [c for c in batch.cards if c.memory_id != memory_id]
        batch.grades.pop(memory_id, None)
        batch.receipts.pop(memory_id, None)
        self.batches = [b for b in self.batches if b.cards]
        return card

    def _next_ungraded(self, start: int) -> int:
        n = len(self.cards)
        for step in range(n):
            i = (start + step) % n
            if self.cards[i].memory_id not in self.grades:
                return i
        return n

    @staticmethod
    def _tally(batches: Iterable[Batch]) -> dict[str, int]:
        """How the cards of these batches were answered, by outcome."""
        counts = dict.fromkeys(OUTCOMES, 0)
        for batch in batches:
            for card in batch.cards:
                g = batch.grades.get(card.memory_id)
                if g is not None:
                    counts[g] += 1
        return counts

    def _bring_back(self, memory_id: str) -> int | None:
        """Where in the batch on screen a card whose answer no longer counts (undone, or refused) stands now: a card
        of an earlier batch joins this one before the card on screen, to be answered again here. None when the card
        is in no batch, or while the next batch is being taken (which offers the card again if it is due)."""
        ids = [c.memory_id for c in self.cards]
        if memory_id in ids:
            return ids.index(memory_id)
        earlier = self._earlier(memory_id)
        card = None if earlier is None else self._leave_earlier(earlier, memory_id)
        if card is None or self.loading or not self.cards:
            return None
        at = min(self.index, len(self.cards))
        self.cards.insert(at, card)
        return at

    # ------------------------------------------------------------------------------------------------ rendering

    def _paint(self) -> None:
        empty = not self.cards
        card = self.current
        loading = self.loading
        show = {
            "#quiz-progress-row": not empty and not self.choosing,
            "#quiz-card-box": card is not None,
            "#quiz-answer": card is not None,
            "#quiz-grade-row": card is not None,
            "#quiz-setup": self.choosing and not loading,
            "#quiz-summary": self.finished and not self.choosing,
            "#quiz-empty": empty and (loading or not self.choosing),
        }
        for sel, visible in show.items():
            self.query_one(sel).display = visible
        if card is None:
            self.query_one("#quiz-answer-input").display = False
        if loading:
            self.query_one("#quiz-empty", Static).update(Text("Taking today's session…", style="dim italic"))
        elif self.choosing:
            self._render_setup()
        elif empty:
            self._render_empty()
        else:
            self._render_progress()
            if card is not None:
                self._render_card(card)
            else:
                self._render_summary()
        self.refresh_bindings()

    def _render_progress(self) -> None:
        # The batch on screen; the summary counts the whole sitting.
        total = len(self.cards)
        done = sum(1 for c in self.cards if c.memory_id in self.grades)
        bar = self.query_one("#quiz-progress", ProgressBar)
        bar.update(total=total, progress=done)
        position = total if self.finished else min(self.index + 1, total)
        self.query_one("#quiz-position", Static).update(f"{position}/{total}")
        tally = self._tally([self.on_screen])
        line = Text()
        for i, g in enumerate(g for g in OUTCOMES if g != "bury" or tally["bury"]):
            line.append(("  " if i else "") + f"{'buried' if g == 'bury' else g} ", style="dim")
            line.append(f"{tally[g]}", style=GRADE_STYLE[g] if tally[g] else "dim")
        self.query_one("#quiz-tally", Static).update(line)

    def _render_card(self, card: QuizCard) -> None:
        box = self.query_one("#quiz-card-box")
        box.border_title = f"Question {self.index + 1} of {len(self.cards)}"
        history = f"{card.correct}/{card.asked} correct" if card.asked else "never asked"
        box.border_subtitle = (
            f"{REASON_LABEL.get(card.reason, card.reason)} · "
            + (f"box {card.box} · " if card.box is not None else "")
            + history
        )
        question = self._question_text(card)
        shown = self.query_one("#quiz-card", Static)
        shown.update(question)
        # A long question scrolls inside its box: its gap is kept in view.
        self._keep_in_view(box, shown, question, question.plain.find(GAP))
        answer_box = self.query_one("#quiz-answer")
        answer_text = self.query_one("#quiz-answer-text", Static)
        self.query_one("#quiz-grade-row", Static).update(self._grade_row(card))
        typed = self.typed.get(card.memory_id, "")
        if self.revealed:
            answer_box.add_class("-revealed")
            answer_box.border_title = "Answer — the page is the answer key"
            answer_box.border_subtitle = CHANGED_NOTE if card.memory_id in self.changed else ""
            grid = Table.grid(padding=(0, 1))
            grid.add_column(style="dim", no_wrap=True, min_width=8)
            grid.add_column(overflow="fold")
            grid.add_row("source", Text(inert_text(card.source), style="underline"))
            grid.add_row("page", inert_text(card.page))
            answer = Text(inert_text(card.answer))  # one for one: the cloze's offsets still point at its value
            if card.cloze is not None:
                answer.stylize(GAP_STYLE, *card.cloze)
            parts: list = [answer, Text(""), grid]
            if typed:
                said = Text.assemble(("you said  ", "dim"), (typed, "italic"))
                if card.memory_id in self.secret_typed:
                    # refused as a secret: not shown again (a screen is read over a shoulder, shared, recorded)
                    a = self._key("quiz.answer")
                    said = Text.assemble(("you said  ", "dim"), ("•" * min(len(typed), 12), "italic"))
                    said.append(f"\nlooks like a secret, not recorded: {a} types it again", style="yellow")
                parts += [Text(""), said]
            answer_text.update(Group(*parts))
            # The value the gap hid, in view: on a long page it is far below the panel's first lines.
            self._keep_in_view(answer_box, answer_text, answer, card.cloze[0] if card.cloze is not None else 0)
        else:
            answer_box.remove_class("-revealed")
            answer_box.border_title = "Answer (hidden)"
            answer_box.border_subtitle = ""
            answer_text.update(
                Text.assemble(
                    ("space", "bold"),
                    (" reveal the answer   ", "dim"),
                    ("a", "bold"),
                    (" type your answer first   ", "dim"),
                    ("s", "bold"),
                    (" skip   ", "dim"),
                    ("b", "bold"),
                    (" bury", "dim"),
                    *((("\n\nyou typed  ", "dim"), (typed, "italic")) if typed else ()),
                )
            )

    def _keep_in_view(self, scroller: Widget, shown: Widget, text: Text, offset: int) -> None:
        """Once laid out, scroll `scroller` so that the line of `text` (shown first in `shown`) holding `offset` is
        in view, a line of what leads to it above; to the top when there is no such offset."""

        def scroll() -> None:
            # The gutter is kept for the scrollbar (`scrollbar-gutter: stable`): the width the text wraps to does
            # not change when a scrollbar comes, which would move every line of a long page.
            width = scroller.scrollable_content_region.width
            line = 0
            if offset > 0 and width > 0:
                line = len(text[:offset].wrap(self.app.console, width)) - 1
            # A line of context above the value, when the box has room for it and for a value wrapped over two
            # lines (at 80x24 a revealed answer may have two lines: the context line pushed the value's end out).
            lead = 1 if scroller.scrollable_content_region.height >= 3 else 0
            scroller.scroll_to(y=max(0, line - lead), animate=False, immediate=True)

        scroller.scroll_home(animate=False, immediate=True)
        if offset > 0:
            self.call_after_refresh(scroll)

    def _question_text(self, card: QuizCard) -> Text:
        """The question in bold; a cloze names its page and shows its gap highlighted."""
        if card.cloze is None:
            return Text(inert_text(card.question), style="bold")
        out = Text.assemble((inert_text(card.title), "dim italic"), "\n")
        question = Text(cloze_passage(inert_text(card.question)), style="bold")
        start = question.plain.find(GAP)
        while start >= 0:
            question.stylize(GAP_STYLE, start, start + len(GAP))
            start = question.plain.find(GAP, start + len(GAP))
        return out.append_text(question)

    def _grade_row(self, card: QuizCard) -> Text:
        """The keys under the answer: before the reveal what can be done; after it, each grade with the interval
        the ledger's scheduler would give (the engine's preview), as on Anki's answer buttons."""
        row = Text()
        if not self.revealed:
            return row
        for i, g in enumerate(GRADES):
            if i:
                row.append(" · ", style="dim")
            row.append(GRADE_KEY[g], style="bold")
            row.append(f" {g.capitalize()} ", style=GRADE_STYLE[g])
            days = card.intervals.get(g)
            if days is not None:
                row.append(interval_label(days), style="bold")
        row.append(" · ", style="dim")
        row.append("b", style="bold")
        row.append(" Bury", style="dim")
        if card.scheduler == "leitner":
            row.append("\nLeitner: hard, good and easy all count as correct (one box up)", style="dim italic")
        return row

    def _render_summary(self) -> None:
        """The sitting's summary: every card answered since the pane opened, over however many batches."""
        batches = self.sitting
        tally = self._tally(batches)
        graded = sum(tally[g] for g in ("again", "hard", "good", "easy"))
        correct = sum(tally[g] for g in ("hard", "good", "easy"))
        several = len(batches) > 1
        box = self.query_one("#quiz-summary")
        box.border_title = f"Session done · {len(batches)} batches since the quiz opened" if several else "Session done"
        head = Text()
        head.append(f"{sum(len(b.cards) for b in batches)} cards", style="bold")
        if several:
            head.append(f" in {len(batches)} batches", style="bold")
        if graded:
            head.append(f" · accuracy {round(100 * correct / graded)}% ({correct}/{graded} graded)", style="bold")
        else:
            head.append(" · nothing graded", style="dim")
        if tally["skip"]:
            head.append(f" · {tally['skip']} skipped", style="dim")
        if tally["bury"]:
            head.append(f" · {tally['bury']} buried until tomorrow", style="dim")
        counts = Table.grid(padding=(0, 2))
        for _ in GRADES:
            counts.add_column(justify="left")
        counts.add_row(*(Text(f"{GRADE_KEY[g]} {g}", style=GRADE_STYLE[g]) for g in GRADES))
        counts.add_row(*(Text(str(tally[g]), style="bold") for g in GRADES))
        rows = Table(box=None, padding=(0, 1), show_header=True, header_style="dim", expand=False)
        rows.add_column("")
        rows.add_column("grade")
        rows.add_column("card", overflow="ellipsis", no_wrap=True, max_width=48)
        rows.add_column("next", style="dim")
        for number, batch in enumerate(batches, 1):
            if several:
                rows.add_row("", Text(f"batch {number}", style="dim italic"), "", "")
            for card in batch.cards:
                g = batch.grades.get(card.memory_id, "")
                r = batch.receipts.get(card.memory_id)
                if r is None:
                    nxt = ""
                elif r.action == "quiz_bury":
                    nxt = f"buried · back {r.details.get('until')}"
                else:
                    nxt = f"box {r.details.get('box')} · due {r.details.get('due')}"
                mark = (
                    Text("✓", style="green")
                    if g in ("hard", "good", "easy")
                    else (Text("✗", style="red") if g == "again" else Text("·", style="dim"))
                )
                label = "buried" if g == "bury" else g
                rows.add_row(mark, Text(label, style=GRADE_STYLE.get(g, "")), inert_text(card.title), nxt)
        aside = self._aside_now()
        weak = aside.weak if aside is not None else []
        self.remaining = aside.remaining if aside is not None else 0
        more = self.mk.key_for("quiz.more")
        if aside is None:
            next_batch = Text("Counting what else is due today…", style="dim italic")
        elif self.remaining:
            next_batch = Text.assemble(
                (f" {more} ", "bold reverse"),
                ("  study more", "bold"),
                (f" — {self.remaining} more due today; the next batch loads here", "dim"),
            )
        else:
            next_batch = Text("All done for today: nothing else is due.", style="bold green")
        parts: list = [head, Text(""), next_batch, Text(""), counts, Text(""), rows, Text("")]
        if aside is None:
            pass  # the weak spots come with the count
        elif weak:
            parts.append(Text("Weak spots (asked ≥ 3, under 50% correct)", style="bold yellow"))
            for it in weak[:8]:
                parts.append(
                    Text.assemble(
                        ("  ⚠ ", "yellow"),
                        (inert_text(it.page), ""),
                        (f"  {it.correct}/{it.asked} ({round(100 * it.correct / it.asked)}%)", "dim"),
                    )
                )
        else:
            parts.append(Text("No weak spots: nothing asked 3+ times is under 50% correct.", style="dim"))
        self.query_one("#quiz-summary-text", Static).update(Group(*parts))

    def _render_empty(self) -> None:
        aside = self._aside_now()
        if aside is None:
            later = Text("Reading your ledger…", style="dim italic")
        else:
            later = Text(
                f"{aside.pages} pages in your ledger · next due {aside.next_due.isoformat()}"
                if aside.next_due is not None
                else "Your ledger is empty: new pages join as agents write them.",
                style="dim",
            )
        self.query_one("#quiz-empty", Static).update(Text.assemble(("Nothing due today\n\n", "bold"), later))

    def _aside_key(self) -> tuple[object, ...]:
        """What the summary's and the empty state's reads depend on: the day, and every answer of the sitting."""
        return (
            self.today(self.now()),
            tuple(sorted(r.receipt_sha256 or "" for b in self.sitting for r in b.receipts.values())),
        )

    def _aside_now(self) -> Aside | None:
        """The weak spots, what else is due and the ledger's size for the summary and the empty state, as last
        read; a read is started (in a worker: a 5,000-row ledger took 80-90 ms a paint on the UI thread) when they
        are not of the sitting as it is now. None until the first read is in."""
        key = self._aside_key()
        if self._aside is None or self._aside[0] != key:
            if self._aside_wanted != key:
                self._aside_wanted = key
                self._aside_worker(self.mk.person, self.now(), key)
        return self._aside[1] if self._aside is not None else None

    @work(thread=True, exclusive=True, group="quiz-aside", exit_on_error=False)
    def _aside_worker(self, person: str, now: datetime, key: tuple[object, ...]) -> None:
        from memkeeper.core.quiz import person_id

        ledger = self.engine.read_ledger(person_id(person), strict=False)  # shown, not written
        aside = Aside(
            weak=self.engine.weak_spots(person),
            remaining=self.engine.quiz_due_count(person, now=now),
            pages=len(ledger.items),
            next_due=min((it.due for it in ledger.items), default=None),
        )
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._aside_taken, key, aside)

    def _aside_taken(self, key: tuple[object, ...], aside: Aside) -> None:
        self._aside = (key, aside)
        if key == self._aside_key():
            self._paint()

    def _render_setup(self) -> None:
        from memkeeper.core.quiz import INTERVALS, person_id

        box = self.query_one("#quiz-setup", Static)
        box.border_title = f"A quiz ledger for {person_id(self.mk.person)}"
        fsrs, leitner = self.mk.key_for("quiz.fsrs"), self.mk.key_for("quiz.leitner")
        days = "·".join(str(d) for d in INTERVALS)
        n = len(self.cards)
        waiting = (f"{n} cards are waiting." if n > 1 else "1 card is waiting.") if n else "Nothing is due yet."
        switch = self.mk.key_for("quiz.switch_scheduler")
        box.update(
            Text.assemble(
                ("How should your reviews be scheduled?", "bold"),
                (f" ({switch} switches it later; every card keeps its box and due date.)\n\n", "dim"),
                (f" {fsrs} ", "bold reverse"),
                ("  FSRS", "bold green"),
                (
                    " (recommended) — each page's own memory model; again, hard, good and easy give different "
                    "intervals.\n\n",
                    "",
                ),
                (f" {leitner} ", "bold reverse"),
                ("  Leitner", "bold"),
                (f" — six boxes ({days} days); hard, good and easy all move a page one box up.\n\n", ""),
                (waiting, "dim"),
            )
        )

    # ------------------------------------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The ledger choice and "study more" belong to one moment each: hidden from the footer the rest of the time;
        # while the ledger is being chosen, the card keys are hidden too.
        if action == "scheduler":
            return True if self.choosing else False
        if action == "more":
            return True if self.finished and not self.choosing and self.remaining else False
        if self.choosing and action in ("bury", "reveal", "answer", "grade"):
            return False
        # The card keys answer even when they do not apply (`ANSWERING`): dimmed by `applies`, pressed they say why.
        return True

    def applies(self, action: str) -> bool:
        if action not in self.ANSWERING:
            return True
        name, _, rest = action.partition("(")
        return self._why_not(name, "skip" in rest) is None

    def _key(self, binding_id: str) -> str:
        """The first key bound to `binding_id` now (a keymap may move it), as the footer shows it."""
        return (self.mk.key_for(binding_id) or binding_id).split("/")[0]

    def _why_not(self, action: str, skip: bool = False) -> Wording | None:
        """Why a card key (`reveal`, `answer`, `grade`, `bury`; `skip`: the skip grade) does nothing now, as the status
        line says it; None when it acts. Like Anki, a grade needs the answer shown first; skip and bury do not."""
        if self.choosing:
            keys = f"{self._key('quiz.fsrs')} FSRS or {self._key('quiz.leitner')} Leitner"
            return f"No quiz ledger yet: {keys} starts one."
        if self.loading:
            return "Taking today's session…"
        card = self.current
        if card is None:
            if not self.finished:
                return "Nothing due today: no card to answer."
            more = self._key("quiz.more")
            if self.remaining:
                return (
                    f"Session done: {more} studies more ({self.remaining} more due today).",
                    f"Session done: {more} studies more.",
                )
            if self._aside is not None and self._aside[0] == self._aside_key():
                return "Session done: nothing else is due today."
            return "Session done."
        if action == "answer" and self.revealed and card.memory_id in self.secret_typed:
            return None  # the typed answer was refused as a secret: typed again
        if action in ("reveal", "answer") and self.revealed:
            grades = f"{self._key('quiz.again')}-{self._key('quiz.easy')}"
            s, b = self._key("quiz.skip"), self._key("quiz.bury")
            return (f"The answer is shown: grade it ({grades}), {s} skips, {b} buries.", f"Grade it ({grades}).")
        if action == "grade" and not skip and not self.revealed:
            reveal, s, b = self._key("quiz.reveal"), self._key("quiz.skip"), self._key("quiz.bury")
            return (f"Reveal first ({reveal}); {s} skips, {b} buries.", f"Reveal first ({reveal}).")
        return None

    def _refused(self, action: str, skip: bool = False) -> bool:
        """The key does nothing now: the status line says why (a key that does nothing silently reads as broken)."""
        why = self._why_not(action, skip)
        if why is None:
            return False
        self.say(why, "yellow")
        return True

    def action_reveal(self) -> None:
        if self._refused("reveal"):
            return
        assert self.current is not None
        box = self.query_one("#quiz-answer-input", AnswerInput)
        if box.display:
            self.secret_typed.discard(self.current.memory_id)  # typed again
            if box.value.strip():
                self.typed[self.current.memory_id] = " ".join(box.value.split())
        box.display = False
        self.set_focus(None)
        self.revealed = True
        self._paint()
        self._reread(only=self.current)  # the page is the answer key: the answer shown is the page as it is now

    def action_answer(self) -> None:
        card = self.current
        if self._refused("answer") or card is None:
            return
        box = self.query_one("#quiz-answer-input", AnswerInput)
        if card.memory_id in self.secret_typed:  # refused as a secret: typed again, the box starts empty
            self.typed.pop(card.memory_id, None)
            self._paint()
        box.value = self.typed.get(card.memory_id, "")
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.revealed and self.current is not None:
            self._retyped(self.current)
        else:
            self.action_reveal()

    def _retyped(self, card: QuizCard) -> None:
        """The answer typed again on a revealed card (its first was refused as a secret): kept for the grade, or none
        when the box is left empty."""
        box = self.query_one("#quiz-answer-input", AnswerInput)
        text = " ".join(box.value.split())
        if text:
            self.typed[card.memory_id] = text
        else:
            self.typed.pop(card.memory_id, None)
        self.secret_typed.discard(card.memory_id)
        box.display = False
        self.set_focus(None)
        self._paint()
        grades = f"{self._key('quiz.again')}-{self._key('quiz.easy')}"
        self.say(
            f"Answer typed again: grade it ({grades})." if text else f"No typed answer: grade it ({grades}).", "dim"
        )

    def action_grade(self, grade: str) -> None:
        card = self.current
        if self._refused("grade", grade == "skip") or card is None:
            return
        box = self.query_one("#quiz-answer-input", AnswerInput)
        if box.display and box.value.strip():
            self.typed[card.memory_id] = " ".join(box.value.split())

        def summary(receipt: Receipt) -> str:
            text = f"{card.title}: {grade}"
            if receipt.ok:
                text += f" → box {receipt.details.get('box')}, due {receipt.details.get('due')}"
            return text

        self.sent[card.memory_id] = grade
        if self.revealed:
            self.sent_revealed.add(card.memory_id)
        self.decide(
            partial(
                self.engine.quiz_record,
                card.memory_id,
                grade,
                now=self.now(),
                actor=self.actor,
                person=self.mk.person,
                answer=self.typed.get(card.memory_id),
                question=card.question,
            ),
            summary,
            rows=(card.memory_id,),
        )

    def action_bury(self) -> None:
        card = self.current
        if self._refused("bury") or card is None:
            return
        self.sent[card.memory_id] = "bury"
        if self.revealed:
            self.sent_revealed.add(card.memory_id)
        self.decide(
            partial(self.engine.quiz_bury, card.memory_id, now=self.now(), actor=self.actor, person=self.mk.person),
            f"{card.title}: buried until tomorrow",
            rows=(card.memory_id,),
        )

    def withhold_rows(self, rows: Sequence[str]) -> None:
        """Graded (or buried): the next card comes up at once, its answer hidden, while the engine writes."""
        for mid in rows:
            self.grades[mid] = self.sent[mid]
            self.changed.discard(mid)
        self._advance_past(rows[-1])
        self._paint()

    def release_rows(self, rows: Sequence[str], failed: bool) -> None:
        """The receipt is in. A grade the engine did not record is taken back: that card comes up again."""
        for mid in rows:
            grade = self.sent.pop(mid, "")
            shown = mid in self.sent_revealed
            self.sent_revealed.discard(mid)
            batch = self._earlier(mid) or self.on_screen
            if mid in batch.receipts:
                continue
            batch.grades.pop(mid, None)
            at = self._bring_back(mid)
            if at is not None:
                self.index = at
                # it was seen when it was graded (a skip or a bury may come before the reveal)
                self.revealed = grade not in ("bury", "skip") or shown
                self._reread()  # its page may have changed while it was away
            self._paint()

    def _title_of(self, memory_id: str) -> str:
        """The title of a card of the sitting (its memory id when no batch holds it)."""
        for batch in self.sitting:
            for card in batch.cards:
                if card.memory_id == memory_id:
                    return card.title
        return memory_id

    def _advance_past(self, memory_id: str) -> None:
        self.query_one("#quiz-answer-input", AnswerInput).display = False
        self.revealed = False
        ids = [c.memory_id for c in self.cards]
        at = ids.index(memory_id) if memory_id in ids else self.index
        self.index = self._next_ungraded(at + 1)

    def action_more(self) -> None:
        """The next batch of today's cards, in place (the summary offers it when more is due)."""
        if not self.finished or self.choosing:
            return
        if self._new_day():
            # A new day since this sitting began (a desk left open overnight): a new sitting. Yesterday's cards
            # are due again today, and as cards of an earlier batch they were left out of every next batch.
            self.batches = []
        else:
            self.batches.append(self.on_screen)  # done: the summary at the end of the next batch counts it too
        self._load_session(announce=True)

    def action_scheduler(self, scheduler: str) -> None:
        if not self.choosing:
            return
        self.decide(
            partial(self.engine.create_ledger, self.mk.person, scheduler, now=self.now(), actor=self.actor),
            f"quiz ledger: {scheduler}",
        )

    def action_switch_scheduler(self) -> None:
        """Change the scheduler of the person's ledger (Leitner ↔ FSRS), after a dialog that says what it keeps.
        Undoable (`u`). The cards left in the batch on screen get the new scheduler's intervals."""
        if self.loading:
            self.app.bell()
            return
        if self.choosing or self.scheduler is None:
            keys = f"{self.mk.key_for('quiz.fsrs')} FSRS or {self.mk.key_for('quiz.leitner')} Leitner"
            self.say(f"No quiz ledger yet: {keys} starts one.", "yellow")
            return
        other = "leitner" if self.scheduler == "fsrs" else "fsrs"
        person, now, actor = self.mk.person, self.now(), self.actor

        def answered(yes: bool | None) -> None:
            if yes:
                self.decide(
                    partial(self.engine.set_scheduler, person, other, now=now, actor=actor),
                    f"quiz scheduler: {SCHEDULER_NAMES[other]}",
                )

        self.app.push_screen(
            ConfirmModal(
                f"Switch {person}'s quiz ledger to {SCHEDULER_NAMES[other]}?",
                f"Now {SCHEDULER_NAMES[self.scheduler]}. Every card keeps its box, its due date and its counts, so "
                "nothing comes due at once; "
                + (
                    "a card last answered right goes on from the interval Leitner gave it, one last missed starts "
                    "a fresh FSRS card."
                    if other == "fsrs"
                    else "under Leitner hard, good and easy all count as correct (one box up)."
                )
                + f" {self.mk.key_for('quiz.undo')} switches back.",
                confirm_label="Switch",
            ),
            answered,
        )

    def _scheduler_changed(self, scheduler: str | None) -> None:
        """The ledger's scheduler changed (switched, or the switch undone): the cards not yet answered in the batch on
        screen are taken again for their intervals under it."""
        self.scheduler = scheduler
        if any(c.memory_id not in self.grades for c in self.cards):
            self._intervals_worker(self.mk.person, self.now())
        else:
            self._paint()

    @work(thread=True, exclusive=True, group="quiz-intervals", exit_on_error=False)
    def _intervals_worker(self, person: str, now: datetime) -> None:
        fresh = {c.memory_id: c for c in self.engine.quiz_session(person, now=now)}
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._intervals_taken, fresh)

    def _intervals_taken(self, fresh: dict[str, QuizCard]) -> None:
        self.cards = [
            replace(c, intervals=fresh[c.memory_id].intervals, scheduler=fresh[c.memory_id].scheduler)
            if c.memory_id in fresh and c.memory_id not in self.grades
            else c
            for c in self.cards
        ]
        self._paint()

    def after_decision(self, receipt: Receipt) -> None:
        d = receipt.details
        if receipt.action == "quiz_scheduler":
            if receipt.ok:
                self._scheduler_changed(d.get("scheduler"))
            return
        if receipt.action == "undo" and d.get("action") == "quiz_scheduler":
            if receipt.ok:
                # Two schedulers: the undone switch put back the other one.
                self._scheduler_changed("leitner" if self.scheduler == "fsrs" else "fsrs")
            return
        if receipt.action == "quiz_ledger":
            if receipt.ok:
                self.choosing = False  # the ledger is there: the keys that chose it go now, not with the session
            self._load_session()  # created (or already there): the session starts
            return
        if receipt.action == "quiz_record" and d.get("reason") == "secret_detected":
            self._secret_refused(str(d.get("memory_id") or ""), d)
            return
        if receipt.action in ("quiz_record", "quiz_bury") and d.get("reason") in (
            "record_not_active",
            "record_not_in_rotation",
        ):
            # denied, superseded or archived, or gone cold, draft or past its expiry, since the session was taken:
            # it left the rotation, and every key on it would be refused the same way
            mid = d["memory_id"]
            self._drop_card(mid, _left_line(self._title_of(mid), str(d.get("status") or d.get("why") or "")))
            return
        if receipt.action in ("quiz_record", "quiz_bury") and receipt.ok:
            # Graded: the next ungraded card came up when the key was pressed (`withhold_rows`); one graded some
            # other way moves on now.
            mid = d["memory_id"]
            grade = d["grade"] if receipt.action == "quiz_record" else "bury"
            earlier = self._earlier(mid)
            if earlier is not None:  # graded before "study more" took the next batch; its receipt came after
                earlier.grades[mid] = grade
                earlier.receipts[mid] = receipt
            else:
                self.grades[mid] = grade
                self.receipts[mid] = receipt
                if mid not in self.sent:
                    self._advance_past(mid)
        elif receipt.action == "undo" and receipt.ok and d.get("page"):
            self._answer_undone(lambda card: card.page == d["page"])
        self._paint()

    def _secret_refused(self, memory_id: str, details: dict) -> None:
        """A grade refused because what it would write looks like a secret (nothing recorded; the card comes back
        revealed, `release_rows`). The typed answer: `a` types it again (or leaves it empty). The question, read from
        the card's page: no retyping helps; `b` buries the card and the page wants mending."""
        classes = ", ".join(str(c).replace("_", " ") for c in details.get("secret_classes") or []) or "a secret"
        if "answer" in (details.get("secret_fields") or []):
            self.secret_typed.add(memory_id)
            a = self._key("quiz.answer")
            self.say(
                (
                    f"✗ Your typed answer looks like a secret ({classes}): nothing recorded; {a} types it again, "
                    "then grade.",
                    f"✗ Your typed answer looks like a secret: {a} types it again, then grade.",
                    f"✗ Typed answer looks like a secret: {a} retypes.",
                ),
                "red",
            )
        else:
            b = self._key("quiz.bury")
            self.say(
                (
                    f"✗ This card's question, from its page, looks like a secret ({classes}): nothing recorded. "
                    f"{b} buries the card; the page wants mending.",
                    f"✗ The card's page looks like it holds a secret: {b} buries it.",
                ),
                "red",
            )

    def refusal_text(self, receipt: Receipt) -> str:
        d = receipt.details
        if receipt.action == "quiz_record" and d.get("reason") == "secret_detected":
            classes = ", ".join(str(c).replace("_", " ") for c in d.get("secret_classes") or [])
            if "answer" in (d.get("secret_fields") or []):
                return (
                    f"Your typed answer looks like a secret{f' ({classes})' if classes else ''}: nothing recorded.\n"
                    f"{self._key('quiz.answer')} types it again (or leave it empty), then grade."
                )
            return (
                f"The card's question, from its page, looks like a secret{f' ({classes})' if classes else ''}: "
                f"nothing recorded.\n{self._key('quiz.bury')} buries the card."
            )
        return super().refusal_text(receipt)

    def _answer_undone(self, undone_card: Callable[[QuizCard], bool]) -> None:
        """Back to the card whose grade was undone, revealed: it was seen already, so grade it again. Its answer
        leaves the sitting's totals; a card of an earlier batch joins the batch on screen."""
        undone = next(
            (
                (batch, card)
                for batch in reversed(self.sitting)
                for card in batch.cards
                if undone_card(card) and card.memory_id in batch.grades
            ),
            None,
        )
        if undone is None:
            return
        batch, card = undone
        grade = batch.grades.pop(card.memory_id)
        batch.receipts.pop(card.memory_id, None)
        at = self._bring_back(card.memory_id)
        if at is not None:
            self.index = at
            # a buried or skipped card may not have been seen (neither needs a reveal): its answer stays hidden
            self.revealed = grade not in ("bury", "skip")
            self._reread()  # its page may have changed while it was answered

    def _check_undone(self) -> None:
        """Answers of the sitting undone elsewhere (the Receipts pane, another desk) leave its totals and come back
        to be answered again, as an undo with `u` does; read in a worker, from where the last reading stopped (the
        whole trail was read at each return to the pane: seconds of a thread's work at a large wiki, which holds the
        interpreter's lock against the UI thread)."""
        answered = {r.receipt_sha256: mid for b in self.sitting for mid, r in b.receipts.items() if r.receipt_sha256}
        if answered:
            self._undone_worker(answered, self._undo_cursor)

    @work(thread=True, exclusive=True, group="quiz-undone", exit_on_error=False)
    def _undone_worker(self, answered: dict[str, str], cursor: ReceiptCursor | None) -> None:
        found, cursor = self.engine.undos_since(cursor)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._undone_taken, answered, found, cursor)

    def _undone_taken(self, answered: dict[str, str], found: dict[str, str], cursor: ReceiptCursor) -> None:
        for sha, undo in found.items():
            self._undos.setdefault(sha, undo)
        self._undo_cursor = cursor
        undone = {answered[sha] for sha in answered if sha in self._undos}
        if not undone:
            return
        for mid in undone:
            self._answer_undone(partial(_is_card, mid))
        self._paint()

    def undo_summary(self, receipt: Receipt) -> str:
        if receipt.details.get("action") == "quiz_scheduler":
            return "undo quiz scheduler switch"
        what = "bury" if receipt.details.get("action") == "quiz_bury" else "grade"
        return f"undo quiz {what} · {receipt.details.get('page') or ''}".rstrip(" ·")

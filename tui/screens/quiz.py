"""Quiz pane (SPEC §5.3, §6): today's spaced-repetition session — question, reveal, grade with one key, next.

Decisions (documented in the help and here):
- The session is taken once, when the pane mounts, and kept: re-querying between cards would reshuffle it (an
  answered item leaves "due"). A refresh only re-reads when the session was empty (an agent may have written since).
- Like Anki, a card is graded only after its answer is revealed (1–4 are disabled until then); skip (`s`) works at any
  time, because "not now" needs no answer key.
- `a` opens an answer box: type, enter reveals; the typed text goes to the dated quiz notebook with the verdict.
- Accuracy in the summary = correct / graded, where again is wrong, hard/good/easy are correct and skips are left out.
- Undo (`u`) reverses the last grade in the ledger and returns to that card, revealed, to grade it again.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, ProgressBar, Static

from memkeeper.core import Receipt
from memkeeper.core.quiz_queue import QuizCard

from .base import PaneScreen

GRADES = ("again", "hard", "good", "easy", "skip")
GRADE_STYLE = {"again": "bold red", "hard": "bold yellow", "good": "bold green", "easy": "bold cyan", "skip": "dim"}
GRADE_KEY = {"again": "1", "hard": "2", "good": "3", "easy": "4", "skip": "s"}
REASON_LABEL = {"due-wrong": "due · missed last time", "due": "due", "new": "new"}


class AnswerInput(Input):
    """The typed-answer box: enter reveals (handled by the pane), escape leaves the box without revealing."""

    BINDINGS = [Binding("escape", "leave", "Leave answer box", show=False)]

    def action_leave(self) -> None:
        self.screen.set_focus(None)


class QuizScreen(PaneScreen):
    PANE_ID = "quiz"
    PANE_TITLE = "Quiz"
    AUTO_FOCUS = ""  # keys go to the pane; the answer box takes focus only when asked for (a)

    BINDINGS = [
        Binding("space,enter", "reveal", "Reveal", id="quiz.reveal"),
        Binding("1", "grade('again')", "Again", id="quiz.again"),
        Binding("2", "grade('hard')", "Hard", id="quiz.hard"),
        Binding("3", "grade('good')", "Good", id="quiz.good"),
        Binding("4", "grade('easy')", "Easy", id="quiz.easy"),
        Binding("s", "grade('skip')", "Skip", id="quiz.skip"),
        Binding("a", "answer", "Type answer", id="quiz.answer"),
        Binding("u", "undo", "Undo", id="quiz.undo"),
    ]

    DEFAULT_CSS = """
    QuizScreen #quiz-body { height: 1fr; padding: 0 1; }
    QuizScreen #quiz-progress-row { height: 1; margin: 1 0 0 0; }
    QuizScreen #quiz-progress-row ProgressBar { width: 1fr; max-width: 60; }
    QuizScreen #quiz-progress-row Bar { width: 1fr; }
    QuizScreen #quiz-position { width: auto; padding: 0 2; text-style: bold; }
    QuizScreen #quiz-tally { width: auto; color: $text-muted; }
    QuizScreen #quiz-card {
        height: auto;
        border: round $accent;
        border-title-color: $accent;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
        padding: 1 2;
        margin-top: 1;
    }
    QuizScreen #quiz-answer-input { margin-top: 1; display: none; }
    QuizScreen #quiz-answer {
        height: 1fr;
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
    """

    def __init__(self) -> None:
        super().__init__()
        self.cards: list[QuizCard] = []
        self.index = 0
        self.revealed = False
        self.grades: dict[str, str] = {}  # memory_id -> grade
        self.receipts: dict[str, Receipt] = {}
        self.typed: dict[str, str] = {}
        self._loaded = False

    # ------------------------------------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        with Vertical(id="quiz-body"):
            with Horizontal(id="quiz-progress-row"):
                yield ProgressBar(total=1, show_eta=False, show_percentage=False, id="quiz-progress")
                yield Static(id="quiz-position")
                yield Static(id="quiz-tally")
            yield Static(id="quiz-card")
            yield AnswerInput(
                placeholder="Type your answer, enter to reveal (esc leaves the box)", id="quiz-answer-input"
            )
            with VerticalScroll(id="quiz-answer"):
                yield Static(id="quiz-answer-text")
            with VerticalScroll(id="quiz-summary"):
                yield Static(id="quiz-summary-text")
            yield Static(id="quiz-empty", classes="empty-state")

    def on_mount(self) -> None:
        self._load_session()

    def _load_session(self) -> None:
        self.cards = list(self.engine.quiz_session(self.mk.person, now=self.now()))
        self.index = 0
        self.revealed = False
        self.grades.clear()
        self.receipts.clear()
        self.typed.clear()
        self._loaded = True
        self._paint()

    def refresh_data(self) -> None:
        # The session is fixed once taken; only an empty one is worth asking for again.
        if not self.cards:
            self._load_session()
        else:
            self._paint()

    # ------------------------------------------------------------------------------------------------ state

    @property
    def current(self) -> QuizCard | None:
        if 0 <= self.index < len(self.cards) and not self.finished:
            return self.cards[self.index]
        return None

    @property
    def finished(self) -> bool:
        return bool(self.cards) and len(self.grades) >= len(self.cards)

    def _next_ungraded(self, start: int) -> int:
        n = len(self.cards)
        for step in range(n):
            i = (start + step) % n
            if self.cards[i].memory_id not in self.grades:
                return i
        return n

    def _tally(self) -> dict[str, int]:
        counts = dict.fromkeys(GRADES, 0)
        for g in self.grades.values():
            counts[g] += 1
        return counts

    # ------------------------------------------------------------------------------------------------ rendering

    def _paint(self) -> None:
        empty = not self.cards
        card = self.current
        show = {
            "#quiz-progress-row": not empty,
            "#quiz-card": card is not None,
            "#quiz-answer": card is not None,
            "#quiz-summary": self.finished,
            "#quiz-empty": empty,
        }
        for sel, visible in show.items():
            self.query_one(sel).display = visible
        if card is None:
            self.query_one("#quiz-answer-input").display = False
        if empty:
            self._render_empty()
        else:
            self._render_progress()
            if card is not None:
                self._render_card(card)
            else:
                self._render_summary()
        self.refresh_bindings()

    def _render_progress(self) -> None:
        total = len(self.cards)
        done = len(self.grades)
        bar = self.query_one("#quiz-progress", ProgressBar)
        bar.update(total=total, progress=done)
        position = total if self.finished else min(self.index + 1, total)
        self.query_one("#quiz-position", Static).update(f"{position}/{total}")
        tally = self._tally()
        line = Text()
        for i, g in enumerate(GRADES):
            line.append(("  " if i else "") + f"{g} ", style="dim")
            line.append(f"{tally[g]}", style=GRADE_STYLE[g] if tally[g] else "dim")
        self.query_one("#quiz-tally", Static).update(line)

    def _render_card(self, card: QuizCard) -> None:
        box = self.query_one("#quiz-card", Static)
        box.border_title = f"Question {self.index + 1} of {len(self.cards)}"
        history = f"{card.correct}/{card.asked} correct" if card.asked else "never asked"
        box.border_subtitle = (
            f"{REASON_LABEL.get(card.reason, card.reason)} · "
            + (f"box {card.box} · " if card.box is not None else "")
            + history
        )
        box.update(Text(card.question, style="bold"))
        answer_box = self.query_one("#quiz-answer")
        answer_text = self.query_one("#quiz-answer-text", Static)
        typed = self.typed.get(card.memory_id, "")
        if self.revealed:
            answer_box.add_class("-revealed")
            answer_box.border_title = "Answer — the page is the answer key"
            answer_box.border_subtitle = "1 again · 2 hard · 3 good · 4 easy · s skip"
            grid = Table.grid(padding=(0, 1))
            grid.add_column(style="dim", no_wrap=True, min_width=8)
            grid.add_column(overflow="fold")
            grid.add_row("source", Text(card.source, style="underline"))
            grid.add_row("page", card.page)
            parts: list = [Text(card.answer), Text(""), grid]
            if typed:
                parts += [Text(""), Text.assemble(("you said  ", "dim"), (typed, "italic"))]
            answer_text.update(Group(*parts))
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
                    (" skip", "dim"),
                    *((("\n\nyou typed  ", "dim"), (typed, "italic")) if typed else ()),
                )
            )

    def _render_summary(self) -> None:
        tally = self._tally()
        graded = sum(tally[g] for g in ("again", "hard", "good", "easy"))
        correct = sum(tally[g] for g in ("hard", "good", "easy"))
        box = self.query_one("#quiz-summary")
        box.border_title = "Session done"
        head = Text()
        head.append(f"{len(self.cards)} cards", style="bold")
        if graded:
            head.append(f" · accuracy {round(100 * correct / graded)}% ({correct}/{graded} graded)", style="bold")
        else:
            head.append(" · nothing graded", style="dim")
        if tally["skip"]:
            head.append(f" · {tally['skip']} skipped", style="dim")
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
        for card in self.cards:
            g = self.grades.get(card.memory_id, "")
            r = self.receipts.get(card.memory_id)
            nxt = f"box {r.details.get('box')} · due {r.details.get('due')}" if r is not None else ""
            mark = (
                Text("✓", style="green")
                if g in ("hard", "good", "easy")
                else (Text("✗", style="red") if g == "again" else Text("·", style="dim"))
            )
            rows.add_row(mark, Text(g, style=GRADE_STYLE.get(g, "")), card.title, nxt)
        weak = self.engine.weak_spots(self.mk.person)
        parts: list = [head, Text(""), counts, Text(""), rows, Text("")]
        if weak:
            parts.append(Text("Weak spots (asked ≥ 3, under 50% correct)", style="bold yellow"))
            for it in weak[:8]:
                parts.append(
                    Text.assemble(
                        ("  ⚠ ", "yellow"),
                        (it.page, ""),
                        (f"  {it.correct}/{it.asked} ({round(100 * it.correct / it.asked)}%)", "dim"),
                    )
                )
        else:
            parts.append(Text("No weak spots: nothing asked 3+ times is under 50% correct.", style="dim"))
        self.query_one("#quiz-summary-text", Static).update(Group(*parts))

    def _render_empty(self) -> None:
        from memkeeper.core.quiz import person_id

        ledger = self.engine.read_ledger(person_id(self.mk.person))
        upcoming = sorted(it.due for it in ledger.items)
        later = Text(
            f"{len(ledger.items)} pages in your ledger · next due {upcoming[0].isoformat()}"
            if upcoming
            else "Your ledger is empty: new pages join as agents write them.",
            style="dim",
        )
        self.query_one("#quiz-empty", Static).update(Text.assemble(("Nothing due today\n\n", "bold"), later))

    # ------------------------------------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        card = self.current
        if action in ("reveal", "answer"):
            return True if card is not None and not self.revealed else None
        if action == "grade":
            if card is None:
                return None
            if parameters and parameters[0] == "skip":
                return True
            return True if self.revealed else None  # Anki: reveal before grading
        return True

    def action_reveal(self) -> None:
        if self.current is None or self.revealed:
            return
        box = self.query_one("#quiz-answer-input", AnswerInput)
        if box.display and box.value.strip():
            self.typed[self.current.memory_id] = " ".join(box.value.split())
        box.display = False
        self.set_focus(None)
        self.revealed = True
        self._paint()

    def action_answer(self) -> None:
        card = self.current
        if card is None or self.revealed:
            return
        box = self.query_one("#quiz-answer-input", AnswerInput)
        box.value = self.typed.get(card.memory_id, "")
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_reveal()

    def action_grade(self, grade: str) -> None:
        card = self.current
        if card is None or (grade != "skip" and not self.revealed):
            return
        box = self.query_one("#quiz-answer-input", AnswerInput)
        if box.display and box.value.strip():
            self.typed[card.memory_id] = " ".join(box.value.split())

        def summary(receipt: Receipt) -> str:
            text = f"{card.title}: {grade}"
            if receipt.ok:
                text += f" → box {receipt.details.get('box')}, due {receipt.details.get('due')}"
            return text

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
        )

    def after_decision(self, receipt: Receipt) -> None:
        d = receipt.details
        if receipt.action == "quiz_record" and receipt.ok:
            # Graded: the next ungraded card comes up, its answer hidden.
            self.grades[d["memory_id"]] = d["grade"]
            self.receipts[d["memory_id"]] = receipt
            self.query_one("#quiz-answer-input", AnswerInput).display = False
            self.revealed = False
            ids = [c.memory_id for c in self.cards]
            at = ids.index(d["memory_id"]) if d["memory_id"] in ids else self.index
            self.index = self._next_ungraded(at + 1)
        elif receipt.action == "undo" and receipt.ok and d.get("page"):
            # Back to the card whose grade was undone, revealed: it was seen already, so grade it again.
            for i, card in enumerate(self.cards):
                if card.page == d["page"] and card.memory_id in self.grades:
                    del self.grades[card.memory_id]
                    self.receipts.pop(card.memory_id, None)
                    self.index = i
                    self.revealed = True
                    break
        self._paint()

    def undo_summary(self, receipt: Receipt) -> str:
        return f"undo quiz grade · {receipt.details.get('page') or ''}".rstrip(" ·")

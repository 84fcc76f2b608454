"""Tiers pane (SPEC §5.4, §6): review the cold-tier plan — automatic / ambiguous / protected — and apply it.

One list with a header row per section (automatic, ambiguous, protected, and the records already cold), the selected
row's reasons on the right. The plan is O(wiki), so it runs in a thread worker (behind a loading indicator the first
time and after a decision here; otherwise the plan on screen stays, titled "re-planning…", until the next is read),
and what it keeps is an outline (`Engine.plan_outline`: each section's pages and candidate ids, counts, bytes); the
list is a `VirtualTable` that draws only the visible rows, asking the engine for a page of candidates
(`plan_candidates`) or of cold records (`cold_page`) as it scrolls.

Flow: `c` commits the plan (the automatic records go cold, the ambiguous ones are written to a review file);
`space` toggles acceptance of an ambiguous id (✓); `a` applies the pending review with the toggled ids behind a
confirmation showing the count and projected bytes. The engine hash-checks every accepted page first: if any changed
since the plan, nothing is written and the stale ids are named. `w` restores a cold record to warm. Toggles are kept
by candidate id across re-plans and dropped only when the candidate leaves the plan (e.g. an agent touched the page).
A key that does not apply right now (`a` with no review pending, `c` while one waits, `space` or `w` on a row of
another section) is dimmed in the footer and, pressed, says why in the status line (`ANSWERING`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState, get_current_worker

from memkeeper.core import Entry, Receipt
from memkeeper.core.models import inert_text
from memkeeper.core.tier_queue import TierOutline
from memkeeper.core.tiers import Candidate, Review

from ..widgets.queue_modals import ApplySummary, apply_summary_renderable, commit_summary_renderable, human_bytes
from ..widgets.status_line import Wording
from ..widgets.virtual_table import Cells, VirtualTable
from .base import PaneScreen, failure_text
from .modals import ConfirmModal

SECTIONS = ("automatic", "ambiguous", "protected", "cold")
SECTION_HELP = {
    "automatic": "Old superseded records and old milestone / insight / lesson records. They go cold when you commit "
    "the plan ({commit}); no person needed.",
    "ambiguous": "Every other record not accessed in over 180 days. Toggle with {toggle} (✓ = accept → cold), then "
    "apply the pending review with {apply}. Ids left unticked stay unchanged.",
    "protected": "Never proposed: category direction / decision / draft, an open conflict, linked from hot.md, "
    "missing or invalid dates, or tier: protected set by hand.",
    "cold": "Already cold: out of automatic recall, still searchable by metadata. {restore} restores one to warm.",
}
SECTION_LABEL = {
    "automatic": "AUTOMATIC → cold",
    "ambiguous": "AMBIGUOUS → needs you",
    "protected": "PROTECTED",
    "cold": "COLD",
}
SECTION_STYLE = {"automatic": "bold cyan", "ambiguous": "bold yellow", "protected": "bold green", "cold": "bold blue"}


@dataclass
class PlanView:
    """What one planning pass read from the engine."""

    plan: TierOutline
    review_path: str | None
    review: Review | None
    review_error: str | None
    cold: int  # how many records are cold (a count query; the rows are paged)


def _age(days: float | None) -> str:
    return "?" if days is None else f"{int(days)}d"


def _short_bytes(n: int) -> str:
    return human_bytes(n).replace(" ", "")


def _cell(text: str, style: str = "") -> Text:
    """A cell cut with an ellipsis at whatever width its column has (Title and Why share the table's width)."""
    return Text(inert_text(text), style=style, no_wrap=True, overflow="ellipsis")


class PlanSource:
    """The Tiers list as the `VirtualTable` reads it: a header row per non-empty section, then its rows, fetched a
    page at a time (candidates by page path from the outline, cold records by LIMIT/OFFSET)."""

    def __init__(self, pane: TiersScreen, view: PlanView) -> None:
        self.pane = pane
        self.view = view
        counts = {s: view.plan.count(s) for s in SECTIONS if s != "cold"}
        counts["cold"] = view.cold
        self.sections = [(s, counts[s]) for s in SECTIONS if counts[s]]
        self.starts: list[int] = []
        row = 0
        for _, n in self.sections:
            self.starts.append(row)
            row += n + 1
        self.total = row
        # Where each candidate id stands (for select_key): built on first use from the outline's ids.
        self._index: dict[str, int] | None = None

    def count(self) -> int:
        return self.total

    def _items(self, section: str, start: int, stop: int) -> list[tuple[str, Any]]:
        engine, view = self.pane.engine, self.view
        if section == "cold":
            return [(f"cold:{e.memory_id}", e) for e in engine.cold_page(offset=start, limit=stop - start)]
        paths = view.plan.paths[section][start:stop]
        return [(c.candidate_id, c) for c in engine.plan_candidates(paths, now=view.plan.now)]

    def rows(self, start: int, stop: int) -> list[tuple[str, Any]]:
        out: list[tuple[str, Any]] = []
        for (section, n), first in zip(self.sections, self.starts, strict=True):
            last = first + n  # the section's rows are first+1 .. last
            if stop <= first or start > last:
                continue
            if start <= first:
                out.append((f"§{section}", (section, n)))
            lo, hi = max(start, first + 1) - first - 1, min(stop, last + 1) - first - 1
            if hi > lo:
                out += [(k, (section, item)) for k, item in self._items(section, lo, hi)]
        return out

    def cells(self, key: str, item: Any) -> Cells:
        section, value = item
        if key.startswith("§"):
            return self.pane.section_cells(section, value)
        if section == "cold":
            return [Text("❄", style="blue"), _cell(value.title), "", "", Text(value.category.value, style="dim")]
        return self.pane.candidate_cells(section, value)

    def index_of(self, key: str) -> int | None:
        for (section, _), first in zip(self.sections, self.starts, strict=True):
            if key == f"§{section}":
                return first
        if key.startswith("cold:"):
            return None  # cold rows are found by scrolling (select_cold)
        if self._index is None:
            self._index = {}
            for (section, _), first in zip(self.sections, self.starts, strict=True):
                if section != "cold":
                    for i, cid in enumerate(self.view.plan.candidate_ids[section]):
                        self._index.setdefault(cid, first + 1 + i)
        return self._index.get(key)

    def section_start(self, section: str) -> int | None:
        for (s, _), first in zip(self.sections, self.starts, strict=True):
            if s == section:
                return first
        return None


class TiersScreen(PaneScreen):
    PANE_ID = "tiers"
    CURSOR_DECISIONS = frozenset({"toggle_accepted", "restore"})
    # Dimmed in the footer when they do not apply, yet pressed they say why (no review pending, a review waiting, a
    # row of the wrong section).
    ANSWERING = frozenset({"toggle_accepted", "restore", "apply", "commit"})
    PANE_TITLE = "Tiers"
    STATUS_HINT = (
        "Cold is an access tier, not a verdict: pages stay searchable by metadata, and {restore} restores them.",
        "Cold is an access tier, not a verdict: still searchable; {restore} restores it.",
    )

    BINDINGS = [
        Binding("space", "toggle_accepted", "Toggle ✓", id="tiers.toggle"),
        Binding("asterisk", "tick_all", "Tick all ambiguous", show=False, id="tiers.tick_all"),
        Binding("a", "apply", "Apply review…", id="tiers.apply"),
        Binding("c", "commit", "Commit plan", id="tiers.commit"),
        Binding("w", "restore", "Restore warm", id="tiers.restore"),
        Binding("p", "replan", "Re-plan", id="tiers.replan"),
        Binding("u", "undo", "Undo", id="tiers.undo"),
    ]

    DEFAULT_CSS = """
    TiersScreen #tier-summary { height: auto; padding: 0 1; background: $boost; }
    TiersScreen #tier-body { height: 1fr; }
    TiersScreen #tier-list { width: 1fr; height: 1fr; }
    TiersScreen #tier-detail {
        width: 42;
        height: 1fr;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    TiersScreen.-narrow #tier-body { layout: vertical; }
    TiersScreen.-narrow #tier-detail { width: 1fr; height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.view: PlanView | None = None
        self.accepted: set[str] = set()
        self._accepted_items: dict[str, Candidate] = {}  # what a ticked id was when ticked (title, bytes)
        self._first_load = True
        self._replanning = False  # a plan is being read while the last one stays on screen
        self._plan_running = False  # the plan worker is reading (one at a time)
        self._plan_wanted: tuple[str | None, bool] | None = None  # (prefer, blank) asked for meanwhile

    # ------------------------------------------------------------------------------------------------ layout

    def compose_body(self) -> Iterable[Widget]:
        yield Static(id="tier-summary")
        with Horizontal(id="tier-body"):
            yield VirtualTable(
                ("✓", 1),
                ("Title", 30),
                ("Age", 5),
                ("Bytes", 7),
                ("Why", 22),
                id="tier-list",
                flex={"title": (3, 16, 60), "why": (2, 12, 40)},
            )
            with VerticalScroll(id="tier-detail"):
                yield Static(id="tier-record")
        yield Static(
            Text.assemble(
                ("No tier candidates\n\n", "bold"),
                ("Nothing has gone unread for over 180 days, and nothing is cold. p re-plans.", "dim"),
            ),
            id="tier-empty",
            classes="empty-state",
        )

    def on_mount(self) -> None:
        self.query_one("#tier-empty").display = False
        self.table.border_title = "Tier plan"
        self.refresh_data()

    @property
    def table(self) -> VirtualTable:
        return self.query_one("#tier-list", VirtualTable)

    # ------------------------------------------------------------------------------------------------ planning

    def refresh_data(self, prefer: str | None = None, *, blank: bool = False) -> None:
        """Plan again in the worker. The plan on screen stays while the next one is read (3-4 s at 100k records),
        its title saying so: what changed it happened elsewhere (another pane's decision, an agent), and every key
        acts through the engine, which checks what it writes. Only before the first plan, and after a decision of
        this pane (`blank`: the list is known to be wrong, and `c` or `a` on it would mislead), it is hidden behind
        the loading indicator."""
        self._replanning = True
        if self.view is None or blank:
            self.table.loading = True
            self.query_one("#tier-summary", Static).update(Text("planning…", style="dim italic"))
        else:
            self._show_title()
        if self._plan_running:
            # One plan at a time: a thread cannot be stopped, and plans side by side (each decision that lands while
            # the pane is on screen asks for one) took 16 s at 100k records. Read once more when this one is done.
            earlier = self._plan_wanted
            self._plan_wanted = (
                prefer if prefer is not None else (earlier[0] if earlier else None),
                blank or bool(earlier and earlier[1]),
            )
            return
        self._plan_running = True
        self._plan(prefer)

    def _plan_read(self, view: PlanView, prefer: str | None) -> None:
        """A plan is read. If another was asked for meanwhile, it is read next; this one is shown first unless the
        list is to stay hidden (a decision here came after it began)."""
        self._plan_running = False
        wanted, self._plan_wanted = self._plan_wanted, None
        if wanted is None:
            self._show_plan(view, prefer)
            return
        next_prefer, blank = wanted
        if not blank:
            self._show_plan(view, prefer)
        self.refresh_data(next_prefer if next_prefer is not None else prefer, blank=blank)

    @work(thread=True, group="tiers-plan", exit_on_error=False)
    def _plan(self, prefer: str | None) -> None:
        now = self.now()
        plan = self.engine.plan_outline(now=now)
        reviews = self.engine.pending_reviews()
        review_path = reviews[-1] if reviews else None
        review = error = None
        if review_path:
            try:
                review_path, review = self.engine.read_review(review_path)
            except ValueError as exc:  # an engine error or a malformed review: the plan still shows, with the reason
                error = str(exc)
        view = PlanView(plan, review_path, review, error, self.engine.cold_count())
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._plan_read, view, prefer)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # A failed plan: the app's guard reports it (Textual runs PaneScreen's handler too, which passes it on); the
        # pane stops showing "planning…", or plans again when a change came meanwhile.
        if event.worker.group == "tiers-plan" and event.state == WorkerState.ERROR:
            self._plan_running = False
            wanted, self._plan_wanted = self._plan_wanted, None
            if wanted is not None:  # a change came while it failed: try again for it
                self.refresh_data(wanted[0], blank=wanted[1])
                return
            self._replanning = False
            self.table.loading = False
            self._show_title()
            self.query_one("#tier-summary", Static).update(
                Text(f"planning failed: {failure_text(event.worker.error)}", style="bold red")
            )

    def _show_plan(self, view: PlanView, prefer: str | None) -> None:
        self.view = view
        plan = view.plan
        if self.accepted:
            still = set(plan.candidate_ids["ambiguous"])
            self.accepted &= still
            self._accepted_items = {k: v for k, v in self._accepted_items.items() if k in self.accepted}
        source = PlanSource(self, view)
        first = self._first_load and bool(plan.count("ambiguous")) and prefer is None
        self._first_load = False
        self._replanning = False
        table = self.table
        table.loading = False
        table.reload(source, prefer=prefer)
        if first:
            # Start where a person is needed: on the first ambiguous record, and when it is not in the first view,
            # with the section's header at the top. After the refresh: behind the loading indicator the list had no
            # height, and a scroll made then left the header at the bottom of a screen of automatic rows. The table
            # holds the placement through the resizes that follow until the cursor moves.
            start = source.section_start("ambiguous") or 0
            table.call_after_refresh(table.open_at, start + 1, start)
        empty = not source.total
        self.query_one("#tier-body").display = not empty
        self.query_one("#tier-summary").display = not empty or bool(view.review_path or view.review_error)
        self.query_one("#tier-empty").display = empty
        self._show_summary()
        self._show_detail()
        self.refresh_bindings()

    def section_cells(self, section: str, count: int) -> Cells:
        nbytes = self.view.plan.bytes.get(section, 0) if self.view and section in ("automatic", "ambiguous") else 0
        return [
            Text("▾", style=SECTION_STYLE[section]),
            Text(
                f"{SECTION_LABEL[section]} ({count})", style=SECTION_STYLE[section], no_wrap=True, overflow="ellipsis"
            ),
            "",
            Text(_short_bytes(nbytes), style="dim", justify="right") if nbytes else "",
            Text(
                {
                    "automatic": "written by {commit}",
                    "ambiguous": "{toggle} ✓ · {apply} apply",
                    "protected": "kept",
                    "cold": "{restore} restores",
                }[section].format(**self._keys()),
                style="dim italic",
            ),
        ]

    def candidate_cells(self, section: str, c: Candidate) -> Cells:
        if section == "ambiguous":
            mark = Text("✓", style="bold green") if c.candidate_id in self.accepted else Text("·", style="dim")
        else:
            mark = Text("→", style="cyan") if section == "automatic" else Text("=", style="dim green")
        if section == "protected":
            why = c.reason
        else:
            why = "old superseded" if "superseded" in c.reason else f"old {c.category}"
        return [
            mark,
            _cell(c.title),
            Text(_age(c.age_days), justify="right"),
            Text(_short_bytes(c.excerpt_bytes), justify="right"),
            _cell(why, "dim"),
        ]

    def _show_summary(self) -> None:
        view = self.view
        if view is None:
            return
        plan = view.plan
        acc_bytes = sum(c.excerpt_bytes for c in self._accepted_items.values())
        # Two wordings, the longer where it fits on one line: at 80 columns the long one wrapped between a label and
        # its count ("unchanged" at the end of one line, "357" at the start of the next). The short one leaves out
        # the sizes and says less around the keys.
        width = max(20, (self.size.width or self.app.size.width) - 2)
        for short in (False, True):
            line = Text()
            line.append("automatic ", style="dim")
            line.append(f"{plan.count('automatic')}", style=SECTION_STYLE["automatic"])
            if not short:
                line.append(f" · {_short_bytes(plan.projected_bytes_removed)}", style="dim")
            line.append(" │ ambiguous ", style="dim")
            line.append(f"{plan.count('ambiguous')}", style=SECTION_STYLE["ambiguous"])
            line.append(f" · ✓{len(self.accepted)}", style="bold green" if self.accepted else "dim")
            if not short:
                line.append(f" · {_short_bytes(acc_bytes)}", style="dim")
            line.append(" │ protected ", style="dim")
            line.append(f"{plan.count('protected')}", style=SECTION_STYLE["protected"])
            line.append(f" │ unchanged {plan.unchanged_count} │ ", style="dim")
            if view.review_error:
                line.append(f"review unreadable: {inert_text(view.review_error)}", style="bold red")
            elif view.review_path:
                line.append("pending ", style="dim")
                line.append(inert_text(view.review_path), style="bold")
                ids = len(view.review.candidates) if view.review else 0
                line.append(f" ({ids} ids) · {self._key('tiers.apply')} applies", style="dim")
            else:
                commit = self._key("tiers.commit")
                line.append(f"{commit} commits" if short else f"no review pending · {commit} commits the plan", "dim")
            if line.cell_len <= width:
                break
        self.query_one("#tier-summary", Static).update(line)
        self._show_title()

    def on_resize(self, event: events.Resize) -> None:
        self._show_summary()  # its wording fits the width (PaneScreen's own handler runs too: Textual calls both)

    def _show_title(self) -> None:
        title = "Tier plan"
        if self.view is not None:
            title += f" · {self.view.plan.now:%Y-%m-%d %H:%M}"
        if self._replanning and self.view is not None:
            title += " · re-planning…"
        self.table.border_title = title

    @property
    def current(self) -> tuple[str, Any] | None:
        """(section, Candidate | Entry | None for a section header) under the cursor."""
        item = self.table.current_item
        if item is None:
            return None
        key = self.table.current_key or ""
        return (item[0], None) if key.startswith("§") else item

    def _show_detail(self) -> None:
        cur = self.current
        box = self.query_one("#tier-detail")
        out = self.query_one("#tier-record", Static)
        if cur is None:
            out.update("")
            return
        section, item = cur
        if item is None:
            box.border_title = SECTION_LABEL[section]
            out.update(Text(SECTION_HELP[section].format(**self._keys()), style="italic"))
            return
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column(overflow="fold")
        if section == "cold":
            e: Entry = item
            box.border_title = "cold record"
            grid.add_row("memory", e.memory_id)
            grid.add_row("category", e.category.value)
            grid.add_row("status", e.status.value)
            grid.add_row("changed", f"{e.updated_at:%Y-%m-%d %H:%M}")
            grid.add_row("accessed", f"{e.last_accessed_at:%Y-%m-%d}")
            out.update(
                Group(
                    Text(inert_text(e.title), style="bold"),
                    Text(""),
                    grid,
                    Text(""),
                    Text(
                        f"{self._key('tiers.restore')} restores it to warm (a receipt; {self._key('tiers.undo')} "
                        "undoes)",
                        style="dim",
                    ),
                )
            )
            return
        c: Candidate = item
        box.border_title = f"{section} · {c.candidate_id}"
        grid.add_row("memory", c.memory_id)
        grid.add_row("path", inert_text(c.path))
        grid.add_row("category", c.category)
        grid.add_row("age", f"{_age(c.age_days)} since last access")
        grid.add_row("excerpt", human_bytes(c.excerpt_bytes))
        grid.add_row("action", "keep" if section == "protected" else "→ cold")
        if section == "ambiguous":
            in_review = bool(
                self.view
                and self.view.review
                and any(r.candidate_id == c.candidate_id for r in self.view.review.candidates)
            )
            grid.add_row(
                "review",
                "in the pending review"
                if in_review
                else Text(f"not in a review yet ({self._key('tiers.commit')})", style="yellow"),
            )
            grid.add_row("accepted", Text("✓ yes", style="bold green") if c.candidate_id in self.accepted else "no")
        reasons = Text("\n".join(f"• {inert_text(r)}" for r in c.reasons))
        title = Text(inert_text(c.title), style="bold")
        out.update(Group(title, Text(""), grid, Text(""), Text("reasons", style="dim"), reasons))

    def on_virtual_table_row_highlighted(self, event: VirtualTable.RowHighlighted) -> None:
        self._show_detail()
        self.refresh_bindings()  # space / w apply to some sections only

    def applies(self, action: str) -> bool:
        cur, view = self.current, self.view
        if action == "toggle_accepted":
            return bool(cur and cur[0] == "ambiguous" and cur[1] is not None)
        if action == "restore":
            return bool(cur and cur[0] == "cold" and cur[1] is not None)
        if action == "apply":
            return bool(view and view.review_path)
        if action == "commit":
            return bool(
                view and not view.review_path and (view.plan.count("automatic") or view.plan.count("ambiguous"))
            )
        return True

    def _key(self, binding_id: str) -> str:
        return self.mk.key_for(binding_id) or binding_id

    def _keys(self) -> dict[str, str]:
        """The keys the pane's hints name, as bound now (a keymap may move them)."""
        return {name: self._key(f"tiers.{name}") for name in ("commit", "toggle", "apply", "restore")}

    def status_hint(self) -> Wording:
        wide, narrow = self.STATUS_HINT
        return (wide.format(**self._keys()), narrow.format(**self._keys()))

    def _planning(self) -> bool:
        """No plan read yet: a decision key says so (the plan worker is still running, or it failed)."""
        if self.view is None:
            self.say(f"No plan to act on yet: it is being read ({self._key('tiers.replan')} re-plans).", "yellow")
            return True
        return False

    # ------------------------------------------------------------------------------------------------ decisions

    def action_toggle_accepted(self) -> None:
        cur = self.current
        if not cur or cur[0] != "ambiguous" or cur[1] is None:
            if not self._planning():
                self.say(
                    f"{self._key('tiers.toggle')} ticks ambiguous records only: pick one in the AMBIGUOUS section.",
                    "yellow",
                )
            return
        c: Candidate = cur[1]
        if c.candidate_id in self.accepted:
            self.accepted.discard(c.candidate_id)
            self._accepted_items.pop(c.candidate_id, None)
        else:
            self.accepted.add(c.candidate_id)
            self._accepted_items[c.candidate_id] = c
        self._ticks_shown()

    def action_tick_all(self) -> None:
        """Tick every ambiguous record of the plan (a review at scale holds tens of thousands: one at a time was the
        only way); when they are all ticked already, untick them. The candidates (titles, bytes, for the apply
        dialog) are read in a worker."""
        view = self.view
        if view is None:
            self._planning()
            return
        ids = view.plan.candidate_ids["ambiguous"]
        if not ids:
            self.say("No ambiguous record to tick.", "yellow")
            return
        if all(cid in self.accepted for cid in ids):
            self.accepted -= set(ids)
            self._accepted_items = {k: v for k, v in self._accepted_items.items() if k in self.accepted}
            self._ticks_shown()
            self.say(f"{len(ids)} ambiguous record(s) unticked.")
            return
        self.say(f"Ticking {len(ids)} ambiguous record(s)…")
        self._tick_all_worker(view)

    @work(thread=True, group="tiers-tick", exit_on_error=False)
    def _tick_all_worker(self, view: PlanView) -> None:
        found = self.engine.plan_candidates(view.plan.paths["ambiguous"], now=view.plan.now)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._ticked_all, view, found)

    def _ticked_all(self, view: PlanView, found: list[Candidate]) -> None:
        if self.view is not view:
            self.say("The plan changed meanwhile: nothing was ticked; tick again.", "yellow")
            return
        offered = set(view.plan.candidate_ids["ambiguous"])  # (once: built per candidate it took 42 s at 33k)
        ambiguous = [c for c in found if c.candidate_id in offered]
        for c in ambiguous:
            self.accepted.add(c.candidate_id)
            self._accepted_items[c.candidate_id] = c
        self._ticks_shown()
        self.say(f"✓ {len(ambiguous)} ambiguous record(s) ticked ({self._key('tiers.apply')} applies them).")

    def _ticks_shown(self) -> None:
        self.table.forget()
        self._show_summary()
        self._show_detail()

    def action_commit(self) -> None:
        view = self.view
        if view is None:
            self._planning()
            return
        if view.review_path:
            # The path is on the summary line above; at 80 columns it would push the key off this one.
            apply = self._key("tiers.apply")
            self.say(
                (
                    f"{view.review_path} is pending: apply it ({apply}) before committing a new plan.",
                    f"A review is pending: apply it ({apply}) before committing a new plan.",
                ),
                "yellow",
            )
            return
        if not (view.plan.count("automatic") or view.plan.count("ambiguous")):
            self.say(
                f"Nothing to commit: no record is a tier candidate ({self._key('tiers.replan')} re-plans).", "yellow"
            )
            return

        def summary(receipt: Receipt) -> str:
            d = receipt.details
            if not receipt.ok:  # the status line gives the engine's reason beside it
                return "plan not committed"
            text = f"plan committed · {len(d.get('automatic') or [])} automatic → cold"
            return text + (
                f" · review {d['review']} ({d.get('ambiguous_count', 0)} ids)"
                if d.get("review")
                else " · no review needed"
            )

        plan = view.plan

        def done(yes: bool | None) -> None:
            if yes:
                self.decide(partial(self.engine.commit_tiers, now=self.now(), actor=self.actor), summary)

        n = plan.count("automatic")
        first = self.engine.plan_candidates(plan.paths["automatic"][:8], now=plan.now)
        self.app.push_screen(
            ConfirmModal(
                f"Commit the tier plan: {n} page{'' if n == 1 else 's'} to cold?",
                commit_summary_renderable(
                    first,
                    automatic=n,
                    projected_bytes=plan.projected_bytes_removed,
                    ambiguous=plan.count("ambiguous"),
                    protected=plan.count("protected"),
                ),
                confirm_label="Commit",
            ),
            done,
        )

    def _apply_summary(self, plan: TierOutline, review_path: str, review: Review) -> ApplySummary:
        by_id = self._accepted_items
        review_ids = [r.candidate_id for r in review.candidates]
        accepted = [cid for cid in review_ids if cid in self.accepted]
        titles = {
            r.candidate_id: (by_id[r.candidate_id].title if r.candidate_id in by_id else r.path)
            for r in review.candidates
        }
        return ApplySummary(
            review=review_path,
            accepted=[(cid, titles[cid]) for cid in accepted],
            rejected_count=len(review_ids) - len(accepted),
            accepted_bytes=sum(by_id[cid].excerpt_bytes for cid in accepted if cid in by_id),
            automatic_count=plan.count("automatic"),
            not_in_review=sorted(self.accepted - set(review_ids)),
        )

    def action_apply(self) -> None:
        # The pending review is the one the last plan read (the footer dims the apply key when there is none); the
        # engine re-reads it and hash-checks every accepted page when the apply runs.
        view = self.view
        if view is None:
            self._planning()
            return
        if not view.review_path:
            if view.plan.count("ambiguous"):
                self.say(
                    f"No review is pending: {self._key('tiers.commit')} commits the plan and writes one.", "yellow"
                )
            else:
                self.say("No review is pending, and the plan has nothing to review.", "yellow")
            return
        if view.review is None:
            self.mk.notify_error(view.review_error or view.review_path, title="Review unreadable")
            return
        review_path = view.review_path
        summary = self._apply_summary(view.plan, review_path, view.review)
        ids = [cid for cid, _ in summary.accepted]

        def done(confirmed: bool | None) -> None:
            if confirmed:
                self._apply(review_path, ids)

        self.app.push_screen(
            ConfirmModal("Apply tier review?", apply_summary_renderable(summary), confirm_label="Apply"), done
        )

    def _apply(self, review_path: str, ids: list[str]) -> None:
        def summary(receipt: Receipt) -> str:
            d = receipt.details
            if receipt.ok:
                return (
                    f"{len(d.get('accepted_ids') or [])} → cold · {len(d.get('rejected_ids') or [])} unchanged · "
                    f"moved to {d.get('moved_to')}"
                )
            if d.get("reason") == "stale_pages":
                return f"nothing written · stale {', '.join(d.get('stale_ids') or [])}"
            return f"refused: {d.get('reason')}"

        self.decide(partial(self.engine.apply_tiers, review_path, ids, now=self.now(), actor=self.actor), summary)

    def action_restore(self) -> None:
        cur = self.current
        if not cur or cur[0] != "cold" or cur[1] is None:
            if not self._planning():
                self.say(
                    f"{self._key('tiers.restore')} restores a cold record: pick one in the COLD section.", "yellow"
                )
            return
        e: Entry = cur[1]
        self.decide(
            partial(self.engine.restore_tier, e.memory_id, now=self.now(), actor=self.actor),
            f"{e.memory_id} restored to warm",
        )

    def action_replan(self) -> None:
        self.refresh_data()

    def after_decision(self, receipt: Receipt) -> None:
        d = receipt.details
        if receipt.action == "tiers_apply":
            if receipt.ok:
                self.accepted -= set(d.get("accepted_ids") or [])
            elif d.get("reason") == "stale_pages":
                # Nothing was written; untick the stale ids so the rest can be applied.
                self.accepted -= set(d.get("stale_ids") or [])
            self._accepted_items = {k: v for k, v in self._accepted_items.items() if k in self.accepted}
        self.refresh_data(blank=True)

    def refusal_text(self, receipt: Receipt) -> str:
        d = receipt.details
        if receipt.action != "tiers_apply":
            return super().refusal_text(receipt)
        if d.get("reason") == "stale_pages":
            stale = list(d.get("stale_ids") or [])
            paths = list(d.get("stale_paths") or [])
            protected = d.get("protected") or {}
            listing = "\n".join(
                f"• {cid}  {p}" + (f"  (now protected: {protected[cid]})" if cid in protected else "")
                for cid, p in zip(stale, paths, strict=False)
            )
            commit, apply = self._key("tiers.commit"), self._key("tiers.apply")
            if self.accepted - set(stale):
                way_on = (
                    "They are unticked now: apply again for the rest; the next review "
                    f"({commit}) lists them again if they are still candidates."
                )
            else:
                # Every tick went stale (a decay run rewrites every page it reads, and archives what it finds unread):
                # a pending review refuses a new commit, so say how to close this one.
                way_on = (
                    f"They are unticked now, and nothing else is ticked: {apply} now closes this review with nothing "
                    f"made cold; {commit} then plans again."
                )
            return (
                f"Nothing was written: {len(stale)} accepted page(s) changed or became protected since the plan:\n"
                f"{listing}\n{way_on}"
            )
        errors = d.get("errors") or []
        return "Review refused: " + ("\n".join(str(e) for e in errors[:6]) or str(d.get("reason")))

    def undo_summary(self, receipt: Receipt) -> str:
        restored = receipt.details.get("restored") or []
        return f"undo {receipt.details.get('action', '')} · {len(restored)} tier(s) restored"

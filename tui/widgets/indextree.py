"""The Browse pane's index tree: generated views, then categories → entries, loaded lazily one page at a time.

A category's entries are read from the derived index only when it is expanded, `PAGE_SIZE` at a time with a
"… N more" node that loads the next page: a 20,000-record category never becomes 20,000 tree nodes at once. The
reads run in thread workers, so the UI thread never waits on the index.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.text import Text
from textual import work
from textual.widgets import Tree
from textual.widgets.tree import TreeNode
from textual.worker import Worker, WorkerState

from memkeeper.core.models import inert_text

if TYPE_CHECKING:
    from memkeeper.core import Engine

PAGE_SIZE = 200
VIEWS: tuple[tuple[str, str], ...] = (("hot.md", "hot.md"), ("index.md", "index.md"), ("CONFLICTS.md", "CONFLICTS.md"))

NodeKind = Literal["view", "category", "entry", "more"]


@dataclass(frozen=True)
class NodeRef:
    kind: NodeKind
    value: str  # wiki-relative path (view), category name, memory id (entry), category name (more)
    offset: int = 0  # for "more": where the next page starts


class IndexTree(Tree[NodeRef]):
    """Views and categories; entries appear when a category is expanded.

    Entries are read in thread workers (`category_entries` is an indexed query, but 25-180 ms at 100k records): a
    category being read shows "…" after its count, and its entries (or the next page, in place of its "more" node)
    are added when the read is back. A rebuild after a sync reads the counts and every open category's entries in a
    worker too, then swaps the tree at once. A read that comes back after the tree was rebuilt is dropped."""

    page_size: int = PAGE_SIZE

    def __init__(self, engine: Engine, **kwargs) -> None:
        super().__init__("wiki", **kwargs)
        self.engine = engine
        self.show_root = False
        self.guide_depth = 3
        self._loaded: dict[str, int] = {}  # category -> how many entries are loaded
        self._counts: dict[str, tuple[int, int]] = {}  # category -> (active, total), for its label
        self._reading: set[str] = set()  # categories with a page read in flight
        self._epoch = 0  # bumped by every rebuild: reads started before one are stale
        self._rebuilds = 0  # rebuild reads started: only the latest one's result is shown
        self.reads = 0  # reads applied (tests wait on it)

    # ---------------------------------------------------------------------------------------------- building

    def category_counts(self) -> list[tuple[str, int, int]]:
        """(category, active, total) for every category with records."""
        return self.engine.category_counts()

    def build(
        self,
        counts: list[tuple[str, int, int]] | None = None,
        pages: dict[str, tuple[int, list[dict[str, str]]]] | None = None,
    ) -> None:
        """(Re)build the top level from `counts` (read here when None: one grouped query), with the categories of
        `pages` (category -> (total, entries from the first)) open."""
        counts = self.category_counts() if counts is None else counts
        pages = pages or {}
        self._epoch += 1
        self.clear()
        self._loaded.clear()
        self._reading.clear()
        self._counts = {category: (active, total) for category, active, total in counts}
        for rel, label in VIEWS:
            self.root.add_leaf(Text.assemble(("◆ ", "bold"), label), NodeRef("view", rel))
        for category, active, total in counts:
            node = self.root.add(self._category_label(category, active, total), NodeRef("category", category))
            if category in pages:
                total_entries, rows = pages[category]
                self._add_entries(node, 0, total_entries, rows)
                node.expand()
        if not counts:
            # Three short lines: at 80 columns the index is 26 cells wide.
            for line in ("no records yet —", "agents add them with", "`memkeeper capture`"):
                self.root.add_leaf(Text(line, style="dim italic"))
        self.root.expand()

    @staticmethod
    def _category_label(category: str, active: int, total: int, reading: bool = False) -> Text:
        label = Text(category, style="bold")
        label.append(f" {active}", style="dim")
        if total != active:
            label.append(f"+{total - active}", style="dim italic")
        if reading:
            label.append(" …", style="dim")
        return label

    def _show_reading(self, node: TreeNode[NodeRef], reading: bool) -> None:
        category = node.data.value if node.data else ""
        active, total = self._counts.get(category, (0, 0))
        node.set_label(self._category_label(category, active, total, reading))

    @staticmethod
    def _entry_label(title: str, status: str, tier: str) -> Text:
        # Markers go before the title: the tree is 28 columns wide at 80, and a long title must not push them out.
        label = Text()
        if tier == "cold":
            label.append("❄ ", style="dim")
        if status != "active":
            label.append(f"{status} · ", style="dim italic")
        label.append(
            inert_text(title),
            style=("dim strike" if status in ("denied", "superseded") else "dim") if status != "active" else "",
        )
        return label

    def _add_entries(self, node: TreeNode[NodeRef], offset: int, total: int, rows: list[dict[str, str]]) -> None:
        """Add entries read from `offset` under a category node (which holds `offset` entries and no "more" node),
        and a "more" node when the category holds more."""
        category = node.data.value if node.data else ""
        for row in rows:
            node.add_leaf(
                self._entry_label(row["title"], row["status"], row["tier"]), NodeRef("entry", row["memory_id"])
            )
        loaded = offset + len(rows)
        self._loaded[category] = loaded
        if loaded < total:
            more = Text(
                f"… {total - loaded} more (enter loads {min(self.page_size, total - loaded)})", style="dim italic"
            )
            node.add_leaf(more, NodeRef("more", category, loaded))

    # ---------------------------------------------------------------------------------------------- reading

    def _read(self, node: TreeNode[NodeRef], reveal: str | None = None) -> None:
        """Read the next page of a category's entries in a worker (for `reveal`, pages until that entry's)."""
        category = node.data.value if node.data else ""
        if category in self._reading:
            return
        self._reading.add(category)
        self._show_reading(node, True)
        self._read_worker(category, self._loaded.get(category, 0), reveal, self._epoch)

    @work(thread=True, group="tree-read", exit_on_error=False)
    def _read_worker(self, category: str, offset: int, reveal: str | None, epoch: int) -> None:
        rows: list[dict[str, str]] = []
        total = offset
        try:
            while True:
                total, page = self.engine.category_entries(category, offset=offset + len(rows), limit=self.page_size)
                rows += page
                if reveal is None or not page or offset + len(rows) >= total:
                    break
                if any(r["memory_id"] == reveal for r in page):
                    break
        except BaseException:
            self.app.call_from_thread(self._read_failed, category, epoch)
            raise  # reported by the desk's one guard (on_worker_state_changed)
        self.app.call_from_thread(self._read_back, category, offset, total, rows, reveal, epoch)

    def _read_failed(self, category: str, epoch: int) -> None:
        if epoch != self._epoch:
            return
        self._reading.discard(category)
        node = self.find(NodeRef("category", category))
        if node is None:
            return
        self._show_reading(node, False)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Textual tells only the node that started a worker: a failed read goes on to the desk's one guard.
        if event.state == WorkerState.ERROR:
            failed = getattr(self.app, "worker_failed", None)
            if failed is not None:
                failed(event.worker)

    def _read_back(
        self, category: str, offset: int, total: int, rows: list[dict[str, str]], reveal: str | None, epoch: int
    ) -> None:
        if epoch != self._epoch:
            return  # the tree was rebuilt since: its own reads hold
        self._reading.discard(category)
        node = self.find(NodeRef("category", category))
        if node is None or self._loaded.get(category, 0) != offset:
            return
        self._show_reading(node, False)
        more = next((c for c in node.children if c.data and c.data.kind == "more"), None)
        on_more = more is not None and self.cursor_node is more
        if more is not None:
            more.remove()
        self._add_entries(node, offset, total, rows)
        self.reads += 1
        target: TreeNode[NodeRef] | None = None
        if reveal is not None:
            node.expand()
            target = self.find(NodeRef("entry", reveal))
        elif on_more and len(node.children) > offset:
            target = node.children[offset]  # the cursor stays where the "more" node was: the first new entry
        if target is not None:
            # Tree lines are rebuilt on the next refresh; a node added just now has no line to move to yet.
            self.call_after_refresh(self.move_cursor, target)

    # ---------------------------------------------------------------------------------------------- events

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeRef]) -> None:
        node = event.node
        if node.data and node.data.kind == "category" and node.data.value not in self._loaded:
            self._read(node)

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        node = event.node
        if node.data and node.data.kind == "more" and node.parent is not None:
            event.stop()
            self._read(node.parent)  # its category shows "…" until the page is back

    # ---------------------------------------------------------------------------------------------- queries

    def find(self, ref: NodeRef) -> TreeNode[NodeRef] | None:
        """The loaded node for a view, category or entry (entries are only found when their page is loaded)."""
        stack = list(self.root.children)
        while stack:
            node = stack.pop(0)
            if node.data is not None and node.data.kind == ref.kind and node.data.value == ref.value:
                return node
            stack.extend(node.children)
        return None

    def reveal_entry(self, memory_id: str, category: str) -> None:
        """Move the cursor to an entry: at once when its page is loaded, else once a worker has read the pages up
        to it (its category is expanded then)."""
        cat = self.find(NodeRef("category", category))
        if cat is None:
            return
        node = self.find(NodeRef("entry", memory_id))
        if node is not None:
            cat.expand()
            self.call_after_refresh(self.move_cursor, node)
            return
        if self._loaded.get(category, 0) and not any(c.data and c.data.kind == "more" for c in cat.children):
            return  # every entry is loaded and this one is not among them
        self._read(cat, reveal=memory_id)

    def refresh_from_index(self) -> None:
        """Re-read after a sync, keeping expansion and the cursor on the same view/category/entry: the counts and
        the open categories' entries are read in a worker, and the tree is rebuilt when they are back."""
        expanded = {n.data.value for n in self.root.children if n.data and n.data.kind == "category" and n.is_expanded}
        want = {c: max(self._loaded.get(c, 0), self.page_size) for c in expanded}
        self._rebuilds += 1
        self._rebuild_worker(want, self._rebuilds)

    @work(thread=True, group="tree-rebuild", exit_on_error=False)
    def _rebuild_worker(self, want: dict[str, int], token: int) -> None:
        counts = self.category_counts()
        pages = {c: self.engine.category_entries(c, offset=0, limit=n) for c, n in want.items()}
        self.app.call_from_thread(self._rebuilt, counts, pages, token)

    def _rebuilt(
        self, counts: list[tuple[str, int, int]], pages: dict[str, tuple[int, list[dict[str, str]]]], token: int
    ) -> None:
        if token != self._rebuilds:
            return  # a later rebuild's read is on its way
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        # Categories opened while the read was out: opened again after the rebuild (their first page is read).
        opened = {n.data.value for n in self.root.children if n.data and n.data.kind == "category" and n.is_expanded}
        self.build(counts, pages)
        for category in opened - set(pages):
            node = self.find(NodeRef("category", category))
            if node is not None:
                node.expand()
        self.reads += 1
        if cursor is not None:
            node = self.find(cursor)
            if node is None and cursor.kind == "more":
                node = self.find(NodeRef("category", cursor.value))
            if node is not None:
                self.call_after_refresh(self.move_cursor, node)

"""The Browse pane's index tree: generated views, then categories → entries, loaded lazily one page at a time.

A category's entries are read from the derived index only when it is expanded, `PAGE_SIZE` at a time with a
"… N more" node that loads the next page: a 20,000-record category never becomes 20,000 tree nodes at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

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
    """Views and categories; entries appear when a category is expanded."""

    page_size: int = PAGE_SIZE

    def __init__(self, engine: Engine, **kwargs) -> None:
        super().__init__("wiki", **kwargs)
        self.engine = engine
        self.show_root = False
        self.guide_depth = 3
        self._loaded: dict[str, int] = {}  # category -> how many entries are loaded

    # ---------------------------------------------------------------------------------------------- building

    def category_counts(self) -> list[tuple[str, int, int]]:
        """(category, active, total) for every category with records."""
        return self.engine.category_counts()

    def build(self) -> None:
        """(Re)build the top level from the index. Loaded categories keep their loaded entries."""
        self.clear()
        loaded = dict(self._loaded)
        self._loaded.clear()
        for rel, label in VIEWS:
            self.root.add_leaf(Text.assemble(("◆ ", "bold"), label), NodeRef("view", rel))
        categories = self.category_counts()
        for category, active, total in categories:
            node = self.root.add(self._category_label(category, active, total), NodeRef("category", category))
            if category in loaded:
                self._load_entries(node, 0, max(loaded[category], self.page_size))
                node.expand()
        if not categories:
            # Three short lines: at 80 columns the index is 26 cells wide.
            for line in ("no records yet —", "agents add them with", "`memkeeper capture`"):
                self.root.add_leaf(Text(line, style="dim italic"))
        self.root.expand()

    @staticmethod
    def _category_label(category: str, active: int, total: int) -> Text:
        label = Text(category, style="bold")
        label.append(f" {active}", style="dim")
        if total != active:
            label.append(f"+{total - active}", style="dim italic")
        return label

    @staticmethod
    def _entry_label(title: str, status: str, tier: str) -> Text:
        # Markers go before the title: the tree is 28 columns wide at 80, and a long title must not push them out.
        label = Text()
        if tier == "cold":
            label.append("❄ ", style="dim")
        if status != "active":
            label.append(f"{status} · ", style="dim italic")
        label.append(
            title, style=("dim strike" if status in ("denied", "superseded") else "dim") if status != "active" else ""
        )
        return label

    def _load_entries(self, node: TreeNode[NodeRef], offset: int, limit: int | None = None) -> None:
        category = node.data.value if node.data else ""
        limit = limit or self.page_size
        total, rows = self.engine.category_entries(category, offset=offset, limit=limit)
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

    # ---------------------------------------------------------------------------------------------- events

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeRef]) -> None:
        node = event.node
        if node.data and node.data.kind == "category" and node.data.value not in self._loaded:
            self._load_entries(node, 0)

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeRef]) -> None:
        node = event.node
        if node.data and node.data.kind == "more" and node.parent is not None:
            event.stop()
            parent, offset = node.parent, node.data.offset
            node.remove()
            self._load_entries(parent, offset)
            # Keep the cursor where the "more" node was: on the first newly loaded entry.
            if len(parent.children) > offset:
                self.call_after_refresh(self.move_cursor, parent.children[offset])

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

    def reveal_entry(self, memory_id: str, category: str) -> TreeNode[NodeRef] | None:
        """Expand the entry's category, load pages until the entry is there, and move the cursor to it."""
        cat = self.find(NodeRef("category", category))
        if cat is None:
            return None
        if category not in self._loaded:
            self._load_entries(cat, 0)
        cat.expand()
        node = self.find(NodeRef("entry", memory_id))
        while node is None:
            more = next((c for c in cat.children if c.data and c.data.kind == "more"), None)
            if more is None:
                return None
            offset = more.data.offset if more.data else 0
            more.remove()
            self._load_entries(cat, offset)
            node = self.find(NodeRef("entry", memory_id))
        # Tree lines are rebuilt on the next refresh; a node added just now has no line to move to yet.
        self.call_after_refresh(self.move_cursor, node)
        return node

    def refresh_from_index(self) -> None:
        """Re-read after a sync, keeping expansion and the cursor on the same view/category/entry."""
        cursor = self.cursor_node.data if self.cursor_node is not None else None
        expanded = {n.data.value for n in self.root.children if n.data and n.data.kind == "category" and n.is_expanded}
        self._loaded = {k: v for k, v in self._loaded.items() if k in expanded}
        self.build()
        if cursor is not None:
            node = self.find(cursor)
            if node is None and cursor.kind == "more":
                node = self.find(NodeRef("category", cursor.value))
            if node is not None:
                self.call_after_refresh(self.move_cursor, node)

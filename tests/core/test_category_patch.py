"""`compile.patch_category` finds the lines to drop by searching the page's text: the pages it returns are the ones
the line-by-line rule returned, on generated and hand-mangled listings."""

from __future__ import annotations

import bisect

from hypothesis import given, settings
from hypothesis import strategies as st

from memkeeper.core.compile import _category_page, _line_key, category_key, category_line, patch_category


def _line_by_line(text, category, remove, add):
    """The rule as it was written first: every line tested against every removed page's link."""
    parts = text.split("\n")
    if len(parts) < 4 or parts[0] != f"# {category}":
        return None
    markers = tuple(f"](../{page})" for page in remove)
    lines = [ln for ln in parts[4:] if ln and not (markers and any(m in ln for m in markers))]
    try:
        for title, page, status, zone in add:
            pos = bisect.bisect_left(lines, category_key(title, page), key=_line_key)
            lines.insert(pos, category_line(title, page, status, zone))
    except TypeError:
        return None
    return _category_page(category, lines)


_pages = st.sampled_from([f"entries/p{i}.md" for i in range(12)])
_title = st.sampled_from(["Alpha", "beta", "Gamma ray", "delta", "Ünïcode", "zeta", "a](../entries/p1.md)"])
_row = st.tuples(_title, _pages, st.sampled_from(["active", "archived"]), st.sampled_from(["private_self", "x"]))
_junk = st.sampled_from(["", "hand-written note", "- not a link", "see ](../entries/p3.md) here", "# heading"])


@st.composite
def _page(draw):
    rows = sorted(draw(st.lists(_row, max_size=12)), key=lambda r: category_key(r[0], r[1]))
    lines = [category_line(*r) for r in rows]
    for _ in range(draw(st.integers(0, 3))):
        lines.insert(draw(st.integers(0, len(lines))), draw(_junk))
    head = draw(st.sampled_from(["# fact", "# fact", "# risk"]))
    text = "\n".join([head, "", "[Wiki Index](../index.md) · 3 entries", "", *lines]) + "\n"
    if draw(st.booleans()):
        text = text.replace(" · 3 entries\n\n", " · 3 entries\n", 1)  # a page missing its blank line
    return text


@settings(max_examples=500, deadline=None)
@given(_page(), st.sets(_pages, max_size=3), st.lists(_row, max_size=3))
def test_the_patched_page_is_the_line_by_line_page(text, remove, add):
    assert patch_category(text, "fact", set(remove), add) == _line_by_line(text, "fact", set(remove), add)


def test_a_page_named_in_the_header_is_not_a_listing_line():
    text = "# fact\n\n[Wiki Index](../index.md) · 1 entries ](../entries/p1.md)\n\n- [A](../entries/p1.md) · x\n"
    assert patch_category(text, "fact", {"entries/p1.md"}, []) == _line_by_line(text, "fact", {"entries/p1.md"}, [])

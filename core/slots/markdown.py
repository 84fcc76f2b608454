"""Notes as agents write them, in Markdown: the blocks of a text and what their marks say.

A heading, a list item (a task box too), a table row and a quote's first line each start a block, as does the line
after a blank line, a heading or a table row; a line wrapped inside a paragraph or a list item goes on with its
block. `plain_blocks` gives each block as plain text: white space collapsed, marks dropped, a table's cells as a
list, a task box as a state of its item ("- [x] Book flights" is "Book flights (done)"). `analyze` reads a text's
blocks as sentences of their own and `relation.decision.claims` splits a note into claims by them.
"""

from __future__ import annotations

import re

LIST_MARKER = r"(?:[-*+\u2022]|\d{1,3}[.)])"  # "- ", "* ", "1. ", "2) "
_BLOCK_LINE = re.compile(rf"^[ \t]*(?:#{{1,6}}(?:\s|$)|{LIST_MARKER}\s|\|)")
_BREAK_AFTER = re.compile(r"^[ \t]*(?:#{1,6}(?:\s|$)|\|)")  # a heading or a table row ends its block
_QUOTE_LINE = re.compile(r"^[ \t]*>")
_MARK = re.compile(rf"^(?:#{{1,6}}|>|{LIST_MARKER})\s+")
_TASK_BOX = re.compile(rf"^{LIST_MARKER}\s+\[([ xX])\]\s+")
_TABLE_RULE = re.compile(r"^\|?[\s:|-]*-[\s:|-]*$")  # |---|:--| under a table's header


def block_starts(text: str) -> list[int]:
    """Where each block after the first starts (character offsets)."""
    out: list[int] = []
    pos = 0
    after_break = False  # the line before was blank, a heading or a table row
    in_quote = False  # a quote's next lines, each with its own ">", go on with its paragraph
    for line in text.splitlines(keepends=True):
        if line.strip():
            quote = bool(_QUOTE_LINE.match(line))
            if pos and (after_break or _BLOCK_LINE.match(line) or (quote and not in_quote)):
                out.append(pos + len(line) - len(line.lstrip()))
            after_break = bool(_BREAK_AFTER.match(line))
            in_quote = quote
        else:
            after_break, in_quote = True, False
        pos += len(line)
    return out


def plain_blocks(text: str) -> list[str]:
    """The text's blocks as plain text, empty ones and a table's separator row left out."""
    cuts = [0, *block_starts(text), len(text)] if "\n" in text else [0, len(text)]
    out = []
    for a, b in zip(cuts, cuts[1:], strict=False):
        block = " ".join(text[a:b].split())
        if _TABLE_RULE.match(block):
            continue
        if block.startswith("|"):
            block = ", ".join(cell.strip() for cell in block.strip("|").split("|") if cell.strip())
        task = _TASK_BOX.match(block)
        if task:
            block = f"{block[task.end() :].rstrip(' .;')} ({'done' if task.group(1) in 'xX' else 'pending'})"
        block = _MARK.sub("", block.replace(" > ", " ") if block.startswith(">") else block)
        if block:
            out.append(block)
    return out

"""Tables written to a file or a pipe without rich: the same characters rich
prints there (its default heavy-head box, one space of padding, the title on
its own line), at a fraction of the start-up cost (rich's table and console
modules take ~50 ms to import and as long again to lay out a 28-deal sheet).

On a terminal (colour, folding to the window) the commands still use rich;
``tests/test_plaintable.py`` checks that both give the same text."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

_TOP = ("┏", "━", "┳", "┓")
_HEAD = ("┃", "┃", "┃")
_HEAD_RULE = ("┡", "━", "╇", "┩")
_ROW = ("│", "│", "│")
_SECTION = ("├", "─", "┼", "┤")
_BOTTOM = ("└", "─", "┴", "┘")


def plain_output() -> bool:
    """True when standard output is certainly not a terminal (a file or a
    pipe, and neither ``FORCE_COLOR`` nor ``TTY_COMPATIBLE=1`` says it should
    be treated as one): rich would print no colour and no control codes."""
    if os.environ.get("FORCE_COLOR") is not None or os.environ.get("TTY_COMPATIBLE") == "1":
        return False
    if os.environ.get("TTY_COMPATIBLE") == "0":
        return True
    try:
        return not sys.stdout.isatty()
    except (ValueError, AttributeError):
        return True


def plain_width() -> int:
    """The width of a table written to a file or a pipe: ``COLUMNS`` when it
    is set, else 240 (as the commands' console: wide rows are not folded)."""
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else 240


def _rule(parts: tuple[str, str, str, str], widths: Sequence[int]) -> str:
    left, line, cross, right = parts
    return left + cross.join(line * (w + 2) for w in widths) + right


def box_table(header: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None,
              right_aligned: Sequence[bool] | None = None, width: int = 240) -> str | None:
    """The table as rich prints it unfolded (plain text, no markup), or
    ``None`` when it is wider than ``width`` or a cell is one rich would lay
    out differently (a line break, leading or trailing spaces): the caller
    then lets rich print it."""
    from rich.cells import cell_len

    columns = len(header)
    cells = [list(header), *[list(r) for r in rows]]
    for row in cells:
        if len(row) != columns:
            return None
        for cell in row:
            if cell != cell.strip() or "\n" in cell:
                return None
    widths = [max(cell_len(row[i]) for row in cells) for i in range(columns)]
    if sum(widths) + 3 * columns + 1 > width:
        return None
    align = list(right_aligned or [False] * columns)

    def line(parts: tuple[str, str, str], row: Sequence[str]) -> str:
        left, middle, right = parts
        out = []
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - cell_len(cell))
            out.append(f" {pad}{cell} " if align[i] else f" {cell}{pad} ")
        return left + middle.join(out) + right

    lines = [title] if title else []
    lines.append(_rule(_TOP, widths))
    lines.append(line(_HEAD, header))
    lines.append(_rule(_HEAD_RULE, widths))
    lines += [line(_ROW, row) for row in rows]
    lines.append(_rule(_BOTTOM, widths))
    return "\n".join(lines) + "\n"


def fit_widths(header: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[int] | None:
    """Column widths for a table wider than ``width`` that keep every cell
    whole and fold the headers instead: each column at least as wide as its
    widest cell; the headers as few lines high as the room allows; then, with
    the room left, as few header words cut as can be (the cheapest first).
    ``None`` when the table fits as it is (rich lays it out unchanged) or when
    its cells alone are too wide (rich folds them)."""
    from rich.cells import cell_len

    columns = len(header)
    frame = 3 * columns + 1
    full = [max([cell_len(header[i]), *(cell_len(r[i]) for r in rows)]) for i in range(columns)]
    if sum(full) + frame <= width:
        return None
    cells = [max([1, *(cell_len(r[i]) for r in rows)]) for i in range(columns)]
    if sum(cells) + frame > width:
        return None

    def narrowest(i: int, lines: int) -> int:
        w = cells[i]
        while header_lines(header[i], w) > lines:
            w += 1
        return w

    widths = cells
    for lines in range(1, max(header_lines(header[i], cells[i]) for i in range(columns)) + 1):
        widths = [narrowest(i, lines) for i in range(columns)]
        if sum(widths) + frame <= width:
            break
    room = width - frame - sum(widths)
    words = [max((cell_len(w) for w in h.split()), default=1) for h in header]
    for i in sorted(range(columns), key=lambda i: words[i] - widths[i]):
        if widths[i] < words[i] <= widths[i] + room:
            room -= words[i] - widths[i]
            widths[i] = words[i]
    return widths


def header_lines(text: str, width: int) -> int:
    """How many lines ``text`` takes folded to ``width`` as rich folds a cell:
    words kept whole where they fit, a longer word cut into pieces."""
    from rich.cells import cell_len

    lines, used = 0, 0
    for word in text.split():
        size = cell_len(word)
        if used and used + 1 + size <= width:
            used += 1 + size
            continue
        pieces = -(-size // width)
        lines += pieces
        used = size - (pieces - 1) * width
    return max(lines, 1)

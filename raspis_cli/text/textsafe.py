"""Text from a record made safe to print on a terminal.

A record is data from anyone: a player may be named
``"\\x1b]0;pwned\\x07\\x1b[2J"``, which printed raw sets the terminal's title
and clears the screen (OSC 52 can even write the clipboard), or hold a bidi
override that makes a line read differently from what it is. Every text
output that echoes record content (names, tags, comments, messages, source
lines) passes it through :func:`escape_text`, which writes such characters
as visible escapes: ``\\x1b``, ``\\t``, ``\\u202e``.

JSON, CSV and the notation itself are data, not text for a terminal: they
carry values exactly (JSON escapes C0 characters by its own rules).

This module is at the bottom of the package: it imports nothing of raspis
and nothing outside the standard library, so every layer may use it.
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["EXCERPT_WIDTH", "UNSAFE", "cut_line", "display_width", "escape_text", "excerpt", "is_unsafe",
           "isolated_text", "show_source_line"]

_NAMED: Final = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}

UNSAFE: Final[frozenset[int]] = frozenset(
    [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0),  # C0, DEL, C1
     0x061C, 0x200E, 0x200F,                       # Arabic letter mark, LRM, RLM
     *range(0x202A, 0x202F),                       # LRE RLE PDF LRO RLO
     *range(0x2066, 0x206A),                       # LRI RLI FSI PDI
     0x2028, 0x2029]                               # line and paragraph separators
)
"""Code points never printed as they are: C0 controls, DEL, C1 controls,
the bidirectional marks, embeddings, overrides and isolates, and the Unicode
line and paragraph separators."""


def display_width(text: str) -> int:
    """The columns ``text`` takes on a terminal or in a monospaced font: a
    letter (Latin or Cyrillic), a digit or a suit symbol (♠ ♣ ♦ ♥) one, a wide
    East Asian character or emoji two, a combining mark, a variation selector
    or a zero-width joiner none (as ``wcwidth`` counts them)."""
    if text.isascii():
        return len(text)
    width = 0
    for char in text:
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def _escape(code: int) -> str:
    if code in _NAMED:
        return _NAMED[code]
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


_TABLE: Final[dict[int, str]] = {code: _escape(code) for code in UNSAFE}


def is_unsafe(text: str) -> bool:
    """True when :func:`escape_text` would change ``text``."""
    return any(ord(ch) in UNSAFE for ch in text)


def escape_text(text: str) -> str:
    """``text`` with every control character, DEL, C1 control, bidi control
    and line/paragraph separator written as a visible escape (``\\x1b``,
    ``\\t``, ``\\n``, ``\\x9b``, ``\\u202e``); everything else as it is."""
    return text.translate(_TABLE)


_FIRST_STRONG_ISOLATE: Final = "\u2068"
_POP_DIRECTIONAL_ISOLATE: Final = "\u2069"


def isolated_text(text: str) -> str:
    """Record text as a page shows it: :func:`escape_text` (a bidi override
    is shown as ``\\u202e``, never obeyed), and text holding a right-to-left
    letter isolated (First Strong Isolate ... Pop Directional Isolate, what
    HTML's ``<bdi>`` does), so that a Hebrew or Arabic name does not reorder
    the date or numbers beside it. Text without such letters cannot move
    its neighbours once its controls are escaped, and is left as it is."""
    shown = escape_text(text)
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in shown):
        return _FIRST_STRONG_ISOLATE + shown + _POP_DIRECTIONAL_ISOLATE
    return shown


EXCERPT_WIDTH: Final = 160
"""How many characters of a source line are kept and shown around a
problem's column: a 60 KB line is not held, or printed, whole."""


def excerpt(line: str, column: int, width: int = EXCERPT_WIDTH) -> tuple[str, int]:
    """At most ``width`` characters of ``line`` around the 1-based ``column``,
    with ``…`` where text was cut, and the column within the excerpt."""
    if len(line) <= width:
        return line, column
    index = min(max(column - 1, 0), len(line))
    start = max(0, min(index - width // 2, len(line) - width))
    end = start + width
    head = "…" if start > 0 else ""
    tail = "…" if end < len(line) else ""
    return head + line[start:end] + tail, index - start + len(head) + 1


def cut_line(line: str, column: int, width: int = EXCERPT_WIDTH) -> tuple[str, int]:
    """What a diagnostic keeps of its source line: the line itself when it is
    short, else :func:`excerpt` around ``column``; and the shift, the number
    to subtract from ``column`` to point into what is kept."""
    if len(line) <= width:
        return line, 0
    cut, col = excerpt(line, column, width)
    return cut, column - col


def show_source_line(line: str, column: int, width: int = EXCERPT_WIDTH) -> tuple[str, str]:
    """A source line as printed under a diagnostic: an excerpt of at most
    ``width`` characters around ``column``, escaped (:func:`escape_text`),
    and the padding that puts a caret under ``column`` in it."""
    cut, col = excerpt(line.rstrip("\r\n"), column, width)
    prefix = cut[: max(col - 1, 0)]
    return escape_text(cut), " " * len(escape_text(prefix))

"""Scanning: every physical line split into code and comments (``;`` to the end of the line,
``{ ... }`` blocks that may span lines), before any line is parsed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    pass

from raspis_cli.notation.tokens import CURLY_QUOTES, CURLY_RE
from raspis_cli.text.i18n import _

__all__ = ["Comment", "SourceLine", "scan"]


# --- scanning: comments ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment as written, delimiters included (``; text`` or ``{text}``)."""

    text: str
    line: int
    column: int


@dataclass(slots=True)
class SourceLine:
    """One physical line: its number, text, code (comments blanked) and comments.

    ``comments`` are those that *start* on this line.
    """

    number: int
    text: str
    code: str
    comments: list[Comment] = field(default_factory=list)


_SCAN_RE: Final = re.compile(r'"(?:[^"\\\n]|\\.)*(")?|;|\{')


MAX_COMMENT_LINES: Final = 1000
"""The most lines a ``{ ... }`` comment may span before it is taken as never closed."""
MAX_COMMENT_CHARS: Final = 1 << 20
"""The most characters a ``{ ... }`` comment may hold before it is taken as never closed."""


def scan(lines: Iterable[str], errors: list[tuple[str, str, int, int, str]],
         start: int = 1) -> Iterator[SourceLine]:
    """Split physical lines into code and comments.

    ``lines`` are the file's lines without line breaks. Block comments may
    span lines: the line a block starts on is yielded (with the comment) once
    the block is closed. A block left open at the end of the input, or an
    unclosed quoted string, is reported in ``errors`` as ``(code, message,
    line, column, source)``. ``start`` is the number of the first line
    (a piece of a file read from its middle).
    """
    block: list[str] | None = None
    block_col = 0
    block_size = 0
    held: list[SourceLine] = []
    for number, text in enumerate(lines, start):
        raw = text
        if (block is None and text[:1] in "[ \t" and '"' not in text and "[" in text
                and CURLY_RE.search(text) and text.lstrip()[:1] == "["):
            text = text.translate(CURLY_QUOTES)  # a tag line's quotes from a phone read as "
        if block is None and not ('"' in text or ";" in text or "{" in text or "}" in text):
            # (four substring tests cost less than one search of a regex [;{}"])
            yield SourceLine(number, raw, text)
            continue
        src = SourceLine(number, raw, text)
        code = list(text)
        pos = 0
        if block is not None and (len(block) >= MAX_COMMENT_LINES or block_size > MAX_COMMENT_CHARS):
            # an unclosed { would hold the rest of the file: give up on it here
            first = held[0]
            errors.append(("E120", _("a {{ comment }} is not closed within {lines} lines or {chars} "
                                     "characters").format(
                lines=MAX_COMMENT_LINES, chars=MAX_COMMENT_CHARS), first.number, block_col, first.text))
            first.comments.append(Comment("\n".join(block) + "}", first.number, block_col))
            block = None
            yield from held
            held.clear()
        if block is not None:
            block_size += len(text)
            end = text.find("}")
            if end < 0:
                block.append(text)
                src.code = " " * len(text)
                held.append(src)
                continue
            block.append(text[: end + 1])
            held[0].comments.append(Comment("\n".join(block), held[0].number, block_col))
            block = None
            for k in range(end + 1):
                code[k] = " "
            pos = end + 1
            yield from held
            held.clear()
        while True:
            m = _SCAN_RE.search(text, pos)
            if m is None:
                break
            tok = m.group()
            if tok.startswith('"'):
                if m.group(1) is None:
                    errors.append(("E110", _("a quoted string is not closed on this line"),
                                   number, m.start() + 1, text))
                pos = m.end()
                continue
            start = m.start()
            if tok == ";":
                src.comments.append(Comment(text[start:].rstrip(), number, start + 1))
                for k in range(start, len(code)):
                    code[k] = " "
                break
            end = text.find("}", start + 1)
            if end < 0:
                block_size = len(text) - start
                block = [text[start:]]
                block_col = start + 1
                for k in range(start, len(code)):
                    code[k] = " "
                break
            src.comments.append(Comment(text[start : end + 1], number, start + 1))
            for k in range(start, end + 1):
                code[k] = " "
            pos = end + 1
        src.code = "".join(code)
        if block is not None:
            held.append(src)
        else:
            yield src
    if block is not None:
        first = held[0]
        errors.append(("E120", _("a { comment } is not closed before the end of the file"),
                       first.number, block_col, first.text))
        first.comments.append(Comment("\n".join(block) + "}", first.number, block_col))
        yield from held

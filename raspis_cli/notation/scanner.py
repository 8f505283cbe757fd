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
from raspis_cli.text.messages import Message, msg

__all__ = ["Comment", "Scanner", "SourceLine", "scan"]


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


class Scanner:
    """The scanner's state between lines (a ``{ ... }`` block left open and
    the lines it holds): :meth:`feed` each physical line in turn, then
    :meth:`end`. :func:`scan` is the same over an iterator of lines; a reader
    that sees a line is plain (:meth:`plain`) may take it as its own code,
    without a :class:`SourceLine`, as :meth:`feed` would have yielded it."""

    __slots__ = ("errors", "block", "block_col", "block_size", "held")

    def __init__(self, errors: list[tuple[str, Message, int, int, str]]) -> None:
        self.errors = errors
        self.block: list[str] | None = None
        self.block_col = 0
        self.block_size = 0
        self.held: list[SourceLine] = []

    def plain(self, text: str) -> bool:
        """Whether :meth:`feed` would yield ``text`` at once as its own code,
        with no comment and no error (no block open, no quote, no comment
        sign, not a tag line that may hold a phone's curly quotes)."""
        return self.block is None and not ('"' in text or ";" in text or "{" in text or "}" in text
                                           or (text[:1] in "[ \t" and "[" in text))

    def feed(self, number: int, text: str) -> Iterator[SourceLine]:
        """The lines ready once physical line ``number`` is read: itself, or
        nothing while a block is open, or the lines a block held once it closes."""
        errors = self.errors
        block = self.block
        held = self.held
        raw = text
        if (block is None and text[:1] in "[ \t" and '"' not in text and "[" in text
                and CURLY_RE.search(text) and text.lstrip()[:1] == "["):
            text = text.translate(CURLY_QUOTES)  # a tag line's quotes from a phone read as "
        if block is None and not ('"' in text or ";" in text or "{" in text or "}" in text):
            # (four substring tests cost less than one search of a regex [;{}"])
            yield SourceLine(number, raw, text)
            return
        src = SourceLine(number, raw, text)
        code = list(text)
        pos = 0
        if block is not None and (len(block) >= MAX_COMMENT_LINES or self.block_size > MAX_COMMENT_CHARS):
            # an unclosed { would hold the rest of the file: give up on it here
            first = held[0]
            errors.append(("E120", msg("a {{ comment }} is not closed within {lines} lines or {chars} "
                                     "characters").format(
                lines=MAX_COMMENT_LINES, chars=MAX_COMMENT_CHARS), first.number, self.block_col,
                first.text))
            first.comments.append(Comment("\n".join(block) + "}", first.number, self.block_col))
            block = self.block = None
            yield from held
            held.clear()
        if block is not None:
            self.block_size += len(text)
            end = text.find("}")
            if end < 0:
                block.append(text)
                src.code = " " * len(text)
                held.append(src)
                return
            block.append(text[: end + 1])
            held[0].comments.append(Comment("\n".join(block), held[0].number, self.block_col))
            block = self.block = None
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
                    errors.append(("E110", msg("a quoted string is not closed on this line"),
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
                self.block_size = len(text) - start
                block = self.block = [text[start:]]
                self.block_col = start + 1
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

    def end(self) -> Iterator[SourceLine]:
        """The lines still held at the end of the input (a block never closed, reported)."""
        block = self.block
        if block is not None:
            held = self.held
            first = held[0]
            unclosed = msg("a {block} is not closed before the end of the file", block="{ … }")
            self.errors.append(("E120", unclosed, first.number, self.block_col, first.text))
            first.comments.append(Comment("\n".join(block) + "}", first.number, self.block_col))
            self.block = None
            yield from held
            held.clear()


def scan(lines: Iterable[str], errors: list[tuple[str, Message, int, int, str]],
         start: int = 1) -> Iterator[SourceLine]:
    """Split physical lines into code and comments.

    ``lines`` are the file's lines without line breaks. Block comments may
    span lines: the line a block starts on is yielded (with the comment) once
    the block is closed. A block left open at the end of the input, or an
    unclosed quoted string, is reported in ``errors`` as ``(code, message,
    line, column, source)``. ``start`` is the number of the first line
    (a piece of a file read from its middle).
    """
    scanner = Scanner(errors)
    for number, text in enumerate(lines, start):
        yield from scanner.feed(number, text)
    yield from scanner.end()

"""Reading record files of any form: notation, ``.json``, ``.jsonl``, ``-``.

This is the one reading path of every command: bytes are decoded by
:mod:`raspis_cli.text.decoding` (BOMs, UTF-16, CP1251, ``--encoding``, CRLF,
undecodable bytes and overlong lines as diagnostics), the format is chosen by
the file name or, failing that, by the first line (:func:`sniff_kind`), and
the games are read by the notation reader or the JSON codec.

- :class:`GameStream` reads a file game by game, holding one game (and a
  bounded window of recent source lines) at a time: ``validate`` uses it, so
  a file of any size validates in memory bounded by its largest game.
- :func:`load_source` reads a whole file into a :class:`SourceFile`;
  :func:`load_data` does the same for bytes already read (``fmt``).

Neither raises for bad input: what cannot be read becomes an ``error`` (the
file could not be read at all) or ``diagnostics`` (the games around them are
still read).
"""

from __future__ import annotations

import io
import itertools
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from raspis_cli.files.paths import describe_os_error, sniff_kind
from raspis_cli.files.pieces import Piece, piece_lines
from raspis_cli.model.diagnostics import Diagnostic, syntax_error
from raspis_cli.model.record import GameRecord
from raspis_cli.text.decoding import (
    CHUNK_BYTES,
    MAX_JSON_LINE_BYTES,
    MAX_LINE_BYTES,
    EncodingError,
    PrefixedStream,
    SupportsRead,
    detect,
    iter_lines,
)
from raspis_cli.text.messages import Message, message_of, msg

__all__ = [
    "WINDOW_LINES",
    "GameStream",
    "SourceFile",
    "batch_gc",
    "load_data",
    "load_source",
]

JSON_DOCUMENT_LIMIT = 32 * 1024 * 1024
"""The largest ``.json`` document read (characters): one document is parsed
whole, which takes about 8 times its size in memory, so a larger one is
refused (E005) rather than exhausting memory; ``.jsonl`` and the notation
stream game by game at any size."""

WINDOW_LINES = 200_000
"""How many recent source lines a :class:`GameStream` keeps for showing
problems under their line (a game is a few hundred lines)."""


@dataclass(slots=True)
class SourceFile:
    """A file read: its games, its syntax diagnostics, or why it is unreadable."""

    path: str
    games: list[GameRecord] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: Diagnostic | None = None
    lines: list[str] = field(default_factory=list)
    ordered_bids: bool = True
    game_of_diagnostic: list[int | None] = field(default_factory=list)
    kind: str = "notation"

    @property
    def syntax_lines(self) -> list[int]:
        """The lines with a syntax diagnostic."""
        return [d.line for d in self.diagnostics if d.line is not None and not d.is_warning]

    def source_line(self, line: int | None) -> str | None:
        """The text of a 1-based source line, if known."""
        if line is None or not 1 <= line <= len(self.lines):
            return None
        return self.lines[line - 1]


class GameStream:
    """A record file read game by game (iterate it once).

    While iterating, :attr:`diagnostics` grows with the syntax problems found
    so far (in file order) and :meth:`line` gives the text of recent lines.
    After iterating, :attr:`error` says why the file could not be read at
    all: it could not be opened, or it gave no game but diagnostics (the
    first of them). ``data`` reads these bytes instead of the file.
    """

    def __init__(self, path: str, kind: str | None = None, encoding: str | None = None,
                 data: bytes | None = None, window: int | None = WINDOW_LINES,
                 piece: Piece | None = None) -> None:
        self.path = path
        self.piece = piece
        """Read only these lines (:func:`split_file`): the others are read as
        blank lines, and the stream stops after the piece's last line."""
        self.kind = kind
        self.encoding = encoding
        self.data = data
        self.window = window
        self.diagnostics: list[Diagnostic] = []
        self.error: Diagnostic | None = None
        self.games_read = 0
        self._lines: deque[str] = deque()
        self._first = 1  # the number of the first line kept

    @property
    def display(self) -> str:
        """The file's name in messages (``<stdin>`` for ``-``)."""
        return "<stdin>" if self.path == "-" else self.path

    @property
    def ordered_bids(self) -> bool:
        """True: every source gives bids in the order they were made (the
        notation as written; JSON by ``bid_order`` or in the implied order)."""
        return True

    def line(self, number: int | None) -> str | None:
        """The text of a 1-based source line, if it is still kept."""
        if number is None:
            return None
        i = number - self._first
        if 0 <= i < len(self._lines):
            return self._lines[i]
        return None

    def all_lines(self) -> list[str]:
        """The lines kept (all of them when ``window`` is ``None``)."""
        return list(self._lines)

    def forget_through(self, number: int) -> None:
        """Drop the kept lines up to line ``number``."""
        lines = self._lines
        while lines and self._first <= number:
            lines.popleft()
            self._first += 1

    def report(self, code: str, message: Message, line: int, column: int, source: str) -> None:
        """Add a diagnostic (the decoding layer calls this)."""
        self.diagnostics.append(syntax_error(code, message, line, column, source, self.display))

    def __iter__(self) -> Iterator[GameRecord]:
        stream: SupportsRead | None = None
        try:
            if self.data is not None:
                stream = io.BytesIO(self.data)
            elif self.path == "-":
                stream = sys.stdin.buffer
            else:
                stream = open(self.path, "rb")  # noqa: SIM115 (closed below)
            first = stream.read(CHUNK_BYTES)
            if self.kind is None:
                codec, bom = detect(first[:4096], declared=self.encoding)
                self.kind = sniff_kind(self.path, first[bom:4096].decode(codec, "ignore"))
            limit = MAX_LINE_BYTES if self.kind == "notation" else MAX_JSON_LINE_BYTES
            piece = self.piece
            start = 1
            if piece is not None and piece.offset is not None and self.data is None:
                # the piece read from its first byte, its lines numbered as in the file
                stream.seek(piece.offset)
                start = self._first = piece.first
                lines = self._keep(iter_lines(stream, self._shifted(start - 1), piece.codec, limit))
                if piece.last is not None:
                    lines = itertools.islice(lines, piece.last - piece.first + 1)
            else:
                lines = self._keep(iter_lines(PrefixedStream(first, stream), self.report, self.encoding,
                                              limit))
                if piece is not None:
                    lines = piece_lines(lines, piece)
            for game in self._games(lines, start):
                self.games_read += 1
                yield game
        except OSError as e:
            self.error = syntax_error("E001", describe_os_error(e), path=self.display)
        except EncodingError as e:
            self.error = syntax_error("E001", message_of(e), path=self.display)
        finally:
            if stream is not None and stream is not sys.stdin.buffer:
                stream.close()  # type: ignore[attr-defined]
        errors = [d for d in self.diagnostics if not d.is_warning]
        if self.error is None and not self.games_read and errors and (
                self.piece is None or self.piece.number == 0):
            self.error = errors[0]

    def _shifted(self, lines_before: int) -> Callable[[str, Message, int, int, str], None]:
        """:meth:`report` for lines read from the middle of the file."""
        def report(code: str, message: Message, line: int, column: int, source: str) -> None:
            self.report(code, message, line + lines_before, column, source)
        return report

    def _keep(self, lines: Iterable[str]) -> Iterator[str]:
        kept = self._lines
        window = self.window
        for text in lines:
            kept.append(text)
            if window is not None and len(kept) > window:
                kept.popleft()
                self._first += 1
            yield text

    def _games(self, lines: Iterator[str], start: int = 1) -> Iterator[GameRecord]:
        if self.kind == "jsonl":
            from raspis_cli.notation.jsoncodec import iter_jsonl_games

            yield from iter_jsonl_games(lines, self.display, self.diagnostics, start)
        elif self.kind == "json":
            from raspis_cli.notation.jsoncodec import read_json_text

            kept: list[str] = []
            size = 0
            for text in lines:
                size += len(text) + 1
                if size > JSON_DOCUMENT_LIMIT:
                    self.error = syntax_error(
                        "E005", msg("a .json document is read whole, and this one is larger than {size} MiB; "
                                  "write one game per line as .jsonl (which streams at any size), or split "
                                  "the file").format(size=JSON_DOCUMENT_LIMIT // (1024 * 1024)))
                    return
                kept.append(text)
            read = read_json_text("\n".join(kept), self.display)
            del kept
            self.diagnostics.extend(read.diagnostics)
            yield from read.games
        else:
            from raspis_cli.notation.reader import iter_games

            yield from iter_games(lines, self.display, self.diagnostics, start)


def _load(stream: GameStream, path: str) -> SourceFile:
    result = SourceFile(path)
    result.games = list(stream)
    result.kind = stream.kind or "notation"
    result.ordered_bids = stream.ordered_bids
    result.lines = stream.all_lines()
    result.diagnostics = list(stream.diagnostics)
    if stream.error is not None:
        errors = [d for d in result.diagnostics if not d.is_warning]
        first = errors[0] if errors else None
        result.error = first if first is not None and first == stream.error else stream.error
    return result


def load_source(path: str, kind: str | None = None, encoding: str | None = None) -> SourceFile:
    """Read one file into games and diagnostics; never raises for bad input.

    ``kind`` (``notation``, ``json``, ``jsonl``) is otherwise taken from the
    name or the content; ``encoding`` overrides the detection."""
    return _load(GameStream(path, kind, encoding, window=None), path)


def load_data(data: bytes, path: str, kind: str | None = None, encoding: str | None = None) -> SourceFile:
    """:func:`load_source` of bytes already read from ``path``."""
    return _load(GameStream(path, kind, encoding, data=data, window=None), path)



BATCH_GC_THRESHOLD = 100_000
"""Allocations between two collections of the youngest generation in a batch
command (Python's default is 700)."""


def batch_gc() -> None:
    """Tune the cyclic garbage collector for reading many games (``load``,
    ``validate`` and their workers, and :func:`~raspis_cli.judge.check.read_results`,
    which holds a whole file's results for ``score``, ``show``, ``explain``
    and ``analyze``). A game is many small objects and no
    cycles, freed by reference counting; at the default threshold the
    collector walks the games of a batch again and again while they are
    alive (12-15 % of a load's CPU). Collections are made 140 times rarer,
    not stopped: memory does not grow (bench/README.md has the figures)."""
    import gc

    gc.set_threshold(BATCH_GC_THRESHOLD, 50, 100)

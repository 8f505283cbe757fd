"""Reading record files of any form: notation, ``.json``, ``.jsonl``, ``-``.

This is the one reading path of every command: bytes are decoded by
:mod:`raspis_cli.encodings` (BOMs, UTF-16, CP1251, ``--encoding``, CRLF,
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
import sys
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from raspis_cli.diagnostics import Diagnostic, syntax_error
from raspis_cli.encodings import (
    CHUNK_BYTES,
    MAX_JSON_LINE_BYTES,
    MAX_LINE_BYTES,
    EncodingError,
    SupportsRead,
    detect,
    iter_lines,
)
from raspis_cli.i18n import _
from raspis_cli.record import GameRecord

__all__ = [
    "RECORD_SUFFIXES",
    "WINDOW_LINES",
    "GameStream",
    "SourceFile",
    "describe_os_error",
    "expand_paths",
    "load_data",
    "load_source",
    "read_file_bytes",
    "sniff_kind",
    "source_kind",
]

RECORD_SUFFIXES = (".rsp", ".json", ".jsonl", ".ndjson")
"""The files a folder given on the command line is searched for."""

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


def expand_paths(paths: list[str]) -> list[str]:
    """Files as given, with each folder replaced by the record files below it
    (sorted); ``-`` stays standard input."""
    import os

    out: list[str] = []
    for path in paths:
        if path != "-" and os.path.isdir(path):
            found = []
            for folder, _dirs, names in os.walk(path):
                found += [os.path.join(folder, n) for n in names if n.lower().endswith(RECORD_SUFFIXES)]
            out += sorted(found)
        else:
            out.append(path)
    return out


def source_kind(path: str) -> str:
    """``json``, ``jsonl`` or ``notation``, by the file name."""
    lower = path.lower()
    if lower.endswith(".jsonl") or lower.endswith(".ndjson"):
        return "jsonl"
    if lower.endswith(".json"):
        return "json"
    return "notation"


def sniff_kind(path: str, head: str) -> str:
    """The format of a file: by its name (``.rsp``, ``.txt``, ``.json``,
    ``.jsonl``, ``.ndjson``), else by its first characters ``head``: an
    object (``{"``) is JSON, or JSONL when the first line is a whole object
    and more follows; a list of objects (``[{``, ``[]``) is JSON; anything
    else is the notation (whose tags also start with ``[``)."""
    lower = path.lower()
    if lower.endswith((".json", ".jsonl", ".ndjson", ".rsp", ".txt")):
        return source_kind(path)
    text = head.lstrip("\ufeff \t\r\n")
    if text.startswith("{"):
        after = text[1:].lstrip()
        if after[:1] not in ('"', "}"):
            return "notation"  # a { comment }
        first, _, rest = text.partition("\n")
        return "jsonl" if first.rstrip().endswith("}") and rest.strip() else "json"
    if text.startswith("[") and text[1:].lstrip()[:1] in ("{", "]"):
        return "json"
    return "notation"


def describe_os_error(e: OSError) -> str:
    """Why a file cannot be read, in words."""
    if isinstance(e, FileNotFoundError):
        return _("no such file")
    if isinstance(e, IsADirectoryError):
        return _("is a directory, not a file")
    if isinstance(e, PermissionError):
        return _("permission denied")
    return _("cannot be read: {reason}").format(reason=e.strerror or e)


def read_file_bytes(path: str) -> bytes:
    """The bytes of a file (``-``: standard input); raises ``OSError``."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


class _Prefixed:
    """A stream with its first chunk already read (to sniff it)."""

    def __init__(self, first: bytes, rest: SupportsRead) -> None:
        self.first: bytes | None = first
        self.rest = rest

    def read(self, size: int = -1, /) -> bytes:
        if self.first is not None:
            first, self.first = self.first, None
            if first:
                return first
        return self.rest.read(size)


class GameStream:
    """A record file read game by game (iterate it once).

    While iterating, :attr:`diagnostics` grows with the syntax problems found
    so far (in file order) and :meth:`line` gives the text of recent lines.
    After iterating, :attr:`error` says why the file could not be read at
    all: it could not be opened, or it gave no game but diagnostics (the
    first of them). ``data`` reads these bytes instead of the file.
    """

    def __init__(self, path: str, kind: str | None = None, encoding: str | None = None,
                 data: bytes | None = None, window: int | None = WINDOW_LINES) -> None:
        self.path = path
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

    def report(self, code: str, message: str, line: int, column: int, source: str) -> None:
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
            lines = self._keep(iter_lines(_Prefixed(first, stream), self.report, self.encoding, limit))
            for game in self._games(lines):
                self.games_read += 1
                yield game
        except OSError as e:
            self.error = syntax_error("E001", describe_os_error(e), path=self.display)
        except EncodingError as e:
            self.error = syntax_error("E001", str(e), path=self.display)
        finally:
            if stream is not None and stream is not sys.stdin.buffer:
                stream.close()  # type: ignore[attr-defined]
        errors = [d for d in self.diagnostics if not d.is_warning]
        if self.error is None and not self.games_read and errors:
            self.error = errors[0]

    def _keep(self, lines: Iterable[str]) -> Iterator[str]:
        kept = self._lines
        window = self.window
        for text in lines:
            kept.append(text)
            if window is not None and len(kept) > window:
                kept.popleft()
                self._first += 1
            yield text

    def _games(self, lines: Iterator[str]) -> Iterator[GameRecord]:
        if self.kind == "jsonl":
            from raspis_cli.notation.jsoncodec import iter_jsonl_games

            yield from iter_jsonl_games(lines, self.display, self.diagnostics)
        elif self.kind == "json":
            from raspis_cli.notation.jsoncodec import read_json_text

            kept: list[str] = []
            size = 0
            for text in lines:
                size += len(text) + 1
                if size > JSON_DOCUMENT_LIMIT:
                    self.error = syntax_error(
                        "E005", _("a .json document is read whole, and this one is larger than {size} MiB; "
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

            yield from iter_games(lines, self.display, self.diagnostics)


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


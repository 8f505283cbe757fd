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
import re
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from raspis_cli.model.diagnostics import Diagnostic, syntax_error
from raspis_cli.model.record import GameRecord
from raspis_cli.text.decoding import (
    CHUNK_BYTES,
    MAX_JSON_LINE_BYTES,
    MAX_LINE_BYTES,
    EncodingError,
    SupportsRead,
    detect,
    iter_lines,
)
from raspis_cli.text.i18n import _

__all__ = [
    "RECORD_SUFFIXES",
    "WINDOW_LINES",
    "GameStream",
    "Piece",
    "SHARD_GAMES",
    "ShardError",
    "SourceFile",
    "batch_gc",
    "describe_os_error",
    "split_file",
    "expand_paths",
    "load_data",
    "load_source",
    "parse_shard",
    "read_file_bytes",
    "refuse_stdin",
    "shard_pieces",
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
                lines = self._keep(iter_lines(_Prefixed(first, stream), self.report, self.encoding,
                                              limit))
                if piece is not None:
                    lines = _piece_lines(lines, piece)
            for game in self._games(lines, start):
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
        if self.error is None and not self.games_read and errors and (
                self.piece is None or self.piece.number == 0):
            self.error = errors[0]

    def _shifted(self, lines_before: int) -> Callable[[str, str, int, int, str], None]:
        """:meth:`report` for lines read from the middle of the file."""
        def report(code: str, message: str, line: int, column: int, source: str) -> None:
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



# --- pieces of a file, for workers that share it --------------------------------


@dataclass(frozen=True, slots=True)
class Piece:
    """Lines ``first`` to ``last`` (1-based, inclusive; ``last`` ``None``: to
    the end) of a record file: whole games, cut where a new game surely
    starts. ``number`` counts the file's pieces from 0; ``final`` marks its
    last one."""

    number: int
    first: int
    last: int | None
    final: bool
    games_before: int | None = None
    """The file's games in the pieces before this one, as the cheap scan that
    cut the file counted them (``None`` when the count was not asked for)."""
    offset: int | None = None
    """The byte offset of line ``first``, when the piece can be read from
    there (:func:`split_file` gives it for a file whose lines end in a plain
    ``\\n`` and that read without a problem); otherwise the lines before it
    are read as blank lines."""
    codec: str | None = None
    """The file's codec, for a piece read from its ``offset``."""


_SURE_TAG_RE = re.compile(r'\s*\[[A-Za-z][A-Za-z0-9_]*\s+"[^"\\{}]*"\s*\]\s*')
"""A tag line beyond doubt (a stricter pattern than the reader's): after the
body of a game it starts the next one."""


def split_file(path: str, games_per_piece: int, encoding: str | None = None,
               counted: bool = False) -> list[Piece]:
    """Cut a notation or ``.jsonl`` file into pieces of about
    ``games_per_piece`` games, for workers that each read one piece (from
    the piece's first byte, :attr:`Piece.offset`, when the file's lines all
    end in a plain ``\n``; else reading the lines before it as blank lines,
    which costs about what splitting the lines does). A cut is made only where a new game surely starts: in
    notation, before the blank and comment lines that precede a tag line
    following the body of a game (so the comments before a game stay with
    it, as the reader places them); in ``.jsonl``, at any line. A file that
    cannot be cut so (a ``{ }`` comment over several lines, ``.json``,
    standard input, an unreadable file) is one piece: the reader then sees
    it whole, as without workers.

    With ``counted``, each piece says how many games the pieces before it
    hold (:attr:`Piece.games_before`, for shards read by processes that do
    not see each other): a notation file with a tag line after a game's body
    that the strict pattern does not recognise is then one piece, since a
    game might start there unseen by the count."""
    whole = [Piece(0, 1, None, True, 0 if counted else None)]
    if path == "-" or games_per_piece < 1:
        return whole
    try:
        scanned = _scan_file(path, games_per_piece, encoding)
    except (OSError, EncodingError):
        return whole
    if scanned is None:
        return whole
    cuts, counts, offsets, doubtful, codec = scanned
    if not cuts or (counted and doubtful):
        return whole
    bounds = [1, *cuts]
    before = [0, *counts]
    starts = [None, *offsets] if offsets is not None else [None] * len(bounds)
    return [Piece(i, start, (bounds[i + 1] - 1) if i + 1 < len(bounds) else None, i + 1 == len(bounds),
                  before[i] if counted else None, starts[i], codec if offsets is not None else None)
            for i, start in enumerate(bounds)]


Scanned = tuple[list[int], list[int], list[int] | None, bool, str]
"""What the scan of :func:`split_file` finds: the line numbers where pieces
after the first start, the games before each, their byte offsets (``None``
when the pieces cannot be read from an offset), whether the game count may
be wrong (``doubtful``), and the codec the readers will use."""


def _scan_file(path: str, games_per_piece: int, encoding: str | None = None,
               fast: bool = True) -> Scanned | None:
    """The scan of :func:`split_file` (``None``: a file not cut at all, not
    notation or ``.jsonl``). A UTF-8 or CP1251 notation file whose lines all
    end in a plain ``\n``, decode cleanly and are not too long is scanned
    as bytes (:class:`_ByteScan`: only the tag lines and the lines before
    them are looked at); any other file, or with ``fast`` false, line by
    line (:class:`_Scan`), which finds the same cuts more slowly."""
    with open(path, "rb") as stream:
        first = stream.read(CHUNK_BYTES)
        codec, bom = detect(first[:4096], declared=encoding)
        kind = sniff_kind(path, first[bom:4096].decode(codec, "ignore"))
        if kind not in ("notation", "jsonl"):
            return None
        # the codec the readers will use (iter_lines detects it so)
        codec, bom = detect(first, complete=len(first) < CHUNK_BYTES, declared=encoding)
        if fast and kind == "notation" and codec in _BYTE_SCAN_CODECS:
            byte_scan = _ByteScan(games_per_piece, codec)
            if byte_scan.run(stream, first, bom):
                offsets = byte_scan.offsets if byte_scan.cuts else None
                return byte_scan.cuts, byte_scan.counts, offsets, byte_scan.doubtful, codec
            stream.seek(0)
            first = stream.read(CHUNK_BYTES)
        limit = MAX_LINE_BYTES if kind == "notation" else MAX_JSON_LINE_BYTES
        problems: list[str] = []

        def note(code: str, message: str, line: int, column: int, source: str) -> None:
            problems.append(code)  # the workers report them as they read

        scan = _Scan(kind, games_per_piece)
        cuts = scan.cuts(iter_lines(_Prefixed(first, stream), note, encoding, limit))
        offsets = None
        if cuts and not problems and "\n\r".encode(codec) == b"\n\r":
            stream.seek(0)
            offsets = _line_offsets(stream, cuts)
    return cuts, scan.counts, offsets, scan.doubtful, codec


def _line_offsets(stream: BinaryIO, lines: list[int]) -> list[int] | None:
    """The byte offsets where the given line numbers (ascending) start, when
    every line of the file ends in a plain ``\\n`` (no ``\\r``, no NUL:
    then a line is what the reader reads as one); otherwise ``None``."""
    out: list[int] = []
    line = 1  # the line at ``base``
    base = 0
    wanted = iter(lines)
    target = next(wanted, None)
    while True:
        chunk = stream.read(CHUNK_BYTES)
        if not chunk:
            return out if target is None else None
        if b"\r" in chunk or b"\0" in chunk:
            return None
        at = 0
        while target is not None and line + chunk.count(b"\n", at) >= target:
            while line < target:
                at = chunk.index(b"\n", at) + 1
                line += 1
            out.append(base + at)
            target = next(wanted, None)
        line += chunk.count(b"\n", at)
        base += len(chunk)


class _Scan:
    """The cheap scan of :func:`split_file`: where to cut, how many games
    precede each cut, and whether that count may be wrong (``doubtful``)."""

    def __init__(self, kind: str, games_per_piece: int) -> None:
        self.kind = kind
        self.games_per_piece = games_per_piece
        self.counts: list[int] = []
        """Games before each cut (the same length as the cuts)."""
        self.doubtful = False

    def cuts(self, lines: Iterable[str]) -> list[int]:
        """The line numbers where pieces after the first start."""
        cuts: list[int] = []
        games = 0  # in the current piece
        total = 0  # before the current piece
        if self.kind == "jsonl":
            for number, text in enumerate(lines, 1):
                if text.strip():
                    if games == self.games_per_piece:
                        cuts.append(number)
                        total += games
                        self.counts.append(total)
                        games = 0
                    games += 1
            return cuts
        after_body = False  # the last line that was not blank, a comment or a tag was the body
        gap_start = 0  # the first blank or comment line after the last body line
        for number, text in enumerate(lines, 1):
            head = text.lstrip()
            if ("{" in text or "}" in text) and text.count("{") != text.count("}"):
                self.doubtful = True
                return cuts  # a comment over several lines: no cut after it
            if not head or head[0] in ";{":
                if after_body and not gap_start:
                    gap_start = number
                continue
            if head[0] == "[":
                if after_body:
                    if _SURE_TAG_RE.fullmatch(text) is not None:
                        games += 1
                        if games > self.games_per_piece:
                            cuts.append(gap_start or number)
                            total += games - 1
                            self.counts.append(total)
                            games = 1
                    else:
                        self.doubtful = True
                after_body = False
                gap_start = 0
                continue
            if not after_body and games == 0:
                games = 1  # a file whose first game has no tags
            after_body = True
            gap_start = 0
        return cuts


_BYTE_SCAN_CODECS = ("utf-8", "cp1251")
"""Codecs in which a byte below 0x80 is always that ASCII character, so tag
lines, comments and line breaks can be found in the bytes."""

_ASCII_SPACE = b" \t\x0b\x0c\x1c\x1d\x1e\x1f"
"""The ASCII characters other than line breaks that ``str.lstrip`` strips."""


class _ByteScan:
    """The scan of :func:`split_file` over bytes, for a notation file in a
    codec of :data:`_BYTE_SCAN_CODECS`: the same cuts, game counts and
    ``doubtful`` as :class:`_Scan`, and the cuts' byte offsets, without
    decoding the file into lines. Only the lines that hold a ``[`` (tag
    lines), ``{`` or ``}`` (comments) and the lines just before a tag line
    are looked at, one by one; the rest is searched in C (``bytes.find``).
    :meth:`run` returns False, having found nothing, for a file :class:`_Scan`
    must read: a ``\r`` or NUL, bytes that do not decode, a line longer than
    the reader takes."""

    def __init__(self, games_per_piece: int, codec: str, max_line: int = MAX_LINE_BYTES) -> None:
        self.games_per_piece = games_per_piece
        self.codec = codec
        self.block = max(max_line // 2, 1)
        """Every run of this many bytes holds a line break: then no line is
        longer than ``max_line``."""
        self.cuts: list[int] = []
        self.counts: list[int] = []
        self.offsets: list[int] = []
        self.doubtful = False
        self.games = 0  # in the current piece
        self.total = 0  # before the current piece
        self.after_body = False
        self.gap: tuple[int, int] | None = None
        """The first blank or comment line after the last body line: (line
        number, byte offset), when known from an earlier chunk."""
        self.stopped = False

    def run(self, stream: SupportsRead, first: bytes, bom: int) -> bool:
        """Scan the file (its first chunk read already); False: not scanned."""
        base = bom  # the file offset of data[0]
        line = 1  # the line number of data[0]
        data = first[bom:]
        while True:
            more = stream.read(CHUNK_BYTES)
            data += more
            end = len(data) if not more else data.rfind(b"\n") + 1
            if more and end == 0:
                if len(data) > 4 * self.block:
                    return False  # a line that long is a problem for the reader
                continue
            chunk = data[:end]
            if chunk and not self._chunk(chunk, base, line):
                return False
            if not more:
                return True
            data = data[end:]
            base += end
            line += chunk.count(b"\n")

    def _clean(self, data: bytes) -> bool:
        """What the reader reads without a problem, line for line as split here."""
        if b"\r" in data or b"\0" in data:
            return False
        block = self.block
        for at in range(0, len(data) - block + 1, block):
            if data.find(b"\n", at, at + block) < 0:
                return False
        try:
            data.decode(self.codec)
        except UnicodeDecodeError:
            return False
        return True

    def _kind(self, line: bytes) -> str:
        """``gap`` (blank, ``;`` or ``{``), ``tag`` or ``body``, as :class:`_Scan` reads the line."""
        head = line.lstrip(_ASCII_SPACE)
        if head and head[0] >= 0x80:  # perhaps a space beyond ASCII
            text = line.decode(self.codec).lstrip()
            first = text[:1]
        else:
            first = head[:1].decode("ascii")
        if not first or first in ";{":
            return "gap"
        return "tag" if first == "[" else "body"

    def _stop_at(self, data: bytes) -> int:
        """Where the first line whose braces do not balance (a comment over
        several lines) starts, or the data's length."""
        at = 0
        while True:
            opening, closing = data.find(b"{", at), data.find(b"}", at)
            brace = opening if closing < 0 or 0 <= opening < closing else closing
            if brace < 0:
                return len(data)
            start = data.rfind(b"\n", 0, brace) + 1
            end = data.find(b"\n", brace)
            end = len(data) if end < 0 else end
            text = data[start:end]
            if text.count(b"{") != text.count(b"}"):
                return start
            at = end + 1

    def _last_body(self, data: bytes, low: int, high: int) -> int | None:
        """The end (the start of the next line) of the last body line among
        the whole lines in ``data[low:high]``, or None."""
        at = high
        while at > low:
            start = max(data.rfind(b"\n", low, at - 1) + 1, low)
            if self._kind(data[start:at - 1] if data[at - 1:at] == b"\n" else data[start:at]) == "body":
                return at
            at = start
        return None

    def _chunk(self, data: bytes, base: int, line: int) -> bool:
        """Scan whole lines ``data`` (at file offset ``base``, line ``line``);
        after a comment over several lines (``stopped``: no cut after it),
        only check that the reader will read them without a problem."""
        if not self._clean(data):
            return False
        if self.stopped:
            return True
        stop = self._stop_at(data) if b"{" in data or b"}" in data else len(data)
        counted = (0, line)  # a position in data and its line number

        def number(at: int) -> int:
            nonlocal counted
            counted = (at, counted[1] + data.count(b"\n", counted[0], at))
            return counted[1]

        low = 0  # lines from here on have not been seen yet
        tagged = False  # a tag line in this chunk
        at = 0
        while True:
            bracket = data.find(b"[", at, stop)
            if bracket < 0:
                break
            start = data.rfind(b"\n", 0, bracket) + 1
            end = data.find(b"\n", bracket)
            end = len(data) if end < 0 else end
            at = end + 1
            prefix = data[start:bracket]
            if prefix.strip(_ASCII_SPACE) and (max(prefix) < 0x80 or prefix.decode(self.codec).strip()):
                continue  # a [ inside a line
            body_end = self._last_body(data, low, start)
            if body_end is not None:
                self.after_body = True
                self.gap = (number(body_end), base + body_end) if body_end < start else None
            elif tagged:
                self.after_body = False
            elif self.after_body and self.gap is None and start > 0:
                self.gap = (line, base)  # gap lines from the chunk's start
            if self.after_body:
                self._game_start(data[start:end], self.gap or (number(start), base + start))
            self.after_body = False
            self.gap = None
            tagged = True
            low = min(end + 1, len(data))
        body_end = self._last_body(data, low, stop)
        if body_end is not None:
            self.after_body = True
            self.gap = (number(body_end), base + body_end) if body_end < stop else None
        elif self.after_body and self.gap is None and stop > low:
            self.gap = (number(low), base + low)
        if stop < len(data):
            self.doubtful = True
            self.stopped = True
        return True

    def _game_start(self, tag_line: bytes, cut: tuple[int, int]) -> None:
        """A tag line after the body of a game: count the game (when surely
        one) and cut before it once the piece is full."""
        if self.games == 0:
            self.games = 1  # the body before it was the first game
        if _SURE_TAG_RE.fullmatch(tag_line.decode(self.codec)) is None:
            self.doubtful = True
            return
        self.games += 1
        if self.games > self.games_per_piece:
            self.cuts.append(cut[0])
            self.offsets.append(cut[1])
            self.total += self.games - 1
            self.counts.append(self.total)
            self.games = 1


SHARD_GAMES = 100
"""Games in a piece of a file cut for shards (:func:`shard_pieces`)."""


class ShardError(ValueError):
    """Input that cannot be cut into shards (standard input)."""


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` (1-based, ``1/4`` to ``4/4``) as ``(I - 1, N)``; raises
    :class:`ValueError` with a message for anything else."""
    number, slash, count = text.partition("/")
    if not slash or not number.strip().isdigit() or not count.strip().isdigit():
        raise ValueError(_("expected I/N, e.g. 1/4 (shard 1 of 4), got {text!r}").format(text=text))
    index, total = int(number), int(count)
    if total < 1 or not 1 <= index <= total:
        raise ValueError(_("shard {i}/{n}: I must be from 1 to N").format(i=index, n=total))
    return index - 1, total


def refuse_stdin(paths: Iterable[str]) -> None:
    """Raise :class:`ShardError` when standard input (``-``) is among the
    paths: only one process can read it, so it cannot be cut into shards."""
    if "-" in paths:
        raise ShardError(_("standard input cannot be cut into shards: give files"))


def shard_pieces(paths: Iterable[str], shard: int, shards: int,
                 encoding: str | None = None) -> list[tuple[str, Piece]]:
    """The pieces of ``paths`` that shard ``shard`` (0-based) of ``shards``
    reads: every file is cut as :func:`split_file` cuts it (``counted``: each
    piece knows how many games precede it in its file, so games keep their
    numbers), the pieces of all files are numbered in order and shard ``i``
    takes those whose number modulo ``shards`` is ``i``. Every process given
    the same files and a different shard of the same count reads a disjoint
    part, and together they read everything once. Raises :class:`ShardError`
    for standard input, which only one process can read."""
    paths = list(paths)
    refuse_stdin(paths)
    tasks: list[tuple[str, Piece]] = []
    for path in paths:
        tasks += [(path, piece) for piece in split_file(path, SHARD_GAMES, encoding, counted=True)]
    return [task for number, task in enumerate(tasks) if number % shards == shard]


def _piece_lines(lines: Iterable[str], piece: Piece) -> Iterator[str]:
    """The lines of a file with those outside ``piece`` blank (line numbers
    kept), up to the piece's last line."""
    for number, text in enumerate(lines, 1):
        if number < piece.first:
            yield ""
        elif piece.last is None or number <= piece.last:
            yield text
        else:
            return


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

"""Pieces of a record file, for workers that share it: the file cut into runs of whole games
(:func:`split_file`, by a cheap scan of its bytes or lines), and shards of a set of files."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from raspis_cli.files.paths import sniff_kind
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
from raspis_cli.text.messages import Message, msg

__all__ = ["SHARD_GAMES", "Piece", "ShardError", "parse_shard", "piece_lines", "refuse_stdin",
           "shard_pieces", "split_file"]



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

        def note(code: str, message: Message, line: int, column: int, source: str) -> None:
            problems.append(code)  # the workers report them as they read

        scan = _Scan(kind, games_per_piece)
        cuts = scan.cuts(iter_lines(PrefixedStream(first, stream), note, encoding, limit))
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
        raise ValueError(msg("expected I/N, e.g. 1/4 (shard 1 of 4), got {text!r}").format(text=text))
    index, total = int(number), int(count)
    if total < 1 or not 1 <= index <= total:
        raise ValueError(msg("shard {i}/{n}: I must be from 1 to N").format(i=index, n=total))
    return index - 1, total


def refuse_stdin(paths: Iterable[str]) -> None:
    """Raise :class:`ShardError` when standard input (``-``) is among the
    paths: only one process can read it, so it cannot be cut into shards."""
    if "-" in paths:
        raise ShardError(msg("standard input cannot be cut into shards: give files"))


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


def piece_lines(lines: Iterable[str], piece: Piece) -> Iterator[str]:
    """The lines of a file with those outside ``piece`` blank (line numbers
    kept), up to the piece's last line."""
    for number, text in enumerate(lines, 1):
        if number < piece.first:
            yield ""
        elif piece.last is None or number <= piece.last:
            yield text
        else:
            return

"""Bytes to lines of text: the one place that decides how a record file is decoded.

Every command that reads records reads them through :func:`iter_lines` (via
:mod:`raspis_cli.files.sources`), so a file reads the same in ``validate``,
``score``, ``show``, ``fmt``, ``convert`` and ``load``.

**Which encoding.** ``--encoding ENC`` wins. Otherwise the first bytes
decide (:func:`detect`):

- a byte-order mark: UTF-8 (``EF BB BF``), UTF-16 LE (``FF FE``) or UTF-16 BE
  (``FE FF``); the mark is not part of the text;
- no mark, and the first 64 KiB are full of NUL bytes at every other place:
  UTF-16 without a mark (LE or BE by where the NULs are);
- the first 64 KiB decode as UTF-8: UTF-8 (plain ASCII is UTF-8);
- they do not, but decode as CP1251 into text whose non-ASCII characters are
  nearly all Cyrillic letters (90 % or more, no control characters) standing
  in words of two letters or more (at least three such letters): CP1251, the
  encoding of old Russian Windows programs. A stray byte in otherwise ASCII
  text is *not* taken for CP1251: it is reported;
- otherwise UTF-8, and the bytes that are not UTF-8 are reported.

A NUL byte in the first 64 KiB of a file that is neither UTF-16 nor valid
UTF-8 makes it a binary file (``E004``): nothing is read from it. (A NUL in
otherwise good UTF-8 text is kept: a tag value may hold one.)

**Lines.** LF, CRLF and CR all end a line. The file is read in chunks of
:data:`CHUNK_BYTES`; a line longer than the limit (:data:`MAX_LINE_BYTES` for
the notation) is reported (``E003``) and skipped *without being held in
memory*, and reading goes on after it. A line with bytes that cannot be
decoded is reported once (``E002``, with the byte offset in the file, the
line and the column) and read as an empty line, so line numbers stay right.
Skipped lines are yielded as ``""``.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Final, Protocol

from raspis_cli.text.messages import Message, Quoted, msg, msg_n

__all__ = [
    "CHUNK_BYTES",
    "MAX_JSON_LINE_BYTES",
    "MAX_LINE_BYTES",
    "SNIFF_BYTES",
    "EncodingError",
    "PrefixedStream",
    "Report",
    "SupportsRead",
    "check_encoding",
    "detect",
    "iter_lines",
    "looks_cp1251",
]

MAX_LINE_BYTES: Final = 64 * 1024
"""The longest line of a notation file: no record line comes near it."""

MAX_JSON_LINE_BYTES: Final = 64 * 1024 * 1024
"""The longest line of a JSON or JSONL file (a compact game is ~50 KB)."""

CHUNK_BYTES: Final = 1 << 20
"""How much is read from a file at a time."""

SNIFF_BYTES: Final = 64 * 1024
"""How much of the start of a file the detection looks at."""

Report = Callable[[str, Message, int, int, str], None]
"""Called with ``(code, message, line, column, source line)`` for each problem."""

_BOMS: Final = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                (codecs.BOM_UTF16_BE, "utf-16-be"))
_CYRILLIC_WORD = re.compile("[А-Яа-яЁёІіЇїЄєЎўҐґ]{2,}")
_CYRILLIC = re.compile("[А-Яа-яЁёІіЇїЄєЎўҐґ]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_BREAK = re.compile(rb"\r\n|\r|\n")


class SupportsRead(Protocol):
    """What :func:`iter_lines` reads from: a binary file, ``sys.stdin.buffer``..."""

    def read(self, size: int = -1, /) -> bytes: ...


class PrefixedStream:
    """A stream with its first chunk already read (to sniff it)."""

    def __init__(self, first: bytes, rest: SupportsRead) -> None:
        self.first: bytes | None = first
        self.rest = rest

    def read(self, size: int = -1, /) -> bytes:
        """The first chunk (once), then the rest of the stream."""
        if self.first is not None:
            first, self.first = self.first, None
            if first:
                return first
        return self.rest.read(size)


class EncodingError(ValueError):
    """An encoding name Python does not know as a text encoding."""


def check_encoding(name: str) -> str:
    """The codec name of ``name`` (``cp1251``, ``utf-16-le``...); raises
    :class:`EncodingError` if it is not a text encoding."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise EncodingError(msg("unknown encoding {name} (try utf-8, cp1251 or utf-16)").format(
            name=Quoted(name))) from None
    if not getattr(info, "_is_text_encoding", True):
        raise EncodingError(msg("{name} is not a text encoding (try utf-8, cp1251 or utf-16)").format(
            name=Quoted(name)))
    return info.name


def looks_cp1251(data: bytes) -> bool:
    """True when bytes that are not UTF-8 read as CP1251 into Cyrillic words
    (the conservative test described in the module's docstring)."""
    try:
        text = data.decode("cp1251")
    except UnicodeDecodeError:
        return False
    if _CONTROL.search(text):
        return False
    non_ascii = sum(1 for ch in text if ord(ch) > 127)
    cyrillic = len(_CYRILLIC.findall(text))
    in_words = sum(len(w) for w in _CYRILLIC_WORD.findall(text))
    return non_ascii > 0 and cyrillic >= 0.9 * non_ascii and in_words >= 3 and in_words >= 0.8 * cyrillic


def _is_utf8(head: bytes, complete: bool) -> bool:
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=complete)
    except UnicodeDecodeError:
        return False
    return True


def _utf16_without_bom(head: bytes) -> str | None:
    if len(head) < 8:
        return None
    even = head[0::2]
    odd = head[1::2]
    if odd.count(0) >= 0.6 * len(odd) and even.count(0) <= 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) >= 0.6 * len(even) and odd.count(0) <= 0.05 * len(odd):
        return "utf-16-be"
    return None


def detect(head: bytes, complete: bool = False, declared: str | None = None) -> tuple[str, int]:
    """The codec of a file that starts with ``head`` and the length of its
    byte-order mark; ``complete`` when ``head`` is the whole file."""
    if declared:
        codec = check_encoding(declared)
        for bom, name in _BOMS:
            if head.startswith(bom) and (codec == name or codec == name.rsplit("-", 1)[0]):
                return name, len(bom)
        if codec == "utf-16":  # no mark: the codec's own default would guess
            return _utf16_without_bom(head[:SNIFF_BYTES]) or "utf-16-le", 0
        return codec, 0
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name, len(bom)
    sample = head[:SNIFF_BYTES]
    guess = _utf16_without_bom(sample)
    if guess is not None:
        return guess, 0
    if _is_utf8(sample, complete and len(head) <= SNIFF_BYTES):
        return "utf-8", 0
    if looks_cp1251(sample):
        return "cp1251", 0
    return "utf-8", 0


def iter_lines(stream: SupportsRead, report: Report, encoding: str | None = None,
               max_line: int = MAX_LINE_BYTES) -> Iterator[str]:
    """The lines of a binary stream as text (without line breaks), read in
    chunks; problems go to ``report``. Raises :class:`EncodingError` for an
    unknown ``encoding`` and ``OSError`` when the stream cannot be read."""
    if encoding:
        check_encoding(encoding)
    first = stream.read(CHUNK_BYTES)
    codec, bom = detect(first, complete=len(first) < CHUNK_BYTES, declared=encoding)
    if codec not in ("utf-16-le", "utf-16-be", "utf-16"):
        nul = first.find(b"\0", 0, SNIFF_BYTES)
        if nul >= 0 and not _is_utf8(first[:SNIFF_BYTES], len(first) <= SNIFF_BYTES):
            line = first.count(b"\n", 0, nul) + 1
            report("E004", msg("this looks like a binary file, not a record: a NUL byte at offset "
                             "{offset}").format(
                offset=nul),
                   line, nul - (first.rfind(b"\n", 0, nul) + 1) + 1, "")
            return
    chunks = _chunks(first[bom:], stream)
    if "\n".encode(codec) == b"\n" and "\r".encode(codec) == b"\r":
        yield from _split(chunks, codec, bom, report, max_line)
    else:  # UTF-16 and the like: decoded here, split as UTF-8
        yield from _split(_transcode(chunks, codec, bom, report), "utf-8", 0, report, max_line)


def _chunks(first: bytes, stream: SupportsRead) -> Iterator[bytes]:
    if first:
        yield first
    while True:
        chunk = stream.read(CHUNK_BYTES)
        if not chunk:
            return
        yield chunk


def _transcode(chunks: Iterable[bytes], codec: str, offset: int, report: Report) -> Iterator[bytes]:
    decoder = codecs.getincrementaldecoder(codec)("strict")
    lines = 0
    column = 0
    broken = False
    for chunk in _with_end(chunks):
        final = not chunk
        pending = len(getattr(decoder, "buffer", b""))
        try:
            text = decoder.decode(chunk, final=final)
        except UnicodeDecodeError as e:
            where = offset - pending + e.start
            if not broken:
                report("E002", msg("undecodable bytes at offset {offset}: the file is not {encoding} text "
                                 "(give "
                                 "the right --encoding)").format(offset=where, encoding=_name(codec)),
                       lines + 1, column + 1, "")
                broken = True
            state = decoder.getstate()
            decoder = codecs.getincrementaldecoder(codec)("replace")
            decoder.setstate(state)
            text = decoder.decode(chunk, final=final)
        offset += len(chunk)
        breaks = text.count("\n")
        if breaks:
            lines += breaks
            column = len(text) - text.rfind("\n") - 1
        else:
            column += len(text)
        if text:
            yield text.encode("utf-8", "surrogatepass")


def _with_end(chunks: Iterable[bytes]) -> Iterator[bytes]:
    yield from chunks
    yield b""


def _split(chunks: Iterable[bytes], codec: str, offset: int, report: Report,
           max_line: int) -> Iterator[str]:
    """Lines of byte chunks in an ASCII-compatible codec; ``offset`` is the
    file offset of the first byte."""
    number = 0  # lines yielded so far
    buf = b""
    skipping = False  # inside a line that is too long
    for chunk in _with_end(chunks):
        eof = not chunk
        buf += chunk
        if eof:
            cut = len(buf)
        else:
            cut = buf.rfind(b"\n") + 1
            cr = buf.rfind(b"\r")
            if cr >= cut:
                if cr + 1 < len(buf):
                    cut = cr + 1
                else:  # maybe the first half of a CRLF: its line waits for the next chunk
                    cut = max(buf.rfind(b"\n", 0, cr), buf.rfind(b"\r", 0, cr)) + 1
        if cut == 0 and not eof:
            if skipping:
                offset += len(buf)
                buf = b""
            elif len(buf) > max_line:
                report("E003", msg("line {number} is longer than {max} bytes; is this a record file?").format(
                    number=number + 1, max=max_line), number + 1, 1, "")
                skipping = True
                offset += len(buf)
                buf = b""
            continue
        complete, buf = buf[:cut], buf[cut:]
        if skipping:
            m = _BREAK.search(complete)
            end = m.end() if m else len(complete)
            complete = complete[end:]
            offset += end
            skipping = False
            number += 1
            yield ""
        if not complete:
            continue
        lines: list[str] | None
        try:
            text = complete.decode(codec)
        except UnicodeDecodeError:
            lines = None
        else:
            if "\r" in text:
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            lines = text.split("\n")
            if lines[-1] == "" and text.endswith("\n"):
                lines.pop()
            if len(complete) > max_line and max(map(len, lines), default=0) * 4 > max_line and any(
                    len(t) * 4 > max_line and len(t.encode(codec)) > max_line for t in lines):
                lines = None
        if lines is None:
            lines = list(_slow_lines(complete, codec, offset, number, report, max_line))
        number += len(lines)
        offset += len(complete)
        yield from lines


def _slow_lines(data: bytes, codec: str, offset: int, number: int, report: Report,
                max_line: int) -> Iterator[str]:
    """Line by line, for a chunk with a line too long or bytes not decodable."""
    start = 0
    length = len(data)
    while start < length:
        m = _BREAK.search(data, start)
        end = m.start() if m else length
        raw = data[start:end]
        number += 1
        if len(raw) > max_line:
            report("E003", msg("line {number} is longer than {max} bytes; is this a record file?").format(
                number=number, max=max_line), number, 1, "")
            yield ""
        else:
            try:
                yield raw.decode(codec)
            except UnicodeDecodeError as e:
                shown = raw.decode(codec, "replace")
                column = len(raw[: e.start].decode(codec, "replace")) + 1
                bad = " ".join(f"0x{b:02X}" for b in raw[e.start: e.end])
                hint = (msg("save it as UTF-8, or give --encoding; cp1251 for an old Windows export")
                        if codec == "utf-8" else msg("give the right --encoding"))
                message = msg_n("undecodable byte {bytes} at offset {offset}: the file is not "
                                   "{encoding} text ({hint})", "undecodable bytes {bytes} at offset "
                                   "{offset}: the file is not {encoding} text ({hint})", e.end - e.start)
                report("E002", message.format(bytes=bad, offset=offset + start + e.start,
                                              encoding=_name(codec), hint=hint),
                       number, column, shown if len(shown) <= 1000 else "")
                yield ""
        start = m.end() if m else length


def _name(codec: str) -> str:
    return {"utf-8": "UTF-8", "utf-16-le": "UTF-16", "utf-16-be": "UTF-16", "cp1251": "CP1251"}.get(
        codec, codec)

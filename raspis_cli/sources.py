"""Reading record files of any form: notation, ``.json``, ``.jsonl``, ``-``.

:func:`load_source` never raises for bad input: what cannot be read becomes
an ``error`` (the file could not be read at all) or ``diagnostics`` (syntax
problems; the games around them are still read).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from raspis_cli.record import GameRecord

__all__ = [
    "RECORD_SUFFIXES",
    "Diagnostic",
    "SourceFile",
    "expand_paths",
    "load_source",
    "read_source_text",
    "source_kind",
]

RECORD_SUFFIXES = (".rsp", ".json", ".jsonl", ".ndjson")
"""The files a folder given on the command line is searched for."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A syntax problem: a numbered code, a message and where."""

    code: str
    message: str
    line: int | None = None
    column: int | None = None


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

    @property
    def syntax_lines(self) -> list[int]:
        """The lines with a syntax diagnostic."""
        return [d.line for d in self.diagnostics if d.line is not None]

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


def read_source_text(path: str, encoding: str | None = None) -> str:
    """The text of a file (``-``: standard input), BOM removed, newlines as
    ``\\n``. Raises ``OSError`` or ``UnicodeDecodeError``."""
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    if encoding:
        text = data.decode(encoding)
    elif data.startswith(b"\xff\xfe") or data.startswith(b"\xfe\xff"):
        text = data.decode("utf-16")
    else:
        text = data.decode("utf-8-sig")
    return text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


def load_source(path: str, kind: str | None = None, encoding: str | None = None) -> SourceFile:
    """Read one file into games and diagnostics; never raises for bad input."""
    result = SourceFile(path)
    try:
        text = read_source_text(path, encoding)
    except FileNotFoundError:
        result.error = Diagnostic("E001", "no such file")
        return result
    except IsADirectoryError:
        result.error = Diagnostic("E001", "is a directory, not a file")
        return result
    except PermissionError:
        result.error = Diagnostic("E001", "permission denied")
        return result
    except OSError as e:
        result.error = Diagnostic("E001", f"cannot be read: {e.strerror or e}")
        return result
    except UnicodeDecodeError as e:
        result.error = Diagnostic("E002", f"is not UTF-8 text: undecodable byte at offset {e.start} "
                                  "(try --encoding cp1251 for an old Windows export)")
        return result
    result.lines = text.split("\n")
    kind = kind or source_kind(path)
    if kind in ("json", "jsonl"):
        _load_json(result, text, kind)
    else:
        _load_notation(result, text)
    return result


def _load_json(result: SourceFile, text: str, kind: str) -> None:
    from raspis_cli.notation.jsoncodec import read_json_text

    result.ordered_bids = False
    read = read_json_text(text, result.path, lines=kind == "jsonl")
    result.games = list(read.games)
    for d in read.diagnostics:
        result.diagnostics.append(Diagnostic(d.code, d.message, d.line, d.column))
    if not result.games and result.diagnostics:
        result.error = result.diagnostics[0]


def _load_notation(result: SourceFile, text: str) -> None:
    from raspis_cli.notation.reader import read_text

    read = read_text(text, result.path)
    result.games = list(read.games)
    for d in read.diagnostics:
        result.diagnostics.append(Diagnostic(d.code, d.message, d.line, d.column))
    if not result.games and result.diagnostics:
        result.error = result.diagnostics[0]

"""What every command shares: the app, output formats, errors and exit codes."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import sys
import traceback
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any, Final, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from raspis_cli.replay import RulesChoice
from raspis_cli.rules import PRESETS, Rules, RulesError, parse_assignment
from raspis_cli.textsafe import escape_text

app = typer.Typer(
    name="raspis",
    help="Validate, score and query game records of Raspisnoy poker (расписной покер).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_ERROR = 2

stdout = Console(highlight=False, soft_wrap=True)
stderr = Console(stderr=True, highlight=False, soft_wrap=True)
if not stdout.is_terminal and "COLUMNS" not in os.environ:
    # a file or a pipe: tables as wide as they need, not folded at 80 columns
    stdout.width = 240


class TableFormat(StrEnum):
    """Output formats of commands that print rows."""

    table = "table"
    json = "json"
    csv = "csv"


class UsageError(Exception):
    """A problem with what the user asked for: printed as one line, exit 2."""


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    """Print ``raspis: error: MESSAGE`` on stderr (control characters
    escaped: messages quote names and paths) and exit."""
    say(f"raspis: error: {message}")
    raise typer.Exit(code)


def say(message: str) -> None:
    """Print one message on stderr as plain text, control characters escaped."""
    stderr.print(escape_text(message), markup=False)


def safe_markup(text: str) -> str:
    """Record text to put inside rich markup: control characters escaped
    (:func:`~raspis_cli.textsafe.escape_text`) and ``[`` not read as a tag."""
    return escape(escape_text(text))


RecordFileArgument = Annotated[
    str, typer.Argument(help="A record file (notation, .json, .jsonl); - for stdin.", metavar="FILE")
]
PresetArgument = Annotated[
    str, typer.Argument(help=f"A preset: {', '.join(PRESETS)}.", metavar="PRESET")
]
EncodingOption = Annotated[
    str | None,
    typer.Option("--encoding", help="The files' text encoding (default: detected: UTF-8 with or without "
                 "BOM, UTF-16 by its BOM, CP1251 when it reads as Russian).", metavar="ENC"),
]


def check_encoding_option(encoding: str | None) -> None:
    """Fail with one clear line when ``--encoding`` names no text encoding."""
    if encoding:
        from raspis_cli.encodings import EncodingError, check_encoding

        try:
            check_encoding(encoding)
        except EncodingError as e:
            fail(f"--encoding: {e}")


RulesOption = Annotated[
    str | None,
    typer.Option("--rules", "-r", help=f"Replace the record's rules with a preset: {', '.join(PRESETS)}.",
                 metavar="PRESET"),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", help="Override an option: OPTION=VALUE (repeatable).",
                 metavar="OPTION=VALUE"),
]


def rules_choice(preset: str | None, assignments: Sequence[str] | None) -> RulesChoice:
    """``--rules``/``--set`` as a :class:`RulesChoice`, checked now so that a
    bad option is one clear error before any file is read."""
    build_rules(preset, assignments)
    options: dict[str, object] = {}
    for text in assignments or ():
        name, value = parse_assignment(text)
        options[name] = value
    return RulesChoice(preset, options)


def build_rules(preset: str | None, assignments: Sequence[str] | None) -> Rules:
    """Rules from ``--rules PRESET`` and ``--set OPTION=VALUE`` options."""
    try:
        rules = Rules.preset(preset or "raspisnoy")
        options: dict[str, object] = {}
        for text in assignments or ():
            name, value = parse_assignment(text)
            options[name] = value
        return rules.with_options(options)
    except RulesError as e:
        fail(str(e))


def print_rows(rows: Sequence[dict[str, Any]], fmt: str, title: str | None = None) -> None:
    """Print rows (dicts with the same keys) as a rich table, JSON list or CSV."""
    if fmt == "json":
        write_json(list(rows))
        return
    columns = list(rows[0]) if rows else []
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row[c] is None else _cell(row[c]) for c in columns])
        sys.stdout.write(buffer.getvalue())
        return
    table = Table(title=title, show_lines=False)
    for column in columns:
        table.add_column(safe_markup(column), overflow="fold")
    for row in rows:
        table.add_row(*("" if row[c] is None else safe_markup(_cell(row[c])) for c in columns))
    stdout.print(table)


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def write_json(data: object) -> None:
    """Print JSON on stdout: UTF-8, not ASCII-escaped, indented."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


SUIT_LETTERS: Final = str.maketrans({"♠": "S", "♣": "C", "♦": "D", "♥": "H",
                                     "♤": "S", "♧": "C", "♢": "D", "♡": "H"})
"""Suit symbols as the letters the notation also reads (``10♥`` -> ``10H``)."""


class _SuitLetters:
    """A text stream whose console cannot show suit symbols: they are written
    as letters, and any other character it cannot show as ``?``."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.encoding = str(stream.encoding)  # rich reads it (an ASCII table box for CP1251)
        self.errors = "replace"

    def write(self, text: str) -> int:
        self._stream.write(text.translate(SUIT_LETTERS))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return bool(self._stream.isatty())

    def fileno(self) -> int:
        return int(self._stream.fileno())


def guard_console_encoding() -> None:
    """Make output never fail on the console's encoding (a Russian Windows
    console or ``> report.txt`` writes CP1251, which has no ♥): where standard
    output or error cannot encode the suit symbols, they are written as the
    letters S C D H and any other character it cannot encode as ``?``; one
    line on standard error says so."""
    changed = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            "♠♣♦♥".encode(encoding)
            continue
        except (UnicodeEncodeError, LookupError):
            pass
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            reconfigure(errors="replace")
        setattr(sys, name, _SuitLetters(stream))
        changed.append(encoding)
    if changed:
        sys.stderr.write(f"raspis: the output encoding ({changed[0]}) has no suit symbols: suits are "
                         "written as the letters S C D H (as the notation reads them), and other "
                         "characters it cannot show as '?'\n")


def run_app(argv: list[str]) -> int:
    """Run the app on these arguments and return the exit code; no traceback
    ever reaches the user unless ``--traceback`` is given or
    ``RASPIS_TRACEBACK=1`` is set."""
    show_traceback = "--traceback" in argv or os.environ.get("RASPIS_TRACEBACK") == "1"
    argv = [a for a in argv if a != "--traceback"]
    try:
        result = app(args=argv, prog_name="raspis", standalone_mode=False)
    except typer.Exit as e:
        return int(e.exit_code or 0)
    except KeyboardInterrupt:
        stderr.print("raspis: interrupted", markup=False)
        return 130
    except BrokenPipeError:
        # the reader went away (``raspis ... | head``): not an error of ours
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except Exception as e:
        # typer's own click raises these for bad usage: they know how to show themselves
        if type(e).__name__ == "Abort":
            return 130
        show = getattr(e, "show", None)
        if callable(show) and hasattr(e, "exit_code"):
            show()
            return int(getattr(e, "exit_code", EXIT_ERROR) or EXIT_ERROR)
        if show_traceback:
            traceback.print_exc()
        else:
            say(f"raspis: internal error: {type(e).__name__}: {e} "
                "(run with --traceback for details; please report it)")
        return EXIT_ERROR
    return result if isinstance(result, int) else 0

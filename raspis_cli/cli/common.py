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
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from raspis_cli.diagnostics import Diagnostic, render
from raspis_cli.replay import RulesChoice
from raspis_cli.rules import PRESETS, Rules, RulesError, parse_assignment
from raspis_cli.sources import SourceFile, describe_os_error, load_data, read_file_bytes

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


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    """Print ``raspis: error: MESSAGE`` on stderr and exit."""
    stderr.print(f"raspis: error: {message}", markup=False)
    raise typer.Exit(code)


_STYLES = {"where": "bold", "label": "red", "caret": "green"}


def render_diagnostic(d: Diagnostic, path: str | None = None, source: str | None = None,
                      colour: bool = False) -> list[str]:
    """The lines of :func:`raspis_cli.diagnostics.render`; with ``colour``, as
    rich markup (the place bold, the kind red, the caret green)."""
    if not colour:
        return render(d, path, source)

    def style(role: str, text: str) -> str:
        name = _STYLES.get(role)
        return f"[{name}]{escape(text)}[/{name}]" if name else escape(text)

    return render(d, path, source, style)


def read_source(name: str) -> tuple[bytes | None, str | None]:
    """The bytes of a file (``-`` is standard input), or an error message."""
    try:
        return read_file_bytes(name), None
    except OSError as e:
        return None, f"{'<stdin>' if name == '-' else name}: {describe_os_error(e)}"


def read_clean(name: str, kind: str | None, encoding: str | None,
               refusal: str | None = None) -> tuple[SourceFile, bytes] | None:
    """Read one input for rewriting (fmt, convert): its records and its bytes
    when it reads without a syntax error; otherwise print why on standard
    error (every diagnostic with its caret, then ``refusal`` with their count
    if given) and return ``None``."""
    data, problem = read_source(name)
    if data is None:
        stderr.print(f"raspis: error: {problem}", markup=False)
        return None
    display = "<stdin>" if name == "-" else name
    source = load_data(data, name, kind, encoding)
    if source.error is not None and not source.diagnostics:
        stderr.print(f"raspis: error: {display}: {source.error.message}", markup=False)
        return None
    if source.diagnostics:
        for diag in source.diagnostics:
            stderr.print("\n".join(render_diagnostic(diag, display)), markup=False)
        if refusal is not None:
            stderr.print(f"raspis: {display}: {len(source.diagnostics)} syntax error(s); {refusal}",
                         markup=False)
        return None
    return source, data


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


def check_format(fmt: str, allowed: Sequence[str]) -> str:
    """``--format``: one of ``allowed``, else one clear usage error (exit 2)."""
    if fmt not in allowed:
        listed = ", ".join(allowed[:-1]) + f" or {allowed[-1]}" if len(allowed) > 1 else allowed[0]
        raise typer.BadParameter(f"expected {listed}, got {fmt!r}", param_hint="--format")
    return fmt


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F]} | {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}


def cell_text(value: object) -> Text:
    """A value as a table cell shows it: plain text, never rich markup (a name
    like ``[/]`` is text, not a tag), control characters written as escapes
    (``\\t``, ``\\x1b``) so that no value can restyle or move the terminal.
    JSON and CSV print values exactly."""
    if value is None:
        text = ""
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (list, tuple)):
        text = ",".join(str(v) for v in value)
    elif isinstance(value, dict):
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = str(value)
    return Text(text.translate(_CONTROL))


def print_rows(rows: Sequence[dict[str, Any]], fmt: str, title: str | None = None) -> None:
    """Print rows (dicts with the same keys) as JSON (a list of objects), CSV
    (exact values) or a table of plain-text cells (:func:`cell_text`). Every
    command that prints rows prints them here."""
    if fmt == "json":
        write_json(list(rows))
        return
    columns = list(rows[0]) if rows else []
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row[c] is None else _csv_cell(row[c]) for c in columns])
        sys.stdout.write(buffer.getvalue())
        return
    table = Table(title=title, show_lines=False)
    for column in columns:
        table.add_column(cell_text(column), overflow="fold")
    for row in rows:
        table.add_row(*(cell_text(row[c]) for c in columns))
    stdout.print(table)


def _csv_cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def write_json(data: object) -> None:
    """Print JSON on stdout: UTF-8, not ASCII-escaped, indented."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


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
            stderr.print(
                f"raspis: internal error: {type(e).__name__}: {e} "
                "(run with --traceback for details; please report it)",
                markup=False,
            )
        return EXIT_ERROR
    return result if isinstance(result, int) else 0

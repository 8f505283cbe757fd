"""``raspis fmt``: print or rewrite ``.rsp`` files in the canonical notation."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from raspis_cli.cli.common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_VIOLATIONS,
    EncodingOption,
    app,
    check_encoding_option,
    say,
    stderr,
)
from raspis_cli.i18n import _, normalise_language
from raspis_cli.notation import NotationWriteError, write_games
from raspis_cli.notation.writer import russian_keywords
from raspis_cli.sources import SourceFile, describe_os_error, load_data, read_file_bytes, render


def read_source(name: str) -> tuple[bytes | None, str | None]:
    """The bytes of a file (``-`` is standard input), or an error message."""
    try:
        return read_file_bytes(name), None
    except OSError as e:
        return None, f"{'<stdin>' if name == '-' else name}: {describe_os_error(e)}"


def report(source: SourceFile, display: str) -> None:
    """Print a file's diagnostics on standard error, each with its caret."""
    for diag in source.diagnostics:
        stderr.print(render(display, diag), markup=False)


def read_clean(name: str, kind: str | None, encoding: str | None,
               refusal: str | None = None) -> tuple[SourceFile, bytes] | None:
    """Read one input for rewriting (fmt, convert): its records and its bytes
    when it reads without a syntax error; otherwise print why on standard
    error (every diagnostic with its caret, then ``refusal`` with their count
    if given) and return ``None``."""
    data, problem = read_source(name)
    if data is None:
        say(f"raspis: error: {problem}")
        return None
    display = "<stdin>" if name == "-" else name
    source = load_data(data, name, kind, encoding)
    if source.error is not None and not source.diagnostics:
        say(f"raspis: error: {display}: {source.error.message}")
        return None
    errors = [d for d in source.diagnostics if not d.code.startswith("W")]
    if source.diagnostics:
        report(source, display)  # warnings are shown; only errors stop the rewrite
    if errors:
        if refusal is not None:
            say(f"raspis: {display}: {len(errors)} syntax error(s); {refusal}")
        return None
    return source, data


@app.command("fmt")
def fmt(
    files: Annotated[list[str], typer.Argument(help="Notation files (.rsp); - reads stdin.", metavar="FILE")],
    check: Annotated[bool, typer.Option("--check", help="Exit 1 when a file is not canonical; "
                                        "print nothing else.")] = False,
    write: Annotated[bool, typer.Option("--write", "-w",
                                        help="Rewrite the files in place.")] = False,
    encoding: EncodingOption = None,
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="en|ru",
        help=_("Keywords and kinds of deal in this language (default: en); also the interface's."))] = None,
) -> int:
    """Print the canonical text of notation files (or check or rewrite them).

    Exit 0 when all is well, 1 when --check finds a file that is not
    canonical, 2 when a file cannot be read or has syntax errors (such a file
    is never rewritten).
    """
    check_encoding_option(encoding)
    russian = normalise_language(lang or "en") == "ru"
    status = EXIT_OK
    for name in files:
        display = "<stdin>" if name == "-" else name
        read = read_clean(name, "notation", encoding, refusal="not formatted")
        if read is None:
            status = EXIT_ERROR
            continue
        source, data = read
        try:
            text = write_games(source.games)
            if russian:
                text = russian_keywords(text)
        except NotationWriteError as e:
            say(f"raspis: error: {display}: {e}")
            status = EXIT_ERROR
            continue
        canonical = text.encode("utf-8")
        if check:
            if canonical != data:
                say(f"would reformat {display}")
                status = max(status, EXIT_VIOLATIONS)
            continue
        if write and name != "-":
            if canonical != data:
                try:
                    Path(name).write_bytes(canonical)
                except OSError as e:
                    say(f"raspis: error: {display}: cannot write: {e.strerror or e}")
                    status = EXIT_ERROR
                    continue
                say(f"reformatted {display}")
            continue
        sys.stdout.write(text)
        sys.stdout.flush()
    return status

"""``raspis fmt``: print or rewrite ``.rsp`` files in the canonical notation."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from raspis_cli.cli.app import EXIT_ERROR, EXIT_OK, EXIT_VIOLATIONS, app
from raspis_cli.cli.console import error_line, say
from raspis_cli.cli.options import EncodingOption, check_encoding_option
from raspis_cli.cli.reading import read_clean
from raspis_cli.notation import NotationWriteError, write_games
from raspis_cli.notation.writer import written_language
from raspis_cli.text.i18n import N_, _, normalise_language


@app.command("fmt")
def fmt(
    files: Annotated[list[str], typer.Argument(help=_("Notation files (.rsp); - reads stdin."),
                                               metavar=_("FILE"))],
    check: Annotated[bool, typer.Option("--check", help=_("Exit 1 when a file is not canonical; "
                                        "print nothing else."))] = False,
    write: Annotated[bool, typer.Option("--write", "-w",
                                        help=_("Rewrite the files in place."))] = False,
    encoding: EncodingOption = None,
    lang: Annotated[str | None, typer.Option(
        "--lang", metavar="en|ru",
        help=_("Write the sheet in this language (default: the language each file is written in, "
               "English when nothing tells); also the interface's."))] = None,
) -> int:
    """Print the canonical text of notation files (or check or rewrite them).

    Each file is written in its own language (a sheet written in Russian
    stays Russian, anything else is English) unless --lang names one.
    Exit 0 when all is well, 1 when --check finds a file that is not
    canonical, 2 when a file cannot be read or has syntax errors (such a file
    is never rewritten).
    """
    check_encoding_option(encoding)
    asked = normalise_language(lang) if lang else None
    status = EXIT_OK
    for name in files:
        display = "<stdin>" if name == "-" else name
        read = read_clean(name, "notation", encoding, refusal=N_("not formatted"))
        if read is None:
            status = EXIT_ERROR
            continue
        source, data = read
        try:
            text = write_games(source.games, asked or written_language(source.lines))
        except NotationWriteError as e:
            say(error_line(f"{display}: {e}"))
            status = EXIT_ERROR
            continue
        canonical = text.encode("utf-8")
        if check:
            if canonical != data:
                say(_("would reformat {file}").format(file=display))
                status = max(status, EXIT_VIOLATIONS)
            continue
        if write and name != "-":
            if canonical != data:
                try:
                    Path(name).write_bytes(canonical)
                except OSError as e:
                    say(error_line(_("{file}: cannot write: {reason}").format(file=display,
                                                                             reason=e.strerror or e)))
                    status = EXIT_ERROR
                    continue
                say(_("reformatted {file}").format(file=display))
            continue
        sys.stdout.write(text)
        sys.stdout.flush()
    return status

"""``raspis convert``: notation ⇄ JSON / JSONL, without loss."""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import Annotated

import typer

from raspis_cli.cli.app import EXIT_ERROR, EXIT_OK, app
from raspis_cli.cli.console import error_line, say
from raspis_cli.cli.options import EncodingOption, ForceOption, check_encoding_option, check_output
from raspis_cli.cli.problems import print_diagnostic
from raspis_cli.cli.reading import read_clean
from raspis_cli.files.sources import GameStream
from raspis_cli.model.record import GameRecord
from raspis_cli.notation import NotationWriteError, write_games
from raspis_cli.notation.jsoncodec import JsonGamesWriter, game_to_jsonl_line
from raspis_cli.text.i18n import _


class Target(StrEnum):
    """What ``convert`` writes."""

    json = "json"
    jsonl = "jsonl"
    notation = "notation"


class Source(StrEnum):
    """What ``convert`` reads (``auto``: by extension, else by content)."""

    auto = "auto"
    json = "json"
    jsonl = "jsonl"
    notation = "notation"


@app.command("convert")
def convert(
    files: Annotated[list[str], typer.Argument(help=_("Input files (.rsp, .json, .jsonl); "
                                               "- reads stdin."), metavar=_("FILE"))],
    to: Annotated[Target, typer.Option("--to", "-t", help=_("Output format."),
                                       metavar="json|jsonl|notation")],
    output: Annotated[str | None, typer.Option("--output", "-o", metavar=_("FILE"),
                                               help=_("Output file (default: stdout)."))] = None,
    source: Annotated[Source, typer.Option("--from", "-f", metavar="auto|json|jsonl|notation",
                                           help=_("Input format (default: by extension or "
                                           "content)."))] = Source.auto,
    encoding: EncodingOption = None,
    force: ForceOption = False,
) -> int:
    """Convert game records between the notation and JSON / JSONL.

    All inputs are read first; any syntax error stops the conversion (exit 2)
    and nothing is written. The output is never one of the inputs, and an
    existing file is replaced only with --force.
    """
    check_output(output, files, force)
    # JSON and JSONL are written game by game as the inputs are read (memory
    # holds one game, not the file), to a temporary file that becomes the
    # output (or is copied to standard output) only when every input read cleanly.
    check_encoding_option(encoding)
    kind = None if source is Source.auto else source.value
    if to is Target.notation:
        return _to_notation(files, kind, encoding, output)
    return _to_json(files, kind, encoding, output, lines=to is Target.jsonl)


def _to_notation(files: list[str], kind: str | None, encoding: str | None, output: str | None) -> int:
    games: list[GameRecord] = []
    failed = False
    for name in files:
        read = read_clean(name, kind, encoding)
        if read is None:
            failed = True
            continue
        games.extend(read[0].games)
    if failed:
        return EXIT_ERROR
    try:
        text = write_games(games)
    except NotationWriteError as e:
        say(error_line(str(e)))
        return EXIT_ERROR
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        from raspis_cli.files.atomic import write_atomic

        try:
            write_atomic(output, text.encode("utf-8"))
        except OSError as e:
            say(error_line(_("{file}: cannot write: {reason}").format(file=output, reason=e.strerror or e)))
            return EXIT_ERROR
    return EXIT_OK


class _RefusedError(Exception):
    """An input did not read cleanly: the output is not written."""


def _to_json(files: list[str], kind: str | None, encoding: str | None, output: str | None,
             lines: bool) -> int:
    """Stream every game of ``files`` as JSON (``lines``: JSONL) to ``output``."""
    import tempfile

    from raspis_cli.files.atomic import atomic_output

    to_stdout = output is None or output == "-"
    try:
        with contextlib.ExitStack() as stack:
            if to_stdout:
                spool = stack.enter_context(tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n"))
                write: Callable[[str], object] = spool.write
            else:
                assert output is not None
                handle = stack.enter_context(atomic_output(output))

                def write(text: str) -> object:
                    return handle.write(text.encode("utf-8"))
            json_writer = None if lines else JsonGamesWriter(write)
            failed = False
            for name in files:
                read = _Input(name, kind, encoding)
                for game in read:
                    if failed or read.errors:
                        continue  # read on for the diagnostics; nothing is written
                    if json_writer is not None:
                        json_writer.add(game)
                    else:
                        write(game_to_jsonl_line(game))
                failed = read.refused() or failed
            if failed:
                raise _RefusedError
            if json_writer is not None:
                json_writer.close()
            if to_stdout:
                spool.seek(0)
                shutil.copyfileobj(spool, sys.stdout)
                sys.stdout.flush()
    except _RefusedError:
        return EXIT_ERROR
    except OSError as e:
        say(error_line(_("{file}: cannot write: {reason}").format(file=output, reason=e.strerror or e)))
        return EXIT_ERROR
    return EXIT_OK


class _Input:
    """One input read game by game (its lines forgotten after each game); its
    diagnostics printed at the end, as :func:`read_clean` prints them."""

    def __init__(self, name: str, kind: str | None, encoding: str | None) -> None:
        self.stream = GameStream(name, kind, encoding, window=1000)
        self.seen = 0
        self.error_count = 0

    @property
    def errors(self) -> int:
        """Syntax errors found so far."""
        new = self.stream.diagnostics[self.seen:]
        self.seen += len(new)
        self.error_count += sum(not d.is_warning for d in new)
        return self.error_count

    def __iter__(self) -> Iterator[GameRecord]:
        stream = self.stream
        for game in stream:
            yield game
            if game.span is not None:
                stream.forget_through(game.span[1])

    def refused(self) -> bool:
        """Print what reading found (warnings and errors with their caret);
        True when the input cannot be converted."""
        stream = self.stream
        if stream.error is not None and not stream.diagnostics:
            say(error_line(f"{stream.display}: {stream.error.message}"))
            return True
        for diag in stream.diagnostics:
            print_diagnostic(diag, stream.display)
        return self.errors > 0

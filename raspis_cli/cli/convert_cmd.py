"""``raspis convert``: notation ⇄ JSON / JSONL, without loss."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from raspis_cli.cli.common import (
    EXIT_ERROR,
    EXIT_OK,
    EncodingOption,
    app,
    check_encoding_option,
    read_clean,
    say,
)
from raspis_cli.notation import NotationWriteError, write_games
from raspis_cli.notation.jsoncodec import games_to_json_text, games_to_jsonl_text
from raspis_cli.record import GameRecord


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
    files: Annotated[list[str], typer.Argument(help="Input files (.rsp, .json, .jsonl); "
                                               "- reads stdin.", metavar="FILE")],
    to: Annotated[Target, typer.Option("--to", "-t", help="Output format.", metavar="json|jsonl|notation")],
    output: Annotated[str | None, typer.Option("--output", "-o", metavar="FILE",
                                               help="Output file (default: stdout).")] = None,
    source: Annotated[Source, typer.Option("--from", "-f", metavar="auto|json|jsonl|notation",
                                           help="Input format (default: by extension or "
                                           "content).")] = Source.auto,
    encoding: EncodingOption = None,
) -> int:
    """Convert game records between the notation and JSON / JSONL.

    All inputs are read first; any syntax error stops the conversion (exit 2)
    and nothing is written.
    """
    check_encoding_option(encoding)
    games: list[GameRecord] = []
    failed = False
    for name in files:
        read = read_clean(name, None if source is Source.auto else source.value, encoding)
        if read is None:
            failed = True
            continue
        games.extend(read[0].games)
    if failed:
        return EXIT_ERROR
    try:
        if to is Target.json:
            text = games_to_json_text(games) if games else "[]\n"
        elif to is Target.jsonl:
            text = games_to_jsonl_text(games)
        else:
            text = write_games(games)
    except NotationWriteError as e:
        say(f"raspis: error: {e}")
        return EXIT_ERROR
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            Path(output).write_text(text, encoding="utf-8", newline="\n")
        except OSError as e:
            say(f"raspis: error: {output}: cannot write: {e.strerror or e}")
            return EXIT_ERROR
    return EXIT_OK

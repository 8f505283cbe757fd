"""``raspis convert``: notation ⇄ JSON / JSONL, without loss."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from raspis_cli.cli.common import EXIT_ERROR, EXIT_OK, app, stderr
from raspis_cli.cli.fmt_cmd import read_source, report
from raspis_cli.notation import NotationWriteError, ReadResult, read_bytes, write_games
from raspis_cli.notation.jsoncodec import (
    games_to_json_text,
    games_to_jsonl_text,
    read_json_text,
    read_jsonl_text,
)
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


def sniff(name: str, text: str) -> str:
    """The format of an input: by its extension, else by its first characters."""
    suffix = Path(name).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix == ".jsonl":
        return "jsonl"
    if suffix in (".rsp", ".txt"):
        return "notation"
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        first = head.split("\n", 1)[0].rstrip()
        return "jsonl" if first.endswith("}") and "\n" in head.strip() else "json"
    if head.startswith("["):
        after = head[1:].lstrip()
        if after[:1] in ("{", "]"):
            return "json"
    return "notation"


def read_any(name: str, data: bytes, source: str) -> ReadResult:
    """Read one input in the given (or sniffed) format."""
    display = "<stdin>" if name == "-" else name
    if source == "notation":
        return read_bytes(data, display)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return read_bytes(data, display)  # reports E001
    kind = sniff(name, text) if source == "auto" else source
    if kind == "json":
        return read_json_text(text, display)
    if kind == "jsonl":
        return read_jsonl_text(text, display)
    return read_bytes(data, display)


@app.command("convert")
def convert(
    files: Annotated[list[str], typer.Argument(help="Input files (.rsp, .json, .jsonl); "
                                               "- reads stdin.")],
    to: Annotated[Target, typer.Option("--to", "-t", help="Output format.")],
    output: Annotated[str | None, typer.Option("--output", "-o",
                                               help="Output file (default: stdout).")] = None,
    source: Annotated[Source, typer.Option("--from", "-f",
                                           help="Input format (default: by extension or "
                                           "content).")] = Source.auto,
) -> int:
    """Convert game records between the notation and JSON / JSONL.

    All inputs are read first; any syntax error stops the conversion (exit 2)
    and nothing is written.
    """
    games: list[GameRecord] = []
    failed = False
    for name in files:
        data, problem = read_source(name)
        if data is None:
            stderr.print(f"raspis: error: {problem}", markup=False)
            failed = True
            continue
        result = read_any(name, data, source.value)
        if not result.ok:
            report(result)
            failed = True
            continue
        games.extend(result.games)
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
        stderr.print(f"raspis: error: {e}", markup=False)
        return EXIT_ERROR
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            Path(output).write_text(text, encoding="utf-8", newline="\n")
        except OSError as e:
            stderr.print(f"raspis: error: {output}: cannot write: {e.strerror or e}",
                         markup=False)
            return EXIT_ERROR
    return EXIT_OK

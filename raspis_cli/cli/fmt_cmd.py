"""``raspis fmt``: print or rewrite ``.rsp`` files in the canonical notation."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from raspis_cli.cli.common import EXIT_ERROR, EXIT_OK, EXIT_VIOLATIONS, app, stderr
from raspis_cli.notation import NotationWriteError, ReadResult, read_bytes, write_games


def read_source(name: str) -> tuple[bytes | None, str | None]:
    """The bytes of a file (``-`` is standard input), or an error message."""
    try:
        if name == "-":
            return sys.stdin.buffer.read(), None
        return Path(name).read_bytes(), None
    except OSError as e:
        return None, f"{name}: cannot read: {e.strerror or e}"


def report(result: ReadResult) -> None:
    """Print a result's diagnostics on standard error, each with its caret."""
    for diag in result.diagnostics:
        stderr.print(diag.render(), markup=False)


@app.command("fmt")
def fmt(
    files: Annotated[list[str], typer.Argument(help="Notation files (.rsp); - reads stdin.")],
    check: Annotated[bool, typer.Option("--check", help="Exit 1 when a file is not canonical; "
                                        "print nothing else.")] = False,
    write: Annotated[bool, typer.Option("--write", "-w",
                                        help="Rewrite the files in place.")] = False,
) -> int:
    """Print the canonical text of notation files (or check or rewrite them).

    Exit 0 when all is well, 1 when --check finds a file that is not
    canonical, 2 when a file cannot be read or has syntax errors (such a file
    is never rewritten).
    """
    status = EXIT_OK
    for name in files:
        data, problem = read_source(name)
        if data is None:
            stderr.print(f"raspis: error: {problem}", markup=False)
            status = EXIT_ERROR
            continue
        display = "<stdin>" if name == "-" else name
        result = read_bytes(data, display)
        if not result.ok:
            report(result)
            stderr.print(f"raspis: {display}: {len(result.diagnostics)} syntax error(s); "
                         "not formatted", markup=False)
            status = EXIT_ERROR
            continue
        try:
            text = write_games(result.games)
        except NotationWriteError as e:
            stderr.print(f"raspis: error: {display}: {e}", markup=False)
            status = EXIT_ERROR
            continue
        canonical = text.encode("utf-8")
        if check:
            if canonical != data:
                stderr.print(f"would reformat {display}", markup=False)
                status = max(status, EXIT_VIOLATIONS)
            continue
        if write and name != "-":
            if canonical != data:
                Path(name).write_bytes(canonical)
                stderr.print(f"reformatted {display}", markup=False)
            continue
        sys.stdout.write(text)
        sys.stdout.flush()
    return status

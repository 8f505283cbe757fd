"""Reading a command's input files: their bytes, or their records when they read cleanly."""

from __future__ import annotations

from typing import TYPE_CHECKING

from raspis_cli.cli.console import error_line, say
from raspis_cli.cli.problems import print_diagnostic
from raspis_cli.text.i18n import _, ngettext

if TYPE_CHECKING:
    from raspis_cli.files.sources import SourceFile


def read_source(name: str) -> tuple[bytes | None, str | None]:
    """The bytes of a file (``-`` is standard input), or an error message."""
    from raspis_cli.files.paths import describe_os_error, read_file_bytes

    try:
        return read_file_bytes(name), None
    except OSError as e:
        return None, f"{'<stdin>' if name == '-' else name}: {describe_os_error(e)}"


def read_clean(name: str, kind: str | None, encoding: str | None,
               refusal: str | None = None) -> tuple[SourceFile, bytes] | None:
    """Read one input for rewriting (fmt, convert): its records and its bytes
    when it reads without a syntax error (warnings are printed, not refused);
    otherwise print why on standard error (every diagnostic with its caret,
    then ``refusal`` with their count if given) and return ``None``."""
    from raspis_cli.files.sources import load_data

    data, problem = read_source(name)
    if data is None:
        say(error_line(str(problem)))
        return None
    display = "<stdin>" if name == "-" else name
    source = load_data(data, name, kind, encoding)
    if source.error is not None and not source.diagnostics:
        say(error_line(f"{display}: {source.error.message}"))
        return None
    for diag in source.diagnostics:
        print_diagnostic(diag, display)
    errors = [d for d in source.diagnostics if not d.is_warning]
    if errors:
        if refusal is not None:
            message = ngettext("{n} syntax error; {refusal}", "{n} syntax errors; {refusal}", len(errors))
            say(f"raspis: {display}: " + message.format(n=len(errors), refusal=_(refusal)))
        return None
    return source, data

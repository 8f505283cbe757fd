"""``raspis validate``: replay every game and report every problem."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Annotated

import typer

from raspis_cli.cli.app import EXIT_ERROR, EXIT_OK, EXIT_VIOLATIONS, app
from raspis_cli.cli.console import stdout
from raspis_cli.cli.options import (
    EncodingOption,
    RulesOption,
    SetOption,
    ShardOption,
    check_encoding_option,
    check_format,
    rules_choice,
    shard_option,
)
from raspis_cli.cli.output import write_json, write_jsonl
from raspis_cli.cli.problems import render_diagnostic
from raspis_cli.files.paths import expand_paths
from raspis_cli.judge.check import FileReport, folder_without_records, validate_files
from raspis_cli.model.diagnostics import kind_counts
from raspis_cli.text.i18n import _, ngettext
from raspis_cli.text.textsafe import escape_text

__all__ = ["validate"]


def _summary(report: FileReport) -> str:
    games = len(report.results)
    deals = sum(r.deals for r in report.results)
    count = report.problem_count
    if report.error is not None:
        return f"{report.path}: {_('error')}: {report.error.message}"
    detail = kind_counts(report.kinds().elements())
    valid = sum(1 for r in report.results if r.valid)
    text = ", ".join((ngettext("{n} game", "{n} games", games).format(n=games),
                      ngettext("{n} deal", "{n} deals", deals).format(n=deals),
                      _("{n} valid").format(n=valid),
                      ngettext("{n} violation", "{n} violations", count).format(n=count)))
    text = f"{report.path}: {text}" + (f" ({detail})" if detail else "")
    warnings = report.warning_count
    return text + (", " + ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings)
                   if warnings else "")


@app.command("validate")
def validate(
    files: Annotated[list[str], typer.Argument(
        help=_("Record files or folders: notation (.rsp), .json, .jsonl; - for stdin."), metavar=_("FILE"))],
    preset: RulesOption = None,
    options: SetOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", metavar="text|json|jsonl",
                                     help=_("text, json or jsonl (one file object a line)."))] = "text",
    max_errors: Annotated[int | None, typer.Option("--max-errors", help=_("Print at most N problems."),
                                                   metavar="N",
                                                   min=0)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=_("Print only the summary lines."))] = False,
    encoding: EncodingOption = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help=_("Check in N processes (a large file is cut "
                                      "into pieces of whole games; the report is the same)."),
                                      metavar="N", min=1)] = 1,
    shard: ShardOption = None,
) -> None:
    """Check every bid, card and joker declaration against the rules.

    Exit status: 0 every game is valid, 1 violations were found, 2 a file
    could not be read or parsed at all.
    """
    check_format(fmt, ("text", "json", "jsonl"))
    choice = rules_choice(preset, options)
    check_encoding_option(encoding)
    reports = []
    part = shard_option(shard, files)
    for given in files:
        found = expand_paths([given])
        if not found and (part is None or part[0] == 0):  # one shard says it
            reports.append(folder_without_records(given))  # rather than pass silently
        reports += validate_files(found, choice, encoding, fmt != "text", jobs, part)
    if fmt == "json":
        write_json({"files": [r.to_json() for r in reports]})
    elif fmt == "jsonl":
        write_jsonl([r.to_json() for r in reports])
    else:
        _print_text(reports, max_errors, quiet)
    if any(r.error is not None for r in reports):
        raise typer.Exit(EXIT_ERROR)
    if any(r.problem_count for r in reports):
        raise typer.Exit(EXIT_VIOLATIONS)
    raise typer.Exit(EXIT_OK)


def _print_text(reports: list[FileReport], max_errors: int | None, quiet: bool) -> None:
    colour = stdout.is_terminal
    printed = 0
    hidden = 0
    for report in reports:
        source = report
        problems = report.problems()
        if source.error is not None and not quiet:
            error = source.error
            where = source.path + (f":{error.line}:{error.column or 1}" if error.line else "")
            _out(f"{where}: {_('error')}: {error.code}: {error.message}", colour)
        for problem in problems:
            if quiet:
                continue
            if max_errors is not None and printed >= max_errors:
                hidden += 1
                continue
            for line in render_diagnostic(problem, source.path, source.source_line(problem.line),
                                          colour, source.shifts.get(problem.line or 0, 0)):
                _out(line, colour, markup=colour)
            printed += 1
        if not quiet or report.problem_count or source.error:
            _out(_summary(report), colour)
    if hidden:
        _out(ngettext("... {n} more problem not shown (--max-errors)",
                      "... {n} more problems not shown (--max-errors)", hidden).format(n=hidden), colour)
    if len(reports) > 1:
        games = sum(len(r.results) for r in reports)
        count = sum(r.problem_count for r in reports)
        errors = sum(1 for r in reports if r.error is not None)
        kinds: Counter[str] = Counter()
        for r in reports:
            kinds.update(r.kinds())
        detail = kind_counts(kinds.elements())
        line = (_("total: {files}, {games}, {violations}").format(
                    files=ngettext("{n} file", "{n} files", len(reports)).format(n=len(reports)),
                    games=ngettext("{n} game", "{n} games", games).format(n=games),
                    violations=ngettext("{n} violation", "{n} violations", count).format(n=count))
                + (f" ({detail})" if detail else "")
                + (", " + _("{n} unreadable").format(n=errors) if errors else ""))
        _out(line, colour)


def _out(text: str, colour: bool, markup: bool = False) -> None:
    """One line of the report (record text in it escaped: textsafe)."""
    if not markup:
        text = escape_text(text)
    if colour:
        stdout.print(text, markup=markup, highlight=False)
    else:
        sys.stdout.write(text + "\n")

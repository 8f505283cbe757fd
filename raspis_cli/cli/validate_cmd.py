"""``raspis validate``: replay every game and report every problem."""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Annotated

import typer
from rich.markup import escape

from raspis_cli.cli.common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_VIOLATIONS,
    EncodingOption,
    RulesOption,
    SetOption,
    app,
    check_encoding_option,
    rules_choice,
    stdout,
    write_jsonl,
)
from raspis_cli.notation.grammar import Diagnostic as NotationDiagnostic
from raspis_cli.record import Pos
from raspis_cli.replay import Problem, RulesChoice, replay_game
from raspis_cli.sources import Diagnostic, GameStream, expand_paths
from raspis_cli.textsafe import cut_line, escape_text, show_source_line

__all__ = ["FileReport", "GameReport", "render_problem", "validate_file"]


@dataclass(slots=True)
class GameReport:
    """What the report keeps of one replayed game (not the game itself)."""

    index: int
    deals: int
    problems: list[Problem]
    json: dict[str, object] | None = None
    warnings: list[Problem] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """True when the replay found nothing wrong."""
        return not self.problems


@dataclass(slots=True)
class FileReport:
    """One file validated: per game what the report needs, syntax problems,
    or why the file could not be read; and the source lines problems point at."""

    path: str
    results: list[GameReport] = field(default_factory=list)
    syntax: list[Problem] = field(default_factory=list)
    error: Diagnostic | None = None
    lines: dict[int, str] = field(default_factory=dict)
    shifts: dict[int, int] = field(default_factory=dict)
    """Lines kept as an excerpt (textsafe.cut_line): what to subtract from a column."""

    def source_line(self, line: int | None) -> str | None:
        """The text of a source line a problem points at (an excerpt of a long one)."""
        return None if line is None else self.lines.get(line)

    def keep_line(self, number: int, text: str, column: int) -> None:
        """Keep (an excerpt around ``column`` of) a line a problem points at."""
        if number not in self.lines:
            self.lines[number], shift = cut_line(text, column)
            if shift:
                self.shifts[number] = shift

    @property
    def problem_count(self) -> int:
        """Violations of every kind, syntax included."""
        return sum(p.kind != "warning" for p in self.syntax) + sum(len(r.problems) for r in self.results)

    @property
    def warning_count(self) -> int:
        """Warnings: lines read one way of two, a date that cannot be read; not violations."""
        return sum(p.kind == "warning" for p in self.syntax) + sum(len(r.warnings) for r in self.results)

    def kinds(self) -> Counter[str]:
        """Violations counted by kind."""
        counts: Counter[str] = Counter(p.kind for p in self.syntax if p.kind != "warning")
        for result in self.results:
            counts.update(p.kind for p in result.problems)
        return counts

    def to_json(self) -> dict[str, object]:
        """The file object of ``validate --format json``."""
        out: dict[str, object] = {"path": self.path}
        if self.error is not None:
            out["error"] = _error_json(self.error)
        games = [r.json for r in self.results]
        if self.syntax:
            out["syntax"] = [p.to_json() for p in self.syntax]
        out["games"] = games
        return out


def _error_json(error: Diagnostic) -> dict[str, object]:
    out: dict[str, object] = {"message": error.message, "code": error.code}
    if error.line is not None:
        out["line"] = error.line
    if error.column is not None:
        out["column"] = error.column
    return out


def validate_file(path: str, choice: RulesChoice | None = None, encoding: str | None = None,
                  as_json: bool = False) -> FileReport:
    """Read and replay one file (``-`` is standard input) game by game: each
    game is replayed as soon as it is read and only what the report needs is
    kept (its problems and the lines they point at; with ``as_json`` its
    report object), so memory is bounded by the largest game."""
    stream = GameStream(path, encoding=encoding)
    report = FileReport(path)
    diags = stream.diagnostics
    seen = 0  # diagnostics before this index belong to earlier games
    claimed: set[int] = set()  # diagnostics reported as a game's violations
    for index, game in enumerate(stream):
        first, last = game.span or (1, 1 << 62)
        while seen < len(diags) and diags[seen].line < first:
            seen += 1
        inside = [d for d in diags[seen:] if d.line <= last]
        warnings = [d for d in inside if d.code.startswith("W")]
        inside = [d for d in inside if not d.code.startswith("W")]
        result = replay_game(game, index, choice, stream.ordered_bids, [d.line for d in inside])
        # a syntax error inside a game is one of that game's violations (kind "syntax")
        for d in inside + warnings:
            claimed.add(id(d))
        if inside:
            result.problems.extend(_syntax_problem(d) for d in inside)
            result.problems.sort(key=lambda p: (p.pos.line, p.pos.column) if p.pos else (1 << 62, 0))
        game_json = result.to_json() if as_json else None
        if game_json is not None and warnings:
            game_json["warnings"] = [_syntax_problem(d).to_json() for d in warnings]
        report.results.append(GameReport(index, len(game.deals), result.problems, game_json,
                                         [_syntax_problem(d) for d in warnings]))
        if not as_json:
            for problem in [*result.problems, *report.results[-1].warnings]:
                number = problem.pos.line if problem.pos is not None else None
                text = stream.line(number)
                if number is not None and text is not None and problem.pos is not None:
                    report.keep_line(number, text, problem.pos.column)
        del game, result
        stream.forget_through(last)
    if stream.error is not None:
        report.error = stream.error
    for d in diags:
        if d.source and d.line not in report.lines:
            report.lines[d.line] = d.source
            if d.shift:
                report.shifts[d.line] = d.shift
        if id(d) in claimed or (report.error is not None and (d.code, d.message, d.line, d.column) == (
                report.error.code, report.error.message, report.error.line, report.error.column)):
            continue
        report.syntax.append(_syntax_problem(d))
    return report


def _syntax_problem(d: NotationDiagnostic) -> Problem:
    kind = "warning" if d.code.startswith("W") else "syntax"
    return Problem(kind, f"{d.code}: {d.message}", pos=Pos(d.line, d.column or 1))


def render_problem(source: FileReport, problem: Problem, colour: bool) -> list[str]:
    """``file:line:col: kind: message`` with deal, trick and player, then the
    source line with a caret (rich markup when ``colour``)."""
    where = source.path
    if problem.pos is not None:
        where += f":{problem.pos.line}:{problem.pos.column}"
    context = []
    if problem.deal is not None:
        context.append(f"deal {problem.deal}")
    if problem.trick is not None:
        context.append(f"trick {problem.trick}")
    if problem.player is not None:
        context.append(problem.player)
    prefix = f"{', '.join(context)}: " if context else ""
    where, message = escape_text(where), escape_text(prefix + problem.message)
    if colour:
        head = (f"[bold]{escape(where)}:[/bold] [red]{escape(problem.kind)}:[/red] "
                f"{escape(message)}")
    else:
        head = f"{where}: {problem.kind}: {message}"
    lines = [head]
    if problem.pos is not None:
        text = source.source_line(problem.pos.line)
        if text is not None and text.strip():
            column = problem.pos.column - source.shifts.get(problem.pos.line, 0)
            shown, pad_to = show_source_line(text, max(column, 1))
            caret = pad_to + "^"
            gutter = f"{problem.pos.line:>5} | "
            lines.append(gutter + (escape(shown) if colour else shown))
            pad = " " * (len(gutter) - 2) + "| "
            lines.append(pad + (f"[green]{caret}[/green]" if colour else caret))
    return lines


def _summary(report: FileReport) -> str:
    games = len(report.results)
    deals = sum(r.deals for r in report.results)
    count = report.problem_count
    if report.error is not None:
        return f"{report.path}: error: {report.error.message}"
    kinds = report.kinds()
    detail = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
    valid = sum(1 for r in report.results if r.valid)
    text = (f"{report.path}: {games} game{'s' * (games != 1)}, {deals} deal{'s' * (deals != 1)}, "
            f"{valid} valid, {count} violation{'s' * (count != 1)}")
    text += f" ({detail})" if detail else ""
    warnings = report.warning_count
    return text + (f", {warnings} warning{'s' * (warnings != 1)}" if warnings else "")


@app.command("validate")
def validate(
    files: Annotated[list[str], typer.Argument(
        help="Record files or folders: notation (.rsp), .json, .jsonl; - for stdin.", metavar="FILE")],
    preset: RulesOption = None,
    options: SetOption = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="text, json or jsonl (one file object a line).",
                                     metavar="text|json|jsonl")] = "text",
    max_errors: Annotated[int | None, typer.Option("--max-errors", help="Print at most N problems.",
                                                   metavar="N",
                                                   min=0)] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the summary lines.")] = False,
    encoding: EncodingOption = None,
) -> None:
    """Check every bid, card and joker declaration against the rules.

    Exit status: 0 every game is valid, 1 violations were found, 2 a file
    could not be read or parsed at all.
    """
    if fmt not in ("text", "json", "jsonl"):
        raise typer.BadParameter(f"expected text, json or jsonl, got {fmt!r}", param_hint="--format")
    choice = rules_choice(preset, options)
    check_encoding_option(encoding)
    reports = []
    for given in files:
        found = expand_paths([given])
        if not found:  # a folder without record files: say so rather than pass silently
            empty = FileReport(given, error=Diagnostic("E001", "a folder without record files "
                                                       "(.rsp, .json, .jsonl)"))
            reports.append(empty)
        reports += [validate_file(path, choice, encoding, fmt != "text") for path in found]
    if fmt == "json":
        sys.stdout.write(json.dumps({"files": [r.to_json() for r in reports]}, ensure_ascii=False,
                                    indent=2) + "\n")
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
        problems: list[Problem] = list(report.syntax)
        for result in report.results:
            problems.extend(result.problems)
            problems.extend(result.warnings)
        problems.sort(key=lambda p: (p.pos.line, p.pos.column) if p.pos else (1 << 30, 0))
        if source.error is not None and not quiet:
            error = source.error
            where = source.path + (f":{error.line}:{error.column or 1}" if error.line else "")
            _out(f"{where}: error: {error.code}: {error.message}", colour)
        for problem in problems:
            if quiet:
                continue
            if max_errors is not None and printed >= max_errors:
                hidden += 1
                continue
            for line in render_problem(source, problem, colour):
                _out(line, colour, markup=colour)
            printed += 1
        if not quiet or report.problem_count or source.error:
            _out(_summary(report), colour)
    if hidden:
        _out(f"... {hidden} more problem{'s' * (hidden != 1)} not shown (--max-errors)", colour)
    if len(reports) > 1:
        games = sum(len(r.results) for r in reports)
        count = sum(r.problem_count for r in reports)
        errors = sum(1 for r in reports if r.error is not None)
        kinds: Counter[str] = Counter()
        for r in reports:
            kinds.update(r.kinds())
        detail = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        line = (f"total: {len(reports)} files, {games} games, {count} violations"
                + (f" ({detail})" if detail else "") + (f", {errors} unreadable" if errors else ""))
        _out(line, colour)


def _out(text: str, colour: bool, markup: bool = False) -> None:
    """One line of the report (record text in it escaped: textsafe)."""
    if not markup:
        text = escape_text(text)
    if colour:
        stdout.print(text, markup=markup, highlight=False)
    else:
        sys.stdout.write(text + "\n")

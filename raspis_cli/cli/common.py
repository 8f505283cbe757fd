"""What every command shares: the app, output formats, errors and exit codes."""

from __future__ import annotations

import contextlib
import math
import os
import sys
import traceback
from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Final, NoReturn, cast

import typer

from raspis_cli import __version__
from raspis_cli.rules import PRESETS, Rules, RulesError, parse_assignment
from raspis_cli.text.i18n import (
    N_,
    _,
    english_for_json,
    language,
    language_from_argv,
    ngettext,
    normalise_language,
    set_language,
)
from raspis_cli.text.textsafe import escape_text

if TYPE_CHECKING:
    from rich.console import Console

    from raspis_cli.files.sources import SourceFile
    from raspis_cli.judge.replay import RulesChoice
    from raspis_cli.model.diagnostics import Diagnostic

APP_HELP = N_("Validate, score and query game records of Raspisnoy poker (расписной покер).")

app = typer.Typer(
    name="raspis",
    help=_(APP_HELP),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_ERROR = 2


class _LazyConsole:
    """A rich Console made at first use (importing rich costs startup time
    that ``raspis --help`` and commands printing plain text need not pay)."""

    def __init__(self, *, stderr: bool) -> None:
        object.__setattr__(self, "_stderr", stderr)
        object.__setattr__(self, "_console", None)

    def _get(self) -> Console:
        console = object.__getattribute__(self, "_console")
        if console is None:
            from rich.console import Console

            to_stderr = object.__getattribute__(self, "_stderr")
            console = Console(stderr=to_stderr, highlight=False, soft_wrap=True)
            if not console.stderr and not console.is_terminal and "COLUMNS" not in os.environ:
                # a file or a pipe: tables as wide as they need, not folded at 80 columns
                console.width = 240
            object.__setattr__(self, "_console", console)
        return console  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        if name == "is_terminal" and object.__getattribute__(self, "_console") is None \
                and not object.__getattribute__(self, "_stderr"):
            from raspis_cli.cli.plaintable import plain_output

            if plain_output():  # a file or a pipe: no need to make the console to know it
                return False
        return getattr(self._get(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._get(), name, value)

    def __enter__(self) -> Any:  # special methods bypass __getattr__: rich's Progress enters the console
        return self._get().__enter__()

    def __exit__(self, *exc: Any) -> None:
        self._get().__exit__(*exc)


stdout: Console = cast("Console", _LazyConsole(stderr=False))
stderr: Console = cast("Console", _LazyConsole(stderr=True))


class TableFormat(StrEnum):
    """Output formats of commands that print rows."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


def fail(message: str, code: int = EXIT_ERROR) -> NoReturn:
    """Print ``raspis: error: MESSAGE`` on stderr (control characters
    escaped: messages quote names and paths) and exit."""
    say(error_line(message))
    raise typer.Exit(code)


def error_line(message: str) -> str:
    """``raspis: error: MESSAGE`` in the interface language."""
    return _("raspis: error: {message}").format(message=message)


def say(message: str) -> None:
    """Print one message on stderr as plain text, control characters escaped."""
    stderr.print(escape_text(message), markup=False)


def safe_markup(text: str) -> str:
    """Record text to put inside rich markup: control characters escaped
    (:func:`~raspis_cli.text.textsafe.escape_text`) and ``[`` not read as a tag."""
    from rich.markup import escape

    return escape(escape_text(text))


_STYLES = {"where": "bold", "label": "red", "caret": "green"}


def render_diagnostic(d: Diagnostic, path: str | None = None, source: str | None = None,
                      colour: bool = False, shift: int = 0) -> list[str]:
    """The lines of :func:`raspis_cli.model.diagnostics.render` (record text escaped);
    with ``colour``, as rich markup (the place bold, the kind red, the caret
    green). ``source`` is the line's text when the caller kept it (an excerpt
    when ``shift``: what to subtract from the column to point into it)."""
    from raspis_cli.model.diagnostics import render

    if not colour:
        return render(d, path, source, shift=shift)
    from rich.markup import escape

    def style(role: str, text: str) -> str:
        name = _STYLES.get(role)
        return f"[{name}]{escape(text)}[/{name}]" if name else escape(text)

    return render(d, path, source, style, shift)


def print_diagnostic(d: Diagnostic, path: str | None = None) -> None:
    """Show one diagnostic on standard error, with its source line and caret."""
    stderr.print("\n".join(render_diagnostic(d, path)), markup=False)


def read_source(name: str) -> tuple[bytes | None, str | None]:
    """The bytes of a file (``-`` is standard input), or an error message."""
    from raspis_cli.files.sources import describe_os_error, read_file_bytes

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


RecordFileArgument = Annotated[
    str, typer.Argument(help=_("A record file (notation, .json, .jsonl); - for stdin."), metavar=_("FILE"))
]
PresetArgument = Annotated[
    str, typer.Argument(help=_("A preset: {presets}.").format(presets=", ".join(PRESETS)),
                        metavar=_("PRESET"))
]
EncodingOption = Annotated[
    str | None,
    typer.Option("--encoding", help=_("The files' text encoding (default: detected: UTF-8 with or without "
                 "BOM, UTF-16 by its BOM, CP1251 when it reads as Russian)."), metavar=_("ENC")),
]


def check_encoding_option(encoding: str | None) -> None:
    """Fail with one clear line when ``--encoding`` names no text encoding."""
    if encoding:
        from raspis_cli.text.decoding import EncodingError, check_encoding

        try:
            check_encoding(encoding)
        except EncodingError as e:
            fail(f"--encoding: {e}")


ShardOption = Annotated[
    str | None,
    typer.Option("--shard", metavar="I/N",
                 help=_("Read only shard I of N (1/4 to 4/4): the files cut into pieces of whole games, "
                      "every N-th piece; N processes or machines, each with its own shard, read "
                      "everything once.")),
]


def shard_option(text: str | None, paths: list[str]) -> tuple[int, int] | None:
    """``--shard I/N`` as ``(I - 1, N)``, or ``None``; fails with one clear
    line for a malformed value or standard input among ``paths``."""
    if text is None:
        return None
    from raspis_cli.files.sources import parse_shard, refuse_stdin

    try:
        shard = parse_shard(text)
        refuse_stdin(paths)
    except ValueError as e:  # ShardError included
        fail(f"--shard: {e}")
    return shard


SamplesOption = Annotated[
    int, typer.Option("--samples", "-k", help=_("PIMC samples per bid advice (0: no advice)."), min=0,
                      metavar="K"),
]
SeedOption = Annotated[int, typer.Option("--seed", help=_("Seed of the PIMC samples."), metavar="S")]
BudgetOption = Annotated[
    int | None,
    typer.Option("--budget", help=_("Positions one question to the solver may visit (0: no limit; default: "
                                  "5,000,000 with numba, 200,000 without)."), min=0, metavar="N"),
]
"""The options of the double-dummy analysis (``analyze``, ``report --analyze``)."""

RulesOption = Annotated[
    str | None,
    typer.Option("--rules", "-r", metavar=_("PRESET"), help=_(
        "Replace the record's rules with a preset: {presets}.").format(presets=", ".join(PRESETS))),
]
SetOption = Annotated[
    list[str] | None,
    typer.Option("--set", "-s", help=_("Override an option: OPTION=VALUE (repeatable)."),
                 metavar=_("OPTION=VALUE")),
]


def rules_choice(preset: str | None, assignments: Sequence[str] | None) -> RulesChoice:
    """``--rules``/``--set`` as a :class:`RulesChoice`, checked now so that a
    bad option is one clear error before any file is read."""
    from raspis_cli.judge.replay import RulesChoice

    build_rules(preset, assignments)
    options: dict[str, object] = {}
    for text in assignments or ():
        name, value = parse_assignment(text)
        options[name] = value
    return RulesChoice(preset, options)


def check_format(fmt: str, allowed: Sequence[str]) -> str:
    """``--format``: one of ``allowed``, else one clear usage error (exit 2).
    JSON and JSON lines are a contract in English (docs/RECORD-JSON.md): their
    messages are built in English whatever the interface language."""
    if fmt in ("json", "jsonl") and fmt in allowed:
        english_for_json()
    if fmt not in allowed:
        listed = ", ".join(allowed[:-1]) + _(" or ") + allowed[-1] if len(allowed) > 1 else allowed[0]
        raise typer.BadParameter(_("expected {listed}, got {got}").format(listed=listed, got=repr(fmt)),
                                 param_hint="--format")
    return fmt


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


def print_rows(rows: Sequence[dict[str, Any]], fmt: str, title: str | None = None,
               round_numbers: bool = False, labels: bool = True) -> None:
    """Print rows (dicts with the same keys) as JSON (a list of objects), JSON
    lines, CSV (exact values) or a table of plain-text cells (record text
    escaped, never read as markup; numbers right-aligned and, with
    ``round_numbers``, :func:`rounded`). A table's headers are
    :func:`column_label` words in the interface language; with ``labels``
    False (``query``: the columns the SQL named) the keys themselves. JSON and
    CSV always keep the keys. Every command that prints rows prints them here."""
    if fmt == "json":
        write_json(list(rows))
        return
    if fmt == "jsonl":
        write_jsonl(list(rows))
        return
    columns = list(rows[0]) if rows else []
    header = column_label if labels else str
    if fmt == "csv":
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row[c] is None else _cell(row[c]) for c in columns])
        sys.stdout.write(buffer.getvalue())
        return
    heads = [escape_text(header(c)) for c in columns]
    texts = [["" if row[c] is None else escape_text(_cell(rounded(c, row[c]) if round_numbers else row[c]))
              for c in columns] for row in rows]
    if not stdout.is_terminal:
        from raspis_cli.cli.plaintable import box_table, plain_width

        text = box_table(heads, texts, escape_text(title) if title else None,
                         [_numeric(rows[0][c]) if rows else False for c in columns], plain_width())
        if text is not None:
            sys.stdout.write(text)
            return
    from rich.markup import escape
    from rich.table import Table

    from raspis_cli.cli.plaintable import fit_widths

    # wider than the terminal: the headers fold, not the values (a date, a name, a preset)
    widths = fit_widths(heads, texts, stdout.width)
    table = Table(title=title, show_lines=False)
    for i, column in enumerate(columns):
        numeric = _numeric(rows[0][column]) if rows else False
        table.add_column(escape(heads[i]), overflow="fold", justify="right" if numeric else "left",
                         width=widths[i] if widths else None)
    for cells in texts:
        table.add_row(*(escape(t) for t in cells))
    stdout.print(table)


COLUMN_LABELS: Final[dict[str, str]] = {
    # rules list / show / schedule
    "preset": N_("preset"), "players": N_("players"), "description": N_("description"),
    "option": N_("option"), "value": N_("value"), "meaning": N_("meaning"), "number": N_("number"),
    "cards": N_("cards"), "kind": N_("kind"), "dealer": N_("dealer"),
    # stats: the ratings and the leaderboard (Russian words as on the club page, report/strings.py)
    "pool": N_("pool"), "rank": N_("rank"), "player": N_("player"), "rating": N_("rating"),
    "uncertainty": N_("uncertainty"), "ordinal": N_("ordinal"), "games": N_("games"),
    "change": N_("change"), "last_date": N_("last game"), "rules": N_("rules"), "wins": N_("wins"),
    "win_rate": N_("win rate"), "mean_total": N_("mean total"), "deals": N_("deals"),
    "mean_per_deal": N_("mean per deal"), "relative_per_deal": N_("relative per deal"),
    # stats: bids, passes, the dealer, deal kinds, jokers, head to head
    "bids": N_("bids"), "exact_rate": N_("exact"), "under_rate": N_("under"), "over_rate": N_("over"),
    "mean_bid": N_("mean bid"), "mean_taken": N_("mean taken"), "bid_position": N_("seat"),
    "passes": N_("passes"), "made": N_("made"), "made_rate": N_("made rate"),
    "dealer_restriction": N_("dealer restriction"), "restricted": N_("restricted"),
    "player_deals": N_("player-deals"), "mean_score": N_("mean score"), "zero_rate": N_("took none"),
    "joker_mode": N_("declared"), "played_as": N_("played as"), "plays": N_("plays"), "won": N_("won"),
    "won_rate": N_("won rate"), "opponent": N_("opponent"), "ahead": N_("ahead"), "behind": N_("behind"),
    "level": N_("level"), "mean_margin": N_("mean margin"),
}
"""Column headers a table shows in the interface language (JSON and CSV keep the keys):
every column of every ``stats`` report and of ``rules``. A key missing here is shown
with spaces for underscores (``tests/test_stats_i18n.py`` checks that none is)."""


def column_label(column: str) -> str:
    """The header of a table column in the interface language (``win_rate`` ->
    ``win rate`` / ``доля побед``); a column without a label reads with spaces."""
    label = COLUMN_LABELS.get(column)
    return _(label) if label is not None else column.replace("_", " ")


def _numeric(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def rounded(column: str, value: object) -> object:
    """A number as a person reads it in a table: a ``*_rate`` as a percentage
    with one decimal, any other fraction with two decimals (JSON and CSV keep
    every digit)."""
    if isinstance(value, float) and math.isfinite(value):
        if column.endswith("_rate"):
            return f"{value:.1%}"
        return f"{value:.2f}"
    return value


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        import json

        return json.dumps(value, ensure_ascii=False)
    return str(value)


def write_json(data: object) -> None:
    """Print JSON on stdout: UTF-8, not ASCII-escaped, indented."""
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def write_jsonl(items: Sequence[object]) -> None:
    """Print JSON Lines on stdout: one compact JSON value per line."""
    import json

    sys.stdout.write("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items))


def _print_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"raspis {__version__}\n")
        raise typer.Exit(0)


def _root(
    version: Annotated[bool, typer.Option("--version", "-V", callback=_print_version, is_eager=True,
                                          help=_("Print the version and exit."))] = False,
    lang: Annotated[str | None, typer.Option("--lang", metavar="ru|en", help=_(
        "The interface language (default: from the locale: LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."))] = None,
) -> None:
    # the options are read before typer parses: --version by its callback, --lang by run_app
    pass

SUIT_LETTERS: Final = str.maketrans({"♠": "S", "♣": "C", "♦": "D", "♥": "H",
                                     "♤": "S", "♧": "C", "♢": "D", "♡": "H"})
"""Suit symbols as the letters the notation also reads (``10♥`` -> ``10H``)."""


class _SuitLetters:
    """A text stream whose console cannot show suit symbols: they are written
    as letters, and any other character it cannot show as ``?``."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.encoding = str(stream.encoding)  # rich reads it (an ASCII table box for CP1251)
        self.errors = "replace"

    def write(self, text: str) -> int:
        self._stream.write(text.translate(SUIT_LETTERS))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return bool(self._stream.isatty())

    def fileno(self) -> int:
        return int(self._stream.fileno())


def guard_console_encoding() -> None:
    """Make output never fail on the console's encoding (a Russian Windows
    console or ``> report.txt`` writes CP1251, which has no ♥): where standard
    output or error cannot encode the suit symbols, they are written as the
    letters S C D H and any other character it cannot encode as ``?``; one
    line on standard error says so."""
    changed = []
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        encoding = getattr(stream, "encoding", None) or "utf-8"
        try:
            "♠♣♦♥".encode(encoding)
            continue
        except (UnicodeEncodeError, LookupError):
            pass
        reconfigure = getattr(stream, "reconfigure", None)
        if callable(reconfigure):
            reconfigure(errors="replace")
        setattr(sys, name, _SuitLetters(stream))
        changed.append(encoding)
    if changed:
        sys.stderr.write("raspis: " + _(
            "the output encoding ({encoding}) has no suit symbols: suits are written as the letters "
            "S C D H (as the notation reads them), and other characters it cannot show as '?'"
        ).format(encoding=changed[0]) + "\n")


def run_app(argv: list[str]) -> int:
    """Run the app on these arguments and return the exit code; no traceback
    ever reaches the user unless ``--traceback`` is given or
    ``RASPIS_TRACEBACK=1`` is set. ``--lang ru|en`` anywhere chooses the
    interface language (``fmt`` keeps its own ``--lang`` too)."""
    show_traceback = "--traceback" in argv or os.environ.get("RASPIS_TRACEBACK") == "1"
    argv = [a for a in argv if a != "--traceback"]
    lang, argv = language_from_argv(list(argv), keep_after=("fmt",))
    if lang is not None and normalise_language(lang) is None:
        message = _("--lang: {value} is not a language raspis speaks (ru, en)").format(value=repr(lang))
        stderr.print(f"raspis: error: {message}", markup=False)
        return EXIT_ERROR
    set_language(lang, explicit=lang is not None)
    from raspis_cli.cli.registry import register_commands

    register_commands(argv)
    from raspis_cli.cli.typer_fixes import install

    install()
    if language() == "ru":
        from raspis_cli.cli.click_words import install as say_click_in_russian

        say_click_in_russian()
    app.info.help = _(APP_HELP)
    app.callback()(_root)
    try:
        result = app(args=argv, prog_name="raspis", standalone_mode=False)
    except typer.Exit as e:
        return int(e.exit_code or 0)
    except KeyboardInterrupt:
        stderr.print(_("raspis: interrupted"), markup=False)
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
            say(_("raspis: internal error: {error} (run with --traceback for details; please report it)")
                .format(error=f"{type(e).__name__}: {e}"))
        return EXIT_ERROR
    return result if isinstance(result, int) else 0

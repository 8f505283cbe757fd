"""The commands of ``raspis``, imported only when used.

Importing every command module costs seconds (DuckDB, Arrow, the notation's
grammar); ``raspis --help`` and ``raspis validate small.rsp`` need none of
what they do not use. So :data:`COMMANDS` lists each command's name, the
module that defines it and a one-line summary; :func:`register_commands`
imports only the module of the command being run and registers a light
stand-in (name and summary, never run) for every other one, so the listing
in ``raspis --help`` is complete and in this order.

To add a command: write ``raspis_cli/cli/NAME_cmd.py`` registering it on
``common.app`` (``@app.command("NAME")`` or ``app.add_typer``), keep heavy
imports inside the function bodies, and add one row here. The summary is a
msgid (translated with ``_()``); keep it to the first sentence of the help.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

import typer

from raspis_cli.cli.click_words import WordsGroup, use_words
from raspis_cli.text.i18n import N_, _, language

if TYPE_CHECKING:
    from typer._click.core import Context
    from typer._click.formatting import HelpFormatter

COMMAND_GROUPS: tuple[tuple[str, str], ...] = (
    ("table", N_("At the table")),
    ("records", N_("Records")),
    ("club", N_("Club")),
    ("analysis", N_("Analysis")),
    ("rules", N_("Rules")),
)
"""(group, its heading in ``raspis --help``) in the order of a scorekeeper's day: the
game at the table, the records it leaves, the club's history, analysis, the rules."""

COMMANDS: tuple[tuple[str, str, str, str], ...] = (
    ("new", "new_cmd", "table",
     N_("A blank sheet for a new game: the tags and one row per scheduled deal.")),
    ("live", "live_cmd", "table", N_("Keep the sheet as the game is played, one deal at a time.")),
    ("score", "score_cmd", "table",
     N_("The score sheet (расписка) recomputed, written values that differ shown.")),
    ("explain", "explain_cmd", "table",
     N_("Explain a sheet: each score as a formula, the fewest corrections.")),
    ("serve", "serve_cmd", "table", N_("Keep the sheet on every phone at the table: a small web server.")),
    ("app", "app_cmd", "table",
     N_("The sheet on one phone, offline: an installable web app that runs raspis's own checks in the "
        "browser.")),
    ("validate", "validate_cmd", "records",
     N_("Check every bid, card and joker declaration against the rules.")),
    ("show", "show_cmd", "records", N_("One deal replayed trick by trick.")),
    ("fmt", "fmt_cmd", "records",
     N_("Print the canonical text of notation files (or check or rewrite them).")),
    ("convert", "convert_cmd", "records",
     N_("Convert game records between the notation and JSON / JSONL.")),
    ("load", "store_cmd", "club", N_("Load game records into a DuckDB database, in one transaction.")),
    ("stats", "store_cmd", "club",
     N_("Ratings, leaderboard, bid accuracy, passes, the dealer, deal kinds, jokers.")),
    ("query", "store_cmd", "club", N_("Run SQL on the database and print the rows.")),
    ("report", "report_cmd", "club", N_("One self-contained HTML page of a game or of a club.")),
    ("export", "store_cmd", "club", N_("Export every table as Parquet, partitioned by year.")),
    ("analyze", "analyze_cmd", "analysis",
     N_("A double-dummy post-mortem of every deal whose hands are known.")),
    ("simulate", "simulate_cmd", "analysis", N_("Bots play complete legal games under any rules.")),
    ("rules", "rules_cmd", "rules", N_("The rule presets, their options and schedules.")),
)
"""(command, module in raspis_cli.cli, group of :data:`COMMAND_GROUPS`, summary) in the
order of ``raspis --help``. A new command is one row here, in its group."""

ROOT_FLAGS = frozenset({"--help", "-h", "--version", "-V", "--install-completion", "--show-completion"})



def invoked_command(argv: list[str]) -> str | None:
    """The command word of a command line (the first argument that is not a
    root option), or None (``raspis --help``, ``raspis --version``)."""
    for arg in argv:
        if arg.startswith("-"):
            continue
        return arg
    return None


def register_commands(argv: list[str]) -> None:
    """Import the module of the command ``argv`` runs (while the shell asks
    for completions, of the command on the line being completed, none while
    its word is typed; every module for a word that is no command, so that the
    error can suggest one) and stand in for the others."""
    from raspis_cli.cli.app import app
    from raspis_cli.cli.completing import completed_command, completing, typed_words

    known = {name for name, _module, _group, _summary in COMMANDS}
    if completing():
        wanted = completed_command(typed_words())
        load_all = False
    else:
        wanted = invoked_command(argv)
        load_all = wanted is not None and wanted not in known
    app.registered_commands[:] = [c for c in app.registered_commands
                                  if not getattr(c.callback, "stand_in", False)]
    for name, module, _group, _summary in COMMANDS:
        if load_all or name == wanted:
            # the import statement's own path (importlib.import_module's is unseen by
            # python -X importtime, which tests/test_startup.py reads)
            __import__(f"raspis_cli.cli.{module}")
    real = {c.name for c in app.registered_commands} | {g.name for g in app.registered_groups}
    for name, _module, _group, summary in COMMANDS:
        if name not in real:
            _stand_in(name, _(summary))
    rank = {name: i for i, (name, _module, _group, _summary) in enumerate(COMMANDS)}
    app.registered_commands.sort(key=lambda info: rank.get(info.name or "", len(rank)))
    app.info.cls = GroupedCommands
    use_words(app)
    translate_docstrings(app)


class GroupedCommands(WordsGroup):
    """``raspis --help`` with the commands under the headings of
    :data:`COMMAND_GROUPS` instead of one list."""

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        """One section per group, the commands in the order of :data:`COMMANDS`."""
        shown = {name: self.get_command(ctx, name) for name in self.list_commands(ctx)}
        rows = {name: command for name, command in shown.items()
                if command is not None and not command.hidden}
        if not rows:
            return
        widest = max(len(name) for name in rows)
        limit = formatter.width - 6 - widest
        group_of = {name: group for name, _module, group, _summary in COMMANDS}
        for group, heading in COMMAND_GROUPS:
            members = [(name.ljust(widest), command.get_short_help_str(limit))  # one column in all
                       for name, command in rows.items() if group_of.get(name) == group]
            if members:
                with formatter.section(_(heading)):
                    formatter.write_dl(members)
        others = [(name.ljust(widest), command.get_short_help_str(limit)) for name, command in rows.items()
                  if name not in group_of]
        if others:
            with formatter.section(_("Commands")):
                formatter.write_dl(others)


def translate_docstrings(app: typer.Typer) -> None:
    """Commands whose help is their docstring get it in the language in force
    (the docstring is the msgid; ``scripts/i18n_catalogue.py`` extracts it)."""
    if language() == "en":
        return
    for info in app.registered_commands:
        if info.help is None and info.callback is not None and info.callback.__doc__:
            info.help = _(inspect.cleandoc(info.callback.__doc__))
    for group in app.registered_groups:
        if group.typer_instance is not None:
            translate_docstrings(group.typer_instance)
            if isinstance(group.typer_instance.info.help, str):
                group.typer_instance.info.help = _(group.typer_instance.info.help)


def _stand_in(name: str, summary: str) -> None:
    from raspis_cli.cli.app import app

    def not_loaded() -> None:  # never run: the real command is imported when invoked
        raise RuntimeError(f"command {name} was not loaded")

    not_loaded.stand_in = True  # type: ignore[attr-defined]
    app.command(name, help=summary, short_help=summary, add_help_option=False)(not_loaded)

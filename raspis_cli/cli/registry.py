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

import importlib
import inspect
import os

import typer

from raspis_cli.text.i18n import N_, _, language

COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("fmt", "fmt_cmd", N_("Print the canonical text of notation files (or check or rewrite them).")),
    ("convert", "convert_cmd", N_("Convert game records between the notation and JSON / JSONL.")),
    ("validate", "validate_cmd", N_("Check every bid, card and joker declaration against the rules.")),
    ("score", "score_cmd", N_("The score sheet (расписка) recomputed, written values that differ shown.")),
    ("show", "show_cmd", N_("One deal replayed trick by trick.")),
    ("simulate", "simulate_cmd", N_("Bots play complete legal games under any rules.")),
    ("load", "store_cmd", N_("Load game records into a DuckDB database, in one transaction.")),
    ("stats", "store_cmd", N_("Ratings, leaderboard, bid accuracy, passes, the dealer, deal kinds, jokers.")),
    ("query", "store_cmd", N_("Run SQL on the database and print the rows.")),
    ("export", "store_cmd", N_("Export every table as Parquet, partitioned by year.")),
    ("rules", "rules_cmd", N_("The rule presets, their options and schedules.")),
    ("new", "new_cmd", N_("A blank sheet for a new game: the tags and one row per scheduled deal.")),
    ("live", "live_cmd", N_("Keep the sheet as the game is played, one deal at a time.")),
    ("serve", "serve_cmd", N_("Keep the sheet on every phone at the table: a small web server.")),
    ("explain", "explain_cmd", N_("Explain a sheet: each score as a formula, the fewest corrections.")),
    ("analyze", "analyze_cmd", N_("A double-dummy post-mortem of every deal whose hands are known.")),
    ("report", "report_cmd", N_("One self-contained HTML page of a game or of a club.")),
)
"""(command, module in raspis_cli.cli, summary) in the order of ``raspis --help``."""

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
    """Import the module of the command ``argv`` runs (every module while the
    shell asks for completions, or for a word that is no command, so that the
    error can suggest one) and stand in for the others."""
    from raspis_cli.cli.app import app

    completing = any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)
    wanted = invoked_command(argv)
    known = {name for name, _module, _summary in COMMANDS}
    load_all = completing or (wanted is not None and wanted not in known)
    app.registered_commands[:] = [c for c in app.registered_commands
                                  if not getattr(c.callback, "stand_in", False)]
    for name, module, _summary in COMMANDS:
        if load_all or name == wanted:
            importlib.import_module(f"raspis_cli.cli.{module}")
    real = {c.name for c in app.registered_commands} | {g.name for g in app.registered_groups}
    for name, _module, summary in COMMANDS:
        if name not in real:
            _stand_in(name, _(summary))
    rank = {name: i for i, (name, _module, _summary) in enumerate(COMMANDS)}
    app.registered_commands.sort(key=lambda info: rank.get(info.name or "", len(rank)))
    translate_docstrings(app)


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

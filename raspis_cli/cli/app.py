"""The ``raspis`` typer app and its exit codes: every command module registers on :data:`app`."""

from __future__ import annotations

import typer

from raspis_cli.text.i18n import N_, _

APP_HELP = N_("Validate, score and query game records of Raspisnoy poker (расписной покер).")

app = typer.Typer(
    name="raspis",
    help=_(APP_HELP),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

EXIT_OK = 0
EXIT_VIOLATIONS = 1
EXIT_ERROR = 2

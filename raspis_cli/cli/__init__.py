"""The ``raspis`` command line: one typer app, one module per command group.

Only this package imports typer and rich. The command modules are imported
when their command runs (:mod:`raspis_cli.cli.registry`), after the interface
language is chosen, so that their help texts are translated and ``raspis
--help`` does not pay for DuckDB or the notation's grammar.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``raspis`` console script. Ctrl-C before the
    command runs (a slow start on a busy machine) exits as it does during
    one: ``raspis: interrupted``, status 130, no traceback."""
    try:
        from raspis_cli.text.i18n import language_from_argv, normalise_language, set_language

        lang, _argv = language_from_argv(sys.argv[1:])
        if lang is not None and normalise_language(lang) is not None:
            set_language(lang, explicit=True)  # before common's help texts are built
        from raspis_cli.cli.runner import guard_console_encoding, run_app

        guard_console_encoding()
        code = run_app(sys.argv[1:])
    except KeyboardInterrupt:
        try:
            from raspis_cli.text.i18n import _

            sys.stderr.write(_("raspis: interrupted") + "\n")
        except KeyboardInterrupt:  # pragma: no cover - a second Ctrl-C at once
            pass
        code = 130
    sys.exit(code)


def __getattr__(name: str) -> Any:
    if name == "app":
        from raspis_cli.cli.app import app

        return app
    raise AttributeError(name)

"""Running the app: the root options, the console's encoding, the interface language, and no traceback."""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from typing import Annotated, Any, Final

import typer

from raspis_cli import __version__
from raspis_cli.cli.app import APP_HELP, EXIT_ERROR, app
from raspis_cli.cli.console import say, stderr
from raspis_cli.text.i18n import _, language_from_argv, normalise_language, set_language
from raspis_cli.text.messages import quoted


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


def _run(argv: list[str]) -> Any:
    """The app run on ``argv``; while the shell asks for completions, with
    the values of the options that have a fixed set of them offered."""
    from raspis_cli.cli.completing import completing, offer_values

    if not completing():
        return app(args=argv, prog_name="raspis", standalone_mode=False)
    command = typer.main.get_command(app)
    offer_values(command)
    return command(args=argv, prog_name="raspis", standalone_mode=False)


def interrupted(error: BaseException) -> bool:
    """True for DuckDB's word that Ctrl-C stopped a statement where no
    :func:`raspis_cli.store.db.interruptible` turned it into a
    :class:`KeyboardInterrupt` (opening the database, say): its
    ``InterruptException``, or the ``RuntimeError`` its Python client raises
    when it sees the signal itself."""
    return type(error).__name__ == "InterruptException" or (
        isinstance(error, RuntimeError) and str(error).strip().lower() == "query interrupted")


def run_app(argv: list[str]) -> int:
    """Run the app on these arguments and return the exit code; no traceback
    ever reaches the user unless ``--traceback`` is given or
    ``RASPIS_TRACEBACK=1`` is set. ``--lang ru|en`` anywhere chooses the
    interface language (``fmt`` keeps its own ``--lang`` too)."""
    show_traceback = "--traceback" in argv or os.environ.get("RASPIS_TRACEBACK") == "1"
    argv = [a for a in argv if a != "--traceback"]
    lang, argv = language_from_argv(list(argv), keep_after=("fmt",))
    if lang is not None and normalise_language(lang) is None:
        message = _("--lang: {value} is not a language raspis speaks (ru, en)").format(value=quoted(lang))
        stderr.print(f"raspis: error: {message}", markup=False)
        return EXIT_ERROR
    set_language(lang, explicit=lang is not None)
    try:  # a Ctrl-C while the command's modules load is an interrupt like any other
        from raspis_cli.cli.registry import register_commands

        register_commands(argv)
        from raspis_cli.cli.typer_fixes import install

        install()
        app.info.help = _(APP_HELP)
        app.callback()(_root)
        result = _run(argv)
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
        if interrupted(e):
            stderr.print(_("raspis: interrupted"), markup=False)
            return 130
        if callable(getattr(e, "show", None)) and hasattr(e, "exit_code"):
            from raspis_cli.cli.click_words import show_error

            show_error(e)
            return int(getattr(e, "exit_code", EXIT_ERROR) or EXIT_ERROR)
        if show_traceback:
            traceback.print_exc()
        else:
            say(_("raspis: internal error: {error} (run with --traceback for details; please report it)")
                .format(error=f"{type(e).__name__}: {e}"))
        return EXIT_ERROR
    return result if isinstance(result, int) else 0

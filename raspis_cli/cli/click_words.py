"""The words typer's own click shows (help sections, usage errors) in the interface language.

typer (0.2x) carries its own copy of click (``typer._click``) whose texts are
English f-strings, not gettext calls: ``Usage:``, ``Show this message and
exit.``, ``Error: No such option: --x``, ``Try 'raspis score --help' for
help.`` ... :func:`install` (run by :func:`~raspis_cli.cli.runner.run_app`
when the language is Russian) mends the few places they are made: the usage
line's prefix, the ``--help`` and completion options' help, typer's section
titles and ``[default: ...]`` / ``[required]`` (typer.core's gettext ``_``),
and the error a usage mistake prints, whose English sentence is matched
against :data:`SENTENCES` and said again from the catalogue. A sentence no
pattern knows (pydantic's ``Input should be ...``) is shown as it is. When
typer's internals are not the ones this was written for, nothing is changed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from raspis_cli.text.i18n import N_, _

__all__ = ["SENTENCES", "install", "translate_sentence"]

_NAME = r"(?P<name>'[^']*'(?: / '[^']*')*)"  # '--to' / '-t'

SENTENCES: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(rf"Missing argument {_NAME}\.(?P<rest>.*)", re.S), N_("Missing argument {name}.")),
    (re.compile(rf"Missing option {_NAME}\.(?P<rest>.*)", re.S), N_("Missing option {name}.")),
    (re.compile(r"Missing parameter: (?P<name>.+?)(?P<rest>)", re.S), N_("Missing parameter {name}.")),
    (re.compile(r"No such option: (?P<name>\S+)(?P<rest>.*)", re.S), N_("No such option: {name}")),
    (re.compile(rf"No such command {_NAME}\.(?P<rest>.*)", re.S), N_("No such command {name}.")),
    (re.compile(r"Got unexpected extra argument\(s\) \((?P<name>.*)\)(?P<rest>)", re.S),
     N_("Got unexpected extra argument(s) ({name})")),
    (re.compile(r"Option (?P<name>'[^']*') requires an argument\.(?P<rest>)", re.S),
     N_("Option {name} requires an argument.")),
    (re.compile(r"Option (?P<name>'[^']*') requires \d+ arguments\.(?P<rest>)", re.S),
     N_("Option {name} requires an argument.")),
    (re.compile(r"Option (?P<name>'[^']*') does not take a value\.(?P<rest>)", re.S),
     N_("Option {name} does not take a value.")),
    (re.compile(r"Invalid value for (?P<name>.+?): (?P<rest>.*)", re.S), N_("Invalid value for {name}:")),
    (re.compile(r"Invalid value: (?P<name>)(?P<rest>.*)", re.S), N_("Invalid value:")),
    (re.compile(r"Missing command\.(?P<name>)(?P<rest>)", re.S), N_("Missing command.")),
)
"""typer's click sentences (a regular expression with the part to keep,
``name``, and what follows, ``rest``) and the msgid each is said with."""

TAILS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"^\s*Choose from:(?P<name>\s.*)$", re.S), N_("Choose from:")),
    (re.compile(r"^\s*Did you mean (?P<name>.+)\?$", re.S), N_("Did you mean {name}?")),
    (re.compile(r"^\s*\(Possible options: (?P<name>.+)\)$", re.S), N_("(Possible options: {name})")),
)
"""What may follow a sentence: the choices of an option, a suggestion."""

VALUES: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"Input should be a valid integer\b.*", re.S), N_("expected a whole number")),
    (re.compile(r"Input should be a valid number\b.*", re.S), N_("expected a number")),
    (re.compile(r"Input should be greater than or equal to (?P<low>\S+)"), N_("expected at least {low}")),
    (re.compile(r"Input should be less than or equal to (?P<high>\S+)"), N_("expected at most {high}")),
    (re.compile(r"(?:Value error, )?(?P<got>.+?) is not one of (?P<choices>.+?)\.?"),
     N_("{got} is not one of {choices}")),
)
"""Why a value was refused (pydantic's words, through typer) after ``Invalid value for X:``."""

WORDS: Final = (N_("Usage: "), N_("Show this message and exit."), N_("Error: {message}"),
                N_("Try '{command} {option}' for help."),
                N_("Install completion for the current shell."),
                N_("Show completion for the current shell, to copy it or customize the installation."),
                # typer.core's own gettext calls
                N_("Arguments"), N_("Options"), N_("Commands"), N_("default: {default}"), N_("required"),
                N_("Aborted!"), N_("(dynamic)"), N_("env var: {var}"),
                # the usage line's placeholders
                N_("[OPTIONS]"), N_("COMMAND [ARGS]..."))
"""The fixed words: the usage line, the help option, the error's frame, typer's sections."""

_installed = False


def _tail(rest: str) -> str:
    text = rest.strip()
    if not text:
        return ""
    for pattern, msgid in TAILS:
        found = pattern.match(text)
        if found:
            name = found.group("name")
            if msgid == "Choose from:":
                return " " + _(msgid) + name
            return " " + _(msgid).format(name=name)
    return " " + text


def _why(text: str) -> str:
    for pattern, msgid in VALUES:
        found = pattern.fullmatch(text.strip())
        if found:
            return _(msgid).format(**found.groupdict())
    return text


def translate_sentence(message: str) -> str:
    """An error sentence of typer's click in the interface language; a sentence
    no pattern of :data:`SENTENCES` knows, as it is."""
    for pattern, msgid in SENTENCES:
        found = pattern.fullmatch(message)
        if found:
            name, rest = found.group("name"), found.group("rest")
            if msgid in ("Invalid value for {name}:", "Invalid value:"):
                return _(msgid).format(name=name) + " " + _why(rest)
            return _(msgid).format(name=name) + _tail(rest)
    return message


def _wrap(owner: Any, attribute: str, make: Callable[[Any], Any]) -> None:
    setattr(owner, attribute, make(getattr(owner, attribute)))


def install() -> None:
    """Say typer's click texts in the interface language (once; nothing when
    typer is not the one this was written for)."""
    global _installed
    if _installed:
        return
    _installed = True
    try:
        import typer.core as typer_core
        import typer.main as typer_main
        from typer._click import core as click_core
        from typer._click import exceptions, formatting
        from typer._click.utils import echo
    except ImportError:
        return
    needed = [(formatting.HelpFormatter, "write_usage"), (click_core.Command, "get_help_option"),
              (typer_main, "get_install_completion_arguments"), (exceptions.ClickException, "show"),
              (exceptions.UsageError, "show"), (typer_core, "_"),
              (click_core.Command, "collect_usage_pieces"), (typer_core, "TyperGroup")]
    if not all(hasattr(owner, name) for owner, name in needed):
        return

    typer_core._ = _  # type: ignore[attr-defined]  # its sections, [default: ...], [required]

    def usage(original: Callable[..., None]) -> Callable[..., None]:
        def write_usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
            original(self, prog, args, _("Usage: ") if prefix is None else prefix)
        return write_usage

    def help_option(original: Callable[..., Any]) -> Callable[..., Any]:
        def get_help_option(self: Any, ctx: Any) -> Any:
            option = original(self, ctx)
            if option is not None and isinstance(option.help, str):
                option.help = _(option.help)
            return option
        return get_help_option

    def completion(original: Callable[[], Any]) -> Callable[[], Any]:
        def get_install_completion_arguments() -> Any:
            params = original()
            for param in params:
                if isinstance(getattr(param, "help", None), str):
                    param.help = _(param.help)
            return params
        return get_install_completion_arguments

    def say_error(error: Any, file: Any, color: Any) -> None:
        echo(_("Error: {message}").format(message=translate_sentence(error.format_message())),
             file=file, err=file is None, color=color)

    def show_click(self: Any, file: Any = None) -> None:
        say_error(self, file, getattr(self, "show_color", None))

    def show_usage(self: Any, file: Any = None) -> None:
        ctx = self.ctx
        color = None
        if ctx is not None:
            hint = ""
            if ctx.command.get_help_option(ctx) is not None:
                hint = _("Try '{command} {option}' for help.").format(
                    command=ctx.command_path, option=ctx.help_option_names[0]) + "\n"
            color = ctx.color
            echo(f"{ctx.get_usage()}\n{hint}", file=file, err=file is None, color=color)
        say_error(self, file, color)

    def pieces(original: Callable[..., list[str]]) -> Callable[..., list[str]]:
        def collect_usage_pieces(self: Any, ctx: Any) -> list[str]:
            return [_(piece) for piece in original(self, ctx)]
        return collect_usage_pieces

    _wrap(formatting.HelpFormatter, "write_usage", usage)
    _wrap(click_core.Command, "collect_usage_pieces", pieces)
    _wrap(typer_core.TyperGroup, "collect_usage_pieces", pieces)
    _wrap(click_core.Command, "get_help_option", help_option)
    _wrap(typer_main, "get_install_completion_arguments", completion)
    exceptions.ClickException.show = show_click  # type: ignore[method-assign]
    exceptions.UsageError.show = show_usage  # type: ignore[method-assign]

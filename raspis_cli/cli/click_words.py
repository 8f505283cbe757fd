"""The words typer's own click shows (help sections, usage errors) in the interface language.

typer (0.2x) carries its own copy of click (``typer._click``) whose texts are
English f-strings, not gettext calls: ``Usage:``, ``Show this message and
exit.``, ``Error: No such option: --x``, ``Try 'raspis score --help' for
help.`` ... Nothing of typer is patched: a thin layer of ours over click's
public classes says them in the language in force.

- :class:`WordsCommand` and :class:`WordsGroup`, the classes typer builds
  every command and group of raspis with (typer's ``cls=``; set by
  :func:`use_words`), make their contexts with :class:`WordsContext`, whose
  ``formatter_class`` is :class:`WordsFormatter`: the usage line's prefix,
  typer's section titles and the ``[default: ...]`` / ``[required]`` after an
  option's help in the interface language; they translate the usage line's
  placeholders and the help of the ``--help`` and completion options.
- :func:`show_error` is how :func:`~raspis_cli.cli.runner.run_app` shows a
  usage mistake: the English sentence of click's error is matched against
  :data:`SENTENCES` and said again from the catalogue. A sentence no pattern
  knows (pydantic's ``Input should be ...``) is shown as it is. In English
  the error shows itself, as click writes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

import typer
import typer.core

from raspis_cli.text.i18n import N_, _, language

if TYPE_CHECKING:
    from typer._click.core import Context, Parameter
    from typer._click.formatting import HelpFormatter as _Formatter
else:
    _Formatter = typer.Context.formatter_class  # click's HelpFormatter, as typer's Context names it

__all__ = ["SENTENCES", "WordsCommand", "WordsContext", "WordsFormatter", "WordsGroup", "show_error",
           "translate_sentence", "use_words"]

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


_SECTIONS: Final = frozenset({"Arguments", "Options", "Commands"})
"""typer's section titles (typer.core's gettext calls, which find no catalogue of ours)."""

_PIECES: Final = frozenset({"[OPTIONS]", "COMMAND [ARGS]..."})
"""The usage line's placeholders."""

_OWN_HELP: Final = frozenset({
    "Show this message and exit.", "Install completion for the current shell.",
    "Show completion for the current shell, to copy it or customize the installation."})
"""The help of the options click and typer add: ``--help`` and the completion options."""

_EXTRAS = re.compile(r"(?P<help>.*?)(?P<gap>\s*)\[(?P<extra>[^\[\]]*)\]", re.S)
_EXTRA_WORDS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (re.compile(r"default: (?P<default>.*)", re.S), N_("default: {default}")),
    (re.compile(r"env var: (?P<var>.*)", re.S), N_("env var: {var}")),
    (re.compile(r"required"), N_("required")),
)
"""What typer writes between brackets after an option's help, and the msgid of each."""


def _extra(item: str) -> str:
    for pattern, msgid in _EXTRA_WORDS:
        found = pattern.fullmatch(item)
        if found:
            values = {k: _(v) if v == "(dynamic)" else v for k, v in found.groupdict().items()}
            return _(msgid).format(**values)
    return item


def _with_extras(help_text: str) -> str:
    """An option's help with typer's ``[default: x; required]`` in the interface language."""
    found = _EXTRAS.fullmatch(help_text)
    if found is None:
        return help_text
    extras = "; ".join(_extra(item) for item in found.group("extra").split("; "))
    return f"{found.group('help')}{found.group('gap')}[{extras}]"


class WordsFormatter(_Formatter):
    """click's help formatter with typer's and click's own words in the interface language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        """The usage line, its prefix (``Usage: ``) in the interface language."""
        super().write_usage(prog, args, _("Usage: ") if prefix is None else prefix)

    @contextmanager
    def section(self, name: str) -> Iterator[None]:
        """A section of the help, typer's titles (``Options``) in the interface language."""
        with super().section(_(name) if name in _SECTIONS else name):
            yield

    def write_dl(self, rows: Sequence[tuple[str, str]], *args: Any, **kwargs: Any) -> None:
        """The rows of a section, typer's ``[default: ...]`` / ``[required]`` in the interface language."""
        super().write_dl([(term, _with_extras(text)) for term, text in rows], *args, **kwargs)


class WordsContext(typer.Context):
    """click's context, its help written by :class:`WordsFormatter`."""

    formatter_class = WordsFormatter


class _Words:
    """What :class:`WordsCommand` and :class:`WordsGroup` add to typer's classes."""

    context_class: type[Context] = WordsContext

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        """The usage line's pieces, click's placeholders (``[OPTIONS]``) in the interface language."""
        pieces: list[str] = super().collect_usage_pieces(ctx)  # type: ignore[misc]
        return [_(piece) if piece in _PIECES else piece for piece in pieces]

    def get_params(self, ctx: Context) -> list[Parameter]:
        """The parameters, the help of ``--help`` and the completion options in the interface language."""
        params: list[Parameter] = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            text = getattr(param, "help", None)
            if isinstance(text, str) and text in _OWN_HELP:
                param.help = _(text)  # type: ignore[attr-defined]
        return params


class WordsCommand(_Words, typer.core.TyperCommand):
    """A typer command that speaks the interface language in its help and usage line."""


class WordsGroup(_Words, typer.core.TyperGroup):
    """A typer group that speaks the interface language in its help and usage line."""


def use_words(app: typer.Typer) -> None:
    """Build every command and group of ``app`` (and of its sub-apps) with
    :class:`WordsCommand` / :class:`WordsGroup` (typer's ``cls=``), unless one
    names a class of its own (typer's own classes are its defaults)."""
    if not isinstance(app.info.cls, type) or app.info.cls is typer.core.TyperGroup:
        app.info.cls = WordsGroup
    for info in app.registered_commands:
        if not isinstance(info.cls, type) or info.cls is typer.core.TyperCommand:
            info.cls = WordsCommand
    for group in app.registered_groups:
        if group.typer_instance is not None:
            use_words(group.typer_instance)


def show_error(error: Any) -> None:
    """Show a click error (a usage mistake: ``raspis score --nosuch``) on
    standard error: in English as click writes it; in Russian the usage line,
    the hint and the sentence from the catalogue. An error with a way of its
    own to show itself (a group given no command shows its help) shows itself."""
    shown_by = next(k for k in type(error).__mro__ if "show" in vars(k))
    if language() == "en" or shown_by.__name__ not in ("ClickException", "UsageError"):
        error.show()  # English, or an error shown its own way (no command given: the help)
        return
    ctx = getattr(error, "ctx", None)
    color = getattr(error, "show_color", None)
    if ctx is not None:
        hint = ""
        if ctx.command.get_help_option(ctx) is not None:
            hint = _("Try '{command} {option}' for help.").format(
                command=ctx.command_path, option=ctx.help_option_names[0]) + "\n"
        color = ctx.color
        typer.echo(f"{ctx.get_usage()}\n{hint}", err=True, color=color)
    typer.echo(_("Error: {message}").format(message=translate_sentence(error.format_message())),
               err=True, color=color)

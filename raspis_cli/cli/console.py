"""The two consoles (standard output and error), made at first use, and the one way to say an error."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, NoReturn, cast

import typer

from raspis_cli.cli.app import EXIT_ERROR
from raspis_cli.text.i18n import _
from raspis_cli.text.textsafe import escape_text

if TYPE_CHECKING:
    from rich.console import Console


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


def how_to_install(extra: str) -> str:
    """How to add the optional part ``extra`` of raspis (on no package index:
    from its checkout), in the interface language."""
    return _("`pip install -e '.[{extra}]'` in raspis's checkout, with its venv's pip (or `pipx install "
             "--force '.[{extra}]'` there)").format(extra=extra)


def need_modules(modules: tuple[str, ...], message: str) -> None:
    """Fail with ``message`` when any of ``modules`` (an optional part of raspis) is not installed."""
    import importlib.util

    if any(importlib.util.find_spec(name) is None for name in modules):
        fail(message)


def safe_markup(text: str) -> str:
    """Record text to put inside rich markup: control characters escaped
    (:func:`~raspis_cli.text.textsafe.escape_text`) and ``[`` not read as a tag."""
    from rich.markup import escape

    return escape(escape_text(text))


def shell_command(*words: str) -> str:
    """A command to type, as a hint names it (``raspis live 'вечер у Ани.rsp'``):
    each word as it is when a shell reads it so (letters of any script, digits,
    ``@%+=:,./-_``), else quoted (``shlex.quote``)."""
    import re
    import shlex

    return " ".join(word if re.fullmatch(r"[\w@%+=:,./-]+", word) else shlex.quote(word) for word in words)

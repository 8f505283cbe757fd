"""Shell completion: which command the shell asks about, and the values it is offered.

A Tab press runs ``raspis`` with the line typed so far in the environment
(typer's completion scripts: ``COMP_WORDS`` and ``COMP_CWORD`` for bash,
``_TYPER_COMPLETE_ARGS`` for zsh, fish and PowerShell).
:func:`completed_command` reads the command word from it, so that only that
command's module is imported (none while the command word itself is being
typed: the stand-ins of :mod:`raspis_cli.cli.registry` give the names and
summaries). :func:`offer_values` gives the options and arguments with a fixed
set of values their completions: a metavar that lists them (``text|json``,
``ru|en``), the rule presets after ``--rules``, ``--compare`` and ``rules show``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

PRESET_OPTIONS = frozenset({"--rules", "--compare"})
"""The options whose value is a rule preset."""

PRESET_ARGUMENTS = frozenset({"preset"})
"""The arguments (by parameter name) whose value is a rule preset."""


def completing() -> bool:
    """True when the shell runs ``raspis`` for completions (``_RASPIS_COMPLETE`` set)."""
    return any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)


def _split(line: str) -> list[str]:
    """The words of a command line as the shell would split them (an unclosed quote tolerated)."""
    import shlex

    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    try:
        for word in lexer:
            words.append(word)
    except ValueError:  # an unclosed quote: the word being typed
        words.append(lexer.token)
    return words


def typed_words() -> list[str]:
    """The finished words after the program's name on the line being
    completed (the word under the cursor left out), as typer's completion
    classes read them from the environment."""
    if "COMP_WORDS" in os.environ:  # bash
        words = _split(os.environ["COMP_WORDS"])
        try:
            cword = int(os.environ.get("COMP_CWORD", ""))
        except ValueError:
            cword = len(words)
        return words[1:cword]
    line = os.environ.get("_TYPER_COMPLETE_ARGS", "")
    words = _split(line)[1:]
    if "_TYPER_COMPLETE_WORD_TO_COMPLETE" in os.environ:  # PowerShell
        return words[:-1] if os.environ["_TYPER_COMPLETE_WORD_TO_COMPLETE"] else words
    return words if line.endswith(" ") or not words else words[:-1]


def completed_command(words: Iterable[str]) -> str | None:
    """The command word among the finished words (``--lang X`` and other
    root options skipped), or None while it is still being typed."""
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word == "--lang":
            skip = True
            continue
        if word.startswith("-"):
            continue
        return word
    return None


def _starting(values: Callable[[], Iterable[str]]) -> Callable[[Any, Any, str], list[str]]:
    """A completion function: the values (asked for only when completing) that start with the word typed."""

    def complete(_ctx: Any, _param: Any, incomplete: str) -> list[str]:
        return [v for v in values() if v.startswith(incomplete)]

    return complete


def _presets() -> list[str]:
    from raspis_cli.rules import PRESETS

    return list(PRESETS)


def listed_values(metavar: str | None) -> list[str]:
    """The values a metavar lists (``text|json|jsonl`` -> text, json, jsonl); none for any other."""
    if not metavar or "|" not in metavar:
        return []
    values = metavar.strip("[]").split("|")
    return values if all(v and v.replace("-", "").isalnum() for v in values) else []


def offer_values(command: Any) -> None:
    """Give every parameter of this click command (and of its subcommands)
    whose values are a fixed set a completion of them, unless it has its own."""
    for param in getattr(command, "params", []):
        if getattr(param, "_custom_shell_complete", None) is not None:
            continue
        opts = set(getattr(param, "opts", ()))
        if opts & PRESET_OPTIONS or (getattr(param, "param_type_name", "") == "argument"
                                     and param.name in PRESET_ARGUMENTS):
            param._custom_shell_complete = _starting(_presets)
        elif values := listed_values(getattr(param, "metavar", None)):
            param._custom_shell_complete = _starting(values.copy)
    for sub in getattr(command, "commands", {}).values():
        offer_values(sub)

"""The options several commands share (rules, encoding, shards, formats, the analysis) and their checks."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from raspis_cli.cli.app import EXIT_ERROR
from raspis_cli.cli.console import fail
from raspis_cli.rules import PRESETS, Rules, RulesError, parse_assignment
from raspis_cli.text.i18n import _
from raspis_cli.text.messages import quoted

if TYPE_CHECKING:
    from decimal import Decimal

    from raspis_cli.judge.replay import RulesChoice


class TableFormat(StrEnum):
    """Output formats of commands that print rows."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


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
    from raspis_cli.files.pieces import parse_shard, refuse_stdin

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
    typer.Option("--budget", help=_("Positions one question to the solver, or one player's bid advice in a "
                                  "deal, may visit (0: no limit; default: no limit with numba, 200,000 "
                                  "without)."), min=0, metavar="N"),
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
    JSON and JSON lines are a contract in English (docs/RECORD-JSON.md):
    :func:`~raspis_cli.cli.output.write_json` writes every message's
    canonical text, whatever the interface language."""
    if fmt not in allowed:
        listed = ", ".join(allowed[:-1]) + _(" or ") + allowed[-1] if len(allowed) > 1 else allowed[0]
        raise typer.BadParameter(_("expected {listed}, got {got}").format(listed=listed, got=quoted(fmt)),
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


def parse_stake(text: str) -> Decimal:
    """``--stake``: money per point (``0.1``, ``0,1``), or a failure with one line."""
    from decimal import Decimal, InvalidOperation

    try:
        money = Decimal(text.replace(",", "."))
    except InvalidOperation:
        money = Decimal(0)
    if not money.is_finite() or money <= 0:
        fail("--stake: " + _("{value} is not an amount of money per point (e.g. 0.1)").format(
            value=quoted(text)))
    return money


ForceOption = Annotated[bool, typer.Option("--force", help=_("Overwrite the output file if it exists."))]


def check_output(output: str | None, inputs: Sequence[str] = (), force: bool = False) -> None:
    """Exit 2 when ``output`` may not be written
    (:func:`raspis_cli.files.outputs.output_refusal`): one of the inputs,
    a folder, or an existing file without ``--force``. ``None`` or ``-``:
    standard output."""
    if output is None:
        return
    from raspis_cli.files.outputs import output_refusal

    message = output_refusal(output, inputs, force)
    if message is not None:
        fail(message.shown())


def player_name(word: str, players: Sequence[str], option: str, unknown: str) -> str:
    """The player ``word`` (typed after ``option``) names among ``players``, matched
    as :func:`~raspis_cli.text.suggest.match_name` matches (any case, Cyrillic or
    Latin letters); else a usage error, exit 2: ``option: UNKNOWN; did you mean
    …?`` (or the players listed). ``unknown`` is the sentence that says who is
    not there (``no player 'X' in club.duckdb``). Every command that takes a
    player's name reads it here."""
    from raspis_cli.text.suggest import match_name

    found = match_name(word, players)
    if found.name is not None:
        return found.name
    message = f"{option}: {unknown}"
    if found.close:
        message += _("; did you mean {names}?").format(names=", ".join(found.close))
    elif players:
        listed = ", ".join(players[:10]) + (", …" if len(players) > 10 else "")
        message += _("; the players are {names}").format(names=listed)
    fail(message, code=EXIT_ERROR)

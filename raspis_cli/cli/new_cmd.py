"""``raspis new``: a blank score sheet, one row per scheduled deal, to fill in."""

from __future__ import annotations

import datetime
import sys
from collections.abc import Sequence
from typing import Annotated

import typer

from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail, say, shell_command
from raspis_cli.cli.options import ForceOption, RulesOption, SetOption, build_rules, check_output, player_name
from raspis_cli.rules import parse_assignment
from raspis_cli.text.i18n import _, explicit_language, ngettext
from raspis_cli.text.messages import quoted

PlayersOption = Annotated[
    str,
    typer.Option("--players", "-p", help=_('The players in clockwise seating order, separated by commas: '
                 '"Анна, Борис, Вера, Дима".'), metavar=_("NAMES")),
]
DealerOption = Annotated[
    str | None,
    typer.Option("--dealer", help=_("Who deals first (default: the first player)."), metavar=_("NAME")),
]


def sheet_options(assignments: list[str] | None) -> dict[str, object]:
    """``--set OPTION=VALUE`` as the record's options (checked by build_rules first)."""
    out: dict[str, object] = {}
    for text in assignments or ():
        name, value = parse_assignment(text)
        out[name] = value
    return out


def sheet_language(lines: list[str] | None = None) -> str:
    """The language a sheet is written in: that of its ``lines`` (an existing
    file), else the one ``--lang`` named, else English (a locale alone never
    changes what is stored)."""
    from raspis_cli.notation.writer import written_language

    asked = explicit_language() or "en"
    return asked if lines is None else written_language(lines, asked)


def write_file_atomically(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` as one step, or fail with one line."""
    from raspis_cli.files.atomic import write_atomic

    try:
        write_atomic(path, text.encode("utf-8"))
    except OSError as e:
        fail(_("{file}: cannot write: {reason}").format(file=path, reason=e.strerror or e))


def first_dealer(dealer: str, names: Sequence[str]) -> str:
    """The player ``--dealer`` names (any case, Cyrillic or Latin letters), or a
    usage error with the closest names."""
    return player_name(dealer, names, "--dealer", _("{name} is not one of the players").format(
        name=quoted(dealer)))


@app.command("new")
def new(
    players: PlayersOption,
    rules: RulesOption = None,
    options: SetOption = None,
    output: Annotated[str | None, typer.Option("--output", "-o", help=_("Write the sheet to FILE "
                                               "(default: standard output)."), metavar=_("FILE"))] = None,
    dealer: DealerOption = None,
    event: Annotated[str | None, typer.Option("--event", help=_("The Event tag."), metavar=_("TEXT"))] = None,
    date: Annotated[str | None, typer.Option("--date", help=_("The Date tag (default: today, "
                                             "YYYY-MM-DD; '' for none)."), metavar=_("DATE"))] = None,
    force: ForceOption = False,
) -> None:
    """A blank sheet for a new game: the tags and one row per scheduled deal
    (number, cards, kind, dealer) with empty cells, marked unfinished
    (in Russian with --lang ru).

    Fill it in with `raspis live FILE` (deal by deal) or in an editor.
    """

    from raspis_cli.notation import NotationWriteError, write_game
    from raspis_cli.sheet.blank import SheetError, blank_game, parse_players

    built = build_rules(rules, options)
    try:
        names = parse_players(players)
        if dealer is not None:
            dealer = first_dealer(dealer, names)
        tags: dict[str, str] = {}
        if event:
            tags["Event"] = event
        day = datetime.date.today().isoformat() if date is None else date
        if day:
            tags["Date"] = day
        game = blank_game(built, names, rules or "raspisnoy", sheet_options(options), tags, dealer)
        text = write_game(game, sheet_language())
    except (SheetError, NotationWriteError) as e:
        fail(str(e))
    if not game.deals:
        say("raspis: " + _("the free schedule has no fixed deals: `raspis live` asks each deal's "
                           "cards as it comes"))
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    check_output(output, (), force)
    write_file_atomically(output, text)
    say("raspis: " + ngettext("wrote {file}: {n} deal for {players}; fill it in with: {command}",
                              "wrote {file}: {n} deals for {players}; fill it in with: {command}",
                              len(game.deals)).format(
        file=output, n=len(game.deals), players=", ".join(names),
        command=shell_command("raspis", "live", output)))

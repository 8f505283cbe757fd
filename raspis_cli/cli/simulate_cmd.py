"""``raspis simulate``: complete legal games played by bots, as records."""

from __future__ import annotations

import datetime
import sys
from collections.abc import Iterable
from typing import Annotated, TextIO

import typer

from raspis_cli.bots.pimc import BOTS, DEFAULT_BOT_SAMPLES
from raspis_cli.cli.app import app
from raspis_cli.cli.console import fail
from raspis_cli.cli.options import (
    ForceOption,
    RulesOption,
    SetOption,
    build_rules,
    check_format,
    check_output,
)
from raspis_cli.rules import Rules
from raspis_cli.simulate.club import ClubPlan, parse_date_range, parse_skill
from raspis_cli.simulate.game import DETAILS, default_names
from raspis_cli.simulate.run import TEXT_FORMATS, simulated_texts
from raspis_cli.text.i18n import _
from raspis_cli.text.messages import quoted

__all__: list[str] = []


def _write(texts: Iterable[str], fmt: str, out: TextIO) -> None:
    """Write rendered games: notation separated by a blank line, JSON as one
    array (one game a line), JSONL one game a line."""
    if fmt == "json":
        out.write("[\n")
        first = True
        for text in texts:
            if not first:
                out.write(",\n")
            out.write(text)
            first = False
        out.write("\n]\n")
        return
    first = True
    for text in texts:
        if fmt == "jsonl":
            out.write(text + "\n")
        else:
            if not first:
                out.write("\n")
            out.write(text)
        first = False


@app.command("simulate")
def simulate(
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help=_("Number of players (with --table-sizes: the largest by default)."),
        min=2, metavar="N")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help=_("How many games."), min=0, metavar="K")] = 1,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", help=_("Random seed: the same seed, the same games."))] = 0,
    preset: RulesOption = None,
    options: SetOption = None,
    detail: Annotated[str, typer.Option(
        "--detail", metavar="full|scores|sheet", help=_("full (every card), scores (the sheet with "
        "scores and totals) or sheet (bids and taken)."))] = "full",
    fmt: Annotated[str, typer.Option("--format", "-f", help=_("notation, json or jsonl."),
                                     metavar="notation|json|jsonl")] = "notation",
    output: Annotated[str, typer.Option(
        "--output", "-o", help=_("Write here instead of stdout."), metavar=_("FILE"))] = "-",
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, metavar="N",
                                      help=_("Make the games in N processes (the output is the "
                                      "same for any N)."))] = 1,
    bot: Annotated[str, typer.Option("--bot", help=_("The bot of every seat: heuristic (fast) or "
                                     "pimc (bids and endgame plays by Monte Carlo over the "
                                     "double-dummy solver)."), metavar="heuristic|pimc")] = "heuristic",
    bot_samples: Annotated[int, typer.Option("--bot-samples", help=_("Samples per decision of the "
                                             "pimc bot."), min=1, metavar="K")] = DEFAULT_BOT_SAMPLES,
    skill: Annotated[list[str] | None, typer.Option(
        "--skill", metavar=_("NAME=SKILL"),
        help=_("How well NAME plays: 1 (the default) judges every bid and card as well as the bot "
        "can; 0.8 misjudges one bid in five by 1-2 tricks and plays one card in five "
        "carelessly; 0.6..0.9 improves over a club history (repeatable)."))] = None,
    players_pool: Annotated[str | None, typer.Option(
        "--players-pool", metavar=_("NAMES"),
        help=_("A club history: each game seats names drawn from these (comma-separated); "
        "the others are absent."))] = None,
    table_sizes: Annotated[str | None, typer.Option(
        "--table-sizes", metavar="N,M",
        help=_("With --players-pool: table sizes drawn from (default: --players)."))] = None,
    date_range: Annotated[str | None, typer.Option(
        "--date-range", metavar=_("FROM..TO"),
        help=_("Spread the games over these dates, in order (e.g. 2024-01-01..2025-12-31)."))] = None,
    force: ForceOption = False,
) -> None:
    """Bots play complete legal games under any rules; the records are written
    as a scorekeeper would (scores and running totals included). An existing
    output file is replaced only with --force."""
    check_output(output, (), force)
    check_format(fmt, TEXT_FORMATS)
    if detail not in DETAILS:
        raise typer.BadParameter(_("expected one of {choices}, got {got}").format(
            choices=", ".join(DETAILS), got=quoted(detail)), param_hint="--detail")
    if bot not in BOTS:
        raise typer.BadParameter(_("expected one of {choices}, got {got}").format(
            choices=", ".join(BOTS), got=quoted(bot)), param_hint="--bot")
    rules = build_rules(preset, options)
    if players is None:  # a club's tables of --table-sizes: as many as the largest
        if table_sizes is None:
            raise typer.BadParameter(_("how many players? Give --players N (or --table-sizes with "
                                       "--players-pool)"), param_hint="--players")
        players = max(_table_sizes(table_sizes))
    low, high = rules.players
    if not low <= players <= high:
        fail(_("the rules ({preset}) allow {low} to {high} players, not {n}").format(
            preset=rules.preset_name, low=low, high=high, n=players))
    bots = None if bot == "heuristic" else [bot] * players
    if bots:
        from raspis_cli.cli.analyze_cmd import say_if_compiling
        from raspis_cli.solver.search import kernel_refusal

        refused = kernel_refusal(rules)
        if refused:  # before the compile and the first game: the solver would refuse every deal
            raise typer.BadParameter(_("the {bot} bot plays through the double-dummy solver, which "
                                       "does not implement {options} of these rules; use --bot "
                                       "heuristic").format(bot=bot, options=", ".join(refused)),
                                     param_hint="--bot")

        say_if_compiling()
    skills, club = _club_plan(rules, players, games, skill, players_pool, table_sizes, date_range)
    texts = simulated_texts(rules, players, games, seed, detail=detail, fmt=fmt, jobs=jobs,
                            bots=bots, bot_samples=bot_samples, club=club, skill=skills)
    if output == "-":
        _write(texts, fmt, sys.stdout)
        return
    import io

    from raspis_cli.files.atomic import atomic_output

    try:  # the games are written as they are made, into a file that replaces nothing until the last
        with atomic_output(output) as raw:
            handle = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
            _write(texts, fmt, handle)
            handle.flush()
            handle.detach()  # atomic_output closes the file itself
    except OSError as e:
        fail(_("cannot write {file}: {reason}").format(file=output, reason=e.strerror or e))


def _table_sizes(sizes: str) -> tuple[int, ...]:
    """``--table-sizes 3,4,5`` as numbers, or a usage error."""
    try:
        return tuple(int(n) for n in sizes.split(","))
    except ValueError:
        raise typer.BadParameter(_("expected sizes like 3,4,5, got {got}").format(got=quoted(sizes)),
                                 param_hint="--table-sizes") from None


def _club_plan(rules: Rules, players: int, games: int, skill: list[str] | None, pool: str | None,
               sizes: str | None, dates: str | None) -> tuple[dict[str, float], ClubPlan | None]:
    """The skills, and the club history the options ask for (None: one fixed table)."""
    try:
        skills = parse_skill(skill or [])
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--skill") from None
    if pool is None and sizes is None and dates is None:
        if any(a != b for a, b in skills.values()):
            fail(_("a skill that changes (FROM..TO) needs a club history: add --players-pool or "
                   "--date-range"))
        return {name: a for name, (a, _) in skills.items()}, None
    names = tuple(n.strip() for n in pool.split(",") if n.strip()) if pool else tuple(default_names(players))
    table_sizes = _table_sizes(sizes) if sizes else (players,)
    try:
        first, last = parse_date_range(dates) if dates else (datetime.date(2024, 1, 1),
                                                              datetime.date(2026, 12, 31))
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--date-range") from None
    plan = ClubPlan(names, table_sizes, first, last, games, tuple(sorted(skills.items())))
    try:
        plan.check(rules)
    except ValueError as e:
        fail(str(e))
    return {}, plan

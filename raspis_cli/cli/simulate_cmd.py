"""``raspis simulate``: complete legal games played by bots, as records."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Annotated, TextIO

import typer

from raspis_cli.cli.common import RulesOption, SetOption, app, build_rules, fail
from raspis_cli.pimcbot import BOTS, DEFAULT_BOT_SAMPLES
from raspis_cli.simulate import DETAILS, TEXT_FORMATS, simulated_texts

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
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.", min=2)],
    games: Annotated[int, typer.Option("--games", "-n", help="How many games.", min=0)] = 1,
    seed: Annotated[int, typer.Option("--seed", help="Random seed: the same seed, the same games.")] = 0,
    preset: RulesOption = None,
    options: SetOption = None,
    detail: Annotated[str, typer.Option("--detail", help="full (every card), scores (the sheet with "
                                        "scores and totals) or sheet (bids and taken).")] = "full",
    fmt: Annotated[str, typer.Option("--format", "-f", help="notation, json or jsonl.",
                                     metavar="notation|json|jsonl")] = "notation",
    output: Annotated[str, typer.Option("--output", "-o", help="Write here instead of stdout.")] = "-",
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1,
                                      help="Make the games in N processes (the output is the "
                                      "same for any N).")] = 1,
    bot: Annotated[str, typer.Option("--bot", help="The bot of every seat: heuristic (fast) or "
                                     "pimc (bids and endgame plays by Monte Carlo over the "
                                     "double-dummy solver).", metavar="heuristic|pimc")] = "heuristic",
    bot_samples: Annotated[int, typer.Option("--bot-samples", help="Samples per decision of the "
                                             "pimc bot.", min=1, metavar="K")] = DEFAULT_BOT_SAMPLES,
) -> None:
    """Bots play complete legal games under any rules; the records are written
    as a scorekeeper would (scores and running totals included)."""
    if fmt not in TEXT_FORMATS:
        raise typer.BadParameter(f"expected notation, json or jsonl, got {fmt!r}", param_hint="--format")
    if detail not in DETAILS:
        raise typer.BadParameter(f"expected one of {', '.join(DETAILS)}, got {detail!r}",
                                 param_hint="--detail")
    if bot not in BOTS:
        raise typer.BadParameter(f"expected one of {', '.join(BOTS)}, got {bot!r}",
                                 param_hint="--bot")
    rules = build_rules(preset, options)
    low, high = rules.players
    if not low <= players <= high:
        fail(f"the rules ({rules.preset_name}) allow {low} to {high} players, not {players}")
    bots = None if bot == "heuristic" else [bot] * players
    texts = simulated_texts(rules, players, games, seed, detail=detail, fmt=fmt, jobs=jobs,
                            bots=bots, bot_samples=bot_samples)
    if output == "-":
        _write(texts, fmt, sys.stdout)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="\n") as handle:
            _write(texts, fmt, handle)
    except OSError as e:
        fail(f"cannot write {output}: {e.strerror or e}")

"""``raspis simulate``: complete legal games played by bots, as records."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Annotated, TextIO

import typer

from raspis_cli.cli.common import RulesOption, SetOption, app, build_rules, fail
from raspis_cli.notation import write_game
from raspis_cli.notation.jsoncodec import game_to_json
from raspis_cli.record import GameRecord
from raspis_cli.simulate import DETAILS, simulate_games

__all__: list[str] = []


def _write(games: Iterator[GameRecord], fmt: str, out: TextIO) -> None:
    import json

    if fmt == "json":
        out.write("[\n")
        first = True
        for game in games:
            if not first:
                out.write(",\n")
            out.write(json.dumps(game_to_json(game), ensure_ascii=False))
            first = False
        out.write("\n]\n")
        return
    first = True
    for game in games:
        if fmt == "jsonl":
            out.write(json.dumps(game_to_json(game), ensure_ascii=False) + "\n")
        else:
            if not first:
                out.write("\n")
            out.write(write_game(game))
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
) -> None:
    """Bots play complete legal games under any rules; the records are written
    as a scorekeeper would (scores and running totals included)."""
    if fmt not in ("notation", "json", "jsonl"):
        raise typer.BadParameter(f"expected notation, json or jsonl, got {fmt!r}", param_hint="--format")
    if detail not in DETAILS:
        raise typer.BadParameter(f"expected one of {', '.join(DETAILS)}, got {detail!r}",
                                 param_hint="--detail")
    rules = build_rules(preset, options)
    low, high = rules.players
    if not low <= players <= high:
        fail(f"the rules ({rules.preset_name}) allow {low} to {high} players, not {players}")
    stream = simulate_games(rules, players, games, seed, detail=detail)
    if output == "-":
        _write(stream, fmt, sys.stdout)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="\n") as handle:
            _write(stream, fmt, handle)
    except OSError as e:
        fail(f"cannot write {output}: {e.strerror or e}")

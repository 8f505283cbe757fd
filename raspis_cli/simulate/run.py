"""Runs of simulated games: many games from one seed, rendered as text in several processes (the
same text for any number).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Mapping, Sequence
from typing import Final

from raspis_cli.model.record import (  # the card tables are the record's: one of each
    CompactDeal,
    GameRecord,
)
from raspis_cli.rules import Rules
from raspis_cli.simulate.club import ClubPlan
from raspis_cli.simulate.game import EVENT, game_seed, play_game, simulate_game

__all__ = [
    "TEXT_FORMATS",
    "render_game",
    "simulate_games",
    "simulated_texts",
]


TEXT_FORMATS: Final = ("notation", "json", "jsonl")
"""What :func:`simulated_texts` renders a game as: the canonical notation, or
one line of docs/RECORD-JSON.md (for a JSON array or a JSONL file)."""

def simulate_games(
    rules: Rules,
    players: int,
    count: int,
    seed: int,
    *,
    names: Sequence[str] | None = None,
    detail: str = "full",
    start: int = 0,
    bots: Sequence[str] | None = None,
    bot_samples: int | None = None,
    skill: Mapping[str, float] | None = None,
) -> Iterator[GameRecord]:
    """Games ``start`` … ``start + count - 1`` of the run with this seed.

    Game ``i`` is ``simulate_game(rules, players, game_seed(seed, i), ...)``
    with the Event tag ``"Simulated game i+1"``, so splitting a run into
    slices (``start``) gives the same games.
    """
    for index in range(start, start + count):
        game = simulate_game(rules, players, game_seed(seed, index), names, detail, bots=bots,
                             bot_samples=bot_samples, skill=skill)
        game.tags["Event"] = f"{EVENT} {index + 1}"
        yield game


def render_game(game: GameRecord, fmt: str) -> str:
    """One game as text: the canonical notation (``notation``), or docs/RECORD-JSON.md
    on one line (``json``, ``jsonl``)."""
    if fmt == "notation":
        from raspis_cli.notation.writer import write_game

        return write_game(game)
    import json

    from raspis_cli.notation.jsoncodec import game_to_json

    return json.dumps(game_to_json(game), ensure_ascii=False)


_CHUNK_MAX: Final = 50
"""At most this many games per task of a run in several processes."""


_Task = tuple[Rules, int, int, int, int, str, str, tuple[str, ...] | None, int | None,
              "ClubPlan | None", tuple[tuple[str, float], ...]]


def _render_slice(task: _Task) -> list[str]:
    """A worker's task: games ``start`` … ``start + count - 1``, rendered."""
    rules, players, count, seed, start, detail, fmt, bots, bot_samples, club, skill = task
    return [render_played(head, deals, fmt)
            for head, deals in played_games(rules, players, count, seed, detail, start, bots,
                                      bot_samples, club, dict(skill))]


def render_played(head: GameRecord, deals: list[CompactDeal], fmt: str) -> str:
    """:func:`render_game` of a game made as its head and deals as integers:
    the notation written from the integers, JSON from the records."""
    if fmt == "notation":
        from raspis_cli.notation.writer import write_compact_game

        return write_compact_game(head, deals)
    head.deals = [deal.to_record(head.players) for deal in deals]
    return render_game(head, fmt)


def played_games(rules: Rules, players: int, count: int, seed: int, detail: str, start: int,
           bots: Sequence[str] | None, bot_samples: int | None, club: ClubPlan | None,
           skill: Mapping[str, float]) -> Iterator[tuple[GameRecord, list[CompactDeal]]]:
    """A slice of a run, each game as its head and its deals as integers
    (:func:`play_game`): a club history's games, or those of one fixed
    table (:func:`simulate_games`)."""
    if club is not None:
        bot = bots[0] if bots else None
        for index in range(start, start + count):
            yield club.game_parts(rules, seed, index, detail, bot, bot_samples)
        return
    for index in range(start, start + count):
        head, deals = play_game(rules, players, game_seed(seed, index), None, detail, None, bots,
                                 bot_samples, skill)
        head.tags["Event"] = f"{EVENT} {index + 1}"
        yield head, deals


def simulated_texts(rules: Rules, players: int, count: int, seed: int, *, detail: str = "full",
                    fmt: str = "notation", jobs: int = 1, bots: Sequence[str] | None = None,
                    bot_samples: int | None = None, club: ClubPlan | None = None,
                    skill: Mapping[str, float] | None = None) -> Iterator[str]:
    """The games of :func:`simulate_games` ``(rules, players, count, seed)``
    rendered by :func:`render_game`, in game order, made in ``jobs`` processes.

    The processes make small slices of the run (``start``), so the texts are
    the same, in the same order, for any ``jobs``. ``club`` makes a club
    history instead (:class:`ClubPlan`); ``skill`` sets the bots' skill by name.
    """
    if fmt not in TEXT_FORMATS:
        raise ValueError(f"fmt is one of {', '.join(TEXT_FORMATS)}, not {fmt!r}")
    skill_items = tuple(sorted((skill or {}).items()))
    if jobs <= 1 or count <= 1:
        for head, deals in played_games(rules, players, count, seed, detail, 0, bots, bot_samples, club,
                                  dict(skill_items)):
            yield render_played(head, deals, fmt)
        return
    # small slices keep every process busy to the end; imap keeps their order
    chunk = max(1, min(_CHUNK_MAX, count // (jobs * 4)))
    plan = tuple(bots) if bots is not None else None
    tasks: list[_Task] = [(rules, players, min(chunk, count - start), seed, start, detail, fmt,
                           plan, bot_samples, club, skill_items)
             for start in range(0, count, chunk)]
    # spawn: a worker imports only this module (and the notation writer)
    with multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks))) as pool:
        for texts in pool.imap(_render_slice, tasks):
            yield from texts

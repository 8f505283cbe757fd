"""One simulated game: its seed, names, tags and deal plan, played by
:class:`~raspis_cli.simulate.simulator.Simulator` (:func:`simulate_game`).
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Final, assert_never

from raspis_cli.engine import Game
from raspis_cli.model.record import (  # the card tables are the record's: one of each
    CompactDeal,
    GameRecord,
)
from raspis_cli.rules import Rules
from raspis_cli.rules.schedule import ScheduledDeal, schedule_for
from raspis_cli.rules.standings import first_place_shared
from raspis_cli.simulate.simulator import Simulator, made_once

__all__ = [
    "DEFAULT_NAMES",
    "DETAILS",
    "EVENT",
    "SITE",
    "deal_plan",
    "default_names",
    "game_seed",
    "play_game",
    "rules_options_of",
    "simulate_game",
]


DETAILS: Final = ("full", "scores", "sheet")
"""How much a simulated record keeps, as the notation's three levels:
``full`` (hands, trump, bids, tricks, taken, penalties, scores, totals),
``scores`` (bids, taken, penalties, scores, totals: no hands, trump or
tricks) and ``sheet`` (bids and taken only)."""

DEFAULT_NAMES: Final = (
    "Анна", "Boris", "Вера", "Dmitri", "Елена", "Frank", "Галина", "Helen", "Игорь", "Jack",
)
"""Player names used when none are given: the first ``players`` of these."""

EVENT: Final = "Simulated game"
SITE: Final = "raspis simulate"
_FIRST_DATE: Final = datetime.date(2024, 1, 1).toordinal()
_DATE_SPAN: Final = 3 * 365

def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a :func:`simulate_games` run."""
    return random.Random(f"raspis-simulate/{seed}/{index}").getrandbits(63)


def default_names(players: int) -> list[str]:
    """The default names for this many players."""
    names = list(DEFAULT_NAMES[:players])
    names += [f"Player {i + 1}" for i in range(len(names), players)]
    return names


def deal_plan(rules: Rules, players: int) -> tuple[ScheduledDeal, ...]:
    """The deals a simulated game plays: the schedule of the rules, its
    special tail included (each special ``players`` times); for
    ``schedule=free``, the ``raspisnoy`` sequence with the rules' specials
    and ``ladder_down``."""
    match rules.schedule:
        case "free":
            return schedule_for(rules.with_options({"schedule": "raspisnoy"}), players).listing
        case "raspisnoy" | "classic" | "georgian" | "joker54" | "blocks":
            return schedule_for(rules, players).listing
        case _:
            assert_never(rules.schedule)


def _plan_of(rules: Rules, players: int) -> tuple[ScheduledDeal, ...]:
    """:func:`deal_plan`, made once per rules and player count."""
    return made_once(("plan", (rules, players)), lambda: deal_plan(rules, players))


CONTROL_DEALS_MAX: Final = 50
"""The most control deals a simulated game plays while first place stays shared."""


def _control_deals(rules: Rules, players: int, rng: random.Random, played: int,
                   totals: Sequence[int]) -> Iterator[tuple[ScheduledDeal, int]]:
    """Under ``control_deals``, each control deal and its dealer, as the
    last-placed player chooses them (the bots: at random among the kinds the
    game has played and the players), while first place is shared after the
    first (``totals`` is read after each deal is played)."""
    schedule = schedule_for(rules, players)
    if not schedule.control:
        return
    for extra in range(CONTROL_DEALS_MAX):
        if extra and not first_place_shared(totals):
            return
        kind = rng.choice(schedule.control_kinds)
        yield ScheduledDeal(played + extra + 1, schedule.control_cards(kind), kind), rng.randrange(players)


def rules_options_of(rules: Rules) -> dict[str, object]:
    """The options of ``rules`` that differ from its preset, as JSON values
    (what :attr:`GameRecord.rules_options` holds)."""
    return rules.overrides()


def simulate_game(
    rules: Rules,
    players: int,
    seed: int | random.Random,
    names: Sequence[str] | None = None,
    detail: str = "full",
    *,
    tags: dict[str, str] | None = None,
    bots: Sequence[str] | None = None,
    bot_samples: int | None = None,
    skill: Mapping[str, float] | None = None,
) -> GameRecord:
    """Play one complete legal game with bots and return its record.

    ``seed`` is an int or a :class:`random.Random` (which is advanced);
    ``names`` default to :func:`default_names`; ``detail`` is one of
    :data:`DETAILS`. ``bots`` names each seat's bot (``heuristic``, the
    default, or ``pimc``: :mod:`raspis_cli.bots.pimc` with ``bot_samples``).
    ``tags`` replace the default Event/Site/Date tags.
    ``skill`` maps names to the chance of judging a bid and a card right (see
    :func:`misjudged`; a name not there, or 1.0, is a bot at its best).
    Raises :class:`ValueError` for a player count outside the rules, bad
    names or an unknown detail, and :class:`EngineDisagreementError` when the
    engine rejects an action it listed as legal (an engine bug).
    """
    head, deals = play_game(rules, players, seed, names, detail, tags, bots, bot_samples, skill)
    head.deals = [deal.to_record(head.players) for deal in deals]
    return head


def play_game(rules: Rules, players: int, seed: int | random.Random, names: Sequence[str] | None,
               detail: str, tags: dict[str, str] | None, bots: Sequence[str] | None,
               bot_samples: int | None, skill: Mapping[str, float] | None,
               ) -> tuple[GameRecord, list[CompactDeal]]:
    """:func:`simulate_game`'s game as its record without deals (tags,
    rules, players, final totals) and its deals as integers."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    low, high = rules.players
    if not low <= players <= high:
        raise ValueError(f"the rules allow {low} to {high} players, not {players}")
    if detail not in DETAILS:
        raise ValueError(f"detail is one of {', '.join(DETAILS)}, not {detail!r}")
    seats = list(names) if names is not None else default_names(players)
    if len(seats) != players or len(set(seats)) != players:
        raise ValueError(f"expected {players} different names, got {seats!r}")
    if tags is None:
        day = datetime.date.fromordinal(_FIRST_DATE + rng.randrange(_DATE_SPAN))
        tags = {"Event": EVENT, "Site": SITE, "Date": day.isoformat()}
    sim = Simulator(rules, seats, rng, detail,
                     [skill.get(n, 1.0) for n in seats] if skill else None)
    if bots is not None:
        sim.use_bots(bots, bot_samples)
    dealer = rng.randrange(players)
    deals: list[CompactDeal] = []
    plan = list(_plan_of(rules, players))
    if sim.fast:
        play = sim.play_compact
        for planned in plan:
            deals.append(play(planned.number, planned.kind, planned.cards, dealer))
            dealer = (dealer + 1) % players
        for planned, dealer in _control_deals(rules, players, rng, len(plan), sim.totals):
            deals.append(play(planned.number, planned.kind, planned.cards, dealer))
        final = sim.totals
    else:
        game = Game(rules, players, seats)
        for planned in plan:
            deals.append(sim.play_engine_deal(game, planned.number, planned.kind, planned.cards,
                                              dealer))
            dealer = (dealer + 1) % players
        for planned, dealer in _control_deals(rules, players, rng, len(plan), game.totals):
            deals.append(sim.play_engine_deal(game, planned.number, planned.kind, planned.cards, dealer))
        final = game.totals
    totals = dict(zip(seats, final, strict=True)) if detail != "sheet" else None
    head = GameRecord(
        players=seats,
        deals=[],
        tags=dict(tags),
        rules_preset=rules.preset_name,
        rules_options={name: list(value) if isinstance(value, list) else value
                       for name, value in made_once(("options", rules),
                                                     lambda: rules_options_of(rules)).items()},
        totals=totals,
    )
    return head, deals

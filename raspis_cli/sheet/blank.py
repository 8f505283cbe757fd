"""The score sheet at the table: a blank sheet to fill in, and filling it in.

``raspis new`` writes :func:`blank_game`; ``raspis live`` finds where a sheet
stopped (:func:`next_deal`), fills in a deal (:func:`fill_deal`) and keeps
the written scores and running totals those of the engine
(:func:`write_results`). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from raspis_cli.judge.replay import GameResult, RulesChoice, replay_game
from raspis_cli.model.record import DealRecord, GameRecord
from raspis_cli.notation.writer import is_blank
from raspis_cli.rules import Rules
from raspis_cli.rules.schedule import ScheduledDeal, schedule_for
from raspis_cli.text.messages import Quoted, msg

__all__ = [
    "SheetError",
    "blank_game",
    "dealer_of",
    "fill_deal",
    "is_played",
    "next_deal",
    "parse_players",
    "scheduled_dealers",
    "with_deals",
    "write_results",
]


class SheetError(ValueError):
    """Players or a sheet that cannot be used, with the reason."""


def parse_players(text: str) -> list[str]:
    """The names of ``--players "Анна, Борис, Вера"``: separated by commas
    (or, when there is no comma at all, by spaces), outer spaces dropped."""
    parts = text.split(",") if "," in text else text.split()
    names = [p.strip() for p in parts]
    if any(not n for n in names) or not names:
        raise SheetError(msg("an empty name in {text}; write the names separated by "
                           "commas").format(text=Quoted(text)))
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise SheetError(msg("{name} is named twice; each player sits once").format(name=Quoted(name)))
        seen.add(name)
    for name in names:
        if re.search(r"[\r\n\"\[\]]", name):
            raise SheetError(msg("the name {name} holds a line break, a quote or a "
                               "bracket").format(name=Quoted(name)))
    return names


def check_players(rules: Rules, names: Sequence[str]) -> None:
    """Raise :class:`SheetError` when the rules are not for this many players."""
    low, high = rules.players
    if not low <= len(names) <= high:
        raise SheetError(msg("{preset} is for {low} to {high} players, not {n}").format(
            preset=rules.preset_name, low=low, high=high, n=len(names)))


def dealer_of(players: Sequence[str], first_dealer: str, index: int) -> str:
    """Who deals the deal at ``index`` (0-based, no deal replayed) when
    ``first_dealer`` dealt the first: the deal moves one seat clockwise."""
    start = list(players).index(first_dealer)
    return players[(start + index) % len(players)]


def scheduled_dealers(rules: Rules, players: Sequence[str],
                      first_dealer: str | None = None) -> list[tuple[ScheduledDeal, str]]:
    """Each deal of the schedule with its dealer (empty for a free schedule)."""
    schedule = schedule_for(rules, len(players))
    first = first_dealer or players[0]
    return [(deal, dealer_of(players, first, i)) for i, deal in enumerate(schedule.listing)]


def blank_game(rules: Rules, players: Sequence[str], preset: str, options: Mapping[str, object],
               tags: Mapping[str, str], first_dealer: str | None = None) -> GameRecord:
    """A sheet to fill in: the tags, one blank deal line per scheduled deal
    (number, cards, kind, dealer) and ``unfinished``."""
    check_players(rules, players)
    if first_dealer is not None and first_dealer not in players:
        raise SheetError(msg("the first dealer {name} is not one of the players ({players})").format(
            name=Quoted(first_dealer), players=", ".join(players)))
    deals = [DealRecord(number=d.number, kind=d.kind, dealer=dealer, cards=d.cards)
             for d, dealer in scheduled_dealers(rules, players, first_dealer)]
    return GameRecord(players=list(players), deals=deals, tags=dict(tags), rules_preset=preset,
                      rules_options=dict(options), unfinished=True)


def is_played(deal: DealRecord) -> bool:
    """Whether a deal's results are written (bids, taken or scores), or it
    was abandoned and dealt again (``replayed``)."""
    return deal.bids is not None or deal.taken is not None or deal.scores is not None or deal.replayed


@dataclass(frozen=True)
class NextDeal:
    """The deal to play next: its place in the record (``index``; equal to
    the number of deals when it must be added), number, cards, kind, dealer."""

    index: int
    number: int
    cards: int
    kind: str
    dealer: str
    scheduled: bool


def next_deal(game: GameRecord, rules: Rules) -> NextDeal | None:
    """The first deal of the sheet not played yet, or the one the schedule
    adds after the last; ``None`` when the schedule is complete. Raises
    :class:`SheetError` when a played deal follows a blank one."""
    played = [i for i, d in enumerate(game.deals) if is_played(d)]
    index = played[-1] + 1 if played else 0
    blank_before = [i for i in range(index) if not is_played(game.deals[i])]
    if blank_before:
        d = game.deals[blank_before[0]]
        raise SheetError(msg("deal {number} is blank but later deals are filled in; fill it in or remove it "
                           "with an editor first").format(number=d.number))
    if index < len(game.deals):
        d = game.deals[index]
        return NextDeal(index, d.number, d.cards, d.kind, d.dealer, True)
    players = game.players
    schedule = schedule_for(rules, len(players))
    scored = sum(1 for d in game.deals if not d.replayed)
    if game.deals:
        last = game.deals[-1]
        number = last.number if last.replayed else last.number + 1
        dealer = (last.dealer if last.replayed
                  else players[(players.index(last.dealer) + 1) % len(players)]
                  if last.dealer in players else players[0])
    else:
        number, dealer = 1, players[0]
    if schedule.free:
        return NextDeal(index, number, 0, "normal", dealer, False)
    listing = schedule.listing
    if scored >= len(listing):
        return None
    want = listing[scored]
    return NextDeal(index, number, want.cards, want.kind, dealer, False)


def fill_deal(game: GameRecord, index: int, deal: DealRecord) -> GameRecord:
    """The game with the deal at ``index`` replaced (or added at the end)."""
    deals = list(game.deals)
    if index < len(deals):
        deals[index] = deal
    else:
        deals.append(deal)
    return with_deals(game, deals)


def blank_out(game: GameRecord, index: int) -> GameRecord:
    """The game with the deal at ``index`` blank again (its comments kept)."""
    old = game.deals[index]
    blank = DealRecord(number=old.number, kind=old.kind, dealer=old.dealer, cards=old.cards,
                       comments=list(old.comments), comment_anchors=list(old.comment_anchors))
    return fill_deal(game, index, blank)


def with_deals(game: GameRecord, deals: list[DealRecord]) -> GameRecord:
    """The game with these deals in place of its own (players, tags and rules kept)."""
    return GameRecord(players=list(game.players), deals=deals, tags=dict(game.tags),
                      rules_preset=game.rules_preset, rules_options=dict(game.rules_options),
                      totals=game.totals, unfinished=game.unfinished,
                      comments=list(game.comments), extra=dict(game.extra),
                      comment_anchors=list(game.comment_anchors))


def write_results(game: GameRecord, choice: RulesChoice | None = None) -> tuple[GameRecord, GameResult]:
    """Replay the game and write the engine's scores and running totals into
    every played deal; the game is finished (``final`` totals written, no
    ``unfinished``) when no scheduled deal is left blank."""
    result = replay_game(game, choice=choice)
    by_position = {d.position: d for d in result.deals}
    deals: list[DealRecord] = []
    for i, deal in enumerate(game.deals):
        got = by_position.get(i)
        if got is not None and is_played(deal) and all(s is not None for s in got.scores.values()):
            deal = _copy_deal(deal)
            deal.scores = {n: s for n, s in got.scores.items() if s is not None}
            deal.totals = dict(got.totals)
        deals.append(deal)
    out = with_deals(game, deals)
    rules = result.rules
    done = bool(deals) and all(is_played(d) for d in deals) and next_deal(out, rules) is None
    out.unfinished = not done
    out.totals = dict(result.totals) if done else None
    return out, result


def _copy_deal(deal: DealRecord) -> DealRecord:
    return DealRecord(number=deal.number, kind=deal.kind, dealer=deal.dealer, cards=deal.cards,
                      trump=deal.trump, hands=deal.hands, bids=deal.bids, tricks=deal.tricks,
                      taken=deal.taken, scores=deal.scores, totals=deal.totals,
                      penalties=deal.penalties, replayed=deal.replayed,
                      comments=list(deal.comments), comment_anchors=list(deal.comment_anchors),
                      extra=dict(deal.extra))


__all__ += ["NextDeal", "blank_out", "check_players", "is_blank"]

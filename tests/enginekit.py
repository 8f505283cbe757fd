"""Helpers shared by the engine tests: building rules, hands and deals, and
playing random legal deals and games.

Nothing here asserts; the tests do. Every helper takes what it needs
explicitly (the rules, a ``random.Random``) so a failing case can be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import assert_never

from raspis_cli.engine import Deal, Game, JokerDecl, Play, Violation
from raspis_cli.model.cards import Card, Suit, mask_of, parse_card
from raspis_cli.rules import Rules
from raspis_cli.rules.options import JOKER_MODES
from raspis_cli.rules.schedule import schedule_for
from raspis_cli.rules.values import DealKind

__all__ = [
    "GameRun",
    "all_declarations",
    "cards",
    "clone",
    "deal_of",
    "hand",
    "kinds_of",
    "random_hands",
    "random_trump",
    "rules_of",
    "run_deal",
    "run_game",
]


def rules_of(preset: str = "raspisnoy", **options: object) -> Rules:
    """The rules of a preset with options overridden by keyword."""
    return Rules.preset(preset).with_options(options)


def kinds_of(violations: Iterable[Violation]) -> list[str]:
    """The kinds of violations, in order."""
    return [v.kind for v in violations]


def cards(text: str) -> list[Card]:
    """Cards from a space-separated list of spellings: ``"KD 9D 6H"``."""
    return [parse_card(token) for token in text.split()]


def hand(text: str) -> int:
    """A hand mask from a space-separated list of spellings."""
    return mask_of(cards(text))


def deal_of(
    rules: Rules,
    hands: Sequence[str],
    *,
    dealer: int | None = None,
    trump: Suit | None = None,
    kind: DealKind = "normal",
    bids: Sequence[int] | None = None,
    pass_streaks: Sequence[int] | None = None,
) -> Deal:
    """A deal with these hands (one spelling list per seat), dealt by
    ``dealer`` (default: the last seat, so seat 0 bids and leads first).

    With ``bids`` (in seat order 0, 1, ...) the bidding is done, in turn, and
    must be clean; without, the bidding is skipped so play starts at once.
    """
    players = len(hands)
    masks = [hand(h) for h in hands]
    cards_each = len(cards(hands[0]))
    seat_dealer = players - 1 if dealer is None else dealer
    deal = Deal(rules, players, seat_dealer, cards_each, kind, trump, masks, pass_streaks)
    if bids is None:
        deal.skip_bidding()
        return deal
    for _ in range(players):
        seat = deal.next_bidder
        assert seat is not None
        problems = deal.bid(seat, bids[seat])
        if problems:
            raise AssertionError(f"setting up bids failed: {problems}")
    return deal


def clone(deal: Deal) -> Deal:
    """An independent copy of a deal's mutable state (for trying an action)."""
    return deal.copy()


def all_declarations(rules: Rules) -> list[JokerDecl]:
    """Every joker declaration that can be written, legal or not: each mode
    bare, with each suit, and ``as`` each non-joker card of the deck."""
    out: list[JokerDecl] = []
    deck = rules.deck_cards
    for mode in JOKER_MODES:
        out.append(JokerDecl(mode))
        out += [JokerDecl(mode, suit=s) for s in Suit]
        if mode == "as":
            out += [JokerDecl("as", card=c) for c in deck.cards if not deck.is_joker(c)]
    return out



def random_hands(rules: Rules, players: int, cards_each: int,
                 rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """Shuffle the deck, deal ``cards_each`` to each seat (seat 0 first);
    return the hands and the undealt stock."""
    deck = list(rules.deck_cards.cards)
    rng.shuffle(deck)
    hands = [deck[i * cards_each:(i + 1) * cards_each] for i in range(players)]
    return hands, deck[players * cards_each:]


def random_trump(rules: Rules, kind: str, dealer: int, hands: Sequence[Sequence[Card]],
                 stock: Sequence[Card], rng: random.Random) -> Card | None:
    """The trump card as the rules turn it up: the top of the stock, or in a
    full deal the card ``full_deal_trump`` shows (``None``: no trump)."""
    if rules.circular_trumps or kind == "no-trump":
        return None
    if stock:
        match rules.trump_card:
            case "turned-up":
                return stock[0]
            case "dealer-last":
                return hands[dealer][-1]
            case _:
                assert_never(rules.trump_card)
    mode = rules.full_deal_trump
    if mode == "none":
        return None
    if mode == "random-card":
        return rng.choice(rng.choice(list(hands)))
    return rng.choice(list(hands[dealer]))


@dataclass
class GameRun:
    """What a random game produced: its deals and every violation met."""

    game: Game
    deals: list[Deal] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)


def _pick_play(plays: Sequence[Play], rng: random.Random) -> Play:
    """A random legal play, jokers no likelier than other cards."""
    plain = [p for p in plays if p.joker is None]
    jokers = [p for p in plays if p.joker is not None]
    if jokers and (not plain or rng.random() < 1 / (len(plain) + 1)):
        return rng.choice(jokers)
    return rng.choice(plain)


def run_deal(deal: Deal, rng: random.Random) -> list[Violation]:
    """Bid and play a deal to the end by random legal actions; return the
    violations the engine reported for them (none, if it is consistent)."""
    out: list[Violation] = []
    while deal.next_bidder is not None:
        legal = deal.legal_bids()
        if not legal:
            raise AssertionError(f"no legal bid for seat {deal.next_bidder}")
        out += deal.bid(deal.next_bidder, rng.choice(legal))
    guard = 0
    while not deal.done:
        seat = deal.to_play
        assert seat is not None
        plays = deal.legal_plays()
        if not plays:
            raise AssertionError(f"no legal play for seat {seat} in trick {deal.trick_number}")
        chosen = _pick_play(plays, rng)
        out += deal.play(seat, chosen.card, chosen.joker)
        guard += 1
        if guard > 1000:  # pragma: no cover - a runaway deal is a test failure
            raise AssertionError("the deal never ends")
    return out


def run_game(rules: Rules, players: int, rng: random.Random,
             deal_list: Iterable[tuple[int, str]] | None = None) -> GameRun:
    """Play a whole game by random legal actions: the schedule's deals (or
    ``deal_list`` of (cards, kind) for a free schedule), each checked by
    :class:`Game` and played by :func:`run_deal`."""
    game = Game(rules, players)
    run = GameRun(game)
    run.violations += game.player_problems()
    schedule = schedule_for(rules, players)
    control = deal_list is None and schedule.control
    if deal_list is None:
        deal_list = [(d.cards, d.kind) for d in schedule.listing]
    dealer = rng.randrange(players)

    def play(number: int, cards_each: int, kind: str, dealer: int) -> None:
        hands, stock = random_hands(rules, players, cards_each, rng)
        trump = random_trump(rules, kind, dealer, hands, stock, rng)
        deal, problems = game.start_deal(number, kind, dealer, cards_each, trump, True, hands)
        run.violations += problems
        run.violations += run_deal(deal, rng)
        game.finish_deal(deal, deal.scores())
        run.deals.append(deal)

    number = 0
    for number, (cards_each, kind) in enumerate(deal_list, start=1):
        play(number, cards_each, kind, dealer)
        dealer = (dealer + 1) % players
    while control:  # control deals: one, then more while the most points are shared
        number += 1
        kind = rng.choice(schedule.control_kinds)
        play(number, schedule.control_cards(kind), kind, rng.randrange(players))
        top = max(game.totals)
        control = game.totals.count(top) > 1
    run.violations += game.finish()
    return run

"""Random deals and positions for testing and measuring the solver.

Pure: every function takes a :class:`random.Random`, so a case can be made
again from its seed. Used by ``tests/test_solver.py`` (the solver against
brute force) and ``bench/solver_bench.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from raspis_cli.engine.deal import Deal
from raspis_cli.model.cards import Suit
from raspis_cli.model.deal_kinds import has_trump
from raspis_cli.rules import PRESETS, Rules, RulesError
from raspis_cli.rules.options import FOLLOW_MODES, LEAD_MODES, OPTIONS
from raspis_cli.rules.values import DealKind
from raspis_cli.solver.search import kernel_refusal

__all__ = ["random_play", "random_position", "random_rules", "random_small_case"]

_SHUFFLED: tuple[str, ...] = ("void", "circular_trumps", "joker_demand_first_trick_only", "joker_high_winner",
                             "joker_take_beaten_by_trump", "joker_low_nobody_follows", "two_jokers",
                             "discard_suit")
"""The play options shuffled, each drawn from every value of the option's
table; rules the kernel refuses (:func:`~raspis_cli.solver.search.kernel_refusal`)
are drawn again."""


def random_rules(rng: random.Random, preset: str | None = None, *, allow_as: bool = True) -> Rules:
    """A preset (random unless given) with its play options shuffled: void,
    circular trumps and every joker option, joker modes included."""
    rules = Rules.preset(preset or rng.choice(PRESETS))
    if rng.random() < 0.3 and not kernel_refusal(rules):
        return rules
    while True:  # a preset the kernel refuses (online36's must-trump-high) gets other values drawn
        try:
            drawn = _draw(rng, rules, allow_as)
        except RulesError:  # a draw that leaves a lone joker unplayable: refused by the rules, drawn again
            continue
        if not kernel_refusal(drawn):
            return drawn


def _draw(rng: random.Random, rules: Rules, allow_as: bool) -> Rules:
    options: dict[str, object] = {}
    for name in _SHUFFLED:
        if rng.random() < 0.5:
            spec = OPTIONS[name]
            options[name] = rng.choice(spec.choices) if spec.choices else rng.random() < 0.5
    lead_pool = [m for m in LEAD_MODES if allow_as or m != "as"]
    follow_pool = [m for m in FOLLOW_MODES if allow_as or m != "as"]
    if rng.random() < 0.5:
        options["joker_lead_modes"] = rng.sample(lead_pool, rng.randint(1, 3))
    if rng.random() < 0.5:
        options["joker_follow_modes"] = rng.sample(follow_pool, rng.randint(1, 2))
    return rules.with_options(options)


def random_position(rng: random.Random, rules: Rules, players: int, cards: int, *,
                    joker_chance: float = 0.7, kind: DealKind | None = None,
                    played: int | None = None) -> Deal:
    """A deal of ``cards`` cards to each of ``players`` with a random trump
    (or none), the jokers dealt with ``joker_chance`` each, and ``played``
    random legal cards already played (random when ``None``)."""
    deck = rules.deck_cards
    jokers = [j for j in deck.jokers if rng.random() < joker_chance]
    naturals = [c for c in deck.cards if not deck.is_joker(c)]
    if players * cards > len(naturals):  # a full deck: every joker is dealt
        jokers = list(deck.jokers)
    pool = jokers + rng.sample(naturals, players * cards - len(jokers))
    rng.shuffle(pool)
    hands = [0] * players
    for index, card in enumerate(pool):
        hands[index % players] |= 1 << card
    chosen: DealKind = kind if kind is not None else rng.choice(("normal", "normal", "normal", "no-trump"))
    trump = rng.choice((*Suit, None)) if has_trump(chosen) else None
    dealer = rng.randrange(players)
    deal = Deal(rules, players, dealer, cards, chosen, trump, hands)
    deal.skip_bidding()
    if played is None:
        played = rng.randrange(players * cards)
    random_play(rng, deal, played)
    return deal


def random_play(rng: random.Random, deal: Deal, count: int) -> None:
    """Play ``count`` random legal cards (fewer if the deal ends or a player
    has no legal play)."""
    for _ in range(count):
        seat = deal.to_play
        if seat is None:
            return
        plays = deal.legal_plays()
        if not plays:
            return
        play = rng.choice(plays)
        deal.apply_legal(seat, play.card, play.joker)


def random_small_case(rng: random.Random, presets: Sequence[str] = PRESETS) -> tuple[Deal, int]:
    """A random small position (2 to 4 players, 1 to 4 cards, every preset,
    shuffled options) and a seat to solve for: brute force stays fast."""
    preset = rng.choice(list(presets))
    as_ok = rng.random() < 0.25
    rules = random_rules(rng, preset, allow_as=as_ok)
    uses_as = "as" in rules.joker_lead_modes + rules.joker_follow_modes
    players = rng.randint(2, 4)
    top = 2 if uses_as else 4
    cards = rng.randint(1, min(top, rules.deck // players))
    if uses_as and players * cards > 6:
        players = 2
    total = players * cards
    # brute force grows as (choices per card) ** (cards left): keep at most ~10 to play
    low = max(0, total - (7 if uses_as else 10))
    deal = random_position(rng, rules, players, cards, played=rng.randint(low, total - 1))
    return deal, rng.randrange(players)

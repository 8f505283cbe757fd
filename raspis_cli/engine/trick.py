"""The trick rule, written once: which suit is led, which cards
a player must play, how natural cards rank, and who wins a trick without a
joker (who bids first is :func:`raspis_cli.rules.seats.bidding_order`).

The engine (:class:`~raspis_cli.engine.deal.Deal`: legality, the card-by-card
play, :func:`~raspis_cli.engine.deal.trick_winner`), the simulator's bots and
the tests' fault injector all call these, so a change here (a new void rule,
say) reaches every one of them. The one exception is the engine's fast
whole-trick path (:meth:`~raspis_cli.engine.deal.Deal.play_plain_tricks`),
which writes :func:`follow_mask` as bit-mask tests inline for speed (the
joker's whole-trick path, :meth:`~raspis_cli.engine.deal.Deal.play_joker_trick`,
calls the engine's own checks per card instead);
``tests/test_compact_play.py`` holds them to the card-by-card verdicts. Suits are
indexes 0..3 (♠ ♣ ♦ ♥) with :data:`~raspis_cli.model.cards.NO_SUIT` for "none"
(no trump; nothing led yet); cards are indexes 0..53 and hands bit masks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, assert_never

from raspis_cli.model.cards import NO_SUIT, RANK_INDEX, SUIT_INDEX, Suit
from raspis_cli.model.joker import JokerDecl
from raspis_cli.model.joker_modes import DEMANDS
from raspis_cli.rules.values import Void

__all__ = [
    "LED_BASE",
    "Entry",
    "ORDER",
    "TRUMP_BASE",
    "card_order",
    "demand_mask",
    "follow_mask",
    "led_suit",
    "must_trump",
    "must_trump_highest",
    "natural_plays",
    "plain_winner",
    "trick_trump",
    "void_mask",
]

Entry = tuple[int, int, JokerDecl | None]
"""A card in a trick: (seat, card index, joker declaration or ``None``)."""

TRUMP_BASE: Final = 40
"""A trump ranks ``TRUMP_BASE + rank index`` (:data:`ORDER`)."""
LED_BASE: Final = 20
"""A card of the suit led ranks ``LED_BASE + rank index``; any other card 0."""

ORDER: Final = tuple(
    tuple(
        tuple(TRUMP_BASE + RANK_INDEX[c] if c < 52 and SUIT_INDEX[c] == trump
              else LED_BASE + RANK_INDEX[c] if c < 52 and SUIT_INDEX[c] == led else 0
              for c in range(54))
        for trump in range(NO_SUIT + 1)
    )
    for led in range(NO_SUIT + 1)
)
"""``ORDER[led][trump][card]``: how a natural card ranks in a trick: trumps
above the suit led above the rest (0, they never win). ``led`` and ``trump``
are suit indexes or :data:`~raspis_cli.model.cards.NO_SUIT`; a joker's own rank is
decided by its declaration, not here."""


def card_order(card: int, led: int, trump: int) -> int:
    """How a natural card ranks in a trick with this suit led and trump."""
    return ORDER[led][trump][card]


def trick_trump(led: int, deal_trump: int, circular: bool) -> int:
    """The trump of one trick: the deal's, or under ``circular_trumps`` the
    suit after the suit led (none while nothing is led). The one rule of
    circular trumps: the engine, the simulator, the bots call it, and the
    solver's kernel reads a table made from it."""
    if circular:
        return NO_SUIT if led == NO_SUIT else (led + 1) % 4
    return deal_trump


def plain_winner(cards: Sequence[int], trump: int) -> int:
    """The position (in play order) of the card that wins a trick of natural
    cards (no joker): the highest trump, else the highest card of the suit led."""
    first = cards[0]
    keys = ORDER[SUIT_INDEX[first]][trump]
    best = 0
    best_key = keys[first]
    for position in range(1, len(cards)):
        key = keys[cards[position]]
        if key > best_key:
            best_key = key
            best = position
    return best


def must_trump(void: Void) -> bool:
    """Whether a player void in the suit led must play a trump when holding
    one (the whole-trick bit-mask paths and the solver's kernel read this)."""
    match void:
        case "free":
            return False
        case "must-trump" | "must-trump-high":
            return True
        case _:
            assert_never(void)


def must_trump_highest(void: Void) -> bool:
    """Whether a player void in the suit a joker demands ``highest`` of must
    play their highest trump (``void: must-trump-high``, по старшим)."""
    match void:
        case "free" | "must-trump":
            return False
        case "must-trump-high":
            return True
        case _:
            assert_never(void)


def void_mask(hand: int, trump: int, void: Void, suit_masks: Sequence[int]) -> tuple[int, str]:
    """The cards a player void in the suit asked for may play, and the
    violation kind for another: anything, or (``void: must-trump``) a trump
    when one is held."""
    if must_trump(void) and trump != NO_SUIT:
        trumps = hand & suit_masks[trump]
        if trumps:
            return trumps, "must-trump"
    return hand, ""


def follow_mask(hand: int, led: int, trump: int, void: Void,
                suit_masks: Sequence[int]) -> tuple[int, str]:
    """The natural cards of ``hand`` that may follow a natural card of suit
    ``led``, and the violation kind for another card: the suit led when held
    (``follow-suit``), else :func:`void_mask`."""
    suit_cards = hand & suit_masks[led]
    if suit_cards:
        return suit_cards, "follow-suit"
    return void_mask(hand, trump, void, suit_masks)


def demand_mask(hand: int, suit: int, demand: str, trump: int, void: Void,
                suit_masks: Sequence[int]) -> tuple[int, str]:
    """The natural cards of ``hand`` that may answer a leading joker's demand
    (``demand``: ``highest`` or ``lowest``, :data:`~raspis_cli.model.joker_modes.DEMANDS`)
    for ``suit``, and the violation kind for another: that card of the suit
    when held (``joker-demand``), else :func:`void_mask`; under ``void:
    must-trump-high`` a player void in the suit demanded ``highest`` must
    play their highest trump."""
    suit_cards = hand & suit_masks[suit]
    if suit_cards:
        top = 1 << (suit_cards.bit_length() - 1) if demand == "highest" else suit_cards & -suit_cards
        return top, "joker-demand"
    allowed, kind = void_mask(hand, trump, void, suit_masks)
    if kind and demand == "highest" and must_trump_highest(void):
        return 1 << (allowed.bit_length() - 1), kind
    return allowed, kind


def natural_plays(hand: int, trick: Sequence[Entry], joker_mask: int, deal_trump: int, circular: bool,
                  void: Void, free_after_take: bool, suit_masks: Sequence[int]) -> tuple[int, str]:
    """The natural cards of ``hand`` (jokers left out) that may be played on
    the trick so far, and the violation kind for another: anything on the
    lead; against a leading joker's demand, :func:`demand_mask`; after a
    leading ``take`` with no suit under ``joker_take_lead: follow-freely``
    (``free_after_take``), anything; else :func:`follow_mask` of the suit led
    (anything while none is). The engine (``Deal.legal_naturals`` and its
    checks) and the bots call it."""
    natural = hand & ~joker_mask
    if not trick:
        return natural, ""
    led, decl = led_suit(trick, joker_mask)
    trump = trick_trump(NO_SUIT if led is None else led, deal_trump, circular)
    if decl is not None:
        demand = DEMANDS.get(decl.mode)
        if demand is not None and decl.suit is not None:
            return demand_mask(natural, decl.suit, demand, trump, void, suit_masks)
        if free_after_take and decl.mode == "take" and decl.suit is None:
            return natural, ""
    if led is None:
        return natural, ""
    return follow_mask(natural, led, trump, void, suit_masks)


_SUITS: Final = (Suit.S, Suit.C, Suit.D, Suit.H)
"""Suit members by index (an enum call per card costs more than the rest of :func:`led_suit`)."""


def led_suit(trick: Sequence[Entry], joker_mask: int) -> tuple[Suit | None, JokerDecl | None]:
    """The suit led of a (possibly partial) trick and the leading joker's
    declaration: a natural lead's suit; a leading joker's declared suit (or
    the suit of the card it is declared as); failing that the first natural
    card played after it (``None`` while there is none)."""
    if not trick:
        return None, None
    _, card, decl = trick[0]
    if not joker_mask >> card & 1:
        return _SUITS[SUIT_INDEX[card]], None
    if decl is not None:
        if decl.mode == "as" and decl.card is not None and decl.card.suit is not None:
            return decl.card.suit, decl
        if decl.suit is not None and decl.mode != "as":
            return decl.suit, decl
    for _, other, _ in trick[1:]:
        if not joker_mask >> other & 1:
            return _SUITS[SUIT_INDEX[other]], decl
    return None, decl


"""The joker's options as decisions (docs/RULES.md §6): one function per
question, each an exhaustive ``match`` over the option's closed type. The
engine (:mod:`raspis_cli.engine.deal`) and the solver's kernel (its switches,
:mod:`raspis_cli.solver.search`) take their answers from here."""

from __future__ import annotations

from typing import assert_never

from raspis_cli.model.cards import Suit
from raspis_cli.rules import Rules
from raspis_cli.rules.values import second_joker_is_opposite

__all__ = ["discard_names_suit", "high_joker_wins_trumped", "low_joker_wins_unfollowed", "opposite_jokers",
           "take_lead_follows_freely", "take_suit_counts"]


def high_joker_wins_trumped(rules: Rules) -> bool:
    """``joker_high_winner``: whether a joker led ``high`` in a suit that is
    not trump still wins when someone trumps it."""
    match rules.joker_high_winner:
        case "joker":
            return True
        case "highest-trump":
            return False
        case _:
            assert_never(rules.joker_high_winner)


def low_joker_wins_unfollowed(rules: Rules) -> bool:
    """``joker_low_nobody_follows``: whether a joker led ``low`` + suit wins
    when nobody plays that suit or a trump (else the first real card's suit
    counts as led)."""
    match rules.joker_low_nobody_follows:
        case "first-card-suit":
            return False
        case "joker-wins":
            return True
        case _:
            assert_never(rules.joker_low_nobody_follows)


def opposite_jokers(rules: Rules) -> bool:
    """``two_jokers``: whether the second joker of a trick counts as the
    opposite of the first (else a later ``take`` beats an earlier one)."""
    return second_joker_is_opposite(rules.two_jokers)


def take_lead_follows_freely(rules: Rules) -> bool:
    """``joker_take_lead``: whether, after a joker led ``take`` with no suit,
    the others may play any card (else the second card played sets the suit
    led, as after any suitless lead)."""
    match rules.joker_take_lead:
        case "second-card-sets-suit":
            return False
        case "follow-freely":
            return True
        case _:
            assert_never(rules.joker_take_lead)


def discard_names_suit(rules: Rules) -> bool:
    """``discard_suit``: whether a discarding joker must name its suit."""
    match rules.discard_suit:
        case "required":
            return True
        case "optional":
            return False
        case _:
            assert_never(rules.discard_suit)


def take_suit_counts(rules: Rules, suit: Suit, trump: Suit | None, *, leading: bool) -> bool:
    """Whether a joker declared ``take`` with ``suit`` plays otherwise than a
    ``take`` with no suit, ``trump`` being the trick's trump: on the lead the
    suit is led; following, it matters only under ``joker_take_beaten_by_trump``
    and only when it is not the trump (a trump played after a ``take`` in
    another suit beats it). Otherwise the two are the same play."""
    if leading:
        return True
    return rules.joker_take_beaten_by_trump and trump is not None and suit != trump

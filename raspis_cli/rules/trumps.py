"""Whose card the trump is (docs/RULES.md §3, ``trump_card`` and
``full_deal_trump``): one function the engine's check of a record asks; the
simulator's deal matches on the same closed types."""

from __future__ import annotations

from typing import Literal, assert_never

from raspis_cli.rules import Rules
from raspis_cli.rules.values import FullDealTrump

__all__ = ["FullDealTrumpHolder", "TrumpHolder", "full_deal_trump_holder", "trump_holder"]

FullDealTrumpHolder = Literal["dealer", "anyone", "no-trump"]
"""Whose card the trump of a full deal is: the dealer's own (shown, or the
last card dealt, which is the dealer's), anybody's (a random card of the
deck), or there is no trump."""
TrumpHolder = FullDealTrumpHolder | Literal["stock"]
"""Whose card the trump of a deal is: as for a full deal, or nobody's (the
first card of the stock, turned up)."""


def full_deal_trump_holder(mode: FullDealTrump) -> FullDealTrumpHolder:
    """Whose card is the trump of a deal in which every card is dealt."""
    match mode:
        case "dealer-shows" | "last-card":
            return "dealer"
        case "random-card":
            return "anyone"
        case "none":
            return "no-trump"
        case _:
            assert_never(mode)


def trump_holder(rules: Rules, full: bool) -> TrumpHolder:
    """Whose card is the trump of a deal (``full``: every card is dealt)."""
    if full:
        return full_deal_trump_holder(rules.full_deal_trump)
    match rules.trump_card:
        case "turned-up":
            return "stock"
        case "dealer-last":
            return "dealer"
        case _:
            assert_never(rules.trump_card)

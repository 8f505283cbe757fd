"""The closed types of the options' values: one ``Literal`` per option that
takes a word, the values listed once.

An option's allowed values (:data:`~raspis_cli.rules.options.OPTIONS`), the
field of :class:`~raspis_cli.rules.Rules` that holds it and every decision
over it take the values from the type here. Every decision is a ``match``
ending in ``assert_never``, so a value added to a type makes ``mypy
--strict`` name each place that must handle it (CONTRIBUTING.md, "A new
value of a rule option"; ``tests/test_rule_types.py`` proves it).

This module imports only the standard library and the model's tables of kinds and joker modes.
"""

from __future__ import annotations

from typing import Final, Literal, TypeGuard, assert_never, get_args

from raspis_cli.model.deal_kinds import DEAL_KINDS, DealKind, SpecialKind, is_deal_kind, judged_kind
from raspis_cli.model.joker_modes import JokerModeName

__all__ = [
    "DEALER_RESTRICTIONS",
    "DEAL_KINDS",
    "DealKind",
    "DealerRestrictionName",
    "DiscardSuit",
    "FirstLeader",
    "FullDealTrump",
    "JokerCard",
    "JokerHighWinner",
    "JokerLowNobodyFollows",
    "JokerModeName",
    "JokerTakeLead",
    "SCORE_EXTRAS",
    "ScheduleName",
    "ScoreExtra",
    "is_deal_kind",
    "is_dealer_restriction",
    "judged_kind",
    "SpecialKind",
    "ThirdPass",
    "TrumpCard",
    "TwoJokers",
    "Void",
    "second_joker_is_opposite",
    "ZeroTotalRank",
    "values_of",
]

JokerCard = Literal["7S", "6S", "none"]
"""``joker``: the card that is the joker in 36 cards."""
ScheduleName = Literal["raspisnoy", "classic", "georgian", "joker54", "blocks", "free"]
"""``schedule``: the sequence of deals."""
TrumpCard = Literal["turned-up", "dealer-last"]
"""``trump_card``: the trump of a deal that leaves cards over: turned up from
the stock, or the dealer's own last card, shown."""
FullDealTrump = Literal["dealer-shows", "last-card", "random-card", "none"]
"""``full_deal_trump``: the trump when every card is dealt."""
DealerRestrictionName = Literal["sum", "no-full-bid", "off"]
"""``dealer_restriction``: what the dealer may not bid."""
ThirdPass = bool | Literal["players"]
"""``third_pass``: ``False``, ``True`` (no third pass in a row) or ``players``."""
Void = Literal["free", "must-trump", "must-trump-high"]
"""``void``: what a player void in the suit led must play."""
FirstLeader = Literal["left-of-dealer", "dealer"]
"""``first_leader``: who leads the first trick."""
JokerHighWinner = Literal["joker", "highest-trump"]
"""``joker_high_winner``: who wins a non-trump ``high`` demand answered with a trump."""
JokerLowNobodyFollows = Literal["first-card-suit", "joker-wins"]
"""``joker_low_nobody_follows``: who wins a ``low`` lead nobody follows."""
TwoJokers = Literal["later-wins", "opposite"]
"""``two_jokers``: both jokers in one trick."""
JokerTakeLead = Literal["second-card-sets-suit", "follow-freely"]
"""``joker_take_lead``: after a joker led ``take`` with no suit."""
DiscardSuit = Literal["required", "optional"]
"""``discard_suit``: whether a discarding joker names a suit."""
ZeroTotalRank = Literal["as-scored", "second"]
"""``zero_total_rank``: where a final total of exactly 0 ranks."""
ScoreExtra = Literal["percent-4", "full-bid-double", "miser-sweep"]
"""An item of ``score_extras``: a scoring rule some tables add."""


def values_of(closed: object) -> tuple[str, ...]:
    """The values of a closed type (a ``Literal``, or a union with one), in
    the order written."""
    out: list[str] = []
    for arg in get_args(closed):
        if isinstance(arg, str):
            out.append(arg)
        else:
            out.extend(values_of(arg))
    return tuple(out)


DEALER_RESTRICTIONS: Final[tuple[DealerRestrictionName, ...]] = get_args(DealerRestrictionName)
"""Every value of ``dealer_restriction``, in the order of docs/RULES.md."""
SCORE_EXTRAS: Final[tuple[ScoreExtra, ...]] = get_args(ScoreExtra)
"""The items of ``score_extras``."""


def is_dealer_restriction(text: str | None) -> TypeGuard[DealerRestrictionName]:
    """Whether a stored word is a value of ``dealer_restriction``."""
    return text in DEALER_RESTRICTIONS


def second_joker_is_opposite(two_jokers: TwoJokers) -> bool:
    """``two_jokers``: whether the second joker of a trick counts as the opposite of the
    first (else a later ``take`` beats an earlier one). The one decision over the value:
    :func:`raspis_cli.rules.jokers.opposite_jokers` asks it for the engine and the solver,
    :class:`~raspis_cli.rules.Rules` for the joker options it refuses."""
    match two_jokers:
        case "later-wins":
            return False
        case "opposite":
            return True
        case _:
            assert_never(two_jokers)

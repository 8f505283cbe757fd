"""Which bids are forbidden (docs/RULES.md §4): one table per option, one function.

:func:`forbidden_bids` is the rule; every path that judges or makes a bid
calls it: the engine seat by seat (:meth:`~raspis_cli.engine.deal.Deal.bid`,
:meth:`~raspis_cli.engine.deal.Deal.legal_bids`), the whole deal's bids at
once (:meth:`~raspis_cli.engine.deal.Deal.bid_all`), a score sheet's line
(:meth:`~raspis_cli.engine.game.Game.sheet_deal`) and the simulator's bots.

**A new value of** ``dealer_restriction`` or ``third_pass`` is one more
value of its closed type (:mod:`raspis_cli.rules.values`); ``mypy --strict``
then names each ``match`` here that must say what it forbids, and the
paragraph in docs/RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, assert_never

from raspis_cli.rules.values import DealerRestrictionName, ThirdPass
from raspis_cli.text.i18n import N_

__all__ = ["bids_allowed", "dealer_forbidden", "dealer_restriction_label", "dealer_restriction_message",
           "forbidden_bids", "next_pass_streak", "pass_limit", "pass_limit_message"]


def dealer_forbidden(restriction: DealerRestrictionName, cards: int, before: int) -> tuple[int, ...]:
    """The bids the dealer (bidding last) may not make under ``restriction``:
    ``cards`` in the deal, ``before`` the sum of the other players' bids."""
    match restriction:
        case "sum":
            return (cards - before,) if 0 <= cards - before <= cards else ()
        case "no-full-bid":
            return (cards,)
        case "off":
            return ()
        case _:
            assert_never(restriction)


def dealer_restriction_message(restriction: DealerRestrictionName) -> str:
    """The violation's text (``{player}``, ``{bid}``, ``{cards}``), marked for
    the catalogue: a person reads ``_(message)``."""
    match restriction:
        case "sum":
            return N_("the dealer {player} bid {bid}, making the bids add up to {cards}, the number of cards")
        case "no-full-bid":
            return N_("the dealer {player} bid all {cards} cards")
        case "off":
            return ""
        case _:
            assert_never(restriction)


def dealer_restriction_label(restriction: DealerRestrictionName) -> str:
    """How a statistics table shows the value (marked for the catalogue;
    empty: never shown)."""
    match restriction:
        case "sum":
            return N_("sum")
        case "no-full-bid":
            return N_("no-full-bid")
        case "off":
            return ""
        case _:
            assert_never(restriction)


def pass_limit(third_pass: ThirdPass, players: int) -> int | None:
    """The number of passes in a row nobody may make under ``third_pass``
    (``None``: any number may be made)."""
    match third_pass:
        case False:
            return None
        case True:
            return 3
        case "players":
            return players
        case _:
            assert_never(third_pass)


def pass_limit_message(third_pass: ThirdPass) -> str:
    """The ``third-pass`` violation's text (``{player}``, ``{n}``: the limit),
    marked for the catalogue."""
    match third_pass:
        case False:
            return ""
        case True:
            return N_("{player} passed in a third consecutive deal")
        case "players":
            return N_("{player} passed in {n} consecutive deals, as many as there are players")
        case _:
            assert_never(third_pass)


def next_pass_streak(streak: int, bid: int | None) -> int:
    """A player's passes in a row after a deal with bids in which they bid
    ``bid``: one more after a pass, none after any other bid (a deal without
    bids leaves the streak as it is: the callers do not ask)."""
    return streak + 1 if bid == 0 else 0


_NOTHING: Final[Mapping[int, str]] = {}


def forbidden_bids(restriction: DealerRestrictionName, limit: int | None, cards: int, dealer: bool,
                   before: int, streak: int) -> Mapping[int, str]:
    """The bids 0..``cards`` a bidder may not make, each with its violation
    kind (``dealer-restriction``, ``third-pass``); empty when every bid is
    allowed. ``restriction`` is the rules' ``dealer_restriction``, ``limit``
    the :func:`pass_limit`; ``dealer``: the bidder deals (and bids last),
    ``before`` the sum of the bids made before, ``streak`` the bidder's deals
    with bids passed in a row. A pass the pass limit forbids stays allowed
    when the dealer's restriction leaves no other bid. (A bid outside 0..cards
    is ``bid-range``, whatever the rules.)"""
    out: dict[int, str] | None = None
    if dealer:
        found = dealer_forbidden(restriction, cards, before)
        if found:
            out = dict.fromkeys(found, "dealer-restriction")
    if limit is not None and streak >= limit - 1:
        others = 0 if out is None else sum(1 for bid in out if bid > 0)
        if others < cards and (out is None or 0 not in out):
            if out is None:
                out = {}
            out[0] = "third-pass"
    return _NOTHING if out is None else out


def bids_allowed(restriction: DealerRestrictionName, limit: int | None, cards: int, bids: Sequence[int],
                 streaks: Sequence[int]) -> bool:
    """Whether a whole deal's bids, in bidding order (the dealer's last), each
    within 0..``cards``, break none of :func:`forbidden_bids` (``streaks`` in
    the same order)."""
    before = 0
    last = len(bids) - 1
    for position, bid in enumerate(bids):
        forbidden = forbidden_bids(restriction, limit, cards, position == last, before, streaks[position])
        if forbidden and bid in forbidden:
            return False
        before += bid
    return True

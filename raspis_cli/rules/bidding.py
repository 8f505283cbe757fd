"""Which bids are forbidden (docs/RULES.md §4): one table per option, one function.

:func:`forbidden_bids` is the rule; every path that judges or makes a bid
calls it: the engine seat by seat (:meth:`~raspis_cli.engine.deal.Deal.bid`,
:meth:`~raspis_cli.engine.deal.Deal.legal_bids`), the whole deal's bids at
once (:meth:`~raspis_cli.engine.deal.Deal.bid_all`), a score sheet's line
(:meth:`~raspis_cli.engine.game.Game.sheet_deal`) and the simulator's bots.

**A new value of** ``dealer_restriction`` is one row of
:data:`DEALER_RESTRICTIONS` (the option takes its values from here) and its
paragraph in docs/RULES.md; **a new value of** ``third_pass`` one entry of
:data:`PASS_LIMITS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from raspis_cli.text.i18n import N_

__all__ = ["DEALER_RESTRICTIONS", "PASS_LIMITS", "DealerRestriction", "PassLimit", "bids_allowed",
           "forbidden_bids", "pass_limit"]


@dataclass(frozen=True, slots=True)
class DealerRestriction:
    """One value of ``dealer_restriction``.

    ``forbidden(cards, before)`` gives the dealer's forbidden bids (``cards``
    in the deal, ``before`` the sum of the other players' bids; the dealer
    bids last); ``message`` is the violation's text (``{player}``, ``{bid}``,
    ``{cards}``), ``label`` how a statistics table shows the value (empty:
    never shown).
    """

    value: str
    forbidden: Callable[[int, int], tuple[int, ...]]
    message: str
    label: str


def _sum(cards: int, before: int) -> tuple[int, ...]:
    return (cards - before,) if 0 <= cards - before <= cards else ()


def _full(cards: int, before: int) -> tuple[int, ...]:
    return (cards,)


def _none(cards: int, before: int) -> tuple[int, ...]:
    return ()


DEALER_RESTRICTIONS: Final[dict[str, DealerRestriction]] = {
    row.value: row for row in (
        DealerRestriction("sum", _sum, N_("the dealer {player} bid {bid}, making the bids add up to {cards}, "
                                          "the number of cards"), N_("sum")),
        DealerRestriction("no-full-bid", _full, N_("the dealer {player} bid all {cards} cards"),
                          N_("no-full-bid")),
        DealerRestriction("off", _none, "", ""),
    )
}
"""Every value of ``dealer_restriction``, in the order docs/RULES.md lists them."""

@dataclass(frozen=True, slots=True)
class PassLimit:
    """One value of ``third_pass``: ``limit(players)`` is the number of
    passes in a row nobody may make (``None``: any number may be made);
    ``message`` the violation's text (``{player}``, ``{n}``: the limit)."""

    limit: Callable[[int], int | None]
    message: str


PASS_LIMITS: Final[dict[object, PassLimit]] = {
    False: PassLimit(lambda players: None, ""),
    True: PassLimit(lambda players: 3, N_("{player} passed in a third consecutive deal")),
    "players": PassLimit(lambda players: players,
                         N_("{player} passed in {n} consecutive deals, as many as there are players")),
}
"""Every value of ``third_pass`` (the option's values)."""


def pass_limit(third_pass: object, players: int) -> int | None:
    """The number of passes in a row nobody may make under ``third_pass``."""
    return PASS_LIMITS[third_pass].limit(players)


_NOTHING: Final[Mapping[int, str]] = {}


def forbidden_bids(restriction: str, limit: int | None, cards: int, dealer: bool, before: int,
                   streak: int) -> Mapping[int, str]:
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
        found = DEALER_RESTRICTIONS[restriction].forbidden(cards, before)
        if found:
            out = dict.fromkeys(found, "dealer-restriction")
    if limit is not None and streak >= limit - 1:
        others = 0 if out is None else sum(1 for bid in out if bid > 0)
        if others < cards and (out is None or 0 not in out):
            if out is None:
                out = {}
            out[0] = "third-pass"
    return _NOTHING if out is None else out


def bids_allowed(restriction: str, limit: int | None, cards: int, bids: Sequence[int],
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

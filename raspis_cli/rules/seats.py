"""Who sits where in the order of a deal: the one rule of who bids (and leads) first.

Bidding goes from the player left of the dealer, clockwise, the dealer last
(docs/RULES.md §1); the first trick is led by the same player, or by the
dealer under ``first_leader: dealer`` (:func:`first_leader`). The engine, the
notation's writer (a sheet's bids in bidding order) and the sheet at the table
all take the order from here.
"""

from __future__ import annotations

from typing import assert_never

from raspis_cli.rules.values import FirstLeader

__all__ = ["bidding_order", "first_leader"]


def bidding_order(first_bidder: int, players: int) -> list[int]:
    """The seats in bidding order: the first bidder (left of the dealer) round
    the table to the dealer."""
    return [(first_bidder + i) % players for i in range(players)]


def first_leader(rule: FirstLeader, dealer: int, players: int) -> int:
    """The seat that leads the first trick of a deal under ``first_leader``:
    the first bidder (left of the dealer) or the dealer. The engine, the
    simulator's integer loop and the sheet all ask this."""
    match rule:
        case "left-of-dealer":
            return (dealer + 1) % players
        case "dealer":
            return dealer
        case _:
            assert_never(rule)

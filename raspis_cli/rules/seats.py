"""Who sits where in the order of a deal: the one rule of who bids (and leads) first.

Bidding goes from the player left of the dealer, clockwise, the dealer last
(docs/RULES.md §1); the first trick is led by the same player. The engine, the
notation's writer (a sheet's bids in bidding order) and the sheet at the table
all take the order from here.
"""

from __future__ import annotations

__all__ = ["bidding_order"]


def bidding_order(first_bidder: int, players: int) -> list[int]:
    """The seats in bidding order: the first bidder (left of the dealer) round
    the table to the dealer."""
    return [(first_bidder + i) % players for i in range(players)]

"""The pure rules engine: deals, legality, tricks and scores.

No I/O, no printing, no third-party imports: it takes values and returns
values. :class:`Game` checks the sequence of deals, :class:`Deal` a deal's
bidding and play; both list legal actions and check recorded ones with the
same code.
"""

from raspis_cli.engine.actions import Play, Violation
from raspis_cli.engine.deal import BIDDING, DONE, PLAY, Deal, TrickResult, trick_winner
from raspis_cli.engine.game import Game, TrumpInput, effective_trump
from raspis_cli.engine.scoring import KINDS_WITHOUT_BIDS, bid_score, infer_taken
from raspis_cli.model.joker import JokerDecl

__all__ = [
    "BIDDING",
    "DONE",
    "KINDS_WITHOUT_BIDS",
    "PLAY",
    "Deal",
    "Game",
    "JokerDecl",
    "Play",
    "TrickResult",
    "TrumpInput",
    "Violation",
    "bid_score",
    "effective_trump",
    "infer_taken",
    "trick_winner",
]

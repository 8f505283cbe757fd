"""What an analysis finds, as values: a mistake, a player's deal, a deal, a player's summary, a game.

Each has ``to_json`` (the objects of docs/ANALYZE.md); their words are
:mod:`raspis_cli.analyze.words`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from raspis_cli.solver.pimc import BidAdvice
from raspis_cli.solver.search import Outcome

__all__ = ["DealAnalysis", "GameAnalysis", "Mistake", "PlayerDeal", "PlayerSummary"]


@dataclass(slots=True)
class Mistake:
    """A card that lost a bid (``kind`` ``lost-bid``) or handed one to
    another player (``handed-bid``)."""

    kind: str
    trick: int
    player: str
    card: str
    declared: str | None
    bidder: str
    bid: int
    keeping: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        """The mistake object of docs/ANALYZE.md."""
        out: dict[str, object] = {"kind": self.kind, "trick": self.trick, "player": self.player,
                                  "card": self.card, "bidder": self.bidder, "bid": self.bid}
        if self.declared:
            out["declared"] = self.declared
        if self.kind == "lost-bid":
            out["keeping"] = list(self.keeping)
        return out


@dataclass(slots=True)
class PlayerDeal:
    """One player's deal: bid, taken, what could be forced, advice."""

    player: str
    bid: int | None
    taken: int
    outcome: Outcome | None
    decisions: int = 0
    lost: int = 0
    advice: BidAdvice | None = None
    solved: bool = True

    @property
    def makeable(self) -> bool | None:
        """Whether the bid could be forced at the first card (``None``: unknown)."""
        if self.bid is None or self.outcome is None:
            return None
        return self.bid in self.outcome.exact

    def to_json(self) -> dict[str, object]:
        """The player object of docs/ANALYZE.md."""
        out: dict[str, object] = {"player": self.player, "bid": self.bid, "taken": self.taken,
                                  "made": self.bid is not None and self.bid == self.taken,
                                  "solved": self.solved}
        if self.outcome is not None:
            out["forceable"] = list(self.outcome.exact)
            out["at_least"] = self.outcome.at_least
            out["at_most"] = self.outcome.at_most
            out["makeable"] = self.makeable
        out["decisions"] = self.decisions
        out["mistakes"] = self.lost
        if self.advice is not None:
            advice = self.advice
            out["advice"] = {
                "samples": advice.samples,
                "solved": advice.solved,
                "expected": {str(b): round(v, 2) for b, v in advice.expected.items()},
                "best": advice.best,
                "regret": (round(advice.regret(self.bid), 2)
                           if self.bid is not None and advice.best is not None else None),
            }
        return out


@dataclass(slots=True)
class DealAnalysis:
    """One deal analysed, or why it could not be (``skipped``)."""

    number: int
    position: int
    cards: int
    kind: str
    players: list[PlayerDeal] = field(default_factory=list)
    mistakes: list[Mistake] = field(default_factory=list)
    skipped: str | None = None

    def to_json(self) -> dict[str, object]:
        """The deal object of docs/ANALYZE.md."""
        out: dict[str, object] = {"deal": self.number, "cards": self.cards, "kind": self.kind}
        if self.skipped is not None:
            out["skipped"] = self.skipped
            return out
        out["players"] = [p.to_json() for p in self.players]
        out["mistakes"] = [m.to_json() for m in self.mistakes]
        return out


@dataclass(slots=True)
class PlayerSummary:
    """One player's figures over a game."""

    player: str
    bids: int = 0
    makeable: int = 0
    made: int = 0
    decisions: int = 0
    mistakes: int = 0
    handed: int = 0
    regret: float = 0.0

    @property
    def accuracy(self) -> float | None:
        """(decisions − mistakes) / decisions, ``None`` without decisions."""
        if not self.decisions:
            return None
        return (self.decisions - self.mistakes) / self.decisions

    def to_json(self) -> dict[str, object]:
        """The summary object of docs/ANALYZE.md."""
        accuracy = self.accuracy
        return {"player": self.player, "bids": self.bids, "makeable": self.makeable,
                "made": self.made, "decisions": self.decisions, "mistakes": self.mistakes,
                "handed": self.handed, "regret": round(self.regret, 2),
                "accuracy": None if accuracy is None else round(accuracy, 4)}


@dataclass(slots=True)
class GameAnalysis:
    """Every deal of one game analysed, and the per-player summary."""

    index: int
    event: str | None
    deals: list[DealAnalysis]
    summary: list[PlayerSummary]

    def to_json(self) -> dict[str, object]:
        """The game object of docs/ANALYZE.md."""
        return {"game": self.index + 1, "event": self.event,
                "deals": [d.to_json() for d in self.deals],
                "summary": [s.to_json() for s in self.summary]}
